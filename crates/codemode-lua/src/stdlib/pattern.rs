//! The Lua pattern matcher (Lua 5.4 manual §6.4.1) used by `string.find`, `match`, `gmatch` and
//! `gsub` (wired in [`crate::stdlib::string`]).
//!
//! Supported: `.`, the classes `%a %c %d %g %l %p %s %u %w %x` (and the deprecated `%z`; ASCII, the C locale) and their
//! upper-case complements, escapes (`%` followed by a non-alphanumeric byte), sets `[...]` with
//! ranges, classes and `^`, the quantifiers `* + - ?`, the anchors `^` (handled by the caller)
//! and `$`, captures including position captures `()`, back-references `%1`-`%9`, `%bxy` and
//! `%f[set]`.
//!
//! Bounds: the matcher recurses on the Rust stack only for captures, quantified items
//! followed by more pattern, and back-tracking; that recursion is limited to
//! [`MAX_PATTERN_DEPTH`](crate::limits::MAX_PATTERN_DEPTH) levels ("pattern too complex", like Lua's `MAXCCALLS`). Repetition of a
//! single item is a loop. Every step (one byte tried against one pattern item, one recursive
//! call) counts one unit of work; every [`WORK_CHUNK_ELEMS`](crate::limits::WORK_CHUNK_ELEMS) units the caller's `check` runs
//! (deadline, fuel), so exponential back-tracking ends with the execution's limits instead of
//! hanging. At most [`MAX_CAPTURES`](crate::limits::MAX_CAPTURES) captures ("too many captures").

use crate::limits::{MAX_CAPTURES, MAX_PATTERN_DEPTH, WORK_CHUNK_ELEMS};
use crate::value::Throw;

/// The escape byte of patterns and replacement strings.
const L_ESC: u8 = b'%';
/// Bytes that make a pattern non-plain (`string.find` searches plainly without them).
pub(crate) const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Length marker of a capture still open.
const CAP_UNFINISHED: isize = -1;
/// Length marker of a position capture `()`.
const CAP_POSITION: isize = -2;

/// Why a match stopped early.
#[derive(Debug)]
pub(crate) enum PatError {
    /// A malformed pattern or capture use: Lua's message ("malformed pattern (ends with '%')").
    Lua(String),
    /// The caller's `check` failed (deadline, fuel): pass it on.
    Limit(Throw),
}

impl From<Throw> for PatError {
    fn from(t: Throw) -> Self {
        PatError::Limit(t)
    }
}

/// One capture after a successful match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Capture {
    /// A position capture: the 1-based position in the subject.
    Position(usize),
    /// A substring `src[start..end]`.
    Span(usize, usize),
}

/// Matching state for one subject and one pattern. `check(work)` is called with the total work
/// done so far every [`WORK_CHUNK_ELEMS`] units; its error stops the match.
pub(crate) struct Matcher<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    capture: [(usize, isize); MAX_CAPTURES],
    depth: usize,
    work: u64,
    next_check: u64,
    check: &'a mut dyn FnMut(u64) -> Result<(), Throw>,
}

type MResult<T> = Result<T, PatError>;

fn err<T>(msg: &str) -> MResult<T> {
    Err(PatError::Lua(msg.to_string()))
}

/// Does byte `c` belong to class letter `cl` (`a`, `D`, ...)? Other letters match themselves.
pub(crate) fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        // C's isspace: also the vertical tab.
        b's' => c.is_ascii_whitespace() || c == 0x0b,
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        // Deprecated in Lua 5.2 but still accepted by 5.4: the zero byte.
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_uppercase() { !res } else { res }
}

impl<'a> Matcher<'a> {
    /// A matcher of `pat` against `src`.
    pub(crate) fn new(
        src: &'a [u8],
        pat: &'a [u8],
        check: &'a mut dyn FnMut(u64) -> Result<(), Throw>,
    ) -> Matcher<'a> {
        Matcher {
            src,
            pat,
            level: 0,
            capture: [(0, 0); MAX_CAPTURES],
            depth: MAX_PATTERN_DEPTH,
            work: 0,
            next_check: WORK_CHUNK_ELEMS as u64,
            check,
        }
    }

    /// Units of work done so far (one per step); the caller charges them as fuel.
    pub(crate) fn work(&self) -> u64 {
        self.work
    }

    /// Try to match the pattern starting at pattern index `p` against the subject at `s`
    /// (0-based); the end of the match on success. Captures are reset first.
    pub(crate) fn match_at(&mut self, s: usize, p: usize) -> MResult<Option<usize>> {
        self.level = 0;
        self.depth = MAX_PATTERN_DEPTH;
        self.do_match(s, p)
    }

    /// Number of captures of the last successful match (0: only the whole match).
    pub(crate) fn level(&self) -> usize {
        self.level
    }

    /// Capture `i` (0-based) of a match `s..e`: the whole match when there are no captures and
    /// `i == 0`; Lua's errors otherwise.
    pub(crate) fn capture(&self, i: usize, s: usize, e: usize) -> MResult<Capture> {
        if i >= self.level {
            if i != 0 {
                return Err(PatError::Lua(format!("invalid capture index %{}", i + 1)));
            }
            return Ok(Capture::Span(s, e));
        }
        let (init, len) = self.capture[i];
        match len {
            CAP_UNFINISHED => err("unfinished capture"),
            CAP_POSITION => Ok(Capture::Position(init + 1)),
            l => Ok(Capture::Span(init, init + l as usize)),
        }
    }

    /// All captures of a match `s..e` (the whole match if the pattern has none and `whole`).
    pub(crate) fn captures(&self, s: usize, e: usize, whole: bool) -> MResult<Vec<Capture>> {
        let n = if self.level == 0 && whole {
            1
        } else {
            self.level
        };
        (0..n).map(|i| self.capture(i, s, e)).collect()
    }

    #[inline]
    fn step(&mut self, units: u64) -> MResult<()> {
        self.work += units;
        if self.work >= self.next_check {
            self.next_check = self.work + WORK_CHUNK_ELEMS as u64;
            (self.check)(self.work)?;
        }
        Ok(())
    }

    fn do_match(&mut self, s: usize, p: usize) -> MResult<Option<usize>> {
        if self.depth == 0 {
            return err("pattern too complex");
        }
        self.depth -= 1;
        let r = self.match_loop(s, p);
        self.depth += 1;
        r
    }

    fn match_loop(&mut self, mut s: usize, mut p: usize) -> MResult<Option<usize>> {
        let plen = self.pat.len();
        loop {
            self.step(1)?;
            if p == plen {
                return Ok(Some(s));
            }
            match self.pat[p] {
                b'(' => {
                    return if self.pat.get(p + 1) == Some(&b')') {
                        self.start_capture(s, p + 2, CAP_POSITION)
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)
                    };
                }
                b')' => return self.end_capture(s, p + 1),
                b'$' if p + 1 == plen => {
                    return Ok(if s == self.src.len() { Some(s) } else { None });
                }
                L_ESC if p + 1 < plen && self.pat[p + 1] == b'b' => {
                    match self.match_balance(s, p + 2)? {
                        Some(ns) => {
                            s = ns;
                            p += 4;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                L_ESC if p + 1 < plen && self.pat[p + 1] == b'f' => {
                    p += 2;
                    if self.pat.get(p) != Some(&b'[') {
                        return err("missing '[' after '%f' in pattern");
                    }
                    let ep = self.class_end(p)?;
                    let prev = if s == 0 { 0 } else { self.src[s - 1] };
                    let cur = self.src.get(s).copied().unwrap_or(0);
                    if !self.match_bracket(prev, p, ep - 1) && self.match_bracket(cur, p, ep - 1) {
                        p = ep;
                        continue;
                    }
                    return Ok(None);
                }
                L_ESC if p + 1 < plen && self.pat[p + 1].is_ascii_digit() => {
                    match self.match_backref(s, self.pat[p + 1])? {
                        Some(ns) => {
                            s = ns;
                            p += 2;
                            continue;
                        }
                        None => return Ok(None),
                    }
                }
                _ => {}
            }
            // A single item, maybe quantified.
            let ep = self.class_end(p)?;
            let q = self.pat.get(ep).copied();
            if !self.single_match(s, p, ep) {
                if matches!(q, Some(b'*' | b'?' | b'-')) {
                    p = ep + 1;
                    continue;
                }
                return Ok(None);
            }
            match q {
                Some(b'?') => {
                    if let Some(r) = self.do_match(s + 1, ep + 1)? {
                        return Ok(Some(r));
                    }
                    p = ep + 1;
                }
                Some(b'+') => return self.max_expand(s + 1, p, ep),
                Some(b'*') => return self.max_expand(s, p, ep),
                Some(b'-') => return self.min_expand(s, p, ep),
                _ => {
                    s += 1;
                    p = ep;
                }
            }
        }
    }

    /// Index just past the single item starting at `p`.
    fn class_end(&self, mut p: usize) -> MResult<usize> {
        let pat = self.pat;
        let c = pat[p];
        p += 1;
        if c == L_ESC {
            if p >= pat.len() {
                return err("malformed pattern (ends with '%')");
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if pat.get(p) == Some(&b'^') {
                p += 1;
            }
            // The first byte of the set is never its end (`[]]` is a set holding `]`).
            loop {
                if p >= pat.len() {
                    return err("malformed pattern (missing ']')");
                }
                let cc = pat[p];
                p += 1;
                if cc == L_ESC && p < pat.len() {
                    p += 1;
                }
                if pat.get(p) == Some(&b']') {
                    return Ok(p + 1);
                }
            }
        }
        Ok(p)
    }

    /// Does `c` belong to the set `pat[p..=ec]` (`p` at `[`, `ec` at its `]`)?
    fn match_bracket(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let pat = self.pat;
        let mut sig = true;
        if pat[p + 1] == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                return !sig;
            }
            if pat[p] == L_ESC {
                p += 1;
                if match_class(c, pat[p]) {
                    return sig;
                }
            } else if pat[p + 1] == b'-' && p + 2 < ec {
                p += 2;
                if pat[p - 2] <= c && c <= pat[p] {
                    return sig;
                }
            } else if pat[p] == c {
                return sig;
            }
        }
    }

    /// Does the subject byte at `s` match the item `pat[p..ep]`?
    fn single_match(&self, s: usize, p: usize, ep: usize) -> bool {
        let Some(&c) = self.src.get(s) else {
            return false;
        };
        match self.pat[p] {
            b'.' => true,
            L_ESC => match_class(c, self.pat[p + 1]),
            b'[' => self.match_bracket(c, p, ep - 1),
            pc => pc == c,
        }
    }

    /// Greedy repetition: count the run (a loop), then try the rest from the longest.
    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> MResult<Option<usize>> {
        let mut i = 0usize;
        while self.single_match(s + i, p, ep) {
            i += 1;
            self.step(1)?;
        }
        loop {
            if let Some(r) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(r));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    /// Lazy repetition: try the rest first, then one more item.
    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> MResult<Option<usize>> {
        loop {
            if let Some(r) = self.do_match(s, ep + 1)? {
                return Ok(Some(r));
            }
            if self.single_match(s, p, ep) {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> MResult<Option<usize>> {
        if self.level >= MAX_CAPTURES {
            return err("too many captures");
        }
        self.capture[self.level] = (s, what);
        self.level += 1;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.level -= 1;
        }
        Ok(r)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> MResult<Option<usize>> {
        let Some(l) = (0..self.level)
            .rev()
            .find(|&i| self.capture[i].1 == CAP_UNFINISHED)
        else {
            return err("invalid pattern capture");
        };
        self.capture[l].1 = (s - self.capture[l].0) as isize;
        let r = self.do_match(s, p)?;
        if r.is_none() {
            self.capture[l].1 = CAP_UNFINISHED;
        }
        Ok(r)
    }

    fn match_balance(&mut self, s: usize, p: usize) -> MResult<Option<usize>> {
        if p + 1 >= self.pat.len() {
            return err("malformed pattern (missing arguments to '%b')");
        }
        let (b, e) = (self.pat[p], self.pat[p + 1]);
        if self.src.get(s) != Some(&b) {
            return Ok(None);
        }
        let mut cont = 1usize;
        let mut i = s + 1;
        while i < self.src.len() {
            let c = self.src[i];
            if c == e {
                cont -= 1;
                if cont == 0 {
                    self.step((i - s) as u64 / 16)?;
                    return Ok(Some(i + 1));
                }
            } else if c == b {
                cont += 1;
            }
            i += 1;
            if i.is_multiple_of(4096) {
                self.step(256)?;
            }
        }
        Ok(None)
    }

    fn match_backref(&mut self, s: usize, d: u8) -> MResult<Option<usize>> {
        let l = (d as isize) - (b'1' as isize);
        if l < 0 || l as usize >= self.level || self.capture[l as usize].1 == CAP_UNFINISHED {
            return Err(PatError::Lua(format!("invalid capture index %{}", l + 1)));
        }
        let (init, len) = self.capture[l as usize];
        if len < 0 {
            return Ok(None);
        }
        let len = len as usize;
        // The length test is free; charge only the bytes actually compared.
        if self.src.len() - s < len {
            self.step(1)?;
            return Ok(None);
        }
        let a = &self.src[init..init + len];
        let b = &self.src[s..s + len];
        let same = a.iter().zip(b).position(|(x, y)| x != y);
        self.step(1 + same.unwrap_or(len) as u64 / 16)?;
        if same.is_none() {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(src: &str, pat: &str) -> MResult<Option<(usize, usize, Vec<Capture>)>> {
        let mut ok = |_: u64| Ok(());
        let mut m = Matcher::new(src.as_bytes(), pat.as_bytes(), &mut ok);
        let (anchor, p0) = if pat.starts_with('^') {
            (true, 1)
        } else {
            (false, 0)
        };
        let mut s = 0;
        loop {
            if let Some(e) = m.match_at(s, p0)? {
                return Ok(Some((s, e, m.captures(s, e, false)?)));
            }
            s += 1;
            if anchor || s > src.len() {
                return Ok(None);
            }
        }
    }

    #[test]
    fn basics() {
        assert_eq!(find("hello world", "o w").unwrap().unwrap().0, 4);
        assert_eq!(
            find("key = value", "(%w+)%s*=%s*(%w+)").unwrap().unwrap().2,
            vec![Capture::Span(0, 3), Capture::Span(6, 11)]
        );
        assert_eq!(
            find("abc", "()b()").unwrap().unwrap().2,
            vec![Capture::Position(2), Capture::Position(3)]
        );
        assert!(find("abc", "^b").unwrap().is_none());
        assert_eq!(find("f(a(b)c)d", "%b()").unwrap().unwrap().1, 8);
        assert_eq!(find("THE (quick) fox", "%f[%a]%a+").unwrap().unwrap().1, 3);
        assert_eq!(find("abab", "(ab)%1$").unwrap().unwrap().1, 4);
        assert_eq!(find("a]b", "[]]").unwrap().unwrap().0, 1);
        assert_eq!(find("x\x0by", "%s").unwrap().unwrap().0, 1);
    }

    #[test]
    fn errors() {
        let msg = |p: &str| match find("abc", p) {
            Err(PatError::Lua(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(msg("%"), "malformed pattern (ends with '%')");
        assert_eq!(msg("[a"), "malformed pattern (missing ']')");
        assert_eq!(msg("%1"), "invalid capture index %1");
        assert_eq!(msg("a)"), "invalid pattern capture");
        assert_eq!(msg("%b"), "malformed pattern (missing arguments to '%b')");
        assert_eq!(msg("%fa"), "missing '[' after '%f' in pattern");
        assert_eq!(msg(&"(".repeat(40)), "too many captures");
        let deep = "a?".repeat(300);
        let mut ok = |_: u64| Ok(());
        let src = "a".repeat(300);
        let mut m = Matcher::new(src.as_bytes(), deep.as_bytes(), &mut ok);
        assert!(
            matches!(m.match_at(0, 0), Err(PatError::Lua(ref s)) if s == "pattern too complex")
        );
    }

    #[test]
    fn deepest_match_fits_a_small_stack() {
        // MAX_PATTERN_DEPTH levels of every recursive shape on a 512 KiB thread (debug build;
        // about 2 KiB per level), leaving most of a worker's 2 MiB stack to the VM's nesting.
        let h = std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(|| {
                let n = MAX_PATTERN_DEPTH - 2;
                let src = "a".repeat(n);
                for pat in [
                    "a?".repeat(n),
                    "a*".repeat(n),
                    "a-".repeat(n) + "$",
                    "(a)".repeat(MAX_CAPTURES) + &"a?".repeat(n - 2 * MAX_CAPTURES),
                ] {
                    let mut ok = |_: u64| Ok(());
                    let mut m = Matcher::new(src.as_bytes(), pat.as_bytes(), &mut ok);
                    assert!(m.match_at(0, 0).unwrap().is_some(), "{pat}");
                }
            })
            .unwrap();
        h.join().unwrap();
    }

    #[test]
    fn work_is_checked() {
        let src = "a".repeat(2000);
        let mut calls = 0u32;
        let mut check = |w: u64| {
            calls += 1;
            if w > 100_000 {
                Err(Throw::msg("stop"))
            } else {
                Ok(())
            }
        };
        let mut m = Matcher::new(src.as_bytes(), b".-.-.-x", &mut check);
        assert!(matches!(m.match_at(0, 0), Err(PatError::Limit(_))));
        assert!(m.work() > 100_000);
    }
}
