//! Requests on the wire, against a loopback stub that records the raw request: encoding of
//! every parameter style, bodies, auth carriers, responses, failures, redirects, the cap.

mod common;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use codemode::{CodeMode, DiagnosticKind};
use codemode_openapi::{Credential, Document, Options, Secret, StaticAuth, from_spec};
use common::{Reply, json_reply, stub};
use serde_json::{Value, json};

fn runtime(spec: Value, options: Options) -> CodeMode {
    let built = from_spec(&Document::from_value(spec).unwrap(), options).unwrap();
    assert!(built.skipped.is_empty(), "{:?}", built.skipped);
    CodeMode::builder()
        .namespace("api", built.namespace)
        .build()
        .unwrap()
}

fn spec(servers: &str, paths: Value) -> Value {
    json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "servers": [{"url": servers}], "paths": paths,
           "components": {"securitySchemes": {
               "bearer": {"type": "http", "scheme": "bearer"},
               "basic": {"type": "http", "scheme": "Basic"},
               "hkey": {"type": "apiKey", "in": "header", "name": "X-Api-Key"},
               "qkey": {"type": "apiKey", "in": "query", "name": "api_key"},
               "ckey": {"type": "apiKey", "in": "cookie", "name": "session"}}}})
}

fn ok_json() -> Value {
    json!({"200": {"description": "", "content": {"application/json": {"schema": {}}}}})
}

fn echo(r: &common::Raw) -> Reply {
    json_reply(200, &json!({"target": r.target}).to_string())
}

#[tokio::test]
async fn parameters_on_the_wire() {
    let s = stub(echo).await;
    let cm = runtime(
        spec(
            &format!("{}/base/", s.base),
            json!({
                "/items/{ids}/{label}/{matrix}": {"patch": {"operationId": "items",
                    "parameters": [
                        {"name": "ids", "in": "path", "schema": {"type": "array", "items": {"type": "string"}}},
                        {"name": "label", "in": "path", "style": "label", "explode": true, "schema": {"type": "array"}},
                        {"name": "matrix", "in": "path", "style": "matrix", "schema": {"type": "object"}},
                        {"name": "q", "in": "query", "schema": {"type": "string"}},
                        {"name": "tags", "in": "query", "schema": {"type": "array"}},
                        {"name": "csv", "in": "query", "explode": false, "schema": {"type": "array"}},
                        {"name": "sp", "in": "query", "style": "spaceDelimited", "schema": {"type": "array"}},
                        {"name": "pi", "in": "query", "style": "pipeDelimited", "schema": {"type": "array"}},
                        {"name": "filter", "in": "query", "style": "deepObject", "explode": true, "schema": {"type": "object"}},
                        {"name": "raw", "in": "query", "allowReserved": true, "schema": {"type": "string"}},
                        {"name": "n", "in": "query", "schema": {"type": "number"}},
                        {"name": "j", "in": "query", "content": {"application/json": {"schema": {"type": "object"}}}},
                        {"name": "x-trace", "in": "header", "schema": {"type": "array"}},
                        {"name": "sid", "in": "cookie", "schema": {"type": "string"}},
                        {"name": "pref", "in": "cookie", "schema": {"type": "string"}}],
                    "requestBody": {"content": {"application/merge-patch+json": {"schema": {"type": "object"}}}},
                    "responses": ok_json()}}
            }),
        ),
        Options::default(),
    );
    let out = cm
        .call_tool("api.items", json!({
            "ids": ["a!", "b*"], "label": ["x", "y"], "matrix": {"r": "1", "g": "2"},
            "q": "a b&c", "tags": ["t1", "t2"], "csv": ["a", "b"], "sp": ["a", "b"], "pi": ["a", "b"],
            "filter": {"name": "x", "range": {"min": 1}}, "raw": "/a:b?c", "n": 2.0,
            "j": {"k": 1}, "x-trace": ["1", "2"], "sid": "a b", "pref": "dark",
            "body": {"name": "new"}}))
        .await
        .unwrap();
    let want = "/base/items/a%21,b%2A/.x.y/;matrix=r,1,g,2?q=a+b%26c&tags=t1&tags=t2&csv=a,b&sp=a%20b&pi=a|b\
                &filter[name]=x&filter[range][min]=1&raw=/a:b?c&n=2&j=%7B%22k%22%3A1%7D";
    let got = out["target"].as_str().unwrap();
    // The stub sees the target as sent; square brackets may be sent encoded.
    assert_eq!(got.replace("%5B", "[").replace("%5D", "]"), want);
    let r = &s.taken()[0];
    assert_eq!(r.method, "PATCH");
    assert_eq!(r.header("x-trace"), Some("1,2"));
    assert_eq!(r.header("cookie"), Some("sid=a%20b; pref=dark"));
    assert_eq!(
        r.header("content-type"),
        Some("application/merge-patch+json")
    );
    assert_eq!(r.header("accept"), Some("application/json"));
    assert_eq!(r.body_text(), r#"{"name":"new"}"#);
}

#[tokio::test]
async fn bodies_form_text_and_flattened() {
    let s = stub(echo).await;
    let cm = runtime(
        spec(
            &s.base,
            json!({
                "/form": {"post": {"operationId": "form",
                    "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {
                        "schema": {"type": "object", "additionalProperties": false, "properties": {
                            "amount": {"type": "integer"}, "metadata": {"type": "object"}, "items": {"type": "array"},
                            "expand": {"type": "array"}, "note": {"type": ["string", "null"]}}},
                        "encoding": {"metadata": {"style": "deepObject", "explode": true}, "items": {"style": "deepObject", "explode": true}}}}},
                    "responses": ok_json()}},
                "/text": {"put": {"operationId": "text", "requestBody": {"content": {"text/plain": {}}}, "responses": ok_json()}},
                "/flat": {"post": {"operationId": "flat",
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "additionalProperties": false,
                        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}}}},
                    "responses": ok_json()}}
            }),
        ),
        Options::default(),
    );
    cm.call_tool(
        "api.form",
        json!({"amount": 100, "metadata": {"order": "o 1"}, "items": [{"price": "p_1", "qty": 2}],
                                     "expand": ["a", "b"], "note": null}),
    )
    .await
    .unwrap();
    cm.call_tool("api.text", json!({"body": "hello"}))
        .await
        .unwrap();
    cm.call_tool("api.flat", json!({"a": "x"})).await.unwrap();
    let reqs = s.taken();
    assert_eq!(
        reqs[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        reqs[0].body_text(),
        "amount=100&metadata%5Border%5D=o+1&items%5B0%5D%5Bprice%5D=p_1&items%5B0%5D%5Bqty%5D=2&expand=a&expand=b&note="
    );
    assert_eq!(reqs[1].header("content-type"), Some("text/plain"));
    assert_eq!(reqs[1].body_text(), "hello");
    assert_eq!(reqs[2].body_text(), r#"{"a":"x"}"#);
}

#[tokio::test]
async fn validation_comes_before_auth_and_network() {
    let s = stub(echo).await;
    let cm = runtime(
        spec(
            &s.base,
            json!({"/items/{id}": {"get": {"operationId": "get", "security": [{"bearer": []}],
            "parameters": [{"name": "id", "in": "path", "schema": {"type": "string"}}], "responses": ok_json()}}}),
        ),
        Options::default(),
    );
    for (id, msg) in [
        ("..", "Invalid path parameter 'id'."),
        ("", "Invalid path parameter 'id'."),
    ] {
        let d = cm
            .call_tool("api.get", json!({"id": id}))
            .await
            .unwrap_err();
        assert_eq!(d.message, msg);
    }
    let d = cm.call_tool("api.get", json!({})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::InvalidToolInput);
    let d = cm
        .call_tool("api.get", json!({"id": "7"}))
        .await
        .unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::ToolFailure);
    assert_eq!(
        d.message,
        "GET /items/{id} requires authentication; no credential available for: bearer."
    );
    assert!(s.taken().is_empty());
}

#[tokio::test]
async fn auth_carriers_alternatives_and_no_leaks() {
    let s = stub(echo).await;
    let p = |id: &str, sec: Value| json!({"get": {"operationId": id, "security": sec, "responses": ok_json()}});
    let mut creds = HashMap::new();
    creds.insert(
        "bearer".to_string(),
        Credential::Bearer(Secret::new("tok-SECRET")),
    );
    creds.insert(
        "basic".to_string(),
        Credential::Basic {
            user: "ü".into(),
            password: Secret::new("pw-SECRET"),
        },
    );
    creds.insert(
        "hkey".to_string(),
        Credential::ApiKey(Secret::new("h-SECRET")),
    );
    creds.insert(
        "qkey".to_string(),
        Credential::ApiKey(Secret::new("q SECRET")),
    );
    creds.insert(
        "ckey".to_string(),
        Credential::ApiKey(Secret::new("c-SECRET")),
    );
    let cm = runtime(
        spec(
            &s.base,
            json!({
                "/bearer": p("bearer", json!([{"bearer": []}])),
                "/basic": p("basic", json!([{"basic": []}])),
                "/keys": p("keys", json!([{"hkey": [], "qkey": [], "ckey": []}])),
                "/alt": p("alt", json!([{"missing_cred": []}, {"bearer": []}])),
                "/anon": p("anon", json!([{"oauth": ["read"]}, {}]))
            }),
        )
        .as_object()
        .cloned()
        .map(|mut d| {
            d["components"]["securitySchemes"]["missing_cred"] =
                json!({"type": "http", "scheme": "bearer"});
            d["components"]["securitySchemes"]["oauth"] = json!({"type": "oauth2", "flows": {}});
            Value::Object(d)
        })
        .unwrap(),
        Options {
            auth: Some(Arc::new(StaticAuth(creds))),
            headers: vec![
                ("x-static".into(), Secret::new("static-SECRET")),
                ("authorization".into(), Secret::new("loses")),
            ],
            ..Options::default()
        },
    );
    let program = r#"
        local out = {}
        for _, name in ipairs({"bearer", "basic", "keys", "alt", "anon"}) do
          -- (the stub echoes the target, key included: keep only its path)
          out[#out + 1] = string.match(tools.api[name]({}).target, "^[^?]*")
        end
        return out
    "#;
    let result = cm.execute(program).await;
    let text = result.to_json_string();
    assert!(result.is_ok(), "{text}");
    assert!(!text.contains("SECRET"), "{text}");
    let r = s.taken();
    assert_eq!(r[0].header("authorization"), Some("Bearer tok-SECRET"));
    assert_eq!(r[0].header("x-static"), Some("static-SECRET"));
    assert_eq!(r[1].header("authorization"), Some("Basic w7w6cHctU0VDUkVU"));
    assert_eq!(r[2].header("x-api-key"), Some("h-SECRET"));
    assert_eq!(r[2].target, "/keys?api_key=q+SECRET");
    assert_eq!(r[2].header("cookie"), Some("session=c-SECRET"));
    assert_eq!(r[2].header("authorization"), Some("loses"));
    assert_eq!(r[3].header("authorization"), Some("Bearer tok-SECRET"));
    assert_eq!(r[4].header("authorization"), Some("loses"));
}

#[tokio::test]
async fn responses_and_failures() {
    let s = stub(|r| match r.target.as_str() {
        "/empty" => (204, vec![], vec![]),
        "/text" => (
            200,
            vec![("content-type".into(), "text/plain; charset=utf-8".into())],
            b"plain words".to_vec(),
        ),
        "/missing" => json_reply(
            404,
            &format!(
                r#"{{"message":"Not Found","detail":"{}"}}"#,
                "x".repeat(2000)
            ),
        ),
        "/bad" => json_reply(200, "{not json"),
        "/big" => json_reply(200, &format!("\"{}\"", "y".repeat(5000))),
        _ => json_reply(200, "null"),
    })
    .await;
    let get = |id: &str| {
        json!({"get": {"operationId": id, "responses": {
        "200": {"description": "", "content": {"application/json": {}, "text/plain": {}}}, "204": {"description": ""}}}})
    };
    let cm = runtime(
        spec(
            &s.base,
            json!({"/empty": get("empty"), "/text": get("text"), "/missing": get("missing"), "/bad": get("bad"), "/big": get("big")}),
        ),
        Options {
            max_response_bytes: 4096,
            ..Options::default()
        },
    );
    assert_eq!(
        cm.call_tool("api.empty", json!({})).await.unwrap(),
        Value::Null
    );
    assert_eq!(
        cm.call_tool("api.text", json!({})).await.unwrap(),
        json!("plain words")
    );
    let d = cm.call_tool("api.missing", json!({})).await.unwrap_err();
    assert_eq!(d.kind, DiagnosticKind::ToolFailure);
    assert!(
        d.message.starts_with(
            r#"GET /missing failed with HTTP 404: {"message":"Not Found","detail":"xxx"#
        ),
        "{}",
        d.message
    );
    assert!(d.message.ends_with("xxx..."), "{}", d.message);
    assert_eq!(
        d.message.chars().count(),
        "GET /missing failed with HTTP 404: ".len() + 1024 + 3
    );
    let d = cm.call_tool("api.bad", json!({})).await.unwrap_err();
    assert_eq!(d.message, "GET /bad returned malformed JSON.");
    let d = cm.call_tool("api.big", json!({})).await.unwrap_err();
    assert_eq!(d.message, "GET /big response exceeds 4 KiB.");
}

#[tokio::test]
async fn redirects_stay_on_the_origin() {
    let other = stub(echo).await;
    let target = format!("{}/stolen", other.base);
    let s = stub(move |r| match r.target.as_str() {
        "/same" => (302, vec![("location".into(), "/landed".into())], vec![]),
        "/away" => (
            302,
            vec![("location".into(), target.clone())],
            b"moved".to_vec(),
        ),
        _ => echo(r),
    })
    .await;
    let get = |id: &str| json!({"get": {"operationId": id, "security": [{"hkey": []}], "responses": ok_json()}});
    let mut creds = HashMap::new();
    creds.insert("hkey".to_string(), Credential::ApiKey(Secret::new("k")));
    let cm = runtime(
        spec(&s.base, json!({"/same": get("same"), "/away": get("away")})),
        Options {
            auth: Some(Arc::new(StaticAuth(creds))),
            ..Options::default()
        },
    );
    assert_eq!(
        cm.call_tool("api.same", json!({})).await.unwrap(),
        json!({"target": "/landed"})
    );
    let d = cm.call_tool("api.away", json!({})).await.unwrap_err();
    assert_eq!(
        d.message,
        "GET /away failed with HTTP 302: moved (a redirect to another origin is not followed)"
    );
    assert!(other.taken().is_empty());
}

#[tokio::test]
async fn transport_failures_and_timeout() {
    let s = stub(|r| {
        if r.target == "/slow" {
            std::thread::sleep(Duration::from_millis(800));
        }
        echo(r)
    })
    .await;
    let cm = runtime(
        spec(
            &s.base,
            json!({"/slow": {"get": {"operationId": "slow", "responses": ok_json()}}}),
        ),
        Options {
            timeout: Some(Duration::from_millis(100)),
            ..Options::default()
        },
    );
    let d = cm.call_tool("api.slow", json!({})).await.unwrap_err();
    assert_eq!(d.message, "GET /slow failed: no response within 100 ms.");
    // Nothing listens on port 9 of loopback.
    let cm = runtime(
        spec(
            "http://127.0.0.1:9",
            json!({"/x": {"get": {"operationId": "x", "parameters": [{"name": "k", "in": "query", "schema": {}}], "responses": ok_json()}}}),
        ),
        Options::default(),
    );
    let d = cm
        .call_tool("api.x", json!({"k": "SECRET"}))
        .await
        .unwrap_err();
    assert_eq!(d.message, "GET /x failed: could not connect to the server.");
}

#[tokio::test]
async fn base_url_overrides_servers() {
    let s = stub(echo).await;
    let cm = runtime(
        spec(
            "https://unused.example.com",
            json!({"/x": {"get": {"operationId": "x", "responses": ok_json()}}}),
        ),
        Options {
            base_url: Some(format!("{}/v2/", s.base)),
            ..Options::default()
        },
    );
    assert_eq!(
        cm.call_tool("api.x", json!({})).await.unwrap(),
        json!({"target": "/v2/x"})
    );
}

#[tokio::test]
async fn redirects_stop_after_max_redirects() {
    let s = stub(|_| (302, vec![("location".into(), "/loop".into())], vec![])).await;
    let cm = runtime(
        spec(
            &s.base,
            json!({"/loop": {"get": {"operationId": "l", "responses": ok_json()}}}),
        ),
        Options::default(),
    );
    let d = cm.call_tool("api.l", json!({})).await.unwrap_err();
    assert_eq!(d.message, "GET /loop failed: more than 10 redirects.");
    assert_eq!(s.taken().len(), codemode_openapi::limits::MAX_REDIRECTS + 1);
}

#[tokio::test]
async fn deep_objects_nest_at_most_max_deep_object_depth() {
    let s = stub(echo).await;
    let cm = runtime(
        spec(
            &s.base,
            json!({"/d": {"get": {"operationId": "d",
            "parameters": [{"name": "f", "in": "query", "style": "deepObject", "schema": {"type": "object"}}],
            "responses": ok_json()}}}),
        ),
        Options::default(),
    );
    let nest = |n: usize| (0..n).fold(json!("x"), |v, _| json!({"k": v}));
    let depth = codemode_openapi::limits::MAX_DEEP_OBJECT_DEPTH;
    let out = cm
        .call_tool("api.d", json!({"f": nest(depth)}))
        .await
        .unwrap();
    assert_eq!(
        out["target"].as_str().unwrap().matches("%5Bk%5D").count(),
        depth
    );
    let d = cm
        .call_tool("api.d", json!({"f": nest(depth + 1)}))
        .await
        .unwrap_err();
    assert_eq!(
        d.message,
        "Deep-object parameter 'f' nests deeper than 32 levels."
    );
    assert_eq!(s.taken().len(), 1);
}

#[tokio::test]
async fn oauth2_client_credentials_expiry_refusal_and_bound() {
    use codemode_openapi::limits::MAX_TOKEN_RESPONSE_BYTES;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let issued = Arc::new(AtomicUsize::new(0));
    let n = Arc::clone(&issued);
    let s = stub(move |r| {
        let path = r.target.split('?').next().unwrap_or_default();
        match path {
            // expires_in 0: used once, then fetched again.
            "/t/short" => {
                let i = n.fetch_add(1, Ordering::SeqCst) + 1;
                json_reply(200, &json!({"access_token": format!("s-{i}"), "token_type": "bearer", "expires_in": 0}).to_string())
            }
            // No expires_in: kept until the API refuses it.
            "/t/long" => {
                let i = n.fetch_add(1, Ordering::SeqCst) + 1;
                json_reply(200, &json!({"access_token": format!("l-{i}")}).to_string())
            }
            "/t/big" => json_reply(200, &format!("\"{}\"", "x".repeat(MAX_TOKEN_RESPONSE_BYTES))),
            "/t/mac" => json_reply(200, r#"{"access_token": "m", "token_type": "mac"}"#),
            // The API refuses the first long-lived token.
            _ if r.header("authorization") == Some("Bearer l-3") => {
                json_reply(401, r#"{"error": "token revoked"}"#)
            }
            _ => json_reply(200, &json!({"auth": r.header("authorization")}).to_string()),
        }
    })
    .await;
    let flow = |url: &str| json!({"type": "oauth2", "flows": {"clientCredentials": {"tokenUrl": url, "scopes": {}}}});
    let mut d = spec(
        &s.base,
        json!({
            "/short": {"get": {"operationId": "short", "security": [{"short": ["read", "write"]}], "responses": ok_json()}},
            "/long": {"get": {"operationId": "long", "security": [{"long": []}], "responses": ok_json()}},
            "/big": {"get": {"operationId": "big", "security": [{"big": []}], "responses": ok_json()}},
            "/mac": {"get": {"operationId": "mac", "security": [{"mac": []}], "responses": ok_json()}}
        }),
    );
    let schemes = &mut d["components"]["securitySchemes"];
    for name in ["short", "long", "big", "mac"] {
        schemes[name] = flow(&format!("/t/{name}"));
    }
    let cc = Credential::ClientCredentials {
        client_id: "app:1".into(),
        client_secret: Secret::new("s&SECRET"),
    };
    let creds: HashMap<String, Credential> = ["short", "long", "big", "mac"]
        .iter()
        .map(|n| (n.to_string(), cc.clone()))
        .collect();
    let cm = runtime(
        d,
        Options {
            auth: Some(Arc::new(StaticAuth(creds))),
            ..Options::default()
        },
    );
    let call = |name: &'static str| {
        let cm = &cm;
        async move { cm.call_tool(&format!("api.{name}"), json!({})).await }
    };
    assert_eq!(call("short").await.unwrap(), json!({"auth": "Bearer s-1"}));
    assert_eq!(call("short").await.unwrap(), json!({"auth": "Bearer s-2"}));
    let r = s.taken();
    // RFC 6749 2.3.1: id and secret form-encoded inside HTTP Basic; the scopes space-separated.
    assert_eq!(r[0].method, "POST");
    assert_eq!(r[0].target, "/t/short");
    assert_eq!(
        r[0].header("authorization"),
        Some("Basic YXBwJTNBMTpzJTI2U0VDUkVU")
    );
    assert_eq!(
        r[0].header("content-type"),
        Some("application/x-www-form-urlencoded")
    );
    assert_eq!(
        r[0].body_text(),
        "grant_type=client_credentials&scope=read+write"
    );
    // Refused by the API (401): the token is forgotten, so the next call fetches a new one.
    let e = call("long").await.unwrap_err();
    assert_eq!(
        e.message,
        r#"GET /long failed with HTTP 401: {"error":"token revoked"}"#
    );
    assert_eq!(call("long").await.unwrap(), json!({"auth": "Bearer l-4"}));
    assert_eq!(call("long").await.unwrap(), json!({"auth": "Bearer l-4"}));
    assert_eq!(issued.load(Ordering::SeqCst), 4);
    let e = call("big").await.unwrap_err();
    assert_eq!(
        e.message,
        "GET /big failed: the OAuth2 token request of security scheme 'big' failed: the response is larger than 65536 bytes."
    );
    let e = call("mac").await.unwrap_err();
    assert_eq!(
        e.message,
        "GET /mac failed: the OAuth2 token request of security scheme 'mac' failed: the token type is 'mac'; only bearer tokens can be sent."
    );
}
