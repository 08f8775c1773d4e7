//! Abstract syntax tree for a Lua 5.4 chunk (Lua 5.4 Reference Manual §3, §9 "The Complete Syntax").
//!
//! The parser ([`crate::parser`]) produces it; the compiler ([`crate::compiler`]) lowers it to
//! register bytecode and drops it. Every node that can fail at run time carries a [`Pos`] so that
//! diagnostics report `line:column`.
//!
//! Position conventions (all 1-based, columns counted in bytes of the source line):
//! - [`Expr::pos`] is the first token of the expression, except:
//!   - [`ExprKind::Binop`] and [`ExprKind::Unop`]: the operator token;
//!   - [`ExprKind::Chain`]: its last operator token (the outermost operator of the equivalent
//!     left-nested tree); every [`ChainLink`] carries its own operator's position;
//!   - [`ExprKind::Concat`]: its first `..` token;
//!   - [`ExprKind::Index`]: the `.` or `[` token;
//!   - [`ExprKind::MethodCall`]: the `:` token;
//!   - [`ExprKind::Call`]: the `(`, `{` or string token that starts the arguments.
//! - Statements carry the position of their first token.

/// A source position: 1-based line and 1-based column (byte offset within the line + 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

/// An identifier with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    pub name: Box<str>,
    pub pos: Pos,
}

/// A block: a list of statements optionally ended by `return`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub ret: Option<Return>,
}

/// `return explist [';']`, the last statement of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Return {
    pub exprs: Vec<Expr>,
    pub pos: Pos,
}

/// Local variable attribute (`<const>`; `<close>` is rejected by the parser with a ParseError).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attrib {
    Const,
}

/// One name in a `local` statement.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalName {
    pub name: Name,
    pub attrib: Option<Attrib>,
}

/// `function a.b.c:m() end`: `path` is `[a, b, c]`, `method` is `Some(m)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncName {
    pub path: Vec<Name>,
    pub method: Option<Name>,
}

/// Parameters and body of a function. For a method (`function t:m()`), the parser does NOT
/// insert `self`: the compiler adds it when [`FuncName::method`] is set.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncBody {
    pub params: Vec<Name>,
    pub is_vararg: bool,
    pub body: Block,
    /// Position of the `function` keyword.
    pub pos: Pos,
    /// Line of the closing `end`.
    pub end_line: u32,
}

/// A statement. Large parts of loops and `if` are boxed so that every statement, the common
/// small ones too, takes 72 bytes in its block (the tree is charged to the memory budget while
/// compiling).
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `local a <const>, b = e1, e2`
    Local {
        names: Vec<LocalName>,
        exprs: Vec<Expr>,
        pos: Pos,
    },
    /// `a, b.c, d[e] = e1, e2, e3`. Each target is an [`ExprKind::Name`] or [`ExprKind::Index`].
    Assign {
        targets: Vec<Expr>,
        exprs: Vec<Expr>,
        pos: Pos,
    },
    /// A function call used as a statement; the expression is a `Call` or `MethodCall`.
    Call(Expr),
    Do(Block, Pos),
    While {
        cond: Expr,
        body: Box<Block>,
        pos: Pos,
    },
    /// `repeat body until cond`: locals of `body` are visible in `cond`.
    Repeat {
        body: Box<Block>,
        cond: Expr,
        pos: Pos,
    },
    /// `if c1 then b1 elseif c2 then b2 else b3 end`
    If {
        arms: Vec<(Expr, Block)>,
        else_block: Option<Box<Block>>,
        pos: Pos,
    },
    /// `for v = start, limit [, step] do body end`
    NumericFor {
        var: Name,
        start: Box<Expr>,
        limit: Box<Expr>,
        step: Option<Box<Expr>>,
        body: Box<Block>,
        pos: Pos,
    },
    /// `for n1, n2 in e1, e2 do body end`
    GenericFor {
        names: Vec<Name>,
        exprs: Vec<Expr>,
        body: Box<Block>,
        pos: Pos,
    },
    /// `function a.b:c() end`
    Function {
        name: FuncName,
        func: Box<FuncBody>,
        pos: Pos,
    },
    /// `local function f() end` (f is in scope inside its own body)
    LocalFunction {
        name: Name,
        func: Box<FuncBody>,
        pos: Pos,
    },
    Break(Pos),
    Goto(Name, Pos),
    Label(Name, Pos),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    IDiv,
    Mod,
    Pow,
    Concat,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    BAnd,
    BOr,
    BXor,
    Shl,
    Shr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `not`
    Not,
    /// `#`
    Len,
    /// `~`
    BNot,
}

/// One step of an [`ExprKind::Chain`]: apply `op` to the value so far and `rhs`.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainLink {
    pub op: BinOp,
    /// Position of the operator token.
    pub pos: Pos,
    pub rhs: Expr,
}

/// One entry of a table constructor.
#[derive(Clone, Debug, PartialEq)]
pub enum TableField {
    /// `expr` (gets the next array index; a trailing call or `...` expands to all its values)
    Positional(Expr),
    /// `name = expr`
    Named(Name, Expr),
    /// `[key] = expr`
    Keyed(Expr, Expr),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Nil,
    True,
    False,
    /// `...`
    Vararg,
    /// An integer numeral (decimal that fits in i64, or hexadecimal, which wraps around as in Lua).
    Int(i64),
    /// A float numeral (has `.`/exponent, or a decimal integer numeral that overflows i64).
    Float(f64),
    /// A string literal after escape processing (byte string; may be invalid UTF-8).
    Str(Vec<u8>),
    Function(Box<FuncBody>),
    Table(Vec<TableField>),
    /// `lhs op rhs`: a single binary operator (several in a row form a [`ExprKind::Chain`]).
    Binop(BinOp, Box<Expr>, Box<Expr>),
    /// `first op1 x1 op2 x2 ...` with two or more operators, evaluated strictly left to right as
    /// `((first op1 x1) op2 x2) ...`: the same value as the left-nested [`ExprKind::Binop`] tree,
    /// kept flat so that a chain of 20,000 terms is one node (no walk recurses per term). The
    /// parser builds one chain per run of operators at one expression level; their priorities
    /// never increase along the run (so `and` links follow value operators and precede `or`
    /// links). A `..` link's `rhs` holds the rest of the right-associative `..` run.
    Chain(Box<Expr>, Vec<ChainLink>),
    /// `a .. b .. c ...`, two or more operands of one right-associative concatenation run,
    /// flattened (`a .. (b .. c)` evaluated left to right, concatenated as one string).
    Concat(Vec<Expr>),
    Unop(UnOp, Box<Expr>),
    /// A variable reference (local, upvalue or global: resolved by the compiler).
    Name(Box<str>),
    /// `obj[key]`; `obj.name` is `Index(obj, Str(name))`.
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)`, `f{...}`, `f"str"`
    Call(Box<Expr>, Vec<Expr>),
    /// `obj:name(args)`
    MethodCall(Box<Expr>, Name, Vec<Expr>),
    /// `(expr)`: truncates a multi-value expression to one value.
    Paren(Box<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, pos: Pos) -> Self {
        Expr { kind, pos }
    }

    /// True for expressions that can produce several values (`f()`, `o:m()`, `...`).
    pub fn is_multi(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Call(..) | ExprKind::MethodCall(..) | ExprKind::Vararg
        )
    }
}
