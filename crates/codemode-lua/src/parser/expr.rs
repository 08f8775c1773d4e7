//! Expressions: operator precedence and runs, unary operators, primary and suffixed
//! expressions, call arguments and table constructors.

use crate::ast::{BinOp, ChainLink, Expr, ExprKind, TableField, UnOp};
use crate::heap::alloc_bytes;
use crate::lexer::Tok;

use super::{PResult, Parser, TABLE_HINT};

/// Priority of unary operators (Lua's `UNARY_PRIORITY`).
const UNARY_PRIORITY: u8 = 12;

/// Left priority of `..` (see [`binop`]).
const CONCAT_PRIORITY: u8 = 9;

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

impl<'a> Parser<'a> {
    pub(super) fn explist(&mut self) -> PResult<Vec<Expr>> {
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
    pub(super) fn subexpr(&mut self, limit: u8) -> PResult<Expr> {
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
    /// [`ExprKind::Concat`] (positioned at its last `..`, where lua5.4 reports a failed
    /// concatenation).
    fn concat_rest(&mut self) -> PResult<Expr> {
        let first = self.subexpr(CONCAT_PRIORITY)?;
        if !self.check(&Tok::Concat) {
            return Ok(first);
        }
        let mut parts = self.one(first)?;
        let mut last = self.tok.pos;
        while self.check(&Tok::Concat) {
            last = self.tok.pos;
            self.advance()?;
            let e = self.subexpr(CONCAT_PRIORITY)?;
            self.push(&mut parts, e)?;
        }
        self.seal(&mut parts);
        self.bump()?;
        Ok(Expr::new(ExprKind::Concat(parts), last))
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
            Tok::LBracket => Err(self.err_hint(
                "unexpected symbol",
                "Lua has no [ ] array literal: write a table constructor, e.g. {1, 2}",
            )),
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
    pub(super) fn suffixedexp(&mut self) -> PResult<Expr> {
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
        let mut args = if self.check(&Tok::RParen) {
            Vec::new()
        } else {
            self.explist()?
        };
        let close = self.tok.pos;
        self.check_match(&Tok::RParen, &Tok::LParen, line)?;
        // lua5.4 evaluates a last argument `t.k` / `t[k]` only after the `)`: indexing nil
        // there is reported on the line of the `)` (see `ast.rs`).
        if let Some(last) = args.last_mut()
            && matches!(last.kind, ExprKind::Index(..))
            && close.line > last.pos.line
        {
            last.pos = close;
        }
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
        // lua5.4 evaluates a last positional item `t.k` only after the `}` (see `ast.rs`).
        let close = self.prev_pos;
        if let Some(TableField::Positional(last)) = fields.last_mut()
            && matches!(last.kind, ExprKind::Index(..))
            && close.line > last.pos.line
        {
            last.pos = close;
        }
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
