//! The configuration file: the `mcpServers` map MCP clients already use, plus an optional
//! `codemode` section.
//!
//! ```json
//! {
//!   "mcpServers": {
//!     "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"],
//!                     "env": { "KEY": "value" }, "cwd": "/tmp", "timeoutMs": 30000 },
//!     "remote":     { "url": "http://127.0.0.1:3917/mcp", "headers": { "Authorization": "Bearer T" } },
//!     "payments":   { "command": "payments-mcp", "approve": ["refund", "delete_*"] }
//!   },
//!   "codemode": { "language": "lua", "limits": { "timeoutMs": 60000, "maxToolCalls": 64 },
//!                 "catalogBudget": 8000, "tools": ["manifest.json"],
//!                 "approve": ["crm.email_*"], "snapshotStore": "sqlite:paused.db",
//!                 "snapshotKeyFile": "paused.key" }
//! }
//! ```
//!
//! Tools needing approval (see [`crate::paused`]): a server's `approve` lists its tool names,
//! `codemode.approve` full tool paths (`server.tool`, also manifest and OpenAPI tools); in both a
//! `*` stands for any characters (dots included), so `"payments.*"` is every tool of `payments`.
//! A call to such a tool pauses the execution; `execute` returns the paused Result with a
//! `resumeToken`. `codemode.snapshotStore` is `"memory"` (the default), `"dir:PATH"` or
//! `"sqlite:PATH"`; `codemode.snapshotKeyFile` the file of the key snapshots are signed with
//! (default: kept with the store).
//!
//! Unknown keys, a server with neither `command` nor `url` (or both), and values of the wrong type
//! are errors whose message names the key path (`mcpServers.git.comand`). Relative `cwd` and
//! `tools` paths resolve against the directory of the config file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use codemode::{Language, LimitName, Limits};
use serde_json::{Map, Value};

/// The values `codemode.language` accepts, and the language each names.
pub const LANGUAGES: [(&str, Language); 5] = [
    ("lua", Language::Lua),
    ("js", Language::JavaScript),
    ("javascript", Language::JavaScript),
    ("ts", Language::JavaScript),
    ("typescript", Language::JavaScript),
];

/// Default per-call timeout for a downstream `tools/call` (the execution's own `timeout_ms`
/// still applies on top).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(60);

/// Default size of the tool catalog in the `execute` description, in tokens (o200k_base, see
/// [`codemode::catalog`]).
pub const DEFAULT_CATALOG_BUDGET: usize = codemode::catalog::DEFAULT_INSTRUCTIONS_BUDGET;

/// How to reach one downstream MCP server.
#[derive(Clone, Debug, PartialEq)]
pub enum Transport {
    /// A child process speaking newline-delimited JSON-RPC on stdin/stdout.
    Stdio {
        /// Program to start (looked up on `PATH` when it has no `/`).
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Extra environment variables (the rest is inherited).
        env: BTreeMap<String, String>,
        /// Working directory (absolute after loading).
        cwd: Option<PathBuf>,
    },
    /// Streamable HTTP (`POST` to the MCP endpoint).
    Http {
        /// The endpoint, e.g. `http://127.0.0.1:3917/mcp`.
        url: String,
        /// Extra headers sent with every request (`Authorization` included).
        headers: BTreeMap<String, String>,
    },
}

/// One entry of `mcpServers`.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerSpec {
    /// The key: also the namespace the server's tools appear under (`tools.<name>.<tool>`).
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
    /// Timeout of one `tools/call` (`timeoutMs`, default [`DEFAULT_CALL_TIMEOUT`]).
    pub call_timeout: Duration,
    /// Time for the whole start (spawn or connect, `initialize`, every page of `tools/list`) and
    /// for a re-listing after `list_changed` (`startupTimeoutMs`, default
    /// [`crate::downstream::STARTUP_TIMEOUT`]).
    pub startup_timeout: Duration,
}

/// The whole configuration.
#[derive(Clone, Debug)]
pub struct Config {
    /// Servers in the order of the file; `"disabled": true` entries are left out.
    pub servers: Vec<ServerSpec>,
    /// `codemode.language`: `"lua"` (the default) or `"js"` (also `"javascript"`, `"ts"`,
    /// `"typescript"`; see [`LANGUAGES`]).
    pub language: Language,
    /// `codemode.limits` applied to every execution.
    pub limits: Limits,
    /// `codemode.catalogBudget`: tokens of tool catalog in the `execute` description.
    pub catalog_budget: usize,
    /// `codemode.tools`: tool manifests (absolute paths) the CLI adds beside the servers.
    pub manifests: Vec<PathBuf>,
    /// `codemode.maxAttachmentBytes`: bytes of attachment data one execution keeps (default
    /// [`crate::limits::DEFAULT_MAX_ATTACHMENT_BYTES`]).
    pub max_attachment_bytes: u64,
    /// `codemode.allowedOrigins`: browser origins (`scheme://host:port`, `:*` for any port) the
    /// HTTP server accepts besides its own address; requests with any other `Origin` get 403.
    pub allowed_origins: Vec<String>,
    /// `openapi`: OpenAPI specs, each a namespace of HTTP tools (see `openapi.rs`).
    pub openapi: Vec<crate::openapi::OpenApiSpec>,
    /// Tool path patterns needing approval: `codemode.approve`, and each server's `approve`
    /// prefixed with `<server>.` (see [`approves`]).
    pub approve: Vec<String>,
    /// `codemode.snapshotStore`: where paused executions are kept.
    pub snapshot_store: crate::paused::StoreSpec,
    /// `codemode.snapshotKeyFile`: the key snapshots are signed with (absolute); default: the
    /// store's own ([`crate::paused::StoreSpec::key_file`]).
    pub snapshot_key_file: Option<PathBuf>,
}

/// Whether the canonical tool `path` matches `pattern`, where `*` stands for any run of
/// characters (dots included) and everything else for itself.
pub fn matches(pattern: &str, path: &str) -> bool {
    // Greedy matching with one backtrack point: linear in the lengths, no recursion.
    let (p, s) = (pattern.as_bytes(), path.as_bytes());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < s.len() {
        if i < p.len() && p[i] == b'*' {
            star = Some((i, j));
            i += 1;
        } else if i < p.len() && p[i] == s[j] {
            i += 1;
            j += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == b'*')
}

/// Whether a call to `path` needs approval under `patterns` ([`matches()`]).
pub fn approves(patterns: &[String], path: &str) -> bool {
    patterns.iter().any(|p| matches(p, path))
}

/// The list of approval patterns at `at`.
fn patterns(v: &Value, at: &str) -> Result<Vec<String>, ConfigError> {
    let arr = v.as_array().ok_or_else(|| {
        ConfigError(format!(
            "{at} must be a list of tool names or patterns such as [\"refund\", \"delete_*\"]"
        ))
    })?;
    arr.iter()
        .enumerate()
        .map(|(i, p)| {
            let p = string(p, &format!("{at}[{i}]"))?;
            if p.is_empty() {
                return Err(ConfigError(format!(
                    "{at}[{i}] is empty; name a tool, or use \"*\" for all of them"
                )));
            }
            Ok(p)
        })
        .collect()
}

/// A configuration error; the message names the file and the key path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ConfigError(pub String);

impl Config {
    /// Read and validate a config file. Errors: unreadable file, invalid JSON, invalid content.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("cannot read MCP config {}: {e}", path.display())))?;
        let dir = path
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        Config::parse(&text, &dir)
            .map_err(|ConfigError(m)| ConfigError(format!("MCP config {}: {m}", path.display())))
    }

    /// Parse and validate config text; relative paths resolve against `dir`.
    pub fn parse(text: &str, dir: &Path) -> Result<Config, ConfigError> {
        let root: Value =
            serde_json::from_str(text).map_err(|e| ConfigError(format!("invalid JSON: {e}")))?;
        let root = object(&root, "the top level")?;
        known_keys(root, "", &["mcpServers", "codemode", "openapi"])?;
        let mut servers = Vec::new();
        let mut approvals = Vec::new();
        match root.get("mcpServers") {
            None => {}
            Some(v) => {
                for (name, spec) in object(v, "mcpServers")? {
                    if let Some((s, approve)) = server(name, spec, dir)? {
                        servers.push(s);
                        approvals.extend(approve.into_iter().map(|t| format!("{name}.{t}")));
                    }
                }
            }
        }
        let mut config = Config {
            servers,
            language: Language::Lua,
            limits: Limits::default(),
            catalog_budget: DEFAULT_CATALOG_BUDGET,
            manifests: Vec::new(),
            max_attachment_bytes: crate::limits::DEFAULT_MAX_ATTACHMENT_BYTES,
            allowed_origins: Vec::new(),
            openapi: match root.get("openapi") {
                Some(v) => crate::openapi::parse(v, dir)?,
                None => Vec::new(),
            },
            approve: approvals,
            snapshot_store: crate::paused::StoreSpec::Memory,
            snapshot_key_file: None,
        };
        if let Some(o) = config
            .openapi
            .iter()
            .find(|o| config.servers.iter().any(|s| s.name == o.name))
        {
            return Err(ConfigError(format!(
                "openapi.{0}: the namespace '{0}' is also an mcpServers entry; rename one",
                o.name
            )));
        }
        if let Some(cm) = root.get("codemode") {
            let cm = object(cm, "codemode")?;
            known_keys(
                cm,
                "codemode.",
                &[
                    "language",
                    "limits",
                    "catalogBudget",
                    "tools",
                    "maxAttachmentBytes",
                    "allowedOrigins",
                    "approve",
                    "snapshotStore",
                    "snapshotKeyFile",
                ],
            )?;
            if let Some(a) = cm.get("approve") {
                config.approve.extend(patterns(a, "codemode.approve")?);
            }
            if let Some(s) = cm.get("snapshotStore") {
                config.snapshot_store =
                    crate::paused::StoreSpec::parse(&string(s, "codemode.snapshotStore")?, dir)
                        .map_err(|e| ConfigError(format!("codemode.snapshotStore: {e}")))?;
            }
            if let Some(k) = cm.get("snapshotKeyFile") {
                config.snapshot_key_file = Some(dir.join(string(k, "codemode.snapshotKeyFile")?));
            }
            if let Some(b) = cm.get("maxAttachmentBytes") {
                config.max_attachment_bytes = b.as_u64().ok_or_else(|| {
                    ConfigError(format!(
                        "codemode.maxAttachmentBytes must be a non-negative integer of bytes, not {b}"
                    ))
                })?;
            }
            if let Some(o) = cm.get("allowedOrigins") {
                let arr = o.as_array().ok_or_else(|| {
                    ConfigError("codemode.allowedOrigins must be a list of origins such as \"http://localhost:3000\"".into())
                })?;
                for (i, v) in arr.iter().enumerate() {
                    let v = string(v, &format!("codemode.allowedOrigins[{i}]"))?;
                    if !(v == "null" || v.starts_with("http://") || v.starts_with("https://")) {
                        return Err(ConfigError(format!(
                            "codemode.allowedOrigins[{i}] must be an origin with a scheme, e.g. \"http://localhost:3000\", not {v:?}"
                        )));
                    }
                    config.allowed_origins.push(v);
                }
            }
            if let Some(l) = cm.get("language") {
                config.language = LANGUAGES
                    .iter()
                    .find(|(name, _)| l.as_str() == Some(name))
                    .map(|(_, language)| *language)
                    .ok_or_else(|| {
                        ConfigError(format!(
                            "codemode.language must be \"lua\" or \"js\" (also \"javascript\", \"ts\", \"typescript\": JavaScript, TypeScript annotations accepted), not {l}"
                        ))
                    })?;
            }
            if let Some(l) = cm.get("limits") {
                config.limits = limits(object(l, "codemode.limits")?)?;
            }
            if let Some(b) = cm.get("catalogBudget") {
                config.catalog_budget = b.as_u64().ok_or_else(|| {
                    ConfigError(format!(
                        "codemode.catalogBudget must be a non-negative integer, not {b}"
                    ))
                })? as usize;
            }
            if let Some(t) = cm.get("tools") {
                let arr = t.as_array().ok_or_else(|| {
                    ConfigError("codemode.tools must be a list of manifest paths".into())
                })?;
                for (i, p) in arr.iter().enumerate() {
                    let p = p.as_str().ok_or_else(|| {
                        ConfigError(format!("codemode.tools[{i}] must be a string path"))
                    })?;
                    config.manifests.push(dir.join(p));
                }
            }
        }
        Ok(config)
    }
}

fn object<'a>(v: &'a Value, what: &str) -> Result<&'a Map<String, Value>, ConfigError> {
    v.as_object()
        .ok_or_else(|| ConfigError(format!("{what} must be an object, not {}", kind(v))))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn known_keys(obj: &Map<String, Value>, prefix: &str, known: &[&str]) -> Result<(), ConfigError> {
    for k in obj.keys() {
        if !known.contains(&k.as_str()) {
            return Err(ConfigError(format!(
                "unknown key {prefix}{k}; the keys allowed here are {}",
                known.join(", ")
            )));
        }
    }
    Ok(())
}

fn string(v: &Value, what: &str) -> Result<String, ConfigError> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| ConfigError(format!("{what} must be a string, not {}", kind(v))))
}

fn string_map(v: &Value, what: &str) -> Result<BTreeMap<String, String>, ConfigError> {
    object(v, what)?
        .iter()
        .map(|(k, v)| Ok((k.clone(), string(v, &format!("{what}.{k}"))?)))
        .collect()
}

/// One `mcpServers` entry and its `approve` list (`None` when disabled).
fn server(
    name: &str,
    spec: &Value,
    dir: &Path,
) -> Result<Option<(ServerSpec, Vec<String>)>, ConfigError> {
    let at = format!("mcpServers.{name}");
    if name.is_empty() || name.split('.').any(str::is_empty) {
        return Err(ConfigError(format!(
            "server name {name:?} cannot be a namespace: use a non-empty name without empty dot segments"
        )));
    }
    let spec = object(spec, &at)?;
    known_keys(
        spec,
        &format!("{at}."),
        &[
            "command",
            "args",
            "env",
            "cwd",
            "url",
            "headers",
            "type",
            "timeoutMs",
            "startupTimeoutMs",
            "disabled",
            "approve",
        ],
    )?;
    let approve = match spec.get("approve") {
        None => Vec::new(),
        Some(a) => patterns(a, &format!("{at}.approve"))?,
    };
    if let Some(d) = spec.get("disabled") {
        match d {
            Value::Bool(true) => return Ok(None),
            Value::Bool(false) => {}
            _ => return Err(ConfigError(format!("{at}.disabled must be true or false"))),
        }
    }
    let call_timeout = match spec.get("timeoutMs") {
        None => DEFAULT_CALL_TIMEOUT,
        Some(v) => match v.as_u64() {
            Some(ms) if ms >= 1 => Duration::from_millis(ms),
            _ => {
                return Err(ConfigError(format!(
                    "{at}.timeoutMs must be an integer of milliseconds ≥ 1, not {v}"
                )));
            }
        },
    };
    let startup_timeout = match spec.get("startupTimeoutMs") {
        None => crate::downstream::STARTUP_TIMEOUT,
        Some(v) => match v.as_u64() {
            Some(ms) if ms >= 1 => Duration::from_millis(ms),
            _ => {
                return Err(ConfigError(format!(
                    "{at}.startupTimeoutMs must be an integer of milliseconds ≥ 1, not {v}"
                )));
            }
        },
    };
    let transport = match (spec.get("command"), spec.get("url")) {
        (Some(_), Some(_)) => {
            return Err(ConfigError(format!(
                "{at} has both \"command\" and \"url\"; give \"command\" for a local (stdio) server or \"url\" for a remote (HTTP) one"
            )));
        }
        (None, None) => {
            return Err(ConfigError(format!(
                "{at} has neither \"command\" (a local server started over stdio) nor \"url\" (a streamable HTTP endpoint)"
            )));
        }
        (Some(c), None) => {
            for k in ["url", "headers"] {
                if spec.contains_key(k) {
                    return Err(ConfigError(format!(
                        "{at}.{k} is for HTTP servers; this one has a \"command\""
                    )));
                }
            }
            let command = string(c, &format!("{at}.command"))?;
            if command.is_empty() {
                return Err(ConfigError(format!("{at}.command is empty")));
            }
            let args = match spec.get("args") {
                None => Vec::new(),
                Some(a) => a
                    .as_array()
                    .ok_or_else(|| ConfigError(format!("{at}.args must be a list of strings")))?
                    .iter()
                    .enumerate()
                    .map(|(i, a)| string(a, &format!("{at}.args[{i}]")))
                    .collect::<Result<_, _>>()?,
            };
            let env = match spec.get("env") {
                None => BTreeMap::new(),
                Some(e) => string_map(e, &format!("{at}.env"))?,
            };
            let cwd = match spec.get("cwd") {
                None => None,
                Some(c) => Some(dir.join(string(c, &format!("{at}.cwd"))?)),
            };
            if let Some(t) = spec.get("type")
                && t.as_str() != Some("stdio")
            {
                return Err(ConfigError(format!(
                    "{at}.type is {t} but the server has a \"command\"; use \"stdio\" or leave it out"
                )));
            }
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            }
        }
        (None, Some(u)) => {
            for k in ["args", "env", "cwd"] {
                if spec.contains_key(k) {
                    return Err(ConfigError(format!(
                        "{at}.{k} is for servers started with a \"command\"; this one has a \"url\""
                    )));
                }
            }
            let url = string(u, &format!("{at}.url"))?;
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(ConfigError(format!(
                    "{at}.url must start with http:// or https://, not {url:?}"
                )));
            }
            let headers = match spec.get("headers") {
                None => BTreeMap::new(),
                Some(h) => string_map(h, &format!("{at}.headers"))?,
            };
            if let Some(t) = spec.get("type")
                && !matches!(
                    t.as_str(),
                    Some("http" | "streamable-http" | "streamableHttp")
                )
            {
                return Err(ConfigError(format!(
                    "{at}.type is {t}; only streamable HTTP (\"http\") is supported for a \"url\""
                )));
            }
            Transport::Http { url, headers }
        }
    };
    Ok(Some((
        ServerSpec {
            name: name.to_string(),
            transport,
            call_timeout,
            startup_timeout,
        },
        approve,
    )))
}

fn limits(obj: &Map<String, Value>) -> Result<Limits, ConfigError> {
    let mut limits = Limits::default();
    for (k, v) in obj {
        let name = match k.as_str() {
            "timeoutMs" | "timeout_ms" => LimitName::TimeoutMs,
            "maxToolCalls" | "max_tool_calls" => LimitName::MaxToolCalls,
            "maxOutputBytes" | "max_output_bytes" => LimitName::MaxOutputBytes,
            "maxMemoryBytes" | "max_memory_bytes" => LimitName::MaxMemoryBytes,
            _ => {
                return Err(ConfigError(format!(
                    "unknown key codemode.limits.{k}; the keys allowed here are timeoutMs, maxToolCalls, maxOutputBytes, maxMemoryBytes"
                )));
            }
        };
        let n = v
            .as_i64()
            .map(i128::from)
            .or_else(|| v.as_u64().map(i128::from))
            .ok_or_else(|| {
                ConfigError(format!("codemode.limits.{k} must be an integer, not {v}"))
            })?;
        limits = limits
            .with(name, n)
            .map_err(|e| ConfigError(format!("codemode.limits.{k}: {e}")))?;
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Config, String> {
        Config::parse(s, Path::new("/etc/cm")).map_err(|e| e.0)
    }

    #[test]
    fn parses_stdio_and_http_servers_and_codemode_section() {
        let c = parse(
            r#"{"mcpServers": {
                "time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}, "cwd": "w", "timeoutMs": 500},
                "remote": {"url": "http://127.0.0.1:1/mcp", "headers": {"Authorization": "Bearer x"}},
                "off": {"command": "x", "disabled": true}},
               "codemode": {"language": "lua", "limits": {"timeoutMs": 1000, "max_tool_calls": 3},
                            "catalogBudget": 10, "tools": ["m.json"]}}"#,
        )
        .unwrap();
        assert_eq!(c.servers.len(), 2);
        assert_eq!(c.servers[1].name, "remote");
        assert_eq!(
            c.servers[1].transport,
            Transport::Http {
                url: "http://127.0.0.1:1/mcp".into(),
                headers: [("Authorization".to_string(), "Bearer x".to_string())].into()
            }
        );
        assert_eq!(c.servers[0].call_timeout, Duration::from_millis(500));
        assert_eq!(
            c.servers[0].transport,
            Transport::Stdio {
                command: "uvx".into(),
                args: vec!["mcp-server-time".into()],
                env: [("TZ".to_string(), "UTC".to_string())].into(),
                cwd: Some(PathBuf::from("/etc/cm/w")),
            }
        );
        assert_eq!(c.limits.timeout_ms(), 1000);
        assert_eq!(c.limits.max_tool_calls(), 3);
        assert_eq!(c.catalog_budget, 10);
        assert_eq!(c.manifests, vec![PathBuf::from("/etc/cm/m.json")]);
    }

    #[test]
    fn approvals_and_the_snapshot_store() {
        let c = parse(
            r#"{"mcpServers": {"payments": {"command": "p", "approve": ["refund", "delete_*"]},
                               "off": {"command": "x", "disabled": true, "approve": ["y"]}},
               "codemode": {"approve": ["crm.*.send"], "snapshotStore": "sqlite:p.db",
                            "snapshotKeyFile": "k"}}"#,
        )
        .unwrap();
        assert_eq!(
            c.approve,
            ["payments.refund", "payments.delete_*", "crm.*.send"]
        );
        assert_eq!(
            c.snapshot_store,
            crate::paused::StoreSpec::Sqlite("/etc/cm/p.db".into())
        );
        assert_eq!(c.snapshot_key_file, Some(PathBuf::from("/etc/cm/k")));
        assert!(approves(&c.approve, "payments.refund"));
        assert!(!approves(&c.approve, "payments.refunds"));
        assert!(!approves(&c.approve, "payments.quote"));
        assert!(approves(&c.approve, "payments.delete_user"));
        assert!(approves(&c.approve, "payments.delete_"));
        assert!(approves(&c.approve, "crm.mail.v2.send"));
        assert!(!approves(&c.approve, "crm.send"));
        assert!(!approves(&c.approve, "off.y"));
        assert!(matches("*", "a.b"));
        assert!(matches("a*b*c", "axxbyybc"));
        assert!(!matches("a*b*c", "axxbyyb"));
        assert!(matches("**x", "x"));
        assert_eq!(
            parse("{}").unwrap().snapshot_store,
            crate::paused::StoreSpec::Memory
        );
    }

    #[test]
    fn language_names() {
        assert_eq!(parse("{}").unwrap().language, Language::Lua);
        for (name, want) in [
            ("lua", Language::Lua),
            ("js", Language::JavaScript),
            ("javascript", Language::JavaScript),
            ("ts", Language::JavaScript),
            ("typescript", Language::JavaScript),
        ] {
            let c = parse(&format!(r#"{{"codemode": {{"language": "{name}"}}}}"#)).unwrap();
            assert_eq!(c.language, want, "{name}");
        }
    }

    #[test]
    fn rejects_bad_configs_with_the_key_path() {
        let cases = [
            (
                r#"{"mcpServers": {"a": {"comand": "x"}}}"#,
                "unknown key mcpServers.a.comand",
            ),
            (
                r#"{"mcpServers": {"a": {"args": []}}}"#,
                "mcpServers.a has neither \"command\"",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "x", "url": "http://h"}}}"#,
                "has both",
            ),
            (
                r#"{"mcpServers": {"a": {"command": 3}}}"#,
                "mcpServers.a.command must be a string, not a number",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "x", "args": [1]}}}"#,
                "mcpServers.a.args[0] must be a string",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "ftp://h"}}}"#,
                "must start with http://",
            ),
            (
                r#"{"mcpServers": {"a": {"url": "http://h", "env": {}}}}"#,
                "mcpServers.a.env is for servers started with a \"command\"",
            ),
            (r#"{"servers": {}}"#, "unknown key servers"),
            (
                r#"{"mcpServers": {"a": {"command": "x", "startupTimeoutMs": 0}}}"#,
                "mcpServers.a.startupTimeoutMs must be an integer of milliseconds ≥ 1, not 0",
            ),
            (
                r#"{"codemode": {"maxAttachmentBytes": -1}}"#,
                "codemode.maxAttachmentBytes must be a non-negative integer of bytes, not -1",
            ),
            (
                r#"{"codemode": {"allowedOrigins": ["localhost:3000"]}}"#,
                "codemode.allowedOrigins[0] must be an origin with a scheme",
            ),
            (
                r#"{"codemode": {"limits": {"timeoutMs": 0}}}"#,
                "codemode.limits.timeoutMs",
            ),
            (
                r#"{"codemode": {"limits": {"timeout": 5}}}"#,
                "unknown key codemode.limits.timeout",
            ),
            (
                r#"{"codemode": {"language": "python"}}"#,
                "codemode.language must be",
            ),
            (
                r#"{"codemode": {"language": "JS"}}"#,
                "codemode.language must be \"lua\" or \"js\" (also \"javascript\", \"ts\", \"typescript\": JavaScript, TypeScript annotations accepted), not \"JS\"",
            ),
            (
                r#"{"codemode": {"language": 1}}"#,
                "codemode.language must be \"lua\" or \"js\"",
            ),
            (
                r#"{"mcpServers": {"a..b": {"command": "x"}}}"#,
                "cannot be a namespace",
            ),
            (
                r#"{"mcpServers": {"a": {"command": "x", "approve": "refund"}}}"#,
                "mcpServers.a.approve must be a list of tool names or patterns",
            ),
            (
                r#"{"codemode": {"approve": [""]}}"#,
                "codemode.approve[0] is empty",
            ),
            (
                r#"{"codemode": {"snapshotStore": "redis:x"}}"#,
                "codemode.snapshotStore: snapshot store \"redis:x\": write \"memory\"",
            ),
            (r#"[1]"#, "the top level must be an object, not a list"),
            (r#"{"#, "invalid JSON"),
        ];
        for (text, want) in cases {
            let err = parse(text).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
        }
    }
}
