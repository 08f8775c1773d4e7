//! Unit tests of command tools: spawning, the stdin/stdout protocol, output caps and charges.

use super::*;
use serde_json::json;
use std::path::PathBuf;

fn tool(program: &str, args: &[&str]) -> ToolSpec {
    ToolSpec {
        path: "t.x".into(),
        description: "d".into(),
        input: json!({}),
        output: None,
        program: PathBuf::from(program),
        args: args.iter().map(|s| s.to_string()).collect(),
        cwd: std::env::temp_dir(),
        manifest: "m.json".into(),
        max_stdout_bytes: DEFAULT_MAX_STDOUT_BYTES,
    }
}

#[tokio::test]
async fn echoes_input() {
    let t = tool("cat", &[]);
    let v = run(
        &t,
        json!({"a": [1, 2, {"b": null}]}),
        OutputBounds::default(),
    )
    .await
    .unwrap();
    assert_eq!(v, json!({"a": [1, 2, {"b": null}]}));
}

#[tokio::test]
async fn nonzero_exit_uses_trimmed_stderr() {
    let t = tool("sh", &["-c", "echo '  no such order  ' >&2; exit 3"]);
    assert_eq!(
        run(&t, json!({}), OutputBounds::default())
            .await
            .unwrap_err(),
        "tool 't.x' failed: program 'sh' exited with status 3: no such order"
    );
    let t = tool("sh", &["-c", "exit 4"]);
    assert_eq!(
        run(&t, json!({}), OutputBounds::default())
            .await
            .unwrap_err(),
        "tool 't.x' failed: program 'sh' exited with status 4 and printed nothing on stderr"
    );
}

#[tokio::test]
async fn long_stderr_is_capped() {
    let t = tool(
        "sh",
        &["-c", "head -c 100000 /dev/zero | tr '\\0' x >&2; exit 1"],
    );
    let e = run(&t, json!({}), OutputBounds::default())
        .await
        .unwrap_err();
    assert!(
        e.starts_with("tool 't.x' failed: program 'sh' exited with status 1: …xxxx"),
        "{e}"
    );
    assert!(
        e.ends_with("xxx (stderr cut to its last 2048 bytes)"),
        "{e}"
    );
    assert!(e.len() < 2150);
}

/// A traceback: the tool and the exit status first, the end of stderr (the exception) kept.
#[tokio::test]
async fn a_traceback_keeps_its_last_line() {
    let script = "i=0; echo 'Traceback (most recent call last):' >&2; \
                  while [ $i -lt 200 ]; do echo '  File \"tool.py\", line 7, in <module>' >&2; i=$((i+1)); done; \
                  echo 'ValueError: boom' >&2; exit 1";
    let t = tool("sh", &["-c", script]);
    let e = run(&t, json!({}), OutputBounds::default())
        .await
        .unwrap_err();
    assert!(
        e.starts_with("tool 't.x' failed: program 'sh' exited with status 1: …"),
        "{e}"
    );
    assert!(
        e.ends_with("ValueError: boom (stderr cut to its last 2048 bytes)"),
        "{e}"
    );
}

#[tokio::test]
async fn invalid_json_output() {
    let t = tool("sh", &["-c", "echo 'not json'"]);
    let e = run(&t, json!({}), OutputBounds::default())
        .await
        .unwrap_err();
    assert!(e.starts_with("tool 't.x' printed invalid JSON: "), "{e}");
    let t = tool("sh", &["-c", "echo '1 2'"]);
    assert!(
        run(&t, json!({}), OutputBounds::default())
            .await
            .unwrap_err()
            .contains("printed invalid JSON")
    );
    let t = tool("true", &[]);
    assert!(
        run(&t, json!({}), OutputBounds::default())
            .await
            .unwrap_err()
            .contains("stdout was empty")
    );
}

#[tokio::test]
async fn ignores_unread_stdin() {
    let t = tool("sh", &["-c", "echo '[1]'"]);
    let big = json!({"s": "y".repeat(1 << 20)});
    assert_eq!(
        run(&t, big, OutputBounds::default()).await.unwrap(),
        json!([1])
    );
}

#[tokio::test]
async fn spawn_failure_names_program() {
    let t = tool("/nonexistent/prog", &[]);
    let e = run(&t, json!({}), OutputBounds::default())
        .await
        .unwrap_err();
    assert!(
        e.starts_with("tool 't.x' could not start program '/nonexistent/prog': "),
        "{e}"
    );
}

#[tokio::test]
async fn dropping_the_call_kills_the_process_group() {
    let marker = std::env::temp_dir().join(format!("codemode-group-{}", std::process::id()));
    let _ = std::fs::remove_file(&marker);
    // The shell starts a grandchild; it must die with the call instead of writing the marker.
    let script = format!("(sleep 1; touch '{}') & wait", marker.display());
    let t = tool("sh", &["-c", &script]);
    let r = tokio::time::timeout(
        std::time::Duration::from_millis(200),
        run(&t, json!({}), OutputBounds::default()),
    )
    .await;
    assert!(r.is_err());
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert!(!marker.exists(), "the grandchild survived the call");
}

#[tokio::test]
async fn dropping_the_call_kills_the_process() {
    let t = tool("sleep", &["30"]);
    let start = std::time::Instant::now();
    let r = tokio::time::timeout(
        std::time::Duration::from_millis(200),
        run(&t, json!({}), OutputBounds::default()),
    )
    .await;
    assert!(r.is_err());
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[tokio::test]
async fn too_much_stdout_fails_and_kills_the_process() {
    // Prints forever; the cap stops it.
    let t = tool(
        "sh",
        &["-c", "while :; do echo '[1,2,3,4,5,6,7,8,9]'; done"],
    );
    let e = run_bounded(&t, json!({}), 4096, OutputBounds::default())
        .await
        .unwrap_err();
    assert_eq!(
        e,
        "tool 't.x' printed more than 4096 bytes on stdout (its output limit); ask it for less data: filter or page its results (e.g. fewer items per call)"
    );
    let e = run_bounded(&t, json!({}), 1 << 20, OutputBounds::default())
        .await
        .unwrap_err();
    assert!(e.contains("printed more than 1 MiB on stdout"), "{e}");
}

/// `[1,1,...,1]` with `n` items.
fn ones(n: usize) -> Vec<u8> {
    let mut s = Vec::with_capacity(2 * n + 2);
    s.push(b'[');
    for i in 0..n {
        if i > 0 {
            s.push(b',');
        }
        s.push(b'1');
    }
    s.push(b']');
    s
}

/// The default bounds with `n` values allowed.
fn values(n: usize) -> OutputBounds {
    OutputBounds {
        max_values: n,
        ..OutputBounds::default()
    }
}

#[test]
fn the_value_budget_is_counted_while_parsing() {
    let never = AtomicBool::new(false);
    // 4 items + the array = 5 values.
    assert_eq!(
        parse_output_bounded("t.x", b"[1,2,3,4]", values(5), &never).unwrap(),
        json!([1, 2, 3, 4])
    );
    let e = parse_output_bounded("t.x", b"[1,2,3,4]", values(4), &never).unwrap_err();
    assert_eq!(
        e,
        "tool 't.x' printed more than 4 JSON values (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
    );
    // Objects: the object and each field's value count, keys do not.
    assert!(parse_output_bounded("t.x", br#"{"a":{"b":null}}"#, values(3), &never).is_ok());
    assert!(parse_output_bounded("t.x", br#"{"a":{"b":null}}"#, values(2), &never).is_err());
    // The default budget: 2,000,000 values.
    let e = parse_output("t.x", &ones(MAX_TOOL_OUTPUT_VALUES)).unwrap_err();
    assert_eq!(
        e,
        "tool 't.x' printed more than 2000000 JSON values (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
    );
    let v = parse_output("t.x", &ones(MAX_TOOL_OUTPUT_VALUES - 1)).unwrap();
    assert_eq!(v.as_array().unwrap().len(), MAX_TOOL_OUTPUT_VALUES - 1);
}

/// The default bounds with at most `n` bytes of tree.
fn bytes(n: usize) -> OutputBounds {
    OutputBounds {
        max_bytes: n,
        ..OutputBounds::default()
    }
}

#[test]
fn the_tree_is_charged_what_it_allocates() {
    assert_eq!(std::mem::size_of::<Value>(), 72);
    assert_eq!(
        (heap_cost(0), heap_cost(1), heap_cost(24), heap_cost(25)),
        (0, 32, 32, 48)
    );
    // indexmap's entries (104 bytes each) and hashbrown's index table.
    assert_eq!(map_cost(1), 112 + 64);
    assert_eq!(map_cost(5), heap_cost(520) + heap_cost(64 + 8 + 16));
    assert_eq!(map_cost(8), heap_cost(832) + heap_cost(128 + 16 + 16));
    let never = AtomicBool::new(false);
    let parse = |text: &[u8], max: usize| parse_output_bounded("t.x", text, bytes(max), &never);
    // Scalars and empty containers live in their parent's slot.
    assert_eq!(parse(b"[]", 0).unwrap(), json!([]));
    assert_eq!(parse(b"{}", 0).unwrap(), json!({}));
    assert!(parse(b"1", 0).is_ok());
    // A string: its malloc chunk.
    assert!(parse(br#""abc""#, 32).is_ok());
    assert_eq!(
        parse(br#""abc""#, 31).unwrap_err(),
        memory_message("t.x", bytes(31))
    );
    assert_eq!(
        memory_message("t.x", OutputBounds::default()),
        "tool 't.x' printed output that would take more than 256 MiB of memory once parsed (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
    );
    // An array: the buffer of 4 slots its first item takes (304 bytes), then the item.
    assert!(parse(br#"["ab"]"#, 304 + 32).is_ok());
    assert!(parse(br#"["ab"]"#, 304 + 31).is_err());
    // An object: its key, the 4 collected entries (400 bytes), then the map (176 bytes).
    assert!(parse(br#"{"a":1}"#, 32 + 400 + 176).is_ok());
    assert!(parse(br#"{"a":1}"#, 32 + 400 + 175).is_err());
    // What is freed is given back: 1,000 such objects need far less than 1,000 peaks.
    let many = format!("[{}]", vec![r#"{"a":1}"#; 1000].join(","));
    assert!(parse(many.as_bytes(), 1000 * 300).is_ok());
}

#[test]
fn a_lower_memory_limit_lowers_the_tree_bound() {
    assert_eq!(
        OutputBounds::for_memory_limit(None),
        OutputBounds::default()
    );
    assert_eq!(
        OutputBounds::for_memory_limit(Some(1 << 40)),
        OutputBounds::default()
    );
    let b = OutputBounds::for_memory_limit(Some(1000));
    assert_eq!((b.max_values, b.max_bytes), (MAX_TOOL_OUTPUT_VALUES, 1000));
    let big = format!(r#"["{}"]"#, "x".repeat(1000));
    let e = parse_output_bounded("t.x", big.as_bytes(), b, &AtomicBool::new(false));
    assert_eq!(
        e.unwrap_err(),
        "tool 't.x' printed output that would take more than 1000 bytes of memory once parsed (the execution's memory limit, max_memory_bytes); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
    );
}

/// 2·10^5 records of five string fields: about 21 MB of JSON, 1.2·10^6 values.
fn records() -> String {
    let mut s = String::from("[");
    for i in 0..200_000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":"r{i:07}","name":"Customer {i}","email":"user{i}@example.com","city":"Berlin","status":"active"}}"#
        ));
    }
    s.push(']');
    s
}

#[test]
fn real_data_fits_the_default_bounds() {
    let s = records();
    assert!((s.len() as u64) < DEFAULT_MAX_STDOUT_BYTES, "{}", s.len());
    let v = parse_output("t.x", s.as_bytes()).unwrap();
    let items = v.as_array().unwrap();
    assert_eq!(items.len(), 200_000);
    assert_eq!(items[199_999]["email"], json!("user199999@example.com"));
}

#[test]
fn nesting_is_bounded_with_a_clear_message() {
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(parse_output("t.x", deep(MAX_TOOL_OUTPUT_NESTING).as_bytes()).is_ok());
    let msg = "tool 't.x' printed JSON nested deeper than 127 levels (the limit for one tool output); tools must return flatter data";
    for n in [MAX_TOOL_OUTPUT_NESTING + 1, 100_000] {
        assert_eq!(parse_output("t.x", deep(n).as_bytes()).unwrap_err(), msg);
    }
    let obj = format!("{}1{}", r#"{"a":"#.repeat(100_000), "}".repeat(100_000));
    assert_eq!(parse_output("t.x", obj.as_bytes()).unwrap_err(), msg);
}

#[test]
fn a_raised_cancel_flag_stops_the_parse() {
    let cancel = AtomicBool::new(true);
    let e =
        parse_output_bounded("t.x", &ones(10_000), OutputBounds::default(), &cancel).unwrap_err();
    assert_eq!(e, "tool 't.x': parsing its output was cancelled");
}

#[test]
fn parse_keeps_json_semantics() {
    // Same results as serde_json's own Value for the odd cases.
    assert_eq!(
        parse_output("t.x", br#"{"a":1,"a":2}"#).unwrap(),
        json!({"a": 2})
    );
    assert_eq!(parse_output("t.x", b"  \n 1 \n").unwrap(), json!(1));
    assert_eq!(
        parse_output("t.x", b"123456789012345678901234567890").unwrap(),
        json!(1.2345678901234568e29)
    );
    assert_eq!(
        parse_output(
            "t.x",
            br#"[-5, 18446744073709551615, 1.5, true, null, "\u00e9"]"#
        )
        .unwrap(),
        json!([-5, 18446744073709551615u64, 1.5, true, null, "é"])
    );
    for bad in [
        &b"NaN"[..],
        b"1e99999",
        br#""\ud800""#,
        b"1 2",
        b"\xef\xbb\xbf1",
    ] {
        let e = parse_output("t.x", bad).unwrap_err();
        assert!(e.starts_with("tool 't.x' printed invalid JSON: "), "{e}");
    }
}

#[tokio::test]
async fn an_over_budget_output_from_a_process_fails_cleanly() {
    // 3·10^6 values in 6 MB: under the byte cap, over the value budget.
    let t = tool(
        "sh",
        &[
            "-c",
            "printf '['; yes '1,' | head -n 3000000 | tr -d '\\n'; printf '1]'",
        ],
    );
    let e = run(&t, json!({}), OutputBounds::default())
        .await
        .unwrap_err();
    assert_eq!(e, values_message("t.x", MAX_TOOL_OUTPUT_VALUES));
}

/// Whether process `pid` is gone (or a zombie waiting for its reaper).
fn gone(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[tokio::test]
async fn a_background_child_holding_stdout_does_not_hold_the_call() {
    let pidfile = std::env::temp_dir().join(format!("codemode-bg-{}", std::process::id()));
    let _ = std::fs::remove_file(&pidfile);
    let script = format!(
        "sleep 60 & echo $! > '{}'; echo '{{\"ok\": 1}}'",
        pidfile.display()
    );
    let t = tool("sh", &["-c", &script]);
    let start = std::time::Instant::now();
    let v = run(&t, json!({}), OutputBounds::default()).await.unwrap();
    let took = start.elapsed();
    assert_eq!(v, json!({"ok": 1}));
    assert!(took < std::time::Duration::from_secs(2), "{took:?}");
    assert!(took >= STDOUT_GRACE, "{took:?}");
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    let _ = std::fs::remove_file(&pidfile);
    let pid = pid.trim();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert!(gone(pid), "the background sleep {pid} survived the call");

    // A failing tool with a background child: the stderr read so far is the message.
    let t = tool("sh", &["-c", "sleep 60 & echo 'no such order' >&2; exit 3"]);
    let start = std::time::Instant::now();
    assert_eq!(
        run(&t, json!({}), OutputBounds::default())
            .await
            .unwrap_err(),
        "tool 't.x' failed: program 'sh' exited with status 3: no such order"
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(2));
}

#[tokio::test]
async fn a_child_that_left_the_process_group_is_not_waited_for() {
    // `setsid` takes the child out of the tool's group, so the kill cannot reach it; the call
    // still returns after the two grace periods with what was read.
    if crate::manifest::find_on_path("setsid").is_none() {
        return;
    }
    let pidfile = std::env::temp_dir().join(format!("codemode-setsid-{}", std::process::id()));
    let script = format!(
        "setsid sleep 30 & echo $! > '{}'; echo '[1]'",
        pidfile.display()
    );
    let t = tool("sh", &["-c", &script]);
    let start = std::time::Instant::now();
    let v = run(&t, json!({}), OutputBounds::default()).await;
    let took = start.elapsed();
    if let Ok(pid) = std::fs::read_to_string(&pidfile) {
        let _ = std::process::Command::new("kill")
            .args(["-9", pid.trim()])
            .status();
    }
    let _ = std::fs::remove_file(&pidfile);
    assert_eq!(v.unwrap(), json!([1]));
    assert!(took < std::time::Duration::from_secs(2), "{took:?}");
}

#[tokio::test]
async fn a_killed_tool_names_the_signal() {
    let t = tool("sh", &["-c", "kill -9 $$"]);
    assert_eq!(
        run(&t, json!({}), OutputBounds::default())
            .await
            .unwrap_err(),
        "tool 't.x' failed: program 'sh' was killed by signal 9 (SIGKILL, e.g. out of memory) and printed nothing on stderr"
    );
}

#[tokio::test]
async fn the_tool_path_is_in_the_environment() {
    let t = tool("sh", &["-c", "printf '\"%s\"' \"$CODEMODE_TOOL\""]);
    assert_eq!(
        run(&t, json!({}), OutputBounds::default()).await.unwrap(),
        json!("t.x")
    );
}

/// Peak resident set of this process (`VmHWM`), in bytes.
fn vm_hwm() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("a VmHWM line");
    kib * 1024
}

/// The child side of [`a_command_output_stays_within_its_memory_bound`]: runs `cat` on the
/// file in `CODEMODE_RSS_CHILD` as a command tool and prints the outcome and `VmHWM`.
#[test]
fn rss_child() {
    let Ok(file) = std::env::var("CODEMODE_RSS_CHILD") else {
        return;
    };
    let t = tool("cat", &[&file]);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let outcome = match rt.block_on(run(&t, json!({}), OutputBounds::default())) {
        Ok(Value::Array(items)) => format!("array of {}", items.len()),
        Ok(Value::String(s)) => format!("string of {}", s.len()),
        Ok(v) => format!("other {}", v.to_string().len()),
        Err(e) => e,
    };
    println!("OUTCOME {outcome}");
    println!("VMHWM {}", vm_hwm());
}

/// Runs `output` through a command tool in a child process: (outcome, peak resident bytes).
fn measure_child(name: &str, output: &[u8]) -> (String, u64) {
    let file =
        std::env::temp_dir().join(format!("codemode-rss-{}-{name}.json", std::process::id()));
    std::fs::write(&file, output).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "command::tests::rss_child",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env("CODEMODE_RSS_CHILD", &file)
        .output()
        .expect("child process");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "child failed: {stdout}");
    let field = |tag: &str| {
        stdout
            .lines()
            .find_map(|l| l.split_once(tag).map(|(_, v)| v))
            .unwrap_or_else(|| panic!("no {tag} in {stdout}"))
            .to_string()
    };
    (field("OUTCOME "), field("VMHWM ").parse().unwrap())
}

/// `[item,item,...]` of at most `bytes` bytes.
fn repeated(item: &str, bytes: usize) -> Vec<u8> {
    let n = bytes / (item.len() + 1);
    let mut s = Vec::with_capacity(n * (item.len() + 1) + 1);
    s.push(b'[');
    for i in 0..n {
        if i > 0 {
            s.push(b',');
        }
        s.extend_from_slice(item.as_bytes());
    }
    s.push(b']');
    s
}

#[test]
fn a_command_output_stays_within_its_memory_bound() {
    // Hostile shapes just under the default stdout cap; each either parses or fails with a
    // bound's message, and the child's peak stays within stdout + MAX_TOOL_OUTPUT_MEMORY.
    let size = DEFAULT_MAX_STDOUT_BYTES as usize - 1024 * 1024;
    let deep = format!("{}1{}", "[".repeat(126), "]".repeat(126));
    let string = format!("\"{}\"", "x".repeat(10_000_000));
    let shapes: Vec<(&str, Vec<u8>)> = vec![
        ("tiny-objects", repeated(r#"{"a":1}"#, size)),
        ("nested-objects", repeated(r#"{"a":[{"b":1}]}"#, size)),
        ("one-item-arrays", repeated("[1]", size)),
        ("short-strings", repeated(r#""ab""#, size)),
        ("deep-nesting", repeated(&deep, size)),
        ("records", records().into_bytes()),
        ("string", string.into_bytes()),
    ];
    let (outcome, baseline) = measure_child("baseline", b"[1]");
    assert_eq!(outcome, "array of 1");
    let bound = MAX_TOOL_OUTPUT_MEMORY as u64;
    let mut report = Vec::new();
    for (name, output) in &shapes {
        let (outcome, hwm) = measure_child(name, output);
        let over = hwm.saturating_sub(baseline);
        let allowed = output.len() as u64 + bound;
        report.push(format!(
            "{name}: {} MiB over the baseline (allowed {} MiB): {outcome}",
            over >> 20,
            allowed >> 20
        ));
        match *name {
            "records" => assert_eq!(outcome, "array of 200000"),
            "string" => assert_eq!(outcome, "string of 10000000"),
            _ => assert!(
                outcome.starts_with("array of")
                    || outcome == values_message("t.x", MAX_TOOL_OUTPUT_VALUES)
                    || outcome == memory_message("t.x", OutputBounds::default()),
                "{name}: {outcome}"
            ),
        }
        assert!(over <= allowed, "{}", report.join("\n"));
    }
    eprintln!("{}", report.join("\n"));
}

#[test]
fn cap_message_respects_char_boundaries() {
    let s = "é".repeat(10); // 20 bytes
    assert_eq!(
        cap_message(&s, 5),
        format!("…{} (stderr cut to its last 5 bytes)", "é".repeat(2))
    );
    assert_eq!(cap_message("abc", 5), "abc");
}
