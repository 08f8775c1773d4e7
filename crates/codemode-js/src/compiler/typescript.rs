//! TypeScript that lowers to JavaScript (types, interfaces, `declare`, `as`, `!` and the
//! rest are erased where they appear): enums and constructor parameter properties, with the
//! values TypeScript's own emit gives.

use super::*;

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// `enum E { A, B = A * 2, C = "c" }`: the binding `E` (declared by the lexical hoisting)
    /// holds an object with one property per member. A member without an initializer is the
    /// previous member plus 1 (the first: 0); a member whose value is a number also maps the
    /// value back to its name (`E[0] === "A"`); inside the body the earlier members are in
    /// scope by their bare names. `declare enum` has no code. `const enum` is an ordinary enum.
    pub(super) fn enum_declaration(&mut self, e: &'b TSEnumDeclaration<'a>) -> R<()> {
        if e.declare {
            return Ok(());
        }
        let span = e.span;
        let m = self.mark();
        let obj = self.alloc(span)?;
        self.emit(Op::NewObject(obj), span);
        if let Some(b) = self.resolve_local_only(e.id.name.as_str()) {
            self.store_binding(b, obj, span);
        }
        self.push_scope();
        let scope = self.mark();
        let mut prev: Option<Reg> = None;
        for member in &e.body.members {
            let span = member.span;
            let name = match &member.id {
                TSEnumMemberName::Identifier(id) => id.name.as_str(),
                TSEnumMemberName::String(s) | TSEnumMemberName::ComputedString(s) => {
                    s.value.as_str()
                }
                TSEnumMemberName::ComputedTemplateString(t) => t
                    .quasis
                    .first()
                    .and_then(|q| q.value.cooked.as_ref())
                    .map_or("", |c| c.as_str()),
            };
            let v = self.alloc(span)?;
            // Whether the value is known to be a number (no run-time check for the reverse
            // mapping) or a string (no reverse mapping at all).
            let (number, string) = match &member.initializer {
                Some(init) => {
                    self.expr_to(init, v)?;
                    match init.without_parentheses() {
                        Expression::NumericLiteral(_) => (true, false),
                        Expression::StringLiteral(_) => (false, true),
                        Expression::TemplateLiteral(t) => (false, t.expressions.is_empty()),
                        _ => (false, false),
                    }
                }
                None => match prev {
                    None => {
                        self.emit(Op::LoadNum(v, 0.0), span);
                        (true, false)
                    }
                    Some(p) => {
                        let one = self.alloc(span)?;
                        self.emit(Op::LoadNum(one, 1.0), span);
                        self.emit(Op::Binary(BinOp::Add, v, p, one), span);
                        (false, false)
                    }
                },
            };
            let k = self.alloc(span)?;
            let ks = self.string(name);
            self.emit(Op::LoadStr(k, ks), span);
            self.emit(Op::SetElem(obj, k, v), span);
            if !string {
                let mut skip = None;
                if !number {
                    let t = self.alloc(span)?;
                    self.emit(Op::Unary(UnOp::Typeof, t, v), span);
                    let n = self.alloc(span)?;
                    let ns = self.string("number");
                    self.emit(Op::LoadStr(n, ns), span);
                    self.emit(Op::Binary(BinOp::StrictEq, t, t, n), span);
                    skip = Some(self.emit(Op::JumpIfFalse(t, 0), span));
                }
                self.emit(Op::SetElem(obj, v, k), span);
                if let Some(j) = skip {
                    self.patch_here(j);
                }
            }
            if matches!(member.id, TSEnumMemberName::Identifier(_)) {
                let b = self.declare(name, true, true, span)?;
                self.init_empty(b, span);
                self.store_binding(b, v, span);
            }
            prev = Some(v);
        }
        self.pop_scope(scope);
        self.release(m);
        Ok(())
    }

    /// The constructor parameters declared with `public`, `private`, `protected`,
    /// `readonly` or `override` (TypeScript's parameter properties): each becomes an own
    /// property of the instance, set from the parameter before the class's fields.
    pub(super) fn parameter_properties(c: &'b Class<'a>) -> Vec<String> {
        let ctor = c.body.body.iter().find_map(|el| match el {
            ClassElement::MethodDefinition(m) if m.kind == MethodDefinitionKind::Constructor => {
                Some(&m.value)
            }
            _ => None,
        });
        let Some(f) = ctor else {
            return Vec::new();
        };
        f.params
            .items
            .iter()
            .filter(|p| p.accessibility.is_some() || p.readonly || p.r#override)
            .filter_map(|p| match &p.pattern {
                BindingPattern::BindingIdentifier(id) => Some(id.name.to_string()),
                BindingPattern::AssignmentPattern(a) => match &a.left {
                    BindingPattern::BindingIdentifier(id) => Some(id.name.to_string()),
                    _ => None,
                },
                _ => None,
            })
            .collect()
    }
}
