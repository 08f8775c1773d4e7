//! Tool names: operationIds split into namespace segments, sanitised; camelCase fallbacks from
//! the method and path; the seed's collision rules (collapse a conflicting prefix, then `_2`,
//! `_3`, ...).

use std::collections::HashSet;

use crate::limits::{MAX_NAME_FALLBACKS, MAX_NAME_SEGMENT_CHARS};

/// One segment made safe: runs of characters outside `[A-Za-z0-9_$]` become `_`, `_` is trimmed
/// at both ends, a leading digit gets a `_` prefix, an empty result is `operation`; at most
/// [`MAX_NAME_SEGMENT_CHARS`] characters.
pub fn sanitize(segment: &str) -> String {
    let mut out = String::new();
    let mut in_run = false;
    for c in segment.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('_');
            in_run = true;
        }
    }
    let mut s = out.trim_matches('_').to_string();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    if s.is_empty() {
        s = "operation".to_string();
    }
    s.chars().take(MAX_NAME_SEGMENT_CHARS).collect()
}

/// The name segments of an operation: its operationId split on `.` (and on `/` when
/// `split_slash`), each [`sanitize`]d; without an operationId, one camelCase segment of the
/// method and the path words (`GET /users/{id}` → `getUsersById`).
pub fn segments(
    operation_id: Option<&str>,
    method: &str,
    path: &str,
    split_slash: bool,
) -> Vec<String> {
    match operation_id {
        Some(id) if !id.is_empty() => id
            .split(|c| c == '.' || (split_slash && c == '/'))
            .map(sanitize)
            .collect(),
        _ => vec![sanitize(&fallback(method, path))],
    }
}

/// `method` lower-cased followed by each path word capitalised (the rest lower-cased); a
/// `{param}` segment gives `By<Param>`.
fn fallback(method: &str, path: &str) -> String {
    let mut s = method.to_ascii_lowercase();
    for seg in path.split('/').filter(|s| !s.is_empty()) {
        let (by, inner) = match seg.strip_prefix('{').and_then(|x| x.strip_suffix('}')) {
            Some(inner) => (true, inner),
            None => (false, seg),
        };
        if by {
            s.push_str("By");
        }
        for word in inner
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            s.push_str(&capitalize(&word.to_ascii_lowercase()));
        }
    }
    s
}

fn capitalize(w: &str) -> String {
    let mut c = w.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The names given so far, to resolve collisions. Skipped operations never reach it.
#[derive(Default)]
pub struct Names {
    tools: HashSet<String>,
    namespaces: HashSet<String>,
}

impl Names {
    fn available(&self, segs: &[String]) -> bool {
        let full = segs.join(".");
        if self.tools.contains(&full) || self.namespaces.contains(&full) {
            return false;
        }
        (1..segs.len()).all(|i| !self.tools.contains(&segs[..i].join(".")))
    }

    fn take(&mut self, segs: &[String]) -> String {
        for i in 1..segs.len() {
            self.namespaces.insert(segs[..i].join("."));
        }
        let full = segs.join(".");
        self.tools.insert(full.clone());
        full
    }

    /// A free dotted name for `segs`: as it is when free; else with the first prefix that is a
    /// tool collapsed into the next segment (`a.b` → `aB`); else `segs.join("_")` + `_2`, `_3`...
    /// `None` only after [`MAX_NAME_FALLBACKS`] tries.
    pub fn assign(&mut self, segs: &[String]) -> Option<String> {
        if self.available(segs) {
            return Some(self.take(segs));
        }
        if let Some(i) = (1..segs.len()).find(|&i| self.tools.contains(&segs[..i].join("."))) {
            let mut collapsed: Vec<String> = segs[..i - 1].to_vec();
            collapsed.push(format!("{}{}", segs[i - 1], capitalize(&segs[i])));
            collapsed.extend_from_slice(&segs[i + 1..]);
            if self.available(&collapsed) {
                return Some(self.take(&collapsed));
            }
        }
        let base = segs.join("_");
        (2..MAX_NAME_FALLBACKS + 2).find_map(|n| {
            let flat = vec![format!("{base}_{n}")];
            self.available(&flat).then(|| self.take(&flat))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn segs(id: &str) -> Vec<String> {
        segments(Some(id), "get", "/x", true)
    }

    #[test]
    fn sanitising() {
        assert_eq!(sanitize("list-users"), "list_users");
        assert_eq!(sanitize("__a  b__"), "a_b");
        assert_eq!(sanitize("2fa"), "_2fa");
        assert_eq!(sanitize("$x"), "$x");
        assert_eq!(sanitize("***"), "operation");
        assert_eq!(sanitize(&"a".repeat(500)).len(), MAX_NAME_SEGMENT_CHARS);
        assert_eq!(segs("group..other"), ["group", "operation", "other"]);
        assert_eq!(segs("repos/get"), ["repos", "get"]);
        assert_eq!(
            segments(Some("repos/get"), "get", "/", false),
            ["repos_get"]
        );
    }

    #[test]
    fn fallback_names() {
        assert_eq!(segments(None, "GET", "/users/{id}", true), ["getUsersById"]);
        assert_eq!(
            segments(
                None,
                "get",
                "/organizations/{organizationId}/users/{id}",
                true
            ),
            ["getOrganizationsByOrganizationidUsersById"]
        );
        assert_eq!(
            segments(Some(""), "post", "/user-groups", true),
            ["postUserGroups"]
        );
    }

    #[test]
    fn collisions() {
        let mut n = Names::default();
        assert_eq!(n.assign(&segs("group.item")).unwrap(), "group.item");
        assert_eq!(n.assign(&segs("group.item")).unwrap(), "group_item_2");
        assert_eq!(n.assign(&segs("group.item")).unwrap(), "group_item_3");
        // A prefix that is a tool collapses into the next segment.
        assert_eq!(n.assign(&segs("group.item.x")).unwrap(), "group.itemX");
        // A name that is a namespace already.
        assert_eq!(n.assign(&segs("group")).unwrap(), "group_2");
    }
}
