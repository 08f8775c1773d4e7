//! The seed's own test suites as a checklist (issue 15, "How it is proven"): each behaviour the
//! seed's test files pin for the JavaScript guest and the host Result (the seed inventory, §11
//! and §2, §4, §6–§8), re-written as a table case: a program, the tools it runs over, and the
//! Result we expect, checked on real values (`ok`, value, logs, warnings, the error's kind,
//! message and location, and `toolCalls` names, inputs and statuses).
//!
//! Tables are grouped by the seed file the behaviour comes from. Each case says where its
//! expectation comes from ([`Oracle`]):
//! - `Node`: JavaScript defines the value; the expectation is what node 20 prints, and
//!   [`node_is_the_oracle`] runs every such case under node and checks it still agrees.
//! - `Seed`: a host rule of the seed's that we keep (Result shape, kinds, tool semantics).
//! - `Ours("...")`: we deliberately differ from the seed; the case asserts our behaviour and the
//!   text names the difference (listed in docs/javascript.md, "Deliberate differences from the
//!   seed").
//!
//! Two differences from node stand outside the tables (no test: they are listed as open in
//! docs/javascript.md): built-in iterators share one prototype, so `[object Array Iterator]`
//! tags are missing, and console never breaks a long object over several lines.
#![cfg(feature = "js")]

use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use codemode::{
    CodeMode, DiagnosticKind as K, ExecutionResult, Extension, FnHooks, Language, LimitName,
    Limits, Namespace, Tool, ToolCallStatus as S, ToolError,
};
use serde_json::{Value, json};

/// Where a case's expectation comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Oracle {
    /// JavaScript defines it: node 20's value (and `console.log` lines) are the expectation.
    Node,
    /// A host rule of the seed's that we keep.
    Seed,
    /// A deliberate difference from the seed, named.
    Ours(&'static str),
}
use Oracle::{Node, Ours, Seed};

/// What the Result must show. Unset parts are not checked.
#[derive(Default, Clone)]
struct Expect {
    value: Option<Value>,
    /// Kind and a fragment the message contains (or, with `exact`, equals).
    error: Option<(K, &'static str)>,
    exact: bool,
    /// `Some(None)`: no location; `Some(Some(..))`: that line and column.
    location: Option<Option<(u32, u32)>>,
    logs: Option<Vec<&'static str>>,
    /// Kind and message fragment of every warning, in order (the count must match).
    warnings: Option<Vec<(K, &'static str)>>,
    /// Name, input (when given) and status of every `toolCalls` entry, in order.
    calls: Option<Vec<(&'static str, Option<Value>, S)>>,
    truncated: Option<bool>,
}

fn ok(v: Value) -> Expect {
    Expect {
        value: Some(v),
        ..Expect::default()
    }
}

fn fails(kind: K, fragment: &'static str) -> Expect {
    Expect {
        error: Some((kind, fragment)),
        ..Expect::default()
    }
}

impl Expect {
    fn exactly(mut self) -> Self {
        self.exact = true;
        self
    }
    fn at(mut self, line: u32, column: u32) -> Self {
        self.location = Some(Some((line, column)));
        self
    }
    fn unlocated(mut self) -> Self {
        self.location = Some(None);
        self
    }
    fn logs(mut self, logs: &[&'static str]) -> Self {
        self.logs = Some(logs.to_vec());
        self
    }
    fn warns(mut self, w: &[(K, &'static str)]) -> Self {
        self.warnings = Some(w.to_vec());
        self
    }
    fn calls(mut self, c: &[(&'static str, S)]) -> Self {
        self.calls = Some(c.iter().map(|(n, s)| (*n, None, *s)).collect());
        self
    }
    fn call_inputs(mut self, c: Vec<(&'static str, Value, S)>) -> Self {
        self.calls = Some(c.into_iter().map(|(n, i, s)| (n, Some(i), s)).collect());
        self
    }
    fn truncated(mut self, t: bool) -> Self {
        self.truncated = Some(t);
        self
    }
}

/// One behaviour: a short name, the program, where the expectation comes from, and the Result.
struct Case {
    name: &'static str,
    src: &'static str,
    oracle: Oracle,
    want: Expect,
}

fn case(name: &'static str, src: &'static str, oracle: Oracle, want: Expect) -> Case {
    Case {
        name,
        src,
        oracle,
        want,
    }
}

/// Every way `r` differs from `w`, as readable lines.
fn mismatches(r: &ExecutionResult, w: &Expect) -> Vec<String> {
    let mut out = Vec::new();
    match (&r.outcome, &w.value, &w.error) {
        (Ok(v), Some(want), _) if v != want => out.push(format!("value {v} != {want}")),
        (Ok(_), None, Some(_)) => out.push("succeeded; wanted an error".into()),
        (Err(e), Some(_), _) => out.push(format!("failed: {e}")),
        (Err(e), _, Some((kind, frag))) => {
            if e.kind != *kind {
                out.push(format!("kind {:?} != {kind:?}", e.kind));
            }
            let good = if w.exact {
                e.message == *frag
            } else {
                e.message.contains(frag)
            };
            if !good {
                out.push(format!("message {:?} lacks {frag:?}", e.message));
            }
        }
        _ => {}
    }
    if let (Some(want), Err(e)) = (&w.location, &r.outcome) {
        let at = e.location.map(|l| (l.line, l.column));
        if at != *want {
            out.push(format!("location {at:?} != {want:?}"));
        }
    }
    if let Some(logs) = &w.logs
        && r.logs != *logs
    {
        out.push(format!("logs {:?} != {logs:?}", r.logs));
    }
    if let Some(ws) = &w.warnings {
        let got: Vec<(K, &str)> = r
            .warnings
            .iter()
            .map(|d| (d.kind, d.message.as_str()))
            .collect();
        let good = got.len() == ws.len()
            && got
                .iter()
                .zip(ws)
                .all(|((k, m), (wk, wm))| k == wk && m.contains(wm));
        if !good {
            out.push(format!("warnings {got:?} != {ws:?}"));
        }
    }
    if let Some(calls) = &w.calls {
        let good = r.tool_calls.len() == calls.len()
            && r.tool_calls.iter().zip(calls).all(|(c, (n, i, s))| {
                c.name == *n && c.status == *s && i.as_ref().is_none_or(|i| c.input == *i)
            });
        if !good {
            out.push(format!("toolCalls {:?} != {calls:?}", r.tool_calls));
        }
    }
    if let Some(t) = w.truncated
        && r.truncated != t
    {
        out.push(format!("truncated {} != {t}", r.truncated));
    }
    out
}

/// Runs every case and fails once, listing each case that did not hold.
async fn check(cm: &CodeMode, cases: &[Case]) {
    let mut bad = Vec::new();
    for c in cases {
        let r = cm.execute(c.src).await;
        let m = mismatches(&r, &c.want);
        if !m.is_empty() {
            bad.push(format!(
                "{}: {}\n    got {}",
                c.name,
                m.join("; "),
                r.to_json_string()
            ));
        }
    }
    assert!(bad.is_empty(), "{} case(s):\n{}", bad.len(), bad.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// The tools the tables run over.

fn echo() -> Tool {
    Tool::new(
        "Echo the input.",
        json!({"type": "object"}),
        |v| async move { Ok(v) },
    )
}

/// `orders.lookup({id})`: `o1` is an order; anything else is refused.
fn lookup() -> Tool {
    Tool::new(
        "Look up an order by id.",
        json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        |v: Value| async move {
            match v["id"].as_str() {
                Some("o1") => Ok(json!({"id": "o1", "status": "complete", "total": 30})),
                _ => Err(ToolError::new("Lookup refused")),
            }
        },
    )
}

fn refusing(message: &'static str) -> Tool {
    Tool::new("Refuses.", json!({"type": "object"}), move |_| async move {
        Err(ToolError::new(message))
    })
}

/// Fails with a host error (not a `ToolError`): the program never sees its text.
fn broken() -> Tool {
    Tool::new("Breaks.", json!({"type": "object"}), |_| async move {
        Err(ToolError::internal(std::io::Error::other(
            "Connection refused",
        )))
    })
}

fn hanging() -> Tool {
    Tool::new(
        "Never answers.",
        json!({"type": "object"}),
        |_| async move {
            futures::future::pending::<()>().await;
            Ok(Value::Null)
        },
    )
}

fn runtime_with(limits: Limits) -> CodeMode {
    CodeMode::builder()
        .language(Language::JavaScript)
        .tool("host.echo", echo())
        .tool("host.refuse", refusing("Authorized request was refused"))
        .tool("host.broken", broken())
        .tool("host.hang", hanging())
        .tool(
            "host.typed",
            Tool::new("Typed output.", json!({"type": "object"}), |_| async move {
                Ok(json!({"value": 1}))
            })
            .with_output_schema(json!({
                "type": "object",
                "properties": {"value": {"type": "string"}},
                "required": ["value"]
            })),
        )
        .tool("orders.lookup", lookup())
        .tool(
            "notes.echo",
            Tool::new(
                "Echo a note.",
                json!({"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}),
                |v| async move { Ok(v) },
            ),
        )
        .tool("context7.resolve-library-id", echo())
        .tool("api.issues.list", echo())
        .tool("issues", echo())
        .tool("issues.list", echo())
        .namespace(
            "workspace",
            Namespace::new().description("Workspace files and folders"),
        )
        .tool("workspace.read", echo())
        .tool("workspace.write", echo())
        .limits(limits)
        .build()
        .unwrap()
}

fn runtime() -> CodeMode {
    runtime_with(Limits::default().with_timeout_ms(5_000).unwrap())
}

// ---------------------------------------------------------------------------------------------
// codemode.test: the program model, the Result shape, console, truncation, tool failures,
// `search`, the data boundary.

fn codemode_cases() -> Vec<Case> {
    vec![
        case(
            "empty program",
            "   \n  ",
            Seed,
            fails(K::ParseError, "")
                .unlocated()
                .calls(&[]),
        ),
        case(
            "typescript annotations",
            "const value: number = 1; return value",
            Ours("the seed rejects TypeScript; we erase its types"),
            ok(json!(1)),
        ),
        case("last expression is the value", "1; 2", Seed, ok(json!(2)).calls(&[])),
        case(
            "a block's expression is not the value",
            "if (true) { 2 }",
            Seed,
            ok(json!(null)),
        ),
        case(
            "a trailing declaration gives null",
            "1; const value = 2",
            Seed,
            ok(json!(null)),
        ),
        case(
            "undefined fields dropped, undefined items null",
            "return { top: undefined, nested: [1, undefined] }",
            Node,
            ok(json!({"nested": [1, null]})),
        ),
        case("undefined result is null", "return undefined", Seed, ok(json!(null))),
        case("infinity is null", "return 5/0", Node, ok(json!(null))),
        case(
            "non-finite numbers are null",
            "return { a: Number('x'), b: 2, c: [1/0] }",
            Node,
            ok(json!({"a": null, "b": 2, "c": [null]})),
        ),
        case(
            "negative zero is zero",
            "return [-0, 0 * -1]",
            Node,
            ok(json!([0, 0])),
        ),
        case(
            "array holes are null",
            "return [1, , 3]",
            Node,
            ok(json!([1, null, 3])),
        ),
        case(
            "toJSON is honoured with its key",
            "return { when: { toJSON(k) { return 'key:' + k; } } }",
            Node,
            ok(json!({"when": "key:when"})),
        ),
        case(
            "a date is its ISO string",
            "return { d: new Date(0) }",
            Node,
            ok(json!({"d": "1970-01-01T00:00:00.000Z"})),
        ),
        case(
            "an invalid date is null",
            "return [new Date(NaN)]",
            Node,
            ok(json!([null])),
        ),
        case(
            "map and regexp are empty objects",
            "return { m: new Map([[1, 2]]), r: /a/g }",
            Node,
            ok(json!({"m": {}, "r": {}})),
        ),
        case(
            "a set is an empty object",
            "return { s: new Set([1, 2]) }",
            Ours("the seed turns a Set into an array at the host boundary; we give JSON.stringify's {}"),
            ok(json!({"s": {}})),
        ),
        case(
            "an error is name and message plus own fields",
            "const e = new TypeError('bad'); e.code = 7; return e",
            Seed,
            ok(json!({"name": "TypeError", "message": "bad", "code": 7})),
        ),
        case(
            "an own __proto__ key does not reach the host",
            "return { __proto__: { polluted: true }, a: 1 }",
            Node,
            ok(json!({"a": 1})),
        ),
        case(
            "a function in the result",
            "return { f() {} }",
            Ours("the seed drops functions as JSON.stringify does; we refuse them, naming the path"),
            fails(K::InvalidDataValue, "result.f is a function"),
        ),
        case(
            "a cycle in the result",
            "const o = {}; o.self = o; return o",
            Seed,
            fails(K::InvalidDataValue, "circular"),
        ),
        case(
            "console log and warn",
            "console.log('Thread info:', { name: 'Demo', count: 2 }); console.warn('careful')",
            Ours("the seed prints objects as JSON; we print them as node does"),
            ok(json!(null)).logs(&["Thread info: { name: 'Demo', count: 2 }", "[warn] careful"]),
        ),
        case(
            "console prints non-finite numbers",
            "console.log(NaN); console.log(Infinity, -Infinity); console.log({ ratio: NaN, bounds: [Infinity] }); return 1",
            Node,
            ok(json!(1)).logs(&["NaN", "Infinity -Infinity", "{ ratio: NaN, bounds: [ Infinity ] }"]),
        ),
        case(
            "console prints maps, dates, regexps and sets",
            "console.log({ m: new Map([['a', 1]]), s: new Set([1, 2]) }); console.log(new Date(0)); return 1",
            Node,
            ok(json!(1)).logs(&["{ m: Map(1) { 'a' => 1 }, s: Set(2) { 1, 2 } }", "1970-01-01T00:00:00.000Z"]),
        ),
        case(
            "console prints a cycle and a function",
            "const m = new Map(); m.set('self', m); console.log(m); console.log({ f() {} }); return 1",
            Node,
            ok(json!(1)).logs(&["<ref *1> Map(1) { 'self' => [Circular *1] }", "{ f: [Function: f] }"]),
        ),
        case(
            "console prefixes",
            "console.info('i'); console.error('e'); console.debug('d'); return 1",
            Seed,
            ok(json!(1)).logs(&["i", "[error] e", "[debug] d"]),
        ),
        case(
            "logs survive a throw",
            "console.log('before'); throw new Error('boom')",
            Seed,
            fails(K::ExecutionFailure, "Error: boom").logs(&["before"]),
        ),
        case(
            "no optional keys when empty",
            "return 1",
            Seed,
            ok(json!(1)).logs(&[]).warns(&[]).calls(&[]).truncated(false),
        ),
        case(
            "a tool error is ToolFailure with its message",
            "return await tools.host.refuse({})",
            Seed,
            fails(K::ToolFailure, "Authorized request was refused")
                .exactly()
                .calls(&[("host.refuse", S::Failure)]),
        ),
        case(
            "a host error's text stays on the host",
            "return await tools.host.broken({})",
            Ours("the seed shows a failing tool's causes (\"Connection refused\"); we keep internal errors on the host"),
            fails(K::ToolFailure, "")
                .calls(&[("host.broken", S::Failure)]),
        ),
        case(
            "an output the schema refuses",
            "return await tools.host.typed({})",
            Seed,
            fails(K::InvalidToolOutput, "host.typed"),
        ),
        case(
            "a caught tool error is an Error",
            "try { await tools.host.refuse({}) } catch (e) { return { isError: e instanceof Error, message: e.message } }",
            Seed,
            ok(json!({"isError": true, "message": "Authorized request was refused"})),
        ),
        case(
            "a caught tool error's name",
            "try { await tools.host.refuse({}) } catch (e) { return [e.name, e.kind] }",
            Ours("the seed's caught tool error is named Error; ours is ToolError with the kind"),
            ok(json!(["ToolError", "ToolFailure"])),
        ),
        case(
            "a fire-and-forget call is interrupted at return",
            "tools.host.hang({}); return 'done'",
            Seed,
            ok(json!("done")).warns(&[]).calls(&[("host.hang", S::Interrupted)]),
        ),
        case(
            "a promise in the result is awaited",
            "return { result: tools.host.echo({ id: 1 }) }",
            Ours("the seed awaits promises nested in the result; we refuse them: a call not awaited is a slip"),
            fails(K::InvalidDataValue, "result.result is a promise"),
        ),
        case(
            "a returned promise is awaited",
            "return tools.host.echo({ id: 1 })",
            Seed,
            ok(json!({"id": 1})),
        ),
        case(
            "outbound undefined, NaN, Infinity and holes",
            "return await tools.host.echo({ q: undefined, limit: 0/0, rate: 1/0, items: [1, undefined, 2], holes: [1, , 3] })",
            Seed,
            ok(json!({"limit": null, "rate": null, "items": [1, null, 2], "holes": [1, null, 3]}))
                .call_inputs(vec![(
                    "host.echo",
                    json!({"limit": null, "rate": null, "items": [1, null, 2], "holes": [1, null, 3]}),
                    S::Success,
                )]),
        ),
        case(
            "an own __proto__ key does not reach a tool",
            "return await tools.host.echo({ __proto__: { polluted: true }, a: 1 })",
            Seed,
            ok(json!({"a": 1})).call_inputs(vec![("host.echo", json!({"a": 1}), S::Success)]),
        ),
        case(
            "map and regexp in tool input",
            "return await tools.host.echo({ m: new Map([[1, 2]]), r: /x/ })",
            Seed,
            ok(json!({"m": {}, "r": {}})),
        ),
        case(
            "prototype pollution stays in its run (first run)",
            "Object.prototype.polluted = 1; return ({}).polluted",
            Node,
            ok(json!(1)),
        ),
        case(
            "prototype pollution stays in its run (next run)",
            "return ({}).polluted === undefined",
            Seed,
            ok(json!(true)),
        ),
        case(
            "the Function constructor",
            "return ({}).constructor.constructor('return 1')()",
            Seed,
            fails(K::ExecutionFailure, "Function(...) cannot build code from strings").at(1, 8),
        ),
        case(
            "tool calls run once",
            "const p = tools.host.echo({ n: 1 }); await p; await p; await Promise.all([p, p]); return (await p).n",
            Seed,
            ok(json!(1)).calls(&[("host.echo", S::Success)]),
        ),
        case(
            "a call's input may hold an awaited value",
            "return await tools.host.echo({ inner: await tools.host.echo({ id: 2 }) })",
            Seed,
            ok(json!({"inner": {"id": 2}})),
        ),
        case(
            "no arguments is an empty object",
            "return await tools.host.echo()",
            Seed,
            ok(json!({})).call_inputs(vec![("host.echo", json!({}), S::Success)]),
        ),
        case(
            "a never-settling result with a timeout",
            "return await tools.host.hang({})",
            Seed,
            fails(K::TimeoutExceeded, "").calls(&[("host.hang", S::Interrupted)]),
        ),
    ]
}

/// `search`, from the seed's codemode suite (§4).
fn search_cases() -> Vec<Case> {
    vec![
        case(
            "search finds by word",
            "return search({ query: 'order' }).items.map((i) => i.path)",
            Ours(
                "the seed's item path is the call expression (tools.orders.lookup); ours is the canonical path, and the signature holds the expression",
            ),
            ok(json!(["orders.lookup"])).calls(&[("search", S::Success)]),
        ),
        case(
            "search is synchronous",
            "const r = search({ query: 'order' }); return [typeof r.then, Array.isArray(r.items), typeof search]",
            Seed,
            ok(json!(["undefined", true, "function"])),
        ),
        case(
            "search by exact path",
            "return [search({ query: 'notes.echo' }).items.map((i) => i.path), search({ query: 'tools.notes.echo' }).items.map((i) => i.path)]",
            Seed,
            ok(json!([["notes.echo"], ["notes.echo"]])),
        ),
        case(
            "search returns the bracket path",
            "const it = search({ query: 'resolve-library-id' }).items[0]; return [it.path, it.signature.startsWith('tools.context7[\"resolve-library-id\"](')]",
            Seed,
            ok(json!(["context7.resolve-library-id", true])),
        ),
        case(
            "namespace descriptions are searchable",
            "return search({ query: 'workspace' }).items.map((i) => i.path)",
            Seed,
            ok(json!(["workspace.read", "workspace.write"])),
        ),
        case(
            "a page past the end",
            "const r = search({ offset: 100 }); return [r.items, r.remaining, r.next]",
            Seed,
            ok(json!([[], 0, null])),
        ),
        case(
            "paging with limit and offset",
            "const r = search({ limit: 1, offset: 1 }); return [r.items.length, r.next]",
            Seed,
            ok(json!([1, {"offset": 2}])),
        ),
        case(
            "a fractional limit",
            "return search({ limit: 0.5 })",
            Seed,
            fails(K::InvalidToolInput, "limit"),
        ),
        case(
            "an undefined query is no query",
            "return search({ query: undefined }).items.length > 0",
            Seed,
            ok(json!(true)),
        ),
        case(
            "search can be shadowed",
            "const search = () => 'local'; return search()",
            Node,
            ok(json!("local")).calls(&[]),
        ),
        case(
            "search in the result",
            "return { search }",
            Ours("the seed drops the search function from the result; we refuse functions"),
            fails(K::InvalidDataValue, "result.search is a function"),
        ),
    ]
}

#[tokio::test]
async fn codemode() {
    check(
        &runtime_with(Limits::default().with_timeout_ms(300).unwrap()),
        &codemode_cases(),
    )
    .await;
    check(&runtime(), &search_cases()).await;
}

#[tokio::test]
async fn codemode_output_limits() {
    let cm = runtime_with(
        Limits::default()
            .with_timeout_ms(5_000)
            .unwrap()
            .with_max_output_bytes(40)
            .unwrap(),
    );
    check(
        &cm,
        &[
            case(
                "a value over the limit becomes a marked string",
                "return { data: 'x'.repeat(200) }",
                Seed,
                Expect {
                    truncated: Some(true),
                    ..Expect::default()
                },
            ),
            case(
                "logs over the limit keep leading lines",
                "console.log('first line'); console.log('y'.repeat(200)); return 'ok'",
                Seed,
                ok(json!("ok")).truncated(true),
            ),
            case(
                "a failure's error is never cut",
                "throw new Error('e'.repeat(100))",
                Seed,
                fails(
                    K::ExecutionFailure,
                    "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
                ),
            ),
        ],
    )
    .await;
    let r = cm.execute("return { data: 'x'.repeat(200) }").await;
    let v = r.value().and_then(Value::as_str).unwrap_or_default();
    assert!(v.starts_with("{\"data\":\"xxx"), "{v}");
    assert!(v.contains("40-byte output limit"), "{v}");
    let r = cm
        .execute("console.log('first line'); console.log('y'.repeat(200)); return 'ok'")
        .await;
    assert_eq!(r.logs.len(), 2, "{}", r.to_json_string());
    assert_eq!(r.logs[0], "first line");
    assert!(r.logs[1].contains("1 of 2"), "{}", r.to_json_string());
    // The seed had no default output bound; ours is 64 KiB, and a raised bound gives a large
    // value and log back whole.
    let r = runtime().execute("return 'v'.repeat(100000)").await;
    assert!(
        r.truncated,
        "{}",
        r.value().unwrap_or(&Value::Null).to_string().len()
    );
    let r = runtime_with(Limits::default().with_max_output_bytes(1 << 20).unwrap())
        .execute("console.log('l'.repeat(50000)); return 'v'.repeat(100000)")
        .await;
    assert_eq!(
        r.value().and_then(Value::as_str).map(str::len),
        Some(100_000)
    );
    assert_eq!(r.logs[0].len(), 50_000);
    assert!(!r.truncated);
}

#[tokio::test]
async fn codemode_hooks_see_each_admitted_call() {
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let (b, a) = (events.clone(), events.clone());
    let hooks = FnHooks::new()
        .tool_before(move |name, input| {
            b.lock().unwrap().push(format!("before {name} {input}"));
            if name == "notes.echo" {
                return Err("lookup is not allowed".into());
            }
            Ok(())
        })
        .tool_after(move |name, _, outcome| {
            a.lock()
                .unwrap()
                .push(format!("after {name} {}", outcome.label()));
        });
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("orders.lookup", lookup())
        .tool("notes.echo", echo())
        .hooks(hooks)
        .build()
        .unwrap();
    let r = cm
        .execute(
            "const ok = await tools.orders.lookup({ id: 'o1' });\n\
             let refused; try { await tools.orders.lookup({ id: 'o9' }) } catch (e) { refused = e.message }\n\
             let denied; try { await tools.notes.echo({ text: 'x' }) } catch (e) { denied = [e.name, e.message] }\n\
             if (false) await tools.orders.lookup({ id: 'never' });\n\
             return [ok.id, refused, denied];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            "o1",
            "Lookup refused",
            ["ToolError", "lookup is not allowed"]
        ])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(
        *events.lock().unwrap(),
        vec![
            r#"before orders.lookup {"id":"o1"}"#,
            "after orders.lookup success",
            r#"before orders.lookup {"id":"o9"}"#,
            "after orders.lookup failure",
            r#"before notes.echo {"text":"x"}"#,
            "after notes.echo denied",
        ]
    );
    // Our toolCalls carry the status; a denial is `denied` (the seed listed names only).
    let st: Vec<S> = r.tool_calls.iter().map(|c| c.status).collect();
    assert_eq!(st, vec![S::Success, S::Failure, S::Denied]);
    // Uncaught, a denial fails the run as a ToolFailure.
    let r = cm
        .execute("return await tools.notes.echo({ text: 'x' })")
        .await;
    assert_eq!(r.error().map(|e| e.kind), Some(K::ToolFailure));
}

#[tokio::test]
async fn codemode_each_run_starts_clean() {
    // The same runtime twice with max_tool_calls 1: identical Results.
    let cm = runtime_with(Limits::default().with_max_tool_calls(1).unwrap());
    let src = "console.log('hi'); return (await tools.host.echo({ n: 1 })).n";
    let a = cm.execute(src).await.to_json_string();
    let b = cm.execute(src).await.to_json_string();
    assert_eq!(a, b);
    assert_eq!(
        a,
        r#"{"ok":true,"value":1,"logs":["hi"],"toolCalls":[{"name":"host.echo","input":{"n":1},"status":"success"}]}"#
    );
}

// ---------------------------------------------------------------------------------------------
// promise.test: ordering, combinators, un-awaited work.

fn promise_cases() -> Vec<Case> {
    vec![
        case(
            "await a plain value",
            "return await 42",
            Node,
            ok(json!(42)),
        ),
        case(
            "handlers run after the synchronous code, in attach order",
            "const order = []; const p = Promise.resolve(); p.then(() => order.push('h1')); p.then(() => order.push('h2')); order.push('sync'); await null; await null; return order",
            Node,
            ok(json!(["sync", "h1", "h2"])),
        ),
        case(
            "a combinator settles one turn late",
            "return await Promise.race([Promise.all([Promise.resolve(1)]), Promise.resolve(2)])",
            Node,
            ok(json!(2)),
        ),
        case(
            "async functions return at once",
            "const log = []; async function f() { log.push('in'); await null; log.push('after'); } const p = f(); log.push('out'); await p; return log",
            Node,
            ok(json!(["in", "out", "after"])),
        ),
        case(
            "finally keeps the outcome",
            "return await Promise.resolve(1).finally(() => 2)",
            Node,
            ok(json!(1)),
        ),
        case(
            "thenables are adopted",
            "return await { then(r) { r(7) } }",
            Node,
            ok(json!(7)),
        ),
        case(
            "chaining cycle",
            "let p; p = Promise.resolve().then(() => p); try { await p } catch (e) { return [e.name, e.message] }",
            Node,
            ok(json!([
                "TypeError",
                "Chaining cycle detected for promise #<Promise>"
            ])),
        ),
        case(
            "one failure is one error object",
            "const p = Promise.reject(new Error('x')); let a, b; try { await p } catch (e) { a = e } try { await p } catch (e) { b = e } return a === b",
            Node,
            ok(json!(true)),
        ),
        case(
            "typeof a promise",
            "return [typeof Promise.resolve(1), Promise.resolve(1) instanceof Promise]",
            Node,
            ok(json!(["object", true])),
        ),
        case(
            "allSettled over tools, values and rejections",
            "const rs = await Promise.allSettled([tools.orders.lookup({ id: 'o1' }), tools.orders.lookup({ id: 'o9' }), 'plain', Promise.reject(new Error('boom'))]);\n\
             return rs.map((r) => r.status === 'fulfilled' ? [r.status, r.value.id ?? r.value] : [r.status, r.reason.message])",
            Seed,
            ok(json!([
                ["fulfilled", "o1"],
                ["rejected", "Lookup refused"],
                ["fulfilled", "plain"],
                ["rejected", "boom"]
            ])),
        ),
        case(
            "allSettled reasons cross as name and message",
            "return (await Promise.allSettled([Promise.reject(new Error('boom'))]))[0]",
            Seed,
            ok(json!({"status": "rejected", "reason": {"name": "Error", "message": "boom"}})),
        ),
        case(
            "race takes the fast one; the loser is interrupted",
            "return await Promise.race([tools.host.echo({ v: 'fast' }), tools.host.hang({})])",
            Seed,
            ok(json!({"v": "fast"}))
                .calls(&[("host.echo", S::Success), ("host.hang", S::Interrupted)]),
        ),
        case(
            "an empty race never settles",
            "return await Promise.race([])",
            Ours(
                "the seed throws at once for an empty race; we fail when the await can never settle",
            ),
            fails(K::ExecutionFailure, "never settle"),
        ),
        case(
            "any with every member rejected",
            "try { await Promise.any([tools.orders.lookup({ id: 'o9' }), Promise.reject('plain')]) } catch (e) { return [e.name, e.errors.map((x) => x.message ?? x), e.message] }",
            Seed,
            ok(json!([
                "AggregateError",
                ["Lookup refused", "plain"],
                "All promises were rejected"
            ])),
        ),
        case(
            "all rejects with the first failure",
            "try { await Promise.all([tools.host.echo({}), tools.orders.lookup({ id: 'o9' })]) } catch (e) { return e.message }",
            Seed,
            ok(json!("Lookup refused")),
        ),
        case(
            "all over a non-iterable",
            "Promise.all(1); return 1",
            Seed,
            ok(json!(1)).warns(&[(
                K::ExecutionFailure,
                "Unhandled rejection from an un-awaited promise: TypeError: ",
            )]),
        ),
        case(
            "all over a non-iterable, caught",
            "try { await Promise.all(1) } catch (e) { return [e.name, e.message.includes('1 is not iterable')] }",
            Node,
            ok(json!(["TypeError", true])),
        ),
        case(
            "an unknown static",
            "return Promise.settle([])",
            Node,
            fails(K::ExecutionFailure, "Promise.settle is not a function"),
        ),
        case(
            "an un-awaited failing tool warns",
            "tools.orders.lookup({ id: 'o9' }); await tools.host.echo({}); return 1",
            Seed,
            ok(json!(1)).warns(&[(
                K::ToolFailure,
                "Unhandled rejection from an un-awaited promise: Lookup refused",
            )]),
        ),
        case(
            "an un-awaited async throw warns",
            "(async () => { throw new Error('boom') })(); await null; return 1",
            Seed,
            ok(json!(1)).warns(&[(
                K::ExecutionFailure,
                "Unhandled rejection from an un-awaited promise: Error: boom",
            )]),
        ),
        case(
            "warnings in promise creation order",
            "const a = Promise.reject(new Error('first')); const b = Promise.reject(new Error('second')); await null; return 1",
            Seed,
            ok(json!(1)).warns(&[
                (K::ExecutionFailure, "Error: first"),
                (K::ExecutionFailure, "Error: second"),
            ]),
        ),
        case(
            "a handled rejection does not warn",
            "Promise.reject(new Error('boom')).catch(() => {}); await Promise.resolve(); return 1",
            Seed,
            ok(json!(1)).warns(&[]),
        ),
        case(
            "a derived promise owns the rejection",
            "Promise.reject(new Error('boom')).then((v) => v); await Promise.resolve(); return 1",
            Seed,
            ok(json!(1)).warns(&[(K::ExecutionFailure, "Error: boom")]),
        ),
        case(
            "a fatal throw reports no warnings",
            "Promise.reject(new Error('quiet')); throw new Error('loud')",
            Seed,
            fails(K::ExecutionFailure, "Error: loud"),
        ),
        case(
            "stringifying a promise",
            "return JSON.stringify(Promise.resolve(1))",
            Ours("the seed refuses a promise in JSON.stringify; we give node's {}"),
            ok(json!("{}")),
        ),
        case(
            "a promise plus one",
            "return Promise.resolve(1) + 1",
            Ours("the seed refuses operators on promises; we coerce as node does and warn"),
            ok(json!("[object Promise]1")).warns(&[(K::LikelyMistake, "")]),
        ),
        case(
            "a property of an un-awaited call",
            "return tools.host.echo({ value: 1 }).value",
            Ours("the seed refuses the read; we read undefined as node does and warn"),
            ok(json!(null)).warns(&[(K::LikelyMistake, "await")]),
        ),
        case(
            "a rejected returned promise fails the run",
            "return tools.orders.lookup({ id: 'o9' })",
            Seed,
            fails(K::ToolFailure, "Lookup refused"),
        ),
        case(
            "async recursion 3000 deep",
            "async function f(n) { if (n === 0) return 0; await null; return 1 + await f(n - 1); } return await f(3000)",
            Node,
            ok(json!(3000)),
        ),
        case(
            "withResolvers",
            "const { promise, resolve } = Promise.withResolvers(); resolve(5); return await promise",
            Ours("node 20 lacks Promise.withResolvers (node 22 has it); we follow ES2024"),
            ok(json!(5)),
        ),
    ]
}

#[tokio::test]
async fn promise() {
    check(&runtime(), &promise_cases()).await;
}

/// Calls start before the first `await` and overlap.
#[tokio::test]
async fn promise_calls_start_eagerly_and_overlap() {
    let live = Arc::new(Mutex::new((0usize, 0usize)));
    let l = live.clone();
    let gated = Tool::new("Waits.", json!({"type": "object"}), move |v| {
        let l = l.clone();
        async move {
            {
                let mut g = l.lock().unwrap();
                g.0 += 1;
                g.1 = g.1.max(g.0);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            l.lock().unwrap().0 -= 1;
            Ok(v)
        }
    });
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("gate.wait", gated)
        .build()
        .unwrap();
    let r = cm
        .execute(
            "const ps = []; for (let i = 0; i < 20; i++) ps.push(tools.gate.wait({ i }));\n\
             return (await Promise.all(ps)).map((r) => r.i)",
        )
        .await;
    assert_eq!(r.value(), Some(&json!((0..20).collect::<Vec<_>>())));
    let inputs: Vec<Value> = r.tool_calls.iter().map(|c| c.input["i"].clone()).collect();
    assert_eq!(inputs, (0..20).map(|i| json!(i)).collect::<Vec<_>>());
    // The seed's G3 had no cap (20 live); we keep the seeds' 8 live calls.
    assert_eq!(live.lock().unwrap().1, 8);
}

// ---------------------------------------------------------------------------------------------
// stdlib.test: the built-ins (§8.9). Node is the oracle throughout.

fn stdlib_cases() -> Vec<Case> {
    vec![
        case(
            "toFixed out of range",
            "try { (1).toFixed(200) } catch (e) { return [e.name, e instanceof RangeError, e.message] }",
            Node,
            ok(json!([
                "RangeError",
                true,
                "toFixed() digits argument must be between 0 and 100"
            ])),
        ),
        case(
            "number formatting",
            "return [(1234.5).toLocaleString(), (255).toString(16), (0.000001234).toPrecision(2), (1e21).toFixed(2), Number('0x1f'), parseInt('08'), parseFloat('3.5e2x')]",
            Node,
            ok(json!(["1,234.5", "ff", "0.0000012", "1e+21", 31, 8, 350])),
        ),
        case(
            "Number statics",
            "return [Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), Number.EPSILON > 0, Number.isNaN('x'), isNaN('x')]",
            Node,
            ok(json!([true, false, true, false, true])),
        ),
        case(
            "Math",
            "return [Math.max(), Math.min(1, 2), Math.round(-2.5), Math.sign(-3), Math.trunc(-4.7), Math.hypot(3, 4), Math.clz32(1), Math.imul(3, 4), Math.cbrt(27)]",
            Node,
            ok(json!([null, 1, -2, -1, -4, 5, 31, 12, 3])),
        ),
        case(
            "JSON.parse with a reviver",
            "return JSON.parse('{\"a\":1,\"b\":{\"c\":2}}', function (k, v) { return k === 'c' ? undefined : v })",
            Node,
            ok(json!({"a": 1, "b": {}})),
        ),
        case(
            "JSON.stringify with indent and replacer",
            "return [JSON.stringify({ a: [1, 2] }, null, 2), JSON.stringify({ a: 1, b: 2, c: 3 }, ['a', 'c']), JSON.stringify({ a: 1, b: 'x' }, (k, v) => typeof v === 'number' ? v * 10 : v)]",
            Node,
            ok(json!([
                "{\n  \"a\": [\n    1,\n    2\n  ]\n}",
                "{\"a\":1,\"c\":3}",
                "{\"a\":10,\"b\":\"x\"}"
            ])),
        ),
        case(
            "JSON.stringify of an error",
            "return JSON.stringify(new Error('boom'))",
            Ours("the seed stringifies an Error as {name, message}; we give node's {}"),
            ok(json!("{}")),
        ),
        case(
            "JSON.parse error",
            "try { JSON.parse('{') } catch (e) { return e.name }",
            Node,
            ok(json!("SyntaxError")),
        ),
        case(
            "string methods",
            "return ['abc'.at(-1), 'a-b-c'.split('-'), 'x'.padStart(3, '0'), ' t '.trim(), 'aXbX'.replaceAll('X', '_'), 'abc'.substr(1, 1), 'ab'.localeCompare('ac'), 'é'.normalize('NFD').length, [...'a😀'].length]",
            Node,
            ok(json!([
                "c",
                ["a", "b", "c"],
                "00x",
                "t",
                "a_b_",
                "b",
                -1,
                2,
                2
            ])),
        ),
        case(
            "replaceAll with a non-global regexp",
            "try { 'aa'.replaceAll(/a/, 'b') } catch (e) { return e.name }",
            Node,
            ok(json!("TypeError")),
        ),
        case(
            "replace with a function replacer",
            "return 'a1b22'.replace(/(\\d+)/g, (m, g, off) => `[${g}@${off}]`)",
            Node,
            ok(json!("a[1@1]b[22@3]")),
        ),
        case(
            "regexp named groups and sticky",
            "const m = /(?<y>\\d{4})-(?<m>\\d\\d)/.exec('on 2024-05'); const r = /a/y; r.lastIndex = 1; return [m.groups.y, m.index, r.test('ba'), r.lastIndex, /a/gi.flags]",
            Node,
            ok(json!(["2024", 3, true, 2, "gi"])),
        ),
        case(
            "an invalid regexp",
            "try { new RegExp('(') } catch (e) { return e.name }",
            Node,
            ok(json!("SyntaxError")),
        ),
        case(
            "arrays",
            "const a = [3, 1, 2]; return [a.toSorted(), a, a.findLast((x) => x > 1), a.with(0, 9), [1, [2, [3]]].flat(Infinity), Array.from({ length: 3 }, (_, i) => i * 2), [1, 2, 3].at(-1), a.includes(NaN), [NaN].includes(NaN), [NaN].indexOf(NaN)]",
            Node,
            ok(json!([
                [1, 2, 3],
                [3, 1, 2],
                2,
                [9, 1, 2],
                [1, 2, 3],
                [0, 2, 4],
                3,
                false,
                true,
                -1
            ])),
        ),
        case(
            "array length assignment",
            "const a = [1, 2, 3]; a.length = 1; const b = []; b.length = 2; return [a, b]",
            Node,
            ok(json!([[1], [null, null]])),
        ),
        case(
            "sort is stable and default sort is by string",
            "return [[10, 9, 1].sort(), [{ k: 1, v: 'a' }, { k: 0, v: 'b' }, { k: 1, v: 'c' }].sort((x, y) => x.k - y.k).map((o) => o.v)]",
            Node,
            ok(json!([[1, 10, 9], ["b", "a", "c"]])),
        ),
        case(
            "Object statics",
            "const o = Object.freeze({ a: 1 }); return [Object.entries({ x: 1, y: 2 }), Object.fromEntries([['a', 1]]), Object.isFrozen(o), Object.hasOwn({ a: 1 }, 'a')]",
            Node,
            ok(json!([[["x", 1], ["y", 2]], {"a": 1}, true, true])),
        ),
        case(
            "Object.groupBy",
            "return Object.groupBy([1, 2, 3], (n) => n % 2 ? 'odd' : 'even')",
            Ours("node 20 lacks Object.groupBy (node 21 has it); we follow ES2024"),
            ok(json!({"odd": [1, 3], "even": [2]})),
        ),
        case(
            "Object.prototype.toString tags",
            "const t = (v) => Object.prototype.toString.call(v); return [t(new Map()), t(Promise.resolve()), t(null), t([])]",
            Node,
            ok(json!([
                "[object Map]",
                "[object Promise]",
                "[object Null]",
                "[object Array]"
            ])),
        ),
        case(
            "Map and Set",
            "const m = new Map([[NaN, 1]]); m.set(0, 'z'); const s = new Set([1, 2, 2]); return [m.get(NaN), m.get(-0), m.size, [...s], s.has(2), [...m.keys()]]",
            Node,
            ok(json!([1, "z", 2, [1, 2], true, [null, 0]])),
        ),
        case(
            "Map from a non-pair iterable",
            "try { new Map([1]) } catch (e) { return e.name }",
            Node,
            ok(json!("TypeError")),
        ),
        case(
            "WeakMap keys",
            "try { new WeakMap().set(1, 1) } catch (e) { return [e.name, e.message.startsWith('Invalid value used as weak map key')] }",
            Node,
            ok(json!(["TypeError", true])),
        ),
        case(
            "errors",
            "const e = new Error('outer', { cause: 'inner' }); return [e.cause, Object.keys(e), String(new TypeError('x')), String(new Error('')), Error('y') instanceof Error, new RangeError('r').name]",
            Node,
            ok(json!([
                "inner",
                [],
                "TypeError: x",
                "Error",
                true,
                "RangeError"
            ])),
        ),
        case(
            "URI functions",
            "let bad; try { decodeURIComponent('%') } catch (e) { bad = e.name } return [encodeURIComponent('a b&c'), encodeURI('http://x/a b'), decodeURIComponent('%E2%82%AC'), bad]",
            Node,
            ok(json!(["a%20b%26c", "http://x/a%20b", "€", "URIError"])),
        ),
        case(
            "base64",
            "let bad; try { atob('*') } catch (e) { bad = e.name } return [btoa('hi'), atob('aGk='), bad]",
            Node,
            ok(json!(["aGk=", "hi", "InvalidCharacterError"])),
        ),
        case(
            "dates",
            "const d = new Date(Date.UTC(2024, 1, 29, 12)); return [d.toISOString(), d.getUTCDay(), d.toUTCString(), new Date('2024-01-15').getTime(), Date.parse('nope'), new Date(0).toLocaleString('en-US', { timeZone: 'UTC' })]",
            Node,
            ok(json!([
                "2024-02-29T12:00:00.000Z",
                4,
                "Thu, 29 Feb 2024 12:00:00 GMT",
                1705276800000_i64,
                null,
                "1/1/1970, 12:00:00 AM"
            ])),
        ),
        case(
            "an invalid date's ISO string",
            "try { new Date(NaN).toISOString() } catch (e) { return [e.name, e.message] }",
            Node,
            ok(json!(["RangeError", "Invalid time value"])),
        ),
        case(
            "built-ins as callbacks",
            "return [[-1, 2].map(Math.abs), [{ a: 1 }].map(JSON.stringify), ['1', '2'].map(Number), ['a'].map(Error).map(String)]",
            Node,
            ok(json!([[1, 2], ["{\"a\":1}"], [1, 2], ["Error: a"]])),
        ),
        case(
            "console.table",
            "console.table([{ name: 'Kit', count: 1, hidden: 'x' }, { name: 'Olive', count: 2, hidden: 'y' }], ['name', 'count']); return 1",
            Ours("the seed's console.table is tab-separated; ours draws node's table"),
            ok(json!(1)),
        ),
        case(
            "structuredClone",
            "const o = { a: [1], d: new Map([[1, 2]]) }; o.self = o; const c = structuredClone(o); return [c.a, c.self === c, c.d.get(1), c !== o]",
            Node,
            ok(json!([[1], true, 2, true])),
        ),
    ]
}

#[tokio::test]
async fn stdlib() {
    check(&runtime(), &stdlib_cases()).await;
}

// ---------------------------------------------------------------------------------------------
// parity.test: JavaScript edge cases (§8.2–§8.7). Node is the oracle throughout.

fn parity_cases() -> Vec<Case> {
    vec![
        case(
            "property reads on primitives",
            "return ['abc'.length, (5).constructor === Number, true.toString(), 'x'.nope, (1).nope]",
            Node,
            ok(json!([3, true, "true", null, null])),
        ),
        case(
            "spread of strings, maps, sets and nullish",
            "return [[...'ab'], [...new Map([[1, 2]])], [...new Set([3])], { ...null, ...'hi', ...[7] }]",
            Node,
            ok(json!([["a", "b"], [[1, 2]], [3], {"0": 7, "1": "i"}])),
        ),
        case(
            "temporal dead zone",
            "try { x; let x = 1 } catch (e) { return [e.name, e.message] }",
            Node,
            ok(json!([
                "ReferenceError",
                "Cannot access 'x' before initialization"
            ])),
        ),
        case(
            "const reassignment",
            "const c = 1; try { c = 2 } catch (e) { return [e.name, e.message] }",
            Node,
            ok(json!(["TypeError", "Assignment to constant variable."])),
        ),
        case(
            "an undeclared read",
            "let t = typeof nope; try { nope } catch (e) { return [t, e.name, e.message] }",
            Node,
            ok(json!([
                "undefined",
                "ReferenceError",
                "nope is not defined"
            ])),
        ),
        case(
            "delete makes a hole",
            "const a = [1, 2, 3]; const o = { k: 1 }; return [delete a[1], a, 1 in a, delete o.k, o, delete o.none]",
            Node,
            ok(json!([true, [1, null, 3], false, true, {}, true])),
        ),
        case(
            "delete on a frozen object",
            "'use strict'; const o = Object.freeze({ a: 1 }); try { delete o.a } catch (e) { return e.name }",
            Node,
            ok(json!("TypeError")),
        ),
        case(
            "assignment to a frozen object",
            "const o = Object.freeze({ a: 1 }); try { o.a = 2 } catch (e) { return [e.name, e.message] }",
            Ours(
                "the seed's program is strict like ours; node's sloppy `-e` is not, so we compare with strict mode",
            ),
            ok(json!([
                "TypeError",
                "Cannot assign to read only property 'a' of object '#<Object>'"
            ])),
        ),
        case(
            "NaN comparisons",
            "return [NaN === NaN, NaN == NaN, Object.is(NaN, NaN), [NaN].indexOf(NaN), [NaN].includes(NaN), NaN < 1, NaN >= 1, Object.is(0, -0)]",
            Node,
            ok(json!([false, false, true, -1, true, false, false, false])),
        ),
        case(
            "loose equality",
            "return [null == undefined, null == 0, '1' == 1, [1] == 1, ({}) == '[object Object]', '' == 0, 0 == false]",
            Node,
            ok(json!([true, false, true, true, true, true, true])),
        ),
        case(
            "coercions",
            "return [1 + '2', '3' * '4', [] + {}, [1, 2] + '', true + 1, null + 1, undefined + 1, -'', +[], +{}, `${[1, 2]}`]",
            Node,
            ok(json!([
                "12",
                12,
                "[object Object]",
                "1,2",
                2,
                1,
                null,
                0,
                0,
                null,
                "1,2"
            ])),
        ),
        case(
            "valueOf and toString in order",
            "const o = { valueOf() { return 5 }, toString() { return 'str' } }; return [o + 1, `${o}`, String(o), o * 2]",
            Node,
            ok(json!([6, "str", "str", 10])),
        ),
        case(
            "bitwise and shifts",
            "return [5 & 3, 5 | 3, 5 ^ 3, ~5, -1 >>> 28, 1 << 31, -16 >> 2, 2 ** 10]",
            Node,
            ok(json!([1, 7, 6, -6, 15, -2147483648_i64, -4, 1024])),
        ),
        case(
            "canonical array indices",
            "const a = [1, 2]; a['01'] = 9; return [a.length, a[1], Object.keys(a)]",
            Node,
            ok(json!([2, 2, ["0", "1", "01"]])),
        ),
        case(
            "var hoisting and function hoisting",
            "const r = [typeof v, f()]; var v = 1; function f() { return 'hoisted' } return r",
            Node,
            ok(json!(["undefined", "hoisted"])),
        ),
        case(
            "per-iteration let",
            "const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); return fs.map((f) => f())",
            Node,
            ok(json!([0, 1, 2])),
        ),
        case(
            "destructuring with defaults, rest and computed keys",
            "const k = 'b'; const { a = 1, [k]: b, ...rest } = { b: 2, c: 3, d: 4 }; const [x, , y = 9, ...zs] = 'pqr'; return [a, b, rest, x, y, zs]",
            Node,
            ok(json!([1, 2, {"c": 3, "d": 4}, "p", "r", []])),
        ),
        case(
            "labelled break and continue",
            "const out = []; outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer; out.push([i, j]) } } return out",
            Node,
            ok(json!([[0, 0], [1, 0]])),
        ),
        case(
            "switch with fallthrough",
            "const r = []; switch (2) { case 1: r.push(1); case 2: r.push(2); case 3: r.push(3); break; default: r.push('d') } return r",
            Node,
            ok(json!([2, 3])),
        ),
        case(
            "for-in over inherited keys",
            "const p = { a: 1 }; const o = Object.create(p); o.b = 2; const ks = []; for (const k in o) ks.push(k); return ks",
            Node,
            ok(json!(["b", "a"])),
        ),
        case(
            "for-of closes the iterator",
            "let closed = false; const it = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }), return() { closed = true; return {} } } } }; for (const x of it) break; return closed",
            Node,
            ok(json!(true)),
        ),
        case(
            "generators",
            "function* g() { const x = yield 1; yield x * 2 } const it = g(); return [it.next().value, it.next(5).value, it.next().done, [...g()]]",
            Node,
            ok(json!([1, 10, true, [1, null]])),
        ),
        case(
            "tagged templates",
            "const tag = (s, ...v) => [s.raw, v]; return tag`a${1}\\n${2}`",
            Node,
            ok(json!([["a", "\\n", ""], [1, 2]])),
        ),
        case(
            "this in functions and arrows",
            "function f() { return this } const o = { m() { return [typeof f(), (() => this === o)()] } }; return o.m()",
            Node,
            ok(json!(["undefined", true])),
        ),
        case(
            "arguments and bound functions",
            "function f(a, b) { return arguments.length } const g = f.bind(null, 1); return [f(1, 2, 3), g.name, g.length, f.call(null, 1)]",
            Node,
            ok(json!([3, "bound f", 1, 1])),
        ),
        case(
            "optional chaining",
            "const o = { a: null, f: null }; return [o.a?.b, o.f?.(), o.x?.[0], delete o?.a]",
            Node,
            ok(json!([null, null, null, true])),
        ),
        case(
            "logical assignment",
            "const o = { a: 0, b: null, c: 1 }; o.a ||= 5; o.b ??= 6; o.c &&= 7; return o",
            Node,
            ok(json!({"a": 5, "b": 6, "c": 7})),
        ),
        case(
            "top-level this is undefined",
            "return typeof this",
            Node,
            ok(json!("undefined")),
        ),
        case(
            "__proto__ in an object literal sets the prototype",
            "const o = { __proto__: { inherited: 1 } }; return [o.inherited, Object.keys(o)]",
            Node,
            ok(json!([1, []])),
        ),
        case(
            "classes",
            "class A { #n = 1; get n() { return this.#n } static make() { return new A() } } class B extends A {} return [B.make().n, new B() instanceof A]",
            Ours("the seed rejects classes as UnsupportedSyntax; we run them"),
            ok(json!([1, true])),
        ),
        case(
            "user constructors",
            "function P(x) { this.x = x } return new P(3).x",
            Ours("the seed refuses `new` on user functions; we construct"),
            ok(json!(3)),
        ),
        case(
            "getters in object literals",
            "const o = { get two() { return 2 } }; return o.two",
            Ours("the seed refuses getters and setters; we run them"),
            ok(json!(2)),
        ),
        case(
            "new.target",
            "function F() { return new.target === F } return [new F() instanceof F, F()]",
            Ours("the seed refuses new.target; we support it"),
            ok(json!([true, false])),
        ),
        case(
            "symbols",
            "const s = Symbol('k'); const o = { [s]: 1 }; return [o[s], typeof s, s.description]",
            Ours("the seed has only the iterator symbols; we have Symbol()"),
            ok(json!([1, "symbol", "k"])),
        ),
        case(
            "BigInt literals",
            "return 1n",
            Seed,
            fails(K::UnsupportedSyntax, "BigInt"),
        ),
        case(
            "with",
            "with ({}) {}",
            Seed,
            fails(K::UnsupportedSyntax, "with"),
        ),
        case(
            "eval",
            "return eval('1')",
            Seed,
            fails(K::UnsupportedSyntax, "eval"),
        ),
        case(
            "Proxy",
            "return new Proxy({}, {})",
            Seed,
            fails(K::ExecutionFailure, "Proxy"),
        ),
    ]
}

#[tokio::test]
async fn parity() {
    check(&runtime(), &parity_cases()).await;
}

// ---------------------------------------------------------------------------------------------
// errors.test: the shape of failures (§8.12, §2).

fn errors_cases() -> Vec<Case> {
    vec![
        case(
            "a user throw of an Error",
            "throw new TypeError('bad input')",
            Ours("the seed leaves user throws unlocated; we locate them"),
            fails(K::ExecutionFailure, "TypeError: bad input").at(1, 1),
        ),
        case(
            "a user throw of a string",
            "throw 'boom'",
            Seed,
            fails(K::ExecutionFailure, "Uncaught: boom").at(1, 1),
        ),
        case(
            "a user throw of an object",
            "const x = 1;\n  throw { code: 7 }",
            Seed,
            fails(K::ExecutionFailure, "Uncaught: {\"code\":7}").at(2, 3),
        ),
        case(
            "a custom error name",
            "const e = new Error('x'); e.name = 'ValidationError'; throw e",
            Node,
            fails(K::ExecutionFailure, "ValidationError: x"),
        ),
        case(
            "calling a non-function is located",
            "const value = 1\nreturn value()",
            Seed,
            fails(K::ExecutionFailure, "TypeError: value is not a function").at(2, 8),
        ),
        case(
            "a failure inside a callback is located there",
            "return [1].map(n => n.toFixed(200))",
            Seed,
            fails(
                K::ExecutionFailure,
                "RangeError: toFixed() digits argument must be between 0 and 100",
            )
            .at(1, 21),
        ),
        case(
            "a rethrow keeps the kind and location",
            "let caught;\ntry { await tools.host.refuse({}) } catch (e) { caught = e }\nthrow caught",
            Seed,
            fails(K::ToolFailure, "Authorized request was refused"),
        ),
        case(
            "an operator on a symbol",
            "try { Symbol() + 1 } catch (e) { throw e }",
            Ours(
                "the seed reports InvalidDataValue for operators on opaque values; node's TypeError is an ordinary failure",
            ),
            fails(
                K::ExecutionFailure,
                "TypeError: Cannot convert a Symbol value to a number",
            ),
        ),
        case(
            "a caught interpreter error has name and message",
            "try { null.x } catch (e) { return [e.name, e instanceof TypeError, e.message] }",
            Node,
            ok(json!([
                "TypeError",
                true,
                "Cannot read properties of null (reading 'x')"
            ])),
        ),
        case(
            "recursion depth",
            "let depth = 0; function f() { depth++; f() } try { f() } catch (e) { return [e.name, e.message, depth] }",
            Ours(
                "V8's depth depends on frame size; ours is 10,000 frames, the program's own body among them, so f runs 9,999 deep (the seed counted 10,000 calls)",
            ),
            ok(json!([
                "RangeError",
                "Maximum call stack size exceeded",
                9999
            ])),
        ),
        case(
            "non-tail recursion 9000 deep",
            "function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(9000)",
            Node,
            ok(json!(9000)),
        ),
        case(
            "an uncaught recursion overflow",
            "function f() { return f() }\nf()",
            Seed,
            fails(
                K::ExecutionFailure,
                "RangeError: Maximum call stack size exceeded",
            ),
        ),
        case(
            "a syntax error is located",
            "const a = 1;\nconst = 2",
            Ours("the seed's ParseError has the position only in its text; ours has a location"),
            fails(K::ParseError, "").at(2, 7),
        ),
        case(
            "unsupported syntax is located",
            "const a = 1;\n  with (a) {}",
            Seed,
            fails(K::UnsupportedSyntax, "").at(2, 3),
        ),
        case(
            "a tool failure keeps its kind without a location in the message",
            "await tools.orders.lookup({ id: 'o9' })",
            Seed,
            fails(K::ToolFailure, "Lookup refused").exactly(),
        ),
    ]
}

#[tokio::test]
async fn errors() {
    check(&runtime(), &errors_cases()).await;
}

// ---------------------------------------------------------------------------------------------
// extensions.test: host functions as globals (§1.3, §7.3).

fn extension_runtime(limits: Limits) -> CodeMode {
    let fetchish = Extension::async_global_function("fetchish", |args: Vec<Value>| async move {
        match args.first().and_then(Value::as_str) {
            Some("bad") => Err(ToolError::new("boom")),
            _ => Ok(json!({"status": 200, "ok": true, "headers": {}, "url": args[0]})),
        }
    });
    let kv = Extension::new("kv")
        .function("keep", |args: Vec<Value>| async move { Ok(json!(args)) })
        .function("fail", |_| async move {
            Err(ToolError::new("fetch is not allowed"))
        });
    CodeMode::builder()
        .language(Language::JavaScript)
        .tool("host.echo", echo())
        .extension(fetchish)
        .extension(kv)
        .limits(limits)
        .build()
        .unwrap()
}

fn extension_cases() -> Vec<Case> {
    vec![
        case(
            "an async extension returns a promise",
            "const res = await fetchish('https://example.test/'); return [res.status, res.ok, res.url]",
            Seed,
            ok(json!([200, true, "https://example.test/"])),
        ),
        case(
            "a returned response object",
            "return await fetchish('u')",
            Ours("the seed's extensions may return objects with methods; ours return JSON data"),
            ok(json!({"status": 200, "ok": true, "headers": {}, "url": "u"})),
        ),
        case(
            "a host error is caught with its message",
            "try { await fetchish('bad') } catch (e) { return [e instanceof Error, e.message] }",
            Seed,
            ok(json!([true, "boom"])),
        ),
        case(
            "an uncaught extension error",
            "kv.fail()",
            Seed,
            fails(K::ExecutionFailure, "fetch is not allowed"),
        ),
        case(
            "a caught synchronous extension error",
            "return kv.fail.length >= 0 && (() => { try { kv.fail() } catch (e) { return [true, e.message] } })()",
            Seed,
            ok(json!([true, "fetch is not allowed"])),
        ),
        case(
            "arguments cross as data",
            "return kv.keep(1, 'a', { b: [null] })",
            Seed,
            ok(json!([1, "a", {"b": [null]}])),
        ),
        case(
            "a function argument",
            "return kv.keep(() => 1)",
            Seed,
            fails(K::InvalidDataValue, "function"),
        ),
        case(
            "an iterator argument",
            "return kv.keep([1].keys())",
            Seed,
            fails(K::InvalidDataValue, "iterator"),
        ),
        case(
            "an un-awaited promise argument",
            "return kv.keep(fetchish('u'))",
            Seed,
            fails(K::InvalidDataValue, "promise"),
        ),
        case(
            "new on an extension",
            "return new kv.keep()",
            Seed,
            fails(K::ExecutionFailure, "TypeError"),
        ),
        case(
            "typeof an extension",
            "return [typeof fetchish, typeof kv.keep]",
            Seed,
            ok(json!(["function", "function"])),
        ),
    ]
}

#[tokio::test]
async fn extensions() {
    let cm = extension_runtime(Limits::default().with_timeout_ms(5_000).unwrap());
    check(&cm, &extension_cases()).await;
    // The seed did not count extension calls toward max_tool_calls; we count every host call
    // (one rule for both languages), and list them in toolCalls.
    let cm = extension_runtime(Limits::default().with_max_tool_calls(0).unwrap());
    check(
        &cm,
        &[case(
            "extension calls count",
            "return kv.keep(1)",
            Ours("the seed did not count extension calls; we count every host call"),
            fails(K::ToolCallLimitExceeded, ""),
        )],
    )
    .await;
    // A name clash is refused when the runtime is built.
    let clash = CodeMode::builder()
        .language(Language::JavaScript)
        .extension(Extension::global_function("URL", |_| async move {
            Ok(Value::Null)
        }))
        .build();
    assert!(clash.is_err(), "an extension named URL");
    let twice = CodeMode::builder()
        .language(Language::JavaScript)
        .extension(Extension::global_function("web", |_| async move {
            Ok(Value::Null)
        }))
        .extension(Extension::global_function("web", |_| async move {
            Ok(Value::Null)
        }))
        .build();
    assert!(twice.is_err(), "two extensions named web");
}

// ---------------------------------------------------------------------------------------------
// tool-paths.test: dotted names, callable namespaces, missing tools (§1.2, §6.1).

fn tool_path_cases() -> Vec<Case> {
    vec![
        case(
            "a dotted name is a path",
            "return [(await tools.api.issues.list({ n: 3 })).n, Object.keys(tools.api), Object.keys(tools.api.issues)]",
            Seed,
            ok(json!([3, ["issues"], ["list"]])).calls(&[("api.issues.list", S::Success)]),
        ),
        case(
            "a dotted key in brackets",
            "return await tools.api['issues.list']({ n: 1 })",
            Ours(
                "the seed splits dots inside a bracket segment; we refuse the key and name the path to write",
            ),
            fails(K::UnknownTool, "write tools.api.issues.list").at(1, 14),
        ),
        case(
            "a callable namespace",
            "return [(await tools.issues({ a: 1 })).a, (await tools.issues.list({ b: 2 })).b, Object.keys(tools.issues)]",
            Seed,
            ok(json!([1, 2, ["list"]]))
                .calls(&[("issues", S::Success), ("issues.list", S::Success)]),
        ),
        case(
            "a missing tool under a namespace",
            "return await tools.orders.missing({})",
            Seed,
            fails(K::UnknownTool, "orders.missing").calls(&[("orders.missing", S::Failure)]),
        ),
        case(
            "a near miss gets a suggestion",
            "return await tools.orders['look-up']({})",
            Seed,
            fails(K::UnknownTool, "tools.orders.lookup"),
        ),
        case(
            "a namespace without a tool is not callable",
            "return await tools.api.issues({})",
            Ours(
                "the seed's UnknownTool \"not callable\"; ours is node's TypeError for calling an object",
            ),
            fails(
                K::ExecutionFailure,
                "TypeError: tools.api.issues is not a function",
            )
            .at(1, 14),
        ),
        case(
            "a non-identifier name with brackets",
            "return (await tools.context7['resolve-library-id']({ libraryName: 'x' })).libraryName",
            Seed,
            ok(json!("x")).calls(&[("context7.resolve-library-id", S::Success)]),
        ),
        case(
            "the tools root is not callable",
            "return tools()",
            Seed,
            fails(K::ExecutionFailure, "TypeError"),
        ),
        case(
            "typeof tools and a tool",
            "return [typeof tools, typeof tools.host.echo, typeof tools.host, tools.host === tools.host]",
            Seed,
            ok(json!(["object", "function", "object", true])),
        ),
        case(
            "too many arguments",
            "return await tools.notes.echo({ text: 'a' }, {})",
            Seed,
            fails(K::InvalidToolInput, "notes.echo"),
        ),
        case(
            "a schema mismatch suggests search",
            "return await tools.notes.echo({ text: 5 })",
            Seed,
            fails(K::InvalidToolInput, "notes.echo").calls(&[("notes.echo", S::Failure)]),
        ),
        case(
            "tool failures do not throw synchronously",
            "const p = tools.nope.nothing({}); return await p.then(() => 'no', (e) => [e.kind, typeof p.then])",
            Seed,
            ok(json!(["UnknownTool", "function"])),
        ),
        case(
            "Object.keys of the root",
            "return Object.keys(tools).sort()",
            Seed,
            ok(json!([
                "api",
                "context7",
                "host",
                "issues",
                "notes",
                "orders",
                "search",
                "workspace"
            ])),
        ),
    ]
}

#[tokio::test]
async fn tool_paths() {
    check(&runtime(), &tool_path_cases()).await;
    // A schema mismatch's suggestion points at search; too many arguments has none.
    let cm = runtime();
    let r = cm
        .execute("return await tools.notes.echo({ text: 5 })")
        .await;
    let e = r.error().unwrap();
    assert!(
        e.suggestions.iter().any(|s| s.contains("search")),
        "{}",
        r.to_json_string()
    );
    // An empty segment is refused when the runtime is built.
    for bad in ["", "a..b", "trail.", ".lead"] {
        let r = CodeMode::builder()
            .language(Language::JavaScript)
            .tool(bad, echo())
            .build();
        assert!(r.is_err(), "{bad:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// limits.test: configuration, the call limit, timeouts, sizes (§10, §11 38–41).

#[test]
fn limits_are_checked_when_configured() {
    assert!(Limits::default().with(LimitName::TimeoutMs, 0).is_err());
    assert!(Limits::default().with(LimitName::MaxToolCalls, -1).is_err());
    assert!(
        Limits::default()
            .with(LimitName::MaxOutputBytes, -1)
            .is_err()
    );
    assert!(Limits::default().with(LimitName::MaxToolCalls, 0).is_ok());
}

fn limit_cases() -> Vec<Case> {
    vec![
        case(
            "string length bound",
            "const s = 'x'.repeat(2 ** 24); let e1; try { s + 'x' } catch (e) { e1 = [e.name, e.message] } return [s.length, e1]",
            Ours("V8's bound is 2^29 - 24 characters; ours is the seed's 2^24"),
            ok(json!([16777216, ["RangeError", "Invalid string length"]])),
        ),
        case(
            "array length bound",
            "try { new Array(2 ** 32) } catch (e) { return [e.name, e.message] }",
            Node,
            ok(json!(["RangeError", "Invalid array length"])),
        ),
        case(
            "a sparse array is small",
            "const a = Array(10000000); return a.length",
            Node,
            ok(json!(10000000)),
        ),
        case(
            "many pending promises",
            "const ps = []; for (let i = 0; i < 10001; i++) ps.push(new Promise(() => {})); return ps.length",
            Ours("the seed caps pending promises at 10,000; our bound is the memory limit"),
            ok(json!(10001)),
        ),
        case(
            "deep nesting in the result",
            "let o = {}; const root = o; for (let i = 0; i < 200; i++) { o.c = {}; o = o.c } return root",
            Ours("the seed bounds nesting at 32 levels; ours at 128"),
            fails(K::InvalidDataValue, "128"),
        ),
        case(
            "nesting within the bound",
            "let o = {}; const root = o; for (let i = 0; i < 100; i++) { o.c = {}; o = o.c } return 1 + JSON.stringify(root).length",
            Node,
            ok(json!(603)),
        ),
    ]
}

#[tokio::test]
async fn limits() {
    check(&runtime(), &limit_cases()).await;
    let cm = runtime_with(Limits::default().with_max_tool_calls(0).unwrap());
    check(
        &cm,
        &[case(
            "no calls allowed",
            "return await tools.host.echo({})",
            Seed,
            fails(K::ToolCallLimitExceeded, "").calls(&[]),
        )],
    )
    .await;
    let cm = runtime_with(Limits::default().with_max_tool_calls(1).unwrap());
    check(
        &cm,
        &[case(
            "search counts",
            "search({}); return search({})",
            Seed,
            fails(K::ToolCallLimitExceeded, "").calls(&[("search", S::Success)]),
        )],
    )
    .await;
    let src = "let n = 0; for (let i = 0; i < 150; i++) n += (await tools.host.echo({ one: 1 })).one; return n";
    check(
        &runtime(),
        &[case(
            "150 sequential calls under the default limit",
            src,
            Ours("the seed has no default call limit; ours is 128"),
            fails(K::ToolCallLimitExceeded, "tool-call limit of 128"),
        )],
    )
    .await;
    let r = runtime().execute(src).await;
    assert_eq!(r.tool_calls.len(), 128);
    let cm = runtime_with(Limits::default().with_max_tool_calls(150).unwrap());
    check(
        &cm,
        &[case("150 sequential calls", src, Seed, ok(json!(150)))],
    )
    .await;
    let r = cm.execute(src).await;
    assert_eq!(r.tool_calls.len(), 150);
    let cm = runtime_with(Limits::default().with_timeout_ms(200).unwrap());
    let t = Instant::now();
    let r = cm.execute("while (true) {}").await;
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    let e = r.error().unwrap();
    assert_eq!(e.kind, K::TimeoutExceeded);
    assert!(e.message.contains("200"), "{}", e.message);
}

// ---------------------------------------------------------------------------------------------
// Node is the oracle: every `Node` case's program runs under node 20 and must give the value
// (and the console lines) the table expects.

/// Wraps a program as the body of an async function and prints `{value, logs}` as JSON.
fn node_program(src: &str) -> String {
    format!(
        "'use strict';\nconst __util = require('util'); const __logs = [];\n\
         const __fmt = (p) => (...a) => __logs.push(p + __util.format(...a));\n\
         console.log = __fmt(''); console.info = __fmt(''); console.warn = __fmt('[warn] ');\n\
         console.error = __fmt('[error] '); console.debug = __fmt('[debug] ');\n\
         (async function () {{\n{src}\n}})().then((v) => process.stdout.write(JSON.stringify({{ value: v === undefined ? null : v, logs: __logs }})),\n\
         (e) => process.stdout.write(JSON.stringify({{ error: String(e), logs: __logs }})));"
    )
}

#[test]
fn node_is_the_oracle() {
    if Command::new("node").arg("--version").output().is_err() {
        eprintln!("SKIPPED: node is not installed");
        return;
    }
    let all: Vec<Case> = [
        codemode_cases(),
        search_cases(),
        promise_cases(),
        stdlib_cases(),
        parity_cases(),
        errors_cases(),
        extension_cases(),
        tool_path_cases(),
        limit_cases(),
    ]
    .into_iter()
    .flatten()
    .filter(|c| c.oracle == Node)
    .collect();
    let mut bad = Vec::new();
    for c in &all {
        let out = Command::new("node")
            .arg("-e")
            .arg(node_program(c.src))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let got: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        if let Some(v) = &c.want.value
            && got["value"] != *v
        {
            bad.push(format!("{}: node gives {text}, the table {v}", c.name));
        }
        if let Some((_, frag)) = &c.want.error
            && !got["error"].as_str().is_some_and(|e| e.contains(frag))
        {
            bad.push(format!("{}: node gives {text}, the table {frag:?}", c.name));
        }
        if let Some(logs) = &c.want.logs
            && got["logs"] != json!(logs)
        {
            bad.push(format!("{}: node logs {text}, the table {logs:?}", c.name));
        }
    }
    assert!(bad.is_empty(), "{} case(s):\n{}", bad.len(), bad.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Defects these checklists found and that are not fixed yet: each case asserts the right result.

#[tokio::test]
async fn console_prints_a_regexp_as_node_does() {
    check(
        &runtime(),
        &[case(
            "console prints a regexp",
            "console.log(/ab/g, { r: /x/i }); return 1",
            Node,
            ok(json!(1)).logs(&["/ab/g { r: /x/i }"]),
        )],
    )
    .await;
}

#[tokio::test]
async fn missing_tool_under_a_callable_namespace() {
    check(
        &runtime(),
        &[
            case(
                "a missing tool under a callable namespace",
                "return await tools.issues.missing({})",
                Seed,
                fails(K::UnknownTool, "issues.missing"),
            ),
            case(
                "a near miss under a callable namespace",
                "return await tools.issues['get-list']({})",
                Seed,
                fails(K::UnknownTool, "tools.issues.list"),
            ),
        ],
    )
    .await;
}
