//! Snapshots of a JavaScript guest waiting for host calls: restoring from bytes continues
//! exactly where the program stopped (the same value, logs and calls as an uninterrupted
//! run), with several calls in flight, and damaged bytes are refused, never a panic.

use codemode_guest::{
    Budget, CallId, Clock, Env, Guest, HostCall, HostReply, Language, Random, StartOptions, Step,
};
use codemode_js::JavaScript;
use serde_json::json;

fn env() -> Env {
    Env {
        tool_paths: vec![
            "orders.get".into(),
            "orders.list".into(),
            "mail.send".into(),
        ],
        clock: Clock::Fixed(1_700_000_000_000),
        random: Random::Seed(7),
        ..Env::default()
    }
}

fn opts() -> StartOptions {
    StartOptions {
        max_memory_bytes: Some(64 << 20),
        deadline: None,
    }
}

/// What a run gives: the final step, every log line, every call's target and input.
type Outcome = (Step, Vec<String>, Vec<String>);

/// Snapshot `g`, drop it, and restore it from the bytes in its place.
fn round_trip(g: Box<dyn Guest>) -> Box<dyn Guest> {
    let bytes = g.snapshot().expect("snapshot");
    drop(g);
    let g = JavaScript
        .restore(&bytes, &env(), &opts())
        .expect("restore");
    assert!(g.memory_used() <= 64 << 20);
    g
}

/// Run to the end, answering one call at each stop (the oldest in flight); when `snap` is
/// set, snapshot and restore the guest at every stop before answering.
fn run(source: &str, snap: bool) -> Outcome {
    let mut g = JavaScript.start(source, &env(), &opts()).expect("compiles");
    let (mut logs, mut calls) = (Vec::new(), Vec::new());
    let mut pending: std::collections::VecDeque<HostCall> = Default::default();
    loop {
        let step = g.run(Budget {
            fuel: 10_000,
            soft_deadline: None,
        });
        logs.extend(g.take_logs());
        match step {
            Step::Yield => continue,
            Step::Started | Step::Blocked => {
                for c in g.take_calls() {
                    calls.push(format!("{:?} {}", c.target, json!(c.args)));
                    pending.push_back(c);
                }
                if snap {
                    g = round_trip(g);
                }
                let c = pending.pop_front().expect("a call to answer");
                g.resolve(c.id, answer(&c));
            }
            done => return (done, logs, calls),
        }
    }
}

#[path = "../../../tests/durable/corpus.rs"]
mod corpus;
use corpus::{answer, corpus_js};

#[test]
fn a_restored_guest_gives_the_uninterrupted_result() {
    let corpus = corpus_js();
    assert!(corpus.len() >= 15);
    for (i, source) in &corpus {
        let straight = run(source, false);
        assert!(!straight.2.is_empty(), "program {i} calls tools");
        assert!(
            matches!(straight.0, Step::Done { .. }),
            "program {i} ends well: {:?}",
            straight.0
        );
        let paused = run(source, true);
        assert_eq!(paused, straight, "program {i}:\n{source}");
    }
}

/// Several calls in flight: three are started before the first answer, and a snapshot taken
/// with two still waiting resumes with both.
#[test]
fn calls_in_flight_survive_a_snapshot() {
    let src = r#"
        const ps = ["a", "bb", "ccc"].map((id) => tools.orders.get({ id }));
        const got = await Promise.all(ps);
        return got.map((o) => o.total);
    "#;
    let mut g = JavaScript.start(src, &env(), &opts()).unwrap();
    let step = g.run(Budget {
        fuel: 100_000,
        soft_deadline: None,
    });
    assert_eq!(step, Step::Started);
    let calls = g.take_calls();
    assert_eq!(calls.len(), 3);
    g.resolve(calls[0].id, answer(&calls[0]));
    let step = g.run(Budget {
        fuel: 100_000,
        soft_deadline: None,
    });
    assert_eq!(step, Step::Blocked);
    let mut g = round_trip(g);
    // Answered in reverse order after the restore: the ids are the ones the first guest gave.
    g.resolve(calls[2].id, answer(&calls[2]));
    g.resolve(calls[1].id, answer(&calls[1]));
    let step = g.run(Budget {
        fuel: 100_000,
        soft_deadline: None,
    });
    assert_eq!(
        step,
        Step::Done {
            value: json!([10, 20, 30]),
            returned: true
        }
    );
}

/// A snapshot of the first call of a small program holding a bit of everything.
fn small_snapshot() -> Vec<u8> {
    let src = r#"
        const m = new Map([["k", [1, 2]]]);
        const s = new Set(["x"]);
        let n = 0;
        const inc = () => ++n;
        class P { #v = 3; get v() { return this.#v; } }
        const x = await tools.orders.get({ id: "a" });
        inc();
        return [x.total, m.get("k")[1], s.has("x"), n, new P().v];
    "#;
    let mut g = JavaScript.start(src, &env(), &opts()).unwrap();
    assert_eq!(
        g.run(Budget {
            fuel: 100_000,
            soft_deadline: None
        }),
        Step::Started
    );
    g.take_calls();
    g.snapshot().unwrap()
}

/// Loads `bytes` and, when it loads, runs it to its end with a value reply (a mutation may
/// give a valid guest: it must then run without panicking).
fn load_and_run(bytes: &[u8]) -> Result<Step, String> {
    load_and_run_in(bytes, &env())
}

/// [`load_and_run`] with the host's `env`.
fn load_and_run_in(bytes: &[u8], env: &Env) -> Result<Step, String> {
    let mut g = JavaScript
        .restore(bytes, env, &opts())
        .map_err(|e| e.message)?;
    // The first call of a run is call 0.
    g.resolve(CallId(0), HostReply::Value(json!({"total": 1})));
    for _ in 0..200 {
        match g.run(Budget {
            fuel: 10_000,
            soft_deadline: None,
        }) {
            Step::Yield => {}
            Step::Started | Step::Blocked => {
                let calls = g.take_calls();
                if calls.is_empty() {
                    return Ok(Step::Blocked);
                }
                for c in calls {
                    g.resolve(c.id, HostReply::Value(json!({})));
                }
            }
            s => return Ok(s),
        }
    }
    Ok(Step::Yield)
}

#[test]
fn the_small_snapshot_resumes() {
    let step = load_and_run(&small_snapshot()).unwrap();
    assert_eq!(
        step,
        Step::Done {
            value: json!([1, 2, true, 1, 3]),
            returned: true
        }
    );
}

#[test]
fn every_truncation_is_refused() {
    let bytes = small_snapshot();
    // Every cut in the header and the first kilobyte, then every 97th.
    let cuts = (0..bytes.len().min(1024)).chain((1024..bytes.len()).step_by(97));
    for cut in cuts {
        let e = load_and_run(&bytes[..cut]).expect_err("a cut snapshot loads");
        assert!(e.contains("cannot be restored"), "cut at {cut}: {e}");
    }
}

#[test]
fn bit_flips_never_panic() {
    let bytes = small_snapshot();
    let mut refused = 0;
    let mut tried = 0;
    // Every byte of the header and the first part, then a spread over the rest.
    let at = (0..bytes.len().min(600)).chain((600..bytes.len()).step_by(13));
    for i in at {
        for mask in [0x01, 0x08, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] ^= mask;
            tried += 1;
            if load_and_run(&b).is_err() {
                refused += 1;
            }
        }
    }
    assert!(
        refused > tried / 4,
        "most flips are refused: {refused} of {tried}"
    );
}

#[test]
fn another_version_build_or_language_is_refused() {
    let bytes = small_snapshot();
    let mut b = bytes.clone();
    b[8] = b[8].wrapping_add(1);
    let e = load_and_run(&b).unwrap_err();
    assert!(e.contains("format version 2"), "{e}");
    let mut b = bytes.clone();
    b[12] ^= 1;
    let e = load_and_run(&b).unwrap_err();
    assert!(e.contains("another standard library"), "{e}");
    let e = load_and_run(b"CMLUASNP\x01\0\0\0").unwrap_err();
    assert!(e.contains("not a JavaScript snapshot"), "{e}");
    let mut b = bytes;
    b.push(0);
    let e = load_and_run(&b).unwrap_err();
    assert!(e.contains("bytes follow its end"), "{e}");
}

#[test]
fn a_host_without_the_tool_is_refused() {
    let bytes = small_snapshot();
    let other = Env {
        tool_paths: vec!["orders.list".into(), "mail.send".into()],
        ..env()
    };
    let e = load_and_run_in(&bytes, &other).unwrap_err();
    assert!(e.contains("'orders.get'"), "{e}");
}

#[test]
fn a_snapshot_over_the_memory_cap_is_refused() {
    let src = r#"
        const rows = [];
        for (let i = 0; i < 20000; i++) rows.push({ id: "r" + i, n: i });
        await tools.orders.get({ id: "a" });
        return rows.length;
    "#;
    let mut g = JavaScript.start(src, &env(), &opts()).unwrap();
    loop {
        match g.run(Budget {
            fuel: 100_000,
            soft_deadline: None,
        }) {
            Step::Yield => {}
            Step::Started => break,
            s => panic!("{s:?}"),
        }
    }
    let call = g.take_calls().remove(0);
    let bytes = g.snapshot().unwrap();
    let small = StartOptions {
        max_memory_bytes: Some(g.memory_used() / 2),
        deadline: None,
    };
    let e = JavaScript
        .restore(&bytes, &env(), &small)
        .err()
        .expect("refused");
    assert!(
        e.message.contains("it holds") && e.message.contains("over the memory limit of"),
        "{}",
        e.message
    );
    // Bytes larger than the cap are refused before they are decoded.
    let tiny = StartOptions {
        max_memory_bytes: Some(bytes.len() - 1),
        deadline: None,
    };
    let e = JavaScript
        .restore(&bytes, &env(), &tiny)
        .err()
        .expect("refused");
    assert!(
        e.message.contains("more than the memory limit"),
        "{}",
        e.message
    );
    assert!(
        bytes.len() < g.memory_used(),
        "a snapshot is smaller than its heap"
    );
    // Under the run's own limit it resumes and finishes.
    let mut g = JavaScript.restore(&bytes, &env(), &opts()).unwrap();
    g.resolve(call.id, answer(&call));
    let mut step = Step::Yield;
    while step == Step::Yield {
        step = g.run(Budget {
            fuel: 100_000,
            soft_deadline: None,
        });
    }
    assert_eq!(
        step,
        Step::Done {
            value: json!(20000),
            returned: true
        }
    );
}

#[test]
fn a_running_or_finished_guest_cannot_be_snapshotted() {
    let mut g = JavaScript.start("return 1", &env(), &opts()).unwrap();
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
    let e = g.snapshot().unwrap_err();
    assert!(e.message.contains("has ended"), "{}", e.message);
    // Calls started and not taken yet: not a point to snapshot at.
    let mut g = JavaScript
        .start("await tools.orders.get({ id: 'a' })", &env(), &opts())
        .unwrap();
    assert_eq!(
        g.run(Budget {
            fuel: 10_000,
            soft_deadline: None
        }),
        Step::Started
    );
    let e = g.snapshot().unwrap_err();
    assert!(
        e.message.contains("cannot be snapshotted now"),
        "{}",
        e.message
    );
}

/// What the run changed in the standard library (a method added to `Array.prototype`, a
/// replaced `JSON.stringify`), a synchronous `search` it waits on, and a tagged template's
/// object survive a snapshot at every stop.
#[test]
fn changed_builtins_and_a_synchronous_call_survive() {
    let src = r#"
        Array.prototype.sum = function () { return this.reduce((a, b) => a + b, 0); };
        const plain = JSON.stringify;
        JSON.stringify = (v) => "<" + plain(v) + ">";
        const tag = (s) => s;
        const site = () => tag`a${1}b`;
        const first = site();
        const found = search({ query: "orders" });
        const o = await tools.orders.get({ id: "abc" });
        return [[1, 2, o.total].sum(), JSON.stringify(found.echo), site() === first, found.ok];
    "#;
    let straight = run(src, false);
    assert_eq!(
        straight.0,
        Step::Done {
            value: json!([33, "<{\"query\":\"orders\"}>", true, true]),
            returned: true
        }
    );
    assert_eq!(run(src, true), straight);
}

/// A snapshot whose bytes make an object its own prototype, or a bound function its own
/// target (no program can), is refused: the machine would walk such a chain forever.
#[test]
fn a_cycle_of_prototypes_or_bound_targets_is_refused() {
    // The run holds a prototype chain (`child` → `base` → Object.prototype); flipping bits
    // of the handles in the snapshot makes cycles among others.
    let src = r#"
        const base = { mark: 1 };
        const child = Object.create(base);
        await tools.orders.get({ id: "a" });
        return child.mark;
    "#;
    let mut g = JavaScript.start(src, &env(), &opts()).unwrap();
    while g.run(Budget {
        fuel: 100_000,
        soft_deadline: None,
    }) != Step::Started
    {}
    g.take_calls();
    let bytes = g.snapshot().unwrap();
    // Every single-byte change that loads must run to an end: a cycle made by a flipped
    // handle is refused at load, never a hang.
    let mut cycles = 0;
    for i in 20..bytes.len() {
        for x in [1u8, 2, 4] {
            let mut b = bytes.clone();
            b[i] ^= x;
            match JavaScript.restore(&b, &env(), &opts()) {
                Err(e) if e.message.contains("is a cycle") || e.message.contains("to itself") => {
                    cycles += 1
                }
                Err(_) => {}
                Ok(mut g) => {
                    g.resolve(CallId(0), HostReply::Value(json!({})));
                    for _ in 0..50 {
                        if g.run(Budget {
                            fuel: 10_000,
                            soft_deadline: None,
                        }) != Step::Yield
                        {
                            break;
                        }
                    }
                }
            }
        }
    }
    assert!(cycles > 0, "some flips make a cycle, and they are refused");
}

/// A synchronous call made deep in the stack (a closure called by the prelude's `map`, called
/// by a method) is snapshotted with every frame: the body's, the method's, `map`'s, the
/// callback's.
#[test]
fn a_synchronous_call_deep_in_the_stack_survives() {
    let src = r#"
        class Finder {
            constructor(prefix) { this.prefix = prefix; }
            all(words) { return words.map((w, i) => search({ query: this.prefix + w }).echo.query + i); }
        }
        const got = new Finder("q:").all(["a", "b", "c"]);
        const o = await tools.orders.get({ id: got[2] });
        return [got, o.total];
    "#;
    let straight = run(src, false);
    assert_eq!(
        straight.0,
        Step::Done {
            value: json!([["q:a0", "q:b1", "q:c2"], 40]),
            returned: true
        }
    );
    assert_eq!(straight.2.len(), 4);
    assert_eq!(run(src, true), straight);
}
