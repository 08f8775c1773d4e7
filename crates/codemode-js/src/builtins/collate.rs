//! `localeCompare`: a deterministic approximation of ICU's root collation (what node's
//! `localeCompare` uses for `en`), in the Unicode Collation Algorithm's three levels:
//! 1. primary: the base letters, without accents or case, in root order: whitespace, then
//!    punctuation and symbols (ASCII in ICU's order: `_ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ &
//!    # % ` ^ + < = > | ~ $`, then the others by code point), then digits, then Latin letters
//!    (`ß` = `ss`, `æ` = `ae`, `œ` = `oe`, `ø` = `o`, `ł` = `l`, `đ` = `ð` = `d`, `ħ` = `h`,
//!    `ŧ` = `t`, compatibility forms as their decomposition (`ﬁ` = `fi`); `ı` after `i`, `ŋ`
//!    after `n`, `þ` after `z`), then the letters of other scripts by code point;
//! 2. secondary: the accents (none before any: `e` < `é`; a later accent weighs less);
//!    `ß`, `æ` and `œ` differ from their two letters here (`strasse` < `Strasse` < `straße`);
//! 3. tertiary: lower case, then compatibility variants (`fi` < `ﬁ`), then upper case;
//!
//! and then the code units. Nothing is allocated per character: each level is a pass over
//! both strings' code units (the caller charges the work).

use std::cmp::Ordering;

use unicode_normalization::char::is_combining_mark;

use crate::string::JsStr;

/// ASCII whitespace and punctuation in ICU root order (each one's primary weight is its
/// position here, after the control characters).
const ASCII_ORDER: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
/// Primary bands, in order.
const PUNCT: u32 = 0x100;
const OTHER_PUNCT: u32 = 0x200;
const DIGIT: u32 = 0x20_0000;
const LATIN: u32 = 0x20_0100;
const OTHER_LETTER: u32 = 0x30_0000;
/// Tertiary weights.
const LOWER: u8 = 0;
const VARIANT: u8 = 1;
const UPPER: u8 = 2;
/// The accent a stroked letter (`ø`, `ł`, `đ`) carries at the secondary level.
const STROKE: char = '\u{0338}';
/// The accent of a letter that collates as two (`ß`, `æ`, `œ`).
const LIGATURE: char = '\u{0361}';

/// One collation element, or an accent on the element before it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Item {
    Primary(u32, u8),
    /// An accent after `at` primaries.
    Accent(usize, char),
}

/// Primary weight of a Latin letter `a`..`z`; `extra` 1..3 places a letter after it.
fn latin(c: char, extra: u32) -> u32 {
    LATIN + (c as u32 - 'a' as u32) * 4 + extra
}

/// The collation items of a string, one pass over its code units.
struct Items<I: Iterator<Item = u16>> {
    units: std::char::DecodeUtf16<I>,
    pending: [Item; 32],
    len: usize,
    next: usize,
    primaries: usize,
}

/// The items of `s`.
fn items(s: &JsStr) -> Items<impl Iterator<Item = u16> + '_> {
    Items {
        units: char::decode_utf16((0..s.len()).map(move |i| s.at(i))),
        pending: [Item::Primary(0, 0); 32],
        len: 0,
        next: 0,
        primaries: 0,
    }
}

impl<I: Iterator<Item = u16>> Items<I> {
    fn push(&mut self, it: Item) {
        if self.len < self.pending.len() {
            if let Item::Primary(..) = it {
                self.primaries += 1;
            }
            self.pending[self.len] = it;
            self.len += 1;
        }
    }

    fn primary(&mut self, w: u32, t: u8) {
        self.push(Item::Primary(w, t));
    }

    fn accent(&mut self, mark: char) {
        self.push(Item::Accent(self.primaries, mark));
    }

    /// The items of one character.
    fn expand(&mut self, c: char) {
        if c.is_ascii() {
            match c {
                'a'..='z' => self.primary(latin(c, 0), LOWER),
                'A'..='Z' => self.primary(latin(c.to_ascii_lowercase(), 0), UPPER),
                '0'..='9' => self.primary(DIGIT + (c as u32 - '0' as u32), LOWER),
                _ => match ASCII_ORDER.find(c) {
                    Some(i) => self.primary(PUNCT + i as u32, LOWER),
                    None => self.primary(c as u32, LOWER),
                },
            }
            return;
        }
        // One character's decompositions, without the normalizer's buffers: a variant
        // (`ﬁ`, `ſ`, `²`) is one whose compatibility decomposition differs from its
        // canonical one.
        let (mut kd, mut nk) = (['\0'; 18], 0);
        unicode_normalization::char::decompose_compatible(c, |d| {
            if nk < kd.len() {
                kd[nk] = d;
                nk += 1;
            }
        });
        let (mut cd, mut nc) = (['\0'; 18], 0);
        unicode_normalization::char::decompose_canonical(c, |d| {
            if nc < cd.len() {
                cd[nc] = d;
                nc += 1;
            }
        });
        let variant = kd[..nk] != cd[..nc];
        for &d in &kd[..nk] {
            if is_combining_mark(d) {
                self.accent(d);
                continue;
            }
            if d.is_ascii() && !variant {
                self.expand(d);
                continue;
            }
            let upper = d.is_uppercase();
            for l in d.to_lowercase() {
                let t = if variant {
                    VARIANT
                } else if upper {
                    UPPER
                } else {
                    LOWER
                };
                self.letter(l, t);
            }
        }
    }

    /// A lowercase, decomposed character other than a combining mark.
    fn letter(&mut self, l: char, t: u8) {
        let stroke = |s: &mut Self, base: char| {
            s.primary(latin(base, 0), t);
            s.accent(STROKE);
        };
        // ß, æ and œ are their two letters with a secondary difference (`strasse` <
        // `Strasse` < `straße`).
        let pair = |s: &mut Self, a: char, b: char| {
            s.primary(latin(a, 0), t);
            s.primary(latin(b, 0), t);
            s.accent(LIGATURE);
        };
        match l {
            'a'..='z' => self.primary(latin(l, 0), t),
            '0'..='9' => self.primary(DIGIT + (l as u32 - '0' as u32), t),
            'ß' => pair(self, 's', 's'),
            'æ' => pair(self, 'a', 'e'),
            'œ' => pair(self, 'o', 'e'),
            'ø' => stroke(self, 'o'),
            'ł' => stroke(self, 'l'),
            'đ' | 'ð' => stroke(self, 'd'),
            'ħ' => stroke(self, 'h'),
            'ŧ' => stroke(self, 't'),
            'ı' => self.primary(latin('i', 2), t),
            'ŋ' => self.primary(latin('n', 2), t),
            'þ' => self.primary(latin('z', 2), t),
            _ if l.is_alphanumeric() => self.primary(OTHER_LETTER + l as u32, t),
            _ if l.is_ascii() => self.expand(l),
            _ => self.primary(OTHER_PUNCT + l as u32, t),
        }
    }
}

impl<I: Iterator<Item = u16>> Iterator for Items<I> {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        while self.next == self.len {
            self.next = 0;
            self.len = 0;
            let c = self.units.next()?.unwrap_or('\u{FFFD}');
            self.expand(c);
        }
        let it = self.pending[self.next];
        self.next += 1;
        Some(it)
    }
}

/// `a.localeCompare(b)`'s order (see the module docs).
pub fn compare(a: &JsStr, b: &JsStr) -> Ordering {
    let primary = |s| {
        items(s).filter_map(|i| match i {
            Item::Primary(w, _) => Some(w),
            Item::Accent(..) => None,
        })
    };
    let accents = |s| {
        items(s).filter_map(|i| match i {
            Item::Accent(at, m) => Some((usize::MAX - at, m)),
            Item::Primary(..) => None,
        })
    };
    let case = |s| {
        items(s).filter_map(|i| match i {
            Item::Primary(_, t) => Some(t),
            Item::Accent(..) => None,
        })
    };
    primary(a)
        .cmp(primary(b))
        .then_with(|| accents(a).cmp(accents(b)))
        .then_with(|| case(a).cmp(case(b)))
        .then_with(|| {
            (0..a.len())
                .map(|i| a.at(i))
                .cmp((0..b.len()).map(|i| b.at(i)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orders node 20 (ICU root, `Intl.Collator("en")`) gives.
    #[test]
    fn orders_as_icu_root() {
        let sorted = |words: &[&str]| {
            let mut v: Vec<JsStr> = words.iter().map(|w| JsStr::from_str(w)).collect();
            v.sort_by(compare);
            v.iter().map(|s| s.to_rust()).collect::<Vec<_>>().join(" ")
        };
        let ascii: String = (32u8..127).map(char::from).collect();
        let chars: Vec<String> = ascii.chars().map(String::from).collect();
        let refs: Vec<&str> = chars.iter().map(String::as_str).collect();
        assert_eq!(
            sorted(&refs).replace(' ', ""),
            " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ".replace(' ', "")
        );
        assert_eq!(
            sorted(&[
                "Zoe",
                "Łukasz",
                "Lara",
                "Øystein",
                "Olaf",
                "Ærøskøbing",
                "Anders",
                "Weiß",
                "Weiss",
                "Weiz",
                "Þór",
                "Tom"
            ]),
            "Ærøskøbing Anders Lara Łukasz Olaf Øystein Tom Weiss Weiß Weiz Zoe Þór"
        );
        assert_eq!(sorted(&["ss", "ß", "sz", "st"]), "ss ß st sz");
        assert_eq!(
            sorted(&["Strasse", "straße", "STRASSE", "strasse", "STRAßE"]),
            "strasse Strasse STRASSE straße STRAßE"
        );
        assert_eq!(
            sorted(&["Æble", "aeble", "Aeble", "æble"]),
            "aeble Aeble æble Æble"
        );
        assert_eq!(sorted(&["ﬁsh", "Fish", "fish"]), "fish ﬁsh Fish");
        assert_eq!(sorted(&["Øl", "öl", "ol", "Ol", "øl"]), "ol Ol öl øl Øl");
        assert_eq!(sorted(&["ae", "æ", "af", "ad"]), "ad ae æ af");
        assert_eq!(sorted(&["dz", "ð", "e", "dx", "d"]), "d ð dx dz e");
        assert_eq!(sorted(&["ø", "o", "oa", "p", "öa", "ôa"]), "o ø oa ôa öa p");
        assert_eq!(
            sorted(&["fi", "ﬁ", "h", "i", "ı", "ij", "ĳ", "l"]),
            "fi ﬁ h i ij ĳ ı l"
        );
        assert_eq!(
            sorted(&["b", "A", "a", "á", "B", "_x", "-x", "10", "9"]),
            "_x -x 10 9 a A á b B"
        );
    }
}
