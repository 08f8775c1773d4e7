//! Inputs the cargo-fuzz targets `js_parse` and `js_execute` (`fuzz/`) found, each run the way
//! its harness runs it: every one must end (a value or an error) within its bounds, quickly.

use std::time::{Duration, Instant};

use codemode_guest::{Env, ErrorKind, GuestError, StartOptions, Step};
use serde_json::Value;

/// The `js_execute` harness's bounds (fuzz/fuzz_targets/js_execute.rs).
const SLICE: u32 = 2_000;
const TOTAL_FUEL: u64 = 1_000_000;
const MEMORY: usize = 32 * 1024 * 1024;

/// Run `source` as `js_execute` does; the end and how long it took.
fn execute(source: &str) -> (Result<Value, GuestError>, Duration) {
    let start = Instant::now();
    let program = match codemode_js::compile(source) {
        Ok(p) => p,
        Err(e) => return (Err(e), start.elapsed()),
    };
    let options = StartOptions {
        max_memory_bytes: Some(MEMORY),
        deadline: None,
    };
    let mut m = codemode_js::Machine::new(&program, &Env::default(), &options)
        .expect("a machine under the harness's memory cap");
    m.set_fuel_limit(TOTAL_FUEL);
    loop {
        match m.run(SLICE) {
            Step::Yield => assert!(m.memory_used() <= MEMORY, "past the memory cap"),
            Step::Done { value, .. } => return (Ok(value), start.elapsed()),
            Step::Error(e) => return (Err(e), start.elapsed()),
            other => panic!("a synchronous program stopped with {other:?}"),
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "the run did not end in a minute"
        );
    }
}

/// timeout-3648afd0: a user iterator that never says `done` (the fuzzer renamed the key),
/// collected by a rest element. node runs until its heap is exhausted; here the run ends on
/// the fuel or memory bound, as an uncatchable ExecutionFailure.
#[test]
fn execute_timeout_3648afd0_endless_iterator_into_rest_is_bounded() {
    let source = "const gen = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i, dkne: i++ >= 4 }) }; } };\n\
                  const [first, ...rest] = gen;\n\
                  return [first, rest];\n";
    let (end, took) = execute(source);
    let e = end.expect_err("an endless iterator cannot finish");
    eprintln!("{took:?} {e:?}");
    assert_eq!(e.kind, ErrorKind::ExecutionFailure, "{e:?}");
    assert!(
        e.message.contains("instruction limit") || e.message.contains("memory limit"),
        "{e:?}"
    );
    assert!(took < Duration::from_secs(10), "took {took:?}");
}
