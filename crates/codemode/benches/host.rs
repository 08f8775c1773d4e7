//! In-process benchmarks of the host driver (issue 2 §4, issue 3): `cargo bench -p codemode --bench host`.
//!
//! - `execute_return_1`: `CodeMode::execute("return 1")` end to end (compile, machine, drive,
//!   result), on a tokio current-thread runtime. Target (issue 2) ≤ 10 µs.
//! - `tool_calls_1000` vs `no_calls_1000`: the same 1,000-iteration loop with and without a call
//!   to a no-op tool (`{"type":"object"}` input schema). Their difference / 1,000 is the
//!   per-call overhead beyond the handler (target, issue 2: ≤ 2 µs); after the divan table this
//!   binary prints that number directly.
//! - With `--features js`, the same pair for JavaScript (`await tools.bench.noop(input)` in the
//!   loop; target, issue 13: ≤ 2 µs), and 10 calls to a tool that sleeps 10 ms made one after
//!   another versus together (`Promise.all`): the concurrent run should take about one sleep.
//!
//! History (release builds on the 2-core build box; see the `runtime` module docs):
//!
//! | build | load avg | `return 1` median | per no-op call |
//! |---|---|---|---|
//! | before the backstop (all guest work inline, unbounded) | not recorded | 5.3 µs | 0.77 µs |
//! | segments on the blocking pool only, 8 runs | 5.6-6.2 | 11.2-13.2 µs | 5.1-8.9 µs (printed) |
//! | segments on the blocking pool only | idle (0.9) | 63 µs | 31.2 µs (printed) |
//! | inline stretches (≤ 200 µs) + segments | idle (1.5) | 5.6 µs | 1.06 µs (printed) |
//!
//! On an idle machine a hand-off to a parked thread and back costs tens of µs (the cores sleep;
//! waking one takes an inter-processor interrupt), which is why short guest work now runs in
//! the `execute` future itself and only work longer than a stretch moves to the pool.
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
    #[cfg(feature = "js")]
    js::report();
}

/// The JavaScript side: the same no-op loop, and sleeps in sequence versus together.
#[cfg(feature = "js")]
mod js {
    use super::*;
    use codemode::Language;

    pub const WITH_CALLS: &str = "let n = 0;\n\
        for (let i = 1; i <= 1000; i++) { const input = { i }; await tools.bench.noop(input); n++; }\n\
        return n;";
    pub const WITHOUT_CALLS: &str = "let n = 0;\n\
        for (let i = 1; i <= 1000; i++) { const input = { i }; n++; }\n\
        return n;";
    const SEQUENTIAL: &str =
        "for (let i = 0; i < 10; i++) await tools.bench.sleep({});\nreturn 10;";
    const CONCURRENT: &str = "const rs = await Promise.all(Array.from({ length: 10 }, () => tools.bench.sleep({})));\nreturn rs.length;";

    pub fn codemode() -> CodeMode {
        let noop = Tool::new("Does nothing.", json!({"type": "object"}), |_input| async {
            Ok(serde_json::Value::Null)
        });
        let sleep = Tool::new("Sleeps 10 ms.", json!({"type": "object"}), |_input| async {
            tokio::time::sleep(Duration::from_millis(10)).await;
            Ok(serde_json::Value::Null)
        });
        let limits = Limits::default()
            .with_max_tool_calls(CALLS)
            .expect("valid max_tool_calls");
        CodeMode::builder()
            .language(Language::JavaScript)
            .tool("bench.noop", noop)
            .tool("bench.sleep", sleep)
            .limits(limits)
            .build()
            .expect("valid options")
    }

    fn median(
        rt: &tokio::runtime::Runtime,
        cm: &CodeMode,
        source: &str,
        runs: usize,
        n: u64,
    ) -> Duration {
        let mut times: Vec<Duration> = (0..runs)
            .map(|_| {
                let t0 = Instant::now();
                let r = rt.block_on(cm.execute(source));
                let t = t0.elapsed();
                check(&r, json!(n));
                t
            })
            .collect();
        times.sort();
        times[runs / 2]
    }

    pub fn report() {
        let rt = runtime();
        let cm = codemode();
        median(&rt, &cm, WITH_CALLS, 3, CALLS);
        let with = median(&rt, &cm, WITH_CALLS, 31, CALLS);
        let without = median(&rt, &cm, WITHOUT_CALLS, 31, CALLS);
        let per_call = with.saturating_sub(without).as_secs_f64() * 1e6 / CALLS as f64;
        println!(
            "js no-op tool call overhead: {per_call:.3} µs per call \
             (median {:.1} µs with {CALLS} calls, {:.1} µs without; target ≤ 2 µs)",
            with.as_secs_f64() * 1e6,
            without.as_secs_f64() * 1e6
        );
        let seq = median(&rt, &cm, SEQUENTIAL, 5, 10);
        let conc = median(&rt, &cm, CONCURRENT, 5, 10);
        println!(
            "js 10 calls to a 10 ms tool: sequential {:.1} ms, concurrent {:.1} ms (ratio {:.1}×)",
            seq.as_secs_f64() * 1e3,
            conc.as_secs_f64() * 1e3,
            seq.as_secs_f64() / conc.as_secs_f64()
        );
    }
}

/// JavaScript: 1,000 awaited no-op tool calls in a loop.
#[cfg(feature = "js")]
#[divan::bench(sample_count = 30)]
fn js_tool_calls_1000(bencher: divan::Bencher) {
    let rt = runtime();
    let cm = js::codemode();
    bencher.bench_local(|| {
        let r = rt.block_on(cm.execute(js::WITH_CALLS));
        check(&r, json!(CALLS));
        r
    });
}

/// JavaScript: the same loop without the calls.
#[cfg(feature = "js")]
#[divan::bench(sample_count = 30)]
fn js_no_calls_1000(bencher: divan::Bencher) {
    let rt = runtime();
    let cm = js::codemode();
    bencher.bench_local(|| {
        let r = rt.block_on(cm.execute(js::WITHOUT_CALLS));
        check(&r, json!(CALLS));
        r
    });
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
         (median {:.1} µs with {CALLS} calls, {:.1} µs without; target ≤ 2 µs)",
        with.as_secs_f64() * 1e6,
        without.as_secs_f64() * 1e6
    );
}
