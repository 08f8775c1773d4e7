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

use crate::ast::{
    Attrib, BinOp, Block, ChainLink, Expr, ExprKind, FuncBody, FuncName, LocalName, Name, Pos,
    Return, Stmt, TableField, UnOp,
};
use crate::heap::alloc_bytes;
use crate::lexer::{Lexer, Tok, Token, parse_error, show_bytes, unsupported};
use crate::{ErrorKind, GuestError, Location};

/// Largest accepted source, in bytes (4 MiB). Larger programs are a ParseError before lexing.
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// Largest syntactic nesting depth (statements inside blocks, sub-expressions, parentheses,
/// table constructors, function bodies, suffix chains such as `a.b.c`, unary operators and `^`
/// chains), like Lua's `LUAI_MAXCCALLS` (200). Deeper programs are a ParseError telling the
/// model to flatten the program. A chain of other binary operators (`+`, `..`, `and`, ...)
/// counts one level (two with a `..` run) whatever its length.
pub const MAX_SYNTAX_DEPTH: u32 = 200;

/// Priority of unary operators (Lua's `UNARY_PRIORITY`).
const UNARY_PRIORITY: u8 = 12;

/// Left priority of `..` (see [`binop`]).
const CONCAT_PRIORITY: u8 = 9;

/// Bytes charged while compiling: the syntax tree the parser builds, then
/// the compiler's state and the bytecode, counted against the execution's memory budget. The
/// parser and compiler charge every allocation they make before making it: a box or a vector's
/// growth is charged what the allocator takes for it (`heap::alloc_bytes`), so the count
/// follows the real footprint (a tree takes tens of times its source: a `{` alone is a node and
/// a vector of four fields).
#[derive(Clone, Debug)]
pub struct CompileMeter {
    /// Bytes charged so far.
    pub used: usize,
    /// The budget in bytes (the execution's memory cap).
    pub cap: usize,
}

impl CompileMeter {
    /// A meter with nothing charged and a budget of `cap` bytes.
    pub fn new(cap: usize) -> CompileMeter {
        CompileMeter { used: 0, cap }
    }

    /// Charge `n` bytes. Error: [`compile_memory_error`] at `pos`.
    #[inline]
    pub fn charge(&mut self, n: usize, pos: Pos) -> Result<(), GuestError> {
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
    pub fn charge_push<T>(&mut self, v: &Vec<T>, pos: Pos) -> Result<(), GuestError> {
        self.charge(push_growth_bytes(v), pos)
    }
}

/// Bytes `v.push(_)` allocates: `0` while `v` has room, else what its growth adds (Rust's
/// growth: double, at least 4 elements, 8 for bytes), rounded like `heap::alloc_bytes`.
#[inline]
pub fn push_growth_bytes<T>(v: &Vec<T>) -> usize {
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
pub fn compile_memory_error(cap: usize, pos: Pos) -> GuestError {
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
pub fn parse_metered(source: &[u8], meter: &mut CompileMeter) -> Result<Block, GuestError> {
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
}

fn binop(tok: &Tok) -> Option<(BinOp, u8, u8)> {
    // (operator, left priority, right priority), as Lua's `priority` table.
    Some(match tok {
        Tok::Plus => (BinOp::Add, 10, 10),
        Tok::Minus => (BinOp::Sub, 10, 10),
        Tok::Star => (BinOp::Mul, 11, 11),
        Tok::Percent => (BinOp::Mod, 11, 11),
        Tok::Caret => (BinOp::Pow, 14, 13),
        Tok::Slash => (BinOp::Div, 11, 11),
        Tok::DSlash => (BinOp::IDiv, 11, 11),
        Tok::Amp => (BinOp::BAnd, 6, 6),
        Tok::Pipe => (BinOp::BOr, 4, 4),
        Tok::Tilde => (BinOp::BXor, 5, 5),
        Tok::Shl => (BinOp::Shl, 7, 7),
        Tok::Shr => (BinOp::Shr, 7, 7),
        Tok::Concat => (BinOp::Concat, 9, 8),
        Tok::Eq => (BinOp::Eq, 3, 3),
        Tok::Ne => (BinOp::Ne, 3, 3),
        Tok::Lt => (BinOp::Lt, 3, 3),
        Tok::Le => (BinOp::Le, 3, 3),
        Tok::Gt => (BinOp::Gt, 3, 3),
        Tok::Ge => (BinOp::Ge, 3, 3),
        Tok::And => (BinOp::And, 2, 2),
        Tok::Or => (BinOp::Or, 1, 1),
        _ => return None,
    })
}

/// The node for `first` followed by a run of operators: one operator is an
/// [`ExprKind::Binop`] (positioned at the operator), more are an [`ExprKind::Chain`] (positioned
/// at the last operator).
fn run_node(first: Box<Expr>, mut links: Vec<ChainLink>) -> Expr {
    match links.len() {
        0 => *first,
        1 => {
            let ChainLink { op, pos, rhs } = links.remove(0);
            Expr::new(ExprKind::Binop(op, first, Box::new(rhs)), pos)
        }
        _ => {
            let pos = links.last().map_or(first.pos, |l| l.pos);
            Expr::new(ExprKind::Chain(first, links), pos)
        }
    }
}

fn unop(tok: &Tok) -> Option<UnOp> {
    match tok {
        Tok::Not => Some(UnOp::Not),
        Tok::Minus => Some(UnOp::Neg),
        Tok::Hash => Some(UnOp::Len),
        Tok::Tilde => Some(UnOp::BNot),
        _ => None,
    }
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

/// Which statement starts at the current token (keeps the dispatcher's frame small).
#[derive(Clone, Copy)]
enum StatKind {
    Empty,
    If,
    While,
    Do,
    For,
    Repeat,
    Function,
    Local,
    Label,
    Break,
    Goto,
    Braces,
    Comment,
    Expr,
}

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
        self.tok = next;
        self.after_return = false;
        Ok(())
    }

    /// Consume the current token and return it.
    fn take(&mut self) -> PResult<Token> {
        let next = self.next_raw()?;
        self.prev_end = self.tok.end;
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

    // ----- blocks and statements --------------------------------------------------------------

    fn block_follow(&self) -> bool {
        matches!(
            self.tok.tok,
            Tok::Else | Tok::Elseif | Tok::End | Tok::Eof | Tok::Until
        )
    }

    fn block(&mut self) -> PResult<Block> {
        let mut stmts = Vec::new();
        loop {
            if self.block_follow() {
                self.seal(&mut stmts);
                return Ok(Block { stmts, ret: None });
            }
            if self.check(&Tok::Return) {
                self.seal(&mut stmts);
                let ret = self.retstat()?;
                self.after_return = true;
                return Ok(Block {
                    stmts,
                    ret: Some(ret),
                });
            }
            self.statement(&mut stmts)?;
        }
    }

    fn retstat(&mut self) -> PResult<Return> {
        let saved = self.enter()?;
        let pos = self.tok.pos;
        self.advance()?;
        if matches!(
            self.tok.tok,
            Tok::Local
                | Tok::If
                | Tok::While
                | Tok::For
                | Tok::Do
                | Tok::Repeat
                | Tok::Goto
                | Tok::Break
                | Tok::Return
                | Tok::DColon
        ) {
            return Err(self.err_hint("unexpected symbol", RETURN_HINT));
        }
        let exprs = if self.block_follow() || self.check(&Tok::Semi) {
            Vec::new()
        } else {
            self.explist()?
        };
        self.test_next(&Tok::Semi)?;
        self.leave(saved);
        Ok(Return { exprs, pos })
    }

    fn stat_kind(&self) -> StatKind {
        match self.tok.tok {
            Tok::Semi => StatKind::Empty,
            Tok::If => StatKind::If,
            Tok::While => StatKind::While,
            Tok::Do => StatKind::Do,
            Tok::For => StatKind::For,
            Tok::Repeat => StatKind::Repeat,
            Tok::Function => StatKind::Function,
            Tok::Local => StatKind::Local,
            Tok::DColon => StatKind::Label,
            Tok::Break => StatKind::Break,
            Tok::Goto => StatKind::Goto,
            Tok::LBrace | Tok::RBrace => StatKind::Braces,
            Tok::Slash | Tok::DSlash => StatKind::Comment,
            _ => StatKind::Expr,
        }
    }

    /// Parse one statement and append it to `out` (empty statements append nothing).
    fn statement(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let saved = self.enter()?;
        let r = match self.stat_kind() {
            StatKind::Empty => self.advance(),
            StatKind::If => self.ifstat(out),
            StatKind::While => self.whilestat(out),
            StatKind::Do => self.dostat(out),
            StatKind::For => self.forstat(out),
            StatKind::Repeat => self.repeatstat(out),
            StatKind::Function => self.funcstat(out),
            StatKind::Local => self.localstat(out),
            StatKind::Label => self.labelstat(out),
            StatKind::Break => self.breakstat(out),
            StatKind::Goto => self.gotostat(out),
            StatKind::Braces => Err(self.err_hint("unexpected symbol", BRACES_HINT)),
            StatKind::Comment => Err(self.err_hint("unexpected symbol", COMMENT_HINT)),
            StatKind::Expr => self.exprstat(out),
        };
        r?;
        self.leave(saved);
        Ok(())
    }

    fn ifstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        let mut arms = Vec::new();
        // `if` cond `then` block {`elseif` cond `then` block}
        loop {
            self.advance()?; // `if` or `elseif`
            let cond = self.subexpr(0)?;
            self.check_next(&Tok::Then)?;
            let block = self.block()?;
            self.push(&mut arms, (cond, block))?;
            if !self.check(&Tok::Elseif) {
                break;
            }
        }
        let else_block = if self.test_next(&Tok::Else)? {
            let b = self.block()?;
            Some(self.boxed(b)?)
        } else {
            None
        };
        self.check_match(&Tok::End, &Tok::If, pos.line)?;
        self.seal(&mut arms);
        self.push(
            out,
            Stmt::If {
                arms,
                else_block,
                pos,
            },
        )?;
        Ok(())
    }

    fn whilestat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let cond = self.subexpr(0)?;
        self.check_next(&Tok::Do)?;
        let body = self.block()?;
        self.check_match(&Tok::End, &Tok::While, pos.line)?;
        let body = self.boxed(body)?;
        self.push(out, Stmt::While { cond, body, pos })?;
        Ok(())
    }

    fn dostat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let body = self.block()?;
        self.check_match(&Tok::End, &Tok::Do, pos.line)?;
        self.push(out, Stmt::Do(body, pos))?;
        Ok(())
    }

    fn repeatstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let body = self.block()?;
        self.check_match(&Tok::Until, &Tok::Repeat, pos.line)?;
        let cond = self.subexpr(0)?;
        let body = self.boxed(body)?;
        self.push(out, Stmt::Repeat { body, cond, pos })?;
        Ok(())
    }

    fn funcstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let first = self.name()?;
        let mut path = self.one(first)?;
        while self.test_next(&Tok::Dot)? {
            let n = self.name()?;
            self.push(&mut path, n)?;
        }
        let method = if self.test_next(&Tok::Colon)? {
            Some(self.name()?)
        } else {
            None
        };
        let func = self.body(pos)?;
        self.push(
            out,
            Stmt::Function {
                name: FuncName { path, method },
                func,
                pos,
            },
        )?;
        Ok(())
    }

    fn labelstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let name = self.name()?;
        self.check_next(&Tok::DColon)?;
        self.push(out, Stmt::Label(name, pos))?;
        Ok(())
    }

    fn breakstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        self.push(out, Stmt::Break(pos))?;
        Ok(())
    }

    fn gotostat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let name = self.name()?;
        self.push(out, Stmt::Goto(name, pos))?;
        Ok(())
    }

    fn forstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        if self.check(&Tok::LParen) {
            return Err(self.err_hint("<name> expected", FOR_HINT));
        }
        let var = self.name()?;
        match self.tok.tok {
            Tok::Assign => self.fornum(var, pos, out),
            Tok::Comma | Tok::In => self.forlist(var, pos, out),
            _ => Err(self.err_hint("'=' or 'in' expected", FOR_HINT)),
        }
    }

    fn fornum(&mut self, var: Name, pos: Pos, out: &mut Vec<Stmt>) -> PResult<()> {
        self.advance()?; // `=`
        let start = self.subexpr(0)?;
        if !self.check(&Tok::Comma) {
            return Err(self.err_hint("',' expected", FOR_HINT));
        }
        self.advance()?;
        let limit = self.subexpr(0)?;
        let step = if self.test_next(&Tok::Comma)? {
            let e = self.subexpr(0)?;
            Some(self.boxed(e)?)
        } else {
            None
        };
        self.check_next(&Tok::Do)?;
        let body = self.block()?;
        self.check_match(&Tok::End, &Tok::For, pos.line)?;
        let (start, limit, body) = (self.boxed(start)?, self.boxed(limit)?, self.boxed(body)?);
        self.push(
            out,
            Stmt::NumericFor {
                var,
                start,
                limit,
                step,
                body,
                pos,
            },
        )?;
        Ok(())
    }

    fn forlist(&mut self, var: Name, pos: Pos, out: &mut Vec<Stmt>) -> PResult<()> {
        let mut names = self.one(var)?;
        while self.test_next(&Tok::Comma)? {
            let n = self.name()?;
            self.push(&mut names, n)?;
        }
        self.check_next(&Tok::In)?;
        let exprs = self.explist()?;
        self.check_next(&Tok::Do)?;
        let body = self.block()?;
        self.check_match(&Tok::End, &Tok::For, pos.line)?;
        let body = self.boxed(body)?;
        self.push(
            out,
            Stmt::GenericFor {
                names,
                exprs,
                body,
                pos,
            },
        )?;
        Ok(())
    }

    fn localstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        if self.check(&Tok::Function) {
            let fpos = self.tok.pos;
            self.advance()?;
            let name = self.name()?;
            let func = self.body(fpos)?;
            self.push(out, Stmt::LocalFunction { name, func, pos })?;
            return Ok(());
        }
        let mut names = Vec::new();
        loop {
            let name = self.name()?;
            if self.check(&Tok::Colon) {
                return Err(self.err_hint("unexpected symbol", TYPES_HINT));
            }
            let attrib = if self.check(&Tok::Lt) {
                self.attrib()?
            } else {
                None
            };
            self.push(&mut names, LocalName { name, attrib })?;
            if !self.test_next(&Tok::Comma)? {
                break;
            }
        }
        let exprs = if self.test_next(&Tok::Assign)? {
            self.explist()?
        } else {
            Vec::new()
        };
        self.push(out, Stmt::Local { names, exprs, pos })?;
        Ok(())
    }

    /// `'<' Name '>'` after a local name; the current token is `<`.
    fn attrib(&mut self) -> PResult<Option<Attrib>> {
        self.advance()?;
        let attr = self.name()?;
        self.check_next(&Tok::Gt)?;
        match &*attr.name {
            "const" => Ok(Some(Attrib::Const)),
            "close" => Err(Box::new(unsupported(
                "to-be-closed variables (<close>) are not supported; close resources explicitly \
                 when you are done with them"
                    .to_string(),
                attr.pos,
            ))),
            other => Err(Box::new(parse_error(
                format!(
                    "unknown attribute '{}'; the only supported attribute is <const>",
                    show_bytes(other.as_bytes())
                ),
                attr.pos,
            ))),
        }
    }

    fn exprstat(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let pos = self.tok.pos;
        let start = self.tok.start;
        let first = self.suffixedexp()?;
        if self.check(&Tok::Assign) || self.check(&Tok::Comma) {
            return self.assignment(first, pos, out);
        }
        if matches!(first.kind, ExprKind::Call(..) | ExprKind::MethodCall(..)) {
            self.push(out, Stmt::Call(first))?;
            return Ok(());
        }
        Err(self.exprstat_error(&first, start))
    }

    /// The error for an expression statement that is neither a call nor an assignment.
    #[cold]
    #[inline(never)]
    fn exprstat_error(&self, first: &Expr, start: usize) -> Box<GuestError> {
        let name = match &first.kind {
            ExprKind::Name(n) => Some(&**n),
            _ => None,
        };
        let decrement = self
            .lex
            .source()
            .get(self.prev_end..)
            .is_some_and(|r| r.starts_with(b"--"));
        let hint = match (name, &self.tok.tok) {
            (Some("const" | "let" | "var"), Tok::Name(_)) => {
                "declare variables with `local` (e.g. `local x = 1`)"
            }
            (Some("continue"), _) => {
                "Lua has no `continue`; use `goto continue` and put `::continue::` just before \
                 the loop's `end`"
            }
            _ if decrement => "`--` starts a comment in Lua; write `x = x - 1`",
            _ if matches!(self.tok.tok, Tok::Eof | Tok::End) => {
                // A bare value as the last statement (`x`): the model meant to return it.
                let text = self
                    .lex
                    .source()
                    .get(start..self.prev_end)
                    .and_then(|b| std::str::from_utf8(b).ok())
                    .filter(|t| t.len() <= 60 && !t.contains('\n'))
                    .unwrap_or("<expression>");
                return self.err_hint(
                    "syntax error",
                    &format!(
                        "a statement must be an assignment or a function call; to return a \
                         value write `return {}`",
                        text
                    ),
                );
            }
            _ => "a statement must be an assignment or a function call",
        };
        self.err_hint("syntax error", hint)
    }

    fn assignment(&mut self, first: Expr, pos: Pos, out: &mut Vec<Stmt>) -> PResult<()> {
        self.check_var(&first)?;
        let mut targets = self.one(first)?;
        while self.test_next(&Tok::Comma)? {
            let t = self.suffixedexp()?;
            self.check_var(&t)?;
            self.push(&mut targets, t)?;
        }
        self.check_next(&Tok::Assign)?;
        let exprs = self.explist()?;
        self.push(
            out,
            Stmt::Assign {
                targets,
                exprs,
                pos,
            },
        )?;
        Ok(())
    }

    fn check_var(&self, e: &Expr) -> PResult<()> {
        if matches!(e.kind, ExprKind::Name(_) | ExprKind::Index(..)) {
            Ok(())
        } else {
            Err(self.err_hint(
                "syntax error",
                "only variables, fields and indexed elements can be assigned to",
            ))
        }
    }

    /// Parameters and body of a function; the current token is `(`. `pos` is the `function`
    /// keyword.
    fn body(&mut self, pos: Pos) -> PResult<Box<FuncBody>> {
        self.check_next(&Tok::LParen)?;
        let mut params = Vec::new();
        let mut is_vararg = false;
        if !self.check(&Tok::RParen) {
            loop {
                if self.check(&Tok::Dots) {
                    self.advance()?;
                    is_vararg = true;
                    break;
                }
                if !matches!(self.tok.tok, Tok::Name(_)) {
                    return Err(self.err_near("<name> or '...' expected"));
                }
                let n = self.name()?;
                self.push(&mut params, n)?;
                if self.check(&Tok::Colon) {
                    return Err(self.err_hint("')' expected", TYPES_HINT));
                }
                if !self.test_next(&Tok::Comma)? {
                    break;
                }
            }
        }
        self.check_next(&Tok::RParen)?;
        self.seal(&mut params);
        let outer = std::mem::replace(&mut self.vararg, is_vararg);
        let body = self.block()?;
        self.vararg = outer;
        let end_line = self.tok.pos.line;
        self.check_match(&Tok::End, &Tok::Function, pos.line)?;
        self.boxed(FuncBody {
            params,
            is_vararg,
            body,
            pos,
            end_line,
        })
    }

    // ----- expressions ------------------------------------------------------------------------

    fn explist(&mut self) -> PResult<Vec<Expr>> {
        let first = self.subexpr(0)?;
        let mut v = self.one(first)?;
        while self.test_next(&Tok::Comma)? {
            let e = self.subexpr(0)?;
            self.push(&mut v, e)?;
        }
        self.seal(&mut v);
        Ok(v)
    }

    /// `subexpr -> (simpleexp | unop subexpr) { binop subexpr }` where binary operators with a
    /// left priority higher than `limit` are consumed.
    ///
    /// The operators consumed here form one run (their priorities never increase along it) and
    /// are collected in a loop, not by recursion: one operator gives an [`ExprKind::Binop`], more
    /// give one flat [`ExprKind::Chain`], so a run of any length adds one level to the tree (two
    /// with a `..` run, see [`Parser::concat_rest`]). Only the right operands recurse, one level
    /// each.
    fn subexpr(&mut self, limit: u8) -> PResult<Expr> {
        let saved = self.enter()?;
        let first = match unop(&self.tok.tok) {
            Some(op) => self.unary(op)?,
            None => self.simpleexp()?,
        };
        let e = match binop(&self.tok.tok) {
            Some((_, left, _)) if left > limit => self.operator_run(first, limit)?,
            _ => first,
        };
        self.leave(saved);
        Ok(e)
    }

    /// The operators after `first` whose left priority is above `limit` (at least one), as one
    /// node. Kept out of [`Parser::subexpr`] so that its frame is not on the recursion path of
    /// expressions without operators (deep calls, parentheses).
    #[inline(never)]
    fn operator_run(&mut self, first: Expr, limit: u8) -> PResult<Expr> {
        let mut links: Vec<ChainLink> = Vec::new();
        while let Some((op, left, right)) = binop(&self.tok.tok) {
            if left <= limit {
                break;
            }
            self.operator_link(op, right, &mut links)?;
        }
        self.bump()?;
        self.seal(&mut links);
        // The boxes `run_node` makes: `first`, and `rhs` of a single operator.
        let first = self.boxed(first)?;
        if links.len() == 1 {
            self.charge(alloc_bytes(std::mem::size_of::<Expr>()))?;
        }
        Ok(run_node(first, links))
    }

    /// One operator of a run and its right operand, appended to `links`.
    #[inline(never)]
    fn operator_link(&mut self, op: BinOp, right: u8, links: &mut Vec<ChainLink>) -> PResult<()> {
        let pos = self.tok.pos;
        self.advance()?;
        let rhs = if op == BinOp::Concat {
            self.concat_rest()?
        } else {
            self.subexpr(right)?
        };
        self.push(links, ChainLink { op, pos, rhs })?;
        Ok(())
    }

    /// The right operand of a `..` whose token was just consumed: the rest of the run
    /// `b .. c .. d` (right-associative), collected in a loop. Each operand is parsed with the
    /// left priority of `..` as its limit, so it takes every tighter operator (`+`, `^`, unary)
    /// and stops at the next `..`. One operand is returned as it is; more become one
    /// [`ExprKind::Concat`] (positioned at its first `..`).
    fn concat_rest(&mut self) -> PResult<Expr> {
        let first = self.subexpr(CONCAT_PRIORITY)?;
        if !self.check(&Tok::Concat) {
            return Ok(first);
        }
        let pos = self.tok.pos;
        let mut parts = self.one(first)?;
        while self.test_next(&Tok::Concat)? {
            let e = self.subexpr(CONCAT_PRIORITY)?;
            self.push(&mut parts, e)?;
        }
        self.seal(&mut parts);
        self.bump()?;
        Ok(Expr::new(ExprKind::Concat(parts), pos))
    }

    fn unary(&mut self, op: UnOp) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let operand = self.subexpr(UNARY_PRIORITY)?;
        let operand = self.boxed(operand)?;
        Ok(Expr::new(ExprKind::Unop(op, operand), pos))
    }

    fn simpleexp(&mut self) -> PResult<Expr> {
        match self.tok.tok {
            Tok::Int(_)
            | Tok::Float(_)
            | Tok::Str(_)
            | Tok::Nil
            | Tok::True
            | Tok::False
            | Tok::Dots => self.literal(),
            Tok::LBrace => self.constructor(),
            Tok::Function => self.function_expr(),
            _ => self.suffixedexp(),
        }
    }

    fn literal(&mut self) -> PResult<Expr> {
        if self.tok.tok == Tok::Dots && !self.vararg {
            return Err(self.err_hint(
                "cannot use '...' outside a vararg function",
                "declare the function as `function(...)` to accept varargs",
            ));
        }
        if let Tok::Str(b) = &self.tok.tok {
            let n = alloc_bytes(b.capacity());
            self.charge(n)?;
        }
        let t = self.take()?;
        let kind = match t.tok {
            Tok::Int(i) => ExprKind::Int(i),
            Tok::Float(f) => ExprKind::Float(f),
            Tok::Str(s) => ExprKind::Str(s),
            Tok::True => ExprKind::True,
            Tok::False => ExprKind::False,
            Tok::Dots => ExprKind::Vararg,
            _ => ExprKind::Nil,
        };
        Ok(Expr::new(kind, t.pos))
    }

    fn function_expr(&mut self) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let body = self.body(pos)?;
        Ok(Expr::new(ExprKind::Function(body), pos))
    }

    fn primaryexp(&mut self) -> PResult<Expr> {
        match self.tok.tok {
            Tok::Name(_) => {
                let n = self.name()?;
                Ok(Expr::new(ExprKind::Name(n.name), n.pos))
            }
            Tok::LParen => self.paren_expr(),
            _ => Err(self.err_near("unexpected symbol")),
        }
    }

    fn paren_expr(&mut self) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let inner = self.subexpr(0)?;
        self.check_match(&Tok::RParen, &Tok::LParen, pos.line)?;
        let inner = self.boxed(inner)?;
        Ok(Expr::new(ExprKind::Paren(inner), pos))
    }

    /// `suffixedexp -> primaryexp { '.' NAME | '[' exp ']' | ':' NAME funcargs | funcargs }`
    fn suffixedexp(&mut self) -> PResult<Expr> {
        let mut e = self.primaryexp()?;
        loop {
            e = match self.tok.tok {
                Tok::Dot => self.field_suffix(e)?,
                Tok::LBracket => self.index_suffix(e)?,
                Tok::Colon => self.method_suffix(e)?,
                Tok::LParen | Tok::Str(_) | Tok::LBrace => self.call_suffix(e)?,
                _ => return Ok(e),
            };
        }
    }

    fn field_suffix(&mut self, obj: Expr) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let n = self.name()?;
        self.charge(alloc_bytes(n.name.len()))?;
        let key = Expr::new(ExprKind::Str(n.name.as_bytes().to_vec()), n.pos);
        self.bump()?;
        let (obj, key) = (self.boxed(obj)?, self.boxed(key)?);
        Ok(Expr::new(ExprKind::Index(obj, key), pos))
    }

    fn index_suffix(&mut self, obj: Expr) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let key = self.subexpr(0)?;
        self.check_next(&Tok::RBracket)?;
        self.bump()?;
        let (obj, key) = (self.boxed(obj)?, self.boxed(key)?);
        Ok(Expr::new(ExprKind::Index(obj, key), pos))
    }

    fn method_suffix(&mut self, obj: Expr) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let n = self.name()?;
        let args = self.callargs()?;
        self.bump()?;
        let obj = self.boxed(obj)?;
        Ok(Expr::new(ExprKind::MethodCall(obj, n, args), pos))
    }

    fn call_suffix(&mut self, callee: Expr) -> PResult<Expr> {
        let pos = self.tok.pos;
        let args = self.callargs()?;
        self.bump()?;
        let callee = self.boxed(callee)?;
        Ok(Expr::new(ExprKind::Call(callee, args), pos))
    }

    fn callargs(&mut self) -> PResult<Vec<Expr>> {
        match self.tok.tok {
            Tok::Str(_) => {
                let e = self.literal()?;
                self.one(e)
            }
            Tok::LBrace => {
                let e = self.constructor()?;
                self.one(e)
            }
            Tok::LParen => self.paren_args(),
            _ => Err(self.err_near("function arguments expected")),
        }
    }

    fn paren_args(&mut self) -> PResult<Vec<Expr>> {
        let line = self.tok.pos.line;
        self.advance()?;
        let args = if self.check(&Tok::RParen) {
            Vec::new()
        } else {
            self.explist()?
        };
        self.check_match(&Tok::RParen, &Tok::LParen, line)?;
        Ok(args)
    }

    /// Table constructor; the current token is `{`.
    fn constructor(&mut self) -> PResult<Expr> {
        let pos = self.tok.pos;
        self.advance()?;
        let mut fields = Vec::new();
        loop {
            if self.check(&Tok::RBrace) {
                break;
            }
            self.field(&mut fields)?;
            if !(self.test_next(&Tok::Comma)? || self.test_next(&Tok::Semi)?) {
                break;
            }
        }
        self.check_match(&Tok::RBrace, &Tok::LBrace, pos.line)?;
        self.seal(&mut fields);
        Ok(Expr::new(ExprKind::Table(fields), pos))
    }

    /// One table constructor field, appended to `out`.
    fn field(&mut self, out: &mut Vec<TableField>) -> PResult<()> {
        let named = matches!(self.tok.tok, Tok::Name(_)) && self.peek_is_assign()?;
        match self.tok.tok {
            Tok::Name(_) if named => {
                let n = self.name()?;
                self.advance()?; // `=`
                let v = self.subexpr(0)?;
                self.push(out, TableField::Named(n, v))?;
            }
            Tok::LBracket => {
                self.advance()?;
                let k = self.subexpr(0)?;
                self.check_next(&Tok::RBracket)?;
                self.check_next(&Tok::Assign)?;
                let v = self.subexpr(0)?;
                self.push(out, TableField::Keyed(k, v))?;
            }
            _ => {
                let key_colon = self.peek_is_colon()?;
                let v = match self.subexpr(0) {
                    Ok(v) => v,
                    Err(mut e) if key_colon => {
                        e.message.push_str("; ");
                        e.message.push_str(TABLE_HINT);
                        return Err(e);
                    }
                    Err(e) => return Err(e),
                };
                self.push(out, TableField::Positional(v))?;
            }
        }
        Ok(())
    }
}
