//! `JSON.parse` and `JSON.stringify`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("JSON.stringify", json_stringify, 3),
    ("JSON.parse", json_parse, 2),
];

/// `JSON.stringify(value, replacer, space)`: replacer arrays, indentation; `toJSON` of
/// builtins. Cycles are the TypeError V8 gives; nesting past [`MAX_DATA_DEPTH`] a RangeError.
pub(super) fn json_stringify(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    let allow: Option<Vec<Key>> = match arg(args, 1) {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_)) => {
            let items = vm.list_from_array_like(Value::Obj(o))?;
            let mut keys = Vec::new();
            for i in items {
                if matches!(i, Value::Str(_) | Value::Num(_)) {
                    keys.push(vm.to_key(i)?);
                }
            }
            Some(keys)
        }
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_)) => {
            return Err(vm.type_error(
                "a JSON.stringify replacer function is not supported yet; map the value first",
            ));
        }
        _ => None,
    };
    let indent = match arg(args, 2) {
        Value::Num(n) => " ".repeat(n.clamp(0.0, 10.0) as usize),
        Value::Str(s) => vm.heap.str(s).to_rust().chars().take(10).collect(),
        _ => String::new(),
    };
    let mut out = String::new();
    let mut stack = Vec::new();
    let ok = json_into(vm, v, &mut out, &mut stack, &indent, &allow)?;
    if !ok {
        return Ok(Value::Undefined);
    }
    vm.str_val(&out)
}

/// Write the JSON of `v`; `false` when it has none (undefined, functions, symbols).
pub(super) fn json_into(
    vm: &mut Vm,
    v: Value,
    out: &mut String,
    stack: &mut Vec<ObjId>,
    indent: &str,
    allow: &Option<Vec<Key>>,
) -> Res<bool> {
    vm.work(1);
    if out.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Value::Num(n) if n.is_finite() => out.push_str(&crate::number::to_string(n)),
        Value::Num(_) => out.push_str("null"),
        Value::Str(s) => vm.heap.str(s).json_quote(out),
        Value::Undefined | Value::Sym(_) | Value::Empty => return Ok(false),
        Value::Obj(o) => {
            match vm.heap.obj(o).kind.clone() {
                Kind::Function(_) => return Ok(false),
                Kind::Number(n) => return json_into(vm, Value::Num(n), out, stack, indent, allow),
                Kind::String(s) => return json_into(vm, Value::Str(s), out, stack, indent, allow),
                Kind::Boolean(b) => {
                    return json_into(vm, Value::Bool(b), out, stack, indent, allow);
                }
                _ => {}
            }
            if stack.contains(&o) {
                return Err(vm.type_error("Converting circular structure to JSON"));
            }
            if stack.len() >= MAX_DATA_DEPTH {
                return Err(vm.range_error(&format!(
                    "Value exceeds the maximum depth of {MAX_DATA_DEPTH}."
                )));
            }
            stack.push(o);
            let depth = stack.len();
            let nl = |out: &mut String, d: usize| {
                if !indent.is_empty() {
                    out.push('\n');
                    for _ in 0..d {
                        out.push_str(indent);
                    }
                }
            };
            if let Kind::Array(_) = vm.heap.obj(o).kind {
                let items = vm.list_from_array_like(v)?;
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    nl(out, depth);
                    if !json_into(vm, *x, out, stack, indent, allow)? {
                        out.push_str("null");
                    }
                }
                if !items.is_empty() {
                    nl(out, depth - 1);
                }
                out.push(']');
            } else {
                let entries = enumerable_entries(vm, v)?;
                out.push('{');
                let mut any = false;
                for (k, x) in entries {
                    if let Some(a) = allow
                        && !a.contains(&k)
                    {
                        continue;
                    }
                    let mark = out.len();
                    if any {
                        out.push(',');
                    }
                    nl(out, depth);
                    let ks = vm.heap.key_str(k).unwrap_or_else(|| JsStr::from_str(""));
                    ks.json_quote(out);
                    out.push(':');
                    if !indent.is_empty() {
                        out.push(' ');
                    }
                    if json_into(vm, x, out, stack, indent, allow)? {
                        any = true;
                    } else {
                        out.truncate(mark);
                    }
                }
                if any {
                    nl(out, depth - 1);
                }
                out.push('}');
            }
            stack.pop();
        }
    }
    Ok(true)
}

pub(super) fn json_parse(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let text = vm.to_rust_string(arg(args, 0))?;
    if arg(args, 1) != Value::Undefined {
        return Err(
            vm.type_error("a JSON.parse reviver is not supported yet; transform the parsed value")
        );
    }
    vm.work(text.len() / 8);
    let parsed: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            let msg = format!(
                "{} in JSON at line {} column {}",
                json_error_words(&e),
                e.line(),
                e.column()
            );
            return Err(vm.err_syntax(&msg));
        }
    };
    let r = crate::boundary::import(vm, &parsed);
    crate::boundary::drop_json(parsed);
    r
}

pub(super) fn json_error_words(e: &serde_json::Error) -> String {
    let s = e.to_string();
    let cut = s.find(" at line").unwrap_or(s.len());
    let mut w = s[..cut].to_string();
    if let Some(c) = w.get_mut(0..1) {
        c.make_ascii_uppercase();
    }
    w
}
