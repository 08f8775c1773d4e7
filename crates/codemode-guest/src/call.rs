//! Host calls a guest starts, and the host's replies.

use serde_json::Value;

use crate::kind::{ErrorKind, GuestError, Location};

/// Names one host call within one run: unique, assigned by the guest in the order it starts
/// calls (so ids increase in program order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallId(pub u64);

/// Whether the program waits for a call's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallMode {
    /// The program is suspended until the reply comes ([`crate::Step::Blocked`] until then):
    /// every Lua call, a synchronous JavaScript global.
    Suspend,
    /// The program runs on; the reply settles something it awaits later (a JavaScript tool call
    /// returning a promise).
    Continue,
}

/// What a host call targets.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum HostTarget {
    /// A tool, by canonical dotted path (`orders.lookup`).
    Tool(String),
    /// The `search` built-in.
    Search,
    /// An extension function, by dotted path of its global (`fs.read`).
    Extension(String),
}

/// A call the guest started.
#[derive(Clone, Debug, PartialEq)]
pub struct HostCall {
    /// The call's id, for [`crate::Guest::resolve`].
    pub id: CallId,
    /// What is called.
    pub target: HostTarget,
    /// The exported arguments, one JSON value per guest argument (trailing nils/undefineds
    /// dropped). Tools and `search` take at most one (an object); zero means `{}`.
    pub args: Vec<Value>,
    /// Where the call is in the source.
    pub location: Option<Location>,
    /// Whether the program waits for the reply.
    pub mode: CallMode,
    /// `Some` when the guest refused the call before making it: the path names no tool
    /// (kind `UnknownTool`; the host answers with its missing-tool error), or an argument cannot
    /// cross (kind `InvalidDataValue`, `args` empty; the host answers with this error). The
    /// host still counts the attempt against `max_tool_calls` and lists a refused input.
    pub refused: Option<GuestError>,
}

/// A catchable error a host call ends with.
#[derive(Clone, Debug, PartialEq)]
pub struct HostError {
    /// The error's kind (`ToolFailure`, `InvalidToolInput`, ...).
    pub kind: ErrorKind,
    /// Model-facing text, what the program's handler sees as the message.
    pub message: String,
    /// Next steps or "did you mean" candidates; the result's diagnostic carries them if the
    /// error ends the run.
    pub suggestions: Vec<String>,
    /// Optional data fields for the guest's error value (JavaScript: properties of the Error
    /// object); `None` for most errors.
    pub data: Option<Box<serde_json::Map<String, Value>>>,
}

/// The host's answer to one [`HostCall`].
#[derive(Clone, Debug, PartialEq)]
pub enum HostReply {
    /// The call succeeded; the guest imports the value as fresh data.
    Value(Value),
    /// The call failed with an ordinary, catchable error (`pcall` sees `false, message`).
    Error(HostError),
    /// The run must end now (timeout, tool-call limit). Not catchable.
    Abort(GuestError),
}

impl HostReply {
    /// A catchable error reply without data fields.
    pub fn error(kind: ErrorKind, message: impl Into<String>, suggestions: Vec<String>) -> Self {
        HostReply::Error(HostError {
            kind,
            message: message.into(),
            suggestions,
            data: None,
        })
    }
}
