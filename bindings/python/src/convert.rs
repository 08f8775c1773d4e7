//! JSON values across the edge: [`to_py`] (a `serde_json::Value` as fresh Python data) and
//! [`from_py`] (Python data as a `Value`, or a message saying what is not JSON data and where).
//!
//! Both walks are bounded by [`MAX_DEPTH`] (the data depth every guest keeps,
//! `codemode_guest::MAX_DATA_DEPTH`), so a deeply nested or cyclic Python value fails with a
//! message instead of recursing without bound.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Deepest nesting of arrays and objects converted in either direction (levels below the top
/// value). Programs cannot hold deeper data, so a tool output past it could not cross anyway.
pub const MAX_DEPTH: usize = codemode::limits::MAX_TOOL_OUTPUT_DEPTH;

/// `value` as Python data: objects become `dict`s (key order kept), arrays `list`s, integers
/// `int`s, other numbers `float`s.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    to_py_at(py, value, 0)
}

fn to_py_at<'py>(py: Python<'py>, value: &Value, depth: usize) -> PyResult<Bound<'py, PyAny>> {
    if depth > MAX_DEPTH + 1 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "value nested deeper than {MAX_DEPTH} levels"
        )));
    }
    Ok(match value {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                PyFloat::new(py, n.as_f64().unwrap_or(f64::NAN)).into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let list = PyList::empty(py);
            for item in items {
                list.append(to_py_at(py, item, depth + 1)?)?;
            }
            list.into_any()
        }
        Value::Object(map) => {
            let dict = PyDict::new(py);
            for (k, v) in map {
                dict.set_item(k, to_py_at(py, v, depth + 1)?)?;
            }
            dict.into_any()
        }
    })
}

/// Python data as JSON: `dict` with `str` keys, `list`, `tuple`, `str`, `int` (within 64 bits),
/// finite `float`, `bool`, `None`, and pydantic models (through `model_dump(mode="json")`).
/// Errors: what is not JSON data and where (`$.items[2]: a set is not JSON data ...`).
pub fn from_py(obj: &Bound<'_, PyAny>) -> Result<Value, String> {
    let mut path = String::from("$");
    from_py_at(obj, 0, &mut path)
}

fn from_py_at(obj: &Bound<'_, PyAny>, depth: usize, path: &mut String) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!(
            "{path}: nested deeper than {MAX_DEPTH} levels (or a value that contains itself); return flatter data"
        ));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    // bool before int: `True` is an `int` too.
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if let Ok(i) = obj.cast::<PyInt>() {
        if let Ok(v) = i.extract::<i64>() {
            return Ok(Value::from(v));
        }
        if let Ok(v) = i.extract::<u64>() {
            return Ok(Value::from(v));
        }
        return Err(format!(
            "{path}: the integer {} does not fit in 64 bits; return it as a string",
            i.str().map(|s| s.to_string()).unwrap_or_default()
        ));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return Number::from_f64(v).map(Value::Number).ok_or_else(|| {
            format!("{path}: {v} is not a JSON number; return a finite number or null")
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_str()
            .map(|s| Value::String(s.to_owned()))
            .map_err(|_| format!("{path}: the string is not valid UTF-8 (lone surrogate)"));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::with_capacity(d.len());
        for (k, v) in d.iter() {
            let Ok(key) = k.cast::<PyString>() else {
                return Err(format!(
                    "{path}: the key {} (of type {}) is not a string; JSON object keys are strings",
                    repr(&k),
                    type_name(&k)
                ));
            };
            let key = key
                .to_str()
                .map_err(|_| format!("{path}: a key is not valid UTF-8 (lone surrogate)"))?
                .to_owned();
            let len = path.len();
            path.push('.');
            path.push_str(&key);
            let value = from_py_at(&v, depth + 1, path)?;
            path.truncate(len);
            map.insert(key, value);
        }
        return Ok(Value::Object(map));
    }
    let items = if let Ok(l) = obj.cast::<PyList>() {
        Some(l.iter().collect::<Vec<_>>())
    } else if let Ok(t) = obj.cast::<PyTuple>() {
        Some(t.iter().collect::<Vec<_>>())
    } else {
        None
    };
    if let Some(items) = items {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            out.push(from_py_at(item, depth + 1, path)?);
            path.truncate(len);
        }
        return Ok(Value::Array(out));
    }
    // pydantic models: their JSON form.
    if let Ok(dump) = obj.getattr("model_dump") {
        let kwargs = PyDict::new(obj.py());
        kwargs
            .set_item("mode", "json")
            .map_err(|e| format!("{path}: {e}"))?;
        let dumped = dump
            .call((), Some(&kwargs))
            .map_err(|e| format!("{path}: model_dump() failed: {e}"))?;
        return from_py_at(&dumped, depth, path);
    }
    Err(format!(
        "{path}: a value of type {} is not JSON data; return dicts, lists, strings, numbers, booleans or None",
        type_name(obj)
    ))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "value".into())
}

fn repr(obj: &Bound<'_, PyAny>) -> String {
    let r = obj.repr().map(|s| s.to_string()).unwrap_or_default();
    if r.chars().count() > 40 {
        let cut: String = r.chars().take(37).collect();
        format!("{cut}...")
    } else {
        r
    }
}
