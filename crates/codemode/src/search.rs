//! Tool discovery: the built-in `search({query?, namespace?, limit?, offset?})`, UnknownTool
//! suggestions ([`suggest`]), tool expressions ([`tool_expression`]) and short signatures.
//!
//! This is the simple first version (issue 2); issue 4 replaces the ranking and the signature
//! rendering. Ranking: per query term (lower-cased words, with a trailing `s`/`es` dropped as an
//! alternative form): +20 when the path ends with the term, +12 when it is one of the path's
//! words, +8 when the path contains it, +4 when the description contains it, +2 when the
//! enclosing namespace descriptions or input property names contain it. Results with score > 0,
//! best first, ties by path. An empty query lists every tool in path order.
//!
//! Result: `{ items = [{ path, description, signature }], remaining, next }` where `path` is the
//! canonical dotted path (`"orders.lookup"`), `signature` the call form
//! (`tools.orders.lookup({ id: string })`), `remaining` the number of hits after this page and
//! `next` `{ offset = N }` for the next page or `json.null`. A query equal to a tool's path (with
//! or without `tools.`) or to its call expression returns just that tool.

use serde_json::{Map, Value, json};

use crate::namespace::ToolTree;

/// Default page size of `search`.
pub const DEFAULT_SEARCH_LIMIT: u64 = 10;
/// Largest page size `search` accepts.
pub const MAX_SEARCH_LIMIT: u64 = 100;
/// How many suggestions an UnknownTool error carries at most.
pub const MAX_SUGGESTIONS: usize = 3;

/// The JSON Schema of `search`'s input.
pub fn search_input_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words to look for in tool paths and descriptions; empty lists every tool."},
            "namespace": {"type": "string", "description": "Only tools under this dotted path (e.g. \"orders\")."},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH_LIMIT, "description": "Page size (default 10)."},
            "offset": {"type": "integer", "minimum": 0, "description": "Index of the first result (default 0); use `next.offset` of the previous page."}
        },
        "additionalProperties": false
    })
}

/// The call expression of a tool path: `tools.orders.lookup`, `tools.ns["dash-name"]`.
pub fn tool_expression(path: &str) -> String {
    let mut out = String::from("tools");
    for seg in path.split('.') {
        if is_lua_name(seg) {
            out.push('.');
            out.push_str(seg);
        } else {
            out.push('[');
            out.push_str(&Value::String(seg.to_string()).to_string());
            out.push(']');
        }
    }
    out
}

fn is_lua_name(s: &str) -> bool {
    const KEYWORDS: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if",
        "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_ascii_alphanumeric() || c == '_') && !KEYWORDS.contains(&s)
}

/// A one-line signature: `tools.orders.lookup({ id: string, limit?: integer }): { id: string, total: number }`.
pub fn signature(tree: &ToolTree, path: &str) -> Option<String> {
    let entry = tree.get(path)?;
    let input = render_type(entry.tool.input_schema(), 0);
    let mut s = tool_expression(path);
    if input == "{}" || input == "{  }" {
        s.push_str("()");
    } else {
        s.push('(');
        s.push_str(&input);
        s.push(')');
    }
    if let Some(out) = entry.tool.output_schema() {
        s.push_str(": ");
        s.push_str(&render_type(out, 0));
    }
    Some(s)
}

/// A compact type rendering of a JSON Schema (top levels only).
fn render_type(schema: &Value, depth: usize) -> String {
    let Some(obj) = schema.as_object() else {
        return "any".into();
    };
    if let Some(c) = obj.get("const") {
        return c.to_string();
    }
    if let Some(Value::Array(vals)) = obj.get("enum") {
        return vals
            .iter()
            .map(Value::to_string)
            .collect::<Vec<_>>()
            .join(" | ");
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(alts)) = obj.get(key)
            && depth < 3
        {
            return alts
                .iter()
                .map(|a| render_type(a, depth + 1))
                .collect::<Vec<_>>()
                .join(" | ");
        }
    }
    let types: Vec<&str> = match obj.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ if obj.contains_key("properties") => vec!["object"],
        _ => return "any".into(),
    };
    types
        .iter()
        .map(|t| render_one(obj, t, depth))
        .collect::<Vec<_>>()
        .join(" | ")
}

fn render_one(obj: &Map<String, Value>, t: &str, depth: usize) -> String {
    match t {
        "object" => {
            let Some(Value::Object(props)) = obj.get("properties") else {
                return if depth == 0 {
                    "{}".into()
                } else {
                    "object".into()
                };
            };
            if depth >= 2 {
                return "object".into();
            }
            let required: Vec<&str> = match obj.get("required") {
                Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
                _ => Vec::new(),
            };
            let fields: Vec<String> = props
                .iter()
                .map(|(k, v)| {
                    let opt = if required.contains(&k.as_str()) {
                        ""
                    } else {
                        "?"
                    };
                    format!("{k}{opt}: {}", render_type(v, depth + 1))
                })
                .collect();
            if fields.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", fields.join(", "))
            }
        }
        "array" => match obj.get("items") {
            Some(items) if depth < 3 => format!("{}[]", render_type(items, depth + 1)),
            _ => "any[]".into(),
        },
        other => other.to_string(),
    }
}

/// Lower-cased words of `s`: split at non-alphanumerics and lower→upper case changes.
fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && prev_lower && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = c.is_lowercase() || c.is_ascii_digit();
            cur.extend(c.to_lowercase());
        } else {
            prev_lower = false;
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn forms(term: &str) -> Vec<String> {
    let mut f = vec![term.to_string()];
    if term.len() > 3
        && let Some(s) = term.strip_suffix("es")
    {
        f.push(s.to_string());
    }
    if term.len() > 2
        && let Some(s) = term.strip_suffix('s')
    {
        f.push(s.to_string());
    }
    f
}

/// Run `search` over the tree. `input` has passed [`search_input_schema`].
pub fn run_search(tree: &ToolTree, input: &Value) -> Value {
    let query = input
        .get("query")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim();
    let namespace = input
        .get("namespace")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim();
    let namespace = namespace.strip_prefix("tools.").unwrap_or(namespace);
    let namespace = if namespace == "tools" {
        ""
    } else {
        namespace.trim_matches('.')
    };
    let limit = as_count(input.get("limit"))
        .unwrap_or(DEFAULT_SEARCH_LIMIT)
        .clamp(1, MAX_SEARCH_LIMIT) as usize;
    let offset = as_count(input.get("offset")).unwrap_or(0);
    let offset = usize::try_from(offset).unwrap_or(usize::MAX);

    let in_scope = |p: &str| {
        namespace.is_empty()
            || p == namespace
            || (p.starts_with(namespace) && p[namespace.len()..].starts_with('.'))
    };
    let exact = query.strip_prefix("tools.").unwrap_or(query);
    let mut hits: Vec<&str> = Vec::new();
    if tree.get(exact).is_some() && in_scope(exact) {
        hits.push(exact);
    } else if let Some(p) = tree
        .paths()
        .find(|p| in_scope(p) && tool_expression(p) == query)
    {
        hits.push(p);
    } else {
        let terms: Vec<Vec<String>> = words(query).iter().map(|t| forms(t)).collect();
        let mut scored: Vec<(u64, &str)> = Vec::new();
        for entry in tree.tools() {
            let p = entry.path.as_str();
            if !in_scope(p) {
                continue;
            }
            if terms.is_empty() {
                scored.push((0, p));
                continue;
            }
            let lp = p.to_lowercase();
            let pwords = words(p);
            let desc = entry.tool.description().to_lowercase();
            let mut extra = String::new();
            for d in tree.enclosing_descriptions(p) {
                extra.push_str(&d.to_lowercase());
                extra.push('\n');
            }
            if let Some(Value::Object(props)) = entry.tool.input_schema().get("properties") {
                for (k, v) in props {
                    extra.push_str(&k.to_lowercase());
                    extra.push('\n');
                    if let Some(d) = v.get("description").and_then(Value::as_str) {
                        extra.push_str(&d.to_lowercase());
                        extra.push('\n');
                    }
                }
            }
            let mut score = 0u64;
            for fs in &terms {
                let any = |pred: &dyn Fn(&str) -> bool| fs.iter().any(|f| pred(f));
                if any(&|f| lp == f || lp.ends_with(&format!(".{f}"))) {
                    score += 20;
                }
                if any(&|f| pwords.iter().any(|w| w == f)) {
                    score += 12;
                }
                if any(&|f| lp.contains(f)) {
                    score += 8;
                }
                if any(&|f| desc.contains(f)) {
                    score += 4;
                }
                if any(&|f| extra.contains(f)) {
                    score += 2;
                }
            }
            if score > 0 {
                scored.push((score, p));
            }
        }
        scored.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        hits = scored.into_iter().map(|(_, p)| p).collect();
    }
    let total = hits.len();
    let page: Vec<Value> = hits
        .iter()
        .skip(offset)
        .take(limit)
        .map(|p| {
            let entry = tree.get(p).expect("hit is a tool path");
            let mut item = Map::new();
            item.insert("path".into(), Value::String(p.to_string()));
            item.insert(
                "description".into(),
                Value::String(entry.tool.description().to_string()),
            );
            if let Some(sig) = signature(tree, p) {
                item.insert("signature".into(), Value::String(sig));
            }
            Value::Object(item)
        })
        .collect();
    let shown = page.len();
    let start = offset.min(total);
    let remaining = total - start - shown;
    let next = if remaining > 0 {
        json!({"offset": start + shown})
    } else {
        Value::Null
    };
    json!({"items": page, "remaining": remaining, "next": next})
}

fn as_count(v: Option<&Value>) -> Option<u64> {
    let v = v?;
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| *f >= 0.0 && f.fract() == 0.0)
            .map(|f| f.min(u64::MAX as f64) as u64)
    })
}

/// Existing tool paths nearest to a missing `path`, best first (at most [`MAX_SUGGESTIONS`]).
///
/// Distance: the smaller of the edit distance over the whole dotted path and the edit distance of
/// the last segment (+2 when the enclosing namespaces differ); a tool below `path` (when a
/// namespace was called) or a tool whose path ends with `.path` (a missing leading namespace)
/// counts as distance 1. Candidates further than
/// `max(2, len(last segment) / 2)` are dropped.
pub fn suggest(tree: &ToolTree, path: &str) -> Vec<String> {
    const MAX_LEN: usize = 200;
    if path.len() > MAX_LEN {
        return Vec::new();
    }
    let lower = path.to_lowercase();
    let (m_ns, m_last) = split_last(&lower);
    let threshold = (m_last.chars().count() / 2).max(2);
    let mut scored: Vec<(usize, &str)> = Vec::new();
    for p in tree.paths() {
        if p.len() > MAX_LEN {
            continue;
        }
        let lp = p.to_lowercase();
        let below = lp.starts_with(&lower) && lp[lower.len()..].starts_with('.');
        let suffix = lp.ends_with(&lower) && lp[..lp.len() - lower.len()].ends_with('.');
        let d = if below || suffix {
            1
        } else {
            let (c_ns, c_last) = split_last(&lp);
            let full = levenshtein(&lower, &lp);
            let last = levenshtein(m_last, c_last) + if m_ns == c_ns { 0 } else { 2 };
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
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expressions_quote_non_names_and_keywords() {
        assert_eq!(tool_expression("orders.lookup"), "tools.orders.lookup");
        assert_eq!(tool_expression("ns.dash-name"), "tools.ns[\"dash-name\"]");
        assert_eq!(tool_expression("a.end"), "tools.a[\"end\"]");
        assert_eq!(tool_expression("a.9x"), "tools.a[\"9x\"]");
    }

    #[test]
    fn words_split_case_and_punctuation() {
        assert_eq!(
            words("getUserIDs list_orders"),
            vec!["get", "user", "ids", "list", "orders"]
        );
        assert_eq!(forms("issues"), vec!["issues", "issu", "issue"]);
    }

    #[test]
    fn levenshtein_basics() {
        assert_eq!(levenshtein("lookup", "lookpu"), 2);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("same", "same"), 0);
    }
}
