//! Fuzz target: loading a damaged Lua snapshot is an error or a valid run, never a panic, a
//! hang or unbounded memory. The input is either a whole snapshot (first byte even) or, more
//! usefully, edits to a valid snapshot of a program holding strings, tables, closures and
//! upvalues (first byte odd): the rest is read as (offset: u16 LE, xor: u8) triples, and a
//! last odd byte, if any, cuts the snapshot to that fraction of its length. A snapshot that
//! loads is answered with a value and run to its end under a fuel bound.
#![no_main]

use std::sync::OnceLock;

use codemode_guest::{Budget, CallId, Env, HostReply, Language, StartOptions, Step};
use codemode_lua::Lua;
use libfuzzer_sys::fuzz_target;

const PROGRAM: &str = r#"
local rows, index = {}, {}
for i = 1, 40 do rows[i] = { id = "r" .. i, n = i * 1.5, tags = { "a", "b" } }; index["r" .. i] = i end
local count = 0
local function bump(k) count = count + k; return count end
local ok, got = pcall(tools.t.echo, { rows = #rows })
bump(#rows)
local again = tools.t.echo({ total = count, first = rows[1] })
return { ok = ok, got = got, again = again, c = count, i = index.r3 }
"#;

fn env() -> Env {
    Env {
        tool_paths: vec!["t.echo".into()],
        ..Env::default()
    }
}

fn options() -> StartOptions {
    StartOptions {
        max_memory_bytes: Some(32 << 20),
        deadline: None,
    }
}

fn base() -> &'static [u8] {
    static BASE: OnceLock<Vec<u8>> = OnceLock::new();
    BASE.get_or_init(|| {
        let mut g = Lua.start(PROGRAM, &env(), &options()).expect("compiles");
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
        let mut edits = rest.chunks_exact(3);
        for e in &mut edits {
            let at = u16::from_le_bytes([e[0], e[1]]) as usize;
            if let Some(x) = b.get_mut(at) {
                *x ^= e[2];
            }
        }
        if let [cut] = edits.remainder() {
            let keep = b.len() * (*cut as usize) / 256;
            b.truncate(keep);
        }
        b
    };
    let Ok(mut g) = Lua.restore(&bytes, &env(), &options()) else { return };
    g.resolve(CallId(1), HostReply::Value(serde_json::json!({"x": 1})));
    g.resolve(CallId(2), HostReply::Value(serde_json::json!({"y": [1, 2]})));
    for _ in 0..200 {
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
