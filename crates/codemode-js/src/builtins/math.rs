//! `Math`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Math.abs", math_abs, 1),
    ("Math.floor", math_floor, 1),
    ("Math.ceil", math_ceil, 1),
    ("Math.round", math_round, 1),
    ("Math.trunc", math_trunc, 1),
    ("Math.sign", math_sign, 1),
    ("Math.sqrt", math_sqrt, 1),
    ("Math.cbrt", math_cbrt, 1),
    ("Math.exp", math_exp, 1),
    ("Math.log", math_log, 1),
    ("Math.log2", math_log2, 1),
    ("Math.log10", math_log10, 1),
    ("Math.sin", math_sin, 1),
    ("Math.cos", math_cos, 1),
    ("Math.tan", math_tan, 1),
    ("Math.atan", math_atan, 1),
    ("Math.atan2", math_atan2, 2),
    ("Math.pow", math_pow, 2),
    ("Math.max", math_max, 2),
    ("Math.min", math_min, 2),
    ("Math.hypot", math_hypot, 2),
    ("Math.random", math_random, 0),
];

macro_rules! math1 {
    ($($name:ident => $f:expr;)*) => {
        $(pub(super) fn $name(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
            let x = vm.to_number(arg(args, 0))?;
            let f: fn(f64) -> f64 = $f;
            Ok(Value::Num(f(x)))
        })*
    };
}

math1! {
    math_abs => f64::abs;
    math_floor => f64::floor;
    math_ceil => f64::ceil;
    math_trunc => f64::trunc;
    math_sqrt => f64::sqrt;
    math_cbrt => f64::cbrt;
    math_exp => f64::exp;
    math_log => f64::ln;
    math_log2 => f64::log2;
    math_log10 => f64::log10;
    math_sin => f64::sin;
    math_cos => f64::cos;
    math_tan => f64::tan;
    math_atan => f64::atan;
    math_round => |x| if x.is_finite() && x.fract() != 0.0 { (x + 0.5).floor() } else { x };
    math_sign => |x| if x.is_nan() || x == 0.0 { x } else { x.signum() };
}

pub(super) fn math_atan2(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let y = vm.to_number(arg(args, 0))?;
    let x = vm.to_number(arg(args, 1))?;
    Ok(Value::Num(y.atan2(x)))
}

pub(super) fn math_pow(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let x = vm.to_number(arg(args, 0))?;
    let y = vm.to_number(arg(args, 1))?;
    Ok(Value::Num(crate::vm::js_pow(x, y)))
}

pub(super) fn math_max(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut m = f64::NEG_INFINITY;
    for a in args {
        let x = vm.to_number(*a)?;
        if x.is_nan() || m.is_nan() {
            m = f64::NAN;
        } else if x > m || (x == 0.0 && m == 0.0 && m.is_sign_negative()) {
            m = x;
        }
    }
    Ok(Value::Num(m))
}

pub(super) fn math_min(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut m = f64::INFINITY;
    for a in args {
        let x = vm.to_number(*a)?;
        if x.is_nan() || m.is_nan() {
            m = f64::NAN;
        } else if x < m || (x == 0.0 && m == 0.0 && x.is_sign_negative()) {
            m = x;
        }
    }
    Ok(Value::Num(m))
}

pub(super) fn math_hypot(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut s = 0.0;
    for a in args {
        let x = vm.to_number(*a)?;
        s += x * x;
    }
    Ok(Value::Num(s.sqrt()))
}

pub(super) fn math_random(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    // xorshift64* seeded per run (deterministic within a run; not cryptographic).
    let mut x = vm.random_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    vm.random_state = x;
    let r = x.wrapping_mul(0x2545F4914F6CDD1D) >> 11;
    Ok(Value::Num(r as f64 / (1u64 << 53) as f64))
}
