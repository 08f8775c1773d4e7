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

/// A literal property key's name (`a`, `"quoted key"`, `0`).
fn static_key(key: &PropertyKey<'_>) -> Option<String> {
    match key {
        PropertyKey::StaticIdentifier(id) => Some(id.name.to_string()),
        PropertyKey::StringLiteral(s) => Some(s.value.to_string()),
        PropertyKey::NumericLiteral(n) => Some(crate::number::to_string(n.value)),
        _ => None,
    }
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

/// What V8's TypeError names the nullish value an object pattern destructures.
#[derive(Clone, Debug, Default)]
pub(super) enum Site {
    /// A pattern inside another (its value is a property or an element): V8 reports the
    /// first property read (`Cannot read properties of null (reading 'a')`).
    #[default]
    Nested,
    /// The destructured expression as V8's CallPrinter shows it (`cfg.db`, `getX(...)`).
    Text(String),
    /// A parameter: the value's type (`undefined`, `object null`).
    Value,
}

/// The first property of an object pattern, as V8's message uses it.
enum First {
    /// No properties (or only a rest element), or a computed key first.
    Unnamed,
    /// A literal key, and whether it has a default.
    Key(String, bool),
}

/// `e` as V8's CallPrinter shows a destructured value in `Cannot destructure property 'a' of
/// 'cfg.db' as it is undefined.`: names, member chains, calls as `f(...)`, literals, unary and
/// binary operations in parentheses; anything else is `(intermediate value)`.
pub(super) fn v8_site(e: &Expression<'_>) -> String {
    const OPAQUE: &str = "(intermediate value)";
    match e {
        Expression::Identifier(id) => id.name.to_string(),
        Expression::ThisExpression(_) => "this".to_string(),
        Expression::NullLiteral(_) => "null".to_string(),
        Expression::BooleanLiteral(b) => b.value.to_string(),
        Expression::NumericLiteral(n) => crate::number::to_string(n.value),
        Expression::StringLiteral(s) => format!("\"{}\"", s.value),
        Expression::ParenthesizedExpression(p) => v8_site(&p.expression),
        Expression::TSAsExpression(x) => v8_site(&x.expression),
        Expression::TSSatisfiesExpression(x) => v8_site(&x.expression),
        Expression::TSNonNullExpression(x) => v8_site(&x.expression),
        Expression::TSTypeAssertion(x) => v8_site(&x.expression),
        Expression::StaticMemberExpression(m) => {
            format!("{}.{}", v8_site(&m.object), m.property.name)
        }
        Expression::ComputedMemberExpression(m) => match &m.expression {
            Expression::StringLiteral(k) if k.value.parse::<u32>().is_err() => {
                format!("{}.{}", v8_site(&m.object), k.value)
            }
            k => format!("{}[{}]", v8_site(&m.object), v8_site(k)),
        },
        Expression::CallExpression(c) if !c.optional => format!("{}(...)", v8_site(&c.callee)),
        Expression::BinaryExpression(b) => format!(
            "({} {} {})",
            v8_site(&b.left),
            b.operator.as_str(),
            v8_site(&b.right)
        ),
        Expression::LogicalExpression(b) => format!(
            "({} {} {})",
            v8_site(&b.left),
            b.operator.as_str(),
            v8_site(&b.right)
        ),
        Expression::UnaryExpression(u) => {
            let op = u.operator.as_str();
            let space = if op.chars().all(|c| c.is_ascii_alphabetic()) {
                " "
            } else {
                ""
            };
            format!("({op}{space}{})", v8_site(&u.argument))
        }
        Expression::SequenceExpression(s) => {
            let parts: Vec<String> = s.expressions.iter().map(v8_site).collect();
            format!("({})", parts.join(" , "))
        }
        Expression::ArrayExpression(a) => {
            let parts: Vec<String> = a
                .elements
                .iter()
                .map(|el| match el.as_expression() {
                    Some(x) => v8_site(x),
                    None => OPAQUE.to_string(),
                })
                .collect();
            format!("[{}]", parts.join(","))
        }
        Expression::AssignmentExpression(a) => match a.left.as_simple_assignment_target() {
            Some(SimpleAssignmentTarget::AssignmentTargetIdentifier(id)) => id.name.to_string(),
            Some(t) => match t.as_member_expression() {
                Some(MemberExpression::StaticMemberExpression(m)) => {
                    format!("{}.{}", v8_site(&m.object), m.property.name)
                }
                _ => OPAQUE.to_string(),
            },
            None => OPAQUE.to_string(),
        },
        Expression::ConditionalExpression(_) => OPAQUE.repeat(3),
        _ => OPAQUE.to_string(),
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// [`Compiler::bind_pattern`] of a top-level pattern whose value V8 names as `site`.
    pub(super) fn bind_top(
        &mut self,
        pattern: &'b BindingPattern<'a>,
        src: Reg,
        decl: Decl,
        site: Site,
    ) -> R<()> {
        self.pattern_site = site;
        let r = self.bind_pattern(pattern, src, decl);
        self.pattern_site = Site::Nested;
        r
    }

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
                let first = match o.properties.first() {
                    Some(p) if !p.computed => match static_key(&p.key) {
                        Some(k) => {
                            First::Key(k, matches!(p.value, BindingPattern::AssignmentPattern(_)))
                        }
                        None => First::Unnamed,
                    },
                    _ => First::Unnamed,
                };
                let keys = self.object_pattern_start(src, o.span, o.rest.is_some(), first)?;
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
                self.pattern_site = Site::Nested;
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
    fn object_pattern_start(
        &mut self,
        src: Reg,
        span: Span,
        rest: bool,
        first: First,
    ) -> R<Option<Reg>> {
        let site = std::mem::take(&mut self.pattern_site);
        self.require_object_coercible(src, span, site, first)?;
        if !rest {
            return Ok(None);
        }
        let k = self.alloc(span)?;
        self.emit(Op::NewArray(k), span);
        Ok(Some(k))
    }

    /// RequireObjectCoercible of a destructured value, with V8's message for null and for
    /// undefined.
    fn require_object_coercible(
        &mut self,
        src: Reg,
        span: Span,
        site: Site,
        first: First,
    ) -> R<()> {
        let message = |v: &str| {
            let shown = match &site {
                Site::Text(t) => t.clone(),
                Site::Value if v == "null" => "object null".to_string(),
                Site::Value => "undefined".to_string(),
                Site::Nested => "(intermediate value)".to_string(),
            };
            match (&site, &first) {
                (Site::Nested, First::Key(k, _)) | (_, First::Key(k, true)) => {
                    format!("Cannot read properties of {v} (reading '{k}')")
                }
                (_, First::Key(k, false)) => {
                    format!("Cannot destructure property '{k}' of '{shown}' as it is {v}.")
                }
                (_, First::Unnamed) => format!("Cannot destructure '{shown}' as it is {v}."),
            }
        };
        let (null_msg, undefined_msg) = (message("null"), message("undefined"));
        let j = self.emit(Op::JumpIfNotNullish(src, 0), span);
        let ju = self.emit(Op::JumpIfUndefined(src, 0), span);
        let msg = self.string(&null_msg);
        self.emit(Op::ThrowError(ErrorType::TypeError, msg), span);
        self.patch_here(ju);
        let msg = self.string(&undefined_msg);
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
                let first = match o.properties.first() {
                    Some(AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(p)) => {
                        First::Key(p.binding.name.to_string(), p.init.is_some())
                    }
                    Some(AssignmentTargetProperty::AssignmentTargetPropertyProperty(p))
                        if !p.computed =>
                    {
                        match static_key(&p.name) {
                            Some(k) => First::Key(
                                k,
                                matches!(
                                    p.binding,
                                    AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(_)
                                ),
                            ),
                            None => First::Unnamed,
                        }
                    }
                    _ => First::Unnamed,
                };
                let keys = self.object_pattern_start(src, o.span, o.rest.is_some(), first)?;
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
                self.pattern_site = Site::Nested;
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
