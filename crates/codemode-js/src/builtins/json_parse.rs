//! The parse of `JSON.parse` (ECMA-262 §25.5.1): JSON text → fresh values in one pass over
//! the string's UTF-16 code units, without recursion (containers on an explicit stack) and
//! without an intermediate tree. Numbers are parsed with correct rounding (out of range →
//! ±Infinity, as in V8); strings keep lone surrogates. Errors are SyntaxErrors in V8's words,
//! with the position (a code-unit index) or the text around the bad character.

use super::*;
use crate::vm::Throw;

/// One open container.
enum Open {
    Array(Vec<Value>),
    /// The object and the key of the value being parsed.
    Object(ObjId, Key),
}

/// The parser's cursor over the text.
struct Cursor<'t> {
    text: &'t JsStr,
    pos: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u16> {
        (self.pos < self.text.len()).then(|| self.text.at(self.pos))
    }

    fn skip_ws(&mut self) {
        while let Some(0x20 | 0x09 | 0x0a | 0x0d) = self.peek() {
            self.pos += 1;
        }
    }
}

/// A syntax error of the text, as V8 words it.
enum Bad {
    /// "Unexpected end of JSON input".
    End,
    /// "Unexpected token 'x', "…context…" is not valid JSON" (at the cursor).
    Token,
    /// A message "… in JSON at position N".
    At(&'static str, usize),
    /// "Unexpected non-whitespace character after JSON at position N".
    After(usize),
}

/// `JSON.parse(text)` without a reviver.
pub(super) fn parse(vm: &mut Vm, text: &JsStr) -> Res<Value> {
    vm.work_check(text.len() / 8)?;
    let mut c = Cursor { text, pos: 0 };
    match parse_text(vm, &mut c)? {
        Ok(v) => Ok(v),
        Err(bad) => {
            let msg = match bad {
                Bad::End => "Unexpected end of JSON input".to_string(),
                Bad::Token => unexpected_token(text, c.pos),
                Bad::At(what, pos) => format!("{what} in JSON at position {pos}"),
                Bad::After(pos) => {
                    format!("Unexpected non-whitespace character after JSON at position {pos}")
                }
            };
            Err(vm.err_syntax(&msg))
        }
    }
}

/// V8's "Unexpected token" message: the whole text when it is short, else ten code units
/// either side of the bad one; only the text itself when it is one of V8's special strings
/// (what `String(x)` gives for `undefined`, `NaN`, `Infinity` and a plain object):
/// `"undefined" is not valid JSON`.
fn unexpected_token(text: &JsStr, pos: usize) -> String {
    const CONTEXT: usize = 10;
    const SPECIAL: [&str; 4] = ["[object Object]", "undefined", "Infinity", "NaN"];
    let len = text.len();
    if len <= 15 {
        let whole = String::from_utf16_lossy(&text.units());
        if SPECIAL.contains(&whole.as_str()) {
            return format!("\"{whole}\" is not valid JSON");
        }
    }
    let ch = String::from_utf16_lossy(&[text.at(pos)]);
    let (from, to) = if len < 2 * CONTEXT + 1 {
        (0, len)
    } else {
        (pos.saturating_sub(CONTEXT), (pos + CONTEXT).min(len))
    };
    let mut around = String::from_utf16_lossy(&text.slice(from, to).units());
    around.insert(0, '"');
    around.push('"');
    if from > 0 {
        around.insert_str(0, "...");
    }
    if to < len {
        around.push_str("...");
    }
    format!("Unexpected token '{ch}', {around} is not valid JSON")
}

/// The whole text: one value and nothing after it but whitespace.
fn parse_text(vm: &mut Vm, c: &mut Cursor<'_>) -> Res<Result<Value, Bad>> {
    let mut stack: Vec<Open> = Vec::new();
    'value: loop {
        // A value starts here.
        c.skip_ws();
        let mut v = match c.peek() {
            None => return Ok(Err(Bad::End)),
            Some(0x7b) => {
                // `{`
                c.pos += 1;
                c.skip_ws();
                let o = vm.new_object()?;
                match c.peek() {
                    Some(0x7d) => {
                        c.pos += 1;
                        Value::Obj(o)
                    }
                    Some(0x22) => {
                        if stack.len() >= MAX_DATA_DEPTH {
                            return Err(depth_error(vm));
                        }
                        let key = match object_key(vm, c)? {
                            Ok(k) => k,
                            Err(b) => return Ok(Err(b)),
                        };
                        stack.push(Open::Object(o, key));
                        continue 'value;
                    }
                    _ => return Ok(Err(Bad::At("Expected property name or '}'", c.pos))),
                }
            }
            Some(0x5b) => {
                // `[`
                c.pos += 1;
                c.skip_ws();
                if c.peek() == Some(0x5d) {
                    c.pos += 1;
                    vm.new_array(Vec::new())?
                } else {
                    if stack.len() >= MAX_DATA_DEPTH {
                        return Err(depth_error(vm));
                    }
                    stack.push(Open::Array(Vec::new()));
                    continue 'value;
                }
            }
            Some(0x22) => match string(c) {
                Ok(s) => vm.js_str(s)?,
                Err(b) => return Ok(Err(b)),
            },
            Some(0x2d | 0x30..=0x39) => match number(c) {
                Ok(n) => Value::Num(n),
                Err(b) => return Ok(Err(b)),
            },
            Some(0x74) => match literal(c, "true") {
                Ok(()) => Value::Bool(true),
                Err(b) => return Ok(Err(b)),
            },
            Some(0x66) => match literal(c, "false") {
                Ok(()) => Value::Bool(false),
                Err(b) => return Ok(Err(b)),
            },
            Some(0x6e) => match literal(c, "null") {
                Ok(()) => Value::Null,
                Err(b) => return Ok(Err(b)),
            },
            Some(_) => return Ok(Err(Bad::Token)),
        };
        // A value is complete: hand it to the innermost container, closing those it ends.
        loop {
            vm.work_check(1)?;
            c.skip_ws();
            match stack.last_mut() {
                None => {
                    return Ok(if c.peek().is_some() {
                        Err(Bad::After(c.pos))
                    } else {
                        Ok(v)
                    });
                }
                Some(Open::Array(items)) => {
                    if items.len() >= crate::limits::MAX_ARRAY_LENGTH {
                        return Err(vm.range_error("Invalid array length"));
                    }
                    items.push(v);
                    match c.peek() {
                        Some(0x2c) => {
                            c.pos += 1;
                            continue 'value;
                        }
                        Some(0x5d) => {
                            c.pos += 1;
                            let Some(Open::Array(items)) = stack.pop() else {
                                unreachable!()
                            };
                            v = vm.new_array(items)?;
                        }
                        _ => {
                            return Ok(Err(Bad::At(
                                "Expected ',' or ']' after array element",
                                c.pos,
                            )));
                        }
                    }
                }
                Some(Open::Object(o, key)) => {
                    let (o, key) = (*o, *key);
                    vm.define(o, key, Slot::Data(v), DEFAULT_ATTRS)?;
                    match c.peek() {
                        Some(0x2c) => {
                            c.pos += 1;
                            c.skip_ws();
                            if c.peek() != Some(0x22) {
                                return Ok(Err(Bad::At(
                                    "Expected double-quoted property name",
                                    c.pos,
                                )));
                            }
                            match object_key(vm, c)? {
                                Ok(k) => {
                                    if let Some(Open::Object(_, slot)) = stack.last_mut() {
                                        *slot = k;
                                    }
                                }
                                Err(b) => return Ok(Err(b)),
                            }
                            continue 'value;
                        }
                        Some(0x7d) => {
                            c.pos += 1;
                            stack.pop();
                            v = Value::Obj(o);
                        }
                        _ => {
                            return Ok(Err(Bad::At(
                                "Expected ',' or '}' after property value",
                                c.pos,
                            )));
                        }
                    }
                }
            }
        }
    }
}

fn depth_error(vm: &mut Vm) -> Throw {
    vm.range_error(&format!(
        "Value exceeds the maximum depth of {MAX_DATA_DEPTH}."
    ))
}

/// A property name and its `:` (the cursor is at the opening quote).
fn object_key(vm: &mut Vm, c: &mut Cursor<'_>) -> Res<Result<Key, Bad>> {
    let s = match string(c) {
        Ok(s) => s,
        Err(b) => return Ok(Err(b)),
    };
    c.skip_ws();
    if c.peek() != Some(0x3a) {
        return Ok(Err(Bad::At("Expected ':' after property name", c.pos)));
    }
    c.pos += 1;
    Ok(Ok(vm.heap.key_of(&s)?))
}

/// `true`, `false` or `null` (the cursor is at its first letter).
fn literal(c: &mut Cursor<'_>, word: &str) -> Result<(), Bad> {
    for b in word.bytes() {
        match c.peek() {
            None => return Err(Bad::End),
            Some(u) if u == b as u16 => c.pos += 1,
            Some(_) => return Err(Bad::Token),
        }
    }
    Ok(())
}

/// A string literal (the cursor is at the opening quote).
fn string(c: &mut Cursor<'_>) -> Result<JsStr, Bad> {
    c.pos += 1;
    let start = c.pos;
    // Fast path: no escapes.
    loop {
        match c.peek() {
            None => return Err(Bad::At("Unterminated string", c.pos)),
            Some(0x22) => {
                let s = c.text.slice(start, c.pos);
                c.pos += 1;
                return Ok(s);
            }
            Some(0x5c) => break,
            Some(u) if u < 0x20 => {
                return Err(Bad::At("Bad control character in string literal", c.pos));
            }
            Some(_) => c.pos += 1,
        }
    }
    let mut units: Vec<u16> = c.text.slice(start, c.pos).units();
    loop {
        match c.peek() {
            None => return Err(Bad::At("Unterminated string", c.pos)),
            Some(0x22) => {
                c.pos += 1;
                return Ok(JsStr::from_units(units));
            }
            Some(0x5c) => {
                c.pos += 1;
                let Some(e) = c.peek() else {
                    return Err(Bad::End);
                };
                let u = match e {
                    0x22 => 0x22,
                    0x5c => 0x5c,
                    0x2f => 0x2f,
                    0x62 => 0x08,
                    0x66 => 0x0c,
                    0x6e => 0x0a,
                    0x72 => 0x0d,
                    0x74 => 0x09,
                    0x75 => {
                        let mut code = 0u16;
                        for _ in 0..4 {
                            c.pos += 1;
                            let d = c
                                .peek()
                                .and_then(|h| char::from_u32(h as u32)?.to_digit(16));
                            match d {
                                Some(d) => code = code * 16 + d as u16,
                                None => return Err(Bad::At("Bad Unicode escape", c.pos)),
                            }
                        }
                        code
                    }
                    _ => return Err(Bad::At("Bad escaped character", c.pos)),
                };
                units.push(u);
                c.pos += 1;
            }
            Some(u) if u < 0x20 => {
                return Err(Bad::At("Bad control character in string literal", c.pos));
            }
            Some(u) => {
                units.push(u);
                c.pos += 1;
            }
        }
    }
}

/// A number (the cursor is at `-` or a digit).
fn number(c: &mut Cursor<'_>) -> Result<f64, Bad> {
    let start = c.pos;
    let digit = |u: Option<u16>| matches!(u, Some(0x30..=0x39));
    if c.peek() == Some(0x2d) {
        c.pos += 1;
        if !digit(c.peek()) {
            return Err(Bad::At("No number after minus sign", c.pos));
        }
    }
    if c.peek() == Some(0x30) {
        c.pos += 1;
        if digit(c.peek()) {
            return Err(Bad::At("Unexpected number", c.pos));
        }
    } else {
        while digit(c.peek()) {
            c.pos += 1;
        }
    }
    if c.peek() == Some(0x2e) {
        c.pos += 1;
        if !digit(c.peek()) {
            return Err(Bad::At("Unterminated fractional number", c.pos));
        }
        while digit(c.peek()) {
            c.pos += 1;
        }
    }
    if let Some(0x65 | 0x45) = c.peek() {
        c.pos += 1;
        if let Some(0x2b | 0x2d) = c.peek() {
            c.pos += 1;
        }
        if !digit(c.peek()) {
            return Err(Bad::At("Exponent part is missing a number", c.pos));
        }
        while digit(c.peek()) {
            c.pos += 1;
        }
    }
    let ascii: String = (start..c.pos).map(|i| c.text.at(i) as u8 as char).collect();
    Ok(ascii.parse::<f64>().unwrap_or(f64::NAN))
}
