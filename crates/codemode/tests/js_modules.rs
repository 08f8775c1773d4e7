//! End-to-end: JavaScript modules over extension globals (feature `js`): `import`,
//! `require`, `import()` and TypeScript's `import x = require()` by Node module name, and the
//! errors for what does not exist.
#![cfg(feature = "js")]

use codemode::{CodeMode, DiagnosticKind, Extension, Language};
use serde_json::{Value, json};

/// An `fs` extension: `fs.readFile(path)` (synchronous), `fs.promises.readFile(path)`
/// (asynchronous), both answering `"text of <path>"`; and a `hashing.hash(s)` global.
fn runtime() -> CodeMode {
    let read = |args: Vec<Value>| async move {
        Ok(json!(format!(
            "text of {}",
            args.first().and_then(Value::as_str).unwrap_or("?")
        )))
    };
    CodeMode::builder()
        .language(Language::JavaScript)
        .extension(
            Extension::new("fs")
                .function("readFile", read)
                .async_function("promises.readFile", read),
        )
        .extension(
            Extension::new("hashing").function("hash", |args: Vec<Value>| async move {
                Ok(json!(
                    args.first().and_then(Value::as_str).map_or(0, str::len)
                ))
            }),
        )
        .build()
        .unwrap()
}

async fn value(cm: &CodeMode, src: &str) -> Value {
    let r = cm.execute(src).await;
    match r.value() {
        Some(v) => v.clone(),
        None => panic!("{src}\n{}", r.to_json_string()),
    }
}

#[tokio::test]
async fn imports_resolve_node_names_to_the_extension_globals() {
    let cm = runtime();
    let cases = [
        (
            "import fs, { readFile } from \"node:fs\";\nreturn [fs === globalThis.fs, readFile('a'), fs.readFile('b')];",
            json!([true, "text of a", "text of b"]),
        ),
        (
            "import { readFile as rf } from 'fs/promises';\nreturn await rf('c');",
            json!("text of c"),
        ),
        (
            "import * as ns from 'fs';\nreturn [ns.default === fs, typeof ns.readFile, Object.isFrozen(ns)];",
            json!([true, "function", true]),
        ),
        (
            "const m = require('hashing');\nconst p = require('fs').promises;\nreturn [m.hash('abcd'), await p.readFile('d')];",
            json!([4, "text of d"]),
        ),
        (
            // A standard global of the module's name: the built-in `crypto`.
            "import { randomUUID } from 'node:crypto';\nreturn [typeof randomUUID, require('crypto') === crypto, randomUUID().length];",
            json!(["function", true, 36]),
        ),
        (
            "const { default: same, readFile } = await import('fs');\nreturn [same === fs, readFile('e')];",
            json!([true, "text of e"]),
        ),
        (
            "import fs = require('fs');\nreturn fs.readFile('f');",
            json!("text of f"),
        ),
        (
            // Imports run before the first statement; a type-only import vanishes.
            "const early = readFile('g');\nimport type { Stats } from 'fs';\nimport { readFile } from 'fs';\nreturn early;",
            json!("text of g"),
        ),
        (
            "import 'fs';\nimport { hash } from 'hashing';\nconst f = () => hash('xyz');\nreturn f();",
            json!(3),
        ),
    ];
    for (src, want) in cases {
        assert_eq!(value(&cm, src).await, want, "{src}");
    }
}

#[tokio::test]
async fn what_does_not_exist_is_named_with_what_does() {
    let cm = runtime();
    let r = cm
        .execute("import _ from 'lodash';\nreturn _.chunk([1, 2], 1);")
        .await;
    let e = r.error().expect("an error");
    assert_eq!(e.kind, DiagnosticKind::ExecutionFailure);
    assert!(
        e.message.starts_with("Error: Cannot find module 'lodash'"),
        "{}",
        e.message
    );
    assert!(
        e.message
            .contains("the modules here are fs, hashing, crypto, fs/promises"),
        "{}",
        e.message
    );
    assert_eq!(
        e.location.map(|l| l.line),
        Some(1),
        "{}",
        r.to_json_string()
    );
    // Caught, it is node's error: the message and the code.
    assert_eq!(
        value(
            &cm,
            "try { require('left-pad') } catch (e) { return [e.message, e.code] }"
        )
        .await,
        json!(["Cannot find module 'left-pad'", "MODULE_NOT_FOUND"])
    );
    // import() rejects instead of throwing.
    assert_eq!(
        value(
            &cm,
            "return await import('nope').then(() => 'loaded', e => e.code);"
        )
        .await,
        json!("MODULE_NOT_FOUND")
    );
    let r = cm
        .execute("import { readFil } from 'fs';\nreturn readFil('a');")
        .await;
    let e = r.error().expect("an error");
    assert!(
        e.message.starts_with(
            "SyntaxError: The requested module 'fs' does not provide an export named 'readFil'"
        ),
        "{}",
        e.message
    );
    assert!(e.message.contains("readFile"), "{}", e.message);
    assert_eq!(
        e.suggestions,
        vec!["readFile".to_string()],
        "{}",
        r.to_json_string()
    );
    let r = cm.execute("const x = require(42);").await;
    assert!(
        r.error()
            .unwrap()
            .message
            .starts_with("TypeError: The \"id\" argument must be of type string. Received 42"),
        "{}",
        r.to_json_string()
    );
    // No `export`.
    let r = cm.execute("export const a = 1;").await;
    assert_eq!(r.error().unwrap().kind, DiagnosticKind::UnsupportedSyntax);
}

#[tokio::test]
async fn without_extensions_no_module_exists() {
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .build()
        .unwrap();
    let r = cm.execute("import fs from 'fs';\nreturn 1;").await;
    let e = r.error().expect("an error");
    assert!(
        e.message.contains("Cannot find module 'fs'"),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("provides none") || e.message.contains("modules here are"),
        "{}",
        e.message
    );
}
