//! Differential tests against node 20: the corpus in `tests/differential/*.js` and generated
//! expression programs run under codemode (`Language::JavaScript`) and under node, and must
//! agree on the value, the logs and the error kind (see `oracle/mod.rs` for what exactly is
//! compared, and `oracle/run.mjs` for how node runs a program under codemode's program model).
//!
//! # The corpus
//! Each file holds the programs of one area. A program starts at a line
//! `// @program <name>` and runs to the next such line; its id is `<file stem>/<name>`. A program
//! that fails under node says so on its marker line: `// @program <name> !<Kind>` or
//! `!ExecutionFailure:<ErrorName>`. Lines before the first marker are the file's description.
//!
//! # Tests
//! - [`corpus_is_valid_under_node`]: the harness itself: ids are unique, node runs every program
//!   without a harness error, and every program ends as its marker says (so a typo cannot turn a
//!   program into a trivial agreement on a ReferenceError).
//! - [`corpus_matches_node`]: runs the corpus under codemode, prints a diff for each program that
//!   disagrees and the pass rate, and fails when a program listed in
//!   `tests/differential/passing.txt` disagrees. The list only grows: `DIFF_UPDATE=1` adds the
//!   programs that now agree (it never removes one).
//! - [`expressions_match_node`]: a property test: generated expression programs (operators,
//!   coercions, number printing and formatting) must agree with node. Skipped, loudly, while the
//!   build has no JavaScript guest. `PROPTEST_CASES` sets the number of cases.
//!
//! Environment: `DIFF_FILTER=<part of an id>` runs a subset of the corpus; `DIFF_VERBOSE=1` prints
//! the source of each disagreeing program too; `NODE=<path>` picks the node binary.

mod oracle;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use oracle::{Engine, Node, Outcome, compare};
use proptest::prelude::*;

/// Wall-clock bound per program under codemode.
const TIMEOUT_MS: u64 = 5_000;

/// One corpus program.
struct Program {
    id: String,
    file: PathBuf,
    /// 1-based line of the marker.
    line: usize,
    /// `None`: must succeed; else `Kind` or `ExecutionFailure:Name`.
    expect: Option<String>,
    source: String,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential")
}

fn passing_path() -> PathBuf {
    corpus_dir().join("passing.txt")
}

/// Every program of every `*.js` file, files in name order.
fn load_corpus() -> Vec<Program> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/differential exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "js"))
        .collect();
    files.sort();
    let mut out: Vec<Program> = Vec::new();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&file).expect("read corpus file");
        let mut current: Option<Program> = None;
        for (i, line) in text.lines().enumerate() {
            if let Some(rest) = line.strip_prefix("// @program ") {
                out.extend(current.take());
                let mut parts = rest.split_whitespace();
                let name = parts.next().unwrap_or_else(|| {
                    panic!("{}:{}: a @program line needs a name", file.display(), i + 1)
                });
                let expect = parts.next().map(|m| {
                    m.strip_prefix('!')
                        .unwrap_or_else(|| {
                            panic!("{}:{}: expected `!Kind`, got {m}", file.display(), i + 1)
                        })
                        .to_string()
                });
                assert!(
                    parts.next().is_none(),
                    "{}:{}: trailing words on the @program line",
                    file.display(),
                    i + 1
                );
                current = Some(Program {
                    id: format!("{stem}/{name}"),
                    file: file.clone(),
                    line: i + 1,
                    expect,
                    source: String::new(),
                });
            } else if let Some(p) = current.as_mut() {
                p.source.push_str(line);
                p.source.push('\n');
            }
        }
        out.extend(current);
    }
    out
}

fn filtered(corpus: Vec<Program>) -> Vec<Program> {
    match std::env::var("DIFF_FILTER") {
        Ok(f) if !f.is_empty() => corpus.into_iter().filter(|p| p.id.contains(&f)).collect(),
        _ => corpus,
    }
}

fn read_passing() -> BTreeSet<String> {
    std::fs::read_to_string(passing_path())
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

const PASSING_HEADER: &str = "# Corpus programs (tests/differential/<file>/<name>) that agree with node.\n\
# corpus_matches_node fails when one of them disagrees. The list only grows:\n\
# DIFF_UPDATE=1 cargo test -p codemode-js --test differential adds the programs that now agree.\n";

/// Runs the corpus under node; panics on a harness error. One outcome per program.
fn node_outcomes(corpus: &[Program]) -> Vec<Outcome> {
    let mut node = Node::start().unwrap_or_else(|e| panic!("{e}"));
    let sources: Vec<&str> = corpus.iter().map(|p| p.source.as_str()).collect();
    let results = node.run(&sources).unwrap_or_else(|e| panic!("{e}"));
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for (p, r) in corpus.iter().zip(results) {
        match r {
            Ok(o) => out.push(o),
            Err(e) => {
                errors.push(format!("{} ({}:{}): {e}", p.id, p.file.display(), p.line));
                out.push(Outcome::Error {
                    kind: "Harness".into(),
                    name: None,
                    message: e,
                    logs: vec![],
                });
            }
        }
    }
    assert!(
        errors.is_empty(),
        "harness errors under node:\n{}",
        errors.join("\n")
    );
    out
}

#[test]
fn corpus_is_valid_under_node() {
    let corpus = load_corpus();
    assert!(
        corpus.len() >= 300,
        "the corpus has {} programs",
        corpus.len()
    );
    let mut ids = BTreeSet::new();
    for p in &corpus {
        assert!(ids.insert(p.id.clone()), "duplicate program id {}", p.id);
    }
    let passing = read_passing();
    let unknown: Vec<&String> = passing.iter().filter(|id| !ids.contains(*id)).collect();
    assert!(
        unknown.is_empty(),
        "passing.txt names programs that do not exist: {unknown:?}"
    );
    let outcomes = node_outcomes(&corpus);
    let mut wrong = Vec::new();
    for (p, o) in corpus.iter().zip(&outcomes) {
        let got = o.failure_marker();
        if got != p.expect {
            wrong.push(format!(
                "{} ({}:{}): the marker says {}, node gives {}",
                p.id,
                p.file.display(),
                p.line,
                p.expect
                    .as_deref()
                    .map_or("success".to_string(), |e| format!("!{e}")),
                o.summary()
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn corpus_matches_node() {
    let corpus = filtered(load_corpus());
    let expected = node_outcomes(&corpus);
    let engine = Engine::new(TIMEOUT_MS);
    if let Some(e) = engine.unavailable() {
        eprintln!(
            "differential: codemode has no JavaScript guest in this build ({e}); every program disagrees"
        );
    }
    let verbose = std::env::var("DIFF_VERBOSE").is_ok_and(|v| v == "1");
    let passing = read_passing();
    let mut agree = Vec::new();
    let mut regressions = Vec::new();
    let mut report = String::new();
    for (p, exp) in corpus.iter().zip(&expected) {
        let actual = engine.run(&p.source);
        let diffs = compare(exp, &actual);
        if diffs.is_empty() {
            agree.push(p.id.clone());
            continue;
        }
        let listed = passing.contains(&p.id);
        if listed {
            regressions.push(p.id.clone());
        }
        report.push_str(&format!(
            "--- {}{} ({}:{})\n",
            p.id,
            if listed {
                "  [REGRESSION: listed in passing.txt]"
            } else {
                ""
            },
            p.file.display(),
            p.line
        ));
        for d in &diffs {
            report.push_str(&format!("  {d}\n"));
        }
        if verbose {
            for l in p.source.lines() {
                report.push_str(&format!("  | {l}\n"));
            }
        }
    }
    eprint!("{report}");
    let n = corpus.len();
    eprintln!(
        "differential: {} of {n} programs agree with node ({:.1}%), {} listed in passing.txt",
        agree.len(),
        100.0 * agree.len() as f64 / n.max(1) as f64,
        passing.len()
    );
    let new: Vec<&String> = agree.iter().filter(|id| !passing.contains(*id)).collect();
    if !new.is_empty() {
        if std::env::var("DIFF_UPDATE").is_ok_and(|v| v == "1") {
            let mut all = passing.clone();
            all.extend(new.iter().map(|s| s.to_string()));
            let mut text = PASSING_HEADER.to_string();
            for id in &all {
                text.push_str(id);
                text.push('\n');
            }
            std::fs::write(passing_path(), text).expect("write passing.txt");
            eprintln!("differential: added {} programs to passing.txt", new.len());
        } else {
            eprintln!(
                "differential: {} programs agree but are not in passing.txt; record them with DIFF_UPDATE=1",
                new.len()
            );
        }
    }
    assert!(
        regressions.is_empty(),
        "{} programs listed in passing.txt disagree with node: {}",
        regressions.len(),
        regressions.join(", ")
    );
}

/// The comparison itself: what counts as agreement.
#[test]
fn comparison_rules() {
    use serde_json::json;
    let value = |v: serde_json::Value, logs: &[&str]| Outcome::Value {
        value: v,
        logs: logs.iter().map(|s| s.to_string()).collect(),
    };
    let error = |kind: &str, name: Option<&str>, message: &str| Outcome::Error {
        kind: kind.into(),
        name: name.map(str::to_string),
        message: message.into(),
        logs: vec![],
    };
    // Numbers by value: 1 and 1.0 agree; key order matters.
    assert!(compare(&value(json!([1, 2.5]), &[]), &value(json!([1.0, 2.5]), &[])).is_empty());
    assert_eq!(
        compare(
            &value(json!({"a": 1, "b": 2}), &[]),
            &value(json!({"b": 2, "a": 1}), &[])
        )
        .len(),
        1
    );
    assert_eq!(
        compare(
            &value(json!(null), &["x"]),
            &value(json!(null), &["x", "y"])
        )
        .len(),
        1
    );
    assert_eq!(
        compare(&value(json!("1"), &[]), &value(json!(1), &[])).len(),
        1
    );
    // Errors: the kind, and the Error's name read from codemode's message.
    let cm = Outcome::from_codemode(
        &json!({"ok": false, "error": {"kind": "ExecutionFailure", "message": "TypeError: x is not a function (line 1, col 1)"}}),
    );
    assert!(
        compare(
            &error("ExecutionFailure", Some("TypeError"), "TypeError: boom"),
            &cm
        )
        .is_empty()
    );
    assert_eq!(
        compare(
            &error("ExecutionFailure", Some("RangeError"), "RangeError: r"),
            &cm
        )
        .len(),
        1
    );
    assert_eq!(
        compare(&error("ParseError", Some("SyntaxError"), "x"), &cm).len(),
        1
    );
    assert!(compare(&error("ExecutionFailure", None, "Uncaught: 7"), &cm).is_empty());
    assert_eq!(compare(&value(json!(null), &[]), &cm).len(), 1);
    assert_eq!(
        oracle::error_name("Uncaught TypeError: x"),
        Some("TypeError")
    );
    assert_eq!(oracle::error_name("Uncaught: {\"a\":1}"), None);
    assert_eq!(oracle::error_name("Test262Error"), Some("Test262Error"));
    assert_eq!(oracle::error_name("not a name: x"), None);
}

// ---------------------------------------------------------------------------------------------
// Generated expression programs.

/// Leaves: literals whose coercions are interesting.
fn leaf() -> impl Strategy<Value = String> {
    prop_oneof![
        (-1000i32..1000).prop_map(|n| n.to_string()),
        prop::sample::select(vec![
            "0",
            "-0",
            "1",
            "-1",
            "0.1",
            "0.2",
            "1.5",
            "-2.5",
            "1e21",
            "1e-7",
            "123.456",
            "2e-323",
            "9007199254740993",
            "4294967296",
            "2147483648",
            "0.000001",
            "1.7976931348623157e308",
            "5e-324",
            "NaN",
            "Infinity",
            "-Infinity",
            "0x1f",
            "0b101",
            "0o17",
            "1_000",
        ])
        .prop_map(str::to_string),
        prop::sample::select(vec![
            "\"\"",
            "\"0\"",
            "\"1\"",
            "\"-0\"",
            "\" 12 \"",
            "\"1.5\"",
            "\"abc\"",
            "\"0x10\"",
            "\"1e3\"",
            "\"Infinity\"",
            "\"10\"",
            "\"9\"",
            "\"\\t\\n\"",
            "\"true\"",
            "\"null\"",
        ])
        .prop_map(str::to_string),
        prop::sample::select(vec![
            "true",
            "false",
            "null",
            "undefined",
            "[]",
            "[0]",
            "[1, 2]",
            "[[3]]",
            "[null]",
            "{}",
            "({ valueOf() { return 7; } })",
            "({ toString() { return \"8\"; } })",
            "({ valueOf() { return \"9\"; }, toString() { return \"x\"; } })",
            "({ [Symbol.toPrimitive](h) { return h === \"number\" ? 4 : \"p\" + h; } })",
        ])
        .prop_map(str::to_string),
    ]
}

fn expr() -> impl Strategy<Value = String> {
    leaf().prop_recursive(4, 24, 2, |inner| {
        let binop = prop::sample::select(vec![
            "+", "-", "*", "/", "%", "**", "==", "!=", "===", "!==", "<", "<=", ">", ">=", "&",
            "|", "^", "<<", ">>", ">>>", "&&", "||", "??", ",",
        ]);
        let unop = prop::sample::select(vec!["-", "+", "!", "~", "typeof ", "void "]);
        let call = prop::sample::select(vec![
            "String",
            "Number",
            "Boolean",
            "parseInt",
            "parseFloat",
            "isNaN",
            "isFinite",
            "Math.round",
            "Math.floor",
            "Math.sign",
            "Math.abs",
            "Math.trunc",
            "Object.is.bind(null, 0)",
        ]);
        prop_oneof![
            (inner.clone(), binop, inner.clone())
                .prop_map(|(a, op, b)| format!("({a}) {op} ({b})")),
            (unop, inner.clone()).prop_map(|(op, a)| format!("{op}({a})")),
            (call, inner.clone()).prop_map(|(f, a)| format!("{f}({a})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, a, b)| format!("({c}) ? ({a}) : ({b})")),
            (inner.clone(), 0u32..=20).prop_map(|(a, d)| format!("Number({a}).toFixed({d})")),
            (inner.clone(), 1u32..=21).prop_map(|(a, d)| format!("Number({a}).toPrecision({d})")),
            (inner.clone(), 0u32..=20).prop_map(|(a, d)| format!("Number({a}).toExponential({d})")),
            (inner.clone(), 2u32..=36).prop_map(|(a, r)| format!("Number({a}).toString({r})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("`${{{a}}}|${{{b}}}`")),
        ]
    })
}

/// A program printing the expression's value three ways: as data, as `String`, and its type.
fn expression_program(e: &str) -> String {
    format!(
        "const v = ({e});\nconsole.log(typeof v === \"object\" && v !== null ? \"object\" : v);\nreturn [typeof v, typeof v === \"symbol\" ? \"symbol\" : String(v), v];\n"
    )
}

fn shared_node() -> &'static Mutex<Node> {
    static NODE: OnceLock<Mutex<Node>> = OnceLock::new();
    NODE.get_or_init(|| Mutex::new(Node::start().unwrap_or_else(|e| panic!("{e}"))))
}

#[test]
fn expressions_match_node() {
    let engine = Engine::new(TIMEOUT_MS);
    let unavailable = engine.unavailable().map(str::to_string);
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let result = runner.run(&expr(), |e| {
        let source = expression_program(&e);
        let expected = {
            let mut node = shared_node().lock().unwrap_or_else(|p| p.into_inner());
            let mut r = node.run(&[&source]).map_err(TestCaseError::fail)?;
            r.pop().unwrap().map_err(TestCaseError::fail)?
        };
        if expected
            .failure_marker()
            .is_some_and(|m| m.starts_with("ParseError"))
        {
            return Err(TestCaseError::fail(format!(
                "the generator made a program node cannot parse:\n{source}"
            )));
        }
        if unavailable.is_some() {
            // Only the generator and the node side are checked.
            return Ok(());
        }
        let actual = engine.run(&source);
        let diffs = compare(&expected, &actual);
        prop_assert!(diffs.is_empty(), "program:\n{source}\n{}", diffs.join("\n"));
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    if let Some(e) = unavailable {
        eprintln!(
            "SKIPPED the comparison in expressions_match_node: codemode has no JavaScript guest in this build ({e}); \
             the generated programs ran under node only"
        );
    }
}
