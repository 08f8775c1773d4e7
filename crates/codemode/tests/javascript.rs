//! End-to-end: JavaScript programs through `CodeMode::execute` (feature `js`).
#![cfg(feature = "js")]

use codemode::{CodeMode, Language};

async fn run(src: &str) -> String {
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .build()
        .unwrap();
    cm.execute(src).await.to_json_string()
}

#[tokio::test]
async fn a_program_returns_data_and_logs() {
    let r = run("const rows = [{n: 'a', v: 2}, {n: 'b', v: 1}];\nconsole.log('rows', rows.length);\nreturn rows.sort((x, y) => x.v - y.v).map(r => r.n)").await;
    assert_eq!(
        r,
        r#"{"ok":true,"value":["b","a"],"logs":["rows 2"],"toolCalls":[]}"#
    );
}

#[tokio::test]
async fn the_trailing_expression_is_the_value_and_no_value_warns() {
    let r = run("const x = 20; x + 22").await;
    assert_eq!(r, r#"{"ok":true,"value":42,"toolCalls":[]}"#);
    let r = run("const x = 1").await;
    assert!(r.contains(r#""kind":"NoReturn""#), "{r}");
}

#[tokio::test]
async fn errors_are_located() {
    let r = run("// comment only").await;
    assert!(r.contains(r#""kind":"ParseError""#), "{r}");
    let r = run("const a = 1;\n  a.b.c").await;
    assert!(r.contains(r#""kind":"ExecutionFailure""#), "{r}");
    assert!(
        r.contains("TypeError: Cannot read properties of undefined (reading 'c')"),
        "{r}"
    );
    assert!(r.contains(r#""location":{"line":2,"column":7}"#), "{r}");
}
