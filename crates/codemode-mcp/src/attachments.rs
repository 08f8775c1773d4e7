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
pub struct ExecContext {
    attachments: Mutex<Vec<Value>>,
    /// Bytes of attachment data kept so far.
    bytes: AtomicU64,
    /// Most bytes of attachment data kept (`codemode.maxAttachmentBytes`).
    max_bytes: u64,
    /// Keep the parts' data (false: only their type, MIME type and URI, for hosts that only
    /// summarize attachments).
    keep_data: bool,
    /// The execution's memory limit, in bytes (replies are accounted against it).
    memory_limit: Option<u64>,
    progress: Option<ProgressFn>,
    done: AtomicU64,
}

impl ExecContext {
    /// A context; `progress` (if any) hears about every finished nested call. Keeps the data of
    /// attachments up to [`crate::limits::DEFAULT_MAX_ATTACHMENT_BYTES`], knows no memory limit.
    pub fn new(progress: Option<ProgressFn>) -> Arc<ExecContext> {
        Self::with_limits(
            progress,
            crate::limits::DEFAULT_MAX_ATTACHMENT_BYTES,
            true,
            None,
        )
    }

    /// A context keeping at most `max_bytes` of attachment data (none at all when `keep_data`
    /// is false: only each part's type, MIME type and URI), for an execution whose memory limit
    /// is `memory_limit` bytes.
    pub fn with_limits(
        progress: Option<ProgressFn>,
        max_bytes: u64,
        keep_data: bool,
        memory_limit: Option<u64>,
    ) -> Arc<ExecContext> {
        Arc::new(ExecContext {
            attachments: Mutex::new(Vec::new()),
            bytes: AtomicU64::new(0),
            max_bytes,
            keep_data,
            memory_limit,
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

/// Bytes of a content part's data: `data` (image, audio), a resource's `text` or `blob`.
pub fn data_bytes(part: &Value) -> u64 {
    let len = |v: Option<&Value>| v.and_then(Value::as_str).map_or(0, str::len) as u64;
    let r = part.get("resource");
    len(part.get("data")) + len(r.and_then(|r| r.get("text"))) + len(r.and_then(|r| r.get("blob")))
}

/// `part` without its data (see [`data_bytes`]).
fn without_data(mut part: Value) -> Value {
    if let Some(m) = part.as_object_mut() {
        m.remove("data");
        if let Some(r) = m.get_mut("resource").and_then(Value::as_object_mut) {
            r.remove("text");
            r.remove("blob");
        }
    }
    part
}

/// Keep `part` (an MCP content part) with the current execution; returns its 1-based number, or
/// 0 (dropped) when there is no current execution, it already holds [`MAX_ATTACHMENTS`], or the
/// part's data would take its attachment bytes past the execution's cap
/// (`codemode.maxAttachmentBytes`). An execution that does not keep data keeps the part's
/// type, MIME type and URI only, and no bytes count.
pub fn attach(part: Value) -> usize {
    CTX.try_with(|c| {
        let mut a = c.attachments.lock().expect("attachments lock");
        if a.len() >= MAX_ATTACHMENTS {
            return 0;
        }
        if c.keep_data {
            let n = data_bytes(&part);
            let used = c.bytes.load(Ordering::Relaxed);
            if used.saturating_add(n) > c.max_bytes {
                return 0;
            }
            c.bytes.store(used + n, Ordering::Relaxed);
            a.push(part);
        } else {
            a.push(without_data(part));
        }
        a.len()
    })
    .unwrap_or(0)
}

/// The memory limit of the current execution, in bytes (`None` outside an execution or when
/// it has none).
pub fn memory_limit() -> Option<u64> {
    CTX.try_with(|c| c.memory_limit).ok().flatten()
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
