//! [`JavaScript`]: the JavaScript guest as the host sees it ([`codemode_guest::Language`]):
//! starting a run, and the words the host uses in messages (quoting, tool expressions, object
//! literals, names, reserved words and globals).

use codemode_guest::{
    Env, Guest, GuestError, Language, Notation, Primitive, StartOptions, TypeScript, ValueKind,
};

/// The JavaScript guest language (a strict-mode subset of ES2024, TypeScript annotations
/// accepted; see the crate docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct JavaScript;

/// JavaScript reserved words (strict mode, plus literals): the TypeScript notation's list.
pub const KEYWORDS: &[&str] = &codemode_guest::JS_KEYWORDS;

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

    fn restore(
        &self,
        bytes: &[u8],
        env: &Env,
        options: &StartOptions,
    ) -> Result<Box<dyn Guest>, GuestError> {
        Ok(Box::new(crate::guest::JsGuest::restore(
            bytes, env, options,
        )?))
    }

    fn is_blank(&self, source: &str) -> bool {
        crate::scan::is_blank(source)
    }

    fn keywords(&self) -> &'static [&'static str] {
        KEYWORDS
    }

    fn reserved_globals(&self) -> Vec<String> {
        crate::reserved_globals()
    }
}

/// JavaScript is written in the TypeScript notation ([`TypeScript`]): every method forwards.
impl Notation for JavaScript {
    fn quote(&self, s: &str) -> String {
        TypeScript.quote(s)
    }
    fn is_identifier(&self, s: &str) -> bool {
        TypeScript.is_identifier(s)
    }
    fn tool_expression(&self, path: &str) -> String {
        TypeScript.tool_expression(path)
    }
    fn object(&self, fields: &[(&str, &str)]) -> String {
        TypeScript.object(fields)
    }
    fn object_noun(&self) -> &'static str {
        TypeScript.object_noun()
    }
    fn call_example(&self, callee: &str, fields: &[(&str, &str)]) -> String {
        TypeScript.call_example(callee, fields)
    }
    fn awaited(&self, call: String) -> String {
        TypeScript.awaited(call)
    }
    fn value_noun(&self, kind: ValueKind) -> &'static str {
        TypeScript.value_noun(kind)
    }
    fn signature(&self, expression: &str, input: Option<&str>, output: &str) -> String {
        TypeScript.signature(expression, input, output)
    }
    fn primitive(&self, p: Primitive) -> &'static str {
        TypeScript.primitive(p)
    }
    fn array(&self, item: &str, simple: bool) -> String {
        TypeScript.array(item, simple)
    }
    fn tuple_brackets(&self) -> (&'static str, &'static str) {
        TypeScript.tuple_brackets()
    }
    fn tuple_rest_is_array(&self) -> bool {
        TypeScript.tuple_rest_is_array()
    }
    fn union_separator(&self) -> &'static str {
        TypeScript.union_separator()
    }
    fn field_separator(&self) -> &'static str {
        TypeScript.field_separator()
    }
    fn field_key(&self, key: &str) -> String {
        TypeScript.field_key(key)
    }
    fn map_key(&self) -> &'static str {
        TypeScript.map_key()
    }
    fn integer_doc_tag(&self) -> bool {
        TypeScript.integer_doc_tag()
    }
    fn null_field_arrives_absent(&self) -> bool {
        TypeScript.null_field_arrives_absent()
    }
    fn documented_field(&self, pad: &str, line: &str, doc: &[String], out: &mut String) {
        TypeScript.documented_field(pad, line, doc, out)
    }
    fn line_comment(&self) -> &'static str {
        TypeScript.line_comment()
    }
    fn guide(&self) -> &'static str {
        TypeScript.guide()
    }
    fn paging_hint(&self) -> &'static str {
        TypeScript.paging_hint()
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
