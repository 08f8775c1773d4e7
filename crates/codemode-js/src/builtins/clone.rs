//! `structuredClone(value)`: the HTML standard's structured serialize and deserialize in one
//! walk, for what this machine has: primitives, plain objects (own enumerable string keys;
//! getters are read and their values copied; the prototype is not kept), arrays (holes and
//! extra properties kept), Date, RegExp, Map, Set, the Error types (`message` and `cause`),
//! Uint8Array (views of one buffer still share their copy), boxed primitives. Cycles and
//! shared references come out as in the original. Functions, symbols, promises, WeakMap,
//! WeakSet, iterators and generators throw node's `DataCloneError` (`() => 1 could not be
//! cloned.`).
//!
//! The walk never recurses on the Rust stack: each object gets its copy (empty) when first
//! met and a task that fills it later, on an explicit stack; every value costs a unit of
//! work and every copy is charged like any allocation. A getter is user code: reading one
//! ends this native with a detour, and the clone starts again once the getter has run
//! (its result is then at hand), as other natives do.

use super::*;
use std::collections::HashMap;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[("structuredClone", structured_clone, 1)];

/// A copy still to fill from its original.
enum Task {
    /// Own enumerable string-keyed properties (plain objects and arrays).
    Props(ObjId, ObjId),
    /// Map entries or Set members.
    Table(ObjId, ObjId, collections::Coll),
    /// An error's `cause`.
    Cause(Value, ObjId),
}

struct Walk {
    /// Original → copy (buffers too).
    memo: HashMap<ObjId, ObjId>,
    tasks: Vec<Task>,
}

fn structured_clone(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if args.is_empty() {
        return Err(super::text::coded(
            vm,
            vm.intr.type_error_proto,
            "ERR_MISSING_ARGS",
            "The value argument must be specified",
        ));
    }
    let mut w = Walk {
        memo: HashMap::new(),
        tasks: Vec::new(),
    };
    let root = copy(vm, &mut w, args[0])?;
    while let Some(t) = w.tasks.pop() {
        match t {
            Task::Props(src, dst) => {
                for k in own_keys(vm, src, true) {
                    if matches!(k, Key::Sym(_)) {
                        continue;
                    }
                    let v = vm.get_value(Value::Obj(src), k)?;
                    let c = copy(vm, &mut w, v)?;
                    vm.define(dst, k, Slot::Data(c), DEFAULT_ATTRS)?;
                }
            }
            Task::Table(src, dst, coll) => {
                let entries: Vec<(Value, Value)> = match collections::table(vm, src, coll) {
                    Some(t) => t.iter().collect(),
                    None => Vec::new(),
                };
                for (k, v) in entries {
                    let ck = copy(vm, &mut w, k)?;
                    let cv = if coll == collections::Coll::Set {
                        ck
                    } else {
                        copy(vm, &mut w, v)?
                    };
                    collections::put(vm, dst, coll, ck, cv)?;
                }
            }
            Task::Cause(v, dst) => {
                let c = copy(vm, &mut w, v)?;
                let k = vm.heap.key("cause");
                vm.define(dst, k, Slot::Data(c), HIDDEN_ATTRS)?;
            }
        }
    }
    Ok(root)
}

/// node's `DataCloneError` for `v`.
fn not_cloneable(vm: &mut Vm, v: Value) -> Throw {
    let shown = match v {
        Value::Obj(o) if vm.is_callable(v) => match function_to_string(vm, v, &[]) {
            Ok(Value::Str(s)) => vm.heap.str(s).to_rust(),
            _ => vm.object_label(o),
        },
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::Coro(_) => "[object Generator]".to_string(),
            _ => vm.object_label(o),
        },
        Value::Sym(_) => super::inspect(vm, v).unwrap_or_default(),
        _ => String::new(),
    };
    super::web::dom_exception(
        vm,
        "DataCloneError",
        25,
        &format!("{shown} could not be cloned."),
    )
}

/// The copy of `v`: a primitive itself, an object's copy (made now, filled by a task).
fn copy(vm: &mut Vm, w: &mut Walk, v: Value) -> Res<Value> {
    vm.work_check(1)?;
    let o = match v {
        Value::Sym(_) => return Err(not_cloneable(vm, v)),
        Value::Obj(o) => o,
        v => return Ok(v),
    };
    if let Some(c) = w.memo.get(&o) {
        return Ok(Value::Obj(*c));
    }
    if let Kind::Bytes { buf, off, len } = vm.heap.obj(o).kind {
        let nb = match w.memo.get(&buf) {
            Some(b) => *b,
            None => {
                let data = super::bytes::bytes_of_buffer(vm, buf).to_vec();
                vm.work_check(data.len() / 64)?;
                vm.heap.charge(data.len())?;
                let nb = vm.heap.new_obj(None, Kind::Buffer(data))?;
                w.memo.insert(buf, nb);
                nb
            }
        };
        let c = vm
            .heap
            .new_obj(vm.platform.bytes_proto, Kind::Bytes { buf: nb, off, len })?;
        w.memo.insert(o, c);
        return Ok(Value::Obj(c));
    }
    let error = matches!(vm.heap.obj(o).kind, Kind::Error);
    let error_proto = if error { error_proto(vm, o)? } else { None };
    let (p, kind, task): (Option<ObjId>, Kind, u8) = match &vm.heap.obj(o).kind {
        Kind::Function(_)
        | Kind::Promise(_)
        | Kind::WeakMap(_)
        | Kind::WeakSet(_)
        | Kind::Iterator(_)
        | Kind::Coro(_)
        | Kind::Resolving(..)
        | Kind::ToolNs(_)
        | Kind::Buffer(_) => return Err(not_cloneable(vm, v)),
        Kind::Boolean(b) => (vm.intr.boolean_proto, Kind::Boolean(*b), 0),
        Kind::Number(n) => (vm.intr.number_proto, Kind::Number(*n), 0),
        Kind::String(s) => (vm.intr.string_proto, Kind::String(*s), 0),
        Kind::Date(t) => (vm.platform.date_proto, Kind::Date(*t), 0),
        Kind::RegExp(r) => (vm.intr.regexp_proto, Kind::RegExp(r.clone()), 5),
        Kind::Map(_) => (vm.intr.map_proto, Kind::Map(Default::default()), 2),
        Kind::Set(_) => (vm.intr.set_proto, Kind::Set(Default::default()), 3),
        Kind::Array(e) => {
            let mut e2 = Elems::new();
            e2.set_len(e.len());
            (vm.intr.array_proto, Kind::Array(e2), 1)
        }
        Kind::Error => (error_proto, Kind::Error, 4),
        _ => (vm.intr.object_proto, Kind::Ordinary, 1),
    };
    let c = vm.heap.new_obj(p, kind)?;
    w.memo.insert(o, c);
    match task {
        1 => w.tasks.push(Task::Props(o, c)),
        2 => w.tasks.push(Task::Table(o, c, collections::Coll::Map)),
        3 => w.tasks.push(Task::Table(o, c, collections::Coll::Set)),
        4 => {
            // `message` (an own data property, as a string) and `cause`.
            let mk = vm.heap.key("message");
            if let Some(crate::heap::Prop {
                slot: Slot::Data(m),
                ..
            }) = vm.own(o, mk)
            {
                let s = vm.to_string(m)?;
                vm.define(c, mk, Slot::Data(Value::Str(s)), HIDDEN_ATTRS)?;
            }
            let ck = vm.heap.key("cause");
            if vm.own(o, ck).is_some() {
                let cause = vm.get_value(v, ck)?;
                w.tasks.push(Task::Cause(cause, c));
            }
        }
        5 => {
            let k = vm.heap.key("lastIndex");
            vm.define(c, k, Slot::Data(Value::Num(0.0)), WRITABLE)?;
        }
        _ => {}
    }
    Ok(Value::Obj(c))
}

/// The prototype of an error's copy: its `name`'s among the standard error types, else
/// `Error.prototype` (the HTML standard's list).
fn error_proto(vm: &mut Vm, o: ObjId) -> Res<Option<ObjId>> {
    let n = vm.get_simple(Value::Obj(o), "name")?;
    let name = match n {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    };
    let i = &vm.intr;
    Ok(match name.as_str() {
        "EvalError" => i.eval_error_proto,
        "RangeError" => i.range_error_proto,
        "ReferenceError" => i.reference_error_proto,
        "SyntaxError" => i.syntax_error_proto,
        "TypeError" => i.type_error_proto,
        "URIError" => i.uri_error_proto,
        _ => i.error_proto,
    })
}
