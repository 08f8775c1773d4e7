//! The gateway in-process over the fixture MCP server (`tests/fixtures/fixture_server.py`, plain
//! `python3`, no packages): attachments of every media kind, startup failures, restarts, and a
//! downstream server reached over streamable HTTP (our own server, served in-process).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use codemode::CancellationToken;
use codemode_mcp::{Config, Gateway};
use serde_json::{Value, json};

fn fixture_cmd() -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture_server.py");
    json!({"command": "python3", "args": [script], "env": {"FIXTURE_PAGE_SIZE": "3"}, "timeoutMs": 2000})
}

fn config(servers: Value) -> Config {
    Config::parse(
        &json!({"mcpServers": servers}).to_string(),
        &PathBuf::from("/"),
    )
    .unwrap()
}

/// Serve `gw` over HTTP on a free loopback port: its address, the token that stops it, the task.
async fn serve_local(
    gw: Arc<Gateway>,
) -> (
    std::net::SocketAddr,
    CancellationToken,
    tokio::task::JoinHandle<Result<(), String>>,
) {
    let stop = CancellationToken::new();
    let (tx, rx) = tokio::sync::oneshot::channel();
    let serve = tokio::spawn(codemode_mcp::serve_http(
        gw,
        "127.0.0.1:0".parse().unwrap(),
        stop.clone(),
        move |addr| {
            let _ = tx.send(addr);
        },
    ));
    (rx.await.unwrap(), stop, serve)
}

async fn run(gw: &Gateway, code: &str) -> codemode_mcp::Execution {
    gw.execute(code, CancellationToken::new(), None).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn media_parts_become_attachments_and_broken_servers_are_reported() {
    let gw = Gateway::start(
        config(json!({"fx": fixture_cmd(), "broken": {"command": "/nonexistent/mcp-server"}})),
        None,
    )
    .await
    .unwrap();
    assert!(
        gw.problems()["broken"].starts_with("MCP server 'broken' could not be started"),
        "{:?}",
        gw.problems()
    );
    let paths: Vec<String> = gw.codemode().tools().paths().map(String::from).collect();
    assert_eq!(paths.len(), 11, "{paths:?}");
    assert!(paths.contains(&"fx.pid".to_string()));

    let progress: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let p2 = progress.clone();
    let exec = gw
        .execute(
            "local m = tools.fx.media() local n = tools.fx.add({ a = 1, b = 2 }) return { m, n.sum }",
            CancellationToken::new(),
            Some(Arc::new(move |n, path: &str| {
                p2.lock().unwrap().push(format!("{n} {path}"))
            })),
        )
        .await;
    assert_eq!(
        exec.result.value().unwrap(),
        &json!([[
            {"type": "image", "mimeType": "image/png", "attachment": 1},
            {"type": "audio", "mimeType": "audio/wav", "attachment": 2},
            {"type": "resource", "mimeType": "text/plain", "uri": "file:///notes.txt", "attachment": 3}
        ], 3])
    );
    assert_eq!(exec.attachments.len(), 3);
    assert_eq!(exec.attachments[0]["data"], "iVBORw0KGgo=");
    assert_eq!(exec.attachments[2]["resource"]["text"], "notes");
    assert_eq!(*progress.lock().unwrap(), ["1 fx.media", "2 fx.add"]);
    // Attachments are per execution: the next one numbers from 1 again.
    let again = run(&gw, "return tools.fx.media()[2].attachment").await;
    assert_eq!(again.result.value().unwrap(), &json!(2));
    let desc = gw.execute_description();
    assert!(desc.contains("Unavailable: tools.broken"), "{desc}");
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn progress_counts_host_tools_and_search_too() {
    let extend: codemode_mcp::gateway::Extend = Arc::new(|o: codemode::Options| {
        o.tool(
            "host.echo",
            codemode::Tool::new("Echo.", json!({}), |v| async move { Ok(v) }),
        )
    });
    let gw = Gateway::start(config(json!({"fx": fixture_cmd()})), Some(extend))
        .await
        .unwrap();
    let progress: Arc<std::sync::Mutex<Vec<String>>> = Arc::default();
    let p2 = progress.clone();
    let exec = gw
        .execute(
            "tools.host.echo({}) search({ query = \"add\" }) local n = tools.fx.add({ a = 1, b = 2 }) \
             pcall(tools.host.echo, 5) return n.sum",
            CancellationToken::new(),
            Some(Arc::new(move |n, path: &str| {
                p2.lock().unwrap().push(format!("{n} {path}"))
            })),
        )
        .await;
    assert_eq!(exec.result.value(), Some(&json!(3)), "{:?}", exec.result);
    assert_eq!(
        *progress.lock().unwrap(),
        ["1 host.echo", "2 search", "3 fx.add", "4 host.echo"]
    );
    gw.shutdown().await;
}

/// The TypeScript signature of the fixture's `add` (pretty style, as `search` and the catalog
/// give it).
const ADD_TS: &str = "tools.fx.add(input: {\n  /** @integer */\n  a: number;\n  /** @integer */\n  b: number;\n}): Promise<{\n  /** @integer */\n  sum: number;\n}>";

/// `"codemode": {"language": "js"}`: JavaScript programs over the servers, the `execute`
/// description and `search` in JavaScript's words and TypeScript signatures.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_javascript_gateway_runs_javascript_and_describes_it() {
    let cfg = Config::parse(
        &json!({"mcpServers": {"fx": fixture_cmd()}, "codemode": {"language": "js"}}).to_string(),
        &PathBuf::from("/"),
    )
    .unwrap();
    let gw = Gateway::start(cfg, None).await.unwrap();
    assert_eq!(gw.language(), codemode::Language::JavaScript);
    let exec = run(
        &gw,
        "const [x, y] = await Promise.all([tools.fx.add({ a: 40, b: 2 }), tools.fx.add({ a: 1, b: 2 })]);\n\
         const page = search({ query: 'add two integers', limit: 1 });\n\
         return [x.sum + y.sum, page.items[0].signature];",
    )
    .await;
    assert_eq!(
        exec.result.value(),
        Some(&json!([45, ADD_TS])),
        "{}",
        exec.result.to_json_string()
    );
    // A Lua program is a parse error in a JavaScript gateway.
    let lua = run(&gw, "local n = tools.fx.add({ a = 1, b = 2 }) return n.sum").await;
    assert_eq!(
        lua.result.error().map(|e| e.kind),
        Some(codemode::DiagnosticKind::ParseError),
        "{}",
        lua.result.to_json_string()
    );
    let desc = gw.execute_description();
    assert!(desc.starts_with("Run a JavaScript program"), "{desc}");
    let listed: Vec<String> = ADD_TS.lines().map(|l| format!("  {l}")).collect();
    assert!(desc.contains(&listed.join("\n")), "{desc}");
    // The gateway's `search` (the MCP `search` tool) answers in the same notation.
    let page = gw.search(&json!({"query": "fx.add"})).unwrap();
    assert_eq!(page["items"][0]["signature"], json!(ADD_TS));
    assert_eq!(
        gw.search(&json!("add")).unwrap_err(),
        "search expects one object such as search({ query: \"list issues\" }); got the string \"add\"."
    );
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_server_restarts_at_most_three_times() {
    let gw = Gateway::start(config(json!({"fx": fixture_cmd()})), None)
        .await
        .unwrap();
    let mut pids = Vec::new();
    for _ in 0..4 {
        let r = run(
            &gw,
            "local p = tools.fx.pid().pid local ok, e = pcall(tools.fx.crash) return { p, ok, e }",
        )
        .await;
        let v = r.result.value().unwrap().clone();
        assert_eq!(v[1], json!(false));
        pids.push(v[0].as_i64().unwrap());
    }
    pids.dedup();
    assert_eq!(pids.len(), 4, "each run starts on a new process: {pids:?}");
    let r = run(&gw, "return tools.fx.pid()").await;
    let e = r.result.error().unwrap();
    assert_eq!(e.kind.as_str(), "ToolFailure");
    assert!(
        e.message.starts_with(
            "MCP server 'fx' is not running: it stopped and was already restarted 3 times"
        ),
        "{}",
        e.message
    );
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_downstream_server_over_streamable_http() {
    // Gateway A (over the fixture) served over HTTP; gateway B uses it as a `url` server.
    let a = Gateway::start(config(json!({"fx": fixture_cmd()})), None)
        .await
        .unwrap();
    let (addr, stop, serve) = serve_local(a.clone()).await;
    let b = Gateway::start(
        config(json!({"inner": {"url": format!("http://{addr}/mcp"), "headers": {"X-Test": "1"}}})),
        None,
    )
    .await
    .unwrap();
    assert!(b.problems().is_empty(), "{:?}", b.problems());
    let paths: Vec<String> = b.codemode().tools().paths().map(String::from).collect();
    assert_eq!(paths, ["inner.execute", "inner.search"]);
    let r = run(
        &b,
        r#"local r = tools.inner.execute({ code = "return tools.fx.add({ a = 20, b = 22 }).sum" })
           return r.value"#,
    )
    .await;
    assert_eq!(
        r.result.value(),
        Some(&json!(42)),
        "{}",
        r.result.to_json_string()
    );
    // The inner execute's failure comes back as isError → ToolFailure with the Result text.
    let r = run(
        &b,
        r#"return tools.inner.execute({ code = "error('boom')" })"#,
    )
    .await;
    let e = r.result.error().unwrap();
    assert_eq!(e.kind.as_str(), "ToolFailure");
    assert!(e.message.contains("boom"), "{}", e.message);
    b.shutdown().await;
    stop.cancel();
    let _ = serve.await;
    a.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_failed_to_start_is_retried_in_the_background() {
    let dir = std::env::temp_dir().join(format!("codemode-mcp-late-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("late_server.py");
    let _ = std::fs::remove_file(&script);
    let gw = Gateway::start(
        config(json!({"late": {"command": "python3", "args": [script]}})),
        None,
    )
    .await
    .unwrap();
    assert!(gw.problems().contains_key("late"), "{:?}", gw.problems());
    assert_eq!(gw.codemode().tools().len(), 0);
    let changed = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let c2 = changed.clone();
    gw.on_change(Arc::new(move || {
        c2.store(true, std::sync::atomic::Ordering::SeqCst)
    }));
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture_server.py"),
        &script,
    )
    .unwrap();
    // The first retry comes after STARTUP_RETRY_PAUSES[0] (5 s).
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while !changed.load(std::sync::atomic::Ordering::SeqCst) && std::time::Instant::now() < deadline
    {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(gw.problems().is_empty(), "{:?}", gw.problems());
    let r = run(&gw, "return tools.late.add({ a = 2, b = 3 }).sum").await;
    assert_eq!(r.result.value(), Some(&json!(5)));
    gw.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_an_execution_cancels_the_downstream_call() {
    let gw = Gateway::start(config(json!({"fx": fixture_cmd()})), None)
        .await
        .unwrap();
    let cancel = CancellationToken::new();
    let c2 = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        c2.cancel();
    });
    let t = std::time::Instant::now();
    let r = gw
        .execute("return tools.fx.sleep({ ms = 1800 })", cancel, None)
        .await;
    assert!(t.elapsed() < std::time::Duration::from_millis(1000));
    assert_eq!(
        r.result.error().unwrap().message,
        "Execution was cancelled by the host."
    );
    assert_eq!(
        r.result.tool_calls[0].status,
        codemode::ToolCallStatus::Interrupted
    );
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let r = run(&gw, "return tools.fx.cancelled().count").await;
    assert_eq!(
        r.result.value(),
        Some(&json!(1)),
        "{}",
        r.result.to_json_string()
    );
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_to_servers_that_failed_to_start_are_tool_failures_and_ask_for_retries() {
    // `ghost`: the command does not exist; `quitter`: exits at once, saying why on stderr.
    let gw = Gateway::start(
        config(json!({
            "fx": fixture_cmd(),
            "ghost": {"command": "/nonexistent/mcp-server"},
            "quitter": {"command": "sh", "args": ["-c", "echo 'quitter: MISSING_TOKEN is not set' >&2; exit 3"]}
        })),
        None,
    )
    .await
    .unwrap();
    let started = std::time::Instant::now();
    let ghost_why = "MCP server 'ghost' could not be started (/nonexistent/mcp-server): No such file or directory (os error 2)";
    let retrying = |server: &str, left: u32| {
        format!(
            ". codemode is retrying it in the background ({left} attempts left; this call asked for one); continue without tools.{server} for now, or try again in a later execution."
        )
    };
    // One program: both broken servers fail catchably, the working server answers.
    let r = run(
        &gw,
        r#"local ok1, e1 = pcall(function() return tools.ghost.search({ q = "x" }) end)
local ok2, e2 = pcall(function() return tools.quitter["list-items"]() end)
return { ok1, e1, ok2, e2, tools.fx.add({ a = 1, b = 2 }).sum }"#,
    )
    .await;
    let v = r.result.value().expect("ok").clone();
    assert_eq!(v[0], json!(false));
    assert_eq!(
        v[1].as_str().unwrap(),
        format!(
            "input:1: tools.ghost.search cannot be called: {ghost_why}{}",
            retrying("ghost", 5)
        )
    );
    assert_eq!(v[2], json!(false));
    let e2 = v[3].as_str().unwrap();
    assert_eq!(
        e2,
        format!(
            r#"input:2: tools.quitter["list-items"] cannot be called: MCP server 'quitter' (sh) exited before it answered 'initialize' (its last stderr lines: quitter: MISSING_TOKEN is not set){}"#,
            retrying("quitter", 5)
        )
    );
    assert_eq!(v[4], json!(3));
    // Only fx.add reached a server; the calls into the broken ones are listed as failures.
    let calls: Vec<(&str, codemode::ToolCallStatus)> = r
        .result
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.status))
        .collect();
    assert_eq!(
        calls,
        vec![
            ("ghost.search", codemode::ToolCallStatus::Failure),
            ("quitter.list-items", codemode::ToolCallStatus::Failure),
            ("fx.add", codemode::ToolCallStatus::Success)
        ]
    );

    // Uncaught: the execution fails with kind ToolFailure at the call's position.
    let r = run(&gw, "local n = 1\nreturn tools.ghost.search({ q = 'x' })").await;
    let e = r.result.error().expect("failure");
    assert_eq!(e.kind.as_str(), "ToolFailure");
    assert_eq!(
        e.message,
        format!(
            "tools.ghost.search cannot be called: {ghost_why}{}",
            retrying("ghost", 5)
        )
    );
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((2, 19)));

    // The calls asked for a retry: it comes CALL_RETRY_GAP (2 s) after the start instead of
    // after the 5 s background pause, and its failure updates the message.
    loop {
        let r = run(&gw, "return tools.ghost.search({})").await;
        let m = r.result.error().unwrap().message.clone();
        if m.ends_with(&retrying("ghost", 4)) {
            break;
        }
        assert!(
            started.elapsed() < codemode_mcp::gateway::STARTUP_RETRY_PAUSES[0],
            "no early retry: {m}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Bounded: calls in a loop make at most MAX_STARTUP_RETRIES attempts, CALL_RETRY_GAP apart.
    let exhausted = format!(
        "tools.ghost.search cannot be called: {ghost_why}. It was retried 5 times without success and is not retried again; continue without tools.ghost."
    );
    loop {
        let r = run(&gw, "return tools.ghost.search({})").await;
        if r.result.error().unwrap().message == exhausted {
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(25),
            "{}",
            r.result.to_json_string()
        );
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    assert!(
        started.elapsed() >= std::time::Duration::from_secs(10),
        "5 retries at least 2 s apart"
    );
    assert!(
        gw.execute_description()
            .contains("Unavailable: tools.ghost: ")
    );
    let r = run(&gw, "return tools.fx.add({ a = 2, b = 2 }).sum").await;
    assert_eq!(r.result.value(), Some(&json!(4)));
    gw.shutdown().await;
}

/// The status of a raw `POST /mcp` with `body`, and `Origin: origin` when given.
async fn post_status(addr: std::net::SocketAddr, origin: Option<&str>, body: &str) -> u16 {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let origin = origin.map_or(String::new(), |o| format!("Origin: {o}\r\n"));
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{origin}Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = [0u8; 12];
    s.read_exact(&mut head).await.unwrap();
    std::str::from_utf8(&head[9..12]).unwrap().parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_refuses_foreign_origins_and_answers_malformed_json_with_400() {
    let config = Config::parse(
        &json!({"mcpServers": {}, "codemode": {"allowedOrigins": ["http://app.example:3000"]}})
            .to_string(),
        &PathBuf::from("/"),
    )
    .unwrap();
    let gw = Gateway::start(config, None).await.unwrap();
    let (addr, stop, serve) = serve_local(gw.clone()).await;
    let own = format!("http://localhost:{}", addr.port());
    assert_eq!(post_status(addr, None, "{not json").await, 400);
    assert_eq!(
        post_status(addr, Some("http://evil.example"), "{}").await,
        403
    );
    assert_eq!(
        post_status(addr, Some("http://app.example:3001"), "{}").await,
        403
    );
    assert_eq!(
        post_status(addr, Some("http://app.example:3000"), "{not json").await,
        400
    );
    assert_eq!(post_status(addr, Some(&own), "{not json").await, 400);
    stop.cancel();
    let _ = serve.await;
    gw.shutdown().await;
}

/// `POST /mcp` of `body` with `session`, returning the raw response (headers and body) read
/// until `until` appears or the stream ends (at most 10 s).
async fn post_raw(
    addr: std::net::SocketAddr,
    session: Option<&str>,
    body: &Value,
    until: &str,
) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let session = session.map_or(String::new(), |id| {
        format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-06-18\r\n")
    });
    let req = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n{session}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while !String::from_utf8_lossy(&got).contains(until) {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_execute_is_answered_with_its_tool_calls() {
    let gw = Gateway::start(config(json!({"fx": fixture_cmd()})), None)
        .await
        .unwrap();
    let (addr, stop, serve) = serve_local(gw.clone()).await;
    let init = post_raw(
        addr,
        None,
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}),
        "\"id\":1",
    )
    .await;
    let session = init
        .lines()
        .find_map(|l| {
            l.strip_prefix("mcp-session-id: ")
                .or_else(|| l.strip_prefix("Mcp-Session-Id: "))
        })
        .unwrap_or_else(|| panic!("{init}"))
        .trim()
        .to_string();
    post_raw(
        addr,
        Some(&session),
        &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        "HTTP/1.1 202",
    )
    .await;
    let call = tokio::spawn({
        let session = session.clone();
        async move {
            post_raw(
                addr,
                Some(&session),
                &json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
                    "name": "execute",
                    "arguments": {"code": "tools.fx.add({ a = 1, b = 2 }) return tools.fx.sleep({ ms = 1800 })"}}}),
                "toolCalls",
            )
            .await
        }
    });
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    post_raw(
        addr,
        Some(&session),
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 7, "reason": "user"}}),
        "HTTP/1.1 202",
    )
    .await;
    let t = std::time::Instant::now();
    let reply = call.await.unwrap();
    assert!(
        t.elapsed() < std::time::Duration::from_millis(1000),
        "answered when cancelled, not after the sleep"
    );
    let data = reply
        .lines()
        .find_map(|l| l.strip_prefix("data: ").filter(|d| d.contains("toolCalls")))
        .unwrap_or_else(|| panic!("no response to the cancelled execute: {reply}"));
    let msg: Value = serde_json::from_str(data).unwrap();
    let result = &msg["result"]["structuredContent"];
    assert_eq!(msg["id"], json!(7));
    assert_eq!(
        result["error"]["message"],
        json!("Execution was cancelled by the host.")
    );
    assert_eq!(result["toolCalls"][0]["status"], json!("success"));
    assert_eq!(result["toolCalls"][1]["status"], json!("interrupted"));
    stop.cancel();
    let _ = serve.await;
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_execute_is_answered_over_stdio_too() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let gw = Gateway::start(config(json!({"fx": fixture_cmd()})), None)
        .await
        .unwrap();
    let (client, server) = tokio::io::duplex(1 << 20);
    let (server_read, server_write) = tokio::io::split(server);
    let serve = tokio::spawn(codemode_mcp::serve_io(
        gw.clone(),
        server_read,
        server_write,
    ));
    let (client_read, mut client_write) = tokio::io::split(client);
    let mut lines = tokio::io::BufReader::new(client_read).lines();
    let mut send = async |v: Value| {
        client_write
            .write_all(format!("{v}\n").as_bytes())
            .await
            .unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "1"}}}),
    )
    .await;
    lines.next_line().await.unwrap().unwrap();
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).await;
    send(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "execute",
        "arguments": {"code": "tools.fx.add({ a = 1, b = 2 }) return tools.fx.sleep({ ms = 1800 })"}}}))
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 7, "reason": "user"}}),
    )
    .await;
    let line = tokio::time::timeout(std::time::Duration::from_millis(1000), async {
        loop {
            let l = lines.next_line().await.unwrap().unwrap();
            if l.contains("toolCalls") {
                return l;
            }
        }
    })
    .await
    .expect("the cancelled execute is answered at once");
    let msg: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(msg["id"], json!(7));
    let result = &msg["result"]["structuredContent"];
    assert_eq!(
        result["error"]["message"],
        json!("Execution was cancelled by the host.")
    );
    assert_eq!(result["toolCalls"][1]["status"], json!("interrupted"));
    serve.abort();
    gw.shutdown().await;
}

/// `gw.resume(token, replies)` without cancellation or progress.
async fn resume(
    gw: &Gateway,
    token: &str,
    replies: &Value,
) -> Result<codemode_mcp::Execution, String> {
    gw.resume(token, replies, CancellationToken::new(), None)
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_pattern_that_matches_no_tool_is_reported() {
    let mut fx = fixture_cmd();
    fx["approve"] = json!(["adn", "ad*"]);
    let doc = json!({"mcpServers": {"fx": fx}, "codemode": {"approve": ["fx.echo", "fx.nope.*"]}});
    let gw = Gateway::start(
        Config::parse(&doc.to_string(), Path::new("/")).unwrap(),
        None,
    )
    .await
    .unwrap();
    let mut unmatched = gw.unmatched_approvals();
    unmatched.sort();
    assert_eq!(unmatched, ["fx.adn", "fx.nope.*"]);
    gw.shutdown().await;
}

#[tokio::test]
async fn a_server_s_approve_list_pauses_its_calls_and_resume_runs_them() {
    let mut fx = fixture_cmd();
    fx["approve"] = json!(["add"]);
    let dir = std::env::temp_dir().join(format!("codemode-gw-approve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let doc = json!({"mcpServers": {"fx": fx},
                     "codemode": {"snapshotStore": format!("dir:{}", dir.display())}});
    let gw = Gateway::start(
        Config::parse(&doc.to_string(), Path::new("/")).unwrap(),
        None,
    )
    .await
    .unwrap();
    assert!(gw.approvals());
    assert_eq!(gw.unmatched_approvals(), Vec::<String>::new());
    let desc = gw.execute_description();
    assert!(
        desc.ends_with("\nNeeds approval: fx.add (`*`: any characters). A call to one of these pauses the program: execute returns \"status\": \"paused\" with the pending calls and a \"resumeToken\"; the tool `resume` continues it once the calls are approved or denied.\n"),
        "{desc}"
    );
    let code = "local e = tools.fx.echo({ text = 'hi' }) \
                local ok, s = pcall(tools.fx.add, { a = 1, b = 2 }) \
                return { e, ok, ok and s.sum or s }";
    let p = run(&gw, code).await;
    let paused = p.result.paused.as_ref().expect("paused");
    assert_eq!(paused.pending[0].name, "fx.add");
    assert_eq!(paused.pending[0].input, json!({"a": 1, "b": 2}));
    let token = p.resume_token.clone().unwrap();
    assert!(dir.join(format!("{token}.snapshot")).exists());
    let id = paused.pending[0].id.to_string();

    // Replies that do not fit are refused, and the token stays usable.
    let e = resume(&gw, &token, &json!({id.clone(): {"run": true}}))
        .await
        .unwrap_err();
    assert_eq!(
        e,
        format!(
            "resume: the reply to call {id} has the unknown key \"run\"; write {{\"approve\": true}} (run the call), {{\"deny\": \"reason\"}}, {{\"value\": <the call's result>}} or {{\"error\": \"message\"}}."
        )
    );
    let e = resume(&gw, &token, &json!([1])).await.unwrap_err();
    assert!(
        e.starts_with("resume: \"replies\" must be an object"),
        "{e}"
    );
    let done = resume(&gw, &token, &json!({id.clone(): {"approve": true}}))
        .await
        .unwrap();
    assert_eq!(
        done.result.value(),
        Some(&json!(["hi", true, 3])),
        "{:?}",
        done.result
    );
    assert!(done.resume_token.is_none());
    assert!(dir.join(format!("{token}.claimed")).exists());
    let e = resume(&gw, &token, &json!({id: {"approve": true}}))
        .await
        .unwrap_err();
    assert!(e.contains("was resumed already"), "{e}");

    // An error reply: a catchable failure, listed as such.
    let p = run(&gw, code).await;
    let token = p.resume_token.unwrap();
    let done = resume(&gw, &token, &json!({"2": {"error": "the adder is down"}}))
        .await
        .unwrap();
    assert_eq!(
        done.result.value(),
        Some(&json!(["hi", false, "the adder is down"]))
    );
    assert_eq!(
        done.result.tool_calls[1].status,
        codemode::ToolCallStatus::Failure
    );

    // A snapshot moved under another token is refused (its id is not the token), and one put
    // back beside its claim record does not resume again.
    let a = run(&gw, code).await.resume_token.unwrap();
    let b = run(&gw, code).await.resume_token.unwrap();
    let a_bytes = std::fs::read(dir.join(format!("{a}.snapshot"))).unwrap();
    std::fs::write(dir.join(format!("{b}.snapshot")), &a_bytes).unwrap();
    let e = resume(&gw, &b, &json!({"2": {"approve": true}}))
        .await
        .unwrap_err();
    assert!(e.contains("belongs to another execution"), "{e}");
    resume(&gw, &a, &json!({"2": {"approve": true}}))
        .await
        .unwrap();
    std::fs::write(dir.join(format!("{a}.snapshot")), &a_bytes).unwrap();
    let e = resume(&gw, &a, &json!({"2": {"approve": true}}))
        .await
        .unwrap_err();
    assert!(e.contains("was resumed already"), "{e}");

    // A stored snapshot replaced by other bytes: refused on resume, saying why.
    let p = run(&gw, code).await;
    let token = p.resume_token.unwrap();
    std::fs::write(dir.join(format!("{token}.snapshot")), b"garbage").unwrap();
    let r = resume(&gw, &token, &json!({"2": {"approve": true}}))
        .await
        .unwrap()
        .result;
    assert_eq!(
        r.error().map(|e| e.message.as_str()),
        Some("The snapshot cannot be resumed: these bytes are not a codemode snapshot.")
    );
    gw.shutdown().await;
}

#[tokio::test]
async fn a_pause_the_store_cannot_keep_says_what_ran() {
    let mut fx = fixture_cmd();
    fx["approve"] = json!(["add"]);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("gw-unwritable-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let doc = json!({"mcpServers": {"fx": fx},
                     "codemode": {"snapshotStore": format!("dir:{}", dir.display())}});
    let gw = Gateway::start(
        Config::parse(&doc.to_string(), Path::new("/")).unwrap(),
        None,
    )
    .await
    .unwrap();
    // The store's directory goes away after startup: the snapshot cannot be written.
    std::fs::remove_dir_all(&dir).unwrap();
    let p = run(
        &gw,
        "tools.fx.echo({ text = 'hi' }) return tools.fx.add({ a = 1, b = 2 })",
    )
    .await;
    assert!(p.resume_token.is_none(), "{}", p.result.to_json_string());
    assert!(p.result.paused.is_none());
    let m = p.result.outcome.as_ref().unwrap_err().message.clone();
    assert!(
        m.starts_with("The execution paused for approval of fx.add but cannot be kept: "),
        "{m}"
    );
    assert!(
        m.contains("fx.add did not run; the 1 call(s) before it in toolCalls did run."),
        "{m}"
    );
    let calls: Vec<_> = p
        .result
        .tool_calls
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(calls, ["fx.echo"]);
}

/// A JavaScript gateway pauses at an approval tool inside `Promise.all` (another call in
/// flight beside it) and `resume` continues it: an approval runs the tool, a denial is a
/// catchable failure.
#[tokio::test]
async fn a_javascript_execute_pauses_at_an_approval_tool_and_resumes() {
    let mut fx = fixture_cmd();
    fx["approve"] = json!(["add"]);
    let doc = json!({"mcpServers": {"fx": fx}, "codemode": {"language": "js"}});
    let gw = Gateway::start(
        Config::parse(&doc.to_string(), Path::new("/")).unwrap(),
        None,
    )
    .await
    .unwrap();
    let code = "const [e, s] = await Promise.all([tools.fx.echo({ text: 'hi' }), \
                tools.fx.add({ a: 1, b: 2 }).then((r) => r.sum, (err) => err.message)]); \
                return [e, s];";
    let p = run(&gw, code).await;
    let paused = p.result.paused.as_ref().expect("paused");
    assert_eq!(paused.pending[0].name, "fx.add");
    assert_eq!(paused.pending[0].input, json!({"a": 1, "b": 2}));
    let token = p.resume_token.clone().unwrap();
    let id = paused.pending[0].id.to_string();
    let done = resume(&gw, &token, &json!({id.clone(): {"approve": true}}))
        .await
        .unwrap();
    assert_eq!(
        done.result.value(),
        Some(&json!(["hi", 3])),
        "{:?}",
        done.result
    );
    let p = run(&gw, code).await;
    let token = p.resume_token.unwrap();
    let done = resume(
        &gw,
        &token,
        &json!({id: {"deny": "adding needs a manager"}}),
    )
    .await
    .unwrap();
    assert_eq!(
        done.result.value(),
        Some(&json!(["hi", "adding needs a manager"]))
    );
    gw.shutdown().await;
}
