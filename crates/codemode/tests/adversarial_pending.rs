//! Adversarial cases that need a fix requested from the owner of crates/codemode/src/runtime.rs
//! (see /work/team/requests.md, "bounds → discovery"): deep tool output must be rejected as
//! InvalidToolOutput before the interpreter sees it, and dropped without recursion. Kept apart
//! from `adversarial.rs` because one of them aborts the test process (Rust stack overflow while
//! dropping a 1,000,000-level value), which would hide every other result.
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
