//! AST → register bytecode, in the manner of PUC Lua's `lcode.c`/`lparser.c`.
//!
//! Locals live in registers (local number n is register n of its function), upvalues are slots
//! captured through open/closed cells, constants are deduplicated per prototype. Conditions
//! compile to test + jump pairs. Every instruction records the source position of the construct
//! it implements, for error messages.
//!
//! Compile-time errors (`goto` rules, `<const>` assignment, register limits) are
//! [`ErrorKind::ParseError`] with a location.

use std::collections::HashMap;

use crate::ast::{
    self, BinOp, Block, ChainLink, Expr, ExprKind, FuncBody, Pos, Stmt, TableField, UnOp,
};
use crate::heap::alloc_bytes;
use crate::limits;
use crate::parser::{CompileMeter, compile_memory_error, push_growth_bytes};
use crate::proto::{ArithOp, Const, LocVar, Op, ProgramData, Proto, UpvalDesc};
use crate::{ErrorKind, GuestError, Location};

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
pub fn compile_chunk_metered(block: &Block, meter: &CompileMeter) -> CResult<ProgramData> {
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
    let mut off = 0u32;
    for p in &mut protos {
        p.k_offset = off;
        off += p.consts.len() as u32;
    }
    let mut data = ProgramData {
        protos,
        num_consts: off as usize,
        retained_bytes: 0,
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
}

fn is_unsafe_for_dest(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Table(_) => true,
        ExprKind::Binop(BinOp::And | BinOp::Or, ..) => true,
        ExprKind::Paren(x) => is_unsafe_for_dest(x),
        _ => false,
    }
}

fn arith_of(op: BinOp) -> Option<ArithOp> {
    Some(match op {
        BinOp::Add => ArithOp::Add,
        BinOp::Sub => ArithOp::Sub,
        BinOp::Mul => ArithOp::Mul,
        BinOp::Div => ArithOp::Div,
        BinOp::IDiv => ArithOp::IDiv,
        BinOp::Mod => ArithOp::Mod,
        BinOp::Pow => ArithOp::Pow,
        BinOp::BAnd => ArithOp::BAnd,
        BinOp::BOr => ArithOp::BOr,
        BinOp::BXor => ArithOp::BXor,
        BinOp::Shl => ArithOp::Shl,
        BinOp::Shr => ArithOp::Shr,
        _ => return None,
    })
}

/// The left operand of a binary operator: an expression still to compile, or a register that
/// already holds the value (the accumulator of an [`ExprKind::Chain`]).
#[derive(Clone, Copy)]
enum Lhs<'e> {
    Expr(&'e Expr),
    Reg(u8),
}

impl<'e> Lhs<'e> {
    fn expr(self) -> Option<&'e Expr> {
        match self {
            Lhs::Expr(e) => Some(e),
            Lhs::Reg(_) => None,
        }
    }

    /// Whether the operand is a numeral (candidate for a K operand).
    fn is_num(self) -> bool {
        self.expr()
            .is_some_and(|e| matches!(e.kind, ExprKind::Int(_) | ExprKind::Float(_)))
    }
}

fn is_compare(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

fn is_logic(op: BinOp) -> bool {
    matches!(op, BinOp::And | BinOp::Or)
}

/// Most operands one `Concat` instruction joins: longer `..` runs are joined 200 at a time
/// (fewer when registers are short), left to right, into one accumulator register.
const CONCAT_CHUNK: usize = 200;

/// The operands of a `..` run, left to right: [`ExprKind::Concat`] lists and nested `..`
/// [`ExprKind::Binop`]s are flattened (iteratively; parentheses are kept as operands).
fn concat_operands<'e>(e: &'e Expr, out: &mut Vec<Lhs<'e>>) {
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Binop(BinOp::Concat, a, b) => {
                stack.push(b);
                stack.push(a);
            }
            ExprKind::Concat(list) => stack.extend(list.iter().rev()),
            _ => out.push(Lhs::Expr(x)),
        }
    }
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

    // ------------------------------------------------------------------------------------------
    // Scopes
    // ------------------------------------------------------------------------------------------

    fn enter_block(&mut self, is_loop: bool) {
        self.use_bytes(push_growth_bytes(&self.fr().blocks));
        let f = self.f();
        let b = BlockScope {
            nactvar: f.actvars.len(),
            is_loop,
            breaks: Vec::new(),
            upval: false,
            upval_any: false,
            first_label: f.labels.len(),
            gotos: HashMap::new(),
        };
        f.blocks.push(b);
    }

    /// Leave a block: end its locals, emit a Close when a local was captured (`close` true),
    /// patch `break`s, move pending gotos out.
    fn leave_block(&mut self) -> CResult<()> {
        let pc = self.pc();
        let depth = self.fr().blocks.len();
        let mut b = self.f().blocks.pop().expect("block");
        // End locals.
        {
            let f = self.f();
            while f.actvars.len() > b.nactvar {
                let v = f.actvars.pop().expect("var");
                f.proto.locvars[v.locvar].end_pc = pc as u32;
            }
            f.free_reg = b.nactvar;
        }
        if b.upval && !b.is_loop && depth > 1 {
            self.emit(Op::Close { a: b.nactvar as u8 }, Pos::default());
        }
        if b.is_loop {
            self.patch_here(&b.breaks.clone());
            if b.upval_any {
                self.emit(Op::Close { a: b.nactvar as u8 }, Pos::default());
            }
        }
        let f = self.f();
        if let Some(parent) = f.blocks.last_mut()
            && b.upval_any
        {
            parent.upval_any = true;
        }
        for l in f.labels.drain(b.first_label..) {
            f.label_index.remove(&l.name);
        }
        // Pending gotos now wait in the enclosing block, outside this block's locals.
        for (name, mut list) in std::mem::take(&mut b.gotos) {
            for g in list.iter_mut() {
                g.nactvar = g.nactvar.min(b.nactvar);
            }
            match f.blocks.last_mut() {
                Some(parent) => parent.gotos.entry(name).or_default().extend(list),
                None => f.unresolved.extend(list),
            }
        }
        Ok(())
    }

    fn add_local(&mut self, name: &str, is_const: bool, pos: Pos) -> CResult<u8> {
        let r = self.reserve(1, pos)?;
        self.activate_local_at(name, is_const, r);
        Ok(r)
    }

    /// Declare a local whose register `r` (== number of active locals) is already reserved.
    fn activate_local_at(&mut self, name: &str, is_const: bool, r: u8) {
        let f = self.fr();
        let n = push_growth_bytes(&f.proto.locvars)
            + push_growth_bytes(&f.actvars)
            + 2 * alloc_bytes(name.len());
        self.use_bytes(n);
        let f = self.f();
        debug_assert_eq!(r as usize, f.actvars.len());
        let start = f.proto.code.len() as u32;
        f.proto.locvars.push(LocVar {
            name: name.into(),
            reg: r,
            start_pc: start,
            end_pc: u32::MAX,
        });
        let locvar = f.proto.locvars.len() - 1;
        let block = f.blocks.len() - 1;
        f.actvars.push(VarDesc {
            name: name.into(),
            is_const,
            block,
            locvar,
        });
    }

    fn resolve(&mut self, fsi: usize, name: &str) -> Var {
        let f = &mut self.fs[fsi];
        if let Some(i) = f.actvars.iter().rposition(|v| &*v.name == name) {
            return Var::Local(i as u8);
        }
        if let Some(i) = f.proto.upvals.iter().position(|u| &*u.name == name) {
            return Var::Upval(i as u8);
        }
        if fsi == 0 {
            return Var::Global;
        }
        let (in_stack, idx, is_const) = match self.resolve(fsi - 1, name) {
            Var::Local(r) => {
                let pf = &mut self.fs[fsi - 1];
                let v = &pf.actvars[r as usize];
                let (blk, c) = (v.block, v.is_const);
                pf.blocks[blk].upval = true;
                pf.blocks[blk].upval_any = true;
                (true, r, c)
            }
            Var::Upval(u) => {
                let c = self.fs[fsi - 1].upval_const[u as usize];
                (false, u, c)
            }
            Var::Global => return Var::Global,
        };
        let f = &self.fs[fsi];
        if f.proto.upvals.len() >= limits::MAX_UPVALUES {
            self.upval_overflow = true;
            return Var::Global;
        }
        let n = push_growth_bytes(&f.proto.upvals)
            + push_growth_bytes(&f.upval_const)
            + alloc_bytes(name.len());
        self.use_bytes(n);
        let f = &mut self.fs[fsi];
        f.proto.upvals.push(UpvalDesc {
            in_stack,
            idx,
            name: name.into(),
        });
        f.upval_const.push(is_const);
        Var::Upval((f.proto.upvals.len() - 1) as u8)
    }

    fn resolve_here(&mut self, name: &str) -> Var {
        let i = self.fs.len() - 1;
        self.resolve(i, name)
    }

    /// Error if resolving a name overflowed the upvalue bound (Lua: "too many upvalues").
    fn check_upvals(&self, pos: Pos) -> CResult<()> {
        if self.upval_overflow {
            return Err(cerr(
                pos,
                format!(
                    "too many upvalues (limit is {}): a function uses more outer local variables \
                     than that; put them in a table and use its fields",
                    limits::MAX_UPVALUES
                ),
            ));
        }
        Ok(())
    }

    fn check_not_const(&self, var: &Var, name: &str, pos: Pos) -> CResult<()> {
        self.check_upvals(pos)?;
        let f = self.fr();
        let c = match var {
            Var::Local(r) => f.actvars[*r as usize].is_const,
            Var::Upval(u) => f.upval_const[*u as usize],
            Var::Global => false,
        };
        if c {
            return Err(cerr(
                pos,
                format!("attempt to assign to const variable '{}'", name),
            ));
        }
        Ok(())
    }

    // ------------------------------------------------------------------------------------------
    // Statements
    // ------------------------------------------------------------------------------------------

    fn block(&mut self, b: &Block) -> CResult<()> {
        // Statements from `tail` on are all labels (computed once: linear in the block).
        let tail = b
            .stmts
            .iter()
            .rposition(|s| !matches!(s, Stmt::Label(..)))
            .map_or(0, |p| p + 1);
        for (i, s) in b.stmts.iter().enumerate() {
            let at_end = b.ret.is_none() && i + 1 >= tail;
            self.stmt(s, at_end)?;
            let n = self.fr().actvars.len();
            self.set_free(n);
        }
        if let Some(r) = &b.ret {
            self.ret(r)?;
        }
        Ok(())
    }

    fn scoped_block(&mut self, b: &Block, is_loop: bool) -> CResult<()> {
        self.enter_block(is_loop);
        self.block(b)?;
        self.leave_block()
    }

    fn stmt(&mut self, s: &Stmt, label_at_end: bool) -> CResult<()> {
        self.enter()?;
        let r = self.stmt_inner(s, label_at_end);
        self.depth -= 1;
        r
    }

    fn enter(&mut self) -> CResult<()> {
        self.check_meter()?;
        self.depth += 1;
        if self.depth > self.max_depth {
            self.depth -= 1;
            return Err(cerr(Pos::default(), TOO_DEEP));
        }
        Ok(())
    }

    fn stmt_inner(&mut self, s: &Stmt, label_at_end: bool) -> CResult<()> {
        match s {
            Stmt::Local { names, exprs, pos } => {
                let base = self.free();
                self.adjust_exprs(names.len(), exprs, *pos)?;
                for (i, n) in names.iter().enumerate() {
                    let is_const = n.attrib.is_some();
                    self.activate_local_at(&n.name.name, is_const, (base + i) as u8);
                }
                self.set_free(base + names.len());
            }
            Stmt::Assign {
                targets,
                exprs,
                pos,
            } => self.assign(targets, exprs, *pos)?,
            Stmt::Call(e) => {
                let base = self.free();
                self.call_expr(e, base as u8, 0)?;
            }
            Stmt::Do(b, _) => self.scoped_block(b, false)?,
            Stmt::While { cond, body, pos } => {
                let start = self.pc();
                let exits = self.cond_jump(cond, false)?;
                self.enter_block(true);
                self.scoped_block(body, false)?;
                let j = self.emit_jmp(*pos);
                self.patch_jmp(j, start);
                self.patch_here(&exits);
                self.leave_block()?;
            }
            Stmt::Repeat { body, cond, pos } => {
                let start = self.pc();
                self.enter_block(true);
                self.enter_block(false);
                for s in &body.stmts {
                    self.stmt(s, false)?;
                    let n = self.fr().actvars.len();
                    self.set_free(n);
                }
                if let Some(r) = &body.ret {
                    self.ret(r)?;
                }
                let fl = self.cond_jump(cond, false)?;
                let captured = self.fr().blocks.last().map(|b| b.upval).unwrap_or(false);
                let level = self.fr().blocks.last().map(|b| b.nactvar).unwrap_or(0) as u8;
                if !captured {
                    for j in fl {
                        self.patch_jmp(j, start);
                    }
                } else {
                    let skip = self.emit_jmp(*pos);
                    self.patch_here(&fl);
                    self.emit(Op::Close { a: level }, *pos);
                    let back = self.emit_jmp(*pos);
                    self.patch_jmp(back, start);
                    self.patch_here(&[skip]);
                }
                self.leave_block()?; // inner (emits Close on exit if captured)
                self.leave_block()?; // loop
            }
            Stmt::If {
                arms,
                else_block,
                pos,
            } => {
                let mut ends = Vec::new();
                for (i, (c, b)) in arms.iter().enumerate() {
                    let fl = self.cond_jump(c, false)?;
                    self.scoped_block(b, false)?;
                    let last = i + 1 == arms.len() && else_block.is_none();
                    if !last {
                        ends.push(self.emit_jmp(*pos));
                    }
                    self.patch_here(&fl);
                }
                if let Some(b) = else_block {
                    self.scoped_block(b, false)?;
                }
                self.patch_here(&ends);
            }
            Stmt::NumericFor {
                var,
                start,
                limit,
                step,
                body,
                pos,
            } => {
                self.enter_block(true);
                let base = self.free();
                self.reserve(3, *pos)?;
                self.exp_to_reg(start, base as u8)?;
                self.exp_to_reg(limit, (base + 1) as u8)?;
                match step {
                    Some(s) => self.exp_to_reg(s, (base + 2) as u8)?,
                    None => {
                        self.emit(
                            Op::LoadInt {
                                a: (base + 2) as u8,
                                i: 1,
                            },
                            *pos,
                        );
                    }
                }
                self.activate_local_at("(for state)", false, base as u8);
                self.activate_local_at("(for state)", false, (base + 1) as u8);
                self.activate_local_at("(for state)", false, (base + 2) as u8);
                let prep = self.emit(
                    Op::ForPrep {
                        a: base as u8,
                        jmp: 0,
                    },
                    *pos,
                );
                let body_start = self.pc();
                self.enter_block(false);
                self.add_local(&var.name, false, var.pos)?;
                self.block(body)?;
                self.leave_block()?;
                let lp = self.emit(
                    Op::ForLoop {
                        a: base as u8,
                        jmp: 0,
                    },
                    *pos,
                );
                self.f().proto.code[lp] = Op::ForLoop {
                    a: base as u8,
                    jmp: (lp + 1 - body_start) as u32,
                };
                self.f().proto.code[prep] = Op::ForPrep {
                    a: base as u8,
                    jmp: (lp - prep) as u32,
                };
                self.leave_block()?;
            }
            Stmt::GenericFor {
                names,
                exprs,
                body,
                pos,
            } => {
                self.enter_block(true);
                let base = self.free();
                self.adjust_exprs(3, exprs, *pos)?;
                self.set_free(base + 3);
                self.activate_local_at("(for state)", false, base as u8);
                self.activate_local_at("(for state)", false, (base + 1) as u8);
                self.activate_local_at("(for state)", false, (base + 2) as u8);
                let j = self.emit_jmp(*pos);
                let body_start = self.pc();
                self.enter_block(false);
                for n in names {
                    self.add_local(&n.name, false, n.pos)?;
                }
                // TForCall copies f, s, ctl to base+3..base+5 before calling.
                self.reserve(3, *pos)?;
                let n = self.fr().actvars.len();
                self.set_free(n);
                self.block(body)?;
                self.leave_block()?;
                self.patch_here(&[j]);
                self.emit(
                    Op::TForCall {
                        a: base as u8,
                        c: names.len() as u8,
                    },
                    *pos,
                );
                let lp = self.emit(
                    Op::TForLoop {
                        a: base as u8,
                        jmp: 0,
                    },
                    *pos,
                );
                self.f().proto.code[lp] = Op::TForLoop {
                    a: base as u8,
                    jmp: (lp + 1 - body_start) as u32,
                };
                self.leave_block()?;
            }
            Stmt::Function { name, func, pos } => {
                let is_method = name.method.is_some();
                let first = &name.path[0];
                if name.path.len() == 1 && !is_method {
                    let var = self.resolve_here(&first.name);
                    self.check_not_const(&var, &first.name, first.pos)?;
                    let r = self.reserve(1, *pos)?;
                    self.function(func, false, r)?;
                    self.store_var(var, &first.name, r, *pos);
                } else {
                    let t = self.reserve(1, *pos)?;
                    let e = Expr::new(ExprKind::Name(first.name.clone()), first.pos);
                    self.exp_to_reg(&e, t)?;
                    let n = name.path.len();
                    let last_is_path = !is_method;
                    let mid_end = if last_is_path { n - 1 } else { n };
                    for seg in &name.path[1..mid_end] {
                        let k = self.k_str(seg.name.as_bytes());
                        self.emit(Op::GetField { a: t, t, k }, seg.pos);
                    }
                    let key = if let Some(m) = &name.method {
                        m
                    } else {
                        &name.path[n - 1]
                    };
                    let v = self.reserve(1, *pos)?;
                    self.function(func, is_method, v)?;
                    let k = self.k_str(key.name.as_bytes());
                    self.emit(Op::SetField { t, k, v }, key.pos);
                }
            }
            Stmt::LocalFunction { name, func, pos } => {
                let r = self.add_local(&name.name, false, name.pos)?;
                self.function(func, false, r)?;
                let _ = pos;
            }
            Stmt::Break(pos) => {
                let Some(bi) = self.fr().blocks.iter().rposition(|b| b.is_loop) else {
                    return Err(cerr(
                        *pos,
                        format!("break outside a loop at line {}", pos.line),
                    ));
                };
                let j = self.emit_jmp(*pos);
                self.use_bytes(push_growth_bytes(&self.fr().blocks[bi].breaks));
                self.f().blocks[bi].breaks.push(j);
            }
            Stmt::Goto(name, pos) => self.goto(name, *pos)?,
            Stmt::Label(name, pos) => self.label(name, *pos, label_at_end)?,
        }
        Ok(())
    }

    fn store_var(&mut self, var: Var, name: &str, r: u8, pos: Pos) {
        match var {
            Var::Local(l) => {
                if l != r {
                    self.emit(Op::Move { a: l, b: r }, pos);
                }
            }
            Var::Upval(u) => {
                self.emit(Op::SetUpval { a: r, u }, pos);
            }
            Var::Global => {
                let k = self.k_str(name.as_bytes());
                self.emit(Op::SetGlobal { a: r, k }, pos);
            }
        }
    }

    fn goto(&mut self, name: &ast::Name, pos: Pos) -> CResult<()> {
        let nact = self.fr().actvars.len();
        let found = self.fr().label_index.get(&name.name).copied();
        if let Some(l) = found.map(|i| self.fr().labels[i].clone()) {
            if nact > l.nactvar {
                self.emit(Op::Close { a: l.nactvar as u8 }, pos);
            }
            let j = self.emit_jmp(pos);
            self.patch_jmp(j, l.pc);
            return Ok(());
        }
        let close_pc = self.emit(Op::Close { a: 0 }, pos);
        let jmp_pc = self.emit_jmp(pos);
        self.use_bytes(2 * (std::mem::size_of::<Goto>() + alloc_bytes(name.name.len())) + 32);
        let f = self.f();
        let seq = f.goto_count;
        f.goto_count += 1;
        let g = Goto {
            name: name.name.clone(),
            close_pc,
            jmp_pc,
            nactvar: nact,
            line: pos.line,
            pos,
            seq,
        };
        f.blocks
            .last_mut()
            .expect("an open block")
            .gotos
            .entry(name.name.clone())
            .or_default()
            .push(g);
        Ok(())
    }

    fn label(&mut self, name: &ast::Name, pos: Pos, at_end: bool) -> CResult<()> {
        let found = self.fr().label_index.get(&name.name).copied();
        if let Some(l) = found.map(|i| &self.fr().labels[i]) {
            return Err(cerr(
                pos,
                format!("label '{}' already defined on line {}", name.name, l.line),
            ));
        }
        let nactvar = if at_end {
            self.fr().blocks.last().map(|b| b.nactvar).unwrap_or(0)
        } else {
            self.fr().actvars.len()
        };
        let pc = self.pc();
        let n = push_growth_bytes(&self.fr().labels) + 2 * alloc_bytes(name.name.len()) + 64;
        self.use_bytes(n);
        let f = self.f();
        f.label_index.insert(name.name.clone(), f.labels.len());
        f.labels.push(Label {
            name: name.name.clone(),
            pc,
            nactvar,
            line: pos.line,
        });
        // Resolve the gotos of this block waiting for this name (in creation order).
        let waiting = self
            .f()
            .blocks
            .last_mut()
            .and_then(|b| b.gotos.remove(&name.name))
            .unwrap_or_default();
        for g in waiting {
            if g.nactvar < nactvar {
                let local = self.fr().actvars[g.nactvar].name.clone();
                return Err(cerr(
                    g.pos,
                    format!(
                        "<goto {}> at line {} jumps into the scope of local '{}'",
                        g.name, g.line, local
                    ),
                ));
            }
            self.f().proto.code[g.close_pc] = Op::Close { a: nactvar as u8 };
            self.patch_jmp(g.jmp_pc, pc);
        }
        Ok(())
    }

    fn ret(&mut self, r: &ast::Return) -> CResult<()> {
        let pos = r.pos;
        match r.exprs.len() {
            0 => {
                self.emit(Op::Return { a: 0, b: 1 }, pos);
            }
            1 if r.exprs[0].is_multi() => {
                let base = self.free() as u8;
                self.exp_multi(&r.exprs[0], base, -1)?;
                // A call in tail position becomes a tail call (the frame is reused).
                if let Some(Op::Call { a, b, c: 0 }) = self.fr().proto.code.last().copied()
                    && a == base
                {
                    let last = self.pc() - 1;
                    self.f().proto.code[last] = Op::TailCall { a, b };
                }
                self.emit(Op::Return { a: base, b: 0 }, pos);
            }
            1 => {
                let reg = self.exp_to_anyreg(&r.exprs[0])?;
                self.emit(Op::Return { a: reg, b: 2 }, pos);
            }
            n => {
                let base = self.free();
                let last_multi = r.exprs[n - 1].is_multi();
                for (i, e) in r.exprs.iter().enumerate() {
                    if i == n - 1 && last_multi {
                        self.exp_multi(e, (base + i) as u8, -1)?;
                    } else {
                        let reg = self.reserve(1, e.pos)?;
                        self.exp_to_reg(e, reg)?;
                    }
                }
                let b = if last_multi { 0 } else { (n + 1) as u8 };
                self.emit(Op::Return { a: base as u8, b }, pos);
            }
        }
        Ok(())
    }

    /// Evaluate `exprs` into `want` consecutive new registers starting at the free register
    /// (extra values discarded, missing ones nil, a trailing multi-value expression expanded).
    fn adjust_exprs(&mut self, want: usize, exprs: &[Expr], pos: Pos) -> CResult<()> {
        let base = self.free();
        let n = exprs.len();
        for (i, e) in exprs.iter().enumerate() {
            let last = i + 1 == n;
            if last && e.is_multi() && want > i {
                let nres = (want - i) as i32;
                self.exp_multi(e, (base + i) as u8, nres)?;
                self.set_free(base + want);
                if self.fr().max_reg < base + want {
                    self.f().max_reg = base + want;
                }
                return Ok(());
            }
            if i < want {
                let r = self.reserve(1, e.pos)?;
                self.exp_to_reg(e, r)?;
            } else {
                // Evaluate for side effects only.
                let save = self.free();
                if e.is_multi() {
                    self.exp_multi(e, save as u8, 0)?;
                } else {
                    self.exp_to_anyreg(e)?;
                }
                self.set_free(save);
            }
        }
        if n < want {
            let r = self.reserve(want - n, pos)?;
            self.emit(
                Op::LoadNil {
                    a: r,
                    n: (want - n - 1) as u8,
                },
                pos,
            );
        }
        Ok(())
    }

    fn assign(&mut self, targets: &[Expr], exprs: &[Expr], pos: Pos) -> CResult<()> {
        if targets.len() == 1 && exprs.len() == 1 {
            let t = &targets[0];
            let e = &exprs[0];
            match &t.kind {
                ExprKind::Name(n) => {
                    let var = self.resolve_here(n);
                    self.check_not_const(&var, n, t.pos)?;
                    match var {
                        Var::Local(l) => {
                            if is_unsafe_for_dest(e) {
                                let r = self.reserve(1, e.pos)?;
                                self.exp_to_reg(e, r)?;
                                self.emit(Op::Move { a: l, b: r }, pos);
                            } else {
                                self.exp_to_reg(e, l)?;
                            }
                        }
                        other => {
                            let r = self.exp_to_anyreg(e)?;
                            self.store_var(other, n, r, t.pos);
                        }
                    }
                }
                ExprKind::Index(obj, key) => {
                    let tr = self.exp_to_anyreg(obj)?;
                    if let ExprKind::Str(s) = &key.kind {
                        let k = self.k_str(s);
                        let v = self.exp_to_anyreg(e)?;
                        self.emit(Op::SetField { t: tr, k, v }, t.pos);
                    } else {
                        let kr = self.exp_to_anyreg(key)?;
                        let v = self.exp_to_anyreg(e)?;
                        self.emit(Op::SetTable { t: tr, key: kr, v }, t.pos);
                    }
                }
                _ => return Err(cerr(t.pos, "cannot assign to this expression")),
            }
            return Ok(());
        }
        // General case: evaluate target prefixes into temps, then values, then store.
        enum Tgt {
            Var(Var, Box<str>),
            Field(u8, u32),
            Index(u8, u8),
        }
        let mut tgts = Vec::with_capacity(targets.len());
        for t in targets {
            match &t.kind {
                ExprKind::Name(n) => {
                    let var = self.resolve_here(n);
                    self.check_not_const(&var, n, t.pos)?;
                    tgts.push((Tgt::Var(var, n.clone()), t.pos));
                }
                ExprKind::Index(obj, key) => {
                    let tr = self.reserve(1, t.pos)?;
                    self.exp_to_reg(obj, tr)?;
                    if let ExprKind::Str(s) = &key.kind {
                        let k = self.k_str(s);
                        tgts.push((Tgt::Field(tr, k), t.pos));
                    } else {
                        let kr = self.reserve(1, t.pos)?;
                        self.exp_to_reg(key, kr)?;
                        tgts.push((Tgt::Index(tr, kr), t.pos));
                    }
                }
                _ => return Err(cerr(t.pos, "cannot assign to this expression")),
            }
        }
        let base = self.free();
        self.adjust_exprs(targets.len(), exprs, pos)?;
        for (i, (t, tpos)) in tgts.into_iter().enumerate().rev() {
            let v = (base + i) as u8;
            match t {
                Tgt::Var(var, name) => self.store_var(var, &name, v, tpos),
                Tgt::Field(tr, k) => {
                    self.emit(Op::SetField { t: tr, k, v }, tpos);
                }
                Tgt::Index(tr, kr) => {
                    self.emit(Op::SetTable { t: tr, key: kr, v }, tpos);
                }
            }
        }
        Ok(())
    }

    /// Compile a function body into a new prototype and emit `Closure` into `dest`.
    fn function(&mut self, fb: &FuncBody, is_method: bool, dest: u8) -> CResult<()> {
        let idx = self.protos.len();
        self.use_bytes(
            push_growth_bytes(&self.protos) + push_growth_bytes(&self.fr().proto.protos),
        );
        self.protos.push(None);
        let nparams = fb.params.len() + is_method as usize;
        if nparams > 200 {
            return Err(cerr(fb.pos, "too many parameters (limit 200)"));
        }
        self.open_function(fb.is_vararg, nparams as u8, fb.pos.line);
        if is_method {
            self.add_local("self", false, fb.pos)?;
        }
        for p in &fb.params {
            self.add_local(&p.name, false, p.pos)?;
        }
        self.block(&fb.body)?;
        self.emit(
            Op::Return { a: 0, b: 1 },
            Pos {
                line: fb.end_line,
                column: 1,
            },
        );
        let p = self.close_function()?;
        self.protos[idx] = Some(p);
        let f = self.f();
        f.proto.protos.push(idx as u32);
        let pi = (f.proto.protos.len() - 1) as u32;
        self.emit(Op::Closure { a: dest, p: pi }, fb.pos);
        Ok(())
    }

    // ------------------------------------------------------------------------------------------
    // Expressions
    // ------------------------------------------------------------------------------------------

    /// The register holding `e`: a local's own register, or a new temporary.
    fn exp_to_anyreg(&mut self, e: &Expr) -> CResult<u8> {
        if let ExprKind::Name(n) = &e.kind
            && let Var::Local(r) = self.resolve_here(n)
        {
            return Ok(r);
        }
        if let ExprKind::Paren(inner) = &e.kind
            && let ExprKind::Name(_) = inner.kind
        {
            return self.exp_to_anyreg(inner);
        }
        let r = self.reserve(1, e.pos)?;
        self.exp_to_reg(e, r)?;
        Ok(r)
    }

    /// Evaluate a multi-value expression (call or `...`) into `base..`, `nres` values (-1: all).
    /// `base` must be the free register.
    fn exp_multi(&mut self, e: &Expr, base: u8, nres: i32) -> CResult<()> {
        match &e.kind {
            ExprKind::Vararg => {
                if !self.fr().proto.is_vararg {
                    return Err(cerr(e.pos, "cannot use '...' outside a vararg function"));
                }
                self.set_free(base as usize);
                if nres > 0 {
                    self.reserve(nres as usize, e.pos)?;
                }
                self.emit(
                    Op::Vararg {
                        a: base,
                        c: (nres + 1) as u8,
                    },
                    e.pos,
                );
                Ok(())
            }
            _ => self.call_expr(e, base, nres),
        }
    }

    /// Compile a call with its function at `base` (the free register). Leaves free = base.
    fn call_expr(&mut self, e: &Expr, base: u8, nres: i32) -> CResult<()> {
        self.set_free(base as usize);
        let args = match &e.kind {
            ExprKind::Call(f, args) => {
                self.reserve(1, e.pos)?;
                self.exp_to_reg(f, base)?;
                args
            }
            ExprKind::MethodCall(obj, name, args) => {
                self.reserve(2, e.pos)?;
                self.exp_to_reg(obj, base)?;
                let k = self.k_str(name.name.as_bytes());
                self.emit(
                    Op::SelfOp {
                        a: base,
                        b: base,
                        k,
                    },
                    e.pos,
                );
                args
            }
            _ => return Err(cerr(e.pos, "internal error: not a call")),
        };
        let mut b: u8 = 0;
        let n = args.len();
        for (i, a) in args.iter().enumerate() {
            if i + 1 == n && a.is_multi() {
                let r = self.free() as u8;
                self.exp_multi(a, r, -1)?;
                b = 0;
                break;
            }
            let r = self.reserve(1, a.pos)?;
            self.exp_to_reg(a, r)?;
            b = r - base + 1;
        }
        if n == 0 || !args[n - 1].is_multi() {
            b = (self.free() - base as usize) as u8;
        }
        self.emit(
            Op::Call {
                a: base,
                b,
                c: (nres + 1) as u8,
            },
            e.pos,
        );
        self.set_free(base as usize);
        if nres > 0 && self.fr().max_reg < base as usize + nres as usize {
            self.f().max_reg = base as usize + nres as usize;
        }
        Ok(())
    }

    /// Evaluate `e` into register `dest`.
    fn exp_to_reg(&mut self, e: &Expr, dest: u8) -> CResult<()> {
        self.enter()?;
        let r = self.exp_to_reg_inner(e, dest);
        self.depth -= 1;
        r
    }

    fn exp_to_reg_inner(&mut self, e: &Expr, dest: u8) -> CResult<()> {
        let pos = e.pos;
        let save = self.free();
        match &e.kind {
            ExprKind::Nil => {
                self.emit(Op::LoadNil { a: dest, n: 0 }, pos);
            }
            ExprKind::True => {
                self.emit(Op::LoadBool { a: dest, v: true }, pos);
            }
            ExprKind::False => {
                self.emit(Op::LoadBool { a: dest, v: false }, pos);
            }
            ExprKind::Int(i) => {
                if let Ok(x) = i32::try_from(*i) {
                    self.emit(Op::LoadInt { a: dest, i: x }, pos);
                } else {
                    let k = self.k_int(*i);
                    self.emit(Op::LoadK { a: dest, k }, pos);
                }
            }
            ExprKind::Float(f) => {
                let k = self.k_float(*f);
                self.emit(Op::LoadK { a: dest, k }, pos);
            }
            ExprKind::Str(s) => {
                let k = self.k_str(s);
                self.emit(Op::LoadK { a: dest, k }, pos);
            }
            ExprKind::Vararg => {
                if !self.fr().proto.is_vararg {
                    return Err(cerr(pos, "cannot use '...' outside a vararg function"));
                }
                self.emit(Op::Vararg { a: dest, c: 2 }, pos);
            }
            ExprKind::Function(fb) => self.function(fb, false, dest)?,
            ExprKind::Table(fields) => self.table_cons(fields, dest, pos)?,
            ExprKind::Name(n) => match self.resolve_here(n) {
                _ if self.upval_overflow => return Err(self.check_upvals(pos).unwrap_err()),
                Var::Local(r) => {
                    if r != dest {
                        self.emit(Op::Move { a: dest, b: r }, pos);
                    }
                }
                Var::Upval(u) => {
                    self.emit(Op::GetUpval { a: dest, u }, pos);
                }
                Var::Global => {
                    let k = self.k_str(n.as_bytes());
                    self.emit(Op::GetGlobal { a: dest, k }, pos);
                }
            },
            ExprKind::Index(obj, key) => {
                let t = self.exp_to_anyreg(obj)?;
                if let ExprKind::Str(s) = &key.kind {
                    let k = self.k_str(s);
                    self.emit(Op::GetField { a: dest, t, k }, pos);
                } else {
                    let kr = self.exp_to_anyreg(key)?;
                    self.emit(
                        Op::GetTable {
                            a: dest,
                            t,
                            key: kr,
                        },
                        pos,
                    );
                }
            }
            ExprKind::Call(..) | ExprKind::MethodCall(..) => {
                let base = if dest as usize + 1 == self.free()
                    && dest as usize >= self.fr().actvars.len()
                {
                    dest
                } else {
                    self.free() as u8
                };
                self.call_expr(e, base, 1)?;
                if base != dest {
                    self.emit(Op::Move { a: dest, b: base }, pos);
                }
            }
            ExprKind::Paren(inner) => self.exp_to_reg(inner, dest)?,
            ExprKind::Binop(op, a, b) => self.binop(*op, Lhs::Expr(a), b, dest, pos)?,
            ExprKind::Chain(first, links) => self.chain(first, links, dest)?,
            ExprKind::Concat(list) => {
                let parts: Vec<Lhs<'_>> = list.iter().map(Lhs::Expr).collect();
                self.concat_parts(&parts, dest, pos)?;
            }
            ExprKind::Unop(op, x) => {
                // Constant folding for negative numerals.
                if *op == UnOp::Neg {
                    match x.kind {
                        ExprKind::Int(i) => {
                            let v = Expr::new(ExprKind::Int(i.wrapping_neg()), pos);
                            return self.exp_to_reg(&v, dest);
                        }
                        ExprKind::Float(f) => {
                            let v = Expr::new(ExprKind::Float(-f), pos);
                            return self.exp_to_reg(&v, dest);
                        }
                        _ => {}
                    }
                }
                let r = self.exp_to_anyreg(x)?;
                let op = match op {
                    UnOp::Neg => Op::Unm { a: dest, b: r },
                    UnOp::Not => Op::Not { a: dest, b: r },
                    UnOp::Len => Op::Len { a: dest, b: r },
                    UnOp::BNot => Op::BNot { a: dest, b: r },
                };
                self.emit(op, pos);
            }
        }
        self.set_free(save);
        Ok(())
    }

    /// Evaluate the operand into some register: a local's own, `Lhs::Reg`'s, or a new temporary.
    fn lhs_to_anyreg(&mut self, a: Lhs<'_>) -> CResult<u8> {
        match a {
            Lhs::Expr(e) => self.exp_to_anyreg(e),
            Lhs::Reg(r) => Ok(r),
        }
    }

    /// Evaluate the operand into register `dest`.
    fn lhs_to_reg(&mut self, a: Lhs<'_>, dest: u8, pos: Pos) -> CResult<()> {
        match a {
            Lhs::Expr(e) => self.exp_to_reg(e, dest),
            Lhs::Reg(r) => {
                if r != dest {
                    self.emit(Op::Move { a: dest, b: r }, pos);
                }
                Ok(())
            }
        }
    }

    /// Compile a [`ExprKind::Chain`] into `dest` in a loop: the value so far lives in one
    /// accumulator register (`dest` itself when it is a fresh temporary), each link computes
    /// `acc = acc op rhs`, so the chain needs a constant number of registers and no recursion
    /// per link. The last link writes `dest` directly unless it is `and`/`or` (which would
    /// clobber a local that the right operand still reads).
    fn chain(&mut self, first: &Expr, links: &[ChainLink], dest: u8) -> CResult<()> {
        let Some((last, init)) = links.split_last() else {
            return self.exp_to_reg(first, dest);
        };
        let mut lhs = Lhs::Expr(first);
        let mut acc = dest;
        if !init.is_empty() {
            acc = if dest as usize + 1 == self.free() && dest as usize >= self.fr().actvars.len() {
                dest
            } else {
                self.reserve(1, first.pos)?
            };
            let top = acc as usize + 1;
            for l in init {
                self.binop(l.op, lhs, &l.rhs, acc, l.pos)?;
                self.set_free(top);
                lhs = Lhs::Reg(acc);
            }
        }
        if is_logic(last.op) && acc != dest {
            self.binop(last.op, lhs, &last.rhs, acc, last.pos)?;
            self.emit(Op::Move { a: dest, b: acc }, last.pos);
        } else {
            self.binop(last.op, lhs, &last.rhs, dest, last.pos)?;
        }
        Ok(())
    }

    /// The value of `first` followed by `links`, as an operand: `first` itself when there are
    /// no links, else a new temporary holding the chain's value.
    fn chain_prefix<'e>(&mut self, first: &'e Expr, links: &[ChainLink]) -> CResult<Lhs<'e>> {
        if links.is_empty() {
            return Ok(Lhs::Expr(first));
        }
        let r = self.reserve(1, first.pos)?;
        self.chain(first, links, r)?;
        Ok(Lhs::Reg(r))
    }

    /// Concatenate `parts` (left to right) into `dest`: one `Concat` over consecutive registers
    /// when they fit in [`CONCAT_CHUNK`] (and in the registers left), else chunk by chunk into
    /// the first register, which then holds the string so far.
    fn concat_parts(&mut self, parts: &[Lhs<'_>], dest: u8, pos: Pos) -> CResult<()> {
        let Some((&head, rest)) = parts.split_first() else {
            return Ok(());
        };
        let base = match head {
            Lhs::Reg(r) if r as usize + 1 == self.free() => r,
            _ => {
                let r = self.reserve(1, pos)?;
                self.lhs_to_reg(head, r, pos)?;
                r
            }
        };
        let chunk = limits::MAX_REGISTERS
            .saturating_sub(base as usize)
            .clamp(2, CONCAT_CHUNK);
        let mut held = 1usize;
        for (i, &p) in rest.iter().enumerate() {
            let r = self.reserve(1, p.expr().map_or(pos, |e| e.pos))?;
            self.lhs_to_reg(p, r, pos)?;
            held += 1;
            if held == chunk && i + 1 < rest.len() {
                self.emit(
                    Op::Concat {
                        a: base,
                        b: base,
                        n: held as u8,
                    },
                    pos,
                );
                self.set_free(base as usize + 1);
                held = 1;
            }
        }
        self.emit(
            Op::Concat {
                a: dest,
                b: base,
                n: held as u8,
            },
            pos,
        );
        Ok(())
    }

    /// `a op b` into `dest`, where `a` may already sit in a register (chain accumulator).
    fn binop(&mut self, op: BinOp, a: Lhs<'_>, b: &Expr, dest: u8, pos: Pos) -> CResult<()> {
        match op {
            BinOp::And | BinOp::Or => {
                self.lhs_to_reg(a, dest, pos)?;
                self.emit(
                    Op::Test {
                        a: dest,
                        k: op == BinOp::Or,
                    },
                    pos,
                );
                let j = self.emit_jmp(pos);
                self.exp_to_reg(b, dest)?;
                self.patch_here(&[j]);
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let save = self.free();
                self.compare(op, a, b, true, pos)?;
                let t = self.emit_jmp(pos);
                self.set_free(save);
                self.emit(Op::LoadBool { a: dest, v: false }, pos);
                self.emit(Op::Jmp { off: 1 }, pos);
                self.patch_here(&[t]);
                self.emit(Op::LoadBool { a: dest, v: true }, pos);
            }
            BinOp::Concat => {
                let mut parts = Vec::new();
                match a {
                    Lhs::Expr(x) => concat_operands(x, &mut parts),
                    reg => parts.push(reg),
                }
                concat_operands(b, &mut parts);
                self.concat_parts(&parts, dest, pos)?;
            }
            _ => {
                let aop = arith_of(op).expect("arith op");
                // R op K
                if let Some(i) = match (&b.kind, aop) {
                    (ExprKind::Int(i), ArithOp::Add) => i16::try_from(*i).ok(),
                    (ExprKind::Int(i), ArithOp::Sub) => {
                        i.checked_neg().and_then(|n| i16::try_from(n).ok())
                    }
                    _ => None,
                } {
                    let ra = self.lhs_to_anyreg(a)?;
                    let sub = aop == ArithOp::Sub;
                    self.emit(
                        Op::AddI {
                            a: dest,
                            b: ra,
                            i,
                            sub,
                        },
                        pos,
                    );
                    return Ok(());
                }
                if matches!(b.kind, ExprKind::Int(_) | ExprKind::Float(_)) {
                    let ra = self.lhs_to_anyreg(a)?;
                    if let Some(k) = self.num_k16(b) {
                        self.emit(
                            Op::ArithK {
                                op: aop,
                                a: dest,
                                b: ra,
                                k,
                            },
                            pos,
                        );
                        return Ok(());
                    }
                    let rb = self.exp_to_anyreg(b)?;
                    self.emit(
                        Op::Arith {
                            op: aop,
                            a: dest,
                            b: ra,
                            c: rb,
                        },
                        pos,
                    );
                    return Ok(());
                }
                let ak = a.expr().filter(|_| a.is_num());
                if let Some(k) = ak.and_then(|ae| self.num_k16(ae)) {
                    let rc = self.exp_to_anyreg(b)?;
                    self.emit(
                        Op::ArithKR {
                            op: aop,
                            a: dest,
                            k,
                            c: rc,
                        },
                        pos,
                    );
                    return Ok(());
                }
                let ra = self.lhs_to_anyreg(a)?;
                let rb = self.exp_to_anyreg(b)?;
                let op = match aop {
                    ArithOp::Add => Op::Add {
                        a: dest,
                        b: ra,
                        c: rb,
                    },
                    ArithOp::Sub => Op::Sub {
                        a: dest,
                        b: ra,
                        c: rb,
                    },
                    _ => Op::Arith {
                        op: aop,
                        a: dest,
                        b: ra,
                        c: rb,
                    },
                };
                self.emit(op, pos);
            }
        }
        Ok(())
    }

    /// Emit code that jumps (returned list of Jmp pcs) when truthiness of `e` equals
    /// `jump_when`, and falls through otherwise.
    fn cond_jump(&mut self, e: &Expr, jump_when: bool) -> CResult<Vec<usize>> {
        self.enter()?;
        let r = self.cond_jump_inner(e, jump_when);
        self.depth -= 1;
        r
    }

    fn cond_jump_inner(&mut self, e: &Expr, jump_when: bool) -> CResult<Vec<usize>> {
        let pos = e.pos;
        let save = self.free();
        let r = match &e.kind {
            ExprKind::Unop(UnOp::Not, x) => self.cond_jump(x, !jump_when)?,
            ExprKind::Paren(x) => self.cond_jump(x, jump_when)?,
            ExprKind::Binop(BinOp::And, a, b) => {
                if !jump_when {
                    let mut j = self.cond_jump(a, false)?;
                    j.extend(self.cond_jump(b, false)?);
                    j
                } else {
                    let f = self.cond_jump(a, false)?;
                    let t = self.cond_jump(b, true)?;
                    self.patch_here(&f);
                    t
                }
            }
            ExprKind::Binop(BinOp::Or, a, b) => {
                if jump_when {
                    let mut j = self.cond_jump(a, true)?;
                    j.extend(self.cond_jump(b, true)?);
                    j
                } else {
                    let t = self.cond_jump(a, true)?;
                    let f = self.cond_jump(b, false)?;
                    self.patch_here(&t);
                    f
                }
            }
            ExprKind::Binop(
                op @ (BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge),
                a,
                b,
            ) => {
                self.compare(*op, Lhs::Expr(a), b, jump_when, pos)?;
                vec![self.emit_jmp(pos)]
            }
            ExprKind::Chain(first, links) => self.chain_cond(first, links, jump_when)?,
            ExprKind::True | ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_) => {
                if jump_when {
                    vec![self.emit_jmp(pos)]
                } else {
                    vec![]
                }
            }
            ExprKind::Nil | ExprKind::False => {
                if !jump_when {
                    vec![self.emit_jmp(pos)]
                } else {
                    vec![]
                }
            }
            _ => {
                let r = self.exp_to_anyreg(e)?;
                self.emit(Op::Test { a: r, k: jump_when }, pos);
                vec![self.emit_jmp(pos)]
            }
        };
        self.set_free(save);
        Ok(r)
    }

    /// [`Compiler::cond_jump`] for a chain, without recursing per link: the chain is
    /// `prefix {and x} {or y}` read left to right, where `prefix` ends at the last link that is
    /// not `and`/`or`. The prefix is tested once (a comparison jumps directly, any other value is
    /// tested), then each `and`/`or` link extends or replaces the jump list exactly as the nested
    /// `Binop` rules do.
    fn chain_cond(
        &mut self,
        first: &Expr,
        links: &[ChainLink],
        jump_when: bool,
    ) -> CResult<Vec<usize>> {
        // The condition under which the prefix of `i` links must jump: decided by link `i`.
        let sense = |i: usize| match links.get(i) {
            Some(l) => l.op == BinOp::Or,
            None => jump_when,
        };
        let m = links
            .iter()
            .rposition(|l| !is_logic(l.op))
            .map_or(0, |i| i + 1);
        let mut list = if m == 0 {
            self.cond_jump(first, sense(0))?
        } else {
            let last = &links[m - 1];
            let save = self.free();
            if is_compare(last.op) {
                let lhs = self.chain_prefix(first, &links[..m - 1])?;
                self.compare(last.op, lhs, &last.rhs, sense(m), last.pos)?;
            } else {
                let r = self.reserve(1, last.pos)?;
                self.chain(first, &links[..m], r)?;
                self.emit(Op::Test { a: r, k: sense(m) }, last.pos);
            }
            let j = self.emit_jmp(last.pos);
            self.set_free(save);
            vec![j]
        };
        for (i, l) in links.iter().enumerate().skip(m) {
            let jw = sense(i + 1);
            let (op_or, r) = (l.op == BinOp::Or, self.cond_jump(&l.rhs, jw)?);
            if op_or == jw {
                // `P and x` jumping when false, `P or x` jumping when true: either jumps.
                list.extend(r);
            } else {
                // `P and x` jumping when true: P false falls through to here; likewise `or`.
                self.patch_here(&list);
                list = r;
            }
        }
        Ok(list)
    }

    /// Emit a comparison instruction with condition flag `k` (the next instruction must be the
    /// Jmp taken when the comparison result equals `k`).
    fn compare(&mut self, op: BinOp, a: Lhs<'_>, b: &Expr, k: bool, pos: Pos) -> CResult<()> {
        match op {
            BinOp::Eq | BinOp::Ne => {
                let k = if op == BinOp::Ne { !k } else { k };
                if let Some(kc) = self.eq_k(b) {
                    let ra = self.lhs_to_anyreg(a)?;
                    self.emit(Op::EqK { a: ra, kc, k }, pos);
                } else if let Some(ae) = a.expr().filter(|e| {
                    matches!(
                        e.kind,
                        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Str(_)
                    )
                }) {
                    let rb = self.exp_to_anyreg(b)?;
                    let kc = self.eq_k(ae).expect("constant");
                    self.emit(Op::EqK { a: rb, kc, k }, pos);
                } else {
                    let ra = self.lhs_to_anyreg(a)?;
                    let rb = self.exp_to_anyreg(b)?;
                    self.emit(Op::Eq { a: ra, b: rb, k }, pos);
                }
            }
            _ => {
                let bnum = matches!(b.kind, ExprKind::Int(_) | ExprKind::Float(_));
                let anum = a.is_num();
                if bnum {
                    let ra = self.lhs_to_anyreg(a)?;
                    if let Some(kc) = self.num_k16(b) {
                        let op = match op {
                            BinOp::Lt => Op::LtK { a: ra, kc, k },
                            BinOp::Le => Op::LeK { a: ra, kc, k },
                            BinOp::Gt => Op::GtK { a: ra, kc, k },
                            _ => Op::GeK { a: ra, kc, k },
                        };
                        self.emit(op, pos);
                        return Ok(());
                    }
                    let rb = self.exp_to_anyreg(b)?;
                    self.emit_cmp_regs(op, ra, rb, k, pos);
                } else if anum {
                    let rb = self.exp_to_anyreg(b)?;
                    if let Some(kc) = a.expr().and_then(|ae| self.num_k16(ae)) {
                        // K < R  <=>  R > K, etc.
                        let op = match op {
                            BinOp::Lt => Op::GtK { a: rb, kc, k },
                            BinOp::Le => Op::GeK { a: rb, kc, k },
                            BinOp::Gt => Op::LtK { a: rb, kc, k },
                            _ => Op::LeK { a: rb, kc, k },
                        };
                        self.emit(op, pos);
                        return Ok(());
                    }
                    let ra = self.reserve(1, pos)?;
                    self.lhs_to_reg(a, ra, pos)?;
                    self.emit_cmp_regs(op, ra, rb, k, pos);
                } else {
                    let ra = self.lhs_to_anyreg(a)?;
                    let rb = self.exp_to_anyreg(b)?;
                    self.emit_cmp_regs(op, ra, rb, k, pos);
                }
            }
        }
        Ok(())
    }

    fn emit_cmp_regs(&mut self, op: BinOp, ra: u8, rb: u8, k: bool, pos: Pos) {
        let op = match op {
            BinOp::Lt => Op::Lt { a: ra, b: rb, k },
            BinOp::Le => Op::Le { a: ra, b: rb, k },
            BinOp::Gt => Op::Lt { a: rb, b: ra, k },
            _ => Op::Le { a: rb, b: ra, k },
        };
        self.emit(op, pos);
    }

    fn table_cons(&mut self, fields: &[TableField], dest: u8, pos: Pos) -> CResult<()> {
        let t = if dest as usize + 1 == self.free() && dest as usize >= self.fr().actvars.len() {
            dest
        } else {
            self.reserve(1, pos)?
        };
        let narr = fields
            .iter()
            .filter(|f| matches!(f, TableField::Positional(_)))
            .count();
        let nhash = fields.len() - narr;
        self.emit(
            Op::NewTable {
                a: t,
                narr: narr.min(u16::MAX as usize) as u16,
                nhash: nhash.min(u16::MAX as usize) as u16,
            },
            pos,
        );
        let mut pending = 0usize;
        let mut flushed = 0u32;
        let n = fields.len();
        for (i, f) in fields.iter().enumerate() {
            match f {
                TableField::Positional(e) => {
                    if i + 1 == n && e.is_multi() {
                        let r = self.free() as u8;
                        self.exp_multi(e, r, -1)?;
                        self.emit(
                            Op::SetList {
                                a: t,
                                n: 0,
                                start: flushed,
                            },
                            pos,
                        );
                        pending = 0;
                        self.set_free(t as usize + 1);
                        continue;
                    }
                    let r = self.reserve(1, e.pos)?;
                    self.exp_to_reg(e, r)?;
                    pending += 1;
                    if pending == 50 {
                        self.emit(
                            Op::SetList {
                                a: t,
                                n: 50,
                                start: flushed,
                            },
                            pos,
                        );
                        flushed += 50;
                        pending = 0;
                        self.set_free(t as usize + 1);
                    }
                }
                TableField::Named(name, e) => {
                    let save = self.free();
                    let k = self.k_str(name.name.as_bytes());
                    let v = self.exp_to_anyreg(e)?;
                    self.emit(Op::SetField { t, k, v }, name.pos);
                    self.set_free(save);
                }
                TableField::Keyed(key, e) => {
                    let save = self.free();
                    let kr = self.exp_to_anyreg(key)?;
                    let v = self.exp_to_anyreg(e)?;
                    self.emit(Op::SetTable { t, key: kr, v }, key.pos);
                    self.set_free(save);
                }
            }
        }
        if pending > 0 {
            self.emit(
                Op::SetList {
                    a: t,
                    n: pending as u8,
                    start: flushed,
                },
                pos,
            );
        }
        self.set_free(t as usize + 1);
        if t != dest {
            self.emit(Op::Move { a: dest, b: t }, pos);
        }
        Ok(())
    }
}
