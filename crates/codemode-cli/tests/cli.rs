//! End-to-end tests of the `codemode` binary: exit codes, stdin input, manifests, command tools,
//! timeouts, path resolution, and the git-insights example run on this repository.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_codemode");

/// Output of one run of the binary.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// The one JSON line on stdout.
    fn json(&self) -> Value {
        let lines: Vec<&str> = self.stdout.lines().collect();
        assert_eq!(
            lines.len(),
            1,
            "stdout must be one line, got {:?}",
            self.stdout
        );
        serde_json::from_str(lines[0])
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.stdout))
    }
}

fn run_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    // The process may exit before reading stdin (usage errors): ignore a broken pipe.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(args: &[&str], stdin: &str) -> Run {
    run_in(&std::env::temp_dir(), args, stdin)
}

/// A fresh scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    // Under the target dir's tmp/ (cargo's CARGO_TARGET_TMPDIR), not the system's /tmp: a
    // run's scratch directories go away with the build.
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "codemode-cli-test-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(path: &Path, text: &str) {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).unwrap();
    }
    std::fs::write(path, text).unwrap();
}

/// Writes an executable shell script.
fn script(path: &Path, body: &str) {
    write(path, &format!("#!/bin/sh\n{body}\n"));
    let mut perms = std::fs::metadata(path).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(path, perms).unwrap();
}

/// A manifest with one tool `t.x` running `command`.
fn manifest_with(dir: &Path, command: Value) -> PathBuf {
    let m = dir.join("tools.json");
    let doc = json!({
        "namespaces": {"t": {"description": "test tools"}},
        "tools": {"t.x": {"description": "a test tool", "input": {"type": "object"}, "command": command}}
    });
    write(&m, &doc.to_string());
    m
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

// ---------------------------------------------------------------- exit codes and input

#[test]
fn ok_result_exits_0_from_stdin() {
    let r = run(&["run"], "return 1 + 2");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["ok"], json!(true));
    assert_eq!(v["value"], json!(3));
    assert_eq!(v["toolCalls"], json!([]));
}

#[test]
fn dash_reads_stdin_and_logs_are_reported() {
    let r = run(&["run", "-"], "print('hi', 2)\nreturn {a = 'x'}");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["value"], json!({"a": "x"}));
    assert_eq!(v["logs"], json!(["hi\t2"]));
}

#[test]
fn program_file_is_read() {
    let d = scratch("file");
    write(
        &d.join("p.lua"),
        "local t = {}\nfor i = 1, 3 do t[i] = i * i end\nreturn t\n",
    );
    let r = run(&["run", d.join("p.lua").to_str().unwrap()], "");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.json()["value"], json!([1, 4, 9]));
}

#[test]
fn failed_result_exits_1() {
    let r = run(&["run"], "error('boom')");
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["ok"], json!(false));
    assert_eq!(v["error"]["kind"], json!("ExecutionFailure"));
    assert!(
        v["error"]["message"].as_str().unwrap().contains("boom"),
        "{v}"
    );
}

#[test]
fn parse_error_exits_1_with_location() {
    let r = run(&["run"], "local x = = 1");
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["error"]["kind"], json!("ParseError"));
    assert_eq!(v["error"]["location"]["line"], json!(1));
}

#[test]
fn usage_errors_exit_2() {
    let r = run(&["run", "--no-such-flag"], "");
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert_eq!(
        r.stderr,
        "codemode: unexpected argument '--no-such-flag' found; tip: to pass '--no-such-flag' as \
         a value, use '-- --no-such-flag'; see 'codemode run --help'\n"
    );

    let r = run(&["run", "/nonexistent/prog.lua"], "");
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    assert!(
        r.stderr
            .starts_with("codemode: cannot read program file /nonexistent/prog.lua: "),
        "{}",
        r.stderr
    );

    let r = run(&["run", "--timeout-ms", "abc"], "return 1");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "codemode: invalid value 'abc' for '--timeout-ms <N>': invalid digit found in string; \
         see 'codemode run --help'\n"
    );

    let r = run(&["bogus"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr,
        "codemode: unrecognized subcommand 'bogus'; see 'codemode --help'\n"
    );

    let r = run(&["--version"], "");
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("codemode "), "{}", r.stdout);

    let d = scratch("latin1");
    std::fs::write(d.join("p.lua"), b"return '\xe9t\xe9'").unwrap();
    let r = run(&["run", d.join("p.lua").to_str().unwrap()], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("is not valid UTF-8"), "{}", r.stderr);
}

#[test]
fn invalid_limit_is_a_configuration_error() {
    let r = run(&["run", "--timeout-ms", "0"], "return 1");
    assert_eq!(r.code, 2, "stdout: {}", r.stdout);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.starts_with("codemode: "), "{}", r.stderr);
    assert!(r.stderr.contains("timeout"), "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
}

#[test]
fn javascript_runs_from_files_and_lang() {
    let d = scratch("js");
    write(
        &d.join("p.js"),
        "const xs = [3, 1, 2].sort();\nconsole.log('n', xs.length);\nreturn xs;",
    );
    let r = run(&["run", d.join("p.js").to_str().unwrap()], "");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.json()["value"], json!([1, 2, 3]));
    assert_eq!(r.json()["logs"], json!(["n 3"]));

    write(&d.join("p.ts"), "const n: number = 2;\nn * 21");
    let r = run(&["run", d.join("p.ts").to_str().unwrap()], "");
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.json()["value"], json!(42));

    let r = run(&["run", "--lang", "js"], "throw new RangeError('far')");
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    assert_eq!(r.json()["error"]["message"], json!("RangeError: far"));
    assert_eq!(r.json()["error"]["location"]["line"], json!(1));

    // fs (`--allow-read`) is a synchronous extension in JavaScript: the value, or a throw.
    write(&d.join("note.txt"), "hello");
    let r = run(
        &["run", "--lang", "js", "--allow-read", d.to_str().unwrap()],
        "const t = fs.read('note.txt');
let e;
try { fs.read('../x'); } catch (err) { e = err.name; }
return [t, e];",
    );
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.json()["value"], json!(["hello", "ToolError"]));

    // An explicit --lang lua wins over the extension.
    write(&d.join("q.js"), "return 1;");
    let r = run(
        &["run", "--lang", "lua", d.join("q.js").to_str().unwrap()],
        "",
    );
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    assert_eq!(r.json()["value"], json!(1));
}

/// `--now` fixes the clock and `--seed` the random numbers of JavaScript programs, the same
/// with `--mcp-config` (a gateway with no servers); a bad value is a usage error that says
/// what to write.
#[test]
fn now_and_seed_make_javascript_runs_reproducible() {
    let prog = "return [Date.now(), new Date().toISOString(), Math.random(), crypto.randomUUID()];";
    let d = scratch("now-seed");
    write(
        &d.join("mcp.json"),
        r#"{"mcpServers": {}, "codemode": {"language": "js"}}"#,
    );
    let config = d.join("mcp.json");
    let plain = [
        "run",
        "--lang",
        "js",
        "--now",
        "2026-01-02T03:04:05Z",
        "--seed",
        "7",
    ];
    let mut gateway = plain.to_vec();
    gateway.extend(["--mcp-config", config.to_str().unwrap()]);
    let mut values = Vec::new();
    for args in [&plain[..], &plain[..], &gateway[..]] {
        let r = run(args, prog);
        assert_eq!(r.code, 0, "{args:?}: {} {}", r.stdout, r.stderr);
        values.push(r.json()["value"].clone());
    }
    let v = &values[0];
    assert_eq!(v[0], json!(1_767_323_045_000i64), "{v}");
    assert_eq!(v[1], json!("2026-01-02T03:04:05.000Z"));
    let x = v[2].as_f64().unwrap();
    assert!((0.0..1.0).contains(&x), "{v}");
    assert_eq!(v[3].as_str().unwrap().len(), 36, "{v}");
    assert_eq!(values[1], values[0], "the same seed gives the same numbers");
    assert_eq!(
        values[2], values[0],
        "--mcp-config runs read the same clock and seed"
    );
    // Milliseconds work too, negative included; another seed gives other numbers.
    let r = run(
        &["run", "--lang", "js", "--now", "-1000", "--seed", "8"],
        prog,
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.json()["value"][0], json!(-1000));
    assert_ne!(r.json()["value"][2], values[0][2]);
    // Without --seed two runs differ.
    let a = run(&["run", "--lang", "js"], "return Math.random()").json()["value"].clone();
    let b = run(&["run", "--lang", "js"], "return Math.random()").json()["value"].clone();
    assert_ne!(a, b);
    let r = run(&["run", "--lang", "js", "--now", "next tuesday"], prog);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains(
            "--now next tuesday: not a date-time; write one such as 2026-01-01T00:00:00Z"
        ),
        "{}",
        r.stderr
    );
    let r = run(&["run", "--lang", "js", "--seed", "-1"], prog);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("not a seed; write a whole number from 0 to 18446744073709551615"),
        "{}",
        r.stderr
    );
}

#[test]
fn help_exits_0() {
    let r = run(&["run", "--help"], "");
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("--tools <MANIFEST>"), "{}", r.stdout);
    assert!(r.stdout.contains("--max-tool-calls"), "{}", r.stdout);
}

// ---------------------------------------------------------------- manifest errors

/// Runs `return 1` with a manifest holding `doc` and returns the stderr line (exit 2 asserted).
fn manifest_error(name: &str, doc: &str) -> String {
    let d = scratch(name);
    let m = d.join("tools.json");
    write(&m, doc);
    let r = run(&["run", "--tools", m.to_str().unwrap()], "return 1");
    assert_eq!(r.code, 2, "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert!(r.stdout.is_empty());
    let line = r.stderr.trim_end().to_string();
    assert_eq!(line.lines().count(), 1, "one line expected: {line}");
    let prefix = format!("codemode: manifest {}: ", m.display());
    assert!(line.starts_with(&prefix), "{line}");
    line[prefix.len()..].to_string()
}

#[test]
fn manifest_missing_file() {
    let r = run(&["run", "--tools", "/nonexistent/tools.json"], "return 1");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("codemode: manifest /nonexistent/tools.json: cannot read file: "),
        "{}",
        r.stderr
    );
}

#[test]
fn manifest_invalid_json() {
    let e = manifest_error("badjson", "{\"tools\": {,}}");
    assert!(e.starts_with("invalid JSON: "), "{e}");
    assert!(e.contains("line 1 column"), "{e}");
}

#[test]
fn manifest_missing_fields() {
    let e = manifest_error(
        "nocmd",
        r#"{"tools":{"git.log":{"description":"d","input":{"type":"object"}}}}"#,
    );
    assert_eq!(e, "tool \"git.log\": missing field \"command\"");
    let e = manifest_error(
        "noinput",
        r#"{"tools":{"a":{"description":"d","command":["sh"]}}}"#,
    );
    assert!(e.starts_with("tool \"a\": missing field \"input\""), "{e}");
    let e = manifest_error("notools", r#"{"namespaces":{}}"#);
    assert!(e.starts_with("missing field \"tools\""), "{e}");
}

#[test]
fn manifest_unknown_fields() {
    let e = manifest_error(
        "unknown",
        r#"{"tools":{"a":{"description":"d","input":{},"command":["sh"],"timeout":5}}}"#,
    );
    assert!(
        e.starts_with("tool \"a\": unknown field \"timeout\""),
        "{e}"
    );
    let e = manifest_error("unknowntop", r#"{"tools":{},"extra":1}"#);
    assert!(e.contains("unknown field \"extra\""), "{e}");
}

#[test]
fn manifest_bad_schema() {
    let e = manifest_error(
        "schema-type",
        r#"{"tools":{"a":{"description":"d","input":"object","command":["sh"]}}}"#,
    );
    assert!(
        e.starts_with("tool \"a\": field \"input\" must be a JSON Schema object"),
        "{e}"
    );
    let e = manifest_error(
        "schema-invalid",
        r#"{"tools":{"a":{"description":"d","input":{"type":"strin"},"command":["sh"]}}}"#,
    );
    assert!(
        e.starts_with("tool \"a\": field \"input\" is not a valid JSON Schema"),
        "{e}"
    );
}

#[test]
fn manifest_duplicate_paths() {
    let e = manifest_error(
        "dup",
        r#"{"tools":{"a.b":{"description":"d","input":{},"command":["sh"]},"a.b":{"description":"d","input":{},"command":["sh"]}}}"#,
    );
    assert!(e.contains("\"a.b\" is defined twice"), "{e}");

    let d = scratch("dup2");
    let one = d.join("one.json");
    let two = d.join("two.json");
    let doc = r#"{"tools":{"a.b":{"description":"d","input":{},"command":["sh"]}}}"#;
    write(&one, doc);
    write(&two, doc);
    let r = run(
        &[
            "run",
            "--tools",
            one.to_str().unwrap(),
            "--tools",
            two.to_str().unwrap(),
        ],
        "return 1",
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim_end(),
        format!(
            "codemode: manifest {}: tool \"a.b\" is already defined in manifest {}; each tool path may be defined once",
            two.display(),
            one.display()
        )
    );
}

#[test]
fn manifest_empty_command_and_segments() {
    let e = manifest_error(
        "emptycmd",
        r#"{"tools":{"a":{"description":"d","input":{},"command":[]}}}"#,
    );
    assert!(
        e.starts_with("tool \"a\": field \"command\" is empty"),
        "{e}"
    );
    let e = manifest_error(
        "emptyseg",
        r#"{"tools":{"a.":{"description":"d","input":{},"command":["sh"]}}}"#,
    );
    assert!(
        e.starts_with("tool \"a.\": the path has an empty segment"),
        "{e}"
    );
}

#[test]
fn manifest_missing_program() {
    let e = manifest_error(
        "noprog",
        r#"{"tools":{"a":{"description":"d","input":{},"command":["./bin/missing.sh"]}}}"#,
    );
    assert!(
        e.starts_with("tool \"a\": program \"./bin/missing.sh\" not found"),
        "{e}"
    );
    let e = manifest_error(
        "noprog-path",
        r#"{"tools":{"a":{"description":"d","input":{},"command":["definitely-not-a-program-xyz"]}}}"#,
    );
    assert!(e.contains("was not found on PATH"), "{e}");
}

// ---------------------------------------------------------------- command tools

#[test]
fn command_tool_success() {
    let d = scratch("echo");
    script(&d.join("echo.sh"), "cat");
    let m = manifest_with(&d, json!(["./echo.sh"]));
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "local r = tools.t.x({ id = 'o1', n = 2 })\nreturn { id = r.id, n = r.n + 1 }",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    let v = r.json();
    assert_eq!(v["value"], json!({"id": "o1", "n": 3}));
    assert_eq!(v["toolCalls"][0]["name"], json!("t.x"));
    assert_eq!(v["toolCalls"][0]["input"], json!({"id": "o1", "n": 2}));
    assert_eq!(v["toolCalls"][0]["status"], json!("success"));
}

#[test]
fn command_tool_failure_message_is_stderr() {
    let d = scratch("fail");
    script(
        &d.join("fail.sh"),
        "echo '  order o9 does not exist; list orders first  ' >&2\nexit 3",
    );
    let m = manifest_with(&d, json!(["./fail.sh"]));
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "return tools.t.x({})",
    );
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["error"]["kind"], json!("ToolFailure"));
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("order o9 does not exist; list orders first"),
        "{v}"
    );
    assert_eq!(v["toolCalls"][0]["status"], json!("failure"));

    // pcall sees the same message.
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "local ok, msg = pcall(tools.t.x, {})\nreturn { ok = ok, msg = msg }",
    );
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["value"]["ok"], json!(false));
    assert!(
        v["value"]["msg"]
            .as_str()
            .unwrap()
            .contains("order o9 does not exist; list orders first"),
        "{v}"
    );
}

#[test]
fn command_tool_invalid_json_output() {
    let d = scratch("badout");
    script(&d.join("bad.sh"), "echo 'this is not json'");
    let m = manifest_with(&d, json!(["./bad.sh"]));
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "return tools.t.x({})",
    );
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["error"]["kind"], json!("ToolFailure"));
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("tool 't.x' printed invalid JSON"),
        "{v}"
    );
}

#[test]
fn command_tool_input_is_validated_against_schema() {
    let d = scratch("schema");
    script(&d.join("echo.sh"), "cat");
    let m = d.join("tools.json");
    let doc = json!({"tools": {"t.x": {
        "description": "d",
        "input": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
        "command": ["./echo.sh"]
    }}});
    write(&m, &doc.to_string());
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "return tools.t.x({ id = 5 })",
    );
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    assert_eq!(r.json()["error"]["kind"], json!("InvalidToolInput"));
}

#[test]
fn timeout_kills_a_hanging_command_tool() {
    let d = scratch("hang");
    script(&d.join("hang.sh"), "sleep 30");
    let m = manifest_with(&d, json!(["./hang.sh"]));
    let start = Instant::now();
    let r = run(
        &["run", "--timeout-ms", "500", "--tools", m.to_str().unwrap()],
        "print('before')\nreturn tools.t.x({})",
    );
    let took = start.elapsed();
    assert!(took < Duration::from_secs(10), "took {took:?}");
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["error"]["kind"], json!("TimeoutExceeded"));
    assert_eq!(v["logs"], json!(["before"]));
    assert_eq!(v["toolCalls"][0]["status"], json!("interrupted"));
}

#[test]
fn max_tool_calls_is_enforced() {
    let d = scratch("calls");
    script(&d.join("echo.sh"), "cat");
    let m = manifest_with(&d, json!(["./echo.sh"]));
    let r = run(
        &[
            "run",
            "--max-tool-calls",
            "2",
            "--tools",
            m.to_str().unwrap(),
        ],
        "for i = 1, 3 do tools.t.x({ i = i }) end\nreturn 'done'",
    );
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["error"]["kind"], json!("ToolCallLimitExceeded"));
}

#[test]
fn max_output_bytes_truncates_without_failing() {
    let r = run(
        &["run", "--max-output-bytes", "100"],
        "return string.rep('x', 1000)",
    );
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["truncated"], json!(true));
    assert!(v["value"].as_str().unwrap().len() < 1000, "{v}");
    assert_eq!(
        v["warnings"],
        json!([{"kind": "Truncated", "message": "Output was cut by the 100-byte output limit \
            (max_output_bytes): the value (1002 bytes of JSON, now a cut string). To get everything \
            back, return only the fields and items you need."}])
    );
}

#[test]
fn relative_paths_resolve_against_the_manifest_directory() {
    // The program path has a '/', so it resolves against the manifest directory; the argument
    // `data/answer.json` is read relative to the command's working directory, which is also the
    // manifest directory. The binary itself runs from an unrelated directory.
    let d = scratch("relative");
    let sub = d.join("conf");
    script(&sub.join("bin/answer.sh"), "cat \"$1\"");
    write(
        &sub.join("data/answer.json"),
        r#"{"answer": 42, "from": "data"}"#,
    );
    let m = sub.join("tools.json");
    let doc = json!({"tools": {"t.answer": {
        "description": "d", "input": {"type": "object"},
        "command": ["bin/answer.sh", "data/answer.json"]
    }}});
    write(&m, &doc.to_string());
    let elsewhere = scratch("elsewhere");
    // A relative manifest path given on the command line is relative to the current directory.
    let rel_manifest = format!(
        "../{}/conf/tools.json",
        d.file_name().unwrap().to_str().unwrap()
    );
    let r = run_in(
        &elsewhere,
        &["run", "--tools", &rel_manifest],
        "return tools.t.answer({})",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert_eq!(r.json()["value"], json!({"answer": 42, "from": "data"}));
}

#[test]
fn bare_program_names_are_found_on_path() {
    let d = scratch("bare");
    let m = manifest_with(&d, json!(["sh", "-c", "cat; printf ''"]));
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "return tools.t.x({ k = json.null, l = { json.null } })",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    // The tool saw `{"k":null,"l":[null]}`; its echo arrives with the null field left out.
    assert_eq!(r.json()["value"], json!({"l": [null]}));
}

// ---------------------------------------------------------------- the shipped example

#[test]
fn example_churn_on_this_repository() {
    let root = repo_root();
    let r = run_in(
        &root,
        &[
            "run",
            "--tools",
            "examples/git-insights/tools.json",
            "examples/git-insights/churn.lua",
        ],
        "",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    let v = r.json();
    let items = v["value"].as_array().expect("a list");
    assert!(!items.is_empty(), "{v}");
    assert!(items.len() <= 20);
    let mut prev = i64::MAX;
    for item in items {
        let file = item["file"].as_str().expect("file");
        assert!(!file.is_empty(), "{v}");
        let changes = item["changes"].as_i64().expect("changes");
        assert!((1..=50).contains(&changes));
        assert!(changes <= prev, "sorted by changes, descending: {v}");
        prev = changes;
        let authors = item["authors"].as_array().expect("authors");
        assert!(!authors.is_empty());
        assert!(authors.iter().all(|a| a.is_string()));
    }
    assert_eq!(v["toolCalls"].as_array().unwrap().len(), 1);
    assert_eq!(v["toolCalls"][0]["name"], json!("git.log"));
    assert_eq!(v["toolCalls"][0]["input"], json!({"limit": 50}));
    let log = v["logs"][0].as_str().unwrap();
    assert!(
        log.contains("commits,") && log.contains("distinct files changed"),
        "{log}"
    );

    // The most changed file really is the most changed one according to git itself.
    let out = Command::new("git")
        .args([
            "-C",
            root.to_str().unwrap(),
            "-c",
            "core.quotePath=false",
            "log",
            "-n50",
            "--name-only",
            "--format=",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let top = items[0]["file"].as_str().unwrap();
    let count = text.lines().filter(|l| *l == top).count() as i64;
    assert_eq!(count, items[0]["changes"].as_i64().unwrap());
    let max = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|f| text.lines().filter(|l| *l == f).count())
        .max()
        .unwrap() as i64;
    assert_eq!(count, max);
}

#[test]
fn example_authors_on_this_repository() {
    let root = repo_root();
    let r = run_in(
        &root,
        &[
            "run",
            "--tools",
            "examples/git-insights/tools.json",
            "examples/git-insights/authors.lua",
        ],
        "",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    let v = r.json();
    let items = v["value"].as_array().expect("a list");
    assert!(!items.is_empty(), "{v}");
    let mut total_commits = 0;
    for item in items {
        assert!(item["author"].is_string());
        total_commits += item["commits"].as_i64().unwrap();
        assert!(item["added"].as_i64().unwrap() >= 0);
        assert!(item["deleted"].as_i64().unwrap() >= 0);
        assert!(!item["areas"].as_array().unwrap().is_empty());
    }
    let calls = v["toolCalls"].as_array().unwrap();
    assert_eq!(calls[0]["name"], json!("git.log"));
    assert_eq!(calls.len() as i64, 1 + total_commits);
    assert!(calls.iter().all(|c| c["status"] == json!("success")));
}

/// The JavaScript twin makes every `git.show` call at once and must give the Lua program's
/// answer, with the same calls recorded.
#[test]
fn example_authors_in_javascript_matches_lua() {
    let root = repo_root();
    let run_example = |file: &str| {
        let r = run_in(
            &root,
            &["run", "--tools", "examples/git-insights/tools.json", file],
            "",
        );
        assert_eq!(
            r.code, 0,
            "{file}: stdout: {} stderr: {}",
            r.stdout, r.stderr
        );
        r.json()
    };
    let lua = run_example("examples/git-insights/authors.lua");
    let js = run_example("examples/git-insights/authors.js");
    assert_eq!(js["value"], lua["value"]);
    let names = |v: &serde_json::Value| -> Vec<(String, String)> {
        v["toolCalls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (c["name"].to_string(), c["input"].to_string()))
            .collect()
    };
    assert_eq!(names(&js), names(&lua));
    assert!(
        js["toolCalls"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["status"] == json!("success"))
    );
}

/// `churn.js`, the JavaScript twin of the README's example, gives `churn.lua`'s answer (the
/// same value, log line and tool call) on this repository. Another commit landing between the
/// two runs would change the answer, so both are run again when HEAD moved meanwhile.
#[test]
fn example_churn_in_javascript_matches_lua() {
    let root = repo_root();
    let head = || {
        let out = Command::new("git")
            .args(["-C", root.to_str().unwrap(), "rev-parse", "HEAD"])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let run_example = |file: &str| {
        let r = run_in(
            &root,
            &["run", "--tools", "examples/git-insights/tools.json", file],
            "",
        );
        assert_eq!(
            r.code, 0,
            "{file}: stdout: {} stderr: {}",
            r.stdout, r.stderr
        );
        r.json()
    };
    let mut attempts = 0;
    let (lua, js) = loop {
        let before = head();
        let lua = run_example("examples/git-insights/churn.lua");
        let js = run_example("examples/git-insights/churn.js");
        attempts += 1;
        if head() == before || attempts == 5 {
            break (lua, js);
        }
    };
    let items = js["value"].as_array().expect("a list");
    assert!(!items.is_empty() && items.len() <= 20, "{js}");
    assert_eq!(js["value"], lua["value"]);
    assert_eq!(js["logs"], lua["logs"]);
    assert_eq!(js["toolCalls"], lua["toolCalls"]);
    assert_eq!(
        js["toolCalls"],
        json!([{"name": "git.log", "input": {"limit": 50}, "status": "success"}])
    );
    // The keys in the order the program wrote them.
    let first = items[0].as_object().unwrap();
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        ["file", "changes", "authors"]
    );
}

#[test]
fn example_tools_refuse_paths_outside_the_repository() {
    let root = repo_root();
    let r = run_in(
        &root,
        &["run", "--tools", "examples/git-insights/tools.json"],
        "local ok, msg = pcall(tools.fs.read, { path = '../outside.txt' })\n\
         local list = tools.fs.list({ path = 'examples' })\n\
         local readme = tools.fs.read({ path = 'examples/git-insights/churn.lua', max_bytes = 20 })\n\
         return { ok = ok, msg = msg, n = #list.entries, head = readme.text, cut = readme.truncated }",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    let v = r.json()["value"].clone();
    assert_eq!(v["ok"], json!(false));
    assert!(
        v["msg"]
            .as_str()
            .unwrap()
            .contains("outside the repository"),
        "{v}"
    );
    assert!(v["n"].as_i64().unwrap() >= 1);
    assert_eq!(v["head"], json!("-- Which files chang"));
    assert_eq!(v["cut"], json!(true));
}

#[test]
fn example_crates_on_this_repository() {
    let root = repo_root();
    let r = run_in(
        &root,
        &[
            "run",
            "--tools",
            "examples/git-insights/tools.json",
            "examples/git-insights/crates.lua",
        ],
        "",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    let v = r.json();
    let items = v["value"].as_array().expect("a list");
    let names: Vec<&str> = items.iter().map(|i| i["crate"].as_str().unwrap()).collect();
    for expected in ["codemode", "codemode-lua", "codemode-cli"] {
        assert!(names.contains(&expected), "{names:?}");
    }
    let mut prev = i64::MAX;
    for item in items {
        let bytes = item["bytes"].as_i64().unwrap();
        assert!(bytes <= prev, "sorted by bytes, descending: {v}");
        prev = bytes;
        assert!(item["files"].as_i64().unwrap() >= 1);
        let largest = item["largest"]["path"].as_str().unwrap();
        assert!(largest.ends_with(".rs"), "{largest}");
        // Other files may be edited while the test runs, so only check the file exists.
        assert!(root.join(largest).is_file(), "{largest}");
        assert!(item["largest"]["bytes"].as_i64().unwrap() > 0);
    }
}

/// Sends `signal` (`kill -<signal>`) to a run waiting on a hanging tool: the run ends with the
/// Result so far (cancelled, the call `interrupted`) and the tool's process is gone.
fn a_signal_cancels_the_run(signal: &str) {
    let d = scratch(&format!("signal-{signal}"));
    let started = d.join("started");
    script(
        &d.join("hang.sh"),
        &format!(
            "echo $$ > '{}.tmp'; mv '{0}.tmp' '{0}'\nexec sleep 30",
            started.display()
        ),
    );
    let m = manifest_with(&d, json!(["./hang.sh"]));
    let mut child = Command::new(BIN)
        .args(["run", "--tools", m.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"print('waiting')\nreturn tools.t.x({})")
        .unwrap();
    let start = Instant::now();
    while !started.exists() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the tool never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let tool_pid = std::fs::read_to_string(&started)
        .unwrap()
        .trim()
        .to_string();
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(20));
    assert_eq!(out.status.code(), Some(1), "{signal}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], json!(false));
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cancelled"),
        "{v}"
    );
    assert_eq!(v["logs"], json!(["waiting"]));
    assert_eq!(v["toolCalls"][0]["status"], json!("interrupted"));
    // The tool's process was killed (it may take a moment to be reaped).
    let gone = (0..100).any(|_| {
        let alive = Command::new("kill")
            .args(["-0", &tool_pid])
            .stderr(Stdio::null())
            .status()
            .unwrap()
            .success();
        if alive {
            std::thread::sleep(Duration::from_millis(20));
        }
        !alive
    });
    assert!(
        gone,
        "{signal}: the tool process {tool_pid} is still running"
    );
}

#[test]
fn sigint_cancels_the_run_and_still_prints_the_result() {
    a_signal_cancels_the_run("INT");
}

#[test]
fn sigterm_cancels_the_run_and_still_prints_the_result() {
    a_signal_cancels_the_run("TERM");
}

#[test]
fn sighup_cancels_the_run_and_still_prints_the_result() {
    a_signal_cancels_the_run("HUP");
}

// ---------------------------------------------------------------- bounds on command-tool output

/// Writes `records.json` (2·10^5 records of five string fields, about 21 MB) into `dir`.
fn write_records(dir: &Path) {
    let mut s = String::with_capacity(22 << 20);
    s.push('[');
    for i in 0..200_000 {
        if i > 0 {
            s.push(',');
        }
        s.push_str(&format!(
            r#"{{"id":"r{i:07}","name":"Customer {i}","email":"user{i}@example.com","city":"Berlin","status":"{}"}}"#,
            if i % 4 == 0 { "inactive" } else { "active" }
        ));
    }
    s.push(']');
    write(&dir.join("records.json"), &s);
}

#[test]
fn a_command_tool_with_200k_records_passes() {
    let d = scratch("records");
    write_records(&d);
    let m = manifest_with(&d, json!(["cat", "records.json"]));
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "local rs = tools.t.x({})\nlocal active = 0\n\
         for _, r in ipairs(rs) do if r.status == 'active' then active = active + 1 end end\n\
         return { n = #rs, active = active, last = rs[#rs].email }",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert_eq!(
        r.json()["value"],
        json!({"n": 200_000, "active": 150_000, "last": "user199999@example.com"})
    );
}

#[test]
fn an_over_budget_command_tool_output_fails_clearly_and_in_time() {
    let d = scratch("ones");
    // 3·10^6 values in 6 MB: under the 32 MiB stdout cap, over the 2·10^6-value budget.
    script(
        &d.join("ones.sh"),
        "printf '['; yes '1,' | head -n 3000000 | tr -d '\\n'; printf '1]'",
    );
    let m = manifest_with(&d, json!(["./ones.sh"]));
    let start = Instant::now();
    let r = run(
        &[
            "run",
            "--timeout-ms",
            "5000",
            "--tools",
            m.to_str().unwrap(),
        ],
        "print('before')\nreturn #tools.t.x({})",
    );
    let took = start.elapsed();
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(
        v["error"],
        json!({
            "kind": "ToolFailure",
            "message": "tool 't.x' printed more than 2000000 JSON values (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)",
            "location": {"line": 2, "column": 18}
        })
    );
    assert_eq!(v["logs"], json!(["before"]));
    assert_eq!(v["toolCalls"][0]["status"], json!("failure"));
    // It fails on its own (a ToolFailure, not a timeout), well within the timeout + margin.
    assert!(took < Duration::from_millis(5000 + 1500), "took {took:?}");
}

#[test]
fn a_command_tool_output_over_the_memory_limit_fails_as_a_tool_failure() {
    // 2·10^5 records take about 205 MB once parsed: over a 16 MiB memory limit, the call fails
    // while parsing (catchable, naming the limit) instead of building the tree.
    let d = scratch("records-memory");
    write_records(&d);
    let m = manifest_with(&d, json!(["cat", "records.json"]));
    let r = run(
        &[
            "run",
            "--max-memory-bytes",
            "16777216",
            "--tools",
            m.to_str().unwrap(),
        ],
        "local ok, e = pcall(tools.t.x, {})\nreturn { ok = ok, e = e }",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert_eq!(
        r.json()["value"],
        json!({
            "ok": false,
            "e": "tool 't.x' printed output that would take more than 16777216 bytes of memory once parsed (the execution's memory limit, max_memory_bytes); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
        })
    );
}

#[test]
fn the_timeout_holds_while_a_big_tool_output_is_parsed() {
    // 21 MB ready at once: reading takes milliseconds, parsing it (debug build) far longer than
    // the timeout. The parse runs off the async task, so the deadline still ends the run.
    let d = scratch("slowparse");
    write_records(&d);
    let m = manifest_with(&d, json!(["cat", "records.json"]));
    let start = Instant::now();
    let r = run(
        &["run", "--timeout-ms", "300", "--tools", m.to_str().unwrap()],
        "return #tools.t.x({})",
    );
    let took = start.elapsed();
    assert_eq!(r.code, 1, "stderr: {}", r.stderr);
    let v = r.json();
    assert_eq!(v["error"]["kind"], json!("TimeoutExceeded"), "{v}");
    assert_eq!(v["toolCalls"][0]["status"], json!("interrupted"), "{v}");
    // Before the parse moved off the task this took 4.8 s.
    assert!(took < Duration::from_millis(300 + 1500), "took {took:?}");
}

#[test]
fn a_background_child_holding_stdout_does_not_hold_the_call() {
    let d = scratch("bgchild");
    script(
        &d.join("bg.sh"),
        "sleep 60 &\necho $! > bg.pid\necho '{\"ok\": 1}'",
    );
    let m = manifest_with(&d, json!(["./bg.sh"]));
    let start = Instant::now();
    let r = run(
        &[
            "run",
            "--timeout-ms",
            "30000",
            "--tools",
            m.to_str().unwrap(),
        ],
        "return tools.t.x({}).ok",
    );
    let took = start.elapsed();
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert_eq!(r.json()["value"], json!(1));
    assert!(took < Duration::from_secs(2), "took {took:?}");
    let pid = std::fs::read_to_string(d.join("bg.pid")).unwrap();
    // Gone, or a zombie waiting for its reaper. SIGKILL is delivered asynchronously: on a loaded
    // machine the process may still show as sleeping for a moment after codemode exits.
    let is_alive = || {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()));
        stat.is_ok_and(|s| !s.rsplit(')').next().unwrap().trim_start().starts_with('Z'))
    };
    let deadline = Instant::now() + Duration::from_secs(2);
    while is_alive() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let alive = is_alive();
    assert!(
        !alive,
        "the background sleep {} survived the call",
        pid.trim()
    );
}

#[test]
fn manifest_max_stdout_bytes_sets_the_cap_per_tool() {
    let d = scratch("maxstdout");
    let m = d.join("tools.json");
    let doc = json!({"tools": {
        "t.small": {"description": "d", "input": {}, "maxStdoutBytes": 100,
                    "command": ["sh", "-c", "printf '\"%0200d\"' 0"]},
        "t.ok": {"description": "d", "input": {}, "maxStdoutBytes": 1000,
                 "command": ["sh", "-c", "printf '\"%0200d\"' 0"]}
    }});
    write(&m, &doc.to_string());
    let r = run(
        &["run", "--tools", m.to_str().unwrap()],
        "local ok, e = pcall(tools.t.small, {})\nreturn { e = e, n = #tools.t.ok({}) }",
    );
    assert_eq!(r.code, 0, "stdout: {} stderr: {}", r.stdout, r.stderr);
    assert_eq!(
        r.json()["value"],
        json!({
            "e": "tool 't.small' printed more than 100 bytes on stdout (its output limit); ask it for less data: filter or page its results (e.g. fewer items per call)",
            "n": 200
        })
    );

    for (bad, shown) in [
        ("0", "0"),
        ("\"1000\"", "\"1000\""),
        ("268435457", "268435457"),
        ("1.5", "1.5"),
    ] {
        let e = manifest_error(
            "maxstdout-bad",
            &format!(
                r#"{{"tools":{{"a":{{"description":"d","input":{{}},"command":["sh"],"maxStdoutBytes":{bad}}}}}}}"#
            ),
        );
        assert!(
            e.ends_with(&format!(
                "tool \"a\": field \"maxStdoutBytes\" must be an integer from 1 to 268435456 (bytes of stdout one call may print; default 33554432), found {shown}"
            )),
            "{e}"
        );
    }
}
