//! The exact wire JSON of `ExecutionResult` and the output truncation rules (issue 2 §1).

use codemode::{
    Diagnostic, DiagnosticKind, ExecutionResult, Location, ToolCallRecord, ToolCallStatus,
};
use serde_json::{Value, json};

fn call(name: &str, input: Value, status: ToolCallStatus) -> ToolCallRecord {
    ToolCallRecord {
        name: name.into(),
        input,
        status,
    }
}

#[test]
fn minimal_success() {
    let r = ExecutionResult::success(json!({"b": 1, "a": [1, 2]}));
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":{"b":1,"a":[1,2]},"toolCalls":[]}"#
    );
}

#[test]
fn full_success_keeps_key_order() {
    let mut r = ExecutionResult::success(json!("done"));
    r.warnings.push(Diagnostic::new(
        DiagnosticKind::Truncated,
        "1 additional warnings omitted by the output limit.",
    ));
    r.logs = vec!["a\tb".into(), "c".into()];
    r.truncated = true;
    r.tool_calls = vec![
        call(
            "orders.lookup",
            json!({"id": "o1"}),
            ToolCallStatus::Success,
        ),
        call("search", json!({}), ToolCallStatus::Denied),
    ];
    assert_eq!(
        r.to_json_string(),
        concat!(
            r#"{"ok":true,"value":"done","#,
            r#""warnings":[{"kind":"Truncated","message":"1 additional warnings omitted by the output limit."}],"#,
            r#""logs":["a\tb","c"],"truncated":true,"#,
            r#""toolCalls":[{"name":"orders.lookup","input":{"id":"o1"},"status":"success"},"#,
            r#"{"name":"search","input":{},"status":"denied"}]}"#
        )
    );
}

#[test]
fn failure_with_location_and_suggestions() {
    let mut r = ExecutionResult::failure(
        Diagnostic::new(
            DiagnosticKind::UnknownTool,
            "Unknown tool 'orders.lookpu'. Did you mean tools.orders.lookup?",
        )
        .with_location(Location { line: 2, column: 9 })
        .with_suggestion("tools.orders.lookup"),
    );
    r.logs.push("x".into());
    r.tool_calls
        .push(call("slow.hang", json!({}), ToolCallStatus::Interrupted));
    r.tool_calls.push(call(
        "orders.fail",
        json!({"n": 1}),
        ToolCallStatus::Failure,
    ));
    assert_eq!(
        r.to_json_string(),
        concat!(
            r#"{"ok":false,"error":{"kind":"UnknownTool","message":"Unknown tool 'orders.lookpu'. Did you mean tools.orders.lookup?","#,
            r#""location":{"line":2,"column":9},"suggestions":["tools.orders.lookup"]},"#,
            r#""logs":["x"],"#,
            r#""toolCalls":[{"name":"slow.hang","input":{},"status":"interrupted"},"#,
            r#"{"name":"orders.fail","input":{"n":1},"status":"failure"}]}"#
        )
    );
}

#[test]
fn failure_never_serializes_warnings() {
    let mut r = ExecutionResult::failure(Diagnostic::new(DiagnosticKind::ExecutionFailure, "boom"));
    r.warnings
        .push(Diagnostic::new(DiagnosticKind::Truncated, "w"));
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":false,"error":{"kind":"ExecutionFailure","message":"boom"},"toolCalls":[]}"#
    );
}

#[test]
fn every_kind_serializes_as_its_name() {
    use DiagnosticKind::*;
    let kinds = [
        ParseError,
        UnsupportedSyntax,
        UnknownTool,
        InvalidToolInput,
        InvalidToolOutput,
        InvalidDataValue,
        ToolCallLimitExceeded,
        TimeoutExceeded,
        ToolFailure,
        ExecutionFailure,
        Truncated,
    ];
    let names: Vec<Value> = kinds
        .iter()
        .map(|k| serde_json::to_value(k).unwrap())
        .collect();
    assert_eq!(
        Value::Array(names),
        json!([
            "ParseError",
            "UnsupportedSyntax",
            "UnknownTool",
            "InvalidToolInput",
            "InvalidToolOutput",
            "InvalidDataValue",
            "ToolCallLimitExceeded",
            "TimeoutExceeded",
            "ToolFailure",
            "ExecutionFailure",
            "Truncated"
        ])
    );
    for k in kinds {
        assert_eq!(
            k.to_string(),
            serde_json::to_value(k).unwrap().as_str().unwrap()
        );
        if k != Truncated {
            assert_eq!(DiagnosticKind::from(k.to_error().unwrap()), k);
        } else {
            assert_eq!(k.to_error(), None);
        }
    }
}

#[test]
fn parses_back_from_wire_json() {
    let text = r#"{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 5ms."},"logs":["a"],"truncated":true,"toolCalls":[{"name":"x","input":{},"status":"interrupted"}]}"#;
    let r: ExecutionResult = serde_json::from_str(text).unwrap();
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert!(r.truncated);
    assert_eq!(r.to_json_string(), text);
    assert!(serde_json::from_str::<ExecutionResult>(r#"{"ok":false,"toolCalls":[]}"#).is_err());
}

#[test]
fn small_value_and_logs_are_untouched() {
    let mut r = ExecutionResult::success(json!([1, 2, 3]));
    r.logs = vec!["abc".into()];
    r.truncate(11); // "[1,2,3]" = 7 bytes, "abc" costs 4
    assert!(!r.truncated);
    assert_eq!(r.value(), Some(&json!([1, 2, 3])));
    assert_eq!(r.logs, vec!["abc"]);
}

#[test]
fn value_over_the_limit_becomes_cut_text_with_marker() {
    let mut r = ExecutionResult::success(json!({"items": ["aaaa", "bbbb"]}));
    let full = r#"{"items":["aaaa","bbbb"]}"#;
    assert_eq!(full.len(), 25);
    r.logs = vec!["first".into(), "second".into()];
    r.truncate(10);
    assert!(r.truncated);
    assert_eq!(
        r.value(),
        Some(&json!(
            "{\"items\":[ [result truncated: 25 bytes exceeds the 10-byte output limit; return a smaller value]"
        ))
    );
    assert_eq!(r.logs, vec!["[logs truncated: showing 0 of 2 lines]"]);
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":"{\"items\":[ [result truncated: 25 bytes exceeds the 10-byte output limit; return a smaller value]","warnings":[{"kind":"Truncated","message":"Output was cut by the 10-byte output limit (max_output_bytes): the value (25 bytes of JSON, now a cut string); the logs (showing 0 of 2 lines). To get everything back, return only the fields and items you need and print less."}],"logs":["[logs truncated: showing 0 of 2 lines]"],"truncated":true,"toolCalls":[]}"#
    );
    // A second truncate adds no second warning.
    r.truncate(10);
    assert_eq!(r.warnings.len(), 1);
}

#[test]
fn value_cut_never_splits_a_utf8_character() {
    // "\"héé\"": quote(1) h(1) é(2) é(2) quote(1) = 7 bytes; a budget of 3 falls inside the first é.
    let mut r = ExecutionResult::success(json!("héé"));
    r.truncate(3);
    let v = r.value().unwrap().as_str().unwrap();
    assert_eq!(
        v,
        "\"h [result truncated: 7 bytes exceeds the 3-byte output limit; return a smaller value]"
    );
}

#[test]
fn zero_budget_cuts_everything() {
    let mut r = ExecutionResult::success(Value::Null);
    r.logs = vec!["x".into()];
    r.truncate(0);
    assert_eq!(
        r.value(),
        Some(&json!(
            " [result truncated: 4 bytes exceeds the 0-byte output limit; return a smaller value]"
        ))
    );
    assert_eq!(r.logs, vec!["[logs truncated: showing 0 of 1 lines]"]);
}

#[test]
fn logs_get_what_the_value_leaves() {
    let mut r = ExecutionResult::success(json!(12345)); // 5 bytes
    r.logs = vec!["aaaa".into(), "bbbb".into(), "cccc".into()]; // 5 bytes each
    r.truncate(15); // 10 left: two lines
    assert!(r.truncated);
    assert_eq!(r.value(), Some(&json!(12345)));
    assert_eq!(
        r.logs,
        vec!["aaaa", "bbbb", "[logs truncated: showing 2 of 3 lines]"]
    );
}

#[test]
fn failure_bounds_only_logs() {
    let long = "m".repeat(500);
    let mut r = ExecutionResult::failure(Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        long.clone(),
    ));
    r.logs = vec!["12345678".into(), "x".into()];
    r.truncate(9);
    assert!(r.truncated);
    assert_eq!(r.error().unwrap().message, long);
    assert_eq!(
        r.logs,
        vec!["12345678", "[logs truncated: showing 1 of 2 lines]"]
    );
}

#[test]
fn warnings_have_their_own_budget() {
    let mut r = ExecutionResult::success(json!("v"));
    let w = Diagnostic::new(DiagnosticKind::ToolFailure, "w");
    let cost = serde_json::to_string(&w).unwrap().len() + 1;
    r.warnings = vec![w.clone(), w.clone(), w.clone()];
    r.truncate((2 * cost) as u64);
    assert!(r.truncated);
    assert_eq!(r.warnings.len(), 3);
    assert_eq!(r.warnings[..2], [w.clone(), w]);
    assert_eq!(
        r.warnings[2],
        Diagnostic::new(
            DiagnosticKind::Truncated,
            "1 additional warnings omitted by the output limit."
        )
    );
}
