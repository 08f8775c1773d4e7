//! The `math` library (Lua 5.4 manual §6.7): `abs ceil floor fmod modf sqrt exp log sin cos tan
//! asin acos atan tointeger type ult max min` and the constants `pi huge maxinteger
//! mininteger`, `deg rad`, and the 5.3 compatibility functions `atan2 cosh sinh tanh pow frexp
//! ldexp log10` (Debian's `lua5.4` is built with them). `random`/`randomseed` exist only to say
//! why they are absent: programs must be deterministic.

use crate::number::{Number, float_to_int_exact, str_to_number};
use crate::value::{Throw, Value, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm};

/// Install `math` into `vm`.
pub(crate) fn open(vm: &mut Vm) -> VmResult<()> {
    let funcs: &[(&'static str, NativeFn)] = &[
        ("abs", abs),
        ("ceil", ceil),
        ("floor", floor),
        ("fmod", fmod),
        ("modf", modf),
        ("sqrt", sqrt),
        ("exp", exp),
        ("log", log),
        ("sin", sin),
        ("cos", cos),
        ("tan", tan),
        ("asin", asin),
        ("acos", acos),
        ("atan", atan),
        ("tointeger", tointeger),
        ("type", mtype),
        ("ult", ult),
        ("max", max),
        ("min", min),
        ("deg", deg),
        ("rad", rad),
        // Lua 5.3 compatibility functions, present in Debian's lua5.4 (LUA_COMPAT_MATHLIB).
        ("atan2", atan),
        ("cosh", cosh),
        ("sinh", sinh),
        ("tanh", tanh),
        ("pow", pow),
        ("frexp", frexp),
        ("ldexp", ldexp),
        ("log10", log10),
        ("random", random),
        ("randomseed", random),
    ];
    let t = vm.new_lib("math", funcs)?;
    let h = &mut vm.heap;
    h.table_set_field(t, "pi", Value::Float(std::f64::consts::PI))?;
    h.table_set_field(t, "huge", Value::Float(f64::INFINITY))?;
    h.table_set_field(t, "maxinteger", Value::Int(i64::MAX))?;
    h.table_set_field(t, "mininteger", Value::Int(i64::MIN))?;
    Ok(())
}

/// A float result converted to an integer when it fits (Lua's `pushnumint`), else the float.
fn numint(f: f64) -> Value {
    match crate::number::float_to_int_floor(f) {
        Some(i) if i as f64 == f => Value::Int(i),
        _ => Value::Float(f),
    }
}

fn abs(ctx: &mut Ctx) -> VmResult<Rets> {
    Ok(match ctx.arg(0) {
        Value::Int(i) => Value::Int(i.wrapping_abs()),
        _ => Value::Float(ctx.check_f64(0)?.abs()),
    }
    .into())
}

fn floor(ctx: &mut Ctx) -> VmResult<Rets> {
    Ok(match ctx.arg(0) {
        Value::Int(i) => Value::Int(i),
        _ => numint(ctx.check_f64(0)?.floor()),
    }
    .into())
}

fn ceil(ctx: &mut Ctx) -> VmResult<Rets> {
    Ok(match ctx.arg(0) {
        Value::Int(i) => Value::Int(i),
        _ => numint(ctx.check_f64(0)?.ceil()),
    }
    .into())
}

fn fmod(ctx: &mut Ctx) -> VmResult<Rets> {
    // Integer semantics only for actual integers (a numeric string takes the float path).
    let (a, b) = match (ctx.arg(0), ctx.arg(1)) {
        (a @ Value::Int(_), b @ Value::Int(_)) => (a, b),
        _ => {
            // lua5.4 (gcc, x86-64) evaluates `fmod(checknumber(1), checknumber(2))` right to
            // left, so argument #2 is reported first.
            let b = ctx.check_f64(1)?;
            (Value::Float(ctx.check_f64(0)?), Value::Float(b))
        }
    };
    Ok(match (a, b) {
        (Value::Int(a), Value::Int(b)) => {
            if b == 0 {
                return Err(ctx.arg_error(1, "zero"));
            }
            // C remainder (truncated); b == -1 avoids the overflow of MIN % -1.
            Value::Int(if b == -1 { 0 } else { a % b })
        }
        _ => Value::Float(a.as_f64().unwrap_or(0.0) % b.as_f64().unwrap_or(0.0)),
    }
    .into())
}

fn modf(ctx: &mut Ctx) -> VmResult<Rets> {
    if let Value::Int(i) = ctx.arg(0) {
        return Ok(Rets::Two(Value::Int(i), Value::Float(0.0)));
    }
    let n = ctx.check_f64(0)?;
    let ip = if n < 0.0 { n.ceil() } else { n.floor() };
    let frac = if n == ip { 0.0 } else { n - ip };
    Ok(Rets::Two(numint(ip), Value::Float(frac)))
}

fn float_fn(ctx: &mut Ctx, f: fn(f64) -> f64) -> VmResult<Rets> {
    Ok(Value::Float(f(ctx.check_f64(0)?)).into())
}

fn sqrt(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::sqrt)
}
fn exp(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::exp)
}
fn sin(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::sin)
}
fn cos(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::cos)
}
fn tan(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::tan)
}
fn asin(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::asin)
}
fn acos(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::acos)
}

fn deg(ctx: &mut Ctx) -> VmResult<Rets> {
    Ok(Value::Float(ctx.check_f64(0)? * (180.0 / std::f64::consts::PI)).into())
}
fn rad(ctx: &mut Ctx) -> VmResult<Rets> {
    Ok(Value::Float(ctx.check_f64(0)? * (std::f64::consts::PI / 180.0)).into())
}
fn cosh(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::cosh)
}
fn sinh(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::sinh)
}
fn tanh(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::tanh)
}
fn log10(ctx: &mut Ctx) -> VmResult<Rets> {
    float_fn(ctx, f64::log10)
}
fn pow(ctx: &mut Ctx) -> VmResult<Rets> {
    let x = ctx.check_f64(0)?;
    let y = ctx.check_f64(1)?;
    Ok(Value::Float(x.powf(y)).into())
}

/// `frexp(x)`: `m, e` with `x = m * 2^e` and `0.5 <= |m| < 1` (x itself and 0 for 0, inf, NaN).
pub(crate) fn frexp_f(x: f64) -> (f64, i64) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (x, adj) = if x.abs() < f64::MIN_POSITIVE {
        (x * 2f64.powi(54), -54)
    } else {
        (x, 0)
    };
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i64 - 1022;
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, exp + adj)
}

/// `ldexp(m, e)`: `m * 2^e`, computed in steps so intermediate powers never overflow.
pub(crate) fn ldexp_f(m: f64, e: i64) -> f64 {
    let mut e = e.clamp(-2300, 2300);
    let mut x = m;
    while e > 1000 {
        x *= 2f64.powi(1000);
        e -= 1000;
    }
    while e < -1000 {
        x *= 2f64.powi(-1000);
        e += 1000;
    }
    x * 2f64.powi(e as i32)
}

fn frexp(ctx: &mut Ctx) -> VmResult<Rets> {
    let (m, e) = frexp_f(ctx.check_f64(0)?);
    Ok(Rets::Two(Value::Float(m), Value::Int(e)))
}
fn ldexp(ctx: &mut Ctx) -> VmResult<Rets> {
    let m = ctx.check_f64(0)?;
    // Lua casts the exponent to a C int (wrapping).
    let e = ctx.check_int(1)? as i32 as i64;
    Ok(Value::Float(ldexp_f(m, e)).into())
}

fn atan(ctx: &mut Ctx) -> VmResult<Rets> {
    let y = ctx.check_f64(0)?;
    let x = if ctx.arg(1).is_nil() {
        1.0
    } else {
        ctx.check_f64(1)?
    };
    Ok(Value::Float(y.atan2(x)).into())
}

fn log(ctx: &mut Ctx) -> VmResult<Rets> {
    let x = ctx.check_f64(0)?;
    let r = if ctx.arg(1).is_nil() {
        x.ln()
    } else {
        let base = ctx.check_f64(1)?;
        if base == 2.0 {
            x.log2()
        } else if base == 10.0 {
            x.log10()
        } else {
            x.ln() / base.ln()
        }
    };
    Ok(Value::Float(r).into())
}

fn tointeger(ctx: &mut Ctx) -> VmResult<Rets> {
    let v = ctx.arg(0);
    let r = match v {
        Value::Int(i) => Some(i),
        Value::Float(f) => float_to_int_exact(f),
        Value::Str(s) => match str_to_number(ctx.heap_ref().str_bytes(s)) {
            Some(Number::Int(i)) => Some(i),
            Some(Number::Float(f)) => float_to_int_exact(f),
            None => None,
        },
        _ => None,
    };
    if r.is_none() && ctx.nargs() == 0 {
        return Err(ctx.arg_error(0, "value expected"));
    }
    Ok(r.map_or(Value::Nil, Value::Int).into())
}

fn mtype(ctx: &mut Ctx) -> VmResult<Rets> {
    if ctx.nargs() == 0 {
        return Err(ctx.arg_error(0, "value expected"));
    }
    let name = match ctx.arg(0) {
        Value::Int(_) => "integer",
        Value::Float(_) => "float",
        _ => return Ok(Value::Nil.into()),
    };
    let s = ctx.heap().intern_static(name)?;
    Ok(Value::Str(s).into())
}

fn ult(ctx: &mut Ctx) -> VmResult<Rets> {
    let a = ctx.check_int(0)?;
    let b = ctx.check_int(1)?;
    Ok(Value::Bool((a as u64) < (b as u64)).into())
}

fn minmax(ctx: &mut Ctx, want_max: bool) -> VmResult<Rets> {
    // Lua 5.4.4 compares the arguments with `<` as they are (no number check or coercion).
    let n = ctx.nargs();
    if n == 0 {
        return Err(ctx.arg_error(0, "value expected"));
    }
    let mut best = ctx.arg(0);
    for i in 1..n {
        let v = ctx.arg(i);
        let better = if want_max {
            ctx.less_than(best, v)?
        } else {
            ctx.less_than(v, best)?
        };
        if better {
            best = v;
        }
    }
    Ok(best.into())
}

fn max(ctx: &mut Ctx) -> VmResult<Rets> {
    minmax(ctx, true)
}
fn min(ctx: &mut Ctx) -> VmResult<Rets> {
    minmax(ctx, false)
}

fn random(_ctx: &mut Ctx) -> VmResult<Rets> {
    Err(Throw::msg(
        "math.random is not available: programs must be deterministic; pass data in from a tool instead",
    ))
}
