//! `Reflect` (ECMA-262 §28.1): the natives that do not call user code. `apply`,
//! `construct`, `get` and `set` (which may run user functions, getters and setters) are in
//! `prelude.js`, built on the `%Intrinsics%` helpers here.

use super::descriptors::{define_own, from_prop, own_prop, own_property_keys, to_desc};
use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Reflect.defineProperty", reflect_define_property, 3),
    ("Reflect.deleteProperty", reflect_delete_property, 2),
    (
        "Reflect.getOwnPropertyDescriptor",
        reflect_get_own_property_descriptor,
        2,
    ),
    ("Reflect.getPrototypeOf", reflect_get_prototype_of, 1),
    ("Reflect.has", reflect_has, 2),
    ("Reflect.isExtensible", reflect_is_extensible, 1),
    ("Reflect.ownKeys", reflect_own_keys, 1),
    ("Reflect.preventExtensions", reflect_prevent_extensions, 1),
    ("Reflect.setPrototypeOf", reflect_set_prototype_of, 2),
    ("%Intrinsics%.isConstructor", intr_is_constructor, 1),
    (
        "%Intrinsics%.listFromArrayLike",
        intr_list_from_array_like,
        1,
    ),
    ("%Intrinsics%.findProperty", intr_find_property, 2),
    ("%Intrinsics%.toPropertyKey", intr_to_property_key, 1),
];

/// `toPropertyKey(v)`: ToPropertyKey (§7.1.19) as a string or symbol.
pub(super) fn intr_to_property_key(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let k = vm.to_key(arg(args, 0))?;
    key_value(vm, k)
}

/// The target of a `Reflect` function: an object, else TypeError.
fn target(vm: &mut Vm, v: Value, method: &str) -> Res<ObjId> {
    match v {
        Value::Obj(o) => Ok(o),
        _ => Err(vm.type_error(&format!("Reflect.{method} called on non-object"))),
    }
}

pub(super) fn reflect_define_property(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "defineProperty")?;
    let key = vm.to_key(arg(args, 1))?;
    let d = to_desc(vm, arg(args, 2))?;
    Ok(Value::Bool(define_own(vm, o, key, &d)?))
}

pub(super) fn reflect_delete_property(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "deleteProperty")?;
    let key = vm.to_key(arg(args, 1))?;
    Ok(Value::Bool(vm.delete_own(o, key).is_ok()))
}

pub(super) fn reflect_get_own_property_descriptor(
    vm: &mut Vm,
    _: Value,
    args: &[Value],
) -> Res<Value> {
    let o = target(vm, arg(args, 0), "getOwnPropertyDescriptor")?;
    let key = vm.to_key(arg(args, 1))?;
    let p = own_prop(vm, o, key);
    from_prop(vm, p)
}

pub(super) fn reflect_get_prototype_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "getPrototypeOf")?;
    Ok(vm.heap.obj(o).proto.map_or(Value::Null, Value::Obj))
}

pub(super) fn reflect_has(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "has")?;
    let key = vm.to_key(arg(args, 1))?;
    Ok(Value::Bool(vm.has_property(Value::Obj(o), key)))
}

pub(super) fn reflect_is_extensible(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "isExtensible")?;
    Ok(Value::Bool(vm.heap.obj(o).extensible))
}

pub(super) fn reflect_own_keys(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "ownKeys")?;
    let mut out = Vec::new();
    for k in own_property_keys(vm, o) {
        out.push(key_value(vm, k)?);
    }
    vm.work(out.len());
    vm.new_array(out)
}

pub(super) fn reflect_prevent_extensions(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "preventExtensions")?;
    vm.heap.obj_mut(o).extensible = false;
    Ok(Value::Bool(true))
}

/// OrdinarySetPrototypeOf (§10.1.2.1): false when the object is not extensible (and the
/// prototype changes) or when the new chain would reach the object.
pub fn set_prototype(vm: &mut Vm, o: ObjId, proto: Option<ObjId>) -> bool {
    if vm.heap.obj(o).proto == proto {
        return true;
    }
    if !vm.heap.obj(o).extensible {
        return false;
    }
    let mut cur = proto;
    while let Some(p) = cur {
        if p == o {
            return false;
        }
        cur = vm.heap.obj(p).proto;
    }
    vm.heap.obj_mut(o).proto = proto;
    true
}

pub(super) fn reflect_set_prototype_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = target(vm, arg(args, 0), "setPrototypeOf")?;
    let proto = match arg(args, 1) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        _ => return Err(vm.type_error("Object prototype may only be an Object or null")),
    };
    Ok(Value::Bool(set_prototype(vm, o, proto)))
}

/// `isConstructor(v)`: `new v()` would not throw "is not a constructor".
pub(super) fn intr_is_constructor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(vm.is_constructor(arg(args, 0))))
}

/// `listFromArrayLike(v)`: CreateListFromArrayLike (§7.3.19) as an array; TypeError for a
/// non-object.
pub(super) fn intr_list_from_array_like(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    if !matches!(v, Value::Obj(_)) {
        return Err(vm.type_error("CreateListFromArrayLike called on non-object"));
    }
    let list = vm.list_from_array_like(v)?;
    vm.new_array(list)
}

/// `findProperty(o, key)`: the descriptor of `key` on `o` or the first prototype that has
/// it, else undefined (for `Reflect.get`/`set` with a receiver).
pub(super) fn intr_find_property(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let key = vm.to_key(arg(args, 1))?;
    // Prototype chains are acyclic (every [[SetPrototypeOf]] checks).
    let mut cur = arg(args, 0).obj();
    while let Some(o) = cur {
        if let Some(p) = own_prop(vm, o, key) {
            return from_prop(vm, Some(p));
        }
        cur = vm.heap.obj(o).proto;
        vm.work(1);
    }
    Ok(Value::Undefined)
}
