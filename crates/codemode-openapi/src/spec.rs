//! [`from_spec`]: a [`Document`] → one tool per supported operation, and the reason for each
//! operation skipped. Enumeration, filters, the checks in the seed's order (output, server,
//! parameters, body, security) and the flat input object.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use codemode::Namespace;
use codemode::schema::CompiledSchema;
use serde_json::{Map, Value, json};

use crate::auth::{AuthResolver, Requirement, Scheme, Secret};
use crate::limits::DEFAULT_MAX_RESPONSE_BYTES;
use crate::load::{Document, Version};
use crate::media;
use crate::names::{Names, segments};
use crate::pointer::deref;
use crate::schema::{Direction, Schemas};

/// How [`from_spec`] builds tools.
#[derive(Clone)]
pub struct Options {
    /// Base URL for every operation (overrides the spec's `servers`), e.g. `https://api.example.com/v1`.
    pub base_url: Option<String>,
    /// Where the spec came from (`https://example.com/openapi.json`): relative server URLs resolve
    /// against it.
    pub spec_url: Option<String>,
    /// Headers sent with every request (declared header parameters and auth override them).
    /// Their values never appear in signatures, results or messages.
    pub headers: Vec<(String, Secret)>,
    /// Supplies credentials per security scheme.
    pub auth: Option<Arc<dyn AuthResolver>>,
    /// Keep only operations matching one of these patterns (empty: all). A pattern is
    /// `tag:NAME`, `method:GET`, `path:/repos/*` or a glob over the operationId (`repos/*`);
    /// `*` matches any run of characters, `?` one.
    pub include: Vec<String>,
    /// Drop operations matching one of these patterns (after `include`).
    pub exclude: Vec<String>,
    /// Keep operations marked `deprecated: true` (default true).
    pub deprecated: bool,
    /// Keep only GET and HEAD operations.
    pub read_only: bool,
    /// Split operationIds on `/` as well as `.` (default true: `repos/get` → `repos.get`).
    pub split_slash: bool,
    /// Per-request timeout (default: none; the execution's own timeout still applies).
    pub timeout: Option<Duration>,
    /// Cap on a response body, in bytes (default [`DEFAULT_MAX_RESPONSE_BYTES`]).
    pub max_response_bytes: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            base_url: None,
            spec_url: None,
            headers: Vec::new(),
            auth: None,
            include: Vec::new(),
            exclude: Vec::new(),
            deprecated: true,
            read_only: false,
            split_slash: true,
            timeout: None,
            max_response_bytes: DEFAULT_MAX_RESPONSE_BYTES,
        }
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("base_url", &self.base_url)
            .field(
                "headers",
                &self.headers.iter().map(|(n, _)| n).collect::<Vec<_>>(),
            )
            .field("auth", &self.auth.is_some())
            .field("include", &self.include)
            .field("exclude", &self.exclude)
            .finish_non_exhaustive()
    }
}

/// What [`from_spec`] built.
#[derive(Debug)]
pub struct Built {
    /// One tool per supported operation, at its name (`repos.get`).
    pub namespace: Namespace,
    /// The tools, in document order.
    pub tools: Vec<ToolInfo>,
    /// The operations skipped, in document order, each with its reason.
    pub skipped: Vec<Skipped>,
    /// How many operations the filters left out (not listed as skipped).
    pub excluded: usize,
}

/// A generated tool.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ToolInfo {
    /// The tool's dotted path in the namespace.
    pub path: String,
    /// The HTTP method, upper-case.
    pub method: String,
    /// The path template (`/users/{id}`).
    pub route: String,
}

/// An operation that gave no tool.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    /// The HTTP method, upper-case.
    pub method: String,
    /// The path template.
    pub path: String,
    /// Why, in one sentence.
    pub reason: String,
}

/// An option [`from_spec`] cannot use.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{0}")]
pub struct BuildError(pub String);

/// Where a parameter goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Path,
    Query,
    Header,
    Cookie,
}

impl Loc {
    pub(crate) fn word(self) -> &'static str {
        match self {
            Loc::Path => "path",
            Loc::Query => "query",
            Loc::Header => "header",
            Loc::Cookie => "cookie",
        }
    }
}

/// A serialisation style (OpenAPI 3 §4.8.12.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    Simple,
    Label,
    Matrix,
    Form,
    SpaceDelimited,
    PipeDelimited,
    DeepObject,
}

impl Style {
    fn parse(s: &str) -> Option<Style> {
        Some(match s {
            "simple" => Style::Simple,
            "label" => Style::Label,
            "matrix" => Style::Matrix,
            "form" => Style::Form,
            "spaceDelimited" => Style::SpaceDelimited,
            "pipeDelimited" => Style::PipeDelimited,
            "deepObject" => Style::DeepObject,
            _ => return None,
        })
    }
}

/// A parameter of an operation, compiled.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    /// The input field's name.
    pub field: String,
    /// The wire name.
    pub name: String,
    pub loc: Loc,
    pub style: Style,
    pub explode: bool,
    pub allow_reserved: bool,
    pub required: bool,
    /// `content: {application/json}`: the value is sent as JSON text.
    pub json: bool,
}

/// How a request body is encoded.
#[derive(Clone, Debug)]
pub(crate) enum BodyKind {
    Json,
    /// Form fields, with per-property (style, explode) from `encoding`.
    Form(HashMap<String, (Style, bool)>),
    Text,
}

/// A request body, compiled.
#[derive(Clone, Debug)]
pub(crate) struct Body {
    /// The content type sent.
    pub media: String,
    pub kind: BodyKind,
    /// Flattened: (input field, property name); else the one field `body`.
    pub fields: Option<Vec<(String, String)>>,
    /// The field holding the whole body when not flattened.
    pub field: String,
    pub required: bool,
}

/// An operation, compiled: everything a call needs.
#[derive(Debug)]
pub(crate) struct Operation {
    pub method: String,
    pub route: String,
    pub base: String,
    pub params: Vec<Param>,
    pub body: Option<Body>,
    /// `None`: anonymous; else alternatives (OR) of schemes (AND).
    pub security: Option<Vec<Vec<Requirement>>>,
    pub accept: Option<String>,
}

/// Shared by the tools of one spec.
pub(crate) struct Runtime {
    pub client: reqwest::Client,
    pub headers: Vec<(String, Secret)>,
    pub auth: Option<Arc<dyn AuthResolver>>,
    pub timeout: Option<Duration>,
    pub max_response_bytes: u64,
    /// OAuth2 client-credentials tokens, cached.
    pub tokens: crate::oauth::Tokens,
}

const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// Build one tool per supported operation of `doc`. Synchronous; never panics. Errors only for
/// unusable options (a base URL that is not absolute http(s), an invalid static header).
pub fn from_spec(doc: &Document, options: Options) -> Result<Built, BuildError> {
    let base_url = match &options.base_url {
        Some(b) => Some(check_base(b).map_err(BuildError)?),
        None => None,
    };
    for (name, _) in &options.headers {
        if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
            return Err(BuildError(format!("'{name}' is not a valid header name")));
        }
    }
    let client = crate::http::client().map_err(BuildError)?;
    let runtime = Arc::new(Runtime {
        client,
        headers: options.headers.clone(),
        auth: options.auth.clone(),
        timeout: options.timeout,
        max_response_bytes: options.max_response_bytes,
        tokens: Default::default(),
    });
    let root = doc.root();
    let mut schemas = Schemas::new(root, doc.version() == Version::V3_0);
    let mut names = Names::default();
    let mut built = Built {
        namespace: Namespace::new(),
        tools: Vec::new(),
        skipped: Vec::new(),
        excluded: 0,
    };
    if let Some(t) = root.pointer("/info/title").and_then(Value::as_str) {
        built.namespace = std::mem::take(&mut built.namespace).description(t);
    }
    let empty = Map::new();
    let paths = root
        .get("paths")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    for (path, item) in paths {
        // A path-item `$ref` (to `components.pathItems` or elsewhere) is followed.
        let Some((item, _)) = deref(root, item) else {
            built.skipped.push(Skipped {
                method: "*".into(),
                path: path.clone(),
                reason: "path item declaration is invalid or unresolved".into(),
            });
            continue;
        };
        let Some(item_obj) = item.as_object() else {
            continue;
        };
        let mut ops: Vec<(String, &Value)> = Vec::new();
        for (k, op) in item_obj {
            if METHODS.contains(&k.as_str()) || (k == "query" && doc.version() == Version::V3_2) {
                ops.push((k.to_ascii_uppercase(), op));
            }
        }
        if let Some(extra) = item_obj
            .get("additionalOperations")
            .and_then(Value::as_object)
        {
            for (k, op) in extra {
                ops.push((k.to_ascii_uppercase(), op));
            }
        }
        for (method, op) in ops {
            let Some(op_obj) = op.as_object() else {
                built.skipped.push(skip(
                    &method,
                    path,
                    "operation declaration is not an object",
                ));
                continue;
            };
            if !keep(&options, &method, path, op_obj) {
                built.excluded += 1;
                continue;
            }
            match compile(
                root,
                &mut schemas,
                base_url.as_deref(),
                &options,
                &method,
                path,
                item,
                op,
            ) {
                Err(reason) => built.skipped.push(skip(&method, path, &reason)),
                Ok((operation, input, output, description)) => {
                    let segs = segments(
                        op_obj.get("operationId").and_then(Value::as_str),
                        &method,
                        path,
                        options.split_slash,
                    );
                    let Some(name) = names.assign(&segs) else {
                        built.skipped.push(skip(
                            &method,
                            path,
                            "no free tool name is left for this operation",
                        ));
                        continue;
                    };
                    let tool = crate::http::tool(
                        description,
                        input,
                        output,
                        Arc::new(operation),
                        Arc::clone(&runtime),
                    );
                    built.namespace = std::mem::take(&mut built.namespace).tool(name.clone(), tool);
                    built.tools.push(ToolInfo {
                        path: name,
                        method: method.clone(),
                        route: path.clone(),
                    });
                }
            }
        }
    }
    Ok(built)
}

fn skip(method: &str, path: &str, reason: &str) -> Skipped {
    Skipped {
        method: method.into(),
        path: path.into(),
        reason: reason.into(),
    }
}

/// An absolute http(s) URL without query or fragment, trailing `/` removed.
fn check_base(b: &str) -> Result<String, String> {
    let u = url::Url::parse(b).map_err(|_| format!("base URL '{b}' is not an absolute URL"))?;
    if u.scheme() != "http" && u.scheme() != "https" {
        return Err(format!("base URL '{b}' is not an HTTP(S) URL"));
    }
    if u.query().is_some() || u.fragment().is_some() {
        return Err(format!(
            "base URL '{b}' contains a query string or fragment; drop it"
        ));
    }
    Ok(b.trim_end_matches('/').to_string())
}

/// The filters of `options` for one operation.
fn keep(options: &Options, method: &str, path: &str, op: &Map<String, Value>) -> bool {
    if options.read_only && method != "GET" && method != "HEAD" {
        return false;
    }
    if !options.deprecated && op.get("deprecated") == Some(&Value::Bool(true)) {
        return false;
    }
    let matches = |p: &String| -> bool {
        if let Some(t) = p.strip_prefix("tag:") {
            op.get("tags")
                .and_then(Value::as_array)
                .is_some_and(|tags| tags.iter().any(|x| x.as_str().is_some_and(|x| glob(t, x))))
        } else if let Some(m) = p.strip_prefix("method:") {
            m.eq_ignore_ascii_case(method)
        } else if let Some(g) = p.strip_prefix("path:") {
            glob(g, path)
        } else {
            op.get("operationId")
                .and_then(Value::as_str)
                .is_some_and(|id| glob(p, id))
        }
    };
    (options.include.is_empty() || options.include.iter().any(matches))
        && !options.exclude.iter().any(matches)
}

/// `*` matches any run of characters, `?` one character; everything else itself. Iterative with
/// one backtrack point (linear-ish, no recursion).
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A field of the input object before renaming.
struct Field {
    name: String,
    loc: &'static str,
    schema: Value,
    required: bool,
}

/// An operation with its input and output schemas (compiled once, here: the runtime uses them
/// as they are) and its description.
type Compiled = (Operation, CompiledSchema, Option<CompiledSchema>, String);

#[allow(clippy::too_many_arguments)]
fn compile(
    root: &Value,
    schemas: &mut Schemas<'_>,
    base_url: Option<&str>,
    options: &Options,
    method: &str,
    path: &str,
    item: &Value,
    op: &Value,
) -> Result<Compiled, String> {
    let description = op
        .get("description")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .or_else(|| {
            op.get("summary")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        })
        .map(str::to_string)
        .unwrap_or_else(|| format!("{method} {path}"));

    // 1. Output.
    let (output, accept) = output(root, schemas, op)?;
    // 2. Server.
    let base = match base_url {
        Some(b) => b.to_string(),
        None => server(root, item, op, options.spec_url.as_deref())?,
    };
    // 3. Parameters.
    let mut fields: Vec<Field> = Vec::new();
    let mut refs = Vec::new();
    let mut params = parameters(root, item, op)?;
    params.sort_by_key(|(p, _)| match p.loc {
        Loc::Path => 0,
        Loc::Query => 1,
        Loc::Header => 2,
        Loc::Cookie => 3,
    });
    for (p, raw) in &params {
        let mut s = schemas.convert(&raw.schema, Direction::Request, &mut refs)?;
        if let (Some(d), Some(obj)) = (&raw.description, s.as_object_mut())
            && !obj.contains_key("description")
            && !obj.contains_key("$ref")
        {
            obj.insert("description".into(), Value::String(d.clone()));
        }
        fields.push(Field {
            name: p.name.clone(),
            loc: p.loc.word(),
            schema: s,
            required: p.required,
        });
    }
    // 4. Body.
    let mut body = None;
    if let Some(rb) = op.get("requestBody") {
        let (b, body_fields) = request_body(root, schemas, rb, &mut refs)?;
        fields.extend(body_fields);
        body = Some(b);
    }
    // 5. Security.
    let security = security(root, op)?;

    // The flat input: clashing names become `<location>_<name>`, then `_2`, `_3`...
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for f in &fields {
        *counts.entry(f.name.as_str()).or_default() += 1;
    }
    let mut final_names: Vec<String> = fields
        .iter()
        .map(|f| {
            if counts[f.name.as_str()] > 1 {
                format!("{}_{}", f.loc, f.name)
            } else {
                f.name.clone()
            }
        })
        .collect();
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for n in final_names.iter_mut() {
        if !seen.insert(n.clone()) {
            let mut k = 2;
            while seen.contains(&format!("{n}_{k}")) {
                k += 1;
            }
            *n = format!("{n}_{k}");
            seen.insert(n.clone());
        }
    }
    let mut properties = Map::new();
    let mut required = Vec::new();
    for (f, name) in fields.iter().zip(&final_names) {
        properties.insert(name.clone(), f.schema.clone());
        if f.required {
            required.push(Value::String(name.clone()));
        }
    }
    let mut input = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        input["required"] = Value::Array(required);
    }
    let defs = schemas.closure(refs, Direction::Request)?;
    if !defs.is_empty() {
        input["$defs"] = Value::Object(defs);
    }
    let input = CompiledSchema::compile(&input)
        .map_err(|e| format!("input schema is not valid JSON Schema: {e}"))?;

    let mut it = final_names.into_iter();
    let params: Vec<Param> = params
        .into_iter()
        .map(|(mut p, _)| {
            p.field = it.next().unwrap_or_default();
            p
        })
        .collect();
    if let Some(b) = body.as_mut() {
        match b.fields.as_mut() {
            Some(fs) => {
                for f in fs.iter_mut() {
                    f.0 = it.next().unwrap_or_default();
                }
            }
            None => b.field = it.next().unwrap_or_default(),
        }
    }
    let operation = Operation {
        method: method.to_string(),
        route: path.to_string(),
        base,
        params,
        body,
        security,
        accept,
    };
    Ok((operation, input, output, description))
}

/// The output schema (from the 2xx responses) and the `Accept` header, or the skip reason.
fn output(
    root: &Value,
    schemas: &mut Schemas<'_>,
    op: &Value,
) -> Result<(Option<CompiledSchema>, Option<String>), String> {
    if op.get("x-websocket") == Some(&Value::Bool(true)) {
        return Err("WebSocket operations are not supported".into());
    }
    let Some(responses) = op.get("responses").and_then(Value::as_object) else {
        return Ok((None, None));
    };
    let mut codes: Vec<(&String, &Value)> = responses
        .iter()
        .filter(|(k, _)| {
            let k = k.to_ascii_uppercase();
            k == "2XX"
                || (k.len() == 3 && k.starts_with('2') && k.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    codes.sort_by_key(|(k, _)| k.to_ascii_uppercase());
    let mut outcomes: Vec<Value> = Vec::new();
    let mut schemaless = false;
    let mut accept: Vec<String> = Vec::new();
    let mut refs = Vec::new();
    for (_, resp) in codes {
        let Some((resp, _)) = deref(root, resp).filter(|(r, _)| r.is_object()) else {
            return Err("successful response declaration is invalid or unresolved".into());
        };
        let content = match resp.get("content") {
            None => None,
            Some(Value::Object(c)) if c.is_empty() => None,
            Some(Value::Object(c)) => Some(c),
            Some(_) => {
                return Err("successful response declaration is invalid or unresolved".into());
            }
        };
        let Some(content) = content else {
            push_unique(&mut outcomes, json!({"type": "null"}));
            continue;
        };
        let usable = |m: &String, mt: &Value| {
            mt.get("schema").is_none_or(|s| !schemas.is_binary(s))
                && (media::is_json(m) || media::is_text(m))
        };
        let chosen = content
            .iter()
            .find(|(m, mt)| media::is_json(m) && usable(m, mt))
            .or_else(|| {
                content
                    .iter()
                    .find(|(m, mt)| media::is_text(m) && usable(m, mt))
            });
        let Some((m, mt)) = chosen else {
            if content.keys().any(|m| media::is_sse(m)) {
                return Err("SSE operations are not supported".into());
            }
            return Err("binary responses are not supported".into());
        };
        if !accept.contains(m) {
            accept.push(m.clone());
        }
        if media::is_json(m) {
            match mt.get("schema") {
                Some(s) => {
                    let c = schemas.convert(s, Direction::Response, &mut refs)?;
                    push_unique(&mut outcomes, c);
                }
                None => schemaless = true,
            }
        } else {
            push_unique(&mut outcomes, json!({"type": "string"}));
        }
    }
    let accept = (!accept.is_empty()).then(|| accept.join(", "));
    if schemaless || outcomes.is_empty() {
        return Ok((None, accept));
    }
    let mut out = if outcomes.len() == 1 {
        outcomes.pop().unwrap_or_default()
    } else {
        json!({"anyOf": outcomes})
    };
    let defs = schemas.closure(refs, Direction::Response)?;
    if !defs.is_empty() {
        match out.as_object_mut() {
            Some(o) => {
                o.insert("$defs".into(), Value::Object(defs));
            }
            None => out = json!({"allOf": [out], "$defs": defs}),
        }
    }
    // An output schema that does not compile is dropped (the tool still works, unchecked).
    let out = CompiledSchema::compile(&out).ok();
    Ok((out, accept))
}

fn push_unique(v: &mut Vec<Value>, x: Value) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The base URL from the spec's `servers`: operation, then path item, then document.
fn server(
    root: &Value,
    item: &Value,
    op: &Value,
    spec_url: Option<&str>,
) -> Result<String, String> {
    let entry = [op, item, root]
        .iter()
        .filter_map(|v| v.get("servers").and_then(Value::as_array))
        .find_map(|list| {
            list.iter()
                .find(|s| s.get("url").and_then(Value::as_str).is_some())
        });
    let Some(entry) = entry else {
        // Without `servers` the server is `/` (OpenAPI 3), relative to where the spec was read.
        if let Some(origin) = spec_url
            .and_then(|s| url::Url::parse(s).ok())
            .filter(|u| matches!(u.scheme(), "http" | "https"))
            .and_then(|u| u.join("/").ok())
        {
            return Ok(origin.as_str().trim_end_matches('/').to_string());
        }
        return Err("spec declares no servers; pass baseUrl".into());
    };
    let raw = entry.get("url").and_then(Value::as_str).unwrap_or_default();
    // Server variables take their defaults.
    let mut url = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('{') {
        url.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            return Err(format!(
                "server URL '{raw}' is not an absolute URL; pass baseUrl"
            ));
        };
        let var = &rest[open + 1..open + close];
        match entry
            .pointer(&format!(
                "/variables/{}",
                var.replace('~', "~0").replace('/', "~1")
            ))
            .and_then(|v| v.get("default"))
            .and_then(Value::as_str)
        {
            Some(d) => url.push_str(d),
            None => {
                return Err(format!(
                    "server URL '{raw}' is not an absolute URL; pass baseUrl"
                ));
            }
        }
        rest = &rest[open + close + 1..];
    }
    url.push_str(rest);
    let parsed = match url::Url::parse(&url) {
        Ok(u) => u,
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let Some(base) = spec_url.and_then(|s| url::Url::parse(s).ok()) else {
                return Err(format!("server URL '{raw}' is relative; pass baseUrl"));
            };
            base.join(&url)
                .map_err(|_| format!("server URL '{raw}' is not an absolute URL; pass baseUrl"))?
        }
        Err(_) => {
            return Err(format!(
                "server URL '{raw}' is not an absolute URL; pass baseUrl"
            ));
        }
    };
    if parsed.scheme() != "http" && parsed.scheme() != "https" {
        return Err(format!("server URL '{raw}' is not an absolute HTTP(S) URL"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(format!(
            "server URL '{raw}' contains an unsupported query string or fragment"
        ));
    }
    Ok(parsed.as_str().trim_end_matches('/').to_string())
}

/// What a parameter's field is built from.
struct RawParam {
    schema: Value,
    description: Option<String>,
}

/// The parameters of an operation: path-item ones, overridden by the operation's with the same
/// (location, name); `accept`, `content-type` and `authorization` headers dropped.
fn parameters(root: &Value, item: &Value, op: &Value) -> Result<Vec<(Param, RawParam)>, String> {
    let mut out: Vec<(Param, RawParam)> = Vec::new();
    for list in [item.get("parameters"), op.get("parameters")]
        .into_iter()
        .flatten()
    {
        let Some(list) = list.as_array() else {
            return Err("parameter declaration is invalid or unresolved".into());
        };
        for p in list {
            let Some((p, _)) = deref(root, p).filter(|(p, _)| p.is_object()) else {
                return Err("parameter declaration is invalid or unresolved".into());
            };
            let (Some(name), Some(loc)) = (
                p.get("name").and_then(Value::as_str),
                p.get("in").and_then(Value::as_str),
            ) else {
                return Err("parameter declaration is missing name or location".into());
            };
            let loc = match loc {
                "path" => Loc::Path,
                "query" => Loc::Query,
                "header" => Loc::Header,
                "cookie" => Loc::Cookie,
                other => {
                    return Err(format!(
                        "parameter '{name}' uses unsupported location '{other}'"
                    ));
                }
            };
            if loc == Loc::Header {
                let lower = name.to_ascii_lowercase();
                if lower == "accept" || lower == "content-type" || lower == "authorization" {
                    continue;
                }
                if reqwest::header::HeaderName::from_bytes(name.as_bytes()).is_err() {
                    return Err(format!(
                        "header parameter '{name}' has an invalid header name"
                    ));
                }
            }
            let mut json_content = false;
            let schema = match (p.get("schema"), p.get("content")) {
                (Some(s), _) => s.clone(),
                (None, Some(c)) => {
                    let first = c.as_object().and_then(|c| c.iter().next());
                    match first {
                        Some((m, mt)) if media::is_json(m) => {
                            json_content = true;
                            mt.get("schema").cloned().unwrap_or(json!({}))
                        }
                        _ => {
                            return Err(format!(
                                "parameter '{name}' uses unsupported content encoding"
                            ));
                        }
                    }
                }
                (None, None) => {
                    return Err(format!(
                        "parameter '{name}' declares neither schema nor content"
                    ));
                }
            };
            let style = match p.get("style") {
                None => None,
                Some(Value::String(s)) => Some(s.as_str()),
                Some(_) => return Err(format!("parameter '{name}' has an invalid style")),
            };
            let explode = match p.get("explode") {
                None => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(_) => return Err(format!("parameter '{name}' has an invalid explode value")),
            };
            let allow_reserved = match p.get("allowReserved") {
                None => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => {
                    return Err(format!(
                        "parameter '{name}' has an invalid allowReserved value"
                    ));
                }
            };
            let default_style = match loc {
                Loc::Path | Loc::Header => Style::Simple,
                Loc::Query | Loc::Cookie => Style::Form,
            };
            let style = match style {
                None => default_style,
                Some(s) => {
                    let parsed = Style::parse(s);
                    let ok = matches!(
                        (loc, parsed),
                        (
                            Loc::Path,
                            Some(Style::Simple | Style::Label | Style::Matrix)
                        ) | (
                            Loc::Query,
                            Some(
                                Style::Form
                                    | Style::SpaceDelimited
                                    | Style::PipeDelimited
                                    | Style::DeepObject
                            )
                        ) | (Loc::Header, Some(Style::Simple))
                            | (Loc::Cookie, Some(Style::Form))
                    );
                    match (ok, parsed) {
                        (true, Some(st)) => st,
                        _ => {
                            return Err(format!(
                                "{} parameter '{name}' uses unsupported style '{s}'",
                                loc.word()
                            ));
                        }
                    }
                }
            };
            if style == Style::DeepObject && explode == Some(false) {
                return Err(format!(
                    "query parameter '{name}' uses deepObject with explode=false"
                ));
            }
            let explode = explode.unwrap_or(matches!(style, Style::Form | Style::DeepObject));
            let param = Param {
                field: String::new(),
                name: name.to_string(),
                loc,
                style,
                explode,
                allow_reserved: allow_reserved && loc == Loc::Query,
                required: loc == Loc::Path || p.get("required") == Some(&Value::Bool(true)),
                json: json_content,
            };
            let raw = RawParam {
                schema,
                description: p
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            };
            match out.iter_mut().find(|(q, _)| q.loc == loc && q.name == name) {
                Some(slot) => *slot = (param, raw),
                None => out.push((param, raw)),
            }
        }
    }
    Ok(out)
}

/// The request body: JSON first, then form, then text; flattened when required and a closed
/// object with fixed properties.
fn request_body(
    root: &Value,
    schemas: &mut Schemas<'_>,
    rb: &Value,
    refs: &mut Vec<String>,
) -> Result<(Body, Vec<Field>), String> {
    let Some((rb, _)) = deref(root, rb).filter(|(r, _)| r.is_object()) else {
        return Err("request body declaration is invalid or unresolved".into());
    };
    let required = rb.get("required") == Some(&Value::Bool(true));
    let empty = Map::new();
    let content = rb
        .get("content")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let not_binary = |mt: &Value| mt.get("schema").is_none_or(|s| !schemas.is_binary(s));
    let pick = content
        .iter()
        .find(|(m, mt)| media::is_json(m) && not_binary(mt))
        .map(|(m, mt)| (m, mt, BodyKind::Json))
        .or_else(|| {
            content
                .iter()
                .find(|(m, _)| media::is_form(m))
                .map(|(m, mt)| {
                    let mut enc = HashMap::new();
                    if let Some(e) = mt.get("encoding").and_then(Value::as_object) {
                        for (prop, spec) in e {
                            let style = spec
                                .get("style")
                                .and_then(Value::as_str)
                                .and_then(Style::parse)
                                .unwrap_or(Style::Form);
                            let explode = spec
                                .get("explode")
                                .and_then(Value::as_bool)
                                .unwrap_or(style == Style::Form);
                            enc.insert(prop.clone(), (style, explode));
                        }
                    }
                    (m, mt, BodyKind::Form(enc))
                })
        })
        .or_else(|| {
            content
                .iter()
                .find(|(m, mt)| media::is_text(m) && not_binary(mt))
                .map(|(m, mt)| (m, mt, BodyKind::Text))
        });
    let Some((m, mt, kind)) = pick else {
        let declared = if content.is_empty() {
            "none".to_string()
        } else {
            content.keys().cloned().collect::<Vec<_>>().join(", ")
        };
        return Err(format!(
            "request body has no supported content (declared: {declared})"
        ));
    };
    let media = if media::essence(m).contains('*') {
        "application/json".to_string()
    } else {
        m.clone()
    };
    let raw_schema = mt.get("schema").cloned().unwrap_or(json!({}));
    let flatten = required
        && !matches!(kind, BodyKind::Text)
        && deref(root, &raw_schema).is_some_and(|(s, _)| {
            s.get("type").and_then(Value::as_str) == Some("object")
                && s.get("properties").is_some_and(Value::is_object)
                && s.get("additionalProperties") == Some(&Value::Bool(false))
                && s.get("nullable") != Some(&Value::Bool(true))
                && !["allOf", "anyOf", "oneOf"]
                    .iter()
                    .any(|k| s.get(*k).is_some())
        });
    if flatten {
        let (target, _) = deref(root, &raw_schema).unwrap_or((&raw_schema, None));
        let converted = schemas.convert(target, Direction::Request, refs)?;
        let req: Vec<&str> = converted
            .get("required")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let mut fields = Vec::new();
        let mut pairs = Vec::new();
        if let Some(props) = converted.get("properties").and_then(Value::as_object) {
            for (name, s) in props {
                fields.push(Field {
                    name: name.clone(),
                    loc: "body",
                    schema: s.clone(),
                    required: req.contains(&name.as_str()),
                });
                pairs.push((String::new(), name.clone()));
            }
        }
        let body = Body {
            media,
            kind,
            fields: Some(pairs),
            field: String::new(),
            required,
        };
        return Ok((body, fields));
    }
    let schema = match kind {
        BodyKind::Text => json!({"type": "string"}),
        _ => schemas.convert(&raw_schema, Direction::Request, refs)?,
    };
    let mut schema = schema;
    if let (Some(d), Some(obj)) = (
        rb.get("description").and_then(Value::as_str),
        schema.as_object_mut(),
    ) && !obj.contains_key("description")
        && !obj.contains_key("$ref")
    {
        obj.insert("description".into(), Value::String(d.to_string()));
    }
    let field = Field {
        name: "body".into(),
        loc: "body",
        schema,
        required,
    };
    let body = Body {
        media,
        kind,
        fields: None,
        field: String::new(),
        required,
    };
    Ok((body, vec![field]))
}

/// The security alternatives of an operation (its own `security`, else the document's).
fn security(root: &Value, op: &Value) -> Result<Option<Vec<Vec<Requirement>>>, String> {
    let Some(sec) = op.get("security").or_else(|| root.get("security")) else {
        return Ok(None);
    };
    let Some(list) = sec.as_array() else {
        return Err("security declaration is not an array".into());
    };
    if list.is_empty() {
        return Ok(None);
    }
    let schemes = root
        .pointer("/components/securitySchemes")
        .and_then(Value::as_object);
    let mut alternatives = Vec::new();
    let mut missing: Vec<String> = Vec::new();
    for req in list {
        let Some(req) = req.as_object() else {
            return Err("security requirement is not an object".into());
        };
        let mut alt = Vec::new();
        let mut ok = true;
        for (name, scopes) in req {
            let Some(scopes) = scopes.as_array().and_then(|a| {
                a.iter()
                    .map(|s| s.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
            }) else {
                return Err("security requirement scopes are not string arrays".into());
            };
            let scheme = schemes
                .and_then(|s| s.get(name))
                .and_then(|s| deref(root, s))
                .and_then(|(s, _)| Scheme::parse(s));
            match scheme {
                Some(scheme) => alt.push(Requirement {
                    name: name.clone(),
                    scheme,
                    scopes,
                }),
                None => {
                    ok = false;
                    if !missing.contains(name) {
                        missing.push(name.clone());
                    }
                }
            }
        }
        if ok {
            if alt.is_empty() {
                // `{}`: anonymous access is one alternative.
                alternatives.push(Vec::new());
                continue;
            }
            alternatives.push(alt);
        }
    }
    if alternatives.is_empty() {
        return Err(format!(
            "security requirement references missing or malformed scheme: {}",
            missing.join(", ")
        ));
    }
    if alternatives.iter().any(Vec::is_empty) && alternatives.first().is_some_and(Vec::is_empty) {
        return Ok(None);
    }
    Ok(Some(alternatives))
}
