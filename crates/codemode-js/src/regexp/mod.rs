//! The RegExp engine: patterns parsed by `oxc_regular_expression` (after a nesting pre-scan,
//! so no pattern overflows the Rust stack), compiled to a small program (`compile.rs`) and
//! run by a backtracking matcher whose backtrack stack is data (`exec.rs`): every step
//! charges fuel, the stack is byte-accounted, and a match that runs out of fuel stops and
//! continues in the next slice. Sets, `\p{…}` tables and case folding: `classes.rs`.
//!
//! The natives and the object model are in `builtins/regexp.rs`; the spec algorithms that
//! call user code (`exec` via `lastIndex`, `Symbol.replace`, `split`'s species) in
//! `prelude/regexp.js`.

pub mod classes;
pub mod compile;
pub mod exec;

pub use compile::{Regex, compile};
pub use exec::{Exec, Outcome};

/// The flags of a pattern, parsed from `dgimsuyv`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub has_indices: bool,
    pub global: bool,
    pub ignore_case: bool,
    pub multiline: bool,
    pub dot_all: bool,
    pub unicode: bool,
    pub unicode_sets: bool,
    pub sticky: bool,
}

impl Flags {
    /// Parse a flags string; `None` for an unknown or repeated flag, or `u` with `v`.
    pub fn parse(s: &[u16]) -> Option<Flags> {
        let mut f = Flags::default();
        for &c in s {
            let slot = match c {
                0x64 => &mut f.has_indices,
                0x67 => &mut f.global,
                0x69 => &mut f.ignore_case,
                0x6D => &mut f.multiline,
                0x73 => &mut f.dot_all,
                0x75 => &mut f.unicode,
                0x76 => &mut f.unicode_sets,
                0x79 => &mut f.sticky,
                _ => return None,
            };
            if *slot {
                return None;
            }
            *slot = true;
        }
        if f.unicode && f.unicode_sets {
            return None;
        }
        Some(f)
    }

    /// The canonical flags string (`flags` getter order: `dgimsuvy`).
    pub fn text(self) -> String {
        let mut s = String::new();
        for (on, c) in [
            (self.has_indices, 'd'),
            (self.global, 'g'),
            (self.ignore_case, 'i'),
            (self.multiline, 'm'),
            (self.dot_all, 's'),
            (self.unicode, 'u'),
            (self.unicode_sets, 'v'),
            (self.sticky, 'y'),
        ] {
            if on {
                s.push(c);
            }
        }
        s
    }

    /// `u` or `v`: the pattern and the input are read as code points.
    pub fn full_unicode(self) -> bool {
        self.unicode || self.unicode_sets
    }
}

/// Read-only access to a subject string's code units (one or two bytes each).
pub trait Units {
    /// Length in code units.
    fn len(&self) -> usize;
    /// The unit at `i < len`.
    fn at(&self, i: usize) -> u16;
}

impl Units for [u8] {
    #[inline]
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
    #[inline]
    fn at(&self, i: usize) -> u16 {
        self[i] as u16
    }
}

impl Units for [u16] {
    #[inline]
    fn len(&self) -> usize {
        <[u16]>::len(self)
    }
    #[inline]
    fn at(&self, i: usize) -> u16 {
        self[i]
    }
}

#[cfg(test)]
mod tests;
