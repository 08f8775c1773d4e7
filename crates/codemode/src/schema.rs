//! Compiled JSON Schema validators ([`CompiledSchema`]) and model-facing validation messages.
//!
//! Schemas are compiled once when a [`crate::CodeMode`] is built (a bad schema is a build error
//! naming the tool). Validation failures render as `at /items/0: "x" is not of type "integer"`:
//! the JSON Pointer of the failing place in the input (or `at the top level`) and the rule that
//! failed, as `jsonschema` words it. At most [`MAX_REPORTED_ERRORS`] errors are reported, each cut
//! to [`MAX_ERROR_CHARS`] characters, so a huge input cannot make a huge message.

use serde_json::Value;

/// How many validation errors one message lists at most.
pub const MAX_REPORTED_ERRORS: usize = 3;
/// The longest rendering of one validation error, in characters (longer ones end with `…`).
pub const MAX_ERROR_CHARS: usize = 300;

/// A JSON Schema compiled for repeated validation. Cheap to share (`Send + Sync`).
#[derive(Clone, Debug)]
pub struct CompiledSchema {
    schema: Value,
    validator: jsonschema::Validator,
}

impl CompiledSchema {
    /// Compile `schema` (the draft is read from `$schema`, default 2020-12). Errors: a message
    /// saying what is wrong with the schema (not valid against its meta-schema, unresolvable
    /// `$ref`; remote references are never fetched).
    pub fn compile(schema: &Value) -> Result<Self, String> {
        match jsonschema::validator_for(schema) {
            Ok(validator) => Ok(CompiledSchema {
                schema: schema.clone(),
                validator,
            }),
            Err(e) => {
                let path = e.instance_path().as_str().to_string();
                let msg = clip(&e.to_string());
                Err(if path.is_empty() {
                    msg
                } else {
                    format!("at {path}: {msg}")
                })
            }
        }
    }

    /// The schema as given.
    pub fn schema(&self) -> &Value {
        &self.schema
    }

    /// `true` when `instance` is valid.
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.validator.is_valid(instance)
    }

    /// Validate `instance`, a tool input written by the program. Errors: `at <pointer>: <rule>`
    /// for up to [`MAX_REPORTED_ERRORS`] failures joined with `"; "`, plus `" (and N more)"` when
    /// there were more. An empty object where an array was expected gets [`EMPTY_ARRAY_HINT`].
    pub fn validate(&self, instance: &Value) -> Result<(), String> {
        self.check(instance, true)
    }

    /// Like [`CompiledSchema::validate`] without the hints meant for the program's own values
    /// (for tool outputs, which the program did not build).
    pub fn validate_output(&self, instance: &Value) -> Result<(), String> {
        self.check(instance, false)
    }

    fn check(&self, instance: &Value, hints: bool) -> Result<(), String> {
        if self.validator.is_valid(instance) {
            return Ok(());
        }
        let mut parts = Vec::new();
        let mut more = 0usize;
        for e in self.validator.iter_errors(instance) {
            if parts.len() == MAX_REPORTED_ERRORS {
                more += 1;
                if more > 1000 {
                    break;
                }
                continue;
            }
            let path = e.instance_path().as_str();
            let place = if path.is_empty() {
                "at the top level".to_string()
            } else {
                format!("at {path}")
            };
            let mut text = clip(&e.to_string());
            if hints && is_empty_table_for_array(e.instance(), &text) {
                text.push_str(EMPTY_ARRAY_HINT);
            }
            parts.push(format!("{place}: {text}"));
        }
        if parts.is_empty() {
            parts.push("at the top level: the value does not match the schema".to_string());
        }
        let mut msg = parts.join("; ");
        if more > 0 {
            msg.push_str(&format!(" (and {more} more)"));
        }
        Err(msg)
    }
}

/// Appended to a type error where an array was expected and `{}` was given: an empty Lua table
/// crosses the boundary as a JSON object.
pub const EMPTY_ARRAY_HINT: &str =
    "; an empty Lua table `{}` is sent as an object: use json.array() for an empty array";

/// `true` for a type error (`message`) about an empty object where the expected types include
/// `"array"`.
fn is_empty_table_for_array(instance: &Value, message: &str) -> bool {
    instance.as_object().is_some_and(|o| o.is_empty())
        && message.starts_with("{} is not of type")
        && message.contains("\"array\"")
}

/// Cut `s` to [`MAX_ERROR_CHARS`] characters.
fn clip(s: &str) -> String {
    if s.chars().count() <= MAX_ERROR_CHARS {
        return s.to_string();
    }
    let mut out: String = s.chars().take(MAX_ERROR_CHARS).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_messages_are_clipped() {
        let s = CompiledSchema::compile(&json!({"type": "integer"})).unwrap();
        let big = "x".repeat(5000);
        let err = s.validate(&json!(big)).unwrap_err();
        assert!(err.chars().count() < MAX_ERROR_CHARS + 40, "{err}");
        assert!(err.ends_with('…'), "{err}");
    }

    #[test]
    fn empty_table_for_an_array_points_to_json_array() {
        let s = CompiledSchema::compile(&json!({
            "type": "object",
            "properties": {"ids": {"type": "array"}, "tags": {"type": ["array", "null"]}}
        }))
        .unwrap();
        let err = s.validate(&json!({"ids": {}})).unwrap_err();
        assert_eq!(
            err,
            "at /ids: {} is not of type \"array\"; an empty Lua table `{}` is sent as an object: \
             use json.array() for an empty array"
        );
        let err = s.validate(&json!({"ids": [], "tags": {}})).unwrap_err();
        assert!(
            err.ends_with("use json.array() for an empty array"),
            "{err}"
        );
        // A non-empty object, or another expected type: no hint.
        let err = s.validate(&json!({"ids": {"a": 1}})).unwrap_err();
        assert_eq!(err, "at /ids: {\"a\":1} is not of type \"array\"");
        // Tool outputs: no hint about Lua tables.
        assert_eq!(
            s.validate_output(&json!({"ids": {}})).unwrap_err(),
            "at /ids: {} is not of type \"array\""
        );
        let n = CompiledSchema::compile(&json!({"type": "integer"})).unwrap();
        assert_eq!(
            n.validate(&json!({})).unwrap_err(),
            "at the top level: {} is not of type \"integer\""
        );
    }

    #[test]
    fn many_errors_are_summarized() {
        let s = CompiledSchema::compile(&json!({"type": "array", "items": {"type": "integer"}}))
            .unwrap();
        let err = s.validate(&json!(["a", "b", "c", "d", "e"])).unwrap_err();
        assert_eq!(
            err,
            "at /0: \"a\" is not of type \"integer\"; at /1: \"b\" is not of type \"integer\"; \
             at /2: \"c\" is not of type \"integer\" (and 2 more)"
        );
    }
}
