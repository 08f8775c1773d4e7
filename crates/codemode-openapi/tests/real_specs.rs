//! Real specs from pinned npm tarballs (installed by tests/setup.sh, which .ci/run calls): the
//! tool count and the exact skipped list of each, snapshotted in tests/snapshots/real-specs.txt;
//! JSON and YAML copies give the same tree; every namespace builds a CodeMode runtime (all
//! schemas compile). Under CI a missing install fails; elsewhere the test says so and passes.
//! `UPDATE_SNAPSHOTS=1` rewrites the snapshot.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use codemode_openapi::{Format, Options, from_spec, load};

fn specs_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("CODEMODE_OPENAPI_SPECS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/openapi-specs")
        });
    if dir.join(".complete-2").exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the real specs are missing from {}; run crates/codemode-openapi/tests/setup.sh",
        dir.display()
    );
    eprintln!(
        "skipping: no real specs in {} (run crates/codemode-openapi/tests/setup.sh)",
        dir.display()
    );
    None
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "yaml" | "yml")
            ) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn real_specs_snapshot() {
    let Some(dir) = specs_dir() else { return };
    let mut snap = String::new();
    for path in files(&dir) {
        let rel = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.contains("/yaml/") {
            continue; // compared with its JSON twin below
        }
        let bytes = std::fs::read(&path).unwrap();
        let started = Instant::now();
        let doc = match load(&bytes, Format::from_path(&path)) {
            Ok(d) => d,
            Err(e) => {
                writeln!(snap, "== {rel}: document error: {e}").unwrap();
                continue;
            }
        };
        let loaded = started.elapsed();
        let built = from_spec(&doc, Options::default()).unwrap();
        let built_at = started.elapsed();
        // The YAML copy gives the same tools and skips (its texts may differ in trailing
        // newlines of block scalars, so the trees are not compared).
        // The package's 3.1 parameters-style.yaml declares other methods than its .json on
        // three form-data paths (post/get swapped): a difference in the data, not in loading.
        if let Some(twin) = yaml_twin(&path)
            && twin.exists()
            && !rel.ends_with("3.1/json/parameters-style.json")
        {
            let y = load(&std::fs::read(&twin).unwrap(), Format::Yaml).unwrap();
            let yb = from_spec(&y, Options::default()).unwrap();
            let a: Vec<String> = built
                .tools
                .iter()
                .map(|t| format!("{t:?}"))
                .chain(built.skipped.iter().map(|s| format!("{s:?}")))
                .collect();
            let b: Vec<String> = yb
                .tools
                .iter()
                .map(|t| format!("{t:?}"))
                .chain(yb.skipped.iter().map(|s| format!("{s:?}")))
                .collect();
            // (Some YAML copies list a path's methods in another order: compare as sets.)
            let (mut a, mut b) = (a, b);
            a.sort();
            b.sort();
            let diff: Vec<(&String, &String)> = a.iter().zip(&b).filter(|(x, y)| x != y).collect();
            assert!(
                a.len() == b.len() && diff.is_empty(),
                "{rel}: the YAML copy differs: {diff:?}"
            );
        }
        let n = built.tools.len();
        let cm = codemode::CodeMode::builder()
            .namespace("api", built.namespace)
            .build();
        let cm = cm.unwrap_or_else(|e| panic!("{rel}: the runtime does not build: {e}"));
        assert_eq!(cm.tools().len(), n, "{rel}");
        if bytes.len() > 1_000_000 {
            let total = started.elapsed();
            let peak = peak_rss_bytes();
            eprintln!(
                "{rel}: {} bytes; load {:?}, from_spec {:?}, runtime build {:?}, {n} tools; \
                 peak resident memory {} MiB",
                bytes.len(),
                loaded,
                built_at - loaded,
                total - built_at,
                peak / (1 << 20)
            );
            // Issue 16: GitHub's load + build within bounded time and memory, and Stripe's
            // (whose per-tool `$defs` are bounded by MAX_TOOL_DEFS_BYTES; see docs/openapi.md).
            // (The others' figures are printed.)
            assert!(
                !(rel.contains("api.github.com") || rel.contains("stripe.com"))
                    || total < BUILD_TIME_BOUND,
                "{rel}: load + from_spec + runtime build took {total:?}"
            );
            assert!(
                peak < BUILD_MEMORY_BOUND,
                "{rel}: peak resident memory {peak} bytes"
            );
        }
        writeln!(snap, "== {rel}: {n} tools, {} skipped", built.skipped.len()).unwrap();
        for s in &built.skipped {
            writeln!(snap, "{} {}: {}", s.method, s.path, s.reason).unwrap();
        }
    }
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/real-specs.txt");
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, &snap).unwrap();
    }
    let want = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        want == snap,
        "the snapshot differs (UPDATE_SNAPSHOTS=1 rewrites it); got:\n{snap}"
    );
}

/// Bound on loading and building one large spec (GitHub's, Stripe's), debug build.
const BUILD_TIME_BOUND: std::time::Duration = std::time::Duration::from_secs(60);
/// Bound on the test process's peak resident memory after building every spec.
const BUILD_MEMORY_BOUND: u64 = 2 << 30;

/// The process's peak resident memory (`VmHWM`), 0 where `/proc` has none.
fn peak_rss_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// `3.0/json/x.json` → `3.0/yaml/x.yaml`.
fn yaml_twin(p: &Path) -> Option<PathBuf> {
    let s = p.to_str()?;
    s.contains("/json/")
        .then(|| PathBuf::from(s.replace("/json/", "/yaml/").replace(".json", ".yaml")))
}
