//! In-process benchmarks of the JavaScript guest (issue 12): `cargo bench -p codemode-js --bench
//! vm` (or `--profile dev`, the profile `bench/compare-js.sh` builds: codemode-js at opt-level 2).
//!
//! - `return_1`: parse + compile + `Machine::new` + run of `return 1` to its JSON value (target
//!   ≤ 20 µs), and its parts (`compile_only`, `machine_new`).
//! - `programs`: the programs of `bench/js/` (the files `bench/compare-js.sh` runs under
//!   `node --jitless`), compile + run to the end, the checksum asserted on every run.
use codemode_guest::{Env, StartOptions, Step};
use codemode_js::{Machine, Program, compile};
use serde_json::{Value, json};

fn main() {
    divan::main();
}

/// Fuel per `Machine::run` call: large, so the benches measure the interpreter and not the
/// slice loop.
const SLICE: u32 = 10_000_000;

/// No memory cap of the host's (the guest's own applies) and no deadline.
const OPTIONS: StartOptions = StartOptions {
    max_memory_bytes: None,
    deadline: None,
};

fn run_program(program: &Program) -> Value {
    let mut m = Machine::new(program, &Env::default(), &OPTIONS)
        .unwrap_or_else(|e| panic!("no machine: {e:?}"));
    loop {
        match m.run(SLICE) {
            Step::Yield => continue,
            Step::Done { value, .. } => return value,
            other => panic!("benchmark program did not finish: {other:?}"),
        }
    }
}

fn compile_ok(source: &str) -> Program {
    compile(source).unwrap_or_else(|e| panic!("benchmark program does not compile: {e:?}"))
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

/// Only `Machine::new` (a fork of the standard-library template) for a compiled `return 1`.
#[divan::bench]
fn machine_new(bencher: divan::Bencher) {
    let program = compile_ok("return 1");
    bencher.bench_local(|| Machine::new(&program, &Env::default(), &OPTIONS));
}

/// A comparison program and its checksum as JSON text (what node prints for it).
struct BenchProgram {
    name: &'static str,
    source: &'static str,
    checksum: &'static str,
}

impl std::fmt::Display for BenchProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

/// The programs of `bench/js/`.
const PROGRAMS: &[BenchProgram] = &[
    BenchProgram {
        name: "fib",
        source: include_str!("../../../bench/js/fib.js"),
        checksum: "832040",
    },
    BenchProgram {
        name: "loop",
        source: include_str!("../../../bench/js/loop.js"),
        checksum: "11875015375002",
    },
    BenchProgram {
        name: "sort_records",
        source: include_str!("../../../bench/js/sort_records.js"),
        checksum: "587587178",
    },
    BenchProgram {
        name: "string_build",
        source: include_str!("../../../bench/js/string_build.js"),
        checksum: "\"1048657/1885931305\"",
    },
    BenchProgram {
        name: "closures",
        source: include_str!("../../../bench/js/closures.js"),
        checksum: "669812037",
    },
    BenchProgram {
        name: "json",
        source: include_str!("../../../bench/js/json.js"),
        checksum: "\"2700197/440221/70000/13333/2000\"",
    },
];

/// Each program of `bench/js/`, compile + run (a few samples: they take 0.1–2 s each).
#[divan::bench(args = PROGRAMS, sample_count = 3, sample_size = 1)]
fn programs(p: &BenchProgram) -> Value {
    let v = run_program(&compile_ok(p.source));
    assert_eq!(v.to_string(), p.checksum, "{}: wrong checksum", p.name);
    v
}
