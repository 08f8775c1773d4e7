//! Expressions: values into registers, calls, `..` runs, binary operators and table constructors.

use crate::ast::{BinOp, ChainLink, Expr, ExprKind, Pos, TableField, UnOp};
use crate::limits;
use crate::proto::{ArithOp, Op};

use super::{CResult, Compiler, Var, cerr};

pub(super) fn is_unsafe_for_dest(e: &Expr) -> bool {
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
pub(super) enum Lhs<'e> {
    Expr(&'e Expr),
    Reg(u8),
}

impl<'e> Lhs<'e> {
    pub(super) fn expr(self) -> Option<&'e Expr> {
        match self {
            Lhs::Expr(e) => Some(e),
            Lhs::Reg(_) => None,
        }
    }

    /// Whether the operand is a numeral (candidate for a K operand).
    pub(super) fn is_num(self) -> bool {
        self.expr()
            .is_some_and(|e| matches!(e.kind, ExprKind::Int(_) | ExprKind::Float(_)))
    }
}

pub(super) fn is_compare(op: BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
    )
}

pub(super) fn is_logic(op: BinOp) -> bool {
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

/// Where a `..` run whose first operator is at `pos` and whose right operand is `b` reports a
/// failed concatenation: its last `..`, as lua5.4 (whose one `CONCAT` instruction keeps the line
/// of the innermost, last, operator).
fn last_concat_pos(mut b: &Expr, mut pos: Pos) -> Pos {
    loop {
        match &b.kind {
            ExprKind::Concat(_) => return b.pos,
            ExprKind::Binop(BinOp::Concat, _, rhs) => {
                pos = b.pos;
                b = rhs;
            }
            _ => return pos,
        }
    }
}

/// The position of the call instruction of `e` (a `Call` or `MethodCall` at `e.pos`): where
/// lua5.4 reports a failed call, the line on which the whole suffixed expression (`a.b:c(...)`)
/// starts. When that is `e`'s own line, `e.pos` itself (the `(` or `:` token, for the column).
fn call_pos(e: &Expr) -> Pos {
    let mut x = e;
    loop {
        match &x.kind {
            ExprKind::Call(f, _) => x = f,
            ExprKind::MethodCall(obj, _, _) | ExprKind::Index(obj, _) => x = obj,
            _ => break,
        }
    }
    if x.pos.line != 0 && x.pos.line < e.pos.line {
        x.pos
    } else {
        e.pos
    }
}

impl Compiler {
    /// The register holding `e`: a local's own register, or a new temporary.
    pub(super) fn exp_to_anyreg(&mut self, e: &Expr) -> CResult<u8> {
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
    pub(super) fn exp_multi(&mut self, e: &Expr, base: u8, nres: i32) -> CResult<()> {
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
    pub(super) fn call_expr(&mut self, e: &Expr, base: u8, nres: i32) -> CResult<()> {
        self.set_free(base as usize);
        let args = match &e.kind {
            ExprKind::Call(f, args) => {
                if let (ExprKind::Name(n), [arg]) = (&f.kind, &args[..])
                    && &**n == "type"
                {
                    self.note_foreign_guard(arg);
                }
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
            call_pos(e),
        );
        self.set_free(base as usize);
        if nres > 0 && self.fr().max_reg < base as usize + nres as usize {
            self.f().max_reg = base as usize + nres as usize;
        }
        Ok(())
    }

    /// Evaluate `e` into register `dest`.
    pub(super) fn exp_to_reg(&mut self, e: &Expr, dest: u8) -> CResult<()> {
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
                    if matches!(&**n, "_G" | "_ENV") {
                        self.foreign_written = u8::MAX;
                    }
                    self.note_foreign_read(n, pos);
                    let k = self.k_str(n.as_bytes());
                    self.emit(Op::GetGlobal { a: dest, k }, pos);
                }
            },
            ExprKind::Index(obj, key) => {
                if let (ExprKind::Name(_), ExprKind::Str(s)) = (&obj.kind, &key.kind) {
                    self.foreign_field = Some(String::from_utf8_lossy(s).into());
                }
                let t = self.exp_to_anyreg(obj);
                self.foreign_field = None;
                let t = t?;
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
    pub(super) fn lhs_to_anyreg(&mut self, a: Lhs<'_>) -> CResult<u8> {
        match a {
            Lhs::Expr(e) => self.exp_to_anyreg(e),
            Lhs::Reg(r) => Ok(r),
        }
    }

    /// Evaluate the operand into register `dest`.
    pub(super) fn lhs_to_reg(&mut self, a: Lhs<'_>, dest: u8, pos: Pos) -> CResult<()> {
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
    pub(super) fn chain(&mut self, first: &Expr, links: &[ChainLink], dest: u8) -> CResult<()> {
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
    pub(super) fn chain_prefix<'e>(
        &mut self,
        first: &'e Expr,
        links: &[ChainLink],
    ) -> CResult<Lhs<'e>> {
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
                if let Some(e) = a.expr() {
                    self.note_foreign_guard(e);
                }
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
                self.concat_parts(&parts, dest, last_concat_pos(b, pos))?;
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
                // `x * 3`, `x % 7`, `x // 5`, `x / 4`: the literal in the instruction.
                if let (
                    ExprKind::Int(i),
                    ArithOp::Mul | ArithOp::Div | ArithOp::Mod | ArithOp::IDiv,
                ) = (&b.kind, aop)
                    && let Ok(i) = i16::try_from(*i)
                {
                    let ra = self.lhs_to_anyreg(a)?;
                    let (a, b) = (dest, ra);
                    let op = match aop {
                        ArithOp::Mul => Op::MulI { a, b, i },
                        ArithOp::Div => Op::DivI { a, b, i },
                        ArithOp::Mod => Op::ModI { a, b, i },
                        _ => Op::IDivI { a, b, i },
                    };
                    self.emit(op, pos);
                    return Ok(());
                }
                if matches!(b.kind, ExprKind::Int(_) | ExprKind::Float(_)) {
                    let ra = self.lhs_to_anyreg(a)?;
                    if let Some(k) = self.num_k16(b) {
                        let (a, b) = (dest, ra);
                        let op = match aop {
                            ArithOp::Add => Op::AddK { a, b, k },
                            ArithOp::Sub => Op::SubK { a, b, k },
                            ArithOp::Mul => Op::MulK { a, b, k },
                            ArithOp::Div => Op::DivK { a, b, k },
                            ArithOp::Mod => Op::ModK { a, b, k },
                            ArithOp::IDiv => Op::IDivK { a, b, k },
                            op => Op::ArithK { op, a, b, k },
                        };
                        self.emit(op, pos);
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
