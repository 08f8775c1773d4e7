//! The web-platform globals over strings: `encodeURIComponent`, `encodeURI`,
//! `decodeURIComponent`, `decodeURI` (ECMA-262 §19.2.6, URIError "URI malformed" as V8
//! words it) and `btoa`/`atob` (the HTML standard's forgiving base64; an
//! `InvalidCharacterError` as node names it).

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("encodeURIComponent", encode_uri_component, 1),
    ("encodeURI", encode_uri, 1),
    ("decodeURIComponent", decode_uri_component, 1),
    ("decodeURI", decode_uri, 1),
    ("btoa", btoa, 1),
    ("atob", atob, 1),
];

/// The global functions of this file (not constructors).
pub(super) const FUNCTIONS: &[&str] = &[
    "encodeURIComponent",
    "encodeURI",
    "decodeURIComponent",
    "decodeURI",
    "btoa",
    "atob",
];

/// Characters `encodeURIComponent` leaves as they are (§19.2.6.5: uriUnescaped).
const UNESCAPED: &str = "-_.!~*'()";
/// What `encodeURI` also leaves, and `decodeURI` does not decode: uriReserved and `#`.
const RESERVED: &str = ";/?:@&=+$,#";

fn units_of(vm: &mut Vm, v: Value) -> Res<Vec<u16>> {
    let s = vm.to_string(v)?;
    let units = vm.heap.str(s).units();
    vm.work_check(units.len() / 8)?;
    Ok(units)
}

fn uri_error(vm: &mut Vm) -> Throw {
    Throw::Js(vm.make_error(vm.intr.uri_error_proto, "URI malformed"))
}

fn string(vm: &mut Vm, s: String) -> Res<Value> {
    vm.js_str(JsStr::from_str(&s))
}

/// Encode (§19.2.6.5): every unit outside `keep` as the %XX of its UTF-8 bytes.
fn encode(vm: &mut Vm, v: Value, keep: &str) -> Res<Value> {
    let units = units_of(vm, v)?;
    let mut out = String::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        let u = units[i];
        if u < 0x80 && ((u as u8).is_ascii_alphanumeric() || keep.contains(u as u8 as char)) {
            out.push(u as u8 as char);
            i += 1;
            continue;
        }
        let c = match u {
            0xD800..=0xDBFF => match units.get(i + 1) {
                Some(&lo @ 0xDC00..=0xDFFF) => {
                    i += 1;
                    0x10000 + ((u32::from(u) - 0xD800) << 10) + (u32::from(lo) - 0xDC00)
                }
                _ => return Err(uri_error(vm)),
            },
            0xDC00..=0xDFFF => return Err(uri_error(vm)),
            _ => u32::from(u),
        };
        let ch = char::from_u32(c).ok_or_else(|| uri_error(vm))?;
        let mut buf = [0u8; 4];
        for b in ch.encode_utf8(&mut buf).bytes() {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
    string(vm, out)
}

/// Decode (§19.2.6.6): %XX sequences of whole UTF-8 characters; a decoded character in
/// `reserved` keeps its escape.
fn decode(vm: &mut Vm, v: Value, reserved: &str) -> Res<Value> {
    let units = units_of(vm, v)?;
    let hex = |i: usize| -> Option<u8> {
        if units.get(i) != Some(&u16::from(b'%')) {
            return None;
        }
        let d = |u: Option<&u16>| u.and_then(|u| char::from_u32(u32::from(*u))?.to_digit(16));
        Some((d(units.get(i + 1))? * 16 + d(units.get(i + 2))?) as u8)
    };
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let mut i = 0;
    while i < units.len() {
        if units[i] != u16::from(b'%') {
            out.push(units[i]);
            i += 1;
            continue;
        }
        let Some(b) = hex(i) else {
            return Err(uri_error(vm));
        };
        if b < 0x80 {
            if reserved.contains(b as char) {
                out.extend_from_slice(&units[i..i + 3]);
            } else {
                out.push(u16::from(b));
            }
            i += 3;
            continue;
        }
        let n = match b {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF4 => 4,
            _ => return Err(uri_error(vm)),
        };
        let mut bytes = vec![b];
        for k in 1..n {
            match hex(i + 3 * k) {
                Some(c) if c & 0xC0 == 0x80 => bytes.push(c),
                _ => return Err(uri_error(vm)),
            }
        }
        let Ok(s) = std::str::from_utf8(&bytes) else {
            return Err(uri_error(vm));
        };
        out.extend(s.encode_utf16());
        i += 3 * n;
    }
    vm.js_str(JsStr::from_units(out))
}

fn encode_uri_component(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    encode(vm, arg(args, 0), UNESCAPED)
}

fn encode_uri(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    encode(vm, arg(args, 0), &format!("{UNESCAPED}{RESERVED}"))
}

fn decode_uri_component(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    decode(vm, arg(args, 0), "")
}

fn decode_uri(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    decode(vm, arg(args, 0), RESERVED)
}

/// node's DOMException of `name` and legacy `code` (an Error with those, not enumerable).
pub(super) fn dom_exception(vm: &mut Vm, name: &str, code: u16, message: &str) -> Throw {
    let e = vm.make_error(vm.intr.error_proto, message);
    if let Value::Obj(o) = e {
        let k = vm.heap.key("name");
        if let Ok(n) = vm.str_val(name) {
            let _ = vm.define(o, k, Slot::Data(n), WRITABLE | CONFIGURABLE);
        }
        let k = vm.heap.key("code");
        let _ = vm.define(
            o,
            k,
            Slot::Data(Value::Num(f64::from(code))),
            WRITABLE | CONFIGURABLE,
        );
    }
    Throw::Js(e)
}

/// node's DOMException of name `InvalidCharacterError`.
fn invalid_character(vm: &mut Vm, message: &str) -> Throw {
    dom_exception(vm, "InvalidCharacterError", 5, message)
}

const ALPHABET: &[u8; 64] = super::bytes::BASE64;

/// `btoa(data)`: the string's units as bytes (each must be below 256), in base64.
fn btoa(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if args.is_empty() {
        return Err(vm.type_error("The \"data\" argument must be specified"));
    }
    let units = units_of(vm, arg(args, 0))?;
    let mut bytes = Vec::with_capacity(units.len());
    for u in units {
        if u > 0xFF {
            return Err(invalid_character(vm, "Invalid character"));
        }
        bytes.push(u as u8);
    }
    let out = super::bytes::to_base64_string(&bytes, false, true);
    string(vm, out)
}

/// `atob(data)`: forgiving base64 (ASCII whitespace ignored, padding optional) to a string
/// of one unit per byte.
fn atob(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if args.is_empty() {
        return Err(vm.type_error("The \"data\" argument must be specified"));
    }
    let units = units_of(vm, arg(args, 0))?;
    let bad =
        |vm: &mut Vm| invalid_character(vm, "The string to be decoded is not correctly encoded.");
    let mut digits: Vec<u8> = Vec::with_capacity(units.len());
    for u in units {
        match u {
            0x09 | 0x0A | 0x0C | 0x0D | 0x20 => {}
            _ => digits.push(u.try_into().unwrap_or(0xFF)),
        }
    }
    if digits.len().is_multiple_of(4) {
        for _ in 0..2 {
            if digits.last() == Some(&b'=') {
                digits.pop();
            }
        }
    }
    if digits.len() % 4 == 1 {
        return Err(bad(vm));
    }
    let mut out: Vec<u16> = Vec::with_capacity(digits.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for d in digits {
        let Some(v) = ALPHABET.iter().position(|&a| a == d) else {
            return Err(bad(vm));
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xFF) as u16);
        }
    }
    vm.js_str(JsStr::from_units(out))
}
