//! The `fs` extension of `--allow-read DIR`: read-only access to one directory tree.
//!
//! - `fs.read(path)` → the file's text (UTF-8). Files over [`MAX_READ_BYTES`] and files that are
//!   not UTF-8 are refused.
//! - `fs.list(path?)` → the directory's entries sorted by name, each
//!   `{ name = "a.txt", type = "file"|"dir"|"symlink"|"other", size = <bytes> }` (a symlink is
//!   reported as such, not followed). Without an argument, the allowed directory itself. More
//!   than [`MAX_LIST_ENTRIES`] entries are refused.
//!
//! ## Confinement
//! `path` is relative to DIR (an absolute path is accepted only if it lies inside DIR). A path
//! with a `..` component is refused outright. The path is then resolved with
//! [`std::fs::canonicalize`] (which follows every symlink) and must still lie inside DIR's own
//! canonical path, so a symlink inside DIR that points outside it is refused too. (A symlink swapped
//! in between that check and the read could still escape: this guards against a model's
//! mistakes, not against a concurrent local attacker.)
//!
//! Errors are catchable Lua errors whose message says what went wrong and what to do instead.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use codemode::{Extension, ToolError};
use serde_json::{Value, json};

/// Largest file `fs.read` returns (10 MiB).
pub const MAX_READ_BYTES: u64 = 10 * 1024 * 1024;
/// Most entries `fs.list` returns.
pub const MAX_LIST_ENTRIES: usize = 10_000;

/// The directory the extension may read, canonicalized once.
#[derive(Clone, Debug)]
pub struct AllowedDir {
    root: PathBuf,
}

impl AllowedDir {
    /// Checks that `dir` is an existing directory. Errors: a message for `--allow-read`.
    pub fn new(dir: &Path) -> Result<Self, String> {
        let root = std::fs::canonicalize(dir)
            .map_err(|e| format!("--allow-read {}: {e}", dir.display()))?;
        if !root.is_dir() {
            return Err(format!("--allow-read {}: not a directory", dir.display()));
        }
        Ok(AllowedDir { root })
    }

    /// Resolves a program-given path to a canonical path inside the directory.
    pub fn resolve(&self, func: &str, path: &str) -> Result<PathBuf, String> {
        if path.contains('\0') {
            return Err(format!("{func}: the path contains a NUL character"));
        }
        let p = Path::new(path);
        if p.components().any(|c| c == Component::ParentDir) {
            return Err(format!(
                "{func}: '{path}' contains '..'; paths may not leave the allowed directory. Use a path relative to it (fs.list() shows its top level)."
            ));
        }
        let joined = if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        };
        let real = std::fs::canonicalize(&joined).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("{func}: '{path}' does not exist; fs.list(dir) shows what is there")
            }
            _ => format!("{func}: cannot open '{path}': {e}"),
        })?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "{func}: '{path}' is outside the allowed directory (symlinks and absolute paths may not leave it); use a path relative to it"
            ));
        }
        Ok(real)
    }

    /// `fs.read(path)`.
    pub fn read(&self, path: &str) -> Result<String, String> {
        let real = self.resolve("fs.read", path)?;
        if real.is_dir() {
            return Err(format!(
                "fs.read: '{path}' is a directory; use fs.list(\"{path}\")"
            ));
        }
        let file = std::fs::File::open(&real)
            .map_err(|e| format!("fs.read: cannot open '{path}': {e}"))?;
        let mut buf = Vec::new();
        file.take(MAX_READ_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("fs.read: cannot read '{path}': {e}"))?;
        if buf.len() as u64 > MAX_READ_BYTES {
            return Err(format!(
                "fs.read: '{path}' is larger than {} MiB; it cannot be read whole",
                MAX_READ_BYTES / (1024 * 1024)
            ));
        }
        String::from_utf8(buf).map_err(|_| format!("fs.read: '{path}' is not UTF-8 text"))
    }

    /// `fs.list(path)`.
    pub fn list(&self, path: &str) -> Result<Value, String> {
        let real = self.resolve("fs.list", path)?;
        if !real.is_dir() {
            return Err(format!(
                "fs.list: '{path}' is not a directory; use fs.read(\"{path}\") for a file"
            ));
        }
        let mut entries = Vec::new();
        let dir =
            std::fs::read_dir(&real).map_err(|e| format!("fs.list: cannot list '{path}': {e}"))?;
        for entry in dir {
            let entry = entry.map_err(|e| format!("fs.list: cannot list '{path}': {e}"))?;
            if entries.len() == MAX_LIST_ENTRIES {
                return Err(format!(
                    "fs.list: '{path}' has more than {MAX_LIST_ENTRIES} entries; list a subdirectory"
                ));
            }
            let meta = entry.path().symlink_metadata().ok();
            let kind = match &meta {
                Some(m) if m.file_type().is_symlink() => "symlink",
                Some(m) if m.is_dir() => "dir",
                Some(m) if m.is_file() => "file",
                _ => "other",
            };
            let size = meta.as_ref().map(|m| m.len()).unwrap_or(0);
            entries.push((entry.file_name().to_string_lossy().into_owned(), kind, size));
        }
        entries.sort();
        Ok(Value::Array(
            entries
                .into_iter()
                .map(|(name, kind, size)| json!({"name": name, "type": kind, "size": size}))
                .collect(),
        ))
    }
}

/// The path argument of a call: `args[0]` as a string (`default` when absent).
fn path_arg(func: &str, args: &[Value], default: Option<&str>) -> Result<String, ToolError> {
    if args.len() > 1 {
        return Err(ToolError::new(format!(
            "{func} takes one path argument; got {}",
            args.len()
        )));
    }
    match (args.first(), default) {
        (Some(Value::String(s)), _) => Ok(s.clone()),
        (None | Some(Value::Null), Some(d)) => Ok(d.to_string()),
        (None | Some(Value::Null), None) => Err(ToolError::new(format!(
            "{func}(path) needs a path string, e.g. {func}(\"notes.txt\")"
        ))),
        (Some(other), _) => Err(ToolError::new(format!(
            "{func}(path) needs a path string; got {}",
            match other {
                Value::Bool(_) => "a boolean",
                Value::Number(_) => "a number",
                Value::Array(_) | Value::Object(_) => "a table",
                _ => "a value",
            }
        ))),
    }
}

/// The `fs` extension confined to `dir`.
pub fn extension(dir: AllowedDir) -> Extension {
    let dir = Arc::new(dir);
    let d1 = dir.clone();
    let d2 = dir;
    Extension::new("fs")
        .function("read", move |args: Vec<Value>| {
            let dir = d1.clone();
            async move {
                let path = path_arg("fs.read", &args, None)?;
                tokio::task::spawn_blocking(move || dir.read(&path))
                    .await
                    .map_err(ToolError::internal)?
                    .map(Value::String)
                    .map_err(ToolError::new)
            }
        })
        .function("list", move |args: Vec<Value>| {
            let dir = d2.clone();
            async move {
                let path = path_arg("fs.list", &args, Some("."))?;
                tokio::task::spawn_blocking(move || dir.list(&path))
                    .await
                    .map_err(ToolError::internal)?
                    .map_err(ToolError::new)
            }
        })
}

/// A short note for the instructions: what `fs` offers.
pub const INSTRUCTIONS_NOTE: &str = "## Files (read-only)\n\
`fs.read(path) -> string` returns a UTF-8 text file (at most 10 MiB); \
`fs.list(path?) -> { { name: string, type: \"file\"|\"dir\"|\"symlink\"|\"other\", size: integer } }` lists a directory \
(default: the top). Paths are relative to the allowed directory; `..` and links leading outside it are refused. \
These are host functions, not tools: they are not in `tools` and `search` does not find them.\n";

/// Append [`INSTRUCTIONS_NOTE`] to an instructions text, after one blank line.
pub fn append_instructions_note(text: &mut String) {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push('\n');
    text.push_str(INSTRUCTIONS_NOTE);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn scratch() -> PathBuf {
        static N: AtomicUsize = AtomicUsize::new(0);
        let d = std::env::temp_dir().join(format!(
            "codemode-fs-ext-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        std::fs::write(d.join("a.txt"), "hello").unwrap();
        std::fs::write(d.join("sub/b.txt"), "inner").unwrap();
        d
    }

    #[test]
    fn reads_and_lists_inside() {
        let d = scratch();
        let dir = AllowedDir::new(&d).unwrap();
        assert_eq!(dir.root, std::fs::canonicalize(&d).unwrap());
        assert_eq!(dir.read("a.txt").unwrap(), "hello");
        assert_eq!(dir.read("./sub/b.txt").unwrap(), "inner");
        assert_eq!(
            dir.read(d.join("a.txt").to_str().unwrap()).unwrap(),
            "hello"
        );
        assert_eq!(
            dir.list(".").unwrap(),
            json!([{"name": "a.txt", "type": "file", "size": 5}, {"name": "sub", "type": "dir", "size": std::fs::metadata(d.join("sub")).unwrap().len()}])
        );
    }

    #[cfg(unix)]
    #[test]
    fn refuses_escapes() {
        let d = scratch();
        std::os::unix::fs::symlink("/etc", d.join("etc")).unwrap();
        std::os::unix::fs::symlink("/etc/hostname", d.join("host")).unwrap();
        std::os::unix::fs::symlink("a.txt", d.join("alias")).unwrap();
        let dir = AllowedDir::new(&d).unwrap();
        let e = dir.read("etc/passwd").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        let e = dir.read("host").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        let e = dir.list("etc").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        let e = dir.read("../a.txt").unwrap_err();
        assert!(e.contains("contains '..'"), "{e}");
        let e = dir.read("sub/../../x").unwrap_err();
        assert!(e.contains("contains '..'"), "{e}");
        let e = dir.read("/etc/passwd").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        // A symlink that stays inside is fine; listing shows it as a symlink.
        assert_eq!(dir.read("alias").unwrap(), "hello");
        let list = dir.list("").unwrap();
        assert!(
            list.as_array()
                .unwrap()
                .contains(&json!({"name": "etc", "type": "symlink", "size": 4})),
            "{list}"
        );
    }

    #[test]
    fn refuses_big_binary_missing_and_wrong_kinds() {
        let d = scratch();
        std::fs::write(d.join("bin"), [0xff, 0xfe, 0x00]).unwrap();
        let big = std::fs::File::create(d.join("big")).unwrap();
        big.set_len(MAX_READ_BYTES + 1).unwrap();
        let dir = AllowedDir::new(&d).unwrap();
        assert_eq!(
            dir.read("bin").unwrap_err(),
            "fs.read: 'bin' is not UTF-8 text"
        );
        assert_eq!(
            dir.read("big").unwrap_err(),
            "fs.read: 'big' is larger than 10 MiB; it cannot be read whole"
        );
        assert_eq!(
            dir.read("nope.txt").unwrap_err(),
            "fs.read: 'nope.txt' does not exist; fs.list(dir) shows what is there"
        );
        assert_eq!(
            dir.read("sub").unwrap_err(),
            "fs.read: 'sub' is a directory; use fs.list(\"sub\")"
        );
        assert_eq!(
            dir.list("a.txt").unwrap_err(),
            "fs.list: 'a.txt' is not a directory; use fs.read(\"a.txt\") for a file"
        );
        assert!(
            AllowedDir::new(&d.join("a.txt"))
                .unwrap_err()
                .ends_with("not a directory")
        );
        assert!(AllowedDir::new(&d.join("missing")).is_err());
    }

    #[test]
    fn path_arguments_are_checked() {
        assert_eq!(path_arg("fs.list", &[], Some(".")).unwrap(), ".");
        assert_eq!(
            path_arg("fs.read", &[], None).unwrap_err().message(),
            "fs.read(path) needs a path string, e.g. fs.read(\"notes.txt\")"
        );
        assert_eq!(
            path_arg("fs.read", &[json!(5)], None)
                .unwrap_err()
                .message(),
            "fs.read(path) needs a path string; got a number"
        );
        assert_eq!(
            path_arg("fs.read", &[json!("a"), json!("b")], None)
                .unwrap_err()
                .message(),
            "fs.read takes one path argument; got 2"
        );
    }
}
