//! `RegExp`: the constructor, literals, the flag and `source` getters, and the hidden
//! natives `prelude/regexp.js` builds the spec algorithms on: `regexpMatch` (one search,
//! resumable across fuel slices), `regexpFlags` (the brand check), `regexpCreate` and
//! `getSubstitution`.

use std::sync::Arc;

use super::*;
use crate::limits::{MAX_REGEX_BACKTRACK, MAX_REGEX_CACHE, MAX_REPLACEMENT_LENGTH};
use crate::regexp::exec::{ENTRY_BYTES, UNSET};
use crate::regexp::{Exec, Flags, Outcome, Regex};

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("RegExp", regexp_ctor, 2),
    ("RegExp.prototype.source", regexp_source, 0),
    ("RegExp.prototype.global", regexp_global, 0),
    ("RegExp.prototype.ignoreCase", regexp_ignore_case, 0),
    ("RegExp.prototype.multiline", regexp_multiline, 0),
    ("RegExp.prototype.dotAll", regexp_dot_all, 0),
    ("RegExp.prototype.unicode", regexp_unicode, 0),
    ("RegExp.prototype.unicodeSets", regexp_unicode_sets, 0),
    ("RegExp.prototype.sticky", regexp_sticky, 0),
    ("RegExp.prototype.hasIndices", regexp_has_indices, 0),
    ("%Intrinsics%.regexpMatch", regexp_match, 3),
    ("%Intrinsics%.regexpExecFast", regexp_exec_fast, 3),
    ("%Intrinsics%.regexpFlags", regexp_flags_of, 1),
    ("%Intrinsics%.regexpCreate", regexp_create, 3),
    ("%Intrinsics%.getSubstitution", get_substitution, 6),
    ("%Intrinsics%.regexpReplaceAll", regexp_replace_all, 4),
    ("%Intrinsics%.regexpMatchGlobal", regexp_match_global, 4),
];

/// The getters among the natives above.
const GETTERS: &[&str] = &[
    "source",
    "global",
    "ignoreCase",
    "multiline",
    "dotAll",
    "unicode",
    "unicodeSets",
    "sticky",
    "hasIndices",
];

/// Per-run RegExp state: the compiled-pattern cache, the match a fuel slice interrupted,
/// the well-known symbols of the RegExp protocol.
#[derive(Clone, Debug, Default)]
pub struct State {
    pub ctor: Option<ObjId>,
    cache: Vec<(Vec<u16>, Flags, Arc<Regex>)>,
    suspended: Option<Box<Suspended>>,
    replacing: Option<Box<Replacing>>,
    /// A `regexpMatchGlobal` a fuel slice stopped: its RegExp, subject, result array and
    /// where its next search starts.
    matching: Option<(ObjId, crate::value::StrId, ObjId, usize)>,
    pub sym_match: Option<SymId>,
    pub sym_match_all: Option<SymId>,
    pub sym_replace: Option<SymId>,
    pub sym_search: Option<SymId>,
    pub sym_split: Option<SymId>,
    pub sym_species: Option<SymId>,
}

/// A `regexpMatchGlobal` a fuel slice stopped (`State::matching`), as a snapshot keeps it:
/// its RegExp, subject, result array (holding the matches so far) and next start. The other
/// interrupted work (a search, a replacement) starts again from nothing, which gives the same
/// result; this one's array already holds matches, so it must go on where it stopped.
pub type Matching = (ObjId, crate::value::StrId, ObjId, usize);

impl State {
    /// The `regexpMatchGlobal` a fuel slice stopped, if any.
    pub fn matching(&self) -> Option<Matching> {
        self.matching
    }

    /// Set what [`State::matching`] gives (a restored snapshot's).
    pub fn set_matching(&mut self, m: Option<Matching>) {
        self.matching = m;
    }
}

/// A search a fuel slice stopped: the call it belongs to and its state.
#[derive(Clone, Debug)]
struct Suspended {
    obj: ObjId,
    subject: crate::value::StrId,
    len: usize,
    last_index: usize,
    exec: Exec,
    /// Bytes of the backtrack stack charged to the heap.
    charged: usize,
}

/// The progress of a `regexpReplaceAll` a fuel slice stopped (its search, if one was under
/// way, is in [`State::suspended`]): the call it belongs to and what it has written.
#[derive(Clone, Debug)]
struct Replacing {
    obj: ObjId,
    subject: crate::value::StrId,
    template: crate::value::StrId,
    out: Vec<u16>,
    /// Where the unreplaced rest of the subject starts.
    next_source: usize,
    /// Where the next search starts (`lastIndex`).
    last: usize,
    /// Bytes of `out` charged to the heap while it waits.
    charged: usize,
}

/// A compiled pattern shared by RegExp objects (compared by identity).
#[derive(Clone, Debug)]
pub struct Shared(pub Arc<Regex>);

impl PartialEq for Shared {
    fn eq(&self, other: &Shared) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

/// Finish `RegExp` after the generic setup: its flag getters as accessors, and the
/// protocol's well-known symbols (`Symbol.match` ...).
pub fn setup(vm: &mut Vm) -> Res<()> {
    let Some(proto) = vm.intr.regexp_proto else {
        return Ok(());
    };
    let key = vm.heap.key("RegExp");
    if let Some(crate::heap::Prop {
        slot: Slot::Data(Value::Obj(ctor)),
        ..
    }) = vm.own(vm.global, key)
    {
        vm.regexp.ctor = Some(ctor);
    }
    for name in GETTERS {
        let k = vm.heap.key(name);
        if let Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(f)),
            ..
        }) = vm.own(proto, k)
        {
            let n = vm.str_val(&format!("get {name}"))?;
            let nk = vm.heap.key("name");
            vm.define(f, nk, Slot::Data(n), CONFIGURABLE)?;
            vm.define(
                proto,
                k,
                Slot::Accessor(Value::Obj(f), Value::Undefined),
                CONFIGURABLE,
            )?;
        }
    }
    let symbol_ctor = vm.heap.key("Symbol");
    let sc = match vm.own(vm.global, symbol_ctor) {
        Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(s)),
            ..
        }) => Some(s),
        _ => None,
    };
    for name in ["match", "matchAll", "replace", "search", "split", "species"] {
        let d = vm
            .heap
            .new_str(JsStr::from_str(&format!("Symbol.{name}")))?;
        let s = vm.heap.new_symbol(Some(d))?;
        let r = &mut vm.regexp;
        match name {
            "match" => r.sym_match = Some(s),
            "matchAll" => r.sym_match_all = Some(s),
            "replace" => r.sym_replace = Some(s),
            "search" => r.sym_search = Some(s),
            "split" => r.sym_split = Some(s),
            _ => r.sym_species = Some(s),
        }
        if let Some(sc) = sc {
            let k = vm.heap.key(name);
            vm.define(sc, k, Slot::Data(Value::Sym(s)), 0)?;
        }
    }
    Ok(())
}

/// The compiled pattern of a RegExp object.
fn regex_of(vm: &Vm, v: Value) -> Option<Arc<Regex>> {
    match v {
        Value::Obj(o) => match &vm.heap.obj(o).kind {
            Kind::RegExp(s) => Some(s.0.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Compile (or find in the cache) `pattern` with `flags`; a SyntaxError naming the pattern
/// and the position otherwise.
fn compiled(vm: &mut Vm, pattern: &[u16], flags: &[u16]) -> Res<Arc<Regex>> {
    // A long pattern is shown by its ends, so the reason after it survives the diagnostic's
    // size cut.
    let shown = |p: &[u16], f: &[u16]| {
        let f = String::from_utf16_lossy(f);
        if p.len() <= SHOWN_PATTERN_UNITS {
            return format!("/{}/{f}", String::from_utf16_lossy(p));
        }
        let head = String::from_utf16_lossy(&p[..SHOWN_PATTERN_UNITS / 2]);
        let tail = String::from_utf16_lossy(&p[p.len() - SHOWN_PATTERN_UNITS / 4..]);
        format!("/{head}…{tail}/{f} ({} characters)", p.len())
    };
    let Some(fl) = Flags::parse(flags) else {
        let msg = format!(
            "Invalid flags supplied to RegExp constructor '{}': use only d, g, i, m, s, u, v, y, each once (u and v not together)",
            String::from_utf16_lossy(flags)
        );
        return Err(vm.err_syntax(&msg));
    };
    // Most recently used last: a literal in a loop finds its pattern at once.
    let cache = &mut vm.regexp.cache;
    if let Some(i) = cache.iter().rposition(|(p, f, _)| *f == fl && p == pattern) {
        if i + 1 != cache.len() {
            let hit = cache.remove(i);
            cache.push(hit);
        }
        return Ok(cache[cache.len() - 1].2.clone());
    }
    vm.work(pattern.len() + 16);
    match crate::regexp::compile(pattern, fl) {
        Ok(re) => {
            vm.heap.charge(re.bytes)?;
            vm.work(re.insts.len() / 4);
            let re = Arc::new(re);
            if vm.regexp.cache.len() >= MAX_REGEX_CACHE {
                vm.regexp.cache.remove(0);
            }
            vm.regexp.cache.push((pattern.to_vec(), fl, re.clone()));
            Ok(re)
        }
        Err(e) => {
            let at = match e.offset {
                Some(o) => format!(" at position {o}"),
                None => String::new(),
            };
            let reason = e
                .message
                .strip_prefix("Invalid regular expression: ")
                .unwrap_or(&e.message);
            let reason = match e.offset {
                Some(o)
                    if (reason.contains("escape")
                        || reason.contains("Unterminated capturing group name"))
                        && in_group_name(pattern, o) =>
                {
                    "Invalid capture group name: a name is letters, digits, `_` and `$`, closed by `>` (write (?<name>...))"
                }
                _ => reason,
            };
            let msg = format!(
                "Invalid regular expression: {}: {reason}{at}",
                shown(pattern, flags),
            );
            Err(vm.err_syntax(&msg))
        }
    }
}

/// Units of a pattern a SyntaxError shows whole; a longer one is shown by its ends.
const SHOWN_PATTERN_UNITS: usize = 200;

/// Whether `offset` falls inside a group name (`(?<name` not yet closed by `>`), where the
/// parser reports a `\` or a stray character as an escape error.
fn in_group_name(pattern: &[u16], offset: usize) -> bool {
    let mut i = (offset + 1).min(pattern.len());
    while i > 0 {
        i -= 1;
        match pattern[i] {
            0x3e /* > */ => return false,
            0x3c /* < */ => {
                return i >= 2 && pattern[i - 1] == 0x3f && pattern[i - 2] == 0x28
                    && !(i + 1 < pattern.len() && matches!(pattern[i + 1], 0x3d | 0x21));
            }
            0x28 | 0x29 | 0x5b | 0x5d => return false,
            _ => {}
        }
    }
    false
}

/// The bytes of the compiled patterns a run holds, each counted once however many RegExp
/// objects share it: those of `live` objects' patterns and of the compile cache (what the
/// collector recounts; [`compiled`] charged each when it was made), and what a search or a
/// global replace stopped by a fuel slice holds.
pub fn held_bytes<'a>(vm: &'a Vm, live: impl Iterator<Item = &'a Arc<Regex>>) -> usize {
    let mut seen = std::collections::HashSet::new();
    let patterns: usize = live
        .chain(vm.regexp.cache.iter().map(|(_, _, re)| re))
        .filter(|re| seen.insert(Arc::as_ptr(re) as usize))
        .map(|re| re.bytes)
        .sum();
    // A search or a global replace a slice stopped keeps its charge until it continues.
    patterns
        + vm.regexp.suspended.as_ref().map_or(0, |s| s.charged)
        + vm.regexp.replacing.as_ref().map_or(0, |r| r.charged)
}

/// Give `o` the pattern and `lastIndex = 0`.
fn initialize(vm: &mut Vm, o: ObjId, re: Arc<Regex>) -> Res<()> {
    vm.heap.obj_mut(o).kind = Kind::RegExp(Shared(re));
    let k = vm.heap.key("lastIndex");
    vm.define(o, k, Slot::Data(Value::Num(0.0)), WRITABLE)
}

/// A regular-expression literal's evaluation: a new RegExp object.
pub fn literal(vm: &mut Vm, pattern: &JsStr, flags: &JsStr) -> Res<Value> {
    let re = compiled(vm, &pattern.units(), &flags.units())?;
    let o = vm.heap.new_obj(vm.intr.regexp_proto, Kind::Ordinary)?;
    initialize(vm, o, re)?;
    Ok(Value::Obj(o))
}

/// IsRegExp (§7.2.8).
fn is_regexp(vm: &mut Vm, v: Value) -> Res<bool> {
    if !matches!(v, Value::Obj(_)) {
        return Ok(false);
    }
    if let Some(s) = vm.regexp.sym_match {
        let m = vm.get_value(v, Key::Sym(s))?;
        if m != Value::Undefined {
            return Ok(vm.truthy(m));
        }
    }
    Ok(regex_of(vm, v).is_some())
}

/// The TypeError of `includes`/`startsWith`/`endsWith` for a RegExp argument (§22.1.3.7).
pub(super) fn reject_regexp(vm: &mut Vm, v: Value, method: &str) -> Res<()> {
    if is_regexp(vm, v)? {
        return Err(vm.type_error(&format!(
            "First argument to String.prototype.{method} must not be a regular expression"
        )));
    }
    Ok(())
}

fn units_of(vm: &mut Vm, v: Value) -> Res<Vec<u16>> {
    if v == Value::Undefined {
        return Ok(Vec::new());
    }
    let s = vm.to_string(v)?;
    Ok(vm.heap.str(s).units())
}

/// `RegExp(pattern, flags)` and `new RegExp(pattern, flags)` (§22.2.4.1).
fn regexp_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let (pattern, flags) = (arg(args, 0), arg(args, 1));
    let construct = vm.native_construct;
    let pattern_is_regexp = is_regexp(vm, pattern)?;
    if construct.is_none() && pattern_is_regexp && flags == Value::Undefined {
        let c = vm.get_simple(pattern, "constructor")?;
        if let (Value::Obj(c), Some(me)) = (c, vm.regexp.ctor)
            && c == me
        {
            return Ok(pattern);
        }
    }
    let (p, f) = if let Some(re) = regex_of(vm, pattern) {
        let f = if flags == Value::Undefined {
            re.flags.text().encode_utf16().collect()
        } else {
            units_of(vm, flags)?
        };
        (re.source.clone(), f)
    } else if pattern_is_regexp {
        let src = vm.get_simple(pattern, "source")?;
        let f = if flags == Value::Undefined {
            vm.get_simple(pattern, "flags")?
        } else {
            flags
        };
        (units_of(vm, src)?, units_of(vm, f)?)
    } else {
        (units_of(vm, pattern)?, units_of(vm, flags)?)
    };
    let re = compiled(vm, &p, &f)?;
    let o = match (construct, this) {
        (Some(_), Value::Obj(o)) => o,
        _ => vm.heap.new_obj(vm.intr.regexp_proto, Kind::Ordinary)?,
    };
    initialize(vm, o, re)?;
    Ok(Value::Obj(o))
}

/// `regexpCreate(P, F)`: RegExpCreate (§22.2.3.1) for the String methods;
/// `regexpCreate(R, F, true)`: a RegExp of R's source with flags F (no user code runs).
fn regexp_create(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let p = match (arg(args, 2), regex_of(vm, arg(args, 0))) {
        (Value::Bool(true), Some(re)) => re.source.clone(),
        _ => units_of(vm, arg(args, 0))?,
    };
    let f = units_of(vm, arg(args, 1))?;
    let re = compiled(vm, &p, &f)?;
    let o = vm.heap.new_obj(vm.intr.regexp_proto, Kind::Ordinary)?;
    initialize(vm, o, re)?;
    Ok(Value::Obj(o))
}

/// `regexpFlags(R)`: R's original flags string, or `undefined` when R is no RegExp.
fn regexp_flags_of(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    match regex_of(vm, arg(args, 0)) {
        Some(re) => vm.str_val(&re.flags.text()),
        None => Ok(Value::Undefined),
    }
}

/// How node's `util.inspect` shows a RegExp object: `/source/flags`, the source escaped as
/// `RegExp.prototype.source` gives it.
pub(super) fn inspect_form(r: &Shared) -> String {
    let src = escape_source(&r.0.source);
    format!("/{}/{}", String::from_utf16_lossy(&src), r.0.flags.text())
}

/// EscapeRegExpPattern (§22.2.6.13.1): `/` and line terminators escaped, `(?:)` for empty.
pub(super) fn escape_source(src: &[u16]) -> Vec<u16> {
    if src.is_empty() {
        return "(?:)".encode_utf16().collect();
    }
    let mut out = Vec::with_capacity(src.len());
    let mut class = false;
    let mut i = 0;
    while i < src.len() {
        let c = src[i];
        match c {
            0x5C => {
                out.push(c);
                if i + 1 < src.len() {
                    let n = src[i + 1];
                    match n {
                        0x0A => out.extend("n".encode_utf16()),
                        0x0D => out.extend("r".encode_utf16()),
                        0x2028 => out.extend("u2028".encode_utf16()),
                        0x2029 => out.extend("u2029".encode_utf16()),
                        _ => out.push(n),
                    }
                    i += 1;
                }
            }
            0x2F if !class => out.extend("\\/".encode_utf16()),
            0x0A => out.extend("\\n".encode_utf16()),
            0x0D => out.extend("\\r".encode_utf16()),
            0x2028 => out.extend("\\u2028".encode_utf16()),
            0x2029 => out.extend("\\u2029".encode_utf16()),
            _ => {
                if c == 0x5B {
                    class = true;
                } else if c == 0x5D {
                    class = false;
                }
                out.push(c);
            }
        }
        i += 1;
    }
    out
}

fn regexp_source(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    if let Some(re) = regex_of(vm, this) {
        return vm.js_str(JsStr::from_units(escape_source(&re.source)));
    }
    if matches!(this, Value::Obj(o) if Some(o) == vm.intr.regexp_proto) {
        return vm.str_val("(?:)");
    }
    Err(vm
        .type_error("RegExp.prototype.source getter called on a value that is not a RegExp object"))
}

fn flag_getter(vm: &mut Vm, this: Value, name: &str, get: fn(Flags) -> bool) -> Res<Value> {
    if let Some(re) = regex_of(vm, this) {
        return Ok(Value::Bool(get(re.flags)));
    }
    if matches!(this, Value::Obj(o) if Some(o) == vm.intr.regexp_proto) {
        return Ok(Value::Undefined);
    }
    Err(vm.type_error(&format!(
        "RegExp.prototype.{name} getter called on a value that is not a RegExp object"
    )))
}

fn regexp_global(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "global", |f| f.global)
}
fn regexp_ignore_case(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "ignoreCase", |f| f.ignore_case)
}
fn regexp_multiline(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "multiline", |f| f.multiline)
}
fn regexp_dot_all(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "dotAll", |f| f.dot_all)
}
fn regexp_unicode(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "unicode", |f| f.unicode)
}
fn regexp_unicode_sets(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "unicodeSets", |f| f.unicode_sets)
}
fn regexp_sticky(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "sticky", |f| f.sticky)
}
fn regexp_has_indices(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    flag_getter(vm, this, "hasIndices", |f| f.has_indices)
}

/// Fuel a search may use in a slice even when the slice is nearly spent (so every slice
/// makes progress).
const MIN_SEARCH_FUEL: i64 = 256;

/// `regexpMatch(R, S, lastIndex)`: the matcher of RegExpBuiltinExec (§22.2.7.2) from
/// `lastIndex` (sticky: only there), giving the match array (`index`, `input`, `groups`,
/// `indices` with `d`) or `null`. No user code runs; out of fuel it returns
/// [`Throw::Suspend`] and the call, made again in the next slice, continues the search.
fn regexp_match(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (rv, sv) = (arg(args, 0), arg(args, 1));
    let (Some(re), Value::Obj(obj), Value::Str(sid)) = (regex_of(vm, rv), rv, sv) else {
        return Err(vm.type_error("regexpMatch: not a RegExp and a string"));
    };
    let last = match arg(args, 2) {
        Value::Num(n) if n >= 0.0 => n as usize,
        _ => 0,
    };
    match search(vm, &re, obj, sid, last)? {
        Some(caps) => match_array(vm, &re, sid, &caps),
        None => Ok(Value::Null),
    }
}

/// `regexpExecFast(R, S, test)`: RegExpBuiltinExec (§22.2.7.2) in one native call when `R`
/// is a RegExp whose `lastIndex` holds a Number (reading it then runs no code): the match
/// array or `null` (`test`: `true`/`false`, with no match array built), `lastIndex` updated
/// as the spec does for `g`/`y`. `undefined` otherwise: the caller takes prelude.js's steps,
/// which convert `lastIndex` and throw what the spec throws.
fn regexp_exec_fast(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (rv, sv) = (arg(args, 0), arg(args, 1));
    let (Some(re), Value::Obj(obj), Value::Str(sid)) = (regex_of(vm, rv), rv, sv) else {
        return Ok(Value::Undefined);
    };
    let test = arg(args, 2) == Value::Bool(true);
    let key = vm.heap.key("lastIndex");
    let Value::Num(n) = vm.get_value(rv, key)? else {
        return Ok(Value::Undefined);
    };
    let moves = re.flags.global || re.flags.sticky;
    // ToLength (§7.1.20) of a Number: NaN and negatives are 0.
    let last = if moves && n > 0.0 {
        n.min(9007199254740991.0) as usize
    } else {
        0
    };
    let len = vm.heap.str(sid).len();
    let caps = if last > len {
        None
    } else {
        search(vm, &re, obj, sid, last)?
    };
    let Some(caps) = caps else {
        if moves {
            vm.set_value(rv, key, Value::Num(0.0))?;
        }
        return Ok(if test {
            Value::Bool(false)
        } else {
            Value::Null
        });
    };
    if moves {
        vm.set_value(rv, key, Value::Num(caps[1] as f64))?;
    }
    if test {
        return Ok(Value::Bool(true));
    }
    match_array(vm, &re, sid, &caps)
}

/// One search of `re` (the pattern of RegExp `obj`) in string `sid` from `last` (sticky: only
/// there): the captures (`2·ncaps` units offsets, [`UNSET`] for a group that did not take
/// part) or `None`. Out of fuel it keeps the search in [`State::suspended`] and returns
/// [`Throw::Suspend`]; the same call in the next slice continues it.
fn search(
    vm: &mut Vm,
    re: &Arc<Regex>,
    obj: ObjId,
    sid: crate::value::StrId,
    last: usize,
) -> Res<Option<Vec<u32>>> {
    let len = vm.heap.str(sid).len();
    // With `u`/`v` the input is code points: a lastIndex inside a pair starts at the pair.
    let start = {
        let s = vm.heap.str(sid);
        let inside = last > 0
            && last < len
            && (0xDC00..=0xDFFF).contains(&s.at(last))
            && (0xD800..=0xDBFF).contains(&s.at(last - 1));
        if re.flags.full_unicode() && inside {
            last - 1
        } else {
            last
        }
    };
    let (mut exec, charged) = match vm.regexp.suspended.take() {
        Some(s) if s.obj == obj && s.subject == sid && s.len == len && s.last_index == last => {
            (s.exec, s.charged)
        }
        Some(s) => {
            vm.heap.used = vm.heap.used.saturating_sub(s.charged);
            (Exec::new(re, start), 0)
        }
        None => (Exec::new(re, start), 0),
    };
    let room = vm.heap.cap.saturating_sub(vm.heap.used) + charged;
    let max_entries = MAX_REGEX_BACKTRACK.min(room / ENTRY_BYTES);
    // A search always gets some fuel; what it spends is charged, debt included.
    let given = vm.fuel.max(MIN_SEARCH_FUEL);
    let mut fuel = given;
    let outcome = {
        let s = &vm.heap.strings[sid.0 as usize];
        match s.view() {
            crate::string::View::Narrow(b) => {
                crate::regexp::exec::run(re, b, &mut exec, &mut fuel, max_entries)
            }
            crate::string::View::Wide(w) => {
                crate::regexp::exec::run(re, w, &mut exec, &mut fuel, max_entries)
            }
        }
    };
    vm.fuel -= given - fuel;
    vm.heap.used = vm.heap.used.saturating_sub(charged);
    match outcome {
        Outcome::OutOfFuel => {
            let bytes = exec.stack_bytes();
            vm.heap.charge(bytes)?;
            vm.regexp.suspended = Some(Box::new(Suspended {
                obj,
                subject: sid,
                len,
                last_index: last,
                exec,
                charged: bytes,
            }));
            Err(Throw::Suspend)
        }
        Outcome::StackLimit => {
            if max_entries < MAX_REGEX_BACKTRACK {
                return Err(Throw::from(crate::heap::OutOfMemory { cap: vm.heap.cap }));
            }
            Err(vm.range_error(&format!(
                "Maximum call stack size exceeded: the regular expression needs more than {MAX_REGEX_BACKTRACK} backtracking entries; simplify the pattern or match smaller pieces"
            )))
        }
        Outcome::NoMatch => Ok(None),
        Outcome::Match => {
            exec.drop_stack();
            Ok(Some(exec.caps))
        }
    }
}

/// `regexpReplaceAll(R, S, template, fullUnicode)`: RegExp.prototype\[Symbol.replace\] (§22.2.6.11) for a
/// global `R` whose `exec` is the builtin one and a string replacement (prelude.js checks
/// both and has set `lastIndex` to 0; no user code can run between the searches then): every
/// match replaced by GetSubstitution of `template`, with no match arrays built. `lastIndex`
/// is 0 after, as the last, failing RegExpBuiltinExec leaves it. `fullUnicode`: whether the
/// `flags` property has `u` or `v` (an empty match then advances by code points). Out of fuel (in a search, or
/// between matches) it keeps its progress and returns [`Throw::Suspend`]; the same call in
/// the next slice continues.
fn regexp_replace_all(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (rv, sv, tv) = (arg(args, 0), arg(args, 1), arg(args, 2));
    let (Some(re), Value::Obj(obj), Value::Str(sid), Value::Str(tid)) =
        (regex_of(vm, rv), rv, sv, tv)
    else {
        return Err(vm.type_error("regexpReplaceAll: not a RegExp and two strings"));
    };
    let full_unicode = arg(args, 3) == Value::Bool(true);
    let subject = vm.heap.str(sid).clone();
    let template = vm.heap.str(tid).units();
    let len = subject.len();
    let mut st = match vm.regexp.replacing.take() {
        Some(r) if r.obj == obj && r.subject == sid && r.template == tid => {
            vm.heap.used = vm.heap.used.saturating_sub(r.charged);
            *r
        }
        other => {
            if let Some(r) = other {
                vm.heap.used = vm.heap.used.saturating_sub(r.charged);
            }
            Replacing {
                obj,
                subject: sid,
                template: tid,
                out: Vec::new(),
                next_source: 0,
                last: 0,
                charged: 0,
            }
        }
    };
    let names = (!re.names.is_empty()).then_some(&re.names);
    let mut found = false;
    while st.last <= len {
        // The slice's fuel is spent (a search starts with some fuel of its own, so this is
        // checked before it): let the slice end, and continue in the next one.
        if found && vm.fuel <= 0 {
            return Err(keep_replacing(vm, st));
        }
        found = true;
        let caps = match search(vm, &re, obj, sid, st.last) {
            Ok(Some(caps)) => caps,
            Ok(None) => break,
            Err(Throw::Suspend) => return Err(keep_replacing(vm, st)),
            Err(e) => return Err(e),
        };
        let (position, end) = (caps[0] as usize, caps[1] as usize);
        if position >= st.next_source {
            push_units(&mut st.out, &subject, st.next_source, position);
            let matched = subject.slice(position, end);
            let mut capture = |_: &mut Vm, i: usize, out: &mut Vec<u16>| {
                let (a, b) = (caps[2 * i], caps[2 * i + 1]);
                if a != UNSET && b != UNSET {
                    push_units(out, &subject, a as usize, b as usize);
                }
                Ok(())
            };
            let mut named = |_: &mut Vm, name: &[u16], out: &mut Vec<u16>| {
                let group = names.and_then(|n| {
                    n.iter()
                        .find(|(k, _)| k.encode_utf16().eq(name.iter().copied()))
                });
                if let Some((_, groups)) = group
                    && let Some(g) = groups
                        .iter()
                        .map(|g| *g as usize)
                        .find(|g| caps[2 * g] != UNSET && caps[2 * g + 1] != UNSET)
                {
                    push_units(
                        out,
                        &subject,
                        caps[2 * g] as usize,
                        caps[2 * g + 1] as usize,
                    );
                }
                Ok(())
            };
            let named: Option<&mut NamedFn<'_>> = match names {
                Some(_) => Some(&mut named),
                None => None,
            };
            let before = st.out.len();
            expand_template(
                vm,
                &mut st.out,
                &template,
                &matched,
                &subject,
                position,
                re.ncaps.saturating_sub(1),
                &mut capture,
                named,
            )?;
            st.next_source = end;
            vm.work_check(st.out.len() - before + 1)?;
            if st.out.len() > MAX_REPLACEMENT_LENGTH {
                return Err(vm.range_error("Invalid string length"));
            }
            vm.heap.fits(st.out.capacity() * 2)?;
        }
        st.last = if end == position {
            advance(&subject, end, full_unicode)
        } else {
            end
        };
    }
    push_units(&mut st.out, &subject, st.next_source.min(len), len);
    if st.out.len() > MAX_REPLACEMENT_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    let k = vm.heap.key("lastIndex");
    vm.set_value(rv, k, Value::Num(0.0))?;
    vm.js_str(JsStr::from_units(st.out))
}

/// `regexpMatchGlobal(R, S, fullUnicode, A)`: RegExp.prototype\[Symbol.match\] (§22.2.6.8)
/// for a global `R` whose `exec` is the builtin one (prelude.js checks it and has set
/// `lastIndex` to 0; no user code can run between the searches then): every matched string
/// appended to the fresh array `A`, with no match arrays built; `A`, or `null` when nothing
/// matched. `lastIndex` is 0 after. Out of fuel it keeps its place and returns
/// [`Throw::Suspend`]; the same call in the next slice continues.
fn regexp_match_global(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let (rv, sv, av) = (arg(args, 0), arg(args, 1), arg(args, 3));
    let (Some(re), Value::Obj(obj), Value::Str(sid), Value::Obj(out)) =
        (regex_of(vm, rv), rv, sv, av)
    else {
        return Err(vm.type_error("regexpMatchGlobal: not a RegExp, a string and an array"));
    };
    let full_unicode = arg(args, 2) == Value::Bool(true);
    let subject = vm.heap.str(sid).clone();
    let len = subject.len();
    let mut last = match vm.regexp.matching.take() {
        Some((o, s, a, last)) if o == obj && s == sid && a == out => last,
        _ => 0,
    };
    let mut found = false;
    while last <= len {
        // As in `regexp_replace_all`: a spent slice ends before the next search.
        if found && vm.fuel <= 0 {
            vm.regexp.matching = Some((obj, sid, out, last));
            return Err(Throw::Suspend);
        }
        found = true;
        let caps = match search(vm, &re, obj, sid, last) {
            Ok(Some(caps)) => caps,
            Ok(None) => break,
            Err(Throw::Suspend) => {
                vm.regexp.matching = Some((obj, sid, out, last));
                return Err(Throw::Suspend);
            }
            Err(e) => return Err(e),
        };
        let (position, end) = (caps[0] as usize, caps[1] as usize);
        let matched = vm.js_str(subject.slice(position, end))?;
        vm.work_check(1)?;
        vm.elems_mut(out, |e| e.push(matched))?;
        last = if end == position {
            advance(&subject, end, full_unicode)
        } else {
            end
        };
    }
    let k = vm.heap.key("lastIndex");
    vm.set_value(rv, k, Value::Num(0.0))?;
    let empty = vm.elems(out).is_none_or(|e| e.is_empty());
    Ok(if empty { Value::Null } else { av })
}

/// Keep a stopped `regexpReplaceAll`'s progress (charged while it waits) for its next call.
fn keep_replacing(vm: &mut Vm, mut st: Replacing) -> Throw {
    st.charged = st.out.capacity() * 2;
    if let Err(e) = vm.heap.charge(st.charged) {
        return Throw::from(e);
    }
    vm.regexp.replacing = Some(Box::new(st));
    Throw::Suspend
}

/// AdvanceStringIndex (§22.2.7.3): one unit on, or past a surrogate pair with `unicode`.
fn advance(s: &JsStr, index: usize, unicode: bool) -> usize {
    if !unicode || index + 1 >= s.len() {
        return index + 1;
    }
    let (c, d) = (s.at(index), s.at(index + 1));
    if (0xD800..=0xDBFF).contains(&c) && (0xDC00..=0xDFFF).contains(&d) {
        index + 2
    } else {
        index + 1
    }
}

/// Appends units `from..to` of `s` to `out`.
fn push_units(out: &mut Vec<u16>, s: &JsStr, from: usize, to: usize) {
    if from >= to {
        return;
    }
    match s.view() {
        crate::string::View::Narrow(b) => out.extend(b[from..to].iter().map(|&u| u as u16)),
        crate::string::View::Wide(w) => out.extend_from_slice(&w[from..to]),
    }
}

/// The match array of RegExpBuiltinExec for captures `caps` of subject `sid`.
fn match_array(vm: &mut Vm, re: &Regex, sid: crate::value::StrId, caps: &[u32]) -> Res<Value> {
    let subject = vm.heap.str(sid).clone();
    let n = re.ncaps;
    vm.work(n + 4);
    let mut items = Vec::with_capacity(n);
    for g in 0..n {
        let (a, b) = (caps[2 * g], caps[2 * g + 1]);
        items.push(if a == UNSET || b == UNSET {
            Value::Undefined
        } else {
            vm.js_str(subject.slice(a as usize, b as usize))?
        });
    }
    let arr = vm.new_array(items.clone())?;
    let Value::Obj(ao) = arr else {
        return Ok(Value::Null);
    };
    let k = vm.heap.key("index");
    vm.define(ao, k, Slot::Data(Value::Num(caps[0] as f64)), DEFAULT_ATTRS)?;
    let k = vm.heap.key("input");
    vm.define(ao, k, Slot::Data(Value::Str(sid)), DEFAULT_ATTRS)?;
    let groups = named_object(vm, re, |g| items[g as usize])?;
    let k = vm.heap.key("groups");
    vm.define(ao, k, Slot::Data(groups), DEFAULT_ATTRS)?;
    if re.flags.has_indices {
        let mut pairs = Vec::with_capacity(n);
        for g in 0..n {
            let (a, b) = (caps[2 * g], caps[2 * g + 1]);
            pairs.push(if a == UNSET || b == UNSET {
                Value::Undefined
            } else {
                vm.new_array(vec![Value::Num(a as f64), Value::Num(b as f64)])?
            });
        }
        let ind = vm.new_array(pairs.clone())?;
        if let Value::Obj(io) = ind {
            let g = named_object(vm, re, |g| pairs[g as usize])?;
            let k = vm.heap.key("groups");
            vm.define(io, k, Slot::Data(g), DEFAULT_ATTRS)?;
        }
        let k = vm.heap.key("indices");
        vm.define(ao, k, Slot::Data(ind), DEFAULT_ATTRS)?;
    }
    Ok(arr)
}

/// The `groups` object: each name's value from the group of that name that matched.
fn named_object(vm: &mut Vm, re: &Regex, value: impl Fn(u32) -> Value) -> Res<Value> {
    if re.names.is_empty() {
        return Ok(Value::Undefined);
    }
    let o = vm.heap.new_obj(None, Kind::Ordinary)?;
    for (name, groups) in &re.names {
        let v = groups
            .iter()
            .map(|g| value(*g))
            .find(|v| *v != Value::Undefined)
            .unwrap_or(Value::Undefined);
        let k = vm.heap.key(name);
        vm.define(o, k, Slot::Data(v), DEFAULT_ATTRS)?;
    }
    Ok(Value::Obj(o))
}

/// Appends capture `i` (1-based) for [`expand_template`] (nothing when it is undefined).
type CaptureFn<'a> = dyn FnMut(&mut Vm, usize, &mut Vec<u16>) -> Res<()> + 'a;
/// Appends the named capture of that name for [`expand_template`].
type NamedFn<'a> = dyn FnMut(&mut Vm, &[u16], &mut Vec<u16>) -> Res<()> + 'a;

/// `getSubstitution(matched, str, position, captures, namedCaptures, replacement)`:
/// GetSubstitution (§22.1.3.19.1); `captures` an array of strings or undefined.
fn get_substitution(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let matched = to_str_arg(vm, arg(args, 0))?;
    let s = to_str_arg(vm, arg(args, 1))?;
    let position = match arg(args, 2) {
        Value::Num(n) if n >= 0.0 => (n as usize).min(s.len()),
        _ => 0,
    };
    let caps = vm.list_from_array_like(arg(args, 3))?;
    let named = arg(args, 4);
    let template = to_str_arg(vm, arg(args, 5))?.units();
    let mut out: Vec<u16> = Vec::new();
    let mut capture = |vm: &mut Vm, i: usize, out: &mut Vec<u16>| {
        let v = caps[i - 1];
        if v != Value::Undefined {
            out.extend(to_str_arg(vm, v)?.units());
        }
        Ok(())
    };
    let mut lookup = |vm: &mut Vm, name: &[u16], out: &mut Vec<u16>| {
        let key = vm.heap.key_of(&JsStr::from_units(name.to_vec()))?;
        let v = vm.get_value(named, key)?;
        if v != Value::Undefined {
            out.extend(to_str_arg(vm, v)?.units());
        }
        Ok(())
    };
    let lookup: Option<&mut NamedFn<'_>> = match named {
        Value::Undefined => None,
        _ => Some(&mut lookup),
    };
    expand_template(
        vm,
        &mut out,
        &template,
        &matched,
        &s,
        position,
        caps.len(),
        &mut capture,
        lookup,
    )?;
    if out.len() > MAX_REPLACEMENT_LENGTH {
        return Err(vm.range_error("Invalid string length"));
    }
    vm.work(out.len() / 8 + 1);
    vm.js_str(JsStr::from_units(out))
}

/// GetSubstitution's expansion of `template` (§22.1.3.19.1) onto `out`: `$$`, `$&`
/// (`matched`), `` $` `` and `$'` (the parts of `s` before `position` and after the match),
/// `$n`/`$nn` (of the `m` captures, through `capture`), `$<name>` (through `named`; kept as
/// written when there are no named captures). Errors: what the callbacks throw, or a
/// RangeError past [`MAX_REPLACEMENT_LENGTH`].
#[allow(clippy::too_many_arguments)]
fn expand_template(
    vm: &mut Vm,
    out: &mut Vec<u16>,
    template: &[u16],
    matched: &JsStr,
    s: &JsStr,
    position: usize,
    m: usize,
    capture: &mut CaptureFn<'_>,
    mut named: Option<&mut NamedFn<'_>>,
) -> Res<()> {
    let position = position.min(s.len());
    let tail = (position + matched.len()).min(s.len());
    let mut k = 0;
    let dollar = b'$' as u16;
    let digit = |u: u16| (0x30..=0x39).contains(&u);
    while k < template.len() {
        if out.len() > MAX_REPLACEMENT_LENGTH {
            return Err(vm.range_error("Invalid string length"));
        }
        let c = template[k];
        if c != dollar || k + 1 >= template.len() {
            out.push(c);
            k += 1;
            continue;
        }
        let n = template[k + 1];
        match n {
            0x24 => {
                out.push(dollar);
                k += 2;
            }
            0x26 => {
                push_units(out, matched, 0, matched.len());
                k += 2;
            }
            0x60 => {
                push_units(out, s, 0, position);
                k += 2;
            }
            0x27 => {
                push_units(out, s, tail, s.len());
                k += 2;
            }
            _ if digit(n) => {
                let two = k + 2 < template.len() && digit(template[k + 2]);
                let mut count = if two { 2 } else { 1 };
                let mut index = (n - 0x30) as usize;
                if two {
                    index = index * 10 + (template[k + 2] - 0x30) as usize;
                    if index > m {
                        count = 1;
                        index = (n - 0x30) as usize;
                    }
                }
                if (1..=m).contains(&index) {
                    capture(vm, index, out)?;
                } else {
                    out.extend_from_slice(&template[k..k + 1 + count]);
                }
                k += 1 + count;
            }
            0x3C => {
                let close = (k + 2..template.len()).find(|&j| template[j] == b'>' as u16);
                match (named.as_deref_mut(), close) {
                    (None, _) | (_, None) => {
                        out.extend_from_slice(&template[k..k + 2]);
                        k += 2;
                    }
                    (Some(lookup), Some(e)) => {
                        lookup(vm, &template[k + 2..e], out)?;
                        k = e + 1;
                    }
                }
            }
            _ => {
                out.push(c);
                k += 1;
            }
        }
    }
    Ok(())
}
