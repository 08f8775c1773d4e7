//! The call gate: every host call a guest starts goes through [`Gate::admit`], synchronously
//! and in program order, and then (when admitted) runs as an owned future, [`CallJob`].
//!
//! **Admission** counts the attempt against `max_tool_calls` (past it: an uncatchable
//! `ToolCallLimitExceeded`), answers calls the guest refused (an unknown path, with the host's
//! missing-tool policy; an input that cannot cross, listed as `failure`), resolves the path
//! (`search`, its `tools.search` alias, a tool, an extension), checks the argument count and the
//! input schema (InvalidToolInput, listed as `failure`, no hooks), and lists the call in
//! `toolCalls` with status `interrupted` until it finishes. A schema that is costly to check
//! (`CompiledSchema::is_costly`) is checked by the job instead, on the blocking pool.
//!
//! **The job** (`'static`, owning everything it needs) runs the `before` hook (may deny: status
//! `denied`, catchable ToolFailure / ExecutionFailure with the hook's message), the handler
//! (a panic is an internal failure), the output checks ([`check_tool_output`], then the output
//! schema; InvalidToolOutput naming the tool) and the `after` hook (until the deadline or for
//! [`AFTER_HOOK_GRACE`], whichever ends later). It ends with a [`Finished`]: the final status
//! and the reply. The driver keeps up to [`super::MAX_CONCURRENT_HOST_CALLS`] jobs running and
//! applies each [`Finished`] with [`Gate::finish`].
//!
//! **Stopping**: when the run ends with jobs running or queued, [`Gate::interrupt_open`] runs
//! the `after` hook of each (with [`CallOutcome::Interrupted`]) whose own `after` had not
//! started; their records keep the status `interrupted`, in admission order.
//!
//! `toolCalls` lists every counted attempt but the one past the limit: admitted tool, `search`
//! and extension calls (an extension's input is its arguments as an array), and, as
//! `failure`, calls refused for an input that cannot cross, for a path that names no tool or
//! for an unavailable namespace (their input a `[input not sent: ...]` marker).

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use codemode_guest::{CallId, ErrorKind, GuestError, HostCall, HostReply, HostTarget, Language};
use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::Value;
use tokio::time::Instant;

use super::{Inner, REFUSED_INPUT_MARKER_BYTES, SEARCH_ALIAS, retained_bytes};
use crate::extension::ExtensionHandler;
use crate::hooks::{AFTER_HOOK_GRACE, CallOutcome, HOOK_PANIC_MESSAGE, Hooks};
use crate::limits::{check_tool_output, drop_deep};
use crate::namespace::ToolEntry;
use crate::result::{Diagnostic, DiagnosticKind, ToolCallRecord, ToolCallStatus};
use crate::schema::InputHints;
use crate::search::{self, SearchRequest};
use crate::tool::{ToolError, ToolErrorKind};

/// What admission decided for one call.
pub(crate) enum Admission {
    /// Answered at once (refused, rejected, over the limit).
    Reply(CallId, HostReply),
    /// Admitted: run this job (now, or when a slot frees).
    Job(CallJob),
    /// Admitted and listed (with its entry at this index of `toolCalls`), but held for the
    /// host: the execution pauses once the program waits for it (see [`crate::durable`]).
    Pause(crate::durable::PendingCall, usize),
}

/// An admitted call's work, owned and `'static`: resolves to its [`Finished`].
pub(crate) struct CallJob {
    pub(crate) fut: BoxFuture<'static, Finished>,
}

/// How an admitted call ended.
pub(crate) struct Finished {
    pub(crate) id: CallId,
    /// The final status of its `toolCalls` entry (`None`: not listed, an extension call).
    pub(crate) status: Option<ToolCallStatus>,
    pub(crate) reply: HostReply,
}

/// Which pair of hooks a call goes through.
#[derive(Clone, Copy, Debug)]
enum HookGate {
    Tool,
    Extension,
}

/// What an open call's `after` hook needs if the run stops before the call ends.
struct OpenCall {
    /// Index of its `toolCalls` entry (`None` for extension calls).
    index: Option<usize>,
    /// Present when the runtime has hooks.
    hook: Option<HookCall>,
}

/// The arguments of one call's hooks, shared by its job and the gate.
#[derive(Clone)]
struct HookCall {
    hooks: Arc<dyn Hooks>,
    gate: HookGate,
    name: Arc<str>,
    /// The validated input (tools, `search`).
    input: Arc<Value>,
    /// The arguments (extensions).
    args: Arc<[Value]>,
    /// Set when the job starts its own `after` hook.
    after_started: Arc<AtomicBool>,
    deadline: Instant,
}

impl HookCall {
    async fn before(&self) -> Result<(), String> {
        let hooks = &*self.hooks;
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| match self.gate {
            HookGate::Tool => hooks.tool_before(&self.name, &self.input),
            HookGate::Extension => hooks.extension_before(&self.name, &self.args),
        }));
        match started {
            Err(_) => Err(HOOK_PANIC_MESSAGE.to_string()),
            Ok(fut) => AssertUnwindSafe(fut)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Err(HOOK_PANIC_MESSAGE.to_string())),
        }
    }

    /// Runs `after` until the deadline or for [`AFTER_HOOK_GRACE`], whichever ends later;
    /// panics are ignored.
    async fn after(&self, outcome: &CallOutcome) {
        let hooks = &*self.hooks;
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| match self.gate {
            HookGate::Tool => hooks.tool_after(&self.name, &self.input, outcome),
            HookGate::Extension => hooks.extension_after(&self.name, &self.args, outcome),
        }));
        if let Ok(fut) = started {
            let until = self.deadline.max(Instant::now() + AFTER_HOOK_GRACE);
            let _ = tokio::time::timeout_at(until, AssertUnwindSafe(fut).catch_unwind()).await;
        }
    }
}

/// Per-execution host state: the attempt count, the `toolCalls` record and the open calls.
pub(crate) struct Gate {
    inner: Arc<Inner>,
    pub(crate) deadline: Instant,
    attempts: u64,
    pub(crate) tool_calls: Vec<ToolCallRecord>,
    /// Bytes of tool-call inputs the record may still hold in full (see [`Gate::record`]).
    input_budget: usize,
    /// [`Gate::record`] replaced an input by the omitted-input marker.
    pub(crate) inputs_cut: bool,
    /// Admitted calls not finished yet, by id (ids increase in admission order).
    open: BTreeMap<CallId, OpenCall>,
}

impl Gate {
    pub(crate) fn new(inner: Arc<Inner>, deadline: Instant) -> Self {
        let input_budget = retained_bytes(inner.limits.max_output_bytes());
        Gate {
            inner,
            deadline,
            attempts: 0,
            tool_calls: Vec::new(),
            input_budget,
            inputs_cut: false,
            open: BTreeMap::new(),
        }
    }

    fn lang(&self) -> &'static dyn Language {
        self.inner.lang
    }

    pub(crate) fn timeout_diagnostic(&self) -> Diagnostic {
        Diagnostic::new(
            DiagnosticKind::TimeoutExceeded,
            format!("Execution timed out after {}ms.", self.inner.limits.timeout_ms()),
        )
        .with_suggestion(
            "Do less in one execution: narrow tool queries, avoid unbounded loops, or continue the work in a new execution.",
        )
    }

    /// A guest error → diagnostic (a timeout the guest noticed itself gets the driver's
    /// message, keeping the guest's location).
    pub(crate) fn diagnostic(&self, e: GuestError) -> Diagnostic {
        if e.kind == ErrorKind::TimeoutExceeded {
            let mut d = self.timeout_diagnostic();
            d.location = e.location;
            return d;
        }
        Diagnostic::from(e)
    }

    /// Lists an admitted call. The input is copied while the copies fit `max_output_bytes`
    /// (at most [`crate::limits::MAX_RETAINED_OUTPUT_BYTES`]) in total; a larger one is
    /// recorded as the omitted-input marker, so the record never holds more than the output
    /// can show ([`crate::ExecutionResult::truncate`] cuts the rest).
    fn record(&mut self, name: &str, input: &Value, status: ToolCallStatus) -> usize {
        let cost = crate::result::json_len(input);
        let input = if cost <= self.input_budget {
            self.input_budget -= cost;
            input.clone()
        } else {
            self.inputs_cut = true;
            crate::result::omitted_input(cost)
        };
        self.tool_calls.push(ToolCallRecord {
            name: name.to_string(),
            input,
            status,
        });
        self.tool_calls.len() - 1
    }

    /// Runs a paused call the host approved on resume (listed at `index`, its input checked
    /// when it paused).
    pub(crate) fn approved(
        &mut self,
        id: CallId,
        path: String,
        input: Value,
        index: usize,
    ) -> Admission {
        match self.inner.tree.get(&path).cloned() {
            Some(entry) => self.tool_job(id, path, entry, input, false, index),
            None => Admission::Reply(
                id,
                Self::error(
                    DiagnosticKind::UnknownTool,
                    format!("Tool '{path}' is not available to the resumed execution."),
                    Vec::new(),
                ),
            ),
        }
    }

    /// Sets the status of the `toolCalls` entry at `index` (a paused call answered on resume).
    pub(crate) fn settle(&mut self, index: usize, status: ToolCallStatus) {
        if let Some(r) = self.tool_calls.get_mut(index) {
            r.status = status;
        }
    }

    /// The counters to keep in a snapshot: attempts, input budget left, inputs cut.
    pub(crate) fn counters(&self) -> (u64, usize, bool) {
        (self.attempts, self.input_budget, self.inputs_cut)
    }

    /// Continue from a snapshot's counters and record.
    pub(crate) fn restore(
        &mut self,
        (attempts, input_budget, inputs_cut): (u64, usize, bool),
        tool_calls: Vec<ToolCallRecord>,
    ) {
        self.attempts = attempts;
        self.input_budget = input_budget.min(self.input_budget);
        self.inputs_cut = inputs_cut;
        self.tool_calls = tool_calls;
    }

    /// Applies a finished job: its final status, and the reply to hand the guest.
    pub(crate) fn finish(&mut self, done: Finished) -> (CallId, HostReply) {
        if let Some(open) = self.open.remove(&done.id)
            && let (Some(index), Some(status)) = (open.index, done.status)
        {
            self.tool_calls[index].status = status;
        }
        (done.id, done.reply)
    }

    /// The run stopped with calls open: each keeps the status `interrupted` and gets its
    /// `after` hook (unless its own had started), all at once, in admission order.
    /// Returns `true` when this cleanup ended past the deadline.
    pub(crate) async fn interrupt_open(&mut self) -> bool {
        let open = std::mem::take(&mut self.open);
        let hooks: Vec<HookCall> = open
            .into_values()
            .filter_map(|o| o.hook)
            .filter(|h| !h.after_started.swap(true, Ordering::SeqCst))
            .collect();
        if hooks.is_empty() {
            return false;
        }
        futures::future::join_all(
            hooks
                .iter()
                .map(|h| async move { h.after(&CallOutcome::Interrupted).await }),
        )
        .await;
        Instant::now() > self.deadline
    }

    fn error(kind: DiagnosticKind, message: String, suggestions: Vec<String>) -> HostReply {
        let kind = kind.to_error().unwrap_or(ErrorKind::ExecutionFailure);
        HostReply::error(kind, message, suggestions)
    }

    /// Admission of one call (see the module docs).
    pub(crate) fn admit(&mut self, call: HostCall) -> Admission {
        let id = call.id;
        self.attempts += 1;
        let max = self.inner.limits.max_tool_calls();
        if self.attempts > max {
            return Admission::Reply(
                id,
                HostReply::Abort(GuestError {
                    kind: ErrorKind::ToolCallLimitExceeded,
                    message: format!(
                        "Execution exceeded its tool-call limit of {max}; make fewer calls (batch work into one call, reuse results you already have) or continue in a new execution."
                    ),
                    location: call.location,
                    suggestions: Vec::new(),
                }),
            );
        }
        if let Some(refused) = call.refused {
            return Admission::Reply(id, self.refused_call(call.target, refused));
        }
        match call.target {
            HostTarget::Search => self.search_call(id, call.args),
            HostTarget::Tool(path) if self.inner.search_alias && path == SEARCH_ALIAS => {
                self.search_call(id, call.args)
            }
            HostTarget::Tool(path) => self.tool_call(id, path, call.args, call.location),
            HostTarget::Extension(name) => self.extension_call(id, name, call.args),
        }
    }

    /// A call the guest refused before making it (see `HostCall::refused`), already counted
    /// and listed as a failed call, its input a marker (none was exported): an input that
    /// cannot cross, an unknown tool path or one under an unavailable namespace (answered with
    /// the missing-tool policy's error the guest attached), a call made inside a builtin's
    /// callback.
    fn refused_call(&mut self, target: HostTarget, refused: GuestError) -> HostReply {
        // A path that names no tool, or lies under a namespace that is unavailable (an MCP
        // server that failed to start): listed as a failed call, so a limit error never comes
        // with an empty `toolCalls`.
        // A call made inside a builtin's callback (a sort comparator: the guest cannot suspend
        // there) likewise.
        if refused.kind != ErrorKind::InvalidDataValue {
            let why = match refused.kind {
                ErrorKind::UnknownTool => "no tool has this path",
                ErrorKind::ToolFailure => "its namespace is unavailable",
                _ => "called inside a builtin's callback",
            };
            let name = match &target {
                HostTarget::Tool(path) | HostTarget::Extension(path) => path.as_str(),
                HostTarget::Search => "search",
            };
            let marker = Value::String(format!("[input not sent: {why}]"));
            self.record(name, &marker, ToolCallStatus::Failure);
        }
        if refused.kind == ErrorKind::InvalidDataValue {
            let name = match &target {
                HostTarget::Tool(path) => Some(path.as_str()),
                HostTarget::Search => Some("search"),
                HostTarget::Extension(_) => None,
            };
            if let Some(name) = name {
                let mut why = refused.message.as_str();
                if why.len() > REFUSED_INPUT_MARKER_BYTES {
                    let mut end = REFUSED_INPUT_MARKER_BYTES;
                    while !why.is_char_boundary(end) {
                        end -= 1;
                    }
                    why = &why[..end];
                }
                let marker = Value::String(format!("[input not sent: {why}]"));
                self.record(name, &marker, ToolCallStatus::Failure);
            }
        }
        HostReply::error(refused.kind, refused.message, refused.suggestions)
    }

    /// Zero arguments → `{}`, one → itself, more → error message.
    fn single_input(&self, name: &str, mut args: Vec<Value>) -> Result<Value, String> {
        match args.len() {
            0 => Ok(Value::Object(Default::default())),
            1 => Ok(args.pop().expect("one argument")),
            n => {
                let callee = if name == "search" {
                    "search".to_string()
                } else {
                    self.lang().tool_expression(name)
                };
                let noun = self.lang().object_noun();
                Err(format!(
                    "Tool '{name}' expects at most one input {noun}; got {n} arguments. Pass all fields in one {noun}: {}.",
                    self.lang().call_example(&callee, &[("field", "value")])
                ))
            }
        }
    }

    fn hook_call(
        &self,
        gate: HookGate,
        name: &str,
        input: Value,
        args: Vec<Value>,
    ) -> Option<HookCall> {
        self.inner.hooks.as_ref().map(|hooks| HookCall {
            hooks: hooks.clone(),
            gate,
            name: Arc::from(name),
            input: Arc::new(input),
            args: Arc::from(args),
            after_started: Arc::new(AtomicBool::new(false)),
            deadline: self.deadline,
        })
    }

    fn open(&mut self, id: CallId, index: Option<usize>, hook: Option<HookCall>) {
        self.open.insert(id, OpenCall { index, hook });
    }

    fn search_call(&mut self, id: CallId, args: Vec<Value>) -> Admission {
        let lang = self.lang();
        let limit = search::DEFAULT_SEARCH_LIMIT.to_string();
        let hint = || {
            vec![format!(
                "Call search with one {}: {}; every field is optional.",
                lang.object_noun(),
                lang.call_example(
                    "search",
                    &[
                        ("query", &lang.quote("words")),
                        ("namespace", &lang.quote("a.b")),
                        ("limit", &limit),
                        ("offset", "0"),
                    ]
                )
            )]
        };
        let all_args = (args.len() > 1).then(|| Value::Array(args.clone()));
        let input = match self.single_input("search", args) {
            Ok(v) => v,
            Err(msg) => {
                self.record(
                    "search",
                    &all_args.unwrap_or(Value::Null),
                    ToolCallStatus::Failure,
                );
                let reply = Self::error(DiagnosticKind::InvalidToolInput, msg, hint());
                return Admission::Reply(id, reply);
            }
        };
        let req = match SearchRequest::checked(&input, self.lang()) {
            Ok(r) => r,
            Err(msg) => {
                self.record("search", &input, ToolCallStatus::Failure);
                let reply = Self::error(DiagnosticKind::InvalidToolInput, msg, hint());
                return Admission::Reply(id, reply);
            }
        };
        if let Some(msg) = self.unknown_search_namespace(&req.namespace) {
            self.record("search", &input, ToolCallStatus::Failure);
            let reply = Self::error(DiagnosticKind::InvalidToolInput, msg, hint());
            return Admission::Reply(id, reply);
        }
        let index = self.record("search", &input, ToolCallStatus::Interrupted);
        let hook = self.hook_call(HookGate::Tool, "search", input, Vec::new());
        self.open(id, Some(index), hook.clone());
        let inner = self.inner.clone();
        let fut = async move {
            let outcome = match &hook {
                Some(h) => match h.before().await {
                    Err(message) => CallOutcome::Denied(message),
                    Ok(()) => CallOutcome::Success(inner.index.search(&req)),
                },
                None => CallOutcome::Success(inner.index.search(&req)),
            };
            finish_tool(id, hook, outcome, Vec::new()).await
        };
        Admission::Job(CallJob { fut: Box::pin(fut) })
    }

    /// `search({ namespace = "nope" })` where no tool lies at or below `nope` and no namespace
    /// of that name is unavailable: the message naming the top-level namespaces (an empty page
    /// would read as "nothing matches").
    fn unknown_search_namespace(&self, ns: &str) -> Option<String> {
        let tree = &self.inner.tree;
        if ns.is_empty()
            || tree.paths().any(|p| search::in_namespace(p, ns))
            || tree.unavailable_for(ns).is_some()
        {
            return None;
        }
        let mut tops: Vec<&str> = tree
            .paths()
            .map(|p| p.split('.').next().unwrap_or(p))
            .collect();
        tops.sort_unstable();
        tops.dedup();
        let more = tops.len().saturating_sub(crate::missing::MAX_LISTED_NAMES);
        tops.truncate(crate::missing::MAX_LISTED_NAMES);
        let mut list = tops.join(", ");
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        let lang = self.lang();
        Some(format!(
            "search: namespace {} does not exist; the namespaces are: {list}; leave namespace out to search every tool",
            lang.quote(ns)
        ))
    }

    fn extension_call(&mut self, id: CallId, name: String, args: Vec<Value>) -> Admission {
        let Some(handler) = self.inner.extensions.get(&name).cloned() else {
            self.record(&name, &Value::Array(args), ToolCallStatus::Failure);
            let reply = Self::error(
                DiagnosticKind::ExecutionFailure,
                format!("Extension function '{name}' is not available in this host."),
                Vec::new(),
            );
            return Admission::Reply(id, reply);
        };
        // Listed like a tool call, its arguments as an array.
        let index = self.record(
            &name,
            &Value::Array(args.clone()),
            ToolCallStatus::Interrupted,
        );
        // Without hooks the arguments move into the handler; with hooks they are shared.
        let hook = self
            .inner
            .hooks
            .is_some()
            .then(|| args.clone())
            .and_then(|copy| self.hook_call(HookGate::Extension, &name, Value::Null, copy));
        self.open(id, Some(index), hook.clone());
        let fut = async move {
            let outcome = run_extension(&name, handler, args, hook.as_ref()).await;
            if let Some(h) = &hook
                && !h.after_started.swap(true, Ordering::SeqCst)
            {
                h.after(&outcome).await;
            }
            let status = outcome.status();
            let reply = match outcome {
                CallOutcome::Success(v) => HostReply::Value(v),
                CallOutcome::Denied(message) | CallOutcome::Failure { message, .. } => {
                    HostReply::error(ErrorKind::ExecutionFailure, message, Vec::new())
                }
                CallOutcome::Interrupted => interrupted_reply(),
            };
            Finished {
                id,
                status: Some(status),
                reply,
            }
        };
        Admission::Job(CallJob { fut: Box::pin(fut) })
    }

    fn tool_call(
        &mut self,
        id: CallId,
        path: String,
        args: Vec<Value>,
        location: Option<codemode_guest::Location>,
    ) -> Admission {
        let inner = self.inner.clone();
        let Some(entry) = inner.tree.get(&path).cloned() else {
            // The guest's tool paths come from this tree, so this is reached only through a
            // guest that does not refuse unknown paths itself.
            let e = codemode_guest::MissingTool::missing(&*inner.missing, &path, true);
            return Admission::Reply(id, HostReply::error(e.kind, e.message, e.suggestions));
        };
        let all_args = (args.len() > 1).then(|| Value::Array(args.clone()));
        let input = match self.single_input(&path, args) {
            Ok(v) => v,
            Err(msg) => {
                // Recorded with all arguments as an array, so the call shows what was sent.
                self.record(
                    &path,
                    &all_args.unwrap_or(Value::Null),
                    ToolCallStatus::Failure,
                );
                let reply = Self::error(
                    DiagnosticKind::InvalidToolInput,
                    msg,
                    vec![signature_hint(self.lang(), &path)],
                );
                return Admission::Reply(id, reply);
            }
        };
        let input = entry.input.coerce_integers(input);
        // A call held for the host (see `crate::durable`) has its input checked now, costly
        // or not, so a resumed call runs with checked input like any other.
        let pause = inner.pause_on.contains(&path)
            || inner
                .hooks
                .as_ref()
                .is_some_and(|h| h.pause_before(&path, &input));
        let costly = !pause && entry.input.is_costly(&input);
        let input = if costly {
            input
        } else {
            entry.input.coerce_empty_arrays(input)
        };
        let hints = InputHints::from_language(self.lang());
        if !costly && let Err(msg) = entry.input.validate_with(&input, &hints) {
            self.record(&path, &input, ToolCallStatus::Failure);
            let reply = Self::error(
                DiagnosticKind::InvalidToolInput,
                format!("Invalid input for tool '{path}': {msg}"),
                vec![signature_hint(self.lang(), &path)],
            );
            return Admission::Reply(id, reply);
        }
        if pause {
            let index = self.record(&path, &input, ToolCallStatus::Interrupted);
            let pending = crate::durable::PendingCall {
                id: id.0,
                name: path,
                input,
                location,
            };
            return Admission::Pause(pending, index);
        }
        let index = self.record(&path, &input, ToolCallStatus::Interrupted);
        self.tool_job(id, path, entry, input, costly, index)
    }

    /// The job of an admitted tool call listed at `index`: its `before` hook, handler and
    /// output checks (`costly`: its input is validated on the blocking pool first).
    fn tool_job(
        &mut self,
        id: CallId,
        path: String,
        entry: Arc<ToolEntry>,
        input: Value,
        costly: bool,
        index: usize,
    ) -> Admission {
        let inner = self.inner.clone();
        let hints = InputHints::from_language(self.lang());
        let lang = self.lang();
        // Without hooks the input moves into the handler; with hooks it is shared with them.
        let (input, hook) = match inner.hooks.is_some() {
            true => {
                let hook = self.hook_call(HookGate::Tool, &path, input.clone(), Vec::new());
                (input, hook)
            }
            false => (input, None),
        };
        self.open(id, Some(index), hook.clone());
        let fut = async move {
            let (outcome, suggestions) =
                run_tool(&path, entry, input, costly, hints, lang, hook.as_ref()).await;
            finish_tool(id, hook, outcome, suggestions).await
        };
        Admission::Job(CallJob { fut: Box::pin(fut) })
    }
}

/// The suggestion attached to InvalidToolInput diagnostics (built only when one is, since it
/// is text in the guest's notation).
fn signature_hint(lang: &dyn Language, path: &str) -> String {
    format!(
        "Use {} to get the tool's signature.",
        lang.call_example("search", &[("query", &lang.quote(path))])
    )
}

/// Runs an extension's `before` hook and handler.
async fn run_extension(
    name: &str,
    handler: ExtensionHandler,
    args: Vec<Value>,
    hook: Option<&HookCall>,
) -> CallOutcome {
    if let Some(h) = hook
        && let Err(message) = h.before().await
    {
        return CallOutcome::Denied(message);
    }
    let started = std::panic::catch_unwind(AssertUnwindSafe(|| handler(args)));
    let result = match started {
        Err(_) => Err(ToolError::internal("the extension handler panicked")),
        Ok(fut) => AssertUnwindSafe(fut)
            .catch_unwind()
            .await
            .unwrap_or_else(|_| Err(ToolError::internal("the extension handler panicked"))),
    };
    match result {
        Ok(v) => CallOutcome::Success(v),
        Err(e) => CallOutcome::Failure {
            kind: DiagnosticKind::ExecutionFailure,
            message: match e.kind() {
                ToolErrorKind::Internal => format!("Extension function '{name}' failed."),
                _ if e.message().is_empty() => format!("Extension function '{name}' failed."),
                _ => e.message().to_string(),
            },
        },
    }
}

/// Validates a costly input on the blocking pool, then runs the `before` hook, the handler and
/// the output checks of one tool call. Returns the outcome and the suggestions for its error.
async fn run_tool(
    path: &str,
    entry: Arc<ToolEntry>,
    input: Value,
    costly: bool,
    hints: InputHints,
    lang: &'static dyn Language,
    hook: Option<&HookCall>,
) -> (CallOutcome, Vec<String>) {
    let failure = |kind, message| CallOutcome::Failure { kind, message };
    let input = if costly {
        // Slow patterns or a large schema or input: validate on the blocking pool (the
        // driver's deadline still ends the run; the job then ends by itself).
        let e = entry.clone();
        let job = tokio::task::spawn_blocking(move || {
            let input = e.input.coerce_empty_arrays(input);
            let r = e.input.validate_with(&input, &hints);
            (input, r)
        });
        match job.await {
            Ok((input, Ok(()))) => input,
            Ok((_, Err(msg))) => {
                return (
                    failure(
                        DiagnosticKind::InvalidToolInput,
                        format!("Invalid input for tool '{path}': {msg}"),
                    ),
                    vec![signature_hint(lang, path)],
                );
            }
            Err(_) => {
                return (
                    failure(
                        DiagnosticKind::ToolFailure,
                        format!(
                            "Tool '{path}': its input could not be validated (internal error)."
                        ),
                    ),
                    Vec::new(),
                );
            }
        }
    } else {
        input
    };
    if let Some(h) = hook
        && let Err(message) = h.before().await
    {
        return (CallOutcome::Denied(message), Vec::new());
    }
    let started = std::panic::catch_unwind(AssertUnwindSafe(|| entry.tool.call(input)));
    let result = match started {
        Err(_) => Err(ToolError::internal("the tool handler panicked")),
        Ok(fut) => AssertUnwindSafe(fut)
            .catch_unwind()
            .await
            .unwrap_or_else(|_| Err(ToolError::internal("the tool handler panicked"))),
    };
    match result {
        Err(e) => match e.kind() {
            ToolErrorKind::Failure if !e.message().is_empty() => (
                failure(DiagnosticKind::ToolFailure, e.message().to_string()),
                Vec::new(),
            ),
            ToolErrorKind::InvalidInput => (
                failure(
                    DiagnosticKind::InvalidToolInput,
                    format!("Invalid input for tool '{path}': {}", e.message()),
                ),
                vec![signature_hint(lang, path)],
            ),
            ToolErrorKind::InvalidOutput => (
                failure(
                    DiagnosticKind::InvalidToolOutput,
                    format!("Invalid output from tool '{path}': {}", e.message()),
                ),
                Vec::new(),
            ),
            _ => (
                failure(
                    DiagnosticKind::ToolFailure,
                    format!("Tool '{path}' failed."),
                ),
                Vec::new(),
            ),
        },
        // Depth first (iteratively): a schema validator may recurse on a hostile value.
        Ok(value) => {
            let checked = check_tool_output(&value).and_then(|()| match entry.output.as_ref() {
                Some(out) => out.validate_output(&value),
                None => Ok(()),
            });
            match checked {
                Err(msg) => {
                    drop_deep(value);
                    (
                        failure(
                            DiagnosticKind::InvalidToolOutput,
                            format!("Invalid output from tool '{path}': {msg}"),
                        ),
                        Vec::new(),
                    )
                }
                Ok(()) => (CallOutcome::Success(value), Vec::new()),
            }
        }
    }
}

/// Runs `tool_after` and turns a tool (or `search`) outcome into its [`Finished`].
async fn finish_tool(
    id: CallId,
    hook: Option<HookCall>,
    outcome: CallOutcome,
    suggestions: Vec<String>,
) -> Finished {
    let status = outcome.status();
    if let Some(h) = &hook
        && !h.after_started.swap(true, Ordering::SeqCst)
    {
        h.after(&outcome).await;
    }
    let reply = match outcome {
        CallOutcome::Success(v) => HostReply::Value(v),
        CallOutcome::Denied(message) => {
            HostReply::error(ErrorKind::ToolFailure, message, Vec::new())
        }
        CallOutcome::Failure { kind, message } => HostReply::error(
            kind.to_error().unwrap_or(ErrorKind::ToolFailure),
            message,
            suggestions,
        ),
        CallOutcome::Interrupted => interrupted_reply(),
    };
    Finished {
        id,
        status: Some(status),
        reply,
    }
}

/// Jobs never end `Interrupted` themselves (the driver stops them); this is the fallback.
fn interrupted_reply() -> HostReply {
    HostReply::error(
        ErrorKind::ExecutionFailure,
        "A host call was interrupted.",
        Vec::new(),
    )
}
