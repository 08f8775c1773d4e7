//! `Intl` for en-US as node 20 (full ICU) prints it: the number and date formatting behind
//! `Intl.NumberFormat`, `Intl.DateTimeFormat`, `Number.prototype.toLocaleString` and the
//! Date `toLocale*String` methods. The objects, the option reading (getters and conversions in
//! spec order) and the locale and time-zone resolution are `prelude/intl.js`; it hands these
//! natives a resolved record (a plain object of data properties it made), and they format.
//!
//! Numbers are rounded in decimal, exactly, from the shortest round-trip digits of the double
//! (as ICU does: `1.005` with two fraction digits is `1.01`), by the nine ECMA-402 rounding
//! modes. Dates are UTC (the only zone there is) and follow CLDR's en-US patterns for the
//! option sets models write. Another locale or time zone is formatted as en-US/UTC with a
//! `LikelyMistake` warning, once per run and name (`intlWarn`).

use super::*;
use crate::vm::coro::{Finish, Tail};

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("%Intrinsics%.NumberFormat", number_format_ctor, 0),
    ("%Intrinsics%.DateTimeFormat", date_time_format_ctor, 0),
    ("%Intrinsics%.intlLocale", intl_locale, 1),
    ("%Intrinsics%.intlWarn", intl_warn, 1),
    ("%Intrinsics%.formatNumber", format_number, 3),
    ("%Intrinsics%.formatDate", format_date, 3),
    ("%Intrinsics%.numberThis", number_this, 1),
];

/// The constructors are natives (prelude functions are no constructors); each runs the
/// prelude's initializer in its place, with the new object (`undefined` when called without
/// `new`: the initializer makes one).
fn init_tail(vm: &mut Vm, init: Option<ObjId>, args: &[Value]) -> Res<Value> {
    let Some(f) = init else {
        return Err(vm.type_error("Intl is not available"));
    };
    let this = vm.native_construct.map_or(Value::Undefined, Value::Obj);
    vm.tail = Some(Tail::Call {
        f: Value::Obj(f),
        this,
        args: vec![arg(args, 0), arg(args, 1)],
        finish: Finish::Normal,
    });
    Ok(Value::Undefined)
}

fn number_format_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    init_tail(vm, vm.intr.intl_number_init, args)
}

fn date_time_format_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    init_tail(vm, vm.intr.intl_date_init, args)
}

/// `numberThis(v)`: thisNumberValue for `toLocaleString`.
fn number_this(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Num(super::number::this_num(
        vm,
        arg(args, 0),
        "toLocaleString",
    )?))
}

/// `intlWarn(message)`: a `LikelyMistake` warning, once per run and message.
fn intl_warn(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let m = vm.to_rust_string(arg(args, 0))?;
    if !vm.slips.iter().any(|(s, _)| *s == m) {
        vm.slip(m);
    }
    Ok(Value::Undefined)
}

/// `intlLocale(tag)`: the canonical form of a well-formed BCP 47 language tag, or node's
/// RangeError.
fn intl_locale(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_rust_string(arg(args, 0))?;
    match canonical_locale(&s) {
        Some(c) => vm.str_val(&c),
        // V8 names the tag when the language part is sound and what follows is not.
        None if s.len() <= 256 && tail_malformed(&s) => {
            Err(vm.range_error(&format!("Invalid language tag: {}", s.to_ascii_lowercase())))
        }
        None => Err(vm.range_error("Incorrect locale information provided")),
    }
}

/// A malformed tag whose fault is at its end (a trailing `-`) or in an extension (`en-a-b`,
/// `en-US-u`): V8's "Invalid language tag" rather than "Incorrect locale information".
fn tail_malformed(tag: &str) -> bool {
    if !tag.is_ascii() || tag.contains("--") || tag.starts_with('-') {
        return false;
    }
    let subtags: Vec<&str> = tag.trim_end_matches('-').split('-').collect();
    let lang_ok = canonical_locale(subtags[0]).is_some();
    lang_ok && (tag.ends_with('-') || subtags.iter().skip(1).any(|s| s.len() == 1))
}

/// A well-formed Unicode BCP 47 locale identifier, case-canonicalized (language lower,
/// script title, region upper, the rest lower); `None` when malformed.
pub fn canonical_locale(tag: &str) -> Option<String> {
    if tag.is_empty() || tag.len() > 256 || !tag.is_ascii() {
        return None;
    }
    let subtags: Vec<&str> = tag.split('-').collect();
    let alpha = |s: &str| s.bytes().all(|b| b.is_ascii_alphabetic());
    let alnum = |s: &str| s.bytes().all(|b| b.is_ascii_alphanumeric());
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    let lang = subtags[0];
    if !(alpha(lang) && matches!(lang.len(), 2 | 3 | 5..=8)) {
        return None;
    }
    out.push(lang.to_ascii_lowercase());
    i += 1;
    if let Some(s) = subtags.get(i)
        && s.len() == 4
        && alpha(s)
    {
        let mut t = s.to_ascii_lowercase();
        t[..1].make_ascii_uppercase();
        out.push(t);
        i += 1;
    }
    if let Some(s) = subtags.get(i)
        && ((s.len() == 2 && alpha(s)) || (s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit())))
    {
        out.push(s.to_ascii_uppercase());
        i += 1;
    }
    let mut seen_variants: Vec<String> = Vec::new();
    while let Some(s) = subtags.get(i) {
        let variant = alnum(s)
            && ((5..=8).contains(&s.len()) || (s.len() == 4 && s.as_bytes()[0].is_ascii_digit()));
        if !variant {
            break;
        }
        let v = s.to_ascii_lowercase();
        if seen_variants.contains(&v) {
            return None;
        }
        seen_variants.push(v.clone());
        out.push(v);
        i += 1;
    }
    let mut singletons: Vec<u8> = Vec::new();
    while let Some(s) = subtags.get(i) {
        if s.len() != 1 || !alnum(s) {
            return None;
        }
        let c = s.as_bytes()[0].to_ascii_lowercase();
        if singletons.contains(&c) {
            return None;
        }
        singletons.push(c);
        out.push((c as char).to_string());
        i += 1;
        let (lo, hi) = if c == b'x' { (1, 8) } else { (2, 8) };
        let start = i;
        while let Some(s) = subtags.get(i) {
            if !(alnum(s) && (lo..=hi).contains(&s.len())) || (c != b'x' && s.len() == 1) {
                break;
            }
            out.push(s.to_ascii_lowercase());
            i += 1;
        }
        if i == start {
            return None;
        }
    }
    if i != subtags.len() {
        return None;
    }
    Some(out.join("-"))
}

// ----- reading the resolved record ----------------------------------------------------------

/// An own data property of a record the prelude made (no getter can run).
fn field(vm: &mut Vm, rec: Value, name: &str) -> Value {
    let Value::Obj(o) = rec else {
        return Value::Undefined;
    };
    let k = vm.heap.key(name);
    match vm.own(o, k) {
        Some(crate::heap::Prop {
            slot: Slot::Data(v),
            ..
        }) => v,
        _ => Value::Undefined,
    }
}

fn text(vm: &mut Vm, rec: Value, name: &str) -> String {
    match field(vm, rec, name) {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    }
}

fn count(vm: &mut Vm, rec: Value, name: &str, default: usize) -> usize {
    match field(vm, rec, name) {
        Value::Num(n) if n.is_finite() && (0.0..=100.0).contains(&n) => n as usize,
        _ => default,
    }
}

/// The parts as `[{ type, value }, ...]`.
fn parts_array(vm: &mut Vm, parts: &[(&'static str, String)]) -> Res<Value> {
    vm.work(parts.len() * 8);
    let mut items = Vec::with_capacity(parts.len());
    let (tk, vk) = (vm.heap.key("type"), vm.heap.key("value"));
    for (t, v) in parts {
        let o = vm.new_object()?;
        let t = vm.str_val(t)?;
        vm.define(o, tk, Slot::Data(t), DEFAULT_ATTRS)?;
        let v = vm.str_val(v)?;
        vm.define(o, vk, Slot::Data(v), DEFAULT_ATTRS)?;
        items.push(Value::Obj(o));
    }
    vm.new_array(items)
}

fn finish(vm: &mut Vm, parts: Vec<(&'static str, String)>, as_parts: bool) -> Res<Value> {
    if as_parts {
        return parts_array(vm, &parts);
    }
    // V8 replaces ICU's U+202F (before AM/PM) with a space in formatted strings, not in
    // parts.
    let s: String = parts
        .iter()
        .map(|(_, v)| v.as_str())
        .collect::<String>()
        .replace('\u{202f}', " ");
    vm.work(s.len());
    vm.str_val(&s)
}

// ----- numbers ------------------------------------------------------------------------------

/// A non-negative decimal `0.d₁d₂… × 10^exp` (no leading or trailing zero digit; zero has
/// no digits).
#[derive(Clone, Debug, PartialEq)]
struct Dec {
    digits: Vec<u8>,
    exp: i32,
}

impl Dec {
    /// The shortest round-trip digits of a finite `x`'s magnitude.
    fn of(x: f64) -> Dec {
        let x = x.abs();
        if x == 0.0 {
            return Dec {
                digits: Vec::new(),
                exp: 1,
            };
        }
        let s = crate::number::to_string(x);
        let (mant, e) = match s.split_once('e') {
            Some((m, e)) => (m, e.trim_start_matches('+').parse::<i32>().unwrap_or(0)),
            None => (s.as_str(), 0),
        };
        let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
        let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
        let mut exp = int.len() as i32 + e;
        while digits.first() == Some(&0) {
            digits.remove(0);
            exp -= 1;
        }
        Dec { digits, exp }.trimmed()
    }

    fn trimmed(mut self) -> Dec {
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 1;
        }
        self
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Round to a multiple of `10^p` by `mode` (`neg`: the value's sign, for the directed
    /// modes).
    fn round(&self, p: i32, mode: Mode, neg: bool) -> Dec {
        if self.is_zero() {
            return self.clone();
        }
        let keep = self.exp - p;
        if keep >= self.digits.len() as i32 {
            return self.clone();
        }
        let (kept, rest): (&[u8], &[u8]) = if keep <= 0 {
            (&[], &self.digits[..])
        } else {
            self.digits.split_at(keep as usize)
        };
        // The discarded part against one half of the unit: below, equal, above.
        let half = if keep < 0 {
            std::cmp::Ordering::Less
        } else {
            match rest[0].cmp(&5) {
                std::cmp::Ordering::Equal if rest.len() > 1 => std::cmp::Ordering::Greater,
                o => o,
            }
        };
        let odd = kept.last().is_some_and(|d| d % 2 == 1);
        use std::cmp::Ordering::*;
        let up = match mode {
            Mode::Ceil => !neg,
            Mode::Floor => neg,
            Mode::Expand => true,
            Mode::Trunc => false,
            Mode::HalfCeil => half == Greater || (half == Equal && !neg),
            Mode::HalfFloor => half == Greater || (half == Equal && neg),
            Mode::HalfExpand => half != Less,
            Mode::HalfTrunc => half == Greater,
            Mode::HalfEven => half == Greater || (half == Equal && odd),
        };
        let mut digits = kept.to_vec();
        let mut exp = self.exp;
        if keep < 0 {
            // Everything is below the unit: zero, or one unit.
            digits.clear();
            exp = p;
        }
        if up {
            let mut i = digits.len();
            loop {
                if i == 0 {
                    digits.insert(0, 1);
                    exp += 1;
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        } else if digits.is_empty() {
            return Dec { digits, exp: 1 };
        }
        Dec { digits, exp }.trimmed()
    }

    /// The digits of the integer part (at least `min` of them) and of the fraction (at least
    /// `min_frac`).
    fn strings(&self, min_int: usize, min_frac: usize) -> (String, String) {
        let d = |i: i32| -> char {
            if i >= 0 && (i as usize) < self.digits.len() {
                (b'0' + self.digits[i as usize]) as char
            } else {
                '0'
            }
        };
        let int_len = if self.is_zero() { 0 } else { self.exp.max(0) };
        let mut int: String = (0..int_len).map(d).collect();
        while int.len() < min_int.max(1) {
            int.insert(0, '0');
        }
        let frac_len = if self.is_zero() {
            0
        } else {
            (self.digits.len() as i32 - self.exp).max(0)
        };
        let mut frac: String = (0..frac_len).map(|i| d(self.exp + i)).collect();
        while frac.len() < min_frac {
            frac.push('0');
        }
        (int, frac)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    Ceil,
    Floor,
    Expand,
    Trunc,
    HalfCeil,
    HalfFloor,
    HalfExpand,
    HalfTrunc,
    HalfEven,
}

/// The number options the prelude resolved.
struct NumOpts {
    style: String,
    currency: String,
    display: String,
    accounting: bool,
    min_int: usize,
    min_frac: usize,
    max_frac: usize,
    min_sig: usize,
    max_sig: usize,
    /// `auto` with significant digits, `auto` with fraction digits, `morePrecision`,
    /// `lessPrecision`.
    priority: String,
    mode: Mode,
    strip_integer: bool,
    grouping: String,
    notation: String,
    compact_long: bool,
    sign: String,
}

fn num_opts(vm: &mut Vm, rec: Value) -> NumOpts {
    let mode = match text(vm, rec, "roundingMode").as_str() {
        "ceil" => Mode::Ceil,
        "floor" => Mode::Floor,
        "expand" => Mode::Expand,
        "trunc" => Mode::Trunc,
        "halfCeil" => Mode::HalfCeil,
        "halfFloor" => Mode::HalfFloor,
        "halfTrunc" => Mode::HalfTrunc,
        "halfEven" => Mode::HalfEven,
        _ => Mode::HalfExpand,
    };
    let grouping = match field(vm, rec, "useGrouping") {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => "false".to_string(),
    };
    NumOpts {
        style: text(vm, rec, "style"),
        currency: text(vm, rec, "currency"),
        display: text(vm, rec, "currencyDisplay"),
        accounting: text(vm, rec, "currencySign") == "accounting",
        min_int: count(vm, rec, "minimumIntegerDigits", 1).clamp(1, 21),
        min_frac: count(vm, rec, "minimumFractionDigits", 0),
        max_frac: count(vm, rec, "maximumFractionDigits", 3),
        min_sig: count(vm, rec, "minimumSignificantDigits", 1).clamp(1, 21),
        max_sig: count(vm, rec, "maximumSignificantDigits", 21).clamp(1, 21),
        priority: text(vm, rec, "roundingType"),
        mode,
        strip_integer: text(vm, rec, "trailingZeroDisplay") == "stripIfInteger",
        grouping,
        notation: text(vm, rec, "notation"),
        compact_long: text(vm, rec, "compactDisplay") == "long",
        sign: text(vm, rec, "signDisplay"),
    }
}

/// The value rounded by the options, and how many fraction digits it shows at least.
fn round_number(d: &Dec, o: &NumOpts, neg: bool) -> (Dec, usize) {
    let by_frac = || {
        let r = d.round(-(o.max_frac as i32), o.mode, neg);
        (r, o.min_frac, -(o.max_frac as i32))
    };
    let by_sig = || {
        let p = d.exp - o.max_sig as i32;
        let r = d.round(p, o.mode, neg);
        let int_digits = if r.is_zero() { 1 } else { r.exp };
        let min = (o.min_sig as i32 - int_digits).max(0) as usize;
        // The magnitude of the last digit kept, after a carry.
        let p = if r.exp > d.exp { p + 1 } else { p };
        (r, min, p)
    };
    let (r, min, _) = match o.priority.as_str() {
        "significantDigits" => by_sig(),
        "morePrecision" | "lessPrecision" => {
            let (s, f) = (by_sig(), by_frac());
            let sig_first = s.2 <= f.2;
            if (o.priority == "morePrecision") == sig_first {
                s
            } else {
                f
            }
        }
        _ => by_frac(),
    };
    let is_integer = r.is_zero() || r.digits.len() as i32 <= r.exp;
    let min = if o.strip_integer && is_integer {
        0
    } else {
        min
    };
    (r, min)
}

struct Currency {
    symbol: &'static str,
    narrow: &'static str,
    one: &'static str,
    other: &'static str,
}

fn currency(code: &str) -> Option<Currency> {
    let (symbol, narrow, one, other) = match code {
        "USD" => ("$", "$", "US dollar", "US dollars"),
        "EUR" => ("€", "€", "euro", "euros"),
        "GBP" => ("£", "£", "British pound", "British pounds"),
        "JPY" => ("¥", "¥", "Japanese yen", "Japanese yen"),
        "CAD" => ("CA$", "$", "Canadian dollar", "Canadian dollars"),
        "AUD" => ("A$", "$", "Australian dollar", "Australian dollars"),
        "CHF" => ("CHF", "CHF", "Swiss franc", "Swiss francs"),
        "CNY" => ("CN¥", "¥", "Chinese yuan", "Chinese yuan"),
        "INR" => ("₹", "₹", "Indian rupee", "Indian rupees"),
        "MXN" => ("MX$", "$", "Mexican peso", "Mexican pesos"),
        "KRW" => ("₩", "₩", "South Korean won", "South Korean won"),
        "BRL" => ("R$", "R$", "Brazilian real", "Brazilian reals"),
        "SEK" => ("SEK", "kr", "Swedish krona", "Swedish kronor"),
        _ => return None,
    };
    Some(Currency {
        symbol,
        narrow,
        one,
        other,
    })
}

/// The number's own parts (integer, group, decimal, fraction) with grouping.
fn digit_parts(out: &mut Vec<(&'static str, String)>, int: &str, frac: &str, grouping: &str) {
    let group = match grouping {
        "min2" => int.len() >= 5,
        "false" | "" => false,
        _ => int.len() >= 4,
    };
    if group {
        let first = int.len() % 3;
        let mut start = 0;
        if first > 0 {
            out.push(("integer", int[..first].to_string()));
            start = first;
        }
        while start < int.len() {
            if start > 0 {
                out.push(("group", ",".to_string()));
            }
            out.push(("integer", int[start..start + 3].to_string()));
            start += 3;
        }
    } else {
        out.push(("integer", int.to_string()));
    }
    if !frac.is_empty() {
        out.push(("decimal", ".".to_string()));
        out.push(("fraction", frac.to_string()));
    }
}

/// `formatNumber(x, record, parts)`: `x` formatted as the record says; the string, or the
/// parts array when `parts` is true.
fn format_number(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let x = vm.to_number(arg(args, 0))?;
    let o = num_opts(vm, arg(args, 1));
    let parts = number_parts(x, &o);
    let as_parts = vm.truthy(arg(args, 2));
    finish(vm, parts, as_parts)
}

fn number_parts(x: f64, o: &NumOpts) -> Vec<(&'static str, String)> {
    let neg = x.is_sign_negative() && !x.is_nan();
    // The magnitude's parts, and whether it rounded to zero.
    let mut body: Vec<(&'static str, String)> = Vec::new();
    let mut zero = false;
    let mut compact_word: Option<&'static str> = None;
    let mut one = false;
    if x.is_nan() {
        body.push(("nan", "NaN".to_string()));
    } else if x.is_infinite() {
        body.push(("infinity", "∞".to_string()));
    } else {
        let mut d = Dec::of(x);
        if o.style == "percent" && !d.is_zero() {
            d.exp += 2;
        }
        match o.notation.as_str() {
            "compact" => {
                let scale = |mag: i32| -> i32 { if mag < 3 { 0 } else { (mag / 3 * 3).min(12) } };
                let mag = d.exp - 1;
                let mut e = if d.is_zero() { 0 } else { scale(mag) };
                let mut s = Dec {
                    digits: d.digits.clone(),
                    exp: d.exp - e,
                }
                .trimmed();
                let (mut r, mut min) = round_number(&s, o, neg);
                if !r.is_zero() && scale(r.exp - 1 + e) != e {
                    e = scale(r.exp - 1 + e);
                    s = Dec {
                        digits: d.digits.clone(),
                        exp: d.exp - e,
                    }
                    .trimmed();
                    (r, min) = round_number(&s, o, neg);
                }
                let (int, frac) = r.strings(o.min_int, min);
                zero = r.is_zero();
                one = int == "1" && frac.is_empty();
                digit_parts(&mut body, &int, &frac, &o.grouping);
                compact_word = match (e, o.compact_long) {
                    (3, false) => Some("K"),
                    (6, false) => Some("M"),
                    (9, false) => Some("B"),
                    (12, false) => Some("T"),
                    (3, true) => Some("thousand"),
                    (6, true) => Some("million"),
                    (9, true) => Some("billion"),
                    (12, true) => Some("trillion"),
                    _ => None,
                };
            }
            "scientific" | "engineering" => {
                let step = if o.notation == "engineering" { 3 } else { 1 };
                let exponent = |d: &Dec| -> i32 {
                    if d.is_zero() {
                        0
                    } else {
                        (d.exp - 1).div_euclid(step) * step
                    }
                };
                let mut e = exponent(&d);
                let shift = |e: i32| {
                    Dec {
                        digits: d.digits.clone(),
                        exp: d.exp - e,
                    }
                    .trimmed()
                };
                let (mut r, mut min) = round_number(&shift(e), o, neg);
                if !r.is_zero()
                    && exponent(&Dec {
                        digits: r.digits.clone(),
                        exp: r.exp + e,
                    }) != e
                {
                    e = exponent(&Dec {
                        digits: r.digits.clone(),
                        exp: r.exp + e,
                    });
                    (r, min) = round_number(&shift(e), o, neg);
                }
                let (int, frac) = r.strings(o.min_int, min);
                zero = r.is_zero();
                digit_parts(&mut body, &int, &frac, "false");
                body.push(("exponentSeparator", "E".to_string()));
                if e < 0 {
                    body.push(("exponentMinusSign", "-".to_string()));
                }
                body.push(("exponentInteger", e.unsigned_abs().to_string()));
            }
            _ => {
                let (r, min) = round_number(&d, o, neg);
                let (int, frac) = r.strings(o.min_int, min);
                zero = r.is_zero();
                one = int == "1" && frac.is_empty();
                digit_parts(&mut body, &int, &frac, &o.grouping);
            }
        }
    }
    let sign = match o.sign.as_str() {
        "never" => None,
        "always" => Some(neg),
        "exceptZero" if zero || x.is_nan() => None,
        "exceptZero" => Some(neg),
        "negative" => (neg && !zero).then_some(true),
        _ => neg.then_some(true),
    };
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let accounting = o.style == "currency" && o.accounting && sign == Some(true);
    if accounting {
        out.push(("literal", "(".to_string()));
    } else {
        match sign {
            Some(true) => out.push(("minusSign", "-".to_string())),
            Some(false) => out.push(("plusSign", "+".to_string())),
            None => {}
        }
    }
    let cur = currency(&o.currency);
    let name_display = o.style == "currency" && o.display == "name";
    if o.style == "currency" && !name_display {
        let sym = match (o.display.as_str(), &cur) {
            ("symbol", Some(c)) => c.symbol.to_string(),
            ("narrowSymbol", Some(c)) => c.narrow.to_string(),
            _ => o.currency.clone(),
        };
        let spaced = sym.chars().last().is_some_and(|c| c.is_alphabetic());
        out.push(("currency", sym));
        if spaced {
            out.push(("literal", "\u{a0}".to_string()));
        }
    }
    out.extend(body);
    if let Some(w) = compact_word {
        if o.compact_long {
            out.push(("literal", " ".to_string()));
        }
        out.push(("compact", w.to_string()));
    }
    if o.style == "percent" {
        out.push(("percentSign", "%".to_string()));
    }
    if name_display {
        let name = match &cur {
            Some(c) if one && compact_word.is_none() => c.one.to_string(),
            Some(c) => c.other.to_string(),
            None => o.currency.clone(),
        };
        out.push(("literal", " ".to_string()));
        out.push(("currency", name));
    }
    if accounting {
        out.push(("literal", ")".to_string()));
    }
    out
}

// ----- dates --------------------------------------------------------------------------------

const WEEKDAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTH_NAMES: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// The fields of a time value (UTC): year, month 1..=12, day, hour, minute, second, ms,
/// weekday 0..=6 (Sunday first).
fn date_fields(t: f64) -> [i64; 8] {
    let day = (t / 86_400_000.0).floor();
    let ms = (t - day * 86_400_000.0) as i64;
    let (y, m, d) = super::date::civil_from_days(day as i64);
    [
        y,
        m,
        d,
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000,
        (day as i64 + 4).rem_euclid(7),
    ]
}

/// The date options the prelude resolved (each an empty string when absent).
struct DateOpts {
    weekday: String,
    year: String,
    month: String,
    day: String,
    hour: String,
    minute: String,
    second: String,
    fraction: usize,
    hour_cycle: String,
    zone_name: String,
    date_style: String,
    time_style: String,
}

fn date_opts(vm: &mut Vm, rec: Value) -> DateOpts {
    DateOpts {
        weekday: text(vm, rec, "weekday"),
        year: text(vm, rec, "year"),
        month: text(vm, rec, "month"),
        day: text(vm, rec, "day"),
        hour: text(vm, rec, "hour"),
        minute: text(vm, rec, "minute"),
        second: text(vm, rec, "second"),
        fraction: count(vm, rec, "fractionalSecondDigits", 0).min(3),
        hour_cycle: text(vm, rec, "hourCycle"),
        zone_name: text(vm, rec, "timeZoneName"),
        date_style: text(vm, rec, "dateStyle"),
        time_style: text(vm, rec, "timeStyle"),
    }
}

/// `formatDate(t, record, parts)`: the time value formatted as the record says; the string,
/// or the parts array. An invalid date is node's RangeError `Invalid time value`.
fn format_date(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let t = vm.to_number(arg(args, 0))?;
    if !t.is_finite() || t.abs() > 8.64e15 {
        return Err(vm.range_error("Invalid time value"));
    }
    let mut o = date_opts(vm, arg(args, 1));
    apply_styles(&mut o);
    let parts = date_parts(t, &o);
    let as_parts = vm.truthy(arg(args, 2));
    finish(vm, parts, as_parts)
}

/// `dateStyle`/`timeStyle` as the fields of their CLDR patterns.
fn apply_styles(o: &mut DateOpts) {
    let s = |x: &str| x.to_string();
    match o.date_style.as_str() {
        "full" => {
            (o.weekday, o.year, o.month, o.day) = (s("long"), s("numeric"), s("long"), s("numeric"))
        }
        "long" => (o.year, o.month, o.day) = (s("numeric"), s("long"), s("numeric")),
        "medium" => (o.year, o.month, o.day) = (s("numeric"), s("short"), s("numeric")),
        "short" => (o.year, o.month, o.day) = (s("2-digit"), s("numeric"), s("numeric")),
        _ => {}
    }
    match o.time_style.as_str() {
        "full" | "long" | "medium" => {
            (o.hour, o.minute, o.second) = (s("numeric"), s("2-digit"), s("2-digit"));
            if o.time_style != "medium" {
                o.zone_name = s(if o.time_style == "full" {
                    "long"
                } else {
                    "short"
                });
            }
        }
        "short" => (o.hour, o.minute) = (s("numeric"), s("2-digit")),
        _ => {}
    }
}

fn two(n: i64) -> String {
    format!("{:02}", n)
}

fn date_parts(t: f64, o: &DateOpts) -> Vec<(&'static str, String)> {
    let f = date_fields(t);
    let lit = |s: &str| ("literal", s.to_string());
    // The era year: 1 BC is 1, 2 BC is 2.
    let year = if f[0] <= 0 { 1 - f[0] } else { f[0] };
    let y = match o.year.as_str() {
        "" => None,
        "2-digit" => Some(two(year % 100)),
        _ => Some(year.to_string()),
    };
    let text_month = matches!(o.month.as_str(), "long" | "short" | "narrow");
    let name = MONTH_NAMES[(f[1] - 1) as usize];
    let m = match o.month.as_str() {
        "" => None,
        "long" => Some(name.to_string()),
        "short" => Some(name[..3].to_string()),
        "narrow" => Some(name[..1].to_string()),
        "2-digit" => Some(two(f[1])),
        _ => Some(f[1].to_string()),
    };
    let d = match o.day.as_str() {
        "" => None,
        "2-digit" => Some(two(f[2])),
        _ => Some(f[2].to_string()),
    };
    let wname = WEEKDAYS[f[7] as usize];
    let w = match o.weekday.as_str() {
        "" => None,
        "long" => Some(wname.to_string()),
        "short" => Some(wname[..3].to_string()),
        _ => Some(wname[..1].to_string()),
    };
    let mut date: Vec<(&'static str, String)> = Vec::new();
    let only_weekday = w.is_some() && y.is_none() && m.is_none() && d.is_none();
    match (&y, &m, &d) {
        (None, None, None) => {}
        _ if !text_month && m.is_some() => {
            // M/d/y, M/d, M/y, M.
            if let Some(m) = &m {
                date.push(("month", m.clone()));
            }
            if let Some(d) = &d {
                date.push(lit("/"));
                date.push(("day", d.clone()));
            }
            if let Some(y) = &y {
                date.push(lit("/"));
                date.push(("year", y.clone()));
            }
        }
        (_, Some(m), _) => {
            // MMM d, y; MMM d; MMM y; MMMM.
            date.push(("month", m.clone()));
            if let Some(d) = &d {
                date.push(lit(" "));
                date.push(("day", d.clone()));
            }
            if let Some(y) = &y {
                date.push(lit(if d.is_some() { ", " } else { " " }));
                date.push(("year", y.clone()));
            }
        }
        (Some(y), None, Some(d)) => {
            date.push(("year", y.clone()));
            date.push(lit(" (day: "));
            date.push(("day", d.clone()));
            date.push(lit(")"));
        }
        (Some(y), None, None) => date.push(("year", y.clone())),
        (None, None, Some(d)) => date.push(("day", d.clone())),
    }
    if let Some(w) = w {
        if date.is_empty() {
            date.push(("weekday", w));
        } else if m.is_some() || d.is_none() && y.is_none() {
            if m.is_some() && (y.is_none() || d.is_none()) && d.is_none() {
                // `January Thursday`, `Jan 2026 Thursday`.
                date.push(lit(" "));
                date.push(("weekday", w));
            } else {
                date.insert(0, lit(", "));
                date.insert(0, ("weekday", w));
            }
        } else {
            // `2026 Thursday`, `1 Thursday`.
            date.push(lit(" "));
            date.push(("weekday", w));
        }
    }
    // The time.
    let mut time: Vec<(&'static str, String)> = Vec::new();
    let h12 = matches!(o.hour_cycle.as_str(), "h11" | "h12" | "");
    if !o.hour.is_empty() {
        let h = f[3];
        let shown = match o.hour_cycle.as_str() {
            "h11" => h % 12,
            "h23" => h,
            "h24" => {
                if h == 0 {
                    24
                } else {
                    h
                }
            }
            _ => {
                if h % 12 == 0 {
                    12
                } else {
                    h % 12
                }
            }
        };
        let hs = if o.hour == "2-digit" || !h12 {
            two(shown)
        } else {
            shown.to_string()
        };
        time.push(("hour", hs));
        if !o.minute.is_empty() {
            time.push(lit(":"));
            time.push(("minute", two(f[4])));
        }
        if !o.second.is_empty() {
            time.push(lit(":"));
            time.push(("second", two(f[5])));
        }
    } else if !o.minute.is_empty() {
        if o.second.is_empty() {
            time.push(("minute", f[4].to_string()));
        } else {
            time.push(("minute", two(f[4])));
            time.push(lit(":"));
            time.push(("second", two(f[5])));
        }
    } else if !o.second.is_empty() {
        time.push(("second", f[5].to_string()));
    }
    if o.fraction > 0 {
        let ms = format!("{:03}", f[6]);
        if !time.is_empty() {
            time.push(lit("."));
        }
        time.push(("fractionalSecond", ms[..o.fraction].to_string()));
    }
    if !o.hour.is_empty() && h12 {
        // ICU's narrow no-break space; node's `format` prints it as a space (`finish`).
        time.push(lit("\u{202f}"));
        time.push(("dayPeriod", if f[3] < 12 { "AM" } else { "PM" }.to_string()));
    }
    let zone = match o.zone_name.as_str() {
        "" => None,
        "long" => Some("Coordinated Universal Time"),
        "short" => Some("UTC"),
        _ => Some("GMT"),
    };
    let mut out = date;
    if !time.is_empty() {
        if !out.is_empty() {
            let at = if !o.date_style.is_empty() {
                matches!(o.date_style.as_str(), "full" | "long")
            } else {
                o.month == "long" && (y.is_some() || d.is_some())
            };
            let zone_or_bare_hour =
                zone.is_some() || (!h12 && o.minute.is_empty() && o.second.is_empty());
            out.push(lit(if only_weekday && !zone_or_bare_hour {
                " "
            } else if at {
                " at "
            } else {
                ", "
            }));
        }
        out.extend(time);
        if let Some(z) = zone {
            out.push(lit(" "));
            out.push(("timeZoneName", z.to_string()));
        }
    } else if let Some(z) = zone {
        if !out.is_empty() {
            out.push(lit(", "));
        }
        out.push(("timeZoneName", z.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts() -> NumOpts {
        NumOpts {
            style: "decimal".into(),
            currency: String::new(),
            display: String::new(),
            accounting: false,
            min_int: 1,
            min_frac: 0,
            max_frac: 3,
            min_sig: 1,
            max_sig: 21,
            priority: "fractionDigits".into(),
            mode: Mode::HalfExpand,
            strip_integer: false,
            grouping: "auto".into(),
            notation: "standard".into(),
            compact_long: false,
            sign: "auto".into(),
        }
    }

    fn fmt(x: f64, o: &NumOpts) -> String {
        number_parts(x, o).into_iter().map(|(_, v)| v).collect()
    }

    #[test]
    fn decimal_rounding_is_exact_on_shortest_digits() {
        let mut o = opts();
        o.max_frac = 2;
        assert_eq!(fmt(1.005, &o), "1.01");
        assert_eq!(fmt(0.125, &o), "0.13");
        assert_eq!(fmt(-0.001, &o), "-0");
        assert_eq!(fmt(999.995, &o), "1,000");
        o.max_frac = 0;
        assert_eq!(fmt(2.5, &o), "3");
        assert_eq!(fmt(-2.5, &o), "-3");
        o.mode = Mode::HalfEven;
        assert_eq!(fmt(2.5, &o), "2");
        assert_eq!(fmt(1e21, &opts()), "1,000,000,000,000,000,000,000");
        assert_eq!(fmt(1.5e-7, &opts()), "0");
    }

    #[test]
    fn locale_tags_are_checked_and_canonicalized() {
        assert_eq!(canonical_locale("EN-us").as_deref(), Some("en-US"));
        assert_eq!(
            canonical_locale("zh-hant-tw").as_deref(),
            Some("zh-Hant-TW")
        );
        assert_eq!(
            canonical_locale("de-DE-u-co-phonebk").as_deref(),
            Some("de-DE-u-co-phonebk")
        );
        for bad in ["", "en_US", "e", "en-", "toolonglanguage", "en-US-u", "é"] {
            assert_eq!(canonical_locale(bad), None, "{bad}");
        }
    }
}
