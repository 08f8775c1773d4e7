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

/// Bytes between two limit checks inside one call.
const CHUNK: usize = crate::limits::WORK_CHUNK_BYTES;

/// Charge what is left of `acc` (bytes not yet charged by [`Ctx::work_bytes`]) plus one unit.
fn charge_rest(ctx: &mut Ctx, acc: usize) -> VmResult<()> {
    charge_bytes(ctx, acc)
}

/// A new string of the same length as argument 1, built `CHUNK` bytes at a time by `f(piece,
/// offset, out)` (the deadline is checked after each piece).
fn map_chunks(ctx: &mut Ctx, f: fn(&[u8], usize, &mut Vec<u8>)) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let l = bytes_of(ctx, s).len();
    ctx.heap_ref().reserve_str(l)?;
    let mut out = Vec::with_capacity(l);
    let mut acc = 0usize;
    let mut i = 0;
    while i < l {
        let end = l.min(i + CHUNK);
        f(bytes_of(ctx, s), i, &mut out);
        ctx.work_bytes(&mut acc, end - i)?;
        i = end;
    }
    charge_rest(ctx, acc)?;
    Ok(ctx.heap().intern_owned(out).map(Value::Str)?.into())
}

/// The chunk of `b` starting at `at`.
fn chunk_at(b: &[u8], at: usize) -> &[u8] {
    &b[at..b.len().min(at + CHUNK)]
}

fn lower(ctx: &mut Ctx) -> VmResult<Rets> {
    map_chunks(ctx, |b, at, out| {
        out.extend(chunk_at(b, at).iter().map(|c| c.to_ascii_lowercase()))
    })
}

fn upper(ctx: &mut Ctx) -> VmResult<Rets> {
    map_chunks(ctx, |b, at, out| {
        out.extend(chunk_at(b, at).iter().map(|c| c.to_ascii_uppercase()))
    })
}

fn reverse(ctx: &mut Ctx) -> VmResult<Rets> {
    // Output bytes at..at+CHUNK are the input's last ones, reversed.
    map_chunks(ctx, |b, at, out| {
        let hi = b.len() - at;
        let lo = hi.saturating_sub(CHUNK);
        out.extend(b[lo..hi].iter().rev())
    })
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
    let mut piece = Vec::with_capacity(end - start + 1);
    let mut acc = 0usize;
    ctx.vm.append_str(&mut piece, s, start - 1, end, &mut acc)?;
    charge_rest(ctx, acc)?;
    Ok(ctx.heap().intern_owned(piece).map(Value::Str)?.into())
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
    if n == 1 {
        ctx.charge(1)?;
        return Ok(Value::Int(bytes_of(ctx, s)[posi - 1] as i64).into());
    }
    let mut out = Vec::with_capacity(n);
    let mut acc = 0usize;
    let mut i = posi - 1;
    while i < pose {
        let end = pose.min(i + crate::limits::WORK_CHUNK_ELEMS);
        out.extend(
            bytes_of(ctx, s)[i..end]
                .iter()
                .map(|&c| Value::Int(c as i64)),
        );
        ctx.work_elems(&mut acc, end - i)?;
        i = end;
    }
    ctx.charge(1 + acc as u64)?;
    Ok(Rets::Many(out))
}

fn char(ctx: &mut Ctx) -> VmResult<Rets> {
    let n = ctx.nargs();
    let mut out = Vec::with_capacity(n);
    let mut acc = 0usize;
    for i in 0..n {
        let c = ctx.check_int(i)?;
        if !(0..=255).contains(&c) {
            return Err(ctx.arg_error(i, "value out of range"));
        }
        out.push(c as u8);
        ctx.work_elems(&mut acc, 1)?;
    }
    ctx.charge(1 + acc as u64)?;
    Ok(ctx.heap().intern_owned(out).map(Value::Str)?.into())
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
    let mut out: Vec<u8> = Vec::with_capacity(total);
    let mut acc = 0usize;
    // The result is a prefix of (s .. sep) repeated: write the first period, then copy the
    // longest whole-period prefix written so far (doubling), at most CHUNK bytes per copy.
    ctx.vm.append_str(&mut out, s, 0, l, &mut acc)?;
    if n > 1 {
        if let Some(sep) = sep {
            ctx.vm.append_str(&mut out, sep, 0, lsep, &mut acc)?;
        }
    }
    let period = l + lsep;
    while out.len() < total {
        let pos = out.len();
        let from = pos % period;
        let len = (pos - from).min(total - pos).min(CHUNK);
        out.extend_from_within(from..from + len);
        ctx.work_bytes(&mut acc, len)?;
    }
    debug_assert_eq!(out.len(), total);
    charge_rest(ctx, acc)?;
    Ok(ctx.heap().intern_owned(out).map(Value::Str)?.into())
}

/// Characters that make a `find` pattern non-plain.
const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Position of `needle` in `hay` (plain bytes), linear time in the worst case (KMP for long
/// needles, a direct scan for short ones).
pub fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    match find_bytes_checked(hay, needle, &mut || Ok::<(), ()>(())) {
        Ok(r) => r,
        Err(()) => None,
    }
}

/// [`find_bytes`] that calls `check` after about every [`crate::limits::WORK_CHUNK_BYTES`]
/// bytes scanned (and of the needle's table built); its error stops the search.
pub fn find_bytes_checked<E>(
    hay: &[u8],
    needle: &[u8],
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Option<usize>, E> {
    if needle.is_empty() {
        return Ok(Some(0));
    }
    if needle.len() > hay.len() {
        return Ok(None);
    }
    if needle.len() <= 8 {
        let first = needle[0];
        let last_start = hay.len() - needle.len();
        let mut i = 0;
        let mut next_check = CHUNK;
        while i <= last_start {
            if i >= next_check {
                check()?;
                next_check = i + CHUNK;
            }
            let stop = last_start.min(i + CHUNK);
            match hay[i..=stop].iter().position(|&c| c == first) {
                None => i = stop + 1,
                Some(p) => {
                    i += p;
                    if &hay[i..i + needle.len()] == needle {
                        return Ok(Some(i));
                    }
                    i += 1;
                }
            }
        }
        return Ok(None);
    }
    // Knuth–Morris–Pratt (the failure table is 4 bytes per needle byte; the caller bounds it).
    let m = needle.len();
    let mut fail = vec![0u32; m];
    let mut k = 0usize;
    for i in 1..m {
        if i % CHUNK == 0 {
            check()?;
        }
        while k > 0 && needle[i] != needle[k] {
            k = fail[k - 1] as usize;
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fail[i] = k as u32;
    }
    let mut q = 0usize;
    for (i, &c) in hay.iter().enumerate() {
        if i % CHUNK == CHUNK - 1 {
            check()?;
        }
        while q > 0 && c != needle[q] {
            q = fail[q - 1] as usize;
        }
        if c == needle[q] {
            q += 1;
        }
        if q == m {
            return Ok(Some(i + 1 - m));
        }
    }
    Ok(None)
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
    let lp = pat.len();
    // Charged (and the limits checked) before scanning; the scan checks the deadline as it goes.
    charge_bytes(ctx, ls - init + lp)?;
    if lp > 8 && lp <= ls - init {
        // The search table of a long needle (4 bytes per byte) counts against the memory cap.
        ctx.heap_ref().mem.check(lp.saturating_mul(4))?;
    }
    let heap = ctx.heap_ref();
    let hay = &heap.str_bytes(s)[init..];
    let found = find_bytes_checked(hay, heap.str_bytes(p), &mut || heap.check_deadline())?;
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
    let mut timed_out = || heap.check_deadline().is_err();
    let r = format::format_checked(
        heap.str_bytes(fmt),
        &args,
        &mut ts,
        &mut out,
        room,
        &mut timed_out,
    );
    drop(args);
    if let Err(e) = r {
        if e.arg.is_none() && e.msg == format::TIMED_OUT {
            ctx.heap_ref().check_deadline()?;
        }
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
