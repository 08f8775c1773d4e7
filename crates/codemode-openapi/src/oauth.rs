//! OAuth2 client credentials (RFC 6749 §4.4): a token fetched from the scheme's `tokenUrl`
//! (relative URLs resolve against the operation's server URL), with HTTP Basic client
//! authentication and the requirement's scopes, cached per (token URL, client, scopes) until
//! shortly before `expires_in` runs out, and dropped when the API answers 401. Neither the
//! secret nor the token ever appears in a message.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use base64::Engine;
use serde_json::Value;

use crate::auth::TokenRequest;
use crate::limits::{MAX_ERROR_BODY_CHARS, MAX_TOKEN_RESPONSE_BYTES};
use crate::spec::Runtime;

/// A token and when it stops being used.
#[derive(Debug)]
pub(crate) struct Cached {
    token: String,
    until: Option<Instant>,
}

/// The cache of one spec's tools.
pub(crate) type Tokens = tokio::sync::Mutex<HashMap<Key, Cached>>;

/// (token URL resolved, client id, scopes joined by spaces).
pub(crate) type Key = (String, String, String);

/// The token endpoint's URL: `url` as written, resolved against the server URL `base` (taken
/// as a directory: `https://h/v1` + `token` → `https://h/v1/token`).
fn token_url(base: &str, url: &str) -> Result<url::Url, String> {
    let base = url::Url::parse(&format!("{base}/")).map_err(|_| "the server URL is invalid")?;
    let u = base
        .join(url)
        .map_err(|_| format!("its tokenUrl '{url}' is not a URL"))?;
    if u.scheme() != "http" && u.scheme() != "https" {
        return Err(format!("its tokenUrl '{url}' is not an HTTP(S) URL"));
    }
    Ok(u)
}

/// The key under which the token of `t` for an operation at `base` is cached.
pub(crate) fn key(base: &str, t: &TokenRequest) -> Option<Key> {
    let u = token_url(base, &t.url).ok()?;
    Some((u.to_string(), t.client_id.clone(), t.scopes.join(" ")))
}

/// A token for `t`: the cached one while it lasts, else a new one from the token endpoint.
/// Errors name the operation and the scheme, never the secret or a token.
pub(crate) async fn token(
    rt: &Runtime,
    t: &TokenRequest,
    base: &str,
    operation: &str,
) -> Result<String, String> {
    let fail = |why: String| {
        format!(
            "{operation} failed: the OAuth2 token request of security scheme '{}' failed: {why}",
            t.scheme
        )
    };
    let url = token_url(base, &t.url).map_err(|e| fail(e.to_string()))?;
    let key = (url.to_string(), t.client_id.clone(), t.scopes.join(" "));
    // Held across the fetch: concurrent calls wait for one token instead of each fetching one.
    let mut cache = rt.tokens.lock().await;
    if let Some(c) = cache.get(&key)
        && c.until.is_none_or(|u| Instant::now() < u)
    {
        return Ok(c.token.clone());
    }
    let enc = |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
    let basic = base64::engine::general_purpose::STANDARD.encode(format!(
        "{}:{}",
        enc(&t.client_id),
        enc(t.client_secret.expose())
    ));
    let mut body = String::from("grant_type=client_credentials");
    if !t.scopes.is_empty() {
        body.push_str("&scope=");
        body.push_str(&enc(&t.scopes.join(" ")));
    }
    let mut req = rt
        .client
        .post(url)
        .header("authorization", format!("Basic {basic}"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(body);
    if let Some(d) = rt.timeout {
        req = req.timeout(d);
    }
    let mut resp = req.send().await.map_err(|e| {
        fail(if e.is_timeout() {
            "no response in time.".into()
        } else {
            "could not connect to the token endpoint.".into()
        })
    })?;
    let status = resp.status();
    let mut bytes = Vec::new();
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|_| fail("the connection failed while reading the response.".into()))?
    {
        if bytes.len() + chunk.len() > MAX_TOKEN_RESPONSE_BYTES {
            return Err(fail(format!(
                "the response is larger than {MAX_TOKEN_RESPONSE_BYTES} bytes."
            )));
        }
        bytes.extend_from_slice(&chunk);
    }
    let text = String::from_utf8_lossy(&bytes);
    if !status.is_success() {
        // The start of the body (an RFC 6749 error object, say), never the secret.
        let mut start: String = text.trim().chars().take(MAX_ERROR_BODY_CHARS).collect();
        let secret = t.client_secret.expose();
        if !secret.is_empty() {
            start = start.replace(secret, "<redacted>");
        }
        return Err(fail(format!(
            "HTTP {}: {}",
            status.as_u16(),
            if start.is_empty() {
                "no response body".into()
            } else {
                start
            }
        )));
    }
    let v: Value =
        serde_json::from_str(&text).map_err(|_| fail("the response is not JSON.".into()))?;
    let Some(token) = v
        .get("access_token")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
    else {
        return Err(fail("the response has no access_token.".into()));
    };
    if let Some(kind) = v.get("token_type").and_then(Value::as_str)
        && !kind.eq_ignore_ascii_case("bearer")
    {
        return Err(fail(format!(
            "the token type is '{kind}'; only bearer tokens can be sent."
        )));
    }
    if reqwest::header::HeaderValue::from_str(&format!("Bearer {token}")).is_err() {
        return Err(fail("the token cannot be sent in a header.".into()));
    }
    // Used until 30 s before it expires (half its life when that is a minute or less).
    let until = v.get("expires_in").and_then(Value::as_f64).map(|e| {
        let e = e.clamp(0.0, 1e9);
        let life = if e > 60.0 { e - 30.0 } else { e / 2.0 };
        Instant::now() + Duration::from_secs_f64(life)
    });
    cache.insert(
        key,
        Cached {
            token: token.to_string(),
            until,
        },
    );
    Ok(token.to_string())
}

/// Forget the cached tokens under `keys` (the API refused one: 401).
pub(crate) async fn forget(rt: &Runtime, keys: &[Key]) {
    let mut cache = rt.tokens.lock().await;
    for k in keys {
        cache.remove(k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_urls_resolve_against_the_server_as_a_directory() {
        let u = |b, t| token_url(b, t).map(|u| u.to_string());
        assert_eq!(u("http://h:1", "token").unwrap(), "http://h:1/token");
        assert_eq!(u("https://h/v1", "token").unwrap(), "https://h/v1/token");
        assert_eq!(
            u("https://h/v1", "/oauth/token").unwrap(),
            "https://h/oauth/token"
        );
        assert_eq!(
            u("https://h/v1", "https://auth.example.com/t").unwrap(),
            "https://auth.example.com/t"
        );
        assert_eq!(
            u("https://h", "ftp://x/t").unwrap_err(),
            "its tokenUrl 'ftp://x/t' is not an HTTP(S) URL"
        );
    }
}
