//! [`StandIn`]: a guest language with words of its own, for the driver and gate tests. Messages
//! built from it show that the host writes what the language says (`record(query: "x")`), not
//! Lua or JavaScript. It compiles nothing: the tests drive scripted guests directly.

use std::fmt::Write as _;

use codemode_guest::{
    Env, ErrorKind, Guest, GuestError, Language, Notation, Primitive, StartOptions, ValueKind,
};

/// The stand-in language (see the module docs).
pub(crate) struct StandIn;

impl Language for StandIn {
    fn name(&self) -> &'static str {
        "Stand-in"
    }

    fn start(&self, _: &str, _: &Env, _: &StartOptions) -> Result<Box<dyn Guest>, GuestError> {
        Err(GuestError::new(
            ErrorKind::ParseError,
            "the stand-in language compiles nothing",
        ))
    }

    fn is_blank(&self, source: &str) -> bool {
        source.trim().is_empty()
    }

    fn keywords(&self) -> &'static [&'static str] {
        &["record"]
    }

    fn reserved_globals(&self) -> Vec<String> {
        ["tools", "search", "record"].map(String::from).to_vec()
    }
}

impl Notation for StandIn {
    fn quote(&self, s: &str) -> String {
        serde_json::Value::String(s.to_string()).to_string()
    }

    fn is_identifier(&self, s: &str) -> bool {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !self.keywords().contains(&s)
    }

    fn object(&self, fields: &[(&str, &str)]) -> String {
        let fields: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}: {v}", self.field_key(k)))
            .collect();
        format!("record({})", fields.join(", "))
    }

    fn object_noun(&self) -> &'static str {
        "record"
    }

    fn value_noun(&self, kind: ValueKind) -> &'static str {
        match kind {
            ValueKind::Null => "nothing",
            ValueKind::Array => "a sequence",
            ValueKind::Object => "a record",
        }
    }

    fn signature(&self, expression: &str, input: Option<&str>, output: &str) -> String {
        format!("{expression}({}) => {output}", input.unwrap_or(""))
    }

    fn primitive(&self, p: Primitive) -> &'static str {
        match p {
            Primitive::String => "text",
            Primitive::Number => "number",
            Primitive::Integer => "whole",
            Primitive::Boolean => "yes-no",
            Primitive::Null | Primitive::Absent => "nothing",
        }
    }

    fn array(&self, item: &str, _simple: bool) -> String {
        format!("sequence({item})")
    }

    fn tuple_brackets(&self) -> (&'static str, &'static str) {
        ("(", ")")
    }

    fn tuple_rest_is_array(&self) -> bool {
        false
    }

    fn union_separator(&self) -> &'static str {
        " or "
    }

    fn field_separator(&self) -> &'static str {
        ", "
    }

    fn map_key(&self) -> &'static str {
        "[text]"
    }

    fn documented_field(&self, pad: &str, line: &str, doc: &[String], out: &mut String) {
        for l in doc {
            let _ = writeln!(out, "{pad}# {l}");
        }
        let _ = writeln!(out, "{pad}{line}");
    }

    fn line_comment(&self) -> &'static str {
        "#"
    }

    fn guide(&self) -> &'static str {
        "Write a stand-in program.\n\n"
    }

    fn paging_hint(&self) -> &'static str {
        "`offset` from `next`"
    }
}
