//! Fuzz target: whole JavaScript executions (compile, then run a `Machine` in small fuel
//! slices with a small memory cap and a small total fuel budget). Every input must end in
//! `Done` or `Error` — never a panic, a stack overflow, a hang inside one slice or memory
//! accounting past the cap.
#![no_main]

use codemode_guest::{Env, StartOptions, Step};
use libfuzzer_sys::fuzz_target;

/// Fuel per `run` slice (small, so slicing and resumption are exercised).
const SLICE: u32 = 2_000;
/// Total fuel one input may use: past it the machine ends the run itself
/// ("instruction limit exceeded"). Under AddressSanitizer and coverage counters an
/// allocation-heavy program runs about 20× slower than the dev build: 3,000,000 took 9 s of
/// libFuzzer's 10 s timeout (an endless user iterator, `fuzz_regressions.rs`).
const TOTAL_FUEL: u64 = 1_000_000;
/// Memory cap given to the machine (the standard library takes part of it).
const MEMORY: usize = 32 * 1024 * 1024;
/// Slices the harness drives at most (a run that neither ends nor spends fuel is a bug).
const MAX_SLICES: u64 = TOTAL_FUEL / SLICE as u64 + 100;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(program) = codemode_js::compile(source) else {
        return;
    };
    let options = StartOptions {
        max_memory_bytes: Some(MEMORY),
        deadline: None,
    };
    let Ok(mut m) = codemode_js::Machine::new(&program, &Env::default(), &options) else {
        return;
    };
    m.set_fuel_limit(TOTAL_FUEL);
    for _ in 0..MAX_SLICES {
        match m.run(SLICE) {
            // (A failed charge leaves the attempted bytes counted, so only a running machine
            // is held to the cap.)
            Step::Yield => assert!(
                m.memory_used() <= MEMORY,
                "a running machine holds {} bytes, past its cap",
                m.memory_used()
            ),
            Step::Done { .. } | Step::Error(_) => return,
            other => panic!("a synchronous program stopped with {other:?}"),
        }
    }
    panic!("the run neither ended nor exhausted its fuel");
});
