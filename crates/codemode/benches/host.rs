//! In-process benchmarks of the host driver (issue 2 §4, issue 3): `cargo bench -p codemode --bench host`.
//!
//! - `execute_return_1`: `CodeMode::execute("return 1")` end to end (compile, machine, drive,
//!   result), on a tokio current-thread runtime. Target ≤ 25 µs.
//! - `tool_calls_1000` vs `no_calls_1000`: the same 1,000-iteration loop with and without a call
//!   to a no-op tool (`{"type":"object"}` input schema). Their difference / 1,000 is the
//!   per-call overhead beyond the handler (target ≤ 10 µs); after the divan table this binary
//!   prints that number directly.
//!
//! Since the wall-clock backstop (issue 3) guest code runs on tokio's blocking pool, in
//! segments (see the `runtime` module docs): an execution without host calls is one hand-off to
//! the pool and back; each tool call adds one more (the reply goes in with the next segment, the
//! next call comes back with its result). While a program waits for a tool no thread is held.
//! Measured on the shared 2-core box (release; fuzzers and other builds running). The last two
//! rows are interleaved runs (old, new, old, new, ...) of both binaries built from the same
//! codemode-lua; "printed" is the number this binary prints after the table:
//!
//! | build | load avg | `return 1` median | per no-op call |
//! |---|---|---|---|
//! | before (inline) | not recorded | 5.3 µs | 0.77 µs |
//! | one worker thread per execution | ~8.5 | 11.7 µs | 8.9 µs (divan medians; 4.7 fastest) / 11.2 µs (printed) |
//! | one worker thread per execution | ~12 | 70 µs (55 fastest) | 6.0 µs (divan medians) / 5.8 µs (printed) |
//! | one worker thread per execution, 8 runs | 5.6-6.2 | 11.2-15.5 µs (one run 85) | 4.8-8.1 µs (printed) |
//! | segments, 8 runs | 5.6-6.2 | 11.2-13.2 µs | 5.1-8.9 µs (printed) |
//!
//! So the segments cost the same as the worker thread did. Both are bimodal under this load
//! (a run settles near 5 or near 8 µs per call), and in both a run's `tool_calls_1000` divan
//! median sometimes jumps to 40-77 ms (waking a thread that slept costs tens of µs when the
//! cores are oversubscribed). A finished machine that holds more than 64 KiB is dropped by a
//! blocking task of its own: dropping inline put freeing the 1,000 tables of `no_calls_1000` on
//! the result's path (fastest 100 µs, against 77-81 µs with the worker thread; 67-88 µs now).
//! Spinning before sleeping on either side was slower under load (5 µs spin: 15.5 ms per 1,000
//! calls; 50 µs: 206 ms); an own thread pool instead of `spawn_blocking` was no faster.
use std::time::{Duration, Instant};

use codemode::{CodeMode, ExecutionResult, Limits, Tool};
use serde_json::json;

const CALLS: u64 = 1000;

const WITH_CALLS: &str = r#"
local n = 0
for i = 1, 1000 do
  local input = { i = i }
  tools.bench.noop(input)
  n = n + 1
end
return n
"#;

/// The same loop without the call (the argument table is still built).
const WITHOUT_CALLS: &str = r#"
local n = 0
for i = 1, 1000 do
  local input = { i = i }
  n = n + 1
end
return n
"#;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}

fn codemode() -> CodeMode {
    let noop = Tool::new("Does nothing.", json!({"type": "object"}), |_input| async {
        Ok(serde_json::Value::Null)
    });
    let limits = Limits::default()
        .with_max_tool_calls(CALLS)
        .expect("valid max_tool_calls");
    CodeMode::builder()
        .tool("bench.noop", noop)
        .limits(limits)
        .build()
        .expect("valid options")
}

fn check(r: &ExecutionResult, expected: serde_json::Value) {
    assert!(
        r.is_ok(),
        "benchmark program failed: {}",
        r.to_json_string()
    );
    assert_eq!(r.value(), Some(&expected));
}

fn main() {
    divan::main();
    // `cargo bench` passes --bench; `cargo test --benches` does not (divan then runs each bench
    // once as a test): skip the extra measurement there.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    report_overhead();
}

/// `CodeMode::execute("return 1")` end to end.
#[divan::bench]
fn execute_return_1(bencher: divan::Bencher) {
    let rt = runtime();
    let cm = codemode();
    bencher.bench_local(|| {
        let r = rt.block_on(cm.execute(divan::black_box("return 1")));
        check(&r, json!(1));
        r
    });
}

/// 1,000 no-op tool calls in a loop.
#[divan::bench(sample_count = 30)]
fn tool_calls_1000(bencher: divan::Bencher) {
    let rt = runtime();
    let cm = codemode();
    bencher.bench_local(|| {
        let r = rt.block_on(cm.execute(WITH_CALLS));
        check(&r, json!(CALLS));
        r
    });
}

/// The same loop without the calls.
#[divan::bench(sample_count = 30)]
fn no_calls_1000(bencher: divan::Bencher) {
    let rt = runtime();
    let cm = codemode();
    bencher.bench_local(|| {
        let r = rt.block_on(cm.execute(WITHOUT_CALLS));
        check(&r, json!(CALLS));
        r
    });
}

/// Median of `runs` timed executions of `source`.
fn median_time(rt: &tokio::runtime::Runtime, cm: &CodeMode, source: &str, runs: usize) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t0 = Instant::now();
            let r = rt.block_on(cm.execute(source));
            let t = t0.elapsed();
            check(&r, json!(CALLS));
            t
        })
        .collect();
    times.sort();
    times[runs / 2]
}

/// Print the per-call overhead: (median with calls − median without) / 1,000.
fn report_overhead() {
    let rt = runtime();
    let cm = codemode();
    // warm up
    median_time(&rt, &cm, WITH_CALLS, 3);
    let with = median_time(&rt, &cm, WITH_CALLS, 31);
    let without = median_time(&rt, &cm, WITHOUT_CALLS, 31);
    let per_call = with.saturating_sub(without).as_secs_f64() * 1e6 / CALLS as f64;
    println!();
    println!(
        "no-op tool call overhead: {per_call:.3} µs per call \
         (median {:.1} µs with {CALLS} calls, {:.1} µs without; target ≤ 10 µs)",
        with.as_secs_f64() * 1e6,
        without.as_secs_f64() * 1e6
    );
}
