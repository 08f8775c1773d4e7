//! The host's clock and random generator (`Env::clock`, `Env::random`) and the bounds of the
//! web-platform builtins.

use super::*;
use codemode_guest::{Clock, Random};

/// Run `src` under `env` to its value.
fn value_in(src: &str, env: &Env) -> Json {
    let program = crate::compile(src).expect("compiles");
    let options = StartOptions {
        max_memory_bytes: None,
        deadline: None,
    };
    let mut m = crate::machine::Machine::new(&program, env, &options).expect("starts");
    loop {
        match m.run(100_000) {
            Step::Yield => continue,
            Step::Done { value, .. } => return value,
            other => panic!("{src}: {other:?}"),
        }
    }
}

fn env(clock: Clock, random: Random) -> Env {
    Env {
        clock,
        random,
        ..Env::default()
    }
}

#[test]
fn a_fixed_clock_is_what_date_reads() {
    let e = env(Clock::Fixed(1_767_225_600_000), Random::Entropy);
    assert_eq!(
        value_in(
            "return [Date.now(), new Date().toISOString(), Date().slice(0, 15), new Date().getTimezoneOffset()]",
            &e
        ),
        json!([
            1_767_225_600_000u64,
            "2026-01-01T00:00:00.000Z",
            "Thu Jan 01 2026",
            0
        ])
    );
    let before = env(Clock::Fixed(-1), Random::Entropy);
    assert_eq!(
        value_in("return new Date().toISOString()", &before),
        json!("1969-12-31T23:59:59.999Z")
    );
    // Past the Date range: an invalid date, not a panic.
    let far = env(Clock::Fixed(i64::MAX), Random::Entropy);
    assert_eq!(
        value_in("return [Date.now(), String(new Date())]", &far),
        json!([null, "Invalid Date"])
    );
}

#[test]
fn the_system_clock_is_the_real_time() {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_millis() as f64;
    let v = value("return Date.now()").as_f64().expect("a number");
    assert!((v - now).abs() < 60_000.0, "{v} vs {now}");
}

#[test]
fn a_seed_repeats_the_numbers_and_entropy_does_not() {
    let src = "return [Math.random(), Math.random(), crypto.randomUUID()]";
    let seeded = env(Clock::System, Random::Seed(42));
    let a = value_in(src, &seeded);
    assert_eq!(a, value_in(src, &seeded));
    assert_ne!(a, value_in(src, &env(Clock::System, Random::Seed(43))));
    assert_ne!(value(src), value(src));
    let uuid = a[2].as_str().expect("a string");
    assert_eq!(uuid.len(), 36);
    assert_eq!(&uuid[14..15], "4");
    assert!(matches!(&uuid[19..20], "8" | "9" | "a" | "b"), "{uuid}");
    let x = a[0].as_f64().expect("a number");
    assert!((0.0..1.0).contains(&x));
}

#[test]
fn date_setters_read_the_date_before_converting_and_convert_every_argument() {
    // ECMA-262 (test262's date-value-read-before-tonumber and arg-coercion-order); node 20
    // stops after the first argument of an invalid date's setter.
    assert_eq!(
        value(
            "const seen = []; const d = new Date(NaN);\
             const a = (v) => ({ valueOf() { seen.push(v); d.setTime(0); return v; } });\
             const r = d.setHours(a(1), a(2), a(3), a(4));\
             const e = new Date(0);\
             const r2 = e.setMinutes({ valueOf() { e.setTime(NaN); return 5; } });\
             return [r, seen, d.getTime(), r2]"
        ),
        json!([null, [1, 2, 3, 4], 0, 300000])
    );
}

/// Run `src` under a memory cap to its error.
fn error_under(src: &str, cap: usize) -> GuestError {
    let mut m = machine(src, Some(cap)).expect("starts");
    run_to_error(&mut m)
}

#[test]
fn urls_and_params_are_charged_and_bounded() {
    // A long URL, and a params list grown without end, each hit the memory cap.
    for src in [
        "const parts = []; for (;;) { parts.push(new URL('https://a.b/?' + 'x'.repeat(100000))); }",
        "const p = new URLSearchParams(); for (let i = 0; ; i++) p.append('k' + i, 'v'.repeat(1000));",
        "const u = new URL('https://a.b/'); for (let i = 0; ; i++) u.searchParams.append('k', 'v'.repeat(50000));",
    ] {
        let e = error_under(src, 4 << 20);
        assert!(e.message.contains("memory"), "{src}: {e:?}");
    }
    // Input no parser expects: lone surrogates, NULs, a megabyte of dots (a host, as node says).
    assert_eq!(
        value(
            "return [URL.canParse('https://a.b/\\uD800'), new URL('https://a.b/\\uD800').pathname,\
             URL.canParse('http://' + '.'.repeat(1 << 20)), new URLSearchParams('\\uDC00=\\u0000').toString()]"
        ),
        json!([true, "/%EF%BF%BD", true, "%EF%BF%BD=%00"])
    );
}
