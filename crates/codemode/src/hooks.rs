//! Hooks: the host watches, and may deny, every host call a program makes.
//!
//! A [`Hooks`] value given to [`crate::Options::hooks`] sees every call through one gate in the
//! driver (`runtime.rs`):
//! - tool calls and `search` (named `"search"`): [`Hooks::tool_before`] /
//!   [`Hooks::tool_after`];
//! - extension calls ([`crate::Extension`]): [`Hooks::extension_before`] /
//!   [`Hooks::extension_after`], with the function's dotted global path (`fs.read`) and its
//!   arguments.
//!
//! No call reaches a handler without passing its `before` hook, and every call whose `before` hook
//! ran gets exactly one `after` call with its [`CallOutcome`].
//!
//! ## Order for one tool call
//! count against `max_tool_calls` → resolve the path (UnknownTool: no hooks) → check the input
//! (argument count and JSON Schema; a bad input is an `InvalidToolInput`, listed with status
//! `failure`, no hooks: hooks only see valid input) → list the call → **`tool_before`** → handler
//! → output check → **`tool_after`** → the program continues.
//!
//! ## Denying
//! `tool_before` returning `Err(message)` denies the call: the handler never runs, the call stays
//! listed in `toolCalls` with status `denied`, and the program sees an ordinary catchable error of
//! kind `ToolFailure` whose message is exactly `message` (a program that catches it, with `pcall` in
//! Lua, gets the message with its position; uncaught, the run fails with `ToolFailure` and that message). Write the
//! message for the model: what was refused and what to do instead. A denied extension call fails
//! the same way with kind `ExecutionFailure` (the kind every extension error has).
//! `after` then runs with [`CallOutcome::Denied`].
//!
//! ## Deadlines
//! The `before` hook and the handler run under the execution's deadline and cancellation token:
//! if the deadline passes (or the host cancels) during either, the call's outcome is
//! [`CallOutcome::Interrupted`], `after` still runs, then the run ends with `TimeoutExceeded`
//! (or the cancellation failure). Each `after` hook may run until the deadline or for
//! [`AFTER_HOOK_GRACE`], whichever ends later; after that it is dropped. A hook
//! that panics is treated as a denial (`before`, message "The host refused this call.") or
//! ignored (`after`). Dropping the execution future itself drops everything, hooks included (Rust
//! has no async drop): use a [`crate::CancellationToken`] to stop a run and still get the `after`
//! calls.
//!
//! ```
//! use codemode::{CallOutcome, CodeMode, Hooks, Tool};
//! use futures::future::BoxFuture;
//! use serde_json::{Value, json};
//! use std::sync::{Arc, Mutex};
//!
//! /// Denies deletions and keeps an audit log.
//! #[derive(Default)]
//! struct Policy { log: Mutex<Vec<String>> }
//!
//! impl Hooks for Policy {
//!     fn tool_before<'a>(&'a self, name: &'a str, _input: &'a Value)
//!         -> BoxFuture<'a, Result<(), String>> {
//!         Box::pin(async move {
//!             if name.ends_with(".delete") {
//!                 return Err(format!("{name} is not allowed here; archive the item instead."));
//!             }
//!             Ok(())
//!         })
//!     }
//!     fn tool_after<'a>(&'a self, name: &'a str, _input: &'a Value, outcome: &'a CallOutcome)
//!         -> BoxFuture<'a, ()> {
//!         Box::pin(async move {
//!             self.log.lock().unwrap().push(format!("{name}: {}", outcome.label()));
//!         })
//!     }
//! }
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let echo = Tool::new("Echo.", json!({"type": "object"}), |v| async move { Ok(v) });
//! let policy = Arc::new(Policy::default());
//! let cm = CodeMode::builder()
//!     .tool("items.get", echo.clone())
//!     .tool("items.delete", echo)
//!     .hooks(policy.clone())
//!     .build()?;
//! let r = cm.execute(r#"
//!     local ok, err = pcall(tools.items.delete, { id = 1 })
//!     return { tools.items.get({ id = 1 }).id, err }
//! "#).await;
//! assert_eq!(r.value(), Some(&json!([1, "items.delete is not allowed here; archive the item instead."])));
//! assert_eq!(*policy.log.lock().unwrap(), ["items.delete: denied", "items.get: success"]);
//! # Ok(()) }
//! ```

use std::time::Duration;

use futures::future::BoxFuture;
use serde_json::Value;

use crate::result::{DiagnosticKind, ToolCallStatus};

/// How long an `after` hook may still run once the execution's deadline has passed.
pub const AFTER_HOOK_GRACE: Duration = Duration::from_secs(1);

/// The message a program sees when a `before` hook panicked.
pub const HOOK_PANIC_MESSAGE: &str = "The host refused this call.";

/// How a host call ended, as the `after` hooks see it.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    /// The handler returned this value (for tools: after the output check passed).
    Success(Value),
    /// The handler failed, or its output was rejected: the diagnostic kind and message the
    /// program saw.
    Failure {
        /// `ToolFailure`, `InvalidToolOutput`, `InvalidToolInput` (raised by the handler) or, for
        /// extensions, `ExecutionFailure`.
        kind: DiagnosticKind,
        /// The message the program saw.
        message: String,
    },
    /// The `before` hook denied the call with this message; the handler did not run.
    Denied(String),
    /// The deadline passed or the host cancelled while the call was running.
    Interrupted,
}

impl CallOutcome {
    /// The status in lower case, as in `toolCalls`: `"success"`, `"failure"`, `"denied"`,
    /// `"interrupted"`.
    pub fn label(&self) -> &'static str {
        match self {
            CallOutcome::Success(_) => "success",
            CallOutcome::Failure { .. } => "failure",
            CallOutcome::Denied(_) => "denied",
            CallOutcome::Interrupted => "interrupted",
        }
    }

    /// The matching `toolCalls` status (`success`, `failure`, `denied`, `interrupted`).
    pub fn status(&self) -> ToolCallStatus {
        match self {
            CallOutcome::Success(_) => ToolCallStatus::Success,
            CallOutcome::Failure { .. } => ToolCallStatus::Failure,
            CallOutcome::Denied(_) => ToolCallStatus::Denied,
            CallOutcome::Interrupted => ToolCallStatus::Interrupted,
        }
    }

    /// The outcome as JSON data, the shape the Python and Node bindings hand their `after`
    /// hooks: `{"status": label, "value"?: the value (success), "kind"?: the diagnostic kind
    /// (failure), "message"?: the message (failure, denied)}`.
    pub fn to_json(&self) -> Value {
        let mut o = serde_json::Map::new();
        o.insert("status".into(), self.label().into());
        match self {
            CallOutcome::Success(v) => {
                o.insert("value".into(), v.clone());
            }
            CallOutcome::Failure { kind, message } => {
                o.insert("kind".into(), kind.as_str().into());
                o.insert("message".into(), message.clone().into());
            }
            CallOutcome::Denied(message) => {
                o.insert("message".into(), message.clone().into());
            }
            CallOutcome::Interrupted => {}
        }
        Value::Object(o)
    }
}

/// Host callbacks around every host call. All methods have no-op defaults; implement the ones you
/// need. Methods return boxed futures (`Box::pin(async move { ... })`) so hooks may await (e.g.
/// ask a policy service). Shared by every execution of a runtime, so `Send + Sync`.
///
/// See the module docs for the order, denial semantics and deadlines.
pub trait Hooks: Send + Sync + 'static {
    /// Before a tool (or `search`) handler runs, with the canonical path (`"orders.lookup"`, or
    /// `"search"`) and the validated input. `Err(message)` denies the call.
    fn tool_before<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
    ) -> BoxFuture<'a, Result<(), String>> {
        let _ = (name, input);
        Box::pin(async { Ok(()) })
    }

    /// Whether a tool call (valid input, canonical path) waits for the host instead of running:
    /// `true` pauses the execution at it (see [`crate::durable`]); its `tool_before` runs
    /// only if the host approves it on resume ([`crate::Reply::Run`]). Called at admission,
    /// so it must answer at once. Default `false`; [`crate::Options::pause_on`] marks whole
    /// tools without a hook.
    fn pause_before(&self, name: &str, input: &Value) -> bool {
        let _ = (name, input);
        false
    }

    /// After a tool (or `search`) call whose `tool_before` ran. Cannot change the outcome.
    fn tool_after<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        let _ = (name, input, outcome);
        Box::pin(async {})
    }

    /// Before an extension function runs, with its dotted global path (`"fs.read"`) and its
    /// arguments (copies; one JSON value per argument). `Err(message)` denies the call.
    fn extension_before<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, Result<(), String>> {
        let _ = (name, args);
        Box::pin(async { Ok(()) })
    }

    /// After an extension call whose `extension_before` ran. Cannot change the outcome.
    fn extension_after<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        let _ = (name, args, outcome);
        Box::pin(async {})
    }
}

/// Shared hooks: the host keeps one handle (e.g. to read an audit log) and gives the runtime
/// another.
impl<H: Hooks + ?Sized> Hooks for std::sync::Arc<H> {
    fn tool_before<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
    ) -> BoxFuture<'a, Result<(), String>> {
        (**self).tool_before(name, input)
    }

    fn pause_before(&self, name: &str, input: &Value) -> bool {
        (**self).pause_before(name, input)
    }

    fn tool_after<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        (**self).tool_after(name, input, outcome)
    }

    fn extension_before<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, Result<(), String>> {
        (**self).extension_before(name, args)
    }

    fn extension_after<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        (**self).extension_after(name, args, outcome)
    }
}

/// Which kind of host call a [`ValueHooks`] callback is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookTarget {
    /// A tool (or `search`) call.
    Tool,
    /// An extension function call.
    Extension,
}

/// Hooks over owned JSON values, the shape a binding to another language needs: its callbacks
/// cannot borrow the call's data, so each method gets copies and returns a `'static` future.
/// For an extension call, `input` is the argument array. [`ByValue`] makes them [`Hooks`].
pub trait ValueHooks: Send + Sync + 'static {
    /// Before the call; `Err(message)` denies it (see [`Hooks::tool_before`]).
    fn before(
        &self,
        target: HookTarget,
        name: &str,
        input: Value,
    ) -> BoxFuture<'static, Result<(), String>>;

    /// After a call whose `before` ran (see [`Hooks::tool_after`]).
    fn after(
        &self,
        target: HookTarget,
        name: &str,
        input: Value,
        outcome: &CallOutcome,
    ) -> BoxFuture<'static, ()>;

    /// Whether a tool call waits for the host instead of running (see
    /// [`Hooks::pause_before`]); answered at once, at admission. Default `false`.
    fn pause_before(&self, name: &str, input: &Value) -> bool {
        let _ = (name, input);
        false
    }
}

/// [`ValueHooks`] as [`Hooks`]: every call's input (or argument array) copied into a `Value`.
#[derive(Debug)]
pub struct ByValue<H>(pub H);

impl<H: ValueHooks> Hooks for ByValue<H> {
    fn tool_before<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
    ) -> BoxFuture<'a, Result<(), String>> {
        self.0.before(HookTarget::Tool, name, input.clone())
    }

    fn pause_before(&self, name: &str, input: &Value) -> bool {
        self.0.pause_before(name, input)
    }

    fn tool_after<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        self.0.after(HookTarget::Tool, name, input.clone(), outcome)
    }

    fn extension_before<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, Result<(), String>> {
        self.0
            .before(HookTarget::Extension, name, Value::Array(args.to_vec()))
    }

    fn extension_after<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        self.0.after(
            HookTarget::Extension,
            name,
            Value::Array(args.to_vec()),
            outcome,
        )
    }
}

/// The hooks used when none are given: allow everything, watch nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoHooks;

impl Hooks for NoHooks {}

type BeforeFn = Box<dyn Fn(&str, &Value) -> Result<(), String> + Send + Sync>;
type AfterFn = Box<dyn Fn(&str, &Value, &CallOutcome) + Send + Sync>;

/// Hooks from plain (synchronous) closures, for hosts that do not need to await.
///
/// For extension calls the closures get the arguments as one JSON array.
///
/// ```
/// use codemode::{CodeMode, FnHooks, Tool};
/// use serde_json::json;
/// let hooks = FnHooks::new()
///     .tool_before(|name, _input| {
///         if name == "admin.reset" { Err("admin.reset needs a human; ask the user.".into()) } else { Ok(()) }
///     })
///     .tool_after(|name, _input, outcome| eprintln!("{name}: {}", outcome.label()));
/// let cm = CodeMode::builder()
///     .tool("admin.reset", Tool::new("Reset.", json!({}), |v| async move { Ok(v) }))
///     .hooks(hooks)
///     .build()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct FnHooks {
    tool_before: Option<BeforeFn>,
    tool_after: Option<AfterFn>,
    extension_before: Option<BeforeFn>,
    extension_after: Option<AfterFn>,
}

impl std::fmt::Debug for FnHooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnHooks")
            .field("tool_before", &self.tool_before.is_some())
            .field("tool_after", &self.tool_after.is_some())
            .field("extension_before", &self.extension_before.is_some())
            .field("extension_after", &self.extension_after.is_some())
            .finish()
    }
}

impl FnHooks {
    /// No callbacks.
    pub fn new() -> Self {
        FnHooks::default()
    }

    /// Set the `tool.before` callback (`Err(message)` denies).
    pub fn tool_before(
        mut self,
        f: impl Fn(&str, &Value) -> Result<(), String> + Send + Sync + 'static,
    ) -> Self {
        self.tool_before = Some(Box::new(f));
        self
    }

    /// Set the `tool.after` callback.
    pub fn tool_after(
        mut self,
        f: impl Fn(&str, &Value, &CallOutcome) + Send + Sync + 'static,
    ) -> Self {
        self.tool_after = Some(Box::new(f));
        self
    }

    /// Set the `extension.before` callback (arguments as one JSON array; `Err` denies).
    pub fn extension_before(
        mut self,
        f: impl Fn(&str, &Value) -> Result<(), String> + Send + Sync + 'static,
    ) -> Self {
        self.extension_before = Some(Box::new(f));
        self
    }

    /// Set the `extension.after` callback (arguments as one JSON array).
    pub fn extension_after(
        mut self,
        f: impl Fn(&str, &Value, &CallOutcome) + Send + Sync + 'static,
    ) -> Self {
        self.extension_after = Some(Box::new(f));
        self
    }
}

impl Hooks for FnHooks {
    fn tool_before<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
    ) -> BoxFuture<'a, Result<(), String>> {
        let r = self.tool_before.as_ref().map_or(Ok(()), |f| f(name, input));
        Box::pin(async move { r })
    }

    fn tool_after<'a>(
        &'a self,
        name: &'a str,
        input: &'a Value,
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        if let Some(f) = &self.tool_after {
            f(name, input, outcome);
        }
        Box::pin(async {})
    }

    fn extension_before<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
    ) -> BoxFuture<'a, Result<(), String>> {
        let r = self
            .extension_before
            .as_ref()
            .map_or(Ok(()), |f| f(name, &Value::Array(args.to_vec())));
        Box::pin(async move { r })
    }

    fn extension_after<'a>(
        &'a self,
        name: &'a str,
        args: &'a [Value],
        outcome: &'a CallOutcome,
    ) -> BoxFuture<'a, ()> {
        if let Some(f) = &self.extension_after {
            f(name, &Value::Array(args.to_vec()), outcome);
        }
        Box::pin(async {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Records every callback of [`ValueHooks`]; denies names starting with `"no."`.
    struct Record(std::sync::Mutex<Vec<Seen>>);

    /// One callback: target, name, input, and the outcome's label for an `after`.
    type Seen = (HookTarget, String, Value, Option<&'static str>);

    impl ValueHooks for Record {
        fn before(
            &self,
            target: HookTarget,
            name: &str,
            input: Value,
        ) -> BoxFuture<'static, Result<(), String>> {
            self.0
                .lock()
                .unwrap()
                .push((target, name.into(), input, None));
            let deny = name.starts_with("no.");
            Box::pin(async move { if deny { Err("denied".into()) } else { Ok(()) } })
        }

        fn after(
            &self,
            target: HookTarget,
            name: &str,
            input: Value,
            outcome: &CallOutcome,
        ) -> BoxFuture<'static, ()> {
            self.0
                .lock()
                .unwrap()
                .push((target, name.into(), input, Some(outcome.label())));
            Box::pin(async {})
        }

        fn pause_before(&self, name: &str, _input: &Value) -> bool {
            name.starts_with("hold.")
        }
    }

    #[test]
    fn by_value_forwards_pause_before() {
        let hooks = ByValue(Record(Default::default()));
        assert!(hooks.pause_before("hold.refund", &json!({})));
        assert!(!hooks.pause_before("a.b", &json!({})));
        struct Quiet;
        impl ValueHooks for Quiet {
            fn before(
                &self,
                _: HookTarget,
                _: &str,
                _: Value,
            ) -> BoxFuture<'static, Result<(), String>> {
                Box::pin(async { Ok(()) })
            }
            fn after(
                &self,
                _: HookTarget,
                _: &str,
                _: Value,
                _: &CallOutcome,
            ) -> BoxFuture<'static, ()> {
                Box::pin(async {})
            }
        }
        assert!(!ByValue(Quiet).pause_before("hold.refund", &json!({})));
    }

    #[test]
    fn by_value_hands_copies_to_value_hooks() {
        use futures::executor::block_on;
        let hooks = ByValue(Record(Default::default()));
        assert_eq!(block_on(hooks.tool_before("a.b", &json!({"x": 1}))), Ok(()));
        assert_eq!(
            block_on(hooks.extension_before("no.read", &[json!(1), json!("p")])),
            Err("denied".to_string())
        );
        block_on(hooks.tool_after("a.b", &json!({"x": 1}), &CallOutcome::Interrupted));
        block_on(hooks.extension_after("fs.read", &[json!(2)], &CallOutcome::Denied("d".into())));
        let seen = hooks.0.0.into_inner().unwrap();
        assert_eq!(
            seen,
            vec![
                (HookTarget::Tool, "a.b".into(), json!({"x": 1}), None),
                (
                    HookTarget::Extension,
                    "no.read".into(),
                    json!([1, "p"]),
                    None
                ),
                (
                    HookTarget::Tool,
                    "a.b".into(),
                    json!({"x": 1}),
                    Some("interrupted")
                ),
                (
                    HookTarget::Extension,
                    "fs.read".into(),
                    json!([2]),
                    Some("denied")
                ),
            ]
        );
    }

    #[test]
    fn outcomes_as_json() {
        assert_eq!(
            CallOutcome::Success(json!({"id": 2})).to_json(),
            json!({"status": "success", "value": {"id": 2}})
        );
        let failure = CallOutcome::Failure {
            kind: DiagnosticKind::ToolFailure,
            message: "Tool 't' failed.".into(),
        };
        assert_eq!(
            failure.to_json(),
            json!({"status": "failure", "kind": "ToolFailure", "message": "Tool 't' failed."})
        );
        assert_eq!(
            CallOutcome::Denied("no".into()).to_json(),
            json!({"status": "denied", "message": "no"})
        );
        assert_eq!(
            CallOutcome::Interrupted.to_json(),
            json!({"status": "interrupted"})
        );
    }
}
