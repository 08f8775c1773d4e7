//! oxc syntax tree → register bytecode, with scopes resolved at compile time.
//!
//! Two passes over the tree, both bounded in depth by the pre-scan (`scan.rs`) and by
//! [`MAX_SYNTAX_DEPTH`]: `Captures` (an `oxc_ast_visit` walk) records, per function, the names
//! referenced inside its nested functions; the compiler then stores a binding in a heap cell
//! when its name is among them (a conservative, name-based over-approximation) and in a
//! register otherwise. Every local is resolved here: only globals are looked up by name at run
//! time. TypeScript annotations are skipped; syntax outside the subset is UnsupportedSyntax
//! with what to write instead.
//!
//! This file holds the capture pass, scopes and bindings, hoisting, functions and the program;
//! `statements.rs`, `patterns.rs` (destructuring), `expressions.rs` and `classes.rs` the rest.

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
use crate::proto::{
    BinOp, Capture, ErrorType, FuncProto, Op, ProgramData, Reg, TemplateSite, UnOp,
};
use crate::scan::{location, parse_error};
use crate::string::JsStr;

mod classes;
mod expressions;
mod patterns;
mod statements;
mod typescript;

use patterns::{Decl, pattern_names};

/// Key of the program body in the capture table.
const PROGRAM_KEY: u32 = u32::MAX;

/// Parse and compile `source` (already checked by `scan::check`).
pub fn compile(source: &str) -> Result<ProgramData, GuestError> {
    compile_as(source, false)
}

/// Compile the standard library's prelude: like [`compile`], with every function marked as
/// a builtin (see `ProgramData::builtin`).
pub fn compile_builtin(source: &str) -> Result<ProgramData, GuestError> {
    compile_as(source, true)
}

fn compile_as(source: &str, builtin: bool) -> Result<ProgramData, GuestError> {
    let alloc = Allocator::default();
    let opts = oxc_parser::ParseOptions {
        allow_return_outside_function: true,
        parse_regular_expression: true,
        ..Default::default()
    };
    let mut ret = oxc_parser::Parser::new(&alloc, source, SourceType::ts())
        .with_options(opts)
        .parse();
    // Read as a script, a program whose only `await`s are ambiguous (`await (x)`, `await [a]`,
    // `await {a}`) makes `await` an identifier, or fails to parse: the program is an async
    // function body, so read it again as a module, where `await` is always the operator.
    let mut top = TopLevelAwait::default();
    if source.contains("await") {
        top.visit_program(&ret.program);
    }
    if !builtin
        && source.contains("await")
        && (top.name_found || ret.diagnostics.errors().next().is_some())
    {
        let again = oxc_parser::Parser::new(&alloc, source, SourceType::ts().with_module(true))
            .with_options(opts)
            .parse();
        if again.diagnostics.errors().next().is_none() && !again.panicked {
            ret = again;
        }
    }
    // The program is an async function body: a top-level `for await` is allowed (the
    // parser, reading a script, defers and then reports it; a module reading, which the
    // re-parse above makes, has the same spans and no such report).
    let allowed = |e: &oxc_diagnostics::OxcDiagnostic| {
        e.message.starts_with("`for await` loops are only allowed")
            && e.labels.iter().all(|l| {
                let at = l.offset();
                top.for_await.iter().any(|s| s.start <= at && at < s.end)
            })
    };
    if let Some(e) = ret.diagnostics.errors().find(|e| !allowed(e)) {
        return Err(crate::early::diagnostic(source, e));
    }
    if ret.panicked {
        return Err(parse_error(source, 0, "the program cannot be parsed"));
    }
    let mut caps = Captures::default();
    caps.stack.push(PROGRAM_KEY);
    caps.visit_program(&ret.program);
    crate::early::check(source, &alloc, &mut ret.program, caps.ts_declarations)?;
    let decorator = caps.decorator;
    let mut c = Compiler {
        src: source,
        data: ProgramData {
            source: Arc::from(source),
            lines: crate::scan::LineTable::new(source),
            builtin,
            ..Default::default()
        },
        captures: caps.inner,
        fns: Vec::new(),
        ctx: Vec::new(),
        depth: 0,
        strings: HashMap::new(),
        self_name: None,
        next_kind: FnKind::default(),
        await_loop: false,
        fields: None,
        derived: false,
        derived_fields: None,
        privates: Vec::new(),
        in_initializer: false,
        static_block_next: false,
        pattern_site: patterns::Site::Nested,
    };
    if let Some(span) = decorator {
        return Err(c.unsupported(
            span,
            "decorator",
            "Apply the function yourself after the definition, e.g. `C = logged(C)` or `obj.m = logged(obj.m)`.",
        ));
    }
    c.program(&ret.program)?;
    Ok(c.data)
}

/// Per function (keyed by span start), the names referenced inside its nested functions.
#[derive(Default)]
struct Captures {
    inner: HashMap<u32, HashSet<String>>,
    stack: Vec<u32>,
    /// The program declares TypeScript names (interfaces, type aliases, type parameters,
    /// overloads, `declare`, enums, namespaces): the early errors then follow TypeScript's
    /// redeclaration rules (`early.rs`).
    ts_declarations: bool,
    /// The first decorator (`@d`), which is UnsupportedSyntax.
    decorator: Option<Span>,
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

/// `Visit` methods that note a TypeScript declaration (`Captures::ts_declarations`) when the
/// node is one, and walk on: `visit method, walk function, node type, |it| is one;` each.
macro_rules! ts_declarations {
    ($($visit:ident, $walk:ident, $ty:ident, |$it:ident| $is:expr;)*) => {$(
        fn $visit(&mut self, $it: &$ty<'a>) {
            self.ts_declarations |= $is;
            oxc_ast_visit::walk::$walk(self, $it);
        }
    )*};
}

/// What the program's top level (outside every function and class) does with `await`.
#[derive(Default)]
struct TopLevelAwait {
    depth: usize,
    /// It refers to a name `await` (a script's reading of a top-level `await (x)`; inside a
    /// plain function `await` may be a name).
    name_found: bool,
    /// The spans of its `for await` statements.
    for_await: Vec<Span>,
}

impl<'a> Visit<'a> for TopLevelAwait {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.name_found |= self.depth == 0 && it.name == "await";
    }
    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.depth += 1;
        oxc_ast_visit::walk::walk_function(self, it, flags);
        self.depth -= 1;
    }
    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        self.depth += 1;
        oxc_ast_visit::walk::walk_arrow_function_expression(self, it);
        self.depth -= 1;
    }
    fn visit_class(&mut self, it: &Class<'a>) {
        self.depth += 1;
        oxc_ast_visit::walk::walk_class(self, it);
        self.depth -= 1;
    }
    fn visit_for_of_statement(&mut self, it: &ForOfStatement<'a>) {
        if it.r#await && self.depth == 0 {
            self.for_await.push(it.span);
        }
        oxc_ast_visit::walk::walk_for_of_statement(self, it);
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
        self.reference("%ctor");
        self.reference("new.target");
    }
    fn visit_new_target(&mut self, _it: &NewTarget) {
        self.reference("new.target");
    }
    fn visit_decorator(&mut self, it: &Decorator<'a>) {
        self.decorator.get_or_insert(it.span);
        oxc_ast_visit::walk::walk_decorator(self, it);
    }
    fn visit_private_identifier(&mut self, it: &PrivateIdentifier<'a>) {
        self.reference(&format!("#{}", it.name));
    }
    fn visit_static_block(&mut self, it: &StaticBlock<'a>) {
        // A static block is the body of a method called with the class as `this`.
        self.stack.push(it.span.start);
        oxc_ast_visit::walk::walk_static_block(self, it);
        self.stack.pop();
    }
    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        self.ts_declarations |= it.body.is_none() || it.declare;
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
    ts_declarations! {
        visit_class, walk_class, Class, |it| it.declare;
        visit_variable_declaration, walk_variable_declaration, VariableDeclaration, |it| it.declare;
        visit_ts_type_parameter, walk_ts_type_parameter, TSTypeParameter, |_it| true;
        visit_ts_interface_declaration, walk_ts_interface_declaration, TSInterfaceDeclaration, |_it| true;
        visit_ts_type_alias_declaration, walk_ts_type_alias_declaration, TSTypeAliasDeclaration, |_it| true;
        visit_ts_enum_declaration, walk_ts_enum_declaration, TSEnumDeclaration, |_it| true;
        visit_ts_namespace_declaration, walk_ts_namespace_declaration, TSNamespaceDeclaration, |_it| true;
        visit_ts_external_module_declaration, walk_ts_external_module_declaration, TSExternalModuleDeclaration, |_it| true;
        visit_ts_global_declaration, walk_ts_global_declaration, TSGlobalDeclaration, |_it| true;
        visit_ts_import_equals_declaration, walk_ts_import_equals_declaration, TSImportEqualsDeclaration, |_it| true;
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
    /// Initialized before every later instruction of its own function that reads it: its
    /// declaration has run (set after the declarator's store, outside `switch` scopes, whose
    /// cases can jump past a declaration), so those reads skip the TDZ check. Never set
    /// through a capture: a closure may run before the initialization.
    init: bool,
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
    /// What a `continue` keeps: a `for…of` loop's iterator (and its body's handler) stay open
    /// for the next iteration (`None`: as `ctx_len`).
    cont_ctx_len: Option<usize>,
}

/// What an abrupt exit (break, continue, return) must undo on its way out.
#[derive(Clone, Copy)]
enum Ctx<'b, 'a> {
    Handler,
    Finally(&'b BlockStatement<'a>),
    Iter(Reg),
}
use Ctx as CtxEntry;

/// The bindings of one block scope, by name (a program of 10^4 declarations is not quadratic
/// to compile: declaring and resolving are O(1) expected per scope).
#[derive(Default)]
struct Scope {
    names: HashMap<String, Binding>,
    /// A `switch` block: a case may run without the declarations of the cases before it.
    switch: bool,
}

impl Scope {
    /// Add (or replace) a binding.
    fn push(&mut self, (name, b): (String, Binding)) {
        self.names.insert(name, b);
    }

    fn get(&self, name: &str) -> Option<Binding> {
        self.names.get(name).copied()
    }
}

struct FnState {
    proto: FuncProto,
    scopes: Vec<Scope>,
    next_reg: u32,
    max_reg: u32,
    /// Names referenced by nested functions: such bindings live in cells.
    captured: HashSet<String>,
    jumps: Vec<Jumps>,
    /// The innermost label set waiting for the next loop.
    pending_labels: Vec<String>,
    /// Optional-chain exits of the chains being compiled.
    chains: Vec<Vec<usize>>,
    /// A derived class constructor (its returns go through `ReturnDerived`).
    derived_ctor: bool,
    /// Async and/or generator.
    kind: FnKind,
}

/// What kind of body a function has: `async`, a generator, both (an async generator).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct FnKind {
    pub(super) is_async: bool,
    pub(super) generator: bool,
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
    /// Whether the next function body compiled is async and/or a generator.
    next_kind: FnKind,
    /// The `for…of` being compiled is a `for await`.
    await_loop: bool,
    /// The instance elements the class constructor being compiled initializes.
    fields: Option<Vec<classes::Elem<'b, 'a>>>,
    /// The class being compiled extends another.
    derived: bool,
    /// The instance elements of the derived class constructor being compiled, defined after
    /// `super(...)`.
    derived_fields: Option<Vec<classes::Elem<'b, 'a>>>,
    /// The private names of the classes being compiled, innermost last: (`#x`, the class-name
    /// constant for methods and accessors, `u32::MAX` for fields).
    privates: Vec<Vec<(String, u32)>>,
    /// Compiling a class field initializer or static block (`arguments` is an early error).
    in_initializer: bool,
    /// The next function body compiled is a static block's.
    static_block_next: bool,
    /// How V8 names the value of the next top-level object pattern (see [`patterns::Site`]).
    pattern_site: patterns::Site,
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
            Op::ArraySpread(a, b, _) => Op::ArraySpread(a, b, target),
            Op::DelegateResult(a, b, c, _) => Op::DelegateResult(a, b, c, target),
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
        if let Some(b) = self.f().scopes.last().and_then(|s| s.get(name)) {
            return Ok(b);
        }
        let st = if self.f().captured.contains(name) {
            let f = self.f();
            let slot = f.proto.ncells;
            f.proto.ncells += 1;
            Storage::Cell(slot)
        } else {
            Storage::Reg(self.alloc(span)?)
        };
        let b = Binding {
            st,
            lexical,
            konst,
            init: false,
        };
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
            if let Some(b) = scope.get(name) {
                return Some(b);
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
            init: false,
            ..outer
        })
    }

    fn push_scope(&mut self) {
        self.f().scopes.push(Scope::default());
    }

    fn pop_scope(&mut self, mark: u32) {
        self.f().scopes.pop();
        self.release(mark);
    }

    /// Read a binding into `dst`.
    fn load_binding(&mut self, b: Binding, name: &str, dst: Reg, span: Span) {
        let check = (b.lexical && !b.init).then(|| self.string(name));
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
                if b.lexical && !b.init {
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
                Statement::TSEnumDeclaration(e) if !e.declare => {
                    let b = self.declare(e.id.name.as_str(), true, false, e.id.span)?;
                    self.init_empty(b, e.id.span);
                }
                Statement::ImportDeclaration(i) if !i.import_kind.is_type() => {
                    for s in i.specifiers.iter().flatten() {
                        if let ImportDeclarationSpecifier::ImportSpecifier(s) = s
                            && s.import_kind.is_type()
                        {
                            continue;
                        }
                        let id = s.local();
                        let b = self.declare(id.name.as_str(), true, true, id.span)?;
                        self.init_empty(b, id.span);
                    }
                }
                Statement::TSImportEqualsDeclaration(i) if !i.import_kind.is_type() => {
                    let b = self.declare(i.id.name.as_str(), true, true, i.id.span)?;
                    self.init_empty(b, i.id.span);
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
            scopes: vec![Scope::default()],
            next_reg: 1,
            max_reg: 1,
            captured: self.captures.remove(&key).unwrap_or_default(),
            jumps: Vec::new(),
            pending_labels: Vec::new(),
            chains: Vec::new(),
            derived_ctor: false,
            kind: FnKind::default(),
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
        self.imports(&p.body)?;
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
        proto.uses_args = uses_args(&proto.code);
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
                    init: false,
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
                    init: false,
                },
            ));
        }
        Ok(())
    }

    /// Compile a function into a new prototype and emit its closure into `dst`.
    fn function(&mut self, func: &'b Function<'a>, dst: Reg, name: &str) -> R<()> {
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
        self.next_kind = FnKind {
            is_async: func.r#async,
            generator: func.generator,
        };
        let idx = self.function_body(
            func.span,
            name,
            Some(&func.params),
            &body.statements,
            None,
            false,
            !func.r#async && !func.generator,
        )?;
        self.emit(Op::Closure(dst, idx), func.span);
        Ok(())
    }

    fn arrow(&mut self, a: &'b ArrowFunctionExpression<'a>, dst: Reg, name: &str) -> R<()> {
        self.next_kind = FnKind {
            is_async: a.r#async,
            generator: false,
        };
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
        let saved_init = self.in_initializer;
        if !arrow {
            self.in_initializer = std::mem::take(&mut self.static_block_next);
        }
        self.enter(span)?;
        let saved_ctx = std::mem::take(&mut self.ctx);
        let idx = self.data.funcs.len() as u32;
        self.data.funcs.push(FuncProto::default());
        let mut st = self.new_fn(span.start, name);
        st.kind = std::mem::take(&mut self.next_kind);
        // Field initializers are compiled into the constructor: their nested functions'
        // captures are the constructor's.
        for e in fields.iter().flatten() {
            if let classes::Elem::Field(p, _) = e
                && let Some(c) = self.captures.remove(&p.span.start)
            {
                st.captured.extend(c);
            }
        }
        let kind = st.kind;
        self.fns.push(st);
        if kind.is_async && !kind.generator {
            // The promise exists before the parameters are bound: their errors reject it.
            self.emit(Op::AsyncStart, span);
        }
        let derived = std::mem::take(&mut self.derived);
        let derived_ctor = fields.is_some() && derived;
        if derived_ctor {
            // `this` is unbound until `super(...)` returns.
            self.emit(Op::LoadEmpty(0), span);
        }
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
        if derived_ctor {
            self.f().derived_ctor = true;
            if let Some(b) = self.f().scopes[0].names.get_mut("this") {
                b.lexical = true;
            }
            let b = self.declare("%ctor", false, true, span)?;
            let r = self.alloc(span)?;
            self.emit(Op::Callee(r), span);
            self.store_binding(b, r, span);
        }
        if !arrow
            && (derived_ctor
                || self.f().captured.contains("new.target")
                || self.f().captured.contains("#direct:new.target"))
        {
            let b = self.declare("new.target", false, true, span)?;
            let r = self.alloc(span)?;
            self.emit(Op::NewTarget(r), span);
            self.store_binding(b, r, span);
        }
        if let Some(n) = self_name {
            let b = self.declare(&n, false, false, span)?;
            let r = self.alloc(span)?;
            self.emit(Op::Callee(r), span);
            self.store_binding(b, r, span);
        }
        {
            let builtin = self.data.builtin;
            let f = self.f();
            f.proto.nparams = n as u16;
            f.proto.length = simple_len as u16;
            f.proto.arrow = arrow;
            f.proto.constructible = constructible && !builtin;
        }
        if !arrow && direct_args && self.resolve_local_only("arguments").is_none() {
            let b = self.declare("arguments", false, false, span)?;
            let r = self.alloc(span)?;
            self.emit(Op::Arguments(r), span);
            self.store_binding(b, r, span);
        }
        // Every parameter name is declared before any is bound: a name inside a pattern
        // would otherwise take a register the pattern's temporaries release.
        let mut names = Vec::new();
        for p in items {
            pattern_names(&p.pattern, &mut names);
        }
        if let Some(rest) = params.and_then(|p| p.rest.as_ref()) {
            pattern_names(&rest.rest.argument, &mut names);
        }
        // A plain parameter that no closure captures lives in the register its argument
        // arrives in (no copy on entry).
        for (i, p) in items.iter().enumerate() {
            if p.initializer.is_none()
                && let BindingPattern::BindingIdentifier(id) = &p.pattern
                && !self.f().captured.contains(id.name.as_str())
                && let Some(scope) = self.f().scopes.last_mut()
                && scope.get(id.name.as_str()).is_none()
            {
                scope.push((
                    id.name.to_string(),
                    Binding {
                        st: Storage::Reg(param_regs[i]),
                        lexical: false,
                        konst: false,
                        init: false,
                    },
                ));
            }
        }
        for (name, at) in names {
            self.declare(&name, false, false, at)?;
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
            self.bind_top(&p.pattern, r, Decl::Param, patterns::Site::Value)?;
        }
        if let Some(rest) = params.and_then(|p| p.rest.as_ref()) {
            let r = self.alloc(span)?;
            self.emit(Op::Rest(r, n as u16), rest.span);
            self.bind_pattern(&rest.rest.argument, r, Decl::Param)?;
        }
        // Arrows keep the enclosing constructor's elements (`super()` may be in one).
        let saved_fields = if arrow {
            self.derived_fields.clone()
        } else {
            self.derived_fields.take()
        };
        if let Some(fs) = fields {
            self.f().proto.class_ctor = true;
            self.f().proto.derived = derived;
            if derived {
                // Fields are defined when super() returns.
                self.derived_fields = Some(fs);
                if params.is_none() {
                    // The implicit `constructor(...args) { super(...args) }`.
                    let a = self.alloc(span)?;
                    self.emit(Op::Rest(a, 0), span);
                    let r = self.alloc(span)?;
                    self.super_call(r, Args::Array(a), span)?;
                }
            } else {
                self.field_inits(fs, span)?;
            }
        }
        if kind.generator {
            // The generator object is made once the parameters are bound; the body starts
            // at its first `next()`.
            self.emit(Op::GenStart(kind.is_async), span);
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
            self.emit_return(u, span)?;
        }
        let f = self.fns.pop().expect("function");
        let mut proto = f.proto;
        proto.nregs = f.max_reg as u16 + 1;
        proto.uses_args = uses_args(&proto.code);
        proto.is_async = f.kind.is_async;
        proto.generator = f.kind.generator;
        self.data.funcs[idx as usize] = proto;
        self.ctx = saved_ctx;
        self.derived_fields = saved_fields;
        self.in_initializer = saved_init;
        self.leave();
        Ok(idx)
    }

    /// `return` of the value in `v`: in a derived constructor through `ReturnDerived`.
    fn emit_return(&mut self, v: Reg, span: Span) -> R<()> {
        if self.f().derived_ctor
            && let Some((_, t)) = self.this_unchecked(span)?
        {
            self.emit(Op::ReturnDerived(v, t), span);
            return Ok(());
        }
        self.emit(Op::Return(v), span);
        Ok(())
    }

    /// The declaration of lexical `name` of this function has just stored its value: later
    /// reads in this function need no TDZ check (see [`Binding::init`]).
    fn mark_initialized(&mut self, name: &str) {
        let Some(f) = self.fns.last_mut() else {
            return;
        };
        if let Some(scope) = f
            .scopes
            .iter_mut()
            .rev()
            .find(|s| s.names.contains_key(name))
            && !scope.switch
            && let Some(b) = scope.names.get_mut(name)
        {
            b.init = true;
        }
    }

    /// The register holding `e` when `e` is a local read that needs no instruction (no TDZ
    /// check, not a cell): operands can name it directly instead of a copy.
    fn direct_reg(&mut self, e: &Expression<'a>) -> Option<Reg> {
        let Expression::Identifier(id) = e.without_parentheses() else {
            return None;
        };
        self.local_reg(id.name.as_str(), false)
    }

    /// The register of local `name` when reading it (and with `write`, assigning it) needs no
    /// instruction of its own: a register binding past its TDZ (and, to write, not `const`).
    fn local_reg(&mut self, name: &str, write: bool) -> Option<Reg> {
        if name == "arguments" {
            return None;
        }
        match self.resolve(name)? {
            Binding {
                st: Storage::Reg(r),
                lexical,
                init,
                konst,
            } if (!lexical || init) && !(write && konst) => Some(r),
            _ => None,
        }
    }

    fn resolve_local_only(&self, name: &str) -> Option<Binding> {
        let f = self.fns.last()?;
        f.scopes.iter().rev().find_map(|s| s.get(name))
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
    /// `obj.#x`: obj, private name, class-name constant of the brand check.
    Private(Reg, Reg, u32),
    /// `super[key]`: home object, key, this.
    Super(Reg, Reg, Reg),
}

/// Whether a function's code reads its arguments as passed (see `FuncProto::uses_args`).
fn uses_args(code: &[Op]) -> bool {
    code.iter()
        .any(|op| matches!(op, Op::Arguments(_) | Op::Rest(..)))
}
