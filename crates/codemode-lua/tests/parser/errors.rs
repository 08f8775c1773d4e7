//! Parse errors: messages and positions a model reads.

use super::*;

// ----- errors ------------------------------------------------------------------------------------

#[test]
fn error_messages_and_locations() {
    let cases: &[(&str, &str, u32, u32)] = &[
        ("x = = 1", "unexpected symbol near '='", 1, 5),
        ("f(}", "unexpected symbol near '}'", 1, 3),
        ("x = 1 +", "unexpected symbol near <eof>", 1, 8),
        ("a, b c", "'=' expected near 'c'", 1, 6),
        (
            "local function f()\n  return 1\n\nx",
            "'end' expected (to close 'function' at line 1) near 'x'; `return` must be the last statement of a block (use `do return end` to return early)",
            4,
            1,
        ),
        ("function f() x = 1", "'end' expected near <eof>", 1, 19),
        (
            "if x then\n f()\n",
            "'end' expected (to close 'if' at line 1) near <eof>",
            3,
            1,
        ),
        ("while x do", "'end' expected near <eof>", 1, 11),
        (
            "for i = 1, 2 do\n",
            "'end' expected (to close 'for' at line 1) near <eof>",
            2,
            1,
        ),
        (
            "do\n",
            "'end' expected (to close 'do' at line 1) near <eof>",
            2,
            1,
        ),
        (
            "repeat\n x = 1\n",
            "'until' expected (to close 'repeat' at line 1) near <eof>",
            3,
            1,
        ),
        (
            "f(1, 2\n",
            "')' expected (to close '(' at line 1) near <eof>",
            2,
            1,
        ),
        ("x = (1", "')' expected near <eof>", 1, 7),
        (
            "x = {1, 2\ny = 3",
            "'}' expected (to close '{' at line 1) near 'y'",
            2,
            1,
        ),
        ("x = t[1", "']' expected near <eof>", 1, 8),
        ("if x f() end", "'then' expected near 'f'", 1, 6),
        ("while x f() end", "'do' expected near 'f'", 1, 9),
        ("for i in x f() end", "'do' expected near 'f'", 1, 12),
        ("for i, 2 in x do end", "<name> expected near '2'", 1, 8),
        ("local 1 = 2", "<name> expected near '1'", 1, 7),
        (
            "function f(a,) end",
            "<name> or '...' expected near ')'",
            1,
            14,
        ),
        ("function f(a b) end", "')' expected near 'b'", 1, 14),
        ("function f end", "'(' expected near 'end'", 1, 12),
        ("x = o:m", "function arguments expected near <eof>", 1, 8),
        (
            "x.y",
            "syntax error near <eof>; a statement must be an assignment or a function call; to return a value write `return x.y`",
            1,
            4,
        ),
        (
            "x",
            "syntax error near <eof>; a statement must be an assignment or a function call; to return a value write `return x`",
            1,
            2,
        ),
        (
            "f() = 1",
            "syntax error near '='; only variables, fields and indexed elements can be assigned to",
            1,
            5,
        ),
        (
            "(a) = 1",
            "syntax error near '='; only variables, fields and indexed elements can be assigned to",
            1,
            5,
        ),
        (
            "x, f() = 1, 2",
            "syntax error near '='; only variables, fields and indexed elements can be assigned to",
            1,
            8,
        ),
        ("end", "<eof> expected near 'end'", 1, 1),
        ("x = 1 until", "<eof> expected near 'until'", 1, 7),
        ("::a", "'::' expected near <eof>", 1, 4),
        ("goto 1", "<name> expected near '1'", 1, 6),
        (
            "x = function() return ... end",
            "cannot use '...' outside a vararg function near '...'; declare the function as `function(...)` to accept varargs",
            1,
            23,
        ),
        (
            "local x <foo> = 1",
            "unknown attribute 'foo'; the only supported attribute is <const>",
            1,
            10,
        ),
        ("local x <const = 1", "'>' expected near '='", 1, 16),
        (
            "x = 'abc",
            "unfinished string near <eof>; close it with '",
            1,
            5,
        ),
        ("x = 3x", "malformed number near '3x'", 1, 5),
        ("x = {[1] 2}", "'=' expected near '2'", 1, 10),
    ];
    for &(src, msg, line, col) in cases {
        assert_eq!(err_at(src), (msg.to_string(), line, col), "{src:?}");
    }
}

#[test]
fn close_attribute_is_unsupported_syntax() {
    // Valid Lua 5.4 outside the subset: UnsupportedSyntax (README kinds table), not ParseError.
    let e = parse("local f <close> = io").expect_err("<close> must be refused");
    assert_eq!(e.kind, ErrorKind::UnsupportedSyntax);
    assert_eq!(
        e.message,
        "to-be-closed variables (<close>) are not supported; close resources explicitly when you \
         are done with them"
    );
    let loc = e.location.expect("location");
    assert_eq!((loc.line, loc.column), (1, 10));
}

#[test]
fn return_must_be_last() {
    assert_eq!(
        err_msg("return 1\nx = 2"),
        "<eof> expected near 'x'; `return` must be the last statement of a block (use `do \
         return end` to return early)"
    );
    assert_eq!(
        err_msg("function f()\n return\n local y = 1\nend"),
        "unexpected symbol near 'local'; `return` must be the last \
         statement of a block (use `do return end` to return early)"
    );
    // The hint is only given right after a return.
    assert_eq!(err_msg("x = 1 end"), "<eof> expected near 'end'");
}

#[test]
fn javascript_hints() {
    let cases = [
        (
            "if a != b then end",
            "unexpected symbol near '!='; use ~= for inequality in Lua",
        ),
        (
            "if !a then end",
            "unexpected symbol near '!'; use `not x` for negation in Lua",
        ),
        (
            "x = a && b",
            "unexpected symbol near '&&'; use `and` instead of && in Lua",
        ),
        (
            "x = a || b",
            "unexpected symbol near '||'; use `or` instead of || in Lua",
        ),
        (
            "x += 1",
            "unexpected symbol near '+='; Lua has no compound assignment; write `x = x + 1`",
        ),
        (
            "x = `a ${b}`",
            "unexpected symbol near '`'; Lua has no template strings; use .. or string.format",
        ),
        (
            "const x = 1",
            "syntax error near 'x'; declare variables with `local` (e.g. `local x = 1`)",
        ),
        (
            "let x = 1",
            "syntax error near 'x'; declare variables with `local` (e.g. `local x = 1`)",
        ),
        (
            "var x = 1",
            "syntax error near 'x'; declare variables with `local` (e.g. `local x = 1`)",
        ),
        (
            "x = {a: 1}",
            "<name> expected near '1'; use `key = value` (or `[\"key\"] = value`) in Lua table constructors",
        ),
        (
            "x = {\"a\": 1}",
            "'}' expected near ':'; use `key = value` (or `[\"key\"] = value`) in Lua table constructors",
        ),
        (
            "if x then { y() }",
            "unexpected symbol near '{'; Lua blocks do not use braces: write `if c then ... end`, `while c do ... end`, `function f() ... end`",
        ),
        (
            "function f() {",
            "unexpected symbol near '{'; Lua blocks do not use braces: write `if c then ... end`, `while c do ... end`, `function f() ... end`",
        ),
        (
            "f() }",
            "unexpected symbol near '}'; Lua blocks do not use braces: write `if c then ... end`, `while c do ... end`, `function f() ... end`",
        ),
        (
            "while x > 0 {",
            "'do' expected near '{'; Lua blocks do not use braces: write `if c then ... end`, `while c do ... end`, `function f() ... end`",
        ),
        (
            "// comment",
            "unexpected symbol near '//'; Lua comments are `-- line` and `--[[ block ]]`",
        ),
        (
            "for (let i = 0; i < n; i++) {",
            "<name> expected near '('; Lua loops are `for i = 1, n do ... end` or `for k, v in pairs(t) do ... end`",
        ),
        (
            "for i = 0; i < n do end",
            "',' expected near ';'; Lua loops are `for i = 1, n do ... end` or `for k, v in pairs(t) do ... end`",
        ),
        (
            "for x of xs do end",
            "'=' or 'in' expected near 'of'; Lua loops are `for i = 1, n do ... end` or `for k, v in pairs(t) do ... end`",
        ),
        (
            "x = a === b",
            "unexpected symbol near '==='; use == for equality in Lua",
        ),
        (
            "f(x => x)",
            "unexpected symbol near '=>'; Lua has no arrow functions; write `function(x) return x end`",
        ),
        (
            "x = a ? b : c",
            "unexpected symbol near '?'; Lua has no ?: or ?? operators; write `cond and a or b`",
        ),
    ];
    for (src, msg) in cases {
        assert_eq!(err_msg(src), msg, "{src}");
    }
    let more = [
        (
            "for i = 1, 3 do if i == 2 then continue end end",
            "syntax error near 'end'; Lua has no `continue`; use `goto continue` and put \
             `::continue::` just before the loop's `end`",
        ),
        (
            "x--\ny = 1",
            "syntax error near 'y'; `--` starts a comment in Lua; write `x = x - 1`",
        ),
        (
            "local x: number = 1",
            "unexpected symbol near ':'; Lua has no type annotations; write `local x = 1`, \
             `function f(a, b)`",
        ),
        (
            "function f(a: string) end",
            "')' expected near ':'; Lua has no type annotations; write `local x = 1`, \
             `function f(a, b)`",
        ),
    ];
    for (src, msg) in more {
        assert_eq!(err_msg(src), msg, "{src}");
    }
    // `//` inside an expression is floor division, valid Lua.
    assert_eq!(chunk("x = a // b"), "[(set x = (// a b))]");
}

#[test]
fn empty_program_is_valid() {
    for src in [
        "",
        "   \n\t ",
        "-- nothing",
        "--[[ a\nb ]]",
        ";",
        "#!/bin/lua",
    ] {
        let b = ok(src);
        assert!(b.stmts.is_empty() && b.ret.is_none(), "{src:?}");
    }
}

#[test]
fn source_size_bound() {
    let big = format!("x = 1{}", " ".repeat(MAX_SOURCE_BYTES));
    let e = parse(&big).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert!(e.message.starts_with("program too large"), "{}", e.message);
    assert!(e.message.contains(&MAX_SOURCE_BYTES.to_string()));
    // Just at the bound is fine.
    let fits = format!("x = 1{}", " ".repeat(MAX_SOURCE_BYTES - 5));
    assert_eq!(fits.len(), MAX_SOURCE_BYTES);
    assert!(parse(&fits).is_ok());
}

#[test]
fn byte_strings_and_invalid_utf8() {
    let b = parse_bytes(b"return '\xff\xfe', [[\x80]] -- \xc3\n").unwrap();
    let r = b.ret.unwrap();
    assert_eq!(r.exprs[0].kind, ExprKind::Str(vec![0xff, 0xfe]));
    assert_eq!(r.exprs[1].kind, ExprKind::Str(vec![0x80]));
    let e = parse_bytes(b"x = \xff").unwrap_err();
    assert!(
        e.message.starts_with("unexpected symbol near '<\\255>'"),
        "{}",
        e.message
    );
    assert_eq!(e.location, Some(Location { line: 1, column: 5 }));
}
