//! Running a command tool: one process per call.
//!
//! Protocol: the tool's input is written to the process's stdin as one line of JSON and stdin is
//! closed; the process answers with exactly one JSON value on stdout and exits with status 0.
//! - A non-zero exit is a failure whose message names the tool, the program and the exit status,
//!   then the process's trimmed stderr (its last [`MAX_STDERR_MESSAGE`] bytes, cut on a character
//!   boundary: a traceback ends with the exception): `tool 'git.log' failed: program 'python3'
//!   exited with status 1: ValueError: ...`.
//! - Stdout that is not exactly one JSON value is a failure: `tool 'git.log' printed invalid JSON: ...`.
//! - Stdout over the tool's cap ([`DEFAULT_MAX_STDOUT_BYTES`] unless the manifest sets
//!   `maxStdoutBytes`) is a failure; the process is killed as soon as the cap is passed.
//! - Output with more than [`MAX_TOOL_OUTPUT_VALUES`] JSON values, nesting deeper than
//!   [`MAX_TOOL_OUTPUT_NESTING`] levels, or whose parsed tree would take more memory than
//!   [`OutputBounds::max_bytes`] (at most [`MAX_TOOL_OUTPUT_MEMORY`], 256 MiB, and at most the
//!   execution's memory limit) is a failure. All three are counted *while* parsing, so a huge
//!   output never becomes a huge `serde_json::Value` tree: each node is charged what it really
//!   allocates ([`heap_cost`]: 72 bytes per array slot, 104 per object entry plus its hash index,
//!   the malloc chunk of every string and key). A call therefore holds at most its stdout (the
//!   cap, 32 MiB by default) plus the tree's bound at once: about 290 MiB by default.
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
/// Highest `maxStdoutBytes` a manifest may give a tool (256 MiB). [`MAX_TOOL_OUTPUT_VALUES`]
/// and [`MAX_TOOL_OUTPUT_MEMORY`] still bound the parsed tree whatever the byte cap is.
pub const MAX_STDOUT_BYTES_CEILING: u64 = 256 * 1024 * 1024;
/// Most JSON values (scalars, arrays and objects, at any depth; object keys are not counted) in
/// one command tool's output: 2,000,000. 2·10^5 records of five fields are 1.2·10^6 values.
/// Memory is bounded separately, by [`MAX_TOOL_OUTPUT_MEMORY`].
pub const MAX_TOOL_OUTPUT_VALUES: usize = 2_000_000;
/// Most bytes the parsed tree of one command tool's output may take (256 MiB), as charged by
/// [`heap_cost`]; a lower memory limit of the execution (`max_memory_bytes`) lowers it (see
/// [`OutputBounds::for_memory_limit`]). 2·10^5 records of five short string fields take about
/// 205 MB; a 10 MB string takes 10 MB. With the stdout buffer, one call holds at most its stdout
/// cap plus this.
pub const MAX_TOOL_OUTPUT_MEMORY: usize = 256 * 1024 * 1024;
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
pub async fn run(tool: &ToolSpec, input: Value, bounds: OutputBounds) -> Result<Value, String> {
    run_bounded(tool, input, tool.max_stdout_bytes, bounds).await
}

/// The bounds of one tool output's parsed tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputBounds {
    /// Most JSON values ([`MAX_TOOL_OUTPUT_VALUES`] by default).
    pub max_values: usize,
    /// Most bytes the tree may take, as [`heap_cost`] charges them ([`MAX_TOOL_OUTPUT_MEMORY`]
    /// by default).
    pub max_bytes: usize,
    /// Whether `max_bytes` is the execution's memory limit (it names that limit when exceeded).
    pub from_memory_limit: bool,
}

impl OutputBounds {
    /// The default bounds, with `max_bytes` lowered to `memory_limit` (the execution's
    /// `max_memory_bytes`, in bytes) when that is lower: an output the program could not hold
    /// fails as a `ToolFailure` before it takes the host's memory.
    pub fn for_memory_limit(memory_limit: Option<u64>) -> OutputBounds {
        let limit = memory_limit.map(|m| usize::try_from(m).unwrap_or(usize::MAX));
        match limit {
            Some(m) if m < MAX_TOOL_OUTPUT_MEMORY => OutputBounds {
                max_values: MAX_TOOL_OUTPUT_VALUES,
                max_bytes: m,
                from_memory_limit: true,
            },
            _ => OutputBounds::default(),
        }
    }
}

impl Default for OutputBounds {
    fn default() -> Self {
        OutputBounds {
            max_values: MAX_TOOL_OUTPUT_VALUES,
            max_bytes: MAX_TOOL_OUTPUT_MEMORY,
            from_memory_limit: false,
        }
    }
}

/// [`run`] with `max_stdout` bytes of stdout allowed.
async fn run_bounded(
    tool: &ToolSpec,
    input: Value,
    max_stdout: u64,
    bounds: OutputBounds,
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
        let how = match status.code() {
            Some(code) => format!("exited with status {code}"),
            None => killed_by(&status),
        };
        return Err(format!(
            "tool '{}' failed: program '{program}' {how}: {}",
            tool.path,
            cap_message(trimmed, MAX_STDERR_MESSAGE)
        ));
    }

    if out.len() <= PARSE_INLINE_MAX_BYTES {
        return parse_output_bounded(&tool.path, &out, bounds, &AtomicBool::new(false));
    }
    // Parse off the async task: the tool's future stays cancellable (the execution timeout
    // drops it), and dropping it raises `cancel`, which stops the parse.
    let cancel = Arc::new(AtomicBool::new(false));
    let _stop = CancelOnDrop(Arc::clone(&cancel));
    let path = tool.path.clone();
    tokio::task::spawn_blocking(move || parse_output_bounded(&path, &out, bounds, &cancel))
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
/// the default bounds ([`OutputBounds::default`], [`MAX_TOOL_OUTPUT_NESTING`]).
#[cfg(test)]
pub fn parse_output(path: &str, out: &[u8]) -> Result<Value, String> {
    parse_output_bounded(path, out, OutputBounds::default(), &AtomicBool::new(false))
}

/// Parses a command's stdout as exactly one JSON value, failing as soon as it holds more than
/// `bounds.max_values` values, its tree would take more than `bounds.max_bytes` ([`heap_cost`]),
/// it nests deeper than [`MAX_TOOL_OUTPUT_NESTING`] levels, or `cancel` is raised (checked every
/// 4,096 values). The error is the message the program sees.
pub fn parse_output_bounded(
    path: &str,
    out: &[u8],
    bounds: OutputBounds,
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
        max_values: bounds.max_values,
        bytes: 0,
        max_bytes: bounds.max_bytes,
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
        Some(Stop::Values) => values_message(path, bounds.max_values),
        Some(Stop::Bytes) => memory_message(path, bounds),
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

fn memory_message(path: &str, bounds: OutputBounds) -> String {
    let (size, what) = if bounds.from_memory_limit {
        (
            format!("{} bytes", bounds.max_bytes),
            "the execution's memory limit, max_memory_bytes",
        )
    } else {
        (
            bytes_text(bounds.max_bytes as u64),
            "the limit for one tool output",
        )
    };
    format!(
        "tool '{path}' printed output that would take more than {size} of memory once parsed ({what}); ask it for less data: filter or page its results (e.g. fewer items or fields per call)"
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
    Bytes,
    Depth,
    Cancelled,
}

/// What a bounded parse has used so far.
struct Budget<'c> {
    values: usize,
    max_values: usize,
    /// Bytes the tree built so far takes (see [`heap_cost`]).
    bytes: usize,
    max_bytes: usize,
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

    /// Charges `n` bytes of the tree, before they are allocated where possible.
    fn charge_bytes<E: de::Error>(&mut self, n: usize) -> Result<(), E> {
        self.bytes = self.bytes.saturating_add(n);
        if self.bytes > self.max_bytes {
            return Err(self.fail(Stop::Bytes));
        }
        Ok(())
    }

    /// Gives back `n` bytes charged earlier and freed since.
    fn refund(&mut self, n: usize) {
        self.bytes = self.bytes.saturating_sub(n);
    }

    /// Makes room for one more item in `items` (a full vector doubles, from 4), charging the
    /// larger buffer first.
    fn grow<T, E: de::Error>(&mut self, items: &mut Vec<T>) -> Result<(), E> {
        let cap = items.capacity();
        if items.len() < cap {
            return Ok(());
        }
        let grown = (cap * 2).max(4);
        self.charge_bytes(slots_cost::<T>(grown))?;
        self.refund(slots_cost::<T>(cap));
        items.reserve_exact(grown - items.len());
        Ok(())
    }

    /// Shrinks `items` to its length, giving back what that frees.
    fn shrink<T>(&mut self, items: &mut Vec<T>) {
        let before = slots_cost::<T>(items.capacity());
        items.shrink_to_fit();
        self.refund(before - slots_cost::<T>(items.capacity()).min(before));
    }

    fn fail<E: de::Error>(&mut self, why: Stop) -> E {
        self.stop = Some(why);
        E::custom("tool output bound exceeded")
    }
}

/// Bytes an allocation of `n` bytes takes from the allocator: glibc's malloc adds an 8-byte
/// header, rounds up to 16 bytes and takes at least 32; nothing for `n == 0` (an empty
/// `String` or `Vec` does not allocate). The tree's cost is the sum of its allocations:
/// every string and key ([`heap_cost`] of its length), every array buffer ([`slots_cost`]) and
/// every object's map ([`map_cost`]); scalars live in their parent's slot.
pub fn heap_cost(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        (n.saturating_add(8 + 15) & !15).max(32)
    }
}

/// Bytes of a vector buffer of `capacity` slots of `T` (72 bytes a `serde_json::Value`).
pub fn slots_cost<T>(capacity: usize) -> usize {
    heap_cost(capacity.saturating_mul(std::mem::size_of::<T>()))
}

/// Bytes of a `serde_json::Map` (an `indexmap::IndexMap`, the workspace enables
/// `preserve_order`) made with room for `n` entries: its entries vector (hash, key and value: 104
/// bytes each) and its hash table of `usize` indices (hashbrown: 4 buckets below 4 entries, 8
/// below 8, else the power of two above 8/7 of `n`; 8 bytes plus one control byte each, plus 16
/// control bytes), keys not included.
pub fn map_cost(n: usize) -> usize {
    if n == 0 {
        return 0;
    }
    let buckets = match n {
        0..4 => 4,
        4..8 => 8,
        _ => (n.saturating_mul(8) / 7).next_power_of_two(),
    };
    let index = (buckets * std::mem::size_of::<usize>()).next_multiple_of(16) + buckets + 16;
    slots_cost::<(u64, String, Value)>(n) + heap_cost(index)
}

/// Builds a `serde_json::Value` like its own `Deserialize`, charging every value and every
/// allocation to a [`Budget`] and checking nesting before descending.
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
        self.budget.charge_bytes(heap_cost(v.len()))?;
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        self.budget.charge()?;
        self.budget.charge_bytes(heap_cost(v.capacity()))?;
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
            self.budget.grow(&mut items)?;
            items.push(v);
        }
        self.budget.shrink(&mut items);
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        self.budget.charge()?;
        if self.depth >= MAX_TOOL_OUTPUT_NESTING {
            return Err(self.budget.fail(Stop::Depth));
        }
        // Collected first, so that the map is made with room for exactly its entries (a growing
        // map holds up to twice that) and its cost is known before it is allocated.
        let mut entries: Vec<(String, Value)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            self.budget.charge_bytes(heap_cost(key.capacity()))?;
            let v = map.next_value_seed(BoundedValue {
                budget: &mut *self.budget,
                depth: self.depth + 1,
            })?;
            self.budget.grow(&mut entries)?;
            entries.push((key, v));
        }
        self.budget.charge_bytes(map_cost(entries.len()))?;
        let collected = slots_cost::<(String, Value)>(entries.capacity());
        let mut fields = Map::with_capacity(entries.len());
        for (key, v) in entries {
            fields.insert(key, v);
        }
        self.budget.refund(collected);
        Ok(Value::Object(fields))
    }
}

/// Keeps the last `max` bytes of `s` (on a character boundary), marking the cut: the end of
/// stderr is what explains a failure (a traceback ends with the exception).
pub fn cap_message(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    format!("…{} (stderr cut to its last {max} bytes)", &s[start..])
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
mod tests;
