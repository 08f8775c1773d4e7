//! # codemode: run model-written programs over host tools
//!
//! A host registers [`Tool`]s (async handlers with JSON Schemas) in a tool tree, builds a
//! [`CodeMode`] runtime once, and runs programs (Lua by default) that call those tools as
//! `tools.orders.lookup({ id = "o1" })`. Every execution returns an [`ExecutionResult`] that
//! serializes to the wire shape of issue 2 §1.
//!
//! ```
//! use codemode::{CodeMode, Limits, Namespace, Tool, ToolError};
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let lookup = Tool::new(
//!     "Look up an order by id.",
//!     json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
//!     |input| async move {
//!         match input["id"].as_str() {
//!             Some("o1") => Ok(json!({"id": "o1", "total": 42})),
//!             _ => Err(ToolError::new("No order with that id; list ids with tools.orders.list().")),
//!         }
//!     },
//! );
//! let codemode = CodeMode::builder()
//!     .namespace("orders", Namespace::new().description("Order management"))
//!     .tool("orders.lookup", lookup)
//!     .limits(Limits::default().with_timeout_ms(10_000)?)
//!     .build()?;
//! let result = codemode.execute(r#"return tools.orders.lookup({ id = "o1" }).total"#).await;
//! assert_eq!(result.to_json_string(),
//!     r#"{"ok":true,"value":42,"toolCalls":[{"name":"orders.lookup","input":{"id":"o1"},"status":"success"}]}"#);
//! # Ok(()) }
//! ```
//!
//! ## Map of the crate
//! | concern | file |
//! |---|---|
//! | tools, handler types, [`ToolError`], typed tools ([`Tool::typed`]), [`Tool::fallible`] | `tool.rs` |
//! | [`Namespace`], the tool tree ([`ToolTree`]), dotted-path canonicalization, empty segments | `namespace.rs` |
//! | [`Limits`] (`timeout_ms`, `max_tool_calls`, `max_output_bytes`, `max_memory_bytes`), validation, Lua defaults | `limits.rs` |
//! | [`ExecutionResult`], [`Diagnostic`], [`DiagnosticKind`], [`Location`], [`ToolCallRecord`], wire JSON, output truncation | `result.rs` |
//! | compiled JSON Schema validators; validation messages with instance path and rule | `schema.rs` |
//! | model-facing signatures in the guest's notation, [`tool_expression`], render bounds | `signature.rs` |
//! | [`CodeMode::catalog`], [`CodeMode::instructions`] (token-budgeted, round-robin across namespaces) | `catalog.rs` |
//! | built-in `search`: input checks, the ranker ([`search::rank`], [`search::SearchIndex`]), pages, UnknownTool suggestions | `search.rs` |
//! | durable executions: [`Snapshot`] (format, catalog hash, HMAC), [`Paused`], [`PendingCall`], [`Reply`], [`SnapshotStore`], [`MemoryStore`] | `durable.rs` |
//! | [`Hooks`] (`tool_before`/`tool_after`, `extension_before`/`extension_after`), [`FnHooks`], [`CallOutcome`] | `hooks.rs` |
//! | [`Extension`]: host functions as guest globals (`fs.read`) | `extension.rs` |
//! | the one missing-tool policy (UnknownTool wording, suggestions, unavailable namespaces) | `missing.rs` |
//! | the one place mapping [`Language`] to a guest crate (cargo features `lua`, `js`) | `guests.rs` |
//! | [`Options`], [`Language`], [`BuildError`], [`CodeMode::new`] and its checks | `runtime/builder.rs` |
//! | [`CodeMode`], [`execute`], [`CodeMode::call_tool`] | `runtime/mod.rs` |
//! | the async driver: inline stretches, pool segments, calls in flight, logs, the result | `runtime/driver.rs` |
//! | the call gate: admission (counting, checks, `toolCalls`), the future each call runs as | `runtime/gate.rs` |
//!
//! Guests are reached only through `codemode_guest` (the `Guest` and `Language` traits); what
//! the host writes in the program's language (messages, hints, signatures, the catalog's guide)
//! comes from the guest's `Language` and `Notation`, never from this crate.
//!
//! ## Limits and where they are enforced
//! - `timeout_ms`: `runtime/driver.rs` — checked after every guest slice (~1 ms of work) and
//!   raced against the calls in flight; on expiry the result is `TimeoutExceeded`, in-flight calls are
//!   `interrupted`, logs and `toolCalls` are kept.
//! - `max_tool_calls`: `runtime/gate.rs` — every host call attempt counts (tools, `search`, extensions,
//!   also ones rejected for bad input or denied by a hook); the first attempt past the limit ends the run with
//!   `ToolCallLimitExceeded` (not catchable by the program) and is not listed in `toolCalls`. Calls
//!   the guest refuses before making them (`HostCall::refused`: a path that names no tool,
//!   an input that cannot cross, an unavailable namespace) reach the driver too: counted, and
//!   listed with status `failure`. Extension calls are listed too (input: the arguments as an
//!   array).
//! - `max_output_bytes`: `result.rs` ([`ExecutionResult::truncate`]) — never fails a run.
//! - `max_memory_bytes`: passed to the guest in `codemode_guest::StartOptions`.
//!
//! ## Diagnostics and where they come from
//! The kinds are declared once, in `codemode_guest` (re-exported here). `ParseError`,
//! `UnsupportedSyntax`, `InvalidDataValue`, `ExecutionFailure`: the guest (`codemode-lua`).
//! `UnknownTool`: `missing.rs` (the guest asks it). `InvalidToolInput`, `InvalidToolOutput`,
//! `ToolFailure`, `ToolCallLimitExceeded`: the gate in `runtime/gate.rs` (schema messages from
//! `schema.rs`; a call denied by a `tool_before` hook is a `ToolFailure` with the hook's
//! message; an extension function's error or denial is an `ExecutionFailure`).
//! `TimeoutExceeded`: `runtime/driver.rs` (located where the program was when the guest says,
//! `Guest::location`). `Truncated`: `result.rs`, `NoReturn`: the driver, `LikelyMistake`: the
//! guest (warnings only; `ServerUnavailable` is added by the CLI's `run --mcp-config`).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod catalog;
pub mod durable;
pub mod extension;
mod guests;
pub mod hooks;
pub mod limits;
pub mod missing;
pub mod namespace;
pub mod result;
pub mod runtime;
pub mod schema;
pub mod search;
pub mod signature;
pub mod tool;

pub use codemode_guest::{Clock, Random};
pub use durable::{MemoryStore, Paused, PendingCall, Reply, Snapshot, SnapshotStore};
pub use extension::{Extension, ExtensionFuture, ExtensionHandler};
pub use hooks::{ByValue, CallOutcome, FnHooks, HookTarget, Hooks, NoHooks, ValueHooks};
pub use limits::{LimitError, LimitName, Limits};
pub use namespace::{Namespace, ToolEntry, ToolTree};
pub use result::{
    Diagnostic, DiagnosticKind, ExecutionResult, Location, ToolCallRecord, ToolCallStatus,
};
#[doc(hidden)]
pub use runtime::take_longest_inline_stretch;
#[doc(hidden)]
pub use runtime::take_most_concurrent_compiles;
pub use runtime::{
    BuildError, CodeMode, DEFAULT_MAX_COMPUTING_EXECUTIONS, Language, Options, execute,
};
pub use signature::tool_expression;
pub use tokio_util::sync::CancellationToken;
pub use tool::{Tool, ToolError, ToolErrorKind, ToolFuture, ToolHandler};

/// The top-level README's Rust examples, compiled and run as doc tests so they cannot drift
/// from the API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// The Rust examples of `docs/host-api.md` (hooks, extensions, `search`), doc-tested the same way.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/host-api.md")]
pub struct HostApiDoctests;
