//! The result of one execution: [`ExecutionResult`], [`Diagnostic`], [`DiagnosticKind`],
//! [`Location`], [`ToolCallRecord`], and output truncation ([`ExecutionResult::truncate`]).
//!
//! Wire shape (issue 2 §1), keys in this order, optional keys absent when empty:
//! ```text
//! {"ok":true,"value":V,"warnings":[D..]?,"logs":["..".."]?,"truncated":true?,"toolCalls":[..]}
//! {"ok":false,"error":D,"logs":[..]?,"truncated":true?,"toolCalls":[..]}
//! {"ok":false,"status":"paused","pending":[P..],"logs":[..]?,"truncated":true?,"toolCalls":[..]}
//! P = {"id":N,"name":"payments.refund","input":{..},"location":{"line":L,"column":C}?}
//! D = {"kind":K,"message":"..","location":{"line":L,"column":C}?,"suggestions":[..]?}
//! toolCalls entry = {"name":"orders.lookup","input":{..},"status":"success"|"failure"|"interrupted"|"denied"}
//! ```

use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use codemode_guest::{DiagnosticKind, Location};

/// A model-facing error or warning: what went wrong, where, and what to do instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The kind of problem.
    pub kind: DiagnosticKind,
    /// What went wrong and what to do instead (does not repeat the location).
    pub message: String,
    /// Where in the source, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Concrete next steps or "did you mean" candidates; absent when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic without location or suggestions.
    pub fn new(kind: DiagnosticKind, message: impl Into<String>) -> Self {
        Diagnostic {
            kind,
            message: message.into(),
            location: None,
            suggestions: Vec::new(),
        }
    }

    /// Builder: set the location.
    pub fn with_location(mut self, location: Location) -> Self {
        self.location = Some(location);
        self
    }

    /// Builder: add a suggestion.
    pub fn with_suggestion(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestions.push(suggestion.into());
        self
    }
}

impl From<codemode_guest::GuestError> for Diagnostic {
    fn from(e: codemode_guest::GuestError) -> Self {
        Diagnostic {
            kind: e.kind.into(),
            message: e.message,
            location: e.location,
            suggestions: e.suggestions,
        }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind, self.message)?;
        if let Some(l) = self.location {
            write!(f, " (line {}, column {})", l.line, l.column)?;
        }
        Ok(())
    }
}

/// How an admitted tool call ended. Serialized in lower case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolCallStatus {
    /// The handler returned a value that passed the output checks.
    Success,
    /// The handler failed, or its output was rejected, or the input was rejected before the
    /// handler ran (argument count, JSON Schema, bad `search` arguments).
    Failure,
    /// The call was still running when the execution timed out or was cancelled.
    Interrupted,
    /// A `tool_before` hook ([`crate::Hooks`]) refused the call; the handler did not run.
    Denied,
}

/// One entry of `toolCalls`: a host call that was admitted (within `max_tool_calls`, to an existing
/// tool or to `search`), in admission order. Calls refused by the tool-call limit, calls to unknown
/// tools and extension calls are *not* listed (they still count toward `max_tool_calls`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRecord {
    /// Canonical dotted path (`"orders.lookup"`), or `"search"`.
    pub name: String,
    /// The input as sent to the tool (`{}` when called without arguments; an array of all
    /// arguments when a rejected call passed more than one). Integral floats at integer-typed
    /// places are already integers ([`crate::schema::CompiledSchema::coerce_integers`]).
    pub input: Value,
    /// How the call ended.
    pub status: ToolCallStatus,
}

/// The outcome of one execution. Serializes to the exact wire shape described in the module docs.
///
/// Invariant kept by the runtime: `warnings` is empty when `outcome` is `Err` (failure results
/// have no `warnings` key; if set anyway they are not serialized).
#[derive(Clone, Debug, PartialEq)]
pub struct ExecutionResult {
    /// `Ok(value)`: the program's first return value as JSON (`null` when none).
    /// `Err(diagnostic)`: why the execution failed.
    pub outcome: Result<Value, Diagnostic>,
    /// Warnings of a successful execution (e.g. [`DiagnosticKind::Truncated`]).
    pub warnings: Vec<Diagnostic>,
    /// Lines written by `print`, one per call.
    pub logs: Vec<String>,
    /// True when the value, the logs or the warnings were cut by `max_output_bytes`.
    pub truncated: bool,
    /// Admitted tool calls in admission order (see [`ToolCallRecord`]). In a paused result,
    /// the pending calls are not listed here (they are in [`crate::Paused::pending`]); the
    /// resumed result lists them in their place with their final status.
    pub tool_calls: Vec<ToolCallRecord>,
    /// `Some` when the execution is paused at host calls awaiting the host (see
    /// [`crate::durable`]): resume it with [`crate::CodeMode::resume`]. `outcome` is then an
    /// `ExecutionFailure` saying so (for hosts that do not look here). Serialized as
    /// `"status":"paused"` with `"pending"` (the snapshot's bytes are not in the JSON).
    pub paused: Option<Box<crate::durable::Paused>>,
}

impl ExecutionResult {
    /// A successful result with no logs, warnings or tool calls.
    pub fn success(value: Value) -> Self {
        ExecutionResult {
            outcome: Ok(value),
            warnings: Vec::new(),
            logs: Vec::new(),
            truncated: false,
            tool_calls: Vec::new(),
            paused: None,
        }
    }

    /// A failed result with no logs or tool calls.
    pub fn failure(error: Diagnostic) -> Self {
        ExecutionResult {
            outcome: Err(error),
            warnings: Vec::new(),
            logs: Vec::new(),
            truncated: false,
            tool_calls: Vec::new(),
            paused: None,
        }
    }

    /// The failed result a host gives for an execution whose future panicked (a bug of
    /// codemode's; the library never panics on guest input): an `ExecutionFailure` saying the
    /// program may be fine. The Python and Node packages catch panics with it.
    pub fn panicked() -> Self {
        ExecutionResult::failure(Diagnostic::new(
            DiagnosticKind::ExecutionFailure,
            "codemode failed internally (a panic); the program may be fine: run it again, and report the bug if it persists.",
        ))
    }

    /// `true` for a successful execution.
    pub fn is_ok(&self) -> bool {
        self.outcome.is_ok()
    }

    /// The value of a successful execution.
    pub fn value(&self) -> Option<&Value> {
        self.outcome.as_ref().ok()
    }

    /// The error of a failed execution.
    pub fn error(&self) -> Option<&Diagnostic> {
        self.outcome.as_ref().err()
    }

    /// The result as one line of JSON text (the wire shape).
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(self).expect("an ExecutionResult always serializes")
    }

    /// The result as a JSON value (the wire shape, keys in order).
    pub fn to_json_value(&self) -> Value {
        serde_json::to_value(self).expect("an ExecutionResult always serializes")
    }

    /// Bound the output to `max_output_bytes` (UTF-8 bytes), following issue 2 §1. The value,
    /// the logs and the tool-call inputs share one budget of `max_output_bytes`, in that order:
    ///
    /// - Success: if the value's JSON text is longer than the budget, the value becomes a string:
    ///   the text cut to the budget (never inside a UTF-8 character) plus
    ///   `" [result truncated: <N> bytes exceeds the <max>-byte output limit; return a smaller value]"`.
    /// - Logs get what the value left of the budget (each line costs its length + 1); the leading
    ///   lines that fit are kept and `"[logs truncated: showing <K> of <T> lines]"` is appended.
    ///   On failure the logs get the whole budget and the error is never touched (its message
    ///   is at most 8 KiB, `codemode_lua::limits::MAX_ERROR_MESSAGE_BYTES`).
    /// - `toolCalls` inputs get what the value and the logs left: in call order, an input whose
    ///   JSON fits the rest is kept and charged; a larger one is replaced by the string
    ///   `"[input omitted by the output limit: <N> bytes of JSON]"` (name and status stay). An
    ///   input that already is such a marker (the runtime records one for inputs past the
    ///   budget during the run) is left as it is.
    /// - Warnings have their own budget equal to `max_output_bytes` (each costs the length of its
    ///   JSON + 1); leading ones are kept and a `Truncated` warning
    ///   `"<k> additional warnings omitted by the output limit."` is appended.
    /// - On success, when the value, logs or inputs were cut, one `Truncated` warning is appended
    ///   (after the kept warnings; a second call replaces it, never adds one) saying what was cut and how
    ///   to get less: `"Output was cut by the <max>-byte output limit (max_output_bytes): the
    ///   value (<N> bytes of JSON, now a cut string); the logs (showing <K> of <T> lines);
    ///   <n> tool-call inputs in toolCalls (...). To get everything back, return only the fields
    ///   and items you need and print less."` (only the parts that apply). A failed result has
    ///   no warnings; its logs marker and `truncated` say it.
    /// - `truncated` becomes true when anything was cut. Markers, keys, tool names, statuses and
    ///   the diagnostic are extra: the final payload may exceed the limit by their length. Never
    ///   fails.
    pub fn truncate(&mut self, max_output_bytes: u64) {
        self.truncate_with_dropped_logs(max_output_bytes, 0);
    }

    /// [`ExecutionResult::truncate`] for logs of which `dropped_logs` further lines (after the
    /// ones in `self.logs`) were already discarded by the runtime: they count in the marker's
    /// total, and the marker is added even if the kept lines fit.
    pub(crate) fn truncate_with_dropped_logs(
        &mut self,
        max_output_bytes: u64,
        dropped_logs: usize,
    ) {
        let max = usize::try_from(max_output_bytes).unwrap_or(usize::MAX);
        let mut used = 0usize;
        let mut cut_value: Option<usize> = None;
        let mut cut_logs: Option<(usize, usize)> = None;
        let mut cut_inputs = 0usize;
        if let Ok(value) = &mut self.outcome {
            let len = json_len(value);
            if len > max {
                let text = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
                let cut = floor_char_boundary(&text, max);
                let mut s = String::with_capacity(cut + 100);
                s.push_str(&text[..cut]);
                s.push_str(&format!(
                    " [result truncated: {} bytes exceeds the {}-byte output limit; return a smaller value]",
                    text.len(),
                    max
                ));
                *value = Value::String(s);
                used = cut;
                self.truncated = true;
                cut_value = Some(text.len());
            } else {
                used = len;
            }
        }
        let log_budget = max.saturating_sub(used);
        let mut cost = 0usize;
        let mut kept = 0usize;
        for line in &self.logs {
            let c = line.len().saturating_add(1);
            if cost.saturating_add(c) > log_budget {
                break;
            }
            cost += c;
            kept += 1;
        }
        if kept < self.logs.len() || dropped_logs > 0 {
            let total = self.logs.len().saturating_add(dropped_logs);
            self.logs.truncate(kept);
            self.logs
                .push(format!("[logs truncated: showing {kept} of {total} lines]"));
            self.truncated = true;
            cut_logs = Some((kept, total));
        }
        let mut input_budget = log_budget.saturating_sub(cost);
        for call in &mut self.tool_calls {
            if is_omitted_input(&call.input) {
                self.truncated = true;
                cut_inputs += 1;
                continue;
            }
            let len = json_len(&call.input);
            if len <= input_budget {
                input_budget -= len;
            } else {
                let old = std::mem::replace(&mut call.input, omitted_input(len));
                crate::limits::drop_deep(old);
                self.truncated = true;
                cut_inputs += 1;
            }
        }
        if self.outcome.is_ok() {
            // A cut warning from an earlier call stays out of the warnings budget and is
            // replaced by this call's (or put back when this call cut nothing).
            let prior_cut = self
                .warnings
                .iter()
                .position(|w| {
                    w.kind == DiagnosticKind::Truncated && w.message.starts_with(CUT_PREFIX)
                })
                .map(|i| self.warnings.remove(i));
            let mut cost = 0usize;
            let mut kept = 0usize;
            for w in &self.warnings {
                let c = serde_json::to_string(w)
                    .map(|s| s.len())
                    .unwrap_or(0)
                    .saturating_add(1);
                if cost.saturating_add(c) > max {
                    break;
                }
                cost += c;
                kept += 1;
            }
            if kept < self.warnings.len() {
                let omitted = self.warnings.len() - kept;
                self.warnings.truncate(kept);
                self.warnings.push(Diagnostic::new(
                    DiagnosticKind::Truncated,
                    format!("{omitted} additional warnings omitted by the output limit."),
                ));
                self.truncated = true;
            }
            match cut_message(max, cut_value, cut_logs, cut_inputs) {
                Some(message) => self
                    .warnings
                    .push(Diagnostic::new(DiagnosticKind::Truncated, message)),
                None => self.warnings.extend(prior_cut),
            }
        }
    }
}

/// Start of the `Truncated` warning [`ExecutionResult::truncate`] adds when it cut the value, the
/// logs or tool-call inputs.
pub const CUT_PREFIX: &str = "Output was cut by the ";

/// The `Truncated` warning text: what was cut and how to get less. `None` when nothing was.
fn cut_message(
    max: usize,
    value: Option<usize>,
    logs: Option<(usize, usize)>,
    inputs: usize,
) -> Option<String> {
    let mut parts = Vec::new();
    let mut advice = Vec::new();
    if let Some(bytes) = value {
        parts.push(format!(
            "the value ({bytes} bytes of JSON, now a cut string)"
        ));
        advice.push("return only the fields and items you need");
    }
    if let Some((kept, total)) = logs {
        parts.push(format!("the logs (showing {kept} of {total} lines)"));
        advice.push("print less");
    }
    if inputs > 0 {
        let s = if inputs == 1 { "" } else { "s" };
        parts.push(format!(
            "{inputs} tool-call input{s} in toolCalls (the calls themselves got their full input)"
        ));
        if advice.is_empty() {
            advice.push("pass smaller inputs if you need them listed");
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(format!(
        "{CUT_PREFIX}{max}-byte output limit (max_output_bytes): {}. To get everything back, {}.",
        parts.join("; "),
        advice.join(" and ")
    ))
}

/// Start of the string that replaces a tool-call input cut by `max_output_bytes`.
pub const OMITTED_INPUT_PREFIX: &str = "[input omitted by the output limit: ";

/// The marker that replaces a tool-call input of `bytes` bytes of JSON:
/// `"[input omitted by the output limit: <bytes> bytes of JSON]"`.
pub(crate) fn omitted_input(bytes: usize) -> Value {
    Value::String(format!("{OMITTED_INPUT_PREFIX}{bytes} bytes of JSON]"))
}

/// `true` for a marker made by [`omitted_input`].
pub(crate) fn is_omitted_input(input: &Value) -> bool {
    matches!(input, Value::String(s) if s.starts_with(OMITTED_INPUT_PREFIX) && s.ends_with(" bytes of JSON]") && s.len() < 80)
}

/// The length in bytes of `value`'s compact JSON text (as `serde_json` writes it), without
/// building the text: an iterative walk that counts string escapes directly (much faster than
/// running the serializer, which matters for a 50 MB tool input in the driver's path).
pub(crate) fn json_len(value: &Value) -> usize {
    // Scalars are counted where they are met; only containers go on the stack (a flat
    // record, the common tool input, allocates nothing).
    let mut total = 0usize;
    let mut stack: Vec<&Value> = Vec::new();
    let mut next = Some(value);
    while let Some(v) = next.take().or_else(|| stack.pop()) {
        let n = match v {
            Value::Array(items) => {
                let mut n = 2 + items.len().saturating_sub(1);
                for child in items {
                    match scalar_len(child) {
                        Some(len) => n = n.saturating_add(len),
                        None => stack.push(child),
                    }
                }
                n
            }
            Value::Object(map) => {
                let mut n = 2 + map.len().saturating_sub(1);
                for (k, child) in map {
                    n = n.saturating_add(json_str_len(k) + 1);
                    match scalar_len(child) {
                        Some(len) => n = n.saturating_add(len),
                        None => stack.push(child),
                    }
                }
                n
            }
            scalar => scalar_len(scalar).unwrap_or(0),
        };
        total = total.saturating_add(n);
    }
    total
}

/// The serialized length of a scalar (`None` for an array or object); numbers are counted
/// as `Display` writes them (serde_json's own form), without allocating.
fn scalar_len(v: &Value) -> Option<usize> {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            self.0 += s.len();
            Ok(())
        }
    }
    Some(match v {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => {
            let mut c = Count(0);
            let _ = std::fmt::Write::write_fmt(&mut c, format_args!("{n}"));
            c.0
        }
        Value::String(s) => json_str_len(s),
        Value::Array(_) | Value::Object(_) => return None,
    })
}

/// Length of `s` as a JSON string literal: quotes, `\"` `\\` and the short control escapes
/// (2 bytes), other control characters as `\u00XX` (6 bytes).
fn json_str_len(s: &str) -> usize {
    let mut n = s.len() + 2;
    for &b in s.as_bytes() {
        if b < 0x20 || b == b'"' || b == b'\\' {
            n += match b {
                b'"' | b'\\' | b'\n' | b'\r' | b'\t' | 0x08 | 0x0c => 1,
                _ => 5,
            };
        }
    }
    n
}

/// The largest index `<= max` that is a char boundary of `s`.
pub(crate) fn floor_char_boundary(s: &str, max: usize) -> usize {
    if max >= s.len() {
        return s.len();
    }
    let mut i = max;
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl Serialize for ExecutionResult {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match &self.outcome {
            _ if self.paused.is_some() => {
                let paused = self.paused.as_ref().expect("paused");
                map.serialize_entry("ok", &false)?;
                map.serialize_entry("status", "paused")?;
                map.serialize_entry("pending", &paused.pending)?;
            }
            Ok(value) => {
                map.serialize_entry("ok", &true)?;
                map.serialize_entry("value", value)?;
                if !self.warnings.is_empty() {
                    map.serialize_entry("warnings", &self.warnings)?;
                }
            }
            Err(error) => {
                map.serialize_entry("ok", &false)?;
                map.serialize_entry("error", error)?;
            }
        }
        if !self.logs.is_empty() {
            map.serialize_entry("logs", &self.logs)?;
        }
        if self.truncated {
            map.serialize_entry("truncated", &true)?;
        }
        map.serialize_entry("toolCalls", &self.tool_calls)?;
        map.end()
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WireResult {
    ok: bool,
    #[serde(default)]
    value: Option<Value>,
    #[serde(default)]
    error: Option<Diagnostic>,
    #[serde(default)]
    warnings: Vec<Diagnostic>,
    #[serde(default)]
    logs: Vec<String>,
    #[serde(default)]
    truncated: bool,
    #[serde(rename = "toolCalls")]
    tool_calls: Vec<ToolCallRecord>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    pending: Option<Value>,
}

impl<'de> Deserialize<'de> for ExecutionResult {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let w = WireResult::deserialize(deserializer)?;
        if w.status.is_some() || w.pending.is_some() {
            return Err(de::Error::custom(
                "a paused result cannot be read back from JSON: its snapshot is not in it",
            ));
        }
        let outcome = if w.ok {
            if w.error.is_some() {
                return Err(de::Error::custom(
                    "a result with \"ok\":true cannot have \"error\"",
                ));
            }
            Ok(w.value.unwrap_or(Value::Null))
        } else {
            match w.error {
                Some(e) => Err(e),
                None => {
                    return Err(de::Error::custom(
                        "a result with \"ok\":false needs \"error\"",
                    ));
                }
            }
        };
        Ok(ExecutionResult {
            outcome,
            warnings: w.warnings,
            logs: w.logs,
            truncated: w.truncated,
            tool_calls: w.tool_calls,
            paused: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floor_boundary_never_splits_a_char() {
        let s = "aé€";
        assert_eq!(floor_char_boundary(s, 0), 0);
        assert_eq!(floor_char_boundary(s, 1), 1);
        assert_eq!(floor_char_boundary(s, 2), 1);
        assert_eq!(floor_char_boundary(s, 3), 3);
        assert_eq!(floor_char_boundary(s, 5), 3);
        assert_eq!(floor_char_boundary(s, 6), 6);
        assert_eq!(floor_char_boundary(s, 99), 6);
    }

    #[test]
    fn value_of_null_is_serialized() {
        let r = ExecutionResult::success(Value::Null);
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":true,"value":null,"toolCalls":[]}"#
        );
    }

    #[test]
    fn round_trip_through_json() {
        let mut r = ExecutionResult::failure(
            Diagnostic::new(DiagnosticKind::ToolFailure, "boom").with_suggestion("retry"),
        );
        r.logs.push("a".into());
        r.tool_calls.push(ToolCallRecord {
            name: "x.y".into(),
            input: json!({"a": 1}),
            status: ToolCallStatus::Failure,
        });
        let text = r.to_json_string();
        let back: ExecutionResult = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn tool_call_inputs_share_what_value_and_logs_leave() {
        // max 20: value "abc" costs 5, the log 6; 9 bytes are left for inputs in call order:
        // {"a":1} (7) stays, {"b":22} (8) does not fit the remaining 2 and becomes the marker,
        // 1 (1 byte) still fits; an existing marker is left as it is.
        let mut r = ExecutionResult::success(json!("abc"));
        r.logs.push("12345".into());
        for input in [
            json!({"a": 1}),
            json!({"b": 22}),
            json!(1),
            omitted_input(5000),
        ] {
            r.tool_calls.push(ToolCallRecord {
                name: "t.x".into(),
                input,
                status: ToolCallStatus::Success,
            });
        }
        r.truncate(20);
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":true,"value":"abc","warnings":[{"kind":"Truncated","message":"Output was cut by the 20-byte output limit (max_output_bytes): 2 tool-call inputs in toolCalls (the calls themselves got their full input). To get everything back, pass smaller inputs if you need them listed."}],"logs":["12345"],"truncated":true,"toolCalls":[{"name":"t.x","input":{"a":1},"status":"success"},{"name":"t.x","input":"[input omitted by the output limit: 8 bytes of JSON]","status":"success"},{"name":"t.x","input":1,"status":"success"},{"name":"t.x","input":"[input omitted by the output limit: 5000 bytes of JSON]","status":"success"}]}"#
        );
    }

    #[test]
    fn inputs_that_fit_are_untouched() {
        let mut r = ExecutionResult::failure(Diagnostic::new(DiagnosticKind::ToolFailure, "x"));
        r.tool_calls.push(ToolCallRecord {
            name: "t.x".into(),
            input: json!({"a": 1}),
            status: ToolCallStatus::Failure,
        });
        r.truncate(7);
        assert!(!r.truncated);
        assert_eq!(r.tool_calls[0].input, json!({"a": 1}));
        r.truncate(6);
        assert!(r.truncated);
        assert_eq!(
            r.tool_calls[0].input,
            json!("[input omitted by the output limit: 7 bytes of JSON]")
        );
    }

    #[test]
    fn dropped_log_lines_count_in_the_marker() {
        let mut r = ExecutionResult::success(json!(1));
        r.logs.push("a".into());
        r.truncate_with_dropped_logs(100, 3);
        assert!(r.truncated);
        assert_eq!(r.logs, vec!["a", "[logs truncated: showing 1 of 4 lines]"]);
    }

    #[test]
    fn json_len_matches_the_serializer() {
        for v in [
            json!(null),
            json!(true),
            json!(false),
            json!(-12),
            json!(1.5e300),
            json!(0.1),
            json!(u64::MAX),
            json!("plain"),
            json!("q\"b\\n\n r\r t\t b\u{8} f\u{c} z\u{0} e\u{1f} del\u{7f} é€😀"),
            json!([]),
            json!({}),
            json!([1, [2, [3, {}]], {"k\"": [null, "x"]}]),
            json!({"a": 1, "b": {"c": [true, false]}, "": ""}),
        ] {
            assert_eq!(
                json_len(&v),
                serde_json::to_string(&v).unwrap().len(),
                "{v}"
            );
        }
    }
}
