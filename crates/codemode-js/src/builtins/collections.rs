//! `Map` and `Set`: hashed tables in insertion order (`table.rs`), with live iterators that
//! see entries added during iteration and skip deleted ones, as V8's do.

use super::*;
use crate::heap::Table;
use crate::table::hash_value;

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
    ("Set.prototype.entries", set_entries, 0),
    ("%Intrinsics%.mapSize", map_size, 3),
];

pub(super) fn map_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    };
    if vm.heap.obj(o).proto != vm.intr.map_proto && !matches!(vm.heap.obj(o).kind, Kind::Ordinary) {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    }
    vm.heap.obj_mut(o).kind = Kind::Map(Table::default());
    if let Some(r) = fill_generic(vm, this, arg(args, 0), "set", "Map.prototype.set") {
        return r;
    }
    if !arg(args, 0).is_nullish() {
        for it in vm.iterate_fast(arg(args, 0))? {
            if !matches!(it, Value::Obj(_)) {
                let s = inspect(vm, it)?;
                return Err(vm.type_error(&format!("Iterator value {s} is not an entry object")));
            }
            let k = vm.get_value(it, Key::Index(0))?;
            let v = vm.get_value(it, Key::Index(1))?;
            map_set(vm, this, &[k, v])?;
        }
    }
    Ok(this)
}

/// The spec's loop over `iterable` through the target's own adder (the prelude's
/// `fillFromIterable`, a tail call whose value is `target`), when the native one cannot stand
/// in for it: the iterable is not a built-in one (a generator, a user iterable), or `target`'s
/// `adder` is not the builtin `builtin` (a subclass's, a replaced `Map.prototype.set`). `None`:
/// no iterable, or the native loop gives the same result.
pub(super) fn fill_generic(
    vm: &mut Vm,
    target: Value,
    iterable: Value,
    adder: &str,
    builtin: &str,
) -> Option<Res<Value>> {
    if iterable.is_nullish() {
        return None;
    }
    let k = vm.heap.key(adder);
    let own_adder = match vm.lookup(target, k).map(|p| p.slot) {
        Some(Slot::Data(Value::Obj(f))) => match vm.heap.obj(f).kind {
            Kind::Function(Func::Native(n)) => {
                NATIVES.get(n as usize).is_some_and(|e| e.0 == builtin)
            }
            _ => false,
        },
        _ => false,
    };
    if own_adder && vm.is_builtin_iterable(iterable) {
        return None;
    }
    let f = vm.intr.fill_from_iterable?;
    let name = match vm.str_val(adder) {
        Ok(v) => v,
        Err(e) => return Some(Err(e)),
    };
    let pairs = Value::Bool(matches!(adder, "set"));
    vm.tail = Some(crate::vm::coro::Tail::Call {
        f: Value::Obj(f),
        this: Value::Undefined,
        args: vec![target, iterable, name, pairs],
        finish: crate::vm::coro::Finish::Normal,
    });
    Some(Ok(target))
}

/// Which collection a native works on.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Coll {
    Map,
    Set,
    WeakMap,
    WeakSet,
}

impl Coll {
    fn name(self) -> &'static str {
        match self {
            Coll::Map => "Map",
            Coll::Set => "Set",
            Coll::WeakMap => "WeakMap",
            Coll::WeakSet => "WeakSet",
        }
    }
}

/// The table of a collection object of kind `c`.
pub(super) fn table(vm: &Vm, o: ObjId, c: Coll) -> Option<&Table> {
    match (&vm.heap.obj(o).kind, c) {
        (Kind::Map(t), Coll::Map)
        | (Kind::Set(t), Coll::Set)
        | (Kind::WeakMap(t), Coll::WeakMap)
        | (Kind::WeakSet(t), Coll::WeakSet) => Some(t),
        _ => None,
    }
}

fn table_mut(vm: &mut Vm, o: ObjId) -> Option<&mut Table> {
    match &mut vm.heap.obj_mut(o).kind {
        Kind::Map(t) | Kind::Set(t) | Kind::WeakMap(t) | Kind::WeakSet(t) => Some(t),
        _ => None,
    }
}

/// `this` as a collection of kind `c`, else the TypeError V8 gives.
pub(super) fn receiver(vm: &mut Vm, this: Value, c: Coll, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if table(vm, o, c).is_some() => Ok(o),
        _ => {
            let shown = super::errors::describe(vm, this)?;
            Err(vm.type_error(&format!(
                "Method {}.prototype.{method} called on incompatible receiver {shown}",
                c.name()
            )))
        }
    }
}

pub(super) fn norm_key(v: Value) -> Value {
    match v {
        // -0 + 0 is +0: Map and Set keys treat -0 as 0.
        Value::Num(n) => Value::Num(n + 0.0),
        v => v,
    }
}

/// The position of key `k` in the table of `o` (SameValueZero), the hash, charged as work.
pub(super) fn find(vm: &mut Vm, o: ObjId, c: Coll, k: Value) -> (Option<usize>, u64) {
    let hash = hash_value(&vm.heap, k);
    let hash_work = match k {
        Value::Str(s) => vm.heap.str(s).len() / 16,
        _ => 0,
    };
    let (at, steps) = match table(vm, o, c) {
        Some(t) => t.find(hash, |x| vm.same_value_zero(x, k)),
        None => (None, 0),
    };
    vm.work(1 + steps + hash_work);
    (at, hash)
}

/// Insert or overwrite `k` → `v` in the table of `o`, charging what it grows by.
pub(super) fn put(vm: &mut Vm, o: ObjId, c: Coll, k: Value, v: Value) -> Res<()> {
    let (at, hash) = find(vm, o, c, k);
    if let Some(i) = at {
        if let Some(t) = table_mut(vm, o) {
            t.set_value(i, v);
        }
        return Ok(());
    }
    let grow = table(vm, o, c).map_or(0, |t| t.growth());
    vm.heap.fits(grow)?;
    let (before, after) = match table_mut(vm, o) {
        Some(t) => {
            let before = t.bytes();
            t.insert(hash, k, v);
            (before, t.bytes())
        }
        None => (0, 0),
    };
    vm.heap.charge(after.saturating_sub(before))?;
    Ok(())
}

/// Delete `k` from the table of `o`: whether it was there.
pub(super) fn remove(vm: &mut Vm, o: ObjId, c: Coll, k: Value) -> bool {
    let (at, _) = find(vm, o, c, k);
    match (at, table_mut(vm, o)) {
        (Some(i), Some(t)) => {
            t.remove(i);
            true
        }
        _ => false,
    }
}

pub(super) fn map_get(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "get")?;
    let (at, _) = find(vm, o, Coll::Map, arg(args, 0));
    Ok(at
        .and_then(|i| table(vm, o, Coll::Map)?.entry(i))
        .map_or(Value::Undefined, |(_, v)| v))
}

pub(super) fn map_set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "set")?;
    put(vm, o, Coll::Map, norm_key(arg(args, 0)), arg(args, 1))?;
    Ok(this)
}

pub(super) fn map_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "has")?;
    Ok(Value::Bool(
        find(vm, o, Coll::Map, arg(args, 0)).0.is_some(),
    ))
}

pub(super) fn map_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "delete")?;
    Ok(Value::Bool(remove(vm, o, Coll::Map, arg(args, 0))))
}

fn clear(vm: &mut Vm, o: ObjId) {
    if let Some(t) = table_mut(vm, o) {
        let n = t.slots();
        t.clear();
        vm.work(n / 8);
    }
}

pub(super) fn map_clear(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "clear")?;
    clear(vm, o);
    Ok(Value::Undefined)
}

/// `%Intrinsics%.mapSize(o, kind, method)`: the size of Map (`kind` "Map") or Set `o`, else
/// V8's TypeError naming `method` (`get Map.prototype.size`, `Map.prototype.forEach`).
pub(super) fn map_size(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let this = arg(args, 0);
    let want_map = matches!(arg(args, 1), Value::Str(s) if vm.heap.str(s).to_rust() == "Map");
    if let Value::Obj(o) = this {
        match &vm.heap.obj(o).kind {
            Kind::Map(t) if want_map => return Ok(Value::Num(t.len() as f64)),
            Kind::Set(t) if !want_map => return Ok(Value::Num(t.len() as f64)),
            _ => {}
        }
    }
    let method = match arg(args, 2) {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => "size".to_string(),
    };
    let shown = super::errors::describe(vm, this)?;
    Err(vm.type_error(&format!(
        "Method {method} called on incompatible receiver {shown}"
    )))
}

/// A live iterator over the table of `o`: 0 keys, 1 values, 2 entries. The table keeps its
/// positions while the iterator may be part-way through (the collector moves both).
pub(crate) fn table_iter(vm: &mut Vm, o: ObjId, kind: u8) -> Res<Value> {
    if let Some(t) = table_mut(vm, o) {
        t.pinned = true;
    }
    let proto = match vm.heap.obj(o).kind {
        Kind::Map(_) => vm.intr.map_iter_proto,
        _ => vm.intr.set_iter_proto,
    };
    let it = vm.heap.new_obj(
        proto,
        Kind::Iterator(Iter::Table {
            target: o,
            pos: 0,
            kind,
        }),
    )?;
    Ok(Value::Obj(it))
}

pub(super) fn map_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "keys")?;
    table_iter(vm, o, 0)
}

pub(super) fn map_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "values")?;
    table_iter(vm, o, 1)
}

pub(super) fn map_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Map, "entries")?;
    table_iter(vm, o, 2)
}

pub(super) fn set_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Constructor Set requires 'new'"));
    };
    vm.heap.obj_mut(o).kind = Kind::Set(Table::default());
    if let Some(r) = fill_generic(vm, this, arg(args, 0), "add", "Set.prototype.add") {
        return r;
    }
    if !arg(args, 0).is_nullish() {
        for v in vm.iterate_fast(arg(args, 0))? {
            set_add(vm, this, &[v])?;
        }
    }
    Ok(this)
}

pub(super) fn set_add(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Set, "add")?;
    let k = norm_key(arg(args, 0));
    put(vm, o, Coll::Set, k, k)?;
    Ok(this)
}

pub(super) fn set_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Set, "has")?;
    Ok(Value::Bool(
        find(vm, o, Coll::Set, arg(args, 0)).0.is_some(),
    ))
}

pub(super) fn set_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Set, "delete")?;
    Ok(Value::Bool(remove(vm, o, Coll::Set, arg(args, 0))))
}

pub(super) fn set_clear(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Set, "clear")?;
    clear(vm, o);
    Ok(Value::Undefined)
}

pub(super) fn set_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Set, "values")?;
    table_iter(vm, o, 1)
}

pub(super) fn set_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = receiver(vm, this, Coll::Set, "entries")?;
    table_iter(vm, o, 2)
}
