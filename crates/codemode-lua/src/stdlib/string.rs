//! The `string` library (Lua 5.4 manual §6.4): `byte char format len lower upper rep reverse
//! sub find match gmatch gsub`. Strings are byte strings; `lower`/`upper` change ASCII letters
//! only (the C locale). Numbers are accepted where strings are expected (`string.upper(12)` →
//! `"12"`).
//!
//! Patterns (§6.4.1) are matched by [`pattern`]: `find` with `plain = true`, or with a pattern
//! that has no special characters, is a plain search (exactly Lua's behaviour). Matching work is
//! charged as fuel and checked against the deadline as it goes; `gsub` checks its output against
//! the memory cap before growing it.
//!
//! `string.gmatch` returns an iterator closure as in Lua (natives carry no upvalues here, so it
//! is a closure of a prototype the compiler adds to every program; see [`gmatch`]). `dump`,
//! `pack`, `unpack` and `packsize` raise an error that says they are absent.

use crate::heap::Upval;
use crate::stdlib::format::{self, FmtArg, FormatError};
use crate::value::{StrRef, Throw, Value, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm, tostring_text};

/// The pattern matcher (its own file, `stdlib/pattern.rs`).
#[path = "pattern.rs"]
pub(crate) mod pattern;
use pattern::{Capture, Matcher, PatError, SPECIALS};

/// Most values one call may return (`string.byte` over a long slice).
use crate::limits::MAX_CALL_RESULTS as MAX_RESULTS;

/// Install `string` into `vm` (the VM uses this table for string methods, `s:upper()`).
pub(crate) fn open(vm: &mut Vm) -> VmResult<()> {
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
        ("match", str_match),
        ("gmatch", gmatch),
        ("gsub", gsub),
        ("dump", dump),
        ("pack", binary_pack),
        ("unpack", binary_pack),
        ("packsize", binary_pack),
    ];
    vm.new_lib("string", funcs)?;
    Ok(())
}

/// Lua's `posrelatI`: a start position (negative counts from the end; 0 and too-negative → 1).
pub(crate) fn posrelat_start(pos: i64, len: usize) -> usize {
    if pos > 0 {
        pos as usize
    } else if pos == 0 || pos.unsigned_abs() > len as u64 {
        1
    } else {
        (len as i64 + pos + 1) as usize
    }
}

/// Lua's `getendpos`: an end position clipped to `[0, len]`.
pub(crate) fn end_pos(pos: i64, len: usize) -> usize {
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
    // Lua's check: `#s + #sep` per repetition, at most MAXSIZE (INT_MAX) in all.
    if l + lsep > crate::limits::MAX_REP_BYTES / n as usize {
        return Err(Throw::msg("resulting string too large"));
    }
    let total = l * n as usize + lsep * (n as usize - 1);
    // Fail at once (memory limit) before allocating a huge buffer.
    ctx.heap_ref().reserve_str(total)?;
    let mut out: Vec<u8> = Vec::with_capacity(total);
    let mut acc = 0usize;
    // The result is a prefix of (s .. sep) repeated: write the first period, then copy the
    // longest whole-period prefix written so far (doubling), at most CHUNK bytes per copy.
    ctx.vm.append_str(&mut out, s, 0, l, &mut acc)?;
    if n > 1
        && let Some(sep) = sep
    {
        ctx.vm.append_str(&mut out, sep, 0, lsep, &mut acc)?;
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

/// Position of `needle` in `hay` (plain bytes), linear time in the worst case (KMP for long
/// needles, a direct scan for short ones).
#[cfg(test)]
pub(crate) fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    find_bytes_checked(hay, needle, &mut || Ok::<(), ()>(())).unwrap_or(None)
}

/// [`find_bytes`] that calls `check` after about every [`crate::limits::WORK_CHUNK_BYTES`]
/// bytes scanned (and of the needle's table built); its error stops the search.
pub(crate) fn find_bytes_checked<E>(
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

/// The `(s, pattern [, init])` arguments of `find` and `match`: subject, pattern and the 0-based
/// start; `None` when `init` is past the end of the subject (the call returns nil).
fn subject_pattern_init(ctx: &mut Ctx) -> VmResult<Option<(StrRef, StrRef, usize)>> {
    let s = ctx.check_str(0)?;
    let p = ctx.check_str(1)?;
    let ls = bytes_of(ctx, s).len();
    let init = posrelat_start(ctx.opt_int(2, 1)?, ls) - 1;
    Ok((init <= ls).then_some((s, p, init)))
}

fn find(ctx: &mut Ctx) -> VmResult<Rets> {
    let Some((s, p, init)) = subject_pattern_init(ctx)? else {
        return Ok(Value::Nil.into());
    };
    let ls = bytes_of(ctx, s).len();
    let plain = ctx.arg(3).truthy();
    let pat = bytes_of(ctx, p);
    if !plain && pat.iter().any(|c| SPECIALS.contains(c)) {
        return find_aux(ctx, s, p, init, true);
    }
    let lp = pat.len();
    // Charged (and the limits checked) before scanning; the scan checks the deadline as it goes.
    charge_bytes(ctx, ls - init + lp)?;
    if lp > 8 && lp <= ls - init {
        // The search table of a long needle (4 bytes per byte) counts against the memory cap.
        ctx.heap_ref().meter.mem.check(lp.saturating_mul(4))?;
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

/// Marks a match stopped because the execution's fuel would run out (the real error is made by
/// the VM once the work is charged).
const OUT_OF_FUEL: &str = "pattern matching ran out of fuel";

/// Run `f` with a [`Matcher`] of pattern `p` over subject `s`, then charge the matcher's work as
/// fuel. The matcher checks the deadline and the total fuel every
/// [`crate::limits::WORK_CHUNK_ELEMS`] steps; pattern errors become Lua's messages.
fn with_matcher<R>(
    ctx: &mut Ctx,
    s: StrRef,
    p: StrRef,
    f: impl FnOnce(&mut Matcher, &crate::heap::Heap) -> Result<R, PatError>,
) -> VmResult<R> {
    let (r, work) = {
        let vm: &Vm = ctx.vm;
        let (used0, cap) = (vm.fuel_used(), vm.heap.meter.fuel_cap);
        let mut check = |work: u64| -> Result<(), Throw> {
            vm.check_totals()?;
            if used0.saturating_add(work) > cap {
                return Err(Throw::msg(OUT_OF_FUEL));
            }
            Ok(())
        };
        let heap = &vm.heap;
        let mut m = Matcher::new(heap.str_bytes(s), heap.str_bytes(p), &mut check);
        let r = f(&mut m, heap);
        (r, m.work())
    };
    ctx.charge(work)?;
    match r {
        Ok(v) => Ok(v),
        Err(PatError::Lua(msg)) => Err(Throw::msg(msg)),
        Err(PatError::Limit(t)) => {
            // The charged work now makes the VM's own check fail with its usual error.
            ctx.vm.check_totals()?;
            Err(t)
        }
    }
}

/// The value of one capture of subject `s` (a substring or a 1-based position).
fn capture_value(ctx: &mut Ctx, s: StrRef, c: Capture) -> VmResult<Value> {
    match c {
        Capture::Position(p) => Ok(Value::Int(p as i64)),
        Capture::Span(a, b) => {
            if a == 0 && b == bytes_of(ctx, s).len() {
                return Ok(Value::Str(s));
            }
            ctx.heap_ref().reserve_str(b - a)?;
            let mut piece = Vec::with_capacity(b - a);
            let mut acc = 0usize;
            ctx.vm.append_str(&mut piece, s, a, b, &mut acc)?;
            charge_rest(ctx, acc)?;
            Ok(Value::Str(ctx.heap().intern_owned(piece)?))
        }
    }
}

fn capture_values(ctx: &mut Ctx, s: StrRef, caps: &[Capture]) -> VmResult<Vec<Value>> {
    let mut out = Vec::with_capacity(caps.len() + 2);
    for &c in caps {
        out.push(capture_value(ctx, s, c)?);
    }
    Ok(out)
}

/// `string.find` with a pattern (`find = true`: positions then captures) and `string.match`
/// (captures, or the whole match), searching from byte `init` (0-based, at most the length).
fn find_aux(ctx: &mut Ctx, s: StrRef, p: StrRef, init: usize, find: bool) -> VmResult<Rets> {
    let ls = bytes_of(ctx, s).len();
    let anchor = bytes_of(ctx, p).first() == Some(&b'^');
    let p0 = anchor as usize;
    let found = with_matcher(ctx, s, p, |m, _| {
        let mut s1 = init;
        loop {
            if let Some(e) = m.match_at(s1, p0)? {
                return Ok(Some((s1, e, m.captures(s1, e, !find)?)));
            }
            s1 += 1;
            if anchor || s1 > ls {
                return Ok(None);
            }
        }
    })?;
    let Some((a, e, caps)) = found else {
        return Ok(Value::Nil.into());
    };
    let mut out = Vec::with_capacity(caps.len() + 2);
    if find {
        out.push(Value::Int(a as i64 + 1));
        out.push(Value::Int(e as i64));
    }
    out.extend(capture_values(ctx, s, &caps)?);
    Ok(match out.len() {
        1 => Rets::One(out[0]),
        _ => Rets::Many(out),
    })
}

fn str_match(ctx: &mut Ctx) -> VmResult<Rets> {
    let Some((s, p, init)) = subject_pattern_init(ctx)? else {
        return Ok(Value::Nil.into());
    };
    find_aux(ctx, s, p, init, false)
}

/// `string.gmatch(s, pattern [, init])` returns an iterator closure, as in Lua: a closure of the
/// program's [`crate::proto::Proto::gmatch_iterator`] over this native and a state table
/// (subject, pattern, position, end of the last match). Calling it (from a generic `for`, or
/// directly: `it()`) calls this native with the state table, which gives the next match at or
/// after the position reached, never an empty match where the last one ended (Lua 5.4's
/// `gmatch_aux`). A caret `^` is an ordinary byte here, like Lua 5.4.
fn gmatch(ctx: &mut Ctx) -> VmResult<Rets> {
    if let Value::Table(st) = ctx.arg(0) {
        return gmatch_step(ctx, st);
    }
    let s = ctx.check_str(0)?;
    let p = ctx.check_str(1)?;
    let ls = bytes_of(ctx, s).len();
    let mut init = posrelat_start(ctx.opt_int(2, 1)?, ls) - 1;
    if init > ls {
        init = ls + 1;
    }
    let me = match ctx.vm.string_lib {
        Some(t) => ctx.heap_ref().table_get_field(t, "gmatch"),
        None => Value::Nil,
    };
    let me = match me {
        Value::Native(n) if ctx.heap_ref().native(n).name == "gmatch" => me,
        _ => return Err(Throw::msg("string.gmatch: the string table was changed")),
    };
    let st = ctx.heap().new_table(4, 0)?;
    let h = ctx.heap();
    h.table_set_int(st, 1, Value::Str(s))?;
    h.table_set_int(st, 2, Value::Str(p))?;
    h.table_set_int(st, 3, Value::Int(init as i64))?;
    h.table_set_int(st, 4, Value::Int(-1))?;
    let proto = ctx.vm.gmatch_iter_proto();
    let h = ctx.heap();
    let cells = [
        h.new_upval(Upval::Closed(me))?,
        h.new_upval(Upval::Closed(Value::Table(st)))?,
    ];
    let c = h.new_closure(proto, Box::new(cells))?;
    Ok(Value::Closure(c).into())
}

fn gmatch_step(ctx: &mut Ctx, st: crate::value::TableRef) -> VmResult<Rets> {
    let h = ctx.heap_ref();
    let (s, p, pos, last) = match (
        h.table_get_int(st, 1),
        h.table_get_int(st, 2),
        h.table_get_int(st, 3),
        h.table_get_int(st, 4),
    ) {
        (Value::Str(s), Value::Str(p), Value::Int(pos), Value::Int(last)) => (s, p, pos, last),
        _ => return Err(ctx.type_error(0, "string")),
    };
    let ls = bytes_of(ctx, s).len();
    let last = usize::try_from(last).ok();
    let found = with_matcher(ctx, s, p, |m, _| {
        let mut src = pos.max(0) as usize;
        while src <= ls {
            if let Some(e) = m.match_at(src, 0)?
                && Some(e) != last
            {
                return Ok(Some((e, m.captures(src, e, true)?)));
            }
            src += 1;
        }
        Ok(None)
    })?;
    // The iterator's state changes now: not restartable from here (see `Ctx::effects`).
    ctx.effects();
    let Some((e, caps)) = found else {
        ctx.heap().table_set_int(st, 3, Value::Int(ls as i64 + 1))?;
        // No values at all, like Lua's `gmatch_aux` (`print(it())` prints an empty line).
        return Ok(Rets::Many(Vec::new()));
    };
    ctx.heap().table_set_int(st, 3, Value::Int(e as i64))?;
    ctx.heap().table_set_int(st, 4, Value::Int(e as i64))?;
    let vals = capture_values(ctx, s, &caps)?;
    Ok(match vals.len() {
        1 => Rets::One(vals[0]),
        _ => Rets::Many(vals),
    })
}

/// What `gsub` replaces each match with.
enum Repl {
    Str(Vec<u8>),
    Table(crate::value::TableRef),
    Func(Value),
}

/// Append `bytes` to `out` after checking the memory cap.
fn push_checked(ctx: &mut Ctx, out: &mut Vec<u8>, bytes: &[u8], acc: &mut usize) -> VmResult<()> {
    ctx.heap_ref()
        .reserve_str(out.len().saturating_add(bytes.len()))?;
    out.extend_from_slice(bytes);
    ctx.work_bytes(acc, bytes.len())
}

/// The bytes of capture `c` of subject `s` (a position capture as its decimal text).
fn capture_bytes(heap: &crate::heap::Heap, s: StrRef, c: Capture) -> std::borrow::Cow<'_, [u8]> {
    match c {
        Capture::Position(p) => std::borrow::Cow::Owned(p.to_string().into_bytes()),
        Capture::Span(a, b) => std::borrow::Cow::Borrowed(&heap.str_bytes(s)[a..b]),
    }
}

/// Expand a replacement string (`%0`-`%9`, `%%`) into `out`; `caps` are the match's captures
/// (`None`: unfinished) followed by the whole match.
fn add_s(
    ctx: &mut Ctx,
    out: &mut Vec<u8>,
    r: &[u8],
    s: StrRef,
    caps: &[Option<Capture>],
    acc: &mut usize,
) -> VmResult<()> {
    // First pass: validate and measure, so the memory cap is checked before growing.
    let heap = ctx.heap_ref();
    let cap_at = |d: u8| -> VmResult<Capture> {
        let i = (d - b'1') as usize;
        // The last element is the whole match, not a capture.
        match caps[..caps.len() - 1].get(i) {
            Some(Some(c)) => Ok(*c),
            Some(None) => Err(Throw::msg("unfinished capture")),
            None => Err(Throw::msg(format!("invalid capture index %{}", i + 1))),
        }
    };
    let mut total = 0usize;
    let mut i = 0;
    while i < r.len() {
        if r[i] != b'%' {
            total += 1;
            i += 1;
            continue;
        }
        match r.get(i + 1) {
            Some(b'%') => total += 1,
            Some(b'0') => total += capture_bytes(heap, s, caps_whole(caps)).len(),
            Some(&d) if d.is_ascii_digit() => total += capture_bytes(heap, s, cap_at(d)?).len(),
            _ => return Err(Throw::msg("invalid use of '%' in replacement string")),
        }
        i += 2;
    }
    heap.reserve_str(out.len().saturating_add(total))?;
    let mut i = 0;
    while i < r.len() {
        let next = r[i..]
            .iter()
            .position(|&c| c == b'%')
            .map_or(r.len(), |k| i + k);
        out.extend_from_slice(&r[i..next]);
        if next >= r.len() {
            break;
        }
        match r[next + 1] {
            b'%' => out.push(b'%'),
            b'0' => out.extend_from_slice(&capture_bytes(heap, s, caps_whole(caps))),
            d => out.extend_from_slice(&capture_bytes(heap, s, cap_at(d)?)),
        }
        i = next + 2;
    }
    ctx.work_bytes(acc, total)
}

/// The whole match is passed to `add_s` as the last element of `caps`.
fn caps_whole(caps: &[Option<Capture>]) -> Capture {
    caps.last()
        .copied()
        .flatten()
        .unwrap_or(Capture::Span(0, 0))
}

fn gsub(ctx: &mut Ctx) -> VmResult<Rets> {
    let s = ctx.check_str(0)?;
    let p = ctx.check_str(1)?;
    let repl = match ctx.arg(2) {
        Value::Str(_) | Value::Int(_) | Value::Float(_) => {
            let r = ctx.check_str(2)?;
            Repl::Str(bytes_of(ctx, r).to_vec())
        }
        Value::Table(t) => Repl::Table(t),
        f if f.is_function() => Repl::Func(f),
        _ => return Err(ctx.type_error(2, "string/function/table")),
    };
    let ls = bytes_of(ctx, s).len();
    let max_n = ctx.opt_int(3, ls as i64 + 1)?;
    let anchor = bytes_of(ctx, p).first() == Some(&b'^');
    let p0 = anchor as usize;
    let mut out: Vec<u8> = Vec::new();
    let mut acc = 0usize;
    let mut src = 0usize;
    let mut last: Option<usize> = None;
    let mut n: i64 = 0;
    while n < max_n {
        // Find the next match from `src`, copying the bytes skipped.
        let found = with_matcher(ctx, s, p, |m, heap| {
            let subject = heap.str_bytes(s);
            let mut grown = 0usize;
            loop {
                if let Some(e) = m.match_at(src, p0)?
                    && Some(e) != last
                {
                    let level = m.level();
                    let mut caps: Vec<Option<Capture>> = (0..level.max(1))
                        .map(|i| m.capture(i, src, e).ok())
                        .collect();
                    // Lua's "unfinished capture" is raised only when such a capture is used;
                    // a missing capture index error cannot happen for i < max(level, 1).
                    caps.push(Some(Capture::Span(src, e)));
                    return Ok(Some((e, caps)));
                }
                if src < ls {
                    out.push(subject[src]);
                    src += 1;
                    grown += 1;
                    if grown >= CHUNK {
                        grown = 0;
                        heap.reserve_str(out.len()).map_err(PatError::Limit)?;
                    }
                } else {
                    return Ok(None);
                }
                if anchor {
                    return Ok(None);
                }
            }
        })?;
        let Some((e, caps)) = found else {
            break;
        };
        n += 1;
        let start = src;
        let first = caps[0];
        let value = match &repl {
            Repl::Str(r) => {
                add_s(ctx, &mut out, r, s, &caps, &mut acc)?;
                None
            }
            Repl::Table(t) => {
                let key = match first {
                    Some(c) => capture_value(ctx, s, c)?,
                    None => return Err(Throw::msg("unfinished capture")),
                };
                Some(ctx.heap_ref().table_get(*t, key))
            }
            Repl::Func(f) => {
                let mut args = Vec::with_capacity(caps.len());
                for c in &caps[..caps.len() - 1] {
                    match c {
                        Some(c) => args.push(capture_value(ctx, s, *c)?),
                        None => return Err(Throw::msg("unfinished capture")),
                    }
                }
                // The result buffer is held while Lua runs: charge it to the memory cap for
                // the call (nested gsub callbacks would otherwise each hold an uncounted one).
                let held = out.capacity();
                ctx.heap().meter.mem.hold(held)?;
                let r = ctx.call1(*f, &args);
                ctx.heap().meter.mem.release(held);
                Some(r?)
            }
        };
        match value {
            None => {}
            Some(Value::Nil | Value::Bool(false)) => {
                ctx.heap_ref().reserve_str(out.len() + (e - start))?;
                ctx.vm.append_str(&mut out, s, start, e, &mut acc)?;
            }
            Some(Value::Str(r)) => {
                let l = bytes_of(ctx, r).len();
                ctx.heap_ref().reserve_str(out.len().saturating_add(l))?;
                ctx.vm.append_str(&mut out, r, 0, l, &mut acc)?;
            }
            Some(v @ (Value::Int(_) | Value::Float(_))) => {
                let t = tostring_text(ctx.heap_ref(), v);
                push_checked(ctx, &mut out, t.as_bytes(), &mut acc)?;
            }
            Some(v) => {
                return Err(Throw::msg(format!(
                    "invalid replacement value (a {})",
                    v.type_name()
                )));
            }
        }
        src = e;
        last = Some(e);
        if anchor {
            break;
        }
    }
    if src < ls {
        ctx.heap_ref().reserve_str(out.len() + (ls - src))?;
        ctx.vm.append_str(&mut out, s, src, ls, &mut acc)?;
    }
    charge_rest(ctx, acc)?;
    let r = ctx.heap().intern_owned(out)?;
    Ok(Rets::Two(Value::Str(r), Value::Int(n)))
}

/// `string.pack`, `string.unpack`, `string.packsize`: absent, with what to write instead.
fn binary_pack(ctx: &mut Ctx) -> VmResult<Rets> {
    Err(Throw::msg(format!(
        "string.{} is not available: there is no binary packing here; build byte strings with \
         string.char and read them with string.byte",
        ctx.name()
    )))
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
    let address = |i: usize| crate::heap::Heap::address(vals[i]);
    let room = heap.meter.mem.cap.saturating_sub(heap.meter.mem.used);
    let mut timed_out = || heap.check_deadline().is_err();
    let r = format::format_checked(
        heap.str_bytes(fmt),
        &args,
        &mut ts,
        &address,
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
            Some(n) if e.msg == "number has no integer representation" => ctx
                .arg_error(n - 1, &e.msg)
                .hint(crate::value::FORMAT_FLOAT_HINT),
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
