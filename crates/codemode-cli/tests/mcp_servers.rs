//! Integration tests of `codemode mcp` and `codemode run --mcp-config` against real third-party
//! MCP servers (npm `@modelcontextprotocol/server-everything`, `server-memory`; PyPI
//! `mcp-server-time`) and a fixture server of ours, driven by the official Python MCP SDK client
//! (`crates/codemode-mcp/tests/mcp_client.py`), over stdio and streamable HTTP.
//!
//! The servers are installed by `crates/codemode-mcp/tests/setup.sh` (`.ci/run` runs it) into
//! `$CODEMODE_MCP_SERVERS` (default `<repo>/target/mcp-servers`). Without that install the tests
//! print a loud SKIPPED message and pass.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn mcp_tests() -> PathBuf {
    repo().join("crates/codemode-mcp/tests")
}

/// The installed servers, or `None` (after a loud message) when setup.sh has not been run.
fn servers() -> Option<PathBuf> {
    let dir = std::env::var_os("CODEMODE_MCP_SERVERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/mcp-servers"));
    if dir.join(".complete").exists() {
        return Some(dir);
    }
    eprintln!(
        "\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\
         !!! SKIPPED: the MCP test servers are not installed in {}.\n\
         !!! Run crates/codemode-mcp/tests/setup.sh (the CI script does) to run this test.\n\
         !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n",
        dir.display()
    );
    None
}

/// Writes a config with the given servers (name → spec) into a fresh temp dir; returns its path.
fn config(name: &str, servers: Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-mcp-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mcp.json");
    std::fs::write(&path, json!({"mcpServers": servers}).to_string()).unwrap();
    path
}

fn everything(s: &Path) -> Value {
    json!({"command": s.join("npm/node_modules/.bin/mcp-server-everything")})
}

fn memory(s: &Path, file: &Path) -> Value {
    json!({"command": s.join("npm/node_modules/.bin/mcp-server-memory"),
           "env": {"MEMORY_FILE_PATH": file}})
}

fn time_server(s: &Path) -> Value {
    json!({"command": s.join("venv/bin/mcp-server-time"), "args": ["--local-timezone", "UTC"]})
}

fn fixture(s: &Path) -> Value {
    json!({"command": s.join("venv/bin/python"),
           "args": [mcp_tests().join("fixtures/fixture_server.py")],
           "env": {"FIXTURE_PAGE_SIZE": "2"},
           "timeoutMs": 1500})
}

/// Runs the Python SDK client over `codemode mcp --config CONFIG` (stdio) with `steps`.
fn client_stdio(s: &Path, config: &Path, steps: Value) -> Value {
    let args = [
        "stdio".to_string(),
        env!("CARGO_BIN_EXE_codemode").to_string(),
        "mcp".into(),
        "--config".into(),
        config.display().to_string(),
    ];
    run_client(s, &args, steps)
}

fn run_client(s: &Path, args: &[String], steps: Value) -> Value {
    let mut child = Command::new(s.join("venv/bin/python"))
        .arg(mcp_tests().join("mcp_client.py"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(steps.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "client failed: {}\nstderr:\n{stderr}",
        out.status
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("client output is not JSON ({e}); stderr:\n{stderr}"))
}

fn execute(code: &str) -> Value {
    json!({"op": "call", "name": "execute", "args": {"code": code}})
}

/// The `structuredContent` (the Result) of step `i`.
fn result(out: &Value, i: usize) -> &Value {
    &out["steps"][i]["result"]["structuredContent"]
}

const TWO_SERVERS: &str = r#"
local sum = tools.everything["get-sum"]({ a = 19, b = 23 })
tools.memory.create_entities({ entities = {
  { name = "codemode", entityType = "project", observations = { "runs Lua" } },
  { name = "rmcp", entityType = "crate", observations = { "MCP SDK", "Rust" } } } })
local graph = tools.memory.read_graph({})
local names = {}
for _, e in ipairs(graph.entities) do names[#names + 1] = e.name end
table.sort(names)
local t = tools.time.convert_time({ source_timezone = "UTC", time = "12:00", target_timezone = "Asia/Tokyo" })
return { sum = sum, names = names, observations = #graph.entities[2].observations,
         tokyo = t.target.datetime:sub(12, 16) }
"#;

fn check_two_servers(out: &Value, i: usize) {
    let r = result(out, i);
    assert_eq!(r["ok"], json!(true), "{r}");
    assert_eq!(r["value"]["sum"], json!("The sum of 19 and 23 is 42."));
    assert_eq!(r["value"]["names"], json!(["codemode", "rmcp"]));
    assert_eq!(r["value"]["observations"], json!(2));
    assert_eq!(r["value"]["tokyo"], json!("21:00"));
    let calls: Vec<&str> = r["toolCalls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        calls,
        [
            "everything.get-sum",
            "memory.create_entities",
            "memory.read_graph",
            "time.convert_time"
        ]
    );
    assert_eq!(out["steps"][i]["result"]["isError"], json!(false));
    // The text part carries the same Result for clients that only show text.
    let text = out["steps"][i]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert_eq!(&serde_json::from_str::<Value>(text).unwrap(), r);
}

#[test]
fn stdio_client_runs_programs_over_three_real_servers() {
    let Some(s) = servers() else { return };
    let cfg = config("stdio", json!({}));
    let mem = cfg.parent().unwrap().join("memory.jsonl");
    let cfg = config(
        "stdio",
        json!({"everything": everything(&s), "memory": memory(&s, &mem), "time": time_server(&s),
               "broken": {"command": "/nonexistent/mcp-server"}}),
    );
    let mut progress_step = execute(TWO_SERVERS);
    progress_step["progress"] = json!(true);
    let out = client_stdio(
        &s,
        &cfg,
        json!([
            {"op": "list"},
            progress_step,
            execute(r#"local img = tools.everything["get-tiny-image"]({}); return img"#),
            {"op": "call", "name": "search", "args": {"query": "convert time"}},
            execute("return tools.memory.read_graph({}).entities[1].name + 1"),
            execute(r#"local ok, e = pcall(function() return tools.broken.search({}) end)
        return { ok, e, tools.time.get_current_time({ timezone = "UTC" }).timezone }"#),
            execute("return tools.broken.search({ query = 'x' })"),
        ]),
    );
    // tools/list: execute and search; execute's description is the catalog.
    let tools = out["steps"][0]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["execute", "search"]);
    let desc = tools[0]["description"].as_str().unwrap();
    assert!(desc.contains("tools.memory.create_entities("), "{desc}");
    assert!(desc.contains("tools.time.convert_time("), "{desc}");
    assert!(desc.contains("tools.everything[\"get-sum\"]"), "{desc}");
    assert!(
        desc.contains("Unavailable: tools.broken: MCP server 'broken' could not be started"),
        "{desc}"
    );
    // Two (three) servers, aggregated.
    check_two_servers(&out, 1);
    // Progress: one notification per nested call, in order, before the response.
    let progress = out["steps"][1]["progress"].as_array().unwrap();
    let messages: Vec<&str> = progress.iter().map(|p| p[2].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        [
            "1 call done: everything.get-sum",
            "2 calls done: memory.create_entities",
            "3 calls done: memory.read_graph",
            "4 calls done: time.convert_time"
        ]
    );
    // Image part → attachment: the program sees a reference, the client gets the image part.
    let r = result(&out, 2);
    assert_eq!(
        r["value"][1],
        json!({"type": "image", "mimeType": "image/png", "attachment": 1})
    );
    let content = out["steps"][2]["result"]["content"].as_array().unwrap();
    assert_eq!(content.len(), 2, "{content:?}");
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["mimeType"], "image/png");
    assert!(content[1]["data"].as_str().unwrap().len() > 100);
    // search
    let items = result(&out, 3)["items"].as_array().unwrap();
    assert_eq!(items[0]["path"], "time.convert_time");
    // A failing program: isError with the diagnostic.
    assert_eq!(out["steps"][4]["result"]["isError"], json!(true));
    let err = &result(&out, 4)["error"];
    assert_eq!(err["kind"], "ExecutionFailure", "{err}");
    assert_eq!(err["location"]["line"], json!(1), "{err}");
    // The server that failed to start: its calls are catchable ToolFailures saying why and what
    // to do; the other servers answer in the same program.
    let broken = "tools.broken.search cannot be called: MCP server 'broken' could not be started (/nonexistent/mcp-server): No such file or directory (os error 2). codemode is retrying it in the background (5 attempts left; this call asked for one); continue without tools.broken for now, or try again in a later execution.";
    assert_eq!(
        result(&out, 5)["value"],
        json!([false, format!("input:1: {broken}"), "UTC"]),
        "{}",
        result(&out, 5)
    );
    assert_eq!(out["steps"][6]["result"]["isError"], json!(true));
    let err = &result(&out, 6)["error"];
    assert_eq!(err["kind"], "ToolFailure", "{err}");
    // (A retry may have run since the previous step: the count of attempts left may be lower.)
    let msg = err["message"].as_str().unwrap();
    let (head, tail) = broken.split_once("(5 attempts left").unwrap();
    assert!(
        msg.starts_with(head) && msg.ends_with(tail) && msg.contains(" attempts left"),
        "{msg}"
    );
    assert_eq!(err["location"], json!({"line": 1, "column": 20}), "{err}");
}

/// [`TWO_SERVERS`] in JavaScript, the calls that do not depend on each other at once.
const TWO_SERVERS_JS: &str = r#"
const [sum] = await Promise.all([
  tools.everything["get-sum"]({ a: 19, b: 23 }),
  tools.memory.create_entities({ entities: [
    { name: "codemode", entityType: "project", observations: ["runs Lua"] },
    { name: "rmcp", entityType: "crate", observations: ["MCP SDK", "Rust"] } ] }),
]);
const graph = await tools.memory.read_graph({});
const names = graph.entities.map((e) => e.name).sort();
const t = await tools.time.convert_time({ source_timezone: "UTC", time: "12:00", target_timezone: "Asia/Tokyo" });
return { sum, names, observations: graph.entities[1].observations.length,
         tokyo: t.target.datetime.slice(11, 16) };
"#;

/// `codemode mcp` with `"codemode": {"language": "js"}`: `execute` is described and runs in
/// JavaScript (TypeScript signatures of the real servers' tools), `search` answers with
/// TypeScript signatures, and the server's words name JavaScript.
#[test]
fn stdio_client_runs_javascript_programs_over_real_servers() {
    let Some(s) = servers() else { return };
    let dir = config("stdio-js", json!({}));
    let dir = dir.parent().unwrap().to_path_buf();
    let mem = dir.join("memory.jsonl");
    let cfg = dir.join("mcp.json");
    std::fs::write(
        &cfg,
        json!({
            "mcpServers": {"everything": everything(&s), "memory": memory(&s, &mem), "time": time_server(&s)},
            "codemode": {"language": "js", "catalogBudget": 8000}
        })
        .to_string(),
    )
    .unwrap();
    let out = client_stdio(
        &s,
        &cfg,
        json!([
            {"op": "list"},
            execute(TWO_SERVERS_JS),
            {"op": "call", "name": "search", "args": {"query": "convert time", "limit": 1}},
            execute("return tools.memory.read_graph({}).entities[0].name;"),
            {"op": "call", "name": "execute", "args": {}},
            execute("const r = search({ query: 'get sum', limit: 1 }); return r.items[0].signature;"),
        ]),
    );
    let tools = out["steps"][0]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["execute", "search"]);
    let desc = tools[0]["description"].as_str().unwrap();
    assert!(desc.starts_with("Run a JavaScript program"), "{desc}");
    assert!(
        desc.contains("Call a tool as `await tools.<namespace>.<tool>({ field: value })`"),
        "{desc}"
    );
    assert!(
        desc.contains("tools.memory.create_entities(input: {"),
        "{desc}"
    );
    assert!(desc.contains("tools.time.convert_time(input: {"), "{desc}");
    assert!(
        desc.contains("tools.everything[\"get-sum\"](input: {"),
        "{desc}"
    );
    assert!(!desc.contains(" -> "), "{desc}");
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["code"]["description"],
        "The JavaScript program (TypeScript annotations accepted). It ends with `return <value>`."
    );
    assert!(
        tools[1]["description"]
            .as_str()
            .unwrap()
            .contains("Returns {items: [{path, description, signature}], remaining, next}"),
        "{}",
        tools[1]["description"]
    );
    // The same answer as the Lua program over the same servers.
    check_two_servers(&out, 1);
    // search: TypeScript signatures.
    let item = &result(&out, 2)["items"][0];
    assert_eq!(item["path"], "time.convert_time");
    let sig = item["signature"].as_str().unwrap();
    assert!(
        sig.starts_with("tools.time.convert_time(input: {") && sig.contains("): Promise<"),
        "{sig}"
    );
    // A tool call's promise used as its value: a TypeError located in the program.
    assert_eq!(out["steps"][3]["result"]["isError"], json!(true));
    let err = &result(&out, 3)["error"];
    assert_eq!(err["kind"], "ExecutionFailure", "{err}");
    assert_eq!(err["location"]["line"], json!(1), "{err}");
    // execute without code: the error names JavaScript.
    assert_eq!(out["steps"][4]["result"]["isError"], json!(true));
    assert_eq!(
        out["steps"][4]["result"]["content"][0]["text"],
        "execute needs {\"code\": \"<JavaScript program>\"}: a string with the program, e.g. \"return 1 + 1\"."
    );
    // The built-in search of a program: the same notation.
    let sig = result(&out, 5)["value"].as_str().unwrap();
    assert!(
        sig.starts_with("tools.everything[\"get-sum\"](input: {") && sig.contains("): Promise<"),
        "{sig}"
    );
}

#[test]
fn http_client_runs_programs_over_real_servers() {
    let Some(s) = servers() else { return };
    let cfg = config("http", json!({}));
    let mem = cfg.parent().unwrap().join("memory.jsonl");
    let cfg = config(
        "http",
        json!({"everything": everything(&s), "memory": memory(&s, &mem), "time": time_server(&s)}),
    );
    let (mut server, url) = http_server(&cfg, &[]);
    let out = run_client(
        &s,
        &["http".into(), url],
        json!([{"op": "list"}, execute(TWO_SERVERS)]),
    );
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(out["steps"][0]["tools"][0]["name"], "execute");
    check_two_servers(&out, 1);
}

/// `codemode mcp --config CFG --http 127.0.0.1:0 EXTRA..`: the process and its MCP URL.
fn http_server(cfg: &Path, extra: &[&str]) -> (std::process::Child, String) {
    let mut server = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["mcp", "--config"])
        .arg(cfg)
        .args(["--http", "127.0.0.1:0"])
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let url = loop {
        let line = lines
            .next()
            .expect("codemode mcp --http ended before serving")
            .unwrap();
        if let Some(rest) = line.strip_prefix("codemode: serving MCP at ") {
            break rest.to_string();
        }
    };
    std::thread::spawn(move || for _ in lines {});
    (server, url)
}

#[test]
fn over_http_a_token_paused_in_one_session_resumes_in_another() {
    let Some(s) = servers() else { return };
    let (dir, cfg) = approval_setup("http", json!({}));
    let (mut server, url) = http_server(&cfg, &["--approve", "pay.refund"]);
    let first = run_client(&s, &["http".into(), url.clone()], json!([execute(REFUND)]));
    let token = result(&first, 0)["resumeToken"].clone();
    assert!(token.is_string(), "{first}");
    // A second client session (the memory store belongs to the server, not the session).
    let second = run_client(
        &s,
        &["http".into(), url],
        json!([
            resume_step(&token, json!({"2": {"approve": true}})),
            resume_step(&token, json!({"2": {"approve": true}})),
        ]),
    );
    let _ = server.kill();
    let _ = server.wait();
    assert_eq!(
        result(&second, 0)["value"],
        json!({"amount": 42, "refunded": true}),
        "{second}"
    );
    assert!(text(&second, 1).contains("was resumed already"), "{second}");
    assert_eq!(refunds(&dir), [json!({"order": "o1", "amount": 42})]);
}

#[test]
fn fixture_server_errors_timeouts_crashes_and_pagination() {
    let Some(s) = servers() else { return };
    let cfg = config("fixture", json!({"fixture": fixture(&s)}));
    let out = client_stdio(
        &s,
        &cfg,
        json!([
            // 0: isError → ToolFailure with the server's text; pcall sees the message.
            execute(
                r#"local ok, e = pcall(tools.fixture.fail, { message = "quota exceeded" })
                       return { ok = ok, e = e }"#
            ),
            // 1: uncaught → the execute result is isError.
            execute(r#"return tools.fixture.fail({ message = "quota exceeded" })"#),
            // 2: no outputSchema: text stays text, JSON-looking text too.
            execute(r#"return { tools.fixture.echo({ text = "hi" }), tools.fixture.json_text() }"#),
            // 3: tools/list pagination (2 per page, 11 tools): every tool is there.
            execute(
                r#"local r = search({ namespace = "fixture", limit = 50 })
                       local p = {} for _, i in ipairs(r.items) do p[#p + 1] = i.path end
                       return { p, tools.fixture.pid().pid > 0 }"#
            ),
            // 4: a tool that never answers: timeout (timeoutMs 1500) names the server.
            execute(r#"return tools.fixture.hang()"#),
            // 5: crash mid-run, then the next call restarts the server.
            execute(
                r#"local before = tools.fixture.pid().pid
                       local ok, e = pcall(tools.fixture.crash)
                       local after = tools.fixture.pid().pid
                       return { ok = ok, e = e, restarted = before ~= after }"#
            ),
        ]),
    );
    let r = result(&out, 0);
    assert_eq!(
        r["value"],
        json!({"ok": false, "e": "quota exceeded"}),
        "{r}"
    );
    assert_eq!(out["steps"][1]["result"]["isError"], json!(true));
    assert_eq!(result(&out, 1)["error"]["kind"], "ToolFailure");
    assert_eq!(result(&out, 1)["error"]["message"], "quota exceeded");
    assert_eq!(
        result(&out, 2)["value"],
        json!(["hi", "{\"looks\": \"like json\"}"])
    );
    assert_eq!(
        result(&out, 3)["value"],
        json!([
            [
                "fixture.add",
                "fixture.cancelled",
                "fixture.crash",
                "fixture.echo",
                "fixture.fail",
                "fixture.grow",
                "fixture.hang",
                "fixture.json_text",
                "fixture.media",
                "fixture.pid",
                "fixture.sleep"
            ],
            true
        ])
    );
    let e = &result(&out, 4)["error"];
    assert_eq!(e["kind"], "ToolFailure", "{e}");
    assert_eq!(
        e["message"],
        "MCP server 'fixture' did not answer the call to 'hang' within 1500 ms (the server's timeoutMs); try again later or use another tool."
    );
    let r = &result(&out, 5)["value"];
    assert_eq!(r["ok"], json!(false), "{r}");
    assert_eq!(r["restarted"], json!(true), "{r}");
    let msg = r["e"].as_str().unwrap();
    assert!(
        msg.starts_with("MCP server 'fixture' stopped during the call to 'crash'")
            && msg.ends_with("It is restarted on the next call."),
        "{msg}"
    );
}

#[test]
fn list_changed_refreshes_the_namespace_and_tells_the_client() {
    let Some(s) = servers() else { return };
    let cfg = config("listchanged", json!({"fixture": fixture(&s)}));
    let out = client_stdio(
        &s,
        &cfg,
        json!([
            execute(r#"return tools.fixture.grow({ name = "fresh" })"#),
            {"op": "sleep", "seconds": 1.0},
            execute(r#"return tools.fixture.fresh()"#),
            {"op": "list"},
        ]),
    );
    assert_eq!(result(&out, 0)["value"], "added fresh");
    assert_eq!(
        result(&out, 2)["value"],
        "I am fresh",
        "{}",
        result(&out, 2)
    );
    let desc = out["steps"][3]["tools"][0]["description"].as_str().unwrap();
    assert!(desc.contains("tools.fixture.fresh()"), "{desc}");
    let notes = out["notifications"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n == "notifications/tools/list_changed"),
        "{notes:?}"
    );
}

#[test]
fn cancellation_interrupts_and_concurrent_executes_do_not_block() {
    let Some(s) = servers() else { return };
    let cfg = config("cancel", json!({"fixture": fixture(&s)}));
    let out = client_stdio(
        &s,
        &cfg,
        json!([
            // 0: cancelled after 0.4 s: the program would have added a tool at 1.2 s.
            {"op": "cancel", "name": "execute", "after": 0.4,
             "args": {"code": "tools.fixture.sleep({ ms = 1200 }); return tools.fixture.grow({ name = 'late' })"}},
            {"op": "sleep", "seconds": 1.5},
            // 2: the tool was never added.
            execute(r#"local n = 0
                       for _, i in ipairs(search({ namespace = "fixture", limit = 50 }).items) do
                         if i.path == "fixture.late" then n = n + 1 end
                       end
                       return n"#),
            // 3: a slow and a fast program at once.
            {"op": "parallel", "calls": [
                {"name": "execute", "args": {"code": "return tools.fixture.sleep({ ms = 1200 })"}},
                {"name": "execute", "args": {"code": "return tools.fixture.add({ a = 1, b = 2 }).sum"}}]},
        ]),
    );
    assert!(out["steps"][0]["cancelled"] == json!(true));
    assert_eq!(result(&out, 2)["value"], json!(0), "{}", result(&out, 2));
    let par = &out["steps"][3]["results"];
    assert_eq!(par[0]["result"]["structuredContent"]["value"], "slept");
    assert_eq!(par[1]["result"]["structuredContent"]["value"], 3);
    let slow = par[0]["seconds"].as_f64().unwrap();
    let fast = par[1]["seconds"].as_f64().unwrap();
    assert!(slow >= 1.15 && fast < 0.8, "slow {slow} s, fast {fast} s");
}

#[test]
fn run_with_mcp_config_runs_one_program() {
    let Some(s) = servers() else { return };
    let cfg = config(
        "run",
        json!({"everything": everything(&s), "fixture": fixture(&s)}),
    );
    let prog = cfg.parent().unwrap().join("p.lua");
    std::fs::write(
        &prog,
        r#"return { tools.fixture.add({ a = 40, b = 2 }).sum, tools.everything.echo({ message = "hi" }) }"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&cfg)
        .arg(&prog)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(r["value"], json!([42, "Echo: hi"]), "{r}");
    // The same program in JavaScript (a .js file), both calls at once.
    let js = cfg.parent().unwrap().join("p.js");
    std::fs::write(
        &js,
        r#"const [sum, echo] = await Promise.all([tools.fixture.add({ a: 40, b: 2 }), tools.everything.echo({ message: "hi" })]);
return [sum.sum, echo];"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&cfg)
        .arg(&js)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(r["value"], json!([42, "Echo: hi"]), "{r}");
    // A bad config is a usage error (exit 2) with the key path.
    let bad = config("badrun", json!({"x": {"comand": "y"}}));
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&bad)
        .arg(&prog)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown key mcpServers.x.comand"), "{err}");
}

#[test]
fn run_over_server_everything_reached_by_streamable_http() {
    let Some(s) = servers() else { return };
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut everything = Command::new(s.join("npm/node_modules/.bin/mcp-server-everything"))
        .arg("streamableHttp")
        .env("PORT", port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "server-everything did not listen"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let cfg = config(
        "httpdown",
        json!({"remote": {"url": format!("http://127.0.0.1:{port}/mcp")}}),
    );
    let prog = cfg.parent().unwrap().join("p.lua");
    std::fs::write(
        &prog,
        r#"return { tools.remote["get-sum"]({ a = 5, b = 6 }), tools.remote.echo({ message = "over http" }) }"#,
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&cfg)
        .arg(&prog)
        .output()
        .unwrap();
    let _ = everything.kill();
    let _ = everything.wait();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(
        r["value"],
        json!(["The sum of 5 and 6 is 11.", "Echo: over http"]),
        "{r}"
    );
}

/// Needs only `python3` (the fixture server uses the standard library), so it always runs.
#[test]
fn run_with_mcp_config_adds_manifest_tools_and_config_limits() {
    let dir =
        std::env::temp_dir().join(format!("codemode-mcp-test-{}-manifest", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("mcp.json");
    std::fs::write(
        &cfg,
        json!({
            "mcpServers": {"fx": {"command": "python3",
                                  "args": [mcp_tests().join("fixtures/fixture_server.py")]}},
            "codemode": {"tools": [repo().join("examples/git-insights/tools.json")],
                         "limits": {"maxToolCalls": 2}}
        })
        .to_string(),
    )
    .unwrap();
    let program = r#"
local r = search({ limit = 50 })
local n = #r.items
return { n, tools.fx.add({ a = 1, b = 2 }).sum }"#;
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&cfg)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(program.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let r: Value = serde_json::from_str(stdout.trim())
        .unwrap_or_else(|_| panic!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    // 11 fixture tools + 4 manifest tools; maxToolCalls 2 from the config: search + one add.
    assert_eq!(r["value"], json!([15, 3]), "{r}");
    // A third call would exceed the config's limit.
    let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&cfg)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"tools.fx.pid() tools.fx.pid() return tools.fx.pid()")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["error"]["kind"], "ToolCallLimitExceeded", "{r}");
    assert_eq!(out.status.code(), Some(1));
}

/// `run --mcp-config` in JavaScript: a `.js` file, `--lang js`, or (for a program on stdin) the
/// config's `"language": "js"`; `--lang` and the file's extension win over the config. Needs
/// only `python3`, so it always runs.
#[test]
fn run_with_mcp_config_runs_javascript_programs() {
    let dir = std::env::temp_dir().join(format!("codemode-mcp-test-{}-js", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fx =
        json!({"command": "python3", "args": [mcp_tests().join("fixtures/fixture_server.py")]});
    let lua_cfg = dir.join("lua.json");
    std::fs::write(
        &lua_cfg,
        json!({"mcpServers": {"fx": fx},
               "codemode": {"tools": [repo().join("examples/git-insights/tools.json")]}})
        .to_string(),
    )
    .unwrap();
    let js_cfg = dir.join("js.json");
    std::fs::write(
        &js_cfg,
        json!({"mcpServers": {"fx": fx}, "codemode": {"language": "js"}}).to_string(),
    )
    .unwrap();
    std::fs::write(dir.join("note.txt"), "hello").unwrap();
    let run = |cfg: &Path, flags: &[&str], program: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .args(["run", "--mcp-config"])
            .arg(cfg)
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(program.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let r: Value = serde_json::from_str(stdout.trim())
            .unwrap_or_else(|_| panic!("{stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
        (out.status.code(), r)
    };
    let js = "const sums = await Promise.all([1, 2, 3].map((i) => tools.fx.add({ a: i, b: 10 })));\n\
              return sums.map((s) => s.sum);";
    // --lang js over a Lua config, with the config's manifest tools beside the server's.
    let (code, r) = run(&lua_cfg, &["--lang", "js", "-"], js);
    assert_eq!((code, &r["value"]), (Some(0), &json!([11, 12, 13])), "{r}");
    let (code, r) = run(
        &lua_cfg,
        &["--lang", "js", "-"],
        "const log = await tools.git.log({ limit: 1 });\nreturn [log.length, typeof log[0].hash];",
    );
    assert_eq!((code, &r["value"]), (Some(0), &json!([1, "string"])), "{r}");
    // The config's language for a program on stdin; a .lua file or --lang lua is still Lua.
    let (code, r) = run(&js_cfg, &["-"], js);
    assert_eq!((code, &r["value"]), (Some(0), &json!([11, 12, 13])), "{r}");
    let lua = "return tools.fx.add({ a = 1, b = 2 }).sum";
    let (code, r) = run(&js_cfg, &["--lang", "lua", "-"], lua);
    assert_eq!((code, &r["value"]), (Some(0), &json!(3)), "{r}");
    let p = dir.join("p.lua");
    std::fs::write(&p, lua).unwrap();
    let (code, r) = run(&js_cfg, &[p.to_str().unwrap()], "");
    assert_eq!((code, &r["value"]), (Some(0), &json!(3)), "{r}");
    // A Lua program in a JavaScript run is a ParseError located in the program.
    let (code, r) = run(&js_cfg, &["-"], lua);
    assert_eq!(code, Some(1), "{r}");
    assert_eq!(r["error"]["kind"], "ParseError", "{r}");
    // --allow-read beside the servers, in Node's names.
    let (code, r) = run(
        &js_cfg,
        &["--allow-read", dir.to_str().unwrap(), "-"],
        "const [text, sum] = await Promise.all([fs.promises.readFile('note.txt'), tools.fx.add({ a: 1, b: 1 })]);\n\
         return [text, fs.readFile('note.txt', 'utf8'), sum.sum];",
    );
    assert_eq!(
        (code, &r["value"]),
        (Some(0), &json!(["hello", "hello", 2])),
        "{r}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Servers that cannot start (a command that does not exist, one that exits at once): a program
/// run with `run --mcp-config` gets catchable ToolFailures naming each server and why, while the
/// working server answers. Needs only `python3`, so it always runs.
#[test]
fn run_with_mcp_config_reports_servers_that_cannot_start_as_tool_failures() {
    let dir = std::env::temp_dir().join(format!("codemode-mcp-test-{}-down", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("mcp.json");
    std::fs::write(
        &cfg,
        json!({"mcpServers": {
            "fx": {"command": "python3", "args": [mcp_tests().join("fixtures/fixture_server.py")]},
            "ghost": {"command": "/nonexistent/mcp-server"},
            "quitter": {"command": "sh", "args": ["-c", "echo 'quitter: MISSING_TOKEN is not set' >&2; exit 3"]}
        }})
        .to_string(),
    )
    .unwrap();
    let run_with = |flags: &[&str], program: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .arg("run")
            .args(flags)
            .arg("--mcp-config")
            .arg(&cfg)
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(program.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let r: Value =
            serde_json::from_str(stdout.trim()).unwrap_or_else(|_| panic!("{stdout}\n{stderr}"));
        (out.status.code(), r, stderr)
    };
    let run = |program: &str| run_with(&[], program);
    let retrying = |server: &str| {
        format!(
            ". codemode is retrying it in the background (5 attempts left; this call asked for one); continue without tools.{server} for now, or try again in a later execution."
        )
    };
    let ghost = format!(
        "tools.ghost.status cannot be called: MCP server 'ghost' could not be started (/nonexistent/mcp-server): No such file or directory (os error 2){}",
        retrying("ghost")
    );
    let quitter = format!(
        "tools.quitter.list cannot be called: MCP server 'quitter' (sh) exited before it answered 'initialize' (its last stderr lines: quitter: MISSING_TOKEN is not set){}",
        retrying("quitter")
    );
    let (code, r, stderr) = run(
        r#"local ok1, e1 = pcall(function() return tools.ghost.status() end)
local ok2, e2 = pcall(function() return tools.quitter.list({ all = true }) end)
return { ok1, e1, ok2, e2, tools.fx.add({ a = 40, b = 2 }).sum }"#,
    );
    assert_eq!(code, Some(0), "{r}\n{stderr}");
    assert_eq!(
        r["value"],
        json!([
            false,
            format!("input:1: {ghost}"),
            false,
            format!("input:2: {quitter}"),
            42
        ]),
        "{r}"
    );
    // The calls into the servers that failed are listed (and counted) too.
    assert_eq!(
        r["toolCalls"],
        json!([
            {"name": "ghost.status", "input": "[input not sent: its namespace is unavailable]", "status": "failure"},
            {"name": "quitter.list", "input": "[input not sent: its namespace is unavailable]", "status": "failure"},
            {"name": "fx.add", "input": {"a": 40, "b": 2}, "status": "success"}
        ])
    );
    // The Result warns about each server that failed to start, even when the run succeeds.
    let warned: Vec<&str> = r["warnings"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter(|w| w["kind"] == "ServerUnavailable")
                .filter_map(|w| w["message"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(warned.len(), 2, "{r}");
    assert!(
        warned[0].starts_with("MCP server 'ghost' could not be started")
            && warned[0].ends_with("(its tools were unavailable to this run)"),
        "{r}"
    );
    // Startup failures are reported on stderr too (not fatal).
    assert!(
        stderr.contains("codemode: MCP server 'ghost' could not be started"),
        "{stderr}"
    );
    assert!(
        stderr.contains("[quitter] quitter: MISSING_TOKEN is not set"),
        "{stderr}"
    );
    // Uncaught: the run fails (exit 1) with kind ToolFailure, the message and the position.
    let (code, r, _) =
        run("local a = tools.fx.add({ a = 1, b = 1 }).sum\nreturn tools.quitter.list()");
    assert_eq!(code, Some(1));
    assert_eq!(
        r["error"],
        json!({"kind": "ToolFailure", "message": quitter, "location": {"line": 2, "column": 21}}),
        "{r}"
    );
    // A server that never answers is bounded by the run's --timeout-ms, not only by its
    // startupTimeoutMs (30 s here).
    std::fs::write(
        &cfg,
        json!({"mcpServers": {
            "sleeper": {"command": "sh", "args": ["-c", "sleep 60"], "startupTimeoutMs": 30000}
        }})
        .to_string(),
    )
    .unwrap();
    let (_, r, _) = run_with(&["--timeout-ms", "700"], "return 1");
    assert_eq!(r["value"], json!(1), "{r}");
    assert!(
        r["warnings"][0]["message"]
            .as_str()
            .is_some_and(|m| m.contains("within 700 ms")),
        "{r}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `catalog` and `search` take `--mcp-config` like `run` (and `run --mcp-config` honours
/// `--allow-read`). Needs only `python3`, so it always runs.
#[test]
fn catalog_and_search_take_mcp_config() {
    let dir =
        std::env::temp_dir().join(format!("codemode-mcp-test-{}-discover", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cfg = dir.join("mcp.json");
    std::fs::write(
        &cfg,
        json!({
            "mcpServers": {
                "fx": {"command": "python3", "args": [mcp_tests().join("fixtures/fixture_server.py")]},
                "ghost": {"command": "/nonexistent/mcp-server"}
            },
            "codemode": {"tools": [repo().join("examples/git-insights/tools.json")],
                         "limits": {"maxToolCalls": 9}}
        })
        .to_string(),
    )
    .unwrap();
    let codemode = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
            .args(args)
            .arg("--mcp-config")
            .arg(&cfg)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    // catalog: the servers' and the config's manifest tools, the config's limits, the
    // unavailable server; flags override the config.
    let (code, text, err) = codemode(&["catalog", "--budget", "3000"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains("tools.fx.add({ a: integer, b: integer }) -> { sum: integer }"),
        "{text}"
    );
    assert!(text.contains("tools.git.log("), "{text}");
    assert!(text.contains("at most 9 tool calls"), "{text}");
    assert!(
        text.contains("Unavailable: tools.ghost: MCP server 'ghost' could not be started"),
        "{text}"
    );
    let (code, text, err) = codemode(&["catalog", "--max-tool-calls", "3"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.contains("at most 3 tool calls"), "{text}");
    // --lang js: the description `codemode mcp` gives with "language": "js" (the JavaScript
    // guide, TypeScript signatures of the servers' and the manifests' tools, the same limits
    // and unavailable servers).
    let (code, text, err) = codemode(&["catalog", "--lang", "js", "--budget", "3000"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(text.starts_with("Run a JavaScript program"), "{text}");
    assert!(
        text.contains("  tools.fx.echo(input: { text: string }): Promise<unknown>\n"),
        "{text}"
    );
    assert!(text.contains("  tools.git.log(input: {"), "{text}");
    assert!(text.contains("at most 9 tool calls"), "{text}");
    assert!(
        text.contains("Unavailable: tools.ghost: MCP server 'ghost' could not be started"),
        "{text}"
    );
    assert!(!text.contains(" -> "), "{text}");
    // search --lang js: TypeScript signatures.
    let (code, out, err) = codemode(&["search", "--lang", "js", "echo text", "--limit", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        v["items"][0]["signature"], "tools.fx.echo(input: { text: string }): Promise<unknown>",
        "{v}"
    );
    // search: one JSON line, same as the built-in.
    let (code, out, err) = codemode(&["search", "add two numbers", "--limit", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["items"][0]["path"], "fx.add", "{v}");
    assert_eq!(v["items"].as_array().unwrap().len(), 1);
    let (code, out, err) = codemode(&["search", "--namespace", "git", "--limit", "50"]);
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    let paths: Vec<&str> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["git.log", "git.show"], "{v}");
    let (code, out, err) = codemode(&["search", "--limit", "0"]);
    assert_eq!((code, out.as_str()), (Some(2), ""));
    assert_eq!(
        err.lines().last().unwrap(),
        "codemode: --limit must be an integer from 1 to 50; got 0."
    );
    // run --mcp-config --allow-read: the fs extension is there beside the servers.
    std::fs::write(dir.join("note.txt"), "hello").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_codemode"))
        .args(["run", "--mcp-config"])
        .arg(&cfg)
        .arg("--allow-read")
        .arg(&dir)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(
                br#"return { fs.read("note.txt"), tools.fx.add({ a = 1, b = 1 }).sum }"#,
            )?;
            c.wait_with_output()
        })
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["value"], json!(["hello", 2]), "{r}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `openssl` with `args` in `dir` (the test's certificates are made fresh each run).
fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the https test needs the openssl command to make its certificates");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An `https://` downstream for real: the Python SDK's MCP server under uvicorn with a
/// certificate from a private CA made here. Trusted through SSL_CERT_FILE (read by the
/// platform verifier of reqwest's rustls stack); without it, and on a closed port, the run
/// fails with a ToolFailure naming the server and the cause.
#[test]
fn https_downstream_with_a_private_ca() {
    let Some(s) = servers() else { return };
    let dir = std::env::temp_dir().join(format!("codemode-mcp-test-{}-tls", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
    ];
    openssl(
        &dir,
        &[
            &["req", "-x509"][..],
            &ec,
            &[
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem",
                "-days",
                "2",
                "-subj",
                "/CN=codemode test CA",
            ],
        ]
        .concat(),
    );
    openssl(
        &dir,
        &[
            &["req"][..],
            &ec,
            &[
                "-keyout",
                "leaf.key",
                "-out",
                "leaf.csr",
                "-subj",
                "/CN=localhost",
            ],
        ]
        .concat(),
    );
    std::fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        &dir,
        &[
            "x509",
            "-req",
            "-in",
            "leaf.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "leaf.pem",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
        ],
    );
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut server = Command::new(s.join("venv/bin/python"))
        .arg(mcp_tests().join("fixtures/https_server.py"))
        .arg(port.to_string())
        .arg(dir.join("leaf.pem"))
        .arg(dir.join("leaf.key"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "the https server did not listen"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let run = |url: &str, ca: Option<&Path>| {
        let cfg = dir.join("mcp.json");
        std::fs::write(
            &cfg,
            json!({"mcpServers": {"secure": {"url": url}}}).to_string(),
        )
        .unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_codemode"));
        cmd.args(["run", "--mcp-config"]).arg(&cfg).arg("-");
        cmd.env_remove("SSL_CERT_FILE").env_remove("SSL_CERT_DIR");
        if let Some(ca) = ca {
            cmd.env("SSL_CERT_FILE", ca);
        }
        let out = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                c.stdin.take().unwrap().write_all(
                    br#"local ok, e = pcall(function() return tools.secure.shout({ text = "over tls" }) end)
return { ok, e }"#,
                )?;
                c.wait_with_output()
            })
            .unwrap();
        let r: Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
        r["value"].clone()
    };
    let url = format!("https://localhost:{port}/mcp");
    let trusted = run(&url, Some(&dir.join("ca.pem")));
    let untrusted = run(&url, None);
    let _ = server.kill();
    let _ = server.wait();
    let closed = run(&url, None);
    assert_eq!(trusted, json!([true, {"result": "OVER TLS"}]));
    let retrying = ". codemode is retrying it in the background (5 attempts left; this call asked for one); continue without tools.secure for now, or try again in a later execution.";
    assert_eq!(
        untrusted,
        json!([
            false,
            format!(
                "input:1: tools.secure.shout cannot be called: MCP server 'secure' at {url} could not be reached: error sending request for url ({url}): client error (Connect): invalid peer certificate: UnknownIssuer; if the server uses a private certificate authority, set SSL_CERT_FILE to its PEM file{retrying}"
            )
        ])
    );
    assert_eq!(
        closed,
        json!([
            false,
            format!(
                "input:1: tools.secure.shout cannot be called: MCP server 'secure' at {url} could not be reached: error sending request for url ({url}): client error (Connect): tcp connect error: Connection refused (os error 111){retrying}"
            )
        ])
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Progress counts every call of an execution: manifest command tools from `codemode.tools`,
/// the built-in `search` and the servers' tools alike.
#[test]
fn progress_counts_manifest_tools_and_search() {
    let Some(s) = servers() else { return };
    let cfg = config("progress-all", json!({}));
    let dir = cfg.parent().unwrap().to_path_buf();
    std::fs::write(
        dir.join("tools.json"),
        json!({"tools": {"t.echo": {"description": "Echo the input.", "input": {"type": "object"},
            "command": ["python3", "-c", "import sys; sys.stdout.write(sys.stdin.read())"]}}})
        .to_string(),
    )
    .unwrap();
    std::fs::write(
        &cfg,
        json!({
            "mcpServers": {"fx": {"command": "python3",
                                  "args": [mcp_tests().join("fixtures/fixture_server.py")]}},
            "codemode": {"tools": [dir.join("tools.json")]}
        })
        .to_string(),
    )
    .unwrap();
    let mut step = execute(
        r#"local e = tools.t.echo({ x = 1 })
search({ query = "add" })
return e.x + tools.fx.add({ a = 1, b = 2 }).sum"#,
    );
    step["progress"] = json!(true);
    let out = client_stdio(&s, &cfg, json!([step]));
    assert_eq!(result(&out, 0)["value"], json!(4), "{out}");
    let progress = out["steps"][0]["progress"].as_array().unwrap();
    let messages: Vec<&str> = progress.iter().map(|p| p[2].as_str().unwrap()).collect();
    assert_eq!(
        messages,
        [
            "1 call done: t.echo",
            "2 calls done: search",
            "3 calls done: fx.add"
        ]
    );
}

/// A scratch directory for the approval tests: `tools.json` with `pay.refund` (appends its
/// input to `refunds.log`) and `pay.quote`, and `mcp.json` naming it, with `codemode` extras.
fn approval_setup(name: &str, codemode: Value) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "codemode-mcp-approve-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("refunds.log");
    let refund = format!(
        "cat >> '{}'; echo >> '{}'; echo '{{\"refunded\": true}}'",
        log.display(),
        log.display()
    );
    let manifest = json!({"tools": {
        "pay.refund": {"description": "Refund an order.", "input": {"type": "object"},
            "command": ["sh", "-c", refund]},
        "pay.quote": {"description": "Quote a refund.", "input": {"type": "object"},
            "command": ["sh", "-c", "cat > /dev/null; echo '{\"amount\": 42}'"]}
    }});
    std::fs::write(dir.join("tools.json"), manifest.to_string()).unwrap();
    let mut cm = json!({"tools": ["tools.json"]});
    cm.as_object_mut()
        .unwrap()
        .extend(codemode.as_object().unwrap().clone());
    let cfg = dir.join("mcp.json");
    std::fs::write(&cfg, json!({"mcpServers": {}, "codemode": cm}).to_string()).unwrap();
    (dir, cfg)
}

fn refunds(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("refunds.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const REFUND: &str = r#"local q = tools.pay.quote({ order = "o1" })
print("quoted " .. q.amount)
local ok, r = pcall(tools.pay.refund, { order = "o1", amount = q.amount })
print("refund", ok)
return { amount = q.amount, refunded = ok and r.refunded or r }"#;

/// `codemode mcp --config CFG EXTRA..` driven by the Python SDK client with `steps`.
fn client_with(s: &Path, cfg: &Path, extra: &[&str], steps: Value) -> Value {
    let mut args = vec![
        "stdio".to_string(),
        env!("CARGO_BIN_EXE_codemode").to_string(),
        "mcp".into(),
        "--config".into(),
        cfg.display().to_string(),
    ];
    args.extend(extra.iter().map(|a| a.to_string()));
    run_client(s, &args, steps)
}

fn resume_step(token: &Value, replies: Value) -> Value {
    json!({"op": "call", "name": "resume", "args": {"token": token, "replies": replies}})
}

#[test]
fn approval_pauses_execute_and_resume_runs_the_tool_once() {
    let Some(s) = servers() else { return };
    let (dir, cfg) = approval_setup("approve", json!({}));
    let out = client_with(
        &s,
        &cfg,
        &["--approve", "pay.refund"],
        json!([{"op": "list"}, execute(REFUND)]),
    );
    let names: Vec<&str> = out["steps"][0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["execute", "search", "resume"]);
    let paused = result(&out, 1);
    assert_eq!(paused["status"], json!("paused"), "{paused}");
    assert_eq!(out["steps"][1]["result"]["isError"], json!(false));
    assert_eq!(
        paused["pending"],
        json!([{"id": 2, "name": "pay.refund", "input": {"order": "o1", "amount": 42},
                "location": {"line": 3, "column": 20}}])
    );
    assert_eq!(paused["logs"], json!(["quoted 42"]));
    assert_eq!(
        paused["toolCalls"],
        json!([{"name": "pay.quote", "input": {"order": "o1"}, "status": "success"}])
    );
    let token = paused["resumeToken"].clone();
    assert_eq!(token.as_str().unwrap().len(), 32, "{token}");
    let text = out["steps"][1]["result"]["content"][0]["text"]
        .as_str()
        .unwrap();
    assert_eq!(&serde_json::from_str::<Value>(text).unwrap(), paused);
    assert!(refunds(&dir).is_empty(), "the refund waits for approval");

    // The memory store is the server's own: another server process does not know the token.
    let other = client_with(
        &s,
        &cfg,
        &["--approve", "pay.refund"],
        json!([resume_step(&token, json!({"2": {"approve": true}}))]),
    );
    let r = &other["steps"][0]["result"];
    assert_eq!(r["isError"], json!(true));
    assert!(
        r["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("no paused execution has the token"),
        "{r}"
    );
}

/// A `resume` of the token of step `from`.
fn resume_from(from: usize, replies: Value) -> Value {
    json!({"op": "call", "name": "resume", "args": {"replies": replies}, "token_from": from})
}

/// The text of step `i`'s reply (the message of a refused `resume`).
fn text(out: &Value, i: usize) -> &str {
    out["steps"][i]["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
}

#[test]
fn deny_mistakes_and_second_resumes_in_one_session() {
    let Some(s) = servers() else { return };
    let (dir, cfg) = approval_setup("session", json!({"approve": ["pay.refund"]}));
    let out = client_with(
        &s,
        &cfg,
        &[],
        json!([
            execute(REFUND),
            resume_from(0, json!({"2": {"deny": "refunds over 40 need a manager"}})),
            resume_from(0, json!({"2": {"approve": true}})),
            execute(REFUND),
            resume_from(3, json!({"7": {"approve": true}})),
            resume_from(3, json!({"2": {"approve": false}})),
            resume_from(3, json!({})),
            resume_from(3, json!({"2": {"approve": true}})),
            resume_from(3, json!({"2": {"approve": true}})),
            {"op": "call", "name": "resume", "args": {"token": "../../etc/passwd", "replies": {}}},
        ]),
    );
    // A denial: a catchable failure the program handles; the refund never ran.
    let denied = result(&out, 1);
    assert_eq!(denied["ok"], json!(true), "{}", out["steps"][1]);
    assert_eq!(
        denied["value"],
        json!({"amount": 42, "refunded": "refunds over 40 need a manager"})
    );
    assert_eq!(denied["toolCalls"][1]["status"], json!("denied"));
    assert_eq!(denied["logs"], json!(["quoted 42", "refund\tfalse"]));
    assert!(denied.get("resumeToken").is_none());
    // The same token again: refused.
    assert_eq!(out["steps"][2]["result"]["isError"], json!(true));
    assert!(
        text(&out, 2).contains("was resumed already; a token resumes once"),
        "{}",
        text(&out, 2)
    );
    // Mistakes in the replies are refused before the token is claimed.
    assert_eq!(
        text(&out, 4),
        "resume: \"7\" is not the id of a call this execution waits on; the pending call ids are 2."
    );
    assert!(
        text(&out, 5).contains(
            "has \"approve\" that is not true (to refuse it write {\"deny\": \"reason\"})"
        ),
        "{}",
        text(&out, 5)
    );
    assert!(
        text(&out, 6).starts_with("resume: no reply for pending call 2;"),
        "{}",
        text(&out, 6)
    );
    // Then the approval runs the refund, once.
    let approved = result(&out, 7);
    assert_eq!(
        approved["value"],
        json!({"amount": 42, "refunded": true}),
        "{approved}"
    );
    assert_eq!(approved["toolCalls"][1]["status"], json!("success"));
    assert!(
        text(&out, 8).contains("was resumed already"),
        "{}",
        text(&out, 8)
    );
    assert!(
        text(&out, 9).contains("is not a resume token"),
        "{}",
        text(&out, 9)
    );
    assert_eq!(refunds(&dir), [json!({"order": "o1", "amount": 42})]);
}

#[test]
fn a_value_reply_and_a_second_pause_under_a_new_token() {
    let Some(s) = servers() else { return };
    let (dir, cfg) = approval_setup("twice", json!({"approve": ["pay.*"]}));
    let out = client_with(
        &s,
        &cfg,
        &[],
        json!([
            execute(REFUND),
            resume_from(0, json!({"1": {"value": {"amount": 10}}})),
            resume_from(1, json!({"2": {"approve": true}})),
        ]),
    );
    assert_eq!(result(&out, 0)["pending"][0]["name"], json!("pay.quote"));
    let again = result(&out, 1);
    assert_eq!(again["status"], json!("paused"), "{again}");
    assert_eq!(again["pending"][0]["name"], json!("pay.refund"));
    assert_eq!(
        again["pending"][0]["input"],
        json!({"order": "o1", "amount": 10})
    );
    assert_ne!(again["resumeToken"], result(&out, 0)["resumeToken"]);
    let done = result(&out, 2);
    assert_eq!(
        done["value"],
        json!({"amount": 10, "refunded": true}),
        "{done}"
    );
    assert_eq!(done["logs"], json!(["quoted 10", "refund\ttrue"]));
    assert_eq!(refunds(&dir), [json!({"order": "o1", "amount": 10})]);
}

#[test]
fn a_restart_between_pause_and_resume_still_resumes() {
    let Some(s) = servers() else { return };
    for store in ["sqlite", "dir"] {
        let (dir, cfg) = approval_setup(&format!("restart-{store}"), json!({}));
        let spec = match store {
            "sqlite" => format!("sqlite:{}", dir.join("paused.db").display()),
            _ => format!("dir:{}", dir.join("paused").display()),
        };
        let flags = ["--approve", "pay.refund", "--snapshot-store", &spec];
        let first = client_with(&s, &cfg, &flags, json!([execute(REFUND), execute(REFUND)]));
        let token = result(&first, 0)["resumeToken"].clone();
        let tampered = result(&first, 1)["resumeToken"].clone();
        assert!(token.is_string(), "{store}: {first}");
        let key = match store {
            "sqlite" => dir.join("paused.db.key"),
            _ => dir.join("paused/key"),
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&key).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600, "{store}");
        }
        if store == "dir" {
            // A snapshot altered on disk (here its last byte, in the signature) is refused.
            let f = dir.join(format!("paused/{}.snapshot", tampered.as_str().unwrap()));
            let mut bytes = std::fs::read(&f).unwrap();
            let n = bytes.len();
            bytes[n - 1] ^= 1;
            std::fs::write(&f, bytes).unwrap();
        }
        // A new server process over the same store.
        let second = client_with(
            &s,
            &cfg,
            &flags,
            json!([
                resume_step(&token, json!({"2": {"approve": true}})),
                resume_step(&token, json!({"2": {"approve": true}})),
            ]),
        );
        let done = result(&second, 0);
        assert_eq!(
            done["value"],
            json!({"amount": 42, "refunded": true}),
            "{store}: {second}"
        );
        assert_eq!(done["logs"], json!(["quoted 42", "refund\ttrue"]));
        assert!(
            text(&second, 1).contains("was resumed already"),
            "{store}: {}",
            text(&second, 1)
        );
        // And a third: the claim is in the store, not in the process.
        let third = client_with(
            &s,
            &cfg,
            &flags,
            json!([resume_step(&token, json!({"2": {"approve": true}}))]),
        );
        assert!(
            text(&third, 0).contains("was resumed already"),
            "{store}: {}",
            text(&third, 0)
        );
        assert_eq!(
            refunds(&dir),
            [json!({"order": "o1", "amount": 42})],
            "{store}"
        );
        if store == "dir" {
            let out = client_with(
                &s,
                &cfg,
                &flags,
                json!([resume_step(&tampered, json!({"2": {"approve": true}}))]),
            );
            let r = result(&out, 0);
            assert_eq!(r["ok"], json!(false), "{out}");
            assert!(
                r["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("its signature does not match"),
                "{r}"
            );
            assert_eq!(refunds(&dir).len(), 1);
        }
    }
}
