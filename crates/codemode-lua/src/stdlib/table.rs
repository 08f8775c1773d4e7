//! The `table` library (Lua 5.4 manual §6.6): `concat insert remove sort unpack pack move`.
//!
//! [`sort`] is Lua 5.4's own quicksort (`ltablib.c` `auxsort`), ported so that the order of
//! comparator calls, the result for non-strict comparators and the detection of inconsistent
//! ones ("invalid order function for sorting") match `lua5.4`. Indexes are always checked; the
//! recursion goes into the smaller half only (depth ≤ log2 n) and a deterministic pivot
//! randomisation replaces Lua's clock-based one, so a quadratic input cannot be forced.
//!
//! Long loops charge fuel and check the execution's limits (deadline, total fuel) as they go.

use crate::value::{TableRef, Throw, Value, VmResult};
use crate::vm::{Ctx, NativeFn, Rets, Vm, tostring_text};

/// Install `table` into `vm`.
pub(crate) fn open(vm: &mut Vm) -> VmResult<()> {
    let funcs: &[(&'static str, NativeFn)] = &[
        ("concat", concat),
        ("insert", insert),
        ("remove", remove),
        ("sort", sort_native),
        ("unpack", unpack),
        ("pack", pack),
        ("move", move_),
    ];
    vm.new_lib("table", funcs)?;
    Ok(())
}

use crate::limits::MAX_UNPACK;

/// Charge `units` of fuel and, every so often, check the deadline and total fuel so a long
/// native loop cannot outlive the execution's limits.
fn tick(ctx: &mut Ctx, units: u64) -> VmResult<()> {
    ctx.charge(units)?;
    ctx.vm.check_totals()
}

/// Run `f(i)` for `n` steps, ticking every 1024 steps.
fn ticking(ctx: &mut Ctx, step: u64, counter: &mut u64) -> VmResult<()> {
    *counter += step;
    if *counter >= 1024 {
        let c = *counter;
        *counter = 0;
        tick(ctx, c)?;
    }
    Ok(())
}

fn concat(ctx: &mut Ctx) -> VmResult<Rets> {
    let t = ctx.check_table(0)?;
    let last = ctx.heap_ref().table_len(t);
    let sep = ctx.opt_str(1)?;
    let first = ctx.opt_int(2, 1)?;
    let last = ctx.opt_int(3, last)?;
    if first > last {
        let e = ctx.heap().intern_static("")?;
        return Ok(Value::Str(e).into());
    }
    let seplen = sep.map_or(0, |s| ctx.heap_ref().str_bytes(s).len());
    // Pass 1: check every value (Lua's error names the first bad index) and size the result,
    // so a result over the memory cap fails before anything is copied.
    let mut total = 0usize;
    let mut acc = 0usize;
    let mut i = first;
    loop {
        let v = ctx.heap_ref().table_get_int(t, i);
        let len = match v {
            Value::Str(s) => ctx.heap_ref().str_bytes(s).len(),
            Value::Int(_) | Value::Float(_) => tostring_text(ctx.heap_ref(), v).len(),
            other => {
                return Err(Throw::msg(format!(
                    "invalid value ({}) at index {} in table for 'concat'",
                    other.type_name(),
                    i
                )));
            }
        };
        total = total.saturating_add(len);
        if i == last {
            break;
        }
        total = total.saturating_add(seplen);
        i += 1;
        ctx.work_elems(&mut acc, 1)?;
        if acc == 0 {
            ctx.heap_ref().reserve_str(total)?;
        }
    }
    ctx.heap_ref().reserve_str(total)?;
    // Pass 2: copy, checking the limits every chunk of bytes.
    let mut out: Vec<u8> = Vec::with_capacity(total);
    let mut bytes = 0usize;
    let mut i = first;
    loop {
        match ctx.heap_ref().table_get_int(t, i) {
            Value::Str(s) => {
                let l = ctx.heap_ref().str_bytes(s).len();
                ctx.vm.append_str(&mut out, s, 0, l, &mut bytes)?;
            }
            v => {
                let text = tostring_text(ctx.heap_ref(), v);
                out.extend_from_slice(text.as_bytes());
                ctx.work_bytes(&mut bytes, text.len())?;
            }
        }
        if i == last {
            break;
        }
        if let Some(sep) = sep {
            ctx.vm.append_str(&mut out, sep, 0, seplen, &mut bytes)?;
        }
        i += 1;
    }
    tick(ctx, (acc + bytes / 16) as u64)?;
    Ok(ctx.heap().intern_owned(out).map(Value::Str)?.into())
}

fn insert(ctx: &mut Ctx) -> VmResult<Rets> {
    let t = ctx.check_table(0)?;
    let e = ctx.heap_ref().table_len(t).wrapping_add(1);
    match ctx.nargs() {
        2 => {
            let v = ctx.arg(1);
            ctx.effects();
            ctx.heap().table_set_int(t, e, v)?;
        }
        3 => {
            let pos = ctx.check_int(1)?;
            if (pos as u64).wrapping_sub(1) >= e as u64 {
                return Err(ctx.arg_error(1, "position out of bounds"));
            }
            let v = ctx.arg(2);
            ctx.inline_gate((e - pos) as u64)?;
            ctx.effects();
            // Store v at the new end first; when everything lives in the array part a rotation
            // does Lua's shifting loop in one memmove.
            ctx.heap().table_set_int(t, e, v)?;
            ctx.charge(1 + (e - pos) as u64 / 32)?;
            if ctx.heap_ref().table(t).arr.len() as i64 == e && pos >= 1 {
                shift_array(ctx, t, pos as usize - 1, e as usize, true)?;
            } else {
                shift_up(ctx, t, pos, e)?;
                ctx.heap().table_set_int(t, pos, v)?;
            }
        }
        _ => return Err(Throw::msg("wrong number of arguments to 'insert'")),
    }
    Ok(Rets::Zero)
}

/// Rotate the array-part slots `lo..hi` of `t` by one (`right`: the last moves to `lo`, else
/// the first moves to `hi - 1`), moving [`crate::limits::WORK_CHUNK_BYTES`] of values at a
/// time and checking the deadline in between (a table may hold tens of millions of slots).
fn shift_array(ctx: &mut Ctx, t: TableRef, lo: usize, hi: usize, right: bool) -> VmResult<()> {
    const CHUNK: usize = crate::limits::WORK_CHUNK_BYTES / std::mem::size_of::<Value>();
    if hi <= lo + 1 {
        return Ok(());
    }
    if hi - lo <= CHUNK {
        let (tb, _) = ctx.heap().table_and_mem(t);
        if right {
            tb.arr[lo..hi].rotate_right(1);
        } else {
            tb.arr[lo..hi].rotate_left(1);
        }
        return Ok(());
    }
    if right {
        let last = ctx.heap_ref().table(t).arr[hi - 1];
        let mut end = hi - 1;
        while end > lo {
            let start = lo.max(end.saturating_sub(CHUNK));
            let (tb, _) = ctx.heap().table_and_mem(t);
            tb.arr.copy_within(start..end, start + 1);
            end = start;
            ctx.heap_ref().check_deadline()?;
        }
        let (tb, _) = ctx.heap().table_and_mem(t);
        tb.arr[lo] = last;
    } else {
        let first = ctx.heap_ref().table(t).arr[lo];
        let mut start = lo + 1;
        while start < hi {
            let end = hi.min(start + CHUNK);
            let (tb, _) = ctx.heap().table_and_mem(t);
            tb.arr.copy_within(start..end, start - 1);
            start = end;
            ctx.heap_ref().check_deadline()?;
        }
        let (tb, _) = ctx.heap().table_and_mem(t);
        tb.arr[hi - 1] = first;
    }
    Ok(())
}

/// `t[i] = t[i-1]` for i = e down to pos+1 (the general path: elements outside the array part).
fn shift_up(ctx: &mut Ctx, t: TableRef, pos: i64, e: i64) -> VmResult<()> {
    let mut work = 0u64;
    let mut i = e;
    while i > pos {
        let v = ctx.heap_ref().table_get_int(t, i - 1);
        ctx.heap().table_set_int(t, i, v)?;
        i -= 1;
        ticking(ctx, 1, &mut work)?;
    }
    Ok(())
}

fn remove(ctx: &mut Ctx) -> VmResult<Rets> {
    let t = ctx.check_table(0)?;
    let size = ctx.heap_ref().table_len(t);
    let mut pos = ctx.opt_int(1, size)?;
    if ctx.nargs() > 1 && pos != size && (pos as u64).wrapping_sub(1) > size as u64 {
        // Lua 5.4.4 reports this on argument #1.
        return Err(ctx.arg_error(0, "position out of bounds"));
    }
    let result = ctx.heap_ref().table_get_int(t, pos);
    ctx.inline_gate(size.saturating_sub(pos).max(0) as u64)?;
    ctx.effects();
    if pos >= 1 && pos < size && ctx.heap_ref().table(t).arr.len() as i64 == size {
        // All of 1..size is in the array part: shift with one memmove, then clear t[size].
        ctx.charge(1 + (size - pos) as u64 / 32)?;
        shift_array(ctx, t, pos as usize - 1, size as usize, false)?;
        pos = size;
    }
    let mut work = 0u64;
    while pos < size {
        let v = ctx.heap_ref().table_get_int(t, pos + 1);
        ctx.heap().table_set_int(t, pos, v)?;
        pos += 1;
        ticking(ctx, 1, &mut work)?;
    }
    ctx.heap().table_set_int(t, pos, Value::Nil)?;
    Ok(result.into())
}

fn unpack(ctx: &mut Ctx) -> VmResult<Rets> {
    let i = ctx.opt_int(1, 1)?;
    let e = if ctx.arg(2).is_nil() {
        match ctx.arg(0) {
            Value::Table(t) => ctx.heap_ref().table_len(t),
            other => {
                return Err(Throw::in_builtin(format!(
                    "attempt to get length of a {} value",
                    other.type_name()
                )));
            }
        }
    } else {
        ctx.check_int(2)?
    };
    if i > e {
        return Ok(Rets::Zero);
    }
    let n = (e as u64).wrapping_sub(i as u64);
    if n >= MAX_UNPACK {
        return Err(Throw::msg("too many results to unpack"));
    }
    let t = match ctx.arg(0) {
        Value::Table(t) => t,
        other => {
            return Err(Throw::in_builtin(format!(
                "attempt to index a {} value",
                other.type_name()
            )));
        }
    };
    ctx.charge(1)?;
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut acc = 0usize;
    let mut k = i;
    loop {
        out.push(ctx.heap_ref().table_get_int(t, k));
        if k == e {
            break;
        }
        k += 1;
        ctx.work_elems(&mut acc, 1)?;
    }
    ctx.charge(acc as u64)?;
    Ok(Rets::Many(out))
}

fn pack(ctx: &mut Ctx) -> VmResult<Rets> {
    let n = ctx.nargs();
    tick(ctx, n as u64)?;
    let vals: Vec<Value> = ctx.args().to_vec();
    let t = ctx.heap().new_table(n, 1)?;
    let mut acc = 0usize;
    ctx.heap().table_set_list(t, 0, &vals)?;
    ctx.work_elems(&mut acc, n)?;
    ctx.heap().table_set_field(t, "n", Value::Int(n as i64))?;
    Ok(Value::Table(t).into())
}

fn move_(ctx: &mut Ctx) -> VmResult<Rets> {
    let f = ctx.check_int(1)?;
    let e = ctx.check_int(2)?;
    let t = ctx.check_int(3)?;
    let dest_arg = if ctx.arg(4).is_nil() { 0 } else { 4 };
    let a1 = ctx.check_table(0)?;
    let a2 = ctx.check_table(dest_arg)?;
    if e >= f {
        if !(f > 0 || e < i64::MAX.wrapping_add(f)) {
            return Err(ctx.arg_error(2, "too many elements to move"));
        }
        let n = e - f + 1;
        if t > i64::MAX - n + 1 {
            return Err(ctx.arg_error(3, "destination wrap around"));
        }
        ctx.inline_gate(n as u64)?;
        ctx.effects();
        let mut work = 0u64;
        if t > e || t <= f || a1 != a2 {
            for i in 0..n {
                let v = ctx.heap_ref().table_get_int(a1, f + i);
                ctx.heap().table_set_int(a2, t + i, v)?;
                ticking(ctx, 1, &mut work)?;
            }
        } else {
            let mut i = n - 1;
            while i >= 0 {
                let v = ctx.heap_ref().table_get_int(a1, f + i);
                ctx.heap().table_set_int(a2, t + i, v)?;
                ticking(ctx, 1, &mut work)?;
                i -= 1;
            }
        }
    }
    Ok(Value::Table(a2).into())
}

fn sort_native(ctx: &mut Ctx) -> VmResult<Rets> {
    let t = ctx.check_table(0)?;
    let n = ctx.heap_ref().table_len(t);
    if n <= 1 {
        return Ok(Rets::Zero);
    }
    if n >= i32::MAX as i64 {
        return Err(ctx.arg_error(0, "array too big"));
    }
    let cmp = ctx.arg(1);
    if !cmp.is_nil() && !cmp.is_function() {
        return Err(ctx.type_error(1, "function"));
    }
    let n = n as usize;
    let mut vals: Vec<Value> = Vec::with_capacity(n);
    let mut acc = 0usize;
    for i in 1..=n as i64 {
        vals.push(ctx.heap_ref().table_get_int(t, i));
        ctx.work_elems(&mut acc, 1)?;
    }
    let log2n = (usize::BITS - n.leading_zeros()) as u64;
    let result: Result<(), SortError<Throw>> =
        if cmp.is_nil() && vals.iter().all(|v| matches!(v, Value::Int(_))) {
            // Fast path: equal integers are indistinguishable, so any correct sort gives Lua's result.
            tick(ctx, n as u64 * log2n)?;
            let heap = ctx.heap_ref();
            sort_checked(
                &mut vals,
                |a, b| match (a, b) {
                    (Value::Int(x), Value::Int(y)) => x.cmp(y),
                    _ => std::cmp::Ordering::Equal,
                },
                &mut || heap.check_deadline(),
            )?;
            Ok(())
        } else if cmp.is_nil()
            && vals.iter().all(|v| match v {
                Value::Str(s) => ctx.heap_ref().str_bytes(*s).len() <= SHORT_STRING,
                _ => false,
            })
        {
            // Strings are interned: equal strings are the same value. (Longer strings take the
            // general path, which checks the deadline by bytes compared.)
            tick(ctx, n as u64 * log2n)?;
            let heap = ctx.heap_ref();
            sort_checked(
                &mut vals,
                |a, b| match (a, b) {
                    (Value::Str(x), Value::Str(y)) => heap.str_bytes(*x).cmp(heap.str_bytes(*y)),
                    _ => std::cmp::Ordering::Equal,
                },
                &mut || heap.check_deadline(),
            )?;
            Ok(())
        } else {
            let mut work = 0u64;

            if cmp.is_nil() {
                let mut lt = |a: &Value, b: &Value| -> VmResult<bool> {
                    // One unit per comparison, plus one per 256 bytes of strings compared.
                    work += 1 + compare_bytes(ctx.heap_ref(), *a, *b) as u64 / 256;
                    if work >= 1024 {
                        tick(ctx, work)?;
                        work = 0;
                    }
                    ctx.less_than(*a, *b)
                };
                sort(&mut vals, &mut lt)
            } else {
                // The comparator may collect garbage: the values being sorted live in `vals`
                // (the comparator may remove them from the table), so they are GC roots while
                // it runs. Sorting permutes `vals` but keeps its set of values: one snapshot.
                let snapshot = vals.clone();
                ctx.with_roots(&snapshot, |ctx| {
                    let mut lt = |a: &Value, b: &Value| -> VmResult<bool> {
                        Ok(ctx.call1(cmp, &[*a, *b])?.truthy())
                    };
                    sort(&mut vals, &mut lt)
                })?
            }
        };
    if let Err(SortError::Compare(Throw::Restart)) = &result {
        // Inline stretch over (or a comparator to call): nothing was written; the call runs
        // again, from the start, off the caller's thread.
        return Err(Throw::Restart);
    }
    ctx.inline_gate(n as u64)?;
    ctx.effects();
    // Write back (also after an error: Lua sorts in place, so a failed sort leaves a permutation).
    for (i, v) in vals.into_iter().enumerate() {
        ctx.heap().table_set_int(t, i as i64 + 1, v)?;
        ctx.work_elems(&mut acc, 1)?;
    }
    match result {
        Ok(()) => Ok(Rets::Zero),
        Err(SortError::Compare(e)) => Err(e),
        Err(SortError::InvalidOrder) => Err(Throw::msg(INVALID_ORDER)),
    }
}

/// Sort `v` by a total order `cmp` (the fast paths: integers, strings), calling `check` after
/// every [`crate::limits::WORK_CHUNK_ELEMS`] elements of work: runs of that size are sorted with
/// the standard library, then merged bottom-up. Its error stops the sort, leaving `v` a
/// permutation of its elements.
pub(crate) fn sort_checked<T: Copy, E>(
    v: &mut Vec<T>,
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering,
    check: &mut dyn FnMut() -> Result<(), E>,
) -> Result<(), E> {
    const RUN: usize = crate::limits::WORK_CHUNK_ELEMS;
    let n = v.len();
    for run in v.chunks_mut(RUN) {
        run.sort_unstable_by(&cmp);
        if n > RUN {
            check()?;
        }
    }
    if n <= RUN {
        return Ok(());
    }
    let mut src = std::mem::take(v);
    let mut dst: Vec<T> = Vec::with_capacity(n);
    let mut width = RUN;
    let mut since = 0usize;
    while width < n {
        dst.clear();
        let mut lo = 0;
        while lo < n {
            let mid = n.min(lo + width);
            let hi = n.min(lo + 2 * width);
            let (mut a, mut b) = (lo, mid);
            while a < mid && b < hi {
                if cmp(&src[b], &src[a]) == std::cmp::Ordering::Less {
                    dst.push(src[b]);
                    b += 1;
                } else {
                    dst.push(src[a]);
                    a += 1;
                }
                since += 1;
                if since == RUN {
                    since = 0;
                    if let Err(e) = check() {
                        // `src` still holds every element.
                        *v = src;
                        return Err(e);
                    }
                }
            }
            dst.extend_from_slice(&src[a..mid]);
            dst.extend_from_slice(&src[b..hi]);
            lo = hi;
        }
        std::mem::swap(&mut src, &mut dst);
        width *= 2;
    }
    *v = src;
    Ok(())
}

/// Longest strings the string fast path of `table.sort` sorts (each comparison is then cheap, so
/// checking the deadline per element suffices).
const SHORT_STRING: usize = 256;

/// Bytes a comparison of `a` and `b` may read (the shorter string's length; 0 for numbers).
fn compare_bytes(heap: &crate::heap::Heap, a: Value, b: Value) -> usize {
    match (a, b) {
        (Value::Str(x), Value::Str(y)) => heap.str_bytes(x).len().min(heap.str_bytes(y).len()),
        _ => 0,
    }
}

/// Lua's `RANLIMIT`: partitions at least this long may use a randomised pivot.
const RANLIMIT: usize = 100;

/// The error text Lua raises when a comparator is inconsistent.
pub(crate) const INVALID_ORDER: &str = "invalid order function for sorting";

/// Outcome of [`sort`]: a comparator error, or an inconsistent comparator detected.
#[derive(Debug, PartialEq)]
pub(crate) enum SortError<E> {
    /// The comparator failed; its error is passed through.
    Compare(E),
    /// The comparator contradicted itself ([`INVALID_ORDER`]).
    InvalidOrder,
}

impl<E> From<E> for SortError<E> {
    fn from(e: E) -> Self {
        SortError::Compare(e)
    }
}

/// Sort `v` in place with `lt(a, b)` meaning "a sorts before b". `lt` may fail (its error is
/// returned at once, leaving `v` permuted but with all elements present). An inconsistent `lt`
/// never causes out-of-bounds access or endless loops; where Lua detects it, so do we.
pub(crate) fn sort<T: Clone, E>(
    v: &mut [T],
    lt: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), SortError<E>> {
    if v.len() < 2 {
        return Ok(());
    }
    auxsort(v, 0, v.len() - 1, 0, lt)
}

fn auxsort<T: Clone, E>(
    a: &mut [T],
    mut lo: usize,
    mut up: usize,
    mut rnd: u32,
    lt: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), SortError<E>> {
    while lo < up {
        // Sort elements lo, p, up.
        if lt(&a[up], &a[lo])? {
            a.swap(lo, up);
        }
        if up - lo == 1 {
            break;
        }
        let mut p = if up - lo < RANLIMIT || rnd == 0 {
            lo + (up - lo) / 2
        } else {
            let r4 = (up - lo) / 4;
            (rnd as usize) % (r4 * 2) + (lo + r4)
        };
        if lt(&a[p], &a[lo])? {
            a.swap(p, lo);
        } else if lt(&a[up], &a[p])? {
            a.swap(p, up);
        }
        if up - lo == 2 {
            break;
        }
        let pivot = a[p].clone();
        a.swap(p, up - 1);
        p = partition(a, lo, up, &pivot, lt)?;
        let n;
        if p - lo < up - p {
            if p > lo {
                auxsort(a, lo, p - 1, rnd, lt)?;
            }
            n = p - lo;
            lo = p + 1;
        } else {
            auxsort(a, p + 1, up, rnd, lt)?;
            n = up - p;
            if p == 0 {
                break;
            }
            up = p - 1;
        }
        if up > lo && (up - lo) / 128 > n {
            rnd = next_rnd(rnd, lo, up);
        }
    }
    Ok(())
}

/// Deterministic stand-in for Lua's `l_randomizePivot` (which mixes `clock()` and `time()`).
fn next_rnd(prev: u32, lo: usize, up: usize) -> u32 {
    let mut x = (prev as u64) ^ ((lo as u64) << 32) ^ (up as u64) ^ 0x9E37_79B9_7F4A_7C15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    (x as u32) | 1
}

/// Lua's `partition`: invariant a[lo..i] <= P <= a[j..up], a[up-1] == P.
fn partition<T: Clone, E>(
    a: &mut [T],
    lo: usize,
    up: usize,
    pivot: &T,
    lt: &mut dyn FnMut(&T, &T) -> Result<bool, E>,
) -> Result<usize, SortError<E>> {
    let mut i = lo;
    let mut j = up - 1;
    loop {
        // Repeat ++i while a[i] < P.
        loop {
            i += 1;
            if !lt(&a[i], pivot)? {
                break;
            }
            if i == up - 1 {
                return Err(SortError::InvalidOrder);
            }
        }
        // Repeat --j while P < a[j].
        loop {
            if j == 0 {
                return Err(SortError::InvalidOrder);
            }
            j -= 1;
            if !lt(pivot, &a[j])? {
                break;
            }
            if j < i {
                return Err(SortError::InvalidOrder);
            }
        }
        if j < i {
            a.swap(up - 1, i);
            return Ok(i);
        }
        a.swap(i, j);
    }
}

#[cfg(test)]
mod sort_tests {
    use super::*;

    fn sorted(mut v: Vec<i64>) -> Vec<i64> {
        let mut lt = |a: &i64, b: &i64| -> Result<bool, ()> { Ok(a < b) };
        sort(&mut v, &mut lt).unwrap();
        v
    }

    #[test]
    fn sorts_like_expected() {
        assert_eq!(sorted(vec![]), Vec::<i64>::new());
        assert_eq!(sorted(vec![1]), vec![1]);
        assert_eq!(sorted(vec![2, 1]), vec![1, 2]);
        assert_eq!(sorted(vec![3, 1, 2]), vec![1, 2, 3]);
        assert_eq!(
            sorted(vec![5, 3, 9, 1, 1, 7, 0, -4, 3]),
            vec![-4, 0, 1, 1, 3, 3, 5, 7, 9]
        );
        let mut x: Vec<i64> = (0..5000).map(|i| (i * 7919) % 5003).collect();
        let mut y = x.clone();
        y.sort();
        x = sorted(x);
        assert_eq!(x, y);
        // All-equal and already-sorted / reversed inputs.
        assert_eq!(sorted(vec![4; 300]), vec![4; 300]);
        let rev: Vec<i64> = (0..1000).rev().collect();
        assert_eq!(sorted(rev), (0..1000).collect::<Vec<_>>());
    }

    #[test]
    fn descending_comparator() {
        let mut v = vec![3, 1, 2, 5, 4];
        let mut gt = |a: &i64, b: &i64| -> Result<bool, ()> { Ok(a > b) };
        sort(&mut v, &mut gt).unwrap();
        assert_eq!(v, vec![5, 4, 3, 2, 1]);
    }

    #[test]
    fn inconsistent_comparators_terminate() {
        // Always true: Lua raises "invalid order function for sorting".
        let mut v: Vec<i64> = (0..50).collect();
        let mut always = |_: &i64, _: &i64| -> Result<bool, ()> { Ok(true) };
        assert_eq!(sort(&mut v, &mut always), Err(SortError::InvalidOrder));
        let mut v: Vec<i64> = (0..50).collect();
        let mut le = |a: &i64, b: &i64| -> Result<bool, ()> { Ok(a <= b) };
        let _ = sort(&mut v, &mut le); // may or may not detect; must terminate
        let mut v = vec![1i64; 100];
        let mut le2 = |a: &i64, b: &i64| -> Result<bool, ()> { Ok(a <= b) };
        assert_eq!(sort(&mut v, &mut le2), Err(SortError::InvalidOrder));
        // Pseudo-random answers: must terminate, keep every element.
        let mut state = 12345u64;
        let mut v: Vec<i64> = (0..2000).collect();
        let mut coin = |_: &i64, _: &i64| -> Result<bool, ()> {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            Ok(state >> 63 == 1)
        };
        let _ = sort(&mut v, &mut coin);
        let mut w = v.clone();
        w.sort();
        assert_eq!(w, (0..2000).collect::<Vec<_>>());
    }

    #[test]
    fn comparator_error_passes_through() {
        let mut v: Vec<i64> = (0..20).rev().collect();
        let mut n = 0;
        let mut failing = |a: &i64, b: &i64| -> Result<bool, String> {
            n += 1;
            if n == 10 {
                Err("boom".into())
            } else {
                Ok(a < b)
            }
        };
        assert_eq!(
            sort(&mut v, &mut failing),
            Err(SortError::Compare("boom".to_string()))
        );
        let mut w = v.clone();
        w.sort();
        assert_eq!(w, (0..20).collect::<Vec<_>>());
    }

    #[test]
    fn comparison_count_is_n_log_n_on_adversarial_inputs() {
        for input in [
            (0..10000).collect::<Vec<i64>>(),
            (0..10000).rev().collect(),
            (0..10000).map(|i| i % 3).collect(),
            (0..10000)
                .map(|i| if i % 2 == 0 { i } else { 10000 - i })
                .collect(),
        ] {
            let mut v = input;
            let mut count = 0u64;
            let mut lt = |a: &i64, b: &i64| -> Result<bool, ()> {
                count += 1;
                Ok(a < b)
            };
            sort(&mut v, &mut lt).unwrap();
            assert!(v.windows(2).all(|w| w[0] <= w[1]));
            assert!(count < 10000 * 14 * 3, "too many comparisons: {count}");
        }
    }
}
