//! Calling JavaScript from the runtime's futures.
//!
//! Every handler and hook crosses as a [`Callback`]: a function of the JS layer
//! (`index.js`) that takes one string and returns one string (a synchronous handler) or a
//! promise of one, and never throws or rejects (it catches what the user's function throws and converts its value). It is called
//! through a weak thread-safe function, so it runs on the JS thread while the guest runs on
//! tokio's threads, and an idle `CodeMode` does not keep node alive.
//!
//! The strings:
//! - a tool or extension function gets the JSON of its input (a tool) or argument array (an
//!   extension function) and answers `"v" + JSON` (its value), `"e" + message` (a `ToolError`:
//!   the program sees the message), `"i" + message` (the value is not JSON data: where and
//!   why) or `"f"` (it threw something else, which the JS layer logged);
//! - a `before` hook gets `[name, input]` and answers `""` (allow) or `"d" + message` (deny);
//! - the `pauseBefore` hook gets `[name, input]` and answers `"p"` (pause) or `""` (run),
//!   synchronously (see [`JsHooks`]'s `pause_before`);
//! - an `after` hook gets `[name, input, outcome]`; its answer is ignored.
//!
//! When the call's future is dropped (timeout, cancellation, the program returned), the JS
//! promise runs on by itself: JavaScript cannot stop a running function.

use std::sync::Arc;

use codemode::{CallOutcome, HookTarget, ToolError, ValueHooks};
use futures::future::BoxFuture;
use napi::Status;
use napi::bindgen_prelude::{Either, Promise};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use serde_json::Value;

/// A wrapped JS function `(arg: string) => string | Promise<string>` (see the module docs):
/// a synchronous handler's answer comes back directly, without a promise to settle; weak, so it
/// does not keep the event loop alive.
pub type Callback =
    ThreadsafeFunction<String, Either<String, Promise<String>>, String, Status, false, true>;

/// The message of a denial by a hook that threw something other than `ToolError`.
const HOOK_THREW_MESSAGE: &str = codemode::hooks::HOOK_PANIC_MESSAGE;

/// Call `f(arg)` and await its answer. `None` when node could not run it (the environment
/// is shutting down) or its promise rejected (the JS layer's wrappers never reject).
async fn call(f: &Callback, arg: String) -> Option<String> {
    match f.call_async_catch(arg).await.ok()? {
        Either::A(answer) => Some(answer),
        Either::B(promise) => promise.await.ok(),
    }
}

/// The handler of a tool or extension function backed by a wrapped JS function; `context`
/// (`tool 'orders.lookup'`) names it in the internal error.
pub async fn call_handler(
    f: Arc<Callback>,
    context: Arc<str>,
    arg: Value,
) -> Result<Value, ToolError> {
    let Some(answer) = call(&f, arg.to_string()).await else {
        return Err(ToolError::internal(format!(
            "{context}: node could not run the handler (is it shutting down?)"
        )));
    };
    let (tag, rest) = answer.split_at(answer.len().min(1));
    match tag {
        "v" => serde_json::from_str(rest)
            .map_err(|e| ToolError::invalid_output(format!("the value is not JSON data ({e})"))),
        "e" => Err(ToolError::new(rest)),
        "i" => Err(ToolError::invalid_output(rest)),
        _ => Err(ToolError::internal(format!("{context} threw"))),
    }
}

/// The hooks of the JS layer (each optional).
pub struct JsHooks {
    pause_before: Option<Arc<Callback>>,
    tool_before: Option<Arc<Callback>>,
    tool_after: Option<Arc<Callback>>,
    extension_before: Option<Arc<Callback>>,
    extension_after: Option<Arc<Callback>>,
}

impl JsHooks {
    /// The hooks of `spec`.
    pub fn new(spec: crate::HooksSpec) -> Self {
        JsHooks {
            pause_before: spec.pause_before.map(Arc::new),
            tool_before: spec.tool_before.map(Arc::new),
            tool_after: spec.tool_after.map(Arc::new),
            extension_before: spec.extension_before.map(Arc::new),
            extension_after: spec.extension_after.map(Arc::new),
        }
    }

    fn run_before(
        hook: &Option<Arc<Callback>>,
        name: &str,
        input: Value,
    ) -> BoxFuture<'static, Result<(), String>> {
        let Some(hook) = hook.clone() else {
            return Box::pin(async { Ok(()) });
        };
        let arg = Value::Array(vec![name.into(), input]).to_string();
        Box::pin(async move {
            match call(&hook, arg).await {
                Some(answer) if answer.is_empty() => Ok(()),
                Some(answer) if answer.starts_with('d') => Err(answer[1..].to_owned()),
                _ => Err(HOOK_THREW_MESSAGE.to_owned()),
            }
        })
    }

    /// Run an `after` hook with `outcome` as [`CallOutcome::to_json`] gives it.
    fn run_after(
        hook: &Option<Arc<Callback>>,
        name: &str,
        input: Value,
        outcome: &CallOutcome,
    ) -> BoxFuture<'static, ()> {
        let Some(hook) = hook.clone() else {
            return Box::pin(async {});
        };
        let arg = Value::Array(vec![name.into(), input, outcome.to_json()]).to_string();
        Box::pin(async move {
            let _ = call(&hook, arg).await;
        })
    }
}

impl ValueHooks for JsHooks {
    fn before(
        &self,
        target: HookTarget,
        name: &str,
        input: Value,
    ) -> BoxFuture<'static, Result<(), String>> {
        match target {
            HookTarget::Tool => Self::run_before(&self.tool_before, name, input),
            HookTarget::Extension => Self::run_before(&self.extension_before, name, input),
        }
    }

    fn after(
        &self,
        target: HookTarget,
        name: &str,
        input: Value,
        outcome: &CallOutcome,
    ) -> BoxFuture<'static, ()> {
        match target {
            HookTarget::Tool => Self::run_after(&self.tool_after, name, input, outcome),
            HookTarget::Extension => Self::run_after(&self.extension_after, name, input, outcome),
        }
    }

    /// Ask the `pauseBefore` hook on the JS thread and wait for its answer on this one (the
    /// library asks at admission, on a tokio or blocking-pool thread, never on the JS thread,
    /// and needs the answer at once; the JS layer admits synchronous hooks only). Anything but
    /// `""` pauses the call, also when node cannot run the hook: nothing it was asked about
    /// runs unapproved.
    fn pause_before(&self, name: &str, input: &Value) -> bool {
        let Some(hook) = &self.pause_before else {
            return false;
        };
        let arg = Value::Array(vec![name.into(), input.clone()]).to_string();
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let status = hook.call_with_return_value(
            arg,
            ThreadsafeFunctionCallMode::NonBlocking,
            move |answer: napi::Result<Either<String, Promise<String>>>, _env| {
                let _ = tx.send(matches!(answer, Ok(Either::A(a)) if a.is_empty()));
                Ok(())
            },
        );
        // Not queued (node is shutting down), or dropped unanswered: `recv` fails.
        status != Status::Ok || !rx.recv().unwrap_or(false)
    }
}
