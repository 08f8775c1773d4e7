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
pub(crate) enum Tok {
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
    pub(crate) fn describe(&self) -> String {
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
    pub(crate) fn symbol(&self) -> &'static str {
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
pub(crate) struct Token {
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
pub(crate) struct Lexer<'a> {
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
    pub(crate) fn new(src: &'a [u8]) -> Lexer<'a> {
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
    pub(crate) fn source(&self) -> &'a [u8] {
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
    pub(crate) fn next_token(&mut self) -> Result<Token, GuestError> {
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

mod strings;

#[cfg(test)]
mod tests;
