//! The [`Notation`] trait: how the host writes code, types and guide text in a guest's words.
//!
//! The host reads a tool's JSON Schema into a type tree and prints it; everything that depends
//! on the language (how an array or a tuple is written, how a key is quoted, comments, the
//! signature's shape, what a JSON null in a result becomes) comes from here. Every
//! [`crate::Language`] is a `Notation`; a notation may also exist without a runnable guest (the
//! host's TypeScript notation).

use serde_json::Value;

/// Widest documented field line a pretty signature writes, in characters (comment included):
/// a field whose one-line comment would be wider gets its comment on lines of its own.
pub const DOC_LINE_CHARS: usize = 120;

/// A primitive type as a signature shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Primitive {
    /// JSON Schema `string`.
    String,
    /// JSON Schema `number`.
    Number,
    /// JSON Schema `integer`.
    Integer,
    /// JSON Schema `boolean`.
    Boolean,
    /// JSON Schema `null`: the JSON null as the program writes and sees it.
    Null,
    /// No value: what a result field (or result) that was JSON null becomes when the notation
    /// says so ([`Notation::null_field_arrives_absent`]).
    Absent,
}

/// The kinds of JSON value a host message may name ([`Notation::value_noun`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueKind {
    /// JSON null.
    Null,
    /// A JSON array.
    Array,
    /// A JSON object.
    Object,
}

impl ValueKind {
    /// The kind of `v` when it is null, an array or an object.
    pub fn of(v: &Value) -> Option<ValueKind> {
        match v {
            Value::Null => Some(ValueKind::Null),
            Value::Array(_) => Some(ValueKind::Array),
            Value::Object(_) => Some(ValueKind::Object),
            _ => None,
        }
    }
}

/// What the host must know to write in one language: literals and names for messages, the
/// notation of tool signatures, and the text of the catalog. Methods return text only; none
/// fails or panics.
pub trait Notation: Send + Sync + 'static {
    // -----------------------------------------------------------------------------------------
    // Words for messages

    /// A string literal for `s` in the language (`"orders.lookup"`).
    fn quote(&self, s: &str) -> String;

    /// `true` when `s` can be written as a name: after a `.` in a path, as a field name, and as
    /// a global.
    fn is_identifier(&self, s: &str) -> bool;

    /// The expression that calls the tool at `path` (`tools.orders.lookup`,
    /// `tools.ns["dash-name"]`): each segment that is not an identifier is written as an index
    /// with a quoted key.
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

    /// `call` written as a statement that waits for its result (`await search(...)` in
    /// JavaScript); unchanged where a call already waits (Lua).
    fn awaited(&self, call: String) -> String {
        call
    }

    /// How a message names a value of `kind` the program passed ("a table", "an array", ...).
    fn value_noun(&self, kind: ValueKind) -> &'static str;

    // -----------------------------------------------------------------------------------------
    // Signatures

    /// A whole signature from its parts, already rendered: the tool expression, the input type
    /// (`None` when the tool takes no input) and the output type. Lua:
    /// `tools.a.b({ id: string }) -> unknown`; TypeScript:
    /// `tools.a.b(input: { id: string }): Promise<unknown>`.
    fn signature(&self, expression: &str, input: Option<&str>, output: &str) -> String;

    /// The name of a primitive type (`string`, `integer`, `json.null`, `nil`, ...).
    fn primitive(&self, p: Primitive) -> &'static str;

    /// An array of `item` (already rendered); `simple` when `item` is a primitive, literal,
    /// array, object or `unknown`, which can take a postfix (`string[]`) without parentheses.
    fn array(&self, item: &str, simple: bool) -> String;

    /// The brackets around a tuple (`[`, `]` or `{ `, ` }`).
    fn tuple_brackets(&self) -> (&'static str, &'static str);

    /// `true` when a tuple's rest is written as an array after `...` (`[string, ...number[]]`),
    /// `false` when as its element type (`{ string, ...integer }`).
    fn tuple_rest_is_array(&self) -> bool;

    /// Between the members of a union (`" | "` or `"|"`).
    fn union_separator(&self) -> &'static str;

    /// Between the fields of a one-line object type (`"; "` or `", "`); its first character
    /// ends each field of a multi-line object.
    fn field_separator(&self) -> &'static str;

    /// A field name in an object type or literal, without the `?` of optional fields: the name
    /// itself when it is an identifier, otherwise quoted (by default [`Notation::quote`]d:
    /// `"foo-bar"`; Lua writes `["foo-bar"]`).
    fn field_key(&self, key: &str) -> String {
        if self.is_identifier(key) {
            key.to_string()
        } else {
            self.quote(key)
        }
    }

    /// The key part of a map type's entry (`[key: string]`, `[string]`).
    fn map_key(&self) -> &'static str;

    /// `true` when field docs add an `@integer` tag for integer fields (where the notation
    /// writes integers as plain numbers).
    fn integer_doc_tag(&self) -> bool {
        false
    }

    /// `true` when a JSON null in a result's object field arrives as an absent field (so such a
    /// field is shown optional, without the null member, and a null result as
    /// [`Primitive::Absent`]); nulls in arrays still arrive as [`Primitive::Null`].
    fn null_field_arrives_absent(&self) -> bool {
        false
    }

    /// Appends one field of a multi-line object type to `out`: `line` (the field, already
    /// indented by `pad` when written) with its documentation lines `doc` as comments, each
    /// output line ending in `\n`. `doc` may be empty. Lines stay within [`DOC_LINE_CHARS`]
    /// where they can.
    fn documented_field(&self, pad: &str, line: &str, doc: &[String], out: &mut String);

    // -----------------------------------------------------------------------------------------
    // The catalog

    /// What starts a comment to the end of the line (`--`, `//`).
    fn line_comment(&self) -> &'static str;

    /// The guide at the head of the model-facing instructions: how to write a program, call
    /// tools, read signatures, and the data rules. Markdown, ending with a blank line.
    fn guide(&self) -> &'static str;

    /// How the catalog tells a model to page through `search` results, after "page with":
    /// "`offset = next.offset` until `next` is nil".
    fn paging_hint(&self) -> &'static str;
}
