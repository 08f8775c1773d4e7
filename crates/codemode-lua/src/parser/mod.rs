//! Lua 5.4 parser: source text → [`Block`] (Lua 5.4 Reference Manual §3 and §9).
//!
//! A recursive-descent parser shaped like Lua's `lparser.c`, with a depth guard so that no input
//! can overflow the Rust stack: every statement and every sub-expression enters one nesting
//! level, and every node added iteratively (suffixes like `.x`, `[k]`, `(args)`) counts toward
//! the height of the tree being built. Going over [`MAX_SYNTAX_DEPTH`] is a ParseError.
//! Consequently, any root-to-leaf path of the returned AST passes through at most about
//! `MAX_SYNTAX_DEPTH + 2` nested [`Expr`]/[`Stmt`] nodes, so later recursive walks (compiler,
//! drop) are bounded too.
//!
//! Binary operators are the exception to "one level per node": a run of operators at one level
//! (`1 + 2 * 3 - 4 + ...`, `a and b and c`, `x .. y .. z`) is collected in a loop into one flat
//! node ([`ExprKind::Chain`], [`ExprKind::Concat`]) that adds one level whatever its length, so
//! such chains are bounded only by the source size (Lua 5.4 accepts long left-associative
//! chains too; unlike Lua, which stops near 200 terms, long `..` chains are accepted as well).
//! `^` and unary operators still nest one level per operator, like Lua.
//!
//! Semantic checks (goto targets, `break` outside a loop, duplicate labels, assignment to
//! `<const>`) are left to the compiler. The parser does reject `...` outside a vararg function,
//! as Lua's parser does.
//!
//! This file holds the entry points, the compile meter, token handling, memory charging and the
//! depth guard; `stmt.rs` blocks and statements; `expr.rs` expressions.
//!
//! [`Expr`]: crate::ast::Expr
//! [`Stmt`]: crate::ast::Stmt
//! [`ExprKind::Chain`]: crate::ast::ExprKind::Chain
//! [`ExprKind::Concat`]: crate::ast::ExprKind::Concat

use crate::ast::{Block, Name, Pos};
use crate::heap::alloc_bytes;
use crate::lexer::{Lexer, Tok, Token, parse_error, show_bytes};
use crate::{ErrorKind, GuestError, Location};

mod expr;
mod stmt;

/// Largest accepted source, in bytes (4 MiB). Larger programs are a ParseError before lexing.
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// Largest syntactic nesting depth (statements inside blocks, sub-expressions, parentheses,
/// table constructors, function bodies, suffix chains such as `a.b.c`, unary operators and `^`
/// chains), like Lua's `LUAI_MAXCCALLS` (200). Deeper programs are a ParseError telling the
/// model to flatten the program. A chain of other binary operators (`+`, `..`, `and`, ...)
/// counts one level (two with a `..` run) whatever its length.
pub const MAX_SYNTAX_DEPTH: u32 = 200;

/// Bytes charged while compiling: the syntax tree the parser builds, then
/// the compiler's state and the bytecode, counted against the execution's memory budget. The
/// parser and compiler charge every allocation they make before making it: a box or a vector's
/// growth is charged what the allocator takes for it (`heap::alloc_bytes`), so the count
/// follows the real footprint (a tree takes tens of times its source: a `{` alone is a node and
/// a vector of four fields).
#[derive(Clone, Debug)]
pub(crate) struct CompileMeter {
    /// Bytes charged so far.
    pub used: usize,
    /// The budget in bytes (the execution's memory cap).
    pub cap: usize,
}

impl CompileMeter {
    /// A meter with nothing charged and a budget of `cap` bytes.
    pub(crate) fn new(cap: usize) -> CompileMeter {
        CompileMeter { used: 0, cap }
    }

    /// Charge `n` bytes. Error: [`compile_memory_error`] at `pos`.
    #[inline]
    pub(crate) fn charge(&mut self, n: usize, pos: Pos) -> Result<(), GuestError> {
        match self.used.checked_add(n) {
            Some(u) if u <= self.cap => {
                self.used = u;
                Ok(())
            }
            _ => Err(compile_memory_error(self.cap, pos)),
        }
    }

    /// Charge the allocation `v.push(_)` is about to make when `v` is full (Rust's growth:
    /// double, at least 4 elements).
    #[inline]
    pub(crate) fn charge_push<T>(&mut self, v: &Vec<T>, pos: Pos) -> Result<(), GuestError> {
        self.charge(push_growth_bytes(v), pos)
    }
}

/// Bytes `v.push(_)` allocates: `0` while `v` has room, else what its growth adds (Rust's
/// growth: double, at least 4 elements, 8 for bytes), rounded like `heap::alloc_bytes`.
#[inline]
pub(crate) fn push_growth_bytes<T>(v: &Vec<T>) -> usize {
    if v.len() < v.capacity() {
        return 0;
    }
    let size = std::mem::size_of::<T>();
    let cap = v.capacity();
    let min = if size == 1 { 8 } else { 4 };
    let new = (cap * 2).max(cap + 1).max(min);
    alloc_bytes(new * size).saturating_sub(alloc_bytes(cap * size))
}

/// The error of a program whose compilation needs more memory than the execution's budget: an
/// `ExecutionFailure` "memory limit exceeded: compiling the program needs more than N bytes
/// ...", located where the parser or compiler was.
pub(crate) fn compile_memory_error(cap: usize, pos: Pos) -> GuestError {
    GuestError {
        kind: ErrorKind::ExecutionFailure,
        message: format!(
            "memory limit exceeded: compiling the program needs more than {cap} bytes (its syntax tree and bytecode take many times its source size); write a shorter program: fewer and flatter table constructors, blocks and expressions, and pass large data through a tool instead of writing it into the source"
        ),
        location: (pos.line > 0).then_some(Location {
            line: pos.line,
            column: pos.column,
        }),
        suggestions: Vec::new(),
    }
}

/// Parse a whole chunk. Errors: [`ErrorKind::ParseError`] with location and a model-facing message.
///
/// An empty (whitespace/comment-only) chunk is valid and yields an empty [`Block`].
pub fn parse(source: &str) -> Result<Block, GuestError> {
    parse_bytes(source.as_bytes())
}

/// Like [`parse`], for a source that may hold arbitrary bytes (in strings and comments).
pub fn parse_bytes(source: &[u8]) -> Result<Block, GuestError> {
    let mut meter = CompileMeter::new(usize::MAX);
    parse_metered(source, &mut meter)
}

/// Like [`parse_bytes`], charging the syntax tree to `meter`. Errors: as [`parse`], and
/// [`compile_memory_error`] when the tree would exceed the meter's budget.
pub(crate) fn parse_metered(source: &[u8], meter: &mut CompileMeter) -> Result<Block, GuestError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(GuestError {
            kind: ErrorKind::ParseError,
            message: format!(
                "program too large ({} bytes; the limit is {} bytes); write a shorter program",
                source.len(),
                MAX_SOURCE_BYTES
            ),
            location: None,
            suggestions: Vec::new(),
        });
    }
    parse_chunk(source, meter).map_err(|e| *e)
}

/// Errors are boxed inside the parser to keep the recursive frames small (debug builds give every
/// temporary its own stack slot).
type PResult<T> = Result<T, Box<GuestError>>;

fn parse_chunk(source: &[u8], meter: &mut CompileMeter) -> PResult<Block> {
    let mut lex = Lexer::new(source);
    let first = lex.next_token().map_err(Box::new)?;
    let mut p = Parser {
        lex,
        meter,
        tok: first,
        ahead: None,
        depth: 0,
        peak: 0,
        vararg: true,
        after_return: false,
        prev_end: 0,
        prev_pos: Pos::default(),
    };
    let block = p.block()?;
    if p.tok.tok != Tok::Eof {
        return Err(p.expected_err(&Tok::Eof));
    }
    Ok(block)
}

struct Parser<'a> {
    lex: Lexer<'a>,
    /// What the tree built so far has been charged.
    meter: &'a mut CompileMeter,
    /// The current (not yet consumed) token.
    tok: Token,
    /// One token of lookahead, filled by [`Parser::peek_is_assign`].
    ahead: Option<Token>,
    /// Current recursion depth (statements and sub-expressions).
    depth: u32,
    /// Upper bound on `level + height - 1` of the nodes built at the current level (see the
    /// module documentation).
    peak: u32,
    /// Whether the function being parsed is vararg (the main chunk is).
    vararg: bool,
    /// Set right after a `return` statement is parsed; cleared when a token is consumed.
    after_return: bool,
    /// Byte offset just past the last consumed token.
    prev_end: usize,
    /// Position of the last consumed token (where lua5.4 places an instruction emitted after
    /// it: see `assignment`).
    prev_pos: Pos,
}

const BRACES_HINT: &str = "Lua blocks do not use braces: write `if c then ... end`, `while c do \
                           ... end`, `function f() ... end`";
const RETURN_HINT: &str = "`return` must be the last statement of a block (use `do return end` \
                           to return early)";
const FOR_HINT: &str =
    "Lua loops are `for i = 1, n do ... end` or `for k, v in pairs(t) do ... end`";
const TABLE_HINT: &str = "use `key = value` (or `[\"key\"] = value`) in Lua table constructors";
const TYPES_HINT: &str = "Lua has no type annotations; write `local x = 1`, `function f(a, b)`";
const COMMENT_HINT: &str = "Lua comments are `-- line` and `--[[ block ]]`";

impl<'a> Parser<'a> {
    // ----- token handling ---------------------------------------------------------------------

    fn next_raw(&mut self) -> PResult<Token> {
        match self.ahead.take() {
            Some(t) => Ok(t),
            None => self.lex.next_token().map_err(Box::new),
        }
    }

    /// Consume the current token.
    fn advance(&mut self) -> PResult<()> {
        let next = self.next_raw()?;
        self.prev_end = self.tok.end;
        self.prev_pos = self.tok.pos;
        self.tok = next;
        self.after_return = false;
        Ok(())
    }

    /// Consume the current token and return it.
    fn take(&mut self) -> PResult<Token> {
        let next = self.next_raw()?;
        self.prev_end = self.tok.end;
        self.prev_pos = self.tok.pos;
        self.after_return = false;
        Ok(std::mem::replace(&mut self.tok, next))
    }

    /// Whether the token after the current one is `=` (one token of lookahead).
    fn peek_is_assign(&mut self) -> PResult<bool> {
        if self.ahead.is_none() {
            self.ahead = Some(self.lex.next_token().map_err(Box::new)?);
        }
        Ok(matches!(&self.ahead, Some(t) if t.tok == Tok::Assign))
    }

    /// Whether the current token is a name or string followed by `:` (JavaScript object syntax
    /// in a table constructor, `{a: 1}`).
    fn peek_is_colon(&mut self) -> PResult<bool> {
        if !matches!(self.tok.tok, Tok::Name(_) | Tok::Str(_)) {
            return Ok(false);
        }
        if self.ahead.is_none() {
            self.ahead = Some(self.lex.next_token().map_err(Box::new)?);
        }
        Ok(matches!(&self.ahead, Some(t) if t.tok == Tok::Colon))
    }

    fn check(&self, t: &Tok) -> bool {
        self.tok.tok == *t
    }

    /// Consume the current token if it is `t`.
    fn test_next(&mut self, t: &Tok) -> PResult<bool> {
        if self.check(t) {
            self.advance()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// How the current token is shown after "near": `'x'` or `<eof>`.
    fn near(&self) -> String {
        if self.tok.tok == Tok::Eof {
            return "<eof>".to_string();
        }
        let src = self.lex.source();
        let text = src.get(self.tok.start..self.tok.end).unwrap_or(&[]);
        format!("'{}'", show_bytes(text))
    }

    /// An error at the current token: "`msg` near 'tok'" (plus the `return` hint when relevant).
    #[cold]
    #[inline(never)]
    fn err_near(&self, msg: &str) -> Box<GuestError> {
        let mut message = format!("{msg} near {}", self.near());
        if self.after_return {
            message.push_str("; ");
            message.push_str(RETURN_HINT);
        }
        Box::new(parse_error(message, self.tok.pos))
    }

    #[cold]
    #[inline(never)]
    fn err_hint(&self, msg: &str, hint: &str) -> Box<GuestError> {
        let mut e = self.err_near(msg);
        if !hint.is_empty() {
            e.message.push_str("; ");
            e.message.push_str(hint);
        }
        e
    }

    #[cold]
    #[inline(never)]
    fn expected_err(&self, what: &Tok) -> Box<GuestError> {
        let hint = match (&self.tok.tok, what) {
            (Tok::LBrace, Tok::Then | Tok::Do) => BRACES_HINT,
            (Tok::RBrace, Tok::End | Tok::Eof) => BRACES_HINT,
            (Tok::Colon, Tok::RBrace) => TABLE_HINT,
            _ => "",
        };
        self.err_hint(&format!("{} expected", what.describe()), hint)
    }

    /// Consume `t` or fail with "'t' expected near X".
    fn check_next(&mut self, t: &Tok) -> PResult<()> {
        if self.check(t) {
            self.advance()
        } else {
            Err(self.expected_err(t))
        }
    }

    /// Consume the closing `what` of a construct opened by `who` at `line`.
    fn check_match(&mut self, what: &Tok, who: &Tok, line: u32) -> PResult<()> {
        if self.check(what) {
            return self.advance();
        }
        Err(self.match_err(what, who, line))
    }

    #[cold]
    #[inline(never)]
    fn match_err(&self, what: &Tok, who: &Tok, line: u32) -> Box<GuestError> {
        let mut e = self.expected_err(what);
        if line != self.tok.pos.line {
            let head = format!("{} expected", what.describe());
            let with = format!(
                "{} expected (to close {} at line {line})",
                what.describe(),
                who.describe()
            );
            e.message = e.message.replacen(&head, &with, 1);
        }
        e
    }

    // ----- memory ----------------------------------------------------------------------------

    /// Charge `n` bytes of tree to the meter.
    #[inline]
    fn charge(&mut self, n: usize) -> PResult<()> {
        let pos = self.tok.pos;
        self.meter.charge(n, pos).map_err(Box::new)
    }

    /// `Box::new(x)`, charged.
    #[inline]
    fn boxed<T>(&mut self, x: T) -> PResult<Box<T>> {
        self.charge(alloc_bytes(std::mem::size_of::<T>()))?;
        Ok(Box::new(x))
    }

    /// `v.push(x)`, its growth charged.
    #[inline]
    fn push<T>(&mut self, v: &mut Vec<T>, x: T) -> PResult<()> {
        let pos = self.tok.pos;
        self.meter.charge_push(v, pos).map_err(Box::new)?;
        v.push(x);
        Ok(())
    }

    /// Give back a finished vector's spare capacity (and its charge): a vector grown by
    /// pushes has room for up to twice its elements, four at least, and a tree holds many
    /// short ones (a table constructor of one field).
    fn seal<T>(&mut self, v: &mut Vec<T>) {
        let size = std::mem::size_of::<T>();
        if v.capacity() > v.len() {
            let before = alloc_bytes(v.capacity() * size);
            v.shrink_to_fit();
            let after = alloc_bytes(v.capacity() * size);
            self.meter.used = self.meter.used.saturating_sub(before.saturating_sub(after));
        }
    }

    /// `vec![x]`, charged.
    #[inline]
    fn one<T>(&mut self, x: T) -> PResult<Vec<T>> {
        self.charge(alloc_bytes(std::mem::size_of::<T>()))?;
        Ok(vec![x])
    }

    fn name(&mut self) -> PResult<Name> {
        if let Tok::Name(_) = self.tok.tok {
            let len = match &self.tok.tok {
                Tok::Name(n) => n.len(),
                _ => 0,
            };
            self.charge(alloc_bytes(len))?;
            let t = self.take()?;
            if let Tok::Name(n) = t.tok {
                return Ok(Name {
                    name: n,
                    pos: t.pos,
                });
            }
        }
        Err(self.err_near("<name> expected"))
    }

    // ----- depth guard ------------------------------------------------------------------------

    #[cold]
    #[inline(never)]
    fn too_deep(&self) -> Box<GuestError> {
        Box::new(parse_error(
            format!(
                "expression/block nesting too deep (limit {MAX_SYNTAX_DEPTH}); flatten the \
                 program (store intermediate results in local variables, split long \
                 expressions and deeply nested code)"
            ),
            self.tok.pos,
        ))
    }

    /// Enter one nesting level; returns the saved `peak` for [`Parser::leave`].
    fn enter(&mut self) -> PResult<u32> {
        self.depth += 1;
        if self.depth > MAX_SYNTAX_DEPTH {
            return Err(self.too_deep());
        }
        let saved = self.peak;
        self.peak = self.depth;
        Ok(saved)
    }

    fn leave(&mut self, saved: u32) {
        self.depth = self.depth.saturating_sub(1);
        self.peak = self.peak.max(saved);
    }

    /// Account for one node wrapped around nodes built at the current level.
    fn bump(&mut self) -> PResult<()> {
        self.peak += 1;
        if self.peak > MAX_SYNTAX_DEPTH {
            return Err(self.too_deep());
        }
        Ok(())
    }
}
