//! Differential tests: every Lua program of the corpus in `tests/differential/` (repository root)
//! runs under the reference interpreter `lua5.4` and under codemode-lua, and the two runs must
//! print the same text.
//!
//! # What is compared
//! - `tests/differential/*.lua` (test [`differential_corpus`]): the program is wrapped as
//!   `local __cm_f = function(...) <program>\nend` followed by a canonical dumper written in plain
//!   Lua ([`DUMPER`]) and a line that prints the dump of every returned value. The wrapper prefix
//!   sits on the program's first line, so line numbers inside the program are unchanged. The very
//!   same wrapped text runs in both interpreters, so the dump of the returned value is produced by
//!   each interpreter itself: integers vs floats (`1` vs `float(1)`), exact float bits (`%.17g`),
//!   strings byte by byte, tables with sorted keys. Compared: everything printed (codemode's logs,
//!   one line per `print` call, against lua5.4's stdout) plus the final dump line. The program must
//!   not fail.
//! - `tests/differential/errors/*.lua` (test [`differential_errors`]): programs that end in an
//!   uncaught error. They run as they are (no wrapper). Compared: the printed output, that the
//!   program failed, the error message with its position prefix removed (codemode's message may
//!   add a hint after Lua's text), and the error line when Lua's message carries one. A program
//!   may state a deliberately different message with a `-- codemode-error: <text>` line (see
//!   [`intended_message`]).
//!
//! One intended difference: `print` of a table logs its compact JSON (or, when it cannot be
//! JSON, a Lua table constructor) where lua5.4 prints `table: 0x…`, an address no two runs
//! share; corpus programs print fields or `tostring` values, never a table itself.
//!
//! Hints codemode appends to caught runtime errors ([`HINTS`]) are removed from its output
//! before the comparison.
//!
//! Error messages caught by `pcall` carry Lua's position prefix in both (`input:3: `: the driver
//! runs programs with chunk name `input`), so printed output is compared as it is: whether a
//! message has a position, and its line, count. Uncaught error messages are compared after
//! [`strip_positions`] removes the prefix (codemode reports the location separately; its line is
//! compared on its own).
//!
//! All mismatches are collected and reported together; the test then fails once. `lua5.4` must be
//! installed (`.ci/run` installs it): without it the tests fail and say so.
//!
//! Environment: `DIFF_FILTER=<part of a file name>` runs a subset, `DIFF_VERBOSE=1` prints both
//! full outputs of every mismatch, `LUA54=<path>` picks another Lua 5.4 binary.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use codemode_lua::{Budgets, Env, ErrorKind, Machine, Step, compile};

/// Canonical dumper, plain Lua 5.4 (no string patterns, no metatables), run by both interpreters.
/// Defines `__cm_dump(value)`.
const DUMPER: &str = r#"
local function __cm_str(v)
  local parts = {}
  for i = 1, #v do
    local b = string.byte(v, i)
    if b == 34 then parts[#parts + 1] = '\\"'
    elseif b == 92 then parts[#parts + 1] = '\\\\'
    elseif b >= 32 and b < 127 then parts[#parts + 1] = string.char(b)
    else parts[#parts + 1] = '\\' .. string.format('%03d', b) end
  end
  return '"' .. table.concat(parts) .. '"'
end
local function __cm_keyless(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  if ta == 'number' or ta == 'string' then return a < b end
  if ta == 'boolean' then return (not a) and b end
  return false
end
local function __cm_dump(v, depth)
  depth = depth or 0
  if depth > 40 then return '<too deep>' end
  local tv = type(v)
  if tv == 'number' then
    if math.type(v) == 'integer' then return string.format('%d', v) end
    if v ~= v then return 'float(nan)' end
    if v == math.huge then return 'float(inf)' end
    if v == -math.huge then return 'float(-inf)' end
    return 'float(' .. string.format('%.17g', v) .. ')'
  elseif tv == 'string' then
    return __cm_str(v)
  elseif tv == 'table' then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, __cm_keyless)
    local parts = {}
    for i = 1, #keys do
      local k = keys[i]
      parts[i] = '[' .. __cm_dump(k, depth + 1) .. ']=' .. __cm_dump(v[k], depth + 1)
    end
    return '{' .. table.concat(parts, ', ') .. '}'
  elseif tv == 'nil' or tv == 'boolean' then
    return tostring(v)
  else
    return '<' .. tv .. '>'
  end
end
local __cm_r = table.pack(__cm_f())
local __cm_out = {}
for i = 1, __cm_r.n do __cm_out[i] = __cm_dump(__cm_r[i]) end
print('=> (' .. __cm_r.n .. ') ' .. table.concat(__cm_out, ' | '))
"#;

/// Lua driver for the oracle: reads the program from stdin, runs it with chunk name `input`,
/// reports an uncaught error on stderr with exit status 2 (compile errors: status 3).
const ORACLE_DRIVER: &str = r#"local src = io.read('a')
local f, err = load(src, '=input')
if not f then io.stderr:write(err) os.exit(3) end
local ok, e = pcall(f)
io.stdout:flush()
if not ok then io.stderr:write(tostring(e)) os.exit(2) end"#;

/// Chunk names that prefix positions in error messages (`input:3: ...`): lua5.4's (set by the
/// driver) and codemode's.
const CHUNK_NAMES: &[&str] = &["input"];

/// Fuel per `Machine::run` call, and the most calls a program may take before it counts as hung.
const SLICE: u32 = 100_000;
const MAX_SLICES: u32 = 20_000;
/// Wall-clock bound per program for either interpreter.
const TIMEOUT: Duration = Duration::from_secs(20);

/// How one run ended.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    /// Printed text, one `\n`-terminated line per `print` call.
    output: String,
    /// `Some(message)` when the program failed (message as the interpreter gives it).
    error: Option<String>,
    /// The error's line, when known.
    error_line: Option<u32>,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential")
}

/// Whether `DIFF_FILTER` selects a subset of the programs.
fn filtered() -> bool {
    std::env::var("DIFF_FILTER").is_ok_and(|f| !f.is_empty())
}

/// `DIFF_FILTER=substring` runs only the programs whose file name contains it.
fn programs_in(dir: &Path) -> Vec<PathBuf> {
    let filter = std::env::var("DIFF_FILTER").unwrap_or_default();
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read corpus directory {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "lua"))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().contains(&filter))
        })
        .collect();
    out.sort();
    out
}

/// The wrapped program: same line numbers as the original (prefix on its first line).
fn wrap(program: &str) -> String {
    format!("local __cm_f = function(...) {program}\nend\n{DUMPER}")
}

/// Find `lua5.4`, or fail the test with instructions.
fn lua_binary() -> String {
    let candidate = std::env::var("LUA54").unwrap_or_else(|_| "lua5.4".to_string());
    match Command::new(&candidate).arg("-v").output() {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout);
            assert!(
                version.contains("Lua 5.4"),
                "`{candidate} -v` printed {version:?}, expected Lua 5.4.x; install lua5.4 \
                 (`apt-get install -y lua5.4`) or set LUA54 to a Lua 5.4 binary"
            );
            candidate
        }
        _ => panic!(
            "the differential tests need the reference interpreter `lua5.4`, which was not found \
             on PATH. Install it (`sudo apt-get update && sudo apt-get install -y lua5.4`, or run \
             `.ci/run`, which installs it) or set LUA54 to the path of a Lua 5.4 binary."
        ),
    }
}

/// Run `source` under lua5.4 with chunk name `input`.
fn run_oracle(lua: &str, source: &str) -> Result<Outcome, String> {
    let mut child = Command::new(lua)
        .arg("-e")
        .arg(ORACLE_DRIVER)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {lua}: {e}"))?;
    {
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin
            .write_all(source.as_bytes())
            .map_err(|e| format!("cannot write the program to lua5.4: {e}"))?;
    }
    // Drain both pipes while waiting: a program printing more than a pipe buffer (64 KiB)
    // would otherwise block on write and look like a timeout.
    let drain = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let out_reader = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let err_reader = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if start.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("lua5.4 ran longer than {TIMEOUT:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            Err(e) => return Err(format!("waiting for lua5.4: {e}")),
        }
    };
    let out = std::process::Output {
        status,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    };
    let output = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => Ok(Outcome {
            output,
            error: None,
            error_line: None,
        }),
        Some(2) => {
            let line = position_line(&stderr);
            Ok(Outcome {
                output,
                error: Some(stderr),
                error_line: line,
            })
        }
        Some(3) => Err(format!("lua5.4 cannot compile the program: {stderr}")),
        other => Err(format!("lua5.4 exited with {other:?}: {stderr}")),
    }
}

/// Run `source` in codemode-lua (no tools). Panics inside the interpreter become an `Err`.
fn run_ours(source: &str) -> Result<Outcome, String> {
    run_ours_with(source, Budgets::default())
}

/// Run `source` in codemode-lua with the given budgets.
fn run_ours_with(source: &str, budgets: Budgets) -> Result<Outcome, String> {
    run_ours_mode(source, budgets, false)
}

/// Steps abandoned and re-run by [`run_ours_mode`] with `restarts` (all programs).
static MIGRATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Run `source` in codemode-lua. With `restarts`, the machine runs in inline stretches that
/// have already expired, in stress mode (`Machine::set_inline_stress`): every restartable step
/// that does any accounted work (builtins, concatenations, exports) is abandoned once and run
/// again after a one-fuel-unit slice off the stretch, as codemode's driver would on the
/// blocking pool.
fn run_ours_mode(source: &str, budgets: Budgets, restarts: bool) -> Result<Outcome, String> {
    let source = source.to_string();
    let result = std::panic::catch_unwind(move || -> Result<Outcome, String> {
        let program = match compile(&source) {
            Ok(p) => p,
            Err(e) => {
                return Err(format!(
                    "codemode cannot compile the program: {:?} at {:?}: {}",
                    e.kind, e.location, e.message
                ));
            }
        };
        let env = Env::default();
        let mut machine = Machine::new(&program, &env, budgets);
        if restarts {
            machine.set_inline_stress(true);
        }
        let start = Instant::now();
        let mut slices = 0u32;
        let mut migrations = 0u64;
        let (error, error_line) = loop {
            let step = if restarts {
                machine.set_inline(Some(Instant::now()));
                match machine.run(SLICE) {
                    Step::Yield if machine.wants_pool() => {
                        migrations += 1;
                        machine.set_inline(None);
                        machine.run(1)
                    }
                    step => step,
                }
            } else {
                machine.run(SLICE)
            };
            match step {
                Step::Yield => {
                    slices += 1;
                    if slices > MAX_SLICES || start.elapsed() > TIMEOUT {
                        return Err(format!(
                            "codemode did not finish within {} fuel units / {TIMEOUT:?}",
                            u64::from(SLICE) * u64::from(MAX_SLICES)
                        ));
                    }
                }
                Step::HostCall(call) => {
                    return Err(format!("unexpected host call {:?}", call.target));
                }
                Step::Done(_) => break (None, None),
                Step::Error(e)
                    if e.message
                        == "internal error: an inline step was not resumed on the blocking pool" =>
                {
                    return Err(format!(
                        "an inline restart leaked as an error after {migrations} migrations: {}",
                        e.message
                    ));
                }
                Step::Error(e) => {
                    let kind = if e.kind == ErrorKind::ExecutionFailure {
                        String::new()
                    } else {
                        format!("[{:?}] ", e.kind)
                    };
                    break (
                        Some(format!("{kind}{}", e.message)),
                        e.location.map(|l| l.line),
                    );
                }
            }
        };
        if restarts {
            MIGRATIONS.fetch_add(migrations, std::sync::atomic::Ordering::Relaxed);
        }
        let mut output = String::new();
        for line in machine.take_logs() {
            output.push_str(&line);
            output.push('\n');
        }
        Ok(Outcome {
            output,
            error,
            error_line,
        })
    });
    match result {
        Ok(r) => r,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "<non-string panic>".to_string());
            Err(format!("codemode panicked: {msg}"))
        }
    }
}

/// The line of a leading `<chunk>:<line>:` prefix, if `message` has one.
fn position_line(message: &str) -> Option<u32> {
    for chunk in CHUNK_NAMES {
        if let Some(rest) = message
            .strip_prefix(chunk)
            .and_then(|r| r.strip_prefix(':'))
        {
            let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            if !digits.is_empty() && rest[digits.len()..].starts_with(':') {
                return digits.parse().ok();
            }
        }
    }
    None
}

/// Remove every position prefix `<chunk>:<line>:` (and `<chunk>:<line>:<column>:`), with one
/// following space, from `text`, wherever it occurs. Used for uncaught error messages, where
/// codemode reports the location separately.
fn strip_positions(text: &str) -> String {
    remove_positions(text)
}

/// Hints codemode appends after Lua's text of a runtime error (see `tests/hints.rs`); a caught
/// message printed by a corpus program is compared without them.
const HINTS: &[&str] = &[
    "; use `..` to join strings",
    "; use %.0f or math.floor(x) for a float",
    "; Lua arrays start at 1 (items[1] is the first)",
    "; to loop over a table use `for i, v in ipairs(t)` (arrays) or `for k, v in pairs(t)`",
];

/// `text` without the [`HINTS`], without the missing-field hint ("; that table has no field
/// 'x'; its fields: ..." to the end of its line), and without the hint codemode appends to
/// "attempt to call a nil value (method 'split')"-style messages (what to write instead:
/// everything from `; ` after the closing `')` to the end of that line).
fn strip_hints(text: &str) -> String {
    let mut out = text.to_string();
    for h in HINTS {
        if out.contains(h) {
            out = out.replace(h, "");
        }
    }
    let lines: Vec<String> = out
        .split('\n')
        .map(|line| {
            // The missing-field hint runs to the end of its line, or (inside a dumped string)
            // to the closing quote.
            let mut line = line.to_string();
            while let Some(at) = line.find("; that table has no field '") {
                let end = line[at..].find('"').map_or(line.len(), |e| at + e);
                line.replace_range(at..end, "");
            }
            line
        })
        .map(|line| {
            let Some(at) = line.find("attempt to call a nil value (") else {
                return line.to_string();
            };
            match line[at..].find("'); ") {
                Some(end) => line[..at + end + 2].to_string(),
                None => line.to_string(),
            }
        })
        .collect();
    lines.join("\n")
}

fn remove_positions(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let bytes = text.as_bytes();
    'outer: while i < bytes.len() {
        for chunk in CHUNK_NAMES {
            let c = chunk.as_bytes();
            if bytes[i..].starts_with(c) && bytes.get(i + c.len()) == Some(&b':') {
                // one or two `<digits>:` groups
                let mut j = i + c.len() + 1;
                let mut groups = Vec::new();
                while groups.len() < 2 {
                    let start = j;
                    while j < bytes.len() && bytes[j].is_ascii_digit() {
                        j += 1;
                    }
                    if j > start && bytes.get(j) == Some(&b':') {
                        groups.push(&text[start..j]);
                        j += 1;
                    } else {
                        j = start;
                        break;
                    }
                }
                if !groups.is_empty() {
                    if bytes.get(j) == Some(&b' ') {
                        j += 1;
                    }
                    i = j;
                    continue 'outer;
                }
            }
        }
        let ch = text[i..].chars().next().expect("in bounds");
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// A line-by-line comparison for the report: the first differing lines with context.
fn describe_diff(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let mut out = String::new();
    let mut shown = 0;
    for i in 0..e.len().max(a.len()) {
        let (el, al) = (e.get(i), a.get(i));
        if el != al {
            out.push_str(&format!(
                "    line {}:\n      lua5.4:   {}\n      codemode: {}\n",
                i + 1,
                el.map_or("<no line>".to_string(), |s| s.to_string()),
                al.map_or("<no line>".to_string(), |s| s.to_string()),
            ));
            shown += 1;
            if shown >= 6 {
                out.push_str("    ...\n");
                break;
            }
        }
    }
    out
}

/// `DIFF_VERBOSE=1` prints both full outputs for every mismatch (always on for up to 5 mismatches).
fn verbose() -> bool {
    std::env::var("DIFF_VERBOSE").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn report(kind: &str, failures: &[String], total: usize) {
    if !failures.is_empty() {
        let names: Vec<&str> = failures
            .iter()
            .map(|f| f.split(':').next().unwrap_or(""))
            .collect();
        panic!(
            "{} of {total} {kind} programs differ between lua5.4 and codemode:\n\n{}\n\
             differing programs: {}\n(DIFF_FILTER=<name part> runs a subset; DIFF_VERBOSE=1 \
             prints full outputs)",
            failures.len(),
            failures.join("\n"),
            names.join(" ")
        );
    }
}

fn name_of(path: &Path) -> String {
    path.strip_prefix(corpus_dir())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[test]
fn differential_corpus() {
    let lua = lua_binary();
    let programs = programs_in(&corpus_dir());
    assert!(
        filtered() || programs.len() >= 200,
        "expected at least 200 programs, found {}",
        programs.len()
    );
    let mut failures = Vec::new();
    let mut full = Vec::new();
    for path in &programs {
        let name = name_of(path);
        let program = std::fs::read_to_string(path).expect("readable program");
        let wrapped = wrap(&program);
        let expected = match run_oracle(&lua, &wrapped) {
            Ok(o) if o.error.is_none() => o.output,
            Ok(o) => {
                let entry = format!(
                    "{name}: invalid test: fails under lua5.4: {}",
                    o.error.unwrap_or_default()
                );
                full.push(entry.clone());
                failures.push(entry);
                continue;
            }
            Err(e) => {
                full.push(format!("{name}: invalid test: {e}"));
                failures.push(format!("{name}: invalid test: {e}"));
                continue;
            }
        };
        let actual = match run_ours(&wrapped) {
            Ok(o) => {
                let mut text = strip_hints(&o.output);
                if let Some(err) = o.error {
                    text.push_str(&format!(
                        "<uncaught error at line {:?}: {}>\n",
                        o.error_line,
                        strip_positions(&err)
                    ));
                }
                text
            }
            Err(e) => format!("<{e}>\n"),
        };
        if expected != actual {
            full.push(format!(
                "{name}:\n  --- lua5.4 (full)\n{}  --- codemode (full)\n{}",
                indent(&expected),
                indent(&actual)
            ));
            failures.push(format!("{name}:\n{}", describe_diff(&expected, &actual)));
        }
    }
    if verbose() || failures.len() <= 5 {
        failures = full;
    }
    report("corpus", &failures, programs.len());
}

/// Memory cap for [`corpus_under_gc_pressure`]: collections then start every cap/8 bytes of
/// allocation instead of every few MiB, so the corpus exercises the collector many times.
const GC_PRESSURE_CAP: usize = 1 << 18;

/// The corpus again, in codemode only, with a small memory cap so that the garbage collector runs
/// often: the output must be the same as with the default budgets (a difference means a live
/// object was freed or a value corrupted). A program whose live data does not fit the cap is
/// skipped (its error says "memory limit").
#[test]
fn corpus_under_gc_pressure() {
    let programs = programs_in(&corpus_dir());
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for path in &programs {
        let name = name_of(path);
        let program = std::fs::read_to_string(path).expect("readable program");
        let wrapped = wrap(&program);
        let normal = run_ours(&wrapped);
        let budgets = Budgets {
            max_memory_bytes: Some(GC_PRESSURE_CAP),
        };
        let stressed = run_ours_with(&wrapped, budgets);
        if let Ok(Outcome {
            error: Some(msg), ..
        }) = &stressed
            && msg.contains("memory limit")
        {
            skipped.push(name);
            continue;
        }
        if normal != stressed {
            failures.push(format!(
                "{name}:\n  default budgets: {normal:?}\n  {GC_PRESSURE_CAP}-byte cap: {stressed:?}"
            ));
        }
    }
    assert!(
        skipped.len() * 10 <= programs.len(),
        "too many programs do not fit {GC_PRESSURE_CAP} bytes: {skipped:?}"
    );
    if !failures.is_empty() {
        panic!(
            "{} of {} programs print something else when the collector runs often \
             (skipped for the memory cap: {skipped:?}):\n\n{}",
            failures.len(),
            programs.len(),
            failures.join("\n")
        );
    }
}

/// Memory cap for [`collection_runs_inside_callbacks`]: the programs' live data fits in it, the
/// garbage their callbacks make (megabytes per `table.sort` or `xpcall`) does not.
const CALLBACK_GC_CAP: usize = 1 << 20;

/// Corpus programs whose garbage is made inside a builtin's Lua callback: a `table.sort`
/// comparator, an `xpcall` message handler.
const CALLBACK_GC_PROGRAMS: &[&str] = &[
    "310_sort_comparator_allocates.lua",
    "311_xpcall_handler_allocates.lua",
];

/// Issue 17, point 17: the collector runs inside `table.sort` comparators and `xpcall` message
/// handlers (the values those builtins hold across the callback are GC roots), so programs whose
/// callbacks allocate heavily run under a small memory cap and print what lua5.4 prints. Before,
/// no collection ran inside those callbacks and the garbage piled up to the cap.
#[test]
fn collection_runs_inside_callbacks() {
    let lua = lua_binary();
    let mut failures = Vec::new();
    for file in CALLBACK_GC_PROGRAMS {
        let path = corpus_dir().join(file);
        let program = std::fs::read_to_string(&path).expect("readable program");
        let wrapped = wrap(&program);
        let expected = match run_oracle(&lua, &wrapped) {
            Ok(o) if o.error.is_none() => o.output,
            other => panic!("{file}: invalid test: lua5.4 gives {other:?}"),
        };
        let budgets = Budgets {
            max_memory_bytes: Some(CALLBACK_GC_CAP),
        };
        match run_ours_with(&wrapped, budgets) {
            Ok(o) if o.error.is_none() && strip_hints(&o.output) == expected => {}
            Ok(o) => failures.push(format!(
                "{file} under a {CALLBACK_GC_CAP}-byte cap:\n  error: {:?}\n{}",
                o.error,
                describe_diff(&expected, &strip_hints(&o.output))
            )),
            Err(e) => failures.push(format!("{file}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Both corpora again, in codemode only, with every restartable step abandoned and re-run
/// (see [`run_ours_mode`]): printed output, returned values and errors must be exactly those
/// of an ordinary run. A difference means a builtin changed something before its last check
/// point without declaring it (`Ctx::effects`), or the VM did not rewind to the right place.
#[test]
fn corpus_with_inline_restarts() {
    let mut programs = programs_in(&corpus_dir());
    let errors = programs_in(&corpus_dir().join("errors"));
    let first_error = programs.len();
    programs.extend(errors);
    let mut failures = Vec::new();
    for (i, path) in programs.iter().enumerate() {
        let name = name_of(path);
        let program = std::fs::read_to_string(path).expect("readable program");
        let source = if i < first_error {
            wrap(&program)
        } else {
            program
        };
        let normal = run_ours(&source);
        let restarted = run_ours_mode(&source, Budgets::default(), true);
        if normal != restarted {
            failures.push(format!(
                "{name}:\n  ordinary run: {normal:?}\n  with restarts: {restarted:?}"
            ));
        }
    }
    let migrations = MIGRATIONS.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{} programs, {migrations} steps restarted", programs.len());
    assert!(
        filtered() || migrations > 10 * programs.len() as u64,
        "only {migrations} steps were restarted: the stress mode does not reach the builtins"
    );
    if !failures.is_empty() {
        panic!(
            "{} of {} programs behave differently when their steps are restarted:\n\n{}",
            failures.len(),
            programs.len(),
            failures.join("\n")
        );
    }
}

#[test]
fn differential_errors() {
    let lua = lua_binary();
    let programs = programs_in(&corpus_dir().join("errors"));
    assert!(
        filtered() || programs.len() >= 10,
        "expected at least 10 error programs, found {}",
        programs.len()
    );
    let mut failures = Vec::new();
    for path in &programs {
        let name = name_of(path);
        let program = std::fs::read_to_string(path).expect("readable program");
        let expected = match run_oracle(&lua, &program) {
            Ok(o) if o.error.is_some() => o,
            Ok(_) => {
                failures.push(format!("{name}: invalid test: does not fail under lua5.4"));
                continue;
            }
            Err(e) => {
                failures.push(format!("{name}: invalid test: {e}"));
                continue;
            }
        };
        let actual = match run_ours(&program) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let lua_msg = strip_positions(expected.error.as_deref().unwrap_or_default());
        let exp_msg = match intended_message(&program) {
            Some(intended) => intended,
            None => lua_msg.clone(),
        };
        let mut problems = Vec::new();
        if expected.output != actual.output {
            problems.push(format!(
                "  printed output differs:\n{}",
                describe_diff(&expected.output, &actual.output)
            ));
        }
        match &actual.error {
            None => problems.push(format!(
                "  codemode did not fail; lua5.4 failed with: {exp_msg}"
            )),
            Some(msg) => {
                let act_msg = strip_positions(msg);
                if !act_msg.starts_with(exp_msg.trim_end()) {
                    problems.push(format!(
                        "  error message differs:\n      expected: {exp_msg}\n      lua5.4:   {lua_msg}\n      codemode: {act_msg}"
                    ));
                }
                if let Some(line) = expected.error_line
                    && actual.error_line != Some(line)
                {
                    problems.push(format!(
                        "  error line differs: lua5.4 line {line}, codemode {:?}",
                        actual.error_line
                    ));
                }
            }
        }
        if !problems.is_empty() {
            failures.push(format!("{name}:\n{}", problems.join("\n")));
        }
    }
    report("error", &failures, programs.len());
}

/// The message codemode is meant to give instead of Lua's, from a `-- codemode-error: <text>`
/// line in an error program. Only for a deliberate divergence: Lua's own text lacks what a model
/// needs to fix the program (no position, or a name the program never wrote), and the comment
/// above the directive quotes Lua's message and says why.
fn intended_message(program: &str) -> Option<String> {
    program
        .lines()
        .find_map(|l| l.trim().strip_prefix("-- codemode-error:"))
        .map(|m| m.trim().to_string())
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("    | {l}\n")).collect()
}

#[test]
fn strip_positions_removes_prefixes() {
    assert_eq!(strip_positions("input:3: boom"), "boom");
    assert_eq!(
        strip_positions("caught: input:12:7: attempt"),
        "caught: attempt"
    );
    assert_eq!(strip_positions("input: 3"), "input: 3");
    assert_eq!(strip_positions("input:x: y"), "input:x: y");
    assert_eq!(position_line("input:42: oops"), Some(42));
    assert_eq!(position_line("oops"), None);
}
