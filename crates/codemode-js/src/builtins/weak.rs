//! `WeakMap` and `WeakSet` (ECMA-262 §24.3-4): keys are objects and symbols not made by
//! `Symbol.for` (CanBeHeldWeakly, §9.13). This collector holds their
//! entries strongly (weakness is not observable without `WeakRef`); every entry is charged
//! to the run's memory and every look-up to its fuel.

use super::collections::{Coll, find, put, receiver, remove, table};
use super::*;
use crate::heap::Table;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("WeakMap", weak_map_ctor, 0),
    ("WeakMap.prototype.get", weak_map_get, 1),
    ("WeakMap.prototype.set", weak_map_set, 2),
    ("WeakMap.prototype.has", weak_map_has, 1),
    ("WeakMap.prototype.delete", weak_map_delete, 1),
    ("WeakSet", weak_set_ctor, 0),
    ("WeakSet.prototype.add", weak_set_add, 1),
    ("WeakSet.prototype.has", weak_set_has, 1),
    ("WeakSet.prototype.delete", weak_set_delete, 1),
];

/// The object made by `new` for this constructor, else TypeError.
fn new_target_obj(vm: &mut Vm, this: Value, name: &str) -> Res<ObjId> {
    let msg = format!("Constructor {name} requires 'new'");
    let Value::Obj(o) = this else {
        return Err(vm.type_error(&msg));
    };
    if !matches!(vm.heap.obj(o).kind, Kind::Ordinary) || vm.native_construct != Some(o) {
        return Err(vm.type_error(&msg));
    }
    Ok(o)
}

pub(super) fn weak_map_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = new_target_obj(vm, this, "WeakMap")?;
    if let Some(r) =
        super::collections::fill_generic(vm, this, arg(args, 0), "set", "WeakMap.prototype.set")
    {
        // (The prelude's loop adds through `set`, which needs the table.)
        vm.heap.obj_mut(o).kind = Kind::WeakMap(Table::default());
        return r;
    }
    let mut entries = Vec::new();
    if !arg(args, 0).is_nullish() {
        for it in vm.iterate_fast(arg(args, 0))? {
            if !matches!(it, Value::Obj(_)) {
                let s = inspect(vm, it)?;
                return Err(vm.type_error(&format!("Iterator value {s} is not an entry object")));
            }
            let k = vm.get_value(it, Key::Index(0))?;
            let v = vm.get_value(it, Key::Index(1))?;
            entries.push((k, v));
        }
    }
    vm.heap.obj_mut(o).kind = Kind::WeakMap(Table::default());
    for (k, v) in entries {
        weak_map_set(vm, this, &[k, v])?;
    }
    Ok(this)
}

/// CanBeHeldWeakly (§9.13): an object, or a symbol not in the registry.
fn can_be_held_weakly(vm: &Vm, v: Value) -> bool {
    match v {
        Value::Obj(_) => true,
        Value::Sym(s) => !vm.heap.registry.contains(&s),
        _ => false,
    }
}

/// The position of weak key `k` (None for values that cannot be keys).
fn weak_find(vm: &mut Vm, o: ObjId, c: Coll, k: Value) -> Option<usize> {
    if !can_be_held_weakly(vm, k) {
        return None;
    }
    find(vm, o, c, k).0
}

pub(super) fn weak_map_get(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakMap, "get")?;
    Ok(weak_find(vm, o, Coll::WeakMap, arg(args, 0))
        .and_then(|i| table(vm, o, Coll::WeakMap)?.entry(i))
        .map_or(Value::Undefined, |(_, v)| v))
}

pub(super) fn weak_map_set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakMap, "set")?;
    let k = arg(args, 0);
    if !can_be_held_weakly(vm, k) {
        return Err(vm.type_error("Invalid value used as weak map key"));
    }
    put(vm, o, Coll::WeakMap, k, arg(args, 1))?;
    Ok(this)
}

pub(super) fn weak_map_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakMap, "has")?;
    Ok(Value::Bool(
        weak_find(vm, o, Coll::WeakMap, arg(args, 0)).is_some(),
    ))
}

pub(super) fn weak_map_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakMap, "delete")?;
    let k = arg(args, 0);
    Ok(Value::Bool(
        can_be_held_weakly(vm, k) && remove(vm, o, Coll::WeakMap, k),
    ))
}

pub(super) fn weak_set_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = new_target_obj(vm, this, "WeakSet")?;
    if let Some(r) =
        super::collections::fill_generic(vm, this, arg(args, 0), "add", "WeakSet.prototype.add")
    {
        // (The prelude's loop adds through `add`, which needs the table.)
        vm.heap.obj_mut(o).kind = Kind::WeakSet(Table::default());
        return r;
    }
    let items = if arg(args, 0).is_nullish() {
        Vec::new()
    } else {
        vm.iterate_fast(arg(args, 0))?
    };
    vm.heap.obj_mut(o).kind = Kind::WeakSet(Table::default());
    for v in items {
        weak_set_add(vm, this, &[v])?;
    }
    Ok(this)
}

pub(super) fn weak_set_add(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakSet, "add")?;
    let k = arg(args, 0);
    if !can_be_held_weakly(vm, k) {
        return Err(vm.type_error("Invalid value used in weak set"));
    }
    put(vm, o, Coll::WeakSet, k, k)?;
    Ok(this)
}

pub(super) fn weak_set_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakSet, "has")?;
    Ok(Value::Bool(
        weak_find(vm, o, Coll::WeakSet, arg(args, 0)).is_some(),
    ))
}

pub(super) fn weak_set_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::WeakSet, "delete")?;
    let k = arg(args, 0);
    Ok(Value::Bool(
        can_be_held_weakly(vm, k) && remove(vm, o, Coll::WeakSet, k),
    ))
}
