//! Limits: defaults and validation at construction (issue 2 §1).

use codemode::{LimitError, LimitName, Limits};

#[test]
fn lua_defaults() {
    let l = Limits::default();
    assert_eq!(
        (l.timeout_ms(), l.max_tool_calls(), l.max_output_bytes()),
        (120_000, 128, 65_536)
    );
    assert_eq!(l.max_memory_bytes(), None);
    assert_eq!(Limits::lua_defaults(), l);
}

#[test]
fn valid_values_are_kept() {
    let l = Limits::default()
        .with_timeout_ms(1)
        .unwrap()
        .with_max_tool_calls(0)
        .unwrap()
        .with_max_output_bytes(0)
        .unwrap()
        .with_max_memory_bytes(Some(1))
        .unwrap();
    assert_eq!(
        (l.timeout_ms(), l.max_tool_calls(), l.max_output_bytes()),
        (1, 0, 0)
    );
    assert_eq!(l.max_memory_bytes(), Some(1));
    assert_eq!(
        l.with_max_memory_bytes(None).unwrap().max_memory_bytes(),
        None
    );
}

#[test]
fn zero_timeout_is_rejected_with_name_and_range() {
    let e = Limits::default().with_timeout_ms(0).unwrap_err();
    assert_eq!(
        e,
        LimitError {
            limit: LimitName::TimeoutMs,
            value: 0
        }
    );
    assert_eq!(
        e.to_string(),
        "timeout_ms must be an integer from 1 to 9007199254740991 (got 0)"
    );
}

#[test]
fn zero_memory_is_rejected() {
    let e = Limits::default()
        .with_max_memory_bytes(Some(0))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "max_memory_bytes must be an integer from 1 to 9007199254740991 (got 0)"
    );
}

#[test]
fn negative_and_huge_values_are_rejected() {
    let e = Limits::default()
        .with(LimitName::MaxToolCalls, -1i64)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "max_tool_calls must be an integer from 0 to 9007199254740991 (got -1)"
    );
    let e = Limits::default()
        .with_max_output_bytes(u64::MAX)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "max_output_bytes must be an integer from 0 to 9007199254740991 (got 18446744073709551615)"
    );
    assert!(Limits::default().with_timeout_ms((1 << 53) - 1).is_ok());
    assert!(Limits::default().with_timeout_ms(1 << 53).is_err());
}

#[test]
fn check_reports_each_limit_range() {
    assert_eq!(Limits::check(LimitName::TimeoutMs, 5i32), Ok(5));
    assert_eq!(Limits::check(LimitName::MaxOutputBytes, 0i32), Ok(0));
    assert_eq!(LimitName::MaxToolCalls.min(), 0);
    assert_eq!(LimitName::TimeoutMs.min(), 1);
    assert_eq!(LimitName::MaxMemoryBytes.as_str(), "max_memory_bytes");
}
