//! The natives of the standard library, the intrinsics' setup, and the conversions builtins
//! share (node-style `inspect` for console, `JSON.stringify`, own-key order).
//!
//! Each native is a table entry `(path, function, length)`; the path says where it is
//! installed (`"Array.prototype.push"`, `"Math.max"`, `"parseInt"`). Builtins that call back
//! into user code live in `prelude.js` instead. Each file below holds one object's natives
//! and its own table; [`NATIVES`] joins them.
//!
//! - `setup.rs`: the intrinsics' setup (prototypes, well-known symbols, globals).
//! - `console.rs`: `console`; `node_inspect.rs`: what it prints (node's `util.format`,
//!   `util.inspect`, `console.table`).
//! - `function.rs`, `object.rs`, `array.rs`, `string.rs`, `number.rs` (with `Boolean` and the
//!   global functions), `math.rs`, `json.rs`, `errors.rs`, `symbol.rs`, `collections.rs`
//!   (`Map`, `Set`): one built-in each; `json_parse.rs`: the JSON text parser; `collate.rs`:
//!   `localeCompare`'s order (ICU root for Latin text, three levels, no copies).
//! - `descriptors.rs`: property descriptors, [[DefineOwnProperty]] (arrays too) and the
//!   integrity levels, with the `Object` statics built on them.
//! - `reflect.rs`: `Reflect` (its user-calling half is in `prelude.js`); `weak.rs`:
//!   `WeakMap`, `WeakSet`.
//! - `regexp.rs`: `RegExp` (its spec algorithms that call user code are in
//!   `prelude/regexp.js`; the engine is `crate::regexp`).
//! - `web.rs`: `encodeURIComponent` and the other URI functions, `btoa`, `atob`.
//! - `platform.rs`: the host's clock and random generator (`crypto` with `randomUUID` and
//!   `getRandomValues`, `Math.random`'s state), the web-platform prototypes; `date.rs`: `Date`
//!   (UTC as the local zone, V8's parser); `url.rs`: `URL` and `URLSearchParams` (the `url`
//!   crate), linked both ways; `bytes.rs`: `Uint8Array` (views over a byte buffer object) with
//!   the base64 and hex methods (its callback methods are in `prelude.js`); `text.rs`:
//!   `TextEncoder`, `TextDecoder` (UTF-8); `clone.rs`: `structuredClone` (an explicit work
//!   stack, never the Rust stack).
//! - `host.rs`: the host's globals: `tools`, `search`, extension functions.
//! - `modules.rs`: `import`, `require` and `import()` of Node module names, resolved to the
//!   extension globals (and `url`, `util`, `buffer` to standard ones).
//! - `promise.rs`: `Promise` (its constructor and `then`; the rest is `prelude/promise.js`),
//!   the generator objects' `next`/`return`/`throw`, `queueMicrotask`.
//! - `intl.rs`: the en-US number and date formatting behind `Intl` and the `toLocale*String`
//!   methods (the objects and their option reading are `prelude/intl.js`).
//! - `intrinsics.rs`: the hidden helpers `prelude.js` calls.
//! - `iterator.rs`: the abstract `Iterator` constructor (the helpers are in
//!   `prelude/iterator.js`).
//! - this file: the joined table and the conversions builtins share (own-key order, `for…in`
//!   keys, ToPrimitive without user methods, relative indices).

use crate::heap::{
    CONFIGURABLE, DEFAULT_ATTRS, ENUMERABLE, Elems, Func, HIDDEN_ATTRS, Iter, Key, Kind, Slot,
    WRITABLE,
};
use crate::limits::{MAX_ARRAY_LENGTH, MAX_DATA_DEPTH, MAX_STRING_LENGTH, WORK_CHUNK};
use crate::string::JsStr;
use crate::value::{ObjId, SymId, Value};
use crate::vm::{NativeFn, Res, Throw, Vm};

mod array;
pub(crate) mod bytes;
mod clone;
mod collate;
mod collections;
mod console;
mod date;
mod descriptors;
mod errors;
mod function;
mod host;
mod intl;
mod intrinsics;
mod iterator;
mod json;
mod json_parse;
mod math;
pub(crate) mod modules;
mod node_inspect;
mod number;
mod object;
pub(crate) mod platform;
mod promise;
mod reflect;
pub(crate) mod regexp;
mod setup;
mod string;
mod symbol;
pub(crate) mod text;
pub(crate) mod url;
mod weak;
mod web;

use array::*;
pub use console::{inspect, is_error};
pub use date::parse as parse_date;
use errors::*;
use function::*;
use object::*;

/// `Function.prototype.call` (a tail call in the loop).
pub const NATIVE_CALL: u16 = 0;
/// `Function.prototype.apply`.
pub const NATIVE_APPLY: u16 = 1;
/// `Array.prototype.values` (and `[Symbol.iterator]`).
pub const NATIVE_ARRAY_VALUES: u16 = 2;
/// The prelude's `call(fn, this, ...args)`, unaffected by programs that replace `call`.
pub const NATIVE_INTR_CALL: u16 = 3;

/// The natives every run has in this order first (their indices are the constants above).
static CORE: &[(&str, NativeFn, u16)] = &[
    ("Function.prototype.call", unreachable_native, 1),
    ("Function.prototype.apply", unreachable_native, 2),
    ("Array.prototype.values", array::array_values, 0),
    ("%Intrinsics%.call", unreachable_native, 2),
];

/// Every native: where it goes, what it runs, its `length`; a native's index here is its
/// `Func::Native` number. A constructor comes before its static methods.
pub static NATIVES: std::sync::LazyLock<Vec<(&str, NativeFn, u16)>> =
    std::sync::LazyLock::new(|| {
        let tables: [&[(&str, NativeFn, u16)]; 29] = [
            CORE,
            console::NATIVES,
            function::NATIVES,
            object::NATIVES,
            descriptors::NATIVES,
            array::NATIVES,
            string::NATIVES,
            number::NATIVES,
            math::NATIVES,
            json::NATIVES,
            errors::NATIVES,
            symbol::NATIVES,
            collections::NATIVES,
            weak::NATIVES,
            reflect::NATIVES,
            intrinsics::NATIVES,
            regexp::NATIVES,
            web::NATIVES,
            date::NATIVES,
            platform::NATIVES,
            url::NATIVES,
            bytes::NATIVES,
            text::NATIVES,
            clone::NATIVES,
            promise::NATIVES,
            host::NATIVES,
            modules::NATIVES,
            iterator::NATIVES,
            intl::NATIVES,
        ];
        tables.concat()
    });

/// `true` for the natives whose work is proportional to a number argument (the size of what
/// they make): `String.prototype.repeat`, `padStart`, `padEnd`, `Array`, `Uint8Array`.
pub fn makes_sized_value(n: u16) -> bool {
    static SIZED: std::sync::LazyLock<Vec<bool>> = std::sync::LazyLock::new(|| {
        NATIVES
            .iter()
            .map(|(path, ..)| {
                matches!(
                    *path,
                    "String.prototype.repeat"
                        | "String.prototype.padStart"
                        | "String.prototype.padEnd"
                        | "Array"
                        | "Uint8Array"
                )
            })
            .collect()
    });
    SIZED.get(n as usize).copied().unwrap_or(false)
}

/// `true` when native `n` may be called with `new`.
pub fn is_constructor(n: u16) -> bool {
    // Function.prototype has no entry in the table, and is no constructor.
    let Some(&(name, _, _)) = NATIVES.get(n as usize) else {
        return false;
    };
    if matches!(
        name,
        "%Intrinsics%.NumberFormat" | "%Intrinsics%.DateTimeFormat"
    ) {
        return true;
    }
    !name.contains('.')
        && !matches!(
            name,
            "parseInt"
                | "parseFloat"
                | "isNaN"
                | "isFinite"
                | "Symbol"
                | "queueMicrotask"
                | "require"
                | "structuredClone"
        )
        && !web::FUNCTIONS.contains(&name)
}

fn unreachable_native(_: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Undefined)
}

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::Undefined)
}

pub(crate) use collections::table_iter;
pub use descriptors::set_integrity;
pub use host::install as install_host;
pub(crate) use host::{missing_fn, tool_node_path};
pub use setup::setup;

// ----- shared conversions -------------------------------------------------------------------

/// What a property read would find, without running it.
pub(super) enum Lookup {
    /// A data property with this value.
    Data(Value),
    /// A getter or setter (reading it runs user code).
    Accessor,
    /// Nothing along the chain (or a chain longer than `MAX_PROTO_CHAIN`, read as ending).
    Absent,
}

/// Find `key` on `o` or its prototypes without calling getters.
pub(super) fn data_lookup(vm: &mut Vm, o: ObjId, key: Key) -> Lookup {
    let mut cur = Some(o);
    let mut guard = 0;
    while let Some(c) = cur {
        match vm.own(c, key) {
            Some(crate::heap::Prop {
                slot: Slot::Data(x),
                ..
            }) => return Lookup::Data(x),
            Some(_) => return Lookup::Accessor,
            None => {}
        }
        cur = vm.heap.obj(c).proto;
        guard += 1;
        if guard > crate::limits::MAX_PROTO_CHAIN {
            break;
        }
    }
    Lookup::Absent
}

/// Own property keys in spec order: integer keys ascending, then names in insertion order,
/// then symbols.
pub fn own_keys(vm: &mut Vm, o: ObjId, only_enumerable: bool) -> Vec<Key> {
    let obj = vm.heap.obj(o);
    let mut idx: Vec<u32> = Vec::new();
    match &obj.kind {
        Kind::Array(e) | Kind::Arguments(e) => {
            idx.extend(e.iter().map(|(i, _)| i as u32));
        }
        Kind::String(s) => idx.extend(0..vm.heap.str(*s).len() as u32),
        Kind::Bytes { len, .. } => idx.extend(0..*len),
        _ => {}
    }
    let mut names = Vec::new();
    let mut syms = Vec::new();
    let mut hidden = Vec::new();
    for p in &obj.props.list {
        if only_enumerable && p.attrs & ENUMERABLE == 0 {
            // An element with attributes of its own may be a non-enumerable one.
            if let Key::Index(i) = p.key {
                hidden.push(i);
            }
            continue;
        }
        match p.key {
            Key::Index(i) => idx.push(i),
            Key::Name(_) => names.push(p.key),
            Key::Sym(_) => syms.push(p.key),
        }
    }
    if !hidden.is_empty() {
        idx.retain(|i| !hidden.contains(i));
    }
    idx.sort_unstable();
    idx.dedup();
    let mut out: Vec<Key> = idx.into_iter().map(Key::Index).collect();
    out.extend(names);
    out.extend(syms);
    out
}

fn key_value(vm: &mut Vm, k: Key) -> Res<Value> {
    match k {
        Key::Sym(s) => Ok(Value::Sym(s)),
        k => {
            let s = vm.heap.key_str(k).unwrap_or_else(|| JsStr::from_str(""));
            vm.js_str(s)
        }
    }
}

/// Own enumerable string keys (EnumerableOwnProperties with kind `key`, §7.3.23): no value
/// is read, so no getter runs. A string's are its indices; other primitives have none.
fn enumerable_keys(vm: &mut Vm, v: Value) -> Res<Vec<Key>> {
    let mut keys = match v {
        Value::Obj(o) => own_keys(vm, o, true),
        Value::Str(s) => (0..vm.heap.str(s).len() as u32).map(Key::Index).collect(),
        Value::Undefined | Value::Null => {
            return Err(vm.type_error("Cannot convert undefined or null to object"));
        }
        _ => Vec::new(),
    };
    keys.retain(|k| !matches!(k, Key::Sym(_)));
    vm.work_check(keys.len())?;
    Ok(keys)
}

/// Own enumerable string-keyed properties as (key, value), each value read once (a getter
/// runs once, in key order).
fn enumerable_entries(vm: &mut Vm, v: Value) -> Res<Vec<(Key, Value)>> {
    let keys = enumerable_keys(vm, v)?;
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        let val = vm.get_value(v, k)?;
        out.push((k, val));
    }
    Ok(out)
}

/// `{...src}` and `Object.assign` for one source, skipping `except`.
pub fn copy_props(vm: &mut Vm, target: ObjId, src: Value, except: &[Key]) -> Res<()> {
    if src.is_nullish() {
        return Ok(());
    }
    let entries = match src {
        Value::Obj(o) => {
            let keys = own_keys(vm, o, true);
            let mut out = Vec::new();
            for k in keys {
                let val = vm.get_value(src, k)?;
                out.push((k, val));
            }
            out
        }
        _ => enumerable_entries(vm, src)?,
    };
    for (k, v) in entries {
        if except.contains(&k) {
            continue;
        }
        vm.define(target, k, Slot::Data(v), DEFAULT_ATTRS)?;
    }
    Ok(())
}

/// The keys `for…in` visits: enumerable string keys of the object and its prototypes.
pub fn for_in_keys(vm: &mut Vm, v: Value) -> Res<Vec<Value>> {
    let mut out = Vec::new();
    let mut cur = match v {
        Value::Obj(o) => Some(o),
        Value::Str(_) => {
            for k in enumerable_keys(vm, v)? {
                out.push(key_value(vm, k)?);
            }
            return Ok(out);
        }
        _ => None,
    };
    // A key met nearer the receiver (enumerable or not) hides the same key further up:
    // sets, so 2·10^5 keys cost linear time.
    let mut seen: std::collections::HashSet<Key> = std::collections::HashSet::new();
    while let Some(o) = cur {
        let all = own_keys(vm, o, false);
        let en = own_keys(vm, o, true);
        vm.work_check(all.len() + en.len())?;
        // Usually every own string key is enumerable; only otherwise is a set needed.
        let hidden: Option<std::collections::HashSet<Key>> =
            (en.len() != all.len()).then(|| en.iter().copied().collect());
        let next = vm.heap.obj(o).proto;
        for k in all {
            if matches!(k, Key::Sym(_)) || seen.contains(&k) {
                continue;
            }
            if next.is_some() {
                seen.insert(k);
            }
            if hidden.as_ref().is_none_or(|en| en.contains(&k)) {
                out.push(key_value(vm, k)?);
            }
        }
        cur = next;
    }
    Ok(out)
}

/// ToPrimitive of an object without user methods: `[object Object]`, arrays joined, errors
/// as `Name: message`, functions as their source.
pub fn object_to_string(vm: &mut Vm, v: Value) -> Res<Value> {
    let Value::Obj(_) = v else { return Ok(v) };
    // Arrays of arrays and errors named by errors convert inside one another, on the Rust
    // stack: bounded like a call depth.
    if vm.native_nesting >= crate::limits::MAX_NATIVE_NESTING {
        return Err(vm.range_error("Maximum call stack size exceeded"));
    }
    vm.native_nesting += 1;
    let r = builtin_to_string(vm, v);
    vm.native_nesting -= 1;
    r
}

fn builtin_to_string(vm: &mut Vm, v: Value) -> Res<Value> {
    let Value::Obj(o) = v else { return Ok(v) };
    match &vm.heap.obj(o).kind {
        Kind::Array(_) => array_join(vm, v, &[]),
        Kind::Function(_) => function_to_string(vm, v, &[]),
        Kind::Error => error_to_string(vm, v, &[]),
        Kind::Url(_) | Kind::Params(_) => url::to_string(vm, v),
        Kind::Bytes { .. } => bytes::join(vm, v, &[]),
        _ => {
            // An error-like object (prototype chain through Error.prototype).
            let mut cur = vm.heap.obj(o).proto;
            while let Some(p) = cur {
                if Some(p) == vm.intr.error_proto {
                    return error_to_string(vm, v, &[]);
                }
                cur = vm.heap.obj(p).proto;
            }
            object_proto_to_string(vm, v, &[])
        }
    }
}

fn to_str_arg(vm: &mut Vm, v: Value) -> Res<JsStr> {
    let s = vm.to_string(v)?;
    Ok(vm.heap.str(s).clone())
}

fn this_str(vm: &mut Vm, this: Value, method: &str) -> Res<JsStr> {
    if this.is_nullish() {
        return Err(vm.type_error(&format!(
            "String.prototype.{method} called on null or undefined"
        )));
    }
    to_str_arg(vm, this)
}

/// ToIntegerOrInfinity.
fn to_integer(vm: &mut Vm, v: Value) -> Res<f64> {
    let n = vm.to_number(v)?;
    Ok(if n.is_nan() { 0.0 } else { n.trunc() })
}

/// A relative index argument clamped to 0..=len (slice, splice, at ...).
fn rel_index(vm: &mut Vm, v: Value, len: usize, default: usize) -> Res<usize> {
    if v == Value::Undefined {
        return Ok(default);
    }
    let n = to_integer(vm, v)?;
    let len_f = len as f64;
    Ok(if n < 0.0 {
        (len_f + n).max(0.0) as usize
    } else {
        n.min(len_f) as usize
    })
}
