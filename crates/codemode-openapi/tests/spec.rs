//! from_spec: the seed's openapi test cases (naming, collisions, skips, parameters,
//! projection, servers, security) rewritten, plus what goes beyond the seed.

use codemode::CodeMode;
use codemode_openapi::{Built, Document, Options, from_spec};
use serde_json::{Value, json};

fn doc(version: &str, paths: Value) -> Value {
    json!({"openapi": version, "info": {"title": "T", "version": "1"},
           "servers": [{"url": "https://api.example.com/v1/"}], "paths": paths})
}

fn build(d: Value) -> Built {
    build_with(d, Options::default())
}

fn build_with(d: Value, o: Options) -> Built {
    from_spec(&Document::from_value(d).unwrap(), o).unwrap()
}

fn paths(b: &Built) -> Vec<String> {
    b.tools.iter().map(|t| t.path.clone()).collect()
}

fn reasons(b: &Built) -> Vec<String> {
    b.skipped
        .iter()
        .map(|s| format!("{} {}: {}", s.method, s.path, s.reason))
        .collect()
}

fn runtime(b: Built) -> CodeMode {
    CodeMode::builder()
        .namespace("api", b.namespace)
        .build()
        .unwrap()
}

fn input(b: Built, path: &str) -> Value {
    runtime(b)
        .tools()
        .get(&format!("api.{path}"))
        .unwrap()
        .tool
        .input_schema()
        .clone()
}

fn output(b: Built, path: &str) -> Option<Value> {
    runtime(b)
        .tools()
        .get(&format!("api.{path}"))
        .unwrap()
        .tool
        .output_schema()
        .cloned()
}

fn ok() -> Value {
    json!({"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}})
}

#[test]
fn names_sanitising_and_collisions() {
    let b = build(doc(
        "3.1.0",
        json!({
            "/a": {"get": {"operationId": "group.item", "responses": ok()},
                   "post": {"operationId": "group.item", "responses": ok()},
                   "put": {"operationId": "group..other", "responses": ok()},
                   "patch": {"operationId": "2fa-check", "responses": ok()}},
            "/users/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "schema": {"type": "string"}}], "responses": ok()}},
            "/repos": {"get": {"operationId": "repos/get", "responses": ok()}}
        }),
    ));
    assert_eq!(
        paths(&b),
        [
            "group.item",
            "group_item_2",
            "group.operation.other",
            "_2fa_check",
            "getUsersById",
            "repos.get"
        ]
    );
    assert!(b.skipped.is_empty());
    let b = build_with(
        doc(
            "3.1.0",
            json!({"/repos": {"get": {"operationId": "repos/get", "responses": ok()}}}),
        ),
        Options {
            split_slash: false,
            ..Options::default()
        },
    );
    assert_eq!(paths(&b), ["repos_get"]);
}

#[test]
fn skipped_operations_reserve_no_name() {
    let b = build(doc(
        "3.1.0",
        json!({
            "/s": {"get": {"operationId": "x", "responses": {"200": {"description": "", "content": {"text/event-stream": {}}}}}},
            "/t": {"get": {"operationId": "x", "responses": ok()}}
        }),
    ));
    assert_eq!(paths(&b), ["x"]);
    assert_eq!(reasons(&b), ["GET /s: SSE operations are not supported"]);
}

#[test]
fn skip_reasons_word_for_word() {
    let bin = json!({"200": {"description": "", "content": {"application/octet-stream": {}}}});
    let b = build(doc("3.0.3", json!({
        "/ws": {"get": {"x-websocket": true, "responses": ok()}},
        "/bin": {"get": {"responses": bin}},
        "/bad": {"get": {"responses": {"200": {"$ref": "#/components/responses/Nope"}}}},
        "/p1": {"get": {"parameters": [{"$ref": "#/nope"}], "responses": ok()}},
        "/p2": {"get": {"parameters": [{"name": "x"}], "responses": ok()}},
        "/p3": {"get": {"parameters": [{"name": "x", "in": "body", "schema": {}}], "responses": ok()}},
        "/p4": {"get": {"parameters": [{"name": "x", "in": "query"}], "responses": ok()}},
        "/p5": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {}, "style": 3}], "responses": ok()}},
        "/p6": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {}, "explode": "yes"}], "responses": ok()}},
        "/p7": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {}, "allowReserved": 1}], "responses": ok()}},
        "/p8": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {}, "style": "matrix"}], "responses": ok()}},
        "/p9/{x}": {"get": {"parameters": [{"name": "x", "in": "path", "schema": {}, "style": "form"}], "responses": ok()}},
        "/p10": {"get": {"parameters": [{"name": "x", "in": "query", "schema": {}, "style": "deepObject", "explode": false}], "responses": ok()}},
        "/p11": {"get": {"parameters": [{"name": "x", "in": "header", "schema": {}, "style": "label"}], "responses": ok()}},
        "/p12": {"get": {"parameters": [{"name": "bad name", "in": "header", "schema": {}}], "responses": ok()}},
        "/p13": {"get": {"parameters": [{"name": "x", "in": "query", "content": {"application/xml": {}}}], "responses": ok()}},
        "/b1": {"post": {"requestBody": {"content": {"multipart/form-data": {}, "application/octet-stream": {}}}, "responses": ok()}},
        "/b2": {"post": {"requestBody": {"content": {}}, "responses": ok()}},
        "/s1": {"get": {"security": {}, "responses": ok()}},
        "/s2": {"get": {"security": [1], "responses": ok()}},
        "/s3": {"get": {"security": [{"k": "x"}], "responses": ok()}},
        "/s4": {"get": {"security": [{"nope": []}, {"broken": []}], "responses": ok()}},
        "/srv": {"get": {"servers": [{"url": "ftp://x"}], "responses": ok()}},
        "/srv2": {"get": {"servers": [{"url": "https://x/?a=1"}], "responses": ok()}},
        "/srv3": {"get": {"servers": [{"url": "https://{region}.x"}], "responses": ok()}},
        "/srv4": {"get": {"servers": [{"url": "/v2"}], "responses": ok()}}
    })).as_object().cloned().map(|mut d| {
        d.insert("components".into(), json!({"securitySchemes": {"broken": {"type": "apiKey"}}}));
        Value::Object(d)
    }).unwrap());
    assert_eq!(
        reasons(&b),
        [
            "GET /ws: WebSocket operations are not supported",
            "GET /bin: binary responses are not supported",
            "GET /bad: successful response declaration is invalid or unresolved",
            "GET /p1: parameter declaration is invalid or unresolved",
            "GET /p2: parameter declaration is missing name or location",
            "GET /p3: parameter 'x' uses unsupported location 'body'",
            "GET /p4: parameter 'x' declares neither schema nor content",
            "GET /p5: parameter 'x' has an invalid style",
            "GET /p6: parameter 'x' has an invalid explode value",
            "GET /p7: parameter 'x' has an invalid allowReserved value",
            "GET /p8: query parameter 'x' uses unsupported style 'matrix'",
            "GET /p9/{x}: path parameter 'x' uses unsupported style 'form'",
            "GET /p10: query parameter 'x' uses deepObject with explode=false",
            "GET /p11: header parameter 'x' uses unsupported style 'label'",
            "GET /p12: header parameter 'bad name' has an invalid header name",
            "GET /p13: parameter 'x' uses unsupported content encoding",
            "POST /b1: request body has no supported content (declared: multipart/form-data, application/octet-stream)",
            "POST /b2: request body has no supported content (declared: none)",
            "GET /s1: security declaration is not an array",
            "GET /s2: security requirement is not an object",
            "GET /s3: security requirement scopes are not string arrays",
            "GET /s4: security requirement references missing or malformed scheme: nope, broken",
            "GET /srv: server URL 'ftp://x' is not an absolute HTTP(S) URL",
            "GET /srv2: server URL 'https://x/?a=1' contains an unsupported query string or fragment",
            "GET /srv3: server URL 'https://{region}.x' is not an absolute URL; pass baseUrl",
            "GET /srv4: server URL '/v2' is relative; pass baseUrl",
        ]
    );
    assert!(b.tools.is_empty());
    let mut d = doc("3.1.0", json!({"/a": {"get": {"responses": ok()}}}));
    d.as_object_mut().unwrap().remove("servers");
    assert_eq!(
        reasons(&build(d)),
        ["GET /a: spec declares no servers; pass baseUrl"]
    );
}

#[test]
fn content_negotiation_and_binary() {
    let b = build(doc("3.1.0", json!({
        "/k": {"get": {"operationId": "k", "responses": {"200": {"description": "", "content": {
            "application/vnd.kubernetes.protobuf": {}, "application/yaml": {},
            "application/json": {"schema": {"type": "object"}}}}}}},
        "/t": {"get": {"operationId": "t", "responses": {"200": {"description": "", "content": {"text/plain": {}}}}}},
        "/any": {"get": {"operationId": "any", "responses": {"200": {"description": "", "content": {"*/*": {"schema": {"type": "string"}}}}}}},
        "/img": {"get": {"operationId": "img", "responses": {"200": {"description": "", "content": {"image/png": {}}}}}},
        "/cmt": {"get": {"operationId": "cmt", "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"type": "string", "contentMediaType": "image/png"}}}}}}},
        "/fmt": {"get": {"operationId": "fmt", "responses": {"200": {"description": "", "content": {"text/plain": {"schema": {"$ref": "#/components/schemas/Bin"}}}}}}}
    })).as_object().cloned().map(|mut d| {
        d.insert("components".into(), json!({"schemas": {"Bin": {"type": "string", "format": "binary"}}}));
        Value::Object(d)
    }).unwrap());
    assert_eq!(paths(&b), ["k", "t", "any"]);
    assert_eq!(
        reasons(&b),
        [
            "GET /img: binary responses are not supported",
            "GET /cmt: binary responses are not supported",
            "GET /fmt: binary responses are not supported",
        ]
    );
    assert_eq!(output(b, "t"), Some(json!({"type": "string"})));
}

#[test]
fn parameters_override_order_and_clashes() {
    let b = build(doc(
        "3.1.0",
        json!({
            "/x/{id}": {
                "parameters": [{"name": "id", "in": "path", "schema": {"type": "integer"}},
                               {"name": "q", "in": "query", "schema": {"type": "string"}, "description": "from the path item"}],
                "post": {"operationId": "x",
                    "parameters": [{"name": "q", "in": "query", "schema": {"type": "number"}},
                                   {"name": "id", "in": "query", "schema": {"type": "string"}},
                                   {"name": "path_id", "in": "query", "schema": {"type": "string"}},
                                   {"name": "id", "in": "header", "schema": {"type": "string"}},
                                   {"name": "Accept", "in": "header", "schema": {"type": "string"}},
                                   {"name": "x-trace", "in": "header", "required": true, "schema": {"type": "string"}, "description": "Trace id."},
                                   {"name": "sid", "in": "cookie", "schema": {"type": "string"}}],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {
                        "type": "object", "additionalProperties": false, "required": ["id"],
                        "properties": {"id": {"type": "string"}, "note": {"type": "string"}}}}}},
                    "responses": ok()}}
        }),
    ));
    let s = input(b, "x");
    let props: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
    assert_eq!(
        props,
        [
            "path_id",
            "q",
            "query_id",
            "path_id_2",
            "header_id",
            "x-trace",
            "sid",
            "body_id",
            "note"
        ]
    );
    assert_eq!(s["properties"]["q"], json!({"type": "number"}));
    assert_eq!(
        s["properties"]["x-trace"],
        json!({"type": "string", "description": "Trace id."})
    );
    assert_eq!(s["required"], json!(["path_id", "x-trace", "body_id"]));
}

#[test]
fn bodies_that_are_not_flattened() {
    let body = |schema: Value, required: bool| {
        json!({"post": {"operationId": "op",
        "requestBody": {"required": required, "content": {"application/merge-patch+json": {"schema": schema}}}, "responses": ok()}})
    };
    let closed = json!({"type": "object", "additionalProperties": false, "properties": {"a": {"type": "string"}}});
    let cases = [
        body(closed.clone(), false),
        body(
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            true,
        ),
        body(
            json!({"type": "object", "additionalProperties": false, "nullable": true, "properties": {"a": {}}}),
            true,
        ),
        body(
            json!({"type": "object", "additionalProperties": false, "properties": {"a": {}}, "allOf": [{}]}),
            true,
        ),
    ];
    for (i, c) in cases.into_iter().enumerate() {
        let s = input(build(doc("3.0.3", json!({"/b": c}))), "op");
        let props: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
        assert_eq!(props, ["body"], "case {i}");
    }
    let s = input(build(doc("3.0.3", json!({"/b": body(closed, true)}))), "op");
    assert_eq!(s["properties"], json!({"a": {"type": "string"}}));
}

#[test]
fn nullable_and_constraints_in_3_0() {
    let b = build(doc(
        "3.0.3",
        json!({"/n": {"get": {"operationId": "n",
        "parameters": [{"name": "s", "in": "query", "schema": {"type": "string", "nullable": true, "minLength": 2}},
                       {"name": "e", "in": "query", "schema": {"type": "string", "enum": ["a"], "nullable": true}},
                       {"name": "m", "in": "query", "schema": {"type": "integer", "maximum": 5, "exclusiveMaximum": true}}],
        "responses": ok()}}}),
    ));
    let s = input(b, "n");
    assert_eq!(
        s["properties"]["s"],
        json!({"type": ["string", "null"], "minLength": 2})
    );
    assert_eq!(
        s["properties"]["e"],
        json!({"type": ["string", "null"], "enum": ["a", null]})
    );
    assert_eq!(
        s["properties"]["m"],
        json!({"type": "integer", "exclusiveMaximum": 5})
    );
    // The boolean form in a 3.1 document (oas-examples' schema-validation-local.json has it),
    // meaningless in 2020-12, is read as 3.0's instead of costing the tool its existence.
    let b = build(doc(
        "3.1.0",
        json!({"/n": {"get": {"operationId": "n",
        "parameters": [{"name": "m", "in": "query", "schema": {"type": "integer", "minimum": 1, "exclusiveMinimum": true}},
                       {"name": "k", "in": "query", "schema": {"type": "integer", "minimum": 1, "exclusiveMinimum": false}},
                       {"name": "j", "in": "query", "schema": {"type": "integer", "exclusiveMaximum": 9}}],
        "responses": ok()}}}),
    ));
    let s = input(b, "n");
    assert_eq!(
        s["properties"]["m"],
        json!({"type": "integer", "exclusiveMinimum": 1})
    );
    assert_eq!(
        s["properties"]["k"],
        json!({"type": "integer", "minimum": 1})
    );
    assert_eq!(
        s["properties"]["j"],
        json!({"type": "integer", "exclusiveMaximum": 9})
    );
}

#[test]
fn defs_are_the_closure_of_what_a_tool_references() {
    let mut d = doc(
        "3.1.0",
        json!({
            "/u": {"post": {"operationId": "u",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                "responses": {"201": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}}}}},
            "/o": {"get": {"operationId": "o", "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Other"}}}}}}}
        }),
    );
    d["components"] = json!({"schemas": {
        "User": {"type": "object", "properties": {"id": {"type": "string", "readOnly": true}, "password": {"type": "string", "writeOnly": true},
                 "address": {"$ref": "#/components/schemas/Address"}}, "required": ["id", "password"]},
        "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
        "Other": {"type": "string"},
        "Unused": {"type": "integer"}}});
    let b = build(d);
    let cm = runtime(b);
    let u = &cm.tools().get("api.u").unwrap().tool;
    assert_eq!(
        u.input_schema()["$defs"],
        json!({
        "Address": {"type": "object", "properties": {"city": {"type": "string"}}},
        "User": {"type": "object", "properties": {"password": {"type": "string", "writeOnly": true},
                 "address": {"$ref": "#/$defs/Address"}}, "required": ["password"]}})
    );
    assert_eq!(
        u.input_schema()["properties"]["body"],
        json!({"$ref": "#/$defs/User"})
    );
    let out = u.output_schema().unwrap();
    assert_eq!(
        out["$defs"]["User"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["id", "address"]
    );
    assert_eq!(out["$defs"]["User"]["required"], json!(["id"]));
    let o = &cm.tools().get("api.o").unwrap().tool;
    assert_eq!(
        o.output_schema().unwrap(),
        &json!({"$ref": "#/$defs/Other", "$defs": {"Other": {"type": "string"}}})
    );
}

#[test]
fn defs_past_max_tool_defs_bytes_are_left_out() {
    use codemode_openapi::limits::MAX_TOOL_DEFS_BYTES;
    // Stripe's shape: a response names Customer, which names Account (an expandable field),
    // which names Bank. Customer fits the bound; Account would pass it, so it and everything
    // after it are left out: Account becomes a described stand-in, Bank is never reached.
    let big = |n: usize| "x".repeat(n);
    let mut d = doc(
        "3.0.3",
        json!({"/c": {"get": {"operationId": "c", "responses": {"200": {"description": "",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Customer"}}}}}}}}),
    );
    d["components"] = json!({"schemas": {
        "Customer": {"type": "object", "description": big(MAX_TOOL_DEFS_BYTES * 3 / 5),
            "properties": {"id": {"type": "string"},
                "account": {"anyOf": [{"type": "string"}, {"$ref": "#/components/schemas/Account"}]}},
            "required": ["id"]},
        "Account": {"type": "object", "description": big(MAX_TOOL_DEFS_BYTES / 2),
            "properties": {"bank": {"$ref": "#/components/schemas/Bank"}, "n": {"type": "integer"}}},
        "Bank": {"type": "object", "properties": {"name": {"type": "string"}}}}});
    let out = output(build(d), "c").unwrap();
    let defs = out["$defs"].as_object().unwrap();
    assert_eq!(defs.keys().collect::<Vec<_>>(), ["Account", "Customer"]);
    assert_eq!(
        defs["Account"],
        json!({"description": "Account (its schema is left out: the definitions of one tool are limited to 64 KiB; the value is not checked)"})
    );
    assert_eq!(defs["Customer"]["required"], json!(["id"]));
    // Validation only accepts more: Customer is still checked, Account no longer is.
    let v = codemode::schema::CompiledSchema::compile(&out).unwrap();
    assert!(v.is_valid(&json!({"id": "cus_1", "account": {"n": "not an integer"}})));
    assert!(v.is_valid(&json!({"id": "cus_1", "account": "acct_1"})));
    assert!(!v.is_valid(&json!({"account": "acct_1"})));
    // Under the bound nothing is left out.
    let mut small = doc(
        "3.0.3",
        json!({"/c": {"get": {"operationId": "c", "responses": {"200": {"description": "",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}}),
    );
    small["components"] = json!({"schemas": {
        "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
        "B": {"type": "object", "properties": {"n": {"type": "integer"}}}}});
    let out = output(build(small), "c").unwrap();
    assert_eq!(
        out["$defs"]["B"],
        json!({"type": "object", "properties": {"n": {"type": "integer"}}})
    );
}

#[test]
fn projection_through_refs_allof_and_cycles() {
    let mut d = doc(
        "3.1.0",
        json!({
            "/p": {"post": {"operationId": "p",
                "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
                "responses": ok()}}
        }),
    );
    d["components"] = json!({"schemas": {
    "Id": {"$ref": "#/components/schemas/RoId"},
    "RoId": {"type": "string", "readOnly": true},
    "Node": {"type": "object", "properties": {"next": {"$ref": "#/components/schemas/Node"}, "ro": {"type": "string", "readOnly": true}}},
    "Pet": {"allOf": [
        {"type": "object", "properties": {"id": {"$ref": "#/components/schemas/Id"}, "name": {"type": "string"}}},
        {"type": "object", "properties": {"sib": {"$ref": "#/components/schemas/Node", "readOnly": true}, "node": {"$ref": "#/components/schemas/Node"}}, "required": ["id", "name"]},
        {"type": "object", "properties": {"alt": {"anyOf": [{"readOnly": true}, {"type": "string"}]}}}
    ]}}});
    let s = input(build(d), "p");
    let pet = &s["$defs"]["Pet"]["allOf"];
    assert_eq!(pet[0]["properties"], json!({"name": {"type": "string"}}));
    assert_eq!(
        pet[1]["properties"],
        json!({"node": {"$ref": "#/$defs/Node"}})
    );
    assert_eq!(pet[1]["required"], json!(["name"]));
    // A readOnly anyOf alternative does not hide the property.
    assert_eq!(
        pet[2]["properties"],
        json!({"alt": {"anyOf": [{"readOnly": true}, {"type": "string"}]}})
    );
    assert_eq!(
        s["$defs"]["Node"]["properties"],
        json!({"next": {"$ref": "#/$defs/Node"}})
    );
}

#[test]
fn refs_percent_encoded_path_items_and_cycles() {
    let mut d = doc(
        "3.0.3",
        json!({
            "/v2/keys/{key_id}": {"get": {"operationId": "get",
                "parameters": [{"name": "key_id", "in": "path", "schema": {"type": "string"}}], "responses": ok()},
                "delete": {"operationId": "del",
                "parameters": [{"$ref": "#/paths/~1v2~1keys~1%7Bkey_id%7D/get/parameters/0"}], "responses": ok()}},
            "/item": {"$ref": "#/components/pathItems/Item"},
            "/loop": {"get": {"operationId": "loop", "responses": {"200": {"description": "", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}},
            "/ext": {"get": {"operationId": "ext", "parameters": [{"name": "x", "in": "query", "schema": {"$ref": "other.yaml#/X"}}], "responses": ok()}}
        }),
    );
    d["components"] = json!({"pathItems": {"Item": {"get": {"operationId": "item", "responses": ok()}}},
                             "schemas": {"A": {"$ref": "#/components/schemas/B"}, "B": {"$ref": "#/components/schemas/A"}}});
    let b = build(d);
    assert_eq!(paths(&b), ["get", "del", "item"]);
    assert_eq!(
        reasons(&b),
        [
            "GET /loop: schema reference '#/components/schemas/A' is cyclic or does not resolve",
            "GET /ext: schema reference 'other.yaml#/X' is external; only local references (#/...) are followed",
        ]
    );
}

#[test]
fn servers_precedence_variables_and_base_url() {
    let d = doc(
        "3.1.0",
        json!({
            "/a": {"servers": [{"url": "https://path.example.com"}],
                   "get": {"operationId": "op", "servers": [{"description": "no url"}, {"url": "https://{env}.example.com/{v}", "variables": {"env": {"default": "eu"}, "v": {"default": "v9"}}}], "responses": ok()},
                   "post": {"operationId": "item", "responses": ok()}},
            "/b": {"get": {"operationId": "doc", "responses": ok()}},
            "/rel": {"get": {"operationId": "rel", "servers": [{"url": "/api"}], "responses": ok()}}
        }),
    );
    let b = build_with(
        d.clone(),
        Options {
            spec_url: Some("https://specs.example.com/x/openapi.json".into()),
            ..Options::default()
        },
    );
    assert_eq!(paths(&b), ["op", "item", "doc", "rel"]);
    let e = from_spec(
        &Document::from_value(d.clone()).unwrap(),
        Options {
            base_url: Some("ftp://x".into()),
            ..Options::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.0, "base URL 'ftp://x' is not an HTTP(S) URL");
    // Without `servers`, the server is `/` of the spec's own URL (FastAPI's /openapi.json has
    // none); without a spec URL that is a skip.
    let bare = json!({"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
        "paths": {"/items": {"get": {"operationId": "items", "responses": ok()}}}});
    let b = build_with(
        bare.clone(),
        Options {
            spec_url: Some("http://127.0.0.1:8000/openapi.json".into()),
            ..Options::default()
        },
    );
    assert_eq!(paths(&b), ["items"]);
    let b = build_with(bare, Options::default());
    assert_eq!(
        b.skipped[0].reason,
        "spec declares no servers; pass baseUrl"
    );
    // Bases are checked on the wire in tests/wire.rs and tests/real_servers.rs.
}

#[test]
fn filters() {
    let d = doc(
        "3.1.0",
        json!({
            "/repos": {"get": {"operationId": "repos/list", "tags": ["repos"], "responses": ok()},
                       "post": {"operationId": "repos/create", "tags": ["repos"], "responses": ok()}},
            "/old": {"get": {"operationId": "old", "deprecated": true, "responses": ok()}},
            "/users": {"delete": {"operationId": "users/delete", "tags": ["users"], "responses": ok()}}
        }),
    );
    let with = |o: Options| paths(&build_with(d.clone(), o));
    assert_eq!(
        with(Options {
            include: vec!["repos/*".into()],
            ..Options::default()
        }),
        ["repos.list", "repos.create"]
    );
    assert_eq!(
        with(Options {
            include: vec!["tag:users".into(), "path:/old".into()],
            ..Options::default()
        }),
        ["old", "users.delete"]
    );
    assert_eq!(
        with(Options {
            exclude: vec!["method:post".into()],
            deprecated: false,
            ..Options::default()
        }),
        ["repos.list", "users.delete"]
    );
    assert_eq!(
        with(Options {
            read_only: true,
            ..Options::default()
        }),
        ["repos.list", "old"]
    );
    let b = build_with(
        d,
        Options {
            read_only: true,
            ..Options::default()
        },
    );
    assert_eq!(b.excluded, 2);
    assert!(b.skipped.is_empty());
}

#[test]
fn output_schema_union_and_no_content() {
    let b = build(doc(
        "3.1.0",
        json!({
            "/a": {"get": {"operationId": "a", "responses": {
                "201": {"description": "", "content": {"application/json": {"schema": {"type": "integer"}}}},
                "200": {"description": "", "content": {"application/json": {"schema": {"type": "string"}}}},
                "204": {"description": "none"},
                "404": {"description": "", "content": {"application/json": {"schema": {"type": "object"}}}}}}},
            "/b": {"get": {"operationId": "b", "responses": {"200": {"description": "", "content": {"application/json": {}}}}}}
        }),
    ));
    let cm = runtime(b);
    assert_eq!(
        cm.tools().get("api.a").unwrap().tool.output_schema(),
        Some(&json!({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}))
    );
    assert_eq!(cm.tools().get("api.b").unwrap().tool.output_schema(), None);
}

#[test]
fn security_schemes_named_like_prototypes_work() {
    let mut d = doc(
        "3.1.0",
        json!({"/a": {"get": {"operationId": "a", "security": [{"__proto__": []}], "responses": ok()}}}),
    );
    d["components"] = json!({"securitySchemes": {"__proto__": {"type": "apiKey", "in": "query", "name": "__proto__"}}});
    assert_eq!(paths(&build(d)), ["a"]);
}

#[test]
fn version_3_2_query_method_and_additional_operations() {
    let b = build(doc(
        "3.2.0",
        json!({"/s": {"query": {"operationId": "search", "responses": ok()},
        "additionalOperations": {"LINK": {"operationId": "link", "responses": ok()}}}}),
    ));
    assert_eq!(
        b.tools
            .iter()
            .map(|t| format!("{} {}", t.method, t.path))
            .collect::<Vec<_>>(),
        ["QUERY search", "LINK link"]
    );
    let b = build(doc(
        "3.1.0",
        json!({"/s": {"query": {"operationId": "search", "responses": ok()}}}),
    ));
    assert!(b.tools.is_empty());
}

#[test]
fn malformed_documents_never_panic() {
    for paths in [
        json!({"/a": 5}),
        json!({"/a": {"get": 5}}),
        json!({"/a": {"get": {"parameters": 5, "responses": ok()}}}),
        json!({"/a": {"get": {"responses": 5}}}),
        json!({"/a": {"get": {"responses": {"200": {"content": 5}}}}}),
        json!({"/a": {"get": {"requestBody": 5, "responses": ok()}}}),
        json!({"/a": {"$ref": "#/paths/~1a"}}),
        json!({"/a": {"get": {"responses": {"200": {"content": {"application/json": {"schema": {"properties": 5, "items": [1, {"$ref": "#/x"}]}}}}}}}}),
    ] {
        let _ = build(doc("3.0.0", paths));
    }
}
