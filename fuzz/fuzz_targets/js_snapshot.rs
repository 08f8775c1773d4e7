//! Fuzz target: loading a damaged JavaScript snapshot is an error or a valid run, never a
//! panic, a hang or unbounded memory. The input is either a whole snapshot (first byte even)
//! or, more usefully, edits to a valid snapshot of a program waiting on two tool calls under
//! `Promise.all` while it holds a Map, a Set, closures, a class instance with a private field,
//! a suspended generator, a RegExp, a Date and typed bytes (first byte odd): the rest is read as
//! (offset: u24 LE, xor: u8) quadruples, and a last byte, if any is left over, cuts the
//! snapshot to that fraction of its length. A snapshot that loads is answered and run to its
//! end under a fuel bound (3·10^5) and an 8 MiB memory cap.
#![no_main]

use std::sync::OnceLock;

use codemode_guest::{Budget, Env, HostReply, Language, StartOptions, Step};
use codemode_js::JavaScript;
use libfuzzer_sys::fuzz_target;

const PROGRAM: &str = r#"
const rows = [];
for (let i = 0; i < 30; i++) rows.push({ id: "r" + i, n: i * 1.5, tags: ["a", "b"] });
const index = new Map(rows.map((r, i) => [r.id, i]));
const seen = new Set(["x", 2, null]);
let count = 0;
const bump = (k) => (count += k);
class Box { #v; constructor(v) { this.#v = v; } get v() { return this.#v; } }
function* gen() { yield 1; yield 2; }
const g = gen();
g.next();
const re = /r(\d+)/g;
const when = new Date(0);
const bytes = new Uint8Array([1, 2, 3]);
const [a, b] = await Promise.all([tools.t.echo({ rows: rows.length }), tools.t.echo({ c: count })]);
bump(rows.length);
const again = await tools.t.echo({ total: count, first: rows[0] });
return { a, b, again, c: count, i: index.get("r3"), s: seen.size, box: new Box(3).v,
  g: g.next().value, m: "r12".replace(re, "$1"), t: when.getTime(), y: bytes[2] };
"#;

fn env() -> Env {
    Env {
        tool_paths: vec!["t.echo".into()],
        random: codemode_guest::Random::Seed(1),
        clock: codemode_guest::Clock::Fixed(0),
        ..Env::default()
    }
}

fn options() -> StartOptions {
    StartOptions {
        // Small: a mutation that sends the program back into a loop that allocates runs into
        // the cap, and each collection near it traces at most this much.
        max_memory_bytes: Some(8 << 20),
        deadline: None,
    }
}

fn base() -> &'static [u8] {
    static BASE: OnceLock<Vec<u8>> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut g = JavaScript.start(PROGRAM, &env(), &options()).expect("compiles");
        loop {
            match g.run(Budget { fuel: 100_000, soft_deadline: None }) {
                Step::Yield => {}
                Step::Started => {
                    g.take_calls();
                    return g.snapshot().expect("snapshot");
                }
                other => panic!("the program ended before its call: {other:?}"),
            }
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let bytes = if mode % 2 == 0 {
        rest.to_vec()
    } else {
        let mut b = base().to_vec();
        let n = b.len().max(1);
        let mut edits = rest.chunks_exact(4);
        for e in &mut edits {
            let at = u32::from_le_bytes([e[0], e[1], e[2], 0]) as usize;
            if let Some(x) = b.get_mut(at % n) {
                *x ^= e[3];
            }
        }
        if let [cut, ..] = edits.remainder() {
            let keep = b.len() * (*cut as usize) / 256;
            b.truncate(keep);
        }
        b
    };
    let Ok(mut g) = JavaScript.restore(&bytes, &env(), &options()) else { return };
    g.resolve(codemode_guest::CallId(0), HostReply::Value(serde_json::json!({"x": 1})));
    g.resolve(codemode_guest::CallId(1), HostReply::Value(serde_json::json!({"y": [1, 2]})));
    // At most 3·10^5 fuel: a mutation that jumps back into the program's loops runs there
    // (1.5 µs a fuel unit through the RegExp and string natives, ~6 µs instrumented), and a
    // unit must end well inside libFuzzer's 10 s timeout.
    for _ in 0..30 {
        match g.run(Budget { fuel: 10_000, soft_deadline: None }) {
            Step::Yield => {}
            Step::Started => {
                for c in g.take_calls() {
                    g.resolve(c.id, HostReply::Value(serde_json::Value::Null));
                }
            }
            _ => return,
        }
    }
});
