//! `codemode run --pause-on` and `codemode resume`: an execution paused in one process and
//! continued in another gives the uninterrupted run's Result; the paused tool runs only when
//! approved, once.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_codemode");

/// Exit status and the one JSON line on stdout (or stderr's text for usage errors).
fn codemode(dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("spawn codemode");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json = serde_json::from_str(stdout.trim()).unwrap_or(Value::Null);
    let stderr = String::from_utf8(out.stderr).unwrap();
    (out.status.code().unwrap(), json, stderr)
}

/// A scratch directory with a manifest: `pay.refund` appends its input to `refunds.log`.
fn setup(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("codemode-durable-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    let manifest = json!({"tools": {
        "pay.refund": {"description": "Refund an order.", "input": {"type": "object"},
            "command": ["sh", "-c", "cat >> refunds.log; echo >> refunds.log; echo '{\"refunded\": true}'"]},
        "pay.quote": {"description": "Quote a refund.", "input": {"type": "object"},
            "command": ["sh", "-c", "cat > /dev/null; echo '{\"amount\": 42}'"]}
    }});
    std::fs::write(d.join("tools.json"), manifest.to_string()).unwrap();
    std::fs::write(
        d.join("refund.lua"),
        r#"local q = tools.pay.quote({ order = "o1" })
print("quoted " .. q.amount)
local ok, r = pcall(tools.pay.refund, { order = "o1", amount = q.amount })
print("refund", ok)
return { amount = q.amount, refunded = ok and r.refunded or r }
"#,
    )
    .unwrap();
    d
}

fn refunds(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("refunds.log"))
        .map(|s| s.lines().filter(|l| !l.trim().is_empty()).count())
        .unwrap_or(0)
}

/// `codemode resume snap.bin --tools TOOLS --reply REPLY` in `dir`.
fn resume(dir: &Path, tools: &str, reply: &str) -> (i32, Value, String) {
    codemode(
        dir,
        &["resume", "snap.bin", "--tools", tools, "--reply", reply],
    )
}

const RUN: &[&str] = &["run", "--tools", "tools.json", "refund.lua"];
const PAUSE: &[&str] = &["--pause-on", "pay.refund", "--snapshot-out", "snap.bin"];

#[test]
fn a_paused_run_resumes_in_another_process_with_the_same_result() {
    let dir = setup("approve");
    let (code, straight, _) = codemode(&dir, RUN);
    assert_eq!(code, 0, "{straight}");
    assert_eq!(refunds(&dir), 1);
    std::fs::remove_file(dir.join("refunds.log")).unwrap();

    let (code, paused, err) = codemode(&dir, &[RUN, PAUSE].concat());
    assert_eq!(code, 3, "{paused} {err}");
    assert_eq!(paused["status"], json!("paused"));
    assert_eq!(
        paused["pending"],
        json!([{"id": 2, "name": "pay.refund", "input": {"order": "o1", "amount": 42}, "location": {"line": 3, "column": 20}}])
    );
    assert_eq!(paused["logs"], json!(["quoted 42"]));
    assert_eq!(refunds(&dir), 0, "the refund waits for approval");
    assert!(dir.join("snap.bin").metadata().unwrap().len() > 0);

    let (code, resumed, err) = resume(&dir, "tools.json", "\"run\"");
    assert_eq!(code, 0, "{resumed} {err}");
    assert_eq!(resumed, straight);
    assert_eq!(refunds(&dir), 1, "the approved refund ran once");
}

#[test]
fn a_denial_is_a_catchable_failure() {
    let dir = setup("deny");
    let (code, _, _) = codemode(&dir, &[RUN, PAUSE].concat());
    assert_eq!(code, 3);
    let (code, r, err) = resume(
        &dir,
        "tools.json",
        r#"{"id": 2, "deny": "refunds over 40 need a manager"}"#,
    );
    assert_eq!(code, 0, "{r} {err}");
    assert_eq!(
        r["value"],
        json!({"amount": 42, "refunded": "refunds over 40 need a manager"})
    );
    assert_eq!(r["toolCalls"][1]["status"], json!("denied"));
    assert_eq!(r["logs"], json!(["quoted 42", "refund\tfalse"]));
    assert_eq!(refunds(&dir), 0);
}

#[test]
fn other_tools_and_bad_flags_are_refused() {
    let dir = setup("refused");
    let (code, _, _) = codemode(&dir, &[RUN, PAUSE].concat());
    assert_eq!(code, 3);
    std::fs::write(
        dir.join("other.json"),
        json!({"tools": {"pay.refund": {"description": "d", "input": {"type": "object"}, "command": ["true"]}}})
            .to_string(),
    )
    .unwrap();
    let (code, r, _) = resume(&dir, "other.json", "\"run\"");
    assert_eq!(code, 1);
    let m = r["error"]["message"].as_str().unwrap();
    assert!(m.contains("taken against other tools"), "{m}");

    // A snapshot path in no existing directory is refused before anything runs.
    let (code, _, err) = codemode(
        &dir,
        &[
            RUN,
            &[
                "--pause-on",
                "pay.refund",
                "--snapshot-out",
                "/nonexistent/dir/s.bin",
            ],
        ]
        .concat(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--snapshot-out /nonexistent/dir/s.bin: not a file in an existing directory"),
        "{err}"
    );
    assert_eq!(refunds(&dir), 0);
    // A --pause-on path that names no tool is refused (the tool would run unapproved).
    let (code, _, err) = codemode(
        &dir,
        &[
            RUN,
            &["--pause-on", "pay.refnud", "--snapshot-out", "x.bin"],
        ]
        .concat(),
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("--pause-on pay.refnud: no tool has this path")
            && err.contains("pay.quote, pay.refund"),
        "{err}"
    );
    assert_eq!(refunds(&dir), 0);
    let (code, _, err) = codemode(&dir, &[RUN, &["--pause-on", "pay.refund"]].concat());
    assert_eq!(code, 2);
    assert!(err.contains("--pause-on needs --snapshot-out"), "{err}");
    let (code, _, err) = resume(&dir, "tools.json", "{\"run\": false}");
    assert_eq!(code, 2);
    assert!(
        err.contains("\"run\" must be true (to refuse the call, write {\"deny\": \"reason\"})"),
        "{err}"
    );
    let (code, _, err) = resume(&dir, "tools.json", "{\"maybe\": 1}");
    assert_eq!(code, 2);
    assert!(err.contains("unknown key \"maybe\""), "{err}");
    // A file past MAX_SNAPSHOT_BYTES (1 GiB; sparse here) is refused before it is read.
    let big = std::fs::File::create(dir.join("big.bin")).unwrap();
    big.set_len((1 << 30) + 1).unwrap();
    let (code, _, err) = codemode(
        &dir,
        &[
            "resume",
            "big.bin",
            "--tools",
            "tools.json",
            "--reply",
            "\"run\"",
        ],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("is 1073741825 bytes; codemode resume reads at most 1073741824"),
        "{err}"
    );
    std::fs::remove_file(dir.join("big.bin")).unwrap();
}

/// A resume runs under the limits the paused run had (the stricter of those and the resuming
/// command's): resumed without `--max-tool-calls`, a run paused under `--max-tool-calls 2`
/// still ends at its third call, with the uninterrupted run's Result.
#[test]
fn a_resume_keeps_the_paused_runs_limits() {
    let dir = setup("limits");
    std::fs::write(
        dir.join("three.lua"),
        "tools.pay.quote({})\ntools.pay.refund({ order = 'o1' })\nreturn tools.pay.quote({})\n",
    )
    .unwrap();
    let base = [
        "run",
        "--tools",
        "tools.json",
        "--max-tool-calls",
        "2",
        "three.lua",
    ];
    let (code, straight, _) = codemode(&dir, &base);
    assert_eq!(code, 1);
    assert_eq!(
        straight["error"]["kind"], "ToolCallLimitExceeded",
        "{straight}"
    );
    let (code, _, _) = codemode(&dir, &[&base[..], PAUSE].concat());
    assert_eq!(code, 3);
    let (code, resumed, _) = resume(&dir, "tools.json", "\"run\"");
    assert_eq!(code, 1);
    assert_eq!(resumed, straight);
}

/// `--snapshot-key-file` signs the snapshot (the key file is made once, private) and
/// `codemode resume` needs the same file.
#[test]
fn a_signed_snapshot_resumes_only_with_its_key_file() {
    let dir = setup("signed");
    let keyed = |file: &str| ["--snapshot-key-file", file].map(String::from);
    let args: Vec<String> = [RUN, PAUSE]
        .concat()
        .iter()
        .map(|s| s.to_string())
        .chain(keyed("k1"))
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = codemode(&dir, &args);
    assert_eq!(code, 3, "{err}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = dir.join("k1").metadata().unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let resume_with = |extra: &[&str]| {
        let mut a = vec![
            "resume",
            "snap.bin",
            "--tools",
            "tools.json",
            "--reply",
            "\"run\"",
        ];
        a.extend_from_slice(extra);
        codemode(&dir, &a)
    };
    let (code, r, _) = resume_with(&[]);
    assert_eq!(code, 1);
    let m = r["error"]["message"].as_str().unwrap();
    assert!(
        m.contains("it is signed, and this runtime has no snapshot key"),
        "{m}"
    );
    assert_eq!(refunds(&dir), 0);
    let (code, _, err) = resume_with(&["--snapshot-key-file", "missing"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--snapshot-key-file missing: no such file; give the key file the execution was paused with"),
        "{err}"
    );
    std::fs::write(dir.join("k2"), "another key of thirty-two bytes or more").unwrap();
    let (code, r, _) = resume_with(&["--snapshot-key-file", "k2"]);
    assert_eq!(code, 1);
    let m = r["error"]["message"].as_str().unwrap();
    assert!(m.contains("its signature does not match"), "{m}");
    assert_eq!(r["toolCalls"], json!([]), "refused before it decoded");
    let (code, r, err) = resume_with(&["--snapshot-key-file", "k1"]);
    assert_eq!(code, 0, "{r} {err}");
    assert_eq!(refunds(&dir), 1);
}

/// Files that are not snapshots, and replies that do not fit, are named as such; a refusal
/// after the snapshot decoded keeps its record.
#[test]
fn bad_files_and_replies_say_what_is_wrong() {
    let dir = setup("messages");
    std::fs::write(dir.join("empty.bin"), "").unwrap();
    let (code, r, err) = codemode(
        &dir,
        &[
            "resume",
            "empty.bin",
            "--tools",
            "tools.json",
            "--reply",
            "\"run\"",
        ],
    );
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        r["error"]["message"],
        json!("The snapshot cannot be resumed: these bytes are not a codemode snapshot.")
    );
    let (code, _, _) = codemode(&dir, &[RUN, PAUSE].concat());
    assert_eq!(code, 3);
    let (code, r, _) = codemode(
        &dir,
        &[
            "resume",
            "snap.bin",
            "--tools",
            "tools.json",
            "--reply",
            "\"run\"",
            "--reply",
            "{\"id\": 2, \"deny\": \"no\"}",
        ],
    );
    assert_eq!(code, 1);
    assert_eq!(
        r["error"]["message"],
        json!(
            "The snapshot cannot be resumed: two replies were given for call 2; give exactly one per pending call."
        )
    );
    assert_eq!(r["toolCalls"][0]["name"], json!("pay.quote"));
    assert_eq!(r["logs"], json!(["quoted 42"]));
    assert_eq!(refunds(&dir), 0);
}

/// A snapshot file, or any copy of it, continues once; a refused resume can be made again.
#[test]
fn codemode_resume_continues_a_snapshot_once() {
    let dir = setup("once");
    let (code, _, _) = codemode(&dir, &[RUN, PAUSE].concat());
    assert_eq!(code, 3);
    std::fs::copy(dir.join("snap.bin"), dir.join("copy.bin")).unwrap();
    // A reply for no pending call is refused, and leaves the snapshot usable.
    let (code, r, _) = resume(&dir, "tools.json", r#"{"id": 9, "deny": "no"}"#);
    assert_eq!(code, 1);
    let m = r["error"]["message"].as_str().unwrap();
    assert!(
        m.starts_with("The snapshot cannot be resumed: a reply was given for call 9, which the execution does not wait on (it waits on 2)"),
        "{m}"
    );
    assert_eq!(
        r["toolCalls"],
        json!([{"name": "pay.quote", "input": {"order": "o1"}, "status": "success"}])
    );
    let (code, r, err) = resume(&dir, "tools.json", "\"run\"");
    assert_eq!(code, 0, "{r} {err}");
    assert_eq!(refunds(&dir), 1);
    for file in ["snap.bin", "copy.bin"] {
        let (code, r, _) = codemode(
            &dir,
            &[
                "resume",
                file,
                "--tools",
                "tools.json",
                "--reply",
                "\"run\"",
            ],
        );
        assert_eq!(code, 1, "{file}");
        let m = r["error"]["message"].as_str().unwrap();
        assert!(
            m.starts_with("The snapshot cannot be resumed: it was resumed already (")
                && m.ends_with("a snapshot continues once. Resume the snapshot the later pause wrote, or run the program again."),
            "{m}"
        );
    }
    assert_eq!(refunds(&dir), 1, "the refund ran once");
    assert_eq!(
        std::fs::read_dir(dir.join(".codemode-resumed"))
            .unwrap()
            .count(),
        1
    );
    // Another claims directory is another record: the host chooses where single use holds.
    let (code, r, err) = codemode(
        &dir,
        &[
            "resume",
            "copy.bin",
            "--tools",
            "tools.json",
            "--reply",
            "\"run\"",
            "--claims-dir",
            "elsewhere",
        ],
    );
    assert_eq!(code, 0, "{r} {err}");
    assert_eq!(refunds(&dir), 2);
}

/// A JavaScript program pauses in one process and resumes in another (the language read
/// from the snapshot) with the uninterrupted run's Result; the refund runs once.
#[test]
fn a_paused_javascript_run_resumes_in_another_process() {
    let dir = setup("js");
    std::fs::write(
        dir.join("refund.js"),
        r#"const q = await tools.pay.quote({ order: "o1" });
console.log("quoted", q.amount);
const [r, again] = await Promise.all([
  tools.pay.refund({ order: "o1", amount: q.amount }),
  tools.pay.quote({ order: "o2" }),
]);
return { amount: q.amount, refunded: r.refunded, again: again.amount, n: Math.random() < 2 };
"#,
    )
    .unwrap();
    let run: &[&str] = &["run", "--tools", "tools.json", "refund.js", "--seed", "3"];
    let (code, straight, err) = codemode(&dir, run);
    assert_eq!(code, 0, "{straight} {err}");
    assert_eq!(refunds(&dir), 1);
    std::fs::remove_file(dir.join("refunds.log")).unwrap();

    let (code, paused, err) = codemode(&dir, &[run, PAUSE].concat());
    assert_eq!(code, 3, "{paused} {err}");
    assert_eq!(paused["status"], json!("paused"));
    assert_eq!(paused["pending"][0]["name"], json!("pay.refund"));
    assert_eq!(
        paused["pending"][0]["input"],
        json!({"order": "o1", "amount": 42})
    );
    assert_eq!(paused["logs"], json!(["quoted 42"]));
    assert_eq!(refunds(&dir), 0, "the refund waits for approval");

    let (code, resumed, err) = resume(&dir, "tools.json", "\"run\"");
    assert_eq!(code, 0, "{resumed} {err}");
    assert_eq!(resumed, straight);
    assert_eq!(refunds(&dir), 1, "the approved refund ran once");
}

/// Strings that share one long part in memory are written out one by one in a snapshot: a
/// pause whose snapshot would pass the memory limit is refused at once with that limit's
/// error (before: a snapshot ten times the limit, which no resume under the limit takes).
#[test]
fn a_javascript_pause_past_the_memory_limit_is_refused() {
    let dir = setup("ropes");
    std::fs::write(
        dir.join("ropes.js"),
        "const s = 'x'.repeat(1_000_000);\nconst a = []; let t = s;\nfor (let i = 0; i < 200; i++) { t = t + 'y'; a.push(t); }\nawait tools.pay.refund({});\nreturn a.length;\n",
    )
    .unwrap();
    let run = [
        "run",
        "--tools",
        "tools.json",
        "--max-memory-bytes",
        "20000000",
        "ropes.js",
    ];
    let (code, straight, _) = codemode(&dir, &run);
    assert_eq!((code, &straight["value"]), (0, &json!(200)), "{straight}");
    std::fs::remove_file(dir.join("refunds.log")).unwrap();
    let (code, r, _) = codemode(&dir, &[&run[..], PAUSE].concat());
    assert_eq!(code, 1, "{r}");
    let m = r["error"]["message"].as_str().unwrap();
    assert!(
        m.starts_with("memory limit exceeded: the program cannot be paused here, because its strings written out take more than max_memory_bytes (20000000 bytes)"),
        "{m}"
    );
    assert!(!dir.join("snap.bin").exists());
    assert_eq!(refunds(&dir), 0, "the paused call did not run");
}

/// `codemode resume --now` gives the resumed run the fixed clock the paused one had.
#[test]
fn a_fixed_clock_is_given_again_on_resume() {
    let dir = setup("now");
    std::fs::write(
        dir.join("clock.js"),
        "const a = Date.now();\nawait tools.pay.refund({});\nreturn [a, Date.now(), new Date().toISOString()];\n",
    )
    .unwrap();
    let run = [
        "run",
        "--tools",
        "tools.json",
        "--now",
        "2026-01-01T00:00:00Z",
        "clock.js",
    ];
    let (code, straight, _) = codemode(&dir, &run);
    assert_eq!(code, 0);
    assert_eq!(
        straight["value"],
        json!([
            1767225600000i64,
            1767225600000i64,
            "2026-01-01T00:00:00.000Z"
        ])
    );
    let (code, _, _) = codemode(&dir, &[&run[..], PAUSE].concat());
    assert_eq!(code, 3);
    let (code, r, err) = codemode(
        &dir,
        &[
            "resume",
            "snap.bin",
            "--tools",
            "tools.json",
            "--reply",
            "\"run\"",
            "--now",
            "2026-01-01T00:00:00Z",
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(r, straight);
}
