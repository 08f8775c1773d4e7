//! Host policy limits of an execution: [`Limits`], validated when set ([`LimitError`]).
//!
//! Every limit is an integer within a documented range; a value outside it is an error at
//! construction, never a silent default. Defaults are the Lua defaults of issue 2 §1.
//!
//! Besides these host-tunable limits, fixed bounds protect the process whatever the limits say
//! (full table with defaults and diagnostics: `docs/limits.md`):
//! - the interpreter's own bounds, all in `codemode_lua::limits` (source size, syntax depth,
//!   total fuel, call depth, memory cap, data depth and size, ...);
//! - host side: tool output nesting [`MAX_TOOL_OUTPUT_DEPTH`] (checked iteratively by
//!   [`check_tool_output`]), `runtime::MIN_SLICE`/`MAX_SLICE` (fuel per run slice; the slice adapts
//!   so the deadline is checked about every `runtime::TARGET_SLICE`), `runtime::BACKSTOP_MARGIN`
//!   (the wall-clock backstop), [`MAX_RETAINED_OUTPUT_BYTES`] (logs and tool-call inputs kept
//!   host-side during a run), `search::MAX_SEARCH_LIMIT`
//!   (results per search call), `schema::MAX_REPORTED_ERRORS`/`MAX_ERROR_CHARS` (size of a
//!   validation message), `signature::MAX_DEPTH`/`MAX_REF_CHAIN`/`MAX_RENDER_NODES` (schema
//!   rendering).
//!
//! Per runtime: [`crate::Options::max_computing_executions`] (default
//! [`crate::DEFAULT_MAX_COMPUTING_EXECUTIONS`]) bounds how many executions run guest code on the
//! blocking pool at once; more wait for a slot under their deadline.

use std::fmt;

/// The largest value any limit accepts: 2^53 − 1 (the largest integer every JSON reader keeps exact).
pub const MAX_LIMIT_VALUE: u64 = (1 << 53) - 1;

/// Per-execution limits. `Default` gives the Lua defaults: 120,000 ms, 128 tool calls,
/// 65,536 output bytes, no extra memory cap.
///
/// ```
/// let limits = codemode::Limits::default().with_timeout_ms(5_000)?.with_max_tool_calls(10)?;
/// assert_eq!(limits.timeout_ms(), 5_000);
/// # Ok::<(), codemode::LimitError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    timeout_ms: u64,
    max_tool_calls: u64,
    max_output_bytes: u64,
    max_memory_bytes: Option<u64>,
}

/// Which limit a [`LimitError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitName {
    /// `timeout_ms`
    TimeoutMs,
    /// `max_tool_calls`
    MaxToolCalls,
    /// `max_output_bytes`
    MaxOutputBytes,
    /// `max_memory_bytes`
    MaxMemoryBytes,
}

impl LimitName {
    /// The limit's snake_case name (`"timeout_ms"`).
    pub fn as_str(self) -> &'static str {
        match self {
            LimitName::TimeoutMs => "timeout_ms",
            LimitName::MaxToolCalls => "max_tool_calls",
            LimitName::MaxOutputBytes => "max_output_bytes",
            LimitName::MaxMemoryBytes => "max_memory_bytes",
        }
    }

    /// The smallest accepted value.
    pub fn min(self) -> u64 {
        match self {
            LimitName::TimeoutMs | LimitName::MaxMemoryBytes => 1,
            LimitName::MaxToolCalls | LimitName::MaxOutputBytes => 0,
        }
    }

    /// The largest accepted value ([`MAX_LIMIT_VALUE`]).
    pub fn max(self) -> u64 {
        MAX_LIMIT_VALUE
    }
}

/// A limit set outside its allowed range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{} must be an integer from {} to {} (got {value})", .limit.as_str(), .limit.min(), .limit.max())]
pub struct LimitError {
    /// Which limit.
    pub limit: LimitName,
    /// The rejected value.
    pub value: i128,
}

impl Limits {
    /// Default `timeout_ms` for Lua: 120,000 (two minutes).
    pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
    /// Default `max_tool_calls` for Lua: 128.
    pub const DEFAULT_MAX_TOOL_CALLS: u64 = 128;
    /// Default `max_output_bytes` for Lua: 65,536.
    pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 65_536;

    /// The Lua defaults (same as `Limits::default()`).
    pub const fn lua_defaults() -> Self {
        Limits {
            timeout_ms: Self::DEFAULT_TIMEOUT_MS,
            max_tool_calls: Self::DEFAULT_MAX_TOOL_CALLS,
            max_output_bytes: Self::DEFAULT_MAX_OUTPUT_BYTES,
            max_memory_bytes: None,
        }
    }

    /// Check `value` against the range of `limit`. Accepts any integer type, so a host reading a
    /// signed number (CLI, JSON) gets the same error for `-1` as for an out-of-range value.
    pub fn check(limit: LimitName, value: impl Into<i128>) -> Result<u64, LimitError> {
        let value = value.into();
        if value < i128::from(limit.min()) || value > i128::from(limit.max()) {
            return Err(LimitError { limit, value });
        }
        Ok(value as u64)
    }

    /// Set one limit by name (see [`Limits::check`] for the ranges).
    pub fn with(mut self, limit: LimitName, value: impl Into<i128>) -> Result<Self, LimitError> {
        let v = Self::check(limit, value)?;
        match limit {
            LimitName::TimeoutMs => self.timeout_ms = v,
            LimitName::MaxToolCalls => self.max_tool_calls = v,
            LimitName::MaxOutputBytes => self.max_output_bytes = v,
            LimitName::MaxMemoryBytes => self.max_memory_bytes = Some(v),
        }
        Ok(self)
    }

    /// Wall-clock budget of one execution in milliseconds (1 to 2^53 − 1). Covers compiling,
    /// running and waiting on tools; a busy loop is interrupted too.
    pub fn with_timeout_ms(self, ms: u64) -> Result<Self, LimitError> {
        self.with(LimitName::TimeoutMs, ms)
    }

    /// How many host calls (tools, `search`, extensions; refused ones included) one execution may
    /// attempt (0 to 2^53 − 1). The next attempt ends the execution with `ToolCallLimitExceeded`.
    pub fn with_max_tool_calls(self, n: u64) -> Result<Self, LimitError> {
        self.with(LimitName::MaxToolCalls, n)
    }

    /// Output budget in UTF-8 bytes (0 to 2^53 − 1) for the value's JSON text and the logs
    /// (see [`crate::ExecutionResult::truncate`]).
    pub fn with_max_output_bytes(self, n: u64) -> Result<Self, LimitError> {
        self.with(LimitName::MaxOutputBytes, n)
    }

    /// Optional cap on bytes held by one execution (1 to 2^53 − 1): strings, tables, closures,
    /// frames and logs, charged before each allocation. `None` (or more than 512 MiB) keeps the
    /// interpreter's fixed internal cap, `codemode_lua::limits::MAX_MEMORY_BYTES` (512 MiB).
    /// Exceeding it ends the execution with an `ExecutionFailure` "memory limit exceeded: ..."
    /// that the program cannot catch (logs and toolCalls are kept).
    pub fn with_max_memory_bytes(mut self, n: Option<u64>) -> Result<Self, LimitError> {
        match n {
            Some(n) => self.with(LimitName::MaxMemoryBytes, n),
            None => {
                self.max_memory_bytes = None;
                Ok(self)
            }
        }
    }

    /// See [`Limits::with_timeout_ms`].
    pub fn timeout_ms(&self) -> u64 {
        self.timeout_ms
    }

    /// See [`Limits::with_max_tool_calls`].
    pub fn max_tool_calls(&self) -> u64 {
        self.max_tool_calls
    }

    /// See [`Limits::with_max_output_bytes`].
    pub fn max_output_bytes(&self) -> u64 {
        self.max_output_bytes
    }

    /// See [`Limits::with_max_memory_bytes`].
    pub fn max_memory_bytes(&self) -> Option<u64> {
        self.max_memory_bytes
    }

    /// [`Limits::max_memory_bytes`] as the guest's `StartOptions` take it.
    pub(crate) fn max_memory_bytes_usize(&self) -> Option<usize> {
        self.max_memory_bytes
            .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::lua_defaults()
    }
}

impl fmt::Display for LimitName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Most bytes of log lines, and separately of tool-call inputs, the host keeps for one
/// execution's result however large `max_output_bytes` is (64 MiB). Logs are taken from the
/// interpreter after every run slice (so they survive a backstop timeout) and inputs are copied
/// into `toolCalls` as calls are made: both keep only what `max_output_bytes`, capped by this,
/// can show; later log lines are counted for the truncation marker and larger inputs become
/// the omitted-input marker (see [`crate::ExecutionResult::truncate`]).
pub const MAX_RETAINED_OUTPUT_BYTES: u64 = 64 * 1024 * 1024;

/// Deepest nesting of arrays/objects accepted in a tool's output (and anywhere data enters the
/// interpreter): the protocol's bound, [`codemode_guest::MAX_DATA_DEPTH`] (128).
pub const MAX_TOOL_OUTPUT_DEPTH: usize = codemode_guest::MAX_DATA_DEPTH;

/// Check a tool's output before the interpreter (or a schema validator, which may recurse)
/// sees it: nesting at most [`MAX_TOOL_OUTPUT_DEPTH`] levels. Walks iteratively, so any depth is
/// safe. Error: the text for an `InvalidToolOutput` diagnostic.
pub fn check_tool_output(value: &serde_json::Value) -> Result<(), String> {
    use serde_json::Value;
    let container = |v: &Value| matches!(v, Value::Array(_) | Value::Object(_));
    // Only containers go on the stack (a scalar or flat output allocates nothing).
    let mut stack: Vec<(&Value, usize)> = Vec::new();
    let mut next = Some((value, 0));
    while let Some((v, depth)) = next.take().or_else(|| stack.pop()) {
        if !container(v) {
            continue;
        }
        if depth >= MAX_TOOL_OUTPUT_DEPTH {
            return Err(format!(
                "the output nests deeper than {MAX_TOOL_OUTPUT_DEPTH} levels; tools must return flatter data"
            ));
        }
        match v {
            Value::Array(items) => stack.extend(
                items
                    .iter()
                    .filter(|c| container(c))
                    .map(|c| (c, depth + 1)),
            ),
            Value::Object(map) => stack.extend(
                map.values()
                    .filter(|c| container(c))
                    .map(|c| (c, depth + 1)),
            ),
            _ => {}
        }
    }
    Ok(())
}

/// Drop a JSON value of any depth without recursion (`serde_json::Value`'s own `Drop` recurses
/// once per level and can overflow the stack on hostile data).
pub fn drop_deep(value: serde_json::Value) {
    use serde_json::Value;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_documented_defaults() {
        let l = Limits::default();
        assert_eq!(l.timeout_ms(), 120_000);
        assert_eq!(l.max_tool_calls(), 128);
        assert_eq!(l.max_output_bytes(), 65_536);
        assert_eq!(l.max_memory_bytes(), None);
        assert_eq!(l.max_memory_bytes_usize(), None);
    }

    #[test]
    fn memory_budget_is_passed_through() {
        let l = Limits::default().with_max_memory_bytes(Some(4096)).unwrap();
        assert_eq!(l.max_memory_bytes_usize(), Some(4096));
    }

    #[test]
    fn tool_output_depth_is_checked_without_recursion() {
        let mut v = serde_json::Value::Null;
        for _ in 0..1_000_000 {
            v = serde_json::Value::Array(vec![v]);
        }
        let err = super::check_tool_output(&v).unwrap_err();
        assert_eq!(
            err,
            "the output nests deeper than 128 levels; tools must return flatter data"
        );
        super::drop_deep(v);
        let mut ok = serde_json::json!({"a": 1});
        for _ in 0..127 {
            ok = serde_json::json!([ok]);
        }
        assert_eq!(super::check_tool_output(&ok), Ok(()));
        super::drop_deep(serde_json::json!([ok]));
        let mut over = ok;
        over = serde_json::json!([over]);
        assert!(super::check_tool_output(&over).is_err());
    }
}
