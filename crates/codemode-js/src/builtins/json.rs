//! The natives under `JSON.parse` and `JSON.stringify` (the methods themselves are in
//! `prelude/json.js`): the one-pass fast path, the parse, string quoting.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("%Intrinsics%.jsonFastStringify", json_fast_stringify, 3),
    ("%Intrinsics%.jsonParse", json_parse, 1),
    ("%Intrinsics%.jsonQuote", json_quote, 1),
];

/// `%Intrinsics%.jsonQuote(string)`: QuoteJSONString (§25.5.2.3).
pub(super) fn json_quote(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_string(arg(args, 0))?;
    let mut out = String::new();
    vm.heap.str(s).json_quote(&mut out);
    vm.work_check(out.len() / 8)?;
    if out.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.str_val(&out)
}

/// `%Intrinsics%.jsonFastStringify(value, replacer, space)`: `JSON.stringify` in one native
/// pass for values that run no user code (the common case: plain data, replacer arrays of
/// strings and numbers, numeric or string indentation). `null` when the value needs the spec's
/// algorithm in `prelude/json.js`: a `toJSON` method anywhere, a getter among the properties, a
/// wrapper object (`new Number(1)`), or a replacer or space that is not plain. Cycles are a
/// TypeError; nesting past [`MAX_DATA_DEPTH`] a RangeError.
pub(super) fn json_fast_stringify(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    let allow: Option<Vec<Key>> = match arg(args, 1) {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_)) => {
            let Kind::Array(items) = &vm.heap.obj(o).kind else {
                unreachable!()
            };
            if items.len() > crate::limits::MAX_ARGUMENTS {
                return Ok(Value::Null);
            }
            let items = items.to_vec();
            let mut keys: Vec<Key> = Vec::new();
            for i in items {
                let k = match i {
                    Value::Str(_) | Value::Num(_) => vm.to_key(i)?,
                    Value::Obj(_) | Value::Empty => return Ok(Value::Null),
                    _ => continue,
                };
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            Some(keys)
        }
        Value::Obj(_) => return Ok(Value::Null),
        _ => None,
    };
    let indent = match arg(args, 2) {
        Value::Num(n) => " ".repeat(if n.is_nan() { 0.0 } else { n.clamp(0.0, 10.0) } as usize),
        Value::Str(s) => {
            let units = vm.heap.str(s).units();
            String::from_utf16_lossy(&units[..units.len().min(10)])
        }
        Value::Obj(_) => return Ok(Value::Null),
        _ => String::new(),
    };
    let mut out = String::new();
    let mut stack = Vec::new();
    match json_into(vm, v, &mut out, &mut stack, &indent, &allow)? {
        Fast::Done => vm.str_val(&out),
        Fast::Absent => Ok(Value::Undefined),
        Fast::Slow => Ok(Value::Null),
    }
}

/// What the fast pass made of a value.
#[derive(PartialEq)]
pub(super) enum Fast {
    /// Its JSON is written.
    Done,
    /// It has no JSON (undefined, a function, a symbol).
    Absent,
    /// It runs user code: the spec's algorithm must take over.
    Slow,
}

/// `true` when `o` or its prototypes have a `toJSON` property.
fn has_to_json(vm: &mut Vm, o: ObjId) -> bool {
    let key = vm.heap.key("toJSON");
    !matches!(data_lookup(vm, o, key), Lookup::Absent)
}

/// Write the JSON of `v` (see [`Fast`]).
pub(super) fn json_into(
    vm: &mut Vm,
    v: Value,
    out: &mut String,
    stack: &mut Vec<ObjId>,
    indent: &str,
    allow: &Option<Vec<Key>>,
) -> Res<Fast> {
    vm.work_check(1)?;
    if out.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Value::Num(n) if n.is_finite() => out.push_str(&crate::number::to_string(n)),
        Value::Num(_) => out.push_str("null"),
        Value::Str(s) => vm.heap.str(s).json_quote(out),
        Value::Undefined | Value::Sym(_) | Value::Empty => return Ok(Fast::Absent),
        Value::Obj(o) => {
            match vm.heap.obj(o).kind {
                Kind::Function(_) => return Ok(Fast::Absent),
                Kind::Number(_) | Kind::String(_) | Kind::Boolean(_) => return Ok(Fast::Slow),
                _ => {}
            }
            if has_to_json(vm, o) {
                return Ok(Fast::Slow);
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
            if let Kind::Array(e) = &vm.heap.obj(o).kind {
                // A hole reads through the prototypes: the spec's algorithm when they hold
                // indices (`Array.prototype[1] = x`), "null" otherwise.
                if vm.protos_have_indices(o) {
                    return Ok(Fast::Slow);
                }
                let items = e.to_vec();
                vm.work(items.len());
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    nl(out, depth);
                    match json_into(vm, *x, out, stack, indent, allow)? {
                        Fast::Done => {}
                        Fast::Absent => out.push_str("null"),
                        Fast::Slow => return Ok(Fast::Slow),
                    }
                }
                if !items.is_empty() {
                    nl(out, depth - 1);
                }
                out.push(']');
            } else {
                let entries = match allow {
                    // The replacer's list, in its order, read through the prototypes.
                    Some(list) => {
                        let mut entries = Vec::with_capacity(list.len());
                        for k in list {
                            match data_lookup(vm, o, *k) {
                                Lookup::Data(x) => entries.push((*k, x)),
                                Lookup::Absent => entries.push((*k, Value::Undefined)),
                                Lookup::Accessor => return Ok(Fast::Slow),
                            }
                        }
                        entries
                    }
                    None => {
                        for k in own_keys(vm, o, true) {
                            if let Some(crate::heap::Prop {
                                slot: Slot::Accessor(..),
                                ..
                            }) = vm.own(o, k)
                            {
                                return Ok(Fast::Slow);
                            }
                        }
                        enumerable_entries(vm, v)?
                    }
                };
                out.push('{');
                let mut any = false;
                for (k, x) in entries {
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
                    match json_into(vm, x, out, stack, indent, allow)? {
                        Fast::Done => any = true,
                        Fast::Absent => out.truncate(mark),
                        Fast::Slow => return Ok(Fast::Slow),
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
    Ok(Fast::Done)
}

/// `%Intrinsics%.jsonParse(text)`: the parse of `JSON.parse` (the reviver walk is in
/// `prelude/json.js`). A syntax error is V8's SyntaxError wording with line and column.
pub(super) fn json_parse(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_string(arg(args, 0))?;
    let text = vm.heap.str(s).clone();
    super::json_parse::parse(vm, &text)
}
