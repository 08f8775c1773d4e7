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
//!   - [`ExprKind::Concat`]: its last `..` token (where lua5.4 places a failed run's error);
//!   - [`ExprKind::Index`]: the `.` or `[` token (as the last argument of a parenthesized call
//!     whose `)` is on a later line: that `)`; as the last positional item of a constructor
//!     whose `}` is on a later line: that `}`; as an assignment target whose values end on a
//!     later line: the values' last token; where lua5.4 reports indexing nil there);
//!   - [`ExprKind::MethodCall`]: the `:` token;
//!   - [`ExprKind::Call`]: the `(`, `{` or string token that starts the arguments.
//! - Statements carry the position of their first token.

/// A source position: 1-based line and 1-based column (byte offset within the line + 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column in bytes within the line, from 1.
    pub column: u32,
}

/// An identifier with its position.
#[derive(Clone, Debug, PartialEq)]
pub struct Name {
    /// The identifier.
    pub name: Box<str>,
    /// Where it is written.
    pub pos: Pos,
}

/// A block: a list of statements optionally ended by `return`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Block {
    /// The statements, in order.
    pub stmts: Vec<Stmt>,
    /// The final `return`, if any.
    pub ret: Option<Return>,
}

/// `return explist [';']`, the last statement of a block.
#[derive(Clone, Debug, PartialEq)]
pub struct Return {
    /// The returned expressions (empty for a bare `return`).
    pub exprs: Vec<Expr>,
    /// Position of the `return` keyword.
    pub pos: Pos,
}

/// Local variable attribute (`<const>`; `<close>` is rejected by the parser with a ParseError).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attrib {
    /// `<const>`: the variable cannot be assigned after its declaration.
    Const,
}

/// One name in a `local` statement.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalName {
    /// The declared name.
    pub name: Name,
    /// Its attribute, if written.
    pub attrib: Option<Attrib>,
}

/// `function a.b.c:m() end`: `path` is `[a, b, c]`, `method` is `Some(m)`.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncName {
    /// The dotted path, at least one name.
    pub path: Vec<Name>,
    /// The name after `:`, for a method.
    pub method: Option<Name>,
}

/// Parameters and body of a function. For a method (`function t:m()`), the parser does NOT
/// insert `self`: the compiler adds it when [`FuncName::method`] is set.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncBody {
    /// The named parameters, in order.
    pub params: Vec<Name>,
    /// The parameter list ends with `...`.
    pub is_vararg: bool,
    /// The function's body.
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
        /// The declared names with their attributes.
        names: Vec<LocalName>,
        /// The initial values (may be fewer or more than the names).
        exprs: Vec<Expr>,
        /// Position of the `local` keyword.
        pos: Pos,
    },
    /// `a, b.c, d[e] = e1, e2, e3`. Each target is an [`ExprKind::Name`] or [`ExprKind::Index`].
    Assign {
        /// The assigned places, in order.
        targets: Vec<Expr>,
        /// The values (may be fewer or more than the targets).
        exprs: Vec<Expr>,
        /// Position of the first target.
        pos: Pos,
    },
    /// A function call used as a statement; the expression is a `Call` or `MethodCall`.
    Call(Expr),
    /// `do block end`, with the position of `do`.
    Do(Block, Pos),
    /// `while cond do body end`
    While {
        /// The condition, tested before each iteration.
        cond: Expr,
        /// The loop body.
        body: Box<Block>,
        /// Position of the `while` keyword.
        pos: Pos,
    },
    /// `repeat body until cond`: locals of `body` are visible in `cond`.
    Repeat {
        /// The loop body.
        body: Box<Block>,
        /// The condition, tested after each iteration; the loop ends when it is true.
        cond: Expr,
        /// Position of the `repeat` keyword.
        pos: Pos,
    },
    /// `if c1 then b1 elseif c2 then b2 else b3 end`
    If {
        /// The `if` and `elseif` arms: condition and block, in order.
        arms: Vec<(Expr, Block)>,
        /// The `else` block, if any.
        else_block: Option<Box<Block>>,
        /// Position of the `if` keyword.
        pos: Pos,
    },
    /// `for v = start, limit [, step] do body end`
    NumericFor {
        /// The control variable (local to the body).
        var: Name,
        /// The initial value.
        start: Box<Expr>,
        /// The limit (inclusive).
        limit: Box<Expr>,
        /// The step, if written (1 otherwise).
        step: Option<Box<Expr>>,
        /// The loop body.
        body: Box<Block>,
        /// Position of the `for` keyword.
        pos: Pos,
    },
    /// `for n1, n2 in e1, e2 do body end`
    GenericFor {
        /// The loop variables (local to the body).
        names: Vec<Name>,
        /// The expressions after `in` (iterator function, state, initial control value).
        exprs: Vec<Expr>,
        /// The loop body.
        body: Box<Block>,
        /// Position of the `for` keyword.
        pos: Pos,
    },
    /// `function a.b:c() end`
    Function {
        /// The assigned name (`a.b:c`).
        name: FuncName,
        /// Parameters and body.
        func: Box<FuncBody>,
        /// Position of the `function` keyword.
        pos: Pos,
    },
    /// `local function f() end` (f is in scope inside its own body)
    LocalFunction {
        /// The local's name.
        name: Name,
        /// Parameters and body.
        func: Box<FuncBody>,
        /// Position of the `local` keyword.
        pos: Pos,
    },
    /// `break`, with its position.
    Break(Pos),
    /// `goto name`, with the position of `goto`.
    Goto(Name, Pos),
    /// `::name::`, with the position of the first `::`.
    Label(Name, Pos),
}

/// A binary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (always a float)
    Div,
    /// `//` (floor division)
    IDiv,
    /// `%` (floored modulo)
    Mod,
    /// `^` (always a float)
    Pow,
    /// `..`
    Concat,
    /// `==`
    Eq,
    /// `~=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and` (short-circuit)
    And,
    /// `or` (short-circuit)
    Or,
    /// `&`
    BAnd,
    /// `|`
    BOr,
    /// `~` (binary)
    BXor,
    /// `<<`
    Shl,
    /// `>>` (logical)
    Shr,
}

/// A unary operator.
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
    /// The operator.
    pub op: BinOp,
    /// Position of the operator token.
    pub pos: Pos,
    /// The right operand.
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

/// An expression with its position (see the module docs for which token it is).
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it is (see the module docs).
    pub pos: Pos,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// `nil`
    Nil,
    /// `true`
    True,
    /// `false`
    False,
    /// `...`
    Vararg,
    /// An integer numeral (decimal that fits in i64, or hexadecimal, which wraps around as in Lua).
    Int(i64),
    /// A float numeral (has `.`/exponent, or a decimal integer numeral that overflows i64).
    Float(f64),
    /// A string literal after escape processing (byte string; may be invalid UTF-8).
    Str(Vec<u8>),
    /// `function (params) body end`
    Function(Box<FuncBody>),
    /// A table constructor `{ ... }`, its fields in order.
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
    /// `op operand`
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
    /// An expression of `kind` at `pos`.
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
