//! `codemode mcp --config FILE [--http [ADDR]] [--approve TOOL_PATH]... [--snapshot-store
//! memory|dir:PATH|sqlite:PATH] [--snapshot-key-file FILE]`, `codemode run --mcp-config FILE`, and
//! `codemode catalog|search --mcp-config FILE`: Code Mode over the MCP servers of a config file
//! (see the `codemode-mcp` crate for the format and the behaviour).

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use codemode::{Namespace, Tool};
use codemode_mcp::{Config, Gateway};

use crate::ConfigError;
use crate::manifest::Manifest;

/// Default address of `--http` without a value.
pub const DEFAULT_HTTP_ADDR: &str = "127.0.0.1:8931";

const MCP_AFTER_HELP: &str = r#"Config (JSON, the format MCP clients use, plus an optional "codemode" section):
  {"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"], "env": {}, "cwd": "."},
                  "remote": {"url": "http://127.0.0.1:3917/mcp", "headers": {"Authorization": "Bearer T"}}},
   "codemode": {"language": "lua", "limits": {"timeoutMs": 60000, "maxToolCalls": 64},
                "catalogBudget": 2000, "tools": ["manifest.json"]}}
"language" is "lua" (the default) or "js" (JavaScript, TypeScript annotations accepted; also
"javascript", "ts", "typescript"): the language of execute's programs, its description and
search's signatures. Each server becomes a namespace: programs call
tools.<server>.<tool>({ ... }) (in JavaScript `await tools.<server>.<tool>({ ... })`). The MCP
server offers two tools: execute {code} and search {query, namespace, limit, offset}.

Approval: a server's "approve": ["refund", "delete_*"] (its tool names), "codemode"'s
"approve": ["payments.refund"] (tool paths) or --approve PATH mark tools needing approval (`*`:
any characters). A call to one pauses the program: execute returns {"status": "paused",
"pending": [{id, name, input}], "resumeToken": T}, and the tool `resume` {token, replies:
{"<id>": {"approve": true} | {"deny": "reason"} | {"value": V} | {"error": "message"}}}
continues it, once. Paused executions are kept in memory, or with --snapshot-store dir:PATH or
sqlite:PATH (also "codemode": {"snapshotStore": ...}) across restarts, signed with a key kept
in PATH/key (dir) or PATH.key (sqlite), created with mode 0600, or --snapshot-key-file.

In a client config (Claude Desktop, Cursor, ...):
  {"mcpServers": {"codemode": {"command": "codemode", "args": ["mcp", "--config", "/path/mcp.json"]}}}"#;

/// Arguments of `codemode mcp`.
#[derive(clap::Args, Debug)]
#[command(after_long_help = MCP_AFTER_HELP)]
pub struct McpArgs {
    /// The MCP config file: {"mcpServers": {...}, "codemode": {...}}.
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio. ADDR is HOST:PORT or PORT
    /// (loopback); without a value 127.0.0.1:8931.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = DEFAULT_HTTP_ADDR)]
    pub http: Option<String>,
    /// With --http: also accept browser requests from this origin (`scheme://host:port`, `:*`
    /// for any port), besides the server's own address and the config's
    /// `codemode.allowedOrigins`. Repeatable. Requests with any other `Origin` get 403.
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// Calls to this tool path need approval: `execute` pauses at them and `resume` continues
    /// (`*` stands for any characters: `payments.*`). Repeatable; added to the config's
    /// `approve` lists.
    #[arg(long = "approve", value_name = "TOOL_PATH")]
    pub approve: Vec<String>,
    /// Where paused executions are kept: `memory` (the default), `dir:PATH` (a directory, one
    /// file per token) or `sqlite:PATH` (a database file); the last two survive a restart.
    /// Overrides the config's `codemode.snapshotStore`.
    #[arg(long = "snapshot-store", value_name = "STORE")]
    pub snapshot_store: Option<String>,
    /// The file of the key paused executions are signed with (created once, mode 0600, when
    /// missing). Default: `PATH/key` for `dir:PATH`, `PATH.key` for `sqlite:PATH`, a random key
    /// for `memory`.
    #[arg(long = "snapshot-key-file", value_name = "FILE")]
    pub snapshot_key_file: Option<PathBuf>,
}

/// `codemode mcp`: serve until the client disconnects (stdio) or SIGINT/SIGTERM (HTTP).
pub fn serve(args: McpArgs) -> ExitCode {
    match serve_inner(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(ConfigError(m)) => {
            eprintln!("codemode: {m}");
            ExitCode::from(2)
        }
    }
}

fn runtime() -> Result<tokio::runtime::Runtime, ConfigError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| ConfigError(format!("cannot start the async runtime: {e}")))
}

fn http_addr(s: &str) -> Result<SocketAddr, ConfigError> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    s.parse::<SocketAddr>().map_err(|_| {
        ConfigError(format!(
            "--http {s:?}: give HOST:PORT (e.g. 127.0.0.1:8931) or a port number"
        ))
    })
}

/// Reads and checks the config file at `path`.
pub fn load(path: &Path) -> Result<Config, ConfigError> {
    Config::load(path).map_err(|e| ConfigError(e.to_string()))
}

fn serve_inner(args: McpArgs) -> Result<(), ConfigError> {
    let mut config = load(&args.config)?;
    let addr = args.http.as_deref().map(http_addr).transpose()?;
    for o in &args.allow_origin {
        if !(o == "null" || o.starts_with("http://") || o.starts_with("https://")) {
            return Err(ConfigError(format!(
                "--allow-origin {o:?}: give an origin with a scheme, e.g. http://localhost:3000"
            )));
        }
    }
    config
        .allowed_origins
        .extend(args.allow_origin.iter().cloned());
    if let Some(p) = args.approve.iter().find(|p| p.is_empty()) {
        return Err(ConfigError(format!(
            "--approve {p:?}: give a tool path such as payments.refund (or payments.*)"
        )));
    }
    config.approve.extend(args.approve.iter().cloned());
    if let Some(s) = &args.snapshot_store {
        config.snapshot_store = codemode_mcp::paused::StoreSpec::parse(s, Path::new("."))
            .map_err(|e| ConfigError(format!("--snapshot-store: {e}")))?;
    }
    if let Some(k) = &args.snapshot_key_file {
        config.snapshot_key_file = Some(k.clone());
    }
    let extend = host_additions(
        &config.manifests,
        config.limits.max_memory_bytes(),
        &[],
        Vec::new(),
        Vec::new(),
        Reproducible::default(),
    )?;
    let rt = runtime()?;
    let r = rt.block_on(async move {
        let gateway = Gateway::start(config, extend)
            .await
            .map_err(|e| ConfigError(e.to_string()))?;
        let r = match addr {
            None => codemode_mcp::serve_stdio(gateway.clone()).await,
            Some(addr) => {
                let stop = codemode::CancellationToken::new();
                tokio::spawn(crate::cancel_on_signal(stop.clone()));
                codemode_mcp::serve_http(gateway.clone(), addr, stop, |a| {
                    eprintln!("codemode: serving MCP at http://{a}/mcp");
                })
                .await
            }
        };
        gateway.shutdown().await;
        r.map_err(ConfigError)
    });
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    r
}

/// Host tools from tool manifests (`codemode.tools` of the config plus `--tools`) and
/// extensions (`--allow-read`), added beside the servers at every rebuild. `memory_limit` is the
/// executions' `max_memory_bytes`, which also bounds a command tool's parsed output.
/// The clock and random source of `run --now/--seed` (defaults: real time, entropy).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reproducible {
    pub clock: codemode::Clock,
    pub random: codemode::Random,
}

fn host_additions(
    from_config: &[PathBuf],
    memory_limit: Option<u64>,
    extra: &[PathBuf],
    extensions: Vec<codemode::Extension>,
    openapi: Vec<(String, Namespace)>,
    reproducible: Reproducible,
) -> Result<Option<codemode_mcp::Extend>, ConfigError> {
    let paths: Vec<PathBuf> = from_config.iter().chain(extra).cloned().collect();
    if paths.is_empty()
        && extensions.is_empty()
        && openapi.is_empty()
        && reproducible == Reproducible::default()
    {
        return Ok(None);
    }
    let manifest = Manifest::load_all(&paths).map_err(|e| ConfigError(e.to_string()))?;
    let namespaces: Vec<(String, Option<String>)> = manifest
        .namespaces
        .iter()
        .map(|n| (n.path.clone(), n.description.clone()))
        .collect();
    let tools: Vec<(String, Tool)> = manifest
        .tools
        .into_iter()
        .map(|t| (t.path.clone(), crate::host::command_tool(t, memory_limit)))
        .collect();
    Ok(Some(Arc::new(move |mut b: codemode::Options| {
        b = b.clock(reproducible.clock).random(reproducible.random);
        for (p, d) in &namespaces {
            let mut ns = Namespace::new();
            if let Some(d) = d {
                ns = ns.description(d.clone());
            }
            b = b.namespace(p.clone(), ns);
        }
        for (p, t) in &tools {
            b = b.tool(p.clone(), t.clone());
        }
        for e in &extensions {
            b = b.extension(e.clone());
        }
        for (p, ns) in &openapi {
            b = b.namespace(p.clone(), ns.clone());
        }
        b
    })))
}

/// Start the servers of `config` (plus `extend`), run `f` on the gateway, stop them.
fn with_gateway<T>(
    config: Config,
    extend: Option<codemode_mcp::Extend>,
    f: impl FnOnce(&Gateway) -> T,
) -> Result<T, ConfigError> {
    let rt = runtime()?;
    let r = rt.block_on(async move {
        let gateway = Gateway::start(config, extend)
            .await
            .map_err(|e| ConfigError(e.to_string()))?;
        let r = f(&gateway);
        gateway.shutdown().await;
        Ok(r)
    });
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    r
}

/// `codemode catalog --mcp-config FILE`: the `execute` description `codemode mcp` would give
/// (instructions, limits, catalog, servers that are unavailable), for `--lang` (default: the
/// config's `codemode.language`) and `--budget` (default: the config's `catalogBudget`), with
/// the flags' limits over the config's and the `--tools` manifests beside the config's.
pub fn catalog_text(
    config_path: &Path,
    args: &crate::discover::CatalogArgs,
    openapi: Vec<(String, Namespace)>,
) -> Result<String, ConfigError> {
    let mut config = load(config_path)?;
    let lang = args.lang.unwrap_or(crate::Lang::of(config.language));
    config.language = lang.language();
    let allowed = match &args.allow_read {
        Some(dir) => Some(crate::fs_ext::AllowedDir::new(dir).map_err(ConfigError)?),
        None => None,
    };
    let options = crate::host::Options {
        lang,
        timeout_ms: args.timeout_ms,
        max_tool_calls: args.max_tool_calls,
        max_output_bytes: args.max_output_bytes,
        max_memory_bytes: None,
        extensions: allowed
            .into_iter()
            .map(|dir| crate::fs_ext::extension(dir, lang))
            .collect(),
        namespaces: Vec::new(),
    };
    config.limits = crate::host::override_limits(config.limits, &options)?;
    let language = config.language;
    let budget = args.budget.unwrap_or(config.catalog_budget);
    let with_fs = !options.extensions.is_empty();
    let extend = host_additions(
        &config.manifests,
        config.limits.max_memory_bytes(),
        &args.tools,
        options.extensions,
        openapi,
        Reproducible::default(),
    )?;
    let mut text = with_gateway(config, extend, |gw| gw.description(language, budget))?;
    if with_fs {
        crate::fs_ext::append_instructions_note(&mut text, lang);
    }
    Ok(text)
}

/// `codemode search --mcp-config FILE`: the built-in `search` over the servers' tools and the
/// manifests (the config's and `--tools`), as one JSON line, its signatures in the language of
/// `--lang` (default: the config's `codemode.language`).
pub fn search_json(
    config_path: &Path,
    args: &crate::discover::SearchArgs,
    openapi: Vec<(String, Namespace)>,
) -> Result<String, ConfigError> {
    let mut config = load(config_path)?;
    if let Some(lang) = args.lang {
        config.language = lang.language();
    }
    let extend = host_additions(
        &config.manifests,
        config.limits.max_memory_bytes(),
        &args.tools,
        Vec::new(),
        openapi,
        Reproducible::default(),
    )?;
    let input = crate::discover::search_input(args);
    let result = with_gateway(config, extend, |gw| gw.search(&input))?
        .map_err(crate::discover::search_error)?;
    Ok(result.to_string())
}

/// `codemode run --mcp-config FILE`: run `source` (in `options.lang`, which overrides the
/// config's language) once over the servers of `config` (see [`load`]) plus the `--tools`
/// manifests, print the Result as one JSON line; attachments are summarized on stderr.
/// Command-line limits override the config's.
pub fn run(
    mut config: Config,
    options: &crate::host::Options,
    manifests: &[PathBuf],
    source: &str,
    reproducible: Reproducible,
) -> Result<ExitCode, ConfigError> {
    config.limits = crate::host::override_limits(config.limits, options)?;
    config.language = options.lang.language();
    let extend = host_additions(
        &config.manifests,
        config.limits.max_memory_bytes(),
        manifests,
        options.extensions.clone(),
        options.namespaces.clone(),
        reproducible,
    )?;
    // A server's start is bounded by the run's own timeout too (`--timeout-ms`): one that
    // takes longer is left out like one that fails.
    let cap = std::time::Duration::from_millis(config.limits.timeout_ms());
    for s in &mut config.servers {
        s.startup_timeout = s.startup_timeout.min(cap);
    }
    let rt = runtime()?;
    let outcome = rt
        .block_on(async move {
            let gateway = Gateway::start(config, extend)
                .await
                .map_err(|e| ConfigError(e.to_string()))?;
            let cancel = codemode::CancellationToken::new();
            tokio::spawn(crate::cancel_on_signal(cancel.clone()));
            // Attachments are only summarized on stderr: their data is not kept.
            let exec = gateway.execute_with(source, cancel, None, false).await;
            let problems = gateway.problems();
            gateway.shutdown().await;
            Ok::<_, ConfigError>((exec, problems))
        })
        .map(|(mut exec, problems)| {
            // A server that failed to start: the Result says so, even when the program succeeded.
            for (name, why) in problems {
                exec.result.warnings.push(codemode::Diagnostic::new(
                    codemode::DiagnosticKind::ServerUnavailable,
                    if why.starts_with("MCP server") {
                        format!("{why} (its tools were unavailable to this run)")
                    } else {
                        format!("'{name}': {why}")
                    },
                ));
            }
            exec
        })?;
    for (i, a) in outcome.attachments.iter().enumerate() {
        eprintln!(
            "codemode: attachment {}: {} {}",
            i + 1,
            a["type"].as_str().unwrap_or("?"),
            a["mimeType"].as_str().unwrap_or("")
        );
    }
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    let _ = writeln!(stdout, "{}", outcome.result.to_json_string()).and_then(|()| stdout.flush());
    rt.shutdown_timeout(std::time::Duration::from_millis(500));
    Ok(if outcome.result.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_addresses() {
        assert_eq!(http_addr("8000").unwrap().to_string(), "127.0.0.1:8000");
        assert_eq!(http_addr("[::1]:9").unwrap().to_string(), "[::1]:9");
        assert!(http_addr("localhost").unwrap_err().0.contains("HOST:PORT"));
    }
}
