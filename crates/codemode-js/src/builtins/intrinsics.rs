//! `%Intrinsics%`: the helpers `prelude.js` calls (hidden from programs).

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("%Intrinsics%.toLength", intr_to_length, 1),
    ("%Intrinsics%.isCallable", intr_is_callable, 1),
    ("%Intrinsics%.defineHidden", intr_define_hidden, 3),
    ("%Intrinsics%.throwTypeError", intr_throw_type_error, 1),
    ("%Intrinsics%.toStr", intr_to_str, 1),
    ("%Intrinsics%.setLength", intr_set_length, 2),
    ("%Intrinsics%.primitiveKind", intr_primitive_kind, 1),
    ("%Intrinsics%.unbox", intr_unbox, 1),
    (
        "%Intrinsics%.createDataProperty",
        intr_create_data_property,
        3,
    ),
    ("%Intrinsics%.deleteQuiet", intr_delete_quiet, 2),
    (
        "%Intrinsics%.protosHaveIndices",
        intr_protos_have_indices,
        1,
    ),
    ("%Intrinsics%.isError", intr_is_error, 1),
    ("%Intrinsics%.sortDefault", intr_sort_default, 1),
    (
        "%Intrinsics%.hasEnumerableSymbolKey",
        intr_has_enumerable_symbol_key,
        1,
    ),
];

/// `sortDefault(list)`: sorts `list` (the dense array of values `sorted` in prelude.js
/// builds: no holes, no `undefined`) in place as SortCompare with no comparator does
/// (§23.1.3.30.2: ToString of both, then code-unit order), stably, and gives `true`, when every
/// element is a string, number, boolean or null: their ToString runs no code, so converting
/// each once is not observable. Anything else (an object's `toString` may run code or throw, a
/// symbol throws): `false`, the list untouched, and the prelude's merge sort runs.
pub(super) fn intr_sort_default(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Ok(Value::Bool(false));
    };
    let n = match &vm.heap.obj(o).kind {
        Kind::Array(e) if e.is_flat() => e.len(),
        _ => return Ok(Value::Bool(false)),
    };
    // The copy, the keys and the order, uncharged otherwise.
    vm.heap.fits(n * (std::mem::size_of::<Value>() + 8))?;
    let vals: Vec<Value> = match &vm.heap.obj(o).kind {
        Kind::Array(e) => e.dense().to_vec(),
        _ => return Ok(Value::Bool(false)),
    };
    let simple = |v: &Value| {
        matches!(
            v,
            Value::Str(_) | Value::Num(_) | Value::Bool(_) | Value::Null
        )
    };
    if !vals.iter().all(simple) {
        return Ok(Value::Bool(false));
    }
    let mut keys = Vec::with_capacity(n);
    for v in &vals {
        keys.push(match *v {
            Value::Str(s) => s,
            v => vm.to_string(v)?,
        });
    }
    // n log n comparisons: charged, and the deadline checked, before the sort.
    vm.work_check(n * (usize::BITS - n.leading_zeros()) as usize)?;
    let mut order: Vec<u32> = (0..n as u32).collect();
    let heap = &vm.heap;
    order.sort_by(|&a, &b| heap.str(keys[a as usize]).cmp(heap.str(keys[b as usize])));
    vm.elems_mut(o, |e| {
        for (k, &i) in order.iter().enumerate() {
            e.overwrite(k, vals[i as usize]);
        }
    })?;
    Ok(Value::Bool(true))
}

/// `isError(v)`: an object whose prototype chain reaches `Error.prototype` (the export's
/// rule for `{ name, message, ... }`).
pub(super) fn intr_is_error(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if crate::builtins::is_error(vm, o)),
    ))
}

/// `hasEnumerableSymbolKey(v)`: an object with an own enumerable symbol-keyed property
/// (which cannot cross to the host).
pub(super) fn intr_has_enumerable_symbol_key(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if crate::boundary::enumerable_symbol_key(vm, o)),
    ))
}

pub(super) fn intr_to_length(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    if let Value::Obj(o) = v
        && let Kind::Array(e) | Kind::Arguments(e) = &vm.heap.obj(o).kind
    {
        return Ok(Value::Num(e.len() as f64));
    }
    let l = vm.get_simple(v, "length")?;
    let n = to_integer(vm, l)?;
    Ok(Value::Num(n.clamp(0.0, 9007199254740991.0)))
}

pub(super) fn intr_is_callable(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_))),
    ))
}

/// `defineHidden(obj, name, fn)`: install a prelude function as a non-enumerable method.
pub(super) fn intr_define_hidden(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Ok(Value::Undefined);
    };
    let key = vm.to_key(arg(args, 1))?;
    vm.define(o, key, Slot::Data(arg(args, 2)), HIDDEN_ATTRS)?;
    Ok(Value::Undefined)
}

pub(super) fn intr_throw_type_error(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let m = vm.to_rust_string(arg(args, 0))?;
    Err(vm.type_error(&m))
}

pub(super) fn intr_to_str(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Str(vm.to_string(arg(args, 0))?))
}

pub(super) fn intr_set_length(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let k = vm.heap.key("length");
    vm.set_value(arg(args, 0), k, arg(args, 1))?;
    Ok(Value::Undefined)
}

/// `primitiveKind(v)`: `"Number"`, `"String"`, `"Boolean"` for wrapper objects (the
/// internal slots [[NumberData]], [[StringData]], [[BooleanData]]), else `""`.
pub(super) fn intr_primitive_kind(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let kind = match arg(args, 0) {
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Number(_) => "Number",
            Kind::String(_) => "String",
            Kind::Boolean(_) => "Boolean",
            _ => "",
        },
        _ => "",
    };
    vm.str_val(kind)
}

/// `unbox(v)`: the primitive inside a wrapper object, read from its internal slot (no
/// `valueOf` call); `v` itself otherwise.
pub(super) fn intr_unbox(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    Ok(match v {
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Number(n) => Value::Num(n),
            Kind::String(s) => Value::Str(s),
            Kind::Boolean(b) => Value::Bool(b),
            _ => v,
        },
        _ => v,
    })
}

/// `protosHaveIndices(o)`: whether a prototype of object `o` holds an index key or element
/// (then `o[i] = v` may meet a setter, and a fresh array's elements need CreateDataProperty).
pub(super) fn intr_protos_have_indices(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if vm.protos_have_indices(o)),
    ))
}

/// `createDataProperty(o, key, v)`: CreateDataProperty (§7.3.5): an own, writable,
/// enumerable, configurable data property; `false` (nothing thrown) when `o` refuses it (a
/// non-configurable property of that key, or `o` not extensible).
pub(super) fn intr_create_data_property(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Ok(Value::Bool(false));
    };
    let key = vm.to_key(arg(args, 1))?;
    match vm.own(o, key) {
        Some(p) if p.attrs & CONFIGURABLE == 0 => return Ok(Value::Bool(false)),
        None if !vm.heap.obj(o).extensible => return Ok(Value::Bool(false)),
        _ => {}
    }
    // An array element with attributes of its own keeps them in a props entry: the new
    // property has the default ones.
    if let (Key::Index(_), Kind::Array(_)) = (key, &vm.heap.obj(o).kind) {
        vm.heap.obj_mut(o).props.remove(key);
    }
    vm.define(o, key, Slot::Data(arg(args, 2)), DEFAULT_ATTRS)?;
    Ok(Value::Bool(true))
}

/// `deleteQuiet(o, key)`: `o.[[Delete]](key)`, giving `false` instead of throwing when the
/// property is not configurable.
pub(super) fn intr_delete_quiet(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Ok(Value::Bool(true));
    };
    let key = vm.to_key(arg(args, 1))?;
    match vm.own(o, key) {
        None => Ok(Value::Bool(true)),
        Some(p) if p.attrs & CONFIGURABLE == 0 => Ok(Value::Bool(false)),
        Some(_) => {
            if let (Kind::Array(e), Key::Index(i)) = (&mut vm.heap.obj_mut(o).kind, key) {
                e.delete(i as usize);
            } else {
                vm.heap.obj_mut(o).props.remove(key);
            }
            Ok(Value::Bool(true))
        }
    }
}
