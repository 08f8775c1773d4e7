//! Values → JSON where data crosses from the program to the host (the result). Export follows `JSON.stringify`'s rules with
//! the data boundary's additions: `undefined` → absent in objects and `null` in arrays (and as
//! the whole result), `-0` → `0`, NaN/±Infinity → `null`, holes → `null`, Map/Set → `{}`;
//! functions, symbols, cycles and nesting past [`MAX_DATA_DEPTH`] are `InvalidDataValue`
//! naming the path.

use codemode_guest::{ErrorKind, GuestError};
use serde_json::{Map, Number, Value as Json};

use crate::heap::{Key, Kind, Slot};
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
        Value::Sym(_) => return Err(invalid(path, "is a symbol, which cannot cross to the host")),
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
