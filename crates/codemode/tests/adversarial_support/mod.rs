//! Shared harness of the adversarial suites (see `adversarial.rs`).
#![allow(dead_code)] // each test binary uses part of the harness

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use codemode::{CodeMode, DiagnosticKind, ExecutionResult, Language, Limits, Tool, ToolError};
use serde_json::{Value, json};

/// Accounted bytes an execution may hold (host `max_memory_bytes`).
pub const MEMORY: u64 = 64 * 1024 * 1024;
/// Timeout for cases that loop until the deadline.
pub const LOOP_TIMEOUT_MS: u64 = 1_000;
/// Timeout for cases expected to end on their own (a bound, an error, a result).
pub const TIMEOUT_MS: u64 = 2_000;
/// Margin after the deadline within which every run must have returned.
pub const MARGIN: Duration = Duration::from_millis(100);
/// Largest growth of the process's resident set during one run.
pub const RSS_GROWTH: u64 = 512 * 1024 * 1024;
/// Largest peak resident set of the whole test process.
pub const RSS_PEAK: u64 = 1536 * 1024 * 1024;
/// Longest inline stretch: how long guest work may hold the async runtime's thread (a stretch
/// is 200 µs plus at most one work chunk; longer work moves to the blocking pool; measured
/// under 1 ms in a debug build on an idle machine). The bound is wall time, so it is generous:
/// on a loaded 2-core machine a stretch can be descheduled for tens of ms. Guest work that
/// escaped the stretch's bound would hold the thread for the whole run (up to seconds here).
pub const MAX_STRETCH: Duration = Duration::from_millis(200);

/// Wraps a future and records the longest time one `poll` took.
pub struct Timed<F> {
    inner: Pin<Box<F>>,
    pub max_poll: Duration,
}

impl<F: Future> Timed<F> {
    pub fn new(inner: F) -> Self {
        Timed {
            inner: Box::pin(inner),
            max_poll: Duration::ZERO,
        }
    }
}

impl<F: Future> Future for Timed<F> {
    type Output = (F::Output, Duration);
    fn poll(
        mut self: Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let start = Instant::now();
        let r = self.inner.as_mut().poll(cx);
        let took = start.elapsed();
        self.max_poll = self.max_poll.max(took);
        r.map(|out| (out, self.max_poll))
    }
}

/// A value nested `depth` arrays deep, built without recursion.
pub fn deep_array(depth: usize) -> Value {
    let mut v = Value::Null;
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

pub fn tool(
    description: &str,
    handler: impl Fn(Value) -> Pin<Box<dyn Future<Output = Result<Value, ToolError>> + Send>>
    + Send
    + Sync
    + 'static,
) -> Tool {
    Tool::new(description, json!({"type": "object"}), handler)
}

pub fn runtime(limits: Limits) -> CodeMode {
    runtime_in(Language::Lua, limits)
}

/// The suite's runtime (its `t.*` tools) for programs in `language`.
pub fn runtime_in(language: Language, limits: Limits) -> CodeMode {
    CodeMode::builder()
        .language(language)
        .tool(
            "t.echo",
            tool("Return the input.", |v| Box::pin(async move { Ok(v) })),
        )
        .tool(
            "t.hang",
            tool("Never answers.", |_| {
                Box::pin(async move {
                    futures::future::pending::<()>().await;
                    Ok(Value::Null)
                })
            }),
        )
        .tool(
            "t.fail",
            tool("Always fails.", |_| {
                Box::pin(async move { Err(ToolError::new("the tool is broken")) })
            }),
        )
        .tool(
            "t.panic",
            tool("Panics.", |_| {
                Box::pin(async move { panic!("handler bug") })
            }),
        )
        .tool(
            "t.deep",
            tool("Returns {depth} nested arrays.", |v| {
                let depth = v["depth"].as_u64().unwrap_or(10_000) as usize;
                Box::pin(async move { Ok(deep_array(depth)) })
            }),
        )
        .tool(
            "t.huge",
            tool("Returns a string of {bytes} bytes.", |v| {
                let n = v["bytes"].as_u64().unwrap_or(100_000_000) as usize;
                Box::pin(async move { Ok(Value::String("x".repeat(n))) })
            }),
        )
        .tool(
            "t.wide",
            tool("Returns an array of {n} distinct 300-byte strings.", |v| {
                let n = v["n"].as_u64().unwrap_or(1_000_000) as usize;
                Box::pin(async move {
                    Ok(Value::Array(
                        (0..n).map(|i| Value::String(format!("{i:0300}"))).collect(),
                    ))
                })
            }),
        )
        .tool(
            "t.typed",
            Tool::new(
                "Claims to return {n: integer}.",
                json!({"type": "object"}),
                |_| async move { Ok(json!({"n": "not a number"})) },
            )
            .with_output_schema(json!({
                "type": "object",
                "properties": {"n": {"type": "integer"}},
                "required": ["n"]
            })),
        )
        .tool(
            "t.badoutput",
            tool("Reports invalid output.", |_| {
                Box::pin(async move { Err(ToolError::invalid_output("missing field 'id'")) })
            }),
        )
        .limits(limits)
        .build()
        .unwrap()
}

pub fn limits(timeout_ms: u64, memory: Option<u64>) -> Limits {
    Limits::default()
        .with_timeout_ms(timeout_ms)
        .unwrap()
        .with_max_memory_bytes(memory)
        .unwrap()
}

pub fn proc_status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

pub struct Run {
    pub result: ExecutionResult,
    pub elapsed: Duration,
    /// Longest single poll of the `execute` future: guest work in inline stretches plus the
    /// host's own work (schema checks, building the result, the tools' handlers).
    pub max_poll: Duration,
    /// Longest inline stretch of the run (see [`MAX_STRETCH`]).
    pub max_stretch: Duration,
}

/// Runs are serialized so the timing and resident-set measurements of one run are not disturbed
/// by the others (the harness runs tests on parallel threads).
pub static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Run `source` with `limits`, checking the time and memory bounds every case shares.
pub async fn run_with(full_source: &str, limits: Limits) -> Run {
    run_with_in(Language::Lua, full_source, limits).await
}

/// [`run_with`] for a program in `language`.
pub async fn run_with_in(language: Language, full_source: &str, limits: Limits) -> Run {
    let _serial = SERIAL.lock().await;
    // Messages show at most 120 characters of the program.
    let source = &full_source[..full_source.floor_char_boundary(120)];
    let cm = runtime_in(language, limits);
    let rss_before = proc_status_kib("VmRSS:") * 1024;
    let start = Instant::now();
    codemode::take_longest_inline_stretch();
    let (result, max_poll) = Timed::new(cm.execute(full_source)).await;
    let max_stretch = codemode::take_longest_inline_stretch();
    let elapsed = start.elapsed();
    assert!(
        max_stretch <= MAX_STRETCH,
        "an inline stretch took {max_stretch:?} (more than {MAX_STRETCH:?}): guest work held \
         the async runtime's thread: {source}"
    );
    let rss_after = proc_status_kib("VmRSS:") * 1024;
    let budget = Duration::from_millis(limits.timeout_ms()) + MARGIN;
    assert!(
        elapsed <= budget,
        "run took {elapsed:?}, more than timeout + 100 ms ({budget:?}): {source}"
    );
    assert!(
        rss_after.saturating_sub(rss_before) < RSS_GROWTH,
        "resident set grew by {} bytes: {source}",
        rss_after.saturating_sub(rss_before)
    );
    let peak = proc_status_kib("VmHWM:") * 1024;
    assert!(peak < RSS_PEAK, "process peak RSS {peak} bytes: {source}");
    Run {
        result,
        elapsed,
        max_poll,
        max_stretch,
    }
}

pub async fn run(source: &str) -> Run {
    run_with(source, limits(TIMEOUT_MS, Some(MEMORY))).await
}

pub async fn run_loop(source: &str) -> Run {
    run_with(source, limits(LOOP_TIMEOUT_MS, Some(MEMORY))).await
}

impl Run {
    /// Assert a failure of `kind` whose message contains `fragment`.
    pub fn fails(&self, kind: DiagnosticKind, fragment: &str) -> &Self {
        let d = self
            .result
            .error()
            .unwrap_or_else(|| panic!("expected {kind:?}, got {:?}", self.result.outcome));
        assert_eq!(d.kind, kind, "message: {}", d.message);
        assert!(
            d.message.contains(fragment),
            "message {:?} does not contain {:?}",
            d.message,
            fragment
        );
        self
    }

    pub fn times_out(&self) -> &Self {
        self.fails(DiagnosticKind::TimeoutExceeded, "timed out");
        assert!(
            self.elapsed >= Duration::from_millis(LOOP_TIMEOUT_MS / 2),
            "timed out too early: {:?}",
            self.elapsed
        );
        self
    }

    pub fn out_of_memory(&self) -> &Self {
        self.fails(DiagnosticKind::ExecutionFailure, "memory limit")
    }

    pub fn value(&self) -> &Value {
        self.result
            .value()
            .unwrap_or_else(|| panic!("expected success, got {:?}", self.result.outcome))
    }
}
