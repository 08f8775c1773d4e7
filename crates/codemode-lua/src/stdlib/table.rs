//! The `table` library: `concat insert remove sort unpack pack move`.
//!
//! [`sort`] is Lua 5.4's own quicksort (`ltablib.c` `auxsort`), ported so that the order of
//! comparator calls, the result for non-strict comparators and the detection of inconsistent
//! ones ("invalid order function for sorting") match `lua5.4`. Indexes are always checked; the
//! recursion goes into the smaller half only (depth ≤ log2 n) and a deterministic pivot
//! randomisation replaces Lua's clock-based one, so a quadratic input cannot be forced.

/// Lua's `RANLIMIT`: partitions at least this long may use a randomised pivot.
const RANLIMIT: usize = 100;

/// The error text Lua raises when a comparator is inconsistent.
pub const INVALID_ORDER: &str = "invalid order function for sorting";

/// Outcome of [`sort`]: a comparator error, or an inconsistent comparator detected.
#[derive(Debug, PartialEq)]
pub enum SortError<E> {
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
pub fn sort<T: Clone, E>(
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
