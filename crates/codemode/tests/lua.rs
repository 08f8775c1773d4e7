//! End-to-end: Lua programs calling host tools through `CodeMode::execute` (needs the real VM).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::{
    CodeMode, DiagnosticKind, ExecutionResult, Limits, Namespace, Options, Tool, ToolCallStatus,
    ToolError,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
struct AddInput {
    a: i64,
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct AddOutput {
    sum: i64,
}

fn options(limits: Limits) -> Options {
    let lookup = Tool::new(
        "Look up an order by id.",
        json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
        |v| async move {
            let id = v["id"].as_str().unwrap_or_default().to_string();
            if id == "missing" {
                return Err(ToolError::new(format!("No order with id '{id}'.")));
            }
            Ok(
                json!({"id": id, "total": 42, "items": [{"sku": "a", "qty": 2}, {"sku": "b", "qty": 1}], "tags": []}),
            )
        },
    );
    let hang = Tool::new("Never answers.", json!({}), |_| async move {
        futures::future::pending::<()>().await;
        Ok(Value::Null)
    });
    let add = Tool::typed("Add two integers.", |i: AddInput| async move {
        Ok::<_, ToolError>(AddOutput { sum: i.a + i.b })
    });
    CodeMode::builder()
        .namespace(
            "orders",
            Namespace::new()
                .description("Order management")
                .tool("lookup", lookup),
        )
        .tool("slow.hang", hang)
        .tool("math.add", add)
        .limits(limits)
}

fn runtime(limits: Limits) -> CodeMode {
    options(limits).build().unwrap()
}

async fn run(src: &str) -> ExecutionResult {
    runtime(Limits::default()).execute(src).await
}

#[tokio::test]
async fn tool_call_returns_data() {
    let r = run(r#"
        local o = tools.orders.lookup({ id = "o1" })
        local qty = 0
        for _, it in ipairs(o.items) do qty = qty + it.qty end
        print("order", o.id)
        return { id = o.id, total = o.total, qty = qty, tags = o.tags }
    "#)
    .await;
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":{"id":"o1","qty":3,"tags":[],"total":42},"logs":["order\to1"],"toolCalls":[{"name":"orders.lookup","input":{"id":"o1"},"status":"success"}]}"#
    );
}

#[tokio::test]
async fn pcall_catches_a_failing_tool() {
    let r = run(r#"
        local ok, err = pcall(tools.orders.lookup, { id = "missing" })
        return { ok = ok, err = err }
    "#)
    .await;
    let v = r
        .value()
        .unwrap_or_else(|| panic!("{}", r.to_json_string()));
    assert_eq!(v["ok"], json!(false));
    assert!(
        v["err"]
            .as_str()
            .unwrap()
            .contains("No order with id 'missing'."),
        "{v}"
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

#[tokio::test]
async fn uncaught_tool_failure_keeps_its_message() {
    let r = run(r#"return tools.orders.lookup({ id = "missing" })"#).await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolFailure);
    assert_eq!(e.message, "No order with id 'missing'.");
}

#[tokio::test]
async fn invalid_input_from_lua() {
    let r = run(r#"return tools.orders.lookup({ id = 5 })"#).await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        e.message,
        "Invalid input for tool 'orders.lookup': at /id: 5 is not of type \"string\""
    );
    assert_eq!(
        e.suggestions,
        vec!["Use search({ query = \"orders.lookup\" }) to get the tool's signature."]
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    assert_eq!(r.tool_calls[0].input, json!({"id": 5}));
}

#[tokio::test]
async fn typed_tool_from_lua() {
    let r = run(r#"return tools.math.add({ a = 2, b = 40 }).sum"#).await;
    assert_eq!(r.value(), Some(&json!(42)), "{}", r.to_json_string());
    let r = run(r#"return tools.math.add({ a = 2 })"#).await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::InvalidToolInput);
}

#[tokio::test]
async fn unknown_tool_suggests_the_nearest_path() {
    let r = run(r#"return tools.orders.lookpu({ id = "o1" })"#).await;
    let e = r.error().unwrap();
    assert_eq!(
        e.kind,
        DiagnosticKind::UnknownTool,
        "{}",
        r.to_json_string()
    );
    let text = format!("{} {:?}", e.message, e.suggestions);
    assert!(text.contains("orders.lookup"), "{text}");
    // The attempt is listed as a failure; no input was sent.
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "orders.lookpu");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

#[tokio::test]
async fn search_from_lua() {
    let r = run(r#"
        local res = search({ query = "order" })
        return { n = #res.items, first = res.items[1].path, remaining = res.remaining }
    "#)
    .await;
    assert_eq!(
        r.value(),
        Some(&json!({"n": 1, "first": "orders.lookup", "remaining": 0})),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls[0].name, "search");
}

#[tokio::test]
async fn parse_error_has_a_location() {
    let r = run("local x = \nreturn x +").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ParseError);
    assert!(e.location.is_some(), "{}", r.to_json_string());
    assert!(r.tool_calls.is_empty());
}

#[tokio::test]
async fn empty_program_is_a_parse_error() {
    for src in ["", "   \n", "-- only a comment\n--[[ and a long one ]]"] {
        let r = run(src).await;
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":false,"error":{"kind":"ParseError","message":"The program is empty: write Lua statements and `return` the result."},"toolCalls":[]}"#
        );
    }
    assert_eq!(run("-- comment\nreturn 1").await.value(), Some(&json!(1)));
}

#[tokio::test]
async fn busy_loop_times_out_with_logs_and_tool_calls() {
    let cm = runtime(Limits::default().with_timeout_ms(200).unwrap());
    let t = Instant::now();
    let r = cm
        .execute(
            r#"
            print("before")
            tools.orders.lookup({ id = "o1" })
            local i = 0
            while true do i = i + 1 end
        "#,
        )
        .await;
    let elapsed = t.elapsed();
    assert!(elapsed < Duration::from_millis(300), "took {elapsed:?}");
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(e.message, "Execution timed out after 200ms.");
    assert_eq!(r.logs, vec!["before"]);
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Success);
}

#[tokio::test]
async fn hanging_tool_is_interrupted() {
    let cm = runtime(Limits::default().with_timeout_ms(100).unwrap());
    let t = Instant::now();
    let r = cm
        .execute(r#"print("waiting") return tools.slow.hang({})"#)
        .await;
    assert!(
        t.elapsed() < Duration::from_millis(200),
        "took {:?}",
        t.elapsed()
    );
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.logs, vec!["waiting"]);
    assert_eq!(r.tool_calls[0].name, "slow.hang");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
}

#[tokio::test]
async fn pcall_cannot_catch_the_timeout() {
    let cm = runtime(Limits::default().with_timeout_ms(100).unwrap());
    let r = cm
        .execute(r#"local ok = pcall(tools.slow.hang, {}) return "caught""#)
        .await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
}

#[tokio::test]
async fn tool_call_limit_ends_the_run() {
    let cm = runtime(Limits::default().with_max_tool_calls(3).unwrap());
    let r = cm
        .execute(r#"for i = 1, 10 do tools.orders.lookup({ id = "o" .. i }) end return "done""#)
        .await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolCallLimitExceeded);
    assert!(
        e.message
            .starts_with("Execution exceeded its tool-call limit of 3;"),
        "{}",
        e.message
    );
    assert_eq!(r.tool_calls.len(), 3);
    assert_eq!(r.tool_calls[2].input, json!({"id": "o3"}));
}

#[tokio::test]
async fn pcall_cannot_swallow_the_tool_call_limit() {
    let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
    let r = cm
        .execute(
            r#"
            local caught = 0
            for i = 1, 10 do
                local ok = pcall(tools.orders.lookup, { id = "o" })
                if not ok then caught = caught + 1 end
            end
            return caught
        "#,
        )
        .await;
    assert_eq!(
        r.error().map(|e| e.kind),
        Some(DiagnosticKind::ToolCallLimitExceeded),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls.len(), 2);
}

#[tokio::test]
async fn denied_and_search_calls_count_toward_the_limit() {
    let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
    let r = cm
        .execute(
            r#"
            pcall(tools.orders.lookup, { id = 5 })
            search({ query = "x" })
            tools.orders.lookup({ id = "o1" })
        "#,
        )
        .await;
    assert_eq!(
        r.error().map(|e| e.kind),
        Some(DiagnosticKind::ToolCallLimitExceeded),
        "{}",
        r.to_json_string()
    );
    let names: Vec<&str> = r.tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, vec!["orders.lookup", "search"]);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

#[tokio::test]
async fn large_value_and_logs_are_truncated() {
    let cm = runtime(Limits::default().with_max_output_bytes(30).unwrap());
    let r = cm
        .execute(r#"for i = 1, 5 do print("line " .. i) end return string.rep("x", 100)"#)
        .await;
    assert!(r.truncated);
    assert_eq!(
        r.value(),
        Some(&json!(format!(
            "\"{} [result truncated: 102 bytes exceeds the 30-byte output limit; return a smaller value]",
            "x".repeat(29)
        )))
    );
    assert_eq!(r.logs, vec!["[logs truncated: showing 0 of 5 lines]"]);

    let r = cm
        .execute(r#"for i = 1, 5 do print("line " .. i) end return 1"#)
        .await;
    // value "1" uses 1 byte; 29 left: "line N" costs 7 → four lines.
    assert_eq!(r.value(), Some(&json!(1)));
    assert_eq!(
        r.logs,
        vec![
            "line 1",
            "line 2",
            "line 3",
            "line 4",
            "[logs truncated: showing 4 of 5 lines]"
        ]
    );
    assert!(r.truncated);
}

#[tokio::test]
async fn runtime_is_reused_with_fresh_state() {
    let cm = runtime(Limits::default().with_max_tool_calls(1).unwrap());
    for _ in 0..20 {
        let r = cm
            .execute(
                r#"
                counter = (counter or 0) + 1
                local o = tools.orders.lookup({ id = "o1" })
                print(counter)
                return counter
            "#,
            )
            .await;
        assert_eq!(r.value(), Some(&json!(1)), "{}", r.to_json_string());
        assert_eq!(r.logs, vec!["1"]);
        assert_eq!(r.tool_calls.len(), 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundred_concurrent_executions() {
    // Every call to `sync.gate` waits until all 100 executions are inside it, so this only
    // finishes if the executions really run concurrently (spawned, `Send` futures).
    let barrier = Arc::new(tokio::sync::Barrier::new(100));
    let gate = Tool::new(
        "Waits for all callers.",
        json!({"type": "object", "properties": {"n": {"type": "integer"}}}),
        move |v| {
            let barrier = barrier.clone();
            async move {
                barrier.wait().await;
                Ok(json!({"n": v["n"]}))
            }
        },
    );
    let cm = options(Limits::default())
        .tool("sync.gate", gate)
        .build()
        .unwrap();
    let started = Arc::new(AtomicUsize::new(0));
    let mut handles = Vec::new();
    for n in 0..100i64 {
        let cm = cm.clone();
        let started = started.clone();
        handles.push(tokio::spawn(async move {
            started.fetch_add(1, Ordering::SeqCst);
            let src = format!(
                "local r = tools.sync.gate({{ n = {n} }}) local s = 0 for i = 1, 1000 do s = s + i end return r.n * 1000000 + s"
            );
            (n, cm.execute(&src).await)
        }));
    }
    let all = async {
        for h in handles {
            let (n, r) = h.await.unwrap();
            assert_eq!(
                r.value(),
                Some(&json!(n * 1_000_000 + 500_500)),
                "{}",
                r.to_json_string()
            );
            assert_eq!(r.tool_calls.len(), 1);
        }
    };
    tokio::time::timeout(Duration::from_secs(30), all)
        .await
        .expect("executions did not run concurrently");
    assert_eq!(started.load(Ordering::SeqCst), 100);
}

#[tokio::test]
async fn one_shot_execute_matches_the_runtime() {
    let src = r#"return tools.orders.lookup({ id = "o7" }).id"#;
    let a = codemode::execute(options(Limits::default()), src)
        .await
        .unwrap();
    let b = runtime(Limits::default()).execute(src).await;
    assert_eq!(a, b);
    assert_eq!(a.value(), Some(&json!("o7")));
}

#[tokio::test]
async fn busy_sort_comparator_times_out() {
    // A native calling back into Lua cannot yield; the machine checks the host's deadline there.
    let cm = runtime(Limits::default().with_timeout_ms(150).unwrap());
    let t = Instant::now();
    let r = cm
        .execute("local t = {} for i = 1, 100 do t[i] = i end\ntable.sort(t, function(a, b) while true do end end)")
        .await;
    assert!(
        t.elapsed() < Duration::from_millis(250),
        "took {:?}",
        t.elapsed()
    );
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(e.message, "Execution timed out after 150ms.");
    assert_eq!(e.location.map(|l| l.line), Some(2));
}

#[tokio::test]
async fn memory_limit_reaches_the_interpreter() {
    let cm = runtime(
        Limits::default()
            .with_max_memory_bytes(Some(200_000))
            .unwrap(),
    );
    let r = cm
        .execute("local t = {} for i = 1, 1e6 do t[i] = 'x' .. i end return #t")
        .await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert!(e.message.contains("200000 bytes"), "{}", e.message);
    // Without the cap the same program is fine.
    let r = run("local t = {} for i = 1, 1e4 do t[i] = 'x' .. i end return #t").await;
    assert_eq!(r.value(), Some(&json!(10000)));
}

#[tokio::test]
async fn data_shapes_survive_a_round_trip_through_tools() {
    let echo = Tool::new("Echo.", json!({}), |v| async move { Ok(v) });
    let cm = options(Limits::default())
        .tool("echo", echo)
        .build()
        .unwrap();
    let r = cm
        .execute("local r = tools.echo({ a = json.array(), b = {}, n = json.null, list = {1, 2} }) return tools.echo(r)")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!({"a": [], "b": {}, "list": [1, 2]})),
        "{}",
        r.to_json_string()
    );
    // `json.null` goes out as null; a null object field comes back left out (reads as nil).
    assert_eq!(
        r.tool_calls[0].input,
        json!({"a": [], "b": {}, "list": [1, 2], "n": null})
    );
    assert_eq!(
        r.tool_calls[1].input,
        json!({"a": [], "b": {}, "list": [1, 2]})
    );
}

#[tokio::test]
async fn values_that_cannot_cross_are_invalid_data() {
    let r = run("return tools.orders.lookup({ id = 'a', f = function() end })").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::InvalidDataValue);
    assert!(e.message.contains("input.f"), "{}", e.message);
    // Refused before it was made, yet listed (and counted) as a failed attempt.
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "orders.lookup");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

/// A program that runs off its end (no `return` statement ran) succeeds with `value: null` and
/// a `NoReturn` warning; an explicit `return` (even of nothing) gives no warning.
#[tokio::test]
async fn missing_return_is_a_warning() {
    let warned = |r: &ExecutionResult| {
        r.warnings
            .iter()
            .filter(|w| w.kind == codemode::DiagnosticKind::NoReturn)
            .count()
    };
    for src in [
        "local t = {} for i = 1, 3 do t[i] = i end",
        "local x = tools.orders.lookup({ id = \"1\" })",
        "local function f() return 1 end local y = f()",
        "if false then return 1 end",
        "print('only printing')",
    ] {
        let r = run(src).await;
        assert_eq!(r.value(), Some(&Value::Null), "{src}");
        assert_eq!(warned(&r), 1, "{src}: {:?}", r.warnings);
        assert!(
            r.warnings[0].message.contains("return <value>"),
            "{}",
            r.warnings[0].message
        );
    }
    for src in [
        "return",
        "return nil",
        "local t = {} return t",
        "if true then return 1 end",
    ] {
        let r = run(src).await;
        assert!(r.value().is_some(), "{src}");
        assert_eq!(warned(&r), 0, "{src}: {:?}", r.warnings);
    }
    let r = run("local x = nil + 1").await;
    assert!(r.value().is_none());
    assert_eq!(warned(&r), 0);
    let json = run("local a = 1").await.to_json_string();
    assert!(json.contains(r#""warnings":[{"kind":"NoReturn""#), "{json}");
}

/// An unknown tool inside an existing namespace with no near spelling lists what the namespace
/// has (it used to suggest whichever of its tools sorted first); a near spelling is suggested.
#[tokio::test]
async fn unknown_tool_in_a_namespace_lists_its_tools() {
    let r = run("return tools.orders.cancel({ id = '1' })").await;
    let d = r.error().expect("fails");
    assert_eq!(d.kind, DiagnosticKind::UnknownTool);
    assert_eq!(
        d.message,
        "unknown tool 'tools.orders.cancel': tools.orders has no tool 'cancel'; it contains: lookup; use search({ query = \"...\" }) to find tools by what they do"
    );
    assert!(d.suggestions.is_empty(), "{:?}", d.suggestions);
    let r = run("return tools.orders.lokup({ id = '1' })").await;
    let d = r.error().expect("fails");
    assert!(
        d.message.contains("(did you mean tools.orders.lookup?)"),
        "{}",
        d.message
    );
    let r = run("return tools.nothing.here({})").await;
    assert!(
        r.error()
            .unwrap()
            .message
            .contains("there is no namespace 'nothing'; the namespaces are: tools.math, tools.orders, tools.slow; use search"),
        "{:?}",
        r.error()
    );
}

/// `pcall(tool, arg)` catches an argument that cannot cross to the host (found by the breaker:
/// the execution failed with InvalidDataValue instead).
#[tokio::test]
async fn pcall_of_a_tool_catches_an_argument_that_cannot_cross() {
    let r = run("return {pcall(tools.orders.lookup, { id = print })}").await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "input.id is a function; functions cannot cross to the host. Pass data only (strings, numbers, booleans, json.null and tables of them)"
        ]))
    );
    let r = run("local t = {} t.me = t \
         return {xpcall(tools.orders.lookup, function(m) return 'handled: ' .. m end, t)}")
    .await;
    let v = r.value().expect("ok");
    assert_eq!(v[0], json!(false));
    assert!(
        v[1].as_str()
            .unwrap()
            .starts_with("handled: input.me refers back to input"),
        "{v}"
    );
    // The refused call is counted and listed like the one under pcall.
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}
