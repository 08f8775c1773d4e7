//! `Array`, `Array.prototype` (the natives; callback methods are in `prelude.js`) and the array iterator.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Array.prototype.keys", array_keys, 0),
    ("Array.prototype.entries", array_entries, 0),
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
    ("Array.prototype.copyWithin", array_copy_within, 2),
    ("Array.prototype.at", array_at, 1),
    ("Array.prototype.toString", array_to_string, 0),
    ("%ArrayIteratorPrototype%.next", array_iterator_next, 0),
    ("%MapIteratorPrototype%.next", map_iterator_next, 0),
    ("%SetIteratorPrototype%.next", set_iterator_next, 0),
    ("%StringIteratorPrototype%.next", string_iterator_next, 0),
    ("%Intrinsics%.stringIterator", string_iterator, 1),
];

pub(super) fn array_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if let [Value::Num(n)] = args {
        if *n < 0.0 || n.fract() != 0.0 || *n > MAX_ARRAY_LENGTH as f64 {
            return Err(vm.range_error("Invalid array length"));
        }
        return vm.new_array_of(Elems::holes(*n as u32));
    }
    vm.new_array(args.to_vec())
}

pub(super) fn array_is_array(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(
        matches!(arg(args, 0), Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_))),
    ))
}

pub(super) fn array_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    vm.new_array(args.to_vec())
}

/// The elements a native reads: an array's (or `arguments`') own, in place, or a copy of an
/// array-like's.
enum Src {
    Own(ObjId),
    Copy(Elems),
}

static NO_ELEMS: Elems = Elems::new();

impl Src {
    fn get<'a>(&'a self, vm: &'a Vm) -> &'a Elems {
        match self {
            Src::Own(o) => vm.elems(*o).unwrap_or(&NO_ELEMS),
            Src::Copy(e) => e,
        }
    }
}

/// The elements of `this` for a native that only reads them: an array's own, or a copy of an
/// array-like's (a primitive is boxed first, as ToObject does; `null` and `undefined` are a
/// TypeError).
fn src(vm: &mut Vm, this: Value, method: &str) -> Res<Src> {
    if let Value::Obj(o) = this
        && vm.elems(o).is_some()
    {
        return Ok(Src::Own(o));
    }
    if this.is_nullish() {
        return Err(vm.type_error(&format!(
            "Array.prototype.{method} called on null or undefined"
        )));
    }
    let o = to_object(vm, this)?;
    let items = vm.elements_of(o)?;
    Ok(Src::Copy(Elems::from_vec(items)))
}

/// For a receiver that is not an array (an array-like, a primitive): the prelude's generic
/// algorithm of `method` (`I.arrayGeneric` in `prelude.js`) as a tail call, its value the
/// call's. `None` for arrays and `arguments`, which the native changes in place.
/// An array whose prototypes hold indices (`Array.prototype[3] = x`, an index setter) takes
/// the generic algorithm too: its writes must find those setters and read-only indices.
fn generic(vm: &mut Vm, method: &str, this: Value, args: &[Value]) -> Option<Res<Value>> {
    if let Value::Obj(o) = this
        && vm.elems(o).is_some()
        && !vm.protos_have_indices(o)
    {
        return None;
    }
    Some(tail_generic(vm, method, this, args))
}

/// For a native that only reads: an array whose prototypes hold indices takes the generic
/// algorithm, whose [[Get]] of a hole finds them. `None` otherwise (the native goes on).
fn inherited(vm: &mut Vm, method: &str, this: Value, args: &[Value]) -> Option<Res<Value>> {
    match this {
        Value::Obj(o) if vm.elems(o).is_some() && vm.protos_have_indices(o) => {
            Some(tail_generic(vm, method, this, args))
        }
        _ => None,
    }
}

/// For an array whose result must come from ArraySpeciesCreate (§10.4.2.3): one whose
/// prototype is not `Array.prototype` (an instance of a subclass) or that has an own
/// `constructor`, the prelude's spec algorithm of `method` (slice, splice, concat in
/// `I.arrayGeneric`, which use `speciesCreate`) as a tail call. `None` for plain arrays.
fn species(vm: &mut Vm, method: &str, this: Value, args: &[Value]) -> Option<Res<Value>> {
    let Value::Obj(o) = this else { return None };
    let obj = vm.heap.obj(o);
    if !matches!(obj.kind, Kind::Array(_))
        || (obj.proto == vm.intr.array_proto && obj.props.find(vm.constructor_key).is_none())
    {
        return None;
    }
    Some(tail_generic(vm, method, this, args))
}

/// Tail-call `I.arrayGeneric[method]` with `this` and `args` (the native's value is the
/// call's).
fn tail_generic(vm: &mut Vm, method: &str, this: Value, args: &[Value]) -> Res<Value> {
    let Some(table) = vm.intr.array_generic else {
        return Err(vm.type_error(&format!("Array.prototype.{method} called on a non-array")));
    };
    let f = vm.get_simple(Value::Obj(table), method)?;
    vm.tail = Some(crate::vm::coro::Tail::Call {
        f,
        this,
        args: args.to_vec(),
        finish: crate::vm::coro::Finish::Normal,
    });
    Ok(Value::Undefined)
}

/// The array (or `arguments`) `this` a native changes in place, checked for a change to
/// length `new_len` (frozen, non-extensible and read-only-length arrays refuse; past
/// [`MAX_ARRAY_LENGTH`] is a RangeError), with `bytes` more storage fitting under the cap.
fn target(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if vm.elems(o).is_some() => Ok(o),
        Value::Obj(_) => {
            // An array-like's length and elements are read (their getters may throw) before
            // the refusal.
            vm.elements_of(this.obj().expect("an object"))?;
            Err(vm.type_error(&format!("Array.prototype.{method} called on a non-array")))
        }
        _ => Err(vm.type_error(&format!("Array.prototype.{method} called on a non-array"))),
    }
}

fn check_change(vm: &mut Vm, o: ObjId, new_len: usize, bytes: usize) -> Res<()> {
    let obj = vm.heap.obj(o);
    if obj.frozen_elements || !obj.extensible {
        return Err(vm.type_error("Cannot modify a frozen array"));
    }
    if new_len > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    let old = vm.elems(o).map_or(0, |e| e.len());
    if vm.heap.obj(o).length_readonly && new_len != old {
        let k = vm.heap.key("length");
        return Err(vm.read_only(o, k));
    }
    vm.heap.fits(bytes)?;
    Ok(())
}

/// A hole read by a native that does not look at prototypes: `undefined`.
fn or_undefined(v: Option<Value>) -> Value {
    v.unwrap_or(Value::Undefined)
}

pub(super) fn array_push(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "push", this, args) {
        return r;
    }
    let Value::Obj(o) = this else {
        return Err(vm.type_error("Array.prototype.push called on a non-array"));
    };
    if vm.heap.obj(o).frozen_elements || !vm.heap.obj(o).extensible {
        return Err(vm.type_error("Cannot add property, object is not extensible"));
    }
    if vm.heap.obj(o).length_readonly && !args.is_empty() {
        let k = vm.heap.key("length");
        return Err(vm.read_only(o, k));
    }
    let (n, grow) = match &vm.heap.obj(o).kind {
        Kind::Array(e) => (
            e.len(),
            e.growth_for(e.len() + args.len().saturating_sub(1)),
        ),
        _ => return Err(vm.type_error("Array.prototype.push called on a non-array")),
    };
    if n + args.len() > MAX_ARRAY_LENGTH {
        return Err(vm.range_error("Invalid array length"));
    }
    vm.heap
        .fits(grow + args.len() * crate::heap::SPARSE_ENTRY_BYTES)?;
    vm.work(args.len());
    vm.elems_mut(o, |e| {
        for v in args {
            e.push(*v);
        }
        Value::Num(e.len() as f64)
    })
}

pub(super) fn array_pop(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "pop", this, args) {
        return r;
    }
    let o = target(vm, this, "pop")?;
    let len = vm.elems(o).map_or(0, |e| e.len());
    check_change(vm, o, len.saturating_sub(1), 0)?;
    let v = vm.elems_mut(o, |e| e.pop())?;
    Ok(match v {
        Some(Value::Empty) | None => Value::Undefined,
        Some(v) => v,
    })
}

/// `splice` in place on array `o`: the removed elements; work charged by what moves.
fn splice_in_place(
    vm: &mut Vm,
    o: ObjId,
    start: usize,
    count: usize,
    items: &[Value],
) -> Res<Elems> {
    let len = vm.elems(o).map_or(0, |e| e.len());
    let new_len = len - count + items.len();
    let moved = vm.elems(o).map_or(0, |e| {
        if e.is_flat() {
            e.len() - start
        } else {
            e.count_in(start, e.len())
        }
    });
    let bytes = vm.elems(o).map_or(0, |e| e.bytes_for(start, e.len()));
    check_change(
        vm,
        o,
        new_len,
        items.len() * crate::heap::SPARSE_ENTRY_BYTES + bytes,
    )?;
    vm.work(1 + (moved + items.len()) / 8);
    vm.elems_mut(o, |e| e.splice(start, count, items))
}

pub(super) fn array_shift(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "shift", this, args) {
        return r;
    }
    let o = target(vm, this, "shift")?;
    if vm.elems(o).is_some_and(|e| e.is_empty()) {
        return Ok(Value::Undefined);
    }
    let removed = splice_in_place(vm, o, 0, 1, &[])?;
    Ok(or_undefined(removed.get(0)))
}

pub(super) fn array_unshift(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "unshift", this, args) {
        return r;
    }
    let o = target(vm, this, "unshift")?;
    splice_in_place(vm, o, 0, 0, args)?;
    Ok(Value::Num(vm.elems(o).map_or(0, |e| e.len()) as f64))
}

pub(super) fn array_slice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    // An array-like takes the spec's algorithm: it reads only the indices it copies, and its
    // ArraySpeciesCreate refuses a length past 2^32 - 1 with a RangeError.
    if let Some(r) = generic(vm, "slice", this, args).or_else(|| species(vm, "slice", this, args)) {
        return r;
    }
    let s = src(vm, this, "slice")?;
    let len = s.get(vm).len();
    let from = rel_index(vm, arg(args, 0), len, 0)?;
    let to = rel_index(vm, arg(args, 1), len, len)?.max(from);
    let bytes = s.get(vm).bytes_for(from, to);
    vm.heap.fits(bytes)?;
    vm.work(bytes / crate::heap::VALUE_BYTES);
    let part = s.get(vm).slice(from, to);
    vm.new_array_of(part)
}

pub(super) fn array_splice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "splice", this, args).or_else(|| species(vm, "splice", this, args))
    {
        return r;
    }
    let o = target(vm, this, "splice")?;
    let len = vm.elems(o).map_or(0, |e| e.len());
    let start = rel_index(vm, arg(args, 0), len, 0)?;
    let count = match args.len() {
        0 => 0,
        1 => len - start,
        _ => {
            let c = to_integer(vm, args[1])?;
            (c.max(0.0).min(len as f64) as usize).min(len - start)
        }
    };
    // The conversions may have run user code that changed the array.
    let len = vm.elems(o).map_or(0, |e| e.len());
    let start = start.min(len);
    let count = count.min(len - start);
    let removed = splice_in_place(vm, o, start, count, args.get(2..).unwrap_or(&[]))?;
    vm.new_array_of(removed)
}

pub(super) fn array_concat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = species(vm, "concat", this, args) {
        return r;
    }
    // The spec's algorithm when a hole of an array reads through its prototypes (they hold
    // indices) or an object says whether it spreads (`Symbol.isConcatSpreadable`, anywhere on
    // its chain: a getter there runs in the generic algorithm).
    let spreadable = vm.intr.sym_is_concat_spreadable.map(Key::Sym);
    let generic = std::iter::once(&this).chain(args).any(|v| match *v {
        Value::Obj(o) => {
            (matches!(vm.heap.obj(o).kind, Kind::Array(_)) && vm.protos_have_indices(o))
                || spreadable.is_some_and(|k| vm.has_property(Value::Obj(o), k))
        }
        _ => false,
    });
    if generic {
        return tail_generic(vm, "concat", this, args);
    }
    // A receiver that is not an array is one element (boxed, as ToObject makes it).
    let mut out = match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Array(_)) => {
            let e = vm.elems(o).unwrap_or(&NO_ELEMS);
            e.slice(0, e.len())
        }
        v if v.is_nullish() => {
            return Err(vm.type_error("Array.prototype.concat called on null or undefined"));
        }
        v => {
            let o = to_object(vm, v)?;
            Elems::from_vec(vec![Value::Obj(o)])
        }
    };
    for a in args {
        let (n, bytes) = match a {
            Value::Obj(o) if matches!(vm.heap.obj(*o).kind, Kind::Array(_)) => {
                let e = vm.elems(*o).unwrap_or(&NO_ELEMS);
                (e.len(), e.bytes_for(0, e.len()))
            }
            _ => (1, crate::heap::SPARSE_ENTRY_BYTES),
        };
        if out.len() + n > MAX_ARRAY_LENGTH {
            return Err(vm.range_error("Invalid array length"));
        }
        vm.heap.fits(out.bytes() + bytes)?;
        vm.work(bytes / crate::heap::VALUE_BYTES);
        match a {
            Value::Obj(o) if matches!(vm.heap.obj(*o).kind, Kind::Array(_)) => {
                let e = vm.elems(*o).unwrap_or(&NO_ELEMS);
                out.append(e);
            }
            v => out.push(*v),
        }
    }
    vm.new_array_of(out)
}

pub(super) fn array_join(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = inherited(vm, "join", this, args) {
        return r;
    }
    let s = src(vm, this, "join")?;
    let sep = match arg(args, 0) {
        Value::Undefined => JsStr::from_str(","),
        v => to_str_arg(vm, v)?,
    };
    let sep = sep.units();
    let len = s.get(vm).len();
    if len > 1 && (len - 1).saturating_mul(sep.len()) > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    let mut units: Vec<u16> = Vec::new();
    // Elements are read one at a time (converting one may run user code that changes the
    // array); `at`: the first index not yet written. A separator goes before every index
    // past 0, holes included.
    let mut at = 0usize;
    loop {
        let next = s.get(vm).range(at, len).next();
        let Some((i, v)) = next else { break };
        push_seps(&mut units, &sep, i + 1 - at.max(1).min(i + 1));
        at = i + 1;
        // (An array inside itself joins as empty, as V8's cycle check does.)
        let itself = matches!(v, Value::Obj(_)) && this.obj() == v.obj();
        if !matches!(v, Value::Undefined | Value::Null) && !itself {
            let st = to_str_arg(vm, v)?;
            units.extend(st.units());
        }
        if units.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
        vm.work_check(1)?;
    }
    push_seps(&mut units, &sep, len.saturating_sub(at.max(1)));
    if units.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.work_check(units.len() / 16)?;
    vm.js_str(JsStr::from_units(units))
}

/// `n` separators (the caller has bounded the total).
fn push_seps(units: &mut Vec<u16>, sep: &[u16], n: usize) {
    for _ in 0..n {
        units.extend_from_slice(sep);
    }
}

pub(super) fn array_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_join(vm, this, &[])
}

pub(super) fn array_reverse(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "reverse", this, args) {
        return r;
    }
    let o = target(vm, this, "reverse")?;
    let len = vm.elems(o).map_or(0, |e| e.len());
    if len <= 1 {
        // Nothing to swap, so nothing is written (§23.1.3.26): a frozen `[x]` is no error.
        return Ok(this);
    }
    let bytes = vm.elems(o).map_or(0, |e| e.bytes_for(0, len));
    check_change(vm, o, len, bytes)?;
    vm.work(bytes / crate::heap::VALUE_BYTES);
    vm.elems_mut(o, |e| e.reverse())?;
    Ok(this)
}

/// The first (or, `rev`, last) present element of `s` in `from..to` for which `hit` holds,
/// scanned in chunks with a work check between them.
fn find_in(
    vm: &mut Vm,
    s: &Src,
    from: usize,
    to: usize,
    rev: bool,
    hit: impl Fn(&Vm, Value) -> bool,
) -> Res<Option<usize>> {
    let (mut lo, mut hi) = (from, to);
    while lo < hi {
        let e = s.get(vm);
        let d = e.dense().len();
        // A chunk: WORK_CHUNK indices of the dense prefix, or WORK_CHUNK sparse elements.
        let (a, b) = if rev {
            if hi <= d {
                (hi.saturating_sub(WORK_CHUNK).max(lo), hi)
            } else {
                (lo.max(d), hi)
            }
        } else if lo < d {
            (lo, (lo + WORK_CHUNK).min(hi))
        } else {
            (lo, hi)
        };
        let mut seen = 0usize;
        let mut last = None;
        let mut found = None;
        {
            let it = e.range(a, b);
            let mut step = |(i, v): (usize, Value)| {
                seen += 1;
                last = Some(i);
                if hit(vm, v) {
                    found = Some(i);
                    return true;
                }
                seen >= WORK_CHUNK
            };
            if rev {
                for x in it.rev() {
                    if step(x) {
                        break;
                    }
                }
            } else {
                for x in it {
                    if step(x) {
                        break;
                    }
                }
            }
        }
        vm.work_check(1 + (b - a).min(WORK_CHUNK) / 4)?;
        if found.is_some() {
            return Ok(found);
        }
        let full = seen >= WORK_CHUNK;
        if rev {
            hi = if full { last.unwrap_or(a) } else { a };
        } else {
            lo = if full { last.map_or(b, |i| i + 1) } else { b };
        }
    }
    Ok(None)
}

pub(super) fn array_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = inherited(vm, "indexOf", this, args) {
        return r;
    }
    let s = src(vm, this, "indexOf")?;
    let len = s.get(vm).len();
    let from = rel_index(vm, arg(args, 1), len, 0)?;
    let t = arg(args, 0);
    let at = find_in(vm, &s, from, len, false, |vm, v| vm.strict_equals(v, t))?;
    Ok(Value::Num(at.map_or(-1.0, |i| i as f64)))
}

pub(super) fn array_last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = inherited(vm, "lastIndexOf", this, args) {
        return r;
    }
    let s = src(vm, this, "lastIndexOf")?;
    let len = s.get(vm).len();
    if len == 0 {
        return Ok(Value::Num(-1.0));
    }
    // fromIndex (ECMA-262 §23.1.3.20): absent is len - 1; negative counts from the end.
    let end = if args.len() > 1 {
        let n = to_integer(vm, args[1])?;
        if n >= 0.0 {
            (n.min(len as f64 - 1.0) as usize) + 1
        } else {
            let k = len as f64 + n;
            if k < 0.0 {
                return Ok(Value::Num(-1.0));
            }
            k as usize + 1
        }
    } else {
        len
    };
    let t = arg(args, 0);
    let at = find_in(vm, &s, 0, end, true, |vm, v| vm.strict_equals(v, t))?;
    Ok(Value::Num(at.map_or(-1.0, |i| i as f64)))
}

pub(super) fn array_includes(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = inherited(vm, "includes", this, args) {
        return r;
    }
    let s = src(vm, this, "includes")?;
    let len = s.get(vm).len();
    let from = rel_index(vm, arg(args, 1), len, 0)?;
    let t = arg(args, 0);
    // A hole reads as undefined.
    if t == Value::Undefined && s.get(vm).count_in(from, len) < len - from.min(len) {
        return Ok(Value::Bool(true));
    }
    let at = find_in(vm, &s, from, len, false, |vm, v| vm.same_value_zero(v, t))?;
    Ok(Value::Bool(at.is_some()))
}

pub(super) fn array_fill(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "fill", this, args) {
        return r;
    }
    let o = target(vm, this, "fill")?;
    let len = vm.elems(o).map_or(0, |e| e.len());
    let from = rel_index(vm, arg(args, 1), len, 0)?;
    let to = rel_index(vm, arg(args, 2), len, len)?;
    if from >= to {
        return Ok(this);
    }
    let dense = vm.elems(o).map_or(0, |e| e.dense().len());
    let grow = (to.saturating_sub(dense.max(from))) * crate::heap::VALUE_BYTES * 2;
    check_change(vm, o, len, grow)?;
    vm.work_check((to - from) / 8)?;
    let v = arg(args, 0);
    vm.elems_mut(o, |e| e.fill(v, from, to))?;
    Ok(this)
}

pub(super) fn array_copy_within(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = generic(vm, "copyWithin", this, args) {
        return r;
    }
    let o = target(vm, this, "copyWithin")?;
    let len = vm.elems(o).map_or(0, |e| e.len());
    let to = rel_index(vm, arg(args, 0), len, 0)?;
    let from = rel_index(vm, arg(args, 1), len, 0)?;
    let end = rel_index(vm, arg(args, 2), len, len)?;
    let count = end.saturating_sub(from).min(len - to);
    if count == 0 {
        return Ok(this);
    }
    let bytes = vm.elems(o).map_or(0, |e| e.bytes_for(from, from + count));
    check_change(vm, o, len, 2 * bytes)?;
    vm.work_check(bytes / crate::heap::VALUE_BYTES)?;
    vm.elems_mut(o, |e| e.copy_within(to, from, count))?;
    Ok(this)
}

pub(super) fn array_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Some(r) = inherited(vm, "at", this, args) {
        return r;
    }
    let s = src(vm, this, "at")?;
    let len = s.get(vm).len();
    let i = to_integer(vm, arg(args, 0))?;
    let i = if i < 0.0 { len as f64 + i } else { i };
    if i < 0.0 || i >= len as f64 {
        return Ok(Value::Undefined);
    }
    Ok(or_undefined(s.get(vm).get(i as usize)))
}

pub(super) fn array_iter(vm: &mut Vm, this: Value, kind: u8) -> Res<Value> {
    if this.is_nullish() {
        return Err(vm.type_error("Array.prototype.values called on null or undefined"));
    }
    // ToObject: a primitive receiver (`Array.prototype.values.call("ab")`) is boxed.
    let this = match this {
        Value::Obj(_) => this,
        v => Value::Obj(to_object(vm, v)?),
    };
    let o = vm.heap.new_obj(
        vm.intr.array_iter_proto,
        Kind::Iterator(Iter::Array {
            target: this,
            pos: 0,
            kind,
        }),
    )?;
    Ok(Value::Obj(o))
}

pub(super) fn array_values(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 0)
}
pub(super) fn array_keys(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 1)
}
pub(super) fn array_entries(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    array_iter(vm, this, 2)
}

/// Which built-in iterators a branded `next` steps.
#[derive(Clone, Copy, PartialEq)]
enum Brand {
    Array,
    Map,
    Set,
    String,
    /// A list made up front (URLSearchParams).
    List,
}

impl Brand {
    fn name(self) -> &'static str {
        match self {
            Brand::Array => "Array Iterator",
            Brand::Map => "Map Iterator",
            Brand::Set => "Set Iterator",
            Brand::String => "String Iterator",
            Brand::List => "Iterator",
        }
    }
}

fn brand_of(vm: &Vm, this: Value) -> Option<Brand> {
    let Value::Obj(o) = this else { return None };
    let Kind::Iterator(state) = &vm.heap.obj(o).kind else {
        return None;
    };
    Some(match state {
        Iter::Array { .. } => Brand::Array,
        Iter::Str { .. } => Brand::String,
        Iter::List { .. } => Brand::List,
        Iter::Table { target, .. } => match vm.heap.obj(*target).kind {
            Kind::Map(_) => Brand::Map,
            _ => Brand::Set,
        },
    })
}

fn array_iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    branded_next(vm, this, Brand::Array)
}
fn map_iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    branded_next(vm, this, Brand::Map)
}
fn set_iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    branded_next(vm, this, Brand::Set)
}
fn string_iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    branded_next(vm, this, Brand::String)
}
pub(super) fn list_iterator_next(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    branded_next(vm, this, Brand::List)
}

/// `stringIterator(s)`: %StringIteratorPrototype% over the code points of the string `s`.
fn string_iterator(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_string(arg(args, 0))?;
    let o = vm.heap.new_obj(
        vm.intr.string_iter_proto,
        Kind::Iterator(Iter::Str { s, pos: 0 }),
    )?;
    Ok(Value::Obj(o))
}

/// `%XIteratorPrototype%.next()` (§23.1.5.2.1, §24.1.5.2.1, §24.2.6.2.1, §22.1.5.2.1): one
/// step of a built-in iterator of that kind; another receiver is a TypeError as V8 words it.
fn branded_next(vm: &mut Vm, this: Value, brand: Brand) -> Res<Value> {
    if brand_of(vm, this) != Some(brand) {
        let s = crate::builtins::inspect(vm, this)?;
        return Err(vm.type_error(&format!(
            "Method {}.prototype.next called on incompatible receiver {s}",
            brand.name()
        )));
    }
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
