//! The matcher: a backtracking interpreter of [`Inst`]s whose backtrack stack is a `Vec` of
//! [`Entry`]s (choice points and undo records), never the Rust stack. Every instruction and
//! every backtrack step costs one unit of fuel; out of fuel, [`run`] returns
//! [`Outcome::OutOfFuel`] with the whole state in [`Exec`], and the next call continues
//! where it stopped. Captures and registers are restored from undo records, so a choice
//! point is two words however many groups the pattern has.

use super::Units;
use super::classes::{canon_upper, fold_rep, is_line_terminator};
use super::compile::{Assert, Atom, INF, Inst, Regex};

/// An unset capture slot.
pub const UNSET: u32 = u32::MAX;

/// One backtrack-stack entry.
#[derive(Clone, Copy, Debug)]
enum Entry {
    /// Resume at `pc` with the position `pos`.
    Choice { pc: u32, pos: u32 },
    /// Undo: capture slot `slot` was `old`.
    Cap { slot: u32, old: u32 },
    /// Undo: register `r` was `old`.
    Reg { r: u32, old: u64 },
    /// A negative lookaround's body failed: it succeeds; continue at `pc`, `pos`.
    NegLook { pc: u32, pos: u32 },
    /// The greedy repeat at `rep` may give back characters down to `min_pos`.
    Greedy { rep: u32, min_pos: u32, pos: u32 },
    /// The lazy repeat at `rep` may take one more character (it has taken `count`).
    Lazy { rep: u32, pos: u32, count: u32 },
}

/// Bytes one backtrack entry occupies (what the stack is charged per entry).
pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

/// How a call of [`run`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A match: [`Exec::caps`] holds it.
    Match,
    /// No match from the start position on (or at it, when sticky).
    NoMatch,
    /// The fuel ran out; call again to continue.
    OutOfFuel,
    /// The backtrack stack reached its bound.
    StackLimit,
}

/// A match in progress (resumable).
#[derive(Clone, Debug, Default)]
pub struct Exec {
    /// The start position of the current attempt.
    pub start: usize,
    /// Capture slots (two per group, [`UNSET`] when unset), valid after a match.
    pub caps: Vec<u32>,
    regs: Vec<u64>,
    stack: Vec<Entry>,
    pc: u32,
    pos: usize,
    in_attempt: bool,
}

impl Exec {
    /// A search from `start`.
    pub fn new(re: &Regex, start: usize) -> Exec {
        Exec {
            start,
            caps: vec![UNSET; re.ncaps * 2],
            regs: vec![0; re.nregs],
            stack: Vec::new(),
            pc: 0,
            pos: start,
            in_attempt: false,
        }
    }

    /// Bytes the backtrack stack holds now.
    pub fn stack_bytes(&self) -> usize {
        self.stack.capacity() * ENTRY_BYTES
    }

    /// Release the backtrack stack (after a match or failure).
    pub fn drop_stack(&mut self) {
        self.stack = Vec::new();
    }
}

#[inline]
fn is_high(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

#[inline]
fn is_low(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// The character at `pos` reading forward: (value, next position).
#[inline]
fn next<S: Units + ?Sized>(s: &S, pos: usize, uni: bool) -> Option<(u32, usize)> {
    if pos >= s.len() {
        return None;
    }
    let u = s.at(pos);
    if uni && is_high(u) && pos + 1 < s.len() {
        let l = s.at(pos + 1);
        if is_low(l) {
            let c = 0x10000 + (((u as u32) - 0xD800) << 10) + (l as u32 - 0xDC00);
            return Some((c, pos + 2));
        }
    }
    Some((u as u32, pos + 1))
}

/// The character before `pos` reading backward: (value, previous position).
#[inline]
fn prev<S: Units + ?Sized>(s: &S, pos: usize, uni: bool) -> Option<(u32, usize)> {
    if pos == 0 {
        return None;
    }
    let u = s.at(pos - 1);
    if uni && is_low(u) && pos >= 2 {
        let h = s.at(pos - 2);
        if is_high(h) {
            let c = 0x10000 + (((h as u32) - 0xD800) << 10) + (u as u32 - 0xDC00);
            return Some((c, pos - 2));
        }
    }
    Some((u as u32, pos - 1))
}

#[inline]
fn atom_ok(re: &Regex, a: Atom, c: u32) -> bool {
    match a {
        Atom::Char(x) => c == x,
        Atom::Set(i) => re.sets[i as usize].has(c),
        Atom::Any => true,
        Atom::AnyNoNl => !is_line_terminator(c),
    }
}

#[inline]
fn step<S: Units + ?Sized>(
    re: &Regex,
    s: &S,
    a: Atom,
    pos: usize,
    back: bool,
    uni: bool,
) -> Option<usize> {
    let (c, np) = if back {
        prev(s, pos, uni)?
    } else {
        next(s, pos, uni)?
    };
    atom_ok(re, a, c).then_some(np)
}

fn is_word(c: u16, ui: bool) -> bool {
    matches!(c, 0x30..=0x39 | 0x41..=0x5A | 0x5F | 0x61..=0x7A)
        || (ui && (c == 0x17F || c == 0x212A))
}

/// Whether `s[a..a+len]` equals `s[b..b+len]` (case-folded when `fold`).
fn same<S: Units + ?Sized>(s: &S, a: usize, b: usize, len: usize, fold: bool, uni: bool) -> bool {
    if !fold {
        return (0..len).all(|i| s.at(a + i) == s.at(b + i));
    }
    if !uni {
        return (0..len).all(|i| {
            let (x, y) = (s.at(a + i) as u32, s.at(b + i) as u32);
            x == y || canon_upper(x) == canon_upper(y)
        });
    }
    let (mut i, mut j) = (a, b);
    while i < a + len {
        let (Some((x, ni)), Some((y, nj))) = (next(s, i, true), next(s, j, true)) else {
            return false;
        };
        if ni > a + len || nj > b + len || (x != y && fold_rep(x) != fold_rep(y)) {
            return false;
        }
        i = ni;
        j = nj;
    }
    j == b + len
}

/// Find `prefix` in `s` from `from`; the work is charged to `fuel` (one unit per 16 code
/// units scanned).
fn find_prefix<S: Units + ?Sized>(
    s: &S,
    from: usize,
    prefix: &[u16],
    fuel: &mut i64,
) -> Option<usize> {
    let n = s.len();
    let m = prefix.len();
    let mut i = from;
    while i + m <= n {
        if s.at(i) == prefix[0] && (1..m).all(|k| s.at(i + k) == prefix[k]) {
            *fuel -= ((i - from) / 16) as i64;
            return Some(i);
        }
        i += 1;
    }
    *fuel -= ((n.saturating_sub(from)) / 16) as i64;
    None
}

/// Run (or continue) the search of `ex` over `s`, spending `fuel`; at most `max_entries`
/// backtrack entries.
pub fn run<S: Units + ?Sized>(
    re: &Regex,
    s: &S,
    ex: &mut Exec,
    fuel: &mut i64,
    max_entries: usize,
) -> Outcome {
    let uni = re.flags.full_unicode();
    let sticky = re.flags.sticky;
    let len = s.len();
    loop {
        if !ex.in_attempt {
            if ex.start > len {
                return Outcome::NoMatch;
            }
            if !sticky && !re.prefix.is_empty() {
                match find_prefix(s, ex.start, &re.prefix, fuel) {
                    // With u or v the input is code points: a match never starts at the
                    // trail half of a pair (a lone-surrogate pattern found there).
                    Some(p)
                        if uni
                            && p > 0
                            && (0xDC00..=0xDFFF).contains(&s.at(p))
                            && (0xD800..=0xDBFF).contains(&s.at(p - 1)) =>
                    {
                        ex.start = p + 1;
                        continue;
                    }
                    Some(p) => ex.start = p,
                    None => return Outcome::NoMatch,
                }
            }
            ex.caps.iter_mut().for_each(|c| *c = UNSET);
            ex.stack.clear();
            ex.pc = 0;
            ex.pos = ex.start;
            ex.in_attempt = true;
            *fuel -= 1;
        }
        match attempt(re, s, ex, fuel, max_entries, uni) {
            Some(true) => {
                ex.in_attempt = false;
                ex.caps[0] = ex.start as u32;
                ex.caps[1] = ex.pos as u32;
                return Outcome::Match;
            }
            Some(false) => {
                ex.in_attempt = false;
                if sticky || ex.start >= len {
                    return Outcome::NoMatch;
                }
                ex.start = match next(s, ex.start, uni) {
                    Some((_, np)) => np,
                    None => ex.start + 1,
                };
            }
            None if ex.stack.len() >= max_entries => return Outcome::StackLimit,
            None => return Outcome::OutOfFuel,
        }
    }
}

/// One attempt from `ex.start`: `Some(matched)`, or `None` when out of fuel or stack.
fn attempt<S: Units + ?Sized>(
    re: &Regex,
    s: &S,
    ex: &mut Exec,
    fuel: &mut i64,
    max_entries: usize,
    uni: bool,
) -> Option<bool> {
    let insts = &re.insts;
    let mut pc = ex.pc as usize;
    let mut pos = ex.pos;
    macro_rules! push {
        ($e:expr) => {{
            if ex.stack.len() >= max_entries {
                ex.pc = pc as u32;
                ex.pos = pos;
                return None;
            }
            ex.stack.push($e);
        }};
    }
    loop {
        if *fuel <= 0 {
            ex.pc = pc as u32;
            ex.pos = pos;
            return None;
        }
        *fuel -= 1;
        let ok = match insts[pc] {
            Inst::One { atom, back } => match step(re, s, atom, pos, back, uni) {
                Some(np) => {
                    pos = np;
                    pc += 1;
                    true
                }
                None => false,
            },
            Inst::Repeat {
                atom,
                back,
                min,
                max,
                greedy,
            } => {
                let mut n = 0u32;
                let mut p = pos;
                let want = if greedy { max } else { min };
                let mut min_pos = pos;
                while n < want {
                    match step(re, s, atom, p, back, uni) {
                        Some(np) => {
                            p = np;
                            n += 1;
                            *fuel -= 1;
                            if n == min {
                                min_pos = p;
                            }
                        }
                        None => break,
                    }
                }
                if n < min {
                    false
                } else {
                    if greedy {
                        if p != min_pos {
                            push!(Entry::Greedy {
                                rep: pc as u32,
                                min_pos: min_pos as u32,
                                pos: p as u32,
                            });
                        }
                    } else if n < max {
                        push!(Entry::Lazy {
                            rep: pc as u32,
                            pos: p as u32,
                            count: n,
                        });
                    }
                    pos = p;
                    pc += 1;
                    true
                }
            }
            Inst::Assert(a) => {
                let ok = match a {
                    Assert::Start(m) => pos == 0 || (m && is_line_terminator(s.at(pos - 1) as u32)),
                    Assert::End(m) => pos == s.len() || (m && is_line_terminator(s.at(pos) as u32)),
                    Assert::Word(want, ui) => {
                        let a = pos > 0 && is_word(s.at(pos - 1), ui);
                        let b = pos < s.len() && is_word(s.at(pos), ui);
                        (a != b) == want
                    }
                };
                pc += 1;
                ok
            }
            Inst::Split { alt } => {
                push!(Entry::Choice {
                    pc: alt,
                    pos: pos as u32
                });
                pc += 1;
                true
            }
            Inst::Jmp(t) => {
                pc = t as usize;
                true
            }
            Inst::Save(slot) => {
                push!(Entry::Cap {
                    slot,
                    old: ex.caps[slot as usize]
                });
                ex.caps[slot as usize] = pos as u32;
                pc += 1;
                true
            }
            Inst::Reset { lo, hi } => {
                for slot in lo..hi {
                    let old = ex.caps[slot as usize];
                    if old != UNSET {
                        push!(Entry::Cap { slot, old });
                        ex.caps[slot as usize] = UNSET;
                    }
                }
                *fuel -= ((hi - lo) / 8) as i64;
                pc += 1;
                true
            }
            Inst::Zero(r) => {
                push!(Entry::Reg {
                    r,
                    old: ex.regs[r as usize]
                });
                ex.regs[r as usize] = 0;
                pc += 1;
                true
            }
            Inst::Mark(r) => {
                push!(Entry::Reg {
                    r,
                    old: ex.regs[r as usize]
                });
                ex.regs[r as usize] = pos as u64;
                pc += 1;
                true
            }
            Inst::LoopHead {
                r,
                min,
                max,
                greedy,
                exit,
            } => {
                let c = ex.regs[r as usize];
                if c < min as u64 {
                    pc += 1;
                } else if max != INF && c >= max as u64 {
                    pc = exit as usize;
                } else if greedy {
                    push!(Entry::Choice {
                        pc: exit,
                        pos: pos as u32
                    });
                    pc += 1;
                } else {
                    push!(Entry::Choice {
                        pc: pc as u32 + 1,
                        pos: pos as u32
                    });
                    pc = exit as usize;
                }
                true
            }
            Inst::LoopTail { r, p, min, head } => {
                let c = ex.regs[r as usize];
                if c >= min as u64 && pos as u64 == ex.regs[p as usize] {
                    false
                } else {
                    push!(Entry::Reg { r, old: c });
                    ex.regs[r as usize] = c + 1;
                    pc = head as usize;
                    true
                }
            }
            Inst::BackRef { refs, fold, back } => {
                let group = re.refs[refs as usize]
                    .iter()
                    .find(|g| ex.caps[**g as usize * 2 + 1] != UNSET);
                match group {
                    None => {
                        pc += 1;
                        true
                    }
                    Some(&g) => {
                        let a = ex.caps[g as usize * 2] as usize;
                        let b = ex.caps[g as usize * 2 + 1] as usize;
                        let n = b.saturating_sub(a);
                        *fuel -= n as i64;
                        let ok = if back {
                            pos >= n && same(s, a, pos - n, n, fold, uni)
                        } else {
                            pos + n <= s.len() && same(s, a, pos, n, fold, uni)
                        };
                        if ok {
                            pos = if back { pos - n } else { pos + n };
                            pc += 1;
                        }
                        ok
                    }
                }
            }
            Inst::LookStart { neg, r, end } => {
                push!(Entry::Reg {
                    r,
                    old: ex.regs[r as usize]
                });
                push!(Entry::Reg {
                    r: r + 1,
                    old: ex.regs[r as usize + 1]
                });
                ex.regs[r as usize] = pos as u64;
                ex.regs[r as usize + 1] = ex.stack.len() as u64;
                if neg {
                    push!(Entry::NegLook {
                        pc: end,
                        pos: pos as u32
                    });
                }
                pc += 1;
                true
            }
            Inst::LookEnd { neg: false, r } => {
                pos = ex.regs[r as usize] as usize;
                let h = (ex.regs[r as usize + 1] as usize).min(ex.stack.len());
                // The body's choice points are gone (lookarounds are atomic); its undo
                // records stay for backtracking past the lookaround.
                let mut w = h;
                for i in h..ex.stack.len() {
                    let e = ex.stack[i];
                    if matches!(e, Entry::Cap { .. } | Entry::Reg { .. }) {
                        ex.stack[w] = e;
                        w += 1;
                    }
                }
                *fuel -= ((ex.stack.len() - h) / 4) as i64;
                ex.stack.truncate(w);
                pc += 1;
                true
            }
            Inst::LookEnd { neg: true, r } => {
                // The body matched: the negative lookaround fails. Undo the body and drop
                // its marker.
                let h = ex.regs[r as usize + 1] as usize;
                while ex.stack.len() > h {
                    match ex.stack.pop() {
                        Some(Entry::Cap { slot, old }) => ex.caps[slot as usize] = old,
                        Some(Entry::Reg { r, old }) => ex.regs[r as usize] = old,
                        _ => {}
                    }
                    *fuel -= 1;
                }
                false
            }
            Inst::Match => {
                ex.pos = pos;
                return Some(true);
            }
        };
        if ok {
            continue;
        }
        // Backtrack.
        loop {
            *fuel -= 1;
            match ex.stack.pop() {
                None => return Some(false),
                Some(Entry::Choice { pc: p, pos: q }) | Some(Entry::NegLook { pc: p, pos: q }) => {
                    pc = p as usize;
                    pos = q as usize;
                    break;
                }
                Some(Entry::Cap { slot, old }) => ex.caps[slot as usize] = old,
                Some(Entry::Reg { r, old }) => ex.regs[r as usize] = old,
                Some(Entry::Greedy {
                    rep,
                    min_pos,
                    pos: p,
                }) => {
                    let Inst::Repeat { back, .. } = insts[rep as usize] else {
                        continue;
                    };
                    let (p, m) = (p as usize, min_pos as usize);
                    let np = if back {
                        if uni && p + 2 <= m && is_high(s.at(p)) && is_low(s.at(p + 1)) {
                            p + 2
                        } else {
                            p + 1
                        }
                    } else if uni && p >= m + 2 && is_low(s.at(p - 1)) && is_high(s.at(p - 2)) {
                        p - 2
                    } else {
                        p - 1
                    };
                    if np != m {
                        ex.stack.push(Entry::Greedy {
                            rep,
                            min_pos,
                            pos: np as u32,
                        });
                    }
                    pos = np;
                    pc = rep as usize + 1;
                    break;
                }
                Some(Entry::Lazy { rep, pos: p, count }) => {
                    let Inst::Repeat {
                        atom, back, max, ..
                    } = insts[rep as usize]
                    else {
                        continue;
                    };
                    if let Some(np) = step(re, s, atom, p as usize, back, uni) {
                        if count + 1 < max {
                            ex.stack.push(Entry::Lazy {
                                rep,
                                pos: np as u32,
                                count: count + 1,
                            });
                        }
                        pos = np;
                        pc = rep as usize + 1;
                        break;
                    }
                }
            }
        }
    }
}
