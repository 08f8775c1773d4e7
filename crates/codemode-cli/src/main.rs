//! The `codemode` binary.
//!
//! `codemode run [--lang lua|js] [--tools MANIFEST]... [--timeout-ms N] [--max-tool-calls N]
//! [--max-output-bytes N] [FILE|-]` runs one program over the command tools described by the
//! manifests and prints the Result as one JSON object on one line of stdout.
//!
//! `--allow-read DIR` gives the program read-only file access confined to DIR through the `fs`
//! extension (`fs.read(path)`, `fs.list(path?)`; in JavaScript also `fs.readFile(path)` and
//! `await fs.promises.readFile(path)`; see `fs_ext.rs`).
//!
//! `codemode catalog --tools MANIFEST [--lang lua|js] [--budget N]` prints the model-facing
//! instructions; `codemode search --tools MANIFEST [QUERY] [--lang lua|js] [--namespace NS]
//! [--limit N]` prints what the built-in `search` returns (see `discover.rs`). Both, like `run`,
//! take `--mcp-config FILE` to cover the tools of MCP servers too, and `codemode mcp` serves
//! them (see `mcp.rs`; `--approve TOOL_PATH`, `--snapshot-store`, `--snapshot-key-file` for
//! tools needing approval and the `resume` tool); every one of them speaks Lua and JavaScript
//! (`--lang js`, or `"codemode": {"language": "js"}` in the MCP config).
//!
//! Exit status: 0 when the Result is ok, 1 when it is not ok, 2 for usage or configuration
//! errors (bad arguments, unreadable program file, bad manifest, invalid limits); those print one
//! line `codemode: ...` on stderr and nothing on stdout.

mod command;
mod discover;
mod fs_ext;
mod host;
mod manifest;
mod mcp;
mod openapi;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// Run Code Mode programs over command tools.
#[derive(Parser, Debug)]
#[command(name = "codemode", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand, Debug)]
enum Commands {
    /// Run a program and print its Result as one JSON line.
    ///
    /// Exit status: 0 when the Result is ok, 1 when it is not, 2 for usage or configuration errors.
    #[command(after_long_help = RUN_AFTER_HELP)]
    Run(RunArgs),
    /// Continue an execution that `codemode run --pause-on` paused, from its snapshot file,
    /// with a reply per pending call; prints its Result as one JSON line.
    ///
    /// Exit status: 0 when the Result is ok, 1 when it is not, 3 when it paused again, 2 for
    /// usage or configuration errors.
    Resume(ResumeArgs),
    /// Serve Code Mode over MCP (stdio, or streamable HTTP with --http) in front of the MCP
    /// servers of a config file.
    Mcp(mcp::McpArgs),
    /// Print the instructions a model gets for these tools: how to write programs, the limits,
    /// and a token-budgeted catalog of signatures.
    Catalog(CatalogCmd),
    /// Print what the built-in `search` returns for a query, as one JSON line.
    Search(SearchCmd),
    /// Work with OpenAPI specs: `codemode openapi inspect SPEC` lists the tools a spec gives
    /// and the operations skipped, with the reason.
    Openapi(openapi::OpenApiCmd),
}

/// Arguments of `codemode catalog`: the discovery flags plus `--mcp-config`.
#[derive(clap::Args, Debug)]
struct CatalogCmd {
    #[command(flatten)]
    args: discover::CatalogArgs,
    /// Also describe the tools of the MCP servers of this config file (they are started, listed
    /// and stopped), with the config's limits, catalog budget and manifests; flags override them.
    #[arg(long, value_name = "FILE")]
    mcp_config: Option<PathBuf>,
    #[command(flatten)]
    openapi: openapi::OpenApiArgs,
}

/// Arguments of `codemode search`: the discovery flags plus `--mcp-config`.
#[derive(clap::Args, Debug)]
struct SearchCmd {
    #[command(flatten)]
    args: discover::SearchArgs,
    /// Also search the tools of the MCP servers of this config file (they are started, listed
    /// and stopped) and the config's manifests.
    #[arg(long, value_name = "FILE")]
    mcp_config: Option<PathBuf>,
    #[command(flatten)]
    openapi: openapi::OpenApiArgs,
}

const RUN_AFTER_HELP: &str = r#"Manifest (JSON):
  {"namespaces": {"orders": {"description": "..."}},
   "tools": {"orders.lookup": {"description": "...", "input": {JSON Schema},
             "output": {JSON Schema}, "command": ["python3", "orders.py"]}}}
A command tool reads its input as JSON on stdin and prints one JSON value on stdout; a non-zero
exit fails the call with its stderr as the message. Relative program paths containing '/' resolve
against the manifest's directory, which is also the command's working directory.

Examples (the same answer in Lua and in JavaScript):
  codemode run --tools examples/git-insights/tools.json examples/git-insights/churn.lua
  codemode run --tools examples/git-insights/tools.json examples/git-insights/churn.js"#;

/// Arguments of `codemode run`.
#[derive(clap::Args, Debug)]
struct RunArgs {
    /// Program language. Default: from the file extension (.lua → lua; .js, .mjs, .cjs, .ts, .mts →
    /// js), else the --mcp-config's codemode.language, else lua.
    #[arg(long, value_enum)]
    lang: Option<Lang>,
    /// A tool manifest (JSON). Repeat to merge several; a tool path defined twice is an error.
    #[arg(long = "tools", value_name = "MANIFEST")]
    tools: Vec<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// Run over the MCP servers of this config file ({"mcpServers": {...}}), see `codemode mcp`.
    #[arg(long, value_name = "FILE")]
    mcp_config: Option<PathBuf>,
    /// Let the program read files below DIR with `fs.read(path)` and `fs.list(path?)`, in
    /// JavaScript also `fs.readFile(path)` and `await fs.promises.readFile(path)` (read-only;
    /// `..` and symlinks leading outside DIR are refused).
    #[arg(long, value_name = "DIR")]
    allow_read: Option<PathBuf>,
    /// Fix the clock of JavaScript programs (`Date.now()`, `new Date()`) at this instant, for
    /// reproducible runs: a date-time as `Date.parse` reads it (`2026-01-01T00:00:00Z`) or
    /// milliseconds since 1970. Default: the real time.
    #[arg(long, value_name = "INSTANT", allow_negative_numbers = true)]
    now: Option<String>,
    /// Seed the random numbers of JavaScript programs (`Math.random`, `crypto.randomUUID`): the
    /// same seed gives the same numbers. Default: fresh entropy.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_seed)]
    seed: Option<u64>,
    #[command(flatten)]
    openapi: openapi::OpenApiArgs,
    #[command(flatten)]
    pausing: PauseArgs,
    /// Program file; `-` or nothing reads the program from stdin.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
}

/// The limit flags, on `run` and `resume`.
#[derive(clap::Args, Debug)]
struct LimitArgs {
    /// Wall-clock limit for the whole execution, in milliseconds (≥ 1). Default: 120000.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    timeout_ms: Option<i64>,
    /// Most host calls (tool calls, denied ones included) the program may attempt. Default: 128.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_tool_calls: Option<i64>,
    /// Most bytes of JSON output (value, logs and tool-call inputs together) before they are cut. Default: 65536.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_output_bytes: Option<i64>,
    /// Most bytes of memory the program may use (≥ 1). Default: the interpreter's built-in cap.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_memory_bytes: Option<i64>,
}

impl LimitArgs {
    /// The host's options with these limits, `lang` and `extensions`.
    fn options(&self, lang: Lang, extensions: Vec<codemode::Extension>) -> host::Options {
        host::Options {
            lang,
            timeout_ms: self.timeout_ms,
            max_tool_calls: self.max_tool_calls,
            max_output_bytes: self.max_output_bytes,
            max_memory_bytes: self.max_memory_bytes,
            extensions,
            namespaces: Vec::new(),
        }
    }
}

/// The `fs` extension of `--allow-read DIR`, if given.
fn read_extension(dir: Option<&Path>, lang: Lang) -> Result<Vec<codemode::Extension>, ConfigError> {
    Ok(match dir {
        Some(dir) => vec![fs_ext::extension(
            fs_ext::AllowedDir::new(dir).map_err(ConfigError)?,
            lang,
        )],
        None => Vec::new(),
    })
}

/// The flags of durable executions, on `run` and `resume`.
#[derive(clap::Args, Debug)]
struct PauseArgs {
    /// Pause the execution at a call to this tool (canonical path; repeat for several): the
    /// Result is printed with "status":"paused" and its pending calls, the snapshot is written
    /// to --snapshot-out, and the exit status is 3. `codemode resume` continues it.
    #[arg(long = "pause-on", value_name = "TOOL_PATH")]
    pause_on: Vec<String>,
    /// Where the snapshot of a paused execution is written (needed with --pause-on). A
    /// snapshot is the program's state: whoever can edit the file can change what it does
    /// when resumed, so keep it as private as the tools it calls, or sign it
    /// (--snapshot-key-file).
    #[arg(long, value_name = "FILE")]
    snapshot_out: Option<PathBuf>,
    /// Sign snapshots with the key in FILE (on `run`: created once, mode 0600, when missing)
    /// and resume only snapshots signed with it; `codemode resume` needs the same file.
    #[arg(long = "snapshot-key-file", value_name = "FILE")]
    snapshot_key_file: Option<PathBuf>,
}

/// Arguments of `codemode resume`.
#[derive(clap::Args, Debug)]
struct ResumeArgs {
    /// The snapshot file `codemode run --snapshot-out` wrote.
    #[arg(value_name = "SNAPSHOT")]
    snapshot: PathBuf,
    /// A reply to a pending call: "run" (approved: run the tool now), {"value": V} (the call
    /// returns V), {"error": "message"} (it fails) or {"deny": "message"} (it is denied); add
    /// "id": N to name the call (not needed when the execution waits on one). Repeat for
    /// several calls.
    #[arg(long = "reply", value_name = "JSON", required = true)]
    replies: Vec<String>,
    /// The program's language (the one it was paused in). Default: the language the snapshot
    /// names.
    #[arg(long, value_enum)]
    lang: Option<Lang>,
    /// The tool manifests the execution was paused with: the tools must be the same (paths and
    /// schemas), or the snapshot is refused.
    #[arg(long = "tools", value_name = "MANIFEST")]
    tools: Vec<PathBuf>,
    /// The limits (the time and calls already used count against them; time spent paused
    /// does not). The resumed run is held to the stricter of these and the paused run's.
    #[command(flatten)]
    limits: LimitArgs,
    /// As for `run` (the same directory the execution was paused with).
    #[arg(long, value_name = "DIR")]
    allow_read: Option<PathBuf>,
    /// Where resumed snapshots are recorded (one empty file per snapshot id, made before the
    /// program runs on), so that a snapshot, or any copy of it, continues once: a second
    /// resume is refused. A refused resume removes its record. Default: `.codemode-resumed`
    /// beside the snapshot file.
    #[arg(long, value_name = "DIR")]
    claims_dir: Option<PathBuf>,
    /// As for `run`: the fixed time the resumed run reads (the clock is the host's, not the
    /// snapshot's: give the `--now` the run was paused with to keep it reproducible).
    #[arg(long, value_name = "INSTANT", allow_negative_numbers = true)]
    now: Option<String>,
    #[command(flatten)]
    pausing: PauseArgs,
}

/// Language of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Lang {
    /// Lua 5.4.
    Lua,
    /// JavaScript (and TypeScript).
    Js,
}

impl Lang {
    /// The host crate's name of the language.
    fn language(self) -> codemode::Language {
        match self {
            Lang::Lua => codemode::Language::Lua,
            Lang::Js => codemode::Language::JavaScript,
        }
    }

    /// The language of `language` (a config's `codemode.language`).
    fn of(language: codemode::Language) -> Lang {
        match language {
            codemode::Language::Lua => Lang::Lua,
            codemode::Language::JavaScript => Lang::Js,
        }
    }
}

/// A usage or configuration error: printed as `codemode: <message>`, exit status 2.
#[derive(Debug)]
struct ConfigError(String);

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e, std::env::args().nth(1).as_deref()),
    };
    match cli.command {
        Commands::Resume(args) => match resume(args) {
            Ok(code) => code,
            Err(ConfigError(msg)) => {
                eprintln!("codemode: {msg}");
                ExitCode::from(2)
            }
        },
        Commands::Run(args) => match run(args) {
            Ok(code) => code,
            Err(ConfigError(msg)) => {
                eprintln!("codemode: {msg}");
                ExitCode::from(2)
            }
        },
        Commands::Mcp(args) => mcp::serve(args),
        Commands::Catalog(c) => {
            print_or_fail(
                openapi::namespaces(&c.openapi).and_then(|ns| match &c.mcp_config {
                    Some(config) => mcp::catalog_text(config, &c.args, ns),
                    None => discover::catalog_text(&c.args, ns),
                }),
            )
        }
        Commands::Search(c) => {
            print_or_fail(
                openapi::namespaces(&c.openapi).and_then(|ns| match &c.mcp_config {
                    Some(config) => mcp::search_json(config, &c.args, ns),
                    None => discover::search_json(&c.args, ns),
                }),
            )
        }
        Commands::Openapi(c) => print_or_fail(openapi::command(&c)),
    }
}

/// Reports a command-line parse error. Help and version requests print clap's text as usual
/// (exit 0; a bare `codemode` prints help on stderr, exit 2); any other error prints one line
/// [`usage_line`] on stderr, exit 2.
/// `--seed N`: a whole number from 0 to 2^64 - 1.
fn parse_seed(s: &str) -> Result<u64, String> {
    s.trim().parse::<u64>().map_err(|_| {
        format!(
            "not a seed; write a whole number from 0 to {}, such as 42",
            u64::MAX
        )
    })
}

fn usage_error(e: clap::Error, first_arg: Option<&str>) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.exit(),
        _ => {
            eprintln!("{}", usage_line(&e.render().to_string(), first_arg));
            ExitCode::from(2)
        }
    }
}

/// The one-line form of clap's error text `rendered`: `codemode: <message>; see 'codemode
/// <sub> --help'`. The message is clap's, without its `error: ` prefix, usage and "For more
/// information" lines; its other lines (argument lists, tips) are joined onto the line.
/// `first_arg` picks the subcommand whose help is named (`codemode --help` when it is none).
fn usage_line(rendered: &str, first_arg: Option<&str>) -> String {
    let mut msg = String::new();
    for line in rendered.lines().map(str::trim) {
        if line.starts_with("Usage:") || line.starts_with("For more information") {
            break;
        }
        if line.is_empty() {
            continue;
        }
        let line = line.strip_prefix("error: ").unwrap_or(line);
        if !msg.is_empty() {
            msg.push_str(if msg.ends_with(':') { " " } else { "; " });
        }
        msg.push_str(line);
    }
    let help = match first_arg {
        Some(sub @ ("run" | "resume" | "mcp" | "catalog" | "search" | "openapi")) => {
            format!("codemode {sub} --help")
        }
        _ => "codemode --help".to_string(),
    };
    format!("codemode: {msg}; see '{help}'")
}

/// Prints `text` (exit 0) or the configuration error (exit 2).
fn print_or_fail(text: Result<String, ConfigError>) -> ExitCode {
    match text {
        Ok(text) => {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{}", text.trim_end()).and_then(|()| stdout.flush());
            ExitCode::SUCCESS
        }
        Err(ConfigError(msg)) => {
            eprintln!("codemode: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(args: RunArgs) -> Result<ExitCode, ConfigError> {
    let from_stdin = args.file.as_deref().is_none_or(|f| f == Path::new("-"));
    // --lang, else the file's extension, else (with --mcp-config) the config's language, else Lua.
    let stated = args.lang.or_else(|| match &args.file {
        Some(f) if !from_stdin => lang_from_extension(f),
        _ => None,
    });
    let source = if from_stdin {
        let mut buf = Vec::new();
        std::io::stdin()
            .take(MAX_PROGRAM_BYTES + 1)
            .read_to_end(&mut buf)
            .map_err(|e| ConfigError(format!("cannot read the program from stdin: {e}")))?;
        program_text(buf, "the program on stdin")?
    } else {
        let f = args.file.as_deref().expect("file given");
        let mut buf = Vec::new();
        std::fs::File::open(f)
            .and_then(|file| file.take(MAX_PROGRAM_BYTES + 1).read_to_end(&mut buf))
            .map_err(|e| ConfigError(format!("cannot read program file {}: {e}", f.display())))?;
        program_text(buf, &format!("program file {}", f.display()))?
    };
    let manifest =
        manifest::Manifest::load_all(&args.tools).map_err(|e| ConfigError(e.to_string()))?;
    let mcp_config = match &args.mcp_config {
        Some(path) => Some(mcp::load(path)?),
        None => None,
    };
    let lang = stated.unwrap_or_else(|| match &mcp_config {
        Some(config) => Lang::of(config.language),
        None => Lang::Lua,
    });

    let mut options = args
        .limits
        .options(lang, read_extension(args.allow_read.as_deref(), lang)?);
    options.namespaces = openapi::namespaces(&args.openapi)?;
    let clock = clock_of(args.now.as_deref())?;
    let random = args
        .seed
        .map_or(codemode::Random::Entropy, codemode::Random::Seed);
    args.pausing.check()?;
    if let Some(config) = mcp_config {
        if !args.pausing.pause_on.is_empty() {
            return Err(ConfigError(
                "--pause-on works with --tools manifests, not with --mcp-config".into(),
            ));
        }
        let reproducible = mcp::Reproducible { clock, random };
        return mcp::run(config, &options, &args.tools, &source, reproducible);
    }
    let key = args.pausing.key(true)?;
    let codemode = host::build_pausing(
        &options,
        manifest,
        clock,
        random,
        &args.pausing.pause_on,
        key,
    )?;
    let runtime = async_runtime()?;
    let result = runtime.block_on(async {
        let cancel = codemode::CancellationToken::new();
        tokio::spawn(cancel_on_signal(cancel.clone()));
        codemode.execute_with_cancel(&source, cancel).await
    });
    let code = report(result, &args.pausing);
    // Don't wait for stray tool processes or blocking tasks.
    runtime.shutdown_background();
    code
}

/// The clock of `--now` (see [`RunArgs::now`]): fixed at that instant, or the real time.
fn clock_of(now: Option<&str>) -> Result<codemode::Clock, ConfigError> {
    let Some(t) = now else {
        return Ok(codemode::Clock::System);
    };
    Ok(codemode::Clock::Fixed(match t.trim().parse::<i64>() {
        Ok(ms) if ms.unsigned_abs() <= 8_640_000_000_000_000 => ms,
        Ok(_) => {
            return Err(ConfigError(format!(
                "--now {t}: outside the range of dates (±8.64e15 ms)"
            )));
        }
        Err(_) => codemode_js::parse_date(t).ok_or_else(|| {
            ConfigError(format!(
                "--now {t}: not a date-time; write one such as 2026-01-01T00:00:00Z, or milliseconds since 1970"
            ))
        })?,
    }))
}

/// The async runtime of `run` and `resume`.
fn async_runtime() -> Result<tokio::runtime::Runtime, ConfigError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| ConfigError(format!("cannot start the async runtime: {e}")))
}

impl PauseArgs {
    /// The key of `--snapshot-key-file`: read, or (`create`, for `run`) made once when the
    /// file is missing.
    fn key(&self, create: bool) -> Result<Option<Vec<u8>>, ConfigError> {
        let Some(file) = &self.snapshot_key_file else {
            return Ok(None);
        };
        if !create && !file.exists() {
            return Err(ConfigError(format!(
                "--snapshot-key-file {}: no such file; give the key file the execution was paused with",
                file.display()
            )));
        }
        codemode_mcp::paused::load_or_create_key(Some(file))
            .map(Some)
            .map_err(|e| ConfigError(format!("--snapshot-key-file: {e}")))
    }

    /// `--pause-on` needs `--snapshot-out`.
    fn check(&self) -> Result<(), ConfigError> {
        if !self.pause_on.is_empty() && self.snapshot_out.is_none() {
            return Err(ConfigError(
                "--pause-on needs --snapshot-out FILE, where the paused execution is written"
                    .into(),
            ));
        }
        // A path the snapshot cannot be written to is refused before the program runs (tools
        // called before the pause would otherwise have run for nothing).
        if let Some(out) = &self.snapshot_out {
            let dir = match out.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => std::path::Path::new("."),
            };
            if out.is_dir() || !dir.is_dir() {
                return Err(ConfigError(format!(
                    "--snapshot-out {}: not a file in an existing directory; give a file path whose directory exists",
                    out.display()
                )));
            }
        }
        Ok(())
    }
}

/// Writes the snapshot of a paused `result` to `--snapshot-out`, prints the Result, and gives
/// the exit status: 0 ok, 1 failed, 3 paused (2 when the snapshot cannot be written).
fn report(result: codemode::ExecutionResult, pausing: &PauseArgs) -> Result<ExitCode, ConfigError> {
    let code = match (&result.paused, &pausing.snapshot_out) {
        (Some(paused), Some(out)) => {
            std::fs::write(out, paused.snapshot.as_bytes()).map_err(|e| {
                ConfigError(format!(
                    "cannot write the snapshot to {}: {e}",
                    out.display()
                ))
            })?;
            ExitCode::from(3)
        }
        (Some(_), None) => ExitCode::from(3),
        (None, _) if result.is_ok() => ExitCode::SUCCESS,
        (None, _) => ExitCode::from(1),
    };
    // A reader that went away (`| head -c 10`) is not an error of the run: ignore EPIPE.
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", result.to_json_string()).and_then(|()| stdout.flush());
    Ok(code)
}

/// Largest snapshot file `codemode resume` reads, in bytes (1 GiB: more than any guest's heap
/// under the memory cap).
const MAX_SNAPSHOT_BYTES: u64 = 1 << 30;

fn resume(args: ResumeArgs) -> Result<ExitCode, ConfigError> {
    args.pausing.check()?;
    let mut bytes = Vec::new();
    let cannot = |e: std::io::Error| {
        ConfigError(format!(
            "cannot read snapshot {}: {e}",
            args.snapshot.display()
        ))
    };
    let file = std::fs::File::open(&args.snapshot).map_err(cannot)?;
    let len = file.metadata().map_err(cannot)?.len();
    if len > MAX_SNAPSHOT_BYTES {
        return Err(ConfigError(format!(
            "snapshot {} is {len} bytes; codemode resume reads at most {MAX_SNAPSHOT_BYTES} (no snapshot is larger: give the file `codemode run --snapshot-out` wrote)",
            args.snapshot.display()
        )));
    }
    file.take(MAX_SNAPSHOT_BYTES)
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    let snapshot = codemode::Snapshot::from_bytes(bytes);
    let pending = snapshot.pending_ids();
    let replies = args
        .replies
        .iter()
        .map(|r| parse_reply(r, &pending))
        .collect::<Result<Vec<_>, _>>()?;
    // The language the snapshot names, unless --lang says otherwise.
    let lang = args
        .lang
        .unwrap_or_else(|| match snapshot.language().as_deref() {
            Some("JavaScript") => Lang::Js,
            _ => Lang::Lua,
        });
    let options = args
        .limits
        .options(lang, read_extension(args.allow_read.as_deref(), lang)?);
    let manifest =
        manifest::Manifest::load_all(&args.tools).map_err(|e| ConfigError(e.to_string()))?;
    let key = args.pausing.key(false)?;
    let codemode = host::build_pausing(
        &options,
        manifest,
        clock_of(args.now.as_deref())?,
        codemode::Random::Entropy,
        &args.pausing.pause_on,
        key,
    )?;
    let claim = match claim(&args, &snapshot)? {
        Ok(claim) => claim,
        Err(refusal) => return report(refusal, &args.pausing),
    };
    let runtime = async_runtime()?;
    let (result, refused) = runtime.block_on(async {
        let cancel = codemode::CancellationToken::new();
        tokio::spawn(cancel_on_signal(cancel.clone()));
        codemode.resume_or_refuse(&snapshot, replies, cancel).await
    });
    // Nothing ran: the snapshot can be resumed again (with what the refusal asks for).
    if refused && let Some(file) = &claim {
        let _ = std::fs::remove_file(file);
    }
    let code = report(result, &args.pausing);
    runtime.shutdown_background();
    code
}

/// Record that `snapshot` is being resumed (see [`ResumeArgs::claims_dir`]): the record's
/// path (`None` for bytes that hold no snapshot id: the resume refuses them), or, when the
/// snapshot was resumed before, the refusal to print. Errors: the directory or the record
/// cannot be made.
fn claim(
    args: &ResumeArgs,
    snapshot: &codemode::Snapshot,
) -> Result<Result<Option<PathBuf>, codemode::ExecutionResult>, ConfigError> {
    if snapshot.id() == [0; 16] {
        return Ok(Ok(None));
    }
    let dir = match &args.claims_dir {
        Some(d) => d.clone(),
        None => match args.snapshot.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.join(".codemode-resumed"),
            _ => PathBuf::from(".codemode-resumed"),
        },
    };
    std::fs::create_dir_all(&dir).map_err(|e| {
        ConfigError(format!(
            "cannot make the claims directory {}: {e}; give --claims-dir DIR",
            dir.display()
        ))
    })?;
    let file = dir.join(format!("{}.resumed", snapshot.id_hex()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)
    {
        Ok(_) => Ok(Ok(Some(file))),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(Err(
            codemode::ExecutionResult::failure(codemode::Diagnostic::new(
                codemode::DiagnosticKind::ExecutionFailure,
                format!(
                    "The snapshot cannot be resumed: it was resumed already ({} records it); a snapshot continues once. Resume the snapshot the later pause wrote, or run the program again.",
                    file.display()
                ),
            )),
        )),
        Err(e) => Err(ConfigError(format!(
            "cannot record the resume in {}: {e}; give --claims-dir DIR",
            file.display()
        ))),
    }
}

/// One `--reply` (see [`ResumeArgs::replies`]); `pending`: the ids the snapshot waits on, the
/// default id when it waits on one.
fn parse_reply(text: &str, pending: &[u64]) -> Result<(u64, codemode::Reply), ConfigError> {
    let bad = |why: &str| {
        ConfigError(format!(
            "--reply {text}: {why}; write \"run\", {{\"value\": V}}, {{\"error\": \"message\"}} or {{\"deny\": \"message\"}}, with \"id\": N to name the call"
        ))
    };
    let v: serde_json::Value = serde_json::from_str(text).map_err(|_| bad("not JSON"))?;
    let mut id = None;
    let reply = match v {
        serde_json::Value::String(s) if s == "run" => codemode::Reply::Run,
        serde_json::Value::Object(mut m) => {
            if let Some(n) = m.remove("id") {
                id = Some(n.as_u64().ok_or_else(|| bad("\"id\" is not a call id"))?);
            }
            let text_of = |v: serde_json::Value| match v {
                serde_json::Value::String(s) => Ok(s),
                _ => Err(bad("the message is not a string")),
            };
            let mut it = m.into_iter();
            match (it.next(), it.next()) {
                (Some((k, v)), None) => match k.as_str() {
                    "run" if v == serde_json::Value::Bool(true) => codemode::Reply::Run,
                    "run" => {
                        return Err(bad(
                            "\"run\" must be true (to refuse the call, write {\"deny\": \"reason\"})",
                        ));
                    }
                    "value" => codemode::Reply::Value(v),
                    "error" => codemode::Reply::Error(text_of(v)?),
                    "deny" => codemode::Reply::Deny(text_of(v)?),
                    _ => return Err(bad(&format!("unknown key \"{k}\""))),
                },
                _ => return Err(bad("give exactly one of run, value, error, deny")),
            }
        }
        _ => return Err(bad("not a reply")),
    };
    let id = match (id, pending) {
        (Some(id), _) => id,
        (None, [only]) => *only,
        // The bytes do not decode: the resume refuses them, saying why, before any reply
        // is looked at.
        (None, []) => 0,
        (None, _) => {
            return Err(bad("the execution waits on several calls: add \"id\""));
        }
    };
    Ok((id, reply))
}

/// Largest program accepted, in bytes (16 MiB).
const MAX_PROGRAM_BYTES: u64 = 16 * 1024 * 1024;

/// Checks the size and encoding of a program read by [`run`]; `what` names its origin.
fn program_text(bytes: Vec<u8>, what: &str) -> Result<String, ConfigError> {
    if bytes.len() as u64 > MAX_PROGRAM_BYTES {
        return Err(ConfigError(format!(
            "{what} is larger than {} MiB",
            MAX_PROGRAM_BYTES / (1024 * 1024)
        )));
    }
    String::from_utf8(bytes).map_err(|e| ConfigError(format!("{what} is not valid UTF-8: {e}")))
}

/// Cancels the execution on Ctrl-C (SIGINT), SIGTERM or SIGHUP (the terminal closed), so that
/// the Result gathered so far is still printed and tool processes (which run in their own
/// process groups and so do not see the terminal's signals) are killed.
async fn cancel_on_signal(cancel: codemode::CancellationToken) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) else {
            return;
        };
        tokio::select! {
            _ = int.recv() => {}
            _ = term.recv() => {}
            _ = hup.recv() => {}
        }
    }
    #[cfg(not(unix))]
    if tokio::signal::ctrl_c().await.is_err() {
        return;
    }
    cancel.cancel();
}

/// The language a program file's extension names: `.lua`; `.js`, `.mjs`, `.cjs`, `.ts`, `.mts`.
fn lang_from_extension(f: &Path) -> Option<Lang> {
    match f.extension().and_then(|e| e.to_str()) {
        Some("lua") => Some(Lang::Lua),
        Some("js" | "mjs" | "cjs" | "ts" | "mts") => Some(Lang::Js),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn language_from_extension() {
        assert_eq!(lang_from_extension(Path::new("a.lua")), Some(Lang::Lua));
        assert_eq!(lang_from_extension(Path::new("a.ts")), Some(Lang::Js));
        assert_eq!(lang_from_extension(Path::new("dir/a.js")), Some(Lang::Js));
        assert_eq!(lang_from_extension(Path::new("a.txt")), None);
        assert_eq!(lang_from_extension(Path::new("noext")), None);
    }

    #[test]
    fn parses_run_arguments() {
        let cli = Cli::try_parse_from([
            "codemode",
            "run",
            "--tools",
            "a.json",
            "--tools",
            "b.json",
            "--timeout-ms",
            "50",
            "--lang",
            "lua",
            "-",
        ])
        .unwrap();
        let Commands::Run(a) = cli.command else {
            panic!("expected the run subcommand")
        };
        assert_eq!(
            a.tools,
            vec![PathBuf::from("a.json"), PathBuf::from("b.json")]
        );
        assert_eq!(a.limits.timeout_ms, Some(50));
        assert_eq!(a.lang, Some(Lang::Lua));
        assert_eq!(a.file, Some(PathBuf::from("-")));
    }
}

#[cfg(test)]
mod usage_tests {
    use super::*;

    fn line(args: &[&str]) -> String {
        let e = Cli::try_parse_from(args).expect_err("a usage error");
        usage_line(&e.render().to_string(), args.get(1).copied())
    }

    #[test]
    fn usage_errors_are_one_line() {
        assert_eq!(
            line(&["codemode", "run", "--bogus"]),
            "codemode: unexpected argument '--bogus' found; tip: to pass '--bogus' as a value, \
             use '-- --bogus'; see 'codemode run --help'"
        );
        assert_eq!(
            line(&["codemode", "bogus"]),
            "codemode: unrecognized subcommand 'bogus'; see 'codemode --help'"
        );
        assert_eq!(
            line(&["codemode", "search", "--limit", "x"]),
            "codemode: invalid value 'x' for '--limit <N>': invalid digit found in string; \
             see 'codemode search --help'"
        );
    }
}
