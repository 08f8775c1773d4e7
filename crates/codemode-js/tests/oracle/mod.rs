//! Shared by the JavaScript differential tests: the node oracle (`run.mjs` in one long-lived
//! node process), codemode's side (`codemode::CodeMode` with `Language::JavaScript`), the outcome
//! of one program on either side, and their comparison.
//!
//! # What is compared
//! An [`Outcome`] is either a value (the program's result as JSON) with its logs, or an error
//! with its diagnostic kind, the JavaScript error name when the thrown value was an Error, and its
//! logs. [`compare`] checks, in this order:
//! - the same variant (both succeeded, or both failed);
//! - for values: the same JSON, numbers compared as f64, object keys in the same order;
//! - for errors: the same diagnostic kind, and for an uncaught Error (`ExecutionFailure`) the same
//!   error name, read from the start of codemode's message (`TypeError: ...`, optionally after
//!   `Uncaught `). Messages themselves are not compared (V8's wording is not part of the model;
//!   programs that care log `e.message`, and then the logs compare it);
//! - the logs, line for line (one entry per console call, exactly as node prints it).
//!
//! The node side needs `node` 20 on `PATH` (or the binary named by `NODE`); without it the tests
//! fail and say so.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

/// How one program ended, on either side.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The program returned; `value` is the result as it crossed the data boundary.
    Value { value: Value, logs: Vec<String> },
    /// The program failed with a diagnostic.
    Error {
        /// Diagnostic kind (`ExecutionFailure`, `ParseError`, `InvalidDataValue`, ...).
        kind: String,
        /// The thrown Error's `name` when known (`TypeError`), else `None`.
        name: Option<String>,
        /// The whole message, for the report only.
        message: String,
        logs: Vec<String>,
    },
}

impl Outcome {
    pub fn logs(&self) -> &[String] {
        match self {
            Outcome::Value { logs, .. } | Outcome::Error { logs, .. } => logs,
        }
    }

    /// `None` for success, else `Kind` or `Kind:Name` (the corpus markers' notation).
    pub fn failure_marker(&self) -> Option<String> {
        match self {
            Outcome::Value { .. } => None,
            Outcome::Error { kind, name, .. } => Some(match name {
                Some(n) if kind == "ExecutionFailure" => format!("{kind}:{n}"),
                _ => kind.clone(),
            }),
        }
    }

    /// One line for a report.
    pub fn summary(&self) -> String {
        match self {
            Outcome::Value { value, .. } => format!("value {}", clip(&value.to_string(), 300)),
            Outcome::Error { kind, message, .. } => format!("{kind}: {}", clip(message, 300)),
        }
    }

    /// Reads the node runner's reply line; `Err` is a harness error.
    fn from_node(reply: &Value) -> Result<Outcome, String> {
        if let Some(h) = reply.get("harness") {
            return Err(format!("node runner: {}", h.as_str().unwrap_or("?")));
        }
        let logs = logs_of(reply)?;
        match reply.get("ok").and_then(Value::as_bool) {
            Some(true) => Ok(Outcome::Value {
                value: reply.get("value").cloned().unwrap_or(Value::Null),
                logs,
            }),
            Some(false) => {
                let e = reply.get("error").ok_or("node reply without error")?;
                Ok(Outcome::Error {
                    kind: e["kind"].as_str().ok_or("error without kind")?.to_string(),
                    name: e["name"].as_str().map(str::to_string),
                    message: e["message"].as_str().unwrap_or_default().to_string(),
                    logs,
                })
            }
            None => Err(format!("node reply without ok: {reply}")),
        }
    }

    /// Reads codemode's `ExecutionResult::to_json_value()`.
    pub fn from_codemode(result: &Value) -> Outcome {
        let logs = logs_of(result).unwrap_or_default();
        if result.get("ok").and_then(Value::as_bool) == Some(true) {
            return Outcome::Value {
                value: result.get("value").cloned().unwrap_or(Value::Null),
                logs,
            };
        }
        let e = &result["error"];
        let kind = e["kind"].as_str().unwrap_or("?").to_string();
        let message = e["message"].as_str().unwrap_or_default().to_string();
        let name = error_name(&message).map(str::to_string);
        Outcome::Error {
            kind,
            name,
            message,
            logs,
        }
    }
}

fn logs_of(v: &Value) -> Result<Vec<String>, String> {
    match v.get("logs") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|l| {
                l.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("a log entry is not a string: {l}"))
            })
            .collect(),
        Some(other) => Err(format!("logs is not an array: {other}")),
    }
}

/// The JavaScript error name at the start of an uncaught-error message: `TypeError` in
/// `TypeError: x is not a function` or `Uncaught TypeError: ...`; `None` when the message does
/// not start with an identifier followed by `:` or the end.
pub fn error_name(message: &str) -> Option<&str> {
    let m = message.strip_prefix("Uncaught ").unwrap_or(message);
    let end = m.find(':').unwrap_or(m.len());
    let name = &m[..end];
    let ident = !name.is_empty()
        && name.chars().enumerate().all(|(i, c)| {
            c == '_' || c == '$' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())
        });
    (ident && name != "Uncaught").then_some(name)
}

/// JSON equality as JavaScript sees the value: numbers by f64 value, object keys in order.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| ka == kb && json_eq(va, vb))
        }
        _ => a == b,
    }
}

/// The differences between node's outcome (`expected`) and codemode's (`actual`), each a short
/// readable paragraph; empty when they agree.
pub fn compare(expected: &Outcome, actual: &Outcome) -> Vec<String> {
    let mut diffs = Vec::new();
    match (expected, actual) {
        (Outcome::Value { value: e, .. }, Outcome::Value { value: a, .. }) => {
            if !json_eq(e, a) {
                diffs.push(format!(
                    "value differs\n    node:     {}\n    codemode: {}",
                    clip(&e.to_string(), 600),
                    clip(&a.to_string(), 600)
                ));
            }
        }
        (
            Outcome::Error {
                kind: ek, name: en, ..
            },
            Outcome::Error {
                kind: ak,
                name: an,
                message: am,
                ..
            },
        ) => {
            if ek != ak {
                diffs.push(format!(
                    "error kind differs\n    node:     {}\n    codemode: {ak}: {}",
                    expected.summary(),
                    clip(am, 300)
                ));
            } else if ek == "ExecutionFailure" && en.is_some() && en != an {
                diffs.push(format!(
                    "error name differs\n    node:     {}\n    codemode: {}",
                    expected.summary(),
                    clip(am, 300)
                ));
            }
        }
        _ => diffs.push(format!(
            "outcome differs\n    node:     {}\n    codemode: {}",
            expected.summary(),
            actual.summary()
        )),
    }
    let (el, al) = (expected.logs(), actual.logs());
    if el != al {
        let i = el.iter().zip(al).take_while(|(a, b)| a == b).count();
        let show = |l: &[String]| {
            l.get(i)
                .map(|s| format!("{:?}", clip(s, 400)))
                .unwrap_or_else(|| "(no line)".to_string())
        };
        diffs.push(format!(
            "logs differ at line {} (node {} lines, codemode {})\n    node:     {}\n    codemode: {}",
            i + 1,
            el.len(),
            al.len(),
            show(el),
            show(al)
        ));
    }
    diffs
}

/// `s` cut to `n` characters, with a marker when cut.
pub fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let cut: String = s.chars().take(n).collect();
        format!("{cut}…")
    }
}

/// The node binary: `$NODE`, else `node`.
fn node_binary() -> String {
    std::env::var("NODE").unwrap_or_else(|_| "node".to_string())
}

/// Where the oracle's npm tools live (TypeScript, for the `.ts` programs): `$CODEMODE_NODE_TOOLS`,
/// else `target/node-tools` of the workspace; `tests/setup.sh` installs them there.
pub fn node_tools_dir() -> PathBuf {
    match std::env::var_os("CODEMODE_NODE_TOOLS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/node-tools"),
    }
}

/// The TypeScript package the oracle transpiles `.ts` programs with, when installed.
pub fn typescript_dir() -> Option<PathBuf> {
    let d = node_tools_dir().join("node_modules/typescript");
    d.join("package.json").is_file().then_some(d)
}

/// Path of the runner script.
pub fn runner_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/run.mjs")
}

/// One long-lived node process running `run.mjs`.
pub struct Node {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Node {
    /// Starts node with `TZ=UTC`. `Err` says why (node missing, wrong major version).
    pub fn start() -> Result<Node, String> {
        let bin = node_binary();
        let version = Command::new(&bin).arg("--version").output().map_err(|e| {
            format!(
                "cannot run `{bin}` ({e}): the JavaScript differential tests need node 20 \
                     on PATH (or NODE=<path>)"
            )
        })?;
        let version = String::from_utf8_lossy(&version.stdout).trim().to_string();
        if !version.starts_with("v20.") {
            eprintln!(
                "warning: the node oracle is {version}; the corpus was checked against node 20"
            );
        }
        let mut child = Command::new(&bin)
            .arg("--expose-internals")
            .arg("--no-warnings")
            .arg(runner_path())
            .env("TZ", "UTC")
            .env(
                "CODEMODE_TYPESCRIPT",
                typescript_dir()
                    .map(|d| d.into_os_string())
                    .unwrap_or_default(),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start `{bin}`: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().ok_or("node without stdout")?);
        Ok(Node {
            child,
            stdin,
            stdout,
            next_id: 0,
        })
    }

    /// Runs every source in order; one result per source (`Err` = a harness error for that
    /// program). `Err` for the whole batch when the node process itself fails.
    pub fn run(&mut self, sources: &[&str]) -> Result<Vec<Result<Outcome, String>>, String> {
        let programs: Vec<(&str, bool)> = sources.iter().map(|s| (*s, false)).collect();
        self.run_programs(&programs)
    }

    /// As [`Node::run`], each source with whether it is TypeScript (node then runs what
    /// TypeScript's `transpileModule` makes of it).
    pub fn run_programs(
        &mut self,
        programs: &[(&str, bool)],
    ) -> Result<Vec<Result<Outcome, String>>, String> {
        let sources: Vec<&str> = programs.iter().map(|(s, _)| *s).collect();
        let first = self.next_id;
        self.next_id += sources.len() as u64;
        let mut input = String::new();
        for (i, (s, ts)) in programs.iter().enumerate() {
            input.push_str(&json!({ "id": first + i as u64, "source": s, "ts": ts }).to_string());
            input.push('\n');
        }
        let mut stdin = self.stdin.take().ok_or("node's stdin is gone")?;
        // Written from another thread: node answers while it reads, and a full stdout pipe
        // would otherwise block both sides.
        let writer = std::thread::spawn(move || {
            let r = stdin
                .write_all(input.as_bytes())
                .and_then(|_| stdin.flush());
            (stdin, r)
        });
        let mut out = Vec::with_capacity(sources.len());
        let mut line = String::new();
        for i in 0..sources.len() {
            line.clear();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|e| format!("reading node's output: {e}"))?;
            if n == 0 {
                return Err("node exited before answering every program".to_string());
            }
            let reply: Value = match serde_json::from_str(line.trim_end_matches('\n')) {
                Ok(v) => v,
                Err(e) => {
                    out.push(Err(format!(
                        "unreadable node reply ({e}): {}",
                        clip(&line, 300)
                    )));
                    continue;
                }
            };
            if reply["id"].as_u64() != Some(first + i as u64) {
                return Err(format!("node answered out of order: {}", clip(&line, 200)));
            }
            out.push(Outcome::from_node(&reply));
        }
        let (stdin, r) = writer.join().map_err(|_| "writer thread panicked")?;
        r.map_err(|e| format!("writing to node: {e}"))?;
        self.stdin = Some(stdin);
        Ok(out)
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// codemode's side: one runtime for JavaScript, run on a private tokio runtime.
pub struct Engine {
    rt: tokio::runtime::Runtime,
    codemode: Result<codemode::CodeMode, String>,
}

impl Engine {
    /// A JavaScript runtime with `timeout_ms` per program. When this build has no JavaScript
    /// guest, every run fails with kind `EngineUnavailable` and the build error (also for
    /// [`Engine::with_limits`]).
    pub fn new(timeout_ms: u64) -> Engine {
        let limits = codemode::Limits::default()
            .with_timeout_ms(timeout_ms)
            .expect("timeout in range");
        Engine::with_limits(limits)
    }

    /// A JavaScript runtime under `limits`.
    pub fn with_limits(limits: codemode::Limits) -> Engine {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("tokio runtime");
        let codemode = codemode::CodeMode::builder()
            .language(codemode::Language::JavaScript)
            .limits(limits)
            .build()
            .map_err(|e| e.to_string());
        Engine { rt, codemode }
    }

    /// The build error when there is no JavaScript guest.
    pub fn unavailable(&self) -> Option<&str> {
        self.codemode.as_ref().err().map(String::as_str)
    }

    /// Runs one program; a panic anywhere becomes an `EnginePanic` outcome.
    pub fn run(&self, source: &str) -> Outcome {
        let cm = match &self.codemode {
            Ok(cm) => cm,
            Err(e) => {
                return Outcome::Error {
                    kind: "EngineUnavailable".to_string(),
                    name: None,
                    message: e.clone(),
                    logs: Vec::new(),
                };
            }
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.rt.block_on(cm.execute(source)).to_json_value()
        }));
        match run {
            Ok(v) => Outcome::from_codemode(&v),
            Err(p) => Outcome::Error {
                kind: "EnginePanic".to_string(),
                name: None,
                message: p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default(),
                logs: Vec::new(),
            },
        }
    }
}
