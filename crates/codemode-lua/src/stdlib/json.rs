//! The `json` library: `json.null`, `json.array(...)`, `json.encode(v)`, `json.decode(s)`.
//!
//! [`decode_text`] is our own strict JSON (RFC 8259) reader: iterative (an explicit stack, never
//! Rust recursion), nesting bounded by [`MAX_DEPTH`], numbers kept as integers when the text is
//! an integer that fits in 64 bits (else floats; a float that overflows is an error), strings
//! validated as UTF-8 (lone surrogate escapes are rejected). Errors name a 1-based byte position,
//! so a program can look at `s:sub(pos, pos)`.

use serde_json::{Map, Number as JsonNumber, Value};

use crate::boundary;
use crate::table::Shape;
use crate::value::{Throw, Value as LuaValue, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm};

/// Install `json` into `vm`: `json.null` (a sentinel that is neither nil nor a table),
/// `json.array(...)`, `json.encode(v)`, `json.decode(s)`.
pub(crate) fn open(vm: &mut Vm) -> VmResult<()> {
    let funcs: &[(&'static str, NativeFn)] =
        &[("array", array), ("encode", encode), ("decode", decode)];
    let t = vm.new_lib("json", funcs)?;
    vm.heap.table_set_field(t, "null", LuaValue::JsonNull)?;
    Ok(())
}

/// `json.array(...)`: a table marked as a JSON array holding the arguments (a `nil` argument is
/// stored as `json.null`, so positions are kept). `json.array()` encodes as `[]`.
fn array(ctx: &mut Ctx) -> VmResult<Rets> {
    let vals: Vec<LuaValue> = ctx.args().to_vec();
    ctx.charge(1 + vals.len() as u64)?;
    let heap = ctx.heap();
    let t = heap.new_table(vals.len(), 0)?;
    heap.set_shape(t, Shape::Array);
    for (i, v) in vals.into_iter().enumerate() {
        let v = if v.is_nil() { LuaValue::JsonNull } else { v };
        heap.table_set_int(t, i as i64 + 1, v)?;
    }
    Ok(LuaValue::Table(t).into())
}

/// `json.encode(v)`: JSON text under the data-boundary rules (object keys sorted; integers stay
/// integers, floats are written with a fraction or exponent, e.g. `3.0`; NaN/±inf → `null`).
/// Errors (catchable, kind InvalidDataValue) name the path inside `v`, e.g. `value.items[2]`.
fn encode(ctx: &mut Ctx) -> VmResult<Rets> {
    if ctx.nargs() == 0 {
        return Err(ctx.arg_error(0, "value expected"));
    }
    let v = ctx.arg(0);
    let mut work = 0u64;
    let json = boundary::export(ctx.heap_ref(), v, "value", &mut work);
    ctx.charge(work)?;
    let json = json.map_err(|e| {
        e.with(|d| {
            if let crate::value::ErrVal::Msg(m) = &mut d.value {
                *m = format!("json.encode: {m}");
            }
        })
    })?;
    // Written through a sink that checks the deadline every chunk of output (up to 64 MiB of
    // text: `MAX_EXPORT_BYTES`).
    let mut sink = CheckedSink {
        buf: Vec::new(),
        heap: ctx.heap_ref(),
        next_check: crate::limits::WORK_CHUNK_BYTES,
        timed_out: None,
    };
    let written = serde_json::to_writer(&mut sink, &json);
    let CheckedSink { buf, timed_out, .. } = sink;
    crate::boundary::drop_json(json);
    if let Some(t) = timed_out {
        return Err(t);
    }
    written.map_err(|e| Throw::msg(format!("json.encode: {e}")))?;
    ctx.heap_ref().reserve_str(buf.len())?;
    ctx.charge(buf.len() as u64 / 16)?;
    Ok(ctx.heap().intern_owned(buf).map(LuaValue::Str)?.into())
}

/// An output buffer for `serde_json::to_writer` that checks the execution's deadline every
/// [`crate::limits::WORK_CHUNK_BYTES`] bytes (a write fails once it has passed).
struct CheckedSink<'h> {
    buf: Vec<u8>,
    heap: &'h crate::heap::Heap,
    next_check: usize,
    timed_out: Option<Throw>,
}

impl std::io::Write for CheckedSink<'_> {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= self.next_check {
            self.next_check = self.buf.len() + crate::limits::WORK_CHUNK_BYTES;
            if let Err(t) = self.heap.check_deadline() {
                self.timed_out = Some(t);
                return Err(std::io::Error::other("the deadline passed"));
            }
        }
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `json.decode(s)`: Lua data from JSON text. Arrays and objects become tables that remember
/// their shape; `null` inside an array is `json.null` (positions kept); an object field whose
/// value is `null` is left out (reads as `nil`); a top-level `null` gives `nil`.
fn decode(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let bytes = ctx.heap_ref().str_bytes(s);
    ctx.charge(1 + bytes.len() as u64 / 16)?;
    // The intermediate tree lives outside the heap's accounting: bound it by what the heap could
    // still hold, so a large input fails with the memory limit before it is built.
    let mem = &ctx.heap_ref().meter.mem;
    let room = mem.cap.saturating_sub(mem.used);
    let bytes = ctx.heap_ref().str_bytes(s);
    let deadline = ctx.heap_ref().work_until();
    let tree = match decode_text_within(bytes, room, deadline) {
        Ok(tree) => tree,
        Err(DecodeError::Syntax(m)) => return Err(Throw::msg(m)),
        Err(DecodeError::Timeout) => return Err(ctx.heap_ref().check_deadline().unwrap_err()),
        Err(DecodeError::TooLarge) => {
            return Err(ctx
                .heap_ref()
                .meter
                .mem
                .check(room.saturating_add(1))
                .unwrap_err());
        }
    };
    let mut work = 0u64;
    let v = boundary::import(ctx.heap(), &tree, &mut work)?;
    ctx.charge(work)?;
    Ok(v.into())
}

pub(crate) use crate::boundary::MAX_DEPTH;

enum Frame {
    Arr(Vec<Value>),
    Obj(Map<String, Value>, String),
}

struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    /// Checked every [`crate::limits::WORK_CHUNK_BYTES`] of one long string or whitespace run.
    deadline: Option<std::time::Instant>,
    /// The deadline was seen to have passed: whatever error the parse then returns is reported
    /// as [`DecodeError::Timeout`].
    expired: bool,
}

fn err_at(pos: usize, what: impl std::fmt::Display) -> String {
    format!("json.decode: {what} at position {}", pos + 1)
}

fn describe(c: u8) -> String {
    if c.is_ascii_graphic() || c == b' ' {
        format!("unexpected character '{}'", c as char)
    } else {
        format!("unexpected byte 0x{c:02X}")
    }
}

impl<'a> Reader<'a> {
    fn ws(&mut self) {
        loop {
            let end = self.s.len().min(self.i + crate::limits::WORK_CHUNK_BYTES);
            while self.i < end && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
            // A whole chunk of whitespace: check the deadline (once passed, stop here; the next
            // step fails and the failure is reported as the timeout).
            if self.i < end || self.i == self.s.len() || self.late() {
                return;
            }
        }
    }

    /// Whether the deadline has passed (remembered in `expired`).
    fn late(&mut self) -> bool {
        if self
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            self.expired = true;
        }
        self.expired
    }

    fn unexpected(&self) -> String {
        match self.s.get(self.i) {
            Some(&c) => err_at(self.i, describe(c)),
            None => err_at(self.i, "unexpected end of input"),
        }
    }

    fn expect_word(&mut self, w: &[u8]) -> Result<(), String> {
        for &c in w {
            if self.s.get(self.i) != Some(&c) {
                return Err(self.unexpected());
            }
            self.i += 1;
        }
        Ok(())
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        let s = self.s;
        if s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        match s.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(c) if c.is_ascii_digit() => {
                while s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
            }
            _ => return Err(self.unexpected()),
        }
        let mut is_float = false;
        if s.get(self.i) == Some(&b'.') {
            is_float = true;
            self.i += 1;
            if !s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.unexpected());
            }
            while s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }
        if matches!(s.get(self.i), Some(b'e' | b'E')) {
            is_float = true;
            self.i += 1;
            if matches!(s.get(self.i), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.unexpected());
            }
            while s.get(self.i).is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
        }
        // The slice is ASCII by construction.
        let text = std::str::from_utf8(&s[start..self.i]).unwrap_or("");
        // `-0` is the float -0.0, as serde_json reads a tool's `-0` (so both give the same).
        if !is_float
            && text != "-0"
            && let Ok(i) = text.parse::<i64>()
        {
            return Ok(Value::Number(i.into()));
        }
        let f: f64 = text.parse().map_err(|_| err_at(start, "invalid number"))?;
        if !f.is_finite() {
            return Err(err_at(start, format!("number out of range ({text})")));
        }
        JsonNumber::from_f64(f)
            .map(Value::Number)
            .ok_or_else(|| err_at(start, "number out of range"))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = self
                .s
                .get(self.i)
                .and_then(|&c| (c as char).to_digit(16))
                .ok_or_else(|| err_at(self.i, "invalid \\u escape (4 hex digits expected)"))?;
            v = v * 16 + d;
            self.i += 1;
        }
        Ok(v)
    }

    /// A string literal; `self.i` is at the opening quote.
    fn string(&mut self) -> Result<String, String> {
        let open = self.i;
        self.i += 1;
        let mut out: Vec<u8> = Vec::new();
        loop {
            // Copy a run of plain bytes (at most one chunk, then check the deadline).
            let run_start = self.i;
            let end = self.s.len().min(self.i + crate::limits::WORK_CHUNK_BYTES);
            while self.i < end {
                let c = self.s[self.i];
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.extend_from_slice(&self.s[run_start..self.i]);
            if self.i == end && end < self.s.len() {
                if self.late() {
                    return Err("the deadline passed".into());
                }
                continue;
            }
            match self.s.get(self.i) {
                None => return Err(err_at(open, "unterminated string starting")),
                Some(b'"') => {
                    self.i += 1;
                    break;
                }
                Some(b'\\') => {
                    let esc_pos = self.i;
                    self.i += 1;
                    let c = self.s.get(self.i).copied();
                    self.i += 1;
                    match c {
                        Some(b'"') => out.push(b'"'),
                        Some(b'\\') => out.push(b'\\'),
                        Some(b'/') => out.push(b'/'),
                        Some(b'b') => out.push(8),
                        Some(b'f') => out.push(12),
                        Some(b'n') => out.push(b'\n'),
                        Some(b'r') => out.push(b'\r'),
                        Some(b't') => out.push(b'\t'),
                        Some(b'u') => {
                            let mut cp = self.hex4()?;
                            if (0xD800..0xDC00).contains(&cp) {
                                if self.s.get(self.i) == Some(&b'\\')
                                    && self.s.get(self.i + 1) == Some(&b'u')
                                {
                                    self.i += 2;
                                    let lo = self.hex4()?;
                                    if !(0xDC00..0xE000).contains(&lo) {
                                        return Err(err_at(
                                            esc_pos,
                                            "invalid \\u escape (lone surrogate)",
                                        ));
                                    }
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                                } else {
                                    return Err(err_at(
                                        esc_pos,
                                        "invalid \\u escape (lone surrogate)",
                                    ));
                                }
                            } else if (0xDC00..0xE000).contains(&cp) {
                                return Err(err_at(esc_pos, "invalid \\u escape (lone surrogate)"));
                            }
                            let ch = char::from_u32(cp).unwrap_or('\u{FFFD}');
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                        }
                        _ => return Err(err_at(esc_pos, "invalid escape in string")),
                    }
                }
                Some(_) => {
                    return Err(err_at(
                        self.i,
                        "control character in string (escape it, e.g. \\n)",
                    ));
                }
            }
        }
        String::from_utf8(out).map_err(|_| err_at(open, "string is not valid UTF-8"))
    }
}

/// Parse JSON text into a [`Value`]. Errors: `json.decode: <what> at position <1-based byte>`.
#[cfg(test)]
pub(crate) fn decode_text(text: &[u8]) -> Result<Value, String> {
    decode_text_within(text, usize::MAX, None).map_err(|e| match e {
        DecodeError::Syntax(m) => m,
        DecodeError::TooLarge => "json.decode: the value is too large".to_string(),
        DecodeError::Timeout => "json.decode: the deadline passed".to_string(),
    })
}

/// Why [`decode_text_within`] failed.
#[derive(Debug, PartialEq)]
pub(crate) enum DecodeError {
    /// Not JSON, or nested too deep: `json.decode: <what> at position <1-based byte>`.
    Syntax(String),
    /// The tree would take more than the given bytes (see [`DECODE_NODE_BYTES`]).
    TooLarge,
    /// The deadline passed while decoding.
    Timeout,
}

impl From<String> for DecodeError {
    fn from(m: String) -> Self {
        DecodeError::Syntax(m)
    }
}

/// Bytes counted per decoded value (and per object key, besides its text) against the bound of
/// `decode_text_within`: about what one `serde_json::Value` (or map entry) takes.
pub const DECODE_NODE_BYTES: usize = 64;

/// Like [`decode_text`], but stops with [`DecodeError::TooLarge`] as soon as the tree would take
/// more than `max_bytes` (counting [`DECODE_NODE_BYTES`] per value and key plus string bytes),
/// before building it further, and with [`DecodeError::Timeout`] once `deadline` has passed
/// (checked every 4,096 values).
pub(crate) fn decode_text_within(
    text: &[u8],
    max_bytes: usize,
    deadline: Option<std::time::Instant>,
) -> Result<Value, DecodeError> {
    let mut size = 0usize;
    let mut count = 0u64;
    let mut grow = |n: usize| -> Result<(), DecodeError> {
        size = size.saturating_add(n);
        count += 1;
        if size > max_bytes {
            return Err(DecodeError::TooLarge);
        }
        if count.is_multiple_of(crate::heap::DEADLINE_CHECK_WORK)
            && deadline.is_some_and(|d| std::time::Instant::now() >= d)
        {
            return Err(DecodeError::Timeout);
        }
        Ok(())
    };
    let mut r = Reader {
        s: text,
        i: 0,
        deadline,
        expired: false,
    };
    let result = decode_from(&mut r, &mut grow);
    match result {
        Err(_) if r.expired => Err(DecodeError::Timeout),
        other => other,
    }
}

/// The body of [`decode_text_within`]: parse one JSON text from `r`, calling `grow` for every
/// value built.
fn decode_from(
    r: &mut Reader<'_>,
    grow: &mut dyn FnMut(usize) -> Result<(), DecodeError>,
) -> Result<Value, DecodeError> {
    let mut stack: Vec<Frame> = Vec::new();
    'value: loop {
        // Parse one value (or open a container).
        r.ws();
        let mut value = match r.s.get(r.i) {
            Some(b'{') | Some(b'[') => {
                if stack.len() >= MAX_DEPTH {
                    return Err(
                        err_at(r.i, format!("nesting deeper than {MAX_DEPTH} levels")).into(),
                    );
                }
                let open = r.s[r.i];
                r.i += 1;
                r.ws();
                if open == b'[' {
                    if r.s.get(r.i) == Some(&b']') {
                        r.i += 1;
                        Value::Array(Vec::new())
                    } else {
                        stack.push(Frame::Arr(Vec::new()));
                        continue 'value;
                    }
                } else if r.s.get(r.i) == Some(&b'}') {
                    r.i += 1;
                    Value::Object(Map::new())
                } else {
                    if r.s.get(r.i) != Some(&b'"') {
                        return Err(r.unexpected().into());
                    }
                    let key = r.string()?;
                    grow(DECODE_NODE_BYTES + key.len())?;
                    r.ws();
                    if r.s.get(r.i) != Some(&b':') {
                        return Err(r.unexpected().into());
                    }
                    r.i += 1;
                    stack.push(Frame::Obj(Map::new(), key));
                    continue 'value;
                }
            }
            Some(b'"') => Value::String(r.string()?),
            Some(b't') => {
                r.expect_word(b"true")?;
                Value::Bool(true)
            }
            Some(b'f') => {
                r.expect_word(b"false")?;
                Value::Bool(false)
            }
            Some(b'n') => {
                r.expect_word(b"null")?;
                Value::Null
            }
            Some(c) if *c == b'-' || c.is_ascii_digit() => r.number()?,
            _ => return Err(r.unexpected().into()),
        };
        grow(
            DECODE_NODE_BYTES
                + if let Value::String(t) = &value {
                    t.len()
                } else {
                    0
                },
        )?;
        // Attach the finished value to its container(s), closing as many as end here.
        loop {
            let Some(top) = stack.last_mut() else {
                r.ws();
                if r.i < r.s.len() {
                    return Err(r.unexpected().into());
                }
                return Ok(value);
            };
            match top {
                Frame::Arr(items) => {
                    items.push(value);
                    r.ws();
                    match r.s.get(r.i) {
                        Some(b',') => {
                            r.i += 1;
                            continue 'value;
                        }
                        Some(b']') => {
                            r.i += 1;
                            let items = std::mem::take(items);
                            stack.pop();
                            value = Value::Array(items);
                        }
                        _ => return Err(r.unexpected().into()),
                    }
                }
                Frame::Obj(map, key) => {
                    map.insert(std::mem::take(key), value);
                    r.ws();
                    match r.s.get(r.i) {
                        Some(b',') => {
                            r.i += 1;
                            r.ws();
                            if r.s.get(r.i) != Some(&b'"') {
                                return Err(r.unexpected().into());
                            }
                            let k = r.string()?;
                            grow(DECODE_NODE_BYTES + k.len())?;
                            r.ws();
                            if r.s.get(r.i) != Some(&b':') {
                                return Err(r.unexpected().into());
                            }
                            r.i += 1;
                            *key = k;
                            continue 'value;
                        }
                        Some(b'}') => {
                            r.i += 1;
                            let map = std::mem::take(map);
                            stack.pop();
                            value = Value::Object(map);
                        }
                        _ => return Err(r.unexpected().into()),
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod decode_tests {
    use super::*;
    use serde_json::json;

    fn d(s: &str) -> Result<Value, String> {
        decode_text(s.as_bytes())
    }

    #[test]
    fn decodes_values() {
        assert_eq!(
            d(" {\"a\": [1, 2.5, -0, true, false, null, \"x\"], \"b\": {}} "),
            Ok(json!({"a": [1, 2.5, -0.0, true, false, null, "x"], "b": {}}))
        );
        assert_eq!(d("[]"), Ok(json!([])));
        assert_eq!(d("[[[]]]"), Ok(json!([[[]]])));
        assert_eq!(d("5"), Ok(json!(5)));
        assert_eq!(d("\"\\u00e9\\n\\ud83d\\ude00\\/\""), Ok(json!("é\n😀/")));
        assert_eq!(d("9223372036854775807"), Ok(json!(9223372036854775807i64)));
        assert_eq!(
            d("9223372036854775808"),
            Ok(json!(9223372036854775808.0f64))
        );
        assert_eq!(d("-9223372036854775808"), Ok(json!(i64::MIN)));
        assert_eq!(d("1e2"), Ok(json!(100.0)));
        assert_eq!(d("3.0").unwrap().as_f64(), Some(3.0));
        assert!(d("3.0").unwrap().is_f64());
        assert_eq!(d("{\"k\":1,\"k\":2}"), Ok(json!({"k": 2})));
        // Order of keys is kept.
        let v = d("{\"z\":1,\"a\":2,\"m\":3}").unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["z", "a", "m"]);
    }

    #[test]
    fn errors_name_positions() {
        assert_eq!(
            d("{\"a\":1,}").unwrap_err(),
            "json.decode: unexpected character '}' at position 8"
        );
        assert_eq!(
            d("[1,2").unwrap_err(),
            "json.decode: unexpected end of input at position 5"
        );
        assert_eq!(
            d("").unwrap_err(),
            "json.decode: unexpected end of input at position 1"
        );
        assert_eq!(
            d("1e400").unwrap_err(),
            "json.decode: number out of range (1e400) at position 1"
        );
        assert_eq!(
            d("[1] x").unwrap_err(),
            "json.decode: unexpected character 'x' at position 5"
        );
        assert_eq!(
            d("01").unwrap_err(),
            "json.decode: unexpected character '1' at position 2"
        );
        assert_eq!(
            d("nul").unwrap_err(),
            "json.decode: unexpected end of input at position 4"
        );
        assert_eq!(
            d("\"ab").unwrap_err(),
            "json.decode: unterminated string starting at position 1"
        );
        assert_eq!(
            d("\"\\ud800\"").unwrap_err(),
            "json.decode: invalid \\u escape (lone surrogate) at position 2"
        );
        assert_eq!(
            d("\"a\nb\"").unwrap_err(),
            "json.decode: control character in string (escape it, e.g. \\n) at position 3"
        );
        assert_eq!(
            decode_text(b"\"\xff\"").unwrap_err(),
            "json.decode: string is not valid UTF-8 at position 1"
        );
        assert_eq!(
            d("{1:2}").unwrap_err(),
            "json.decode: unexpected character '1' at position 2"
        );
        assert_eq!(
            d("[.5]").unwrap_err(),
            "json.decode: unexpected character '.' at position 2"
        );
        assert_eq!(
            d("NaN").unwrap_err(),
            "json.decode: unexpected character 'N' at position 1"
        );
        assert_eq!(
            d("\"\\x\"").unwrap_err(),
            "json.decode: invalid escape in string at position 2"
        );
    }

    #[test]
    fn depth_is_bounded_without_recursion() {
        let ok = "[".repeat(MAX_DEPTH) + &"]".repeat(MAX_DEPTH);
        assert!(d(&ok).is_ok());
        let deep = "[".repeat(MAX_DEPTH + 1) + &"]".repeat(MAX_DEPTH + 1);
        assert_eq!(
            d(&deep).unwrap_err(),
            format!(
                "json.decode: nesting deeper than {MAX_DEPTH} levels at position {}",
                MAX_DEPTH + 1
            )
        );
        let huge = "[".repeat(1_000_000);
        assert!(d(&huge).is_err());
        let objs = "{\"a\":".repeat(200);
        assert!(d(&objs).unwrap_err().contains("nesting deeper"));
    }

    /// Numbers compare by value (serde_json keeps big integers as u64, `-0` as a float).
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|((k1, v1), (k2, v2))| k1 == k2 && same(v1, v2))
            }
            _ => a == b,
        }
    }

    #[test]
    fn agrees_with_serde_json_on_random_inputs() {
        let alphabet: &[&[u8]] = &[
            b"{",
            b"}",
            b"[",
            b"]",
            b",",
            b":",
            b" ",
            b"\"",
            b"a",
            b"\\",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            b"\\n",
            b"0",
            b"1",
            b"-",
            b".",
            b"e",
            b"+",
            b"9999999999999999999",
            b"true",
            b"false",
            b"null",
            b"\xc3\xa9",
            b"\xff",
            b"\n",
            b"\"k\":",
            b"1.5e300",
            b"1e400",
            b"\\x",
        ];
        let mut state = 0xDEAD_BEEF_1234_5678u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let mut both_ok = 0;
        for _ in 0..30000 {
            let mut text = Vec::new();
            for _ in 0..next(14) + 1 {
                text.extend_from_slice(alphabet[next(alphabet.len())]);
            }
            let ours = decode_text(&text);
            let theirs: Result<Value, _> = serde_json::from_slice(&text);
            match (&ours, &theirs) {
                (Ok(a), Ok(b)) => {
                    both_ok += 1;
                    assert!(
                        same(a, b),
                        "{:?}: {a} vs {b}",
                        String::from_utf8_lossy(&text)
                    );
                }
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "disagree on {:?}: ours {ours:?}, serde_json {theirs:?}",
                    String::from_utf8_lossy(&text)
                ),
            }
        }
        assert!(both_ok > 100, "too few valid samples: {both_ok}");
    }
}
