//! Parse → result time of a small program, in process: `cargo run -p codemode-js --example
//! startup [--release] -- [SOURCE] [ITERATIONS]` prints the median and the minimum of
//! batches of compile + machine + run (default `return 1`, 20,000 iterations), and the
//! compile alone.

use std::time::Instant;

use codemode_guest::{Env, StartOptions, Step};

fn run(src: &str) {
    let program = codemode_js::compile(src).expect("compiles");
    let mut m = codemode_js::Machine::new(
        &program,
        &Env::default(),
        &StartOptions {
            max_memory_bytes: None,
            deadline: None,
        },
    )
    .expect("starts");
    match m.run(1_000_000) {
        Step::Done { .. } => {}
        other => panic!("{other:?}"),
    }
}

/// Median and minimum µs per call of `f` over batches.
fn measure(iterations: usize, mut f: impl FnMut()) -> (f64, f64) {
    let batch = 100;
    let mut per = Vec::new();
    for _ in 0..iterations.div_ceil(batch) {
        let t = Instant::now();
        for _ in 0..batch {
            f();
        }
        per.push(t.elapsed().as_secs_f64() * 1e6 / batch as f64);
    }
    per.sort_by(f64::total_cmp);
    (per[per.len() / 2], per[0])
}

fn main() {
    let mut args = std::env::args().skip(1);
    let src = args.next().unwrap_or_else(|| "return 1".to_string());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    run(&src);
    let (med, min) = measure(n, || run(&src));
    let shown: String = src.chars().take(40).collect();
    println!(
        "parse→result: median {med:.2} µs, min {min:.2} µs ({n} runs of {shown:?}, {} bytes)",
        src.len()
    );
    let (med, min) = measure(n, || {
        codemode_js::compile(&src).expect("compiles");
    });
    println!("compile only: median {med:.2} µs, min {min:.2} µs");
}
