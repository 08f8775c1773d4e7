//! Sending a request and reading its response: the shared client with a same-origin redirect
//! policy, headers in the seed's order (static, declared, auth), the response cap read in
//! chunks, JSON/text/empty decoding, and failures that name the method, the route and
//! `HTTP <status>` with the start of the body (never a URL, header or credential).

use std::sync::Arc;

use codemode::schema::CompiledSchema;
use codemode::{Tool, ToolError};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;

use crate::auth::{self, Applied};
use crate::limits::{MAX_ERROR_BODY_CHARS, MAX_REDIRECTS};
use crate::media;
use crate::request::prepare;
use crate::spec::{Operation, Runtime};

/// The client of one spec: redirects followed only to the origin of the first request, at most
/// [`MAX_REDIRECTS`]; a redirect elsewhere is returned as the 3xx response it is (reqwest's own
/// policy would carry an `x-api-key` header or a query key to another host).
pub(crate) fn client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            if attempt.previous().len() > MAX_REDIRECTS {
                return attempt.error("too many redirects");
            }
            let same = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if same {
                attempt.follow()
            } else {
                attempt.stop()
            }
        }))
        .build()
        .map_err(|e| format!("cannot set up the HTTP client: {}", e.without_url()))
}

/// The tool of one operation.
pub(crate) fn tool(
    description: String,
    input: CompiledSchema,
    output: Option<CompiledSchema>,
    op: Arc<Operation>,
    rt: Arc<Runtime>,
) -> Tool {
    let tool = Tool::new(description, Value::Bool(true), move |v| {
        let op = Arc::clone(&op);
        let rt = Arc::clone(&rt);
        async move { call(&op, &rt, v).await.map_err(ToolError::new) }
    })
    .with_compiled_input_schema(input);
    match output {
        Some(o) => tool.with_compiled_output_schema(o),
        None => tool,
    }
}

/// The request of `op` for `input`, sent; its decoded response. Validation and auth come
/// first: a call that fails them sends nothing.
pub(crate) async fn call(op: &Operation, rt: &Runtime, input: Value) -> Result<Value, String> {
    let (method, route) = (op.method.as_str(), op.route.as_str());
    let prepared = prepare(op, &input)?;
    let applied = match &op.security {
        None => Applied::default(),
        Some(alts) => auth::apply(alts, rt.auth.as_deref(), method, route)?,
    };
    let mut query = prepared.query;
    for (k, v) in &applied.query {
        query.push(format!(
            "{}={}",
            form_urlencoded::byte_serialize(k.as_bytes()).collect::<String>(),
            form_urlencoded::byte_serialize(v.as_bytes()).collect::<String>()
        ));
    }
    let mut url = prepared.url;
    if !query.is_empty() {
        url.push('?');
        url.push_str(&query.join("&"));
    }
    let url = url::Url::parse(&url)
        .map_err(|_| format!("{method} {route} failed: the request URL is invalid."))?;

    let mut headers = HeaderMap::new();
    let mut put = |name: &str, value: &str| -> Result<(), String> {
        let n = HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("{method} {route} failed: invalid header name '{name}'."))?;
        let v = HeaderValue::from_str(value)
            .map_err(|_| format!("{method} {route} failed: a header value cannot be sent."))?;
        headers.insert(n, v);
        Ok(())
    };
    if let Some(a) = &op.accept {
        put("accept", a)?;
    }
    for (n, v) in &rt.headers {
        put(n, v.expose())?;
    }
    for (n, v) in &prepared.headers {
        put(n, v)?;
    }
    for (n, v) in &applied.headers {
        put(n, v)?;
    }
    let mut token_keys = Vec::new();
    for t in &applied.tokens {
        let operation = format!("{method} {route}");
        let token = crate::oauth::token(rt, t, &op.base, &operation).await?;
        put("authorization", &format!("Bearer {token}"))?;
        token_keys.extend(crate::oauth::key(&op.base, t));
    }
    let mut cookies = prepared.cookies;
    for (k, v) in &applied.cookies {
        cookies.push(format!("{k}={v}"));
    }
    if !cookies.is_empty() {
        put("cookie", &cookies.join("; "))?;
    }
    if let Some((ct, _)) = &prepared.body {
        put("content-type", ct)?;
    }
    let m = reqwest::Method::from_bytes(method.as_bytes())
        .map_err(|_| format!("{method} {route} failed: invalid method."))?;
    let mut req = rt.client.request(m, url).headers(headers);
    if let Some(t) = rt.timeout {
        req = req.timeout(t);
    }
    if let Some((_, bytes)) = prepared.body {
        req = req.body(bytes);
    }
    let mut resp = req
        .send()
        .await
        .map_err(|e| transport(method, route, &e, rt))?;
    let status = resp.status();
    if status == reqwest::StatusCode::UNAUTHORIZED && !token_keys.is_empty() {
        // The token was refused (revoked, expired early): the next call fetches a new one.
        crate::oauth::forget(rt, &token_keys).await;
    }
    let content_type = resp
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let cap = rt.max_response_bytes;
    let too_big = || format!("{method} {route} response exceeds {}.", size(cap));
    if resp.content_length().is_some_and(|n| n > cap) {
        return Err(too_big());
    }
    let mut body: Vec<u8> = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(chunk)) => {
                if body.len() as u64 + chunk.len() as u64 > cap {
                    return Err(too_big());
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => break,
            Err(e) if e.is_timeout() => return Err(transport(method, route, &e, rt)),
            Err(_) => {
                return Err(format!(
                    "{method} {route} failed while reading the response body."
                ));
            }
        }
    }
    let is_json = content_type.as_deref().is_some_and(media::is_json);
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        let text = text.trim();
        let summary = if text.is_empty() {
            "no response body".to_string()
        } else {
            let rendered = match serde_json::from_str::<Value>(text) {
                Ok(v) if is_json => v.to_string(),
                _ => text.to_string(),
            };
            clip(&rendered)
        };
        let mut msg = format!(
            "{method} {route} failed with HTTP {}: {summary}",
            status.as_u16()
        );
        if status.is_redirection() {
            msg.push_str(" (a redirect to another origin is not followed)");
        }
        return Err(msg);
    }
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    if is_json {
        return serde_json::from_slice(&body)
            .map_err(|_| format!("{method} {route} returned malformed JSON."));
    }
    String::from_utf8(body)
        .map(Value::String)
        .map_err(|_| format!("{method} {route} returned a body that is not UTF-8 text."))
}

/// The first [`MAX_ERROR_BODY_CHARS`] characters, then `...`.
fn clip(s: &str) -> String {
    match s.char_indices().nth(MAX_ERROR_BODY_CHARS) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// `50 MiB`, `1 KiB`, or `1000 bytes`.
fn size(n: u64) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// A transport failure, without the URL (which may carry a query key).
fn transport(method: &str, route: &str, e: &reqwest::Error, rt: &Runtime) -> String {
    if e.is_timeout() {
        match rt.timeout {
            Some(t) => format!(
                "{method} {route} failed: no response within {} ms.",
                t.as_millis()
            ),
            None => format!("{method} {route} failed: the request timed out."),
        }
    } else if e.is_connect() {
        format!("{method} {route} failed: could not connect to the server.")
    } else if e.is_redirect() {
        format!("{method} {route} failed: more than {MAX_REDIRECTS} redirects.")
    } else {
        format!("{method} {route} failed: transport error")
    }
}
