//! test262 runner (`harness = false`): the ECMAScript conformance suite's tests for issue 12's
//! scope, run through `codemode::CodeMode` with `Language::JavaScript`.
//!
//! # The suite
//! `../shared/test262/test262.tar.xz` beside the repository (or the archive named by
//! `TEST262_ARCHIVE`, or an unpacked copy named by `TEST262_DIR`) is unpacked under the target
//! directory (`target/tmp/test262`) on first use and again when the archive changes. Without it
//! the runner says so loudly and passes, except under `CI=true`, where a missing suite fails.
//!
//! # Selection
//! `test/language/` without what belongs to modules and `using` (and
//! `eval-code/`, for `eval` is outside the subset), and the `test/built-ins/` directories of the
//! objects issue 12 implements ([`BUILTIN_DIRS`]). A file is skipped when its flags say `module`,
//! `raw` (it may not be changed, and the guest is always strict), `noStrict`, or
//! `CanBlockIs*`, when it needs a feature of [`SKIPPED_FEATURES`] (later issues, or outside
//! the subset for good), or when a positive test calls `eval` (outside the subset for good).
//!
//! # One test
//! The program is `"use strict";`, the harness files `assert.js` and `sta.js`, the test's
//! `includes`, a `$262` with only `global`, the test file, and a final `null;` (so the result
//! is always data); an async test (`flags: [async]`) also gets a `$DONE` that settles a
//! promise the program awaits at its end (`$DONE(error)` fails it). It runs as a codemode program (an async function body, strict mode) under a
//! per-test bound of time (`TEST262_TIMEOUT_MS`) and memory (256 MiB). A test passes when the
//! program succeeds; a negative test (`negative: phase: parse`) passes when the program is a
//! `ParseError`, and a runtime negative test when it fails with an uncaught error of the named
//! type. A test that runs out of time runs once more with a 10 s bound before it counts as a new
//! failure or is written to the list, so a loaded machine does not turn slow tests into failures.
//!
//! # Expected failures
//! `tests/test262/expected-failures.txt` lists, one a line, `path # reason` for the selected
//! tests that fail today. The list may only shrink: a failure not listed and a listed test that
//! passes (or is no longer selected) both fail the run. `TEST262_UPDATE=1` rewrites the list
//! from this run (keeping the reasons of tests still failing).
//!
//! # Output
//! `test262: N passed, N failed` for each area (`language/expressions`, `built-ins/Array`, ...)
//! and for the whole selection, then the problems.
//!
//! Environment: `TEST262_FILTER=<part of a path>` runs a subset (the list is then checked, and
//! updated, only for that subset); `TEST262_THREADS=<n>` sets the worker threads (default: the
//! available parallelism); `TEST262_TIMEOUT_MS` the per-test bound (default 2000);
//! `TEST262_ENGINE=node` runs the same programs under node 20 through the differential oracle,
//! to check the harness itself (nothing is compared with the list then); `TEST262_VERBOSE=1`
//! prints every failure with its reason.

mod oracle;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use oracle::{Engine, Node, Outcome};

/// `test/built-ins/` directories for the objects of issue 12 point 5.
const BUILTIN_DIRS: &[&str] = &[
    "AggregateError",
    "Array",
    "ArrayIteratorPrototype",
    "Boolean",
    "Date",
    "Error",
    "Function/prototype",
    "Infinity",
    "Iterator",
    "JSON",
    "Map",
    "MapIteratorPrototype",
    "Math",
    "NaN",
    "NativeErrors",
    "Number",
    "Object",
    "Promise",
    "GeneratorPrototype",
    "GeneratorFunction",
    "AsyncFunction",
    "AsyncGeneratorFunction",
    "AsyncGeneratorPrototype",
    "AsyncFromSyncIteratorPrototype",
    "AsyncIteratorPrototype",
    "Reflect",
    "RegExp",
    "RegExpStringIteratorPrototype",
    "Set",
    "SetIteratorPrototype",
    "String",
    "StringIteratorPrototype",
    "Symbol",
    "WeakMap",
    "WeakSet",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "global",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "undefined",
];

/// Paths under `test/` left out of the selection (modules, eval, `using`).
const EXCLUDED_PREFIXES: &[&str] = &[
    "language/module-code/",
    "language/import/",
    "language/export/",
    "language/eval-code/",
    "language/expressions/dynamic-import/",
    "language/expressions/import.meta/",
    "language/statements/await-using/",
    "language/statements/using/",
];

/// Features whose tests are skipped: later issues (`RegExp.escape`, Date's neighbours,
/// `Array.fromAsync`), and what is outside the subset (BigInt, Proxy, typed arrays, realms, ...).
const SKIPPED_FEATURES: &[&str] = &[
    "Array.fromAsync",
    "await-dictionary",
    "BigInt",
    "Proxy",
    "proxy-missing-checks",
    "Temporal",
    "TypedArray",
    "ArrayBuffer",
    "SharedArrayBuffer",
    "Atomics",
    "Atomics.waitAsync",
    "Atomics.pause",
    "DataView",
    "Float16Array",
    "resizable-arraybuffer",
    "arraybuffer-transfer",
    "immutable-arraybuffer",
    "uint8array-base64",
    "WeakRef",
    "FinalizationRegistry",
    "cross-realm",
    "ShadowRealm",
    "IsHTMLDDA",
    "host-gc-required",
    "tail-call-optimization",
    "decorators",
    "import-attributes",
    "import-defer",
    "import-text",
    "json-modules",
    "source-phase-imports",
    "source-phase-imports-module-source",
    "dynamic-import",
    "import.meta",
    "explicit-resource-management",
    "async-explicit-resource-management",
    "RegExp.escape",
    "iterator-sequencing",
    "iterator-chunking",
    "iterator-includes",
    "Iterator.prototype.join",
    "joint-iteration",
    "upsert",
    "Math.sumPrecise",
    "Error.isError",
    "json-parse-with-source",
    "canonical-tz",
    "legacy-regexp",
    "Intl.Locale",
    "Intl-enumeration",
];

/// A parsed test file.
struct Test {
    /// Path under `test/`, with `/` separators.
    path: String,
    /// `language/expressions`, `built-ins/Array`, ...
    area: String,
    source: String,
    includes: Vec<String>,
    negative: Option<Negative>,
    /// `flags: [async]`: the test ends when it calls `$DONE`.
    is_async: bool,
}

#[derive(Clone, Debug, PartialEq)]
struct Negative {
    phase: String,
    kind: String,
}

/// The frontmatter fields the runner reads.
#[derive(Default, Debug)]
struct Meta {
    flags: Vec<String>,
    includes: Vec<String>,
    features: Vec<String>,
    negative: Option<Negative>,
}

/// Parses the YAML frontmatter between `/*---` and `---*/` (the subset test262 uses: inline
/// `[a, b]` lists, `- item` block lists, and the `negative` map).
fn parse_meta(source: &str) -> Meta {
    let mut meta = Meta::default();
    let Some(start) = source.find("/*---") else {
        return meta;
    };
    let Some(len) = source[start..].find("---*/") else {
        return meta;
    };
    let yaml = &source[start + 5..start + len];
    let lines: Vec<&str> = yaml.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if line.starts_with([' ', '\t']) || line.trim().is_empty() {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim();
        let mut value = value.trim().to_string();
        // The indented lines that belong to this key.
        let mut block = Vec::new();
        while i < lines.len() && (lines[i].starts_with([' ', '\t']) || lines[i].trim().is_empty()) {
            block.push(lines[i].trim());
            i += 1;
        }
        if value.starts_with('[') && !value.contains(']') {
            for b in &block {
                value.push_str(b);
                if b.contains(']') {
                    break;
                }
            }
        }
        let list = |value: &str, block: &[&str]| -> Vec<String> {
            if let Some(inner) = value.strip_prefix('[') {
                inner
                    .trim_end_matches(']')
                    .split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            } else {
                block
                    .iter()
                    .filter_map(|b| b.strip_prefix("- "))
                    .map(|s| s.trim().to_string())
                    .collect()
            }
        };
        match key {
            "flags" => meta.flags = list(&value, &block),
            "includes" => meta.includes = list(&value, &block),
            "features" => meta.features = list(&value, &block),
            "negative" => {
                let mut phase = String::new();
                let mut kind = String::new();
                for b in &block {
                    if let Some(v) = b.strip_prefix("phase:") {
                        phase = v.trim().to_string();
                    } else if let Some(v) = b.strip_prefix("type:") {
                        kind = v.trim().to_string();
                    }
                }
                meta.negative = Some(Negative { phase, kind });
            }
            _ => {}
        }
    }
    meta
}

/// Why a file is not run, or `None` when it is selected.
fn skip_reason(path: &str, meta: &Meta) -> Option<String> {
    if EXCLUDED_PREFIXES.iter().any(|p| path.starts_with(p)) {
        return Some("directory".into());
    }
    for f in &meta.flags {
        if matches!(
            f.as_str(),
            "module" | "raw" | "noStrict" | "CanBlockIsFalse" | "CanBlockIsTrue"
        ) {
            return Some(format!("flag {f}"));
        }
    }
    if let Some(f) = meta
        .features
        .iter()
        .find(|f| SKIPPED_FEATURES.contains(&f.as_str()))
    {
        return Some(format!("feature {f}"));
    }
    if meta
        .negative
        .as_ref()
        .is_some_and(|n| n.phase == "resolution")
    {
        return Some("module resolution".into());
    }
    None
}

/// `true` when the test's code (comments and strings aside) calls `eval`, directly
/// (`eval(...)`) or indirectly (`(0, eval)(...)`): `eval` is outside the subset for good, as
/// `eval-code/` is. Negative tests stay selected, for `eval` as a binding name is an early
/// error in strict mode.
fn calls_eval(source: &str) -> bool {
    let code = strip_comments_and_strings(source);
    let b = code.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut from = 0;
    while let Some(i) = code[from..].find("eval").map(|i| i + from) {
        from = i + 4;
        let before = code[..i].trim_end().as_bytes().last().copied();
        if (i > 0 && ident(b[i - 1]))
            || b.get(i + 4).copied().is_some_and(ident)
            || before == Some(b'.')
        {
            continue;
        }
        let after = code[i + 4..].trim_start().as_bytes().first().copied();
        if after == Some(b'(') || (before == Some(b',') && after == Some(b')')) {
            return true;
        }
    }
    false
}

/// `source` with comments and the contents of string literals blanked (template literals kept).
fn strip_comments_and_strings(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                for c in chars.by_ref() {
                    if prev == '*' && c == '/' {
                        break;
                    }
                    prev = c;
                }
                out.push(' ');
            }
            '"' | '\'' => {
                let mut escaped = false;
                for d in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if d == '\\' {
                        escaped = true;
                    } else if d == c || d == '\n' {
                        break;
                    }
                }
                out.push_str("\"\"");
            }
            c => out.push(c),
        }
    }
    out
}

/// Where the suite is: an unpacked root holding `harness/` and `test/`, or why there is none.
fn locate_suite() -> Result<PathBuf, String> {
    if let Ok(dir) = std::env::var("TEST262_DIR") {
        let dir = PathBuf::from(dir);
        return if dir.join("harness/assert.js").is_file() {
            Ok(dir)
        } else {
            Err(format!(
                "TEST262_DIR={} has no harness/assert.js",
                dir.display()
            ))
        };
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let archive = std::env::var("TEST262_ARCHIVE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| manifest.join("../../../shared/test262/test262.tar.xz"));
    let meta = std::fs::metadata(&archive)
        .map_err(|e| format!("no test262 archive at {} ({e})", archive.display()))?;
    let stamp = format!(
        "{} {} {:?}",
        archive.display(),
        meta.len(),
        meta.modified().ok()
    );
    let dest = Path::new(env!("CARGO_TARGET_TMPDIR")).join("test262");
    let stamp_file = dest.join(".unpacked-from");
    if std::fs::read_to_string(&stamp_file).ok().as_deref() == Some(stamp.as_str())
        && dest.join("harness/assert.js").is_file()
    {
        return Ok(dest);
    }
    let _ = std::fs::remove_dir_all(&dest);
    std::fs::create_dir_all(&dest).map_err(|e| format!("create {}: {e}", dest.display()))?;
    let status = Command::new("tar")
        .arg("-xJf")
        .arg(&archive)
        .arg("-C")
        .arg(&dest)
        .status()
        .map_err(|e| format!("cannot run tar: {e}"))?;
    if !status.success() {
        return Err(format!("tar -xJf {} failed: {status}", archive.display()));
    }
    std::fs::write(&stamp_file, stamp).map_err(|e| format!("write stamp: {e}"))?;
    Ok(dest)
}

/// Every `.js` file under `dir`, recursively, sorted.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "js")
            && !p
                .file_name()
                .unwrap()
                .to_string_lossy()
                .contains("_FIXTURE")
        {
            out.push(p);
        }
    }
}

fn area_of(path: &str) -> String {
    let mut parts = path.split('/');
    let top = parts.next().unwrap_or("");
    match parts.next() {
        Some(second) if !second.ends_with(".js") => format!("{top}/{second}"),
        _ => top.to_string(),
    }
}

/// The selected tests and the number skipped.
fn select(root: &Path, filter: Option<&str>) -> (Vec<Test>, usize) {
    let test_root = root.join("test");
    let mut files = Vec::new();
    walk(&test_root.join("language"), &mut files);
    for d in BUILTIN_DIRS {
        walk(&test_root.join("built-ins").join(d), &mut files);
    }
    files.sort();
    let mut tests = Vec::new();
    let mut skipped = 0;
    for f in files {
        let path = f
            .strip_prefix(&test_root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if filter.is_some_and(|flt| !path.contains(flt)) {
            continue;
        }
        let Ok(source) = std::fs::read_to_string(&f) else {
            skipped += 1;
            continue;
        };
        let meta = parse_meta(&source);
        if skip_reason(&path, &meta).is_some() || (meta.negative.is_none() && calls_eval(&source)) {
            skipped += 1;
            continue;
        }
        tests.push(Test {
            area: area_of(&path),
            path,
            source,
            includes: meta.includes,
            negative: meta.negative,
            is_async: meta.flags.iter().any(|f| f == "async"),
        });
    }
    (tests, skipped)
}

/// The harness files, read once.
struct Harness {
    root: PathBuf,
    files: Mutex<BTreeMap<String, Result<String, String>>>,
}

impl Harness {
    fn file(&self, name: &str) -> Result<String, String> {
        let mut files = self.files.lock().unwrap();
        files
            .entry(name.to_string())
            .or_insert_with(|| {
                std::fs::read_to_string(self.root.join("harness").join(name))
                    .map_err(|e| format!("harness file {name}: {e}"))
            })
            .clone()
    }

    /// The whole program for `test`.
    fn program(&self, test: &Test) -> Result<String, String> {
        let mut src = String::from("\"use strict\";\n");
        for inc in ["assert.js", "sta.js"]
            .into_iter()
            .chain(test.includes.iter().map(String::as_str))
        {
            src.push_str(&self.file(inc)?);
            src.push('\n');
        }
        src.push_str("var $262 = { global: globalThis };\n");
        if test.is_async {
            // `$DONE()` ends an async test, `$DONE(error)` fails it (the harness's
            // doneprintHandle.js, without printing): the program awaits it.
            src.push_str(
                "var __doneResolve; var __done = new Promise(function (r) { __doneResolve = r; });\n\
                 globalThis.$DONE = function (e) { __doneResolve(e === undefined ? [true] : [false, e]); };\n",
            );
        }
        src.push_str(&test.source);
        if test.is_async {
            src.push_str("\n;var __result = await __done; if (!__result[0]) throw __result[1];");
        }
        src.push_str("\nnull;\n");
        Ok(src)
    }
}

/// Pass, or why not.
fn judge(test: &Test, outcome: &Outcome) -> Result<(), String> {
    match (&test.negative, outcome) {
        (None, Outcome::Value { .. }) => Ok(()),
        (None, o) => Err(o.summary()),
        (Some(n), Outcome::Error { kind, .. })
            if (n.phase == "parse" || n.phase == "early") && kind == "ParseError" =>
        {
            Ok(())
        }
        (Some(n), Outcome::Error { kind, name, .. })
            if n.phase == "runtime"
                && kind == "ExecutionFailure"
                && name.as_deref() == Some(n.kind.as_str()) =>
        {
            Ok(())
        }
        (Some(n), o) => Err(format!(
            "expected {} ({} phase), got {}",
            if n.phase == "runtime" {
                n.kind.clone()
            } else {
                "a ParseError".to_string()
            },
            n.phase,
            o.summary()
        )),
    }
}

fn expected_failures_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/test262/expected-failures.txt")
}

fn read_expected() -> BTreeMap<String, String> {
    std::fs::read_to_string(expected_failures_path())
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(" # ") {
            Some((p, r)) => (p.trim().to_string(), r.trim().to_string()),
            None => (l.trim().to_string(), String::new()),
        })
        .collect()
}

const EXPECTED_HEADER: &str = "# test262 files of the selection that fail today: `path # reason` (paths under test/).\n\
# The list may only shrink; TEST262_UPDATE=1 cargo test -p codemode-js --test test262 rewrites it.\n";

fn env_flag(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| v == "1" || v == "true")
}

/// The frontmatter parser on the shapes the suite uses; a broken parser would silently change
/// the selection, so the runner checks it before anything else.
fn check_frontmatter_parser() {
    let m = parse_meta(
        "/*---\nesid: sec-x\ndescription: >\n  flags: [module] in prose\ninfo: |\n  - not.js\n  phase: parse\nflags: [onlyStrict, generated]\nincludes: [propertyHelper.js,\n  compareArray.js]\nfeatures:\n  - Symbol\n  - class\nnegative:\n  phase: parse\n  type: SyntaxError\n---*/\n$DONOTEVALUATE();",
    );
    assert_eq!(m.flags, ["onlyStrict", "generated"]);
    assert_eq!(m.includes, ["propertyHelper.js", "compareArray.js"]);
    assert_eq!(m.features, ["Symbol", "class"]);
    assert_eq!(
        m.negative,
        Some(Negative {
            phase: "parse".into(),
            kind: "SyntaxError".into()
        })
    );
    let plain = parse_meta("/*---\ndescription: x\n---*/\n1;");
    assert!(plain.flags.is_empty() && plain.negative.is_none());
}

fn main() -> ExitCode {
    // libtest-style arguments (`--list`, filters) are accepted and ignored, except `--list`.
    if std::env::args().any(|a| a == "--list") {
        println!("test262: test");
        return ExitCode::SUCCESS;
    }
    check_frontmatter_parser();
    let ci = env_flag("CI");
    let root = match locate_suite() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("\n==== test262 SKIPPED: {e}. ====");
            eprintln!(
                "==== Put the suite at ../shared/test262/ (see its README) or set TEST262_ARCHIVE. ====\n"
            );
            return if ci {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let filter = std::env::var("TEST262_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let use_node = std::env::var("TEST262_ENGINE").is_ok_and(|v| v == "node");
    let timeout_ms: u64 = std::env::var("TEST262_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let threads: usize = std::env::var("TEST262_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);

    let started = Instant::now();
    let (tests, skipped) = select(&root, filter.as_deref());
    let harness = Harness {
        root: root.clone(),
        files: Mutex::new(BTreeMap::new()),
    };
    if !use_node {
        let probe = Engine::new(timeout_ms);
        if let Some(e) = probe.unavailable() {
            eprintln!(
                "\n==== test262 SKIPPED: codemode has no JavaScript guest in this build ({e}). ====\n"
            );
            return if ci {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    }

    let results: Vec<Mutex<Option<Result<(), String>>>> =
        tests.iter().map(|_| Mutex::new(None)).collect();
    let durations: Vec<AtomicU64> = tests.iter().map(|_| AtomicU64::new(0)).collect();
    let timed_out: Vec<AtomicBool> = tests.iter().map(|_| AtomicBool::new(false)).collect();
    let run = Run {
        tests: &tests,
        harness: &harness,
        results: &results,
        durations: &durations,
        timed_out: &timed_out,
        threads,
    };
    if use_node {
        run_under_node(&tests, &harness, &results);
    } else {
        run.engine((0..tests.len()).collect(), timeout_ms);
        // A test that ran out of time may only be slow on a loaded machine: before it counts as
        // a new failure, or is written to the list, it runs once more with a long bound.
        let update = env_flag("TEST262_UPDATE");
        let expected = read_expected();
        let again: Vec<usize> = (0..tests.len())
            .filter(|&i| timed_out[i].load(Ordering::Relaxed))
            .filter(|&i| update || !expected.contains_key(&tests[i].path))
            .collect();
        if !again.is_empty() {
            println!(
                "test262: {} files ran out of time; running them again with {} ms",
                again.len(),
                RETRY_TIMEOUT_MS
            );
            run.engine(again, RETRY_TIMEOUT_MS);
        }
    }

    // Per-area counts.
    let mut areas: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures: BTreeMap<String, String> = BTreeMap::new();
    for (t, r) in tests.iter().zip(&results) {
        let r = r.lock().unwrap().take().unwrap_or(Err("not run".into()));
        let e = areas.entry(t.area.as_str()).or_default();
        match r {
            Ok(()) => e.0 += 1,
            Err(why) => {
                e.1 += 1;
                failures.insert(t.path.clone(), why);
            }
        }
    }
    for (area, (p, f)) in &areas {
        println!("test262: {p} passed, {f} failed  ({area})");
    }
    let passed: usize = areas.values().map(|a| a.0).sum();
    let failed = failures.len();
    println!(
        "test262: {passed} passed, {failed} failed  (total; {:.1}% of {} selected files pass, {skipped} skipped, {:.1} s, {threads} threads{})",
        100.0 * passed as f64 / (passed + failed).max(1) as f64,
        passed + failed,
        started.elapsed().as_secs_f64(),
        if use_node { ", under node" } else { "" }
    );
    // The slowest files, to keep the run fast.
    let mut slow: Vec<(u64, &str)> = tests
        .iter()
        .zip(&durations)
        .map(|(t, d)| (d.load(Ordering::Relaxed), t.path.as_str()))
        .collect();
    slow.sort_unstable_by(|a, b| b.cmp(a));
    for (us, path) in slow.iter().take(5).filter(|(us, _)| *us > 0) {
        println!("test262: slowest {:>7.1} ms {path}", *us as f64 / 1000.0);
    }
    // The most common reasons, to show where the work is.
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for why in failures.values() {
        *reasons
            .entry(oracle::clip(&reason_line(why), 70))
            .or_default() += 1;
    }
    let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (why, n) in reasons.iter().take(10) {
        println!("test262: {n:>6} fail with {why}");
    }
    if env_flag("TEST262_VERBOSE") {
        for (p, why) in &failures {
            println!("FAIL {p} # {why}");
        }
    }
    if use_node {
        return ExitCode::SUCCESS;
    }

    // The expected-failures list, restricted to what this run selected.
    let selected: BTreeSet<&str> = tests.iter().map(|t| t.path.as_str()).collect();
    let in_scope = |p: &str| filter.as_deref().is_none_or(|f| p.contains(f));
    let expected = read_expected();
    if env_flag("TEST262_UPDATE") {
        let mut out: BTreeMap<String, String> = expected
            .iter()
            .filter(|(p, _)| !in_scope(p))
            .map(|(p, r)| (p.clone(), r.clone()))
            .collect();
        for (p, why) in &failures {
            let reason = expected
                .get(p)
                .filter(|r| !r.is_empty())
                .cloned()
                .unwrap_or_else(|| reason_line(why));
            out.insert(p.clone(), reason);
        }
        let mut text = EXPECTED_HEADER.to_string();
        for (p, r) in &out {
            text.push_str(&format!("{p} # {r}\n"));
        }
        std::fs::create_dir_all(expected_failures_path().parent().unwrap()).unwrap();
        std::fs::write(expected_failures_path(), text).expect("write expected-failures.txt");
        println!(
            "test262: wrote {} entries to {}",
            out.len(),
            expected_failures_path().display()
        );
        return ExitCode::SUCCESS;
    }
    let mut problems = Vec::new();
    for (p, why) in &failures {
        if !expected.contains_key(p) {
            problems.push(format!("NEW FAILURE {p} # {why}"));
        }
    }
    for p in expected.keys().filter(|p| in_scope(p)) {
        if !selected.contains(p.as_str()) {
            problems.push(format!(
                "LISTED BUT NOT SELECTED {p} (remove it from expected-failures.txt)"
            ));
        } else if !failures.contains_key(p) {
            problems.push(format!(
                "UNEXPECTED PASS {p} (remove it from expected-failures.txt)"
            ));
        }
    }
    if problems.is_empty() {
        return ExitCode::SUCCESS;
    }
    let verbose = env_flag("TEST262_VERBOSE");
    for p in problems.iter().take(if verbose {
        usize::MAX
    } else {
        MAX_SHOWN_PROBLEMS
    }) {
        println!("{p}");
    }
    if !verbose && problems.len() > MAX_SHOWN_PROBLEMS {
        println!(
            "... and {} more (TEST262_VERBOSE=1 shows all)",
            problems.len() - MAX_SHOWN_PROBLEMS
        );
    }
    println!(
        "test262: {} problems against tests/test262/expected-failures.txt (the list may only shrink; TEST262_UPDATE=1 rewrites it)",
        problems.len()
    );
    ExitCode::FAILURE
}

/// Per-test bound of the second run of a test that ran out of time.
const RETRY_TIMEOUT_MS: u64 = 10_000;

/// Shared state of one run over the selection.
struct Run<'a> {
    tests: &'a [Test],
    harness: &'a Harness,
    results: &'a [Mutex<Option<Result<(), String>>>],
    durations: &'a [AtomicU64],
    timed_out: &'a [AtomicBool],
    threads: usize,
}

impl Run<'_> {
    /// Runs the tests at `indices` on the worker threads under `timeout_ms` each, recording
    /// their verdicts, durations and whether they ran out of time.
    fn engine(&self, indices: Vec<usize>, timeout_ms: u64) {
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..self.threads.min(indices.len()).max(1) {
                s.spawn(|| {
                    let engine = Engine::with_limits(test_limits(timeout_ms));
                    while let Some(&i) = indices.get(next.fetch_add(1, Ordering::Relaxed)) {
                        let test = &self.tests[i];
                        let t0 = Instant::now();
                        let verdict = self.harness.program(test).and_then(|src| {
                            let outcome = engine.run(&src);
                            let timeout = matches!(&outcome, Outcome::Error { kind, .. } if kind == "TimeoutExceeded");
                            self.timed_out[i].store(timeout, Ordering::Relaxed);
                            judge(test, &outcome)
                        });
                        *self.results[i].lock().unwrap() = Some(verdict);
                        self.durations[i].store(t0.elapsed().as_micros() as u64, Ordering::Relaxed);
                    }
                });
            }
        });
    }
}

/// How many problems the run prints (all of them with `TEST262_VERBOSE=1`).
const MAX_SHOWN_PROBLEMS: usize = 100;

/// Memory bound per test.
const TEST_MEMORY_BYTES: u64 = 256 << 20;

/// The per-test bounds: `timeout_ms` of wall time and [`TEST_MEMORY_BYTES`].
fn test_limits(timeout_ms: u64) -> codemode::Limits {
    codemode::Limits::default()
        .with_timeout_ms(timeout_ms)
        .and_then(|l| l.with_max_memory_bytes(Some(TEST_MEMORY_BYTES)))
        .expect("limits in range")
}

/// A failure's reason as one short line for the list.
fn reason_line(why: &str) -> String {
    let line = why.lines().next().unwrap_or("").replace(" # ", " ");
    // The time a timed-out test took changes from run to run; the list keeps the reason only.
    let line = line.split(" (after ").next().unwrap_or("");
    oracle::clip(line.trim(), 120)
}

/// The `TEST262_ENGINE=node` mode: the same programs through the node oracle, in order.
fn run_under_node(
    tests: &[Test],
    harness: &Harness,
    results: &[Mutex<Option<Result<(), String>>>],
) {
    let mut node = Node::start().unwrap_or_else(|e| panic!("{e}"));
    for (chunk_no, chunk) in tests.chunks(256).enumerate() {
        let programs: Vec<Result<String, String>> =
            chunk.iter().map(|t| harness.program(t)).collect();
        let sources: Vec<&str> = programs
            .iter()
            .map(|p| p.as_deref().unwrap_or("null"))
            .collect();
        let outcomes = node.run(&sources).unwrap_or_else(|e| panic!("{e}"));
        for (j, (t, o)) in chunk.iter().zip(outcomes).enumerate() {
            let verdict = match (&programs[j], o) {
                (Err(e), _) => Err(e.clone()),
                (_, Err(e)) => Err(format!("harness: {e}")),
                (_, Ok(o)) => judge(t, &o),
            };
            *results[chunk_no * 256 + j].lock().unwrap() = Some(verdict);
        }
    }
}
