//! End-to-end: JavaScript orchestration over real in-process tools (feature `js`): promises
//! over tool calls, the gate's 8 live calls, unfinished work, warnings, timeouts, `search`,
//! extensions and the `tools` namespace.
#![cfg(feature = "js")]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use codemode::{
    CodeMode, DiagnosticKind, Extension, FnHooks, Language, Limits, Tool, ToolCallStatus, ToolError,
};
use serde_json::{Value, json};

fn echo() -> Tool {
    Tool::new(
        "Echo the input.",
        json!({"type": "object"}),
        |v: Value| async move { Ok(v) },
    )
}

/// `orders.get({id})` → `{id, total: id * 10}`; ids over 100 fail with "no order <id>".
fn orders() -> Tool {
    Tool::new(
        "Look up an order.",
        json!({"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}),
        |v: Value| async move {
            let id = v["id"].as_i64().unwrap_or(0);
            if id > 100 {
                return Err(ToolError::new(format!("no order {id}")));
            }
            Ok(json!({"id": id, "total": id * 10}))
        },
    )
}

/// `pages.list({cursor})`: three pages of two items, then no cursor.
fn pages() -> Tool {
    Tool::new(
        "List items a page at a time.",
        json!({"type": "object", "properties": {"cursor": {"type": "integer"}}}),
        |v: Value| async move {
            let c = v["cursor"].as_i64().unwrap_or(0);
            let items = vec![json!(c * 2), json!(c * 2 + 1)];
            Ok(if c < 2 {
                json!({"items": items, "next": c + 1})
            } else {
                json!({"items": items})
            })
        },
    )
}

/// `slow.sleep({ms})`: sleeps, then returns `{slept: ms}`.
fn sleeper() -> Tool {
    Tool::new(
        "Sleep.",
        json!({"type": "object", "properties": {"ms": {"type": "integer"}}}),
        |v: Value| async move {
            let ms = v["ms"].as_u64().unwrap_or(0);
            tokio::time::sleep(Duration::from_millis(ms)).await;
            Ok(json!({"slept": ms}))
        },
    )
}

/// `flaky.call({})`: fails the first two calls, then succeeds.
fn flaky() -> Tool {
    let n = Arc::new(Mutex::new(0));
    Tool::new(
        "Fails twice.",
        json!({"type": "object"}),
        move |_: Value| {
            let n = n.clone();
            async move {
                let k = {
                    let mut g = n.lock().unwrap();
                    *g += 1;
                    *g
                };
                if k <= 2 {
                    return Err(ToolError::new(format!("attempt {k} failed")));
                }
                Ok(json!({"attempt": k}))
            }
        },
    )
}

fn runtime(timeout_ms: u64) -> CodeMode {
    CodeMode::builder()
        .language(Language::JavaScript)
        .tool("util.echo", echo())
        .tool("orders.get", orders())
        .tool("pages.list", pages())
        .tool("slow.sleep", sleeper())
        .tool("flaky.call", flaky())
        .tool("context7.resolve-library-id", echo())
        .limits(Limits::default().with_timeout_ms(timeout_ms).unwrap())
        .build()
        .unwrap()
}

#[tokio::test]
async fn fan_out_with_promise_all_over_twenty_ids() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "const ids = Array.from({ length: 20 }, (_, i) => i + 1);\n\
             const rows = await Promise.all(ids.map((id) => tools.orders.get({ id })));\n\
             return rows.reduce((s, r) => s + r.total, 0);",
        )
        .await;
    assert_eq!(r.value(), Some(&json!(2100)), "{}", r.to_json_string());
    assert_eq!(r.tool_calls.len(), 20);
    let ids: Vec<Value> = r.tool_calls.iter().map(|c| c.input["id"].clone()).collect();
    assert_eq!(ids, (1..=20).map(|i| json!(i)).collect::<Vec<_>>());
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Success)
    );
}

#[tokio::test]
async fn all_settled_with_some_failures() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "const rs = await Promise.allSettled([1, 200, 3, 400].map((id) => tools.orders.get({ id })));\n\
             return rs.map((r) => r.status === 'fulfilled' ? r.value.total : [r.reason.name, r.reason.kind, r.reason.message]);",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            10,
            ["ToolError", "ToolFailure", "no order 200"],
            30,
            ["ToolError", "ToolFailure", "no order 400"]
        ])),
        "{}",
        r.to_json_string()
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[tokio::test]
async fn race_against_a_timeout_like_tool() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "const winner = await Promise.race([\n\
               tools.slow.sleep({ ms: 2000 }).then(() => 'slow'),\n\
               tools.slow.sleep({ ms: 10 }).then(() => 'timeout'),\n\
             ]);\n\
             return winner;",
        )
        .await;
    assert_eq!(r.value(), Some(&json!("timeout")), "{}", r.to_json_string());
    // The loser was still running when the program ended.
    let st: Vec<ToolCallStatus> = r.tool_calls.iter().map(|c| c.status).collect();
    assert_eq!(
        st,
        vec![ToolCallStatus::Interrupted, ToolCallStatus::Success]
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[tokio::test]
async fn pagination_loop_and_retry_with_try_catch() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "const all = [];\n\
             let cursor = 0;\n\
             while (cursor !== undefined) {\n\
               const page = await tools.pages.list({ cursor });\n\
               all.push(...page.items);\n\
               cursor = page.next;\n\
             }\n\
             let result, errors = [];\n\
             for (let i = 0; i < 5; i++) {\n\
               try { result = await tools.flaky.call({}); break; }\n\
               catch (e) { errors.push(e.message); }\n\
             }\n\
             return { all, result, errors };",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!({
            "all": [0, 1, 2, 3, 4, 5],
            "result": {"attempt": 3},
            "errors": ["attempt 1 failed", "attempt 2 failed"]
        })),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls.len(), 6);
}

#[tokio::test]
async fn concurrent_calls_take_about_one_sleep() {
    let cm = runtime(10_000);
    let t = Instant::now();
    let r = cm
        .execute(
            "const rs = await Promise.all(Array.from({ length: 8 }, () => tools.slow.sleep({ ms: 200 })));\n\
             return rs.length;",
        )
        .await;
    let took = t.elapsed();
    assert_eq!(r.value(), Some(&json!(8)), "{}", r.to_json_string());
    // Eight 200 ms sleeps run together: far less than the 1.6 s they take in sequence.
    assert!(took < Duration::from_millis(1_200), "{took:?}");
}

/// What a gated tool saw: handlers running now and at most, and the order they started.
#[derive(Default)]
struct Probe {
    running: usize,
    most: usize,
    starts: Vec<u64>,
}

fn gated(probe: Arc<Mutex<Probe>>, hold_ms: u64) -> Tool {
    Tool::new(
        "Waits.",
        json!({"type": "object", "properties": {"i": {"type": "integer"}}}),
        move |v: Value| {
            let probe = probe.clone();
            async move {
                let i = v["i"].as_u64().unwrap();
                {
                    let mut p = probe.lock().unwrap();
                    p.running += 1;
                    p.most = p.most.max(p.running);
                    p.starts.push(i);
                }
                if hold_ms == 0 {
                    futures::future::pending::<()>().await;
                }
                tokio::time::sleep(Duration::from_millis(hold_ms)).await;
                probe.lock().unwrap().running -= 1;
                Ok(json!({ "i": i }))
            }
        },
    )
}

#[tokio::test]
async fn eight_live_calls_and_the_ninth_starts_first_in_first_out() {
    let probe = Arc::new(Mutex::new(Probe::default()));
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("gated.wait", gated(probe.clone(), 30))
        .build()
        .unwrap();
    let r = cm
        .execute(
            "const ps = [];\n\
             for (let i = 0; i < 12; i++) ps.push(tools.gated.wait({ i }));\n\
             return (await Promise.all(ps)).map((r) => r.i);",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!((0..12).collect::<Vec<_>>())),
        "{}",
        r.to_json_string()
    );
    let p = probe.lock().unwrap();
    assert_eq!(p.most, 8);
    assert_eq!(p.starts, (0..12).collect::<Vec<u64>>());
}

#[tokio::test]
async fn unawaited_calls_end_interrupted_without_warnings() {
    let probe = Arc::new(Mutex::new(Probe::default()));
    let after = Arc::new(Mutex::new(Vec::new()));
    let seen = after.clone();
    let hooks = FnHooks::new().tool_after(move |_, input, outcome| {
        seen.lock()
            .unwrap()
            .push((input["i"].as_u64().unwrap(), outcome.label()));
    });
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("gated.wait", gated(probe, 0))
        .hooks(hooks)
        .build()
        .unwrap();
    let r = cm
        .execute("for (let i = 0; i < 20; i++) tools.gated.wait({ i });\nreturn 'left them';")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!("left them")),
        "{}",
        r.to_json_string()
    );
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert_eq!(r.tool_calls.len(), 20);
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Interrupted)
    );
    let mut a = after.lock().unwrap().clone();
    a.sort();
    assert_eq!(a, (0..20).map(|i| (i, "interrupted")).collect::<Vec<_>>());
}

#[tokio::test]
async fn an_unawaited_rejection_becomes_a_warning() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "tools.orders.get({ id: 500 });\n\
             const ok = await tools.orders.get({ id: 2 });\n\
             await tools.util.echo({});\n\
             return ok.total;",
        )
        .await;
    assert_eq!(r.value(), Some(&json!(20)), "{}", r.to_json_string());
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert_eq!(r.warnings[0].kind, DiagnosticKind::ToolFailure);
    assert!(
        r.warnings[0]
            .message
            .starts_with("Unhandled rejection from an un-awaited promise: no order 500"),
        "{}",
        r.warnings[0].message
    );
    // Observed rejections never warn.
    let r = cm
        .execute(
            "const p = tools.orders.get({ id: 500 });\n\
             p.catch(() => {});\n\
             try { await tools.orders.get({ id: 600 }); } catch (e) {}\n\
             return 1;",
        )
        .await;
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
}

#[tokio::test]
async fn an_uncaught_tool_error_keeps_its_kind() {
    let cm = runtime(10_000);
    let r = cm.execute("await tools.orders.get({ id: 999 });").await;
    let e = r.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::ToolFailure);
    assert_eq!(e.message, "no order 999");
    let r = cm.execute("return await tools.orders.get({});").await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::InvalidToolInput);
}

/// Every error a tool call ends the run with names the line and column of the call: a tool's
/// failure, input the schema refuses, input that cannot cross (a function, a cycle), an
/// unknown tool, and a timeout while the call is awaited; an unawaited rejection's warning too.
#[tokio::test]
async fn tool_call_errors_are_located_at_the_call() {
    let cm = runtime(300);
    let cases: &[(&str, DiagnosticKind, u32, u32)] = &[
        (
            "const a = 1;\nconst o = await tools.orders.get({ id: 999 });",
            DiagnosticKind::ToolFailure,
            2,
            17,
        ),
        (
            "const a = 1;\n\n  return await tools.orders.get({});",
            DiagnosticKind::InvalidToolInput,
            3,
            16,
        ),
        (
            "const a = 1;\nawait tools.util.echo({ f() {} });",
            DiagnosticKind::InvalidDataValue,
            2,
            7,
        ),
        (
            "const c = {};\nc.self = c;\nconst p = tools.util.echo(c);\nawait p;",
            DiagnosticKind::InvalidDataValue,
            3,
            11,
        ),
        (
            "const a = 1;\nawait tools.orders.gett({ id: 1 });",
            DiagnosticKind::UnknownTool,
            2,
            7,
        ),
        (
            "const a = 1;\nconst s = await tools.slow.sleep({ ms: 5000 });",
            DiagnosticKind::TimeoutExceeded,
            2,
            17,
        ),
        (
            "async function f() {\n  return await tools.orders.get({ id: 700 });\n}\nawait f();",
            DiagnosticKind::ToolFailure,
            2,
            16,
        ),
    ];
    for (src, kind, line, column) in cases {
        let r = cm.execute(src).await;
        let e = r
            .error()
            .unwrap_or_else(|| panic!("{src}: {}", r.to_json_string()));
        assert_eq!(e.kind, *kind, "{src}: {}", r.to_json_string());
        let at = e.location.map(|l| (l.line, l.column));
        assert_eq!(at, Some((*line, *column)), "{src}: {}", r.to_json_string());
    }
    let r = cm
        .execute("const a = 1;\n  tools.orders.get({ id: 500 });\nawait tools.util.echo({});")
        .await;
    assert_eq!(r.warnings.len(), 1, "{}", r.to_json_string());
    let at = r.warnings[0].location.map(|l| (l.line, l.column));
    assert_eq!(at, Some((2, 3)), "{}", r.to_json_string());
}

/// What cannot cross to a tool refuses the call, naming the path: a symbol (which the
/// result would drop), a promise not awaited, an iterator. No call reaches the tool.
#[tokio::test]
async fn inputs_refuse_symbols_promises_and_iterators() {
    let cm = runtime(10_000);
    let cases = [
        (
            "await tools.util.echo({ tag: Symbol('x') });",
            "input.tag is a symbol",
        ),
        (
            "const a = tools.orders.get({ id: 1 });\nawait tools.util.echo({ order: a });",
            "input.order is a promise (a call that was not awaited)",
        ),
        (
            "await tools.util.echo({ ids: [1, 2].values() });",
            "input.ids is an iterator",
        ),
    ];
    for (src, want) in cases {
        let r = cm.execute(src).await;
        let e = r
            .error()
            .unwrap_or_else(|| panic!("{src}: {}", r.to_json_string()));
        assert_eq!(e.kind, DiagnosticKind::InvalidDataValue, "{src}");
        assert!(e.message.starts_with(want), "{src}: {}", e.message);
        assert!(e.message.contains("pass plain data"), "{}", e.message);
        let echo: Vec<_> = r
            .tool_calls
            .iter()
            .filter(|c| c.name == "util.echo")
            .collect();
        assert_eq!(echo.len(), 1, "{}", r.to_json_string());
        assert_eq!(
            echo[0].status,
            ToolCallStatus::Failure,
            "{}",
            r.to_json_string()
        );
    }
    // The result drops a symbol as JSON.stringify does.
    let r = cm.execute("return { a: 1, s: Symbol('x') };").await;
    assert_eq!(r.value(), Some(&json!({"a": 1})), "{}", r.to_json_string());
}

/// An input crosses as `JSON.stringify` writes it: `toJSON` (a Date, a URL, a user method,
/// with its key) and getters apply, each getter read once; one that throws makes the call
/// throw before it starts. The same for a synchronous and an asynchronous extension.
#[tokio::test]
async fn inputs_apply_to_json_and_getters_once() {
    let kv = Extension::new("kv")
        .function("put", |args: Vec<Value>| async move { Ok(json!(args)) })
        .async_function("later", |args: Vec<Value>| async move { Ok(json!(args)) });
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("util.echo", echo())
        .extension(kv)
        .build()
        .unwrap();
    let r = cm
        .execute(
            "let reads = 0;\n\
             const rec = { get total() { reads++; return 7; }, items: [{ get n() { reads++; return reads; } }] };\n\
             const when = new Date(Date.UTC(2024, 1, 29, 12));\n\
             const a = await tools.util.echo({ when, url: new URL('https://x.dev/a?b=1'), rec,\n\
               tag: { toJSON(k) { return 'key:' + k; } } });\n\
             const b = kv.put(when, { rec });\n\
             const c = await kv.later({ toJSON() { return [1, 2]; } });\n\
             return { a, b, c, reads };",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!({
            "a": {"when": "2024-02-29T12:00:00.000Z", "url": "https://x.dev/a?b=1",
                  "rec": {"total": 7, "items": [{"n": 2}]}, "tag": "key:tag"},
            "b": ["2024-02-29T12:00:00.000Z", {"rec": {"total": 7, "items": [{"n": 4}]}}],
            "c": [[1, 2]],
            "reads": 4
        })),
        "{}",
        r.to_json_string()
    );
    assert_eq!(
        r.tool_calls[0].input,
        json!({"when": "2024-02-29T12:00:00.000Z", "url": "https://x.dev/a?b=1",
               "rec": {"total": 7, "items": [{"n": 2}]}, "tag": "key:tag"})
    );
    // A getter that throws: the call throws that error, catchable, and never starts.
    let r = cm
        .execute(
            "try { await tools.util.echo({ get bad() { throw new Error('no total'); } }); }\n\
             catch (e) { return e.message; }",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!("no total")),
        "{}",
        r.to_json_string()
    );
    assert!(r.tool_calls.is_empty(), "{}", r.to_json_string());
    // A function is still refused, with its path, after toJSON ran on the rest.
    let r = cm
        .execute("await tools.util.echo({ when: new Date(0), f() {} });")
        .await;
    let e = r.error().expect("refused");
    assert_eq!(e.kind, DiagnosticKind::InvalidDataValue);
    assert!(
        e.message.starts_with("input.f is a function"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn a_timeout_with_calls_in_flight_keeps_every_record() {
    let probe = Arc::new(Mutex::new(Probe::default()));
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("gated.wait", gated(probe.clone(), 0))
        .limits(Limits::default().with_timeout_ms(150).unwrap())
        .build()
        .unwrap();
    let t = Instant::now();
    let r = cm
        .execute(
            "const ps = [];\n\
             for (let i = 0; i < 12; i++) ps.push(tools.gated.wait({ i }));\n\
             await Promise.all(ps);",
        )
        .await;
    assert!(
        t.elapsed() < Duration::from_millis(2_000),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.tool_calls.len(), 12);
    for (i, c) in r.tool_calls.iter().enumerate() {
        assert_eq!(c.status, ToolCallStatus::Interrupted);
        assert_eq!(c.input, json!({ "i": i }));
    }
    assert_eq!(probe.lock().unwrap().starts.len(), 8);
}

#[tokio::test]
async fn microtask_loops_hit_the_deadline() {
    let cm = runtime(200);
    let t = Instant::now();
    let r = cm.execute("for (;;) await null;").await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert!(
        t.elapsed() < Duration::from_millis(3_000),
        "{:?}",
        t.elapsed()
    );
    let r = cm
        .execute(
            "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
        )
        .await;
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::TimeoutExceeded,
        "{}",
        r.to_json_string()
    );
}

#[tokio::test]
async fn waiting_for_what_can_never_settle_fails_at_once() {
    let cm = runtime(30_000);
    let t = Instant::now();
    let r = cm
        .execute("const v = 1;\nawait new Promise(() => {});\nreturn v;")
        .await;
    assert!(
        t.elapsed() < Duration::from_millis(2_000),
        "{:?}",
        t.elapsed()
    );
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert!(e.message.contains("can never settle"), "{}", e.message);
    assert_eq!(e.location.map(|l| l.line), Some(2));
}

#[tokio::test]
async fn search_is_synchronous_and_can_be_awaited() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "const page = search({ query: 'order' });\n\
             const again = await search({ query: 'order' });\n\
             return [Array.isArray(page.items) || typeof page === 'object', JSON.stringify(page) === JSON.stringify(again)];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([true, true])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls.len(), 2);
}

#[tokio::test]
async fn the_tools_namespace_is_stable_enumerable_and_bracketed() {
    let cm = runtime(10_000);
    let r = cm
        .execute(
            "return [tools.orders === tools.orders, tools.orders.get === tools.orders.get,\n\
             Object.keys(tools.orders), Object.keys(tools).sort(), typeof tools, typeof tools.orders.get,\n\
             (await tools.context7['resolve-library-id']({ q: 1 })).q];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            true,
            true,
            ["get"],
            [
                "context7", "flaky", "orders", "pages", "search", "slow", "util"
            ],
            "object",
            "function",
            1
        ])),
        "{}",
        r.to_json_string()
    );
}

#[tokio::test]
async fn an_unknown_tool_rejects_with_the_hosts_error() {
    let cm = runtime(10_000);
    let r = cm
        .execute("return await tools.orders.gte({ id: 1 });")
        .await;
    let e = r.error().expect("an error");
    assert_eq!(
        e.kind,
        DiagnosticKind::UnknownTool,
        "{}",
        r.to_json_string()
    );
    assert!(
        e.message.contains("did you mean tools.orders.get")
            || e.suggestions.iter().any(|s| s.contains("orders.get")),
        "{}",
        r.to_json_string()
    );
    // Catchable, with the kind on the error.
    let r = cm
        .execute("try { await tools.nope.x({}); } catch (e) { return [e.name, e.kind]; }")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!(["ToolError", "UnknownTool"])),
        "{}",
        r.to_json_string()
    );
}

#[tokio::test]
async fn extensions_are_synchronous_globals() {
    let kv = Extension::new("kv").function("get", |args: Vec<Value>| async move {
        match args.first().and_then(Value::as_str) {
            Some("answer") => Ok(json!(42)),
            Some(k) => Err(ToolError::new(format!("no key '{k}'"))),
            None => Err(ToolError::new("kv.get(key) needs a key")),
        }
    });
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .extension(kv)
        .build()
        .unwrap();
    let r = cm
        .execute(
            "const a = kv.get('answer');\n\
             let b;\n\
             try { kv.get('question'); } catch (e) { b = e.message; }\n\
             return [a + 1, b];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([43, "no key 'question'"])),
        "{}",
        r.to_json_string()
    );
}

#[tokio::test]
async fn a_result_returned_as_a_promise_is_awaited() {
    let cm = runtime(10_000);
    let r = cm.execute("return tools.orders.get({ id: 4 });").await;
    assert_eq!(
        r.value(),
        Some(&json!({"id": 4, "total": 40})),
        "{}",
        r.to_json_string()
    );
    let r = cm
        .execute("async function f() { return (await tools.orders.get({ id: 5 })).total; }\nf()")
        .await;
    assert_eq!(r.value(), Some(&json!(50)), "{}", r.to_json_string());
}

#[tokio::test]
async fn an_async_extension_returns_a_promise_and_a_denial_rejects_it() {
    let web = Extension::async_global_function("fetchish", |args: Vec<Value>| async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        Ok(json!({ "url": args.first().cloned().unwrap_or(Value::Null) }))
    });
    let hooks = FnHooks::new().extension_before(|name, args| {
        if args[0].as_str() == Some("forbidden") {
            Err(format!("{name} may not fetch that"))
        } else {
            Ok(())
        }
    });
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .extension(web)
        .hooks(hooks)
        .build()
        .unwrap();
    let r = cm
        .execute(
            "const p = fetchish('a');\n\
             const isPromise = p instanceof Promise;\n\
             const [a, b] = await Promise.all([p, fetchish('b')]);\n\
             const denied = await fetchish('forbidden').then(() => 'no', (e) => e.message);\n\
             return [isPromise, a.url, b.url, denied];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([true, "a", "b", "fetchish may not fetch that"])),
        "{}",
        r.to_json_string()
    );
}

#[tokio::test]
async fn a_result_before_slow_cleanup_stays_successful_with_a_timeout_warning() {
    let probe = Arc::new(Mutex::new(Probe::default()));
    /// An `after` hook that takes 400 ms.
    struct SlowAfter;
    impl codemode::Hooks for SlowAfter {
        fn tool_after<'a>(
            &'a self,
            _: &'a str,
            _: &'a Value,
            _: &'a codemode::CallOutcome,
        ) -> futures::future::BoxFuture<'a, ()> {
            Box::pin(async {
                tokio::time::sleep(Duration::from_millis(400)).await;
            })
        }
    }
    let hooks = SlowAfter;
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("gated.wait", gated(probe, 0))
        .hooks(hooks)
        .limits(Limits::default().with_timeout_ms(150).unwrap())
        .build()
        .unwrap();
    let r = cm
        .execute("tools.gated.wait({ i: 1 });\nreturn 'early';")
        .await;
    assert_eq!(r.value(), Some(&json!("early")), "{}", r.to_json_string());
    assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
    assert_eq!(r.warnings[0].kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
}
