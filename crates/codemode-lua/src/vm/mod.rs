//! The stackless register VM.
//!
//! Lua-to-Lua calls push a `Frame` on a heap `Vec` and continue in the same dispatch loop; the
//! Rust stack never grows with guest recursion. `pcall`/`xpcall` mark their frame as protected;
//! an error unwinds the frame `Vec` to the nearest protected frame. A host call (tool, `search`,
//! extension) suspends the loop (`Exit::Host`) and the machine later resumes with the reply.
//!
//! Natives (Rust functions, see [`NativeFn`]) get a [`Ctx`] with their arguments and return
//! [`Rets`]. A native may call back into Lua with [`Ctx::call1`] (a nested dispatch loop, bounded
//! by `limits::MAX_NATIVE_NESTING`); host calls are refused there.
//!
//! ## Design notes
//! - Instructions: [`crate::proto::Op`], an 8-byte `Copy` enum; registers are `Value`s in one
//!   `Vec<Value>` (the value stack) addressed as `base + register`.
//! - Fuel: charged at backward jumps (weighted by the loop body's length), calls, and by natives
//!   for their work. When the slice given to `Machine::run` is used up the loop returns
//!   `Exit::Yield` at an instruction boundary (the instruction re-executes on resume). Inside a
//!   nested run (a native calling Lua) it cannot yield, so it checks the total fuel cap and the
//!   optional deadline instead.
//! - Errors: [`Throw`] values. Catchable ones unwind the frame `Vec` to the nearest `pcall`
//!   frame; a message gets its position as `input:LINE:COLUMN: ` when `pcall` converts it to a
//!   Lua string. Uncatchable ones (limits, timeouts, aborts) unwind everything.
//! - GC: [`Heap::collect`] runs at safe points of the dispatch loop (table/closure creation,
//!   concatenation, after a native returns) when the allocation debt is due, never while a
//!   native runs. Roots: the whole value stack, constants, globals, frames' closures, open
//!   upvalues, pinned values and host objects.

use std::sync::Arc;

use crate::heap::{Heap, HostKind, UpvalRef};
use crate::limits;
use crate::proto::{ArithOp, Const, Op, ProgramData};
use crate::value::{
    ClosureRef, FOR_TABLE_HINT, HostRef, NativeRef, TableRef, Throw, Value, VmResult,
    float_to_int_exact,
};
use crate::{CallId, CallMode, ErrorKind, GuestError, HostCall, HostTarget, Location, MissingTool};

mod arith;
mod ctx;
mod errors;
mod index;
mod meter;
mod roots;
mod upvals;

use arith::arith_fast;
pub use arith::{str_to_number, to_number, tostring_text};
pub use ctx::{Ctx, NativeFn, Rets};
use errors::{call_hint, find_setreg};
use meter::{CALL_FUEL, VALUES_PER_FUEL};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FrameKind {
    Normal,
    /// Called by `pcall`: results get a `true` prefix at `func - 1`; errors stop here.
    PCall,
    /// Called by `xpcall`: like PCall, the handler sits at `func - 1` until the call ends.
    XPCall,
}

#[derive(Clone, Copy, Debug)]
struct Frame {
    closure: ClosureRef,
    proto: u32,
    base: usize,
    /// Next instruction to execute.
    pc: usize,
    /// The function slot; results are written here (PCall: from `func - 1`).
    func: usize,
    /// Results wanted by the caller (-1: all).
    nresults: i32,
    vararg_base: usize,
    nvarargs: usize,
    kind: FrameKind,
    /// Protected (`pcall`/`xpcall`) frames at or below this one: bounded by
    /// `limits::MAX_PCALL_NESTING` like Lua's C stack, so `return pcall(f)` recursion (whose
    /// results grow by one value per level) stays small.
    pdepth: u16,
}

/// Why the dispatch loop stopped.
#[derive(Debug)]
pub(crate) enum Exit {
    /// The entry frame returned (results at its function slot; `top` set).
    Returned,
    /// Fuel slice used up.
    Yield,
    /// A host call suspends the machine.
    Host(HostCall),
}

/// The call waiting for a host reply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    /// Where the result goes.
    pub dest: usize,
    pub nresults: i32,
    /// Called directly through `pcall`: results get a true/false prefix at `dest`.
    pub pcall: bool,
    pub location: Option<Location>,
    /// A call the machine refused ([`HostCall::refused`]): the host's error reply is raised like
    /// the machine's own error (position prefix when a `pcall` catches it).
    pub refused: bool,
}

/// A `tools` key that did not exist, remembered to turn a later call/index on the resulting nil
/// into an UnknownTool error.
#[derive(Clone, Debug)]
struct Miss {
    depth: usize,
    pc: usize,
    path: String,
    /// The ToolFailure message when `path` lies under an unavailable namespace (computed once,
    /// when the lookup missed, so the host's `on_call` hook runs once); raised at call time.
    unavailable: Option<String>,
}

enum CallRes {
    Lua,
    Done,
    Host(HostCall),
}

/// The virtual machine state of one execution.
pub struct Vm {
    pub heap: Heap,
    pub stack: Vec<Value>,
    frames: Vec<Frame>,
    open_upvals: Vec<(usize, UpvalRef)>,
    /// The globals table.
    pub globals: TableRef,
    /// The `string` library table (indexing a string value looks here).
    pub string_lib: Option<TableRef>,
    prog: Arc<ProgramData>,
    kflat: Vec<Value>,
    top: usize,
    /// Fuel left in the current slice (natives charge it with [`Ctx::charge`]).
    pub fuel: i64,
    slice: i64,
    fuel_used: u64,
    pcall_ref: Option<NativeRef>,
    xpcall_ref: Option<NativeRef>,
    next_ref: Option<NativeRef>,
    /// Names of natives currently calling back into Lua.
    nested: Vec<&'static str>,
    pub(crate) pending: Option<Pending>,
    pub(crate) pending_error: Option<Throw>,
    miss: Option<Miss>,
    miss_flag: Option<String>,
    /// The host's missing-tool policy (from `Env::missing`).
    pub(crate) missing: Option<Arc<dyn MissingTool>>,
    /// Suggestion lookups made so far (at most [`limits::MAX_SUGGESTION_LOOKUPS`]).
    suggest_lookups: std::sync::atomic::AtomicU32,
    /// Number of tool paths the host has (fuel of an unknown-tool error, see
    /// [`limits::SUGGESTION_FUEL_PER_TOOL`]).
    pub(crate) tool_count: usize,
    /// Optional wall-clock deadline checked inside nested (non-yielding) runs.
    pub deadline: Option<std::time::Instant>,
    /// Total fuel this execution may use (at most `limits::MAX_TOTAL_FUEL`).
    pub fuel_cap: u64,
    /// Values pinned as GC roots by the embedder (e.g. boundary).
    pub pinned: Vec<Value>,
    /// The iterator function `ipairs` returns.
    pub ipairs_iter: Value,
    /// The next native call is made directly by pcall or a native (no Lua caller line).
    direct_next: bool,
    /// End of the results of the last nested call with all results.
    nested_top: usize,
    /// The main chunk ended by running off its end (its implicit final `return`), not by a
    /// `return` statement.
    pub(crate) fell_off: bool,
}

const MULTI: i32 = -1;

impl Vm {
    /// A VM for `prog` with an empty globals table and memory cap `mem_cap` bytes.
    pub fn new(prog: Arc<ProgramData>, mem_cap: usize) -> VmResult<Vm> {
        let mut heap = Heap::new(mem_cap);
        let globals = heap.new_table(0, 64)?;
        let mut kflat = Vec::with_capacity(prog.num_consts);
        for p in &prog.protos {
            for k in &p.consts {
                kflat.push(match k {
                    Const::Int(i) => Value::Int(*i),
                    Const::Float(f) => Value::Float(*f),
                    Const::Str(s) => Value::Str(heap.intern(s)?),
                });
            }
        }
        Ok(Vm {
            heap,
            stack: Vec::with_capacity(256),
            frames: Vec::with_capacity(16),
            open_upvals: Vec::new(),
            globals,
            string_lib: None,
            prog,
            kflat,
            top: 0,
            fuel: 0,
            slice: 0,
            fuel_used: 0,
            pcall_ref: None,
            xpcall_ref: None,
            next_ref: None,
            nested: Vec::new(),
            pending: None,
            pending_error: None,
            miss: None,
            miss_flag: None,
            missing: None,
            suggest_lookups: std::sync::atomic::AtomicU32::new(0),
            tool_count: 0,
            deadline: None,
            fuel_cap: limits::MAX_TOTAL_FUEL,
            pinned: Vec::new(),
            ipairs_iter: Value::Nil,
            direct_next: false,
            nested_top: 0,
            fell_off: false,
        })
    }

    /// A new VM for `prog` whose globals and heap are a copy of this (template) VM's, with
    /// memory cap `mem_cap`. Used to start each machine from a prepared standard library.
    pub fn fork(&self, prog: Arc<ProgramData>, mem_cap: usize) -> VmResult<Vm> {
        let mut heap = self.heap.clone();
        heap.mem.cap = mem_cap;
        heap.mem.check(0)?;
        // The program's code and the flat constant vector are held for the whole execution.
        heap.mem.hold(
            prog.retained_bytes
                + crate::heap::alloc_bytes(prog.num_consts * std::mem::size_of::<Value>()),
        )?;
        let mut kflat = Vec::with_capacity(prog.num_consts);
        for p in &prog.protos {
            for k in &p.consts {
                kflat.push(match k {
                    Const::Int(i) => Value::Int(*i),
                    Const::Float(f) => Value::Float(*f),
                    Const::Str(s) => Value::Str(heap.intern(s)?),
                });
            }
        }
        Ok(Vm {
            heap,
            stack: Vec::with_capacity(256),
            frames: Vec::with_capacity(16),
            open_upvals: Vec::new(),
            globals: self.globals,
            string_lib: self.string_lib,
            prog,
            kflat,
            top: 0,
            fuel: 0,
            slice: 0,
            fuel_used: 0,
            pcall_ref: self.pcall_ref,
            xpcall_ref: self.xpcall_ref,
            next_ref: self.next_ref,
            nested: Vec::new(),
            pending: None,
            pending_error: None,
            miss: None,
            miss_flag: None,
            missing: None,
            suggest_lookups: std::sync::atomic::AtomicU32::new(0),
            tool_count: 0,
            deadline: None,
            fuel_cap: limits::MAX_TOTAL_FUEL,
            pinned: self.pinned.clone(),
            ipairs_iter: self.ipairs_iter,
            direct_next: false,
            nested_top: 0,
            fell_off: false,
        })
    }

    /// Register the natives the VM treats specially (`pcall`, `xpcall`, `next`).
    pub fn set_special(&mut self, pcall: Value, xpcall: Value, next: Value) {
        if let Value::Native(n) = pcall {
            self.pcall_ref = Some(n);
        }
        if let Value::Native(n) = xpcall {
            self.xpcall_ref = Some(n);
        }
        if let Value::Native(n) = next {
            self.next_ref = Some(n);
        }
    }

    /// The `next` native (what `pairs` returns).
    pub fn next_fn(&self) -> Value {
        self.next_ref.map(Value::Native).unwrap_or(Value::Nil)
    }

    /// Set a global variable.
    pub fn set_global(&mut self, name: &str, v: Value) -> VmResult<()> {
        let g = self.globals;
        self.heap.table_set_field(g, name, v)
    }

    /// Get a global variable.
    pub fn get_global(&self, name: &str) -> Value {
        self.heap.table_get_field(self.globals, name)
    }

    /// Create a library table of natives, store it as global `lib`, return it.
    pub fn new_lib(&mut self, lib: &str, funcs: &[(&'static str, NativeFn)]) -> VmResult<TableRef> {
        let t = self.heap.new_table(0, funcs.len())?;
        for (name, f) in funcs {
            let v = self.heap.register_native(name, *f);
            if let Value::Native(n) = v {
                self.heap
                    .set_native_qualified(n, &format!("{}.{}", lib, name));
            }
            self.heap.table_set_field(t, name, v)?;
        }
        self.set_global(lib, Value::Table(t))?;
        Ok(t)
    }

    // ------------------------------------------------------------------------------------------
    // Entry points
    // ------------------------------------------------------------------------------------------

    /// Prepare the main chunk (proto 0) as the first frame.
    pub(crate) fn start_main(&mut self) -> VmResult<()> {
        let c = self.heap.new_closure(0, Box::new([]))?;
        self.stack.clear();
        self.stack.push(Value::Closure(c));
        self.top = 1;
        match self.precall(0, 0, MULTI, FrameKind::Normal)? {
            CallRes::Lua => Ok(()),
            _ => Err(Throw::msg("main chunk is not a Lua function")),
        }
    }

    /// Run until the frame stack drops to `stop` frames, a yield, or a host call.
    pub(crate) fn run_until(&mut self, stop: usize) -> VmResult<Exit> {
        loop {
            let r = match self.execute(stop) {
                Ok(x) => return Ok(x),
                // An error an `xpcall` would catch in an inline stretch: its message handler
                // cannot be restarted, so the failing instruction runs again off the
                // caller's thread and fails there (see `handle_error`).
                Err(e) => match self.handle_error(e, stop, stop == 0) {
                    Ok(()) => Ok(()),
                    Err(e) => Err(e),
                },
            };
            match r {
                Ok(()) => {
                    if self.frames.len() == stop {
                        return Ok(Exit::Returned);
                    }
                }
                Err(e) if e.is_migrate() => {
                    // A restartable step of an inline stretch ran out of time (see
                    // `InlineState`). It started at the current instruction of the top frame
                    // (its pc was saved past it) and changed nothing visible: point back at
                    // it and yield; it runs again from the start.
                    debug_assert_eq!(stop, 0, "migrate inside a nested run");
                    if let Some(f) = self.frames.last_mut() {
                        f.pc = f.pc.saturating_sub(1);
                    }
                    self.heap.inline.restartable = false;
                    self.heap.inline.wants_pool = true;
                    // What the abandoned attempt allocated is garbage: collect it before the
                    // step runs again (see `Machine::run`), so it cannot count twice against
                    // the memory cap.
                    self.heap.abandoned_step();
                    return Ok(Exit::Yield);
                }
                Err(e) => return Err(e),
            }
        }
    }

    pub(crate) fn in_xpcall(&self) -> bool {
        self.frames.iter().any(|f| f.kind == FrameKind::XPCall)
    }

    /// The results of the finished main chunk.
    pub(crate) fn main_results(&self) -> &[Value] {
        let end = self.top.min(self.stack.len());
        &self.stack[0..end]
    }

    /// Raise `e` at the current point (used for host errors delivered by `resume`).
    pub(crate) fn raise_pending(&mut self) -> VmResult<()> {
        if let Some(e) = self.pending_error.take() {
            self.handle_error(e, 0, false)?;
        }
        Ok(())
    }

    /// Deliver a host call's result values.
    pub(crate) fn deliver(&mut self, p: Pending, ok: bool, v: Value) {
        if p.pcall {
            self.place(p.dest, &[Value::Bool(ok), v], p.nresults);
        } else {
            self.place(p.dest, &[v], p.nresults);
        }
    }

    fn place(&mut self, dest: usize, vals: &[Value], nresults: i32) {
        let n = vals.len();
        let want = if nresults < 0 { n } else { nresults as usize };
        let need = dest + want.max(n) + 1;
        if self.stack.len() < need {
            self.stack.resize(need, Value::Nil);
        }
        for (i, slot) in self.stack[dest..dest + want].iter_mut().enumerate() {
            *slot = vals.get(i).copied().unwrap_or(Value::Nil);
        }
        if nresults < 0 {
            self.top = dest + n;
        }
    }

    // ------------------------------------------------------------------------------------------
    // Errors
    // ------------------------------------------------------------------------------------------

    /// Unwind to the nearest `pcall`/`xpcall` frame above `stop` and place `false, message`
    /// there (running an `xpcall` message handler first), or return the error.
    ///
    /// `may_rewind`: the error comes from the current instruction of the top frame. In an
    /// inline stretch, when an `xpcall` would catch it and that instruction changed nothing
    /// visible (no [`Ctx::effects`] in a native), [`Throw::migrate`] is returned instead, with
    /// nothing unwound: the instruction runs again off the caller's thread, fails the same way,
    /// and the handler (a nested call that cannot be restarted) runs there.
    fn handle_error(&mut self, mut e: Throw, stop: usize, may_rewind: bool) -> VmResult<()> {
        if e.is_migrate() {
            return Err(e);
        }
        if !e.0.positioned && e.0.location.is_none() {
            e.0.location = self.current_location();
        }
        e.0.positioned = true;
        if !e.0.catchable {
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
        if fr.kind == FrameKind::XPCall
            && may_rewind
            && self.heap.inline.until.is_some()
            && !self.heap.inline.dirty
        {
            return Err(Throw::migrate());
        }
        self.close_upvals(fr.func);
        self.frames.truncate(i);
        let mut ev = self.error_value(&e)?;
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
    fn run_handler(&mut self, at: usize, handler: Value, mut ev: Value) -> VmResult<Value> {
        for _ in 0..limits::MAX_ERROR_HANDLER_CALLS {
            match self.call_nested(at, handler, &[ev], "xpcall") {
                Ok(vals) => return Ok(vals.first().copied().unwrap_or(Value::Nil)),
                Err(e) => {
                    if !e.0.catchable {
                        return Err(e);
                    }
                    ev = self.error_value(&e)?;
                }
            }
        }
        self.heap.new_str(b"error in error handling")
    }

    /// If register `reg` got its nil from a missed `tools` lookup, the UnknownTool error for
    /// `path` (+ `extra` segment).
    fn unknown_tool_for(&self, reg: u8, extra: Option<String>) -> Option<Throw> {
        let m = self.miss.as_ref()?;
        let f = self.frames.last()?;
        if m.depth != self.frames.len() {
            return None;
        }
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        let setpc = find_setreg(p, pc, reg)?;
        if setpc != m.pc {
            return None;
        }
        let path = match extra {
            Some(x) => format!("{}.{}", m.path, x),
            None => {
                if let Some(msg) = &m.unavailable {
                    // Positioned where the lookup was written (`tools.down.x`), as before.
                    let mut t = Throw::with_kind(ErrorKind::ToolFailure, msg.clone());
                    t.0.location = p.pos.get(m.pc).map(|pos| Location {
                        line: pos.line,
                        column: pos.column,
                    });
                    return Some(t);
                }
                m.path.clone()
            }
        };
        Some(self.unknown_tool(&path))
    }

    /// Indexing the nil of a missed `tools` lookup in register `reg` with `key`
    /// (`tools.down.x` where namespace `down` is unavailable): when the extended path lies under
    /// an unavailable namespace, remember it (with the ToolFailure message) for the instruction
    /// before `pc` and yield nil, so the error is raised when the value is called and
    /// `pcall(tools.down.x, {})` catches it like an unknown tool.
    fn defer_unavailable(&mut self, reg: u8, key: &str, fi: usize, pc: usize) -> bool {
        let Some(f) = self.missing.as_ref() else {
            return false;
        };
        let Some(m) = self.miss.as_ref() else {
            return false;
        };
        let Some(fr) = self.frames.last() else {
            return false;
        };
        if m.depth != self.frames.len() || m.depth != fi + 1 {
            return false;
        }
        let p = &self.prog.protos[fr.proto as usize];
        let cur = pc.saturating_sub(1);
        if find_setreg(p, cur, reg) != Some(m.pc) {
            return false;
        }
        let path = format!("{}.{}", m.path, key);
        let e = f.missing(&path, false);
        if e.kind != ErrorKind::ToolFailure {
            return false;
        }
        let msg = e.message;
        self.miss = Some(Miss {
            depth: fi + 1,
            pc: cur,
            path,
            unavailable: Some(msg),
        });
        true
    }

    /// Calling a namespace (`tools.orders(...)`): say which tools it holds.
    fn namespace_call_error(&self, h: HostRef) -> Throw {
        let obj = self.heap.host(h);
        let mut names: Vec<String> = obj
            .children
            .iter()
            .take(5)
            .map(|(k, _)| self.heap.str_lossy(*k))
            .collect();
        names.sort();
        let path = if obj.path.is_empty() {
            "tools".to_string()
        } else {
            format!("tools.{}", obj.path)
        };
        let example = names
            .first()
            .map(|n| format!(" (e.g. {}.{}({{ ... }}))", path, n))
            .unwrap_or_default();
        Throw::msg(format!(
            "{} is a namespace, not a tool; call one of its tools{}; it contains: {}",
            path,
            example,
            names.join(", ")
        ))
    }

    /// The error for calling the missing tool `path`, in the host's words ([`MissingTool`]):
    /// `UnknownTool` with suggestions (ranked for the first [`limits::MAX_SUGGESTION_LOOKUPS`]
    /// errors of the run only), or `ToolFailure` under an unavailable namespace.
    fn unknown_tool(&self, path: &str) -> Throw {
        let Some(missing) = &self.missing else {
            return Throw::with_kind(
                ErrorKind::UnknownTool,
                format!("unknown tool 'tools.{path}': no tool has this path"),
            );
        };
        let lookups = self
            .suggest_lookups
            .load(std::sync::atomic::Ordering::Relaxed);
        let rank = lookups < limits::MAX_SUGGESTION_LOOKUPS;
        if rank {
            self.suggest_lookups
                .store(lookups + 1, std::sync::atomic::Ordering::Relaxed);
        }
        let e = missing.missing(path, rank);
        let mut t = Throw::with_kind(e.kind, e.message);
        t.0.suggestions = e.suggestions;
        t
    }

    // ------------------------------------------------------------------------------------------
    // Calls
    // ------------------------------------------------------------------------------------------

    #[inline]
    fn ensure_stack(&mut self, need: usize) -> VmResult<()> {
        if need > self.stack.len() {
            if need > limits::MAX_STACK_SLOTS {
                return Err(Throw::msg("stack overflow"));
            }
            // The value stack counts toward the memory cap: charge its growth before it happens
            // (capacity never shrinks, so each slot is charged once).
            let cap = self.stack.capacity();
            if need > cap {
                let new_cap = need.max(cap.saturating_mul(2)).min(limits::MAX_STACK_SLOTS);
                self.heap
                    .mem
                    .charge((new_cap - cap) * std::mem::size_of::<Value>())?;
                self.stack.reserve_exact(new_cap - self.stack.len());
            }
            self.stack.resize(need, Value::Nil);
        }
        Ok(())
    }

    /// Call the value at `func` with `nargs` arguments following it.
    fn precall(
        &mut self,
        func: usize,
        nargs: usize,
        nresults: i32,
        kind: FrameKind,
    ) -> VmResult<CallRes> {
        match self.stack[func] {
            Value::Closure(c) => {
                if self.frames.len() >= limits::MAX_FRAMES {
                    return Err(Throw::msg("stack overflow"));
                }
                let below = self.frames.last().map_or(0, |f| f.pdepth);
                let pdepth = below + u16::from(kind != FrameKind::Normal);
                if pdepth as usize > limits::MAX_PCALL_NESTING {
                    // Raised by pcall itself (a native in Lua): no position, like Lua.
                    let mut e = Throw::msg("C stack overflow");
                    e.0.positioned = true;
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
                // until it changes Lua-visible state ([`Ctx::effects`]).
                self.heap.inline.restartable = self.inline_main_loop();
                self.heap.inline.dirty = false;
                let rets = {
                    let mut cx = Ctx {
                        vm: self,
                        base: func + 1,
                        nargs,
                        name: def.name,
                        direct,
                    };
                    (def.f)(&mut cx)
                };
                self.heap.inline.restartable = false;
                let rets = rets?;
                // `dirty` describes the instruction that fails, if any: this one did not.
                self.heap.inline.dirty = false;
                if kind != FrameKind::Normal {
                    // Direct native under pcall: prefix with true.
                    self.fuel -= (rets.len() / VALUES_PER_FUEL) as i64;
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
                self.heap.inline.restartable = self.inline_main_loop();
                let call = self.host_call(h, func, nargs);
                self.heap.inline.restartable = false;
                let call = call?;
                if let (Some(r), FrameKind::XPCall) = (&call.refused, kind) {
                    // `xpcall(tools.x, handler, bad)`: the handler must see the error, which a
                    // direct host reply cannot give it; raised here as before (not counted).
                    return Err(Throw::with_kind(r.kind, r.message.clone()));
                }
                let dest = if kind != FrameKind::Normal {
                    func - 1
                } else {
                    func
                };
                self.pending = Some(Pending {
                    dest,
                    nresults,
                    pcall: kind != FrameKind::Normal,
                    location: call.location,
                    refused: call.refused.is_some(),
                });
                Ok(CallRes::Host(call))
            }
            other => Err(Throw::msg(format!(
                "attempt to call a {} value",
                other.type_name()
            ))),
        }
    }

    fn place_rets(&mut self, func: usize, rets: Rets, nresults: i32) -> VmResult<()> {
        match (&rets, nresults) {
            (Rets::One(v), 1) => {
                self.stack[func] = *v;
            }
            (Rets::Many(v), _) => {
                if v.len() > limits::MAX_STACK_SLOTS / 2 {
                    return Err(Throw::msg("too many results (stack overflow)"));
                }
                self.fuel -= (v.len() / VALUES_PER_FUEL) as i64;
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
    fn caught_directly(
        &mut self,
        mut e: Throw,
        func: usize,
        fslot: usize,
        nresults: i32,
        is_x: bool,
    ) -> VmResult<CallRes> {
        if !e.0.catchable {
            return Err(e);
        }
        e.0.positioned = true;
        let mut ev = self.error_value(&e)?;
        if is_x {
            let h = self.stack[func];
            ev = self.run_handler(fslot + 1, h, ev)?;
        }
        self.place(func, &[Value::Bool(false), ev], nresults);
        Ok(CallRes::Done)
    }

    fn call_pcall(
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
            return Err(Throw::migrate());
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
            self.fuel -= (nargs / VALUES_PER_FUEL) as i64;
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
                    Err(e) if e.0.catchable => {
                        let e = self.qualify_arg_error(e, n);
                        self.caught_directly(e, func, fslot, nresults, is_x)
                    }
                    Err(e) => Err(e),
                }
            }
            Value::Native(_) => {
                // pcall(pcall, f, ...): run the inner protected call as a nested call.
                let args: Vec<Value> = self.stack[fslot + 1..fslot + 1 + fargs].to_vec();
                // Restartable up to the nested call, which then asks for the blocking pool.
                self.heap.inline.restartable = self.inline_main_loop();
                match self.call_nested(fslot + 1 + fargs, callee, &args, name) {
                    Ok(mut v) => {
                        v.insert(0, Value::Bool(true));
                        self.place(func, &v, nresults);
                    }
                    Err(e) => {
                        if !e.0.catchable {
                            return Err(e);
                        }
                        let ev = self.error_value(&e)?;
                        self.place(func, &[Value::Bool(false), ev], nresults);
                    }
                }
                Ok(CallRes::Done)
            }
            other => {
                let msg = format!("attempt to call a {} value", other.type_name());
                let mut e = Throw::msg(msg);
                // pcall(tools.orders.lookpu, ...): report the unknown tool.
                if let (true, Some(f)) = (other.is_nil(), self.frames.last())
                    && fslot >= f.base
                    && fslot - f.base < 256
                {
                    let reg = (fslot - f.base) as u8;
                    match self.refuse_unknown_call(reg, func, nresults, true) {
                        Ok(Some(call)) => return Ok(CallRes::Host(call)),
                        Ok(None) => {}
                        Err(u) => {
                            e = u;
                            // Like "attempt to call": pcall's own argument, no position.
                            e.0.location = None;
                        }
                    }
                }
                e.0.positioned = true;
                let ev = self.error_value(&e)?;
                self.place(func, &[Value::Bool(false), ev], nresults);
                Ok(CallRes::Done)
            }
        }
    }

    /// Build the suspension for a host function call.
    fn host_call(&mut self, h: HostRef, func: usize, nargs: usize) -> VmResult<HostCall> {
        let obj = self.heap.host(h).clone();
        let target = match obj.kind {
            HostKind::Node { .. } => HostTarget::Tool(obj.path.clone()),
            HostKind::Search => HostTarget::Search,
            HostKind::Extension => HostTarget::Extension(obj.path.clone()),
        };
        if let Some(name) = self.nested.last() {
            let what = match &target {
                HostTarget::Tool(p) => format!("a tool (tools.{})", p),
                HostTarget::Search => "search".to_string(),
                HostTarget::Extension(p) => format!("'{}'", p),
            };
            return Err(Throw::msg(format!(
                "cannot call {} from inside a {} callback; call it outside (e.g. before sorting) and use the results",
                what, name
            )));
        }
        if let (HostTarget::Tool(p), true) = (&target, nargs >= 1)
            && matches!(self.stack[func + 1], Value::HostNs(_) | Value::HostFn(_))
        {
            let (ns, name) = p.rsplit_once('.').unwrap_or(("", p));
            return Err(Throw::msg(format!(
                "tools are called with '.', not ':': write tools.{}.{}({{ ... }}) instead of tools.{}:{}(...)",
                ns, name, ns, name
            )));
        }
        let mut n = nargs;
        while n > 0 && self.stack[func + n].is_nil() {
            n -= 1;
        }
        let mut args = Vec::with_capacity(n);
        let mut exported_bytes = 0usize;
        for i in 0..n {
            let v = self.stack[func + 1 + i];
            let root = if n == 1 {
                "input".to_string()
            } else {
                format!("argument #{}", i + 1)
            };
            let mut work = 0u64;
            let exported = crate::boundary::export_counted(
                &self.heap,
                v,
                &root,
                &mut work,
                &mut exported_bytes,
            );
            self.fuel -= work as i64;
            match exported {
                Ok(j) => args.push(j),
                // An argument that cannot cross (a function, a cycle): the call is refused, but
                // it still reaches the host as an attempt, counted and listed (issue 10).
                Err(e) if e.0.catchable && !e.is_migrate() => {
                    for j in args.drain(..) {
                        crate::boundary::drop_json(j);
                    }
                    let location = self.current_location();
                    return Ok(HostCall {
                        id: CallId(0),
                        target,
                        args,
                        location,
                        mode: CallMode::Suspend,
                        refused: Some(refusal(e, location)),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        let location = self.current_location();
        Ok(HostCall {
            id: CallId(0),
            target,
            args,
            location,
            mode: CallMode::Suspend,
            refused: None,
        })
    }

    /// Charge the work of an unknown-tool error: the host compared the path with each tool.
    fn charge_unknown_tool(&mut self) {
        let n = (self.tool_count as i64).saturating_add(1);
        self.fuel -= n.saturating_mul(limits::SUGGESTION_FUEL_PER_TOOL);
    }

    /// A call of the nil in the stack slot `func` that came from a missed `tools` lookup:
    /// `Some` refused host call for the unknown path (the host counts the attempt and answers
    /// with the error), with the pending reply set to land at `dest`. `None` when the nil did
    /// not come from `tools`; `Err` for a path under an unavailable namespace (raised as is).
    fn refuse_unknown_call(
        &mut self,
        reg: u8,
        dest: usize,
        nresults: i32,
        pcall: bool,
    ) -> VmResult<Option<HostCall>> {
        let Some(e) = self.unknown_tool_for(reg, None) else {
            return Ok(None);
        };
        self.charge_unknown_tool();
        if e.0.kind != ErrorKind::UnknownTool || !self.nested.is_empty() {
            // Inside a builtin's callback (a sort comparator, a gsub function) no host call
            // can suspend the machine: the error is raised here, as before.
            return Err(e);
        }
        let path = self
            .miss
            .as_ref()
            .map(|m| m.path.clone())
            .unwrap_or_default();
        let location = if pcall { None } else { self.current_location() };
        self.pending = Some(Pending {
            dest,
            nresults,
            pcall,
            location,
            refused: true,
        });
        Ok(Some(HostCall {
            id: CallId(0),
            target: HostTarget::Tool(path),
            args: Vec::new(),
            location,
            mode: CallMode::Suspend,
            refused: Some(refusal(e, location)),
        }))
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
    fn call_nested_raw(
        &mut self,
        at: usize,
        f: Value,
        args: &[Value],
        name: &'static str,
        nres: i32,
    ) -> VmResult<usize> {
        if self.heap.inline.restartable {
            // A callback may change anything: a restartable native that calls one runs off
            // the caller's thread instead (it has changed nothing yet).
            return Err(Throw::migrate());
        }
        if self.nested.len() >= limits::MAX_NATIVE_NESTING {
            return Err(Throw::msg("stack overflow (too many nested callbacks)"));
        }
        // A call from a native (sort comparator, xpcall handler, ...) costs fuel like a call
        // instruction; the overdraft check also reads the deadline, so a long native loop of
        // calls to a loop-free function is stopped too.
        self.fuel = self.fuel.saturating_sub(CALL_FUEL);
        if self.fuel < -(1 << 20) {
            self.overdraft()?;
        }
        let at = at.max(self.top.min(self.stack.len()));
        self.ensure_stack(at + args.len() + 2)?;
        self.stack[at] = f;
        self.stack[at + 1..at + 1 + args.len()].copy_from_slice(args);
        let saved_top = self.top;
        let depth = self.frames.len();
        self.nested.push(name);
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

    // ------------------------------------------------------------------------------------------
    // The dispatch loop
    // ------------------------------------------------------------------------------------------

    fn execute(&mut self, stop: usize) -> VmResult<Exit> {
        let prog = self.prog.clone();
        'frame: loop {
            let fi = self.frames.len() - 1;
            let fr = self.frames[fi];
            let base = fr.base;
            let cl = fr.closure;
            let proto = &prog.protos[fr.proto as usize];
            let code = &proto.code[..];
            let kb = proto.k_offset as usize;
            let mut pc = fr.pc;

            macro_rules! r {
                ($x:expr) => {
                    self.stack[base + $x as usize]
                };
            }
            macro_rules! k {
                ($x:expr) => {
                    self.kflat[kb + $x as usize]
                };
            }
            macro_rules! save {
                () => {
                    self.frames[fi].pc = pc;
                };
            }
            macro_rules! tri {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(e) => {
                            self.frames[fi].pc = pc;
                            return Err(e);
                        }
                    }
                };
            }
            macro_rules! fail {
                ($e:expr) => {{
                    self.frames[fi].pc = pc;
                    return Err($e);
                }};
            }

            // Fuel is charged where execution can repeat (backward jumps, calls), weighted by
            // the number of instructions repeated, so straight-line code costs nothing extra
            // and every loop or recursion still reaches a yield point.
            macro_rules! charge {
                ($n:expr) => {
                    // Check before charging, so a charge larger than a whole slice still makes
                    // progress on the next slice.
                    if self.fuel <= 0 {
                        if stop == 0 && self.nested.is_empty() {
                            self.frames[fi].pc = pc - 1;
                            return Ok(Exit::Yield);
                        }
                        save!();
                        tri!(self.refuel_nested());
                    }
                    self.fuel -= $n as i64;
                };
            }

            // After an instruction that charged fuel for data work (copies, comparisons,
            // concatenation, a native's work) or found a collection due: past the slice, yield
            // at this instruction boundary (the next instruction runs on resume). Without it,
            // straight-line code of heavy instructions would run to the next backward jump or
            // call however long it takes, and an inline stretch could not end.
            macro_rules! settle {
                () => {
                    if self.fuel < 0 {
                        if stop == 0 && self.nested.is_empty() {
                            self.frames[fi].pc = pc;
                            return Ok(Exit::Yield);
                        }
                        save!();
                        tri!(self.refuel_nested());
                    }
                };
            }

            loop {
                let op = code[pc];
                pc += 1;
                match op {
                    Op::Move { a, b } => r!(a) = r!(b),
                    Op::LoadK { a, k } => r!(a) = k!(k),
                    Op::LoadInt { a, i } => r!(a) = Value::Int(i as i64),
                    Op::LoadNil { a, n } => {
                        for i in 0..=n as usize {
                            self.stack[base + a as usize + i] = Value::Nil;
                        }
                    }
                    Op::LoadBool { a, v } => r!(a) = Value::Bool(v),
                    Op::GetUpval { a, u } => r!(a) = self.get_upval(cl, u),
                    Op::SetUpval { a, u } => {
                        let v = r!(a);
                        self.set_upval(cl, u, v);
                    }
                    Op::GetGlobal { a, k } => {
                        let key = k!(k);
                        let Value::Str(s) = key else {
                            unreachable_const()
                        };
                        r!(a) = self.heap.table(self.globals).get_str(s);
                    }
                    Op::SetGlobal { a, k } => {
                        let key = k!(k);
                        let v = r!(a);
                        let g = self.globals;
                        tri!(self.heap.table_set(g, key, v));
                    }
                    Op::GetField { a, t, k } => {
                        let obj = r!(t);
                        let key = k!(k);
                        let v = if let Value::Table(tr) = obj {
                            match key {
                                Value::Str(s) => self.heap.table(tr).get_str(s),
                                _ => self.heap.table_get(tr, key),
                            }
                        } else {
                            save!();
                            tri!(self.index_slow(obj, key, t, fi, pc, true))
                        };
                        r!(a) = v;
                    }
                    Op::GetTable { a, t, key } => {
                        let obj = r!(t);
                        let kv = r!(key);
                        let v = match obj {
                            Value::Table(tr) => {
                                if let Value::Int(i) = kv {
                                    self.heap.table(tr).get_int(i)
                                } else {
                                    self.heap.table_get(tr, kv)
                                }
                            }
                            _ => {
                                save!();
                                tri!(self.index_slow(obj, kv, t, fi, pc, false))
                            }
                        };
                        r!(a) = v;
                    }
                    Op::SetField { t, k, v } => {
                        let obj = r!(t);
                        let key = k!(k);
                        let val = r!(v);
                        match self.set_index(obj, key, val) {
                            Some(res) => tri!(res),
                            None => {
                                save!();
                                fail!(Throw::msg(format!(
                                    "attempt to index a {} value{}",
                                    obj.type_name(),
                                    self.varinfo(t)
                                )))
                            }
                        }
                    }
                    Op::SetTable { t, key, v } => {
                        let obj = r!(t);
                        let kv = r!(key);
                        let val = r!(v);
                        match self.set_index(obj, kv, val) {
                            Some(res) => tri!(res),
                            None => {
                                save!();
                                fail!(Throw::msg(format!(
                                    "attempt to index a {} value{}",
                                    obj.type_name(),
                                    self.varinfo(t)
                                )))
                            }
                        }
                    }
                    Op::NewTable { a, narr, nhash } => {
                        save!();
                        self.maybe_gc();
                        let t = tri!(self.heap.new_table(narr as usize, nhash as usize));
                        r!(a) = Value::Table(t);
                        settle!();
                    }
                    Op::SetList { a, n, start } => {
                        let Value::Table(t) = r!(a) else {
                            unreachable_const()
                        };
                        let first = base + a as usize + 1;
                        let count = if n == 0 { self.top - first } else { n as usize };
                        self.fuel -= (count / VALUES_PER_FUEL) as i64;
                        for i in 0..count {
                            let v = self.stack[first + i];
                            tri!(self.heap.table_set_int(t, start as i64 + i as i64 + 1, v));
                        }
                        settle!();
                    }
                    Op::SelfOp { a, b, k } => {
                        let obj = r!(b);
                        let key = k!(k);
                        r!(a + 1) = obj;
                        let v = match (obj, key) {
                            (Value::Table(tr), Value::Str(s)) => self.heap.table(tr).get_str(s),
                            _ => {
                                save!();
                                tri!(self.index_slow(obj, key, b, fi, pc, false))
                            }
                        };
                        r!(a) = v;
                    }
                    Op::Add { a, b, c } => {
                        let res = match (&r!(b), &r!(c)) {
                            (&Value::Int(i), &Value::Int(j)) => Some(Value::Int(i.wrapping_add(j))),
                            (&Value::Float(i), &Value::Float(j)) => Some(Value::Float(i + j)),
                            _ => None,
                        };
                        r!(a) = match res {
                            Some(v) => v,
                            None => {
                                let (x, y) = (r!(b), r!(c));
                                save!();
                                tri!(self.arith_slow(ArithOp::Add, x, y, Some(b), Some(c)))
                            }
                        };
                    }
                    Op::Sub { a, b, c } => {
                        let res = match (&r!(b), &r!(c)) {
                            (&Value::Int(i), &Value::Int(j)) => Some(Value::Int(i.wrapping_sub(j))),
                            (&Value::Float(i), &Value::Float(j)) => Some(Value::Float(i - j)),
                            _ => None,
                        };
                        r!(a) = match res {
                            Some(v) => v,
                            None => {
                                let (x, y) = (r!(b), r!(c));
                                save!();
                                tri!(self.arith_slow(ArithOp::Sub, x, y, Some(b), Some(c)))
                            }
                        };
                    }
                    Op::AddI { a, b, i, sub } => {
                        let res = match r!(b) {
                            Value::Int(v) => Some(Value::Int(v.wrapping_add(i as i64))),
                            Value::Float(f) => Some(Value::Float(f + i as f64)),
                            _ => None,
                        };
                        r!(a) = match res {
                            Some(v) => v,
                            None => {
                                let x = r!(b);
                                save!();
                                let (op, k) = if sub {
                                    (ArithOp::Sub, -(i as i64))
                                } else {
                                    (ArithOp::Add, i as i64)
                                };
                                tri!(self.arith_slow(op, x, Value::Int(k), Some(b), None))
                            }
                        };
                    }
                    Op::Arith { op, a, b, c } => {
                        let res = arith_fast(op, &r!(b), &r!(c));
                        r!(a) = match res {
                            Some(v) => v,
                            None => {
                                save!();
                                let (x, y) = (r!(b), r!(c));
                                tri!(self.arith_slow(op, x, y, Some(b), Some(c)))
                            }
                        };
                    }
                    Op::ArithK { op, a, b, k } => {
                        let res = arith_fast(op, &r!(b), &k!(k));
                        r!(a) = match res {
                            Some(v) => v,
                            None => {
                                save!();
                                let (x, y) = (r!(b), k!(k));
                                tri!(self.arith_slow(op, x, y, Some(b), None))
                            }
                        };
                    }
                    Op::ArithKR { op, a, k, c } => {
                        let res = arith_fast(op, &k!(k), &r!(c));
                        r!(a) = match res {
                            Some(v) => v,
                            None => {
                                save!();
                                let (x, y) = (k!(k), r!(c));
                                tri!(self.arith_slow(op, x, y, None, Some(c)))
                            }
                        };
                    }
                    Op::Unm { a, b } => {
                        let x = r!(b);
                        r!(a) = match x {
                            Value::Int(i) => Value::Int(i.wrapping_neg()),
                            Value::Float(f) => Value::Float(-f),
                            _ => {
                                save!();
                                match to_number(&self.heap, x) {
                                    Some(Value::Int(i)) => Value::Int(i.wrapping_neg()),
                                    Some(Value::Float(f)) => Value::Float(-f),
                                    _ => {
                                        let vi = self.varinfo(b);
                                        if let Value::Str(_) = x {
                                            fail!(Throw::msg(
                                                "attempt to unm a 'string' with a 'string'"
                                            ))
                                        }
                                        fail!(Throw::msg(format!(
                                            "attempt to perform arithmetic on a {} value{}",
                                            x.type_name(),
                                            vi
                                        )))
                                    }
                                }
                            }
                        };
                    }
                    Op::Not { a, b } => r!(a) = Value::Bool(!r!(b).truthy()),
                    Op::Len { a, b } => {
                        let x = r!(b);
                        r!(a) = match x {
                            Value::Table(t) => Value::Int(self.heap.table_len(t)),
                            Value::Str(s) => Value::Int(self.heap.str_bytes(s).len() as i64),
                            _ => {
                                save!();
                                fail!(Throw::msg(format!(
                                    "attempt to get length of a {} value{}",
                                    x.type_name(),
                                    self.varinfo(b)
                                )))
                            }
                        };
                    }
                    Op::BNot { a, b } => {
                        let x = r!(b);
                        save!();
                        r!(a) =
                            tri!(self.arith_slow(ArithOp::BXor, x, Value::Int(-1), Some(b), None));
                    }
                    Op::Concat { a, b, n } => {
                        save!();
                        self.heap.inline.restartable = self.inline_main_loop();
                        let v = self.concat(base + b as usize, n as usize, b);
                        self.heap.inline.restartable = false;
                        let v = tri!(v);
                        r!(a) = v;
                        self.maybe_gc();
                        settle!();
                    }
                    Op::Jmp { off } => {
                        if off < 0 {
                            charge!(-(off as i64));
                        }
                        pc = (pc as i64 + off as i64) as usize;
                    }
                    Op::Eq { a, b, k } => {
                        if (r!(a) == r!(b)) != k {
                            pc += 1;
                        }
                    }
                    Op::EqK { a, kc, k } => {
                        if (r!(a) == k!(kc)) != k {
                            pc += 1;
                        }
                    }
                    Op::Lt { a, b, k } => {
                        let mut heavy = false;
                        let res = match (&r!(a), &r!(b)) {
                            (&Value::Int(i), &Value::Int(j)) => i < j,
                            _ => {
                                let (x, y) = (r!(a), r!(b));
                                save!();
                                self.fuel -= self.compare_cost(x, y);
                                heavy = true;
                                tri!(self.less_than(x, y))
                            }
                        };
                        if res != k {
                            pc += 1;
                        }
                        if heavy {
                            settle!();
                        }
                    }
                    Op::Le { a, b, k } => {
                        let mut heavy = false;
                        let res = match (&r!(a), &r!(b)) {
                            (&Value::Int(i), &Value::Int(j)) => i <= j,
                            _ => {
                                let (x, y) = (r!(a), r!(b));
                                save!();
                                self.fuel -= self.compare_cost(x, y);
                                heavy = true;
                                tri!(self.less_equal(x, y))
                            }
                        };
                        if res != k {
                            pc += 1;
                        }
                        if heavy {
                            settle!();
                        }
                    }
                    Op::LtK { a, kc, k } => {
                        let mut heavy = false;
                        let res = match (&r!(a), &k!(kc)) {
                            (&Value::Int(i), &Value::Int(j)) => i < j,
                            _ => {
                                let (x, y) = (r!(a), k!(kc));
                                save!();
                                self.fuel -= self.compare_cost(x, y);
                                heavy = true;
                                tri!(self.less_than(x, y))
                            }
                        };
                        if res != k {
                            pc += 1;
                        }
                        if heavy {
                            settle!();
                        }
                    }
                    Op::LeK { a, kc, k } => {
                        let mut heavy = false;
                        let res = match (&r!(a), &k!(kc)) {
                            (&Value::Int(i), &Value::Int(j)) => i <= j,
                            _ => {
                                let (x, y) = (r!(a), k!(kc));
                                save!();
                                self.fuel -= self.compare_cost(x, y);
                                heavy = true;
                                tri!(self.less_equal(x, y))
                            }
                        };
                        if res != k {
                            pc += 1;
                        }
                        if heavy {
                            settle!();
                        }
                    }
                    Op::GtK { a, kc, k } => {
                        let mut heavy = false;
                        let res = match (&r!(a), &k!(kc)) {
                            (&Value::Int(i), &Value::Int(j)) => i > j,
                            _ => {
                                let (x, y) = (r!(a), k!(kc));
                                save!();
                                self.fuel -= self.compare_cost(x, y);
                                heavy = true;
                                tri!(self.less_than(y, x))
                            }
                        };
                        if res != k {
                            pc += 1;
                        }
                        if heavy {
                            settle!();
                        }
                    }
                    Op::GeK { a, kc, k } => {
                        let mut heavy = false;
                        let res = match (&r!(a), &k!(kc)) {
                            (&Value::Int(i), &Value::Int(j)) => i >= j,
                            _ => {
                                let (x, y) = (r!(a), k!(kc));
                                save!();
                                self.fuel -= self.compare_cost(x, y);
                                heavy = true;
                                tri!(self.less_equal(y, x))
                            }
                        };
                        if res != k {
                            pc += 1;
                        }
                        if heavy {
                            settle!();
                        }
                    }
                    Op::Test { a, k } => {
                        if r!(a).truthy() != k {
                            pc += 1;
                        }
                    }
                    Op::TestSet { a, b, k } => {
                        let v = r!(b);
                        if v.truthy() == k {
                            r!(a) = v;
                        } else {
                            pc += 1;
                        }
                    }
                    Op::Call { a, b, c } => {
                        charge!(CALL_FUEL);
                        let func = base + a as usize;
                        let nargs = if b == 0 {
                            self.top - func - 1
                        } else {
                            b as usize - 1
                        };
                        save!();
                        let callee = self.stack[func];
                        if !callee.is_function() {
                            if callee.is_nil() {
                                match self.refuse_unknown_call(a, func, c as i32 - 1, false) {
                                    Ok(Some(call)) => return Ok(Exit::Host(call)),
                                    Ok(None) => {}
                                    Err(e) => fail!(e),
                                }
                            }
                            if let Value::HostNs(h) = callee {
                                fail!(self.namespace_call_error(h));
                            }
                            let vi = self.varinfo(a);
                            fail!(Throw::msg(format!(
                                "attempt to call a {} value{}{}",
                                callee.type_name(),
                                vi,
                                call_hint(&vi)
                            )));
                        }
                        let res = match self.precall(func, nargs, c as i32 - 1, FrameKind::Normal) {
                            Ok(r) => r,
                            Err(e) => return Err(self.fix_arg_error(e, a)),
                        };
                        match res {
                            CallRes::Lua => continue 'frame,
                            CallRes::Done => {
                                self.maybe_gc();
                                if self.frames.len() != fi + 1 {
                                    // A pcall frame was pushed by a native path.
                                    continue 'frame;
                                }
                                settle!();
                            }
                            CallRes::Host(call) => return Ok(Exit::Host(call)),
                        }
                    }
                    Op::TailCall { a, b } => {
                        charge!(CALL_FUEL);
                        let func = base + a as usize;
                        let nargs = if b == 0 {
                            self.top - func - 1
                        } else {
                            b as usize - 1
                        };
                        save!();
                        let callee = self.stack[func];
                        if let Value::Closure(_) = callee {
                            if let Some(&(idx, _)) = self.open_upvals.last()
                                && idx > fr.func
                            {
                                self.close_upvals(fr.func + 1);
                            }
                            // The frame is gone once popped: an error from here on cannot
                            // be raised again by re-running an instruction (`handle_error`).
                            self.heap.inline.dirty = true;
                            let cur = self.frames.pop().expect("frame");
                            self.fuel -= (nargs / VALUES_PER_FUEL) as i64;
                            for i in 0..=nargs {
                                self.stack[cur.func + i] = self.stack[func + i];
                            }
                            self.precall(cur.func, nargs, cur.nresults, cur.kind)?;
                            self.heap.inline.dirty = false;
                            continue 'frame;
                        }
                        if !callee.is_function() {
                            if callee.is_nil() {
                                match self.refuse_unknown_call(a, func, MULTI, false) {
                                    Ok(Some(call)) => return Ok(Exit::Host(call)),
                                    Ok(None) => {}
                                    Err(e) => fail!(e),
                                }
                            }
                            if let Value::HostNs(h) = callee {
                                fail!(self.namespace_call_error(h));
                            }
                            let vi = self.varinfo(a);
                            fail!(Throw::msg(format!(
                                "attempt to call a {} value{}{}",
                                callee.type_name(),
                                vi,
                                call_hint(&vi)
                            )));
                        }
                        // Not a Lua function: an ordinary call; the next instruction returns.
                        match self.precall(func, nargs, MULTI, FrameKind::Normal) {
                            Ok(CallRes::Lua) => continue 'frame,
                            Ok(CallRes::Done) => {
                                self.maybe_gc();
                                if self.frames.len() != fi + 1 {
                                    continue 'frame;
                                }
                                settle!();
                            }
                            Ok(CallRes::Host(call)) => return Ok(Exit::Host(call)),
                            Err(e) => return Err(self.fix_arg_error(e, a)),
                        }
                    }
                    Op::Return { a, b } => {
                        let first = base + a as usize;
                        let n = if b == 0 {
                            self.top - first
                        } else {
                            b as usize - 1
                        };
                        if let Some(&(idx, _)) = self.open_upvals.last()
                            && idx >= fr.func
                        {
                            self.close_upvals(fr.func);
                        }
                        let f = self.frames.pop().expect("frame");
                        // Copying many results costs fuel too (`return table.unpack(t)` in a loop).
                        self.fuel -= (n / VALUES_PER_FUEL) as i64;
                        let (dest, extra) = if f.kind != FrameKind::Normal {
                            self.stack[f.func - 1] = Value::Bool(true);
                            (f.func, 1usize)
                        } else {
                            (f.func, 0)
                        };
                        for i in 0..n {
                            self.stack[dest + i] = self.stack[first + i];
                        }
                        let total = n + extra;
                        let start = dest - extra;
                        if f.nresults < 0 {
                            self.top = start + total;
                        } else {
                            let want = f.nresults as usize;
                            if start + want > self.stack.len() {
                                self.stack.resize(start + want + 1, Value::Nil);
                            }
                            for i in total..want {
                                self.stack[start + i] = Value::Nil;
                            }
                        }
                        if self.frames.len() <= stop {
                            if stop == 0 {
                                // The compiler ends the main chunk with an implicit `return`
                                // as its last instruction (`compile_chunk`).
                                self.fell_off = f.proto == 0 && pc == code.len();
                            }
                            return Ok(Exit::Returned);
                        }
                        continue 'frame;
                    }
                    Op::ForPrep { a, jmp } => {
                        save!();
                        let run = tri!(self.for_prep(base + a as usize));
                        if !run {
                            pc += jmp as usize;
                        }
                    }
                    Op::ForLoop { a, jmp } => {
                        charge!(jmp);
                        let ra = base + a as usize;
                        match self.stack[ra + 2] {
                            Value::Int(step) => {
                                let Value::Int(count) = self.stack[ra + 1] else {
                                    unreachable_const()
                                };
                                if count > 0 {
                                    self.stack[ra + 1] = Value::Int(count - 1);
                                    let Value::Int(i) = self.stack[ra] else {
                                        unreachable_const()
                                    };
                                    let ni = i.wrapping_add(step);
                                    self.stack[ra] = Value::Int(ni);
                                    self.stack[ra + 3] = Value::Int(ni);
                                    pc -= jmp as usize;
                                }
                            }
                            Value::Float(step) => {
                                let (Value::Float(i), Value::Float(lim)) =
                                    (self.stack[ra], self.stack[ra + 1])
                                else {
                                    unreachable_const()
                                };
                                let ni = i + step;
                                let cont = if step > 0.0 { ni <= lim } else { lim <= ni };
                                if cont {
                                    self.stack[ra] = Value::Float(ni);
                                    self.stack[ra + 3] = Value::Float(ni);
                                    pc -= jmp as usize;
                                }
                            }
                            _ => unreachable_const(),
                        }
                    }
                    Op::TForCall { a, c } => {
                        let ra = base + a as usize;
                        let f = self.stack[ra];
                        // Fast path: next(t, k)
                        if let (Value::Native(n), Value::Table(t)) = (f, self.stack[ra + 1])
                            && Some(n) == self.next_ref
                        {
                            let key = self.stack[ra + 2];
                            let (found, skipped) = tri!(self.heap.table_next_counted(t, key));
                            // Empty slots scanned are work too (charged at the loop's
                            // TForLoop, the next charge point).
                            self.fuel -= (skipped / 16) as i64;
                            match found {
                                Some((k, v)) => {
                                    self.stack[ra + 3] = k;
                                    if c >= 2 {
                                        self.stack[ra + 4] = v;
                                    }
                                    for i in 2..c as usize {
                                        self.stack[ra + 3 + i] = Value::Nil;
                                    }
                                }
                                None => {
                                    for i in 0..c as usize {
                                        self.stack[ra + 3 + i] = Value::Nil;
                                    }
                                }
                            }
                            continue;
                        }
                        self.stack[ra + 3] = f;
                        self.stack[ra + 4] = self.stack[ra + 1];
                        self.stack[ra + 5] = self.stack[ra + 2];
                        save!();
                        if !f.is_function() {
                            fail!(Throw::msg(format!(
                                "attempt to call a {} value (for iterator 'for iterator'){}",
                                f.type_name(),
                                if matches!(f, Value::Table(_)) {
                                    FOR_TABLE_HINT
                                } else {
                                    ""
                                }
                            )));
                        }
                        match tri!(self.precall(ra + 3, 2, c as i32, FrameKind::Normal)) {
                            CallRes::Lua => continue 'frame,
                            CallRes::Done => {}
                            CallRes::Host(call) => return Ok(Exit::Host(call)),
                        }
                    }
                    Op::TForLoop { a, jmp } => {
                        charge!(jmp + 1);
                        let ra = base + a as usize;
                        let v = self.stack[ra + 3];
                        if !v.is_nil() {
                            self.stack[ra + 2] = v;
                            pc -= jmp as usize;
                        }
                    }
                    Op::Closure { a, p } => {
                        save!();
                        self.maybe_gc();
                        let pidx = proto.protos[p as usize];
                        let child = &prog.protos[pidx as usize];
                        let mut ups = Vec::with_capacity(child.upvals.len());
                        for d in &child.upvals {
                            if d.in_stack {
                                ups.push(tri!(self.find_upval(base + d.idx as usize)));
                            } else {
                                ups.push(self.heap.closure(cl).upvals[d.idx as usize]);
                            }
                        }
                        let c = tri!(self.heap.new_closure(pidx, ups.into_boxed_slice()));
                        r!(a) = Value::Closure(c);
                        settle!();
                    }
                    Op::Vararg { a, c } => {
                        let f = self.frames[fi];
                        let n = f.nvarargs;
                        let dst = base + a as usize;
                        if c == 0 {
                            self.fuel -= (n / VALUES_PER_FUEL) as i64;
                            tri!(self.ensure_stack(dst + n + 1));
                            for i in 0..n {
                                self.stack[dst + i] = self.stack[f.vararg_base + i];
                            }
                            self.top = dst + n;
                        } else {
                            let want = c as usize - 1;
                            for i in 0..want {
                                self.stack[dst + i] = if i < n {
                                    self.stack[f.vararg_base + i]
                                } else {
                                    Value::Nil
                                };
                            }
                        }
                        settle!();
                    }
                    Op::Close { a } => {
                        self.close_upvals(base + a as usize);
                    }
                }
            }
        }
    }

    fn for_prep(&mut self, ra: usize) -> VmResult<bool> {
        let (init, limit, step) = (self.stack[ra], self.stack[ra + 1], self.stack[ra + 2]);
        // Strings are converted like Lua's tonumber (a string never makes an integer loop).
        let conv = |v: Value| match v {
            Value::Str(_) => to_number(&self.heap, v).unwrap_or(v),
            v => v,
        };
        let limit = conv(limit);
        if let (Value::Int(i), Value::Int(s)) = (init, step) {
            if s == 0 {
                return Err(Throw::msg("'for' step is zero"));
            }
            let lim = match limit {
                Value::Int(l) => l,
                Value::Float(f) => {
                    let fl = if s < 0 { f.ceil() } else { f.floor() };
                    match float_to_int_exact(fl) {
                        Some(l) => l,
                        None => {
                            if f.is_nan() {
                                return Ok(false);
                            }
                            if f > 0.0 {
                                if s < 0 {
                                    return Ok(false);
                                }
                                i64::MAX
                            } else {
                                if s > 0 {
                                    return Ok(false);
                                }
                                i64::MIN
                            }
                        }
                    }
                }
                other => return Err(for_error("limit", other)),
            };
            if if s > 0 { i > lim } else { i < lim } {
                return Ok(false);
            }
            let count: u64 = if s > 0 {
                (lim as u64).wrapping_sub(i as u64) / (s as u64)
            } else {
                let d = (i as u64).wrapping_sub(lim as u64);
                d / ((-(s + 1)) as u64 + 1)
            };
            // Store the iteration count (as i64 bits; counts fit because they are <= 2^64-1 and
            // we compare > 0 after reinterpretation only when < 2^63).
            self.stack[ra + 1] = Value::Int(count.min(i64::MAX as u64) as i64);
            self.stack[ra + 3] = Value::Int(i);
            return Ok(true);
        }
        let (init, step) = (conv(init), conv(step));
        let fi = match init {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            other => return Err(for_error("initial value", other)),
        };
        let fl = match limit {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            other => return Err(for_error("limit", other)),
        };
        let fs = match step {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
            other => return Err(for_error("step", other)),
        };
        if fs == 0.0 {
            return Err(Throw::msg("'for' step is zero"));
        }
        if if fs > 0.0 { fl < fi } else { fi < fl } || fl.is_nan() || fi.is_nan() {
            return Ok(false);
        }
        self.stack[ra] = Value::Float(fi);
        self.stack[ra + 1] = Value::Float(fl);
        self.stack[ra + 2] = Value::Float(fs);
        self.stack[ra + 3] = Value::Float(fi);
        Ok(true)
    }
}

fn for_error(what: &str, v: Value) -> Throw {
    Throw::msg(format!(
        "bad 'for' {} (number expected, got {})",
        what,
        v.type_name()
    ))
}

#[cold]
fn unreachable_const() -> ! {
    panic!("internal error: malformed bytecode")
}

// ----------------------------------------------------------------------------------------------
// Arithmetic helpers
// ----------------------------------------------------------------------------------------------

/// The [`GuestError`] a refused host call carries (see [`HostCall::refused`]).
fn refusal(e: Throw, location: Option<Location>) -> GuestError {
    GuestError {
        location,
        ..crate::guest_error(None, e)
    }
}
