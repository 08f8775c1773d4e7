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
    // An error thrown inside a builtin is located at the call, not at the expression around it.
    let r = run("const x = 1;\nconst out = [x, foo(x, JSON.parse('{'))];\nfunction foo() {}").await;
    assert!(r.contains("SyntaxError"), "{r}");
    assert!(r.contains(r#""location":{"line":2,"column":24}"#), "{r}");
}

/// `s += piece` in a loop costs each append its piece (a rope, written out once when read):
/// 10^5 appended lines and 10^6 one-character appends under the default limits, with node's
/// values (they took 20 s and ran out of time before).
#[tokio::test]
async fn strings_built_by_appending_cost_each_append_its_piece() {
    let r = run(r#"let s = "";
for (let i = 0; i < 100000; i++) s += "line " + i + "\n";
let t = "";
for (let i = 0; i < 1000000; i++) t += i % 10;
return [s.length, s.slice(-10), t.length, t.slice(999990), s.split("\n").length, s.indexOf("line 99999")];"#).await;
    assert_eq!(
        r,
        r#"{"ok":true,"value":[1088890,"ine 99999\n",1000000,"0123456789",100001,1088879],"toolCalls":[]}"#
    );
}

/// An error thrown inside a `for…of` body or an async function is located where it was
/// thrown, not where the loop closed its iterator or the caller awaited the rejection (node's
/// places). A value thrown again while one of the last `MAX_THROW_ORIGINS` (8) thrown keeps its
/// first place; an older one is located at its new throw.
#[tokio::test]
async fn errors_keep_their_first_throw_site() {
    let at = |r: &str| {
        let i = r.find(r#""location":"#).expect("a location");
        r[i..].split('}').next().unwrap().to_string()
    };
    let r = run("const orders = [{ items: [1] }, { id: 2 }];\nlet n = 0;\nfor (const o of orders) {\n  n += o.items.length;\n}\nreturn n;").await;
    assert_eq!(at(&r), r#""location":{"line":4,"column":16"#, "{r}");
    let r = run(
        "async function f(o) {\n  return o.items.length;\n}\nconst v = await f({});\nreturn v;",
    )
    .await;
    assert_eq!(at(&r), r#""location":{"line":2,"column":18"#, "{r}");
    let r = run("const rows = await Promise.all([1, 2].map(async (id) => {\n  const rec = id === 2 ? undefined : { id };\n  return rec.id;\n}));\nreturn rows;").await;
    assert_eq!(at(&r), r#""location":{"line":3,"column":14"#, "{r}");
    // Rethrown after 7 and after 8 other throws: kept, then forgotten.
    let rethrow = |k: usize| {
        format!(
            "let first;\ntry {{ throw new Error('first'); }} catch (e) {{ first = e; }}\nfor (let i = 0; i < {k}; i++) {{ try {{ throw new Error('x' + i); }} catch {{}} }}\nthrow first;"
        )
    };
    let r = run(&rethrow(7)).await;
    assert_eq!(at(&r), r#""location":{"line":2,"column":7"#, "{r}");
    let r = run(&rethrow(8)).await;
    assert_eq!(at(&r), r#""location":{"line":4,"column":1"#, "{r}");
}

/// A 10 MB log (130,000 lines) under the default limits: every regex and string operation is
/// linear in the text it goes over (a builtin shares its receiver's units, a search is charged
/// for the span it scanned), so none of them runs out of time or instructions. The values are
/// node's.
#[tokio::test]
async fn a_ten_megabyte_string_is_worked_through_under_default_limits() {
    let src = r#"const line = '127.0.0.1 - - [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326\n';
const s = line.repeat(130000);
const lines = s.split(/\n/);
const replaced = s.replace(/GET/g, "get");
let bytes = 0;
for (const m of s.matchAll(/(?<code>\d{3}) (?<size>\d+)\n/g)) bytes += +m.groups.size;
let slices = 0;
for (let i = 0; i < s.length; i += line.length) if (s.slice(i, i + 3) === "127") slices++;
let found = 0;
for (let at = s.indexOf("GET"); at >= 0; at = s.indexOf("GET", at + 1)) found++;
const re = /HTTP\/(\d)\.(\d)/g;
let versions = 0;
while (re.exec(s)) versions++;
return [s.length, lines.length, replaced.indexOf("get"), replaced.lastIndexOf("GET"), bytes, slices, found, versions];"#;
    let r = run(src).await;
    assert_eq!(
        r,
        r#"{"ok":true,"value":[10660000,130001,44,-1,302380000,130000,130000,130000],"toolCalls":[]}"#
    );
}
