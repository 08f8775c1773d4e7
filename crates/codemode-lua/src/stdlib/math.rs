//! The `math` library (Lua 5.4 manual §6.7): `abs ceil floor fmod modf sqrt exp log sin cos tan
//! asin acos atan tointeger type ult max min` and the constants `pi huge maxinteger
//! mininteger`. `random`/`randomseed` exist only to say why they are absent: programs must be
//! deterministic.

use crate::number::{Number, float_to_int_exact, str_to_number};
use crate::value::{Throw, Value, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm};

/// Install `math` into `vm`.
pub fn open(vm: &mut Vm) -> VmResult<()> {
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
    let a = ctx.check_number(0)?;
    let b = ctx.check_number(1)?;
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
