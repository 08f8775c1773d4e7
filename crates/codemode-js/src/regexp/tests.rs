//! Engine-level tests (the JavaScript surface is tested against node in
//! tests/differential/regexp.js).

use super::exec::{UNSET, run};
use super::*;

fn units(s: &str) -> Vec<u16> {
    s.encode_utf16().collect()
}

/// The captures of the first match of `/p/f` in `s` from 0, as strings.
fn m(p: &str, f: &str, s: &str) -> Option<Vec<Option<String>>> {
    let re = compile(&units(p), Flags::parse(&units(f)).expect("flags")).expect("compiles");
    let s = units(s);
    let mut ex = Exec::new(&re, 0);
    let mut fuel = 1_000_000i64;
    match run(&re, s.as_slice(), &mut ex, &mut fuel, 1 << 20) {
        Outcome::Match => Some(
            ex.caps
                .chunks(2)
                .map(|c| {
                    (c[0] != UNSET && c[1] != UNSET)
                        .then(|| String::from_utf16_lossy(&s[c[0] as usize..c[1] as usize]))
                })
                .collect(),
        ),
        Outcome::NoMatch => None,
        o => panic!("{p}: {o:?}"),
    }
}

fn m0(p: &str, f: &str, s: &str) -> Option<String> {
    m(p, f, s).map(|c| c[0].clone().unwrap_or_default())
}

#[test]
fn basics() {
    assert_eq!(m0("b+", "", "abbbc").as_deref(), Some("bbb"));
    assert_eq!(m0("b+?", "", "abbbc").as_deref(), Some("b"));
    assert_eq!(m0("a|ab", "", "abc").as_deref(), Some("a"));
    assert_eq!(m0("(?:a|ab)c", "", "abc").as_deref(), Some("abc"));
    assert_eq!(m0("^abc$", "", "abc").as_deref(), Some("abc"));
    assert_eq!(m0("^b", "m", "a\nb").as_deref(), Some("b"));
    assert_eq!(m0("\\bfoo\\b", "", "a foo b").as_deref(), Some("foo"));
    assert_eq!(m0("a.c", "", "a\nc"), None);
    assert_eq!(m0("a.c", "s", "a\nc").as_deref(), Some("a\nc"));
    assert_eq!(m0("[^]", "", "\n").as_deref(), Some("\n"));
    assert_eq!(m0("\\d{2,3}", "", "a12345").as_deref(), Some("123"));
    assert_eq!(m0("ABC", "i", "xabcx").as_deref(), Some("abc"));
    assert_eq!(m0("[a-z]+", "i", "XYZ").as_deref(), Some("XYZ"));
}

#[test]
fn captures_and_quantifiers() {
    // The spec's examples (§22.2.2.3.1, RepeatMatcher).
    assert_eq!(
        m("(z)((a+)?(b+)?(c))*", "", "zaacbbbcac").expect("match"),
        vec![
            Some("zaacbbbcac".into()),
            Some("z".into()),
            Some("ac".into()),
            Some("a".into()),
            None,
            Some("c".into())
        ]
    );
    assert_eq!(m0("(a*)*", "", "b").as_deref(), Some(""));
    assert_eq!(
        m("(a*)b\\1+", "", "baaaac").expect("m")[0].as_deref(),
        Some("b")
    );
    assert_eq!(m0("(?=(a+))a*b\\1", "", "baaabac").as_deref(), Some("aba"));
    assert_eq!(
        m0("(.*?)a(?!(a+)b\\2c)\\2(.*)", "", "baaabaac").as_deref(),
        Some("baaabaac")
    );
    assert_eq!(
        m0("(?<=\\$)\\d+(\\.\\d*)?", "", "cost $10.53").as_deref(),
        Some("10.53")
    );
    assert_eq!(m0("(?<!\\$)\\b\\d+", "", "$10 20").as_deref(), Some("20"));
    assert_eq!(
        m("(?<=(\\d+)(\\d+))$", "", "1053").expect("m")[1].as_deref(),
        Some("1")
    );
    assert_eq!(
        m0("(?<year>\\d{4})-\\k<year>", "", "2020-2020").as_deref(),
        Some("2020-2020")
    );
    assert_eq!(
        m0("(?:(?<a>x)|(?<a>y))\\k<a>", "", "yy").as_deref(),
        Some("yy")
    );
}

#[test]
fn unicode() {
    assert_eq!(m0(".", "u", "😀").as_deref(), Some("😀"));
    assert_eq!(m0(".", "", "😀").map(|s| s.encode_utf16().count()), Some(1));
    assert_eq!(
        m0("\\p{Script=Greek}+", "u", "abc αβγ").as_deref(),
        Some("αβγ")
    );
    assert_eq!(m0("\\p{Lu}", "u", "abcD").as_deref(), Some("D"));
    assert_eq!(m0("\\u{1F600}", "u", "x😀").as_deref(), Some("😀"));
    assert_eq!(m0("[\\p{L}--[a-z]]", "v", "abcΩ").as_deref(), Some("Ω"));
    assert_eq!(m0("[\\q{abc|d}]", "v", "xabc").as_deref(), Some("abc"));
    assert_eq!(m0("\\u212A", "iu", "k").as_deref(), Some("k"));
    assert_eq!(m0("\\u212A", "i", "k"), None);
}

#[test]
fn errors_and_bounds() {
    let e = compile(&units("a("), Flags::default()).expect_err("invalid");
    assert!(e.offset.is_some(), "{e:?}");
    let deep = "(".repeat(100_000) + &")".repeat(100_000);
    let e = compile(&units(&deep), Flags::default()).expect_err("too deep");
    assert!(e.message.contains("nesting too deep"), "{e:?}");
    let many = "()".repeat(crate::limits::MAX_REGEX_CAPTURES + 1);
    let e = compile(&units(&many), Flags::default()).expect_err("too many groups");
    assert!(e.message.contains("too many capture groups"), "{e:?}");
    let big = "a".repeat(crate::limits::MAX_REGEX_PROGRAM + 1);
    let e = compile(&units(&big), Flags::default()).expect_err("too large");
    assert!(e.message.contains("too large"), "{e:?}");
}

#[test]
fn fuel_slices_resume() {
    // ^(a+)+$ on a long non-match: exponential; it must stop each slice and continue.
    let re = compile(&units("^(a+)+$"), Flags::default()).expect("compiles");
    let s = units(&("a".repeat(18) + "b"));
    let mut ex = Exec::new(&re, 0);
    let mut slices = 0;
    loop {
        let mut fuel = 10_000i64;
        match run(&re, s.as_slice(), &mut ex, &mut fuel, 1 << 20) {
            Outcome::OutOfFuel => slices += 1,
            Outcome::NoMatch => break,
            o => panic!("{o:?}"),
        }
        assert!(fuel > -1000, "a slice overran by {}", -fuel);
    }
    assert!(slices > 10, "{slices}");
    // A stack bound trips.
    let re = compile(&units("(?:a|b)*c"), Flags::default()).expect("compiles");
    let s = units(&"a".repeat(10_000));
    let mut ex = Exec::new(&re, 0);
    let mut fuel = i64::MAX;
    assert_eq!(
        run(&re, s.as_slice(), &mut ex, &mut fuel, 1000),
        Outcome::StackLimit
    );
}

/// A compiled pattern is charged what the process holds for it: its instruction and set
/// vectors by capacity, each set's slot and range-list allocation, the source twice. (Kept
/// RegExps of 10^5 classes each held about twice their charge before: 926 MB RSS at the
/// 512 MiB default.)
#[test]
fn a_compiled_pattern_is_charged_its_real_size() {
    let p = "[a-z]".repeat(1000) + "x";
    let re = compile(&units(&p), Flags::default()).expect("compiles");
    let held = re.insts.capacity() * std::mem::size_of::<super::compile::Inst>()
        + re.sets.capacity() * std::mem::size_of::<super::classes::CharSet>()
        + re.sets.len() * 32
        + p.len() * 4;
    assert!(re.bytes >= held, "charged {} < held {held}", re.bytes);
}
