//! AST → register bytecode, in the manner of PUC Lua's `lcode.c`/`lparser.c`.
//!
//! Locals live in registers (local number n is register n of its function), upvalues are slots
//! captured through open/closed cells, constants are deduplicated per prototype. Conditions
//! compile to test + jump pairs. Every instruction records the source position of the construct
//! it implements, for error messages.
//!
//! Compile-time errors (`goto` rules, `<const>` assignment, register limits) are
//! [`ErrorKind::ParseError`] with a location.
//!
//! This file holds the entry points, the per-function state, instruction emission and the
//! constant table; `scope.rs` blocks, locals, name resolution, `goto` and labels; `stmt.rs`
//! statements; `expr.rs` expressions into registers; `cond.rs` conditions and comparisons
//! compiled to jumps.

use std::collections::HashMap;

use crate::ast::{Block, Expr, ExprKind, Pos};
use crate::heap::alloc_bytes;
use crate::limits;
use crate::parser::{CompileMeter, compile_memory_error, push_growth_bytes};
use crate::proto::{Const, Op, ProgramData, Proto};
use crate::{ErrorKind, GuestError, Location};

mod cond;
mod expr;
mod scope;
mod stmt;

type CResult<T> = Result<T, GuestError>;

fn cerr(pos: Pos, msg: impl Into<String>) -> GuestError {
    GuestError {
        kind: ErrorKind::ParseError,
        message: msg.into(),
        location: Some(Location {
            line: pos.line,
            column: pos.column,
        }),
        suggestions: Vec::new(),
    }
}

/// Nesting depth the compiler handles on the caller's stack; deeper programs (the parser allows
/// up to `parser::MAX_SYNTAX_DEPTH`) are compiled again on a helper thread with a large stack.
const INLINE_DEPTH: u32 = 24;

/// Stack size of the helper thread for deeply nested programs.
const DEEP_STACK_BYTES: usize = 256 * 1024 * 1024;

/// Compile a parsed chunk into a program (prototype 0 is the main chunk, a vararg function).
pub fn compile_chunk(block: &Block) -> CResult<ProgramData> {
    compile_chunk_metered(block, &CompileMeter::new(usize::MAX))
}

/// Like [`compile_chunk`], charging the compiler's state and the bytecode to a copy of `meter`
/// (which holds what the syntax tree was charged). Errors: as [`compile_chunk`], and
/// `parser::compile_memory_error` when the compiler would exceed the meter's budget.
pub(crate) fn compile_chunk_metered(block: &Block, meter: &CompileMeter) -> CResult<ProgramData> {
    match compile_with_limit(block, INLINE_DEPTH, meter) {
        Err(e) if e.message == TOO_DEEP => std::thread::scope(|s| {
            std::thread::Builder::new()
                .stack_size(DEEP_STACK_BYTES)
                .spawn_scoped(s, || compile_with_limit(block, u32::MAX, meter))
                .map_err(|_| {
                    cerr(
                        Pos::default(),
                        "cannot compile: no thread for a deeply nested program",
                    )
                })?
                .join()
                .unwrap_or_else(|_| Err(cerr(Pos::default(), "internal error while compiling")))
        }),
        r => r,
    }
}

const TOO_DEEP: &str = "\u{0}too deep";

fn compile_with_limit(block: &Block, max_depth: u32, meter: &CompileMeter) -> CResult<ProgramData> {
    let mut c = Compiler {
        fs: Vec::new(),
        protos: Vec::new(),
        depth: 0,
        max_depth,
        upval_overflow: false,
        meter: meter.clone(),
        over: false,
        last_pos: Pos::default(),
        foreign: Vec::new(),
        foreign_written: 0,
        foreign_field: None,
    };
    c.use_bytes(push_growth_bytes(&c.protos));
    c.protos.push(None);
    c.open_function(true, 0, 0);
    c.block(block)?;
    c.emit(Op::Return { a: 0, b: 1 }, Pos::default());
    let p = c.close_function()?;
    c.check_meter()?;
    c.protos[0] = Some(p);
    let mut protos: Vec<Proto> = c
        .protos
        .into_iter()
        .map(|p| p.unwrap_or_default())
        .collect();
    let gmatch_iter = protos.len() as u32;
    protos.push(Proto::gmatch_iterator());
    let mut off = 0u32;
    for p in &mut protos {
        p.k_offset = off;
        off += p.consts.len() as u32;
    }
    let written = c.foreign_written;
    let foreign = c
        .foreign
        .into_iter()
        .filter(|r| written & (1 << r.name) == 0)
        .collect();
    let mut data = ProgramData {
        protos,
        num_consts: off as usize,
        retained_bytes: 0,
        foreign,
        gmatch_iter,
    };
    data.retained_bytes = data.measure_bytes();
    Ok(data)
}

#[derive(Clone, Debug)]
struct VarDesc {
    name: Box<str>,
    is_const: bool,
    block: usize,
    locvar: usize,
}

#[derive(Clone, Debug)]
struct BlockScope {
    nactvar: usize,
    is_loop: bool,
    breaks: Vec<usize>,
    /// Some local of this block is captured by a closure.
    upval: bool,
    /// Some local of this block or a nested block is captured.
    upval_any: bool,
    first_label: usize,
    /// Gotos of this block (and of closed blocks inside it) still waiting for a label, by label
    /// name in creation order. A label resolves only its own block's list; leaving the block
    /// moves the list to the parent (each goto moves at most `MAX_SYNTAX_DEPTH` times), so
    /// resolution stays linear in the number of gotos.
    gotos: HashMap<Box<str>, Vec<Goto>>,
}

#[derive(Clone, Debug)]
struct Label {
    name: Box<str>,
    pc: usize,
    nactvar: usize,
    line: u32,
}

#[derive(Clone, Debug)]
struct Goto {
    name: Box<str>,
    close_pc: usize,
    jmp_pc: usize,
    nactvar: usize,
    line: u32,
    pos: Pos,
    /// Creation order (the first unresolved goto is reported).
    seq: usize,
}

#[derive(Hash, PartialEq, Eq)]
enum KKey {
    Int(i64),
    Float(u64),
    Str(Box<[u8]>),
}

struct FuncState {
    proto: Proto,
    actvars: Vec<VarDesc>,
    blocks: Vec<BlockScope>,
    free_reg: usize,
    max_reg: usize,
    upval_const: Vec<bool>,
    labels: Vec<Label>,
    /// Index in `labels` of each visible label by name (names are unique among visible labels).
    label_index: HashMap<Box<str>, usize>,
    /// Gotos left unresolved when the function's outermost block closed.
    unresolved: Vec<Goto>,
    /// Gotos created so far (numbers [`Goto::seq`]).
    goto_count: usize,
    kcache: HashMap<KKey, u32>,
}

enum Var {
    Local(u8),
    Upval(u8),
    Global,
}

struct Compiler {
    fs: Vec<FuncState>,
    protos: Vec<Option<Proto>>,
    /// Current recursion depth (statements, expressions, functions).
    depth: u32,
    max_depth: u32,
    /// Set when a function needed more than `limits::MAX_UPVALUES` upvalues; the next use of a
    /// name (which knows its position) reports it.
    upval_overflow: bool,
    /// What the tree and the compiler's allocations have been charged (see
    /// [`Compiler::use_bytes`]).
    meter: CompileMeter,
    /// The meter went over its budget; the next [`Compiler::enter`] reports it.
    over: bool,
    /// Position of the last instruction emitted (where a memory error is reported).
    last_pos: Pos,
    /// First read of each name of [`crate::proto::FOREIGN_GLOBALS`] as a global, in source order.
    foreign: Vec<crate::proto::ForeignRead>,
    /// Bit `i` set: the program may define the global `FOREIGN_GLOBALS[i]` itself (it assigns
    /// it, or tests whether it exists: see [`Compiler::note_foreign_guard`]), so its reads are
    /// ordinary. All set when the program reads `_G` (it may define any global through it).
    foreign_written: u8,
    /// The constant field of the expression being compiled when it is `name.field`.
    foreign_field: Option<Box<str>>,
}

impl Compiler {
    // ------------------------------------------------------------------------------------------
    // Function state
    // ------------------------------------------------------------------------------------------

    /// Charge `n` bytes the compiler allocates. Going over the budget is remembered and
    /// reported by the next [`Compiler::enter`] (once per statement and sub-expression), so
    /// that instruction emission stays infallible; between two checks only a bounded number
    /// of bytes are allocated.
    #[inline]
    fn use_bytes(&mut self, n: usize) {
        self.meter.used = self.meter.used.saturating_add(n);
        if self.meter.used > self.meter.cap {
            self.over = true;
        }
    }

    /// Remember the first read of a global named like a JavaScript global (`await`, `JSON`,
    /// ...; see [`crate::proto::FOREIGN_GLOBALS`]), with its field when read as `name.field`.
    fn note_foreign_read(&mut self, name: &str, pos: Pos) {
        let field = self.foreign_field.take();
        if let Some(i) = crate::proto::foreign_index(name)
            && !self.foreign.iter().any(|r| r.name == i)
        {
            self.foreign.push(crate::proto::ForeignRead {
                name: i,
                field,
                pos,
            });
        }
    }

    /// A read of a foreign global that only tests whether it exists (`if JSON then`,
    /// `console and console.log`, `JSON ~= nil`, `type(JSON)`) is a correct program's guard,
    /// not a slip: mark `e`'s name as defined when `e` is such a global.
    pub(super) fn note_foreign_guard(&mut self, e: &crate::ast::Expr) {
        let mut e = e;
        while let crate::ast::ExprKind::Paren(x) = &e.kind {
            e = x;
        }
        if let crate::ast::ExprKind::Name(n) = &e.kind
            && let Some(i) = crate::proto::foreign_index(n)
            && self.is_global_name(n)
        {
            self.foreign_written |= 1 << i;
        }
    }

    /// `name` is no local or upvalue of any enclosing function (so it reads a global); unlike
    /// resolving it, this creates no upvalue.
    fn is_global_name(&self, name: &str) -> bool {
        !self.fs.iter().any(|f| {
            f.actvars.iter().any(|v| &*v.name == name)
                || f.proto.upvals.iter().any(|u| &*u.name == name)
        })
    }

    /// The memory error if the meter went over its budget.
    fn check_meter(&self) -> CResult<()> {
        if self.over {
            return Err(compile_memory_error(self.meter.cap, self.last_pos));
        }
        Ok(())
    }

    fn open_function(&mut self, is_vararg: bool, nparams: u8, line: u32) {
        self.use_bytes(push_growth_bytes(&self.fs));
        let proto = Proto {
            is_vararg,
            num_params: nparams,
            line,
            ..Default::default()
        };
        self.fs.push(FuncState {
            proto,
            actvars: Vec::new(),
            blocks: Vec::new(),
            free_reg: 0,
            max_reg: 0,
            upval_const: Vec::new(),
            labels: Vec::new(),
            label_index: HashMap::new(),
            unresolved: Vec::new(),
            goto_count: 0,
            kcache: HashMap::new(),
        });
        self.enter_block(false);
    }

    fn close_function(&mut self) -> CResult<Proto> {
        self.leave_block()?;
        let fs = self.fs.pop().expect("function state");
        if let Some(g) = fs.unresolved.iter().min_by_key(|g| g.seq) {
            return Err(cerr(
                g.pos,
                format!("no visible label '{}' for goto at line {}", g.name, g.line),
            ));
        }
        let mut p = fs.proto;
        p.max_stack = (fs.max_reg + 4).min(255) as u8;
        // Held by every execution of the program (and charged to it): no spare capacity.
        p.code.shrink_to_fit();
        p.pos.shrink_to_fit();
        p.consts.shrink_to_fit();
        p.protos.shrink_to_fit();
        p.upvals.shrink_to_fit();
        p.locvars.shrink_to_fit();
        Ok(p)
    }

    #[inline]
    fn f(&mut self) -> &mut FuncState {
        self.fs.last_mut().expect("function state")
    }
    #[inline]
    fn fr(&self) -> &FuncState {
        self.fs.last().expect("function state")
    }

    fn pc(&self) -> usize {
        self.fr().proto.code.len()
    }

    fn emit(&mut self, op: Op, pos: Pos) -> usize {
        let f = self.fr();
        let n = push_growth_bytes(&f.proto.code) + push_growth_bytes(&f.proto.pos);
        self.use_bytes(n);
        self.last_pos = pos;
        let f = self.f();
        f.proto.code.push(op);
        f.proto.pos.push(pos);
        f.proto.code.len() - 1
    }

    fn emit_jmp(&mut self, pos: Pos) -> usize {
        self.emit(Op::Jmp { off: 0 }, pos)
    }

    fn patch_jmp(&mut self, jmp: usize, target: usize) {
        let off = target as i64 - (jmp as i64 + 1);
        self.f().proto.code[jmp] = Op::Jmp { off: off as i32 };
    }

    fn patch_here(&mut self, jmps: &[usize]) {
        let here = self.pc();
        for &j in jmps {
            self.patch_jmp(j, here);
        }
    }

    fn reserve(&mut self, n: usize, pos: Pos) -> CResult<u8> {
        let f = self.f();
        let r = f.free_reg;
        f.free_reg += n;
        if f.free_reg > f.max_reg {
            f.max_reg = f.free_reg;
        }
        if f.free_reg > limits::MAX_REGISTERS {
            return Err(cerr(
                pos,
                format!(
                    "function or expression needs too many registers (limit {}); split it into smaller functions or tables",
                    limits::MAX_REGISTERS
                ),
            ));
        }
        Ok(r as u8)
    }

    fn set_free(&mut self, r: usize) {
        self.f().free_reg = r;
    }
    fn free(&self) -> usize {
        self.fr().free_reg
    }

    fn k(&mut self, key: KKey, c: Const) -> u32 {
        let f = self.f();
        if let Some(&i) = f.kcache.get(&key) {
            return i;
        }
        // The constant, its key in the cache (a string is copied into both), and a share of
        // the cache's table.
        let mut n =
            push_growth_bytes(&f.proto.consts) + 2 * (std::mem::size_of::<(KKey, u32)>() + 1);
        if let Const::Str(b) = &c {
            n += 2 * alloc_bytes(b.len());
        }
        let i = f.proto.consts.len() as u32;
        f.proto.consts.push(c);
        f.kcache.insert(key, i);
        self.use_bytes(n);
        i
    }
    fn k_str(&mut self, s: &[u8]) -> u32 {
        self.k(KKey::Str(s.into()), Const::Str(s.into()))
    }
    fn k_int(&mut self, i: i64) -> u32 {
        self.k(KKey::Int(i), Const::Int(i))
    }
    fn k_float(&mut self, f: f64) -> u32 {
        self.k(KKey::Float(f.to_bits()), Const::Float(f))
    }

    /// A numeric constant usable as a 16-bit K operand.
    fn num_k16(&mut self, e: &Expr) -> Option<u16> {
        let k = match e.kind {
            ExprKind::Int(i) => self.k_int(i),
            ExprKind::Float(f) => self.k_float(f),
            _ => return None,
        };
        u16::try_from(k).ok()
    }

    /// A constant usable by EqK.
    fn eq_k(&mut self, e: &Expr) -> Option<u32> {
        match &e.kind {
            ExprKind::Int(i) => Some(self.k_int(*i)),
            ExprKind::Float(f) => Some(self.k_float(*f)),
            ExprKind::Str(s) => Some(self.k_str(s)),
            _ => None,
        }
    }
}
