//! The data boundary: Lua values ↔ JSON ([`serde_json::Value`]), copies only, in both directions.
//!
//! Rules:
//! - `nil` → `null` at the top level (a table cannot hold nil, so "nil removes a field");
//!   booleans and strings as themselves; integers stay integers, floats stay floats (`3.0` is
//!   sent as the JSON float `3.0`); NaN and ±inf → `null`; `json.null` ↔ `null`.
//! - A table whose keys are exactly the integers `1..n` → array; a table whose keys are all
//!   strings → object, **keys sorted bytewise** (Lua tables have no meaningful order; sorting keeps
//!   results deterministic); an empty table → `{}` unless its shape flag says Array
//!   (`json.array()`, or an array that came from JSON), then `[]`.
//! - Cannot cross (error kind `InvalidDataValue`, naming the path inside the value, e.g.
//!   `result.items[3]` with Lua's 1-based indexes): mixed integer/string keys, sparse integer
//!   keys, other key types, cycles, nesting deeper than [`MAX_DEPTH`], functions and tool
//!   namespaces, strings that are not valid UTF-8, and values over [`MAX_EXPORT_BYTES`] of JSON.
//! - JSON → Lua: arrays and objects become fresh tables with their shape flag set (an empty
//!   array stays an array when sent back); `null` inside arrays → `json.null` (positions are
//!   kept); an object field whose value is `null` is left out (reads as `nil`, so `if r.next then`
//!   works); a top-level `null` → `nil` (see [`import`]); integers that fit in i64 → integers,
//!   other numbers → floats.
//!
//! Both directions recurse at most [`MAX_DEPTH`] levels and report the work done (one unit per
//! value plus one per 64 string bytes) through a counter the caller charges as fuel.

use serde_json::{Map, Number as JsonNumber, Value as Json};

use crate::ErrorKind;
use crate::heap::{DEADLINE_CHECK_WORK, Heap};
use crate::table::Shape;
use crate::value::{StrRef, TableRef, Throw, Value, VmResult};

/// Deepest nesting of arrays/objects accepted anywhere JSON data crosses into or out of Lua
/// (`json.decode`, `json.encode`, tool input/output). Equal to serde_json's own parser limit, so
/// whatever we produce can be read back by any serde_json consumer.
pub const MAX_DEPTH: usize = codemode_guest::MAX_DATA_DEPTH;

/// Upper bound on the size of one exported value: its JSON text plus [`EXPORT_NODE_BYTES`] per
/// value (the in-memory copy handed to the host), approximately. Shared sub-tables are copied
/// each time they appear, so a small Lua value can stand for a huge copy; this bound keeps the
/// copy (which is outside the execution's memory accounting) small.
pub const MAX_EXPORT_BYTES: usize = 64 * 1024 * 1024;

/// Bytes charged against [`MAX_EXPORT_BYTES`] per exported value besides its JSON text: the
/// size of one `serde_json::Value`.
pub const EXPORT_NODE_BYTES: usize = std::mem::size_of::<Json>();

#[derive(Clone, Copy)]
enum Seg {
    Index(i64),
    Field(StrRef),
}

fn invalid(msg: String) -> Throw {
    Throw::with_kind(ErrorKind::InvalidDataValue, msg)
}

struct Exporter<'h> {
    heap: &'h Heap,
    root: &'h str,
    path: Vec<Seg>,
    /// Tables being visited (ancestors of the current value), with the path length at each.
    visiting: Vec<(TableRef, usize)>,
    work: u64,
    bytes: usize,
    /// Bytes already exported by earlier arguments of the same call (see [`export_counted`]).
    earlier: usize,
}

fn is_ident(b: &[u8]) -> bool {
    !b.is_empty()
        && (b[0].is_ascii_alphabetic() || b[0] == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

impl<'h> Exporter<'h> {
    fn path_str(&self, upto: usize) -> String {
        let mut s = self.root.to_string();
        for seg in &self.path[..upto] {
            match *seg {
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
                Seg::Field(k) => {
                    let b = self.heap.str_bytes(k);
                    if is_ident(b) {
                        s.push('.');
                        s.push_str(&String::from_utf8_lossy(b));
                    } else {
                        let text = String::from_utf8_lossy(b);
                        s.push('[');
                        s.push_str(&serde_json::to_string(&text).unwrap_or_default());
                        s.push(']');
                    }
                }
            }
        }
        s
    }

    fn here(&self) -> String {
        self.path_str(self.path.len())
    }

    fn add_bytes(&mut self, n: usize) -> VmResult<()> {
        self.bytes = self.bytes.saturating_add(n);
        let before = self.work;
        self.work += 1 + (n as u64) / 64;
        if before / DEADLINE_CHECK_WORK != self.work / DEADLINE_CHECK_WORK {
            self.heap.check_deadline()?;
        }
        if self.bytes.saturating_add(self.earlier) > MAX_EXPORT_BYTES {
            let together = if self.earlier > 0 {
                " together with the arguments before it"
            } else {
                ""
            };
            return Err(invalid(format!(
                "{}{} is too large to cross to the host (more than {} bytes of data; a table that \
                 appears several times is copied each time); send less data or summarize it first",
                self.root, together, MAX_EXPORT_BYTES
            )));
        }
        Ok(())
    }

    fn string(&mut self, s: StrRef) -> VmResult<String> {
        let b = self.heap.str_bytes(s);
        if b.len() > crate::limits::WORK_CHUNK_BYTES && self.heap.meter.restartable {
            // Validating and copying a long string is one unchecked step: not in an inline
            // stretch (the export is restarted off the caller's thread; nothing has changed).
            return Err(Throw::Restart);
        }
        self.add_bytes(b.len() + 2)?;
        match std::str::from_utf8(b) {
            Ok(t) => Ok(t.to_string()),
            Err(e) => Err(invalid(format!(
                "{} is not valid UTF-8 text (invalid byte at position {}); only text can cross to \
                 the host: encode binary data first (e.g. as hex with string.format('%02x', b))",
                self.here(),
                e.valid_up_to() + 1
            ))),
        }
    }

    fn value(&mut self, v: Value) -> VmResult<Json> {
        self.add_bytes(EXPORT_NODE_BYTES)?;
        Ok(match v {
            Value::Nil | Value::JsonNull => {
                self.add_bytes(4)?;
                Json::Null
            }
            Value::Bool(b) => {
                self.add_bytes(5)?;
                Json::Bool(b)
            }
            Value::Int(i) => {
                self.add_bytes(20)?;
                Json::Number(i.into())
            }
            Value::Float(f) => {
                self.add_bytes(24)?;
                JsonNumber::from_f64(f).map_or(Json::Null, Json::Number)
            }
            Value::Str(s) => Json::String(self.string(s)?),
            Value::Table(t) => self.table(t)?,
            Value::Closure(_) | Value::Native(_) | Value::HostFn(_) => {
                return Err(invalid(format!(
                    "{} is a function; functions cannot cross to the host. Pass data only \
                     (strings, numbers, booleans, json.null and tables of them)",
                    self.here()
                )));
            }
            Value::HostNs(_) => {
                return Err(invalid(format!(
                    "{} is a tools namespace, which cannot cross to the host. Pass data only \
                     (strings, numbers, booleans, json.null and tables of them)",
                    self.here()
                )));
            }
        })
    }

    fn table(&mut self, t: TableRef) -> VmResult<Json> {
        if let Some(&(_, at)) = self.visiting.iter().find(|(r, _)| *r == t) {
            return Err(invalid(format!(
                "{} refers back to {} (a cycle); JSON data cannot contain cycles: build a new \
                 table with just the fields you need",
                self.here(),
                self.path_str(at)
            )));
        }
        if self.visiting.len() >= MAX_DEPTH {
            return Err(invalid(format!(
                "{} nests deeper than {} levels; flatten the data before sending it",
                self.here(),
                MAX_DEPTH
            )));
        }
        let heap = self.heap;
        let tab = heap.table(t);
        // Classify keys.
        let mut n_int = 0usize;
        let mut max_int: i64 = 0;
        let mut min_int: i64 = i64::MAX;
        let mut strs: Vec<(StrRef, Value)> = Vec::new();
        let mut first_int: Option<i64> = None;
        for (i, v) in tab.arr.iter().enumerate() {
            if !v.is_nil() {
                let k = i as i64 + 1;
                n_int += 1;
                max_int = max_int.max(k);
                min_int = min_int.min(k);
                first_int.get_or_insert(k);
            }
        }
        for (k, v) in tab.hash_entries() {
            match k {
                Value::Int(k) => {
                    n_int += 1;
                    max_int = max_int.max(k);
                    min_int = min_int.min(k);
                    first_int.get_or_insert(k);
                }
                Value::Str(s) => strs.push((s, v)),
                other => {
                    let shown = match other {
                        Value::Float(f) => {
                            crate::number::number_to_string(crate::number::Number::Float(f))
                        }
                        Value::Bool(b) => b.to_string(),
                        _ => other.type_name().to_string(),
                    };
                    return Err(invalid(format!(
                        "{} has a key of type {} ({}); only string keys (objects) or keys 1..n \
                         (arrays) can cross to the host",
                        self.here(),
                        other.type_name(),
                        shown
                    )));
                }
            }
        }
        self.add_bytes(2)?;
        self.visiting.push((t, self.path.len()));
        let result = if n_int > 0 && !strs.is_empty() {
            let (s, _) = strs[0];
            let key = String::from_utf8_lossy(heap.str_bytes(s)).into_owned();
            Err(invalid(format!(
                "{} mixes array items (integer keys, e.g. [{}]) and object fields (string keys, \
                 e.g. {:?}); use either a list {{a, b}} or a record {{k = v}}, e.g. put the list \
                 in a field",
                self.here(),
                first_int.unwrap_or(1),
                key
            )))
        } else if n_int > 0 {
            if min_int < 1 {
                // Key 0 (or a negative key) is the problem itself, whatever else is present.
                Err(invalid(format!(
                    "{} is not a list 1..n: it has key [{}], and Lua arrays start at 1; store \
                     the items at 1..n (t[i + 1] = v for a 0-based i), or use string keys for a \
                     record",
                    self.here(),
                    min_int
                )))
            } else if max_int as u64 != n_int as u64 {
                let missing = (1..=n_int as i64)
                    .find(|&i| tab.get_int(i).is_nil())
                    .unwrap_or(1);
                Err(invalid(format!(
                    "{} is not a list 1..n: it has key [{}] but [{}] is nil; arrays cannot have \
                     holes: fill them with json.null, or use string keys for a record",
                    self.here(),
                    max_int,
                    missing
                )))
            } else {
                let mut items = Vec::with_capacity(n_int);
                let mut res = Ok(());
                for i in 1..=n_int as i64 {
                    self.path.push(Seg::Index(i));
                    let r = self.value(tab.get_int(i));
                    self.path.pop();
                    match r {
                        Ok(j) => {
                            self.add_bytes(1)?;
                            items.push(j)
                        }
                        Err(e) => {
                            res = Err(e);
                            break;
                        }
                    }
                }
                res.map(|_| Json::Array(items))
            }
        } else if strs.is_empty() {
            Ok(if tab.shape == Shape::Array {
                Json::Array(Vec::new())
            } else {
                Json::Object(Map::new())
            })
        } else {
            strs.sort_by(|a, b| heap.str_bytes(a.0).cmp(heap.str_bytes(b.0)));
            let mut map = Map::with_capacity(strs.len());
            let mut res = Ok(());
            for (k, v) in strs {
                self.path.push(Seg::Field(k));
                let r = self.string(k).and_then(|key| {
                    self.add_bytes(2)?;
                    Ok((key, self.value(v)?))
                });
                self.path.pop();
                match r {
                    Ok((key, j)) => {
                        map.insert(key, j);
                    }
                    Err(e) => {
                        res = Err(e);
                        break;
                    }
                }
            }
            res.map(|_| Json::Object(map))
        };
        self.visiting.pop();
        result
    }
}

/// Export a Lua value to JSON under the data rules. `root` names the value in error paths
/// (`"result"`, `"input"`, `"json.encode argument"`). `work` is increased by the work done (one
/// unit per value, one per 64 bytes of strings) for the caller to charge as fuel.
/// Errors: `InvalidDataValue` (catchable) with the path and a hint.
pub(crate) fn export(heap: &Heap, v: Value, root: &str, work: &mut u64) -> VmResult<Json> {
    export_counted(heap, v, root, work, &mut 0)
}

/// [`export`] for one of several values that cross together (the arguments of one host call):
/// `used` holds the bytes the earlier ones took and is increased by this one's, and all of them
/// together stay under [`MAX_EXPORT_BYTES`], so passing a large table many times copies it at
/// most that much (issue 10).
pub(crate) fn export_counted(
    heap: &Heap,
    v: Value,
    root: &str,
    work: &mut u64,
    used: &mut usize,
) -> VmResult<Json> {
    let mut e = Exporter {
        heap,
        root,
        path: Vec::new(),
        visiting: Vec::new(),
        work: 0,
        bytes: 0,
        earlier: *used,
    };
    let r = e.value(v);
    *work += e.work;
    *used = used.saturating_add(e.bytes);
    r
}

/// Import JSON as fresh Lua data. A top-level `null` becomes `nil` (a tool that returns null or
/// nothing gives `nil`); nulls inside arrays become `json.null` so arrays keep their positions;
/// object fields whose value is `null` are left out (they read as `nil`). Arrays/objects get [`Shape::Array`]/[`Shape::Object`]. Errors:
/// `InvalidDataValue` when the value nests deeper than [`MAX_DEPTH`]; memory limit errors.
pub(crate) fn import(heap: &mut Heap, v: &Json, work: &mut u64) -> VmResult<Value> {
    import_from(heap, v, work, false)
}

/// [`import`] of a host reply (`tool`: the names of `null` fields are remembered for the hint
/// "field 'email' was null in the tool's result", see `Heap::note_null_fields`).
pub(crate) fn import_from(
    heap: &mut Heap,
    v: &Json,
    work: &mut u64,
    tool: bool,
) -> VmResult<Value> {
    if v.is_null() {
        *work += 1;
        return Ok(Value::Nil);
    }
    import_value(heap, v, 0, work, tool)
}

fn import_value(
    heap: &mut Heap,
    v: &Json,
    depth: usize,
    work: &mut u64,
    tool: bool,
) -> VmResult<Value> {
    *work += 1;
    if (*work).is_multiple_of(DEADLINE_CHECK_WORK) {
        heap.check_deadline()?;
    }
    Ok(match v {
        Json::Null => Value::JsonNull,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::Int(i)
            } else {
                Value::Float(n.as_f64().unwrap_or(f64::NAN))
            }
        }
        Json::String(s) => {
            if s.len() > crate::limits::WORK_CHUNK_BYTES && heap.meter.restartable {
                // Copying a long string is one unchecked step: not in an inline stretch.
                return Err(Throw::Restart);
            }
            *work += s.len() as u64 / 64;
            heap.new_str(s.as_bytes())?
        }
        Json::Array(items) => {
            if depth >= MAX_DEPTH {
                return Err(too_deep());
            }
            let t = heap.new_table(items.len(), 0)?;
            heap.set_shape(t, Shape::Array);
            for (i, item) in items.iter().enumerate() {
                let lv = import_value(heap, item, depth + 1, work, tool)?;
                heap.table_set_int(t, i as i64 + 1, lv)?;
            }
            Value::Table(t)
        }
        Json::Object(map) => {
            if depth >= MAX_DEPTH {
                return Err(too_deep());
            }
            let t = heap.new_table(0, map.len())?;
            heap.set_shape(t, Shape::Object);
            let mut nulls: Vec<Box<str>> = Vec::new();
            for (k, item) in map {
                if item.is_null() {
                    // A null field is an absent field: `if page.next then` and
                    // `r.email or "none"` work as a model expects. Its name is remembered for
                    // the hint when the program uses it anyway.
                    *work += 1;
                    if tool
                        && nulls.len() < crate::limits::MAX_NULL_FIELDS_PER_TABLE
                        && k.len() <= crate::limits::MAX_NULL_FIELD_NAME_BYTES
                    {
                        nulls.push(k.as_str().into());
                    }
                    continue;
                }
                let key = heap.new_str(k.as_bytes())?;
                let lv = import_value(heap, item, depth + 1, work, tool)?;
                heap.table_set(t, key, lv)?;
            }
            heap.note_null_fields(t, nulls)?;
            Value::Table(t)
        }
    })
}

fn too_deep() -> Throw {
    invalid(format!(
        "the data nests deeper than {MAX_DEPTH} levels and cannot be received"
    ))
}

/// Drop a JSON value of any depth without recursion (`serde_json::Value`'s own `Drop` recurses
/// once per level, so a hostile 1,000,000-level value would overflow the stack).
pub(crate) fn drop_json(v: Json) {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Json::Array(items) => stack.extend(items),
            Json::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}
