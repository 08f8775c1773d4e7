//! Classes: constructors with instance fields, methods, accessors, static members,
//! `extends` and `super`.

use super::*;

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// A class (without `extends` for now): its constructor with the instance fields, methods
    /// and accessors on the prototype (not enumerable), static members on the class.
    pub(super) fn class(&mut self, c: &'b Class<'a>, dst: Reg, name: &str) -> R<()> {
        let outer = self.mark();
        let parent = match &c.heritage {
            Some(h) => {
                let p = self.alloc(c.span)?;
                self.expr_to(&h.expression, p)?;
                Some(p)
            }
            None => None,
        };
        self.push_scope();
        let home = self.declare("%home", false, false, c.span)?;
        let mut ctor = None;
        let mut fields = Vec::new();
        for el in &c.body.body {
            match el {
                ClassElement::MethodDefinition(m)
                    if m.kind == MethodDefinitionKind::Constructor =>
                {
                    ctor = Some(m)
                }
                ClassElement::PropertyDefinition(p) if !p.r#static => fields.push(&**p),
                ClassElement::StaticBlock(b) => {
                    return Err(self.unsupported(
                        b.span,
                        "static block",
                        "Assign the static members after the class.",
                    ));
                }
                ClassElement::AccessorProperty(a) => {
                    return Err(self.unsupported(
                        a.span,
                        "accessor",
                        "Write a getter and a setter.",
                    ));
                }
                _ => {}
            }
        }
        self.fields = Some(fields);
        self.derived = parent.is_some();
        let idx = match ctor {
            Some(m) => {
                let body = m.value.body.as_ref().map_or(&[][..], |b| &b.statements[..]);
                self.function_body(
                    m.value.span,
                    name,
                    Some(&m.value.params),
                    body,
                    None,
                    false,
                    true,
                )?
            }
            None => self.function_body(c.span, name, None, &[], None, false, true)?,
        };
        self.emit(Op::Closure(dst, idx), c.span);
        let m = self.mark();
        let proto = self.alloc(c.span)?;
        let k = self.string("prototype");
        self.emit(Op::GetProp(proto, dst, k), c.span);
        if let Some(p) = parent {
            let pp = self.alloc(c.span)?;
            self.emit(Op::GetProp(pp, p, k), c.span);
            self.emit(Op::SetProto(proto, pp), c.span);
            self.emit(Op::SetProto(dst, p), c.span);
        }
        self.store_binding(home, proto, c.span);
        for el in &c.body.body {
            let mm = self.mark();
            match el {
                ClassElement::MethodDefinition(md)
                    if md.kind != MethodDefinitionKind::Constructor =>
                {
                    let target = if md.r#static { dst } else { proto };
                    let key = self.property_key_reg(&md.key, md.computed)?;
                    let f = self.alloc(md.span)?;
                    let kname = match &md.key {
                        PropertyKey::StaticIdentifier(id) => id.name.to_string(),
                        _ => String::new(),
                    };
                    let Some(body) = &md.value.body else {
                        self.release(mm);
                        continue;
                    };
                    let (fname, flags) = match md.kind {
                        MethodDefinitionKind::Get => (format!("get {kname}"), 2),
                        MethodDefinitionKind::Set => (format!("set {kname}"), 3),
                        _ => (kname, 0),
                    };
                    // Static methods find `super` on the class itself.
                    if md.r#static {
                        self.push_scope();
                        let h = self.declare("%home", false, false, md.span)?;
                        self.store_binding(h, dst, md.span);
                    }
                    let fi = self.function_body(
                        md.value.span,
                        &fname,
                        Some(&md.value.params),
                        &body.statements,
                        None,
                        false,
                        false,
                    )?;
                    self.emit(Op::Closure(f, fi), md.span);
                    if md.r#static {
                        self.f().scopes.pop();
                    }
                    if flags == 0 {
                        self.emit(Op::DefineMethod(target, key, f), md.span);
                    } else {
                        self.emit(Op::DefineAccessor(target, key, f, flags), md.span);
                    }
                }
                ClassElement::PropertyDefinition(p) if p.r#static => self.define_field(dst, p)?,
                _ => {}
            }
            self.release(mm);
        }
        self.release(m);
        self.f().scopes.pop();
        self.release(outer);
        Ok(())
    }

    /// After `super(...)` put its result in `dst`: make it `this` and define the fields.
    pub(super) fn after_super(&mut self, dst: Reg, span: Span) -> R<()> {
        if let Some(b) = self.resolve("this")
            && !matches!(b.st, Storage::Reg(0))
        {
            self.store_binding(b, dst, span);
        }
        if let Some(fs) = self.derived_fields.clone() {
            self.field_inits(fs, span)?;
        }
        Ok(())
    }

    /// Define field `p` (its initializer's value, or undefined) on the object in `target`.
    pub(super) fn define_field(&mut self, target: Reg, p: &'b PropertyDefinition<'a>) -> R<()> {
        let key = self.property_key_reg(&p.key, p.computed)?;
        let v = self.alloc(p.span)?;
        match &p.value {
            Some(e) => self.expr_to(e, v)?,
            None => {
                self.emit(Op::LoadUndef(v), p.span);
            }
        }
        self.emit(Op::DefineElem(target, key, v), p.span);
        Ok(())
    }

    /// The instance fields, defined on `this` at the start of a class constructor.
    pub(super) fn field_inits(
        &mut self,
        fields: Vec<&'b PropertyDefinition<'a>>,
        span: Span,
    ) -> R<()> {
        if fields.is_empty() {
            return Ok(());
        }
        let m = self.mark();
        let this = self.alloc(span)?;
        if let Some(b) = self.resolve("this") {
            self.load_binding(b, "this", this, span);
        }
        for p in fields {
            let mm = self.mark();
            self.define_field(this, p)?;
            self.release(mm);
        }
        self.release(m);
        Ok(())
    }
}
