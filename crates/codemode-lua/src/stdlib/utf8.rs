//! The `utf8` library: `char charpattern codepoint len offset codes`, with Lua 5.4's decoding
//! rules (`lutf8lib.c`): sequences up to 6 bytes and code points up to 0x7FFFFFFF are accepted in
//! *lax* mode; the default (strict) mode rejects surrogates and code points above 0x10FFFF.
//! Overlong encodings are always rejected. Positions are 1-based byte indexes as in Lua.

use crate::value::{Throw, Value, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm};

/// Install `utf8` into `vm`.
pub(crate) fn open(vm: &mut Vm) -> VmResult<()> {
    let funcs: &[(&'static str, NativeFn)] = &[
        ("char", char_native),
        ("codepoint", codepoint_native),
        ("len", len_native),
        ("offset", offset_native),
        ("codes", codes_native),
    ];
    let t = vm.new_lib("utf8", funcs)?;
    let p = vm.heap.new_str(CHARPATTERN)?;
    vm.heap.table_set_field(t, "charpattern", p)?;
    Ok(())
}

fn char_native(ctx: &mut Ctx) -> VmResult<Rets> {
    let n = ctx.nargs();
    let mut out = Vec::with_capacity(n);
    let mut acc = 0usize;
    for i in 0..n {
        let c = ctx.check_int(i)?;
        char_of(c, i + 1, &mut out).map_err(|e| raise(ctx, e))?;
        ctx.work_elems(&mut acc, 1)?;
    }
    ctx.charge(1 + acc as u64 / 4)?;
    Ok(ctx.new_str(&out)?.into())
}

fn len_native(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let i = ctx.opt_int(1, 1)?;
    let j = ctx.opt_int(2, -1)?;
    let lax = ctx.arg(3).truthy();
    let n = ctx.heap_ref().str_bytes(s).len() as u64;
    ctx.charge(1 + n / 8)?;
    let heap = ctx.heap_ref();
    let r = len_checked(heap.str_bytes(s), i, j, lax, &mut || {
        heap.check_deadline().is_err()
    });
    let r = r.map_err(|e| raise(ctx, e))?;
    Ok(match r {
        Ok(n) => Value::Int(n).into(),
        Err(pos) => Rets::Two(Value::Nil, Value::Int(pos)),
    })
}

fn codepoint_native(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let i = ctx.opt_int(1, 1)?;
    let j = if ctx.arg(2).is_nil() {
        None
    } else {
        Some(ctx.check_int(2)?)
    };
    let lax = ctx.arg(3).truthy();
    let b = ctx.heap_ref().str_bytes(s);
    let max = crate::limits::MAX_CALL_RESULTS;
    let cps = codepoint(b, i, j, lax, max);
    let cps = cps.map_err(|e| raise(ctx, e))?;
    ctx.charge(1 + cps.len() as u64)?;
    Ok(Rets::Many(cps.into_iter().map(Value::Int).collect()))
}

fn offset_native(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let n = ctx.check_int(1)?;
    let i = if ctx.arg(2).is_nil() {
        None
    } else {
        Some(ctx.check_int(2)?)
    };
    let len = ctx.heap_ref().str_bytes(s).len() as u64;
    ctx.charge(1 + len.min(n.unsigned_abs().saturating_mul(4)) / 4)?;
    let heap = ctx.heap_ref();
    let r = offset_checked(heap.str_bytes(s), n, i, &mut || {
        heap.check_deadline().is_err()
    });
    let r = r.map_err(|e| raise(ctx, e))?;
    Ok(r.map_or(Value::Nil, Value::Int).into())
}

/// `utf8.codes(s [, lax])` returns `(utf8.codes, state, 0)`: the same native is the iterator.
/// Called by the generic `for` it gets `(state, position)` with an integer position, which is how
/// it tells the two uses apart. `state` is the string (strict) or a table `{s}` (lax).
fn codes_native(ctx: &mut Ctx) -> VmResult<Rets> {
    if let Value::Int(control) = ctx.arg(1) {
        let (s, strict) = match ctx.arg(0) {
            Value::Str(s) => (s, true),
            Value::Table(t) => match ctx.heap_ref().table_get_int(t, 1) {
                Value::Str(s) => (s, false),
                _ => return Err(ctx.type_error(0, "string")),
            },
            _ => (ctx.check_str(0)?, true),
        };
        ctx.charge(1)?;
        let heap = ctx.heap_ref();
        let r = codes_next_checked(heap.str_bytes(s), control, strict, &mut || {
            heap.check_deadline().is_err()
        });
        return Ok(match r.map_err(|e| raise(ctx, e))? {
            Some((p, c)) => Rets::Two(Value::Int(p), Value::Int(c)),
            None => Value::Nil.into(),
        });
    }
    let s = ctx.check_str(0)?;
    let lax = ctx.arg(1).truthy();
    let me = match ctx.vm.get_global("utf8") {
        Value::Table(t) => ctx.heap_ref().table_get_field(t, "codes"),
        _ => Value::Nil,
    };
    let me = if me.is_function() {
        me
    } else {
        return Err(Throw::msg("utf8.codes: the utf8 table was changed"));
    };
    let state = if lax {
        let t = ctx.heap().new_table(1, 0)?;
        ctx.heap().table_set_int(t, 1, Value::Str(s))?;
        Value::Table(t)
    } else {
        Value::Str(s)
    };
    Ok(Rets::Many(vec![me, state, Value::Int(0)]))
}

/// `utf8.charpattern`: the Lua pattern matching exactly one UTF-8 byte sequence.
pub(crate) const CHARPATTERN: &[u8] = b"[\x00-\x7F\xC2-\xFD][\x80-\xBF]*";

const MAXUNICODE: u32 = 0x10FFFF;
/// Largest code point `utf8.char` encodes (and lax decoding accepts).
pub(crate) const MAXUTF: u32 = 0x7FFF_FFFF;

/// An error of a utf8 helper: `arg` is the 1-based argument number for "bad argument" errors.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct UtfError {
    pub arg: Option<usize>,
    pub msg: &'static str,
}

fn arg_err(arg: usize, msg: &'static str) -> UtfError {
    UtfError {
        arg: Some(arg),
        msg,
    }
}

fn plain(msg: &'static str) -> UtfError {
    UtfError { arg: None, msg }
}

fn raise(ctx: &Ctx, e: UtfError) -> Throw {
    if e.arg.is_none()
        && e.msg == TIMED_OUT
        && let Err(t) = ctx.heap_ref().check_deadline()
    {
        return t;
    }
    match e.arg {
        Some(n) => ctx.arg_error(n - 1, e.msg),
        None => Throw::msg(e.msg),
    }
}

/// Message Lua uses for undecodable input.
pub(crate) const MSG_INVALID: &str = "invalid UTF-8 code";

fn byte_at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

fn is_cont(s: &[u8], i: usize) -> bool {
    byte_at(s, i) & 0xC0 == 0x80
}

/// Decode the sequence starting at byte `pos` (0-based). Returns the code point and the index
/// just past the sequence, or `None` for an invalid sequence (Lua's `utf8_decode`).
pub(crate) fn decode(s: &[u8], pos: usize, strict: bool) -> Option<(u32, usize)> {
    const LIMITS: [u32; 6] = [!0, 0x80, 0x800, 0x10000, 0x200000, 0x4000000];
    let mut c = byte_at(s, pos) as u32;
    let mut res: u32 = 0;
    let mut count = 0usize;
    if c < 0x80 {
        res = c;
    } else {
        while c & 0x40 != 0 {
            count += 1;
            let cc = byte_at(s, pos + count) as u32;
            if cc & 0xC0 != 0x80 {
                return None;
            }
            res = (res << 6) | (cc & 0x3F);
            c <<= 1;
        }
        res |= (c & 0x7F).checked_shl((count * 5) as u32).unwrap_or(0);
        if count > 5 || res > MAXUTF || res < LIMITS[count] {
            return None;
        }
    }
    if strict && (res > MAXUNICODE || (0xD800..=0xDFFF).contains(&res)) {
        return None;
    }
    Some((res, pos + count + 1))
}

/// Append the (lax) UTF-8 encoding of `x` (must be ≤ [`MAXUTF`]), as Lua's `luaO_utf8esc`.
pub(crate) fn encode(mut x: u32, out: &mut Vec<u8>) {
    if x < 0x80 {
        out.push(x as u8);
        return;
    }
    let mut buf = [0u8; 8];
    let mut n = 0;
    let mut mfb: u32 = 0x3f;
    loop {
        buf[7 - n] = 0x80 | (x & 0x3f) as u8;
        n += 1;
        x >>= 6;
        mfb >>= 1;
        if x <= mfb {
            break;
        }
    }
    buf[7 - n] = ((!mfb << 1) | x) as u8;
    n += 1;
    out.extend_from_slice(&buf[8 - n..]);
}

/// Lua's `u_posrelat`: negative positions count from the end; too negative gives 0.
fn posrelat(pos: i64, len: usize) -> i64 {
    if pos >= 0 {
        pos
    } else if pos.unsigned_abs() > len as u64 {
        0
    } else {
        len as i64 + pos + 1
    }
}

/// `utf8.char(...)` of one code point; the error text is the argument message.
pub(crate) fn char_of(code: i64, argno: usize, out: &mut Vec<u8>) -> Result<(), UtfError> {
    if code < 0 || code as u64 > MAXUTF as u64 {
        return Err(arg_err(argno, "value out of range"));
    }
    encode(code as u32, out);
    Ok(())
}

/// `utf8.len(s, i, j, lax)`: `Ok(Ok(n))` characters, `Ok(Err(pos))` for the first invalid byte
/// (Lua returns `nil, pos`), `Err(message)` for bad positions.
#[cfg(test)]
pub(crate) fn len(s: &[u8], i: i64, j: i64, lax: bool) -> Result<Result<i64, i64>, UtfError> {
    len_checked(s, i, j, lax, &mut || false)
}

/// Message of the error the `_checked` helpers return when `timed_out` said so (the native
/// reports its own timeout instead).
pub(crate) const TIMED_OUT: &str = "utf8: the deadline passed";

/// Bytes between two calls of `timed_out` in the `_checked` helpers.
const CHUNK: i64 = crate::limits::WORK_CHUNK_BYTES as i64;

/// [`len`] asking `timed_out` every [`crate::limits::WORK_CHUNK_BYTES`] bytes decoded.
pub(crate) fn len_checked(
    s: &[u8],
    i: i64,
    j: i64,
    lax: bool,
    timed_out: &mut dyn FnMut() -> bool,
) -> Result<Result<i64, i64>, UtfError> {
    let l = s.len() as i64;
    let mut posi = posrelat(i, s.len());
    let posj = posrelat(j, s.len());
    if !(1 <= posi && posi - 1 <= l) {
        return Err(arg_err(2, "initial position out of bounds"));
    }
    posi -= 1;
    let posj = posj - 1;
    if posj >= l {
        return Err(arg_err(3, "final position out of bounds"));
    }
    let mut n = 0;
    let mut next_check = posi + CHUNK;
    while posi <= posj {
        if posi >= next_check {
            next_check = posi + CHUNK;
            if timed_out() {
                return Err(plain(TIMED_OUT));
            }
        }
        match decode(s, posi as usize, !lax) {
            Some((_, next)) => posi = next as i64,
            None => return Ok(Err(posi + 1)),
        }
        n += 1;
    }
    Ok(Ok(n))
}

/// `utf8.codepoint(s, i, j, lax)`: the code points of the characters starting in [i, j].
/// `max_results` bounds the output (Lua: "string slice too long").
pub(crate) fn codepoint(
    s: &[u8],
    i: i64,
    j: Option<i64>,
    lax: bool,
    max_results: usize,
) -> Result<Vec<i64>, UtfError> {
    let posi = posrelat(i, s.len());
    let pose = posrelat(j.unwrap_or(posi), s.len());
    if posi < 1 {
        return Err(arg_err(2, "out of bounds"));
    }
    if pose > s.len() as i64 {
        return Err(arg_err(3, "out of bounds"));
    }
    if posi > pose {
        return Ok(Vec::new());
    }
    if (pose - posi) as u64 >= max_results as u64 {
        return Err(plain("string slice too long"));
    }
    let mut out = Vec::new();
    let mut p = (posi - 1) as usize;
    let end = pose as usize;
    while p < end {
        match decode(s, p, !lax) {
            Some((code, next)) => {
                out.push(code as i64);
                p = next;
            }
            None => return Err(plain(MSG_INVALID)),
        }
    }
    Ok(out)
}

/// `utf8.offset(s, n, i)`: byte position (1-based) where the n-th character (counting from
/// position `i`) starts; `Ok(None)` when there is no such character.
#[cfg(test)]
pub(crate) fn offset(s: &[u8], n: i64, i: Option<i64>) -> Result<Option<i64>, UtfError> {
    offset_checked(s, n, i, &mut || false)
}

/// [`offset`] asking `timed_out` every [`crate::limits::WORK_CHUNK_BYTES`] bytes stepped over.
pub(crate) fn offset_checked(
    s: &[u8],
    n: i64,
    i: Option<i64>,
    timed_out: &mut dyn FnMut() -> bool,
) -> Result<Option<i64>, UtfError> {
    let mut steps = 0i64;
    let mut tick = |steps: &mut i64| -> Result<(), UtfError> {
        *steps += 1;
        if *steps % CHUNK == 0 && timed_out() {
            return Err(plain(TIMED_OUT));
        }
        Ok(())
    };
    let len = s.len() as i64;
    let default = if n >= 0 { 1 } else { len + 1 };
    let mut posi = posrelat(i.unwrap_or(default), s.len());
    if !(1 <= posi && posi - 1 <= len) {
        return Err(arg_err(3, "position out of bounds"));
    }
    posi -= 1;
    let mut n = n;
    if n == 0 {
        while posi > 0 && is_cont(s, posi as usize) {
            posi -= 1;
            tick(&mut steps)?;
        }
    } else {
        if is_cont(s, posi as usize) {
            return Err(plain("initial position is a continuation byte"));
        }
        if n < 0 {
            while n < 0 && posi > 0 {
                loop {
                    posi -= 1;
                    tick(&mut steps)?;
                    if !(posi > 0 && is_cont(s, posi as usize)) {
                        break;
                    }
                }
                n += 1;
            }
        } else {
            n -= 1;
            while n > 0 && posi < len {
                loop {
                    posi += 1;
                    tick(&mut steps)?;
                    if !is_cont(s, posi as usize) {
                        break;
                    }
                }
                n -= 1;
            }
        }
    }
    Ok(if n == 0 { Some(posi + 1) } else { None })
}

/// One step of the `utf8.codes` iterator (Lua 5.4.4's `iter_aux`): given the control value (the
/// previous position, 0 at the start), skip continuation bytes and decode the next character:
/// `(position, code point)`, or `None` at the end.
#[cfg(test)]
pub(crate) fn codes_next(
    s: &[u8],
    control: i64,
    strict: bool,
) -> Result<Option<(i64, i64)>, UtfError> {
    codes_next_checked(s, control, strict, &mut || false)
}

/// [`codes_next`] asking `timed_out` every [`crate::limits::WORK_CHUNK_BYTES`] continuation
/// bytes skipped.
pub(crate) fn codes_next_checked(
    s: &[u8],
    control: i64,
    strict: bool,
    timed_out: &mut dyn FnMut() -> bool,
) -> Result<Option<(i64, i64)>, UtfError> {
    let len = s.len() as u64;
    let mut n = control as u64;
    if n < len {
        let mut next_check = n + CHUNK as u64;
        while is_cont(s, n as usize) {
            n += 1;
            if n >= next_check {
                next_check = n + CHUNK as u64;
                if timed_out() {
                    return Err(plain(TIMED_OUT));
                }
            }
        }
    }
    if n >= len {
        return Ok(None);
    }
    match decode(s, n as usize, strict) {
        Some((code, _)) => Ok(Some((n as i64 + 1, code as i64))),
        None => Err(plain(MSG_INVALID)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(x: u32) -> Vec<u8> {
        let mut v = Vec::new();
        encode(x, &mut v);
        v
    }

    #[test]
    fn encode_matches_lua() {
        assert_eq!(enc(65), b"A");
        assert_eq!(enc(0xE9), "é".as_bytes());
        assert_eq!(enc(0x20AC), "€".as_bytes());
        assert_eq!(enc(0x1F600), "😀".as_bytes());
        assert_eq!(enc(0xD800), vec![0xED, 0xA0, 0x80]);
        assert_eq!(enc(0x7FFFFFFF), vec![0xFD, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF]);
        assert_eq!(enc(0x110000), vec![0xF4, 0x90, 0x80, 0x80]);
        let mut v = Vec::new();
        assert!(char_of(0x80000000, 1, &mut v).is_err());
        assert_eq!(
            char_of(-1, 3, &mut v).unwrap_err(),
            arg_err(3, "value out of range")
        );
    }

    #[test]
    fn len_and_codepoint() {
        let s = "héllo€".as_bytes();
        assert_eq!(len(s, 1, -1, false), Ok(Ok(6)));
        assert_eq!(len(s, 3, -1, false), Ok(Err(3)));
        assert_eq!(len(b"ab\xffcd", 1, -1, false), Ok(Err(3)));
        assert_eq!(len(b"", 1, -1, false), Ok(Ok(0)));
        assert_eq!(
            len(b"abc", 5, -1, false).unwrap_err(),
            arg_err(2, "initial position out of bounds")
        );
        assert_eq!(len(b"abc", 4, -1, false), Ok(Ok(0)));
        assert_eq!(
            len(b"abc", 1, 4, false).unwrap_err(),
            arg_err(3, "final position out of bounds")
        );
        assert_eq!(len(&enc(0xD800), 1, -1, false), Ok(Err(1)));
        assert_eq!(len(&enc(0xD800), 1, -1, true), Ok(Ok(1)));
        assert_eq!(len(b"\xC0\x80", 1, -1, true), Ok(Err(1))); // overlong
        assert_eq!(
            codepoint(s, 1, Some(-1), false, 1000),
            Ok(vec![104, 233, 108, 108, 111, 8364])
        );
        assert_eq!(codepoint(s, 2, None, false, 1000), Ok(vec![233]));
        assert_eq!(
            codepoint(s, 3, None, false, 1000).unwrap_err(),
            plain("invalid UTF-8 code")
        );
        assert_eq!(
            codepoint(b"abc", 0, None, false, 1000).unwrap_err(),
            arg_err(2, "out of bounds")
        );
        assert_eq!(
            codepoint(b"abc", 1, Some(4), false, 1000).unwrap_err(),
            arg_err(3, "out of bounds")
        );
        assert_eq!(codepoint(b"abc", 3, Some(2), false, 1000), Ok(vec![]));
        assert_eq!(codepoint(b"abc", -1, None, false, 1000), Ok(vec![99]));
    }

    #[test]
    fn offset_matches_lua() {
        let s = "aé€b".as_bytes(); // a(1) é(2,3) €(4,5,6) b(7)
        assert_eq!(offset(s, 1, None), Ok(Some(1)));
        assert_eq!(offset(s, 3, None), Ok(Some(4)));
        assert_eq!(offset(s, 5, None), Ok(Some(8)));
        assert_eq!(offset(s, 6, None), Ok(None));
        assert_eq!(offset(s, -1, None), Ok(Some(7)));
        assert_eq!(offset(s, -2, None), Ok(Some(4)));
        assert_eq!(offset(s, -5, None), Ok(None));
        assert_eq!(offset(s, 0, Some(5)), Ok(Some(4)));
        assert_eq!(
            offset(s, 1, Some(5)).unwrap_err(),
            plain("initial position is a continuation byte")
        );
        assert_eq!(
            offset(s, 1, Some(9)).unwrap_err(),
            arg_err(3, "position out of bounds")
        );
    }

    #[test]
    fn codes_iteration() {
        let s = "aé€".as_bytes();
        let mut c = 0;
        let mut got = Vec::new();
        while let Some((p, code)) = codes_next(s, c, true).unwrap() {
            got.push((p, code));
            c = p;
        }
        assert_eq!(got, vec![(1, 97), (2, 233), (4, 8364)]);
        assert_eq!(
            codes_next(b"a\xff", 1, true).unwrap_err(),
            plain("invalid UTF-8 code")
        );
        assert_eq!(codes_next(b"\x80a", 0, true), Ok(Some((2, 97))));
        assert_eq!(codes_next(b"a\x80b", 1, true), Ok(Some((3, 98))));
        assert_eq!(codes_next(b"ab", 2, true), Ok(None));
    }
}
