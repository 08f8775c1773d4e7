//! Early errors: the checks ECMAScript makes before a program runs, mapped to located
//! ParseErrors a model can act on.
//!
//! oxc's parser reports the grammar; `oxc_semantic`'s `SemanticBuilder` (with syntax-error
//! checking on) reports the static semantics the grammar leaves out (ECMA-262 "Static
//! Semantics: Early Errors"): duplicate lexical declarations and `let` redeclaring a `var`,
//! undefined or duplicate labels, `break`/`continue` without a target, invalid assignment
//! targets, the strict-mode restrictions (`eval`/`arguments` as binding names, legacy octal
//! literals and escapes, `delete` of an identifier), duplicate `__proto__` in an object
//! literal, regular-expression flags, and more. Both walk the tree recursively, so they run
//! where the compiler does: on the large stack of its own thread for deep sources
//! (`lib.rs`).
//!
//! The location is the diagnostic's primary label, else the label of the repeated
//! declaration ("redeclared here"), else the first label: the place to change. The message
//! is oxc's, with its help, and the other labels with their positions.

use codemode_guest::GuestError;
use oxc_allocator::Allocator;
use oxc_ast::ast::{Directive, Program};
use oxc_diagnostics::OxcDiagnostic;

use crate::scan::{location, parse_error};

/// Run the early-error checks over `program` (parsed from `source` into `alloc`); the first
/// error as a located ParseError. The program is a script (an async function body, not a
/// module: top-level functions stay var-scoped) in strict mode, so a `"use strict"` directive
/// is added to it first when it has none. Unless it declares TypeScript names
/// (`ts_declarations`: interfaces, overloads, type parameters ...), it is checked as
/// JavaScript: TypeScript's rules differ (`var f; function f() {}` and duplicate class
/// members are errors there, not in JavaScript). A `with` statement is left to the compiler,
/// which names it UnsupportedSyntax with what to write instead.
pub fn check<'a>(
    source: &str,
    alloc: &'a Allocator,
    program: &mut Program<'a>,
    ts_declarations: bool,
) -> Result<(), GuestError> {
    if !program.has_use_strict_directive() {
        let b = oxc_ast::builder::AstBuilder::new(alloc);
        program.directives.push(Directive::new_use_strict(&b));
    }
    if !ts_declarations {
        // The compiler does not read the source type.
        program.source_type = program.source_type.with_javascript(true);
    }
    let ret = oxc_semantic::SemanticBuilder::new()
        .with_check_syntax_error(true)
        .build(program);
    match ret
        .diagnostics
        .iter()
        .find(|d| d.message != "'with' statements are not allowed")
    {
        Some(d) => Err(diagnostic(source, d)),
        None => Ok(()),
    }
}

/// An oxc diagnostic (parser or semantic) as a ParseError located at the place to change.
pub fn diagnostic(source: &str, d: &OxcDiagnostic) -> GuestError {
    let labels = &d.labels[..];
    let main = labels
        .iter()
        .position(|l| l.primary())
        .or_else(|| {
            labels
                .iter()
                .position(|l| l.label().is_some_and(|t| t.contains("redeclared here")))
        })
        .unwrap_or(0);
    let mut message = d.message.to_string();
    for (i, l) in labels.iter().enumerate() {
        if i == main {
            continue;
        }
        if let Some(text) = l.label() {
            let at = location(source, l.offset() as usize);
            message.push_str(&format!(" ({text}: {}:{})", at.line, at.column));
        }
    }
    if let Some(help) = &d.help {
        if !message.ends_with('.') {
            message.push('.');
        }
        message.push(' ');
        message.push_str(help);
    }
    let offset = labels.get(main).map_or(0, |l| l.offset() as usize);
    if let Some(h) = crate::hints::lua_habit(source, offset) {
        if !message.ends_with('.') {
            message.push('.');
        }
        message.push(' ');
        message.push_str(h);
    }
    parse_error(source, offset, message)
}

#[cfg(test)]
mod tests {
    use codemode_guest::{ErrorKind, Location};

    use super::*;

    /// The ParseError `compile` gives for `src`.
    fn early(src: &str) -> GuestError {
        match crate::compile(src) {
            Err(e) => e,
            Ok(_) => panic!("{src}: compiled"),
        }
    }

    fn at(e: &GuestError) -> (u32, u32) {
        let Location { line, column } = e.location.expect("located");
        (line, column)
    }

    #[test]
    fn redeclarations_point_at_the_second_declaration() {
        let e = early("let total = 1;\nconst total = 2;\nreturn total");
        assert_eq!(e.kind, ErrorKind::ParseError);
        assert_eq!(at(&e), (2, 7), "{}", e.message);
        assert!(
            e.message.contains("`total` has already been declared"),
            "{}",
            e.message
        );
        assert!(e.message.contains("1:5"), "{}", e.message);
        let e = early("var x = 1;\nlet x = 2;");
        assert_eq!(at(&e), (2, 5), "{}", e.message);
        let e = early("{ let a; { var a; } }");
        assert_eq!(e.kind, ErrorKind::ParseError, "{}", e.message);
    }

    #[test]
    fn labels_and_jump_targets() {
        let e = early("for (;;) { continue outer; }");
        assert_eq!(e.kind, ErrorKind::ParseError);
        assert_eq!(at(&e), (1, 21), "{}", e.message);
        let e = early("a: a: ;");
        assert!(
            e.message.contains("Label `a` has already been declared"),
            "{}",
            e.message
        );
        assert_eq!(at(&e), (1, 4));
        let e = early("x: { continue x; }");
        assert_eq!(e.kind, ErrorKind::ParseError, "{}", e.message);
        let e = early("if (a) break;");
        assert!(e.message.contains("break"), "{}", e.message);
    }

    #[test]
    fn strict_mode_restrictions() {
        for src in [
            "let arguments = 1;",
            "function f(eval) {}",
            "var x = 010;",
            "var s = '\\07';",
            "var x; delete x;",
            "eval = 1;",
            "({ __proto__: 1, __proto__: 2 })",
            "new.target",
            "1 = 2",
            "function f(a, a) {}",
        ] {
            let e = early(src);
            assert_eq!(e.kind, ErrorKind::ParseError, "{src}: {}", e.message);
            assert!(e.location.is_some(), "{src}");
        }
    }

    #[test]
    fn columns_are_utf16_units() {
        // The emoji before the redeclaration is two UTF-16 units.
        let e = early("let a = '\u{1F600}'; let a = 1;");
        assert_eq!(at(&e), (1, 19), "{}", e.message);
    }

    #[test]
    fn valid_programs_still_compile() {
        for src in [
            "var a = 1; var a = 2; return a",
            "function f() {} function f() {} return 1",
            "outer: for (const x of [1]) { for (;;) { continue outer; } } return 1",
            "const x: number = 1; interface I { a: string } return x",
            "const o = { __proto__: null, ['__proto__']: 1, __proto__() {} }; return 1",
            "var f; function f() {} return typeof f",
            "class C { get b() { return 1 } get ['b']() { return 2 } } return new C().b",
            "function id<T>(x: T): T { return x } return id(1)",
            "function f(a: number): number; function f(a: any) { return a } return f(1)",
            "{ function g() {} } return 1",
        ] {
            if let Err(e) = crate::compile(src) {
                panic!("{src}: {e:?}");
            }
        }
        // Top-level `await` passes the early errors.
        if let Err(e) = crate::compile("const r = await 1; return r") {
            panic!("top-level await: {e:?}");
        }
    }

    #[test]
    fn short_deep_chains_check_on_a_small_stack() {
        // Sources under LARGE_SOURCE_BYTES with nesting the pre-scan does not count compile
        // on the caller's stack: the early-error walk must fit there too (1 MiB here, less
        // than any thread a host gives).
        let fill = |unit: &str, tail: &str| {
            let n = (crate::scan::LARGE_SOURCE_BYTES - 16) / unit.len();
            format!("return {}{tail}", unit.repeat(n))
        };
        let sources = [
            fill("a+", "a"),
            fill("a**", "a"),
            fill("a||", "a"),
            fill("a??", "a"),
            fill("l:", "1"),
            fill("a,", "a"),
        ];
        std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(move || {
                for src in &sources {
                    assert!(src.len() <= crate::scan::LARGE_SOURCE_BYTES);
                    let r = crate::compile(src);
                    assert!(
                        r.as_ref()
                            .map_or_else(|e| e.kind != ErrorKind::ExecutionFailure, |_| true),
                        "{r:?}"
                    );
                }
            })
            .unwrap()
            .join()
            .unwrap();
    }
}
