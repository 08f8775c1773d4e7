//! Tool manifests: JSON files that describe namespaces and command tools.
//!
//! Format (every key other than those listed is an error):
//!
//! ```json
//! {
//!   "namespaces": { "orders": { "description": "Order lookups" } },
//!   "tools": {
//!     "orders.lookup": {
//!       "description": "Look up one order by id",
//!       "input":  { "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] },
//!       "output": { "type": "object" },
//!       "command": ["python3", "orders.py"]
//!     }
//!   }
//! }
//! ```
//!
//! - `namespaces` (optional): dotted path → `{ "description"?: string }`.
//! - `tools` (required, may be empty): dotted path → tool. `description` (string), `input` (a JSON
//!   Schema object) and `command` (non-empty array of strings) are required; `output` (a JSON Schema
//!   object) and `maxStdoutBytes` (an integer from 1 to
//!   [`MAX_STDOUT_BYTES_CEILING`]; default
//!   [`DEFAULT_MAX_STDOUT_BYTES`], 32 MiB) are optional.
//! - Paths are split on `.`; every segment must be non-empty. A path may hold a tool and also be the
//!   prefix of other tools (`a.b` and `a.b.c` may both exist).
//!
//! Path resolution (the manifest directory is the directory holding the manifest file, made
//! absolute):
//! - `command[0]`: an absolute path is used as is; a relative path containing `/` (such as
//!   `./orders.py` or `bin/orders`) is resolved against the manifest directory and must name an
//!   existing file; a bare name (`python3`, `git`) is looked up on `PATH` when the manifest is loaded
//!   and must be found there.
//! - `command[1..]` are passed unchanged. The command runs with the manifest directory as its working
//!   directory, so a relative argument such as `orders.py` names a file next to the manifest.
//!
//! Loading several manifests merges them; the same tool path in two manifests is an error, and a
//! namespace described twice must have the same description each time.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde::de::{self, MapAccess, Visitor};
use serde_json::Value;

use crate::command::{DEFAULT_MAX_STDOUT_BYTES, MAX_STDOUT_BYTES_CEILING};

/// A configuration error in a manifest. Its `Display` is the one line the CLI prints after
/// `codemode: ` (e.g. `manifest tools.json: tool "git.log": missing field "command"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ManifestError {
    /// The manifest path as given on the command line.
    pub manifest: String,
    /// What is wrong, naming the tool or namespace when there is one.
    pub message: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "manifest {}: {}", self.manifest, self.message)
    }
}

impl std::error::Error for ManifestError {}

/// A namespace entry: a dotted path and an optional description shown to the model.
#[derive(Debug, Clone, PartialEq)]
pub struct NamespaceSpec {
    /// Canonical dotted path (`orders`, `git.remote`).
    pub path: String,
    /// Description, if the manifest gives one.
    pub description: Option<String>,
    /// Manifest path as given on the command line (for error messages).
    pub manifest: String,
}

/// A command tool described by a manifest.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolSpec {
    /// Canonical dotted path (`orders.lookup`).
    pub path: String,
    /// Description shown to the model.
    pub description: String,
    /// JSON Schema (a JSON object) the input must satisfy.
    pub input: Value,
    /// JSON Schema (a JSON object) the output must satisfy, if declared.
    pub output: Option<Value>,
    /// The program to run: an absolute path, or a bare name looked up on `PATH` at spawn time.
    pub program: PathBuf,
    /// Arguments, unchanged from the manifest.
    pub args: Vec<String>,
    /// Working directory of the command: the manifest's directory (absolute).
    pub cwd: PathBuf,
    /// Manifest path as given on the command line (for error messages).
    pub manifest: String,
    /// Most bytes of stdout read from one call (`maxStdoutBytes`; default
    /// [`DEFAULT_MAX_STDOUT_BYTES`]); more fails the call and kills the process.
    pub max_stdout_bytes: u64,
}

/// All namespaces and tools from one or more manifests, in manifest order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Manifest {
    /// Namespace descriptions (at most one entry per path).
    pub namespaces: Vec<NamespaceSpec>,
    /// Command tools (at most one entry per path).
    pub tools: Vec<ToolSpec>,
}

impl Manifest {
    /// Loads every manifest in order and merges them.
    ///
    /// # Errors
    /// The first problem found: unreadable file, invalid JSON, unknown or missing fields, wrong
    /// types, invalid JSON Schema, empty path segment, duplicate path (within a file or across
    /// files), empty command, or a program that does not exist.
    pub fn load_all(paths: &[PathBuf]) -> Result<Manifest, ManifestError> {
        let mut merged = Manifest::default();
        for path in paths {
            let one = Manifest::load(path)?;
            merged.merge(one)?;
        }
        Ok(merged)
    }

    /// Loads one manifest file.
    ///
    /// # Errors
    /// See [`Manifest::load_all`].
    pub fn load(path: &Path) -> Result<Manifest, ManifestError> {
        let name = path.display().to_string();
        let err = |message: String| ManifestError {
            manifest: name.clone(),
            message,
        };
        let text =
            std::fs::read_to_string(path).map_err(|e| err(format!("cannot read file: {e}")))?;
        let abs =
            std::path::absolute(path).map_err(|e| err(format!("cannot resolve path: {e}")))?;
        let dir = abs
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/"));
        parse(&text, &name, &dir)
    }

    /// Adds `other` to `self`.
    ///
    /// # Errors
    /// A tool path present in both, or a namespace described differently in both.
    pub fn merge(&mut self, other: Manifest) -> Result<(), ManifestError> {
        for ns in other.namespaces {
            if let Some(prev) = self.namespaces.iter().find(|p| p.path == ns.path) {
                if prev.description != ns.description {
                    return Err(ManifestError {
                        manifest: ns.manifest.clone(),
                        message: format!(
                            "namespace \"{}\" is already described differently in manifest {}; describe it once",
                            ns.path, prev.manifest
                        ),
                    });
                }
                continue;
            }
            self.namespaces.push(ns);
        }
        for tool in other.tools {
            if let Some(prev) = self.tools.iter().find(|p| p.path == tool.path) {
                return Err(ManifestError {
                    manifest: tool.manifest.clone(),
                    message: format!(
                        "tool \"{}\" is already defined in manifest {}; each tool path may be defined once",
                        tool.path, prev.manifest
                    ),
                });
            }
            self.tools.push(tool);
        }
        Ok(())
    }
}

/// Parses manifest text. `name` is used in messages; `dir` is the (absolute) manifest directory
/// used to resolve relative program paths and as the commands' working directory.
///
/// # Errors
/// See [`Manifest::load_all`].
pub fn parse(text: &str, name: &str, dir: &Path) -> Result<Manifest, ManifestError> {
    let err = |message: String| ManifestError {
        manifest: name.to_string(),
        message,
    };
    let first = text.trim_start().chars().next();
    if first.is_some() && first != Some('{') {
        if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(text) {
            return Err(err(json_error(&e)));
        }
        return Err(err(
            "the manifest must be a JSON object like {\"tools\": {...}, \"namespaces\": {...}}"
                .to_string(),
        ));
    }
    let raw: RawManifest = serde_json::from_str(text).map_err(|e| err(json_error(&e)))?;
    let mut manifest = Manifest::default();

    for (key, value) in raw.namespaces.map(|e| e.0).unwrap_or_default() {
        let path = canonical_path(&key).map_err(|m| err(format!("namespace \"{key}\": {m}")))?;
        if manifest.namespaces.iter().any(|n| n.path == path) {
            return Err(err(format!("namespace \"{path}\" is defined twice")));
        }
        let ctx = |m: String| err(format!("namespace \"{path}\": {m}"));
        let Value::Object(obj) = value else {
            return Err(ctx(format!(
                "must be an object like {{\"description\": \"...\"}}, found {}",
                kind(&value)
            )));
        };
        let mut description = None;
        for (k, v) in obj {
            match k.as_str() {
                "description" => match v {
                    Value::String(s) => description = Some(s),
                    other => {
                        return Err(ctx(format!(
                            "field \"description\" must be a string, found {}",
                            kind(&other)
                        )));
                    }
                },
                other => {
                    return Err(ctx(format!(
                        "unknown field \"{other}\" (allowed: \"description\")"
                    )));
                }
            }
        }
        manifest.namespaces.push(NamespaceSpec {
            path,
            description,
            manifest: name.to_string(),
        });
    }

    let Some(tools) = raw.tools else {
        return Err(err(
            "missing field \"tools\" (an object mapping dotted tool paths to tools)".to_string(),
        ));
    };
    for (key, value) in tools.0 {
        let path = canonical_path(&key).map_err(|m| err(format!("tool \"{key}\": {m}")))?;
        if manifest.tools.iter().any(|t| t.path == path) {
            return Err(err(format!(
                "tool \"{path}\" is defined twice; each tool path may be defined once"
            )));
        }
        let tool = parse_tool(&path, value, name, dir)
            .map_err(|m| err(format!("tool \"{path}\": {m}")))?;
        manifest.tools.push(tool);
    }
    Ok(manifest)
}

fn parse_tool(path: &str, value: Value, name: &str, dir: &Path) -> Result<ToolSpec, String> {
    let Value::Object(obj) = value else {
        return Err(format!(
            "must be an object with \"description\", \"input\" and \"command\", found {}",
            kind(&value)
        ));
    };
    let mut description = None;
    let mut input = None;
    let mut output = None;
    let mut command = None;
    let mut max_stdout_bytes = DEFAULT_MAX_STDOUT_BYTES;
    for (k, v) in obj {
        match k.as_str() {
            "description" => match v {
                Value::String(s) => description = Some(s),
                other => {
                    return Err(format!(
                        "field \"description\" must be a string, found {}",
                        kind(&other)
                    ));
                }
            },
            "input" => input = Some(check_schema("input", v)?),
            "output" => output = Some(check_schema("output", v)?),
            "command" => command = Some(v),
            "maxStdoutBytes" => max_stdout_bytes = check_max_stdout(&v)?,
            other => {
                return Err(format!(
                    "unknown field \"{other}\" (allowed: \"description\", \"input\", \"output\", \"command\", \"maxStdoutBytes\")"
                ));
            }
        }
    }
    let description = description.ok_or("missing field \"description\"")?;
    let input =
        input.ok_or("missing field \"input\" (a JSON Schema object for the tool's input)")?;
    let command = command.ok_or("missing field \"command\"")?;
    let Value::Array(items) = command else {
        return Err(format!(
            "field \"command\" must be an array of strings like [\"python3\", \"tool.py\"], found {}",
            kind(&command)
        ));
    };
    if items.is_empty() {
        return Err("field \"command\" is empty; give at least the program to run".to_string());
    }
    let mut words = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        match item {
            Value::String(s) => words.push(s),
            other => {
                return Err(format!(
                    "field \"command\"[{i}] must be a string, found {}",
                    kind(&other)
                ));
            }
        }
    }
    let program_word = words.remove(0);
    let program = resolve_program(&program_word, dir)?;
    Ok(ToolSpec {
        path: path.to_string(),
        description,
        input,
        output,
        program,
        args: words,
        cwd: dir.to_path_buf(),
        manifest: name.to_string(),
        max_stdout_bytes,
    })
}

/// Validates `maxStdoutBytes`: an integer from 1 to [`MAX_STDOUT_BYTES_CEILING`].
fn check_max_stdout(v: &Value) -> Result<u64, String> {
    match v.as_u64() {
        Some(n) if (1..=MAX_STDOUT_BYTES_CEILING).contains(&n) => Ok(n),
        _ => Err(format!(
            "field \"maxStdoutBytes\" must be an integer from 1 to {MAX_STDOUT_BYTES_CEILING} (bytes of stdout one call may print; default {DEFAULT_MAX_STDOUT_BYTES}), found {v}"
        )),
    }
}

/// Resolves `command[0]` per the rules in the module docs.
fn resolve_program(word: &str, dir: &Path) -> Result<PathBuf, String> {
    if word.is_empty() {
        return Err("field \"command\"[0] is an empty string; give the program to run".to_string());
    }
    let p = Path::new(word);
    if p.is_absolute() || word.contains('/') {
        let full = if p.is_absolute() {
            p.to_path_buf()
        } else {
            dir.join(p)
        };
        if !full.is_file() {
            return Err(format!(
                "program \"{word}\" not found (looked for {}); relative program paths resolve against the manifest's directory",
                full.display()
            ));
        }
        return Ok(full);
    }
    match find_on_path(word) {
        Some(_) => Ok(PathBuf::from(word)),
        None => Err(format!(
            "program \"{word}\" was not found on PATH; install it or give a path to it"
        )),
    }
}

/// Looks `name` up in the directories of `PATH`, returning the first regular file found.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|c| c.is_file())
}

fn check_schema(field: &str, v: Value) -> Result<Value, String> {
    if !v.is_object() {
        return Err(format!(
            "field \"{field}\" must be a JSON Schema object such as {{\"type\": \"object\"}}, found {}",
            kind(&v)
        ));
    }
    if let Err(e) = jsonschema::validator_for(&v) {
        // The schema is the instance here: its instance path is the place inside the schema.
        let at = e.instance_path().to_string();
        let at = if at.is_empty() {
            String::new()
        } else {
            format!(" (at {at})")
        };
        return Err(format!(
            "field \"{field}\" is not a valid JSON Schema: {e}{at}"
        ));
    }
    Ok(v)
}

/// Checks that every dot-separated segment of `key` is non-empty and returns the canonical path.
fn canonical_path(key: &str) -> Result<String, String> {
    if key.is_empty() {
        return Err("the path is empty".to_string());
    }
    if key.split('.').any(str::is_empty) {
        return Err(
            "the path has an empty segment (leading, trailing or doubled '.'); use names like \"orders.lookup\""
                .to_string(),
        );
    }
    Ok(key.to_string())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Rewrites serde's backquoted field names as double-quoted ones, keeping line/column.
fn json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string().replace('`', "\"");
    match e.classify() {
        serde_json::error::Category::Syntax | serde_json::error::Category::Eof => {
            format!("invalid JSON: {msg}")
        }
        _ => msg,
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    #[serde(default)]
    namespaces: Option<Entries>,
    #[serde(default)]
    tools: Option<Entries>,
}

/// A JSON object kept as its list of entries, so that duplicate keys can be reported
/// (serde_json's `Value` keeps only the last one).
struct Entries(Vec<(String, Value)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object mapping dotted paths to entries")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut out: Vec<(String, Value)> = Vec::new();
                let mut seen = BTreeMap::new();
                while let Some((k, v)) = map.next_entry::<String, Value>()? {
                    if seen.insert(k.clone(), ()).is_some() {
                        return Err(de::Error::custom(format!(
                            "\"{k}\" is defined twice; each path may be defined once"
                        )));
                    }
                    out.push((k, v));
                }
                Ok(Entries(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir() -> PathBuf {
        std::env::temp_dir()
    }

    fn p(text: &str) -> Result<Manifest, String> {
        parse(text, "m.json", &dir()).map_err(|e| e.to_string())
    }

    #[test]
    fn parses_full_manifest() {
        let m = p(r#"{"namespaces":{"orders":{"description":"Orders"}},
            "tools":{"orders.lookup":{"description":"Look up","input":{"type":"object"},
            "output":{"type":"object"},"command":["sh","-c","cat"]}}}"#)
        .unwrap();
        assert_eq!(m.namespaces.len(), 1);
        assert_eq!(m.namespaces[0].path, "orders");
        assert_eq!(m.namespaces[0].description.as_deref(), Some("Orders"));
        let t = &m.tools[0];
        assert_eq!(t.path, "orders.lookup");
        assert_eq!(t.program, PathBuf::from("sh"));
        assert_eq!(t.args, vec!["-c".to_string(), "cat".to_string()]);
        assert_eq!(t.output, Some(serde_json::json!({"type":"object"})));
        assert_eq!(t.cwd, dir());
    }

    #[test]
    fn missing_command_names_tool() {
        let e = p(r#"{"tools":{"git.log":{"description":"d","input":{}}}}"#).unwrap_err();
        assert_eq!(
            e,
            "manifest m.json: tool \"git.log\": missing field \"command\""
        );
    }

    #[test]
    fn missing_description_and_input() {
        let e = p(r#"{"tools":{"a":{"input":{},"command":["sh"]}}}"#).unwrap_err();
        assert_eq!(
            e,
            "manifest m.json: tool \"a\": missing field \"description\""
        );
        let e = p(r#"{"tools":{"a":{"description":"x","command":["sh"]}}}"#).unwrap_err();
        assert!(e.contains("tool \"a\": missing field \"input\""), "{e}");
    }

    #[test]
    fn unknown_fields_rejected() {
        let e = p(r#"{"tools":{},"toolz":{}}"#).unwrap_err();
        assert!(e.contains("unknown field \"toolz\""), "{e}");
        let e = p(r#"{"tools":{"a":{"description":"x","input":{},"command":["sh"],"cmd":1}}}"#)
            .unwrap_err();
        assert!(e.contains("tool \"a\": unknown field \"cmd\""), "{e}");
        let e = p(r#"{"tools":{},"namespaces":{"n":{"descr":"x"}}}"#).unwrap_err();
        assert!(
            e.contains("namespace \"n\": unknown field \"descr\""),
            "{e}"
        );
    }

    #[test]
    fn invalid_json_reported_with_position() {
        let e = p("{\"tools\": {").unwrap_err();
        assert!(e.starts_with("manifest m.json: invalid JSON: "), "{e}");
        assert!(e.contains("line 1"), "{e}");
    }

    #[test]
    fn manifest_must_be_an_object() {
        let e = p("[]").unwrap_err();
        assert!(e.contains("the manifest must be a JSON object"), "{e}");
        let e = p("[").unwrap_err();
        assert!(e.contains("invalid JSON"), "{e}");
    }

    #[test]
    fn schema_errors_point_into_the_schema() {
        let e = p(r#"{"tools":{"a":{"description":"x","input":{"properties":{"n":{"minimum":"3"}}},"command":["sh"]}}}"#)
            .unwrap_err();
        assert!(e.ends_with("(at /properties/n/minimum)"), "{e}");
    }

    #[test]
    fn missing_tools_field() {
        let e = p(r#"{"namespaces":{}}"#).unwrap_err();
        assert!(e.contains("missing field \"tools\""), "{e}");
    }

    #[test]
    fn bad_schemas() {
        let e =
            p(r#"{"tools":{"a":{"description":"x","input":[],"command":["sh"]}}}"#).unwrap_err();
        assert!(
            e.contains("field \"input\" must be a JSON Schema object"),
            "{e}"
        );
        let e =
            p(r#"{"tools":{"a":{"description":"x","input":{"type":"objekt"},"command":["sh"]}}}"#)
                .unwrap_err();
        assert!(
            e.contains("tool \"a\": field \"input\" is not a valid JSON Schema"),
            "{e}"
        );
        let e = p(r#"{"tools":{"a":{"description":"x","input":{},"output":{"minimum":"3"},"command":["sh"]}}}"#)
            .unwrap_err();
        assert!(
            e.contains("field \"output\" is not a valid JSON Schema"),
            "{e}"
        );
    }

    #[test]
    fn duplicate_paths() {
        let e = p(
            r#"{"tools":{"a":{"description":"x","input":{},"command":["sh"]},
                               "a":{"description":"y","input":{},"command":["sh"]}}}"#,
        )
        .unwrap_err();
        assert!(e.contains("\"a\" is defined twice"), "{e}");
        let mut m1 =
            p(r#"{"tools":{"a.b":{"description":"x","input":{},"command":["sh"]}}}"#).unwrap();
        let m2 = parse(
            r#"{"tools":{"a.b":{"description":"x","input":{},"command":["sh"]}}}"#,
            "other.json",
            &dir(),
        )
        .unwrap();
        let e = m1.merge(m2).unwrap_err().to_string();
        assert_eq!(
            e,
            "manifest other.json: tool \"a.b\" is already defined in manifest m.json; each tool path may be defined once"
        );
    }

    #[test]
    fn empty_segments_and_commands() {
        let e =
            p(r#"{"tools":{"a..b":{"description":"x","input":{},"command":["sh"]}}}"#).unwrap_err();
        assert!(
            e.contains("tool \"a..b\": the path has an empty segment"),
            "{e}"
        );
        let e = p(r#"{"tools":{"a":{"description":"x","input":{},"command":[]}}}"#).unwrap_err();
        assert!(e.contains("field \"command\" is empty"), "{e}");
        let e = p(r#"{"tools":{"a":{"description":"x","input":{},"command":"sh"}}}"#).unwrap_err();
        assert!(
            e.contains("field \"command\" must be an array of strings"),
            "{e}"
        );
        let e =
            p(r#"{"tools":{"a":{"description":"x","input":{},"command":["sh",1]}}}"#).unwrap_err();
        assert!(e.contains("field \"command\"[1] must be a string"), "{e}");
    }

    #[test]
    fn missing_programs() {
        let e = p(r#"{"tools":{"a":{"description":"x","input":{},"command":["./nope-xyz.py"]}}}"#)
            .unwrap_err();
        assert!(e.contains("program \"./nope-xyz.py\" not found"), "{e}");
        let e = p(
            r#"{"tools":{"a":{"description":"x","input":{},"command":["no-such-program-xyz"]}}}"#,
        )
        .unwrap_err();
        assert!(
            e.contains("program \"no-such-program-xyz\" was not found on PATH"),
            "{e}"
        );
    }

    #[test]
    fn relative_program_resolves_against_manifest_dir() {
        let d = std::env::temp_dir().join(format!("codemode-manifest-{}", std::process::id()));
        std::fs::create_dir_all(d.join("bin")).unwrap();
        std::fs::write(d.join("bin/tool.sh"), "#!/bin/sh\necho 1\n").unwrap();
        let m = parse(
            r#"{"tools":{"a":{"description":"x","input":{},"command":["bin/tool.sh","arg"]}}}"#,
            "m.json",
            &d,
        )
        .unwrap();
        assert_eq!(m.tools[0].program, d.join("bin/tool.sh"));
        assert_eq!(m.tools[0].cwd, d);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn namespace_merge_rules() {
        let mut m1 = p(r#"{"namespaces":{"n":{"description":"A"}},"tools":{}}"#).unwrap();
        let same = p(r#"{"namespaces":{"n":{"description":"A"}},"tools":{}}"#).unwrap();
        m1.merge(same).unwrap();
        assert_eq!(m1.namespaces.len(), 1);
        let diff = p(r#"{"namespaces":{"n":{"description":"B"}},"tools":{}}"#).unwrap();
        let e = m1.merge(diff).unwrap_err().to_string();
        assert!(
            e.contains("namespace \"n\" is already described differently"),
            "{e}"
        );
    }
}
