//! Benchmark of the `execute` round trip over stdio (issue 5 "Performance").
//!
//! ```text
//! cargo build --release -p codemode-cli
//! cargo run --release -p codemode-mcp --example mcp_roundtrip [-- ITERATIONS [CODEMODE_BINARY]]
//! ```
//!
//! The gateway is the real `codemode mcp --config CONFIG` binary: CODEMODE_BINARY, by default
//! `codemode` in the same target profile directory as this example (`target/release/codemode`).
//! This binary plays the two other parts: the driver (default) and a fast downstream MCP server
//! (`--downstream`: one tool `add`, answered in-process by rmcp).
//!
//! The driver (an rmcp client) measures, per iteration:
//! - `direct`: one `tools/call add` straight to the downstream server (the downstream's own
//!   round trip, including its stdio hop);
//! - `execute trivial`: `execute` with `return 1` through the gateway;
//! - `execute 10 nested`: `execute` with a program making ten `add` calls;
//!
//! and reports medians and the overhead `execute 10 nested - 10 × direct` (what codemode adds
//! beyond the downstream server's own time, for the whole execution).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, InitializeResult, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities,
};
use rmcp::service::RequestContext;
use rmcp::transport::TokioChildProcess;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Value, json};

#[derive(Clone)]
struct Downstream;

impl ServerHandler for Downstream {
    fn get_info(&self) -> InitializeResult {
        InitializeResult::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _r: Option<PaginatedRequestParams>,
        _c: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tool = serde_json::from_value(json!({
            "name": "add",
            "description": "Add two integers.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]},
            "outputSchema": {"type": "object", "properties": {"sum": {"type": "integer"}}, "required": ["sum"]}
        }))
        .expect("tool");
        Ok(ListToolsResult::with_all_items(vec![tool]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _c: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        let sum = args.get("a").and_then(Value::as_i64).unwrap_or(0)
            + args.get("b").and_then(Value::as_i64).unwrap_or(0);
        let r: CallToolResult = serde_json::from_value(json!({
            "content": [{"type": "text", "text": format!("{{\"sum\":{sum}}}")}],
            "structuredContent": {"sum": sum}
        }))
        .expect("result");
        Ok(r.into())
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--downstream") {
        let running = Downstream.serve(rmcp::transport::stdio()).await?;
        let _ = running.waiting().await;
        return Ok(());
    }
    let iterations: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let me = std::env::current_exe()?;
    // target/<profile>/examples/mcp_roundtrip → target/<profile>/codemode
    let codemode = match args.get(2) {
        Some(bin) => PathBuf::from(bin),
        None => me
            .parent()
            .and_then(|d| d.parent())
            .map(|d| d.join("codemode"))
            .ok_or("cannot locate the target directory")?,
    };
    if !codemode.exists() {
        return Err(format!(
            "{} does not exist: build it first (cargo build --release -p codemode-cli) or pass its path",
            codemode.display()
        )
        .into());
    }
    println!("gateway: {} mcp --config ...", codemode.display());
    let dir = std::env::temp_dir().join(format!("codemode-mcp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let config = dir.join("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"fast": {"command": me, "args": ["--downstream"]}}}).to_string(),
    )?;

    // Baseline: the downstream server alone.
    let mut cmd = tokio::process::Command::new(&me);
    cmd.arg("--downstream");
    let direct = ().serve(TokioChildProcess::new(cmd)?).await?;
    // The gateway: `codemode mcp` over stdio.
    let mut cmd = tokio::process::Command::new(&codemode);
    cmd.arg("mcp").arg("--config").arg(&config);
    cmd.stderr(std::process::Stdio::null());
    let gateway = ().serve(TokioChildProcess::new(cmd)?).await?;

    let add = |a: i64| {
        CallToolRequestParams::new("add").with_arguments(
            json!({"a": a, "b": 1})
                .as_object()
                .cloned()
                .expect("object"),
        )
    };
    let exec = |code: &str| {
        CallToolRequestParams::new("execute").with_arguments(
            json!({ "code": code })
                .as_object()
                .cloned()
                .expect("object"),
        )
    };
    let nested =
        "local s = 0\nfor i = 1, 10 do s = s + tools.fast.add({ a = i, b = 1 }).sum end\nreturn s";
    // Check the answers once.
    let r = gateway.peer().call_tool(exec(nested)).await?;
    assert_eq!(
        r.structured_content.as_ref().map(|v| v["value"].clone()),
        Some(json!(65))
    );

    let mut t_direct = Vec::new();
    let mut t_trivial = Vec::new();
    let mut t_nested = Vec::new();
    let peer_d = direct.peer().clone();
    let peer_g = gateway.peer().clone();
    let warmup = iterations / 10;
    for i in 0..iterations + warmup {
        let t = Instant::now();
        peer_d.call_tool(add(i as i64)).await?;
        let d = t.elapsed();
        let t = Instant::now();
        let r = peer_g.call_tool(exec("return 1")).await?;
        let tr = t.elapsed();
        assert_eq!(r.is_error, Some(false));
        let t = Instant::now();
        peer_g.call_tool(exec(nested)).await?;
        let n = t.elapsed();
        if i >= warmup {
            t_direct.push(d);
            t_trivial.push(tr);
            t_nested.push(n);
        }
    }
    let (d, tr, n) = (median(t_direct), median(t_trivial), median(t_nested));
    println!("iterations: {iterations} (after {warmup} warm-up), medians:");
    println!(
        "  direct tools/call to the downstream server : {:8.1} µs",
        us(d)
    );
    println!(
        "  execute `return 1`                        : {:8.1} µs",
        us(tr)
    );
    println!(
        "  execute with 10 nested calls              : {:8.1} µs",
        us(n)
    );
    println!(
        "  overhead beyond the downstream's own time (10 nested - 10 x direct): {:8.1} µs",
        us(n) - 10.0 * us(d)
    );
    direct.cancel().await?;
    gateway.cancel().await?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
