//! The MCP server side: `execute` and `search` over a [`Gateway`], on stdio or streamable HTTP.
//!
//! - `execute` (`{ code: string }`): runs the program. The reply's `structuredContent` is the
//!   Result object (`{ok, value | error, logs, toolCalls, ...}`), its first content part the same
//!   Result as compact JSON text (for clients that only show text), followed by the attachments
//!   (image/audio/resource parts returned by nested calls, numbered from 1 as the program saw
//!   them). `isError` is true when the Result is not ok.
//!   When the program calls a tool needing approval (`approve` in the config, `--approve`),
//!   the Result is paused (`{"ok": false, "status": "paused", "pending": [{id, name, input,
//!   location}], "toolCalls", "logs"}`), `isError` is false, and `structuredContent` (and the
//!   text) also carry `"resumeToken"`; the snapshot stays in the server's store.
//! - `resume` (`{ token, replies: {"<call id>": {"approve": true} | {"deny": "reason"} |
//!   {"value": V} | {"error": "message"}} }`), listed only when some tool needs approval:
//!   continues the paused execution of `token` once ([`Gateway::resume`]); its reply is
//!   `execute`'s (the whole execution's Result, maybe paused again with a new token). A
//!   denial or error is a catchable `ToolFailure` in the program.
//! - `search` (`{ query?, namespace?, limit?, offset? }`): the built-in search.
//! - When the request carries a `progressToken`, every nested tool call sends
//!   `notifications/progress` ("3 calls done: everything.get-sum"). `notifications/cancelled`
//!   interrupts the execution and is still answered, with the Result so far (its error says it
//!   was cancelled; in-flight calls are `interrupted`), so its `toolCalls` are not lost. rmcp
//!   drops the response of a cancelled request, so the notification is diverted before rmcp
//!   sees it (a transport wrapper on stdio, a session-manager wrapper on HTTP) into
//!   [`CANCEL_METHOD`], which cancels the execution only.
//! - When a downstream server's tools change, the `execute` description changes and the client
//!   receives `notifications/tools/list_changed`.
//! - Requests are served concurrently: one slow program does not block others.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientJsonRpcMessage,
    ClientNotification, CustomNotification, InitializeResult, JsonRpcMessage, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, RequestId, ServerCapabilities,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::gateway::Gateway;

/// The method a client's `notifications/cancelled` is rewritten to before rmcp sees it: rmcp
/// would drop the response of the cancelled request, and an `execute` answers it with the
/// Result so far.
pub const CANCEL_METHOD: &str = "codemode/cancelled";

/// Executions in flight in one session, by request id.
type Running = Arc<Mutex<HashMap<RequestId, codemode::CancellationToken>>>;

/// The MCP server handler (one per session; clones share the gateway).
#[derive(Clone)]
pub struct CodeModeServer {
    gateway: Arc<Gateway>,
    peers: Arc<Mutex<Vec<Peer<RoleServer>>>>,
    running: Running,
}

/// `notifications/cancelled` → [`CANCEL_METHOD`] with the same params; other messages as they
/// are.
fn divert_cancel(m: ClientJsonRpcMessage) -> ClientJsonRpcMessage {
    match m {
        JsonRpcMessage::Notification(n) => match n.notification {
            ClientNotification::CancelledNotification(c) => {
                JsonRpcMessage::notification(ClientNotification::CustomNotification(
                    CustomNotification::new(CANCEL_METHOD, serde_json::to_value(&c.params).ok()),
                ))
            }
            other => JsonRpcMessage::notification(other),
        },
        m => m,
    }
}

/// A server transport that diverts `notifications/cancelled` (see [`CANCEL_METHOD`]).
struct DivertCancel<T>(T);

impl<T: rmcp::transport::Transport<RoleServer>> rmcp::transport::Transport<RoleServer>
    for DivertCancel<T>
{
    type Error = T::Error;
    fn send(
        &mut self,
        item: rmcp::service::TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.0.send(item)
    }
    async fn receive(&mut self) -> Option<rmcp::service::RxJsonRpcMessage<RoleServer>> {
        self.0.receive().await.map(divert_cancel)
    }
    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.0.close()
    }
}

/// rmcp's local session manager, with `notifications/cancelled` diverted (see
/// [`CANCEL_METHOD`]) before the session sees it (it would also close the request's stream).
struct DivertingSessions(
    rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
);

mod sessions {
    use futures::Stream;
    use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
    use rmcp::transport::streamable_http_server::session::{
        RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
    };

    use super::{DivertingSessions, divert_cancel};

    type Inner = rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    type E = <Inner as SessionManager>::Error;
    type T = <Inner as SessionManager>::Transport;

    impl SessionManager for DivertingSessions {
        type Error = E;
        type Transport = T;
        async fn create_session(&self) -> Result<(SessionId, T), E> {
            self.0.create_session().await
        }
        async fn initialize_session(
            &self,
            id: &SessionId,
            message: ClientJsonRpcMessage,
        ) -> Result<ServerJsonRpcMessage, E> {
            self.0.initialize_session(id, message).await
        }
        async fn has_session(&self, id: &SessionId) -> Result<bool, E> {
            self.0.has_session(id).await
        }
        async fn close_session(&self, id: &SessionId) -> Result<(), E> {
            self.0.close_session(id).await
        }
        async fn create_stream(
            &self,
            id: &SessionId,
            message: ClientJsonRpcMessage,
        ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, E> {
            self.0.create_stream(id, message).await
        }
        async fn accept_message(
            &self,
            id: &SessionId,
            message: ClientJsonRpcMessage,
        ) -> Result<(), E> {
            self.0.accept_message(id, divert_cancel(message)).await
        }
        async fn create_standalone_stream(
            &self,
            id: &SessionId,
        ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, E> {
            self.0.create_standalone_stream(id).await
        }
        async fn resume(
            &self,
            id: &SessionId,
            last_event_id: String,
        ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, E> {
            self.0.resume(id, last_event_id).await
        }
        async fn restore_session(&self, id: SessionId) -> Result<RestoreOutcome<T>, E> {
            self.0.restore_session(id).await
        }
        fn event_store(
            &self,
        ) -> Option<std::sync::Arc<dyn rmcp::transport::streamable_http_server::session::EventStore>>
        {
            self.0.event_store()
        }
    }
}

impl CodeModeServer {
    /// A handler over `gateway`.
    pub fn new(gateway: Arc<Gateway>) -> CodeModeServer {
        let peers: Arc<Mutex<Vec<Peer<RoleServer>>>> = Arc::default();
        let p2 = peers.clone();
        gateway.on_change(Arc::new(move || {
            let peers = p2.lock().expect("peers lock").clone();
            for p in peers {
                tokio::spawn(async move {
                    let _ = p.notify_tool_list_changed().await;
                });
            }
        }));
        CodeModeServer {
            gateway,
            peers,
            running: Running::default(),
        }
    }

    /// A handler for another session: the same gateway and clients to notify, its own
    /// executions in flight (request ids are per session).
    fn session(&self) -> CodeModeServer {
        CodeModeServer {
            gateway: self.gateway.clone(),
            peers: self.peers.clone(),
            running: Running::default(),
        }
    }

    /// The tools (`execute`, `search`, and `resume` when some tool needs approval), with the
    /// current `execute` description.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        let execute = json!({
            "name": "execute",
            "title": "Run a Code Mode program",
            "description": self.gateway.execute_description(),
            "inputSchema": {
                "type": "object",
                "properties": {"code": {"type": "string", "description": words(self.gateway.language()).code}},
                "required": ["code"],
                "additionalProperties": false
            }
        });
        let search = json!({
            "name": "search",
            "title": "Search the tools available to programs",
            "description": words(self.gateway.language()).search,
            "inputSchema": codemode::search::search_input_schema(),
        });
        let mut tools = vec![
            serde_json::from_value(execute).expect("valid tool"),
            serde_json::from_value(search).expect("valid tool"),
        ];
        if self.gateway.approvals() {
            tools.push(serde_json::from_value(resume_tool()).expect("valid tool"));
        }
        tools
    }

    async fn execute(
        &self,
        args: &serde_json::Map<String, Value>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let Some(code) = args.get("code").and_then(Value::as_str) else {
            return error_result(words(self.gateway.language()).missing_code);
        };
        let gateway = self.gateway.clone();
        let code = code.to_string();
        self.run(context, move |cancel, progress| async move {
            Ok(gateway.execute(&code, cancel, progress).await)
        })
        .await
    }

    async fn resume(
        &self,
        args: &serde_json::Map<String, Value>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let Some(token) = args.get("token").and_then(Value::as_str) else {
            return error_result(
                "resume needs {\"token\": \"<resumeToken of the paused result>\", \"replies\": {\"<call id>\": {\"approve\": true}}}.",
            );
        };
        let token = token.to_string();
        let replies = args.get("replies").cloned().unwrap_or(Value::Null);
        let gateway = self.gateway.clone();
        self.run(context, move |cancel, progress| async move {
            gateway.resume(&token, &replies, cancel, progress).await
        })
        .await
    }

    /// Run an execution (`go`) with progress notifications and cancellation, and answer with
    /// its Result (see the module docs).
    async fn run<F, Fut>(&self, context: RequestContext<RoleServer>, go: F) -> CallToolResult
    where
        F: FnOnce(codemode::CancellationToken, Option<crate::attachments::ProgressFn>) -> Fut,
        Fut: Future<Output = Result<crate::gateway::Execution, String>>,
    {
        // Progress goes through one forwarding task, so notifications keep their order and all
        // of them are sent before the response.
        let mut forwarder = None;
        let progress = context.meta.get_progress_token().map(|token| {
            let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(u64, String)>();
            let peer = context.peer.clone();
            forwarder = Some(tokio::spawn(async move {
                while let Some((n, path)) = rx.recv().await {
                    let param: Result<ProgressNotificationParam, _> =
                        serde_json::from_value(json!({
                            "progressToken": token,
                            "progress": n,
                            "message": format!("{n} call{} done: {path}", if n == 1 { "" } else { "s" }),
                        }));
                    if let Ok(param) = param {
                        let _ = peer.notify_progress(param).await;
                    }
                }
            }));
            let f: crate::attachments::ProgressFn = Arc::new(move |n: u64, path: &str| {
                let _ = tx.send((n, path.to_string()));
            });
            f
        });
        // Cancelled by the client (through CANCEL_METHOD) or when the session ends.
        let cancel = context.ct.child_token();
        self.running
            .lock()
            .expect("running lock")
            .insert(context.id.clone(), cancel.clone());
        let exec = go(cancel, progress).await;
        self.running
            .lock()
            .expect("running lock")
            .remove(&context.id);
        if let Some(f) = forwarder {
            let _ = f.await;
        }
        let exec = match exec {
            Ok(e) => e,
            Err(m) => return error_result(&m),
        };
        let mut structured = exec.result.to_json_value();
        if let (Some(t), Some(o)) = (&exec.resume_token, structured.as_object_mut()) {
            o.insert("resumeToken".into(), json!(t));
        }
        let paused = exec.resume_token.is_some();
        let mut content = vec![json!({"type": "text", "text": structured.to_string()})];
        content.extend(exec.attachments);
        let v = json!({
            "content": content,
            "structuredContent": structured,
            "isError": !exec.result.is_ok() && !paused,
        });
        serde_json::from_value(v).unwrap_or_else(|e| error_result(&format!("internal: {e}")))
    }

    fn search(&self, args: &serde_json::Map<String, Value>) -> CallToolResult {
        match self.gateway.search(&Value::Object(args.clone())) {
            Ok(v) => {
                let r = json!({
                    "content": [{"type": "text", "text": v.to_string()}],
                    "structuredContent": v,
                });
                serde_json::from_value(r)
                    .unwrap_or_else(|e| error_result(&format!("internal: {e}")))
            }
            Err(m) => error_result(&m),
        }
    }

    fn remember(&self, peer: Peer<RoleServer>) {
        let mut p = self.peers.lock().expect("peers lock");
        p.retain(|q| !q.is_transport_closed());
        if p.len() < 1024 {
            p.push(peer);
        }
    }
}

/// What the server says about programs, in the words of their language.
struct Words {
    /// The server's `instructions` (sent at `initialize`).
    instructions: &'static str,
    /// The description of `execute`'s `code` argument.
    code: &'static str,
    /// The answer to an `execute` call without `code`.
    missing_code: &'static str,
    /// The description of the `search` tool.
    search: &'static str,
}

fn words(language: codemode::Language) -> Words {
    match language {
        codemode::Language::Lua => Words {
            instructions: "Code Mode: write one small Lua program that calls many tools (tools.<server>.<tool>{...}) and returns the combined result, with the `execute` tool. Browse tools with `search`.",
            code: "The Lua program. It ends with `return <value>`.",
            missing_code: "execute needs {\"code\": \"<Lua program>\"}: a string with the program, e.g. \"return 1 + 1\".",
            search: "Find tools that `execute` programs can call: by words (query), by namespace (a server name), with paging (limit, offset). Returns {items = {{path, description, signature}}, remaining, next}. An exact tool path returns that tool.",
        },
        codemode::Language::JavaScript => Words {
            instructions: "Code Mode: write one small JavaScript program that calls many tools (await tools.<server>.<tool>({ ... })) and returns the combined result, with the `execute` tool. Browse tools with `search`.",
            code: "The JavaScript program (TypeScript annotations accepted). It ends with `return <value>`.",
            missing_code: "execute needs {\"code\": \"<JavaScript program>\"}: a string with the program, e.g. \"return 1 + 1\".",
            search: "Find tools that `execute` programs can call: by words (query), by namespace (a server name), with paging (limit, offset). Returns {items: [{path, description, signature}], remaining, next}. An exact tool path returns that tool.",
        },
    }
}

/// The `resume` tool's definition.
fn resume_tool() -> Value {
    json!({
        "name": "resume",
        "title": "Continue a paused Code Mode program",
        "description": "Continue an execution that paused at tools needing approval (execute returned \"status\": \"paused\" with \"pending\" calls and a \"resumeToken\"). Give one reply per pending call id: {\"approve\": true} runs the call; {\"deny\": \"reason\"} or {\"error\": \"message\"} makes it fail in the program (a catchable error); {\"value\": V} makes it return V without running. A token resumes once. Returns the Result of the whole execution, which may be paused again with a new token.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "token": {"type": "string", "description": "The resumeToken of the paused result."},
                "replies": {
                    "type": "object",
                    "description": "One reply per pending call, by its id: {\"2\": {\"approve\": true}}.",
                    "additionalProperties": {
                        "type": "object",
                        "properties": {
                            "approve": {"const": true},
                            "deny": {"type": "string"},
                            "error": {"type": "string"},
                            "value": {}
                        },
                        "minProperties": 1,
                        "maxProperties": 1
                    }
                }
            },
            "required": ["token", "replies"],
            "additionalProperties": false
        }
    })
}

fn error_result(message: &str) -> CallToolResult {
    serde_json::from_value(json!({
        "content": [{"type": "text", "text": message}],
        "isError": true,
    }))
    .expect("valid result")
}

impl ServerHandler for CodeModeServer {
    fn get_info(&self) -> InitializeResult {
        let mut info = InitializeResult::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_instructions(words(self.gateway.language()).instructions);
        info.server_info.name = "codemode".into();
        info.server_info.version = env!("CARGO_PKG_VERSION").into();
        info
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.remember(context.peer);
    }

    async fn on_custom_notification(
        &self,
        notification: CustomNotification,
        _context: rmcp::service::NotificationContext<RoleServer>,
    ) {
        if notification.method != CANCEL_METHOD {
            return;
        }
        let id = notification
            .params_as::<rmcp::model::CancelledNotificationParam>()
            .ok()
            .flatten()
            .and_then(|p| p.request_id);
        if let Some(id) = id
            && let Some(t) = self.running.lock().expect("running lock").get(&id)
        {
            t.cancel();
        }
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = request.arguments.clone().unwrap_or_default();
        let r = match request.name.as_ref() {
            "execute" => self.execute(&args, context).await,
            "search" => self.search(&args),
            "resume" if self.gateway.approvals() => self.resume(&args, context).await,
            other => error_result(&format!(
                "Unknown tool '{other}': this server offers 'execute' (run a program) and 'search' (find tools){}.",
                if self.gateway.approvals() {
                    ", and 'resume' (continue a paused execution)"
                } else {
                    ""
                }
            )),
        };
        Ok(r.into())
    }
}

/// Serve MCP on stdin/stdout until the client disconnects.
///
/// # Errors
/// The transport failed to initialize.
pub async fn serve_stdio(gateway: Arc<Gateway>) -> Result<(), String> {
    let (stdin, stdout) = rmcp::transport::stdio();
    serve_io(gateway, stdin, stdout).await
}

/// Serve MCP as newline-delimited JSON-RPC read from `read` and written to `write` (what
/// [`serve_stdio`] does on stdin/stdout) until `read` ends.
///
/// # Errors
/// The transport failed to initialize.
pub async fn serve_io<R, W>(gateway: Arc<Gateway>, read: R, write: W) -> Result<(), String>
where
    R: tokio::io::AsyncRead + Send + Unpin + 'static,
    W: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let server = CodeModeServer::new(gateway);
    let transport = DivertCancel(rmcp::transport::async_rw::AsyncRwTransport::new_server(
        read, write,
    ));
    let running = server
        .serve(transport)
        .await
        .map_err(|e| format!("cannot serve MCP on stdio: {e}"))?;
    let _ = running.waiting().await;
    Ok(())
}

/// Serve MCP over streamable HTTP at `http://ADDR/mcp` until `shutdown` is cancelled. Calls
/// `bound` with the actual address (useful with port 0).
///
/// Requests whose `Origin` header is not the server's own (`http://<bound address>`, and
/// `http://localhost:<port>`, `http://127.0.0.1:<port>`, `http://[::1]:<port>` on loopback) nor
/// in the config's `codemode.allowedOrigins` are refused with 403 (the MCP transport's
/// DNS-rebinding guard); requests without `Origin` (non-browser clients) are served. A body that
/// is not a JSON-RPC message gets 400.
///
/// # Errors
/// The address cannot be bound.
pub async fn serve_http(
    gateway: Arc<Gateway>,
    addr: SocketAddr,
    shutdown: tokio_util::sync::CancellationToken,
    bound: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().unwrap_or(addr);
    let mut origins = own_origins(local);
    origins.extend(gateway.config().allowed_origins.iter().cloned());
    let server = CodeModeServer::new(gateway);
    let mut config = StreamableHttpServerConfig::default()
        .with_allowed_origins(origins)
        .enforce_origin_validation();
    config.cancellation_token = shutdown.clone();
    if !addr.ip().is_loopback() {
        config.allowed_hosts.clear();
    }
    let service = StreamableHttpService::new(
        move || Ok(server.session()),
        Arc::new(DivertingSessions(LocalSessionManager::default())),
        config,
    );
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(malformed_json_is_400));
    bound(local);
    axum::serve(listener, router)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
        .map_err(|e| format!("HTTP server failed: {e}"))
}

/// The origins of a server bound at `addr`: `http://<addr>`, and on loopback the same port at
/// `localhost`, `127.0.0.1` and `[::1]`.
fn own_origins(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut v = vec![format!("http://{addr}")];
    if addr.ip().is_loopback() {
        for host in ["localhost", "127.0.0.1", "[::1]"] {
            v.push(format!("http://{host}:{port}"));
        }
    }
    v
}

/// rmcp answers a JSON body that does not parse with 415 (Unsupported Media Type); with a JSON
/// `Content-Type` the media type is right and the body is wrong, which is 400.
async fn malformed_json_is_400(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let json = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|e| e.trim().eq_ignore_ascii_case("application/json"))
        });
    let response = next.run(request).await;
    if !json || response.status() != axum::http::StatusCode::UNSUPPORTED_MEDIA_TYPE {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 64 * 1024)
        .await
        .unwrap_or_default();
    let why = String::from_utf8_lossy(&body);
    let why = why
        .strip_prefix("fail to deserialize request body ")
        .unwrap_or(&why);
    axum::response::IntoResponse::into_response((
        axum::http::StatusCode::BAD_REQUEST,
        format!(
            "Bad Request: the body is not a JSON-RPC message ({why}); send one JSON-RPC request, notification or response as JSON."
        ),
    ))
}
