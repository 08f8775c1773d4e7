//! Character sets as sorted inclusive ranges of code points (surrogates included, unlike
//! `regex-syntax`'s classes), the sets of the class escapes, `\p{…}` from `regex-syntax`'s
//! Unicode tables, and the two case-insensitive canonicalizations of ECMA-262 §22.2.2.7.3:
//! simple case folding (`u`/`v`), `toUppercase` without them.

use std::collections::HashMap;
use std::sync::OnceLock;

use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange, Hir, HirKind};

/// Largest code point.
pub const MAX_CP: u32 = 0x10FFFF;

/// A set of code points (or code units): sorted, disjoint, non-adjacent inclusive ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ranges(pub Vec<(u32, u32)>);

impl Ranges {
    /// The set of one code point.
    pub fn one(c: u32) -> Ranges {
        Ranges(vec![(c, c)])
    }

    /// The set of `lo..=hi`.
    pub fn range(lo: u32, hi: u32) -> Ranges {
        Ranges(vec![(lo, hi)])
    }

    /// Sort and merge overlapping or adjacent ranges.
    pub fn normalize(mut v: Vec<(u32, u32)>) -> Ranges {
        v.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(v.len());
        for (a, b) in v {
            if let Some(last) = out.last_mut()
                && a <= last.1.saturating_add(1)
            {
                last.1 = last.1.max(b);
                continue;
            }
            out.push((a, b));
        }
        Ranges(out)
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: u32) -> bool {
        in_ranges(&self.0, c)
    }

    /// `self ∪ other`.
    pub fn union(&self, other: &Ranges) -> Ranges {
        let mut v = self.0.clone();
        v.extend_from_slice(&other.0);
        Ranges::normalize(v)
    }

    /// The complement within `0..=max`.
    pub fn negate(&self, max: u32) -> Ranges {
        let mut out = Vec::new();
        let mut next = 0u32;
        for &(a, b) in &self.0 {
            if a > max {
                break;
            }
            if a > next {
                out.push((next, a - 1));
            }
            next = b.saturating_add(1);
        }
        if next <= max {
            out.push((next, max));
        }
        Ranges(out)
    }

    /// `self ∩ other`.
    pub fn intersect(&self, other: &Ranges) -> Ranges {
        let (a, b) = (&self.0, &other.0);
        let (mut i, mut j) = (0, 0);
        let mut out = Vec::new();
        while i < a.len() && j < b.len() {
            let lo = a[i].0.max(b[j].0);
            let hi = a[i].1.min(b[j].1);
            if lo <= hi {
                out.push((lo, hi));
            }
            if a[i].1 < b[j].1 {
                i += 1;
            } else {
                j += 1;
            }
        }
        Ranges(out)
    }

    /// `self \ other`.
    pub fn subtract(&self, other: &Ranges) -> Ranges {
        self.intersect(&other.negate(MAX_CP))
    }

    /// The only member, when there is exactly one.
    pub fn single(&self) -> Option<u32> {
        match self.0.as_slice() {
            [(a, b)] if a == b => Some(*a),
            _ => None,
        }
    }

    /// Number of ranges (for the program-size bound).
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

/// Whether `c` lies in one of `ranges` (sorted, disjoint, inclusive): a binary search.
fn in_ranges(ranges: &[(u32, u32)], c: u32) -> bool {
    ranges
        .binary_search_by(|&(a, b)| {
            if b < c {
                std::cmp::Ordering::Less
            } else if a > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// A compiled set for matching: a bitmap for ASCII, ranges for the rest.
#[derive(Clone, Debug)]
pub struct CharSet {
    ascii: u128,
    ranges: Box<[(u32, u32)]>,
}

impl CharSet {
    /// The matcher of `r`.
    pub fn new(r: &Ranges) -> CharSet {
        let mut ascii = 0u128;
        for &(a, b) in &r.0 {
            for c in a..=b.min(127) {
                ascii |= 1u128 << c;
            }
        }
        CharSet {
            ascii,
            ranges: r.0.clone().into_boxed_slice(),
        }
    }

    /// Whether `c` is a member.
    #[inline]
    pub fn has(&self, c: u32) -> bool {
        if c < 128 {
            return self.ascii & (1u128 << c) != 0;
        }
        in_ranges(&self.ranges, c)
    }
}

/// `\d`.
pub fn digits() -> Ranges {
    Ranges::range('0' as u32, '9' as u32)
}

/// `\s`: WhiteSpace and LineTerminator (ECMA-262 §12.2, §12.3).
pub fn spaces() -> Ranges {
    Ranges::normalize(vec![
        (9, 13),
        (0x20, 0x20),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
        (0xFEFF, 0xFEFF),
    ])
}

/// `\w` (WordCharacters): with `u`/`v` and `i`, also the two characters whose simple case
/// folding is ASCII (U+017F, U+212A).
pub fn word(unicode_ignore_case: bool) -> Ranges {
    let mut v = vec![(48, 57), (65, 90), (95, 95), (97, 122)];
    if unicode_ignore_case {
        v.push((0x17F, 0x17F));
        v.push((0x212A, 0x212A));
    }
    Ranges::normalize(v)
}

/// Whether a code unit is a LineTerminator.
#[inline]
pub fn is_line_terminator(c: u32) -> bool {
    matches!(c, 0x0A | 0x0D | 0x2028 | 0x2029)
}

fn from_class(c: &ClassUnicode) -> Ranges {
    Ranges(
        c.ranges()
            .iter()
            .map(|r| (r.start() as u32, r.end() as u32))
            .collect(),
    )
}

/// The non-surrogate part of `r` as a `regex-syntax` class.
fn to_class(r: &Ranges) -> ClassUnicode {
    let mut v = Vec::new();
    for &(a, b) in &r.0 {
        for (lo, hi) in [(a, b.min(0xD7FF)), (a.max(0xE000), b)] {
            if lo <= hi
                && let (Some(x), Some(y)) = (char::from_u32(lo), char::from_u32(hi))
            {
                v.push(ClassUnicodeRange::new(x, y));
            }
        }
    }
    ClassUnicode::new(v)
}

/// The code points of a `\p{name=value}` or `\p{name}` escape whose names the parser has
/// already checked against ECMA-262's tables; `None` for what the tables here lack
/// (properties of strings).
pub fn property(name: &str, value: Option<&str>) -> Option<Ranges> {
    let surrogates = Ranges::range(0xD800, 0xDFFF);
    let (query, with_surrogates) = match value {
        Some(v) => {
            let key = match name {
                "General_Category" | "gc" => "gc",
                "Script" | "sc" => "sc",
                "Script_Extensions" | "scx" => "scx",
                _ => return None,
            };
            let sur = key == "gc" && matches!(v, "Cs" | "Surrogate" | "C" | "Other")
                || matches!(v, "Zzzz" | "Unknown");
            (format!("\\p{{{key}={v}}}"), sur)
        }
        None => {
            match name {
                "Any" => return Some(Ranges::range(0, MAX_CP)),
                "Assigned" => {
                    let unassigned = property("gc", Some("Cn"))?;
                    return Some(unassigned.negate(MAX_CP));
                }
                "ASCII" => return Some(Ranges::range(0, 127)),
                _ => {}
            }
            let sur = matches!(name, "Cs" | "Surrogate" | "C" | "Other");
            (format!("\\p{{{name}}}"), sur)
        }
    };
    let hir = regex_syntax::ParserBuilder::new()
        .utf8(false)
        .build()
        .parse(&query)
        .ok()?;
    let mut r = ranges_of(&hir)?;
    if with_surrogates {
        r = r.union(&surrogates);
    }
    if value.is_some_and(|v| matches!(v, "Cn" | "Unassigned"))
        || (value.is_none() && matches!(name, "Cn" | "Unassigned"))
    {
        // regex-syntax cannot hold surrogates; they are not unassigned.
        r = r.subtract(&surrogates);
    }
    Some(r)
}

fn ranges_of(h: &Hir) -> Option<Ranges> {
    match h.kind() {
        HirKind::Class(regex_syntax::hir::Class::Unicode(c)) => Some(from_class(c)),
        HirKind::Empty => Some(Ranges::default()),
        _ => None,
    }
}

/// `r` closed under simple case folding (`u`/`v` with `i`): every code point whose folding
/// equals a member's.
pub fn close_simple_folding(r: &Ranges) -> Ranges {
    let mut c = to_class(r);
    c.case_fold_simple();
    r.union(&from_class(&c))
}

/// The canonical representative of `c` under simple case folding (equal for two code
/// points exactly when they fold alike).
pub fn fold_rep(c: u32) -> u32 {
    let Some(ch) = char::from_u32(c) else {
        return c;
    };
    let mut cls = ClassUnicode::new([ClassUnicodeRange::new(ch, ch)]);
    cls.case_fold_simple();
    cls.ranges()
        .first()
        .map_or(c, |r| (r.start() as u32).min(c))
}

struct UpperTable {
    canon: Vec<u16>,
    /// Canonical unit → every unit with that canonicalization (groups of two or more).
    groups: HashMap<u16, Vec<u16>>,
}

fn upper_table() -> &'static UpperTable {
    static T: OnceLock<UpperTable> = OnceLock::new();
    T.get_or_init(|| {
        let mut canon = vec![0u16; 0x10000];
        let mut groups: HashMap<u16, Vec<u16>> = HashMap::new();
        for (u, slot) in canon.iter_mut().enumerate() {
            let mut cu = u as u16;
            if let Some(ch) = char::from_u32(u as u32) {
                let mut up = ch.to_uppercase();
                if let (Some(x), None) = (up.next(), up.next())
                    && (x as u32) < 0x10000
                    && !(u >= 128 && (x as u32) < 128)
                {
                    cu = x as u16;
                }
            }
            *slot = cu;
            if cu != u as u16 {
                groups.entry(cu).or_default().push(u as u16);
            }
        }
        for (k, v) in groups.iter_mut() {
            if !v.contains(k) {
                v.push(*k);
            }
        }
        UpperTable { canon, groups }
    })
}

/// Canonicalize without `u`/`v` (§22.2.2.7.3): the single-unit `toUppercase`, unless it
/// would map a non-ASCII unit to ASCII.
#[inline]
pub fn canon_upper(u: u32) -> u32 {
    if u > 0xFFFF {
        return u;
    }
    upper_table().canon[u as usize] as u32
}

/// `r` (code units) closed under [`canon_upper`].
pub fn close_upper(r: &Ranges) -> Ranges {
    let t = upper_table();
    let mut extra = Vec::new();
    for (k, members) in &t.groups {
        if members.iter().any(|m| r.contains(*m as u32)) {
            extra.push((*k as u32, *k as u32));
            extra.extend(members.iter().map(|m| (*m as u32, *m as u32)));
        }
    }
    if extra.is_empty() {
        return r.clone();
    }
    let mut v = r.0.clone();
    v.extend(extra);
    Ranges::normalize(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_algebra() {
        let a = Ranges::normalize(vec![(10, 20), (30, 40)]);
        let b = Ranges::range(15, 35);
        assert_eq!(a.intersect(&b).0, vec![(15, 20), (30, 35)]);
        assert_eq!(a.subtract(&b).0, vec![(10, 14), (36, 40)]);
        assert_eq!(a.negate(50).0, vec![(0, 9), (21, 29), (41, 50)]);
        assert!(a.contains(30) && !a.contains(25));
    }

    #[test]
    fn properties_and_folding() {
        let greek = property("Script", Some("Greek")).expect("greek");
        assert!(greek.contains('α' as u32) && !greek.contains('a' as u32));
        let lu = property("Lu", None).expect("Lu");
        assert!(lu.contains('A' as u32) && !lu.contains('a' as u32));
        let k = close_simple_folding(&Ranges::one('k' as u32));
        assert!(k.contains('K' as u32) && k.contains(0x212A));
        assert_eq!(canon_upper('a' as u32), 'A' as u32);
        assert_eq!(canon_upper(0x17F), 0x17F);
        assert!(close_upper(&Ranges::one('a' as u32)).contains('A' as u32));
        assert_eq!(fold_rep('K' as u32), fold_rep(0x212A));
    }
}
