//! Classes (ECMA-262 §15.7): the constructor with the instance elements, methods and
//! accessors on the prototype (not enumerable), static members and static blocks, private
//! names, `extends` and `super`.
//!
//! A class body is evaluated in a scope of its own holding the inner class name, one binding
//! per private name (a fresh private name each evaluation: `NewPrivateName`), the home object
//! `%home` of its methods, the functions of its private instance methods and the keys of its
//! computed instance fields (evaluated once, in order). Every one lives in a fresh cell, so
//! two evaluations of one class (in a loop) do not share them. The constructor initializes the
//! instance elements on `this`: the private methods first, then the fields in order (in a
//! derived class right after `super(...)` returns). Static fields and blocks run last, in
//! order, with `this` the class. An unknown `#x` is an early error.

use super::*;

/// An instance element the class constructor initializes on `this`.
#[derive(Clone)]
pub(super) enum Elem<'b, 'a> {
    /// A private method or accessor: its private name (`#m`), the binding holding its
    /// function, the kind (1 method, 2 getter, 3 setter) and the class name constant.
    Method(String, String, u8, u32),
    /// A field and where its key comes from.
    Field(&'b PropertyDefinition<'a>, FieldKey),
    /// A TypeScript parameter property: `this.name = name` (`typescript.rs`).
    Param(String),
}

/// The key of a field.
#[derive(Clone)]
pub(super) enum FieldKey {
    /// A name known at compile time.
    Name(String),
    /// A computed key, evaluated at class evaluation into this binding.
    Computed(String),
    /// A private name (`#x`).
    Private(String),
}

/// The message of a private name used outside any class that declares it.
fn undeclared_private(name: &str) -> String {
    format!("Private field '{name}' must be declared in an enclosing class")
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// A binding of the innermost scope in a fresh cell (a new one each time this code runs).
    pub(super) fn fresh_cell(&mut self, name: &str, span: Span) -> R<Binding> {
        self.f().captured.insert(name.to_string());
        let b = self.declare(name, false, false, span)?;
        self.init_empty(b, span);
        Ok(b)
    }

    /// The private name `#x` into a register, and the class-name constant of its brand check
    /// (`u32::MAX` for a field). Unknown: the early SyntaxError.
    pub(super) fn private_ref(&mut self, name: &str, span: Span) -> R<(Reg, u32)> {
        let class = self
            .privates
            .iter()
            .rev()
            .find_map(|env| env.iter().find(|(n, _)| n == name).map(|(_, c)| *c));
        let (Some(class), Some(b)) = (class, self.resolve(name)) else {
            return Err(self.err(span, ErrorKind::ParseError, undeclared_private(name)));
        };
        let r = self.alloc(span)?;
        self.load_binding(b, name, r, span);
        Ok((r, class))
    }

    /// The private names a class body declares (`#x`), with the class-name constant for
    /// methods and accessors (`u32::MAX` for fields). Duplicates are early errors, except a
    /// getter and a setter of one name.
    fn private_names(&mut self, c: &'b Class<'a>, class_const: u32) -> R<Vec<(String, u32)>> {
        let mut out: Vec<(String, u32)> = Vec::new();
        let mut seen: Vec<(String, u8, bool)> = Vec::new();
        for el in &c.body.body {
            let (key, kind, is_static, span) = match el {
                ClassElement::MethodDefinition(m) => {
                    let k = match m.kind {
                        MethodDefinitionKind::Get => 2,
                        MethodDefinitionKind::Set => 3,
                        _ => 1,
                    };
                    (&m.key, k, m.r#static, m.span)
                }
                ClassElement::PropertyDefinition(p) => (&p.key, 0, p.r#static, p.span),
                ClassElement::AccessorProperty(a) => (&a.key, 0, a.r#static, a.span),
                _ => continue,
            };
            let PropertyKey::PrivateIdentifier(id) = key else {
                continue;
            };
            let name = format!("#{}", id.name);
            if name == "#constructor" {
                return Err(self.err(
                    span,
                    ErrorKind::ParseError,
                    "Classes may not have a private field named '#constructor'".into(),
                ));
            }
            if let Some((_, k, st)) = seen.iter().find(|(n, _, _)| *n == name) {
                let pair = matches!((*k, kind), (2, 3) | (3, 2)) && *st == is_static;
                if !pair {
                    return Err(self.err(
                        span,
                        ErrorKind::ParseError,
                        format!("Identifier '{name}' has already been declared"),
                    ));
                }
                continue;
            }
            seen.push((name.clone(), kind, is_static));
            out.push((name, if kind == 0 { u32::MAX } else { class_const }));
        }
        Ok(out)
    }

    /// A class: its value (the constructor) into `dst`.
    pub(super) fn class(&mut self, c: &'b Class<'a>, dst: Reg, name: &str) -> R<()> {
        let outer = self.mark();
        self.push_scope();
        let inner = match &c.id {
            Some(id) => {
                let b = self.declare(id.name.as_str(), true, true, id.span)?;
                self.init_empty(b, id.span);
                Some((b, id.name.as_str()))
            }
            None => None,
        };
        // The heritage sees the outer private names only.
        let parent = match &c.heritage {
            Some(h) => {
                let p = self.alloc(c.span)?;
                self.expr_to(&h.expression, p)?;
                Some(p)
            }
            None => None,
        };
        let class_const = self.string(name);
        let names = self.private_names(c, class_const)?;
        for (n, _) in &names {
            let b = self.fresh_cell(n, c.span)?;
            let r = self.alloc(c.span)?;
            let k = self.string(n);
            self.emit(Op::NewPrivateName(r, k), c.span);
            self.store_binding(b, r, c.span);
            self.release(r as u32);
        }
        self.privates.push(names);
        let r = self.class_body(c, dst, name, parent, class_const);
        self.privates.pop();
        r?;
        if let Some((b, n)) = inner {
            let _ = n;
            self.store_binding(b, dst, c.span);
        }
        self.f().scopes.pop();
        self.release(outer);
        Ok(())
    }

    fn class_body(
        &mut self,
        c: &'b Class<'a>,
        dst: Reg,
        name: &str,
        parent: Option<Reg>,
        class_const: u32,
    ) -> R<()> {
        let home = self.fresh_cell("%home", c.span)?;
        // The instance elements: private methods first, then the fields in order.
        let mut methods = Vec::new();
        let mut fields = Vec::new();
        let mut ctor = None;
        for (i, el) in c.body.body.iter().enumerate() {
            match el {
                ClassElement::MethodDefinition(m)
                    if m.kind == MethodDefinitionKind::Constructor =>
                {
                    if ctor.is_some() && m.value.body.is_some() {
                        return Err(self.err(
                            m.span,
                            ErrorKind::ParseError,
                            "A class may only have one constructor".into(),
                        ));
                    }
                    if m.value.body.is_some() {
                        ctor = Some(m)
                    }
                }
                ClassElement::MethodDefinition(m) if !m.r#static => {
                    if let PropertyKey::PrivateIdentifier(id) = &m.key {
                        let kind = match m.kind {
                            MethodDefinitionKind::Get => 2,
                            MethodDefinitionKind::Set => 3,
                            _ => 1,
                        };
                        let b = format!("%pm{i}");
                        self.fresh_cell(&b, m.span)?;
                        methods.push(Elem::Method(format!("#{}", id.name), b, kind, class_const));
                    }
                }
                ClassElement::PropertyDefinition(p) if !p.r#static => {
                    let key = match &p.key {
                        PropertyKey::PrivateIdentifier(id) => {
                            FieldKey::Private(format!("#{}", id.name))
                        }
                        PropertyKey::StaticIdentifier(id) if !p.computed => {
                            FieldKey::Name(id.name.to_string())
                        }
                        PropertyKey::StringLiteral(s) if !p.computed => {
                            FieldKey::Name(s.value.to_string())
                        }
                        PropertyKey::NumericLiteral(n) if !p.computed => {
                            FieldKey::Name(crate::number::to_string(n.value))
                        }
                        _ => {
                            let b = format!("%fk{i}");
                            self.fresh_cell(&b, p.span)?;
                            FieldKey::Computed(b)
                        }
                    };
                    fields.push(Elem::Field(p, key));
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
        methods.extend(Self::parameter_properties(c).into_iter().map(Elem::Param));
        methods.extend(fields);
        self.fields = Some(methods);
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
            self.emit(Op::Extends(dst, proto, p), c.span);
        }
        self.store_binding(home, proto, c.span);
        // Static fields and blocks run after every element is defined: (element, key).
        let mut statics: Vec<(&'b ClassElement<'a>, Option<Reg>)> = Vec::new();
        for (i, el) in c.body.body.iter().enumerate() {
            match el {
                ClassElement::MethodDefinition(md)
                    if md.kind != MethodDefinitionKind::Constructor =>
                {
                    let mm = self.mark();
                    self.class_method(md, dst, proto, i)?;
                    self.release(mm);
                }
                ClassElement::PropertyDefinition(p) if p.r#static => {
                    let key = match &p.key {
                        PropertyKey::PrivateIdentifier(_) => None,
                        k => {
                            let r = self.property_key_reg(k, p.computed)?;
                            self.emit(Op::ToPropertyKey(r, r), p.span);
                            Some(r)
                        }
                    };
                    statics.push((el, key));
                }
                ClassElement::PropertyDefinition(p) if p.computed => {
                    let mm = self.mark();
                    let r = self.property_key_reg(&p.key, true)?;
                    self.emit(Op::ToPropertyKey(r, r), p.span);
                    if let Some(b) = self.resolve(&format!("%fk{i}")) {
                        self.store_binding(b, r, p.span);
                    }
                    self.release(mm);
                }
                ClassElement::StaticBlock(_) => statics.push((el, None)),
                _ => {}
            }
        }
        // The class binding is initialized before the static elements run.
        if let Some(id) = &c.id
            && let Some(b) = self.resolve_local_only(id.name.as_str())
        {
            self.store_binding(b, dst, c.span);
        }
        if !statics.is_empty() {
            // `this` is the class, and so is the home object.
            self.push_scope();
            let h = self.fresh_cell("%home", c.span)?;
            self.store_binding(h, dst, c.span);
            let t = self.declare("this", false, true, c.span)?;
            self.init_empty(t, c.span);
            self.store_binding(t, dst, c.span);
            for (el, key) in statics {
                let mm = self.mark();
                match el {
                    ClassElement::PropertyDefinition(p) => {
                        let v = self.alloc(p.span)?;
                        let fname = match &p.key {
                            PropertyKey::StaticIdentifier(id) => id.name.to_string(),
                            PropertyKey::PrivateIdentifier(id) => format!("#{}", id.name),
                            _ => String::new(),
                        };
                        self.field_value(p, v, &fname)?;
                        match (key, &p.key) {
                            (Some(k), _) => {
                                self.emit(Op::DefineElem(dst, k, v), p.span);
                            }
                            (None, PropertyKey::PrivateIdentifier(id)) => {
                                let (n, _) = self.private_ref(&format!("#{}", id.name), p.span)?;
                                self.emit(Op::DefinePrivate(dst, n, v, 0, u32::MAX), p.span);
                            }
                            _ => {}
                        }
                    }
                    ClassElement::StaticBlock(b) => {
                        let f = self.alloc(b.span)?;
                        self.static_block_next = true;
                        let fi =
                            self.function_body(b.span, "", None, &b.body, None, false, false)?;
                        self.emit(Op::Closure(f, fi), b.span);
                        let r = self.alloc(b.span)?;
                        self.emit(Op::Call(r, f, dst, r, 0), b.span);
                    }
                    _ => {}
                }
                self.release(mm);
            }
            self.f().scopes.pop();
        }
        self.release(m);
        Ok(())
    }

    /// A method, getter or setter of a class (element `i`): public ones are defined on the
    /// prototype or the class, private instance ones stored for the constructor, private
    /// static ones added to the class.
    fn class_method(
        &mut self,
        md: &'b MethodDefinition<'a>,
        dst: Reg,
        proto: Reg,
        i: usize,
    ) -> R<()> {
        let Some(body) = &md.value.body else {
            return Ok(());
        };
        let private = match &md.key {
            PropertyKey::PrivateIdentifier(id) => Some(format!("#{}", id.name)),
            _ => None,
        };
        let target = if md.r#static { dst } else { proto };
        let key = match private {
            Some(_) => None,
            None => Some(self.property_key_reg(&md.key, md.computed)?),
        };
        let kname = match (&md.key, &private) {
            (_, Some(p)) => p.clone(),
            (PropertyKey::StaticIdentifier(id), _) => id.name.to_string(),
            (PropertyKey::StringLiteral(s), _) => s.value.to_string(),
            _ => String::new(),
        };
        let (fname, flags, kind) = match md.kind {
            MethodDefinitionKind::Get => (format!("get {kname}"), 2, 2),
            MethodDefinitionKind::Set => (format!("set {kname}"), 3, 3),
            _ => (kname, 0, 1),
        };
        // Static methods find `super` on the class itself.
        if md.r#static {
            self.push_scope();
            let h = self.fresh_cell("%home", md.span)?;
            self.store_binding(h, dst, md.span);
        }
        self.next_kind = FnKind {
            is_async: md.value.r#async,
            generator: md.value.generator,
        };
        let fi = self.function_body(
            md.value.span,
            &fname,
            Some(&md.value.params),
            &body.statements,
            None,
            false,
            false,
        );
        if md.r#static {
            self.f().scopes.pop();
        }
        let fi = fi?;
        let f = self.alloc(md.span)?;
        self.emit(Op::Closure(f, fi), md.span);
        match (private, key) {
            (Some(p), _) if md.r#static => {
                let (n, class) = self.private_ref(&p, md.span)?;
                self.emit(Op::DefinePrivate(dst, n, f, kind, class), md.span);
            }
            (Some(_), _) => {
                if let Some(b) = self.resolve(&format!("%pm{i}")) {
                    self.store_binding(b, f, md.span);
                }
            }
            (None, Some(key)) => {
                if flags == 0 {
                    self.emit(Op::DefineMethod(target, key, f), md.span);
                } else {
                    self.emit(Op::DefineAccessor(target, key, f, flags), md.span);
                }
            }
            (None, None) => {}
        }
        Ok(())
    }

    /// A field's initial value (undefined without an initializer) into `v`.
    fn field_value(&mut self, p: &'b PropertyDefinition<'a>, v: Reg, name: &str) -> R<()> {
        match &p.value {
            Some(e) => {
                let saved = std::mem::replace(&mut self.in_initializer, true);
                let r = self.expr_named(e, v, name);
                self.in_initializer = saved;
                r
            }
            None => {
                self.emit(Op::LoadUndef(v), p.span);
                Ok(())
            }
        }
    }

    /// `super(...)` with `args`: construct the parent into `dst`, bind `this` (once) and
    /// initialize the instance elements.
    pub(super) fn super_call(&mut self, dst: Reg, args: Args, span: Span) -> R<()> {
        let env = self.alloc(span)?;
        let nt = self.alloc(span)?;
        match (self.resolve("%ctor"), self.resolve("new.target")) {
            (Some(c), Some(n)) => {
                self.load_binding(c, "%ctor", env, span);
                self.load_binding(n, "new.target", nt, span);
            }
            _ => {
                return Err(self.err(
                    span,
                    ErrorKind::ParseError,
                    "'super' keyword unexpected here".into(),
                ));
            }
        }
        match args {
            Args::Regs(first, count) => self.emit(Op::SuperConstruct(dst, env, first, count), span),
            Args::Array(arr) => self.emit(Op::SuperConstructSpread(dst, env, arr), span),
        };
        self.after_super(dst, span)
    }

    /// `this` into a new register without its TDZ check (Empty while a derived constructor
    /// has not called `super(...)`), with its binding.
    pub(super) fn this_unchecked(&mut self, span: Span) -> R<Option<(Binding, Reg)>> {
        let Some(b) = self.resolve("this") else {
            return Ok(None);
        };
        let t = self.alloc(span)?;
        let raw = Binding {
            lexical: false,
            ..b
        };
        self.load_binding(raw, "this", t, span);
        Ok(Some((b, t)))
    }

    /// After `super(...)` put its result in `dst`: make it `this` (a second time is a
    /// ReferenceError) and initialize the instance elements.
    pub(super) fn after_super(&mut self, dst: Reg, span: Span) -> R<()> {
        if let Some((b, t)) = self.this_unchecked(span)? {
            self.emit(Op::CheckThisUnbound(t), span);
            self.store_binding(b, dst, span);
        }
        if let Some(fs) = self.derived_fields.clone() {
            self.field_inits(fs, span)?;
        }
        Ok(())
    }

    /// The instance elements, defined on `this` at the start of a base class constructor
    /// or after `super(...)` in a derived one.
    pub(super) fn field_inits(&mut self, elems: Vec<Elem<'b, 'a>>, span: Span) -> R<()> {
        if elems.is_empty() {
            return Ok(());
        }
        let m = self.mark();
        let this = self.alloc(span)?;
        if let Some(b) = self.resolve("this") {
            self.load_binding(b, "this", this, span);
        }
        for e in elems {
            let mm = self.mark();
            match e {
                Elem::Method(name, binding, kind, class) => {
                    let (n, _) = self.private_ref(&name, span)?;
                    let f = self.alloc(span)?;
                    if let Some(b) = self.resolve(&binding) {
                        self.load_binding(b, &binding, f, span);
                    }
                    self.emit(Op::DefinePrivate(this, n, f, kind, class), span);
                }
                Elem::Param(name) => {
                    let v = self.alloc(span)?;
                    if let Some(b) = self.resolve(&name) {
                        self.load_binding(b, &name, v, span);
                    }
                    let k = self.string(&name);
                    self.emit(Op::SetProp(this, k, v), span);
                }
                Elem::Field(p, key) => {
                    let v = self.alloc(p.span)?;
                    let fname = match &key {
                        FieldKey::Name(n) | FieldKey::Private(n) => n.clone(),
                        FieldKey::Computed(_) => String::new(),
                    };
                    self.field_value(p, v, &fname)?;
                    match key {
                        FieldKey::Name(n) => {
                            let k = self.alloc(p.span)?;
                            let s = self.string(&n);
                            self.emit(Op::LoadStr(k, s), p.span);
                            self.emit(Op::DefineElem(this, k, v), p.span);
                        }
                        FieldKey::Computed(b) => {
                            let k = self.alloc(p.span)?;
                            if let Some(bb) = self.resolve(&b) {
                                self.load_binding(bb, &b, k, p.span);
                            }
                            self.emit(Op::DefineElem(this, k, v), p.span);
                        }
                        FieldKey::Private(n) => {
                            let (nr, _) = self.private_ref(&n, p.span)?;
                            self.emit(Op::DefinePrivate(this, nr, v, 0, u32::MAX), p.span);
                        }
                    }
                }
            }
            self.release(mm);
        }
        self.release(m);
        Ok(())
    }
}
