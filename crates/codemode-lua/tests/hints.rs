//! Model-facing hints: unavailable namespaces fail at call time (catchable by `pcall`), and
//! runtime/parse errors keep Lua's text and append what to do instead.

use std::sync::Arc;

use codemode_lua::{
    Budgets, Env, ErrorKind, GuestError, HostReply, Machine, MissingTool, Step, compile,
};
use serde_json::{Value as Json, json};

const DOWN: &str = "tools.broken.anything cannot be called: server 'broken' is down";

/// A host whose namespace `broken` is down.
struct Host;

impl MissingTool for Host {
    fn missing(&self, p: &str, _rank: bool) -> GuestError {
        if p == "broken" || p.starts_with("broken.") {
            GuestError::new(
                ErrorKind::ToolFailure,
                format!("tools.{p} cannot be called: server 'broken' is down"),
            )
        } else {
            GuestError::new(ErrorKind::UnknownTool, format!("unknown tool 'tools.{p}'"))
        }
    }
}

fn env() -> Env {
    Env {
        tool_paths: vec!["orders.lookup".into()],
        extension_paths: vec![],
        async_extension_paths: Vec::new(),
        missing: Some(Arc::new(Host)),
        ..Env::default()
    }
}

fn run(src: &str) -> Result<Json, GuestError> {
    let p = compile(src).expect("compiles");
    let mut m = Machine::new(&p, &env(), Budgets::default());
    loop {
        match m.run(10_000) {
            Step::Yield => {}
            Step::HostCall(_) => m.resume(HostReply::Value(json!({"ok": true}))),
            Step::Done(v) => return Ok(v),
            Step::Error(e) => return Err(e),
        }
    }
}

fn err(src: &str) -> GuestError {
    run(src).expect_err("should fail")
}

#[test]
fn pcall_of_unavailable_tool_value_is_caught() {
    let v = run("local ok, e = pcall(tools.broken.anything, {})\nreturn {ok, e}").unwrap();
    assert_eq!(v, json!([false, DOWN]));
}

#[test]
fn pcall_of_function_calling_unavailable_tool_is_caught() {
    let v =
        run("local ok, e = pcall(function() return tools.broken.anything({}) end)\nreturn {ok, e}")
            .unwrap();
    assert_eq!(v, json!([false, format!("input:1: {}", DOWN)]));
}

#[test]
fn uncaught_unavailable_tool_is_a_tool_failure_at_the_call() {
    let e = err("local x = 1\nreturn tools.broken.anything({})");
    assert_eq!(e.kind, ErrorKind::ToolFailure);
    assert_eq!(e.message, DOWN);
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((2, 20)));
}

#[test]
fn unknown_tool_under_available_namespace_still_unknown() {
    let e = err("return tools.orders.lookpu({})");
    assert_eq!(e.kind, ErrorKind::UnknownTool);
}

#[test]
fn nil_from_index_zero_says_arrays_start_at_1() {
    let e = err("local r = { items = { { id = 1 } } }\nreturn r.items[0].id");
    assert_eq!(
        e.message,
        "attempt to index a nil value (field 'integer index'); Lua arrays start at 1 (items[1] is the first)"
    );
    let e = err("local items = { 5 }\nlocal i = 0\nreturn items[i] + 1");
    assert_eq!(
        e.message,
        "attempt to perform arithmetic on a nil value (field '?'); Lua arrays start at 1 (items[1] is the first)"
    );
    // Other keys: Lua's text alone.
    let e = err("local r = { items = {} }\nreturn r.items[1].id");
    assert_eq!(
        e.message,
        "attempt to index a nil value (field 'integer index')"
    );
}

#[test]
fn for_over_a_table_points_to_pairs() {
    let e = err("local r = { items = { 1 } }\nfor o in r.items do end");
    assert_eq!(
        e.message,
        "attempt to call a table value (for iterator 'for iterator'); to loop over a table use `for i, v in ipairs(t)` (arrays) or `for k, v in pairs(t)`"
    );
}

#[test]
fn adding_strings_points_to_concat() {
    let e = err("local a, b = 'a', 'b'\nreturn a + b");
    assert_eq!(
        e.message,
        "attempt to add a 'string' with a 'string'; use `..` to join strings"
    );
    // Numeric strings still add.
    assert_eq!(run("return '1' + '2'").unwrap(), json!(3));
}

#[test]
fn format_d_of_a_float_points_to_floor() {
    let e = err("return string.format('%d', 31.5)");
    assert_eq!(
        e.message,
        "bad argument #2 to 'format' (number has no integer representation); use %.0f or math.floor(x) for a float"
    );
}

#[test]
fn xpcall_with_debug_traceback_keeps_the_error() {
    let v = run(
        "local ok, e = xpcall(function() local t = nil; return t.x end, debug.traceback)\nreturn {ok, e}",
    )
    .unwrap();
    assert_eq!(
        v,
        json!([false, "input:1: attempt to index a nil value (local 't')"])
    );
    let v = run(
        "local ok, e = xpcall(function() error({code = 7}) end, debug.traceback)\nreturn e.code",
    )
    .unwrap();
    assert_eq!(v, json!(7));
    assert_eq!(
        run("return debug.traceback('boom')").unwrap(),
        json!("boom")
    );
    // The rest of debug stays unavailable.
    let e = err("return debug.getinfo(1)");
    assert_eq!(
        e.message,
        "debug.getinfo is not available in this sandbox: debugging facilities are not available"
    );
}

#[test]
fn bare_final_expression_suggests_return() {
    let e = compile("local x = 1\nx").expect_err("syntax error");
    assert_eq!(
        e.message,
        "syntax error near <eof>; a statement must be an assignment or a function call; to return a value write `return x`"
    );
    let e = compile("local r = {a = {1}}\nr.a[1]").expect_err("syntax error");
    assert_eq!(
        e.message,
        "syntax error near <eof>; a statement must be an assignment or a function call; to return a value write `return r.a[1]`"
    );
    let e = compile("local function f()\n  x\nend").expect_err("syntax error");
    assert!(e.message.ends_with("write `return x`"), "{}", e.message);
    // Not the last statement of a block: no return hint.
    let e = compile("x\nprint(1)").expect_err("syntax error");
    assert_eq!(
        e.message,
        "syntax error near 'print'; a statement must be an assignment or a function call"
    );
}

/// Functions models expect from other languages: Lua's message, then what to write instead.
#[test]
fn calls_to_functions_lua_lacks_say_what_to_use() {
    let cases = [
        (
            "local s = 'a,b' return s:split(',')",
            "attempt to call a nil value (method 'split'); Lua has no split: use `for part in s:gmatch(\"[^,]+\") do ... end`",
        ),
        (
            "return string.trim(' a ')",
            "attempt to call a nil value (field 'trim'); Lua has no trim",
        ),
        (
            "local t = {} t:push(1)",
            "attempt to call a nil value (method 'push'); use `t[#t + 1] = value`",
        ),
        (
            "return json.stringify({})",
            "attempt to call a nil value (field 'stringify'); use `json.encode(value)`",
        ),
        (
            "return len({})",
            "attempt to call a nil value (global 'len'); use the length operator",
        ),
        (
            "local t = {1} return t:map(tostring)",
            "attempt to call a nil value (method 'map'); Lua tables have no methods",
        ),
        (
            "return math.round(2.5)",
            "attempt to call a nil value (field 'round'); use `math.floor(x + 0.5)`",
        ),
    ];
    for (src, want) in cases {
        let e = err(src);
        assert!(e.message.starts_with(want), "{src}: {}", e.message);
    }
    // A field the program itself defines gets Lua's text alone.
    let e = err("local obj = {} return obj.frobnicate()");
    assert_eq!(
        e.message,
        "attempt to call a nil value (field 'frobnicate')"
    );
}

/// A nil that came from `t.name` where `t` is still at hand: say what `t` holds instead.
#[test]
fn missing_field_lists_the_table_fields() {
    let e = err("local rec = {name = 'a', price = 2, sku = 'x'} return rec.qty * 2");
    assert_eq!(
        e.message,
        "attempt to perform arithmetic on a nil value (field 'qty'); that table has no field 'qty'; its fields: name, price, sku"
    );
    let e = err("local items = {{name = 'a'}, {name = 'b'}} return items.name:upper()");
    assert_eq!(
        e.message,
        "attempt to index a nil value (field 'name'); that table has no field 'name': it is an array of 2 items, so index it first (e.g. t[1].name) or loop over it with ipairs"
    );
    let e = err("local r = {a = 1} return 'x' .. r.b");
    assert_eq!(
        e.message,
        "attempt to concatenate a nil value (field 'b'); that table has no field 'b'; its fields: a"
    );
    // Many fields: the first 12 by name, then a count.
    let src = format!(
        "local t = {{{}}} return t.missing + 1",
        (0..20)
            .map(|i| format!("f{i:02} = {i}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert!(
        err(&src).message.ends_with(
            "its fields: f00, f01, f02, f03, f04, f05, f06, f07, f08, f09, f10, f11 and 8 more"
        ),
        "{}",
        err(&src).message
    );
    // A local holding nil, or a table register reused since: Lua's text alone.
    assert_eq!(
        err("local x = nil return x + 1").message,
        "attempt to perform arithmetic on a nil value (local 'x')"
    );
}
