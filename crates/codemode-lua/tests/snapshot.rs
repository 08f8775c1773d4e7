//! Snapshots of a Lua guest waiting for a host call: restoring from bytes continues exactly
//! where the program stopped (the same value, logs and calls as an uninterrupted run), and
//! damaged bytes are refused, never a panic.

use codemode_guest::{Budget, Env, HostReply, Language, StartOptions, Step};
use codemode_lua::Lua;
use serde_json::json;

fn env() -> Env {
    Env {
        tool_paths: vec![
            "orders.get".into(),
            "orders.list".into(),
            "mail.send".into(),
        ],
        ..Env::default()
    }
}

/// What a run gives: the final step, every log line, every call's target and input.
type Outcome = (Step, Vec<String>, Vec<String>);

/// Run to the end; when `snap` is set, snapshot at every call, drop the guest, restore it
/// from the bytes and answer the restored one.
fn run(source: &str, snap: bool) -> Outcome {
    let opts = StartOptions {
        max_memory_bytes: Some(64 << 20),
        deadline: None,
    };
    let mut g = Lua.start(source, &env(), &opts).expect("compiles");
    let (mut logs, mut calls) = (Vec::new(), Vec::new());
    loop {
        let step = g.run(Budget {
            fuel: 10_000,
            soft_deadline: None,
        });
        logs.extend(g.take_logs());
        match step {
            Step::Yield => {}
            Step::Started => {
                let started = g.take_calls();
                if snap {
                    let bytes = g.snapshot().expect("snapshot");
                    let used = g.memory_used();
                    drop(g);
                    g = Lua.restore(&bytes, &env(), &opts).expect("restore");
                    assert_eq!(g.memory_used(), used, "memory accounting survives");
                }
                for c in started {
                    calls.push(format!("{:?} {}", c.target, json!(c.args)));
                    g.resolve(c.id, answer(&c));
                }
            }
            Step::Blocked => panic!("blocked with nothing to answer"),
            done => return (done, logs, calls),
        }
    }
}

#[path = "../../../tests/durable/corpus.rs"]
mod corpus;
use corpus::{answer, corpus};

#[test]
fn a_restored_guest_gives_the_uninterrupted_result() {
    let corpus = corpus();
    assert!(corpus.len() >= 15);
    for (i, source) in &corpus {
        let straight = run(source, false);
        assert!(!straight.2.is_empty(), "program {i} calls tools");
        let paused = run(source, true);
        assert_eq!(paused, straight, "program {i}:\n{source}");
    }
}

/// A snapshot of the first call of a small program.
fn small_snapshot() -> Vec<u8> {
    let opts = StartOptions::default_for_tests();
    let mut g = Lua
        .start(
            r#"local x = tools.orders.get({ id = "a" }); return x.total"#,
            &env(),
            &opts,
        )
        .unwrap();
    assert_eq!(
        g.run(Budget {
            fuel: 10_000,
            soft_deadline: None
        }),
        Step::Started
    );
    g.take_calls();
    g.snapshot().unwrap()
}

trait ForTests {
    fn default_for_tests() -> Self;
}
impl ForTests for StartOptions {
    fn default_for_tests() -> Self {
        StartOptions {
            max_memory_bytes: Some(64 << 20),
            deadline: None,
        }
    }
}

/// Loads `bytes` and, when it loads, runs it to its end with a value reply (a mutation may
/// give a valid guest: it must then run without panicking).
fn load_and_run(bytes: &[u8]) -> Result<(), String> {
    load_and_run_in(bytes, &env())
}

/// [`load_and_run`] with the host's `env`.
fn load_and_run_in(bytes: &[u8], env: &Env) -> Result<(), String> {
    let mut g = Lua
        .restore(bytes, env, &StartOptions::default_for_tests())
        .map_err(|e| e.message)?;
    g.resolve(
        codemode_guest::CallId(1),
        HostReply::Value(json!({"total": 1})),
    );
    for _ in 0..100 {
        match g.run(Budget {
            fuel: 10_000,
            soft_deadline: None,
        }) {
            Step::Yield => {}
            Step::Started => {
                for c in g.take_calls() {
                    g.resolve(c.id, HostReply::Value(json!({})));
                }
            }
            _ => return Ok(()),
        }
    }
    Ok(())
}

#[test]
fn every_truncation_is_refused() {
    let bytes = small_snapshot();
    for cut in 0..bytes.len() {
        let e = load_and_run(&bytes[..cut]).expect_err("a cut snapshot loads");
        assert!(e.contains("cannot be restored"), "cut at {cut}: {e}");
        // The decoder's own words (postcard's) never reach the message.
        assert!(
            !e.contains("buffer") && !e.contains("Deserialize"),
            "cut at {cut}: {e}"
        );
    }
    load_and_run(&bytes).expect("the whole snapshot loads");
}

#[test]
fn bit_flips_never_panic() {
    let bytes = small_snapshot();
    let mut refused = 0;
    for i in 0..bytes.len() {
        // Single bits, and the change a fuzzer found that moved a frame's resume point.
        for mask in [0x01, 0x08, 0x80, 0x21, 0xff] {
            let mut b = bytes.clone();
            b[i] ^= mask;
            if load_and_run(&b).is_err() {
                refused += 1;
            }
        }
    }
    assert!(refused > bytes.len(), "most flips are refused: {refused}");
}

#[test]
fn another_version_or_language_is_refused() {
    let mut bytes = small_snapshot();
    bytes[8] = bytes[8].wrapping_add(1);
    let e = load_and_run(&bytes).unwrap_err();
    assert!(e.contains("format version 2"), "{e}");
    let e = load_and_run(b"CMJSSNP\0\x01\0\0\0").unwrap_err();
    assert!(e.contains("not a Lua snapshot"), "{e}");
}

#[test]
fn a_host_without_the_tool_refuses_it() {
    let bytes = small_snapshot();
    let env = Env {
        tool_paths: vec!["other.tool".into()],
        ..Env::default()
    };
    let e = Lua
        .restore(&bytes, &env, &StartOptions::default_for_tests())
        .err()
        .unwrap();
    assert!(
        e.message.contains("which this host does not have"),
        "{}",
        e.message
    );
}

#[test]
fn a_smaller_memory_cap_than_the_snapshot_holds_is_refused() {
    let bytes = small_snapshot();
    let used = Lua
        .restore(&bytes, &env(), &StartOptions::default_for_tests())
        .unwrap()
        .memory_used();
    let opts = StartOptions {
        max_memory_bytes: Some(used - 1),
        deadline: None,
    };
    let e = Lua.restore(&bytes, &env(), &opts).err().unwrap();
    let want = format!(
        "it holds {used} bytes, over the memory cap of {} bytes",
        used - 1
    );
    assert!(e.message.contains(&want), "{}", e.message);
}

#[test]
fn a_snapshot_needs_a_waiting_program() {
    let mut g = Lua
        .start("return 1", &env(), &StartOptions::default_for_tests())
        .unwrap();
    let e = g.snapshot().unwrap_err();
    assert!(
        e.message.contains("not waiting for a host call"),
        "{}",
        e.message
    );
    g.run(Budget {
        fuel: 10_000,
        soft_deadline: None,
    });
}

/// The program of the `snapshot` fuzz target (fuzz/fuzz_targets/snapshot.rs).
const FUZZ_PROGRAM: &str = r#"
local rows, index = {}, {}
for i = 1, 40 do rows[i] = { id = "r" .. i, n = i * 1.5, tags = { "a", "b" } }; index["r" .. i] = i end
local count = 0
local function bump(k) count = count + k; return count end
local ok, got = pcall(tools.t.echo, { rows = #rows })
bump(#rows)
local again = tools.t.echo({ total = count, first = rows[1] })
return { ok = ok, got = got, again = again, c = count, i = index.r3 }
"#;

#[test]
fn inputs_the_fuzzer_found_are_refused_or_run() {
    let env = Env {
        tool_paths: vec!["t.echo".into()],
        ..Env::default()
    };
    let opts = StartOptions::default_for_tests();
    let mut g = Lua.start(FUZZ_PROGRAM, &env, &opts).unwrap();
    while g.run(Budget {
        fuel: 100_000,
        soft_deadline: None,
    }) == Step::Yield
    {}
    g.take_calls();
    let base = g.snapshot().unwrap();
    // (offset, xor) edits: one in the source that made the recompiled program's call after
    // the waiting one read a stack top nothing had set.
    let found: &[(usize, u8)] = &[(255, 0x21)];
    for &(at, x) in found {
        let mut b = base.clone();
        b[at] ^= x;
        // Refused or run to its end, without a panic.
        let _ = load_and_run_in(&b, &env);
    }
}
