//! Shared by the durable-execution tests of `codemode-lua` and `codemode` (see README.md).

/// The Lua programs of the durable-execution corpus (`tests/durable/*.lua`, shared with the host's tests):
/// realistic tool-calling programs over `orders.get`, `orders.list` and `mail.send`.
#[allow(dead_code)]
pub fn corpus() -> Vec<(String, String)> {
    corpus_of("lua")
}

/// The JavaScript programs of the corpus (`tests/durable/*.js`), over the same three tools.
#[allow(dead_code)]
pub fn corpus_js() -> Vec<(String, String)> {
    corpus_of("js")
}

/// The corpus's programs with extension `ext`, by file name.
fn corpus_of(ext: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/durable");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/durable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("program"))
        })
        .collect()
}

/// The three tools' answer to `call` (for the guests' own tests, which have no host): orders
/// by id, the failure "no such order" for id "bad", `mail.send` (and anything else) echoing
/// its input.
#[allow(dead_code)]
pub fn answer(call: &codemode_guest::HostCall) -> codemode_guest::HostReply {
    use codemode_guest::{HostReply, HostTarget};
    use serde_json::{Value, json};
    let input = call.args.first().cloned().unwrap_or(json!({}));
    match &call.target {
        HostTarget::Tool(p) if p == "orders.list" => {
            HostReply::Value(json!([{"id": "a"}, {"id": "b"}, {"id": "bad"}]))
        }
        HostTarget::Tool(p) if p == "orders.get" => match input["id"].as_str() {
            Some("bad") => HostReply::error(
                codemode_guest::ErrorKind::ToolFailure,
                "no such order",
                vec![],
            ),
            Some(id) => {
                HostReply::Value(json!({"id": id, "total": id.len() * 10, "tags": ["x", id]}))
            }
            None => HostReply::Value(Value::Null),
        },
        _ => HostReply::Value(json!({"ok": true, "echo": input})),
    }
}
