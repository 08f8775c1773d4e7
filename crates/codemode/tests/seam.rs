//! The host knows no guest syntax: `crates/codemode/src` holds no Lua keyword list, no Lua
//! lexing and no Lua text in its code and strings (messages, hints, guide text come from the
//! guest's `codemode_guest::Language`), and only `guests.rs` names the Lua guest crate.
//!
//! The check reads every source file as Rust tokens, unit tests included: identifiers and string
//! literals outside comments. Doc comments are not read: their examples show the default guest
//! at work and are doc-tested. Tests that run Lua programs live in `tests/`.

use std::path::{Path, PathBuf};

/// One token of a Rust source that the checks look at.
#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// An identifier or keyword.
    Ident(String),
    /// The contents of a string literal, escapes left as written.
    Str(String),
    /// One punctuation character.
    Punct(char),
}

/// The tokens of `src` with their 1-based line numbers; comments dropped. Char literals and
/// lifetimes are dropped too; numbers become identifiers.
fn lex(src: &str) -> Vec<(usize, Tok)> {
    let b: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let count_lines = |s: &[char]| s.iter().filter(|c| **c == '\n').count();
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let (start, mut depth) = (i, 0usize);
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            line += count_lines(&b[start..i]);
        } else if c == '"'
            || (c == 'b' && next == Some('"'))
            || ((c == 'r' || (c == 'b' && next == Some('r')))
                && raw_string_start(&b, if c == 'b' { i + 1 } else { i }).is_some())
        {
            let start_line = line;
            let (body, end) = if c == '"' || (c == 'b' && next == Some('"')) {
                let mut j = if c == '"' { i + 1 } else { i + 2 };
                let from = j;
                while j < b.len() && b[j] != '"' {
                    j += if b[j] == '\\' { 2 } else { 1 };
                }
                (b[from..j.min(b.len())].iter().collect::<String>(), j + 1)
            } else {
                let r = if c == 'b' { i + 1 } else { i };
                let hashes = raw_string_start(&b, r).expect("raw string");
                let from = r + 1 + hashes + 1;
                let close: Vec<char> = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let mut j = from;
                while j < b.len() && !b[j..].starts_with(&close) {
                    j += 1;
                }
                (
                    b[from..j.min(b.len())].iter().collect::<String>(),
                    j + close.len(),
                )
            };
            line += count_lines(&b[i..end.min(b.len())]);
            out.push((start_line, Tok::Str(body)));
            i = end;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{1}') or a lifetime ('a).
            if next == Some('\\') {
                i += 2;
                while i < b.len() && b[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if b.get(i + 2) == Some(&'\'') {
                i += 3;
            } else {
                i += 1;
                while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                    i += 1;
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let from = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push((line, Tok::Ident(b[from..i].iter().collect())));
        } else {
            out.push((line, Tok::Punct(c)));
            i += 1;
        }
    }
    out
}

/// At `r` (an `r`): the number of `#` of a raw string start `r#*"`, if it is one.
fn raw_string_start(b: &[char], r: usize) -> Option<usize> {
    if b.get(r) != Some(&'r') || (r > 0 && (b[r - 1].is_alphanumeric() || b[r - 1] == '_')) {
        return None;
    }
    let mut j = r + 1;
    while b.get(j) == Some(&'#') {
        j += 1;
    }
    (b.get(j) == Some(&'"')).then_some(j - r - 1)
}

/// Lua's reserved words.
const LUA_KEYWORDS: [&str; 22] = [
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
    "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];

/// Lua reserved words that are neither JavaScript's nor common filler words: two of them among
/// three keywords in one list make a Lua keyword list.
const LUA_ONLY_KEYWORDS: [&str; 8] = [
    "elseif", "end", "goto", "local", "nil", "repeat", "then", "until",
];

/// Text in a string literal that only Lua would say.
const LUA_TEXT: [&str; 13] = [
    "local ",
    "pcall",
    "tostring",
    "json.array",
    "json.null",
    "math.floor",
    "math.tointeger",
    "--[",
    "-- ",
    "~=",
    "ipairs",
    "setmetatable",
    "string.format",
];

/// Words (whole, case-insensitive) that only Lua text would use.
const LUA_WORDS: [&str; 4] = ["lua", "nil", "table", "tables"];

/// Where identifiers naming Lua may stand, and why.
const ALLOWED_LUA_IDENTIFIERS: [(&str, &str, &str); 4] = [
    // The one place mapping the host's Language to a guest crate.
    (
        "guests.rs",
        "codemode_lua",
        "the guest crate, behind the `lua` feature",
    ),
    ("guests.rs", "Lua", "Language::Lua and codemode_lua::Lua"),
    // The public language choice itself.
    ("runtime/builder.rs", "Lua", "the Language::Lua variant"),
    // Public API whose values are language-neutral numbers.
    (
        "limits.rs",
        "lua_defaults",
        "Limits::lua_defaults, the default limits",
    ),
];

/// Strings that may hold a Lua word, and why.
const ALLOWED_LUA_STRINGS: [(&str, &str, &str); 1] = [(
    "guests.rs",
    "lua",
    "the cargo feature name in #[cfg(feature = \"lua\")]",
)];

/// Everything in `src` (the text of `file`) that shows Lua knowledge: `file:line: what`.
fn findings(file: &str, src: &str) -> Vec<String> {
    let toks = lex(src);
    let mut found = Vec::new();
    let mut run: Vec<(usize, String)> = Vec::new();
    let check_run = |run: &mut Vec<(usize, String)>, found: &mut Vec<String>| {
        let lua_only = run
            .iter()
            .filter(|(_, s)| LUA_ONLY_KEYWORDS.contains(&s.as_str()))
            .count();
        let keywords = run
            .iter()
            .filter(|(_, s)| LUA_KEYWORDS.contains(&s.as_str()))
            .count();
        if keywords >= 3 && lua_only >= 2 {
            found.push(format!(
                "{file}:{}: a Lua keyword list ({} of its strings are Lua keywords)",
                run[0].0, keywords
            ));
        }
        run.clear();
    };
    for (k, (line, tok)) in toks.iter().enumerate() {
        match tok {
            Tok::Str(s) => {
                let allowed = ALLOWED_LUA_STRINGS
                    .iter()
                    .any(|(f, text, _)| file.ends_with(f) && s == text);
                if !allowed {
                    if s == "--" {
                        found.push(format!("{file}:{line}: the Lua comment marker \"--\""));
                    }
                    for t in LUA_TEXT {
                        if s.contains(t) {
                            found.push(format!("{file}:{line}: Lua text {t:?} in {s:?}"));
                        }
                    }
                    for w in s
                        .split(|c: char| !c.is_alphanumeric() && c != '_')
                        .filter(|w| LUA_WORDS.contains(&w.to_lowercase().as_str()))
                    {
                        found.push(format!("{file}:{line}: the word {w:?} in {s:?}"));
                    }
                    if let Some(t) = table_constructor(s) {
                        found.push(format!(
                            "{file}:{line}: a Lua table constructor {t:?} in {s:?}"
                        ));
                    }
                }
                run.push((*line, s.clone()));
            }
            Tok::Punct(',') if matches!(toks.get(k.wrapping_sub(1)), Some((_, Tok::Str(_)))) => {}
            _ => check_run(&mut run, &mut found),
        }
        if let Tok::Ident(id) = tok
            && id.to_lowercase().contains("lua")
            && !ALLOWED_LUA_IDENTIFIERS
                .iter()
                .any(|(f, name, _)| file.ends_with(f) && id == name)
        {
            found.push(format!("{file}:{line}: the identifier {id}"));
        }
    }
    check_run(&mut run, &mut found);
    found
}

/// `{ name = ` or `{name=` in `s`: a Lua table constructor with a named field.
fn table_constructor(s: &str) -> Option<String> {
    let b = s.as_bytes();
    for (i, _) in s.match_indices('{') {
        let mut j = i + 1;
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        let from = j;
        while b
            .get(j)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
        {
            j += 1;
        }
        if j == from {
            continue;
        }
        while b.get(j) == Some(&b' ') {
            j += 1;
        }
        if b.get(j) == Some(&b'=') && b.get(j + 1) != Some(&b'=') {
            return Some(s[i..=j].to_string());
        }
    }
    None
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn the_host_source_knows_no_lua() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let mut found = Vec::new();
    // Every allow-list entry must still be needed, so the lists cannot grow stale.
    let mut unused: Vec<(&str, &str)> = ALLOWED_LUA_IDENTIFIERS
        .iter()
        .chain(&ALLOWED_LUA_STRINGS)
        .map(|(f, t, _)| (*f, *t))
        .collect();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("source");
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let toks = lex(&text);
        unused.retain(|(f, t)| {
            !(rel.ends_with(f)
                && toks
                    .iter()
                    .any(|(_, tok)| matches!(tok, Tok::Ident(x) | Tok::Str(x) if x == t)))
        });
        found.extend(findings(&rel, &text));
    }
    assert!(
        found.is_empty(),
        "Lua in the host crate:\n{}",
        found.join("\n")
    );
    assert!(
        unused.is_empty(),
        "allow-list entries no longer needed: {unused:?}"
    );
}

/// No source file of the host crate is over 1,200 lines (issue 11: split by concern).
#[test]
fn host_source_files_stay_small() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let long: Vec<String> = files
        .iter()
        .map(|p| {
            (
                p,
                std::fs::read_to_string(p).expect("source").lines().count(),
            )
        })
        .filter(|(_, n)| *n > 1_200)
        .map(|(p, n)| format!("{}: {n} lines", p.display()))
        .collect();
    assert!(long.is_empty(), "{long:?}");
}

/// The checks find what they look for (in test code too), and skip comments.
#[test]
fn the_checks_find_lua() {
    let sample = r##"
//! search({ query = "x" }) in a comment is fine; so is `pcall`.
const KEYWORDS: [&str; 4] = ["and", "end", "elseif", "while"];
const JS: [&str; 4] = ["await", "do", "function", "in"];
/// Lua: a doc comment.
fn message() -> String {
    let q = 'x'; let _l: &'static str = "";
    format!("search expects one table such as search({{ query = 1 }}); got nil") /* nil */
}
fn hint() -> &'static str { r#"use json.array() for an empty array"# }
fn neutral() -> &'static str { "Call search with one object: search({ query: \"words\" })." }
fn is_blank_lua(s: &str) -> bool { s.starts_with("--") }
#[cfg(test)]
mod tests {
    fn t() { run("local ok = pcall(tools.a.b, { field = value })"); }
}
fn after() -> &'static str { "it ends here" }
"##;
    let found = findings("sample.rs", sample);
    assert_eq!(
        found,
        vec![
            "sample.rs:3: a Lua keyword list (4 of its strings are Lua keywords)",
            "sample.rs:8: the word \"table\" in \"search expects one table such as search({{ query = 1 }}); got nil\"",
            "sample.rs:8: the word \"nil\" in \"search expects one table such as search({{ query = 1 }}); got nil\"",
            "sample.rs:8: a Lua table constructor \"{ query =\" in \"search expects one table such as search({{ query = 1 }}); got nil\"",
            "sample.rs:10: Lua text \"json.array\" in \"use json.array() for an empty array\"",
            "sample.rs:12: the identifier is_blank_lua",
            "sample.rs:12: the Lua comment marker \"--\"",
            "sample.rs:15: Lua text \"local \" in \"local ok = pcall(tools.a.b, { field = value })\"",
            "sample.rs:15: Lua text \"pcall\" in \"local ok = pcall(tools.a.b, { field = value })\"",
            "sample.rs:15: a Lua table constructor \"{ field =\" in \"local ok = pcall(tools.a.b, { field = value })\"",
        ]
    );
}
