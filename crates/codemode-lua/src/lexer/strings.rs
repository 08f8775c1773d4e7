//! Comments, long brackets, short strings and their escapes.

use crate::GuestError;
use crate::ast::Pos;

use super::{Lexer, parse_error};

impl Lexer<'_> {
    /// Skip a comment; the current position is at `--`.
    pub(super) fn comment(&mut self) -> Result<(), GuestError> {
        let start = self.i;
        let pos = self.pos_at(start);
        self.i += 2;
        if self.cur() == Some(b'[')
            && let Ok(level) = self.long_bracket_level()
        {
            self.long_string(level, start, pos, true)?;
            return Ok(());
        }
        while let Some(c) = self.cur() {
            if c == b'\n' || c == b'\r' {
                break;
            }
            self.i += 1;
        }
        Ok(())
    }

    /// At `[`: `Ok(level)` if a long bracket `[==[` opens here, `Err(number of '=')` otherwise.
    pub(super) fn long_bracket_level(&self) -> Result<usize, usize> {
        let mut n = 0usize;
        while self.peek(1 + n) == Some(b'=') {
            n += 1;
        }
        if self.peek(1 + n) == Some(b'[') {
            Ok(n)
        } else {
            Err(n)
        }
    }

    /// Read a long string or comment whose opening bracket of `level` starts at the current
    /// position. Line breaks inside become `\n`; a line break right after the opening bracket is
    /// skipped. Comments return an empty vector.
    pub(super) fn long_string(
        &mut self,
        level: usize,
        start: usize,
        pos: Pos,
        comment: bool,
    ) -> Result<Vec<u8>, GuestError> {
        self.i += level + 2;
        if matches!(self.cur(), Some(b'\n') | Some(b'\r')) {
            self.newline();
        }
        let mut buf = Vec::new();
        loop {
            match self.cur() {
                None => {
                    let what = if comment { "comment" } else { "string" };
                    return Err(parse_error(
                        format!(
                            "unfinished long {what} (starting at line {}) near <eof>; close it \
                             with ]{}]",
                            pos.line,
                            "=".repeat(level)
                        ),
                        pos,
                    ));
                }
                Some(b']') => {
                    let mut n = 0usize;
                    while self.peek(1 + n) == Some(b'=') {
                        n += 1;
                    }
                    if n == level && self.peek(1 + n) == Some(b']') {
                        self.i += level + 2;
                        let _ = start;
                        return Ok(buf);
                    }
                    if !comment {
                        buf.push(b']');
                    }
                    self.i += 1;
                }
                Some(b'\n') | Some(b'\r') => {
                    if !comment {
                        buf.push(b'\n');
                    }
                    self.newline();
                }
                Some(_) => {
                    let run_start = self.i;
                    while let Some(c) = self.cur() {
                        if c == b']' || c == b'\n' || c == b'\r' {
                            break;
                        }
                        self.i += 1;
                    }
                    if !comment {
                        buf.extend_from_slice(self.src.get(run_start..self.i).unwrap_or(&[]));
                    }
                }
            }
        }
    }

    /// Read a quoted string; the current position is at the opening quote `delim`.
    pub(super) fn short_string(
        &mut self,
        delim: u8,
        start: usize,
        pos: Pos,
    ) -> Result<Vec<u8>, GuestError> {
        self.i += 1;
        let mut buf = Vec::new();
        loop {
            let Some(c) = self.cur() else {
                return Err(parse_error(
                    format!(
                        "unfinished string near <eof>; close it with {}",
                        delim as char
                    ),
                    pos,
                ));
            };
            if c == delim {
                self.i += 1;
                return Ok(buf);
            }
            match c {
                b'\n' | b'\r' => {
                    return Err(parse_error(
                        format!(
                            "unfinished string near '{}'; close it with {} on the same line, or \
                             use [[...]] for multi-line text",
                            self.text(start, self.i),
                            delim as char
                        ),
                        pos,
                    ));
                }
                b'\\' => self.escape(&mut buf, start, pos)?,
                _ => {
                    let run_start = self.i;
                    while let Some(b) = self.cur() {
                        if b == delim || b == b'\\' || b == b'\n' || b == b'\r' {
                            break;
                        }
                        self.i += 1;
                    }
                    buf.extend_from_slice(self.src.get(run_start..self.i).unwrap_or(&[]));
                }
            }
        }
    }

    /// Process one escape sequence; the current position is at the backslash.
    fn escape(&mut self, buf: &mut Vec<u8>, start: usize, pos: Pos) -> Result<(), GuestError> {
        let esc_start = self.i;
        let esc_pos = self.pos_at(esc_start);
        self.i += 1;
        let Some(c) = self.cur() else {
            return Err(parse_error("unfinished string near <eof>".to_string(), pos));
        };
        let simple = match c {
            b'a' => Some(7u8),
            b'b' => Some(8),
            b'f' => Some(12),
            b'n' => Some(b'\n'),
            b'r' => Some(b'\r'),
            b't' => Some(b'\t'),
            b'v' => Some(11),
            b'\\' => Some(b'\\'),
            b'"' => Some(b'"'),
            b'\'' => Some(b'\''),
            _ => None,
        };
        if let Some(b) = simple {
            buf.push(b);
            self.i += 1;
            return Ok(());
        }
        match c {
            b'\n' | b'\r' => {
                buf.push(b'\n');
                self.newline();
            }
            b'z' => {
                self.i += 1;
                while let Some(b) = self.cur() {
                    match b {
                        b'\n' | b'\r' => self.newline(),
                        b' ' | b'\t' | 0x0b | 0x0c => self.i += 1,
                        _ => break,
                    }
                }
            }
            b'x' => {
                self.i += 1;
                let mut v = 0u8;
                for _ in 0..2 {
                    match self.cur().and_then(|b| (b as char).to_digit(16)) {
                        Some(d) => {
                            v = v * 16 + d as u8;
                            self.i += 1;
                        }
                        None => {
                            if self.cur().is_some() {
                                self.i += 1;
                            }
                            return Err(self.escape_error(
                                "hexadecimal digit expected in \\xXX escape",
                                esc_start,
                                esc_pos,
                            ));
                        }
                    }
                }
                buf.push(v);
            }
            b'u' => {
                self.i += 1;
                if self.cur() != Some(b'{') {
                    if self.cur().is_some() {
                        self.i += 1;
                    }
                    return Err(self.escape_error(
                        "missing '{' in \\u{xxxx} escape",
                        esc_start,
                        esc_pos,
                    ));
                }
                self.i += 1;
                let mut v: u64 = 0;
                let mut digits = 0;
                while let Some(d) = self.cur().and_then(|b| (b as char).to_digit(16)) {
                    v = v * 16 + d as u64;
                    digits += 1;
                    self.i += 1;
                    if v > 0x7FFF_FFFF {
                        return Err(self.escape_error(
                            "UTF-8 value too large in \\u{xxxx} escape (maximum 7FFFFFFF)",
                            esc_start,
                            esc_pos,
                        ));
                    }
                }
                if digits == 0 {
                    if self.cur().is_some() {
                        self.i += 1;
                    }
                    return Err(self.escape_error(
                        "hexadecimal digit expected in \\u{xxxx} escape",
                        esc_start,
                        esc_pos,
                    ));
                }
                if self.cur() != Some(b'}') {
                    if self.cur().is_some() {
                        self.i += 1;
                    }
                    return Err(self.escape_error(
                        "missing '}' in \\u{xxxx} escape",
                        esc_start,
                        esc_pos,
                    ));
                }
                self.i += 1;
                utf8_escape(buf, v as u32);
            }
            b'0'..=b'9' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while n < 3 {
                    match self.cur() {
                        Some(d @ b'0'..=b'9') => {
                            v = v * 10 + (d - b'0') as u32;
                            self.i += 1;
                            n += 1;
                        }
                        _ => break,
                    }
                }
                if v > 255 {
                    return Err(self.escape_error(
                        "decimal escape too large (maximum \\255)",
                        esc_start,
                        esc_pos,
                    ));
                }
                buf.push(v as u8);
            }
            _ => {
                self.i += 1;
                let _ = start;
                return Err(self.escape_error(
                    "invalid escape sequence; valid escapes are \\n \\t \\r \\\\ \\\" \\' \\a \
                     \\b \\f \\v \\z \\xXX \\ddd \\u{XXX}",
                    esc_start,
                    esc_pos,
                ));
            }
        }
        Ok(())
    }

    fn escape_error(&self, msg: &str, esc_start: usize, esc_pos: Pos) -> GuestError {
        let (head, tail) = match msg.split_once(';') {
            Some((h, t)) => (h, format!(";{t}")),
            None => (msg, String::new()),
        };
        parse_error(
            format!("{head} near '{}'{tail}", self.text(esc_start, self.i)),
            esc_pos,
        )
    }
}

/// Append `x` (at most 0x7FFFFFFF) in Lua's extended UTF-8 (up to 6 bytes), as `luaO_utf8esc`.
fn utf8_escape(buf: &mut Vec<u8>, mut x: u32) {
    if x < 0x80 {
        buf.push(x as u8);
        return;
    }
    let mut tmp = [0u8; 8];
    let mut n = tmp.len();
    let mut mfb: u32 = 0x3f; // maximum that fits in the first byte
    loop {
        n -= 1;
        tmp[n] = 0x80 | (x & 0x3f) as u8;
        x >>= 6;
        mfb >>= 1;
        if x <= mfb || n <= 1 {
            break;
        }
    }
    n -= 1;
    tmp[n] = ((!mfb << 1) | x) as u8;
    buf.extend_from_slice(&tmp[n..]);
}
