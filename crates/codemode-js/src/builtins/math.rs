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
    ("Math.acos", math_acos, 1),
    ("Math.acosh", math_acosh, 1),
    ("Math.asin", math_asin, 1),
    ("Math.asinh", math_asinh, 1),
    ("Math.atanh", math_atanh, 1),
    ("Math.cosh", math_cosh, 1),
    ("Math.sinh", math_sinh, 1),
    ("Math.tanh", math_tanh, 1),
    ("Math.expm1", math_expm1, 1),
    ("Math.log1p", math_log1p, 1),
    ("Math.fround", math_fround, 1),
    ("Math.clz32", math_clz32, 1),
    ("Math.imul", math_imul, 2),
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
    math_round => round;
    math_sign => |x| if x.is_nan() || x == 0.0 { x } else { x.signum() };
    math_acos => f64::acos;
    math_acosh => acosh;
    math_asin => f64::asin;
    math_asinh => |x| if x == 0.0 { x } else { x.asinh() };
    math_atanh => f64::atanh;
    math_cosh => f64::cosh;
    math_sinh => f64::sinh;
    math_tanh => f64::tanh;
    math_expm1 => f64::exp_m1;
    math_log1p => f64::ln_1p;
    math_fround => |x| x as f32 as f64;
}

/// `Math.round` (§21.3.2.28): halves round up, and results in [-0.5, 0) are -0. Computed
/// from the floor, not as `floor(x + 0.5)`, which misrounds 0.49999999999999994.
fn round(x: f64) -> f64 {
    if !x.is_finite() || x.fract() == 0.0 {
        return x;
    }
    let f = x.floor();
    let r = if x - f >= 0.5 { f + 1.0 } else { f };
    if r == 0.0 && x < 0.0 { -0.0 } else { r }
}

/// `Math.acosh` as fdlibm computes it (what V8 uses): `ln(x + sqrt(x² − 1))` loses half the
/// digits near 1, so below 2 it is `log1p(t + sqrt(2t + t²))` with `t = x − 1`.
fn acosh(x: f64) -> f64 {
    if x.is_nan() || x < 1.0 {
        f64::NAN
    } else if x >= 2f64.powi(28) {
        x.ln() + std::f64::consts::LN_2
    } else if x > 2.0 {
        (2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt())).ln()
    } else {
        let t = x - 1.0;
        (t + (2.0 * t + t * t).sqrt()).ln_1p()
    }
}

/// ToUint32 of a number (§7.1.7).
pub(super) fn to_uint32(x: f64) -> u32 {
    if !x.is_finite() {
        return 0;
    }
    (x.trunc().rem_euclid(4294967296.0)) as u32
}

pub(super) fn math_clz32(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let x = vm.to_number(arg(args, 0))?;
    Ok(Value::Num(to_uint32(x).leading_zeros() as f64))
}

pub(super) fn math_imul(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let a = vm.to_number(arg(args, 0))?;
    let b = vm.to_number(arg(args, 1))?;
    Ok(Value::Num(
        (to_uint32(a) as i32).wrapping_mul(to_uint32(b) as i32) as f64,
    ))
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

/// `Math.hypot` (§21.3.2.18): every argument converted first; ±Infinity wins over NaN; the
/// sum of squares scaled by the largest magnitude so that large and tiny inputs neither
/// overflow nor vanish.
pub(super) fn math_hypot(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut xs = Vec::with_capacity(args.len());
    for a in args {
        xs.push(vm.to_number(*a)?);
    }
    if xs.iter().any(|x| x.is_infinite()) {
        return Ok(Value::Num(f64::INFINITY));
    }
    if xs.iter().any(|x| x.is_nan()) {
        return Ok(Value::Num(f64::NAN));
    }
    let max = xs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if max == 0.0 {
        return Ok(Value::Num(0.0));
    }
    let s: f64 = xs.iter().map(|x| (x / max) * (x / max)).sum();
    Ok(Value::Num(max * s.sqrt()))
}

pub(super) fn math_random(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    // The run's generator (`platform.rs`): seeded by the host, not cryptographic.
    Ok(Value::Num(super::platform::next_f64(vm)))
}
