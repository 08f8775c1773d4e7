//! Number conversions with Lua 5.4 semantics: `tostring` of floats (`%.14g` plus `.0`), string →
//! number (`lua_stringtonumber`; the one parser behind numerals in source, `tonumber`, string
//! arithmetic and `string.format`'s number arguments), `tonumber(s, base)`, float → integer
//! conversions, and the `printf`-style float primitives (`%e`, `%f`, `%g`, `%a`) that
//! `string.format` builds on.
//!
//! Everything here is pure Rust (no libc): digits come from Rust's correctly rounded float
//! formatting (`{:.*e}` / `{:.*}`), which rounds exact binary values half-to-even exactly like glibc.

/// A Lua number: the integer and float subtypes of Lua 5.4.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Number {
    Int(i64),
    Float(f64),
}

/// 2^63 as a float: the first float above the integer range.
const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;

/// Append Lua's `tostring` of an integer (plain decimal).
pub(crate) fn fmt_int(i: i64, out: &mut Vec<u8>) {
    let mut buf = itoa_buf(i.unsigned_abs());
    if i < 0 {
        out.push(b'-');
    }
    out.append(&mut buf);
}

fn itoa_buf(mut u: u64) -> Vec<u8> {
    let mut tmp = [0u8; 20];
    let mut n = 0;
    loop {
        tmp[19 - n] = b'0' + (u % 10) as u8;
        n += 1;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    tmp[20 - n..].to_vec()
}

/// Append Lua 5.4's `tostring` of a float: `%.14g`, then `.0` when the text looks like an integer.
/// `inf`, `-inf`; NaN prints as `nan` or `-nan` following its sign bit (as glibc does; on x86
/// `0/0` computed at run time is `-nan`, exactly what `lua5.4` prints there).
pub(crate) fn fmt_float(f: f64, out: &mut Vec<u8>) {
    let start = out.len();
    fmt_g(f, 14, false, false, out);
    let s = &out[start..];
    let looks_int = s.iter().all(|&c| c == b'-' || c.is_ascii_digit());
    if looks_int {
        out.extend_from_slice(b".0");
    }
}

/// Lua's `tostring` of a [`Number`].
pub(crate) fn fmt_number(n: Number, out: &mut Vec<u8>) {
    match n {
        Number::Int(i) => fmt_int(i, out),
        Number::Float(f) => fmt_float(f, out),
    }
}

/// Write `inf`/`nan` (lower or upper case) with the sign taken from `f`; returns false if `f` is finite.
/// The sign itself is not written: callers handle sign flags.
fn nonfinite_body(f: f64, upper: bool) -> Option<&'static [u8]> {
    if f.is_nan() {
        Some(if upper { b"NAN" } else { b"nan" })
    } else if f.is_infinite() {
        Some(if upper { b"INF" } else { b"inf" })
    } else {
        None
    }
}

/// Significant decimal digits of `|f|` rounded to `prec + 1` digits, with the decimal exponent of
/// the first digit (`%e` semantics). `f` must be finite. Zero gives exponent 0.
fn exp_digits(f: f64, prec: usize) -> (Vec<u8>, i32) {
    let s = format!("{:.*e}", prec, f.abs());
    let (mant, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: Vec<u8> = mant.bytes().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    (digits, exp)
}

/// The body (no sign) of `%.{prec}e` for finite `f`.
pub(crate) fn body_e(f: f64, prec: usize, alt: bool, upper: bool, out: &mut Vec<u8>) {
    let (digits, exp) = exp_digits(f, prec);
    out.push(digits[0]);
    if prec > 0 || alt {
        out.push(b'.');
    }
    out.extend_from_slice(&digits[1..]);
    push_exp10(exp, upper, out);
}

fn push_exp10(exp: i32, upper: bool, out: &mut Vec<u8>) {
    out.push(if upper { b'E' } else { b'e' });
    out.push(if exp < 0 { b'-' } else { b'+' });
    let e = exp.unsigned_abs();
    if e < 10 {
        out.push(b'0');
    }
    out.extend_from_slice(e.to_string().as_bytes());
}

/// The body (no sign) of `%.{prec}f` for finite `f`.
pub(crate) fn body_f(f: f64, prec: usize, alt: bool, out: &mut Vec<u8>) {
    let s = format!("{:.*}", prec, f.abs());
    out.extend_from_slice(s.as_bytes());
    if prec == 0 && alt {
        out.push(b'.');
    }
}

/// The body (no sign) of `%.{prec}g` for finite `f` (`prec` 0 means 1). Without `alt`, trailing
/// zeros and a trailing point are removed.
pub(crate) fn body_g(f: f64, prec: usize, alt: bool, upper: bool, out: &mut Vec<u8>) {
    let p = if prec == 0 { 1 } else { prec };
    let (_, x) = exp_digits(f, p - 1);
    let start = out.len();
    let use_f = (p as i64) > x as i64 && x >= -4;
    if use_f {
        body_f(f, (p as i64 - 1 - x as i64) as usize, alt, out);
    } else {
        body_e(f, p - 1, alt, upper, out);
    }
    if !alt {
        // Strip trailing zeros of the fraction (before the exponent, if any).
        let body = &out[start..];
        let epos = body.iter().position(|&c| c == b'e' || c == b'E');
        let mant_end = epos.unwrap_or(body.len());
        if body[..mant_end].contains(&b'.') {
            let mut cut = mant_end;
            while cut > 0 && body[cut - 1] == b'0' {
                cut -= 1;
            }
            if cut > 0 && body[cut - 1] == b'.' {
                cut -= 1;
            }
            let exp_part: Vec<u8> = body[mant_end..].to_vec();
            out.truncate(start + cut);
            out.extend_from_slice(&exp_part);
        }
    }
}

/// `%.{prec}g` including the sign and `inf`/`nan`, no padding. Used by `tostring` (`prec` 14).
pub(crate) fn fmt_g(f: f64, prec: usize, alt: bool, upper: bool, out: &mut Vec<u8>) {
    if f.is_sign_negative() {
        out.push(b'-');
    }
    match nonfinite_body(f, upper) {
        Some(b) => out.extend_from_slice(b),
        None => body_g(f, prec, alt, upper, out),
    }
}

/// The body (no sign) of `%a` / `%.{prec}a` for finite `f`, as glibc prints it: `0x1.8p+0`,
/// subnormals as `0x0.xxxp-1022`, zero as `0x0p+0`. With a precision, the fraction is rounded
/// half-to-even (a carry may give `0x2.0p+0`, as glibc does).
pub fn body_a(f: f64, prec: Option<usize>, alt: bool, upper: bool, out: &mut Vec<u8>) {
    let bits = f.abs().to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1u64 << 52) - 1);
    let (mut lead, exp) = if biased == 0 {
        (0u64, if frac == 0 { 0 } else { -1022 })
    } else {
        (1u64, biased - 1023)
    };
    // 13 hex digits of fraction.
    let mut frac_digits: Vec<u8> = (0..13)
        .map(|i| ((frac >> (48 - 4 * i)) & 0xf) as u8)
        .collect();
    match prec {
        None => {
            while frac_digits.last() == Some(&0) {
                frac_digits.pop();
            }
        }
        Some(p) if p < 13 => {
            // Round the 52-bit fraction to 4*p bits, half to even.
            let drop = 52 - 4 * p as u32;
            let keep = frac >> drop;
            let rem = frac & ((1u64 << drop) - 1);
            let half = 1u64 << (drop - 1);
            let mut v = (lead << (4 * p as u32)) | keep;
            if rem > half || (rem == half && (v & 1) == 1) {
                v += 1;
            }
            lead = v >> (4 * p as u32);
            frac_digits = (0..p)
                .map(|i| ((v >> (4 * (p - 1 - i) as u32)) & 0xf) as u8)
                .collect();
        }
        Some(p) => frac_digits.resize(p, 0),
    }
    let hex = |d: u8| -> u8 {
        let c = b"0123456789abcdef"[d as usize];
        if upper { c.to_ascii_uppercase() } else { c }
    };
    out.extend_from_slice(if upper { b"0X" } else { b"0x" });
    out.extend_from_slice(lead.to_string().as_bytes());
    if !frac_digits.is_empty() || alt {
        out.push(b'.');
    }
    out.extend(frac_digits.iter().map(|&d| hex(d)));
    out.push(if upper { b'P' } else { b'p' });
    out.push(if exp < 0 { b'-' } else { b'+' });
    out.extend_from_slice(exp.unsigned_abs().to_string().as_bytes());
}

// ---------------------------------------------------------------------------------------------
// String → number
// ---------------------------------------------------------------------------------------------

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

fn trim(s: &[u8]) -> &[u8] {
    let start = s.iter().position(|&c| !is_space(c)).unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|&c| !is_space(c))
        .map_or(start, |e| e + 1);
    &s[start..end.max(start)]
}

/// Convert a string to a number with Lua's `lua_stringtonumber` rules: surrounding whitespace is
/// allowed; decimal integers (overflow → float), hexadecimal integers (wrap around modulo 2^64),
/// decimal floats (overflow → ±inf, as `strtod`), hexadecimal floats with optional `p` exponent.
/// `inf`/`nan` words, a bare `0x`, `1e`, embedded NULs and empty strings are rejected (`None`).
pub(crate) fn str_to_number(s: &[u8]) -> Option<Number> {
    if s.contains(&0) {
        return None;
    }
    let t = trim(s);
    if t.is_empty() {
        return None;
    }
    if let Some(i) = str_to_int(t) {
        return Some(Number::Int(i));
    }
    if t.iter().any(|&c| c == b'n' || c == b'N') {
        return None;
    }
    str_to_float(t).map(Number::Float)
}

/// `l_str2int`: an integer numeral (already trimmed); `None` if it is not one or a decimal overflows.
fn str_to_int(t: &[u8]) -> Option<i64> {
    let (neg, rest) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if rest.len() >= 2 && rest[0] == b'0' && (rest[1] == b'x' || rest[1] == b'X') {
        let digits = &rest[2..];
        if digits.is_empty() {
            return None;
        }
        let mut a: u64 = 0;
        for &c in digits {
            let d = (c as char).to_digit(16)? as u64;
            a = a.wrapping_mul(16).wrapping_add(d);
        }
        let v = a as i64;
        return Some(if neg { v.wrapping_neg() } else { v });
    }
    if rest.is_empty() {
        return None;
    }
    let mut a: u64 = 0;
    let limit: u64 = if neg { 1u64 << 63 } else { i64::MAX as u64 };
    for &c in rest {
        if !c.is_ascii_digit() {
            return None;
        }
        a = a.checked_mul(10)?.checked_add((c - b'0') as u64)?;
        if a > limit {
            return None;
        }
    }
    Some(if neg {
        (a as i64).wrapping_neg()
    } else {
        a as i64
    })
}

/// A float numeral (trimmed, no `n`/`N`): decimal via Rust's correctly rounded parser, hex by hand.
fn str_to_float(t: &[u8]) -> Option<f64> {
    let (neg, rest) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let v = if rest.len() >= 2 && rest[0] == b'0' && (rest[1] == b'x' || rest[1] == b'X') {
        hex_float(&rest[2..])?
    } else {
        // Rust accepts exactly the strtod decimal forms once inf/nan and signs are handled.
        if rest.first().is_some_and(|&c| c == b'+' || c == b'-') {
            return None;
        }
        if !rest
            .iter()
            .all(|&c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        {
            return None;
        }
        std::str::from_utf8(rest).ok()?.parse::<f64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// Parse the part after `0x` of a hexadecimal float: `h*[.h*][p[+-]d+]`, at least one hex digit.
/// Correctly rounded (half to even), including subnormals and overflow to infinity.
fn hex_float(s: &[u8]) -> Option<f64> {
    let mut i = 0;
    let mut mant: u64 = 0; // up to 15 significant hex digits (60 bits)
    let mut sticky = false;
    let mut exp: i64 = 0; // binary exponent adjustment
    let mut any = false;
    let mut sig_digits = 0;
    let mut seen_dot = false;
    while i < s.len() {
        let c = s[i];
        if c == b'.' {
            if seen_dot {
                return None;
            }
            seen_dot = true;
            i += 1;
            continue;
        }
        let Some(d) = (c as char).to_digit(16) else {
            break;
        };
        any = true;
        if mant == 0 && d == 0 {
            if seen_dot {
                exp -= 4;
            }
        } else if sig_digits < 15 {
            mant = mant * 16 + d as u64;
            sig_digits += 1;
            if seen_dot {
                exp -= 4;
            }
        } else {
            if d != 0 {
                sticky = true;
            }
            if !seen_dot {
                exp += 4;
            }
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if i < s.len() {
        if s[i] != b'p' && s[i] != b'P' {
            return None;
        }
        i += 1;
        let mut eneg = false;
        if i < s.len() && (s[i] == b'+' || s[i] == b'-') {
            eneg = s[i] == b'-';
            i += 1;
        }
        if i >= s.len() {
            return None;
        }
        let mut e: i64 = 0;
        while i < s.len() {
            let c = s[i];
            if !c.is_ascii_digit() {
                return None;
            }
            e = (e * 10 + (c - b'0') as i64).min(1 << 40);
            i += 1;
        }
        exp += if eneg { -e } else { e };
    }
    Some(compose_float(mant, sticky, exp))
}

/// `mant * 2^exp` (plus a sticky fraction below `mant`) rounded to the nearest f64, ties to even.
fn compose_float(mant: u64, sticky: bool, exp: i64) -> f64 {
    if mant == 0 {
        return 0.0;
    }
    // Normalise so the top bit is bit 63.
    let lz = mant.leading_zeros() as i64;
    let m = mant << lz;
    let e = exp - lz + 63; // value = 1.xxx * 2^e
    if e > 1023 {
        return f64::INFINITY;
    }
    // Number of mantissa bits we can keep (53 for normals, fewer for subnormals).
    let keep: i64 = if e >= -1022 { 53 } else { 53 - (-1022 - e) };
    if keep <= 0 {
        // Below half the smallest subnormal, or exactly around it.
        if keep == 0 {
            // value in [2^-1075, 2^-1074): rounds to 2^-1074 if above half (or exactly half → 0, even).
            let above_half = (m << 1) != 0 || sticky;
            return if above_half { f64::from_bits(1) } else { 0.0 };
        }
        return 0.0;
    }
    let drop = 64 - keep as u32;
    let mut top = m >> drop;
    let rem = m & ((1u64 << drop) - 1);
    let half = 1u64 << (drop - 1);
    if rem > half || (rem == half && (sticky || top & 1 == 1)) {
        top += 1;
    }
    if keep < 53 {
        // Subnormal: value = top * 2^-1074 (a carry to 2^52 is exactly the smallest normal).
        return f64::from_bits(top);
    }
    let mut e2 = e;
    if top >> 53 != 0 {
        top >>= 1;
        e2 += 1;
    }
    if e2 > 1023 {
        return f64::INFINITY;
    }
    f64::from_bits((((e2 + 1023) as u64) << 52) | (top & ((1u64 << 52) - 1)))
}

/// `tonumber(s, base)`: an integer numeral in `base` (2..=36, checked by the caller) with optional
/// surrounding whitespace and sign; letters are digits 10..35 in either case; wraps around on
/// overflow (as Lua). `None` if not a numeral.
pub(crate) fn str_to_int_base(s: &[u8], base: u32) -> Option<i64> {
    let t = trim(s);
    let (neg, rest) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    if rest.is_empty() {
        return None;
    }
    let mut n: u64 = 0;
    for &c in rest {
        let d = (c as char).to_digit(36)?;
        if d >= base {
            return None;
        }
        n = n.wrapping_mul(base as u64).wrapping_add(d as u64);
    }
    let v = n as i64;
    Some(if neg { v.wrapping_neg() } else { v })
}

// ---------------------------------------------------------------------------------------------
// Float → integer
// ---------------------------------------------------------------------------------------------

/// The integer with exactly the value of `f`, if any (`3.0` → 3; `3.5`, NaN, ±inf, `2^63` → None).
pub(crate) fn float_to_int_exact(f: f64) -> Option<i64> {
    if f.floor() == f {
        float_in_range(f)
    } else {
        None
    }
}

/// `floor(f)` as an integer if it fits (`math.floor`, `//` results, `for` limits).
pub(crate) fn float_to_int_floor(f: f64) -> Option<i64> {
    float_in_range(f.floor())
}

/// `ceil(f)` as an integer if it fits.
#[cfg(test)]
pub(crate) fn float_to_int_ceil(f: f64) -> Option<i64> {
    float_in_range(f.ceil())
}

/// An integral float in [-2^63, 2^63) converted; anything else (incl. NaN) is None.
fn float_in_range(f: f64) -> Option<i64> {
    if (-TWO_POW_63..TWO_POW_63).contains(&f) {
        Some(f as i64)
    } else {
        None
    }
}

/// Lua's `tostring` of a number as a `String` (convenience for messages and tests).
pub(crate) fn number_to_string(n: Number) -> String {
    let mut v = Vec::new();
    fmt_number(n, &mut v);
    String::from_utf8(v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: f64) -> String {
        number_to_string(Number::Float(x))
    }

    #[test]
    fn float_tostring_matches_lua() {
        assert_eq!(f(1.0), "1.0");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(1e15), "1e+15");
        assert_eq!(f(1e16), "1e+16");
        assert_eq!(f(1e100), "1e+100");
        assert_eq!(f(-0.0), "-0.0");
        assert_eq!(f(2f64.powi(53)), "9.007199254741e+15");
        assert_eq!(f(2f64.powi(63)), "9.2233720368548e+18");
        assert_eq!(f(-(2f64.powi(63))), "-9.2233720368548e+18");
        assert_eq!(f(f64::INFINITY), "inf");
        assert_eq!(f(f64::NEG_INFINITY), "-inf");
        assert_eq!(f(f64::NAN), "nan");
        assert_eq!(f(-f64::NAN), "-nan");
        assert_eq!(f(std::f64::consts::PI), "3.1415926535898");
        assert_eq!(f(100.0 / 3.0), "33.333333333333");
        assert_eq!(f(1e-5), "1e-05");
        assert_eq!(f(123e-7), "1.23e-05");
        assert_eq!(f(5e-324), "4.9406564584125e-324");
        assert_eq!(f(f64::MAX), "1.7976931348623e+308");
        assert_eq!(f(123456789012345.0), "1.2345678901234e+14");
        assert_eq!(f(1e14), "1e+14");
        assert_eq!(f(std::f64::consts::PI), "3.1415926535898");
        assert_eq!(f(100000000000000.0), "1e+14");
        assert_eq!(f(12345678901234.0), "12345678901234.0");
        assert_eq!(f(0.5), "0.5");
        assert_eq!(f(-2.5), "-2.5");
    }

    #[test]
    fn int_tostring() {
        let s = |i| number_to_string(Number::Int(i));
        assert_eq!(s(0), "0");
        assert_eq!(s(-7), "-7");
        assert_eq!(s(i64::MIN), "-9223372036854775808");
        assert_eq!(s(i64::MAX), "9223372036854775807");
    }

    #[test]
    fn g_and_a_bodies() {
        let g = |x: f64, p| {
            let mut v = Vec::new();
            fmt_g(x, p, false, false, &mut v);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(g(0.0001, 6), "0.0001");
        assert_eq!(g(100000.0, 6), "100000");
        assert_eq!(g(1000000.0, 6), "1e+06");
        assert_eq!(g(123456789.0, 6), "1.23457e+08");
        assert_eq!(g(9.9996, 3), "10");
        assert_eq!(g(0.1, 20), "0.10000000000000000555");
        assert_eq!(g(0.1, 17), "0.10000000000000001");
        assert_eq!(g(-0.0, 6), "-0");
        let a = |x: f64, p| {
            let mut v = Vec::new();
            body_a(x, p, false, false, &mut v);
            String::from_utf8(v).unwrap()
        };
        assert_eq!(a(1.0, None), "0x1p+0");
        assert_eq!(a(1.5, None), "0x1.8p+0");
        assert_eq!(a(1.0 / 3.0, None), "0x1.5555555555555p-2");
        assert_eq!(a(1e-320, None), "0x0.00000000007e8p-1022");
        assert_eq!(a(5e-324, None), "0x0.0000000000001p-1022");
        assert_eq!(a(0.0, None), "0x0p+0");
        assert_eq!(a(1.0, Some(3)), "0x1.000p+0");
        assert_eq!(a(1.5, Some(0)), "0x2p+0");
        assert_eq!(a(f64::from_bits(0x3ff2800000000000), Some(1)), "0x1.2p+0");
        assert_eq!(a(f64::from_bits(0x3ff1800000000000), Some(1)), "0x1.2p+0");
        assert_eq!(a(f64::from_bits(0x3fff800000000000), Some(1)), "0x2.0p+0");
        assert_eq!(a(1e-320, Some(2)), "0x0.00p-1022");
        assert_eq!(a(1e100, None), "0x1.249ad2594c37dp+332");
    }

    #[test]
    fn string_to_number() {
        use Number::*;
        let n = |s: &str| str_to_number(s.as_bytes());
        assert_eq!(n("0x"), None);
        assert_eq!(n("1e"), None);
        assert_eq!(n(" 10 "), Some(Int(10)));
        assert_eq!(n("0x10"), Some(Int(16)));
        assert_eq!(n("0xffffffffffffffff"), Some(Int(-1)));
        assert_eq!(n("0x7fffffffffffffff"), Some(Int(i64::MAX)));
        assert_eq!(n("9223372036854775807"), Some(Int(i64::MAX)));
        assert_eq!(n("9223372036854775808"), Some(Float(9223372036854775808.0)));
        assert_eq!(n("-9223372036854775808"), Some(Int(i64::MIN)));
        assert_eq!(
            n("-9223372036854775809"),
            Some(Float(-9223372036854775808.0))
        );
        assert_eq!(n("0x1p4"), Some(Float(16.0)));
        assert_eq!(n(".5"), Some(Float(0.5)));
        assert_eq!(n("5."), Some(Float(5.0)));
        assert_eq!(n("."), None);
        assert_eq!(n("inf"), None);
        assert_eq!(n("nan"), None);
        assert_eq!(n("-inf"), None);
        assert_eq!(n("  0x1.8  "), Some(Float(1.5)));
        assert_eq!(n("1e+5"), Some(Float(100000.0)));
        assert_eq!(n("+5"), Some(Int(5)));
        assert_eq!(n("- 5"), None);
        assert_eq!(n("0x.1"), Some(Float(0.0625)));
        assert_eq!(n("0xA.8p1"), Some(Float(21.0)));
        assert_eq!(n("1 2"), None);
        assert_eq!(n(""), None);
        assert_eq!(n("  "), None);
        assert_eq!(n("1e308"), Some(Float(1e308)));
        assert_eq!(n("1e309"), Some(Float(f64::INFINITY)));
        assert_eq!(n("-1e309"), Some(Float(f64::NEG_INFINITY)));
        assert_eq!(n("0x1P-1074"), Some(Float(5e-324)));
        assert_eq!(n("0x1p-1075"), Some(Float(0.0)));
        assert_eq!(n("0x1.8p-1075"), Some(Float(5e-324)));
        assert_eq!(n("0x1.fffffffffffff8p1023"), Some(Float(f64::INFINITY)));
        assert_eq!(n("0x1.fffffffffffffp1023"), Some(Float(f64::MAX)));
        assert_eq!(
            n("0x123456789abcdef01p0"),
            Some(Float(20988295479420645121.0))
        );
        assert_eq!(n("1\0"), None);
        assert_eq!(n("0x1p"), None);
        assert_eq!(n("1e5.5"), None);
        assert_eq!(n("1..2"), None);
        assert_eq!(n("\t\n7\x0b"), Some(Int(7)));
        assert_eq!(n("3.0"), Some(Float(3.0)));
        assert_eq!(n("1E2"), Some(Float(100.0)));
        assert_eq!(n("0X1F"), Some(Int(31)));
        assert_eq!(n("-0x10"), Some(Int(-16)));
        assert_eq!(n("--1"), None);
        assert_eq!(n("+-1"), None);
        assert_eq!(n("+.5"), Some(Float(0.5)));
    }

    #[test]
    fn int_base() {
        let b = |s: &str, base| str_to_int_base(s.as_bytes(), base);
        assert_eq!(b("ff", 16), Some(255));
        assert_eq!(b("zz", 36), Some(1295));
        assert_eq!(b("ZZ", 36), Some(1295));
        assert_eq!(b(" -11 ", 2), Some(-3));
        assert_eq!(b("8", 8), None);
        assert_eq!(b("", 10), None);
        assert_eq!(b("1.5", 10), None);
        assert_eq!(b("7fffffffffffffff", 16), Some(i64::MAX));
        assert_eq!(b("ffffffffffffffffff", 16), Some(-1));
        assert_eq!(b("-", 10), None);
    }

    #[test]
    fn float_to_int() {
        assert_eq!(float_to_int_exact(3.0), Some(3));
        assert_eq!(float_to_int_exact(-0.0), Some(0));
        assert_eq!(float_to_int_exact(3.5), None);
        assert_eq!(float_to_int_exact(TWO_POW_63), None);
        assert_eq!(float_to_int_exact(-TWO_POW_63), Some(i64::MIN));
        assert_eq!(float_to_int_exact(f64::NAN), None);
        assert_eq!(float_to_int_exact(f64::INFINITY), None);
        assert_eq!(float_to_int_floor(-3.5), Some(-4));
        assert_eq!(float_to_int_ceil(-3.5), Some(-3));
        assert_eq!(float_to_int_floor(1e300), None);
        assert_eq!(
            float_to_int_ceil(9223372036854774784.5),
            Some(9223372036854774784)
        );
    }
}
