//! Tool discovery: the built-in `search({ query?, namespace?, limit?, offset? })`, the ranker
//! behind it ([`rank`], [`SearchIndex`]), UnknownTool "did you mean" suggestions ([`suggest`]) and
//! tool expressions ([`tool_expression`]).
//!
//! ## Input
//! `search()` or `search({ query = "list issues", namespace = "github", limit = 5, offset = 0 })`.
//! Every field is optional: `query` (string; empty browses), `namespace` (string, dotted, any
//! depth; a leading `tools.` is ignored), `limit` (integer 1..=[`MAX_SEARCH_LIMIT`], default
//! [`DEFAULT_SEARCH_LIMIT`]), `offset` (integer ≥ 0, default 0). A field set to `json.null`
//! counts as absent. Anything else (another type, a fraction, `limit = 0`, a negative offset, an
//! unknown field, more than one argument) is an `InvalidToolInput` whose message names the field,
//! what it got and what it accepts ([`SearchRequest::from_input`]).
//!
//! ## Result
//! `{ items = { { path, description, signature }, ... }, remaining, next }`: `path` is the
//! canonical dotted path (`"github.issues.list"`), `signature` the tool's full signature in the
//! runtime's language ([`crate::signature::tool_signature`], pretty style: Lua
//! `tools.orders.lookup({ id: string }) -> { total: number }` with field docs as `--` comments,
//! JavaScript `tools.orders.lookup(input: { id: string }): Promise<{ total: number }>` with JSDoc
//! comments; [`crate::CodeMode::search`] and the built-in use the runtime's language, the free
//! functions below the default one), `remaining`
//! the number of hits after this page and `next` `{ offset = N }` for the next page, or `null` (absent in Lua: `page.next` is nil).
//! An offset past the end gives `{ items = {}, remaining = 0, next = null }` (in Lua `next` is nil).
//!
//! ## Matching
//! 1. Exact lookup: the trimmed query, with or without a leading `tools.`, equal to a tool path in
//!    scope (`github.issues.list`), or equal to the tool's expression (`tools.ns["dash-name"]`),
//!    returns that one tool.
//! 2. Empty query: every tool in scope, in path order (byte order).
//! 3. Otherwise the ranker ([`SearchIndex::rank`]). The query is split into terms: at every
//!    character that is not an ASCII letter or digit, and at camelCase boundaries
//!    (`postMessage` → `post`, `message`; `HTTPServer` → `http`, `server`), lower-cased. One-letter
//!    terms and a few filler words (`a`, `the`, `to`, `of`, ...) are dropped when other terms
//!    remain. Each term is folded to a singular stem ([`fold`]: `issues` → `issue`,
//!    `repositories` → `repository`, `boxes` → `box`; `status` stays). Per term, a tool earns:
//!    - **20** when its last path segment, folded, equals the term (`list` → `github.issues.list`);
//!    - **12** when the term is one of its path words (segments split like the query and folded);
//!    - **8** when the lower-cased path contains the term;
//!    - **6** when its description contains it;
//!    - **5** when the term is one of the words of a top-level input property name
//!      (`trackingNumber` → `tracking`, `number`), so one property (`page`) does not outrank a
//!      description (`Download a web page`);
//!    - **2** when its search text contains it: path, description, the descriptions of every
//!      enclosing namespace, and each top-level input property name and description.
//!
//!    Scores add up over terms; tools scoring 0 are dropped; best first, ties by path.
//!
//!    When no tool scores at all, a typo-tolerant pass runs instead: per term, **6** when one of
//!    the tool's path words is within 1 edit of it (terms of 4 to 7 letters) or 2 edits (8 letters
//!    or more), **2** when a word of an input property name is (`isues` → `github.issues.*`);
//!    swapping two neighbouring letters is one edit (`fiel` → `file`).
//!
//! `search` is always callable, whether or not the catalog given to the model was complete. Each
//! call is a tool call named `"search"`: listed in `toolCalls`, counted against `max_tool_calls`,
//! and run between the `tool_before`/`tool_after` hooks. `tools.search(...)` is an alias unless a
//! tool owns the path `search` or paths below it. The same ranker gives UnknownTool its
//! "did you mean" ([`SearchIndex::suggest`]).
//!
//! ```
//! use codemode::{CodeMode, Namespace, Tool};
//! use serde_json::json;
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let t = |d: &str| Tool::new(d, json!({"type": "object"}), |v| async move { Ok(v) });
//! let cm = CodeMode::builder()
//!     .namespace("slack", Namespace::new().description("Team chat")
//!         .tool("chat.postMessage", t("Send a message to a channel."))
//!         .tool("users.list", t("List people.")))
//!     .tool("github.issues.list", t("List issues of a repository."))
//!     .build()?;
//! // From a program: find the tool, then call it by the path search returned.
//! let r = cm.execute(r#"
//!     local hits = search({ query = "send message", limit = 1 })
//!     return { hits.items[1].path, hits.items[1].signature, hits.remaining }
//! "#).await;
//! assert_eq!(r.value(), Some(&json!(["slack.chat.postMessage", "tools.slack.chat.postMessage() -> unknown", 0])));
//! assert_eq!(r.tool_calls[0].name, "search");
//! // From the host: the same input checks and result.
//! let page = cm.search(&json!({ "namespace": "slack", "limit": 1 }))?;
//! assert_eq!(page["items"][0]["path"], "slack.chat.postMessage");
//! assert_eq!(page["next"], json!({ "offset": 1 }));
//! assert!(cm.search(&json!({ "limit": 0 })).is_err());
//! # Ok(()) }
//! ```

use std::collections::HashSet;

use std::sync::Arc;

use serde_json::{Map, Value, json};

use codemode_guest::{Notation, ValueKind};

use crate::guests::notation;
use crate::namespace::{ToolEntry, ToolTree};
use crate::runtime::Language;
use crate::signature::{Style, tool_signature, tool_signature_in};

/// Default page size of `search`.
pub const DEFAULT_SEARCH_LIMIT: usize = 10;
/// Largest page size `search` accepts.
pub const MAX_SEARCH_LIMIT: usize = 50;
/// How many suggestions an UnknownTool error carries at most.
pub const MAX_SUGGESTIONS: usize = 3;
/// Query terms beyond this many are ignored (bounds the ranking work per call).
pub const MAX_QUERY_TERMS: usize = 32;
/// The fields `search` accepts, in the order error messages list them.
pub const SEARCH_FIELDS: [&str; 4] = ["query", "namespace", "limit", "offset"];

/// Words dropped from a query when other terms remain.
const FILLER_WORDS: [&str; 16] = [
    "a", "an", "the", "to", "of", "for", "in", "on", "by", "and", "or", "with", "from", "into",
    "my", "all",
];

/// The JSON Schema of `search`'s input (for documentation and signatures; the runtime checks
/// input with [`SearchRequest::from_input`], which gives clearer messages).
pub fn search_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words to look for in tool paths, descriptions and parameter names, or an exact tool path; empty lists every tool."},
            "namespace": {"type": "string", "description": "Only tools under this dotted path (e.g. \"github.issues\")."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH_LIMIT, "default": DEFAULT_SEARCH_LIMIT, "description": "Page size."},
            "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Index of the first result; use `next.offset` of the previous page."}
        },
        "additionalProperties": false
    })
}

/// The JSON Schema of `search`'s result.
pub fn search_output_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "items": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "description": "Canonical dotted tool path."},
                    "description": {"type": "string"},
                    "signature": {"type": "string", "description": "How to call the tool and what it returns."}
                },
                "required": ["path", "description", "signature"]
            }},
            "remaining": {"type": "integer", "minimum": 0, "description": "Hits after this page."},
            "next": {"anyOf": [
                {"type": "object", "properties": {"offset": {"type": "integer"}}, "required": ["offset"]},
                {"type": "null"}
            ], "description": "Pass as the next call's offset; null on the last page."}
        },
        "required": ["items", "remaining", "next"]
    })
}

/// A checked `search` input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchRequest {
    /// The query, trimmed ("" browses).
    pub query: String,
    /// The namespace scope, normalised (no `tools.` prefix, no surrounding dots; "" = everything).
    pub namespace: String,
    /// Page size, 1..=[`MAX_SEARCH_LIMIT`].
    pub limit: usize,
    /// Index of the first hit shown.
    pub offset: usize,
}

impl Default for SearchRequest {
    fn default() -> Self {
        SearchRequest {
            query: String::new(),
            namespace: String::new(),
            limit: DEFAULT_SEARCH_LIMIT,
            offset: 0,
        }
    }
}

impl SearchRequest {
    /// A request for `query` with the default page.
    pub fn query(query: impl Into<String>) -> Self {
        SearchRequest {
            query: query.into().trim().to_string(),
            ..SearchRequest::default()
        }
    }

    /// Checks a `search` input (the one argument of the call; `{}` when called without one),
    /// with messages in the default [`Language`]'s words ([`SearchRequest::from_input_for`]).
    ///
    /// Errors (the text of the `InvalidToolInput` the program sees), e.g.
    /// `search: 'limit' must be an integer from 1 to 50; got 0.` or
    /// `search: unknown field 'qeury'; the fields are query, namespace, limit, offset.`
    pub fn from_input(input: &Value) -> Result<Self, String> {
        Self::from_input_for(input, Language::default())
    }

    /// [`SearchRequest::from_input`] with messages in `language`'s words: an input that is not
    /// an object is answered with an example call in that language.
    pub fn from_input_for(input: &Value, language: Language) -> Result<Self, String> {
        Self::checked(input, notation(language))
    }

    /// [`SearchRequest::from_input`] with messages in the words of `n`.
    pub(crate) fn checked(input: &Value, n: &dyn Notation) -> Result<Self, String> {
        let Value::Object(map) = input else {
            return Err(format!(
                "search expects one {} such as {}; got {}.",
                n.object_noun(),
                n.call_example("search", &[("query", &n.quote("list issues"))]),
                describe(input, n)
            ));
        };
        let mut req = SearchRequest::default();
        for (key, value) in map {
            if value.is_null() {
                continue;
            }
            match key.as_str() {
                "query" | "namespace" => {
                    let Value::String(s) = value else {
                        return Err(format!(
                            "search: '{key}' must be a string; got {}.",
                            describe(value, n)
                        ));
                    };
                    if key == "query" {
                        req.query = s.trim().to_string();
                    } else {
                        req.namespace = normalize_namespace(s);
                    }
                }
                "limit" => match as_integer(value) {
                    Some(n) if (1..=MAX_SEARCH_LIMIT as i128).contains(&n) => {
                        req.limit = n as usize
                    }
                    _ => {
                        return Err(format!(
                            "search: 'limit' must be an integer from 1 to {MAX_SEARCH_LIMIT}; got {}.",
                            describe(value, n)
                        ));
                    }
                },
                "offset" => match as_integer(value) {
                    Some(n) if n >= 0 => req.offset = usize::try_from(n).unwrap_or(usize::MAX),
                    _ => {
                        return Err(format!(
                            "search: 'offset' must be an integer >= 0 (use next.offset of the previous page); got {}.",
                            describe(value, n)
                        ));
                    }
                },
                other => {
                    return Err(format!(
                        "search: unknown field '{}'; the fields are {}.",
                        cut(other, 64),
                        SEARCH_FIELDS.join(", ")
                    ));
                }
            }
        }
        Ok(req)
    }
}

/// An integer value, also from an integral float (`10.0`), within ±2^63.
fn as_integer(v: &Value) -> Option<i128> {
    if let Some(i) = v.as_i64() {
        return Some(i.into());
    }
    if let Some(u) = v.as_u64() {
        return Some(u.into());
    }
    let f = v.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 9.2e18).then_some(f as i128)
}

/// Short model-facing description of a JSON value: `the string "abc"`, `0.5`; null, arrays
/// and objects in the words of `n` ([`Notation::value_noun`]).
fn describe(v: &Value, n: &dyn Notation) -> String {
    match v {
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(num) => format!("{num}"),
        Value::String(s) => format!("the string {}", Value::String(cut(s, 40))),
        other => ValueKind::of(other)
            .map(|k| n.value_noun(k))
            .unwrap_or_default()
            .into(),
    }
}

fn cut(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &s[..end])
}

fn normalize_namespace(ns: &str) -> String {
    let ns = ns.trim();
    let ns = ns.strip_prefix("tools.").unwrap_or(ns);
    if ns == "tools" {
        return String::new();
    }
    ns.trim_matches('.').to_string()
}

/// `true` when `path` is `ns` or below it (whole segments: `slack.admin` contains
/// `slack.admin.users.list`, not `slack.administrator.list`).
pub fn in_namespace(path: &str, ns: &str) -> bool {
    ns.is_empty()
        || path == ns
        || (path.len() > ns.len() && path.starts_with(ns) && path.as_bytes()[ns.len()] == b'.')
}

/// The call expression of a tool path in the default [`Language`] (`tools.orders.lookup`,
/// `tools.ns["dash-name"]`; see [`crate::signature::tool_expression`]).
pub fn tool_expression(path: &str) -> String {
    crate::signature::tool_expression(path, Language::default())
}

/// The one-line signature of the tool at `path` in the default [`Language`] (compact style, no
/// comments), or `None` when there is no such tool. Search results carry the pretty form
/// ([`crate::signature::tool_signature`] with [`Style::Pretty`]).
pub fn signature(tree: &ToolTree, path: &str) -> Option<String> {
    tree.get(path)
        .map(|e| tool_signature(e, Language::default(), Style::Compact))
}

/// Lower-cased words of `s`: split at every character that is not an ASCII letter or digit and
/// at camelCase boundaries (`getUserIDs` → `get`, `user`, `ids`; `HTTPServer` → `http`,
/// `server`). Non-ASCII letters are kept inside words (lower-cased), not split.
pub fn words(s: &str) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            // `HTTPServer` splits before `S`; `IDs` (a plural acronym) does not split.
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                && (chars[i + 1] != 's' || chars.get(i + 2).is_some_and(|n| n.is_lowercase()));
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push(std::mem::take(&mut cur));
            }
        }
        cur.extend(c.to_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Folds a lower-case word to a singular stem: `issues` → `issue`, `repositories` →
/// `repository`, `boxes`/`matches`/`classes` → `box`/`match`/`class`, `repos` → `repo`. Words
/// ending in `ss`, `us` or `is` (`access`, `status`, `analysis`) and words of three letters or
/// fewer are kept.
pub fn fold(word: &str) -> String {
    let n = word.len();
    if n > 4 && word.ends_with("ies") {
        return format!("{}y", &word[..n - 3]);
    }
    if n > 4
        && ["sses", "xes", "ches", "shes", "zes"]
            .iter()
            .any(|s| word.ends_with(s))
    {
        return word[..n - 2].to_string();
    }
    if n > 3 && word.ends_with('s') && !["ss", "us", "is"].iter().any(|s| word.ends_with(s)) {
        return word[..n - 1].to_string();
    }
    word.to_string()
}

/// One query term: its stem and the forms used for substring matches.
#[derive(Debug)]
struct Term {
    stem: String,
    forms: Vec<String>,
}

fn query_terms(query: &str) -> Vec<Term> {
    let all = words(query);
    let meaningful: Vec<&String> = all
        .iter()
        .filter(|w| w.len() > 1 && !FILLER_WORDS.contains(&w.as_str()))
        .collect();
    let chosen: Vec<&String> = if meaningful.is_empty() {
        all.iter().collect()
    } else {
        meaningful
    };
    let mut seen = HashSet::new();
    let mut terms = Vec::new();
    for w in chosen {
        let stem = fold(w);
        if !seen.insert(stem.clone()) {
            continue;
        }
        let mut forms = vec![stem.clone()];
        if stem.len() > 3
            && let Some(base) = stem.strip_suffix('y')
        {
            // `repository`/`repositories`: also match the text `repositor`, so the singular and
            // the plural find the same tools.
            forms.push(base.to_string());
        }
        terms.push(Term { stem, forms });
        if terms.len() == MAX_QUERY_TERMS {
            break;
        }
    }
    terms
}

/// The searchable text of one tool, prepared once.
#[derive(Clone, Debug)]
struct IndexEntry {
    path: String,
    lower_path: String,
    last_stem: String,
    word_stems: Vec<String>,
    property_stems: Vec<String>,
    description: String,
    lower_description: String,
    text: String,
    entry: Arc<ToolEntry>,
}

/// The prepared search index over a [`ToolTree`]: lower-cased paths, path-word stems,
/// descriptions, search texts and rendered signatures, in path order. Built once per runtime.
#[derive(Clone)]
pub struct SearchIndex {
    entries: Vec<IndexEntry>,
    /// The notation of result signatures and tool expressions.
    notation: &'static dyn Notation,
}

impl Default for SearchIndex {
    fn default() -> Self {
        SearchIndex {
            entries: Vec::new(),
            notation: notation(Language::default()),
        }
    }
}

impl std::fmt::Debug for SearchIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SearchIndex")
            .field("entries", &self.entries)
            .finish_non_exhaustive()
    }
}

impl SearchIndex {
    /// Index every tool of `tree`; result signatures in the default [`Language`]'s notation.
    pub fn new(tree: &ToolTree) -> Self {
        Self::for_language(tree, Language::default())
    }

    /// Index every tool of `tree`; result signatures in `language`'s notation.
    pub fn for_language(tree: &ToolTree, language: Language) -> Self {
        Self::with_notation(tree, notation(language))
    }

    /// Index every tool of `tree`; result signatures in the notation `n`.
    pub(crate) fn with_notation(tree: &ToolTree, notation: &'static dyn Notation) -> Self {
        let entries = tree
            .tools()
            .map(|entry| {
                let p = entry.path.as_str();
                let lower_path = p.to_lowercase();
                let last = p.rsplit('.').next().unwrap_or(p).to_lowercase();
                let word_stems = words(p).iter().map(|w| fold(w)).collect();
                let description = entry.tool.description().to_string();
                let mut text = format!("{lower_path}\n{}\n", description.to_lowercase());
                let mut property_stems: Vec<String> = Vec::new();
                for d in tree.enclosing_descriptions(p) {
                    text.push_str(&d.to_lowercase());
                    text.push('\n');
                }
                for (name, desc) in input_properties(entry.tool.input_schema()) {
                    property_stems.extend(words(&name).iter().map(|w| fold(w)));
                    text.push_str(&name.to_lowercase());
                    text.push('\n');
                    if let Some(d) = desc {
                        text.push_str(&d.to_lowercase());
                        text.push('\n');
                    }
                }
                IndexEntry {
                    path: p.to_string(),
                    lower_description: description.to_lowercase(),
                    last_stem: fold(&last),
                    lower_path,
                    word_stems,
                    property_stems,
                    description,
                    text,
                    entry: entry.clone(),
                }
            })
            .collect();
        SearchIndex { entries, notation }
    }

    /// Number of indexed tools.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// `true` when no tool is indexed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Ranks every tool against `query` (the scoring of the module docs): `(score, path)` for
    /// tools scoring above 0, best first, ties by path. A query without terms returns every tool
    /// with score 0 in path order.
    pub fn rank(&self, query: &str) -> Vec<(u32, &str)> {
        let terms = query_terms(query);
        if terms.is_empty() {
            return self.entries.iter().map(|e| (0, e.path.as_str())).collect();
        }
        let mut scored: Vec<(u32, &str)> = self
            .entries
            .iter()
            .filter_map(|e| {
                let score: u32 = terms.iter().map(|t| score_term(e, t)).sum();
                (score > 0).then_some((score, e.path.as_str()))
            })
            .collect();
        if scored.is_empty() {
            // Nothing matched as written: tolerate typos (`isues`, `mesage`).
            scored = self
                .entries
                .iter()
                .filter_map(|e| {
                    let score: u32 = terms.iter().map(|t| fuzzy_term(e, t)).sum();
                    (score > 0).then_some((score, e.path.as_str()))
                })
                .collect();
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored
    }

    fn entry(&self, path: &str) -> Option<&IndexEntry> {
        self.entries
            .binary_search_by(|e| e.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// Runs a checked `search` request: exact lookup, browse or ranking, then the page.
    pub fn search(&self, req: &SearchRequest) -> Value {
        let ns = req.namespace.as_str();
        let q = req.query.as_str();
        let exact = q.strip_prefix("tools.").unwrap_or(q);
        let hits: Vec<&str> = if let Some(e) =
            self.entry(exact).filter(|e| in_namespace(&e.path, ns))
        {
            vec![e.path.as_str()]
        } else if let Some(e) = self.entries.iter().find(|e| {
            q.starts_with("tools")
                && in_namespace(&e.path, ns)
                && (tool_expression(&e.path) == q || self.notation.tool_expression(&e.path) == q)
        }) {
            vec![e.path.as_str()]
        } else {
            self.rank(q)
                .into_iter()
                .map(|(_, p)| p)
                .filter(|p| in_namespace(p, ns))
                .collect()
        };
        let total = hits.len();
        let start = req.offset.min(total);
        let page: Vec<Value> = hits[start..]
            .iter()
            .take(req.limit)
            .filter_map(|p| self.entry(p))
            .map(|e| {
                let mut item = Map::new();
                item.insert("path".into(), Value::String(e.path.clone()));
                item.insert("description".into(), Value::String(e.description.clone()));
                item.insert(
                    "signature".into(),
                    Value::String(tool_signature_in(&e.entry, self.notation, Style::Pretty)),
                );
                Value::Object(item)
            })
            .collect();
        let shown = page.len();
        let remaining = total - start - shown;
        let next = if remaining > 0 {
            json!({"offset": start + shown})
        } else {
            Value::Null
        };
        json!({"items": page, "remaining": remaining, "next": next})
    }

    /// Existing tool paths nearest to a missing `path`, best first (at most
    /// [`MAX_SUGGESTIONS`]): first near-misses by spelling (see [`suggest`]), then the ranker's
    /// best hits for the path's words (scoped to its first segment when that is an existing
    /// namespace) that score at least 20.
    pub fn suggest(&self, path: &str) -> Vec<String> {
        const MAX_LEN: usize = 200;
        if path.len() > MAX_LEN {
            return Vec::new();
        }
        let mut out = spelling_neighbours(self.entries.iter().map(|e| e.path.as_str()), path);
        let first = path.split('.').next().unwrap_or("");
        let scoped = path.contains('.')
            && self
                .entries
                .iter()
                .any(|e| in_namespace(&e.path, first) && e.path != first);
        // Inside an existing namespace its name would match every tool there: rank by the
        // rest of the path only (`shop.nope` must not suggest whatever `shop` tool sorts first).
        let words = if scoped {
            &path[first.len() + 1..]
        } else {
            path
        };
        for (score, p) in self.rank(words) {
            if out.len() >= MAX_SUGGESTIONS || score < 20 {
                break;
            }
            if (scoped && !in_namespace(p, first)) || out.iter().any(|o| o == p) {
                continue;
            }
            out.push(p.to_string());
        }
        out.truncate(MAX_SUGGESTIONS);
        out
    }
}

fn score_term(e: &IndexEntry, t: &Term) -> u32 {
    let mut s = 0;
    if e.last_stem == t.stem {
        s += 20;
    }
    if e.word_stems.contains(&t.stem) {
        s += 12;
    }
    if e.property_stems.contains(&t.stem) {
        s += 5;
    }
    let any = |hay: &str| t.forms.iter().any(|f| hay.contains(f.as_str()));
    if any(&e.lower_path) {
        s += 8;
    }
    if any(&e.lower_description) {
        s += 6;
    }
    if any(&e.text) {
        s += 2;
    }
    s
}

/// Typo-tolerant score of one term (used only when no tool matches exactly): 6 when a path word
/// is within [`typo_allowance`] edits of the term, 2 when an input property word is.
fn fuzzy_term(e: &IndexEntry, t: &Term) -> u32 {
    let max = typo_allowance(&t.stem);
    if max == 0 {
        return 0;
    }
    let near = |w: &String| w.len() <= 64 && levenshtein(w, &t.stem) <= max;
    let mut s = 0;
    if e.word_stems.iter().any(near) {
        s += 6;
    }
    if e.property_stems.iter().any(near) {
        s += 2;
    }
    s
}

/// Edits tolerated in a misspelled query term: none below 4 letters or above 64, 1 up to 7
/// letters, 2 from 8 letters.
fn typo_allowance(term: &str) -> usize {
    match term.chars().count() {
        0..=3 | 65.. => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Top-level input properties (name, description) of a schema, following one local `$ref`.
fn input_properties(schema: &Value) -> Vec<(String, Option<String>)> {
    let mut s = schema;
    if let Some(r) = s.get("$ref").and_then(Value::as_str)
        && let Some(target) = r
            .strip_prefix("#/")
            .and_then(|p| schema.pointer(&format!("/{p}")))
    {
        s = target;
    }
    match s.get("properties") {
        Some(Value::Object(props)) => props
            .iter()
            .map(|(k, v)| {
                (
                    k.clone(),
                    v.get("description")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Ranks the tools of `tree` against `query` (builds a [`SearchIndex`]; hosts that rank often
/// keep one). `(score, path)`, best first, ties by path; see the module docs for the scoring.
///
/// ```
/// use codemode::{CodeMode, Tool};
/// use codemode::search::rank;
/// use serde_json::json;
/// let t = |d: &str| Tool::new(d, json!({"type": "object"}), |v| async move { Ok(v) });
/// let cm = CodeMode::builder()
///     .tool("github.issues.list", t("List issues of a repository."))
///     .tool("github.issues.get", t("Get one issue."))
///     .tool("github.pulls.list", t("List pull requests."))
///     .build()?;
/// let ranked = rank(cm.tools(), "list issues");
/// assert_eq!(ranked[0].1, "github.issues.list");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn rank(tree: &ToolTree, query: &str) -> Vec<(u32, String)> {
    SearchIndex::new(tree)
        .rank(query)
        .into_iter()
        .map(|(s, p)| (s, p.to_string()))
        .collect()
}

/// Runs `search` over `tree` with a raw input (the program's argument). Errors: the
/// `InvalidToolInput` message of [`SearchRequest::from_input`].
pub fn run_search(tree: &ToolTree, input: &Value) -> Result<Value, String> {
    let req = SearchRequest::from_input(input)?;
    Ok(SearchIndex::new(tree).search(&req))
}

/// Existing tool paths nearest to a missing `path`, best first (at most [`MAX_SUGGESTIONS`]);
/// see [`SearchIndex::suggest`].
///
/// Spelling distance: the smaller of the edit distance over the whole dotted path and the edit
/// distance of the last segment (+2 when the enclosing namespaces differ); a tool below `path`
/// (when a namespace was called) or a tool whose path ends with `.path` (a missing leading
/// namespace) counts as distance 1. Candidates further than `max(2, len(last segment) / 2)` are
/// dropped.
pub fn suggest(tree: &ToolTree, path: &str) -> Vec<String> {
    SearchIndex::new(tree).suggest(path)
}

fn spelling_neighbours<'a>(paths: impl Iterator<Item = &'a str>, path: &str) -> Vec<String> {
    const MAX_LEN: usize = 200;
    let lower = path.to_lowercase();
    let (m_ns, m_last) = split_last(&lower);
    let threshold = (m_last.chars().count() / 2).max(2);
    let mut scored: Vec<(usize, &str)> = Vec::new();
    let mut lev = Levenshtein::default();
    let mut lp = String::new();
    for p in paths {
        if p.len() > MAX_LEN {
            continue;
        }
        lp.clear();
        lp.extend(p.chars().flat_map(char::to_lowercase));
        let below = lp.starts_with(&lower) && lp[lower.len()..].starts_with('.');
        let suffix = lp.ends_with(&lower) && lp[..lp.len() - lower.len()].ends_with('.');
        let d = if below || suffix {
            1
        } else {
            let (c_ns, c_last) = split_last(&lp);
            let full = lev.distance(&lower, &lp);
            let last = lev.distance(m_last, c_last) + if m_ns == c_ns { 0 } else { 2 };
            let d = full.min(last);
            if d == 0 { 1 } else { d }
        };
        if d <= threshold {
            scored.push((d, p));
        }
    }
    scored.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(b.1)));
    scored
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, p)| p.to_string())
        .collect()
}

fn split_last(p: &str) -> (&str, &str) {
    match p.rfind('.') {
        Some(i) => (&p[..i], &p[i + 1..]),
        None => ("", p),
    }
}

fn levenshtein(a: &str, b: &str) -> usize {
    Levenshtein::default().distance(a, b)
}

/// Edit distance between `a` and `b`, a swap of two neighbouring characters counting as one
/// edit (`fiel` → `file`: 1), as the typo pass and the spelling suggestions measure it.
pub fn edit_distance(a: &str, b: &str) -> usize {
    levenshtein(a, b)
}

/// Edit distance with buffers kept between calls: ranking every tool path for a missing one
/// computes two distances per path, and allocating for each was most of its cost.
/// Transpositions of neighbours count as one edit (optimal string alignment).
#[derive(Default)]
struct Levenshtein {
    a: Vec<char>,
    b: Vec<char>,
    before: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

impl Levenshtein {
    fn distance(&mut self, a: &str, b: &str) -> usize {
        self.a.clear();
        self.a.extend(a.chars());
        self.b.clear();
        self.b.extend(b.chars());
        let (a, b) = (&self.a, &self.b);
        self.before.clear();
        self.before.resize(b.len() + 1, 0);
        self.prev.clear();
        self.prev.extend(0..=b.len());
        self.cur.clear();
        self.cur.resize(b.len() + 1, 0);
        for i in 1..=a.len() {
            self.cur[0] = i;
            for j in 1..=b.len() {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let mut d = (self.prev[j] + 1)
                    .min(self.cur[j - 1] + 1)
                    .min(self.prev[j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    d = d.min(self.before[j - 2] + 1);
                }
                self.cur[j] = d;
            }
            std::mem::swap(&mut self.before, &mut self.prev);
            std::mem::swap(&mut self.prev, &mut self.cur);
        }
        self.prev[b.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_case_and_punctuation() {
        assert_eq!(
            words("getUserIDs list_orders"),
            vec!["get", "user", "ids", "list", "orders"]
        );
        assert_eq!(
            words("HTTPServer v2Api"),
            vec!["http", "server", "v2", "api"]
        );
        assert_eq!(
            words("resolve-library-id"),
            vec!["resolve", "library", "id"]
        );
        assert_eq!(words("  "), Vec::<String>::new());
    }

    #[test]
    fn folding_makes_singular_stems() {
        for (w, f) in [
            ("issues", "issue"),
            ("issue", "issue"),
            ("repositories", "repository"),
            ("messages", "message"),
            ("boxes", "box"),
            ("matches", "match"),
            ("classes", "class"),
            ("repos", "repo"),
            ("status", "status"),
            ("access", "access"),
            ("analysis", "analysis"),
            ("ids", "ids"),
            ("list", "list"),
        ] {
            assert_eq!(fold(w), f, "{w}");
        }
    }

    #[test]
    fn query_terms_drop_fillers_and_duplicates() {
        let t: Vec<String> = query_terms("send a message to the Messages channel")
            .into_iter()
            .map(|t| t.stem)
            .collect();
        assert_eq!(t, vec!["send", "message", "channel"]);
        let t: Vec<String> = query_terms("a").into_iter().map(|t| t.stem).collect();
        assert_eq!(t, vec!["a"]);
        let t = query_terms("repositories");
        assert_eq!(t[0].forms, vec!["repository", "repositor"]);
        assert_eq!(query_terms(&"x y ".repeat(1000)).len(), 2);
        assert!(query_terms(&"word ".repeat(10_000)).len() <= MAX_QUERY_TERMS);
    }

    #[test]
    fn request_checks_every_field() {
        assert_eq!(
            SearchRequest::from_input(&json!({})).unwrap(),
            SearchRequest::default()
        );
        let r = SearchRequest::from_input(
            &json!({"query": " list ", "namespace": "tools.github.", "limit": 5.0, "offset": 3}),
        )
        .unwrap();
        assert_eq!(
            r,
            SearchRequest {
                query: "list".into(),
                namespace: "github".into(),
                limit: 5,
                offset: 3
            }
        );
        let ns_all = SearchRequest::from_input(&json!({"namespace": "tools"})).unwrap();
        assert_eq!(ns_all.namespace, "");
        let null_is_absent = SearchRequest::from_input(&json!({"query": null})).unwrap();
        assert_eq!(null_is_absent, SearchRequest::default());
        for (input, msg) in [
            (
                json!({"query": 5}),
                "search: 'query' must be a string; got 5.",
            ),
            (
                json!({"namespace": true}),
                "search: 'namespace' must be a string; got the boolean true.",
            ),
            (
                json!({"limit": 0}),
                "search: 'limit' must be an integer from 1 to 50; got 0.",
            ),
            (
                json!({"limit": 51}),
                "search: 'limit' must be an integer from 1 to 50; got 51.",
            ),
            (
                json!({"limit": 2.5}),
                "search: 'limit' must be an integer from 1 to 50; got 2.5.",
            ),
            (
                json!({"limit": "3"}),
                "search: 'limit' must be an integer from 1 to 50; got the string \"3\".",
            ),
            (
                json!({"offset": -1}),
                "search: 'offset' must be an integer >= 0 (use next.offset of the previous page); got -1.",
            ),
            (
                json!({"qeury": "x"}),
                "search: unknown field 'qeury'; the fields are query, namespace, limit, offset.",
            ),
        ] {
            assert_eq!(
                SearchRequest::from_input(&input).unwrap_err(),
                msg,
                "{input}"
            );
        }
    }

    #[test]
    fn levenshtein_basics() {
        // A swap of neighbours is one edit.
        assert_eq!(levenshtein("lookup", "lookpu"), 1);
        assert_eq!(levenshtein("fiel", "file"), 1);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("same", "same"), 0);
    }
}
