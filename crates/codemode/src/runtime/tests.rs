//! Driver and gate tests with scripted guests (no guest language needed).
use super::driver::{DROP_ASIDE_BYTES, adapt_slice, drive, json_within, take_most_running_calls};
use super::stand_in::StandIn;
use super::*;
use crate::result::{Location, ToolCallStatus};
use crate::tool::{Tool, ToolError};
use codemode_guest::{Budget, CallId, CallMode, ErrorKind, Guest, GuestError, HostError};
use serde_json::json;
use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

/// What a script plays back (the shape of the Lua machine's steps): `HostCall` starts a call
/// that suspends the program until its reply.
#[derive(Clone, Debug)]
pub(super) enum Step {
    Yield,
    HostCall(HostCall),
    Done(Value),
    Error(GuestError),
}

/// Plays back steps; after `HostReply::Abort(e)` it returns `Step::Error(e)` like the VM;
/// after a `HostReply::Error` the script decides (next step).
pub(super) struct Scripted {
    steps: VecDeque<Step>,
    replies: Arc<Mutex<Vec<HostReply>>>,
    abort: Option<GuestError>,
    logs: Vec<String>,
    busy: bool,
    /// When the script is played out, `run` blocks this long (a native that ignores the
    /// deadline), then returns `Done("late")`.
    pub(super) block: Option<Duration>,
    /// Lines `run` prints at each call (after the initial "log 1").
    print_each_run: bool,
    /// When the script is played out, `run` panics (a bug in the interpreter).
    panic: bool,
    runs: usize,
    started: Vec<HostCall>,
    started_calls: u64,
    waiting: Option<CallId>,
}

impl Scripted {
    pub(super) fn new(steps: Vec<Step>) -> (Self, Arc<Mutex<Vec<HostReply>>>) {
        let replies = Arc::new(Mutex::new(Vec::new()));
        (
            Scripted {
                steps: steps.into(),
                replies: replies.clone(),
                abort: None,
                logs: vec!["log 1".into()],
                busy: false,
                block: None,
                print_each_run: false,
                panic: false,
                runs: 0,
                started: Vec::new(),
                started_calls: 0,
                waiting: None,
            },
            replies,
        )
    }
}

impl Scripted {
    /// One step of the script, in the protocol's terms.
    fn step(&mut self) -> codemode_guest::Step {
        use codemode_guest::Step as G;
        if let Some(e) = self.abort.take() {
            return G::Error(e);
        }
        if self.waiting.is_some() {
            return G::Blocked;
        }
        self.runs += 1;
        if self.print_each_run {
            self.logs.push(format!("run {}", self.runs));
        }
        if self.busy {
            std::thread::sleep(Duration::from_micros(200));
            return G::Yield;
        }
        let step = match (self.steps.pop_front(), self.block) {
            (Some(step), _) => step,
            (None, Some(d)) => {
                std::thread::sleep(d);
                Step::Done(json!("late"))
            }
            (None, None) if self.panic => panic!("interpreter bug"),
            (None, None) => Step::Done(Value::Null),
        };
        match step {
            Step::Yield => G::Yield,
            Step::HostCall(mut call) => {
                self.started_calls += 1;
                call.id = CallId(self.started_calls);
                if call.mode == CallMode::Suspend {
                    self.waiting = Some(call.id);
                }
                self.started.push(call);
                G::Started
            }
            Step::Done(value) => G::Done {
                value,
                returned: true,
            },
            Step::Error(e) => G::Error(e),
        }
    }
}

impl Guest for Scripted {
    fn restartable(&self) -> bool {
        false
    }
    fn run(&mut self, _budget: Budget) -> codemode_guest::Step {
        self.step()
    }
    fn take_calls(&mut self) -> Vec<HostCall> {
        std::mem::take(&mut self.started)
    }
    fn resolve(&mut self, id: CallId, reply: HostReply) {
        if self.waiting == Some(id) {
            self.waiting = None;
        }
        if let HostReply::Abort(e) = &reply {
            self.abort = Some(e.clone());
        }
        self.replies.lock().unwrap().push(reply);
    }
    fn take_logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.logs)
    }
    fn memory_used(&self) -> usize {
        0
    }
}

/// The kind and message of an error reply.
fn kind_message(r: &HostReply) -> (ErrorKind, &str) {
    match r {
        HostReply::Error(e) => (e.kind, e.message.as_str()),
        other => panic!("not an error reply: {other:?}"),
    }
}

pub(super) fn tool_call(path: &str, args: Vec<Value>) -> Step {
    Step::HostCall(HostCall {
        id: CallId(0),
        mode: CallMode::Suspend,
        target: HostTarget::Tool(path.into()),
        args,
        location: None,
        refused: None,
    })
}

fn runtime(limits: Limits) -> CodeMode {
    let echo = Tool::new(
        "Echo the input.",
        json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
        |v| async move { Ok(v) },
    );
    let fail = Tool::new("Always fails.", json!({}), |_| async move {
        Err(ToolError::new("no such order"))
    });
    let secret = Tool::fallible("Internal failure.", json!({}), |_| async move {
        Err::<Value, _>(std::io::Error::other("password=hunter2"))
    });
    let hang = Tool::new("Never returns.", json!({}), |_| async move {
        futures::future::pending::<()>().await;
        Ok(Value::Null)
    });
    let bad_out = Tool::new(
        "Bad output.",
        json!({}),
        |_| async move { Ok(json!("text")) },
    )
    .with_output_schema(json!({"type": "object"}));
    let panics = Tool::new("Panics.", json!({}), |_| async move {
        if true {
            panic!("handler bug");
        }
        Ok(Value::Null)
    });
    let deep = Tool::new("Deep output.", json!({}), |_| async move {
        let mut v = Value::Null;
        for _ in 0..1000 {
            v = Value::Array(vec![v]);
        }
        Ok(v)
    })
    .with_output_schema(json!({"type": "object"}));
    let options = CodeMode::builder()
        .tool("orders.lookup", echo)
        .tool("orders.deep", deep)
        .tool("orders.fail", fail)
        .tool("orders.secret", secret)
        .tool("slow.hang", hang)
        .tool("orders.bad_out", bad_out)
        .tool("orders.panics", panics)
        .limits(limits);
    build(options)
}

/// A runtime over the [`StandIn`] language: the gate's messages are in its words.
pub(super) fn build(options: Options) -> CodeMode {
    CodeMode::with_guest(options, &StandIn).unwrap()
}

async fn run(cm: &CodeMode, g: Scripted) -> ExecutionResult {
    run_guest(cm, g).await
}

async fn run_guest<G: Guest + 'static>(cm: &CodeMode, g: G) -> ExecutionResult {
    let deadline = deadline_after(Instant::now(), cm.inner.limits.timeout_ms());
    drive(
        cm.inner.clone(),
        move || Ok(Box::new(g) as Box<dyn Guest>),
        false,
        deadline,
        &CancellationToken::new(),
    )
    .await
}

#[tokio::test]
async fn successful_call_is_recorded_and_value_returned() {
    let cm = runtime(Limits::default());
    let (g, replies) = Scripted::new(vec![
        tool_call("orders.lookup", vec![json!({"id": 7})]),
        Step::Done(json!(1)),
    ]);
    let r = run(&cm, g).await;
    assert_eq!(
        replies.lock().unwrap()[0],
        HostReply::Value(json!({"id": 7}))
    );
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":1,"logs":["log 1"],"toolCalls":[{"name":"orders.lookup","input":{"id":7},"status":"success"}]}"#
    );
}

#[tokio::test]
async fn invalid_input_is_a_failure_and_its_reply_carries_the_suggestion() {
    let cm = runtime(Limits::default());
    let msg = "Invalid input for tool 'orders.lookup': at /id: \"x\" is not of type \"integer\"";
    let (g, replies) = Scripted::new(vec![
        tool_call("orders.lookup", vec![json!({"id": "x"})]),
        Step::Error(GuestError {
            kind: ErrorKind::InvalidToolInput,
            message: msg.into(),
            location: Some(Location { line: 1, column: 8 }),
            suggestions: vec![],
        }),
    ]);
    let r = run(&cm, g).await;
    let HostReply::Error(e) = &replies.lock().unwrap()[0] else {
        panic!("an error reply")
    };
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::InvalidToolInput, msg)
    );
    assert_eq!(
        e.suggestions,
        vec!["Use search(record(query: \"orders.lookup\")) to get the tool's signature."]
    );
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

#[tokio::test]
async fn too_many_arguments_is_invalid_input() {
    let cm = runtime(Limits::default());
    let (g, replies) = Scripted::new(vec![tool_call("orders.lookup", vec![json!({}), json!(2)])]);
    let r = run(&cm, g).await;
    let HostReply::Error(HostError { kind, message, .. }) = &replies.lock().unwrap()[0] else {
        panic!()
    };
    assert_eq!(*kind, ErrorKind::InvalidToolInput);
    assert!(
        message
            .starts_with("Tool 'orders.lookup' expects at most one input record; got 2 arguments."),
        "{message}"
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    assert_eq!(r.tool_calls[0].input, json!([{}, 2]));
}

#[tokio::test]
async fn tool_errors_map_to_kinds_and_hide_internal_text() {
    let cm = runtime(Limits::default());
    let (g, replies) = Scripted::new(vec![
        tool_call("orders.fail", vec![]),
        tool_call("orders.secret", vec![]),
        tool_call("orders.bad_out", vec![]),
        tool_call("orders.panics", vec![]),
    ]);
    let r = run(&cm, g).await;
    let replies = replies.lock().unwrap();
    assert_eq!(
        kind_message(&replies[0]),
        (ErrorKind::ToolFailure, "no such order")
    );
    assert_eq!(
        kind_message(&replies[1]),
        (ErrorKind::ToolFailure, "Tool 'orders.secret' failed.")
    );
    assert_eq!(
        kind_message(&replies[2]),
        (
            ErrorKind::InvalidToolOutput,
            "Invalid output from tool 'orders.bad_out': at the top level: \"text\" is not of type \"object\""
        )
    );
    assert_eq!(
        kind_message(&replies[3]),
        (ErrorKind::ToolFailure, "Tool 'orders.panics' failed.")
    );
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Failure)
    );
    assert_eq!(r.tool_calls[0].input, json!({}));
}

#[tokio::test]
async fn unknown_tool_suggests_nearest() {
    let cm = runtime(Limits::default());
    let (g, replies) = Scripted::new(vec![
        tool_call("orders.lookpu", vec![]),
        tool_call("zzz.qqq", vec![]),
    ]);
    let r = run(&cm, g).await;
    let replies = replies.lock().unwrap();
    assert_eq!(
        kind_message(&replies[0]),
        (
            ErrorKind::UnknownTool,
            "unknown tool 'tools.orders.lookpu' (did you mean tools.orders.lookup?)"
        )
    );
    assert_eq!(
        kind_message(&replies[1]),
        (
            ErrorKind::UnknownTool,
            "unknown tool 'tools.zzz.qqq': there is no namespace 'zzz'; the namespaces are: tools.orders, tools.slow; use search(record(query: \"...\")) to find tools by what they do"
        )
    );
    assert!(r.tool_calls.is_empty());
}

#[tokio::test]
async fn limit_aborts_and_refused_calls_are_not_listed() {
    let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
    let (g, _replies) = Scripted::new(vec![
        tool_call("orders.lookup", vec![]),
        tool_call("nope", vec![]),
        tool_call("orders.lookup", vec![]),
    ]);
    let r = run(&cm, g).await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolCallLimitExceeded);
    assert!(
        e.message
            .starts_with("Execution exceeded its tool-call limit of 2;"),
        "{}",
        e.message
    );
    assert_eq!(r.tool_calls.len(), 1);
}

#[tokio::test]
async fn zero_limit_refuses_the_first_call() {
    let cm = runtime(Limits::default().with_max_tool_calls(0).unwrap());
    let (g, _) = Scripted::new(vec![Step::HostCall(HostCall {
        id: CallId(0),
        mode: CallMode::Suspend,
        target: HostTarget::Search,
        args: vec![],
        location: None,
        refused: None,
    })]);
    let r = run(&cm, g).await;
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::ToolCallLimitExceeded
    );
    assert!(r.tool_calls.is_empty());
}

#[tokio::test]
async fn hanging_tool_is_interrupted_at_the_deadline() {
    let cm = runtime(Limits::default().with_timeout_ms(50).unwrap());
    let (g, _) = Scripted::new(vec![
        tool_call("orders.lookup", vec![]),
        tool_call("slow.hang", vec![json!({"a": 1})]),
    ]);
    let t = std::time::Instant::now();
    let r = run(&cm, g).await;
    assert!(
        t.elapsed() < Duration::from_millis(150),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 50ms.","suggestions":["Do less in one execution: narrow tool queries, avoid unbounded loops, or continue the work in a new execution."]},"logs":["log 1"],"toolCalls":[{"name":"orders.lookup","input":{},"status":"success"},{"name":"slow.hang","input":{"a":1},"status":"interrupted"}]}"#
    );
}

#[tokio::test]
async fn busy_guest_times_out() {
    let cm = runtime(Limits::default().with_timeout_ms(30).unwrap());
    let (mut g, _) = Scripted::new(vec![]);
    g.busy = true;
    let t = std::time::Instant::now();
    let r = run(&cm, g).await;
    assert!(
        t.elapsed() < Duration::from_millis(130),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.logs, vec!["log 1"]);
}

#[tokio::test]
async fn cancellation_interrupts_a_tool() {
    let cm = runtime(Limits::default());
    let (g, _) = Scripted::new(vec![tool_call("slow.hang", vec![])]);
    let token = CancellationToken::new();
    let t2 = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        t2.cancel();
    });
    let deadline = deadline_after(Instant::now(), 60_000);
    let r = drive(
        cm.inner.clone(),
        move || Ok(Box::new(g) as Box<dyn Guest>),
        false,
        deadline,
        &token,
    )
    .await;
    assert_eq!(
        r.error().unwrap().message,
        "Execution was cancelled by the host."
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
}

#[tokio::test]
async fn search_is_a_counted_tool_call() {
    let cm = runtime(Limits::default());
    let (g, replies) = Scripted::new(vec![
        Step::HostCall(HostCall {
            id: CallId(0),
            mode: CallMode::Suspend,
            target: HostTarget::Search,
            args: vec![json!({"query": "lookup"})],
            location: None,
            refused: None,
        }),
        Step::HostCall(HostCall {
            id: CallId(0),
            mode: CallMode::Suspend,
            target: HostTarget::Search,
            args: vec![json!({"limit": 0})],
            location: None,
            refused: None,
        }),
    ]);
    let r = run(&cm, g).await;
    let replies = replies.lock().unwrap();
    let HostReply::Value(v) = &replies[0] else {
        panic!("{:?}", replies[0])
    };
    assert_eq!(v["items"][0]["path"], json!("orders.lookup"));
    assert_eq!(
        v["items"][0]["signature"],
        // In the runtime's notation (the stand-in's).
        json!("tools.orders.lookup({ id?: whole }) => unknown")
    );
    assert_eq!(v["remaining"], json!(0));
    assert_eq!(v["next"], Value::Null);
    let HostReply::Error(HostError { kind, message, .. }) = &replies[1] else {
        panic!()
    };
    assert_eq!(*kind, ErrorKind::InvalidToolInput);
    assert_eq!(
        message,
        "search: 'limit' must be an integer from 1 to 50; got 0."
    );
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(r.tool_calls[0].name, "search");
    assert_eq!(r.tool_calls[1].status, ToolCallStatus::Failure);
}

#[tokio::test]
async fn extension_calls_are_counted_and_listed() {
    let cm = runtime(Limits::default().with_max_tool_calls(1).unwrap());
    let (g, replies) = Scripted::new(vec![
        Step::HostCall(HostCall {
            id: CallId(0),
            mode: CallMode::Suspend,
            target: HostTarget::Extension("fs.read".into()),
            args: vec![],
            location: None,
            refused: None,
        }),
        tool_call("orders.lookup", vec![]),
    ]);
    let r = run(&cm, g).await;
    assert_eq!(
        kind_message(&replies.lock().unwrap()[0]),
        (
            ErrorKind::ExecutionFailure,
            "Extension function 'fs.read' is not available in this host."
        )
    );
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::ToolCallLimitExceeded
    );
    // The extension attempt is listed (as a failure); the call past the limit is not.
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "fs.read");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

/// The timeout outcome of the backstop tests: the earlier call and the logs of the slices
/// that returned are kept; "run 3" was printed inside the blocked slice and is lost.
const BACKSTOP_RESULT: &str = r#"{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 100ms.","suggestions":["Do less in one execution: narrow tool queries, avoid unbounded loops, or continue the work in a new execution."]},"logs":["log 1","run 1","run 2"],"toolCalls":[{"name":"orders.lookup","input":{"id":1},"status":"success"}]}"#;

/// A guest that calls a tool, yields once, then blocks in one `run` for 3 s.
fn blocking_guest() -> Scripted {
    let (mut g, _) = Scripted::new(vec![
        tool_call("orders.lookup", vec![json!({"id": 1})]),
        Step::Yield,
    ]);
    g.block = Some(Duration::from_secs(3));
    g.print_each_run = true;
    g
}

async fn backstop_times_out() {
    let cm = runtime(Limits::default().with_timeout_ms(100).unwrap());
    let t = std::time::Instant::now();
    let r = run(&cm, blocking_guest()).await;
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(100), "{took:?}");
    assert!(took < Duration::from_millis(200), "{took:?}");
    assert_eq!(r.to_json_string(), BACKSTOP_RESULT);
}

#[tokio::test]
async fn backstop_ends_a_blocked_slice_on_current_thread_runtime() {
    backstop_times_out().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backstop_ends_a_blocked_slice_on_multi_thread_runtime() {
    backstop_times_out().await;
}

#[tokio::test]
async fn cancel_ends_a_blocked_slice() {
    let cm = runtime(Limits::default());
    let token = CancellationToken::new();
    let t2 = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        t2.cancel();
    });
    let deadline = deadline_after(Instant::now(), 60_000);
    let g = blocking_guest();
    let t = std::time::Instant::now();
    let r = drive(
        cm.inner.clone(),
        move || Ok(Box::new(g) as Box<dyn Guest>),
        false,
        deadline,
        &token,
    )
    .await;
    let took = t.elapsed();
    assert!(took < Duration::from_millis(150), "{took:?}");
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":false,"error":{"kind":"ExecutionFailure","message":"Execution was cancelled by the host."},"logs":["log 1","run 1","run 2"],"toolCalls":[{"name":"orders.lookup","input":{"id":1},"status":"success"}]}"#
    );
}

#[tokio::test]
async fn panic_in_a_slice_is_an_internal_execution_failure() {
    let cm = runtime(Limits::default());
    let (mut g, _) = Scripted::new(vec![tool_call("orders.lookup", vec![])]);
    g.panic = true;
    let r = run(&cm, g).await;
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":false,"error":{"kind":"ExecutionFailure","message":"Internal error: the interpreter panicked. This is a bug in codemode, not in your program; run it again, and report it if it repeats."},"logs":["log 1"],"toolCalls":[{"name":"orders.lookup","input":{},"status":"success"}]}"#
    );
}

#[test]
fn json_within_is_an_upper_bound_and_stops_early() {
    let small = json!({"a": [1, 2, "xyz"], "b": null});
    assert!(json_within(&small, 1024));
    assert!(!json_within(&small, 16));
    let big = json!(vec![1; 1_000_000]);
    assert!(!json_within(&big, 256 * 1024));
    let text = json!("x".repeat(100_000));
    assert!(!json_within(&text, 256 * 1024));
    assert!(json_within(&text, 1024 * 1024));
    // Its estimate is never below the real length.
    for v in [small, json!({"k\"": "\u{1}\u{2}"}), json!([[[]], {}])] {
        let real = serde_json::to_string(&v).unwrap().len();
        assert!(json_within(&v, 8 * real + 64), "{v}");
        assert!(!json_within(&v, real.saturating_sub(1)) || real == 0, "{v}");
    }
}

#[tokio::test]
async fn setup_failure_is_the_result() {
    let cm = runtime(Limits::default());
    let deadline = deadline_after(Instant::now(), 60_000);
    let r = drive(
        cm.inner.clone(),
        || Err(Diagnostic::new(DiagnosticKind::ParseError, "bad")),
        false,
        deadline,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":false,"error":{"kind":"ParseError","message":"bad"},"toolCalls":[]}"#
    );
}

#[tokio::test]
async fn logs_of_yield_slices_are_collected() {
    let cm = runtime(Limits::default());
    let (mut g, _) = Scripted::new(vec![Step::Yield, Step::Yield]);
    g.print_each_run = true;
    let r = run(&cm, g).await;
    assert_eq!(r.logs, vec!["log 1", "run 1", "run 2", "run 3"]);
}

#[tokio::test]
async fn logs_past_the_output_limit_are_counted_not_kept() {
    // The host keeps "log 1" and "run 1" (6 bytes each; "run 2" would make 18 > 16) and
    // only counts the three later lines; the value null (4) leaves 12 for both.
    let cm = runtime(Limits::default().with_max_output_bytes(16).unwrap());
    let (mut g, _) = Scripted::new(vec![Step::Yield, Step::Yield, Step::Yield]);
    g.print_each_run = true;
    let r = run(&cm, g).await;
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":null,"warnings":[{"kind":"Truncated","message":"Output was cut by the 16-byte output limit (max_output_bytes): the logs (showing 2 of 5 lines). To get everything back, print less."}],"logs":["log 1","run 1","[logs truncated: showing 2 of 5 lines]"],"truncated":true,"toolCalls":[]}"#
    );
}

#[tokio::test]
async fn oversize_tool_input_is_recorded_as_a_marker() {
    // Budget 30: the first input (8 bytes) is copied; the second (108 bytes) does not fit
    // what is left (22) and is recorded as the marker. At the end value null (4) and the
    // log "log 1" (6) leave 20 for inputs: {"id":7} stays.
    let cm = runtime(Limits::default().with_max_output_bytes(30).unwrap());
    let big = json!({"s": "x".repeat(100)});
    let (g, replies) = Scripted::new(vec![
        tool_call("orders.lookup", vec![json!({"id": 7})]),
        tool_call("orders.fail", vec![big]),
    ]);
    let r = run(&cm, g).await;
    assert_eq!(
        kind_message(&replies.lock().unwrap()[1]),
        (ErrorKind::ToolFailure, "no such order")
    );
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":true,"value":null,"warnings":[{"kind":"Truncated","message":"Output was cut by the 30-byte output limit (max_output_bytes): 1 tool-call input in toolCalls (the calls themselves got their full input). To get everything back, pass smaller inputs if you need them listed."}],"logs":["log 1"],"truncated":true,"toolCalls":[{"name":"orders.lookup","input":{"id":7},"status":"success"},{"name":"orders.fail","input":"[input omitted by the output limit: 108 bytes of JSON]","status":"failure"}]}"#
    );
}

#[tokio::test]
async fn deep_tool_output_is_invalid_before_the_schema_check() {
    let cm = runtime(Limits::default());
    let (g, replies) = Scripted::new(vec![tool_call("orders.deep", vec![])]);
    let r = run(&cm, g).await;
    assert_eq!(
        kind_message(&replies.lock().unwrap()[0]),
        (
            ErrorKind::InvalidToolOutput,
            "Invalid output from tool 'orders.deep': the output nests deeper than 128 levels; tools must return flatter data"
        )
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

/// A guest that records which thread dropped it; dropping it takes `drop_time`.
struct DropProbe {
    inner: Scripted,
    dropped_on: Arc<Mutex<Option<std::thread::ThreadId>>>,
    memory: usize,
    drop_time: Duration,
}

impl Drop for DropProbe {
    fn drop(&mut self) {
        std::thread::sleep(self.drop_time);
        *self.dropped_on.lock().unwrap() = Some(std::thread::current().id());
    }
}

/// Waits up to 5 s for the probe's drop; the dropping thread.
async fn dropped_on(probe: &Mutex<Option<std::thread::ThreadId>>) -> std::thread::ThreadId {
    let mut waited = Duration::ZERO;
    loop {
        if let Some(id) = *probe.lock().unwrap() {
            return id;
        }
        assert!(
            waited < Duration::from_secs(5),
            "the guest was never dropped"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
        waited += Duration::from_millis(5);
    }
}

impl Guest for DropProbe {
    fn restartable(&self) -> bool {
        false
    }
    fn run(&mut self, budget: Budget) -> codemode_guest::Step {
        self.inner.run(budget)
    }
    fn take_calls(&mut self) -> Vec<HostCall> {
        self.inner.take_calls()
    }
    fn resolve(&mut self, id: CallId, reply: HostReply) {
        self.inner.resolve(id, reply)
    }
    fn take_logs(&mut self) -> Vec<String> {
        self.inner.take_logs()
    }
    fn memory_used(&self) -> usize {
        self.memory
    }
}

#[tokio::test]
async fn a_guest_parked_at_the_deadline_is_dropped_off_the_driver_thread() {
    let cm = runtime(Limits::default().with_timeout_ms(50).unwrap());
    let (g, _) = Scripted::new(vec![tool_call("slow.hang", vec![])]);
    let probe_on = Arc::new(Mutex::new(None));
    let probe = DropProbe {
        inner: g,
        dropped_on: probe_on.clone(),
        memory: 0,
        drop_time: Duration::ZERO,
    };
    let r = run_guest(&cm, probe).await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
    assert_ne!(dropped_on(&probe_on).await, std::thread::current().id());
}

/// A finished guest over [`DROP_ASIDE_BYTES`] is freed after the result is back; a small one
/// before (inline, in the segment).
#[tokio::test]
async fn a_large_finished_guest_is_dropped_after_the_result() {
    let cm = runtime(Limits::default());
    for (memory, result_waits) in [(DROP_ASIDE_BYTES + 1, false), (DROP_ASIDE_BYTES, true)] {
        let (g, _) = Scripted::new(vec![Step::Done(json!(7))]);
        let probe_on = Arc::new(Mutex::new(None));
        let probe = DropProbe {
            inner: g,
            dropped_on: probe_on.clone(),
            memory,
            drop_time: Duration::from_millis(300),
        };
        let t = std::time::Instant::now();
        let r = run_guest(&cm, probe).await;
        let took = t.elapsed();
        assert_eq!(r.value(), Some(&json!(7)));
        assert_eq!(took >= Duration::from_millis(300), result_waits, "{took:?}");
        assert_ne!(dropped_on(&probe_on).await, std::thread::current().id());
    }
}

#[test]
fn slice_adapts_toward_one_millisecond() {
    assert_eq!(adapt_slice(10_000, Duration::from_millis(5)), 5_000);
    assert_eq!(adapt_slice(10_000, Duration::from_micros(100)), 20_000);
    assert_eq!(adapt_slice(10_000, Duration::from_millis(1)), 10_000);
    assert_eq!(adapt_slice(MIN_SLICE, Duration::from_secs(1)), MIN_SLICE);
    assert_eq!(adapt_slice(MAX_SLICE, Duration::ZERO), MAX_SLICE);
}

// ---------------------------------------------------------------------------------------------
// Calls in flight: a guest that starts many calls without waiting for each (a JavaScript
// `Promise.all`), scripted.

/// Starts `n` calls of `path` with inputs `{ "i": 0 }` .. `{ "i": n - 1 }` in one run without
/// waiting for them ([`CallMode::Continue`]), then is blocked until every reply came, then
/// returns the replies' values (or error messages) in call order.
struct Fanout {
    n: usize,
    path: String,
    started: bool,
    calls: Vec<HostCall>,
    replies: Vec<Option<Value>>,
    /// Block without starting anything (a promise that never settles).
    stuck: bool,
    /// An abort reply came: the run ends with it.
    abort: Option<GuestError>,
}

impl Fanout {
    fn new(n: usize, path: &str) -> Self {
        Fanout {
            n,
            path: path.into(),
            started: false,
            calls: Vec::new(),
            replies: vec![None; n],
            stuck: false,
            abort: None,
        }
    }
}

impl Guest for Fanout {
    fn restartable(&self) -> bool {
        false
    }
    fn run(&mut self, _budget: Budget) -> codemode_guest::Step {
        use codemode_guest::Step as G;
        if let Some(e) = self.abort.take() {
            return G::Error(e);
        }
        if self.stuck {
            return G::Blocked;
        }
        if !self.started {
            self.started = true;
            for i in 0..self.n {
                self.calls.push(HostCall {
                    id: CallId(i as u64 + 1),
                    target: HostTarget::Tool(self.path.clone()),
                    args: vec![json!({ "i": i })],
                    location: None,
                    mode: CallMode::Continue,
                    refused: None,
                });
            }
            return G::Started;
        }
        if self.replies.iter().any(Option::is_none) {
            return G::Blocked;
        }
        G::Done {
            value: Value::Array(self.replies.iter().flatten().cloned().collect()),
            returned: true,
        }
    }
    fn take_calls(&mut self) -> Vec<HostCall> {
        std::mem::take(&mut self.calls)
    }
    fn resolve(&mut self, id: CallId, reply: HostReply) {
        let slot = &mut self.replies[id.0 as usize - 1];
        assert!(slot.is_none(), "call {id:?} answered twice");
        *slot = Some(match reply {
            HostReply::Value(v) => v,
            HostReply::Error(e) => json!(e.message),
            HostReply::Abort(e) => {
                let m = json!(e.message);
                self.abort.get_or_insert(e);
                m
            }
        });
    }
    fn take_logs(&mut self) -> Vec<String> {
        Vec::new()
    }
    fn memory_used(&self) -> usize {
        0
    }
}

/// What a gated tool saw: handlers running now and at most, and the order they started.
#[derive(Default)]
struct GateProbe {
    running: usize,
    most: usize,
    starts: Vec<u64>,
}

/// A runtime with `gated.wait`: each handler records itself in `probe`, then sleeps
/// `(n - i) * step_ms` (later calls finish first) or forever when `step_ms` is 0, and returns
/// `{ "i": i }`. `after` records every `tool_after` outcome label with the input's `i`.
fn gated_runtime(
    n: u64,
    step_ms: u64,
    timeout_ms: u64,
    probe: Arc<Mutex<GateProbe>>,
    after: Arc<Mutex<Vec<(u64, &'static str)>>>,
) -> CodeMode {
    let tool = Tool::new(
        "Waits.",
        json!({"type": "object", "properties": {"i": {"type": "integer"}}}),
        move |v: Value| {
            let probe = probe.clone();
            async move {
                let i = v["i"].as_u64().unwrap();
                {
                    let mut p = probe.lock().unwrap();
                    p.running += 1;
                    p.most = p.most.max(p.running);
                    p.starts.push(i);
                }
                if step_ms == 0 {
                    futures::future::pending::<()>().await;
                }
                tokio::time::sleep(Duration::from_millis((n - i) * step_ms)).await;
                probe.lock().unwrap().running -= 1;
                Ok(json!({ "i": i }))
            }
        },
    );
    let hooks = crate::hooks::FnHooks::new().tool_after(move |_, input, outcome| {
        after
            .lock()
            .unwrap()
            .push((input["i"].as_u64().unwrap(), outcome.label()));
    });
    build(
        CodeMode::builder()
            .tool("gated.wait", tool)
            .hooks(hooks)
            .limits(Limits::default().with_timeout_ms(timeout_ms).unwrap()),
    )
}

#[tokio::test]
async fn at_most_eight_calls_run_at_once_started_first_in_first_out() {
    let probe = Arc::new(Mutex::new(GateProbe::default()));
    let after = Arc::new(Mutex::new(Vec::new()));
    let cm = gated_runtime(20, 2, 10_000, probe.clone(), after.clone());
    take_most_running_calls();
    let r = run_guest(&cm, Fanout::new(20, "gated.wait")).await;
    // Replies reached the call they answer, though later calls finished first.
    let expected: Vec<Value> = (0..20).map(|i| json!({ "i": i })).collect();
    assert_eq!(r.value(), Some(&Value::Array(expected)), "{:?}", r.outcome);
    let p = probe.lock().unwrap();
    assert_eq!(p.most, MAX_CONCURRENT_HOST_CALLS);
    assert_eq!(
        p.starts,
        (0..20).collect::<Vec<u64>>(),
        "first in, first out"
    );
    assert!(take_most_running_calls() <= MAX_CONCURRENT_HOST_CALLS);
    // The record is in admission order, every call a success, every after hook run once.
    let inputs: Vec<Value> = r.tool_calls.iter().map(|c| c.input.clone()).collect();
    assert_eq!(
        inputs,
        (0..20).map(|i| json!({ "i": i })).collect::<Vec<_>>()
    );
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Success)
    );
    let mut seen = after.lock().unwrap().clone();
    seen.sort();
    assert_eq!(seen, (0..20).map(|i| (i, "success")).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_timeout_with_calls_in_flight_interrupts_every_one() {
    let probe = Arc::new(Mutex::new(GateProbe::default()));
    let after = Arc::new(Mutex::new(Vec::new()));
    let cm = gated_runtime(20, 0, 100, probe.clone(), after.clone());
    let t = std::time::Instant::now();
    let r = run_guest(&cm, Fanout::new(20, "gated.wait")).await;
    assert!(
        t.elapsed() < Duration::from_millis(1_000),
        "{:?}",
        t.elapsed()
    );
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    // 8 were running, 12 queued: all 20 are listed, interrupted, in admission order.
    assert_eq!(
        probe.lock().unwrap().starts.len(),
        MAX_CONCURRENT_HOST_CALLS
    );
    assert_eq!(r.tool_calls.len(), 20);
    for (i, c) in r.tool_calls.iter().enumerate() {
        assert_eq!(c.status, ToolCallStatus::Interrupted);
        assert_eq!(c.input, json!({ "i": i }));
    }
    // Every one got its after hook, once, with the interrupted outcome.
    let mut seen = after.lock().unwrap().clone();
    seen.sort();
    assert_eq!(
        seen,
        (0..20).map(|i| (i, "interrupted")).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn a_guest_blocked_with_nothing_pending_fails_at_once() {
    let cm = runtime(Limits::default().with_timeout_ms(10_000).unwrap());
    let mut g = Fanout::new(0, "orders.lookup");
    g.stuck = true;
    let t = std::time::Instant::now();
    let r = run_guest(&cm, g).await;
    assert!(
        t.elapsed() < Duration::from_millis(1_000),
        "{:?}",
        t.elapsed()
    );
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert!(
        e.message.starts_with(
            "The program is waiting for a host call, but no call is running or queued"
        ),
        "{}",
        e.message
    );
}

#[tokio::test]
async fn calls_admitted_together_count_against_the_limit_in_program_order() {
    let cm = build(
        CodeMode::builder()
            .tool(
                "orders.lookup",
                Tool::new("Echo.", json!({}), |v| async move { Ok(v) }),
            )
            .limits(Limits::default().with_max_tool_calls(3).unwrap()),
    );
    let r = run_guest(&cm, Fanout::new(5, "orders.lookup")).await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolCallLimitExceeded);
    let inputs: Vec<Value> = r.tool_calls.iter().map(|c| c.input.clone()).collect();
    assert_eq!(
        inputs,
        vec![json!({"i": 0}), json!({"i": 1}), json!({"i": 2})]
    );
}
