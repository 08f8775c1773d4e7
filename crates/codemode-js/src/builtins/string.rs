//! `String` and `String.prototype` (the non-RegExp methods).

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("String", string_ctor, 1),
    ("String.fromCharCode", string_from_char_code, 1),
    ("String.fromCodePoint", string_from_code_point, 1),
    ("String.prototype.isWellFormed", string_is_well_formed, 0),
    ("String.prototype.toWellFormed", string_to_well_formed, 0),
    ("String.prototype.normalize", string_normalize, 0),
    (
        "String.prototype.toLocaleUpperCase",
        string_to_locale_upper,
        0,
    ),
    (
        "String.prototype.toLocaleLowerCase",
        string_to_locale_lower,
        0,
    ),
    ("String.prototype.toString", string_value_of, 0),
    ("String.prototype.valueOf", string_value_of, 0),
    ("String.prototype.charAt", string_char_at, 1),
    ("String.prototype.charCodeAt", string_char_code_at, 1),
    ("String.prototype.codePointAt", string_code_point_at, 1),
    ("String.prototype.at", string_at, 1),
    ("String.prototype.indexOf", string_index_of, 1),
    ("String.prototype.lastIndexOf", string_last_index_of, 1),
    ("String.prototype.includes", string_includes, 1),
    ("String.prototype.startsWith", string_starts_with, 1),
    ("String.prototype.endsWith", string_ends_with, 1),
    ("String.prototype.slice", string_slice, 2),
    ("String.prototype.substring", string_substring, 2),
    ("String.prototype.substr", string_substr, 2),
    ("String.prototype.toUpperCase", string_to_upper, 0),
    ("String.prototype.toLowerCase", string_to_lower, 0),
    ("String.prototype.trim", string_trim, 0),
    ("String.prototype.trimStart", string_trim_start, 0),
    ("String.prototype.trimEnd", string_trim_end, 0),
    ("String.prototype.padStart", string_pad_start, 2),
    ("String.prototype.padEnd", string_pad_end, 2),
    ("String.prototype.repeat", string_repeat, 1),
    ("String.prototype.split", string_split, 2),
    ("String.prototype.concat", string_concat, 1),
    ("String.prototype.replaceAll", string_replace_all, 2),
    ("String.prototype.replace", string_replace, 2),
    ("String.prototype.localeCompare", string_locale_compare, 1),
];

pub(super) fn string_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = match args.first() {
        None => vm.heap.new_str(JsStr::from_str(""))?,
        Some(Value::Sym(s)) => {
            let d =
                vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
            vm.heap.new_str(JsStr::from_str(&format!("Symbol({d})")))?
        }
        Some(v) => vm.to_string(*v)?,
    };
    // `new String(x)`: a String object.
    if let Value::Obj(o) = this
        && matches!(vm.heap.obj(o).kind, Kind::Ordinary)
        && vm.heap.obj(o).proto == vm.intr.string_proto
    {
        vm.heap.obj_mut(o).kind = Kind::String(s);
        return Ok(this);
    }
    Ok(Value::Str(s))
}

pub(super) fn string_from_char_code(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut units = Vec::new();
    for a in args {
        let n = vm.to_number(*a)?;
        units.push(crate::vm::to_int32(n) as u16);
    }
    vm.js_str(JsStr::from_units(units))
}

pub(super) fn string_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    match this {
        Value::Str(_) => Ok(this),
        Value::Obj(o) => match vm.heap.obj(o).kind {
            Kind::String(s) => Ok(Value::Str(s)),
            _ => Err(vm.type_error("String.prototype.valueOf requires that 'this' be a String")),
        },
        _ => Err(vm.type_error("String.prototype.valueOf requires that 'this' be a String")),
    }
}

pub(super) fn string_char_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "charAt")?;
    let i = to_integer(vm, arg(args, 0))?;
    if i < 0.0 || i >= s.len() as f64 {
        return vm.str_val("");
    }
    vm.js_str(s.slice(i as usize, i as usize + 1))
}

pub(super) fn string_char_code_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "charCodeAt")?;
    let i = to_integer(vm, arg(args, 0))?;
    if i < 0.0 || i >= s.len() as f64 {
        return Ok(Value::Num(f64::NAN));
    }
    Ok(Value::Num(s.at(i as usize) as f64))
}

pub(super) fn string_code_point_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "codePointAt")?;
    let i = to_integer(vm, arg(args, 0))?;
    if i < 0.0 || i >= s.len() as f64 {
        return Ok(Value::Undefined);
    }
    let i = i as usize;
    let u = s.at(i);
    if (0xd800..0xdc00).contains(&u) && i + 1 < s.len() {
        let l = s.at(i + 1);
        if (0xdc00..0xe000).contains(&l) {
            return Ok(Value::Num(
                (0x10000 + ((u as u32 - 0xd800) << 10) + (l as u32 - 0xdc00)) as f64,
            ));
        }
    }
    Ok(Value::Num(u as f64))
}

pub(super) fn string_at(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "at")?;
    let i = to_integer(vm, arg(args, 0))?;
    let i = if i < 0.0 { s.len() as f64 + i } else { i };
    if i < 0.0 || i >= s.len() as f64 {
        return Ok(Value::Undefined);
    }
    vm.js_str(s.slice(i as usize, i as usize + 1))
}

/// The KMP failure table of `needle`: for each prefix length, the length of its longest
/// proper border.
fn borders(needle: &[u16]) -> Vec<usize> {
    let mut f = vec![0usize; needle.len() + 1];
    let mut k = 0;
    for i in 1..needle.len() {
        while k > 0 && needle[i] != needle[k] {
            k = f[k];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        f[i + 1] = k;
    }
    f
}

/// The first `i` in `order` (positions of `hay`, walked in that order) at which `needle`
/// ends a match: Knuth-Morris-Pratt, linear in the positions walked plus the needle.
fn kmp(hay: &JsStr, needle: &[u16], order: impl Iterator<Item = usize>) -> Option<usize> {
    let f = borders(needle);
    let mut k = 0;
    for i in order {
        let c = hay.at(i);
        while k > 0 && c != needle[k] {
            k = f[k];
        }
        if c == needle[k] {
            k += 1;
        }
        if k == needle.len() {
            return Some(i);
        }
    }
    None
}

/// First index of `needle` in `hay` at or after `from` (linear time).
pub(super) fn find_units(hay: &JsStr, needle: &JsStr, from: usize) -> Option<usize> {
    let (h, n) = (hay.len(), needle.len());
    if n == 0 {
        return (from <= h).then_some(from);
    }
    if n > h || from > h - n {
        return None;
    }
    kmp(hay, &needle.units(), from..h).map(|end| end + 1 - n)
}

/// Last index `<= start` of `needle` in `hay` (linear time: KMP over both reversed).
pub(super) fn rfind_units(hay: &JsStr, needle: &JsStr, start: usize) -> Option<usize> {
    let (h, n) = (hay.len(), needle.len());
    if n > h {
        return None;
    }
    let start = start.min(h - n);
    if n == 0 {
        return Some(start);
    }
    let mut rev = needle.units();
    rev.reverse();
    kmp(hay, &rev, (0..start + n).rev())
}

pub(super) fn string_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "indexOf")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let from = to_integer(vm, arg(args, 1))?.clamp(0.0, s.len() as f64) as usize;
    let at = find_units(&s, &n, from);
    vm.work_check(scanned(at.map_or(s.len(), |i| i + n.len()), from) / 8)?;
    Ok(Value::Num(at.map_or(-1.0, |i| i as f64)))
}

/// Code units a search went over, from `from` to `to` (either way): what it is charged.
fn scanned(to: usize, from: usize) -> usize {
    to.abs_diff(from)
}

pub(super) fn string_last_index_of(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "lastIndexOf")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    // position (ECMA-262 §22.1.3.11): NaN (and absent) means +Infinity.
    let p = vm.to_number(arg(args, 1))?;
    let start = if p.is_nan() {
        s.len()
    } else {
        p.trunc().clamp(0.0, s.len() as f64) as usize
    };
    let at = rfind_units(&s, &n, start);
    vm.work_check(scanned(at.unwrap_or(0), start + n.len()) / 8)?;
    Ok(Value::Num(at.map_or(-1.0, |i| i as f64)))
}

pub(super) fn string_includes(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "includes")?;
    super::regexp::reject_regexp(vm, arg(args, 0), "includes")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let from = to_integer(vm, arg(args, 1))?.clamp(0.0, s.len() as f64) as usize;
    let at = find_units(&s, &n, from);
    vm.work_check(scanned(at.map_or(s.len(), |i| i + n.len()), from) / 8)?;
    Ok(Value::Bool(at.is_some()))
}

pub(super) fn string_starts_with(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "startsWith")?;
    super::regexp::reject_regexp(vm, arg(args, 0), "startsWith")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let from = to_integer(vm, arg(args, 1))?.clamp(0.0, s.len() as f64) as usize;
    Ok(Value::Bool(
        from + n.len() <= s.len() && (0..n.len()).all(|j| s.at(from + j) == n.at(j)),
    ))
}

pub(super) fn string_ends_with(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "endsWith")?;
    super::regexp::reject_regexp(vm, arg(args, 0), "endsWith")?;
    let n = to_str_arg(vm, arg(args, 0))?;
    let end = match arg(args, 1) {
        Value::Undefined => s.len(),
        v => to_integer(vm, v)?.clamp(0.0, s.len() as f64) as usize,
    };
    Ok(Value::Bool(
        n.len() <= end && (0..n.len()).all(|j| s.at(end - n.len() + j) == n.at(j)),
    ))
}

pub(super) fn string_slice(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "slice")?;
    let from = rel_index(vm, arg(args, 0), s.len(), 0)?;
    let to = rel_index(vm, arg(args, 1), s.len(), s.len())?;
    vm.js_str(if from < to {
        s.slice(from, to)
    } else {
        JsStr::from_str("")
    })
}

pub(super) fn string_substring(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "substring")?;
    let a = to_integer(vm, arg(args, 0))?.clamp(0.0, s.len() as f64) as usize;
    let b = match arg(args, 1) {
        Value::Undefined => s.len(),
        v => to_integer(vm, v)?.clamp(0.0, s.len() as f64) as usize,
    };
    vm.js_str(s.slice(a.min(b), a.max(b)))
}

pub(super) fn string_substr(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "substr")?;
    let from = rel_index(vm, arg(args, 0), s.len(), 0)?;
    let n = match arg(args, 1) {
        Value::Undefined => s.len() - from,
        v => to_integer(vm, v)?.clamp(0.0, (s.len() - from) as f64) as usize,
    };
    vm.js_str(s.slice(from, from + n))
}

/// `s` with `f` applied to each well-formed run of code units; lone surrogates stay as they
/// are (case mapping and normalization leave them alone).
fn map_well_formed(s: &JsStr, f: impl Fn(&str) -> String) -> Res<JsStr> {
    let units = s.units();
    let mut out: Vec<u16> = Vec::with_capacity(units.len());
    let mut run_start = 0;
    let mut i = 0;
    let flush = |out: &mut Vec<u16>, run: &[u16]| {
        if !run.is_empty() {
            out.extend(f(&String::from_utf16_lossy(run)).encode_utf16());
        }
    };
    while i < units.len() {
        let u = units[i];
        if (0xd800..=0xdbff).contains(&u)
            && i + 1 < units.len()
            && (0xdc00..=0xdfff).contains(&units[i + 1])
        {
            i += 2;
            continue;
        }
        if (0xd800..=0xdfff).contains(&u) {
            flush(&mut out, &units[run_start..i]);
            out.push(u);
            run_start = i + 1;
        }
        i += 1;
    }
    flush(&mut out, &units[run_start..]);
    Ok(JsStr::from_units(out))
}

fn case_map(vm: &mut Vm, this: Value, method: &str, upper: bool) -> Res<Value> {
    let s = this_str(vm, this, method)?;
    vm.work_check(s.len() / 8)?;
    let mapped = map_well_formed(&s, |t| {
        if upper {
            t.to_uppercase()
        } else {
            t.to_lowercase()
        }
    })?;
    if mapped.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.js_str(mapped)
}

pub(super) fn string_to_upper(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    case_map(vm, this, "toUpperCase", true)
}

pub(super) fn string_to_lower(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    case_map(vm, this, "toLowerCase", false)
}

/// `toLocaleUpperCase`: the root locale's mapping, as `toUpperCase`.
pub(super) fn string_to_locale_upper(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    case_map(vm, this, "toLocaleUpperCase", true)
}

/// `toLocaleLowerCase`: the root locale's mapping, as `toLowerCase`.
pub(super) fn string_to_locale_lower(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    case_map(vm, this, "toLocaleLowerCase", false)
}

/// `String.prototype.normalize(form = "NFC")` (§22.1.3.15); a lone surrogate stays as it is.
pub(super) fn string_normalize(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    use unicode_normalization::UnicodeNormalization;
    let s = this_str(vm, this, "normalize")?;
    let form = match arg(args, 0) {
        Value::Undefined => "NFC".to_string(),
        v => to_str_arg(vm, v)?.to_rust(),
    };
    let f: fn(&str) -> String = match form.as_str() {
        "NFC" => |t| t.nfc().collect(),
        "NFD" => |t| t.nfd().collect(),
        "NFKC" => |t| t.nfkc().collect(),
        "NFKD" => |t| t.nfkd().collect(),
        _ => {
            return Err(
                vm.range_error("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
            );
        }
    };
    vm.work_check(s.len() / 4)?;
    let out = map_well_formed(&s, f)?;
    if out.len() > MAX_STRING_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.js_str(out)
}

/// `true` when the string has no lone surrogate.
fn well_formed(s: &JsStr) -> bool {
    let n = s.len();
    let mut i = 0;
    while i < n {
        let u = s.at(i);
        if (0xd800..=0xdbff).contains(&u) && i + 1 < n && (0xdc00..=0xdfff).contains(&s.at(i + 1)) {
            i += 2;
            continue;
        }
        if (0xd800..=0xdfff).contains(&u) {
            return false;
        }
        i += 1;
    }
    true
}

pub(super) fn string_is_well_formed(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "isWellFormed")?;
    vm.work_check(s.len() / 16)?;
    Ok(Value::Bool(well_formed(&s)))
}

/// `toWellFormed`: each lone surrogate becomes U+FFFD.
pub(super) fn string_to_well_formed(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "toWellFormed")?;
    vm.work_check(s.len() / 16)?;
    if well_formed(&s) {
        return vm.js_str(s);
    }
    let src = s.units();
    let mut fixed = Vec::with_capacity(src.len());
    let mut i = 0;
    while i < src.len() {
        let u = src[i];
        if (0xd800..=0xdbff).contains(&u)
            && i + 1 < src.len()
            && (0xdc00..=0xdfff).contains(&src[i + 1])
        {
            fixed.push(u);
            fixed.push(src[i + 1]);
            i += 2;
            continue;
        }
        fixed.push(if (0xd800..=0xdfff).contains(&u) {
            0xfffd
        } else {
            u
        });
        i += 1;
    }
    vm.js_str(JsStr::from_units(fixed))
}

/// `String.fromCodePoint(...codePoints)`: a RangeError for anything but integers in
/// 0..=0x10FFFF.
pub(super) fn string_from_code_point(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let mut units: Vec<u16> = Vec::with_capacity(args.len());
    for a in args {
        let n = vm.to_number(*a)?;
        if n.fract() != 0.0 || !(0.0..=1_114_111.0).contains(&n) {
            let shown = crate::number::to_string(n);
            return Err(vm.range_error(&format!("Invalid code point {shown}")));
        }
        let c = n as u32;
        if c >= 0x10000 {
            let c = c - 0x10000;
            units.push(0xd800 + (c >> 10) as u16);
            units.push(0xdc00 + (c & 0x3ff) as u16);
        } else {
            units.push(c as u16);
        }
    }
    vm.js_str(JsStr::from_units(units))
}

pub(super) fn is_space_unit(u: u16) -> bool {
    char::from_u32(u as u32).is_some_and(crate::number::is_js_space)
}

pub(super) fn trim_units(s: &JsStr, start: bool, end: bool) -> JsStr {
    let mut a = 0;
    let mut b = s.len();
    if start {
        while a < b && is_space_unit(s.at(a)) {
            a += 1;
        }
    }
    if end {
        while b > a && is_space_unit(s.at(b - 1)) {
            b -= 1;
        }
    }
    s.slice(a, b)
}

pub(super) fn string_trim(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "trim")?;
    vm.js_str(trim_units(&s, true, true))
}
pub(super) fn string_trim_start(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "trimStart")?;
    vm.js_str(trim_units(&s, true, false))
}
pub(super) fn string_trim_end(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "trimEnd")?;
    vm.js_str(trim_units(&s, false, true))
}

pub(super) fn pad(vm: &mut Vm, this: Value, args: &[Value], start: bool) -> Res<Value> {
    let s = this_str(vm, this, if start { "padStart" } else { "padEnd" })?;
    let target = to_integer(vm, arg(args, 0))?;
    let fill = match arg(args, 1) {
        Value::Undefined => JsStr::from_str(" "),
        v => to_str_arg(vm, v)?,
    };
    if target <= s.len() as f64 || fill.is_empty() {
        return vm.js_str(s);
    }
    if target > MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    let need = target as usize - s.len();
    let f = fill.units();
    let padding: Vec<u16> = f.iter().copied().cycle().take(need).collect();
    vm.work_check(need / 8)?;
    let mut units = Vec::with_capacity(target as usize);
    if start {
        units.extend(padding);
        units.extend(s.units());
    } else {
        units.extend(s.units());
        units.extend(padding);
    }
    vm.js_str(JsStr::from_units(units))
}

pub(super) fn string_pad_start(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    pad(vm, this, args, true)
}
pub(super) fn string_pad_end(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    pad(vm, this, args, false)
}

pub(super) fn string_repeat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "repeat")?;
    let n = to_integer(vm, arg(args, 0))?;
    if n < 0.0 || n.is_infinite() {
        return Err(vm.range_error(&format!(
            "Invalid count value: {}",
            crate::number::to_string(n)
        )));
    }
    if s.len() as f64 * n > MAX_STRING_LENGTH as f64 {
        return Err(vm.range_error("Invalid string length"));
    }
    if s.is_empty() {
        // Nothing to repeat: no loop over a count of up to 2^31.
        return vm.str_val("");
    }
    vm.work_check(s.len() * n as usize / 8)?;
    vm.js_str(s.repeat(n as usize))
}

pub(super) fn string_split(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let s = this_str(vm, this, "split")?;
    let limit = match arg(args, 1) {
        Value::Undefined => u32::MAX as usize,
        v => super::math::to_uint32(vm.to_number(v)?) as usize,
    };
    // §22.1.3.23 step 6: the separator is converted before a limit of 0 returns.
    let sep = match arg(args, 0) {
        Value::Undefined => None,
        v => Some(to_str_arg(vm, v)?),
    };
    // Each piece becomes a heap string as it is cut, so the memory limit stops a split into
    // millions of pieces before they are all made.
    let mut out = Vec::new();
    if limit == 0 {
        return vm.new_array(out);
    }
    match sep {
        None => out.push(vm.js_str(s.clone())?),
        Some(sep) => {
            if sep.is_empty() {
                for i in 0..s.len().min(limit) {
                    out.push(vm.js_str(s.slice(i, i + 1))?);
                }
            } else {
                let mut from = 0;
                while let Some(i) = find_units(&s, &sep, from) {
                    out.push(vm.js_str(s.slice(from, i))?);
                    from = i + sep.len();
                    if out.len() >= limit {
                        break;
                    }
                }
                if out.len() < limit {
                    out.push(vm.js_str(s.slice(from, s.len()))?);
                }
            }
        }
    }
    vm.work_check(s.len() / 8 + out.len())?;
    vm.new_array(out)
}

pub(super) fn string_concat(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let mut s = this_str(vm, this, "concat")?;
    for a in args {
        let t = to_str_arg(vm, *a)?;
        s = s.concat(&t);
        if s.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    vm.js_str(s)
}

pub(super) fn replace_impl(vm: &mut Vm, this: Value, args: &[Value], all: bool) -> Res<Value> {
    let s = this_str(vm, this, if all { "replaceAll" } else { "replace" })?;
    let pat = to_str_arg(vm, arg(args, 0))?;
    // A replacement function is handled by `prelude/string.js`, which calls this otherwise.
    let rep = to_str_arg(vm, arg(args, 1))?;
    let mut out: Vec<u16> = Vec::new();
    let mut from = 0;
    while let Some(i) = find_units(&s, &pat, from) {
        out.extend((from..i).map(|k| s.at(k)));
        // `$&` and `$$` patterns.
        let r = rep.units();
        let mut k = 0;
        while k < r.len() {
            if r[k] == b'$' as u16 && k + 1 < r.len() {
                match r[k + 1] {
                    x if x == b'$' as u16 => {
                        out.push(b'$' as u16);
                        k += 2;
                        continue;
                    }
                    x if x == b'&' as u16 => {
                        out.extend(pat.units());
                        k += 2;
                        continue;
                    }
                    x if x == b'`' as u16 => {
                        out.extend((0..i).map(|j| s.at(j)));
                        k += 2;
                        continue;
                    }
                    x if x == b'\'' as u16 => {
                        out.extend((i + pat.len()..s.len()).map(|j| s.at(j)));
                        k += 2;
                        continue;
                    }
                    _ => {}
                }
            }
            out.push(r[k]);
            k += 1;
        }
        from = i + pat.len();
        if pat.is_empty() {
            if i < s.len() {
                out.push(s.at(i));
            }
            from = i + 1;
        }
        if !all || from > s.len() {
            break;
        }
        if out.len() > MAX_STRING_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
    }
    if from <= s.len() {
        out.extend((from..s.len()).map(|k| s.at(k)));
    }
    vm.work_check(out.len() / 8)?;
    vm.js_str(JsStr::from_units(out))
}

pub(super) fn string_replace(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    replace_impl(vm, this, args, false)
}
pub(super) fn string_replace_all(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    replace_impl(vm, this, args, true)
}

pub(super) fn string_locale_compare(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let a = this_str(vm, this, "localeCompare")?;
    let b = to_str_arg(vm, arg(args, 0))?;
    // Up to four passes over both strings' units, nothing allocated per character.
    vm.work_check(a.len() + b.len())?;
    Ok(Value::Num(match super::collate::compare(&a, &b) {
        std::cmp::Ordering::Less => -1.0,
        std::cmp::Ordering::Equal => 0.0,
        std::cmp::Ordering::Greater => 1.0,
    }))
}
