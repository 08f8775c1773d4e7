//! Inputs found by the cargo-fuzz targets (fuzz/), kept as regression tests. See fuzz/README.md
//! for what each was.

use std::time::{Duration, Instant};

use codemode_lua::{Budgets, Env, Machine, Step, compile};

/// Parse and compile `src`, then run it with a small memory cap and fuel budget, like the
/// `execute` fuzz target. Returns the final step (or `None` when the fuel budget ran out).
fn execute(src: &str) -> Option<Step> {
    let Ok(program) = compile(src) else {
        return None;
    };
    let mut m = Machine::new(
        &program,
        &Env::default(),
        Budgets {
            max_memory_bytes: Some(32 * 1024 * 1024),
        },
    );
    m.set_deadline(Instant::now() + Duration::from_millis(500));
    loop {
        match m.run(2_000) {
            Step::Yield if m.fuel_used() > 3_000_000 => return None,
            Step::Yield => {}
            Step::HostCall(_) => m.resume(codemode_lua::HostReply::Value(serde_json::Value::Null)),
            done => return Some(done),
        }
    }
}

/// `parse` target, 21:36: libFuzzer reported a 14 s timeout on this 6.8 kB program (a data
/// table of 400 records plus a mutated tail). It parses in under a millisecond; the report came
/// from the machine being overloaded by other jobs at the time. Kept to hold parse time down.
#[test]
fn parse_timeout_173e104c_parses_quickly() {
    // Not valid UTF-8: the target converts lossily, as here.
    let bytes = include_bytes!("fuzz_regressions/parse_timeout_173e104c.lua");
    let src = &*String::from_utf8_lossy(bytes);
    let start = Instant::now();
    let parsed = codemode_lua::testing::parse(src);
    let e = parsed.expect_err("the mutated tail is not valid Lua");
    assert_eq!(e.kind, codemode_lua::ErrorKind::ParseError);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    assert!(execute(src).is_none());
}

/// `execute` target, 22:07: libFuzzer's slowest unit (12 s) in a 30-minute run: unbounded
/// recursion through `pcall(level1)` where every level then indexes the caught string error,
/// so 200,000 nested errors unwind one `pcall` at a time.
#[test]
fn execute_slow_9ea50b9d_is_bounded() {
    let src = include_str!("fuzz_regressions/execute_slow_9ea50b9d.lua");
    let start = Instant::now();
    let step = execute(src);
    // Linear in the (bounded) number of frames: about 0.6 s in a debug build, and the memory
    // cap now counts the frames too. Under libFuzzer's AddressSanitizer on a loaded machine it
    // took 12 s; not a hang.
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let Some(Step::Error(e)) = step else {
        panic!("expected an error, got {step:?}")
    };
    assert_eq!(e.kind, codemode_lua::ErrorKind::ExecutionFailure);
    assert_eq!(e.message, "attempt to concatenate a nil value (field 'at')");
}
