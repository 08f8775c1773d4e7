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
//!   coercions, number printing and formatting) must agree with node, for the features listed in
//!   `tests/differential/expression-features.txt` (a list that only grows; `EXPR_PROBE=1` shows
//!   how each feature fares, `EXPR_FEATURES=all` or a comma list overrides the file). The
//!   generator over every feature is always run under node alone, so the harness stays checked
//!   while the list is short. `PROPTEST_CASES` sets the number of cases.
//! - [`comparison_rules`]: what the comparison counts as agreement.
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
    /// From a `.ts` file: node runs TypeScript's `transpileModule` output of it.
    ts: bool,
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/differential")
}

fn passing_path() -> PathBuf {
    corpus_dir().join("passing.txt")
}

/// Every program of every `*.js` file, and of every `*.ts` file when the oracle's TypeScript
/// is installed (`tests/setup.sh`; without it the `.ts` files are skipped loudly, and under
/// `CI=true` that is a failure), files in name order.
fn load_corpus() -> Vec<Program> {
    let typescript = oracle::typescript_dir().is_some();
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/differential exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "js" || (e == "ts" && typescript))
        })
        .collect();
    if !typescript {
        let msg = format!(
            "the .ts programs need TypeScript for the node oracle in {} (run crates/codemode-js/tests/setup.sh)",
            oracle::node_tools_dir().display()
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{msg}");
        eprintln!("differential: SKIPPED {msg}");
    }
    files.sort();
    let mut out: Vec<Program> = Vec::new();
    for file in files {
        let stem = file.file_stem().unwrap().to_string_lossy().to_string();
        let shown = file
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| file.clone());
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
                    file: shown.clone(),
                    line: i + 1,
                    expect,
                    source: String::new(),
                    ts: file.extension().is_some_and(|e| e == "ts"),
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
    let sources: Vec<(&str, bool)> = corpus.iter().map(|p| (p.source.as_str(), p.ts)).collect();
    let results = node
        .run_programs(&sources)
        .unwrap_or_else(|e| panic!("{e}"));
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
    let mut areas: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for p in &corpus {
        let area = p.id.split('/').next().unwrap_or("");
        let e = areas.entry(area).or_default();
        e.1 += 1;
        if agree.contains(&p.id) {
            e.0 += 1;
        }
    }
    let per_area: Vec<String> = areas
        .iter()
        .map(|(a, (ok, n))| format!("{a} {ok}/{n}"))
        .collect();
    eprintln!("differential: by area: {}", per_area.join(", "));
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

/// Kinds of leaves the generator may draw.
const LEAF_FEATURES: &[&str] = &[
    "int",
    "number-literals",
    "string-literals",
    "constants",
    "arrays",
    "objects",
];
/// Operator and call families the generator may combine leaves with.
const OP_FEATURES: &[&str] = &[
    "arith",
    "compare",
    "bitwise",
    "logical",
    "unary",
    "calls",
    "conditional",
    "toFixed",
    "toPrecision",
    "toExponential",
    "toString-radix",
    "template",
];

fn strs(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|s| s.to_string()).collect()
}

/// Leaves of one kind: literals whose coercions are interesting.
fn leaf(kind: &str) -> BoxedStrategy<String> {
    let pick = |xs: &[&str]| prop::sample::select(strs(xs)).boxed();
    match kind {
        "int" => (-1000i32..1000).prop_map(|n| n.to_string()).boxed(),
        "number-literals" => pick(&[
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
        ]),
        "string-literals" => pick(&[
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
        ]),
        "constants" => pick(&["true", "false", "null", "undefined"]),
        "arrays" => pick(&["[]", "[0]", "[1, 2]", "[[3]]", "[null]"]),
        "objects" => pick(&[
            "{}",
            "({ valueOf() { return 7; } })",
            "({ toString() { return \"8\"; } })",
            "({ valueOf() { return \"9\"; }, toString() { return \"x\"; } })",
            "({ [Symbol.toPrimitive](h) { return h === \"number\" ? 4 : \"p\" + h; } })",
        ]),
        other => panic!("unknown leaf feature {other}"),
    }
}

/// One step of the recursion for an operator family, over `inner`.
fn op(kind: &str, inner: BoxedStrategy<String>) -> BoxedStrategy<String> {
    let pick = |xs: &[&str]| prop::sample::select(strs(xs));
    let binary = |ops: &[&str], inner: BoxedStrategy<String>| {
        (inner.clone(), pick(ops), inner)
            .prop_map(|(a, o, b)| format!("({a}) {o} ({b})"))
            .boxed()
    };
    match kind {
        "arith" => binary(&["+", "-", "*", "/", "%", "**"], inner),
        "compare" => binary(&["==", "!=", "===", "!==", "<", "<=", ">", ">="], inner),
        "bitwise" => binary(&["&", "|", "^", "<<", ">>", ">>>"], inner),
        "logical" => binary(&["&&", "||", "??", ","], inner),
        "unary" => (pick(&["-", "+", "!", "~", "typeof ", "void "]), inner)
            .prop_map(|(o, a)| format!("{o}({a})"))
            .boxed(),
        "calls" => (
            pick(&[
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
            ]),
            inner,
        )
            .prop_map(|(f, a)| format!("{f}({a})"))
            .boxed(),
        "conditional" => (inner.clone(), inner.clone(), inner)
            .prop_map(|(c, a, b)| format!("({c}) ? ({a}) : ({b})"))
            .boxed(),
        "toFixed" => (inner, 0u32..=20)
            .prop_map(|(a, d)| format!("Number({a}).toFixed({d})"))
            .boxed(),
        "toPrecision" => (inner, 1u32..=21)
            .prop_map(|(a, d)| format!("Number({a}).toPrecision({d})"))
            .boxed(),
        "toExponential" => (inner, 0u32..=20)
            .prop_map(|(a, d)| format!("Number({a}).toExponential({d})"))
            .boxed(),
        "toString-radix" => (inner, 2u32..=36)
            .prop_map(|(a, r)| format!("Number({a}).toString({r})"))
            .boxed(),
        "template" => (inner.clone(), inner)
            .prop_map(|(a, b)| format!("`${{{a}}}|${{{b}}}`"))
            .boxed(),
        other => panic!("unknown operator feature {other}"),
    }
}

/// Expressions over the enabled features; `None` when no leaf kind is enabled.
fn expr(features: &BTreeSet<String>) -> Option<BoxedStrategy<String>> {
    let leaves: Vec<BoxedStrategy<String>> = LEAF_FEATURES
        .iter()
        .filter(|f| features.contains(**f))
        .map(|f| leaf(f))
        .collect();
    if leaves.is_empty() {
        return None;
    }
    let leaves = proptest::strategy::Union::new(leaves).boxed();
    let ops: Vec<String> = OP_FEATURES
        .iter()
        .filter(|f| features.contains(**f))
        .map(|f| f.to_string())
        .collect();
    if ops.is_empty() {
        return Some(leaves);
    }
    Some(
        leaves
            .prop_recursive(4, 24, 2, move |inner| {
                proptest::strategy::Union::new(
                    ops.iter().map(|o| op(o, inner.clone())).collect::<Vec<_>>(),
                )
            })
            .boxed(),
    )
}

fn all_features() -> BTreeSet<String> {
    LEAF_FEATURES
        .iter()
        .chain(OP_FEATURES)
        .map(|s| s.to_string())
        .collect()
}

fn features_path() -> PathBuf {
    corpus_dir().join("expression-features.txt")
}

/// The features compared with node: `EXPR_FEATURES` (`all` or a comma list) when set, else
/// `tests/differential/expression-features.txt`.
fn enabled_features() -> BTreeSet<String> {
    let text = match std::env::var("EXPR_FEATURES") {
        Ok(v) if v == "all" => return all_features(),
        Ok(v) => v.replace(',', "\n"),
        Err(_) => std::fs::read_to_string(features_path()).unwrap_or_default(),
    };
    let known = all_features();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            assert!(
                known.contains(l),
                "unknown expression feature {l:?}; known: {known:?}"
            );
            l.to_string()
        })
        .collect()
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

fn node_expect(source: &str) -> Result<Outcome, TestCaseError> {
    let mut node = shared_node().lock().unwrap_or_else(|p| p.into_inner());
    let mut r = node.run(&[source]).map_err(TestCaseError::fail)?;
    let o = r.pop().unwrap().map_err(TestCaseError::fail)?;
    if o.failure_marker()
        .is_some_and(|m| m.starts_with("ParseError"))
    {
        return Err(TestCaseError::fail(format!(
            "the generator made a program node cannot parse:\n{source}"
        )));
    }
    Ok(o)
}

fn runner(cases: u32) -> proptest::test_runner::TestRunner {
    proptest::test_runner::TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    })
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

/// Generated expressions agree with node. The features compared are those listed in
/// `tests/differential/expression-features.txt` (a list that only grows as the engine does);
/// the generator over every feature is always checked under node alone (no harness error, no
/// program node cannot parse). `EXPR_PROBE=1` instead prints, for each feature on its own, how
/// many of 64 cases agree, to find what may join the list.
#[test]
fn expressions_match_node() {
    let all = expr(&all_features()).unwrap();
    let r =
        runner(cases().min(256)).run(&all, |e| node_expect(&expression_program(&e)).map(|_| ()));
    if let Err(e) = r {
        panic!("{e}");
    }

    let engine = Engine::new(TIMEOUT_MS);
    if let Some(e) = engine.unavailable() {
        eprintln!(
            "SKIPPED the comparison in expressions_match_node: no JavaScript guest in this build ({e})"
        );
        return;
    }
    let agree = |e: &str| -> Result<(), TestCaseError> {
        let source = expression_program(e);
        let expected = node_expect(&source)?;
        let diffs = compare(&expected, &engine.run(&source));
        prop_assert!(diffs.is_empty(), "program:\n{source}\n{}", diffs.join("\n"));
        Ok(())
    };

    if std::env::var("EXPR_PROBE").is_ok_and(|v| v == "1") {
        for f in LEAF_FEATURES.iter().chain(OP_FEATURES) {
            let mut set: BTreeSet<String> = [f.to_string(), "int".to_string()].into();
            if LEAF_FEATURES.contains(f) && *f != "int" {
                set.remove("int");
            }
            let strategy = expr(&set).unwrap();
            let mut run = runner(64);
            let mut ok = 0;
            for _ in 0..64 {
                let e = strategy.new_tree(&mut run).unwrap().current();
                if agree(&e).is_ok() {
                    ok += 1;
                }
            }
            eprintln!("expression feature {f:<16} {ok:>2} of 64 agree with node");
        }
        return;
    }

    let features = enabled_features();
    let Some(strategy) = expr(&features) else {
        eprintln!(
            "SKIPPED the comparison in expressions_match_node: no leaf feature is enabled in \
             tests/differential/expression-features.txt (EXPR_PROBE=1 shows what agrees)"
        );
        return;
    };
    eprintln!("expressions_match_node: comparing features {features:?}");
    if let Err(e) = runner(cases()).run(&strategy, |e| agree(&e)) {
        panic!("{e}");
    }
}
