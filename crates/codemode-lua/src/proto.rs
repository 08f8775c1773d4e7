//! Compiled function prototypes and the instruction set of the register VM.
//!
//! Instructions are a compact `Copy` enum ([`Op`], 8 bytes). Operands named `a`, `b`, `c` are
//! registers relative to the frame base (8-bit), `k` indexes the prototype's constants, jumps are
//! signed offsets relative to the next instruction. Conditional tests follow PUC Lua 5.4: a test
//! instruction skips the next instruction (always a `Jmp`) when its condition does not hold.

use crate::ast::Pos;

/// Arithmetic and bitwise binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
    IDiv,
    BAnd,
    BOr,
    BXor,
    Shl,
    Shr,
}

impl ArithOp {
    pub fn is_bitwise(self) -> bool {
        matches!(
            self,
            ArithOp::BAnd | ArithOp::BOr | ArithOp::BXor | ArithOp::Shl | ArithOp::Shr
        )
    }
}

/// One VM instruction.
// `SelfOp` is Lua's OP_SELF (`Self` is a Rust keyword).
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `R[a] = R[b]`
    Move {
        a: u8,
        b: u8,
    },
    /// `R[a] = K[k]`
    LoadK {
        a: u8,
        k: u32,
    },
    /// `R[a] = integer i`
    LoadInt {
        a: u8,
        i: i32,
    },
    /// `R[a..=a+n] = nil`
    LoadNil {
        a: u8,
        n: u8,
    },
    /// `R[a] = v`
    LoadBool {
        a: u8,
        v: bool,
    },
    /// `R[a] = Up[u]`
    GetUpval {
        a: u8,
        u: u8,
    },
    /// `Up[u] = R[a]`
    SetUpval {
        a: u8,
        u: u8,
    },
    /// `R[a] = globals[K[k]]`
    GetGlobal {
        a: u8,
        k: u32,
    },
    /// `globals[K[k]] = R[a]`
    SetGlobal {
        a: u8,
        k: u32,
    },
    /// `R[a] = R[t][R[key]]`
    GetTable {
        a: u8,
        t: u8,
        key: u8,
    },
    /// `R[a] = R[t][K[k]] (K[k] a string)`
    GetField {
        a: u8,
        t: u8,
        k: u32,
    },
    /// `R[t][R[key]] = R[v]`
    SetTable {
        t: u8,
        key: u8,
        v: u8,
    },
    /// `R[t][K[k]] = R[v]`
    SetField {
        t: u8,
        k: u32,
        v: u8,
    },
    /// `R[a] = {} with size hints`
    NewTable {
        a: u8,
        narr: u16,
        nhash: u16,
    },
    /// `R[a][start+i] = R[a+i] for i in 1..=n (n == 0: up to top)`
    SetList {
        a: u8,
        n: u8,
        start: u32,
    },
    /// `R[a+1] = R[b]; R[a] = R[b][K[k]]`
    SelfOp {
        a: u8,
        b: u8,
        k: u32,
    },
    /// `R[a] = R[b] + R[c] (fast path)`
    Add {
        a: u8,
        b: u8,
        c: u8,
    },
    /// `R[a] = R[b] - R[c]`
    Sub {
        a: u8,
        b: u8,
        c: u8,
    },
    /// `R[a] = R[b] + i` (`sub`: written as `R[b] - (-i)`, for error messages)
    AddI {
        a: u8,
        b: u8,
        i: i16,
        sub: bool,
    },
    /// `R[a] = R[b] op R[c]`
    Arith {
        op: ArithOp,
        a: u8,
        b: u8,
        c: u8,
    },
    /// `R[a] = R[b] op K[k]`
    ArithK {
        op: ArithOp,
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = R[b] * i` (an integer literal that fits 16 bits, like [`Op::AddI`])
    MulI {
        a: u8,
        b: u8,
        i: i16,
    },
    /// `R[a] = R[b] / i` (integer literal)
    DivI {
        a: u8,
        b: u8,
        i: i16,
    },
    /// `R[a] = R[b] % i` (integer literal)
    ModI {
        a: u8,
        b: u8,
        i: i16,
    },
    /// `R[a] = R[b] // i` (integer literal)
    IDivI {
        a: u8,
        b: u8,
        i: i16,
    },
    /// `R[a] = R[b] + K[k]` (a numeric constant; [`Op::ArithK`] specialised, as Lua 5.4's
    /// OP_ADDK: one dispatch, no second one on the operator)
    AddK {
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = R[b] - K[k]` (numeric constant)
    SubK {
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = R[b] * K[k]` (numeric constant)
    MulK {
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = R[b] / K[k]` (numeric constant)
    DivK {
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = R[b] % K[k]` (numeric constant)
    ModK {
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = R[b] // K[k]` (numeric constant)
    IDivK {
        a: u8,
        b: u8,
        k: u16,
    },
    /// `R[a] = K[k] op R[c]`
    ArithKR {
        op: ArithOp,
        a: u8,
        k: u16,
        c: u8,
    },
    Unm {
        a: u8,
        b: u8,
    },
    Not {
        a: u8,
        b: u8,
    },
    Len {
        a: u8,
        b: u8,
    },
    BNot {
        a: u8,
        b: u8,
    },
    /// `R[a] = R[b] .. ... .. R[b+n-1]`
    Concat {
        a: u8,
        b: u8,
        n: u8,
    },
    /// pc += off
    Jmp {
        off: i32,
    },
    /// `if (R[a] == R[b]) != k then pc++`
    Eq {
        a: u8,
        b: u8,
        k: bool,
    },
    /// `if (R[a] == K[kc]) != k then pc++`
    EqK {
        a: u8,
        kc: u32,
        k: bool,
    },
    /// `if (R[a] < R[b]) != k then pc++`
    Lt {
        a: u8,
        b: u8,
        k: bool,
    },
    /// `if (R[a] <= R[b]) != k then pc++`
    Le {
        a: u8,
        b: u8,
        k: bool,
    },
    /// `if (R[a] < K[kc]) != k then pc++ (numeric constant)`
    LtK {
        a: u8,
        kc: u16,
        k: bool,
    },
    /// `if (R[a] <= K[kc]) != k then pc++`
    LeK {
        a: u8,
        kc: u16,
        k: bool,
    },
    /// `if (R[a] > K[kc]) != k then pc++`
    GtK {
        a: u8,
        kc: u16,
        k: bool,
    },
    /// `if (R[a] >= K[kc]) != k then pc++`
    GeK {
        a: u8,
        kc: u16,
        k: bool,
    },
    /// `if truthy(R[a]) != k then pc++`
    Test {
        a: u8,
        k: bool,
    },
    /// `if truthy(R[b]) == k then R[a] = R[b] else pc++`
    TestSet {
        a: u8,
        b: u8,
        k: bool,
    },
    /// `R[a], ..., R[a+c-2] = R[a](R[a+1], ..., R[a+b-1]); b == 0: args up to top;`
    /// c == 0: all results (sets top)
    Call {
        a: u8,
        b: u8,
        c: u8,
    },
    /// `return R[a](...) (b as in Call)`
    TailCall {
        a: u8,
        b: u8,
    },
    /// `return R[a], ..., R[a+b-2]; b == 0: up to top`
    Return {
        a: u8,
        b: u8,
    },
    /// `Numeric for: prepare R[a] (init), R[a+1] (limit / count), R[a+2] (step); R[a+3] = var.`
    /// Skips the loop (pc += jmp + 1) when it does not run.
    ForPrep {
        a: u8,
        jmp: u32,
    },
    /// Numeric for step; jumps back by `jmp` while the loop continues.
    ForLoop {
        a: u8,
        jmp: u32,
    },
    /// `R[a+3], ..., R[a+2+c] = R[a](R[a+1], R[a+2])`
    TForCall {
        a: u8,
        c: u8,
    },
    /// `if R[a+3] ~= nil then { R[a+2] = R[a+3]; pc -= jmp }`
    TForLoop {
        a: u8,
        jmp: u32,
    },
    /// `R[a] = closure(protos[p])`
    Closure {
        a: u8,
        p: u32,
    },
    /// `R[a], ..., R[a+c-2] = vararg (c == 0: all, sets top)`
    Vararg {
        a: u8,
        c: u8,
    },
    /// `close upvalues >= R[a]`
    Close {
        a: u8,
    },
}

/// A constant of a prototype.
#[derive(Clone, Debug, PartialEq)]
pub enum Const {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A byte string.
    Str(Box<[u8]>),
}

/// How a closure captures upvalue `i`: from the enclosing function's register or upvalue.
#[derive(Clone, Debug, PartialEq)]
pub struct UpvalDesc {
    /// True: the enclosing function's register `idx`; false: its upvalue `idx`.
    pub in_stack: bool,
    /// Register or upvalue index in the enclosing function.
    pub idx: u8,
    /// The variable's name.
    pub name: Box<str>,
}

/// Debug information about a local variable: register `reg` holds `name` for pcs in
/// `start_pc..end_pc`.
#[derive(Clone, Debug, PartialEq)]
pub struct LocVar {
    /// The variable's name.
    pub name: Box<str>,
    /// The register that holds it.
    pub reg: u8,
    /// First instruction where it is in scope.
    pub start_pc: u32,
    /// First instruction past its scope.
    pub end_pc: u32,
}

/// A compiled function.
#[derive(Clone, Debug, Default)]
pub struct Proto {
    /// The instructions.
    pub code: Vec<Op>,
    /// Source position per instruction (parallel to `code`).
    pub pos: Vec<Pos>,
    /// The constants, indexed by the `k` operands.
    pub consts: Vec<Const>,
    /// Indices of nested prototypes in the program's flat prototype list.
    pub protos: Vec<u32>,
    /// How each upvalue is captured when a closure of this prototype is made.
    pub upvals: Vec<UpvalDesc>,
    /// Number of fixed parameters.
    pub num_params: u8,
    /// Declared with `...`.
    pub is_vararg: bool,
    /// Registers needed by a frame.
    pub max_stack: u8,
    /// Local variables with their scopes (debug information).
    pub locvars: Vec<LocVar>,
    /// Offset of this prototype's constants in the machine's flat constant vector.
    pub k_offset: u32,
    /// Line where the function is defined (0 for the main chunk).
    pub line: u32,
}

/// A compiled program: prototypes in a flat list, index 0 is the main chunk.
#[derive(Debug, Default)]
pub struct ProgramData {
    /// All prototypes; index 0 is the main chunk.
    pub protos: Vec<Proto>,
    /// Total constants (sum over prototypes).
    pub num_consts: usize,
    /// Bytes the program occupies while an execution runs it ([`ProgramData::measure_bytes`]
    /// at compile time): charged to each execution's memory budget when its machine starts.
    pub retained_bytes: usize,
    /// Reads of globals named like JavaScript globals that the program never assigns, first
    /// read of each name, in source order (at most one per `FOREIGN_GLOBALS` entry). A
    /// machine refuses to start on one that is not an extension of its host.
    pub foreign: Vec<ForeignRead>,
    /// Index in `protos` of the iterator `string.gmatch` returns (`Proto::gmatch_iterator`,
    /// appended after the program's own prototypes).
    pub gmatch_iter: u32,
}

impl Proto {
    /// The prototype of the iterator closure `string.gmatch` returns: two upvalues, the
    /// `gmatch` native and its state table. The VM never runs its code: a call of such a
    /// closure (`Vm::precall`) becomes a call of the native with the state, so `it()` works as
    /// in Lua and errors point at the caller's line. Vararg, so the VM's inline call path
    /// leaves it to `precall`.
    pub(crate) fn gmatch_iterator() -> Proto {
        let up = |name: &str| UpvalDesc {
            in_stack: false,
            idx: 0,
            name: name.into(),
        };
        Proto {
            code: vec![Op::Return { a: 0, b: 1 }],
            pos: vec![Pos::default()],
            upvals: vec![up("gmatch"), up("state")],
            is_vararg: true,
            max_stack: 2,
            ..Default::default()
        }
    }
}

/// Globals a model writing JavaScript habits reaches for; Lua has none of them.
pub(crate) const FOREIGN_GLOBALS: [&str; 6] =
    ["await", "null", "undefined", "console", "JSON", "Object"];

/// Index of `name` in [`FOREIGN_GLOBALS`].
pub(crate) fn foreign_index(name: &str) -> Option<u8> {
    FOREIGN_GLOBALS
        .iter()
        .position(|n| *n == name)
        .map(|i| i as u8)
}

/// A read of the global `FOREIGN_GLOBALS[name]`, as `name.field` when `field` is set.
#[derive(Clone, Debug)]
pub struct ForeignRead {
    /// Index in [`FOREIGN_GLOBALS`].
    pub name: u8,
    /// The constant field read from it (`JSON.parse` → `parse`).
    pub field: Option<Box<str>>,
    /// Where the name is read.
    pub pos: Pos,
}

impl ForeignRead {
    /// The global's name.
    pub fn global(&self) -> &'static str {
        FOREIGN_GLOBALS[self.name as usize]
    }

    /// What a model reads: the name is not defined, and what Lua has instead.
    pub fn message(&self) -> String {
        let name = self.global();
        let field = self.field.as_deref();
        let instead = match (name, field) {
            ("await", _) => "Lua has no await: a tool call returns its value directly; write \
                             `local res = tools.ns.tool({ ... })`"
                .to_string(),
            ("null", _) => "Lua has no null: use nil (a JSON null reads as nil)".to_string(),
            ("undefined", _) => "Lua has no undefined: use nil".to_string(),
            ("console", _) => "use print(...) to log".to_string(),
            ("JSON", Some("parse")) => "use json.decode(text)".to_string(),
            ("JSON", Some("stringify")) => "use json.encode(value)".to_string(),
            ("JSON", _) => "use the json library: json.encode(value), json.decode(text)".into(),
            ("Object", Some(f @ ("keys" | "values" | "entries"))) => {
                format!("Lua has no Object.{f}: loop with `for k, v in pairs(t) do ... end`")
            }
            ("Object", Some("assign")) => {
                "Lua has no Object.assign: copy with `for k, v in pairs(src) do dst[k] = v end`"
                    .to_string()
            }
            _ => "Lua tables have no Object helpers: loop with `for k, v in pairs(t) do ... end`"
                .to_string(),
        };
        format!("'{name}' is not defined: {instead}")
    }
}

impl ProgramData {
    /// Bytes held by the prototypes: code, positions, constants (with their string bytes),
    /// upvalue and local descriptions with their names, rounded like `heap::alloc_bytes`.
    pub fn measure_bytes(&self) -> usize {
        use crate::heap::alloc_bytes;
        use std::mem::size_of;
        fn vec<T>(v: &[T], cap: usize) -> usize {
            let _ = v;
            alloc_bytes(cap * size_of::<T>())
        }
        let mut n = vec(&self.protos, self.protos.capacity());
        for p in &self.protos {
            n += vec(&p.code, p.code.capacity())
                + vec(&p.pos, p.pos.capacity())
                + vec(&p.consts, p.consts.capacity())
                + vec(&p.protos, p.protos.capacity())
                + vec(&p.upvals, p.upvals.capacity())
                + vec(&p.locvars, p.locvars.capacity());
            for k in &p.consts {
                if let Const::Str(b) = k {
                    n += alloc_bytes(b.len());
                }
            }
            n += p
                .upvals
                .iter()
                .map(|u| alloc_bytes(u.name.len()))
                .sum::<usize>();
            n += p
                .locvars
                .iter()
                .map(|l| alloc_bytes(l.name.len()))
                .sum::<usize>();
        }
        n
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn op_is_8_bytes() {
        assert_eq!(std::mem::size_of::<super::Op>(), 8);
    }
}
