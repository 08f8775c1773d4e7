//! `Uint8Array`, the one typed array (the others, `DataView` and `ArrayBuffer` as a global are
//! not there): the constructor from a length, an array, a Set or Map or string, another
//! Uint8Array or an array-like; indexing with ToUint8 wrap; `length`, `byteLength`,
//! `byteOffset`; the byte methods (`set`, `subarray`, `slice`, `fill`, `indexOf`, `join`, ...)
//! and the TC39 base64 and hex methods (`Uint8Array.fromBase64`, `fromHex`, `toBase64`,
//! `toHex`, `setFromBase64`, `setFromHex`, ECMA-262 2025 / proposal-arraybuffer-base64).
//! The methods that call user code (`map`, `forEach`, `reduce`, `sort` with a comparator,
//! `Uint8Array.from` ...) are in `prelude.js`.
//!
//! The bytes are stored compactly: a view ([`Kind::Bytes`]: a buffer object, an offset and a
//! length) over a hidden buffer object ([`Kind::Buffer`], one `Vec<u8>`, charged one byte per
//! byte). `subarray` makes a second view of the same buffer (writes show through both, as in
//! node); `u8.buffer` is not there (no ArrayBuffer).

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Uint8Array", ctor, 3),
    ("Uint8Array.of", of, 0),
    ("Uint8Array.fromBase64", from_base64, 1),
    ("Uint8Array.fromHex", from_hex, 1),
    ("Uint8Array.prototype.length", get_length, 0),
    ("Uint8Array.prototype.byteLength", get_byte_length, 0),
    ("Uint8Array.prototype.byteOffset", get_offset, 0),
    ("Uint8Array.prototype.set", set, 1),
    ("Uint8Array.prototype.subarray", subarray, 2),
    ("Uint8Array.prototype.slice", slice, 2),
    ("Uint8Array.prototype.fill", fill, 1),
    ("Uint8Array.prototype.indexOf", index_of, 1),
    ("Uint8Array.prototype.lastIndexOf", last_index_of, 1),
    ("Uint8Array.prototype.includes", includes, 1),
    ("Uint8Array.prototype.join", join, 1),
    ("Uint8Array.prototype.toString", to_string, 0),
    ("Uint8Array.prototype.at", at, 1),
    ("Uint8Array.prototype.reverse", reverse, 0),
    ("Uint8Array.prototype.values", array::array_values, 0),
    ("Uint8Array.prototype.keys", array::array_keys, 0),
    ("Uint8Array.prototype.entries", array::array_entries, 0),
    ("Uint8Array.prototype.toBase64", to_base64, 0),
    ("Uint8Array.prototype.toHex", to_hex, 0),
    ("Uint8Array.prototype.setFromBase64", set_from_base64, 1),
    ("Uint8Array.prototype.setFromHex", set_from_hex, 1),
    ("%Intrinsics%.bytesLength", bytes_length, 1),
];

/// The accessors of `Uint8Array.prototype`.
const ACCESSORS: &[&str] = &["length", "byteLength", "byteOffset"];

/// The bytes a buffer holds besides its object (for the collector's count).
pub fn extra_bytes(kind: &Kind) -> usize {
    match kind {
        Kind::Buffer(b) => b.len(),
        _ => 0,
    }
}

/// After the natives are in: the accessors, `Symbol.iterator`, `BYTES_PER_ELEMENT`.
pub fn setup(vm: &mut Vm) -> Res<()> {
    let Some(proto) = vm.platform.bytes_proto else {
        return Ok(());
    };
    super::platform::getters(vm, proto, ACCESSORS, CONFIGURABLE)?;
    let values = vm.get_simple(Value::Obj(proto), "values")?;
    if let Some(sym) = vm.intr.sym_iterator {
        vm.define(proto, Key::Sym(sym), Slot::Data(values), HIDDEN_ATTRS)?;
    }
    let ctor = vm.get_simple(Value::Obj(proto), "constructor")?;
    let k = vm.heap.key("BYTES_PER_ELEMENT");
    for o in [Value::Obj(proto), ctor] {
        if let Value::Obj(o) = o {
            vm.define(o, k, Slot::Data(Value::Num(1.0)), 0)?;
        }
    }
    Ok(())
}

// ----- the storage ----------------------------------------------------------------------

/// The view `o` is: its buffer, offset and length.
pub fn view(vm: &Vm, o: ObjId) -> Option<(ObjId, usize, usize)> {
    match vm.heap.obj(o).kind {
        Kind::Bytes { buf, off, len } => Some((buf, off as usize, len as usize)),
        _ => None,
    }
}

/// The bytes of the Uint8Array `o` (empty for other objects).
pub fn bytes_of(vm: &Vm, o: ObjId) -> &[u8] {
    let Some((buf, off, len)) = view(vm, o) else {
        return &[];
    };
    bytes_of_buffer(vm, buf).get(off..off + len).unwrap_or(&[])
}

/// The bytes of the Uint8Array `o`, to write.
fn bytes_mut(vm: &mut Vm, o: ObjId) -> &mut [u8] {
    let Some((buf, off, len)) = view(vm, o) else {
        return &mut [];
    };
    match &mut vm.heap.obj_mut(buf).kind {
        Kind::Buffer(b) => b.get_mut(off..off + len).unwrap_or(&mut []),
        _ => &mut [],
    }
}

/// Element `i` of the Uint8Array `o`, if in bounds.
pub fn byte_at(vm: &Vm, o: ObjId, i: usize) -> Option<u8> {
    bytes_of(vm, o).get(i).copied()
}

/// Write element `i` of the Uint8Array `o` (out of bounds: nothing, as the spec says).
pub fn store(vm: &mut Vm, o: ObjId, i: usize, b: u8) {
    if let Some(x) = bytes_mut(vm, o).get_mut(i) {
        *x = b;
    }
}

/// ToUint8 of a number (ECMA-262 §7.1.11).
pub fn to_uint8(n: f64) -> u8 {
    if !n.is_finite() {
        return 0;
    }
    n.trunc().rem_euclid(256.0) as u8
}

/// Check that `n` more bytes fit, before they are allocated.
fn check_len(vm: &mut Vm, n: f64) -> Res<usize> {
    if !(0.0..=MAX_ARRAY_LENGTH as f64).contains(&n) {
        let shown = crate::number::to_string(n);
        return Err(vm.range_error(&format!("Invalid typed array length: {shown}")));
    }
    let n = n as usize;
    vm.heap.fits(n)?;
    vm.work_check(n / 64)?;
    Ok(n)
}

/// A new Uint8Array over `data` (charged here), with prototype `proto` (None: the intrinsic
/// one), into `into` when a constructor made the object.
fn wrap(vm: &mut Vm, data: Vec<u8>, into: Option<ObjId>) -> Res<ObjId> {
    let len = data.len();
    if len > MAX_ARRAY_LENGTH {
        return Err(vm.range_error(&format!("Invalid typed array length: {len}")));
    }
    vm.heap.charge(len)?;
    let buf = vm.heap.new_obj(None, Kind::Buffer(data))?;
    let kind = Kind::Bytes {
        buf,
        off: 0,
        len: len as u32,
    };
    Ok(match into {
        Some(o) => {
            vm.heap.obj_mut(o).kind = kind;
            o
        }
        None => vm.heap.new_obj(vm.platform.bytes_proto, kind)?,
    })
}

/// A new Uint8Array holding `data`.
pub fn new_bytes(vm: &mut Vm, data: Vec<u8>) -> Res<Value> {
    Ok(Value::Obj(wrap(vm, data, None)?))
}

/// All the bytes of the buffer object `buf`.
pub fn bytes_of_buffer(vm: &Vm, buf: ObjId) -> &[u8] {
    match &vm.heap.obj(buf).kind {
        Kind::Buffer(b) => b,
        _ => &[],
    }
}

/// A new view of `len` bytes at `off` of the buffer `buf`.
fn new_view(vm: &mut Vm, buf: ObjId, off: usize, len: usize) -> Res<Value> {
    let kind = Kind::Bytes {
        buf,
        off: off as u32,
        len: len as u32,
    };
    Ok(Value::Obj(vm.heap.new_obj(vm.platform.bytes_proto, kind)?))
}

/// The Uint8Array `this` is, else V8's TypeError.
fn this_bytes(vm: &mut Vm, this: Value) -> Res<ObjId> {
    if let Value::Obj(o) = this
        && view(vm, o).is_some()
    {
        return Ok(o);
    }
    Err(vm.type_error("this is not a typed array."))
}

/// The Uint8Array `this` is, else V8's TypeError naming `method` (the methods and getters
/// V8 words so).
fn this_for(vm: &mut Vm, this: Value, method: &str) -> Res<ObjId> {
    if let Value::Obj(o) = this
        && view(vm, o).is_some()
    {
        return Ok(o);
    }
    let shown = match this {
        Value::Obj(o) => vm.object_label(o),
        v => {
            let s = vm.to_string(v)?;
            vm.heap.str(s).to_rust()
        }
    };
    Err(vm.type_error(&format!(
        "Method {method} called on incompatible receiver {shown}"
    )))
}

// ----- the constructor and statics --------------------------------------------------------

/// `new Uint8Array(x)`: a length, another Uint8Array (copied), an iterable the machine walks
/// itself (arrays, strings, Set, Map, arguments), or an array-like.
fn ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Some(_), Value::Obj(o)) = (vm.native_construct, this) else {
        return Err(vm.type_error("Constructor Uint8Array requires 'new'"));
    };
    let data = match arg(args, 0) {
        Value::Obj(src) => {
            if view(vm, src).is_some() {
                let b = bytes_of(vm, src).to_vec();
                vm.work_check(b.len() / 64)?;
                b
            } else {
                let values = values_of(vm, Value::Obj(src))?;
                to_bytes(vm, &values)?
            }
        }
        Value::Undefined => Vec::new(),
        v => {
            let n = to_integer(vm, v)?;
            let n = check_len(vm, n)?;
            vec![0; n]
        }
    };
    wrap(vm, data, Some(o))?;
    Ok(this)
}

/// The values of an object the constructor reads: its iteration when the machine walks it
/// without user code, else its array-like elements.
fn values_of(vm: &mut Vm, src: Value) -> Res<Vec<Value>> {
    let iterable = match vm.intr.sym_iterator {
        Some(s) => !vm.get_value(src, Key::Sym(s))?.is_nullish(),
        None => false,
    };
    if iterable {
        if let Value::Obj(o) = src
            && let Kind::Array(e) = &vm.heap.obj(o).kind
        {
            // (A sparse array's holes become values here: they must fit first.)
            vm.heap
                .fits(e.len().saturating_mul(crate::heap::VALUE_BYTES))?;
            let Kind::Array(e) = &vm.heap.obj(o).kind else {
                return Ok(Vec::new());
            };
            let items = e.to_vec();
            vm.work_check(items.len())?;
            return Ok(items);
        }
        if !vm.spreads_fast(src) {
            return Err(vm.type_error(
                "new Uint8Array(iterable) takes arrays, strings, Sets, Maps and Uint8Arrays; for a generator or another iterable write `Uint8Array.from(iterable)`",
            ));
        }
        return vm.iterate_fast(src);
    }
    let len = vm.get_simple(src, "length")?;
    let n = to_integer(vm, len)?.max(0.0);
    let n = check_len(vm, n)?;
    vm.heap.fits(n * crate::heap::VALUE_BYTES)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        out.push(vm.get_value(src, Key::Index(i as u32))?);
        vm.work_check(1)?;
    }
    Ok(out)
}

/// ToUint8 of every value (holes are 0).
fn to_bytes(vm: &mut Vm, values: &[Value]) -> Res<Vec<u8>> {
    check_len(vm, values.len() as f64)?;
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        let n = match *v {
            Value::Num(n) => n,
            Value::Empty => 0.0,
            v => vm.to_number(v)?,
        };
        out.push(to_uint8(n));
        vm.work_check(1)?;
    }
    Ok(out)
}

fn of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let b = to_bytes(vm, args)?;
    new_bytes(vm, b)
}

/// `%Intrinsics%.bytesLength(x)`: the length of a Uint8Array, else V8's TypeError (the
/// prelude's methods check their `this` with it).
fn bytes_length(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, arg(args, 0))?;
    Ok(Value::Num(bytes_of(vm, o).len() as f64))
}

fn get_length(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "get TypedArray.prototype.length")?;
    Ok(Value::Num(bytes_of(vm, o).len() as f64))
}

fn get_byte_length(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "get TypedArray.prototype.byteLength")?;
    Ok(Value::Num(bytes_of(vm, o).len() as f64))
}

fn get_offset(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "get TypedArray.prototype.byteOffset")?;
    Ok(Value::Num(view(vm, o).map_or(0, |(_, off, _)| off) as f64))
}

// ----- the methods ------------------------------------------------------------------------

/// `set(source, offset = 0)`: copy an array-like or Uint8Array in at `offset`.
fn set(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let off = to_integer(vm, arg(args, 1))?;
    if off < 0.0 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let src = match arg(args, 0) {
        Value::Obj(s) if view(vm, s).is_some() => bytes_of(vm, s).to_vec(),
        Value::Obj(s) => {
            // An array-like (never its iterator, as the spec says).
            let v = Value::Obj(s);
            let values = match &vm.heap.obj(s).kind {
                Kind::Array(e) => {
                    vm.heap
                        .fits(e.len().saturating_mul(crate::heap::VALUE_BYTES))?;
                    match &vm.heap.obj(s).kind {
                        Kind::Array(e) => e.to_vec(),
                        _ => Vec::new(),
                    }
                }
                _ => {
                    let len = vm.get_simple(v, "length")?;
                    let n = to_integer(vm, len)?.max(0.0);
                    if n + off > bytes_of(vm, o).len() as f64 {
                        return Err(vm.range_error("offset is out of bounds"));
                    }
                    let mut out = Vec::with_capacity(n as usize);
                    for i in 0..n as usize {
                        out.push(vm.get_value(v, Key::Index(i as u32))?);
                    }
                    out
                }
            };
            to_bytes(vm, &values)?
        }
        Value::Undefined | Value::Null => {
            return Err(vm.type_error("Cannot convert undefined or null to object"));
        }
        _ => Vec::new(),
    };
    let len = bytes_of(vm, o).len();
    if off + src.len() as f64 > len as f64 {
        return Err(vm.range_error("offset is out of bounds"));
    }
    let off = off as usize;
    vm.work_check(src.len() / 64)?;
    bytes_mut(vm, o)[off..off + src.len()].copy_from_slice(&src);
    Ok(Value::Undefined)
}

/// The `(start, end)` arguments as a range of `0..len`.
fn range(vm: &mut Vm, args: &[Value], first: usize, len: usize) -> Res<(usize, usize)> {
    let start = rel_index(vm, arg(args, first), len, 0)?;
    let end = rel_index(vm, arg(args, first + 1), len, len)?;
    Ok((start, end.max(start)))
}

fn subarray(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "%TypedArray%.prototype.subarray")?;
    let Some((buf, off, len)) = view(vm, o) else {
        return Err(vm.type_error("this is not a typed array."));
    };
    let (start, end) = range(vm, args, 0, len)?;
    new_view(vm, buf, off + start, end - start)
}

fn slice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "%TypedArray%.prototype.slice")?;
    let len = bytes_of(vm, o).len();
    let (start, end) = range(vm, args, 0, len)?;
    vm.heap.fits(end - start)?;
    vm.work_check((end - start) / 64)?;
    let b = bytes_of(vm, o)[start..end].to_vec();
    new_bytes(vm, b)
}

fn fill(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let n = vm.to_number(arg(args, 0))?;
    let len = bytes_of(vm, o).len();
    let (start, end) = range(vm, args, 1, len)?;
    vm.work_check((end - start) / 64)?;
    bytes_mut(vm, o)[start..end].fill(to_uint8(n));
    Ok(this)
}

/// The byte a search looks for: `None` when `v` is no integer in 0..=255 (nothing matches).
fn needle(v: Value) -> Option<u8> {
    match v {
        Value::Num(n) if n.fract() == 0.0 && (0.0..=255.0).contains(&n) => Some(n as u8),
        _ => None,
    }
}

fn index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let len = bytes_of(vm, o).len();
    let from = rel_index(vm, arg(args, 1), len, 0)?;
    let Some(b) = needle(arg(args, 0)) else {
        return Ok(Value::Num(-1.0));
    };
    vm.work_check(len / 64)?;
    let at = bytes_of(vm, o)[from..].iter().position(|x| *x == b);
    Ok(Value::Num(at.map_or(-1.0, |i| (from + i) as f64)))
}

fn last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let len = bytes_of(vm, o).len();
    let end = if args.len() > 1 {
        let n = to_integer(vm, args[1])?;
        if n < 0.0 {
            len as f64 + n
        } else {
            n.min(len as f64 - 1.0)
        }
    } else {
        len as f64 - 1.0
    };
    let Some(b) = needle(arg(args, 0)) else {
        return Ok(Value::Num(-1.0));
    };
    if end < 0.0 {
        return Ok(Value::Num(-1.0));
    }
    vm.work_check(len / 64)?;
    let at = bytes_of(vm, o)[..=end as usize]
        .iter()
        .rposition(|x| *x == b);
    Ok(Value::Num(at.map_or(-1.0, |i| i as f64)))
}

fn includes(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let found = index_of(vm, this, args)?;
    Ok(Value::Bool(found != Value::Num(-1.0)))
}

pub(super) fn join(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "%TypedArray%.prototype.join")?;
    let sep = match arg(args, 0) {
        Value::Undefined => ",".to_string(),
        v => to_str_arg(vm, v)?.to_rust(),
    };
    let len = bytes_of(vm, o).len();
    let most = len.saturating_mul(3 + sep.encode_utf16().count());
    if most > MAX_STRING_LENGTH && len > 0 {
        let least = len + (len - 1) * sep.encode_utf16().count();
        if least > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    vm.heap.fits(most)?;
    vm.work_check(len / 8)?;
    let parts: Vec<String> = bytes_of(vm, o).iter().map(|b| b.to_string()).collect();
    let s = parts.join(&sep);
    if s.encode_utf16().count() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.str_val(&s)
}

/// `toString`: `Array.prototype.toString`'s generic join (any receiver).
fn to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    match this {
        Value::Obj(o) if view(vm, o).is_some() => join(vm, this, &[]),
        _ => array::array_to_string(vm, this, &[]),
    }
}

fn at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_for(vm, this, "%TypedArray%.prototype.at")?;
    let len = bytes_of(vm, o).len() as f64;
    let n = to_integer(vm, arg(args, 0))?;
    let i = if n < 0.0 { len + n } else { n };
    if i < 0.0 || i >= len {
        return Ok(Value::Undefined);
    }
    Ok(byte_at(vm, o, i as usize).map_or(Value::Undefined, |b| Value::Num(f64::from(b))))
}

fn reverse(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let len = bytes_of(vm, o).len();
    vm.work_check(len / 64)?;
    bytes_mut(vm, o).reverse();
    Ok(this)
}

// ----- base64 and hex ---------------------------------------------------------------------

/// The base64 alphabets of RFC 4648 (§4 and §5).
pub(super) const BASE64: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// How `fromBase64` treats a last chunk of fewer than 4 characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LastChunk {
    /// Decode it (padding optional, stray bits ignored); 1 character is an error.
    Loose,
    /// Require padding and zero stray bits.
    Strict,
    /// Leave an unpadded partial chunk unread.
    StopBeforePartial,
}

/// What a base64 or hex decode gives: the characters read, the bytes, and the error that
/// stopped it (a SyntaxError message), if any.
#[derive(Debug, PartialEq, Eq)]
pub struct Decoded {
    pub read: usize,
    pub bytes: Vec<u8>,
    pub error: Option<&'static str>,
}

fn is_ascii_space(u: u16) -> bool {
    matches!(u, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// Decode one chunk of 2 to 4 digits (`DecodeBase64Chunk`); with `strict`, stray bits of a
/// partial chunk are an error.
fn decode_chunk(chunk: &[u8], strict: bool, out: &mut Vec<u8>) -> Result<(), &'static str> {
    let mut n = 0u32;
    for k in 0..4 {
        n = (n << 6) | u32::from(*chunk.get(k).unwrap_or(&0));
    }
    let b = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
    let keep = chunk.len() - 1;
    if strict && keep < 3 && b[keep] != 0 {
        return Err("the last base64 chunk has nonzero extra bits");
    }
    out.extend_from_slice(&b[..keep]);
    Ok(())
}

/// The proposal's `FromBase64` (string, alphabet, lastChunkHandling, maxLength).
pub fn from_base64_units(units: &[u16], url: bool, last: LastChunk, max: usize) -> Decoded {
    let mut out = Decoded {
        read: 0,
        bytes: Vec::with_capacity((units.len() / 4 * 3 + 3).min(max)),
        error: None,
    };
    if max == 0 {
        return out;
    }
    let fail = |mut out: Decoded, e: &'static str| {
        out.error = Some(e);
        out
    };
    let len = units.len();
    let skip = |mut i: usize| {
        while i < len && is_ascii_space(units[i]) {
            i += 1;
        }
        i
    };
    let mut chunk: Vec<u8> = Vec::with_capacity(4);
    let mut i = 0;
    loop {
        i = skip(i);
        if i == len {
            if !chunk.is_empty() {
                match last {
                    LastChunk::StopBeforePartial => return out,
                    LastChunk::Loose if chunk.len() == 1 => {
                        return fail(out, "the base64 string ends with a single character");
                    }
                    LastChunk::Loose => {
                        let _ = decode_chunk(&chunk, false, &mut out.bytes);
                    }
                    LastChunk::Strict => {
                        return fail(out, "the last base64 chunk is not padded to 4 characters");
                    }
                }
            }
            out.read = len;
            return out;
        }
        let mut c = units[i];
        i += 1;
        if c == u16::from(b'=') {
            if chunk.len() < 2 {
                return fail(out, "misplaced '=' padding in the base64 string");
            }
            i = skip(i);
            if chunk.len() == 2 {
                if i == len {
                    if last == LastChunk::StopBeforePartial {
                        return out;
                    }
                    return fail(
                        out,
                        "the base64 string's padding is incomplete ('=' of '==')",
                    );
                }
                if units[i] == u16::from(b'=') {
                    i = skip(i + 1);
                }
            }
            if i < len {
                return fail(out, "characters after the base64 padding");
            }
            if let Err(e) = decode_chunk(&chunk, last == LastChunk::Strict, &mut out.bytes) {
                return fail(out, e);
            }
            out.read = len;
            return out;
        }
        if url {
            if c == u16::from(b'+') || c == u16::from(b'/') {
                return fail(
                    out,
                    "'+' or '/' in a base64url string (it uses '-' and '_')",
                );
            }
            if c == u16::from(b'-') {
                c = u16::from(b'+');
            } else if c == u16::from(b'_') {
                c = u16::from(b'/');
            }
        }
        let Some(d) = BASE64.iter().position(|&a| u16::from(a) == c) else {
            return fail(out, "a character outside the base64 alphabet");
        };
        let remaining = max - out.bytes.len();
        if (remaining == 1 && chunk.len() == 2) || (remaining == 2 && chunk.len() == 3) {
            return out;
        }
        chunk.push(d as u8);
        if chunk.len() == 4 {
            let _ = decode_chunk(&chunk, false, &mut out.bytes);
            chunk.clear();
            out.read = i;
            if out.bytes.len() == max {
                return out;
            }
        }
    }
}

/// The proposal's `FromHex` (string, maxLength).
pub fn from_hex_units(units: &[u16], max: usize) -> Decoded {
    let mut out = Decoded {
        read: 0,
        bytes: Vec::with_capacity((units.len() / 2).min(max)),
        error: None,
    };
    if !units.len().is_multiple_of(2) {
        out.error = Some("a hex string of odd length");
        return out;
    }
    let digit = |u: u16| char::from_u32(u32::from(u)).and_then(|c| c.to_digit(16));
    while out.read < units.len() && out.bytes.len() < max {
        let (Some(h), Some(l)) = (digit(units[out.read]), digit(units[out.read + 1])) else {
            out.error = Some("a character that is not a hex digit");
            return out;
        };
        out.bytes.push((h * 16 + l) as u8);
        out.read += 2;
    }
    out
}

/// RFC 4648 base64 of `bytes`.
pub fn to_base64_string(bytes: &[u8], url: bool, pad: bool) -> String {
    let alphabet = if url { BASE64URL } else { BASE64 };
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                s.push(alphabet[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else if pad {
                s.push('=');
            }
        }
    }
    s
}

/// The options object of the base64 methods (undefined: none), else a TypeError.
fn options(vm: &mut Vm, v: Value) -> Res<Option<Value>> {
    match v {
        Value::Undefined => Ok(None),
        Value::Obj(_) => Ok(Some(v)),
        _ => Err(vm.type_error("The options argument must be an object")),
    }
}

/// The `alphabet` option: `true` for base64url.
fn alphabet(vm: &mut Vm, opts: Option<Value>) -> Res<bool> {
    let Some(o) = opts else { return Ok(false) };
    match vm.get_simple(o, "alphabet")? {
        Value::Undefined => Ok(false),
        Value::Str(s) if vm.heap.str(s).to_rust() == "base64" => Ok(false),
        Value::Str(s) if vm.heap.str(s).to_rust() == "base64url" => Ok(true),
        _ => Err(vm.type_error("The alphabet option must be \"base64\" or \"base64url\"")),
    }
}

/// The `lastChunkHandling` option.
fn last_chunk(vm: &mut Vm, opts: Option<Value>) -> Res<LastChunk> {
    let Some(o) = opts else {
        return Ok(LastChunk::Loose);
    };
    let v = vm.get_simple(o, "lastChunkHandling")?;
    let s = match v {
        Value::Undefined => return Ok(LastChunk::Loose),
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    };
    match s.as_str() {
        "loose" => Ok(LastChunk::Loose),
        "strict" => Ok(LastChunk::Strict),
        "stop-before-partial" => Ok(LastChunk::StopBeforePartial),
        _ => Err(vm.type_error(
            "The lastChunkHandling option must be \"loose\", \"strict\" or \"stop-before-partial\"",
        )),
    }
}

/// The string argument of the decoders, else a TypeError.
fn string_arg(vm: &mut Vm, v: Value, what: &str) -> Res<Vec<u16>> {
    let Value::Str(s) = v else {
        return Err(vm.type_error(&format!(
            "The argument of {what} must be a string; write `String(x)` first"
        )));
    };
    let units = vm.heap.str(s).units();
    vm.work_check(units.len() / 8)?;
    Ok(units)
}

fn syntax_error(vm: &mut Vm, e: &str, what: &str) -> Throw {
    vm.err_syntax(&format!("{what}: {e}"))
}

fn from_base64(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let units = string_arg(vm, arg(args, 0), "Uint8Array.fromBase64")?;
    let opts = options(vm, arg(args, 1))?;
    let url = alphabet(vm, opts)?;
    let last = last_chunk(vm, opts)?;
    vm.heap.fits(units.len())?;
    let d = from_base64_units(&units, url, last, usize::MAX);
    if let Some(e) = d.error {
        return Err(syntax_error(vm, e, "Uint8Array.fromBase64"));
    }
    new_bytes(vm, d.bytes)
}

fn from_hex(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let units = string_arg(vm, arg(args, 0), "Uint8Array.fromHex")?;
    vm.heap.fits(units.len())?;
    let d = from_hex_units(&units, usize::MAX);
    if let Some(e) = d.error {
        return Err(syntax_error(vm, e, "Uint8Array.fromHex"));
    }
    new_bytes(vm, d.bytes)
}

fn to_base64(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let opts = options(vm, arg(args, 0))?;
    let url = alphabet(vm, opts)?;
    let omit = match opts {
        Some(o) => {
            let v = vm.get_simple(o, "omitPadding")?;
            vm.truthy(v)
        }
        None => false,
    };
    let len = bytes_of(vm, o).len();
    if len.div_ceil(3) * 4 > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.work_check(len / 16)?;
    let s = to_base64_string(bytes_of(vm, o), url, !omit);
    vm.str_val(&s)
}

fn to_hex(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let len = bytes_of(vm, o).len();
    if len * 2 > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.work_check(len / 16)?;
    let mut s = String::with_capacity(len * 2);
    for b in bytes_of(vm, o) {
        s.push_str(&format!("{b:02x}"));
    }
    vm.str_val(&s)
}

/// Write what `d` decoded into `o`, then `{ read, written }` (or its SyntaxError).
fn set_from(vm: &mut Vm, o: ObjId, d: Decoded, what: &str) -> Res<Value> {
    let n = d.bytes.len();
    bytes_mut(vm, o)[..n].copy_from_slice(&d.bytes);
    if let Some(e) = d.error {
        return Err(syntax_error(vm, e, what));
    }
    let r = vm.new_object()?;
    for (k, v) in [("read", d.read), ("written", n)] {
        let k = vm.heap.key(k);
        vm.define(r, k, Slot::Data(Value::Num(v as f64)), DEFAULT_ATTRS)?;
    }
    Ok(Value::Obj(r))
}

fn set_from_base64(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let what = "Uint8Array.prototype.setFromBase64";
    let units = string_arg(vm, arg(args, 0), what)?;
    let opts = options(vm, arg(args, 1))?;
    let url = alphabet(vm, opts)?;
    let last = last_chunk(vm, opts)?;
    let max = bytes_of(vm, o).len();
    let d = from_base64_units(&units, url, last, max);
    set_from(vm, o, d, what)
}

fn set_from_hex(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let o = this_bytes(vm, this)?;
    let what = "Uint8Array.prototype.setFromHex";
    let units = string_arg(vm, arg(args, 0), what)?;
    let max = bytes_of(vm, o).len();
    let d = from_hex_units(&units, max);
    set_from(vm, o, d, what)
}

/// A key that is a canonical numeric string but no array index (`"-1"`, `"1.5"`, `"-0"`,
/// `"NaN"`): no property of a Uint8Array (reads are undefined, writes do nothing).
pub fn is_numeric_key(vm: &Vm, key: Key) -> bool {
    let Key::Name(_) = key else { return false };
    let Some(s) = vm.heap.key_str(key).map(|s| s.to_rust()) else {
        return false;
    };
    if s == "-0" {
        return true;
    }
    let first = s.chars().next();
    if !first.is_some_and(|c| c == '-' || c == 'I' || c == 'N' || c.is_ascii_digit()) {
        return false;
    }
    s.parse::<f64>()
        .is_ok_and(|n| crate::number::to_string(n) == s)
}
