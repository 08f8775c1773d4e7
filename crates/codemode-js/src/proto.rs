//! The instruction set, function prototypes and the compiled program.
//!
//! Register machine: each frame has a window of registers (`Reg`, 16-bit); a function's
//! locals that no nested function references live in registers, the rest in heap cells
//! (`Cell`: the frame's own, `Up`: captured by the closure), so frames can move (to suspend
//! for `await` and generators later). Jumps are absolute instruction indices.

use std::sync::Arc;

use crate::string::JsStr;

/// A register index within a frame.
pub type Reg = u16;

/// Binary operators with their spec coercions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Exp,
    Shl,
    Shr,
    UShr,
    BitAnd,
    BitOr,
    BitXor,
    Eq,
    Ne,
    StrictEq,
    StrictNe,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    InstanceOf,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Typeof,
    /// ToNumeric (for postfix `x++`).
    ToNumeric,
    /// ToString (template literal parts).
    ToStr,
    Inc,
    Dec,
}

/// Where a closure takes each captured cell from, in the frame that creates it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Capture {
    /// The creating frame's own cell.
    Own(u16),
    /// A cell the creating frame's closure captured.
    Up(u16),
}

/// One instruction.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    LoadUndef(Reg),
    LoadNull(Reg),
    LoadBool(Reg, bool),
    LoadNum(Reg, f64),
    /// A string constant of the program's pool.
    LoadStr(Reg, u32),
    /// The TDZ marker.
    LoadEmpty(Reg),
    Move(Reg, Reg),
    /// ReferenceError "Cannot access 'name' before initialization" when the register is Empty.
    CheckTdz(Reg, u32),
    /// dst ← own cell (slot); with a name: TDZ-checked.
    GetCell(Reg, u16, Option<u32>),
    SetCell(u16, Reg),
    /// A fresh own cell holding Empty (a new binding instance: block entry, loop iteration).
    NewCell(u16),
    /// A fresh own cell holding the current cell's value (per-iteration `let` copies).
    CopyCell(u16),
    GetUp(Reg, u16, Option<u32>),
    SetUp(u16, Reg),
    GetGlobal(Reg, u32),
    SetGlobal(u32, Reg),
    /// `typeof name` of a global that may not exist.
    TypeofGlobal(Reg, u32),
    GetProp(Reg, Reg, u32),
    SetProp(Reg, u32, Reg),
    GetElem(Reg, Reg, Reg),
    SetElem(Reg, Reg, Reg),
    DeleteElem(Reg, Reg, Reg),
    /// Define an own enumerable data property (object literals): obj, key, value.
    DefineElem(Reg, Reg, Reg),
    DefineProp(Reg, u32, Reg),
    /// Define an accessor: obj, key, function, flags (1: setter, 2: not enumerable).
    DefineAccessor(Reg, Reg, Reg, u8),
    /// Define a class method (not enumerable): obj, key, function.
    DefineMethod(Reg, Reg, Reg),
    /// Copy own enumerable properties of src into obj (`{...src}`).
    CopyProps(Reg, Reg),
    /// Copy own enumerable properties of src except the keys in the array excl (`{a, ...rest}`).
    CopyPropsExcept(Reg, Reg, Reg),
    NewObject(Reg),
    NewArray(Reg),
    ArrayPush(Reg, Reg),
    ArrayHole(Reg),
    /// Append every element of a built-in iterable (array, string, Map, Set, their
    /// iterators, arguments) at once and jump to the target; any other value falls through to
    /// the generic iteration loop the compiler emits next.
    ArraySpread(Reg, Reg, u32),
    Binary(BinOp, Reg, Reg, Reg),
    /// `Binary` whose right operand is a Number literal: dst ← a (op) constant.
    BinaryK(BinOp, Reg, Reg, f64),
    Unary(UnOp, Reg, Reg),
    Jump(u32),
    JumpIfTrue(Reg, u32),
    JumpIfFalse(Reg, u32),
    JumpIfNullish(Reg, u32),
    JumpIfNotNullish(Reg, u32),
    JumpIfUndefined(Reg, u32),
    /// dst, callee, this, first argument register, argument count.
    Call(Reg, Reg, Reg, Reg, u16),
    /// dst, callee, this, an array of the arguments.
    CallSpread(Reg, Reg, Reg, Reg),
    /// dst, callee, first argument, count.
    New(Reg, Reg, Reg, u16),
    NewSpread(Reg, Reg, Reg),
    /// Create a closure of program function `u32`.
    Closure(Reg, u32),
    /// A regular-expression literal: a new RegExp of pattern and flags (string constants).
    NewRegExp(Reg, u32, u32),
    Return(Reg),
    Throw(Reg),
    /// Throw a new error of the kind with the message constant.
    ThrowError(ErrorType, u32),
    /// Handler: on a throw in this frame, jump to the target with the thrown value in the reg.
    PushHandler(u32, Reg),
    PopHandler,
    /// it ← an iterator over src (arrays, strings, Map, Set, arguments and user iterables).
    IterInit(Reg, Reg),
    /// res ← the next step of the iterator (see `IterValue`).
    IterNext(Reg, Reg),
    /// dst ← the value of step res of iterator it, or jump to the target when done.
    IterValue(Reg, Reg, Reg, u32),
    /// Close iterator it (call `return` of user iterators on an abrupt exit).
    IterClose(Reg),
    /// dst ← an iterator over the enumerable string keys of src (`for…in`).
    ForInKeys(Reg, Reg),
    /// The arguments object of the frame.
    Arguments(Reg),
    /// dst ← the template object of tagged-template site `u32` of this program (§13.2.8.4
    /// GetTemplateObject: one frozen array of cooked strings with a frozen `raw` array, the
    /// same object every time the site is evaluated in a run).
    Template(Reg, u32),
    /// An array of the arguments from index `u16` on (rest parameter).
    Rest(Reg, u16),
    /// End the program body with the value of its trailing expression statement.
    Completion(Reg),
    /// The end of a body without `return` (the program: no value, NoReturn).
    End,
    /// dst ← the function object of the running frame (a named function expression's name).
    Callee(Reg),
    /// dst ← `super[key]` looked up from the prototype of the home object, getters called
    /// with `this`: dst, home, key, this.
    GetSuper(Reg, Reg, Reg, Reg),
    /// `super[key] = v` (from the home object's prototype, on `this`): home, key, v, this.
    SetSuper(Reg, Reg, Reg, Reg),
    /// dst ← a fresh private name (a per-evaluation identity) described by constant `u32`
    /// (`#x`): one per private name each time a class is evaluated.
    NewPrivateName(Reg, u32),
    /// dst ← `obj.#x`: dst, obj, private name; `u32`: the class name constant when `#x` is a
    /// method or accessor (for the brand-check message), `u32::MAX` for a field.
    GetPrivate(Reg, Reg, Reg, u32),
    /// `obj.#x = v`: obj, private name, v, as [`Op::GetPrivate`].
    SetPrivate(Reg, Reg, Reg, u32),
    /// Add a private element to obj: obj, name, value, kind (0 field, 1 method, 2 getter,
    /// 3 setter); a field or method already there is a TypeError (`u32`: the class name).
    DefinePrivate(Reg, Reg, Reg, u8, u32),
    /// dst ← `#x in obj`: dst, obj, name.
    HasPrivate(Reg, Reg, Reg),
    /// dst ← ToPropertyKey(src) (a string or symbol): computed class keys, evaluated once.
    ToPropertyKey(Reg, Reg),
    /// dst ← `new.target` of the running frame (undefined in a plain call).
    NewTarget(Reg),
    /// dst ← the module named by the string in src, as the mode wants it
    /// (`builtins/modules.rs`: the module, its namespace, or a promise of the namespace).
    Import(Reg, Reg, u8),
    /// dst ← member (string constant) of the module in src (`import { member } from ...`);
    /// V8's SyntaxError when the module lacks it. The third operand is the specifier's
    /// string constant, for the message.
    ImportName(Reg, Reg, u32, u32),
    /// `class C extends parent`: ctor, proto, parent. Checks the parent (a constructor or
    /// null, with an object or null `prototype`) and links C and C.prototype to it.
    Extends(Reg, Reg, Reg),
    /// `super(...)` in a derived constructor: dst, env, first argument, count. env holds the
    /// active constructor and env+1 `new.target`; the parent is the constructor's
    /// [[Prototype]], constructed with that new.target; dst gets the new `this`.
    SuperConstruct(Reg, Reg, Reg, u16),
    /// `super(...args)` with spread: dst, env, arguments array.
    SuperConstructSpread(Reg, Reg, Reg),
    /// After `super(...)`: a `this` already bound (reg not Empty) is a ReferenceError.
    CheckThisUnbound(Reg),
    /// Return from a derived constructor: value, this. An object is returned, undefined
    /// gives `this` (a ReferenceError while unbound), anything else is a TypeError.
    ReturnDerived(Reg, Reg),
    /// object or null; any other value is ignored (ECMA-262 13.2.5.5).
    LiteralProto(Reg, Reg),
    /// "set " (c = 2) (SetFunctionName, ECMA-262 10.2.9).
    NameFromKey(Reg, Reg, u8),
    /// The first instruction of an async function: the frame becomes a coroutine with a
    /// promise (ECMA-262 §27.7.5.1 AsyncFunctionStart); the caller receives the promise when
    /// the body first awaits or ends.
    AsyncStart,
    /// After a generator's parameters are bound: make the generator object (an async one
    /// with `true`), suspend the frame in it and return it (§27.5.3.1 GeneratorStart); the
    /// body runs from the next instruction at the first `next()`.
    GenStart(bool),
    /// `dst ← await v` (§27.7.5.3 Await): suspend the coroutine until the promise of `v`
    /// settles; resumed, the instruction runs again and delivers the value or throws.
    Await(Reg, Reg),
    /// `dst ← yield v` (§27.5.3.7 GeneratorYield): suspend with `v`. Resumed, dst gets the
    /// value sent and dst+1 `true` when it is a `return(value)` (the code after it returns).
    /// In an async generator `v` was awaited first, and the yield settles the request at the
    /// head of the generator's queue (§27.6.3.8 AsyncGeneratorYield).
    Yield(Reg, Reg),
    /// `yield*` (§15.5.5): res ← the inner iterator's `next`, `throw` or `return` (by the mode
    /// in r+1: 0, 1, 2) called with the received value in r; Empty when `return` is missing.
    Delegate(Reg, Reg, Reg),
    /// `yield*`: when inner result res is done, dst ← its value (or the received value when
    /// res is Empty) and jump to the target, r+1 left 2 only for a return; args dst, res, r.
    DelegateResult(Reg, Reg, Reg, u32),
    /// `yield*`: yield the inner result res as it is; resumed, r gets the value sent and r+1
    /// the mode (0 next, 1 throw, 2 return).
    YieldDelegate(Reg, Reg),
    /// dst ← the async iterator of src for `for await` (its `Symbol.asyncIterator`, else its
    /// sync iterator wrapped: §7.4.3 GetIterator async, §27.1.6 CreateAsyncFromSyncIterator).
    AsyncIter(Reg, Reg),
}

/// The error constructors instructions throw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum ErrorType {
    TypeError,
    RangeError,
    ReferenceError,
    SyntaxError,
}

/// A compiled function.
#[derive(Clone, Debug, Default)]
pub struct FuncProto {
    /// Its name (`""` for anonymous ones), for `name` and messages.
    pub name: String,
    /// Declared parameters before any default or rest (`length`).
    pub length: u16,
    /// Parameters copied into registers 1..=nparams at a call.
    pub nparams: u16,
    /// Registers the frame needs (register 0 is `this`).
    pub nregs: u16,
    /// Own cells the frame starts with.
    pub ncells: u16,
    /// Where the closure's captured cells come from.
    pub captures: Vec<Capture>,
    /// An arrow (lexical `this`, not constructible).
    pub arrow: bool,
    /// A `function` (constructible, has `prototype`), not a method or arrow.
    pub constructible: bool,
    /// A class constructor: calling it without `new` is a TypeError.
    pub class_ctor: bool,
    /// The constructor of a class with `extends`: `new` does not make its `this`.
    pub derived: bool,
    /// The body reads its arguments as passed (`arguments`, a rest parameter): a call keeps
    /// them in the frame; other calls copy them straight into the parameter registers.
    pub uses_args: bool,
    /// An async function (or async generator).
    pub is_async: bool,
    /// A generator (or async generator).
    pub generator: bool,
    /// The instructions.
    pub code: Vec<Op>,
    /// The source byte offset of each instruction.
    pub offsets: Vec<u32>,
    /// For call and `new` instructions: (instruction index, string constant of the callee's
    /// source text), ascending, for "x is not a function" messages.
    pub callee_text: Vec<(u32, u32)>,
    /// For property reads: (instruction index, string constant of the object expression's
    /// source text), ascending, for the hints of reads of `undefined` (`hints.rs`).
    pub object_text: Vec<(u32, u32)>,
}

/// One tagged-template site: its strings as string-pool indices.
#[derive(Clone, Debug, Default)]
pub struct TemplateSite {
    /// The cooked strings (None: an invalid escape, `undefined` in the array).
    pub cooked: Vec<Option<u32>>,
    /// The raw strings (source text with line terminators normalised to `\n`).
    pub raw: Vec<u32>,
}

/// Everything a compiled program holds. Shared by every run of it.
#[derive(Debug, Default)]
pub struct ProgramData {
    /// Functions; index 0 is the program's body.
    pub funcs: Vec<FuncProto>,
    /// The string constant pool.
    pub strings: Vec<JsStr>,
    /// The tagged-template sites, indexed by [`Op::Template`].
    pub templates: Vec<TemplateSite>,
    /// The source text (for locations).
    pub source: Arc<str>,
    /// The source's line and column index, for locations in O(log n).
    pub lines: crate::scan::LineTable,
    /// The standard library's own program (`prelude.js`): its functions are not
    /// constructors, and error locations name the program's frame that called into it.
    pub builtin: bool,
}
