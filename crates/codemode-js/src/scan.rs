//! The cheap checks before parsing: blank sources, the size cap, and a pre-scan of nesting.
//!
//! oxc's parser recurses once per nesting level and aborts the *process* (stack overflow, not a
//! panic) near 10,000 levels, so nesting is bounded before it runs. The scan counts, per
//! bracket level, the brackets (`(`, `[`, `{`, `${`) on a stack (a closer pops only its own
//! opener, so stray closers in mis-scanned text cannot hide depth) plus the tokens the parser
//! recurses on without a bracket: runs of prefix operators (`!`, `~`, `+`, `-`, `...`), `?`
//! of a conditional, `=>`, assignment `=`, `else`, and the prefix keywords (`typeof`, `void`,
//! `delete`, `await`, `new`, `yield`). The unbracketed count restarts at `;` and `,` of its level
//! (except `else`, which counts until its level closes). Strings, comments and template text
//! are skipped; a `/` after an operand is division, else a regular expression skipped to its
//! closing `/` (outside a class) or the line's end, its group and class nesting bounded by
//! `MAX_REGEX_NESTING`. The count only needs to be an upper bound
//! of the parser's recursion for every source the parser accepts.

use codemode_guest::{ErrorKind, GuestError, Location};

use crate::limits::{MAX_NESTING, MAX_SOURCE_BYTES};

/// `true` when `source` holds only whitespace, `//` comments and `/* */` comments (an
/// unterminated block comment counts as not blank: the parser reports it).
pub fn is_blank(source: &str) -> bool {
    let b = source.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && (b[i].is_ascii_whitespace()) {
            i += 1;
        }
        if i < b.len() && b[i] >= 0x80 {
            // Unicode whitespace (NBSP, BOM, line separators ...).
            let c = source[i..].chars().next().unwrap_or('x');
            if c.is_whitespace() || c == '\u{feff}' {
                i += c.len_utf8();
                continue;
            }
            return false;
        }
        if i == b.len() {
            return true;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if b[i..].starts_with(b"/*") {
            match source[i + 2..].find("*/") {
                Some(p) => {
                    i += 2 + p + 2;
                    continue;
                }
                None => return false,
            }
        }
        return false;
    }
}

/// A ParseError at the byte `offset` of `source`.
pub fn parse_error(source: &str, offset: usize, message: impl Into<String>) -> GuestError {
    GuestError {
        kind: ErrorKind::ParseError,
        message: message.into(),
        location: Some(location(source, offset)),
        suggestions: Vec::new(),
    }
}

/// Bytes between two column checkpoints of a [`LineTable`]: a location costs at most this
/// many bytes of UTF-16 counting, however long its line (a minified one-line program).
const COLUMN_STRIDE: usize = 512;

/// A program's line and column index, for locations in O(log n) plus at most
/// [`COLUMN_STRIDE`] bytes of counting: each line's start, and every `COLUMN_STRIDE` bytes
/// inside a line a checkpoint with its UTF-16 column.
#[derive(Debug, Default)]
pub struct LineTable {
    /// The byte offset of each line's start (line 1 at 0).
    starts: Vec<u32>,
    /// `(byte offset, 0-based UTF-16 column there)`, ascending, none at a line start.
    marks: Vec<(u32, u32)>,
}

impl LineTable {
    /// Index `source` (one pass).
    pub fn new(source: &str) -> LineTable {
        let mut t = LineTable {
            starts: vec![0],
            marks: Vec::new(),
        };
        let (mut col, mut since) = (0u32, 0usize);
        for (i, c) in source.char_indices() {
            if c == '\n' {
                t.starts.push(i as u32 + 1);
                (col, since) = (0, 0);
                continue;
            }
            if since >= COLUMN_STRIDE {
                t.marks.push((i as u32, col));
                since = 0;
            }
            col += c.len_utf16() as u32;
            since += c.len_utf8();
        }
        t
    }

    /// The 1-based line and column (UTF-16 units, as V8 counts) of byte `offset` of
    /// `source`, the text this table indexes.
    pub fn location(&self, source: &str, offset: usize) -> Location {
        let mut end = offset.min(source.len());
        while !source.is_char_boundary(end) {
            end -= 1;
        }
        let line = match self.starts.binary_search(&(end as u32)) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let line_start = self.starts.get(line).map_or(0, |s| *s as usize).min(end);
        let (from, base) = match self.marks.partition_point(|m| m.0 as usize <= end) {
            0 => (line_start, 0),
            i if self.marks[i - 1].0 as usize > line_start => {
                (self.marks[i - 1].0 as usize, self.marks[i - 1].1)
            }
            _ => (line_start, 0),
        };
        Location {
            line: line as u32 + 1,
            column: base + source[from..end].encode_utf16().count() as u32 + 1,
        }
    }
}

/// The 1-based line and column (in UTF-16 code units, as V8 counts) of byte `offset`, by a
/// scan of the text before it (for one-off diagnostics; a program's locations use
/// [`LineTable`]).
pub fn location(source: &str, offset: usize) -> Location {
    let offset = offset.min(source.len());
    let mut start = offset;
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let before = &source[..start];
    let line_start = before.rfind('\n').map_or(0, |p| p + 1);
    let line = before.bytes().filter(|b| *b == b'\n').count() as u32 + 1;
    let column = before[line_start..].encode_utf16().count() as u32 + 1;
    Location { line, column }
}

/// Check the size cap and nesting bound; returns the deepest nesting counted (callers run
/// the recursive passes on a larger stack above [`DEEP`]). Errors: ParseError naming the limit.
pub fn check(source: &str) -> Result<usize, GuestError> {
    if source.len() > MAX_SOURCE_BYTES {
        return Err(GuestError::new(
            ErrorKind::ParseError,
            format!(
                "program too large ({} bytes; the limit is {MAX_SOURCE_BYTES} bytes); write a shorter program",
                source.len()
            ),
        ));
    }
    let b = source.as_bytes();
    // Bracket stack: the opener byte (b'`' for a template substitution) and the unbracketed
    // recursion counts of the level it opened: (restarting count, `else` count).
    let mut stack: Vec<(u8, usize, usize)> = Vec::new();
    let (mut run, mut elses) = (0usize, 0usize);
    // Whether the previous significant token ends an operand (so `/` is division).
    let mut operand = false;
    let mut i = 0;
    let mut deepest = 0;
    // The previous significant token was `=>` or `else`, so a `{` here opens a body.
    let mut body_next = false;
    let too_deep = |i: usize| {
        parse_error(
            source,
            i,
            format!(
                "nesting too deep (limit {MAX_NESTING} levels of brackets, conditionals, arrows or prefix operators); flatten the program into smaller functions or steps"
            ),
        )
    };
    while i < b.len() {
        let c = b[i];
        let depth = stack.len() + run + elses;
        if depth > MAX_NESTING {
            return Err(too_deep(i));
        }
        deepest = deepest.max(depth);
        let after_arrow_or_else = body_next;
        if !matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'/') {
            body_next = false;
        }
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = source[i + 2..]
                    .find("*/")
                    .map_or(b.len(), |p| i + 2 + p + 2);
                continue;
            }
            b'/' if !operand => {
                // A regular expression literal.
                i += 1;
                let mut class = false;
                // Its groups nest in the pattern parser: bounded like the RegExp
                // constructor's patterns.
                let (mut groups, mut classes) = (0usize, 0usize);
                while i < b.len() && b[i] != b'\n' {
                    match b[i] {
                        b'\\' => i += 1,
                        b'[' => {
                            class = true;
                            classes += 1;
                        }
                        b']' => {
                            classes = classes.saturating_sub(1);
                            class = classes > 0;
                        }
                        b'(' if !class => groups += 1,
                        b')' if !class => groups = groups.saturating_sub(1),
                        b'/' if !class => break,
                        _ => {}
                    }
                    // Deep patterns send the whole source to the large-stack compile.
                    deepest = deepest.max(stack.len() + groups + classes);
                    if groups + classes > crate::limits::MAX_REGEX_NESTING {
                        return Err(parse_error(
                            source,
                            i,
                            format!(
                                "regular expression nesting too deep (limit {} groups or classes); flatten the pattern",
                                crate::limits::MAX_REGEX_NESTING
                            ),
                        ));
                    }
                    i += 1;
                }
                i += 1;
                operand = true;
                continue;
            }
            b'\'' | b'"' => {
                i += 1;
                while i < b.len() && b[i] != c {
                    if b[i] == b'\\' {
                        i += 1;
                    } else if b[i] == b'\n' {
                        break;
                    }
                    i += 1;
                }
                i += 1;
                operand = true;
                continue;
            }
            b'`' => {
                let opens;
                (i, opens) = template_resume(b, i + 1);
                if opens {
                    // `${`: a level that the matching `}` closes, returning to template text.
                    stack.push((b'`', run, elses));
                    (run, elses) = (0, 0);
                }
                operand = !opens;
                continue;
            }
            b'(' | b'[' | b'{' => {
                // A call or index opened after an operand nests the chain (`f()()`, `a[0][1]`).
                if c != b'{' && operand {
                    run += 1;
                }
                // A `{` after an operand (`if (a) {`, `function f() {`, `class A {`, `try {`)
                // or after `=>` or `else` opens a body: `B` on the stack, `E` after `else`.
                let opener = match c {
                    b'{' if after_arrow_or_else && elses > 0 && !operand => b'E',
                    b'{' if operand || after_arrow_or_else => b'B',
                    c => c,
                };
                stack.push((opener, run, elses));
                (run, elses) = (0, 0);
                operand = false;
            }
            b')' | b']' | b'}' => {
                let open = match c {
                    b')' => b'(',
                    b']' => b'[',
                    _ => b'{',
                };
                if let Some(&(top, r, e)) = stack.last()
                    && (top == open || (c == b'}' && matches!(top, b'`' | b'B' | b'E')))
                {
                    stack.pop();
                    (run, elses) = (r, e);
                    // The end of a body ends its statement (the header's counts go); the end
                    // of an `else` body ends its `if … else if …` chain too. A chain of
                    // `else if` bodies still counts: the parser recurses on it.
                    match top {
                        b'B' => run = 0,
                        b'E' => (run, elses) = (0, 0),
                        _ => {}
                    }
                    if top == b'`' {
                        // Back in template text.
                        let opens;
                        (i, opens) = template_resume(b, i + 1);
                        if opens {
                            stack.push((b'`', run, elses));
                            (run, elses) = (0, 0);
                        }
                        operand = !opens;
                        continue;
                    }
                }
                operand = c != b'}';
            }
            b'=' if b.get(i + 1) == Some(&b'>') => {
                run += 1;
                i += 2;
                operand = false;
                body_next = true;
                continue;
            }
            b';' | b',' => {
                run = 0;
                operand = false;
            }
            b'?' if matches!(b.get(i + 1), Some(b'.' | b'?')) => {
                // `?.` and `??`.
                i += 2;
                operand = false;
                continue;
            }
            b'+' | b'-' if operand && b.get(i + 1) != Some(&c) => {
                // Binary `+` and `-`: the parser reads a chain of them in a loop (Pratt
                // parsing), the compiler too, so they do not nest.
                operand = false;
            }
            b'?' | b'=' | b'!' | b'~' | b'+' | b'-' => {
                // Assignment `=` (not `==`), conditional `?`, prefix operators.
                let next = b.get(i + 1).copied();
                if c == b'=' && next == Some(b'=') {
                    i += 2;
                    while b.get(i) == Some(&b'=') {
                        i += 1;
                    }
                    operand = false;
                    continue;
                }
                if (c == b'+' || c == b'-') && next == Some(c) {
                    // `++`/`--`: an operand's suffix or a prefix; counted once.
                    run += 1;
                    i += 2;
                    continue;
                }
                run += 1;
                operand = false;
            }
            b'.' if b[i..].starts_with(b"...") => {
                run += 1;
                i += 3;
                operand = false;
                continue;
            }
            b'.' => {
                // A member access nests the chain (`a.b.c`).
                run += 1;
                operand = false;
            }
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80 => {
                let start = i;
                while i < b.len()
                    && (b[i].is_ascii_alphanumeric()
                        || b[i] == b'_'
                        || b[i] == b'$'
                        || b[i] >= 0x80)
                {
                    i += 1;
                }
                let word = &b[start..i];
                match word {
                    b"else" => {
                        elses += 1;
                        operand = false;
                        body_next = true;
                    }
                    b"typeof" | b"void" | b"delete" | b"await" | b"new" | b"yield" | b"return"
                    | b"throw" | b"case" | b"in" | b"of" | b"instanceof" | b"do" => {
                        if !matches!(
                            word,
                            b"return" | b"throw" | b"case" | b"in" | b"of" | b"instanceof" | b"do"
                        ) {
                            run += 1;
                        }
                        operand = false;
                    }
                    _ => operand = true,
                }
                continue;
            }
            _ => operand = false,
        }
        i += 1;
    }
    if stack.len() + run + elses > MAX_NESTING {
        return Err(too_deep(b.len()));
    }
    Ok(deepest)
}

/// Nesting above which parsing and compiling run on a thread with a large stack
/// ([`DEEP_STACK_BYTES`]): the parser and the compiler recurse once or more per level.
pub const DEEP: usize = 32;

/// Sources longer than this also parse and compile on that thread, whatever nesting the
/// pre-scan counted: chains it does not count (`a ** a ** ..`, `||`, `??`, labels, `class
/// extends`, tagged templates) nest the parser a few bytes of source a level, and a short
/// source cannot nest deep enough to exhaust an ordinary thread's stack.
pub const LARGE_SOURCE_BYTES: usize = 1024;

/// The stack of that thread (reserved, not committed, by the system).
pub const DEEP_STACK_BYTES: usize = 256 << 20;

/// From just inside template text (after a backtick or a substitution's `}`): where the scan
/// goes on, and whether a `${` opened a substitution there (else the template closed or the
/// source ended).
fn template_resume(b: &[u8], from: usize) -> (usize, bool) {
    let i = skip_template_text(b, from);
    if b.get(i) == Some(&b'$') {
        (i + 2, true)
    } else {
        (i + 1, false)
    }
}

/// From just after a backtick or a substitution's `}`: the index of the closing backtick, of
/// the `$` of the next `${`, or the end.
fn skip_template_text(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'`' => return i,
            b'$' if b.get(i + 1) == Some(&b'{') => return i,
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_sources() {
        assert!(is_blank(""));
        assert!(is_blank("  // x\n /* y */ \n"));
        assert!(is_blank("\u{feff}\u{a0}"));
        assert!(!is_blank("/* open"));
        assert!(!is_blank("return 1"));
        assert!(!is_blank("// a\n1"));
    }

    #[test]
    fn locations_count_utf16_units() {
        let src = "a\n\u{1F600}é x";
        // The emoji is two UTF-16 units, é one: `x` is at column 5 of line 2.
        let off = src.find('x').unwrap();
        assert_eq!(location(src, off), Location { line: 2, column: 5 });
        assert_eq!(location(src, 0), Location { line: 1, column: 1 });
    }

    #[test]
    fn line_table_agrees_with_the_scan_on_long_lines() {
        // Lines far longer than the checkpoint stride, with 2- and 4-byte characters (one and
        // two UTF-16 units) on both sides of checkpoints, a short line and an empty one.
        let long = "x=\"é\u{1F600}ab\"+".repeat(400);
        let src = format!("{long}\n\nshort\n{long}{long}\n\u{1F600}");
        let table = LineTable::new(&src);
        for off in (0..=src.len() + 3)
            .step_by(7)
            .chain([src.len() - 1, src.len()])
        {
            assert_eq!(
                table.location(&src, off),
                location(&src, off),
                "offset {off}"
            );
        }
    }

    #[test]
    fn ordinary_nesting_passes() {
        check("const a = [[1, [2, {b: `x${(1 + 2) * 3}y`}]]]; return a?.[0] ?? 'x(('").unwrap();
        check("if (a) { b } else if (c) { d } else { e }").unwrap();
        check("x = a / b / c; y = /[(]/.test(s)").unwrap();
        let many = "x = f(a) ? 1 : 2;\n".repeat(5000);
        check(&many).unwrap();
    }

    #[test]
    fn deep_nesting_is_rejected_naming_the_limit() {
        for src in [
            "(".repeat(10_000),
            format!("x = {}1", "!".repeat(10_000)),
            format!("x = {}1", "- ".repeat(10_000)),
            format!("x = {}1", "a ? b : ".repeat(10_000)),
            format!("x = {}1", "a => ".repeat(10_000)),
            format!("{}1", "if (a) x; else ".repeat(10_000)),
            format!("x = {}1", "typeof ".repeat(10_000)),
            format!("x = `{}`", "${`".repeat(10_000)),
            format!("x = a{}", ".b".repeat(10_000)),
            format!("x = f{}", "()".repeat(10_000)),
            format!("x = a{}", "[0]".repeat(10_000)),
            format!("x = {}1", "a = ".repeat(10_000)),
        ] {
            let e = check(&src).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ParseError);
            assert!(e.message.contains("limit 256"), "{}", e.message);
        }
    }

    #[test]
    fn strings_cannot_hide_or_fake_nesting() {
        // Closers inside strings do not pop real openers.
        let src = format!("{}')))'", "(".repeat(300));
        assert!(check(&src).is_err());
        check(&format!("x = '{}'", "(".repeat(1000))).unwrap();
    }

    #[test]
    fn size_cap() {
        let src = " ".repeat(MAX_SOURCE_BYTES + 1);
        let e = check(&src).unwrap_err();
        assert!(e.message.contains("4194304"), "{}", e.message);
    }
}

#[cfg(test)]
mod location_tests {
    use super::{LineTable, location};

    #[test]
    fn the_line_table_gives_the_same_locations() {
        let src = "a\nbé𝒳c\n\nlast";
        let table = LineTable::new(src);
        for off in 0..=src.len() + 2 {
            assert_eq!(table.location(src, off), location(src, off), "offset {off}");
        }
    }
}
