//! `Array`, `Array.prototype` (the natives; callback methods are in `prelude.js`) and the array iterator.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Array.prototype.keys", array_keys, 0),
    ("Array.prototype.entries", array_entries, 0),
    ("Array", array_ctor, 1),
    ("Array.isArray", array_is_array, 1),
    ("Array.of", array_of, 0),
    ("Array.prototype.push", array_push, 1),
    ("Array.prototype.pop", array_pop, 0),
    ("Array.prototype.shift", array_shift, 0),
    ("Array.prototype.unshift", array_unshift, 1),
    ("Array.prototype.slice", array_slice, 2),
    ("Array.prototype.splice", array_splice, 2),
    ("Array.prototype.concat", array_concat, 1),
    ("Array.prototype.join", array_join, 1),
    ("Array.prototype.reverse", array_reverse, 0),
    ("Array.prototype.indexOf", array_index_of, 1),
    ("Array.prototype.lastIndexOf", array_last_index_of, 1),
    ("Array.prototype.includes", array_includes, 1),
    ("Array.prototype.fill", array_fill, 1),
    ("Array.prototype.at", array_at, 1),
    ("Array.prototype.toString", array_to_string, 0),
    ("%IteratorPrototype%.next", iterator_next, 0),
];

pub(super) fn array_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if let [Value::Num(n)] = args {
        if *n < 0.0 || n.fract() != 0.0 || *n > MAX_ARRAY_LENGTH as f64 {
            return Err(vm.range_error("Invalid array length"));
        }
        return vm.new_array(vec![Value::Empty; *n as usize]);
    }
    vm.new_array(args.to_vec())
}

pub(super) fn array_is_array(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_))),
    ))
}

pub(super) fn array_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    vm.new_array(args.to_vec())
}

/// The elements of an array `this` (a TypeError for other receivers, for now).
pub(super) fn elems(vm: &mut Vm, this: Value, method: &str) -> Res<(ObjId, Vec<Value>)> {
    if let Value::Obj(o) = this
        && let Kind::Array(e) | Kind::Arguments(e) = &vm.heap.obj(o).kind
    {
        return Ok((o, e.clone()));
    }
    if let Value::Obj(o) = this {
        let items = vm.list_from_array_like(this)?;
        return Ok((o, items));
    }
    Err(vm.type_error(&format!("Array.prototype.{method} called on a non-array")))
}

pub(super) fn set_elems(vm: &mut Vm, o: ObjId, e: Vec<Value>) -> Res<()> {
    if vm.heap.obj(o).frozen_elements || !vm.heap.obj(o).extensible {
        return Err(vm.type_error("Cannot modify a frozen array"));
    }
    if e.len() > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    let old = match &vm.heap.obj(o).kind {
        Kind::Array(x) => x.len(),
        _ => 0,
    };
    if vm.heap.obj(o).length_readonly && e.len() != old {
        let k = vm.heap.key("length");
        return Err(vm.read_only(o, k));
    }
    if e.len() > old {
        vm.heap.charge((e.len() - old) * crate::heap::VALUE_BYTES)?;
    }
    vm.work(e.len() / 8);
    match &mut vm.heap.obj_mut(o).kind {
        Kind::Array(x) => *x = e,
        _ => return Err(vm.type_error("Array method called on a non-array")),
    }
    Ok(())
}

pub(super) fn array_push(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Array.prototype.push called on a non-array"));
    };
    if vm.heap.obj(o).frozen_elements || !vm.heap.obj(o).extensible {
        return Err(vm.type_error("Cannot add property, object is not extensible"));
    }
    if vm.heap.obj(o).length_readonly && !args.is_empty() {
        let k = vm.heap.key("length");
        return Err(vm.read_only(o, k));
    }
    let n = match &vm.heap.obj(o).kind {
        Kind::Array(e) => e.len(),
        _ => return Err(vm.type_error("Array.prototype.push called on a non-array")),
    };
    if n + args.len() > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    vm.heap.charge(args.len() * crate::heap::VALUE_BYTES)?;
    if let Kind::Array(e) = &mut vm.heap.obj_mut(o).kind {
        e.extend_from_slice(args);
        return Ok(Value::Num(e.len() as f64));
    }
    Ok(Value::Undefined)
}

pub(super) fn array_pop(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "pop")?;
    let v = e.pop().unwrap_or(Value::Undefined);
    set_elems(vm, o, e)?;
    Ok(if v == Value::Empty {
        Value::Undefined
    } else {
        v
    })
}

pub(super) fn array_shift(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "shift")?;
    if e.is_empty() {
        return Ok(Value::Undefined);
    }
    let v = e.remove(0);
    set_elems(vm, o, e)?;
    Ok(if v == Value::Empty {
        Value::Undefined
    } else {
        v
    })
}

pub(super) fn array_unshift(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, e) = elems(vm, this, "unshift")?;
    let mut n = args.to_vec();
    n.extend(e);
    let len = n.len();
    set_elems(vm, o, n)?;
    Ok(Value::Num(len as f64))
}

pub(super) fn array_slice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "slice")?;
    let from = rel_index(vm, arg(args, 0), e.len(), 0)?;
    let to = rel_index(vm, arg(args, 1), e.len(), e.len())?;
    let part = if from < to {
        e[from..to].to_vec()
    } else {
        Vec::new()
    };
    vm.work(part.len());
    vm.new_array(part)
}

pub(super) fn array_splice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "splice")?;
    let len = e.len();
    let start = rel_index(vm, arg(args, 0), len, 0)?;
    let count = match args.len() {
        0 => 0,
        1 => len - start,
        _ => {
            let c = to_integer(vm, args[1])?;
            (c.max(0.0) as usize).min(len - start)
        }
    };
    let removed: Vec<Value> = e
        .splice(start..start + count, args.iter().skip(2).copied())
        .collect();
    set_elems(vm, o, e)?;
    vm.new_array(removed)
}

pub(super) fn array_concat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, mut e) = elems(vm, this, "concat")?;
    for a in args {
        match a {
            Value::Obj(o) if matches!(vm.heap.obj(*o).kind, Kind::Array(_)) => {
                if let Kind::Array(x) = &vm.heap.obj(*o).kind {
                    e.extend_from_slice(x);
                }
            }
            v => e.push(*v),
        }
        if e.len() > MAX_ARRAY_LENGTH {
            return Err(vm.range_error("Invalid array length"));
        }
    }
    vm.work(e.len());
    vm.new_array(e)
}

pub(super) fn array_join(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, e) = elems(vm, this, "join")?;
    let sep = match arg(args, 0) {
        Value::Undefined => JsStr::from_str(","),
        v => to_str_arg(vm, v)?,
    };
    let mut units: Vec<u16> = Vec::new();
    let _ = o;
    for (i, v) in e.iter().enumerate() {
        if i > 0 {
            units.extend(sep.units());
        }
        if !matches!(v, Value::Undefined | Value::Null | Value::Empty) {
            if let Value::Obj(x) = v
                && *x == o
            {
                continue;
            }
            let s = to_str_arg(vm, *v)?;
            units.extend(s.units());
        }
        if units.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    vm.work(units.len() / 16 + e.len());
    vm.js_str(JsStr::from_units(units))
}

pub(super) fn array_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_join(vm, this, &[])
}

pub(super) fn array_reverse(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "reverse")?;
    e.reverse();
    set_elems(vm, o, e)?;
    Ok(this)
}

pub(super) fn array_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "indexOf")?;
    let from = rel_index(vm, arg(args, 1), e.len(), 0)?;
    let t = arg(args, 0);
    vm.work(e.len());
    Ok(Value::Num(
        e.iter()
            .enumerate()
            .skip(from)
            .find(|(_, v)| vm.strict_equals(**v, t))
            .map_or(-1.0, |(i, _)| i as f64),
    ))
}

pub(super) fn array_last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "lastIndexOf")?;
    let t = arg(args, 0);
    vm.work(e.len());
    Ok(Value::Num(
        e.iter()
            .enumerate()
            .rev()
            .find(|(_, v)| vm.strict_equals(**v, t))
            .map_or(-1.0, |(i, _)| i as f64),
    ))
}

pub(super) fn array_includes(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "includes")?;
    let from = rel_index(vm, arg(args, 1), e.len(), 0)?;
    let t = arg(args, 0);
    vm.work(e.len());
    Ok(Value::Bool(e.iter().skip(from).any(|v| {
        let v = if *v == Value::Empty {
            Value::Undefined
        } else {
            *v
        };
        vm.same_value_zero(v, t)
    })))
}

pub(super) fn array_fill(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "fill")?;
    let from = rel_index(vm, arg(args, 1), e.len(), 0)?;
    let to = rel_index(vm, arg(args, 2), e.len(), e.len())?;
    for x in e.iter_mut().take(to).skip(from) {
        *x = arg(args, 0);
    }
    set_elems(vm, o, e)?;
    Ok(this)
}

pub(super) fn array_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "at")?;
    let i = to_integer(vm, arg(args, 0))?;
    let i = if i < 0.0 { e.len() as f64 + i } else { i };
    if i < 0.0 || i >= e.len() as f64 {
        return Ok(Value::Undefined);
    }
    let v = e[i as usize];
    Ok(if v == Value::Empty {
        Value::Undefined
    } else {
        v
    })
}

pub(super) fn array_iter(vm: &mut Vm, this: Value, kind: u8) -> Res<Value> {
    if this.is_nullish() {
        return Err(vm.type_error("Array.prototype.values called on null or undefined"));
    }
    let o = vm.heap.new_obj(
        vm.intr.iterator_proto,
        Kind::Iterator(Iter::Array {
            target: this,
            pos: 0,
            kind,
        }),
    )?;
    Ok(Value::Obj(o))
}

pub(super) fn array_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 0)
}
pub(super) fn array_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 1)
}
pub(super) fn array_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 2)
}

pub(super) fn iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let Some(v) = vm.builtin_iter_step(this)? else {
        return Err(vm.type_error("next method called on an incompatible receiver"));
    };
    let o = vm.new_object()?;
    let done = v == Value::Empty;
    let kv = vm.heap.key("value");
    vm.define(
        o,
        kv,
        Slot::Data(if done { Value::Undefined } else { v }),
        DEFAULT_ATTRS,
    )?;
    let kd = vm.heap.key("done");
    vm.define(o, kd, Slot::Data(Value::Bool(done)), DEFAULT_ATTRS)?;
    Ok(Value::Obj(o))
}
