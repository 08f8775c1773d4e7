//! `Map` and `Set`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Map", map_ctor, 0),
    ("Map.prototype.get", map_get, 1),
    ("Map.prototype.set", map_set, 2),
    ("Map.prototype.has", map_has, 1),
    ("Map.prototype.delete", map_delete, 1),
    ("Map.prototype.clear", map_clear, 0),
    ("Map.prototype.keys", map_keys, 0),
    ("Map.prototype.values", map_values, 0),
    ("Map.prototype.entries", map_entries, 0),
    ("Set", set_ctor, 0),
    ("Set.prototype.add", set_add, 1),
    ("Set.prototype.has", set_has, 1),
    ("Set.prototype.delete", set_delete, 1),
    ("Set.prototype.clear", set_clear, 0),
    ("Set.prototype.values", set_values, 0),
    ("%Intrinsics%.mapSize", map_size, 0),
];

pub(super) fn map_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    };
    if vm.heap.obj(o).proto != vm.intr.map_proto && !matches!(vm.heap.obj(o).kind, Kind::Ordinary) {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    }
    vm.heap.obj_mut(o).kind = Kind::Map(Vec::new());
    if !arg(args, 0).is_nullish() {
        for it in vm.iterate_fast(arg(args, 0))? {
            let k = vm.get_value(it, Key::Index(0))?;
            let v = vm.get_value(it, Key::Index(1))?;
            map_set(vm, this, &[k, v])?;
        }
    }
    Ok(this)
}

pub(super) fn map_entries_of(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Map(_)) => Ok(o),
        _ => Err(vm.type_error(&format!(
            "Method Map.prototype.{method} called on incompatible receiver"
        ))),
    }
}

pub(super) fn norm_key(v: Value) -> Value {
    match v {
        // -0 + 0 is +0: Map and Set keys treat -0 as 0.
        Value::Num(n) => Value::Num(n + 0.0),
        v => v,
    }
}

pub(super) fn map_find(vm: &Vm, o: ObjId, k: Value) -> Option<usize> {
    let Kind::Map(e) = &vm.heap.obj(o).kind else {
        return None;
    };
    e.iter()
        .position(|(x, _)| *x != Value::Empty && vm.same_value_zero(*x, k))
}

pub(super) fn map_get(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "get")?;
    vm.work(1 + vm.heap.obj(o).props.list.len());
    Ok(match map_find(vm, o, arg(args, 0)) {
        Some(i) => match &vm.heap.obj(o).kind {
            Kind::Map(e) => e[i].1,
            _ => Value::Undefined,
        },
        None => Value::Undefined,
    })
}

pub(super) fn map_set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "set")?;
    let k = norm_key(arg(args, 0));
    let v = arg(args, 1);
    let found = map_find(vm, o, k);
    if found.is_none() {
        vm.heap.charge(2 * crate::heap::VALUE_BYTES)?;
    }
    if let Kind::Map(e) = &mut vm.heap.obj_mut(o).kind {
        match found {
            Some(i) => e[i].1 = v,
            None => e.push((k, v)),
        }
    }
    Ok(this)
}

pub(super) fn map_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "has")?;
    Ok(Value::Bool(map_find(vm, o, arg(args, 0)).is_some()))
}

pub(super) fn map_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "delete")?;
    let found = map_find(vm, o, arg(args, 0));
    if let (Some(i), Kind::Map(e)) = (found, &mut vm.heap.obj_mut(o).kind) {
        e.remove(i);
        return Ok(Value::Bool(true));
    }
    Ok(Value::Bool(false))
}

pub(super) fn map_clear(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "clear")?;
    if let Kind::Map(e) = &mut vm.heap.obj_mut(o).kind {
        e.clear();
    }
    Ok(Value::Undefined)
}

pub(super) fn map_size(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Num(match arg(args, 0) {
        Value::Obj(o) => match &vm.heap.obj(o).kind {
            Kind::Map(e) => e.len() as f64,
            Kind::Set(e) => e.len() as f64,
            _ => return Err(vm.type_error("size called on incompatible receiver")),
        },
        _ => return Err(vm.type_error("size called on incompatible receiver")),
    }))
}

pub(super) fn list_iter(vm: &mut Vm, items: Vec<Value>) -> Res<Value> {
    let o = vm.heap.new_obj(
        vm.intr.iterator_proto,
        Kind::Iterator(Iter::List { items, pos: 0 }),
    )?;
    Ok(Value::Obj(o))
}

pub(super) fn map_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "keys")?;
    let items = match &vm.heap.obj(o).kind {
        Kind::Map(e) => e.iter().map(|(k, _)| *k).collect(),
        _ => Vec::new(),
    };
    list_iter(vm, items)
}

pub(super) fn map_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "values")?;
    let items = match &vm.heap.obj(o).kind {
        Kind::Map(e) => e.iter().map(|(_, v)| *v).collect(),
        _ => Vec::new(),
    };
    list_iter(vm, items)
}

pub(super) fn map_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "entries")?;
    let pairs = match &vm.heap.obj(o).kind {
        Kind::Map(e) => e.clone(),
        _ => Vec::new(),
    };
    let mut items = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        items.push(vm.new_array(vec![k, v])?);
    }
    list_iter(vm, items)
}

pub(super) fn set_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Constructor Set requires 'new'"));
    };
    vm.heap.obj_mut(o).kind = Kind::Set(Vec::new());
    if !arg(args, 0).is_nullish() {
        for v in vm.iterate_fast(arg(args, 0))? {
            set_add(vm, this, &[v])?;
        }
    }
    Ok(this)
}

pub(super) fn set_of(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Set(_)) => Ok(o),
        _ => Err(vm.type_error(&format!(
            "Method Set.prototype.{method} called on incompatible receiver"
        ))),
    }
}

pub(super) fn set_find(vm: &Vm, o: ObjId, k: Value) -> Option<usize> {
    let Kind::Set(e) = &vm.heap.obj(o).kind else {
        return None;
    };
    e.iter().position(|x| vm.same_value_zero(*x, k))
}

pub(super) fn set_add(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "add")?;
    let k = norm_key(arg(args, 0));
    if set_find(vm, o, k).is_none() {
        vm.heap.charge(crate::heap::VALUE_BYTES)?;
        if let Kind::Set(e) = &mut vm.heap.obj_mut(o).kind {
            e.push(k);
        }
    }
    Ok(this)
}

pub(super) fn set_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "has")?;
    Ok(Value::Bool(set_find(vm, o, arg(args, 0)).is_some()))
}

pub(super) fn set_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "delete")?;
    let found = set_find(vm, o, arg(args, 0));
    if let (Some(i), Kind::Set(e)) = (found, &mut vm.heap.obj_mut(o).kind) {
        e.remove(i);
        return Ok(Value::Bool(true));
    }
    Ok(Value::Bool(false))
}

pub(super) fn set_clear(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "clear")?;
    if let Kind::Set(e) = &mut vm.heap.obj_mut(o).kind {
        e.clear();
    }
    Ok(Value::Undefined)
}

pub(super) fn set_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "values")?;
    let items = match &vm.heap.obj(o).kind {
        Kind::Set(e) => e.clone(),
        _ => Vec::new(),
    };
    list_iter(vm, items)
}
