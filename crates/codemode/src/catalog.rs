//! The tool catalog and the model-facing instructions of the execute tool (issue 4 "Catalog";
//! behaviour reference: seed-inventory §3).
//!
//! - [`catalog`] / [`CodeMode::catalog`]: every tool as `{ path, description, signature }`,
//!   sorted by canonical path (byte order), independent of insertion order.
//! - [`instructions`] / [`CodeMode::instructions`]: the text a host puts in the description of
//!   its "execute" tool: how to write a program in the runtime's language, how tools are called,
//!   the data rules, the limits in force, then a catalog that fits a token budget.
//!
//! ## The token-budgeted catalog
//! Tokens are counted with the o200k_base BPE (the GPT-4o tokenizer, `tiktoken-rs`; ranks are
//! compiled into the binary, no network). The budget covers the `## Tools` section: the
//! namespace lines (always all shown, so every namespace stays visible), the tool entries
//! (a comment with the description's first line + the pretty [`signature`]), and the closing
//! note on `search`. The guide before it is a fixed header (see [`guide`]) not counted against the
//! budget. If the namespace lines alone exceed the budget they are still all shown, and no entry is.
//!
//! Entries are chosen round-robin over the top-level namespaces in name order: in each round
//! every namespace still taking part adds its cheapest remaining entry (fewest tokens, ties by
//! path) if it fits in what is left of the budget; a namespace whose next entry does not fit, or
//! that has nothing left, stops taking part. So one large namespace cannot starve the others, and
//! cheap entries are preferred. Shown entries are printed in path order under their namespace
//! line, which says `n tools, all shown` or `n tools, k shown`, followed by the names of the
//! tools left out (`(not shown: a, b and 12 more)`, at most [`MAX_HIDDEN_NAMES`]). Names
//! outrank signatures: up to half the budget left after the fixed parts (and at least what
//! [`FIRST_HIDDEN_NAMES`] names a namespace take) is kept for these lines; when the section
//! would not fit, names past that share go first, then shown signatures (most expensive
//! first), and only then fewer names. When anything is missing, the section says how to find
//! the rest with `search`. The heading says `complete` only when every tool is shown and no description
//! was cut.
//!
//! [`signature`]: crate::signature::signature

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Value, json};

use codemode_guest::Notation;

use crate::guests::notation;
use crate::limits::Limits;
use crate::namespace::ToolTree;
use crate::runtime::{CodeMode, Language};
use crate::signature::{Style, signature_in, tool_signature_in};

/// Default token budget of the catalog part of [`instructions`].
pub const DEFAULT_INSTRUCTIONS_BUDGET: usize = 2_000;

/// Longest description line shown next to a tool in the instructions, in characters (longer
/// ones are cut and end with `...`).
pub const MAX_DESCRIPTION_CHARS: usize = 120;

/// Longest namespace description shown in the instructions, in characters.
pub const MAX_NAMESPACE_DESCRIPTION_CHARS: usize = 200;

/// Most names of tools without a shown signature listed under their namespace line in the
/// instructions (`(not shown: a, b and 12 more)`); the rest are counted.
pub const MAX_HIDDEN_NAMES: usize = 40;

/// Names of left-out tools a namespace keeps before any signature is shown: the catalog leaves
/// out signatures (most expensive first) before it lists fewer names than this.
pub const FIRST_HIDDEN_NAMES: usize = 5;

/// Name shown for tools whose path has a single segment (no namespace).
pub const TOP_LEVEL_NAMESPACE: &str = "(top level)";

/// One tool of the catalog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CatalogEntry {
    /// Canonical dotted path (`"orders.lookup"`).
    pub path: String,
    /// The tool's description as given.
    pub description: String,
    /// The pretty signature in the runtime's language (see [`crate::signature`]).
    pub signature: String,
}

/// Every tool of `tree` with its description and pretty signature in `language`, sorted by
/// canonical path (plain byte order), whatever order the tools were added in.
pub fn catalog(tree: &ToolTree, language: Language) -> Vec<CatalogEntry> {
    let n = notation(language);
    // `ToolTree::tools` iterates a BTreeMap, i.e. in byte order of the paths already; sort anyway
    // so this guarantee does not depend on the tree's storage.
    let mut entries: Vec<CatalogEntry> = tree
        .tools()
        .map(|e| CatalogEntry {
            path: e.path.clone(),
            description: e.tool.description().to_string(),
            signature: tool_signature_in(e, n, Style::Pretty),
        })
        .collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    entries
}

/// Number of o200k_base tokens in `text` (the tokenizer is built once per process, on first use).
pub fn count_tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base_singleton().count_ordinary(text)
}

/// The model-facing instructions for running programs with the tools of `tree` in `language`
/// under `limits`, with a catalog of at most about `budget_tokens` tokens (see the module docs).
///
/// ```
/// use codemode::{CodeMode, Tool};
/// use serde_json::json;
/// let t = Tool::new("Look up an order by id.",
///     json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
///     |v| async move { Ok(v) });
/// let cm = CodeMode::builder().tool("orders.lookup", t).build()?;
/// let text = cm.instructions(500);
/// assert!(text.contains("tools.orders.lookup({ id: string }) -> unknown"));
/// assert!(text.contains("at most 128 tool calls"));
/// # Ok::<(), codemode::BuildError>(())
/// ```
pub fn instructions(
    tree: &ToolTree,
    limits: &Limits,
    language: Language,
    budget_tokens: usize,
) -> String {
    let mut out = guide(language, limits);
    out.push_str(&budgeted_catalog(tree, notation(language), budget_tokens));
    out
}

/// The fixed header of [`instructions`]: how to write a program, call tools, read signatures
/// and the data rules (the language's guide, [`codemode_guest::Notation::guide`]), then the
/// limits in force. Ends with a blank line.
pub fn guide(language: Language, limits: &Limits) -> String {
    let mut out = notation(language).guide().to_string();
    limits_section(&mut out, limits);
    out
}

fn limits_section(out: &mut String, limits: &Limits) {
    out.push_str("## Limits of every run\n");
    let _ = writeln!(
        out,
        "- time: {} ms in total, waiting for tools included; then the run stops with \
         TimeoutExceeded.",
        group(limits.timeout_ms())
    );
    let _ = writeln!(
        out,
        "- tool calls: at most {} tool calls (`search` included); the next call stops the run \
         with ToolCallLimitExceeded.",
        group(limits.max_tool_calls())
    );
    let _ = writeln!(
        out,
        "- output: {} bytes of JSON for the result, logs and warnings together; more is cut \
         (truncated: true).",
        group(limits.max_output_bytes())
    );
    if let Some(m) = limits.max_memory_bytes() {
        let _ = writeln!(out, "- memory: {} bytes for the program's data.", group(m));
    }
    out.push('\n');
}

/// `120000` → `120,000`.
fn group(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// One tool entry in the budgeted catalog.
struct Candidate {
    path: String,
    text: String,
    cost: usize,
    /// Its description was cut to its first line or to [`MAX_DESCRIPTION_CHARS`].
    cut: bool,
}

/// The `## Tools` section: namespace lines, round-robin chosen entries, search note.
fn budgeted_catalog(tree: &ToolTree, n: &dyn Notation, budget: usize) -> String {
    let total = tree.len();
    if total == 0 {
        return "## Tools\nNo tools are available.\n".to_string();
    }
    // Group by top-level namespace (BTreeMap: namespaces in name order).
    let mut groups: BTreeMap<String, Vec<Candidate>> = BTreeMap::new();
    for e in tree.tools() {
        let ns = match e.path.split_once('.') {
            Some((ns, _)) => ns.to_string(),
            None => String::new(),
        };
        let text = entry_text(
            e.tool.description(),
            &tool_signature_in(e, n, Style::Pretty),
            n,
        );
        let cost = count_tokens(&text);
        let d = e.tool.description().trim();
        let cut = first_line(d, MAX_DESCRIPTION_CHARS) != d;
        groups.entry(ns).or_default().push(Candidate {
            path: e.path.clone(),
            text,
            cost,
            cut,
        });
    }
    for cands in groups.values_mut() {
        cands.sort_by(|a, b| a.cost.cmp(&b.cost).then_with(|| a.path.cmp(&b.path)));
    }

    // Fixed parts, counted first: heading, namespace lines (with the widest wording they can
    // get), the search note.
    let names: Vec<String> = groups.keys().cloned().collect();
    let ns_line_cost: usize = names
        .iter()
        .map(|ns| count_tokens(&namespace_line(tree, ns, groups[ns].len(), 0, n)) + 2)
        .sum();
    let fixed = count_tokens(&heading(total, 0, true))
        + 2
        + ns_line_cost
        + count_tokens(&search_note(n))
        + 2;
    // Room for the names of the tools left out (at their widest): up to half of what is left,
    // and at least what [`FIRST_HIDDEN_NAMES`] names a namespace take.
    let names_cost = |cap: usize| -> usize {
        names
            .iter()
            .map(|ns| {
                let all: Vec<&Candidate> = groups[ns].iter().collect();
                count_tokens(&hidden_line(ns, &all, cap)) + 1
            })
            .sum()
    };
    let after_fixed = budget.saturating_sub(fixed);
    let names_share = (after_fixed / 2).max(names_cost(FIRST_HIDDEN_NAMES));
    let mut left = after_fixed
        - names_cost(MAX_HIDDEN_NAMES)
            .min(names_share)
            .min(after_fixed);

    // Round robin.
    let mut shown: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut next: Vec<usize> = vec![0; names.len()];
    let mut active: Vec<bool> = vec![true; names.len()];
    while active.iter().any(|a| *a) {
        for (i, ns) in names.iter().enumerate() {
            if !active[i] {
                continue;
            }
            let cands = &groups[ns];
            match cands.get(next[i]) {
                Some(c) if c.cost <= left => {
                    left -= c.cost;
                    shown.entry(ns.as_str()).or_default().push(next[i]);
                    next[i] += 1;
                }
                _ => active[i] = false,
            }
        }
    }
    let mut chosen: BTreeMap<&str, Vec<&Candidate>> = names
        .iter()
        .map(|ns| {
            let mut v: Vec<&Candidate> = shown
                .get(ns.as_str())
                .map(|idx| idx.iter().map(|&k| &groups[ns][k]).collect())
                .unwrap_or_default();
            v.sort_by(|a, b| a.path.cmp(&b.path));
            (ns.as_str(), v)
        })
        .collect();

    // Render; while the exact count of the whole section is over the budget (tokens can merge
    // differently across entry boundaries, and the names' share can be all the room there
    // is): list fewer names while they take more than their share (down to
    // FIRST_HIDDEN_NAMES), else drop the most expensive shown entry, and list fewer names
    // once no entry is left. So no signature is shown while its namespace's first
    // FIRST_HIDDEN_NAMES left-out tools go unnamed for want of room.
    let mut cap = MAX_HIDDEN_NAMES;
    loop {
        let text = render_section(tree, &groups, &chosen, total, n, cap);
        if count_tokens(&text) <= budget.max(fixed) {
            return text;
        }
        if cap > FIRST_HIDDEN_NAMES && hidden_lines_cost(&groups, &chosen, cap) > names_share {
            cap = (cap / 2).max(FIRST_HIDDEN_NAMES);
            continue;
        }
        let worst = chosen
            .iter()
            .flat_map(|(ns, v)| v.iter().enumerate().map(move |(i, c)| (c.cost, *ns, i)))
            .max();
        match worst {
            Some((_, ns, i)) => {
                if let Some(v) = chosen.get_mut(ns) {
                    v.remove(i);
                }
            }
            None if cap > 0 => cap /= 2,
            None => return text,
        }
    }
}

/// The tools of `cands` without a shown entry in `shown`.
fn left_out<'a>(cands: &'a [Candidate], shown: &[&Candidate]) -> Vec<&'a Candidate> {
    cands
        .iter()
        .filter(|c| !shown.iter().any(|s| s.path == c.path))
        .collect()
}

/// Tokens of the lines naming the tools left out (see [`hidden_line`]), at most `cap` names a
/// namespace.
fn hidden_lines_cost(
    groups: &BTreeMap<String, Vec<Candidate>>,
    chosen: &BTreeMap<&str, Vec<&Candidate>>,
    cap: usize,
) -> usize {
    groups
        .iter()
        .map(|(ns, cands)| {
            let shown = chosen.get(ns.as_str()).map(Vec::as_slice).unwrap_or(&[]);
            count_tokens(&hidden_line(ns, &left_out(cands, shown), cap))
        })
        .sum()
}

fn render_section(
    tree: &ToolTree,
    groups: &BTreeMap<String, Vec<Candidate>>,
    chosen: &BTreeMap<&str, Vec<&Candidate>>,
    total: usize,
    n: &dyn Notation,
    names_cap: usize,
) -> String {
    let shown_total: usize = chosen.values().map(Vec::len).sum();
    let cut = chosen.values().flatten().any(|c| c.cut);
    let mut out = heading(total, shown_total, cut);
    out.push('\n');
    for (ns, cands) in groups {
        let shown = chosen.get(ns.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        out.push_str(&namespace_line(tree, ns, cands.len(), shown.len(), n));
        out.push('\n');
        out.push_str(&hidden_line(ns, &left_out(cands, shown), names_cap));
        for c in shown {
            out.push_str(&c.text);
        }
    }
    if shown_total < total {
        out.push_str(&search_note(n));
        out.push('\n');
    }
    out
}

/// The names (below namespace `ns`) of the tools in `hidden`, the first `cap` of them, on one
/// indented line: `  (not shown: a, b and 12 more)`; "" when none is hidden or `cap` is 0.
fn hidden_line(ns: &str, hidden: &[&Candidate], cap: usize) -> String {
    if hidden.is_empty() || cap == 0 {
        return String::new();
    }
    let mut names: Vec<&str> = hidden
        .iter()
        .map(|c| {
            c.path
                .strip_prefix(ns)
                .and_then(|r| r.strip_prefix('.'))
                .unwrap_or(&c.path)
        })
        .collect();
    names.sort_unstable();
    let more = names.len().saturating_sub(cap);
    names.truncate(cap);
    let mut line = format!("  (not shown: {}", names.join(", "));
    if more > 0 {
        let _ = write!(line, " and {more} more");
    }
    line.push_str(")\n");
    line
}

fn heading(total: usize, shown: usize, cut: bool) -> String {
    if shown == total && cut {
        format!(
            "## Tools (all {total} tool{} with full signatures; long descriptions are cut to their first line, `search` returns them whole)",
            plural(total)
        )
    } else if shown == total {
        format!(
            "## Tools (complete: all {total} tool{} with full signatures)",
            plural(total)
        )
    } else {
        format!(
            "## Tools (partial: {shown} of {total} shown with full signatures; find the others with `search`)"
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn namespace_line(
    tree: &ToolTree,
    ns: &str,
    count: usize,
    shown: usize,
    n: &dyn Notation,
) -> String {
    let name = if ns.is_empty() {
        TOP_LEVEL_NAMESPACE
    } else {
        ns
    };
    let mut line = format!("- {name} ({count} tool{}", plural(count));
    if shown == count {
        line.push_str(if count == 1 { ")" } else { ", all shown)" });
    } else {
        let _ = write!(line, ", {shown} shown");
        if !ns.is_empty() {
            let call = n.call_example("search", &[("namespace", &n.quote(ns))]);
            let _ = write!(line, "; {call} lists all");
        }
        line.push(')');
    }
    if !ns.is_empty()
        && let Some(d) = tree.namespace_description(ns)
    {
        let d = first_line(d, MAX_NAMESPACE_DESCRIPTION_CHARS);
        if !d.is_empty() {
            line.push_str(": ");
            line.push_str(&d);
        }
    }
    line
}

fn search_note(n: &dyn Notation) -> String {
    let input = crate::search::search_input_schema();
    let output = search_output_schema();
    let sig = signature_in(n, "search", &input, Some(&output), Style::Compact);
    // `signature` writes `tools.search`; the built-in is the global `search`.
    let sig = sig.strip_prefix("tools.").unwrap_or(&sig).to_string();
    let example = n.awaited(n.call_example("search", &[("query", &n.quote("create issue"))]));
    let paging = n.paging_hint();
    format!(
        "Not every tool is shown. Find the others with `{example}` (words from the tool's name \
         or purpose), browse a namespace with an empty query and `namespace`, and page with \
         {paging}. Each item's `signature` is complete and callable; copy its path.\n\
         {sig}"
    )
}

fn search_output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {"type": "object", "properties": {
                "path": {"type": "string"}, "description": {"type": "string"}, "signature": {"type": "string"}
            }, "required": ["path", "description", "signature"]}},
            "remaining": {"type": "integer"},
            "next": {"anyOf": [
                {"type": "object", "properties": {"offset": {"type": "integer"}}, "required": ["offset"]},
                {"type": "null"}
            ]}
        },
        "required": ["items", "remaining", "next"]
    })
}

/// A tool entry: the description's first line as a comment (when there is one), then the
/// pretty signature indented under its namespace line.
fn entry_text(description: &str, signature: &str, n: &dyn Notation) -> String {
    let mut out = String::new();
    let d = first_line(description, MAX_DESCRIPTION_CHARS);
    let comment = n.line_comment();
    if !d.is_empty() {
        let _ = writeln!(out, "  {comment} {d}");
    }
    for line in signature.lines() {
        let _ = writeln!(out, "  {line}");
    }
    out
}

/// The first non-blank line of `s`, trimmed, cut to `max` characters (`...` appended when cut).
fn first_line(s: &str, max: usize) -> String {
    let line = s
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() <= max {
        return line.to_string();
    }
    let mut out: String = line.chars().take(max.saturating_sub(3)).collect();
    out.push_str("...");
    out
}

impl CodeMode {
    /// Every tool with its path, description and pretty signature in the runtime's language,
    /// sorted by path (see [`catalog`]).
    pub fn catalog(&self) -> Vec<CatalogEntry> {
        catalog(self.tools(), self.language())
    }

    /// The model-facing instructions of the execute tool with a catalog of about
    /// `budget_tokens` o200k tokens (see [`instructions`]; [`DEFAULT_INSTRUCTIONS_BUDGET`] is a
    /// reasonable default).
    pub fn instructions(&self, budget_tokens: usize) -> String {
        instructions(self.tools(), &self.limits(), self.language(), budget_tokens)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_grouped() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(65_536), "65,536");
        assert_eq!(group(120_000), "120,000");
        assert_eq!(group(1_234_567), "1,234,567");
    }

    #[test]
    fn first_lines_are_cut() {
        assert_eq!(first_line("\n  Hello.  \nmore", 120), "Hello.");
        assert_eq!(first_line("abcdef", 5), "ab...");
        assert_eq!(first_line("", 5), "");
    }

    #[test]
    fn tokens_are_counted_with_a_real_tokenizer() {
        assert_eq!(count_tokens(""), 0);
        assert_eq!(count_tokens("hello world"), 2);
        // chars/4 would say 1 for each of these; a BPE does not.
        assert!(count_tokens("ßøü") >= 2);
    }
}
