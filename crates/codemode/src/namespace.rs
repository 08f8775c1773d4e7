//! The tool tree: [`Namespace`] (an optional description plus nested tools and namespaces),
//! path canonicalization ([`split_path`]), and [`ToolTree`], the validated, flattened tree a
//! [`crate::CodeMode`] is built on.
//!
//! Keys with dots split into segments (`"issues.list"` ≡ `issues: { list }`); an empty segment
//! (`""`, `"a..b"`, `".a"`, `"a."`) is an error at construction; a path may hold a tool and
//! children at once; the same tool path twice is an error. Canonical paths join segments with `.`.

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
    entries: Vec<(String, Entry)>,
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

    pub(crate) fn insert_tool(
        &mut self,
        prefix: &[String],
        key: &str,
        tool: Tool,
    ) -> Result<(), BuildError> {
        let path = join(prefix, split_path(key)?);
        let input = CompiledSchema::compile(tool.input_schema()).map_err(|message| {
            BuildError::InvalidSchema {
                path: path.clone(),
                which: "input",
                message,
            }
        })?;
        let output =
            match tool.output_schema() {
                Some(s) => Some(CompiledSchema::compile(s).map_err(|message| {
                    BuildError::InvalidSchema {
                        path: path.clone(),
                        which: "output",
                        message,
                    }
                })?),
                None => None,
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
    fn join_prefix_and_segments() {
        assert_eq!(join(&["a".into(), "b".into()], vec!["c", "d"]), "a.b.c.d");
        assert_eq!(join(&[], vec!["x"]), "x");
    }
}
