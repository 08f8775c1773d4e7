//! Statements: blocks, declarations, loops (`for`, `for…in`, `for…of`), labels and jumps,
//! `try`/`finally` (inlined on every exit), `switch`.

use super::*;

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    pub(super) fn block(&mut self, stmts: &'b [Statement<'a>]) -> R<()> {
        let m = self.mark();
        self.push_scope();
        self.hoist_lexical(stmts)?;
        for s in stmts {
            self.stmt(s)?;
        }
        self.pop_scope(m);
        Ok(())
    }

    pub(super) fn stmt(&mut self, s: &'b Statement<'a>) -> R<()> {
        self.enter(s.span())?;
        let r = self.stmt_inner(s);
        self.leave();
        r
    }

    pub(super) fn stmt_inner(&mut self, s: &'b Statement<'a>) -> R<()> {
        let labels = std::mem::take(&mut self.f().pending_labels);
        match s {
            Statement::ExpressionStatement(e) => self.expr_effect(&e.expression)?,
            Statement::VariableDeclaration(d) => self.var_decl(d)?,
            Statement::FunctionDeclaration(_) => {}
            Statement::BlockStatement(b) => {
                if labels.is_empty() {
                    self.block(&b.body)?;
                } else {
                    let ctx_len = self.ctx.len();
                    self.f().jumps.push(Jumps {
                        label: labels.first().cloned(),
                        is_loop: false,
                        breakable: false,
                        breaks: Vec::new(),
                        continues: Vec::new(),
                        ctx_len,
                        cont_ctx_len: None,
                    });
                    self.block(&b.body)?;
                    self.end_jumps(None);
                }
            }
            Statement::EmptyStatement(_) | Statement::DebuggerStatement(_) => {}
            Statement::IfStatement(i) => {
                let m = self.mark();
                let c = self.alloc(i.span)?;
                self.expr_to(&i.test, c)?;
                let j = self.emit(Op::JumpIfFalse(c, 0), i.span);
                self.release(m);
                self.stmt(&i.consequent)?;
                if let Some(a) = &i.alternate {
                    let j2 = self.emit(Op::Jump(0), i.span);
                    self.patch_here(j);
                    self.stmt(a)?;
                    self.patch_here(j2);
                } else {
                    self.patch_here(j);
                }
            }
            Statement::ReturnStatement(r) => {
                let k = self.f().kind;
                if self.ctx.is_empty()
                    && !(k.is_async && k.generator)
                    && let Some(e) = &r.argument
                    && let Some(v) = self.direct_reg(e)
                {
                    // Nothing runs between reading the local and returning it.
                    self.emit_return(v, r.span)?;
                    return Ok(());
                }
                let m = self.mark();
                let v = self.alloc(r.span)?;
                match &r.argument {
                    Some(e) => {
                        self.expr_to(e, v)?;
                        let k = self.f().kind;
                        if k.is_async && k.generator {
                            // An async generator's `return x` awaits x (§15.6.2).
                            self.emit(Op::Await(v, v), r.span);
                        }
                    }
                    None => {
                        self.emit(Op::LoadUndef(v), r.span);
                    }
                }
                self.unwind_ctx(0, r.span)?;
                self.emit_return(v, r.span)?;
                self.release(m);
            }
            Statement::ThrowStatement(t) => {
                let m = self.mark();
                let v = self.alloc(t.span)?;
                self.expr_to(&t.argument, v)?;
                self.emit(Op::Throw(v), t.span);
                self.release(m);
            }
            Statement::WhileStatement(w) => {
                let top = self.here();
                self.push_loop(labels);
                let m = self.mark();
                let c = self.alloc(w.span)?;
                self.expr_to(&w.test, c)?;
                let j = self.emit(Op::JumpIfFalse(c, 0), w.span);
                self.release(m);
                self.stmt(&w.body)?;
                self.emit(Op::Jump(top), w.span);
                self.patch_here(j);
                self.end_jumps(Some(top));
            }
            Statement::DoWhileStatement(w) => {
                let top = self.here();
                self.push_loop(labels);
                self.stmt(&w.body)?;
                let cont = self.here();
                let m = self.mark();
                let c = self.alloc(w.span)?;
                self.expr_to(&w.test, c)?;
                self.emit(Op::JumpIfTrue(c, top), w.span);
                self.release(m);
                self.end_jumps(Some(cont));
            }
            Statement::ForStatement(f) => self.for_stmt(f, labels)?,
            Statement::ForOfStatement(f) => {
                self.await_loop = f.r#await;
                self.for_in_of(&f.left, &f.right, &f.body, f.span, labels, false)?
            }
            Statement::ForInStatement(f) => {
                self.for_in_of(&f.left, &f.right, &f.body, f.span, labels, true)?
            }
            Statement::BreakStatement(b) => {
                let label = b.label.as_ref().map(|l| l.name.to_string());
                self.jump_out(label, false, b.span)?;
            }
            Statement::ContinueStatement(c) => {
                let label = c.label.as_ref().map(|l| l.name.to_string());
                self.jump_out(label, true, c.span)?;
            }
            Statement::LabeledStatement(l) => {
                let mut labels = labels;
                labels.push(l.label.name.to_string());
                match &l.body {
                    Statement::ForStatement(_)
                    | Statement::WhileStatement(_)
                    | Statement::DoWhileStatement(_)
                    | Statement::ForInStatement(_)
                    | Statement::ForOfStatement(_)
                    | Statement::LabeledStatement(_) => {
                        self.f().pending_labels = labels;
                        self.stmt(&l.body)?;
                    }
                    body => {
                        let ctx_len = self.ctx_len();
                        self.f().jumps.push(Jumps {
                            label: labels.last().cloned(),
                            is_loop: false,
                            breakable: false,
                            breaks: Vec::new(),
                            continues: Vec::new(),
                            ctx_len,
                            cont_ctx_len: None,
                        });
                        self.stmt(body)?;
                        self.end_jumps(None);
                    }
                }
            }
            Statement::TryStatement(t) => self.try_stmt(t)?,
            Statement::SwitchStatement(sw) => self.switch_stmt(sw, labels)?,
            Statement::ClassDeclaration(c) => {
                let m = self.mark();
                let r = self.alloc(c.span)?;
                let name = c.id.as_ref().map_or("", |id| id.name.as_str());
                self.class(c, r, name)?;
                if let Some(id) = &c.id
                    && let Some(b) = self.resolve_local_only(id.name.as_str())
                {
                    self.store_binding(b, r, c.span);
                }
                self.release(m);
            }
            Statement::WithStatement(w) => {
                return Err(self.unsupported(
                    w.span,
                    "with",
                    "Name the object explicitly: `obj.x` instead of `with (obj) x`.",
                ));
            }
            Statement::TSTypeAliasDeclaration(_)
            | Statement::TSInterfaceDeclaration(_)
            | Statement::TSGlobalDeclaration(_) => {}
            Statement::TSEnumDeclaration(e) => self.enum_declaration(e)?,
            // Types only: no code.
            Statement::ImportDeclaration(i) if i.import_kind.is_type() => {}
            Statement::TSNamespaceDeclaration(n) if n.declare => {}
            Statement::TSExternalModuleDeclaration(m) if m.declare => {}
            Statement::TSNamespaceDeclaration(n) => {
                return Err(self.unsupported(
                    n.span,
                    "namespace",
                    "Use a plain object of its members instead: `const N = { x: 1, f() { ... } }`.",
                ));
            }
            // Evaluated before the first statement (`imports`).
            Statement::ImportDeclaration(_) | Statement::TSImportEqualsDeclaration(_) => {}
            other => {
                let span = other.span();
                let what = match other {
                    Statement::ExportNamedDeclaration(_)
                    | Statement::ExportDeclaration(_)
                    | Statement::ExportDefaultDeclaration(_)
                    | Statement::ExportAllDeclaration(_) => "export",
                    _ => "declaration",
                };
                return Err(self.unsupported(
                    span,
                    what,
                    "The program is a function body: `return` its result instead.",
                ));
            }
        }
        Ok(())
    }

    pub(super) fn ctx_len(&self) -> usize {
        self.ctx.len()
    }

    pub(super) fn push_loop(&mut self, labels: Vec<String>) {
        let ctx_len = self.ctx.len();
        let f = self.f();
        // Every label of a loop names the loop; the first is kept, others alias it.
        f.jumps.push(Jumps {
            label: None,
            is_loop: true,
            breakable: true,
            breaks: Vec::new(),
            continues: Vec::new(),
            ctx_len,
            cont_ctx_len: None,
        });
        for l in labels {
            f.jumps.last_mut().expect("loop").label.get_or_insert(l);
        }
    }

    /// Pop the innermost jump target; patch its breaks here and continues to `cont`.
    pub(super) fn end_jumps(&mut self, cont: Option<u32>) {
        let j = self.f().jumps.pop().expect("jumps");
        let here = self.here();
        for b in j.breaks {
            self.patch(b, here);
        }
        if let Some(c) = cont {
            for k in j.continues {
                self.patch(k, c);
            }
        }
    }

    pub(super) fn var_decl(&mut self, d: &'b VariableDeclaration<'a>) -> R<()> {
        let decl = match d.kind {
            VariableDeclarationKind::Var => Decl::Var,
            VariableDeclarationKind::Let => Decl::Let,
            VariableDeclarationKind::Const => Decl::Const,
            _ => {
                return Err(self.unsupported(
                    d.span,
                    "using",
                    "Release resources explicitly in a try/finally block.",
                ));
            }
        };
        for v in &d.declarations {
            // `let x = a + b` into x's own register, when nothing can read x before the
            // initializer's last instruction writes it (a read of x inside is still a TDZ
            // error: x holds the TDZ marker until then).
            if let (BindingPattern::BindingIdentifier(id), Some(init)) = (&v.id, &v.init)
                && let Some(Binding {
                    st: Storage::Reg(r),
                    ..
                }) = self.resolve_local_only(id.name.as_str())
                && self.writes_dst_last(init)
            {
                self.enter(v.span)?;
                let m = self.mark();
                self.expr_named(init, r, id.name.as_str())?;
                self.release(m);
                self.leave();
                if decl != Decl::Var {
                    self.mark_initialized(id.name.as_str());
                }
                continue;
            }
            let m = self.mark();
            let r = self.alloc(v.span)?;
            match &v.init {
                Some(init) => {
                    let name = match &v.id {
                        BindingPattern::BindingIdentifier(id) => id.name.as_str(),
                        _ => "",
                    };
                    self.expr_named(init, r, name)?;
                }
                None if decl == Decl::Var => {
                    self.release(m);
                    continue;
                }
                None => {
                    self.emit(Op::LoadUndef(r), v.span);
                }
            }
            let site = match &v.init {
                Some(init) => patterns::Site::Text(patterns::v8_site(init)),
                None => patterns::Site::Value,
            };
            self.bind_top(&v.id, r, decl, site)?;
            self.release(m);
        }
        Ok(())
    }

    pub(super) fn for_stmt(&mut self, f: &'b ForStatement<'a>, labels: Vec<String>) -> R<()> {
        let m = self.mark();
        self.push_scope();
        let mut per_iter: Vec<u16> = Vec::new();
        if let Some(init) = &f.init {
            match init {
                ForStatementInit::VariableDeclaration(d) => {
                    if d.kind != VariableDeclarationKind::Var {
                        for v in &d.declarations {
                            let mut names = Vec::new();
                            pattern_names(&v.id, &mut names);
                            for (n, span) in names {
                                let b = self.declare(
                                    &n,
                                    true,
                                    d.kind == VariableDeclarationKind::Const,
                                    span,
                                )?;
                                self.init_empty(b, span);
                                if let Storage::Cell(s) = b.st {
                                    per_iter.push(s);
                                }
                            }
                        }
                    }
                    self.var_decl(d)?;
                }
                other => {
                    let mm = self.mark();
                    let r = self.alloc(f.span)?;
                    self.expr_to(other.to_expression(), r)?;
                    self.release(mm);
                }
            }
        }
        let top = self.here();
        self.push_loop(labels);
        let mut exit = None;
        if let Some(t) = &f.test {
            let mm = self.mark();
            let c = self.alloc(f.span)?;
            self.expr_to(t, c)?;
            exit = Some(self.emit(Op::JumpIfFalse(c, 0), f.span));
            self.release(mm);
        }
        self.stmt(&f.body)?;
        let cont = self.here();
        for s in &per_iter {
            self.emit(Op::CopyCell(*s), f.span);
        }
        if let Some(u) = &f.update {
            self.expr_effect(u)?;
        }
        self.emit(Op::Jump(top), f.span);
        if let Some(e) = exit {
            self.patch_here(e);
        }
        self.end_jumps(Some(cont));
        self.pop_scope(m);
        Ok(())
    }

    pub(super) fn for_in_of(
        &mut self,
        left: &'b ForStatementLeft<'a>,
        right: &'b Expression<'a>,
        body: &'b Statement<'a>,
        span: Span,
        labels: Vec<String>,
        is_in: bool,
    ) -> R<()> {
        // `for await`: the async iterator's results are awaited (§14.7.5.6 ForIn/OfBodyEvaluation).
        // Taken before `right` is compiled (a loop inside it must not take it).
        let is_await = std::mem::take(&mut self.await_loop);
        let m = self.mark();
        let src = self.alloc(span)?;
        self.expr_to(right, src)?;
        let it = self.alloc(span)?;
        if is_in {
            self.emit(Op::ForInKeys(it, src), span);
        } else if is_await {
            self.emit(Op::AsyncIter(it, src), span);
        } else {
            self.emit(Op::IterInit(it, src), span);
        }
        let res = self.alloc(span)?;
        let val = self.alloc(span)?;
        let top = self.here();
        self.push_loop(labels);
        self.emit(Op::IterNext(res, it), span);
        if is_await {
            self.emit(Op::Await(res, res), span);
        }
        let exit = self.emit(Op::IterValue(val, res, it, 0), span);
        // An exception in the body (its bindings included) closes the iterator
        // (§7.4.11 IteratorClose with a throw completion), then goes on.
        let mut handler = None;
        if !is_in {
            self.ctx.push(CtxEntry::Iter(it));
            // `continue` keeps the iterator (and pops the handler).
            let n = self.ctx.len();
            if let Some(j) = self.f().jumps.last_mut() {
                j.cont_ctx_len = Some(n);
            }
            let e = self.alloc(span)?;
            handler = Some((self.emit(Op::PushHandler(0, e), span), e));
            self.ctx.push(CtxEntry::Handler);
        }
        let mm = self.mark();
        self.push_scope();
        match left {
            ForStatementLeft::VariableDeclaration(d) => {
                let decl = match d.kind {
                    VariableDeclarationKind::Var => Decl::Var,
                    VariableDeclarationKind::Let => Decl::Let,
                    VariableDeclarationKind::Const => Decl::Const,
                    _ => return Err(self.unsupported(d.span, "using", "Use const.")),
                };
                let Some(v) = d.declarations.first() else {
                    return Err(self.unsupported(d.span, "for", "Declare one variable."));
                };
                if decl != Decl::Var {
                    let mut names = Vec::new();
                    pattern_names(&v.id, &mut names);
                    for (n, sp) in names {
                        let b = self.declare(&n, true, decl == Decl::Const, sp)?;
                        self.init_empty(b, sp);
                    }
                }
                // V8 names the loop's value by its internal variable.
                let site = patterns::Site::Text(".for".to_string());
                self.bind_top(&v.id, val, decl, site)?;
            }
            target => {
                let t = target.to_assignment_target();
                self.pattern_site = patterns::Site::Text(".for".to_string());
                let r = self.assign_target(t, val, span);
                self.pattern_site = patterns::Site::Nested;
                r?;
            }
        }
        self.stmt(body)?;
        self.pop_scope(mm);
        if !is_in {
            self.ctx.pop();
            self.ctx.pop();
            self.emit(Op::PopHandler, span);
        }
        self.emit(Op::Jump(top), span);
        if let Some((h, e)) = handler {
            // The body's exception wins over any from closing (getting or calling `return`).
            self.patch_here(h);
            let ignored = self.alloc(span)?;
            let quiet = self.emit(Op::PushHandler(0, ignored), span);
            self.emit(Op::IterClose(it), span);
            self.emit(Op::PopHandler, span);
            self.patch_here(quiet);
            self.emit(Op::Throw(e), span);
        }
        self.patch_here(exit);
        // A `break` closed the iterator on its way out (as every abrupt exit does).
        let j = self.f().jumps.pop().expect("loop");
        let after = self.here();
        for b in &j.breaks {
            self.patch(*b, after);
        }
        for c in &j.continues {
            self.patch(*c, top);
        }
        self.release(m);
        Ok(())
    }

    /// Emit what leaving the contexts above `keep` needs (pop handlers, run finally
    /// blocks, close iterators), innermost first.
    pub(super) fn unwind_ctx(&mut self, keep: usize, span: Span) -> R<()> {
        let mut i = self.ctx.len();
        while i > keep {
            i -= 1;
            match self.ctx[i] {
                CtxEntry::Handler => {
                    self.emit(Op::PopHandler, span);
                }
                CtxEntry::Iter(r) => {
                    self.emit(Op::IterClose(r), span);
                }
                CtxEntry::Finally(block) => {
                    // Run the finally block with the contexts outside it only.
                    let saved: Vec<Ctx<'b, 'a>> = self.ctx.drain(i..).collect();
                    let r = self.block(&block.body);
                    self.ctx.extend(saved);
                    r?;
                }
            }
        }
        Ok(())
    }

    pub(super) fn jump_out(
        &mut self,
        label: Option<String>,
        is_continue: bool,
        span: Span,
    ) -> R<()> {
        let found = {
            let f = self.f();
            match &label {
                Some(l) => f
                    .jumps
                    .iter()
                    .rposition(|j| j.label.as_deref() == Some(l.as_str()))
                    .filter(|k| !is_continue || f.jumps[*k].is_loop),
                None if is_continue => f.jumps.iter().rposition(|j| j.is_loop),
                None => f.jumps.iter().rposition(|j| j.breakable),
            }
        };
        let Some(k) = found else {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                "Illegal break or continue statement".into(),
            ));
        };
        let t = &self.f().jumps[k];
        let keep = match (is_continue, t.cont_ctx_len) {
            (true, Some(c)) => c,
            _ => t.ctx_len,
        };
        self.unwind_ctx(keep, span)?;
        let j = self.emit(Op::Jump(0), span);
        let t = &mut self.f().jumps[k];
        if is_continue {
            t.continues.push(j);
        } else {
            t.breaks.push(j);
        }
        Ok(())
    }

    // ----- try, switch ----------------------------------------------------------------

    pub(super) fn try_stmt(&mut self, t: &'b TryStatement<'a>) -> R<()> {
        let m = self.mark();
        let exc = self.alloc(t.span)?;
        let fin = t.finalizer.as_deref();
        // The finally block runs on every exit: inline on normal and abrupt exits, and in a
        // handler that rethrows.
        let fin_handler = if let Some(f) = fin {
            let h = self.emit(Op::PushHandler(0, exc), t.span);
            self.ctx.push(Ctx::Finally(f));
            self.ctx.push(Ctx::Handler);
            Some(h)
        } else {
            None
        };
        if let Some(handler) = &t.handler {
            let h = self.emit(Op::PushHandler(0, exc), t.span);
            self.ctx.push(Ctx::Handler);
            self.block(&t.block.body)?;
            self.ctx.pop();
            self.emit(Op::PopHandler, t.span);
            let skip = self.emit(Op::Jump(0), t.span);
            self.patch_here(h);
            let mm = self.mark();
            self.push_scope();
            if let Some(param) = &handler.param {
                let mut names = Vec::new();
                pattern_names(&param.pattern, &mut names);
                for (n, sp) in names {
                    let b = self.declare(&n, false, false, sp)?;
                    let _ = b;
                }
                let site = patterns::Site::Text(".catch".to_string());
                self.bind_top(&param.pattern, exc, Decl::Let, site)?;
            }
            self.block(&handler.body.body)?;
            self.pop_scope(mm);
            self.patch_here(skip);
        } else {
            self.block(&t.block.body)?;
        }
        if let (Some(h), Some(fin)) = (fin_handler, fin) {
            self.ctx.pop();
            self.ctx.pop();
            self.emit(Op::PopHandler, t.span);
            self.block(&fin.body)?;
            let end = self.emit(Op::Jump(0), t.span);
            self.patch_here(h);
            self.block(&fin.body)?;
            self.emit(Op::Throw(exc), fin.span);
            self.patch_here(end);
        }
        self.release(m);
        Ok(())
    }

    pub(super) fn switch_stmt(
        &mut self,
        sw: &'b SwitchStatement<'a>,
        labels: Vec<String>,
    ) -> R<()> {
        let m = self.mark();
        let d = self.alloc(sw.span)?;
        self.expr_to(&sw.discriminant, d)?;
        self.push_scope();
        self.f().scopes.last_mut().expect("a scope").switch = true;
        let all: Vec<&'b Statement<'a>> =
            sw.cases.iter().flat_map(|c| c.consequent.iter()).collect();
        for s in &all {
            // Lexical declarations of every case share the switch's scope.
            self.hoist_lexical(std::slice::from_ref(*s))?;
        }
        let ctx_len = self.ctx.len();
        self.f().jumps.push(Jumps {
            label: labels.first().cloned(),
            is_loop: false,
            breakable: true,
            breaks: Vec::new(),
            continues: Vec::new(),
            ctx_len,
            cont_ctx_len: None,
        });
        let t = self.alloc(sw.span)?;
        let mut case_jumps = Vec::new();
        for c in &sw.cases {
            if let Some(test) = &c.test {
                self.expr_to(test, t)?;
                self.emit(Op::Binary(BinOp::StrictEq, t, d, t), c.span);
                case_jumps.push(Some(self.emit(Op::JumpIfTrue(t, 0), c.span)));
            } else {
                case_jumps.push(None);
            }
        }
        let default_jump = self.emit(Op::Jump(0), sw.span);
        let mut has_default = false;
        for (i, c) in sw.cases.iter().enumerate() {
            match case_jumps[i] {
                Some(j) => self.patch_here(j),
                None => {
                    has_default = true;
                    self.patch_here(default_jump);
                }
            }
            for s in &c.consequent {
                self.stmt(s)?;
            }
        }
        if !has_default {
            self.patch_here(default_jump);
        }
        self.end_jumps(None);
        self.f().scopes.pop();
        self.release(m);
        Ok(())
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// The program's imports, before its first statement and in source order
    /// (`builtins/modules.rs`): `import d, { a as b } from "m"`, `import * as ns from "m"`,
    /// `import "m"`, and TypeScript's `import x = require("m")`. Type-only ones vanish.
    pub(super) fn imports(&mut self, body: &'b [Statement<'a>]) -> R<()> {
        use crate::builtins::modules::{IMPORT_MODULE, IMPORT_NAMESPACE};
        for s in body {
            match s {
                Statement::ImportDeclaration(i) if !i.import_kind.is_type() => {
                    if i.phase.is_some() || i.with_clause.is_some() {
                        return Err(self.unsupported(
                            i.span,
                            "import attributes or phases",
                            "Write a plain `import { name } from \"module\"`.",
                        ));
                    }
                    let m = self.mark();
                    let spec = self.alloc(i.span)?;
                    let spec_str = self.string(i.source.value.as_str());
                    self.emit(Op::LoadStr(spec, spec_str), i.source.span);
                    let module = self.alloc(i.span)?;
                    self.emit(Op::Import(module, spec, IMPORT_MODULE), i.source.span);
                    for sp in i.specifiers.iter().flatten() {
                        let r = self.alloc(i.span)?;
                        let id = match sp {
                            ImportDeclarationSpecifier::ImportSpecifier(x) => {
                                if x.import_kind.is_type() {
                                    continue;
                                }
                                let name = self.string(x.imported.name().as_str());
                                self.emit(Op::ImportName(r, module, name, spec_str), x.span);
                                &x.local
                            }
                            ImportDeclarationSpecifier::ImportDefaultSpecifier(x) => {
                                self.emit(Op::Move(r, module), x.span);
                                &x.local
                            }
                            ImportDeclarationSpecifier::ImportNamespaceSpecifier(x) => {
                                self.emit(Op::Import(r, spec, IMPORT_NAMESPACE), x.span);
                                &x.local
                            }
                        };
                        let b = self
                            .resolve(id.name.as_str())
                            .expect("import bindings are hoisted");
                        self.store_binding(b, r, id.span);
                    }
                    self.release(m);
                }
                Statement::TSImportEqualsDeclaration(i) if !i.import_kind.is_type() => {
                    let TSModuleReference::ExternalModuleReference(ext) = &i.module_reference
                    else {
                        return Err(self.unsupported(
                            i.span,
                            "import alias",
                            "Name the value with a `const` instead: `const x = A.B;`.",
                        ));
                    };
                    let m = self.mark();
                    let spec = self.alloc(i.span)?;
                    let spec_str = self.string(ext.expression.value.as_str());
                    self.emit(Op::LoadStr(spec, spec_str), ext.span);
                    let r = self.alloc(i.span)?;
                    self.emit(Op::Import(r, spec, IMPORT_MODULE), ext.span);
                    let b = self
                        .resolve(i.id.name.as_str())
                        .expect("import bindings are hoisted");
                    self.store_binding(b, r, i.id.span);
                    self.release(m);
                }
                _ => {}
            }
        }
        Ok(())
    }
}
