//! The tool tree: [`Namespace`] (an optional description plus nested tools and namespaces),
//! path canonicalization ([`split_path`]), and [`ToolTree`], the validated, flattened tree a
//! [`crate::CodeMode`] is built on.
//!
//! Keys with dots split into segments (`"issues.list"` ≡ `issues: { list }`); an empty segment
//! (`""`, `"a..b"`, `".a"`, `"a."`) is an error at construction; a path may hold a tool and
//! children at once; the same tool path twice is an error. Canonical paths join segments with `.`.
//!
//! A namespace can be marked [`Unavailable`] (e.g. the MCP server behind it failed to start): a
//! program reaching a path under it that has no tool gets a catchable `ToolFailure` that says why
//! and what to do, instead of `UnknownTool`, and the host hears about the attempt.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::runtime::BuildError;
use crate::schema::CompiledSchema;
use crate::tool::Tool;

/// A group of tools under a path, with an optional description (shown by `search` and used in
/// its matching for every tool below it).
///
/// ```
/// use codemode::{Namespace, Tool};
/// use serde_json::json;
/// let echo = Tool::new("Echo the input.", json!({"type": "object"}), |v| async move { Ok(v) });
/// let ns = Namespace::new()
///     .description("Order management")
///     .tool("lookup", echo.clone())
///     .tool("items.list", echo.clone()) // ≡ .namespace("items", Namespace::new().tool("list", ..))
///     .namespace("admin", Namespace::new().tool("purge", echo));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Namespace {
    description: Option<String>,
    unavailable: Option<Unavailable>,
    entries: Vec<(String, Entry)>,
}

/// Marks a namespace whose tools cannot be served right now (its backend is down), with the
/// reason shown to the program and an optional callback run on every attempt to use it.
///
/// A program that reaches a path under the namespace that has no tool (`tools.git.log(...)`
/// while the `git` server is down) gets a catchable error of kind `ToolFailure` with the message
/// `tools.git.log cannot be called: <reason>`, so write the reason for the model: what is wrong
/// and what to do (continue without these tools, or try again later). `on_call` receives the
/// dotted path (`git.log`); it runs synchronously inside the interpreter, so it must return
/// quickly (start a restart in the background, don't wait for it).
///
/// ```
/// use codemode::namespace::Unavailable;
/// use codemode::{CodeMode, Namespace};
/// let cm = CodeMode::builder()
///     .namespace("git", Namespace::new().unavailable(Unavailable::new(
///         "the 'git' server failed to start; continue without tools.git")))
///     .build()
///     .unwrap();
/// assert_eq!(cm.tools().unavailable_message("git.log").as_deref(),
///     Some("tools.git.log cannot be called: the 'git' server failed to start; continue without tools.git"));
/// ```
#[derive(Clone)]
pub struct Unavailable {
    reason: String,
    on_call: Option<OnCall>,
}

/// The hook [`Unavailable::on_call`] runs with the dotted path the program tried to use.
type OnCall = Arc<dyn Fn(&str) + Send + Sync>;

impl Unavailable {
    /// Unavailable for `reason` (one or two sentences for the model: why, and what to do).
    pub fn new(reason: impl Into<String>) -> Self {
        Unavailable {
            reason: reason.into(),
            on_call: None,
        }
    }

    /// Run `f(path)` on every attempt to use a path under the namespace (e.g. to start a
    /// bounded restart of its server). It must not block.
    pub fn on_call(mut self, f: impl Fn(&str) + Send + Sync + 'static) -> Self {
        self.on_call = Some(Arc::new(f));
        self
    }

    /// The reason given at construction.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}

impl std::fmt::Debug for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Unavailable")
            .field("reason", &self.reason)
            .field("on_call", &self.on_call.is_some())
            .finish()
    }
}

#[derive(Clone, Debug)]
enum Entry {
    Tool(Tool),
    Namespace(Namespace),
}

impl Namespace {
    /// An empty namespace without description.
    pub fn new() -> Self {
        Namespace::default()
    }

    /// Set the description.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// Mark the namespace unavailable (see [`Unavailable`]). It may still hold tools; only
    /// paths under it without a tool are affected.
    pub fn unavailable(mut self, unavailable: Unavailable) -> Self {
        self.unavailable = Some(unavailable);
        self
    }

    /// Add a tool under `key` (dots split into segments).
    pub fn tool(mut self, key: impl Into<String>, tool: Tool) -> Self {
        self.entries.push((key.into(), Entry::Tool(tool)));
        self
    }

    /// Add a nested namespace under `key` (dots split into segments).
    pub fn namespace(mut self, key: impl Into<String>, namespace: Namespace) -> Self {
        self.entries.push((key.into(), Entry::Namespace(namespace)));
        self
    }

    /// Add many tools at once (e.g. from a map of key → tool).
    pub fn tools<K: Into<String>>(mut self, tools: impl IntoIterator<Item = (K, Tool)>) -> Self {
        for (k, t) in tools {
            self.entries.push((k.into(), Entry::Tool(t)));
        }
        self
    }
}

/// Split a key or path into segments. Errors: [`BuildError::EmptySegment`] when any segment is empty.
pub fn split_path(path: &str) -> Result<Vec<&str>, BuildError> {
    let segs: Vec<&str> = path.split('.').collect();
    if segs.iter().any(|s| s.is_empty()) {
        return Err(BuildError::EmptySegment {
            path: path.to_string(),
        });
    }
    Ok(segs)
}

/// A tool in a [`ToolTree`] with its compiled schemas.
#[derive(Clone, Debug)]
pub struct ToolEntry {
    /// Canonical dotted path.
    pub path: String,
    /// The tool.
    pub tool: Tool,
    pub(crate) input: CompiledSchema,
    pub(crate) output: Option<CompiledSchema>,
}

/// The validated tool tree: canonical dotted paths → tools, and namespace descriptions.
#[derive(Clone, Debug, Default)]
pub struct ToolTree {
    tools: BTreeMap<String, Arc<ToolEntry>>,
    namespaces: BTreeMap<String, String>,
    unavailable: BTreeMap<String, Unavailable>,
}

impl ToolTree {
    /// The tool at a canonical path.
    pub fn get(&self, path: &str) -> Option<&Arc<ToolEntry>> {
        self.tools.get(path)
    }

    /// All tools, sorted by canonical path (byte order).
    pub fn tools(&self) -> impl Iterator<Item = &Arc<ToolEntry>> {
        self.tools.values()
    }

    /// All canonical tool paths, sorted.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.tools.keys().map(String::as_str)
    }

    /// Number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// `true` when there are no tools.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// The description of the namespace at `path`, if one was given.
    pub fn namespace_description(&self, path: &str) -> Option<&str> {
        self.namespaces.get(path).map(String::as_str)
    }

    /// Descriptions of the namespaces enclosing `path` (outermost first).
    pub fn enclosing_descriptions<'a>(
        &'a self,
        path: &'a str,
    ) -> impl Iterator<Item = &'a str> + 'a {
        path.match_indices('.')
            .filter_map(move |(i, _)| self.namespace_description(&path[..i]))
    }

    /// Namespaces marked [`Unavailable`], by canonical path, sorted.
    pub fn unavailable(&self) -> impl Iterator<Item = (&str, &Unavailable)> {
        self.unavailable.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// `true` when some namespace is marked [`Unavailable`].
    pub fn has_unavailable(&self) -> bool {
        !self.unavailable.is_empty()
    }

    /// The innermost unavailable namespace that is `path` or encloses it (whole segments).
    pub fn unavailable_for(&self, path: &str) -> Option<(&str, &Unavailable)> {
        // Candidates: `path` itself, then each prefix ending before a '.', longest first.
        let cuts = std::iter::once(path.len()).chain(path.rmatch_indices('.').map(|(i, _)| i));
        for cut in cuts {
            if let Some((k, v)) = self.unavailable.get_key_value(&path[..cut]) {
                return Some((k.as_str(), v));
            }
        }
        None
    }

    /// For a path without a tool under an unavailable namespace: runs its `on_call` callback
    /// and returns the message of the `ToolFailure` the program gets,
    /// `tools.<path> cannot be called: <reason>`. `None` when no unavailable namespace encloses
    /// `path` or a tool lives at `path`. The tool expression is written in the default [`crate::Language`]; a runtime writes it
    /// in its own.
    pub fn unavailable_message(&self, path: &str) -> Option<String> {
        self.unavailable_message_in(path, crate::guests::notation(crate::Language::default()))
    }

    /// [`ToolTree::unavailable_message`] with the tool expression in the words of `n`.
    pub(crate) fn unavailable_message_in(
        &self,
        path: &str,
        n: &dyn codemode_guest::Notation,
    ) -> Option<String> {
        if self.tools.contains_key(path) {
            return None;
        }
        let (_, u) = self.unavailable_for(path)?;
        if let Some(f) = &u.on_call {
            f(path);
        }
        Some(format!(
            "{} cannot be called: {}",
            n.tool_expression(path),
            u.reason
        ))
    }

    pub(crate) fn insert_tool(
        &mut self,
        prefix: &[String],
        key: &str,
        tool: Tool,
    ) -> Result<(), BuildError> {
        let path = join(prefix, split_path(key)?);
        // Schemas the tool's maker compiled already are used as they are.
        let (tool, input, output) = tool.take_compiled();
        let input = match input {
            Some(c) => c,
            None => CompiledSchema::compile(tool.input_schema()).map_err(|message| {
                BuildError::InvalidSchema {
                    path: path.clone(),
                    which: "input",
                    message,
                }
            })?,
        };
        let output =
            match (output, tool.output_schema()) {
                (Some(c), _) => Some(c),
                (None, Some(s)) => Some(CompiledSchema::compile(s).map_err(|message| {
                    BuildError::InvalidSchema {
                        path: path.clone(),
                        which: "output",
                        message,
                    }
                })?),
                (None, None) => None,
            };
        if self.tools.contains_key(&path) {
            return Err(BuildError::DuplicateTool { path });
        }
        self.tools.insert(
            path.clone(),
            Arc::new(ToolEntry {
                path,
                tool,
                input,
                output,
            }),
        );
        Ok(())
    }

    pub(crate) fn insert_root(&mut self, root: Namespace) -> Result<(), BuildError> {
        for (k, e) in root.entries {
            match e {
                Entry::Tool(t) => self.insert_tool(&[], &k, t)?,
                Entry::Namespace(n) => self.insert_namespace(&[], &k, n)?,
            }
        }
        Ok(())
    }

    pub(crate) fn insert_namespace(
        &mut self,
        prefix: &[String],
        key: &str,
        ns: Namespace,
    ) -> Result<(), BuildError> {
        let segs = split_path(key)?;
        let mut full: Vec<String> = prefix.to_vec();
        full.extend(segs.iter().map(|s| s.to_string()));
        if let Some(d) = ns.description {
            let path = full.join(".");
            if self.namespaces.contains_key(&path) {
                return Err(BuildError::DuplicateNamespaceDescription { path });
            }
            self.namespaces.insert(path, d);
        }
        if let Some(u) = ns.unavailable {
            // Marked twice (two `namespace(..)` calls for one path): the last mark wins.
            self.unavailable.insert(full.join("."), u);
        }
        for (k, e) in ns.entries {
            match e {
                Entry::Tool(t) => self.insert_tool(&full, &k, t)?,
                Entry::Namespace(n) => self.insert_namespace(&full, &k, n)?,
            }
        }
        Ok(())
    }
}

fn join(prefix: &[String], segs: Vec<&str>) -> String {
    let mut out = String::new();
    for s in prefix.iter().map(String::as_str).chain(segs) {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_rejects_empty_segments() {
        assert_eq!(split_path("a.b").unwrap(), vec!["a", "b"]);
        for bad in ["", ".a", "a.", "a..b", "."] {
            assert!(
                matches!(split_path(bad), Err(BuildError::EmptySegment { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn unavailable_namespaces_match_whole_segments_innermost_first() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let calls = Arc::new(AtomicUsize::new(0));
        let seen = calls.clone();
        let echo = Tool::new(
            "Echo.",
            serde_json::json!({"type": "object"}),
            |v| async move { Ok(v) },
        );
        let mut tree = ToolTree::default();
        tree.insert_root(
            Namespace::new()
                .namespace(
                    "git",
                    Namespace::new().unavailable(Unavailable::new("git is down.").on_call(
                        move |_| {
                            seen.fetch_add(1, Ordering::SeqCst);
                        },
                    )),
                )
                .namespace(
                    "a",
                    Namespace::new()
                        .unavailable(Unavailable::new("a is down."))
                        .tool("kept", echo)
                        .namespace("b", Namespace::new().unavailable(Unavailable::new("b."))),
                ),
        )
        .unwrap();
        assert!(tree.has_unavailable());
        assert_eq!(
            tree.unavailable().map(|(p, _)| p).collect::<Vec<_>>(),
            ["a", "a.b", "git"]
        );
        assert_eq!(tree.unavailable_for("git").unwrap().0, "git");
        assert_eq!(tree.unavailable_for("git.log.x").unwrap().0, "git");
        assert_eq!(tree.unavailable_for("a.b.c").unwrap().0, "a.b");
        assert_eq!(tree.unavailable_for("a.bc").unwrap().0, "a");
        assert!(tree.unavailable_for("gitx.log").is_none());
        assert!(tree.unavailable_for("gi").is_none());
        assert_eq!(calls.load(Ordering::SeqCst), 0);
        assert_eq!(
            tree.unavailable_message("git.log").as_deref(),
            Some("tools.git.log cannot be called: git is down.")
        );
        assert_eq!(
            tree.unavailable_message("git.dash-name").as_deref(),
            Some(r#"tools.git["dash-name"] cannot be called: git is down."#)
        );
        assert_eq!(calls.load(Ordering::SeqCst), 2);
        // A tool under an unavailable namespace is still a tool.
        assert_eq!(tree.unavailable_message("a.kept"), None);
        assert_eq!(
            tree.unavailable_message("a.other").as_deref(),
            Some("tools.a.other cannot be called: a is down.")
        );
    }

    #[test]
    fn join_prefix_and_segments() {
        assert_eq!(join(&["a".into(), "b".into()], vec!["c", "d"]), "a.b.c.d");
        assert_eq!(join(&[], vec!["x"]), "x");
    }
}
