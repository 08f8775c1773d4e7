//! Conditions: test + jump pairs for truthiness, `and`/`or`, comparisons and comparison chains.

use crate::ast::{BinOp, ChainLink, Expr, ExprKind, Pos, UnOp};
use crate::proto::Op;

use super::expr::{Lhs, is_compare, is_logic};
use super::{CResult, Compiler};

impl Compiler {
    /// Emit code that jumps (returned list of Jmp pcs) when truthiness of `e` equals
    /// `jump_when`, and falls through otherwise.
    pub(super) fn cond_jump(&mut self, e: &Expr, jump_when: bool) -> CResult<Vec<usize>> {
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
                self.note_foreign_guard(e);
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
    pub(super) fn compare(
        &mut self,
        op: BinOp,
        a: Lhs<'_>,
        b: &Expr,
        k: bool,
        pos: Pos,
    ) -> CResult<()> {
        // lua5.4 emits a comparison after reading its right operand: a failed one is reported
        // on that operand's line when it is below the operator's.
        let pos = if b.pos.line > pos.line { b.pos } else { pos };
        match op {
            BinOp::Eq | BinOp::Ne => {
                let k = if op == BinOp::Ne { !k } else { k };
                // `JSON ~= nil` tests whether the global exists.
                match (a.expr(), &b.kind) {
                    (Some(ae), ExprKind::Nil) => self.note_foreign_guard(ae),
                    (Some(ae), _) if matches!(ae.kind, ExprKind::Nil) => self.note_foreign_guard(b),
                    _ => {}
                }
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
}
