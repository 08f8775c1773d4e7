//! Extensions: host functions as Lua globals. Calls, copies under the data rules, errors,
//! counting, deadlines, and the name checks at build time.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode::{BuildError, CodeMode, DiagnosticKind, Extension, Limits, Tool, ToolError};
use serde_json::{Value, json};

fn echo_ext(name: &str) -> Extension {
    Extension::new(name).function(
        "echo",
        |args: Vec<Value>| async move { Ok(Value::Array(args)) },
    )
}

fn fs_like(seen: Arc<Mutex<Vec<Vec<Value>>>>) -> Extension {
    let s = seen.clone();
    Extension::new("fs")
        .function("read", move |args: Vec<Value>| {
            let s = s.clone();
            async move {
                s.lock().unwrap().push(args.clone());
                match args.first().and_then(Value::as_str) {
                    Some("notes.txt") => Ok(json!("hello")),
                    Some(other) => Err(ToolError::new(format!(
                        "fs.read: no file '{other}'; list files with fs.dir.list()"
                    ))),
                    None => Err(ToolError::new("fs.read(path) needs a path string")),
                }
            }
        })
        .function("dir.list", |_| async move {
            Ok(json!([{"name": "notes.txt", "type": "file", "size": 5}]))
        })
        .function("secret", |_| async move {
            Err::<Value, _>(ToolError::internal(std::io::Error::other("token=abc")))
        })
        .function("panics", |_| async move {
            if true {
                panic!("extension bug");
            }
            Ok(Value::Null)
        })
        .function("hang", |_| async move {
            futures::future::pending::<()>().await;
            Ok(Value::Null)
        })
}

fn runtime(limits: Limits) -> (CodeMode, Arc<Mutex<Vec<Vec<Value>>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let fetch = Extension::global_function("fetch", |args: Vec<Value>| async move {
        Ok(json!({"url": args.first().cloned().unwrap_or(Value::Null), "status": 200}))
    });
    let cm = CodeMode::builder()
        .tool(
            "orders.list",
            Tool::new("List orders.", json!({}), |_| async move { Ok(json!([])) }),
        )
        .extension(fs_like(seen.clone()))
        .extension(fetch)
        .extension(echo_ext("util"))
        .limits(limits)
        .build()
        .unwrap();
    (cm, seen)
}

#[tokio::test]
async fn functions_nested_tables_and_global_functions() {
    let (cm, _) = runtime(Limits::default());
    assert_eq!(
        cm.extension_paths(),
        [
            "fetch",
            "fs.dir.list",
            "fs.hang",
            "fs.panics",
            "fs.read",
            "fs.secret",
            "util.echo"
        ]
    );
    let r = cm
        .execute(
            r#"
            local text = fs.read("notes.txt")
            local entries = fs.dir.list()
            local res = fetch("https://example.com")
            return { text, entries[1].name, entries[1].size, res.status, res.url, type(fs), type(fetch) }
            "#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            "hello",
            "notes.txt",
            5,
            200,
            "https://example.com",
            "table",
            "function"
        ])),
        "{}",
        r.to_json_string()
    );
    // Extension calls are listed like tool calls, their arguments as an array.
    let listed: Vec<(&str, &Value)> = r
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), &c.input))
        .collect();
    assert_eq!(
        listed,
        vec![
            ("fs.read", &json!(["notes.txt"])),
            ("fs.dir.list", &json!([])),
            ("fetch", &json!(["https://example.com"]))
        ]
    );
}

#[tokio::test]
async fn arguments_and_results_cross_as_copies() {
    let (cm, seen) = runtime(Limits::default());
    let r = cm
        .execute(
            r#"
            local t = { a = 1, list = { 1, 2.5, "x" }, empty = json.array(), n = json.null }
            local ok = pcall(fs.read, t, 2, nil, true)
            local back = util.echo(t, "s")
            back[1].a = 99          -- a copy: t is unchanged
            return { t.a, back[1].list[2], back[2], #back }
            "#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([1, 2.5, "s", 2])),
        "{}",
        r.to_json_string()
    );
    // The host saw a JSON copy, trailing nil dropped, inner nil kept as null.
    assert_eq!(
        seen.lock().unwrap()[0],
        vec![
            json!({"a": 1, "list": [1, 2.5, "x"], "empty": [], "n": null}),
            json!(2),
            Value::Null,
            json!(true)
        ]
    );
}

#[tokio::test]
async fn values_that_cannot_cross_fail_before_the_host() {
    let (cm, seen) = runtime(Limits::default());
    let r = cm.execute("return fs.read(function() end)").await;
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::InvalidDataValue,
        "{}",
        r.to_json_string()
    );
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn host_errors_are_catchable_execution_failures() {
    let (cm, _) = runtime(Limits::default());
    let r = cm
        .execute(
            r#"
            local ok1, e1 = pcall(fs.read, "missing.txt")
            local ok2, e2 = pcall(fs.secret)
            local ok3, e3 = pcall(fs.panics)
            return { ok1, e1, ok2, e2, ok3, e3 }
            "#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "fs.read: no file 'missing.txt'; list files with fs.dir.list()",
            false,
            "Extension function 'fs.secret' failed.",
            false,
            "Extension function 'fs.panics' failed."
        ])),
        "{}",
        r.to_json_string()
    );
    let r = cm.execute("return fs.read()").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert_eq!(e.message, "fs.read(path) needs a path string");
}

#[tokio::test]
async fn extension_calls_count_against_max_tool_calls() {
    let (cm, _) = runtime(Limits::default().with_max_tool_calls(3).unwrap());
    let r = cm
        .execute("util.echo() tools.orders.list() util.echo() util.echo() return 1")
        .await;
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::ToolCallLimitExceeded
    );
    // Every counted attempt but the one past the limit is listed.
    let names: Vec<&str> = r.tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["util.echo", "orders.list", "util.echo"]);
}

#[tokio::test]
async fn a_hanging_extension_times_out() {
    let (cm, _) = runtime(Limits::default().with_timeout_ms(80).unwrap());
    let t = std::time::Instant::now();
    let r = cm.execute("return fs.hang()").await;
    assert!(t.elapsed() < Duration::from_secs(2));
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
}

#[tokio::test]
async fn extensions_are_not_in_search() {
    let (cm, _) = runtime(Limits::default());
    let v = cm.search(&json!({"query": "read"})).unwrap();
    assert_eq!(v["items"], json!([]));
    let r = cm.execute("return tools.fs").await;
    assert_eq!(r.value(), Some(&Value::Null), "{}", r.to_json_string());
}

fn build_err(exts: Vec<Extension>) -> BuildError {
    let mut b = CodeMode::builder();
    for e in exts {
        b = b.extension(e);
    }
    b.build().unwrap_err()
}

#[test]
fn built_in_globals_cannot_be_shadowed() {
    for name in [
        "tools", "search", "json", "string", "table", "math", "utf8", "print", "pairs", "require",
        "io", "os", "_G", "_ENV",
    ] {
        let e = build_err(vec![echo_ext(name)]);
        assert_eq!(
            e,
            BuildError::ReservedGlobal {
                extension: name.into(),
                global: name.into()
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "extension '{name}' would shadow the built-in global '{name}'; choose another name"
            )
        );
    }
    let e = build_err(vec![Extension::global_function("print", |_| async move {
        Ok(Value::Null)
    })]);
    assert!(matches!(e, BuildError::ReservedGlobal { .. }));
}

#[test]
fn two_extensions_cannot_share_a_global() {
    let e = build_err(vec![
        echo_ext("fs"),
        Extension::new("fs").function("read", |_| async move { Ok(Value::Null) }),
    ]);
    assert_eq!(
        e.to_string(),
        "extension 'fs': the global 'fs' is already defined by extension 'fs'"
    );
}

#[test]
fn a_path_cannot_be_both_function_and_table() {
    let f = |_: Vec<Value>| async move { Ok(Value::Null) };
    let e = build_err(vec![
        Extension::new("fs")
            .function("dir", f)
            .function("dir.list", f),
    ]);
    assert_eq!(
        e.to_string(),
        "extension 'fs': 'fs.dir' is a function, so it cannot also hold 'fs.dir.list'"
    );
    let e = build_err(vec![
        Extension::new("fs")
            .function("dir.list", f)
            .function("dir", f),
    ]);
    assert_eq!(
        e.to_string(),
        "extension 'fs': 'fs.dir' is a function, so it cannot also hold 'fs.dir.list'"
    );
    let e = build_err(vec![
        Extension::new("fs").function("read", f).function("read", f),
    ]);
    assert_eq!(e.to_string(), "extension 'fs': 'fs.read' is defined twice");
}

#[test]
fn names_must_be_lua_names() {
    let f = |_: Vec<Value>| async move { Ok(Value::Null) };
    for (ext, func, path) in [
        ("1fs", "read", "1fs"),
        ("my-fs", "read", "my-fs"),
        ("end", "read", "end"),
        ("fs", "re ad", "fs.re ad"),
        ("fs", "a..b", "fs.a..b"),
        ("fs", "then", "fs.then"),
    ] {
        let e = build_err(vec![Extension::new(ext).function(func, f)]);
        assert_eq!(
            e,
            BuildError::InvalidExtensionName {
                extension: ext.into(),
                path: path.into()
            },
            "{ext} {func}"
        );
    }
    assert_eq!(
        build_err(vec![Extension::new("fs")]).to_string(),
        "extension 'fs' has no functions; add some with .function(name, handler)"
    );
}

#[tokio::test]
async fn reserved_list_covers_every_global_the_interpreter_installs() {
    let cm = CodeMode::builder().build().unwrap();
    let r = cm
        .execute("local t = {} for k in pairs(_G) do t[#t + 1] = k end table.sort(t) return t")
        .await;
    let globals = r.value().unwrap().as_array().unwrap().clone();
    assert!(globals.len() > 20, "{globals:?}");
    let reserved = cm.reserved_globals();
    for g in globals {
        let g = g.as_str().unwrap();
        assert!(
            reserved.iter().any(|r| r == g),
            "global '{g}' is missing from the reserved globals"
        );
    }
    // And the standard globals the sandbox leaves out.
    for g in [
        "io",
        "os",
        "require",
        "load",
        "package",
        "warn",
        "coroutine",
        "debug",
        "_ENV",
    ] {
        assert!(reserved.iter().any(|r| r == g), "{g}");
    }
}
