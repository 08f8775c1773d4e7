//! The `string` library (Lua 5.4 manual §6.4): `byte char format len lower upper rep reverse
//! sub find`. Strings are byte strings; `lower`/`upper` change ASCII letters only (the C locale).
//! Numbers are accepted where strings are expected (`string.upper(12)` → `"12"`).
//!
//! Lua patterns are not implemented yet: `find` with `plain = true`, or with a pattern that has
//! no special characters, is a plain search (exactly Lua's behaviour); any other `find`, and
//! `match gmatch gsub`, raise an error that says what to use instead. `dump`, `pack`, `unpack`
//! and `packsize` are absent.

use crate::stdlib::format::{self, FmtArg, FormatError};
use crate::value::{StrRef, Throw, Value, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm, tostring_text};

/// Most values one call may return (`string.byte` over a long slice).
use crate::limits::MAX_CALL_RESULTS as MAX_RESULTS;

/// Install `string` into `vm` (the VM uses this table for string methods, `s:upper()`).
pub fn open(vm: &mut Vm) -> VmResult<()> {
    let funcs: &[(&'static str, NativeFn)] = &[
        ("byte", byte),
        ("char", char),
        ("format", format_),
        ("len", len),
        ("lower", lower),
        ("upper", upper),
        ("rep", rep),
        ("reverse", reverse),
        ("sub", sub),
        ("find", find),
        ("match", no_patterns),
        ("gmatch", no_patterns),
        ("gsub", no_patterns),
        ("dump", dump),
    ];
    vm.new_lib("string", funcs)?;
    Ok(())
}

/// Lua's `posrelatI`: a start position (negative counts from the end; 0 and too-negative → 1).
pub fn posrelat_start(pos: i64, len: usize) -> usize {
    if pos > 0 {
        pos as usize
    } else if pos == 0 || pos.unsigned_abs() > len as u64 {
        1
    } else {
        (len as i64 + pos + 1) as usize
    }
}

/// Lua's `getendpos`: an end position clipped to `[0, len]`.
pub fn end_pos(pos: i64, len: usize) -> usize {
    if pos > len as i64 {
        len
    } else if pos >= 0 {
        pos as usize
    } else if pos.unsigned_abs() > len as u64 {
        0
    } else {
        (len as i64 + pos + 1) as usize
    }
}

/// Charge fuel for touching `n` bytes (about one unit per 16 bytes).
fn charge_bytes(ctx: &mut Ctx, n: usize) -> VmResult<()> {
    ctx.charge(1 + (n as u64) / 16)
}

fn bytes_of<'c>(ctx: &'c Ctx<'_>, s: StrRef) -> &'c [u8] {
    ctx.heap_ref().str_bytes(s)
}

fn len(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    Ok(Value::Int(bytes_of(ctx, s).len() as i64).into())
}

fn map_bytes(ctx: &mut Ctx, f: fn(&[u8]) -> Vec<u8>) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let out = f(bytes_of(ctx, s));
    charge_bytes(ctx, out.len())?;
    Ok(ctx.new_str(&out)?.into())
}

fn lower(ctx: &mut Ctx) -> VmResult<Rets> {
    map_bytes(ctx, |b| b.to_ascii_lowercase())
}

fn upper(ctx: &mut Ctx) -> VmResult<Rets> {
    map_bytes(ctx, |b| b.to_ascii_uppercase())
}

fn reverse(ctx: &mut Ctx) -> VmResult<Rets> {
    map_bytes(ctx, |b| b.iter().rev().copied().collect())
}

fn sub(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let l = bytes_of(ctx, s).len();
    let start = posrelat_start(ctx.check_int(1)?, l);
    let end = end_pos(ctx.opt_int(2, -1)?, l);
    if start > end {
        let e = ctx.heap().intern_static("")?;
        return Ok(Value::Str(e).into());
    }
    if start == 1 && end == l {
        return Ok(Value::Str(s).into());
    }
    let piece = bytes_of(ctx, s)[start - 1..end].to_vec();
    charge_bytes(ctx, piece.len())?;
    Ok(ctx.new_str(&piece)?.into())
}

fn byte(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let l = bytes_of(ctx, s).len();
    let pi = ctx.opt_int(1, 1)?;
    let posi = posrelat_start(pi, l);
    let pose = end_pos(ctx.opt_int(2, pi)?, l);
    if posi > pose {
        return Ok(Rets::Zero);
    }
    let n = pose - posi + 1;
    if n > MAX_RESULTS {
        return Err(Throw::msg("string slice too long"));
    }
    charge_bytes(ctx, n * 8)?;
    let b = bytes_of(ctx, s);
    if n == 1 {
        return Ok(Value::Int(b[posi - 1] as i64).into());
    }
    Ok(Rets::Many(
        b[posi - 1..pose]
            .iter()
            .map(|&c| Value::Int(c as i64))
            .collect(),
    ))
}

fn char(ctx: &mut Ctx) -> VmResult<Rets> {
    let n = ctx.nargs();
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let c = ctx.check_int(i)?;
        if !(0..=255).contains(&c) {
            return Err(ctx.arg_error(i, "value out of range"));
        }
        out.push(c as u8);
    }
    charge_bytes(ctx, n)?;
    Ok(ctx.new_str(&out)?.into())
}

fn rep(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let n = ctx.check_int(1)?;
    let sep = ctx.opt_str(2)?;
    let (l, lsep) = (
        bytes_of(ctx, s).len(),
        sep.map_or(0, |r| bytes_of(ctx, r).len()),
    );
    if n <= 0 || (l == 0 && lsep == 0) {
        let e = ctx.heap().intern_static("")?;
        return Ok(Value::Str(e).into());
    }
    let total = (l as u64)
        .checked_mul(n as u64)
        .and_then(|a| {
            (lsep as u64)
                .checked_mul(n as u64 - 1)
                .and_then(|b| a.checked_add(b))
        })
        .filter(|&t| t <= isize::MAX as u64)
        .ok_or_else(|| Throw::msg("resulting string too large"))? as usize;
    // Fail at once (memory limit) before allocating a huge buffer.
    ctx.heap_ref().reserve_str(total)?;
    charge_bytes(ctx, total)?;
    let heap = ctx.heap_ref();
    let sb = heap.str_bytes(s);
    let sepb: &[u8] = sep.map_or(&[], |r| heap.str_bytes(r));
    // `[u8]::repeat` copies by doubling: fast for many short pieces, even in debug builds.
    let out = if sepb.is_empty() {
        sb.repeat(n as usize)
    } else {
        let mut unit = Vec::with_capacity(l + lsep);
        unit.extend_from_slice(sb);
        unit.extend_from_slice(sepb);
        let mut out = unit.repeat(n as usize - 1);
        out.reserve_exact(l);
        out.extend_from_slice(sb);
        out
    };
    debug_assert_eq!(out.len(), total);
    Ok(ctx.heap().intern_owned(out).map(Value::Str)?.into())
}

/// Characters that make a `find` pattern non-plain.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Position of `needle` in `hay` (plain bytes), linear time in the worst case (KMP for long
/// needles, a direct scan for short ones).
pub fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    if needle.len() > hay.len() {
        return None;
    }
    if needle.len() <= 8 {
        let first = needle[0];
        let last_start = hay.len() - needle.len();
        let mut i = 0;
        while i <= last_start {
            match hay[i..=last_start].iter().position(|&c| c == first) {
                None => return None,
                Some(p) => {
                    i += p;
                    if &hay[i..i + needle.len()] == needle {
                        return Some(i);
                    }
                    i += 1;
                }
            }
        }
        return None;
    }
    // Knuth–Morris–Pratt.
    let m = needle.len();
    let mut fail = vec![0usize; m];
    let mut k = 0;
    for i in 1..m {
        while k > 0 && needle[i] != needle[k] {
            k = fail[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fail[i] = k;
    }
    let mut q = 0;
    for (i, &c) in hay.iter().enumerate() {
        while q > 0 && c != needle[q] {
            q = fail[q - 1];
        }
        if c == needle[q] {
            q += 1;
        }
        if q == m {
            return Some(i + 1 - m);
        }
    }
    None
}

fn find(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let p = ctx.check_str(1)?;
    let ls = bytes_of(ctx, s).len();
    let init = posrelat_start(ctx.opt_int(2, 1)?, ls) - 1;
    if init > ls {
        return Ok(Value::Nil.into());
    }
    let plain = ctx.arg(3).truthy();
    let pat = bytes_of(ctx, p);
    if !plain && pat.iter().any(|c| SPECIALS.contains(c)) {
        return Err(patterns_missing("find"));
    }
    let hay = &bytes_of(ctx, s)[init..];
    let found = find_bytes(hay, pat);
    let lp = pat.len();
    charge_bytes(ctx, ls - init + lp)?;
    Ok(match found {
        Some(pos) => {
            let start = init + pos + 1;
            Rets::Two(
                Value::Int(start as i64),
                Value::Int((start + lp - 1) as i64),
            )
        }
        None => Value::Nil.into(),
    })
}

fn patterns_missing(name: &str) -> Throw {
    Throw::msg(format!(
        "string.{name}: Lua patterns are not available yet; use string.find(s, sub, 1, true) for \
         plain text, string.sub, or split the string manually (e.g. loop with string.find(s, \",\", i, true))"
    ))
}

fn no_patterns(ctx: &mut Ctx) -> VmResult<Rets> {
    Err(patterns_missing(ctx.name()))
}

fn dump(_ctx: &mut Ctx) -> VmResult<Rets> {
    Err(Throw::msg(
        "string.dump is not available: functions cannot be serialized here",
    ))
}

fn format_(ctx: &mut Ctx) -> VmResult<Rets> {
    let fmt = ctx.check_str(0)?;
    let heap = ctx.heap_ref();
    let vals: Vec<Value> = ctx.args().iter().skip(1).copied().collect();
    let args: Vec<FmtArg> = vals
        .iter()
        .map(|v| match *v {
            Value::Nil => FmtArg::Nil,
            Value::Bool(b) => FmtArg::Bool(b),
            Value::Int(i) => FmtArg::Int(i),
            Value::Float(f) => FmtArg::Float(f),
            Value::Str(s) => FmtArg::Str(heap.str_bytes(s)),
            other => FmtArg::Other {
                type_name: other.type_name(),
            },
        })
        .collect();
    let mut out = Vec::new();
    let mut ts = |i: usize| -> Result<Vec<u8>, FormatError> {
        Ok(tostring_text(heap, vals[i]).into_bytes())
    };
    let room = heap.mem.cap.saturating_sub(heap.mem.used);
    let r = format::format(heap.str_bytes(fmt), &args, &mut ts, &mut out, room);
    drop(args);
    if let Err(e) = r {
        if e.arg.is_none() && e.msg == format::TOO_LONG {
            // Report it as the memory limit it is.
            ctx.heap_ref().reserve_str(out.len())?;
        }
        return Err(match e.arg {
            Some(n) => ctx.arg_error(n - 1, &e.msg),
            None => Throw::msg(e.msg),
        });
    }
    charge_bytes(ctx, out.len())?;
    Ok(ctx.heap().intern_owned(out).map(Value::Str)?.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        assert_eq!(posrelat_start(2, 5), 2);
        assert_eq!(posrelat_start(0, 5), 1);
        assert_eq!(posrelat_start(-2, 5), 4);
        assert_eq!(posrelat_start(-100, 5), 1);
        assert_eq!(end_pos(100, 5), 5);
        assert_eq!(end_pos(-1, 5), 5);
        assert_eq!(end_pos(-100, 5), 0);
    }

    #[test]
    fn plain_search() {
        assert_eq!(find_bytes(b"hello", b"l"), Some(2));
        assert_eq!(find_bytes(b"hello", b""), Some(0));
        assert_eq!(find_bytes(b"hello", b"xyz"), None);
        let hay = "a".repeat(10_000) + "b";
        let needle = "a".repeat(500) + "b";
        assert_eq!(find_bytes(hay.as_bytes(), needle.as_bytes()), Some(9500));
        assert_eq!(find_bytes(b"abcabcabd", b"abcabd"), Some(3));
        assert_eq!(find_bytes(b"abcabcabe", b"abcabd"), None);
        assert_eq!(find_bytes(b"xxabcabcabdyy", b"abcabcabd"), Some(2));
        assert_eq!(find_bytes(b"aaaaaaaaaaaaab", b"aaaaaaaaab"), Some(4));
    }
}
