//! Driver tests of `Options::max_computing_executions` (issue 17, point 17): waiting for a
//! computing slot, and the deadline and cancellation ending that wait. Scripted guests from
//! `tests.rs`.
use super::driver::drive;
use super::tests::{Scripted, Step, build, tool_call};
use super::*;
use crate::tool::Tool;
use codemode_guest::Guest;
use serde_json::json;
use std::time::Duration;

/// A runtime over the stand-in language with `slots` computing slots
/// (`Options::max_computing_executions`) and a tool that answers after 50 ms.
fn computing_runtime(slots: usize, limits: Limits) -> CodeMode {
    let slow = Tool::new("Answers after 50 ms.", json!({}), |v| async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        Ok(v)
    });
    build(
        CodeMode::builder()
            .tool("slow.echo", slow)
            .limits(limits)
            .max_computing_executions(slots),
    )
}

/// A guest whose one run blocks its pool thread (and computing slot) for `d`.
fn computing_guest(d: Duration) -> Scripted {
    let (mut g, _) = Scripted::new(Vec::new());
    g.block = Some(d);
    g
}

/// Drive `g` on `cm` with its own deadline `ms` from now and `token`.
async fn drive_for<G: Guest + 'static>(
    cm: &CodeMode,
    g: G,
    ms: u64,
    token: &CancellationToken,
) -> ExecutionResult {
    let deadline = deadline_after(Instant::now(), ms);
    drive(
        cm.inner.clone(),
        move || Ok(Box::new(g) as Box<dyn Guest>),
        false,
        deadline,
        token,
    )
    .await
}

/// Issue 17, point 17: with one computing slot, a second execution that needs the pool waits
/// until the first one's segment ends; with two slots it does not wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_execution_waits_for_a_computing_slot() {
    for (slots, waits) in [(1, true), (2, false)] {
        let cm = computing_runtime(slots, Limits::default());
        let first = {
            let cm = cm.clone();
            tokio::spawn(async move {
                let token = CancellationToken::new();
                drive_for(
                    &cm,
                    computing_guest(Duration::from_millis(300)),
                    10_000,
                    &token,
                )
                .await
            })
        };
        tokio::time::sleep(Duration::from_millis(30)).await;
        let t = std::time::Instant::now();
        let (g, _) = Scripted::new(vec![Step::Done(json!("second"))]);
        let r = drive_for(&cm, g, 10_000, &CancellationToken::new()).await;
        let took = t.elapsed();
        assert_eq!(r.value(), Some(&json!("second")), "{}", r.to_json_string());
        if waits {
            assert!(
                took >= Duration::from_millis(200),
                "{slots} slot(s): {took:?}"
            );
        } else {
            assert!(
                took < Duration::from_millis(150),
                "{slots} slot(s): {took:?}"
            );
        }
        let r = first.await.unwrap();
        assert_eq!(r.value(), Some(&json!("late")), "{}", r.to_json_string());
    }
}

/// An execution that holds the one computing slot for 400 ms, started after `cm`'s other
/// execution has made its first (slow) tool call.
fn occupy_the_slot(cm: &CodeMode) -> tokio::task::JoinHandle<ExecutionResult> {
    let cm = cm.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(10)).await;
        let token = CancellationToken::new();
        drive_for(
            &cm,
            computing_guest(Duration::from_millis(400)),
            10_000,
            &token,
        )
        .await
    })
}

/// A guest that calls `slow.echo`, then needs the pool again.
fn calls_then_computes() -> Scripted {
    let (g, _) = Scripted::new(vec![
        tool_call("slow.echo", vec![json!({"id": 1})]),
        Step::Yield,
        Step::Done(json!("done")),
    ]);
    g
}

/// Issue 17, point 17: the deadline passing while the execution waits for a computing slot is
/// an ordinary timeout: `TimeoutExceeded` by the deadline (not when the slot frees), with the
/// tool call made before the wait and the logs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_deadline_ends_a_wait_for_a_computing_slot() {
    let cm = computing_runtime(1, Limits::default().with_timeout_ms(150).unwrap());
    let t = std::time::Instant::now();
    let first = tokio::spawn({
        let cm = cm.clone();
        async move { drive_for(&cm, calls_then_computes(), 150, &CancellationToken::new()).await }
    });
    let holder = occupy_the_slot(&cm);
    let r = first.await.unwrap();
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(150), "{took:?}");
    assert!(took < Duration::from_millis(300), "{took:?}");
    let v: Value = serde_json::from_str(&r.to_json_string()).unwrap();
    assert_eq!(v["error"]["kind"], json!("TimeoutExceeded"), "{v}");
    assert_eq!(
        v["error"]["message"],
        json!("Execution timed out after 150ms.")
    );
    assert_eq!(v["logs"], json!(["log 1"]));
    assert_eq!(
        v["toolCalls"],
        json!([{"name": "slow.echo", "input": {"id": 1}, "status": "success"}])
    );
    assert_eq!(holder.await.unwrap().value(), Some(&json!("late")));
}

/// Cancellation ends a wait for a computing slot at once, with the record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancellation_ends_a_wait_for_a_computing_slot() {
    let cm = computing_runtime(1, Limits::default());
    let token = CancellationToken::new();
    let t2 = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(120)).await;
        t2.cancel();
    });
    let t = std::time::Instant::now();
    let first = tokio::spawn({
        let cm = cm.clone();
        async move { drive_for(&cm, calls_then_computes(), 10_000, &token).await }
    });
    let holder = occupy_the_slot(&cm);
    let r = first.await.unwrap();
    let took = t.elapsed();
    assert!(took < Duration::from_millis(300), "{took:?}");
    assert_eq!(
        r.to_json_string(),
        r#"{"ok":false,"error":{"kind":"ExecutionFailure","message":"Execution was cancelled by the host."},"logs":["log 1"],"toolCalls":[{"name":"slow.echo","input":{"id":1},"status":"success"}]}"#
    );
    assert_eq!(holder.await.unwrap().value(), Some(&json!("late")));
}

#[test]
fn max_computing_executions_must_be_at_least_one() {
    let e = CodeMode::builder()
        .max_computing_executions(0)
        .build()
        .unwrap_err();
    assert_eq!(
        e,
        BuildError::InvalidMaxComputingExecutions {
            value: 0,
            max: tokio::sync::Semaphore::MAX_PERMITS
        }
    );
    assert!(
        e.to_string()
            .starts_with("max_computing_executions must be an integer from 1 to")
    );
    // The bound is checked before the language, so the error is the same with no guest built in.
    let one = CodeMode::with_guest(
        CodeMode::builder().max_computing_executions(1),
        &super::stand_in::StandIn,
    );
    assert!(one.is_ok());
}
