//! The natives of the standard library, the intrinsics' setup, and the conversions builtins
//! share (node-style `inspect` for console, `JSON.stringify`, own-key order).
//!
//! Each native is a table entry `(path, function, length)`; the path says where it is
//! installed (`"Array.prototype.push"`, `"Math.max"`, `"parseInt"`). Builtins that call back
//! into user code live in `prelude.js` instead.

use crate::heap::{
    CONFIGURABLE, DEFAULT_ATTRS, ENUMERABLE, Func, HIDDEN_ATTRS, Iter, Key, Kind, Slot, WRITABLE,
};
use crate::limits::{MAX_ARRAY_LENGTH, MAX_DATA_DEPTH, MAX_STRING_LENGTH};
use crate::string::JsStr;
use crate::value::{ObjId, Value};
use crate::vm::{NativeFn, Res, Vm};

/// `Function.prototype.call` (a tail call in the loop).
pub const NATIVE_CALL: u16 = 0;
/// `Function.prototype.apply`.
pub const NATIVE_APPLY: u16 = 1;
/// `Array.prototype.values` (and `[Symbol.iterator]`).
pub const NATIVE_ARRAY_VALUES: u16 = 2;
/// The prelude's `call(fn, this, ...args)`, unaffected by programs that replace `call`.
pub const NATIVE_INTR_CALL: u16 = 3;

/// Every native: where it goes, what it runs, its `length`.
pub static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Function.prototype.call", unreachable_native, 1),
    ("Function.prototype.apply", unreachable_native, 2),
    ("Array.prototype.values", array_values, 0),
    ("%Intrinsics%.call", unreachable_native, 2),
    ("Array.prototype.keys", array_keys, 0),
    ("Array.prototype.entries", array_entries, 0),
    ("Function.prototype.bind", function_bind, 1),
    ("Function.prototype.toString", function_to_string, 0),
    ("Object", object_ctor, 1),
    ("Object.keys", object_keys, 1),
    ("Object.values", object_values, 1),
    ("Object.entries", object_entries, 1),
    ("Object.assign", object_assign, 2),
    ("Object.freeze", object_freeze, 1),
    ("Object.isFrozen", object_is_frozen, 1),
    ("Object.create", object_create, 2),
    ("Object.getPrototypeOf", object_get_prototype_of, 1),
    ("Object.setPrototypeOf", object_set_prototype_of, 2),
    ("Object.hasOwn", object_has_own, 2),
    ("Object.is", object_is, 2),
    ("Object.fromEntries", object_from_entries, 1),
    (
        "Object.getOwnPropertyNames",
        object_get_own_property_names,
        1,
    ),
    ("Object.defineProperty", object_define_property, 3),
    ("Object.prototype.hasOwnProperty", object_proto_has_own, 1),
    ("Object.prototype.toString", object_proto_to_string, 0),
    ("Object.prototype.valueOf", object_proto_value_of, 0),
    (
        "Object.prototype.isPrototypeOf",
        object_proto_is_prototype_of,
        1,
    ),
    ("Array", array_ctor, 1),
    ("Array.isArray", array_is_array, 1),
    ("Array.of", array_of, 0),
    ("Array.prototype.push", array_push, 1),
    ("Array.prototype.pop", array_pop, 0),
    ("Array.prototype.shift", array_shift, 0),
    ("Array.prototype.unshift", array_unshift, 1),
    ("Array.prototype.slice", array_slice, 2),
    ("Array.prototype.splice", array_splice, 2),
    ("Array.prototype.concat", array_concat, 1),
    ("Array.prototype.join", array_join, 1),
    ("Array.prototype.reverse", array_reverse, 0),
    ("Array.prototype.indexOf", array_index_of, 1),
    ("Array.prototype.lastIndexOf", array_last_index_of, 1),
    ("Array.prototype.includes", array_includes, 1),
    ("Array.prototype.fill", array_fill, 1),
    ("Array.prototype.at", array_at, 1),
    ("Array.prototype.toString", array_to_string, 0),
    ("String", string_ctor, 1),
    ("String.fromCharCode", string_from_char_code, 1),
    ("String.prototype.toString", string_value_of, 0),
    ("String.prototype.valueOf", string_value_of, 0),
    ("String.prototype.charAt", string_char_at, 1),
    ("String.prototype.charCodeAt", string_char_code_at, 1),
    ("String.prototype.codePointAt", string_code_point_at, 1),
    ("String.prototype.at", string_at, 1),
    ("String.prototype.indexOf", string_index_of, 1),
    ("String.prototype.lastIndexOf", string_last_index_of, 1),
    ("String.prototype.includes", string_includes, 1),
    ("String.prototype.startsWith", string_starts_with, 1),
    ("String.prototype.endsWith", string_ends_with, 1),
    ("String.prototype.slice", string_slice, 2),
    ("String.prototype.substring", string_substring, 2),
    ("String.prototype.substr", string_substr, 2),
    ("String.prototype.toUpperCase", string_to_upper, 0),
    ("String.prototype.toLowerCase", string_to_lower, 0),
    ("String.prototype.trim", string_trim, 0),
    ("String.prototype.trimStart", string_trim_start, 0),
    ("String.prototype.trimEnd", string_trim_end, 0),
    ("String.prototype.padStart", string_pad_start, 2),
    ("String.prototype.padEnd", string_pad_end, 2),
    ("String.prototype.repeat", string_repeat, 1),
    ("String.prototype.split", string_split, 2),
    ("String.prototype.concat", string_concat, 1),
    ("String.prototype.replaceAll", string_replace_all, 2),
    ("String.prototype.replace", string_replace, 2),
    ("String.prototype.localeCompare", string_locale_compare, 1),
    ("Number", number_ctor, 1),
    ("Number.isInteger", number_is_integer, 1),
    ("Number.isFinite", number_is_finite, 1),
    ("Number.isNaN", number_is_nan, 1),
    ("Number.isSafeInteger", number_is_safe_integer, 1),
    ("Number.parseFloat", parse_float, 1),
    ("Number.parseInt", parse_int, 2),
    ("Number.prototype.toString", number_to_string, 1),
    ("Number.prototype.toFixed", number_to_fixed, 1),
    ("Number.prototype.valueOf", number_value_of, 0),
    ("Number.prototype.toPrecision", number_to_precision, 1),
    ("Number.prototype.toExponential", number_to_exponential, 1),
    (
        "Number.prototype.toLocaleString",
        number_to_locale_string,
        0,
    ),
    ("Boolean", boolean_ctor, 1),
    ("Boolean.prototype.toString", boolean_to_string, 0),
    ("Boolean.prototype.valueOf", boolean_value_of, 0),
    ("parseInt", parse_int, 2),
    ("parseFloat", parse_float, 1),
    ("isNaN", global_is_nan, 1),
    ("isFinite", global_is_finite, 1),
    ("Math.abs", math_abs, 1),
    ("Math.floor", math_floor, 1),
    ("Math.ceil", math_ceil, 1),
    ("Math.round", math_round, 1),
    ("Math.trunc", math_trunc, 1),
    ("Math.sign", math_sign, 1),
    ("Math.sqrt", math_sqrt, 1),
    ("Math.cbrt", math_cbrt, 1),
    ("Math.exp", math_exp, 1),
    ("Math.log", math_log, 1),
    ("Math.log2", math_log2, 1),
    ("Math.log10", math_log10, 1),
    ("Math.sin", math_sin, 1),
    ("Math.cos", math_cos, 1),
    ("Math.tan", math_tan, 1),
    ("Math.atan", math_atan, 1),
    ("Math.atan2", math_atan2, 2),
    ("Math.pow", math_pow, 2),
    ("Math.max", math_max, 2),
    ("Math.min", math_min, 2),
    ("Math.hypot", math_hypot, 2),
    ("Math.random", math_random, 0),
    ("JSON.stringify", json_stringify, 3),
    ("JSON.parse", json_parse, 2),
    ("console.log", console_log, 0),
    ("console.info", console_info, 0),
    ("console.debug", console_debug, 0),
    ("console.warn", console_warn, 0),
    ("console.error", console_error, 0),
    ("Error", error_ctor, 1),
    ("TypeError", type_error_ctor, 1),
    ("RangeError", range_error_ctor, 1),
    ("ReferenceError", reference_error_ctor, 1),
    ("SyntaxError", syntax_error_ctor, 1),
    ("Error.prototype.toString", error_to_string, 0),
    ("Symbol", symbol_ctor, 0),
    ("Symbol.prototype.toString", symbol_to_string, 0),
    ("Map", map_ctor, 0),
    ("Map.prototype.get", map_get, 1),
    ("Map.prototype.set", map_set, 2),
    ("Map.prototype.has", map_has, 1),
    ("Map.prototype.delete", map_delete, 1),
    ("Map.prototype.clear", map_clear, 0),
    ("Map.prototype.keys", map_keys, 0),
    ("Map.prototype.values", map_values, 0),
    ("Map.prototype.entries", map_entries, 0),
    ("Set", set_ctor, 0),
    ("Set.prototype.add", set_add, 1),
    ("Set.prototype.has", set_has, 1),
    ("Set.prototype.delete", set_delete, 1),
    ("Set.prototype.clear", set_clear, 0),
    ("Set.prototype.values", set_values, 0),
    ("%IteratorPrototype%.next", iterator_next, 0),
    ("%Intrinsics%.mapSize", map_size, 0),
    ("%Intrinsics%.toLength", intr_to_length, 1),
    ("%Intrinsics%.isCallable", intr_is_callable, 1),
    ("%Intrinsics%.defineHidden", intr_define_hidden, 3),
    ("%Intrinsics%.throwTypeError", intr_throw_type_error, 1),
    ("%Intrinsics%.toStr", intr_to_str, 1),
    ("%Intrinsics%.setLength", intr_set_length, 2),
];

/// `true` when native `n` may be called with `new`.
pub fn is_constructor(n: u16) -> bool {
    let name = NATIVES[n as usize].0;
    !name.contains('.')
        && !matches!(
            name,
            "parseInt" | "parseFloat" | "isNaN" | "isFinite" | "Symbol"
        )
}

fn unreachable_native(_: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Undefined)
}

fn arg(args: &[Value], i: usize) -> Value {
    args.get(i).copied().unwrap_or(Value::Undefined)
}

// ----- setup --------------------------------------------------------------------------------

/// Create the intrinsics and install every native into `vm`.
pub fn setup(vm: &mut Vm) -> Res<()> {
    let h = &mut vm.heap;
    let object_proto = h.new_obj(None, Kind::Ordinary)?;
    let function_proto = h.new_obj(Some(object_proto), Kind::Function(Func::Native(u16::MAX)))?;
    vm.intr.object_proto = Some(object_proto);
    vm.intr.function_proto = Some(function_proto);
    let mk =
        |vm: &mut Vm, kind: Kind| -> Res<ObjId> { Ok(vm.heap.new_obj(Some(object_proto), kind)?) };
    vm.intr.array_proto = Some(mk(vm, Kind::Array(Vec::new()))?);
    let empty = vm.heap.new_str(JsStr::from_str(""))?;
    vm.intr.string_proto = Some(mk(vm, Kind::String(empty))?);
    vm.intr.number_proto = Some(mk(vm, Kind::Number(0.0))?);
    vm.intr.boolean_proto = Some(mk(vm, Kind::Boolean(false))?);
    vm.intr.symbol_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.iterator_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.map_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.set_proto = Some(mk(vm, Kind::Ordinary)?);
    let error_proto = mk(vm, Kind::Ordinary)?;
    vm.intr.error_proto = Some(error_proto);
    for slot in 0..4 {
        let p = vm.heap.new_obj(Some(error_proto), Kind::Ordinary)?;
        match slot {
            0 => vm.intr.type_error_proto = Some(p),
            1 => vm.intr.range_error_proto = Some(p),
            2 => vm.intr.reference_error_proto = Some(p),
            _ => vm.intr.syntax_error_proto = Some(p),
        }
    }
    let global = vm.global;
    vm.heap.obj_mut(global).proto = Some(object_proto);
    for (name, desc) in [
        ("iterator", "Symbol.iterator"),
        ("asyncIterator", "Symbol.asyncIterator"),
        ("toPrimitive", "Symbol.toPrimitive"),
        ("toStringTag", "Symbol.toStringTag"),
        ("hasInstance", "Symbol.hasInstance"),
    ] {
        let d = vm.heap.new_str(JsStr::from_str(desc))?;
        let s = vm.heap.new_symbol(Some(d))?;
        match name {
            "iterator" => vm.intr.sym_iterator = Some(s),
            "asyncIterator" => vm.intr.sym_async_iterator = Some(s),
            "toPrimitive" => vm.intr.sym_to_primitive = Some(s),
            "toStringTag" => vm.intr.sym_to_string_tag = Some(s),
            _ => vm.intr.sym_has_instance = Some(s),
        }
    }
    let math = mk(vm, Kind::Ordinary)?;
    let json = mk(vm, Kind::Ordinary)?;
    let console = mk(vm, Kind::Ordinary)?;
    let intrinsics = mk(vm, Kind::Ordinary)?;
    let mut ctors: Vec<(String, ObjId)> = Vec::new();
    for (i, (path, _, length)) in NATIVES.iter().enumerate() {
        let (owner, name) = match path.rsplit_once('.') {
            Some((o, n)) => (Some(o), n),
            None => (None, *path),
        };
        let f = vm
            .heap
            .new_obj(Some(function_proto), Kind::Function(Func::Native(i as u16)))?;
        vm.function_props(f, name, *length)?;
        let target = match owner {
            None => {
                ctors.push((name.to_string(), f));
                global
            }
            Some(o) => resolve_owner(vm, o, &ctors, math, json, console, intrinsics)?,
        };
        let key = vm.heap.key(name);
        vm.define(target, key, Slot::Data(Value::Obj(f)), HIDDEN_ATTRS)?;
    }
    // Constructors and their prototypes.
    for (name, ctor) in &ctors {
        let proto = match name.as_str() {
            "Object" => Some(object_proto),
            "Array" => vm.intr.array_proto,
            "String" => vm.intr.string_proto,
            "Number" => vm.intr.number_proto,
            "Boolean" => vm.intr.boolean_proto,
            "Symbol" => vm.intr.symbol_proto,
            "Map" => vm.intr.map_proto,
            "Set" => vm.intr.set_proto,
            "Error" => vm.intr.error_proto,
            "TypeError" => vm.intr.type_error_proto,
            "RangeError" => vm.intr.range_error_proto,
            "ReferenceError" => vm.intr.reference_error_proto,
            "SyntaxError" => vm.intr.syntax_error_proto,
            _ => None,
        };
        if let Some(p) = proto {
            let k = vm.heap.key("prototype");
            vm.define(*ctor, k, Slot::Data(Value::Obj(p)), 0)?;
            let k = vm.heap.key("constructor");
            vm.define(p, k, Slot::Data(Value::Obj(*ctor)), HIDDEN_ATTRS)?;
            if name.ends_with("Error") {
                let n = vm.str_val(name)?;
                let k = vm.heap.key("name");
                vm.define(p, k, Slot::Data(n), HIDDEN_ATTRS)?;
                let m = vm.str_val("")?;
                let k = vm.heap.key("message");
                vm.define(p, k, Slot::Data(m), HIDDEN_ATTRS)?;
            }
        }
        if name.ends_with("Error") && name != "Error" {
            let e = ctors.iter().find(|(n, _)| n == "Error").map(|(_, o)| *o);
            vm.heap.obj_mut(*ctor).proto = e;
        }
    }
    // Symbol.iterator of arrays, strings' iterator, well-known symbols on Symbol.
    let values = vm.get_simple(Value::Obj(vm.intr.array_proto.expect("array")), "values")?;
    let sym = Key::Sym(vm.intr.sym_iterator.expect("sym"));
    vm.define(
        vm.intr.array_proto.expect("array"),
        sym,
        Slot::Data(values),
        HIDDEN_ATTRS,
    )?;
    let iter_self = vm.heap.new_obj(
        Some(function_proto),
        Kind::Function(Func::Native(NATIVE_ARRAY_VALUES)),
    )?;
    let _ = iter_self;
    let symbol_ctor = ctors.iter().find(|(n, _)| n == "Symbol").map(|(_, o)| *o);
    if let Some(sc) = symbol_ctor {
        for (name, s) in [
            ("iterator", vm.intr.sym_iterator),
            ("asyncIterator", vm.intr.sym_async_iterator),
            ("toPrimitive", vm.intr.sym_to_primitive),
            ("toStringTag", vm.intr.sym_to_string_tag),
            ("hasInstance", vm.intr.sym_has_instance),
        ] {
            let k = vm.heap.key(name);
            vm.define(sc, k, Slot::Data(Value::Sym(s.expect("symbol"))), 0)?;
        }
    }
    for (name, v) in [
        ("NaN", Value::Num(f64::NAN)),
        ("Infinity", Value::Num(f64::INFINITY)),
        ("undefined", Value::Undefined),
    ] {
        let k = vm.heap.key(name);
        vm.define(global, k, Slot::Data(v), 0)?;
    }
    let number = ctors
        .iter()
        .find(|(n, _)| n == "Number")
        .map(|(_, o)| *o)
        .expect("Number");
    for (name, v) in [
        ("MAX_SAFE_INTEGER", 9007199254740991.0),
        ("MIN_SAFE_INTEGER", -9007199254740991.0),
        ("EPSILON", f64::EPSILON),
        ("MAX_VALUE", f64::MAX),
        ("MIN_VALUE", 5e-324),
        ("POSITIVE_INFINITY", f64::INFINITY),
        ("NEGATIVE_INFINITY", f64::NEG_INFINITY),
        ("NaN", f64::NAN),
    ] {
        let k = vm.heap.key(name);
        vm.define(number, k, Slot::Data(Value::Num(v)), 0)?;
    }
    for (name, v) in [
        ("PI", std::f64::consts::PI),
        ("E", std::f64::consts::E),
        ("LN2", std::f64::consts::LN_2),
        ("LN10", std::f64::consts::LN_10),
        ("LOG2E", std::f64::consts::LOG2_E),
        ("LOG10E", std::f64::consts::LOG10_E),
        ("SQRT2", std::f64::consts::SQRT_2),
        ("SQRT1_2", std::f64::consts::FRAC_1_SQRT_2),
    ] {
        let k = vm.heap.key(name);
        vm.define(math, k, Slot::Data(Value::Num(v)), 0)?;
    }
    for (name, o) in [
        ("Math", math),
        ("JSON", json),
        ("console", console),
        ("__intrinsics", intrinsics),
    ] {
        let k = vm.heap.key(name);
        vm.define(global, k, Slot::Data(Value::Obj(o)), HIDDEN_ATTRS)?;
    }
    let k = vm.heap.key("iteratorPrototype");
    let ip = vm.intr.iterator_proto.expect("iterator");
    vm.define(intrinsics, k, Slot::Data(Value::Obj(ip)), HIDDEN_ATTRS)?;
    let k = vm.heap.key("globalThis");
    vm.define(global, k, Slot::Data(Value::Obj(global)), HIDDEN_ATTRS)?;
    let k = vm.heap.key("prototype");
    let ap = vm.intr.array_proto.expect("array");
    let _ = (k, ap, WRITABLE, CONFIGURABLE, DEFAULT_ATTRS, ENUMERABLE);
    Ok(())
}

fn resolve_owner(
    vm: &mut Vm,
    owner: &str,
    ctors: &[(String, ObjId)],
    math: ObjId,
    json: ObjId,
    console: ObjId,
    intrinsics: ObjId,
) -> Res<ObjId> {
    Ok(match owner {
        "Math" => math,
        "JSON" => json,
        "console" => console,
        "%Intrinsics%" => intrinsics,
        "%IteratorPrototype%" => vm.intr.iterator_proto.expect("iter"),
        "Function.prototype" => vm.intr.function_proto.expect("fp"),
        "Object.prototype" => vm.intr.object_proto.expect("op"),
        "Array.prototype" => vm.intr.array_proto.expect("ap"),
        "String.prototype" => vm.intr.string_proto.expect("sp"),
        "Number.prototype" => vm.intr.number_proto.expect("np"),
        "Boolean.prototype" => vm.intr.boolean_proto.expect("bp"),
        "Symbol.prototype" => vm.intr.symbol_proto.expect("syp"),
        "Error.prototype" => vm.intr.error_proto.expect("ep"),
        "Map.prototype" => vm.intr.map_proto.expect("mp"),
        "Set.prototype" => vm.intr.set_proto.expect("setp"),
        ctor => ctors
            .iter()
            .find(|(n, _)| n == ctor)
            .map(|(_, o)| *o)
            .unwrap_or(vm.global),
    })
}

// ----- shared conversions -------------------------------------------------------------------

/// Own property keys in spec order: integer keys ascending, then names in insertion order,
/// then symbols.
pub fn own_keys(vm: &mut Vm, o: ObjId, only_enumerable: bool) -> Vec<Key> {
    let obj = vm.heap.obj(o);
    let mut idx: Vec<u32> = Vec::new();
    match &obj.kind {
        Kind::Array(e) | Kind::Arguments(e) => {
            idx.extend((0..e.len() as u32).filter(|i| e[*i as usize] != Value::Empty));
        }
        Kind::String(s) => idx.extend(0..vm.heap.str(*s).len() as u32),
        _ => {}
    }
    let mut names = Vec::new();
    let mut syms = Vec::new();
    for p in &obj.props.list {
        if only_enumerable && p.attrs & ENUMERABLE == 0 {
            continue;
        }
        match p.key {
            Key::Index(i) => idx.push(i),
            Key::Name(_) => names.push(p.key),
            Key::Sym(_) => syms.push(p.key),
        }
    }
    idx.sort_unstable();
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

/// Own enumerable string-keyed properties as (key, value).
fn enumerable_entries(vm: &mut Vm, v: Value) -> Res<Vec<(Key, Value)>> {
    let o = match v {
        Value::Obj(o) => o,
        Value::Str(s) => {
            let n = vm.heap.str(s).len();
            let mut out = Vec::new();
            for i in 0..n {
                let c = vm.get_value(v, Key::Index(i as u32))?;
                out.push((Key::Index(i as u32), c));
            }
            return Ok(out);
        }
        Value::Undefined | Value::Null => {
            return Err(vm.type_error("Cannot convert undefined or null to object"));
        }
        _ => return Ok(Vec::new()),
    };
    let keys = own_keys(vm, o, true);
    let mut out = Vec::with_capacity(keys.len());
    for k in keys {
        if let Key::Sym(_) = k {
            continue;
        }
        let val = vm.get_value(v, k)?;
        out.push((k, val));
    }
    vm.work(out.len());
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
    let mut seen: Vec<Key> = Vec::new();
    let mut cur = match v {
        Value::Obj(o) => Some(o),
        Value::Str(_) => {
            for (k, _) in enumerable_entries(vm, v)? {
                out.push(key_value(vm, k)?);
            }
            return Ok(out);
        }
        _ => None,
    };
    while let Some(o) = cur {
        let all = own_keys(vm, o, false);
        let en = own_keys(vm, o, true);
        for k in all {
            if matches!(k, Key::Sym(_)) || seen.contains(&k) {
                continue;
            }
            seen.push(k);
            if en.contains(&k) {
                out.push(key_value(vm, k)?);
            }
        }
        cur = vm.heap.obj(o).proto;
    }
    vm.work(out.len());
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

// ----- inspect (console) --------------------------------------------------------------------

/// How console prints a value: top-level strings raw, everything else JSON-like with
/// `NaN`/`Infinity` literal, `Map(n) [...]`, `Set(n) [...]`, `Error: message`, `[Circular]`,
/// `[opaque reference]` for functions, `...` past the depth bound.
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
fn inspect_into(vm: &mut Vm, v: Value, out: &mut String, stack: &mut Vec<ObjId>) -> Res<()> {
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

fn inspect_obj(vm: &mut Vm, o: ObjId, out: &mut String, stack: &mut Vec<ObjId>) -> Res<()> {
    let v = Value::Obj(o);
    match vm.heap.obj(o).kind.clone() {
        Kind::Function(_) => out.push_str("[opaque reference]"),
        Kind::Array(e) => {
            out.push('[');
            for (i, x) in e.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let x = if *x == Value::Empty { Value::Null } else { *x };
                inspect_into(vm, x, out, stack)?;
            }
            out.push(']');
        }
        Kind::Map(entries) => {
            let live: Vec<(Value, Value)> = entries
                .into_iter()
                .filter(|(k, _)| *k != Value::Empty)
                .collect();
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
            let live: Vec<Value> = items.into_iter().filter(|k| *k != Value::Empty).collect();
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

fn log_with(vm: &mut Vm, prefix: &str, args: &[Value]) -> Res<Value> {
    let mut parts = Vec::with_capacity(args.len());
    for a in args {
        parts.push(inspect(vm, *a)?);
    }
    let line = format!("{prefix}{}", parts.join(" "));
    vm.heap.charge(line.len() + 32)?;
    vm.work(line.len() / 16);
    vm.logs.push(line);
    Ok(Value::Undefined)
}

fn console_log(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "", args)
}
fn console_info(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "", args)
}
fn console_debug(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "[debug] ", args)
}
fn console_warn(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "[warn] ", args)
}
fn console_error(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    log_with(vm, "[error] ", args)
}

// ----- Function -----------------------------------------------------------------------------

fn function_bind(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(target) = this else {
        return Err(vm.type_error("Bind must be called on a function"));
    };
    if !matches!(vm.heap.obj(target).kind, Kind::Function(_)) {
        return Err(vm.type_error("Bind must be called on a function"));
    }
    let name = vm.get_simple(this, "name")?;
    let name = match name {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    };
    let len = vm.get_simple(this, "length")?;
    let len = match len {
        Value::Num(n) => (n - (args.len().saturating_sub(1)) as f64).max(0.0) as u16,
        _ => 0,
    };
    let f = vm.heap.new_obj(
        vm.intr.function_proto,
        Kind::Function(Func::Bound {
            target,
            this: arg(args, 0),
            args: args.iter().skip(1).copied().collect(),
        }),
    )?;
    vm.function_props(f, &format!("bound {name}"), len)?;
    Ok(Value::Obj(f))
}

fn function_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let name = match this {
        Value::Obj(_) => {
            let n = vm.get_simple(this, "name")?;
            vm.to_rust_string(n)?
        }
        _ => {
            return Err(
                vm.type_error("Function.prototype.toString requires that 'this' be a Function")
            );
        }
    };
    vm.str_val(&format!("function {name}() {{ [native code] }}"))
}

// ----- Object -------------------------------------------------------------------------------

fn to_object(vm: &mut Vm, v: Value) -> Res<ObjId> {
    match v {
        Value::Obj(o) => Ok(o),
        Value::Undefined | Value::Null => {
            Err(vm.type_error("Cannot convert undefined or null to object"))
        }
        Value::Str(s) => Ok(vm.heap.new_obj(vm.intr.string_proto, Kind::String(s))?),
        Value::Num(n) => Ok(vm.heap.new_obj(vm.intr.number_proto, Kind::Number(n))?),
        Value::Bool(b) => Ok(vm.heap.new_obj(vm.intr.boolean_proto, Kind::Boolean(b))?),
        _ => Ok(vm.new_object()?),
    }
}

fn object_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    if v.is_nullish() {
        return Ok(Value::Obj(vm.new_object()?));
    }
    Ok(Value::Obj(to_object(vm, v)?))
}

fn object_keys(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut out = Vec::new();
    for (k, _) in enumerable_entries(vm, arg(args, 0))? {
        out.push(key_value(vm, k)?);
    }
    vm.new_array(out)
}

fn object_values(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let out = enumerable_entries(vm, arg(args, 0))?
        .into_iter()
        .map(|(_, v)| v)
        .collect();
    vm.new_array(out)
}

fn object_entries(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut out = Vec::new();
    for (k, v) in enumerable_entries(vm, arg(args, 0))? {
        let kv = key_value(vm, k)?;
        out.push(vm.new_array(vec![kv, v])?);
    }
    vm.new_array(out)
}

fn object_assign(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let t = to_object(vm, arg(args, 0))?;
    for s in args.iter().skip(1) {
        copy_props(vm, t, *s, &[])?;
    }
    Ok(Value::Obj(t))
}

fn object_freeze(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    if let Value::Obj(o) = v {
        let obj = vm.heap.obj_mut(o);
        obj.extensible = false;
        obj.frozen_elements = true;
        for p in &mut obj.props.list {
            p.attrs &= !CONFIGURABLE;
            if matches!(p.slot, Slot::Data(_)) {
                p.attrs &= !WRITABLE;
            }
        }
    }
    Ok(v)
}

fn object_is_frozen(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Ok(Value::Bool(true));
    };
    let obj = vm.heap.obj(o);
    let has_elems = matches!(&obj.kind, Kind::Array(e) if !e.is_empty());
    let frozen = !obj.extensible
        && (!has_elems || obj.frozen_elements)
        && obj.props.list.iter().all(|p| {
            p.attrs & CONFIGURABLE == 0
                && (matches!(p.slot, Slot::Accessor(..)) || p.attrs & WRITABLE == 0)
        });
    Ok(Value::Bool(frozen))
}

fn object_create(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let proto = match arg(args, 0) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        _ => return Err(vm.type_error("Object prototype may only be an Object or null")),
    };
    let o = vm.heap.new_obj(proto, Kind::Ordinary)?;
    if let Value::Obj(_) = arg(args, 1) {
        return Err(vm.type_error(
            "Object.create with property descriptors is not supported yet; assign the properties",
        ));
    }
    Ok(Value::Obj(o))
}

fn object_get_prototype_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    Ok(vm.heap.obj(o).proto.map_or(Value::Null, Value::Obj))
}

fn object_set_prototype_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    let proto = match arg(args, 1) {
        Value::Obj(p) => Some(p),
        Value::Null => None,
        _ => return Err(vm.type_error("Object prototype may only be an Object or null")),
    };
    if let Value::Obj(o) = v {
        let mut cur = proto;
        while let Some(p) = cur {
            if p == o {
                return Err(vm.type_error("Cyclic __proto__ value"));
            }
            cur = vm.heap.obj(p).proto;
        }
        vm.heap.obj_mut(o).proto = proto;
    }
    Ok(v)
}

fn has_own(vm: &mut Vm, v: Value, k: Value) -> Res<bool> {
    let o = to_object(vm, v)?;
    let key = vm.to_key(k)?;
    Ok(vm.own(o, key).is_some())
}

fn object_has_own(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(has_own(vm, arg(args, 0), arg(args, 1))?))
}

fn object_proto_has_own(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(has_own(vm, this, arg(args, 0))?))
}

fn object_is(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (a, b) = (arg(args, 0), arg(args, 1));
    Ok(Value::Bool(match (a, b) {
        (Value::Num(x), Value::Num(y)) => {
            (x.is_nan() && y.is_nan()) || (x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        _ => vm.strict_equals(a, b),
    }))
}

fn object_from_entries(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let items = vm.iterate_fast(arg(args, 0))?;
    let o = vm.new_object()?;
    for it in items {
        let k = vm.get_value(it, Key::Index(0))?;
        let v = vm.get_value(it, Key::Index(1))?;
        let key = vm.to_key(k)?;
        vm.define(o, key, Slot::Data(v), DEFAULT_ATTRS)?;
    }
    Ok(Value::Obj(o))
}

fn object_get_own_property_names(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = to_object(vm, arg(args, 0))?;
    let mut out = Vec::new();
    for k in own_keys(vm, o, false) {
        if !matches!(k, Key::Sym(_)) {
            out.push(key_value(vm, k)?);
        }
    }
    if matches!(vm.heap.obj(o).kind, Kind::Array(_)) {
        out.push(vm.str_val("length")?);
    }
    vm.new_array(out)
}

fn object_define_property(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Err(vm.type_error("Object.defineProperty called on non-object"));
    };
    let key = vm.to_key(arg(args, 1))?;
    let d = arg(args, 2);
    if !matches!(d, Value::Obj(_)) {
        return Err(vm.type_error("Property description must be an object"));
    }
    let flag = |vm: &mut Vm, name: &str| -> Res<bool> {
        let v = vm.get_simple(d, name)?;
        Ok(vm.truthy(v))
    };
    let mut attrs = 0;
    if flag(vm, "enumerable")? {
        attrs |= ENUMERABLE;
    }
    if flag(vm, "configurable")? {
        attrs |= CONFIGURABLE;
    }
    let get = vm.get_simple(d, "get")?;
    let set = vm.get_simple(d, "set")?;
    let slot = if get != Value::Undefined || set != Value::Undefined {
        Slot::Accessor(get, set)
    } else {
        if flag(vm, "writable")? {
            attrs |= WRITABLE;
        }
        Slot::Data(vm.get_simple(d, "value")?)
    };
    if let (Kind::Array(_), Key::Index(_)) = (&vm.heap.obj(o).kind, key) {
        if let Slot::Data(v) = slot {
            vm.set_value(Value::Obj(o), key, v)?;
        }
        return Ok(Value::Obj(o));
    }
    vm.define(o, key, slot, attrs)?;
    Ok(Value::Obj(o))
}

fn object_proto_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let tag = match this {
        Value::Undefined => "Undefined",
        Value::Null => "Null",
        Value::Num(_) => "Number",
        Value::Str(_) => "String",
        Value::Bool(_) => "Boolean",
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Array(_) => "Array",
            Kind::Function(_) => "Function",
            Kind::Error => "Error",
            Kind::Arguments(_) => "Arguments",
            Kind::Map(_) => "Map",
            Kind::Set(_) => "Set",
            _ => "Object",
        },
        _ => "Object",
    };
    vm.str_val(&format!("[object {tag}]"))
}

fn object_proto_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Obj(to_object(vm, this)?))
}

fn object_proto_is_prototype_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Value::Obj(p), Value::Obj(mut o)) = (this, arg(args, 0)) else {
        return Ok(Value::Bool(false));
    };
    while let Some(next) = vm.heap.obj(o).proto {
        if next == p {
            return Ok(Value::Bool(true));
        }
        o = next;
    }
    Ok(Value::Bool(false))
}

// ----- Array --------------------------------------------------------------------------------

fn array_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if let [Value::Num(n)] = args {
        if *n < 0.0 || n.fract() != 0.0 || *n > MAX_ARRAY_LENGTH as f64 {
            return Err(vm.range_error("Invalid array length"));
        }
        return vm.new_array(vec![Value::Empty; *n as usize]);
    }
    vm.new_array(args.to_vec())
}

fn array_is_array(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_))),
    ))
}

fn array_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    vm.new_array(args.to_vec())
}

/// The elements of an array `this` (a TypeError for other receivers, for now).
fn elems(vm: &mut Vm, this: Value, method: &str) -> Res<(ObjId, Vec<Value>)> {
    if let Value::Obj(o) = this
        && let Kind::Array(e) | Kind::Arguments(e) = &vm.heap.obj(o).kind
    {
        return Ok((o, e.clone()));
    }
    if let Value::Obj(o) = this {
        let items = vm.list_from_array_like(this)?;
        return Ok((o, items));
    }
    Err(vm.type_error(&format!("Array.prototype.{method} called on a non-array")))
}

fn set_elems(vm: &mut Vm, o: ObjId, e: Vec<Value>) -> Res<()> {
    if vm.heap.obj(o).frozen_elements || !vm.heap.obj(o).extensible {
        return Err(vm.type_error("Cannot modify a frozen array"));
    }
    if e.len() > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    let old = match &vm.heap.obj(o).kind {
        Kind::Array(x) => x.len(),
        _ => 0,
    };
    if e.len() > old {
        vm.heap.charge((e.len() - old) * crate::heap::VALUE_BYTES)?;
    }
    vm.work(e.len() / 8);
    match &mut vm.heap.obj_mut(o).kind {
        Kind::Array(x) => *x = e,
        _ => return Err(vm.type_error("Array method called on a non-array")),
    }
    Ok(())
}

fn array_push(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Array.prototype.push called on a non-array"));
    };
    if vm.heap.obj(o).frozen_elements || !vm.heap.obj(o).extensible {
        return Err(vm.type_error("Cannot add property, object is not extensible"));
    }
    let n = match &vm.heap.obj(o).kind {
        Kind::Array(e) => e.len(),
        _ => return Err(vm.type_error("Array.prototype.push called on a non-array")),
    };
    if n + args.len() > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    vm.heap.charge(args.len() * crate::heap::VALUE_BYTES)?;
    if let Kind::Array(e) = &mut vm.heap.obj_mut(o).kind {
        e.extend_from_slice(args);
        return Ok(Value::Num(e.len() as f64));
    }
    Ok(Value::Undefined)
}

fn array_pop(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "pop")?;
    let v = e.pop().unwrap_or(Value::Undefined);
    set_elems(vm, o, e)?;
    Ok(if v == Value::Empty {
        Value::Undefined
    } else {
        v
    })
}

fn array_shift(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "shift")?;
    if e.is_empty() {
        return Ok(Value::Undefined);
    }
    let v = e.remove(0);
    set_elems(vm, o, e)?;
    Ok(if v == Value::Empty {
        Value::Undefined
    } else {
        v
    })
}

fn array_unshift(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, e) = elems(vm, this, "unshift")?;
    let mut n = args.to_vec();
    n.extend(e);
    let len = n.len();
    set_elems(vm, o, n)?;
    Ok(Value::Num(len as f64))
}

fn array_slice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "slice")?;
    let from = rel_index(vm, arg(args, 0), e.len(), 0)?;
    let to = rel_index(vm, arg(args, 1), e.len(), e.len())?;
    let part = if from < to {
        e[from..to].to_vec()
    } else {
        Vec::new()
    };
    vm.work(part.len());
    vm.new_array(part)
}

fn array_splice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "splice")?;
    let len = e.len();
    let start = rel_index(vm, arg(args, 0), len, 0)?;
    let count = match args.len() {
        0 => 0,
        1 => len - start,
        _ => {
            let c = to_integer(vm, args[1])?;
            (c.max(0.0) as usize).min(len - start)
        }
    };
    let removed: Vec<Value> = e
        .splice(start..start + count, args.iter().skip(2).copied())
        .collect();
    set_elems(vm, o, e)?;
    vm.new_array(removed)
}

fn array_concat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, mut e) = elems(vm, this, "concat")?;
    for a in args {
        match a {
            Value::Obj(o) if matches!(vm.heap.obj(*o).kind, Kind::Array(_)) => {
                if let Kind::Array(x) = &vm.heap.obj(*o).kind {
                    e.extend_from_slice(x);
                }
            }
            v => e.push(*v),
        }
        if e.len() > MAX_ARRAY_LENGTH {
            return Err(vm.range_error("Invalid array length"));
        }
    }
    vm.work(e.len());
    vm.new_array(e)
}

fn array_join(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, e) = elems(vm, this, "join")?;
    let sep = match arg(args, 0) {
        Value::Undefined => JsStr::from_str(","),
        v => to_str_arg(vm, v)?,
    };
    let mut units: Vec<u16> = Vec::new();
    let _ = o;
    for (i, v) in e.iter().enumerate() {
        if i > 0 {
            units.extend(sep.units());
        }
        if !matches!(v, Value::Undefined | Value::Null | Value::Empty) {
            if let Value::Obj(x) = v
                && *x == o
            {
                continue;
            }
            let s = to_str_arg(vm, *v)?;
            units.extend(s.units());
        }
        if units.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    vm.work(units.len() / 16 + e.len());
    vm.js_str(JsStr::from_units(units))
}

fn array_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_join(vm, this, &[])
}

fn array_reverse(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "reverse")?;
    e.reverse();
    set_elems(vm, o, e)?;
    Ok(this)
}

fn array_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "indexOf")?;
    let from = rel_index(vm, arg(args, 1), e.len(), 0)?;
    let t = arg(args, 0);
    vm.work(e.len());
    Ok(Value::Num(
        e.iter()
            .enumerate()
            .skip(from)
            .find(|(_, v)| vm.strict_equals(**v, t))
            .map_or(-1.0, |(i, _)| i as f64),
    ))
}

fn array_last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "lastIndexOf")?;
    let t = arg(args, 0);
    vm.work(e.len());
    Ok(Value::Num(
        e.iter()
            .enumerate()
            .rev()
            .find(|(_, v)| vm.strict_equals(**v, t))
            .map_or(-1.0, |(i, _)| i as f64),
    ))
}

fn array_includes(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "includes")?;
    let from = rel_index(vm, arg(args, 1), e.len(), 0)?;
    let t = arg(args, 0);
    vm.work(e.len());
    Ok(Value::Bool(e.iter().skip(from).any(|v| {
        let v = if *v == Value::Empty {
            Value::Undefined
        } else {
            *v
        };
        vm.same_value_zero(v, t)
    })))
}

fn array_fill(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, mut e) = elems(vm, this, "fill")?;
    let from = rel_index(vm, arg(args, 1), e.len(), 0)?;
    let to = rel_index(vm, arg(args, 2), e.len(), e.len())?;
    for x in e.iter_mut().take(to).skip(from) {
        *x = arg(args, 0);
    }
    set_elems(vm, o, e)?;
    Ok(this)
}

fn array_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (_, e) = elems(vm, this, "at")?;
    let i = to_integer(vm, arg(args, 0))?;
    let i = if i < 0.0 { e.len() as f64 + i } else { i };
    if i < 0.0 || i >= e.len() as f64 {
        return Ok(Value::Undefined);
    }
    let v = e[i as usize];
    Ok(if v == Value::Empty {
        Value::Undefined
    } else {
        v
    })
}

fn array_iter(vm: &mut Vm, this: Value, kind: u8) -> Res<Value> {
    if this.is_nullish() {
        return Err(vm.type_error("Array.prototype.values called on null or undefined"));
    }
    let o = vm.heap.new_obj(
        vm.intr.iterator_proto,
        Kind::Iterator(Iter::Array {
            target: this,
            pos: 0,
            kind,
        }),
    )?;
    Ok(Value::Obj(o))
}

fn array_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 0)
}
fn array_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 1)
}
fn array_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 2)
}

fn iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let Some(v) = vm.builtin_iter_step(this)? else {
        return Err(vm.type_error("next method called on an incompatible receiver"));
    };
    let o = vm.new_object()?;
    let done = v == Value::Empty;
    let kv = vm.heap.key("value");
    vm.define(
        o,
        kv,
        Slot::Data(if done { Value::Undefined } else { v }),
        DEFAULT_ATTRS,
    )?;
    let kd = vm.heap.key("done");
    vm.define(o, kd, Slot::Data(Value::Bool(done)), DEFAULT_ATTRS)?;
    Ok(Value::Obj(o))
}

// ----- String -------------------------------------------------------------------------------

fn string_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = match args.first() {
        None => vm.heap.new_str(JsStr::from_str(""))?,
        Some(Value::Sym(s)) => {
            let d =
                vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
            vm.heap.new_str(JsStr::from_str(&format!("Symbol({d})")))?
        }
        Some(v) => vm.to_string(*v)?,
    };
    // `new String(x)`: a String object.
    if let Value::Obj(o) = this
        && matches!(vm.heap.obj(o).kind, Kind::Ordinary)
        && vm.heap.obj(o).proto == vm.intr.string_proto
    {
        vm.heap.obj_mut(o).kind = Kind::String(s);
        return Ok(this);
    }
    Ok(Value::Str(s))
}

fn string_from_char_code(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut units = Vec::new();
    for a in args {
        let n = vm.to_number(*a)?;
        units.push(crate::vm::to_int32(n) as u16);
    }
    vm.js_str(JsStr::from_units(units))
}

fn string_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    match this {
        Value::Str(_) => Ok(this),
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::String(s) => Ok(Value::Str(s)),
            _ => Err(vm.type_error("String.prototype.valueOf requires that 'this' be a String")),
        },
        _ => Err(vm.type_error("String.prototype.valueOf requires that 'this' be a String")),
    }
}

fn string_char_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "charAt")?;
    let i = to_integer(vm, arg(args, 0))?;
    if i < 0.0 || i >= s.len() as f64 {
        return vm.str_val("");
    }
    vm.js_str(s.slice(i as usize, i as usize + 1))
}

fn string_char_code_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "charCodeAt")?;
    let i = to_integer(vm, arg(args, 0))?;
    if i < 0.0 || i >= s.len() as f64 {
        return Ok(Value::Num(f64::NAN));
    }
    Ok(Value::Num(s.at(i as usize) as f64))
}

fn string_code_point_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "codePointAt")?;
    let i = to_integer(vm, arg(args, 0))?;
    if i < 0.0 || i >= s.len() as f64 {
        return Ok(Value::Undefined);
    }
    let i = i as usize;
    let u = s.at(i);
    if (0xd800..0xdc00).contains(&u) && i + 1 < s.len() {
        let l = s.at(i + 1);
        if (0xdc00..0xe000).contains(&l) {
            return Ok(Value::Num(
                (0x10000 + ((u as u32 - 0xd800) << 10) + (l as u32 - 0xdc00)) as f64,
            ));
        }
    }
    Ok(Value::Num(u as f64))
}

fn string_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "at")?;
    let i = to_integer(vm, arg(args, 0))?;
    let i = if i < 0.0 { s.len() as f64 + i } else { i };
    if i < 0.0 || i >= s.len() as f64 {
        return Ok(Value::Undefined);
    }
    vm.js_str(s.slice(i as usize, i as usize + 1))
}

/// First index of `needle` in `hay` at or after `from`.
fn find_units(hay: &JsStr, needle: &JsStr, from: usize) -> Option<usize> {
    let (h, n) = (hay.len(), needle.len());
    if n == 0 {
        return (from <= h).then_some(from);
    }
    if n > h {
        return None;
    }
    (from..=h - n).find(|&i| (0..n).all(|j| hay.at(i + j) == needle.at(j)))
}

fn string_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "indexOf")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let from = to_integer(vm, arg(args, 1))?.clamp(0.0, s.len() as f64) as usize;
    vm.work(s.len() / 8);
    Ok(Value::Num(
        find_units(&s, &n, from).map_or(-1.0, |i| i as f64),
    ))
}

fn string_last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "lastIndexOf")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    vm.work(s.len() / 8);
    let mut best = -1.0;
    let mut from = 0;
    while let Some(i) = find_units(&s, &n, from) {
        best = i as f64;
        from = i + 1;
        if from > s.len() {
            break;
        }
    }
    Ok(Value::Num(best))
}

fn string_includes(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "includes")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let from = to_integer(vm, arg(args, 1))?.clamp(0.0, s.len() as f64) as usize;
    vm.work(s.len() / 8);
    Ok(Value::Bool(find_units(&s, &n, from).is_some()))
}

fn string_starts_with(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "startsWith")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let from = to_integer(vm, arg(args, 1))?.clamp(0.0, s.len() as f64) as usize;
    Ok(Value::Bool(
        from + n.len() <= s.len() && (0..n.len()).all(|j| s.at(from + j) == n.at(j)),
    ))
}

fn string_ends_with(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "endsWith")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let end = match arg(args, 1) {
        Value::Undefined => s.len(),
        v => to_integer(vm, v)?.clamp(0.0, s.len() as f64) as usize,
    };
    Ok(Value::Bool(
        n.len() <= end && (0..n.len()).all(|j| s.at(end - n.len() + j) == n.at(j)),
    ))
}

fn string_slice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "slice")?;
    let from = rel_index(vm, arg(args, 0), s.len(), 0)?;
    let to = rel_index(vm, arg(args, 1), s.len(), s.len())?;
    vm.js_str(if from < to {
        s.slice(from, to)
    } else {
        JsStr::from_str("")
    })
}

fn string_substring(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "substring")?;
    let a = to_integer(vm, arg(args, 0))?.clamp(0.0, s.len() as f64) as usize;
    let b = match arg(args, 1) {
        Value::Undefined => s.len(),
        v => to_integer(vm, v)?.clamp(0.0, s.len() as f64) as usize,
    };
    vm.js_str(s.slice(a.min(b), a.max(b)))
}

fn string_substr(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "substr")?;
    let from = rel_index(vm, arg(args, 0), s.len(), 0)?;
    let n = match arg(args, 1) {
        Value::Undefined => s.len() - from,
        v => to_integer(vm, v)?.clamp(0.0, (s.len() - from) as f64) as usize,
    };
    vm.js_str(s.slice(from, from + n))
}

fn string_to_upper(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "toUpperCase")?;
    vm.work(s.len() / 8);
    vm.js_str(JsStr::from_str(&s.to_rust().to_uppercase()))
}

fn string_to_lower(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "toLowerCase")?;
    vm.work(s.len() / 8);
    vm.js_str(JsStr::from_str(&s.to_rust().to_lowercase()))
}

fn is_space_unit(u: u16) -> bool {
    char::from_u32(u as u32).is_some_and(crate::number::is_js_space)
}

fn trim_units(s: &JsStr, start: bool, end: bool) -> JsStr {
    let mut a = 0;
    let mut b = s.len();
    if start {
        while a < b && is_space_unit(s.at(a)) {
            a += 1;
        }
    }
    if end {
        while b > a && is_space_unit(s.at(b - 1)) {
            b -= 1;
        }
    }
    s.slice(a, b)
}

fn string_trim(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "trim")?;
    vm.js_str(trim_units(&s, true, true))
}
fn string_trim_start(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "trimStart")?;
    vm.js_str(trim_units(&s, true, false))
}
fn string_trim_end(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "trimEnd")?;
    vm.js_str(trim_units(&s, false, true))
}

fn pad(vm: &mut Vm, this: Value, args: &[Value], start: bool) -> Res<Value> {
    let s = this_str(vm, this, if start { "padStart" } else { "padEnd" })?;
    let target = to_integer(vm, arg(args, 0))?;
    let fill = match arg(args, 1) {
        Value::Undefined => JsStr::from_str(" "),
        v => to_str_arg(vm, v)?,
    };
    if target <= s.len() as f64 || fill.is_empty() {
        return vm.js_str(s);
    }
    if target > MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let need = target as usize - s.len();
    let f = fill.units();
    let padding: Vec<u16> = f.iter().copied().cycle().take(need).collect();
    vm.work(need / 8);
    let mut units = Vec::with_capacity(target as usize);
    if start {
        units.extend(padding);
        units.extend(s.units());
    } else {
        units.extend(s.units());
        units.extend(padding);
    }
    vm.js_str(JsStr::from_units(units))
}

fn string_pad_start(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    pad(vm, this, args, true)
}
fn string_pad_end(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    pad(vm, this, args, false)
}

fn string_repeat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "repeat")?;
    let n = to_integer(vm, arg(args, 0))?;
    if n < 0.0 || n.is_infinite() {
        return Err(vm.range_error(&format!(
            "Invalid count value: {}",
            crate::number::to_string(n)
        )));
    }
    if s.len() as f64 * n > MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let units = s.units();
    let total: Vec<u16> = std::iter::repeat_n(units, n as usize).flatten().collect();
    vm.work(total.len() / 8);
    vm.js_str(JsStr::from_units(total))
}

fn string_split(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "split")?;
    let limit = match arg(args, 1) {
        Value::Undefined => u32::MAX as usize,
        v => vm.to_number(v)? as u32 as usize,
    };
    let mut parts = Vec::new();
    match arg(args, 0) {
        Value::Undefined => parts.push(s.clone()),
        sepv => {
            let sep = to_str_arg(vm, sepv)?;
            if sep.is_empty() {
                for i in 0..s.len() {
                    parts.push(s.slice(i, i + 1));
                }
            } else {
                let mut from = 0;
                while let Some(i) = find_units(&s, &sep, from) {
                    parts.push(s.slice(from, i));
                    from = i + sep.len();
                    if parts.len() >= limit {
                        break;
                    }
                }
                parts.push(s.slice(from, s.len()));
            }
        }
    }
    parts.truncate(limit);
    vm.work(s.len() / 8 + parts.len());
    let mut out = Vec::with_capacity(parts.len());
    for p in parts {
        out.push(vm.js_str(p)?);
    }
    vm.new_array(out)
}

fn string_concat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let mut s = this_str(vm, this, "concat")?;
    for a in args {
        let t = to_str_arg(vm, *a)?;
        s = s.concat(&t);
        if s.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    vm.js_str(s)
}

fn replace_impl(vm: &mut Vm, this: Value, args: &[Value], all: bool) -> Res<Value> {
    let s = this_str(vm, this, if all { "replaceAll" } else { "replace" })?;
    let pat = to_str_arg(vm, arg(args, 0))?;
    if matches!(arg(args, 1), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_))) {
        return Err(vm.type_error(
            "a replacement function is not supported yet; build the string with split/map/join",
        ));
    }
    let rep = to_str_arg(vm, arg(args, 1))?;
    let mut out: Vec<u16> = Vec::new();
    let mut from = 0;
    while let Some(i) = find_units(&s, &pat, from) {
        out.extend((from..i).map(|k| s.at(k)));
        // `$&` and `$$` patterns.
        let r = rep.units();
        let mut k = 0;
        while k < r.len() {
            if r[k] == b'$' as u16 && k + 1 < r.len() {
                match r[k + 1] {
                    x if x == b'$' as u16 => {
                        out.push(b'$' as u16);
                        k += 2;
                        continue;
                    }
                    x if x == b'&' as u16 => {
                        out.extend(pat.units());
                        k += 2;
                        continue;
                    }
                    _ => {}
                }
            }
            out.push(r[k]);
            k += 1;
        }
        from = i + pat.len();
        if pat.is_empty() {
            if i < s.len() {
                out.push(s.at(i));
            }
            from = i + 1;
        }
        if !all || from > s.len() {
            break;
        }
        if out.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    if from <= s.len() {
        out.extend((from..s.len()).map(|k| s.at(k)));
    }
    vm.work(out.len() / 8);
    vm.js_str(JsStr::from_units(out))
}

fn string_replace(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    replace_impl(vm, this, args, false)
}
fn string_replace_all(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    replace_impl(vm, this, args, true)
}

fn string_locale_compare(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let a = this_str(vm, this, "localeCompare")?.to_rust();
    let b = to_str_arg(vm, arg(args, 0))?.to_rust();
    // An approximation of ICU's root collation: case-insensitive first, then lower before upper.
    let (la, lb) = (a.to_lowercase(), b.to_lowercase());
    let o = la.cmp(&lb).then_with(|| b.cmp(&a));
    Ok(Value::Num(match o {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    }))
}

// ----- Number, Boolean, globals -------------------------------------------------------------

fn number_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = match args.first() {
        None => 0.0,
        Some(v) => vm.to_number(*v)?,
    };
    if let Value::Obj(o) = this
        && vm.heap.obj(o).proto == vm.intr.number_proto
        && matches!(vm.heap.obj(o).kind, Kind::Ordinary)
    {
        vm.heap.obj_mut(o).kind = Kind::Number(n);
        return Ok(this);
    }
    Ok(Value::Num(n))
}

fn this_num(vm: &mut Vm, this: Value, method: &str) -> Res<f64> {
    match this {
        Value::Num(n) => Ok(n),
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Number(n) => Ok(n),
            _ => Err(vm.type_error(&format!(
                "Number.prototype.{method} requires that 'this' be a Number"
            ))),
        },
        _ => Err(vm.type_error(&format!(
            "Number.prototype.{method} requires that 'this' be a Number"
        ))),
    }
}

fn number_to_string(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toString")?;
    let radix = match arg(args, 0) {
        Value::Undefined => 10.0,
        v => to_integer(vm, v)?,
    };
    if !(2.0..=36.0).contains(&radix) {
        return Err(vm.range_error("toString() radix must be between 2 and 36"));
    }
    let s = if radix == 10.0 {
        crate::number::to_string(n)
    } else {
        crate::number::to_radix(n, radix as u32)
    };
    vm.str_val(&s)
}

fn number_to_fixed(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toFixed")?;
    let d = to_integer(vm, arg(args, 0))?;
    if !(0.0..=100.0).contains(&d) {
        return Err(vm.range_error("toFixed() digits argument must be between 0 and 100"));
    }
    if !n.is_finite() || n.abs() >= 1e21 {
        return vm.str_val(&crate::number::to_string(n));
    }
    vm.str_val(&crate::number::to_fixed(n, d as usize))
}

fn number_to_precision(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toPrecision")?;
    if arg(args, 0) == Value::Undefined || !n.is_finite() {
        return vm.str_val(&crate::number::to_string(n));
    }
    let p = to_integer(vm, arg(args, 0))?;
    if !(1.0..=100.0).contains(&p) {
        return Err(vm.range_error("toPrecision() argument must be between 1 and 100"));
    }
    vm.str_val(&crate::number::to_precision(n, p as usize))
}

fn number_to_exponential(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toExponential")?;
    let f = match arg(args, 0) {
        Value::Undefined => None,
        v => Some(to_integer(vm, v)?),
    };
    if !n.is_finite() {
        return vm.str_val(&crate::number::to_string(n));
    }
    if f.is_some_and(|f| !(0.0..=100.0).contains(&f)) {
        return Err(vm.range_error("toExponential() argument must be between 0 and 100"));
    }
    vm.str_val(&crate::number::to_exponential(n, f.map(|f| f as usize)))
}

fn number_to_locale_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let n = this_num(vm, this, "toLocaleString")?;
    vm.str_val(&crate::number::to_locale(n))
}

fn number_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Num(this_num(vm, this, "valueOf")?))
}

fn number_is_integer(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_finite() && n.fract() == 0.0),
    ))
}
fn number_is_safe_integer(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_finite() && n.fract() == 0.0 && n.abs() <= 9007199254740991.0),
    ))
}
fn number_is_finite(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_finite()),
    ))
}
fn number_is_nan(_: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Num(n) if n.is_nan()),
    ))
}
fn global_is_nan(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(vm.to_number(arg(args, 0))?.is_nan()))
}
fn global_is_finite(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(vm.to_number(arg(args, 0))?.is_finite()))
}
fn parse_float(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_rust_string(arg(args, 0))?;
    Ok(Value::Num(crate::number::parse_float(&s)))
}
fn parse_int(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_rust_string(arg(args, 0))?;
    let r = match arg(args, 1) {
        Value::Undefined => 0,
        v => {
            let n = vm.to_number(v)?;
            crate::vm::to_int32(n)
        }
    };
    Ok(Value::Num(crate::number::parse_int(&s, r)))
}

fn boolean_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let b = vm.truthy(arg(args, 0));
    if let Value::Obj(o) = this
        && vm.heap.obj(o).proto == vm.intr.boolean_proto
        && matches!(vm.heap.obj(o).kind, Kind::Ordinary)
    {
        vm.heap.obj_mut(o).kind = Kind::Boolean(b);
        return Ok(this);
    }
    Ok(Value::Bool(b))
}

fn this_bool(vm: &mut Vm, this: Value) -> Res<bool> {
    match this {
        Value::Bool(b) => Ok(b),
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Boolean(b) => Ok(b),
            _ => Err(vm.type_error("Boolean.prototype.valueOf requires that 'this' be a Boolean")),
        },
        _ => Err(vm.type_error("Boolean.prototype.valueOf requires that 'this' be a Boolean")),
    }
}
fn boolean_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let b = this_bool(vm, this)?;
    vm.str_val(if b { "true" } else { "false" })
}
fn boolean_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Bool(this_bool(vm, this)?))
}

// ----- Math ---------------------------------------------------------------------------------

macro_rules! math1 {
    ($($name:ident => $f:expr;)*) => {
        $(fn $name(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
            let x = vm.to_number(arg(args, 0))?;
            let f: fn(f64) -> f64 = $f;
            Ok(Value::Num(f(x)))
        })*
    };
}

math1! {
    math_abs => f64::abs;
    math_floor => f64::floor;
    math_ceil => f64::ceil;
    math_trunc => f64::trunc;
    math_sqrt => f64::sqrt;
    math_cbrt => f64::cbrt;
    math_exp => f64::exp;
    math_log => f64::ln;
    math_log2 => f64::log2;
    math_log10 => f64::log10;
    math_sin => f64::sin;
    math_cos => f64::cos;
    math_tan => f64::tan;
    math_atan => f64::atan;
    math_round => |x| if x.is_finite() && x.fract() != 0.0 { (x + 0.5).floor() } else { x };
    math_sign => |x| if x.is_nan() || x == 0.0 { x } else { x.signum() };
}

fn math_atan2(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let y = vm.to_number(arg(args, 0))?;
    let x = vm.to_number(arg(args, 1))?;
    Ok(Value::Num(y.atan2(x)))
}

fn math_pow(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let x = vm.to_number(arg(args, 0))?;
    let y = vm.to_number(arg(args, 1))?;
    Ok(Value::Num(crate::vm::js_pow(x, y)))
}

fn math_max(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut m = f64::NEG_INFINITY;
    for a in args {
        let x = vm.to_number(*a)?;
        if x.is_nan() || m.is_nan() {
            m = f64::NAN;
        } else if x > m || (x == 0.0 && m == 0.0 && m.is_sign_negative()) {
            m = x;
        }
    }
    Ok(Value::Num(m))
}

fn math_min(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut m = f64::INFINITY;
    for a in args {
        let x = vm.to_number(*a)?;
        if x.is_nan() || m.is_nan() {
            m = f64::NAN;
        } else if x < m || (x == 0.0 && m == 0.0 && x.is_sign_negative()) {
            m = x;
        }
    }
    Ok(Value::Num(m))
}

fn math_hypot(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut s = 0.0;
    for a in args {
        let x = vm.to_number(*a)?;
        s += x * x;
    }
    Ok(Value::Num(s.sqrt()))
}

fn math_random(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    // xorshift64* seeded per run (deterministic within a run; not cryptographic).
    let mut x = vm.random_state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    vm.random_state = x;
    let r = x.wrapping_mul(0x2545F4914F6CDD1D) >> 11;
    Ok(Value::Num(r as f64 / (1u64 << 53) as f64))
}

// ----- JSON ---------------------------------------------------------------------------------

/// `JSON.stringify(value, replacer, space)`: replacer arrays, indentation; `toJSON` of
/// builtins. Cycles are the TypeError V8 gives; nesting past [`MAX_DATA_DEPTH`] a RangeError.
fn json_stringify(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    let allow: Option<Vec<Key>> = match arg(args, 1) {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_)) => {
            let items = vm.list_from_array_like(Value::Obj(o))?;
            let mut keys = Vec::new();
            for i in items {
                if matches!(i, Value::Str(_) | Value::Num(_)) {
                    keys.push(vm.to_key(i)?);
                }
            }
            Some(keys)
        }
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_)) => {
            return Err(vm.type_error(
                "a JSON.stringify replacer function is not supported yet; map the value first",
            ));
        }
        _ => None,
    };
    let indent = match arg(args, 2) {
        Value::Num(n) => " ".repeat(n.clamp(0.0, 10.0) as usize),
        Value::Str(s) => vm.heap.str(s).to_rust().chars().take(10).collect(),
        _ => String::new(),
    };
    let mut out = String::new();
    let mut stack = Vec::new();
    let ok = json_into(vm, v, &mut out, &mut stack, &indent, &allow)?;
    if !ok {
        return Ok(Value::Undefined);
    }
    vm.str_val(&out)
}

/// Write the JSON of `v`; `false` when it has none (undefined, functions, symbols).
fn json_into(
    vm: &mut Vm,
    v: Value,
    out: &mut String,
    stack: &mut Vec<ObjId>,
    indent: &str,
    allow: &Option<Vec<Key>>,
) -> Res<bool> {
    vm.work(1);
    if out.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Value::Num(n) if n.is_finite() => out.push_str(&crate::number::to_string(n)),
        Value::Num(_) => out.push_str("null"),
        Value::Str(s) => vm.heap.str(s).json_quote(out),
        Value::Undefined | Value::Sym(_) | Value::Empty => return Ok(false),
        Value::Obj(o) => {
            match vm.heap.obj(o).kind.clone() {
                Kind::Function(_) => return Ok(false),
                Kind::Number(n) => return json_into(vm, Value::Num(n), out, stack, indent, allow),
                Kind::String(s) => return json_into(vm, Value::Str(s), out, stack, indent, allow),
                Kind::Boolean(b) => {
                    return json_into(vm, Value::Bool(b), out, stack, indent, allow);
                }
                _ => {}
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
            if let Kind::Array(_) = vm.heap.obj(o).kind {
                let items = vm.list_from_array_like(v)?;
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    nl(out, depth);
                    if !json_into(vm, *x, out, stack, indent, allow)? {
                        out.push_str("null");
                    }
                }
                if !items.is_empty() {
                    nl(out, depth - 1);
                }
                out.push(']');
            } else {
                let entries = enumerable_entries(vm, v)?;
                out.push('{');
                let mut any = false;
                for (k, x) in entries {
                    if let Some(a) = allow
                        && !a.contains(&k)
                    {
                        continue;
                    }
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
                    if json_into(vm, x, out, stack, indent, allow)? {
                        any = true;
                    } else {
                        out.truncate(mark);
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
    Ok(true)
}

fn json_parse(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let text = vm.to_rust_string(arg(args, 0))?;
    if arg(args, 1) != Value::Undefined {
        return Err(
            vm.type_error("a JSON.parse reviver is not supported yet; transform the parsed value")
        );
    }
    vm.work(text.len() / 8);
    let parsed: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            let msg = format!(
                "{} in JSON at line {} column {}",
                json_error_words(&e),
                e.line(),
                e.column()
            );
            return Err(vm.err_syntax(&msg));
        }
    };
    let r = crate::boundary::import(vm, &parsed);
    crate::boundary::drop_json(parsed);
    r
}

fn json_error_words(e: &serde_json::Error) -> String {
    let s = e.to_string();
    let cut = s.find(" at line").unwrap_or(s.len());
    let mut w = s[..cut].to_string();
    if let Some(c) = w.get_mut(0..1) {
        c.make_ascii_uppercase();
    }
    w
}

// ----- Errors -------------------------------------------------------------------------------

fn make_error_value(vm: &mut Vm, proto: Option<ObjId>, this: Value, args: &[Value]) -> Res<Value> {
    let proto = match this {
        Value::Obj(o)
            if vm.heap.obj(o).proto.is_some() && matches!(vm.heap.obj(o).kind, Kind::Ordinary) =>
        {
            vm.heap.obj(o).proto
        }
        _ => proto,
    };
    let o = vm.heap.new_obj(proto, Kind::Error)?;
    if let Some(m) = args.first()
        && *m != Value::Undefined
    {
        let s = vm.to_string(*m)?;
        let k = vm.heap.key("message");
        vm.define(o, k, Slot::Data(Value::Str(s)), HIDDEN_ATTRS)?;
    }
    if let Some(opts @ Value::Obj(_)) = args.get(1) {
        let k = vm.heap.key("cause");
        if vm.own(opts.obj().expect("object"), k).is_some() {
            let c = vm.get_value(*opts, k)?;
            vm.define(o, k, Slot::Data(c), HIDDEN_ATTRS)?;
        }
    }
    Ok(Value::Obj(o))
}

fn error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.error_proto, this, args)
}
fn type_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.type_error_proto, this, args)
}
fn range_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.range_error_proto, this, args)
}
fn reference_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.reference_error_proto, this, args)
}
fn syntax_error_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    make_error_value(vm, vm.intr.syntax_error_proto, this, args)
}

/// `Error.prototype.toString`: `name: message` (either alone when the other is empty).
fn error_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    if !matches!(this, Value::Obj(_)) {
        return Err(vm.type_error("Error.prototype.toString called on a non-object"));
    }
    let n = vm.get_simple(this, "name")?;
    let name = if n == Value::Undefined {
        "Error".to_string()
    } else {
        vm.to_rust_string(n)?
    };
    let m = vm.get_simple(this, "message")?;
    let msg = if m == Value::Undefined {
        String::new()
    } else {
        vm.to_rust_string(m)?
    };
    let s = match (name.is_empty(), msg.is_empty()) {
        (true, _) => msg,
        (_, true) => name,
        _ => format!("{name}: {msg}"),
    };
    vm.str_val(&s)
}

// ----- Symbol -------------------------------------------------------------------------------

fn symbol_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Value::Obj(o) = this
        && vm.heap.obj(o).proto == vm.intr.symbol_proto
    {
        return Err(vm.type_error("Symbol is not a constructor"));
    }
    let d = match arg(args, 0) {
        Value::Undefined => None,
        v => Some(vm.to_string(v)?),
    };
    Ok(Value::Sym(vm.heap.new_symbol(d)?))
}

fn symbol_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let Value::Sym(s) = this else {
        return Err(vm.type_error("Symbol.prototype.toString requires that 'this' be a Symbol"));
    };
    let d = vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
    vm.str_val(&format!("Symbol({d})"))
}

// ----- Map and Set --------------------------------------------------------------------------

fn map_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    };
    if vm.heap.obj(o).proto != vm.intr.map_proto && !matches!(vm.heap.obj(o).kind, Kind::Ordinary) {
        return Err(vm.type_error("Constructor Map requires 'new'"));
    }
    vm.heap.obj_mut(o).kind = Kind::Map(Vec::new());
    if !arg(args, 0).is_nullish() {
        for it in vm.iterate_fast(arg(args, 0))? {
            let k = vm.get_value(it, Key::Index(0))?;
            let v = vm.get_value(it, Key::Index(1))?;
            map_set(vm, this, &[k, v])?;
        }
    }
    Ok(this)
}

fn map_entries_of(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Map(_)) => Ok(o),
        _ => Err(vm.type_error(&format!(
            "Method Map.prototype.{method} called on incompatible receiver"
        ))),
    }
}

fn norm_key(v: Value) -> Value {
    match v {
        // -0 + 0 is +0: Map and Set keys treat -0 as 0.
        Value::Num(n) => Value::Num(n + 0.0),
        v => v,
    }
}

fn map_find(vm: &Vm, o: ObjId, k: Value) -> Option<usize> {
    let Kind::Map(e) = &vm.heap.obj(o).kind else {
        return None;
    };
    e.iter()
        .position(|(x, _)| *x != Value::Empty && vm.same_value_zero(*x, k))
}

fn map_get(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "get")?;
    vm.work(1 + vm.heap.obj(o).props.list.len());
    Ok(match map_find(vm, o, arg(args, 0)) {
        Some(i) => match &vm.heap.obj(o).kind {
            Kind::Map(e) => e[i].1,
            _ => Value::Undefined,
        },
        None => Value::Undefined,
    })
}

fn map_set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "set")?;
    let k = norm_key(arg(args, 0));
    let v = arg(args, 1);
    let found = map_find(vm, o, k);
    if found.is_none() {
        vm.heap.charge(2 * crate::heap::VALUE_BYTES)?;
    }
    if let Kind::Map(e) = &mut vm.heap.obj_mut(o).kind {
        match found {
            Some(i) => e[i].1 = v,
            None => e.push((k, v)),
        }
    }
    Ok(this)
}

fn map_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "has")?;
    Ok(Value::Bool(map_find(vm, o, arg(args, 0)).is_some()))
}

fn map_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "delete")?;
    let found = map_find(vm, o, arg(args, 0));
    if let (Some(i), Kind::Map(e)) = (found, &mut vm.heap.obj_mut(o).kind) {
        e.remove(i);
        return Ok(Value::Bool(true));
    }
    Ok(Value::Bool(false))
}

fn map_clear(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "clear")?;
    if let Kind::Map(e) = &mut vm.heap.obj_mut(o).kind {
        e.clear();
    }
    Ok(Value::Undefined)
}

fn map_size(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Num(match arg(args, 0) {
        Value::Obj(o) => match &vm.heap.obj(o).kind {
            Kind::Map(e) => e.len() as f64,
            Kind::Set(e) => e.len() as f64,
            _ => return Err(vm.type_error("size called on incompatible receiver")),
        },
        _ => return Err(vm.type_error("size called on incompatible receiver")),
    }))
}

fn list_iter(vm: &mut Vm, items: Vec<Value>) -> Res<Value> {
    let o = vm.heap.new_obj(
        vm.intr.iterator_proto,
        Kind::Iterator(Iter::List { items, pos: 0 }),
    )?;
    Ok(Value::Obj(o))
}

fn map_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "keys")?;
    let items = match &vm.heap.obj(o).kind {
        Kind::Map(e) => e.iter().map(|(k, _)| *k).collect(),
        _ => Vec::new(),
    };
    list_iter(vm, items)
}

fn map_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "values")?;
    let items = match &vm.heap.obj(o).kind {
        Kind::Map(e) => e.iter().map(|(_, v)| *v).collect(),
        _ => Vec::new(),
    };
    list_iter(vm, items)
}

fn map_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = map_entries_of(vm, this, "entries")?;
    let pairs = match &vm.heap.obj(o).kind {
        Kind::Map(e) => e.clone(),
        _ => Vec::new(),
    };
    let mut items = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        items.push(vm.new_array(vec![k, v])?);
    }
    list_iter(vm, items)
}

fn set_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Constructor Set requires 'new'"));
    };
    vm.heap.obj_mut(o).kind = Kind::Set(Vec::new());
    if !arg(args, 0).is_nullish() {
        for v in vm.iterate_fast(arg(args, 0))? {
            set_add(vm, this, &[v])?;
        }
    }
    Ok(this)
}

fn set_of(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Set(_)) => Ok(o),
        _ => Err(vm.type_error(&format!(
            "Method Set.prototype.{method} called on incompatible receiver"
        ))),
    }
}

fn set_find(vm: &Vm, o: ObjId, k: Value) -> Option<usize> {
    let Kind::Set(e) = &vm.heap.obj(o).kind else {
        return None;
    };
    e.iter().position(|x| vm.same_value_zero(*x, k))
}

fn set_add(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "add")?;
    let k = norm_key(arg(args, 0));
    if set_find(vm, o, k).is_none() {
        vm.heap.charge(crate::heap::VALUE_BYTES)?;
        if let Kind::Set(e) = &mut vm.heap.obj_mut(o).kind {
            e.push(k);
        }
    }
    Ok(this)
}

fn set_has(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "has")?;
    Ok(Value::Bool(set_find(vm, o, arg(args, 0)).is_some()))
}

fn set_delete(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "delete")?;
    let found = set_find(vm, o, arg(args, 0));
    if let (Some(i), Kind::Set(e)) = (found, &mut vm.heap.obj_mut(o).kind) {
        e.remove(i);
        return Ok(Value::Bool(true));
    }
    Ok(Value::Bool(false))
}

fn set_clear(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "clear")?;
    if let Kind::Set(e) = &mut vm.heap.obj_mut(o).kind {
        e.clear();
    }
    Ok(Value::Undefined)
}

fn set_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = set_of(vm, this, "values")?;
    let items = match &vm.heap.obj(o).kind {
        Kind::Set(e) => e.clone(),
        _ => Vec::new(),
    };
    list_iter(vm, items)
}

// ----- helpers for the prelude --------------------------------------------------------------

fn intr_to_length(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let v = arg(args, 0);
    if let Value::Obj(o) = v
        && let Kind::Array(e) | Kind::Arguments(e) = &vm.heap.obj(o).kind
    {
        return Ok(Value::Num(e.len() as f64));
    }
    let l = vm.get_simple(v, "length")?;
    let n = to_integer(vm, l)?;
    Ok(Value::Num(n.clamp(0.0, 9007199254740991.0)))
}

fn intr_is_callable(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_))),
    ))
}

/// `defineHidden(obj, name, fn)`: install a prelude function as a non-enumerable method.
fn intr_define_hidden(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(o) = arg(args, 0) else {
        return Ok(Value::Undefined);
    };
    let key = vm.to_key(arg(args, 1))?;
    vm.define(o, key, Slot::Data(arg(args, 2)), HIDDEN_ATTRS)?;
    Ok(Value::Undefined)
}

fn intr_throw_type_error(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let m = vm.to_rust_string(arg(args, 0))?;
    Err(vm.type_error(&m))
}

fn intr_to_str(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Str(vm.to_string(arg(args, 0))?))
}

fn intr_set_length(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let k = vm.heap.key("length");
    vm.set_value(arg(args, 0), k, arg(args, 1))?;
    Ok(Value::Undefined)
}
