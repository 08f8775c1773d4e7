//! The Error constructors (`Error`, the native errors, `AggregateError`), each with the
//! `cause` option, and `Error.prototype.toString`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Error", error_ctor, 1),
    ("TypeError", type_error_ctor, 1),
    ("RangeError", range_error_ctor, 1),
    ("ReferenceError", reference_error_ctor, 1),
    ("SyntaxError", syntax_error_ctor, 1),
    ("EvalError", eval_error_ctor, 1),
    ("URIError", uri_error_ctor, 1),
    ("AggregateError", aggregate_error_ctor, 2),
    ("Error.prototype.toString", error_to_string, 0),
    ("Error.captureStackTrace", capture_stack_trace, 1),
    ("%Intrinsics%.hasErrorData", has_error_data, 1),
];

/// The `stack` `Error.captureStackTrace` gives: V8's first line, `Name: message` (`Name`
/// alone for an empty message), with no frames (host paths and line numbers stay out of the
/// program's data); name and message as data properties of `o` or its prototypes. (An
/// error's own `stack` is the `Error.prototype.stack` getter of `prelude.js`, read when asked.)
fn stack_header(vm: &mut Vm, o: ObjId) -> Res<Value> {
    let nk = vm.heap.key("name");
    let name = match data_lookup(vm, o, nk) {
        Lookup::Data(Value::Str(s)) => vm.heap.str(s).to_rust(),
        _ => "Error".to_string(),
    };
    let mk = vm.heap.key("message");
    let msg = match data_lookup(vm, o, mk) {
        Lookup::Data(Value::Str(s)) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    };
    let line = match (name.is_empty(), msg.is_empty()) {
        (true, _) => msg,
        (_, true) => name,
        _ => format!("{name}: {msg}"),
    };
    vm.str_val(&line)
}

/// `hasErrorData(v)`: an object made by an Error constructor ([[ErrorData]]).
pub(super) fn has_error_data(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Error)),
    ))
}

/// `Error.captureStackTrace(obj)` (V8): gives `obj` a `stack` (its header line only: there
/// are no frames to show); a primitive is V8's TypeError.
fn capture_stack_trace(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Err(vm.type_error("invalid_argument"));
    };
    let k = vm.heap.key("stack");
    let refused = match vm.own(o, k) {
        Some(p) => p.attrs & CONFIGURABLE == 0,
        None => !vm.heap.obj(o).extensible,
    };
    if refused {
        return Err(vm.type_error("Cannot define property stack, object is not extensible"));
    }
    let v = stack_header(vm, o)?;
    vm.define(o, k, Slot::Data(v), HIDDEN_ATTRS)?;
    Ok(Value::Undefined)
}

pub(super) fn make_error_value(
    vm: &mut Vm,
    proto: Option<ObjId>,
    this: Value,
    args: &[Value],
) -> Res<Value> {
    let proto = match this {
        Value::Obj(o)
            if vm.heap.obj(o).proto.is_some() && matches!(vm.heap.obj(o).kind, Kind::Ordinary) =>
        {
            vm.heap.obj(o).proto
        }
        _ => proto,
    };
    let o = vm.heap.new_obj(proto, Kind::Error)?;
    if let Some(m) = args.first()
        && *m != Value::Undefined
    {
        let s = vm.to_string(*m)?;
        let k = vm.heap.key("message");
        vm.define(o, k, Slot::Data(Value::Str(s)), HIDDEN_ATTRS)?;
    }
    if let Some(opts @ Value::Obj(_)) = args.get(1) {
        let k = vm.heap.key("cause");
        if vm.has_property(*opts, k) {
            let c = vm.get_value(*opts, k)?;
            vm.define(o, k, Slot::Data(c), HIDDEN_ATTRS)?;
        }
    }
    Ok(Value::Obj(o))
}

pub(super) fn error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.error_proto, this, args)
}
pub(super) fn type_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.type_error_proto, this, args)
}
pub(super) fn range_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.range_error_proto, this, args)
}
pub(super) fn reference_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.reference_error_proto, this, args)
}
pub(super) fn syntax_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.syntax_error_proto, this, args)
}

pub(super) fn eval_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.eval_error_proto, this, args)
}
pub(super) fn uri_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.uri_error_proto, this, args)
}

/// `AggregateError(errors, message, options)`: message and cause as the other errors, then
/// `errors`, an array of the iterable's values.
pub(super) fn aggregate_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let rest = args.get(1..).unwrap_or(&[]);
    let e = make_error_value(vm, vm.intr.aggregate_error_proto, this, rest)?;
    let list = vm.iterate_fast(arg(args, 0))?;
    let arr = vm.new_array(list)?;
    let k = vm.heap.key("errors");
    if let Value::Obj(o) = e {
        vm.define(o, k, Slot::Data(arr), HIDDEN_ATTRS)?;
    }
    Ok(e)
}

/// `Error.prototype.toString`: `name: message` (either alone when the other is empty).
pub(super) fn error_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    if !matches!(this, Value::Obj(_)) {
        return Err(vm.type_error("Error.prototype.toString called on a non-object"));
    }
    let n = vm.get_simple(this, "name")?;
    let name = if n == Value::Undefined {
        "Error".to_string()
    } else {
        vm.to_rust_string(n)?
    };
    let m = vm.get_simple(this, "message")?;
    let msg = if m == Value::Undefined {
        String::new()
    } else {
        vm.to_rust_string(m)?
    };
    let s = match (name.is_empty(), msg.is_empty()) {
        (true, _) => msg,
        (_, true) => name,
        _ => format!("{name}: {msg}"),
    };
    vm.str_val(&s)
}
