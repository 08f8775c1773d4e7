//! The natives under `JSON.parse` and `JSON.stringify` (the methods themselves are in
//! `prelude/json.js`): the one-pass fast path, the parse, string quoting.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("%Intrinsics%.jsonFastStringify", json_fast_stringify, 3),
    ("%Intrinsics%.jsonParse", json_parse, 1),
    ("%Intrinsics%.jsonQuote", json_quote, 1),
    ("%Intrinsics%.jsonCircularMessage", json_circular_message, 4),
];

/// How `JSON.stringify` reached an object: the root, an array index, a property.
#[derive(Clone, Copy)]
pub(super) enum Seg {
    Root,
    Index(usize),
    Prop(Key),
}

/// The name V8's circular-structure message gives an object (`JSReceiver::GetConstructorName`,
/// read without running code): the constructor that made it (a `constructor` along the
/// prototypes whose `prototype` is the object's prototype), else the first
/// `Symbol.toStringTag` or named `constructor` other than `Object` along the chain, else the
/// kind's class name.
fn v8_constructor_name(vm: &mut Vm, o: ObjId) -> String {
    let ctor_key = vm.heap.key("constructor");
    let proto_key = vm.heap.key("prototype");
    let name_of = |vm: &mut Vm, f: Value| -> Option<String> {
        let Value::Obj(f) = f else { return None };
        if !matches!(vm.heap.obj(f).kind, Kind::Function(_)) {
            return None;
        }
        let k = vm.heap.key("name");
        match data_lookup(vm, f, k) {
            Lookup::Data(Value::Str(s)) => {
                let n = vm.heap.str(s).to_rust();
                (!n.is_empty() && n != "Object").then_some(n)
            }
            _ => None,
        }
    };
    let proto = vm.heap.obj(o).proto;
    if let Some(p) = proto
        && let Lookup::Data(f @ Value::Obj(fo)) = data_lookup(vm, p, ctor_key)
        && matches!(vm.own(fo, proto_key), Some(crate::heap::Prop { slot: Slot::Data(Value::Obj(pp)), .. }) if Some(pp) == proto)
        && let Some(n) = name_of(vm, f)
    {
        return n;
    }
    let mut cur = Some(o);
    let mut guard = 0;
    while let Some(c) = cur {
        if let Some(t) = vm.intr.sym_to_string_tag
            && let Some(crate::heap::Prop {
                slot: Slot::Data(Value::Str(s)),
                ..
            }) = vm.own(c, Key::Sym(t))
        {
            return vm.heap.str(s).to_rust();
        }
        if c != o
            && let Some(crate::heap::Prop {
                slot: Slot::Data(f),
                ..
            }) = vm.own(c, ctor_key)
            && let Some(n) = name_of(vm, f)
        {
            return n;
        }
        cur = vm.heap.obj(c).proto;
        guard += 1;
        if guard > crate::limits::MAX_PROTO_CHAIN {
            break;
        }
    }
    match &vm.heap.obj(o).kind {
        Kind::Array(_) => "Array",
        Kind::Function(_) => "Function",
        Kind::Error => "Error",
        Kind::Date(_) => "Date",
        Kind::RegExp(_) => "RegExp",
        Kind::Map(_) => "Map",
        Kind::Set(_) => "Set",
        Kind::Arguments(_) => "Arguments",
        _ => "Object",
    }
    .to_string()
}

/// V8's message for a cycle met by `JSON.stringify`: `path` is the objects being serialized
/// with how each was reached, `start` the one met again, `closing` the key that met it.
/// Two lines after the start and the last one are shown, `...` for the rest (V8's
/// `kCircularErrorMessagePrefixCount` and `PostfixCount`).
pub(super) fn circular_message(
    vm: &mut Vm,
    path: &[(ObjId, Seg)],
    start: usize,
    closing: Seg,
) -> String {
    let key = |vm: &mut Vm, s: Seg| match s {
        Seg::Index(i) => format!("index {i}"),
        Seg::Prop(k) => match vm.heap.key_str(k).map(|s| s.to_rust()) {
            Some(t) if !t.is_empty() => format!("property '{t}'"),
            _ => "<anonymous>".to_string(),
        },
        Seg::Root => "<anonymous>".to_string(),
    };
    let mut m = format!(
        "Converting circular structure to JSON\n    --> starting at object with constructor '{}'",
        v8_constructor_name(vm, path[start].0)
    );
    let len = path.len();
    let line = |vm: &mut Vm, m: &mut String, i: usize| {
        let k = key(vm, path[i].1);
        let n = v8_constructor_name(vm, path[i].0);
        m.push_str(&format!("\n    |     {k} -> object with constructor '{n}'"));
    };
    let mut i = start + 1;
    let prefix_end = len.min(i + 2);
    while i < prefix_end {
        line(vm, &mut m, i);
        i += 1;
    }
    if len > i + 1 {
        m.push_str("\n    |     ...");
    }
    i = i.max(len - 1);
    while i < len {
        line(vm, &mut m, i);
        i += 1;
    }
    let k = key(vm, closing);
    m.push_str(&format!("\n    --- {k} closes the circle"));
    m
}

/// `%Intrinsics%.jsonCircularMessage(objects, keys, start, closingKey)`: [`circular_message`]
/// for the prelude's `JSON.stringify` (keys are numbers for array indices, else strings).
pub(super) fn json_circular_message(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let list = |vm: &mut Vm, v: Value| match v {
        Value::Obj(o) => match &vm.heap.obj(o).kind {
            Kind::Array(e) => e.to_vec(),
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    let objs = list(vm, arg(args, 0));
    let keys = list(vm, arg(args, 1));
    let seg = |vm: &mut Vm, v: Value| -> Res<Seg> {
        Ok(match v {
            Value::Num(n) => Seg::Index(n as usize),
            Value::Str(_) => Seg::Prop(vm.to_key(v)?),
            _ => Seg::Root,
        })
    };
    let mut path = Vec::new();
    for (i, o) in objs.iter().enumerate() {
        if let Value::Obj(o) = o {
            let s = seg(vm, keys.get(i).copied().unwrap_or(Value::Undefined))?;
            path.push((*o, s));
        }
    }
    let start = match arg(args, 2) {
        Value::Num(n) if n >= 0.0 && (n as usize) < path.len() => n as usize,
        _ => return vm.str_val("Converting circular structure to JSON"),
    };
    let closing = seg(vm, arg(args, 3))?;
    let m = circular_message(vm, &path, start, closing);
    vm.str_val(&m)
}

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
    match json_into(vm, v, Seg::Root, &mut out, &mut stack, &indent, &allow)? {
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
    via: Seg,
    out: &mut String,
    stack: &mut Vec<(ObjId, Seg)>,
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
            if let Some(start) = stack.iter().position(|(x, _)| *x == o) {
                let m = circular_message(vm, stack, start, via);
                return Err(vm.type_error(&m));
            }
            if stack.len() >= MAX_DATA_DEPTH {
                return Err(vm.range_error(&format!(
                    "Value exceeds the maximum depth of {MAX_DATA_DEPTH}."
                )));
            }
            stack.push((o, via));
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
                    match json_into(vm, *x, Seg::Index(i), out, stack, indent, allow)? {
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
                    match json_into(vm, x, Seg::Prop(k), out, stack, indent, allow)? {
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
