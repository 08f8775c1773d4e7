//! The [`Language`] trait: how the host starts a guest, and what it must say in the guest's
//! words (messages, hints, the catalog's guide) without knowing its syntax.

use crate::guest::{Env, Guest, StartOptions};
use crate::kind::GuestError;

/// One guest language, as the host sees it. Implemented once per guest crate
/// (`codemode_lua::Lua`); the host maps its public language choice to one of these in one place.
pub trait Language: Send + Sync + 'static {
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

    /// `true` when `source` holds only whitespace and comments (the host answers such a program
    /// with a ParseError saying it is empty). Linear in the source, no allocation.
    fn is_blank(&self, source: &str) -> bool;

    /// A string literal for `s` in the language (`"orders.lookup"`).
    fn quote(&self, s: &str) -> String;

    /// `true` when `s` can be written as a name: after a `.` in a path, and as a global.
    fn is_identifier(&self, s: &str) -> bool;

    /// The language's reserved words (`end`, `function`, ...).
    fn keywords(&self) -> &'static [&'static str];

    /// Globals the runtime installs itself (`tools`, `search`, the standard library, and the
    /// standard globals the sandbox leaves out): an extension may not take one. Taken from the
    /// standard library itself, so it cannot drift.
    fn reserved_globals(&self) -> Vec<String>;

    /// The expression that calls the tool at `path` (`tools.orders.lookup`,
    /// `tools.ns["dash-name"]`).
    fn tool_expression(&self, path: &str) -> String;

    /// An object (table) literal with the given fields; each value is already an expression
    /// in the language: `[("query", "\"x\"")]` → `{ query = "x" }` in Lua, `{ query: "x" }` in
    /// JavaScript. No fields: `{}`.
    fn object(&self, fields: &[(&str, &str)]) -> String;

    /// What the language calls an object literal, as in "one input table" (Lua) or "one input
    /// object" (JavaScript).
    fn object_noun(&self) -> &'static str;

    /// A call with one object argument: `search({ query = "x" })`.
    fn call_example(&self, callee: &str, fields: &[(&str, &str)]) -> String {
        format!("{callee}({})", self.object(fields))
    }
}
