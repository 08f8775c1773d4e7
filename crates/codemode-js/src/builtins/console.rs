//! `console` (what it logs is formatted by `node_inspect.rs`) and the JSON-like `inspect` of
//! values inside messages (uncaught non-errors, "x is not a function").

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("console.log", console_log, 0),
    ("console.info", console_info, 0),
    ("console.debug", console_debug, 0),
    ("console.warn", console_warn, 0),
    ("console.error", console_error, 0),
    ("console.dir", console_dir, 0),
    ("console.table", console_table, 1),
];

/// How a value reads inside a message (`Uncaught: {"code":7}`): top-level strings raw,
/// everything else JSON-like with `NaN`/`Infinity` literal, `Map(n) [...]`, `Set(n) [...]`,
/// `Error: message`, `[Circular]`, `[opaque reference]` for functions, `...` past the depth
/// bound.
pub fn inspect(vm: &mut Vm, v: Value) -> Res<String> {
    if let Value::Str(s) = v {
        return Ok(vm.heap.str(s).to_rust());
    }
    let mut out = String::new();
    let mut stack = Vec::new();
    inspect_into(vm, v, &mut out, &mut stack)?;
    Ok(out)
}

/// Console formatting of nested values. Recursion is bounded by the depth cut (32).
pub(super) fn inspect_into(
    vm: &mut Vm,
    v: Value,
    out: &mut String,
    stack: &mut Vec<ObjId>,
) -> Res<()> {
    vm.work(1);
    if out.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    match v {
        Value::Str(s) => vm.heap.str(s).json_quote(out),
        Value::Num(n) => out.push_str(&crate::number::to_string(n)),
        Value::Sym(s) => {
            let d =
                vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
            out.push_str(&format!("Symbol({d})"));
        }
        Value::Obj(o) => {
            if stack.contains(&o) {
                out.push_str("[Circular]");
                return Ok(());
            }
            if stack.len() >= 32 {
                out.push_str("...");
                return Ok(());
            }
            stack.push(o);
            let r = inspect_obj(vm, o, out, stack);
            stack.pop();
            r?;
        }
        Value::Empty => out.push_str("null"),
        other => {
            let s = vm.to_rust_string(other)?;
            out.push_str(&s);
        }
    }
    Ok(())
}

pub(super) fn inspect_obj(
    vm: &mut Vm,
    o: ObjId,
    out: &mut String,
    stack: &mut Vec<ObjId>,
) -> Res<()> {
    let v = Value::Obj(o);
    match vm.heap.obj(o).kind.clone() {
        Kind::Function(_) => out.push_str("[opaque reference]"),
        Kind::Array(e) => {
            out.push('[');
            for i in 0..e.len() {
                if i > 0 {
                    out.push(',');
                }
                if out.len() > crate::limits::MAX_STRING_LENGTH {
                    return Err(vm.range_error("Invalid string length"));
                }
                let x = e.get(i).unwrap_or(Value::Null);
                inspect_into(vm, x, out, stack)?;
            }
            out.push(']');
        }
        Kind::Map(entries) => {
            let live: Vec<(Value, Value)> = entries.iter().collect();
            out.push_str(&format!("Map({}) [", live.len()));
            for (i, (k, x)) in live.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('[');
                inspect_into(vm, *k, out, stack)?;
                out.push(',');
                inspect_into(vm, *x, out, stack)?;
                out.push(']');
            }
            out.push(']');
        }
        Kind::Set(items) => {
            let live: Vec<Value> = items.iter().map(|(k, _)| k).collect();
            out.push_str(&format!("Set({}) [", live.len()));
            for (i, x) in live.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                inspect_into(vm, *x, out, stack)?;
            }
            out.push(']');
        }
        _ if is_error(vm, o) => {
            let s = vm.to_rust_string(v)?;
            out.push_str(&s);
        }
        _ => {
            out.push('{');
            let mut first = true;
            for (k, x) in enumerable_entries(vm, v)? {
                if !first {
                    out.push(',');
                }
                first = false;
                let ks = vm.heap.key_str(k).unwrap_or_else(|| JsStr::from_str(""));
                ks.json_quote(out);
                out.push(':');
                inspect_into(vm, x, out, stack)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

/// `true` for objects whose prototype chain reaches `Error.prototype` (or error objects).
pub fn is_error(vm: &Vm, o: ObjId) -> bool {
    if matches!(vm.heap.obj(o).kind, Kind::Error) {
        return true;
    }
    let mut cur = vm.heap.obj(o).proto;
    while let Some(p) = cur {
        if Some(p) == vm.intr.error_proto {
            return true;
        }
        cur = vm.heap.obj(p).proto;
    }
    false
}

/// Append one log entry: `prefix` then node's `util.format` of `args`, charged to memory.
pub(super) fn log_with(vm: &mut Vm, prefix: &str, args: &[Value]) -> Res<Value> {
    let text = super::node_inspect::format(vm, args)?;
    push_log(vm, format!("{prefix}{text}"))
}

fn push_log(vm: &mut Vm, line: String) -> Res<Value> {
    vm.heap.charge(line.len() + 32)?;
    vm.work(line.len() / 16);
    vm.logs.push(line);
    Ok(Value::Undefined)
}

pub(super) fn console_log(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "", args)
}
pub(super) fn console_info(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "", args)
}
pub(super) fn console_debug(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "[debug] ", args)
}
pub(super) fn console_warn(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "[warn] ", args)
}
pub(super) fn console_error(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "[error] ", args)
}

/// `console.dir(value, { depth })`: the first argument inspected (strings quoted), with
/// `depth` a number, `null` or `Infinity` (all levels, up to `MAX_DATA_DEPTH`).
pub(super) fn console_dir(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut opts = super::node_inspect::Options::default();
    if let Value::Obj(o) = arg(args, 1) {
        let k = vm.heap.key("depth");
        if let Some(crate::heap::Prop {
            slot: Slot::Data(d),
            ..
        }) = vm.own(o, k)
        {
            opts.depth = match d {
                Value::Null => None,
                Value::Num(n) if n.is_infinite() && n > 0.0 => None,
                Value::Num(n) if n >= 0.0 => Some(n as usize),
                Value::Num(_) => Some(0),
                _ => opts.depth,
            };
        }
    }
    let text = super::node_inspect::inspect_with(vm, arg(args, 0), opts)?;
    push_log(vm, text)
}

/// `console.table(data, columns)`: node's box-drawn table; non-objects log as `console.log`.
pub(super) fn console_table(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    match super::node_inspect::table(vm, arg(args, 0), arg(args, 1))? {
        Some(t) => push_log(vm, t),
        None => log_with(vm, "", &args[..args.len().min(1)]),
    }
}
