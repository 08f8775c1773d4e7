//! The config's `"openapi"` section: each entry an OpenAPI 3 spec whose operations become the
//! tools of one namespace behind `execute` (built by the `codemode-openapi` crate).
//!
//! ```json
//! "openapi": {"github": {"spec": "specs/api.github.com.json", "baseUrl": "https://api.github.com",
//!   "headers": {"Authorization": {"env": "GH_AUTH"}},
//!   "auth": {"bearerAuth": {"bearer": {"env": "TOKEN"}},
//!            "basicAuth": {"username": "u", "password": {"env": "PW"}},
//!            "keyAuth": {"apiKey": {"env": "KEY"}},
//!            "oauth": {"clientId": "app-1", "clientSecret": {"env": "SECRET"}}},
//!   "include": ["repos/*"], "exclude": ["method:delete"], "readOnly": false, "deprecated": true,
//!   "timeoutMs": 30000, "maxResponseBytes": 52428800}}
//! ```
//! `spec` resolves against the config file's directory, or is an `http(s)://` URL fetched at
//! start (the spec's servers then resolve against it); a secret is a string or `{"env": "VAR"}`
//! (read when the gateway starts); unknown keys are errors naming the key path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use codemode::Namespace;
use codemode_openapi::{Credential, Secret, StaticAuth};
use serde_json::{Map, Value};

use crate::config::ConfigError;

/// A secret in the config: written in the file, or named by environment variable.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretSource {
    /// `"text"`.
    Literal(String),
    /// `{"env": "VAR"}`.
    Env(String),
}

impl std::fmt::Debug for SecretSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretSource::Literal(_) => f.write_str("Literal(<redacted>)"),
            SecretSource::Env(v) => write!(f, "Env({v:?})"),
        }
    }
}

/// A credential of `auth`, per security scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthSource {
    /// `{"bearer": SECRET}`.
    Bearer(SecretSource),
    /// `{"username": SECRET, "password": SECRET}`.
    Basic(SecretSource, SecretSource),
    /// `{"apiKey": SECRET}`: sent on the scheme's own carrier.
    ApiKey(SecretSource),
    /// `{"header": NAME, "value": SECRET}`.
    Header(String, SecretSource),
    /// `{"clientId": SECRET, "clientSecret": SECRET}`: an oauth2 scheme's clientCredentials
    /// flow; the token is fetched from its `tokenUrl` and cached.
    ClientCredentials(SecretSource, SecretSource),
}

/// One entry of `"openapi"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenApiSpec {
    /// The key: the namespace of its tools.
    pub name: String,
    /// The spec file (absolute), or its `http(s)://` URL (fetched when the gateway starts;
    /// relative server URLs, and a spec without `servers`, resolve against it).
    pub spec: PathBuf,
    /// `baseUrl`.
    pub base_url: Option<String>,
    /// `headers`: sent with every request.
    pub headers: Vec<(String, SecretSource)>,
    /// `auth`: scheme name → credential.
    pub auth: Vec<(String, AuthSource)>,
    /// `include` patterns (see `codemode_openapi::Options::include`).
    pub include: Vec<String>,
    /// `exclude` patterns.
    pub exclude: Vec<String>,
    /// `readOnly`: GET and HEAD only.
    pub read_only: bool,
    /// `deprecated`: keep deprecated operations (default true).
    pub deprecated: bool,
    /// `timeoutMs`: per request.
    pub timeout_ms: Option<u64>,
    /// `maxResponseBytes`.
    pub max_response_bytes: Option<u64>,
}

const KEYS: &[&str] = &[
    "spec",
    "baseUrl",
    "headers",
    "auth",
    "include",
    "exclude",
    "readOnly",
    "deprecated",
    "timeoutMs",
    "maxResponseBytes",
];

fn err(m: String) -> ConfigError {
    ConfigError(m)
}

fn secret(v: &Value, at: &str) -> Result<SecretSource, ConfigError> {
    match v {
        Value::String(s) => Ok(SecretSource::Literal(s.clone())),
        Value::Object(m) if m.len() == 1 && m.get("env").is_some_and(Value::is_string) => Ok(
            SecretSource::Env(m["env"].as_str().unwrap_or_default().to_string()),
        ),
        _ => Err(err(format!(
            "{at} must be a string or {{\"env\": \"VAR\"}}"
        ))),
    }
}

fn strings(v: &Value, at: &str) -> Result<Vec<String>, ConfigError> {
    v.as_array()
        .and_then(|a| a.iter().map(|s| s.as_str().map(str::to_string)).collect())
        .ok_or_else(|| err(format!("{at} must be a list of strings")))
}

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>, ConfigError> {
    v.as_object()
        .ok_or_else(|| err(format!("{at} must be an object")))
}

fn unknown(m: &Map<String, Value>, at: &str, known: &[&str]) -> Result<(), ConfigError> {
    match m.keys().find(|k| !known.contains(&k.as_str())) {
        Some(k) => Err(err(format!(
            "unknown key {at}.{k}; the keys allowed here are {}",
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

/// Parse the `"openapi"` section; relative `spec` paths resolve against `dir`.
pub fn parse(v: &Value, dir: &Path) -> Result<Vec<OpenApiSpec>, ConfigError> {
    let mut out = Vec::new();
    for (name, e) in object(v, "openapi")? {
        let at = format!("openapi.{name}");
        if name.is_empty() || name.contains('.') {
            return Err(err(format!(
                "{at}: a namespace name is one non-empty segment without '.'"
            )));
        }
        let e = object(e, &at)?;
        unknown(e, &at, KEYS)?;
        let spec = e.get("spec").and_then(Value::as_str).ok_or_else(|| {
            err(format!(
                "{at}.spec must be the path of the spec file or its http(s) URL"
            ))
        })?;
        let mut entry = OpenApiSpec {
            name: name.clone(),
            // A URL is fetched at start; relative server URLs resolve against it.
            spec: if codemode_openapi::source::is_url(spec) {
                PathBuf::from(spec)
            } else {
                dir.join(spec)
            },
            base_url: None,
            headers: Vec::new(),
            auth: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            read_only: false,
            deprecated: true,
            timeout_ms: None,
            max_response_bytes: None,
        };
        if let Some(b) = e.get("baseUrl") {
            entry.base_url = Some(
                b.as_str()
                    .ok_or_else(|| err(format!("{at}.baseUrl must be a URL string")))?
                    .to_string(),
            );
        }
        if let Some(h) = e.get("headers") {
            for (k, v) in object(h, &format!("{at}.headers"))? {
                entry
                    .headers
                    .push((k.clone(), secret(v, &format!("{at}.headers.{k}"))?));
            }
        }
        if let Some(a) = e.get("auth") {
            for (scheme, c) in object(a, &format!("{at}.auth"))? {
                let cat = format!("{at}.auth.{scheme}");
                let c = object(c, &cat)?;
                let src = if let Some(t) = c.get("bearer") {
                    unknown(c, &cat, &["bearer"])?;
                    AuthSource::Bearer(secret(t, &format!("{cat}.bearer"))?)
                } else if let Some(k) = c.get("apiKey") {
                    unknown(c, &cat, &["apiKey"])?;
                    AuthSource::ApiKey(secret(k, &format!("{cat}.apiKey"))?)
                } else if c.contains_key("username") || c.contains_key("password") {
                    unknown(c, &cat, &["username", "password"])?;
                    let u = c
                        .get("username")
                        .ok_or_else(|| err(format!("{cat}.username is missing")))?;
                    let p = c
                        .get("password")
                        .ok_or_else(|| err(format!("{cat}.password is missing")))?;
                    AuthSource::Basic(
                        secret(u, &format!("{cat}.username"))?,
                        secret(p, &format!("{cat}.password"))?,
                    )
                } else if c.contains_key("clientId") || c.contains_key("clientSecret") {
                    unknown(c, &cat, &["clientId", "clientSecret"])?;
                    let id = c
                        .get("clientId")
                        .ok_or_else(|| err(format!("{cat}.clientId is missing")))?;
                    let secret_v = c
                        .get("clientSecret")
                        .ok_or_else(|| err(format!("{cat}.clientSecret is missing")))?;
                    AuthSource::ClientCredentials(
                        secret(id, &format!("{cat}.clientId"))?,
                        secret(secret_v, &format!("{cat}.clientSecret"))?,
                    )
                } else if let Some(h) = c.get("header") {
                    unknown(c, &cat, &["header", "value"])?;
                    let h = h
                        .as_str()
                        .ok_or_else(|| err(format!("{cat}.header must be a header name")))?;
                    let v = c
                        .get("value")
                        .ok_or_else(|| err(format!("{cat}.value is missing")))?;
                    AuthSource::Header(h.to_string(), secret(v, &format!("{cat}.value"))?)
                } else {
                    return Err(err(format!(
                        "{cat} must be one of {{\"bearer\": S}}, {{\"username\": S, \"password\": S}}, {{\"apiKey\": S}}, {{\"header\": NAME, \"value\": S}}, {{\"clientId\": S, \"clientSecret\": S}}"
                    )));
                };
                entry.auth.push((scheme.clone(), src));
            }
        }
        if let Some(v) = e.get("include") {
            entry.include = strings(v, &format!("{at}.include"))?;
        }
        if let Some(v) = e.get("exclude") {
            entry.exclude = strings(v, &format!("{at}.exclude"))?;
        }
        for (k, slot) in [
            ("readOnly", &mut entry.read_only),
            ("deprecated", &mut entry.deprecated),
        ] {
            if let Some(v) = e.get(k) {
                *slot = v
                    .as_bool()
                    .ok_or_else(|| err(format!("{at}.{k} must be true or false")))?;
            }
        }
        for (k, slot) in [
            ("timeoutMs", &mut entry.timeout_ms),
            ("maxResponseBytes", &mut entry.max_response_bytes),
        ] {
            if let Some(v) = e.get(k) {
                *slot = Some(
                    v.as_u64()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| err(format!("{at}.{k} must be a positive integer")))?,
                );
            }
        }
        out.push(entry);
    }
    Ok(out)
}

fn resolve(s: &SecretSource, at: &str) -> Result<Secret, ConfigError> {
    match s {
        SecretSource::Literal(v) => Ok(Secret::new(v.clone())),
        SecretSource::Env(var) => std::env::var(var)
            .map(Secret::new)
            .map_err(|_| err(format!("{at}: the environment variable {var} is not set"))),
    }
}

/// Load each spec and build its namespace. Errors: an unreadable or invalid spec, an unset
/// environment variable, an unusable option (all naming the entry). Skipped operations are
/// reported on stderr.
pub fn namespaces(specs: &[OpenApiSpec]) -> Result<Vec<(String, Namespace)>, ConfigError> {
    let mut out = Vec::new();
    for s in specs {
        let at = format!("openapi.{}", s.name);
        let loaded = codemode_openapi::read(&s.spec.to_string_lossy())
            .map_err(|e| err(format!("{at}: {e}")))?;
        let doc = loaded.document;
        let mut headers = Vec::new();
        for (k, v) in &s.headers {
            headers.push((k.clone(), resolve(v, &format!("{at}.headers.{k}"))?));
        }
        let mut creds = HashMap::new();
        for (scheme, a) in &s.auth {
            let cat = format!("{at}.auth.{scheme}");
            let c = match a {
                AuthSource::Bearer(t) => Credential::Bearer(resolve(t, &cat)?),
                AuthSource::ApiKey(k) => Credential::ApiKey(resolve(k, &cat)?),
                AuthSource::Basic(u, p) => Credential::Basic {
                    user: resolve(u, &cat)?.expose().to_string(),
                    password: resolve(p, &cat)?,
                },
                AuthSource::Header(n, v) => Credential::Header {
                    name: n.clone(),
                    value: resolve(v, &cat)?,
                },
                AuthSource::ClientCredentials(id, secret) => Credential::ClientCredentials {
                    client_id: resolve(id, &cat)?.expose().to_string(),
                    client_secret: resolve(secret, &cat)?,
                },
            };
            creds.insert(scheme.clone(), c);
        }
        let mut options = codemode_openapi::Options {
            base_url: s.base_url.clone(),
            headers,
            auth: Some(Arc::new(StaticAuth(creds))),
            include: s.include.clone(),
            exclude: s.exclude.clone(),
            read_only: s.read_only,
            deprecated: s.deprecated,
            timeout: s.timeout_ms.map(Duration::from_millis),
            spec_url: loaded.spec_url,
            ..codemode_openapi::Options::default()
        };
        if let Some(n) = s.max_response_bytes {
            options.max_response_bytes = n;
        }
        let built =
            codemode_openapi::from_spec(&doc, options).map_err(|e| err(format!("{at}: {e}")))?;
        if !built.skipped.is_empty() {
            eprintln!(
                "codemode: openapi {}: {} tools; {} operations skipped (see 'codemode openapi inspect {}')",
                s.name,
                built.tools.len(),
                built.skipped.len(),
                s.spec.display()
            );
        }
        out.push((s.name.clone(), built.namespace));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_err(v: Value) -> String {
        parse(&v, Path::new("/cfg")).unwrap_err().0
    }

    #[test]
    fn parses_entries() {
        let v = json!({"github": {"spec": "specs/gh.json", "baseUrl": "https://api.github.com",
            "headers": {"Authorization": {"env": "GH_AUTH"}, "X-Plain": "v"},
            "auth": {"b": {"bearer": {"env": "T"}}, "u": {"username": "me", "password": {"env": "PW"}},
                     "k": {"apiKey": "lit"}, "h": {"header": "X-Token", "value": {"env": "X"}}},
            "include": ["repos/*"], "readOnly": true, "timeoutMs": 5, "maxResponseBytes": 100}});
        let e = &parse(&v, Path::new("/cfg")).unwrap()[0];
        assert_eq!(e.spec, PathBuf::from("/cfg/specs/gh.json"));
        assert_eq!(e.base_url.as_deref(), Some("https://api.github.com"));
        assert_eq!(
            e.headers[0],
            ("Authorization".into(), SecretSource::Env("GH_AUTH".into()))
        );
        assert_eq!(
            e.auth[1],
            (
                "u".into(),
                AuthSource::Basic(
                    SecretSource::Literal("me".into()),
                    SecretSource::Env("PW".into())
                )
            )
        );
        assert!(e.read_only && e.deprecated);
        assert_eq!((e.timeout_ms, e.max_response_bytes), (Some(5), Some(100)));
        assert!(!format!("{e:?}").contains("lit"));
    }

    /// Issue 16 (f): a spec given by URL is fetched at start, and its relative server URL
    /// resolves against that URL (here `/api` on the serving origin).
    #[test]
    fn a_spec_url_is_fetched_and_its_relative_servers_resolve_against_it() {
        use std::io::{Read, Write};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let spec = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
            "servers": [{"url": "/api"}],
            "paths": {"/ping": {"get": {"operationId": "ping", "responses": {"204": {"description": ""}}}}}})
        .to_string();
        std::thread::spawn(move || {
            if let Ok((mut sock, _)) = listener.accept() {
                let mut buf = [0u8; 4096];
                let _ = sock.read(&mut buf);
                let _ = write!(
                    sock,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{spec}",
                    spec.len()
                );
            }
        });
        let url = format!("{base}/v1/openapi.json");
        let entries = parse(&json!({"svc": {"spec": url}}), Path::new("/cfg")).unwrap();
        assert_eq!(entries[0].spec, PathBuf::from(&url));
        let ns = namespaces(&entries).unwrap();
        assert_eq!(ns.len(), 1);
        let cm = codemode::CodeMode::builder()
            .namespace("svc", ns.into_iter().next().unwrap().1)
            .build()
            .unwrap();
        assert_eq!(cm.tools().len(), 1, "the relative server did not resolve");
    }

    #[test]
    fn errors_name_the_key_path() {
        assert_eq!(
            parse_err(json!({"gh": {"spec": "a", "basUrl": "x"}})),
            "unknown key openapi.gh.basUrl; the keys allowed here are spec, baseUrl, headers, auth, include, exclude, readOnly, deprecated, timeoutMs, maxResponseBytes"
        );
        assert_eq!(
            parse_err(json!({"gh": {}})),
            "openapi.gh.spec must be the path of the spec file or its http(s) URL"
        );
        assert_eq!(
            parse_err(json!({"gh": {"spec": "a", "headers": {"A": 5}}})),
            "openapi.gh.headers.A must be a string or {\"env\": \"VAR\"}"
        );
        assert_eq!(
            parse_err(json!({"gh": {"spec": "a", "auth": {"b": {"bearer": "t", "x": 1}}}})),
            "unknown key openapi.gh.auth.b.x; the keys allowed here are bearer"
        );
        assert_eq!(
            parse_err(json!({"gh": {"spec": "a", "timeoutMs": 0}})),
            "openapi.gh.timeoutMs must be a positive integer"
        );
        assert_eq!(
            parse_err(json!({"a.b": {"spec": "a"}})),
            "openapi.a.b: a namespace name is one non-empty segment without '.'"
        );
        assert_eq!(
            parse_err(json!({"gh": {"spec": "a", "auth": {"o": {"clientId": "app"}}}})),
            "openapi.gh.auth.o.clientSecret is missing"
        );
        assert_eq!(
            parse_err(
                json!({"gh": {"spec": "a", "auth": {"o": {"clientId": "app", "clientSecret": "s", "scope": "x"}}}})
            ),
            "unknown key openapi.gh.auth.o.scope; the keys allowed here are clientId, clientSecret"
        );
    }

    #[test]
    fn client_credentials_are_parsed() {
        let v = json!({"api": {"spec": "a.json",
            "auth": {"oauth": {"clientId": "app-1", "clientSecret": {"env": "CC_SECRET"}}}}});
        let e = &parse(&v, Path::new("/cfg")).unwrap()[0];
        assert_eq!(
            e.auth,
            [(
                "oauth".to_string(),
                AuthSource::ClientCredentials(
                    SecretSource::Literal("app-1".into()),
                    SecretSource::Env("CC_SECRET".into())
                )
            )]
        );
    }

    #[test]
    fn unset_environment_variables_are_named() {
        let dir = std::env::temp_dir().join(format!("codemode-mcp-openapi-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("s.json"), r#"{"openapi":"3.1.0","paths":{}}"#).unwrap();
        let v = json!({"s": {"spec": "s.json", "headers": {"A": {"env": "CODEMODE_SURELY_UNSET_VAR"}}}});
        let specs = parse(&v, &dir).unwrap();
        assert_eq!(
            namespaces(&specs).unwrap_err().0,
            "openapi.s.headers.A: the environment variable CODEMODE_SURELY_UNSET_VAR is not set"
        );
        let v = json!({"s": {"spec": "s.json"}});
        assert_eq!(namespaces(&parse(&v, &dir).unwrap()).unwrap().len(), 1);
    }
}
