//! `--openapi [NS=]SPEC` (with `--base-url`, `--openapi-header`, `--openapi-auth`) on `run`,
//! `catalog` and `search`: each OpenAPI 3 spec becomes a namespace of tools (see the
//! `codemode-openapi` crate); and `codemode openapi inspect SPEC`, which prints the tools and the
//! skipped operations as JSON. Secrets are named by environment variable (`env:VAR`), never
//! written on the command line where `ps` shows them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use codemode::Namespace;
use codemode_openapi::{Credential, Document, Options, Scheme, Secret, StaticAuth};
use serde_json::json;

use crate::ConfigError;

/// The OpenAPI flags shared by `run`, `catalog` and `search`.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct OpenApiArgs {
    /// An OpenAPI 3 spec (JSON or YAML file, or an http(s) URL, fetched; relative server URLs
    /// resolve against it): each operation becomes a tool under NS (default: the file stem,
    /// non-alphanumerics as `_`). Repeat for several APIs.
    #[arg(long = "openapi", value_name = "[NS=]SPEC")]
    pub specs: Vec<String>,
    /// Base URL of an API (overrides its spec's `servers`). Without `NS=` it applies to every spec.
    #[arg(long = "base-url", value_name = "[NS=]URL")]
    pub base_urls: Vec<String>,
    /// A header sent with every request of NS, its value read from the environment variable VAR.
    #[arg(long = "openapi-header", value_name = "NS:NAME=env:VAR")]
    pub headers: Vec<String>,
    /// A credential for the security scheme SCHEME of NS, read from the environment (basic:
    /// `env:USER_VAR,env:PASS_VAR`; bearer, oauth2, openIdConnect: a token; oauth2 with a
    /// clientCredentials flow: `env:CLIENT_ID_VAR,env:CLIENT_SECRET_VAR`, and the token is
    /// fetched; apiKey: the key).
    #[arg(long = "openapi-auth", value_name = "NS:SCHEME=env:VAR")]
    pub auth: Vec<String>,
}

/// `codemode openapi ...`.
#[derive(clap::Args, Debug)]
pub struct OpenApiCmd {
    #[command(subcommand)]
    command: OpenApiSub,
}

#[derive(clap::Subcommand, Debug)]
enum OpenApiSub {
    /// Print the tools a spec gives and the operations skipped, with the reason, as one JSON
    /// line: {"tools":[{"path","method","route"}],"skipped":[{"method","path","reason"}]}.
    Inspect {
        /// The spec (JSON or YAML file, or its http(s) URL).
        #[arg(value_name = "SPEC")]
        spec: String,
        /// Base URL (operations whose servers are relative or templated need one).
        #[arg(long = "base-url", value_name = "URL")]
        base_url: Option<String>,
    },
}

/// Runs `codemode openapi ...`: the text to print.
pub fn command(cmd: &OpenApiCmd) -> Result<String, ConfigError> {
    match &cmd.command {
        OpenApiSub::Inspect { spec, base_url } => {
            let loaded = load(spec)?;
            let options = Options {
                base_url: base_url.clone(),
                spec_url: loaded.spec_url,
                ..Options::default()
            };
            let built = codemode_openapi::from_spec(&loaded.document, options)
                .map_err(|e| ConfigError(format!("--base-url: {e}")))?;
            Ok(json!({"tools": built.tools, "skipped": built.skipped}).to_string())
        }
    }
}

/// Reads and loads the spec at `location` (a file, or an `http(s)://` URL fetched with a cap;
/// see `codemode_openapi::read`).
pub fn load(location: &str) -> Result<codemode_openapi::Loaded, ConfigError> {
    codemode_openapi::read(location).map_err(|e| ConfigError(e.0))
}

/// The namespace a spec location suggests: the stem of its file name (of a URL's path).
fn location_stem(location: &str) -> String {
    stem(&codemode_openapi::source::path_of(location))
}

/// `NS=rest` → (Some(NS), rest) when the part before `=` looks like a namespace (no `/` or `:`).
fn split_ns(s: &str) -> (Option<&str>, &str) {
    match s.split_once('=') {
        Some((ns, rest)) if !ns.is_empty() && !ns.contains(['/', ':', '\\']) => (Some(ns), rest),
        _ => (None, s),
    }
}

/// The file stem with characters outside `[A-Za-z0-9_]` as `_`.
fn stem(path: &Path) -> String {
    let s: String = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("api")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() { "api".into() } else { s }
}

/// `env:VAR` → the variable's value; anything else is refused (`flag` names the flag).
fn env_value(s: &str, flag: &str) -> Result<Secret, ConfigError> {
    let Some(var) = s.strip_prefix("env:") else {
        return Err(ConfigError(format!(
            "{flag}: write the secret as env:VAR (the name of an environment variable holding it), not as a literal on the command line"
        )));
    };
    std::env::var(var)
        .map(Secret::new)
        .map_err(|_| ConfigError(format!("{flag}: the environment variable {var} is not set")))
}

/// `NS:REST` → (NS, REST).
fn ns_prefix<'a>(s: &'a str, flag: &str, form: &str) -> Result<(&'a str, &'a str), ConfigError> {
    s.split_once(':')
        .filter(|(ns, _)| !ns.is_empty())
        .ok_or_else(|| ConfigError(format!("{flag} expects {form}; got '{s}'")))
}

/// The namespaces of the specs given by `args`, each with its tools. Skipped operations are
/// summarized on stderr (`codemode openapi inspect` lists them).
pub fn namespaces(args: &OpenApiArgs) -> Result<Vec<(String, Namespace)>, ConfigError> {
    let mut out: Vec<(String, Namespace)> = Vec::new();
    let mut specs: Vec<(String, String)> = Vec::new();
    for s in &args.specs {
        let (ns, path) = split_ns(s);
        let path = path.to_string();
        let ns = ns
            .map(str::to_string)
            .unwrap_or_else(|| location_stem(&path));
        if specs.iter().any(|(n, _)| *n == ns) {
            return Err(ConfigError(format!(
                "--openapi: two specs share the namespace '{ns}'; name one with NS=SPEC"
            )));
        }
        specs.push((ns, path));
    }
    let known = |ns: &str, flag: &str| -> Result<(), ConfigError> {
        if specs.iter().any(|(n, _)| n == ns) {
            Ok(())
        } else {
            Err(ConfigError(format!(
                "{flag}: no --openapi spec has the namespace '{ns}' (namespaces: {})",
                specs
                    .iter()
                    .map(|(n, _)| n.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    };
    let mut base: HashMap<String, String> = HashMap::new();
    let mut base_all: Option<String> = None;
    for b in &args.base_urls {
        match split_ns(b) {
            (Some(ns), url) => {
                known(ns, "--base-url")?;
                base.insert(ns.to_string(), url.to_string());
            }
            (None, url) => base_all = Some(url.to_string()),
        }
    }
    let mut headers: HashMap<String, Vec<(String, Secret)>> = HashMap::new();
    for h in &args.headers {
        let form = "NS:Name=env:VAR";
        let (ns, rest) = ns_prefix(h, "--openapi-header", form)?;
        known(ns, "--openapi-header")?;
        let (name, value) = rest
            .split_once('=')
            .ok_or_else(|| ConfigError(format!("--openapi-header expects {form}; got '{h}'")))?;
        headers
            .entry(ns.to_string())
            .or_default()
            .push((name.to_string(), env_value(value, "--openapi-header")?));
    }
    let mut auth: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for a in &args.auth {
        let form = "NS:SCHEME=env:VAR";
        let (ns, rest) = ns_prefix(a, "--openapi-auth", form)?;
        known(ns, "--openapi-auth")?;
        let (scheme, value) = rest
            .split_once('=')
            .ok_or_else(|| ConfigError(format!("--openapi-auth expects {form}; got '{a}'")))?;
        auth.entry(ns.to_string())
            .or_default()
            .push((scheme.to_string(), value.to_string()));
    }
    for (ns, path) in specs {
        let loaded = load(&path)?;
        let doc = loaded.document;
        let mut creds = HashMap::new();
        for (scheme, value) in auth.remove(&ns).unwrap_or_default() {
            creds.insert(scheme.clone(), credential(&doc, &ns, &scheme, &value)?);
        }
        let options = Options {
            base_url: base.get(&ns).cloned().or_else(|| base_all.clone()),
            headers: headers.remove(&ns).unwrap_or_default(),
            auth: Some(Arc::new(StaticAuth(creds))),
            spec_url: loaded.spec_url,
            ..Options::default()
        };
        let built = codemode_openapi::from_spec(&doc, options)
            .map_err(|e| ConfigError(format!("--openapi {ns}: {e}")))?;
        if !built.skipped.is_empty() {
            eprintln!(
                "codemode: openapi {ns}: {} tools; {} operations skipped (see 'codemode openapi inspect {}')",
                built.tools.len(),
                built.skipped.len(),
                path
            );
        }
        out.push((ns, built.namespace));
    }
    Ok(out)
}

/// The credential for `scheme` of the spec `doc` from `value` (`env:VAR`, or
/// `env:USER,env:PASS` for basic).
fn credential(
    doc: &Document,
    ns: &str,
    scheme: &str,
    value: &str,
) -> Result<Credential, ConfigError> {
    let flag = "--openapi-auth";
    let schemes = doc
        .root()
        .pointer("/components/securitySchemes")
        .and_then(|s| s.as_object());
    let Some(def) = schemes.and_then(|s| s.get(scheme)).and_then(Scheme::parse) else {
        let names: Vec<&str> = schemes
            .map(|s| s.keys().map(String::as_str).collect())
            .unwrap_or_default();
        return Err(ConfigError(format!(
            "{flag}: the spec of '{ns}' has no usable security scheme '{scheme}' (its schemes: {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        )));
    };
    Ok(match def {
        Scheme::Http { scheme: s } if s == "basic" => {
            let (u, p) = value.split_once(',').ok_or_else(|| {
                ConfigError(format!("{flag}: '{scheme}' is a basic scheme; write {ns}:{scheme}=env:USER_VAR,env:PASS_VAR"))
            })?;
            Credential::Basic {
                user: env_value(u, flag)?.expose().to_string(),
                password: env_value(p, flag)?,
            }
        }
        // One value only past here, except for an oauth2 client id and secret.
        Scheme::ApiKey { .. } | Scheme::Http { .. } | Scheme::OpenIdConnect
            if value.contains(',') =>
        {
            return Err(ConfigError(format!(
                "{flag}: '{scheme}' takes one value (a client id and secret go with an OAuth2 scheme that has a clientCredentials flow); write {ns}:{scheme}=env:VAR"
            )));
        }
        Scheme::ApiKey { .. } => Credential::ApiKey(env_value(value, flag)?),
        // A client id and secret: the token is fetched from the scheme's clientCredentials flow.
        Scheme::OAuth2 {
            client_credentials_url,
        } if value.contains(',') => {
            if client_credentials_url.is_none() {
                return Err(ConfigError(format!(
                    "{flag}: '{scheme}' has no OAuth2 clientCredentials flow, so no token can be fetched for it; give a token instead: {ns}:{scheme}=env:TOKEN_VAR"
                )));
            }
            let (id, secret) = value.split_once(',').unwrap_or((value, ""));
            Credential::ClientCredentials {
                client_id: env_value(id, flag)?.expose().to_string(),
                client_secret: env_value(secret, flag)?,
            }
        }
        Scheme::Http { scheme: s } if s != "bearer" => Credential::Header {
            name: "authorization".into(),
            value: Secret::new(format!("{s} {}", env_value(value, flag)?.expose())),
        },
        _ => Credential::Bearer(env_value(value, flag)?),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namespace_prefixes() {
        assert_eq!(
            split_ns("gh=specs/api.json"),
            (Some("gh"), "specs/api.json")
        );
        assert_eq!(split_ns("specs/a=b.json"), (None, "specs/a=b.json"));
        assert_eq!(split_ns("https://x/?a=1"), (None, "https://x/?a=1"));
        assert_eq!(stem(Path::new("dir/api.github.com.json")), "api_github_com");
    }

    #[test]
    fn secrets_must_come_from_the_environment() {
        let e = env_value("hunter2", "--openapi-auth").unwrap_err().0;
        assert!(
            e.starts_with("--openapi-auth: write the secret as env:VAR"),
            "{e}"
        );
        assert!(!e.contains("hunter2"));
        let e = env_value("env:CODEMODE_TEST_SURELY_UNSET", "--openapi-header")
            .unwrap_err()
            .0;
        assert_eq!(
            e,
            "--openapi-header: the environment variable CODEMODE_TEST_SURELY_UNSET is not set"
        );
    }
}
