//! oxc syntax tree → register bytecode, with scopes resolved at compile time.
//!
//! Two passes over the tree, both bounded in depth by the pre-scan (`scan.rs`) and by
//! [`MAX_SYNTAX_DEPTH`]: `Captures` (an `oxc_ast_visit` walk) records, per function, the names
//! referenced inside its nested functions; the compiler then stores a binding in a heap cell
//! when its name is among them (a conservative, name-based over-approximation) and in a
//! register otherwise. Every local is resolved here: only globals are looked up by name at run
//! time. TypeScript annotations are skipped; syntax outside the subset is UnsupportedSyntax
//! with what to write instead.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use codemode_guest::{ErrorKind, GuestError};
use oxc_allocator::Allocator;
use oxc_ast::ast::*;
use oxc_ast_visit::Visit;
use oxc_span::{GetSpan, SourceType, Span};
use oxc_syntax::operator::{
    AssignmentOperator, BinaryOperator, LogicalOperator, UnaryOperator, UpdateOperator,
};
use oxc_syntax::scope::ScopeFlags;

use crate::limits::{MAX_REGISTERS, MAX_SYNTAX_DEPTH};
use crate::proto::{BinOp, Capture, ErrorType, FuncProto, Op, ProgramData, Reg, UnOp};
use crate::scan::{location, parse_error};
use crate::string::JsStr;

/// Key of the program body in the capture table.
const PROGRAM_KEY: u32 = u32::MAX;

/// Parse and compile `source` (already checked by `scan::check`).
pub fn compile(source: &str) -> Result<ProgramData, GuestError> {
    let alloc = Allocator::default();
    let opts = oxc_parser::ParseOptions {
        allow_return_outside_function: true,
        parse_regular_expression: true,
        ..Default::default()
    };
    let ret = oxc_parser::Parser::new(&alloc, source, SourceType::ts())
        .with_options(opts)
        .parse();
    if let Some(e) = ret.diagnostics.errors().next() {
        let offset = e.labels.first().map_or(0, |l| l.offset());
        return Err(parse_error(source, offset as usize, e.message.to_string()));
    }
    if ret.panicked {
        return Err(parse_error(source, 0, "the program cannot be parsed"));
    }
    let mut caps = Captures::default();
    caps.stack.push(PROGRAM_KEY);
    caps.visit_program(&ret.program);
    let mut c = Compiler {
        src: source,
        data: ProgramData {
            source: Arc::from(source),
            ..Default::default()
        },
        captures: caps.inner,
        fns: Vec::new(),
        ctx: Vec::new(),
        depth: 0,
        strings: HashMap::new(),
        self_name: None,
        fields: None,
        derived: false,
        derived_fields: None,
    };
    c.program(&ret.program)?;
    Ok(c.data)
}

/// Per function (keyed by span start), the names referenced inside its nested functions.
#[derive(Default)]
struct Captures {
    inner: HashMap<u32, HashSet<String>>,
    stack: Vec<u32>,
}

impl Captures {
    fn reference(&mut self, name: &str) {
        let n = self.stack.len();
        for k in &self.stack[..n.saturating_sub(1)] {
            self.inner.entry(*k).or_default().insert(name.to_string());
        }
        // Direct references matter too (for `arguments`).
        if let Some(k) = self.stack.last() {
            self.inner
                .entry(*k)
                .or_default()
                .insert(format!("#direct:{name}"));
        }
    }
}

impl<'a> Visit<'a> for Captures {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.reference(it.name.as_str());
    }
    fn visit_this_expression(&mut self, _it: &ThisExpression) {
        self.reference("this");
    }
    fn visit_super(&mut self, _it: &Super) {
        self.reference("this");
        self.reference("%home");
    }
    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.stack.push(it.span.start);
        oxc_ast_visit::walk::walk_function(self, it, flags);
        self.stack.pop();
    }
    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        // Field initializers run inside the class constructor: a nested function.
        self.stack.push(it.span.start);
        oxc_ast_visit::walk::walk_property_definition(self, it);
        self.stack.pop();
    }
    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        self.stack.push(it.span.start);
        oxc_ast_visit::walk::walk_arrow_function_expression(self, it);
        self.stack.pop();
    }
}

/// Where a binding lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Storage {
    Reg(Reg),
    Cell(u16),
    Up(u16),
}

#[derive(Clone, Copy, Debug)]
struct Binding {
    st: Storage,
    /// let/const/class: reads check the TDZ.
    lexical: bool,
    konst: bool,
}

/// A break/continue target.
struct Jumps {
    label: Option<String>,
    /// A loop (accepts `continue`); else a switch or labelled block.
    is_loop: bool,
    /// A loop or switch (the target of an unlabelled `break`).
    breakable: bool,
    breaks: Vec<usize>,
    continues: Vec<usize>,
    /// `ctx` length when the target was entered.
    ctx_len: usize,
}

/// What an abrupt exit (break, continue, return) must undo on its way out.
#[derive(Clone, Copy)]
enum Ctx<'b, 'a> {
    Handler,
    Finally(&'b BlockStatement<'a>),
    Iter(Reg),
}
use Ctx as CtxEntry;

struct FnState {
    proto: FuncProto,
    scopes: Vec<Vec<(String, Binding)>>,
    next_reg: u32,
    max_reg: u32,
    /// Names referenced by nested functions: such bindings live in cells.
    captured: HashSet<String>,
    jumps: Vec<Jumps>,
    /// The innermost label set waiting for the next loop.
    pending_labels: Vec<String>,
    /// Optional-chain exits of the chains being compiled.
    chains: Vec<Vec<usize>>,
}

type R<T> = Result<T, GuestError>;

struct Compiler<'s, 'b, 'a> {
    src: &'s str,
    /// Contexts an abrupt exit of the current function must undo.
    ctx: Vec<Ctx<'b, 'a>>,
    data: ProgramData,
    captures: HashMap<u32, HashSet<String>>,
    fns: Vec<FnState>,
    depth: usize,
    strings: HashMap<String, u32>,
    /// The name a function expression being compiled binds to itself.
    self_name: Option<String>,
    /// The instance fields the class constructor being compiled initializes.
    fields: Option<Vec<&'b PropertyDefinition<'a>>>,
    /// The class being compiled extends another.
    derived: bool,
    /// The fields of the derived class constructor being compiled, defined after `super(...)`.
    derived_fields: Option<Vec<&'b PropertyDefinition<'a>>>,
}

/// Hint for syntax outside the subset.
fn unsupported_msg(what: &str, hint: &str) -> String {
    format!("Syntax '{what}' is not supported. {hint}")
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    // ----- infrastructure ---------------------------------------------------------------

    fn f(&mut self) -> &mut FnState {
        self.fns.last_mut().expect("a function is being compiled")
    }

    fn err(&self, span: Span, kind: ErrorKind, message: String) -> GuestError {
        GuestError {
            kind,
            message,
            location: Some(location(self.src, span.start as usize)),
            suggestions: Vec::new(),
        }
    }

    fn unsupported(&self, span: Span, what: &str, hint: &str) -> GuestError {
        self.err(
            span,
            ErrorKind::UnsupportedSyntax,
            unsupported_msg(what, hint),
        )
    }

    fn enter(&mut self, span: Span) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_SYNTAX_DEPTH {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                format!(
                    "expression or statement nesting too deep (limit {MAX_SYNTAX_DEPTH}); split the program into smaller functions or steps"
                ),
            ));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    fn emit(&mut self, op: Op, span: Span) -> usize {
        let f = self.f();
        f.proto.code.push(op);
        f.proto.offsets.push(span.start);
        f.proto.code.len() - 1
    }

    fn here(&mut self) -> u32 {
        self.f().proto.code.len() as u32
    }

    fn patch(&mut self, at: usize, target: u32) {
        let op = &mut self.f().proto.code[at];
        *op = match *op {
            Op::Jump(_) => Op::Jump(target),
            Op::JumpIfTrue(r, _) => Op::JumpIfTrue(r, target),
            Op::JumpIfFalse(r, _) => Op::JumpIfFalse(r, target),
            Op::JumpIfNullish(r, _) => Op::JumpIfNullish(r, target),
            Op::JumpIfNotNullish(r, _) => Op::JumpIfNotNullish(r, target),
            Op::JumpIfUndefined(r, _) => Op::JumpIfUndefined(r, target),
            Op::PushHandler(_, r) => Op::PushHandler(target, r),
            Op::IterValue(a, b, c, _) => Op::IterValue(a, b, c, target),
            other => other,
        };
    }

    fn patch_here(&mut self, at: usize) {
        let h = self.here();
        self.patch(at, h);
    }

    fn alloc(&mut self, span: Span) -> R<Reg> {
        let f = self.f();
        let r = f.next_reg;
        f.next_reg += 1;
        f.max_reg = f.max_reg.max(f.next_reg);
        if r as usize >= MAX_REGISTERS {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                format!("function needs too many registers (limit {MAX_REGISTERS}); split it into smaller functions"),
            ));
        }
        Ok(r as Reg)
    }

    fn mark(&mut self) -> u32 {
        self.f().next_reg
    }

    fn release(&mut self, mark: u32) {
        self.f().next_reg = mark;
    }

    fn string(&mut self, s: &str) -> u32 {
        if let Some(i) = self.strings.get(s) {
            return *i;
        }
        let i = self.data.strings.len() as u32;
        self.data.strings.push(JsStr::from_str(s));
        self.strings.insert(s.to_string(), i);
        i
    }

    // ----- scopes -----------------------------------------------------------------------

    /// Declare `name` in the innermost scope (a register or, when captured, a fresh cell).
    fn declare(&mut self, name: &str, lexical: bool, konst: bool, span: Span) -> R<Binding> {
        // A redeclaration in the same scope (var twice, function twice) reuses the binding.
        if let Some((_, b)) = self
            .f()
            .scopes
            .last()
            .and_then(|s| s.iter().find(|(n, _)| n == name))
        {
            return Ok(*b);
        }
        let st = if self.f().captured.contains(name) {
            let f = self.f();
            let slot = f.proto.ncells;
            f.proto.ncells += 1;
            Storage::Cell(slot)
        } else {
            Storage::Reg(self.alloc(span)?)
        };
        let b = Binding { st, lexical, konst };
        self.f()
            .scopes
            .last_mut()
            .expect("a scope")
            .push((name.to_string(), b));
        Ok(b)
    }

    fn resolve(&mut self, name: &str) -> Option<Binding> {
        let depth = self.fns.len() - 1;
        self.resolve_in(depth, name)
    }

    fn resolve_in(&mut self, fi: usize, name: &str) -> Option<Binding> {
        for scope in self.fns[fi].scopes.iter().rev() {
            if let Some((_, b)) = scope.iter().rev().find(|(n, _)| n == name) {
                return Some(*b);
            }
        }
        if fi == 0 {
            return None;
        }
        let outer = self.resolve_in(fi - 1, name)?;
        let cap = match outer.st {
            Storage::Cell(s) => Capture::Own(s),
            Storage::Up(u) => Capture::Up(u),
            // Not captured by the analysis (cannot happen for resolved names): treat as global.
            Storage::Reg(_) => return None,
        };
        let f = &mut self.fns[fi];
        let idx = match f.proto.captures.iter().position(|c| *c == cap) {
            Some(i) => i,
            None => {
                f.proto.captures.push(cap);
                f.proto.captures.len() - 1
            }
        };
        Some(Binding {
            st: Storage::Up(idx as u16),
            ..outer
        })
    }

    fn push_scope(&mut self) {
        self.f().scopes.push(Vec::new());
    }

    fn pop_scope(&mut self, mark: u32) {
        self.f().scopes.pop();
        self.release(mark);
    }

    /// Read a binding into `dst`.
    fn load_binding(&mut self, b: Binding, name: &str, dst: Reg, span: Span) {
        let check = b.lexical.then(|| self.string(name));
        match b.st {
            Storage::Reg(r) => {
                if r != dst {
                    self.emit(Op::Move(dst, r), span);
                }
                if let Some(n) = check {
                    self.emit(Op::CheckTdz(dst, n), span);
                }
            }
            Storage::Cell(s) => {
                self.emit(Op::GetCell(dst, s, check), span);
            }
            Storage::Up(u) => {
                self.emit(Op::GetUp(dst, u, check), span);
            }
        }
    }

    /// Initialize (or assign) a binding from `src`.
    fn store_binding(&mut self, b: Binding, src: Reg, span: Span) {
        match b.st {
            Storage::Reg(r) => {
                if r != src {
                    self.emit(Op::Move(r, src), span);
                }
            }
            Storage::Cell(s) => {
                self.emit(Op::SetCell(s, src), span);
            }
            Storage::Up(u) => {
                self.emit(Op::SetUp(u, src), span);
            }
        }
    }

    /// Assignment to a name (not a declaration): TDZ and const checks, globals.
    fn assign_name(&mut self, name: &str, src: Reg, span: Span) -> R<()> {
        match self.resolve(name) {
            Some(b) => {
                if b.lexical {
                    let tmp = self.alloc(span)?;
                    self.load_binding(b, name, tmp, span);
                    self.release(tmp as u32);
                }
                if b.konst {
                    let m = self.string("Assignment to constant variable.");
                    self.emit(Op::ThrowError(ErrorType::TypeError, m), span);
                    return Ok(());
                }
                self.store_binding(b, src, span);
            }
            None => {
                let n = self.string(name);
                self.emit(Op::SetGlobal(n, src), span);
            }
        }
        Ok(())
    }

    // ----- hoisting ---------------------------------------------------------------------

    /// Declare the `var` names of a function body (through blocks, not nested functions).
    fn hoist_vars(&mut self, stmts: &'b [Statement<'a>]) -> R<()> {
        for s in stmts {
            self.hoist_vars_stmt(s)?;
        }
        Ok(())
    }

    fn hoist_vars_stmt(&mut self, s: &'b Statement<'a>) -> R<()> {
        match s {
            Statement::VariableDeclaration(d) => self.hoist_var_decl(d)?,
            Statement::BlockStatement(b) => self.hoist_vars(&b.body)?,
            Statement::IfStatement(i) => {
                self.hoist_vars_stmt(&i.consequent)?;
                if let Some(a) = &i.alternate {
                    self.hoist_vars_stmt(a)?;
                }
            }
            Statement::ForStatement(f) => {
                if let Some(ForStatementInit::VariableDeclaration(d)) = &f.init {
                    self.hoist_var_decl(d)?;
                }
                self.hoist_vars_stmt(&f.body)?;
            }
            Statement::ForInStatement(f) => {
                if let ForStatementLeft::VariableDeclaration(d) = &f.left {
                    self.hoist_var_decl(d)?;
                }
                self.hoist_vars_stmt(&f.body)?;
            }
            Statement::ForOfStatement(f) => {
                if let ForStatementLeft::VariableDeclaration(d) = &f.left {
                    self.hoist_var_decl(d)?;
                }
                self.hoist_vars_stmt(&f.body)?;
            }
            Statement::WhileStatement(w) => self.hoist_vars_stmt(&w.body)?,
            Statement::DoWhileStatement(w) => self.hoist_vars_stmt(&w.body)?,
            Statement::LabeledStatement(l) => self.hoist_vars_stmt(&l.body)?,
            Statement::TryStatement(t) => {
                self.hoist_vars(&t.block.body)?;
                if let Some(h) = &t.handler {
                    self.hoist_vars(&h.body.body)?;
                }
                if let Some(f) = &t.finalizer {
                    self.hoist_vars(&f.body)?;
                }
            }
            Statement::SwitchStatement(sw) => {
                for c in &sw.cases {
                    self.hoist_vars(&c.consequent)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn hoist_var_decl(&mut self, d: &'b VariableDeclaration<'a>) -> R<()> {
        if d.kind != VariableDeclarationKind::Var {
            return Ok(());
        }
        for decl in &d.declarations {
            let mut names = Vec::new();
            pattern_names(&decl.id, &mut names);
            for (n, span) in names {
                let b = self.declare(&n, false, false, span)?;
                let u = self.alloc(span)?;
                self.emit(Op::LoadUndef(u), span);
                self.store_binding(b, u, span);
                self.release(u as u32);
            }
        }
        Ok(())
    }

    /// Declare a block's lexical names (TDZ) and hoist its function declarations.
    fn hoist_lexical(&mut self, stmts: &'b [Statement<'a>]) -> R<()> {
        for s in stmts {
            match s {
                Statement::VariableDeclaration(d) if d.kind != VariableDeclarationKind::Var => {
                    if matches!(
                        d.kind,
                        VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing
                    ) {
                        return Err(self.unsupported(
                            d.span,
                            "using",
                            "Release resources explicitly in a try/finally block.",
                        ));
                    }
                    let konst = d.kind == VariableDeclarationKind::Const;
                    for decl in &d.declarations {
                        let mut names = Vec::new();
                        pattern_names(&decl.id, &mut names);
                        for (n, span) in names {
                            let b = self.declare(&n, true, konst, span)?;
                            self.init_empty(b, span);
                        }
                    }
                }
                Statement::ClassDeclaration(c) => {
                    if let Some(id) = &c.id {
                        let b = self.declare(id.name.as_str(), true, false, id.span)?;
                        self.init_empty(b, id.span);
                    }
                }
                _ => {}
            }
        }
        let mut funcs = Vec::new();
        for s in stmts {
            if let Statement::FunctionDeclaration(func) = s
                && let Some(id) = &func.id
            {
                funcs.push((func, self.declare(id.name.as_str(), false, false, id.span)?));
            }
        }
        for (func, b) in funcs {
            if let Some(id) = &func.id {
                let r = self.alloc(func.span)?;
                self.function(func, r, id.name.as_str())?;
                self.store_binding(b, r, func.span);
                self.release(r as u32);
            }
        }
        Ok(())
    }

    fn init_empty(&mut self, b: Binding, span: Span) {
        match b.st {
            Storage::Reg(r) => {
                self.emit(Op::LoadEmpty(r), span);
            }
            Storage::Cell(s) => {
                self.emit(Op::NewCell(s), span);
            }
            Storage::Up(_) => {}
        }
    }

    // ----- program and functions --------------------------------------------------------

    fn new_fn(&mut self, key: u32, name: &str) -> FnState {
        FnState {
            proto: FuncProto {
                name: name.to_string(),
                ..Default::default()
            },
            scopes: vec![Vec::new()],
            next_reg: 1,
            max_reg: 1,
            captured: self.captures.remove(&key).unwrap_or_default(),
            jumps: Vec::new(),
            pending_labels: Vec::new(),
            chains: Vec::new(),
        }
    }

    fn program(&mut self, p: &'b Program<'a>) -> R<()> {
        let st = self.new_fn(PROGRAM_KEY, "");
        self.fns.push(st);
        self.data.funcs.push(FuncProto::default());
        for d in &p.directives {
            let _ = d;
        }
        self.bind_this(p.span)?;
        self.hoist_vars(&p.body)?;
        self.hoist_lexical(&p.body)?;
        let n = p.body.len();
        for (i, s) in p.body.iter().enumerate() {
            if i + 1 == n
                && let Statement::ExpressionStatement(e) = s
            {
                let r = self.alloc(e.span)?;
                self.expr_to(&e.expression, r)?;
                self.emit(Op::Completion(r), e.span);
                continue;
            }
            self.stmt(s)?;
        }
        self.emit(Op::End, p.span);
        let f = self.fns.pop().expect("main");
        let mut proto = f.proto;
        proto.nregs = f.max_reg as u16 + 1;
        self.data.funcs[0] = proto;
        Ok(())
    }

    /// `this` (register 0) moved into a cell when nested arrows use it.
    fn bind_this(&mut self, span: Span) -> R<()> {
        if self.f().captured.contains("this") {
            let f = self.f();
            let slot = f.proto.ncells;
            f.proto.ncells += 1;
            f.scopes[0].push((
                "this".into(),
                Binding {
                    st: Storage::Cell(slot),
                    lexical: false,
                    konst: true,
                },
            ));
            self.emit(Op::SetCell(slot, 0), span);
        } else {
            self.f().scopes[0].push((
                "this".into(),
                Binding {
                    st: Storage::Reg(0),
                    lexical: false,
                    konst: true,
                },
            ));
        }
        Ok(())
    }

    /// Compile a function into a new prototype and emit its closure into `dst`.
    fn function(&mut self, func: &'b Function<'a>, dst: Reg, name: &str) -> R<()> {
        if func.generator || func.r#async {
            return Err(self.unsupported(
                func.span,
                if func.generator { "generator function" } else { "async function" },
                "Async functions and generators arrive with the async support; write a plain function for now.",
            ));
        }
        let Some(body) = &func.body else {
            // A TypeScript overload signature: nothing to run.
            self.emit(Op::LoadUndef(dst), func.span);
            return Ok(());
        };
        let name = func.id.as_ref().map_or(name, |id| id.name.as_str());
        self.self_name = match (&func.id, func.r#type) {
            (Some(id), FunctionType::FunctionExpression) => Some(id.name.to_string()),
            _ => None,
        };
        let idx = self.function_body(
            func.span,
            name,
            Some(&func.params),
            &body.statements,
            None,
            false,
            true,
        )?;
        self.emit(Op::Closure(dst, idx), func.span);
        Ok(())
    }

    fn arrow(&mut self, a: &'b ArrowFunctionExpression<'a>, dst: Reg, name: &str) -> R<()> {
        if a.r#async {
            return Err(self.unsupported(
                a.span,
                "async arrow function",
                "Async functions arrive with the async support; write a plain arrow function for now.",
            ));
        }
        let idx = match &a.body {
            ArrowFunctionBody::FunctionBody(b) => self.function_body(
                a.span,
                name,
                Some(&a.params),
                &b.statements,
                None,
                true,
                false,
            )?,
            body => {
                let e = body.to_expression();
                self.function_body(a.span, name, Some(&a.params), &[], Some(e), true, false)?
            }
        };
        self.emit(Op::Closure(dst, idx), a.span);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn function_body(
        &mut self,
        span: Span,
        name: &str,
        params: Option<&'b FormalParameters<'a>>,
        stmts: &'b [Statement<'a>],
        expr_body: Option<&'b Expression<'a>>,
        arrow: bool,
        constructible: bool,
    ) -> R<u32> {
        let fields = std::mem::take(&mut self.fields);
        self.enter(span)?;
        let saved_ctx = std::mem::take(&mut self.ctx);
        let idx = self.data.funcs.len() as u32;
        self.data.funcs.push(FuncProto::default());
        let st = self.new_fn(span.start, name);
        self.fns.push(st);
        if !arrow {
            self.bind_this(span)?;
        }
        let direct_args = self.f().captured.contains("#direct:arguments")
            || self.f().captured.contains("arguments");
        // Parameters arrive in registers 1..=n.
        let items: &'b [FormalParameter<'a>] = params.map_or(&[], |p| &p.items[..]);
        let n = items.len();
        let simple_len = items
            .iter()
            .take_while(|p| {
                p.initializer.is_none()
                    && !matches!(p.pattern, BindingPattern::AssignmentPattern(_))
            })
            .count();
        let self_name = self.self_name.take();
        let mut param_regs = Vec::new();
        for _ in 0..n {
            param_regs.push(self.alloc(span)?);
        }
        if let Some(n) = self_name {
            let b = self.declare(&n, false, false, span)?;
            let r = self.alloc(span)?;
            self.emit(Op::Callee(r), span);
            self.store_binding(b, r, span);
        }
        {
            let f = self.f();
            f.proto.nparams = n as u16;
            f.proto.length = simple_len as u16;
            f.proto.arrow = arrow;
            f.proto.constructible = constructible;
        }
        if !arrow && direct_args && self.resolve_local_only("arguments").is_none() {
            let b = self.declare("arguments", false, false, span)?;
            let r = self.alloc(span)?;
            self.emit(Op::Arguments(r), span);
            self.store_binding(b, r, span);
        }
        for (i, p) in items.iter().enumerate() {
            let r = param_regs[i];
            if let Some(init) = &p.initializer {
                let j = self.emit(Op::JumpIfNotNullish(r, 0), p.span);
                // Only undefined takes the default: null skips it.
                let j2 = self.emit(Op::JumpIfUndefined(r, 0), p.span);
                let skip = self.emit(Op::Jump(0), p.span);
                self.patch_here(j2);
                self.expr_to(init, r)?;
                self.patch_here(skip);
                self.patch_here(j);
            }
            self.bind_pattern(&p.pattern, r, Decl::Param)?;
        }
        if let Some(rest) = params.and_then(|p| p.rest.as_ref()) {
            let r = self.alloc(span)?;
            self.emit(Op::Rest(r, n as u16), rest.span);
            self.bind_pattern(&rest.rest.argument, r, Decl::Param)?;
        }
        let derived = std::mem::take(&mut self.derived);
        let saved_fields = self.derived_fields.take();
        if let Some(fs) = fields {
            self.f().proto.class_ctor = true;
            if derived {
                // Fields are defined when super() returns.
                self.derived_fields = Some(fs);
                if params.is_none() {
                    // The implicit `constructor(...args) { super(...args) }`.
                    let a = self.alloc(span)?;
                    self.emit(Op::Rest(a, 0), span);
                    let r = self.alloc(span)?;
                    self.emit(Op::SuperCallSpread(r, a), span);
                    self.after_super(r, span)?;
                }
            } else {
                self.field_inits(fs, span)?;
            }
        }
        self.hoist_vars(stmts)?;
        self.hoist_lexical(stmts)?;
        if let Some(e) = expr_body {
            let r = self.alloc(span)?;
            self.expr_to(e, r)?;
            self.emit(Op::Return(r), e.span());
        } else {
            for s in stmts {
                self.stmt(s)?;
            }
            let u = self.alloc(span)?;
            self.emit(Op::LoadUndef(u), span);
            self.emit(Op::Return(u), span);
        }
        let f = self.fns.pop().expect("function");
        let mut proto = f.proto;
        proto.nregs = f.max_reg as u16 + 1;
        self.data.funcs[idx as usize] = proto;
        self.ctx = saved_ctx;
        self.derived_fields = saved_fields;
        self.leave();
        Ok(idx)
    }

    fn resolve_local_only(&self, name: &str) -> Option<Binding> {
        let f = self.fns.last()?;
        f.scopes
            .iter()
            .rev()
            .find_map(|s| s.iter().find(|(n, _)| n == name).map(|(_, b)| *b))
    }

    // ----- statements -------------------------------------------------------------------

    fn block(&mut self, stmts: &'b [Statement<'a>]) -> R<()> {
        let m = self.mark();
        self.push_scope();
        self.hoist_lexical(stmts)?;
        for s in stmts {
            self.stmt(s)?;
        }
        self.pop_scope(m);
        Ok(())
    }

    fn stmt(&mut self, s: &'b Statement<'a>) -> R<()> {
        self.enter(s.span())?;
        let r = self.stmt_inner(s);
        self.leave();
        r
    }

    fn stmt_inner(&mut self, s: &'b Statement<'a>) -> R<()> {
        let labels = std::mem::take(&mut self.f().pending_labels);
        match s {
            Statement::ExpressionStatement(e) => {
                let m = self.mark();
                let r = self.alloc(e.span)?;
                self.expr_to(&e.expression, r)?;
                self.release(m);
            }
            Statement::VariableDeclaration(d) => self.var_decl(d)?,
            Statement::FunctionDeclaration(_) => {}
            Statement::BlockStatement(b) => {
                if labels.is_empty() {
                    self.block(&b.body)?;
                } else {
                    let ctx_len = self.ctx.len();
                    self.f().jumps.push(Jumps {
                        label: labels.first().cloned(),
                        is_loop: false,
                        breakable: false,
                        breaks: Vec::new(),
                        continues: Vec::new(),
                        ctx_len,
                    });
                    self.block(&b.body)?;
                    self.end_jumps(None);
                }
            }
            Statement::EmptyStatement(_) | Statement::DebuggerStatement(_) => {}
            Statement::IfStatement(i) => {
                let m = self.mark();
                let c = self.alloc(i.span)?;
                self.expr_to(&i.test, c)?;
                let j = self.emit(Op::JumpIfFalse(c, 0), i.span);
                self.release(m);
                self.stmt(&i.consequent)?;
                if let Some(a) = &i.alternate {
                    let j2 = self.emit(Op::Jump(0), i.span);
                    self.patch_here(j);
                    self.stmt(a)?;
                    self.patch_here(j2);
                } else {
                    self.patch_here(j);
                }
            }
            Statement::ReturnStatement(r) => {
                let m = self.mark();
                let v = self.alloc(r.span)?;
                match &r.argument {
                    Some(e) => self.expr_to(e, v)?,
                    None => {
                        self.emit(Op::LoadUndef(v), r.span);
                    }
                }
                self.unwind_ctx(0, r.span)?;
                self.emit(Op::Return(v), r.span);
                self.release(m);
            }
            Statement::ThrowStatement(t) => {
                let m = self.mark();
                let v = self.alloc(t.span)?;
                self.expr_to(&t.argument, v)?;
                self.emit(Op::Throw(v), t.span);
                self.release(m);
            }
            Statement::WhileStatement(w) => {
                let top = self.here();
                self.push_loop(labels);
                let m = self.mark();
                let c = self.alloc(w.span)?;
                self.expr_to(&w.test, c)?;
                let j = self.emit(Op::JumpIfFalse(c, 0), w.span);
                self.release(m);
                self.stmt(&w.body)?;
                self.emit(Op::Jump(top), w.span);
                self.patch_here(j);
                self.end_jumps(Some(top));
            }
            Statement::DoWhileStatement(w) => {
                let top = self.here();
                self.push_loop(labels);
                self.stmt(&w.body)?;
                let cont = self.here();
                let m = self.mark();
                let c = self.alloc(w.span)?;
                self.expr_to(&w.test, c)?;
                self.emit(Op::JumpIfTrue(c, top), w.span);
                self.release(m);
                self.end_jumps(Some(cont));
            }
            Statement::ForStatement(f) => self.for_stmt(f, labels)?,
            Statement::ForOfStatement(f) => {
                if f.r#await {
                    return Err(self.unsupported(
                        f.span,
                        "for await",
                        "Async iteration arrives with the async support; await each item in a plain for…of loop.",
                    ));
                }
                self.for_in_of(&f.left, &f.right, &f.body, f.span, labels, false)?
            }
            Statement::ForInStatement(f) => {
                self.for_in_of(&f.left, &f.right, &f.body, f.span, labels, true)?
            }
            Statement::BreakStatement(b) => {
                let label = b.label.as_ref().map(|l| l.name.to_string());
                self.jump_out(label, false, b.span)?;
            }
            Statement::ContinueStatement(c) => {
                let label = c.label.as_ref().map(|l| l.name.to_string());
                self.jump_out(label, true, c.span)?;
            }
            Statement::LabeledStatement(l) => {
                let mut labels = labels;
                labels.push(l.label.name.to_string());
                match &l.body {
                    Statement::ForStatement(_)
                    | Statement::WhileStatement(_)
                    | Statement::DoWhileStatement(_)
                    | Statement::ForInStatement(_)
                    | Statement::ForOfStatement(_)
                    | Statement::LabeledStatement(_) => {
                        self.f().pending_labels = labels;
                        self.stmt(&l.body)?;
                    }
                    body => {
                        let ctx_len = self.ctx_len();
                        self.f().jumps.push(Jumps {
                            label: labels.last().cloned(),
                            is_loop: false,
                            breakable: false,
                            breaks: Vec::new(),
                            continues: Vec::new(),
                            ctx_len,
                        });
                        self.stmt(body)?;
                        self.end_jumps(None);
                    }
                }
            }
            Statement::TryStatement(t) => self.try_stmt(t)?,
            Statement::SwitchStatement(sw) => self.switch_stmt(sw, labels)?,
            Statement::ClassDeclaration(c) => {
                let m = self.mark();
                let r = self.alloc(c.span)?;
                let name = c.id.as_ref().map_or("", |id| id.name.as_str());
                self.class(c, r, name)?;
                if let Some(id) = &c.id
                    && let Some(b) = self.resolve_local_only(id.name.as_str())
                {
                    self.store_binding(b, r, c.span);
                }
                self.release(m);
            }
            Statement::WithStatement(w) => {
                return Err(self.unsupported(
                    w.span,
                    "with",
                    "Name the object explicitly: `obj.x` instead of `with (obj) x`.",
                ));
            }
            Statement::TSTypeAliasDeclaration(_)
            | Statement::TSInterfaceDeclaration(_)
            | Statement::TSGlobalDeclaration(_) => {}
            Statement::TSEnumDeclaration(e) => {
                return Err(self.unsupported(e.span, "enum", "Use a plain object of constants."));
            }
            Statement::ImportDeclaration(i) => {
                return Err(self.unsupported(
                    i.span,
                    "import",
                    "Packages cannot be imported; use the `tools` object and the built-in globals.",
                ));
            }
            other => {
                let span = other.span();
                let what = match other {
                    Statement::ExportNamedDeclaration(_)
                    | Statement::ExportDeclaration(_)
                    | Statement::ExportDefaultDeclaration(_)
                    | Statement::ExportAllDeclaration(_) => "export",
                    _ => "declaration",
                };
                return Err(self.unsupported(
                    span,
                    what,
                    "The program is a function body: `return` its result instead.",
                ));
            }
        }
        Ok(())
    }

    fn ctx_len(&self) -> usize {
        self.ctx.len()
    }

    fn push_loop(&mut self, labels: Vec<String>) {
        let ctx_len = self.ctx.len();
        let f = self.f();
        // Every label of a loop names the loop; the first is kept, others alias it.
        f.jumps.push(Jumps {
            label: None,
            is_loop: true,
            breakable: true,
            breaks: Vec::new(),
            continues: Vec::new(),
            ctx_len,
        });
        for l in labels {
            f.jumps.last_mut().expect("loop").label.get_or_insert(l);
        }
    }

    /// Pop the innermost jump target; patch its breaks here and continues to `cont`.
    fn end_jumps(&mut self, cont: Option<u32>) {
        let j = self.f().jumps.pop().expect("jumps");
        let here = self.here();
        for b in j.breaks {
            self.patch(b, here);
        }
        if let Some(c) = cont {
            for k in j.continues {
                self.patch(k, c);
            }
        }
    }

    fn var_decl(&mut self, d: &'b VariableDeclaration<'a>) -> R<()> {
        let decl = match d.kind {
            VariableDeclarationKind::Var => Decl::Var,
            VariableDeclarationKind::Let => Decl::Let,
            VariableDeclarationKind::Const => Decl::Const,
            _ => {
                return Err(self.unsupported(
                    d.span,
                    "using",
                    "Release resources explicitly in a try/finally block.",
                ));
            }
        };
        for v in &d.declarations {
            let m = self.mark();
            let r = self.alloc(v.span)?;
            match &v.init {
                Some(init) => {
                    let name = match &v.id {
                        BindingPattern::BindingIdentifier(id) => id.name.as_str(),
                        _ => "",
                    };
                    self.expr_named(init, r, name)?;
                }
                None if decl == Decl::Var => {
                    self.release(m);
                    continue;
                }
                None => {
                    self.emit(Op::LoadUndef(r), v.span);
                }
            }
            self.bind_pattern(&v.id, r, decl)?;
            self.release(m);
        }
        Ok(())
    }

    fn for_stmt(&mut self, f: &'b ForStatement<'a>, labels: Vec<String>) -> R<()> {
        let m = self.mark();
        self.push_scope();
        let mut per_iter: Vec<u16> = Vec::new();
        if let Some(init) = &f.init {
            match init {
                ForStatementInit::VariableDeclaration(d) => {
                    if d.kind != VariableDeclarationKind::Var {
                        for v in &d.declarations {
                            let mut names = Vec::new();
                            pattern_names(&v.id, &mut names);
                            for (n, span) in names {
                                let b = self.declare(
                                    &n,
                                    true,
                                    d.kind == VariableDeclarationKind::Const,
                                    span,
                                )?;
                                self.init_empty(b, span);
                                if let Storage::Cell(s) = b.st {
                                    per_iter.push(s);
                                }
                            }
                        }
                    }
                    self.var_decl(d)?;
                }
                other => {
                    let mm = self.mark();
                    let r = self.alloc(f.span)?;
                    self.expr_to(other.to_expression(), r)?;
                    self.release(mm);
                }
            }
        }
        let top = self.here();
        self.push_loop(labels);
        let mut exit = None;
        if let Some(t) = &f.test {
            let mm = self.mark();
            let c = self.alloc(f.span)?;
            self.expr_to(t, c)?;
            exit = Some(self.emit(Op::JumpIfFalse(c, 0), f.span));
            self.release(mm);
        }
        self.stmt(&f.body)?;
        let cont = self.here();
        for s in &per_iter {
            self.emit(Op::CopyCell(*s), f.span);
        }
        if let Some(u) = &f.update {
            let mm = self.mark();
            let r = self.alloc(f.span)?;
            self.expr_to(u, r)?;
            self.release(mm);
        }
        self.emit(Op::Jump(top), f.span);
        if let Some(e) = exit {
            self.patch_here(e);
        }
        self.end_jumps(Some(cont));
        self.pop_scope(m);
        Ok(())
    }

    fn for_in_of(
        &mut self,
        left: &'b ForStatementLeft<'a>,
        right: &'b Expression<'a>,
        body: &'b Statement<'a>,
        span: Span,
        labels: Vec<String>,
        is_in: bool,
    ) -> R<()> {
        let m = self.mark();
        let src = self.alloc(span)?;
        self.expr_to(right, src)?;
        let it = self.alloc(span)?;
        if is_in {
            self.emit(Op::ForInKeys(it, src), span);
        } else {
            self.emit(Op::IterInit(it, src), span);
        }
        let res = self.alloc(span)?;
        let val = self.alloc(span)?;
        let top = self.here();
        self.push_loop(labels);
        self.emit(Op::IterNext(res, it), span);
        let exit = self.emit(Op::IterValue(val, res, it, 0), span);
        if !is_in {
            self.ctx.push(CtxEntry::Iter(it));
        }
        let mm = self.mark();
        self.push_scope();
        match left {
            ForStatementLeft::VariableDeclaration(d) => {
                let decl = match d.kind {
                    VariableDeclarationKind::Var => Decl::Var,
                    VariableDeclarationKind::Let => Decl::Let,
                    VariableDeclarationKind::Const => Decl::Const,
                    _ => return Err(self.unsupported(d.span, "using", "Use const.")),
                };
                let Some(v) = d.declarations.first() else {
                    return Err(self.unsupported(d.span, "for", "Declare one variable."));
                };
                if decl != Decl::Var {
                    let mut names = Vec::new();
                    pattern_names(&v.id, &mut names);
                    for (n, sp) in names {
                        let b = self.declare(&n, true, decl == Decl::Const, sp)?;
                        self.init_empty(b, sp);
                    }
                }
                self.bind_pattern(&v.id, val, decl)?;
            }
            target => {
                let t = target.to_assignment_target();
                self.assign_target(t, val, span)?;
            }
        }
        self.stmt(body)?;
        self.pop_scope(mm);
        if !is_in {
            self.ctx.pop();
        }
        self.emit(Op::Jump(top), span);
        self.patch_here(exit);
        // Breaks out of a for…of close the iterator.
        let j = self.f().jumps.pop().expect("loop");
        let close_at = self.here();
        let has_breaks = !j.breaks.is_empty();
        for b in &j.breaks {
            self.patch(*b, close_at);
        }
        for c in &j.continues {
            self.patch(*c, top);
        }
        if has_breaks && !is_in {
            let skip = self.emit(Op::Jump(0), span);
            // Breaks land here: close, then continue after the loop.
            let here = self.here();
            for b in &j.breaks {
                self.patch(*b, here);
            }
            self.emit(Op::IterClose(it), span);
            self.patch_here(skip);
        }
        self.release(m);
        Ok(())
    }

    /// Emit what leaving the contexts above `keep` needs (pop handlers, run finally
    /// blocks, close iterators), innermost first.
    fn unwind_ctx(&mut self, keep: usize, span: Span) -> R<()> {
        let mut i = self.ctx.len();
        while i > keep {
            i -= 1;
            match self.ctx[i] {
                CtxEntry::Handler => {
                    self.emit(Op::PopHandler, span);
                }
                CtxEntry::Iter(r) => {
                    self.emit(Op::IterClose(r), span);
                }
                CtxEntry::Finally(block) => {
                    // Run the finally block with the contexts outside it only.
                    let saved: Vec<Ctx<'b, 'a>> = self.ctx.drain(i..).collect();
                    let r = self.block(&block.body);
                    self.ctx.extend(saved);
                    r?;
                }
            }
        }
        Ok(())
    }

    fn jump_out(&mut self, label: Option<String>, is_continue: bool, span: Span) -> R<()> {
        let found = {
            let f = self.f();
            match &label {
                Some(l) => f
                    .jumps
                    .iter()
                    .rposition(|j| j.label.as_deref() == Some(l.as_str()))
                    .filter(|k| !is_continue || f.jumps[*k].is_loop),
                None if is_continue => f.jumps.iter().rposition(|j| j.is_loop),
                None => f.jumps.iter().rposition(|j| j.breakable),
            }
        };
        let Some(k) = found else {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                "Illegal break or continue statement".into(),
            ));
        };
        let keep = self.f().jumps[k].ctx_len;
        self.unwind_ctx(keep, span)?;
        let j = self.emit(Op::Jump(0), span);
        let t = &mut self.f().jumps[k];
        if is_continue {
            t.continues.push(j);
        } else {
            t.breaks.push(j);
        }
        Ok(())
    }
}

/// How a pattern binds: a declaration kind, a parameter, or an assignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decl {
    Var,
    Let,
    Const,
    Param,
}

/// Every name a binding pattern declares, with its span.
fn pattern_names(p: &BindingPattern<'_>, out: &mut Vec<(String, Span)>) {
    match p {
        BindingPattern::BindingIdentifier(id) => out.push((id.name.to_string(), id.span)),
        BindingPattern::ObjectPattern(o) => {
            for prop in &o.properties {
                pattern_names(&prop.value, out);
            }
            if let Some(r) = &o.rest {
                pattern_names(&r.argument, out);
            }
        }
        BindingPattern::ArrayPattern(a) => {
            for e in a.elements.iter().flatten() {
                pattern_names(e, out);
            }
            if let Some(r) = &a.rest {
                pattern_names(&r.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(a) => pattern_names(&a.left, out),
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    fn try_stmt(&mut self, t: &'b TryStatement<'a>) -> R<()> {
        let m = self.mark();
        let exc = self.alloc(t.span)?;
        let fin = t.finalizer.as_deref();
        // The finally block runs on every exit: inline on normal and abrupt exits, and in a
        // handler that rethrows.
        let fin_handler = if let Some(f) = fin {
            let h = self.emit(Op::PushHandler(0, exc), t.span);
            self.ctx.push(Ctx::Finally(f));
            self.ctx.push(Ctx::Handler);
            Some(h)
        } else {
            None
        };
        if let Some(handler) = &t.handler {
            let h = self.emit(Op::PushHandler(0, exc), t.span);
            self.ctx.push(Ctx::Handler);
            self.block(&t.block.body)?;
            self.ctx.pop();
            self.emit(Op::PopHandler, t.span);
            let skip = self.emit(Op::Jump(0), t.span);
            self.patch_here(h);
            let mm = self.mark();
            self.push_scope();
            if let Some(param) = &handler.param {
                let mut names = Vec::new();
                pattern_names(&param.pattern, &mut names);
                for (n, sp) in names {
                    let b = self.declare(&n, false, false, sp)?;
                    let _ = b;
                }
                self.bind_pattern(&param.pattern, exc, Decl::Let)?;
            }
            self.block(&handler.body.body)?;
            self.pop_scope(mm);
            self.patch_here(skip);
        } else {
            self.block(&t.block.body)?;
        }
        if let (Some(h), Some(fin)) = (fin_handler, fin) {
            self.ctx.pop();
            self.ctx.pop();
            self.emit(Op::PopHandler, t.span);
            self.block(&fin.body)?;
            let end = self.emit(Op::Jump(0), t.span);
            self.patch_here(h);
            self.block(&fin.body)?;
            self.emit(Op::Throw(exc), fin.span);
            self.patch_here(end);
        }
        self.release(m);
        Ok(())
    }

    fn switch_stmt(&mut self, sw: &'b SwitchStatement<'a>, labels: Vec<String>) -> R<()> {
        let m = self.mark();
        let d = self.alloc(sw.span)?;
        self.expr_to(&sw.discriminant, d)?;
        self.push_scope();
        let all: Vec<&'b Statement<'a>> =
            sw.cases.iter().flat_map(|c| c.consequent.iter()).collect();
        for s in &all {
            // Lexical declarations of every case share the switch's scope.
            self.hoist_lexical(std::slice::from_ref(*s))?;
        }
        let ctx_len = self.ctx.len();
        self.f().jumps.push(Jumps {
            label: labels.first().cloned(),
            is_loop: false,
            breakable: true,
            breaks: Vec::new(),
            continues: Vec::new(),
            ctx_len,
        });
        let t = self.alloc(sw.span)?;
        let mut case_jumps = Vec::new();
        for c in &sw.cases {
            if let Some(test) = &c.test {
                self.expr_to(test, t)?;
                self.emit(Op::Binary(BinOp::StrictEq, t, d, t), c.span);
                case_jumps.push(Some(self.emit(Op::JumpIfTrue(t, 0), c.span)));
            } else {
                case_jumps.push(None);
            }
        }
        let default_jump = self.emit(Op::Jump(0), sw.span);
        let mut has_default = false;
        for (i, c) in sw.cases.iter().enumerate() {
            match case_jumps[i] {
                Some(j) => self.patch_here(j),
                None => {
                    has_default = true;
                    self.patch_here(default_jump);
                }
            }
            for s in &c.consequent {
                self.stmt(s)?;
            }
        }
        if !has_default {
            self.patch_here(default_jump);
        }
        self.end_jumps(None);
        self.f().scopes.pop();
        self.release(m);
        Ok(())
    }

    // ----- patterns ---------------------------------------------------------------------

    /// Bind `pattern` to the value in `src` (declared names already exist for let/const).
    fn bind_pattern(&mut self, pattern: &'b BindingPattern<'a>, src: Reg, decl: Decl) -> R<()> {
        self.enter(pattern.span())?;
        let r = self.bind_pattern_inner(pattern, src, decl);
        self.leave();
        r
    }

    fn bind_pattern_inner(
        &mut self,
        pattern: &'b BindingPattern<'a>,
        src: Reg,
        decl: Decl,
    ) -> R<()> {
        match pattern {
            BindingPattern::BindingIdentifier(id) => {
                let name = id.name.as_str();
                let b = match decl {
                    Decl::Param => self.declare(name, false, false, id.span)?,
                    _ => match self.resolve_local_only(name) {
                        Some(b) => b,
                        None => {
                            self.declare(name, decl != Decl::Var, decl == Decl::Const, id.span)?
                        }
                    },
                };
                self.store_binding(b, src, id.span);
            }
            BindingPattern::AssignmentPattern(a) => {
                let m = self.mark();
                let v = self.alloc(a.span)?;
                self.emit(Op::Move(v, src), a.span);
                let j = self.emit(Op::JumpIfUndefined(v, 0), a.span);
                let skip = self.emit(Op::Jump(0), a.span);
                self.patch_here(j);
                let name = match &a.left {
                    BindingPattern::BindingIdentifier(id) => id.name.as_str(),
                    _ => "",
                };
                self.expr_named(&a.right, v, name)?;
                self.patch_here(skip);
                self.bind_pattern(&a.left, v, decl)?;
                self.release(m);
            }
            BindingPattern::ObjectPattern(o) => {
                let m = self.mark();
                let keys = self.object_pattern_start(src, o.span, o.rest.is_some())?;
                for prop in &o.properties {
                    let mm = self.mark();
                    let v = self.alloc(prop.span)?;
                    let key = self.property_key_reg(&prop.key, prop.computed)?;
                    if let Some(k) = keys {
                        self.emit(Op::ArrayPush(k, key), prop.span);
                    }
                    self.emit(Op::GetElem(v, src, key), prop.span);
                    self.bind_pattern(&prop.value, v, decl)?;
                    self.release(mm);
                }
                if let (Some(rest), Some(k)) = (&o.rest, keys) {
                    let v = self.alloc(rest.span)?;
                    self.emit(Op::NewObject(v), rest.span);
                    self.emit(Op::CopyPropsExcept(v, src, k), rest.span);
                    self.bind_pattern(&rest.argument, v, decl)?;
                }
                self.release(m);
            }
            BindingPattern::ArrayPattern(a) => {
                let m = self.mark();
                let it = self.alloc(a.span)?;
                let res = self.alloc(a.span)?;
                let v = self.alloc(a.span)?;
                self.emit(Op::IterInit(it, src), a.span);
                for e in &a.elements {
                    self.iter_step_or_undefined(it, res, v, a.span);
                    if let Some(p) = e {
                        self.bind_pattern(p, v, decl)?;
                    }
                }
                if let Some(rest) = &a.rest {
                    self.iter_rest(it, res, v, rest.span)?;
                    self.bind_pattern(&rest.argument, v, decl)?;
                }
                self.release(m);
            }
        }
        Ok(())
    }

    /// v ← the iterator's next value, or undefined when it is done.
    fn iter_step_or_undefined(&mut self, it: Reg, res: Reg, v: Reg, span: Span) {
        self.emit(Op::IterNext(res, it), span);
        let done = self.emit(Op::IterValue(v, res, it, 0), span);
        let skip = self.emit(Op::Jump(0), span);
        self.patch_here(done);
        self.emit(Op::LoadUndef(v), span);
        self.patch_here(skip);
    }

    /// v ← an array of the iterator's remaining values.
    fn iter_rest(&mut self, it: Reg, res: Reg, v: Reg, span: Span) -> R<()> {
        let x = self.alloc(span)?;
        self.emit(Op::NewArray(v), span);
        let top = self.here();
        self.emit(Op::IterNext(res, it), span);
        let done = self.emit(Op::IterValue(x, res, it, 0), span);
        self.emit(Op::ArrayPush(v, x), span);
        self.emit(Op::Jump(top), span);
        self.patch_here(done);
        Ok(())
    }

    /// The start of an object pattern (binding or assignment) over `src`: the
    /// RequireObjectCoercible check, and with a rest element the array that collects the keys
    /// taken, so the rest copies the others.
    fn object_pattern_start(&mut self, src: Reg, span: Span, rest: bool) -> R<Option<Reg>> {
        self.require_object_coercible(src, span)?;
        if !rest {
            return Ok(None);
        }
        let k = self.alloc(span)?;
        self.emit(Op::NewArray(k), span);
        Ok(Some(k))
    }

    fn require_object_coercible(&mut self, src: Reg, span: Span) -> R<()> {
        let j = self.emit(Op::JumpIfNotNullish(src, 0), span);
        let msg = self.string("Cannot destructure 'undefined' or 'null'.");
        self.emit(Op::ThrowError(ErrorType::TypeError, msg), span);
        self.patch_here(j);
        Ok(())
    }

    /// A register holding a property key (a string constant or the computed value).
    fn property_key_reg(&mut self, key: &'b PropertyKey<'a>, computed: bool) -> R<Reg> {
        let span = key.span();
        let r = self.alloc(span)?;
        match key {
            PropertyKey::StaticIdentifier(id) => {
                let s = self.string(id.name.as_str());
                self.emit(Op::LoadStr(r, s), span);
            }
            PropertyKey::PrivateIdentifier(p) => {
                return Err(self.unsupported(p.span, "private name", "Use an ordinary property."));
            }
            other => {
                let e = other.to_expression();
                match e {
                    Expression::StringLiteral(s) if !computed => {
                        let k = self.string(s.value.as_str());
                        self.emit(Op::LoadStr(r, k), span);
                    }
                    Expression::NumericLiteral(n) if !computed => {
                        let k = self.string(&crate::number::to_string(n.value));
                        self.emit(Op::LoadStr(r, k), span);
                    }
                    e => self.expr_to(e, r)?,
                }
            }
        }
        Ok(r)
    }

    /// Assign `src` to an assignment target (names, members, patterns).
    fn assign_target(&mut self, t: &'b AssignmentTarget<'a>, src: Reg, span: Span) -> R<()> {
        self.enter(span)?;
        let r = self.assign_target_inner(t, src, span);
        self.leave();
        r
    }

    fn assign_target_inner(&mut self, t: &'b AssignmentTarget<'a>, src: Reg, _span: Span) -> R<()> {
        match t {
            AssignmentTarget::AssignmentTargetIdentifier(id) => {
                self.assign_name(id.name.as_str(), src, id.span)?;
            }
            AssignmentTarget::StaticMemberExpression(_)
            | AssignmentTarget::ComputedMemberExpression(_) => {
                let mm = self.mark();
                if let Some(m) = t.as_member_expression() {
                    let target = self.member_target(m, None)?;
                    self.write_target(target, src, m.span())?;
                }
                self.release(mm);
            }
            AssignmentTarget::TSAsExpression(e) => self.assign_expr_target(&e.expression, src)?,
            AssignmentTarget::TSSatisfiesExpression(e) => {
                self.assign_expr_target(&e.expression, src)?
            }
            AssignmentTarget::TSNonNullExpression(e) => {
                self.assign_expr_target(&e.expression, src)?
            }
            AssignmentTarget::TSTypeAssertion(e) => self.assign_expr_target(&e.expression, src)?,
            AssignmentTarget::PrivateFieldExpression(p) => {
                return Err(self.unsupported(p.span, "private field", "Use an ordinary property."));
            }
            AssignmentTarget::ObjectAssignmentTarget(o) => {
                let m = self.mark();
                let keys = self.object_pattern_start(src, o.span, o.rest.is_some())?;
                for prop in &o.properties {
                    let mm = self.mark();
                    let v = self.alloc(prop.span())?;
                    match prop {
                        AssignmentTargetProperty::AssignmentTargetPropertyIdentifier(p) => {
                            let key = self.alloc(p.span)?;
                            let s = self.string(p.binding.name.as_str());
                            self.emit(Op::LoadStr(key, s), p.span);
                            if let Some(k) = keys {
                                self.emit(Op::ArrayPush(k, key), p.span);
                            }
                            self.emit(Op::GetElem(v, src, key), p.span);
                            if let Some(init) = &p.init {
                                let j = self.emit(Op::JumpIfUndefined(v, 0), p.span);
                                let skip = self.emit(Op::Jump(0), p.span);
                                self.patch_here(j);
                                self.expr_named(init, v, p.binding.name.as_str())?;
                                self.patch_here(skip);
                            }
                            self.assign_name(p.binding.name.as_str(), v, p.span)?;
                        }
                        AssignmentTargetProperty::AssignmentTargetPropertyProperty(p) => {
                            let key = self.property_key_reg(&p.name, p.computed)?;
                            if let Some(k) = keys {
                                self.emit(Op::ArrayPush(k, key), p.span);
                            }
                            self.emit(Op::GetElem(v, src, key), p.span);
                            self.assign_maybe_default(&p.binding, v, p.span)?;
                        }
                    }
                    self.release(mm);
                }
                if let (Some(rest), Some(k)) = (&o.rest, keys) {
                    let v = self.alloc(rest.span)?;
                    self.emit(Op::NewObject(v), rest.span);
                    self.emit(Op::CopyPropsExcept(v, src, k), rest.span);
                    self.assign_target(&rest.target, v, rest.span)?;
                }
                self.release(m);
            }
            AssignmentTarget::ArrayAssignmentTarget(a) => {
                let m = self.mark();
                let it = self.alloc(a.span)?;
                let res = self.alloc(a.span)?;
                let v = self.alloc(a.span)?;
                self.emit(Op::IterInit(it, src), a.span);
                for e in &a.elements {
                    self.iter_step_or_undefined(it, res, v, a.span);
                    if let Some(t) = e {
                        self.assign_maybe_default(t, v, a.span)?;
                    }
                }
                if let Some(rest) = &a.rest {
                    self.iter_rest(it, res, v, rest.span)?;
                    self.assign_target(&rest.target, v, rest.span)?;
                }
                self.release(m);
            }
        }
        Ok(())
    }

    fn assign_maybe_default(
        &mut self,
        t: &'b AssignmentTargetMaybeDefault<'a>,
        v: Reg,
        span: Span,
    ) -> R<()> {
        match t {
            AssignmentTargetMaybeDefault::AssignmentTargetWithDefault(d) => {
                let j = self.emit(Op::JumpIfUndefined(v, 0), d.span);
                let skip = self.emit(Op::Jump(0), d.span);
                self.patch_here(j);
                self.expr_to(&d.init, v)?;
                self.patch_here(skip);
                self.assign_target(&d.binding, v, span)
            }
            other => self.assign_target(other.to_assignment_target(), v, span),
        }
    }

    /// Assignment through a TypeScript wrapper (`(x as any) = 1`).
    fn assign_expr_target(&mut self, e: &'b Expression<'a>, src: Reg) -> R<()> {
        let mm = self.mark();
        let dst = self.alloc(e.span())?;
        let t = self.expr_target(e, None, dst)?;
        self.write_target(t, src, e.span())?;
        self.release(mm);
        Ok(())
    }
}

/// What to call an expression outside the subset, and what to write instead.
fn unsupported_expression(e: &Expression<'_>) -> (&'static str, &'static str) {
    match e {
        Expression::RegExpLiteral(_) => (
            "regular expression",
            "Regular expressions arrive with the standard library; use string methods (indexOf, split, replaceAll) for now.",
        ),
        Expression::BigIntLiteral(_) => ("BigInt", "Use Numbers (exact up to 2^53)."),
        Expression::AwaitExpression(_) => (
            "await",
            "Await arrives with the async support (tool calls); compute values synchronously for now.",
        ),
        Expression::YieldExpression(_) => ("yield", "Build an array instead of a generator."),
        Expression::TaggedTemplateExpression(_) => {
            ("tagged template", "Call a function with the parts instead.")
        }
        Expression::ImportExpression(_) => (
            "import()",
            "Packages cannot be imported; use the `tools` object and the built-in globals.",
        ),
        Expression::Super(_) => ("super", "Classes are not supported yet."),
        Expression::NewTarget(_) => ("new.target", "Pass a flag argument instead."),
        Expression::ImportMeta(_) => ("import.meta", "The program is not a module."),
        Expression::JSXElement(_) | Expression::JSXFragment(_) => {
            ("JSX", "Build strings or objects instead.")
        }
        Expression::PrivateInExpression(_) => ("#x in o", "Use an ordinary property."),
        _ => ("expression", "Rewrite it with plain functions and objects."),
    }
}

fn binop(op: BinaryOperator) -> BinOp {
    use BinaryOperator as B;
    match op {
        B::Equality => BinOp::Eq,
        B::Inequality => BinOp::Ne,
        B::StrictEquality => BinOp::StrictEq,
        B::StrictInequality => BinOp::StrictNe,
        B::LessThan => BinOp::Lt,
        B::LessEqualThan => BinOp::Le,
        B::GreaterThan => BinOp::Gt,
        B::GreaterEqualThan => BinOp::Ge,
        B::Addition => BinOp::Add,
        B::Subtraction => BinOp::Sub,
        B::Multiplication => BinOp::Mul,
        B::Division => BinOp::Div,
        B::Remainder => BinOp::Rem,
        B::Exponential => BinOp::Exp,
        B::ShiftLeft => BinOp::Shl,
        B::ShiftRight => BinOp::Shr,
        B::ShiftRightZeroFill => BinOp::UShr,
        B::BitwiseOR => BinOp::BitOr,
        B::BitwiseXOR => BinOp::BitXor,
        B::BitwiseAnd => BinOp::BitAnd,
        B::In => BinOp::In,
        B::Instanceof => BinOp::InstanceOf,
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// Compile `e` into `dst`, naming an anonymous function or arrow `name`.
    fn expr_named(&mut self, e: &'b Expression<'a>, dst: Reg, name: &str) -> R<()> {
        match e {
            Expression::FunctionExpression(f) if f.id.is_none() => self.function(f, dst, name),
            Expression::ArrowFunctionExpression(a) => self.arrow(a, dst, name),
            Expression::ClassExpression(c) if c.id.is_none() => self.class(c, dst, name),
            Expression::ParenthesizedExpression(p) => self.expr_named(&p.expression, dst, name),
            _ => self.expr_to(e, dst),
        }
    }

    fn expr_to(&mut self, e: &'b Expression<'a>, dst: Reg) -> R<()> {
        self.enter(e.span())?;
        let m = self.mark();
        let r = self.expr_inner(e, dst);
        self.release(m);
        self.leave();
        r
    }

    fn expr_inner(&mut self, e: &'b Expression<'a>, dst: Reg) -> R<()> {
        let span = e.span();
        match e {
            Expression::NumericLiteral(n) => {
                self.emit(Op::LoadNum(dst, n.value), span);
            }
            Expression::StringLiteral(s) => {
                let k = if s.lone_surrogates {
                    self.lone_surrogate_string(s.value.as_str())
                } else {
                    self.string(s.value.as_str())
                };
                self.emit(Op::LoadStr(dst, k), span);
            }
            Expression::BooleanLiteral(b) => {
                self.emit(Op::LoadBool(dst, b.value), span);
            }
            Expression::NullLiteral(_) => {
                self.emit(Op::LoadNull(dst), span);
            }
            Expression::Identifier(id) => self.identifier(id.name.as_str(), dst, span)?,
            Expression::ThisExpression(_) => match self.resolve("this") {
                Some(b) => self.load_binding(b, "this", dst, span),
                None => {
                    self.emit(Op::LoadUndef(dst), span);
                }
            },
            Expression::TemplateLiteral(t) => self.template(t, dst)?,
            Expression::ParenthesizedExpression(p) => self.expr_to(&p.expression, dst)?,
            Expression::TSAsExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSSatisfiesExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSNonNullExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSTypeAssertion(x) => self.expr_to(&x.expression, dst)?,
            Expression::TSInstantiationExpression(x) => self.expr_to(&x.expression, dst)?,
            Expression::SequenceExpression(sq) => {
                for x in &sq.expressions {
                    self.expr_to(x, dst)?;
                }
            }
            Expression::ConditionalExpression(c) => {
                self.expr_to(&c.test, dst)?;
                let j = self.emit(Op::JumpIfFalse(dst, 0), span);
                self.expr_to(&c.consequent, dst)?;
                let end = self.emit(Op::Jump(0), span);
                self.patch_here(j);
                self.expr_to(&c.alternate, dst)?;
                self.patch_here(end);
            }
            Expression::LogicalExpression(l) => {
                self.expr_to(&l.left, dst)?;
                let j = match l.operator {
                    LogicalOperator::And => self.emit(Op::JumpIfFalse(dst, 0), span),
                    LogicalOperator::Or => self.emit(Op::JumpIfTrue(dst, 0), span),
                    LogicalOperator::Coalesce => self.emit(Op::JumpIfNotNullish(dst, 0), span),
                };
                self.expr_to(&l.right, dst)?;
                self.patch_here(j);
            }
            Expression::BinaryExpression(b) => {
                let a = self.alloc(span)?;
                self.expr_to(&b.left, a)?;
                let c = self.alloc(span)?;
                self.expr_to(&b.right, c)?;
                self.emit(Op::Binary(binop(b.operator), dst, a, c), span);
            }
            Expression::UnaryExpression(u) => self.unary(u, dst)?,
            Expression::UpdateExpression(u) => self.update(u, dst)?,
            Expression::AssignmentExpression(a) => self.assignment(a, dst)?,
            Expression::ArrayExpression(a) => {
                self.emit(Op::NewArray(dst), span);
                for el in &a.elements {
                    match el {
                        ArrayExpressionElement::SpreadElement(sp) => {
                            let v = self.alloc(sp.span)?;
                            self.expr_to(&sp.argument, v)?;
                            self.emit(Op::ArraySpread(dst, v), sp.span);
                            self.release(v as u32);
                        }
                        ArrayExpressionElement::Elision(el) => {
                            self.emit(Op::ArrayHole(dst), el.span);
                        }
                        other => {
                            let v = self.alloc(span)?;
                            self.expr_to(other.to_expression(), v)?;
                            self.emit(Op::ArrayPush(dst, v), span);
                            self.release(v as u32);
                        }
                    }
                }
            }
            Expression::ObjectExpression(o) => self.object(o, dst)?,
            Expression::FunctionExpression(f) => self.function(f, dst, "")?,
            Expression::ClassExpression(c) => {
                let name = c.id.as_ref().map_or("", |id| id.name.as_str());
                self.class(c, dst, name)?
            }
            Expression::ArrowFunctionExpression(a) => self.arrow(a, dst, "")?,
            Expression::StaticMemberExpression(_)
            | Expression::ComputedMemberExpression(_)
            | Expression::PrivateFieldExpression(_) => {
                self.member(e.to_member_expression(), dst)?;
            }
            Expression::ChainExpression(c) => {
                self.f().chains.push(Vec::new());
                match &c.expression {
                    ChainElement::CallExpression(call) => self.call(call, dst)?,
                    ChainElement::TSNonNullExpression(x) => self.expr_to(&x.expression, dst)?,
                    other => self.member(other.to_member_expression(), dst)?,
                }
                let exits = self.f().chains.pop().unwrap_or_default();
                if !exits.is_empty() {
                    let end = self.emit(Op::Jump(0), span);
                    for x in exits {
                        self.patch_here(x);
                    }
                    self.emit(Op::LoadUndef(dst), span);
                    self.patch_here(end);
                }
            }
            Expression::CallExpression(call) => self.call(call, dst)?,
            Expression::NewExpression(n) => {
                let callee = self.alloc(span)?;
                self.expr_to(&n.callee, callee)?;
                let at = match self.arguments(&n.arguments, span)? {
                    Args::Regs(first, count) => self.emit(Op::New(dst, callee, first, count), span),
                    Args::Array(arr) => self.emit(Op::NewSpread(dst, callee, arr), span),
                };
                self.note_callee(at, n.callee.span());
            }
            other => {
                let (what, hint) = unsupported_expression(other);
                return Err(self.unsupported(other.span(), what, hint));
            }
        }
        Ok(())
    }

    /// A string literal with lone surrogates: oxc writes each as U+FFFD followed by its four
    /// hex digits (`\u{FFFD}` itself as `\u{FFFD}fffd`).
    fn lone_surrogate_string(&mut self, s: &str) -> u32 {
        let mut units: Vec<u16> = Vec::new();
        let mut it = s.chars().peekable();
        while let Some(c) = it.next() {
            if c == '\u{fffd}' {
                let hex: String = it.clone().take(4).collect();
                if let Ok(u) = u16::from_str_radix(&hex, 16) {
                    for _ in 0..4 {
                        it.next();
                    }
                    units.push(u);
                    continue;
                }
            }
            let mut buf = [0u16; 2];
            units.extend_from_slice(c.encode_utf16(&mut buf));
        }
        let i = self.data.strings.len() as u32;
        self.data.strings.push(JsStr::from_units(units));
        i
    }

    fn identifier(&mut self, name: &str, dst: Reg, span: Span) -> R<()> {
        match self.resolve(name) {
            Some(b) => self.load_binding(b, name, dst, span),
            None => match name {
                "undefined" => {
                    self.emit(Op::LoadUndef(dst), span);
                }
                "eval" => {
                    return Err(self.unsupported(
                        span,
                        "eval",
                        "Code cannot be evaluated at run time; write it directly in the program.",
                    ));
                }
                _ => {
                    let n = self.string(name);
                    self.emit(Op::GetGlobal(dst, n), span);
                }
            },
        }
        Ok(())
    }

    fn member(&mut self, m: &'b MemberExpression<'a>, dst: Reg) -> R<()> {
        let span = m.span();
        if matches!(m.object(), Expression::Super(_)) {
            let home = self.alloc(span)?;
            self.identifier("%home", home, span)?;
            let k = self.alloc(span)?;
            match m {
                MemberExpression::StaticMemberExpression(s) => {
                    let n = self.string(s.property.name.as_str());
                    self.emit(Op::LoadStr(k, n), span);
                }
                MemberExpression::ComputedMemberExpression(c) => self.expr_to(&c.expression, k)?,
                MemberExpression::PrivateFieldExpression(p) => {
                    return Err(self.unsupported(
                        p.span,
                        "private field",
                        "Use an ordinary property.",
                    ));
                }
            }
            self.emit(Op::GetSuper(dst, home, k), span);
            return Ok(());
        }
        match m {
            MemberExpression::StaticMemberExpression(m) => {
                let o = self.alloc(span)?;
                self.expr_to(&m.object, o)?;
                if m.optional {
                    self.chain_check(o, span);
                }
                let k = self.string(m.property.name.as_str());
                self.emit(Op::GetProp(dst, o, k), m.property.span);
            }
            MemberExpression::ComputedMemberExpression(m) => {
                let o = self.alloc(span)?;
                self.expr_to(&m.object, o)?;
                if m.optional {
                    self.chain_check(o, span);
                }
                let k = self.alloc(span)?;
                self.expr_to(&m.expression, k)?;
                self.emit(Op::GetElem(dst, o, k), span);
            }
            MemberExpression::PrivateFieldExpression(p) => {
                return Err(self.unsupported(p.span, "private field", "Use an ordinary property."));
            }
        }
        Ok(())
    }

    /// Record the callee's source text of the call instruction `at` (short one-line texts).
    fn note_callee(&mut self, at: usize, callee: Span) {
        let text = &self.src[callee.start as usize..callee.end as usize];
        if text.len() <= 80 && !text.contains('\n') {
            let k = self.string(text);
            self.f().proto.callee_text.push((at as u32, k));
        }
    }

    /// In an optional chain: jump to the chain's end (undefined) when `r` is nullish.
    fn chain_check(&mut self, r: Reg, span: Span) {
        let j = self.emit(Op::JumpIfNullish(r, 0), span);
        if let Some(c) = self.f().chains.last_mut() {
            c.push(j);
        }
    }

    fn template(&mut self, t: &'b TemplateLiteral<'a>, dst: Reg) -> R<()> {
        let first = t
            .quasis
            .first()
            .and_then(|q| q.value.cooked.as_ref())
            .map_or("", |c| c.as_str());
        let k = self.string(first);
        self.emit(Op::LoadStr(dst, k), t.span);
        let part = self.alloc(t.span)?;
        for (i, e) in t.expressions.iter().enumerate() {
            self.expr_to(e, part)?;
            self.emit(Op::Unary(UnOp::ToStr, part, part), e.span());
            self.emit(Op::Binary(BinOp::Add, dst, dst, part), e.span());
            if let Some(q) = t.quasis.get(i + 1) {
                let text = q.value.cooked.as_ref().map_or("", |c| c.as_str());
                if !text.is_empty() {
                    let k = self.string(text);
                    self.emit(Op::LoadStr(part, k), q.span);
                    self.emit(Op::Binary(BinOp::Add, dst, dst, part), q.span);
                }
            }
        }
        Ok(())
    }

    fn unary(&mut self, u: &'b UnaryExpression<'a>, dst: Reg) -> R<()> {
        let span = u.span;
        let op = match u.operator {
            UnaryOperator::UnaryNegation => UnOp::Neg,
            UnaryOperator::UnaryPlus => UnOp::Plus,
            UnaryOperator::LogicalNot => UnOp::Not,
            UnaryOperator::BitwiseNot => UnOp::BitNot,
            UnaryOperator::Typeof => {
                if let Expression::Identifier(id) = u.argument.without_parentheses()
                    && self.resolve(id.name.as_str()).is_none()
                    && id.name != "undefined"
                {
                    let n = self.string(id.name.as_str());
                    self.emit(Op::TypeofGlobal(dst, n), span);
                    return Ok(());
                }
                UnOp::Typeof
            }
            UnaryOperator::Void => {
                self.expr_to(&u.argument, dst)?;
                self.emit(Op::LoadUndef(dst), span);
                return Ok(());
            }
            UnaryOperator::Delete => {
                match u.argument.without_parentheses() {
                    Expression::StaticMemberExpression(m) => {
                        let o = self.alloc(span)?;
                        self.expr_to(&m.object, o)?;
                        let k = self.alloc(span)?;
                        let s = self.string(m.property.name.as_str());
                        self.emit(Op::LoadStr(k, s), span);
                        self.emit(Op::DeleteElem(dst, o, k), span);
                    }
                    Expression::ComputedMemberExpression(m) => {
                        let o = self.alloc(span)?;
                        self.expr_to(&m.object, o)?;
                        let k = self.alloc(span)?;
                        self.expr_to(&m.expression, k)?;
                        self.emit(Op::DeleteElem(dst, o, k), span);
                    }
                    Expression::Identifier(_) => {
                        return Err(self.err(
                            span,
                            ErrorKind::ParseError,
                            "Delete of an unqualified identifier in strict mode.".into(),
                        ));
                    }
                    other => {
                        self.expr_to(other, dst)?;
                        self.emit(Op::LoadBool(dst, true), span);
                    }
                }
                return Ok(());
            }
        };
        self.expr_to(&u.argument, dst)?;
        self.emit(Op::Unary(op, dst, dst), span);
        Ok(())
    }

    /// Evaluate a member target's object (and key); read its value into `read` when asked.
    fn member_target(&mut self, m: &'b MemberExpression<'a>, read: Option<Reg>) -> R<Target<'b>> {
        let span = m.span();
        match m {
            MemberExpression::StaticMemberExpression(m) => {
                let o = self.alloc(span)?;
                self.expr_to(&m.object, o)?;
                let k = self.string(m.property.name.as_str());
                if let Some(d) = read {
                    self.emit(Op::GetProp(d, o, k), span);
                }
                Ok(Target::Prop(o, k))
            }
            MemberExpression::ComputedMemberExpression(m) => {
                let o = self.alloc(span)?;
                self.expr_to(&m.object, o)?;
                let k = self.alloc(span)?;
                self.expr_to(&m.expression, k)?;
                if let Some(d) = read {
                    self.emit(Op::GetElem(d, o, k), span);
                }
                Ok(Target::Elem(o, k))
            }
            MemberExpression::PrivateFieldExpression(p) => {
                Err(self.unsupported(p.span, "private field", "Use an ordinary property."))
            }
        }
    }

    /// Read a simple assignment target into `dst`, returning how to write it back.
    fn read_target(&mut self, t: &'b SimpleAssignmentTarget<'a>, dst: Reg) -> R<Target<'b>> {
        let span = t.span();
        if let Some(m) = t.as_member_expression() {
            return self.member_target(m, Some(dst));
        }
        match t {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => {
                self.identifier(id.name.as_str(), dst, span)?;
                Ok(Target::Name(id.name.as_str(), id.span))
            }
            SimpleAssignmentTarget::TSAsExpression(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            SimpleAssignmentTarget::TSNonNullExpression(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            SimpleAssignmentTarget::TSSatisfiesExpression(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            SimpleAssignmentTarget::TSTypeAssertion(x) => {
                self.expr_target(&x.expression, Some(dst), dst)
            }
            other => Err(self.err(
                other.span(),
                ErrorKind::ParseError,
                "Invalid left-hand side in assignment".into(),
            )),
        }
    }

    /// An expression used as an assignment target (inside TypeScript wrappers), read into
    /// `read` when asked (`scratch` is a register the caller owns).
    fn expr_target(
        &mut self,
        e: &'b Expression<'a>,
        read: Option<Reg>,
        scratch: Reg,
    ) -> R<Target<'b>> {
        let e = e.without_parentheses();
        if let Some(m) = e.as_member_expression() {
            return self.member_target(m, read);
        }
        match e {
            Expression::Identifier(id) => {
                self.identifier(id.name.as_str(), read.unwrap_or(scratch), id.span)?;
                Ok(Target::Name(id.name.as_str(), id.span))
            }
            Expression::TSAsExpression(x) => self.expr_target(&x.expression, read, scratch),
            Expression::TSNonNullExpression(x) => self.expr_target(&x.expression, read, scratch),
            Expression::TSSatisfiesExpression(x) => self.expr_target(&x.expression, read, scratch),
            other => Err(self.err(
                other.span(),
                ErrorKind::ParseError,
                "Invalid left-hand side in assignment".into(),
            )),
        }
    }

    fn write_target(&mut self, t: Target<'b>, src: Reg, span: Span) -> R<()> {
        match t {
            Target::Name(n, sp) => self.assign_name(n, src, sp)?,
            Target::Prop(o, k) => {
                self.emit(Op::SetProp(o, k, src), span);
            }
            Target::Elem(o, k) => {
                self.emit(Op::SetElem(o, k, src), span);
            }
        }
        Ok(())
    }

    fn update(&mut self, u: &'b UpdateExpression<'a>, dst: Reg) -> R<()> {
        let span = u.span;
        let cur = self.alloc(span)?;
        let t = self.read_target(&u.argument, cur)?;
        let op = match u.operator {
            UpdateOperator::Increment => UnOp::Inc,
            UpdateOperator::Decrement => UnOp::Dec,
        };
        if u.prefix {
            self.emit(Op::Unary(op, cur, cur), span);
            self.write_target(t, cur, span)?;
            self.emit(Op::Move(dst, cur), span);
        } else {
            self.emit(Op::Unary(UnOp::ToNumeric, dst, cur), span);
            self.emit(Op::Unary(op, cur, dst), span);
            self.write_target(t, cur, span)?;
        }
        Ok(())
    }

    fn assignment(&mut self, a: &'b AssignmentExpression<'a>, dst: Reg) -> R<()> {
        let span = a.span;
        if a.operator == AssignmentOperator::Assign {
            match &a.left {
                AssignmentTarget::AssignmentTargetIdentifier(id) => {
                    self.expr_named(&a.right, dst, id.name.as_str())?;
                    self.assign_name(id.name.as_str(), dst, id.span)?;
                }
                AssignmentTarget::StaticMemberExpression(m) => {
                    let o = self.alloc(span)?;
                    self.expr_to(&m.object, o)?;
                    self.expr_to(&a.right, dst)?;
                    let k = self.string(m.property.name.as_str());
                    self.emit(Op::SetProp(o, k, dst), span);
                }
                AssignmentTarget::ComputedMemberExpression(m) => {
                    let o = self.alloc(span)?;
                    self.expr_to(&m.object, o)?;
                    let k = self.alloc(span)?;
                    self.expr_to(&m.expression, k)?;
                    self.expr_to(&a.right, dst)?;
                    self.emit(Op::SetElem(o, k, dst), span);
                }
                other => {
                    self.expr_to(&a.right, dst)?;
                    self.assign_target(other, dst, span)?;
                }
            }
            return Ok(());
        }
        let Some(simple) = a.left.as_simple_assignment_target() else {
            return Err(self.err(
                span,
                ErrorKind::ParseError,
                "Invalid left-hand side in assignment".into(),
            ));
        };
        let t = self.read_target(simple, dst)?;
        if let Some(l) = a.operator.to_logical_operator() {
            let j = match l {
                LogicalOperator::And => self.emit(Op::JumpIfFalse(dst, 0), span),
                LogicalOperator::Or => self.emit(Op::JumpIfTrue(dst, 0), span),
                LogicalOperator::Coalesce => self.emit(Op::JumpIfNotNullish(dst, 0), span),
            };
            let name = match t {
                Target::Name(n, _) => n,
                _ => "",
            };
            self.expr_named(&a.right, dst, name)?;
            self.write_target(t, dst, span)?;
            self.patch_here(j);
            return Ok(());
        }
        let Some(op) = a.operator.to_binary_operator() else {
            return Err(self.err(span, ErrorKind::ParseError, "Invalid assignment".into()));
        };
        let r = self.alloc(span)?;
        self.expr_to(&a.right, r)?;
        self.emit(Op::Binary(binop(op), dst, dst, r), span);
        self.write_target(t, dst, span)
    }

    fn object(&mut self, o: &'b ObjectExpression<'a>, dst: Reg) -> R<()> {
        self.emit(Op::NewObject(dst), o.span);
        for p in &o.properties {
            let m = self.mark();
            match p {
                ObjectPropertyKind::SpreadProperty(sp) => {
                    let v = self.alloc(sp.span)?;
                    self.expr_to(&sp.argument, v)?;
                    self.emit(Op::CopyProps(dst, v), sp.span);
                }
                ObjectPropertyKind::ObjectProperty(prop) => {
                    let static_name = match &prop.key {
                        PropertyKey::StaticIdentifier(id) if !prop.computed => {
                            Some(id.name.to_string())
                        }
                        PropertyKey::StringLiteral(s) if !prop.computed => {
                            Some(s.value.to_string())
                        }
                        _ => None,
                    };
                    if static_name.as_deref() == Some("__proto__")
                        && prop.kind == PropertyKind::Init
                        && !prop.shorthand
                        && !prop.method
                    {
                        return Err(self.unsupported(
                            prop.span,
                            "__proto__ in an object literal",
                            "Use Object.create(proto) and assign the properties.",
                        ));
                    }
                    let v = self.alloc(prop.span)?;
                    let name = static_name.clone().unwrap_or_default();
                    match prop.kind {
                        PropertyKind::Init => {
                            if prop.method {
                                self.method(&prop.value, v, &name)?;
                            } else {
                                self.expr_named(&prop.value, v, &name)?;
                            }
                            match static_name {
                                Some(n) => {
                                    let k = self.string(&n);
                                    self.emit(Op::DefineProp(dst, k, v), prop.span);
                                }
                                None => {
                                    let k = self.property_key_reg(&prop.key, prop.computed)?;
                                    self.emit(Op::DefineElem(dst, k, v), prop.span);
                                }
                            }
                        }
                        PropertyKind::Get | PropertyKind::Set => {
                            let k = self.property_key_reg(&prop.key, prop.computed)?;
                            let prefix = if prop.kind == PropertyKind::Get {
                                "get "
                            } else {
                                "set "
                            };
                            self.method(&prop.value, v, &format!("{prefix}{name}"))?;
                            self.emit(
                                Op::DefineAccessor(
                                    dst,
                                    k,
                                    v,
                                    (prop.kind == PropertyKind::Set) as u8,
                                ),
                                prop.span,
                            );
                        }
                    }
                }
            }
            self.release(m);
        }
        Ok(())
    }

    /// A method (not constructible, no `prototype`).
    fn method(&mut self, e: &'b Expression<'a>, dst: Reg, name: &str) -> R<()> {
        let Expression::FunctionExpression(f) = e else {
            return self.expr_named(e, dst, name);
        };
        if f.generator || f.r#async {
            return self.function(f, dst, name);
        }
        let Some(body) = &f.body else {
            self.emit(Op::LoadUndef(dst), f.span);
            return Ok(());
        };
        let idx = self.function_body(
            f.span,
            name,
            Some(&f.params),
            &body.statements,
            None,
            false,
            false,
        )?;
        self.emit(Op::Closure(dst, idx), f.span);
        Ok(())
    }

    fn arguments(&mut self, args: &'b [Argument<'a>], span: Span) -> R<Args> {
        if args.iter().any(|a| matches!(a, Argument::SpreadElement(_))) {
            let arr = self.alloc(span)?;
            self.emit(Op::NewArray(arr), span);
            for a in args {
                let v = self.alloc(span)?;
                match a {
                    Argument::SpreadElement(sp) => {
                        self.expr_to(&sp.argument, v)?;
                        self.emit(Op::ArraySpread(arr, v), sp.span);
                    }
                    other => {
                        self.expr_to(other.to_expression(), v)?;
                        self.emit(Op::ArrayPush(arr, v), span);
                    }
                }
                self.release(v as u32);
            }
            return Ok(Args::Array(arr));
        }
        let first = self.f().next_reg as Reg;
        let regs: Vec<Reg> = (0..args.len())
            .map(|_| self.alloc(span))
            .collect::<R<_>>()?;
        for (a, r) in args.iter().zip(&regs) {
            self.expr_to(a.to_expression(), *r)?;
        }
        Ok(Args::Regs(first, args.len() as u16))
    }

    fn call(&mut self, call: &'b CallExpression<'a>, dst: Reg) -> R<()> {
        let span = call.span;
        let callee = self.alloc(span)?;
        let this = self.alloc(span)?;
        if let Some(m) = call.callee.without_parentheses().as_member_expression()
            && matches!(m.object(), Expression::Super(_))
        {
            if let Some(b) = self.resolve("this") {
                self.load_binding(b, "this", this, span);
            }
            self.member(m, callee)?;
            let at = match self.arguments(&call.arguments, span)? {
                Args::Regs(first, count) => {
                    self.emit(Op::Call(dst, callee, this, first, count), span)
                }
                Args::Array(arr) => self.emit(Op::CallSpread(dst, callee, this, arr), span),
            };
            self.note_callee(at, call.callee.span());
            return Ok(());
        }
        match call.callee.without_parentheses() {
            Expression::StaticMemberExpression(m) => {
                self.expr_to(&m.object, this)?;
                if m.optional {
                    self.chain_check(this, span);
                }
                let k = self.string(m.property.name.as_str());
                self.emit(Op::GetProp(callee, this, k), m.property.span);
            }
            Expression::ComputedMemberExpression(m) => {
                self.expr_to(&m.object, this)?;
                if m.optional {
                    self.chain_check(this, span);
                }
                let k = self.alloc(span)?;
                self.expr_to(&m.expression, k)?;
                self.emit(Op::GetElem(callee, this, k), span);
            }
            Expression::Super(_) => {
                let at = match self.arguments(&call.arguments, span)? {
                    Args::Regs(first, count) => self.emit(Op::SuperCall(dst, first, count), span),
                    Args::Array(arr) => self.emit(Op::SuperCallSpread(dst, arr), span),
                };
                let _ = at;
                return self.after_super(dst, span);
            }
            other => {
                if let Expression::Identifier(id) = other
                    && id.name == "eval"
                    && self.resolve("eval").is_none()
                {
                    return Err(self.unsupported(
                        span,
                        "eval",
                        "Code cannot be evaluated at run time; write it directly in the program.",
                    ));
                }
                self.expr_to(other, callee)?;
                self.emit(Op::LoadUndef(this), span);
            }
        }
        if call.optional {
            self.chain_check(callee, span);
        }
        let at = match self.arguments(&call.arguments, span)? {
            Args::Regs(first, count) => self.emit(Op::Call(dst, callee, this, first, count), span),
            Args::Array(arr) => self.emit(Op::CallSpread(dst, callee, this, arr), span),
        };
        self.note_callee(at, call.callee.span());
        Ok(())
    }
}

impl<'s, 'b, 'a: 'b> Compiler<'s, 'b, 'a> {
    /// A class (without `extends` for now): its constructor with the instance fields, methods
    /// and accessors on the prototype (not enumerable), static members on the class.
    fn class(&mut self, c: &'b Class<'a>, dst: Reg, name: &str) -> R<()> {
        let outer = self.mark();
        let parent = match &c.heritage {
            Some(h) => {
                let p = self.alloc(c.span)?;
                self.expr_to(&h.expression, p)?;
                Some(p)
            }
            None => None,
        };
        self.push_scope();
        let home = self.declare("%home", false, false, c.span)?;
        let mut ctor = None;
        let mut fields = Vec::new();
        for el in &c.body.body {
            match el {
                ClassElement::MethodDefinition(m)
                    if m.kind == MethodDefinitionKind::Constructor =>
                {
                    ctor = Some(m)
                }
                ClassElement::PropertyDefinition(p) if !p.r#static => fields.push(&**p),
                ClassElement::StaticBlock(b) => {
                    return Err(self.unsupported(
                        b.span,
                        "static block",
                        "Assign the static members after the class.",
                    ));
                }
                ClassElement::AccessorProperty(a) => {
                    return Err(self.unsupported(
                        a.span,
                        "accessor",
                        "Write a getter and a setter.",
                    ));
                }
                _ => {}
            }
        }
        self.fields = Some(fields);
        self.derived = parent.is_some();
        let idx = match ctor {
            Some(m) => {
                let body = m.value.body.as_ref().map_or(&[][..], |b| &b.statements[..]);
                self.function_body(
                    m.value.span,
                    name,
                    Some(&m.value.params),
                    body,
                    None,
                    false,
                    true,
                )?
            }
            None => self.function_body(c.span, name, None, &[], None, false, true)?,
        };
        self.emit(Op::Closure(dst, idx), c.span);
        let m = self.mark();
        let proto = self.alloc(c.span)?;
        let k = self.string("prototype");
        self.emit(Op::GetProp(proto, dst, k), c.span);
        if let Some(p) = parent {
            let pp = self.alloc(c.span)?;
            self.emit(Op::GetProp(pp, p, k), c.span);
            self.emit(Op::SetProto(proto, pp), c.span);
            self.emit(Op::SetProto(dst, p), c.span);
        }
        self.store_binding(home, proto, c.span);
        for el in &c.body.body {
            let mm = self.mark();
            match el {
                ClassElement::MethodDefinition(md)
                    if md.kind != MethodDefinitionKind::Constructor =>
                {
                    let target = if md.r#static { dst } else { proto };
                    let key = self.property_key_reg(&md.key, md.computed)?;
                    let f = self.alloc(md.span)?;
                    let kname = match &md.key {
                        PropertyKey::StaticIdentifier(id) => id.name.to_string(),
                        _ => String::new(),
                    };
                    let Some(body) = &md.value.body else {
                        self.release(mm);
                        continue;
                    };
                    let (fname, flags) = match md.kind {
                        MethodDefinitionKind::Get => (format!("get {kname}"), 2),
                        MethodDefinitionKind::Set => (format!("set {kname}"), 3),
                        _ => (kname, 0),
                    };
                    // Static methods find `super` on the class itself.
                    if md.r#static {
                        self.push_scope();
                        let h = self.declare("%home", false, false, md.span)?;
                        self.store_binding(h, dst, md.span);
                    }
                    let fi = self.function_body(
                        md.value.span,
                        &fname,
                        Some(&md.value.params),
                        &body.statements,
                        None,
                        false,
                        false,
                    )?;
                    self.emit(Op::Closure(f, fi), md.span);
                    if md.r#static {
                        self.f().scopes.pop();
                    }
                    if flags == 0 {
                        self.emit(Op::DefineMethod(target, key, f), md.span);
                    } else {
                        self.emit(Op::DefineAccessor(target, key, f, flags), md.span);
                    }
                }
                ClassElement::PropertyDefinition(p) if p.r#static => self.define_field(dst, p)?,
                _ => {}
            }
            self.release(mm);
        }
        self.release(m);
        self.f().scopes.pop();
        self.release(outer);
        Ok(())
    }

    /// After `super(...)` put its result in `dst`: make it `this` and define the fields.
    fn after_super(&mut self, dst: Reg, span: Span) -> R<()> {
        if let Some(b) = self.resolve("this")
            && !matches!(b.st, Storage::Reg(0))
        {
            self.store_binding(b, dst, span);
        }
        if let Some(fs) = self.derived_fields.clone() {
            self.field_inits(fs, span)?;
        }
        Ok(())
    }

    /// Define field `p` (its initializer's value, or undefined) on the object in `target`.
    fn define_field(&mut self, target: Reg, p: &'b PropertyDefinition<'a>) -> R<()> {
        let key = self.property_key_reg(&p.key, p.computed)?;
        let v = self.alloc(p.span)?;
        match &p.value {
            Some(e) => self.expr_to(e, v)?,
            None => {
                self.emit(Op::LoadUndef(v), p.span);
            }
        }
        self.emit(Op::DefineElem(target, key, v), p.span);
        Ok(())
    }

    /// The instance fields, defined on `this` at the start of a class constructor.
    fn field_inits(&mut self, fields: Vec<&'b PropertyDefinition<'a>>, span: Span) -> R<()> {
        if fields.is_empty() {
            return Ok(());
        }
        let m = self.mark();
        let this = self.alloc(span)?;
        if let Some(b) = self.resolve("this") {
            self.load_binding(b, "this", this, span);
        }
        for p in fields {
            let mm = self.mark();
            self.define_field(this, p)?;
            self.release(mm);
        }
        self.release(m);
        Ok(())
    }
}

/// Call arguments: consecutive registers, or (with spread) one array.
enum Args {
    Regs(Reg, u16),
    Array(Reg),
}

/// A simple assignment target, read once and written back.
#[derive(Clone, Copy)]
enum Target<'b> {
    Name(&'b str, Span),
    Prop(Reg, u32),
    Elem(Reg, Reg),
}
