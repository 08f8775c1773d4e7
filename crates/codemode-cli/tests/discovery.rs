//! End-to-end tests of `codemode catalog`, `codemode search` and `codemode run --allow-read`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_codemode");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], stdin: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(std::env::temp_dir())
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

fn scratch(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    // Under the target dir's tmp/ (cargo's CARGO_TARGET_TMPDIR), not the system's /tmp: a
    // run's scratch directories go away with the build.
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "codemode-discovery-test-{}-{}-{name}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn manifest(dir: &Path) -> String {
    let m = dir.join("tools.json");
    let doc = json!({
        "namespaces": {"github": {"description": "GitHub issues"}, "slack": {"description": "Team chat"}},
        "tools": {
            "github.issues.list": {"description": "List issues of a repository.", "command": ["cat"],
                "input": {"type": "object", "properties": {"repo": {"type": "string", "description": "owner/name"}}, "required": ["repo"]}},
            "github.issues.get": {"description": "Get one issue.", "command": ["cat"], "input": {"type": "object"}},
            "slack.chat.postMessage": {"description": "Send a message to a channel.", "command": ["cat"],
                "input": {"type": "object", "properties": {"channel": {"type": "string"}, "text": {"type": "string"}}}}
        }
    });
    std::fs::write(&m, doc.to_string()).unwrap();
    m.to_str().unwrap().to_string()
}

fn json_line(r: &Run) -> Value {
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{:?}", r.stdout);
    serde_json::from_str(lines[0]).unwrap()
}

// ------------------------------------------------------------------ search

#[test]
fn search_prints_the_result_json() {
    let d = scratch("search");
    let m = manifest(&d);
    let v = json_line(&run(&["search", "--tools", &m, "send message"], ""));
    assert_eq!(v["items"][0]["path"], json!("slack.chat.postMessage"));
    assert_eq!(
        v["items"][0]["description"],
        json!("Send a message to a channel.")
    );
    assert!(
        v["items"][0]["signature"]
            .as_str()
            .unwrap()
            .starts_with("tools.slack.chat.postMessage(")
    );
    let v = json_line(&run(
        &[
            "search",
            "--tools",
            &m,
            "--namespace",
            "github",
            "--limit",
            "1",
        ],
        "",
    ));
    assert_eq!(v["items"][0]["path"], json!("github.issues.get"));
    assert_eq!(v["remaining"], json!(1));
    assert_eq!(v["next"], json!({"offset": 1}));
    let v = json_line(&run(
        &["search", "--tools", &m, "tools.github.issues.list"],
        "",
    ));
    assert_eq!(v["items"].as_array().unwrap().len(), 1);
    assert_eq!(v["next"], Value::Null);
}

/// `search --lang js`: what a JavaScript program's `search(...)` returns, TypeScript signatures
/// (the call as `tools.<path>(input: ...)`, its promise); Lua's output is unchanged by `--lang lua`.
#[test]
fn search_in_javascript_gives_typescript_signatures() {
    let d = scratch("search-js");
    let m = manifest(&d);
    let v = json_line(&run(
        &["search", "--tools", &m, "--lang", "js", "send message"],
        "",
    ));
    assert_eq!(
        v,
        json!({"items": [{"path": "slack.chat.postMessage",
                          "description": "Send a message to a channel.",
                          "signature": "tools.slack.chat.postMessage(input: { channel?: string; text?: string }): Promise<unknown>"}],
               "remaining": 0, "next": null})
    );
    let v = json_line(&run(
        &[
            "search",
            "--tools",
            &m,
            "--lang",
            "js",
            "tools.github.issues.list",
        ],
        "",
    ));
    assert_eq!(
        v["items"][0]["signature"],
        json!(
            "tools.github.issues.list(input: {\n  /** owner/name */\n  repo: string;\n}): Promise<unknown>"
        )
    );
    // Lua: the default, and `--lang lua` gives the same bytes.
    let lua = run(&["search", "--tools", &m, "send message"], "");
    assert_eq!(
        lua.stdout,
        "{\"items\":[{\"path\":\"slack.chat.postMessage\",\"description\":\"Send a message to a channel.\",\"signature\":\"tools.slack.chat.postMessage({ channel?: string, text?: string }) -> unknown\"}],\"remaining\":0,\"next\":null}\n"
    );
    let explicit = run(
        &["search", "--tools", &m, "--lang", "lua", "send message"],
        "",
    );
    assert_eq!(explicit.stdout, lua.stdout);
    // Bad flags are refused the same way in either language.
    let r = run(
        &["search", "--tools", &m, "--lang", "js", "--limit", "0"],
        "",
    );
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim(),
        "codemode: --limit must be an integer from 1 to 50; got 0."
    );
}

#[test]
fn search_rejects_bad_flags_with_exit_2() {
    let d = scratch("search-bad");
    let m = manifest(&d);
    let r = run(&["search", "--tools", &m, "--limit", "0", "x"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim(),
        "codemode: --limit must be an integer from 1 to 50; got 0."
    );
    assert!(r.stdout.is_empty());
    let r = run(&["search", "--tools", &m, "--offset", "-1"], "");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("codemode: --offset must be an integer >= 0"),
        "{}",
        r.stderr
    );
}

// ------------------------------------------------------------------ catalog

#[test]
fn catalog_prints_instructions_with_signatures() {
    let d = scratch("catalog");
    let m = manifest(&d);
    let r = run(
        &[
            "catalog",
            "--tools",
            &m,
            "--budget",
            "2000",
            "--max-tool-calls",
            "9",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("tools.github.issues.list({"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("at most 9 tool calls"), "{}", r.stdout);
    assert!(!r.stdout.contains("fs.read"));
    // A tiny budget still names every namespace.
    let small = run(&["catalog", "--tools", &m, "--budget", "1"], "");
    assert_eq!(small.code, 0, "{}", small.stderr);
    assert!(
        small.stdout.contains("github") && small.stdout.contains("slack"),
        "{}",
        small.stdout
    );
    assert!(small.stdout.contains("search"), "{}", small.stdout);
    // --allow-read adds the fs note (Lua's: no Node names).
    let fs = run(
        &[
            "catalog",
            "--tools",
            &m,
            "--allow-read",
            d.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(fs.code, 0, "{}", fs.stderr);
    assert!(
        fs.stdout.contains("fs.read(path) -> string"),
        "{}",
        fs.stdout
    );
    assert!(!fs.stdout.contains("readFile"), "{}", fs.stdout);
}

/// `catalog --lang js`: the JavaScript guide, TypeScript signatures of the manifest's tools,
/// the limits, and with `--allow-read` the note in Node's names.
#[test]
fn catalog_in_javascript_has_typescript_signatures() {
    let d = scratch("catalog-js");
    let m = manifest(&d);
    let r = run(
        &[
            "catalog",
            "--tools",
            &m,
            "--lang",
            "js",
            "--max-tool-calls",
            "9",
        ],
        "",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = &r.stdout;
    assert!(
        text.starts_with("Run a JavaScript program that calls the tools listed below."),
        "{text}"
    );
    assert!(
        text.contains("Call a tool as `await tools.<namespace>.<tool>({ field: value })`"),
        "{text}"
    );
    assert!(text.contains("at most 9 tool calls"), "{text}");
    assert!(
        text.contains("## Tools (complete: all 3 tools with full signatures)"),
        "{text}"
    );
    for signature in [
        "  tools.github.issues.get(): Promise<unknown>\n",
        "  tools.github.issues.list(input: {\n    /** owner/name */\n    repo: string;\n  }): Promise<unknown>\n",
        "  tools.slack.chat.postMessage(input: { channel?: string; text?: string }): Promise<unknown>\n",
    ] {
        assert!(text.contains(signature), "{signature:?} in {text}");
    }
    // Nothing of Lua's notation.
    for lua in [" -> ", "local ", "pcall", "{ repo = "] {
        assert!(!text.contains(lua), "{lua:?} in {text}");
    }
    assert!(!text.contains("## Files"), "{text}");
    let fs = run(
        &[
            "catalog",
            "--tools",
            &m,
            "--lang",
            "js",
            "--allow-read",
            d.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(fs.code, 0, "{}", fs.stderr);
    assert!(
        fs.stdout
            .contains("`fs.readFile(path: string): string` returns a UTF-8 text file")
            && fs
                .stdout
                .contains("`await fs.promises.readFile(path)` gives it as a promise"),
        "{}",
        fs.stdout
    );
    assert!(
        !fs.stdout.contains("fs.read(path) -> string"),
        "{}",
        fs.stdout
    );
}

/// A manifest of `n` tools in each of three namespaces.
fn big_manifest(dir: &Path, n: usize) -> String {
    let mut tools = serde_json::Map::new();
    for ns in ["alpha", "beta", "gamma"] {
        for i in 0..n {
            tools.insert(
                format!("{ns}.tool_{i:02}"),
                json!({"description": format!("Tool number {i} of {ns}, which does one thing."),
                       "command": ["cat"],
                       "input": {"type": "object",
                                 "properties": {"id": {"type": "string", "description": "Which item"},
                                                "limit": {"type": "integer"}},
                                 "required": ["id"]}}),
            );
        }
    }
    let m = dir.join("big.json");
    std::fs::write(&m, json!({"tools": tools}).to_string()).unwrap();
    m.to_str().unwrap().to_string()
}

/// How many tools a catalog shows with their signatures (from its `## Tools` heading).
fn shown(text: &str) -> usize {
    let heading = text
        .lines()
        .find(|l| l.starts_with("## Tools ("))
        .expect("a ## Tools heading");
    if let Some(rest) = heading.strip_prefix("## Tools (complete: all ") {
        return rest.split(' ').next().unwrap().parse().unwrap();
    }
    let rest = heading
        .strip_prefix("## Tools (partial: ")
        .unwrap_or_else(|| panic!("{heading}"));
    rest.split(' ').next().unwrap().parse().unwrap()
}

/// The JavaScript catalog is budgeted like the Lua one: the `## Tools` section stays within
/// `--budget` o200k tokens (the guide before it is not counted), every namespace is named, more
/// budget never shows fewer tools, and a big budget shows all of them.
#[test]
fn catalog_budget_holds_in_both_languages() {
    use codemode::catalog::{count_tokens, guide};
    let d = scratch("catalog-budget");
    let m = big_manifest(&d, 20);
    for (lang, language, call) in [
        ("lua", codemode::Language::Lua, " -> unknown"),
        ("js", codemode::Language::JavaScript, "): Promise<unknown>"),
    ] {
        let header = count_tokens(&guide(language, &codemode::Limits::default()));
        let mut previous = 0;
        for budget in [0, 300, 600, 1000, 100_000] {
            let b = budget.to_string();
            let r = run(
                &["catalog", "--tools", &m, "--lang", lang, "--budget", &b],
                "",
            );
            assert_eq!(r.code, 0, "{}", r.stderr);
            let text = r.stdout.trim_end();
            let total = count_tokens(text);
            // (Below the fixed parts, the namespace lines and the note on `search`, nothing
            // but those is shown.)
            assert!(
                budget == 0 || total <= budget + header,
                "{lang} budget {budget}: {total} tokens > {budget} + guide {header}\n{text}"
            );
            for ns in ["- alpha (20 tools", "- beta (20 tools", "- gamma (20 tools"] {
                assert!(text.contains(ns), "{lang} budget {budget}: {ns} in {text}");
            }
            let n = shown(text);
            assert!(n >= previous, "{lang} budget {budget}: {n} < {previous}");
            assert!(budget > 0 || n == 0, "{lang}: {n} shown with no budget");
            if n > 0 {
                assert!(text.contains(call), "{lang}: {call:?} in {text}");
            }
            previous = n;
        }
        assert_eq!(previous, 60, "{lang}: a big budget shows every tool");
    }
}

// ------------------------------------------------------------------ run --allow-read

fn files() -> PathBuf {
    let d = scratch("files");
    std::fs::create_dir_all(d.join("docs")).unwrap();
    std::fs::write(d.join("docs/a.md"), "# Title\nline 2\n").unwrap();
    std::fs::write(d.join("top.txt"), "top").unwrap();
    d
}

#[test]
fn allow_read_reads_and_lists_files() {
    let d = files();
    let r = run(
        &["run", "--allow-read", d.to_str().unwrap()],
        r#"
        local names = {}
        for _, e in ipairs(fs.list()) do names[#names + 1] = e.name .. ":" .. e.type end
        local docs = fs.list("docs")
        return { names = names, doc = fs.read("docs/a.md"), size = docs[1].size }
        "#,
    );
    let v = json_line(&r);
    assert_eq!(
        v["value"],
        json!({"names": ["docs:dir", "top.txt:file"], "doc": "# Title\nline 2\n", "size": 15})
    );
    // The fs calls are listed like tool calls, their arguments as an array.
    assert_eq!(
        v["toolCalls"],
        json!([
            {"name": "fs.list", "input": [], "status": "success"},
            {"name": "fs.list", "input": ["docs"], "status": "success"},
            {"name": "fs.read", "input": ["docs/a.md"], "status": "success"}
        ])
    );
}

#[cfg(unix)]
#[test]
fn allow_read_refuses_escapes() {
    let d = files();
    std::os::unix::fs::symlink("/etc", d.join("etc")).unwrap();
    let outside = scratch("outside");
    std::fs::write(outside.join("secret.txt"), "secret").unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), d.join("link.txt")).unwrap();
    let r = run(
        &["run", "--allow-read", d.to_str().unwrap()],
        r#"
        local out = {}
        for _, p in ipairs({ "etc/hostname", "../x", "docs/../../x", "/etc/passwd", "link.txt" }) do
            local ok, err = pcall(fs.read, p)
            out[#out + 1] = tostring(ok) .. " " .. err
        end
        local ok, err = pcall(fs.list, "etc")
        out[#out + 1] = tostring(ok) .. " " .. err
        return out
        "#,
    );
    let v = json_line(&r);
    let out: Vec<&str> = v["value"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(out.len(), 6, "{v}");
    assert!(
        out[0].starts_with("false fs.read: 'etc/hostname' is outside the allowed directory"),
        "{}",
        out[0]
    );
    assert!(
        out[1].starts_with("false fs.read: '../x' contains '..'"),
        "{}",
        out[1]
    );
    assert!(
        out[2].starts_with("false fs.read: 'docs/../../x' contains '..'"),
        "{}",
        out[2]
    );
    assert!(
        out[3].starts_with("false fs.read: '/etc/passwd' is outside the allowed directory"),
        "{}",
        out[3]
    );
    assert!(
        out[4].starts_with("false fs.read: 'link.txt' is outside the allowed directory"),
        "{}",
        out[4]
    );
    assert!(
        out[5].starts_with("false fs.list: 'etc' is outside the allowed directory"),
        "{}",
        out[5]
    );
}

/// In JavaScript `--allow-read` gives Node's names too, both ways the catalog's note says:
/// `fs.readFile(path)` (synchronous) and `await fs.promises.readFile(path)` (a promise), with
/// the optional `"utf8"` encoding; failures throw or reject with the message. Lua has neither.
#[test]
fn allow_read_in_javascript_reads_both_ways() {
    let d = files();
    let r = run(
        &["run", "--lang", "js", "--allow-read", d.to_str().unwrap()],
        r#"
        const sync = fs.readFile("docs/a.md");
        const pending = fs.promises.readFile("top.txt");
        const awaited = await fs.promises.readFile("docs/a.md", "utf8");
        let thrown, rejected;
        try { fs.readFile("missing.txt"); } catch (e) { thrown = e.message; }
        try { await fs.promises.readFile("../x"); } catch (e) { rejected = e.message; }
        return { sync, awaited, isPromise: pending instanceof Promise, top: await pending,
                 thrown, rejected, names: fs.list().map((e) => e.name), read: fs.read("top.txt") };
        "#,
    );
    let v = json_line(&r);
    assert_eq!(
        v["value"],
        json!({
            "sync": "# Title\nline 2\n",
            "awaited": "# Title\nline 2\n",
            "isPromise": true,
            "top": "top",
            "thrown": "fs.readFile: 'missing.txt' does not exist; fs.list(dir) shows what is there",
            "rejected": "fs.promises.readFile: '../x' contains '..'; paths may not leave the allowed directory. Use a path relative to it (fs.list() shows its top level).",
            "names": ["docs", "top.txt"],
            "read": "top"
        }),
        "{v}"
    );
    assert_eq!(
        v["toolCalls"],
        json!([
            {"name": "fs.readFile", "input": ["docs/a.md"], "status": "success"},
            {"name": "fs.promises.readFile", "input": ["top.txt"], "status": "success"},
            {"name": "fs.promises.readFile", "input": ["docs/a.md", "utf8"], "status": "success"},
            {"name": "fs.readFile", "input": ["missing.txt"], "status": "failure"},
            {"name": "fs.promises.readFile", "input": ["../x"], "status": "failure"},
            {"name": "fs.list", "input": [], "status": "success"},
            {"name": "fs.read", "input": ["top.txt"], "status": "success"}
        ])
    );
    // An uncaught rejection fails the run with the message.
    let r = run(
        &["run", "--lang", "js", "--allow-read", d.to_str().unwrap()],
        "return await fs.promises.readFile('top.txt', 'latin1');",
    );
    assert_eq!(r.code, 1, "{}", r.stdout);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(
        v["error"]["message"],
        json!(
            "fs.promises.readFile: only UTF-8 text can be read; give \"utf8\" as the encoding, or none, not \"latin1\""
        ),
        "{v}"
    );
    // Lua keeps fs.read and fs.list only.
    let r = run(
        &["run", "--allow-read", d.to_str().unwrap()],
        "return { fs.readFile == nil, fs.promises == nil, fs.read('top.txt') }",
    );
    assert_eq!(json_line(&r)["value"], json!([true, true, "top"]));
}

#[test]
fn without_allow_read_there_is_no_fs() {
    let r = run(&["run"], "return fs == nil");
    assert_eq!(json_line(&r)["value"], json!(true));
}

#[test]
fn allow_read_of_a_missing_dir_is_a_usage_error() {
    let r = run(&["run", "--allow-read", "/definitely/not/here"], "return 1");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("codemode: --allow-read /definitely/not/here:"),
        "{}",
        r.stderr
    );
}

#[test]
fn uncaught_fs_errors_fail_the_run() {
    let d = files();
    let r = run(
        &["run", "--allow-read", d.to_str().unwrap()],
        "return fs.read('missing.txt')",
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(r.stdout.trim()).unwrap();
    assert_eq!(v["error"]["kind"], json!("ExecutionFailure"));
    assert_eq!(
        v["error"]["message"],
        json!("fs.read: 'missing.txt' does not exist; fs.list(dir) shows what is there")
    );
}
