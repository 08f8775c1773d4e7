//! Slips a first-time model makes (issue 17): each gets Lua's text, then what went wrong and
//! what to write instead, at the right line:column.

use std::sync::Arc;

use codemode_lua::{
    Budgets, Env, ErrorKind, GuestError, HostReply, Machine, MissingTool, Step, compile,
};
use serde_json::{Value as Json, json};

struct Host;

impl MissingTool for Host {
    fn missing(&self, p: &str, _rank: bool) -> GuestError {
        GuestError::new(ErrorKind::UnknownTool, format!("unknown tool 'tools.{p}'"))
    }
}

fn env_with(extensions: &[&str]) -> Env {
    Env {
        tool_paths: vec!["crm.list".into()],
        extension_paths: extensions.iter().map(|s| s.to_string()).collect(),
        async_extension_paths: Vec::new(),
        missing: Some(Arc::new(Host)),
        ..Env::default()
    }
}

/// Runs `src`, answering every host call with `reply`; the outcome and the warnings.
fn run_with(
    src: &str,
    reply: Json,
    extensions: &[&str],
) -> (Result<Json, GuestError>, Vec<String>) {
    let p = compile(src).expect("compiles");
    let mut m = Machine::new(&p, &env_with(extensions), Budgets::default());
    let out = loop {
        match m.run(10_000) {
            Step::Yield => {}
            Step::HostCall(_) => m.resume(HostReply::Value(reply.clone())),
            Step::Done(v) => break Ok(v),
            Step::Error(e) => break Err(e),
        }
    };
    let warnings = m.take_warnings().into_iter().map(|w| w.message).collect();
    (out, warnings)
}

fn run(src: &str) -> Result<Json, GuestError> {
    run_with(src, json!({"items": [{"name": "a"}, {"name": "b"}]}), &[]).0
}

fn err(src: &str) -> GuestError {
    run(src).expect_err("should fail")
}

fn at(e: &GuestError) -> Option<(u32, u32)> {
    e.location.map(|l| (l.line, l.column))
}

/// Point 1: `await`, `null`, `console`, `JSON`, `Object` are caught before the program runs.
#[test]
fn javascript_globals_fail_before_the_program_runs() {
    let e = err("local res = await tools.crm.list({ page = 1 })\nreturn res.items");
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert_eq!(
        e.message,
        "'await' is not defined: Lua has no await: a tool call returns its value directly; write `local res = tools.ns.tool({ ... })`"
    );
    assert_eq!(at(&e), Some((1, 13)));
    let e = err("return await(tools.crm.list({}))");
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert!(e.message.contains("Lua has no await"), "{}", e.message);
    let cases = [
        (
            "local t = JSON.parse('[1]')",
            "'JSON' is not defined: use json.decode(text)",
            (1, 11),
        ),
        (
            "return JSON.stringify({})",
            "'JSON' is not defined: use json.encode(value)",
            (1, 8),
        ),
        (
            "local x = 1\nconsole.log(x)",
            "'console' is not defined: use print(...) to log",
            (2, 1),
        ),
        (
            "local t = {}\nfor _, k in ipairs(Object.keys(t)) do end",
            "'Object' is not defined: Lua has no Object.keys: loop with `for k, v in pairs(t) do ... end`",
            (2, 20),
        ),
        (
            "local x = {}\nif x.a == null then end",
            "'null' is not defined: Lua has no null: use nil (a JSON null reads as nil)",
            (2, 11),
        ),
        (
            "return undefined",
            "'undefined' is not defined: Lua has no undefined: use nil",
            (1, 8),
        ),
    ];
    for (src, want, pos) in cases {
        let e = err(src);
        assert_eq!(e.kind, ErrorKind::ParseError, "{src}");
        assert_eq!(e.message, want, "{src}");
        assert_eq!(at(&e), Some(pos), "{src}");
    }
    // Defined by the program, or an extension of the host: ordinary globals.
    assert_eq!(
        run("JSON = json\nreturn JSON.encode({1})").unwrap(),
        json!("[1]")
    );
    assert_eq!(
        run("local function f() return null end null = 3 return f()").unwrap(),
        json!(3)
    );
    let (r, _) = run_with("console.log('x') return 1", json!(null), &["console.log"]);
    assert_eq!(r.unwrap(), json!(1));
}

/// Point 1: a program that defines such a global itself, through `_G`, or only tests whether
/// it exists, is a correct program: it runs as Lua runs it.
#[test]
fn javascript_globals_defined_or_tested_by_the_program_run() {
    let cases = [
        ("_G.JSON = json\nreturn JSON.encode({1})", json!("[1]")),
        ("rawset(_G, 'null', 0)\nreturn null", json!(0)),
        (
            "if console then console.log(1) else print(2) end\nreturn 1",
            json!(1),
        ),
        (
            "local log = console and console.log or print\nlog(3)\nreturn 2",
            json!(2),
        ),
        ("local J = JSON or json\nreturn J.encode({})", json!("{}")),
        ("return type(undefined)", json!("nil")),
        ("if (nil == Object) then return 4 end", json!(4)),
        ("return JSON ~= nil", json!(false)),
        (
            "function Object(t) return t end\nreturn Object({5})",
            json!([5]),
        ),
    ];
    for (src, want) in cases {
        assert_eq!(
            run(src).unwrap_or_else(|e| panic!("{src}: {e:?}")),
            want,
            "{src}"
        );
    }
    // A guard in one function does not hide a local of the same name elsewhere.
    let e = err("local function f(console) return console and 1 end\nconsole.log(f())");
    assert_eq!(e.message, "'console' is not defined: use print(...) to log");
}

/// Point 2: a nil that came from index 0, or one past the end, through a local.
#[test]
fn zero_and_past_the_end_indexes_through_a_local() {
    let e = err("local res = tools.crm.list({})\nlocal first = res.items[0]; return first.name");
    assert_eq!(
        e.message,
        "attempt to index a nil value (local 'first'); Lua arrays start at 1 (items[1] is the first)"
    );
    assert_eq!(at(&e), Some((2, 41)));
    let e = err(
        "local t = tools.crm.list({}).items\nfor i = 0, #t - 1 do\n  local c = t[i]\n  print(c.name)\nend",
    );
    assert_eq!(
        e.message,
        "attempt to index a nil value (local 'c'); Lua arrays start at 1 (items[1] is the first)"
    );
    let e = err(
        "local t = tools.crm.list({}).items\nlocal out = {}\nfor i = 1, #t + 1 do\n  local c = t[i]\n  out[i] = c.name\nend",
    );
    assert_eq!(
        e.message,
        "attempt to index a nil value (local 'c'); index 3 is past the end: the array has 2 items (t[1] to t[#t])"
    );
    // A method call on the local (it is copied to a temporary first).
    let e = err("local res = tools.crm.list({})\nlocal first = res.items[0]\nreturn first:upper()");
    assert_eq!(
        e.message,
        "attempt to index a nil value (local 'first'); Lua arrays start at 1 (items[1] is the first)"
    );
    // A nil local from elsewhere: Lua's text alone.
    assert_eq!(
        err("local t = {5}\nlocal c = t.x\nreturn c.y").message,
        "attempt to index a nil value (local 'c')"
    );
}

/// Point 3: `.length` of an array or a string.
#[test]
fn length_field_points_to_the_length_operator() {
    let e = err("local t = tools.crm.list({}).items\nreturn t.length + 1");
    assert_eq!(
        e.message,
        "attempt to perform arithmetic on a nil value (field 'length'); Lua has no .length: use #t for the length of a table or string"
    );
    let e = err("local s = 'abc'\nfor i = 1, s.length do end");
    assert!(
        e.message
            .ends_with("; Lua has no .length: use #t for the length of a table or string"),
        "{}",
        e.message
    );
    // Only flowing into the result: a warning where it was read.
    let (r, w) = run_with(
        "local t = {1, 2}\nreturn { count = t.length }",
        json!(null),
        &[],
    );
    assert_eq!(r.unwrap(), json!({}));
    assert_eq!(
        w,
        vec!["t.length at 2:19 is nil: Lua has no .length; use #t for the length of a table or string".to_string()]
    );
    // Named as written.
    let (_, w) = run_with(
        "local r = tools.crm.list({})\nreturn { n = r.items.length }",
        json!({"items": [1, 2]}),
        &[],
    );
    assert_eq!(
        w,
        vec!["r.items.length at 2:21 is nil: Lua has no .length; use #r.items for the length of a table or string".to_string()]
    );
    // A record's own `length` field is fine.
    let (r, w) = run_with("local t = {length = 3}\nreturn t.length", json!(null), &[]);
    assert_eq!((r.unwrap(), w.len()), (json!(3), 0));
}

/// Point 6: a field the tool sent as null.
#[test]
fn null_field_from_a_tool_says_it_was_null() {
    let (r, _) = run_with(
        "local c = tools.crm.list({})\nreturn c.email:lower()",
        json!({"name": "a", "email": null}),
        &[],
    );
    let e = r.expect_err("nil email");
    assert_eq!(
        e.message,
        "attempt to index a nil value (field 'email'); field 'email' was null in the tool's result: test it first (`if c.email then ... end`) or give a default (`c.email or \"\"`)"
    );
}

/// Point 6: the null hint wherever the nil is used: through temporaries, a local, `#`, a
/// builtin's argument; its default fits the use, and names the expression as written.
#[test]
fn null_field_hint_follows_the_nil() {
    let reply = json!({"items": [{"name": "a", "email": null, "tags": null}], "total": null});
    let cases = [
        (
            "local r = tools.crm.list({})\nreturn r.items[1].email .. '!'",
            "attempt to concatenate a nil value (field 'email'); field 'email' was null in the tool's result: test it first (`if r.items[1].email then ... end`) or give a default (`r.items[1].email or \"\"`)",
        ),
        (
            "local r = tools.crm.list({})\nlocal e = r.items[1].email\nreturn e:lower()",
            "attempt to index a nil value (local 'e'); it came from r.items[1].email: field 'email' was null in the tool's result: test it first (`if e then ... end`) or give a default (`local e = r.items[1].email or \"\"`)",
        ),
        (
            "local r = tools.crm.list({})\nfor i = 1, #r.items do print(#r.items[i].tags) end",
            "attempt to get length of a nil value (field 'tags'); field 'tags' was null in the tool's result: test it first (`if r.items[i].tags then ... end`) or give a default (`r.items[i].tags or {}`)",
        ),
        (
            "local c = tools.crm.list({}).items[1]\nfor _, t in ipairs(c.tags) do end",
            "bad argument #1 to 'ipairs' (table expected, got nil); field 'tags' was null in the tool's result: test it first (`if c.tags then ... end`) or give a default (`c.tags or {}`)",
        ),
        (
            "local r = tools.crm.list({})\nreturn ('x'):rep(r.total)",
            "bad argument #1 to 'rep' (number expected, got nil); field 'total' was null in the tool's result: test it first (`if r.total then ... end`) or give a default (`r.total or 0`)",
        ),
        (
            "local r = tools.crm.list({})\nreturn string.upper(r.items[1].email)",
            "bad argument #1 to 'upper' (string expected, got nil); field 'email' was null in the tool's result: test it first (`if r.items[1].email then ... end`) or give a default (`r.items[1].email or \"\"`)",
        ),
        (
            "local r = tools.crm.list({})\nreturn r.total * 2",
            "attempt to perform arithmetic on a nil value (field 'total'); field 'total' was null in the tool's result: test it first (`if r.total then ... end`) or give a default (`r.total or 0`)",
        ),
    ];
    for (src, want) in cases {
        let (r, _) = run_with(src, reply.clone(), &[]);
        assert_eq!(r.expect_err(src).message, want, "{src}");
    }
    // A field the tool did not send at all: the missing-field hint, through temporaries too.
    let (r, _) = run_with(
        "local r = tools.crm.list({})\nreturn r.items[1].mail .. '!'",
        reply.clone(),
        &[],
    );
    assert_eq!(
        r.unwrap_err().message,
        "attempt to concatenate a nil value (field 'mail'); that table has no field 'mail'; its fields: name"
    );
}

/// `MAX_HINT_TRACE_STEPS`: a hint names the expression a nil came from through that many
/// reads; past them it names the table `t`.
#[test]
fn hint_tracing_is_bounded() {
    let steps = codemode_lua::limits::MAX_HINT_TRACE_STEPS;
    let hinted = |depth: usize| {
        let mut reply = json!({"email": null, "name": "n"});
        for _ in 0..depth {
            reply = json!({ "a": reply });
        }
        // `local x = r.a.a.email` reads every level into the register of `x`.
        let src = format!(
            "local r = tools.crm.list({{}})\nlocal x = r{}.email\nreturn x .. '!'",
            ".a".repeat(depth)
        );
        let (r, _) = run_with(&src, reply, &[]);
        r.unwrap_err().message
    };
    let path = format!("r{}.email", ".a".repeat(steps));
    assert!(
        hinted(steps).contains(&format!("; it came from {path}: field 'email' was null")),
        "{}",
        hinted(steps)
    );
    // One more level: the expression is not followed back to `r`; the hint says `t`.
    assert_eq!(
        hinted(steps + 1),
        "attempt to concatenate a nil value (local 'x'); it came from t.email: field 'email' was null in the tool's result: test it first (`if x then ... end`) or give a default (`local x = t.email or \"\"`)"
    );
}

/// Point 7: `print` of a table logs its contents as compact JSON.
#[test]
fn print_of_a_table_logs_json() {
    let p = compile("print({a = 1}, {1, 2}, 'x', {f = print})\nprint(string.rep('y', 3000) and {string.rep('y', 3000)})").unwrap();
    let mut m = Machine::new(&p, &env_with(&[]), Budgets::default());
    while let Step::Yield = m.run(10_000) {}
    let logs = m.take_logs();
    let parts: Vec<&str> = logs[0].split('\t').collect();
    assert_eq!(&parts[..3], &["{\"a\":1}", "[1,2]", "x"]);
    assert!(parts[3].starts_with("{f = function: 0x"), "{}", parts[3]);
    assert_eq!(
        logs[1].len(),
        codemode_lua::limits::MAX_PRINT_JSON_BYTES + "…".len()
    );
    assert!(
        logs[1].starts_with("[\"yyy") && logs[1].ends_with('…'),
        "{}",
        &logs[1][..20]
    );
}

/// Point 7: a table that cannot be JSON logs as a Lua table constructor, not `table: 0x…`.
#[test]
fn print_of_a_table_that_is_not_json_logs_a_constructor() {
    let logs = |src: &str| {
        let p = compile(src).unwrap();
        let mut m = Machine::new(&p, &env_with(&[]), Budgets::default());
        while let Step::Yield = m.run(10_000) {}
        m.take_logs()
    };
    let cases = [
        ("print({1, 2, nil, 4})", "{1, 2, [4] = 4}"),
        ("print({[1.5] = 'a'})", "{[1.5] = \"a\"}"),
        ("print({1, 2, x = {y = true}})", "{1, 2, x = {y = true}}"),
        (
            "local t = {} t.self = {up = t} print(t)",
            "{self = {up = <cycle>}}",
        ),
        (
            "print({['a b'] = 'q\"', [true] = 1, _k = json.null, {}})",
            "",
        ),
    ];
    for (src, want) in &cases[..4] {
        assert_eq!(logs(src), vec![want.to_string()], "{src}");
    }
    // Order of hash keys is the table's: check the pieces.
    let line = logs(cases[4].0).remove(0);
    for piece in [
        "{}",
        "[\"a b\"] = \"q\\\"\"",
        "[true] = 1",
        "_k = json.null",
    ] {
        assert!(line.contains(piece), "{piece} in {line}");
    }
    assert!(line.starts_with("{{}, "), "{line}");
    // `MAX_PRINT_DEPTH`: deeper tables show as `{…}`.
    let depth = codemode_lua::limits::MAX_PRINT_DEPTH;
    let line = logs(&format!(
        "local t = {{f = print}} for i = 1, {} do t = {{t}} end print(t)",
        depth + 3
    ))
    .remove(0);
    assert_eq!(
        line,
        format!("{}{{…}}{}", "{".repeat(depth), "}".repeat(depth))
    );
    // Cut at `MAX_PRINT_JSON_BYTES` like JSON, however large the table.
    let line = logs("local t = {print} for i = 1, 100000 do t[#t + 1] = i end print(t)").remove(0);
    assert_eq!(
        line.len(),
        codemode_lua::limits::MAX_PRINT_JSON_BYTES + "…".len()
    );
    assert!(
        line.starts_with("{function: 0x") && line.ends_with('…'),
        "{line}"
    );
}

/// Breaker findings: the field hint for comparisons and integer keys of records.
#[test]
fn nil_field_hints_for_comparisons_and_records() {
    let e = err("local r = {a = 1}\nif r.b > 1 then end");
    assert_eq!(
        e.message,
        "attempt to compare number with nil; that table has no field 'b'; its fields: a"
    );
    let e = err("local r = {name = 'x', id = 2}\nreturn r[1].name");
    assert_eq!(
        e.message,
        "attempt to index a nil value (field 'integer index'); that table has no item 1: it is a record with fields: id, name (read them as r.id)"
    );
}

/// Breaker finding: `[1, 2]` as an array literal.
#[test]
fn bracket_array_literal_points_to_braces() {
    let e = compile("local t = [1, 2]\nreturn t").expect_err("syntax error");
    assert_eq!(
        e.message,
        "unexpected symbol near '['; Lua has no [ ] array literal: write a table constructor, e.g. {1, 2}"
    );
    assert_eq!(at(&e), Some((1, 11)));
}

/// Point 17: `json.decode('-0')` is the float -0.0, as a tool's `-0` is.
#[test]
fn json_decode_minus_zero_is_a_float() {
    assert_eq!(
        run("local z = json.decode('-0') return {math.type(z), tostring(1/z)}").unwrap(),
        json!(["float", "-inf"])
    );
}

/// `MAX_WARNINGS`: one warning per place, at most that many a run.
#[test]
fn warnings_are_bounded() {
    let src = (0..30)
        .map(|i| format!("local a{i} = ({{1}}).length"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\nreturn 1";
    let (r, w) = run_with(&src, json!(null), &[]);
    assert_eq!(r.unwrap(), json!(1));
    assert_eq!(w.len(), codemode_lua::limits::MAX_WARNINGS);
    // A loop reading it again warns once.
    let (_, w) = run_with(
        "local t = {1}\nfor i = 1, 100 do local n = t.length end\nreturn 1",
        json!(null),
        &[],
    );
    assert_eq!(w.len(), 1);
}

/// `MAX_NULL_FIELD_TABLES`: past it, a null field gets the plain missing-field hint.
#[test]
fn null_fields_are_remembered_for_a_bounded_number_of_tables() {
    let n = codemode_lua::limits::MAX_NULL_FIELD_TABLES;
    let items: Vec<Json> = (0..n + 10)
        .map(|_| json!({"name": "a", "email": null}))
        .collect();
    let reply = json!({ "items": items });
    let (r, _) = run_with(
        "local r = tools.crm.list({})\nreturn r.items[1].email:lower()",
        reply.clone(),
        &[],
    );
    assert!(
        r.unwrap_err()
            .message
            .contains("was null in the tool's result")
    );
    let src = format!(
        "local r = tools.crm.list({{}})\nreturn r.items[{}].email:lower()",
        n + 5
    );
    let (r, _) = run_with(&src, reply, &[]);
    assert_eq!(
        r.unwrap_err().message,
        "attempt to index a nil value (field 'email'); that table has no field 'email'; its fields: name"
    );
}
