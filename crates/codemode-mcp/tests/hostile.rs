//! Hostile downstream servers (`tests/fixtures/hostile_server.py`, plain `python3`): endless
//! paging, silent listing, huge replies, attachment floods and unreadable replies each end in a
//! bounded outcome. Where the danger is memory, the scenario runs in a child process (this test
//! binary again, selected by `HOSTILE_SCENARIO`) whose peak RSS (`VmHWM`) is asserted.
//! Unreadable replies, a reply of 450,000 parts and an attachment flood are also sent over
//! streamable HTTP, as JSON bodies and as SSE events, by a server in this file ([`hostile_http`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::CancellationToken;
use codemode_mcp::{Config, Gateway};
use serde_json::{Value, json};

fn hostile(list: &str) -> Value {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile_server.py");
    json!({"command": "python3", "args": [script], "env": {"HOSTILE_LIST": list}, "timeoutMs": 10000})
}

fn config(doc: Value) -> Config {
    Config::parse(&doc.to_string(), &PathBuf::from("/")).unwrap()
}

async fn run(gw: &Gateway, code: &str) -> codemode_mcp::Execution {
    gw.execute(code, CancellationToken::new(), None).await
}

/// Peak resident set of this process, in bytes.
fn peak_rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = s.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace()
        .nth(1)
        .unwrap()
        .parse::<u64>()
        .unwrap()
        * 1024
}

/// Run `scenario` in a child process (this test binary, test `test`); returns what the child
/// printed after `OUT:` and its peak RSS.
fn in_child(test: &str, scenario: &str) -> (Value, u64) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env("HOSTILE_SCENARIO", scenario)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.split_once("OUT:").map(|(_, out)| out))
        .unwrap_or_else(|| {
            panic!(
                "child printed no result: {stdout} {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let v: Value = serde_json::from_str(line).unwrap();
    let rss = v["rss"].as_u64().unwrap();
    (v, rss)
}

/// In the child: run `code` with a 1 MiB memory limit over the normal hostile server and print
/// the Result, the attachments kept and the peak RSS.
async fn child_scenario(code: &str, extra: Value) {
    child_scenario_over(hostile("normal"), code, extra).await
}

/// [`child_scenario`] with `tools.h` served by `server`.
async fn child_scenario_over(server: Value, code: &str, extra: Value) {
    let mut doc = json!({"mcpServers": {"h": server},
                         "codemode": {"limits": {"maxMemoryBytes": 1048576, "timeoutMs": 60000}}});
    if let Some(m) = extra.as_object() {
        for (k, v) in m {
            doc["codemode"][k] = v.clone();
        }
    }
    let gw = Gateway::start(config(doc), None).await.unwrap();
    let exec = run(&gw, code).await;
    let kept: Vec<u64> = exec
        .attachments
        .iter()
        .map(|a| a["data"].as_str().map_or(0, str::len) as u64)
        .collect();
    let out = json!({"result": exec.result.to_json_value(), "kept": kept, "rss": peak_rss()});
    println!("OUT:{out}");
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endless_paging_makes_the_server_unavailable_and_the_others_work() {
    let gw = tokio::time::timeout(
        Duration::from_secs(30),
        Gateway::start(
            config(json!({"mcpServers": {"endless": hostile("endless"), "h": hostile("normal")}})),
            None,
        ),
    )
    .await
    .expect("the start ends: paging is bounded")
    .unwrap();
    let why = &gw.problems()["endless"];
    assert!(
        why.contains("more than 100 pages of tools/list (MAX_LIST_PAGES)"),
        "{why}"
    );
    let r = run(&gw, "return tools.h.ok()").await;
    assert_eq!(r.result.value(), Some(&json!("ok")));
    let r = run(&gw, "return tools.endless.t1()").await;
    let e = r.result.error().unwrap();
    assert_eq!(e.kind.as_str(), "ToolFailure");
    assert!(e.message.contains("MAX_LIST_PAGES"), "{}", e.message);
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_tools_or_too_many_bytes_of_them_make_the_server_unavailable() {
    let gw = Gateway::start(
        config(
            json!({"mcpServers": {"many": hostile("many"), "fat": hostile("fat"),
                                     "h": hostile("normal")}}),
        ),
        None,
    )
    .await
    .unwrap();
    let p = gw.problems();
    assert_eq!(
        p["many"],
        "MCP server 'many' answered tools/list with a reply that could not be read: it lists 10001 tools, more than the 10000 one server may list (MAX_LISTED_TOOLS): it is left out"
    );
    assert_eq!(
        p["fat"],
        "MCP server 'fat' lists more than 16777216 bytes of tool definitions (MAX_LIST_BYTES): it is left out"
    );
    let r = run(&gw, "return tools.h.ok()").await;
    assert_eq!(r.result.value(), Some(&json!("ok")));
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_of_400000_tools_is_refused_with_bounded_memory() {
    let test = "a_page_of_400000_tools_is_refused_with_bounded_memory";
    // In a child: start with the horde server over `via` beside a normal one, print its problem,
    // a call to the other and the peak RSS.
    if let Ok(via) = std::env::var("HOSTILE_SCENARIO") {
        let horde = match via.as_str() {
            "stdio" => hostile("horde"),
            "json" | "sse" => {
                let (addr, _) = hostile_http().await;
                json!({"url": format!("http://{addr}/{via}-horde/mcp")})
            }
            _ => return,
        };
        let gw = Gateway::start(
            config(json!({"mcpServers": {"horde": horde, "h": hostile("normal")}})),
            None,
        )
        .await
        .unwrap();
        let ok = run(&gw, "return tools.h.ok()").await.result.to_json_value();
        let out = json!({"problem": gw.problems().get("horde"), "ok": ok, "rss": peak_rss()});
        println!("OUT:{out}");
        return gw.shutdown().await;
    }
    for via in ["stdio", "json", "sse"] {
        let (out, rss) = in_child(test, via);
        assert_eq!(out["ok"]["value"], json!("ok"), "{via}: {out}");
        assert_eq!(
            out["problem"],
            "MCP server 'horde' answered tools/list with a reply that could not be read: it lists 400000 tools, more than the 10000 one server may list (MAX_LISTED_TOOLS): it is left out",
            "{via}"
        );
        assert!(rss < 150 * 1024 * 1024, "{via}: peak RSS {} MB", rss >> 20);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_servers_that_page_forever_or_never_answer_are_cut_off() {
    let (addr, _) = hostile_http().await;
    let mut servers = serde_json::Map::new();
    for via in ["json", "sse"] {
        for bad in ["endless", "silent", "mute"] {
            // Paging is cut off by its page bound, not by the (longer) timeout.
            let timeout = if bad == "endless" { 20000 } else { 1000 };
            servers.insert(
                format!("{via}-{bad}"),
                json!({"url": format!("http://{addr}/{via}-{bad}/mcp"), "startupTimeoutMs": timeout}),
            );
        }
    }
    servers.insert("h".into(), hostile("normal"));
    let t = Instant::now();
    let gw = tokio::time::timeout(
        Duration::from_secs(30),
        Gateway::start(config(json!({ "mcpServers": servers })), None),
    )
    .await
    .expect("the start ends: paging and waiting are bounded")
    .unwrap();
    // Servers start side by side: the silent ones end at 1 s, paging at its 100th page.
    assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    let p = gw.problems();
    for via in ["json", "sse"] {
        let why = &p[&format!("{via}-endless")];
        assert!(
            why.contains("more than 100 pages of tools/list (MAX_LIST_PAGES)"),
            "{via}: {why}"
        );
        for bad in ["silent", "mute"] {
            assert_eq!(
                p[&format!("{via}-{bad}")],
                format!(
                    "MCP server '{via}-{bad}' did not finish starting (initialize and tools/list) within 1000 ms (its startupTimeoutMs)"
                )
            );
        }
    }
    let r = run(&gw, "return tools.h.ok()").await;
    assert_eq!(r.result.value(), Some(&json!("ok")));
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_never_answers_tools_list_is_cut_off_at_its_startup_timeout() {
    let mut silent = hostile("silent");
    silent["startupTimeoutMs"] = json!(1000);
    let t = Instant::now();
    let gw = tokio::time::timeout(
        Duration::from_secs(20),
        Gateway::start(
            config(json!({"mcpServers": {"silent": silent, "h": hostile("normal")}})),
            None,
        ),
    )
    .await
    .expect("the start ends by the startup timeout")
    .unwrap();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_eq!(
        gw.problems()["silent"],
        "MCP server 'silent' did not finish starting (initialize and tools/list) within 1000 ms (its startupTimeoutMs)"
    );
    let r = run(&gw, "return tools.h.ok()").await;
    assert_eq!(r.result.value(), Some(&json!("ok")));
    gw.shutdown().await;
}

/// Waits (up to 10 s) until the runtime has the tool `path`; fails saying `why` it did not.
async fn await_tool(gw: &Gateway, path: &str, why: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !gw.codemode().tools().paths().any(|p| p == path) {
        assert!(Instant::now() < deadline, "{path} never came: {why}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refresh_that_never_answers_is_cut_off_and_other_refreshes_go_on() {
    // 3 s: long enough for python to start while the other tests load the machine, short
    // enough for the refresh that never answers to be cut off within await_tool's wait.
    let mut h = hostile("normal");
    h["startupTimeoutMs"] = json!(3000);
    let fx = json!({"command": "python3",
        "args": [Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fixture_server.py")]});
    let gw = Gateway::start(config(json!({"mcpServers": {"h": h, "fx": fx}})), None)
        .await
        .unwrap();
    // h announces a change and then never answers tools/list; fx then adds a tool.
    let r = run(
        &gw,
        "tools.h.go_silent() return tools.fx.grow({ name = 'late' })",
    )
    .await;
    assert_eq!(
        r.result.value(),
        Some(&json!("added late")),
        "{}",
        r.result.to_json_string()
    );
    await_tool(&gw, "fx.late", "the refresh of h holds it up").await;
    // h keeps its previous tools.
    let r = run(&gw, "return tools.h.ok()").await;
    assert_eq!(r.result.value(), Some(&json!("ok")));
    gw.shutdown().await;
}

/// Calls `tools.<server>.unreadable` with each `(kind, why)`: each call must fail at once (the
/// server's timeoutMs is 10 s) as a ToolFailure saying the reply could not be read and why; the
/// connection survives, so `tools.<server>.ok()` answers afterwards.
async fn assert_unreadable_replies_fail_at_once(
    gw: &Gateway,
    server: &str,
    kinds: &[(&str, &str)],
) {
    for (kind, why) in kinds {
        let t = Instant::now();
        let r = run(
            gw,
            &format!("return tools.{server}.unreadable({{ kind = '{kind}' }})"),
        )
        .await;
        // timeoutMs is 10 s: the failure comes from the reply, not the timeout.
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "{server} {kind}: {:?}",
            t.elapsed()
        );
        let e = r.result.error().unwrap();
        assert_eq!(e.kind.as_str(), "ToolFailure", "{server} {kind}");
        assert!(
            e.message.starts_with(&format!(
                "MCP server '{server}' answered the call to 'unreadable' with a reply that could not be read: "
            )),
            "{server} {kind}: {}",
            e.message
        );
        assert!(
            e.message.to_lowercase().contains(&why.to_lowercase()),
            "{server} {kind}: {}",
            e.message
        );
    }
    let r = run(gw, &format!("return tools.{server}.ok()")).await;
    assert_eq!(r.result.value(), Some(&json!("ok")), "{server}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_replies_fail_at_once_as_tool_failures() {
    let gw = Gateway::start(
        config(json!({"mcpServers": {"h": hostile("normal")}})),
        None,
    )
    .await
    .unwrap();
    assert_unreadable_replies_fail_at_once(
        &gw,
        "h",
        &[
            ("nested", "recursion limit exceeded"),
            ("nan", "expected value"),
            ("utf8", "invalid unicode"),
            (
                "long",
                "more than the 16777216 bytes one message may have (MAX_REPLY_LINE_BYTES)",
            ),
        ],
    )
    .await;
    gw.shutdown().await;
}

/// A reply no JSON-RPC client can decode, for request `id` (the same shapes as
/// `hostile_server.py`'s `unreadable`).
fn unreadable_reply(id: &Value, kind: &str) -> Vec<u8> {
    let mut out = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#).into_bytes();
    match kind {
        // structuredContent nested 126 deep: legal for codemode, past serde_json's 128 levels
        // with the envelope around it.
        "nested" => {
            out.extend_from_slice(br#"{"content":[],"structuredContent":{"a":"#);
            out.extend(std::iter::repeat_n(b'[', 125));
            out.push(b'1');
            out.extend(std::iter::repeat_n(b']', 125));
            out.extend_from_slice(b"}}");
        }
        "nan" => out.extend_from_slice(
            br#"{"content":[{"type":"text","text":"x"}],"structuredContent":{"v":NaN}}"#,
        ),
        "utf8" => {
            out.extend_from_slice(b"{\"content\":[{\"type\":\"text\",\"text\":\"\xff\xfe bad\"}]}")
        }
        // One message over 16 MiB.
        _ => {
            out.extend_from_slice(br#"{"content":[{"type":"text","text":""#);
            out.extend(std::iter::repeat_n(b'x', 17 * 1024 * 1024));
            out.extend_from_slice(br#""}]}"#);
        }
    }
    out.push(b'}');
    out
}

/// A hostile streamable-HTTP MCP server on a loopback port (no SDK): `/json/mcp` answers every
/// request with an `application/json` body, `/sse/mcp` with a `text/event-stream` of one event
/// (with an event id, so a client could resume it). A suffix changes one answer, as in
/// `/sse-horde/mcp`: `-horde` lists 400,000 tools in one page (13 MB), `-endless` one tool a
/// page with a `nextCursor`, forever, `-silent` never answers `tools/list`, `-mute` never
/// answers `initialize`. Its tools: `unreadable` (`kind`: nested,
/// nan, utf8, long) answers a reply no JSON-RPC client can decode, `ok` answers "ok", `parts`
/// `n` text parts, `image` one image of `bytes` bytes of base64, `slow` answers "slept" after
/// `ms` milliseconds; `grow` adds a tool `late` to the route's list, `go_silent` stops its
/// answers to `tools/list`, and both announce `notifications/tools/list_changed` before their
/// reply (over SSE only: a JSON body has room for the reply alone). It counts what it received over all routes ([`Seen`]).
async fn hostile_http() -> (std::net::SocketAddr, Arc<Seen>) {
    use axum::http::{StatusCode, header};
    use axum::response::{IntoResponse, Response};

    async fn answer(route: String, seen: Arc<Seen>, body: axum::body::Bytes) -> Response {
        let sse = route.starts_with("sse");
        let Ok(msg) = serde_json::from_slice::<Value>(&body) else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        let Some(id) = msg.get("id").cloned() else {
            if msg["method"] == "notifications/cancelled" {
                seen.cancelled.fetch_add(1, Ordering::SeqCst);
            }
            return StatusCode::ACCEPTED.into_response();
        };
        let params = &msg["params"];
        let result = |r: Value| json!({"jsonrpc": "2.0", "id": id, "result": r}).to_string();
        let marked = |what: &str| {
            seen.marks
                .lock()
                .unwrap()
                .contains(&format!("{what}:{route}"))
        };
        let reply: Vec<u8> = match msg["method"].as_str().unwrap_or_default() {
            "initialize" if route.ends_with("-mute") => std::future::pending().await,
            "tools/list" if marked("silent") => {
                seen.unanswered_lists.fetch_add(1, Ordering::SeqCst);
                std::future::pending().await
            }
            "tools/list" if route.ends_with("-silent") => std::future::pending().await,
            "tools/list" if route.ends_with("-endless") => {
                let n: u64 = params["cursor"].as_str().unwrap_or("0").parse().unwrap_or(0);
                result(json!({"tools": [{"name": format!("t{n}"), "inputSchema": {}}],
                              "nextCursor": (n + 1).to_string()}))
            }
            "initialize" => {
                seen.inits.fetch_add(1, Ordering::SeqCst);
                result(json!({
                "protocolVersion": params["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "hostile-http", "version": "1.0"}}))
            }
            "tools/list" if route.ends_with("-horde") => {
                let tools = vec![r#"{"name":"t","inputSchema":{}}"#; 400_000].join(",");
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"tools":[{tools}]}}}}"#)
            }
            "tools/list" => {
                let mut tools = json!([
                {"name": "grow", "inputSchema": {"type": "object"}},
                {"name": "go_silent", "inputSchema": {"type": "object"}},
                {"name": "unreadable", "inputSchema": {"type": "object",
                 "properties": {"kind": {"type": "string"}}}},
                {"name": "ok", "inputSchema": {"type": "object"}},
                {"name": "parts", "inputSchema": {"type": "object",
                 "properties": {"n": {"type": "integer"}}}},
                {"name": "image", "inputSchema": {"type": "object",
                 "properties": {"bytes": {"type": "integer"}}}},
                {"name": "slow", "inputSchema": {"type": "object",
                 "properties": {"ms": {"type": "integer"}}}}]);
                if marked("grown") {
                    tools.as_array_mut().unwrap().push(json!({"name": "late", "inputSchema": {}}));
                }
                result(json!({ "tools": tools }))
            }
            "tools/call" if params["name"] == "grow" || params["name"] == "go_silent" => {
                let mark = if params["name"] == "grow" { "grown" } else { "silent" };
                seen.marks.lock().unwrap().insert(format!("{mark}:{route}"));
                let done = result(json!({"content": [{"type": "text", "text": mark}]}));
                if !sse {
                    return wrap(false, done.into_bytes());
                }
                let changed = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
                let events = format!("event: message\ndata: {changed}\n\nevent: message\ndata: {done}\n\n");
                return ([(header::CONTENT_TYPE, "text/event-stream")], events).into_response();
            }
            "tools/call" if params["name"] == "slow" => {
                let ms = params["arguments"]["ms"].as_u64().unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                result(json!({"content": [{"type": "text", "text": "slept"}]}))
            }
            "tools/call" if params["name"] == "ok" => {
                result(json!({"content": [{"type": "text", "text": "ok"}]}))
            }
            // Written out rather than built as a Value, so that the server's own memory stays
            // small beside the client's.
            "tools/call" if params["name"] == "parts" => {
                let n = params["arguments"]["n"].as_u64().unwrap_or(1) as usize;
                let parts = vec![r#"{"type":"text","text":"p"}"#; n].join(",");
                format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{parts}]}}}}"#)
            }
            "tools/call" if params["name"] == "image" => {
                let n = params["arguments"]["bytes"].as_u64().unwrap_or(4) as usize;
                let data = "A".repeat(n);
                format!(
                    r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"image","mimeType":"image/png","data":"{data}"}}]}}}}"#
                )
            }
            "tools/call" => {
                return wrap(
                    sse,
                    unreadable_reply(&id, params["arguments"]["kind"].as_str().unwrap_or("nan")),
                );
            }
            other => json!({"jsonrpc": "2.0", "id": id,
                            "error": {"code": -32601, "message": format!("no {other}")}})
            .to_string(),
        }
        .into_bytes();
        wrap(sse, reply)
    }

    fn wrap(sse: bool, reply: Vec<u8>) -> Response {
        if !sse {
            return ([(header::CONTENT_TYPE, "application/json")], reply).into_response();
        }
        let mut event = b"id: 1\nevent: message\ndata: ".to_vec();
        event.extend_from_slice(&reply);
        event.extend_from_slice(b"\n\n");
        ([(header::CONTENT_TYPE, "text/event-stream")], event).into_response()
    }

    let seen = Arc::new(Seen::default());
    let counter = seen.clone();
    let app = axum::Router::new().route(
        "/{route}/mcp",
        axum::routing::post(
            move |axum::extract::Path(route): axum::extract::Path<String>, body| {
                answer(route, counter.clone(), body)
            },
        )
        .get(|| async { StatusCode::METHOD_NOT_ALLOWED })
        .delete(|| async { StatusCode::METHOD_NOT_ALLOWED }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (addr, seen)
}

/// What [`hostile_http`] received.
#[derive(Default)]
struct Seen {
    /// `initialize` requests answered.
    inits: AtomicUsize,
    /// `notifications/cancelled` received.
    cancelled: AtomicUsize,
    /// `tools/list` requests left unanswered after `go_silent`.
    unanswered_lists: AtomicUsize,
    /// `grown:<route>` once `grow` was called on that route, `silent:<route>` after `go_silent`.
    marks: std::sync::Mutex<std::collections::HashSet<String>>,
}

/// A gateway over a new [`hostile_http`] server: one server a route, named after the route
/// (`sse-a` is `tools.a`), its entry `spec` plus the URL; `codemode` is the config's section.
async fn http_gateway(routes: &[&str], spec: Value, codemode: Value) -> (Arc<Gateway>, Arc<Seen>) {
    let (addr, seen) = hostile_http().await;
    let mut servers = serde_json::Map::new();
    for route in routes {
        let mut entry = spec.clone();
        entry["url"] = json!(format!("http://{addr}/{route}/mcp"));
        let name = route.strip_prefix("sse-").unwrap_or(route);
        servers.insert(name.to_string(), entry);
    }
    let doc = json!({"mcpServers": servers, "codemode": codemode});
    (Gateway::start(config(doc), None).await.unwrap(), seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_http_replies_fail_at_once_as_tool_failures() {
    let (gw, seen) = http_gateway(&["json", "sse"], json!({"timeoutMs": 10000}), json!({})).await;
    assert!(gw.problems().is_empty(), "{:?}", gw.problems());
    let too_long = "more than the 16777216 bytes one message may have (MAX_REPLY_LINE_BYTES)";
    assert_unreadable_replies_fail_at_once(
        &gw,
        "json",
        &[
            ("nested", "recursion limit exceeded"),
            ("nan", "expected value"),
            ("utf8", "invalid unicode"),
            ("long", too_long),
        ],
    )
    .await;
    assert_unreadable_replies_fail_at_once(
        &gw,
        "sse",
        &[
            ("nested", "recursion limit exceeded"),
            ("nan", "expected value"),
            ("utf8", "not UTF-8"),
            ("long", too_long),
        ],
    )
    .await;
    // The same connections answered everything: neither server was initialized again.
    assert_eq!(seen.inits.load(Ordering::SeqCst), 2);
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_refresh_that_never_answers_is_cut_off_and_other_refreshes_go_on() {
    let (gw, seen) = http_gateway(
        &["sse-a", "sse-b"],
        json!({"startupTimeoutMs": 1000}),
        json!({}),
    )
    .await;
    // a announces a change over SSE and then never answers tools/list; once a's refresh has
    // asked (the notifications of two servers arrive in either order), b adds a tool.
    let t = Instant::now();
    let r = run(&gw, "return tools.a.go_silent()").await;
    assert_eq!(r.result.value(), Some(&json!("silent")));
    while seen.unanswered_lists.load(Ordering::SeqCst) == 0 {
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "a's refresh never asked"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let r = run(&gw, "return tools.b.grow()").await;
    assert_eq!(r.result.value(), Some(&json!("grown")));
    await_tool(&gw, "b.late", "the refresh of a holds it up").await;
    // Refreshes run one at a time: b's came after a's was cut off at its 1 s startupTimeoutMs.
    assert!(
        t.elapsed() >= Duration::from_millis(900),
        "{:?}",
        t.elapsed()
    );
    // a keeps its previous tools and its connection.
    let r = run(&gw, "return tools.a.ok()").await;
    assert_eq!(r.result.value(), Some(&json!("ok")));
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_execution_cancelled_during_an_http_call_keeps_its_tool_calls() {
    let (gw, seen) = http_gateway(&["json", "sse"], json!({"timeoutMs": 10000}), json!({})).await;
    for (n, via) in ["json", "sse"].into_iter().enumerate() {
        let cancel = CancellationToken::new();
        let c2 = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            c2.cancel();
        });
        let t = Instant::now();
        let code = format!("tools.{via}.ok() return tools.{via}.slow({{ ms = 5000 }})");
        let r = gw.execute(&code, cancel, None).await;
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{via}: {:?}",
            t.elapsed()
        );
        assert_eq!(
            r.result.error().unwrap().message,
            "Execution was cancelled by the host.",
            "{via}"
        );
        let status: Vec<_> = r.result.tool_calls.iter().map(|c| c.status).collect();
        assert_eq!(
            status,
            [
                codemode::ToolCallStatus::Success,
                codemode::ToolCallStatus::Interrupted
            ],
            "{via}"
        );
        // The server is told, and the connection goes on serving calls.
        let deadline = Instant::now() + Duration::from_secs(2);
        while seen.cancelled.load(Ordering::SeqCst) < n + 1 {
            assert!(
                Instant::now() < deadline,
                "{via}: no notifications/cancelled"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let r = run(&gw, &format!("return tools.{via}.ok()")).await;
        assert_eq!(r.result.value(), Some(&json!("ok")), "{via}");
    }
    assert_eq!(seen.inits.load(Ordering::SeqCst), 2);
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_over_the_memory_limit_is_refused_before_the_program_sees_it() {
    let gw = Gateway::start(
        config(json!({"mcpServers": {"h": hostile("normal")},
                      "codemode": {"limits": {"maxMemoryBytes": 1048576}}})),
        None,
    )
    .await
    .unwrap();
    let r = run(&gw, "return #tools.h.big_text({ bytes = 2000000 })").await;
    let e = r.result.error().unwrap();
    assert_eq!(e.kind.as_str(), "ToolFailure");
    assert_eq!(
        e.message,
        "MCP server 'h' answered the call to 'big_text' with a reply of about 2000160 bytes once decoded, more than the execution's memory limit of 1048576 bytes (max_memory_bytes); ask for less at a time (fewer items, a page, a summary)."
    );
    let r = run(&gw, "return #tools.h.big_text({ bytes = 1000 })").await;
    assert_eq!(r.result.value(), Some(&json!(1000)));
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_http_reply_over_the_memory_limit_is_refused_before_the_program_sees_it() {
    let (gw, _) = http_gateway(
        &["json", "sse"],
        json!({}),
        json!({"limits": {"maxMemoryBytes": 1048576}}),
    )
    .await;
    for via in ["json", "sse"] {
        // 9,000 parts (within MAX_REPLY_PARTS) cost 9,000 x 161 bytes once decoded.
        let r = run(&gw, &format!("return #tools.{via}.parts({{ n = 9000 }})")).await;
        let e = r.result.error().unwrap();
        assert_eq!(e.kind.as_str(), "ToolFailure");
        assert_eq!(
            e.message,
            format!(
                "MCP server '{via}' answered the call to 'parts' with a reply of about 1449000 bytes once decoded, more than the execution's memory limit of 1048576 bytes (max_memory_bytes); ask for less at a time (fewer items, a page, a summary)."
            )
        );
        let r = run(&gw, &format!("return #tools.{via}.parts({{ n = 10 }})")).await;
        assert_eq!(r.result.value(), Some(&json!(10)), "{via}");
    }
    gw.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_of_450000_parts_fails_with_bounded_memory() {
    if std::env::var("HOSTILE_SCENARIO").as_deref() == Ok("parts") {
        return child_scenario("return #tools.h.parts({ n = 450000 })", json!({})).await;
    }
    if std::env::var("HOSTILE_SCENARIO").is_ok() {
        return;
    }
    let (out, rss) = in_child("a_reply_of_450000_parts_fails_with_bounded_memory", "parts");
    let msg = out["result"]["error"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(msg.contains("450000 content parts"), "{out}");
    assert!(msg.contains("MAX_REPLY_PARTS"), "{out}");
    assert!(rss < 150 * 1024 * 1024, "peak RSS {} MB", rss >> 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attachment_flood_keeps_at_most_max_attachment_bytes() {
    const FLOOD: &str = "local refs = {} for i = 1, 20 do refs[i] = tools.h.image({ bytes = 11000000 }).attachment end return refs";
    match std::env::var("HOSTILE_SCENARIO").as_deref() {
        Ok("flood") => return child_scenario(FLOOD, json!({})).await,
        Ok("flood-small-cap") => {
            return child_scenario(FLOOD, json!({"maxAttachmentBytes": 25000000})).await;
        }
        Ok(_) => return,
        Err(_) => {}
    }
    let test = "an_attachment_flood_keeps_at_most_max_attachment_bytes";
    // Default cap (16 MiB): the first 11 MB image is kept, the others are dropped (0).
    let (out, rss) = in_child(test, "flood");
    let mut refs = vec![json!(1)];
    refs.extend(std::iter::repeat_n(json!(0), 19));
    assert_eq!(out["result"]["value"], json!(refs), "{out}");
    assert_eq!(out["kept"], json!([11000000]));
    assert!(rss < 200 * 1024 * 1024, "peak RSS {} MB", rss >> 20);
    // Configured: codemode.maxAttachmentBytes 25 MB keeps two.
    let (out, _) = in_child(test, "flood-small-cap");
    assert_eq!(out["kept"], json!([11000000, 11000000]), "{out}");
}

/// Runs `code` as [`child_scenario`] does with `tools.h` on the hostile HTTP server's json and
/// sse routes, each in a child process (this binary's test `test`, scenario `http-<route>`): in
/// the parent, returns each route with what its child printed and its peak RSS; in a child,
/// runs its scenario and returns `None`.
async fn over_http_in_children(test: &str, code: &str) -> Option<Vec<(&'static str, Value, u64)>> {
    if let Ok(scenario) = std::env::var("HOSTILE_SCENARIO") {
        if let Some(route) = scenario.strip_prefix("http-") {
            let (addr, _) = hostile_http().await;
            let server = json!({"url": format!("http://{addr}/{route}/mcp"), "timeoutMs": 60000});
            child_scenario_over(server, code, json!({})).await;
        }
        return None;
    }
    let runs = ["json", "sse"].map(|route| {
        let (out, rss) = in_child(test, &format!("http-{route}"));
        (route, out, rss)
    });
    Some(runs.into())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_of_450000_parts_over_http_fails_with_bounded_memory() {
    let Some(runs) = over_http_in_children(
        "a_reply_of_450000_parts_over_http_fails_with_bounded_memory",
        "return #tools.h.parts({ n = 450000 })",
    )
    .await
    else {
        return;
    };
    for (route, out, rss) in runs {
        let msg = out["result"]["error"]["message"]
            .as_str()
            .unwrap_or_default();
        assert!(msg.contains("450000 content parts"), "{route}: {out}");
        assert!(msg.contains("MAX_REPLY_PARTS"), "{route}: {out}");
        assert!(
            rss < 150 * 1024 * 1024,
            "{route}: peak RSS {} MB",
            rss >> 20
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_attachment_flood_over_http_keeps_at_most_max_attachment_bytes() {
    let Some(runs) = over_http_in_children(
        "an_attachment_flood_over_http_keeps_at_most_max_attachment_bytes",
        "local refs = {} for i = 1, 20 do refs[i] = tools.h.image({ bytes = 11000000 }).attachment end return refs",
    )
    .await
    else {
        return;
    };
    let mut refs = vec![json!(1)];
    refs.extend(std::iter::repeat_n(json!(0), 19));
    for (route, out, rss) in runs {
        assert_eq!(out["result"]["value"], json!(refs), "{route}: {out}");
        assert_eq!(out["kept"], json!([11000000]), "{route}");
        assert!(
            rss < 200 * 1024 * 1024,
            "{route}: peak RSS {} MB",
            rss >> 20
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn attachments_without_data_for_hosts_that_only_summarize_them() {
    let gw = Gateway::start(
        config(json!({"mcpServers": {"h": hostile("normal")}})),
        None,
    )
    .await
    .unwrap();
    let exec = gw
        .execute_with(
            "local refs = {} for i = 1, 3 do refs[i] = tools.h.image({ bytes = 11000000 }).attachment end return refs",
            CancellationToken::new(),
            None,
            false,
        )
        .await;
    assert_eq!(exec.result.value(), Some(&json!([1, 2, 3])));
    assert_eq!(exec.attachments.len(), 3);
    assert_eq!(
        exec.attachments[0],
        json!({"type": "image", "mimeType": "image/png"})
    );
    gw.shutdown().await;
}
