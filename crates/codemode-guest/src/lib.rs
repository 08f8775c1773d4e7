//! The protocol between the codemode host and a guest language, and nothing else.
//!
//! The host (`codemode`) drives any guest through these types; a guest crate (`codemode-lua`,
//! `codemode-js`) implements [`Guest`] for one running program and [`Language`] (with its
//! [`Notation`]) for what the host must say in the guest's words. Neither side sees the other's internals.
//!
//! | File | What |
//! |---|---|
//! | `kind.rs` | [`ErrorKind`] and [`DiagnosticKind`] (one list), [`Location`], [`GuestError`] |
//! | `call.rs` | [`CallId`], [`CallMode`], [`HostTarget`], [`HostCall`], [`HostReply`], [`HostError`] |
//! | `guest.rs` | [`Budget`], [`Step`], the [`Guest`] trait (with its snapshot), [`snapshot_payload`], [`snapshot_unsupported`], [`Warning`], [`Env`] (with its [`Clock`] and [`Random`]), [`MissingTool`], [`StartOptions`] |
//! | `language.rs` | the [`Language`] trait: compiling, restoring a snapshot, blank sources, names, reserved words and globals, input hints |
//! | `notation.rs` | the [`Notation`] trait: the guest's words for messages, signatures and the catalog's guide |
//! | `typescript.rs` | [`TypeScript`], the notation of the JavaScript guest, and the host's for a guest not compiled in; [`JS_KEYWORDS`] |
//!
//! ## One run, as the host drives it
//! 1. [`Language::start`] compiles a program and returns a boxed [`Guest`].
//! 2. The host calls [`Guest::run`] with a [`Budget`]; the [`Step`] says what happened:
//!    `Yield` (budget spent), `Started` (calls to take with [`Guest::take_calls`]), `Blocked`
//!    (waiting for a reply), `Done` or `Error`.
//! 3. Each started [`HostCall`] carries a [`CallId`]; the host answers it, in any order, with
//!    [`Guest::resolve`]. A [`CallMode::Suspend`] call stops the program until answered (every
//!    Lua call); a [`CallMode::Continue`] call lets it run on (a JavaScript tool call returning
//!    a promise).
//! 4. After every run the host takes the log lines ([`Guest::take_logs`]) and warnings.
//! 5. Durable executions: a guest suspended on host calls may be turned into bytes
//!    ([`Guest::snapshot`]) and rebuilt later, in another process, by
//!    [`Language::restore`]; the host then answers the same call ids and runs it on.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// How deep data may nest where it crosses between host and guest (tool inputs and outputs,
/// results): deeper values are `InvalidDataValue` (inputs, results) or `InvalidToolOutput`.
pub const MAX_DATA_DEPTH: usize = 128;

mod call;
mod guest;
mod kind;
mod language;
mod notation;
mod typescript;

pub use call::{CallId, CallMode, HostCall, HostError, HostReply, HostTarget};
pub use guest::{
    Budget, Clock, Env, Guest, MissingTool, Random, StartOptions, Step, Warning, snapshot_payload,
    snapshot_unsupported,
};
pub use kind::{DiagnosticKind, ErrorKind, GuestError, Location};
pub use language::Language;
pub use notation::{DOC_LINE_CHARS, Notation, Primitive, ValueKind};
pub use typescript::{JS_KEYWORDS, TypeScript};
