//! `TextEncoder` and `TextDecoder` (the WHATWG Encoding standard, UTF-8 only): `encode`,
//! `encodeInto`, `decode` with `fatal`, `ignoreBOM` and `{ stream: true }`, the `encoding`,
//! `fatal` and `ignoreBOM` getters; errors with node's codes and wording. Another label
//! than UTF-8's (`latin1`, `utf-16le`, which node has) is node's RangeError for an encoding
//! it does not support.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("TextEncoder", encoder_ctor, 0),
    ("TextEncoder.prototype.encoding", encoder_encoding, 0),
    ("TextEncoder.prototype.encode", encode, 0),
    ("TextEncoder.prototype.encodeInto", encode_into, 2),
    ("TextDecoder", decoder_ctor, 0),
    ("TextDecoder.prototype.decode", decode, 0),
    ("TextDecoder.prototype.encoding", decoder_encoding, 0),
    ("TextDecoder.prototype.fatal", decoder_fatal, 0),
    ("TextDecoder.prototype.ignoreBOM", decoder_ignore_bom, 0),
];

/// A decoder's options and its state between the calls of a streaming decode.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DecoderState {
    pub fatal: bool,
    pub ignore_bom: bool,
    /// The start of a character a `{ stream: true }` decode ended inside.
    pending: Vec<u8>,
    /// A streaming decode has produced output (a BOM after that is a character).
    started: bool,
}

/// The labels of UTF-8 (the Encoding standard's table), after trimming and lower-casing.
const UTF8_LABELS: &[&str] = &[
    "unicode-1-1-utf-8",
    "unicode11utf8",
    "unicode20utf8",
    "utf-8",
    "utf8",
    "x-unicode20utf8",
];

/// The getters among the natives.
const GETTERS: &[(&str, &str)] = &[
    ("TextEncoder", "encoding"),
    ("TextDecoder", "encoding"),
    ("TextDecoder", "fatal"),
    ("TextDecoder", "ignoreBOM"),
];

/// After the natives are in: the getters become accessors.
pub fn setup(vm: &mut Vm) -> Res<()> {
    for (ctor, name) in GETTERS {
        if let Some(proto) = super::platform::proto_of(vm, ctor) {
            super::platform::getters(vm, proto, &[name], ENUMERABLE | CONFIGURABLE)?;
        }
    }
    Ok(())
}

/// node's TypeError with a `code` property.
pub(super) fn coded(vm: &mut Vm, proto: Option<ObjId>, code: &str, message: &str) -> Throw {
    let e = vm.make_error(proto, message);
    if let Value::Obj(o) = e {
        let k = vm.heap.key("code");
        if let Ok(v) = vm.str_val(code) {
            let _ = vm.define(o, k, Slot::Data(v), HIDDEN_ATTRS);
        }
    }
    Throw::Js(e)
}

/// How node's argument errors show a value: `Received undefined`, `Received an instance of
/// Array`, `Received type number (5)`.
pub(super) fn received(vm: &mut Vm, v: Value) -> Res<String> {
    Ok(match v {
        Value::Undefined | Value::Empty => "Received undefined".into(),
        Value::Null => "Received null".into(),
        Value::Obj(o) if vm.is_callable(v) => {
            let n = vm.get_simple(Value::Obj(o), "name")?;
            match n {
                Value::Str(s) if !vm.heap.str(s).is_empty() => {
                    format!("Received function {}", vm.heap.str(s).to_rust())
                }
                _ => "Received function ".into(),
            }
        }
        Value::Obj(o) => {
            let c = vm.get_simple(Value::Obj(o), "constructor")?;
            let n = match c {
                Value::Obj(_) => vm.get_simple(c, "name")?,
                _ => Value::Undefined,
            };
            match n {
                Value::Str(s) if !vm.heap.str(s).is_empty() => {
                    format!("Received an instance of {}", vm.heap.str(s).to_rust())
                }
                _ => format!("Received {}", super::inspect(vm, v)?),
            }
        }
        v => {
            let ty = match v {
                Value::Num(_) => "number",
                Value::Str(_) => "string",
                Value::Bool(_) => "boolean",
                _ => "symbol",
            };
            let mut shown = super::inspect(vm, v)?;
            if shown.chars().count() > 28 {
                shown = format!("{}...", shown.chars().take(25).collect::<String>());
            }
            format!("Received type {ty} ({shown})")
        }
    })
}

fn invalid_arg(vm: &mut Vm, message: &str) -> Throw {
    coded(
        vm,
        vm.intr.type_error_proto,
        "ERR_INVALID_ARG_TYPE",
        message,
    )
}

fn invalid_this(vm: &mut Vm, what: &str) -> Throw {
    coded(
        vm,
        vm.intr.type_error_proto,
        "ERR_INVALID_THIS",
        &format!("Value of \"this\" must be of type {what}"),
    )
}

fn no_new(vm: &mut Vm, what: &str) -> Throw {
    vm.type_error(&format!(
        "Class constructor {what} cannot be invoked without 'new'"
    ))
}

// ----- TextEncoder --------------------------------------------------------------------------

fn encoder_ctor(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let (Some(_), Value::Obj(o)) = (vm.native_construct, this) else {
        return Err(no_new(vm, "TextEncoder"));
    };
    vm.heap.obj_mut(o).kind = Kind::Encoder;
    Ok(this)
}

fn this_encoder(vm: &mut Vm, this: Value) -> Res<()> {
    match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Encoder) => Ok(()),
        _ => Err(invalid_this(vm, "TextEncoder")),
    }
}

fn encoder_encoding(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    this_encoder(vm, this)?;
    vm.str_val("utf-8")
}

/// UTF-8 of a string's units; a lone surrogate is U+FFFD.
pub fn utf8_of(units: &[u16]) -> Vec<u8> {
    String::from_utf16_lossy(units).into_bytes()
}

fn encode(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    this_encoder(vm, this)?;
    let units = match arg(args, 0) {
        Value::Undefined => Vec::new(),
        v => to_str_arg(vm, v)?.units(),
    };
    vm.heap.fits(units.len() * 3)?;
    vm.work_check(units.len() / 8)?;
    let bytes = utf8_of(&units);
    super::bytes::new_bytes(vm, bytes)
}

fn encode_into(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    this_encoder(vm, this)?;
    let src = arg(args, 0);
    let Value::Str(s) = src else {
        let r = received(vm, src)?;
        return Err(invalid_arg(
            vm,
            &format!("The \"src\" argument must be of type string. {r}"),
        ));
    };
    let dest = arg(args, 1);
    let dest_obj = match dest {
        Value::Obj(d) if super::bytes::view(vm, d).is_some() => d,
        _ => {
            let r = received(vm, dest)?;
            return Err(invalid_arg(
                vm,
                &format!("The \"dest\" argument must be an instance of Uint8Array. {r}"),
            ));
        }
    };
    let units = vm.heap.str(s).units();
    vm.work_check(units.len() / 8)?;
    let room = super::bytes::bytes_of(vm, dest_obj).len();
    // Whole characters while they fit.
    let (mut read, mut written) = (0usize, 0usize);
    let mut out = Vec::new();
    for c in char::decode_utf16(units.iter().copied()) {
        let (c, n) = match c {
            Ok(c) => (c, c.len_utf16()),
            Err(_) => ('\u{FFFD}', 1),
        };
        let mut buf = [0u8; 4];
        let b = c.encode_utf8(&mut buf).as_bytes();
        if written + b.len() > room {
            break;
        }
        out.extend_from_slice(b);
        written += b.len();
        read += n;
    }
    for (i, b) in out.into_iter().enumerate() {
        super::bytes::store(vm, dest_obj, i, b);
    }
    let r = vm.new_object()?;
    for (k, v) in [("read", read), ("written", written)] {
        let k = vm.heap.key(k);
        vm.define(r, k, Slot::Data(Value::Num(v as f64)), DEFAULT_ATTRS)?;
    }
    Ok(Value::Obj(r))
}

// ----- TextDecoder --------------------------------------------------------------------------

/// A boolean option of `opts` (an object or undefined).
fn flag(vm: &mut Vm, opts: Value, name: &str) -> Res<bool> {
    if opts.is_nullish() {
        return Ok(false);
    }
    let v = vm.get_simple(opts, name)?;
    Ok(vm.truthy(v))
}

/// The options argument: undefined, null or an object, else node's TypeError.
fn options_arg(vm: &mut Vm, v: Value) -> Res<Value> {
    match v {
        Value::Undefined | Value::Null | Value::Obj(_) => Ok(v),
        _ => {
            let r = received(vm, v)?;
            Err(invalid_arg(
                vm,
                &format!("The \"options\" argument must be of type object. {r}"),
            ))
        }
    }
}

fn decoder_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Some(_), Value::Obj(o)) = (vm.native_construct, this) else {
        return Err(no_new(vm, "TextDecoder"));
    };
    let label = match arg(args, 0) {
        Value::Undefined => "utf-8".to_string(),
        v => to_str_arg(vm, v)?.to_rust(),
    };
    let opts = options_arg(vm, arg(args, 1))?;
    let name = label
        .trim_matches(|c| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' '))
        .to_ascii_lowercase();
    if !UTF8_LABELS.contains(&name.as_str()) {
        return Err(coded(
            vm,
            vm.intr.range_error_proto,
            "ERR_ENCODING_NOT_SUPPORTED",
            &format!("The \"{label}\" encoding is not supported"),
        ));
    }
    let fatal = flag(vm, opts, "fatal")?;
    let ignore_bom = flag(vm, opts, "ignoreBOM")?;
    vm.heap.charge(64)?;
    vm.heap.obj_mut(o).kind = Kind::Decoder(Box::new(DecoderState {
        fatal,
        ignore_bom,
        ..DecoderState::default()
    }));
    Ok(this)
}

fn this_decoder(vm: &mut Vm, this: Value) -> Res<(ObjId, DecoderState)> {
    match this {
        Value::Obj(o) => match &vm.heap.obj(o).kind {
            Kind::Decoder(d) => Ok((o, (**d).clone())),
            _ => Err(invalid_this(vm, "TextDecoder")),
        },
        _ => Err(invalid_this(vm, "TextDecoder")),
    }
}

fn decoder_encoding(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    this_decoder(vm, this)?;
    vm.str_val("utf-8")
}

fn decoder_fatal(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Bool(this_decoder(vm, this)?.1.fatal))
}

fn decoder_ignore_bom(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Bool(this_decoder(vm, this)?.1.ignore_bom))
}

/// Decode `data` as UTF-8: each maximal invalid subpart is U+FFFD (an error when `fatal`);
/// with `stream`, an incomplete character at the end is returned apart, to wait for its
/// bytes.
pub fn decode_utf8(data: &[u8], fatal: bool, stream: bool) -> Option<(String, Vec<u8>)> {
    let mut out = String::with_capacity(data.len());
    let mut rest = Vec::new();
    let mut chunks = data.utf8_chunks().peekable();
    while let Some(c) = chunks.next() {
        out.push_str(c.valid());
        let bad = c.invalid();
        if bad.is_empty() {
            continue;
        }
        let last = chunks.peek().is_none();
        let incomplete = std::str::from_utf8(bad)
            .err()
            .is_some_and(|e| e.error_len().is_none());
        if last && stream && incomplete {
            rest = bad.to_vec();
        } else if fatal {
            return None;
        } else {
            out.push('\u{FFFD}');
        }
    }
    Some((out, rest))
}

fn decode(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (o, mut st) = this_decoder(vm, this)?;
    let input = arg(args, 0);
    let bytes: Vec<u8> = match input {
        Value::Undefined => Vec::new(),
        Value::Obj(b) if super::bytes::view(vm, b).is_some() => {
            super::bytes::bytes_of(vm, b).to_vec()
        }
        _ => {
            return Err(invalid_arg(
                vm,
                "The \"list\" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.",
            ));
        }
    };
    let opts = options_arg(vm, arg(args, 1))?;
    let stream = flag(vm, opts, "stream")?;
    vm.heap.fits(bytes.len() * 2)?;
    vm.work_check(bytes.len() / 8)?;
    let mut data = std::mem::take(&mut st.pending);
    data.extend_from_slice(&bytes);
    let Some((mut text, rest)) = decode_utf8(&data, st.fatal, stream) else {
        if let Kind::Decoder(d) = &mut vm.heap.obj_mut(o).kind {
            **d = DecoderState {
                fatal: st.fatal,
                ignore_bom: st.ignore_bom,
                ..DecoderState::default()
            };
        }
        return Err(coded(
            vm,
            vm.intr.type_error_proto,
            "ERR_ENCODING_INVALID_ENCODED_DATA",
            "The encoded data was not valid for encoding utf-8",
        ));
    };
    if !st.ignore_bom && !st.started && text.starts_with('\u{FEFF}') {
        text.remove(0);
        st.started = true;
    }
    if !text.is_empty() {
        st.started = true;
    }
    if stream {
        st.pending = rest;
    } else {
        st.started = false;
        st.pending.clear();
    }
    if let Kind::Decoder(d) = &mut vm.heap.obj_mut(o).kind {
        **d = st;
    }
    vm.str_val(&text)
}
