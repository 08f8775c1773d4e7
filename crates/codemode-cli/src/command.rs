//! Running a command tool: one process per call.
//!
//! Protocol: the tool's input is written to the process's stdin as one line of JSON and stdin is
//! closed; the process answers with exactly one JSON value on stdout and exits with status 0.
//! - A non-zero exit is a failure whose message is the process's trimmed stderr (at most
//!   [`MAX_STDERR_MESSAGE`] bytes, cut on a character boundary), or a note with the exit status when
//!   stderr is empty.
//! - Stdout that is not exactly one JSON value is a failure: `tool 'git.log' printed invalid JSON: ...`.
//! - Stdout over [`MAX_STDOUT_BYTES`] is a failure; the process is killed.
//! - A program that cannot be started is a failure naming the program.
//!
//! The process inherits the environment, plus `CODEMODE_TOOL` set to the tool's dotted path (so
//! one script can serve several tools), and runs in the manifest's directory, in a process group
//! of its own. When the call ends, the whole group gets SIGKILL: the process itself if the call's
//! future is dropped (the execution timed out or was cancelled), and anything it left running in
//! the background.

use std::process::Stdio;

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::manifest::ToolSpec;

/// Most bytes of stdout read from a command tool (64 MiB); more is a failure.
pub const MAX_STDOUT_BYTES: u64 = 64 * 1024 * 1024;
/// Most bytes of stderr kept from a command tool (64 KiB); the rest is read and dropped.
pub const MAX_STDERR_KEEP: u64 = 64 * 1024;
/// Most bytes of stderr used as a failure message (2 KiB).
pub const MAX_STDERR_MESSAGE: usize = 2048;

/// Runs `tool` once with `input`. `Ok` is the JSON value it printed; `Err` is the failure
/// message the program will see (a `ToolFailure`).
///
/// Cancel-safe: dropping the future kills the process.
pub async fn run(tool: &ToolSpec, input: &Value) -> Result<Value, String> {
    run_capped(tool, input, MAX_STDOUT_BYTES).await
}

/// [`run`] with `max_stdout` bytes of stdout allowed.
async fn run_capped(tool: &ToolSpec, input: &Value, max_stdout: u64) -> Result<Value, String> {
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
    let _group = ProcessGroup(child.id());

    let mut stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let mut payload = serde_json::to_vec(input).unwrap_or_else(|_| b"null".to_vec());
    payload.push(b'\n');

    let write = async move {
        // A tool that does not read its input closes the pipe early; that is not an error.
        let _ = stdin.write_all(&payload).await;
        let _ = stdin.shutdown().await;
        drop(stdin);
    };
    let read_out = async {
        let r = read_capped(stdout, max_stdout, false).await;
        if matches!(r, Ok((_, true))) {
            // Too much output: stop the process now so that stderr reaches end of file.
            let _ = child.start_kill();
        }
        r
    };
    let (_, out, err) = tokio::join!(write, read_out, read_capped(stderr, MAX_STDERR_KEEP, true));
    let (out, out_over) =
        out.map_err(|e| format!("tool '{}': reading its stdout failed: {e}", tool.path))?;
    if out_over {
        let _ = child.wait().await;
        return Err(format!(
            "tool '{}' printed more than {} on stdout; return less data (e.g. ask for fewer items)",
            tool.path,
            if max_stdout.is_multiple_of(1024 * 1024) {
                format!("{} MiB", max_stdout / (1024 * 1024))
            } else {
                format!("{max_stdout} bytes")
            }
        ));
    }
    let (err, _) = err.unwrap_or_default();
    let status = child.wait().await.map_err(|e| {
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
                None => "was killed by a signal".to_string(),
            };
            return Err(format!(
                "tool '{}' failed: program '{program}' {how} and printed nothing on stderr",
                tool.path
            ));
        }
        return Err(cap_message(trimmed, MAX_STDERR_MESSAGE));
    }

    parse_output(&tool.path, &out)
}

/// Kills the process group of a command tool when dropped: when the call ends (normally, or
/// because its future is dropped on timeout or cancellation), nothing it started keeps running.
struct ProcessGroup(Option<u32>);

impl Drop for ProcessGroup {
    fn drop(&mut self) {
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

/// Parses a command's stdout as exactly one JSON value (surrounding whitespace allowed).
pub fn parse_output(path: &str, out: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(out)
        .map_err(|e| format!("tool '{path}' printed invalid JSON: output is not UTF-8 ({e})"))?;
    if text.trim().is_empty() {
        return Err(format!(
            "tool '{path}' printed invalid JSON: stdout was empty; it must print one JSON value"
        ));
    }
    serde_json::from_str(text).map_err(|e| format!("tool '{path}' printed invalid JSON: {e}"))
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

/// Reads up to `cap` bytes. Returns the bytes and whether more than `cap` were available.
/// With `drain` (stderr), the excess is read and dropped so that the process never blocks on a
/// full pipe; without it (stdout), reading stops and the caller kills the process.
async fn read_capped<R: AsyncRead + Unpin>(
    r: R,
    cap: u64,
    drain: bool,
) -> std::io::Result<(Vec<u8>, bool)> {
    let mut buf = Vec::new();
    let mut limited = r.take(cap + 1);
    limited.read_to_end(&mut buf).await?;
    let over = buf.len() as u64 > cap;
    if over {
        buf.truncate(cap as usize);
        if drain {
            let mut rest = limited.into_inner();
            let mut sink = [0u8; 8192];
            while rest.read(&mut sink).await? > 0 {}
        }
    }
    Ok((buf, over))
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
        }
    }

    #[tokio::test]
    async fn echoes_input() {
        let t = tool("cat", &[]);
        let v = run(&t, &json!({"a": [1, 2, {"b": null}]})).await.unwrap();
        assert_eq!(v, json!({"a": [1, 2, {"b": null}]}));
    }

    #[tokio::test]
    async fn nonzero_exit_uses_trimmed_stderr() {
        let t = tool("sh", &["-c", "echo '  no such order  ' >&2; exit 3"]);
        assert_eq!(run(&t, &json!({})).await.unwrap_err(), "no such order");
        let t = tool("sh", &["-c", "exit 4"]);
        assert_eq!(
            run(&t, &json!({})).await.unwrap_err(),
            "tool 't.x' failed: program 'sh' exited with status 4 and printed nothing on stderr"
        );
    }

    #[tokio::test]
    async fn long_stderr_is_capped() {
        let t = tool(
            "sh",
            &["-c", "head -c 100000 /dev/zero | tr '\\0' x >&2; exit 1"],
        );
        let e = run(&t, &json!({})).await.unwrap_err();
        assert!(e.starts_with("xxxx"));
        assert!(e.ends_with("(stderr cut at 2048 bytes)"), "{e}");
        assert!(e.len() < 2100);
    }

    #[tokio::test]
    async fn invalid_json_output() {
        let t = tool("sh", &["-c", "echo 'not json'"]);
        let e = run(&t, &json!({})).await.unwrap_err();
        assert!(e.starts_with("tool 't.x' printed invalid JSON: "), "{e}");
        let t = tool("sh", &["-c", "echo '1 2'"]);
        assert!(
            run(&t, &json!({}))
                .await
                .unwrap_err()
                .contains("printed invalid JSON")
        );
        let t = tool("true", &[]);
        assert!(
            run(&t, &json!({}))
                .await
                .unwrap_err()
                .contains("stdout was empty")
        );
    }

    #[tokio::test]
    async fn ignores_unread_stdin() {
        let t = tool("sh", &["-c", "echo '[1]'"]);
        let big = json!({"s": "y".repeat(1 << 20)});
        assert_eq!(run(&t, &big).await.unwrap(), json!([1]));
    }

    #[tokio::test]
    async fn spawn_failure_names_program() {
        let t = tool("/nonexistent/prog", &[]);
        let e = run(&t, &json!({})).await.unwrap_err();
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
            tokio::time::timeout(std::time::Duration::from_millis(200), run(&t, &json!({}))).await;
        assert!(r.is_err());
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        assert!(!marker.exists(), "the grandchild survived the call");
    }

    #[tokio::test]
    async fn dropping_the_call_kills_the_process() {
        let t = tool("sleep", &["30"]);
        let start = std::time::Instant::now();
        let r =
            tokio::time::timeout(std::time::Duration::from_millis(200), run(&t, &json!({}))).await;
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
        let e = run_capped(&t, &json!({}), 4096).await.unwrap_err();
        assert_eq!(
            e,
            "tool 't.x' printed more than 4096 bytes on stdout; return less data (e.g. ask for fewer items)"
        );
    }

    #[tokio::test]
    async fn the_tool_path_is_in_the_environment() {
        let t = tool("sh", &["-c", "printf '\"%s\"' \"$CODEMODE_TOOL\""]);
        assert_eq!(run(&t, &json!({})).await.unwrap(), json!("t.x"));
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
