//! Adversarial suite for the JavaScript guest (issue 15; feature `js`): hostile programs of every
//! class through the host `CodeMode` API, under the shared harness of `adversarial.rs` (each run
//! ends with the right diagnostic within `timeout_ms` + 100 ms, under 64 MiB of accounted memory,
//! with bounded resident-set growth, and no inline stretch holding the async thread).
#![cfg(feature = "js")]

mod adversarial_support;

use adversarial_support::*;
use codemode::{DiagnosticKind, Language, ToolCallStatus};
use serde_json::json;

async fn js(source: &str) -> Run {
    run_with_in(
        Language::JavaScript,
        source,
        limits(TIMEOUT_MS, Some(MEMORY)),
    )
    .await
}

/// A run that may end either way: with the program's own value (our engine or bound made it
/// cheap) or at the deadline; never with another error.
fn value_or_timeout(r: &Run, value: serde_json::Value) {
    match r.result.error() {
        Some(e) => assert_eq!(e.kind, DiagnosticKind::TimeoutExceeded, "{}", e.message),
        None => assert_eq!(r.value(), &value),
    }
}

async fn js_loop(source: &str) -> Run {
    run_with_in(
        Language::JavaScript,
        source,
        limits(LOOP_TIMEOUT_MS, Some(MEMORY)),
    )
    .await
}

// ----- infinite loops and microtask loops: TimeoutExceeded at the deadline -------------------

#[tokio::test]
async fn loop_for_ever() {
    js_loop("for (;;) {}").await.times_out();
    js_loop("while (true) { try { throw 1 } catch {} }")
        .await
        .times_out();
    js_loop("let i = 0; do { i = (i + 1) | 0 } while (i !== -1 || true)")
        .await
        .times_out();
}

#[tokio::test]
async fn loop_in_generators_and_closures() {
    js_loop("function* g() { for (;;) yield 1 } for (const x of g()) {}")
        .await
        .times_out();
    js_loop("const f = () => f; let g = f; for (;;) g = g()")
        .await
        .times_out();
}

#[tokio::test]
async fn loop_of_microtasks() {
    js_loop("for (;;) await null;").await.times_out();
    // Each promise waits on the next: a chain that only grows (node's too). The deadline or
    // the memory limit ends it, whichever comes first.
    let r = js_loop(
        "const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {});",
    )
    .await;
    let e = r.result.error().expect("an error");
    assert!(
        e.kind == DiagnosticKind::TimeoutExceeded || e.message.contains("memory limit"),
        "{}",
        e.message
    );
    // Garbage only: the deadline.
    js_loop("for (;;) await Promise.resolve([1, 2, 3]);")
        .await
        .times_out();
    js_loop("const f = () => queueMicrotask(f); f(); await new Promise(() => {});")
        .await
        .times_out();
    js_loop("async function* g() { for (;;) yield 1 } for await (const x of g()) {}")
        .await
        .times_out();
}

#[tokio::test]
async fn loop_inside_a_sort_comparator_and_callbacks() {
    js_loop("[3, 2, 1].sort(() => { for (;;) {} })")
        .await
        .times_out();
    js_loop("[1].map(() => { for (;;) {} })").await.times_out();
    js_loop("JSON.parse('[1]', () => { for (;;) {} })")
        .await
        .times_out();
    js_loop("'abc'.replace(/b/, () => { for (;;) {} })")
        .await
        .times_out();
}

#[tokio::test]
async fn loop_awaiting_a_tool_that_never_answers() {
    let r = js_loop("await tools.t.hang({});").await;
    r.times_out();
    assert_eq!(r.result.tool_calls.len(), 1);
    assert_eq!(r.result.tool_calls[0].status, ToolCallStatus::Interrupted);
}

// ----- deep recursion: a catchable RangeError, never a host stack overflow -------------------

#[tokio::test]
async fn recursion_overflows_the_guest_stack() {
    js("function f(n) { return f(n + 1) + 1 } f(0)")
        .await
        .fails(
            DiagnosticKind::ExecutionFailure,
            "RangeError: Maximum call stack size exceeded",
        );
    let r =
        js("function f() { return f() } try { f() } catch (e) { return e instanceof RangeError }")
            .await;
    assert_eq!(r.value(), &json!(true));
    // Through getters, valueOf, toString, toJSON and async functions.
    js("const o = { get x() { return this.x } }; return o.x")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
    js("const o = { valueOf() { return o + 1 } }; return o + 1")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
    js("const o = { toString() { return `${o}` } }; return String(o)")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
    js("const o = { toJSON() { return JSON.stringify(o) } }; return JSON.stringify(o)")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
    js("async function f() { return await f() } await f()")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
    js("function f() { return [1].map(f) } f()")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
}

// ----- memory: the limit ends the run (uncatchable), or the spec's RangeError -----------------

#[tokio::test]
async fn memory_string_doubling() {
    let r = js("let s = 'x'; for (;;) s += s;").await;
    let e = r.result.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert!(
        e.message.contains("memory limit") || e.message.contains("Invalid string length"),
        "{}",
        e.message
    );
    js("return 'x'.repeat(2 ** 30)")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Invalid string length");
    js("return 'ab'.padEnd(2 ** 31)")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Invalid string length");
}

#[tokio::test]
async fn memory_array_growth() {
    js("const a = []; for (;;) a.push(a.length);")
        .await
        .out_of_memory();
    js("const a = []; for (let i = 0; ; i++) a[i] = { i, s: 'v' + i };")
        .await
        .out_of_memory();
    js("let a = [1]; for (;;) a = a.concat(a);")
        .await
        .out_of_memory();
    js("const m = new Map(); for (let i = 0; ; i++) m.set(i, [i]);")
        .await
        .out_of_memory();
}

/// A split into millions of pieces and a matchAll over millions of positions: the pieces are
/// charged as they are cut (the limit ends the split long before its pieces are all made), and
/// the iterator finds a match only when asked.
#[tokio::test]
async fn memory_split_and_match_all_stay_bounded() {
    js("return 'ab'.repeat(8e6).split('').length")
        .await
        .out_of_memory();
    js("return 'ab,'.repeat(5e6).split(',').length")
        .await
        .out_of_memory();
    let r =
        js("const it = 'x'.repeat(2e6).matchAll(/(?:)/g); it.next(); return it.next().value.index")
            .await;
    assert_eq!(r.value(), &json!(1));
}

/// A URLSearchParams pair is charged what it holds (its list slot with the list's spare room,
/// and each string's allocation: about 130 bytes for `k=v`), and a parsed query is checked as
/// its pairs are made: a million appends, or a 4 MB query, pass the 64 MiB limit.
#[tokio::test]
async fn memory_url_search_params_pairs_are_charged() {
    js("const p = new URLSearchParams(); for (let i = 0; i < 1e6; i++) p.append('k', 'v'); return p.size")
        .await
        .out_of_memory();
    js("return new URLSearchParams('a=1&'.repeat(1e6)).size")
        .await
        .out_of_memory();
}

/// Ropes sharing one long rope are charged what they write out when read: 200 strings of
/// 14 MB over one 14 MB rope end at the limit (they reached 2.9 GB RSS under 64 MiB before
/// the charge).
#[tokio::test]
async fn memory_ropes_written_out_are_charged() {
    js("let big = ''; for (let i = 0; i < 400000; i++) big += 'abcdefghijklmnopqrstuvwxyz0123456789';
const keep = []; for (let i = 0; i < 200; i++) keep.push(big + i);
let n = 0; for (const y of keep) n += y.charCodeAt(y.length - 1); return n")
        .await
        .out_of_memory();
    // An endless append loop meets the string length bound (2^24 units), as in node.
    js("let s = ''; for (;;) s += 'x'.repeat(1000);")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Invalid string length");
}

#[tokio::test]
async fn memory_huge_array_fill() {
    js("return Array(1e9).fill(0).length").await.out_of_memory();
    js("return new Array(2 ** 32)").await.fails(
        DiagnosticKind::ExecutionFailure,
        "RangeError: Invalid array length",
    );
    // A callback per element: the memory limit, or the deadline on a slow machine.
    let r = js("return Array.from({ length: 1e9 }, (_, i) => i).length").await;
    let e = r.result.error().expect("an error");
    assert!(
        e.message.contains("memory limit") || e.kind == DiagnosticKind::TimeoutExceeded,
        "{}",
        e.message
    );
    // A large sparse array stays small.
    let r = js("const a = []; a[4e9] = 1; return a.length").await;
    assert_eq!(r.value(), &json!(4e9 as u64 + 1));
}

#[tokio::test]
async fn memory_limit_is_not_catchable() {
    let r =
        js("try { const a = []; for (;;) a.push('x' + a.length) } catch (e) { return 'caught' }")
            .await;
    r.out_of_memory();
}

// ----- JSON: deep and cyclic data -------------------------------------------------------------

#[tokio::test]
async fn json_deep_and_cyclic() {
    js("let o = {}; for (let i = 0; i < 1e5; i++) o = { o }; return JSON.stringify(o).length")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "RangeError");
    js("let o = {}; for (let i = 0; i < 1e6; i++) o = { o }; return 1")
        .await
        .out_of_memory();
    js("const o = {}; o.self = o; return JSON.stringify(o)")
        .await
        .fails(
            DiagnosticKind::ExecutionFailure,
            "TypeError: Converting circular structure to JSON",
        );
    js("return JSON.parse('['.repeat(1e6) + ']'.repeat(1e6))")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "");
    // As the result: the data rules name the path.
    js("const o = { a: {} }; o.a.b = o; return o").await.fails(
        DiagnosticKind::InvalidDataValue,
        "result.a.b contains a circular value",
    );
    js("let o = {}; for (let i = 0; i < 1000; i++) o = { o }; return o")
        .await
        .fails(DiagnosticKind::InvalidDataValue, "nests deeper than");
}

/// Shared references (a DAG) stand for a copy exponentially larger than the program's memory:
/// as a tool input, a `search` argument or the result, the export stops at 64 MiB of data with
/// InvalidDataValue, long before the deadline, and the call stays in the record.
#[tokio::test]
async fn shared_references_exploding_at_the_boundary() {
    let dag = "let a = [{}]; for (let i = 0; i < 40; i++) a = [a, a];";
    let too_large = "is too large to cross to the host (more than 67108864 bytes of data";
    let r = js(&format!("{dag}\nreturn await tools.t.echo({{ a }});")).await;
    r.fails(
        DiagnosticKind::InvalidDataValue,
        &format!("input {too_large}"),
    );
    assert_eq!(r.result.tool_calls.len(), 1);
    assert_eq!(r.result.tool_calls[0].status, ToolCallStatus::Failure);
    let r = js(&format!(
        "{dag}\ntry {{ await tools.t.echo({{ a }}); }} catch (e) {{ return e.message; }}"
    ))
    .await;
    assert!(
        r.value()
            .as_str()
            .is_some_and(|m| m.starts_with(&format!("input {too_large}"))),
        "{:?}",
        r.value()
    );
    js(&format!("{dag}\nreturn search({{ query: 'x', a }});"))
        .await
        .fails(DiagnosticKind::InvalidDataValue, too_large);
    js(&format!("{dag}\nreturn a;")).await.fails(
        DiagnosticKind::InvalidDataValue,
        &format!("result {too_large}"),
    );
}

// ----- regular expressions: bombs end at the deadline ------------------------------------------

#[tokio::test]
async fn regex_bombs() {
    // Exponential for a plain backtracker (node takes minutes to hours on these).
    for src in [
        "return /^(a+)+$/.test('a'.repeat(40) + 'b')",
        "return /^(a|a)*$/.test('a'.repeat(60) + 'b')",
        "return /(?<=(a+)+)b/.test('a'.repeat(5000) + 'c')",
        "return /^(\\w+\\s?)*$/.test('word '.repeat(30) + '!')",
        "return /(x+x+)+y/.test('x'.repeat(5000))",
        "return /^(([a-z])+.)+[A-Z]([a-z])+$/.test('a'.repeat(40) + '!')",
    ] {
        value_or_timeout(&js_loop(src).await, json!(false));
    }
    // The same bombs through the String methods, with a global flag.
    value_or_timeout(
        &js_loop("return 'a'.repeat(40).replace(/(a|a)*b/g, 'x').length").await,
        json!(40),
    );
    js("return new RegExp('('.repeat(100000))")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "SyntaxError");
}

// ----- promises: storms and many pending --------------------------------------------------------

#[tokio::test]
async fn promise_storms() {
    let r = js("for (;;) new Promise(() => {});").await;
    let e = r.result.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure, "{}", e.message);
    assert!(
        e.message.contains("memory limit") || e.message.contains("too many pending promises"),
        "{}",
        e.message
    );
    let r = js("let p = Promise.resolve(); for (;;) p = p.then(() => {});").await;
    let e = r.result.error().expect("an error");
    assert!(
        e.message.contains("memory limit") || e.message.contains("too many pending promises"),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn promises_10_to_the_5_pending_and_settled() {
    let r = js("const ps = []; for (let i = 0; i < 1e5; i++) ps.push(new Promise(() => {})); return ps.length").await;
    assert_eq!(r.value(), &json!(100000));
    // Real data work: room enough (256 MiB, 10 s) for 10^5 promises through Promise.all.
    let r = run_with_in(
        Language::JavaScript,
        "const xs = await Promise.all(Array.from({ length: 1e5 }, (_, i) => Promise.resolve(i))); return xs.length + xs[99999]",
        limits(10_000, Some(256 << 20)),
    )
    .await;
    assert_eq!(r.value(), &json!(199999));
}

// ----- getters that throw or loop, in the result -------------------------------------------------

#[tokio::test]
async fn getters_that_throw_or_loop() {
    js("return { get x() { throw new Error('boom') } }")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Error: boom");
    js_loop("return { get x() { for (;;) {} } }")
        .await
        .times_out();
    js("return { toJSON() { throw new TypeError('no json') } }")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "TypeError: no json");
    js("const o = { get x() { return { ...o } } }; return o")
        .await
        .fails(DiagnosticKind::ExecutionFailure, "Maximum call stack size");
}

// ----- prototype pollution: no execution sees another's changes ---------------------------------

#[tokio::test]
async fn intrinsics_changed_by_one_execution_are_fresh_in_the_next() {
    let cm = runtime_in(Language::JavaScript, limits(TIMEOUT_MS, Some(MEMORY)));
    let r = cm
        .execute(
            "Array.prototype.map = () => 'pwned';\n\
             Object.prototype.polluted = 1;\n\
             JSON.stringify = () => 'x';\n\
             Promise.prototype.then = null;\n\
             globalThis.leak = 42;\n\
             delete Math.max;\n\
             Object.freeze(Array.prototype);\n\
             return [[1].map((x) => x), ({}).polluted];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!(["pwned", 1])),
        "{}",
        r.to_json_string()
    );
    let r = cm
        .execute(
            "const v = await tools.t.echo({ n: 1 });\n\
             return [[1].map((x) => x * 2), ({}).polluted ?? null, JSON.stringify({ a: 1 }),\n\
               typeof globalThis.leak, Math.max(1, 2), Object.isFrozen(Array.prototype), v.n];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([[2], null, "{\"a\":1}", "undefined", 2, false, 1])),
        "{}",
        r.to_json_string()
    );
}

// ----- tool references: what a program can and cannot do with them -------------------------------

#[tokio::test]
async fn tool_references_are_frozen_and_not_constructors() {
    let r = js("const f = tools.t.echo;\n\
         const g = f.bind(null, { b: 2 });\n\
         const kept = new Map([['k', tools.t.echo]]);\n\
         const out = [await f({ a: 1 }), await g(), await kept.get('k').call(null, { c: 3 })];\n\
         const errs = [];\n\
         for (const attempt of [\n\
           () => { tools.t = 1 },\n\
           () => { tools.t.echo = null },\n\
           () => { Object.defineProperty(tools, 'x', { value: 1 }) },\n\
           () => new tools.t.echo({}),\n\
           () => { delete tools.t },\n\
         ]) { try { attempt(); errs.push('no error') } catch (e) { errs.push(e.name) } }\n\
         return [out, errs, Object.isFrozen(tools), Object.keys(tools.t).sort()];")
    .await;
    assert_eq!(
        r.value(),
        &json!([
            [{"a": 1}, {"b": 2}, {"c": 3}],
            ["TypeError", "TypeError", "TypeError", "TypeError", "TypeError"],
            true,
            ["badoutput", "deep", "echo", "fail", "hang", "huge", "panic", "typed", "wide"]
        ])
    );
}

#[tokio::test]
async fn tool_results_that_are_too_large_or_deep_fail_cleanly() {
    js("return (await tools.t.deep({ depth: 100000 })).length")
        .await
        .fails(DiagnosticKind::InvalidToolOutput, "");
    let r = js("try { await tools.t.panic({}) } catch (e) { return [e.name, e.kind] }").await;
    assert_eq!(r.value(), &json!(["ToolError", "ToolFailure"]));
    // 100,000 distinct 300-byte strings (30 MB) against a 16 MiB cap: the import stops at the cap.
    run_with_in(
        Language::JavaScript,
        "const xs = await tools.t.wide({ n: 100000 }); return xs.length",
        limits(TIMEOUT_MS, Some(16 * 1024 * 1024)),
    )
    .await
    .out_of_memory();
}

#[tokio::test]
async fn many_calls_at_once_stay_within_the_open_call_bound() {
    let r = js("const ps = []; for (let i = 0; i < 100000; i++) ps.push(tools.t.echo({ i })); await Promise.all(ps); return 1").await;
    let e = r.result.error().expect("an error");
    assert_eq!(
        e.kind,
        DiagnosticKind::ToolCallLimitExceeded,
        "{}",
        e.message
    );
}

// ----- logs: a flood stays bounded -----------------------------------------------------------------

#[tokio::test]
async fn console_flood_is_cut_and_bounded() {
    let r = js_loop("for (;;) console.log('x'.repeat(10000));").await;
    r.times_out();
    assert!(r.result.truncated, "{:?}", r.result.logs.len());
}

// ----- source: size and nesting --------------------------------------------------------------------

#[tokio::test]
async fn source_nesting_and_size() {
    for (open, close) in [("(", ")"), ("[", "]"), ("{", "}"), ("f(", ")")] {
        let src = format!("return {}1{}", open.repeat(100_000), close.repeat(100_000));
        let r = js(&src).await;
        let e = r.result.error().expect("an error");
        assert_eq!(e.kind, DiagnosticKind::ParseError, "{open}: {}", e.message);
        assert!(e.message.contains("nesting"), "{open}: {}", e.message);
    }
    let src = format!("return '{}'", "x".repeat(20 * 1024 * 1024));
    let r = js(&src).await;
    let e = r.result.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::ParseError, "{}", e.message);
}
