//! Hooks around every host call: order, denial, outcomes (success, failure, denied,
//! interrupted), search and extensions through the same gate, panics, deadlines.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode::hooks::HOOK_PANIC_MESSAGE;
use codemode::{
    CallOutcome, CancellationToken, CodeMode, DiagnosticKind, Extension, FnHooks, Hooks, Limits,
    Tool, ToolCallStatus, ToolError,
};
use futures::future::BoxFuture;
use serde_json::{Value, json};

/// Records every hook call as a line; denies the names in `deny`; `slow_before` makes
/// `tool_before` await a timer first.
#[derive(Default)]
struct Recorder {
    events: Mutex<Vec<String>>,
    outcomes: Mutex<Vec<(String, CallOutcome)>>,
    deny: Vec<&'static str>,
    slow_before: Option<Duration>,
}

impl Recorder {
    fn push(&self, s: String) {
        self.events.lock().unwrap().push(s);
    }
    fn events(&self) -> Vec<String> {
        self.events.lock().unwrap().clone()
    }
}

impl Hooks for Recorder {
    fn tool_before<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            if let Some(d) = self.slow_before {
                tokio::time::sleep(d).await;
            }
            self.push(format!("before {name} {input}"));
            if self.deny.contains(&name) {
                return Err(format!(
                    "{name} is not allowed in this session; ask the user."
                ));
            }
            Ok(())
        })
    }
    fn tool_after<'a>(
        &'a self,
        name: &'a str,
        _input: &'a Value,
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.push(format!("after {name} {}", outcome.label()));
            self.outcomes
                .lock()
                .unwrap()
                .push((name.to_string(), outcome.clone()));
        })
    }
    fn extension_before<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            self.push(format!("ext-before {name} {}", Value::Array(args.to_vec())));
            if self.deny.contains(&name) {
                return Err(format!("{name} is switched off"));
            }
            Ok(())
        })
    }
    fn extension_after<'a>(
        &'a self,
        name: &'a str,
        _args: &'a [Value],
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            self.push(format!("ext-after {name} {}", outcome.label()));
            self.outcomes
                .lock()
                .unwrap()
                .push((name.to_string(), outcome.clone()));
        })
    }
}

fn runtime(hooks: Arc<Recorder>, limits: Limits, log: Arc<Mutex<Vec<String>>>) -> CodeMode {
    let l = log.clone();
    let lookup = Tool::new(
        "Look up an order.",
        json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
        move |v| {
            let l = l.clone();
            async move {
                l.lock().unwrap().push(format!("handler orders.lookup {v}"));
                Ok(json!({"id": v["id"], "total": 42}))
            }
        },
    );
    let fail = Tool::new("Fails.", json!({}), |_| async move {
        Err(ToolError::new("no such order"))
    });
    let bad_out = Tool::new("Bad output.", json!({}), |_| async move { Ok(json!("x")) })
        .with_output_schema(json!({"type": "object"}));
    let hang = Tool::new("Hangs.", json!({}), |_| async move {
        futures::future::pending::<()>().await;
        Ok(Value::Null)
    });
    let l2 = log.clone();
    let delete = Tool::new("Deletes.", json!({}), move |_| {
        let l2 = l2.clone();
        async move {
            l2.lock().unwrap().push("handler orders.delete".into());
            Ok(Value::Null)
        }
    });
    let kv = Extension::new("kv")
        .function("get", |args: Vec<Value>| async move {
            Ok(json!({"key": args.first().cloned().unwrap_or(Value::Null)}))
        })
        .function(
            "fail",
            |_| async move { Err(ToolError::new("kv is read-only")) },
        );
    CodeMode::builder()
        .tool("orders.lookup", lookup)
        .tool("orders.fail", fail)
        .tool("orders.bad_out", bad_out)
        .tool("orders.delete", delete)
        .tool("slow.hang", hang)
        .extension(kv)
        .hooks(hooks)
        .limits(limits)
        .build()
        .unwrap()
}

fn setup(
    deny: Vec<&'static str>,
    limits: Limits,
) -> (CodeMode, Arc<Recorder>, Arc<Mutex<Vec<String>>>) {
    let rec = Arc::new(Recorder {
        deny,
        ..Recorder::default()
    });
    let log = Arc::new(Mutex::new(Vec::new()));
    (runtime(rec.clone(), limits, log.clone()), rec, log)
}

#[tokio::test]
async fn before_then_handler_then_after() {
    let (cm, rec, log) = setup(vec![], Limits::default());
    // The handler logs into the same list through its own handle; interleave by time.
    let r = cm
        .execute("return tools.orders.lookup({ id = 7 }).total")
        .await;
    assert_eq!(r.value(), Some(&json!(42)));
    assert_eq!(
        rec.events(),
        [
            "before orders.lookup {\"id\":7}",
            "after orders.lookup success"
        ]
    );
    assert_eq!(*log.lock().unwrap(), ["handler orders.lookup {\"id\":7}"]);
    let outcomes = rec.outcomes.lock().unwrap();
    assert_eq!(
        outcomes[0],
        (
            "orders.lookup".to_string(),
            CallOutcome::Success(json!({"id": 7, "total": 42}))
        )
    );
}

#[tokio::test]
async fn order_is_pinned_with_one_shared_log() {
    let shared = Arc::new(Mutex::new(Vec::<String>::new()));
    let (s1, s2, s3) = (shared.clone(), shared.clone(), shared.clone());
    let hooks = FnHooks::new()
        .tool_before(move |name, _| {
            s1.lock().unwrap().push(format!("before {name}"));
            Ok(())
        })
        .tool_after(move |name, _, o| {
            s2.lock()
                .unwrap()
                .push(format!("after {name} {}", o.label()))
        });
    let tool = Tool::new("t", json!({}), move |_| {
        let s3 = s3.clone();
        async move {
            s3.lock().unwrap().push("handler".into());
            Ok(json!(1))
        }
    });
    let cm = CodeMode::builder()
        .tool("a.t", tool)
        .hooks(hooks)
        .build()
        .unwrap();
    let r = cm.execute("tools.a.t() return tools.a.t()").await;
    assert_eq!(r.value(), Some(&json!(1)));
    assert_eq!(
        *shared.lock().unwrap(),
        [
            "before a.t",
            "handler",
            "after a.t success",
            "before a.t",
            "handler",
            "after a.t success"
        ]
    );
}

#[tokio::test]
async fn a_denied_call_is_a_catchable_tool_failure_listed_as_denied() {
    let (cm, rec, log) = setup(vec!["orders.delete"], Limits::default());
    let r = cm
        .execute(
            r#"
            local ok, err = pcall(function() return tools.orders.delete({}) end)
            return { ok, err }
            "#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "orders.delete is not allowed in this session; ask the user."
        ])),
        "{}",
        r.to_json_string()
    );
    assert!(log.lock().unwrap().is_empty(), "the handler must not run");
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "orders.delete");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Denied);
    assert_eq!(
        rec.events(),
        ["before orders.delete {}", "after orders.delete denied"]
    );
    assert_eq!(
        rec.outcomes.lock().unwrap()[0].1,
        CallOutcome::Denied("orders.delete is not allowed in this session; ask the user.".into())
    );

    // Uncaught: the run fails with ToolFailure and exactly the hook's message.
    let r = cm.execute("return tools.orders.delete({})").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolFailure);
    assert_eq!(
        e.message,
        "orders.delete is not allowed in this session; ask the user."
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Denied);
}

#[tokio::test]
async fn denied_calls_count_against_max_tool_calls() {
    let (cm, _rec, _) = setup(
        vec!["orders.delete"],
        Limits::default().with_max_tool_calls(2).unwrap(),
    );
    let r = cm
        .execute("pcall(tools.orders.delete) pcall(tools.orders.delete) pcall(tools.orders.delete) return 1")
        .await;
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::ToolCallLimitExceeded
    );
    assert_eq!(r.tool_calls.len(), 2);
}

#[tokio::test]
async fn after_sees_failures_with_kind_and_message() {
    let (cm, rec, _) = setup(vec![], Limits::default());
    let r = cm
        .execute("pcall(tools.orders.fail) pcall(tools.orders.bad_out) return 1")
        .await;
    assert!(r.is_ok());
    let outcomes = rec.outcomes.lock().unwrap();
    assert_eq!(
        outcomes[0].1,
        CallOutcome::Failure {
            kind: DiagnosticKind::ToolFailure,
            message: "no such order".into()
        }
    );
    assert_eq!(
        outcomes[1].1,
        CallOutcome::Failure {
            kind: DiagnosticKind::InvalidToolOutput,
            message: "Invalid output from tool 'orders.bad_out': at the top level: \"x\" is not of type \"object\"".into()
        }
    );
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Failure)
    );
}

#[tokio::test]
async fn invalid_input_never_reaches_the_hooks() {
    let (cm, rec, _) = setup(vec![], Limits::default());
    let r = cm
        .execute(r#"return tools.orders.lookup({ id = "x" })"#)
        .await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    assert!(rec.events().is_empty(), "{:?}", rec.events());
}

#[tokio::test]
async fn after_runs_on_timeout_with_interrupted() {
    let (cm, rec, _) = setup(vec![], Limits::default().with_timeout_ms(100).unwrap());
    let t = std::time::Instant::now();
    let r = cm
        .execute("tools.orders.lookup({ id = 1 }) return tools.slow.hang()")
        .await;
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.tool_calls[1].status, ToolCallStatus::Interrupted);
    assert_eq!(
        rec.events(),
        [
            "before orders.lookup {\"id\":1}",
            "after orders.lookup success",
            "before slow.hang {}",
            "after slow.hang interrupted"
        ]
    );
}

#[tokio::test]
async fn a_slow_before_hook_is_bounded_by_the_deadline() {
    let rec = Arc::new(Recorder {
        slow_before: Some(Duration::from_secs(30)),
        ..Recorder::default()
    });
    let cm = runtime(
        rec.clone(),
        Limits::default().with_timeout_ms(100).unwrap(),
        Arc::default(),
    );
    let t = std::time::Instant::now();
    let r = cm.execute("return tools.orders.lookup({ id = 1 })").await;
    assert!(t.elapsed() < Duration::from_secs(3));
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
    assert_eq!(rec.events(), ["after orders.lookup interrupted"]);
}

#[tokio::test]
async fn after_runs_on_cancellation() {
    let (cm, rec, _) = setup(vec![], Limits::default());
    let token = CancellationToken::new();
    let t2 = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        t2.cancel();
    });
    let r = cm
        .execute_with_cancel("return tools.slow.hang()", token)
        .await;
    assert_eq!(
        r.error().unwrap().message,
        "Execution was cancelled by the host."
    );
    assert_eq!(
        rec.events(),
        ["before slow.hang {}", "after slow.hang interrupted"]
    );
}

#[tokio::test]
async fn search_goes_through_the_tool_hooks() {
    let (cm, rec, _) = setup(vec![], Limits::default());
    let r = cm
        .execute(r#"return #search({ query = "lookup" }).items"#)
        .await;
    assert_eq!(r.value(), Some(&json!(1)));
    assert_eq!(
        rec.events(),
        [
            "before search {\"query\":\"lookup\"}",
            "after search success"
        ]
    );

    let (cm, rec, _) = setup(vec!["search"], Limits::default());
    let r = cm.execute(r#"return search({ query = "lookup" })"#).await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolFailure);
    assert_eq!(
        e.message,
        "search is not allowed in this session; ask the user."
    );
    assert_eq!(r.tool_calls[0].name, "search");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Denied);
    assert_eq!(
        rec.events(),
        [
            "before search {\"query\":\"lookup\"}",
            "after search denied"
        ]
    );
}

#[tokio::test]
async fn extension_calls_go_through_the_extension_hooks() {
    let (cm, rec, _) = setup(vec!["kv.fail"], Limits::default());
    let r = cm
        .execute(
            r#"
            local v = kv.get("a", 2)
            local ok, err = pcall(kv.fail, "x")
            return { v.key, ok, err }
            "#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!(["a", false, "kv.fail is switched off"])),
        "{}",
        r.to_json_string()
    );
    // Listed like tool calls (a denial by the hook is `denied`, an error `failure`).
    let listed: Vec<(&str, ToolCallStatus)> = r
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.status))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("kv.get", ToolCallStatus::Success),
            ("kv.fail", ToolCallStatus::Denied)
        ]
    );
    assert_eq!(
        rec.events(),
        [
            "ext-before kv.get [\"a\",2]",
            "ext-after kv.get success",
            "ext-before kv.fail [\"x\"]",
            "ext-after kv.fail denied"
        ]
    );
    // Not denied: the handler's error is the outcome.
    let (cm, rec, _) = setup(vec![], Limits::default());
    let r = cm.execute("return kv.fail()").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert_eq!(e.message, "kv is read-only");
    assert_eq!(
        rec.outcomes.lock().unwrap()[0].1,
        CallOutcome::Failure {
            kind: DiagnosticKind::ExecutionFailure,
            message: "kv is read-only".into()
        }
    );
}

#[tokio::test]
async fn panicking_hooks_deny_or_are_ignored() {
    let hooks = FnHooks::new()
        .tool_before(|name, _| {
            if name == "a.boom" {
                panic!("hook bug")
            } else {
                Ok(())
            }
        })
        .tool_after(|_, _, _| panic!("after bug"));
    let t = Tool::new("t", json!({}), |_| async move { Ok(json!(5)) });
    let cm = CodeMode::builder()
        .tool("a.ok", t.clone())
        .tool("a.boom", t)
        .hooks(hooks)
        .build()
        .unwrap();
    let r = cm
        .execute("local ok, e = pcall(tools.a.boom) return { tools.a.ok(), e }")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([5, HOOK_PANIC_MESSAGE])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Denied);
    assert_eq!(r.tool_calls[1].status, ToolCallStatus::Success);
}

#[tokio::test]
async fn host_side_call_tool_uses_the_hooks_too() {
    let (cm, rec, _) = setup(vec!["orders.delete"], Limits::default());
    let d = cm.call_tool("orders.delete", json!({})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::ToolFailure);
    assert_eq!(
        d.message,
        "orders.delete is not allowed in this session; ask the user."
    );
    assert_eq!(
        cm.call_tool("orders.lookup", json!({"id": 1}))
            .await
            .unwrap()["total"],
        json!(42)
    );
    assert_eq!(rec.events().len(), 4);
}

#[tokio::test]
async fn fn_hooks_cover_extensions_with_arguments_as_an_array() {
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let s = seen.clone();
    let hooks = FnHooks::new()
        .extension_before(|name, args| {
            if args[0] == json!("secret") {
                Err(format!("{name} may not read secrets"))
            } else {
                Ok(())
            }
        })
        .extension_after(move |name, args, o| {
            s.lock()
                .unwrap()
                .push(format!("{name} {args} {}", o.label()))
        });
    let ext = Extension::new("kv").function("get", |args: Vec<Value>| async move {
        Ok(args.into_iter().next().unwrap_or(Value::Null))
    });
    let cm = CodeMode::builder()
        .extension(ext)
        .hooks(hooks)
        .build()
        .unwrap();
    let r = cm
        .execute(r#"local ok, e = pcall(kv.get, "secret") return { kv.get("a", 1), e }"#)
        .await;
    assert_eq!(
        r.value(),
        Some(&json!(["a", "kv.get may not read secrets"])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(
        *seen.lock().unwrap(),
        ["kv.get [\"secret\"] denied", "kv.get [\"a\",1] success"]
    );
}
