//! The [`Language`] trait: how the host starts a guest, and what it must say in the guest's
//! words (messages, hints, the catalog's guide, signatures: its [`Notation`]) without knowing
//! its syntax.

use crate::guest::{Env, Guest, StartOptions};
use crate::kind::GuestError;
use crate::notation::Notation;

/// One guest language, as the host sees it. Implemented once per guest crate
/// (`codemode_lua::Lua`); the host maps its public language choice to one of these in one place.
pub trait Language: Notation {
    /// The language's name as a model reads it in messages (`"Lua"`: "write Lua statements").
    fn name(&self) -> &'static str;

    /// Compile `source` and prepare a run of it. Compiling is charged against
    /// `options.max_memory_bytes`. Errors: `ParseError`, `UnsupportedSyntax`, or
    /// `ExecutionFailure` (memory limit exceeded while compiling), with a location when known.
    fn start(
        &self,
        source: &str,
        env: &Env,
        options: &StartOptions,
    ) -> Result<Box<dyn Guest>, GuestError>;

    /// Rebuild a guest from the bytes of [`Guest::snapshot`] (taken by a guest of this
    /// language), with the host's `env` (tools, extensions, missing-tool policy, clock) and
    /// `options` (memory cap, the resumed run's deadline). Every handle, length and tag in
    /// `bytes` is validated: truncated or altered bytes are an `ExecutionFailure` saying the
    /// snapshot is damaged, never a panic or an allocation beyond `options.max_memory_bytes`.
    /// Default: the "cannot snapshot" error ([`crate::guest::snapshot_unsupported`]).
    fn restore(
        &self,
        bytes: &[u8],
        env: &Env,
        options: &StartOptions,
    ) -> Result<Box<dyn Guest>, GuestError> {
        let _ = (bytes, env, options);
        Err(crate::guest::snapshot_unsupported())
    }

    /// `true` when `source` holds only whitespace and comments (the host answers such a program
    /// with a ParseError saying it is empty). Linear in the source, no allocation.
    fn is_blank(&self, source: &str) -> bool;

    /// The language's reserved words (`end`, `function`, ...).
    fn keywords(&self) -> &'static [&'static str];

    /// Globals the runtime installs itself (`tools`, `search`, the standard library, and the
    /// standard globals the sandbox leaves out): an extension may not take one. Taken from the
    /// standard library itself, so it cannot drift.
    fn reserved_globals(&self) -> Vec<String>;

    /// What to write instead, appended to a tool-input error where an array was expected and an
    /// empty object was given (when an empty literal of the language crosses as an object): "an
    /// empty Lua table `{}` is sent as an object: use json.array() for an empty array". `None`
    /// when an empty array cannot be mistaken for an object.
    fn empty_array_hint(&self) -> Option<&'static str> {
        None
    }

    /// What to write instead, appended to a tool-input error where an integer was expected and
    /// a number with a fractional part was given ("an integer is expected: use math.floor(x),
    /// ..."). `None`: no hint.
    fn fraction_hint(&self) -> Option<&'static str> {
        None
    }
}
