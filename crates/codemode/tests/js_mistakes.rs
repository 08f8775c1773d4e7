//! Mistakes models typically make in JavaScript (feature `js`): each program gets, in its
//! error or in a `LikelyMistake` warning, a message that names the fix. Error messages keep
//! V8's wording first; the hint follows.
#![cfg(feature = "js")]

use codemode::{CodeMode, DiagnosticKind, Language, Tool};
use serde_json::{Value, json};

fn runtime() -> CodeMode {
    CodeMode::builder()
        .language(Language::JavaScript)
        .tool(
            "orders.get",
            Tool::new(
                "Look up an order.",
                json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
                |v: Value| async move { Ok(json!({"id": v["id"], "total": 30, "items": [1, 2]})) },
            ),
        )
        .tool(
            "util.echo",
            Tool::new("Echo.", json!({"type": "object"}), |v: Value| async move {
                Ok(v)
            }),
        )
        .build()
        .unwrap()
}

#[tokio::test]
async fn each_typical_mistake_gets_a_message_naming_the_fix() {
    let cm = runtime();
    // (program, what the error or a warning must say)
    let cases: &[(&str, &str)] = &[
        // Un-awaited tool calls used as data.
        (
            "const o = tools.orders.get({ id: 1 });\nreturn o.total;",
            "Write `(await call).total`",
        ),
        (
            "const o = tools.orders.get({ id: 1 });\nreturn o.items.length;",
            "`o.items` is undefined: o is a Promise (a call not awaited)",
        ),
        (
            "return tools.orders.get({ id: 1 }) + 1;",
            "the call was not awaited. Write `await` before it",
        ),
        (
            "return `total: ${tools.orders.get({ id: 1 })}`;",
            "A Promise was used as a value",
        ),
        (
            "return { order: tools.orders.get({ id: 1 }) };",
            "result.order is a promise (a call that was not awaited)",
        ),
        (
            "await tools.util.echo({ order: tools.orders.get({ id: 1 }) });",
            "write `await` before the call",
        ),
        (
            "const o = tools.orders.get({ id: 1 });\nreturn o.then2();",
            "(await o).then2(...)",
        ),
        // Names.
        (
            "await tools.orders.gett({ id: 1 });",
            "did you mean tools.orders.get?",
        ),
        (
            "const o = { id: 1, items: [] };\nreturn o.itmes.length;",
            "Did you mean 'items'?",
        ),
        (
            "return [3, 1].fitler((x) => x > 1);",
            "Did you mean 'filter'?",
        ),
        ("return Math.flor(1.5);", "Did you mean 'floor'?"),
        ("return math.floor(1.5);", "The global is `Math`"),
        ("return JSON.stringfy({});", "Did you mean 'stringify'?"),
        // Lua habits.
        (
            "local total = 1\nreturn total",
            "`local` is Lua: declare with `const`",
        ),
        ("const a = 1;\nif (a ~= 2) { return 1 }", "write `!==`"),
        (
            "const s = 'a' .. 'b';\nreturn s;",
            "`..` is Lua's concatenation",
        ),
        (
            "for i = 1, 3 do\n  console.log(i)\nend",
            "blocks use braces",
        ),
        ("const t = [1, 2];\nreturn #t", "write `t.length`"),
        ("let x;\nif (x == nil) { return 0 }", "write `null`"),
        ("print('hi')", "`console.log(...)`"),
        ("return tostring(5)", "`String(x)`"),
        (
            "for (const [k, v] of pairs({ a: 1 })) {}",
            "Object.entries(o)",
        ),
        ("-- the total\nreturn 1", "write `//`"),
        ("return True", "`true` and `false`"),
        // JavaScript habits that silently misbehave.
        (
            "const r = [];\nfor (const i in [5, 6]) r.push(i + 1);\nreturn r;",
            "write `for (const x of arr)`",
        ),
    ];
    for (src, want) in cases {
        let r = cm.execute(src).await;
        let mut said: Vec<String> = r.warnings.iter().map(|w| w.message.clone()).collect();
        if let Some(e) = r.error() {
            said.push(e.message.clone());
            assert!(
                e.location.is_some(),
                "{src}: no location: {}",
                r.to_json_string()
            );
        } else {
            assert!(
                r.warnings
                    .iter()
                    .any(|w| w.location.is_some() && w.message.contains(want)),
                "{src}: {}",
                r.to_json_string()
            );
        }
        assert!(
            said.iter().any(|m| m.contains(want)),
            "{src}: wanted {want:?} in {}",
            r.to_json_string()
        );
    }
}

#[tokio::test]
async fn likely_mistakes_are_warnings_once_per_place_and_bounded() {
    let cm = runtime();
    let r = cm
        .execute(
            "const p = tools.orders.get({ id: 1 });\nlet n = 0;\nfor (let i = 0; i < 1000; i++) if (p.total === undefined) n++;\nreturn n;",
        )
        .await;
    assert_eq!(r.value(), Some(&json!(1000)), "{}", r.to_json_string());
    let slips: Vec<_> = r
        .warnings
        .iter()
        .filter(|w| w.kind == DiagnosticKind::LikelyMistake)
        .collect();
    assert_eq!(slips.len(), 1, "{}", r.to_json_string());
    assert_eq!(slips[0].location.map(|l| l.line), Some(3));
    // Many places: at most eight warnings.
    let src = (0..20)
        .map(|i| format!("for (const k in [1]) {{ {i} }}"))
        .collect::<Vec<_>>()
        .join("\n");
    let r = cm.execute(&format!("{src}\nreturn 1;")).await;
    let n = r
        .warnings
        .iter()
        .filter(|w| w.kind == DiagnosticKind::LikelyMistake)
        .count();
    assert_eq!(n, 8, "{}", r.to_json_string());
    // Awaited correctly: no warning.
    let r = cm
        .execute("const o = await tools.orders.get({ id: 1 });\nfor (const x of o.items) {}\nreturn o.total + 1;")
        .await;
    assert_eq!(r.value(), Some(&json!(31)));
    assert!(r.warnings.is_empty(), "{}", r.to_json_string());
}

/// A string cut inside a UTF-16 pair cannot cross as JSON text: it becomes U+FFFD, and a
/// warning names the path and how to cut by code points. Whole strings give no warning.
#[tokio::test]
async fn a_lone_surrogate_crossing_to_the_host_is_a_warning() {
    let cm = runtime();
    let r = cm
        .execute("const s = 'ab\u{1F600}';\nawait tools.util.echo({ t: s.slice(0, 3) });\nreturn { cut: s.slice(0, 3), whole: s };")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!({"cut": "ab\u{FFFD}", "whole": "ab\u{1F600}"})),
        "{}",
        r.to_json_string()
    );
    let said: Vec<&str> = r
        .warnings
        .iter()
        .filter(|w| w.kind == DiagnosticKind::LikelyMistake)
        .map(|w| w.message.as_str())
        .collect();
    assert_eq!(said.len(), 2, "{}", r.to_json_string());
    assert!(
        said[0].starts_with("input.t holds a lone surrogate"),
        "{said:?}"
    );
    assert!(
        said[1].starts_with("result.cut holds a lone surrogate"),
        "{said:?}"
    );
    assert!(
        said[1].contains("Array.from(s).slice(0, n).join"),
        "{said:?}"
    );
    let r = cm.execute("return ['ab\u{1F600}', 'é'];").await;
    assert!(r.warnings.is_empty(), "{}", r.to_json_string());
    // In a key too, in both shapes of object (a plain record, and one with a getter's copy).
    for src in [
        "const o = {};\no['a' + '\u{1F600}'.slice(0, 1)] = 1;\nreturn { o };",
        "const o = { get g() { return 1; } };\no['a' + '\u{1F600}'.slice(0, 1)] = 1;\nObject.freeze(o);\nreturn { o: [o] };",
    ] {
        let r = cm.execute(src).await;
        assert!(
            r.warnings
                .iter()
                .any(|w| w.message.contains("has a key holding a lone surrogate")),
            "{src}: {}",
            r.to_json_string()
        );
    }
}

/// Issue 17 points 5, 10 and 11 in JavaScript: a namespace that does not exist is named as
/// such, with the namespaces there are; so is an unknown `search` namespace; a call into an
/// unavailable namespace is listed as a failed call and counted against `max_tool_calls`.
#[tokio::test]
async fn missing_and_unavailable_namespaces_in_javascript() {
    use codemode::namespace::Unavailable;
    use codemode::{Limits, Namespace, ToolCallStatus};
    let build = |limits: Limits| {
        CodeMode::builder()
            .language(Language::JavaScript)
            .tool(
                "crm.list_customers",
                Tool::new(
                    "List customers.",
                    json!({"type": "object"}),
                    |v: Value| async move { Ok(v) },
                ),
            )
            .namespace(
                "down",
                Namespace::new().unavailable(Unavailable::new("server 'down' failed to start")),
            )
            .limits(limits)
            .build()
            .unwrap()
    };
    let cm = build(Limits::default());
    let r = cm
        .execute("return await tools.github.list_issues({});")
        .await;
    let e = r.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::UnknownTool);
    assert_eq!(
        e.message,
        "unknown tool 'tools.github.list_issues': there is no namespace 'github'; the namespaces are: tools.crm; use search({ query: \"...\" }) to find tools by what they do"
    );
    let r = cm.execute("return search({ namespace: 'nope' });").await;
    let e = r.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        e.message,
        "search: namespace \"nope\" does not exist; the namespaces are: crm; leave namespace out to search every tool"
    );

    let cm = build(Limits::default().with_max_tool_calls(1).unwrap());
    let r = cm
        .execute(
            "for (const n of ['a', 'b']) { try { await tools.down[n]({}); } catch (e) {} }\nreturn 1;",
        )
        .await;
    assert_eq!(
        r.error().map(|e| e.kind),
        Some(DiagnosticKind::ToolCallLimitExceeded),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "down.a");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}
