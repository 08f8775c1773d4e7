//! Validation messages, hints, integer coercion and the cost of inputs.
use super::*;
use serde_json::json;

/// Stand-in hints of a guest language.
const HINTS: InputHints = InputHints {
    empty_array: Some("EMPTY"),
    fraction: Some("FRACTION"),
};

#[test]
fn a_large_input_is_costly_by_bytes_not_only_by_values() {
    let s = CompiledSchema::compile(&json!({"type": "object"})).unwrap();
    assert!(!s.is_costly(&json!({"a": "short", "b": [1, 2, 3]})));
    assert!(s.is_costly(&json!({"a": "x".repeat(COSTLY_INPUT_BYTES)})));
    assert!(s.is_costly(&json!({"k".repeat(COSTLY_INPUT_BYTES): 1})));
    let many: Vec<_> = (0..COSTLY_INPUT_BYTES / INPUT_NODE_BYTES).collect();
    assert!(s.is_costly(&json!(many)));
    let fewer: Vec<_> = (0..COSTLY_INPUT_BYTES / INPUT_NODE_BYTES / 2).collect();
    assert!(!s.is_costly(&json!(fewer)));
}

#[test]
fn long_messages_are_clipped() {
    let s = CompiledSchema::compile(&json!({"type": "integer"})).unwrap();
    let big = "x".repeat(5000);
    let err = s.validate(&json!(big)).unwrap_err();
    assert!(err.chars().count() < MAX_ERROR_CHARS + 40, "{err}");
    assert!(err.ends_with('…'), "{err}");
}

#[test]
fn empty_object_for_an_array_gets_the_language_hint() {
    let s = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {"ids": {"type": "array"}, "tags": {"type": ["array", "null"]}}
    }))
    .unwrap();
    let err = s.validate_with(&json!({"ids": {}}), &HINTS).unwrap_err();
    assert_eq!(err, "at /ids: {} is not of type \"array\"; EMPTY");
    let err = s
        .validate_with(&json!({"ids": [], "tags": {}}), &HINTS)
        .unwrap_err();
    assert!(err.ends_with("; EMPTY"), "{err}");
    // A non-empty object, or another expected type: no hint.
    let err = s
        .validate_with(&json!({"ids": {"a": 1}}), &HINTS)
        .unwrap_err();
    assert_eq!(err, "at /ids: {\"a\":1} is not of type \"array\"");
    // Tool outputs: no hint.
    assert_eq!(
        s.validate_output(&json!({"ids": {}})).unwrap_err(),
        "at /ids: {} is not of type \"array\""
    );
    let n = CompiledSchema::compile(&json!({"type": "integer"})).unwrap();
    assert_eq!(
        n.validate_with(&json!({}), &HINTS).unwrap_err(),
        "at the top level: {} is not of type \"integer\""
    );
}

#[test]
fn many_errors_are_summarized() {
    let s =
        CompiledSchema::compile(&json!({"type": "array", "items": {"type": "integer"}})).unwrap();
    let err = s.validate(&json!(["a", "b", "c", "d", "e"])).unwrap_err();
    assert_eq!(
        err,
        "at /0: \"a\" is not of type \"integer\"; at /1: \"b\" is not of type \"integer\"; \
         at /2: \"c\" is not of type \"integer\" (and 2 more)"
    );
}

fn coerce(schema: Value, input: Value) -> Value {
    CompiledSchema::compile(&schema)
        .unwrap()
        .coerce_integers(input)
}

/// `true` when every number in `v` has the same integer/float kind as in `want` and equals it.
fn same_kinds(v: &Value, want: &Value) -> bool {
    match (v, want) {
        (Value::Number(a), Value::Number(b)) => {
            a.is_f64() == b.is_f64() && a.as_f64() == b.as_f64()
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_kinds(x, y))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, x)| b.get(k).is_some_and(|y| same_kinds(x, y)))
        }
        _ => v == want,
    }
}

#[track_caller]
fn assert_coerced(schema: Value, input: Value, want: Value) {
    let got = coerce(schema, input);
    assert!(same_kinds(&got, &want), "got {got}, want {want}");
}

#[test]
fn schemas_without_integers_have_no_plan() {
    for schema in [
        json!({}),
        json!(true),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"x": {"type": "number"}, "s": {"type": "string"}}}),
        json!({"type": "array", "items": {"type": ["number", "integer"]}}),
        json!({"$defs": {"n": {"type": "integer"}}, "type": "object"}),
        json!({"anyOf": [{"type": "integer"}, {"type": "number"}]}),
    ] {
        let s = CompiledSchema::compile(&schema).unwrap();
        assert!(!s.has_integer_positions(), "{schema}");
        let v = json!({"x": 2.0, "n": [1.0]});
        assert!(same_kinds(&s.coerce_integers(v.clone()), &v));
    }
}

#[test]
fn integral_floats_at_integer_places_become_integers() {
    let schema = json!({
        "type": "object",
        "properties": {
            "page": {"type": "integer"},
            "ratio": {"type": "number"},
            "maybe": {"type": ["integer", "null"]},
            "ids": {"type": "array", "items": {"type": "integer"}},
            "grid": {"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}
        }
    });
    assert_coerced(
        schema.clone(),
        json!({"page": 2.0, "ratio": 2.0, "maybe": 3.0, "ids": [2.0, 3, 4.5],
               "grid": [[1.0], [2.0, -0.0]], "extra": 5.0}),
        json!({"page": 2, "ratio": 2.0, "maybe": 3, "ids": [2, 3, 4.5],
               "grid": [[1], [2, 0]], "extra": 5.0}),
    );
    // Out of i64 but within u64: u64; beyond: left alone. Non-numbers: left alone.
    assert_coerced(
        schema.clone(),
        json!({"page": 1e19, "maybe": 1e300, "ids": [-9_223_372_036_854_775_808.0, "2.0", null]}),
        json!({"page": 10000000000000000000u64, "maybe": 1e300,
               "ids": [i64::MIN, "2.0", null]}),
    );
    // The top level itself.
    assert_coerced(json!({"type": "integer"}), json!(7.0), json!(7));
    assert_coerced(json!({"type": "integer"}), json!(7.5), json!(7.5));
}

#[test]
fn refs_combinators_and_tuples_are_followed() {
    // schemars' shape: $ref into $defs, Option<T> as anyOf with null, nested structs.
    let schema = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "filter": {"$ref": "#/$defs/Filter"},
            "maybe": {"anyOf": [{"$ref": "#/$defs/Filter"}, {"type": "null"}]},
            "all": {"type": "array", "items": {"$ref": "#/$defs/Filter"}},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
                     "items": {"type": "number"}},
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "both": {"allOf": [{"properties": {"a": {"type": "integer"}}},
                               {"properties": {"b": {"type": "integer"}}}]},
            "pick": {"enum": [1, 2, 3]},
            "escaped": {"$ref": "#/$defs/with~1slash%20space"}
        },
        "$defs": {
            "Filter": {"type": "object", "properties": {"min": {"type": "integer", "format": "int64"}}},
            "with/slash space": {"type": "integer"}
        }
    });
    assert_coerced(
        schema,
        json!({
            "filter": {"min": 1.0}, "maybe": {"min": 2.0}, "all": [{"min": 3.0}, {"min": 4.0}],
            "pair": ["a", 5.0, 6.0], "counts": {"x": 9.0, "y": 10.0},
            "both": {"a": 11.0, "b": 12.0}, "pick": 2.0, "escaped": 13.0
        }),
        json!({
            "filter": {"min": 1}, "maybe": {"min": 2}, "all": [{"min": 3}, {"min": 4}],
            "pair": ["a", 5, 6.0], "counts": {"x": 9, "y": 10},
            "both": {"a": 11, "b": 12}, "pick": 2, "escaped": 13
        }),
    );
}

#[test]
fn draft7_tuples_and_definitions() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "old": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                    "additionalItems": {"$ref": "#/definitions/n"}},
            "open": {"type": "array", "items": [{"type": "integer"}]}
        },
        "definitions": {"n": {"type": "integer"}}
    });
    assert_coerced(
        schema,
        json!({"old": ["a", 7.0, 8.0, 9.0], "open": [1.0, 2.0]}),
        json!({"old": ["a", 7, 8, 9], "open": [1, 2.0]}),
    );
}

#[test]
fn named_keys_shadow_additional_properties_and_patterns_stop_them() {
    let schema = json!({
        "type": "object",
        "properties": {"ratio": {"type": "number"}, "note": {}},
        "additionalProperties": {"type": "integer"}
    });
    assert_coerced(
        schema,
        json!({"ratio": 1.0, "note": 1.0, "n": 1.0}),
        json!({"ratio": 1.0, "note": 1.0, "n": 1}),
    );
    // `note` is named (with no type), so additionalProperties does not apply to it.
    let schema = json!({
        "type": "object",
        "patternProperties": {"^r": {"type": "number"}},
        "additionalProperties": {"type": "integer"}
    });
    assert!(
        !CompiledSchema::compile(&schema)
            .unwrap()
            .has_integer_positions()
    );
}

#[test]
fn recursive_schemas_and_deep_values_are_bounded() {
    let schema = json!({
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {
            "n": {"type": "integer"},
            "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }}}
    });
    let s = CompiledSchema::compile(&schema).unwrap();
    let mut v = json!({"n": 0.0});
    let mut want = json!({"n": 0});
    for i in 1..300 {
        v = json!({"n": i as f64, "kids": [v]});
        want = json!({"n": i, "kids": [want]});
    }
    assert!(same_kinds(&s.coerce_integers(v), &want));
    // A $ref cycle that never reaches a type, and one through allOf.
    for schema in [
        json!({"$ref": "#"}),
        json!({"allOf": [{"$ref": "#"}], "properties": {"x": {"$ref": "#"}}}),
        json!({"$ref": "#/$defs/missing"}),
        json!({"$ref": "https://example.com/remote"}),
    ] {
        let s = CompiledSchema::compile(&schema);
        if let Ok(s) = s {
            assert!(!s.has_integer_positions(), "{schema}");
        }
    }
    // Many places: plain integers share one node; past the bound, places get no plan.
    for (n, covered) in [(2000, true), (5000, false)] {
        let mut props = serde_json::Map::new();
        for i in 0..n {
            props.insert(
                format!("k{i:05}"),
                json!({"type": "object", "properties": {"v": {"type": "integer"}}}),
            );
        }
        let s = CompiledSchema::compile(&json!({"type": "object", "properties": props})).unwrap();
        let nodes = s.integers.as_ref().unwrap().nodes.len();
        assert!(nodes <= MAX_PLAN_NODES + 1, "{nodes}");
        let last = format!("k{:05}", n - 1);
        let got = s.coerce_integers(json!({"k00000": {"v": 1.0}, last.clone(): {"v": 1.0}}));
        assert!(same_kinds(&got["k00000"], &json!({"v": 1})), "{got}");
        let want = if covered {
            json!({"v": 1})
        } else {
            json!({"v": 1.0})
        };
        assert!(same_kinds(&got[&last], &want), "{got}");
    }
}

#[test]
fn fractions_and_huge_integers_are_reported_with_what_to_do() {
    let s = CompiledSchema::compile(&json!({
        "type": "object",
        "properties": {
            "page": {"type": "integer"},
            "ids": {"type": "array", "items": {"type": ["integer", "null"]}},
            "ratio": {"type": "number"}
        }
    }))
    .unwrap();
    assert_eq!(
        s.validate_with(&json!({"page": 2.5}), &HINTS).unwrap_err(),
        "at /page: 2.5 is not of type \"integer\"; FRACTION"
    );
    let err = s
        .validate_with(&json!({"ids": [1, 0.5]}), &HINTS)
        .unwrap_err();
    assert!(err.starts_with("at /ids/1: 0.5 is not of type"), "{err}");
    assert!(err.ends_with("; FRACTION"), "{err}");
    // Integral but too large: JSON Schema accepts it, we do not.
    assert_eq!(
        s.validate(&json!({"ids": [1, 1e300], "ratio": 1e300}))
            .unwrap_err(),
        "at /ids/1: 1e+300 is too large for an integer (integers go from \
         -9223372036854775808 to 18446744073709551615)"
    );
    assert_eq!(
        s.validate(&json!({"page": -1e19})).unwrap_err(),
        "at /page: -1e+19 is too large for an integer (integers go from \
         -9223372036854775808 to 18446744073709551615)"
    );
    assert!(s.validate(&json!({"page": 2.0, "ratio": 1e300})).is_ok());
    // Outputs: no hint.
    assert_eq!(
        s.validate_output(&json!({"page": 2.5})).unwrap_err(),
        "at /page: 2.5 is not of type \"integer\""
    );
    let k = CompiledSchema::compile(
        &json!({"type": "object", "properties": {"a~/b": {"type": "integer"}}}),
    )
    .unwrap();
    assert_eq!(
        k.validate(&json!({"a~/b": 1e20})).unwrap_err(),
        "at /a~0~1b: 1e+20 is too large for an integer (integers go from \
         -9223372036854775808 to 18446744073709551615)"
    );
}
