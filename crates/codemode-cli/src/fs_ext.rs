//! The `fs` extension of `--allow-read DIR`: read-only access to one directory tree.
//!
//! - `fs.read(path)` → the file's text (UTF-8). Files over [`MAX_READ_BYTES`] and files that are
//!   not UTF-8 are refused.
//! - `fs.list(path?)` → the directory's entries sorted by name, each
//!   `{ name = "a.txt", type = "file"|"dir"|"symlink"|"other", size = <bytes> }` (a symlink is
//!   reported as such, not followed). Without an argument, the allowed directory itself. More
//!   than [`MAX_LIST_ENTRIES`] entries are refused.
//! - In JavaScript (`--lang js`) also `fs.readFile(path)` (synchronous, like `fs.read`) and
//!   `fs.promises.readFile(path)` (a promise of the text), in Node's names; both take an optional
//!   encoding, `"utf8"` or `{ encoding: "utf8" }` (the text is always UTF-8). Lua gets only
//!   `fs.read` and `fs.list`.
//!
//! ## Confinement
//! DIR is opened once, when the extension is made, and every later access is relative to that
//! open directory (a capability, through the `cap-std` crate), never to a path name.
//!
//! 1. **Lexical check first.** `path` is relative to DIR; an absolute path is accepted only if it
//!    begins with DIR (as given or canonical), and is then taken relative to it. A path with a
//!    `..` component is refused outright. A path that fails this check is refused before anything
//!    is looked up, with the same message whether or not it exists on the host.
//! 2. **Opened beneath DIR.** The relative path is opened with `openat2(RESOLVE_BENEATH |
//!    RESOLVE_NO_MAGICLINKS)` (on kernels or sandboxes without `openat2`, `cap-std` walks the path
//!    one component at a time with `O_NOFOLLOW` and resolves each symlink itself). Symlinks that
//!    stay inside DIR are followed; one that is absolute or climbs out of DIR is refused as soon as
//!    it is met, before anything outside DIR is looked up, so the message does not say whether its
//!    target exists. A directory swapped for a symlink while a call is in flight cannot redirect
//!    it outside DIR: the kernel checks every step of the walk.
//! 3. **The opened file is checked, not the name.** `fs.read` reads only a regular file, checked
//!    on the opened descriptor (opened non-blocking, so a FIFO or device inside DIR is refused
//!    without waiting for a writer) before a byte is read, and at most [`MAX_READ_BYTES`] + 1
//!    bytes are read whatever its size. `fs.list` lists the opened directory; each entry's type
//!    and size are read relative to it, without following symlinks.
//!
//! Not covered: a hard link inside DIR to a file outside it is read like any file (hard links
//! cannot be told apart), and files DIR's own mount makes visible (bind mounts) count as inside.
//!
//! Errors are catchable errors (in JavaScript thrown, or the promise rejected) whose message says
//! what went wrong and what to do instead.

use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use cap_std::ambient_authority;
#[cfg(unix)]
use cap_std::fs::OpenOptionsExt;
use cap_std::fs::{Dir, OpenOptions};
use codemode::{Extension, ToolError};
use serde_json::{Value, json};

use crate::Lang;

/// Largest file `fs.read` returns (10 MiB).
pub const MAX_READ_BYTES: u64 = 10 * 1024 * 1024;
/// Most entries `fs.list` returns.
pub const MAX_LIST_ENTRIES: usize = 10_000;

/// The directory the extension may read: an open handle to it, plus the names it was given by
/// (for accepting absolute paths inside it).
#[derive(Debug)]
pub struct AllowedDir {
    /// DIR's canonical path.
    root: PathBuf,
    /// DIR made absolute without resolving symlinks (as the user wrote it).
    given: PathBuf,
    /// DIR itself, opened once; every access is relative to it.
    dir: Dir,
}

/// The one message for a path that is refused because it lies outside DIR (lexically, or through
/// a symlink met on the way): it never depends on whether the path exists on the host.
fn outside_message(func: &str, path: &str) -> String {
    format!(
        "{func}: '{path}' is outside the allowed directory (absolute paths and symlinks may not lead out of it); use a path relative to it (fs.list() shows its top level)"
    )
}

/// Whether `e` is cap-std's refusal of a path that leads outside the directory (openat2's
/// `EXDEV`, or a symlink out met by the manual walk). cap-std makes it a `PermissionDenied`
/// error of its own, without an OS error code, unlike a real `EACCES`.
fn is_escape(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::PermissionDenied && e.raw_os_error().is_none()
}

impl AllowedDir {
    /// Opens `dir`, which must be an existing directory. Errors: a message for `--allow-read`.
    pub fn new(dir: &Path) -> Result<Self, String> {
        let root = std::fs::canonicalize(dir)
            .map_err(|e| format!("--allow-read {}: {e}", dir.display()))?;
        if !root.is_dir() {
            return Err(format!("--allow-read {}: not a directory", dir.display()));
        }
        let given = std::path::absolute(dir).unwrap_or_else(|_| root.clone());
        let dir = Dir::open_ambient_dir(&root, ambient_authority())
            .map_err(|e| format!("--allow-read {}: {e}", dir.display()))?;
        Ok(AllowedDir { root, given, dir })
    }

    /// Turns a program-given path into a path relative to DIR, lexically (nothing on the host
    /// is looked at). `.` for DIR itself.
    pub fn relative(&self, func: &str, path: &str) -> Result<PathBuf, String> {
        if path.contains('\0') {
            return Err(format!("{func}: the path contains a NUL character"));
        }
        let p = Path::new(path);
        if p.components().any(|c| c == Component::ParentDir) {
            return Err(format!(
                "{func}: '{path}' contains '..'; paths may not leave the allowed directory. Use a path relative to it (fs.list() shows its top level)."
            ));
        }
        let rel = if p.has_root() {
            [&self.root, &self.given]
                .iter()
                .find_map(|base| p.strip_prefix(base).ok())
                .ok_or_else(|| outside_message(func, path))?
        } else {
            p
        };
        // Only plain names remain (no root, no `..`; `.` components are dropped).
        let clean: PathBuf = rel
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .collect();
        Ok(if clean.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            clean
        })
    }

    /// The message for a failed open or lookup of `path` beneath DIR.
    fn open_error(func: &str, path: &str, e: &std::io::Error) -> String {
        if is_escape(e) {
            return outside_message(func, path);
        }
        match e.kind() {
            std::io::ErrorKind::NotFound => {
                format!("{func}: '{path}' does not exist; fs.list(dir) shows what is there")
            }
            std::io::ErrorKind::NotADirectory if func == "fs.list" => {
                format!("fs.list: '{path}' is not a directory; use fs.read(\"{path}\") for a file")
            }
            std::io::ErrorKind::NotADirectory => format!(
                "{func}: '{path}' does not exist (a part of it is a file, not a directory); fs.list(dir) shows what is there"
            ),
            _ => format!("{func}: cannot open '{path}': {e}"),
        }
    }

    /// `fs.read(path)` (and `fs.readFile(path)`, ...: `func` is the function called, which the
    /// messages name).
    pub fn read(&self, func: &str, path: &str) -> Result<String, String> {
        let rel = self.relative(func, path)?;
        // Non-blocking, so that opening a FIFO does not wait for a writer; the type is checked on
        // the opened file below, before anything is read.
        let mut options = OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
        let file = self
            .dir
            .open_with(&rel, &options)
            .map_err(|e| Self::open_error(func, path, &e))?;
        let meta = file
            .metadata()
            .map_err(|e| format!("{func}: cannot open '{path}': {e}"))?;
        if meta.is_dir() {
            return Err(format!(
                "{func}: '{path}' is a directory; use fs.list(\"{path}\")"
            ));
        }
        if !meta.is_file() {
            return Err(format!(
                "{func}: '{path}' is not a regular file (a FIFO, socket or device); only regular files can be read"
            ));
        }
        if meta.len() > MAX_READ_BYTES {
            return Err(too_big(func, path));
        }
        let mut buf = Vec::new();
        file.take(MAX_READ_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("{func}: cannot read '{path}': {e}"))?;
        if buf.len() as u64 > MAX_READ_BYTES {
            return Err(too_big(func, path));
        }
        String::from_utf8(buf).map_err(|_| format!("{func}: '{path}' is not UTF-8 text"))
    }

    /// `fs.list(path)`.
    pub fn list(&self, path: &str) -> Result<Value, String> {
        let rel = self.relative("fs.list", path)?;
        let sub = self
            .dir
            .open_dir(&rel)
            .map_err(|e| Self::open_error("fs.list", path, &e))?;
        let mut entries = Vec::new();
        let dir = sub
            .entries()
            .map_err(|e| format!("fs.list: cannot list '{path}': {e}"))?;
        for entry in dir {
            let entry = entry.map_err(|e| format!("fs.list: cannot list '{path}': {e}"))?;
            if entries.len() == MAX_LIST_ENTRIES {
                return Err(format!(
                    "fs.list: '{path}' has more than {MAX_LIST_ENTRIES} entries; list a subdirectory"
                ));
            }
            // Relative to the opened directory, not following symlinks.
            let meta = entry.metadata().ok();
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

/// The message for a file over [`MAX_READ_BYTES`].
fn too_big(func: &str, path: &str) -> String {
    format!(
        "{func}: '{path}' is larger than {} MiB; it cannot be read whole",
        MAX_READ_BYTES / (1024 * 1024)
    )
}

/// What a program passed, in words of its language: `a boolean`, `a number`, `a table` (Lua) or
/// `an array`/`an object` (JavaScript).
fn noun(v: &Value, lang: Lang) -> &'static str {
    match (v, lang) {
        (Value::Bool(_), _) => "a boolean",
        (Value::Number(_), _) => "a number",
        (Value::String(_), _) => "a string",
        (Value::Array(_) | Value::Object(_), Lang::Lua) => "a table",
        (Value::Array(_), Lang::Js) => "an array",
        (Value::Object(_), Lang::Js) => "an object",
        (Value::Null, _) => "a value",
    }
}

/// The path argument of a call: `args[0]` as a string (`default` when absent).
fn path_arg(
    func: &str,
    args: &[Value],
    default: Option<&str>,
    lang: Lang,
) -> Result<String, ToolError> {
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
            noun(other, lang)
        ))),
    }
}

/// The arguments of Node's `readFile` forms: a path and an optional encoding, `"utf8"` /
/// `"utf-8"` or `{ encoding: "utf8" }` (the text is always UTF-8, so nothing else is accepted).
fn read_file_args(func: &str, args: &[Value]) -> Result<String, ToolError> {
    let (path, encoding) = match args {
        [] => return path_arg(func, args, None, Lang::Js),
        [path] => (path, None),
        [path, encoding] => (path, Some(encoding)),
        _ => {
            return Err(ToolError::new(format!(
                "{func}(path, encoding?) takes a path and at most an encoding; got {} arguments",
                args.len()
            )));
        }
    };
    let utf8 = |v: &Value| {
        v.as_str()
            .is_some_and(|e| e.eq_ignore_ascii_case("utf8") || e.eq_ignore_ascii_case("utf-8"))
    };
    match encoding {
        None | Some(Value::Null) => {}
        Some(e) if utf8(e) => {}
        Some(Value::Object(o))
            if o.keys().all(|k| k == "encoding")
                && o.get("encoding").is_none_or(|e| e.is_null() || utf8(e)) => {}
        Some(other) => {
            return Err(ToolError::new(format!(
                "{func}: only UTF-8 text can be read; give \"utf8\" as the encoding, or none, not {other}"
            )));
        }
    }
    path_arg(func, std::slice::from_ref(path), None, Lang::Js)
}

/// A reading function of the extension: `func` (`fs.read`, `fs.readFile`, ...) reads one file
/// through `dir`, its arguments checked by `node_args` rules (Node's optional encoding) or as
/// one path.
fn reader(
    dir: &Arc<AllowedDir>,
    func: &'static str,
    lang: Lang,
    node_args: bool,
) -> impl Fn(Vec<Value>) -> codemode::ExtensionFuture + Send + Sync + 'static {
    let dir = dir.clone();
    move |args: Vec<Value>| {
        let dir = dir.clone();
        Box::pin(async move {
            let path = if node_args {
                read_file_args(func, &args)?
            } else {
                path_arg(func, &args, None, lang)?
            };
            tokio::task::spawn_blocking(move || dir.read(func, &path))
                .await
                .map_err(ToolError::internal)?
                .map(Value::String)
                .map_err(ToolError::new)
        })
    }
}

/// The `fs` extension confined to `dir`, with the functions of `lang`: `fs.read` and `fs.list`,
/// and in JavaScript `fs.readFile` and the asynchronous `fs.promises.readFile` too.
pub fn extension(dir: AllowedDir, lang: Lang) -> Extension {
    let dir = Arc::new(dir);
    let list_dir = dir.clone();
    let fs = Extension::new("fs")
        .function("read", reader(&dir, "fs.read", lang, false))
        .function("list", move |args: Vec<Value>| {
            let dir = list_dir.clone();
            async move {
                let path = path_arg("fs.list", &args, Some("."), lang)?;
                tokio::task::spawn_blocking(move || dir.list(&path))
                    .await
                    .map_err(ToolError::internal)?
                    .map_err(ToolError::new)
            }
        });
    match lang {
        Lang::Lua => fs,
        Lang::Js => fs
            .function("readFile", reader(&dir, "fs.readFile", lang, true))
            .async_function(
                "promises.readFile",
                reader(&dir, "fs.promises.readFile", lang, true),
            ),
    }
}

/// A short note for the instructions of a Lua program: what `fs` offers.
pub const INSTRUCTIONS_NOTE: &str = "## Files (read-only)\n\
`fs.read(path) -> string` returns a UTF-8 text file (at most 10 MiB); \
`fs.list(path?) -> { { name: string, type: \"file\"|\"dir\"|\"symlink\"|\"other\", size: integer } }` lists a directory \
(default: the top). Paths are relative to the allowed directory; `..` and links leading outside it are refused. \
These are host functions, not tools: they are not in `tools` and `search` does not find them.\n";

/// [`INSTRUCTIONS_NOTE`] for a JavaScript program: Node's names, a promise form, TypeScript types.
pub const JS_INSTRUCTIONS_NOTE: &str = "## Files (read-only)\n\
`fs.readFile(path: string): string` returns a UTF-8 text file (at most 10 MiB), and \
`await fs.promises.readFile(path)` gives it as a promise; both accept Node's encoding argument `\"utf8\"` \
(`fs.read(path)` is the same as `fs.readFile(path)`). \
`fs.list(path?: string): Array<{ name: string; type: \"file\" | \"dir\" | \"symlink\" | \"other\"; size: number }>` \
lists a directory (default: the top). Paths are relative to the allowed directory; `..` and links leading outside it \
are refused (the call throws; the promise rejects). \
These are host functions, not tools: they are not in `tools` and `search` does not find them.\n";

/// Append the note for `lang` ([`INSTRUCTIONS_NOTE`], [`JS_INSTRUCTIONS_NOTE`]) to an
/// instructions text, after one blank line.
pub fn append_instructions_note(text: &mut String, lang: Lang) {
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text.push('\n');
    text.push_str(match lang {
        Lang::Lua => INSTRUCTIONS_NOTE,
        Lang::Js => JS_INSTRUCTIONS_NOTE,
    });
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
        assert_eq!(dir.read("fs.read", "a.txt").unwrap(), "hello");
        assert_eq!(dir.read("fs.read", "./sub/b.txt").unwrap(), "inner");
        assert_eq!(
            dir.read("fs.read", d.join("a.txt").to_str().unwrap())
                .unwrap(),
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
        let e = dir.read("fs.read", "etc/passwd").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        let e = dir.read("fs.read", "host").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        let e = dir.list("etc").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        let e = dir.read("fs.read", "../a.txt").unwrap_err();
        assert!(e.contains("contains '..'"), "{e}");
        let e = dir.read("fs.read", "sub/../../x").unwrap_err();
        assert!(e.contains("contains '..'"), "{e}");
        let e = dir.read("fs.read", "/etc/passwd").unwrap_err();
        assert!(e.contains("is outside the allowed directory"), "{e}");
        // A symlink that stays inside is fine; listing shows it as a symlink.
        assert_eq!(dir.read("fs.read", "alias").unwrap(), "hello");
        let list = dir.list("").unwrap();
        assert!(
            list.as_array()
                .unwrap()
                .contains(&json!({"name": "etc", "type": "symlink", "size": 4})),
            "{list}"
        );
    }

    /// A directory outside the scratch dir `d`, holding `secret.txt` ("SECRET") and `b.txt`.
    #[cfg(unix)]
    fn outside_of(d: &Path) -> PathBuf {
        let o = d.with_extension("outside");
        let _ = std::fs::remove_dir_all(&o);
        std::fs::create_dir_all(&o).unwrap();
        std::fs::write(o.join("secret.txt"), "SECRET").unwrap();
        std::fs::write(o.join("b.txt"), "SECRET").unwrap();
        o
    }

    #[cfg(unix)]
    #[test]
    fn outside_paths_get_one_message_whether_or_not_they_exist() {
        use std::os::unix::fs::symlink;
        let d = scratch();
        let o = outside_of(&d);
        let oname = o.file_name().unwrap().to_str().unwrap().to_string();
        symlink(o.join("secret.txt"), d.join("abs_there")).unwrap();
        symlink(o.join("missing.txt"), d.join("abs_missing")).unwrap();
        symlink(format!("../{oname}/secret.txt"), d.join("rel_there")).unwrap();
        symlink(format!("../{oname}/missing.txt"), d.join("rel_missing")).unwrap();
        symlink(&o, d.join("odir")).unwrap();
        let dir = AllowedDir::new(&d).unwrap();
        let there = o.join("secret.txt").display().to_string();
        let missing = o.join("missing.txt").display().to_string();
        let odir = format!("{}/", o.display());
        let pairs: [(&str, &str); 6] = [
            (&there, &missing),
            (&odir, "/no/such/dir/"),
            ("abs_there", "abs_missing"),
            ("rel_there", "rel_missing"),
            ("odir/secret.txt", "odir/missing.txt"),
            ("odir/", "odir/missing/"),
        ];
        let read = |p: &str| dir.read("fs.read", p).map(Value::String);
        let list = |p: &str| dir.list(p);
        type Call<'a> = &'a dyn Fn(&str) -> Result<Value, String>;
        let funcs: [(&str, Call); 2] = [("fs.read", &read), ("fs.list", &list)];
        for (func, f) in funcs {
            for (a, b) in pairs {
                let ea = f(a).unwrap_err();
                let eb = f(b).unwrap_err();
                assert_eq!(ea, outside_message(func, a), "{func}({a:?})");
                assert_eq!(eb, outside_message(func, b), "{func}({b:?})");
            }
        }
    }

    /// Swaps `sub` (a directory inside DIR) and `swap` (a symlink to a directory outside it)
    /// with `renameat2(RENAME_EXCHANGE)` as fast as it can for up to 3 s, while reading
    /// `sub/b.txt` and listing `sub`: nothing outside DIR may ever come back.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_directory_swapped_for_a_symlink_never_leads_outside() {
        use rustix::fs::{CWD, RenameFlags, renameat_with};
        use std::sync::atomic::AtomicBool;
        use std::time::{Duration, Instant};
        let d = scratch();
        let o = outside_of(&d);
        for (name, target) in [
            ("swap", o.display().to_string()),
            (
                "swap_rel",
                format!("../{}", o.file_name().unwrap().to_str().unwrap()),
            ),
        ] {
            std::os::unix::fs::symlink(&target, d.join(name)).unwrap();
            let dir = AllowedDir::new(&d).unwrap();
            let stop = Arc::new(AtomicBool::new(false));
            let swapper = {
                let (stop, a, b) = (stop.clone(), d.join("sub"), d.join(name));
                std::thread::spawn(move || {
                    let mut swaps = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
                        swaps += 1;
                    }
                    // Leave `sub` a directory again.
                    if swaps % 2 == 1 {
                        renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
                    }
                    swaps
                })
            };
            let (mut inside, mut refused, mut escaped) = (0u64, 0u64, Vec::new());
            let end = Instant::now() + Duration::from_secs(3);
            while Instant::now() < end && escaped.is_empty() {
                match dir.read("fs.read", "sub/b.txt") {
                    Ok(text) if text == "inner" => inside += 1,
                    Ok(text) => escaped.push(format!("read {text:?}")),
                    Err(_) => refused += 1,
                }
                match dir.list("sub") {
                    Ok(list) if list.to_string().contains("secret.txt") => {
                        escaped.push(format!("listed {list}"))
                    }
                    Ok(_) => inside += 1,
                    Err(_) => refused += 1,
                }
            }
            stop.store(true, Ordering::Relaxed);
            let swaps = swapper.join().unwrap();
            assert!(
                escaped.is_empty(),
                "{name}: outside DIR after {inside} reads inside, {refused} refused, {swaps} swaps: {escaped:?}"
            );
            assert!(
                inside > 0 && refused > 0 && swaps > 100,
                "{name}: {inside} inside, {refused} refused, {swaps} swaps"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        use rustix::fs::{CWD, FileType, Mode, OFlags, mknodat, open};
        let d = scratch();
        mknodat(
            CWD,
            d.join("pipe"),
            FileType::Fifo,
            Mode::RUSR | Mode::WUSR,
            0,
        )
        .unwrap();
        std::os::unix::fs::symlink("pipe", d.join("pipe_link")).unwrap();
        let dir = Arc::new(AllowedDir::new(&d).unwrap());
        for p in ["pipe", "pipe_link"] {
            let (tx, rx) = std::sync::mpsc::channel();
            let reader = dir.clone();
            std::thread::spawn(move || tx.send(reader.read("fs.read", p)));
            let Ok(r) = rx.recv_timeout(std::time::Duration::from_secs(5)) else {
                // Let the stuck reader go (a writer opening the FIFO unblocks it), then fail.
                let _w = open(
                    d.join("pipe"),
                    OFlags::WRONLY | OFlags::NONBLOCK,
                    Mode::empty(),
                );
                panic!("fs.read({p:?}) of a FIFO was still waiting after 5 s");
            };
            assert_eq!(
                r.unwrap_err(),
                format!(
                    "fs.read: '{p}' is not a regular file (a FIFO, socket or device); only regular files can be read"
                )
            );
        }
        assert_eq!(
            dir.list("pipe").unwrap_err(),
            "fs.list: 'pipe' is not a directory; use fs.read(\"pipe\") for a file"
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
            dir.read("fs.read", "bin").unwrap_err(),
            "fs.read: 'bin' is not UTF-8 text"
        );
        assert_eq!(
            dir.read("fs.read", "big").unwrap_err(),
            "fs.read: 'big' is larger than 10 MiB; it cannot be read whole"
        );
        assert_eq!(
            dir.read("fs.read", "nope.txt").unwrap_err(),
            "fs.read: 'nope.txt' does not exist; fs.list(dir) shows what is there"
        );
        assert_eq!(
            dir.read("fs.read", "sub").unwrap_err(),
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
        assert_eq!(path_arg("fs.list", &[], Some("."), Lang::Lua).unwrap(), ".");
        assert_eq!(
            path_arg("fs.read", &[], None, Lang::Lua)
                .unwrap_err()
                .message(),
            "fs.read(path) needs a path string, e.g. fs.read(\"notes.txt\")"
        );
        assert_eq!(
            path_arg("fs.read", &[json!(5)], None, Lang::Lua)
                .unwrap_err()
                .message(),
            "fs.read(path) needs a path string; got a number"
        );
        assert_eq!(
            path_arg("fs.read", &[json!("a"), json!("b")], None, Lang::Lua)
                .unwrap_err()
                .message(),
            "fs.read takes one path argument; got 2"
        );
        assert_eq!(
            path_arg("fs.read", &[json!([1])], None, Lang::Js)
                .unwrap_err()
                .message(),
            "fs.read(path) needs a path string; got an array"
        );
    }

    #[test]
    fn read_file_takes_nodes_utf8_encoding_only() {
        let f = "fs.readFile";
        for ok in [
            vec![json!("a.txt")],
            vec![json!("a.txt"), json!("utf8")],
            vec![json!("a.txt"), json!("UTF-8")],
            vec![json!("a.txt"), json!({"encoding": "utf-8"})],
            vec![json!("a.txt"), json!({})],
            vec![json!("a.txt"), Value::Null],
        ] {
            assert_eq!(read_file_args(f, &ok).unwrap(), "a.txt", "{ok:?}");
        }
        let msg = |args: &[Value]| read_file_args(f, args).unwrap_err().message().to_string();
        assert_eq!(
            msg(&[]),
            "fs.readFile(path) needs a path string, e.g. fs.readFile(\"notes.txt\")"
        );
        assert_eq!(
            msg(&[json!({"path": "a"})]),
            "fs.readFile(path) needs a path string; got an object"
        );
        assert_eq!(
            msg(&[json!("a.txt"), json!("latin1")]),
            "fs.readFile: only UTF-8 text can be read; give \"utf8\" as the encoding, or none, not \"latin1\""
        );
        assert_eq!(
            msg(&[json!("a.txt"), json!({"encoding": "utf8", "flag": "r"})]),
            "fs.readFile: only UTF-8 text can be read; give \"utf8\" as the encoding, or none, not {\"encoding\":\"utf8\",\"flag\":\"r\"}"
        );
        assert_eq!(
            msg(&[json!("a"), json!("utf8"), json!(1)]),
            "fs.readFile(path, encoding?) takes a path and at most an encoding; got 3 arguments"
        );
    }

    #[test]
    fn the_read_messages_name_the_function_called() {
        let d = scratch();
        let dir = AllowedDir::new(&d).unwrap();
        assert_eq!(
            dir.read("fs.promises.readFile", "nope.txt").unwrap_err(),
            "fs.promises.readFile: 'nope.txt' does not exist; fs.list(dir) shows what is there"
        );
        assert_eq!(
            dir.read("fs.readFile", "sub").unwrap_err(),
            "fs.readFile: 'sub' is a directory; use fs.list(\"sub\")"
        );
        assert_eq!(dir.read("fs.readFile", "a.txt").unwrap(), "hello");
    }
}
