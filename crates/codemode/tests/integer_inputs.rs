//! Integral floats sent to integer-typed tool fields arrive as integers: Lua's `/` always gives
//! a float (`20 / 10` is `2.0`), and typed tools (`i64` fields) could not read `2.0`. The
//! conversion follows the tool's input schema (`CompiledSchema::coerce_integers`); these tests
//! go through real Lua programs and `CodeMode::execute`.

use std::sync::{Arc, Mutex};

use codemode::{CodeMode, DiagnosticKind, ExecutionResult, Tool, ToolCallStatus, ToolError};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

#[derive(Deserialize, JsonSchema)]
struct ListInput {
    page: i64,
    #[serde(default)]
    ids: Vec<i64>,
    #[serde(default)]
    filter: Option<Filter>,
    #[serde(default)]
    ranges: Vec<Range>,
    #[serde(default)]
    ratio: Option<f64>,
}

/// Nested structs: schemars puts them in `$defs` and refers to them with `$ref`.
#[derive(Deserialize, JsonSchema, Serialize)]
struct Filter {
    min_votes: u32,
    labels: Vec<String>,
}

#[derive(Deserialize, JsonSchema, Serialize)]
struct Range {
    from: i64,
    to: i64,
}

#[derive(Serialize, JsonSchema)]
struct ListOutput {
    page: i64,
    ids: Vec<i64>,
    filter: Option<Filter>,
    ranges: Vec<Range>,
    ratio: Option<f64>,
}

/// A typed tool that returns what it received, and a raw (`Tool::new`) one that records the
/// exact JSON it was given.
fn runtime() -> (CodeMode, Arc<Mutex<Vec<Value>>>) {
    let list = Tool::typed(
        "List issues, one page at a time.",
        |i: ListInput| async move {
            Ok::<_, ToolError>(ListOutput {
                page: i.page,
                ids: i.ids,
                filter: i.filter,
                ranges: i.ranges,
                ratio: i.ratio,
            })
        },
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let raw = Tool::new(
        "Fetch rows.",
        json!({
            "type": "object",
            "properties": {
                "limit": {"type": "integer"},
                "scale": {"type": "number"},
                "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}},
                "any": {}
            }
        }),
        move |v: Value| {
            let log = log.clone();
            async move {
                log.lock().unwrap().push(v.clone());
                Ok(v)
            }
        },
    );
    let cm = CodeMode::builder()
        .tool("issues.list", list)
        .tool("rows.fetch", raw)
        .build()
        .unwrap();
    (cm, seen)
}

async fn run(cm: &CodeMode, source: &str) -> ExecutionResult {
    cm.execute(source).await
}

#[tokio::test]
async fn division_result_reaches_a_typed_i64_field_as_an_integer() {
    let (cm, _) = runtime();
    let r = run(
        &cm,
        "local total = 20\nlocal r = tools.issues.list({ page = total / 10 })\n\
         return { page = r.page, kind = math.type(r.page) }",
    )
    .await;
    assert_eq!(
        r.value(),
        Some(&json!({"page": 2, "kind": "integer"})),
        "{r:?}"
    );
    // The record shows what the tool was sent: the integer.
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].input, json!({"page": 2}));
    assert!(r.tool_calls[0].input["page"].is_i64());
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Success);
    assert!(
        r.to_json_string().contains(
            r#""toolCalls":[{"name":"issues.list","input":{"page":2},"status":"success"}]"#
        ),
        "{}",
        r.to_json_string()
    );
}

#[tokio::test]
async fn nested_arrays_refs_and_optional_structs_are_converted() {
    let (cm, _) = runtime();
    let r = run(
        &cm,
        r#"return tools.issues.list({
            page = 3.0,
            ids = { 4/2, 6/3, 2^3 },
            filter = { min_votes = 10/5, labels = { "bug" } },
            ranges = { { from = 1.0, to = 9/3 }, { from = math.floor(4.5) * 1.0, to = -0.0 } },
        })"#,
    )
    .await;
    assert_eq!(
        r.value(),
        Some(&json!({
            "page": 3, "ids": [2, 2, 8],
            "filter": {"min_votes": 2, "labels": ["bug"]},
            "ranges": [{"from": 1, "to": 3}, {"from": 4, "to": 0}]
        })),
        "{r:?}"
    );
    let sent = &r.tool_calls[0].input;
    assert!(
        sent["ids"].as_array().unwrap().iter().all(Value::is_i64),
        "{sent}"
    );
    assert!(sent["filter"]["min_votes"].is_u64(), "{sent}");
    assert!(sent["ranges"][1]["to"].is_i64(), "{sent}");
}

#[tokio::test]
async fn json_decoded_floats_are_converted_too() {
    let (cm, seen) = runtime();
    let r = run(
        &cm,
        r#"local q = json.decode('{"limit": 2.0, "scale": 2.0, "grid": [[1.0, -2.0], [3e2]], "any": 4.0}')
           return tools.rows.fetch(q)"#,
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    let got = seen.lock().unwrap()[0].clone();
    // Integer places get integers; the number place and the untyped one keep their floats.
    assert!(got["limit"].is_i64(), "{got}");
    assert!(got["scale"].is_f64(), "{got}");
    assert!(got["any"].is_f64(), "{got}");
    assert!(
        got["grid"][0][0].is_i64() && got["grid"][1][0].is_i64(),
        "{got}"
    );
    assert_eq!(got["grid"], json!([[1, -2], [300]]));
    assert_eq!(r.tool_calls[0].input, got);
}

#[tokio::test]
async fn number_fields_keep_their_floats() {
    let (cm, seen) = runtime();
    let r = run(
        &cm,
        "return tools.rows.fetch({ limit = 4 / 2, scale = 4 / 2 })",
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    let got = seen.lock().unwrap()[0].clone();
    assert!(got["limit"].is_i64(), "{got}");
    assert!(got["scale"].is_f64(), "{got}");
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":{"limit":2,"scale":2.0},"toolCalls":[{"name":"rows.fetch","input":{"limit":2,"scale":2.0},"status":"success"}]}"#
    );
    // A typed f64 field gets a float too.
    let r = run(
        &cm,
        "return tools.issues.list({ page = 1, ratio = 6 / 3 }).ratio",
    )
    .await;
    assert_eq!(r.value(), Some(&json!(2.0)));
    assert!(r.tool_calls[0].input["ratio"].is_f64());
}

#[tokio::test]
async fn negative_zero_becomes_zero() {
    let (cm, seen) = runtime();
    let r = run(
        &cm,
        "return tools.rows.fetch({ limit = -0.0, scale = -0.0 })",
    )
    .await;
    assert!(r.is_ok(), "{r:?}");
    let got = seen.lock().unwrap()[0].clone();
    assert_eq!(got["limit"].as_i64(), Some(0));
    assert!(got["limit"].is_i64(), "{got}");
    assert!(got["scale"].is_f64(), "{got}");
}

#[tokio::test]
async fn fractions_fail_with_the_field_and_what_to_do() {
    let (cm, _) = runtime();
    let r = run(
        &cm,
        "local total = 25\nreturn tools.issues.list({ page = total / 10 })",
    )
    .await;
    let d = r.error().expect("2.5 is not an integer");
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        d.message,
        "Invalid input for tool 'issues.list': at /page: 2.5 is not of type \"integer\"; an \
         integer is expected: use math.floor(x), or // for integer division"
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    assert!(r.tool_calls[0].input["page"].is_f64());
    // Inside an array, through the raw tool; pcall sees the same message.
    let r = run(
        &cm,
        "local ok, err = pcall(tools.rows.fetch, { grid = { { 1, 7/2 } } })\nreturn err",
    )
    .await;
    let msg = r
        .value()
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    assert!(
        msg.contains("at /grid/0/1: 3.5 is not of type \"integer\"; an integer is expected: use math.floor(x)"),
        "{msg}"
    );
    // The hint's advice works.
    let r = run(&cm, "return tools.issues.list({ page = 25 // 10 }).page").await;
    assert_eq!(r.value(), Some(&json!(2)));
    let r = run(
        &cm,
        "return tools.issues.list({ page = math.floor(25 / 10) }).page",
    )
    .await;
    assert_eq!(r.value(), Some(&json!(2)));
}

#[tokio::test]
async fn integral_floats_too_large_for_an_integer_fail_cleanly() {
    let (cm, seen) = runtime();
    let r = run(&cm, "return tools.rows.fetch({ limit = 1e300 })").await;
    let d = r.error().expect("1e300 does not fit an integer");
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        d.message,
        "Invalid input for tool 'rows.fetch': at /limit: 1e+300 is too large for an integer \
         (integers go from -9223372036854775808 to 18446744073709551615)"
    );
    assert!(seen.lock().unwrap().is_empty(), "the handler must not run");
    // Unchanged in the record.
    assert_eq!(r.tool_calls[0].input, json!({"limit": 1e300}));
    // The typed tool fails the same way before deserializing.
    let r = run(&cm, "return tools.issues.list({ page = 2^70 })").await;
    let d = r.error().unwrap();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    assert!(
        d.message
            .contains("at /page: 1.1805916207174113e+21 is too large"),
        "{}",
        d.message
    );
    // A float that fits: the largest integer-valued double below 2^63 crosses as i64.
    let r = run(&cm, "return tools.rows.fetch({ limit = 2^62 }).limit").await;
    assert_eq!(r.value(), Some(&json!(4611686018427387904i64)));
}

#[tokio::test]
async fn call_tool_converts_the_same_way() {
    let (cm, _) = runtime();
    let out = cm
        .call_tool("issues.list", json!({"page": 5.0, "ids": [1.0]}))
        .await
        .unwrap();
    assert_eq!(out["page"], json!(5));
    assert_eq!(out["ids"], json!([1]));
}
