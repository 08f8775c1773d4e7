//! Durable executions through the host: pausing at tool calls, snapshots as bytes, resuming in
//! a fresh runtime, and every refusal (catalog, version, truncation, tampering, signature,
//! second use).

use codemode::{
    CodeMode, ExecutionResult, Limits, MemoryStore, Namespace, Reply, Snapshot, Tool,
    ToolCallStatus, ToolError,
};
use serde_json::json;

fn tools(options: codemode::Options) -> codemode::Options {
    let obj = json!({"type": "object"});
    options
        .namespace("orders", Namespace::new().description("Orders"))
        .tool(
            "orders.get",
            Tool::new("Get an order.", obj.clone(), |input| async move {
                match input["id"].as_str() {
                    Some("bad") => Err(ToolError::new("no such order")),
                    Some(id) => Ok(json!({"id": id, "total": id.len() * 10, "tags": ["x", id]})),
                    None => Ok(json!(null)),
                }
            }),
        )
        .tool(
            "orders.list",
            Tool::new("List orders.", obj.clone(), |_| async move {
                Ok(json!([{"id": "a"}, {"id": "b"}, {"id": "bad"}]))
            }),
        )
        .tool(
            "mail.send",
            Tool::new("Send mail.", obj, |input| async move {
                Ok(json!({"ok": true, "echo": input}))
            }),
        )
}

/// A runtime with the test tools; `pausing`: every tool needs approval.
fn runtime(pausing: bool) -> CodeMode {
    runtime_in(codemode::Language::Lua, pausing)
}

/// [`runtime`] for programs in `language`.
fn runtime_in(language: codemode::Language, pausing: bool) -> CodeMode {
    // A seeded generator: a JavaScript program's `Math.random` draws the same numbers in
    // every run, and a resumed run goes on with the paused run's generator.
    let mut o = tools(
        CodeMode::builder()
            .language(language)
            .random(codemode::Random::Seed(7)),
    );
    if pausing {
        o = o
            .pause_on("orders.get")
            .pause_on("orders.list")
            .pause_on("mail.send");
    }
    o.build().unwrap()
}

#[path = "../../../tests/durable/corpus.rs"]
mod corpus;
use corpus::corpus;

/// Run `source` pausing at every call; each pause's snapshot goes through bytes into a fresh
/// runtime, which approves the call. Returns the final result and the number of pauses.
async fn run_pausing(source: &str) -> (ExecutionResult, usize) {
    run_pausing_in(codemode::Language::Lua, source).await
}

/// [`run_pausing`] for a program in `language`.
async fn run_pausing_in(language: codemode::Language, source: &str) -> (ExecutionResult, usize) {
    let mut result = runtime_in(language, true).execute(source).await;
    let mut pauses = 0;
    while let Some(paused) = result.paused.take() {
        pauses += 1;
        let bytes = paused.snapshot.into_bytes();
        let fresh = runtime_in(language, true);
        let replies = paused.pending.iter().map(|p| (p.id, Reply::Run)).collect();
        result = fresh.resume(&Snapshot::from_bytes(bytes), replies).await;
    }
    (result, pauses)
}

#[tokio::test]
async fn pausing_at_every_call_gives_the_uninterrupted_result() {
    let corpus = corpus();
    assert!(corpus.len() >= 15);
    for (i, source) in &corpus {
        let straight = runtime(false).execute(source).await;
        let calls = straight.tool_calls.len();
        assert!(calls > 0, "program {i} calls tools");
        let (paused, pauses) = run_pausing(source).await;
        assert_eq!(pauses, calls, "program {i} paused at every call");
        assert_eq!(
            paused.to_json_string(),
            straight.to_json_string(),
            "program {i}:\n{source}"
        );
    }
}

/// The child side of [`every_pause_resumes_in_a_fresh_process`] (that test, run again by
/// itself with `DURABLE_CHILD` set to a path stem): resumes the snapshot in `<stem>.snap` (a
/// program in the language `<stem>.lang` names: `lua` or `js`) approving the pending calls
/// listed in `<stem>.ids` (one id a line), and writes either the next pause back to those two
/// files with `paused` in `<stem>.out`, or the final Result's JSON to `<stem>.out`.
async fn resume_in_this_process(stem: String) {
    let file = |ext: &str| format!("{stem}.{ext}");
    let bytes = std::fs::read(file("snap")).unwrap();
    let ids = std::fs::read_to_string(file("ids")).unwrap();
    let replies = ids
        .lines()
        .map(|id| (id.parse().unwrap(), Reply::Run))
        .collect();
    let snapshot = Snapshot::from_bytes(bytes);
    let language = match std::fs::read_to_string(file("lang")).as_deref() {
        Ok("js") => codemode::Language::JavaScript,
        _ => codemode::Language::Lua,
    };
    let mut result = runtime_in(language, true).resume(&snapshot, replies).await;
    let out = match result.paused.take() {
        Some(paused) => {
            write_pause(&stem, &paused);
            "paused".to_string()
        }
        None => result.to_json_string(),
    };
    std::fs::write(file("out"), out).unwrap();
}

/// Writes `paused`'s snapshot and pending ids to `<stem>.snap` and `<stem>.ids`.
fn write_pause(stem: &str, paused: &codemode::Paused) {
    std::fs::write(format!("{stem}.snap"), paused.snapshot.as_bytes()).unwrap();
    let ids: String = paused
        .pending
        .iter()
        .map(|p| format!("{}\n", p.id))
        .collect();
    std::fs::write(format!("{stem}.ids"), ids).unwrap();
}

/// Issue 19's proof: every pause of every corpus program (Lua, and JavaScript with the `js`
/// feature) is written to a file and resumed by another process (this test binary, running
/// this test again as [`resume_in_this_process`]), and the last one gives exactly the
/// uninterrupted Result.
#[tokio::test]
async fn every_pause_resumes_in_a_fresh_process() {
    if let Ok(stem) = std::env::var("DURABLE_CHILD") {
        return resume_in_this_process(stem).await;
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("durable-processes");
    std::fs::create_dir_all(&dir).unwrap();
    let exe = std::env::current_exe().unwrap();
    #[cfg_attr(not(feature = "js"), allow(unused_mut))]
    let mut programs: Vec<_> = corpus()
        .into_iter()
        .map(|p| (codemode::Language::Lua, p))
        .collect();
    #[cfg(feature = "js")]
    programs.extend(
        corpus::corpus_js()
            .into_iter()
            .map(|p| (codemode::Language::JavaScript, p)),
    );
    for (language, (i, source)) in &programs {
        let straight = runtime_in(*language, false)
            .execute(source)
            .await
            .to_json_string();
        let stem = dir.join(i).to_string_lossy().into_owned();
        let lang = match language {
            codemode::Language::JavaScript => "js",
            _ => "lua",
        };
        std::fs::write(format!("{stem}.lang"), lang).unwrap();
        let mut result = runtime_in(*language, true).execute(source).await;
        let paused = result.paused.take().expect("the program calls a tool");
        write_pause(&stem, &paused);
        let mut processes = 0;
        let out = loop {
            processes += 1;
            let status = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    "every_pause_resumes_in_a_fresh_process",
                    "--quiet",
                ])
                .env("DURABLE_CHILD", &stem)
                .stdout(std::process::Stdio::null())
                .status()
                .unwrap();
            assert!(status.success(), "program {i}: the child failed");
            let out = std::fs::read_to_string(format!("{stem}.out")).unwrap();
            if out != "paused" {
                break out;
            }
        };
        assert_eq!(
            out, straight,
            "program {i} after {processes} processes:\n{source}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The first pause of a small program on `cm`.
async fn first_pause(cm: &CodeMode) -> (Snapshot, u64) {
    let r = cm
        .execute(r#"print("before"); local o = tools.orders.get({ id = "a" }); return o.total"#)
        .await;
    let p = r.paused.expect("paused");
    (p.snapshot, p.pending[0].id)
}

#[tokio::test]
async fn the_paused_result_names_the_pending_call() {
    let r = runtime(true)
        .execute(r#"print("before"); tools.mail.send({ to = "x" }); return 1"#)
        .await;
    let json = r.to_json_value();
    assert_eq!(json["ok"], json!(false));
    assert_eq!(json["status"], json!("paused"));
    assert_eq!(
        json["pending"],
        json!([{"id": 1, "name": "mail.send", "input": {"to": "x"}, "location": {"line": 1, "column": 33}}])
    );
    assert_eq!(json["logs"], json!(["before"]));
    assert_eq!(json["toolCalls"], json!([]));
    assert!(json.get("error").is_none(), "{json}");
    let e = r.outcome.unwrap_err();
    assert!(e.message.contains("paused at mail.send"), "{}", e.message);
}

#[tokio::test]
async fn replies_value_error_and_denial_settle_the_call() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let r = cm
        .resume(&snap, vec![(id, Reply::Value(json!({"total": 7})))])
        .await;
    assert_eq!(r.value(), Some(&json!(7)));
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Success);
    assert_eq!(r.logs, vec!["before".to_string()]);

    let r = cm
        .resume(
            &snap,
            vec![(id, Reply::Deny("refunds need a manager".into()))],
        )
        .await;
    let e = r.outcome.as_ref().unwrap_err();
    assert_eq!(e.message, "refunds need a manager");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Denied);

    let r = cm
        .resume(&snap, vec![(id, Reply::Error("down".into()))])
        .await;
    assert_eq!(r.outcome.as_ref().unwrap_err().message, "down");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);

    let r = cm.resume(&snap, vec![(id, Reply::Run)]).await;
    assert_eq!(r.value(), Some(&json!(10)));
}

/// The refusal message of resuming `snap` on `cm`.
async fn refusal(cm: &CodeMode, snap: &Snapshot, id: u64) -> String {
    let r = cm.resume(snap, vec![(id, Reply::Run)]).await;
    assert!(r.paused.is_none());
    assert!(r.tool_calls.is_empty() || r.outcome.is_err());
    r.outcome.expect_err("refused").message
}

#[tokio::test]
async fn another_catalog_is_refused() {
    let (snap, id) = first_pause(&runtime(true)).await;
    let other = tools(CodeMode::builder())
        .tool(
            "orders.cancel",
            Tool::new("Cancel.", json!({"type": "object"}), |_| async {
                Ok(json!(1))
            }),
        )
        .build()
        .unwrap();
    let m = refusal(&other, &snap, id).await;
    assert!(m.contains("taken against other tools"), "{m}");
}

#[tokio::test]
async fn another_version_and_bad_replies_are_refused() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let mut bytes = snap.as_bytes().to_vec();
    bytes[8] = 9;
    let m = refusal(&cm, &Snapshot::from_bytes(bytes), id).await;
    assert!(m.contains("format version 9"), "{m}");
    let r = cm.resume(&snap, vec![]).await;
    let m = r.outcome.unwrap_err().message;
    assert!(
        m.contains("no reply was given for pending call 1 (orders.get)"),
        "{m}"
    );
    let r = cm
        .resume(&snap, vec![(id, Reply::Run), (5, Reply::Run)])
        .await;
    let m = r.outcome.unwrap_err().message;
    assert!(
        m.contains("call 5, which the execution does not wait on"),
        "{m}"
    );
}

#[tokio::test]
async fn every_truncation_is_refused() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let bytes = snap.as_bytes();
    for cut in 0..bytes.len() {
        let m = refusal(&cm, &Snapshot::from_bytes(bytes[..cut].to_vec()), id).await;
        assert!(m.contains("cannot be re"), "cut at {cut}: {m}");
    }
}

/// How many of the copies of `bytes` with one bit flipped (every `step`-th byte) and the
/// checksum made again ([`redigested`]: past the checksum, into the decoders' own checks)
/// `cm` refuses as a snapshot; the others run (no panic, no hang).
async fn flips_refused(cm: &CodeMode, bytes: &[u8], id: u64, step: usize) -> usize {
    let mut refused = 0;
    for i in (0..bytes.len() - 32).step_by(step) {
        let b = redigested(bytes, i);
        let r = cm
            .resume(&Snapshot::from_bytes(b), vec![(id, Reply::Run)])
            .await;
        if r.outcome
            .as_ref()
            .is_err_and(|e| e.message.contains("cannot be re"))
        {
            refused += 1;
        }
    }
    refused
}

/// `bytes` with bit 4 of byte `i` flipped and the unsigned snapshot's SHA-256 trailer made
/// again over the result (what someone editing the file on purpose would do).
fn redigested(bytes: &[u8], i: usize) -> Vec<u8> {
    use sha2::Digest;
    let mut b = bytes.to_vec();
    b[i] ^= 0x10;
    let n = b.len() - 32;
    let digest = sha2::Sha256::digest(&b[..n]);
    b[n..].copy_from_slice(&digest);
    b
}

#[tokio::test]
async fn an_unsigned_snapshot_with_any_bit_flipped_is_refused() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let bytes = snap.as_bytes();
    for i in 13..bytes.len() {
        let mut b = bytes.to_vec();
        b[i] ^= 0x01;
        let m = refusal(&cm, &Snapshot::from_bytes(b), id).await;
        assert!(
            m.contains("it is damaged: its checksum does not match"),
            "flip at {i}: {m}"
        );
    }
}

#[tokio::test]
async fn bit_flips_are_refused_or_run() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let bytes = snap.as_bytes();
    let refused = flips_refused(&cm, bytes, id, 3).await;
    assert!(
        refused > bytes.len() / 6,
        "most flips are refused: {refused}"
    );
}

#[tokio::test]
async fn a_snapshot_resumes_once_through_a_store() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let store = MemoryStore::new();
    let r = cm.resume_once(&store, &snap, vec![(id, Reply::Run)]).await;
    assert_eq!(r.value(), Some(&json!(10)));
    let r = cm.resume_once(&store, &snap, vec![(id, Reply::Run)]).await;
    let m = r.outcome.unwrap_err().message;
    assert!(m.contains("resumed already"), "{m}");
    // Another pause has another id.
    let (again, _) = first_pause(&cm).await;
    assert_ne!(again.id(), snap.id());
}

#[tokio::test]
async fn a_signed_snapshot_needs_the_same_key() {
    let keyed = |key: &str| {
        tools(CodeMode::builder())
            .pause_on("orders.get")
            .snapshot_key(key.as_bytes().to_vec())
            .build()
            .unwrap()
    };
    let a = keyed("key-a");
    let (snap, id) = first_pause(&a).await;
    assert!(!String::from_utf8_lossy(snap.as_bytes()).contains("key-a"));
    let r = a.resume(&snap, vec![(id, Reply::Run)]).await;
    assert_eq!(r.value(), Some(&json!(10)));
    let m = refusal(&keyed("key-b"), &snap, id).await;
    assert!(m.contains("signature does not match"), "{m}");
    let unsigned = tools(CodeMode::builder())
        .pause_on("orders.get")
        .build()
        .unwrap();
    let m = refusal(&unsigned, &snap, id).await;
    assert!(m.contains("no snapshot key"), "{m}");
    let (plain, id) = first_pause(&unsigned).await;
    let m = refusal(&a, &plain, id).await;
    assert!(m.contains("accepts signed snapshots only"), "{m}");
    // Any flipped byte of a signed snapshot is caught by the signature.
    let mut b = snap.as_bytes().to_vec();
    let mid = b.len() / 2;
    b[mid] ^= 1;
    let m = refusal(&a, &Snapshot::from_bytes(b), id).await;
    assert!(m.contains("signature does not match"), "{m}");
}

#[tokio::test]
async fn time_spent_paused_does_not_count() {
    let cm = tools(CodeMode::builder())
        .pause_on("orders.get")
        .limits(Limits::default().with_timeout_ms(300).unwrap())
        .build()
        .unwrap();
    let (snap, id) = first_pause(&cm).await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let r = cm.resume(&snap, vec![(id, Reply::Run)]).await;
    assert_eq!(r.value(), Some(&json!(10)), "{}", r.to_json_string());
}

/// Pauses `orders.get` for id "b" only.
struct PauseOnB;

impl codemode::Hooks for PauseOnB {
    fn pause_before(&self, name: &str, input: &serde_json::Value) -> bool {
        name == "orders.get" && input["id"] == json!("b")
    }
}

#[tokio::test]
async fn a_hook_pauses_the_calls_it_picks() {
    let cm = tools(CodeMode::builder()).hooks(PauseOnB).build().unwrap();
    let r = cm
        .execute(r#"return { tools.orders.get({ id = "a" }).total, tools.orders.get({ id = "b" }).total }"#)
        .await;
    let paused = r.paused.expect("paused at b");
    assert_eq!(paused.pending[0].input, json!({"id": "b"}));
    assert_eq!(r.tool_calls.len(), 1, "the call for a ran");
    let done = cm
        .resume(&paused.snapshot, vec![(paused.pending[0].id, Reply::Run)])
        .await;
    assert_eq!(done.value(), Some(&json!([10, 10])));
}

#[tokio::test]
async fn a_refused_resume_keeps_the_record_and_logs() {
    let cm = runtime(true);
    let r = cm
        .execute(r#"print("one"); tools.mail.send({ to = "a" }); print("two"); return tools.orders.get({ id = "a" }).total"#)
        .await;
    let p = r.paused.expect("paused at mail.send");
    let r = cm
        .resume(&p.snapshot, vec![(p.pending[0].id, Reply::Run)])
        .await;
    let p = r.paused.expect("paused at orders.get");
    let id = p.pending[0].id;
    let r = cm
        .resume(&p.snapshot, vec![(id, Reply::Run), (id, Reply::Run)])
        .await;
    let m = r.outcome.as_ref().unwrap_err().message.clone();
    assert!(
        m.contains(&format!(
            "two replies were given for call {id}; give exactly one"
        )),
        "{m}"
    );
    let names: Vec<_> = r
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.status))
        .collect();
    // As the paused Result showed it: the pending call is not listed.
    assert_eq!(names, vec![("mail.send", ToolCallStatus::Success)]);
    assert_eq!(r.logs, vec!["one".to_string(), "two".to_string()]);
    // A wrong id alone is named as such, not as a missing reply.
    let r = cm.resume(&p.snapshot, vec![(id + 7, Reply::Run)]).await;
    assert_eq!(r.tool_calls.len(), 1);
    let m = &r.outcome.as_ref().unwrap_err().message;
    assert!(
        m.contains(&format!("a reply was given for call {}, which the execution does not wait on (it waits on {id})", id + 7)),
        "{m}"
    );
    let r = cm
        .resume(&p.snapshot, vec![(id, Reply::Run), (id + 7, Reply::Run)])
        .await;
    let m = r.outcome.unwrap_err().message;
    assert!(
        m.contains(&format!(
            "call {}, which the execution does not wait on (it waits on {id})",
            id + 7
        )),
        "{m}"
    );
    assert_eq!(r.tool_calls.len(), 1);
}

#[tokio::test]
async fn a_reply_value_meets_the_output_schema() {
    let cm = CodeMode::builder()
        .tool(
            "orders.get",
            Tool::new("Get an order.", json!({"type": "object"}), |_| async {
                Ok(json!({"total": 1}))
            })
            .with_output_schema(json!({
                "type": "object",
                "properties": {"total": {"type": "integer"}},
                "required": ["total"]
            })),
        )
        .pause_on("orders.get")
        .build()
        .unwrap();
    let (snap, id) = first_pause(&cm).await;
    let r = cm
        .resume(&snap, vec![(id, Reply::Value(json!({"total": "seven"})))])
        .await;
    let m = r.outcome.as_ref().unwrap_err().message.clone();
    assert!(
        m.contains("the reply value for call 1 (orders.get) is not a valid output of that tool"),
        "{m}"
    );
    assert!(r.tool_calls.is_empty(), "the pending call is not listed");
    let r = cm
        .resume(&snap, vec![(id, Reply::Value(json!({"total": 7})))])
        .await;
    assert_eq!(r.value(), Some(&json!(7)));
}

#[tokio::test]
async fn try_resume_is_resume_with_refusals_apart() {
    let cm = runtime(true);
    let (snap, id) = first_pause(&cm).await;
    let ok = cm.try_resume(&snap, vec![(id, Reply::Run)]).await;
    assert_eq!(ok.expect("resumed").value(), Some(&json!(10)));
    let e = cm.try_resume(&snap, vec![]).await.unwrap_err();
    assert!(
        e.message
            .starts_with("The snapshot cannot be resumed: no reply was given"),
        "{}",
        e.message
    );
    // Over every flipped byte, with the checksum made again (a deliberate edit): a refusal
    // (the envelope's or the guest's "cannot be restored") is an Err with resume's message,
    // anything else the same result as resume's.
    let bytes = snap.as_bytes();
    let (mut refused, mut guest_refused) = (0, 0);
    for i in 0..bytes.len() - 32 {
        let b = Snapshot::from_bytes(redigested(bytes, i));
        let plain = cm.resume(&b, vec![(id, Reply::Run)]).await;
        match cm.try_resume(&b, vec![(id, Reply::Run)]).await {
            Err(e) => {
                refused += 1;
                guest_refused += e.message.contains("cannot be restored") as usize;
                assert_eq!(plain.outcome.unwrap_err(), e, "flip at {i}");
            }
            Ok(r) => {
                assert_eq!(r.to_json_string(), plain.to_json_string(), "flip at {i}");
                let m = r.outcome.err().map(|e| e.message).unwrap_or_default();
                assert!(!m.contains("cannot be re"), "flip at {i}: {m}");
            }
        }
    }
    assert!(refused > bytes.len() / 2, "{refused} of {}", bytes.len());
    assert!(guest_refused > 0, "some flips reach the guest's checks");
    let store = MemoryStore::new();
    assert!(
        cm.try_resume_once(&store, &snap, vec![(id, Reply::Run)])
            .await
            .is_ok()
    );
    let e = cm
        .try_resume_once(&store, &snap, vec![(id, Reply::Run)])
        .await
        .unwrap_err();
    assert!(e.message.contains("resumed already"), "{}", e.message);
}

#[test]
fn pause_paths_must_name_tools() {
    let cm = runtime(false);
    let ok = ["orders.get".to_string(), "mail.send".to_string()];
    assert_eq!(
        codemode::durable::check_pause_paths(cm.tools(), &ok),
        Ok(())
    );
    let bad = ["orders.get".to_string(), "orders.gets".to_string()];
    assert_eq!(
        codemode::durable::check_pause_paths(cm.tools(), &bad),
        Err("no tool has the path 'orders.gets', so nothing would pause; give a tool's full path (the tools: mail.send, orders.get, orders.list)".to_string())
    );
    let empty = CodeMode::builder().build().unwrap();
    let e = codemode::durable::check_pause_paths(empty.tools(), &bad).unwrap_err();
    assert!(e.ends_with("(the tools: none)"), "{e}");
}

/// The JavaScript corpus through the host: pausing at every call (several at once under
/// `Promise.all`), each snapshot resumed in a fresh runtime, gives the uninterrupted result.
#[cfg(feature = "js")]
#[tokio::test]
async fn javascript_pausing_at_every_call_gives_the_uninterrupted_result() {
    let js = codemode::Language::JavaScript;
    let corpus = corpus::corpus_js();
    assert!(corpus.len() >= 15);
    for (i, source) in &corpus {
        let straight = runtime_in(js, false).execute(source).await;
        let calls = straight.tool_calls.len();
        assert!(calls > 0, "program {i} calls tools");
        assert!(
            straight.outcome.is_ok(),
            "program {i}: {:?}",
            straight.outcome
        );
        let (paused, pauses) = run_pausing_in(js, source).await;
        assert!(
            pauses > 0 && pauses <= calls,
            "program {i} paused {pauses} times"
        );
        assert_eq!(
            paused.to_json_string(),
            straight.to_json_string(),
            "program {i}:\n{source}"
        );
    }
}

/// The first pause of a small JavaScript program.
#[cfg(feature = "js")]
async fn first_js_pause(cm: &CodeMode) -> (Snapshot, u64) {
    let r = cm
        .execute(r#"console.log("before"); const o = await tools.orders.get({ id: "a" }); return o.total"#)
        .await;
    let p = r.paused.expect("paused");
    (p.snapshot, p.pending[0].id)
}

#[cfg(feature = "js")]
#[tokio::test]
async fn a_javascript_pause_resumes_with_a_value_a_denial_or_the_tool() {
    let cm = runtime_in(codemode::Language::JavaScript, true);
    let (snap, id) = first_js_pause(&cm).await;
    let r = cm
        .resume(&snap, vec![(id, Reply::Value(json!({"total": 7})))])
        .await;
    assert_eq!(r.value(), Some(&json!(7)));
    assert_eq!(r.logs, vec!["before".to_string()]);
    let r = cm
        .resume(&snap, vec![(id, Reply::Deny("needs a manager".into()))])
        .await;
    assert_eq!(r.outcome.as_ref().unwrap_err().message, "needs a manager");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Denied);
    let r = cm.resume(&snap, vec![(id, Reply::Run)]).await;
    assert_eq!(r.value(), Some(&json!(10)));
}

#[cfg(feature = "js")]
#[tokio::test]
async fn a_damaged_javascript_snapshot_is_refused() {
    let cm = runtime_in(codemode::Language::JavaScript, true);
    let (snap, id) = first_js_pause(&cm).await;
    let bytes = snap.as_bytes();
    for cut in (0..bytes.len()).step_by(7) {
        let m = refusal(&cm, &Snapshot::from_bytes(bytes[..cut].to_vec()), id).await;
        assert!(m.contains("cannot be re"), "cut at {cut}: {m}");
    }
    let refused = flips_refused(&cm, bytes, id, 5).await;
    assert!(
        refused > bytes.len() / 20,
        "most flips are refused: {refused}"
    );
    // A Lua runtime does not take a JavaScript snapshot.
    let m = refusal(&runtime(true), &snap, id).await;
    assert!(m.contains("cannot be re"), "{m}");
}
