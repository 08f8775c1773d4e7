//! Values → JSON where data crosses from the program to the host (the result). Export follows
//! `JSON.stringify`'s rules with the data boundary's additions: `undefined` and symbols →
//! absent in objects and `null` in arrays (and as the whole result), `-0` → `0`, NaN/±Infinity
//! → `null`, holes → `null`, Map/Set → `{}`, errors → `{ name, message, ...own fields }`;
//! functions, promises (a call not awaited), iterators and generator objects, symbol-keyed
//! properties, cycles and nesting past [`MAX_DATA_DEPTH`] are `InvalidDataValue` naming the
//! path. A tool call's or extension's input ([`export_call_input`]) refuses symbol values too,
//! where the result drops them. `toJSON` methods and getters run user code: when
//! [`try_export`] meets one, the machine first runs the prelude's `exportPrepare` on the
//! value in the dispatch loop (metered) and exports what it returns.

use codemode_guest::{ErrorKind, GuestError};
use serde_json::{Map, Number, Value as Json};

use crate::heap::{ENUMERABLE, Key, Kind, Slot};
use crate::limits::{EXPORT_NODE_BYTES, MAX_DATA_DEPTH, MAX_EXPORT_BYTES};
use crate::value::{ObjId, Value};
use crate::vm::Vm;

/// Where a value sits in an export (`result.items[3].name`), spelled out only for a
/// diagnostic: each level borrows its parent, so a walk allocates nothing for paths.
#[derive(Clone, Copy)]
enum Path<'a> {
    /// The root's name ("result", "input", "argument 2").
    Root(&'a str),
    /// Element `i` of the parent array.
    Index(&'a Path<'a>, usize),
    /// Property `name` of the parent object.
    Key(&'a Path<'a>, &'a str),
}

impl std::fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Iterative: the chain is as deep as the data (at most MAX_DATA_DEPTH).
        let mut chain = vec![self];
        while let Path::Index(up, _) | Path::Key(up, _) = chain[chain.len() - 1] {
            chain.push(up);
        }
        for p in chain.iter().rev() {
            match p {
                Path::Root(r) => f.write_str(r)?,
                Path::Index(_, i) => write!(f, "[{i}]")?,
                Path::Key(_, k) if is_plain_name(k) => write!(f, ".{k}")?,
                Path::Key(_, k) => write!(f, "[{}]", Json::String((*k).to_string()))?,
            }
        }
        Ok(())
    }
}

impl Path<'_> {
    /// The root's name.
    fn root(&self) -> &str {
        let mut p = self;
        loop {
            match p {
                Path::Root(r) => return r,
                Path::Index(up, _) | Path::Key(up, _) => p = up,
            }
        }
    }
}

fn invalid(path: &Path, what: &str) -> GuestError {
    let verb = if path.root() == "result" {
        "return"
    } else {
        "pass"
    };
    GuestError::new(
        ErrorKind::InvalidDataValue,
        format!(
            "{path} {what}; {verb} plain data (objects, arrays, strings, numbers, booleans, null)"
        ),
    )
}

/// An own enumerable property keyed by a symbol (which cannot cross to the host).
pub fn enumerable_symbol_key(vm: &Vm, o: ObjId) -> bool {
    vm.heap
        .obj(o)
        .props
        .list
        .iter()
        .any(|p| matches!(p.key, Key::Sym(_)) && p.attrs & ENUMERABLE != 0)
}

/// Why an export stopped.
enum Stop {
    /// What cannot cross (the diagnostic names the path), or a fatal error.
    Invalid(GuestError),
    /// A `toJSON` method or a getter: user code must run first.
    UserCode,
    /// Past the inline budget: the export runs again off the async thread.
    Slow,
}

impl From<GuestError> for Stop {
    fn from(e: GuestError) -> Stop {
        Stop::Invalid(e)
    }
}

/// One export's state: the objects on the path, and whether user code stops it.
struct Walk {
    stack: Vec<ObjId>,
    /// `Some(key of "toJSON")`: stop at a `toJSON` method or an own enumerable getter.
    stop_at_user_code: Option<Key>,
    /// A call's input: a symbol value is refused rather than dropped.
    input: bool,
    /// Bytes of the copy so far (JSON text plus one node per value), against
    /// [`MAX_EXPORT_BYTES`].
    bytes: usize,
    /// Bytes past which an inline export gives up ([`Stop::Slow`]); `usize::MAX` otherwise.
    inline_cap: usize,
}

impl Walk {
    /// Count `n` more bytes of the copy, and one value of work (the deadline and the fuel
    /// are checked every chunk of it): a value shared many times is copied each time, so the
    /// copy is bounded by bytes, not by the program's memory.
    fn count(&mut self, vm: &mut Vm, path: &Path, n: usize) -> Result<(), Stop> {
        self.bytes = self.bytes.saturating_add(n + EXPORT_NODE_BYTES);
        if self.bytes > self.inline_cap {
            return Err(Stop::Slow);
        }
        if self.bytes > MAX_EXPORT_BYTES {
            return Err(Stop::Invalid(GuestError::new(
                ErrorKind::InvalidDataValue,
                format!(
                    "{} is too large to cross to the host (more than {MAX_EXPORT_BYTES} bytes of data; an object that appears several times is copied each time); send less data or summarize it first",
                    path.root()
                ),
            )));
        }
        vm.work_check(1).map_err(|t| match t {
            crate::vm::Throw::Fatal(g) => Stop::Invalid(g),
            _ => Stop::Invalid(GuestError::new(
                ErrorKind::ExecutionFailure,
                "internal error: the export was interrupted",
            )),
        })
    }
}

/// Export `v` as the run's result (`what` names the root in messages: "result"), or
/// `Ok(None)` when an object in it has a callable `toJSON` (own or inherited) or an own
/// enumerable getter: the machine then runs the prelude's `exportPrepare` on `v` first and
/// exports its value with [`export`].
pub fn try_export(vm: &mut Vm, v: Value, what: &str) -> Result<Option<Json>, GuestError> {
    let to_json = vm.heap.key("toJSON");
    run(vm, v, what, Some(to_json), false)
}

/// Export `v` as the run's result, never stopping for user code: a getter that needs to
/// run is InvalidDataValue ("cannot be read"), and `toJSON` methods are not called.
pub fn export(vm: &mut Vm, v: Value, what: &str) -> Result<Json, GuestError> {
    Ok(run(vm, v, what, None, false)?.unwrap_or(Json::Null))
}

/// What became of a host call's input ([`export_call_input`]).
pub enum CallInput {
    /// Its JSON.
    Done(Json),
    /// It holds a `toJSON` method or an own enumerable getter: the call runs the prelude's
    /// `exportPrepare` on it first (a detour, [`crate::vm::Detour::Prepare`]) and exports
    /// the prepared copy, so an input crosses as `JSON.stringify` writes it (a `Date` as its
    /// ISO string, a `URL` as its href).
    UserCode,
    /// The run is inline and the input is large: the call runs again on the blocking pool.
    Slow,
    /// It cannot cross (InvalidDataValue naming the path), or the run's bounds ended it.
    Invalid(GuestError),
}

/// Export `v` as a host call's input (`what`: "input", "argument 2"), as [`export`] but a
/// symbol value anywhere in it is `InvalidDataValue` (the call would otherwise get a field
/// silently missing); `prepared`: `v` is `exportPrepare`'s copy (no user code is looked for).
/// Inline, an input past [`crate::limits::INLINE_MAX_ELEMENTS`] values is
/// [`CallInput::Slow`].
pub fn export_call_input(vm: &mut Vm, v: Value, what: &str, prepared: bool) -> CallInput {
    let to_json = (!prepared).then(|| vm.heap.key("toJSON"));
    let inline_cap = if vm.inline {
        crate::limits::INLINE_MAX_ELEMENTS * EXPORT_NODE_BYTES
    } else {
        usize::MAX
    };
    match walk(vm, v, what, to_json, true, inline_cap) {
        Ok(j) => CallInput::Done(j.unwrap_or(Json::Null)),
        Err(Stop::UserCode) => CallInput::UserCode,
        Err(Stop::Slow) => CallInput::Slow,
        Err(Stop::Invalid(e)) => CallInput::Invalid(e),
    }
}

fn run(
    vm: &mut Vm,
    v: Value,
    what: &str,
    stop_at_user_code: Option<Key>,
    input: bool,
) -> Result<Option<Json>, GuestError> {
    match walk(vm, v, what, stop_at_user_code, input, usize::MAX) {
        Ok(j) => Ok(Some(j.unwrap_or(Json::Null))),
        Err(Stop::UserCode) => Ok(None),
        Err(Stop::Invalid(e)) => Err(e),
        Err(Stop::Slow) => Err(GuestError::new(
            ErrorKind::ExecutionFailure,
            "internal error: an export with no inline budget gave up",
        )),
    }
}

fn walk(
    vm: &mut Vm,
    v: Value,
    what: &str,
    stop_at_user_code: Option<Key>,
    input: bool,
    inline_cap: usize,
) -> Result<Option<Json>, Stop> {
    // The path stack's buffer is kept from one export to the next (a tool call exports its
    // input each time).
    let mut stack = std::mem::take(&mut vm.export_stack);
    stack.clear();
    let mut w = Walk {
        stack,
        stop_at_user_code,
        input,
        bytes: 0,
        inline_cap,
    };
    let r = export_at(vm, v, &Path::Root(what), &mut w);
    w.stack.clear();
    vm.export_stack = w.stack;
    r
}

/// Whether `o` has a callable `toJSON`, own or inherited (an accessor counts: reading it runs
/// user code).
fn has_to_json(vm: &mut Vm, o: ObjId, key: Key) -> bool {
    match vm.lookup(Value::Obj(o), key).map(|p| p.slot) {
        Some(Slot::Accessor(..)) => true,
        Some(Slot::Data(Value::Obj(f))) => matches!(vm.heap.obj(f).kind, Kind::Function(_)),
        _ => false,
    }
}

fn number(n: f64) -> Json {
    if !n.is_finite() {
        return Json::Null;
    }
    if n == 0.0 {
        return Json::Number(0.into());
    }
    if n.fract() == 0.0 && n.abs() < 1e18 {
        return Json::Number((n as i64).into());
    }
    Number::from_f64(n).map_or(Json::Null, Json::Number)
}

fn export_at(vm: &mut Vm, v: Value, path: &Path, w: &mut Walk) -> Result<Option<Json>, Stop> {
    let text = match v {
        Value::Str(s) => vm.heap.str(s).len() + 2,
        _ => 8,
    };
    w.count(vm, path, text)?;
    Ok(Some(match v {
        Value::Undefined | Value::Empty => return Ok(None),
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::Num(n) => number(n),
        Value::Str(s) => {
            let (text, lone) = vm.heap.str(s).to_rust_lossy();
            if lone {
                vm.slip(format!(
                    "{path} holds a lone surrogate (half of a UTF-16 pair, as `s.slice` or `s[i]` can cut an emoji in two), which JSON text cannot carry: it crossed as U+FFFD. Cut strings by code points instead, e.g. `Array.from(s).slice(0, n).join(\"\")`."
                ));
            }
            Json::String(text)
        }
        Value::Sym(_) if w.input => {
            return Err(invalid(
                path,
                "is a symbol, which cannot cross to the host; pass a string instead",
            )
            .into());
        }
        // As JSON.stringify: dropped from objects, `null` in arrays.
        Value::Sym(_) => return Ok(None),
        Value::Obj(o) => {
            if w.stack.contains(&o) {
                return Err(invalid(path, "contains a circular value").into());
            }
            if w.stack.len() >= MAX_DATA_DEPTH {
                return Err(
                    invalid(path, &format!("nests deeper than {MAX_DATA_DEPTH} levels")).into(),
                );
            }
            if let Some(key) = w.stop_at_user_code
                && has_to_json(vm, o, key)
            {
                return Err(Stop::UserCode);
            }
            w.stack.push(o);
            let r = export_obj(vm, o, path, w);
            w.stack.pop();
            r?
        }
    }))
}

/// The JSON name of the string key `k` of the object at `path` (`None` for a symbol), with
/// the LikelyMistake warning when it holds a lone surrogate JSON text cannot carry.
fn key_name(vm: &mut Vm, k: Key, path: &Path) -> Option<String> {
    let (name, lone) = vm.heap.key_str(k)?.to_rust_lossy();
    if lone {
        vm.slip(format!(
            "{path} has a key holding a lone surrogate (half of a UTF-16 pair), which JSON text cannot carry: it crossed as U+FFFD. Build keys from whole characters."
        ));
    }
    Some(name)
}

fn export_obj(vm: &mut Vm, o: ObjId, path: &Path, w: &mut Walk) -> Result<Json, Stop> {
    let fatal = |e: crate::vm::Throw| match e {
        crate::vm::Throw::Fatal(g) => g,
        _ => invalid(path, "cannot be read"),
    };
    let obj = vm.heap.obj(o);
    match &obj.kind {
        Kind::Function(_) => {
            Err(invalid(path, "is a function, which cannot cross to the host").into())
        }
        Kind::Promise(_) => Err(invalid(
            path,
            "is a promise (a call that was not awaited), which cannot cross to the host; write `await` before the call, or `await Promise.all([...])` for several",
        )
        .into()),
        Kind::Iterator(_) | Kind::Coro(_) => Err(invalid(
            path,
            "is an iterator, which cannot cross to the host; collect it into an array first with `[...it]` or `Array.from(it)`",
        )
        .into()),
        Kind::Array(items) => {
            let len = items.len();
            if len > crate::limits::MAX_STRING_LENGTH {
                return Err(invalid(
                    path,
                    &format!(
                        "is an array of length {len}, longer than a result can hold; return fewer elements"
                    ),
                )
                .into());
            }
            let mut out = Vec::with_capacity(len.min(1 << 16));
            for i in 0..len {
                // (No user code runs during the walk: the array cannot change under it.)
                let x = match &vm.heap.obj(o).kind {
                    Kind::Array(items) => items.get(i).unwrap_or(Value::Empty),
                    _ => Value::Empty,
                };
                out.push(export_at(vm, x, &Path::Index(path, i), w)?.unwrap_or(Json::Null));
            }
            Ok(Json::Array(out))
        }
        Kind::Number(n) => Ok(number(*n)),
        Kind::Boolean(b) => Ok(Json::Bool(*b)),
        Kind::String(s) => Ok(Json::String(vm.heap.str(*s).to_rust())),
        Kind::Map(_) | Kind::Set(_) => Ok(Json::Object(Map::new())),
        Kind::Ordinary
            if obj.props.list.iter().all(|p| {
                matches!(p.key, Key::Name(_))
                    && matches!(p.slot, Slot::Data(_))
                    && p.attrs & ENUMERABLE != 0
            }) && !crate::builtins::is_error(vm, o) =>
        {
            // The common shape (a literal or imported record): every own property a named,
            // enumerable data property, already in insertion order.
            let mut m = Map::new();
            for i in 0..obj.props.list.len() {
                let p = &vm.heap.obj(o).props.list[i];
                let (k, Slot::Data(v)) = (p.key, &p.slot) else {
                    continue;
                };
                let v = *v;
                let Some(name) = key_name(vm, k, path) else {
                    continue;
                };
                if name == "__proto__" {
                    continue;
                }
                if let Some(j) = export_at(vm, v, &Path::Key(path, &name), w)? {
                    m.insert(name, j);
                }
            }
            Ok(Json::Object(m))
        }
        kind => {
            let error_kind = matches!(kind, Kind::Error);
            if enumerable_symbol_key(vm, o) {
                return Err(invalid(
                    path,
                    "has a symbol-keyed property, which cannot cross to the host; use a string key",
                )
                .into());
            }
            let mut m = Map::new();
            if error_kind || crate::builtins::is_error(vm, o) {
                for name in ["name", "message"] {
                    let v = vm.get_simple(Value::Obj(o), name).map_err(fatal)?;
                    let s = vm.to_rust_string(v).map_err(fatal)?;
                    m.insert(name.to_string(), Json::String(s));
                }
            }
            let keys = crate::builtins::own_keys(vm, o, true);
            for k in keys {
                let Some(name) = key_name(vm, k, path) else {
                    continue;
                };
                if name == "__proto__" {
                    continue;
                }
                let slot = vm.own(o, k).map(|p| p.slot);
                let v = match slot {
                    Some(Slot::Data(v)) => v,
                    Some(Slot::Accessor(..)) if w.stop_at_user_code.is_some() => {
                        return Err(Stop::UserCode);
                    }
                    Some(Slot::Accessor(..)) => vm.get_value(Value::Obj(o), k).map_err(fatal)?,
                    None => continue,
                };
                if let Some(j) = export_at(vm, v, &Path::Key(path, &name), w)? {
                    m.insert(name, j);
                }
            }
            Ok(Json::Object(m))
        }
    }
}

fn is_plain_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_' || f == '$')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_' || x == '$')
}

/// JSON from the host (a tool's output, a host error's data) → fresh program data: objects
/// with own enumerable data properties in the JSON's key order, arrays, strings, numbers,
/// booleans and `null`. Iterative (a work list, no recursion); every allocation is charged.
pub fn import(vm: &mut Vm, v: &Json) -> crate::vm::Res<Value> {
    match v {
        Json::Null => return Ok(Value::Null),
        Json::Bool(b) => return Ok(Value::Bool(*b)),
        Json::Number(n) => return Ok(Value::Num(n.as_f64().unwrap_or(f64::NAN))),
        _ => {}
    }
    enum Slot2 {
        Arr(ObjId, u32),
        Prop(ObjId, Key),
        Root,
    }
    let mut root = Value::Undefined;
    let mut work: Vec<(&Json, Slot2)> = vec![(v, Slot2::Root)];
    while let Some((j, at)) = work.pop() {
        vm.work(1);
        let x = match j {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Num(n.as_f64().unwrap_or(f64::NAN)),
            Json::String(s) => vm.str_val(s)?,
            Json::Array(items) => {
                let a = vm.new_array(vec![Value::Undefined; items.len()])?;
                let Value::Obj(o) = a else {
                    unreachable!("an array")
                };
                for (i, item) in items.iter().enumerate().rev() {
                    work.push((item, Slot2::Arr(o, i as u32)));
                }
                a
            }
            Json::Object(m) => {
                let o = vm.new_object()?;
                let mut keyed = Vec::with_capacity(m.len());
                for (k, item) in m {
                    let key = vm.heap.key_of(&crate::string::JsStr::from_str(k))?;
                    vm.define(
                        o,
                        key,
                        crate::heap::Slot::Data(Value::Undefined),
                        crate::heap::DEFAULT_ATTRS,
                    )?;
                    keyed.push((item, Slot2::Prop(o, key)));
                }
                work.extend(keyed.into_iter().rev());
                Value::Obj(o)
            }
        };
        match at {
            Slot2::Root => root = x,
            Slot2::Arr(o, i) => vm.array_set_element(o, i, x)?,
            Slot2::Prop(o, k) => {
                if let Some(i) = vm.heap.obj(o).props.find(k) {
                    vm.heap.obj_mut(o).props.list[i].slot = crate::heap::Slot::Data(x);
                }
            }
        }
    }
    Ok(root)
}

/// `true` when `v` holds at most `limit` values (elements, properties, nested) and no string
/// longer than `limit` units: cheap to export. An iterative walk that stops at the limit.
pub fn is_small(vm: &Vm, v: Value, limit: usize) -> bool {
    let mut left = limit;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        let Some(l) = left.checked_sub(1) else {
            return false;
        };
        left = l;
        match v {
            Value::Str(s) if vm.heap.str(s).len() > limit => return false,
            Value::Obj(o) => {
                let obj = vm.heap.obj(o);
                if obj.props.list.len() > left {
                    return false;
                }
                for p in &obj.props.list {
                    if let crate::heap::Slot::Data(x) = p.slot {
                        stack.push(x);
                    }
                }
                if let Kind::Array(e) = &obj.kind {
                    if e.len() > left {
                        return false;
                    }
                    stack.extend(e.iter().map(|(_, x)| x));
                }
            }
            _ => {}
        }
    }
    true
}
