//! Durable executions (issue 19): `cargo bench -p codemode --bench durable`.
//!
//! A Lua program builds 10^4 records (`{ id = "r1", n = 1, tags = { "a", "r1" } }`, one
//! string, one number and a two-string table each: about 3·10^4 heap objects) and then calls a
//! tool that needs approval.
//! - `run_unpaused`: the same program end to end when the tool needs no approval (baseline).
//! - `pause`: `execute` until it pauses: building the records, then the snapshot (guest and
//!   host state to bytes).
//! - `resume`: `CodeMode::resume` from the bytes: checking and rebuilding the machine, then
//!   the program's end (the call answered with a value, one loop over the records).
//!
//! - `js_run_unpaused`, `js_pause`, `js_resume` (with `--features js`): the same for a
//!   JavaScript program building the same records (`{ id, n, tags: ["a", id] }`).
//!
//! After the divan table the binary prints the snapshots' sizes.
use codemode::{CodeMode, Reply, Snapshot, Tool};
use serde_json::json;

const PROGRAM: &str = r#"
local records = {}
for i = 1, 10000 do
  local id = "r" .. i
  records[i] = { id = id, n = i, tags = { "a", id } }
end
local ok = tools.pay.approve({ count = #records })
local total = 0
for _, r in ipairs(records) do total = total + r.n end
return { ok = ok, total = total }
"#;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("tokio runtime")
}

/// The JavaScript program of the `js_*` benches: the same records and the same end.
#[cfg(feature = "js")]
const JS_PROGRAM: &str = r#"
const records = [];
for (let i = 1; i <= 10000; i++) {
  const id = "r" + i;
  records.push({ id, n: i, tags: ["a", id] });
}
const ok = await tools.pay.approve({ count: records.length });
let total = 0;
for (const r of records) total += r.n;
return { ok, total };
"#;

fn codemode(pausing: bool) -> CodeMode {
    codemode_in(codemode::Language::Lua, pausing)
}

fn codemode_in(language: codemode::Language, pausing: bool) -> CodeMode {
    let tool = Tool::new("Approve.", json!({"type": "object"}), |_| async {
        Ok(json!(true))
    });
    let mut o = CodeMode::builder()
        .language(language)
        .tool("pay.approve", tool);
    if pausing {
        o = o.pause_on("pay.approve");
    }
    o.build().expect("runtime")
}

fn snapshot(rt: &tokio::runtime::Runtime, cm: &CodeMode) -> Snapshot {
    snapshot_of(rt, cm, PROGRAM)
}

fn snapshot_of(rt: &tokio::runtime::Runtime, cm: &CodeMode, program: &str) -> Snapshot {
    let r = rt.block_on(cm.execute(program));
    r.paused.expect("paused").snapshot
}

#[divan::bench(sample_count = 20)]
fn run_unpaused(b: divan::Bencher) {
    let rt = runtime();
    let cm = codemode(false);
    b.bench_local(|| {
        let r = rt.block_on(cm.execute(PROGRAM));
        assert!(r.is_ok());
    });
}

#[divan::bench(sample_count = 20)]
fn pause(b: divan::Bencher) {
    let rt = runtime();
    let cm = codemode(true);
    b.bench_local(|| snapshot(&rt, &cm));
}

#[divan::bench(sample_count = 20)]
fn resume(b: divan::Bencher) {
    let rt = runtime();
    let cm = codemode(true);
    let snap = snapshot(&rt, &cm);
    b.bench_local(|| {
        let r = rt.block_on(cm.resume(&snap, vec![(1, Reply::Value(json!(true)))]));
        assert_eq!(r.value(), Some(&json!({"ok": true, "total": 50005000})));
    });
}

#[cfg(feature = "js")]
#[divan::bench(sample_count = 20)]
fn js_run_unpaused(b: divan::Bencher) {
    let rt = runtime();
    let cm = codemode_in(codemode::Language::JavaScript, false);
    b.bench_local(|| {
        let r = rt.block_on(cm.execute(JS_PROGRAM));
        assert!(r.is_ok());
    });
}

#[cfg(feature = "js")]
#[divan::bench(sample_count = 20)]
fn js_pause(b: divan::Bencher) {
    let rt = runtime();
    let cm = codemode_in(codemode::Language::JavaScript, true);
    b.bench_local(|| snapshot_of(&rt, &cm, JS_PROGRAM));
}

#[cfg(feature = "js")]
#[divan::bench(sample_count = 20)]
fn js_resume(b: divan::Bencher) {
    let rt = runtime();
    let cm = codemode_in(codemode::Language::JavaScript, true);
    let snap = snapshot_of(&rt, &cm, JS_PROGRAM);
    let id = snap.pending_ids()[0];
    b.bench_local(|| {
        let r = rt.block_on(cm.resume(&snap, vec![(id, Reply::Value(json!(true)))]));
        assert_eq!(r.value(), Some(&json!({"ok": true, "total": 50005000})));
    });
}

fn main() {
    divan::main();
    let rt = runtime();
    let snap = snapshot(&rt, &codemode(true));
    println!(
        "snapshot of 10^4 records: {} bytes ({:.1} KiB)",
        snap.as_bytes().len(),
        snap.as_bytes().len() as f64 / 1024.0
    );
    #[cfg(feature = "js")]
    {
        let cm = codemode_in(codemode::Language::JavaScript, true);
        let snap = snapshot_of(&rt, &cm, JS_PROGRAM);
        println!(
            "JavaScript snapshot of 10^4 records: {} bytes ({:.1} KiB)",
            snap.as_bytes().len(),
            snap.as_bytes().len() as f64 / 1024.0
        );
    }
}
