//! Property descriptors and integrity levels: ToPropertyDescriptor and
//! FromPropertyDescriptor (ECMA-262 §6.2.6.4-5), [[DefineOwnProperty]] with
//! ValidateAndApplyPropertyDescriptor (§10.1.6.3) and the array exotic `length` and index
//! cases (§10.4.2.1, ArraySetLength §10.4.2.4), SetIntegrityLevel/TestIntegrityLevel
//! (§7.3.15-16), and the `Object` statics built on them: `defineProperty`,
//! `defineProperties`, `create`, `getOwnPropertyDescriptor(s)`, `getOwnPropertyNames`,
//! `getOwnPropertySymbols`, `preventExtensions`, `isExtensible`, `seal`, `isSealed`,
//! `freeze`, `isFrozen`, and `Object.prototype.propertyIsEnumerable`.
//!
//! Array data elements live in the element vector; one with attributes other than the
//! array's shared ones has a props entry under its index key holding them (its slot unused),
//! and an accessor element lives among the props with a hole in the vector.

use super::*;
use crate::heap::Prop;
use crate::limits::MAX_ARRAY_LENGTH;
use crate::vm::Throw;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Object.defineProperty", object_define_property, 3),
    ("Object.defineProperties", object_define_properties, 2),
    ("Object.create", object_create, 2),
    (
        "Object.getOwnPropertyDescriptor",
        object_get_own_property_descriptor,
        2,
    ),
    (
        "Object.getOwnPropertyDescriptors",
        object_get_own_property_descriptors,
        1,
    ),
    (
        "Object.getOwnPropertyNames",
        object_get_own_property_names,
        1,
    ),
    (
        "Object.getOwnPropertySymbols",
        object_get_own_property_symbols,
        1,
    ),
    ("Object.preventExtensions", object_prevent_extensions, 1),
    ("Object.isExtensible", object_is_extensible, 1),
    ("Object.seal", object_seal, 1),
    ("Object.isSealed", object_is_sealed, 1),
    ("Object.freeze", object_freeze, 1),
    ("Object.isFrozen", object_is_frozen, 1),
    (
        "Object.prototype.propertyIsEnumerable",
        object_proto_property_is_enumerable,
        1,
    ),
];

/// A property descriptor: each field present or absent (§6.2.6).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Desc {
    pub value: Option<Value>,
    pub writable: Option<bool>,
    pub get: Option<Value>,
    pub set: Option<Value>,
    pub enumerable: Option<bool>,
    pub configurable: Option<bool>,
}

impl Desc {
    fn is_accessor(&self) -> bool {
        self.get.is_some() || self.set.is_some()
    }
    fn is_data(&self) -> bool {
        self.value.is_some() || self.writable.is_some()
    }
    fn is_empty(&self) -> bool {
        *self == Desc::default()
    }
}

/// SameValue (§7.2.10).
pub fn same_value(vm: &Vm, a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => vm.strict_equals(a, b),
    }
}

fn is_callable(vm: &Vm, v: Value) -> bool {
    matches!(v, Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_)))
}

/// ToPropertyDescriptor (§6.2.6.5): reads `enumerable`, `configurable`, `value`,
/// `writable`, `get`, `set` in that order (inherited ones too). TypeError for a non-object,
/// a getter or setter that is not callable, and accessors mixed with `value`/`writable`.
pub fn to_desc(vm: &mut Vm, d: Value) -> Res<Desc> {
    if !matches!(d, Value::Obj(_)) {
        let s = inspect(vm, d)?;
        return Err(vm.type_error(&format!("Property description must be an object: {s}")));
    }
    let mut out = Desc::default();
    for name in [
        "enumerable",
        "configurable",
        "value",
        "writable",
        "get",
        "set",
    ] {
        let k = vm.heap.key(name);
        if !vm.has_property(d, k) {
            continue;
        }
        let v = vm.get_value(d, k)?;
        match name {
            "enumerable" => out.enumerable = Some(vm.truthy(v)),
            "configurable" => out.configurable = Some(vm.truthy(v)),
            "value" => out.value = Some(v),
            "writable" => out.writable = Some(vm.truthy(v)),
            _ => {
                if v != Value::Undefined && !is_callable(vm, v) {
                    let s = super::errors::describe(vm, v)?;
                    let what = if name == "get" { "Getter" } else { "Setter" };
                    return Err(vm.type_error(&format!("{what} must be a function: {s}")));
                }
                if name == "get" {
                    out.get = Some(v);
                } else {
                    out.set = Some(v);
                }
            }
        }
    }
    if out.is_accessor() && out.is_data() {
        return Err(vm.type_error(
            "Invalid property descriptor. Cannot both specify accessors and a value or writable attribute",
        ));
    }
    Ok(out)
}

/// FromPropertyDescriptor (§6.2.6.4): `{value, writable, enumerable, configurable}` or
/// `{get, set, enumerable, configurable}`; `undefined` for no property.
pub fn from_prop(vm: &mut Vm, p: Option<Prop>) -> Res<Value> {
    let Some(p) = p else {
        return Ok(Value::Undefined);
    };
    let o = vm.new_object()?;
    let put = |vm: &mut Vm, name: &str, v: Value| -> Res<()> {
        let k = vm.heap.key(name);
        vm.define(o, k, Slot::Data(v), DEFAULT_ATTRS)
    };
    match p.slot {
        Slot::Data(v) => {
            put(vm, "value", v)?;
            put(vm, "writable", Value::Bool(p.attrs & WRITABLE != 0))?;
        }
        Slot::Accessor(g, s) => {
            put(vm, "get", g)?;
            put(vm, "set", s)?;
        }
    }
    put(vm, "enumerable", Value::Bool(p.attrs & ENUMERABLE != 0))?;
    put(vm, "configurable", Value::Bool(p.attrs & CONFIGURABLE != 0))?;
    Ok(Value::Obj(o))
}

/// What ValidateAndApplyPropertyDescriptor decides.
enum Apply {
    Reject,
    Keep,
    Set(Slot, u8),
}

/// ValidateAndApplyPropertyDescriptor (§10.1.6.3) without the write: the new slot and
/// attributes, or a rejection.
fn validate(vm: &Vm, current: Option<Prop>, d: &Desc, extensible: bool) -> Apply {
    let bit =
        |b: Option<bool>, cur: bool, mask: u8| -> u8 { if b.unwrap_or(cur) { mask } else { 0 } };
    let Some(cur) = current else {
        if !extensible {
            return Apply::Reject;
        }
        let attrs = bit(d.enumerable, false, ENUMERABLE) | bit(d.configurable, false, CONFIGURABLE);
        return if d.is_accessor() {
            Apply::Set(
                Slot::Accessor(
                    d.get.unwrap_or(Value::Undefined),
                    d.set.unwrap_or(Value::Undefined),
                ),
                attrs,
            )
        } else {
            Apply::Set(
                Slot::Data(d.value.unwrap_or(Value::Undefined)),
                attrs | bit(d.writable, false, WRITABLE),
            )
        };
    };
    if d.is_empty() {
        return Apply::Keep;
    }
    let cur_conf = cur.attrs & CONFIGURABLE != 0;
    let cur_enum = cur.attrs & ENUMERABLE != 0;
    let cur_writable = cur.attrs & WRITABLE != 0;
    let cur_acc = matches!(cur.slot, Slot::Accessor(..));
    if !cur_conf {
        if d.configurable == Some(true) {
            return Apply::Reject;
        }
        if d.enumerable.is_some_and(|e| e != cur_enum) {
            return Apply::Reject;
        }
        let generic = !d.is_accessor() && !d.is_data();
        if !generic && d.is_accessor() != cur_acc {
            return Apply::Reject;
        }
        match cur.slot {
            Slot::Accessor(g, s) => {
                if d.get.is_some_and(|x| !same_value(vm, x, g))
                    || d.set.is_some_and(|x| !same_value(vm, x, s))
                {
                    return Apply::Reject;
                }
            }
            Slot::Data(v) => {
                if !cur_writable
                    && (d.writable == Some(true) || d.value.is_some_and(|x| !same_value(vm, x, v)))
                {
                    return Apply::Reject;
                }
            }
        }
    }
    let attrs =
        bit(d.enumerable, cur_enum, ENUMERABLE) | bit(d.configurable, cur_conf, CONFIGURABLE);
    match cur.slot {
        Slot::Data(_) if d.is_accessor() => Apply::Set(
            Slot::Accessor(
                d.get.unwrap_or(Value::Undefined),
                d.set.unwrap_or(Value::Undefined),
            ),
            attrs,
        ),
        Slot::Accessor(..) if d.is_data() => Apply::Set(
            Slot::Data(d.value.unwrap_or(Value::Undefined)),
            attrs | bit(d.writable, false, WRITABLE),
        ),
        Slot::Data(v) => Apply::Set(
            Slot::Data(d.value.unwrap_or(v)),
            attrs | bit(d.writable, cur_writable, WRITABLE),
        ),
        Slot::Accessor(g, s) => Apply::Set(
            Slot::Accessor(d.get.unwrap_or(g), d.set.unwrap_or(s)),
            attrs,
        ),
    }
}

/// Store an own property decided by [`validate`]. Data elements of arrays (and of
/// `arguments` within its length) stay in the element vector, with a props entry holding
/// their attributes when these differ from the object's shared ones; accessor elements live
/// among the props, with a hole in the vector.
fn write_prop(vm: &mut Vm, o: ObjId, key: Key, slot: Slot, attrs: u8) -> Res<()> {
    let obj = vm.heap.obj(o);
    let shared = obj.element_attrs();
    let is_array = matches!(obj.kind, Kind::Array(_));
    if let (Key::Index(i), Kind::Array(e) | Kind::Arguments(e)) = (key, &obj.kind) {
        let len = e.len();
        match slot {
            Slot::Data(v) if is_array || (i as usize) < len => {
                if is_array {
                    vm.array_set_element(o, i, v)?;
                } else if let Kind::Arguments(e) = &mut vm.heap.obj_mut(o).kind {
                    e.set(i as usize, v);
                }
                if attrs == shared {
                    vm.heap.obj_mut(o).props.remove(key);
                    return Ok(());
                }
                return put_prop(vm, o, key, Slot::Data(Value::Empty), attrs);
            }
            _ => {
                if (i as usize) < len {
                    if let Kind::Array(e) | Kind::Arguments(e) = &mut vm.heap.obj_mut(o).kind {
                        e.delete(i as usize);
                    }
                } else if is_array {
                    // The element vector holds the length: grow it with a hole.
                    vm.array_set_element(o, i, Value::Empty)?;
                }
            }
        }
    }
    put_prop(vm, o, key, slot, attrs)
}

/// Overwrite or add a props entry.
fn put_prop(vm: &mut Vm, o: ObjId, key: Key, slot: Slot, attrs: u8) -> Res<()> {
    Ok(vm.heap.put_prop(o, key, slot, attrs)?)
}

/// [[DefineOwnProperty]] (§10.1.6, arrays §10.4.2.1): `Ok(false)` when the descriptor is
/// rejected (the caller throws or returns false).
pub fn define_own(vm: &mut Vm, o: ObjId, key: Key, d: &Desc) -> Res<bool> {
    let is_array = matches!(vm.heap.obj(o).kind, Kind::Array(_));
    if is_array && vm.is_length(key) {
        return array_define_length(vm, o, d);
    }
    if is_array && let Key::Index(i) = key {
        let obj = vm.heap.obj(o);
        let len = match &obj.kind {
            Kind::Array(e) => e.len(),
            _ => 0,
        };
        if i as usize >= len && (obj.length_readonly || obj.frozen_elements) {
            return Ok(false);
        }
        if i as usize >= MAX_ARRAY_LENGTH {
            return Err(vm.range_error("Invalid array length"));
        }
    }
    let current = vm.own(o, key);
    let extensible = vm.heap.obj(o).extensible;
    match validate(vm, current, d, extensible) {
        Apply::Reject => Ok(false),
        Apply::Keep => Ok(true),
        Apply::Set(slot, attrs) => {
            write_prop(vm, o, key, slot, attrs)?;
            Ok(true)
        }
    }
}

/// ArraySetLength (§10.4.2.4) and the ordinary definition of an array's `length`.
fn array_define_length(vm: &mut Vm, o: ObjId, d: &Desc) -> Res<bool> {
    let k = vm.heap.key("length");
    let current = vm.own(o, k);
    let Some(value) = d.value else {
        return Ok(match validate(vm, current, d, true) {
            Apply::Reject => false,
            Apply::Keep => true,
            Apply::Set(..) => {
                if d.writable == Some(false) {
                    vm.heap.obj_mut(o).length_readonly = true;
                }
                true
            }
        });
    };
    let n = vm.to_number(value)?;
    let len32 = crate::vm::to_int32(n) as u32;
    if len32 as f64 != n {
        return Err(vm.range_error("Invalid array length"));
    }
    if len32 as usize > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    let mut nd = *d;
    nd.value = Some(Value::Num(len32 as f64));
    if let Apply::Reject = validate(vm, current, &nd, true) {
        return Ok(false);
    }
    let new = len32 as usize;
    let stuck = vm.array_truncate(o, new).is_err();
    if d.writable == Some(false) {
        vm.heap.obj_mut(o).length_readonly = true;
    }
    Ok(!stuck)
}

fn target_obj(vm: &mut Vm, v: Value, what: &str) -> Res<ObjId> {
    match v {
        Value::Obj(o) => Ok(o),
        _ => Err(vm.type_error(&format!("{what} called on non-object"))),
    }
}

/// Object.defineProperty's rejection, worded as V8's.
fn cannot_define(vm: &mut Vm, o: ObjId, key: Key) -> Throw {
    let k = vm.key_display(key);
    if vm.own(o, key).is_none() && !vm.heap.obj(o).extensible {
        return vm.type_error(&format!(
            "Cannot define property {k}, object is not extensible"
        ));
    }
    vm.type_error(&format!("Cannot redefine property: {k}"))
}

pub(super) fn object_define_property(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target_obj(vm, arg(args, 0), "Object.defineProperty")?;
    let key = vm.to_key(arg(args, 1))?;
    let d = to_desc(vm, arg(args, 2))?;
    if !define_own(vm, o, key, &d)? {
        return Err(cannot_define(vm, o, key));
    }
    Ok(Value::Obj(o))
}

/// ObjectDefineProperties (§20.1.2.3.1): every descriptor is read before any is applied.
fn define_properties(vm: &mut Vm, o: ObjId, props: Value) -> Res<()> {
    let src = to_object(vm, props)?;
    let mut descs = Vec::new();
    for k in own_property_keys(vm, src) {
        let Some(p) = vm.own(src, k) else { continue };
        if p.attrs & ENUMERABLE == 0 {
            continue;
        }
        let dv = vm.get_value(Value::Obj(src), k)?;
        descs.push((k, to_desc(vm, dv)?));
    }
    vm.work(descs.len());
    for (k, d) in descs {
        if !define_own(vm, o, k, &d)? {
            return Err(cannot_define(vm, o, k));
        }
    }
    Ok(())
}

pub(super) fn object_define_properties(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target_obj(vm, arg(args, 0), "Object.defineProperties")?;
    define_properties(vm, o, arg(args, 1))?;
    Ok(Value::Obj(o))
}

pub(super) fn object_create(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let proto = match arg(args, 0) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        v => {
            let s = inspect(vm, v)?;
            return Err(vm.type_error(&format!(
                "Object prototype may only be an Object or null: {s}"
            )));
        }
    };
    let o = vm.heap.new_obj(proto, Kind::Ordinary)?;
    if arg(args, 1) != Value::Undefined {
        define_properties(vm, o, arg(args, 1))?;
    }
    Ok(Value::Obj(o))
}

/// Every own key in spec order (§10.1.11.1): indices ascending, then names in insertion
/// order (an array's `length` first among them), then symbols.
pub fn own_property_keys(vm: &mut Vm, o: ObjId) -> Vec<Key> {
    let mut keys = own_keys(vm, o, false);
    let has_length = matches!(
        vm.heap.obj(o).kind,
        Kind::Array(_) | Kind::Arguments(_) | Kind::String(_)
    );
    let lk = vm.heap.key("length");
    if has_length && !keys.contains(&lk) {
        let at = keys
            .iter()
            .position(|k| !matches!(k, Key::Index(_)))
            .unwrap_or(keys.len());
        keys.insert(at, lk);
    }
    keys
}

pub(super) fn object_get_own_property_descriptor(
    vm: &mut Vm,
    _: Value,
    args: &[Value],
) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    let key = vm.to_key(arg(args, 1))?;
    let p = own_prop(vm, o, key);
    from_prop(vm, p)
}

/// An own property as a descriptor sees it (string objects' `length` too).
pub fn own_prop(vm: &mut Vm, o: ObjId, key: Key) -> Option<Prop> {
    if let Kind::String(s) = vm.heap.obj(o).kind
        && vm.is_length(key)
    {
        return Some(Prop {
            key,
            slot: Slot::Data(Value::Num(vm.heap.str(s).len() as f64)),
            attrs: 0,
        });
    }
    vm.own(o, key)
}

pub(super) fn object_get_own_property_descriptors(
    vm: &mut Vm,
    _: Value,
    args: &[Value],
) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    let out = vm.new_object()?;
    for k in own_property_keys(vm, o) {
        let p = own_prop(vm, o, k);
        let d = from_prop(vm, p)?;
        if d != Value::Undefined {
            vm.define(out, k, Slot::Data(d), DEFAULT_ATTRS)?;
        }
    }
    Ok(Value::Obj(out))
}

/// The keys of `o` as values: strings (`symbols` false) or symbols.
pub fn key_list(vm: &mut Vm, o: ObjId, strings: bool, symbols: bool) -> Res<Value> {
    let mut out = Vec::new();
    for k in own_property_keys(vm, o) {
        let is_sym = matches!(k, Key::Sym(_));
        if (is_sym && symbols) || (!is_sym && strings) {
            out.push(key_value(vm, k)?);
        }
    }
    vm.work(out.len());
    vm.new_array(out)
}

pub(super) fn object_get_own_property_names(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    key_list(vm, o, true, false)
}

pub(super) fn object_get_own_property_symbols(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    key_list(vm, o, false, true)
}

pub(super) fn object_prevent_extensions(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if let Value::Obj(o) = arg(args, 0) {
        vm.heap.obj_mut(o).extensible = false;
    }
    Ok(arg(args, 0))
}

pub(super) fn object_is_extensible(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if vm.heap.obj(o).extensible),
    ))
}

/// SetIntegrityLevel (§7.3.15): sealed, or frozen when `freeze`.
pub fn set_integrity(vm: &mut Vm, o: ObjId, freeze: bool) {
    let obj = vm.heap.obj_mut(o);
    obj.extensible = false;
    obj.sealed_elements = true;
    if freeze {
        obj.frozen_elements = true;
        obj.length_readonly = true;
    }
    for p in &mut obj.props.list {
        p.attrs &= !CONFIGURABLE;
        if freeze && matches!(p.slot, Slot::Data(_)) {
            p.attrs &= !WRITABLE;
        }
    }
}

/// TestIntegrityLevel (§7.3.16).
pub fn test_integrity(vm: &mut Vm, o: ObjId, frozen: bool) -> bool {
    if vm.heap.obj(o).extensible {
        return false;
    }
    for k in own_property_keys(vm, o) {
        let Some(p) = own_prop(vm, o, k) else {
            continue;
        };
        if p.attrs & CONFIGURABLE != 0 {
            return false;
        }
        if frozen && matches!(p.slot, Slot::Data(_)) && p.attrs & WRITABLE != 0 {
            return false;
        }
    }
    true
}

pub(super) fn object_seal(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if let Value::Obj(o) = arg(args, 0) {
        set_integrity(vm, o, false);
    }
    Ok(arg(args, 0))
}

pub(super) fn object_freeze(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if let Value::Obj(o) = arg(args, 0) {
        set_integrity(vm, o, true);
    }
    Ok(arg(args, 0))
}

pub(super) fn object_is_sealed(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(match arg(args, 0) {
        Value::Obj(o) => test_integrity(vm, o, false),
        _ => true,
    }))
}

pub(super) fn object_is_frozen(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(match arg(args, 0) {
        Value::Obj(o) => test_integrity(vm, o, true),
        _ => true,
    }))
}

pub(super) fn object_proto_property_is_enumerable(
    vm: &mut Vm,
    this: Value,
    args: &[Value],
) -> Res<Value> {
    let key = vm.to_key(arg(args, 0))?;
    let o = to_object(vm, this)?;
    Ok(Value::Bool(
        own_prop(vm, o, key).is_some_and(|p| p.attrs & ENUMERABLE != 0),
    ))
}

#[cfg(test)]
mod tests {
    use crate::tests::{out_of_memory, run};
    use serde_json::{Value as Json, json};

    fn value(src: &str) -> Json {
        match run(src) {
            Ok((v, _, _)) => v,
            Err(e) => panic!("{src}: {e:?}"),
        }
    }

    /// The message of the error `src` throws (caught in the program).
    fn thrown(src: &str) -> String {
        let v = value(&format!(
            "try {{ {src}; return 'no error'; }} catch (e) {{ return e.name + ': ' + e.message; }}"
        ));
        v.as_str().unwrap_or_default().to_string()
    }

    #[test]
    fn function_constructor_cannot_build_code_from_strings() {
        let m = thrown("const F = globalThis.Function; F('return 1')");
        assert!(
            m.starts_with("EvalError: Function(...) cannot build code from strings"),
            "{m}"
        );
        assert!(m.contains("(a, b) => a + b"), "{m}");
        let m = thrown(
            "const F = Object.getPrototypeOf(function () {}).constructor; new F('a', 'return a')",
        );
        assert!(m.starts_with("EvalError: Function(...)"), "{m}");
        assert_eq!(
            value(
                "return [Function.prototype.constructor === Function, (() => 1) instanceof Function, \
                 Function.length, Function.name, Function.prototype.name, Function.prototype()]"
            ),
            json!([true, true, 1, "Function", "", null])
        );
    }

    #[test]
    fn define_property_rejections_are_worded_as_v8() {
        assert_eq!(
            thrown(
                "const o = {}; Object.defineProperty(o, 'x', { value: 1 }); Object.defineProperty(o, 'x', { value: 2 })"
            ),
            "TypeError: Cannot redefine property: x"
        );
        assert_eq!(
            thrown("Object.defineProperty(Object.preventExtensions({}), 'y', { value: 1 })"),
            "TypeError: Cannot define property y, object is not extensible"
        );
        assert_eq!(
            thrown("Object.defineProperty({}, 'x', { get() {}, value: 1 })"),
            "TypeError: Invalid property descriptor. Cannot both specify accessors and a value or writable attribute"
        );
        assert_eq!(
            thrown("Object.defineProperty({}, 'x', { get: 1 })"),
            "TypeError: Getter must be a function: 1"
        );
        assert_eq!(
            thrown("class Config {}; const c = Object.freeze(new Config()); c.mode = 1"),
            "TypeError: Cannot add property mode, object is not extensible"
        );
        assert_eq!(
            thrown(
                "class Config { constructor() { Object.defineProperty(this, 'mode', { value: 1 }); } }; new Config().mode = 2"
            ),
            "TypeError: Cannot assign to read only property 'mode' of object '#<Config>'"
        );
        assert_eq!(
            thrown("delete Object.seal({ a: 1 }).a"),
            "TypeError: Cannot delete property 'a' of #<Object>"
        );
    }

    #[test]
    fn array_length_and_index_descriptors() {
        // A non-configurable element stops the truncation; the length stays past it.
        assert_eq!(
            value(
                "const a = [1, 2, 3, 4]; Object.defineProperty(a, 1, { value: 2, configurable: false }); \
                 let e = null; try { a.length = 0; } catch (x) { e = x.constructor.name; } \
                 return [e, a.length, Reflect.defineProperty(a, 'length', { value: 0 }), a]"
            ),
            json!(["TypeError", 2, false, [1, 2]])
        );
        // An accessor element reads through its getter; its descriptor says so.
        assert_eq!(
            value(
                "const a = [0, 0]; let n = 0; Object.defineProperty(a, 0, { get() { return ++n; }, enumerable: true }); \
                 const d = Object.getOwnPropertyDescriptor(a, 0); \
                 return [a[0], a[0], typeof d.get, d.enumerable, d.configurable, Object.keys(a), a.length]"
            ),
            json!([1, 2, "function", true, true, ["0", "1"], 2])
        );
        assert_eq!(
            thrown("Object.defineProperty([], 'length', { value: -1 })"),
            "RangeError: Invalid array length"
        );
        assert_eq!(
            value(
                "const a = Object.seal([1, 2]); a[0] = 9; return [a, Object.isSealed(a), Object.isFrozen(a), Reflect.deleteProperty(a, 0)]"
            ),
            json!([[9, 2], true, false, false])
        );
    }

    #[test]
    fn weak_collections_are_memory_accounted() {
        let src = "const w = new WeakMap(); const keep = []; \
                   for (let i = 0; i < 1e6; i++) { const k = {}; keep.push(k); w.set(k, i); } return 1";
        assert!(out_of_memory(src, 8 << 20) < 9 << 20);
        assert_eq!(
            thrown("new WeakMap().set(1, 1)"),
            "TypeError: Invalid value used as weak map key"
        );
        assert_eq!(
            thrown("WeakMap()"),
            "TypeError: Constructor WeakMap requires 'new'"
        );
    }
}
