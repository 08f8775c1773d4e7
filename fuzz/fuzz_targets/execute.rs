//! Fuzz target: whole executions (compile, then run a `Machine` in small fuel slices with a
//! small memory cap, a small total fuel budget and a short deadline). Every input must end in
//! `Done` or `Error` — never a panic, a stack overflow or memory growth past the cap.
#![no_main]

use std::time::{Duration, Instant};

use codemode_lua::{Budgets, Env, ErrorKind, HostReply, Machine, Step, compile};
use libfuzzer_sys::fuzz_target;

/// Fuel per `run` slice (small, so slicing and resumption are exercised).
const SLICE: u32 = 2_000;
/// Total fuel the harness lets one input use before it stops driving it.
const TOTAL_FUEL: u64 = 3_000_000;
/// Memory cap given to the machine.
const MEMORY: usize = 32 * 1024 * 1024;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let Ok(program) = compile(source) else { return };
    let env = Env {
        tool_paths: vec!["t.echo".into(), "t.fail".into(), "t.deep".into()],
        extension_paths: vec!["ext.f".into()],
        async_extension_paths: Vec::new(),
        missing: None,
        ..Env::default()
    };
    let mut m = Machine::new(
        &program,
        &env,
        Budgets {
            max_memory_bytes: Some(MEMORY),
            ..Default::default()
        },
    );
    m.set_deadline(Instant::now() + Duration::from_millis(500));
    // The machine stops itself past this (also inside long builtins); the loop below checks too.
    m.set_fuel_limit(TOTAL_FUEL);
    let mut calls = 0u32;
    loop {
        match m.run(SLICE) {
            Step::Yield => {
                if m.fuel_used() > TOTAL_FUEL {
                    return;
                }
            }
            Step::HostCall(call) => {
                calls += 1;
                let reply = match (calls % 4, call.args.into_iter().next()) {
                    (0, _) => HostReply::error(ErrorKind::ToolFailure, "tool failed", Vec::new()),
                    (1, Some(v)) => HostReply::Value(v),
                    (2, _) => HostReply::Value(serde_json::json!({"a": [1, 2.5, "x", null], "b": {}})),
                    _ => HostReply::Value(serde_json::Value::Null),
                };
                m.resume(reply);
                if calls > 1_000 {
                    return;
                }
            }
            Step::Done(_) | Step::Error(_) => return,
        }
        assert!(m.memory_used() <= MEMORY + MEMORY / 4, "memory accounting exceeded its cap");
    }
});
