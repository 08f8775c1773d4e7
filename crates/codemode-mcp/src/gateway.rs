//! The gateway: downstream servers as namespaces of one [`CodeMode`] runtime, rebuilt when a
//! server's tool list changes, and executions with attachments and progress; executions paused
//! at tools needing approval are kept in the snapshot store and resumed by token (see
//! [`crate::paused`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::Duration;

use codemode::namespace::Unavailable;
use codemode::{
    BuildError, CancellationToken, CodeMode, ExecutionResult, Namespace, Options, Tool, ToolError,
};
use serde_json::{Value, json};

use crate::attachments::{self, ExecContext, ProgressFn};
use crate::config::{Config, ConfigError};
use crate::downstream::Server;
use crate::paused::PausedStore;

/// Adds host tools beside the servers (e.g. the CLI's manifest tools); called at every rebuild.
pub type Extend = Arc<dyn Fn(Options) -> Options + Send + Sync>;

/// Longest pauses before the retries of a server that failed to start (the last one repeats);
/// a program's call into the server's namespace cuts the current pause short (see
/// [`CALL_RETRY_GAP`]).
pub const STARTUP_RETRY_PAUSES: [Duration; 3] = [
    Duration::from_secs(5),
    Duration::from_secs(30),
    Duration::from_secs(120),
];

/// Start attempts after the first one for a server that failed to start (in the background and
/// asked for by calls). After the last one it stays unavailable and its calls say so.
pub const MAX_STARTUP_RETRIES: u32 = 5;

/// Shortest time between two start attempts when calls ask for them (a program calling a
/// broken server in a loop cannot make codemode spawn it in a loop).
pub const CALL_RETRY_GAP: Duration = Duration::from_secs(2);

/// Retry state of a server that failed to start.
#[derive(Default)]
struct Retry {
    /// Woken by a call into the server's namespace: retry now (after [`CALL_RETRY_GAP`]).
    wake: tokio::sync::Notify,
    /// Attempts made after the first start.
    attempts: AtomicU32,
    /// All [`MAX_STARTUP_RETRIES`] failed.
    exhausted: AtomicBool,
}

/// One execution's outcome: the Result and the attachments (MCP content parts, numbered from 1).
#[derive(Debug)]
pub struct Execution {
    /// The Result.
    pub result: ExecutionResult,
    /// Image/audio/resource parts returned by nested calls, in the order the program saw them.
    pub attachments: Vec<Value>,
    /// When the Result is paused: the token [`Gateway::resume`] continues it with (its
    /// snapshot is kept in the store).
    pub resume_token: Option<String>,
}

/// The gateway's hooks: progress after every call, and pauses before calls to tools needing
/// approval (`approve` patterns, see [`crate::config::approves`]).
struct GatewayHooks {
    approve: Arc<Vec<String>>,
}

impl codemode::Hooks for GatewayHooks {
    fn pause_before(&self, name: &str, _input: &Value) -> bool {
        crate::config::approves(&self.approve, name)
    }

    fn tool_after<'a>(
        &'a self,
        name: &'a str,
        _input: &'a Value,
        _outcome: &'a codemode::CallOutcome,
    ) -> futures::future::BoxFuture<'a, ()> {
        attachments::call_done(name);
        Box::pin(async {})
    }

    fn extension_after<'a>(
        &'a self,
        name: &'a str,
        _args: &'a [Value],
        _outcome: &'a codemode::CallOutcome,
    ) -> futures::future::BoxFuture<'a, ()> {
        attachments::call_done(name);
        Box::pin(async {})
    }
}

/// Downstream servers plus the runtime built over them. Cheap to share (`Arc`).
pub struct Gateway {
    config: Config,
    servers: Vec<Arc<Server>>,
    extend: Option<Extend>,
    current: RwLock<CodeMode>,
    /// Startup failures and skipped tools, for the `execute` description and stderr.
    problems: Mutex<BTreeMap<String, String>>,
    /// Servers that failed to start, while they are being retried (and after).
    retries: Mutex<BTreeMap<String, Arc<Retry>>>,
    on_change: Mutex<Vec<Arc<dyn Fn() + Send + Sync>>>,
    /// Paused executions by resume token.
    store: Box<dyn PausedStore>,
    /// The key snapshots are signed with.
    snapshot_key: Vec<u8>,
    /// `config.approve`, shared with the hooks of every rebuild.
    approve: Arc<Vec<String>>,
}

impl Gateway {
    /// Start every configured server concurrently, list their tools and build the runtime.
    /// A server that fails to start is reported on stderr and in [`Gateway::problems`]; the
    /// others work. Its namespace is marked unavailable: a program's call to any
    /// `tools.<server>.<name>` gets a catchable `ToolFailure` with the startup error and what to
    /// do, and asks for an early retry. Retries: at most [`MAX_STARTUP_RETRIES`], after the
    /// pauses of [`STARTUP_RETRY_PAUSES`] or sooner when called (at least [`CALL_RETRY_GAP`]
    /// apart); a success refreshes the runtime and notifies [`Gateway::on_change`] hooks.
    ///
    /// The snapshot store (`config.snapshot_store`) is opened and its key read or created
    /// first.
    ///
    /// # Errors
    /// Only configuration problems the host cannot work around (an unsupported language, host
    /// tools from `extend` that do not build, a snapshot store or key file that cannot be
    /// opened).
    pub async fn start(
        config: Config,
        extend: Option<Extend>,
    ) -> Result<Arc<Gateway>, ConfigError> {
        let extend = with_openapi(&config, extend)?;
        let store = config.snapshot_store.open().map_err(ConfigError)?;
        let key_file = config
            .snapshot_key_file
            .clone()
            .or_else(|| config.snapshot_store.key_file());
        let snapshot_key =
            crate::paused::load_or_create_key(key_file.as_deref()).map_err(ConfigError)?;
        let approve = Arc::new(config.approve.clone());
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
        let servers: Vec<Arc<Server>> = config
            .servers
            .iter()
            .map(|s| Server::new(s.clone(), tx.clone()))
            .collect();
        let starts = servers.iter().map(|s| {
            let s = s.clone();
            async move { (s.name().to_string(), s.start().await) }
        });
        let outcomes = futures::future::join_all(starts).await;
        let mut problems = BTreeMap::new();
        for (name, r) in outcomes {
            if let Err(e) = r {
                eprintln!("codemode: {e}");
                problems.insert(name, e);
            }
        }
        let retries: BTreeMap<String, Arc<Retry>> = problems
            .keys()
            .map(|k| (k.clone(), Arc::new(Retry::default())))
            .collect();
        let empty = CodeMode::builder()
            .build()
            .map_err(|e| ConfigError(e.to_string()))?;
        let gw = Arc::new(Gateway {
            config,
            servers,
            extend,
            current: RwLock::new(empty),
            problems: Mutex::new(problems),
            retries: Mutex::new(retries.clone()),
            on_change: Mutex::new(Vec::new()),
            store,
            snapshot_key,
            approve,
        });
        gw.rebuild()?;
        for p in gw.unmatched_approvals() {
            eprintln!(
                "codemode: warning: the approval pattern '{p}' matches no tool now; calls to the tool it was meant for run unapproved (check the path with `codemode catalog`)"
            );
        }
        // Servers that failed to start are retried in the background; a success goes through
        // the same path as `list_changed` (refresh, rebuild, notify).
        for (name, retry) in retries {
            if let Some(s) = gw.servers.iter().find(|s| s.name() == name) {
                tokio::spawn(retry_starts(
                    Arc::downgrade(&gw),
                    s.clone(),
                    retry,
                    tx.clone(),
                ));
            }
        }
        let weak = Arc::downgrade(&gw);
        tokio::spawn(async move {
            while let Some(name) = rx.recv().await {
                let Some(gw) = weak.upgrade() else { break };
                if let Some(s) = gw.servers.iter().find(|s| s.name() == name) {
                    match s.refresh().await {
                        Ok(()) => {
                            gw.problems.lock().expect("problems lock").remove(&name);
                            gw.retries.lock().expect("retries lock").remove(&name);
                        }
                        Err(e) => eprintln!("codemode: {e}"),
                    }
                }
                if let Err(e) = gw.rebuild() {
                    eprintln!("codemode: cannot rebuild the tools after a change of '{name}': {e}");
                }
                let hooks = gw.on_change.lock().expect("hooks lock").clone();
                for h in hooks {
                    h();
                }
            }
        });
        Ok(gw)
    }

    /// Call `hook` after every rebuild caused by a server's tool-list change or restart.
    pub fn on_change(&self, hook: Arc<dyn Fn() + Send + Sync>) {
        self.on_change.lock().expect("hooks lock").push(hook);
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The current runtime (its tool tree reflects the last tool lists).
    pub fn codemode(&self) -> CodeMode {
        self.current.read().expect("runtime lock").clone()
    }

    /// Servers that failed to start and tools left out, by name, with the reason.
    pub fn problems(&self) -> BTreeMap<String, String> {
        self.problems.lock().expect("problems lock").clone()
    }

    /// Rebuild the runtime from the servers' current tool lists. Tools whose names cannot be
    /// paths are left out, invalid output schemas are dropped and invalid input schemas become
    /// `{"type": "object"}` (the server still validates); each is noted in [`Gateway::problems`].
    fn rebuild(&self) -> Result<(), ConfigError> {
        struct Entry {
            path: String,
            tool: Tool,
        }
        let mut namespaces = Vec::new();
        let mut entries: Vec<Entry> = Vec::new();
        let problems_now = self.problems();
        let retries = self.retries.lock().expect("retries lock").clone();
        for s in &self.servers {
            let snap = s.snapshot();
            let mut ns = Namespace::new();
            if let Some(d) = snap.description {
                ns = ns.description(d);
            }
            if let (Some(why), Some(retry), true) = (
                problems_now.get(s.name()),
                retries.get(s.name()),
                snap.tools.is_empty(),
            ) {
                let wake = Arc::downgrade(retry);
                ns = ns.unavailable(
                    Unavailable::new(unavailable_reason(s.name(), why, retry)).on_call(move |_| {
                        if let Some(r) = wake.upgrade() {
                            r.wake.notify_one();
                        }
                    }),
                );
            }
            namespaces.push((s.name().to_string(), ns));
            for t in snap.tools {
                let path = format!("{}.{}", s.name(), t.name);
                entries.push(Entry {
                    tool: mcp_tool(s.clone(), &t),
                    path,
                });
            }
        }
        let mut problems = Vec::new();
        for _ in 0..=entries.len() {
            // Progress: every tool call (servers' tools, host tools added by `extend`, the
            // built-in `search`) and extension call passes through these hooks, and so do
            // the pauses at `approve` patterns. An `extend` that sets its own hooks replaces
            // them (progress and patterns with `*`; exact paths still pause, by `pause_on`).
            let mut b = CodeMode::builder()
                .language(self.config.language)
                .limits(self.config.limits)
                .snapshot_key(self.snapshot_key.clone())
                .hooks(GatewayHooks {
                    approve: self.approve.clone(),
                });
            for p in self.approve.iter().filter(|p| !p.contains('*')) {
                b = b.pause_on(p.clone());
            }
            for (n, ns) in &namespaces {
                b = b.namespace(n.clone(), ns.clone());
            }
            for e in &entries {
                b = b.tool(e.path.clone(), e.tool.clone());
            }
            if let Some(x) = &self.extend {
                b = x(b);
            }
            let err = match b.build() {
                Ok(cm) => {
                    *self.current.write().expect("runtime lock") = cm;
                    let mut p = self.problems.lock().expect("problems lock");
                    for (k, v) in problems {
                        eprintln!("codemode: {v}");
                        p.insert(k, v);
                    }
                    return Ok(());
                }
                Err(e) => e,
            };
            let bad_path = match &err {
                BuildError::InvalidSchema { path, .. }
                | BuildError::DuplicateTool { path }
                | BuildError::EmptySegment { path } => path.clone(),
                BuildError::UnsupportedLanguage(_) => {
                    return Err(ConfigError(format!("codemode.language: {err}")));
                }
                _ => return Err(ConfigError(err.to_string())),
            };
            let Some(i) = entries
                .iter()
                .position(|e| e.path == bad_path || bad_path.ends_with(&format!(".{}", e.path)))
            else {
                return Err(ConfigError(err.to_string()));
            };
            match &err {
                BuildError::InvalidSchema {
                    which: "output", ..
                } => {
                    let t = &entries[i].tool;
                    entries[i].tool = rebuild_tool(t, t.input_schema().clone(), None);
                    problems.push((bad_path, format!("{err}; its output schema is ignored")));
                }
                BuildError::InvalidSchema { .. } => {
                    let t = &entries[i].tool;
                    entries[i].tool =
                        rebuild_tool(t, json!({"type": "object"}), t.output_schema().cloned());
                    problems.push((bad_path, format!("{err}; its input is not checked here")));
                }
                _ => {
                    entries.remove(i);
                    problems.push((bad_path, format!("{err}; the tool is left out")));
                }
            }
        }
        Err(ConfigError("cannot build the tool tree".into()))
    }

    /// Run one program. `cancel` interrupts it; `progress` hears about every finished nested
    /// call: servers' tools, host tools added by `extend` (e.g. manifest command tools), the
    /// built-in `search` and extension functions (denied calls are not counted).
    pub async fn execute(
        &self,
        code: &str,
        cancel: CancellationToken,
        progress: Option<ProgressFn>,
    ) -> Execution {
        self.execute_with(code, cancel, progress, true).await
    }

    /// [`Gateway::execute`], keeping the attachments' data only when `keep_attachment_data`
    /// (otherwise each attachment is its part without `data`, `text` or `blob`: enough for a
    /// host that only summarizes them). Attachment data is capped at
    /// `codemode.maxAttachmentBytes`; each downstream reply is accounted against the
    /// execution's memory limit.
    pub async fn execute_with(
        &self,
        code: &str,
        cancel: CancellationToken,
        progress: Option<ProgressFn>,
        keep_attachment_data: bool,
    ) -> Execution {
        let ctx = ExecContext::with_limits(
            progress,
            self.config.max_attachment_bytes,
            keep_attachment_data,
            self.config.limits.max_memory_bytes(),
        );
        let fut = self.codemode().execute_with_cancel(code, cancel);
        let result = attachments::scope(ctx.clone(), fut).await;
        self.keep_paused(result, ctx.take_attachments())
    }

    /// Whether some tool needs approval (`config.approve` is not empty): then `execute` can
    /// pause and the MCP server offers `resume`.
    pub fn approvals(&self) -> bool {
        !self.approve.is_empty()
    }

    /// The `approve` patterns that match none of the current tools (a misspelt path: the tool
    /// meant runs unapproved). Started servers' tools only: one that is down may add them later.
    pub fn unmatched_approvals(&self) -> Vec<String> {
        let cm = self.codemode();
        self.approve
            .iter()
            .filter(|p| {
                !cm.tools()
                    .tools()
                    .any(|t| crate::config::matches(p, &t.path))
            })
            .cloned()
            .collect()
    }

    /// A finished or paused execution; a paused one's snapshot goes into the store under its
    /// token (a store failure turns the Result into a failure saying so).
    fn keep_paused(&self, mut result: ExecutionResult, attachments: Vec<Value>) -> Execution {
        let mut resume_token = None;
        if let Some(paused) = &result.paused {
            let token = crate::paused::token_of(paused.snapshot.id());
            match self.store.put(&token, paused.snapshot.as_bytes()) {
                Ok(()) => resume_token = Some(token),
                Err(e) => {
                    let names: Vec<&str> = paused.pending.iter().map(|p| p.name.as_str()).collect();
                    let mut failed = ExecutionResult::failure(codemode::Diagnostic::new(
                        codemode::DiagnosticKind::ExecutionFailure,
                        format!(
                            "The execution paused for approval of {names} but cannot be kept: {e}. {names} did not run; {ran}. Try again once the store is writable (a rerun repeats those calls).",
                            names = names.join(", "),
                            ran = match result.tool_calls.len() {
                                0 => "no call ran before it".to_string(),
                                n => format!("the {n} call(s) before it in toolCalls did run"),
                            }
                        ),
                    ));
                    failed.tool_calls = std::mem::take(&mut result.tool_calls);
                    failed.logs = std::mem::take(&mut result.logs);
                    result = failed;
                }
            }
        }
        Execution {
            result,
            attachments,
            resume_token,
        }
    }

    /// Continue the paused execution of `token` with `replies`, the `resume` tool's
    /// `{"<call id>": {"approve": true} | {"deny": "reason"} | {"value": V} | {"error": "message"}}`,
    /// one per pending call. The replies are checked against the snapshot before it is claimed
    /// (a mistake leaves the token usable); then the token is claimed (once: a second resume
    /// is refused) and the program runs on. The Result may be paused again, with a new token.
    ///
    /// # Errors
    /// The token is malformed, unknown or resumed already, the replies do not fit the pending
    /// calls, or the stored snapshot is damaged: the message says what to send instead.
    pub async fn resume(
        &self,
        token: &str,
        replies: &Value,
        cancel: CancellationToken,
        progress: Option<ProgressFn>,
    ) -> Result<Execution, String> {
        let bytes = self.store.peek(token).map_err(|m| m.message(token))?;
        let peeked = codemode::Snapshot::from_bytes(bytes);
        own_snapshot(&peeked, token)?;
        let pending = peeked.pending_ids();
        // Stored bytes that do not decode: resuming refuses them and says why (not a
        // snapshot, altered, signed with another key), whatever the replies.
        let replies = if pending.is_empty() {
            Vec::new()
        } else {
            parse_replies(replies, &pending)?
        };
        let bytes = self.store.take(token).map_err(|m| m.message(token))?;
        let snapshot = codemode::Snapshot::from_bytes(bytes);
        own_snapshot(&snapshot, token)?;
        let ctx = ExecContext::with_limits(
            progress,
            self.config.max_attachment_bytes,
            true,
            self.config.limits.max_memory_bytes(),
        );
        let fut = self.codemode().resume(&snapshot, replies);
        drop(snapshot);
        let result = tokio::select! {
            r = attachments::scope(ctx.clone(), fut) => r,
            () = cancel.cancelled() => ExecutionResult::failure(codemode::Diagnostic::new(
                codemode::DiagnosticKind::ExecutionFailure,
                "The resumed execution was cancelled by the client; its token was used and cannot be resumed again.",
            )),
        };
        Ok(self.keep_paused(result, ctx.take_attachments()))
    }

    /// The built-in search over the current tools (same input and result as `search(...)` in a
    /// program: signatures and messages in the configured language).
    ///
    /// # Errors
    /// The input is invalid (message says which field and why).
    pub fn search(&self, input: &Value) -> Result<Value, String> {
        self.codemode().search(input)
    }

    /// The language programs are written in (`codemode.language`).
    pub fn language(&self) -> codemode::Language {
        self.config.language
    }

    /// The description of the `execute` tool: [`codemode::catalog::instructions`] for the
    /// configured language and limits with a catalog of at most `catalogBudget` tokens, then
    /// the servers that are not available and why, then the tools needing approval.
    pub fn execute_description(&self) -> String {
        self.description(self.config.language, self.config.catalog_budget)
    }

    /// [`Gateway::execute_description`] for another language or catalog budget (tokens).
    pub fn description(&self, language: codemode::Language, budget: usize) -> String {
        let cm = self.codemode();
        let mut out =
            codemode::catalog::instructions(cm.tools(), &self.config.limits, language, budget);
        let problems = self.problems();
        let names: Vec<&str> = self.servers.iter().map(|s| s.name()).collect();
        for (name, why) in problems.iter().filter(|(n, _)| names.contains(&n.as_str())) {
            let _ = writeln!(out, "\nUnavailable: tools.{name}: {}", one_line(why, 300));
        }
        if self.approvals() {
            let _ = writeln!(
                out,
                "\nNeeds approval: {} (`*`: any characters). A call to one of these pauses the program: execute returns \"status\": \"paused\" with the pending calls and a \"resumeToken\"; the tool `resume` continues it once the calls are approved or denied.",
                self.approve.join(", ")
            );
        }
        out
    }

    /// Stop every server.
    pub async fn shutdown(&self) {
        for s in &self.servers {
            s.stop().await;
        }
    }
}

/// The `replies` of a `resume` call as the library's, checked against the `pending` call ids.
fn parse_replies(replies: &Value, pending: &[u64]) -> Result<Vec<(u64, codemode::Reply)>, String> {
    let ids = pending
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let shape = "{\"approve\": true} (run the call), {\"deny\": \"reason\"}, {\"value\": <the call's result>} or {\"error\": \"message\"}";
    let Some(map) = replies.as_object() else {
        return Err(format!(
            "resume: \"replies\" must be an object with one reply per pending call id ({ids}), e.g. {{\"{}\": {{\"approve\": true}}}}; each reply is {shape}.",
            pending[0]
        ));
    };
    let mut out = Vec::new();
    for (k, v) in map {
        let id = k
            .parse::<u64>()
            .ok()
            .filter(|id| pending.contains(id))
            .ok_or_else(|| {
                format!(
                    "resume: {k:?} is not the id of a call this execution waits on; the pending call ids are {ids}."
                )
            })?;
        let bad = |why: &str| format!("resume: the reply to call {id} {why}; write {shape}.");
        let reply = match v
            .as_object()
            .map(|o| o.iter().collect::<Vec<_>>())
            .as_deref()
        {
            Some([(key, value)]) => match (key.as_str(), value) {
                ("approve", Value::Bool(true)) => codemode::Reply::Run,
                ("approve", _) => {
                    return Err(bad(
                        "has \"approve\" that is not true (to refuse it write {\"deny\": \"reason\"})",
                    ));
                }
                ("deny", Value::String(m)) => codemode::Reply::Deny(m.clone()),
                ("error", Value::String(m)) => codemode::Reply::Error(m.clone()),
                ("deny" | "error", _) => {
                    return Err(bad(&format!("has \"{key}\" that is not a string")));
                }
                ("value", v) => codemode::Reply::Value((*v).clone()),
                (other, _) => return Err(bad(&format!("has the unknown key \"{other}\""))),
            },
            Some(_) => return Err(bad("must have exactly one key")),
            None => return Err(bad("is not an object")),
        };
        out.push((id, reply));
    }
    if let Some(missing) = pending.iter().find(|id| !out.iter().any(|(i, _)| i == *id)) {
        return Err(format!(
            "resume: no reply for pending call {missing}; give one reply per pending call ({ids}), each {shape}."
        ));
    }
    Ok(out)
}

/// Retry the start of `s` (see [`Gateway::start`]); on success tell the gateway through
/// `changed` (the `list_changed` path), after each failure update the reason its calls give.
async fn retry_starts(
    gw: Weak<Gateway>,
    s: Arc<Server>,
    retry: Arc<Retry>,
    changed: tokio::sync::mpsc::UnboundedSender<String>,
) {
    let mut last = tokio::time::Instant::now();
    for attempt in 1..=MAX_STARTUP_RETRIES {
        let pause =
            STARTUP_RETRY_PAUSES[(attempt as usize - 1).min(STARTUP_RETRY_PAUSES.len() - 1)];
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = retry.wake.notified() => tokio::time::sleep_until(last + CALL_RETRY_GAP).await,
        }
        if changed.is_closed() || gw.strong_count() == 0 {
            return;
        }
        retry.attempts.store(attempt, Ordering::Relaxed);
        match s.start().await {
            Ok(()) => {
                eprintln!(
                    "codemode: MCP server '{}' started on retry {attempt}",
                    s.name()
                );
                let _ = changed.send(s.name().to_string());
                return;
            }
            Err(e) => {
                eprintln!("codemode: retry {attempt} of {MAX_STARTUP_RETRIES} failed: {e}");
                if attempt == MAX_STARTUP_RETRIES {
                    retry.exhausted.store(true, Ordering::Relaxed);
                }
                let Some(g) = gw.upgrade() else { return };
                g.problems
                    .lock()
                    .expect("problems lock")
                    .insert(s.name().to_string(), e);
                if let Err(e) = g.rebuild() {
                    eprintln!("codemode: cannot rebuild the tools: {e}");
                }
            }
        }
        last = tokio::time::Instant::now();
    }
}

/// What a call into the namespace of a server that failed to start is told (after
/// `tools.<server>.<tool> cannot be called: `).
fn unavailable_reason(server: &str, why: &str, retry: &Retry) -> String {
    let why = one_line(why, 300);
    let why = why.trim_end_matches('.');
    if retry.exhausted.load(Ordering::Relaxed) {
        return format!(
            "{why}. It was retried {MAX_STARTUP_RETRIES} times without success and is not retried again; continue without tools.{server}."
        );
    }
    let left = MAX_STARTUP_RETRIES - retry.attempts.load(Ordering::Relaxed);
    format!(
        "{why}. codemode is retrying it in the background ({left} attempts left; this call asked for one); continue without tools.{server} for now, or try again in a later execution."
    )
}

fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let cut: String = flat.chars().take(max).collect();
    format!("{cut}…")
}

/// A host tool forwarding to `tools/call` on `server`.
fn mcp_tool(server: Arc<Server>, t: &rmcp::model::Tool) -> Tool {
    let name = t.name.to_string();
    let description = t
        .description
        .as_deref()
        .or(t.title.as_deref())
        .unwrap_or("")
        .to_string();
    let input = Value::Object((*t.input_schema).clone());
    let tool = Tool::new(description, input, move |input: Value| {
        let server = server.clone();
        let name = name.clone();
        async move {
            let r: Result<Value, ToolError> = server.call(&name, input).await;
            r
        }
    });
    match &t.output_schema {
        Some(o) => tool.with_output_schema(Value::Object((**o).clone())),
        None => tool,
    }
}

fn rebuild_tool(t: &Tool, input: Value, output: Option<Value>) -> Tool {
    let t2 = t.clone();
    let tool = Tool::new(t.description().to_string(), input, move |v| t2.call(v));
    match output {
        Some(o) => tool.with_output_schema(o),
        None => tool,
    }
}

/// `extend` preceded by the namespaces of the config's `"openapi"` section (loaded and built
/// once, at start).
fn with_openapi(config: &Config, extend: Option<Extend>) -> Result<Option<Extend>, ConfigError> {
    if config.openapi.is_empty() {
        return Ok(extend);
    }
    let namespaces = crate::openapi::namespaces(&config.openapi)?;
    Ok(Some(Arc::new(move |mut b: Options| {
        for (n, ns) in &namespaces {
            b = b.namespace(n.clone(), ns.clone());
        }
        match &extend {
            Some(x) => x(b),
            None => b,
        }
    })))
}

/// A token resumes only the snapshot whose id it is (the id is inside the signed bytes): bytes
/// moved under another token in a `dir:` or `sqlite:` store are refused, not run.
fn own_snapshot(snapshot: &codemode::Snapshot, token: &str) -> Result<(), String> {
    // Bytes without an id are not a snapshot: resuming refuses them and says so.
    if snapshot.id() == [0; 16] || crate::paused::token_of(snapshot.id()) == token {
        return Ok(());
    }
    Err(format!(
        "The snapshot stored under token {token} belongs to another execution (the store was altered); nothing was run. Run the program again to get a new token."
    ))
}
