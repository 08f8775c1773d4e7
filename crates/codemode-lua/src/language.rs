//! [`Lua`]: the Lua 5.4 guest as the host sees it ([`codemode_guest::Language`]): starting a
//! run, and the words the host uses in messages (quoting, tool expressions, table literals,
//! names, reserved words and globals, input hints), and its [`codemode_guest::Notation`]: how
//! tool signatures are written in Lua, and the guide of the catalog.
//!
//! | | Lua notation |
//! |---|---|
//! | call | `tools.orders.lookup({ id: string }) -> T` |
//! | no input | `tools.x.ping() -> T` |
//! | no output schema | `-> unknown` |
//! | object | `{ id: string, limit?: integer }` |
//! | integer | `integer` |
//! | array | `string[]`, `("a"\|"b")[]` |
//! | tuple (`prefixItems`) | `{ string, integer }`, `{ string, ...integer }` |
//! | map (`additionalProperties`) | `{ [string]: integer }` |
//! | null | `json.null` (the value a Lua program sends, and sees in arrays) |
//! | nullable field of an output | `next?: integer` (a null field arrives absent, nil) |
//! | nullable output | `-> T\|nil` (a null result arrives as nil) |
//! | union / intersection | `A\|B`, `A & B` |
//! | field docs (pretty) | `-- Text. @default 30` beside the field (above when long or multi-line) |
//!
//! Arrays are written `T[]` (the LuaLS / EmmyLua convention most Lua programmers know); at run
//! time they are ordinary sequences `{ v1, v2 }`. Keys that are not Lua names are written
//! `["foo-bar"]?: string`.

use std::fmt::Write as _;

use codemode_guest::{
    DOC_LINE_CHARS, Env, Guest, GuestError, Language, Notation, Primitive, StartOptions, ValueKind,
};

use crate::guest::LuaGuest;
use crate::{Budgets, Machine, compile_with};

/// The Lua 5.4 guest language.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lua;

impl Language for Lua {
    fn name(&self) -> &'static str {
        "Lua"
    }

    fn start(
        &self,
        source: &str,
        env: &Env,
        options: &StartOptions,
    ) -> Result<Box<dyn Guest>, GuestError> {
        let budgets = Budgets {
            max_memory_bytes: options.max_memory_bytes,
        };
        let program = compile_with(source, &budgets)?;
        let mut machine = Machine::new(&program, env, budgets);
        if let Some(deadline) = options.deadline {
            // Natives that call back into Lua (a `table.sort` comparator) and long data walks
            // cannot yield; the machine checks the deadline there itself.
            machine.set_deadline(deadline);
        }
        let mut guest = LuaGuest::new(machine);
        guest.source = Some(source.into());
        Ok(Box::new(guest))
    }

    fn restore(
        &self,
        bytes: &[u8],
        env: &Env,
        options: &StartOptions,
    ) -> Result<Box<dyn Guest>, GuestError> {
        Ok(Box::new(crate::snapshot::decode(bytes, env, options)?))
    }

    fn is_blank(&self, source: &str) -> bool {
        is_blank(source)
    }

    fn keywords(&self) -> &'static [&'static str] {
        crate::lexer::KEYWORDS
    }

    fn reserved_globals(&self) -> Vec<String> {
        crate::reserved_globals()
    }

    fn empty_array_hint(&self) -> Option<&'static str> {
        Some("an empty Lua table `{}` is sent as an object: use json.array() for an empty array")
    }

    fn fraction_hint(&self) -> Option<&'static str> {
        Some("an integer is expected: use math.floor(x), or // for integer division")
    }
}

impl Notation for Lua {
    fn quote(&self, s: &str) -> String {
        quote(s)
    }

    fn is_identifier(&self, s: &str) -> bool {
        let b = s.as_bytes();
        !b.is_empty()
            && (b[0].is_ascii_alphabetic() || b[0] == b'_')
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
            && crate::lexer::keyword(b).is_none()
    }

    fn object_noun(&self) -> &'static str {
        "table"
    }

    fn object(&self, fields: &[(&str, &str)]) -> String {
        if fields.is_empty() {
            return "{}".to_string();
        }
        let mut out = String::from("{ ");
        for (i, (k, v)) in fields.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&self.field_key(k));
            out.push_str(" = ");
            out.push_str(v);
        }
        out.push_str(" }");
        out
    }

    fn value_noun(&self, kind: ValueKind) -> &'static str {
        match kind {
            ValueKind::Null => "nil",
            ValueKind::Array => "a list",
            ValueKind::Object => "a table",
        }
    }

    fn signature(&self, expression: &str, input: Option<&str>, output: &str) -> String {
        format!("{expression}({}) -> {output}", input.unwrap_or(""))
    }

    fn primitive(&self, p: Primitive) -> &'static str {
        match p {
            Primitive::String => "string",
            Primitive::Number => "number",
            Primitive::Integer => "integer",
            Primitive::Boolean => "boolean",
            Primitive::Null => "json.null",
            Primitive::Absent => "nil",
        }
    }

    fn array(&self, item: &str, simple: bool) -> String {
        if simple {
            format!("{item}[]")
        } else {
            format!("({item})[]")
        }
    }

    fn tuple_brackets(&self) -> (&'static str, &'static str) {
        ("{ ", " }")
    }

    fn tuple_rest_is_array(&self) -> bool {
        false
    }

    fn union_separator(&self) -> &'static str {
        "|"
    }

    fn field_separator(&self) -> &'static str {
        ", "
    }

    fn field_key(&self, key: &str) -> String {
        if self.is_identifier(key) {
            key.to_string()
        } else {
            format!("[{}]", quote(key))
        }
    }

    fn map_key(&self) -> &'static str {
        "[string]"
    }

    fn null_field_arrives_absent(&self) -> bool {
        true
    }

    /// One short doc line goes beside the field (`n?: integer, -- How many`); longer or several
    /// lines go above it, one `--` comment each.
    fn documented_field(&self, pad: &str, line: &str, doc: &[String], out: &mut String) {
        let beside = !line.contains('\n')
            && doc.len() == 1
            && pad.len() + line.chars().count() + doc[0].chars().count() + 4 <= DOC_LINE_CHARS;
        if beside {
            let _ = writeln!(out, "{pad}{line} -- {}", doc[0]);
            return;
        }
        for l in doc {
            if l.is_empty() {
                let _ = writeln!(out, "{pad}--");
            } else {
                let _ = writeln!(out, "{pad}-- {l}");
            }
        }
        let _ = writeln!(out, "{pad}{line}");
    }

    fn line_comment(&self) -> &'static str {
        "--"
    }

    fn guide(&self) -> &'static str {
        GUIDE
    }

    fn paging_hint(&self) -> &'static str {
        "`offset = next.offset` until `next` is nil"
    }
}

/// The guide at the head of the catalog's instructions for a Lua program
/// ([`Notation::guide`]).
const GUIDE: &str = "Run a Lua 5.4 program that calls the tools listed below. Its `return` value is the \
         result of the run, as JSON.\n\
         \n\
         ## Writing the program\n\
         - End with an explicit `return <value>`; only the first returned value is kept (no \
         `return` gives nil).\n\
         - Call a tool as `tools.<namespace>.<tool>({ field = value })` with one table argument \
         (or none). The call returns the tool's result directly: no await, no callbacks. Calls \
         run one after another.\n\
         - Use the exact paths listed here or returned by `search`; names that are not Lua \
         identifiers are written `tools.<namespace>[\"some-name\"]`. Do not guess or rename \
         tools.\n\
         - A failed call raises an error with a message saying what went wrong. Catch it with \
         `local ok, res = pcall(tools.<namespace>.<tool>, { field = value })`: `ok` is false and \
         `res` the message on failure.\n\
         - Lua is not JavaScript: `#t` is the length (no `.length`), `t[1]` is the first item, \
         `~=` is not-equal, `..` joins strings, `nil` (no null/undefined), declare variables \
         with `local`.\n\
         - Filter, join and aggregate in the program; return only what is needed.\n\
         - `print(...)` lines are returned as logs.\n\
         - `search({ query = \"words\", namespace = \"name\" })` finds tools and returns their \
         complete signatures; it is always available and counts as a tool call.\n\
         \n\
         ## Reading signatures\n\
         `tools.a.b({ id: string, limit?: integer }) -> { items: string[] }`: the call takes a \
         table with those fields (`?` = may be left out) and returns that shape. `T[]` is an \
         array (a sequence `{ v1, v2 }`), `{ [string]: T }` a table with any string keys, \
         `\"a\"|\"b\"` one of those values, `json.null` the JSON null (in inputs and inside \
         arrays), `unknown` any value (check it before use). A result field that may be null is \
         shown optional (`next?: integer`: test `if r.next == nil`); `-> T|nil` means the \
         result may be nil. `--` comments describe fields.\n\
         \n\
         ## Data rules\n\
         - Tables cross as JSON: a table with keys 1..n is an array, any other table an object. \
         `{}` is an empty object; `json.array()` is an empty array (`json.array(1, 2)` builds \
         one).\n\
         - `{}` sent where a tool's input schema wants an array is sent as `[]`.\n\
         - `json.null` stands for JSON null. Assigning nil removes a field. In tool results, \
         an object field that is null is left out (it reads as nil); a null inside an array \
         arrives as `json.null` (truthy: test `x == json.null`); a result that is null \
         arrives as nil.\n\
         - Integers stay integers and floats stay floats; NaN and infinities become null. \
         Strings are UTF-8 text. `json.encode(v)` and `json.decode(s)` convert explicitly.\n\
         - Not available: metatables (`setmetatable`), coroutines, `io`, `os`, `require`, \
         `load`, `math.random`.\n\
         - Lua 5.4 string patterns work (`s:match`, `s:gsub`, `s:find`); use `gmatch` only as a \
         `for` iterator: `for k, v in s:gmatch(\"(%w+)=(%w+)\") do ... end`.\n\
         \n";

/// A Lua string literal: double quotes with Lua escapes (`\"`, `\\`, `\n`, `\r`, `\t`, other
/// control bytes as `\ddd`; UTF-8 kept as is).
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\{:03}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `true` when `source` holds only whitespace and Lua comments (`-- line`, `--[[ long ]]`,
/// `--[==[ long ]==]`). An unterminated long comment counts as not blank (the parser reports it).
pub(crate) fn is_blank(source: &str) -> bool {
    let b = source.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            return true;
        }
        if !b[i..].starts_with(b"--") {
            return false;
        }
        i += 2;
        // Long comment: `[` `=`* `[` ... `]` `=`* `]`.
        if i < b.len() && b[i] == b'[' {
            let mut j = i + 1;
            while j < b.len() && b[j] == b'=' {
                j += 1;
            }
            if j < b.len() && b[j] == b'[' {
                let level = j - i - 1;
                let mut close = Vec::with_capacity(level + 2);
                close.push(b']');
                close.extend(std::iter::repeat_n(b'=', level));
                close.push(b']');
                match b[j + 1..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                {
                    Some(p) => {
                        i = j + 1 + p + close.len();
                        continue;
                    }
                    None => return false,
                }
            }
        }
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_are_exactly_what_the_lexer_reserves() {
        for k in crate::lexer::KEYWORDS {
            assert!(crate::lexer::keyword(k.as_bytes()).is_some(), "{k}");
            assert!(!Lua.is_identifier(k), "{k}");
        }
        for name in ["goto_", "End", "x1", "_", "continue", "local2"] {
            assert!(crate::lexer::keyword(name.as_bytes()).is_none(), "{name}");
            assert!(Lua.is_identifier(name), "{name}");
        }
    }

    #[test]
    fn words_for_host_messages() {
        assert_eq!(Lua.tool_expression("orders.lookup"), "tools.orders.lookup");
        assert_eq!(
            Lua.tool_expression("ns.dash-name.end"),
            "tools.ns[\"dash-name\"][\"end\"]"
        );
        assert_eq!(
            Lua.call_example("search", &[("query", &Lua.quote("a\"b\n"))]),
            "search({ query = \"a\\\"b\\n\" })"
        );
        assert_eq!(Lua.object(&[]), "{}");
        assert!(Lua.is_blank("  -- x\n--[==[ y ]==]\n"));
        assert!(!Lua.is_blank("--[[ open"));
        assert!(!Lua.is_blank("return 1"));
    }

    #[test]
    fn reserved_globals_come_from_the_standard_library() {
        let g = Lua.reserved_globals();
        for name in [
            "tools",
            "search",
            "_G",
            "_ENV",
            "print",
            "json",
            "string",
            "io",
            "os",
            "require",
            "coroutine",
            "load",
            "setmetatable",
        ] {
            assert!(g.iter().any(|x| x == name), "{name} missing from {g:?}");
        }
        assert!(!g.iter().any(|x| x == "fs"));
    }
}
