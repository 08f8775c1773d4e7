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

/// A comparison program and its checksum as JSON text (what `lua5.4` prints for it).
struct BenchProgram {
    name: &'static str,
    source: &'static str,
    checksum: &'static str,
}

/// The four programs of `bench/lua/`.
const PROGRAMS: &[BenchProgram] = &[
    BenchProgram {
        name: "fib",
        source: include_str!("../../../bench/lua/fib.lua"),
        checksum: "832040",
    },
    BenchProgram {
        name: "loop",
        source: include_str!("../../../bench/lua/loop.lua"),
        checksum: "47500030750002",
    },
    BenchProgram {
        name: "sort_records",
        source: include_str!("../../../bench/lua/sort_records.lua"),
        checksum: "356829939",
    },
    BenchProgram {
        name: "string_build",
        source: include_str!("../../../bench/lua/string_build.lua"),
        checksum: r#""1048657/1727350023""#,
    },
];

fn program(name: &str) -> (&'static str, Value) {
    let p = PROGRAMS
        .iter()
        .find(|p| p.name == name)
        .expect("known program");
    (
        p.source,
        serde_json::from_str(p.checksum).expect("checksum is JSON"),
    )
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
