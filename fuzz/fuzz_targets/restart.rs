//! Fuzz target: re-running abandoned steps changes nothing. Each input runs twice: ordinarily,
//! and in inline stretches that have already expired with the stress mode on
//! (`Machine::set_inline_stress`), so every restartable step that does accounted work
//! (builtins, concatenations, tool-argument exports, reply imports, the result's export) is
//! abandoned once and re-run after a one-fuel-unit slice off the stretch, as codemode's driver
//! re-runs it on the blocking pool. Tool replies go through `Machine::try_resume` in the
//! stretch (handed back and given to `resume` when the import is abandoned).
//!
//! When both runs end on their own (a value, or an error that is not a limit: fuel, memory,
//! deadline), their results, logs, error kinds, messages and locations, and the tool calls
//! made must be identical (so the internal error of an abandoned step can never surface).
#![no_main]

use std::time::{Duration, Instant};

use codemode_lua::{Budgets, Env, ErrorKind, HostReply, Machine, Step, compile};
use libfuzzer_sys::fuzz_target;

const SLICE: u32 = 2_000;
const TOTAL_FUEL: u64 = 2_000_000;
const MEMORY: usize = 32 * 1024 * 1024;

#[derive(Debug, PartialEq)]
enum End {
    Done(serde_json::Value),
    Error(ErrorKind, String, Option<codemode_lua::Location>),
    /// A limit (fuel, memory, deadline) or the harness's own bound: not compared.
    Limit,
}

#[derive(Debug, PartialEq)]
struct Outcome {
    end: End,
    logs: Vec<String>,
    calls: Vec<String>,
}

fn reply_for(n: u32, arg: Option<serde_json::Value>) -> HostReply {
    match (n % 4, arg) {
        (0, _) => HostReply::error(ErrorKind::ToolFailure, "tool failed", Vec::new()),
        (1, Some(v)) => HostReply::Value(v),
        (2, _) => HostReply::Value(serde_json::json!({"a": [1, 2.5, "x", null], "b": {}})),
        _ => HostReply::Value(serde_json::Value::Null),
    }
}

fn run(program: &codemode_lua::Program, restarts: bool) -> Outcome {
    let env = Env {
        tool_paths: vec!["t.echo".into(), "t.fail".into()],
        extension_paths: vec!["ext.f".into()],
        async_extension_paths: Vec::new(),
        missing: None,
        ..Env::default()
    };
    let mut m = Machine::new(
        program,
        &env,
        Budgets {
            max_memory_bytes: Some(MEMORY),
            ..Default::default()
        },
    );
    m.set_deadline(Instant::now() + Duration::from_millis(2_000));
    m.set_fuel_limit(TOTAL_FUEL);
    if restarts {
        m.set_inline_stress(true);
    }
    let mut calls = Vec::new();
    let mut pending: Option<HostReply> = None;
    let mut steps = 0u64;
    let end = loop {
        steps += 1;
        if steps > 2_000_000 {
            break End::Limit;
        }
        let step = if restarts {
            m.set_inline(Some(Instant::now()));
            let resumed = match pending.take() {
                Some(reply) => m.try_resume(reply),
                None => Ok(()),
            };
            match resumed {
                Err(reply) => {
                    // The import was abandoned: finish it off the stretch.
                    m.set_inline(None);
                    m.resume(reply);
                    m.run(1)
                }
                Ok(()) => match m.run(SLICE) {
                    Step::Yield if m.wants_pool() => {
                        m.set_inline(None);
                        m.run(1)
                    }
                    step => step,
                },
            }
        } else {
            if let Some(reply) = pending.take() {
                m.resume(reply);
            }
            m.run(SLICE)
        };
        match step {
            Step::Yield => {
                if m.fuel_used() > TOTAL_FUEL {
                    break End::Limit;
                }
            }
            Step::HostCall(call) => {
                calls.push(format!("{:?} {:?}", call.target, call.args));
                if calls.len() > 200 {
                    break End::Limit;
                }
                pending = Some(reply_for(calls.len() as u32, call.args.into_iter().next()));
            }
            Step::Done(v) => break End::Done(v),
            Step::Error(e) => {
                // (An abandoned step leaking as an error would differ from the ordinary run,
                // which the comparison below catches; a program may raise any text itself.)
                let limit = matches!(e.kind, ErrorKind::TimeoutExceeded)
                    || e.message.contains("memory limit")
                    || e.message.contains("instruction limit");
                break if limit {
                    End::Limit
                } else {
                    End::Error(e.kind, e.message, e.location)
                };
            }
        }
    };
    Outcome {
        end,
        logs: m.take_logs(),
        calls,
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    let Ok(program) = compile(source) else { return };
    let plain = run(&program, false);
    if plain.end == End::Limit {
        return;
    }
    let restarted = run(&program, true);
    if restarted.end == End::Limit {
        return;
    }
    assert_eq!(plain, restarted, "re-running abandoned steps changed the outcome");
});
