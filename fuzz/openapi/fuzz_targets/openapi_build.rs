//! Fuzz target (issue 16): an arbitrary document through the whole OpenAPI path: load (JSON or
//! YAML, with the size, depth and YAML budgets), `from_spec`, the runtime build (every schema
//! compiled), and rendering every signature (the catalog, a `search`). Nothing may panic, and
//! every operation is either a tool or a skip with a reason.
#![no_main]

use codemode_openapi::{Format, Options, from_spec, load};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = load(data, Format::Auto) else {
        return;
    };
    for options in [
        Options::default(),
        Options {
            base_url: Some("http://127.0.0.1:9".into()),
            spec_url: Some("http://127.0.0.1:9/specs/openapi.json".into()),
            ..Options::default()
        },
    ] {
        let Ok(built) = from_spec(&doc, options) else {
            continue;
        };
        assert!(built.skipped.iter().all(|s| !s.reason.is_empty()));
        let n = built.tools.len();
        let cm = codemode::CodeMode::builder()
            .namespace("api", built.namespace)
            .build()
            .expect("from_spec's tools always build: their schemas compiled there");
        assert_eq!(cm.tools().len(), n);
        for entry in cm.catalog() {
            let _ = format!("{entry:?}");
        }
        let _ = cm.instructions(2_000);
        let _ = cm.search(&serde_json::json!({"query": "get", "limit": 5}));
    }
});
