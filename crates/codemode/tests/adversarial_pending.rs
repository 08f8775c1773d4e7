//! Adversarial cases that need fixes requested from other owners (see /work/team/requests.md,
//! "bounds → vm" and "bounds → discovery"). Kept apart from `adversarial.rs` because some of them
//! currently abort the test process (Rust stack overflow), which would hide every other result.
//! Same harness and bounds as `adversarial.rs`.

mod adversarial_support;

use adversarial_support::*;
use codemode::DiagnosticKind;
use serde_json::json;

#[tokio::test]
async fn data_deep_json_from_tool_a_million_levels() {
    // The host must reject (and free) this without recursing once per level.
    let r = run("return tools.t.deep({depth = 1000000})").await;
    r.fails(DiagnosticKind::InvalidToolOutput, "deeper than 128");
}

#[tokio::test]
async fn data_deep_json_from_tool_10000_levels() {
    let r = run("return tools.t.deep({depth = 10000})").await;
    r.fails(DiagnosticKind::InvalidToolOutput, "deeper than 128");
    assert_eq!(r.result.tool_calls.len(), 1);
}

#[tokio::test]
async fn data_deep_json_from_tool_is_not_catchable_as_data() {
    let r = run("local ok, err = pcall(tools.t.deep, {depth = 200}) return {ok, err}").await;
    let v = r.value();
    assert_eq!(v[0], json!(false));
    assert!(v[1].as_str().unwrap().contains("deeper than 128"), "{v}");
}

#[tokio::test]
async fn recursion_sort_comparator_sorting_inside() {
    run(
        "local function cmp(a, b) table.sort({3, 2, 1}, cmp) return a < b end
         table.sort({3, 2, 1}, cmp)",
    )
    .await
    .fails(DiagnosticKind::ExecutionFailure, "stack overflow");
}

#[tokio::test]
async fn recursion_through_xpcall_handlers() {
    let r = run("local function h(m) return select(2, xpcall(error, h)) end return tostring(select(2, xpcall(error, h)))").await;
    assert!(
        r.result.error().is_some() || r.value().is_string(),
        "{:?}",
        r.result.outcome
    );
}
