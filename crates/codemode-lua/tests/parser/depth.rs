//! The depth guard: nesting bounds and their messages.

use super::reference::block_height;
use super::*;

// ----- depth guard -------------------------------------------------------------------------------

const HUGE: usize = 100_000;

fn assert_too_deep(src: &str, what: &str) {
    match parse(src) {
        Ok(_) => panic!("{what}: expected a nesting error"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::ParseError, "{what}");
            assert!(
                e.message.starts_with(&format!(
                    "expression/block nesting too deep (limit {MAX_SYNTAX_DEPTH}); flatten the program"
                )),
                "{what}: {}",
                e.message
            );
            assert!(e.location.is_some(), "{what}");
        }
    }
}

/// Each shape with 100,000 levels returns a ParseError (on the default 2 MB test thread, and
/// again on a 1 MB thread).
#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let n = HUGE;
    let shapes: Vec<(&str, String)> = vec![
        ("parens", format!("x = {}1{}", "(".repeat(n), ")".repeat(n))),
        ("unclosed parens", format!("x = {}", "(".repeat(n))),
        ("tables", format!("x = {}{}", "{".repeat(n), "}".repeat(n))),
        (
            "index brackets",
            format!("x = {}1{}", "a[".repeat(n), "]".repeat(n)),
        ),
        (
            "functions",
            format!("x = {}{}", "function() return ".repeat(n), " end".repeat(n)),
        ),
        (
            "function statements",
            format!("{}{}", "function f() ".repeat(n), "end ".repeat(n)),
        ),
        (
            "do blocks",
            format!("{}{}", "do ".repeat(n), "end ".repeat(n)),
        ),
        ("while blocks", "while x do ".repeat(n)),
        ("if blocks", "if x then ".repeat(n)),
        ("repeat blocks", "repeat ".repeat(n)),
        ("for blocks", "for i = 1, 2 do ".repeat(n)),
        ("unary minus", format!("x = {}1", "- ".repeat(n))),
        ("unary not", format!("x = {}1", "not ".repeat(n))),
        ("unary mixed", format!("x = {}1", "-#~".repeat(n))),
        ("field chain", format!("x = a{}", ".b".repeat(n))),
        ("field chain statement", format!("a{} = 1", ".b".repeat(n))),
        ("method chain", format!("x = a{}", ":m()".repeat(n))),
        ("call chain", format!("f{}", "()".repeat(n))),
        ("string call chain", format!("f{}", "'x'".repeat(n))),
        ("power chain", format!("x = 2{}", " ^ 2".repeat(n))),
        (
            "power chain inside a sum",
            format!("x = 1 + 2{} + 1", " ^ 2".repeat(n)),
        ),
        (
            "nested calls",
            format!("x = {}1{}", "f(".repeat(n), ")".repeat(n)),
        ),
        (
            "nested table fields",
            format!("x = {}1{}", "{a = ".repeat(n), "}".repeat(n)),
        ),
        (
            "nested keyed fields",
            format!("x = {}1{}", "{[".repeat(n), "] = 1}".repeat(n)),
        ),
        (
            "paren and power",
            format!("x = {}2{}", "(2 ^ ".repeat(n), ")".repeat(n)),
        ),
        (
            "local function bodies",
            format!("{}{}", "local function f() ".repeat(n), "end ".repeat(n)),
        ),
        (
            "return tables",
            format!("return {}{}", "{".repeat(n), "}".repeat(n)),
        ),
        ("parenthesized sums", {
            let mut s = String::from("x = ");
            for _ in 0..n / 20 {
                s.push('(');
            }
            s.push('1');
            for _ in 0..n / 20 {
                s.push_str(" + 1 + 1 + 1)");
            }
            s
        }),
    ];
    for (what, src) in &shapes {
        assert_too_deep(src, what);
    }
    // Headroom: the same inputs also fit in half of a default thread stack.
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            for (what, src) in &shapes {
                assert_too_deep(src, what);
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Moderate nesting (well inside the limit) parses fine.
#[test]
fn nesting_within_the_limit_parses() {
    let n = 50;
    let ok_shapes = [
        format!("x = {}1{}", "(".repeat(n), ")".repeat(n)),
        format!("x = {}{}", "{".repeat(n), "}".repeat(n)),
        format!("{}{}", "do ".repeat(n), "end ".repeat(n)),
        format!("x = {}1", "- ".repeat(n)),
        format!("x = a{}", ".b".repeat(n)),
        format!("x = a{}", " .. a".repeat(n)),
        format!("x = 1{}", " + 1".repeat(n)),
        format!(
            "x = {}{}",
            "function() return ".repeat(n / 3),
            " end".repeat(n / 3)
        ),
    ];
    for src in &ok_shapes {
        assert!(parse(src).is_ok(), "{src}");
    }
    // Long flat constructs are not nesting.
    let many_fields = format!("x = {{{}}}", "1, ".repeat(HUGE));
    assert!(parse(&many_fields).is_ok());
    let many_stmts = "x = x + 1\n".repeat(HUGE);
    assert!(parse(&many_stmts).is_ok());
    let many_elseif = format!("if a then {} end", "elseif b then ".repeat(10_000));
    assert!(parse(&many_elseif).is_ok());
    let many_args = format!("f({}1)", "1, ".repeat(10_000));
    assert!(parse(&many_args).is_ok());
}

/// Runs of binary operators are collected in a loop into one flat node: 100,000-term chains of
/// every left-associative operator kind (and of `..`) parse into an AST a few levels high, on a
/// 256 KiB thread (no recursion per term, neither when parsing nor when dropping the AST).
#[test]
fn long_operator_chains_are_flat() {
    let n = HUGE;
    let shapes: Vec<(&str, String)> = vec![
        ("plus", format!("return 1{}", " + 1".repeat(n))),
        (
            "mixed arithmetic",
            format!("return 1{}", " + 2 * 3 - 4 // 5".repeat(n / 4)),
        ),
        ("and/or", format!("return a{}", " and b or c".repeat(n / 2))),
        ("comparison", format!("return a{}", " < b".repeat(n))),
        (
            "bitwise",
            format!("return a{}", " | b & c ~ d << 1 >> 2".repeat(n / 5)),
        ),
        ("concat", format!("return a{}", " .. a".repeat(n))),
        (
            "concat and arithmetic",
            format!("return a{}", " .. a + 1".repeat(n / 2)),
        ),
        (
            "everything",
            format!(
                "return x{}",
                " .. 1 + 2 * 3 < 4 == y and z or w".repeat(n / 10)
            ),
        ),
        ("statement", format!("x = x{}", " - 1".repeat(n))),
        (
            "condition",
            format!("if 1{} then end", " < 2 == true".repeat(n / 2)),
        ),
    ];
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let mut heights = Vec::new();
            for (what, src) in &shapes {
                let b = parse(src).unwrap_or_else(|e| panic!("{what}: {e:?}"));
                heights.push((*what, block_height(&b)));
            }
            heights
        })
        .unwrap();
    for (what, h) in handle.join().expect("no stack overflow") {
        assert!(h <= 8, "{what}: height {h}");
    }
}

/// The flat nodes: one operator is a `Binop`; two or more in one run are a `Chain` (positioned
/// at its last operator, each link at its own); a `..` run after its first operator is a
/// `Concat` list (positioned at its second `..`).
#[test]
fn chain_and_concat_nodes() {
    //       123456789012345678901234
    let b = ok("return a + b * c - d < e");
    let e = &b.ret.unwrap().exprs[0];
    assert_eq!(e.pos, pos(1, 22));
    match &e.kind {
        ExprKind::Chain(first, links) => {
            assert_eq!(sx(first), "a");
            let ops: Vec<(BinOp, Pos, String)> =
                links.iter().map(|l| (l.op, l.pos, sx(&l.rhs))).collect();
            assert_eq!(
                ops,
                vec![
                    (BinOp::Add, pos(1, 10), "(* b c)".to_string()),
                    (BinOp::Sub, pos(1, 18), "d".to_string()),
                    (BinOp::Lt, pos(1, 22), "e".to_string()),
                ]
            );
        }
        other => panic!("{other:?}"),
    }
    //       1234567890123456789
    let b = ok("return a .. b .. c .. d");
    let e = &b.ret.unwrap().exprs[0];
    assert_eq!(e.pos, pos(1, 10));
    match &e.kind {
        ExprKind::Binop(BinOp::Concat, a, rest) => {
            assert_eq!(sx(a), "a");
            // The run's last `..` (where lua5.4 reports a failed concatenation).
            assert_eq!(rest.pos, pos(1, 20));
            match &rest.kind {
                ExprKind::Concat(parts) => {
                    let p: Vec<String> = parts.iter().map(sx).collect();
                    assert_eq!(p, ["b", "c", "d"]);
                }
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
    // Evaluation order of the equivalent trees.
    assert_eq!(ex("1 + 2 - 3 + 4"), "(+ (- (+ 1 2) 3) 4)");
    assert_eq!(ex("a .. b .. c .. d"), "(.. a (.. b (.. c d)))");
    assert_eq!(
        ex("a + b .. c * d .. e == f and g or h"),
        "(or (and (== (.. (+ a b) (.. (* c d) e)) f) g) h)"
    );
    assert_eq!(ex("a or b and c or d"), "(or (or a (and b c)) d)");
    assert_eq!(ex("x < y == true ~= false"), "(~= (== (< x y) true) false)");
    assert_eq!(ex("2 ^ 3 ^ 2 + 1 + 1"), "(+ (+ (^ 2 (^ 3 2)) 1) 1)");
}

fn expr_height(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Binop(_, a, b) | ExprKind::Index(a, b) => expr_height(a).max(expr_height(b)),
        ExprKind::Chain(first, links) => links
            .iter()
            .map(|l| expr_height(&l.rhs))
            .fold(expr_height(first), usize::max),
        ExprKind::Concat(parts) => parts.iter().map(expr_height).max().unwrap_or(0),
        ExprKind::Unop(_, a) | ExprKind::Paren(a) => expr_height(a),
        ExprKind::Call(f, args) | ExprKind::MethodCall(f, _, args) => args
            .iter()
            .map(expr_height)
            .max()
            .unwrap_or(0)
            .max(expr_height(f)),
        ExprKind::Table(fields) => fields
            .iter()
            .map(|f| match f {
                TableField::Positional(v) | TableField::Named(_, v) => expr_height(v),
                TableField::Keyed(k, v) => expr_height(k).max(expr_height(v)),
            })
            .max()
            .unwrap_or(0),
        _ => 0,
    }
}

/// The AST height stays within the limit even for shapes that mix iterative and recursive
/// nesting (left-associative chains inside parentheses), so later recursive walks are bounded.
#[test]
fn ast_height_is_bounded() {
    let mut worst = 0;
    for parens in [1usize, 5, 10, 20, 50, 100] {
        for ops in [1usize, 5, 10, 20, 50, 100, 199] {
            let mut s = String::from("return ");
            s.push_str(&"(".repeat(parens));
            s.push('1');
            for _ in 0..parens {
                s.push_str(&" + 1".repeat(ops));
                s.push(')');
            }
            if let Ok(b) = parse(&s) {
                let h = expr_height(&b.ret.unwrap().exprs[0]);
                worst = worst.max(h);
                assert!(
                    h <= MAX_SYNTAX_DEPTH as usize + 2,
                    "height {h} for {parens}x{ops}"
                );
            }
        }
    }
    assert!(
        worst > 100,
        "some shapes should get close to the limit (worst {worst})"
    );
}
