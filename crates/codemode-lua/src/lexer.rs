//! Lua 5.4 lexer (Lua 5.4 Reference Manual §3.1 "Lexical Conventions").
//!
//! Works on bytes: string literals are byte strings and strings/comments may hold any bytes, while
//! identifiers are ASCII letters, digits and `_`. Tokens are produced on demand by
//! [`Lexer::next_token`]; only names and string literals allocate.
//!
//! Line breaks are `\n`, `\r`, `\r\n` or `\n\r` (each counts as one line, as in Lua). Columns are
//! 1-based byte offsets within the line. A first line starting with `#` (shebang) and a UTF-8 byte
//! order mark are skipped.
//!
//! Errors are [`ErrorKind::ParseError`] with the location of the offending token or escape and a
//! model-facing message (Lua's wording plus a short hint, e.g. for JavaScript-isms like `!=`).

use crate::ast::Pos;
use crate::number::Number;
use crate::{ErrorKind, GuestError, Location};

/// One lexical token kind. Keywords and symbols are unit variants; names, strings and numerals
/// carry their value (strings after escape processing).
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// End of input.
    Eof,
    /// An identifier (ASCII letters, digits, `_`; not a keyword).
    Name(Box<str>),
    /// A string literal after escape processing (any bytes).
    Str(Vec<u8>),
    /// An integer numeral (decimal that fits in i64, or hexadecimal wrapped modulo 2^64).
    Int(i64),
    /// A float numeral (or a decimal integer numeral that overflows i64).
    Float(f64),
    // Keywords.
    And,
    Break,
    Do,
    Else,
    Elseif,
    End,
    False,
    For,
    Function,
    Goto,
    If,
    In,
    Local,
    Nil,
    Not,
    Or,
    Repeat,
    Return,
    Then,
    True,
    Until,
    While,
    // Symbols.
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `//`
    DSlash,
    /// `%`
    Percent,
    /// `^`
    Caret,
    /// `#`
    Hash,
    /// `&`
    Amp,
    /// `~`
    Tilde,
    /// `|`
    Pipe,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `==`
    Eq,
    /// `~=`
    Ne,
    /// `<=`
    Le,
    /// `>=`
    Ge,
    /// `<`
    Lt,
    /// `>`
    Gt,
    /// `=`
    Assign,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `::`
    DColon,
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `,`
    Comma,
    /// `.`
    Dot,
    /// `..`
    Concat,
    /// `...`
    Dots,
}

impl Tok {
    /// How the token kind is named in "X expected" messages, as in Lua: `'end'`, `<name>`, `<eof>`.
    pub fn describe(&self) -> String {
        match self {
            Tok::Eof => "<eof>".to_string(),
            Tok::Name(_) => "<name>".to_string(),
            Tok::Str(_) => "<string>".to_string(),
            Tok::Int(_) => "<integer>".to_string(),
            Tok::Float(_) => "<number>".to_string(),
            other => format!("'{}'", other.symbol()),
        }
    }

    /// The source spelling of a keyword or symbol (empty for valued tokens and end of input).
    pub fn symbol(&self) -> &'static str {
        match self {
            Tok::Eof | Tok::Name(_) | Tok::Str(_) | Tok::Int(_) | Tok::Float(_) => "",
            Tok::And => "and",
            Tok::Break => "break",
            Tok::Do => "do",
            Tok::Else => "else",
            Tok::Elseif => "elseif",
            Tok::End => "end",
            Tok::False => "false",
            Tok::For => "for",
            Tok::Function => "function",
            Tok::Goto => "goto",
            Tok::If => "if",
            Tok::In => "in",
            Tok::Local => "local",
            Tok::Nil => "nil",
            Tok::Not => "not",
            Tok::Or => "or",
            Tok::Repeat => "repeat",
            Tok::Return => "return",
            Tok::Then => "then",
            Tok::True => "true",
            Tok::Until => "until",
            Tok::While => "while",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::DSlash => "//",
            Tok::Percent => "%",
            Tok::Caret => "^",
            Tok::Hash => "#",
            Tok::Amp => "&",
            Tok::Tilde => "~",
            Tok::Pipe => "|",
            Tok::Shl => "<<",
            Tok::Shr => ">>",
            Tok::Eq => "==",
            Tok::Ne => "~=",
            Tok::Le => "<=",
            Tok::Ge => ">=",
            Tok::Lt => "<",
            Tok::Gt => ">",
            Tok::Assign => "=",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::DColon => "::",
            Tok::Semi => ";",
            Tok::Colon => ":",
            Tok::Comma => ",",
            Tok::Dot => ".",
            Tok::Concat => "..",
            Tok::Dots => "...",
        }
    }
}

/// A token with its position and its byte span `start..end` in the source.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub tok: Tok,
    /// Line and column of the first byte of the token.
    pub pos: Pos,
    /// Byte offset of the first byte of the token.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
}

/// Build a [`ErrorKind::ParseError`] at `pos`.
pub(crate) fn parse_error(message: String, pos: Pos) -> GuestError {
    GuestError {
        kind: ErrorKind::ParseError,
        message,
        location: Some(Location {
            line: pos.line,
            column: pos.column,
        }),
        suggestions: Vec::new(),
    }
}

/// An [`ErrorKind::UnsupportedSyntax`] error at `pos`: valid Lua 5.4 outside the sandbox's subset.
pub(crate) fn unsupported(message: String, pos: Pos) -> GuestError {
    GuestError {
        kind: ErrorKind::UnsupportedSyntax,
        ..parse_error(message, pos)
    }
}

/// Render source bytes for a message: at most 40 characters, control characters escaped,
/// invalid UTF-8 shown as `<\N>` byte values (like Lua).
pub(crate) fn show_bytes(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let mut count = 0usize;
    for chunk in bytes.utf8_chunks() {
        for ch in chunk.valid().chars() {
            if count >= 40 {
                out.push_str("...");
                return out;
            }
            count += 1;
            match ch {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if c.is_control() => {
                    let _ = write!(out, "<\\{}>", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            if count >= 40 {
                out.push_str("...");
                return out;
            }
            count += 1;
            let _ = write!(out, "<\\{}>", b);
        }
    }
    out
}

/// The Lua 5.4 lexer over a byte slice. See the module documentation.
pub struct Lexer<'a> {
    src: &'a [u8],
    /// Current byte offset.
    i: usize,
    /// Current line (1-based).
    line: u32,
    /// Byte offset where the current line starts.
    line_start: usize,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Lua 5.4's reserved words: exactly the names [`keyword`] turns into tokens (a test checks
/// both ways).
pub(crate) const KEYWORDS: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

pub(crate) fn keyword(name: &[u8]) -> Option<Tok> {
    // Every keyword is 2 to 8 lowercase letters: most names are rejected by this cheap test.
    if name.len() < 2 || name.len() > 8 || !name[0].is_ascii_lowercase() {
        return None;
    }
    Some(match name {
        b"and" => Tok::And,
        b"break" => Tok::Break,
        b"do" => Tok::Do,
        b"else" => Tok::Else,
        b"elseif" => Tok::Elseif,
        b"end" => Tok::End,
        b"false" => Tok::False,
        b"for" => Tok::For,
        b"function" => Tok::Function,
        b"goto" => Tok::Goto,
        b"if" => Tok::If,
        b"in" => Tok::In,
        b"local" => Tok::Local,
        b"nil" => Tok::Nil,
        b"not" => Tok::Not,
        b"or" => Tok::Or,
        b"repeat" => Tok::Repeat,
        b"return" => Tok::Return,
        b"then" => Tok::Then,
        b"true" => Tok::True,
        b"until" => Tok::Until,
        b"while" => Tok::While,
        _ => return None,
    })
}

const COMPOUND_HINT: &str = "Lua has no compound assignment; write `x = x + 1`";

impl<'a> Lexer<'a> {
    /// A lexer positioned at the start of `src` (after a UTF-8 BOM and a `#` first line, if any).
    pub fn new(src: &'a [u8]) -> Lexer<'a> {
        let mut lx = Lexer {
            src,
            i: 0,
            line: 1,
            line_start: 0,
        };
        if src.starts_with(b"\xEF\xBB\xBF") {
            lx.i = 3;
            lx.line_start = 3;
        }
        if lx.cur() == Some(b'#') {
            while let Some(c) = lx.cur() {
                if c == b'\n' || c == b'\r' {
                    break;
                }
                lx.i += 1;
            }
        }
        lx
    }

    /// The whole source.
    pub fn source(&self) -> &'a [u8] {
        self.src
    }

    fn cur(&self) -> Option<u8> {
        self.src.get(self.i).copied()
    }

    fn peek(&self, n: usize) -> Option<u8> {
        self.src.get(self.i.wrapping_add(n)).copied()
    }

    fn pos_at(&self, offset: usize) -> Pos {
        Pos {
            line: self.line,
            column: (offset.saturating_sub(self.line_start) + 1) as u32,
        }
    }

    /// Consume one line break (`\n`, `\r`, `\r\n` or `\n\r`) at the current position.
    fn newline(&mut self) {
        let first = self.cur();
        self.i += 1;
        if let (Some(a), Some(b)) = (first, self.cur())
            && (b == b'\n' || b == b'\r')
            && a != b
        {
            self.i += 1;
        }
        self.line = self.line.saturating_add(1);
        self.line_start = self.i;
    }

    fn text(&self, start: usize, end: usize) -> String {
        show_bytes(self.src.get(start..end.min(self.src.len())).unwrap_or(&[]))
    }

    fn err_near(&self, msg: &str, start: usize, pos: Pos) -> GuestError {
        parse_error(format!("{msg} near '{}'", self.text(start, self.i)), pos)
    }

    /// An error for a symbol that is never valid Lua, with a hint; `len` bytes are shown.
    fn bad_symbol(&self, start: usize, len: usize, pos: Pos, hint: &str) -> GuestError {
        let shown = self.text(start, start.saturating_add(len));
        if hint.is_empty() {
            parse_error(format!("unexpected symbol near '{shown}'"), pos)
        } else {
            parse_error(format!("unexpected symbol near '{shown}'; {hint}"), pos)
        }
    }

    /// Scan the next token, skipping whitespace and comments.
    pub fn next_token(&mut self) -> Result<Token, GuestError> {
        loop {
            match self.cur() {
                None => {
                    let pos = self.pos_at(self.i);
                    return Ok(Token {
                        tok: Tok::Eof,
                        pos,
                        start: self.i,
                        end: self.i,
                    });
                }
                Some(b'\n') | Some(b'\r') => self.newline(),
                Some(b' ') | Some(b'\t') | Some(0x0b) | Some(0x0c) => self.i += 1,
                Some(b'-') if self.peek(1) == Some(b'-') => self.comment()?,
                Some(_) => break,
            }
        }
        let start = self.i;
        let pos = self.pos_at(start);
        let c = self.cur().unwrap_or(0);
        let p1 = self.peek(1);
        let p2 = self.peek(2);
        let mut len = 1usize;
        let tok = match c {
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                let mut end = start + 1;
                while let Some(&b) = self.src.get(end) {
                    if !is_name_char(b) {
                        break;
                    }
                    end += 1;
                }
                len = end - start;
                let word = self.src.get(start..end).unwrap_or(&[]);
                match keyword(word) {
                    Some(k) => k,
                    None => Tok::Name(String::from_utf8_lossy(word).into()),
                }
            }
            b'0'..=b'9' => return self.numeral(start, pos),
            b'.' => match (p1, p2) {
                (Some(b'.'), Some(b'.')) => {
                    len = 3;
                    Tok::Dots
                }
                (Some(b'.'), Some(b'=')) => {
                    return Err(self.bad_symbol(start, 3, pos, COMPOUND_HINT));
                }
                (Some(b'.'), _) => {
                    len = 2;
                    Tok::Concat
                }
                (Some(d), _) if d.is_ascii_digit() => return self.numeral(start, pos),
                _ => Tok::Dot,
            },
            b'"' | b'\'' => {
                let s = self.short_string(c, start, pos)?;
                return Ok(Token {
                    tok: Tok::Str(s),
                    pos,
                    start,
                    end: self.i,
                });
            }
            b'[' => match self.long_bracket_level() {
                Ok(level) => {
                    let s = self.long_string(level, start, pos, false)?;
                    return Ok(Token {
                        tok: Tok::Str(s),
                        pos,
                        start,
                        end: self.i,
                    });
                }
                Err(0) => Tok::LBracket,
                Err(n) => {
                    self.i = start + 1 + n;
                    return Err(self.err_near("invalid long string delimiter", start, pos));
                }
            },
            b'+' => match p1 {
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                Some(b'+') => {
                    return Err(self.bad_symbol(
                        start,
                        2,
                        pos,
                        "Lua has no ++ operator; write `x = x + 1`",
                    ));
                }
                _ => Tok::Plus,
            },
            b'-' => match p1 {
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                _ => Tok::Minus,
            },
            b'*' => match p1 {
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                Some(b'*') => {
                    return Err(self.bad_symbol(start, 2, pos, "use ^ for exponentiation in Lua"));
                }
                _ => Tok::Star,
            },
            b'/' => match (p1, p2) {
                (Some(b'/'), Some(b'=')) => {
                    return Err(self.bad_symbol(start, 3, pos, COMPOUND_HINT));
                }
                (Some(b'/'), _) => {
                    len = 2;
                    Tok::DSlash
                }
                (Some(b'='), _) => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                (Some(b'*'), _) => {
                    return Err(self.bad_symbol(
                        start,
                        2,
                        pos,
                        "Lua comments are `-- line` and `--[[ block ]]`",
                    ));
                }
                _ => Tok::Slash,
            },
            b'%' => match p1 {
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                _ => Tok::Percent,
            },
            b'^' => match p1 {
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                _ => Tok::Caret,
            },
            b'#' => Tok::Hash,
            b'&' => match p1 {
                Some(b'&') => {
                    return Err(self.bad_symbol(start, 2, pos, "use `and` instead of && in Lua"));
                }
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                _ => Tok::Amp,
            },
            b'|' => match p1 {
                Some(b'|') => {
                    return Err(self.bad_symbol(start, 2, pos, "use `or` instead of || in Lua"));
                }
                Some(b'=') => return Err(self.bad_symbol(start, 2, pos, COMPOUND_HINT)),
                _ => Tok::Pipe,
            },
            b'~' => match p1 {
                Some(b'=') => {
                    len = 2;
                    Tok::Ne
                }
                _ => Tok::Tilde,
            },
            b'<' => match p1 {
                Some(b'<') => {
                    len = 2;
                    Tok::Shl
                }
                Some(b'=') => {
                    len = 2;
                    Tok::Le
                }
                _ => Tok::Lt,
            },
            b'>' => match p1 {
                Some(b'>') => {
                    len = 2;
                    Tok::Shr
                }
                Some(b'=') => {
                    len = 2;
                    Tok::Ge
                }
                _ => Tok::Gt,
            },
            b'=' => match (p1, p2) {
                (Some(b'='), Some(b'=')) => {
                    return Err(self.bad_symbol(start, 3, pos, "use == for equality in Lua"));
                }
                (Some(b'='), _) => {
                    len = 2;
                    Tok::Eq
                }
                (Some(b'>'), _) => {
                    return Err(self.bad_symbol(
                        start,
                        2,
                        pos,
                        "Lua has no arrow functions; write `function(x) return x end`",
                    ));
                }
                _ => Tok::Assign,
            },
            b'!' => match p1 {
                Some(b'=') => {
                    let n = if p2 == Some(b'=') { 3 } else { 2 };
                    return Err(self.bad_symbol(start, n, pos, "use ~= for inequality in Lua"));
                }
                _ => {
                    return Err(self.bad_symbol(start, 1, pos, "use `not x` for negation in Lua"));
                }
            },
            b'`' => {
                return Err(self.bad_symbol(
                    start,
                    1,
                    pos,
                    "Lua has no template strings; use .. or string.format",
                ));
            }
            b'?' => {
                return Err(self.bad_symbol(
                    start,
                    1,
                    pos,
                    "Lua has no ?: or ?? operators; write `cond and a or b`",
                ));
            }
            b'(' => Tok::LParen,
            b')' => Tok::RParen,
            b'{' => Tok::LBrace,
            b'}' => Tok::RBrace,
            b']' => Tok::RBracket,
            b';' => Tok::Semi,
            b',' => Tok::Comma,
            b':' => match p1 {
                Some(b':') => {
                    len = 2;
                    Tok::DColon
                }
                _ => Tok::Colon,
            },
            _ => {
                if c >= 0x80 {
                    // Show the whole (possibly multi-byte) character.
                    let mut n = 1;
                    while n < 4 && matches!(self.peek(n), Some(b) if (0x80..0xC0).contains(&b)) {
                        n += 1;
                    }
                    return Err(self.bad_symbol(
                        start,
                        n,
                        pos,
                        "identifiers are ASCII letters, digits and _; other text must be inside \
                         a string (use plain ASCII quotes \" or ')",
                    ));
                }
                return Err(self.bad_symbol(start, 1, pos, ""));
            }
        };
        self.i = start + len;
        Ok(Token {
            tok,
            pos,
            start,
            end: self.i,
        })
    }

    /// Skip a comment; the current position is at `--`.
    fn comment(&mut self) -> Result<(), GuestError> {
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
    fn long_bracket_level(&self) -> Result<usize, usize> {
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
    fn long_string(
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
    fn short_string(&mut self, delim: u8, start: usize, pos: Pos) -> Result<Vec<u8>, GuestError> {
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

    /// Read a numeral (as Lua's `read_numeral`) starting at `start` (a digit or `.`).
    fn numeral(&mut self, start: usize, pos: Pos) -> Result<Token, GuestError> {
        self.i = start;
        let (e1, e2) = if self.cur() == Some(b'0') && matches!(self.peek(1), Some(b'x' | b'X')) {
            self.i += 2;
            (b'p', b'P')
        } else {
            (b'e', b'E')
        };
        while let Some(c) = self.cur() {
            if c == e1 || c == e2 {
                self.i += 1;
                if matches!(self.cur(), Some(b'+' | b'-')) {
                    self.i += 1;
                }
            } else if c.is_ascii_hexdigit() || c == b'.' {
                self.i += 1;
            } else {
                break;
            }
        }
        if matches!(self.cur(), Some(c) if is_name_start(c)) {
            self.i += 1; // a numeral touching a letter is malformed
        }
        let text = self.src.get(start..self.i).unwrap_or(&[]);
        // One parser for literals and `tonumber`: the text holds no sign and no spaces here.
        let tok = match crate::number::str_to_number(text) {
            Some(Number::Int(i)) => Some(Tok::Int(i)),
            Some(Number::Float(f)) => Some(Tok::Float(f)),
            None => None,
        };
        match tok {
            Some(tok) => Ok(Token {
                tok,
                pos,
                start,
                end: self.i,
            }),
            None => Err(self.err_near("malformed number", start, pos)),
        }
    }
}

/// Append `x` (at most 0x7FFFFFFF) in Lua's extended UTF-8 (up to 6 bytes), as `luaO_utf8esc`.
pub(crate) fn utf8_escape(buf: &mut Vec<u8>, mut x: u32) {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        let mut lx = Lexer::new(src.as_bytes());
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().expect("lex ok");
            if t.tok == Tok::Eof {
                return out;
            }
            out.push(t.tok);
        }
    }

    fn one(src: &str) -> Tok {
        let v = toks(src);
        assert_eq!(v.len(), 1, "{src}: {v:?}");
        v.into_iter().next().unwrap()
    }

    fn lex_err(src: &str) -> GuestError {
        let mut lx = Lexer::new(src.as_bytes());
        loop {
            match lx.next_token() {
                Ok(t) if t.tok == Tok::Eof => panic!("expected a lexer error for {src:?}"),
                Ok(_) => {}
                Err(e) => return e,
            }
        }
    }

    fn s(src: &str) -> Vec<u8> {
        match one(src) {
            Tok::Str(v) => v,
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn integers_and_floats_match_lua() {
        // Values checked with lua5.4 (math.type and %.17g).
        assert_eq!(one("0"), Tok::Int(0));
        assert_eq!(one("42"), Tok::Int(42));
        assert_eq!(one("9223372036854775807"), Tok::Int(i64::MAX));
        // Decimal overflow → float.
        assert_eq!(
            one("9223372036854775808"),
            Tok::Float(9223372036854775808.0)
        );
        assert_eq!(
            one("18446744073709551616"),
            Tok::Float(18446744073709551616.0)
        );
        // Hex wraps modulo 2^64.
        assert_eq!(one("0xff"), Tok::Int(255));
        assert_eq!(one("0XA"), Tok::Int(10));
        assert_eq!(one("0x7fffffffffffffff"), Tok::Int(i64::MAX));
        assert_eq!(one("0xffffffffffffffff"), Tok::Int(-1));
        assert_eq!(one("0x8000000000000000"), Tok::Int(i64::MIN));
        assert_eq!(one("0xffffffffffffffffff"), Tok::Int(-1));
        assert_eq!(one("0x10000000000000000"), Tok::Int(0));
        assert_eq!(one("3."), Tok::Float(3.0));
        assert_eq!(one(".5"), Tok::Float(0.5));
        assert_eq!(one("3.25"), Tok::Float(3.25));
        assert_eq!(one("1e10"), Tok::Float(1e10));
        assert_eq!(one("1E+2"), Tok::Float(100.0));
        assert_eq!(one("2.5e-3"), Tok::Float(0.0025));
        assert_eq!(one("5.e3"), Tok::Float(5000.0));
        assert_eq!(one("1e400"), Tok::Float(f64::INFINITY));
        assert_eq!(one("0x1p4"), Tok::Float(16.0));
        assert_eq!(one("0x.8"), Tok::Float(0.5));
        assert_eq!(one("0x1p-2"), Tok::Float(0.25));
        assert_eq!(one("0xA.8p1"), Tok::Float(21.0));
        assert_eq!(one("0x1P+4"), Tok::Float(16.0));
        assert_eq!(one("0x1."), Tok::Float(1.0));
        assert_eq!(one("0x1p-1074"), Tok::Float(f64::from_bits(1)));
        assert_eq!(one("0x1p1024"), Tok::Float(f64::INFINITY));
        // lua5.4: %a of 0x123456789abcdef0123456789.0 is 0x1.23456789abcdfp+96 (rounded once).
        assert_eq!(
            one("0x123456789abcdef0123456789.0"),
            Tok::Float(f64::from_bits(0x45f2_3456_789a_bcdf))
        );
    }

    /// Hex float literals are rounded once, to nearest, ties to even, by the same parser as
    /// `tonumber` (bits from Python's `float.fromhex`; the tails past the 30th digit decide).
    #[test]
    fn hex_float_literals_round_once() {
        let cases: &[(&str, u64)] = &[
            ("0x1.fb1faa10caea58p-1023", 0x000f_d8fd_5086_5753),
            (
                "0x1.e7c0e4010090180000000000000000000p-1023",
                0x000f_3e07_2008_0481,
            ),
            (
                "0x1.000000000000080000000000000000001p0",
                0x3ff0_0000_0000_0001,
            ),
            (
                "0x1.00000000000008000000000000000000000000000001p0",
                0x3ff0_0000_0000_0001,
            ),
            (
                "0x1.0000000000000800000000000000000000000p0",
                0x3ff0_0000_0000_0000,
            ),
            ("0x1.fffffffffffff8p0", 0x4000_0000_0000_0000),
            ("0x1.fffffffffffff7ffffffffp1023", 0x7fef_ffff_ffff_ffff),
            ("0x1.fffffffffffff8p1023", 0x7ff0_0000_0000_0000),
            (
                "0x.000000000000000000000000000000000001p148",
                0x4030_0000_0000_0000,
            ),
            ("0x1p-1075", 0),
            ("0x1.8p-1075", 1),
            ("0xfffffffffffff.f8p0", 0x4330_0000_0000_0000),
            ("0x1p-99999999999", 0),
            ("0x1p99999999999", 0x7ff0_0000_0000_0000),
        ];
        for &(text, bits) in cases {
            match one(text) {
                Tok::Float(f) => assert_eq!(f.to_bits(), bits, "{text}: got {f:e}"),
                other => panic!("{text}: not a float: {other:?}"),
            }
            assert_eq!(
                crate::number::str_to_number(text.as_bytes()),
                Some(Number::Float(f64::from_bits(bits))),
                "tonumber({text:?})"
            );
        }
    }

    #[test]
    fn malformed_numbers() {
        let e = lex_err("x = 3x");
        assert_eq!(e.message, "malformed number near '3x'");
        assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
        assert_eq!(lex_err("3xyz").message, "malformed number near '3x'");
        assert_eq!(lex_err("0x").message, "malformed number near '0x'");
        assert_eq!(lex_err("1e").message, "malformed number near '1e'");
        assert_eq!(lex_err("1e+").message, "malformed number near '1e+'");
        assert_eq!(lex_err("1..2").message, "malformed number near '1..2'");
        assert_eq!(lex_err("0x1p").message, "malformed number near '0x1p'");
        assert_eq!(
            lex_err("0x1.2.3").message,
            "malformed number near '0x1.2.3'"
        );
        assert_eq!(lex_err("12_3").message, "malformed number near '12_'");
        assert_eq!(lex_err("1f").message, "malformed number near '1f'");
    }

    #[test]
    fn escapes() {
        assert_eq!(
            s(r#""\a\b\f\n\r\t\v\\\"\'""#),
            b"\x07\x08\x0c\n\r\t\x0b\\\"'".to_vec()
        );
        assert_eq!(s("'a\\\nb'"), b"a\nb".to_vec());
        assert_eq!(s("'a\\\r\nb'"), b"a\nb".to_vec());
        assert_eq!(s("'a\\z   \n\t  b'"), b"ab".to_vec());
        assert_eq!(s(r#""\x41\x7a\xff""#), vec![0x41, 0x7a, 0xff]);
        assert_eq!(s(r#""\65\066\0067\255\0""#), vec![65, 66, 6, 55, 255, 0]);
        assert_eq!(s(r#""\u{41}""#), b"A".to_vec());
        assert_eq!(s(r#""\u{E9}""#), "é".as_bytes().to_vec());
        assert_eq!(s(r#""\u{20AC}""#), "€".as_bytes().to_vec());
        assert_eq!(s(r#""\u{1F600}""#), "😀".as_bytes().to_vec());
        // Extended UTF-8 as lua5.4: string.byte("\u{7FFFFFFF}", 1, -1)
        assert_eq!(s(r#""\u{7FFFFFFF}""#), vec![253, 191, 191, 191, 191, 191]);
        assert_eq!(s(r#""\u{10FFFF}""#), vec![244, 143, 191, 191]);
        assert_eq!(s(r#""\u{D800}""#), vec![237, 160, 128]);
        assert_eq!(s(r#""\u{4000000}""#), vec![252, 132, 128, 128, 128, 128]);
        assert_eq!(
            toks("'it''s'"),
            vec![Tok::Str(b"it".to_vec()), Tok::Str(b"s".to_vec())]
        );
    }

    #[test]
    fn escape_errors() {
        let e = lex_err(r#"x = "ab\q""#);
        assert!(
            e.message.starts_with("invalid escape sequence near '\\q'"),
            "{}",
            e.message
        );
        assert_eq!(e.location, Some(Location { line: 1, column: 8 }));
        assert!(
            lex_err(r#""\xZZ""#)
                .message
                .starts_with("hexadecimal digit expected")
        );
        assert!(
            lex_err(r#""\x5""#)
                .message
                .starts_with("hexadecimal digit expected")
        );
        assert!(
            lex_err(r#""\256""#)
                .message
                .starts_with("decimal escape too large")
        );
        assert!(lex_err(r#""\u41""#).message.starts_with("missing '{'"));
        assert!(
            lex_err(r#""\u{}""#)
                .message
                .starts_with("hexadecimal digit expected")
        );
        assert!(lex_err(r#""\u{41""#).message.starts_with("missing '}'"));
        assert!(
            lex_err(r#""\u{80000000}""#)
                .message
                .starts_with("UTF-8 value too large")
        );
        let e = lex_err("x = 'abc\ny'");
        assert!(
            e.message.starts_with("unfinished string near ''abc'"),
            "{}",
            e.message
        );
        assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
        assert!(
            lex_err("x = 'abc")
                .message
                .starts_with("unfinished string near <eof>")
        );
        assert!(
            lex_err("x = 'abc\\")
                .message
                .starts_with("unfinished string near <eof>")
        );
    }

    #[test]
    fn long_strings_and_comments() {
        assert_eq!(s("[[abc]]"), b"abc".to_vec());
        assert_eq!(s("[[\nabc]]"), b"abc".to_vec());
        assert_eq!(s("[[\r\nabc\r\ndef]]"), b"abc\ndef".to_vec());
        assert_eq!(s("[==[a]]b]=]c]==]"), b"a]]b]=]c".to_vec());
        assert_eq!(s("[=[\\n]]=]"), b"\\n]".to_vec());
        assert_eq!(s("[[]]"), Vec::<u8>::new());
        assert_eq!(
            toks("-- comment\n1 --[[ long\n comment ]] 2 --[==[ x ]] ]==] 3 --[ line\n4"),
            vec![Tok::Int(1), Tok::Int(2), Tok::Int(3), Tok::Int(4)]
        );
        assert_eq!(toks("--[=x\n5"), vec![Tok::Int(5)]);
        let e = lex_err("x = [[abc");
        assert!(
            e.message
                .starts_with("unfinished long string (starting at line 1) near <eof>")
        );
        let e = lex_err("\n--[==[ abc ]]");
        assert!(
            e.message
                .starts_with("unfinished long comment (starting at line 2)")
        );
        assert_eq!(e.location, Some(Location { line: 2, column: 1 }));
        assert_eq!(
            lex_err("x = [==x").message,
            "invalid long string delimiter near '[=='"
        );
    }

    #[test]
    fn symbols_and_keywords() {
        use Tok::*;
        assert_eq!(
            toks("+ - * / // % ^ # & ~ | << >> == ~= <= >= < > = ( ) { } [ ] :: ; : , . .. ..."),
            vec![
                Plus, Minus, Star, Slash, DSlash, Percent, Caret, Hash, Amp, Tilde, Pipe, Shl, Shr,
                Eq, Ne, Le, Ge, Lt, Gt, Assign, LParen, RParen, LBrace, RBrace, LBracket, RBracket,
                DColon, Semi, Colon, Comma, Dot, Concat, Dots
            ]
        );
        assert_eq!(
            toks(
                "and break do else elseif end false for function goto if in local nil not or \
                  repeat return then true until while"
            ),
            vec![
                And, Break, Do, Else, Elseif, End, False, For, Function, Goto, If, In, Local, Nil,
                Not, Or, Repeat, Return, Then, True, Until, While
            ]
        );
        assert_eq!(
            toks("_x1 Foo andy"),
            vec![Name("_x1".into()), Name("Foo".into()), Name("andy".into())]
        );
        assert_eq!(
            toks("a.b:c"),
            vec![
                Name("a".into()),
                Dot,
                Name("b".into()),
                Colon,
                Name("c".into())
            ]
        );
    }

    #[test]
    fn positions() {
        let src = "local x = 1\n  y = \"s\"\r\n\tz\n\r--c\n[[a\nb]] w";
        let mut lx = Lexer::new(src.as_bytes());
        let mut got = Vec::new();
        loop {
            let t = lx.next_token().unwrap();
            got.push((t.pos.line, t.pos.column));
            if t.tok == Tok::Eof {
                break;
            }
        }
        assert_eq!(
            got,
            vec![
                (1, 1),
                (1, 7),
                (1, 9),
                (1, 11),
                (2, 3),
                (2, 5),
                (2, 7),
                (3, 2),
                (5, 1),
                (6, 5),
                (6, 6)
            ]
        );
    }

    #[test]
    fn shebang_and_bom() {
        assert_eq!(toks("#!/usr/bin/lua\nreturn"), vec![Tok::Return]);
        let mut lx = Lexer::new("#!x\n  y".as_bytes());
        let t = lx.next_token().unwrap();
        assert_eq!((t.pos.line, t.pos.column), (2, 3));
        assert_eq!(toks("\u{FEFF}x"), vec![Tok::Name("x".into())]);
    }

    #[test]
    fn javascript_hints() {
        let cases = [
            (
                "a != b",
                "unexpected symbol near '!='; use ~= for inequality in Lua",
            ),
            (
                "a !== b",
                "unexpected symbol near '!=='; use ~= for inequality in Lua",
            ),
            (
                "!a",
                "unexpected symbol near '!'; use `not x` for negation in Lua",
            ),
            (
                "a && b",
                "unexpected symbol near '&&'; use `and` instead of && in Lua",
            ),
            (
                "a || b",
                "unexpected symbol near '||'; use `or` instead of || in Lua",
            ),
            (
                "x += 1",
                "unexpected symbol near '+='; Lua has no compound assignment; write `x = x + 1`",
            ),
            (
                "x -= 1",
                "unexpected symbol near '-='; Lua has no compound assignment; write `x = x + 1`",
            ),
            (
                "x ..= 'a'",
                "unexpected symbol near '..='; Lua has no compound assignment; write `x = x + 1`",
            ),
            (
                "x++",
                "unexpected symbol near '++'; Lua has no ++ operator; write `x = x + 1`",
            ),
            (
                "a === b",
                "unexpected symbol near '==='; use == for equality in Lua",
            ),
            (
                "`a${b}`",
                "unexpected symbol near '`'; Lua has no template strings; use .. or string.format",
            ),
            (
                "x => x",
                "unexpected symbol near '=>'; Lua has no arrow functions; write `function(x) return x end`",
            ),
            (
                "a ? b : c",
                "unexpected symbol near '?'; Lua has no ?: or ?? operators; write `cond and a or b`",
            ),
            (
                "2 ** 3",
                "unexpected symbol near '**'; use ^ for exponentiation in Lua",
            ),
            (
                "/* c */",
                "unexpected symbol near '/*'; Lua comments are `-- line` and `--[[ block ]]`",
            ),
            ("@", "unexpected symbol near '@'"),
        ];
        for (src, msg) in cases {
            assert_eq!(lex_err(src).message, msg, "{src}");
        }
        let e = lex_err("x = “hi”");
        assert!(
            e.message
                .starts_with("unexpected symbol near '“'; identifiers are ASCII"),
            "{}",
            e.message
        );
        assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
        assert_eq!(lex_err("\x01").message, "unexpected symbol near '<\\1>'");
        // `--` stays a comment and `//` floor division; `-=` inside a comment is fine.
        assert_eq!(
            toks("a // b -- x += 1"),
            vec![Tok::Name("a".into()), Tok::DSlash, Tok::Name("b".into())]
        );
    }
}
