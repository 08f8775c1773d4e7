//! Values → JSON where data crosses from the program to the host (the result). Export follows
//! `JSON.stringify`'s rules with the data boundary's additions: `undefined` and symbols →
//! absent in objects and `null` in arrays (and as the whole result), `-0` → `0`, NaN/±Infinity
//! → `null`, holes → `null`, Map/Set → `{}`, errors → `{ name, message, ...own fields }`;
//! functions, symbol-keyed properties, cycles and nesting past [`MAX_DATA_DEPTH`] are
//! `InvalidDataValue` naming the path. `toJSON` methods and getters run user code: when
//! [`runs_user_code`] finds one, the machine first runs the prelude's `exportPrepare` on the
//! value in the dispatch loop (metered) and exports what it returns.

use std::collections::HashSet;

use codemode_guest::{ErrorKind, GuestError};
use serde_json::{Map, Number, Value as Json};

use crate::heap::{ENUMERABLE, Key, Kind, Slot};
use crate::limits::MAX_DATA_DEPTH;
use crate::value::{ObjId, Value};
use crate::vm::Vm;

fn invalid(path: &str, what: &str) -> GuestError {
    GuestError::new(
        ErrorKind::InvalidDataValue,
        format!(
            "{path} {what}; return plain data (objects, arrays, strings, numbers, booleans, null)"
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

/// Whether exporting `v` would run user code: an object reachable from it (within
/// [`MAX_DATA_DEPTH`]) has a callable `toJSON` (own or inherited; an accessor counts) or an
/// own enumerable getter. Then the prelude's `exportPrepare` applies them first, in the
/// dispatch loop. A walk over the graph with a visited mark, no recursion.
pub fn runs_user_code(vm: &mut Vm, v: Value) -> bool {
    let Value::Obj(root) = v else {
        return false;
    };
    let to_json = vm.heap.key("toJSON");
    let mut seen: HashSet<ObjId> = HashSet::new();
    let mut work: Vec<(ObjId, usize)> = vec![(root, 0)];
    while let Some((o, depth)) = work.pop() {
        if depth > MAX_DATA_DEPTH || !seen.insert(o) {
            continue;
        }
        vm.work(1);
        match vm.lookup(Value::Obj(o), to_json).map(|p| p.slot) {
            Some(Slot::Accessor(..)) => return true,
            Some(Slot::Data(Value::Obj(f))) if matches!(vm.heap.obj(f).kind, Kind::Function(_)) => {
                return true;
            }
            _ => {}
        }
        let obj = vm.heap.obj(o);
        if matches!(obj.kind, Kind::Function(_)) {
            continue;
        }
        for p in &obj.props.list {
            match p.slot {
                Slot::Accessor(..) if p.attrs & ENUMERABLE != 0 => return true,
                Slot::Data(Value::Obj(c)) => work.push((c, depth + 1)),
                _ => {}
            }
        }
        if let Kind::Array(items) = &obj.kind {
            work.extend(items.iter().filter_map(|(_, x)| match x {
                Value::Obj(c) => Some((c, depth + 1)),
                _ => None,
            }));
        }
    }
    false
}

/// Export `v` as the run's result (`what` names the root in messages: "result").
pub fn export(vm: &mut Vm, v: Value, what: &str) -> Result<Json, GuestError> {
    let mut stack: Vec<ObjId> = Vec::new();
    match export_at(vm, v, what, &mut stack)? {
        Some(j) => Ok(j),
        None => Ok(Json::Null),
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

fn export_at(
    vm: &mut Vm,
    v: Value,
    path: &str,
    stack: &mut Vec<ObjId>,
) -> Result<Option<Json>, GuestError> {
    vm.work(1);
    Ok(Some(match v {
        Value::Undefined | Value::Empty => return Ok(None),
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(b),
        Value::Num(n) => number(n),
        Value::Str(s) => Json::String(vm.heap.str(s).to_rust()),
        // As JSON.stringify: dropped from objects, `null` in arrays.
        Value::Sym(_) => return Ok(None),
        Value::Obj(o) => {
            if stack.contains(&o) {
                return Err(invalid(path, "contains a circular value"));
            }
            if stack.len() >= MAX_DATA_DEPTH {
                return Err(invalid(
                    path,
                    &format!("nests deeper than {MAX_DATA_DEPTH} levels"),
                ));
            }
            stack.push(o);
            let r = export_obj(vm, o, path, stack);
            stack.pop();
            r?
        }
    }))
}

fn export_obj(
    vm: &mut Vm,
    o: ObjId,
    path: &str,
    stack: &mut Vec<ObjId>,
) -> Result<Json, GuestError> {
    let fatal = |e: crate::vm::Throw| match e {
        crate::vm::Throw::Fatal(g) => g,
        _ => invalid(path, "cannot be read"),
    };
    match vm.heap.obj(o).kind.clone() {
        Kind::Function(_) => Err(invalid(
            path,
            "is a function, which cannot cross to the host",
        )),
        Kind::Array(items) => {
            if items.len() > crate::limits::MAX_STRING_LENGTH {
                return Err(invalid(
                    path,
                    &format!(
                        "is an array of length {}, longer than a result can hold; return fewer elements",
                        items.len()
                    ),
                ));
            }
            let mut out = Vec::with_capacity(items.len().min(1 << 16));
            for i in 0..items.len() {
                let x = items.get(i).unwrap_or(Value::Empty);
                let p = format!("{path}[{i}]");
                out.push(export_at(vm, x, &p, stack)?.unwrap_or(Json::Null));
            }
            Ok(Json::Array(out))
        }
        Kind::Number(n) => Ok(number(n)),
        Kind::Boolean(b) => Ok(Json::Bool(b)),
        Kind::String(s) => Ok(Json::String(vm.heap.str(s).to_rust())),
        Kind::Map(_) | Kind::Set(_) | Kind::Iterator(_) => Ok(Json::Object(Map::new())),
        kind => {
            if enumerable_symbol_key(vm, o) {
                return Err(invalid(
                    path,
                    "has a symbol-keyed property, which cannot cross to the host; use a string key",
                ));
            }
            let mut m = Map::new();
            if matches!(kind, Kind::Error) || crate::builtins::is_error(vm, o) {
                for name in ["name", "message"] {
                    let v = vm.get_simple(Value::Obj(o), name).map_err(fatal)?;
                    let s = vm.to_rust_string(v).map_err(fatal)?;
                    m.insert(name.to_string(), Json::String(s));
                }
            }
            let keys = crate::builtins::own_keys(vm, o, true);
            for k in keys {
                let Some(ks) = vm.heap.key_str(k) else {
                    continue;
                };
                let name = ks.to_rust();
                if name == "__proto__" {
                    continue;
                }
                let slot = vm.own(o, k).map(|p| p.slot);
                let v = match slot {
                    Some(Slot::Data(v)) => v,
                    Some(Slot::Accessor(..)) => vm.get_value(Value::Obj(o), k).map_err(fatal)?,
                    None => continue,
                };
                let p = if matches!(k, Key::Index(_)) || !is_plain_name(&name) {
                    format!("{path}[{}]", serde_json::Value::String(name.clone()))
                } else {
                    format!("{path}.{name}")
                };
                if let Some(j) = export_at(vm, v, &p, stack)? {
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
