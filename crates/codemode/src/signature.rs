//! Model-facing signatures of tools rendered from their JSON Schemas (issue 4 "Signatures").
//! Work in progress: the full renderer lands in the next commits.

use serde_json::Value;

use crate::runtime::Language;

/// The call expression of a tool path in `language`: `tools.orders.lookup`,
/// `tools.context7["resolve-library-id"]`.
pub fn tool_expression(path: &str, language: Language) -> String {
    let _ = language;
    let mut out = String::from("tools");
    for seg in path.split('.') {
        out.push('[');
        out.push_str(&Value::String(seg.to_string()).to_string());
        out.push(']');
    }
    out
}
