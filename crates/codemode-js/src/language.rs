//! [`JavaScript`]: the JavaScript guest as the host sees it ([`codemode_guest::Language`]):
//! starting a run, and the words the host uses in messages (quoting, tool expressions, object
//! literals, names, reserved words and globals).

use codemode_guest::{Env, Guest, GuestError, Language, StartOptions};

/// The JavaScript guest language (a strict-mode subset of ES2024, TypeScript annotations
/// accepted; see the crate docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct JavaScript;

/// JavaScript's reserved words, strict mode included.
pub const KEYWORDS: &[&str] = &[
    "await",
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "enum",
    "export",
    "extends",
    "false",
    "finally",
    "for",
    "function",
    "if",
    "implements",
    "import",
    "in",
    "instanceof",
    "interface",
    "let",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "static",
    "super",
    "switch",
    "this",
    "throw",
    "true",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
];

impl Language for JavaScript {
    fn name(&self) -> &'static str {
        "JavaScript"
    }

    fn start(
        &self,
        source: &str,
        env: &Env,
        options: &StartOptions,
    ) -> Result<Box<dyn Guest>, GuestError> {
        let guest = crate::guest::JsGuest::start(source, env, options)?;
        Ok(Box::new(guest))
    }

    fn is_blank(&self, source: &str) -> bool {
        crate::scan::is_blank(source)
    }

    fn quote(&self, s: &str) -> String {
        serde_json::Value::String(s.to_string()).to_string()
    }

    fn is_identifier(&self, s: &str) -> bool {
        let mut chars = s.chars();
        let Some(first) = chars.next() else {
            return false;
        };
        (first.is_ascii_alphabetic() || first == '_' || first == '$')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
            && !KEYWORDS.contains(&s)
    }

    fn keywords(&self) -> &'static [&'static str] {
        KEYWORDS
    }

    fn reserved_globals(&self) -> Vec<String> {
        crate::reserved_globals()
    }

    fn tool_expression(&self, path: &str) -> String {
        let mut out = String::from("tools");
        for seg in path.split('.') {
            if self.is_identifier(seg) {
                out.push('.');
                out.push_str(seg);
            } else {
                out.push('[');
                out.push_str(&self.quote(seg));
                out.push(']');
            }
        }
        out
    }

    fn object(&self, fields: &[(&str, &str)]) -> String {
        if fields.is_empty() {
            return "{}".to_string();
        }
        let parts: Vec<String> = fields
            .iter()
            .map(|(k, v)| {
                if self.is_identifier(k) {
                    format!("{k}: {v}")
                } else {
                    format!("{}: {v}", self.quote(k))
                }
            })
            .collect();
        format!("{{ {} }}", parts.join(", "))
    }

    fn object_noun(&self) -> &'static str {
        "object"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_for_host_messages() {
        let js = JavaScript;
        assert_eq!(js.tool_expression("orders.lookup"), "tools.orders.lookup");
        assert_eq!(
            js.tool_expression("ns.dash-name.delete"),
            "tools.ns[\"dash-name\"][\"delete\"]"
        );
        assert_eq!(
            js.call_example("search", &[("query", &js.quote("a\"b\n"))]),
            "search({ query: \"a\\\"b\\n\" })"
        );
        assert_eq!(js.object(&[]), "{}");
        assert!(js.is_identifier("$x_1"));
        assert!(!js.is_identifier("1x"));
        assert!(!js.is_identifier("class"));
        assert!(js.is_blank(" // x\n/* y */"));
    }
}
