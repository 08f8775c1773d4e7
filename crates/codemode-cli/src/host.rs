//! Glue between the CLI and the `codemode` host crate: builds the tool tree from a manifest and
//! runs one execution.

use serde_json::Value;

use crate::manifest::Manifest;
use crate::{ConfigError, Lang};

/// Execution options taken from the command line (`None` = the host's default).
pub struct Options {
    pub lang: Lang,
    pub timeout_ms: Option<u64>,
    pub max_tool_calls: Option<u64>,
    pub max_output_bytes: Option<u64>,
    pub max_memory_bytes: Option<u64>,
}

/// The serialized Result and whether it is ok.
pub struct Outcome {
    pub ok: bool,
    pub json: String,
}

/// Runs `source` over the tools of `manifest`.
///
/// # Errors
/// Configuration errors (exit status 2).
pub async fn execute(
    options: Options,
    manifest: Manifest,
    source: String,
) -> Result<Outcome, ConfigError> {
    let _ = (options, manifest, source, Value::Null);
    Err(ConfigError(
        "the host runtime is not wired in yet".to_string(),
    ))
}
