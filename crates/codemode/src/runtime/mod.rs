//! The runtime: [`Options`] (builder), [`CodeMode`] (built once, executes many programs, also
//! concurrently), the one-shot [`execute`], and the async driver that runs a guest and answers
//! the host calls it starts (tools, `search`, extensions) under the limits.
//!
//! | File | What |
//! |---|---|
//! | `mod.rs` | [`CodeMode`], `execute`, `call_tool`, the driver's constants |
//! | `builder.rs` | [`Options`], [`Language`], [`BuildError`], [`CodeMode::new`] and its checks |
//! | `driver.rs` | the execution loop: inline stretches, pool segments, calls in flight, logs, the result |
//! | `gate.rs` | admission of each host call and the owned future that runs it (hooks, handler, checks) |
//!
//! The host knows a guest only through `codemode_guest` ([`codemode_guest::Guest`] for one run,
//! [`codemode_guest::Language`] for starting one and for the words of host messages); the
//! public [`Language`] is mapped to a guest in `guests.rs`.
//!
//! ## The rule
//! Nothing guest input controls runs unbounded on an async worker: guest work runs in
//! self-bounding inline stretches or on the blocking pool under the backstop; host work a
//! program can trigger is either moved to the pool under the deadline (compiling long programs,
//! behind [`MAX_CONCURRENT_COMPILES`]; validating inputs against costly schemas,
//! `CompiledSchema::is_costly`) or capped and counted as a call attempt (unknown-tool
//! suggestions, refused calls, `search`). `docs/internals.md` lists each with its bound.
//!
//! ## Driver
//! Guest code runs in two places.
//!
//! **Inline stretches.** Most guest work between two host calls is short (µs), and handing it
//! to another thread costs more than the work (waking a parked thread: 5–30 µs each way). So a
//! guest that is [`codemode_guest::Guest::restartable`] first runs directly in the `execute`
//! future: one `run` with a [`codemode_guest::Budget::soft_deadline`] [`INLINE_BUDGET`]
//! (200 µs) away. The guest keeps the stretch short itself: work that would run past the soft
//! deadline before it changed anything is abandoned and redone by the next run, which the
//! driver makes on the pool (a run that yields in a stretch continues there). Short programs
//! ([`INLINE_COMPILE_BYTES`]) are compiled inline too. The longest stretch is recorded for
//! tests ([`take_longest_inline_stretch`]; the adversarial suite asserts ≤ 50 ms in a debug
//! build for every program). After answered calls the driver spends tokio's cooperative budget
//! (`coop::consume_budget`), so a program calling tools that answer at once still lets the
//! runtime run other tasks. A guest that is not restartable always runs on the pool.
//!
//! **Segments.** Work that outlives a stretch runs in *segments*, each one `spawn_blocking`
//! call (also on a current-thread runtime) that takes the guest by value (boxed) and gives it
//! back only when it started calls or is blocked. The first segment of a long program compiles
//! it (ParseError → failure) and builds the guest with the deadline set. A segment loops on
//! `run` with a slice of fuel adapting so one slice takes about [`TARGET_SLICE`] of wall time,
//! until the guest starts a call, blocks, finishes, or the deadline passed between two slices.
//! After every run it moves the guest's log lines and warnings to the host (logs kept up to
//! `max_output_bytes`, later lines only counted), so they survive any timeout. A finished
//! guest is dropped on the blocking pool (a large one by a task of its own, so freeing it does
//! not delay the result).
//!
//! So a blocking-pool thread is held only while long guest code runs: while the program waits
//! for a tool, the parked guest is plain data owned by the `execute` future (thousands of
//! executions can wait for tools at once). How many *compute* at once is bounded by
//! [`Options::max_computing_executions`] (default [`DEFAULT_MAX_COMPUTING_EXECUTIONS`], 512):
//! each segment holds one slot; a guest that must continue on the pool while every slot is
//! taken waits in the `execute` future for one, under the deadline and the cancellation token
//! (calls in flight go on meanwhile), so a wait past the deadline is an ordinary
//! `TimeoutExceeded` with the record. A parked guest the driver drops (deadline, cancellation,
//! a dropped `execute` future) is dropped on the blocking pool too.
//!
//! **Calls in flight.** Calls the guest starts are admitted by the gate (`gate.rs`) in program order
//! (counted, checked, listed) and run as owned futures that the `execute` future polls: up to
//! [`MAX_CONCURRENT_HOST_CALLS`] at once, the rest queued first in first out. A call in
//! `CallMode::Suspend` (every Lua call) makes the program wait for its reply; a call in
//! `CallMode::Continue` (a JavaScript call returning a promise) lets it run on while the call
//! runs. Replies are handed back by call id, in any order. When the run stops (done, error,
//! timeout, cancellation) every call still running or queued keeps the status `interrupted`,
//! gets its `after` hook ([`crate::CallOutcome::Interrupted`]) and stays in `toolCalls` in admission
//! order. A guest blocked with nothing running or queued fails at once (ExecutionFailure).
//!
//! **Wall-clock backstop.** While a segment runs, the driver awaits its `JoinHandle` under
//! `tokio::select!` with the cancellation token, the calls in flight and a timer at the
//! deadline + [`BACKSTOP_MARGIN`]; while the guest waits for calls, under the token and a timer
//! at the deadline. So even when the guest's own checks are bypassed (one long builtin such as
//! a native `table.sort` of millions of values, or a bug), `execute` returns `TimeoutExceeded`
//! (or the cancellation failure) by the deadline plus the margin, with the `toolCalls` record
//! and the logs of every finished slice. The running segment is abandoned, never awaited: it
//! notices at its next slice boundary and ends. A panic in a segment (a `JoinError`) becomes an
//! `ExecutionFailure` "Internal error: the interpreter panicked. ...", never a host panic.
//! Dropping the runtime waits for blocking threads, so an abandoned segment can delay runtime
//! shutdown until its current builtin returns. Costs: `benches/host.rs`, `bench/RESULTS.md`.
//!
//! When the run ends, the [`ExecutionResult`] is built from the collected logs and the record,
//! and `max_output_bytes` applied (value, logs and tool-call inputs share it; see
//! [`ExecutionResult::truncate`]); a large value is measured and cut on the pool.

mod builder;
mod driver;
mod gate;

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use codemode_guest::{Env, HostCall, HostReply, HostTarget, StartOptions};
use serde_json::Value;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

pub use builder::{BuildError, Language, Options};
#[doc(hidden)]
pub use driver::{take_longest_inline_stretch, take_most_running_calls};

use crate::extension::ExtensionHandler;
use crate::hooks::Hooks;
use crate::limits::Limits;
use crate::missing::HostMissing;
use crate::namespace::ToolTree;
use crate::result::{Diagnostic, DiagnosticKind, ExecutionResult};
use crate::search::{SearchIndex, SearchRequest};

/// Most host calls one execution runs at once; further admitted calls wait, first in first
/// out, for a slot (see the module docs, "Calls in flight").
pub const MAX_CONCURRENT_HOST_CALLS: usize = 8;

/// Wall time one `run` slice should take; the slice size adapts toward it.
pub const TARGET_SLICE: Duration = Duration::from_millis(1);
/// First slice size in fuel units (also the size used when a slice had no time to measure).
pub const INITIAL_SLICE: u32 = 20_000;
/// Smallest slice size in fuel units.
pub const MIN_SLICE: u32 = 1_000;
/// Largest slice size in fuel units.
pub const MAX_SLICE: u32 = 2_000_000;
/// How long after the deadline the driver still waits for a running slice before it gives up
/// on it (the wall-clock backstop): the machine checks the deadline itself inside long natives
/// and reports TimeoutExceeded with the program's location; past this margin the driver
/// returns TimeoutExceeded without it and abandons the running segment.
pub const BACKSTOP_MARGIN: Duration = Duration::from_millis(10);
/// The warning ([`DiagnosticKind::NoReturn`]) of a program that ended without `return`.
pub const NO_RETURN_WARNING: &str = "The program ended without `return`, so `value` is null. \
End it with `return <value>` (for example `return results`) to hand data back; printed lines \
are in `logs`.";
/// Longest *inline stretch*: guest work the driver runs directly in the `execute` future
/// (on the async runtime's thread) before it hands the machine to the blocking pool (see the
/// Most bytes of the guest's message kept in the `toolCalls` input marker of a call refused for
/// an input that cannot cross (`"[input not sent: ...]"`).
const REFUSED_INPUT_MARKER_BYTES: usize = 300;

/// module docs, "Inline stretches").
pub const INLINE_BUDGET: Duration = Duration::from_micros(200);
/// Fuel per `run` call in an inline stretch (the clock is read between calls).
pub const INLINE_SLICE: u32 = 2_000;
/// Programs up to this many bytes of source are compiled inline; longer ones on the blocking
/// pool (compiling is linear in the source: 8 KiB takes well under [`INLINE_BUDGET`]).
pub const INLINE_COMPILE_BYTES: usize = 8 * 1024;

/// Default of [`Options::max_computing_executions`]: most executions of one runtime running
/// guest code on the blocking pool at once (tokio's default `max_blocking_threads`); more wait
/// for a slot under their deadline and cancellation.
pub const DEFAULT_MAX_COMPUTING_EXECUTIONS: usize = 512;

/// Most programs longer than [`INLINE_COMPILE_BYTES`] compiling at once in this process; more
/// wait (under their deadline). Compiling is charged to each execution's memory budget, and
/// this bounds how many such budgets are in use by compilers at one time.
pub const MAX_CONCURRENT_COMPILES: usize = 4;

/// Programs compiling right now, and the most at once since [`take_most_concurrent_compiles`].
static COMPILING: AtomicUsize = AtomicUsize::new(0);
static MOST_COMPILING: AtomicUsize = AtomicUsize::new(0);

/// The most programs that compiled at once in this process since the previous call, which
/// resets it. For tests of [`MAX_CONCURRENT_COMPILES`].
#[doc(hidden)]
pub fn take_most_concurrent_compiles() -> usize {
    MOST_COMPILING.swap(0, Ordering::Relaxed)
}

/// The diagnostic of an execution cancelled through its token.
fn cancelled() -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        "Execution was cancelled by the host.",
    )
}

/// The process-wide permits of [`MAX_CONCURRENT_COMPILES`].
fn compile_permits() -> Arc<tokio::sync::Semaphore> {
    static PERMITS: std::sync::OnceLock<Arc<tokio::sync::Semaphore>> = std::sync::OnceLock::new();
    PERMITS
        .get_or_init(|| Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_COMPILES)))
        .clone()
}

#[derive(Clone)]
struct Inner {
    language: Language,
    /// The guest for `language` (see `guests.rs`).
    lang: &'static dyn codemode_guest::Language,
    /// The missing-tool policy the guest is given in `env`.
    missing: Arc<HostMissing>,
    tree: Arc<ToolTree>,
    index: Arc<SearchIndex>,
    limits: Limits,
    env: Env,
    /// `None` when the host gave no hooks (the gate then costs nothing).
    hooks: Option<Arc<dyn Hooks>>,
    extensions: HashMap<String, ExtensionHandler>,
    /// `tools.search(...)` is an alias of the `search` global (no tool owns the root `search`).
    search_alias: bool,
    /// Tool paths whose calls pause the execution (`Options::pause_on`).
    pause_on: std::collections::HashSet<String>,
    /// SHA-256 of the tools' paths and schemas and the extension paths (see `durable.rs`).
    catalog_hash: [u8; 32],
    /// The key snapshots are signed and checked with (`Options::snapshot_key`).
    snapshot_key: Option<Arc<[u8]>>,
    /// Slots of `Options::max_computing_executions`: one is held by each segment of guest
    /// work on the blocking pool (see the module docs, "Segments").
    computing: Arc<tokio::sync::Semaphore>,
}

/// The tool path that aliases the `search` global when no tool uses it.
const SEARCH_ALIAS: &str = "search";

/// A Code Mode runtime: built once, then [`CodeMode::execute`] any number of times, concurrently.
/// Every execution has fresh state (globals, counters, logs). Cheap to clone (shared inside).
#[derive(Clone)]
pub struct CodeMode {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for CodeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode")
            .field("language", &self.inner.language)
            .field("tools", &self.inner.tree.paths().collect::<Vec<_>>())
            .field("limits", &self.inner.limits)
            .finish()
    }
}

impl CodeMode {
    /// Start building a runtime.
    pub fn builder() -> Options {
        Options::new()
    }

    /// The tool tree.
    pub fn tools(&self) -> &ToolTree {
        &self.inner.tree
    }

    /// The search index over the tools (what the built-in `search` uses).
    pub fn search_index(&self) -> &SearchIndex {
        &self.inner.index
    }

    /// Run the built-in `search` from the host (same input checks and result as a program's
    /// `search(...)`, without hooks or counting). Errors: the `InvalidToolInput` message.
    pub fn search(&self, input: &Value) -> Result<Value, String> {
        let req = SearchRequest::from_input_for(input, self.language())?;
        Ok(self.inner.index.search(&req))
    }

    /// Dotted paths of every extension function (`fs.list`, `fs.read`, ...), sorted.
    pub fn extension_paths(&self) -> &[String] {
        &self.inner.env.extension_paths
    }

    /// The limits every execution runs under.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// The language.
    pub fn language(&self) -> Language {
        self.inner.language
    }

    /// Run one program. The future is `Send + 'static` (spawn it), never fails (every problem is
    /// a failed [`ExecutionResult`]), and dropping it stops the execution and drops in-flight
    /// tool futures.
    pub fn execute(
        &self,
        source: &str,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        self.execute_with_cancel(source, CancellationToken::new())
    }

    /// Like [`CodeMode::execute`]; cancelling `cancel` ends the execution with an
    /// `ExecutionFailure` "Execution was cancelled by the host." (logs and toolCalls kept,
    /// in-flight calls `interrupted`).
    pub fn execute_with_cancel(
        &self,
        source: &str,
        cancel: CancellationToken,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        let inner = self.inner.clone();
        let source = source.to_owned();
        async move {
            let start = Instant::now();
            let deadline = deadline_after(start, inner.limits.timeout_ms());
            if inner.lang.is_blank(&source) {
                return ExecutionResult::failure(Diagnostic::new(
                    DiagnosticKind::ParseError,
                    format!(
                        "The program is empty: write {} statements and `return` the result.",
                        inner.lang.name()
                    ),
                ));
            }
            let machine_inner = inner.clone();
            let source_len = source.len();
            let inline_setup = source_len <= INLINE_COMPILE_BYTES;
            // A long program compiles only with one of MAX_CONCURRENT_COMPILES permits, so
            // many large programs at once cannot hold that many compilers' memory; waiting
            // for one counts against the deadline.
            let permit = if inline_setup {
                None
            } else {
                let wait = compile_permits().acquire_owned();
                tokio::select! {
                    biased;
                    _ = cancel.cancelled() => return ExecutionResult::failure(cancelled()),
                    _ = tokio::time::sleep_until(deadline) => {
                        return ExecutionResult::failure(Diagnostic::new(
                            DiagnosticKind::TimeoutExceeded,
                            format!(
                                "Execution timed out after {}ms (waiting to compile: other large programs were compiling).",
                                inner.limits.timeout_ms()
                            ),
                        ));
                    }
                    p = wait => p.ok(),
                }
            };
            // Compiling and building the machine run in the first inline stretch (short
            // programs) or the first segment on the blocking pool (see `drive`).
            let setup = move || {
                let _permit = permit;
                let options = StartOptions {
                    max_memory_bytes: machine_inner.limits.max_memory_bytes_usize(),
                    // Builtins that call back into guest code and long data walks cannot
                    // yield; the guest checks this deadline there itself.
                    deadline: Some(deadline.into_std()),
                };
                let counted = _permit.is_some();
                if counted {
                    let now = COMPILING.fetch_add(1, Ordering::Relaxed) + 1;
                    MOST_COMPILING.fetch_max(now, Ordering::Relaxed);
                }
                let guest = machine_inner
                    .lang
                    .start(&source, &machine_inner.env, &options);
                if counted {
                    COMPILING.fetch_sub(1, Ordering::Relaxed);
                }
                guest.map_err(Diagnostic::from)
            };
            driver::drive(inner, setup, inline_setup, deadline, &cancel).await
        }
    }
}

impl CodeMode {
    /// Continue a paused execution ([`ExecutionResult::paused`], see [`crate::durable`]) with
    /// one [`Reply`](crate::Reply) per pending call, by its id. It runs on exactly where the
    /// program stopped, under the rest of `timeout_ms` (time spent paused is not counted),
    /// and returns its result, which may be paused again; `toolCalls` and `logs` hold the
    /// whole execution's. Refused (a failed result with an `ExecutionFailure` saying why,
    /// nothing run): bytes that are not a snapshot, are cut short or altered, another format
    /// version, another language, another tool catalog, a missing or wrong signature when
    /// [`Options::snapshot_key`] is set, a reply missing for a pending call, given twice or
    /// for an unknown id, a [`Reply::Value`](crate::Reply::Value) the tool's output schema
    /// rejects. A refusal of a snapshot that decoded keeps its `toolCalls` and `logs` (the
    /// pending calls stay `interrupted`). Single use is not enforced here: see
    /// [`CodeMode::resume_once`].
    pub fn resume(
        &self,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        self.resume_with_cancel(snapshot, replies, CancellationToken::new())
    }

    /// Like [`CodeMode::resume`]; cancelling `cancel` ends the resumed execution as
    /// [`CodeMode::execute_with_cancel`] does (logs and toolCalls kept, in-flight calls
    /// `interrupted`).
    pub fn resume_with_cancel(
        &self,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
        cancel: CancellationToken,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        let fut = self.resume_or_refuse(snapshot, replies, cancel);
        async move { fut.await.0 }
    }

    /// [`CodeMode::resume`], with a refusal as `Err` (the `ExecutionFailure` saying why)
    /// instead of a failed result, for hosts that report it apart from the program's own
    /// failures (the Python and Node packages raise it). Besides [`CodeMode::resume`]'s
    /// refusals, a guest part that the guest cannot restore (damaged bytes in an unsigned
    /// snapshot) is an `Err` too. `Ok` is the resumed execution's result, paused again or not.
    pub fn try_resume(
        &self,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
    ) -> impl Future<Output = Result<ExecutionResult, Diagnostic>> + Send + 'static + use<> {
        self.try_resume_with_cancel(snapshot, replies, CancellationToken::new())
    }

    /// [`CodeMode::try_resume`]; cancelling `cancel` ends the resumed execution as
    /// [`CodeMode::resume_with_cancel`] does.
    pub fn try_resume_with_cancel(
        &self,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
        cancel: CancellationToken,
    ) -> impl Future<Output = Result<ExecutionResult, Diagnostic>> + Send + 'static + use<> {
        let fut = self.resume_or_refuse(snapshot, replies, cancel);
        async move {
            match fut.await {
                (r, false) => Ok(r),
                (r, true) => Err(r
                    .outcome
                    .err()
                    .unwrap_or_else(|| crate::durable::refused("it is damaged"))),
            }
        }
    }

    /// [`CodeMode::try_resume`] after claiming the snapshot's id in `store`, as
    /// [`CodeMode::resume_once`] does; a second use is an `Err` ("resumed already").
    pub fn try_resume_once(
        &self,
        store: &dyn crate::SnapshotStore,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
    ) -> impl Future<Output = Result<ExecutionResult, Diagnostic>> + Send + 'static + use<> {
        let claim = store.claim(snapshot.id());
        let fut = self.try_resume(snapshot, replies);
        async move {
            match claim {
                Ok(()) => fut.await,
                Err(m) => Err(crate::durable::refused(m)),
            }
        }
    }

    /// [`CodeMode::resume_with_cancel`], with whether the result is a refusal (nothing of the
    /// program ran; a refusal after the snapshot decoded still carries its `toolCalls` and
    /// `logs`). For a host that keeps snapshots single-use its own way and gives a snapshot
    /// back when the resume was refused (`codemode resume` removes its claim record then).
    pub fn resume_or_refuse(
        &self,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
        cancel: CancellationToken,
    ) -> impl Future<Output = (ExecutionResult, bool)> + Send + 'static + use<> {
        let inner = self.inner.clone();
        let bytes = snapshot.as_bytes().to_vec();
        async move {
            let started = Instant::now();
            let decoded = match crate::durable::decode(
                &bytes,
                inner.lang.name(),
                inner.catalog_hash,
                inner.snapshot_key.as_deref(),
            ) {
                Ok(d) => d,
                Err(d) => return (ExecutionResult::failure(d), true),
            };
            drop(bytes);
            let mut host = decoded.host;
            // The stricter of the limits the execution ran under and this runtime's: a resume
            // never lifts a limit the paused run had.
            let inner = match host.limits.take() {
                Some(old) => {
                    let l = inner.limits;
                    let memory = match (l.max_memory_bytes(), old.3) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    };
                    let merged = l
                        .with_timeout_ms(l.timeout_ms().min(old.0))
                        .and_then(|m| m.with_max_tool_calls(l.max_tool_calls().min(old.1)))
                        .and_then(|m| m.with_max_output_bytes(l.max_output_bytes().min(old.2)))
                        .and_then(|m| m.with_max_memory_bytes(memory));
                    match merged {
                        Ok(m) if m != l => {
                            let mut i = (*inner).clone();
                            i.limits = m;
                            Arc::new(i)
                        }
                        Ok(_) => inner,
                        Err(_) => {
                            let d = crate::durable::refused("it is damaged");
                            return (ExecutionResult::failure(d), true);
                        }
                    }
                }
                None => inner,
            };
            // A refusal after the snapshot decoded keeps its record and logs as the paused
            // Result showed them: the calls that ran, without the pending ones.
            let pending_at: Vec<usize> = host.pending.iter().map(|(_, i)| *i).collect();
            let refuse = |host: crate::durable::HostState, why: std::fmt::Arguments<'_>| {
                let mut r = ExecutionResult::failure(crate::durable::refused(why));
                r.tool_calls = host
                    .tool_calls
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| !pending_at.contains(i))
                    .map(|(_, c)| c)
                    .collect();
                r.logs = host.logs;
                (r, true)
            };
            let mut seen = std::collections::HashSet::new();
            if let Some((id, _)) = replies.iter().find(|(id, _)| !seen.insert(*id)) {
                return refuse(
                    host,
                    format_args!(
                        "two replies were given for call {id}; give exactly one per pending call"
                    ),
                );
            }
            // A reply for an id the run does not wait on is named first: the likelier mistake
            // than a reply left out.
            if let Some((id, _)) = replies
                .iter()
                .find(|(id, _)| !host.pending.iter().any(|(c, _)| c.id == *id))
            {
                let waiting: Vec<String> =
                    host.pending.iter().map(|(c, _)| c.id.to_string()).collect();
                return refuse(
                    host,
                    format_args!(
                        "a reply was given for call {id}, which the execution does not wait on (it waits on {})",
                        waiting.join(", ")
                    ),
                );
            }
            let mut answers = Vec::new();
            let mut settled = Vec::new();
            let mut run = Vec::new();
            let mut replies = replies;
            for (call, index) in std::mem::take(&mut host.pending) {
                let Some(at) = replies.iter().position(|r| r.0 == call.id) else {
                    return refuse(
                        host,
                        format_args!(
                            "no reply was given for pending call {} ({}); give one per pending call",
                            call.id, call.name
                        ),
                    );
                };
                let (id, reply) = replies.swap_remove(at);
                let id = codemode_guest::CallId(id);
                let kind = codemode_guest::ErrorKind::ToolFailure;
                match reply {
                    crate::Reply::Run => run.push((id, call.name, call.input, index)),
                    crate::Reply::Value(v) => {
                        // A host's answer meets the tool's output schema, as the tool's would.
                        let checked = crate::limits::check_tool_output(&v).and_then(|()| {
                            inner
                                .tree
                                .get(&call.name)
                                .and_then(|e| e.output.as_ref())
                                .map_or(Ok(()), |out| out.validate_output(&v))
                        });
                        if let Err(msg) = checked {
                            return refuse(
                                host,
                                format_args!(
                                    "the reply value for call {} ({}) is not a valid output of that tool: {msg}; reply with a value its output schema accepts, or with an error",
                                    call.id, call.name
                                ),
                            );
                        }
                        settled.push((index, crate::ToolCallStatus::Success));
                        answers.push((id, HostReply::Value(v)));
                    }
                    crate::Reply::Error(m) => {
                        settled.push((index, crate::ToolCallStatus::Failure));
                        answers.push((id, HostReply::error(kind, m, Vec::new())));
                    }
                    crate::Reply::Deny(m) => {
                        settled.push((index, crate::ToolCallStatus::Denied));
                        answers.push((id, HostReply::error(kind, m, Vec::new())));
                    }
                }
            }
            // Every reply named a pending call once (checked above): none is left.
            debug_assert!(replies.is_empty());
            let used = Duration::from_micros(host.elapsed_us);
            let limit = Duration::from_millis(inner.limits.timeout_ms());
            let deadline = started + limit.saturating_sub(used);
            let guest_bytes = decoded.guest;
            let inline_setup = guest_bytes.len() <= INLINE_COMPILE_BYTES;
            let machine_inner = inner.clone();
            // Set when the guest cannot restore its part: a refusal too.
            let unrestorable = Arc::new(std::sync::atomic::AtomicBool::new(false));
            let flag = unrestorable.clone();
            let setup = move || {
                let options = StartOptions {
                    max_memory_bytes: machine_inner.limits.max_memory_bytes_usize(),
                    deadline: Some(deadline.into_std()),
                };
                let mut guest = machine_inner
                    .lang
                    .restore(&guest_bytes, &machine_inner.env, &options)
                    .map_err(|e| {
                        flag.store(true, std::sync::atomic::Ordering::Relaxed);
                        Diagnostic::from(e)
                    })?;
                for (id, reply) in answers {
                    guest.resolve(id, reply);
                }
                Ok(guest)
            };
            let resumed = driver::Resumed { host, settled, run };
            let r =
                driver::drive_from(inner, setup, inline_setup, deadline, &cancel, Some(resumed))
                    .await;
            (r, unrestorable.load(std::sync::atomic::Ordering::Relaxed))
        }
    }

    /// [`CodeMode::resume`] after claiming the snapshot's id in `store`: a snapshot resumed
    /// once through a store is refused the second time ("resumed already"), so an approval
    /// cannot run a call twice. The id is claimed before anything else is checked.
    pub fn resume_once(
        &self,
        store: &dyn crate::SnapshotStore,
        snapshot: &crate::Snapshot,
        replies: Vec<(u64, crate::Reply)>,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        let claim = store.claim(snapshot.id());
        let fut = self.resume(snapshot, replies);
        async move {
            match claim {
                Ok(()) => fut.await,
                Err(m) => ExecutionResult::failure(crate::durable::refused(m)),
            }
        }
    }

    /// Call one tool the way a program would, outside any program: the input is checked against
    /// the tool's schema, the handler runs under `timeout_ms`, the output is checked. Useful for
    /// hosts (and tests) that want the same validation and error messages. Errors: the
    /// diagnostic a program would get (`UnknownTool`, `InvalidToolInput`, `ToolFailure`,
    /// `InvalidToolOutput`, `TimeoutExceeded`).
    pub async fn call_tool(&self, path: &str, input: Value) -> Result<Value, Diagnostic> {
        let deadline = deadline_after(Instant::now(), self.inner.limits.timeout_ms());
        let mut gate = gate::Gate::new(self.inner.clone(), deadline);
        let call = HostCall {
            id: codemode_guest::CallId(1),
            target: HostTarget::Tool(path.to_string()),
            args: vec![input],
            location: None,
            mode: codemode_guest::CallMode::Suspend,
            refused: None,
        };
        let admitted = match gate.admit(call) {
            // The host calls the tool itself: a tool that pauses programs runs here.
            gate::Admission::Pause(p, index) => {
                gate.approved(codemode_guest::CallId(p.id), p.name, p.input, index)
            }
            other => other,
        };
        let reply = match admitted {
            gate::Admission::Reply(_, reply) => reply,
            gate::Admission::Pause(..) => unreachable!("approved calls do not pause"),
            gate::Admission::Job(job) => {
                let done = tokio::time::timeout_at(deadline, job.fut).await;
                match done {
                    Ok(done) => gate.finish(done).1,
                    Err(_) => {
                        gate.interrupt_open().await;
                        return Err(gate.timeout_diagnostic());
                    }
                }
            }
        };
        match reply {
            HostReply::Value(v) => Ok(v),
            HostReply::Error(e) => Err(Diagnostic {
                kind: e.kind.into(),
                message: e.message,
                location: None,
                suggestions: e.suggestions,
            }),
            HostReply::Abort(e) => Err(e.into()),
        }
    }

    /// Globals a program starts with besides extensions (`tools`, `search`, the guest's
    /// standard library and the standard globals its sandbox leaves out): an extension may
    /// not take one. Sorted.
    pub fn reserved_globals(&self) -> Vec<String> {
        self.inner.lang.reserved_globals()
    }
}

/// One-shot: build a runtime from `options` and run `source` (≡ `options.build()?.execute(source)`).
pub async fn execute(options: Options, source: &str) -> Result<ExecutionResult, BuildError> {
    let cm = CodeMode::new(options)?;
    Ok(cm.execute(source).await)
}

fn deadline_after(start: Instant, timeout_ms: u64) -> Instant {
    start
        .checked_add(Duration::from_millis(timeout_ms))
        .unwrap_or_else(|| start + Duration::from_secs(100 * 365 * 24 * 3600))
}

/// Bytes of logs and of tool-call inputs the host keeps during one execution: what
/// `max_output_bytes` can show, at most [`crate::limits::MAX_RETAINED_OUTPUT_BYTES`].
pub(crate) fn retained_bytes(max_output_bytes: u64) -> usize {
    usize::try_from(max_output_bytes.min(crate::limits::MAX_RETAINED_OUTPUT_BYTES))
        .unwrap_or(usize::MAX)
}

#[cfg(test)]
mod computing_tests;
#[cfg(test)]
mod stand_in;
#[cfg(test)]
mod tests;
