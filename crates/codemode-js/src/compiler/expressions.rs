//! Expressions: names, members, optional chains, templates, operators, assignment, object
//! literals, calls and `new`.

use super::*;

/// What to call an expression outside the subset, and what to write instead.
pub(super) fn unsupported_expression(e: &Expression<'_>) -> (&'static str, &'static str) {
    match e {
        Expression::BigIntLiteral(_) => ("BigInt", "Use Numbers (exact up to 2^53)."),
        Expression::Super(_) => (
            "super",
            "`super` is only valid as `super(...)`, `super.x` or `super[x]` inside methods.",
        ),
        Expression::ImportMeta(_) => ("import.meta", "The program is not a module."),
        Expression::JSXElement(_) | Expression::JSXFragment(_) => {
            ("JSX", "Build strings or objects instead.")
        }
        _ => ("expression", "Rewrite it with plain functions and objects."),
    }
}

pub(super) fn binop(op: BinaryOperator) -> BinOp {
    use BinaryOperator as B;
    match op {
        B::Equality => BinOp::Eq,
        B::Inequality => BinOp::Ne,
        B::StrictEquality => BinOp::StrictEq,
        B::StrictInequality => BinOp::StrictNe,
        B::LessThan => BinOp::Lt,
        B::LessEqualThan => BinOp::Le,
        B::GreaterThan => BinOp::Gt,
        B::GreaterEqualThan => BinOp::Ge,
        B::Addition => BinOp::Add,
        B::Subtraction => BinOp::Sub,
        B::Multiplication => BinOp::Mul,
        B::Division => BinOp::Div,
        B::Remainder => BinOp::Rem,
        B::Exponential => BinOp::Exp,
        B::ShiftLeft => BinOp::Shl,
        B::ShiftRight => BinOp::Shr,
        B::ShiftRightZeroFill => BinOp::UShr,
        B::BitwiseOR => BinOp::BitOr,
        B::BitwiseXOR => BinOp::BitXor,
        B::BitwiseAnd => BinOp::BitAnd,
        B::In => BinOp::In,
        B::Instanceof => BinOp::InstanceOf,
    }
}

/// `e` is an anonymous function definition (takes its name from where it is defined).
fn anonymous_function(e: &Expression<'_>) -> bool {
    match e {
        Expression::FunctionExpression(f) => f.id.is_none(),
        Expression::ArrowFunctionExpression(_) => true,
        Expression::ClassExpression(c) => c.id.is_none(),
        Expression::ParenthesizedExpression(p) => anonymous_function(&p.expression),
        _ => false,
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// Compile `e` into `dst`, naming an anonymous function or arrow `name`.
    pub(super) fn expr_named(&mut self, e: &'b Expression<'a>, dst: Reg, name: &str) -> R<()> {
        match e {
            Expression::FunctionExpression(f) if f.id.is_none() => self.function(f, dst, name),
            Expression::ArrowFunctionExpression(a) => self.arrow(a, dst, name),
            Expression::ClassExpression(c) if c.id.is_none() => self.class(c, dst, name),
            Expression::ParenthesizedExpression(p) => self.expr_named(&p.expression, dst, name),
            _ => self.expr_to(e, dst),
        }
    }

    pub(super) fn expr_to(&mut self, e: &'b Expression<'a>, dst: Reg) -> R<()> {
        self.enter(e.span())?;
        let m = self.mark();
        let r = self.expr_inner(e, dst);
        self.release(m);
        self.leave();
        r
    }

    pub(super) fn expr_inner(&mut self, e: &'b Expression<'a>, dst: Reg) -> R<()> {
        let span = e.span();
        match e {
            Expression::NumericLiteral(n) => {
                self.emit(Op::LoadNum(dst, n.value), span);
            }
            Expression::StringLiteral(s) => {
                let k = if s.lone_surrogates {
                    self.lone_surrogate_string(s.value.as_str())
                } else {
                    self.string(s.value.as_str())
                };
                self.emit(Op::LoadStr(dst, k), span);
            }
            Expression::BooleanLiteral(b) => {
                self.emit(Op::LoadBool(dst, b.value), span);
            }
            Expression::RegExpLiteral(r) => {
                let p = self.string(r.regex.pattern.text.as_str());
                let f = self.string(&r.regex.flags.to_string());
                self.emit(Op::NewRegExp(dst, p, f), span);
            }
            Expression::NullLiteral(_) => {
                self.emit(Op::LoadNull(dst), span);
            }
            Expression::Identifier(id) => self.identifier(id.name.as_str(), dst, span)?,
            Expression::ThisExpression(_) => match self.resolve("this") {
                Some(b) => self.load_binding(b, "this", dst, span),
                None => {
                    self.emit(Op::LoadUndef(dst), span);
                }
            },
            Expression::TemplateLiteral(t) => self.template(t, dst)?,
            Expression::TaggedTemplateExpression(t) => self.tagged_template(t, dst)?,
            Expression::ParenthesizedExpression(p) => self.expr_to(&p.expression, dst)?,
            Expression::TSAsExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSSatisfiesExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSNonNullExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSTypeAssertion(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSInstantiationExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::SequenceExpression(sq) => {
                for x in &sq.expressions {
                    self.expr_to(x, dst)?;
                }
            }
            Expression::ConditionalExpression(c) => {
                self.expr_to(&c.test, dst)?;
                let j = self.emit(Op::JumpIfFalse(dst, 0), span);
                self.expr_to(&c.consequent, dst)?;
                let end = self.emit(Op::Jump(0), span);
                self.patch_here(j);
                self.expr_to(&c.alternate, dst)?;
                self.patch_here(end);
            }
            Expression::LogicalExpression(l) => {
                self.expr_to(&l.left, dst)?;
                let j = match l.operator {
                    LogicalOperator::And => self.emit(Op::JumpIfFalse(dst, 0), span),
                    LogicalOperator::Or => self.emit(Op::JumpIfTrue(dst, 0), span),
                    LogicalOperator::Coalesce => self.emit(Op::JumpIfNotNullish(dst, 0), span),
                };
                self.expr_to(&l.right, dst)?;
                self.patch_here(j);
            }
            Expression::BinaryExpression(b) => {
                // A left-leaning chain (`s + a + b + ...`, as long as a model writes it) is
                // compiled in a loop, not one recursion a term: the parser builds it in a loop
                // too, so its length is bounded by the source size alone.
                let mut chain = vec![&**b];
                while let Expression::BinaryExpression(inner) = &chain[chain.len() - 1].left {
                    chain.push(inner);
                }
                // Locals in registers are operands as they are (no copy): the left one only
                // when the right operand cannot assign it first (`i + (i = 1)`).
                let a = self.alloc(span)?;
                let c = self.alloc(span)?;
                let inner = chain[chain.len() - 1];
                let mut left = self.operand(&inner.left, Some(a), !may_assign(&inner.right, 0))?;
                for (k, link) in chain.iter().enumerate().rev() {
                    let out = if k == 0 { dst } else { a };
                    let op = binop(link.operator);
                    self.binary_into(op, out, left, &link.right, Some(c), link.span)?;
                    left = a;
                }
            }
            Expression::UnaryExpression(u) => self.unary(u, dst)?,
            Expression::UpdateExpression(u) => self.update(u, dst)?,
            Expression::AssignmentExpression(a) => self.assignment(a, dst)?,
            Expression::ArrayExpression(a) => {
                self.emit(Op::NewArray(dst), span);
                for el in &a.elements {
                    match el {
                        ArrayExpressionElement::SpreadElement(sp) => {
                            let v = self.alloc(sp.span)?;
                            self.expr_to(&sp.argument, v)?;
                            self.spread_into(dst, v, sp.span)?;
                            self.release(v as u32);
                        }
                        ArrayExpressionElement::Elision(el) => {
                            self.emit(Op::ArrayHole(dst), el.span);
                        }
                        other => {
                            let v = self.alloc(span)?;
                            self.expr_to(other.to_expression(), v)?;
                            self.emit(Op::ArrayPush(dst, v), span);
                            self.release(v as u32);
                        }
                    }
                }
            }
            Expression::ObjectExpression(o) => self.object(o, dst)?,
            Expression::FunctionExpression(f) => self.function(f, dst, "")?,
            Expression::ClassExpression(c) => {
                let name = c.id.as_ref().map_or("", |id| id.name.as_str());
                self.class(c, dst, name)?
            }
            Expression::ArrowFunctionExpression(a) => self.arrow(a, dst, "")?,
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => {
                self.member(e.to_member_expression(), dst)?;
            }
            Expression::ChainExpression(c) => {
                self.f().chains.push(Vec::new());
                match &c.expression {
                    ChainElement::CallExpression(call) => self.call(call, dst)?,
                    ChainElement::TSNonNullExpression(x) => self.expr_to(&x.expression, dst)?,
                    other => self.member(other.to_member_expression(), dst)?,
                }
                let exits = self.f().chains.pop().unwrap_or_default();
                if !exits.is_empty() {
                    let end = self.emit(Op::Jump(0), span);
                    for x in exits {
                        self.patch_here(x);
                    }
                    self.emit(Op::LoadUndef(dst), span);
                    self.patch_here(end);
                }
            }
            Expression::CallExpression(call) => self.call(call, dst)?,
            Expression::AwaitExpression(a) => {
                let m = self.mark();
                let v = self.alloc(span)?;
                self.expr_to(&a.argument, v)?;
                self.emit(Op::Await(dst, v), span);
                self.release(m);
            }
            Expression::YieldExpression(y) => self.yield_expr(y, dst)?,
            Expression::NewTarget(_) => match self.resolve("new.target") {
                Some(b) => self.load_binding(b, "new.target", dst, span),
                None => {
                    self.emit(Op::LoadUndef(dst), span);
                }
            },
            Expression::ImportExpression(i) if i.phase.is_none() => {
                // `import(m)`: a promise of m's namespace (`builtins/modules.rs`); options
                // are evaluated and ignored.
                let m = self.mark();
                let s = self.alloc(span)?;
                self.expr_to(&i.source, s)?;
                if let Some(o) = &i.options {
                    let t = self.alloc(span)?;
                    self.expr_to(o, t)?;
                }
                self.emit(
                    Op::Import(dst, s, crate::builtins::modules::IMPORT_DYNAMIC),
                    span,
                );
                self.release(m);
            }
            Expression::PrivateInExpression(p) => {
                let o = self.alloc(span)?;
                self.expr_to(&p.right, o)?;
                let (n, _) = self.private_ref(&format!("#{}", p.left.name), p.left.span)?;
                self.emit(Op::HasPrivate(dst, o, n), span);
            }
            Expression::NewExpression(n) => {
                let callee = self.alloc(span)?;
                self.expr_to(&n.callee, callee)?;
                let at = match self.arguments(&n.arguments, span)? {
                    Args::Regs(first, count) => self.emit(Op::New(dst, callee, first, count), span),
                    Args::Array(arr) => self.emit(Op::NewSpread(dst, callee, arr), span),
                };
                self.note_callee(at, n.callee.span());
            }
            other => {
                let (what, hint) = unsupported_expression(other);
                return Err(self.unsupported(other.span(), what, hint));
            }
        }
        Ok(())
    }

    /// A string literal with lone surrogates: oxc writes each as U+FFFD followed by its four
    /// hex digits (`\u{FFFD}` itself as `\u{FFFD}fffd`).
    pub(super) fn lone_surrogate_string(&mut self, s: &str) -> u32 {
        let mut units: Vec<u16> = Vec::new();
        let mut it = s.chars().peekable();
        while let Some(c) = it.next() {
            if c == '\u{fffd}' {
                let hex: String = it.clone().take(4).collect();
                if let Ok(u) = u16::from_str_radix(&hex, 16) {
                    for _ in 0..4 {
                        it.next();
                    }
                    units.push(u);
                    continue;
                }
            }
            let mut buf = [0u16; 2];
            units.extend_from_slice(c.encode_utf16(&mut buf));
        }
        let i = self.data.strings.len() as u32;
        self.data.strings.push(JsStr::from_units(units));
        i
    }

    pub(super) fn identifier(&mut self, name: &str, dst: Reg, span: Span) -> R<()> {
        if name == "arguments" && self.in_initializer {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                "'arguments' is not allowed in class field initializer or static initialization block".into(),
            ));
        }
        match self.resolve(name) {
            Some(b) => self.load_binding(b, name, dst, span),
            None => match name {
                "undefined" => {
                    self.emit(Op::LoadUndef(dst), span);
                }
                "eval" => {
                    return Err(self.unsupported(
                        span,
                        "eval",
                        "Code cannot be evaluated at run time; write it directly in the program.",
                    ));
                }
                _ => {
                    let n = self.string(name);
                    self.emit(Op::GetGlobal(dst, n), span);
                }
            },
        }
        Ok(())
    }

    pub(super) fn member(&mut self, m: &'b MemberExpression<'a>, dst: Reg) -> R<()> {
        let span = m.span();
        if matches!(m.object(), Expression::Super(_)) {
            let Target::Super(home, k, this) = self.super_target(m)? else {
                return Ok(());
            };
            self.emit(Op::GetSuper(dst, home, k, this), span);
            return Ok(());
        }
        match m {
            MemberExpression::StaticMemberExpression(m) => {
                let o = self.operand(&m.object, None, true)?;
                if m.optional {
                    self.chain_check(o, span);
                }
                let k = self.string(m.property.name.as_str());
                let at = self.emit(Op::GetProp(dst, o, k), m.property.span);
                self.note_object(at, m.object.span());
            }
            MemberExpression::ComputedMemberExpression(m) => {
                let o = self.operand(&m.object, None, !may_assign(&m.expression, 0))?;
                if m.optional {
                    self.chain_check(o, span);
                }
                let k = self.operand(&m.expression, None, true)?;
                let at = self.emit(Op::GetElem(dst, o, k), span);
                self.note_object(at, m.object.span());
            }
            MemberExpression::PrivateFieldExpression(p) => {
                let o = self.alloc(span)?;
                self.expr_to(&p.object, o)?;
                if p.optional {
                    self.chain_check(o, span);
                }
                let (n, class) = self.private_ref(&format!("#{}", p.field.name), p.field.span)?;
                self.emit(Op::GetPrivate(dst, o, n, class), p.field.span);
            }
        }
        Ok(())
    }

    /// `super.x` / `super[x]`: the home object, the key and `this` in registers.
    pub(super) fn super_target(&mut self, m: &'b MemberExpression<'a>) -> R<Target<'b>> {
        let span = m.span();
        let home = self.alloc(span)?;
        match self.resolve("%home") {
            Some(b) => self.load_binding(b, "%home", home, span),
            None => {
                return Err(self.err(
                    span,
                    ErrorKind::ParseError,
                    "'super' keyword unexpected here".into(),
                ));
            }
        }
        let this = self.alloc(span)?;
        if let Some(b) = self.resolve("this") {
            self.load_binding(b, "this", this, span);
        }
        let k = self.alloc(span)?;
        match m {
            MemberExpression::StaticMemberExpression(s) => {
                let n = self.string(s.property.name.as_str());
                self.emit(Op::LoadStr(k, n), span);
            }
            MemberExpression::ComputedMemberExpression(c) => {
                self.expr_to(&c.expression, k)?;
                self.emit(Op::ToPropertyKey(k, k), span);
            }
            MemberExpression::PrivateFieldExpression(p) => {
                return Err(self.err(
                    p.span,
                    ErrorKind::ParseError,
                    "Unexpected private field".into(),
                ));
            }
        }
        Ok(Target::Super(home, k, this))
    }

    /// Record the callee's source text of the call instruction `at` (short one-line texts).
    /// Note the source text of the object a property read at `at` reads from.
    pub(super) fn note_object(&mut self, at: usize, object: Span) {
        let text = &self.src[object.start as usize..object.end as usize];
        if text.len() <= 60 && !text.contains('\n') {
            let k = self.string(text);
            self.f().proto.object_text.push((at as u32, k));
        }
    }

    pub(super) fn note_callee(&mut self, at: usize, callee: Span) {
        let text = &self.src[callee.start as usize..callee.end as usize];
        if text.len() <= 80 && !text.contains('\n') {
            let k = self.string(text);
            self.f().proto.callee_text.push((at as u32, k));
        }
    }

    /// In an optional chain: jump to the chain's end (undefined) when `r` is nullish.
    pub(super) fn chain_check(&mut self, r: Reg, span: Span) {
        let j = self.emit(Op::JumpIfNullish(r, 0), span);
        if let Some(c) = self.f().chains.last_mut() {
            c.push(j);
        }
    }

    pub(super) fn template(&mut self, t: &'b TemplateLiteral<'a>, dst: Reg) -> R<()> {
        let first = t
            .quasis
            .first()
            .and_then(|q| q.value.cooked.as_ref())
            .map_or("", |c| c.as_str());
        let k = self.string(first);
        self.emit(Op::LoadStr(dst, k), t.span);
        let part = self.alloc(t.span)?;
        for (i, e) in t.expressions.iter().enumerate() {
            self.expr_to(e, part)?;
            self.emit(Op::Unary(UnOp::ToStr, part, part), e.span());
            self.emit(Op::Binary(BinOp::Add, dst, dst, part), e.span());
            if let Some(q) = t.quasis.get(i + 1) {
                let text = q.value.cooked.as_ref().map_or("", |c| c.as_str());
                if !text.is_empty() {
                    let k = self.string(text);
                    self.emit(Op::LoadStr(part, k), q.span);
                    self.emit(Op::Binary(BinOp::Add, dst, dst, part), q.span);
                }
            }
        }
        Ok(())
    }

    pub(super) fn unary(&mut self, u: &'b UnaryExpression<'a>, dst: Reg) -> R<()> {
        let span = u.span;
        let op = match u.operator {
            UnaryOperator::UnaryNegation => UnOp::Neg,
            UnaryOperator::UnaryPlus => UnOp::Plus,
            UnaryOperator::LogicalNot => UnOp::Not,
            UnaryOperator::BitwiseNot => UnOp::BitNot,
            UnaryOperator::Typeof => {
                if let Expression::Identifier(id) = u.argument.without_parentheses()
                    && self.resolve(id.name.as_str()).is_none()
                    && id.name != "undefined"
                {
                    let n = self.string(id.name.as_str());
                    self.emit(Op::TypeofGlobal(dst, n), span);
                    return Ok(());
                }
                UnOp::Typeof
            }
            UnaryOperator::Void => {
                self.expr_to(&u.argument, dst)?;
                self.emit(Op::LoadUndef(dst), span);
                return Ok(());
            }
            UnaryOperator::Delete => {
                let private = match u.argument.without_parentheses() {
                    Expression::PrivateFieldExpression(_) => true,
                    Expression::ChainExpression(c) => {
                        matches!(c.expression, ChainElement::PrivateFieldExpression(_))
                    }
                    _ => false,
                };
                if private {
                    return Err(self.err(
                        span,
                        ErrorKind::ParseError,
                        "Private fields can not be deleted".into(),
                    ));
                }
                match u.argument.without_parentheses() {
                    Expression::StaticMemberExpression(m) => {
                        let o = self.alloc(span)?;
                        self.expr_to(&m.object, o)?;
                        let k = self.alloc(span)?;
                        let s = self.string(m.property.name.as_str());
                        self.emit(Op::LoadStr(k, s), span);
                        self.emit(Op::DeleteElem(dst, o, k), span);
                    }
                    Expression::ComputedMemberExpression(m) => {
                        let o = self.alloc(span)?;
                        self.expr_to(&m.object, o)?;
                        let k = self.alloc(span)?;
                        self.expr_to(&m.expression, k)?;
                        self.emit(Op::DeleteElem(dst, o, k), span);
                    }
                    Expression::Identifier(_) => {
                        return Err(self.err(
                            span,
                            ErrorKind::ParseError,
                            "Delete of an unqualified identifier in strict mode.".into(),
                        ));
                    }
                    other => {
                        self.expr_to(other, dst)?;
                        self.emit(Op::LoadBool(dst, true), span);
                    }
                }
                return Ok(());
            }
        };
        self.expr_to(&u.argument, dst)?;
        self.emit(Op::Unary(op, dst, dst), span);
        Ok(())
    }

    /// Evaluate a member target's object (and key); read its value into `read` when asked.
    pub(super) fn member_target(
        &mut self,
        m: &'b MemberExpression<'a>,
        read: Option<Reg>,
    ) -> R<Target<'b>> {
        let span = m.span();
        if matches!(m.object(), Expression::Super(_)) {
            let t = self.super_target(m)?;
            if let (Some(d), Target::Super(home, k, this)) = (read, t) {
                self.emit(Op::GetSuper(d, home, k, this), span);
            }
            return Ok(t);
        }
        match m {
            MemberExpression::StaticMemberExpression(m) => {
                let o = self.alloc(span)?;
                self.expr_to(&m.object, o)?;
                let k = self.string(m.property.name.as_str());
                if let Some(d) = read {
                    self.emit(Op::GetProp(d, o, k), span);
                }
                Ok(Target::Prop(o, k))
            }
            MemberExpression::ComputedMemberExpression(m) => {
                let o = self.alloc(span)?;
                self.expr_to(&m.object, o)?;
                let k = self.alloc(span)?;
                self.expr_to(&m.expression, k)?;
                if let Some(d) = read {
                    self.emit(Op::GetElem(d, o, k), span);
                }
                Ok(Target::Elem(o, k))
            }
            MemberExpression::PrivateFieldExpression(p) => {
                let o = self.alloc(span)?;
                self.expr_to(&p.object, o)?;
                let (n, class) = self.private_ref(&format!("#{}", p.field.name), p.field.span)?;
                if let Some(d) = read {
                    self.emit(Op::GetPrivate(d, o, n, class), span);
                }
                Ok(Target::Private(o, n, class))
            }
        }
    }

    /// Read a simple assignment target into `dst`, returning how to write it back.
    pub(super) fn read_target(
        &mut self,
        t: &'b SimpleAssignmentTarget<'a>,
        dst: Reg,
    ) -> R<Target<'b>> {
        let span = t.span();
        if let Some(m) = t.as_member_expression() {
            return self.member_target(m, Some(dst));
        }
        match t {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => {
                self.identifier(id.name.as_str(), dst, span)?;
                Ok(Target::Name(id.name.as_str(), id.span))
            }
            SimpleAssignmentTarget::TSAsExpression(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            SimpleAssignmentTarget::TSNonNullExpression(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            SimpleAssignmentTarget::TSSatisfiesExpression(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            SimpleAssignmentTarget::TSTypeAssertion(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            other => Err(self.err(
                other.span(),
                ErrorKind::ParseError,
                "Invalid left-hand side in assignment".into(),
            )),
        }
    }

    /// An expression used as an assignment target (inside TypeScript wrappers), read into
    /// `read` when asked (`scratch` is a register the caller owns).
    pub(super) fn expr_target(
        &mut self,
        e: &'b Expression<'a>,
        read: Option<Reg>,
        scratch: Reg,
    ) -> R<Target<'b>> {
        let e = e.without_parentheses();
        if let Some(m) = e.as_member_expression() {
            return self.member_target(m, read);
        }
        match e {
            Expression::Identifier(id) => {
                self.identifier(id.name.as_str(), read.unwrap_or(scratch), id.span)?;
                Ok(Target::Name(id.name.as_str(), id.span))
            }
            Expression::TSAsExpression(x) => self.expr_target(&x.expression, read, scratch),
            Expression::TSNonNullExpression(x) => self.expr_target(&x.expression, read, scratch),
            Expression::TSSatisfiesExpression(x) => self.expr_target(&x.expression, read, scratch),
            other => Err(self.err(
                other.span(),
                ErrorKind::ParseError,
                "Invalid left-hand side in assignment".into(),
            )),
        }
    }

    pub(super) fn write_target(&mut self, t: Target<'b>, src: Reg, span: Span) -> R<()> {
        match t {
            Target::Name(n, sp) => self.assign_name(n, src, sp)?,
            Target::Prop(o, k) => {
                self.emit(Op::SetProp(o, k, src), span);
            }
            Target::Elem(o, k) => {
                self.emit(Op::SetElem(o, k, src), span);
            }
            Target::Private(o, n, class) => {
                self.emit(Op::SetPrivate(o, n, src, class), span);
            }
            Target::Super(home, k, this) => {
                self.emit(Op::SetSuper(home, k, src, this), span);
            }
        }
        Ok(())
    }

    /// The register an instruction reads `e` from: a local's own register when `direct`
    /// allows it (nothing evaluated after `e` and before the instruction can assign that
    /// local), else `scratch` (or a fresh register) holding `e`'s value.
    fn operand(&mut self, e: &'b Expression<'a>, scratch: Option<Reg>, direct: bool) -> R<Reg> {
        if direct && let Some(r) = self.direct_reg(e) {
            return Ok(r);
        }
        let r = match scratch {
            Some(r) => r,
            None => self.alloc(e.span())?,
        };
        self.expr_to(e, r)?;
        Ok(r)
    }

    /// `dst ← left (op) right`: a Number literal right operand is folded into `BinaryK`,
    /// anything else is read through [`Self::operand`] (in `scratch` unless it is a local).
    fn binary_into(
        &mut self,
        op: BinOp,
        dst: Reg,
        left: Reg,
        right: &'b Expression<'a>,
        scratch: Option<Reg>,
        span: Span,
    ) -> R<()> {
        if let Expression::NumericLiteral(n) = right.without_parentheses() {
            self.emit(Op::BinaryK(op, dst, left, n.value), span);
            return Ok(());
        }
        let r = self.operand(right, scratch, true)?;
        self.emit(Op::Binary(op, dst, left, r), span);
        Ok(())
    }

    /// Compile `e` for its effects only (an expression statement, a `for` update): an update
    /// or assignment of a local register writes the register itself, with no copy of the
    /// expression's value.
    pub(super) fn expr_effect(&mut self, e: &'b Expression<'a>) -> R<()> {
        let span = e.span();
        match e {
            Expression::UpdateExpression(u) => {
                if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument
                    && let Some(l) = self.local_reg(id.name.as_str(), true)
                {
                    self.emit(Op::Unary(update_op(u.operator), l, l), span);
                    return Ok(());
                }
            }
            Expression::AssignmentExpression(a) => {
                if let AssignmentTarget::AssignmentTargetIdentifier(id) = &a.left
                    && let Some(l) = self.local_reg(id.name.as_str(), true)
                {
                    if a.operator == AssignmentOperator::Assign && self.writes_dst_last(&a.right) {
                        self.enter(span)?;
                        let m = self.mark();
                        let r = self.expr_named(&a.right, l, id.name.as_str());
                        self.release(m);
                        self.leave();
                        return r;
                    }
                    if let Some(op) = a.operator.to_binary_operator()
                        && !may_assign(&a.right, 0)
                    {
                        self.enter(span)?;
                        let m = self.mark();
                        let r = self.binary_into(binop(op), l, l, &a.right, None, span);
                        self.release(m);
                        self.leave();
                        return r;
                    }
                }
            }
            _ => {}
        }
        let m = self.mark();
        let r = self.alloc(span)?;
        self.expr_to(e, r)?;
        self.release(m);
        Ok(())
    }

    /// Whether compiling `e` into a register writes it only with its last instruction, after
    /// everything that can throw: then `x = e` may compile `e` straight into `x`.
    pub(super) fn writes_dst_last(&mut self, e: &Expression<'a>) -> bool {
        match e {
            Expression::NumericLiteral(_)
            | Expression::BooleanLiteral(_)
            | Expression::NullLiteral(_)
            | Expression::StringLiteral(_)
            | Expression::BinaryExpression(_)
            | Expression::FunctionExpression(_)
            | Expression::ArrowFunctionExpression(_) => true,
            Expression::StaticMemberExpression(m) => !m.optional,
            Expression::ComputedMemberExpression(m) => !m.optional,
            Expression::CallExpression(c) => !matches!(c.callee, Expression::Super(_)),
            Expression::Identifier(_) => self.direct_reg(e).is_some(),
            _ => false,
        }
    }

    pub(super) fn update(&mut self, u: &'b UpdateExpression<'a>, dst: Reg) -> R<()> {
        let span = u.span;
        if let SimpleAssignmentTarget::AssignmentTargetIdentifier(id) = &u.argument
            && let Some(l) = self.local_reg(id.name.as_str(), true)
        {
            let op = update_op(u.operator);
            if u.prefix {
                self.emit(Op::Unary(op, l, l), span);
                self.emit(Op::Move(dst, l), span);
            } else {
                self.emit(Op::Unary(UnOp::ToNumeric, dst, l), span);
                self.emit(Op::Unary(op, l, dst), span);
            }
            return Ok(());
        }
        let cur = self.alloc(span)?;
        let t = self.read_target(&u.argument, cur)?;
        let op = match u.operator {
            UpdateOperator::Increment => UnOp::Inc,
            UpdateOperator::Decrement => UnOp::Dec,
        };
        if u.prefix {
            self.emit(Op::Unary(op, cur, cur), span);
            self.write_target(t, cur, span)?;
            self.emit(Op::Move(dst, cur), span);
        } else {
            self.emit(Op::Unary(UnOp::ToNumeric, dst, cur), span);
            self.emit(Op::Unary(op, cur, dst), span);
            self.write_target(t, cur, span)?;
        }
        Ok(())
    }

    pub(super) fn assignment(&mut self, a: &'b AssignmentExpression<'a>, dst: Reg) -> R<()> {
        let span = a.span;
        if a.operator == AssignmentOperator::Assign {
            match &a.left {
                AssignmentTarget::AssignmentTargetIdentifier(id) => {
                    self.expr_named(&a.right, dst, id.name.as_str())?;
                    self.assign_name(id.name.as_str(), dst, id.span)?;
                }
                AssignmentTarget::StaticMemberExpression(m)
                    if !matches!(m.object, Expression::Super(_)) =>
                {
                    let o = self.alloc(span)?;
                    self.expr_to(&m.object, o)?;
                    self.expr_to(&a.right, dst)?;
                    let k = self.string(m.property.name.as_str());
                    self.emit(Op::SetProp(o, k, dst), span);
                }
                AssignmentTarget::ComputedMemberExpression(m)
                    if !matches!(m.object, Expression::Super(_)) =>
                {
                    let o = self.alloc(span)?;
                    self.expr_to(&m.object, o)?;
                    let k = self.alloc(span)?;
                    self.expr_to(&m.expression, k)?;
                    self.expr_to(&a.right, dst)?;
                    self.emit(Op::SetElem(o, k, dst), span);
                }
                AssignmentTarget::PrivateFieldExpression(_)
                | AssignmentTarget::StaticMemberExpression(_)
                | AssignmentTarget::ComputedMemberExpression(_) => {
                    if let Some(m) = a.left.as_member_expression() {
                        let t = self.member_target(m, None)?;
                        self.expr_to(&a.right, dst)?;
                        self.write_target(t, dst, span)?;
                    }
                }
                other => {
                    self.expr_to(&a.right, dst)?;
                    self.pattern_site = patterns::Site::Text(patterns::v8_site(&a.right));
                    let r = self.assign_target(other, dst, span);
                    self.pattern_site = patterns::Site::Nested;
                    r?;
                }
            }
            return Ok(());
        }
        let Some(simple) = a.left.as_simple_assignment_target() else {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                "Invalid left-hand side in assignment".into(),
            ));
        };
        let t = self.read_target(simple, dst)?;
        if let Some(l) = a.operator.to_logical_operator() {
            let j = match l {
                LogicalOperator::And => self.emit(Op::JumpIfFalse(dst, 0), span),
                LogicalOperator::Or => self.emit(Op::JumpIfTrue(dst, 0), span),
                LogicalOperator::Coalesce => self.emit(Op::JumpIfNotNullish(dst, 0), span),
            };
            let name = match t {
                Target::Name(n, _) => n,
                _ => "",
            };
            self.expr_named(&a.right, dst, name)?;
            self.write_target(t, dst, span)?;
            self.patch_here(j);
            return Ok(());
        }
        let Some(op) = a.operator.to_binary_operator() else {
            return Err(self.err(span, ErrorKind::ParseError, "Invalid assignment".into()));
        };
        let r = self.alloc(span)?;
        self.expr_to(&a.right, r)?;
        self.emit(Op::Binary(binop(op), dst, dst, r), span);
        self.write_target(t, dst, span)
    }

    pub(super) fn object(&mut self, o: &'b ObjectExpression<'a>, dst: Reg) -> R<()> {
        self.emit(Op::NewObject(dst), o.span);
        for p in &o.properties {
            let m = self.mark();
            match p {
                ObjectPropertyKind::SpreadProperty(sp) => {
                    let v = self.alloc(sp.span)?;
                    self.expr_to(&sp.argument, v)?;
                    self.emit(Op::CopyProps(dst, v), sp.span);
                }
                ObjectPropertyKind::ObjectProperty(prop) => {
                    let static_name = match &prop.key {
                        PropertyKey::StaticIdentifier(id) if !prop.computed => {
                            Some(id.name.to_string())
                        }
                        PropertyKey::StringLiteral(s) if !prop.computed => {
                            Some(s.value.to_string())
                        }
                        _ => None,
                    };
                    if static_name.as_deref() == Some("__proto__")
                        && prop.kind == PropertyKind::Init
                        && !prop.shorthand
                        && !prop.method
                    {
                        // Sets the prototype (a duplicate is an early error, `early.rs`).
                        let v = self.alloc(prop.span)?;
                        self.expr_to(&prop.value, v)?;
                        self.emit(Op::LiteralProto(dst, v), prop.span);
                        self.release(m);
                        continue;
                    }
                    let v = self.alloc(prop.span)?;
                    let name = static_name.clone().unwrap_or_default();
                    // Methods find `super` from the object itself.
                    let home = (prop.method || prop.kind != PropertyKind::Init)
                        && self.f().captured.contains("%home");
                    if home {
                        self.push_scope();
                        let h = self.fresh_cell("%home", prop.span)?;
                        self.store_binding(h, dst, prop.span);
                    }
                    let r = self.object_property(prop, dst, v, static_name, name);
                    if home {
                        self.f().scopes.pop();
                    }
                    r?;
                }
            }
            self.release(m);
        }
        Ok(())
    }

    /// One `key: value`, method or accessor of an object literal into `dst` (`v`: scratch).
    fn object_property(
        &mut self,
        prop: &'b ObjectProperty<'a>,
        dst: Reg,
        v: Reg,
        static_name: Option<String>,
        name: String,
    ) -> R<()> {
        match prop.kind {
            PropertyKind::Init => {
                // A computed key is evaluated before the value.
                let key = match static_name {
                    Some(_) => None,
                    None => Some(self.property_key_reg(&prop.key, prop.computed)?),
                };
                if prop.method {
                    self.method(&prop.value, v, &name)?;
                } else {
                    self.expr_named(&prop.value, v, &name)?;
                }
                match (static_name, key) {
                    (Some(n), _) => {
                        let k = self.string(&n);
                        self.emit(Op::DefineProp(dst, k, v), prop.span);
                    }
                    (None, Some(k)) => {
                        if prop.method || anonymous_function(&prop.value) {
                            self.emit(Op::NameFromKey(v, k, 0), prop.span);
                        }
                        self.emit(Op::DefineElem(dst, k, v), prop.span);
                    }
                    (None, None) => {}
                }
            }
            PropertyKind::Get | PropertyKind::Set => {
                let k = self.property_key_reg(&prop.key, prop.computed)?;
                let prefix = if prop.kind == PropertyKind::Get {
                    "get "
                } else {
                    "set "
                };
                self.method(&prop.value, v, &format!("{prefix}{name}"))?;
                if static_name.is_none() {
                    let kind = 1 + (prop.kind == PropertyKind::Set) as u8;
                    self.emit(Op::NameFromKey(v, k, kind), prop.span);
                }
                self.emit(
                    Op::DefineAccessor(dst, k, v, (prop.kind == PropertyKind::Set) as u8),
                    prop.span,
                );
            }
        }
        Ok(())
    }

    /// A method (not constructible, no `prototype`).
    pub(super) fn method(&mut self, e: &'b Expression<'a>, dst: Reg, name: &str) -> R<()> {
        let Expression::FunctionExpression(f) = e else {
            return self.expr_named(e, dst, name);
        };
        let Some(body) = &f.body else {
            self.emit(Op::LoadUndef(dst), f.span);
            return Ok(());
        };
        self.next_kind = FnKind {
            is_async: f.r#async,
            generator: f.generator,
        };
        let idx = self.function_body(
            f.span,
            name,
            Some(&f.params),
            &body.statements,
            None,
            false,
            false,
        )?;
        self.emit(Op::Closure(dst, idx), f.span);
        Ok(())
    }

    pub(super) fn arguments(&mut self, args: &'b [Argument<'a>], span: Span) -> R<Args> {
        if args.iter().any(|a| matches!(a, Argument::SpreadElement(_))) {
            let arr = self.alloc(span)?;
            self.emit(Op::NewArray(arr), span);
            for a in args {
                let v = self.alloc(span)?;
                match a {
                    Argument::SpreadElement(sp) => {
                        self.expr_to(&sp.argument, v)?;
                        self.spread_into(arr, v, sp.span)?;
                    }
                    other => {
                        self.expr_to(other.to_expression(), v)?;
                        self.emit(Op::ArrayPush(arr, v), span);
                    }
                }
                self.release(v as u32);
            }
            return Ok(Args::Array(arr));
        }
        let first = self.f().next_reg as Reg;
        let regs: Vec<Reg> = (0..args.len())
            .map(|_| self.alloc(span))
            .collect::<R<_>>()?;
        for (a, r) in args.iter().zip(&regs) {
            self.expr_to(a.to_expression(), *r)?;
        }
        Ok(Args::Regs(first, args.len() as u16))
    }

    pub(super) fn call(&mut self, call: &'b CallExpression<'a>, dst: Reg) -> R<()> {
        let span = call.span;
        let callee = self.alloc(span)?;
        let this = self.alloc(span)?;
        if let Expression::Super(_) = call.callee.without_parentheses() {
            let args = self.arguments(&call.arguments, span)?;
            return self.super_call(dst, args, span);
        }
        // A local callee or receiver is named in place when the arguments cannot assign it
        // before the call reads it (`f(f = g)` calls the old f).
        let args_pure = !call.optional
            && call
                .arguments
                .iter()
                .all(|a| a.as_expression().is_some_and(|x| !may_assign(x, 0)));
        let (mut callee, mut this) = (callee, this);
        let target = call.callee.without_parentheses();
        let member = match target {
            Expression::StaticMemberExpression(m) if !m.optional => Some(m),
            _ => None,
        };
        if args_pure && let Some(f) = self.direct_reg(target) {
            callee = f;
            self.emit(Op::LoadUndef(this), span);
        } else if args_pure
            && let Some(m) = member
            && let Some(o) = self.direct_reg(&m.object)
        {
            this = o;
            let k = self.string(m.property.name.as_str());
            let at = self.emit(Op::GetProp(callee, this, k), m.property.span);
            self.note_object(at, m.object.span());
        } else {
            self.callee_this(target, callee, this, span)?;
        }
        if call.optional {
            self.chain_check(callee, span);
        }
        let at = match self.arguments(&call.arguments, span)? {
            Args::Regs(first, count) => self.emit(Op::Call(dst, callee, this, first, count), span),
            Args::Array(arr) => self.emit(Op::CallSpread(dst, callee, this, arr), span),
        };
        self.note_callee(at, call.callee.span());
        Ok(())
    }

    /// Evaluate a call's callee into `callee` and its `this` value into `this`: a member's
    /// object (`this` itself for `super.m`), `undefined` otherwise.
    fn callee_this(&mut self, e: &'b Expression<'a>, callee: Reg, this: Reg, span: Span) -> R<()> {
        if let Some(m) = e.as_member_expression()
            && matches!(m.object(), Expression::Super(_))
        {
            if let Some(b) = self.resolve("this") {
                self.load_binding(b, "this", this, span);
            }
            return self.member(m, callee);
        }
        match e {
            Expression::StaticMemberExpression(m) => {
                self.expr_to(&m.object, this)?;
                if m.optional {
                    self.chain_check(this, span);
                }
                let k = self.string(m.property.name.as_str());
                let at = self.emit(Op::GetProp(callee, this, k), m.property.span);
                self.note_object(at, m.object.span());
            }
            Expression::ComputedMemberExpression(m) => {
                self.expr_to(&m.object, this)?;
                if m.optional {
                    self.chain_check(this, span);
                }
                let k = self.alloc(span)?;
                self.expr_to(&m.expression, k)?;
                let at = self.emit(Op::GetElem(callee, this, k), span);
                self.note_object(at, m.object.span());
            }
            Expression::PrivateFieldExpression(p) => {
                self.expr_to(&p.object, this)?;
                if p.optional {
                    self.chain_check(this, span);
                }
                let (n, class) = self.private_ref(&format!("#{}", p.field.name), p.field.span)?;
                self.emit(Op::GetPrivate(callee, this, n, class), p.field.span);
            }
            other => {
                if let Expression::Identifier(id) = other
                    && id.name == "eval"
                    && self.resolve("eval").is_none()
                {
                    return Err(self.unsupported(
                        span,
                        "eval",
                        "Code cannot be evaluated at run time; write it directly in the program.",
                    ));
                }
                self.expr_to(other, callee)?;
                self.emit(Op::LoadUndef(this), span);
            }
        }
        Ok(())
    }

    /// A tagged template (§13.3.11): the tag called with the site's template object and the
    /// substitutions, `this` bound as for a call of the same callee.
    pub(super) fn tagged_template(
        &mut self,
        t: &'b TaggedTemplateExpression<'a>,
        dst: Reg,
    ) -> R<()> {
        let span = t.span;
        let callee = self.alloc(span)?;
        let this = self.alloc(span)?;
        self.callee_this(t.tag.without_parentheses(), callee, this, span)?;
        let mut site = TemplateSite::default();
        for q in &t.quasi.quasis {
            let cooked = q.value.cooked.as_ref().map(|c| self.string(c.as_str()));
            site.cooked.push(cooked);
            let raw = q
                .value
                .raw
                .as_str()
                .replace("\r\n", "\n")
                .replace('\r', "\n");
            site.raw.push(self.string(&raw));
        }
        let index = self.data.templates.len() as u32;
        self.data.templates.push(site);
        let count = t.quasi.expressions.len() + 1;
        let first = self.f().next_reg as Reg;
        let regs: Vec<Reg> = (0..count).map(|_| self.alloc(span)).collect::<R<_>>()?;
        self.emit(Op::Template(first, index), t.quasi.span);
        for (e, r) in t.quasi.expressions.iter().zip(&regs[1..]) {
            self.expr_to(e, *r)?;
        }
        let at = self.emit(Op::Call(dst, callee, this, first, count as u16), span);
        self.note_callee(at, t.tag.span());
        Ok(())
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// `...v` into array `arr`: built-in iterables at once, any other through the iterator
    /// protocol (user iterables and generators).
    pub(super) fn spread_into(&mut self, arr: Reg, v: Reg, span: Span) -> R<()> {
        let fast = self.emit(Op::ArraySpread(arr, v, 0), span);
        let m = self.mark();
        let it = self.alloc(span)?;
        let res = self.alloc(span)?;
        let val = self.alloc(span)?;
        self.emit(Op::IterInit(it, v), span);
        let top = self.here();
        self.emit(Op::IterNext(res, it), span);
        let exit = self.emit(Op::IterValue(val, res, it, 0), span);
        self.emit(Op::ArrayPush(arr, val), span);
        self.emit(Op::Jump(top), span);
        self.patch_here(exit);
        self.patch_here(fast);
        self.release(m);
        Ok(())
    }

    /// `yield* inner` in a generator (ECMA-262 §15.5.5): the inner iterator's results pass
    /// through as they are; `next`/`throw`/`return` sent to the generator go to it; its final
    /// value is the expression's, a `return` that finishes it returns from the generator.
    /// In an async generator the iterator is the async one, each inner result is awaited,
    /// the inner values are yielded (not the result objects), and return values are awaited.
    fn yield_star(&mut self, y: &'b YieldExpression<'a>, dst: Reg, is_async: bool) -> R<()> {
        let span = y.span;
        let m = self.mark();
        let src = self.alloc(span)?;
        match &y.argument {
            Some(e) => self.expr_to(e, src)?,
            None => {
                self.emit(Op::LoadUndef(src), span);
            }
        }
        let it = self.alloc(span)?;
        let res = self.alloc(span)?;
        let d = self.alloc(span)?;
        let r = self.alloc(span)?;
        let mode = self.alloc(span)?;
        debug_assert_eq!(mode, r + 1);
        let two = self.alloc(span)?;
        if is_async {
            self.emit(Op::AsyncIter(it, src), span);
        } else {
            self.emit(Op::IterInit(it, src), span);
        }
        self.emit(Op::LoadUndef(r), span);
        self.emit(Op::LoadNum(mode, 0.0), span);
        let top = self.here();
        self.emit(Op::Delegate(res, it, r), span);
        if is_async {
            self.emit(Op::Await(res, res), span);
        }
        let exit = self.emit(Op::DelegateResult(d, res, r, 0), span);
        if is_async {
            let val = self.alloc(span)?;
            let k = self.string("value");
            self.emit(Op::GetProp(val, res, k), span);
            self.emit(Op::YieldDelegate(r, val), span);
            // A `return(x)` sent to the generator is awaited first
            // (AsyncGeneratorUnwrapYieldResumption).
            self.emit(Op::LoadNum(two, 2.0), span);
            self.emit(Op::Binary(BinOp::StrictEq, two, mode, two), span);
            let skip = self.emit(Op::JumpIfFalse(two, 0), span);
            self.emit(Op::Await(r, r), span);
            self.patch_here(skip);
        } else {
            self.emit(Op::YieldDelegate(r, res), span);
        }
        self.emit(Op::Jump(top), span);
        self.patch_here(exit);
        self.emit(Op::LoadNum(two, 2.0), span);
        self.emit(Op::Binary(BinOp::StrictEq, two, mode, two), span);
        let j = self.emit(Op::JumpIfFalse(two, 0), span);
        if is_async {
            self.emit(Op::Await(d, d), span);
        }
        self.unwind_ctx(0, span)?;
        self.emit_return(d, span)?;
        self.patch_here(j);
        self.emit(Op::Move(dst, d), span);
        self.release(m);
        Ok(())
    }

    /// `yield v` (ECMA-262 §15.5.5): the value sent by `next(x)` lands in `dst`; a
    /// `return(x)` resumes with the flag register set, and the code after the `Yield` returns
    /// `x` as a `return` statement at this point would (running enclosing `finally` blocks and
    /// closing `for…of` iterators).
    pub(super) fn yield_expr(&mut self, y: &'b YieldExpression<'a>, dst: Reg) -> R<()> {
        let span = y.span;
        let is_async = self.f().kind.is_async;
        if y.delegate {
            return self.yield_star(y, dst, is_async);
        }
        let m = self.mark();
        let v = self.alloc(span)?;
        match &y.argument {
            Some(e) => self.expr_to(e, v)?,
            None => {
                self.emit(Op::LoadUndef(v), span);
            }
        }
        if is_async {
            self.emit(Op::Await(v, v), span);
        }
        let d = self.alloc(span)?;
        let flag = self.alloc(span)?;
        debug_assert_eq!(flag, d + 1);
        self.emit(Op::Yield(d, v), span);
        let j = self.emit(Op::JumpIfFalse(flag, 0), span);
        if is_async {
            // `return(x)` on an async generator awaits x (AsyncGeneratorUnwrapYieldResumption).
            self.emit(Op::Await(d, d), span);
        }
        self.unwind_ctx(0, span)?;
        self.emit_return(d, span)?;
        self.patch_here(j);
        self.emit(Op::Move(dst, d), span);
        self.release(m);
        Ok(())
    }
}

/// Whether evaluating `e` may assign a local register (an assignment or update outside any
/// nested function; calls cannot: what a closure writes lives in a cell). Conservative: any
/// form not listed, and nesting past a few levels, counts as "may".
fn may_assign(e: &Expression<'_>, depth: u32) -> bool {
    if depth > 8 {
        return true;
    }
    let d = depth + 1;
    match e {
        Expression::NumericLiteral(_)
        | Expression::StringLiteral(_)
        | Expression::BooleanLiteral(_)
        | Expression::NullLiteral(_)
        | Expression::Identifier(_)
        | Expression::ThisExpression(_)
        | Expression::FunctionExpression(_)
        | Expression::ArrowFunctionExpression(_) => false,
        Expression::ParenthesizedExpression(p) => may_assign(&p.expression, d),
        Expression::StaticMemberExpression(m) => may_assign(&m.object, d),
        Expression::ComputedMemberExpression(m) => {
            may_assign(&m.object, d) || may_assign(&m.expression, d)
        }
        Expression::BinaryExpression(b) => may_assign(&b.left, d) || may_assign(&b.right, d),
        Expression::LogicalExpression(l) => may_assign(&l.left, d) || may_assign(&l.right, d),
        Expression::UnaryExpression(u) => may_assign(&u.argument, d),
        Expression::ConditionalExpression(c) => {
            may_assign(&c.test, d) || may_assign(&c.consequent, d) || may_assign(&c.alternate, d)
        }
        Expression::CallExpression(c) => {
            may_assign(&c.callee, d)
                || c.arguments.iter().any(|a| match a.as_expression() {
                    Some(x) => may_assign(x, d),
                    None => true,
                })
        }
        _ => true,
    }
}

fn update_op(op: UpdateOperator) -> UnOp {
    match op {
        UpdateOperator::Increment => UnOp::Inc,
        UpdateOperator::Decrement => UnOp::Dec,
    }
}
