//! `string.format`: Lua 5.4's directives over an argument abstraction, written without libc.
//!
//! Supported: `%d %i %u %c %x %X %o %e %E %f %g %G %a %A %p %q %s %%`, flags `-+ #0` (each
//! conversion accepts the same flag subset as Lua 5.4), width and precision of at most two digits.
//! Errors read exactly like Lua's (`bad argument #2 to 'format' (number expected, got table)`,
//! `invalid conversion '%y' to 'format'`, `invalid conversion specification: '%100d'`).
//! `%p` gives a value's address as `tostring` shows it (`0x555510000040` for the table that
//! `tostring` calls `table: 0x555510000040`; strings have one too) and `(null)` for nil,
//! booleans and numbers, as Lua 5.4 (only the `-` flag and a width). `%F` is rejected as Lua 5.4
//! rejects it (`invalid conversion '%F' to 'format'`: its `L_FMTFLAGSF` list has no `F`).

use crate::number::{
    self, Number, body_a, body_e, body_f, body_g, float_to_int_exact, str_to_number,
};

/// One argument of `string.format` (the values after the format string).
#[derive(Clone, Copy, Debug)]
pub(crate) enum FmtArg<'a> {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a [u8]),
    /// Any other value (table, function, ...). `%s` asks the caller's `tostring` callback for its
    /// text; numeric directives report `type_name` in the error.
    Other {
        type_name: &'static str,
    },
}

/// An error of `string.format`. `arg` is the 1-based Lua argument number for "bad argument"
/// errors (the format string is #1); the caller turns those into its own
/// `"bad argument #N to '<name>' (msg)"` so the function name matches the call site. [`FormatError::message`] renders
/// the message with the name `format`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FormatError {
    pub arg: Option<usize>,
    pub msg: String,
}

impl FormatError {
    fn plain(msg: impl Into<String>) -> FormatError {
        FormatError {
            arg: None,
            msg: msg.into(),
        }
    }
    /// The full message as Lua prints it when the function is called as `string.format`.
    #[cfg(test)]
    pub(crate) fn message(&self) -> String {
        match self.arg {
            Some(n) => format!("bad argument #{n} to 'format' ({})", self.msg),
            None => self.msg.clone(),
        }
    }
}

/// Message of the error returned when the output would exceed `max_len`.
pub(crate) const TOO_LONG: &str = "string.format: result too long";

/// Lua limits the length of one conversion spec (flags + width + precision + letter) to 21 bytes.
use crate::limits::MAX_FORMAT_SPEC_LEN as MAX_SPEC_LEN;

const FLAGS_F: &[u8] = b"-+ #0";
const FLAGS_X: &[u8] = b"-#0";
const FLAGS_I: &[u8] = b"-+ 0";
const FLAGS_U: &[u8] = b"-0";
const FLAGS_C: &[u8] = b"-";

#[derive(Default, Debug)]
struct Spec {
    minus: bool,
    plus: bool,
    space: bool,
    hash: bool,
    zero: bool,
    width: usize,
    prec: Option<usize>,
}

fn bad_arg(argno: usize, msg: &str) -> FormatError {
    FormatError {
        arg: Some(argno),
        msg: msg.to_string(),
    }
}

fn type_name(a: &FmtArg) -> &'static str {
    match a {
        FmtArg::Nil => "nil",
        FmtArg::Bool(_) => "boolean",
        FmtArg::Int(_) | FmtArg::Float(_) => "number",
        FmtArg::Str(_) => "string",
        FmtArg::Other { type_name } => type_name,
    }
}

fn to_number(a: &FmtArg, argno: usize) -> Result<Number, FormatError> {
    match a {
        FmtArg::Int(i) => Ok(Number::Int(*i)),
        FmtArg::Float(f) => Ok(Number::Float(*f)),
        FmtArg::Str(s) => {
            str_to_number(s).ok_or_else(|| bad_arg(argno, "number expected, got string"))
        }
        other => Err(bad_arg(
            argno,
            &format!("number expected, got {}", type_name(other)),
        )),
    }
}

fn to_integer(a: &FmtArg, argno: usize) -> Result<i64, FormatError> {
    match to_number(a, argno)? {
        Number::Int(i) => Ok(i),
        Number::Float(f) => float_to_int_exact(f)
            .ok_or_else(|| bad_arg(argno, "number has no integer representation")),
    }
}

fn to_float(a: &FmtArg, argno: usize) -> Result<f64, FormatError> {
    Ok(match to_number(a, argno)? {
        Number::Int(i) => i as f64,
        Number::Float(f) => f,
    })
}

/// Lua's `checkformat`: `spec` is the text after '%' up to and including the conversion letter.
fn check_spec(spec: &[u8], flags: &[u8], precision: bool) -> Result<(), FormatError> {
    let mut i = 0;
    while i < spec.len() && flags.contains(&spec[i]) {
        i += 1;
    }
    if spec.get(i) != Some(&b'0') {
        i = skip2digits(spec, i);
        if spec.get(i) == Some(&b'.') && precision {
            i = skip2digits(spec, i + 1);
        }
    }
    if !spec.get(i).is_some_and(|c| c.is_ascii_alphabetic()) {
        return Err(FormatError::plain(format!(
            "invalid conversion specification: '%{}'",
            String::from_utf8_lossy(spec)
        )));
    }
    Ok(())
}

fn skip2digits(s: &[u8], mut i: usize) -> usize {
    for _ in 0..2 {
        if s.get(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
    }
    i
}

/// Parse a validated spec (without the conversion letter) into flags, width and precision.
fn parse_spec(spec: &[u8]) -> Spec {
    let mut s = Spec::default();
    let mut i = 0;
    while i < spec.len() {
        match spec[i] {
            b'-' => s.minus = true,
            b'+' => s.plus = true,
            b' ' => s.space = true,
            b'#' => s.hash = true,
            b'0' => s.zero = true,
            _ => break,
        }
        i += 1;
    }
    while i < spec.len() && spec[i].is_ascii_digit() {
        s.width = s.width * 10 + (spec[i] - b'0') as usize;
        i += 1;
    }
    if i < spec.len() && spec[i] == b'.' {
        i += 1;
        let mut p = 0;
        while i < spec.len() && spec[i].is_ascii_digit() {
            p = p * 10 + (spec[i] - b'0') as usize;
            i += 1;
        }
        s.prec = Some(p);
    }
    s
}

/// Emit `prefix` (sign, `0x`) and `body` padded to the spec's width. `zero_ok`: the `0` flag
/// pads with zeros between prefix and body (else spaces on the left).
fn pad(out: &mut Vec<u8>, spec: &Spec, prefix: &[u8], body: &[u8], zero_ok: bool) {
    let len = prefix.len() + body.len();
    let fill = spec.width.saturating_sub(len);
    if spec.minus {
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
        out.extend(std::iter::repeat_n(b' ', fill));
    } else if spec.zero && zero_ok {
        out.extend_from_slice(prefix);
        out.extend(std::iter::repeat_n(b'0', fill));
        out.extend_from_slice(body);
    } else {
        out.extend(std::iter::repeat_n(b' ', fill));
        out.extend_from_slice(prefix);
        out.extend_from_slice(body);
    }
}

fn sign_prefix(neg: bool, spec: &Spec) -> &'static [u8] {
    if neg {
        b"-"
    } else if spec.plus {
        b"+"
    } else if spec.space {
        b" "
    } else {
        b""
    }
}

/// Integer conversions `d i u o x X`.
fn fmt_integer(out: &mut Vec<u8>, spec: &Spec, conv: u8, n: i64) {
    let (neg, mag): (bool, u64) = match conv {
        b'd' | b'i' => (n < 0, n.unsigned_abs()),
        _ => (false, n as u64),
    };
    let mut digits: Vec<u8> = match conv {
        b'o' => format!("{mag:o}").into_bytes(),
        b'x' => format!("{mag:x}").into_bytes(),
        b'X' => format!("{mag:X}").into_bytes(),
        _ => mag.to_string().into_bytes(),
    };
    if spec.prec == Some(0) && mag == 0 {
        digits.clear();
    }
    if let Some(p) = spec.prec
        && digits.len() < p
    {
        let mut v = vec![b'0'; p - digits.len()];
        v.extend_from_slice(&digits);
        digits = v;
    }
    let mut prefix: Vec<u8> = sign_prefix(neg, spec).to_vec();
    if spec.hash {
        match conv {
            b'o' if digits.first() != Some(&b'0') => digits.insert(0, b'0'),
            b'x' if mag != 0 => prefix.extend_from_slice(b"0x"),
            b'X' if mag != 0 => prefix.extend_from_slice(b"0X"),
            _ => {}
        }
    }
    pad(out, spec, &prefix, &digits, spec.prec.is_none());
}

/// Float conversions `e E f F g G a A`.
fn fmt_floatconv(out: &mut Vec<u8>, spec: &Spec, conv: u8, f: f64) {
    let upper = conv.is_ascii_uppercase();
    let prefix = sign_prefix(f.is_sign_negative(), spec);
    let mut body = Vec::new();
    if f.is_nan() || f.is_infinite() {
        let word: &[u8] = match (f.is_nan(), upper) {
            (true, false) => b"nan",
            (true, true) => b"NAN",
            (false, false) => b"inf",
            (false, true) => b"INF",
        };
        pad(out, spec, prefix, word, false);
        return;
    }
    let prec = spec.prec.unwrap_or(6);
    match conv {
        b'e' | b'E' => body_e(f, prec, spec.hash, upper, &mut body),
        b'f' => body_f(f, prec, spec.hash, &mut body),
        b'g' | b'G' => body_g(f, prec, spec.hash, upper, &mut body),
        _ => {
            body_a(f, spec.prec, spec.hash, upper, &mut body);
            // The zero padding goes after "0x".
            let mut pre = prefix.to_vec();
            pre.extend_from_slice(&body[..2]);
            pad(out, spec, &pre, &body[2..], true);
            return;
        }
    }
    pad(out, spec, prefix, &body, true);
}

/// `%q` of a string: Lua's `addquoted`. `timed_out` is asked every
/// [`crate::limits::WORK_CHUNK_BYTES`] input bytes.
fn quote_string(
    out: &mut Vec<u8>,
    s: &[u8],
    timed_out: &mut dyn FnMut() -> bool,
) -> Result<(), FormatError> {
    out.push(b'"');
    for (i, &c) in s.iter().enumerate() {
        if i % crate::limits::WORK_CHUNK_BYTES == crate::limits::WORK_CHUNK_BYTES - 1 && timed_out()
        {
            return Err(FormatError::plain(TIMED_OUT));
        }
        if c == b'"' || c == b'\\' || c == b'\n' {
            out.push(b'\\');
            out.push(c);
        } else if c < 32 || c == 127 {
            let next_digit = s.get(i + 1).is_some_and(|d| d.is_ascii_digit());
            if next_digit {
                out.extend_from_slice(format!("\\{c:03}").as_bytes());
            } else {
                out.extend_from_slice(format!("\\{c}").as_bytes());
            }
        } else {
            out.push(c);
        }
    }
    out.push(b'"');
    Ok(())
}

/// `%q`: a Lua literal for the value.
fn quote_value(
    out: &mut Vec<u8>,
    a: &FmtArg,
    argno: usize,
    timed_out: &mut dyn FnMut() -> bool,
) -> Result<(), FormatError> {
    match a {
        FmtArg::Str(s) => quote_string(out, s, timed_out)?,
        FmtArg::Int(i) => {
            if *i == i64::MIN {
                out.extend_from_slice(b"0x8000000000000000");
            } else {
                number::fmt_int(*i, out);
            }
        }
        FmtArg::Float(f) => {
            if *f == f64::INFINITY {
                out.extend_from_slice(b"1e9999");
            } else if *f == f64::NEG_INFINITY {
                out.extend_from_slice(b"-1e9999");
            } else if f.is_nan() {
                out.extend_from_slice(b"(0/0)");
            } else {
                if f.is_sign_negative() {
                    out.push(b'-');
                }
                body_a(*f, None, false, false, out);
            }
        }
        FmtArg::Nil => out.extend_from_slice(b"nil"),
        FmtArg::Bool(b) => out.extend_from_slice(if *b { b"true" } else { b"false" }),
        FmtArg::Other { .. } => return Err(bad_arg(argno, "value has no literal form")),
    }
    Ok(())
}

/// Run `string.format(fmt, args...)`, appending the result to `out`.
///
/// `tostring(i)` must return Lua's `tostring` of `args[i]` for [`FmtArg::Other`] values (used by
/// `%s`); it may fail (its error is passed through). Argument numbers in messages count the
/// format string as #1, as Lua does.
///
/// The output stops growing past `max_len` bytes: the result is then
/// `Err(FormatError { arg: None, msg: TOO_LONG })` (the caller reports its memory limit).
#[cfg(test)]
pub(crate) fn format(
    fmt: &[u8],
    args: &[FmtArg],
    tostring: &mut dyn FnMut(usize) -> Result<Vec<u8>, FormatError>,
    address: &dyn Fn(usize) -> Option<u64>,
    out: &mut Vec<u8>,
    max_len: usize,
) -> Result<(), FormatError> {
    format_checked(fmt, args, tostring, address, out, max_len, &mut || false)
}

/// Message of the error [`format_checked`] returns when `timed_out` said so (the caller reports
/// its own timeout).
pub(crate) const TIMED_OUT: &str = "string.format: the deadline passed";

/// [`format()`] that asks `timed_out` after every [`crate::limits::WORK_CHUNK_BYTES`] of output
/// (and of `%q` input) and every [`crate::limits::WORK_CHUNK_ELEMS`] conversions; when it returns
/// true the result is `Err(FormatError { arg: None, msg: TIMED_OUT })`. `address(i)` is what
/// `%p` shows for `args[i]`: its address, or `None` for a value without one (`(null)`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn format_checked(
    fmt: &[u8],
    args: &[FmtArg],
    tostring: &mut dyn FnMut(usize) -> Result<Vec<u8>, FormatError>,
    address: &dyn Fn(usize) -> Option<u64>,
    out: &mut Vec<u8>,
    max_len: usize,
    timed_out: &mut dyn FnMut() -> bool,
) -> Result<(), FormatError> {
    let mut i = 0;
    let mut next_arg = 0usize;
    let mut next_check = out.len() + crate::limits::WORK_CHUNK_BYTES;
    let mut items = 0usize;
    while i < fmt.len() {
        if out.len() > max_len {
            return Err(FormatError::plain(TOO_LONG));
        }
        items += 1;
        if out.len() >= next_check || items.is_multiple_of(crate::limits::WORK_CHUNK_ELEMS) {
            next_check = out.len() + crate::limits::WORK_CHUNK_BYTES;
            if timed_out() {
                return Err(FormatError::plain(TIMED_OUT));
            }
        }
        let c = fmt[i];
        if c != b'%' {
            // Copy a run of literal bytes at once.
            let end = fmt[i..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(fmt.len(), |p| i + p);
            out.extend_from_slice(&fmt[i..end]);
            i = end;
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        // A format item: first the argument must exist (Lua checks this before the spec).
        let argno = next_arg + 2;
        let Some(arg) = args.get(next_arg) else {
            return Err(bad_arg(argno, "no value"));
        };
        let arg_index = next_arg;
        next_arg += 1;
        // Span flags, digits and '.', then the conversion letter.
        let start = i;
        while i < fmt.len() && b"-+ #0123456789.".contains(&fmt[i]) {
            i += 1;
        }
        let conv = fmt.get(i).copied();
        let spec_len = i - start + 1;
        if spec_len > MAX_SPEC_LEN {
            return Err(FormatError::plain("invalid format (too long)"));
        }
        let spec_with_conv = &fmt[start..(i + 1).min(fmt.len())];
        let mods = &fmt[start..i];
        i += 1;
        let invalid_conv = || {
            FormatError::plain(format!(
                "invalid conversion '%{}' to 'format'",
                String::from_utf8_lossy(spec_with_conv)
            ))
        };
        match conv {
            Some(b'c') => {
                check_spec(spec_with_conv, FLAGS_C, false)?;
                let n = to_integer(arg, argno)?;
                pad(out, &parse_spec(mods), b"", &[n as u8], false);
            }
            Some(conv @ (b'd' | b'i' | b'u' | b'o' | b'x' | b'X')) => {
                let n = to_integer(arg, argno)?;
                let flags = match conv {
                    b'd' | b'i' => FLAGS_I,
                    b'u' => FLAGS_U,
                    _ => FLAGS_X,
                };
                check_spec(spec_with_conv, flags, true)?;
                fmt_integer(out, &parse_spec(mods), conv, n);
            }
            Some(conv @ (b'a' | b'A' | b'e' | b'E' | b'f' | b'g' | b'G')) => {
                // Lua checks the spec before the argument for %a/%A, after it for the others.
                if conv == b'a' || conv == b'A' {
                    check_spec(spec_with_conv, FLAGS_F, true)?;
                }
                let f = to_float(arg, argno)?;
                check_spec(spec_with_conv, FLAGS_F, true)?;
                fmt_floatconv(out, &parse_spec(mods), conv, f);
            }
            Some(b'q') => {
                if !mods.is_empty() {
                    return Err(FormatError::plain("specifier '%q' cannot have modifiers"));
                }
                quote_value(out, arg, argno, timed_out)?;
            }
            Some(b's') => {
                let owned;
                let s: &[u8] = match arg {
                    FmtArg::Str(s) => s,
                    FmtArg::Other { .. } => {
                        owned = tostring(arg_index)?;
                        &owned
                    }
                    FmtArg::Nil => b"nil",
                    FmtArg::Bool(true) => b"true",
                    FmtArg::Bool(false) => b"false",
                    FmtArg::Int(n) => {
                        owned = number::number_to_string(Number::Int(*n)).into_bytes();
                        &owned
                    }
                    FmtArg::Float(f) => {
                        owned = number::number_to_string(Number::Float(*f)).into_bytes();
                        &owned
                    }
                };
                if mods.is_empty() {
                    out.extend_from_slice(s);
                } else {
                    if s.contains(&0) {
                        return Err(bad_arg(argno, "string contains zeros"));
                    }
                    check_spec(spec_with_conv, FLAGS_C, true)?;
                    let spec = parse_spec(mods);
                    if spec.prec.is_none() && s.len() >= 100 {
                        out.extend_from_slice(s);
                    } else {
                        let cut = spec.prec.map_or(s.len(), |p| p.min(s.len()));
                        pad(out, &spec, b"", &s[..cut], false);
                    }
                }
            }
            Some(b'p') => {
                // Lua: only `-` and a width; `(null)` (formatted as a string) without an address.
                check_spec(spec_with_conv, FLAGS_C, false)?;
                let body = match address(arg_index) {
                    Some(a) => format!("0x{a:x}").into_bytes(),
                    None => b"(null)".to_vec(),
                };
                pad(out, &parse_spec(mods), b"", &body, false);
            }
            _ => return Err(invalid_conv()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, args: &[FmtArg]) -> Result<String, String> {
        let mut out = Vec::new();
        let mut ts = |i: usize| Ok(format!("table: {i}").into_bytes());
        let address = |i: usize| match args[i] {
            Str(_) | Other { .. } => Some(0x5555_1000_0000 + 0x40 * i as u64),
            _ => None,
        };
        format(f.as_bytes(), args, &mut ts, &address, &mut out, usize::MAX)
            .map(|_| String::from_utf8_lossy(&out).into_owned())
            .map_err(|e| e.message())
    }
    use FmtArg::*;
    fn ok(f: &str, args: &[FmtArg]) -> String {
        fmt(f, args).unwrap()
    }

    #[test]
    fn matches_lua_outputs() {
        assert_eq!(ok("%q", &[Float(1.5)]), "0x1.8p+0");
        assert_eq!(ok("%q", &[Int(i64::MIN)]), "0x8000000000000000");
        assert_eq!(ok("%q", &[Float(f64::NAN)]), "(0/0)");
        assert_eq!(ok("%q", &[Float(f64::INFINITY)]), "1e9999");
        assert_eq!(ok("%q", &[Float(f64::NEG_INFINITY)]), "-1e9999");
        assert_eq!(
            ok("%q", &[Str(b"a\nb\0c\x01d\"\\\r\t\x809")]),
            "\"a\\\nb\\0c\\1d\\\"\\\\\\13\\9\u{fffd}9\""
        );
        assert_eq!(ok("%q", &[Str(b"\x019")]), "\"\\0019\"");
        assert_eq!(
            ok(
                "%q %q %q %q",
                &[Float(1.0), Float(0.1), Float(-0.0), Float(1e100)]
            ),
            "0x1p+0 0x1.999999999999ap-4 -0x0p+0 0x1.249ad2594c37dp+332"
        );
        assert_eq!(ok("%q %q %q", &[Bool(true), Nil, Int(255)]), "true nil 255");
        assert_eq!(
            ok(
                "%a %a %a %a %A %a",
                &[
                    Float(1.0),
                    Float(0.0),
                    Float(-0.1),
                    Float(1.0 / 3.0),
                    Float(1e300),
                    Float(5e-324)
                ]
            ),
            "0x1p+0 0x0p+0 -0x1.999999999999ap-4 0x1.5555555555555p-2 0X1.7E43C8800759CP+996 0x0.0000000000001p-1022"
        );
        assert_eq!(
            ok(
                "%5.2s|%-5d|%+d % d|%#x %#o|%05d",
                &[
                    Str(b"abc"),
                    Int(3),
                    Int(3),
                    Int(3),
                    Int(255),
                    Int(8),
                    Int(-3)
                ]
            ),
            "   ab|3    |+3  3|0xff 010|-0003"
        );
        assert_eq!(ok("%d", &[Str(b"3")]), "3");
        assert_eq!(ok("%d", &[Str(b"3.0")]), "3");
        assert_eq!(ok("%x", &[Int(-1)]), "ffffffffffffffff");
        assert_eq!(ok("%c", &[Int(65)]), "A");
        assert_eq!(ok("%5c|", &[Int(65)]), "    A|");
        assert_eq!(ok("%-5c|", &[Int(65)]), "A    |");
        assert_eq!(ok("%c", &[Int(256 + 65)]), "A");
        assert_eq!(ok("%#.3g", &[Int(1)]), "1.00");
        assert_eq!(
            ok(
                "%g %g %g %g",
                &[Float(1e20), Float(0.0001), Int(100000), Int(1000000)]
            ),
            "1e+20 0.0001 100000 1e+06"
        );
        assert_eq!(ok("%5s|%-5s|", &[Int(1), Float(2.0)]), "    1|2.0  |");
        assert_eq!(
            ok(
                "%.3f %e %E %G",
                &[
                    Float(2.0 / 3.0),
                    Float(12345.678),
                    Float(0.000123),
                    Float(1e-10)
                ]
            ),
            "0.667 1.234568e+04 1.230000E-04 1E-10"
        );
        assert_eq!(ok("%s %d", &[Float(1e15), Float(-0.0)]), "1e+15 0");
        assert_eq!(ok("%--d", &[Int(5)]), "5");
        assert_eq!(
            ok(
                "%.0f %.0f %.0f %.1f",
                &[Float(0.5), Float(1.5), Float(2.5), Float(0.25)]
            ),
            "0 2 2 0.2"
        );
        assert_eq!(
            ok(
                "%5.1f|%-8.3e|%+g",
                &[
                    Float(f64::INFINITY),
                    Float(f64::NEG_INFINITY),
                    Float(-f64::NAN)
                ]
            ),
            "  inf|-inf    |-nan"
        );
        assert_eq!(
            ok(
                "%010.3f|%#g|%#.0f|%#x|%#X|%#o",
                &[
                    Float(-std::f64::consts::PI),
                    Float(1.5),
                    Int(3),
                    Int(0),
                    Int(255),
                    Int(0)
                ]
            ),
            "-00003.142|1.50000|3.|0|0XFF|0"
        );
        assert_eq!(
            ok(
                "%.3a|%.0a|%20a|%-+20.2A|",
                &[Float(1.0), Float(1.5), Float(2.0), Float(3.0)]
            ),
            "0x1.000p+0|0x2p+0|              0x1p+1|+0X1.80P+1          |"
        );
        assert_eq!(
            ok("%#a|%#.0a|%a", &[Float(1.0), Float(1.0), Float(-0.0)]),
            "0x1.p+0|0x1.p+0|-0x0p+0"
        );
        assert_eq!(
            ok(
                "%5.1f|%05.1f|%-05d|%+05d|% 05d|%05x|%#08x|%08.3d",
                &[
                    Float(std::f64::consts::PI),
                    Float(-0.04),
                    Int(3),
                    Int(3),
                    Int(3),
                    Int(255),
                    Int(255),
                    Int(7)
                ]
            ),
            "  3.1|-00.0|3    |+0003| 0003|000ff|0x0000ff|     007"
        );
        assert_eq!(
            ok(
                "%010.2e|%010g|%+.3e|%010f|%-10f|",
                &[
                    Float(1234.5),
                    Float(f64::INFINITY),
                    Float(0.0),
                    Float(-f64::NAN),
                    Float(2.5)
                ]
            ),
            "001.23e+03|       inf|+0.000e+00|      -nan|2.500000  |"
        );
        assert_eq!(
            ok(
                "%#.3x|%#.3o|%#o|%#5o|%.0x|%#.0o",
                &[Int(1), Int(1), Int(8), Int(8), Int(0), Int(0)]
            ),
            "0x001|001|010|  010||0"
        );
        assert_eq!(
            ok("%.3d|%.0d|%5.3d", &[Int(5), Int(0), Int(-5)]),
            "005|| -005"
        );
        assert_eq!(
            ok("%x %i %u %o", &[Float(3.0), Int(-7), Int(-1), Int(8)]),
            "3 -7 18446744073709551615 10"
        );
        assert_eq!(ok("%5.3s|%.0s|", &[Str(b"abcdef"), Str(b"abc")]), "  abc||");
        assert_eq!(ok("%s", &[Str(b"a\0b")]), "a\0b");
        assert_eq!(
            ok("%s|%10s", &[Other { type_name: "table" }, Bool(false)]),
            "table: 0|     false"
        );
        assert_eq!(ok("100%% %s", &[Nil]), "100% nil");
        assert_eq!(ok("%.99f", &[Int(1)]).len(), 101);
        assert_eq!(ok("%99.99f", &[Float(-1e308)]).len(), 410);
        assert_eq!(
            ok("%.20g|%.17g|%g", &[Float(0.1), Float(0.1), Int(123456789)]),
            "0.10000000000000000555|0.10000000000000001|1.23457e+08"
        );
        assert_eq!(
            ok(
                "%e %g %g %.3g",
                &[Int(0), Int(0), Float(-0.0), Float(9.9996)]
            ),
            "0.000000e+00 0 -0 10"
        );
    }

    #[test]
    fn errors_match_lua() {
        let e = |f: &str, args: &[FmtArg]| fmt(f, args).unwrap_err();
        assert_eq!(
            e("%100d", &[Int(3)]),
            "invalid conversion specification: '%100d'"
        );
        assert_eq!(
            e("%d", &[Float(3.5)]),
            "bad argument #2 to 'format' (number has no integer representation)"
        );
        assert_eq!(
            e("%i", &[Float(9223372036854775808.0)]),
            "bad argument #2 to 'format' (number has no integer representation)"
        );
        assert_eq!(
            e("%.3c|", &[Int(65)]),
            "invalid conversion specification: '%.3c'"
        );
        assert_eq!(e("%y", &[Int(1)]), "invalid conversion '%y' to 'format'");
        assert_eq!(e("%5y", &[Int(1)]), "invalid conversion '%5y' to 'format'");
        assert_eq!(e("%", &[Int(1)]), "invalid conversion '%' to 'format'");
        assert_eq!(e("%d", &[]), "bad argument #2 to 'format' (no value)");
        assert_eq!(e("%y", &[]), "bad argument #2 to 'format' (no value)");
        assert_eq!(
            e("%s %s", &[Int(1)]),
            "bad argument #3 to 'format' (no value)"
        );
        assert_eq!(
            e("%10.3q", &[Str(b"a")]),
            "specifier '%q' cannot have modifiers"
        );
        assert_eq!(
            e("%-+ #0d", &[Int(5)]),
            "invalid conversion specification: '%-+ #0d'"
        );
        assert_eq!(
            e("% 0-+#d", &[Int(5)]),
            "invalid conversion specification: '% 0-+#d'"
        );
        assert_eq!(
            e("%-----------------------d", &[Int(5)]),
            "invalid format (too long)"
        );
        assert_eq!(
            e("%10.3s", &[Str(b"a\0b")]),
            "bad argument #2 to 'format' (string contains zeros)"
        );
        assert_eq!(
            e("%d", &[Other { type_name: "table" }]),
            "bad argument #2 to 'format' (number expected, got table)"
        );
        assert_eq!(
            e("%d", &[Str(b"x")]),
            "bad argument #2 to 'format' (number expected, got string)"
        );
        assert_eq!(
            e("%f", &[Str(b"x")]),
            "bad argument #2 to 'format' (number expected, got string)"
        );
        assert_eq!(
            e("%f", &[Nil]),
            "bad argument #2 to 'format' (number expected, got nil)"
        );
        assert_eq!(
            e("%q", &[Other { type_name: "table" }]),
            "bad argument #2 to 'format' (value has no literal form)"
        );
        assert_eq!(
            e("%5.5.5d", &[Int(1)]),
            "invalid conversion specification: '%5.5.5d'"
        );
        assert_eq!(
            e("%123d", &[Int(1)]),
            "invalid conversion specification: '%123d'"
        );
        assert_eq!(
            e("%1.123d", &[Int(1)]),
            "invalid conversion specification: '%1.123d'"
        );
        assert_eq!(e("%ld", &[Int(1)]), "invalid conversion '%l' to 'format'");
        assert_eq!(
            e("%c", &[Str(b"x")]),
            "bad argument #2 to 'format' (number expected, got string)"
        );
        assert_eq!(
            e("%x", &[Float(9223372036854775808.0)]),
            "bad argument #2 to 'format' (number has no integer representation)"
        );
        assert_eq!(
            e("%#d", &[Int(1)]),
            "invalid conversion specification: '%#d'"
        );
        assert_eq!(
            e("%+x", &[Int(1)]),
            "invalid conversion specification: '%+x'"
        );
        assert_eq!(
            e("% u", &[Int(1)]),
            "invalid conversion specification: '% u'"
        );
        assert_eq!(
            e("%0s", &[Int(1)]),
            "invalid conversion specification: '%0s'"
        );
        assert_eq!(
            e("%05s", &[Int(1)]),
            "invalid conversion specification: '%05s'"
        );
        assert_eq!(
            e("%#c", &[Int(1)]),
            "invalid conversion specification: '%#c'"
        );
        assert_eq!(ok("%-05d|", &[Int(1)]), "1    |");
    }

    /// `%p` as Lua 5.4: the address (here the test's `0x5555_1000_0000 + 0x40 * i`), `(null)`
    /// for values without one, only `-` and a width (outputs and messages from lua5.4).
    #[test]
    fn pointers_match_lua() {
        let e = |f: &str, args: &[FmtArg]| fmt(f, args).unwrap_err();
        let t = Other { type_name: "table" };
        assert_eq!(ok("%p", &[t]), "0x555510000000");
        assert_eq!(ok("%p|%p", &[Int(1), Str(b"s")]), "(null)|0x555510000040");
        assert_eq!(ok("[%10p]", &[Nil]), "[    (null)]");
        assert_eq!(ok("[%-8p]", &[Bool(true)]), "[(null)  ]");
        assert_eq!(ok("[%16p]", &[t]), "[  0x555510000000]");
        assert_eq!(ok("%p", &[Float(1.5)]), "(null)");
        for bad in ["%#p", "%0p", "%+p", "% p", "%.3p", "%10.3p"] {
            assert_eq!(
                e(bad, &[t]),
                format!("invalid conversion specification: '{bad}'")
            );
        }
        assert_eq!(e("%p", &[]), "bad argument #2 to 'format' (no value)");
    }
}
