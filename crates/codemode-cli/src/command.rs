//! Running a command tool: one process per call.
//!
//! Protocol: the tool's input is written to the process's stdin as one line of JSON and stdin is
//! closed; the process answers with exactly one JSON value on stdout and exits with status 0.
//! - A non-zero exit is a failure whose message is the process's trimmed stderr (at most
//!   [`MAX_STDERR_MESSAGE`] bytes, cut on a character boundary), or a note with the exit status when
//!   stderr is empty.
//! - Stdout that is not exactly one JSON value is a failure: `tool 'git.log' printed invalid JSON: ...`.
//! - Stdout over the tool's cap ([`DEFAULT_MAX_STDOUT_BYTES`] unless the manifest sets
//!   `maxStdoutBytes`) is a failure; the process is killed as soon as the cap is passed.
//! - Output with more than [`MAX_TOOL_OUTPUT_VALUES`] JSON values, or nesting deeper than
//!   [`MAX_TOOL_OUTPUT_NESTING`] levels, is a failure. Both are counted *while* parsing, so a huge
//!   output never becomes a huge `serde_json::Value` tree (about 32 bytes per value plus keys and
//!   strings, which nothing else accounts for).
//! - Outputs over [`PARSE_INLINE_MAX_BYTES`] are parsed on a blocking thread
//!   (`tokio::task::spawn_blocking`), so the tool's future stays cancellable while it parses and the
//!   execution timeout holds; dropping the future stops that parse within 4,096 values.
//! - A program that cannot be started is a failure naming the program.
//! - When the process itself has exited but something it started in the background still holds
//!   stdout or stderr open, the call waits at most [`STDOUT_GRACE`] for end of file, then kills
//!   the process group and uses what was read (success if the exit status was 0 and the output
//!   parses).
//!
//! The process inherits the environment, plus `CODEMODE_TOOL` set to the tool's dotted path (so
//! one script can serve several tools), and runs in the manifest's directory, in a process group
//! of its own. When the call ends, the whole group gets SIGKILL: the process itself if the call's
//! future is dropped (the execution timed out or was cancelled), and anything it left running in
//! the background.

use std::fmt;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::manifest::ToolSpec;

/// Default cap on the bytes of stdout read from one command-tool call (32 MiB); more is a
/// failure and the process is killed. A manifest may set another cap per tool with
/// `maxStdoutBytes` (1 to [`MAX_STDOUT_BYTES_CEILING`]). 32 MiB holds 2·10^5 records of five
/// short string fields (about 18 MiB of JSON) with room to spare.
pub const DEFAULT_MAX_STDOUT_BYTES: u64 = 32 * 1024 * 1024;
/// Highest `maxStdoutBytes` a manifest may give a tool (256 MiB). The value budget
/// [`MAX_TOOL_OUTPUT_VALUES`] still bounds the parsed tree whatever the byte cap is.
pub const MAX_STDOUT_BYTES_CEILING: u64 = 256 * 1024 * 1024;
/// Most JSON values (scalars, arrays and objects, at any depth; object keys are not counted) in
/// one command tool's output: 2,000,000. 2·10^5 records of five fields are 1.2·10^6 values. The
/// parsed tree of an output at this bound takes at most about 200 MB (32 bytes per value plus
/// keys and strings).
pub const MAX_TOOL_OUTPUT_VALUES: usize = 2_000_000;
/// Most levels of nested arrays/objects in a command tool's output: 127 (serde_json's recursion
/// limit; the host would accept one more level, `codemode::limits::MAX_TOOL_OUTPUT_DEPTH`).
pub const MAX_TOOL_OUTPUT_NESTING: usize = 127;
/// Outputs up to this many bytes (64 KiB) are parsed in place; larger ones on a blocking thread.
pub const PARSE_INLINE_MAX_BYTES: usize = 64 * 1024;
/// How long stdout and stderr may stay open after the tool's process has exited (200 ms), e.g.
/// held by a background child; then the process group is killed and what was read is used.
pub const STDOUT_GRACE: Duration = Duration::from_millis(200);
/// Most bytes of stderr kept from a command tool (64 KiB); the rest is read and dropped.
pub const MAX_STDERR_KEEP: u64 = 64 * 1024;
/// Most bytes of stderr used as a failure message (2 KiB).
pub const MAX_STDERR_MESSAGE: usize = 2048;

/// Runs `tool` once with `input`. `Ok` is the JSON value it printed; `Err` is the failure
/// message the program will see (a `ToolFailure`).
///
/// Cancel-safe: dropping the future kills the process group and stops a parse in progress.
/// The input is serialized on a blocking thread too (it may be up to 64 MiB of JSON).
pub async fn run(tool: &ToolSpec, input: Value) -> Result<Value, String> {
    run_bounded(tool, input, tool.max_stdout_bytes, MAX_TOOL_OUTPUT_VALUES).await
}

/// [`run`] with `max_stdout` bytes of stdout and `max_values` JSON values allowed.
async fn run_bounded(
    tool: &ToolSpec,
    input: Value,
    max_stdout: u64,
    max_values: usize,
) -> Result<Value, String> {
    let program = tool.program.display().to_string();
    let mut command = Command::new(&tool.program);
    command
        .args(&tool.args)
        .current_dir(&tool.cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("CODEMODE_TOOL", &tool.path)
        .kill_on_drop(true);
    // Its own process group, so that whatever it starts can be stopped with it.
    #[cfg(unix)]
    command.process_group(0);
    let mut child = command.spawn().map_err(|e| {
        format!(
            "tool '{}' could not start program '{program}': {e}",
            tool.path
        )
    })?;
    let group = ProcessGroup(child.id());

    let mut stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let payload = tokio::task::spawn_blocking(move || {
        let mut payload = serde_json::to_vec(&input).unwrap_or_else(|_| b"null".to_vec());
        payload.push(b'\n');
        payload
    })
    .await
    .map_err(|e| format!("tool '{}': encoding its input failed: {e}", tool.path))?;

    let mut out = Vec::new();
    let mut err = Vec::new();
    let (status, out_read) = {
        let write = async move {
            // A tool that does not read its input closes the pipe early; that is not an error.
            let _ = stdin.write_all(&payload).await;
            let _ = stdin.shutdown().await;
            drop(stdin);
        };
        let group = &group;
        let read_out = async {
            let r = read_into(stdout, &mut out, max_stdout, false).await;
            if matches!(r, Ok(true)) {
                // Too much output: stop the process (and its children) now.
                group.kill();
            }
            r
        };
        let read_err = read_into(stderr, &mut err, MAX_STDERR_KEEP, true);
        let io = async {
            let (_, out, _) = tokio::join!(write, read_out, read_err);
            out
        };
        tokio::pin!(io);
        tokio::select! {
            out_read = &mut io => (child.wait().await, Some(out_read)),
            status = child.wait() => {
                // The process has exited; whatever still holds its pipes open gets a short grace.
                match tokio::time::timeout(STDOUT_GRACE, &mut io).await {
                    Ok(out_read) => (status, Some(out_read)),
                    Err(_) => {
                        group.kill();
                        // Pipes held only by the group now reach end of file; a process that
                        // left the group is not waited for.
                        (status, tokio::time::timeout(STDOUT_GRACE, &mut io).await.ok())
                    }
                }
            }
        }
    };
    // Nothing the tool started outlives the call, also when the output is parsed below.
    group.kill();
    if let Some(Err(e)) = out_read {
        return Err(format!(
            "tool '{}': reading its stdout failed: {e}",
            tool.path
        ));
    }
    if out.len() as u64 > max_stdout {
        return Err(format!(
            "tool '{}' printed more than {} on stdout (its output limit); ask it for less data: filter or page its results (e.g. fewer items per call)",
            tool.path,
            bytes_text(max_stdout)
        ));
    }
    err.truncate(MAX_STDERR_KEEP as usize);
    let status = status.map_err(|e| {
        format!(
            "tool '{}': waiting for program '{program}' failed: {e}",
            tool.path
        )
    })?;

    if !status.success() {
        let text = String::from_utf8_lossy(&err);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            let how = match status.code() {
                Some(code) => format!("exited with status {code}"),
                None => killed_by(&status),
            };
            return Err(format!(
                "tool '{}' failed: program '{program}' {how} and printed nothing on stderr",
                tool.path
            ));
        }
        return Err(cap_message(trimmed, MAX_STDERR_MESSAGE));
    }

    if out.len() <= PARSE_INLINE_MAX_BYTES {
        return parse_output_bounded(&tool.path, &out, max_values, &AtomicBool::new(false));
    }
    // Parse off the async task: the tool's future stays cancellable (the execution timeout
    // drops it), and dropping it raises `cancel`, which stops the parse.
    let cancel = Arc::new(AtomicBool::new(false));
    let _stop = CancelOnDrop(Arc::clone(&cancel));
    let path = tool.path.clone();
    tokio::task::spawn_blocking(move || parse_output_bounded(&path, &out, max_values, &cancel))
        .await
        .unwrap_or_else(|e| {
            Err(format!(
                "tool '{}': parsing its output failed: {e}",
                tool.path
            ))
        })
}

/// How a process that has no exit code ended: `was killed by signal 9 (SIGKILL)`.
fn killed_by(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    if let Some(sig) = std::os::unix::process::ExitStatusExt::signal(status) {
        let name = match sig {
            6 => " (SIGABRT)",
            9 => " (SIGKILL, e.g. out of memory)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        return format!("was killed by signal {sig}{name}");
    }
    let _ = status;
    "was killed by a signal".to_string()
}

/// `n` bytes as text: `32 MiB` when a whole number of MiB, else `N bytes`.
fn bytes_text(n: u64) -> String {
    if n > 0 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else {
        format!("{n} bytes")
    }
}

/// Sets its flag when dropped (the tool's future was dropped or finished).
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Kills the process group of a command tool when dropped: when the call ends (normally, or
/// because its future is dropped on timeout or cancellation), nothing it started keeps running.
struct ProcessGroup(Option<u32>);

impl ProcessGroup {
    /// SIGKILL to the whole group (the tool and everything it started that stayed in it).
    fn kill(&self) {
        #[cfg(unix)]
        if let Some(pid) = self
            .0
            .and_then(|p| i32::try_from(p).ok())
            .and_then(rustix::process::Pid::from_raw)
        {
            // ESRCH (the group is already gone) is the normal case.
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Parses a command's stdout as exactly one JSON value (surrounding whitespace allowed), with
/// the default bounds ([`MAX_TOOL_OUTPUT_VALUES`], [`MAX_TOOL_OUTPUT_NESTING`]).
#[cfg(test)]
pub fn parse_output(path: &str, out: &[u8]) -> Result<Value, String> {
    parse_output_bounded(path, out, MAX_TOOL_OUTPUT_VALUES, &AtomicBool::new(false))
}

/// Parses a command's stdout as exactly one JSON value, failing as soon as it holds more than
/// `max_values` values or nests deeper than [`MAX_TOOL_OUTPUT_NESTING`] levels, or when `cancel`
/// is raised (checked every 4,096 values). The error is the message the program sees.
pub fn parse_output_bounded(
    path: &str,
    out: &[u8],
    max_values: usize,
    cancel: &AtomicBool,
) -> Result<Value, String> {
    let text = std::str::from_utf8(out)
        .map_err(|e| format!("tool '{path}' printed invalid JSON: output is not UTF-8 ({e})"))?;
    if text.trim().is_empty() {
        return Err(format!(
            "tool '{path}' printed invalid JSON: stdout was empty; it must print one JSON value"
        ));
    }
    let mut budget = Budget {
        values: 0,
        max_values,
        cancel,
        stop: None,
    };
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = BoundedValue {
        budget: &mut budget,
        depth: 0,
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|()| v));
    let e = match parsed {
        Ok(v) => return Ok(v),
        Err(e) => e,
    };
    Err(match budget.stop {
        Some(Stop::Values) => values_message(path, max_values),
        Some(Stop::Cancelled) => format!("tool '{path}': parsing its output was cancelled"),
        Some(Stop::Depth) => depth_message(path),
        None if e.to_string().starts_with("recursion limit exceeded") => depth_message(path),
        None => format!(
            "tool '{path}' printed invalid JSON: {e}; its output began with: {}",
            output_preview(text)
        ),
    })
}

/// The first 80 characters of a tool's output, on one line and quoted, for error messages.
fn output_preview(text: &str) -> String {
    let flat: String = text
        .trim_start()
        .chars()
        .take(80)
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let more = if text.trim_start().chars().count() > 80 {
        "..."
    } else {
        ""
    };
    format!("{flat:?}{more}")
}

fn values_message(path: &str, max_values: usize) -> String {
    format!(
        "tool '{path}' printed more than {max_values} JSON values (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
    )
}

fn depth_message(path: &str) -> String {
    format!(
        "tool '{path}' printed JSON nested deeper than {MAX_TOOL_OUTPUT_NESTING} levels (the limit for one tool output); tools must return flatter data"
    )
}

/// Why a bounded parse stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Values,
    Depth,
    Cancelled,
}

/// What a bounded parse has used so far.
struct Budget<'c> {
    values: usize,
    max_values: usize,
    cancel: &'c AtomicBool,
    stop: Option<Stop>,
}

impl Budget<'_> {
    /// Counts one value.
    fn charge<E: de::Error>(&mut self) -> Result<(), E> {
        self.values += 1;
        if self.values > self.max_values {
            return Err(self.fail(Stop::Values));
        }
        if self.values.is_multiple_of(4096) && self.cancel.load(Ordering::Relaxed) {
            return Err(self.fail(Stop::Cancelled));
        }
        Ok(())
    }

    fn fail<E: de::Error>(&mut self, why: Stop) -> E {
        self.stop = Some(why);
        E::custom("tool output bound exceeded")
    }
}

/// Builds a `serde_json::Value` like its own `Deserialize`, charging every value to a
/// [`Budget`] and checking nesting before descending.
struct BoundedValue<'b, 'c> {
    budget: &'b mut Budget<'c>,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for BoundedValue<'_, '_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for BoundedValue<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        self.budget.charge()?;
        Ok(Value::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.budget.charge()?;
        if self.depth >= MAX_TOOL_OUTPUT_NESTING {
            return Err(self.budget.fail(Stop::Depth));
        }
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(BoundedValue {
            budget: &mut *self.budget,
            depth: self.depth + 1,
        })? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.budget.charge()?;
        if self.depth >= MAX_TOOL_OUTPUT_NESTING {
            return Err(self.budget.fail(Stop::Depth));
        }
        let mut fields = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let v = map.next_value_seed(BoundedValue {
                budget: &mut *self.budget,
                depth: self.depth + 1,
            })?;
            fields.insert(key, v);
        }
        Ok(Value::Object(fields))
    }
}

/// Cuts `s` to at most `max` bytes on a character boundary, marking the cut.
pub fn cap_message(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… (stderr cut at {max} bytes)", &s[..end])
}

/// Appends what `r` yields to `buf`, at most `cap + 1` bytes; returns whether more than `cap`
/// were available. With `drain` (stderr), the excess is read and dropped so that the process
/// never blocks on a full pipe; without it (stdout), reading stops and the caller kills the
/// process. If the future is dropped, `buf` keeps what was read so far.
async fn read_into<R: AsyncRead + Unpin>(
    mut r: R,
    buf: &mut Vec<u8>,
    cap: u64,
    drain: bool,
) -> std::io::Result<bool> {
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let n = r.read(&mut chunk).await?;
        if n == 0 {
            return Ok(false);
        }
        let room = (cap + 1).saturating_sub(buf.len() as u64) as usize;
        buf.extend_from_slice(&chunk[..n.min(room)]);
        if buf.len() as u64 > cap {
            break;
        }
    }
    if drain {
        while r.read(&mut chunk).await? > 0 {}
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::PathBuf;

    fn tool(program: &str, args: &[&str]) -> ToolSpec {
        ToolSpec {
            path: "t.x".into(),
            description: "d".into(),
            input: json!({}),
            output: None,
            program: PathBuf::from(program),
            args: args.iter().map(|s| s.to_string()).collect(),
            cwd: std::env::temp_dir(),
            manifest: "m.json".into(),
            max_stdout_bytes: DEFAULT_MAX_STDOUT_BYTES,
        }
    }

    #[tokio::test]
    async fn echoes_input() {
        let t = tool("cat", &[]);
        let v = run(&t, json!({"a": [1, 2, {"b": null}]})).await.unwrap();
        assert_eq!(v, json!({"a": [1, 2, {"b": null}]}));
    }

    #[tokio::test]
    async fn nonzero_exit_uses_trimmed_stderr() {
        let t = tool("sh", &["-c", "echo '  no such order  ' >&2; exit 3"]);
        assert_eq!(run(&t, json!({})).await.unwrap_err(), "no such order");
        let t = tool("sh", &["-c", "exit 4"]);
        assert_eq!(
            run(&t, json!({})).await.unwrap_err(),
            "tool 't.x' failed: program 'sh' exited with status 4 and printed nothing on stderr"
        );
    }

    #[tokio::test]
    async fn long_stderr_is_capped() {
        let t = tool(
            "sh",
            &["-c", "head -c 100000 /dev/zero | tr '\\0' x >&2; exit 1"],
        );
        let e = run(&t, json!({})).await.unwrap_err();
        assert!(e.starts_with("xxxx"));
        assert!(e.ends_with("(stderr cut at 2048 bytes)"), "{e}");
        assert!(e.len() < 2100);
    }

    #[tokio::test]
    async fn invalid_json_output() {
        let t = tool("sh", &["-c", "echo 'not json'"]);
        let e = run(&t, json!({})).await.unwrap_err();
        assert!(e.starts_with("tool 't.x' printed invalid JSON: "), "{e}");
        let t = tool("sh", &["-c", "echo '1 2'"]);
        assert!(
            run(&t, json!({}))
                .await
                .unwrap_err()
                .contains("printed invalid JSON")
        );
        let t = tool("true", &[]);
        assert!(
            run(&t, json!({}))
                .await
                .unwrap_err()
                .contains("stdout was empty")
        );
    }

    #[tokio::test]
    async fn ignores_unread_stdin() {
        let t = tool("sh", &["-c", "echo '[1]'"]);
        let big = json!({"s": "y".repeat(1 << 20)});
        assert_eq!(run(&t, big).await.unwrap(), json!([1]));
    }

    #[tokio::test]
    async fn spawn_failure_names_program() {
        let t = tool("/nonexistent/prog", &[]);
        let e = run(&t, json!({})).await.unwrap_err();
        assert!(
            e.starts_with("tool 't.x' could not start program '/nonexistent/prog': "),
            "{e}"
        );
    }

    #[tokio::test]
    async fn dropping_the_call_kills_the_process_group() {
        let marker = std::env::temp_dir().join(format!("codemode-group-{}", std::process::id()));
        let _ = std::fs::remove_file(&marker);
        // The shell starts a grandchild; it must die with the call instead of writing the marker.
        let script = format!("(sleep 1; touch '{}') & wait", marker.display());
        let t = tool("sh", &["-c", &script]);
        let r =
            tokio::time::timeout(std::time::Duration::from_millis(200), run(&t, json!({}))).await;
        assert!(r.is_err());
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        assert!(!marker.exists(), "the grandchild survived the call");
    }

    #[tokio::test]
    async fn dropping_the_call_kills_the_process() {
        let t = tool("sleep", &["30"]);
        let start = std::time::Instant::now();
        let r =
            tokio::time::timeout(std::time::Duration::from_millis(200), run(&t, json!({}))).await;
        assert!(r.is_err());
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[tokio::test]
    async fn too_much_stdout_fails_and_kills_the_process() {
        // Prints forever; the cap stops it.
        let t = tool(
            "sh",
            &["-c", "while :; do echo '[1,2,3,4,5,6,7,8,9]'; done"],
        );
        let e = run_bounded(&t, json!({}), 4096, MAX_TOOL_OUTPUT_VALUES)
            .await
            .unwrap_err();
        assert_eq!(
            e,
            "tool 't.x' printed more than 4096 bytes on stdout (its output limit); ask it for less data: filter or page its results (e.g. fewer items per call)"
        );
        let e = run_bounded(&t, json!({}), 1 << 20, MAX_TOOL_OUTPUT_VALUES)
            .await
            .unwrap_err();
        assert!(e.contains("printed more than 1 MiB on stdout"), "{e}");
    }

    /// `[1,1,...,1]` with `n` items.
    fn ones(n: usize) -> Vec<u8> {
        let mut s = Vec::with_capacity(2 * n + 2);
        s.push(b'[');
        for i in 0..n {
            if i > 0 {
                s.push(b',');
            }
            s.push(b'1');
        }
        s.push(b']');
        s
    }

    #[test]
    fn the_value_budget_is_counted_while_parsing() {
        let never = AtomicBool::new(false);
        // 4 items + the array = 5 values.
        assert_eq!(
            parse_output_bounded("t.x", b"[1,2,3,4]", 5, &never).unwrap(),
            json!([1, 2, 3, 4])
        );
        let e = parse_output_bounded("t.x", b"[1,2,3,4]", 4, &never).unwrap_err();
        assert_eq!(
            e,
            "tool 't.x' printed more than 4 JSON values (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
        );
        // Objects: the object and each field's value count, keys do not.
        assert!(parse_output_bounded("t.x", br#"{"a":{"b":null}}"#, 3, &never).is_ok());
        assert!(parse_output_bounded("t.x", br#"{"a":{"b":null}}"#, 2, &never).is_err());
        // The default budget: 2,000,000 values.
        let e = parse_output("t.x", &ones(MAX_TOOL_OUTPUT_VALUES)).unwrap_err();
        assert_eq!(
            e,
            "tool 't.x' printed more than 2000000 JSON values (the limit for one tool output); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
        );
        let v = parse_output("t.x", &ones(MAX_TOOL_OUTPUT_VALUES - 1)).unwrap();
        assert_eq!(v.as_array().unwrap().len(), MAX_TOOL_OUTPUT_VALUES - 1);
    }

    #[test]
    fn real_data_fits_the_default_bounds() {
        // 2·10^5 records of five string fields: about 18 MiB of JSON, 1.2·10^6 values.
        let mut s = String::from("[");
        for i in 0..200_000 {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&format!(
                r#"{{"id":"r{i:07}","name":"Customer {i}","email":"user{i}@example.com","city":"Berlin","status":"active"}}"#
            ));
        }
        s.push(']');
        assert!((s.len() as u64) < DEFAULT_MAX_STDOUT_BYTES, "{}", s.len());
        let v = parse_output("t.x", s.as_bytes()).unwrap();
        let items = v.as_array().unwrap();
        assert_eq!(items.len(), 200_000);
        assert_eq!(items[199_999]["email"], json!("user199999@example.com"));
    }

    #[test]
    fn nesting_is_bounded_with_a_clear_message() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert!(parse_output("t.x", deep(MAX_TOOL_OUTPUT_NESTING).as_bytes()).is_ok());
        let msg = "tool 't.x' printed JSON nested deeper than 127 levels (the limit for one tool output); tools must return flatter data";
        for n in [MAX_TOOL_OUTPUT_NESTING + 1, 100_000] {
            assert_eq!(parse_output("t.x", deep(n).as_bytes()).unwrap_err(), msg);
        }
        let obj = format!("{}1{}", r#"{"a":"#.repeat(100_000), "}".repeat(100_000));
        assert_eq!(parse_output("t.x", obj.as_bytes()).unwrap_err(), msg);
    }

    #[test]
    fn a_raised_cancel_flag_stops_the_parse() {
        let cancel = AtomicBool::new(true);
        let e = parse_output_bounded("t.x", &ones(10_000), MAX_TOOL_OUTPUT_VALUES, &cancel)
            .unwrap_err();
        assert_eq!(e, "tool 't.x': parsing its output was cancelled");
    }

    #[test]
    fn parse_keeps_json_semantics() {
        // Same results as serde_json's own Value for the odd cases.
        assert_eq!(
            parse_output("t.x", br#"{"a":1,"a":2}"#).unwrap(),
            json!({"a": 2})
        );
        assert_eq!(parse_output("t.x", b"  \n 1 \n").unwrap(), json!(1));
        assert_eq!(
            parse_output("t.x", b"123456789012345678901234567890").unwrap(),
            json!(1.2345678901234568e29)
        );
        assert_eq!(
            parse_output(
                "t.x",
                br#"[-5, 18446744073709551615, 1.5, true, null, "\u00e9"]"#
            )
            .unwrap(),
            json!([-5, 18446744073709551615u64, 1.5, true, null, "é"])
        );
        for bad in [
            &b"NaN"[..],
            b"1e99999",
            br#""\ud800""#,
            b"1 2",
            b"\xef\xbb\xbf1",
        ] {
            let e = parse_output("t.x", bad).unwrap_err();
            assert!(e.starts_with("tool 't.x' printed invalid JSON: "), "{e}");
        }
    }

    #[tokio::test]
    async fn an_over_budget_output_from_a_process_fails_cleanly() {
        // 3·10^6 values in 6 MB: under the byte cap, over the value budget.
        let t = tool(
            "sh",
            &[
                "-c",
                "printf '['; yes '1,' | head -n 3000000 | tr -d '\\n'; printf '1]'",
            ],
        );
        let e = run(&t, json!({})).await.unwrap_err();
        assert_eq!(e, values_message("t.x", MAX_TOOL_OUTPUT_VALUES));
    }

    /// Whether process `pid` is gone (or a zombie waiting for its reaper).
    fn gone(pid: &str) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            Ok(stat) => stat
                .rsplit(')')
                .next()
                .is_some_and(|rest| rest.trim_start().starts_with('Z')),
        }
    }

    #[tokio::test]
    async fn a_background_child_holding_stdout_does_not_hold_the_call() {
        let pidfile = std::env::temp_dir().join(format!("codemode-bg-{}", std::process::id()));
        let _ = std::fs::remove_file(&pidfile);
        let script = format!(
            "sleep 60 & echo $! > '{}'; echo '{{\"ok\": 1}}'",
            pidfile.display()
        );
        let t = tool("sh", &["-c", &script]);
        let start = std::time::Instant::now();
        let v = run(&t, json!({})).await.unwrap();
        let took = start.elapsed();
        assert_eq!(v, json!({"ok": 1}));
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
        assert!(took >= STDOUT_GRACE, "{took:?}");
        let pid = std::fs::read_to_string(&pidfile).unwrap();
        let _ = std::fs::remove_file(&pidfile);
        let pid = pid.trim();
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        assert!(gone(pid), "the background sleep {pid} survived the call");

        // A failing tool with a background child: the stderr read so far is the message.
        let t = tool("sh", &["-c", "sleep 60 & echo 'no such order' >&2; exit 3"]);
        let start = std::time::Instant::now();
        assert_eq!(run(&t, json!({})).await.unwrap_err(), "no such order");
        assert!(start.elapsed() < std::time::Duration::from_secs(2));
    }

    #[tokio::test]
    async fn a_child_that_left_the_process_group_is_not_waited_for() {
        // `setsid` takes the child out of the tool's group, so the kill cannot reach it; the call
        // still returns after the two grace periods with what was read.
        if crate::manifest::find_on_path("setsid").is_none() {
            return;
        }
        let pidfile = std::env::temp_dir().join(format!("codemode-setsid-{}", std::process::id()));
        let script = format!(
            "setsid sleep 30 & echo $! > '{}'; echo '[1]'",
            pidfile.display()
        );
        let t = tool("sh", &["-c", &script]);
        let start = std::time::Instant::now();
        let v = run(&t, json!({})).await;
        let took = start.elapsed();
        if let Ok(pid) = std::fs::read_to_string(&pidfile) {
            let _ = std::process::Command::new("kill")
                .args(["-9", pid.trim()])
                .status();
        }
        let _ = std::fs::remove_file(&pidfile);
        assert_eq!(v.unwrap(), json!([1]));
        assert!(took < std::time::Duration::from_secs(2), "{took:?}");
    }

    #[tokio::test]
    async fn a_killed_tool_names_the_signal() {
        let t = tool("sh", &["-c", "kill -9 $$"]);
        assert_eq!(
            run(&t, json!({})).await.unwrap_err(),
            "tool 't.x' failed: program 'sh' was killed by signal 9 (SIGKILL, e.g. out of memory) and printed nothing on stderr"
        );
    }

    #[tokio::test]
    async fn the_tool_path_is_in_the_environment() {
        let t = tool("sh", &["-c", "printf '\"%s\"' \"$CODEMODE_TOOL\""]);
        assert_eq!(run(&t, json!({})).await.unwrap(), json!("t.x"));
    }

    #[test]
    fn cap_message_respects_char_boundaries() {
        let s = "é".repeat(10); // 20 bytes
        assert_eq!(
            cap_message(&s, 5),
            format!("{}… (stderr cut at 5 bytes)", "é".repeat(2))
        );
        assert_eq!(cap_message("abc", 5), "abc");
    }
}
