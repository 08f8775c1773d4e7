//! `Date` (ECMA-262 §21.4) with UTC as the local time zone (`getTimezoneOffset()` is 0, the
//! local and UTC methods agree), the clock of [`super::platform`], and `Date.parse` as V8
//! parses: the ISO format (§21.4.1.32, also with more or fewer fraction digits, `hhmm`
//! offsets and `+YYYYYY` years), then V8's legacy fallback (`dateparser-inl.h`: RFC 2822 and
//! `toString`/`toUTCString` output, `Jan 2 2020`, `1/2/2020 10:00 PM`, `GMT+0100`, `EST` ...),
//! rewritten from its description. `Date.prototype[Symbol.toPrimitive]` and `toJSON` call user
//! methods, so they are in `prelude.js`; the `toLocale*String` methods are `Intl`'s
//! (`prelude/intl.js`, `intl.rs`).

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Date", date_ctor, 7),
    ("Date.now", date_now, 0),
    ("Date.parse", date_parse, 1),
    ("Date.UTC", date_utc, 7),
    ("Date.prototype.getTime", get_time, 0),
    ("Date.prototype.valueOf", get_time, 0),
    ("Date.prototype.getFullYear", get_year_full, 0),
    ("Date.prototype.getUTCFullYear", get_year_full, 0),
    ("Date.prototype.getMonth", get_month, 0),
    ("Date.prototype.getUTCMonth", get_month, 0),
    ("Date.prototype.getDate", get_date, 0),
    ("Date.prototype.getUTCDate", get_date, 0),
    ("Date.prototype.getDay", get_day, 0),
    ("Date.prototype.getUTCDay", get_day, 0),
    ("Date.prototype.getHours", get_hours, 0),
    ("Date.prototype.getUTCHours", get_hours, 0),
    ("Date.prototype.getMinutes", get_minutes, 0),
    ("Date.prototype.getUTCMinutes", get_minutes, 0),
    ("Date.prototype.getSeconds", get_seconds, 0),
    ("Date.prototype.getUTCSeconds", get_seconds, 0),
    ("Date.prototype.getMilliseconds", get_ms, 0),
    ("Date.prototype.getUTCMilliseconds", get_ms, 0),
    ("Date.prototype.getTimezoneOffset", get_tz_offset, 0),
    ("Date.prototype.getYear", get_year, 0),
    ("Date.prototype.setTime", set_time, 1),
    ("Date.prototype.setYear", set_year, 1),
    ("Date.prototype.toISOString", to_iso_string, 0),
    ("Date.prototype.toString", to_string, 0),
    ("Date.prototype.toDateString", to_date_string, 0),
    ("Date.prototype.toTimeString", to_time_string, 0),
    ("Date.prototype.toUTCString", to_utc_string, 0),
    ("%Intrinsics%.dateValue", date_value, 1),
    ("%Intrinsics%.dateSetFields", date_set_fields, 4),
];

const MS_PER_DAY: f64 = 86_400_000.0;
const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// `toGMTString` is `toUTCString` (Annex B: the same function object).
pub fn setup(vm: &mut Vm) -> Res<()> {
    let Some(p) = vm.platform.date_proto else {
        return Ok(());
    };
    let utc = vm.heap.key("toUTCString");
    if let Some(crate::heap::Prop { slot, .. }) = vm.own(p, utc) {
        let gmt = vm.heap.key("toGMTString");
        vm.define(p, gmt, slot, HIDDEN_ATTRS)?;
    }
    Ok(())
}

// ----- time arithmetic (§21.4.1) ------------------------------------------------------------

/// Days since 1970-01-01 of a proleptic Gregorian date (`m` 1..=12).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date (year, month 1..=12, day 1..=31) of a day number.
pub(super) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The parts of a valid time value: year, month (0-based), date, hours, minutes, seconds,
/// milliseconds, weekday.
#[derive(Clone, Copy)]
struct Parts {
    fields: [f64; 7],
    weekday: usize,
}

fn parts(t: f64) -> Parts {
    let day = (t / MS_PER_DAY).floor();
    let ms_in_day = t - day * MS_PER_DAY;
    let (y, m, d) = civil_from_days(day as i64);
    let ms = ms_in_day as i64;
    Parts {
        fields: [
            y as f64,
            (m - 1) as f64,
            d as f64,
            (ms / 3_600_000) as f64,
            (ms / 60_000 % 60) as f64,
            (ms / 1000 % 60) as f64,
            (ms % 1000) as f64,
        ],
        weekday: (day as i64 + 4).rem_euclid(7) as usize,
    }
}

/// MakeDay (§21.4.1.28) with V8's bounds on year and month.
fn make_day(year: f64, month: f64, date: f64) -> f64 {
    if !(year.is_finite() && month.is_finite() && date.is_finite()) {
        return f64::NAN;
    }
    let (y, m, dt) = (year.trunc(), month.trunc(), date.trunc());
    if !(-1_000_000.0..=1_000_000.0).contains(&y) || !(-10_000_000.0..=10_000_000.0).contains(&m) {
        return f64::NAN;
    }
    let ym = y as i64 + (m as i64).div_euclid(12);
    let mn = (m as i64).rem_euclid(12);
    days_from_civil(ym, mn + 1, 1) as f64 + dt - 1.0
}

/// MakeTime (§21.4.1.27).
fn make_time(h: f64, m: f64, s: f64, ms: f64) -> f64 {
    if !(h.is_finite() && m.is_finite() && s.is_finite() && ms.is_finite()) {
        return f64::NAN;
    }
    h.trunc() * 3_600_000.0 + m.trunc() * 60_000.0 + s.trunc() * 1000.0 + ms.trunc()
}

/// MakeDate (§21.4.1.29).
fn make_date(day: f64, time: f64) -> f64 {
    let t = day * MS_PER_DAY + time;
    if t.is_finite() { t } else { f64::NAN }
}

/// TimeClip (§21.4.1.31).
fn time_clip(t: f64) -> f64 {
    if !t.is_finite() || t.abs() > 8.64e15 {
        f64::NAN
    } else {
        t.trunc() + 0.0
    }
}

fn from_fields(f: &[f64; 7]) -> f64 {
    time_clip(make_date(
        make_day(f[0], f[1], f[2]),
        make_time(f[3], f[4], f[5], f[6]),
    ))
}

// ----- the constructor and statics ----------------------------------------------------------

fn date_now(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Num(time_clip(super::platform::now(vm))))
}

fn date_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (Some(_), Value::Obj(o)) = (vm.native_construct, this) else {
        // Called as a function: the current time as `toString` prints it.
        let t = time_clip(super::platform::now(vm));
        return vm.str_val(&format_string(t, Form::Full));
    };
    let t = match args.len() {
        0 => time_clip(super::platform::now(vm)),
        1 => {
            let v = args[0];
            let date = match v {
                Value::Obj(d) => match vm.heap.obj(d).kind {
                    Kind::Date(t) => Some(t),
                    _ => None,
                },
                _ => None,
            };
            match date {
                Some(t) => t,
                None => match vm.to_primitive_hint(v, 0)? {
                    Value::Str(s) => {
                        let units = vm.heap.str(s).units();
                        vm.work_check(units.len() / 8)?;
                        parse(&units)
                    }
                    p => time_clip(vm.to_number(p)?),
                },
            }
        }
        _ => from_args(vm, args)?,
    };
    vm.heap.obj_mut(o).kind = Kind::Date(t);
    Ok(this)
}

/// The time value of `(year, month[, date, hours, minutes, seconds, ms])`, two-digit years
/// in the 1900s (the constructor's and `Date.UTC`'s rule).
fn from_args(vm: &mut Vm, args: &[Value]) -> Res<f64> {
    let mut f = [f64::NAN, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0];
    for (i, slot) in f.iter_mut().enumerate() {
        if let Some(&v) = args.get(i) {
            *slot = vm.to_number(v)?;
        }
    }
    if f[0].is_finite() {
        let y = f[0].trunc();
        if (0.0..=99.0).contains(&y) {
            f[0] = 1900.0 + y;
        }
    }
    Ok(from_fields(&f))
}

fn date_utc(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let t = if args.is_empty() {
        f64::NAN
    } else {
        from_args(vm, args)?
    };
    Ok(Value::Num(t))
}

fn date_parse(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let s = vm.to_string(arg(args, 0))?;
    let units = vm.heap.str(s).units();
    vm.work_check(units.len() / 8)?;
    Ok(Value::Num(parse(&units)))
}

// ----- getters and setters ------------------------------------------------------------------

/// The time value of `this`, a Date object.
fn this_time(vm: &mut Vm, this: Value) -> Res<f64> {
    if let Value::Obj(o) = this
        && let Kind::Date(t) = vm.heap.obj(o).kind
    {
        return Ok(t);
    }
    Err(vm.type_error("this is not a Date object."))
}

fn get_time(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Num(this_time(vm, this)?))
}

/// The getter of field `i` of [`Parts::fields`]; 7 is the weekday, 8 the zone offset (0),
/// 9 Annex B's `getYear` (the year minus 1900). NaN for an invalid date.
fn field(vm: &mut Vm, this: Value, i: usize) -> Res<Value> {
    let t = this_time(vm, this)?;
    if t.is_nan() {
        return Ok(Value::Num(f64::NAN));
    }
    let p = parts(t);
    Ok(Value::Num(match i {
        7 => p.weekday as f64,
        8 => 0.0,
        9 => p.fields[0] - 1900.0,
        _ => p.fields[i.min(6)],
    }))
}

fn get_year_full(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 0)
}
fn get_month(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 1)
}
fn get_date(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 2)
}
fn get_hours(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 3)
}
fn get_minutes(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 4)
}
fn get_seconds(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 5)
}
fn get_ms(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 6)
}
fn get_day(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 7)
}
fn get_tz_offset(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 8)
}
fn get_year(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    field(vm, this, 9)
}

fn store(vm: &mut Vm, this: Value, t: f64) -> Res<Value> {
    if let Value::Obj(o) = this {
        vm.heap.obj_mut(o).kind = Kind::Date(t);
    }
    Ok(Value::Num(t))
}

fn set_time(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    this_time(vm, this)?;
    let t = vm.to_number(arg(args, 0))?;
    store(vm, this, time_clip(t))
}

/// `dateValue(d)`: thisTimeValue (§21.4.4): the time value of a Date, else a TypeError. The
/// setters of `prelude.js` read it before they convert their arguments.
fn date_value(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Num(this_time(vm, arg(args, 0))?))
}

/// `dateSetFields(d, t, first, ...numbers)`: the setters' last step (§21.4.4.20-28): fields
/// `first..` of the time value `t` (read before the arguments were converted) replaced by the
/// numbers given, stored into `d`. An invalid `t` stays invalid, except for `setFullYear`
/// (`first` 0), which starts from +0.
fn date_set_fields(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let d = arg(args, 0);
    this_time(vm, d)?;
    let t = match arg(args, 1) {
        Value::Num(t) => t,
        _ => f64::NAN,
    };
    let first = match arg(args, 2) {
        Value::Num(f) if (0.0..=6.0).contains(&f) => f as usize,
        _ => return Err(vm.type_error("dateSetFields: bad field")),
    };
    let given: Vec<f64> = args
        .iter()
        .skip(3)
        .take(7 - first)
        .map(|v| match v {
            Value::Num(n) => *n,
            _ => f64::NAN,
        })
        .collect();
    let t = match (t.is_nan(), first) {
        (true, 0) => 0.0,
        (true, _) => return Ok(Value::Num(f64::NAN)),
        (false, _) => t,
    };
    let mut f = parts(t).fields;
    f[first..first + given.len()].copy_from_slice(&given);
    store(vm, d, from_fields(&f))
}

/// Annex B `setYear`: two-digit years in the 1900s.
fn set_year(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let t = this_time(vm, this)?;
    let y = vm.to_number(arg(args, 0))?;
    if y.is_nan() {
        return store(vm, this, f64::NAN);
    }
    let yi = y.trunc();
    let y = if (0.0..=99.0).contains(&yi) {
        1900.0 + yi
    } else {
        y
    };
    let mut f = parts(if t.is_nan() { 0.0 } else { t }).fields;
    f[0] = y;
    store(vm, this, from_fields(&f))
}

// ----- strings ------------------------------------------------------------------------------

/// `toISOString`'s form: `YYYY-MM-DDTHH:mm:ss.sssZ`, six digits and a sign outside 0..=9999.
pub fn iso(t: f64) -> String {
    let p = parts(t);
    let f = p.fields;
    let y = f[0] as i64;
    let year = if (0..=9999).contains(&y) {
        format!("{y:04}")
    } else if y < 0 {
        format!("-{:06}", -y)
    } else {
        format!("+{y:06}")
    };
    format!(
        "{year}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        f[1] as i64 + 1,
        f[2] as i64,
        f[3] as i64,
        f[4] as i64,
        f[5] as i64,
        f[6] as i64
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Form {
    Full,
    Date,
    Time,
    Utc,
}

/// V8's `toString` family: four-digit years, five with the sign below zero.
fn format_string(t: f64, form: Form) -> String {
    if t.is_nan() {
        return "Invalid Date".to_string();
    }
    let p = parts(t);
    let f = p.fields;
    let y = f[0] as i64;
    let year = if y < 0 {
        format!("{y:05}")
    } else {
        format!("{y:04}")
    };
    let (wd, mon, d) = (DAYS[p.weekday], MONTHS[f[1] as usize], f[2] as i64);
    let time = format!("{:02}:{:02}:{:02}", f[3] as i64, f[4] as i64, f[5] as i64);
    let zone = "GMT+0000 (Coordinated Universal Time)";
    match form {
        Form::Full => format!("{wd} {mon} {d:02} {year} {time} {zone}"),
        Form::Date => format!("{wd} {mon} {d:02} {year}"),
        Form::Time => format!("{time} {zone}"),
        Form::Utc => format!("{wd}, {d:02} {mon} {year} {time} GMT"),
    }
}

fn string_form(vm: &mut Vm, this: Value, form: Form) -> Res<Value> {
    let t = this_time(vm, this)?;
    vm.str_val(&format_string(t, form))
}

fn to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    string_form(vm, this, Form::Full)
}
fn to_date_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    string_form(vm, this, Form::Date)
}
fn to_time_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    string_form(vm, this, Form::Time)
}
fn to_utc_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    string_form(vm, this, Form::Utc)
}

fn to_iso_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let t = this_time(vm, this)?;
    if t.is_nan() {
        return Err(vm.range_error("Invalid time value"));
    }
    vm.str_val(&iso(t))
}

// ----- Date.parse ---------------------------------------------------------------------------

/// V8's "none" marker of its composers.
const NONE: i64 = i64::MAX;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Word {
    Month(i64),
    AmPm(i64),
    Zone(i64),
    T,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    /// Value (at most nine significant digits) and length in characters.
    Num(i64, usize),
    Sym(u16),
    /// A word: what it is, its length.
    Word(Word, usize),
    Space,
    Unknown,
    Invalid,
    End,
}

impl Tok {
    fn fixed(self, n: usize) -> bool {
        matches!(self, Tok::Num(_, l) if l == n)
    }
    fn num(self) -> i64 {
        match self {
            Tok::Num(v, _) => v,
            _ => 0,
        }
    }
    fn sign(self) -> Option<i64> {
        match self {
            Tok::Sym(0x2B) => Some(1),
            Tok::Sym(0x2D) => Some(-1),
            _ => None,
        }
    }
    fn is_z(self) -> bool {
        matches!(self, Tok::Word(Word::Zone(0), 1))
    }
}

fn is_space(u: u16) -> bool {
    matches!(
        u,
        0x09..=0x0D | 0x20 | 0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F
            | 0x3000 | 0xFEFF
    )
}

/// V8's keyword table: the first three letters (and longer words for month names only).
fn keyword(prefix: &[u8; 3], len: usize) -> Word {
    const MONTHS_LC: [&[u8; 3]; 12] = [
        b"jan", b"feb", b"mar", b"apr", b"may", b"jun", b"jul", b"aug", b"sep", b"oct", b"nov",
        b"dec",
    ];
    if let Some(i) = MONTHS_LC.iter().position(|m| *m == prefix) {
        return Word::Month(i as i64 + 1);
    }
    if len > 3 {
        return Word::Other;
    }
    match prefix {
        b"am\0" => Word::AmPm(0),
        b"pm\0" => Word::AmPm(12),
        b"ut\0" | b"utc" | b"z\0\0" | b"gmt" => Word::Zone(0),
        b"cdt" => Word::Zone(-5),
        b"cst" => Word::Zone(-6),
        b"edt" => Word::Zone(-4),
        b"est" => Word::Zone(-5),
        b"mdt" => Word::Zone(-6),
        b"mst" => Word::Zone(-7),
        b"pdt" => Word::Zone(-7),
        b"pst" => Word::Zone(-8),
        b"t\0\0" => Word::T,
        _ => Word::Other,
    }
}

/// V8's date tokenizer with one token of lookahead.
struct Scanner<'a> {
    s: &'a [u16],
    pos: usize,
    next: Tok,
}

impl<'a> Scanner<'a> {
    fn new(s: &'a [u16]) -> Scanner<'a> {
        let mut sc = Scanner {
            s,
            pos: 0,
            next: Tok::End,
        };
        sc.next = sc.scan();
        sc
    }
    fn ch(&self) -> u16 {
        self.s.get(self.pos).copied().unwrap_or(0)
    }
    fn scan(&mut self) -> Tok {
        let start = self.pos;
        if self.pos >= self.s.len() {
            return Tok::End;
        }
        let c = self.ch();
        if c.is_ascii_digit_u16() {
            while self.ch() == u16::from(b'0') && self.pos < self.s.len() {
                self.pos += 1;
            }
            let (mut n, mut i) = (0i64, 0);
            while self.pos < self.s.len() && self.ch().is_ascii_digit_u16() {
                if i < 9 {
                    n = n * 10 + i64::from(self.ch() - u16::from(b'0'));
                }
                i += 1;
                self.pos += 1;
            }
            return Tok::Num(n, self.pos - start);
        }
        if matches!(c, 0x3A | 0x2D | 0x2B | 0x2E | 0x29) {
            self.pos += 1;
            return Tok::Sym(c);
        }
        if c >= u16::from(b'A') && !is_space(c) {
            let mut prefix = [0u8; 3];
            let mut len = 0;
            while self.pos < self.s.len() && self.ch() >= u16::from(b'A') && !is_space(self.ch()) {
                if len < 3 {
                    let u = self.ch() | 0x20;
                    prefix[len] = if u < 0x80 { u as u8 } else { 0xFF };
                }
                len += 1;
                self.pos += 1;
            }
            return Tok::Word(keyword(&prefix, len), len);
        }
        if is_space(c) {
            while self.pos < self.s.len() && is_space(self.ch()) {
                self.pos += 1;
            }
            return Tok::Space;
        }
        if c == u16::from(b'(') {
            let mut balance = 0i64;
            loop {
                match self.ch() {
                    0x29 => balance -= 1,
                    0x28 => balance += 1,
                    _ => {}
                }
                self.pos += 1;
                if balance <= 0 || self.pos >= self.s.len() {
                    break;
                }
            }
            return Tok::Unknown;
        }
        self.pos += 1;
        Tok::Unknown
    }
    fn next(&mut self) -> Tok {
        let t = self.next;
        self.next = self.scan();
        t
    }
    fn peek(&self) -> Tok {
        self.next
    }
    fn skip(&mut self, c: u8) -> bool {
        if self.next == Tok::Sym(u16::from(c)) {
            self.next();
            true
        } else {
            false
        }
    }
}

trait Digit {
    fn is_ascii_digit_u16(self) -> bool;
}
impl Digit for u16 {
    fn is_ascii_digit_u16(self) -> bool {
        (0x30..=0x39).contains(&self)
    }
}

#[derive(Default)]
struct Day {
    comp: [i64; 3],
    index: usize,
    named_month: Option<i64>,
    iso: bool,
}

impl Day {
    fn add(&mut self, n: i64) -> bool {
        if self.index < 3 {
            self.comp[self.index] = n;
            self.index += 1;
            true
        } else {
            false
        }
    }
    fn write(&mut self) -> Option<(i64, i64, i64)> {
        if self.index < 1 {
            return None;
        }
        while self.index < 3 {
            self.comp[self.index] = 1;
            self.index += 1;
        }
        let is_day = |x: i64| (1..=31).contains(&x);
        let c = self.comp;
        let (mut year, month, day) = match self.named_month {
            None if self.iso || !is_day(c[0]) => (c[0], c[1], c[2]),
            None => (c[2], c[0], c[1]),
            Some(m) if !is_day(c[0]) => (c[0], m, c[1]),
            Some(m) => (c[1], m, c[0]),
        };
        if !self.iso {
            if (0..=49).contains(&year) {
                year += 2000;
            } else if (50..=99).contains(&year) {
                year += 1900;
            }
        }
        if !(1..=12).contains(&month) || !is_day(day) {
            return None;
        }
        Some((year, month - 1, day))
    }
}

#[derive(Default)]
struct Time {
    comp: [i64; 4],
    index: usize,
    hour_offset: Option<i64>,
}

impl Time {
    fn is_empty(&self) -> bool {
        self.index == 0
    }
    fn expecting(&self, n: i64) -> bool {
        (self.index == 1 && (0..=59).contains(&n))
            || (self.index == 2 && (0..=59).contains(&n))
            || (self.index == 3 && (0..=999).contains(&n))
    }
    fn add(&mut self, n: i64) -> bool {
        if self.index < 4 {
            self.comp[self.index] = n;
            self.index += 1;
            true
        } else {
            false
        }
    }
    fn add_final(&mut self, n: i64) -> bool {
        if !self.add(n) {
            return false;
        }
        while self.index < 4 {
            self.comp[self.index] = 0;
            self.index += 1;
        }
        true
    }
    fn write(&mut self) -> Option<[i64; 4]> {
        while self.index < 4 {
            self.comp[self.index] = 0;
            self.index += 1;
        }
        let [mut h, m, s, ms] = self.comp;
        if let Some(off) = self.hour_offset {
            if !(0..=12).contains(&h) {
                return None;
            }
            h = h % 12 + off;
        }
        let ok = (0..=23).contains(&h)
            && (0..=59).contains(&m)
            && (0..=59).contains(&s)
            && (0..=999).contains(&ms);
        if !(ok || (h == 24 && m == 0 && s == 0 && ms == 0)) {
            return None;
        }
        Some([h, m, s, ms])
    }
}

struct Zone {
    sign: i64,
    hour: i64,
    minute: i64,
}

impl Default for Zone {
    fn default() -> Zone {
        Zone {
            sign: NONE,
            hour: NONE,
            minute: NONE,
        }
    }
}

impl Zone {
    fn set(&mut self, hours: i64) {
        self.sign = if hours < 0 { -1 } else { 1 };
        self.hour = hours.abs();
        self.minute = 0;
    }
    fn expecting(&self, n: i64) -> bool {
        self.hour != NONE && self.minute == NONE && (0..=59).contains(&n)
    }
    fn is_utc(&self) -> bool {
        self.hour == 0 && self.minute == 0
    }
    fn is_empty(&self) -> bool {
        self.hour == NONE
    }
    /// The offset in seconds; `None` for local time (UTC here).
    fn write(&self) -> Option<Option<i64>> {
        if self.sign == NONE {
            return Some(None);
        }
        let h = if self.hour == NONE { 0 } else { self.hour };
        let m = if self.minute == NONE { 0 } else { self.minute };
        let total = h.checked_mul(3600)?.checked_add(m.checked_mul(60)?)?;
        if total > i64::from(i32::MAX >> 1) {
            return None;
        }
        Some(Some(if self.sign < 0 { -total } else { total }))
    }
}

/// The first three significant digits of a fraction of `len` digits whose value is `n`.
fn milliseconds(n: i64, len: usize) -> i64 {
    match len {
        1 => n * 100,
        2 => n * 10,
        3 => n,
        _ => {
            let len = len.min(9);
            n / 10i64.pow(len as u32 - 3)
        }
    }
}

/// The ISO format (ES5 date time string, as V8 extends it); the token the legacy parser
/// continues from, `Tok::End` when the whole string was ISO, `Tok::Invalid` to fail.
fn parse_iso(sc: &mut Scanner, day: &mut Day, time: &mut Time, tz: &mut Zone) -> Tok {
    if let Some(sign) = sc.peek().sign() {
        let sign_tok = sc.next();
        if !sc.peek().fixed(6) {
            return sign_tok;
        }
        let year = sc.next().num();
        if sign < 0 && year == 0 {
            return sign_tok;
        }
        day.add(sign * year);
    } else if sc.peek().fixed(4) {
        day.add(sc.next().num());
    } else {
        return sc.next();
    }
    if sc.skip(b'-') {
        if !sc.peek().fixed(2) || !(1..=12).contains(&sc.peek().num()) {
            return sc.next();
        }
        day.add(sc.next().num());
        if sc.skip(b'-') {
            if !sc.peek().fixed(2) || !(1..=31).contains(&sc.peek().num()) {
                return sc.next();
            }
            day.add(sc.next().num());
        }
    }
    if !matches!(sc.peek(), Tok::Word(Word::T, 1)) {
        if sc.peek() != Tok::End {
            return sc.next();
        }
    } else {
        sc.next();
        if !sc.peek().fixed(2) || !(0..=24).contains(&sc.peek().num()) {
            return Tok::Invalid;
        }
        let hour_is_24 = sc.peek().num() == 24;
        time.add(sc.next().num());
        if !sc.skip(b':') {
            return Tok::Invalid;
        }
        if !sc.peek().fixed(2)
            || !(0..=59).contains(&sc.peek().num())
            || (hour_is_24 && sc.peek().num() > 0)
        {
            return Tok::Invalid;
        }
        time.add(sc.next().num());
        if sc.skip(b':') {
            if !sc.peek().fixed(2)
                || !(0..=59).contains(&sc.peek().num())
                || (hour_is_24 && sc.peek().num() > 0)
            {
                return Tok::Invalid;
            }
            time.add(sc.next().num());
            if sc.skip(b'.') {
                if !matches!(sc.peek(), Tok::Num(..)) || (hour_is_24 && sc.peek().num() > 0) {
                    return Tok::Invalid;
                }
                let Tok::Num(n, len) = sc.next() else {
                    return Tok::Invalid;
                };
                time.add(milliseconds(n, len));
            }
        }
        if sc.peek().is_z() {
            sc.next();
            tz.set(0);
        } else if let Some(sign) = sc.peek().sign() {
            sc.next();
            tz.sign = sign;
            if sc.peek().fixed(4) {
                let hm = sc.next().num();
                let (h, m) = (hm / 100, hm % 100);
                if !(0..=23).contains(&h) || !(0..=59).contains(&m) {
                    return Tok::Invalid;
                }
                tz.hour = h;
                tz.minute = m;
            } else {
                if !sc.peek().fixed(2) || !(0..=23).contains(&sc.peek().num()) {
                    return Tok::Invalid;
                }
                tz.hour = sc.next().num();
                if !sc.skip(b':') {
                    return Tok::Invalid;
                }
                if !sc.peek().fixed(2) || !(0..=59).contains(&sc.peek().num()) {
                    return Tok::Invalid;
                }
                tz.minute = sc.next().num();
            }
        }
        if sc.peek() != Tok::End {
            return Tok::Invalid;
        }
    }
    if tz.is_empty() && time.is_empty() {
        tz.set(0);
    }
    day.iso = true;
    Tok::End
}

/// `Date.parse` of a string's units: the time value, NaN when V8 gives NaN.
pub fn parse(s: &[u16]) -> f64 {
    parse_parts(s).unwrap_or(f64::NAN)
}

fn parse_parts(s: &[u16]) -> Option<f64> {
    let mut sc = Scanner::new(s);
    let (mut day, mut time, mut tz) = (Day::default(), Time::default(), Zone::default());
    let mut tok = parse_iso(&mut sc, &mut day, &mut time, &mut tz);
    if tok == Tok::Invalid {
        return None;
    }
    let mut has_number = day.index > 0;
    while tok != Tok::End {
        match tok {
            Tok::Num(n, _) => {
                has_number = true;
                if sc.skip(b':') {
                    if sc.skip(b':') {
                        if !time.is_empty() {
                            return None;
                        }
                        time.add(n);
                        time.add(0);
                    } else {
                        if !time.add(n) {
                            return None;
                        }
                        if sc.peek() == Tok::Sym(0x2E) {
                            sc.next();
                        }
                    }
                } else if sc.skip(b'.') && time.expecting(n) {
                    time.add(n);
                    let Tok::Num(f, len) = sc.peek() else {
                        return None;
                    };
                    sc.next();
                    time.add_final(milliseconds(f, len));
                } else if tz.expecting(n) {
                    tz.minute = n;
                } else if time.expecting(n) {
                    time.add_final(n);
                    let p = sc.peek();
                    if !(p == Tok::End || p == Tok::Space || p.is_z() || p.sign().is_some()) {
                        return None;
                    }
                } else {
                    if !day.add(n) {
                        return None;
                    }
                    sc.skip(b'-');
                }
            }
            Tok::Word(w, _) => match w {
                Word::AmPm(off) if !time.is_empty() => time.hour_offset = Some(off),
                Word::Month(m) => {
                    day.named_month = Some(m);
                    sc.skip(b'-');
                }
                Word::Zone(h) if has_number => tz.set(h),
                _ => {
                    if has_number || matches!(sc.peek(), Tok::Num(..)) {
                        return None;
                    }
                }
            },
            Tok::Sym(_) if tok.sign().is_some() && (tz.is_utc() || !time.is_empty()) => {
                tz.sign = tok.sign().unwrap_or(1);
                let (mut n, mut len) = (0, 0);
                if let Tok::Num(v, l) = sc.peek() {
                    sc.next();
                    n = v;
                    len = l;
                }
                has_number = true;
                if sc.peek() == Tok::Sym(0x3A) {
                    tz.hour = n;
                    tz.minute = NONE;
                } else if len == 1 || len == 2 {
                    tz.hour = n;
                    tz.minute = 0;
                } else if len == 3 || len == 4 {
                    tz.hour = n / 100;
                    tz.minute = n % 100;
                } else {
                    return None;
                }
            }
            Tok::Sym(c) if (tok.sign().is_some() || c == 0x29) && has_number => return None,
            _ => {}
        }
        tok = sc.next();
    }
    let (y, m, d) = day.write()?;
    let [h, mi, sec, ms] = time.write()?;
    let offset = tz.write()?;
    let date = make_date(
        make_day(y as f64, m as f64, d as f64),
        make_time(h as f64, mi as f64, sec as f64, ms as f64),
    );
    let date = match offset {
        None => date,
        Some(o) => date - o as f64 * 1000.0,
    };
    Some(time_clip(date))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> f64 {
        parse(&s.encode_utf16().collect::<Vec<_>>())
    }

    #[test]
    fn civil_round_trips_across_the_range() {
        for z in [
            -100_000_000i64,
            -719_468,
            -1,
            0,
            1,
            59,
            60,
            10_957,
            100_000_000,
        ] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z);
        }
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn parses_iso_and_legacy_forms() {
        assert_eq!(p("1970-01-01T00:00:00Z"), 0.0);
        assert_eq!(p("1970-01-01"), 0.0);
        assert_eq!(p("1970-01-01T00:00:00.5+01:00"), -3_599_500.0);
        assert_eq!(p("Thu, 01 Jan 1970 00:00:00 GMT"), 0.0);
        assert_eq!(
            p("Thu Jan 01 1970 00:00:00 GMT+0000 (Coordinated Universal Time)"),
            0.0
        );
        assert!(p("not a date").is_nan());
        assert!(p("").is_nan());
        assert_eq!(p("+275760-09-13T00:00:00Z"), 8.64e15);
        assert!(p("+275760-09-13T00:00:00.001Z").is_nan());
    }

    #[test]
    fn hostile_inputs_end_without_panics() {
        for s in [
            "((((((((",
            "9999999999999999999999",
            "-",
            "+",
            ")",
            "0:0:0:0:0",
            "1.1.1.1.1",
            "GMT+99999999",
            "Jan Jan Jan 1 1 1 1",
            "pm 13:00",
            "\u{FFFF}\u{0}",
            "2020-01-01T",
            "24:00",
            "12:00 am -",
            "T",
            "z",
            "-000000",
        ] {
            let _ = p(s);
        }
        assert!(make_day(1e300, 0.0, 1.0).is_nan());
        assert!(from_fields(&[2020.0, 1e300, 1.0, 0.0, 0.0, 0.0, 0.0]).is_nan());
        assert!(from_fields(&[2020.0, 0.0, 1e300, 0.0, 0.0, 0.0, 0.0]).is_nan());
        assert_eq!(iso(8.64e15), "+275760-09-13T00:00:00.000Z");
        assert_eq!(iso(-8.64e15), "-271821-04-20T00:00:00.000Z");
    }
}
