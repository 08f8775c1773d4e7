//! Tools, typed tools, schema validation messages and the tool tree, exercised through
//! `CodeMode::call_tool` (the same checks a Lua call goes through; no interpreter needed).

use codemode::schema::{CompiledSchema, InputHints};
use codemode::{BuildError, CodeMode, DiagnosticKind, Language, Namespace, Tool, ToolError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

fn echo() -> Tool {
    Tool::new(
        "Echo the input.",
        json!({"type": "object"}),
        |v| async move { Ok(v) },
    )
}

fn lookup() -> Tool {
    Tool::new(
        "Look up orders by item ids.",
        json!({
            "type": "object",
            "properties": {"items": {"type": "array", "items": {"type": "integer"}}},
            "required": ["items"]
        }),
        |v| async move { Ok(json!({"count": v["items"].as_array().map(|a| a.len()).unwrap_or(0)})) },
    )
}

#[tokio::test]
async fn invalid_input_names_path_and_rule() {
    let cm = CodeMode::builder()
        .tool("orders.lookup", lookup())
        .build()
        .unwrap();
    let d = cm
        .call_tool("orders.lookup", json!({"items": ["x"]}))
        .await
        .unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        d.message,
        "Invalid input for tool 'orders.lookup': at /items/0: \"x\" is not of type \"integer\""
    );
    assert_eq!(
        d.suggestions,
        vec!["Use search({ query = \"orders.lookup\" }) to get the tool's signature."]
    );
    let d = cm.call_tool("orders.lookup", json!({})).await.unwrap_err();
    assert_eq!(
        d.message,
        "Invalid input for tool 'orders.lookup': at the top level: \"items\" is a required property"
    );
    assert_eq!(
        cm.call_tool("orders.lookup", json!({"items": [1, 2]}))
            .await
            .unwrap(),
        json!({"count": 2})
    );
}

#[tokio::test]
async fn output_schema_is_enforced() {
    let t = Tool::new("d", json!({}), |v| async move { Ok(v) })
        .with_output_schema(json!({"type": "object", "properties": {"n": {"type": "integer"}}}));
    let cm = CodeMode::builder().tool("t", t).build().unwrap();
    assert_eq!(
        cm.call_tool("t", json!({"n": 1})).await.unwrap(),
        json!({"n": 1})
    );
    let d = cm.call_tool("t", json!({"n": "one"})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolOutput);
    assert_eq!(
        d.message,
        "Invalid output from tool 't': at /n: \"one\" is not of type \"integer\""
    );
}

#[tokio::test]
async fn tool_error_message_reaches_the_program_other_errors_do_not() {
    let visible = Tool::new("d", json!({}), |_| async move {
        Err(ToolError::new("Order o9 does not exist."))
    });
    let hidden = Tool::fallible("d", json!({}), |_| async move {
        Err::<Value, _>(std::io::Error::other(
            "connection to db.internal:5432 refused",
        ))
    });
    let forwarded = Tool::fallible("d", json!({}), |_| async move {
        Err::<Value, Box<dyn std::error::Error + Send + Sync>>(Box::new(ToolError::new(
            "quota exhausted",
        )))
    });
    let cm = CodeMode::builder()
        .tool("a.visible", visible)
        .tool("a.hidden", hidden)
        .tool("a.fwd", forwarded)
        .build()
        .unwrap();
    let d = cm.call_tool("a.visible", json!({})).await.unwrap_err();
    assert_eq!(
        (d.kind, d.message.as_str()),
        (DiagnosticKind::ToolFailure, "Order o9 does not exist.")
    );
    let d = cm.call_tool("a.hidden", json!({})).await.unwrap_err();
    assert_eq!(
        (d.kind, d.message.as_str()),
        (DiagnosticKind::ToolFailure, "Tool 'a.hidden' failed.")
    );
    let d = cm.call_tool("a.fwd", json!({})).await.unwrap_err();
    assert_eq!(d.message, "quota exhausted");
}

#[derive(Deserialize, JsonSchema)]
struct LookupInput {
    /// Order id.
    id: String,
    limit: Option<u32>,
}

#[derive(Serialize, JsonSchema)]
struct Order {
    id: String,
    total: u32,
}

#[tokio::test]
async fn typed_tool_derives_schemas_and_checks_input() {
    let t = Tool::typed("Look up an order.", |i: LookupInput| async move {
        Ok::<_, ToolError>(Order {
            id: i.id,
            total: i.limit.unwrap_or(7),
        })
    });
    assert_eq!(
        t.input_schema()["properties"]["id"]["type"],
        json!("string")
    );
    assert_eq!(t.input_schema()["required"], json!(["id"]));
    assert_eq!(
        t.output_schema().unwrap()["properties"]["total"]["type"],
        json!("integer")
    );
    let cm = CodeMode::builder()
        .tool("orders.lookup", t)
        .build()
        .unwrap();
    assert_eq!(
        cm.call_tool("orders.lookup", json!({"id": "o1"}))
            .await
            .unwrap(),
        json!({"id": "o1", "total": 7})
    );
    let d = cm
        .call_tool("orders.lookup", json!({"id": 5}))
        .await
        .unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        d.message,
        "Invalid input for tool 'orders.lookup': at /id: 5 is not of type \"string\""
    );
}

/// Schema of an input that the JSON Schema admits but serde rejects.
#[derive(Deserialize)]
struct Strict {
    #[allow(dead_code)]
    n: u8,
}
impl JsonSchema for Strict {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Strict".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "object"})
    }
}

#[tokio::test]
async fn typed_tool_deserialization_failure_is_invalid_input() {
    let t = Tool::typed("d", |_: Strict| async move { Ok::<_, ToolError>(1u8) });
    let cm = CodeMode::builder().tool("s", t).build().unwrap();
    let d = cm.call_tool("s", json!({"n": 300})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert!(
        d.message
            .starts_with("Invalid input for tool 's': invalid value: integer `300`"),
        "{}",
        d.message
    );
    assert_eq!(
        d.suggestions,
        vec!["Use search({ query = \"s\" }) to get the tool's signature."]
    );
}

/// An output type whose declared schema disagrees with what it serializes to.
#[derive(Serialize)]
struct Liar(String);
impl JsonSchema for Liar {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Liar".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "integer"})
    }
}

/// An output that cannot be serialized (map with non-string keys).
#[derive(Serialize, JsonSchema)]
struct BadMap(std::collections::BTreeMap<(u8, u8), u8>);

#[tokio::test]
async fn typed_tool_bad_output_is_invalid_output() {
    let liar = Tool::typed("d", |_: Value| async move {
        Ok::<_, ToolError>(Liar("x".into()))
    });
    let bad = Tool::typed("d", |_: Value| async move {
        Ok::<_, ToolError>(BadMap([((1, 2), 3)].into_iter().collect()))
    });
    let cm = CodeMode::builder()
        .tool("liar", liar)
        .tool("bad", bad)
        .build()
        .unwrap();
    let d = cm.call_tool("liar", json!({})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolOutput);
    assert_eq!(
        d.message,
        "Invalid output from tool 'liar': at the top level: \"x\" is not of type \"integer\""
    );
    let d = cm.call_tool("bad", json!({})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolOutput);
    assert!(
        d.message
            .starts_with("Invalid output from tool 'bad': the output cannot be serialized:"),
        "{}",
        d.message
    );
}

#[tokio::test]
async fn unknown_tool_gets_nearest_suggestion() {
    let cm = CodeMode::builder()
        .tool("orders.lookup", echo())
        .tool("orders.list", echo())
        .build()
        .unwrap();
    let d = cm.call_tool("orders.lookpu", json!({})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::UnknownTool);
    assert_eq!(
        d.message,
        "unknown tool 'tools.orders.lookpu' (did you mean tools.orders.lookup?)"
    );
    assert_eq!(d.suggestions[0], "tools.orders.lookup");
    let d = cm.call_tool("weather.now", json!({})).await.unwrap_err();
    assert_eq!(
        d.message,
        "unknown tool 'tools.weather.now': there is no namespace 'weather'; the namespaces are: tools.orders; use search({ query = \"...\" }) to find tools by what they do"
    );
    assert_eq!(
        d.suggestions,
        vec!["Use search({ query = \"weather.now\" }) to find available tools."]
    );
}

#[test]
fn dotted_keys_and_nested_namespaces_are_the_same_path() {
    let cm = CodeMode::builder()
        .tool("issues.list", echo())
        .namespace(
            "repo",
            Namespace::new()
                .description("Repository")
                .namespace("files", Namespace::new().tool("read", echo())),
        )
        .namespace("a.b", Namespace::new().tool("c.d", echo()))
        .build()
        .unwrap();
    let paths: Vec<&str> = cm.tools().paths().collect();
    assert_eq!(paths, vec!["a.b.c.d", "issues.list", "repo.files.read"]);
    assert_eq!(cm.tools().namespace_description("repo"), Some("Repository"));
    assert_eq!(
        cm.tools()
            .enclosing_descriptions("repo.files.read")
            .collect::<Vec<_>>(),
        vec!["Repository"]
    );
}

#[test]
fn duplicate_paths_are_rejected_even_when_spelled_differently() {
    let e = CodeMode::builder()
        .tool("issues.list", echo())
        .namespace("issues", Namespace::new().tool("list", echo()))
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        BuildError::DuplicateTool {
            path: "issues.list".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "tool 'issues.list' is defined twice; every tool needs its own path"
    );
}

#[test]
fn empty_segments_are_rejected() {
    for bad in ["", ".a", "a.", "a..b"] {
        let e = CodeMode::builder().tool(bad, echo()).build().unwrap_err();
        assert_eq!(e, BuildError::EmptySegment { path: bad.into() });
    }
    let e = CodeMode::builder()
        .namespace("x", Namespace::new().tool("y..z", echo()))
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tool path 'y..z' contains an empty segment; use non-empty names separated by single dots (e.g. \"orders.lookup\")"
    );
    let e = CodeMode::builder()
        .namespace("x.", Namespace::new())
        .build()
        .unwrap_err();
    assert_eq!(e, BuildError::EmptySegment { path: "x.".into() });
}

#[tokio::test]
async fn a_path_may_hold_a_tool_and_children() {
    let cm = CodeMode::builder()
        .tool(
            "git",
            Tool::new(
                "git itself",
                json!({}),
                |_| async move { Ok(json!("root")) },
            ),
        )
        .tool(
            "git.log",
            Tool::new("git log", json!({}), |_| async move { Ok(json!("log")) }),
        )
        .build()
        .unwrap();
    assert_eq!(cm.call_tool("git", json!({})).await.unwrap(), json!("root"));
    assert_eq!(
        cm.call_tool("git.log", json!({})).await.unwrap(),
        json!("log")
    );
}

#[test]
fn two_namespace_descriptions_are_rejected() {
    let e = CodeMode::builder()
        .namespace("a", Namespace::new().description("one"))
        .namespace("a", Namespace::new().description("two"))
        .build()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "namespace 'a' has two descriptions; give it only one"
    );
}

#[test]
fn bad_schema_is_a_build_error_naming_the_tool() {
    let t = Tool::new("d", json!({"type": "integr"}), |v| async move { Ok(v) });
    let e = CodeMode::builder()
        .tool("orders.lookup", t)
        .build()
        .unwrap_err();
    let BuildError::InvalidSchema { path, which, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!((path.as_str(), *which), ("orders.lookup", "input"));
    assert!(
        e.to_string()
            .starts_with("tool 'orders.lookup' has an invalid input schema: "),
        "{e}"
    );
    let t = echo().with_output_schema(json!({"minimum": "zero"}));
    let e = CodeMode::builder().tool("x", t).build().unwrap_err();
    assert!(
        e.to_string()
            .starts_with("tool 'x' has an invalid output schema: "),
        "{e}"
    );
}

/// Without the `js` feature (the default features); with it, tests/javascript.rs runs programs.
#[cfg(not(feature = "js"))]
#[test]
fn javascript_is_not_available_without_its_feature() {
    let e = CodeMode::builder()
        .language(Language::JavaScript)
        .build()
        .unwrap_err();
    assert_eq!(e, BuildError::UnsupportedLanguage(Language::JavaScript));
    assert_eq!(
        e.to_string(),
        "the JavaScript guest is not available in this build (its cargo feature is off, or it is not implemented yet); use another Language"
    );
    assert_eq!(Language::default(), Language::Lua);
}

/// Input errors end with the Lua guest's hints (the default language); outputs get none.
#[test]
fn schema_hints_are_the_languages() {
    let s = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {
            "ids": {"type": "array"},
            "page": {"type": "integer"},
            "n": {"type": "array", "items": {"type": ["integer", "null"]}}
        }
    }))
    .unwrap();
    assert_eq!(
        s.validate(&json!({"ids": {}})).unwrap_err(),
        "at /ids: {} is not of type \"array\"; an empty Lua table `{}` is sent as an object: \
         use json.array() for an empty array"
    );
    assert_eq!(
        s.validate(&json!({"page": 2.5})).unwrap_err(),
        "at /page: 2.5 is not of type \"integer\"; an integer is expected: use math.floor(x), \
         or // for integer division"
    );
    let err = s.validate(&json!({"n": [1, 0.5]})).unwrap_err();
    assert!(
        err.ends_with("; an integer is expected: use math.floor(x), or // for integer division"),
        "{err}"
    );
    assert_eq!(
        s.validate(&json!({"ids": {}})),
        s.validate_with(&json!({"ids": {}}), &InputHints::of(Language::Lua))
    );
    assert_eq!(
        s.validate_with(&json!({"ids": {}}), &InputHints::of(Language::JavaScript))
            .unwrap_err(),
        "at /ids: {} is not of type \"array\""
    );
    assert_eq!(
        s.validate_output(&json!({"ids": {}, "page": 2.5}))
            .unwrap_err(),
        "at /ids: {} is not of type \"array\"; at /page: 2.5 is not of type \"integer\""
    );
}

#[test]
fn schema_messages() {
    let s = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 1}, "tag": {"enum": ["a", "b"]}},
        "additionalProperties": false
    }))
    .unwrap();
    assert_eq!(
        s.validate(&json!({"n": 0})).unwrap_err(),
        "at /n: 0 is less than the minimum of 1"
    );
    assert_eq!(
        s.validate(&json!({"tag": "c"})).unwrap_err(),
        "at /tag: \"c\" is not one of \"a\" or \"b\""
    );
    assert_eq!(
        s.validate(&json!({"x": 1})).unwrap_err(),
        "at the top level: Additional properties are not allowed ('x' was unexpected)"
    );
    assert!(s.validate(&json!({"n": 2, "tag": "a"})).is_ok());
}

#[test]
fn runtime_types_are_thread_safe_and_executions_spawnable() {
    fn send_sync<T: Send + Sync + 'static>() {}
    fn spawnable<F: std::future::Future + Send + 'static>(_: &F) {}
    send_sync::<CodeMode>();
    send_sync::<Tool>();
    send_sync::<ToolError>();
    send_sync::<codemode::ExecutionResult>();
    let cm = CodeMode::builder().build().unwrap();
    let fut = cm.execute("return 1");
    spawnable(&fut);
    drop(fut);
}

#[tokio::test]
async fn a_call_into_an_unavailable_namespace_is_a_catchable_tool_failure() {
    use codemode::namespace::Unavailable;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let calls = Arc::new(AtomicUsize::new(0));
    let seen = calls.clone();
    let lookup = Tool::new(
        "Look up.",
        json!({"type": "object"}),
        |v| async move { Ok(v) },
    );
    let cm = CodeMode::builder()
        .namespace(
            "git",
            Namespace::new().unavailable(
                Unavailable::new("the server failed to start; continue without tools.git.")
                    .on_call(move |p| {
                        assert_eq!(p, "git.log");
                        seen.fetch_add(1, Ordering::SeqCst);
                    }),
            ),
        )
        .tool("orders.lookup", lookup)
        .build()
        .unwrap();
    let r = cm
        .execute(
            r#"local ok, err = pcall(function() return tools.git.log({ limit = 1 }) end)
return { ok, err, tools.orders.lookup({ id = "o1" }).id }"#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "input:1: tools.git.log cannot be called: the server failed to start; continue without tools.git.",
            "o1"
        ])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // Uncaught: the execution fails with kind ToolFailure at the call's position.
    let r = cm.execute("local x = 1\nreturn tools.git.log({})").await;
    let e = r.error().expect("failure");
    assert_eq!(
        e.kind,
        DiagnosticKind::ToolFailure,
        "{}",
        r.to_json_string()
    );
    assert_eq!(
        e.message,
        "tools.git.log cannot be called: the server failed to start; continue without tools.git."
    );
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((2, 17)));
    assert!(e.suggestions.is_empty());
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    // Other unknown paths are still UnknownTool.
    let r = cm.execute("return tools.gitx.log({})").await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::UnknownTool);
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

/// 200 executions, each waiting 200 ms for a tool, on a runtime whose blocking pool has 4
/// threads: a waiting execution holds no thread, so they all wait at once (one guest per
/// blocking thread for the whole execution would queue them: 200 / 4 x 200 ms = 10 s).
#[test]
fn waiting_for_a_tool_holds_no_blocking_thread() {
    use codemode::Limits;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;
    const N: usize = 200;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .max_blocking_threads(4)
        .enable_all()
        .build()
        .unwrap();
    let in_flight = Arc::new(AtomicUsize::new(0));
    let peak = Arc::new(AtomicUsize::new(0));
    let (f, p) = (in_flight.clone(), peak.clone());
    let sleep = Tool::new("Sleeps 200 ms.", json!({"type": "object"}), move |v| {
        let (f, p) = (f.clone(), p.clone());
        async move {
            let now = f.fetch_add(1, Ordering::SeqCst) + 1;
            p.fetch_max(now, Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(200)).await;
            f.fetch_sub(1, Ordering::SeqCst);
            Ok(v)
        }
    });
    let cm = CodeMode::builder()
        .tool("slow.sleep", sleep)
        .limits(Limits::default().with_timeout_ms(30_000).unwrap())
        .build()
        .unwrap();
    let t = std::time::Instant::now();
    let results = rt.block_on(async {
        let handles: Vec<_> = (0..N)
            .map(|i| {
                tokio::spawn(cm.execute(&format!(
                    "local r = tools.slow.sleep({{ i = {i} }})\nreturn r.i * 2"
                )))
            })
            .collect();
        futures::future::join_all(handles).await
    });
    let took = t.elapsed();
    for (i, r) in results.into_iter().enumerate() {
        let r = r.unwrap();
        assert_eq!(r.value(), Some(&json!(i * 2)), "{}", r.to_json_string());
    }
    assert!(took < Duration::from_secs(4), "{took:?}");
    let peak = peak.load(Ordering::SeqCst);
    assert!(
        peak >= N / 2,
        "at most {peak} tool calls were waiting at once"
    );
}

/// Issue 16 (e): schemas compiled by the tool's maker are used as they are (not compiled
/// again at build) and check inputs and outputs like the schemas of `Tool::new`.
#[tokio::test]
async fn compiled_schemas_are_used_as_given() {
    let input = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {"items": {"type": "array", "items": {"type": "integer"}}},
        "required": ["items"]
    }))
    .unwrap();
    let output =
        CompiledSchema::compile(&json!({"type": "object", "required": ["count"]})).unwrap();
    let tool = Tool::new("Count items.", json!(true), |v| async move {
        match v["items"].as_array().map(|a| a.len()) {
            Some(0) => Ok(json!({"wrong": true})),
            n => Ok(json!({"count": n})),
        }
    })
    .with_compiled_input_schema(input.clone())
    .with_compiled_output_schema(output);
    assert_eq!(tool.input_schema(), input.schema());
    assert_eq!(tool.output_schema().unwrap()["required"], json!(["count"]));
    let cm = CodeMode::builder()
        .tool("orders.count", tool)
        .build()
        .unwrap();
    let d = cm
        .call_tool("orders.count", json!({"items": ["x"]}))
        .await
        .unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        d.message,
        "Invalid input for tool 'orders.count': at /items/0: \"x\" is not of type \"integer\""
    );
    assert_eq!(
        cm.call_tool("orders.count", json!({"items": [1, 2]}))
            .await
            .unwrap(),
        json!({"count": 2})
    );
    let d = cm
        .call_tool("orders.count", json!({"items": []}))
        .await
        .unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolOutput, "{}", d.message);
    // A plain output schema set afterwards replaces the compiled one.
    let tool = Tool::new("Echo.", json!(true), |v| async move { Ok(v) })
        .with_compiled_output_schema(CompiledSchema::compile(&json!({"type": "string"})).unwrap())
        .with_output_schema(json!({"type": "object"}));
    let cm = CodeMode::builder().tool("e.echo", tool).build().unwrap();
    assert_eq!(
        cm.call_tool("e.echo", json!({"a": 1})).await.unwrap(),
        json!({"a": 1})
    );
}
