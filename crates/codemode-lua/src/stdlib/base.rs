//! Base library (Lua 5.4 manual §6.1): `assert error pcall xpcall select type tostring tonumber
//! ipairs pairs next rawequal rawlen rawget rawset print`, plus natives for the features that are
//! absent from the sandbox (`require`, `load`, `setmetatable`, `coroutine.*`, `io.*`, `os.*`,
//! `debug.*` except `debug.traceback`, which returns its message), which raise an error saying
//! what to do instead.
//!
//! `pcall`/`xpcall` are handled by the VM (protected frames); the natives registered here only
//! identify them.

use crate::ErrorKind;
use crate::value::{StrRef, Throw, Value, VmResult};
use crate::vm::{Ctx, Rets, Vm, str_to_number, tostring_text};

/// Install the base library into `vm`.
pub(crate) fn open(vm: &mut Vm) -> VmResult<()> {
    let funcs: &[(&'static str, crate::vm::NativeFn)] = &[
        ("assert", assert),
        ("error", error),
        ("select", select),
        ("type", type_),
        ("tostring", tostring),
        ("tonumber", tonumber),
        ("ipairs", ipairs),
        ("pairs", pairs),
        ("rawequal", rawequal),
        ("rawlen", rawlen),
        ("rawget", rawget),
        ("rawset", rawset),
        ("print", print),
        ("collectgarbage", collectgarbage),
    ];
    for (name, f) in funcs {
        let v = vm.heap.register_native(name, *f);
        vm.set_global(name, v)?;
    }
    let next = vm.heap.register_native("next", next);
    vm.set_global("next", next)?;
    let pcall = vm.heap.register_native("pcall", protected_placeholder);
    vm.set_global("pcall", pcall)?;
    let xpcall = vm.heap.register_native("xpcall", protected_placeholder);
    vm.set_global("xpcall", xpcall)?;
    vm.set_special(pcall, xpcall, next);
    let ipairs_iter = vm.heap.register_native("ipairs_iterator", ipairs_iter);
    vm.ipairs_iter = ipairs_iter;
    vm.set_global("_G", Value::Table(vm.globals))?;
    let v = vm.heap.intern_static("Lua 5.4")?;
    vm.set_global("_VERSION", Value::Str(v))?;
    // Absent features.
    for name in [
        "require",
        "load",
        "loadstring",
        "dofile",
        "loadfile",
        "setmetatable",
        "getmetatable",
    ] {
        let f = vm.heap.register_native(name, unavailable);
        vm.set_global(name, f)?;
    }
    let absent: &[(&str, &[&'static str])] = &[
        (
            "coroutine",
            &[
                "coroutine.create",
                "coroutine.resume",
                "coroutine.yield",
                "coroutine.wrap",
                "coroutine.status",
                "coroutine.running",
                "coroutine.isyieldable",
                "coroutine.close",
            ],
        ),
        (
            "io",
            &[
                "io.write",
                "io.read",
                "io.open",
                "io.lines",
                "io.close",
                "io.popen",
                "io.output",
                "io.input",
            ],
        ),
        (
            "os",
            &[
                "os.time",
                "os.clock",
                "os.date",
                "os.getenv",
                "os.exit",
                "os.execute",
                "os.remove",
                "os.rename",
                "os.tmpname",
                "os.difftime",
            ],
        ),
        (
            "debug",
            &[
                "debug.getinfo",
                "debug.sethook",
                "debug.gethook",
                "debug.getlocal",
                "debug.getmetatable",
                "debug.setmetatable",
            ],
        ),
    ];
    for (lib, names) in absent {
        let t = vm.heap.new_table(0, names.len())?;
        for full in names.iter() {
            let short = &full[lib.len() + 1..];
            let f = vm.heap.register_native(full, unavailable);
            vm.heap.table_set_field(t, short, f)?;
        }
        if *lib == "debug" {
            let f = vm.heap.register_native("debug.traceback", traceback);
            vm.heap.table_set_field(t, "traceback", f)?;
        }
        vm.set_global(lib, Value::Table(t))?;
    }
    Ok(())
}

/// `debug.traceback([msg])`: no traceback is available in the sandbox, so it returns the
/// message unchanged (any value, like Lua does for a non-string message; nothing when called
/// without arguments). This keeps `xpcall(f, debug.traceback)` returning the original error.
fn traceback(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    Ok(Rets::One(cx.arg(0)))
}

fn protected_placeholder(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    Err(Throw::msg(format!(
        "'{}' cannot be called this way",
        cx.name()
    )))
}

/// The error raised by a feature that is absent from the sandbox.
fn unavailable(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let name = cx.name();
    let instead = match name {
        "require" | "dofile" | "loadfile" => {
            "the program must be one self-contained chunk; define helper functions inline"
        }
        "load" | "loadstring" => "code cannot be compiled at run time; write the logic directly",
        "setmetatable" | "getmetatable" => {
            "metatables are not supported; use plain tables and functions (e.g. pass 'self' explicitly)"
        }
        n if n.starts_with("coroutine.") => {
            "coroutines are not supported; use loops, callbacks, or build a list of results"
        }
        n if n.starts_with("io.") => {
            "there is no file or console I/O; use print(...) for log lines and return the result value"
        }
        n if n.starts_with("os.") => {
            "the operating system is not accessible (no clock, date, environment or processes)"
        }
        _ => "debugging facilities are not available",
    };
    Err(Throw::with_kind(
        ErrorKind::ExecutionFailure,
        format!("{} is not available in this sandbox: {}", name, instead),
    ))
}

fn assert(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    if cx.nargs() == 0 {
        return Err(cx.arg_error(0, "value expected"));
    }
    if cx.arg(0).truthy() {
        return Ok(Rets::Many(cx.args().to_vec()));
    }
    // Like Lua, assert raises its message as error(message) would (position for strings).
    let msg = if cx.nargs() >= 2 {
        cx.arg(1)
    } else {
        Value::Nil
    };
    match msg {
        Value::Str(s) => {
            let loc = cx.location(1);
            Err(string_error(cx, s, loc))
        }
        Value::Nil if cx.nargs() < 2 => {
            let location = cx.location(1);
            Err(Throw::msg("assertion failed!").with(|d| {
                d.location = location;
                d.positioned = true;
            }))
        }
        v => Err(Throw::value(v)),
    }
}

fn error(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let v = cx.arg(0);
    let level = cx.opt_int(1, 1)?;
    if let Value::Str(s) = v
        && level > 0
    {
        let loc = cx.location(level as usize);
        return Err(string_error(cx, s, loc));
    }
    Err(Throw::value(v))
}

/// Longest string message `error`/`assert` copy into the error as text.
const SHORT_MESSAGE: usize = 4096;

/// The error `error(s)` / `assert(false, s)` raise for a string message, positioned at `loc`
/// (a `pcall` that catches it sees `input:LINE: s`). A short UTF-8 message travels as text;
/// a long or non-UTF-8 one keeps the Lua string (exact bytes, never copied outside the memory
/// accounting: the VM builds the positioned string in the heap, in chunks, when it is caught).
fn string_error(cx: &Ctx<'_>, s: StrRef, loc: Option<crate::Location>) -> Throw {
    let b = cx.heap_ref().str_bytes(s);
    let t = match std::str::from_utf8(b) {
        Ok(text) if b.len() <= SHORT_MESSAGE => Throw::msg(text),
        _ => Throw::value(Value::Str(s)).with(|d| d.prefix_position = true),
    };
    t.with(|d| {
        d.location = loc;
        d.positioned = true;
    })
}

fn select(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let n = cx.nargs() as i64;
    if let Value::Str(s) = cx.arg(0)
        && cx.heap_ref().str_bytes(s) == b"#"
    {
        return Ok(Rets::One(Value::Int(n - 1)));
    }
    let i = cx.check_int(0)?;
    let start = if i < 0 {
        if i.unsigned_abs() >= n as u64 {
            return Err(cx.arg_error(0, "index out of range"));
        }
        n + i
    } else if i == 0 {
        return Err(cx.arg_error(0, "index out of range"));
    } else {
        i.min(n)
    };
    cx.charge((n - start).max(0) as u64)?;
    Ok(Rets::Many(cx.args()[start as usize..].to_vec()))
}

fn type_(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    if cx.nargs() == 0 {
        return Err(cx.arg_error(0, "value expected"));
    }
    let name = cx.arg(0).type_name();
    let s = cx.heap().intern_static(name)?;
    Ok(Rets::One(Value::Str(s)))
}

fn tostring(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    if cx.nargs() == 0 {
        return Err(cx.arg_error(0, "value expected"));
    }
    let v = cx.arg(0);
    if let Value::Str(_) = v {
        return Ok(Rets::One(v));
    }
    let t = tostring_text(cx.heap_ref(), v);
    Ok(Rets::One(cx.new_str(t.as_bytes())?))
}

fn tonumber(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    if cx.arg(1).is_nil() {
        if cx.nargs() == 0 {
            return Err(cx.arg_error(0, "value expected"));
        }
        return Ok(Rets::One(match cx.arg(0) {
            v @ (Value::Int(_) | Value::Float(_)) => v,
            Value::Str(s) => str_to_number(cx.heap_ref().str_bytes(s)).unwrap_or(Value::Nil),
            _ => Value::Nil,
        }));
    }
    let base = cx.check_int(1)?;
    let s = match cx.arg(0) {
        Value::Str(s) => s,
        _ => return Err(cx.type_error(0, "string")),
    };
    if !(2..=36).contains(&base) {
        return Err(cx.arg_error(1, "base out of range"));
    }
    Ok(Rets::One(
        match crate::number::str_to_int_base(cx.heap_ref().str_bytes(s), base as u32) {
            Some(i) => Value::Int(i),
            None => Value::Nil,
        },
    ))
}

fn ipairs(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    if cx.nargs() == 0 {
        return Err(cx.arg_error(0, "value expected"));
    }
    let t = cx.arg(0);
    if let Value::HostNs(_) | Value::HostFn(_) = t {
        return Err(cx.arg_error(
            0,
            "the tools namespace cannot be iterated; use search(...) to list tools",
        ));
    }
    // Lua accepts any value and fails later with "attempt to index a nil value" (no position,
    // no name); naming the function and the argument is more useful.
    if !matches!(t, Value::Table(_)) {
        return Err(cx.type_error(0, "table"));
    }
    let iter = cx.vm.ipairs_iter;
    Ok(Rets::Many(vec![iter, t, Value::Int(0)]))
}

fn ipairs_iter(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let i = cx.check_int(1)?.wrapping_add(1);
    let v = match cx.arg(0) {
        Value::Table(t) => cx.heap_ref().table_get_int(t, i),
        Value::Str(_) => Value::Nil,
        other => {
            let e = Throw::msg(format!(
                "attempt to index a {} value (field '?')",
                other.type_name()
            ));
            return Err(e.with(|d| d.positioned = true));
        }
    };
    if v.is_nil() {
        Ok(Rets::One(Value::Nil))
    } else {
        Ok(Rets::Two(Value::Int(i), v))
    }
}

fn pairs(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let t = cx.arg(0);
    match t {
        Value::Table(_) => {}
        Value::HostNs(_) | Value::HostFn(_) => {
            return Err(cx.arg_error(
                0,
                "the tools namespace cannot be iterated; use search(...) to list tools",
            ));
        }
        _ => return Err(cx.type_error(0, "table")),
    }
    let next = cx.vm.next_fn();
    Ok(Rets::Many(vec![next, t, Value::Nil]))
}

fn next(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let t = cx.check_table(0)?;
    let (found, skipped) = cx.heap_ref().table_next_counted(t, cx.arg(1))?;
    // Empty slots scanned are work: `next(t)` on a table emptied from the front scans them all.
    cx.charge(skipped as u64 / 16)?;
    match found {
        Some((k, v)) => Ok(Rets::Two(k, v)),
        None => Ok(Rets::One(Value::Nil)),
    }
}

/// Lua's `luaL_checkany` for the first `n` arguments: "bad argument #k to 'f' (value
/// expected)" for the first one missing.
fn check_present(cx: &mut Ctx<'_>, n: usize) -> VmResult<()> {
    if cx.nargs() < n {
        return Err(cx.arg_error(cx.nargs(), "value expected"));
    }
    Ok(())
}

fn rawequal(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    check_present(cx, 2)?;
    Ok(Rets::One(Value::Bool(cx.arg(0) == cx.arg(1))))
}

fn rawlen(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    match cx.arg(0) {
        Value::Table(t) => Ok(Rets::One(Value::Int(cx.heap_ref().table_len(t)))),
        Value::Str(s) => Ok(Rets::One(Value::Int(
            cx.heap_ref().str_bytes(s).len() as i64
        ))),
        _ => Err(cx.type_error(0, "table or string")),
    }
}

fn rawget(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let t = cx.check_table(0)?;
    check_present(cx, 2)?;
    Ok(Rets::One(cx.heap_ref().table_get(t, cx.arg(1))))
}

fn rawset(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let t = cx.check_table(0)?;
    check_present(cx, 3)?;
    let (k, v) = (cx.arg(1), cx.arg(2));
    // "table index is nil" / "is NaN" come from inside rawset: no position, as in Lua.
    cx.heap()
        .table_set(t, k, v)
        .map_err(|e| e.with(|d| d.bare = true))?;
    Ok(Rets::One(Value::Table(t)))
}

/// What `print` logs for a table: its compact JSON, cut after
/// [`crate::limits::MAX_PRINT_JSON_BYTES`] with `…` (a model reading the logs sees the data,
/// not `table: 0x…`). A table that cannot be JSON (a function inside, a cycle, a hole in an
/// array, a number key) or whose JSON passes [`crate::limits::PRINT_EXPORT_BUDGET_BYTES`] logs
/// as a Lua table constructor instead ([`print_constructor`]).
fn print_table(cx: &mut Ctx<'_>, v: Value) -> VmResult<String> {
    use crate::limits::{MAX_EXPORT_BYTES, MAX_PRINT_JSON_BYTES, PRINT_EXPORT_BUDGET_BYTES};
    let mut work = 0u64;
    let mut used = MAX_EXPORT_BYTES - PRINT_EXPORT_BUDGET_BYTES;
    let exported = crate::boundary::export_counted(cx.heap_ref(), v, "value", &mut work, &mut used);
    cx.charge(work)?;
    let text = match exported {
        Ok(json) => {
            let text = serde_json::to_string(&json).unwrap_or_default();
            crate::boundary::drop_json(json);
            text
        }
        Err(_) => {
            let mut out = String::new();
            let mut path = Vec::new();
            let mut work = 0usize;
            print_constructor(cx.heap_ref(), v, &mut path, &mut out, &mut work)?;
            cx.charge(work as u64)?;
            out
        }
    };
    if text.len() <= MAX_PRINT_JSON_BYTES {
        return Ok(text);
    }
    let mut end = MAX_PRINT_JSON_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Ok(format!("{}…", &text[..end]))
}

/// Append `v` to `out` as a Lua table constructor, for a table `print` cannot log as JSON:
/// `{1, 2, [4] = 4, name = "x", f = function: 0x…, self = <cycle>}`. Positional items while
/// the keys run 1, 2, 3, ...; identifier keys bare, other keys in brackets; strings quoted
/// with JSON escapes; a table already on `path` (its ancestors) as `<cycle>`; tables deeper
/// than [`crate::limits::MAX_PRINT_DEPTH`] as `{…}`. Stops adding entries once `out` passes
/// [`crate::limits::MAX_PRINT_JSON_BYTES`] (the caller cuts it there), so the work is bounded
/// by the output; `work` counts the table slots visited.
fn print_constructor(
    heap: &crate::heap::Heap,
    v: Value,
    path: &mut Vec<crate::value::TableRef>,
    out: &mut String,
    work: &mut usize,
) -> VmResult<()> {
    use crate::limits::{MAX_PRINT_DEPTH, MAX_PRINT_JSON_BYTES};
    let tb = match v {
        Value::Str(s) => {
            out.push_str(&serde_json::to_string(&heap.str_lossy(s)).unwrap_or_default());
            return Ok(());
        }
        Value::Table(tb) => tb,
        _ => {
            out.push_str(&tostring_text(heap, v));
            return Ok(());
        }
    };
    if path.contains(&tb) {
        out.push_str("<cycle>");
        return Ok(());
    }
    if path.len() >= MAX_PRINT_DEPTH {
        out.push_str("{…}");
        return Ok(());
    }
    path.push(tb);
    out.push('{');
    let mut key = Value::Nil;
    let mut next_index = 1i64;
    let mut first = true;
    while out.len() <= MAX_PRINT_JSON_BYTES {
        let (entry, slots) = heap.table_next_counted(tb, key)?;
        *work += slots;
        let Some((k, val)) = entry else { break };
        key = k;
        if !first {
            out.push_str(", ");
        }
        first = false;
        match k {
            Value::Int(i) if i == next_index => next_index += 1,
            Value::Str(s) => {
                let name = heap.str_lossy(s);
                let ident = name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if ident {
                    out.push_str(&name);
                } else {
                    out.push('[');
                    out.push_str(&serde_json::to_string(&name).unwrap_or_default());
                    out.push(']');
                }
                out.push_str(" = ");
            }
            _ => {
                out.push('[');
                out.push_str(&tostring_text(heap, k));
                out.push_str("] = ");
            }
        }
        print_constructor(heap, val, path, out, work)?;
    }
    out.push('}');
    path.pop();
    Ok(())
}

fn print(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let mut line = String::new();
    let mut acc = 0usize;
    for i in 0..cx.nargs() {
        if i > 0 {
            line.push('\t');
        }
        let v = cx.arg(i);
        let text = match v {
            Value::Table(_) => print_table(cx, v)?,
            _ => tostring_text(cx.heap_ref(), v),
        };
        // Checked per argument: many arguments, or long strings, are long work.
        cx.work_bytes(&mut acc, text.len() + 16)?;
        cx.heap_ref().meter.mem.check(line.len() + text.len())?;
        line.push_str(&text);
    }
    cx.charge(1 + acc as u64 / 16)?;
    cx.heap().push_log(line)?;
    Ok(Rets::Zero)
}

/// `collectgarbage(opt, ...)`, with Lua 5.4's options, arguments and result types. The collector
/// is automatic (paced by allocation, bounded by the memory cap) and cannot be stopped or tuned:
/// - `"collect"` (the default) and `"step"`: a full collection runs as soon as this call returns
///   (charged about one fuel unit per 16 bytes held); `"collect"` returns 0, `"step"` true (a
///   cycle finished).
/// - `"count"`: the memory the execution holds, in KiB, as a float.
/// - `"isrunning"`: true. `"stop"` and `"restart"`: no effect, 0.
/// - `"setpause"` / `"setstepmul"`: no effect; Lua's defaults, 200 / 100.
/// - `"incremental"` / `"generational"`: no effect; `"incremental"`.
///
/// Errors as Lua's: `bad argument #1 to 'collectgarbage' (invalid option 'x')`, and a
/// non-integer where an option takes a number.
fn collectgarbage(cx: &mut Ctx<'_>) -> VmResult<Rets> {
    let opt = match cx.opt_str(0)? {
        Some(s) => String::from_utf8_lossy(cx.heap_ref().str_bytes(s)).into_owned(),
        None => "collect".to_string(),
    };
    // The integer arguments each option reads (checked as luaL_optinteger does).
    let int_args = match opt.as_str() {
        "step" | "setpause" | "setstepmul" => 1,
        "generational" => 2,
        "incremental" => 3,
        "collect" | "count" | "isrunning" | "stop" | "restart" => 0,
        _ => return Err(cx.arg_error(0, &format!("invalid option '{opt}'"))),
    };
    for i in 1..=int_args {
        cx.opt_int(i, 0)?;
    }
    let heap = cx.heap();
    Ok(Rets::One(match opt.as_str() {
        "collect" | "step" => {
            // Due at once: the VM collects right after this native returns (its next safe
            // point). A full collection's work is about the bytes held.
            let held = heap.meter.mem.used as u64;
            heap.meter.mem.debt = usize::MAX;
            cx.charge(1 + held / 16)?;
            if opt == "step" {
                Value::Bool(true)
            } else {
                Value::Int(0)
            }
        }
        "count" => Value::Float(heap.meter.mem.used as f64 / 1024.0),
        "isrunning" => Value::Bool(true),
        "setpause" => Value::Int(200),
        "setstepmul" => Value::Int(100),
        "incremental" | "generational" => return Ok(Rets::One(cx.new_str(b"incremental")?)),
        _ => Value::Int(0),
    }))
}
