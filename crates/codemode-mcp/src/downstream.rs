//! Downstream MCP servers (the MCP client side): start or connect, initialize, list every page of
//! `tools/list`, call tools, map results to values, restart a server that exited.
//!
//! ## Result mapping (`tools/call` → the value the program sees)
//! - `isError: true` → [`ToolError`] (diagnostic `ToolFailure`) whose message is the server's text.
//! - `structuredContent` present → that value.
//! - otherwise the content parts: a text part becomes its string (text that looks like JSON stays
//!   a string: the program calls `json.decode` when it means it); an image, audio, resource or
//!   resource-link part is kept host-side as an attachment of the execution and the program sees
//!   `{ type = "image", mimeType = "image/png", attachment = N }` (N counts from 1 per execution).
//!   One part → that part; several → a list; none → `nil`.
//! - A protocol error, a transport failure or a call that exceeds the server's `timeoutMs` →
//!   `ToolFailure` naming the server and the tool.
//!
//! ## Lifecycle
//! A stdio server is a child process (its stderr is forwarded line by line to our stderr, prefixed
//! `[name]`, and the last lines are kept for error messages). When it exits, the call in flight
//! fails, and the next call restarts it; after [`MAX_RESTARTS`] restarts its calls fail without
//! another attempt. `notifications/tools/list_changed` re-lists its tools and tells the gateway.
//!
//! ## Bounds (see [`crate::limits`])
//! A start (spawn or connect, `initialize`, every page of `tools/list`) and a re-listing run
//! under the server's `startupTimeoutMs`; listing stops with an error past [`MAX_LIST_PAGES`],
//! [`MAX_LISTED_TOOLS`] or [`MAX_LIST_BYTES`]. A reply that cannot be decoded, is longer than
//! [`MAX_REPLY_LINE_BYTES`] or has more than [`MAX_REPLY_PARTS`] parts fails its call at once,
//! over stdio and HTTP alike (see [`crate::transport`], [`crate::http_client`]); a decoded
//! reply whose [`reply_cost`] exceeds the execution's memory limit fails before it is mapped.

use std::collections::VecDeque;
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode::ToolError;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Map, Value, json};
use tokio::io::AsyncBufReadExt;
use tokio::sync::mpsc::UnboundedSender;

use crate::attachments;
use crate::config::{ServerSpec, Transport};
use crate::http_client::BoundedHttpClient;
use crate::limits::{
    MAX_LIST_BYTES, MAX_LIST_PAGES, MAX_LISTED_TOOLS, MAX_REPLY_LINE_BYTES, MAX_REPLY_PARTS,
    REPLY_VALUE_COST,
};
use crate::transport::ChildTransport;

/// How many times a server that exited is restarted (on the next call) before its calls fail
/// without another attempt.
pub const MAX_RESTARTS: u32 = 3;

/// How long starting a server (spawn + `initialize` + every page of `tools/list`), or re-listing
/// its tools after `list_changed`, may take by default (a server's `startupTimeoutMs`).
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);

/// Lines of a server's stderr kept for error messages.
const STDERR_KEEP: usize = 20;

/// How long a failed start waits for the rest of the server's stderr (its last words).
const STDERR_DRAIN: Duration = Duration::from_millis(500);

/// A tool as a downstream server lists it.
pub type McpTool = rmcp::model::Tool;

/// Receives `notifications/tools/list_changed` and forwards the server's name.
#[derive(Clone)]
struct Handler {
    server: String,
    changed: UnboundedSender<String>,
}

impl ClientHandler for Handler {
    fn on_tool_list_changed(
        &self,
        _context: NotificationContext<RoleClient>,
    ) -> impl Future<Output = ()> + Send + '_ {
        let _ = self.changed.send(self.server.clone());
        std::future::ready(())
    }
}

struct Conn {
    service: RunningService<RoleClient, Handler>,
}

/// What a server told us at its last (re)start or list refresh.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    /// Namespace description: the server's `instructions`, else its title or name.
    pub description: Option<String>,
    /// Every tool from every page of `tools/list`.
    pub tools: Vec<McpTool>,
}

/// One downstream server.
pub struct Server {
    /// Its configuration entry.
    pub spec: ServerSpec,
    conn: tokio::sync::Mutex<Option<Arc<Conn>>>,
    restarts: AtomicU32,
    snapshot: Mutex<Snapshot>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    changed: UnboundedSender<String>,
}

impl Server {
    /// A server that is not started yet; `changed` receives its name on `list_changed`.
    pub fn new(spec: ServerSpec, changed: UnboundedSender<String>) -> Arc<Server> {
        Arc::new(Server {
            spec,
            conn: tokio::sync::Mutex::new(None),
            restarts: AtomicU32::new(0),
            snapshot: Mutex::new(Snapshot::default()),
            stderr: Arc::new(Mutex::new(VecDeque::new())),
            changed,
        })
    }

    /// The server's name (its namespace).
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// The tools and description as last listed.
    pub fn snapshot(&self) -> Snapshot {
        self.snapshot.lock().expect("snapshot lock").clone()
    }

    /// Start (or connect to) the server, initialize and list its tools.
    ///
    /// # Errors
    /// A message naming the server: spawn failure, initialize failure or timeout, list failure.
    pub async fn start(&self) -> Result<(), String> {
        let mut slot = self.conn.lock().await;
        self.start_locked(&mut slot).await
    }

    async fn start_locked(&self, slot: &mut Option<Arc<Conn>>) -> Result<(), String> {
        if let Some(old) = slot.take() {
            old.service.cancellation_token().cancel();
        }
        let timeout = self.spec.startup_timeout;
        let started = tokio::time::timeout(timeout, async {
            let conn = Arc::new(self.connect().await?);
            match self.list(&conn).await {
                Ok(snap) => Ok((conn, snap)),
                Err(e) => {
                    conn.service.cancellation_token().cancel();
                    Err(e)
                }
            }
        })
        .await
        .map_err(|_| {
            format!(
                "MCP server '{}' did not finish starting (initialize and tools/list) within {} ms (its startupTimeoutMs){}",
                self.name(),
                timeout.as_millis(),
                self.stderr_note()
            )
        })?;
        let (conn, snap) = started?;
        *self.snapshot.lock().expect("snapshot lock") = snap;
        *slot = Some(conn);
        Ok(())
    }

    async fn connect(&self) -> Result<Conn, String> {
        let handler = Handler {
            server: self.name().to_string(),
            changed: self.changed.clone(),
        };
        let name = self.name();
        let service = match &self.spec.transport {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => {
                let mut cmd = tokio::process::Command::new(command);
                cmd.args(args).envs(env);
                if let Some(cwd) = cwd {
                    cmd.current_dir(cwd);
                }
                cmd.stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .kill_on_drop(true);
                let mut child = cmd.spawn().map_err(|e| {
                    format!("MCP server '{name}' could not be started ({command}): {e}")
                })?;
                let stderr = child.stderr.take();
                let transport = ChildTransport::new(child).map_err(|e| {
                    format!("MCP server '{name}' could not be started ({command}): {e}")
                })?;
                let mut reader = None;
                if let Some(stderr) = stderr {
                    let keep = self.stderr.clone();
                    let prefix = name.to_string();
                    reader = Some(tokio::spawn(async move {
                        let mut lines = tokio::io::BufReader::new(stderr).lines();
                        while let Ok(Some(line)) = lines.next_line().await {
                            eprintln!("[{prefix}] {line}");
                            let mut k = keep.lock().expect("stderr lock");
                            if k.len() == STDERR_KEEP {
                                k.pop_front();
                            }
                            k.push_back(line);
                        }
                    }));
                }
                match handler.serve(transport).await {
                    Ok(service) => service,
                    Err(e) => {
                        // A server that exits at once usually said why on stderr: read it to
                        // the end (bounded) so the message carries it.
                        if let Some(r) = reader {
                            let _ = tokio::time::timeout(STDERR_DRAIN, r).await;
                        }
                        use rmcp::service::ClientInitializeError as E;
                        let what = match e {
                            // The pipe closed (before or while sending): the process is gone.
                            E::ConnectionClosed(_) | E::TransportError { .. } => {
                                "exited before it answered 'initialize'".to_string()
                            }
                            e => format!("failed to initialize: {e}"),
                        };
                        return Err(format!(
                            "MCP server '{name}' ({command}) {what}{}",
                            self.stderr_note()
                        ));
                    }
                }
            }
            Transport::Http { url, headers } => {
                use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
                let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
                let mut custom = std::collections::HashMap::new();
                for (k, v) in headers {
                    if k.eq_ignore_ascii_case("authorization")
                        && let Some(token) = v.strip_prefix("Bearer ")
                    {
                        config = config.auth_header(token.to_string());
                        continue;
                    }
                    let hn = axum::http::HeaderName::from_bytes(k.as_bytes())
                        .map_err(|e| format!("MCP server '{name}': header {k:?}: {e}"))?;
                    let hv = axum::http::HeaderValue::from_str(v)
                        .map_err(|e| format!("MCP server '{name}': header {k:?}: {e}"))?;
                    custom.insert(hn, hv);
                }
                config = config
                    .custom_headers(custom)
                    .max_json_response_size(MAX_REPLY_LINE_BYTES)
                    .max_sse_event_size(MAX_REPLY_LINE_BYTES);
                let transport =
                    StreamableHttpClientTransport::with_client(BoundedHttpClient::new(), config);
                handler
                    .serve(transport)
                    .await
                    .map_err(|e| http_init_error(name, url, &e))?
            }
        };
        Ok(Conn { service })
    }

    /// Every page of `tools/list`, within [`MAX_LIST_PAGES`], [`MAX_LISTED_TOOLS`] and
    /// [`MAX_LIST_BYTES`].
    async fn list(&self, conn: &Conn) -> Result<Snapshot, String> {
        let name = self.name();
        let mut tools: Vec<McpTool> = Vec::new();
        let mut bytes = 0usize;
        let mut cursor: Option<String> = None;
        for page in 1.. {
            if page > MAX_LIST_PAGES {
                return Err(format!(
                    "MCP server '{name}' lists its tools in more than {MAX_LIST_PAGES} pages of tools/list (MAX_LIST_PAGES): it is left out; fix its paging"
                ));
            }
            let params = cursor.take().map(|c| {
                let mut p = rmcp::model::PaginatedRequestParams::default();
                p.cursor = Some(c);
                p
            });
            let r = conn
                .service
                .peer()
                .list_tools(params)
                .await
                .map_err(|e| match e {
                    rmcp::ServiceError::McpError(err)
                        if crate::transport::is_unreadable(err.data.as_ref()) =>
                    {
                        format!(
                            "MCP server '{name}' answered tools/list with a reply that could not be read: {}: it is left out",
                            err.message
                        )
                    }
                    e => format!("MCP server '{name}' failed to list its tools: {e}"),
                })?;
            bytes = bytes.saturating_add(serde_json::to_vec(&r.tools).map_or(0, |v| v.len()));
            if bytes > MAX_LIST_BYTES {
                return Err(format!(
                    "MCP server '{name}' lists more than {MAX_LIST_BYTES} bytes of tool definitions (MAX_LIST_BYTES): it is left out"
                ));
            }
            tools.extend(r.tools);
            if tools.len() > MAX_LISTED_TOOLS {
                return Err(format!(
                    "MCP server '{name}' lists more than {MAX_LISTED_TOOLS} tools (MAX_LISTED_TOOLS): it is left out"
                ));
            }
            match r.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        let info = conn.service.peer().peer_info();
        let description = info.as_ref().and_then(|i| {
            i.instructions
                .clone()
                .filter(|s| !s.trim().is_empty())
                .or_else(|| i.server_info.as_ref().and_then(|s| s.title.clone()))
                .or_else(|| {
                    i.server_info
                        .as_ref()
                        .map(|s| format!("MCP server {}", s.name))
                })
        });
        Ok(Snapshot { description, tools })
    }

    /// Re-list the tools after `list_changed` (keeps the old list on failure).
    ///
    /// # Errors
    /// The server is not connected or listing failed.
    pub async fn refresh(&self) -> Result<(), String> {
        let conn = self.conn.lock().await.clone();
        let Some(conn) = conn else {
            return Err(format!("MCP server '{}' is not running", self.name()));
        };
        let timeout = self.spec.startup_timeout;
        let snap = tokio::time::timeout(timeout, self.list(&conn))
            .await
            .map_err(|_| {
                format!(
                    "MCP server '{}' did not list its tools within {} ms (its startupTimeoutMs) after announcing a change; its previous tools are kept",
                    self.name(),
                    timeout.as_millis()
                )
            })??;
        *self.snapshot.lock().expect("snapshot lock") = snap;
        Ok(())
    }

    fn stderr_note(&self) -> String {
        let k = self.stderr.lock().expect("stderr lock");
        if k.is_empty() {
            return String::new();
        }
        let tail: Vec<&str> = k.iter().rev().take(3).rev().map(String::as_str).collect();
        format!(" (its last stderr lines: {})", tail.join(" | "))
    }

    /// The live connection, restarting an exited server (at most [`MAX_RESTARTS`] times).
    async fn live(&self, tool: &str) -> Result<Arc<Conn>, ToolError> {
        let mut slot = self.conn.lock().await;
        if let Some(c) = slot.as_ref()
            && !c.service.is_closed()
        {
            return Ok(c.clone());
        }
        let n = self.restarts.load(Ordering::Relaxed);
        if n >= MAX_RESTARTS {
            return Err(ToolError::new(format!(
                "MCP server '{}' is not running: it stopped and was already restarted {MAX_RESTARTS} times, so '{tool}' cannot be called. Use the other servers' tools or report the problem{}.",
                self.name(),
                self.stderr_note()
            )));
        }
        self.restarts.store(n + 1, Ordering::Relaxed);
        eprintln!(
            "codemode: restarting MCP server '{}' (restart {} of {MAX_RESTARTS})",
            self.name(),
            n + 1
        );
        self.start_locked(&mut slot).await.map_err(|e| {
            ToolError::new(format!(
                "{e}; '{tool}' could not be called. The next call tries again."
            ))
        })?;
        let _ = self.changed.send(self.name().to_string());
        Ok(slot.as_ref().expect("just started").clone())
    }

    /// Call `tool` with `input` (an object, or `{}`), mapping the result as the module docs say.
    ///
    /// # Errors
    /// [`ToolError`] (`ToolFailure`) with the server's message, or naming the server for protocol
    /// errors, exits and timeouts.
    pub async fn call(&self, tool: &str, input: Value) -> Result<Value, ToolError> {
        let conn = self.live(tool).await?;
        let mut params = CallToolRequestParams::new(tool.to_string());
        match input {
            Value::Object(m) => params = params.with_arguments(m),
            Value::Null => {}
            other => {
                return Err(ToolError::invalid_input(format!(
                    "MCP tools take a table of named arguments, not {}",
                    if other.is_array() {
                        "a list"
                    } else {
                        "a single value"
                    }
                )));
            }
        }
        let name = self.name();
        let timeout = self.spec.call_timeout;
        let reply = tokio::time::timeout(timeout, conn.service.peer().call_tool(params)).await;
        match reply {
            Err(_) => Err(ToolError::new(format!(
                "MCP server '{name}' did not answer the call to '{tool}' within {} ms (the server's timeoutMs); try again later or use another tool.",
                timeout.as_millis()
            ))),
            Ok(Err(e)) => {
                use rmcp::ServiceError as E;
                Err(ToolError::new(match e {
                    E::McpError(err) if crate::transport::is_unreadable(err.data.as_ref()) => {
                        format!(
                            "MCP server '{name}' answered the call to '{tool}' with a reply that could not be read: {}. The call failed; call it with input that gives a smaller or plainer result, or use another tool.",
                            err.message
                        )
                    }
                    E::McpError(err) => format!(
                        "MCP server '{name}' rejected the call to '{tool}': {} (error {})",
                        err.message, err.code.0
                    ),
                    E::TransportClosed | E::TransportSend(_) => {
                        self.forget(&conn).await;
                        format!(
                            "MCP server '{name}' stopped during the call to '{tool}'{}. It is restarted on the next call.",
                            self.stderr_note()
                        )
                    }
                    other => format!("MCP server '{name}' failed the call to '{tool}': {other}"),
                }))
            }
            Ok(Ok(result)) => {
                check_reply_size(name, tool, &result)?;
                map_result(name, tool, result)
            }
        }
    }

    /// Drop `conn` if it is still the current connection (its transport failed), so the next
    /// call restarts the server.
    async fn forget(&self, conn: &Arc<Conn>) {
        let mut slot = self.conn.lock().await;
        if slot.as_ref().is_some_and(|c| Arc::ptr_eq(c, conn))
            && let Some(c) = slot.take()
        {
            c.service.cancellation_token().cancel();
        }
    }

    /// Stop the server (closes the connection; a child process is killed).
    pub async fn stop(&self) {
        if let Some(c) = self.conn.lock().await.take() {
            c.service.cancellation_token().cancel();
        }
    }
}

/// The message for an HTTP server that could not be initialized: the causes (connection
/// refused, TLS certificate problems, HTTP status) rather than rmcp's wrapper, which names
/// internal types; certificate problems say how to trust a private CA.
fn http_init_error(name: &str, url: &str, e: &rmcp::service::ClientInitializeError) -> String {
    use rmcp::service::ClientInitializeError as E;
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    let mut causes: Vec<String> = Vec::new();
    // rmcp keeps the transport's error in fields that are not `source()`s: dig it out.
    let mut source: Option<&(dyn std::error::Error + 'static)> = match e {
        E::TransportError { error, .. } => {
            let inner: &(dyn std::error::Error + 'static) = &*error.error;
            match inner.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
                Some(StreamableHttpError::Client(re)) => Some(re),
                _ => Some(inner),
            }
        }
        e => std::error::Error::source(e),
    };
    while let Some(s) = source {
        let text = s.to_string();
        if !text.is_empty() && !causes.iter().any(|c| c.contains(&text)) {
            causes.push(text);
        }
        source = s.source();
    }
    // The innermost causes say the most; rmcp's own wrappers name internal types.
    causes.retain(|c| !c.contains("rmcp::"));
    let what = match (e, causes.is_empty()) {
        (_, false) => format!("could not be reached: {}", causes.join(": ")),
        (E::TransportError { context, .. }, true) => {
            format!("could not be reached (while trying to {context})")
        }
        (e, true) => format!("failed to initialize: {e}"),
    };
    let lower = what.to_ascii_lowercase();
    let hint = if lower.contains("certificate") || lower.contains("tls") {
        "; if the server uses a private certificate authority, set SSL_CERT_FILE to its PEM file"
    } else {
        ""
    };
    format!("MCP server '{name}' at {url} {what}{hint}")
}

/// About how many bytes a reply costs once decoded and given to the program: its strings plus
/// [`REPLY_VALUE_COST`] per content part and per structured value (attachment data is not
/// counted: attachments have their own byte cap).
pub fn reply_cost(result: &CallToolResult) -> u64 {
    let mut cost = 0u64;
    for c in &result.content {
        cost += REPLY_VALUE_COST;
        if let Some(t) = c.as_text() {
            cost += t.text.len() as u64;
        }
    }
    if let Some(v) = &result.structured_content {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            cost += REPLY_VALUE_COST;
            match v {
                Value::String(s) => cost += s.len() as u64,
                Value::Array(a) => stack.extend(a),
                Value::Object(m) => {
                    for (k, v) in m {
                        cost += k.len() as u64;
                        stack.push(v);
                    }
                }
                _ => {}
            }
        }
    }
    cost
}

/// Fail a reply with more than [`MAX_REPLY_PARTS`] parts, or one whose [`reply_cost`] is over
/// the memory limit of the current execution.
fn check_reply_size(server: &str, tool: &str, result: &CallToolResult) -> Result<(), ToolError> {
    let n = result.content.len();
    if n > MAX_REPLY_PARTS {
        return Err(ToolError::new(format!(
            "MCP server '{server}' answered the call to '{tool}' with {n} content parts, more than the {MAX_REPLY_PARTS} one reply may have (MAX_REPLY_PARTS); ask for less at a time."
        )));
    }
    if let Some(limit) = attachments::memory_limit() {
        let cost = reply_cost(result);
        if cost > limit {
            return Err(ToolError::new(format!(
                "MCP server '{server}' answered the call to '{tool}' with a reply of about {cost} bytes once decoded, more than the execution's memory limit of {limit} bytes (max_memory_bytes); ask for less at a time (fewer items, a page, a summary)."
            )));
        }
    }
    Ok(())
}

/// Map a `tools/call` result to the program's value (see the module docs).
///
/// # Errors
/// `isError: true` → [`ToolError`] with the server's text.
pub fn map_result(server: &str, tool: &str, result: CallToolResult) -> Result<Value, ToolError> {
    let parts: Vec<Value> = result
        .content
        .iter()
        .filter_map(|c| serde_json::to_value(c).ok())
        .collect();
    if result.is_error == Some(true) {
        let texts: Vec<&str> = parts
            .iter()
            .filter(|p| p["type"] == "text")
            .filter_map(|p| p["text"].as_str())
            .collect();
        let msg = texts.join("\n");
        return Err(ToolError::new(if msg.trim().is_empty() {
            format!("MCP server '{server}' reported an error from '{tool}' without a message")
        } else {
            msg
        }));
    }
    if let Some(v) = result.structured_content {
        return Ok(v);
    }
    let mut values: Vec<Value> = parts.into_iter().map(part_value).collect();
    Ok(match values.len() {
        0 => Value::Null,
        1 => values.pop().expect("one"),
        _ => Value::Array(values),
    })
}

/// One content part as the program sees it: text → string; anything else → attachment reference.
fn part_value(part: Value) -> Value {
    if part["type"] == "text"
        && let Some(t) = part["text"].as_str()
    {
        return Value::String(t.to_string());
    }
    let mut r = Map::new();
    r.insert("type".into(), part["type"].clone());
    let mime = part
        .get("mimeType")
        .or_else(|| part.get("resource").and_then(|r| r.get("mimeType")));
    if let Some(m) = mime {
        r.insert("mimeType".into(), m.clone());
    }
    if let Some(u) = part
        .get("uri")
        .or_else(|| part.get("resource").and_then(|r| r.get("uri")))
    {
        r.insert("uri".into(), u.clone());
    }
    let n = attachments::attach(part);
    r.insert("attachment".into(), json!(n));
    Value::Object(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(v: Value) -> CallToolResult {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn maps_structured_text_and_errors() {
        let r = result(json!({"content": [{"type": "text", "text": "{\"a\":1}"}],
                              "structuredContent": {"a": 1}}));
        assert_eq!(map_result("s", "t", r).unwrap(), json!({"a": 1}));
        let r = result(json!({"content": [{"type": "text", "text": "{\"a\":1}"}]}));
        assert_eq!(map_result("s", "t", r).unwrap(), json!("{\"a\":1}"));
        let r = result(
            json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}),
        );
        assert_eq!(map_result("s", "t", r).unwrap(), json!(["a", "b"]));
        let r = result(json!({"content": []}));
        assert_eq!(map_result("s", "t", r).unwrap(), Value::Null);
        let r =
            result(json!({"content": [{"type": "text", "text": "no such file"}], "isError": true}));
        assert_eq!(
            map_result("s", "t", r).unwrap_err().message(),
            "no such file"
        );
        let r = result(json!({"content": [], "isError": true}));
        assert_eq!(
            map_result("s", "t", r).unwrap_err().message(),
            "MCP server 's' reported an error from 't' without a message"
        );
    }

    #[test]
    fn images_become_attachment_references() {
        let (v, att) = attachments::collect_sync(|| {
            let r = result(json!({"content": [
                {"type": "text", "text": "here"},
                {"type": "image", "data": "AAAA", "mimeType": "image/png"}]}));
            map_result("s", "t", r).unwrap()
        });
        assert_eq!(
            v,
            json!(["here", {"type": "image", "mimeType": "image/png", "attachment": 1}])
        );
        assert_eq!(att.len(), 1);
        assert_eq!(att[0]["data"], "AAAA");
    }
}
