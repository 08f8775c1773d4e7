//! Memory of waiting (issue 13 point 6): 10,000 JavaScript executions, each parked on an
//! `await` of a slow tool, on one tokio runtime. Prints the resident memory (VmRSS) before and
//! while all of them wait, and the cost per execution. Target: under 1 GiB in all.
//!
//! `cargo bench -p codemode --features js --bench js_waiting` (`N=<count>` to change 10,000).
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use codemode::{CodeMode, Language, Limits, Tool};
use serde_json::json;

/// Resident memory of this process in bytes (`VmRSS` of /proc/self/status).
fn rss() -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let n: usize = std::env::var("N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("tokio runtime");
    let started = Arc::new(AtomicUsize::new(0));
    let release = Arc::new(tokio::sync::Notify::new());
    let (s, r) = (started.clone(), release.clone());
    let slow = Tool::new(
        "Waits until released.",
        json!({"type": "object"}),
        move |_| {
            let (s, r) = (s.clone(), r.clone());
            async move {
                let wait = r.notified();
                s.fetch_add(1, Ordering::SeqCst);
                wait.await;
                Ok(json!({"ok": true}))
            }
        },
    );
    let cm = CodeMode::builder()
        .language(Language::JavaScript)
        .tool("slow.wait", slow)
        .limits(Limits::default().with_timeout_ms(600_000).unwrap())
        .build()
        .expect("valid options");
    // One warm run so the standard library template and the program cache exist.
    let program = "const rows = [1, 2, 3].map((x) => ({ x }));\nconst r = await tools.slow.wait({ n: rows.length });\nreturn r.ok;";
    let before = rss();
    let t0 = Instant::now();
    let peak = rt.block_on(async {
        let mut tasks = Vec::with_capacity(n);
        for _ in 0..n {
            let cm = cm.clone();
            tasks.push(tokio::spawn(async move { cm.execute(program).await }));
        }
        while started.load(Ordering::SeqCst) < n {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // Let the last ones settle into their wait.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let peak = rss();
        release.notify_waiters();
        let mut ok = 0;
        for t in tasks {
            if t.await.map(|r| r.is_ok()).unwrap_or(false) {
                ok += 1;
            }
        }
        assert_eq!(ok, n, "every execution succeeds");
        peak
    });
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    println!(
        "js waiting: {n} executions parked on a tool call: RSS {:.1} MiB before, {:.1} MiB while waiting \
         ({:.1} KiB per execution; target < 1024 MiB in all); all done in {:.2} s",
        mib(before),
        mib(peak),
        (peak.saturating_sub(before)) as f64 / 1024.0 / n as f64,
        t0.elapsed().as_secs_f64()
    );
}
