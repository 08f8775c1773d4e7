//! # codemode-lua: the Lua 5.4 guest language of codemode
//!
//! A Lua 5.4 interpreter written in safe Rust for running untrusted, model-written programs over
//! host tools. No metatables, coroutines, I/O, `os`, dynamic loading or `debug`: calling one of
//! those raises an error that says so (`stdlib/base.rs`).
//!
//! ## Public surface
//! For the host: [`Lua`] implements `codemode_guest::Language` (compile a program into a
//! [`LuaGuest`], and the words host messages use: quoting, tool expressions, keywords, reserved
//! globals) and [`LuaGuest`] implements `codemode_guest::Guest` (one run, driven by budgets,
//! with host calls by id). Underneath, for the crate's tests and embedders that drive Lua
//! directly: [`compile`] / [`compile_with`] turn source into a [`Program`]; a [`Machine`] runs
//! it under [`Budgets`] and an [`Env`] (tool and extension paths, the host's missing-tool
//! policy) and reports [`Step`]s; a [`HostCall`] is answered with a [`HostReply`]; failures are
//! [`GuestError`]s of an [`ErrorKind`] at a [`Location`] (those protocol types are
//! `codemode_guest`'s, re-exported). [`limits`] lists every fixed internal bound. Everything
//! else is private to the crate (the `testing` module re-exports what the crate's tests and
//! fuzz targets reach into: the parser, the syntax tree, the compiler and its prototypes, the
//! `%a` formatter).
//!
//! ## Map of the files
//! - `lexer/`: tokens, numerals (through `number.rs`), string escapes; messages for malformed
//!   numbers, unfinished strings and JavaScript-isms (`!=`, `&&`, C-style comments). `mod.rs`
//!   (tokens, the scanner, numerals), `strings.rs` (comments, long brackets, short strings,
//!   escapes), `tests.rs`.
//! - `parser/`: tokens → `ast.rs` (recursive descent with a depth guard); syntax errors and
//!   their hints (`continue`, ...), unsupported syntax (`<close>`), `goto`/label and `break`
//!   checks, the source-size and nesting bounds. `mod.rs` (entry points, the compile meter,
//!   token handling, the depth guard), `stmt.rs`, `expr.rs`.
//! - `compiler/`: syntax tree → register bytecode (`proto.rs`: the instruction set and
//!   prototypes); register, upvalue and constant bounds. `mod.rs` (function state, emission,
//!   constants), `scope.rs`, `stmt.rs`, `expr.rs`, `cond.rs` (conditions and comparisons).
//! - `vm/`: the stackless VM, split by concern (see `vm/mod.rs`): the dispatch loop, calls and
//!   `pcall`, error positions and hints (calling nil, indexing nil), host calls and unknown
//!   tools, arithmetic and comparison, indexing, upvalues, metering of fuel, GC roots, the
//!   native-function API (`Ctx`).
//! - `restart.rs`: inline stretches and restarts in one place: the execution's clock (the
//!   deadline and the stretch), the scope of a restartable step, where a restart is caught.
//! - `value.rs`: [`Copy`] values with `u32` handles into the arena (so a [`Machine`] is `Send`).
//! - `heap/`: the per-execution arena (slabs for strings, tables, closures, upvalue cells,
//!   natives, host objects), memory accounting against the cap (`mod.rs`); the garbage
//!   collector (pacing, mark-and-sweep) over the arena (`gc.rs`).
//! - `table.rs`: tables with array and hash parts, `next` order, length.
//! - `number.rs`: the one string → number parser (numerals and `tonumber`), `tostring` of
//!   numbers, the float formatting behind `string.format`.
//! - `boundary.rs`: Lua values ↔ JSON under the data rules (tool arguments, host replies, the
//!   returned value); `InvalidDataValue` messages naming the path.
//! - `stdlib/`: `base.rs` (base functions and the absent-feature errors), `string.rs`,
//!   `format.rs` (`string.format`), `pattern.rs` (Lua patterns), `table.rs`, `math.rs`,
//!   `utf8.rs`, `json.rs` (the `json` library and its JSON reader).
//! - `limits.rs`: every fixed bound as a named constant, with what exhausting it gives.
//! - `lib.rs` (this file): the public types and [`Machine`], which drives the VM.
//! - `guest.rs`: [`LuaGuest`], the `codemode_guest::Guest` over a [`Machine`] (call ids, every
//!   call suspending, inline stretches under the budget's soft deadline).
//! - `language.rs`: [`Lua`], the `codemode_guest::Language` (starting a run; quoting, names,
//!   keywords, reserved globals and literals for host messages).
//!
//! ## Host interface
//! ```text
//! let program = compile(source)?;                 // ParseError with line:column
//! let mut m = Machine::new(&program, &env, Budgets::default());
//! loop {
//!     match m.run(SLICE) {
//!         Step::Yield => { /* check the deadline, yield to the async runtime */ }
//!         Step::HostCall(call) => { /* validate, hooks, await the tool */ m.resume(reply) }
//!         Step::Done(value) => break,      // the exported first return value (JSON)
//!         Step::Error(err) => break,       // GuestError with kind, message, location
//!     }
//! }
//! let logs = m.take_logs();
//! ```
//! An embedder on an async runtime may run short stretches on its own thread with
//! [`Machine::set_inline`]: the machine then abandons and later re-runs any step that would
//! hold the thread past the stretch's end.
#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![warn(unreachable_pub)]

mod ast;
mod boundary;
mod compiler;
mod guest;
mod heap;
mod language;
mod lexer;
pub mod limits;
mod number;
mod parser;
mod proto;
mod restart;
mod snapshot;
mod stdlib;
mod table;
mod value;
mod vm;

/// What the crate's own integration tests, benches and fuzz targets reach into. Not a stable
/// interface: the syntax tree (`parse` returns it), the compiler's entry point and the `%a`
/// float formatter.
#[doc(hidden)]
pub mod testing {
    pub use crate::ast::*;
    pub use crate::compiler::compile_chunk;
    pub use crate::number::body_a;
    pub use crate::parser::{parse, parse_bytes};
    pub use crate::proto::{ProgramData, Proto};
}

use std::sync::Arc;

/// The step of a machine whose setup failed or that was taken apart.
fn not_runnable() -> Step {
    Step::Error(GuestError {
        kind: ErrorKind::ExecutionFailure,
        message: "the machine is not runnable".into(),
        location: None,
        suggestions: Vec::new(),
    })
}

pub use guest::LuaGuest;
pub use language::Lua;

pub use codemode_guest::{
    CallId, CallMode, Env, ErrorKind, GuestError, HostCall, HostError, HostReply, HostTarget,
    Location, MissingTool, Warning,
};

/// One step of a running [`Machine`].
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The instruction slice given to [`Machine::run`] is used up; call `run` again.
    Yield,
    /// The program waits for a host call; answer with [`Machine::resume`], then call `run`.
    HostCall(HostCall),
    /// The program returned; its first return value exported to JSON (`nil`/no value → null).
    Done(serde_json::Value),
    /// The program failed.
    Error(GuestError),
}

/// Per-execution resource budgets (fixed internal bounds live in `limits`; these are the ones
/// a host may tune). `Default` gives the documented defaults.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Budgets {
    /// Optional cap on bytes held by the execution (strings, tables, closures, logs, the
    /// compiled program; and, in [`compile_with`], the syntax tree and compiler state). `None`,
    /// or a value above it: the fixed internal cap [`limits::MAX_MEMORY_BYTES`] (512 MiB)
    /// applies. Exceeding the cap is an uncatchable ExecutionFailure "memory limit exceeded".
    pub max_memory_bytes: Option<usize>,
}

// ---------------------------------------------------------------------------------------------
// Program, compile and Machine (the VM work; see vm/, compiler/, heap/).
// ---------------------------------------------------------------------------------------------

use crate::heap::{HostKind, HostObj};
use crate::value::{ErrVal, Throw, Value};
use crate::vm::{Exit, Vm};

/// A compiled chunk. Cheap to clone; `Send + Sync`, so one compile can serve many executions.
#[derive(Clone, Debug)]
pub struct Program {
    inner: Arc<proto::ProgramData>,
}

impl Program {
    /// The compiled prototypes (for tests and tooling).
    pub fn data(&self) -> &proto::ProgramData {
        &self.inner
    }
}

/// Parse and compile a chunk under the default budgets (see [`compile_with`]). Errors:
/// [`ErrorKind::ParseError`] (or `UnsupportedSyntax`) with a location.
pub fn compile(source: &str) -> Result<Program, GuestError> {
    compile_with(source, &Budgets::default())
}

/// Parse and compile a chunk, charging the syntax tree, the compiler's state and the bytecode
/// to the execution's memory budget (`budgets.max_memory_bytes`, capped like
/// [`Machine::new`]'s; see `parser::CompileMeter`). Errors: [`ErrorKind::ParseError`] (or
/// `UnsupportedSyntax`) with a location; [`ErrorKind::ExecutionFailure`] "memory limit
/// exceeded: compiling the program needs more than N bytes ..." (located where compiling
/// stopped) when they would not fit: a tree takes tens of times the source, so a 4 MiB program
/// of nested constructors needs far more than its size.
pub fn compile_with(source: &str, budgets: &Budgets) -> Result<Program, GuestError> {
    let mut meter = parser::CompileMeter::new(memory_cap(budgets));
    let block = parser::parse_metered(source.as_bytes(), &mut meter)?;
    let data = compiler::compile_chunk_metered(&block, &meter)?;
    Ok(Program {
        inner: Arc::new(data),
    })
}

/// The memory cap in bytes an execution under `budgets` gets (the fixed cap applies even when
/// the host asks for more).
fn memory_cap(budgets: &Budgets) -> usize {
    budgets
        .max_memory_bytes
        .map_or(limits::MAX_MEMORY_BYTES, |b| {
            b.min(limits::MAX_MEMORY_BYTES)
        })
}

/// One execution of a [`Program`]: fresh globals, heap and frame stack. `Send`.
///
/// Error messages caught by `pcall` carry the position as Lua 5.4 does, `input:LINE: message`;
/// an uncaught error becomes [`Step::Error`] with the clean message and the location (line and
/// column) separately.
pub struct Machine {
    vm: Option<Box<Vm>>,
    finished: Option<Step>,
    /// The main chunk returned but exporting its value was interrupted at the end of an inline
    /// stretch: the next [`Machine::run`] exports it.
    returned: bool,
    /// Target of the host call waiting for [`Machine::resume`] (names the tool when its output
    /// cannot be received).
    waiting_on: Option<HostTarget>,
    /// The refusal of the pending call, if the machine refused it ([`HostCall::refused`]): a
    /// host that answers it with a value still gets the refusal raised.
    refusal: Option<GuestError>,
    /// Host calls started so far; the next one gets `CallId(calls_started + 1)`.
    calls_started: u64,
    /// Host calls refused inside builtins' callbacks, not taken yet
    /// ([`Machine::take_noted_calls`]).
    noted: Vec<HostCall>,
}

impl Machine {
    /// Prepare an execution of `program` with the host's `env`.
    pub fn new(program: &Program, env: &Env, budgets: Budgets) -> Machine {
        let cap = memory_cap(&budgets);
        if let Some(e) = foreign_global_error(program, env) {
            return Machine {
                vm: None,
                finished: Some(Step::Error(e)),
                returned: false,
                waiting_on: None,
                refusal: None,
                calls_started: 0,
                noted: Vec::new(),
            };
        }
        match Self::setup(program, env, cap) {
            Ok(vm) => Machine {
                vm: Some(Box::new(vm)),
                finished: None,
                returned: false,
                waiting_on: None,
                refusal: None,
                calls_started: 0,
                noted: Vec::new(),
            },
            Err(e) => Machine {
                vm: None,
                finished: Some(Step::Error(guest_error(None, e))),
                returned: false,
                waiting_on: None,
                refusal: None,
                calls_started: 0,
                noted: Vec::new(),
            },
        }
    }

    fn setup(program: &Program, env: &Env, cap: usize) -> Result<Vm, Throw> {
        let mut vm = stdlib_template()?.fork(program.inner.clone(), cap)?;
        // tools
        let root = build_tools(&mut vm, &env.tool_paths)?;
        vm.set_global("tools", root)?;
        let search = vm.heap.new_host(HostObj {
            kind: HostKind::Search,
            path: "search".into(),
            children: Vec::new(),
        });
        vm.set_global("search", Value::HostFn(search))?;
        for path in &env.extension_paths {
            let segs: Vec<&str> = path.split('.').collect();
            if segs.iter().any(|s| s.is_empty()) {
                continue;
            }
            let h = vm.heap.new_host(HostObj {
                kind: HostKind::Extension,
                path: path.clone(),
                children: Vec::new(),
            });
            let f = Value::HostFn(h);
            if segs.len() == 1 {
                vm.set_global(segs[0], f)?;
                continue;
            }
            let mut t = match vm.get_global(segs[0]) {
                Value::Table(t) => t,
                _ => {
                    let t = vm.heap.new_table(0, 4)?;
                    vm.set_global(segs[0], Value::Table(t))?;
                    t
                }
            };
            for seg in &segs[1..segs.len() - 1] {
                t = match vm.heap.table_get_field(t, seg) {
                    Value::Table(c) => c,
                    _ => {
                        let c = vm.heap.new_table(0, 4)?;
                        vm.heap.table_set_field(t, seg, Value::Table(c))?;
                        c
                    }
                };
            }
            vm.heap.table_set_field(t, segs[segs.len() - 1], f)?;
        }
        vm.missing = env.missing.clone();
        vm.tool_count = env.tool_paths.len();
        vm.start_main()?;
        Ok(vm)
    }

    /// After [`Step::Done`]: the main chunk ended by running off its end, not with a `return`
    /// statement (so its value is nil). Hosts warn about it: a model that forgot `return`
    /// otherwise sees a silent `null`.
    pub fn ended_without_return(&self) -> bool {
        self.vm.as_ref().is_some_and(|vm| vm.fell_off)
    }

    /// Lower the total fuel this execution may use (default and maximum:
    /// [`limits::MAX_TOTAL_FUEL`]). Past it, the run ends with the uncatchable ExecutionFailure
    /// "instruction limit exceeded: the program ran more than N steps; ...". Checked between
    /// slices and inside long builtins, so the overshoot is at most about one slice.
    pub fn set_fuel_limit(&mut self, max_fuel: u64) {
        if let Some(vm) = &mut self.vm {
            vm.heap.meter.fuel_cap = max_fuel.min(limits::MAX_TOTAL_FUEL);
        }
    }

    /// Bytes currently held by the execution.
    pub fn memory_used(&self) -> usize {
        self.vm.as_ref().map(|v| v.heap.meter.mem.used).unwrap_or(0)
    }

    /// Fuel units (about one per instruction) used so far.
    pub fn fuel_used(&self) -> u64 {
        self.vm.as_ref().map(|v| v.fuel_used()).unwrap_or(0)
    }

    /// Run at most about `slice` instructions (fuel units), then return the next [`Step`].
    /// After `Done` or `Error`, further calls return the same step.
    pub fn run(&mut self, slice: u32) -> Step {
        if let Some(s) = &self.finished {
            return s.clone();
        }
        if let Some(vm) = self.vm.as_mut() {
            vm.heap.meter.wants_pool = false;
            vm.collect_abandoned();
        }
        if self.returned {
            return self.export_result();
        }
        let Some(vm) = self.vm.as_mut() else {
            return not_runnable();
        };
        if vm.pending.is_some() {
            return Step::Error(GuestError {
                kind: ErrorKind::ExecutionFailure,
                message: "internal error: run() called while a host call waits for resume()".into(),
                location: None,
                suggestions: Vec::new(),
            });
        }
        if (vm.pending_handled.is_some() || vm.pending_error.is_some() && vm.in_xpcall())
            && vm.heap.meter.inline()
        {
            // A host error an `xpcall` may catch: its message handler cannot run in an
            // inline stretch (see `set_inline`).
            vm.heap.meter.wants_pool = true;
            return Step::Yield;
        }
        vm.begin_slice(slice);
        let r = (|| -> Result<Exit, Throw> {
            vm.raise_pending()?;
            vm.run_until(0)
        })();
        // Calls refused inside callbacks during this slice came before whatever ended it.
        for mut call in vm.noted.drain(..) {
            self.calls_started += 1;
            call.id = CallId(self.calls_started);
            self.noted.push(call);
        }
        let step = match r {
            Ok(Exit::Yield) => match vm.check_totals() {
                Ok(()) => return Step::Yield,
                Err(e) => {
                    // Between two slices (the deadline, the fuel cap): where the program was.
                    let here = vm.here();
                    let mut g = guest_error(Some(vm), e);
                    g.location = g.location.or(here);
                    Step::Error(g)
                }
            },
            Ok(Exit::Host(call)) => {
                let mut call = *call;
                self.calls_started += 1;
                call.id = CallId(self.calls_started);
                self.waiting_on = Some(call.target.clone());
                self.refusal = call.refused.clone();
                return Step::HostCall(call);
            }
            Ok(Exit::Returned) => {
                self.returned = true;
                return self.export_result();
            }
            Err(e) => Step::Error(guest_error(Some(vm), e)),
        };
        self.finished = Some(step.clone());
        step
    }

    /// Export the main chunk's first result (restartable in an inline stretch).
    fn export_result(&mut self) -> Step {
        let Some(vm) = self.vm.as_mut() else {
            return not_runnable();
        };
        let v = vm.main_results().first().copied().unwrap_or(Value::Nil);
        let mut work = 0u64;
        let inline = vm.heap.meter.inline();
        let exported = {
            let heap = restart::restartable(&mut vm.heap, inline);
            boundary::export(&heap, v, "result", &mut work)
        };
        let step = match exported {
            Ok(j) => Step::Done(j),
            Err(Throw::Restart) => {
                vm.restart_abandoned();
                return Step::Yield;
            }
            Err(e) => Step::Error(guest_error(Some(vm), e)),
        };
        self.returned = false;
        self.finished = Some(step.clone());
        step
    }

    /// Answer the pending [`Step::HostCall`]. Ignored when no call is pending.
    pub fn resume(&mut self, reply: HostReply) {
        let Some(vm) = self.vm.as_mut() else { return };
        // An import abandoned in an inline stretch left garbage (see `try_resume`).
        vm.collect_abandoned();
        let Some(p) = vm.pending.take() else { return };
        let target = self.waiting_on.take();
        let refusal = self.refusal.take();
        let suggestions = refusal
            .as_ref()
            .map(|r| r.suggestions.clone())
            .unwrap_or_default();
        let aborted = matches!(reply, HostReply::Abort(_));
        let reply = match (refusal, reply) {
            // A refused call cannot succeed, whatever the host answers.
            (Some(r), HostReply::Value(j)) => {
                boundary::drop_json(j);
                HostReply::error(r.kind, r.message, Vec::new())
            }
            (_, reply) => reply,
        };
        self.resume_inner(p, target, reply);
        // The refusal's suggestions stay with the error it raises (UnknownTool), not with an
        // abort (the tool-call limit) that ends the run instead.
        if !suggestions.is_empty()
            && !aborted
            && let Some(vm) = self.vm.as_mut()
            && let Some(d) = vm.pending_error.as_mut().and_then(Throw::error_mut)
            && d.suggestions.is_empty()
        {
            d.suggestions = suggestions;
        }
    }

    /// [`Machine::resume`] once the refusal (if any) has been applied.
    fn resume_inner(&mut self, p: vm::Pending, target: Option<HostTarget>, reply: HostReply) {
        let Some(vm) = self.vm.as_mut() else { return };
        match reply {
            HostReply::Value(j) => {
                let mut work = 0u64;
                let imported = boundary::import_from(&mut vm.heap, &j, &mut work, true);
                // Hostile output may nest arbitrarily deep: never drop it recursively.
                boundary::drop_json(j);
                self.deliver_import(p, target, imported, work);
            }
            HostReply::Error(e) => self.reply_error(p, e.kind, e.message, e.suggestions),
            HostReply::Abort(g) => {
                let mut t = Throw::fatal(g.kind, g.message);
                if let Some(d) = t.error_mut() {
                    d.location = g.location.or(p.location);
                    d.suggestions = g.suggestions;
                    d.positioned = true;
                }
                vm.pending_error = Some(t);
            }
        }
    }

    /// Hand an imported tool reply (or the import's failure) to the call `p`.
    fn deliver_import(
        &mut self,
        p: vm::Pending,
        target: Option<HostTarget>,
        imported: Result<Value, Throw>,
        work: u64,
    ) {
        let Some(vm) = self.vm.as_mut() else { return };
        match (imported, target) {
            (Ok(v), _) => {
                vm.heap.meter.fuel -= work as i64;
                vm.deliver(p, true, v)
            }
            // A tool's output that cannot become Lua data (too deep) is the tool's fault:
            // InvalidToolOutput, catchable like the host's own output checks.
            (Err(Throw::Error(d)), Some(HostTarget::Tool(path)))
                if d.kind == ErrorKind::InvalidDataValue =>
            {
                let message = format!(
                    "Invalid output from tool '{path}': {}",
                    match &d.value {
                        ErrVal::Msg(m) => m.as_str(),
                        ErrVal::Value(_) => "the output cannot be received",
                    }
                );
                self.reply_error(p, ErrorKind::InvalidToolOutput, message, Vec::new());
            }
            (Err(e), _) => vm.pending_error = Some(e),
        }
    }

    /// Answer the pending call `p` with an ordinary, catchable error; `suggestions` stay with
    /// the error if it ends the run.
    fn reply_error(
        &mut self,
        p: vm::Pending,
        kind: ErrorKind,
        message: String,
        suggestions: Vec<String>,
    ) {
        let Some(vm) = self.vm.as_mut() else { return };
        if p.refused && !p.pcall {
            // Refused by the machine itself: raised as its own error would have been (the
            // position prefix is added if a `pcall` catches it).
            let mut t = Throw::with_kind(kind, message);
            if let Some(d) = t.error_mut() {
                d.suggestions = suggestions;
                d.location = p.location;
            }
            vm.pending_error = Some(t);
            return;
        }
        if p.pcall && p.handler {
            // `xpcall(tools.x, handler, ...)`: the handler sees the message first.
            vm.pending_handled = Some((p, message));
            return;
        }
        let s = match vm.heap.new_str(message.as_bytes()) {
            Ok(s) => s,
            Err(e) => {
                vm.pending_error = Some(e);
                return;
            }
        };
        if p.pcall {
            vm.deliver(p, false, s);
        } else {
            let mut t = Throw::with_kind(kind, message);
            if let Some(d) = t.error_mut() {
                d.value = ErrVal::Value(s);
                d.suggestions = suggestions;
                d.location = p.location;
                d.positioned = true;
            }
            vm.pending_error = Some(t);
        }
    }

    /// Take the host calls the program attempted inside a builtin's callback (a tool called in
    /// a `table.sort` comparator, a `gsub` function or an `xpcall` handler, `pcall(pcall,
    /// tool)`), which the machine refused and raised as errors at once (it cannot suspend
    /// there). Each has [`CallMode::Continue`] and `refused` set; the host counts and lists
    /// them like any refused call. Ids are in program order with the other calls: take them
    /// after every [`Machine::run`] and before handling its [`Step::HostCall`].
    pub fn take_noted_calls(&mut self) -> Vec<HostCall> {
        std::mem::take(&mut self.noted)
    }

    /// Where the program is now: the instruction the next [`Machine::run`] starts at (after a
    /// `Yield`), or the call it waits on. `None` before the start or after the end.
    pub fn location(&self) -> Option<Location> {
        self.vm.as_ref().and_then(|vm| vm.here())
    }

    /// Whether [`Machine::take_noted_calls`] has calls to give.
    pub fn has_noted_calls(&self) -> bool {
        !self.noted.is_empty()
    }

    /// Take the warnings raised so far (at most [`limits::MAX_WARNINGS`] a run): constructs
    /// that ran but likely not as meant, e.g. `t.length` (nil in Lua) on an array or a string.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        match self.vm.as_mut() {
            Some(vm) => std::mem::take(&mut vm.warnings),
            None => Vec::new(),
        }
    }

    /// Take the log lines written by `print` so far (one entry per call, tab-separated args).
    pub fn take_logs(&mut self) -> Vec<String> {
        match self.vm.as_mut() {
            Some(vm) => {
                let logs = std::mem::take(&mut vm.heap.logs);
                let bytes: usize = logs.iter().map(heap::log_line_bytes).sum();
                vm.heap.meter.mem.release(bytes);
                logs
            }
            None => Vec::new(),
        }
    }
}

/// The ParseError for the first read of a JavaScript global the program never assigns
/// (`await`, `JSON`, ...; `proto::FOREIGN_GLOBALS`) and that is no extension of the host:
/// caught before the program runs, so `local res = await tools.x.y({})` fails at `await`
/// rather than at the next use of `res`.
fn foreign_global_error(program: &Program, env: &Env) -> Option<GuestError> {
    let read = program.inner.foreign.iter().find(|r| {
        !env.extension_paths
            .iter()
            .any(|p| p.split('.').next() == Some(r.global()))
    })?;
    Some(GuestError {
        kind: ErrorKind::ParseError,
        message: read.message(),
        location: Some(Location {
            line: read.pos.line,
            column: read.pos.column,
        }),
        suggestions: Vec::new(),
    })
}

/// The process-wide prepared standard library: built once, then copied into every machine
/// (copying is much cheaper than registering every native and interning every name again).
fn stdlib_template() -> Result<&'static Vm, Throw> {
    static TEMPLATE: std::sync::OnceLock<Result<Vm, String>> = std::sync::OnceLock::new();
    let t = TEMPLATE.get_or_init(|| {
        let build = || -> Result<Vm, Throw> {
            let mut vm = Vm::new(
                Arc::new(proto::ProgramData::default()),
                limits::MAX_MEMORY_BYTES,
            )?;
            stdlib::open_all(&mut vm)?;
            // Placeholders for the globals every machine sets (`Machine::setup`): their names
            // are interned and their slots exist, so a fork sets them without growing anything.
            vm.set_global("tools", Value::Bool(false))?;
            vm.set_global("search", Value::Bool(false))?;
            vm.heap.make_static();
            Ok(vm)
        };
        build().map_err(|e| format!("{:?}", e.error().map(|d| &d.value)))
    });
    match t {
        Ok(vm) => Ok(vm),
        Err(m) => Err(Throw::fatal(
            ErrorKind::ExecutionFailure,
            format!("internal error: the standard library failed to load: {}", m),
        )),
    }
}

/// Every global a program starts with besides extensions, sorted: `tools`, `search`, `_ENV`,
/// the standard library's globals as installed (stubs of absent features included), and
/// [`stdlib::WITHHELD_GLOBALS`]. Read from the prepared standard library, so it cannot drift.
pub(crate) fn reserved_globals() -> Vec<String> {
    let mut names: Vec<String> = ["tools", "search", "_ENV"]
        .iter()
        .chain(stdlib::WITHHELD_GLOBALS)
        .map(|s| s.to_string())
        .collect();
    if let Ok(vm) = stdlib_template() {
        let mut k = Value::Nil;
        while let Ok((Some((key, _)), _)) = vm.heap.table_next_counted(vm.globals, k) {
            if let Value::Str(s) = key {
                names.push(vm.heap.str_lossy(s));
            }
            k = key;
        }
    }
    names.sort();
    names.dedup();
    names
}

/// Build the `tools` namespace tree from canonical dotted paths.
fn build_tools(vm: &mut Vm, paths: &[String]) -> Result<Value, Throw> {
    use std::collections::BTreeMap;
    // path -> is_tool, for every node (prefixes included).
    let mut nodes: BTreeMap<String, bool> = BTreeMap::new();
    nodes.insert(String::new(), false);
    for p in paths {
        let segs: Vec<&str> = p.split('.').collect();
        if segs.iter().any(|s| s.is_empty()) {
            continue;
        }
        for i in 1..segs.len() {
            nodes.entry(segs[..i].join(".")).or_insert(false);
        }
        nodes.insert(p.clone(), true);
    }
    let mut refs: BTreeMap<String, Value> = BTreeMap::new();
    for (path, is_tool) in &nodes {
        let h = vm.heap.new_host(HostObj {
            kind: HostKind::Node { is_tool: *is_tool },
            path: path.clone(),
            children: Vec::new(),
        });
        refs.insert(
            path.clone(),
            if *is_tool {
                Value::HostFn(h)
            } else {
                Value::HostNs(h)
            },
        );
    }
    for path in nodes.keys() {
        if path.is_empty() {
            continue;
        }
        let (parent, seg) = match path.rfind('.') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path.as_str()),
        };
        let child = refs[path];
        let key = vm.heap.intern(seg.as_bytes())?;
        let (Value::HostNs(ph) | Value::HostFn(ph)) = refs[parent] else {
            continue;
        };
        vm.heap.hosts[ph.0 as usize].children.push((key, child));
    }
    Ok(refs[""])
}

/// Cut an error message to [`limits::MAX_ERROR_MESSAGE_BYTES`] (at a character boundary), saying
/// how long it was.
fn cap_message(message: String) -> String {
    let total = message.len();
    cap_message_of(message, total)
}

/// [`cap_message`] of the first bytes of a message `total` bytes long.
fn cap_message_of(mut message: String, total: usize) -> String {
    let max = limits::MAX_ERROR_MESSAGE_BYTES;
    if message.len() <= max && total <= max {
        return message;
    }
    let max = max.min(message.len());
    let mut cut = max;
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    message.truncate(cut);
    message.push_str(&format!(" ... [error message truncated: {total} bytes]"));
    message
}

/// Convert an uncaught error into a [`GuestError`].
fn guest_error(vm: Option<&mut Box<Vm>>, e: Throw) -> GuestError {
    let d = match e {
        Throw::Error(d) => *d,
        // Every restartable step is started where a restart is caught (`crate::restart`).
        Throw::Restart => {
            return GuestError {
                kind: ErrorKind::ExecutionFailure,
                message: "internal error: an inline step was not resumed on the blocking pool"
                    .into(),
                location: None,
                suggestions: Vec::new(),
            };
        }
    };
    let message = match &d.value {
        ErrVal::Msg(m) => m.clone(),
        ErrVal::Value(v) => match (vm, v) {
            // Only the part that survives `cap_message` is converted (a message may be 100 MB).
            (Some(vm), Value::Str(s)) => {
                let b = vm.heap.str_bytes(*s);
                let keep = b.len().min(limits::MAX_ERROR_MESSAGE_BYTES + 4);
                let text = String::from_utf8_lossy(&b[..keep]).into_owned();
                if keep < b.len() {
                    return GuestError {
                        kind: d.kind,
                        message: cap_message_of(text, b.len()),
                        location: d.location,
                        suggestions: d.suggestions,
                    };
                }
                text
            }
            (Some(vm), Value::Table(_)) => {
                let mut work = 0;
                match boundary::export(&vm.heap, *v, "error", &mut work) {
                    Ok(j) => format!("the program raised an error with a table value: {}", j),
                    Err(_) => "the program raised an error with a table value".to_string(),
                }
            }
            (_, Value::Nil) => "the program raised an error with a nil value".to_string(),
            (Some(vm), other) => format!(
                "the program raised an error with a {} value: {}",
                other.type_name(),
                vm::tostring_text(&vm.heap, *other)
            ),
            (None, other) => format!(
                "the program raised an error with a {} value",
                other.type_name()
            ),
        },
    };
    GuestError {
        kind: d.kind,
        message: cap_message(message),
        location: d.location,
        suggestions: d.suggestions,
    }
}

#[cfg(test)]
mod send_tests {
    fn assert_send<T: Send>() {}
    fn assert_sync<T: Sync>() {}
    #[test]
    fn machine_is_send() {
        assert_send::<super::Machine>();
        assert_send::<super::Program>();
        assert_sync::<super::Program>();
    }
}
