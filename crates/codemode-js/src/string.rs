//! Strings with UTF-16 semantics (length, indexing, lone surrogates) stored in one byte per
//! code unit when every unit is below 256 (tool JSON is nearly all ASCII) and two otherwise.

use std::fmt::Write as _;
use std::sync::Arc;

/// An immutable JavaScript string. The units are shared (`Arc`): a clone, as a builtin makes
/// of its receiver, costs no copy, so `s.slice(i, j)` on a 10 MB string is O(j − i).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JsStr {
    /// Every code unit below 256 (Latin-1), one byte each.
    Narrow(Arc<[u8]>),
    /// At least one code unit of 256 or more.
    Wide(Arc<[u16]>),
}

/// The one empty string's units, shared by every freed arena slot.
static EMPTY: std::sync::LazyLock<Arc<[u8]>> = std::sync::LazyLock::new(|| Arc::from(&[][..]));

/// The 256 one-unit narrow strings' units, shared: `s[i]`, `split("")` and one-character slices
/// make no allocation.
static UNITS: std::sync::LazyLock<Vec<Arc<[u8]>>> =
    std::sync::LazyLock::new(|| (0..=255u8).map(|b| Arc::from(&[b][..])).collect());

impl JsStr {
    /// The empty string, without an allocation.
    pub fn empty() -> JsStr {
        JsStr::Narrow(EMPTY.clone())
    }

    /// The string of a Rust `&str` (UTF-8 → UTF-16 units).
    pub fn from_str(s: &str) -> JsStr {
        if s.is_ascii() {
            return JsStr::Narrow(s.as_bytes().into());
        }
        Self::from_units(s.encode_utf16().collect())
    }

    /// The string of UTF-16 code units, stored narrow when possible.
    pub fn from_units(units: Vec<u16>) -> JsStr {
        if units.iter().all(|u| *u < 256) {
            JsStr::Narrow(units.iter().map(|u| *u as u8).collect())
        } else {
            JsStr::Wide(units.into())
        }
    }

    /// Length in UTF-16 code units.
    pub fn len(&self) -> usize {
        match self {
            JsStr::Narrow(b) => b.len(),
            JsStr::Wide(w) => w.len(),
        }
    }

    /// `true` for the empty string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code unit at `i` (`i < len`).
    pub fn at(&self, i: usize) -> u16 {
        match self {
            JsStr::Narrow(b) => b[i] as u16,
            JsStr::Wide(w) => w[i],
        }
    }

    /// Bytes the string occupies (for accounting).
    pub fn bytes(&self) -> usize {
        match self {
            JsStr::Narrow(b) => b.len(),
            JsStr::Wide(w) => w.len() * 2,
        }
    }

    /// Every code unit, in order.
    pub fn units(&self) -> Vec<u16> {
        (0..self.len()).map(|i| self.at(i)).collect()
    }

    /// Code units `from..to` as a new string.
    pub fn slice(&self, from: usize, to: usize) -> JsStr {
        match self {
            JsStr::Narrow(b) if to == from + 1 => JsStr::Narrow(UNITS[b[from] as usize].clone()),
            JsStr::Narrow(b) => JsStr::Narrow(b[from..to].into()),
            JsStr::Wide(w) => Self::from_units(w[from..to].to_vec()),
        }
    }

    /// `n` copies of the string, one after another, in its own width.
    pub fn repeat(&self, n: usize) -> JsStr {
        match self {
            JsStr::Narrow(b) => JsStr::Narrow(b.repeat(n).into()),
            JsStr::Wide(w) => JsStr::Wide(w.repeat(n).into()),
        }
    }

    /// The concatenation of `self` and `other`.
    pub fn concat(&self, other: &JsStr) -> JsStr {
        match (self, other) {
            (JsStr::Narrow(a), JsStr::Narrow(b)) => {
                let mut v = Vec::with_capacity(a.len() + b.len());
                v.extend_from_slice(a);
                v.extend_from_slice(b);
                JsStr::Narrow(v.into())
            }
            _ => {
                let mut v = self.units();
                v.extend(other.units());
                JsStr::Wide(v.into())
            }
        }
    }

    /// UTF-8 text; lone surrogates become U+FFFD (as the WHATWG USVString conversion).
    pub fn to_rust(&self) -> String {
        match self {
            JsStr::Narrow(b) if b.is_ascii() => String::from_utf8_lossy(b).into_owned(),
            JsStr::Narrow(b) => b.iter().map(|c| *c as char).collect(),
            JsStr::Wide(w) => char::decode_utf16(w.iter().copied())
                .map(|r| r.unwrap_or('\u{fffd}'))
                .collect(),
        }
    }

    /// [`JsStr::to_rust`], and whether a lone surrogate (half of a UTF-16 pair with no
    /// partner, which UTF-8 text cannot carry) became U+FFFD: one decoding for both.
    pub fn to_rust_lossy(&self) -> (String, bool) {
        match self {
            JsStr::Narrow(_) => (self.to_rust(), false),
            JsStr::Wide(w) => {
                let mut lone = false;
                let s = char::decode_utf16(w.iter().copied())
                    .map(|r| {
                        r.unwrap_or_else(|_| {
                            lone = true;
                            '\u{fffd}'
                        })
                    })
                    .collect();
                (s, lone)
            }
        }
    }

    /// The string as an array index (`"0"`, `"17"`; not `"01"` or `"4294967295"`).
    pub fn as_index(&self) -> Option<u32> {
        let n = self.len();
        if n == 0 || n > 10 {
            return None;
        }
        let mut v: u64 = 0;
        for i in 0..n {
            let c = self.at(i);
            if !(b'0' as u16..=b'9' as u16).contains(&c) || (i == 0 && c == b'0' as u16 && n > 1) {
                return None;
            }
            v = v * 10 + (c - b'0' as u16) as u64;
        }
        (v < u32::MAX as u64).then_some(v as u32)
    }

    /// The JSON text of the string (`JSON.stringify`'s quoting, lone surrogates as `\udXXX`).
    pub fn json_quote(&self, out: &mut String) {
        out.push('"');
        let n = self.len();
        let mut i = 0;
        while i < n {
            let u = self.at(i);
            match u {
                0x22 => out.push_str("\\\""),
                0x5c => out.push_str("\\\\"),
                0x08 => out.push_str("\\b"),
                0x0c => out.push_str("\\f"),
                0x0a => out.push_str("\\n"),
                0x0d => out.push_str("\\r"),
                0x09 => out.push_str("\\t"),
                u if u < 0x20 => {
                    let _ = write!(out, "\\u{u:04x}");
                }
                0xd800..=0xdbff if i + 1 < n && (0xdc00..=0xdfff).contains(&self.at(i + 1)) => {
                    let c =
                        0x10000 + (((u as u32) - 0xd800) << 10) + (self.at(i + 1) as u32 - 0xdc00);
                    out.push(char::from_u32(c).unwrap_or('\u{fffd}'));
                    i += 1;
                }
                0xd800..=0xdfff => {
                    let _ = write!(out, "\\u{u:04x}");
                }
                u => out.push(char::from_u32(u as u32).unwrap_or('\u{fffd}')),
            }
            i += 1;
        }
        out.push('"');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_semantics_in_two_widths() {
        let a = JsStr::from_str("abc");
        assert!(matches!(a, JsStr::Narrow(_)));
        let e = JsStr::from_str("a😀");
        assert!(matches!(e, JsStr::Wide(_)));
        assert_eq!(e.len(), 3);
        assert_eq!(e.at(1), 0xd83d);
        assert_eq!(e.slice(0, 2).to_rust(), "a\u{fffd}");
        assert_eq!(a.concat(&e).to_rust(), "abca😀");
        assert_eq!(JsStr::from_str("é").bytes(), 1);
    }

    #[test]
    fn canonical_indices() {
        assert_eq!(JsStr::from_str("17").as_index(), Some(17));
        assert_eq!(JsStr::from_str("0").as_index(), Some(0));
        assert_eq!(JsStr::from_str("01").as_index(), None);
        assert_eq!(JsStr::from_str("4294967295").as_index(), None);
        assert_eq!(JsStr::from_str("-1").as_index(), None);
    }

    #[test]
    fn json_quoting() {
        let mut out = String::new();
        JsStr::from_units(vec![0x61, 0x22, 0x0a, 0x01, 0xd800]).json_quote(&mut out);
        assert_eq!(out, "\"a\\\"\\n\\u0001\\ud800\"");
    }
}
