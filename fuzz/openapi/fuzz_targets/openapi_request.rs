//! Fuzz target (issue 16): request building from arbitrary input. One spec declares every
//! parameter location and style and every body kind; the fuzz input (JSON, or else a string)
//! is sent as each tool's input. Validation, encoding (path, query, header, cookie, form and
//! JSON bodies) and auth run before the network; the server (port 9 on loopback) refuses the
//! connection, so each call ends in an ordinary tool failure. Nothing may panic.
#![no_main]

use std::sync::OnceLock;

use codemode::CodeMode;
use codemode_openapi::{Document, Options, from_spec};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn runtime() -> &'static (CodeMode, tokio::runtime::Runtime, Vec<String>) {
    static RT: OnceLock<(CodeMode, tokio::runtime::Runtime, Vec<String>)> = OnceLock::new();
    RT.get_or_init(|| {
        let ok = json!({"200": {"description": "", "content": {"application/json": {"schema": {}}}}});
        let spec = json!({"openapi": "3.1.0", "info": {"title": "F", "version": "1"},
            "servers": [{"url": "http://127.0.0.1:9/base"}],
            "paths": {
                "/p/{simple}/{label}/{matrix}": {"get": {"operationId": "styles",
                    "parameters": [
                        {"name": "simple", "in": "path", "required": true, "schema": {}},
                        {"name": "label", "in": "path", "required": true, "style": "label", "explode": true, "schema": {}},
                        {"name": "matrix", "in": "path", "required": true, "style": "matrix", "schema": {}},
                        {"name": "form", "in": "query", "schema": {}},
                        {"name": "csv", "in": "query", "explode": false, "schema": {}},
                        {"name": "space", "in": "query", "style": "spaceDelimited", "explode": false, "schema": {}},
                        {"name": "pipe", "in": "query", "style": "pipeDelimited", "explode": false, "schema": {}},
                        {"name": "deep", "in": "query", "style": "deepObject", "schema": {}},
                        {"name": "raw", "in": "query", "allowReserved": true, "schema": {}},
                        {"name": "j", "in": "query", "content": {"application/json": {"schema": {}}}},
                        {"name": "x-h", "in": "header", "schema": {}},
                        {"name": "c", "in": "cookie", "schema": {}}],
                    "responses": ok}},
                "/form": {"post": {"operationId": "form",
                    "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {},
                        "encoding": {"m": {"style": "deepObject", "explode": true}}}}},
                    "responses": ok}},
                "/json": {"put": {"operationId": "json",
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {}}}},
                    "responses": ok}},
                "/text": {"post": {"operationId": "text",
                    "requestBody": {"content": {"text/plain": {"schema": {}}}}, "responses": ok}}
            }});
        let built = from_spec(&Document::from_value(spec).unwrap(), Options::default()).unwrap();
        assert!(built.skipped.is_empty(), "{:?}", built.skipped);
        let paths = built.tools.iter().map(|t| format!("api.{}", t.path)).collect();
        let cm = CodeMode::builder()
            .namespace("api", built.namespace)
            .build()
            .unwrap();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        (cm, rt, paths)
    })
}

fuzz_target!(|data: &[u8]| {
    let input: Value = serde_json::from_slice(data)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(data).into_owned()));
    let (cm, rt, paths) = runtime();
    for path in paths {
        let _ = rt.block_on(cm.call_tool(path, input.clone()));
    }
});
