//! The one missing-tool policy ([`codemode_guest::MissingTool`]): what a program is told when it
//! calls a tool path that does not exist, in one wording for every guest (tool expressions and
//! the `search` example come from the guest's [`codemode_guest::Language`]).
//!
//! - A path under a namespace the host knows but cannot serve now (a downstream MCP server that
//!   is down): `ToolFailure` with the namespace's message.
//! - Otherwise `UnknownTool`: `unknown tool 'tools.x.y' (did you mean tools.x.z?)` with the
//!   nearest paths as suggestions; without a near path, the contents of the deepest existing
//!   namespace above it (up to [`MAX_LISTED_NAMES`]) or "no tool has this path", and a `search`
//!   call to find tools. Ranking and listing cost work proportional to the number of tools:
//!   the guest asks for them (`rank`) for the first few errors of a run only, and charges the
//!   work as fuel.

use std::sync::Arc;

use codemode_guest::{ErrorKind, GuestError, Language, MissingTool};

use crate::namespace::ToolTree;
use crate::search::SearchIndex;

/// Names of a namespace listed in an unknown-tool message; the rest are counted.
pub const MAX_LISTED_NAMES: usize = 20;

/// The host's missing-tool policy over one tool tree.
pub(crate) struct HostMissing {
    pub(crate) tree: Arc<ToolTree>,
    pub(crate) index: Arc<SearchIndex>,
    pub(crate) lang: &'static dyn Language,
}

impl HostMissing {
    /// The sorted child names of the deepest existing namespace above `path` (not the root),
    /// with the namespace's path.
    fn deepest_namespace(&self, path: &str) -> Option<(String, Vec<String>)> {
        let segs: Vec<&str> = path.split('.').collect();
        for k in (1..segs.len()).rev() {
            let prefix = segs[..k].join(".");
            let mut names: Vec<String> = self
                .tree
                .paths()
                .filter_map(|p| p.strip_prefix(prefix.as_str())?.strip_prefix('.'))
                .map(|rest| rest.split('.').next().unwrap_or(rest).to_string())
                .collect();
            names.sort();
            names.dedup();
            if !names.is_empty() {
                return Some((prefix, names));
            }
        }
        None
    }
}

impl HostMissing {
    /// `tools.github.list_issues` where no top-level name is `github`: say that the namespace
    /// does not exist and list the namespaces (up to [`MAX_LISTED_NAMES`]), instead of a
    /// "did you mean" into an unrelated namespace. A near spelling of an existing namespace
    /// (`tools.crn.list`) is left to the ordinary suggestions.
    fn missing_namespace(&self, path: &str) -> Option<GuestError> {
        let (first, _) = path.split_once('.')?;
        let mut tops: Vec<&str> = self
            .tree
            .paths()
            .map(|p| p.split('.').next().unwrap_or(p))
            .collect();
        tops.sort_unstable();
        tops.dedup();
        if tops.is_empty() || tops.contains(&first) {
            return None;
        }
        if tops
            .iter()
            .any(|t| crate::search::edit_distance(t, first) <= 2 && first.len() > 2)
        {
            return None;
        }
        let lang = self.lang;
        let more = tops.len().saturating_sub(MAX_LISTED_NAMES);
        let mut list = tops
            .iter()
            .take(MAX_LISTED_NAMES)
            .map(|t| lang.tool_expression(t))
            .collect::<Vec<_>>()
            .join(", ");
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        let search_example = lang.call_example("search", &[("query", &lang.quote("..."))]);
        let mut e = GuestError::new(
            ErrorKind::UnknownTool,
            format!(
                "unknown tool '{}': there is no namespace '{first}'; the namespaces are: {list}; use {search_example} to find tools by what they do",
                lang.tool_expression(path)
            ),
        );
        e.suggestions = vec![format!(
            "Use {} to find available tools.",
            lang.call_example("search", &[("query", &lang.quote(path))])
        )];
        Some(e)
    }
}

impl MissingTool for HostMissing {
    fn missing(&self, path: &str, rank: bool) -> GuestError {
        if let Some(message) = self.tree.unavailable_message_in(path, self.lang) {
            return GuestError::new(ErrorKind::ToolFailure, message);
        }
        let lang = self.lang;
        let expr = lang.tool_expression(path);
        let search_example = lang.call_example("search", &[("query", &lang.quote("..."))]);
        if self.tree.get(path).is_some() {
            // `tools["git.log"]`: the whole dotted path written as one key (a tool path the
            // guest did not find, yet the tree has): each segment is its own key.
            return GuestError::new(
                ErrorKind::UnknownTool,
                format!(
                    "no tool is named by the one key {}: a dotted path is one key per segment; write {expr}",
                    lang.quote(path)
                ),
            );
        }
        // Listing the namespaces costs work proportional to the tools: ranked errors only.
        if rank && let Some(e) = self.missing_namespace(path) {
            return e;
        }
        let near: Vec<String> = if rank {
            self.index
                .suggest(path)
                .iter()
                .map(|p| lang.tool_expression(p))
                .collect()
        } else {
            Vec::new()
        };
        let listing = if near.is_empty() && rank {
            self.deepest_namespace(path)
        } else {
            None
        };
        let listed = listing.is_some();
        let mut e = match near.first() {
            Some(best) => GuestError::new(
                ErrorKind::UnknownTool,
                format!("unknown tool '{expr}' (did you mean {best}?)"),
            ),
            None => match listing {
                Some((ns, mut names)) => {
                    let more = names.len().saturating_sub(MAX_LISTED_NAMES);
                    names.truncate(MAX_LISTED_NAMES);
                    let mut list = names.join(", ");
                    if more > 0 {
                        list.push_str(&format!(" and {more} more"));
                    }
                    let last = path.rsplit('.').next().unwrap_or(path);
                    GuestError::new(
                        ErrorKind::UnknownTool,
                        format!(
                            "unknown tool '{expr}': {} has no tool '{last}'; it contains: {list}; use {search_example} to find tools by what they do",
                            lang.tool_expression(&ns)
                        ),
                    )
                }
                None => GuestError::new(
                    ErrorKind::UnknownTool,
                    format!(
                        "unknown tool '{expr}': no tool has this path; use {search_example} to find tool names"
                    ),
                ),
            },
        };
        // With nothing near and no namespace to list, point to `search`.
        e.suggestions = if near.is_empty() && !listed {
            vec![format!(
                "Use {} to find available tools.",
                lang.call_example("search", &[("query", &lang.quote(path))])
            )]
        } else {
            near
        };

        e
    }
}
