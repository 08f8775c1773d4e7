//! Parser tests: AST shapes (precedence, every statement form), positions, error messages and
//! hints, the depth guard (100,000-level inputs on a normal 2 MB test thread), the size bound,
//! and robustness against random and mutated inputs (no panics).

use codemode_lua::limits::{MAX_SOURCE_BYTES, MAX_SYNTAX_DEPTH};
use codemode_lua::testing::*;
use codemode_lua::{ErrorKind, GuestError, Location};

// ----- helpers -----------------------------------------------------------------------------------

fn binop_sym(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::Mul => "*",
        BinOp::Div => "/",
        BinOp::IDiv => "//",
        BinOp::Mod => "%",
        BinOp::Pow => "^",
        BinOp::Concat => "..",
        BinOp::Eq => "==",
        BinOp::Ne => "~=",
        BinOp::Lt => "<",
        BinOp::Le => "<=",
        BinOp::Gt => ">",
        BinOp::Ge => ">=",
        BinOp::And => "and",
        BinOp::Or => "or",
        BinOp::BAnd => "&",
        BinOp::BOr => "|",
        BinOp::BXor => "~",
        BinOp::Shl => "<<",
        BinOp::Shr => ">>",
    }
}

/// S-expression rendering of an expression (test ASTs are shallow).
fn sx(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Nil => "nil".into(),
        ExprKind::True => "true".into(),
        ExprKind::False => "false".into(),
        ExprKind::Vararg => "...".into(),
        ExprKind::Int(i) => format!("{i}"),
        ExprKind::Float(f) => format!("{f:?}"),
        ExprKind::Str(s) => format!("{:?}", String::from_utf8_lossy(s)),
        ExprKind::Function(f) => format!("(function {})", sx_body(f)),
        ExprKind::Table(fields) => {
            let mut out = "{".to_string();
            for (i, f) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                match f {
                    TableField::Positional(v) => out.push_str(&sx(v)),
                    TableField::Named(n, v) => out.push_str(&format!("{}={}", n.name, sx(v))),
                    TableField::Keyed(k, v) => out.push_str(&format!("[{}]={}", sx(k), sx(v))),
                }
            }
            out.push('}');
            out
        }
        ExprKind::Binop(op, a, b) => format!("({} {} {})", binop_sym(*op), sx(a), sx(b)),
        // Rendered as the equivalent nested trees: chains left-nested, `..` runs right-nested.
        ExprKind::Chain(first, links) => links.iter().fold(sx(first), |acc, l| {
            format!("({} {} {})", binop_sym(l.op), acc, sx(&l.rhs))
        }),
        ExprKind::Concat(parts) => {
            let (last, init) = parts.split_last().expect("two or more operands");
            init.iter()
                .rev()
                .fold(sx(last), |acc, p| format!("(.. {} {})", sx(p), acc))
        }
        ExprKind::Unop(op, a) => {
            let name = match op {
                UnOp::Neg => "neg",
                UnOp::Not => "not",
                UnOp::Len => "len",
                UnOp::BNot => "bnot",
            };
            format!("({name} {})", sx(a))
        }
        ExprKind::Name(n) => n.to_string(),
        ExprKind::Index(o, k) => format!("(index {} {})", sx(o), sx(k)),
        ExprKind::Call(f, args) => format!("(call {}{})", sx(f), sx_list(args, " ")),
        ExprKind::MethodCall(o, m, args) => {
            format!("(method {} {}{})", sx(o), m.name, sx_list(args, " "))
        }
        ExprKind::Paren(e) => format!("(paren {})", sx(e)),
    }
}

fn sx_list(v: &[Expr], lead: &str) -> String {
    v.iter().map(|e| format!("{lead}{}", sx(e))).collect()
}

fn sx_names(v: &[Name]) -> String {
    v.iter()
        .map(|n| n.name.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn sx_body(f: &FuncBody) -> String {
    let mut params = sx_names(&f.params);
    if f.is_vararg {
        if !params.is_empty() {
            params.push(',');
        }
        params.push_str("...");
    }
    format!("({params}) {}", sx_block(&f.body))
}

fn sx_block(b: &Block) -> String {
    let mut parts: Vec<String> = b.stmts.iter().map(sx_stmt).collect();
    if let Some(r) = &b.ret {
        parts.push(format!("(return{})", sx_list(&r.exprs, " ")));
    }
    format!("[{}]", parts.join(" "))
}

fn sx_stmt(s: &Stmt) -> String {
    match s {
        Stmt::Local { names, exprs, .. } => {
            let names: Vec<String> = names
                .iter()
                .map(|n| match n.attrib {
                    Some(Attrib::Const) => format!("{}<const>", n.name.name),
                    None => n.name.name.to_string(),
                })
                .collect();
            format!("(local {}{})", names.join(","), sx_list(exprs, " "))
        }
        Stmt::Assign { targets, exprs, .. } => {
            format!("(set{} ={})", sx_list(targets, " "), sx_list(exprs, " "))
        }
        Stmt::Call(e) => sx(e),
        Stmt::Do(b, _) => format!("(do {})", sx_block(b)),
        Stmt::While { cond, body, .. } => format!("(while {} {})", sx(cond), sx_block(body)),
        Stmt::Repeat { body, cond, .. } => format!("(repeat {} {})", sx_block(body), sx(cond)),
        Stmt::If {
            arms, else_block, ..
        } => {
            let mut out = "(if".to_string();
            for (c, b) in arms {
                out.push_str(&format!(" {} {}", sx(c), sx_block(b)));
            }
            if let Some(b) = else_block {
                out.push_str(&format!(" else {}", sx_block(b)));
            }
            out.push(')');
            out
        }
        Stmt::NumericFor {
            var,
            start,
            limit,
            step,
            body,
            ..
        } => format!(
            "(fornum {} {} {}{} {})",
            var.name,
            sx(start),
            sx(limit),
            step.as_ref()
                .map(|s| format!(" {}", sx(s)))
                .unwrap_or_default(),
            sx_block(body)
        ),
        Stmt::GenericFor {
            names, exprs, body, ..
        } => {
            format!(
                "(forin {}{} {})",
                sx_names(names),
                sx_list(exprs, " "),
                sx_block(body)
            )
        }
        Stmt::Function { name, func, .. } => {
            let mut n = sx_names(&name.path).replace(',', ".");
            if let Some(m) = &name.method {
                n.push(':');
                n.push_str(&m.name);
            }
            format!("(function {n} {})", sx_body(func))
        }
        Stmt::LocalFunction { name, func, .. } => {
            format!("(localfunction {} {})", name.name, sx_body(func))
        }
        Stmt::Break(_) => "(break)".into(),
        Stmt::Goto(n, _) => format!("(goto {})", n.name),
        Stmt::Label(n, _) => format!("(label {})", n.name),
    }
}

fn ok(src: &str) -> Block {
    match parse(src) {
        Ok(b) => b,
        Err(e) => panic!("parse failed for {src:?}: {e:?}"),
    }
}

/// The S-expression of `return <expr>`.
fn ex(expr: &str) -> String {
    let b = ok(&format!("return {expr}"));
    let r = b.ret.expect("return");
    assert_eq!(r.exprs.len(), 1, "{expr}");
    sx(&r.exprs[0])
}

/// The S-expression of a whole chunk.
fn chunk(src: &str) -> String {
    sx_block(&ok(src))
}

fn err(src: &str) -> GuestError {
    match parse(src) {
        Ok(b) => panic!("expected a parse error for {src:?}, got {b:?}"),
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::ParseError, "{src:?}");
            e
        }
    }
}

fn err_msg(src: &str) -> String {
    err(src).message
}

fn err_at(src: &str) -> (String, u32, u32) {
    let e = err(src);
    let loc = e.location.expect("location");
    (e.message, loc.line, loc.column)
}

fn pos(line: u32, column: u32) -> Pos {
    Pos { line, column }
}

// ----- expressions -------------------------------------------------------------------------------

#[test]
fn literals() {
    assert_eq!(ex("nil"), "nil");
    assert_eq!(ex("true"), "true");
    assert_eq!(ex("false"), "false");
    assert_eq!(ex("..."), "...");
    assert_eq!(ex("42"), "42");
    assert_eq!(ex("0x10"), "16");
    assert_eq!(ex("1.5"), "1.5");
    assert_eq!(ex("9223372036854775808"), "9.223372036854776e18");
    assert_eq!(ex("'a\\tb'"), "\"a\\tb\"");
    assert_eq!(ex("[[x]]"), "\"x\"");
    assert_eq!(ex("{}"), "{}");
    assert_eq!(
        ex("{1, 2; x = 3, [4] = 5, f(),}"),
        "{1 2 x=3 [4]=5 (call f)}"
    );
    assert_eq!(ex("{[1]=2;}"), "{[1]=2}");
    assert_eq!(ex("{x}"), "{x}");
    assert_eq!(ex("{x == 1}"), "{(== x 1)}");
    assert_eq!(
        ex("function(a, b, ...) return a end"),
        "(function (a,b,...) [(return a)])"
    );
    assert_eq!(ex("function() end"), "(function () [])");
    assert_eq!(ex("function(...) end"), "(function (...) [])");
}

#[test]
fn precedence_and_associativity() {
    let cases = [
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("1 * 2 + 3", "(+ (* 1 2) 3)"),
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("1 / 2 // 3 % 4 * 5", "(* (% (// (/ 1 2) 3) 4) 5)"),
        ("2 ^ 3 ^ 2", "(^ 2 (^ 3 2))"),
        ("-2 ^ 2", "(neg (^ 2 2))"),
        ("2 ^ -3", "(^ 2 (neg 3))"),
        ("-x ^ -y ^ z", "(neg (^ x (neg (^ y z))))"),
        ("not a == b", "(== (not a) b)"),
        ("not not a", "(not (not a))"),
        ("#t + 1", "(+ (len t) 1)"),
        ("~a & b", "(& (bnot a) b)"),
        ("- - - x", "(neg (neg (neg x)))"),
        ("a .. b .. c", "(.. a (.. b c))"),
        ("a + b .. c + d", "(.. (+ a b) (+ c d))"),
        ("a .. b == c", "(== (.. a b) c)"),
        ("a << 1 .. 2", "(<< a (.. 1 2))"),
        ("a << b >> c", "(>> (<< a b) c)"),
        ("a & b << c", "(& a (<< b c))"),
        ("a ~ b & c", "(~ a (& b c))"),
        ("a | b ~ c", "(| a (~ b c))"),
        ("a < b | c", "(< a (| b c))"),
        ("a == b and c ~= d", "(and (== a b) (~= c d))"),
        ("a or b and c", "(or a (and b c))"),
        ("a and b or c and d", "(or (and a b) (and c d))"),
        ("a or b or c", "(or (or a b) c)"),
        ("a < b <= c > d >= e", "(>= (> (<= (< a b) c) d) e)"),
        ("(a + b) * c", "(* (paren (+ a b)) c)"),
        ("-a.b", "(neg (index a \"b\"))"),
        ("#f()", "(len (call f))"),
        ("2^x.y", "(^ 2 (index x \"y\"))"),
        ("a ~ ~b", "(~ a (bnot b))"),
        ("1 + -2", "(+ 1 (neg 2))"),
        ("a // b", "(// a b)"),
    ];
    for (src, want) in cases {
        assert_eq!(ex(src), want, "{src}");
    }
}

#[test]
fn suffixes_and_calls() {
    let cases = [
        ("a.b.c", "(index (index a \"b\") \"c\")"),
        ("a[1][k]", "(index (index a 1) k)"),
        ("f()", "(call f)"),
        ("f(1, 2)", "(call f 1 2)"),
        ("f{1}", "(call f {1})"),
        ("f'x'", "(call f \"x\")"),
        ("f[[x]]", "(call f \"x\")"),
        ("f\"x\"\"y\"", "(call (call f \"x\") \"y\")"),
        ("o:m(1)", "(method o m 1)"),
        ("o:m{}", "(method o m {})"),
        ("o:m'x'", "(method o m \"x\")"),
        ("a.b:c(d).e", "(index (method (index a \"b\") c d) \"e\")"),
        ("f()()", "(call (call f))"),
        ("(f)()", "(call (paren f))"),
        ("('x'):rep(3)", "(method (paren \"x\") rep 3)"),
        (
            "tools.ns['dash-name']({})",
            "(call (index (index tools \"ns\") \"dash-name\") {})",
        ),
        ("f(...)", "(call f ...)"),
    ];
    for (src, want) in cases {
        assert_eq!(ex(src), want, "{src}");
    }
}

// ----- statements --------------------------------------------------------------------------------

#[test]
fn statement_forms() {
    let cases = [
        ("", "[]"),
        ("  -- only a comment\n --[[ and another ]] ", "[]"),
        (";;;", "[]"),
        ("local x", "[(local x)]"),
        ("local x, y = 1, 2", "[(local x,y 1 2)]"),
        ("local x <const> = 5", "[(local x<const> 5)]"),
        ("local a <const>, b = 1", "[(local a<const>,b 1)]"),
        ("x = 1", "[(set x = 1)]"),
        (
            "a, b.c, d[1] = 1, 2, 3",
            "[(set a (index b \"c\") (index d 1) = 1 2 3)]",
        ),
        ("f(1)", "[(call f 1)]"),
        ("o:m()", "[(method o m)]"),
        ("print 'hi'", "[(call print \"hi\")]"),
        ("do end", "[(do [])]"),
        ("do local x = 1 end", "[(do [(local x 1)])]"),
        ("while x do f() end", "[(while x [(call f)])]"),
        ("repeat local y = 1 until y", "[(repeat [(local y 1)] y)]"),
        ("if a then end", "[(if a [])]"),
        (
            "if a then f() elseif b then g() elseif c then else h() end",
            "[(if a [(call f)] b [(call g)] c [] else [(call h)])]",
        ),
        ("if a then else end", "[(if a [] else [])]"),
        ("for i = 1, 10 do end", "[(fornum i 1 10 [])]"),
        (
            "for i = 10, 1, -1 do f(i) end",
            "[(fornum i 10 1 (neg 1) [(call f i)])]",
        ),
        (
            "for k, v in pairs(t) do end",
            "[(forin k,v (call pairs t) [])]",
        ),
        ("for k in next, t, nil do end", "[(forin k next t nil [])]"),
        ("function f() end", "[(function f () [])]"),
        (
            "function a.b.c:m(x) return self end",
            "[(function a.b.c:m (x) [(return self)])]",
        ),
        ("function a:m() end", "[(function a:m () [])]"),
        (
            "function f(...) return ... end",
            "[(function f (...) [(return ...)])]",
        ),
        (
            "local function f(a) return f(a) end",
            "[(localfunction f (a) [(return (call f a))])]",
        ),
        ("return", "[(return)]"),
        ("return;", "[(return)]"),
        ("return 1, 2;", "[(return 1 2)]"),
        ("return f()", "[(return (call f))]"),
        ("do return end f()", "[(do [(return)]) (call f)]"),
        ("while true do break end", "[(while true [(break)])]"),
        ("goto continue", "[(goto continue)]"),
        ("::continue::", "[(label continue)]"),
        (
            "for i = 1, 3 do if i == 2 then goto continue end f(i) ::continue:: end",
            "[(fornum i 1 3 [(if (== i 2) [(goto continue)]) (call f i) (label continue)])]",
        ),
        (
            "local t = {} t.x = 1; t[1] = 2",
            "[(local t {}) (set (index t \"x\") = 1) (set (index t 1) = 2)]",
        ),
        (
            "repeat if x then break end until false",
            "[(repeat [(if x [(break)])] false)]",
        ),
        (
            "x = function(...) local a, b = ... end",
            "[(set x = (function (...) [(local a,b ...)]))]",
        ),
    ];
    for (src, want) in cases {
        assert_eq!(chunk(src), want, "{src}");
    }
}

#[test]
fn call_juxtaposition_across_lines_is_a_call() {
    // Lua 5.4 parses `f\n(g)` as a call, like lua5.4 does.
    assert_eq!(chunk("local x = f\n(g)"), "[(local x (call f g))]");
}

#[test]
fn shebang_is_skipped() {
    assert_eq!(chunk("#!/usr/bin/env lua\nreturn 1"), "[(return 1)]");
    let b = ok("#!/usr/bin/env lua\nreturn 1");
    assert_eq!(b.ret.unwrap().pos, pos(2, 1));
}

#[test]
fn method_function_names_keep_positions() {
    let b = ok("function a.b:c(x, y) end");
    match &b.stmts[0] {
        Stmt::Function { name, func, pos: p } => {
            assert_eq!(*p, pos(1, 1));
            let path: Vec<(&str, Pos)> = name.path.iter().map(|n| (&*n.name, n.pos)).collect();
            assert_eq!(path, vec![("a", pos(1, 10)), ("b", pos(1, 12))]);
            let m = name.method.as_ref().unwrap();
            assert_eq!((&*m.name, m.pos), ("c", pos(1, 14)));
            // `self` is not inserted by the parser.
            assert_eq!(sx_names(&func.params), "x,y");
            assert_eq!(func.pos, pos(1, 1));
            assert_eq!(func.end_line, 1);
        }
        other => panic!("{other:?}"),
    }
}

// ----- positions ---------------------------------------------------------------------------------

#[test]
fn expression_positions_follow_ast_conventions() {
    //          1234567890123456789012345678901
    let b = ok("return a + b, -c, t.k, t[1], o:m(1), f'x', f{}, (x)");
    let r = b.ret.unwrap();
    assert_eq!(r.pos, pos(1, 1));
    let ps: Vec<Pos> = r.exprs.iter().map(|e| e.pos).collect();
    assert_eq!(
        ps,
        vec![
            pos(1, 10), // `+`
            pos(1, 15), // `-`
            pos(1, 20), // `.`
            pos(1, 25), // `[`
            pos(1, 31), // `:`
            pos(1, 39), // string argument
            pos(1, 45), // `{` argument
            pos(1, 49), // `(` of the parenthesized expression
        ]
    );
    match &r.exprs[0].kind {
        ExprKind::Binop(_, a, b) => {
            assert_eq!(a.pos, pos(1, 8));
            assert_eq!(b.pos, pos(1, 12));
        }
        other => panic!("{other:?}"),
    }
    match &r.exprs[2].kind {
        ExprKind::Index(o, k) => {
            assert_eq!(o.pos, pos(1, 19));
            assert_eq!(k.pos, pos(1, 21)); // the name used as key
        }
        other => panic!("{other:?}"),
    }
    match &r.exprs[4].kind {
        ExprKind::MethodCall(o, m, args) => {
            assert_eq!(o.pos, pos(1, 30));
            assert_eq!(m.pos, pos(1, 32));
            assert_eq!(args[0].pos, pos(1, 34));
        }
        other => panic!("{other:?}"),
    }
    let b = ok("f(\n  1,\n  g(2)\n)");
    match &b.stmts[0] {
        Stmt::Call(e) => {
            assert_eq!(e.pos, pos(1, 2));
            match &e.kind {
                ExprKind::Call(f, args) => {
                    assert_eq!(f.pos, pos(1, 1));
                    assert_eq!(args[0].pos, pos(2, 3));
                    assert_eq!(args[1].pos, pos(3, 4));
                }
                other => panic!("{other:?}"),
            }
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn statement_positions() {
    let src = "local x = 1\n\
               x = 2\n  \
               do end\n\
               while x do break end\n\
               repeat until x\n\
               if x then end\n\
               for i = 1, 2 do end\n\
               for k in x do end\n\
               function f() end\n\
               local function g()\n\
               end\n\
               goto l\n\
               ::l::\n\
               f()\n\
               return x";
    let b = ok(src);
    let mut ps = Vec::new();
    for s in &b.stmts {
        ps.push(match s {
            Stmt::Local { pos, .. }
            | Stmt::Assign { pos, .. }
            | Stmt::Do(_, pos)
            | Stmt::While { pos, .. }
            | Stmt::Repeat { pos, .. }
            | Stmt::If { pos, .. }
            | Stmt::NumericFor { pos, .. }
            | Stmt::GenericFor { pos, .. }
            | Stmt::Function { pos, .. }
            | Stmt::LocalFunction { pos, .. }
            | Stmt::Break(pos)
            | Stmt::Goto(_, pos)
            | Stmt::Label(_, pos) => *pos,
            Stmt::Call(e) => e.pos,
        });
    }
    assert_eq!(
        ps,
        vec![
            pos(1, 1),
            pos(2, 1),
            pos(3, 3),
            pos(4, 1),
            pos(5, 1),
            pos(6, 1),
            pos(7, 1),
            pos(8, 1),
            pos(9, 1),
            pos(10, 1),
            pos(12, 1),
            pos(13, 1),
            pos(14, 2), // the `(` of the call
        ]
    );
    match &b.stmts[9] {
        Stmt::LocalFunction { name, func, .. } => {
            assert_eq!(name.pos, pos(10, 16));
            assert_eq!(func.pos, pos(10, 7)); // the `function` keyword
            assert_eq!(func.end_line, 11);
        }
        other => panic!("{other:?}"),
    }
    match &b.stmts[3] {
        Stmt::While { body, .. } => assert_eq!(body.stmts[0], Stmt::Break(pos(4, 12))),
        other => panic!("{other:?}"),
    }
    match &b.stmts[11] {
        Stmt::Label(n, _) => assert_eq!(n.pos, pos(13, 3)),
        other => panic!("{other:?}"),
    }
    assert_eq!(b.ret.unwrap().pos, pos(15, 1));
    // Columns count bytes: a multi-byte character in a string shifts later columns.
    let b = ok("x = 'é' y = 1");
    match &b.stmts[1] {
        Stmt::Assign { pos: p, .. } => assert_eq!(*p, pos(1, 10)),
        other => panic!("{other:?}"),
    }
}

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
            assert_eq!(rest.pos, pos(1, 15));
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

// ----- robustness --------------------------------------------------------------------------------

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const CORPUS: &[&str] = &[
    "local x <const> = 10\nlocal t = {1, 2, x = 3, [4] = 'four'; f = function(...) return ... end}\n\
     for i = 1, #t do t[i] = t[i] * 2 end\nreturn t",
    "local function fib(n) if n < 2 then return n end return fib(n-1) + fib(n-2) end\nreturn fib(10)",
    "local s = 0\nfor k, v in pairs({a=1, b=2}) do s = s + v end\nwhile s > 0 do s = s - 1 if s == 1 then break end end\n\
     repeat s = s + 1 until s >= 3\nreturn s",
    "local o = {n = 0}\nfunction o.inc(self) self.n = self.n + 1 end\nfunction o:dec() self.n = self.n - 1 end\n\
     o:inc() o.inc(o) o:dec()\nreturn o.n",
    "for i = 1, 3 do\n  if i % 2 == 0 then goto continue end\n  print(i)\n  ::continue::\nend",
    "local r = tools.orders.lookup({ id = \"o1\" })\nlocal ok, err = pcall(tools.ns[\"dash-name\"], {})\n\
     return { ok = ok, err = err, total = r.total // 2 | 1 ~ 3 & 7 << 1 >> 1 }",
    "local s = [[long\nstring]] .. [==[with ]] inside]==] .. \"esc\\n\\t\\x41\\65\\u{48}\\z\n   x\"\n\
     --[[ block\ncomment ]] return s:upper(), #s, -2^2, 2^-3, 0x1p4, .5, 3., 0xff",
    "if a then b() elseif c then d() else e() end; do local x = ... end; return not a or b and c",
];

fn corpus() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = CORPUS.iter().map(|s| s.as_bytes().to_vec()).collect();
    // Also the differential corpus of real programs, when present.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.extension().is_some_and(|e| e == "lua")
                && let Ok(bytes) = std::fs::read(&p)
            {
                v.push(bytes);
            }
        }
    }
    v
}

#[test]
fn corpus_parses() {
    for (i, src) in CORPUS.iter().enumerate() {
        assert!(parse(src).is_ok(), "corpus {i}: {:?}", parse(src).err());
    }
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential");
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|e| e == "lua") {
                let src = std::fs::read(&p).unwrap();
                if let Err(err) = parse_bytes(&src) {
                    panic!("{}: {err:?}", p.display());
                }
            }
        }
    }
}

#[test]
fn random_bytes_never_panic() {
    const ALPHABET: &[u8] = b" \n\"'[]=-.0123456789xeEpP\\zu{}abc";
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    for _ in 0..20_000 {
        let len = rng.below(64);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let _ = parse_bytes(&bytes);
        // Printable-ASCII flavoured bytes reach deeper into the lexer.
        let ascii: Vec<u8> = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())])
            .collect();
        let _ = parse_bytes(&ascii);
    }
}

#[test]
fn random_token_soup_never_panics() {
    const TOKENS: &[&str] = &[
        "local", "function", "end", "if", "then", "elseif", "else", "while", "do", "for", "in",
        "repeat", "until", "return", "break", "goto", "::", "x", "y", "f", "t", "=", "==", "~=",
        "<", "<=", ">", ">=", "+", "-", "*", "/", "//", "%", "^", "#", "&", "~", "|", "<<", ">>",
        "..", "...", "(", ")", "{", "}", "[", "]", ";", ":", ",", ".", "1", "0x1p4", "2.5", "'s'",
        "[[l]]", "nil", "true", "false", "and", "or", "not", "<const>", "<close>", "\n", "--c\n",
        "!", "+=", "`", "?",
    ];
    let mut rng = XorShift(0x1234_5678_9ABC_DEF1);
    for _ in 0..20_000 {
        let n = rng.below(40);
        let mut s = String::new();
        for _ in 0..n {
            s.push_str(TOKENS[rng.below(TOKENS.len())]);
            s.push(' ');
        }
        if let Err(e) = parse(&s) {
            assert_eq!(e.kind, ErrorKind::ParseError);
            assert!(e.location.is_some(), "{s:?}: {e:?}");
            assert!(!e.message.is_empty());
        }
    }
}

#[test]
fn mutated_programs_never_panic() {
    let corpus = corpus();
    let mut rng = XorShift(0xDEAD_BEEF_CAFE_F00D);
    for _ in 0..3_000 {
        let mut src = corpus[rng.below(corpus.len())].clone();
        for _ in 0..1 + rng.below(4) {
            if src.is_empty() {
                break;
            }
            let at = rng.below(src.len());
            match rng.below(4) {
                0 => {
                    src.remove(at);
                }
                1 => {
                    let b = src[at];
                    src.insert(at, b);
                }
                2 => {
                    let end = (at + 1 + rng.below(8)).min(src.len());
                    let chunk = src[at..end].to_vec();
                    let to = rng.below(src.len());
                    src.splice(to..to, chunk);
                }
                _ => src[at] = rng.next() as u8,
            }
        }
        if let Err(e) = parse_bytes(&src) {
            assert_eq!(e.kind, ErrorKind::ParseError);
        }
    }
}

/// A 1 MB program parses (timing is printed, not asserted: the machine is shared).
#[test]
fn large_program_parses() {
    let unit = "local t = { name = \"item\", price = 12.5, tags = {'a', 'b'} }\n\
                if t.price > 10 and #t.tags == 2 then total = (total or 0) + t.price * 2 end\n\
                for i = 1, 3 do s = (s or '') .. tostring(i) end\n";
    let src = unit.repeat(1_000_000 / unit.len() + 1);
    let start = std::time::Instant::now();
    let b = parse(&src).unwrap();
    eprintln!("parsed {} bytes in {:?}", src.len(), start.elapsed());
    assert_eq!(b.stmts.len(), 3 * (1_000_000 / unit.len() + 1));
}

// ----- agreement with the reference parser -------------------------------------------------------

/// Random token soups are accepted or rejected exactly as `lua5.4`'s `load` does, with Lua's
/// message (our hints come after "; ") on the same line. Excluded: programs starting with `#`
/// (we skip a shebang line, `load` does not) and the checks Lua's parser makes that belong to our
/// compiler (`break` outside a loop, goto/label rules). `lua5.4` must be installed (as for the
/// differential tests).
#[test]
fn token_soups_agree_with_lua() {
    const TOKENS: &[&str] = &[
        "local",
        "function",
        "end",
        "if",
        "then",
        "elseif",
        "else",
        "while",
        "do",
        "for",
        "in",
        "repeat",
        "until",
        "return",
        "break",
        "::",
        "x",
        "y",
        "f",
        "t",
        "=",
        "==",
        "~=",
        "<",
        "<=",
        ">",
        ">=",
        "+",
        "-",
        "*",
        "/",
        "//",
        "%",
        "^",
        "#",
        "&",
        "~",
        "|",
        "<<",
        ">>",
        "..",
        "...",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ";",
        ":",
        ",",
        ".",
        "1",
        "0x1p4",
        "2.5",
        "3.",
        ".5",
        "0xff",
        "'s'",
        "[[l]]",
        "nil",
        "true",
        "false",
        "and",
        "or",
        "not",
        "<const>",
        "\n",
        "x =",
        "f(",
        ")",
        "end",
        "goto",
        "::l::",
        "a.b",
        "o:m",
        "{x = 1}",
        "[==[z]==]",
    ];
    let mut rng = XorShift(0x05EE_D0F5_00B5);
    let mut progs = Vec::new();
    while progs.len() < 4000 {
        let len = 1 + rng.below(14);
        let mut s = String::new();
        for _ in 0..len {
            s.push_str(TOKENS[rng.below(TOKENS.len())]);
            s.push(' ');
        }
        if !s.starts_with('#') {
            progs.push(s);
        }
    }
    let mut script = String::from("local progs = {\n");
    for p in &progs {
        script.push_str(&format!("{p:?},\n"));
    }
    script.push_str(
        "}\nfor _, p in ipairs(progs) do\n  local f, e = load(p, '=input')\n  \
         if f then print('ok') else print((e:gsub('\\n', ' '))) end\nend\n",
    );
    let path =
        std::env::temp_dir().join(format!("codemode-parser-soup-{}.lua", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let out = std::process::Command::new("lua5.4").arg(&path).output();
    let _ = std::fs::remove_file(&path);
    let out = out.expect("lua5.4 must be installed to compare with the reference parser");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lua: Vec<&str> = stdout.lines().collect();
    assert_eq!(lua.len(), progs.len());
    let mut compared_errors = 0;
    for (p, l) in progs.iter().zip(lua) {
        let lua_semantic = [
            "break outside",
            "no visible label",
            "jumps into the scope",
            "already defined",
            "attempt to assign to const",
        ]
        .iter()
        .any(|m| l.contains(m));
        if lua_semantic {
            continue;
        }
        let ours = match parse(p) {
            Ok(_) => "ok".to_string(),
            Err(e) => {
                let head = e.message.split("; ").next().unwrap_or("").to_string();
                format!("input:{}: {head}", e.location.map(|l| l.line).unwrap_or(0))
            }
        };
        if ours != "ok" {
            compared_errors += 1;
        }
        assert_eq!(ours, l, "program {p:?}");
    }
    assert!(compared_errors > 2000, "{compared_errors}");
}

/// Height of a block in nested `Expr`/`Stmt` nodes (blocks and function bodies count 0).
fn block_height(b: &Block) -> usize {
    let s = b.stmts.iter().map(stmt_height).max().unwrap_or(0);
    let r = b
        .ret
        .as_ref()
        .map(|r| 1 + r.exprs.iter().map(full_height).max().unwrap_or(0))
        .unwrap_or(0);
    s.max(r)
}

fn stmt_height(s: &Stmt) -> usize {
    let exprs = |v: &[Expr]| v.iter().map(full_height).max().unwrap_or(0);
    1 + match s {
        Stmt::Local { exprs: e, .. } => exprs(e),
        Stmt::Assign {
            targets, exprs: e, ..
        } => exprs(targets).max(exprs(e)),
        Stmt::Call(e) => full_height(e),
        Stmt::Do(b, _) => block_height(b),
        Stmt::While { cond, body, .. } | Stmt::Repeat { body, cond, .. } => {
            full_height(cond).max(block_height(body))
        }
        Stmt::If {
            arms, else_block, ..
        } => arms
            .iter()
            .map(|(c, b)| full_height(c).max(block_height(b)))
            .max()
            .unwrap_or(0)
            .max(else_block.as_deref().map(block_height).unwrap_or(0)),
        Stmt::NumericFor {
            start,
            limit,
            step,
            body,
            ..
        } => full_height(start)
            .max(full_height(limit))
            .max(step.as_deref().map(full_height).unwrap_or(0))
            .max(block_height(body)),
        Stmt::GenericFor { exprs: e, body, .. } => exprs(e).max(block_height(body)),
        Stmt::Function { func, .. } | Stmt::LocalFunction { func, .. } => block_height(&func.body),
        Stmt::Break(_) | Stmt::Goto(..) | Stmt::Label(..) => 0,
    }
}

fn full_height(e: &Expr) -> usize {
    1 + match &e.kind {
        ExprKind::Binop(_, a, b) | ExprKind::Index(a, b) => full_height(a).max(full_height(b)),
        ExprKind::Chain(first, links) => links
            .iter()
            .map(|l| full_height(&l.rhs))
            .fold(full_height(first), usize::max),
        ExprKind::Concat(parts) => parts.iter().map(full_height).max().unwrap_or(0),
        ExprKind::Unop(_, a) | ExprKind::Paren(a) => full_height(a),
        ExprKind::Call(f, args) | ExprKind::MethodCall(f, _, args) => args
            .iter()
            .map(full_height)
            .max()
            .unwrap_or(0)
            .max(full_height(f)),
        ExprKind::Table(fields) => fields
            .iter()
            .map(|f| match f {
                TableField::Positional(v) | TableField::Named(_, v) => full_height(v),
                TableField::Keyed(k, v) => full_height(k).max(full_height(v)),
            })
            .max()
            .unwrap_or(0),
        ExprKind::Function(f) => block_height(&f.body),
        _ => 0,
    }
}

/// Random mixes of every nesting construct, around the limit: either a nesting error, or an AST
/// whose height (nested `Expr`/`Stmt` nodes) is at most `MAX_SYNTAX_DEPTH + 2`.
#[test]
fn mixed_nesting_height_is_bounded() {
    let mut rng = XorShift(0xABCD_EF01_2345_6789);
    let mut accepted = 0;
    let mut worst = 0;
    for _ in 0..400 {
        let levels = 20 + rng.below(260);
        let mut open = String::new();
        let mut close: Vec<String> = Vec::new();
        for _ in 0..levels {
            let k = rng.below(12);
            let (o, c) = match k {
                0 => ("(".to_string(), ")".to_string()),
                1 => ("{".to_string(), "}".to_string()),
                2 => ("function() return ".to_string(), " end".to_string()),
                3 => ("function() do x = ".to_string(), " end end".to_string()),
                4 => ("a[".to_string(), "]".to_string()),
                5 => ("f(".to_string(), ")".to_string()),
                6 => ("- ".to_string(), String::new()),
                7 => (
                    "(".to_string(),
                    format!("{})", " + 1".repeat(1 + rng.below(20))),
                ),
                8 => ("a .. ".to_string(), String::new()),
                9 => (
                    "o:m(".to_string(),
                    format!("){}", ".b".repeat(rng.below(10))),
                ),
                10 => ("{x = ".to_string(), "}".to_string()),
                _ => (
                    "function() if x then return ".to_string(),
                    " end end".to_string(),
                ),
            };
            open.push_str(&o);
            close.push(c);
        }
        close.reverse();
        let src = format!("return {open}1{}", close.concat());
        match parse(&src) {
            Ok(b) => {
                accepted += 1;
                let h = block_height(&b);
                worst = worst.max(h);
                assert!(h <= MAX_SYNTAX_DEPTH as usize + 2, "height {h}: {src}");
            }
            Err(e) => assert!(
                e.message.starts_with("expression/block nesting too deep"),
                "{e:?}"
            ),
        }
    }
    assert!(
        accepted > 50 && worst > 150,
        "accepted {accepted}, worst {worst}"
    );
}
