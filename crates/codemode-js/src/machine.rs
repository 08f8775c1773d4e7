//! [`Machine`]: one execution of a [`Program`] — a fork of the process-wide standard-library
//! template, run in fuel slices, its end exported under the data rules.

use std::sync::{Arc, OnceLock};

use codemode_guest::{Env, ErrorKind, GuestError, StartOptions, Step};

use crate::Program;
use crate::heap::{Key, Slot};
use crate::limits::{MAX_ERROR_MESSAGE_BYTES, MAX_MEMORY_BYTES};
use crate::value::Value;
use crate::vm::coro::PState;
use crate::vm::{Exit, Throw, Vm};

/// One execution of a [`Program`]. `Send`: plain data throughout.
pub struct Machine {
    pub(crate) vm: Box<Vm>,
    pub(crate) finished: Option<Step>,
    /// The body has ended and the prelude's `exportPrepare` is applying `toJSON` and getters
    /// to its value: whether the body returned explicitly.
    pub(crate) preparing: Option<bool>,
}

/// The standard library, built once per process and cloned into every machine: intrinsics,
/// natives and the prelude's functions (fresh per run: a program that replaces
/// `Array.prototype.map` changes only its own copy).
pub(crate) fn template() -> Result<&'static Vm, GuestError> {
    static TEMPLATE: OnceLock<Result<Vm, String>> = OnceLock::new();
    let t = TEMPLATE.get_or_init(|| {
        let mut vm = Vm::empty(MAX_MEMORY_BYTES, &crate::builtins::NATIVES);
        crate::builtins::setup(&mut vm).map_err(|e| format!("{e:?}"))?;
        let data = crate::compiler::compile_builtin(concat!(
            include_str!("prelude.js"),
            include_str!("prelude/json.js"),
            include_str!("prelude/string.js"),
            include_str!("prelude/regexp.js"),
            include_str!("prelude/promise.js"),
            include_str!("prelude/iterator.js"),
            include_str!("prelude/intl.js")
        ))
        .map_err(|e| format!("{} at {:?}", e.message, e.location))?;
        let p = vm.add_program(Arc::new(data));
        vm.start(p).map_err(|e| format!("{e:?}"))?;
        match vm.run(u32::MAX) {
            Ok(Exit::Done(..)) => {}
            Ok(Exit::Yield | Exit::Idle) => return Err("the prelude did not finish".to_string()),
            Err(Throw::Js(v)) => {
                let m = crate::builtins::inspect(&mut vm, v).unwrap_or_default();
                return Err(format!("the prelude threw {m} at {:?}", vm.throw_at));
            }
            Err(e) => return Err(format!("{e:?}")),
        }
        let k = vm.heap.key("__intrinsics");
        let g = vm.global;
        if let Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(intrinsics)),
            ..
        }) = vm.own(g, k)
        {
            for (name, slot) in [
                ("exportPrepare", 0),
                ("resolveSlow", 1),
                ("thenSlow", 2),
                ("getAsyncIterator", 3),
                ("arrayGeneric", 4),
                ("numberFormatInit", 5),
                ("dateTimeFormatInit", 6),
                ("fillFromIterable", 7),
            ] {
                let e = vm.heap.key(name);
                if let Some(crate::heap::Prop {
                    slot: Slot::Data(Value::Obj(f)),
                    ..
                }) = vm.own(intrinsics, e)
                {
                    match slot {
                        0 => vm.intr.export_prepare = Some(f),
                        1 => vm.intr.resolve_slow = Some(f),
                        2 => vm.intr.then_slow = Some(f),
                        3 => vm.intr.get_async_iterator = Some(f),
                        4 => vm.intr.array_generic = Some(f),
                        5 => vm.intr.intl_number_init = Some(f),
                        6 => vm.intr.intl_date_init = Some(f),
                        _ => vm.intr.fill_from_iterable = Some(f),
                    }
                }
            }
        }
        vm.heap.obj_mut(g).props.remove(k);
        // Every run shares the standard library's strings, objects and atoms, copying only
        // what it changes (`arena.rs`).
        crate::gc::collect(&mut vm);
        vm.freeze_consts().map_err(|e| format!("{e:?}"))?;
        vm.heap.freeze();
        vm.heap.shared_bytes = vm.heap.used;
        vm.fuel_used = 0;
        vm.jobs.clear();
        vm.unhandled.clear();
        vm.slips.clear();
        vm.frames.clear();
        vm.regs.clear();
        vm.throw_at = None;
        vm.logs.clear();
        Ok(vm)
    });
    t.as_ref().map_err(|m| {
        GuestError::new(
            ErrorKind::ExecutionFailure,
            format!("internal error: the standard library failed to load: {m}"),
        )
    })
}

/// The memory cap of a run started with `options`: its limit, at most [`MAX_MEMORY_BYTES`].
pub(crate) fn memory_cap(options: &StartOptions) -> usize {
    options
        .max_memory_bytes
        .map_or(MAX_MEMORY_BYTES, |b| b.min(MAX_MEMORY_BYTES))
}

/// The names of every global a program starts with.
pub fn global_names() -> Vec<String> {
    let Ok(t) = template() else {
        return Vec::new();
    };
    let g = t.heap.obj(t.global);
    g.props
        .list
        .iter()
        .filter_map(|p| match p.key {
            Key::Name(_) => t.heap.key_str(p.key).map(|s| s.to_rust()),
            _ => None,
        })
        .collect()
}

impl Machine {
    /// Prepare an execution of `program`. Errors: the memory cap is below what the standard
    /// library needs.
    pub fn new(
        program: &Program,
        env: &Env,
        options: &StartOptions,
    ) -> Result<Machine, GuestError> {
        let mut vm = Box::new(template()?.clone());
        vm.heap.flattened = Default::default();
        let cap = memory_cap(options);
        vm.heap.cap = cap;
        vm.deadline = options.deadline;
        if vm.heap.used > cap {
            let mib = vm.heap.used.div_ceil(1 << 20);
            return Err(GuestError::new(
                ErrorKind::ExecutionFailure,
                format!(
                    "memory limit exceeded: max_memory_bytes is {cap} bytes, below the {} bytes the JavaScript standard library needs before the program starts; give max_memory_bytes at least {mib} MiB ({} bytes)",
                    vm.heap.used,
                    mib << 20
                ),
            ));
        }
        vm.gc_at = (vm.heap.used + 1).max((cap / 2).min(crate::gc::GC_MIN_BYTES));
        crate::builtins::platform::start(&mut vm, env);
        if let Err(e) = crate::builtins::install_host(&mut vm, env) {
            return Err(uncaught(&mut vm, e));
        }
        let p = vm.add_program(program.data.clone());
        if let Err(e) = vm.start_body(p) {
            return Err(uncaught(&mut vm, e));
        }
        Ok(Machine {
            vm,
            finished: None,
            preparing: None,
        })
    }

    /// A machine restored from a snapshot (`snapshot.rs`), waiting for its host calls.
    pub(crate) fn restored(vm: Box<Vm>, preparing: Option<bool>) -> Machine {
        Machine {
            vm,
            finished: None,
            preparing,
        }
    }

    /// Run at most about `fuel` units; after `Done` or `Error` the same step again. `inline`:
    /// the run is on an async thread (a soft deadline): work proportional to a large value
    /// (a collection, a native over a large argument, importing a large reply, exporting a
    /// large result) is left to the next run (`Yield`), which the host makes on the pool.
    pub fn run_with(&mut self, fuel: u32, inline: bool) -> Step {
        self.vm.inline = inline;
        let step = self.run(fuel);
        self.vm.inline = false;
        step
    }

    /// Run at most about `fuel` units; after `Done` or `Error` the same step again.
    pub fn run(&mut self, fuel: u32) -> Step {
        if let Some(s) = &self.finished {
            return s.clone();
        }
        if self.vm.inline && self.vm.host.replies.iter().any(|(_, r)| !reply_is_small(r)) {
            return Step::Yield;
        }
        if let Err(e) = self.vm.import_replies() {
            let e = uncaught(&mut self.vm, e);
            return self.finish(Step::Error(e));
        }
        if self.vm.host.sync_wait.is_some() {
            return self.waiting();
        }
        let step = match self.vm.run(fuel) {
            Ok(Exit::Yield) => {
                if self.vm.host.sync_wait.is_some() || !self.vm.host.started.is_empty() {
                    return Step::Started;
                }
                return Step::Yield;
            }
            Ok(Exit::Done(v, returned)) => match self.preparing.take() {
                // The value `exportPrepare` made of the body's: export it as it is.
                Some(returned) => match crate::boundary::export(&mut self.vm, v, "result") {
                    Ok(value) => Step::Done { value, returned },
                    Err(mut e) => {
                        e.location = e.location.or(self.vm.body_end_at);
                        Step::Error(e)
                    }
                },
                None => self.export(v, returned),
            },
            Ok(Exit::Idle) => {
                if !self.vm.host.started.is_empty() {
                    // Calls started before the body settled are the host's to list first.
                    return Step::Started;
                }
                let state = self
                    .vm
                    .body_promise()
                    .and_then(|p| self.vm.promise_state(p));
                match state {
                    Some((PState::Fulfilled, v)) => {
                        let returned = self.vm.body_returned;
                        self.export(v, returned)
                    }
                    Some((PState::Rejected, r)) => Step::Error(self.rejection(r)),
                    _ => return self.waiting(),
                }
            }
            Err(e) => Step::Error(uncaught(&mut self.vm, e)),
        };
        if matches!(step, Step::Yield) {
            return step;
        }
        self.finish(step)
    }

    /// The body waits: for calls to be taken, for replies, or for nothing at all.
    fn waiting(&mut self) -> Step {
        if !self.vm.host.started.is_empty() {
            return Step::Started;
        }
        if self.vm.host.sync_wait.is_some() || !self.vm.host.waiting.is_empty() {
            return Step::Blocked;
        }
        let location = self.body_location();
        let e = GuestError {
            kind: ErrorKind::ExecutionFailure,
            message: "The program waits for a promise that can never settle: no tool call is running and no job is queued, so nothing can resolve it (a `new Promise` whose `resolve` is never called, or an `await` of such a promise). Await only tool calls and promises the program settles, then return.".to_string(),
            location,
            suggestions: Vec::new(),
        };
        self.finish(Step::Error(e))
    }

    /// Where the body is suspended.
    fn body_location(&self) -> Option<codemode_guest::Location> {
        let c = self.vm.body?;
        let crate::heap::Kind::Coro(co) = &self.vm.heap.obj(c).kind else {
            return None;
        };
        let f = co.frame.as_ref()?;
        self.vm.frame_location(f)
    }

    fn finish(&mut self, step: Step) -> Step {
        self.finished = Some(step.clone());
        step
    }

    /// Export the body's value, or start `exportPrepare` on it (then `Yield`).
    fn export(&mut self, v: Value, returned: bool) -> Step {
        if self.vm.inline
            && !crate::boundary::is_small(&self.vm, v, crate::limits::INLINE_MAX_ELEMENTS)
        {
            return Step::Yield;
        }
        match crate::boundary::try_export(&mut self.vm, v, "result") {
            Ok(Some(value)) => Step::Done { value, returned },
            Ok(None) => match self.prepare(v) {
                Ok(()) => {
                    self.preparing = Some(returned);
                    Step::Yield
                }
                Err(e) => Step::Error(uncaught(&mut self.vm, e)),
            },
            Err(mut e) => {
                e.location = e.location.or(self.vm.body_end_at);
                Step::Error(e)
            }
        }
    }

    /// The error of a body rejected with `r`: a host error keeps its kind, message and
    /// suggestions; anything else is reported as an uncaught exception where it was thrown.
    fn rejection(&mut self, r: Value) -> GuestError {
        if let Some((e, at)) = self.host_error(r) {
            return GuestError {
                kind: e.kind,
                message: cap_message(e.message),
                location: at,
                suggestions: e.suggestions,
            };
        }
        self.vm.throw_at = self.vm.body_error_at.take();
        uncaught(&mut self.vm, Throw::Js(r))
    }

    /// The host error `r` was made from, and where its call was made.
    fn host_error(
        &self,
        r: Value,
    ) -> Option<(codemode_guest::HostError, Option<codemode_guest::Location>)> {
        let Value::Obj(o) = r else { return None };
        self.vm
            .host
            .errors
            .iter()
            .find(|(x, ..)| *x == o)
            .map(|(_, e, at)| (e.clone(), *at))
    }

    /// The host calls started since the last take, in program order.
    pub fn take_calls(&mut self) -> Vec<codemode_guest::HostCall> {
        std::mem::take(&mut self.vm.host.started)
    }

    /// Answer a started call; imported at the next run.
    pub fn resolve(&mut self, id: codemode_guest::CallId, reply: codemode_guest::HostReply) {
        self.vm.host.replies.push((id, reply));
    }

    /// Warnings for the result: rejections nothing observed, in promise creation order (only
    /// once the run succeeded).
    pub fn take_warnings(&mut self) -> Vec<codemode_guest::Warning> {
        if !matches!(self.finished, Some(Step::Done { .. })) {
            return Vec::new();
        }
        let body = self.vm.body_promise();
        let slips: Vec<codemode_guest::Warning> = std::mem::take(&mut self.vm.slips)
            .into_iter()
            .map(|(message, location)| codemode_guest::Warning {
                kind: codemode_guest::DiagnosticKind::LikelyMistake,
                message,
                location,
            })
            .collect();
        let mut list: Vec<(u64, crate::value::ObjId, Value)> = Vec::new();
        for p in std::mem::take(&mut self.vm.unhandled) {
            if Some(p) == body {
                continue;
            }
            if let crate::heap::Kind::Promise(s) = &self.vm.heap.obj(p).kind
                && s.state == PState::Rejected
                && !s.handled
            {
                list.push((s.serial, p, s.result));
            }
        }
        list.sort_by_key(|(serial, ..)| *serial);
        list.dedup_by_key(|(serial, ..)| *serial);
        let mut out = slips;
        for (_, _, r) in list {
            let (kind, message, location) = match self.host_error(r) {
                Some((e, at)) => (e.kind, e.message, at),
                None => {
                    let g = uncaught(&mut self.vm, Throw::Js(r));
                    // Where it was thrown is not kept once the run has moved on.
                    (ErrorKind::ExecutionFailure, g.message, None)
                }
            };
            out.push(codemode_guest::Warning {
                kind: kind.into(),
                message: cap_message(format!(
                    "Unhandled rejection from an un-awaited promise: {message}. Await the promise (or attach .catch) so its failure is handled."
                )),
                location,
            });
        }
        out
    }

    /// Where the program is now: the instruction it runs next; while it waits with no frame
    /// running, the oldest tool call still in flight, else where the body is suspended.
    pub fn location(&self) -> Option<codemode_guest::Location> {
        self.vm
            .location()
            .or_else(|| self.vm.host.waiting.values().next().and_then(|(_, at)| *at))
            .or_else(|| self.body_location())
    }

    /// The result holds a `toJSON` method or a getter (which run user code): start the
    /// prelude's `exportPrepare` on it in the dispatch loop (metered like the program); its
    /// value is then exported instead.
    fn prepare(&mut self, v: Value) -> Result<(), Throw> {
        let f = self.vm.intr.export_prepare.ok_or_else(|| {
            Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: the standard library has no exportPrepare",
            ))
        })?;
        let depth = Value::Num(crate::limits::MAX_DATA_DEPTH as f64);
        self.vm.call_with(
            Value::Obj(f),
            Value::Undefined,
            vec![v, depth],
            None,
            None,
            crate::vm::coro::Finish::Done,
        )?;
        Ok(())
    }

    /// Log lines since the last take.
    pub fn take_logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.vm.logs)
    }

    /// Bytes charged so far.
    /// Bytes this run holds of its own: what it charged beyond the standard library it shares
    /// with every run (the memory cap counts both).
    pub fn memory_used(&self) -> usize {
        self.vm.heap.used.saturating_sub(self.vm.heap.shared_bytes)
    }

    /// Collect now (the tests' way to see what the collector's recount charges).
    #[cfg(test)]
    pub(crate) fn collect(&mut self) {
        crate::gc::collect(&mut self.vm);
    }

    /// Lower the total fuel this execution may use (default and maximum:
    /// [`crate::limits::MAX_TOTAL_FUEL`]); past it the run ends with the uncatchable
    /// ExecutionFailure "instruction limit exceeded".
    pub fn set_fuel_limit(&mut self, max: u64) {
        self.vm.fuel_cap = max.min(crate::limits::MAX_TOTAL_FUEL);
    }

    /// Fuel used so far.
    pub fn fuel_used(&self) -> u64 {
        self.vm.fuel_used
    }
}

/// An uncaught exception as the run's error: `Name: message` for errors, `Uncaught: …` for
/// other values, located where it was thrown.
fn uncaught(vm: &mut Vm, e: Throw) -> GuestError {
    let v = match e {
        Throw::Fatal(g) => return g,
        Throw::Js(v) => v,
        Throw::Convert(..) | Throw::Suspend => {
            return GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: a conversion escaped its instruction",
            );
        }
    };
    let location = vm.throw_at.or_else(|| vm.location());
    let message = match v {
        Value::Obj(o) if crate::builtins::is_error(vm, o) => {
            match crate::builtins::object_to_string(vm, v).and_then(|s| vm.to_rust_string(s)) {
                Ok(s) => s,
                Err(_) => "Error".to_string(),
            }
        }
        Value::Str(s) => format!("Uncaught: {}", vm.heap.str(s).to_rust()),
        other => match crate::builtins::inspect(vm, other) {
            Ok(s) => format!("Uncaught: {s}"),
            Err(_) => "Uncaught: a non-data value".to_string(),
        },
    };
    let (message, suggestions) = match vm.hint.take() {
        Some((e, hint, suggestions)) if e == v => (format!("{message}. {hint}"), suggestions),
        _ => (message, Vec::new()),
    };
    GuestError {
        kind: ErrorKind::ExecutionFailure,
        message: cap_message(message),
        location,
        suggestions,
    }
}

/// A reply cheap to import inline: its JSON has at most
/// [`crate::limits::INLINE_MAX_ELEMENTS`] values and strings that short.
fn reply_is_small(r: &codemode_guest::HostReply) -> bool {
    let codemode_guest::HostReply::Value(v) = r else {
        return true;
    };
    let mut left = crate::limits::INLINE_MAX_ELEMENTS;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        let Some(l) = left.checked_sub(1) else {
            return false;
        };
        left = l;
        match v {
            serde_json::Value::String(s) if s.len() > crate::limits::INLINE_MAX_ELEMENTS => {
                return false;
            }
            serde_json::Value::Array(a) => stack.extend(a.iter()),
            serde_json::Value::Object(m) => stack.extend(m.values()),
            _ => {}
        }
    }
    true
}

fn cap_message(mut m: String) -> String {
    let total = m.len();
    if total <= MAX_ERROR_MESSAGE_BYTES {
        return m;
    }
    let mut cut = MAX_ERROR_MESSAGE_BYTES;
    while !m.is_char_boundary(cut) {
        cut -= 1;
    }
    m.truncate(cut);
    m.push_str(&format!(" ... [error message truncated: {total} bytes]"));
    m
}

#[allow(dead_code)]
fn unused(_: Slot) {}
