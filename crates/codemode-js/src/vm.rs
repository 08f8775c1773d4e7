//! The stackless machine: frames on a heap `Vec` (never the Rust stack), one dispatch loop for
//! every JavaScript call, exceptions unwound by per-frame handler stacks, fuel charged per
//! instruction and memory per allocation.
//!
//! Instructions that must run user code (a getter in `o.x`, a setter, a user iterator's
//! `next`) push the callee's frame with the instruction's destination register as the return
//! slot, so the dispatch loop never nests. Builtins that call back (`map`, `sort`) are
//! written in JavaScript (`prelude.js`); `Function.prototype.call`/`apply` are tail calls.

use std::sync::Arc;

use codemode_guest::{ErrorKind, GuestError, Location};

use crate::heap::{
    CONFIGURABLE, DEFAULT_ATTRS, ENUMERABLE, Elems, FRAME_BYTES, Func, HIDDEN_ATTRS, Heap, Iter,
    Key, Kind, OutOfMemory, Prop, Slot, VALUE_BYTES, WRITABLE,
};
use crate::limits::{
    MAX_ARGUMENTS, MAX_ARRAY_LENGTH, MAX_CALL_DEPTH, MAX_STACK_SLOTS, MAX_STRING_LENGTH,
};
use crate::proto::{BinOp, Capture, ErrorType, Op, ProgramData, Reg, UnOp};
use crate::string::JsStr;
use crate::value::{CellId, ObjId, StrId, SymId, Value};

mod class;
pub mod coro;
pub(crate) mod image;

use coro::{Finish, Resumption};

/// Why execution stopped abnormally.
#[derive(Clone, Debug)]
pub enum Throw {
    /// A catchable JavaScript exception.
    Js(Value),
    /// An uncatchable end of the run (memory, fuel, deadline).
    Fatal(GuestError),
    /// Internal: the instruction must call a user function (a `valueOf`/`toString`, a getter
    /// read by a builtin) on `this` and then run again, finding the result under the detour's
    /// tag; never leaves the dispatch loop.
    Convert(Value, Value, Detour),
    /// Internal: a native ran out of fuel mid-work (a RegExp search) with its state kept
    /// aside; the slice ends and the instruction runs again in the next one, continuing it.
    Suspend,
}

/// What a detour through user code computes for the instruction that runs again.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Detour {
    /// ToPrimitive of the object: its first method's result.
    Prim(ObjId),
    /// ToPrimitive of the object: its second method's result (the first gave an object).
    PrimNext(ObjId),
    /// A getter's value of the key on the receiver.
    Get(Value, Key),
    /// The object's `[Symbol.toPrimitive]` called with the hint (0 default, 1 number,
    /// 2 string).
    PrimHint(ObjId, u8),
    /// The constructor's `[Symbol.hasInstance]` called with the value (`instanceof`).
    HasInstance(ObjId, Value),
    /// The prelude's `exportPrepare` applied to a host call's argument (its `toJSON` methods
    /// and getters run, [`crate::boundary::export_call_input`]).
    Prepare(Value),
}

impl From<OutOfMemory> for Throw {
    fn from(e: OutOfMemory) -> Throw {
        Throw::Fatal(GuestError::new(
            ErrorKind::ExecutionFailure,
            format!(
                "memory limit exceeded: the program holds more than {} bytes; process data in smaller pieces",
                e.cap
            ),
        ))
    }
}

/// The result of an operation.
pub type Res<T> = Result<T, Throw>;

/// The uncatchable error of a run past its total fuel.
const FUEL_MESSAGE: &str = "instruction limit exceeded: the program ran too many steps; process less data or simplify the loops";

/// A native function: (machine, this, arguments) → value, or a call for the loop to make.
pub type NativeFn = fn(&mut Vm, Value, &[Value]) -> Res<Value>;

/// What pushing a frame needs of a function's prototype.
#[derive(Clone, Copy)]
struct Shape {
    nregs: u16,
    nparams: u16,
    ncells: u16,
    uses_args: bool,
}

impl Shape {
    fn of(f: &crate::proto::FuncProto) -> Shape {
        Shape {
            nregs: f.nregs,
            nparams: f.nparams,
            ncells: f.ncells,
            uses_args: f.uses_args,
        }
    }
}

/// One active call.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    /// The function object running (Undefined for a program body).
    callee: Value,
    prog: u16,
    func: u32,
    pc: u32,
    base: u32,
    pub(crate) cells: Vec<CellId>,
    /// The arguments as passed (for `arguments` and rest parameters).
    pub(crate) args: Vec<Value>,
    /// Where the caller wants the result (None: discard).
    ret: Option<Reg>,
    /// `new`: the object to return when the body returns a non-object.
    pub(crate) construct: Option<ObjId>,
    /// `new.target`: the constructor `new` was applied to (Undefined in a plain call).
    pub(crate) new_target: Value,
    /// Exception handlers: (target pc, register for the thrown value).
    handlers: Vec<(u32, Reg)>,
    /// Results of user `valueOf`/`toString` calls for the instruction being re-run.
    pub(crate) conversions: Vec<(Detour, Value)>,
    /// This frame computes a conversion of the object for its caller's instruction.
    converting: Option<Detour>,
    /// What its completion settles ([`Finish`]).
    pub(crate) finish: Finish,
    /// A resumed coroutine frame: what its suspending instruction delivers when it runs again.
    pub(crate) resumed: Option<Resumption>,
}

impl Frame {
    /// A frame that never runs, standing for a native called with `finish`.
    pub(crate) fn detached(finish: Finish) -> Frame {
        Frame {
            callee: Value::Undefined,
            prog: 0,
            func: 0,
            pc: 0,
            base: 0,
            cells: Vec::new(),
            args: Vec::new(),
            ret: None,
            construct: None,
            new_target: Value::Undefined,
            handlers: Vec::new(),
            conversions: Vec::new(),
            converting: None,
            finish,
            resumed: None,
        }
    }

    /// The running function object (Undefined for a body).
    pub fn callee_value(&self) -> Value {
        self.callee
    }
}

/// The well-known objects every run starts with.
#[derive(Clone, Copy, Debug, Default)]
pub struct Intrinsics {
    pub object_proto: Option<ObjId>,
    pub function_proto: Option<ObjId>,
    pub array_proto: Option<ObjId>,
    pub string_proto: Option<ObjId>,
    pub number_proto: Option<ObjId>,
    pub boolean_proto: Option<ObjId>,
    pub symbol_proto: Option<ObjId>,
    pub iterator_proto: Option<ObjId>,
    /// %ArrayIteratorPrototype%, %MapIteratorPrototype%, %SetIteratorPrototype%,
    /// %StringIteratorPrototype% (each over %Iterator.prototype%, with its own branded
    /// `next`).
    pub array_iter_proto: Option<ObjId>,
    pub map_iter_proto: Option<ObjId>,
    pub set_iter_proto: Option<ObjId>,
    pub string_iter_proto: Option<ObjId>,
    pub map_proto: Option<ObjId>,
    pub set_proto: Option<ObjId>,
    pub error_proto: Option<ObjId>,
    pub type_error_proto: Option<ObjId>,
    pub range_error_proto: Option<ObjId>,
    pub reference_error_proto: Option<ObjId>,
    pub syntax_error_proto: Option<ObjId>,
    pub sym_iterator: Option<SymId>,
    pub sym_async_iterator: Option<SymId>,
    pub sym_to_primitive: Option<SymId>,
    pub sym_to_string_tag: Option<SymId>,
    pub sym_has_instance: Option<SymId>,
    /// `Symbol.isConcatSpreadable` (§23.1.3.2.1 IsConcatSpreadable).
    pub sym_is_concat_spreadable: Option<SymId>,
    pub eval_error_proto: Option<ObjId>,
    pub uri_error_proto: Option<ObjId>,
    pub aggregate_error_proto: Option<ObjId>,
    pub weak_map_proto: Option<ObjId>,
    pub weak_set_proto: Option<ObjId>,
    pub regexp_proto: Option<ObjId>,
    /// %ThrowTypeError% (§10.2.4.1): `arguments.callee` and `Function.prototype.caller`.
    pub throw_type_error: Option<ObjId>,
    /// The prelude's `exportPrepare` (`prelude/json.js`): applies `toJSON` and getters to a
    /// result before the native export (`boundary.rs`).
    pub export_prepare: Option<ObjId>,
    /// The native of `Function.prototype[Symbol.hasInstance]` (instanceof skips it).
    pub native_has_instance: u16,
    /// `Promise` and `Promise.prototype`.
    pub promise_ctor: Option<ObjId>,
    pub promise_proto: Option<ObjId>,
    /// %GeneratorFunction.prototype.prototype% and the async one.
    pub generator_proto: Option<ObjId>,
    pub async_generator_proto: Option<ObjId>,
    /// The [[Prototype]] of async functions, generator functions and async generator
    /// functions.
    pub async_function_proto: Option<ObjId>,
    pub generator_function_proto: Option<ObjId>,
    pub async_generator_function_proto: Option<ObjId>,
    /// The natives behind every promise's resolving functions (bound to their record).
    pub resolve_fn: Option<ObjId>,
    pub reject_fn: Option<ObjId>,
    /// The prelude's `resolveSlow(promise, value)`: a resolution whose `then` is a getter.
    pub resolve_slow: Option<ObjId>,
    /// The prelude's `thenSlow(promise, onFulfilled, onRejected)`: `then` of a promise whose
    /// constructor is not `Promise`.
    pub then_slow: Option<ObjId>,
    /// The prelude's `getAsyncIterator(value)` (`for await`).
    pub get_async_iterator: Option<ObjId>,
    /// The prelude's `arrayGeneric`: the generic Array.prototype algorithms by method name,
    /// for receivers that are not arrays.
    pub array_generic: Option<ObjId>,
    /// The prelude's `fillFromIterable(target, iterable, adderName, pairs)`: the Map/Set
    /// constructors' loop over a user iterable or through a user adder.
    pub fill_from_iterable: Option<ObjId>,
    /// The prelude's initializers behind the `Intl.NumberFormat` and `Intl.DateTimeFormat`
    /// constructors (`builtins/intl.rs`).
    pub intl_number_init: Option<ObjId>,
    pub intl_date_init: Option<ObjId>,
    /// The natives behind tool functions and missing-tool functions (bound to the path).
    pub tool_fn: Option<ObjId>,
    pub missing_tool_fn: Option<ObjId>,
    /// The native of `search` and of extension functions (bound to the path).
    pub search_fn: Option<ObjId>,
    pub extension_fn: Option<ObjId>,
    /// The native of asynchronous extension functions.
    pub extension_async_fn: Option<ObjId>,
}

impl Intrinsics {
    /// Every intrinsic object (GC roots).
    pub fn objects(&self) -> Vec<ObjId> {
        [
            self.object_proto,
            self.function_proto,
            self.array_proto,
            self.string_proto,
            self.number_proto,
            self.boolean_proto,
            self.symbol_proto,
            self.iterator_proto,
            self.array_iter_proto,
            self.map_iter_proto,
            self.set_iter_proto,
            self.string_iter_proto,
            self.map_proto,
            self.set_proto,
            self.error_proto,
            self.type_error_proto,
            self.range_error_proto,
            self.reference_error_proto,
            self.syntax_error_proto,
            self.eval_error_proto,
            self.uri_error_proto,
            self.aggregate_error_proto,
            self.weak_map_proto,
            self.weak_set_proto,
            self.regexp_proto,
            self.throw_type_error,
            self.export_prepare,
            self.promise_ctor,
            self.promise_proto,
            self.generator_proto,
            self.async_generator_proto,
            self.async_function_proto,
            self.generator_function_proto,
            self.async_generator_function_proto,
            self.resolve_fn,
            self.reject_fn,
            self.resolve_slow,
            self.then_slow,
            self.get_async_iterator,
            self.array_generic,
            self.fill_from_iterable,
            self.intl_number_init,
            self.intl_date_init,
            self.tool_fn,
            self.missing_tool_fn,
            self.search_fn,
            self.extension_fn,
            self.extension_async_fn,
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// How a run of the loop ended.
pub enum Exit {
    /// Fuel spent.
    Yield,
    /// The program ended: its value and whether a `return` or trailing expression gave it.
    Done(Value, bool),
    /// No frame and no job: the body has settled, or it waits for the host, or for nothing.
    Idle,
}

/// One program's string constants as heap strings and keys, made on first use.
type ConstCache = Arc<Vec<Option<(StrId, Key)>>>;

/// The machine state. Plain data.
#[derive(Clone)]
pub struct Vm {
    pub heap: Heap,
    /// Builtin string conversions running inside one another (at most
    /// [`crate::limits::MAX_NATIVE_NESTING`]).
    pub native_nesting: u32,
    pub progs: Vec<Arc<ProgramData>>,
    /// Per program: its string constants as heap strings and as keys, made on first use.
    /// Shared with the template for the prelude (made in full, then frozen with the heap).
    consts: Vec<ConstCache>,
    /// Per program: its constants are the template's, shared and never cleared.
    consts_frozen: Vec<bool>,
    /// Per program: the template objects of its tagged-template sites, made on first use
    /// (roots for the collector).
    pub templates: Vec<Vec<Option<ObjId>>>,
    /// The hint for the model of the last error raised by a property read of
    /// `undefined`/`null` (`hints.rs`): the error value, the hint, spelling suggestions.
    /// Added to the diagnostic when that error ends the run uncaught.
    pub hint: Option<(Value, String, Vec<String>)>,
    pub regs: Vec<Value>,
    pub frames: Vec<Frame>,
    /// The register base of the innermost frame (kept with `frames`: pushes, returns,
    /// unwinding).
    base: usize,
    /// The key `length` (interned first in every heap).
    pub length_key: Key,
    pub global: ObjId,
    pub intr: Intrinsics,
    pub logs: Vec<String>,
    /// Fuel left in this slice.
    pub fuel: i64,
    /// Fuel used by finished slices.
    pub fuel_used: u64,
    /// The total fuel the run may use.
    pub fuel_cap: u64,
    /// Where the last exception was thrown (for uncaught errors).
    pub throw_at: Option<Location>,
    /// Where the latest thrown values were first thrown (at most
    /// [`crate::limits::MAX_THROW_ORIGINS`], newest last; GC roots): a value thrown again (a
    /// `for…of` closing its iterator, an `await` of a rejected call, `catch (e) { throw e }`)
    /// keeps the place it came from, as node's stack does.
    pub throw_origins: Vec<(Value, Location)>,
    /// The native table.
    pub natives: &'static [(&'static str, NativeFn, u16)],
    /// The clock, the random generator and the web-platform prototypes.
    pub platform: crate::builtins::platform::State,
    /// The function object of the frame being pushed.
    pending_callee: Option<Value>,
    /// Accounted bytes at which the next collection runs.
    pub gc_at: usize,
    /// An error raised while delivering a return value (a conversion's non-primitive result).
    pending_throw: Option<Throw>,
    /// The object `new` made for the native running now (None: called without `new`).
    pub native_construct: Option<ObjId>,
    /// RegExp state: the pattern cache, a search a slice interrupted, the protocol symbols.
    pub regexp: crate::builtins::regexp::State,
    /// The run's deadline, checked by long natives ([`Vm::work_check`]).
    pub deadline: Option<std::time::Instant>,
    /// The fuel the current slice started with.
    slice_fuel: i64,
    /// Work charged by [`Vm::work_check`] since its last look at the clock.
    work_since_check: usize,
    /// This run is inline (on an async thread, [`codemode_guest::Budget::soft_deadline`]):
    /// collections and natives over large values wait for a run on the blocking pool.
    pub inline: bool,
    /// The buffer of the objects on an export's path (`boundary.rs`), reused by each export.
    pub export_stack: Vec<ObjId>,
    /// The location of the last host call's instruction, by (program, function, pc): a loop
    /// calling one tool looks it up once.
    pub call_site: Option<((u16, u32, u32), Option<Location>)>,
    /// The job queue (reaction and resolve-thenable jobs, `queueMicrotask`), first in first out.
    pub jobs: std::collections::VecDeque<coro::Job>,
    /// What the native that just returned asked the call loop to do in its place.
    pub tail: Option<coro::Tail>,
    /// Promises rejected while nothing observed them (checked again at the end).
    pub unhandled: Vec<ObjId>,
    /// Constructs that ran but likely not as meant (a Promise used as data, `for…in` over
    /// an array): `LikelyMistake` warnings of a successful run, at most
    /// [`crate::limits::MAX_SLIP_WARNINGS`], one per message and place.
    pub slips: Vec<(String, Option<Location>)>,
    /// Promises made so far (their creation order).
    pub promise_serial: u64,
    /// Promises not settled yet.
    pub pending_promises: usize,
    /// The coroutine of the program's body.
    pub body: Option<ObjId>,
    /// The body ended with a `return` (not with its trailing expression or its end).
    pub body_returned: bool,
    /// Where the body returned (its `return`, or its last expression statement): the
    /// location of an error exporting its value.
    pub body_end_at: Option<Location>,
    /// Where the exception that rejected the body was thrown.
    pub body_error_at: Option<Location>,
    /// The run's host calls.
    pub host: coro::HostCalls,
    /// Once the body has settled: the jobs still to run (those queued by then; what they
    /// queue in turn is dropped, so leftover microtasks cannot hold a finished result).
    pub drain_left: Option<usize>,
    /// The keys `then` and `constructor`.
    pub then_key: Key,
    pub constructor_key: Key,
}

impl Vm {
    /// An empty machine (no intrinsics yet).
    pub fn empty(cap: usize, natives: &'static [(&'static str, NativeFn, u16)]) -> Vm {
        let mut heap = Heap::new(cap);
        let global = heap.new_obj(None, Kind::Ordinary).unwrap_or(ObjId(0));
        let length_key = heap.key("length");
        let then_key = heap.key("then");
        let constructor_key = heap.key("constructor");
        Vm {
            heap,
            native_nesting: 0,
            progs: Vec::new(),
            consts: Vec::new(),
            consts_frozen: Vec::new(),
            templates: Vec::new(),
            hint: None,
            regs: Vec::new(),
            frames: Vec::new(),
            base: 0,
            length_key,
            global,
            intr: Intrinsics::default(),
            logs: Vec::new(),
            fuel: 0,
            fuel_used: 0,
            fuel_cap: crate::limits::MAX_TOTAL_FUEL,
            throw_at: None,
            throw_origins: Vec::new(),
            natives,
            platform: Default::default(),
            pending_callee: None,
            gc_at: crate::gc::GC_MIN_BYTES,
            pending_throw: None,
            native_construct: None,
            regexp: Default::default(),
            deadline: None,
            slice_fuel: 0,
            work_since_check: 0,
            inline: false,
            export_stack: Vec::new(),
            call_site: None,
            jobs: Default::default(),
            tail: None,
            unhandled: Vec::new(),
            slips: Vec::new(),
            promise_serial: 0,
            pending_promises: 0,
            body: None,
            body_returned: false,
            body_end_at: None,
            body_error_at: None,
            host: Default::default(),
            then_key,
            constructor_key,
            drain_left: None,
        }
    }

    /// Add a compiled program; returns its index.
    pub fn add_program(&mut self, p: Arc<ProgramData>) -> u16 {
        self.consts.push(Arc::new(vec![None; p.strings.len()]));
        self.consts_frozen.push(false);
        self.templates.push(vec![None; p.templates.len()]);
        self.progs.push(p);
        (self.progs.len() - 1) as u16
    }

    /// Start running function 0 of program `prog` (its body) with `this` undefined.
    pub fn start(&mut self, prog: u16) -> Res<()> {
        let shape = Shape::of(&self.progs[prog as usize].funcs[0]);
        self.push_frame(prog, 0, Value::Undefined, Vec::new(), None, None, shape)?;
        self.frames.last_mut().expect("frame").finish = Finish::Done;
        Ok(())
    }

    // ----- helpers ----------------------------------------------------------------------

    /// Forget the program constants' heap strings (the collector frees unreferenced ones).
    pub fn clear_const_cache(&mut self) {
        for (c, frozen) in self.consts.iter_mut().zip(&self.consts_frozen) {
            if !frozen {
                Arc::make_mut(c).iter_mut().for_each(|x| *x = None);
            }
        }
    }

    /// Make every constant of the programs loaded so far and share them with the machines
    /// cloned from this one (the template, before [`crate::heap::Heap::freeze`]).
    pub fn freeze_consts(&mut self) -> Res<()> {
        for p in 0..self.progs.len() {
            for k in 0..self.progs[p].strings.len() {
                self.konst(p as u16, k as u32)?;
            }
            self.consts_frozen[p] = true;
        }
        Ok(())
    }

    fn konst(&mut self, prog: u16, k: u32) -> Res<(StrId, Key)> {
        if let Some(c) = self.consts[prog as usize][k as usize] {
            return Ok(c);
        }
        let s = self.progs[prog as usize].strings[k as usize].clone();
        let key = self.heap.key_of(&s)?;
        let id = self.heap.new_str(s)?;
        Arc::make_mut(&mut self.consts[prog as usize])[k as usize] = Some((id, key));
        Ok((id, key))
    }

    /// The template object of tagged-template site `site` of program `prog` (§13.2.8.4
    /// GetTemplateObject): a frozen array of the cooked strings (`undefined` for an invalid
    /// escape) whose non-enumerable `raw` is a frozen array of the raw strings; one object
    /// per site for the whole run.
    fn template_object(&mut self, prog: u16, site: u32) -> Res<ObjId> {
        if let Some(o) = self.templates[prog as usize][site as usize] {
            return Ok(o);
        }
        let data = Arc::clone(&self.progs[prog as usize]);
        let t = &data.templates[site as usize];
        let mut cooked = Vec::with_capacity(t.cooked.len());
        for c in &t.cooked {
            cooked.push(match c {
                Some(k) => Value::Str(self.konst(prog, *k)?.0),
                None => Value::Undefined,
            });
        }
        let mut raw = Vec::with_capacity(t.raw.len());
        for k in &t.raw {
            raw.push(Value::Str(self.konst(prog, *k)?.0));
        }
        let (Value::Obj(cooked), Value::Obj(raw)) = (self.new_array(cooked)?, self.new_array(raw)?)
        else {
            unreachable!("new_array makes objects")
        };
        crate::builtins::set_integrity(self, raw, true);
        let key = self.heap.key("raw");
        self.define(cooked, key, Slot::Data(Value::Obj(raw)), 0)?;
        crate::builtins::set_integrity(self, cooked, true);
        self.templates[prog as usize][site as usize] = Some(cooked);
        Ok(cooked)
    }

    pub fn str_val(&mut self, s: &str) -> Res<Value> {
        Ok(Value::Str(self.heap.new_str(JsStr::from_str(s))?))
    }

    pub fn js_str(&mut self, s: JsStr) -> Res<Value> {
        if s.len() > MAX_STRING_LENGTH {
            return Err(self.range_error("Invalid string length"));
        }
        Ok(Value::Str(self.heap.new_str(s)?))
    }

    /// A new error object of the given prototype with `message`.
    pub fn make_error(&mut self, proto: Option<ObjId>, msg: &str) -> Value {
        let r = (|| -> Res<Value> {
            let o = self.heap.new_obj(proto, Kind::Error)?;
            let m = self.str_val(msg)?;
            let k = self.heap.key("message");
            self.define(o, k, Slot::Data(m), HIDDEN_ATTRS)?;
            Ok(Value::Obj(o))
        })();
        r.unwrap_or(Value::Undefined)
    }

    fn err_of(&mut self, t: ErrorType, msg: &str) -> Throw {
        let proto = match t {
            ErrorType::TypeError => self.intr.type_error_proto,
            ErrorType::RangeError => self.intr.range_error_proto,
            ErrorType::ReferenceError => self.intr.reference_error_proto,
            ErrorType::SyntaxError => self.intr.syntax_error_proto,
        };
        if self.heap.used > self.heap.cap {
            return Throw::from(OutOfMemory { cap: self.heap.cap });
        }
        Throw::Js(self.make_error(proto, msg))
    }

    pub fn err_syntax(&mut self, msg: &str) -> Throw {
        self.err_of(ErrorType::SyntaxError, msg)
    }

    pub fn type_error(&mut self, msg: &str) -> Throw {
        self.err_of(ErrorType::TypeError, msg)
    }

    pub fn range_error(&mut self, msg: &str) -> Throw {
        self.err_of(ErrorType::RangeError, msg)
    }

    /// Note a likely mistake at the current instruction (see [`Vm::slips`]).
    pub fn slip(&mut self, message: String) {
        if self.slips.len() >= crate::limits::MAX_SLIP_WARNINGS {
            return;
        }
        self.work(crate::limits::SLIP_WORK);
        let at = self.location();
        if !self.slips.iter().any(|(m, a)| *a == at && *m == message) {
            self.slips.push((message, at));
        }
    }

    /// Charge `n` units of builtin work against the slice's fuel.
    pub fn work(&mut self, n: usize) {
        self.fuel -= n as i64;
    }

    /// Charge `n` units of builtin work and check the run's bounds inside a long native:
    /// the total fuel and the deadline end the run (uncatchably) there, so a single native
    /// call cannot run past either by more than a chunk of work.
    pub fn work_check(&mut self, n: usize) -> Res<()> {
        self.fuel -= n as i64;
        self.work_since_check += n;
        if self.work_since_check < crate::limits::WORK_CHUNK {
            return Ok(());
        }
        self.work_since_check = 0;
        let spent = (self.slice_fuel - self.fuel).max(0) as u64;
        if self.fuel_used.saturating_add(spent) > self.fuel_cap {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                FUEL_MESSAGE,
            )));
        }
        if let Some(d) = self.deadline
            && std::time::Instant::now() >= d
        {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::TimeoutExceeded,
                "the execution timed out",
            )));
        }
        Ok(())
    }

    /// Define (or overwrite) an own property.
    pub fn define(&mut self, o: ObjId, key: Key, slot: Slot, attrs: u8) -> Res<()> {
        if let (Key::Index(i), Kind::Array(_)) = (key, &self.heap.obj(o).kind)
            && matches!(slot, Slot::Data(_))
            && attrs == DEFAULT_ATTRS
        {
            let Slot::Data(v) = slot else { unreachable!() };
            return self.array_set(o, i, v);
        }
        if let (Key::Index(i), Kind::Bytes { .. }) = (key, &self.heap.obj(o).kind) {
            // Elements hold bytes only (a number is written, anything else ignored).
            if let Slot::Data(Value::Num(n)) = slot {
                crate::builtins::bytes::store(
                    self,
                    o,
                    i as usize,
                    crate::builtins::bytes::to_uint8(n),
                );
            }
            return Ok(());
        }
        Ok(self.heap.put_prop(o, key, slot, attrs)?)
    }

    fn array_set(&mut self, o: ObjId, i: u32, v: Value) -> Res<()> {
        let i = i as usize;
        if i >= MAX_ARRAY_LENGTH {
            return Err(self.range_error("Invalid array length"));
        }
        let grow = match &self.heap.obj(o).kind {
            Kind::Array(e) | Kind::Arguments(e) => e.growth_for(i),
            _ => return Ok(()),
        };
        if grow > 0 {
            self.heap.fits(grow)?;
            self.work(grow / VALUE_BYTES);
        }
        self.elems_mut(o, |e| e.set(i, v))?;
        Ok(())
    }

    /// Change the elements of array (or `arguments`) `o` with `f`, charging what their
    /// storage grew by (a shrink is returned at the next collection).
    pub fn elems_mut<T>(&mut self, o: ObjId, f: impl FnOnce(&mut Elems) -> T) -> Res<T> {
        let (Kind::Array(e) | Kind::Arguments(e)) = &mut self.heap.obj_mut(o).kind else {
            return Err(self.type_error("Array method called on a non-array"));
        };
        let before = e.bytes();
        let r = f(e);
        let after = e.bytes();
        if after > before {
            self.heap.charge(after - before)?;
        }
        Ok(r)
    }

    /// The elements of array (or `arguments`) `o`.
    pub fn elems(&self, o: ObjId) -> Option<&Elems> {
        match &self.heap.obj(o).kind {
            Kind::Array(e) | Kind::Arguments(e) => Some(e),
            _ => None,
        }
    }

    /// Store element `i` of array `o` (growing it with holes), charged.
    pub fn array_set_element(&mut self, o: ObjId, i: u32, v: Value) -> Res<()> {
        self.array_set(o, i, v)
    }

    /// HasProperty: `key` on `v` or its prototypes.
    pub fn has_property(&mut self, v: Value, key: Key) -> bool {
        self.lookup(v, key).is_some()
    }

    /// A key as error messages show it (`x`, `0`, `Symbol(foo)`).
    pub fn key_display(&self, key: Key) -> String {
        self.key_text(key)
    }

    /// A new array of `items`.
    pub fn new_array(&mut self, items: Vec<Value>) -> Res<Value> {
        self.new_array_of(Elems::from_vec(items))
    }

    /// A new array of elements `e`.
    pub fn new_array_of(&mut self, e: Elems) -> Res<Value> {
        self.heap.charge(e.bytes())?;
        let o = self.heap.new_obj(self.intr.array_proto, Kind::Array(e))?;
        Ok(Value::Obj(o))
    }

    pub fn new_object(&mut self) -> Res<ObjId> {
        Ok(self.heap.new_obj(self.intr.object_proto, Kind::Ordinary)?)
    }

    // ----- frames and calls -------------------------------------------------------------

    #[allow(clippy::too_many_arguments)]
    fn push_frame(
        &mut self,
        prog: u16,
        func: u32,
        this: Value,
        args: Vec<Value>,
        ret: Option<Reg>,
        construct: Option<ObjId>,
        f: Shape,
    ) -> Res<()> {
        let base = self.regs.len();
        self.grow_regs(f)?;
        self.regs[base] = this;
        for (i, a) in args.iter().take(f.nparams as usize).enumerate() {
            self.regs[base + 1 + i] = *a;
        }
        let args = if f.uses_args { args } else { Vec::new() };
        self.enter_frame(prog, func, base, args, ret, construct, f)
    }

    /// Room for a new frame's registers (all `undefined`) above the current top.
    fn grow_regs(&mut self, f: Shape) -> Res<()> {
        if self.frames.len() >= MAX_CALL_DEPTH
            || self.regs.len() + f.nregs as usize > MAX_STACK_SLOTS
        {
            return Err(self.range_error("Maximum call stack size exceeded"));
        }
        let base = self.regs.len();
        self.regs.resize(base + f.nregs as usize, Value::Undefined);
        Ok(())
    }

    /// Pop the running frame and its registers, giving back what [`Vm::enter_frame`] charged
    /// for them (the collector counts live frames the same way), so a program making many
    /// short calls does not collect for memory it no longer holds.
    fn pop_frame(&mut self) -> Frame {
        let f = self.frames.pop().expect("frame");
        let regs = self.regs.len().saturating_sub(f.base as usize);
        self.heap.used = self
            .heap
            .used
            .saturating_sub(FRAME_BYTES + regs * VALUE_BYTES);
        self.regs.truncate(f.base as usize);
        self.base = self.frames.last().map_or(0, |f| f.base as usize);
        f
    }

    /// Push the frame whose registers start at `base` (`this` and the parameters in place).
    #[allow(clippy::too_many_arguments)]
    fn enter_frame(
        &mut self,
        prog: u16,
        func: u32,
        base: usize,
        args: Vec<Value>,
        ret: Option<Reg>,
        construct: Option<ObjId>,
        f: Shape,
    ) -> Res<()> {
        let mut cells = Vec::with_capacity(f.ncells as usize);
        for _ in 0..f.ncells {
            cells.push(self.heap.new_cell(Value::Undefined)?);
        }
        self.heap
            .charge(FRAME_BYTES + f.nregs as usize * VALUE_BYTES)?;
        self.frames.push(Frame {
            callee: self.pending_callee.take().unwrap_or(Value::Undefined),
            prog,
            func,
            pc: 0,
            base: base as u32,
            cells,
            args,
            ret,
            construct,
            new_target: Value::Undefined,
            handlers: Vec::new(),
            conversions: Vec::new(),
            converting: None,
            finish: Finish::Normal,
            resumed: None,
        });
        self.base = base;
        Ok(())
    }

    /// `callee(this, regs[first..first + n])` for a call instruction: a plain closure whose
    /// body does not read `arguments` gets its parameters copied register to register (no
    /// argument list is made); everything else goes through [`Vm::call`].
    fn call_regs(
        &mut self,
        callee: Value,
        this: Value,
        first: usize,
        n: usize,
        dst: Reg,
    ) -> Res<Option<Value>> {
        let (mut callee, mut this, mut first, mut n) = (callee, this, first, n);
        // `f.call(t, ...)` and the prelude's `call(f, t, ...)`: the callee and receiver are
        // registers too, so the fast path below applies to the function they name.
        while let Value::Obj(o) = callee
            && let Kind::Function(Func::Native(k)) = self.heap.obj(o).kind
        {
            match k {
                crate::builtins::NATIVE_CALL => {
                    callee = this;
                    this = if n > 0 {
                        self.regs[first]
                    } else {
                        Value::Undefined
                    };
                    first += n.min(1);
                    n -= n.min(1);
                }
                crate::builtins::NATIVE_INTR_CALL => {
                    callee = if n > 0 {
                        self.regs[first]
                    } else {
                        Value::Undefined
                    };
                    this = if n > 1 {
                        self.regs[first + 1]
                    } else {
                        Value::Undefined
                    };
                    first += n.min(2);
                    n -= n.min(2);
                }
                _ => break,
            }
        }
        if let Value::Obj(o) = callee
            && let Kind::Function(Func::Closure { prog, func, .. }) = self.heap.obj(o).kind
        {
            let f = &self.progs[prog as usize].funcs[func as usize];
            if !f.uses_args && !f.class_ctor {
                let shape = Shape::of(f);
                let base = self.regs.len();
                self.grow_regs(shape)?;
                self.regs[base] = this;
                let m = n.min(shape.nparams as usize);
                self.regs.copy_within(first..first + m, base + 1);
                self.pending_callee = Some(callee);
                self.enter_frame(prog, func, base, Vec::new(), Some(dst), None, shape)?;
                return Ok(None);
            }
        }
        let args = self.regs[first..first + n].to_vec();
        self.call(callee, this, args, Some(dst), None)
    }

    /// Cell `idx` of the running closure's captured cells.
    fn up_cell(&self, idx: u16) -> CellId {
        match self.frame().callee {
            Value::Obj(o) => match &self.heap.obj(o).kind {
                Kind::Function(Func::Closure { ups, .. }) => ups[idx as usize],
                _ => unreachable!("a frame reading captured cells runs a closure"),
            },
            _ => unreachable!("a frame reading captured cells runs a closure"),
        }
    }

    /// Call `callee`; a closure gets a frame (its result lands in the caller's `ret`), a
    /// native runs now. Returns `Some(value)` when the result is ready.
    pub fn call(
        &mut self,
        callee: Value,
        this: Value,
        args: Vec<Value>,
        ret: Option<Reg>,
        construct: Option<ObjId>,
    ) -> Res<Option<Value>> {
        self.call_with(callee, this, args, ret, construct, Finish::Normal)
    }

    /// [`Vm::call`] whose completion goes through `finish` (a frame's, or at once for a
    /// native).
    pub fn call_with(
        &mut self,
        callee: Value,
        this: Value,
        mut args: Vec<Value>,
        ret: Option<Reg>,
        mut construct: Option<ObjId>,
        mut finish: Finish,
    ) -> Res<Option<Value>> {
        let mut callee = callee;
        let mut this = this;
        loop {
            let Value::Obj(o) = callee else {
                return Err(self.type_error("value is not a function"));
            };
            let Kind::Function(func) = &self.heap.obj(o).kind else {
                return Err(self.type_error("value is not a function"));
            };
            let func = match func {
                Func::Closure { prog, func, .. } => Func::Closure {
                    prog: *prog,
                    func: *func,
                    ups: Vec::new(),
                },
                other => other.clone(),
            };
            match func {
                Func::Closure { prog, func, .. } => {
                    let f = &self.progs[prog as usize].funcs[func as usize];
                    if construct.is_some() && !f.constructible {
                        let name = f.name.clone();
                        return Err(self.type_error(&format!("{name} is not a constructor")));
                    }
                    if construct.is_none() && f.class_ctor {
                        let name = f.name.clone();
                        return Err(self.type_error(&format!(
                            "Class constructor {name} cannot be invoked without 'new'"
                        )));
                    }
                    let shape = Shape::of(f);
                    self.pending_callee = Some(Value::Obj(o));
                    self.push_frame(prog, func, this, args, ret, construct, shape)?;
                    self.frames.last_mut().expect("frame").finish = finish;
                    return Ok(None);
                }
                Func::Bound {
                    target,
                    this: bthis,
                    args: bargs,
                } => {
                    let mut all = bargs;
                    all.extend(args);
                    args = all;
                    callee = Value::Obj(target);
                    if construct.is_none() {
                        this = bthis;
                    }
                }
                Func::Native(n) => {
                    if n == crate::builtins::NATIVE_CALL {
                        callee = this;
                        this = args.first().copied().unwrap_or(Value::Undefined);
                        if !args.is_empty() {
                            args.remove(0);
                        }
                        continue;
                    }
                    if n == crate::builtins::NATIVE_INTR_CALL {
                        callee = args.first().copied().unwrap_or(Value::Undefined);
                        this = args.get(1).copied().unwrap_or(Value::Undefined);
                        args.drain(..args.len().min(2));
                        continue;
                    }
                    if n == crate::builtins::NATIVE_APPLY {
                        callee = this;
                        this = args.first().copied().unwrap_or(Value::Undefined);
                        let list = args.get(1).copied().unwrap_or(Value::Undefined);
                        args = self.list_from_array_like(list)?;
                        continue;
                    }
                    self.fuel -= 1;
                    if self.inline && self.heavy_native_call(n, this, &args) {
                        // Work proportional to a large argument: left to a run on the
                        // blocking pool (the instruction runs again there).
                        return Err(Throw::Suspend);
                    }
                    // Function.prototype (no entry in the table) accepts any arguments and
                    // returns undefined (ECMA-262 §20.2.3).
                    let Some(&(_, f, _)) = self.natives.get(n as usize) else {
                        return Ok(Some(Value::Undefined));
                    };
                    let recv = match construct {
                        Some(o) => Value::Obj(o),
                        None => this,
                    };
                    let outer = self.native_construct;
                    self.native_construct = construct;
                    let v = f(self, recv, &args);
                    self.native_construct = outer;
                    match (self.tail.take(), v) {
                        (
                            Some(coro::Tail::Call {
                                f,
                                this: t,
                                args: a,
                                finish: fin,
                            }),
                            Ok(_),
                        ) => {
                            if finish == Finish::Normal {
                                callee = f;
                                this = t;
                                args = a;
                                construct = None;
                                finish = fin;
                                continue;
                            }
                            // Both finish something: the tail call runs first in its own frame.
                            self.call_with(f, t, a, None, None, fin)?;
                            return self.finish_native(finish, Ok(Value::Undefined));
                        }
                        (
                            Some(coro::Tail::Resume {
                                coro,
                                mode,
                                value,
                                result,
                            }),
                            Ok(_),
                        ) => {
                            let Some(result) = result else {
                                self.resume(coro, mode, value, ret)?;
                                return Ok(None);
                            };
                            // The caller has its promise now; the resumed frame owes it nothing.
                            let caller_has_frame = !self.frames.is_empty();
                            self.resume(coro, mode, value, None)?;
                            if finish != Finish::Normal || !caller_has_frame {
                                return self.finish_native(finish, Ok(result));
                            }
                            if let Some(r) = ret {
                                let n = self.frames.len();
                                let b = self.frames[n - 2].base as usize;
                                self.regs[b + r as usize] = result;
                            }
                            return Ok(None);
                        }
                        (_, v) => return self.finish_native(finish, v),
                    }
                }
            }
        }
    }

    /// The elements of an array-like (apply, spread of arguments).
    pub fn list_from_array_like(&mut self, v: Value) -> Res<Vec<Value>> {
        match v {
            Value::Undefined | Value::Null => Ok(Vec::new()),
            Value::Obj(o) => {
                if let Kind::Array(e) | Kind::Arguments(e) = &self.heap.obj(o).kind {
                    if e.len() > MAX_ARGUMENTS {
                        return Err(self.range_error("Maximum call stack size exceeded"));
                    }
                    let e: Vec<Value> = e
                        .to_vec()
                        .into_iter()
                        .map(|v| {
                            if matches!(v, Value::Empty) {
                                Value::Undefined
                            } else {
                                v
                            }
                        })
                        .collect();
                    self.work(e.len());
                    return Ok(e);
                }
                let len = self.get_simple(v, "length")?;
                let n = self.to_number(len)?;
                let n = if n.is_nan() {
                    0
                } else {
                    n.clamp(0.0, MAX_ARGUMENTS as f64 + 1.0) as usize
                };
                if n > MAX_ARGUMENTS {
                    return Err(self.range_error("Maximum call stack size exceeded"));
                }
                let mut out = Vec::with_capacity(n);
                for i in 0..n {
                    out.push(self.get_value(v, Key::Index(i as u32))?);
                }
                Ok(out)
            }
            _ => Err(self.type_error("CreateListFromArrayLike called on non-object")),
        }
    }

    /// The elements `0..length` of an array-like object (ToObject done by the caller) as a
    /// list for a native to work through (Array methods called on `{ length, 0: … }`): bounded
    /// by the memory limit (the list is checked to fit before it is made), not by
    /// [`MAX_ARGUMENTS`], which bounds only argument lists.
    pub fn elements_of(&mut self, o: ObjId) -> Res<Vec<Value>> {
        let v = Value::Obj(o);
        let len = self.get_simple(v, "length")?;
        let n = self.to_number(len)?;
        let n = if n.is_nan() {
            0.0
        } else {
            n.clamp(0.0, MAX_ARRAY_LENGTH as f64)
        } as usize;
        self.heap
            .fits(n.saturating_mul(crate::heap::VALUE_BYTES))
            .map_err(Throw::from)?;
        self.work(n);
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            out.push(self.get_value(v, Key::Index(i as u32))?);
        }
        Ok(out)
    }

    // ----- property access --------------------------------------------------------------

    /// The prototype used for property lookup on `v`.
    fn proto_of_value(&self, v: Value) -> Option<ObjId> {
        match v {
            Value::Obj(o) => Some(o),
            Value::Str(_) => self.intr.string_proto,
            Value::Num(_) => self.intr.number_proto,
            Value::Bool(_) => self.intr.boolean_proto,
            Value::Sym(_) => self.intr.symbol_proto,
            _ => None,
        }
    }

    /// Own property of an object, including array elements, string-object chars and `length`.
    pub fn own(&mut self, o: ObjId, key: Key) -> Option<Prop> {
        let obj = self.heap.obj(o);
        match (&obj.kind, key) {
            (Kind::Array(e) | Kind::Arguments(e), Key::Index(i)) => {
                if let Some(v) = e.get(i as usize) {
                    // An element with attributes of its own has them in a props entry
                    // (whose slot is unused).
                    let attrs = match obj.props.get(key) {
                        Some(p) => p.attrs,
                        None => obj.element_attrs(),
                    };
                    return Some(Prop {
                        key,
                        slot: Slot::Data(v),
                        attrs,
                    });
                }
                // A hole: an accessor element lives among the props.
            }
            (Kind::Bytes { .. }, Key::Index(i)) => {
                // An integer-indexed element (none past the end, whatever the prototypes
                // hold).
                return crate::builtins::bytes::byte_at(self, o, i as usize).map(|b| Prop {
                    key,
                    slot: Slot::Data(Value::Num(f64::from(b))),
                    attrs: DEFAULT_ATTRS,
                });
            }
            (Kind::String(s), Key::Index(i)) => {
                let s = *s;
                let st = self.heap.str(s);
                if (i as usize) < st.len() {
                    let u = st.at(i as usize);
                    let v = self.heap.new_str(JsStr::from_units(vec![u])).ok()?;
                    return Some(Prop {
                        key,
                        slot: Slot::Data(Value::Str(v)),
                        attrs: ENUMERABLE,
                    });
                }
            }
            _ => {}
        }
        if let Kind::String(s) = obj.kind
            && key == self.length_key
        {
            // A String object's `length` (ECMA-262 §10.4.3: not writable, enumerable or
            // configurable).
            return Some(Prop {
                key,
                slot: Slot::Data(Value::Num(self.heap.str(s).len() as f64)),
                attrs: 0,
            });
        }
        if let Key::Name(a) = key
            && let Kind::Array(e) | Kind::Arguments(e) = &obj.kind
            && Key::Name(a) == self.length_key
        {
            let n = e.len() as f64;
            let arr = matches!(obj.kind, Kind::Array(_));
            return Some(Prop {
                key,
                slot: Slot::Data(Value::Num(n)),
                attrs: if !arr {
                    obj.element_attrs() & !ENUMERABLE
                } else if obj.frozen_elements || obj.length_readonly {
                    0
                } else {
                    WRITABLE
                },
            });
        }
        obj.props.get(key).copied()
    }

    /// Find a property along the prototype chain of `v`.
    pub(crate) fn lookup(&mut self, v: Value, key: Key) -> Option<Prop> {
        if let (Value::Str(s), Key::Index(i)) = (v, key) {
            let st = self.heap.str(s);
            if (i as usize) < st.len() {
                let u = st.at(i as usize);
                let r = self.heap.new_str(JsStr::from_units(vec![u])).ok()?;
                return Some(Prop {
                    key,
                    slot: Slot::Data(Value::Str(r)),
                    attrs: ENUMERABLE,
                });
            }
        }
        if let Value::Str(s) = v
            && self.is_length(key)
        {
            return Some(Prop {
                key,
                slot: Slot::Data(Value::Num(self.heap.str(s).len() as f64)),
                attrs: 0,
            });
        }
        let mut cur = self.proto_of_value(v);
        let mut guard = 0;
        while let Some(o) = cur {
            if let Some(p) = self.own(o, key) {
                return Some(p);
            }
            cur = self.heap.obj(o).proto;
            guard += 1;
            if guard > crate::limits::MAX_PROTO_CHAIN {
                break;
            }
        }
        None
    }

    pub fn is_length(&self, key: Key) -> bool {
        key == self.length_key
    }

    /// What a detour through user code gave for the running instruction (`tag`), once it has
    /// run ([`Throw::Convert`]).
    pub fn frames_conversion(&self, tag: Detour) -> Option<Value> {
        let f = self.frames.last()?;
        f.conversions
            .iter()
            .find(|(t, _)| *t == tag)
            .map(|(_, x)| *x)
    }

    /// `v[key]` for builtins: a user getter is a detour ([`Throw::Convert`]): the builtin's
    /// instruction runs again once the getter has run in the loop.
    pub fn get_value(&mut self, v: Value, key: Key) -> Res<Value> {
        if v.is_nullish() {
            let k = self.key_text(key);
            let what = if v == Value::Null {
                "null"
            } else {
                "undefined"
            };
            let t = self.type_error(&format!("Cannot read properties of {what} (reading '{k}')"));
            if let Throw::Js(e) = t
                && let Some((hint, suggestions)) = crate::hints::nullish_read(self, what)
            {
                self.hint = Some((e, hint, suggestions));
            }
            return Err(t);
        }
        match self.lookup(v, key) {
            Some(Prop {
                slot: Slot::Data(x),
                ..
            }) => Ok(x),
            Some(Prop {
                slot: Slot::Accessor(g, _),
                ..
            }) => {
                if g == Value::Undefined {
                    return Ok(Value::Undefined);
                }
                if let Some(x) = self.frames_conversion(Detour::Get(v, key)) {
                    return Ok(x);
                }
                if let Value::Obj(go) = g
                    && let Kind::Function(Func::Native(_)) = self.heap.obj(go).kind
                {
                    return Ok(self
                        .call(g, v, Vec::new(), None, None)?
                        .unwrap_or(Value::Undefined));
                }
                Err(Throw::Convert(g, v, Detour::Get(v, key)))
            }
            None => Ok(Value::Undefined),
        }
    }

    pub fn get_simple(&mut self, v: Value, name: &str) -> Res<Value> {
        let k = self.heap.key(name);
        self.get_value(v, k)
    }

    fn key_text(&self, key: Key) -> String {
        match key {
            Key::Sym(s) => format!(
                "Symbol({})",
                self.heap.symbols[s.0 as usize]
                    .map_or(String::new(), |d| self.heap.str(d).to_rust())
            ),
            k => self.heap.key_str(k).map_or(String::new(), |s| s.to_rust()),
        }
    }

    /// ToPropertyKey.
    pub fn to_key(&mut self, v: Value) -> Res<Key> {
        match v {
            Value::Num(n) if n >= 0.0 && n < u32::MAX as f64 && n.fract() == 0.0 => {
                Ok(Key::Index(n as u32))
            }
            Value::Str(s) => {
                let st = self.heap.str(s).clone();
                Ok(self.heap.key_of(&st)?)
            }
            Value::Sym(s) => Ok(Key::Sym(s)),
            Value::Obj(_) => {
                // ToPrimitive with hint string, which may give a symbol.
                let p = self.to_primitive_hint(v, 2)?;
                if matches!(p, Value::Obj(_)) {
                    return Err(self.type_error("Cannot convert object to primitive value"));
                }
                self.to_key(p)
            }
            other => {
                let s = self.to_string(other)?;
                let st = self.heap.str(s).clone();
                Ok(self.heap.key_of(&st)?)
            }
        }
    }

    /// `o[key] = v` (strict: failures throw). Returns a setter call to make, if any.
    pub fn set_value(&mut self, target: Value, key: Key, v: Value) -> Res<Option<(Value, Value)>> {
        let Value::Obj(o) = target else {
            if target.is_nullish() {
                let k = self.key_text(key);
                let what = if target == Value::Null {
                    "null"
                } else {
                    "undefined"
                };
                return Err(
                    self.type_error(&format!("Cannot set properties of {what} (setting '{k}')"))
                );
            }
            let k = self.key_text(key);
            return Err(self.type_error(&format!(
                "Cannot create property '{k}' on a primitive value"
            )));
        };
        // Uint8Array elements: ToUint8 of the number; past the end, nothing. A numeric key
        // that is no index (`u8[-1]`, `u8[1.5]`) is no property to make either.
        if let Kind::Bytes { .. } = self.heap.obj(o).kind {
            if let Key::Index(i) = key {
                let n = self.to_number(v)?;
                crate::builtins::bytes::store(
                    self,
                    o,
                    i as usize,
                    crate::builtins::bytes::to_uint8(n),
                );
                return Ok(None);
            }
            if crate::builtins::bytes::is_numeric_key(self, key) {
                self.to_number(v)?;
                return Ok(None);
            }
        }
        // A String object's indices below its length are read-only (§10.4.3): a strict-mode
        // write is a TypeError, as V8 words it.
        if let (Kind::String(s), Key::Index(i)) = (&self.heap.obj(o).kind, key)
            && (i as usize) < self.heap.str(*s).len()
        {
            return Err(self.read_only(o, key));
        }
        // Arrays: elements and length.
        if let Kind::Array(e) = &self.heap.obj(o).kind {
            let obj = self.heap.obj(o);
            let present = matches!(key, Key::Index(i) if e.get(i as usize).is_some());
            let len = e.len();
            if let Key::Index(i) = key
                && (present || obj.props.find(key).is_none())
            {
                let writable = match obj.props.get(key) {
                    Some(p) => p.attrs & WRITABLE != 0,
                    None => !obj.frozen_elements,
                };
                if present && !writable {
                    return Err(self.read_only(o, key));
                }
                // A missing element: a prototype's setter or read-only index of that
                // number wins over making an own element (OrdinarySet, §10.1.9.2).
                if !present && let Some(prop) = self.proto_index(o, key) {
                    match prop.slot {
                        Slot::Accessor(_, s) => return self.setter(s, target, v, key),
                        Slot::Data(_) if prop.attrs & WRITABLE == 0 => {
                            return Err(self.read_only(o, key));
                        }
                        Slot::Data(_) => {}
                    }
                }
                let obj = self.heap.obj(o);
                if !present && !obj.extensible {
                    return Err(self.type_error(&format!(
                        "Cannot add property {i}, object is not extensible"
                    )));
                }
                if i as usize >= len && (obj.length_readonly || obj.frozen_elements) {
                    let k = self.heap.key("length");
                    return Err(self.read_only(o, k));
                }
                self.array_set(o, i, v)?;
                return Ok(None);
            }
            if self.is_length(key) {
                if obj.length_readonly || obj.frozen_elements {
                    return Err(self.read_only(o, key));
                }
                let n = self.to_number(v)?;
                if n < 0.0 || n.fract() != 0.0 || n > MAX_ARRAY_LENGTH as f64 {
                    return Err(self.range_error("Invalid array length"));
                }
                let n = n as usize;
                if let Err(stuck) = self.array_truncate(o, n) {
                    return Err(self.type_error(&format!(
                        "Cannot delete property '{stuck}' of [object Array]"
                    )));
                }
                return Ok(None);
            }
        }
        // Own data property, or one found on the chain.
        if let Some(i) = self.heap.obj(o).props.find(key) {
            let p = self.heap.obj(o).props.list[i];
            match p.slot {
                Slot::Data(_) if p.attrs & WRITABLE != 0 => {
                    self.heap.obj_mut(o).props.list[i].slot = Slot::Data(v);
                    return Ok(None);
                }
                Slot::Data(_) => return Err(self.read_only(o, key)),
                Slot::Accessor(_, s) => return self.setter(s, target, v, key),
            }
        }
        let mut cur = self.heap.obj(o).proto;
        while let Some(p) = cur {
            if let Some(prop) = self.own(p, key) {
                match prop.slot {
                    Slot::Accessor(_, s) => return self.setter(s, target, v, key),
                    Slot::Data(_) if prop.attrs & WRITABLE == 0 => {
                        return Err(self.read_only(o, key));
                    }
                    _ => break,
                }
            }
            cur = self.heap.obj(p).proto;
        }
        if !self.heap.obj(o).extensible {
            let k = self.key_text(key);
            return Err(self.type_error(&format!(
                "Cannot add property {k}, object is not extensible"
            )));
        }
        self.define(o, key, Slot::Data(v), DEFAULT_ATTRS)?;
        Ok(None)
    }

    /// The property `key` (an index) of the nearest prototype of `o` that has it. Prototypes
    /// that hold no indices (the usual chain: `Obj::holds_indices`) are passed over.
    pub fn proto_index(&mut self, o: ObjId, key: Key) -> Option<Prop> {
        if !matches!(key, Key::Index(_)) {
            return None;
        }
        let mut cur = self.heap.obj(o).proto;
        while let Some(p) = cur {
            cur = self.heap.obj(p).proto;
            if self.heap.obj(p).holds_indices()
                && let Some(prop) = self.own(p, key)
            {
                return Some(prop);
            }
        }
        None
    }

    /// Whether any prototype of `o` holds an index: a native that adds or reads elements
    /// then takes the spec's path, which sees them.
    pub fn protos_have_indices(&self, o: ObjId) -> bool {
        let mut cur = self.heap.obj(o).proto;
        while let Some(p) = cur {
            let obj = self.heap.obj(p);
            if obj.holds_indices() {
                return true;
            }
            cur = obj.proto;
        }
        false
    }

    /// How V8 names an object in its property errors: `#<Object>`, `#<Point>` (the
    /// constructor's name), `[object Array]`.
    pub fn object_label(&mut self, o: ObjId) -> String {
        match self.heap.obj(o).kind {
            Kind::Array(_) => return "[object Array]".into(),
            Kind::Bytes { .. } => return "[object Uint8Array]".into(),
            Kind::String(_) => return "[object String]".into(),
            _ => {}
        }
        let ck = self.heap.key("constructor");
        let nk = self.heap.key("name");
        // Prototype chains are acyclic (every [[SetPrototypeOf]] checks).
        let mut cur = Some(o);
        while let Some(p) = cur {
            if let Some(prop) = self.heap.obj(p).props.get(ck) {
                if let Slot::Data(Value::Obj(c)) = prop.slot
                    && let Some(Prop {
                        slot: Slot::Data(Value::Str(n)),
                        ..
                    }) = self.heap.obj(c).props.get(nk).copied()
                    && !self.heap.str(n).is_empty()
                {
                    return format!("#<{}>", self.heap.str(n).to_rust());
                }
                break;
            }
            cur = self.heap.obj(p).proto;
        }
        "#<Object>".into()
    }

    /// The TypeError of a write to a read-only property, worded as V8's.
    pub fn read_only(&mut self, o: ObjId, key: Key) -> Throw {
        let k = self.key_text(key);
        let label = self.object_label(o);
        self.type_error(&format!(
            "Cannot assign to read only property '{k}' of object '{label}'"
        ))
    }

    /// Shorten array `o` to `n` elements (or lengthen it with holes), deleting from the end;
    /// an element that cannot be deleted (sealed, or a non-configurable own property) stops
    /// it there: the length is then that index + 1 and `Err(index)`.
    pub fn array_truncate(&mut self, o: ObjId, n: usize) -> Result<(), u32> {
        let obj = self.heap.obj(o);
        let Kind::Array(e) = &obj.kind else {
            return Ok(());
        };
        let len = e.len();
        let mut stop: Option<usize> = None;
        if n < len {
            if obj.sealed_elements || obj.frozen_elements {
                stop = e.range(n, len).next_back().map(|(i, _)| i);
            }
            for p in &obj.props.list {
                if let Key::Index(i) = p.key
                    && (i as usize) >= n
                    && p.attrs & CONFIGURABLE == 0
                    && stop.is_none_or(|s| (i as usize) > s)
                {
                    stop = Some(i as usize);
                }
            }
        }
        let keep = stop.map_or(n, |s| s + 1);
        let obj = self.heap.obj_mut(o);
        if keep < len {
            let dead: Vec<Key> = obj
                .props
                .list
                .iter()
                .filter(|p| matches!(p.key, Key::Index(i) if i as usize >= keep))
                .map(|p| p.key)
                .collect();
            for k in dead {
                obj.props.remove(k);
            }
        }
        if let Kind::Array(e) = &mut obj.kind {
            e.set_len(keep);
        }
        match stop {
            Some(s) => Err(s as u32),
            None => Ok(()),
        }
    }

    fn setter(
        &mut self,
        s: Value,
        target: Value,
        v: Value,
        key: Key,
    ) -> Res<Option<(Value, Value)>> {
        if s == Value::Undefined {
            let k = self.key_text(key);
            let of = match target {
                Value::Obj(o) => self.object_label(o),
                _ => "#<Object>".into(),
            };
            return Err(self.type_error(&format!(
                "Cannot set property {k} of {of} which has only a getter"
            )));
        }
        Ok(Some((s, v)))
    }

    // ----- conversions ------------------------------------------------------------------

    pub fn truthy(&self, v: Value) -> bool {
        match v {
            Value::Str(s) => !self.heap.str(s).is_empty(),
            v => truth_without_heap(v).unwrap_or(true),
        }
    }

    /// ToPrimitive: `valueOf` then `toString` (`toString` first when `prefer_string`). A
    /// user-defined method cannot run inside this Rust call: it ends the current instruction
    /// with [`Throw::Convert`], the loop calls the method and then runs the instruction again
    /// from its start, when this finds the method's result among the frame's conversions.
    pub fn to_primitive(&mut self, v: Value, prefer_string: bool) -> Res<Value> {
        self.to_primitive_hint(v, if prefer_string { 2 } else { 1 })
    }

    /// ToPrimitive with a hint (0 default, 1 number, 2 string): the object's
    /// `[Symbol.toPrimitive]` first (a detour through user code), else OrdinaryToPrimitive.
    pub fn to_primitive_hint(&mut self, v: Value, hint: u8) -> Res<Value> {
        let prefer_string = hint == 2;
        let Value::Obj(o) = v else { return Ok(v) };
        if self.is_promise(v) {
            self.slip(
                "A Promise was used as a value (in arithmetic, a string or a comparison), which gives '[object Promise]' or NaN: the call was not awaited. Write `await` before it, or `const v = await ...` first.".to_string(),
            );
        }
        if let Some(sym) = self.intr.sym_to_primitive
            && let Some(Prop { slot, .. }) = self.lookup(v, Key::Sym(sym))
        {
            let f = match slot {
                Slot::Data(f) => f,
                Slot::Accessor(..) => self.get_value(v, Key::Sym(sym))?,
            };
            if !f.is_nullish() {
                if let Some(p) = self.frames_conversion(Detour::PrimHint(o, hint)) {
                    return Ok(p);
                }
                let callable = matches!(f, Value::Obj(fo) if matches!(self.heap.obj(fo).kind, Kind::Function(_)));
                if !callable {
                    return Err(self.type_error("Symbol.toPrimitive is not a function"));
                }
                return Err(Throw::Convert(f, v, Detour::PrimHint(o, hint)));
            }
        }
        match &self.heap.obj(o).kind {
            Kind::Number(n) => return Ok(Value::Num(*n)),
            Kind::Boolean(b) => return Ok(Value::Bool(*b)),
            Kind::String(s) => return Ok(Value::Str(*s)),
            _ => {}
        }
        // OrdinaryToPrimitive (§7.1.1.1): each callable method in turn until one gives a
        // primitive; a user method's result is found among the conversions under the tag of
        // its turn.
        let order = if prefer_string {
            ["toString", "valueOf"]
        } else {
            ["valueOf", "toString"]
        };
        let mut builtin = false;
        for (turn, name) in order.into_iter().enumerate() {
            let tag = if turn == 0 {
                Detour::Prim(o)
            } else {
                Detour::PrimNext(o)
            };
            if let Some(p) = self.frames_conversion(tag) {
                if !matches!(p, Value::Obj(_)) {
                    return Ok(p);
                }
                continue;
            }
            let k = self.heap.key(name);
            // A getter for the method runs first (a detour of its own).
            let method = match self.lookup(v, k) {
                Some(Prop {
                    slot: Slot::Data(m),
                    ..
                }) => m,
                Some(_) => self.get_value(v, k)?,
                None => Value::Undefined,
            };
            if let Value::Obj(fo) = method {
                match self.heap.obj(fo).kind {
                    Kind::Function(Func::Closure { .. } | Func::Bound { .. }) => {
                        return Err(Throw::Convert(Value::Obj(fo), v, tag));
                    }
                    // The builtin valueOf gives the object itself: try the next method.
                    Kind::Function(Func::Native(_)) if name == "valueOf" => continue,
                    Kind::Function(Func::Native(_)) => {
                        builtin = true;
                        break;
                    }
                    // Not callable: the next method.
                    _ => continue,
                }
            }
        }
        if builtin {
            return crate::builtins::object_to_string(self, v);
        }
        Err(self.type_error("Cannot convert object to primitive value"))
    }

    pub fn to_number(&mut self, v: Value) -> Res<f64> {
        Ok(match v {
            Value::Undefined | Value::Empty => f64::NAN,
            Value::Null => 0.0,
            Value::Bool(b) => b as u8 as f64,
            Value::Num(n) => n,
            Value::Str(s) => crate::number::parse(&self.heap.str(s).to_rust()),
            Value::Sym(_) => {
                return Err(self.type_error("Cannot convert a Symbol value to a number"));
            }
            Value::Obj(_) => {
                let p = self.to_primitive(v, false)?;
                return self.to_number(p);
            }
        })
    }

    pub fn to_string(&mut self, v: Value) -> Res<StrId> {
        let s = match v {
            Value::Str(s) => return Ok(s),
            Value::Undefined | Value::Empty => "undefined".to_string(),
            Value::Null => "null".to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Num(n) => crate::number::to_string(n),
            Value::Sym(_) => {
                return Err(self.type_error("Cannot convert a Symbol value to a string"));
            }
            Value::Obj(_) => {
                let p = self.to_primitive(v, true)?;
                return self.to_string(p);
            }
        };
        Ok(self.heap.new_str(JsStr::from_str(&s))?)
    }

    pub fn to_rust_string(&mut self, v: Value) -> Res<String> {
        let s = self.to_string(v)?;
        Ok(self.heap.str(s).to_rust())
    }

    fn to_int32(&mut self, v: Value) -> Res<i32> {
        let n = self.to_number(v)?;
        Ok(to_int32(n))
    }

    pub fn typeof_str(&self, v: Value) -> &'static str {
        match v {
            Value::Undefined | Value::Empty => "undefined",
            Value::Null => "object",
            Value::Bool(_) => "boolean",
            Value::Num(_) => "number",
            Value::Str(_) => "string",
            Value::Sym(_) => "symbol",
            Value::Obj(o) => {
                if matches!(self.heap.obj(o).kind, Kind::Function(_)) {
                    "function"
                } else {
                    "object"
                }
            }
        }
    }

    pub fn strict_equals(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Num(x), Value::Num(y)) => x == y,
            (Value::Str(x), Value::Str(y)) => x == y || self.heap.str(x) == self.heap.str(y),
            (Value::Undefined, Value::Undefined) | (Value::Null, Value::Null) => true,
            (Value::Bool(x), Value::Bool(y)) => x == y,
            (Value::Obj(x), Value::Obj(y)) => x == y,
            (Value::Sym(x), Value::Sym(y)) => x == y,
            _ => false,
        }
    }

    /// SameValueZero (includes, Map/Set keys).
    pub fn same_value_zero(&self, a: Value, b: Value) -> bool {
        match (a, b) {
            (Value::Num(x), Value::Num(y)) if x.is_nan() && y.is_nan() => true,
            _ => self.strict_equals(a, b),
        }
    }

    fn loose_equals(&mut self, a: Value, b: Value) -> Res<bool> {
        Ok(match (a, b) {
            (Value::Undefined | Value::Null, Value::Undefined | Value::Null) => true,
            (Value::Undefined | Value::Null, _) | (_, Value::Undefined | Value::Null) => false,
            (Value::Num(_), Value::Str(_)) | (Value::Str(_), Value::Num(_)) => {
                let x = self.to_number(a)?;
                let y = self.to_number(b)?;
                x == y
            }
            (Value::Bool(_), _) => {
                let x = self.to_number(a)?;
                return self.loose_equals(Value::Num(x), b);
            }
            (_, Value::Bool(_)) => {
                let y = self.to_number(b)?;
                return self.loose_equals(a, Value::Num(y));
            }
            (Value::Obj(_), Value::Obj(_)) => a == b,
            (Value::Obj(_), _) => {
                let p = self.to_primitive_hint(a, 0)?;
                return self.loose_equals(p, b);
            }
            (_, Value::Obj(_)) => {
                let p = self.to_primitive_hint(b, 0)?;
                return self.loose_equals(a, p);
            }
            _ => self.strict_equals(a, b),
        })
    }

    fn add(&mut self, a: Value, b: Value) -> Res<Value> {
        if let (Value::Num(x), Value::Num(y)) = (a, b) {
            return Ok(Value::Num(x + y));
        }
        let pa = self.to_primitive_hint(a, 0)?;
        let pb = self.to_primitive_hint(b, 0)?;
        if matches!(pa, Value::Str(_)) || matches!(pb, Value::Str(_)) {
            let sa = self.to_string(pa)?;
            let sb = self.to_string(pb)?;
            let total = self.heap.str(sa).len() + self.heap.str(sb).len();
            if total > MAX_STRING_LENGTH {
                return Err(self.range_error("Invalid string length"));
            }
            // A rope costs its right part (the left is shared); a copy costs both.
            let copied = if total >= crate::string::ROPE_MIN_UNITS {
                self.heap.str(sb).len()
            } else {
                total
            };
            self.work(copied / 64);
            let s = JsStr::join(self.heap.str(sa), self.heap.str(sb), &self.heap.flattened);
            if matches!(s, JsStr::Rope(_)) {
                let shared = self.heap.str(sa).bytes();
                return Ok(Value::Str(self.heap.new_str_sharing(s, shared)?));
            }
            return Ok(Value::Str(self.heap.new_str(s)?));
        }
        let x = self.to_number(pa)?;
        let y = self.to_number(pb)?;
        Ok(Value::Num(x + y))
    }

    /// `a < b` (None: undefined, a NaN comparison).
    fn less_than(&mut self, a: Value, b: Value) -> Res<Option<bool>> {
        let pa = self.to_primitive(a, false)?;
        let pb = self.to_primitive(b, false)?;
        if let (Value::Str(x), Value::Str(y)) = (pa, pb) {
            let (x, y) = (self.heap.str(x), self.heap.str(y));
            let n = x.len().min(y.len());
            for i in 0..n {
                let (u, v) = (x.at(i), y.at(i));
                if u != v {
                    return Ok(Some(u < v));
                }
            }
            return Ok(Some(x.len() < y.len()));
        }
        let x = self.to_number(pa)?;
        let y = self.to_number(pb)?;
        if x.is_nan() || y.is_nan() {
            return Ok(None);
        }
        Ok(Some(x < y))
    }

    fn instance_of(&mut self, v: Value, c: Value) -> Res<bool> {
        let Value::Obj(co) = c else {
            return Err(self.type_error("Right-hand side of 'instanceof' is not callable"));
        };
        if let Some(sym) = self.intr.sym_has_instance
            && let Some(Prop { slot, .. }) = self.lookup(c, Key::Sym(sym))
        {
            let h = match slot {
                Slot::Data(h) => h,
                Slot::Accessor(..) => self.get_value(c, Key::Sym(sym))?,
            };
            let builtin = matches!(h, Value::Obj(ho) if self.heap.obj(ho).kind
                == Kind::Function(Func::Native(self.intr.native_has_instance)));
            if !h.is_nullish() && !builtin {
                if let Some(r) = self.frames_conversion(Detour::HasInstance(co, v)) {
                    return Ok(self.truthy(r));
                }
                let callable = matches!(h, Value::Obj(ho) if matches!(self.heap.obj(ho).kind, Kind::Function(_)));
                if !callable {
                    return Err(self.type_error("Symbol.hasInstance is not a function"));
                }
                return Err(Throw::Convert(h, c, Detour::HasInstance(co, v)));
            }
        }
        self.ordinary_has_instance(v, c)
    }

    /// OrdinaryHasInstance (§7.3.21): `v`'s prototype chain holds `c.prototype`.
    pub fn ordinary_has_instance(&mut self, v: Value, c: Value) -> Res<bool> {
        let Value::Obj(co) = c else {
            return Ok(false);
        };
        if !matches!(self.heap.obj(co).kind, Kind::Function(_)) {
            return Err(self.type_error("Right-hand side of 'instanceof' is not callable"));
        }
        let target = if let Kind::Function(Func::Bound { target, .. }) = self.heap.obj(co).kind {
            target
        } else {
            co
        };
        let Value::Obj(mut o) = v else {
            return Ok(false);
        };
        let proto = self.get_simple(Value::Obj(target), "prototype")?;
        let Value::Obj(p) = proto else {
            return Err(self.type_error("Function has non-object prototype in instanceof check"));
        };
        while let Some(next) = self.heap.obj(o).proto {
            if next == p {
                return Ok(true);
            }
            o = next;
        }
        Ok(false)
    }

    fn binary(&mut self, op: BinOp, a: Value, b: Value) -> Res<Value> {
        if let (Value::Num(x), Value::Num(y)) = (a, b)
            && let Some(r) = num_binary(op, x, y)
        {
            return Ok(r);
        }
        Ok(match op {
            BinOp::Add => self.add(a, b)?,
            BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem | BinOp::Exp => {
                let x = self.to_number(a)?;
                let y = self.to_number(b)?;
                Value::Num(match op {
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    BinOp::Rem => {
                        if y.is_infinite() && x.is_finite() {
                            x
                        } else {
                            x % y
                        }
                    }
                    _ => js_pow(x, y),
                })
            }
            BinOp::Shl
            | BinOp::Shr
            | BinOp::UShr
            | BinOp::BitAnd
            | BinOp::BitOr
            | BinOp::BitXor => {
                let x = self.to_int32(a)?;
                let y = self.to_int32(b)?;
                Value::Num(match op {
                    BinOp::Shl => x.wrapping_shl(y as u32 & 31) as f64,
                    BinOp::Shr => (x >> (y as u32 & 31)) as f64,
                    BinOp::UShr => ((x as u32) >> (y as u32 & 31)) as f64,
                    BinOp::BitAnd => (x & y) as f64,
                    BinOp::BitOr => (x | y) as f64,
                    _ => (x ^ y) as f64,
                })
            }
            BinOp::StrictEq => Value::Bool(self.strict_equals(a, b)),
            BinOp::StrictNe => Value::Bool(!self.strict_equals(a, b)),
            BinOp::Eq => Value::Bool(self.loose_equals(a, b)?),
            BinOp::Ne => Value::Bool(!self.loose_equals(a, b)?),
            BinOp::Lt => Value::Bool(self.less_than(a, b)? == Some(true)),
            BinOp::Gt => Value::Bool(self.less_than(b, a)? == Some(true)),
            BinOp::Le => Value::Bool(self.less_than(b, a)? == Some(false)),
            BinOp::Ge => Value::Bool(self.less_than(a, b)? == Some(false)),
            BinOp::In => {
                let Value::Obj(_) = b else {
                    return Err(self.type_error(
                        "Cannot use 'in' operator to search for a key in a non-object",
                    ));
                };
                let k = self.to_key(a)?;
                Value::Bool(self.lookup(b, k).is_some())
            }
            BinOp::InstanceOf => Value::Bool(self.instance_of(a, b)?),
        })
    }
}

/// A binary operator on two Numbers, when it needs nothing else (the shifts and bitwise
/// operators, `**`, `in` and `instanceof` are left to [`Vm::binary`]).
#[inline(always)]
fn num_binary(op: BinOp, x: f64, y: f64) -> Option<Value> {
    Some(match op {
        BinOp::Add => Value::Num(x + y),
        BinOp::Sub => Value::Num(x - y),
        BinOp::Mul => Value::Num(x * y),
        BinOp::Div => Value::Num(x / y),
        // §6.1.6.1.6 Number::remainder: a finite dividend over an infinite divisor is the
        // dividend; Rust's `%` gives the same for every other case.
        BinOp::Rem => Value::Num(if y.is_infinite() && x.is_finite() {
            x
        } else {
            x % y
        }),
        BinOp::Lt => Value::Bool(x < y),
        BinOp::Le => Value::Bool(x <= y),
        BinOp::Gt => Value::Bool(x > y),
        BinOp::Ge => Value::Bool(x >= y),
        BinOp::StrictEq | BinOp::Eq => Value::Bool(x == y),
        BinOp::StrictNe | BinOp::Ne => Value::Bool(x != y),
        _ => return None,
    })
}

/// ToBoolean (§7.1.2) of every value but a string (`None`: its length decides).
#[inline(always)]
fn truth_without_heap(v: Value) -> Option<bool> {
    Some(match v {
        Value::Undefined | Value::Null | Value::Empty => false,
        Value::Bool(b) => b,
        Value::Num(n) => !(n == 0.0 || n.is_nan()),
        Value::Sym(_) | Value::Obj(_) => true,
        Value::Str(_) => return None,
    })
}

/// ToInt32.
pub fn to_int32(n: f64) -> i32 {
    if !n.is_finite() {
        return 0;
    }
    let m = n.trunc().rem_euclid(4294967296.0);
    m as u32 as i32
}

/// `**` with JavaScript's special cases (`1 ** NaN` is NaN, `(-1) ** Infinity` NaN).
pub fn js_pow(x: f64, y: f64) -> f64 {
    if y.is_nan() || ((x == 1.0 || x == -1.0) && y.is_infinite()) {
        return f64::NAN;
    }
    x.powf(y)
}

/// What an instruction asks of the loop besides going on.
enum Flow {
    Next,
    Jump(u32),
    /// A frame was pushed (a call): continue in it.
    Pushed,
    /// Return `v` from the current frame.
    Return(Value),
    /// The program body ended: value, and whether it came from a trailing expression.
    End(Value, bool),
    /// The running frame was suspended (or replaced): continue with the top frame as it is.
    Switched,
}

impl Vm {
    #[inline(always)]
    fn frame(&self) -> &Frame {
        self.frames.last().expect("a frame")
    }

    /// The source location of the current instruction of the innermost frame of the
    /// program (frames of the standard library's prelude are passed over: an error inside
    /// `Array.prototype.map` is located at the call of `map`).
    pub fn location(&self) -> Option<Location> {
        let f = self.user_frame()?;
        let waiting = !std::ptr::eq(f, self.frames.last()?) && f.converting.is_none();
        if waiting {
            // A caller's pc is already past the call it waits on (a conversion's caller runs
            // its instruction again, so its pc stays).
            return self.location_at(f, f.pc.checked_sub(1)?);
        }
        self.frame_location(f)
    }

    /// The innermost frame of the program (not of the prelude), else the innermost frame.
    pub(crate) fn user_frame(&self) -> Option<&Frame> {
        self.frames
            .iter()
            .rev()
            .find(|f| !self.progs[f.prog as usize].builtin)
            .or(self.frames.last())
    }

    /// The source location of frame `f`'s current instruction.
    pub fn frame_location(&self, f: &Frame) -> Option<Location> {
        self.location_at(f, f.pc)
    }

    /// The source location of instruction `pc` of frame `f`'s function.
    fn location_at(&self, f: &Frame, pc: u32) -> Option<Location> {
        let p = &self.progs[f.prog as usize];
        let off = *p.funcs[f.func as usize].offsets.get(pc as usize)?;
        Some(p.lines.location(&p.source, off as usize))
    }

    /// Run until the fuel is spent or the program ends.
    pub fn run(&mut self, fuel: u32) -> Res<Exit> {
        self.fuel = fuel as i64;
        self.slice_fuel = fuel as i64;
        let r = self.run_loop();
        let spent = (fuel as i64 - self.fuel).max(0) as u64;
        self.fuel_used += spent;
        if self.fuel_used > self.fuel_cap {
            return Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                FUEL_MESSAGE,
            )));
        }
        r
    }

    fn run_loop(&mut self) -> Res<Exit> {
        loop {
            if self.fuel <= 0 {
                return Ok(Exit::Yield);
            }
            if self.frames.is_empty() {
                self.fuel -= 1;
                if self.drain_after_settled() {
                    return Ok(Exit::Idle);
                }
                match self.run_job()? {
                    coro::Idle::Ran => continue,
                    coro::Idle::Empty => return Ok(Exit::Idle),
                    coro::Idle::Suspended => return Ok(Exit::Yield),
                }
            }
            if self.heap.used > self.gc_at {
                if self.inline {
                    // A collection is long work: not on an async thread; the next slice (on
                    // the blocking pool) collects.
                    return Ok(Exit::Yield);
                }
                let live = crate::gc::collect(self);
                self.work(live / 256);
                self.gc_at = crate::gc::next_collection(live, self.heap.cap);
            }
            if self.fast_ops() {
                continue;
            }
            self.fuel -= 1;
            let (prog, func, pc) = {
                let f = self.frame();
                (f.prog, f.func, f.pc)
            };
            let op = self.progs[prog as usize].funcs[func as usize].code[pc as usize];
            let flow = match self.step(op, prog) {
                // A rope read by this instruction wrote out its units: charged now.
                Ok(_) if self.heap.absorb_flattened() => {
                    let cap = self.heap.cap;
                    self.raise(Throw::from(crate::heap::OutOfMemory { cap }))?;
                    continue;
                }
                Ok(fl) => {
                    if let Some(f) = self.frames.last_mut()
                        && !f.conversions.is_empty()
                        && !matches!(fl, Flow::Pushed | Flow::Switched)
                    {
                        f.conversions.clear();
                    }
                    fl
                }
                Err(Throw::Convert(method, this, tag)) => {
                    // Call the method; its result lands in this frame's conversions and the
                    // instruction runs again.
                    let args = match tag {
                        Detour::PrimHint(_, h) => {
                            let hint = ["default", "number", "string"][h as usize % 3];
                            vec![self.str_val(hint)?]
                        }
                        Detour::HasInstance(_, v) => vec![v],
                        Detour::Prepare(v) => {
                            vec![v, Value::Num(crate::limits::MAX_DATA_DEPTH as f64)]
                        }
                        _ => Vec::new(),
                    };
                    match self.call(method, this, args, None, None) {
                        Ok(Some(v)) => {
                            if let Err(t) = self.converted(tag, v) {
                                self.raise(t)?;
                            }
                        }
                        Ok(None) => {
                            self.frames.last_mut().expect("frame").converting = Some(tag);
                        }
                        Err(t) => self.raise(t)?,
                    }
                    continue;
                }
                Err(Throw::Suspend) => return Ok(Exit::Yield),
                Err(t) => {
                    self.raise(t)?;
                    continue;
                }
            };
            match flow {
                Flow::Next => self.frames.last_mut().expect("frame").pc += 1,
                Flow::Jump(t) => self.frames.last_mut().expect("frame").pc = t,
                Flow::Pushed => {
                    // The caller resumes after the call instruction.
                    let n = self.frames.len();
                    if n >= 2 {
                        self.frames[n - 2].pc += 1;
                    }
                }
                Flow::Return(v) => {
                    match self.return_from(v) {
                        Ok(Some(done)) => return Ok(done),
                        Ok(None) => {}
                        Err(t) => self.raise(t)?,
                    }
                    if let Some(t) = self.pending_throw.take() {
                        self.raise(t)?;
                    }
                }
                Flow::Switched => {}
                Flow::End(v, returned) => return Ok(Exit::Done(v, returned)),
            }
        }
    }

    /// Run the instructions of the current frame that need no conversion, call or allocation
    /// (moves, constants, arithmetic and comparisons of two Numbers, jumps on values other
    /// than strings, cell reads, data-property reads along the prototype chain, reads and
    /// overwrites of present dense array elements) in a tight loop over the frame's code, one
    /// unit of fuel each, up to the first instruction that needs the general [`Vm::step`]. Nothing here allocates, calls or
    /// throws, so the frame, the heap and the collector's state are as after those steps.
    /// `true`: the slice's fuel ran out here.
    fn fast_ops(&mut self) -> bool {
        let Some(f) = self.frames.last_mut() else {
            return false;
        };
        if !f.conversions.is_empty() {
            return false;
        }
        let code = &self.progs[f.prog as usize].funcs[f.func as usize].code;
        let regs = &mut self.regs[self.base..];
        let mut pc = f.pc as usize;
        let mut fuel = self.fuel;
        while fuel > 0 {
            let Some(&op) = code.get(pc) else { break };
            match op {
                Op::Move(d, s) => regs[d as usize] = regs[s as usize],
                Op::LoadNum(d, n) => regs[d as usize] = Value::Num(n),
                Op::LoadBool(d, b) => regs[d as usize] = Value::Bool(b),
                Op::LoadUndef(d) => regs[d as usize] = Value::Undefined,
                Op::LoadNull(d) => regs[d as usize] = Value::Null,
                Op::LoadEmpty(d) => regs[d as usize] = Value::Empty,
                Op::CheckTdz(r, _) if !matches!(regs[r as usize], Value::Empty) => {}
                Op::Binary(BinOp::In, d, a, b) => {
                    // `i in arr` for a present element of an array's dense prefix (the
                    // prelude's array methods ask it of every index).
                    let (Value::Num(n), Value::Obj(o)) = (regs[a as usize], regs[b as usize])
                    else {
                        break;
                    };
                    let Kind::Array(e) = &self.heap.obj(o).kind else {
                        break;
                    };
                    if e.get_num(n).is_none() {
                        break;
                    }
                    regs[d as usize] = Value::Bool(true);
                }
                Op::Binary(bop, d, a, b) => {
                    let (Value::Num(x), Value::Num(y)) = (regs[a as usize], regs[b as usize])
                    else {
                        break;
                    };
                    let Some(v) = num_binary(bop, x, y) else {
                        break;
                    };
                    regs[d as usize] = v;
                }
                Op::BinaryK(bop, d, a, y) => {
                    let Value::Num(x) = regs[a as usize] else {
                        break;
                    };
                    let Some(v) = num_binary(bop, x, y) else {
                        break;
                    };
                    regs[d as usize] = v;
                }
                Op::GetProp(d, o, k) => {
                    // A data property found by name along the prototype chain; `length`,
                    // accessors, misses and uninterned names take the general path.
                    let Value::Obj(mut cur) = regs[o as usize] else {
                        break;
                    };
                    let Some(&Some((_, key))) = self.consts[f.prog as usize].get(k as usize) else {
                        break;
                    };
                    if key == self.length_key {
                        break;
                    }
                    let mut depth = 0;
                    let v = loop {
                        let ob = self.heap.obj(cur);
                        if let Some(p) = ob.props.get(key) {
                            break match p.slot {
                                Slot::Data(v) => Some(v),
                                Slot::Accessor(..) => None,
                            };
                        }
                        depth += 1;
                        match ob.proto {
                            Some(p) if depth <= crate::limits::MAX_PROTO_CHAIN => cur = p,
                            _ => break None,
                        }
                    };
                    let Some(v) = v else { break };
                    regs[d as usize] = v;
                }
                Op::GetElem(d, o, k) => {
                    // A present element of an array's dense prefix.
                    let (Value::Obj(a), Value::Num(n)) = (regs[o as usize], regs[k as usize])
                    else {
                        break;
                    };
                    let Kind::Array(e) = &self.heap.obj(a).kind else {
                        break;
                    };
                    let Some(v) = e.get_num(n) else { break };
                    regs[d as usize] = v;
                }
                Op::SetElem(o, k, s) => {
                    // Overwriting a present element of an array's dense prefix: writable
                    // (not frozen, no attributes of its own), no length change.
                    let (Value::Obj(a), Value::Num(n)) = (regs[o as usize], regs[k as usize])
                    else {
                        break;
                    };
                    if !((0.0..4294967295.0).contains(&n) && n.fract() == 0.0) {
                        break;
                    }
                    let ob = self.heap.obj_mut(a);
                    if ob.frozen_elements || ob.props.find(Key::Index(n as u32)).is_some() {
                        break;
                    }
                    let Kind::Array(e) = &mut ob.kind else { break };
                    if !e.overwrite(n as usize, regs[s as usize]) {
                        break;
                    }
                }
                Op::GetCell(d, slot, check) => {
                    let v = self.heap.cells[f.cells[slot as usize].0 as usize];
                    if matches!(v, Value::Empty) && check.is_some() {
                        break;
                    }
                    regs[d as usize] = v;
                }
                Op::GetUp(d, idx, check) => {
                    let Value::Obj(o) = f.callee else { break };
                    let Kind::Function(Func::Closure { ups, .. }) = &self.heap.obj(o).kind else {
                        break;
                    };
                    let v = self.heap.cells[ups[idx as usize].0 as usize];
                    if matches!(v, Value::Empty) && check.is_some() {
                        break;
                    }
                    regs[d as usize] = v;
                }
                Op::Unary(uop, d, a) => {
                    let v = match (uop, regs[a as usize]) {
                        (UnOp::Inc, Value::Num(x)) => Value::Num(x + 1.0),
                        (UnOp::Dec, Value::Num(x)) => Value::Num(x - 1.0),
                        (UnOp::Neg, Value::Num(x)) => Value::Num(-x),
                        (UnOp::Plus | UnOp::ToNumeric, Value::Num(x)) => Value::Num(x),
                        (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
                        _ => break,
                    };
                    regs[d as usize] = v;
                }
                Op::Jump(t) => {
                    pc = t as usize;
                    fuel -= 1;
                    continue;
                }
                Op::JumpIfFalse(r, t) | Op::JumpIfTrue(r, t) => {
                    let Some(truth) = truth_without_heap(regs[r as usize]) else {
                        break;
                    };
                    fuel -= 1;
                    if truth == matches!(op, Op::JumpIfTrue(..)) {
                        pc = t as usize;
                    } else {
                        pc += 1;
                    }
                    continue;
                }
                _ => break,
            }
            fuel -= 1;
            pc += 1;
        }
        f.pc = pc as u32;
        self.fuel = fuel;
        fuel <= 0
    }

    /// A thrown value goes to the innermost handler; a fatal error ends the loop.
    fn raise(&mut self, t: Throw) -> Res<()> {
        match t {
            Throw::Js(v) => {
                let origin = self
                    .throw_origins
                    .iter()
                    .rev()
                    .find(|(x, _)| *x == v)
                    .map(|(_, at)| *at);
                let at = origin.or_else(|| self.location());
                if origin.is_none()
                    && let Some(at) = at
                {
                    if self.throw_origins.len() >= crate::limits::MAX_THROW_ORIGINS {
                        self.throw_origins.remove(0);
                    }
                    self.throw_origins.push((v, at));
                }
                if self.throw_at.is_none() || origin.is_some() {
                    self.throw_at = at;
                }
                self.unwind(v)
            }
            Throw::Fatal(mut g) => {
                if g.location.is_none() {
                    g.location = self.location();
                }
                Err(Throw::Fatal(g))
            }
            Throw::Convert(..) | Throw::Suspend => Err(Throw::Fatal(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: a conversion escaped its instruction",
            ))),
        }
    }

    /// Record the result `v` of a detour for the current frame's instruction.
    fn converted(&mut self, tag: Detour, v: Value) -> Res<()> {
        // An object from valueOf/toString lets the next method try (to_primitive_hint).
        if matches!(tag, Detour::PrimHint(..)) && matches!(v, Value::Obj(_)) {
            return Err(self.type_error("Cannot convert object to primitive value"));
        }
        self.frames
            .last_mut()
            .expect("frame")
            .conversions
            .push((tag, v));
        Ok(())
    }

    /// Pop the current frame and deliver `v` to its caller. `Some` when the machine's own
    /// call returned ([`Finish::Done`]).
    fn return_from(&mut self, v: Value) -> Res<Option<Exit>> {
        let f = self.pop_frame();
        if let Some(tag) = f.converting {
            // The caller's instruction runs again with this result.
            if let Err(t) = self.converted(tag, v) {
                self.pending_throw = Some(t);
            }
            return Ok(None);
        }
        let v = match (f.construct, v) {
            (Some(_), Value::Obj(_)) => v,
            (Some(o), _) => Value::Obj(o),
            (None, v) => v,
        };
        if f.finish == Finish::Done {
            return Ok(Some(Exit::Done(v, true)));
        }
        if f.finish == Finish::Normal {
            if let (Some(r), Some(_)) = (f.ret, self.frames.last()) {
                self.set(r, v);
            }
            return Ok(None);
        }
        // Finishing may push a frame (a `then` getter's) above the caller: deliver by the
        // caller's base, taken first.
        let caller_base = self.frames.last().map(|c| c.base as usize);
        let v = self.finish_return(&f, v)?;
        if let (Some(r), Some(v), Some(b)) = (f.ret, v, caller_base) {
            self.regs[b + r as usize] = v;
        }
        Ok(None)
    }

    /// Deliver a thrown value to the innermost handler; past the body: uncaught.
    fn unwind(&mut self, v: Value) -> Res<()> {
        loop {
            let Some(f) = self.frames.last_mut() else {
                return Err(Throw::Js(v));
            };
            if let Some((target, reg)) = f.handlers.pop() {
                f.pc = target;
                let base = f.base as usize;
                self.regs[base + reg as usize] = v;
                self.throw_at = None;
                return Ok(());
            }
            let plain = matches!(f.finish, Finish::Normal | Finish::Done);
            if plain && self.frames.len() == 1 {
                return Err(Throw::Js(v));
            }
            let f = self.pop_frame();
            if f.finish != Finish::Normal {
                let caller_base = self.frames.last().map(|c| c.base as usize);
                if let Some(x) = self.finish_throw(&f, v)? {
                    if let (Some(r), Some(b)) = (f.ret, caller_base) {
                        self.regs[b + r as usize] = x;
                    }
                    return Ok(());
                }
            }
            if self.frames.is_empty() {
                return Err(Throw::Js(v));
            }
        }
    }

    #[inline]
    /// The program, function and index of the instruction running now.
    pub fn current_instruction(&self) -> Option<(u16, u32, u32)> {
        self.frames.last().map(|f| (f.prog, f.func, f.pc))
    }

    /// Register `r` of the running frame.
    pub fn reg(&self, r: Reg) -> Value {
        self.r(r)
    }

    #[inline(always)]
    fn r(&self, r: Reg) -> Value {
        self.regs[self.base + r as usize]
    }

    #[inline(always)]
    fn set(&mut self, r: Reg, v: Value) {
        self.regs[self.base + r as usize] = v;
    }

    /// Finish a call instruction: a ready value goes to `dst`, a pushed frame continues.
    fn called(&mut self, res: Option<Value>, dst: Option<Reg>) -> Flow {
        match res {
            Some(v) => {
                if let Some(d) = dst {
                    self.set(d, v);
                }
                Flow::Next
            }
            None => Flow::Pushed,
        }
    }

    /// The callee's source text of the current call instruction, if recorded.
    fn callee_text(&self) -> Option<String> {
        let f = self.frames.last()?;
        let p = &self.progs[f.prog as usize];
        let names = &p.funcs[f.func as usize].callee_text;
        let i = names.binary_search_by_key(&f.pc, |(pc, _)| *pc).ok()?;
        Some(p.strings[names[i].1 as usize].to_rust())
    }

    fn callee_error(&mut self, callee: Value) -> Throw {
        if let Some(text) = self.callee_text() {
            let t = self.type_error(&format!("{text} is not a function"));
            if let Throw::Js(e) = t
                && let Some((hint, suggestions)) = crate::hints::missing_method(self, callee)
            {
                self.hint = Some((e, hint, suggestions));
            }
            return t;
        }
        let t = self.typeof_str(callee);
        let shown = match callee {
            Value::Str(_) | Value::Num(_) | Value::Bool(_) => {
                crate::builtins::inspect(self, callee).unwrap_or_default()
            }
            Value::Undefined => "undefined".into(),
            Value::Null => "null".into(),
            _ => t.to_string(),
        };
        self.type_error(&format!("{shown} is not a function"))
    }

    fn check_callable(&mut self, callee: Value) -> Res<()> {
        match callee {
            Value::Obj(o) if matches!(self.heap.obj(o).kind, Kind::Function(_)) => Ok(()),
            _ => Err(self.callee_error(callee)),
        }
    }

    fn step(&mut self, op: Op, prog: u16) -> Res<Flow> {
        match op {
            Op::LoadUndef(d) => self.set(d, Value::Undefined),
            Op::LoadNull(d) => self.set(d, Value::Null),
            Op::LoadBool(d, b) => self.set(d, Value::Bool(b)),
            Op::LoadNum(d, n) => self.set(d, Value::Num(n)),
            Op::LoadStr(d, k) => {
                let (s, _) = self.konst(prog, k)?;
                self.set(d, Value::Str(s));
            }
            Op::LoadEmpty(d) => self.set(d, Value::Empty),
            Op::Move(d, s) => {
                let v = self.r(s);
                self.set(d, v);
            }
            Op::CheckTdz(r, n) => {
                if matches!(self.r(r), Value::Empty) {
                    return Err(self.tdz(prog, n));
                }
            }
            Op::GetCell(d, slot, check) => {
                let c = self.frame().cells[slot as usize];
                let v = self.heap.cells[c.0 as usize];
                if matches!(v, Value::Empty)
                    && let Some(n) = check
                {
                    return Err(self.tdz(prog, n));
                }
                self.set(d, v);
            }
            Op::SetCell(slot, s) => {
                let c = self.frame().cells[slot as usize];
                self.heap.cells[c.0 as usize] = self.r(s);
            }
            Op::NewCell(slot) => {
                let c = self.heap.new_cell(Value::Empty)?;
                self.frames.last_mut().expect("frame").cells[slot as usize] = c;
            }
            Op::CopyCell(slot) => {
                let old = self.frame().cells[slot as usize];
                let v = self.heap.cells[old.0 as usize];
                let c = self.heap.new_cell(v)?;
                self.frames.last_mut().expect("frame").cells[slot as usize] = c;
            }
            Op::GetUp(d, idx, check) => {
                let c = self.up_cell(idx);
                let v = self.heap.cells[c.0 as usize];
                if matches!(v, Value::Empty)
                    && let Some(n) = check
                {
                    return Err(self.tdz(prog, n));
                }
                self.set(d, v);
            }
            Op::SetUp(idx, s) => {
                let c = self.up_cell(idx);
                self.heap.cells[c.0 as usize] = self.r(s);
            }
            Op::GetGlobal(d, n) => {
                let (_, key) = self.konst(prog, n)?;
                match self.lookup(Value::Obj(self.global), key) {
                    Some(Prop {
                        slot: Slot::Data(v),
                        ..
                    }) => self.set(d, v),
                    Some(Prop {
                        slot: Slot::Accessor(g, _),
                        ..
                    }) => {
                        let res =
                            self.call(g, Value::Obj(self.global), Vec::new(), Some(d), None)?;
                        return Ok(self.called(res, Some(d)));
                    }
                    None => {
                        let name = self.progs[prog as usize].strings[n as usize].to_rust();
                        let t = self
                            .err_of(ErrorType::ReferenceError, &format!("{name} is not defined"));
                        if let Throw::Js(e) = t
                            && let Some((hint, suggestions)) =
                                crate::hints::undefined_name(self, &name)
                        {
                            self.hint = Some((e, hint, suggestions));
                        }
                        return Err(t);
                    }
                }
            }
            Op::SetGlobal(n, s) => {
                let (_, key) = self.konst(prog, n)?;
                if self.lookup(Value::Obj(self.global), key).is_none() {
                    let name = self.progs[prog as usize].strings[n as usize].to_rust();
                    return Err(
                        self.err_of(ErrorType::ReferenceError, &format!("{name} is not defined"))
                    );
                }
                let v = self.r(s);
                if let Some((f, v)) = self.set_value(Value::Obj(self.global), key, v)? {
                    let res = self.call(f, Value::Obj(self.global), vec![v], None, None)?;
                    return Ok(self.called(res, None));
                }
            }
            Op::TypeofGlobal(d, n) => {
                let (_, key) = self.konst(prog, n)?;
                let t = match self.lookup(Value::Obj(self.global), key) {
                    Some(Prop {
                        slot: Slot::Data(v),
                        ..
                    }) => self.typeof_str(v),
                    Some(_) => "object",
                    None => "undefined",
                };
                let s = self.str_val(t)?;
                self.set(d, s);
            }
            Op::GetProp(d, o, n) => {
                let (_, key) = self.konst(prog, n)?;
                let ov = self.r(o);
                return self.get_into(d, ov, key);
            }
            Op::GetElem(d, o, k) => {
                let ov = self.r(o);
                let kv = self.r(k);
                if let (Value::Obj(obj), Value::Num(n)) = (ov, kv)
                    && let Kind::Array(e) = &self.heap.obj(obj).kind
                    && let Some(v) = e.get_num(n)
                {
                    self.set(d, v);
                    return Ok(Flow::Next);
                }
                if ov.is_nullish() {
                    let k = self.to_key(kv)?;
                    return self.get_into(d, ov, k);
                }
                let key = self.to_key(kv)?;
                return self.get_into(d, ov, key);
            }
            Op::SetProp(o, n, s) => {
                let (_, key) = self.konst(prog, n)?;
                let (ov, v) = (self.r(o), self.r(s));
                if let Some((f, v)) = self.set_value(ov, key, v)? {
                    let res = self.call(f, ov, vec![v], None, None)?;
                    return Ok(self.called(res, None));
                }
            }
            Op::SetElem(o, k, s) => {
                let (ov, kv, v) = (self.r(o), self.r(k), self.r(s));
                if ov.is_nullish() {
                    let key = self.to_key(kv)?;
                    self.set_value(ov, key, v)?;
                }
                let key = self.to_key(kv)?;
                if let Some((f, v)) = self.set_value(ov, key, v)? {
                    let res = self.call(f, ov, vec![v], None, None)?;
                    return Ok(self.called(res, None));
                }
            }
            Op::DeleteElem(d, o, k) => {
                let (ov, kv) = (self.r(o), self.r(k));
                let key = self.to_key(kv)?;
                let ok = self.delete(ov, key)?;
                self.set(d, Value::Bool(ok));
            }
            Op::DefineProp(o, n, s) => {
                let (_, key) = self.konst(prog, n)?;
                let (Value::Obj(obj), v) = (self.r(o), self.r(s)) else {
                    return Ok(Flow::Next);
                };
                self.define(obj, key, Slot::Data(v), DEFAULT_ATTRS)?;
            }
            Op::DefineElem(o, k, s) => {
                let kv = self.r(k);
                let key = self.to_key(kv)?;
                let (Value::Obj(obj), v) = (self.r(o), self.r(s)) else {
                    return Ok(Flow::Next);
                };
                self.check_definable(obj, key)?;
                self.define(obj, key, Slot::Data(v), DEFAULT_ATTRS)?;
            }
            Op::DefineMethod(o, k, f) => {
                let kv = self.r(k);
                let key = self.to_key(kv)?;
                let (Value::Obj(obj), fv) = (self.r(o), self.r(f)) else {
                    return Ok(Flow::Next);
                };
                self.check_definable(obj, key)?;
                self.define(obj, key, Slot::Data(fv), HIDDEN_ATTRS)?;
            }
            Op::DefineAccessor(o, k, f, flags) => {
                let is_set = flags & 1 != 0;
                let kv = self.r(k);
                let key = self.to_key(kv)?;
                let (Value::Obj(obj), fv) = (self.r(o), self.r(f)) else {
                    return Ok(Flow::Next);
                };
                self.check_definable(obj, key)?;
                let (g, s) = match self.heap.obj(obj).props.get(key) {
                    Some(Prop {
                        slot: Slot::Accessor(g, s),
                        ..
                    }) => (*g, *s),
                    _ => (Value::Undefined, Value::Undefined),
                };
                let slot = if is_set {
                    Slot::Accessor(g, fv)
                } else {
                    Slot::Accessor(fv, s)
                };
                let attrs = if flags & 2 != 0 {
                    CONFIGURABLE
                } else {
                    ENUMERABLE | CONFIGURABLE
                };
                self.define(obj, key, slot, attrs)?;
            }
            Op::CopyProps(o, s) => {
                let (Value::Obj(obj), src) = (self.r(o), self.r(s)) else {
                    return Ok(Flow::Next);
                };
                crate::builtins::copy_props(self, obj, src, &[])?;
            }
            Op::CopyPropsExcept(o, s, ex) => {
                let (Value::Obj(obj), src, exv) = (self.r(o), self.r(s), self.r(ex)) else {
                    return Ok(Flow::Next);
                };
                let mut keys = Vec::new();
                for v in self.list_from_array_like(exv)? {
                    keys.push(self.to_key(v)?);
                }
                crate::builtins::copy_props(self, obj, src, &keys)?;
            }
            Op::NewObject(d) => {
                let o = self.new_object()?;
                self.set(d, Value::Obj(o));
            }
            Op::NewArray(d) => {
                let a = self.new_array(Vec::new())?;
                self.set(d, a);
            }
            Op::ArrayPush(a, s) => {
                let v = self.r(s);
                self.array_append(a, v)?;
            }
            Op::ArrayHole(a) => self.array_append(a, Value::Empty)?,
            Op::ArraySpread(a, s, done) => {
                let src = self.r(s);
                if !self.spreads_fast(src) {
                    return Ok(Flow::Next);
                }
                let items = self.iterate_fast(src)?;
                if let Value::Obj(o) = self.r(a) {
                    let len = self.elems(o).map_or(0, |e| e.len());
                    if len + items.len() > MAX_ARRAY_LENGTH {
                        return Err(self.range_error("Invalid array length"));
                    }
                    self.heap.fits(items.len() * VALUE_BYTES)?;
                    self.work(items.len());
                    self.elems_mut(o, |e| {
                        for v in items {
                            e.push(v);
                        }
                    })?;
                }
                return Ok(Flow::Jump(done));
            }
            Op::Binary(bop, d, a, b) => {
                let (x, y) = (self.r(a), self.r(b));
                let v = self.binary(bop, x, y)?;
                self.set(d, v);
            }
            Op::BinaryK(bop, d, a, k) => {
                let x = self.r(a);
                let v = self.binary(bop, x, Value::Num(k))?;
                self.set(d, v);
            }
            Op::Unary(uop, d, a) => {
                let x = self.r(a);
                let v = match uop {
                    UnOp::Neg => Value::Num(-self.to_number(x)?),
                    UnOp::Plus | UnOp::ToNumeric => Value::Num(self.to_number(x)?),
                    UnOp::Not => Value::Bool(!self.truthy(x)),
                    UnOp::BitNot => Value::Num(!self.to_int32(x)? as f64),
                    UnOp::Typeof => {
                        let t = self.typeof_str(x);
                        self.str_val(t)?
                    }
                    UnOp::ToStr => {
                        if let Value::Sym(_) = x {
                            return Err(
                                self.type_error("Cannot convert a Symbol value to a string")
                            );
                        }
                        Value::Str(self.to_string(x)?)
                    }
                    UnOp::Inc => Value::Num(self.to_number(x)? + 1.0),
                    UnOp::Dec => Value::Num(self.to_number(x)? - 1.0),
                };
                self.set(d, v);
            }
            Op::Jump(t) => return Ok(Flow::Jump(t)),
            Op::JumpIfTrue(r, t) => {
                if self.truthy(self.r(r)) {
                    return Ok(Flow::Jump(t));
                }
            }
            Op::JumpIfFalse(r, t) => {
                if !self.truthy(self.r(r)) {
                    return Ok(Flow::Jump(t));
                }
            }
            Op::JumpIfNullish(r, t) => {
                if self.r(r).is_nullish() {
                    return Ok(Flow::Jump(t));
                }
            }
            Op::JumpIfNotNullish(r, t) => {
                if !self.r(r).is_nullish() {
                    return Ok(Flow::Jump(t));
                }
            }
            Op::JumpIfUndefined(r, t) => {
                if self.r(r) == Value::Undefined {
                    return Ok(Flow::Jump(t));
                }
            }
            Op::Call(d, c, t, first, n) => {
                let callee = self.r(c);
                self.check_callable(callee)?;
                let this = self.r(t);
                let first = self.base + first as usize;
                let res = self.call_regs(callee, this, first, n as usize, d)?;
                return Ok(self.called(res, Some(d)));
            }
            Op::CallSpread(d, c, t, arr) => {
                let callee = self.r(c);
                self.check_callable(callee)?;
                let this = self.r(t);
                let list = self.r(arr);
                let args = self.list_from_array_like(list)?;
                let res = self.call(callee, this, args, Some(d), None)?;
                return Ok(self.called(res, Some(d)));
            }
            Op::New(d, c, first, n) => {
                let base = self.frame().base as usize + first as usize;
                let args = self.regs[base..base + n as usize].to_vec();
                return self.construct(d, self.r(c), args);
            }
            Op::NewSpread(d, c, arr) => {
                let list = self.r(arr);
                let args = self.list_from_array_like(list)?;
                return self.construct(d, self.r(c), args);
            }
            Op::Closure(d, idx) => {
                let v = self.make_closure(prog, idx)?;
                self.set(d, v);
            }
            Op::NewRegExp(d, p, f) => {
                let strings = &self.progs[prog as usize].strings;
                let (p, f) = (strings[p as usize].clone(), strings[f as usize].clone());
                let v = crate::builtins::regexp::literal(self, &p, &f)?;
                self.set(d, v);
            }
            Op::Return(r) => {
                if let Some(b) = self.body
                    && self.frame().finish == Finish::Coro(b)
                {
                    self.body_end_at = self.location();
                }
                return Ok(Flow::Return(self.r(r)));
            }
            Op::Completion(r) => {
                if self.body.is_some() && self.frame().finish == Finish::Coro(self.body.unwrap()) {
                    self.body_end_at = self.location();
                    return Ok(Flow::Return(self.r(r)));
                }
                if self.frames.len() == 1 {
                    return Ok(Flow::End(self.r(r), true));
                }
            }
            Op::End => {
                if self.body.is_some() && self.frame().finish == Finish::Coro(self.body.unwrap()) {
                    self.body_returned = false;
                    return Ok(Flow::Return(Value::Undefined));
                }
                if self.frames.len() == 1 {
                    return Ok(Flow::End(Value::Undefined, false));
                }
                return Ok(Flow::Return(Value::Undefined));
            }
            Op::AsyncStart => return self.op_async_start(),
            Op::GenStart(is_async) => return self.op_gen_start(is_async),
            Op::Await(d, v) => return self.op_await(d, self.r(v)),
            Op::Yield(d, v) => return self.op_yield(d, self.r(v)),
            Op::Delegate(res, it, r) => return self.op_delegate(res, it, r),
            Op::DelegateResult(d, res, r, exit) => return self.op_delegate_result(d, res, r, exit),
            Op::YieldDelegate(r, res) => return self.op_yield_delegate(r, res),
            Op::AsyncIter(d, s) => {
                let src = self.r(s);
                let f = self
                    .intr
                    .get_async_iterator
                    .map_or(Value::Undefined, Value::Obj);
                let r = self.call(f, Value::Undefined, vec![src], Some(d), None)?;
                return Ok(self.called(r, Some(d)));
            }
            Op::Throw(r) => return Err(Throw::Js(self.r(r))),
            Op::ThrowError(t, m) => {
                let msg = self.progs[prog as usize].strings[m as usize].to_rust();
                return Err(self.err_of(t, &msg));
            }
            Op::PushHandler(t, r) => {
                self.frames.last_mut().expect("frame").handlers.push((t, r));
            }
            Op::PopHandler => {
                self.frames.last_mut().expect("frame").handlers.pop();
            }
            Op::IterInit(d, s) => return self.iter_init(d, self.r(s)),
            Op::IterNext(res, it) => {
                let itv = self.r(it);
                if let Some(v) = self.builtin_iter_step(itv)? {
                    self.set(res, v);
                } else {
                    let next = self.get_simple(itv, "next")?;
                    self.check_callable(next)?;
                    let r = self.call(next, itv, Vec::new(), Some(res), None)?;
                    return Ok(self.called(r, Some(res)));
                }
            }
            Op::IterValue(d, res, it, exit) => {
                let itv = self.r(it);
                let rv = self.r(res);
                if self.is_builtin_iter(itv) {
                    if matches!(rv, Value::Empty) {
                        return Ok(Flow::Jump(exit));
                    }
                    self.set(d, rv);
                } else {
                    if !matches!(rv, Value::Obj(_)) {
                        let s = crate::builtins::inspect(self, rv)?;
                        return Err(
                            self.type_error(&format!("Iterator result {s} is not an object"))
                        );
                    }
                    let done = self.get_simple(rv, "done")?;
                    if self.truthy(done) {
                        return Ok(Flow::Jump(exit));
                    }
                    let v = self.get_simple(rv, "value")?;
                    self.set(d, v);
                }
            }
            Op::IterClose(it) => {
                let itv = self.r(it);
                if !self.is_builtin_iter(itv) && matches!(itv, Value::Obj(_)) {
                    let ret = self.get_simple(itv, "return")?;
                    if !ret.is_nullish() {
                        self.check_callable(ret)?;
                        let r = self.call(ret, itv, Vec::new(), None, None)?;
                        return Ok(self.called(r, None));
                    }
                }
            }
            Op::ForInKeys(d, s) => {
                let src = self.r(s);
                if let Value::Obj(a) = src
                    && matches!(self.heap.obj(a).kind, Kind::Array(_))
                    && !self.progs[prog as usize].builtin
                {
                    self.slip(
                        "`for…in` over an array iterates its indices as strings ('0', '1', ...), not its elements: write `for (const x of arr)` for the elements, or `arr.forEach((x, i) => ...)` for both.".to_string(),
                    );
                }
                let keys = crate::builtins::for_in_keys(self, src)?;
                let o = self.heap.new_obj(
                    self.intr.iterator_proto,
                    Kind::Iterator(Iter::List {
                        items: keys,
                        pos: 0,
                    }),
                )?;
                self.set(d, Value::Obj(o));
            }
            Op::Template(d, site) => {
                let o = self.template_object(prog, site)?;
                self.set(d, Value::Obj(o));
            }
            Op::Arguments(d) => {
                let args = Elems::from_vec(self.frame().args.clone());
                self.heap.charge(args.bytes())?;
                let o = self
                    .heap
                    .new_obj(self.intr.object_proto, Kind::Arguments(args))?;
                // Strict-mode arguments objects (§10.4.4.6): `callee` throws when read or set.
                if let Some(t) = self.intr.throw_type_error {
                    let k = self.heap.key("callee");
                    let t = Value::Obj(t);
                    self.define(o, k, Slot::Accessor(t, t), 0)?;
                }
                self.set(d, Value::Obj(o));
            }
            Op::Rest(d, from) => {
                let args: Vec<Value> = self
                    .frame()
                    .args
                    .iter()
                    .skip(from as usize)
                    .copied()
                    .collect();
                let a = self.new_array(args)?;
                self.set(d, a);
            }
            Op::LiteralProto(a, b) => {
                if let Value::Obj(o) = self.r(a) {
                    match self.r(b) {
                        Value::Obj(p) => self.heap.obj_mut(o).proto = Some(p),
                        Value::Null => self.heap.obj_mut(o).proto = None,
                        _ => {}
                    }
                }
            }
            Op::NameFromKey(f, key, kind) => {
                if let Value::Obj(o) = self.r(f) {
                    let base = match self.r(key) {
                        Value::Sym(s) => {
                            Some(self.heap.symbols[s.0 as usize].map_or(String::new(), |d| {
                                format!("[{}]", self.heap.str(d).to_rust())
                            }))
                        }
                        v @ (Value::Str(_) | Value::Num(_)) => {
                            let s = self.to_string(v)?;
                            Some(self.heap.str(s).to_rust())
                        }
                        _ => None,
                    };
                    if let Some(b) = base {
                        let name = match kind {
                            1 => format!("get {b}"),
                            2 => format!("set {b}"),
                            _ => b,
                        };
                        let n = self.str_val(&name)?;
                        let k = self.heap.key("name");
                        self.define(o, k, Slot::Data(n), CONFIGURABLE)?;
                    }
                }
            }
            Op::GetSuper(d, home, k, this) => {
                let kv = self.r(k);
                let key = self.to_key(kv)?;
                return self.get_super(d, self.r(home), key, self.r(this));
            }
            Op::SetSuper(home, k, v, this) => {
                let kv = self.r(k);
                let key = self.to_key(kv)?;
                return self.set_super(self.r(home), key, self.r(v), self.r(this));
            }
            Op::NewPrivateName(d, n) => {
                let (s, _) = self.konst(prog, n)?;
                let sym = self.heap.new_symbol(Some(s))?;
                self.set(d, Value::Sym(sym));
            }
            Op::GetPrivate(d, o, n, class) => return self.get_private(d, o, n, prog, class),
            Op::SetPrivate(o, n, v, class) => return self.set_private(o, n, v, prog, class),
            Op::DefinePrivate(o, n, v, kind, class) => {
                self.define_private(o, n, v, kind, prog, class)?
            }
            Op::HasPrivate(d, o, n) => self.has_private(d, o, n)?,
            Op::ToPropertyKey(d, s) => {
                let v = self.r(s);
                let v = match self.to_key(v)? {
                    Key::Sym(s) => Value::Sym(s),
                    k => {
                        let s = self.heap.key_str(k).unwrap_or_else(|| JsStr::from_str(""));
                        self.js_str(s)?
                    }
                };
                self.set(d, v);
            }
            Op::NewTarget(d) => {
                let v = self.frame().new_target;
                self.set(d, v);
            }
            Op::Import(d, s, mode) => {
                let spec = self.r(s);
                let v = crate::builtins::modules::import(self, spec, mode)?;
                self.set(d, v);
            }
            Op::ImportName(d, m, n, spec) => {
                let (_, key) = self.konst(prog, n)?;
                let spec = self.progs[prog as usize].strings[spec as usize].to_rust();
                let mv = self.r(m);
                let v = crate::builtins::modules::import_name(self, mv, &spec, key)?;
                self.set(d, v);
            }
            Op::Extends(c, p, parent) => self.extends(c, p, parent)?,
            Op::SuperConstruct(d, env, first, n) => {
                let base = self.frame().base as usize + first as usize;
                let args = self.regs[base..base + n as usize].to_vec();
                return self.super_construct(d, env, args);
            }
            Op::SuperConstructSpread(d, env, arr) => {
                let list = self.r(arr);
                let args = self.list_from_array_like(list)?;
                return self.super_construct(d, env, args);
            }
            Op::CheckThisUnbound(t) => {
                if self.r(t) != Value::Empty {
                    return Err(self.err_of(
                        ErrorType::ReferenceError,
                        "Super constructor may only be called once",
                    ));
                }
            }
            Op::ReturnDerived(v, t) => return self.return_derived(self.r(v), self.r(t)),
            Op::Callee(d) => {
                let v = self.frame().callee;
                self.set(d, v);
            }
        }
        Ok(Flow::Next)
    }

    fn array_append(&mut self, a: Reg, v: Value) -> Res<()> {
        if let Value::Obj(o) = self.r(a) {
            let n = match &self.heap.obj(o).kind {
                Kind::Array(e) => e.len() as u32,
                _ => 0,
            };
            self.array_set(o, n, v)?;
        }
        Ok(())
    }

    fn tdz(&mut self, prog: u16, n: u32) -> Throw {
        let name = self.progs[prog as usize].strings[n as usize].to_rust();
        if name == "this" {
            // `this` of a derived constructor before `super(...)`.
            return self.err_of(ErrorType::ReferenceError, class::THIS_BEFORE_SUPER);
        }
        self.err_of(
            ErrorType::ReferenceError,
            &format!("Cannot access '{name}' before initialization"),
        )
    }

    /// `dst ← v[key]`, calling a getter through the loop.
    fn get_into(&mut self, d: Reg, v: Value, key: Key) -> Res<Flow> {
        if v.is_nullish() {
            self.get_value(v, key)?;
        }
        match self.lookup(v, key) {
            Some(Prop {
                slot: Slot::Data(x),
                ..
            }) => {
                self.set(d, x);
                Ok(Flow::Next)
            }
            Some(Prop {
                slot: Slot::Accessor(g, _),
                ..
            }) => {
                if g == Value::Undefined {
                    self.set(d, Value::Undefined);
                    return Ok(Flow::Next);
                }
                let r = self.call(g, v, Vec::new(), Some(d), None)?;
                Ok(self.called(r, Some(d)))
            }
            None => {
                let mut x = Value::Undefined;
                if matches!(key, Key::Name(_)) && self.is_promise(v) {
                    let name = self.key_text(key);
                    self.slip(format!(
                        "Property '{name}' was read from a Promise, not from its value, and is undefined: the call was not awaited. Write `(await call).{name}`, or `const v = await call;` first."
                    ));
                }
                if let (Value::Obj(o), Key::Name(_)) = (v, key)
                    && let Some(parent) = crate::builtins::tool_node_path(self, o)
                    && key != self.then_key
                {
                    let name = self.key_text(key);
                    x = crate::builtins::missing_fn(self, &parent, &name)?;
                }
                self.set(d, x);
                Ok(Flow::Next)
            }
        }
    }

    fn delete(&mut self, v: Value, key: Key) -> Res<bool> {
        let Value::Obj(o) = v else {
            if v.is_nullish() {
                return Err(self.type_error("Cannot convert undefined or null to object"));
            }
            return Ok(true);
        };
        match self.delete_own(o, key) {
            Ok(()) => Ok(true),
            Err(()) => {
                let k = self.key_text(key);
                let label = self.object_label(o);
                Err(self.type_error(&format!("Cannot delete property '{k}' of {label}")))
            }
        }
    }

    /// [[Delete]] of an own property: `Err` when it is non-configurable.
    pub fn delete_own(&mut self, o: ObjId, key: Key) -> Result<(), ()> {
        let obj = self.heap.obj_mut(o);
        let sealed = obj.sealed_elements || obj.frozen_elements;
        let own_attrs = obj.props.get(key).map(|p| p.attrs);
        if let (Kind::Array(e) | Kind::Arguments(e), Key::Index(i)) = (&mut obj.kind, key)
            && e.get(i as usize).is_some()
        {
            let configurable = match own_attrs {
                Some(a) => a & CONFIGURABLE != 0,
                None => !sealed,
            };
            if !configurable {
                return Err(());
            }
            e.delete(i as usize);
            obj.props.remove(key);
            return Ok(());
        }
        if self.is_length(key) && matches!(self.heap.obj(o).kind, Kind::Array(_)) {
            return Err(());
        }
        if let (Kind::Bytes { len, .. }, Key::Index(i)) = (&self.heap.obj(o).kind, key)
            && i < *len
        {
            return Err(());
        }
        if let Kind::String(s) = self.heap.obj(o).kind {
            let n = self.heap.str(s).len();
            if matches!(key, Key::Index(i) if (i as usize) < n) || self.is_length(key) {
                return Err(());
            }
        }
        if let Some(p) = self.heap.obj(o).props.get(key) {
            if p.attrs & CONFIGURABLE == 0 {
                return Err(());
            }
            self.heap.obj_mut(o).props.remove(key);
        }
        Ok(())
    }

    /// IsConstructor: `new v()` would not throw "is not a constructor".
    pub fn is_constructor(&self, v: Value) -> bool {
        // A bound function's target was made before it: the chain ends.
        let mut cur = v;
        loop {
            let Value::Obj(o) = cur else { return false };
            match &self.heap.obj(o).kind {
                // Program 0 is the prelude: builtin methods, none a constructor.
                Kind::Function(Func::Closure { prog, func, .. }) => {
                    return *prog != 0
                        && self.progs[*prog as usize].funcs[*func as usize].constructible;
                }
                Kind::Function(Func::Native(n)) => return crate::builtins::is_constructor(*n),
                Kind::Function(Func::Bound { target, .. }) => cur = Value::Obj(*target),
                _ => return false,
            }
        }
    }

    fn construct(&mut self, d: Reg, callee: Value, args: Vec<Value>) -> Res<Flow> {
        if !self.is_constructor(callee) {
            if let Some(text) = self.callee_text() {
                return Err(self.type_error(&format!("{text} is not a constructor")));
            }
            let s = match callee {
                Value::Obj(_) => "value".to_string(),
                v => crate::builtins::inspect(self, v)?,
            };
            return Err(self.type_error(&format!("{s} is not a constructor")));
        }
        let target = match callee {
            Value::Obj(o) => match &self.heap.obj(o).kind {
                Kind::Function(Func::Bound { target, .. }) => Value::Obj(*target),
                _ => callee,
            },
            _ => callee,
        };
        self.construct_with(d, callee, args, target)
    }

    /// Construct `callee` (a constructor) with `new_target`: `this` gets the prototype of
    /// `new_target.prototype`, and so does a builtin's own new object (subclassed builtins).
    fn construct_with(
        &mut self,
        d: Reg,
        callee: Value,
        args: Vec<Value>,
        new_target: Value,
    ) -> Res<Flow> {
        let proto = self.get_simple(new_target, "prototype")?;
        let proto = match proto {
            Value::Obj(p) => Some(p),
            _ => self.intr.object_proto,
        };
        let obj = self.heap.new_obj(proto, Kind::Ordinary)?;
        let r = self.call(callee, Value::Obj(obj), args, Some(d), Some(obj))?;
        if let Some(v) = r {
            let v = match v {
                Value::Obj(o) => {
                    if new_target != callee && o != obj {
                        self.heap.obj_mut(o).proto = proto;
                    }
                    v
                }
                _ => Value::Obj(obj),
            };
            self.set(d, v);
            return Ok(Flow::Next);
        }
        self.frames.last_mut().expect("frame").new_target = new_target;
        Ok(Flow::Pushed)
    }

    fn make_closure(&mut self, prog: u16, idx: u32) -> Res<Value> {
        let f = &self.progs[prog as usize].funcs[idx as usize];
        let (name, length, constructible) = (f.name.clone(), f.length, f.constructible);
        let ups: Vec<CellId> = f
            .captures
            .iter()
            .map(|c| match c {
                Capture::Own(s) => self.frame().cells[*s as usize],
                Capture::Up(u) => self.up_cell(*u),
            })
            .collect();
        self.heap.charge(ups.len() * 8)?;
        let o = self.heap.new_obj(
            self.intr.function_proto,
            Kind::Function(Func::Closure {
                prog,
                func: idx,
                ups,
            }),
        )?;
        self.function_props(o, &name, length)?;
        let (is_async, generator) = {
            let f = &self.progs[prog as usize].funcs[idx as usize];
            (f.is_async, f.generator)
        };
        if is_async || generator {
            let (fproto, iproto) = match (is_async, generator) {
                (true, false) => (self.intr.async_function_proto, None),
                (false, _) => (
                    self.intr.generator_function_proto,
                    self.intr.generator_proto,
                ),
                (true, true) => (
                    self.intr.async_generator_function_proto,
                    self.intr.async_generator_proto,
                ),
            };
            self.heap.obj_mut(o).proto = fproto;
            if iproto.is_some() {
                let p = self.heap.new_obj(iproto, Kind::Ordinary)?;
                let k = self.heap.key("prototype");
                self.define(o, k, Slot::Data(Value::Obj(p)), WRITABLE)?;
            }
        }
        if constructible {
            let p = self.new_object()?;
            let k = self.heap.key("constructor");
            self.define(p, k, Slot::Data(Value::Obj(o)), HIDDEN_ATTRS)?;
            let k = self.heap.key("prototype");
            self.define(o, k, Slot::Data(Value::Obj(p)), WRITABLE)?;
        }
        Ok(Value::Obj(o))
    }

    /// `length` and `name` of a function object.
    pub fn function_props(&mut self, o: ObjId, name: &str, length: u16) -> Res<()> {
        let k = self.heap.key("length");
        self.define(o, k, Slot::Data(Value::Num(length as f64)), CONFIGURABLE)?;
        let n = self.str_val(name)?;
        let k = self.heap.key("name");
        self.define(o, k, Slot::Data(n), CONFIGURABLE)?;
        Ok(())
    }

    fn is_builtin_iter(&self, v: Value) -> bool {
        matches!(v, Value::Obj(o) if matches!(self.heap.obj(o).kind, Kind::Iterator(_)))
    }

    /// Create an iterator over `v`.
    fn iter_init(&mut self, d: Reg, v: Value) -> Res<Flow> {
        if let Some(it) = self.fast_iterator(v)? {
            self.set(d, it);
            return Ok(Flow::Next);
        }
        let key = Key::Sym(self.intr.sym_iterator.expect("symbol"));
        let m = if v.is_nullish() {
            Value::Undefined
        } else {
            self.get_value(v, key)?
        };
        if m.is_nullish() || !matches!(m, Value::Obj(_)) {
            let s = crate::builtins::inspect(self, v)?;
            return Err(self.type_error(&format!("{s} is not iterable")));
        }
        let r = self.call(m, v, Vec::new(), Some(d), None)?;
        Ok(self.called(r, Some(d)))
    }

    /// Whether `v` iterates through a builtin iterator that runs no user code (what
    /// [`Self::fast_iterator`] makes one for, and so [`Self::iterate_fast`] takes), without
    /// making it.
    pub fn is_builtin_iterable(&mut self, v: Value) -> bool {
        match v {
            Value::Str(_) => true,
            Value::Obj(o) => match self.heap.obj(o).kind {
                Kind::Array(_) | Kind::Arguments(_) => self.array_iteration_intact(o),
                Kind::Iterator(_) | Kind::Map(_) | Kind::Set(_) | Kind::Params(_) => true,
                _ => false,
            },
            _ => false,
        }
    }

    /// A builtin iterator over arrays, strings, arguments, Map and Set (None: ask the value).
    fn fast_iterator(&mut self, v: Value) -> Res<Option<Value>> {
        let iter = match v {
            Value::Str(s) => Iter::Str { s, pos: 0 },
            Value::Obj(o) => match &self.heap.obj(o).kind {
                Kind::Array(_) | Kind::Arguments(_) => {
                    // Only while the array's own iterator is the builtin one.
                    if !self.array_iteration_intact(o) {
                        return Ok(None);
                    }
                    Iter::Array {
                        target: v,
                        pos: 0,
                        kind: 0,
                    }
                }
                Kind::Iterator(_) => return Ok(Some(v)),
                Kind::Map(_) | Kind::Set(_) => {
                    let kind = if matches!(self.heap.obj(o).kind, Kind::Map(_)) {
                        2
                    } else {
                        1
                    };
                    return crate::builtins::table_iter(self, o, kind).map(Some);
                }
                Kind::Params(_) => return crate::builtins::url::entries_iter(self, o).map(Some),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let proto = match iter {
            Iter::Str { .. } => self.intr.string_iter_proto,
            _ => self.intr.array_iter_proto,
        };
        let o = self.heap.new_obj(proto, Kind::Iterator(iter))?;
        Ok(Some(Value::Obj(o)))
    }

    fn array_iteration_intact(&mut self, o: ObjId) -> bool {
        let Some(sym) = self.intr.sym_iterator else {
            return true;
        };
        let key = Key::Sym(sym);
        if matches!(self.heap.obj(o).kind, Kind::Arguments(_)) {
            return true;
        }
        match self.lookup(Value::Obj(o), key) {
            Some(Prop {
                slot: Slot::Data(Value::Obj(f)),
                ..
            }) => {
                matches!(self.heap.obj(f).kind, Kind::Function(Func::Native(n)) if n == crate::builtins::NATIVE_ARRAY_VALUES)
            }
            _ => false,
        }
    }

    /// One step of a builtin iterator: Some(value), Some(Empty) when done; None for others.
    pub fn builtin_iter_step(&mut self, it: Value) -> Res<Option<Value>> {
        let Value::Obj(o) = it else { return Ok(None) };
        let Kind::Iterator(state) = &self.heap.obj(o).kind else {
            return Ok(None);
        };
        if let Iter::List { items, pos } = state {
            // (no copy of the list per step)
            let v = items.get(*pos as usize).copied().unwrap_or(Value::Empty);
            if let Kind::Iterator(Iter::List { pos, .. }) = &mut self.heap.obj_mut(o).kind {
                *pos = pos.saturating_add(1);
            }
            return Ok(Some(v));
        }
        let (out, next) = match state.clone() {
            Iter::Array { target, pos, kind } => {
                let len = match target {
                    Value::Obj(t) => match &self.heap.obj(t).kind {
                        Kind::Array(e) | Kind::Arguments(e) => e.len() as u32,
                        Kind::Bytes { len, .. } => *len,
                        _ => {
                            let l = self.get_simple(target, "length")?;
                            self.to_number(l)? as u32
                        }
                    },
                    _ => 0,
                };
                if pos >= len {
                    (
                        Value::Empty,
                        Iter::Array {
                            target,
                            pos: u32::MAX,
                            kind,
                        },
                    )
                } else {
                    let v = self.get_value(target, Key::Index(pos))?;
                    let out = match kind {
                        0 => v,
                        1 => Value::Num(pos as f64),
                        _ => self.new_array(vec![Value::Num(pos as f64), v])?,
                    };
                    (
                        out,
                        Iter::Array {
                            target,
                            pos: pos + 1,
                            kind,
                        },
                    )
                }
            }
            Iter::Str { s, pos } => {
                let st = self.heap.str(s);
                let p = pos as usize;
                if p >= st.len() {
                    (Value::Empty, Iter::Str { s, pos })
                } else {
                    let u = st.at(p);
                    let n = if (0xd800..0xdc00).contains(&u)
                        && p + 1 < st.len()
                        && (0xdc00..0xe000).contains(&st.at(p + 1))
                    {
                        2
                    } else {
                        1
                    };
                    let sub = st.slice(p, p + n);
                    let v = Value::Str(self.heap.new_str(sub)?);
                    (
                        v,
                        Iter::Str {
                            s,
                            pos: pos + n as u32,
                        },
                    )
                }
            }
            Iter::List { .. } => return Ok(None),
            Iter::Table { target, pos, kind } => {
                let next = match &self.heap.obj(target).kind {
                    Kind::Map(t) | Kind::Set(t) if pos != u32::MAX => t.next_live(pos as usize),
                    _ => None,
                };
                match next {
                    None => (
                        Value::Empty,
                        Iter::Table {
                            target,
                            pos: u32::MAX,
                            kind,
                        },
                    ),
                    Some((i, k, v)) => {
                        self.work((i - pos as usize) / 8);
                        let out = match kind {
                            0 => k,
                            1 => v,
                            _ => self.new_array(vec![k, v])?,
                        };
                        (
                            out,
                            Iter::Table {
                                target,
                                pos: i as u32 + 1,
                                kind,
                            },
                        )
                    }
                }
            }
        };
        if let Kind::Iterator(st) = &mut self.heap.obj_mut(o).kind {
            *st = next;
        }
        Ok(Some(out))
    }

    /// Every value of a builtin-iterable (spread); user iterables are not supported here yet.
    /// A native call whose work may be proportional to a large argument (or receiver): an
    /// array, Map, Set or object with more than [`crate::limits::INLINE_MAX_ELEMENTS`]
    /// elements, a longer string, or, for the natives that make a value of a given size
    /// (`"x".repeat(n)`, `Array(n)`, `padStart`), a number above that.
    fn heavy_native_call(&self, native: u16, this: Value, args: &[Value]) -> bool {
        let n = crate::limits::INLINE_MAX_ELEMENTS;
        let sized = crate::builtins::makes_sized_value(native);
        let big = |v: &Value| match *v {
            Value::Str(s) => self.heap.str(s).len() > n,
            Value::Num(x) => sized && x.abs() > n as f64,
            Value::Obj(o) => {
                let obj = self.heap.obj(o);
                obj.props.list.len() > n
                    || match &obj.kind {
                        Kind::Array(e) | Kind::Arguments(e) => e.len() > n,
                        Kind::Map(t) | Kind::Set(t) | Kind::WeakMap(t) | Kind::WeakSet(t) => {
                            t.bytes() > n * VALUE_BYTES
                        }
                        Kind::String(s) => self.heap.str(*s).len() > n,
                        Kind::Bytes { len, .. } => *len as usize > n,
                        _ => false,
                    }
            }
            _ => false,
        };
        args.len() > n || big(&this) || args.iter().any(big)
    }

    /// `true` when `...v` can take every element at once ([`Vm::iterate_fast`]).
    pub fn spreads_fast(&mut self, v: Value) -> bool {
        matches!(self.fast_iterator(v), Ok(Some(_)))
    }

    pub fn iterate_fast(&mut self, v: Value) -> Res<Vec<Value>> {
        let Some(it) = self.fast_iterator(v)? else {
            let s = crate::builtins::inspect(self, v)?;
            return Err(self.type_error(&format!(
                "{s} is not iterable (spreading user-defined iterables is not supported yet)"
            )));
        };
        let mut out = Vec::new();
        loop {
            match self.builtin_iter_step(it)? {
                Some(Value::Empty) | None => break,
                Some(x) => {
                    if out.len() == out.capacity() {
                        // The list is charged where it is stored; it must fit before then.
                        self.heap.fits((out.capacity() * 2).max(4) * VALUE_BYTES)?;
                    }
                    out.push(x)
                }
            }
            if out.len() > MAX_ARRAY_LENGTH {
                return Err(self.range_error("Invalid array length"));
            }
        }
        self.work(out.len());
        Ok(out)
    }
}
