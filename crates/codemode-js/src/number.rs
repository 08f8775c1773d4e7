//! Number ↔ string: the shortest round-trip form of Number::toString (ryu-js), ToNumber of
//! strings, radix strings and `toFixed`.

/// `Number.prototype.toString()` with radix 10: the shortest string that reads back as `n`.
pub fn to_string(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    // Integers below 2^53 (counters, ids, indices: most numbers a program prints) need no
    // shortest-digits search.
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        return (n as i64).to_string();
    }
    let mut b = ryu_js::Buffer::new();
    b.format(n).to_string()
}

/// ToNumber of a string: trimmed; empty → 0; `0x`/`0o`/`0b` integers; `Infinity`; decimal
/// literals; anything else NaN.
pub fn parse(s: &str) -> f64 {
    let t = s.trim_matches(is_js_space);
    if t.is_empty() {
        return 0.0;
    }
    for (p, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(d) = t.strip_prefix(p) {
            return parse_radix_int(d, radix).unwrap_or(f64::NAN);
        }
    }
    let (sign, body) = match t.as_bytes()[0] {
        b'-' => (-1.0, &t[1..]),
        b'+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return sign * f64::INFINITY;
    }
    if !decimal_literal(body) {
        return f64::NAN;
    }
    body.parse::<f64>().map_or(f64::NAN, |v| sign * v)
}

/// `true` for JavaScript's whitespace and line terminators (what `trim` removes).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\u{9}' | '\u{a}' | '\u{b}' | '\u{c}' | '\u{d}' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `StrUnsignedDecimalLiteral` without `Infinity`: digits, one optional `.`, optional exponent.
fn decimal_literal(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
        digits += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
            digits += 1;
        }
    }
    if digits == 0 {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len()
}

/// An unsigned integer in `radix` (every character a digit), as a Number.
fn parse_radix_int(d: &str, radix: u32) -> Option<f64> {
    if d.is_empty() {
        return None;
    }
    let mut v = 0.0f64;
    for c in d.chars() {
        v = v * radix as f64 + c.to_digit(radix)? as f64;
    }
    Some(v)
}

/// `parseFloat`: the longest decimal prefix after leading whitespace.
pub fn parse_float(s: &str) -> f64 {
    let t = s.trim_start_matches(is_js_space);
    let (sign, body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body.starts_with("Infinity") {
        return sign * f64::INFINITY;
    }
    let mut end = 0;
    for i in (1..=body.len()).rev() {
        if body.is_char_boundary(i) && decimal_literal(&body[..i]) {
            end = i;
            break;
        }
    }
    if end == 0 {
        return f64::NAN;
    }
    body[..end].parse::<f64>().map_or(f64::NAN, |v| sign * v)
}

/// `parseInt(s, radix)`.
pub fn parse_int(s: &str, radix: i32) -> f64 {
    let t = s.trim_start_matches(is_js_space);
    let (sign, mut body) = match t.as_bytes().first() {
        Some(b'-') => (-1.0, &t[1..]),
        Some(b'+') => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    let mut radix = radix;
    if radix == 0 {
        radix = 10;
        if body.starts_with("0x") || body.starts_with("0X") {
            body = &body[2..];
            radix = 16;
        }
    } else if radix == 16 && (body.starts_with("0x") || body.starts_with("0X")) {
        body = &body[2..];
    }
    if !(2..=36).contains(&radix) {
        return f64::NAN;
    }
    let digits: String = body
        .chars()
        .take_while(|c| c.is_digit(radix as u32))
        .collect();
    if digits.is_empty() {
        return f64::NAN;
    }
    if radix == 10 {
        return sign * digits.parse::<f64>().unwrap_or(f64::NAN);
    }
    sign * parse_radix_int(&digits, radix as u32).unwrap_or(f64::NAN)
}

/// `Number.prototype.toString(radix)` for radix 2..=36 other than 10 (integers exact;
/// fractions to 52 digits, trailing zeros cut).
pub fn to_radix(n: f64, radix: u32) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let digit = |d: u32| std::char::from_digit(d, radix).unwrap_or('0');
    let r = radix as f64;
    let neg = n < 0.0;
    let value = n.abs();
    let mut int = value.floor();
    let mut frac = value - int;
    // Fraction digits only as far as the double's precision: half the gap to the next double
    // (the shortest digits that read back as `value`, as V8's DoubleToRadixCString).
    let mut delta = (0.5 * (next_up(value) - value)).max(f64::from_bits(1));
    let mut fraction = Vec::new();
    if frac >= delta {
        loop {
            frac *= r;
            delta *= r;
            let d = frac as u32;
            fraction.push(d);
            frac -= d as f64;
            // Round half to even; a carry runs back through the digits written.
            if (frac > 0.5 || (frac == 0.5 && d & 1 == 1)) && frac + delta > 1.0 {
                loop {
                    match fraction.pop() {
                        None => {
                            int += 1.0;
                            break;
                        }
                        Some(d) if d + 1 < radix => {
                            fraction.push(d + 1);
                            break;
                        }
                        Some(_) => {}
                    }
                }
                break;
            }
            if frac < delta {
                break;
            }
        }
    }
    // Integer digits past the double's precision are zeros.
    let mut ints = Vec::new();
    while exponent(int / r) > 0 {
        int /= r;
        ints.push('0');
    }
    loop {
        let rem = int % r;
        ints.push(digit(rem as u32));
        int = (int - rem) / r;
        if int <= 0.0 {
            break;
        }
    }
    let mut out = String::with_capacity(ints.len() + fraction.len() + 2);
    if neg {
        out.push('-');
    }
    out.extend(ints.iter().rev());
    if !fraction.is_empty() {
        out.push('.');
        out.extend(fraction.iter().map(|d| digit(*d)));
    }
    out
}

/// The next double above a finite, non-negative `x`.
fn next_up(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

/// The binary exponent of `x`'s last significand bit (`x` = significand × 2^e, with a 53-bit
/// significand): above 0, `x` has no units digit of its own.
fn exponent(x: f64) -> i32 {
    let biased = ((x.to_bits() >> 52) & 0x7ff) as i32;
    if biased == 0 { -1074 } else { biased - 1075 }
}

/// `Number.prototype.toFixed(digits)` for finite `n` below 1e21: exact decimal expansion,
/// ties rounded away from zero as the spec's "let n be an integer for which n / 10^f - x is as
/// close to zero as possible; if there are two such n, pick the larger n".
pub fn to_fixed(n: f64, digits: usize) -> String {
    // The exact value of a double is a finite decimal: use Rust's exact formatting with many
    // digits, then round half up on the decimal string.
    let exact = format!("{:.*}", 1100, n.abs());
    let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let mut ds: Vec<u8> = int.bytes().chain(frac.bytes().take(digits)).collect();
    if frac.as_bytes().get(digits).is_some_and(|d| *d >= b'5') && increment(&mut ds) {
        ds.insert(0, b'1');
    }
    let int_len = ds.len() - digits;
    let mut out = String::new();
    if n < 0.0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&ds[..int_len]).unwrap_or("0"));
    if digits > 0 {
        out.push('.');
        out.push_str(std::str::from_utf8(&ds[int_len..]).unwrap_or(""));
    }
    out
}

/// Add one to the decimal digit string; `true` when it carried out of the first digit (all
/// digits are then zeros).
fn increment(ds: &mut [u8]) -> bool {
    for d in ds.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return false;
        }
    }
    true
}

/// The decimal digits of finite `n != 0` rounded (ties away from zero, on the exact value) to
/// `sig` significant digits, and the decimal exponent of the first digit.
fn sig_digits(n: f64, sig: usize) -> (Vec<u8>, i32) {
    let exact = format!("{:.1100e}", n.abs());
    let (mant, exp) = exact.split_once('e').unwrap_or((&exact, "0"));
    let mut exp: i32 = exp.parse().unwrap_or(0);
    let all: Vec<u8> = mant.bytes().filter(|c| c.is_ascii_digit()).collect();
    let mut ds: Vec<u8> = all.iter().take(sig).copied().collect();
    while ds.len() < sig {
        ds.push(b'0');
    }
    if all.get(sig).is_some_and(|d| *d >= b'5') && increment(&mut ds) {
        ds.insert(0, b'1');
        ds.pop();
        exp += 1;
    }
    (ds, exp)
}

fn exponential_form(neg: bool, ds: &[u8], exp: i32) -> String {
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    out.push(ds[0] as char);
    if ds.len() > 1 {
        out.push('.');
        out.extend(ds[1..].iter().map(|d| *d as char));
    }
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    out.push_str(&exp.abs().to_string());
    out
}

/// `Number.prototype.toPrecision(p)` for finite `n` (1 <= p <= 100).
pub fn to_precision(n: f64, p: usize) -> String {
    if n == 0.0 {
        let mut s = String::from("0");
        if p > 1 {
            s.push('.');
            s.push_str(&"0".repeat(p - 1));
        }
        return s;
    }
    let (ds, e) = sig_digits(n, p);
    let neg = n < 0.0;
    if e < -6 || e >= p as i32 {
        return exponential_form(neg, &ds, e);
    }
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if e < 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat((-e - 1) as usize));
        out.extend(ds.iter().map(|d| *d as char));
    } else {
        let int = e as usize + 1;
        out.extend(ds[..int].iter().map(|d| *d as char));
        if int < ds.len() {
            out.push('.');
            out.extend(ds[int..].iter().map(|d| *d as char));
        }
    }
    out
}

/// `Number.prototype.toExponential(f)` for finite `n`; `None` digits: as many as needed.
pub fn to_exponential(n: f64, f: Option<usize>) -> String {
    if n == 0.0 {
        let zeros = f.map_or(String::new(), |f| {
            if f > 0 {
                format!(".{}", "0".repeat(f))
            } else {
                String::new()
            }
        });
        return format!("0{zeros}e+0");
    }
    let (ds, e) = match f {
        Some(f) => sig_digits(n, f + 1),
        None => {
            let s = format!("{:e}", n.abs());
            let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
            (
                m.bytes().filter(|c| c.is_ascii_digit()).collect(),
                e.parse().unwrap_or(0),
            )
        }
    };
    exponential_form(n < 0.0, &ds, e)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortest_round_trip() {
        assert_eq!(to_string(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(to_string(1e21), "1e+21");
        assert_eq!(to_string(123456789012345680000.0), "123456789012345680000");
        assert_eq!(to_string(-0.0), "0");
        assert_eq!(to_string(5e-7), "5e-7");
        assert_eq!(to_string(f64::NAN), "NaN");
        assert_eq!(to_string(-f64::INFINITY), "-Infinity");
        assert_eq!(to_string(100.0), "100");
    }

    #[test]
    fn to_number_of_strings() {
        assert_eq!(parse(" 12 "), 12.0);
        assert_eq!(parse(""), 0.0);
        assert_eq!(parse("0x1f"), 31.0);
        assert_eq!(parse("-Infinity"), f64::NEG_INFINITY);
        assert!(parse("inf").is_nan());
        assert!(parse("1e").is_nan());
        assert!(parse("-0x1").is_nan());
        assert_eq!(parse(".5"), 0.5);
        assert_eq!(parse("5."), 5.0);
        assert_eq!(parse_float("2.5abc"), 2.5);
        assert_eq!(parse_int("42px", 10), 42.0);
        assert_eq!(parse_int("0x1A", 0), 26.0);
        assert!(parse_int("z", 10).is_nan());
    }

    #[test]
    fn radix_and_fixed() {
        assert_eq!(to_radix(255.0, 16), "ff");
        assert_eq!(to_radix(-10.0, 2), "-1010");
        assert_eq!(to_radix(0.5, 2), "0.1");
        assert_eq!(to_fixed(0.25, 1), "0.3");
        assert_eq!(to_fixed(1.005, 2), "1.00");
        assert_eq!(to_fixed(1.45, 1), "1.4");
        assert_eq!(to_fixed(-1.5, 0), "-2");
        assert_eq!(to_fixed(123.456, 2), "123.46");
        assert_eq!(to_fixed(0.0, 2), "0.00");
    }
}
