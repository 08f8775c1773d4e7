//! The TypeScript notation: how signatures, messages and the catalog's guide are written for a
//! JavaScript program. The JavaScript guest (`codemode-js`) speaks it, and the host renders in
//! it for a language whose guest crate is not compiled in.
//!
//! | | TypeScript notation |
//! |---|---|
//! | call | `tools.orders.lookup(input: { id: string }): Promise<T>` |
//! | no input | `tools.x.ping(): Promise<T>` |
//! | no output schema | `Promise<unknown>` |
//! | object | `{ id: string; limit?: number }` |
//! | integer | `number` (pretty mode adds `@integer` to the field's doc) |
//! | array | `string[]`, `Array<"a" \| "b">` |
//! | tuple (`prefixItems`) | `[string, number]`, `[string, ...number[]]` |
//! | map (`additionalProperties`) | `{ [key: string]: number }` |
//! | null | `null` |
//! | nullable field of an output | `next?: number \| null` |
//! | nullable output | `Promise<T \| null>` |
//! | union / intersection | `A \| B`, `A & B` |
//! | field docs (pretty) | `/** Text. @default 30 */` above the field |
//!
//! Keys that are not identifiers are quoted: `"foo-bar"?: string`.

use std::fmt::Write as _;

use crate::{DOC_LINE_CHARS, Notation, Primitive, ValueKind};
use serde_json::Value;

/// JavaScript reserved words (ES2015+, strict mode, plus literals). Bracketed in tool
/// expressions for clarity even where `a.default` would parse.
pub const JS_KEYWORDS: [&str; 46] = [
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

/// The TypeScript notation (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct TypeScript;

impl Notation for TypeScript {
    /// JSON quoting.
    fn quote(&self, s: &str) -> String {
        Value::String(s.to_string()).to_string()
    }

    /// An ASCII identifier (`$` allowed) that is not a reserved word.
    fn is_identifier(&self, s: &str) -> bool {
        let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
        s.chars()
            .next()
            .is_some_and(|c| ident(c) && !c.is_ascii_digit())
            && s.chars().all(ident)
            && !JS_KEYWORDS.contains(&s)
    }

    fn object(&self, fields: &[(&str, &str)]) -> String {
        if fields.is_empty() {
            return "{}".to_string();
        }
        let fields: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{}: {v}", self.field_key(k)))
            .collect();
        format!("{{ {} }}", fields.join(", "))
    }

    fn object_noun(&self) -> &'static str {
        "object"
    }

    fn awaited(&self, call: String) -> String {
        format!("await {call}")
    }

    fn value_noun(&self, kind: ValueKind) -> &'static str {
        match kind {
            ValueKind::Null => "null",
            ValueKind::Array => "an array",
            ValueKind::Object => "an object",
        }
    }

    fn signature(&self, expression: &str, input: Option<&str>, output: &str) -> String {
        match input {
            Some(input) => format!("{expression}(input: {input}): Promise<{output}>"),
            None => format!("{expression}(): Promise<{output}>"),
        }
    }

    fn primitive(&self, p: Primitive) -> &'static str {
        match p {
            Primitive::String => "string",
            Primitive::Number | Primitive::Integer => "number",
            Primitive::Boolean => "boolean",
            Primitive::Null => "null",
            Primitive::Absent => "undefined",
        }
    }

    fn array(&self, item: &str, simple: bool) -> String {
        if simple {
            format!("{item}[]")
        } else {
            format!("Array<{item}>")
        }
    }

    fn tuple_brackets(&self) -> (&'static str, &'static str) {
        ("[", "]")
    }

    fn tuple_rest_is_array(&self) -> bool {
        true
    }

    fn union_separator(&self) -> &'static str {
        " | "
    }

    fn field_separator(&self) -> &'static str {
        "; "
    }

    fn map_key(&self) -> &'static str {
        "[key: string]"
    }

    fn integer_doc_tag(&self) -> bool {
        true
    }

    /// A JSDoc comment above the field: `/** One line. */`, or a `/**` block when longer.
    fn documented_field(&self, pad: &str, line: &str, doc: &[String], out: &mut String) {
        let doc: Vec<String> = doc.iter().map(|l| l.replace("*/", "* /")).collect();
        if doc.len() == 1 && pad.len() + doc[0].chars().count() + 7 <= DOC_LINE_CHARS {
            let _ = writeln!(out, "{pad}/** {} */", doc[0]);
        } else {
            let _ = writeln!(out, "{pad}/**");
            for l in &doc {
                if l.is_empty() {
                    let _ = writeln!(out, "{pad} *");
                } else {
                    let _ = writeln!(out, "{pad} * {l}");
                }
            }
            let _ = writeln!(out, "{pad} */");
        }
        let _ = writeln!(out, "{pad}{line}");
    }

    fn line_comment(&self) -> &'static str {
        "//"
    }

    fn guide(&self) -> &'static str {
        GUIDE
    }

    fn paging_hint(&self) -> &'static str {
        "`offset: next.offset` until `next` is null"
    }
}

/// The guide at the head of the catalog's instructions for a JavaScript program.
const GUIDE: &str = "Run a JavaScript program that calls the tools listed below. Its `return` value is the \
         result of the run, as JSON.\n\
         \n\
         ## Writing the program\n\
         - End with an explicit `return <value>`.\n\
         - Call a tool as `await tools.<namespace>.<tool>({ field: value })`; it returns a \
         promise of the tool's result. Run independent calls together with `Promise.all`; the \
         run ends at `return`, and calls still pending then are interrupted.\n\
         - Use the exact paths listed here or returned by `search`; names that are not \
         identifiers are written `tools.<namespace>[\"some-name\"]`. Do not guess or rename \
         tools.\n\
         - A failed call rejects with an error whose message says what went wrong; use \
         `try`/`catch`.\n\
         - Filter, join and aggregate in the program; return only what is needed.\n\
         - `search({ query: \"words\", namespace: \"name\" })` finds tools and returns \
         their complete signatures at once (no `await` needed); it counts as a tool call.\n\
         \n\
         ## Data rules\n\
         - Values cross as JSON: objects, arrays, strings, numbers, booleans and null. \
         `undefined` fields are dropped.\n\
         - No packages: `import` and `require` load only the globals the host provides, by \
         Node module name (`import { readFile } from \"node:fs\"` when there is an `fs`).\n\
         - Not available: timers, `fetch`, `eval`.\n\
         \n";
