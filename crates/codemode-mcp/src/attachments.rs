//! Per-execution state shared with the tool handlers of downstream servers: attachments (image,
//! audio and resource parts kept host-side) and progress reports for nested calls.
//!
//! Tool futures are polled inside the execution future, so a task-local set around the
//! execution reaches every handler of that execution and no other.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// Called after every nested tool call of an execution with the number of calls done so far
/// and the path of the call that finished.
pub type ProgressFn = Arc<dyn Fn(u64, &str) + Send + Sync>;

/// Most attachments one execution keeps; later parts are referenced with `attachment = 0`
/// (dropped).
pub const MAX_ATTACHMENTS: usize = 64;

/// State of one execution.
#[derive(Default)]
pub struct ExecContext {
    attachments: Mutex<Vec<Value>>,
    progress: Option<ProgressFn>,
    done: AtomicU64,
}

impl ExecContext {
    /// A context; `progress` (if any) hears about every finished nested call.
    pub fn new(progress: Option<ProgressFn>) -> Arc<ExecContext> {
        Arc::new(ExecContext {
            attachments: Mutex::new(Vec::new()),
            progress,
            done: AtomicU64::new(0),
        })
    }

    /// The attachments gathered so far, as MCP content parts (numbered from 1 in order).
    pub fn take_attachments(&self) -> Vec<Value> {
        std::mem::take(&mut *self.attachments.lock().expect("attachments lock"))
    }
}

tokio::task_local! {
    static CTX: Arc<ExecContext>;
}

/// Run `fut` with `ctx` as the current execution context.
pub async fn scope<F: Future>(ctx: Arc<ExecContext>, fut: F) -> F::Output {
    CTX.scope(ctx, fut).await
}

/// Keep `part` (an MCP content part) with the current execution; returns its 1-based number, or
/// 0 when there is no current execution or it already holds [`MAX_ATTACHMENTS`].
pub fn attach(part: Value) -> usize {
    CTX.try_with(|c| {
        let mut a = c.attachments.lock().expect("attachments lock");
        if a.len() >= MAX_ATTACHMENTS {
            return 0;
        }
        a.push(part);
        a.len()
    })
    .unwrap_or(0)
}

/// Report that a nested call to `path` finished (progress notification, when requested).
pub fn call_done(path: &str) {
    let _ = CTX.try_with(|c| {
        let n = c.done.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(p) = &c.progress {
            p(n, path);
        }
    });
}

/// Run `f` synchronously in a fresh context and return its attachments too (tests, and hosts
/// that map results outside an execution).
pub fn collect_sync<R>(f: impl FnOnce() -> R) -> (R, Vec<Value>) {
    let ctx = ExecContext::new(None);
    let r = CTX.sync_scope(ctx.clone(), f);
    (r, ctx.take_attachments())
}
