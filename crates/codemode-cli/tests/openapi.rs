//! End-to-end tests of `--openapi` on `run`, `catalog` and `search`, `codemode openapi
//! inspect`, and the MCP config's `"openapi"` section: Lua programs call generated tools that
//! reach a loopback HTTP stub.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_codemode");

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn codemode");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "codemode-openapi-cli-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A pet store on a loopback thread: `GET /pets?limit=N` (bearer `tok` required) and
/// `GET /pets/{id}`; records each request line and its authorization header.
fn pet_server() -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let rec = Arc::clone(&seen);
    std::thread::spawn(move || {
        for sock in listener.incoming() {
            let Ok(mut sock) = sock else { return };
            let mut buf = Vec::new();
            let mut tmp = [0u8; 4096];
            while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                match sock.read(&mut tmp) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => buf.extend_from_slice(&tmp[..n]),
                }
            }
            let head = String::from_utf8_lossy(&buf).into_owned();
            let line = head.lines().next().unwrap_or("").to_string();
            let auth = head
                .lines()
                .find_map(|l| l.strip_prefix("authorization: "))
                .unwrap_or("")
                .to_string();
            rec.lock().unwrap().push(format!("{line} | {auth}"));
            let target = line.split(' ').nth(1).unwrap_or("");
            let (status, body) = if auth != "Bearer tok" {
                (401, json!({"detail": "Not authenticated"}))
            } else if let Some(q) = target.strip_prefix("/pets?limit=") {
                let n: usize = q.parse().unwrap_or(0);
                (
                    200,
                    Value::Array(
                        (1..=n)
                            .map(|i| json!({"id": i, "name": format!("pet{i}")}))
                            .collect(),
                    ),
                )
            } else if let Some(id) = target.strip_prefix("/pets/") {
                if id == "7" {
                    (200, json!({"id": 7, "name": "rex"}))
                } else {
                    (404, json!({"detail": "no such pet"}))
                }
            } else {
                (404, json!({"detail": "not found"}))
            };
            let body = body.to_string();
            let _ = write!(
                sock,
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (base, seen)
}

const SPEC_YAML: &str = r#"openapi: 3.0.3
info: {title: Pet store, version: "1"}
servers: [{url: "https://pets.invalid"}]
security: [{bearer: []}]
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
paths:
  /pets:
    get:
      operationId: listPets
      summary: List pets.
      parameters:
        - {name: limit, in: query, required: true, schema: {type: integer}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: object, properties: {id: {type: integer}, name: {type: string}}}}
  /pets/{id}:
    get:
      operationId: showPet
      summary: One pet.
      parameters:
        - {name: id, in: path, required: true, schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
  /pets/{id}/photo:
    get:
      operationId: photo
      responses:
        "200": {description: ok, content: {image/png: {}}}
"#;

fn spec_file() -> PathBuf {
    let d = scratch();
    let p = d.join("pets.yaml");
    std::fs::write(&p, SPEC_YAML).unwrap();
    p
}

#[test]
fn run_calls_the_api_with_auth_from_the_environment() {
    let (base, seen) = pet_server();
    let spec = spec_file();
    let program = r#"
        local pets = tools.pets.listPets({ limit = 2 })
        local ok, err = pcall(tools.pets.showPet, { id = "8" })
        return { n = #pets, first = pets[1].name, rex = tools.pets.showPet({ id = "7" }).name, err = err }
    "#;
    let r = run(
        &[
            "run",
            "--openapi",
            spec.to_str().unwrap(),
            "--base-url",
            &format!("pets={base}"),
            "--openapi-auth",
            "pets:bearer=env:PET_TOKEN",
            "-",
        ],
        &[("PET_TOKEN", "tok")],
        program,
    );
    assert_eq!(r.code, 0, "{} {}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["value"]["n"], 2);
    assert_eq!(v["value"]["first"], "pet1");
    assert_eq!(v["value"]["rex"], "rex");
    assert_eq!(
        v["value"]["err"],
        r#"GET /pets/{id} failed with HTTP 404: {"detail":"no such pet"}"#
    );
    assert!(!r.stdout.contains("tok\""), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("codemode: openapi pets: 2 tools; 1 operations skipped"),
        "{}",
        r.stderr
    );
    assert_eq!(
        seen.lock().unwrap()[0],
        "GET /pets?limit=2 HTTP/1.1 | Bearer tok"
    );
    // Without the credential the call fails closed, before any request.
    let before = seen.lock().unwrap().len();
    let r = run(
        &[
            "run",
            "--openapi",
            spec.to_str().unwrap(),
            "--base-url",
            &base,
            "-",
        ],
        &[],
        "return tools.pets.listPets({ limit = 1 })",
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["error"]["message"],
        "GET /pets requires authentication; no credential available for: bearer."
    );
    assert_eq!(seen.lock().unwrap().len(), before);
}

#[test]
fn secrets_are_never_literals_and_flags_are_checked() {
    let spec = spec_file();
    let s = spec.to_str().unwrap();
    let r = run(
        &[
            "run",
            "--openapi",
            s,
            "--openapi-auth",
            "pets:bearer=hunter2",
            "-",
        ],
        &[],
        "return 1",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("codemode: --openapi-auth: write the secret as env:VAR"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("hunter2"));
    let r = run(
        &[
            "run",
            "--openapi",
            s,
            "--openapi-auth",
            "nope:bearer=env:X",
            "-",
        ],
        &[],
        "return 1",
    );
    assert_eq!(
        r.stderr.trim(),
        "codemode: --openapi-auth: no --openapi spec has the namespace 'nope' (namespaces: pets)"
    );
    let r = run(
        &[
            "run",
            "--openapi",
            s,
            "--openapi-auth",
            "pets:other=env:HOME",
            "-",
        ],
        &[],
        "return 1",
    );
    assert_eq!(
        r.stderr.trim(),
        "codemode: --openapi-auth: the spec of 'pets' has no usable security scheme 'other' (its schemes: bearer)"
    );
    let r = run(
        &["run", "--openapi", "/nonexistent/x.json", "-"],
        &[],
        "return 1",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("codemode: cannot read OpenAPI spec /nonexistent/x.json"),
        "{}",
        r.stderr
    );
}

#[test]
fn inspect_catalog_and_search() {
    let spec = spec_file();
    let s = spec.to_str().unwrap();
    let r = run(&["openapi", "inspect", s], &[], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v,
        json!({
        "tools": [{"path": "listPets", "method": "GET", "route": "/pets"}, {"path": "showPet", "method": "GET", "route": "/pets/{id}"}],
        "skipped": [{"method": "GET", "path": "/pets/{id}/photo", "reason": "binary responses are not supported"}]})
    );
    let r = run(&["catalog", "--openapi", &format!("store={s}")], &[], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout
            .contains("tools.store.listPets({ limit: integer })"),
        "{}",
        r.stdout
    );
    let r = run(&["search", "--openapi", s, "one pet"], &[], "");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["items"][0]["path"], "pets.showPet");
}

#[test]
fn mcp_config_openapi_section() {
    let (base, _) = pet_server();
    let spec = spec_file();
    let dir = spec.parent().unwrap();
    let cfg = dir.join("mcp.json");
    std::fs::write(
        &cfg,
        json!({"openapi": {"shop": {"spec": "pets.yaml", "baseUrl": base,
        "auth": {"bearer": {"bearer": {"env": "SHOP_TOKEN"}}}, "include": ["list*"]}}})
        .to_string(),
    )
    .unwrap();
    let r = run(
        &["run", "--mcp-config", cfg.to_str().unwrap(), "-"],
        &[("SHOP_TOKEN", "tok")],
        "return { tools.shop.listPets({ limit = 3 })[3].id, tools.shop.showPet == nil }",
    );
    assert_eq!(r.code, 0, "{} {}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["value"], json!([3, true]));
    std::fs::write(
        &cfg,
        json!({"openapi": {"shop": {"spec": "pets.yaml", "baseURL": base}}}).to_string(),
    )
    .unwrap();
    let r = run(
        &["run", "--mcp-config", cfg.to_str().unwrap(), "-"],
        &[],
        "return 1",
    );
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown key openapi.shop.baseURL"),
        "{}",
        r.stderr
    );
}

#[path = "../../codemode-openapi/tests/common/servers.rs"]
mod servers;

/// Issue 16 (b, f): `codemode run --openapi URL` against a real FastAPI server: the spec is
/// fetched from the server's own `/openapi.json` (no `servers`: the tools call the origin it
/// came from), the namespace defaults to the URL's file stem, credentials come from the
/// environment, and a Lua program calls the tools end to end.
#[test]
fn run_against_a_real_fastapi_server_from_its_spec_url() {
    let Some(server) = servers::fastapi("run_against_a_real_fastapi_server_from_its_spec_url")
    else {
        return;
    };
    let spec = format!("{}/openapi.json", server.base);
    let program = r#"
        local item = tools.openapi.items.get({ item_id = 1, q = "x y" })
        local made = tools.openapi.items.create({ body = { name = "chair", price = 20 } })
        local ok, err = pcall(tools.openapi.errors.status, { code = 409 })
        return { name = item.item.name, q = item.q, made = made.name,
                 bearer = tools.openapi.auth.bearer({}).ok,
                 basic = tools.openapi.auth.basic({}).user,
                 oauth = tools.openapi.auth.oauth({}).ok,
                 hello = tools.openapi.text.hello({}), err = err }
    "#;
    let r = run(
        &[
            "run",
            "--openapi",
            &spec,
            "--openapi-auth",
            "openapi:HTTPBearer=env:CM_TEST_TOKEN",
            "--openapi-auth",
            "openapi:HTTPBasic=env:CM_TEST_USER,env:CM_TEST_PASS",
            "--openapi-auth",
            "openapi:OAuth2=env:CM_TEST_CLIENT,env:CM_TEST_CLIENT_SECRET",
            "-",
        ],
        &[
            ("CM_TEST_TOKEN", "tok-123"),
            ("CM_TEST_USER", "ann"),
            ("CM_TEST_PASS", "pw-456"),
            ("CM_TEST_CLIENT", "app-1"),
            ("CM_TEST_CLIENT_SECRET", "cc-s3cret"),
        ],
        program,
    );
    assert_eq!(r.code, 0, "{} {}", r.stdout, r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["value"],
        json!({"name": "lamp", "q": "x y", "made": "chair", "bearer": "bearer", "basic": "ann",
               "oauth": "oauth", "hello": "hello world",
               "err": "GET /fail/{code} failed with HTTP 409: {\"detail\":\"failed on purpose with 409\"}"})
    );
    for secret in ["tok-123", "pw-456", "cc-s3cret"] {
        assert!(!r.stdout.contains(secret), "{}", r.stdout);
    }
    // `openapi inspect` takes the URL too.
    let r = run(&["openapi", "inspect", &spec], &[], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["tools"].as_array().unwrap().len(), 12, "{v}");
    assert_eq!(
        v["skipped"],
        json!([{"method": "POST", "path": "/upload",
                "reason": "request body has no supported content (declared: multipart/form-data)"}])
    );
    // A client id and secret for a scheme without a clientCredentials flow is refused.
    let r = run(
        &[
            "run",
            "--openapi",
            &spec,
            "--openapi-auth",
            "openapi:HTTPBearer=env:CM_TEST_CLIENT,env:CM_TEST_CLIENT_SECRET",
            "-",
        ],
        &[("CM_TEST_CLIENT", "a"), ("CM_TEST_CLIENT_SECRET", "b")],
        "return 1",
    );
    assert_eq!(r.code, 2, "{} {}", r.stdout, r.stderr);
    assert!(
        r.stderr.contains("--openapi-auth: 'HTTPBearer' takes one value (a client id and secret go with an OAuth2 scheme that has a clientCredentials flow); write openapi:HTTPBearer=env:VAR"),
        "{}",
        r.stderr
    );
}
