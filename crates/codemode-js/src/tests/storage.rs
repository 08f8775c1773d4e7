//! The storage and cost model: sparse arrays stay small, the array-length bound, natives
//! that work in place, hashed collections, byte accounting and work checks.

use super::*;
use crate::limits::MAX_ARRAY_LENGTH;

#[test]
fn limit_array_length_is_two_to_the_32_minus_one() {
    assert_eq!(MAX_ARRAY_LENGTH, 4_294_967_295);
    assert_eq!(
        value(
            "const a = new Array(4294967295); const b = []; b.length = 4294967295; \
             const c = []; c[4294967294] = 1; \
             return [a.length, b.length, c.length, Object.keys(c)]"
        ),
        json!([4294967295u64, 4294967295u64, 4294967295u64, ["4294967294"]])
    );
    for src in [
        "new Array(4294967296)",
        "const a = []; a.length = 4294967296",
        "const a = new Array(4294967295); a.push(1)",
        "const a = []; a[4294967294] = 1; a.unshift(0)",
        "Object.defineProperty([], 'length', { value: -1 })",
    ] {
        assert_eq!(
            value(&format!(
                "try {{ {src}; return 'no error' }} catch (e) {{ return [e.name, e.message] }}"
            )),
            json!(["RangeError", "Invalid array length"]),
            "{src}"
        );
    }
    // Index 2^32 - 1 is not an element: a plain property, the length unchanged.
    assert_eq!(
        value("const a = []; a[4294967295] = 1; return [a.length, Object.keys(a)]"),
        json!([0, ["4294967295"]])
    );
}

/// Bytes a run of `src` holds at its end under a 10 MB cap.
fn held_under_10mb(src: &str) -> usize {
    memory_after_under(src, Some(10 << 20))
}

#[test]
fn sparse_arrays_stay_small() {
    let base = held_under_10mb("const keep = [1, 2, 3]; return keep.length");
    for src in [
        "const keep = new Array(1e7); return keep.length",
        "const keep = []; keep[4e9] = 1; return keep.length",
        "const keep = []; keep.length = 4294967295; return keep.length",
        "const keep = new Array(1e7); keep[5e6] = 'mid'; keep.fill(0, 10, 20); \
         keep.reverse(); keep.copyWithin(0, 9999980); return keep.indexOf('mid')",
        "const keep = new Array(4e9); keep.splice(2e9, 0, 1, 2, 3); keep.unshift(0); \
         keep.shift(); return keep.slice(1e9, 3e9).length",
    ] {
        let held = held_under_10mb(src);
        assert!(held < base + 4096, "{src}: {held} bytes (baseline {base})");
    }
}

#[test]
fn array_natives_on_sparse_arrays_agree_with_v8() {
    // Expected values are node 20's.
    assert_eq!(
        value(
            "const a = []; a[4e9] = 1; a[5] = 2; \
             return [a.indexOf(1), a.lastIndexOf(2), a.lastIndexOf(1, -1), a.lastIndexOf(1, 4e9 - 1), \
                     a.includes(undefined), a.at(-1), Object.keys(a.slice(4e9 - 2)), a.slice(4e9 - 2).length]"
        ),
        json!([4000000000u64, 5, 4000000000u64, -1, true, 1, ["2"], 3])
    );
    assert_eq!(
        value("const a = []; a[4e9] = 1; a.copyWithin(0, 4e9); return Object.keys(a)"),
        json!(["0", "4000000000"])
    );
    assert_eq!(
        value("const a = []; a[1e6] = 1; a.splice(5, 1, 2, 3); return [Object.keys(a), a.length]"),
        json!([["5", "6", "1000001"], 1000002])
    );
    assert_eq!(
        value("const a = [1, , 3, , 5]; a.reverse(); return [Object.keys(a), a.join('-')]"),
        json!([["0", "2", "4"], "5--3--1"])
    );
    assert_eq!(
        value(
            "const a = [1, 2, 3, 2, 1]; return [a.lastIndexOf(2, 2), a.lastIndexOf(1, -2), a.lastIndexOf(3, undefined), a.lastIndexOf(1, -6)]"
        ),
        json!([1, 0, -1, -1])
    );
}

#[test]
fn joining_a_huge_sparse_array_is_a_range_error_at_once() {
    assert_eq!(
        value("const a = []; a[4e9] = 1; try { a.join() } catch (e) { return e.message }"),
        json!("Invalid string length")
    );
}

#[test]
fn string_search_is_linear_and_honours_positions() {
    // Naive search takes 2^20 × 5000 steps here; KMP takes about 2^21.
    let hostile = "const h = 'a'.repeat(1 << 20); const n = 'a'.repeat(5000) + 'b'; \
                   return [h.indexOf(n), h.includes(n), h.lastIndexOf(n), h.split(n).length, \
                           h.replaceAll(n, '').length]";
    let t = std::time::Instant::now();
    assert_eq!(value(hostile), json!([-1, false, -1, 1, 1 << 20]));
    assert!(
        t.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        t.elapsed()
    );
    // Expected values are node 20's.
    assert_eq!(
        value(
            "const s = 'abcabcabc'; return [s.lastIndexOf('abc'), s.lastIndexOf('abc', 5), \
             s.lastIndexOf('abc', 6), s.lastIndexOf('abc', -3), s.lastIndexOf('', 4), \
             s.lastIndexOf('', 99), s.lastIndexOf('c', NaN), s.lastIndexOf('abcd'), \
             s.indexOf('cab', 3), 'aaab'.lastIndexOf('aab')]"
        ),
        json!([6, 3, 6, 0, 4, 9, 8, -1, 5, 1])
    );
}

#[test]
fn long_natives_stop_at_the_deadline() {
    let program = crate::compile(
        "const s = 'ab'.repeat(1 << 22); return [s.indexOf('abc'), new Array(1e6).fill(0).indexOf(1)]",
    )
    .unwrap();
    let mut m = crate::machine::Machine::new(
        &program,
        &Env::default(),
        &StartOptions {
            max_memory_bytes: None,
            deadline: Some(std::time::Instant::now()),
        },
    )
    .unwrap();
    // One slice large enough for the whole program: only the natives' own checks stop it.
    match m.run(u32::MAX) {
        Step::Error(e) => assert_eq!(e.kind, ErrorKind::TimeoutExceeded, "{}", e.message),
        other => panic!("{other:?}"),
    }
}
