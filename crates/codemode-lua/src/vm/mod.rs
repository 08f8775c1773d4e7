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
//! ## Files (as PUC Lua splits `lvm.c`, `ldo.c`, `ldebug.c`)
//! - `mod.rs`: the [`Vm`] state, frames, setup from a program, the entry points the machine
//!   drives (`start_main`, `run_until`, delivering host replies).
//! - `dispatch.rs`: the dispatch loop (one shape per opcode family: `op_arith!`, `op_order!`,
//!   `op_set!`, `call_value!`) and numeric `for` preparation.
//! - `calls.rs`: entering functions, results, `pcall`/`xpcall`, unwinding to a protected
//!   frame, nested calls from natives, and the one "attempt to call" path (`not_callable`).
//! - `tools.rs`: host-call suspension (argument export, refusals) and missing-tool errors.
//! - `errors.rs`: error positions, variable names of registers, call-site names, model hints.
//! - `arith.rs`: arithmetic, comparison, concatenation, number conversion.
//! - `index.rs`: indexing with its error messages; `upvals.rs`: upvalue cells.
//! - `meter.rs`: fuel, work accounting, the deadline check; `roots.rs`: GC pacing and roots.
//! - `ctx.rs`: the native-function API ([`Ctx`], [`NativeFn`], [`Rets`]).
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
//!   frame; a message gets its position as `input:LINE: ` (Lua's prefix; the column stays in
//!   the diagnostic's location) when `pcall` converts it to a Lua string. Uncatchable ones
//!   (limits, timeouts, aborts) unwind everything.
//! - GC: [`Heap::collect`] runs at safe points of the dispatch loop (table/closure creation,
//!   concatenation, after a native returns) when the allocation debt is due, also inside the
//!   Lua callbacks of the natives that root what they hold (`roots::GC_SAFE_NATIVES`: gsub,
//!   table.sort, pcall/xpcall and xpcall's message handler). Roots: the whole value stack,
//!   constants, globals, frames' closures, open upvalues, pinned values, the callback roots
//!   natives push and host objects.

use std::sync::Arc;

use crate::heap::{Heap, HostKind, UpvalRef};
use crate::limits;
use crate::proto::{ArithOp, Const, Op, ProgramData};
use crate::restart::Meter;
use crate::value::{
    ClosureRef, FOR_TABLE_HINT, HostRef, NativeRef, TableRef, Throw, Value, VmResult,
    float_to_int_exact,
};
use crate::{CallId, CallMode, ErrorKind, GuestError, HostCall, HostTarget, Location, MissingTool};

mod arith;
mod calls;
mod ctx;
mod dispatch;
mod errors;
pub(crate) mod image;
mod index;
mod meter;
mod roots;
mod tools;
mod upvals;

use arith::{arith_fast, float_mod, int_idiv, int_mod};
pub(crate) use arith::{str_to_number, to_number, tostring_text};
use calls::CallSite;
pub(crate) use ctx::{Ctx, NativeFn, Rets};
use errors::{call_hint, find_setreg};
use meter::{CALL_FUEL, VALUES_PER_FUEL};

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
enum FrameKind {
    Normal,
    /// Called by `pcall`: results get a `true` prefix at `func - 1`; errors stop here.
    PCall,
    /// Called by `xpcall`: like PCall, the handler sits at `func - 1` until the call ends.
    XPCall,
}

#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
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
    /// A host call suspends the machine (boxed: the dispatch loop's result stays small).
    Host(Box<HostCall>),
}

/// The call waiting for a host reply.
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) struct Pending {
    /// Where the result goes.
    pub dest: usize,
    pub nresults: i32,
    /// Called directly through `pcall`: results get a true/false prefix at `dest`.
    pub pcall: bool,
    /// Called directly through `xpcall`: an error reply goes through the message handler, which
    /// sits at `dest` (see `call_pcall`).
    pub handler: bool,
    pub location: Option<Location>,
    /// A call the machine refused ([`HostCall::refused`]): the host's error reply is raised like
    /// the machine's own error (position prefix when a `pcall` catches it).
    pub refused: bool,
}

/// A `tools` key that did not exist, remembered to turn a later call/index on the resulting nil
/// into an UnknownTool error.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
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
    /// Boxed, so `VmResult<CallRes>` stays small on every call.
    Host(Box<HostCall>),
}

/// The virtual machine state of one execution.
pub(crate) struct Vm {
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
    pcall_ref: Option<NativeRef>,
    xpcall_ref: Option<NativeRef>,
    next_ref: Option<NativeRef>,
    /// Names of natives currently calling back into Lua.
    nested: Vec<&'static str>,
    /// For each entry of `nested`: the index its callback's first frame takes in `frames`
    /// (the frame a builtin started: `error(msg, level)` counts that builtin as a level).
    nested_frames: Vec<usize>,
    pub(crate) pending: Option<Pending>,
    pub(crate) pending_error: Option<Throw>,
    /// An error reply to a call made directly by `xpcall`: its message, handed to the message
    /// handler when the machine runs next (the handler is a nested call, off inline stretches).
    pub(crate) pending_handled: Option<(Pending, String)>,
    miss: Option<Miss>,
    miss_flag: Option<String>,
    /// The host's missing-tool policy (from `Env::missing`).
    pub(crate) missing: Option<Arc<dyn MissingTool>>,
    /// Suggestion lookups made so far (at most [`limits::MAX_SUGGESTION_LOOKUPS`]).
    suggest_lookups: std::sync::atomic::AtomicU32,
    /// Number of tool paths the host has (fuel of an unknown-tool error, see
    /// [`limits::SUGGESTION_FUEL_PER_TOOL`]).
    pub(crate) tool_count: usize,
    /// Values pinned as GC roots by the embedder (e.g. boundary).
    pub pinned: Vec<Value>,
    /// Values natives hold in Rust while a Lua callback they made runs (the values `table.sort`
    /// is sorting, an `xpcall` handler and its error value): GC roots, a stack that each native
    /// pushes before its callback and pops after it (`Vm::push_roots`, `Ctx::with_roots`).
    callback_roots: Vec<Value>,
    /// The iterator function `ipairs` returns.
    pub ipairs_iter: Value,
    /// The next native call is made directly by pcall or a native (no Lua caller line).
    direct_next: bool,
    /// End of the results of the last nested call with all results.
    nested_top: usize,
    /// The main chunk ended by running off its end (its implicit final `return`), not by a
    /// `return` statement.
    pub(crate) fell_off: bool,
    /// Warnings for the result (at most [`limits::MAX_WARNINGS`]).
    pub(crate) warnings: Vec<crate::Warning>,
    /// Host calls refused inside builtins' callbacks since the last step (see
    /// `Vm::note_refused`).
    pub(crate) noted: Vec<HostCall>,
    /// `xpcall` message handlers running now (a host call refused in one says so).
    pub(crate) handler_depth: usize,
    /// The program's constant `"length"` (nil when it has none): a `t.length` read that gives
    /// nil on an array or a string is warned about.
    pub(super) length_key: Value,
}

const MULTI: i32 = -1;

impl Vm {
    /// A VM for `prog` with an empty globals table and memory cap `mem_cap` bytes.
    pub(crate) fn new(prog: Arc<ProgramData>, mem_cap: usize) -> VmResult<Vm> {
        let mut heap = Heap::new(mem_cap);
        let globals = heap.new_table(0, 64)?;
        let kflat = flat_consts(&mut heap, &prog)?;
        let mut vm = Vm::bare(heap, prog, globals);
        vm.kflat = kflat;
        Ok(vm)
    }

    /// A VM over `heap` for `prog` with globals `globals`, no natives marked special, and
    /// nothing running.
    fn bare(heap: Heap, prog: Arc<ProgramData>, globals: TableRef) -> Vm {
        Vm {
            heap,
            stack: Vec::with_capacity(256),
            frames: Vec::with_capacity(16),
            open_upvals: Vec::new(),
            globals,
            string_lib: None,
            prog,
            kflat: Vec::new(),
            top: 0,
            pcall_ref: None,
            xpcall_ref: None,
            next_ref: None,
            nested: Vec::new(),
            nested_frames: Vec::new(),
            pending: None,
            pending_error: None,
            pending_handled: None,
            miss: None,
            miss_flag: None,
            missing: None,
            suggest_lookups: std::sync::atomic::AtomicU32::new(0),
            tool_count: 0,
            pinned: Vec::new(),
            callback_roots: Vec::new(),
            ipairs_iter: Value::Nil,
            direct_next: false,
            nested_top: 0,
            fell_off: false,
            warnings: Vec::new(),
            noted: Vec::new(),
            handler_depth: 0,
            length_key: Value::Nil,
        }
    }

    /// A new VM for `prog` whose globals and heap are a copy of this (template) VM's, with
    /// memory cap `mem_cap`. Used to start each machine from a prepared standard library.
    pub(crate) fn fork(&self, prog: Arc<ProgramData>, mem_cap: usize) -> VmResult<Vm> {
        let mut heap = self.heap.clone();
        // A fresh meter (no fuel used, no clock) that holds what the template's heap holds.
        let mem = heap.meter.mem.clone();
        heap.meter = Meter::new(mem_cap);
        heap.meter.mem = crate::heap::MemCounter {
            cap: mem_cap,
            ..mem
        };
        heap.meter.mem.check(0)?;
        // The program's code and the flat constant vector are held for the whole execution.
        heap.meter.mem.hold(
            prog.retained_bytes
                + crate::heap::alloc_bytes(prog.num_consts * std::mem::size_of::<Value>()),
        )?;
        let kflat = flat_consts(&mut heap, &prog)?;
        let length_key = prog
            .protos
            .iter()
            .flat_map(|p| p.consts.iter())
            .any(|k| matches!(k, Const::Str(s) if &**s == b"length"))
            .then(|| heap.intern(b"length"))
            .transpose()?
            .map_or(Value::Nil, Value::Str);
        let mut vm = self.fork_bare(heap, prog);
        vm.kflat = kflat;
        vm.pinned = self.pinned.clone();
        vm.ipairs_iter = self.ipairs_iter;
        vm.length_key = length_key;
        Ok(vm)
    }

    /// A VM over `heap` (restored from a snapshot) for `prog`, with this template's natives
    /// and the rest of its state empty (the caller fills it in).
    pub(crate) fn fork_bare(&self, heap: Heap, prog: Arc<ProgramData>) -> Vm {
        let mut vm = Vm::bare(heap, prog, self.globals);
        vm.string_lib = self.string_lib;
        vm.pcall_ref = self.pcall_ref;
        vm.xpcall_ref = self.xpcall_ref;
        vm.next_ref = self.next_ref;
        vm
    }

    /// Register the natives the VM treats specially (`pcall`, `xpcall`, `next`).
    pub(crate) fn set_special(&mut self, pcall: Value, xpcall: Value, next: Value) {
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
    pub(crate) fn next_fn(&self) -> Value {
        self.next_ref.map(Value::Native).unwrap_or(Value::Nil)
    }

    /// Set a global variable.
    pub(crate) fn set_global(&mut self, name: &str, v: Value) -> VmResult<()> {
        let g = self.globals;
        self.heap.table_set_field(g, name, v)
    }

    /// Get a global variable.
    pub(crate) fn get_global(&self, name: &str) -> Value {
        self.heap.table_get_field(self.globals, name)
    }

    /// Create a library table of natives, store it as global `lib`, return it.
    /// The prototype index of `string.gmatch`'s iterator closures in the running program.
    pub(crate) fn gmatch_iter_proto(&self) -> u32 {
        self.prog.gmatch_iter
    }

    pub(crate) fn new_lib(
        &mut self,
        lib: &'static str,
        funcs: &[(&'static str, NativeFn)],
    ) -> VmResult<TableRef> {
        let t = self.heap.new_table(0, funcs.len())?;
        for (name, f) in funcs {
            let v = self.heap.register_native(name, *f);
            if let Value::Native(n) = v {
                self.heap.set_native_lib(n, lib);
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
                Err(Throw::Restart) => {
                    // A restartable step of an inline stretch ran out of time (see
                    // `crate::restart`). It started at the current instruction of the top
                    // frame (its pc was saved past it) and changed nothing visible: point back
                    // at it and yield; it runs again from the start.
                    debug_assert_eq!(stop, 0, "restart inside a nested run");
                    if let Some(f) = self.frames.last_mut() {
                        f.pc = f.pc.saturating_sub(1);
                    }
                    self.restart_abandoned();
                    return Ok(Exit::Yield);
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Natives calling back into Lua right now (0: the main dispatch loop).
    pub(crate) fn nested_depth(&self) -> usize {
        self.nested.len()
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
        if let Some((p, message)) = self.pending_handled.take() {
            let ev = self.heap.new_str(message.as_bytes())?;
            let handler = self.stack[p.dest];
            let ev = self.run_handler(p.dest + 1, handler, ev)?;
            self.deliver(p, false, ev);
        }
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
}

/// Every prototype's constants in one vector, in prototype order (`Proto::k_offset` indexes
/// it), with strings interned in `heap`.
fn flat_consts(heap: &mut Heap, prog: &ProgramData) -> VmResult<Vec<Value>> {
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
    Ok(kflat)
}
