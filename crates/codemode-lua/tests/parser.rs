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

#[path = "parser/depth.rs"]
mod depth;
#[path = "parser/errors.rs"]
mod errors;
#[path = "parser/reference.rs"]
mod reference;
#[path = "parser/robustness.rs"]
mod robustness;
