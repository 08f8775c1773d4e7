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
    ("%Intrinsics%.describe", intr_describe, 1),
    ("%Intrinsics%.describeCallSite", intr_describe_call_site, 1),
];

/// `%Intrinsics%.describe(v)`: [`describe`] as a string.
fn intr_describe(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = describe(vm, arg(args, 0))?;
    vm.str_val(&s)
}

/// `%Intrinsics%.describeCallSite(v)`: [`describe_call_site`] as a string.
fn intr_describe_call_site(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = describe_call_site(vm, arg(args, 0))?;
    vm.str_val(&s)
}

/// A value as V8's messages show it (`Object::NoSideEffectsToString`, e.g. `x is not a
/// function` from `[1].map(x)`): a primitive as its string (`q`, `5`, `Symbol(s)`); an error,
/// or an object whose `toString` is `Error.prototype.toString`, as `Name: message`; an object
/// whose `toString` is `Object.prototype.toString` as `#<Constructor>`; any other object as
/// `[object Tag]` (`[object Array]`, `[object Date]`). Only data properties are read.
pub(super) fn describe(vm: &mut Vm, v: Value) -> Res<String> {
    let o = match v {
        Value::Obj(o) => o,
        Value::Sym(_) => return inspect(vm, v),
        Value::Empty => return Ok("undefined".to_string()),
        v => {
            let s = vm.to_string(v)?;
            return Ok(vm.heap.str(s).to_rust());
        }
    };
    if vm.is_callable(v) {
        return match super::function::function_to_string(vm, v, &[])? {
            Value::Str(s) => Ok(vm.heap.str(s).to_rust()),
            _ => Ok(String::new()),
        };
    }
    let data = |vm: &mut Vm, o: ObjId, name: &str| {
        let k = vm.heap.key(name);
        match data_lookup(vm, o, k) {
            Lookup::Data(x) => x,
            _ => Value::Undefined,
        }
    };
    let proto_method = |vm: &mut Vm, p: Option<ObjId>| match p {
        Some(p) => data(vm, p, "toString"),
        None => Value::Empty,
    };
    let to_string = data(vm, o, "toString");
    let error_to_string = proto_method(vm, vm.intr.error_proto);
    let object_to_string = proto_method(vm, vm.intr.object_proto);
    if matches!(vm.heap.obj(o).kind, Kind::Error) || to_string == error_to_string {
        let text = |vm: &mut Vm, x: Value| match x {
            Value::Str(s) => vm.heap.str(s).to_rust(),
            _ => String::new(),
        };
        let name = data(vm, o, "name");
        let name = text(vm, name);
        let message = data(vm, o, "message");
        let message = text(vm, message);
        return Ok(match (name.is_empty(), message.is_empty()) {
            (true, _) => message,
            (_, true) => name,
            _ => format!("{name}: {message}"),
        });
    }
    if to_string == object_to_string
        && let ctor @ Value::Obj(c) = data(vm, o, "constructor")
        && vm.is_callable(ctor)
        && let Value::Str(n) = data(vm, c, "name")
        && !vm.heap.str(n).is_empty()
    {
        return Ok(format!("#<{}>", vm.heap.str(n).to_rust()));
    }
    let tag = match vm.intr.sym_to_string_tag {
        Some(t) => match data_lookup(vm, o, Key::Sym(t)) {
            Lookup::Data(Value::Str(s)) => Some(vm.heap.str(s).to_rust()),
            _ => None,
        },
        None => None,
    };
    let tag = tag.unwrap_or_else(|| {
        match vm.heap.obj(o).kind {
            Kind::Array(_) => "Array",
            Kind::Error => "Error",
            Kind::Boolean(_) => "Boolean",
            Kind::Number(_) => "Number",
            Kind::String(_) => "String",
            Kind::Date(_) => "Date",
            Kind::RegExp(_) => "RegExp",
            Kind::Arguments(_) => "Arguments",
            _ => "Object",
        }
        .to_string()
    });
    Ok(format!("[object {tag}]"))
}

/// A value as V8 shows a callee it cannot name (`BuildDefaultCallSite`, e.g. `string "q" is
/// not a function` from `map.forEach("q")`): its type, then a string quoted (cut at 100
/// code units, `<...>`), a number, `null`, `true` or `false`.
pub(super) fn describe_call_site(vm: &mut Vm, v: Value) -> Res<String> {
    const MAX_PRINTED: usize = 100;
    let ty = vm.typeof_str(v);
    Ok(match v {
        Value::Str(s) => {
            let st = vm.heap.str(s);
            if st.len() <= MAX_PRINTED {
                format!("{ty} \"{}\"", st.to_rust())
            } else {
                let head = String::from_utf16_lossy(&st.slice(0, MAX_PRINTED).units());
                format!("{ty} \"{head}<...>\"")
            }
        }
        Value::Null => format!("{ty} null"),
        Value::Bool(b) => format!("{ty} {b}"),
        Value::Num(_) => {
            let s = vm.to_string(v)?;
            format!("{ty} {}", vm.heap.str(s).to_rust())
        }
        _ => ty.to_string(),
    })
}

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
