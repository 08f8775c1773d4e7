//! Fuzz target: whole JavaScript executions (compile, then run a `Machine` in small fuel
//! slices with a small memory cap and a small total fuel budget, answering its tool, search
//! and extension calls in turn with a value, the argument, an error or null). Every input must
//! end in `Done` or `Error` — never a panic, a stack overflow, a hang inside one slice or
//! memory accounting past the cap.
#![no_main]

use codemode_guest::{Env, ErrorKind, HostReply, StartOptions, Step};
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
/// Host calls the harness answers before it stops driving an input.
const MAX_CALLS: u32 = 1_000;

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
    let env = Env {
        tool_paths: vec!["t.echo".into(), "t.fail".into(), "t.deep".into()],
        extension_paths: vec!["ext.f".into(), "ext.later".into()],
        async_extension_paths: vec!["ext.later".into()],
        missing: None,
        ..Env::default()
    };
    let Ok(mut m) = codemode_js::Machine::new(&program, &env, &options) else {
        return;
    };
    m.set_fuel_limit(TOTAL_FUEL);
    let mut calls = 0u32;
    // Started calls not answered yet, answered one per `Blocked` (oldest first) so replies
    // also arrive while the program runs on.
    let mut open = std::collections::VecDeque::new();
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
            Step::Started => {
                for call in m.take_calls() {
                    calls += 1;
                    let reply = match (calls % 4, call.args.into_iter().next()) {
                        (0, _) => {
                            HostReply::error(ErrorKind::ToolFailure, "tool failed", Vec::new())
                        }
                        (1, Some(v)) => HostReply::Value(v),
                        (2, _) => {
                            HostReply::Value(serde_json::json!({"a": [1, 2.5, "x", null], "b": {}}))
                        }
                        _ => HostReply::Value(serde_json::Value::Null),
                    };
                    open.push_back((call.id, reply));
                }
                if calls > MAX_CALLS {
                    return;
                }
                // Every other batch is answered at once, the rest when the program blocks.
                if calls % 2 == 0 {
                    while let Some((id, reply)) = open.pop_front() {
                        m.resolve(id, reply);
                    }
                }
            }
            Step::Blocked => match open.pop_front() {
                Some((id, reply)) => m.resolve(id, reply),
                None => panic!("the program blocked with no call open"),
            },
        }
    }
    panic!("the run neither ended nor exhausted its fuel");
});
