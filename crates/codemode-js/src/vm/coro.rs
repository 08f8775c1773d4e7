//! Coroutines, promises and the job queue: generators (ECMA-262 §27.5), async functions
//! (§27.7), promises (§27.2) and their jobs (§9.5), and the host calls behind tool promises.
//!
//! **Suspension** moves a frame off the machine: [`Vm::suspend`] pops the running frame and
//! moves it, with its registers, into its coroutine object; resuming pushes both back on top of
//! the stacks with a pending [`Resumption`], and the suspending instruction (`Await`, `Yield`,
//! `GenStart`) runs again to deliver it. Neither costs Rust stack.
//!
//! **Frames that settle something** carry a [`Finish`]: a coroutine's frame completes its
//! generator or resolves its async function's promise; a reaction job's handler resolves the
//! derived promise; an executor's exception rejects its promise. Unwinding stops at such a frame.
//!
//! **Jobs** ([`Job`]) run first in, first out whenever the frame stack is empty (§9.5 HostEnqueuePromiseJob);
//! with no frame and no job the machine is idle: done, waiting for the host, or stuck.
//!
//! Natives that must run user code in their place (the executor of `new Promise`, a
//! generator's `next`) leave a [`Tail`] for [`Vm::call_with`] to carry out.

use std::collections::{BTreeMap, VecDeque};

use codemode_guest::{CallId, CallMode, HostCall, HostError, HostReply, HostTarget};

use super::*;

/// How a frame's completion is delivered.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Finish {
    /// An ordinary call: the value goes to the caller's register; an exception propagates.
    Normal,
    /// The machine's own call (the prelude's body, the result's preparation): its return ends
    /// the loop with [`Exit::Done`].
    Done,
    /// The frame of a coroutine (generator, async function, async generator).
    Coro(ObjId),
    /// A promise reaction's handler (§27.2.2.1 NewPromiseReactionJob): its value resolves the
    /// capability, its exception rejects it.
    Settle(Cap),
    /// A `new Promise` executor (§27.2.3.1): the caller receives the promise; an exception
    /// rejects it unless it was already resolved.
    Executor { state: ObjId, promise: ObjId },
    /// A thenable's `then` called by a resolve-thenable job (§27.2.2.2): an exception rejects
    /// the promise unless it was already resolved.
    Thenable(ObjId),
}

/// A promise's state (§27.2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum PState {
    Pending,
    Fulfilled,
    Rejected,
}

/// A promise's internal slots.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PromiseSlots {
    pub state: PState,
    /// The value or the reason once settled.
    pub result: Value,
    /// [[PromiseFulfillReactions]] and [[PromiseRejectReactions]] as one list.
    pub reactions: Vec<Reaction>,
    /// [[PromiseIsHandled]]: something observed it (a `then`, an `await`, a combinator).
    pub handled: bool,
    /// Creation order, for the warnings of unobserved rejections.
    pub serial: u64,
}

/// A promise capability (§27.2.1.1) that a reaction settles.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Cap {
    /// None (`await`, internal reactions).
    None,
    /// A native promise made for the reaction: resolved directly.
    Promise(ObjId),
    /// A capability record `{ promise, resolve, reject }` of a subclass constructor.
    Record(ObjId),
    /// An async generator awaiting the value of a `return` request
    /// (§27.6.3.9 AsyncGeneratorAwaitReturn): completes the request at the head of its queue.
    AgReturn(ObjId),
}

/// A promise reaction (§27.2.1.2), for both outcomes.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Reaction {
    pub on_fulfilled: Value,
    pub on_rejected: Value,
    pub cap: Cap,
    /// Resume this coroutine with the outcome instead of calling a handler (`await`).
    pub resume: Option<ObjId>,
}

/// A queued job.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Job {
    /// NewPromiseReactionJob: the reaction with the settled outcome.
    Reaction {
        reaction: Reaction,
        rejected: bool,
        arg: Value,
    },
    /// NewPromiseResolveThenableJob: `then.call(thenable, resolve, reject)` for the promise.
    Thenable {
        promise: ObjId,
        thenable: Value,
        then: Value,
    },
    /// `queueMicrotask(f)`.
    Call(Value),
}

/// What a coroutine is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CoroKind {
    Async,
    Generator,
    AsyncGenerator,
}

/// Where a coroutine is (§27.5.3 [[GeneratorState]]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CoroState {
    /// Made, not started (suspended-start).
    Start,
    /// Suspended at a `yield` or `await`.
    Suspended,
    /// Its frame is on the stack.
    Running,
    /// Completed.
    Done,
}

/// How a coroutine is resumed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Mode {
    Next,
    Throw,
    Return,
}

/// A pending resumption of a frame: its suspending instruction runs again and delivers it.
pub type Resumption = (Mode, Value);

/// A coroutine's state; its frame and registers while it is suspended.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Coro {
    pub kind: CoroKind,
    pub state: CoroState,
    pub frame: Option<Frame>,
    pub regs: Vec<Value>,
    /// An async function's promise.
    pub promise: Option<ObjId>,
    /// An async generator's requests (§27.6.3.1 AsyncGeneratorRequest): the head is the one
    /// being served.
    pub queue: VecDeque<AgRequest>,
    /// An async generator awaiting a `return` request's value while draining its queue.
    pub awaiting_return: bool,
}

/// One `next`/`throw`/`return` call on an async generator and the promise it returned.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgRequest {
    pub mode: Mode,
    pub value: Value,
    pub promise: ObjId,
}

/// What a native asked the call loop to do in its place.
#[derive(Clone, Debug)]
pub enum Tail {
    /// Call `f` with `this` and `args`, its frame finishing with `finish`.
    Call {
        f: Value,
        this: Value,
        args: Vec<Value>,
        finish: Finish,
    },
    /// Resume the generator with a completion; `result` (an async generator's request
    /// promise) goes to the caller at once, the generator's own outcome settles it later.
    Resume {
        coro: ObjId,
        mode: Mode,
        value: Value,
        result: Option<Value>,
    },
}

/// The host's missing-tool policy ([`codemode_guest::MissingTool`]).
#[derive(Clone)]
pub struct Missing(pub std::sync::Arc<dyn codemode_guest::MissingTool>);

impl std::fmt::Debug for Missing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Missing")
    }
}

/// The host calls of a run.
#[derive(Clone, Debug, Default)]
pub struct HostCalls {
    /// The host's missing-tool policy, and how many ranked lookups it made this run.
    pub missing: Option<Missing>,
    pub ranked: usize,
    /// The next call id.
    pub next_id: u64,
    /// Calls started and not yet taken by the host.
    pub started: Vec<HostCall>,
    /// Promises of asynchronous calls, by call id, with where each call was made.
    pub waiting: BTreeMap<u64, (ObjId, Option<Location>)>,
    /// A synchronous call (`search`, a synchronous extension) the program is blocked on: its
    /// instruction runs again once the reply is in [`HostCalls::sync_reply`].
    pub sync_wait: Option<u64>,
    /// The reply of the synchronous call, for its instruction's second run.
    pub sync_reply: Option<HostReply>,
    /// Replies not yet imported.
    pub replies: Vec<(CallId, HostReply)>,
    /// Error objects made from host errors: an uncaught one ends the run with the host's
    /// kind, message and suggestions, located at the call that failed.
    pub errors: Vec<(ObjId, HostError, Option<Location>)>,
    /// The extension globals' names: the modules `import` and `require` resolve
    /// (`builtins/modules.rs`).
    pub modules: Vec<String>,
    /// Module objects made of standard globals (`url`, ...), one per name and run.
    pub module_cache: Vec<(String, ObjId)>,
}

/// What the loop does when the frame stack is empty.
pub enum Idle {
    /// A job was started (or finished at once): go on.
    Ran,
    /// Nothing to run.
    Empty,
    /// The next job must wait for a later slice.
    Suspended,
}

fn slots(vm: &Vm, p: ObjId) -> Option<&PromiseSlots> {
    match &vm.heap.obj(p).kind {
        Kind::Promise(s) => Some(s),
        _ => None,
    }
}

fn slots_mut(vm: &mut Vm, p: ObjId) -> &mut PromiseSlots {
    match &mut vm.heap.obj_mut(p).kind {
        Kind::Promise(s) => s,
        _ => unreachable!("a promise"),
    }
}

impl Vm {
    // ----- promises -------------------------------------------------------------------

    /// A new pending promise with `proto` (`Promise.prototype` when None).
    pub fn new_promise(&mut self, proto: Option<ObjId>) -> Res<ObjId> {
        self.pending_promises += 1;
        if self.pending_promises > crate::limits::MAX_PENDING_PROMISES {
            self.pending_promises -= 1;
            return Err(self.range_error(&format!(
                "too many pending promises (limit {}): await the promises you start before starting more",
                crate::limits::MAX_PENDING_PROMISES
            )));
        }
        self.promise_serial += 1;
        let serial = self.promise_serial;
        self.heap.charge(crate::limits::PROMISE_BYTES)?;
        let proto = proto.or(self.intr.promise_proto);
        Ok(self.heap.new_obj(
            proto,
            Kind::Promise(Box::new(PromiseSlots {
                state: PState::Pending,
                result: Value::Undefined,
                reactions: Vec::new(),
                handled: false,
                serial,
            })),
        )?)
    }

    /// Make `o` (the object `new` made) a pending promise.
    pub fn init_promise(&mut self, o: ObjId) -> Res<()> {
        let proto = self.heap.obj(o).proto;
        let p = self.new_promise(proto)?;
        let kind = std::mem::replace(&mut self.heap.obj_mut(p).kind, Kind::Ordinary);
        self.heap.obj_mut(o).kind = kind;
        Ok(())
    }

    /// `true` when `v` is a promise object.
    pub fn is_promise(&self, v: Value) -> bool {
        matches!(v, Value::Obj(o) if matches!(self.heap.obj(o).kind, Kind::Promise(_)))
    }

    /// The state of promise `p` (None: not a promise).
    pub fn promise_state(&self, p: ObjId) -> Option<(PState, Value)> {
        slots(self, p).map(|s| (s.state, s.result))
    }

    fn settle(&mut self, p: ObjId, state: PState, v: Value) -> Res<()> {
        let s = slots_mut(self, p);
        if s.state != PState::Pending {
            return Ok(());
        }
        s.state = state;
        s.result = v;
        let reactions = std::mem::take(&mut s.reactions);
        let handled = s.handled;
        self.pending_promises = self.pending_promises.saturating_sub(1);
        if state == PState::Rejected && !handled {
            self.unhandled.push(p);
        }
        for r in reactions {
            self.enqueue(Job::Reaction {
                reaction: r,
                rejected: state == PState::Rejected,
                arg: v,
            })?;
        }
        Ok(())
    }

    /// FulfillPromise (§27.2.1.4).
    pub fn promise_fulfill(&mut self, p: ObjId, v: Value) -> Res<()> {
        self.settle(p, PState::Fulfilled, v)
    }

    /// RejectPromise (§27.2.1.7).
    pub fn promise_reject(&mut self, p: ObjId, r: Value) -> Res<()> {
        self.settle(p, PState::Rejected, r)
    }

    /// Queue a job, charged against the memory cap and bounded by
    /// [`crate::limits::MAX_QUEUED_JOBS`].
    pub fn enqueue(&mut self, job: Job) -> Res<()> {
        if self.jobs.len() >= crate::limits::MAX_QUEUED_JOBS {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                format!(
                    "too many queued promise jobs (limit {}): the program settles promises faster than it awaits them",
                    crate::limits::MAX_QUEUED_JOBS
                ),
            )));
        }
        self.heap.charge(crate::limits::JOB_BYTES)?;
        self.jobs.push_back(job);
        Ok(())
    }

    /// PerformPromiseThen (§27.2.5.4.1) without a result: add the reaction, or queue its job
    /// when `p` is settled; `p` is observed from now on.
    pub fn perform_then(&mut self, p: ObjId, r: Reaction) -> Res<()> {
        let s = slots_mut(self, p);
        s.handled = true;
        match s.state {
            PState::Pending => {
                s.reactions.push(r);
                self.heap.charge(crate::limits::JOB_BYTES)?;
                Ok(())
            }
            st => {
                let arg = s.result;
                self.enqueue(Job::Reaction {
                    reaction: r,
                    rejected: st == PState::Rejected,
                    arg,
                })
            }
        }
    }

    /// The [[Resolve]] step of promise `p`'s resolving functions (§27.2.1.3.2) with `v`,
    /// alreadyResolved checked by the caller. `Some((f, args))` when a `then` getter must run
    /// first: the caller calls the prelude's `resolveSlow` with these arguments.
    pub fn resolve_promise(&mut self, p: ObjId, v: Value) -> Res<Option<(Value, Vec<Value>)>> {
        if v == Value::Obj(p) {
            let e = self.type_error("Chaining cycle detected for promise #<Promise>");
            let Throw::Js(e) = e else { return Err(e) };
            self.promise_reject(p, e)?;
            return Ok(None);
        }
        let Value::Obj(_) = v else {
            self.promise_fulfill(p, v)?;
            return Ok(None);
        };
        let then_key = self.then_key;
        let then = match self.lookup(v, then_key) {
            Some(Prop {
                slot: Slot::Data(t),
                ..
            }) => t,
            Some(Prop {
                slot: Slot::Accessor(..),
                ..
            }) => {
                let f = self.intr.resolve_slow.map_or(Value::Undefined, Value::Obj);
                return Ok(Some((f, vec![Value::Obj(p), v])));
            }
            None => Value::Undefined,
        };
        if !self.is_callable(then) {
            self.promise_fulfill(p, v)?;
            return Ok(None);
        }
        self.enqueue(Job::Thenable {
            promise: p,
            thenable: v,
            then,
        })?;
        Ok(None)
    }

    /// Resolve `p` with `v`, running a `then` getter (in a frame of its own) when there is one.
    pub fn resolve_or_push(&mut self, p: ObjId, v: Value) -> Res<()> {
        if let Some((f, args)) = self.resolve_promise(p, v)? {
            self.call(f, Value::Undefined, args, None, None)?;
        }
        Ok(())
    }

    /// `true` for a function object.
    pub fn is_callable(&self, v: Value) -> bool {
        matches!(v, Value::Obj(o) if matches!(self.heap.obj(o).kind, Kind::Function(_)))
    }

    /// Settle a reaction's capability with a handler's outcome.
    fn settle_cap(&mut self, cap: Cap, rejected: bool, v: Value) -> Res<()> {
        match cap {
            Cap::None => Ok(()),
            Cap::Promise(p) if rejected => self.promise_reject(p, v),
            Cap::Promise(p) => self.resolve_or_push(p, v),
            Cap::Record(r) => {
                let f =
                    self.get_simple(Value::Obj(r), if rejected { "reject" } else { "resolve" })?;
                self.call(f, Value::Undefined, vec![v], None, None)?;
                Ok(())
            }
            Cap::AgReturn(c) => {
                self.coro_mut(c).awaiting_return = false;
                self.ag_complete(c, rejected, v, true)?;
                self.ag_drain(c)
            }
        }
    }

    /// The shared record and the two resolving functions of promise `p` (§27.2.1.3).
    pub fn resolving_functions(&mut self, p: ObjId) -> Res<(ObjId, Value, Value)> {
        let state = self.heap.new_obj(None, Kind::Resolving(p, false))?;
        let mut fns = [Value::Undefined; 2];
        for (i, target) in [self.intr.resolve_fn, self.intr.reject_fn]
            .into_iter()
            .enumerate()
        {
            let Some(target) = target else { continue };
            let f = self.heap.new_obj(
                self.intr.function_proto,
                Kind::Function(Func::Bound {
                    target,
                    this: Value::Obj(state),
                    args: Vec::new(),
                }),
            )?;
            self.function_props(f, "", 1)?;
            fns[i] = Value::Obj(f);
        }
        Ok((state, fns[0], fns[1]))
    }

    /// Reject through a resolving-functions record unless it was already used.
    fn reject_via(&mut self, state: ObjId, e: Value) -> Res<()> {
        if let Kind::Resolving(p, already) = &mut self.heap.obj_mut(state).kind {
            if *already {
                return Ok(());
            }
            *already = true;
            let p = *p;
            return self.promise_reject(p, e);
        }
        Ok(())
    }

    // ----- frames that finish something -----------------------------------------------

    /// A frame with `finish` returned `v` (popped already). Returns the value for its `ret`.
    pub(super) fn finish_return(&mut self, f: &Frame, v: Value) -> Res<Option<Value>> {
        match f.finish {
            Finish::Normal | Finish::Done => Ok(Some(v)),
            Finish::Coro(c) => {
                let (kind, promise) = {
                    let co = self.coro_mut(c);
                    co.state = CoroState::Done;
                    (co.kind, co.promise)
                };
                match kind {
                    CoroKind::Generator => Ok(Some(self.iter_result(v, true)?)),
                    CoroKind::AsyncGenerator => {
                        self.ag_complete(c, false, v, true)?;
                        self.ag_drain(c)?;
                        Ok(None)
                    }
                    CoroKind::Async => {
                        if let Some(p) = promise {
                            self.resolve_or_push(p, v)?;
                        }
                        Ok(promise.map(Value::Obj))
                    }
                }
            }
            Finish::Settle(cap) => {
                self.settle_cap(cap, false, v)?;
                Ok(None)
            }
            Finish::Executor { promise, .. } => Ok(Some(Value::Obj(promise))),
            Finish::Thenable(_) => Ok(None),
        }
    }

    /// Exception `e` left frame `f` (popped already). `Some(value)`: unwinding stops here and
    /// the value goes to the frame's `ret`; None: the exception propagates to the caller.
    pub(super) fn finish_throw(&mut self, f: &Frame, e: Value) -> Res<Option<Value>> {
        match f.finish {
            Finish::Normal | Finish::Done => Ok(None),
            Finish::Coro(c) => {
                let (kind, promise) = {
                    let co = self.coro_mut(c);
                    co.state = CoroState::Done;
                    (co.kind, co.promise)
                };
                match kind {
                    CoroKind::Generator => Ok(None),
                    CoroKind::AsyncGenerator => {
                        self.throw_at = None;
                        self.ag_complete(c, true, e, true)?;
                        self.ag_drain(c)?;
                        Ok(Some(Value::Undefined))
                    }
                    CoroKind::Async => {
                        if Some(c) == self.body {
                            self.body_error_at = self.throw_at;
                        }
                        self.throw_at = None;
                        if let Some(p) = promise {
                            self.promise_reject(p, e)?;
                        }
                        Ok(Some(promise.map_or(Value::Undefined, Value::Obj)))
                    }
                }
            }
            Finish::Settle(cap) => {
                self.throw_at = None;
                self.settle_cap(cap, true, e)?;
                Ok(Some(Value::Undefined))
            }
            Finish::Executor { state, promise } => {
                self.throw_at = None;
                self.reject_via(state, e)?;
                Ok(Some(Value::Obj(promise)))
            }
            Finish::Thenable(state) => {
                self.throw_at = None;
                self.reject_via(state, e)?;
                Ok(Some(Value::Undefined))
            }
        }
    }

    /// A native called with `finish` ended with `r`: apply it as a frame's end would.
    pub(super) fn finish_native(&mut self, finish: Finish, r: Res<Value>) -> Res<Option<Value>> {
        if finish == Finish::Normal {
            return r.map(Some);
        }
        let dummy = Frame::detached(finish);
        match r {
            Ok(v) => self.finish_return(&dummy, v),
            Err(Throw::Js(e)) => match self.finish_throw(&dummy, e)? {
                Some(v) => Ok(Some(v)),
                None => Err(Throw::Js(e)),
            },
            Err(t) => Err(t),
        }
    }

    // ----- coroutines -----------------------------------------------------------------

    pub(crate) fn coro_mut(&mut self, c: ObjId) -> &mut Coro {
        match &mut self.heap.obj_mut(c).kind {
            Kind::Coro(co) => co,
            _ => unreachable!("a coroutine"),
        }
    }

    /// The coroutine of `v`, if it is one.
    pub fn coro_of(&self, v: Value) -> Option<(ObjId, CoroKind, CoroState)> {
        match v {
            Value::Obj(o) => match &self.heap.obj(o).kind {
                Kind::Coro(c) => Some((o, c.kind, c.state)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `{ value, done }` (§7.4.14 CreateIterResultObject).
    pub fn iter_result(&mut self, v: Value, done: bool) -> Res<Value> {
        let o = self.new_object()?;
        let (kv, kd) = (self.heap.key("value"), self.heap.key("done"));
        self.define(o, kv, Slot::Data(v), DEFAULT_ATTRS)?;
        self.define(o, kd, Slot::Data(Value::Bool(done)), DEFAULT_ATTRS)?;
        Ok(Value::Obj(o))
    }

    /// Move the running frame (and its registers) into coroutine `c`. Returns the frame's
    /// `ret` (where its caller wants what the suspension delivers).
    pub(super) fn suspend(&mut self, c: ObjId) -> Res<Option<Reg>> {
        let mut f = self.frames.pop().expect("frame");
        // The coroutine's register vector keeps its capacity from one suspension to the next.
        let mut saved = std::mem::take(&mut self.coro_mut(c).regs);
        saved.clear();
        saved.extend(self.regs.drain(f.base as usize..));
        self.base = self.frames.last().map_or(0, |f| f.base as usize);
        let ret = f.ret.take();
        self.heap.charge(crate::limits::SUSPENDED_FRAME_BYTES)?;
        let co = self.coro_mut(c);
        if co.state != CoroState::Start {
            co.state = CoroState::Suspended;
        }
        co.frame = Some(f);
        co.regs = saved;
        Ok(ret)
    }

    /// Put coroutine `c`'s frame back on top of the stack with a pending resumption; the
    /// value of its next suspension or of its end goes to `ret` of the frame below.
    pub(super) fn resume(&mut self, c: ObjId, mode: Mode, v: Value, ret: Option<Reg>) -> Res<()> {
        if self.frames.len() >= MAX_CALL_DEPTH {
            return Err(self.range_error("Maximum call stack size exceeded"));
        }
        let n = self.coro_mut(c).regs.len();
        if self.regs.len() + n > MAX_STACK_SLOTS {
            return Err(self.range_error("Maximum call stack size exceeded"));
        }
        let co = self.coro_mut(c);
        let (Some(mut f), mut regs) = (co.frame.take(), std::mem::take(&mut co.regs)) else {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: resuming a coroutine that has no frame",
            )));
        };
        co.state = CoroState::Running;
        let base = self.regs.len();
        self.regs.append(&mut regs);
        self.coro_mut(c).regs = regs;
        f.base = base as u32;
        f.ret = ret;
        f.resumed = Some((mode, v));
        self.frames.push(f);
        self.base = base;
        Ok(())
    }

    /// `AsyncStart`: the running frame becomes an async function's coroutine.
    pub(super) fn op_async_start(&mut self) -> Res<Flow> {
        let p = self.new_promise(None)?;
        let c = self.heap.new_obj(
            None,
            Kind::Coro(Box::new(Coro {
                kind: CoroKind::Async,
                state: CoroState::Running,
                frame: None,
                regs: Vec::new(),
                promise: Some(p),
                queue: VecDeque::new(),
                awaiting_return: false,
            })),
        )?;
        let frame = self.frames.last_mut().expect("frame");
        let outer = std::mem::replace(&mut frame.finish, Finish::Coro(c));
        // The frame finished something for its caller: an async function's result is its
        // promise, known now.
        match outer {
            // A reaction's handler (`.then(async (v) => ...)`): its promise resolves the
            // derived one (§27.2.2.1).
            Finish::Settle(cap) => self.settle_cap(cap, false, Value::Obj(p))?,
            // An async executor (`new Promise(async (resolve) => ...)`): `new` gives the new
            // promise, not the executor's (§27.2.3.1 ignores the executor's result).
            Finish::Executor { promise, .. } => {
                let n = self.frames.len();
                if let Some(r) = self.frames[n - 1].ret.take()
                    && n >= 2
                {
                    let base = self.frames[n - 2].base as usize;
                    self.regs[base + r as usize] = Value::Obj(promise);
                }
            }
            _ => {}
        }
        Ok(Flow::Next)
    }

    /// With the frame stack empty: `true` when the body has settled and the jobs queued by
    /// then have run (the rest are dropped).
    pub(super) fn drain_after_settled(&mut self) -> bool {
        let Some(p) = self.body_promise() else {
            return false;
        };
        if !matches!(self.promise_state(p), Some((s, _)) if s != PState::Pending) {
            return false;
        }
        let n = self.jobs.len();
        let left = self.drain_left.get_or_insert(n);
        if *left == 0 {
            return true;
        }
        *left -= 1;
        false
    }

    /// Start the program's body as an async function: its promise is the run's outcome.
    pub fn start_body(&mut self, prog: u16) -> Res<()> {
        self.start(prog)?;
        self.op_async_start()?;
        if let Finish::Coro(c) = self.frames.last().expect("frame").finish {
            self.body = Some(c);
        }
        self.body_returned = true;
        self.frames.last_mut().expect("frame").finish = match self.body {
            Some(c) => Finish::Coro(c),
            None => Finish::Normal,
        };
        Ok(())
    }

    /// The body's promise (None before the body started).
    pub fn body_promise(&self) -> Option<ObjId> {
        let c = self.body?;
        match &self.heap.obj(c).kind {
            Kind::Coro(co) => co.promise,
            _ => None,
        }
    }

    /// `GenStart`: make the generator object and suspend the frame in it.
    pub(super) fn op_gen_start(&mut self, is_async: bool) -> Res<Flow> {
        if let Some((Mode::Next, _)) = self.frames.last_mut().expect("frame").resumed.take() {
            return Ok(Flow::Next);
        }
        let callee = self.frame().callee;
        let proto = match self.get_simple(callee, "prototype")? {
            Value::Obj(p) => Some(p),
            _ if is_async => self.intr.async_generator_proto,
            _ => self.intr.generator_proto,
        };
        let c = self.heap.new_obj(
            proto,
            Kind::Coro(Box::new(Coro {
                kind: if is_async {
                    CoroKind::AsyncGenerator
                } else {
                    CoroKind::Generator
                },
                state: CoroState::Start,
                frame: None,
                regs: Vec::new(),
                promise: None,
                queue: VecDeque::new(),
                awaiting_return: false,
            })),
        )?;
        self.frames.last_mut().expect("frame").finish = Finish::Coro(c);
        let ret = self.suspend(c)?;
        self.deliver(ret, Value::Obj(c));
        Ok(Flow::Switched)
    }

    /// Write `v` into register `ret` of the (now) running frame.
    fn deliver(&mut self, ret: Option<Reg>, v: Value) {
        if let Some(r) = ret
            && !self.frames.is_empty()
        {
            self.set(r, v);
        }
    }

    /// `Await(dst, v)`.
    pub(super) fn op_await(&mut self, d: Reg, v: Value) -> Res<Flow> {
        if v == Value::Empty {
            // `yield*`'s marker of a missing `return` method passes through.
            return Ok(Flow::Next);
        }
        if let Some((mode, x)) = self.frames.last_mut().expect("frame").resumed.take() {
            return match mode {
                Mode::Throw => Err(Throw::Js(x)),
                _ => {
                    self.set(d, x);
                    Ok(Flow::Next)
                }
            };
        }
        let Finish::Coro(c) = self.frame().finish else {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: await outside an async function",
            )));
        };
        // PromiseResolve(%Promise%, v) (§27.2.4.7.1).
        let mut slow = None;
        let p = match v {
            Value::Obj(o) if self.is_promise(v) && self.constructor_is_promise(o) => o,
            _ => {
                let p = self.new_promise(None)?;
                slow = self.resolve_promise(p, v)?;
                p
            }
        };
        self.perform_then(
            p,
            Reaction {
                on_fulfilled: Value::Undefined,
                on_rejected: Value::Undefined,
                cap: Cap::None,
                resume: Some(c),
            },
        )?;
        let promise = self.coro_mut(c).promise;
        let ret = self.suspend(c)?;
        self.deliver(ret, promise.map_or(Value::Undefined, Value::Obj));
        if let Some((f, args)) = slow {
            self.call(f, Value::Undefined, args, None, None)?;
        }
        Ok(Flow::Switched)
    }

    /// `x.constructor === %Promise%` read without running user code (a getter counts as no).
    fn constructor_is_promise(&mut self, o: ObjId) -> bool {
        let k = self.constructor_key;
        matches!(
            self.lookup(Value::Obj(o), k),
            Some(Prop { slot: Slot::Data(Value::Obj(c)), .. }) if Some(c) == self.intr.promise_ctor
        )
    }

    /// `Yield(dst, v)` of a generator.
    pub(super) fn op_yield(&mut self, d: Reg, v: Value) -> Res<Flow> {
        if let Some((mode, x)) = self.frames.last_mut().expect("frame").resumed.take() {
            return match mode {
                Mode::Throw => Err(Throw::Js(x)),
                Mode::Next | Mode::Return => {
                    self.set(d, x);
                    self.set(d + 1, Value::Bool(mode == Mode::Return));
                    Ok(Flow::Next)
                }
            };
        }
        let Finish::Coro(c) = self.frame().finish else {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: yield outside a generator",
            )));
        };
        if self.coro_mut(c).kind == CoroKind::AsyncGenerator {
            // Settle the request served now; serve the next one at once if there is one.
            self.ag_complete(c, false, v, false)?;
            if let Some(req) = self.coro_mut(c).queue.front().copied() {
                return match req.mode {
                    Mode::Throw => Err(Throw::Js(req.value)),
                    m => {
                        self.set(d, req.value);
                        self.set(d + 1, Value::Bool(m == Mode::Return));
                        Ok(Flow::Next)
                    }
                };
            }
            self.suspend(c)?;
            self.coro_mut(c).state = CoroState::Suspended;
            return Ok(Flow::Switched);
        }
        let r = self.iter_result(v, false)?;
        let ret = self.suspend(c)?;
        self.deliver(ret, r);
        Ok(Flow::Switched)
    }

    // ----- async generators -----------------------------------------------------------

    /// AsyncGeneratorCompleteStep (§27.6.3.4): settle the request at the head of the queue
    /// with a value (`{ value, done }`) or a rejection.
    fn ag_complete(&mut self, c: ObjId, rejected: bool, v: Value, done: bool) -> Res<()> {
        let Some(req) = self.coro_mut(c).queue.pop_front() else {
            return Ok(());
        };
        if rejected {
            self.promise_reject(req.promise, v)
        } else {
            let r = self.iter_result(v, done)?;
            self.promise_fulfill(req.promise, r)
        }
    }

    /// AsyncGeneratorDrainQueue (§27.6.3.10) of a completed generator.
    fn ag_drain(&mut self, c: ObjId) -> Res<()> {
        loop {
            let co = self.coro_mut(c);
            if co.state != CoroState::Done || co.awaiting_return {
                return Ok(());
            }
            let Some(req) = co.queue.front().copied() else {
                return Ok(());
            };
            match req.mode {
                Mode::Next => self.ag_complete(c, false, Value::Undefined, true)?,
                Mode::Throw => self.ag_complete(c, true, req.value, true)?,
                Mode::Return => {
                    self.coro_mut(c).awaiting_return = true;
                    let p = match req.value {
                        Value::Obj(o)
                            if self.is_promise(req.value) && self.constructor_is_promise(o) =>
                        {
                            o
                        }
                        v => {
                            let p = self.new_promise(None)?;
                            self.resolve_or_push(p, v)?;
                            p
                        }
                    };
                    return self.perform_then(
                        p,
                        Reaction {
                            on_fulfilled: Value::Undefined,
                            on_rejected: Value::Undefined,
                            cap: Cap::AgReturn(c),
                            resume: None,
                        },
                    );
                }
            }
        }
    }

    /// `next`/`throw`/`return` on async generator `c` (§27.6.3.2 AsyncGeneratorEnqueue and
    /// §27.6.1): queue the request and return its promise; a generator not running is resumed
    /// (or, completed or not started, drained).
    pub fn ag_request(&mut self, c: ObjId, mode: Mode, v: Value) -> Res<Value> {
        let p = self.new_promise(None)?;
        let co = self.coro_mut(c);
        co.queue.push_back(AgRequest {
            mode,
            value: v,
            promise: p,
        });
        if co.queue.len() > 1 || co.state == CoroState::Running || co.awaiting_return {
            return Ok(Value::Obj(p));
        }
        match (co.state, mode) {
            (CoroState::Start, Mode::Return | Mode::Throw) => {
                co.state = CoroState::Done;
                co.frame = None;
                co.regs = Vec::new();
                self.ag_drain(c)?;
            }
            (CoroState::Done, _) => self.ag_drain(c)?,
            _ => {
                self.tail = Some(Tail::Resume {
                    coro: c,
                    mode,
                    value: v,
                    result: Some(Value::Obj(p)),
                });
            }
        }
        Ok(Value::Obj(p))
    }

    // ----- yield* ----------------------------------------------------------------------

    /// `Delegate(res, it, r)`: call the inner iterator's method for the mode in r+1.
    pub(super) fn op_delegate(&mut self, res: Reg, it: Reg, r: Reg) -> Res<Flow> {
        let itv = self.r(it);
        let recv = self.r(r);
        let mode = match self.r(r + 1) {
            Value::Num(n) => n as u8,
            _ => 0,
        };
        if mode == 0
            && let Some(step) = self.builtin_iter_step(itv)?
        {
            let out = match step {
                Value::Empty => self.iter_result(Value::Undefined, true)?,
                v => self.iter_result(v, false)?,
            };
            self.set(res, out);
            return Ok(Flow::Next);
        }
        let name = ["next", "throw", "return"][mode.min(2) as usize];
        let m = self.get_simple(itv, name)?;
        if m.is_nullish() {
            match mode {
                1 => {
                    return Err(self.type_error("The iterator does not provide a 'throw' method"));
                }
                2 => {
                    self.set(res, Value::Empty);
                    return Ok(Flow::Next);
                }
                _ => {}
            }
        }
        self.check_callable(m)?;
        let out = self.call(m, itv, vec![recv], Some(res), None)?;
        Ok(self.called(out, Some(res)))
    }

    /// `DelegateResult(d, res, r, exit)`.
    pub(super) fn op_delegate_result(&mut self, d: Reg, res: Reg, r: Reg, exit: u32) -> Res<Flow> {
        let rv = self.r(res);
        if rv == Value::Empty {
            let recv = self.r(r);
            self.set(d, recv);
            return Ok(Flow::Jump(exit));
        }
        if !matches!(rv, Value::Obj(_)) {
            let s = crate::builtins::inspect(self, rv)?;
            return Err(self.type_error(&format!("Iterator result {s} is not an object")));
        }
        let done = self.get_simple(rv, "done")?;
        if self.truthy(done) {
            let v = self.get_simple(rv, "value")?;
            self.set(d, v);
            if self.r(r + 1) != Value::Num(2.0) {
                self.set(r + 1, Value::Num(0.0));
            }
            return Ok(Flow::Jump(exit));
        }
        Ok(Flow::Next)
    }

    /// `YieldDelegate(r, res)`.
    pub(super) fn op_yield_delegate(&mut self, r: Reg, res: Reg) -> Res<Flow> {
        if let Some((mode, x)) = self.frames.last_mut().expect("frame").resumed.take() {
            self.set(r, x);
            let m = match mode {
                Mode::Next => 0.0,
                Mode::Throw => 1.0,
                Mode::Return => 2.0,
            };
            self.set(r + 1, Value::Num(m));
            return Ok(Flow::Next);
        }
        let Finish::Coro(c) = self.frame().finish else {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: yield* outside a generator",
            )));
        };
        let v = self.r(res);
        if self.coro_mut(c).kind == CoroKind::AsyncGenerator {
            self.ag_complete(c, false, v, false)?;
            if let Some(req) = self.coro_mut(c).queue.front().copied() {
                self.set(r, req.value);
                let m = match req.mode {
                    Mode::Next => 0.0,
                    Mode::Throw => 1.0,
                    Mode::Return => 2.0,
                };
                self.set(r + 1, Value::Num(m));
                return Ok(Flow::Next);
            }
            self.suspend(c)?;
            self.coro_mut(c).state = CoroState::Suspended;
            return Ok(Flow::Switched);
        }
        let ret = self.suspend(c)?;
        self.deliver(ret, v);
        Ok(Flow::Switched)
    }

    // ----- jobs -----------------------------------------------------------------------

    /// With the frame stack empty: start the next job.
    pub(super) fn run_job(&mut self) -> Res<Idle> {
        let Some(job) = self.jobs.pop_front() else {
            return Ok(Idle::Empty);
        };
        let again = job.clone();
        match self.start_job(job) {
            // A native the job called at once must run in a later slice (a synchronous host
            // call, or heavy work an inline run leaves to the pool): the job runs again then.
            Err(Throw::Suspend) => {
                self.jobs.push_front(again);
                Ok(Idle::Suspended)
            }
            r => r,
        }
    }

    fn start_job(&mut self, job: Job) -> Res<Idle> {
        self.heap.used = self.heap.used.saturating_sub(crate::limits::JOB_BYTES);
        self.fuel -= 1;
        match job {
            Job::Reaction {
                reaction,
                rejected,
                arg,
            } => {
                if let Some(c) = reaction.resume {
                    let mode = if rejected { Mode::Throw } else { Mode::Next };
                    self.resume(c, mode, arg, None)?;
                    return Ok(Idle::Ran);
                }
                let handler = if rejected {
                    reaction.on_rejected
                } else {
                    reaction.on_fulfilled
                };
                if !self.is_callable(handler) {
                    self.settle_cap(reaction.cap, rejected, arg)?;
                    return Ok(Idle::Ran);
                }
                let r = self.call_with(
                    handler,
                    Value::Undefined,
                    vec![arg],
                    None,
                    None,
                    Finish::Settle(reaction.cap),
                );
                self.job_outcome(r)
            }
            Job::Thenable {
                promise,
                thenable,
                then,
            } => {
                let (state, res, rej) = self.resolving_functions(promise)?;
                let r = self.call_with(
                    then,
                    thenable,
                    vec![res, rej],
                    None,
                    None,
                    Finish::Thenable(state),
                );
                self.job_outcome(r)
            }
            Job::Call(f) => {
                let r = self.call(f, Value::Undefined, Vec::new(), None, None);
                self.job_outcome(r)
            }
        }
    }

    /// A job's call that threw at once (before a frame) has no handler: uncaught.
    fn job_outcome(&mut self, r: Res<Option<Value>>) -> Res<Idle> {
        match r {
            Ok(_) => Ok(Idle::Ran),
            Err(Throw::Js(v)) => {
                // Raised with no frame to catch it: reported as the run's error.
                self.raise(Throw::Js(v))?;
                Ok(Idle::Ran)
            }
            Err(t) => Err(t),
        }
    }

    // ----- host calls -----------------------------------------------------------------

    /// Start a host call; `mode` says whether the program waits for it.
    pub fn start_host_call(
        &mut self,
        target: HostTarget,
        args: Vec<serde_json::Value>,
        mode: CallMode,
        refused: Option<GuestError>,
    ) -> Res<u64> {
        let id = self.host.next_id;
        self.host.next_id += 1;
        if self.host.waiting.len() + usize::from(self.host.sync_wait.is_some())
            >= crate::limits::MAX_OPEN_HOST_CALLS
        {
            return Err(self.range_error(&format!(
                "too many tool calls started and not finished (limit {}): await some before starting more",
                crate::limits::MAX_OPEN_HOST_CALLS
            )));
        }
        let location = self.call_location();
        self.host.started.push(HostCall {
            id: CallId(id),
            target,
            args,
            location,
            mode,
            refused,
        });
        Ok(id)
    }

    /// [`Vm::location`] of the current instruction, remembered for the next host call made by
    /// the same instruction (the innermost non-prelude frame's).
    fn call_location(&mut self) -> Option<Location> {
        let site = self.user_frame().map(|f| (f.prog, f.func, f.pc));
        if let (Some(site), Some((cached, at))) = (site, self.call_site)
            && site == cached
        {
            return at;
        }
        let at = self.location();
        self.call_site = site.map(|s| (s, at));
        at
    }

    /// An error value for a host error: an `Error` named `ToolError` with the message, the
    /// `kind` and the error's data fields; `at` is where the failed call was made.
    pub fn host_error_value(&mut self, e: &HostError, at: Option<Location>) -> Res<Value> {
        let v = self.make_error(self.intr.error_proto, &e.message);
        let Value::Obj(o) = v else { return Ok(v) };
        let name = self.str_val("ToolError")?;
        let k = self.heap.key("name");
        self.define(o, k, Slot::Data(name), HIDDEN_ATTRS)?;
        let kind = self.str_val(codemode_guest::DiagnosticKind::from(e.kind).as_str())?;
        let k = self.heap.key("kind");
        self.define(o, k, Slot::Data(kind), DEFAULT_ATTRS)?;
        if let Some(data) = &e.data {
            for (key, value) in data.iter() {
                if key == "name" || key == "message" || key == "kind" {
                    continue;
                }
                let x = crate::boundary::import(self, value)?;
                let k = self.heap.key(key);
                self.define(o, k, Slot::Data(x), DEFAULT_ATTRS)?;
            }
        }
        if self.host.errors.len() < crate::limits::MAX_KEPT_HOST_ERRORS {
            self.host.errors.push((o, e.clone(), at));
        }
        Ok(v)
    }

    /// Import the replies the host gave since the last run: settle the promises of
    /// asynchronous calls (their reactions queue), keep the synchronous call's reply.
    pub fn import_replies(&mut self) -> Res<()> {
        if self.host.replies.is_empty() {
            return Ok(());
        }
        let mut replies = std::mem::take(&mut self.host.replies);
        for (id, reply) in replies.drain(..) {
            if self.host.sync_wait == Some(id.0) {
                self.host.sync_wait = None;
                self.host.sync_reply = Some(reply);
                continue;
            }
            let Some((p, at)) = self.host.waiting.remove(&id.0) else {
                continue;
            };
            match reply {
                HostReply::Value(v) => {
                    let x = crate::boundary::import(self, &v)?;
                    self.promise_fulfill(p, x)?;
                }
                HostReply::Error(e) => {
                    let x = self.host_error_value(&e, at)?;
                    self.promise_reject(p, x)?;
                }
                HostReply::Abort(g) => return Err(Throw::Fatal(g)),
            }
        }
        // The emptied list keeps its capacity for the next replies.
        self.host.replies = replies;
        Ok(())
    }

    /// The reply of a synchronous call as the native's result: the value, or a throw.
    pub fn sync_result(&mut self, reply: HostReply) -> Res<Value> {
        match reply {
            HostReply::Value(v) => crate::boundary::import(self, &v),
            HostReply::Error(e) => {
                // The synchronous call's instruction is the one running again.
                let at = self.location();
                let x = self.host_error_value(&e, at)?;
                Err(Throw::Js(x))
            }
            HostReply::Abort(g) => Err(Throw::Fatal(g)),
        }
    }

    /// Every root this module holds for the collector.
    pub(crate) fn coro_roots(&self, out: &mut Vec<Value>) {
        for j in &self.jobs {
            match j {
                Job::Reaction { reaction, arg, .. } => {
                    push_reaction(reaction, out);
                    out.push(*arg);
                }
                Job::Thenable {
                    promise,
                    thenable,
                    then,
                } => {
                    out.push(Value::Obj(*promise));
                    out.push(*thenable);
                    out.push(*then);
                }
                Job::Call(f) => out.push(*f),
            }
        }
        out.extend(self.host.waiting.values().map(|(p, _)| Value::Obj(*p)));
        out.extend(self.host.errors.iter().map(|(o, ..)| Value::Obj(*o)));
        out.extend(self.host.module_cache.iter().map(|(_, o)| Value::Obj(*o)));
        out.extend(self.unhandled.iter().map(|p| Value::Obj(*p)));
        if let Some(b) = self.body {
            out.push(Value::Obj(b));
        }
    }
}

/// The values a reaction holds.
pub(crate) fn push_reaction(r: &Reaction, out: &mut Vec<Value>) {
    out.push(r.on_fulfilled);
    out.push(r.on_rejected);
    match r.cap {
        Cap::None => {}
        Cap::Promise(p) | Cap::Record(p) | Cap::AgReturn(p) => out.push(Value::Obj(p)),
    }
    if let Some(c) = r.resume {
        out.push(Value::Obj(c));
    }
}

/// The values a frame holds (for the collector, which also marks its cells).
pub(crate) fn frame_values(f: &Frame, out: &mut Vec<Value>) {
    out.push(f.callee_value());
    out.extend(f.args.iter().copied());
    if let Some(o) = f.construct {
        out.push(Value::Obj(o));
    }
    out.push(f.new_target);
    if let Some((_, v)) = f.resumed {
        out.push(v);
    }
    match f.finish {
        Finish::Coro(c) | Finish::Thenable(c) => out.push(Value::Obj(c)),
        Finish::Settle(Cap::Promise(p) | Cap::Record(p) | Cap::AgReturn(p)) => {
            out.push(Value::Obj(p))
        }
        Finish::Executor { state, promise } => {
            out.push(Value::Obj(state));
            out.push(Value::Obj(promise));
        }
        _ => {}
    }
}
