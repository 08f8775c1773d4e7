//! In-process benchmarks of the Lua guest (issue 2 §4): `cargo bench -p codemode-lua --bench vm`.
//!
//! - `return_1`: parse + compile + `Machine::new` + run of `return 1` (target ≤ 10 µs), and its
//!   parts (`compile_only`, `machine_new`).
//! - `programs`: the programs of `bench/lua/` (the same files `bench/compare.sh` runs under
//!   `lua5.4`), compile + run to the end, the checksum asserted on every run.
use codemode_lua::{Budgets, Env, Machine, Program, Step, compile};
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// Instruction slice per `Machine::run` call: large, so the benches measure the interpreter and
/// not the slice loop (the host driver adapts its slices to ~1 ms).
const SLICE: u32 = 10_000_000;

fn run_program(program: &Program) -> Value {
    let env = Env::default();
    let mut m = Machine::new(program, &env, Budgets::default());
    loop {
        match m.run(SLICE) {
            Step::Yield => continue,
            Step::Done(v) => return v,
            Step::Error(e) => panic!("benchmark program failed: {e:?}"),
            Step::HostCall(c) => panic!("benchmark program made a host call: {c:?}"),
        }
    }
}

fn compile_ok(source: &str) -> Program {
    match compile(source) {
        Ok(p) => p,
        Err(e) => panic!("benchmark program does not compile: {e:?}"),
    }
}

/// Parse, compile and run `return 1` to its JSON value (the in-process parse-to-result path).
#[divan::bench]
fn return_1() -> Value {
    let program = compile_ok(divan::black_box("return 1"));
    let v = run_program(&program);
    assert_eq!(v, json!(1));
    v
}

/// Only parse + compile of `return 1`.
#[divan::bench]
fn compile_only() -> Program {
    compile_ok(divan::black_box("return 1"))
}

/// Only `Machine::new` (globals, standard library, `tools`) for a compiled `return 1`.
#[divan::bench]
fn machine_new(bencher: divan::Bencher) {
    let program = compile_ok("return 1");
    let env = Env::default();
    bencher.bench_local(|| Machine::new(&program, &env, Budgets::default()));
}

/// The four comparison programs and their checksums (what `lua5.4` prints for them).
const PROGRAMS: &[(&str, &str, fn() -> Value)] = &[
    ("fib", include_str!("../../../bench/lua/fib.lua"), || {
        json!(832040)
    }),
    ("loop", include_str!("../../../bench/lua/loop.lua"), || {
        json!(47500030750002i64)
    }),
    (
        "sort_records",
        include_str!("../../../bench/lua/sort_records.lua"),
        || json!(356829939),
    ),
    (
        "string_build",
        include_str!("../../../bench/lua/string_build.lua"),
        || json!("1048657/1727350023"),
    ),
];

fn program(name: &str) -> (&'static str, Value) {
    let (_, src, expected) = PROGRAMS
        .iter()
        .find(|(n, _, _)| *n == name)
        .expect("known program");
    (src, expected())
}

/// Compile + run of each `bench/lua/` program (one iteration per sample: each takes 0.05–1 s).
#[divan::bench(
    args = ["fib", "loop", "sort_records", "string_build"],
    sample_count = 3,
    sample_size = 1
)]
fn programs(bencher: divan::Bencher, name: &str) {
    let (src, expected) = program(name);
    bencher.bench_local(|| {
        let v = run_program(&compile_ok(src));
        assert_eq!(v, expected, "{name}: checksum differs from lua5.4's");
        v
    });
}
