//! Pattern → program: the nesting pre-scan, `oxc_regular_expression`'s parse (its errors
//! become located SyntaxErrors), capture numbering in source order, and the lowering to
//! [`Inst`]s. Lookbehind bodies compile backward (ECMA-262's `direction` −1): their terms
//! in reverse order, every consuming instruction reading leftward.

use oxc_regular_expression::ast::{
    Alternative, BoundaryAssertionKind, CharacterClass, CharacterClassContents,
    CharacterClassContentsKind, CharacterClassEscapeKind, Disjunction, LookAroundAssertionKind,
    Modifier, Pattern, Term,
};

use super::Flags;
use super::classes::{self, CharSet, MAX_CP, Ranges};
use crate::limits::{MAX_REGEX_CAPTURES, MAX_REGEX_NESTING, MAX_REGEX_PROGRAM};

/// Unbounded repetition.
pub const INF: u32 = u32::MAX;

/// What one consuming step matches: one character (a code unit, or a code point with
/// `u`/`v`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Atom {
    Char(u32),
    Set(u32),
    /// `.` with `s`, `[^]`.
    Any,
    /// `.` without `s`: anything but a line terminator.
    AnyNoNl,
}

/// Assertions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Assert {
    /// `^` (with `m`: also after a line terminator).
    Start(bool),
    /// `$` (with `m`: also before a line terminator).
    End(bool),
    /// `\b` (true) or `\B` (false); the second field: `u`/`v` with `i` word characters.
    Word(bool, bool),
}

/// One instruction of the matcher.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Inst {
    /// Consume one character matching the atom (leftward when `back`).
    One {
        atom: Atom,
        back: bool,
    },
    /// A single-character atom repeated `min..=max` times, greedy or lazy.
    Repeat {
        atom: Atom,
        back: bool,
        min: u32,
        max: u32,
        greedy: bool,
    },
    Assert(Assert),
    /// Continue at the next instruction; on backtracking, at `alt`.
    Split {
        alt: u32,
    },
    Jmp(u32),
    /// Record the position in capture slot `slot`.
    Save(u32),
    /// Clear capture slots `lo..hi` (a quantifier's iteration starts afresh).
    Reset {
        lo: u32,
        hi: u32,
    },
    /// Counter register `r` := 0.
    Zero(u32),
    /// Loop decision: below `min` iterate, at `max` leave, else iterate or leave (greedy
    /// first tries iterating).
    LoopHead {
        r: u32,
        min: u32,
        max: u32,
        greedy: bool,
        exit: u32,
    },
    /// End of an iteration: an empty one past `min` fails; else count it and go to `head`.
    LoopTail {
        r: u32,
        p: u32,
        min: u32,
        head: u32,
    },
    /// Register `r` := the position.
    Mark(u32),
    /// Match what groups `refs` captured (the first that did), case-folded when `fold`.
    BackRef {
        refs: u32,
        fold: bool,
        back: bool,
    },
    /// Start of a lookaround whose body ends at `end` (its `LookEnd`); registers `r`, `r+1`.
    LookStart {
        neg: bool,
        r: u32,
        end: u32,
    },
    LookEnd {
        neg: bool,
        r: u32,
    },
    Match,
}

/// A compiled pattern. Shared (`Arc`) by every RegExp object made from the same source
/// and flags.
#[derive(Debug)]
pub struct Regex {
    pub flags: Flags,
    /// The pattern as given.
    pub source: Vec<u16>,
    pub insts: Vec<Inst>,
    pub sets: Vec<CharSet>,
    /// Backreference group lists.
    pub refs: Vec<Vec<u32>>,
    /// Capture groups, group 0 included.
    pub ncaps: usize,
    /// Registers (loop counters, positions, lookaround heights).
    pub nregs: usize,
    /// Group names in order of first appearance, with the groups of each name.
    pub names: Vec<(String, Vec<u32>)>,
    /// The code units every match starts with (no `i`), for the start-position scan.
    pub prefix: Vec<u16>,
    /// Approximate bytes the program occupies (charged to the run that makes it).
    pub bytes: usize,
}

/// Why a pattern does not compile: the message and the offset in the pattern (UTF-16
/// units).
#[derive(Clone, Debug, PartialEq)]
pub struct PatternError {
    pub message: String,
    pub offset: Option<usize>,
}

fn perr(message: impl Into<String>, offset: Option<usize>) -> PatternError {
    PatternError {
        message: message.into(),
        offset,
    }
}

/// Deepest `(`/`[` nesting of a pattern (escapes skipped; in a class without `v`, only
/// `]` counts), or the offset where it passes [`MAX_REGEX_NESTING`].
fn check_nesting(p: &[u16], v: bool) -> Result<usize, PatternError> {
    let mut deepest = 0usize;
    let mut depth = 0usize;
    let mut class = 0usize;
    let mut i = 0;
    while i < p.len() {
        let c = p[i];
        match c {
            0x5C => i += 1,
            0x5B if class == 0 || v => {
                class += 1;
                depth += 1;
            }
            0x5D if class > 0 => {
                class -= 1;
                depth = depth.saturating_sub(1);
            }
            0x28 if class == 0 => depth += 1,
            0x29 if class == 0 => depth = depth.saturating_sub(1),
            _ => {}
        }
        deepest = deepest.max(depth);
        if depth > MAX_REGEX_NESTING {
            return Err(perr(
                format!(
                    "pattern nesting too deep (the limit is {MAX_REGEX_NESTING} groups or classes); flatten the pattern"
                ),
                Some(i),
            ));
        }
        i += 1;
    }
    Ok(deepest)
}

/// The pattern as a double-quoted string literal (for oxc's constructor parser, which
/// accepts lone surrogates as escapes), with the pattern offset of every byte.
fn literal(p: &[u16]) -> (String, Vec<u32>) {
    let mut s = String::with_capacity(p.len() + 2);
    let mut map = Vec::with_capacity(p.len() + 2);
    s.push('"');
    map.push(0);
    let mut i = 0;
    while i < p.len() {
        let start = s.len();
        let c = p[i];
        let mut width = 1;
        match c {
            0x22 => s.push_str("\\\""),
            0x5C => s.push_str("\\\\"),
            0x0A => s.push_str("\\n"),
            0x0D => s.push_str("\\r"),
            0x2028 => s.push_str("\\u2028"),
            0x2029 => s.push_str("\\u2029"),
            0xD800..=0xDBFF if i + 1 < p.len() && (0xDC00..=0xDFFF).contains(&p[i + 1]) => {
                let cp = 0x10000 + (((c as u32) - 0xD800) << 10) + (p[i + 1] as u32 - 0xDC00);
                s.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                width = 2;
            }
            0xD800..=0xDFFF => s.push_str(&format!("\\u{c:04X}")),
            _ => s.push(char::from_u32(c as u32).unwrap_or('\u{FFFD}')),
        }
        for _ in start..s.len() {
            map.push(i as u32);
        }
        i += width;
    }
    s.push('"');
    map.push(p.len() as u32);
    map.push(p.len() as u32);
    (s, map)
}

/// Compile `pattern` with `flags`. Errors: the pattern's SyntaxError, or a bound of
/// [`crate::limits`] passed.
pub fn compile(pattern: &[u16], flags: Flags) -> Result<Regex, PatternError> {
    if pattern.len() > MAX_REGEX_PROGRAM {
        return Err(perr(
            format!(
                "regular expression too large ({} units; the limit is {MAX_REGEX_PROGRAM})",
                pattern.len()
            ),
            None,
        ));
    }
    let depth = check_nesting(pattern, flags.unicode_sets)?;
    if depth > DEEP_PATTERN {
        // The parser and the lowering recurse per level: deep patterns compile on a large
        // stack of their own, as deep sources do.
        let p = pattern.to_vec();
        return std::thread::Builder::new()
            .stack_size(crate::scan::DEEP_STACK_BYTES)
            .spawn(move || parse_and_lower(&p, flags))
            .map_err(|_| perr("cannot start the pattern compiler's thread", None))?
            .join()
            .map_err(|_| perr("internal error: the pattern compiler failed", None))?;
    }
    parse_and_lower(pattern, flags)
}

/// Nesting above which a pattern compiles on a thread with a large stack.
const DEEP_PATTERN: usize = 16;

fn parse_and_lower(pattern: &[u16], flags: Flags) -> Result<Regex, PatternError> {
    let (text, map) = literal(pattern);
    let alloc = oxc_allocator::Allocator::default();
    let ftext = if flags.unicode_sets {
        Some("\"v\"")
    } else if flags.unicode {
        Some("\"u\"")
    } else {
        None
    };
    let parsed = oxc_regular_expression::ConstructorParser::new(
        &alloc,
        &text,
        ftext,
        oxc_regular_expression::Options::default(),
    )
    .parse();
    let ast = match parsed {
        Ok(a) => a,
        Err(d) => {
            let off = d
                .labels
                .first()
                .map(|l| map.get(l.offset() as usize).copied().unwrap_or(0) as usize);
            return Err(perr(d.message.to_string(), off));
        }
    };
    Compiler::new(flags).run(&ast, pattern)
}

#[derive(Clone, Copy)]
struct Ctx {
    back: bool,
    i: bool,
    m: bool,
    s: bool,
}

struct Compiler {
    flags: Flags,
    insts: Vec<Inst>,
    sets: Vec<CharSet>,
    set_bytes: usize,
    refs: Vec<Vec<u32>>,
    /// (span start, group number), in source order.
    groups: Vec<(u32, u32)>,
    group_names: Vec<Option<String>>,
    nregs: u32,
}

impl Compiler {
    fn new(flags: Flags) -> Compiler {
        Compiler {
            flags,
            insts: Vec::new(),
            sets: Vec::new(),
            set_bytes: 0,
            refs: Vec::new(),
            groups: Vec::new(),
            group_names: vec![None],
            nregs: 0,
        }
    }

    fn run(mut self, ast: &Pattern<'_>, pattern: &[u16]) -> Result<Regex, PatternError> {
        self.number_disjunction(&ast.body);
        let ncaps = self.group_names.len();
        if ncaps > MAX_REGEX_CAPTURES {
            return Err(perr(
                format!(
                    "too many capture groups ({}; the limit is {MAX_REGEX_CAPTURES})",
                    ncaps - 1
                ),
                None,
            ));
        }
        let ctx = Ctx {
            back: false,
            i: self.flags.ignore_case,
            m: self.flags.multiline,
            s: self.flags.dot_all,
        };
        self.disjunction(&ast.body, ctx)?;
        self.emit(Inst::Match)?;
        let mut names: Vec<(String, Vec<u32>)> = Vec::new();
        for (g, n) in self.group_names.iter().enumerate() {
            if let Some(n) = n {
                match names.iter_mut().find(|(m, _)| m == n) {
                    Some((_, v)) => v.push(g as u32),
                    None => names.push((n.clone(), vec![g as u32])),
                }
            }
        }
        let mut prefix = Vec::new();
        for inst in &self.insts {
            match inst {
                Inst::One {
                    atom: Atom::Char(c),
                    back: false,
                } => {
                    if *c > 0xFFFF {
                        let c = c - 0x10000;
                        prefix.push(0xD800 + (c >> 10) as u16);
                        prefix.push(0xDC00 + (c & 0x3FF) as u16);
                    } else {
                        prefix.push(*c as u16);
                    }
                }
                _ => break,
            }
        }
        // What the process holds: the vectors by capacity, each set's slot and range list, the
        // source twice (here and as the compile cache's key).
        let bytes = self.insts.capacity() * std::mem::size_of::<Inst>()
            + self.sets.capacity() * std::mem::size_of::<CharSet>()
            + self.set_bytes
            + pattern.len() * 4
            + 256;
        Ok(Regex {
            flags: self.flags,
            source: pattern.to_vec(),
            insts: self.insts,
            sets: self.sets,
            refs: self.refs,
            ncaps,
            nregs: self.nregs as usize,
            names,
            prefix,
            bytes,
        })
    }

    // ----- numbering ------------------------------------------------------------------

    fn number_disjunction(&mut self, d: &Disjunction<'_>) {
        for a in &d.body {
            for t in &a.body {
                self.number_term(t);
            }
        }
    }

    fn number_term(&mut self, t: &Term<'_>) {
        match t {
            Term::CapturingGroup(g) => {
                let n = self.group_names.len() as u32;
                self.groups.push((g.span.start, n));
                self.group_names
                    .push(g.name.as_ref().map(|s| s.to_string()));
                self.number_disjunction(&g.body);
            }
            Term::IgnoreGroup(g) => self.number_disjunction(&g.body),
            Term::LookAroundAssertion(l) => self.number_disjunction(&l.body),
            Term::Quantifier(q) => self.number_term(&q.body),
            _ => {}
        }
    }

    fn group_of(&self, start: u32) -> u32 {
        self.groups
            .iter()
            .find(|(s, _)| *s == start)
            .map_or(0, |(_, n)| *n)
    }

    /// Capture slots of the groups inside the span `[s, e)`.
    fn slots_within(&self, s: u32, e: u32) -> (u32, u32) {
        let inside: Vec<u32> = self
            .groups
            .iter()
            .filter(|(st, _)| *st >= s && *st < e)
            .map(|(_, n)| *n)
            .collect();
        match (inside.first(), inside.last()) {
            (Some(a), Some(b)) => (a * 2, b * 2 + 2),
            _ => (0, 0),
        }
    }

    // ----- emission -------------------------------------------------------------------

    fn emit(&mut self, i: Inst) -> Result<u32, PatternError> {
        if self.insts.len() >= MAX_REGEX_PROGRAM {
            return Err(perr(
                format!(
                    "regular expression too large (the limit is {MAX_REGEX_PROGRAM} instructions)"
                ),
                None,
            ));
        }
        self.insts.push(i);
        Ok(self.insts.len() as u32 - 1)
    }

    fn here(&self) -> u32 {
        self.insts.len() as u32
    }

    fn reg(&mut self) -> u32 {
        self.nregs += 1;
        self.nregs - 1
    }

    fn patch(&mut self, at: u32, target: u32) {
        match &mut self.insts[at as usize] {
            Inst::Split { alt } => *alt = target,
            Inst::Jmp(t) => *t = target,
            Inst::LoopHead { exit, .. } => *exit = target,
            Inst::LookStart { end, .. } => *end = target,
            _ => {}
        }
    }

    fn max_char(&self) -> u32 {
        if self.flags.full_unicode() {
            MAX_CP
        } else {
            0xFFFF
        }
    }

    fn set_atom(&mut self, r: &Ranges, ctx: Ctx) -> Result<Atom, PatternError> {
        let r = if ctx.i { self.fold(r) } else { r.clone() };
        if let Some(c) = r.single() {
            return Ok(Atom::Char(c));
        }
        if r.0 == [(0, self.max_char())] {
            return Ok(Atom::Any);
        }
        if self.sets.len() >= MAX_REGEX_PROGRAM {
            return Err(perr("regular expression too large", None));
        }
        // The range list's allocation (a malloc chunk of at least 32 bytes).
        self.set_bytes += ((r.len() * 8 + 8).div_ceil(16) * 16).max(32);
        self.sets.push(CharSet::new(&r));
        Ok(Atom::Set(self.sets.len() as u32 - 1))
    }

    fn fold(&self, r: &Ranges) -> Ranges {
        if self.flags.full_unicode() {
            classes::close_simple_folding(r)
        } else {
            classes::close_upper(r)
        }
    }

    fn char_atom(&mut self, c: u32, ctx: Ctx) -> Result<Atom, PatternError> {
        if ctx.i {
            self.set_atom(&Ranges::one(c), ctx)
        } else {
            Ok(Atom::Char(c))
        }
    }

    // ----- the tree -------------------------------------------------------------------

    fn disjunction(&mut self, d: &Disjunction<'_>, ctx: Ctx) -> Result<(), PatternError> {
        let n = d.body.len();
        let mut jumps = Vec::new();
        for (k, a) in d.body.iter().enumerate() {
            if k + 1 < n {
                let split = self.emit(Inst::Split { alt: 0 })?;
                self.alternative(a, ctx)?;
                jumps.push(self.emit(Inst::Jmp(0))?);
                let next = self.here();
                self.patch(split, next);
            } else {
                self.alternative(a, ctx)?;
            }
        }
        let end = self.here();
        for j in jumps {
            self.patch(j, end);
        }
        Ok(())
    }

    fn alternative(&mut self, a: &Alternative<'_>, ctx: Ctx) -> Result<(), PatternError> {
        if ctx.back {
            for t in a.body.iter().rev() {
                self.term(t, ctx)?;
            }
        } else {
            for t in &a.body {
                self.term(t, ctx)?;
            }
        }
        Ok(())
    }

    /// The atom of a term that matches exactly one character, if it is one.
    fn single(&mut self, t: &Term<'_>, ctx: Ctx) -> Result<Option<Atom>, PatternError> {
        Ok(Some(match t {
            Term::Character(c) => self.char_atom(c.value, ctx)?,
            Term::Dot(_) => {
                if ctx.s {
                    Atom::Any
                } else {
                    Atom::AnyNoNl
                }
            }
            Term::CharacterClassEscape(e) => {
                let r = self.escape_set(e.kind, ctx);
                self.set_atom(&r, Ctx { i: false, ..ctx })?
            }
            Term::UnicodePropertyEscape(p) => {
                let r = self.property(p.name.as_str(), p.value.as_ref().map(|v| v.as_str()))?;
                let r = if ctx.i { self.fold(&r) } else { r };
                let r = if p.negative { r.negate(MAX_CP) } else { r };
                self.set_atom(&r, Ctx { i: false, ..ctx })?
            }
            Term::CharacterClass(c) => {
                let (r, strings) = self.class(c, ctx)?;
                if !strings.is_empty() {
                    return Ok(None);
                }
                self.set_atom(&r, Ctx { i: false, ..ctx })?
            }
            _ => return Ok(None),
        }))
    }

    fn property(&self, name: &str, value: Option<&str>) -> Result<Ranges, PatternError> {
        classes::property(name, value).ok_or_else(|| {
            perr(
                format!(
                    "Unicode property \\p{{{name}}} is not supported here; use a character class"
                ),
                None,
            )
        })
    }

    fn escape_set(&self, k: CharacterClassEscapeKind, ctx: Ctx) -> Ranges {
        use CharacterClassEscapeKind as K;
        let ui = ctx.i && self.flags.full_unicode();
        let max = self.max_char();
        match k {
            K::D => classes::digits(),
            K::NegativeD => classes::digits().negate(max),
            K::S => classes::spaces(),
            K::NegativeS => classes::spaces().negate(max),
            K::W => classes::word(ui),
            K::NegativeW => classes::word(ui).negate(max),
        }
    }

    /// A class as (characters, strings); characters already case-closed under `i`.
    fn class(
        &mut self,
        c: &CharacterClass<'_>,
        ctx: Ctx,
    ) -> Result<(Ranges, Vec<Vec<u32>>), PatternError> {
        let mut acc: Option<(Ranges, Vec<Vec<u32>>)> = None;
        for item in &c.body {
            let (r, s) = self.class_item(item, ctx)?;
            acc = Some(match acc {
                None => (r, s),
                Some((ar, mut astr)) => match c.kind {
                    CharacterClassContentsKind::Union => {
                        for x in s {
                            if !astr.contains(&x) {
                                astr.push(x);
                            }
                        }
                        (ar.union(&r), astr)
                    }
                    CharacterClassContentsKind::Intersection => {
                        astr.retain(|x| s.contains(x));
                        (ar.intersect(&r), astr)
                    }
                    CharacterClassContentsKind::Subtraction => {
                        astr.retain(|x| !s.contains(x));
                        (ar.subtract(&r), astr)
                    }
                },
            });
        }
        let (mut r, mut strings) = acc.unwrap_or_default();
        // One-character strings belong with the characters.
        strings.retain(|s| {
            if s.len() == 1 {
                r = r.union(&Ranges::one(s[0]));
                false
            } else {
                true
            }
        });
        if ctx.i {
            r = self.fold(&r);
        }
        if c.negative {
            r = r.negate(self.max_char());
        }
        Ok((r, strings))
    }

    fn class_item(
        &mut self,
        item: &CharacterClassContents<'_>,
        ctx: Ctx,
    ) -> Result<(Ranges, Vec<Vec<u32>>), PatternError> {
        Ok(match item {
            CharacterClassContents::CharacterClassRange(r) => {
                (Ranges::range(r.min.value, r.max.value), Vec::new())
            }
            CharacterClassContents::Character(c) => (Ranges::one(c.value), Vec::new()),
            CharacterClassContents::CharacterClassEscape(e) => {
                (self.escape_set(e.kind, ctx), Vec::new())
            }
            CharacterClassContents::UnicodePropertyEscape(p) => {
                let r = self.property(p.name.as_str(), p.value.as_ref().map(|v| v.as_str()))?;
                let r = if p.negative {
                    let r = if ctx.i { self.fold(&r) } else { r };
                    r.negate(MAX_CP)
                } else {
                    r
                };
                (r, Vec::new())
            }
            CharacterClassContents::NestedCharacterClass(c) => self.class(c, ctx)?,
            CharacterClassContents::ClassStringDisjunction(d) => {
                let mut r = Ranges::default();
                let mut strings = Vec::new();
                for s in &d.body {
                    let v: Vec<u32> = s.body.iter().map(|c| c.value).collect();
                    if v.len() == 1 {
                        r = r.union(&Ranges::one(v[0]));
                    } else if !strings.contains(&v) {
                        strings.push(v);
                    }
                }
                (r, strings)
            }
        })
    }

    fn term(&mut self, t: &Term<'_>, ctx: Ctx) -> Result<(), PatternError> {
        if let Some(atom) = self.single(t, ctx)? {
            self.emit(Inst::One {
                atom,
                back: ctx.back,
            })?;
            return Ok(());
        }
        match t {
            Term::BoundaryAssertion(b) => {
                let ui = ctx.i && self.flags.full_unicode();
                let a = match b.kind {
                    BoundaryAssertionKind::Start => Assert::Start(ctx.m),
                    BoundaryAssertionKind::End => Assert::End(ctx.m),
                    BoundaryAssertionKind::Boundary => Assert::Word(true, ui),
                    BoundaryAssertionKind::NegativeBoundary => Assert::Word(false, ui),
                };
                self.emit(Inst::Assert(a))?;
            }
            Term::LookAroundAssertion(l) => {
                let (neg, behind) = match l.kind {
                    LookAroundAssertionKind::Lookahead => (false, false),
                    LookAroundAssertionKind::NegativeLookahead => (true, false),
                    LookAroundAssertionKind::Lookbehind => (false, true),
                    LookAroundAssertionKind::NegativeLookbehind => (true, true),
                };
                let r = self.reg();
                self.reg();
                let start = self.emit(Inst::LookStart { neg, r, end: 0 })?;
                self.disjunction(
                    &l.body,
                    Ctx {
                        back: behind,
                        ..ctx
                    },
                )?;
                self.emit(Inst::LookEnd { neg, r })?;
                let end = self.here();
                self.patch(start, end);
            }
            Term::Quantifier(q) => self.quantifier(q, ctx)?,
            Term::CapturingGroup(g) => {
                let n = self.group_of(g.span.start);
                let (first, second) = if ctx.back {
                    (n * 2 + 1, n * 2)
                } else {
                    (n * 2, n * 2 + 1)
                };
                self.emit(Inst::Save(first))?;
                self.disjunction(&g.body, ctx)?;
                self.emit(Inst::Save(second))?;
            }
            Term::IgnoreGroup(g) => {
                let mut c = ctx;
                if let Some(m) = &g.modifiers {
                    for (bit, on) in [(&m.enabling, true), (&m.disabling, false)] {
                        if bit.contains(Modifier::I) {
                            c.i = on;
                        }
                        if bit.contains(Modifier::M) {
                            c.m = on;
                        }
                        if bit.contains(Modifier::S) {
                            c.s = on;
                        }
                    }
                }
                self.disjunction(&g.body, c)?;
            }
            Term::IndexedReference(r) => {
                let refs = vec![r.index];
                self.backref(refs, ctx)?;
            }
            Term::NamedReference(r) => {
                let name = r.name.as_str();
                let refs: Vec<u32> = self
                    .group_names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.as_deref() == Some(name))
                    .map(|(i, _)| i as u32)
                    .collect();
                self.backref(refs, ctx)?;
            }
            Term::CharacterClass(c) => {
                // A class with strings (`v`): the strings longest first, then the
                // characters.
                let (r, mut strings) = self.class(c, ctx)?;
                strings.sort_by_key(|s| std::cmp::Reverse(s.len()));
                let mut jumps = Vec::new();
                let has_chars = !r.0.is_empty();
                let n = strings.len();
                for (k, s) in strings.iter().enumerate() {
                    let last = k + 1 == n && !has_chars;
                    let split = if last {
                        None
                    } else {
                        Some(self.emit(Inst::Split { alt: 0 })?)
                    };
                    let seq: Vec<u32> = if ctx.back {
                        s.iter().rev().copied().collect()
                    } else {
                        s.clone()
                    };
                    for ch in seq {
                        let atom = self.char_atom(ch, ctx)?;
                        self.emit(Inst::One {
                            atom,
                            back: ctx.back,
                        })?;
                    }
                    if let Some(sp) = split {
                        jumps.push(self.emit(Inst::Jmp(0))?);
                        let next = self.here();
                        self.patch(sp, next);
                    }
                }
                if has_chars {
                    let atom = self.set_atom(&r, Ctx { i: false, ..ctx })?;
                    self.emit(Inst::One {
                        atom,
                        back: ctx.back,
                    })?;
                }
                let end = self.here();
                for j in jumps {
                    self.patch(j, end);
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn backref(&mut self, refs: Vec<u32>, ctx: Ctx) -> Result<(), PatternError> {
        self.refs.push(refs);
        let idx = self.refs.len() as u32 - 1;
        self.emit(Inst::BackRef {
            refs: idx,
            fold: ctx.i,
            back: ctx.back,
        })?;
        Ok(())
    }

    fn quantifier(
        &mut self,
        q: &oxc_regular_expression::ast::Quantifier<'_>,
        ctx: Ctx,
    ) -> Result<(), PatternError> {
        let min = q.min.min(INF as u64 - 1) as u32;
        let max = q.max.map_or(INF, |m| m.min(INF as u64 - 1) as u32);
        if max == 0 {
            return Ok(());
        }
        if let Some(atom) = self.single(&q.body, ctx)? {
            if min == 1 && max == 1 {
                self.emit(Inst::One {
                    atom,
                    back: ctx.back,
                })?;
            } else {
                self.emit(Inst::Repeat {
                    atom,
                    back: ctx.back,
                    min,
                    max,
                    greedy: q.greedy,
                })?;
            }
            return Ok(());
        }
        if min == 1 && max == 1 {
            return self.term(&q.body, ctx);
        }
        let span = oxc_span::GetSpan::span(&q.body);
        let (lo, hi) = self.slots_within(span.start, span.end);
        let r = self.reg();
        let p = self.reg();
        self.emit(Inst::Zero(r))?;
        let head = self.emit(Inst::LoopHead {
            r,
            min,
            max,
            greedy: q.greedy,
            exit: 0,
        })?;
        self.emit(Inst::Mark(p))?;
        if hi > lo {
            self.emit(Inst::Reset { lo, hi })?;
        }
        self.term(&q.body, ctx)?;
        self.emit(Inst::LoopTail { r, p, min, head })?;
        let exit = self.here();
        self.patch(head, exit);
        Ok(())
    }
}
