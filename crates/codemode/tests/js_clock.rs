//! The builder's clock and random source reach JavaScript programs through the guest seam
//! (`Env::clock`, `Env::random`); Lua ignores them.
#![cfg(feature = "js")]

use codemode::{Clock, CodeMode, Language, Random};

async fn run(language: Language, clock: Clock, random: Random, src: &str) -> String {
    let cm = CodeMode::builder()
        .language(language)
        .clock(clock)
        .random(random)
        .build()
        .unwrap();
    cm.execute(src).await.to_json_string()
}

const SRC: &str =
    "return [new Date().toISOString(), Date.now(), Math.random(), crypto.randomUUID()]";

#[tokio::test]
async fn a_fixed_clock_and_a_seed_make_runs_repeat() {
    let fixed = Clock::Fixed(1_767_225_600_000);
    let a = run(Language::JavaScript, fixed, Random::Seed(9), SRC).await;
    let b = run(Language::JavaScript, fixed, Random::Seed(9), SRC).await;
    assert_eq!(a, b);
    assert!(
        a.starts_with(r#"{"ok":true,"value":["2026-01-01T00:00:00.000Z",1767225600000,0."#),
        "{a}"
    );
    let c = run(Language::JavaScript, fixed, Random::Seed(10), SRC).await;
    assert_ne!(a, c);
}

#[tokio::test]
async fn by_default_the_clock_is_real_and_the_numbers_fresh() {
    let a = run(Language::JavaScript, Clock::System, Random::Entropy, SRC).await;
    let b = run(
        Language::JavaScript,
        Clock::default(),
        Random::default(),
        SRC,
    )
    .await;
    assert!(a.contains(r#""ok":true"#), "{a}");
    assert_ne!(a, b);
    let year = run(
        Language::JavaScript,
        Clock::System,
        Random::Entropy,
        "return new Date().getUTCFullYear() >= 2026",
    )
    .await;
    assert!(year.contains(r#""value":true"#), "{year}");
}

#[tokio::test]
async fn lua_runs_as_before_under_a_fixed_clock() {
    let r = run(
        Language::Lua,
        Clock::Fixed(0),
        Random::Seed(1),
        "return 1 + 2",
    )
    .await;
    assert_eq!(r, r#"{"ok":true,"value":3,"toolCalls":[]}"#);
}
