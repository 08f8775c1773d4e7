//! The MCP server side: `execute` and `search` over a [`Gateway`], on stdio or streamable HTTP.
//!
//! - `execute` (`{ code: string }`): runs the program. The reply's `structuredContent` is the
//!   Result object (`{ok, value | error, logs, toolCalls, ...}`), its first content part the same
//!   Result as compact JSON text (for clients that only show text), followed by the attachments
//!   (image/audio/resource parts returned by nested calls, numbered from 1 as the program saw
//!   them). `isError` is true when the Result is not ok.
//! - `search` (`{ query?, namespace?, limit?, offset? }`): the built-in search.
//! - When the request carries a `progressToken`, every nested tool call sends
//!   `notifications/progress` ("3 calls done: everything.get-sum"). `notifications/cancelled`
//!   interrupts the execution (the Result's error says it was cancelled; in-flight calls are
//!   `interrupted`).
//! - When a downstream server's tools change, the `execute` description changes and the client
//!   receives `notifications/tools/list_changed`.
//! - Requests are served concurrently: one slow program does not block others.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

use crate::gateway::Gateway;

/// The MCP server handler (one per session; clones share the gateway).
#[derive(Clone)]
pub struct CodeModeServer {
    gateway: Arc<Gateway>,
    peers: Arc<Mutex<Vec<Peer<RoleServer>>>>,
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
        CodeModeServer { gateway, peers }
    }

    /// The two tools, with the current `execute` description.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        let execute = json!({
            "name": "execute",
            "title": "Run a Code Mode program",
            "description": self.gateway.execute_description(),
            "inputSchema": {
                "type": "object",
                "properties": {"code": {"type": "string", "description": "The Lua program. It ends with `return <value>`."}},
                "required": ["code"],
                "additionalProperties": false
            }
        });
        let search = json!({
            "name": "search",
            "title": "Search the tools available to programs",
            "description": "Find tools that `execute` programs can call: by words (query), by namespace (a server name), with paging (limit, offset). Returns {items = {{path, description, signature}}, remaining, next}. An exact tool path returns that tool.",
            "inputSchema": codemode::search::search_input_schema(),
        });
        vec![
            serde_json::from_value(execute).expect("valid tool"),
            serde_json::from_value(search).expect("valid tool"),
        ]
    }

    async fn execute(
        &self,
        args: &serde_json::Map<String, Value>,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let Some(code) = args.get("code").and_then(Value::as_str) else {
            return error_result(
                "execute needs {\"code\": \"<Lua program>\"}: a string with the program, e.g. \"return 1 + 1\".",
            );
        };
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
        let exec = self
            .gateway
            .execute(code, context.ct.clone(), progress)
            .await;
        if let Some(f) = forwarder {
            let _ = f.await;
        }
        let structured = exec.result.to_json_value();
        let mut content = vec![json!({"type": "text", "text": exec.result.to_json_string()})];
        content.extend(exec.attachments);
        let v = json!({
            "content": content,
            "structuredContent": structured,
            "isError": !exec.result.is_ok(),
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
        .with_instructions(
            "Code Mode: write one small Lua program that calls many tools (tools.<server>.<tool>{...}) and returns the combined result, with the `execute` tool. Browse tools with `search`.",
        );
        info.server_info.name = "codemode".into();
        info.server_info.version = env!("CARGO_PKG_VERSION").into();
        info
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.remember(context.peer);
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
            other => error_result(&format!(
                "Unknown tool '{other}': this server offers 'execute' (run a program) and 'search' (find tools)."
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
    let server = CodeModeServer::new(gateway);
    let running = server
        .serve(rmcp::transport::stdio())
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
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
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
