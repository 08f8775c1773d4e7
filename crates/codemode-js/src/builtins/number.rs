//! `Number`, `Boolean`, and the global functions `parseInt`, `parseFloat`, `isNaN`, `isFinite`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Number", number_ctor, 1),
    ("Number.isInteger", number_is_integer, 1),
    ("Number.isFinite", number_is_finite, 1),
    ("Number.isNaN", number_is_nan, 1),
    ("Number.isSafeInteger", number_is_safe_integer, 1),
    ("Number.parseFloat", parse_float, 1),
    ("Number.parseInt", parse_int, 2),
    ("Number.prototype.toString", number_to_string, 1),
    ("Number.prototype.toFixed", number_to_fixed, 1),
    ("Number.prototype.valueOf", number_value_of, 0),
    ("Number.prototype.toPrecision", number_to_precision, 1),
    ("Number.prototype.toExponential", number_to_exponential, 1),
    ("Boolean", boolean_ctor, 1),
    ("Boolean.prototype.toString", boolean_to_string, 0),
    ("Boolean.prototype.valueOf", boolean_value_of, 0),
    ("parseInt", parse_int, 2),
    ("parseFloat", parse_float, 1),
    ("isNaN", global_is_nan, 1),
    ("isFinite", global_is_finite, 1),
];

pub(super) fn number_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = match args.first() {
        None => 0.0,
        Some(v) => vm.to_number(*v)?,
    };
    if let Value::Obj(o) = this
        && vm.heap.obj(o).proto == vm.intr.number_proto
        && matches!(vm.heap.obj(o).kind, Kind::Ordinary)
    {
        vm.heap.obj_mut(o).kind = Kind::Number(n);
        return Ok(this);
    }
    Ok(Value::Num(n))
}

pub(super) fn this_num(vm: &mut Vm, this: Value, method: &str) -> Res<f64> {
    match this {
        Value::Num(n) => Ok(n),
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Number(n) => Ok(n),
            _ => Err(vm.type_error(&format!(
                "Number.prototype.{method} requires that 'this' be a Number"
            ))),
        },
        _ => Err(vm.type_error(&format!(
            "Number.prototype.{method} requires that 'this' be a Number"
        ))),
    }
}

pub(super) fn number_to_string(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toString")?;
    let radix = match arg(args, 0) {
        Value::Undefined => 10.0,
        v => to_integer(vm, v)?,
    };
    if !(2.0..=36.0).contains(&radix) {
        return Err(vm.range_error("toString() radix must be between 2 and 36"));
    }
    let s = if radix == 10.0 {
        crate::number::to_string(n)
    } else {
        crate::number::to_radix(n, radix as u32)
    };
    vm.str_val(&s)
}

pub(super) fn number_to_fixed(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toFixed")?;
    let d = to_integer(vm, arg(args, 0))?;
    if !(0.0..=100.0).contains(&d) {
        return Err(vm.range_error("toFixed() digits argument must be between 0 and 100"));
    }
    if !n.is_finite() || n.abs() >= 1e21 {
        return vm.str_val(&crate::number::to_string(n));
    }
    vm.str_val(&crate::number::to_fixed(n, d as usize))
}

pub(super) fn number_to_precision(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toPrecision")?;
    if arg(args, 0) == Value::Undefined || !n.is_finite() {
        return vm.str_val(&crate::number::to_string(n));
    }
    let p = to_integer(vm, arg(args, 0))?;
    if !(1.0..=100.0).contains(&p) {
        return Err(vm.range_error("toPrecision() argument must be between 1 and 100"));
    }
    vm.str_val(&crate::number::to_precision(n, p as usize))
}

pub(super) fn number_to_exponential(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toExponential")?;
    let f = match arg(args, 0) {
        Value::Undefined => None,
        v => Some(to_integer(vm, v)?),
    };
    if !n.is_finite() {
        return vm.str_val(&crate::number::to_string(n));
    }
    if f.is_some_and(|f| !(0.0..=100.0).contains(&f)) {
        return Err(vm.range_error("toExponential() argument must be between 0 and 100"));
    }
    vm.str_val(&crate::number::to_exponential(n, f.map(|f| f as usize)))
}

pub(super) fn number_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Num(this_num(vm, this, "valueOf")?))
}

pub(super) fn number_is_integer(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_finite() && n.fract() == 0.0),
    ))
}
pub(super) fn number_is_safe_integer(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_finite() && n.fract() == 0.0 && n.abs() <= 9007199254740991.0),
    ))
}
pub(super) fn number_is_finite(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_finite()),
    ))
}
pub(super) fn number_is_nan(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_nan()),
    ))
}
pub(super) fn global_is_nan(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(vm.to_number(arg(args, 0))?.is_nan()))
}
pub(super) fn global_is_finite(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(vm.to_number(arg(args, 0))?.is_finite()))
}
pub(super) fn parse_float(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_rust_string(arg(args, 0))?;
    Ok(Value::Num(crate::number::parse_float(&s)))
}
pub(super) fn parse_int(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_rust_string(arg(args, 0))?;
    let r = match arg(args, 1) {
        Value::Undefined => 0,
        v => {
            let n = vm.to_number(v)?;
            crate::vm::to_int32(n)
        }
    };
    Ok(Value::Num(crate::number::parse_int(&s, r)))
}

pub(super) fn boolean_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let b = vm.truthy(arg(args, 0));
    if let Value::Obj(o) = this
        && vm.heap.obj(o).proto == vm.intr.boolean_proto
        && matches!(vm.heap.obj(o).kind, Kind::Ordinary)
    {
        vm.heap.obj_mut(o).kind = Kind::Boolean(b);
        return Ok(this);
    }
    Ok(Value::Bool(b))
}

pub(super) fn this_bool(vm: &mut Vm, this: Value) -> Res<bool> {
    match this {
        Value::Bool(b) => Ok(b),
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Boolean(b) => Ok(b),
            _ => Err(vm.type_error("Boolean.prototype.valueOf requires that 'this' be a Boolean")),
        },
        _ => Err(vm.type_error("Boolean.prototype.valueOf requires that 'this' be a Boolean")),
    }
}
pub(super) fn boolean_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let b = this_bool(vm, this)?;
    vm.str_val(if b { "true" } else { "false" })
}
pub(super) fn boolean_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Bool(this_bool(vm, this)?))
}
