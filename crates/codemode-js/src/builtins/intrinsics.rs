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
];

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
