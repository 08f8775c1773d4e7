//! Run one Lua file in-process (compile + `Machine::new` + run to the result) and print the
//! result, the fuel and the memory used: the in-process measure of `bench/profile.sh --lua-only`
//! (no CLI, no host: what callgrind counts is the guest alone).
//!
//! Usage: `cargo run --release -p codemode-lua --example run_file -- FILE [REPEAT]`
//! (REPEAT: run the file that many times, each time compiling it and making a fresh machine;
//! `return 1` repeated 201 and 1 times gives the per-run cost of parse to result).
use codemode_lua::{Budgets, Env, Machine, Step, compile};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: run_file FILE [REPEAT]");
        std::process::exit(2);
    };
    let repeat: usize = match args.next().map(|s| s.parse()) {
        None => 1,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("run_file: REPEAT must be a positive integer");
            std::process::exit(2);
        }
    };
    let source = match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("run_file: cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let env = Env::default();
    for n in 0..repeat {
        let program = match compile(&source) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("run_file: {path} does not compile: {e:?}");
                std::process::exit(1);
            }
        };
        let mut m = Machine::new(&program, &env, Budgets::default());
        let value = loop {
            match m.run(10_000_000) {
                Step::Yield => continue,
                Step::Done(v) => break v,
                Step::Error(e) => {
                    eprintln!("run_file: {path} failed: {e:?}");
                    std::process::exit(1);
                }
                Step::HostCall(c) => {
                    eprintln!("run_file: {path} made a host call: {c:?}");
                    std::process::exit(1);
                }
            }
        };
        if n + 1 == repeat {
            println!(
                "{value} (fuel {}, memory {} bytes)",
                m.fuel_used(),
                m.memory_used()
            );
        }
    }
}
