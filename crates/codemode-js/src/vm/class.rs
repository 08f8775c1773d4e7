//! The machine's side of classes: private elements (fields, methods and accessors under
//! private names, with brand checks), `extends`, `super(...)` with `new.target`, derived
//! constructors' returns, and `super[key]` reads and writes.
//!
//! A private name is a symbol made fresh each time a class body is evaluated
//! (`NewPrivateName`), so two evaluations of one class have distinct brands. Private elements
//! live in [`crate::heap::Obj::privates`], apart from the properties: no enumeration, JSON or
//! reflection sees them. Messages are V8's.

use super::{Flow, Res, Vm};
use crate::heap::{DEFAULT_ATTRS, Func, Key, Kind, PROP_BYTES, PrivateElem, Prop, Slot};
use crate::proto::{ErrorType, Reg};
use crate::value::{ObjId, SymId, Value};

/// The ReferenceError of `this` (or a return) before `super(...)` in a derived constructor.
pub const THIS_BEFORE_SUPER: &str = "Must call super constructor in derived class before accessing 'this' or returning from derived constructor";

impl Vm {
    /// The private name in register `n` and its text (`#x`).
    fn private_name(&self, n: Reg) -> (SymId, String) {
        match self.r(n) {
            Value::Sym(s) => {
                let text = self.heap.symbols[s.0 as usize]
                    .map_or(String::new(), |d| self.heap.str(d).to_rust());
                (s, text)
            }
            _ => (SymId(u32::MAX), String::new()),
        }
    }

    /// The position of private element `name` of `o`; the scan is charged as work (an object
    /// may hold many private elements: one class evaluated again and again over it).
    fn find_private(&mut self, o: Value, name: SymId) -> Option<(ObjId, usize)> {
        let Value::Obj(o) = o else { return None };
        let list = &self.heap.obj(o).privates;
        let (n, found) = (list.len(), list.iter().position(|e| e.name == name));
        self.work(n / 8);
        Some((o, found?))
    }

    /// The TypeError of a failed brand check: fields name the member, methods the class.
    fn brand_error(&mut self, text: &str, prog: u16, class: u32, write: bool) -> super::Throw {
        if class != u32::MAX {
            let c = self.progs[prog as usize].strings[class as usize].to_rust();
            let c = if c.is_empty() { "anonymous".into() } else { c };
            return self.type_error(&format!("Receiver must be an instance of class {c}"));
        }
        if write {
            self.type_error(&format!(
                "Cannot write private member {text} to an object whose class did not declare it"
            ))
        } else {
            self.type_error(&format!(
                "Cannot read private member {text} from an object whose class did not declare it"
            ))
        }
    }

    /// `dst ← obj.#x`: a field's or method's value, or the getter called on obj.
    pub(super) fn get_private(
        &mut self,
        d: Reg,
        o: Reg,
        n: Reg,
        prog: u16,
        class: u32,
    ) -> Res<Flow> {
        let (name, text) = self.private_name(n);
        let ov = self.r(o);
        let Some((obj, i)) = self.find_private(ov, name) else {
            return Err(self.brand_error(&text, prog, class, false));
        };
        match self.heap.obj(obj).privates[i].slot {
            Slot::Data(v) => {
                self.set(d, v);
                Ok(Flow::Next)
            }
            Slot::Accessor(Value::Undefined, _) => {
                Err(self.type_error(&format!("'{text}' was defined without a getter")))
            }
            Slot::Accessor(g, _) => {
                let r = self.call(g, ov, Vec::new(), Some(d), None)?;
                Ok(self.called(r, Some(d)))
            }
        }
    }

    /// `obj.#x = v`: a field is written, a setter called; methods are not writable.
    pub(super) fn set_private(
        &mut self,
        o: Reg,
        n: Reg,
        v: Reg,
        prog: u16,
        class: u32,
    ) -> Res<Flow> {
        let (name, text) = self.private_name(n);
        let ov = self.r(o);
        let val = self.r(v);
        let Some((obj, i)) = self.find_private(ov, name) else {
            return Err(self.brand_error(&text, prog, class, true));
        };
        let e = self.heap.obj(obj).privates[i];
        match e.slot {
            Slot::Data(_) if e.method => {
                Err(self.type_error(&format!("Private method '{text}' is not writable")))
            }
            Slot::Data(_) => {
                self.heap.obj_mut(obj).privates[i].slot = Slot::Data(val);
                Ok(Flow::Next)
            }
            Slot::Accessor(_, Value::Undefined) => {
                Err(self.type_error(&format!("'{text}' was defined without a setter")))
            }
            Slot::Accessor(_, s) => {
                let r = self.call(s, ov, vec![val], None, None)?;
                Ok(self.called(r, None))
            }
        }
    }

    /// Add a private element (kind 0 field, 1 method, 2 getter, 3 setter) to obj.
    pub(super) fn define_private(
        &mut self,
        o: Reg,
        n: Reg,
        v: Reg,
        kind: u8,
        prog: u16,
        class: u32,
    ) -> Res<()> {
        let (name, text) = self.private_name(n);
        let val = self.r(v);
        let Value::Obj(obj) = self.r(o) else {
            return Err(self.type_error(&format!(
                "Cannot define private member {text} on a non-object"
            )));
        };
        if let Some((_, i)) = self.find_private(Value::Obj(obj), name) {
            // The second half of an accessor pair joins the first.
            if let (Slot::Accessor(g, s), 2 | 3) = (self.heap.obj(obj).privates[i].slot, kind) {
                let slot = if kind == 2 {
                    Slot::Accessor(val, s)
                } else {
                    Slot::Accessor(g, val)
                };
                if (kind == 2 && g == Value::Undefined) || (kind == 3 && s == Value::Undefined) {
                    self.heap.obj_mut(obj).privates[i].slot = slot;
                    return Ok(());
                }
            }
            if kind == 0 {
                return Err(self.type_error(&format!(
                    "Cannot initialize {text} twice on the same object"
                )));
            }
            let c = if class == u32::MAX {
                String::new()
            } else {
                self.progs[prog as usize].strings[class as usize].to_rust()
            };
            let c = if c.is_empty() { "anonymous".into() } else { c };
            return Err(self.type_error(&format!(
                "Cannot initialize private methods of class {c} twice on the same object"
            )));
        }
        let slot = match kind {
            2 => Slot::Accessor(val, Value::Undefined),
            3 => Slot::Accessor(Value::Undefined, val),
            _ => Slot::Data(val),
        };
        self.heap.charge(PROP_BYTES)?;
        self.heap.obj_mut(obj).privates.push(PrivateElem {
            name,
            slot,
            method: kind == 1,
        });
        Ok(())
    }

    /// The failures of DefinePropertyOrThrow for literal and class members: an own property
    /// that is not configurable (a static member named `prototype`), or a new key on an object
    /// that is not extensible (a field on a frozen `this`).
    pub(super) fn check_definable(&mut self, o: ObjId, key: Key) -> Res<()> {
        match self.own(o, key) {
            Some(p) if p.attrs & crate::heap::CONFIGURABLE == 0 => {
                let k = self.key_text(key);
                if k == "prototype" && matches!(self.heap.obj(o).kind, Kind::Function(_)) {
                    return Err(
                        self.type_error("Classes may not have a static property named 'prototype'")
                    );
                }
                Err(self.type_error(&format!("Cannot redefine property: {k}")))
            }
            None if !self.heap.obj(o).extensible => {
                let k = self.key_text(key);
                Err(self.type_error(&format!(
                    "Cannot define property {k}, object is not extensible"
                )))
            }
            _ => Ok(()),
        }
    }

    /// `dst ← #x in obj` (obj must be an object).
    pub(super) fn has_private(&mut self, d: Reg, o: Reg, n: Reg) -> Res<()> {
        let (name, text) = self.private_name(n);
        let ov = self.r(o);
        if !matches!(ov, Value::Obj(_)) {
            let s = crate::builtins::inspect(self, ov)?;
            return Err(self.type_error(&format!(
                "Cannot use 'in' operator to search for '{text}' in {s}"
            )));
        }
        let found = self.find_private(ov, name).is_some();
        self.set(d, Value::Bool(found));
        Ok(())
    }

    /// `class C extends parent`: null gives C.prototype no prototype (C itself keeps
    /// Function.prototype); otherwise parent must be a constructor whose `prototype` is an
    /// object or null.
    pub(super) fn extends(&mut self, c: Reg, p: Reg, parent: Reg) -> Res<()> {
        let (cv, pv, parent) = (self.r(c), self.r(p), self.r(parent));
        let (Value::Obj(co), Value::Obj(po)) = (cv, pv) else {
            return Ok(());
        };
        if parent == Value::Null {
            self.heap.obj_mut(po).proto = None;
            return Ok(());
        }
        // Symbol has [[Construct]] (it throws when reached): a valid heritage.
        let symbol = matches!(parent, Value::Obj(o)
            if matches!(self.heap.obj(o).kind, Kind::Function(Func::Native(n))
                if crate::builtins::NATIVES.get(n as usize).is_some_and(|e| e.0 == "Symbol")));
        if !self.is_constructor(parent) && !symbol {
            let s = match parent {
                Value::Obj(o) if matches!(self.heap.obj(o).kind, Kind::Function(_)) => {
                    crate::builtins::inspect(self, parent)?
                }
                Value::Obj(_) => "#<Object>".to_string(),
                v => crate::builtins::inspect(self, v)?,
            };
            return Err(self.type_error(&format!(
                "Class extends value {s} is not a constructor or null"
            )));
        }
        let pp = self.get_simple(parent, "prototype")?;
        let pp = match pp {
            Value::Obj(o) => Some(o),
            Value::Null => None,
            v => {
                let s = crate::builtins::inspect(self, v)?;
                return Err(self.type_error(&format!(
                    "Class extends value does not have valid prototype property {s}"
                )));
            }
        };
        self.heap.obj_mut(po).proto = pp;
        self.heap.obj_mut(co).proto = parent.obj();
        Ok(())
    }

    /// `super(...)`: construct the parent of the active constructor (register env) with
    /// `new.target` (register env+1); the result lands in `d`.
    pub(super) fn super_construct(&mut self, d: Reg, env: Reg, args: Vec<Value>) -> Res<Flow> {
        let ctor = self.r(env);
        let nt = self.r(env + 1);
        let parent = match ctor {
            Value::Obj(c) => self.heap.obj(c).proto.map_or(Value::Null, Value::Obj),
            _ => Value::Null,
        };
        if !self.is_constructor(parent) {
            let name = match ctor {
                Value::Obj(_) => {
                    let n = self.get_simple(ctor, "name")?;
                    match n {
                        Value::Str(s) if !self.heap.str(s).is_empty() => self.heap.str(s).to_rust(),
                        _ => "anonymous class".to_string(),
                    }
                }
                _ => "anonymous class".to_string(),
            };
            let p = match parent {
                // `extends null` leaves the class's parent Function.prototype.
                Value::Obj(o) if Some(o) == self.intr.function_proto => "null".to_string(),
                Value::Obj(_) => "[object Function]".to_string(),
                v => crate::builtins::inspect(self, v)?,
            };
            return Err(self.type_error(&format!(
                "Super constructor {p} of {name} is not a constructor"
            )));
        }
        let nt = if nt == Value::Undefined { ctor } else { nt };
        self.construct_with(d, parent, args, nt)
    }

    /// `return v` from a derived constructor.
    pub(super) fn return_derived(&mut self, v: Value, this: Value) -> Res<Flow> {
        match v {
            Value::Obj(_) => Ok(Flow::Return(v)),
            Value::Undefined => {
                if this == Value::Empty {
                    return Err(self.err_of(ErrorType::ReferenceError, THIS_BEFORE_SUPER));
                }
                Ok(Flow::Return(this))
            }
            _ => Err(self.type_error("Derived constructors may only return object or undefined")),
        }
    }

    /// `dst ← super[key]`: found from the home object's prototype, a getter called on `this`.
    pub(super) fn get_super(&mut self, d: Reg, home: Value, key: Key, this: Value) -> Res<Flow> {
        let proto = match home {
            Value::Obj(h) => self.heap.obj(h).proto,
            _ => None,
        };
        let Some(p) = proto else {
            self.set(d, Value::Undefined);
            return Ok(Flow::Next);
        };
        match self.lookup(Value::Obj(p), key) {
            Some(Prop {
                slot: Slot::Accessor(g, _),
                ..
            }) if g != Value::Undefined => {
                let r = self.call(g, this, Vec::new(), Some(d), None)?;
                Ok(self.called(r, Some(d)))
            }
            Some(Prop {
                slot: Slot::Data(x),
                ..
            }) => {
                self.set(d, x);
                Ok(Flow::Next)
            }
            _ => {
                self.set(d, Value::Undefined);
                Ok(Flow::Next)
            }
        }
    }

    /// `super[key] = v`: a setter found from the home object's prototype runs on `this`;
    /// otherwise the value lands on `this` itself.
    pub(super) fn set_super(&mut self, home: Value, key: Key, v: Value, this: Value) -> Res<Flow> {
        let proto = match home {
            Value::Obj(h) => self.heap.obj(h).proto,
            _ => None,
        };
        if let Some(p) = proto {
            match self.lookup(Value::Obj(p), key) {
                Some(Prop {
                    slot: Slot::Accessor(_, s),
                    ..
                }) => {
                    if let Some((f, v)) = self.setter(s, this, v, key)? {
                        let r = self.call(f, this, vec![v], None, None)?;
                        return Ok(self.called(r, None));
                    }
                    return Ok(Flow::Next);
                }
                Some(Prop { attrs, .. }) if attrs & crate::heap::WRITABLE == 0 => {
                    let k = self.key_text(key);
                    return Err(self.type_error(&format!(
                        "Cannot assign to read only property '{k}' of object"
                    )));
                }
                _ => {}
            }
        }
        let Value::Obj(o) = this else {
            return self.set_value(this, key, v).map(|_| Flow::Next);
        };
        if self.own(o, key).is_some() || !self.heap.obj(o).extensible {
            if let Some((f, v)) = self.set_value(this, key, v)? {
                let r = self.call(f, this, vec![v], None, None)?;
                return Ok(self.called(r, None));
            }
            return Ok(Flow::Next);
        }
        self.define(o, key, Slot::Data(v), DEFAULT_ATTRS)?;
        Ok(Flow::Next)
    }
}
