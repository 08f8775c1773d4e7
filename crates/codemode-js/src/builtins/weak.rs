//! `WeakMap` and `WeakSet` (ECMA-262 §24.3-4): keys are objects and symbols not made by
//! `Symbol.for` (CanBeHeldWeakly, §9.13). This collector holds their
//! entries strongly (weakness is not observable without `WeakRef`); every entry is charged
//! to the run's memory and every look-up to its fuel.

use super::*;

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
    vm.heap.obj_mut(o).kind = Kind::WeakMap(Vec::new());
    for (k, v) in entries {
        weak_map_set(vm, this, &[k, v])?;
    }
    Ok(this)
}

fn weak_map_of(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::WeakMap(_)) => Ok(o),
        _ => Err(vm.type_error(&format!(
            "Method WeakMap.prototype.{method} called on incompatible receiver"
        ))),
    }
}

/// CanBeHeldWeakly (§9.13): an object, or a symbol not in the registry.
fn can_be_held_weakly(vm: &Vm, v: Value) -> bool {
    match v {
        Value::Obj(_) => true,
        Value::Sym(s) => !vm.heap.registry.contains(&s),
        _ => false,
    }
}

fn weak_map_find(vm: &mut Vm, o: ObjId, k: Value) -> Option<usize> {
    if !can_be_held_weakly(vm, k) {
        return None;
    }
    let Kind::WeakMap(e) = &vm.heap.obj(o).kind else {
        return None;
    };
    let n = e.len();
    let at = e.iter().position(|(x, _)| *x == k);
    vm.work(1 + n / 8);
    at
}

pub(super) fn weak_map_get(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_map_of(vm, this, "get")?;
    Ok(match weak_map_find(vm, o, arg(args, 0)) {
        Some(i) => match &vm.heap.obj(o).kind {
            Kind::WeakMap(e) => e[i].1,
            _ => Value::Undefined,
        },
        None => Value::Undefined,
    })
}

pub(super) fn weak_map_set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_map_of(vm, this, "set")?;
    let k = arg(args, 0);
    if !can_be_held_weakly(vm, k) {
        let s = inspect(vm, k)?;
        return Err(vm.type_error(&format!("Invalid value used as weak map key: {s}")));
    }
    let v = arg(args, 1);
    match weak_map_find(vm, o, k) {
        Some(i) => {
            if let Kind::WeakMap(e) = &mut vm.heap.obj_mut(o).kind {
                e[i].1 = v;
            }
        }
        None => {
            vm.heap.charge(2 * crate::heap::VALUE_BYTES)?;
            if let Kind::WeakMap(e) = &mut vm.heap.obj_mut(o).kind {
                e.push((k, v));
            }
        }
    }
    Ok(this)
}

pub(super) fn weak_map_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_map_of(vm, this, "has")?;
    Ok(Value::Bool(weak_map_find(vm, o, arg(args, 0)).is_some()))
}

pub(super) fn weak_map_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_map_of(vm, this, "delete")?;
    let Some(i) = weak_map_find(vm, o, arg(args, 0)) else {
        return Ok(Value::Bool(false));
    };
    if let Kind::WeakMap(e) = &mut vm.heap.obj_mut(o).kind {
        e.swap_remove(i);
    }
    Ok(Value::Bool(true))
}

pub(super) fn weak_set_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = new_target_obj(vm, this, "WeakSet")?;
    let items = if arg(args, 0).is_nullish() {
        Vec::new()
    } else {
        vm.iterate_fast(arg(args, 0))?
    };
    vm.heap.obj_mut(o).kind = Kind::WeakSet(Vec::new());
    for v in items {
        weak_set_add(vm, this, &[v])?;
    }
    Ok(this)
}

fn weak_set_of(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::WeakSet(_)) => Ok(o),
        _ => Err(vm.type_error(&format!(
            "Method WeakSet.prototype.{method} called on incompatible receiver"
        ))),
    }
}

fn weak_set_find(vm: &mut Vm, o: ObjId, k: Value) -> Option<usize> {
    if !can_be_held_weakly(vm, k) {
        return None;
    }
    let Kind::WeakSet(e) = &vm.heap.obj(o).kind else {
        return None;
    };
    let n = e.len();
    let at = e.iter().position(|x| *x == k);
    vm.work(1 + n / 8);
    at
}

pub(super) fn weak_set_add(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_set_of(vm, this, "add")?;
    let k = arg(args, 0);
    if !can_be_held_weakly(vm, k) {
        let s = inspect(vm, k)?;
        return Err(vm.type_error(&format!("Invalid value used in weak set: {s}")));
    }
    if weak_set_find(vm, o, k).is_none() {
        vm.heap.charge(crate::heap::VALUE_BYTES)?;
        if let Kind::WeakSet(e) = &mut vm.heap.obj_mut(o).kind {
            e.push(k);
        }
    }
    Ok(this)
}

pub(super) fn weak_set_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_set_of(vm, this, "has")?;
    Ok(Value::Bool(weak_set_find(vm, o, arg(args, 0)).is_some()))
}

pub(super) fn weak_set_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = weak_set_of(vm, this, "delete")?;
    let Some(i) = weak_set_find(vm, o, arg(args, 0)) else {
        return Ok(Value::Bool(false));
    };
    if let Kind::WeakSet(e) = &mut vm.heap.obj_mut(o).kind {
        e.swap_remove(i);
    }
    Ok(Value::Bool(true))
}
