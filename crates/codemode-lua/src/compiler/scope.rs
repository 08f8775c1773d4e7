//! Scopes: blocks, locals, name resolution (locals, upvalues, globals), `goto` and labels.

use std::collections::HashMap;

use crate::ast::{self, Pos};
use crate::heap::alloc_bytes;
use crate::limits;
use crate::parser::push_growth_bytes;
use crate::proto::{LocVar, Op, UpvalDesc};

use super::{BlockScope, CResult, Compiler, Goto, Label, Var, VarDesc, cerr};

impl Compiler {
    pub(super) fn enter_block(&mut self, is_loop: bool) {
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
    pub(super) fn leave_block(&mut self) -> CResult<()> {
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

    pub(super) fn add_local(&mut self, name: &str, is_const: bool, pos: Pos) -> CResult<u8> {
        let r = self.reserve(1, pos)?;
        self.activate_local_at(name, is_const, r);
        Ok(r)
    }

    /// Declare a local whose register `r` (== number of active locals) is already reserved.
    pub(super) fn activate_local_at(&mut self, name: &str, is_const: bool, r: u8) {
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

    pub(super) fn resolve_here(&mut self, name: &str) -> Var {
        let i = self.fs.len() - 1;
        self.resolve(i, name)
    }

    /// Error if resolving a name overflowed the upvalue bound (Lua: "too many upvalues").
    pub(super) fn check_upvals(&self, pos: Pos) -> CResult<()> {
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

    pub(super) fn check_not_const(&self, var: &Var, name: &str, pos: Pos) -> CResult<()> {
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

    pub(super) fn goto(&mut self, name: &ast::Name, pos: Pos) -> CResult<()> {
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

    pub(super) fn label(&mut self, name: &ast::Name, pos: Pos, at_end: bool) -> CResult<()> {
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
}
