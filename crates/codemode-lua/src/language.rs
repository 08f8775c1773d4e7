//! [`Lua`]: the Lua 5.4 guest as the host sees it ([`codemode_guest::Language`]): starting a
//! run, and the words the host uses in messages (quoting, tool expressions, table literals,
//! names, reserved words and globals).

use std::fmt::Write as _;

use codemode_guest::{Env, Guest, GuestError, Language, StartOptions};

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
        Ok(Box::new(LuaGuest::new(machine)))
    }

    fn is_blank(&self, source: &str) -> bool {
        is_blank(source)
    }

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

    fn keywords(&self) -> &'static [&'static str] {
        crate::lexer::KEYWORDS
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
                out.push_str(&quote(seg));
                out.push(']');
            }
        }
        out
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
            if self.is_identifier(k) {
                out.push_str(k);
            } else {
                out.push('[');
                out.push_str(&quote(k));
                out.push(']');
            }
            out.push_str(" = ");
            out.push_str(v);
        }
        out.push_str(" }");
        out
    }
}

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
