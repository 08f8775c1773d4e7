//! `Object` and `Object.prototype`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Object", object_ctor, 1),
    ("Object.keys", object_keys, 1),
    ("Object.values", object_values, 1),
    ("Object.entries", object_entries, 1),
    ("Object.getPrototypeOf", object_get_prototype_of, 1),
    ("Object.setPrototypeOf", object_set_prototype_of, 2),
    ("Object.hasOwn", object_has_own, 2),
    ("Object.is", object_is, 2),
    ("Object.fromEntries", object_from_entries, 1),
    ("Object.prototype.hasOwnProperty", object_proto_has_own, 1),
    ("Object.prototype.toString", object_proto_to_string, 0),
    ("Object.prototype.valueOf", object_proto_value_of, 0),
    (
        "Object.prototype.isPrototypeOf",
        object_proto_is_prototype_of,
        1,
    ),
];

pub(super) fn to_object(vm: &mut Vm, v: Value) -> Res<ObjId> {
    match v {
        Value::Obj(o) => Ok(o),
        Value::Undefined | Value::Null => {
            Err(vm.type_error("Cannot convert undefined or null to object"))
        }
        Value::Str(s) => Ok(vm.heap.new_obj(vm.intr.string_proto, Kind::String(s))?),
        Value::Num(n) => Ok(vm.heap.new_obj(vm.intr.number_proto, Kind::Number(n))?),
        Value::Bool(b) => Ok(vm.heap.new_obj(vm.intr.boolean_proto, Kind::Boolean(b))?),
        _ => Ok(vm.new_object()?),
    }
}

pub(super) fn object_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    if v.is_nullish() {
        return Ok(Value::Obj(vm.new_object()?));
    }
    Ok(Value::Obj(to_object(vm, v)?))
}

pub(super) fn object_keys(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut out = Vec::new();
    for k in enumerable_keys(vm, arg(args, 0))? {
        out.push(key_value(vm, k)?);
    }
    vm.new_array(out)
}

pub(super) fn object_values(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let out = enumerable_entries(vm, arg(args, 0))?
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    vm.new_array(out)
}

pub(super) fn object_entries(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut out = Vec::new();
    for (k, v) in enumerable_entries(vm, arg(args, 0))? {
        let kv = key_value(vm, k)?;
        out.push(vm.new_array(vec![kv, v])?);
    }
    vm.new_array(out)
}

pub(super) fn object_get_prototype_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    Ok(vm.heap.obj(o).proto.map_or(Value::Null, Value::Obj))
}

pub(super) fn object_set_prototype_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    let proto = match arg(args, 1) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        _ => return Err(vm.type_error("Object prototype may only be an Object or null")),
    };
    if v.is_nullish() {
        return Err(vm.type_error("Object.setPrototypeOf called on null or undefined"));
    }
    if let Value::Obj(o) = v
        && !super::reflect::set_prototype(vm, o, proto)
    {
        if !vm.heap.obj(o).extensible {
            let label = vm.object_label(o);
            return Err(vm.type_error(&format!("{label} is not extensible")));
        }
        return Err(vm.type_error("Cyclic __proto__ value"));
    }
    Ok(v)
}

pub(super) fn has_own(vm: &mut Vm, v: Value, k: Value) -> Res<bool> {
    let o = to_object(vm, v)?;
    let key = vm.to_key(k)?;
    Ok(vm.own(o, key).is_some())
}

pub(super) fn object_has_own(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(has_own(vm, arg(args, 0), arg(args, 1))?))
}

pub(super) fn object_proto_has_own(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(has_own(vm, this, arg(args, 0))?))
}

pub(super) fn object_is(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (a, b) = (arg(args, 0), arg(args, 1));
    Ok(Value::Bool(match (a, b) {
        (Value::Num(x), Value::Num(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => vm.strict_equals(a, b),
    }))
}

pub(super) fn object_from_entries(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let src = arg(args, 0);
    if src.is_nullish() {
        let s = inspect(vm, src)?;
        return Err(vm.type_error(&format!("{s} is not iterable")));
    }
    if !vm.is_builtin_iterable(src)
        && let Some(f) = vm.intr.fill_from_iterable
    {
        // A generator or user iterable: the spec's loop in the prelude.
        let o = vm.new_object()?;
        let name = vm.str_val("")?;
        vm.tail = Some(crate::vm::coro::Tail::Call {
            f: Value::Obj(f),
            this: Value::Undefined,
            args: vec![Value::Obj(o), src, name, Value::Bool(true)],
            finish: crate::vm::coro::Finish::Normal,
        });
        return Ok(Value::Obj(o));
    }
    let items = vm.iterate_fast(src)?;
    let o = vm.new_object()?;
    for it in items {
        if !matches!(it, Value::Obj(_)) {
            let s = inspect(vm, it)?;
            return Err(vm.type_error(&format!("Iterator value {s} is not an entry object")));
        }
        let k = vm.get_value(it, Key::Index(0))?;
        let v = vm.get_value(it, Key::Index(1))?;
        let key = vm.to_key(k)?;
        vm.define(o, key, Slot::Data(v), DEFAULT_ATTRS)?;
    }
    Ok(Value::Obj(o))
}

pub(super) fn object_proto_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    // A string `[Symbol.toStringTag]` (own or inherited) names the object (§20.1.3.6).
    if !this.is_nullish()
        && let Some(sym) = vm.intr.sym_to_string_tag
    {
        let t = vm.get_value(this, Key::Sym(sym))?;
        if let Value::Str(s) = t {
            let s = vm.heap.str(s).to_rust();
            return vm.str_val(&format!("[object {s}]"));
        }
    }
    let tag = match this {
        Value::Undefined => "Undefined",
        Value::Null => "Null",
        Value::Num(_) => "Number",
        Value::Str(_) => "String",
        Value::Bool(_) => "Boolean",
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Array(_) => "Array",
            Kind::Function(_) => "Function",
            Kind::Error => "Error",
            Kind::RegExp(_) => "RegExp",
            Kind::Date(_) => "Date",
            Kind::Arguments(_) => "Arguments",
            Kind::Boolean(_) => "Boolean",
            Kind::Number(_) => "Number",
            Kind::String(_) => "String",
            _ => "Object",
        },
        _ => "Object",
    };
    vm.str_val(&format!("[object {tag}]"))
}

pub(super) fn object_proto_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Obj(to_object(vm, this)?))
}

pub(super) fn object_proto_is_prototype_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Value::Obj(p), Value::Obj(mut o)) = (this, arg(args, 0)) else {
        return Ok(Value::Bool(false));
    };
    while let Some(next) = vm.heap.obj(o).proto {
        if next == p {
            return Ok(Value::Bool(true));
        }
        o = next;
    }
    Ok(Value::Bool(false))
}
