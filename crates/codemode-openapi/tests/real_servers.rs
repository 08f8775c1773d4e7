//! End to end against real servers on loopback (installed by tests/setup.sh, which .ci/run
//! calls; see `common/servers.rs`): the FastAPI app of `tests/servers/app.py`, loaded from its
//! own `/openapi.json` (no `servers`: the tools call the origin the spec came from), called by a
//! Lua program through `CodeMode`; and httpbin's `/anything`, which echoes each request, as the
//! oracle of the wire format of every parameter style and body.

mod common;

use std::collections::HashMap;
use std::sync::Arc;

use codemode::CodeMode;
use codemode_openapi::{Credential, Document, Options, Secret, StaticAuth, from_spec, read};
use common::servers;
use serde_json::{Value, json};

/// The FastAPI app's tools from its own spec, with `creds`.
fn fastapi_built(base: &str, creds: HashMap<String, Credential>) -> codemode_openapi::Built {
    let loaded = read(&format!("{base}/openapi.json")).unwrap();
    from_spec(
        &loaded.document,
        Options {
            spec_url: loaded.spec_url,
            auth: Some(Arc::new(StaticAuth(creds))),
            ..Options::default()
        },
    )
    .unwrap()
}

/// A runtime with `built` as the namespace `api`.
fn api(built: codemode_openapi::Built) -> CodeMode {
    CodeMode::builder()
        .namespace("api", built.namespace)
        .build()
        .unwrap()
}

/// The FastAPI app's tools, with credentials for its four schemes.
fn fastapi_runtime(base: &str) -> CodeMode {
    let creds = HashMap::from([
        (
            "HTTPBearer".to_string(),
            Credential::Bearer(Secret::new("tok-123")),
        ),
        (
            "HTTPBasic".to_string(),
            Credential::Basic {
                user: "ann".into(),
                password: Secret::new("pw-456"),
            },
        ),
        (
            "APIKeyHeader".to_string(),
            Credential::ApiKey(Secret::new("key-789")),
        ),
        (
            "OAuth2".to_string(),
            Credential::ClientCredentials {
                client_id: "app-1".into(),
                client_secret: Secret::new("cc-s3cret"),
            },
        ),
    ]);
    let built = fastapi_built(base, creds);
    // FastAPI's UploadFile: a multipart-only body (3.1, `contentMediaType`), skipped.
    assert_eq!(
        format!("{:?}", built.skipped),
        r#"[Skipped { method: "POST", path: "/upload", reason: "request body has no supported content (declared: multipart/form-data)" }]"#
    );
    assert_eq!(built.tools.len(), 12, "{:?}", built.tools);
    api(built)
}

#[tokio::test]
async fn fastapi_app_end_to_end_from_its_own_spec() {
    let Some(server) = servers::fastapi("fastapi_app_end_to_end_from_its_own_spec") else {
        return;
    };
    let cm = fastapi_runtime(&server.base);
    let program = r#"
        local got = tools.api.items.get({ item_id = 1, q = "a b&c", limit = 3,
                                          ["x-trace"] = "t-1", session = "s-1" })
        local created = tools.api.items.create({ body = { name = "desk", price = 99.5, tags = { "office" } } })
        local listed = tools.api.items.list({ tag = "office" })
        local deleted = tools.api.items.delete({ item_id = created.id })
        local after = tools.api.items.list({ tag = "office" })
        local login = tools.api.forms.login({ body = { username = "ann", password = "secret" } })
        local hello = tools.api.text.hello({ name = "lua" })
        local ok, err = pcall(tools.api.errors.status, { code = 418 })
        local missing_ok, missing = pcall(tools.api.items.get, { item_id = 99 })
        return {
          got = got, created = created, listed = #listed, deleted = deleted == nil,
          after = #after, login = login, hello = hello, teapot = err, missing = missing,
          bearer = tools.api.auth.bearer({}).ok, basic = tools.api.auth.basic({}).user,
          key = tools.api.auth.key({}).ok,
          moved = tools.api.redirect.old({ item_id = 1 }).item.name,
          oauth = { tools.api.auth.oauth({}).token, tools.api.auth.oauth({}).token },
        }
    "#;
    let r = cm.execute(program).await;
    let v = r
        .value()
        .unwrap_or_else(|| panic!("{}", r.to_json_string()))
        .clone();
    assert_eq!(
        v["got"],
        json!({"item": {"id": 1, "name": "lamp", "price": 12.5, "tags": ["home"]},
               "q": "a b&c", "limit": 3, "trace": "t-1", "session": "s-1"})
    );
    // (A cookie value that needs encoding is sent percent-encoded, `s%201`, as the seed does;
    // Starlette does not decode cookies, so this test sends one that needs none.)
    assert_eq!(v["created"]["name"], json!("desk"));
    assert_eq!(v["created"]["tags"], json!(["office"]));
    assert_eq!(v["listed"], json!(1));
    assert_eq!(v["deleted"], json!(true));
    assert_eq!(v["after"], json!(0));
    assert_eq!(v["login"], json!({"user": "ann", "password_length": 6}));
    assert_eq!(v["hello"], json!("hello lua"));
    let teapot = v["teapot"].as_str().unwrap();
    assert!(
        teapot.contains("GET /fail/{code} failed with HTTP 418")
            && teapot.contains("failed on purpose with 418"),
        "{teapot}"
    );
    assert!(
        v["missing"]
            .as_str()
            .unwrap()
            .contains("failed with HTTP 404"),
        "{}",
        v["missing"]
    );
    assert_eq!(v["bearer"], json!("bearer"));
    assert_eq!(v["basic"], json!("ann"));
    assert_eq!(v["key"], json!("key"));
    assert_eq!(v["moved"], json!("lamp"));
    // One client-credentials token (fetched from the relative tokenUrl with the requirement's
    // scope), cached for the second call.
    assert_eq!(v["oauth"], json!(["cc-1-items:read", "cc-1-items:read"]));
    // Credentials never show in the result.
    let text = r.to_json_string();
    for secret in ["tok-123", "pw-456", "key-789", "cc-s3cret"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
}

#[tokio::test]
async fn fastapi_app_without_credentials_fails_closed() {
    let Some(server) = servers::fastapi("fastapi_app_without_credentials_fails_closed") else {
        return;
    };
    let cm = api(fastapi_built(&server.base, HashMap::new()));
    let e = cm
        .call_tool("api.auth.bearer", json!({}))
        .await
        .unwrap_err();
    assert!(
        e.message.contains(
            "GET /secure/bearer requires authentication; no credential available for: HTTPBearer"
        ),
        "{}",
        e.message
    );
}

/// A spec over httpbin's `/anything` with every parameter style and body kind.
fn httpbin_spec(base: &str) -> Value {
    let ok = json!({"200": {"description": "", "content": {"application/json": {"schema": {}}}}});
    json!({"openapi": "3.1.0", "info": {"title": "httpbin", "version": "1"},
    "servers": [{"url": format!("{base}/anything")}],
    "paths": {
        "/p/{simple}/{label}/{matrix}": {"get": {"operationId": "styles",
            "parameters": [
                {"name": "simple", "in": "path", "required": true, "schema": {"type": "array", "items": {"type": "string"}}},
                {"name": "label", "in": "path", "required": true, "style": "label", "schema": {"type": "string"}},
                {"name": "matrix", "in": "path", "required": true, "style": "matrix", "explode": true, "schema": {"type": "object"}},
                {"name": "form", "in": "query", "schema": {"type": "array"}},
                {"name": "csv", "in": "query", "explode": false, "schema": {"type": "array"}},
                {"name": "space", "in": "query", "style": "spaceDelimited", "explode": false, "schema": {"type": "array"}},
                {"name": "pipe", "in": "query", "style": "pipeDelimited", "explode": false, "schema": {"type": "array"}},
                {"name": "deep", "in": "query", "style": "deepObject", "schema": {"type": "object"}},
                {"name": "X-Trace", "in": "header", "schema": {"type": "array"}},
                {"name": "sid", "in": "cookie", "schema": {"type": "string"}}],
            "responses": ok}},
        "/form": {"post": {"operationId": "form",
            "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": {"amount": {"type": "integer"},
                    "metadata": {"type": "object"}, "tags": {"type": "array"}}},
                "encoding": {"metadata": {"style": "deepObject", "explode": true}}}}},
            "responses": ok}},
        "/json": {"put": {"operationId": "json",
            "requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}},
            "responses": ok}},
        "/text": {"post": {"operationId": "text",
            "requestBody": {"content": {"text/plain": {"schema": {"type": "string"}}}},
            "responses": ok}}
    }})
}

#[tokio::test]
async fn httpbin_echoes_every_parameter_style_and_body() {
    let Some(server) = servers::httpbin("httpbin_echoes_every_parameter_style_and_body") else {
        return;
    };
    let doc = Document::from_value(httpbin_spec(&server.base)).unwrap();
    let built = from_spec(&doc, Options::default()).unwrap();
    assert!(built.skipped.is_empty(), "{:?}", built.skipped);
    let cm = CodeMode::builder()
        .namespace("bin", built.namespace)
        .build()
        .unwrap();
    let out = cm
        .call_tool(
            "bin.styles",
            json!({"simple": ["a b", "c"], "label": "x", "matrix": {"r": "1", "g": "2"},
                   "form": ["f1", "f2"], "csv": ["a", "b"], "space": ["s1", "s2"],
                   "pipe": ["p1", "p2"], "deep": {"k": "v"}, "X-Trace": ["1", "2"], "sid": "s 1"}),
        )
        .await
        .unwrap();
    assert_eq!(out["method"], json!("GET"));
    let url = out["url"].as_str().unwrap();
    let url = url.replace("%5B", "[").replace("%5D", "]");
    assert_eq!(
        url,
        format!(
            "{}/anything/p/a%20b,c/.x/;r=1;g=2?form=f1&form=f2&csv=a,b&space=s1%20s2&pipe=p1|p2&deep[k]=v",
            server.base
        )
    );
    assert_eq!(
        out["args"],
        json!({"form": ["f1", "f2"], "csv": "a,b", "space": "s1 s2", "pipe": "p1|p2", "deep[k]": "v"})
    );
    assert_eq!(out["headers"]["X-Trace"], json!("1,2"));
    assert_eq!(out["headers"]["Cookie"], json!("sid=s%201"));
    let out = cm
        .call_tool(
            "bin.form",
            json!({"body": {"amount": 5, "metadata": {"order": "o 1"}, "tags": ["a", "b"]}}),
        )
        .await
        .unwrap();
    assert_eq!(
        out["form"],
        json!({"amount": "5", "metadata[order]": "o 1", "tags": ["a", "b"]})
    );
    assert_eq!(
        out["headers"]["Content-Type"],
        json!("application/x-www-form-urlencoded")
    );
    let out = cm
        .call_tool("bin.json", json!({"body": {"a": [1, 2.5, null]}}))
        .await
        .unwrap();
    assert_eq!(out["json"], json!({"a": [1, 2.5, null]}));
    assert_eq!(out["method"], json!("PUT"));
    let out = cm
        .call_tool("bin.text", json!({"body": "plain words"}))
        .await
        .unwrap();
    assert_eq!(out["data"], json!("plain words"));
}

/// Over httpbin: server variables, a relative server URL resolved against the spec's own URL,
/// content negotiation, `allowReserved`, and apiKeys in the query and in a cookie (AND).
fn httpbin_negotiation_spec(base: &str) -> Value {
    let port = base.rsplit(':').next().unwrap();
    let echo =
        json!({"description": "", "content": {"application/json": {"schema": {"type": "object"}}}});
    json!({"openapi": "3.0.3", "info": {"title": "httpbin", "version": "1"},
    "servers": [{"url": "{scheme}://127.0.0.1:{port}/anything/{stage}",
                 "variables": {"scheme": {"default": "http", "enum": ["http", "https"]},
                               "port": {"default": port}, "stage": {"default": "v1"}}}],
    "components": {"securitySchemes": {
        "qkey": {"type": "apiKey", "in": "query", "name": "api_key"},
        "ckey": {"type": "apiKey", "in": "cookie", "name": "session"}}},
    "paths": {
        "/negotiated": {"get": {"operationId": "negotiated",
            "parameters": [{"name": "path", "in": "query", "allowReserved": true, "schema": {"type": "string"}}],
            "responses": {"200": {"description": "", "content": {
                "application/xml": {"schema": {"type": "object"}},
                "application/json": {"schema": {"type": "object"}}}}}}},
        "/relative": {"servers": [{"url": "/anything/relative"}],
            "get": {"operationId": "relative", "responses": {"200": echo}}},
        "/keys": {"get": {"operationId": "keys", "security": [{"qkey": [], "ckey": []}],
            "responses": {"200": echo}}}
    }})
}

#[tokio::test]
async fn httpbin_servers_negotiation_reserved_and_key_carriers() {
    let Some(server) = servers::httpbin("httpbin_servers_negotiation_reserved_and_key_carriers")
    else {
        return;
    };
    let doc = Document::from_value(httpbin_negotiation_spec(&server.base)).unwrap();
    let creds = HashMap::from([
        ("qkey".to_string(), Credential::ApiKey(Secret::new("q-KEY"))),
        ("ckey".to_string(), Credential::ApiKey(Secret::new("c-KEY"))),
    ]);
    let built = from_spec(
        &doc,
        Options {
            spec_url: Some(format!("{}/specs/openapi.json", server.base)),
            auth: Some(Arc::new(StaticAuth(creds))),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(built.skipped.is_empty(), "{:?}", built.skipped);
    let cm = CodeMode::builder()
        .namespace("bin", built.namespace)
        .build()
        .unwrap();
    // Server variables take their defaults; JSON is chosen over XML and asked for.
    let out = cm
        .call_tool("bin.negotiated", json!({"path": "a/b:c@d,e"}))
        .await
        .unwrap();
    assert_eq!(
        out["url"],
        json!(format!(
            "{}/anything/v1/negotiated?path=a/b:c@d,e",
            server.base
        ))
    );
    assert_eq!(out["args"], json!({"path": "a/b:c@d,e"}));
    assert_eq!(out["headers"]["Accept"], json!("application/json"));
    // The path item's relative server resolves against where the spec was read.
    let out = cm.call_tool("bin.relative", json!({})).await.unwrap();
    assert_eq!(
        out["url"],
        json!(format!("{}/anything/relative/relative", server.base))
    );
    // Both keys of the AND requirement, each on its own carrier.
    let out = cm.call_tool("bin.keys", json!({})).await.unwrap();
    assert_eq!(out["args"], json!({"api_key": "q-KEY"}));
    assert_eq!(out["headers"]["Cookie"], json!("session=c-KEY"));
}

#[tokio::test]
async fn fastapi_oauth2_client_credentials_refused_and_misused() {
    let Some(server) = servers::fastapi("fastapi_oauth2_client_credentials_refused_and_misused")
    else {
        return;
    };
    let creds = HashMap::from([
        (
            "OAuth2".to_string(),
            Credential::ClientCredentials {
                client_id: "app-1".into(),
                client_secret: Secret::new("wrong-s3cret"),
            },
        ),
        (
            "HTTPBearer".to_string(),
            Credential::ClientCredentials {
                client_id: "app-1".into(),
                client_secret: Secret::new("wrong-s3cret"),
            },
        ),
    ]);
    let cm = api(fastapi_built(&server.base, creds));
    // The token endpoint refuses the client: the call fails before the API is called, with
    // the endpoint's answer and without the secret.
    let e = cm.call_tool("api.auth.oauth", json!({})).await.unwrap_err();
    assert_eq!(
        e.message,
        r#"GET /secure/oauth failed: the OAuth2 token request of security scheme 'OAuth2' failed: HTTP 401: {"detail":{"error":"invalid_client"}}"#
    );
    // A client id and secret for a scheme without a clientCredentials flow.
    let e = cm
        .call_tool("api.auth.bearer", json!({}))
        .await
        .unwrap_err();
    assert_eq!(
        e.message,
        "Security scheme 'HTTPBearer' has no OAuth2 clientCredentials flow; resolve a bearer token for it instead of a client id and secret."
    );
}
