//! Blocks and statements: `if`, loops, `function`, `local`, assignments, labels and `goto`,
//! function bodies.

use crate::GuestError;
use crate::ast::{
    Attrib, Block, Expr, ExprKind, FuncBody, FuncName, LocalName, Name, Pos, Return, Stmt,
};
use crate::lexer::{Tok, parse_error, show_bytes, unsupported};

use super::{BRACES_HINT, COMMENT_HINT, FOR_HINT, PResult, Parser, RETURN_HINT, TYPES_HINT};

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
    fn block_follow(&self) -> bool {
        matches!(
            self.tok.tok,
            Tok::Else | Tok::Elseif | Tok::End | Tok::Eof | Tok::Until
        )
    }

    pub(super) fn block(&mut self) -> PResult<Block> {
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
        // lua5.4 stores into `t.k` / `t[k]` after evaluating every value: indexing nil there is
        // reported on the line of the statement's last token (see `ast.rs`).
        let end = self.prev_pos;
        for t in targets.iter_mut() {
            if matches!(t.kind, ExprKind::Index(..)) && end.line > t.pos.line {
                t.pos = end;
            }
        }
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
    pub(super) fn body(&mut self, pos: Pos) -> PResult<Box<FuncBody>> {
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
}
