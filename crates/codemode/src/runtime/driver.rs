//! The execution loop (see the module docs of [`super`], "Driver"): runs the guest in inline
//! stretches and blocking-pool segments, admits the calls it starts through the [`Gate`],
//! keeps up to [`MAX_CONCURRENT_HOST_CALLS`] of them running (the rest queued, first in first
//! out), hands their replies back by id, and builds the [`ExecutionResult`].

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use codemode_guest::{Budget, CallId, CallMode, Guest, HostCall, HostReply, Step};
use futures::StreamExt;
use futures::future::BoxFuture;
use futures::stream::FuturesUnordered;
use serde_json::Value;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::gate::{Admission, CallJob, Finished, Gate};
use super::{
    BACKSTOP_MARGIN, INITIAL_SLICE, INLINE_BUDGET, INLINE_SLICE, Inner, MAX_CONCURRENT_HOST_CALLS,
    MAX_SLICE, MIN_SLICE, NO_RETURN_WARNING, TARGET_SLICE, cancelled, retained_bytes,
};
use crate::result::{Diagnostic, DiagnosticKind, ExecutionResult};

/// The guest between runs, with its adaptive slice size. Boxed while it travels between the
/// driver and the blocking pool, so a hand-off moves one pointer.
pub(crate) struct Worker {
    guest: Box<dyn Guest>,
    slice: u32,
}

/// How one segment (one `spawn_blocking`) or inline stretch of guest work ended.
enum Report {
    /// Compiling or building the guest failed.
    Failed(Diagnostic),
    /// The guest started calls (taken from it) or is blocked: it comes back with them.
    Paused {
        calls: Vec<HostCall>,
        blocked: bool,
        worker: Box<Worker>,
    },
    /// `Done` or `Error`; the guest was dropped on the blocking pool ([`dispose`]).
    Finished(Step),
    /// The deadline passed between two slices; the guest was dropped on the blocking pool.
    /// Where the program was then, if the guest says.
    TimedOut(Option<codemode_guest::Location>),
    /// The driver was gone at a slice boundary (nobody reads this report).
    Abandoned,
}

/// State shared between the driver and the running segment of one execution.
struct Shared {
    logs: Mutex<LogSink>,
    warnings: Mutex<Vec<Diagnostic>>,
    /// Set when the driver stops waiting (it returned, or its future was dropped): a segment
    /// still running stops at its next slice boundary.
    abandoned: AtomicBool,
    /// Where the program was after the last run of the guest (`Guest::location`): locates a
    /// timeout the driver notices without the guest at hand (the backstop, a wait).
    at: Mutex<Option<codemode_guest::Location>>,
}

/// Warnings kept from a guest per execution; later ones are dropped.
const MAX_GUEST_WARNINGS: usize = 16;

impl Shared {
    fn collect(&self, guest: &mut dyn Guest) {
        *self.at.lock().unwrap_or_else(|e| e.into_inner()) = guest.location();
        let lines = guest.take_logs();
        if !lines.is_empty() {
            self.logs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(lines);
        }
        let warnings = guest.take_warnings();
        if !warnings.is_empty() {
            let mut kept = self.warnings.lock().unwrap_or_else(|e| e.into_inner());
            for w in warnings {
                if kept.len() < MAX_GUEST_WARNINGS {
                    let mut d = Diagnostic::new(w.kind, w.message);
                    d.location = w.location;
                    kept.push(d);
                }
            }
        }
    }
}

/// Log lines taken from the guest after every run, kept host-side so they survive a backstop
/// timeout. Holds the leading lines that fit `budget` bytes (each line costs its length + 1, as
/// in [`ExecutionResult::truncate`]); later lines are only counted, so a program printing in a
/// loop cannot grow host memory.
struct LogSink {
    lines: Vec<String>,
    bytes: usize,
    budget: usize,
    /// Lines not kept (everything after the first line that did not fit).
    dropped: usize,
}

impl LogSink {
    fn new(budget: usize) -> Self {
        LogSink {
            lines: Vec::new(),
            bytes: 0,
            budget,
            dropped: 0,
        }
    }

    fn extend(&mut self, lines: Vec<String>) {
        for line in lines {
            let cost = line.len().saturating_add(1);
            if self.dropped == 0 && self.bytes.saturating_add(cost) <= self.budget {
                self.bytes += cost;
                self.lines.push(line);
            } else {
                self.dropped += 1;
            }
        }
    }
}

/// Marks the execution abandoned when the driver ends or its future is dropped.
struct AbandonOnDrop(Arc<Shared>);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.abandoned.store(true, Ordering::Relaxed);
    }
}

/// A guest parked while the driver waits for its calls. If the driver ends before running it
/// again (deadline, cancellation, a dropped `execute` future), the guest is dropped on the
/// blocking pool, like every other guest: freeing a large heap is guest work.
struct Parked(Option<Box<Worker>>);

impl Parked {
    fn take(mut self) -> Box<Worker> {
        self.0.take().expect("a parked guest is taken once")
    }
}

impl Drop for Parked {
    fn drop(&mut self) {
        if let Some(w) = self.0.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => drop(handle.spawn_blocking(move || drop(w))),
                Err(_) => drop(w),
            }
        }
    }
}

/// A finished guest holding more than this many bytes is dropped by a blocking task of its own,
/// so freeing its heap does not delay the segment's report; a smaller one is dropped inline
/// (cheaper than the hand-off).
pub(super) const DROP_ASIDE_BYTES: usize = 64 * 1024;

/// Drops a finished guest on the blocking pool (called on a segment's thread).
fn dispose(w: Box<Worker>) {
    if w.guest.memory_used() > DROP_ASIDE_BYTES
        && let Ok(handle) = tokio::runtime::Handle::try_current()
    {
        drop(handle.spawn_blocking(move || drop(w)));
    }
}

/// What a run's step means for the driver, shared by segments and stretches.
fn paused_or_finished(step: Step, mut w: Box<Worker>) -> Report {
    match step {
        Step::Started => {
            let calls = w.guest.take_calls();
            Report::Paused {
                calls,
                blocked: false,
                worker: w,
            }
        }
        Step::Blocked => Report::Paused {
            calls: Vec::new(),
            blocked: true,
            worker: w,
        },
        done_or_error => {
            dispose(w);
            Report::Finished(done_or_error)
        }
    }
}

/// One segment of guest work, on a blocking-pool thread: runs slices until the guest starts a
/// call, blocks, finishes, or must stop. Logs are moved to `shared` after every slice. The
/// guest comes back only when paused; otherwise it is dropped on the blocking pool.
fn run_segment(mut w: Box<Worker>, deadline: std::time::Instant, shared: &Shared) -> Report {
    loop {
        let t0 = std::time::Instant::now();
        let step = w.guest.run(Budget {
            fuel: w.slice,
            soft_deadline: None,
        });
        let took = t0.elapsed();
        shared.collect(&mut *w.guest);
        match step {
            Step::Yield => {
                w.slice = adapt_slice(w.slice, took);
                if shared.abandoned.load(Ordering::Relaxed) {
                    dispose(w);
                    return Report::Abandoned;
                }
                if std::time::Instant::now() >= deadline {
                    let at = w.guest.location();
                    dispose(w);
                    return Report::TimedOut(at);
                }
            }
            step => return paused_or_finished(step, w),
        }
    }
}

/// Longest inline stretch (including an inline compile) since the last
/// [`take_longest_inline_stretch`], in ns, process-wide.
static LONGEST_INLINE_STRETCH_NS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

fn record_stretch(took: Duration) {
    let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
    LONGEST_INLINE_STRETCH_NS.fetch_max(ns, Ordering::Relaxed);
}

/// The longest inline stretch (guest work run on the async runtime's thread, see the module
/// docs) of any execution in this process since the previous call, which it resets. For tests
/// and benchmarks that check how long guest work may hold the runtime's thread.
#[doc(hidden)]
pub fn take_longest_inline_stretch() -> Duration {
    Duration::from_nanos(LONGEST_INLINE_STRETCH_NS.swap(0, Ordering::Relaxed))
}

/// How an inline stretch ended.
enum Stretch {
    /// Like the segment reports of the same names.
    Report(Report),
    /// The stretch is over but the guest is not: continue on the blocking pool.
    Pool(Box<Worker>),
}

/// One inline stretch (see the module docs): one run of a restartable guest with a soft
/// deadline [`INLINE_BUDGET`] away, directly on the caller's thread.
fn run_inline(mut w: Box<Worker>, deadline: std::time::Instant, shared: &Shared) -> Stretch {
    let start = std::time::Instant::now();
    let step = w.guest.run(Budget {
        fuel: INLINE_SLICE,
        soft_deadline: Some(start + INLINE_BUDGET),
    });
    shared.collect(&mut *w.guest);
    record_stretch(start.elapsed());
    match step {
        Step::Yield if std::time::Instant::now() >= deadline => {
            let at = w.guest.location();
            dispose(w);
            Stretch::Report(Report::TimedOut(at))
        }
        Step::Yield => Stretch::Pool(w),
        step => Stretch::Report(paused_or_finished(step, w)),
    }
}

/// The diagnostic for a segment that panicked or was cancelled by a runtime shutdown.
fn internal_failure(e: tokio::task::JoinError) -> Diagnostic {
    let what = if e.is_panic() {
        "the interpreter panicked"
    } else {
        "the interpreter stopped unexpectedly"
    };
    Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        format!(
            "Internal error: {what}. This is a bug in codemode, not in your program; run it again, and report it if it repeats."
        ),
    )
}

/// A blocked guest with no call running or queued can never continue.
fn blocked_diagnostic() -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        "The program is waiting for a host call, but no call is running or queued, so it can never continue. Wait only for results of tool calls the program started, then return.",
    )
}

/// The calls admitted and not finished: up to [`MAX_CONCURRENT_HOST_CALLS`] running, the rest
/// queued in admission order.
struct InFlight {
    running: FuturesUnordered<BoxFuture<'static, Finished>>,
    queued: VecDeque<CallJob>,
    /// Most calls running at once in this execution (for tests).
    most: usize,
}

impl InFlight {
    fn start(&mut self, job: CallJob) {
        if self.running.len() < MAX_CONCURRENT_HOST_CALLS {
            self.running.push(job.fut);
            self.most = self.most.max(self.running.len());
        } else {
            self.queued.push_back(job);
        }
    }

    /// Starts queued calls, first in first out, while slots are free.
    fn refill(&mut self) {
        while self.running.len() < MAX_CONCURRENT_HOST_CALLS
            && let Some(job) = self.queued.pop_front()
        {
            self.running.push(job.fut);
            self.most = self.most.max(self.running.len());
        }
    }

    fn is_empty(&self) -> bool {
        self.running.is_empty() && self.queued.is_empty()
    }
}

/// Most host calls any execution in this process had running at once since the last call,
/// which resets it. For tests of [`MAX_CONCURRENT_HOST_CALLS`].
static MOST_RUNNING_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Most host calls running at once in one execution, since the previous call (for tests).
#[doc(hidden)]
pub fn take_most_running_calls() -> usize {
    MOST_RUNNING_CALLS.swap(0, Ordering::Relaxed)
}

/// The execution loop (see the module docs, "Driver"): each segment of guest work runs on the
/// blocking pool while this future awaits it under the cancellation token and the backstop
/// (`deadline` + [`BACKSTOP_MARGIN`]), whichever comes first; calls the guest starts are
/// admitted here in program order and run as futures polled by this one, with no thread held.
pub(crate) async fn drive<S>(
    inner: Arc<Inner>,
    setup: S,
    inline_setup: bool,
    deadline: Instant,
    cancel: &CancellationToken,
) -> ExecutionResult
where
    S: FnOnce() -> Result<Box<dyn Guest>, Diagnostic> + Send + 'static,
{
    drive_from(inner, setup, inline_setup, deadline, cancel, None).await
}

/// What a resumed execution starts from (see [`crate::durable`]): the host's state at the
/// pause, and the host's answers to the pending calls (those answered with a value, an error
/// or a denial were handed to the guest by the setup already; `run` are the approved ones).
pub(crate) struct Resumed {
    pub(crate) host: crate::durable::HostState,
    /// Final statuses of the answered calls' `toolCalls` entries, by index.
    pub(crate) settled: Vec<(usize, crate::result::ToolCallStatus)>,
    /// Approved calls: id, path, input, index of their entry.
    pub(crate) run: Vec<(CallId, String, Value, usize)>,
}

/// [`drive`], from the start or from a snapshot's state (`resumed`).
pub(crate) async fn drive_from<S>(
    inner: Arc<Inner>,
    setup: S,
    inline_setup: bool,
    deadline: Instant,
    cancel: &CancellationToken,
    resumed: Option<Resumed>,
) -> ExecutionResult
where
    S: FnOnce() -> Result<Box<dyn Guest>, Diagnostic> + Send + 'static,
{
    let run_start = Instant::now();
    /// What runs the guest next.
    enum Next {
        /// An inline stretch (restartable guests).
        Inline(Box<Worker>),
        /// Work for the blocking pool, waiting for a computing slot
        /// (`Options::max_computing_executions`) under the deadline and the token.
        Queued(Segment),
        /// A segment on the blocking pool, awaited under the backstop.
        Pool(tokio::task::JoinHandle<Report>),
        /// The guest is blocked: wait for a call to finish, then run it again.
        Wait(Parked),
    }
    /// A segment not started yet.
    enum Segment {
        /// The first one: compile the program, build the guest, run it.
        Setup(Box<dyn FnOnce() -> Report + Send>),
        /// Continue a guest (dropped on the blocking pool if it never runs again).
        Resume(Parked),
    }

    let max_output_bytes = inner.limits.max_output_bytes();
    let mut gate = Gate::new(inner.clone(), deadline);
    let mut warnings = Vec::new();
    let shared = Arc::new(Shared {
        logs: Mutex::new(LogSink::new(retained_bytes(max_output_bytes))),
        warnings: Mutex::new(Vec::new()),
        abandoned: AtomicBool::new(false),
        at: Mutex::new(None),
    });
    let _abandon = AbandonOnDrop(shared.clone());
    // Calls held for the host (`Options::pause_on`), with their `toolCalls` index.
    let mut pauses: Vec<(crate::durable::PendingCall, usize)> = Vec::new();
    // Set when the execution pauses: the guest, to snapshot.
    let mut paused_worker: Option<Box<Worker>> = None;
    let mut elapsed_before = Duration::ZERO;
    let mut approved = Vec::new();
    if let Some(r) = resumed {
        let host = r.host;
        gate.restore(
            (host.attempts, host.input_budget, host.inputs_cut),
            host.tool_calls,
        );
        for (index, status) in r.settled {
            gate.settle(index, status);
        }
        {
            let mut sink = shared.logs.lock().unwrap_or_else(|e| e.into_inner());
            sink.lines = host.logs;
            sink.bytes = host.log_bytes;
            sink.dropped = host.logs_dropped;
        }
        *shared.warnings.lock().unwrap_or_else(|e| e.into_inner()) = host.warnings;
        elapsed_before = Duration::from_micros(host.elapsed_us);
        approved = r.run;
    }
    let backstop = tokio::time::sleep_until(deadline + BACKSTOP_MARGIN);
    tokio::pin!(backstop);
    let timer = tokio::time::sleep_until(deadline);
    tokio::pin!(timer);
    let std_deadline = deadline.into_std();
    let pool = |w: Box<Worker>| Next::Queued(Segment::Resume(Parked(Some(w))));
    // Start a segment on the blocking pool; it holds its computing slot until it ends.
    let spawn = |segment: Segment, slot: tokio::sync::OwnedSemaphorePermit| {
        let segment_shared = shared.clone();
        tokio::task::spawn_blocking(move || {
            let _slot = slot;
            match segment {
                Segment::Setup(setup) => setup(),
                Segment::Resume(parked) => {
                    run_segment(parked.take(), std_deadline, &segment_shared)
                }
            }
        })
    };
    // Restartable guests continue inline, after spending tokio's cooperative budget (tools
    // that answer at once never make this future wait otherwise); the others on the pool.
    let resume = |w: Box<Worker>| {
        if w.guest.restartable() {
            Next::Inline(w)
        } else {
            pool(w)
        }
    };
    let worker = |guest| {
        Box::new(Worker {
            guest,
            slice: INITIAL_SLICE,
        })
    };
    let mut next = if inline_setup {
        // A short program is compiled in the first inline stretch.
        let start = std::time::Instant::now();
        let guest = setup();
        record_stretch(start.elapsed());
        match guest {
            Ok(guest) => resume(worker(guest)),
            Err(d) => Next::Pool(tokio::spawn(async move { Report::Failed(d) })),
        }
    } else {
        // Longer ones are compiled in the first segment, so the backstop covers compiling and
        // building the guest too.
        let segment_shared = shared.clone();
        Next::Queued(Segment::Setup(Box::new(move || match setup() {
            Ok(guest) => run_segment(worker(guest), std_deadline, &segment_shared),
            Err(d) => Report::Failed(d),
        })))
    };
    let mut flight = InFlight {
        running: FuturesUnordered::new(),
        queued: VecDeque::new(),
        most: 0,
    };
    // Replies not yet handed to the guest, in the order they came.
    let mut ready: Vec<(CallId, HostReply)> = Vec::new();
    // Calls approved on resume run first.
    for (id, path, input, index) in approved {
        match gate.approved(id, path, input, index) {
            Admission::Reply(id, reply) => ready.push((id, reply)),
            Admission::Job(job) => flight.start(job),
            Admission::Pause(..) => {}
        }
    }
    let stop_reason = |gate: &Gate| {
        if cancel.is_cancelled() {
            Some(cancelled())
        } else if Instant::now() >= deadline {
            Some(gate.timeout_diagnostic())
        } else {
            None
        }
    };
    let outcome: Result<Value, Diagnostic> = loop {
        let report = match next {
            Next::Inline(w) => {
                if let Some(mut d) = stop_reason(&gate) {
                    if d.kind == DiagnosticKind::TimeoutExceeded && d.location.is_none() {
                        d.location = w.guest.location();
                    }
                    drop(Parked(Some(w)));
                    break Err(d);
                }
                match run_inline(w, std_deadline, &shared) {
                    Stretch::Report(report) => report,
                    Stretch::Pool(w) => {
                        next = pool(w);
                        continue;
                    }
                }
            }
            Next::Queued(segment) => {
                let slot = match inner.computing.clone().try_acquire_owned() {
                    Ok(slot) => slot,
                    Err(_) => {
                        // Every slot is taken: wait for one under the deadline and the token
                        // (the guest is not running, so the deadline itself, not the backstop);
                        // calls in flight go on meanwhile.
                        let acquire = inner.computing.clone().acquire_owned();
                        tokio::pin!(acquire);
                        let r = loop {
                            tokio::select! {
                                biased;
                                _ = cancel.cancelled() => break Err(cancelled()),
                                slot = &mut acquire => break Ok(slot),
                                Some(done) = flight.running.next(), if !flight.running.is_empty() => {
                                    ready.push(gate.finish(done));
                                    flight.refill();
                                }
                                _ = timer.as_mut() => break Err(gate.timeout_diagnostic()),
                            }
                        };
                        match r {
                            Ok(Ok(slot)) => slot,
                            // The semaphore is never closed.
                            Ok(Err(_)) => {
                                break Err(Diagnostic::new(
                                    DiagnosticKind::ExecutionFailure,
                                    "Internal error: the runtime's computing slots were closed. This is a bug in codemode, not in your program; run it again, and report it if it repeats.",
                                ));
                            }
                            Err(d) => break Err(d),
                        }
                    }
                };
                next = Next::Pool(spawn(segment, slot));
                continue;
            }
            // Dropping `segment` (when this loop breaks or the future is dropped) detaches a
            // running segment: it stops at its next slice boundary (`abandoned`, or the
            // deadline the guest checks itself) and drops the guest on its own thread.
            // Nothing waits for it. Calls in flight go on meanwhile.
            Next::Pool(mut segment) => {
                let r = loop {
                    tokio::select! {
                        biased;
                        _ = cancel.cancelled() => break Err(cancelled()),
                        r = &mut segment => break match r {
                            Ok(report) => Ok(report),
                            Err(e) => Err(internal_failure(e)),
                        },
                        Some(done) = flight.running.next(), if !flight.running.is_empty() => {
                            ready.push(gate.finish(done));
                            flight.refill();
                        }
                        _ = backstop.as_mut() => break Err(gate.timeout_diagnostic()),
                    }
                };
                match r {
                    Ok(report) => report,
                    Err(d) => break Err(d),
                }
            }
            Next::Wait(parked) => {
                if ready.is_empty() {
                    if flight.is_empty() {
                        if !pauses.is_empty() {
                            paused_worker = Some(parked.take());
                            break Ok(Value::Null);
                        }
                        break Err(blocked_diagnostic());
                    }
                    tokio::select! {
                        biased;
                        _ = cancel.cancelled() => break Err(cancelled()),
                        Some(done) = flight.running.next() => {
                            ready.push(gate.finish(done));
                            flight.refill();
                        }
                        _ = timer.as_mut() => break Err(gate.timeout_diagnostic()),
                    }
                }
                let mut w = parked.take();
                for (id, reply) in ready.drain(..) {
                    w.guest.resolve(id, reply);
                }
                if w.guest.restartable() {
                    tokio::task::coop::consume_budget().await;
                }
                next = resume(w);
                continue;
            }
        };
        match report {
            Report::Failed(d) => break Err(d),
            Report::Finished(Step::Done { value, returned }) => {
                if !returned {
                    warnings.push(Diagnostic::new(DiagnosticKind::NoReturn, NO_RETURN_WARNING));
                }
                break Ok(value);
            }
            Report::Finished(Step::Error(e)) => break Err(gate.diagnostic(e)),
            Report::TimedOut(at) => {
                let mut d = stop_reason(&gate).unwrap_or_else(|| gate.timeout_diagnostic());
                if d.kind == DiagnosticKind::TimeoutExceeded && d.location.is_none() {
                    d.location = at;
                }
                break Err(d);
            }
            Report::Finished(_) | Report::Abandoned => {
                break Err(stop_reason(&gate).unwrap_or_else(|| gate.timeout_diagnostic()));
            }
            Report::Paused {
                calls,
                blocked,
                worker,
            } => {
                let parked = Parked(Some(worker));
                if let Some(d) = stop_reason(&gate) {
                    break Err(d);
                }
                // Admission in program order; a call the program waits for makes it wait.
                let mut waits = blocked;
                let alone = calls.len() == 1 && flight.is_empty();
                for call in calls {
                    waits |= call.mode == CallMode::Suspend;
                    match gate.admit(call) {
                        Admission::Reply(id, reply) => ready.push((id, reply)),
                        Admission::Pause(call, index) => pauses.push((call, index)),
                        Admission::Job(mut job) => {
                            // The common case, one call and nothing else in flight, and a tool
                            // that answers at once: poll it here first, so it never enters the
                            // set of calls in flight or the wait below.
                            if alone && let Poll::Ready(done) = futures::poll!(&mut job.fut) {
                                ready.push(gate.finish(done));
                            } else {
                                flight.start(job);
                            }
                        }
                    }
                }
                if waits && ready.is_empty() {
                    next = Next::Wait(parked);
                } else {
                    let mut w = parked.take();
                    for (id, reply) in ready.drain(..) {
                        w.guest.resolve(id, reply);
                    }
                    next = resume(w);
                }
            }
        }
    };
    if let Some(w) = paused_worker {
        let elapsed = elapsed_before + run_start.elapsed();
        return pause(&inner, gate, &shared, w, pauses, elapsed).await;
    }
    let outcome = outcome.map_err(|mut d| {
        if d.kind == DiagnosticKind::TimeoutExceeded && d.location.is_none() {
            d.location = *shared.at.lock().unwrap_or_else(|e| e.into_inner());
        }
        d
    });
    MOST_RUNNING_CALLS.fetch_max(flight.most, Ordering::Relaxed);
    // Every call still running or queued ends `interrupted` and gets its `after` hook.
    drop(flight);
    let late = gate.interrupt_open().await;
    if late && outcome.is_ok() {
        // The program had returned; only the cleanup of its unfinished calls was slow.
        warnings.insert(
            0,
            Diagnostic::new(DiagnosticKind::TimeoutExceeded, LATE_CLEANUP_WARNING),
        );
    }
    warnings.extend(std::mem::take(
        &mut *shared.warnings.lock().unwrap_or_else(|e| e.into_inner()),
    ));
    let (logs, dropped) = {
        let mut sink = shared.logs.lock().unwrap_or_else(|e| e.into_inner());
        (std::mem::take(&mut sink.lines), sink.dropped)
    };
    let mut result = ExecutionResult {
        outcome,
        warnings,
        logs,
        truncated: gate.inputs_cut,
        tool_calls: std::mem::take(&mut gate.tool_calls),
        paused: None,
    };
    let small = match &result.outcome {
        Ok(v) => json_within(v, FINISH_INLINE_BYTES),
        Err(_) => true,
    };
    if small {
        result.truncate_with_dropped_logs(max_output_bytes, dropped);
        return result;
    }
    // Measuring and cutting a large value (up to 64 MiB of JSON) is long work: not on the
    // async runtime's thread.
    match tokio::task::spawn_blocking(move || {
        result.truncate_with_dropped_logs(max_output_bytes, dropped);
        result
    })
    .await
    {
        Ok(result) => result,
        Err(e) => ExecutionResult::failure(internal_failure(e)),
    }
}

/// The paused result (see [`crate::durable`]): the guest's snapshot (taken on the blocking
/// pool: it is as large as the heap) with the host's state, or the failure to take one.
async fn pause(
    inner: &Arc<Inner>,
    gate: Gate,
    shared: &Shared,
    w: Box<Worker>,
    pauses: Vec<(crate::durable::PendingCall, usize)>,
    elapsed: Duration,
) -> ExecutionResult {
    let guest = tokio::task::spawn_blocking(move || w.guest.snapshot()).await;
    let (lines, bytes, dropped) = {
        let sink = shared.logs.lock().unwrap_or_else(|e| e.into_inner());
        (sink.lines.clone(), sink.bytes, sink.dropped)
    };
    let warnings = std::mem::take(&mut *shared.warnings.lock().unwrap_or_else(|e| e.into_inner()));
    let (attempts, input_budget, inputs_cut) = gate.counters();
    let held: Vec<usize> = pauses.iter().map(|p| p.1).collect();
    let listed = gate
        .tool_calls
        .iter()
        .enumerate()
        .filter(|(i, _)| !held.contains(i))
        .map(|(_, r)| r.clone())
        .collect();
    let host = crate::durable::HostState {
        attempts,
        tool_calls: gate.tool_calls.clone(),
        input_budget,
        inputs_cut,
        logs: lines.clone(),
        log_bytes: bytes,
        logs_dropped: dropped,
        warnings,
        elapsed_us: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
        pending: pauses,
        limits: Some((
            inner.limits.timeout_ms(),
            inner.limits.max_tool_calls(),
            inner.limits.max_output_bytes(),
            inner.limits.max_memory_bytes(),
        )),
    };
    let snapshot = match guest {
        Err(e) => Err(internal_failure(e)),
        Ok(Err(e)) => Err(Diagnostic::from(e)),
        Ok(Ok(bytes)) => crate::durable::encode(
            inner.lang.name(),
            inner.catalog_hash,
            &host,
            bytes,
            inner.snapshot_key.as_deref(),
        ),
    };
    let mut result = ExecutionResult {
        outcome: Err(Diagnostic::new(DiagnosticKind::ExecutionFailure, "")),
        warnings: Vec::new(),
        logs: lines,
        truncated: inputs_cut,
        tool_calls: listed,
        paused: None,
    };
    match snapshot {
        Ok(snapshot) => {
            let names: Vec<&str> = host.pending.iter().map(|p| p.0.name.as_str()).collect();
            result.outcome = Err(Diagnostic::new(
                DiagnosticKind::ExecutionFailure,
                format!(
                    "The execution is paused at {}, waiting for the host's approval; the host resumes it with CodeMode::resume.",
                    names.join(", ")
                ),
            ));
            result.paused = Some(Box::new(crate::durable::Paused {
                pending: host.pending.into_iter().map(|p| p.0).collect(),
                snapshot,
            }));
        }
        Err(d) => {
            result.outcome = Err(d);
            result.tool_calls = gate.tool_calls;
        }
    }
    result.truncate_with_dropped_logs(inner.limits.max_output_bytes(), dropped);
    result
}

/// The warning of a result whose unfinished calls' cleanup (their `after` hooks) ran past the
/// deadline: the value stands.
const LATE_CLEANUP_WARNING: &str = "The program returned in time, but interrupting the tool calls it left running took past the deadline. Await every call the program starts (or do not start calls it does not need) before returning.";

/// A result value whose JSON may exceed this many bytes is measured and cut
/// ([`ExecutionResult::truncate`]) on the blocking pool instead of the async thread.
const FINISH_INLINE_BYTES: usize = 256 * 1024;

/// Whether the JSON text of `v` certainly fits in `budget` bytes (an estimate from above: string
/// lengths plus a few bytes per item; escapes counted as 6 bytes per byte). Iterative, and it
/// stops as soon as the budget is spent, so it costs at most about `budget` steps.
pub(super) fn json_within(v: &Value, budget: usize) -> bool {
    let mut left = budget as isize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        left -= 8;
        match v {
            Value::String(s) => left -= (s.len() as isize).saturating_mul(6),
            Value::Array(items) => {
                left -= (items.len() as isize).saturating_mul(8);
                if left < 0 {
                    return false;
                }
                stack.extend(items.iter());
            }
            Value::Object(m) => {
                left -= (m.len() as isize).saturating_mul(8);
                if left < 0 {
                    return false;
                }
                for (k, v) in m {
                    left -= (k.len() as isize).saturating_mul(6);
                    stack.push(v);
                }
            }
            _ => left -= 24,
        }
        if left < 0 {
            return false;
        }
    }
    true
}

pub(super) fn adapt_slice(slice: u32, took: Duration) -> u32 {
    if took > TARGET_SLICE * 2 {
        (slice / 2).max(MIN_SLICE)
    } else if took < TARGET_SLICE / 2 {
        slice.saturating_mul(2).min(MAX_SLICE)
    } else {
        slice
    }
}
