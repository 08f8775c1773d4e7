//! Agreement with the reference parser (luac5.4).

use super::robustness::XorShift;
use super::*;

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
pub(super) fn block_height(b: &Block) -> usize {
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
