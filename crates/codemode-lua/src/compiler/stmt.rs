//! Statements: blocks, assignments, control structures, `return` and function bodies.

use crate::ast::{self, Block, Expr, ExprKind, FuncBody, Pos, Stmt};
use crate::parser::push_growth_bytes;
use crate::proto::Op;

use super::expr::is_unsafe_for_dest;
use super::{CResult, Compiler, TOO_DEEP, Var, cerr};

impl Compiler {
    pub(super) fn block(&mut self, b: &Block) -> CResult<()> {
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

    pub(super) fn enter(&mut self) -> CResult<()> {
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
                if let Some(i) = crate::proto::foreign_index(name) {
                    self.foreign_written |= 1 << i;
                }
                let k = self.k_str(name.as_bytes());
                self.emit(Op::SetGlobal { a: r, k }, pos);
            }
        }
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
    pub(super) fn function(&mut self, fb: &FuncBody, is_method: bool, dest: u8) -> CResult<()> {
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
}
