//! Destructuring: binding patterns (declarations, parameters) and assignment patterns, with
//! defaults, rest, computed keys and iterator closing.

use super::*;

/// How a pattern binds: a declaration kind, a parameter, or an assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decl {
    Var,
    Let,
    Const,
    Param,
}

/// Every name a binding pattern declares, with its span.
pub(super) fn pattern_names(p: &BindingPattern<'_>, out: &mut Vec<(String, Span)>) {
    match p {
        BindingPattern::BindingIdentifier(id) => out.push((id.name.to_string(), id.span)),
        BindingPattern::ObjectPattern(o) => {
            for prop in &o.properties {
                pattern_names(&prop.value, out);
            }
            if let Some(r) = &o.rest {
                pattern_names(&r.argument, out);
            }
        }
        BindingPattern::ArrayPattern(a) => {
            for e in a.elements.iter().flatten() {
                pattern_names(e, out);
            }
            if let Some(r) = &a.rest {
                pattern_names(&r.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(a) => pattern_names(&a.left, out),
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// Bind `pattern` to the value in `src` (declared names already exist for let/const).
    pub(super) fn bind_pattern(
        &mut self,
        pattern: &'b BindingPattern<'a>,
        src: Reg,
        decl: Decl,
    ) -> R<()> {
        self.enter(pattern.span())?;
        let r = self.bind_pattern_inner(pattern, src, decl);
        self.leave();
        r
    }

    pub(super) fn bind_pattern_inner(
        &mut self,
        pattern: &'b BindingPattern<'a>,
        src: Reg,
        decl: Decl,
    ) -> R<()> {
        match pattern {
            BindingPattern::BindingIdentifier(id) => {
                let name = id.name.as_str();
                let b = match decl {
                    Decl::Param => self.declare(name, false, false, id.span)?,
                    _ => match self.resolve_local_only(name) {
                        Some(b) => b,
                        None => {
                            self.declare(name, decl != Decl::Var, decl == Decl::Const, id.span)?
                        }
                    },
                };
                self.store_binding(b, src, id.span);
                if matches!(decl, Decl::Let | Decl::Const) {
                    self.mark_initialized(name);
                }
            }
            BindingPattern::AssignmentPattern(a) => {
                let m = self.mark();
                let v = self.alloc(a.span)?;
                self.emit(Op::Move(v, src), a.span);
                let j = self.emit(Op::JumpIfUndefined(v, 0), a.span);
                let skip = self.emit(Op::Jump(0), a.span);
                self.patch_here(j);
                let name = match &a.left {
                    BindingPattern::BindingIdentifier(id) => id.name.as_str(),
                    _ => "",
                };
                self.expr_named(&a.right, v, name)?;
                self.patch_here(skip);
                self.bind_pattern(&a.left, v, decl)?;
                self.release(m);
            }
            BindingPattern::ObjectPattern(o) => {
                let m = self.mark();
                let keys = self.object_pattern_start(src, o.span, o.rest.is_some())?;
                for prop in &o.properties {
                    let mm = self.mark();
                    let v = self.alloc(prop.span)?;
                    let key = self.property_key_reg(&prop.key, prop.computed)?;
                    if let Some(k) = keys {
                        self.emit(Op::ArrayPush(k, key), prop.span);
                    }
                    self.emit(Op::GetElem(v, src, key), prop.span);
                    self.bind_pattern(&prop.value, v, decl)?;
                    self.release(mm);
                }
                if let (Some(rest), Some(k)) = (&o.rest, keys) {
                    let v = self.alloc(rest.span)?;
                    self.emit(Op::NewObject(v), rest.span);
                    self.emit(Op::CopyPropsExcept(v, src, k), rest.span);
                    self.bind_pattern(&rest.argument, v, decl)?;
                }
                self.release(m);
            }
            BindingPattern::ArrayPattern(a) => {
                let m = self.mark();
                let it = self.alloc(a.span)?;
                let res = self.alloc(a.span)?;
                let v = self.alloc(a.span)?;
                self.emit(Op::IterInit(it, src), a.span);
                for e in &a.elements {
                    self.iter_step_or_undefined(it, res, v, a.span);
                    if let Some(p) = e {
                        self.bind_pattern(p, v, decl)?;
                    }
                }
                if let Some(rest) = &a.rest {
                    self.iter_rest(it, res, v, rest.span)?;
                    self.bind_pattern(&rest.argument, v, decl)?;
                }
                self.release(m);
            }
        }
        Ok(())
    }

    /// v ← the iterator's next value, or undefined when it is done.
    pub(super) fn iter_step_or_undefined(&mut self, it: Reg, res: Reg, v: Reg, span: Span) {
        self.emit(Op::IterNext(res, it), span);
        let done = self.emit(Op::IterValue(v, res, it, 0), span);
        let skip = self.emit(Op::Jump(0), span);
        self.patch_here(done);
        self.emit(Op::LoadUndef(v), span);
        self.patch_here(skip);
    }

    /// v ← an array of the iterator's remaining values.
    pub(super) fn iter_rest(&mut self, it: Reg, res: Reg, v: Reg, span: Span) -> R<()> {
        let x = self.alloc(span)?;
        self.emit(Op::NewArray(v), span);
        let top = self.here();
        self.emit(Op::IterNext(res, it), span);
        let done = self.emit(Op::IterValue(x, res, it, 0), span);
        self.emit(Op::ArrayPush(v, x), span);
        self.emit(Op::Jump(top), span);
        self.patch_here(done);
        Ok(())
    }

    /// The start of an object pattern (binding or assignment) over `src`: the
    /// RequireObjectCoercible check, and with a rest element the array that collects the keys
    /// taken, so the rest copies the others.
    pub(super) fn object_pattern_start(
        &mut self,
        src: Reg,
        span: Span,
        rest: bool,
    ) -> R<Option<Reg>> {
        self.require_object_coercible(src, span)?;
        if !rest {
            return Ok(None);
        }
        let k = self.alloc(span)?;
        self.emit(Op::NewArray(k), span);
        Ok(Some(k))
    }

    pub(super) fn require_object_coercible(&mut self, src: Reg, span: Span) -> R<()> {
        let j = self.emit(Op::JumpIfNotNullish(src, 0), span);
        let msg = self.string("Cannot destructure 'undefined' or 'null'.");
        self.emit(Op::ThrowError(ErrorType::TypeError, msg), span);
        self.patch_here(j);
        Ok(())
    }

    /// A register holding a property key (a string constant or the computed value).
    pub(super) fn property_key_reg(&mut self, key: &'b PropertyKey<'a>, computed: bool) -> R<Reg> {
        let span = key.span();
        let r = self.alloc(span)?;
        match key {
            PropertyKey::StaticIdentifier(id) => {
                let s = self.string(id.name.as_str());
                self.emit(Op::LoadStr(r, s), span);
            }
            PropertyKey::PrivateIdentifier(p) => {
                return Err(self.unsupported(p.span, "private name", "Use an ordinary property."));
            }
            other => {
                let e = other.to_expression();
                match e {
                    Expression::StringLiteral(s) if !computed => {
                        let k = self.string(s.value.as_str());
                        self.emit(Op::LoadStr(r, k), span);
                    }
                    Expression::NumericLiteral(n) if !computed => {
                        let k = self.string(&crate::number::to_string(n.value));
                        self.emit(Op::LoadStr(r, k), span);
                    }
                    e => self.expr_to(e, r)?,
                }
            }
        }
        Ok(r)
    }

    /// Assign `src` to an assignment target (names, members, patterns).
    pub(super) fn assign_target(
        &mut self,
        t: &'b AssignmentTarget<'a>,
        src: Reg,
        span: Span,
    ) -> R<()> {
        self.enter(span)?;
        let r = self.assign_target_inner(t, src, span);
        self.leave();
        r
    }

    pub(super) fn assign_target_inner(
        &mut self,
        t: &'b AssignmentTarget<'a>,
        src: Reg,
        _span: Span,
    ) -> R<()> {
        match t {
            AssignmentTarget::AssignmentTargetIdentifier(id) => {
                self.assign_name(id.name.as_str(), src, id.span)?;
            }
            AssignmentTarget::StaticMemberExpression(_)
            | AssignmentTarget::ComputedMemberExpression(_)
            | AssignmentTarget::PrivateFieldExpression(_) => {
                let mm = self.mark();
                if let Some(m) = t.as_member_expression() {
                    let target = self.member_target(m, None)?;
                    self.write_target(target, src, m.span())?;
                }
                self.release(mm);
            }
            AssignmentTarget::TSAsExpression(e) => self.assign_expr_target(&e.expression, src)?,
            AssignmentTarget::TSSatisfiesExpression(e) => {
                self.assign_expr_target(&e.expression, src)?
            }
            AssignmentTarget::TSNonNullExpression(e) => {
                self.assign_expr_target(&e.expression, src)?
            }
            AssignmentTarget::TSTypeAssertion(e) => self.assign_expr_target(&e.expression, src)?,
            AssignmentTarget::ObjectAssignmentTarget(o) => {
                let m = self.mark();
                let keys = self.object_pattern_start(src, o.span, o.rest.is_some())?;
                for prop in &o.properties {
                    let mm = self.mark();
                    let v = self.alloc(prop.span())?;
                    match prop {
                        AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(p) => {
                            let key = self.alloc(p.span)?;
                            let s = self.string(p.binding.name.as_str());
                            self.emit(Op::LoadStr(key, s), p.span);
                            if let Some(k) = keys {
                                self.emit(Op::ArrayPush(k, key), p.span);
                            }
                            self.emit(Op::GetElem(v, src, key), p.span);
                            if let Some(init) = &p.init {
                                let j = self.emit(Op::JumpIfUndefined(v, 0), p.span);
                                let skip = self.emit(Op::Jump(0), p.span);
                                self.patch_here(j);
                                self.expr_named(init, v, p.binding.name.as_str())?;
                                self.patch_here(skip);
                            }
                            self.assign_name(p.binding.name.as_str(), v, p.span)?;
                        }
                        AssignmentTargetProperty::AssignmentTargetPropertyProperty(p) => {
                            let key = self.property_key_reg(&p.name, p.computed)?;
                            if let Some(k) = keys {
                                self.emit(Op::ArrayPush(k, key), p.span);
                            }
                            self.emit(Op::GetElem(v, src, key), p.span);
                            self.assign_maybe_default(&p.binding, v, p.span)?;
                        }
                    }
                    self.release(mm);
                }
                if let (Some(rest), Some(k)) = (&o.rest, keys) {
                    let v = self.alloc(rest.span)?;
                    self.emit(Op::NewObject(v), rest.span);
                    self.emit(Op::CopyPropsExcept(v, src, k), rest.span);
                    self.assign_target(&rest.target, v, rest.span)?;
                }
                self.release(m);
            }
            AssignmentTarget::ArrayAssignmentTarget(a) => {
                let m = self.mark();
                let it = self.alloc(a.span)?;
                let res = self.alloc(a.span)?;
                let v = self.alloc(a.span)?;
                self.emit(Op::IterInit(it, src), a.span);
                for e in &a.elements {
                    self.iter_step_or_undefined(it, res, v, a.span);
                    if let Some(t) = e {
                        self.assign_maybe_default(t, v, a.span)?;
                    }
                }
                if let Some(rest) = &a.rest {
                    self.iter_rest(it, res, v, rest.span)?;
                    self.assign_target(&rest.target, v, rest.span)?;
                }
                self.release(m);
            }
        }
        Ok(())
    }

    pub(super) fn assign_maybe_default(
        &mut self,
        t: &'b AssignmentTargetMaybeDefault<'a>,
        v: Reg,
        span: Span,
    ) -> R<()> {
        match t {
            AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d) => {
                let j = self.emit(Op::JumpIfUndefined(v, 0), d.span);
                let skip = self.emit(Op::Jump(0), d.span);
                self.patch_here(j);
                self.expr_to(&d.init, v)?;
                self.patch_here(skip);
                self.assign_target(&d.binding, v, span)
            }
            other => self.assign_target(other.to_assignment_target(), v, span),
        }
    }

    /// Assignment through a TypeScript wrapper (`(x as any) = 1`).
    pub(super) fn assign_expr_target(&mut self, e: &'b Expression<'a>, src: Reg) -> R<()> {
        let mm = self.mark();
        let dst = self.alloc(e.span())?;
        let t = self.expr_target(e, None, dst)?;
        self.write_target(t, src, e.span())?;
        self.release(mm);
        Ok(())
    }
}
