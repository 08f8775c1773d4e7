//! `codemode catalog` and `codemode search`: what a model would be told about the tools of some
//! manifests, without running a program.
//!
//! - `codemode catalog --tools M [--lang lua|js] [--budget N] [--allow-read DIR] [limits]` prints
//!   the instructions text (guide, limits in force, a catalog of about N o200k tokens; see
//!   `codemode::catalog`), in Lua or, with `--lang js`, in JavaScript with TypeScript signatures.
//!   With `--allow-read` it ends with a note on the `fs` functions of that language.
//! - `codemode search --tools M [QUERY] [--lang lua|js] [--namespace NS] [--limit N] [--offset N]`
//!   prints the result of the built-in `search` as one line of JSON, exactly what a program's
//!   `search(...)` returns in that language (signatures in its notation).
//!
//! Exit status: 0 on success, 2 for usage or configuration errors (also for search arguments the
//! built-in would reject, e.g. `--limit 0`).

use std::path::PathBuf;

use serde_json::{Map, Value};

use crate::{ConfigError, Lang};

/// Arguments of `codemode catalog`.
#[derive(clap::Args, Debug)]
pub struct CatalogArgs {
    /// A tool manifest (JSON). Repeat to merge several.
    #[arg(long = "tools", value_name = "MANIFEST")]
    pub tools: Vec<PathBuf>,
    /// Language the instructions are written for: lua (default; with --mcp-config the config's
    /// codemode.language) or js (the JavaScript guide, TypeScript signatures).
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// Token budget of the catalog part (o200k tokens). Default: 2000.
    #[arg(long, value_name = "N")]
    pub budget: Option<usize>,
    /// Mention the read-only `fs` functions confined to DIR (as `run --allow-read DIR` installs).
    #[arg(long, value_name = "DIR")]
    pub allow_read: Option<PathBuf>,
    /// Wall-clock limit stated in the instructions, in milliseconds. Default: 120000.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub timeout_ms: Option<i64>,
    /// Tool-call limit stated in the instructions. Default: 128.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_tool_calls: Option<i64>,
    /// Output limit stated in the instructions, in bytes. Default: 65536.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_output_bytes: Option<i64>,
}

/// Arguments of `codemode search`.
#[derive(clap::Args, Debug)]
pub struct SearchArgs {
    /// A tool manifest (JSON). Repeat to merge several.
    #[arg(long = "tools", value_name = "MANIFEST")]
    pub tools: Vec<PathBuf>,
    /// Words to look for, or an exact tool path. Empty or absent: browse in path order.
    #[arg(value_name = "QUERY")]
    pub query: Option<String>,
    /// Language of the program whose `search` this is, which the signatures are written in: lua
    /// (default; with --mcp-config the config's codemode.language) or js (TypeScript signatures).
    #[arg(long, value_enum)]
    pub lang: Option<Lang>,
    /// Only tools under this dotted path (e.g. github.issues).
    #[arg(long, value_name = "NS")]
    pub namespace: Option<String>,
    /// Page size (1 to 50). Default: 10.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub limit: Option<i64>,
    /// Index of the first result (use next.offset of the previous page). Default: 0.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub offset: Option<i64>,
}

fn load(tools: &[PathBuf]) -> Result<crate::manifest::Manifest, ConfigError> {
    crate::manifest::Manifest::load_all(tools).map_err(|e| ConfigError(e.to_string()))
}

/// The instructions text for `codemode catalog`.
pub fn catalog_text(
    args: &CatalogArgs,
    namespaces: Vec<(String, codemode::Namespace)>,
) -> Result<String, ConfigError> {
    let lang = args.lang.unwrap_or(Lang::Lua);
    let manifest = load(&args.tools)?;
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
        namespaces,
    };
    let with_fs = !options.extensions.is_empty();
    let cm = crate::host::build(&options, manifest, Default::default(), Default::default())?;
    let budget = args
        .budget
        .unwrap_or(codemode::catalog::DEFAULT_INSTRUCTIONS_BUDGET);
    let mut text = codemode::catalog::instructions(cm.tools(), &cm.limits(), cm.language(), budget);
    if with_fs {
        crate::fs_ext::append_instructions_note(&mut text, lang);
    }
    Ok(text)
}

/// The result JSON (one line) for `codemode search`.
pub fn search_json(
    args: &SearchArgs,
    namespaces: Vec<(String, codemode::Namespace)>,
) -> Result<String, ConfigError> {
    let manifest = load(&args.tools)?;
    let options = crate::host::Options {
        lang: args.lang.unwrap_or(Lang::Lua),
        timeout_ms: None,
        max_tool_calls: None,
        max_output_bytes: None,
        max_memory_bytes: None,
        extensions: Vec::new(),
        namespaces,
    };
    let cm = crate::host::build(&options, manifest, Default::default(), Default::default())?;
    let result = cm.search(&search_input(args)).map_err(search_error)?;
    Ok(result.to_string())
}

/// The built-in `search`'s input from the flags (`query`, `namespace`, `limit`, `offset`).
pub fn search_input(args: &SearchArgs) -> Value {
    let mut input = Map::new();
    if let Some(q) = &args.query {
        input.insert("query".into(), Value::String(q.clone()));
    }
    if let Some(ns) = &args.namespace {
        input.insert("namespace".into(), Value::String(ns.clone()));
    }
    if let Some(n) = args.limit {
        input.insert("limit".into(), Value::from(n));
    }
    if let Some(n) = args.offset {
        input.insert("offset".into(), Value::from(n));
    }
    Value::Object(input)
}

/// A refused search input as a usage error naming the flag (`--limit must be ...`).
pub fn search_error(e: String) -> ConfigError {
    ConfigError(e.replacen("search: 'limit'", "--limit", 1).replacen(
        "search: 'offset'",
        "--offset",
        1,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest() -> PathBuf {
        let d = std::env::temp_dir().join(format!("codemode-discover-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let m = d.join("tools.json");
        let doc = serde_json::json!({
            "namespaces": {"orders": {"description": "Shop orders"}},
            "tools": {
                "orders.lookup": {"description": "Look up an order by id.", "command": ["cat"],
                    "input": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
                "orders.list": {"description": "List recent orders.", "command": ["cat"], "input": {"type": "object"}}
            }
        });
        std::fs::write(&m, doc.to_string()).unwrap();
        m
    }

    #[test]
    fn search_builds_the_input_from_flags() {
        let args = SearchArgs {
            tools: vec![manifest()],
            query: Some("lookup".into()),
            lang: None,
            namespace: Some("orders".into()),
            limit: Some(1),
            offset: None,
        };
        let v: Value = serde_json::from_str(&search_json(&args, Vec::new()).unwrap()).unwrap();
        assert_eq!(v["items"][0]["path"], "orders.lookup");
        let bad = SearchArgs {
            limit: Some(0),
            ..args
        };
        assert_eq!(
            search_json(&bad, Vec::new()).unwrap_err().0,
            "--limit must be an integer from 1 to 50; got 0."
        );
    }

    #[test]
    fn catalog_lists_the_tools() {
        let args = CatalogArgs {
            tools: vec![manifest()],
            lang: None,
            budget: Some(500),
            allow_read: None,
            timeout_ms: None,
            max_tool_calls: Some(7),
            max_output_bytes: None,
        };
        let text = catalog_text(&args, Vec::new()).unwrap();
        assert!(
            text.contains("tools.orders.lookup({ id: string }) -> unknown"),
            "{text}"
        );
        assert!(text.contains("at most 7 tool calls"), "{text}");
        assert!(!text.contains("fs.read"));
    }
}
