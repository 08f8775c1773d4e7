//! Snapshots of a Lua guest waiting for a host call: restoring from bytes continues exactly
//! where the program stopped (the same value, logs and calls as an uninterrupted run), and
//! damaged bytes are refused, never a panic.

use codemode_guest::{Budget, Env, HostCall, HostReply, Language, StartOptions, Step};
use codemode_lua::Lua;
use serde_json::{Value, json};

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

/// A tool's answer to `call`: orders by id, a failure for id "bad".
fn answer(call: &HostCall) -> HostReply {
    let input = call.args.first().cloned().unwrap_or(json!({}));
    match &call.target {
        codemode_guest::HostTarget::Tool(p) if p == "orders.list" => {
            HostReply::Value(json!([{"id": "a"}, {"id": "b"}, {"id": "bad"}]))
        }
        codemode_guest::HostTarget::Tool(p) if p == "orders.get" => match input["id"].as_str() {
            Some("bad") => HostReply::error(
                codemode_guest::ErrorKind::ToolFailure,
                "no such order",
                vec![],
            ),
            Some(id) => {
                HostReply::Value(json!({"id": id, "total": id.len() * 10, "tags": ["x", id]}))
            }
            None => HostReply::Value(Value::Null),
        },
        _ => HostReply::Value(json!({"ok": true, "echo": input})),
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

/// Realistic tool-calling programs: loops over results, pcall around failing tools, nested
/// tables, string building, closures and upvalues alive across calls.
const CORPUS: &[&str] = &[
    r#"return tools.orders.get({ id = "a" }).total"#,
    r#"local out = {}
for _, o in ipairs(tools.orders.list()) do
  local ok, r = pcall(tools.orders.get, { id = o.id })
  if ok then out[#out + 1] = r.id .. "=" .. r.total else print("failed: " .. r) end
end
return table.concat(out, ",")"#,
    r#"local sum = 0
for i = 1, 5 do sum = sum + tools.orders.get({ id = string.rep("z", i) }).total end
return sum"#,
    r#"local function fetch(id) return tools.orders.get({ id = id }) end
local a, b = fetch("a"), fetch("bb")
return { a = a.tags, b = b.tags[2], n = #a.tags + #b.tags }"#,
    r#"local count = 0
local function inc() count = count + 1; return count end
for _, id in ipairs({ "a", "b", "c" }) do inc(); tools.mail.send({ to = id, n = count }) end
return count"#,
    r#"local ok, err = pcall(function() return tools.orders.get({ id = "bad" }) end)
print(ok, err)
return ok"#,
    r#"local t = setmetatable and {} or {}
local words = {}
for w in ("alpha beta gamma"):gmatch("%a+") do
  words[#words + 1] = tools.mail.send({ word = w }).echo.word:upper()
end
return table.concat(words, " ")"#,
    r#"local seen = {}
for _, o in ipairs(tools.orders.list()) do seen[o.id] = true end
local keys = {}
for k in pairs(seen) do keys[#keys + 1] = k end
table.sort(keys)
return keys"#,
    r#"local r = tools.orders.get({ id = "a" })
local s = string.format("%s:%d:%.2f", r.id, r.total, r.total / 3)
print(s)
return s"#,
    r#"local acc = {}
for i = 1, 3 do
  local ok, e = pcall(tools.orders.get, { id = i == 2 and "bad" or ("k" .. i) })
  acc[i] = ok and e.total or ("E:" .. tostring(e))
end
return acc"#,
    r#"local big = {}
for i = 1, 2000 do big[i] = { i = i, s = "row" .. i } end
local r = tools.orders.get({ id = "a" })
local n = 0
for _, row in ipairs(big) do n = n + row.i end
return n + r.total"#,
    r#"local function walk(t, d) if d == 0 then return tools.orders.get({ id = "deep" }).total end return walk(t, d - 1) + 1 end
return walk({}, 50)"#,
    r#"local r1 = tools.mail.send({ nested = { a = { b = { 1, 2, 3 } } } })
local r2 = tools.mail.send({ prev = r1.echo.nested.a.b })
return r2.echo.prev"#,
    r#"local parts = {}
local ok = xpcall(function() parts[1] = tools.orders.get({ id = "a" }).id end, debug and debug.traceback or print)
parts[2] = tostring(ok)
return table.concat(parts, "/")"#,
    r#"local cache = setmetatable ~= nil
local q = { "a", "bb", "ccc" }
local totals = {}
while #q > 0 do
  local id = table.remove(q, 1)
  totals[id] = tools.orders.get({ id = id }).total
end
return totals"#,
    r#"print("start")
local r = tools.orders.get({ id = "a" })
print("got", r.id)
error("stop here: " .. r.id)"#,
];

#[test]
fn a_restored_guest_gives_the_uninterrupted_result() {
    for (i, source) in CORPUS.iter().enumerate() {
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
    let mut g = Lua
        .restore(bytes, &env(), &StartOptions::default_for_tests())
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
    }
    load_and_run(&bytes).expect("the whole snapshot loads");
}

#[test]
fn bit_flips_never_panic() {
    let bytes = small_snapshot();
    let mut refused = 0;
    for i in 0..bytes.len() {
        for bit in [0, 3, 7] {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
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
