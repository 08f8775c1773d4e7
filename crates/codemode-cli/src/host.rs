//! Glue between the CLI and the `codemode` host crate: turns a [`Manifest`] into command tools,
//! builds a [`CodeMode`] runtime with the command-line limits, and runs one execution.

use std::sync::Arc;

use codemode::{CodeMode, LimitName, Limits, Namespace, Tool, ToolError};

use crate::manifest::{Manifest, ToolSpec};
use crate::{ConfigError, Lang};

/// Execution options taken from the command line (`None` = the host's default).
pub struct Options {
    /// Program language.
    pub lang: Lang,
    /// `--timeout-ms`.
    pub timeout_ms: Option<i64>,
    /// `--max-tool-calls`.
    pub max_tool_calls: Option<i64>,
    /// `--max-output-bytes`.
    pub max_output_bytes: Option<i64>,
    /// `--max-memory-bytes`.
    pub max_memory_bytes: Option<i64>,
    /// Extensions to install (`--allow-read DIR` → the `fs` extension).
    pub extensions: Vec<codemode::Extension>,
    /// Namespaces of tools built elsewhere (`--openapi` specs), added as they are.
    pub namespaces: Vec<(String, Namespace)>,
}

/// Builds the runtime: limits, the clock and random seed (`--now`, `--seed`), namespaces and
/// one command tool per manifest tool.
///
/// # Errors
/// Invalid limits, or a tool tree the host rejects (exit status 2).
pub fn build(
    options: &Options,
    manifest: Manifest,
    clock: codemode::Clock,
    random: codemode::Random,
) -> Result<CodeMode, ConfigError> {
    build_pausing(options, manifest, clock, random, &[], None)
}

/// [`build`], with the tools at `pause_on` needing the host's approval (`--pause-on`: a call
/// to one pauses the execution, see `codemode::durable`), and snapshots signed with `key`
/// (`--snapshot-key-file`; only snapshots signed with it are resumed).
///
/// # Errors
/// As [`build`].
pub fn build_pausing(
    options: &Options,
    manifest: Manifest,
    clock: codemode::Clock,
    random: codemode::Random,
    pause_on: &[String],
    key: Option<Vec<u8>>,
) -> Result<CodeMode, ConfigError> {
    let limits = limits(options)?;
    let mut builder = CodeMode::builder()
        .limits(limits)
        .clock(clock)
        .random(random);
    builder = builder.language(options.lang.language());
    for ns in manifest.namespaces {
        let mut n = Namespace::new();
        if let Some(d) = ns.description {
            n = n.description(d);
        }
        builder = builder.namespace(ns.path, n);
    }
    for (path, ns) in &options.namespaces {
        builder = builder.namespace(path.clone(), ns.clone());
    }
    let paths: Vec<String> = manifest.tools.iter().map(|t| t.path.clone()).collect();
    for spec in manifest.tools {
        let path = spec.path.clone();
        builder = builder.tool(path, command_tool(spec, limits.max_memory_bytes()));
    }
    for extension in &options.extensions {
        builder = builder.extension(extension.clone());
    }
    for path in pause_on {
        // A path that names no tool would pause nothing, and the tool meant would run
        // unapproved: refused.
        if !paths.contains(path) {
            let mut known = paths.clone();
            known.sort();
            return Err(ConfigError(format!(
                "--pause-on {path}: no tool has this path, so nothing would pause; give a tool's full path (the manifests' tools: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
        builder = builder.pause_on(path.clone());
    }
    if let Some(key) = key {
        builder = builder.snapshot_key(key);
    }
    builder
        .build()
        .map_err(|e| ConfigError(format!("cannot set up the tools: {e}")))
}

/// A host [`Tool`] that runs the command of `spec` once per call; its parsed output may take
/// at most `memory_limit` bytes (the executions' `max_memory_bytes`) and at most
/// [`crate::command::MAX_TOOL_OUTPUT_MEMORY`].
pub(crate) fn command_tool(spec: ToolSpec, memory_limit: Option<u64>) -> Tool {
    let bounds = crate::command::OutputBounds::for_memory_limit(memory_limit);
    let description = spec.description.clone();
    let input = spec.input.clone();
    let output = spec.output.clone();
    let spec = Arc::new(spec);
    let tool = Tool::new(description, input, move |value| {
        let spec = Arc::clone(&spec);
        async move {
            crate::command::run(&spec, value, bounds)
                .await
                .map_err(ToolError::new)
        }
    });
    match output {
        Some(schema) => tool.with_output_schema(schema),
        None => tool,
    }
}

fn limits(options: &Options) -> Result<Limits, ConfigError> {
    override_limits(Limits::default(), options)
}

/// `limits` with every limit flag given on the command line applied on top; an invalid value
/// is a [`ConfigError`] naming the flag.
pub(crate) fn override_limits(
    mut limits: Limits,
    options: &Options,
) -> Result<Limits, ConfigError> {
    let pairs = [
        (LimitName::TimeoutMs, "--timeout-ms", options.timeout_ms),
        (
            LimitName::MaxToolCalls,
            "--max-tool-calls",
            options.max_tool_calls,
        ),
        (
            LimitName::MaxOutputBytes,
            "--max-output-bytes",
            options.max_output_bytes,
        ),
        (
            LimitName::MaxMemoryBytes,
            "--max-memory-bytes",
            options.max_memory_bytes,
        ),
    ];
    for (name, flag, value) in pairs {
        if let Some(v) = value {
            limits = limits
                .with(name, v)
                .map_err(|e| ConfigError(format!("{flag}: {e}")))?;
        }
    }
    Ok(limits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use codemode::DiagnosticKind;
    use serde_json::json;

    fn options() -> Options {
        Options {
            lang: Lang::Lua,
            timeout_ms: Some(5_000),
            max_tool_calls: None,
            max_output_bytes: None,
            max_memory_bytes: None,
            extensions: Vec::new(),
            namespaces: Vec::new(),
        }
    }

    fn runtime(tools: serde_json::Value) -> CodeMode {
        let doc = json!({"namespaces": {"t": {"description": "test"}}, "tools": tools});
        let m = crate::manifest::parse(&doc.to_string(), "m.json", &std::env::temp_dir()).unwrap();
        build(&options(), m, Default::default(), Default::default()).unwrap()
    }

    #[tokio::test]
    async fn command_tools_go_through_host_validation() {
        let cm = runtime(json!({
            "t.echo": {"description": "echo", "command": ["cat"],
                       "input": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]},
                       "output": {"type": "object", "required": ["id"]}},
            "t.fail": {"description": "fail", "input": {"type": "object"},
                       "command": ["sh", "-c", "echo 'no such order; list orders first' >&2; exit 1"]},
            "t.bad": {"description": "bad", "input": {"type": "object"}, "output": {"type": "array"},
                      "command": ["sh", "-c", "echo '{}'"]}
        }));
        assert_eq!(
            cm.call_tool("t.echo", json!({"id": "o1"})).await.unwrap(),
            json!({"id": "o1"})
        );

        let d = cm.call_tool("t.echo", json!({"id": 5})).await.unwrap_err();
        assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);

        let d = cm.call_tool("t.fail", json!({})).await.unwrap_err();
        assert_eq!(d.kind, DiagnosticKind::ToolFailure);
        assert!(
            d.message.contains("no such order; list orders first"),
            "{}",
            d.message
        );

        let d = cm.call_tool("t.bad", json!({})).await.unwrap_err();
        assert_eq!(d.kind, DiagnosticKind::InvalidToolOutput);
    }

    #[tokio::test]
    async fn timeout_interrupts_a_command_tool() {
        let mut o = options();
        o.timeout_ms = Some(300);
        let doc = json!({"tools": {"t.hang": {"description": "hang", "input": {}, "command": ["sleep", "30"]}}});
        let m = crate::manifest::parse(&doc.to_string(), "m.json", &std::env::temp_dir()).unwrap();
        let cm = build(&o, m, Default::default(), Default::default()).unwrap();
        let start = std::time::Instant::now();
        let d = cm.call_tool("t.hang", json!({})).await.unwrap_err();
        assert_eq!(d.kind, DiagnosticKind::TimeoutExceeded);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn limits_are_validated_with_the_flag_name() {
        let mut o = options();
        o.max_output_bytes = Some(-5);
        let e = limits(&o).unwrap_err().0;
        assert!(
            e.starts_with("--max-output-bytes: max_output_bytes must be an integer from 0"),
            "{e}"
        );
        o.max_output_bytes = Some(10);
        o.max_memory_bytes = Some(1 << 20);
        let l = limits(&o).unwrap();
        assert_eq!(l.max_output_bytes(), 10);
        assert_eq!(l.max_memory_bytes(), Some(1 << 20));
        assert_eq!(l.timeout_ms(), 5_000);
    }

    #[test]
    fn javascript_builds() {
        let mut o = options();
        o.lang = Lang::Js;
        assert!(
            build(
                &o,
                Manifest::default(),
                Default::default(),
                Default::default()
            )
            .is_ok()
        );
    }
}
