//! Strings with UTF-16 semantics (length, indexing, lone surrogates) stored in one byte per
//! code unit when every unit is below 256 (tool JSON is nearly all ASCII) and two otherwise.

use std::fmt::Write as _;
use std::sync::Arc;

/// An immutable JavaScript string. The units are shared (`Arc`): a clone, as a builtin makes
/// of its receiver, costs no copy, so `s.slice(i, j)` on a 10 MB string is O(j − i). A long
/// concatenation is a [`Rope`] (`s += piece` in a loop costs each append its piece, not a copy
/// of `s`), written out once, when its units are first read.
#[derive(Clone)]
pub enum JsStr {
    /// Every code unit below 256 (Latin-1), one byte each.
    Narrow(Arc<[u8]>),
    /// At least one code unit of 256 or more.
    Wide(Arc<[u16]>),
    /// A concatenation not written out yet.
    Rope(Arc<Rope>),
}

/// The units of a flat string.
pub enum View<'a> {
    Narrow(&'a [u8]),
    Wide(&'a [u16]),
}

/// Concatenations at least this long (in code units) are ropes; shorter ones are copied.
pub const ROPE_MIN_UNITS: usize = 256;
/// The fewest code units per node a rope keeps on average (see [`JsStr::join`]).
pub const ROPE_PIECE_UNITS: usize = 32;
/// Bytes a rope node holds (charged per node besides the units: [`JsStr::bytes`]).
pub const ROPE_NODE_BYTES: usize = std::mem::size_of::<Rope>() + 16;

/// Two strings joined, written out into [`Rope::flat`] on first need (then its two parts are
/// let go). Reading it costs one pass over the parts, with an explicit stack (a rope of a
/// million appends is a million deep); dropping one is iterative too.
pub struct Rope {
    len: usize,
    wide: bool,
    /// Nodes in this rope: 1 + its parts'.
    nodes: usize,
    flat: std::sync::OnceLock<JsStr>,
    parts: std::sync::Mutex<Option<(JsStr, JsStr)>>,
    /// The run's count of bytes written out ([`crate::heap::Heap::flattened`]).
    written: Arc<std::sync::atomic::AtomicUsize>,
}

impl Rope {
    fn parts(&self) -> Option<(JsStr, JsStr)> {
        self.parts.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The units, written out (once).
    fn flat(&self) -> &JsStr {
        self.flat.get_or_init(|| {
            let parts = self.parts.lock().unwrap_or_else(|e| e.into_inner()).take();
            let mut stack: Vec<JsStr> = match parts {
                Some((a, b)) => vec![b, a],
                None => Vec::new(),
            };
            let mut narrow: Vec<u8> = Vec::new();
            let mut wide: Vec<u16> = Vec::new();
            if self.wide {
                wide.reserve_exact(self.len);
            } else {
                narrow.reserve_exact(self.len);
            }
            while let Some(s) = stack.pop() {
                let piece = match &s {
                    JsStr::Rope(r) => match r.flat.get() {
                        Some(f) => f.clone(),
                        None => {
                            if let Some((a, b)) = r.parts() {
                                stack.push(b);
                                stack.push(a);
                            }
                            continue;
                        }
                    },
                    flat => flat.clone(),
                };
                match (piece.view(), self.wide) {
                    (View::Narrow(b), false) => narrow.extend_from_slice(b),
                    (View::Narrow(b), true) => wide.extend(b.iter().map(|u| *u as u16)),
                    (View::Wide(w), _) => wide.extend_from_slice(w),
                }
            }
            self.written.fetch_add(
                self.len * if self.wide { 2 } else { 1 },
                std::sync::atomic::Ordering::Relaxed,
            );
            if self.wide {
                JsStr::Wide(wide.into())
            } else {
                JsStr::Narrow(narrow.into())
            }
        })
    }
}

impl Rope {
    /// The two parts, taken (what a drop or a write-out lets go).
    fn take_parts(&mut self) -> Option<(JsStr, JsStr)> {
        self.parts
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }
}

impl Drop for Rope {
    /// Iterative: a rope a million appends deep would overflow the stack dropped recursively.
    fn drop(&mut self) {
        let mut stack = Vec::new();
        let mut parts = self.take_parts();
        loop {
            if let Some((a, b)) = parts.take() {
                stack.push(a);
                stack.push(b);
            }
            let Some(s) = stack.pop() else { break };
            if let JsStr::Rope(r) = s
                && let Ok(mut node) = Arc::try_unwrap(r)
            {
                parts = node.take_parts();
            }
        }
    }
}

impl std::fmt::Debug for JsStr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.to_rust())
    }
}

impl PartialEq for JsStr {
    fn eq(&self, other: &JsStr) -> bool {
        match (self.view(), other.view()) {
            (View::Narrow(a), View::Narrow(b)) => a == b,
            (View::Wide(a), View::Wide(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for JsStr {}

impl std::hash::Hash for JsStr {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        match self.view() {
            View::Narrow(b) => b.hash(h),
            View::Wide(w) => w.hash(h),
        }
    }
}

impl PartialOrd for JsStr {
    fn partial_cmp(&self, other: &JsStr) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for JsStr {
    /// By code units (the order of `<` on strings).
    fn cmp(&self, other: &JsStr) -> std::cmp::Ordering {
        match (self.view(), other.view()) {
            (View::Narrow(a), View::Narrow(b)) => a.cmp(b),
            (View::Wide(a), View::Wide(b)) => a.cmp(b),
            _ => (0..self.len())
                .map(|i| self.at(i))
                .cmp((0..other.len()).map(|i| other.at(i))),
        }
    }
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

    /// Length in UTF-16 code units (a rope's without writing it out).
    pub fn len(&self) -> usize {
        match self {
            JsStr::Narrow(b) => b.len(),
            JsStr::Wide(w) => w.len(),
            JsStr::Rope(r) => r.len,
        }
    }

    /// The units (a rope is written out first, once).
    pub fn view(&self) -> View<'_> {
        match self {
            JsStr::Narrow(b) => View::Narrow(b),
            JsStr::Wide(w) => View::Wide(w),
            JsStr::Rope(r) => r.flat().view(),
        }
    }

    /// `a + b` as a rope when it is at least [`ROPE_MIN_UNITS`] long, else copied.
    pub fn join(a: &JsStr, b: &JsStr, written: &Arc<std::sync::atomic::AtomicUsize>) -> JsStr {
        let len = a.len() + b.len();
        if len < ROPE_MIN_UNITS || b.is_empty() || a.is_empty() {
            return a.concat(b);
        }
        // A left part written out already, or one whose pieces average under
        // ROPE_PIECE_UNITS, joins as its flat units: the chain then holds at most one node
        // per ROPE_PIECE_UNITS units (a loop of one-character appends writes its string out
        // every len/32 appends: amortized O(ROPE_PIECE_UNITS) per append).
        let a = match a {
            JsStr::Rope(r) if r.flat.get().is_some() || (r.nodes + 1) * ROPE_PIECE_UNITS > len => {
                r.flat().clone()
            }
            other => other.clone(),
        };
        let a = &a;
        let nodes = |s: &JsStr| match s {
            JsStr::Rope(r) => r.nodes,
            _ => 0,
        };
        let wide = |s: &JsStr| match s {
            JsStr::Narrow(_) => false,
            JsStr::Wide(_) => true,
            JsStr::Rope(r) => r.wide,
        };
        JsStr::Rope(Arc::new(Rope {
            len,
            wide: wide(a) || wide(b),
            nodes: 1 + nodes(a) + nodes(b),
            flat: std::sync::OnceLock::new(),
            parts: std::sync::Mutex::new(Some((a.clone(), b.clone()))),
            written: written.clone(),
        }))
    }

    /// `true` for the empty string.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The code unit at `i` (`i < len`).
    pub fn at(&self, i: usize) -> u16 {
        match self.view() {
            View::Narrow(b) => b[i] as u16,
            View::Wide(w) => w[i],
        }
    }

    /// Bytes the string occupies (for accounting): a rope's as written out, and its nodes.
    pub fn bytes(&self) -> usize {
        match self {
            JsStr::Narrow(b) => b.len(),
            JsStr::Wide(w) => w.len() * 2,
            JsStr::Rope(r) => r.len * if r.wide { 2 } else { 1 } + r.nodes * ROPE_NODE_BYTES,
        }
    }

    /// Every code unit, in order.
    pub fn units(&self) -> Vec<u16> {
        (0..self.len()).map(|i| self.at(i)).collect()
    }

    /// Code units `from..to` as a new string.
    pub fn slice(&self, from: usize, to: usize) -> JsStr {
        match self.view() {
            View::Narrow(b) if to == from + 1 => JsStr::Narrow(UNITS[b[from] as usize].clone()),
            View::Narrow(b) => JsStr::Narrow(b[from..to].into()),
            View::Wide(w) => Self::from_units(w[from..to].to_vec()),
        }
    }

    /// `n` copies of the string, one after another, in its own width.
    pub fn repeat(&self, n: usize) -> JsStr {
        match self.view() {
            View::Narrow(b) => JsStr::Narrow(b.repeat(n).into()),
            View::Wide(w) => JsStr::Wide(w.repeat(n).into()),
        }
    }

    /// The concatenation of `self` and `other`.
    pub fn concat(&self, other: &JsStr) -> JsStr {
        match (self.view(), other.view()) {
            (View::Narrow(a), View::Narrow(b)) => {
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
        match self.view() {
            View::Narrow(b) if b.is_ascii() => String::from_utf8_lossy(b).into_owned(),
            View::Narrow(b) => b.iter().map(|c| *c as char).collect(),
            View::Wide(w) => char::decode_utf16(w.iter().copied())
                .map(|r| r.unwrap_or('\u{fffd}'))
                .collect(),
        }
    }

    /// [`JsStr::to_rust`], and whether a lone surrogate (half of a UTF-16 pair with no
    /// partner, which UTF-8 text cannot carry) became U+FFFD: one decoding for both.
    pub fn to_rust_lossy(&self) -> (String, bool) {
        match self.view() {
            View::Narrow(_) => (self.to_rust(), false),
            View::Wide(w) => {
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
    fn ropes_read_as_their_units_and_drop_without_recursion() {
        let written = Arc::default();
        let piece = JsStr::from_str(&"x".repeat(300));
        let mut s = JsStr::empty();
        for _ in 0..200_000 {
            s = JsStr::join(&s, &piece, &written);
        }
        assert!(matches!(s, JsStr::Rope(_)));
        assert_eq!(s.len(), 60_000_000);
        assert_eq!(s.at(59_999_999), b'x' as u16);
        let w = JsStr::join(
            &JsStr::from_str(&"a".repeat(300)),
            &JsStr::from_str("é😀"),
            &written,
        );
        assert_eq!(w.len(), 303);
        assert_eq!(w.to_rust(), format!("{}é😀", "a".repeat(300)));
        assert_eq!(w, JsStr::from_str(&format!("{}é😀", "a".repeat(300))));
        let t = JsStr::join(&w, &piece, &written);
        assert_eq!(t.slice(300, 303).to_rust(), "é😀");
        drop(s);
        drop(t);
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
