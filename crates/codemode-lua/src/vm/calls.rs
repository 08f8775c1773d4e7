//! Calls, as PUC Lua's ldo.c: entering a function (a Lua frame pushed on the frame `Vec`, a
//! native run with a [`Ctx`], a host function suspending the machine), placing results,
//! `pcall`/`xpcall` and unwinding an error to the protected frame that catches it, nested calls
//! from natives back into Lua, and the one error for calling what is not a function.

use super::*;
use crate::restart::restartable;

/// Where a value that is not a function was called (see [`Vm::not_callable`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum CallSite {
    /// A call instruction on register `reg`: the error names the variable and hints at the
    /// fix; a nil from a missed `tools` lookup becomes a refused host call.
    Instr { reg: u8, nresults: i32 },
    /// `pcall(f, ...)` with `f` in stack slot `slot`: no position, no name (like Lua).
    Pcall { slot: usize, nresults: i32 },
    /// The iterator of a generic `for`.
    ForIterator,
    /// A native calling back into Lua.
    Native,
}

impl Vm {
    /// Unwind to the nearest `pcall`/`xpcall` frame above `stop` and place `false, message`
    /// there (running an `xpcall` message handler first), or return the error.
    ///
    /// `may_rewind`: the error comes from the current instruction of the top frame. In an
    /// inline stretch, when an `xpcall` would catch it and that instruction changed nothing
    /// visible (no [`Ctx::effects`] in a native), [`Throw::Restart`] is returned instead, with
    /// nothing unwound: the instruction runs again off the caller's thread, fails the same way,
    /// and the handler (a nested call that cannot be restarted) runs there.
    pub(super) fn handle_error(
        &mut self,
        mut e: Throw,
        stop: usize,
        may_rewind: bool,
    ) -> VmResult<()> {
        // Whether the failing instruction changed state: read once, for this error.
        let dirty = std::mem::take(&mut self.heap.meter.dirty);
        let d = match &mut e {
            // Not an error: passes to the instruction that started the step (`run_until`).
            Throw::Restart => return Err(e),
            Throw::Error(d) => d,
        };
        if !d.positioned && d.location.is_none() {
            d.location = self.current_location();
        }
        if !d.positioned
            && let crate::value::ErrVal::Msg(m) = &mut d.value
        {
            let hint = self.operand_hint(m);
            m.push_str(&hint);
        }
        d.positioned = true;
        if !d.catchable {
            return Err(e);
        }
        let mut idx = None;
        for i in (stop..self.frames.len()).rev() {
            if self.frames[i].kind != FrameKind::Normal {
                idx = Some(i);
                break;
            }
        }
        let Some(i) = idx else { return Err(e) };
        let fr = self.frames[i];
        if fr.kind == FrameKind::XPCall && may_rewind && self.heap.meter.inline() && !dirty {
            return Err(Throw::Restart);
        }
        self.close_upvals(fr.func);
        self.frames.truncate(i);
        let Throw::Error(d) = &e else { return Err(e) };
        let mut ev = self.error_value(d)?;
        if fr.kind == FrameKind::XPCall {
            let handler = self.stack[fr.func - 1];
            // Run the handler as a nested call above the failed frame's slot.
            let at = fr.func + 1;
            ev = self.run_handler(at, handler, ev)?;
        }
        self.place(fr.func - 1, &[Value::Bool(false), ev], fr.nresults);
        Ok(())
    }

    /// Run an `xpcall` message handler on error value `ev`. Like Lua, an error inside the
    /// handler is handed to the handler again; after `limits::MAX_ERROR_HANDLER_CALLS` attempts
    /// the result is Lua's "error in error handling". Iterative: no Rust stack per attempt.
    pub(super) fn run_handler(
        &mut self,
        at: usize,
        handler: Value,
        mut ev: Value,
    ) -> VmResult<Value> {
        for _ in 0..limits::MAX_ERROR_HANDLER_CALLS {
            let noted = self.noted.len();
            self.handler_depth += 1;
            // The handler and its error value are held here across the call: GC roots for it
            // (a collection may run inside the handler).
            let mark = self.push_roots(&[handler, ev])?;
            let r = self.call_nested(at, handler, &[ev], "xpcall");
            self.pop_roots(mark);
            self.handler_depth -= 1;
            match r {
                Ok(vals) => return Ok(vals.first().copied().unwrap_or(Value::Nil)),
                // A host call the handler may not make: its message is the result (calling
                // the handler again would only repeat it until "error in error handling").
                Err(Throw::Error(d)) if d.catchable && self.noted.len() > noted => {
                    return self.error_value(&d);
                }
                // An error in the handler goes to the handler again.
                Err(Throw::Error(d)) if d.catchable => ev = self.error_value(&d)?,
                Err(e) => return Err(e),
            }
        }
        self.heap.new_str(b"error in error handling")
    }

    /// Make stack slots `..need` exist (new ones nil), charging growth to the memory cap.
    #[inline(always)]
    pub(super) fn ensure_stack(&mut self, need: usize) -> VmResult<()> {
        if need > self.stack.len() {
            return self.grow_stack(need);
        }
        Ok(())
    }

    /// [`Vm::ensure_stack`] when the stack must grow (out of line: the common case is a
    /// compare and a branch at every call).
    #[cold]
    #[inline(never)]
    fn grow_stack(&mut self, need: usize) -> VmResult<()> {
        if need > limits::MAX_STACK_SLOTS {
            return Err(Throw::msg("stack overflow"));
        }
        // The value stack counts toward the memory cap: charge its growth before it happens
        // (capacity never shrinks, so each slot is charged once).
        let cap = self.stack.capacity();
        if need > cap {
            let new_cap = need.max(cap.saturating_mul(2)).min(limits::MAX_STACK_SLOTS);
            self.heap
                .meter
                .mem
                .charge((new_cap - cap) * std::mem::size_of::<Value>())?;
            self.stack.reserve_exact(new_cap - self.stack.len());
        }
        self.stack.resize(need, Value::Nil);
        Ok(())
    }

    /// Call the value at `func` with `nargs` arguments following it.
    pub(super) fn precall(
        &mut self,
        func: usize,
        nargs: usize,
        nresults: i32,
        kind: FrameKind,
    ) -> VmResult<CallRes> {
        match self.stack[func] {
            Value::Closure(c) => {
                if self.heap.closure(c).proto == self.prog.gmatch_iter {
                    // `string.gmatch`'s iterator: call the native with its state instead.
                    let (f, st) = (self.get_upval(c, 0), self.get_upval(c, 1));
                    self.ensure_stack(func + 2)?;
                    self.stack[func] = f;
                    self.stack[func + 1] = st;
                    return self.precall(func, 1, nresults, kind);
                }
                if self.frames.len() >= limits::MAX_FRAMES {
                    return Err(Throw::msg("stack overflow"));
                }
                let below = self.frames.last().map_or(0, |f| f.pdepth);
                let pdepth = below + u16::from(kind != FrameKind::Normal);
                if pdepth as usize > limits::MAX_PCALL_NESTING {
                    // Raised by pcall itself (a native in Lua): no position, like Lua.
                    let mut e = Throw::msg("C stack overflow");
                    if let Some(d) = e.error_mut() {
                        d.positioned = true;
                    }
                    return Err(e);
                }
                let prog = &self.prog;
                let pidx = self.heap.closure(c).proto;
                let p = &prog.protos[pidx as usize];
                let np = p.num_params as usize;
                let maxs = p.max_stack as usize;
                let (base, vb, nv) = if !p.is_vararg {
                    let base = func + 1;
                    let need = base + maxs + 1;
                    self.ensure_stack(need)?;
                    for i in nargs..np {
                        self.stack[base + i] = Value::Nil;
                    }
                    (base, base, 0)
                } else {
                    let nextra = nargs.saturating_sub(np);
                    let base = func + 1 + nargs;
                    self.ensure_stack(base + maxs + 1)?;
                    for i in 0..np {
                        self.stack[base + i] = if i < nargs {
                            self.stack[func + 1 + i]
                        } else {
                            Value::Nil
                        };
                    }
                    (base, func + 1 + np, nextra)
                };
                if self.frames.len() == self.frames.capacity() {
                    // Frames count toward the memory cap too (charged as the vector grows).
                    let cap = self.frames.capacity();
                    let new_cap = (cap * 2).clamp(16, limits::MAX_FRAMES);
                    self.heap
                        .meter
                        .mem
                        .charge((new_cap - cap) * std::mem::size_of::<Frame>())?;
                    self.frames.reserve_exact(new_cap - cap);
                }
                self.frames.push(Frame {
                    closure: c,
                    proto: pidx,
                    base,
                    pc: 0,
                    func,
                    nresults,
                    vararg_base: vb,
                    nvarargs: nv,
                    kind,
                    pdepth,
                });
                Ok(CallRes::Lua)
            }
            Value::Native(n) => {
                if Some(n) == self.pcall_ref || Some(n) == self.xpcall_ref {
                    return self.call_pcall(func, nargs, nresults, Some(n) == self.xpcall_ref);
                }
                let def = self.heap.native(n);
                let direct = std::mem::take(&mut self.direct_next);
                // In an inline stretch a native called from the main loop is restartable
                // until it changes Lua-visible state ([`Ctx::effects`], which also marks the
                // instruction `dirty` for an error it then raises).
                let on = self.inline_main_loop();
                self.heap.meter.dirty = false;
                let rets = {
                    let mut vm = restartable(self, on);
                    let mut cx = Ctx {
                        vm: &mut vm,
                        base: func + 1,
                        nargs,
                        name: def.name,
                        direct,
                    };
                    (def.f)(&mut cx)?
                };
                // `dirty` describes the instruction that fails, if any: this one did not.
                self.heap.meter.dirty = false;
                if kind != FrameKind::Normal {
                    // Direct native under pcall: prefix with true.
                    self.heap.meter.fuel -= (rets.len() / VALUES_PER_FUEL) as i64;
                    let mut v = Vec::with_capacity(rets.len() + 1);
                    v.push(Value::Bool(true));
                    for i in 0..rets.len() {
                        v.push(rets.get(i));
                    }
                    self.place(func - 1, &v, nresults);
                } else {
                    self.place_rets(func, rets, nresults)?;
                }
                Ok(CallRes::Done)
            }
            Value::HostFn(h) => {
                // Exporting the arguments is restartable work (nothing is pending yet).
                let on = self.inline_main_loop();
                let call = restartable(self, on).host_call(h, func, nargs)?;
                let dest = if kind != FrameKind::Normal {
                    func - 1
                } else {
                    func
                };
                self.pending = Some(Pending {
                    dest,
                    nresults,
                    pcall: kind != FrameKind::Normal,
                    handler: kind == FrameKind::XPCall,
                    location: call.location,
                    refused: call.refused.is_some(),
                });
                Ok(CallRes::Host(Box::new(call)))
            }
            other => match self.not_callable(other, func, CallSite::Native) {
                Ok(call) => Ok(CallRes::Host(Box::new(call))),
                Err(e) => Err(e),
            },
        }
    }

    pub(super) fn place_rets(&mut self, func: usize, rets: Rets, nresults: i32) -> VmResult<()> {
        match (&rets, nresults) {
            (Rets::One(v), 1) => {
                self.stack[func] = *v;
            }
            (Rets::Many(v), _) => {
                if v.len() > limits::MAX_STACK_SLOTS / 2 {
                    return Err(Throw::msg("too many results (stack overflow)"));
                }
                self.heap.meter.fuel -= (v.len() / VALUES_PER_FUEL) as i64;
                self.place(func, v, nresults);
            }
            _ => {
                let n = rets.len();
                let want = if nresults < 0 { n } else { nresults as usize };
                self.ensure_stack(func + want.max(n) + 1)?;
                for i in 0..want {
                    self.stack[func + i] = rets.get(i);
                }
                if nresults < 0 {
                    self.top = func + n;
                }
            }
        }
        Ok(())
    }

    /// `pcall(f, ...)` / `xpcall(f, h, ...)` where `f` (a builtin or a host function, called
    /// directly) failed with `e` before any Lua frame ran: uncatchable errors pass on; others
    /// become `false, message` (no position, like Lua), after the message handler for xpcall.
    pub(super) fn caught_directly(
        &mut self,
        e: Throw,
        func: usize,
        fslot: usize,
        nresults: i32,
        is_x: bool,
    ) -> VmResult<CallRes> {
        let mut d = match e {
            Throw::Error(d) if d.catchable => d,
            e => return Err(e),
        };
        d.positioned = true;
        let mut ev = self.error_value(&d)?;
        if is_x {
            let h = self.stack[func];
            ev = self.run_handler(fslot + 1, h, ev)?;
        }
        self.place(func, &[Value::Bool(false), ev], nresults);
        Ok(CallRes::Done)
    }

    pub(super) fn call_pcall(
        &mut self,
        func: usize,
        nargs: usize,
        nresults: i32,
        is_x: bool,
    ) -> VmResult<CallRes> {
        let name = if is_x { "xpcall" } else { "pcall" };
        if is_x && self.inline_main_loop() {
            // xpcall's message handler runs as a nested call that cannot be restarted: the
            // whole protected call runs off the caller's thread (nothing has changed yet).
            return Err(Throw::Restart);
        }
        if is_x && (nargs < 2 || !self.stack[func + 2].is_function()) {
            // Lua checks the handler before calling anything: `xpcall(f, 5)` is an error of
            // xpcall itself, not "error in error handling" after f fails.
            let got = if nargs < 2 {
                "no value"
            } else {
                self.stack[func + 2].type_name()
            };
            return Err(Throw::msg(format!(
                "bad argument #2 to 'xpcall' (function expected, got {got})"
            )));
        }
        if nargs == 0 {
            return Err(Throw::msg(format!(
                "bad argument #{} to '{}' (value expected)",
                nargs + 1,
                name
            )));
        }
        let (fslot, fargs) = if is_x {
            // xpcall(f, h, ...): rearrange to [h, f, args...] so the handler sits at func.
            let f = self.stack[func + 1];
            let h = self.stack[func + 2];
            self.stack[func] = h;
            self.stack[func + 1] = f;
            // shift args down by one
            self.heap.meter.fuel -= (nargs / VALUES_PER_FUEL) as i64;
            for i in 0..nargs - 2 {
                self.stack[func + 2 + i] = self.stack[func + 3 + i];
            }
            (func + 1, nargs - 2)
        } else {
            (func + 1, nargs - 1)
        };
        let kind = if is_x {
            FrameKind::XPCall
        } else {
            FrameKind::PCall
        };
        let callee = self.stack[fslot];
        match callee {
            Value::Closure(_) => self.precall(fslot, fargs, nresults, kind),
            Value::HostFn(_) => match self.precall(fslot, fargs, nresults, kind) {
                Ok(r) => Ok(r),
                // An argument that cannot cross to the host (a function, a cycle) fails the
                // call before it is made: `pcall` catches that like any error of the callee.
                Err(e) => self.caught_directly(e, func, fslot, nresults, is_x),
            },
            Value::Native(n) if Some(n) != self.pcall_ref && Some(n) != self.xpcall_ref => {
                self.direct_next = true;
                match self.precall(fslot, fargs, nresults, kind) {
                    Ok(r) => Ok(r),
                    Err(e) if e.error().is_some_and(|d| d.catchable) => {
                        let e = self.qualify_arg_error(e, n);
                        self.caught_directly(e, func, fslot, nresults, is_x)
                    }
                    Err(e) => Err(e),
                }
            }
            Value::Native(_) => {
                // pcall(pcall, f, ...): run the inner protected call as a nested call.
                let args: Vec<Value> = self.stack[fslot + 1..fslot + 1 + fargs].to_vec();
                // A nested call cannot be restarted: in a stretch, the whole call runs off the
                // caller's thread (nothing has changed yet).
                if self.inline_main_loop() {
                    return Err(Throw::Restart);
                }
                match self.call_nested(fslot + 1 + fargs, callee, &args, name) {
                    Ok(mut v) => {
                        v.insert(0, Value::Bool(true));
                        self.place(func, &v, nresults);
                    }
                    Err(Throw::Error(d)) if d.catchable => {
                        let ev = self.error_value(&d)?;
                        self.place(func, &[Value::Bool(false), ev], nresults);
                    }
                    Err(e) => return Err(e),
                }
                Ok(CallRes::Done)
            }
            other => {
                let site = CallSite::Pcall {
                    slot: fslot,
                    nresults,
                };
                match self.not_callable(other, func, site) {
                    Ok(call) => Ok(CallRes::Host(Box::new(call))),
                    Err(Throw::Error(d)) => {
                        let ev = self.error_value(&d)?;
                        self.place(func, &[Value::Bool(false), ev], nresults);
                        Ok(CallRes::Done)
                    }
                    Err(e) => Err(e),
                }
            }
        }
    }

    /// Calling `callee`, which is not a function, from `site`: the one place that words
    /// "attempt to call a ... value". A nil that came from a missed `tools` lookup gives `Ok`,
    /// a refused host call whose reply (the host's UnknownTool error) lands at `dest`; every
    /// other case gives the error to raise.
    pub(super) fn not_callable(
        &mut self,
        callee: Value,
        dest: usize,
        site: CallSite,
    ) -> Result<HostCall, Throw> {
        let plain = || Throw::msg(format!("attempt to call a {} value", callee.type_name()));
        match site {
            CallSite::Instr { reg, nresults } => {
                if callee.is_nil()
                    && let Some(call) = self.refuse_unknown_call(reg, dest, nresults, false)?
                {
                    return Ok(call);
                }
                if let Value::HostNs(h) = callee {
                    return Err(self.namespace_call_error(h));
                }
                let vi = self.varinfo(reg);
                Err(Throw::msg(format!(
                    "attempt to call a {} value{}{}",
                    callee.type_name(),
                    vi,
                    call_hint(&vi)
                )))
            }
            CallSite::Pcall { slot, nresults } => {
                let mut e = plain();
                // pcall(tools.orders.lookpu, ...): report the unknown tool.
                if let (true, Some(f)) = (callee.is_nil(), self.frames.last())
                    && slot >= f.base
                    && slot - f.base < 256
                {
                    let reg = (slot - f.base) as u8;
                    match self.refuse_unknown_call(reg, dest, nresults, true) {
                        Ok(Some(call)) => return Ok(call),
                        Ok(None) => {}
                        Err(u) => {
                            e = u;
                            // Like "attempt to call": pcall's own argument, no position.
                            if let Some(d) = e.error_mut() {
                                d.location = None;
                            }
                        }
                    }
                }
                if let Some(d) = e.error_mut() {
                    d.positioned = true;
                }
                Err(e)
            }
            CallSite::ForIterator => Err(Throw::msg(format!(
                "attempt to call a {} value (for iterator 'for iterator'){}",
                callee.type_name(),
                if matches!(callee, Value::Table(_)) {
                    FOR_TABLE_HINT
                } else {
                    ""
                }
            ))),
            CallSite::Native => Err(plain()),
        }
    }

    /// Call `f` with `args` from Rust (a nested dispatch loop), returning all results.
    /// `at` is a stack index above every live value.
    pub(crate) fn call_nested(
        &mut self,
        at: usize,
        f: Value,
        args: &[Value],
        name: &'static str,
    ) -> VmResult<Vec<Value>> {
        let at = self.call_nested_raw(at, f, args, name, MULTI)?;
        Ok(self.stack[at..self.nested_top].to_vec())
    }

    /// Like [`Vm::call_nested`] but only the first result (no allocation).
    pub(crate) fn call_nested1(
        &mut self,
        at: usize,
        f: Value,
        args: &[Value],
        name: &'static str,
    ) -> VmResult<Value> {
        let at = self.call_nested_raw(at, f, args, name, 1)?;
        Ok(self.stack[at])
    }

    /// Run a nested call; results stay at `stack[returned index..]` (`nested_top` ends them
    /// when `nres` is MULTI).
    pub(super) fn call_nested_raw(
        &mut self,
        at: usize,
        f: Value,
        args: &[Value],
        name: &'static str,
        nres: i32,
    ) -> VmResult<usize> {
        if self.heap.meter.restartable {
            // A callback may change anything: a restartable native that calls one runs off
            // the caller's thread instead (it has changed nothing yet).
            return Err(Throw::Restart);
        }
        if self.nested.len() >= limits::MAX_NATIVE_NESTING {
            return Err(Throw::msg("stack overflow (too many nested callbacks)"));
        }
        // A call from a native (sort comparator, xpcall handler, ...) costs fuel like a call
        // instruction; the overdraft check also reads the deadline, so a long native loop of
        // calls to a loop-free function is stopped too.
        self.heap.meter.fuel = self.heap.meter.fuel.saturating_sub(CALL_FUEL);
        if self.heap.meter.fuel < -(1 << 20) {
            self.overdraft()?;
        }
        let at = at.max(self.top.min(self.stack.len()));
        self.ensure_stack(at + args.len() + 2)?;
        self.stack[at] = f;
        self.stack[at + 1..at + 1 + args.len()].copy_from_slice(args);
        let saved_top = self.top;
        let depth = self.frames.len();
        self.nested.push(name);
        self.nested_frames.push(depth);
        self.direct_next = matches!(f, Value::Native(_));
        let r = (|| -> VmResult<usize> {
            match self.precall(at, args.len(), nres, FrameKind::Normal)? {
                CallRes::Lua => match self.run_until(depth)? {
                    Exit::Returned => {}
                    Exit::Yield => return Err(Throw::msg("internal error: yield in nested call")),
                    Exit::Host(_) => {
                        return Err(Throw::msg("internal error: host call in nested call"));
                    }
                },
                CallRes::Done => {}
                CallRes::Host(_) => {
                    return Err(Throw::msg("internal error: host call in nested call"));
                }
            }
            if nres < 0 {
                self.nested_top = self.top;
            }
            Ok(at)
        })();
        self.nested.pop();
        self.nested_frames.pop();
        let r = match (r, f) {
            // A builtin called directly by a builtin (`string.gsub(s, p, string.rep)`): its own
            // error names it as Lua does (`'string.rep'`) and gets no position (errors from
            // Lua code it called are positioned already).
            (Err(e), Value::Native(n))
                if e.error().is_some_and(|d| d.catchable && !d.positioned) =>
            {
                let mut e = self.qualify_arg_error(e, n);
                if let Some(d) = e.error_mut() {
                    d.bare = true;
                }
                Err(e)
            }
            (r, _) => r,
        };
        if r.is_err() {
            // Unwind any frames the nested call left.
            if self.frames.len() > depth {
                let f = self.frames[depth];
                self.close_upvals(f.func);
                self.frames.truncate(depth);
            }
        }
        self.top = saved_top;
        r
    }
}
