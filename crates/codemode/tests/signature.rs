//! Signature rendering (issue 4 "Signatures"): exact renderings of typical shapes in both
//! notations, schema edge cases, and every real MCP / GitHub OpenAPI fixture rendered in both
//! languages and styles without panicking and without `unknown` where the schema is
//! representable.

use std::path::PathBuf;

use codemode::Language::{JavaScript as Ts, Lua};
use codemode::signature::{
    MAX_DEPTH, Style, UnknownCause, is_empty_input, render_output_type, render_type, signature,
    tool_expression, unknown_causes,
};
use serde_json::{Value, json};

fn compact(s: &Value, lang: codemode::Language) -> String {
    render_type(s, lang, Style::Compact)
}

fn pretty(s: &Value, lang: codemode::Language) -> String {
    render_type(s, lang, Style::Pretty)
}

// ------------------------------------------------------------------------------------------
// Typical shapes, exact

#[test]
fn orders_lookup_in_both_notations() {
    let input = json!({
        "type": "object",
        "properties": {"id": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["id"]
    });
    let output = json!({
        "type": "object",
        "properties": {"id": {"type": "string"}, "status": {"enum": ["open", "complete"]}},
        "required": ["id", "status"]
    });
    assert_eq!(
        signature("orders.lookup", &input, Some(&output), Lua, Style::Compact),
        r#"tools.orders.lookup({ id: string, limit?: integer }) -> { id: string, status: "open"|"complete" }"#
    );
    assert_eq!(
        signature("orders.lookup", &input, Some(&output), Ts, Style::Compact),
        r#"tools.orders.lookup(input: { id: string; limit?: number }): Promise<{ id: string; status: "open" | "complete" }>"#
    );
    // Pretty: short undocumented objects stay on one line.
    assert_eq!(
        signature("orders.lookup", &input, Some(&output), Lua, Style::Pretty),
        r#"tools.orders.lookup({ id: string, limit?: integer }) -> { id: string, status: "open"|"complete" }"#
    );
}

fn repo_issues_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "owner": {"type": "string", "description": "Repository owner"},
            "after": {"type": "string"},
            "perPage": {"type": "integer", "description": "Results per page", "default": 30, "minimum": 1, "maximum": 100},
            "labels": {"type": "array", "items": {"type": "string"}, "description": "Filter by labels", "minItems": 1, "maxItems": 10},
            "state": {"enum": ["open", "closed"]}
        },
        "required": ["owner"]
    })
}

#[test]
fn pretty_typescript_has_jsdoc_with_constraint_tags() {
    assert_eq!(
        pretty(&repo_issues_schema(), Ts),
        r#"{
  /** Repository owner */
  owner: string;
  after?: string;
  /** Results per page. @default 30 @integer @minimum 1 @maximum 100 */
  perPage?: number;
  /** Filter by labels. @minItems 1 @maxItems 10 */
  labels?: string[];
  state?: "open" | "closed";
}"#
    );
    assert_eq!(
        compact(&repo_issues_schema(), Ts),
        r#"{ owner: string; after?: string; perPage?: number; labels?: string[]; state?: "open" | "closed" }"#
    );
}

#[test]
fn pretty_lua_has_comments_beside_fields() {
    assert_eq!(
        pretty(&repo_issues_schema(), Lua),
        r#"{
  owner: string, -- Repository owner
  after?: string,
  perPage?: integer, -- Results per page. @default 30 @minimum 1 @maximum 100
  labels?: string[], -- Filter by labels. @minItems 1 @maxItems 10
  state?: "open"|"closed",
}"#
    );
}

#[test]
fn multi_line_descriptions_and_comment_terminators() {
    let s = json!({
        "type": "object",
        "properties": {
            "q": {"type": "string", "description": "\n  First line.\n\nSecond */ line.   \n\n"},
            "n": {"type": "number", "description": "Maximum attempts!", "exclusiveMinimum": 0}
        }
    });
    assert_eq!(
        pretty(&s, Ts),
        "{\n  /**\n   * First line.\n   *\n   * Second * / line.\n   */\n  q?: string;\n  \
         /** Maximum attempts!. @exclusiveMinimum 0 */\n  n?: number;\n}"
    );
    assert_eq!(
        pretty(&s, Lua),
        "{\n  -- First line.\n  --\n  -- Second */ line.\n  q?: string,\n  \
         n?: number, -- Maximum attempts!. @exclusiveMinimum 0\n}"
    );
}

#[test]
fn real_fixture_edit_file_pretty() {
    let fs = load("mcp/filesystem.json");
    let tool = find(&fs, "edit_file");
    assert_eq!(
        signature(
            "filesystem.edit_file",
            &tool["inputSchema"],
            tool.get("outputSchema"),
            Lua,
            Style::Pretty
        ),
        r#"tools.filesystem.edit_file({
  path: string,
  edits: {
    oldText: string, -- Text to search for - must match exactly
    newText: string, -- Text to replace with
  }[],
  dryRun?: boolean, -- Preview changes using git-style diff format. @default false
}) -> { content: string }"#
    );
    assert_eq!(
        signature(
            "filesystem.edit_file",
            &tool["inputSchema"],
            tool.get("outputSchema"),
            Ts,
            Style::Pretty
        ),
        r#"tools.filesystem.edit_file(input: {
  path: string;
  edits: {
    /** Text to search for - must match exactly */
    oldText: string;
    /** Text to replace with */
    newText: string;
  }[];
  /** Preview changes using git-style diff format. @default false */
  dryRun?: boolean;
}): Promise<{ content: string }>"#
    );
}

#[test]
fn real_fixture_refs_into_defs() {
    let time = load("mcp/time.json");
    let tool = find(&time, "convert_time");
    let out = tool["outputSchema"].clone();
    assert_eq!(
        compact(&out, Lua),
        "{ source: { timezone: string, datetime: string, day_of_week: string, is_dst: boolean }, \
         target: { timezone: string, datetime: string, day_of_week: string, is_dst: boolean }, \
         time_difference: string }"
    );
}

#[test]
fn empty_input_and_missing_output() {
    for input in [
        json!({}),
        json!(true),
        json!({"not": {"type": "null"}, "title": "Empty"}),
        json!({"type": "object"}),
        json!({"type": "object", "properties": {}}),
        json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {}}),
    ] {
        assert!(is_empty_input(&input), "{input}");
        assert_eq!(
            signature("a.ping", &input, None, Lua, Style::Pretty),
            "tools.a.ping() -> unknown"
        );
        assert_eq!(
            signature("a.ping", &input, None, Ts, Style::Pretty),
            "tools.a.ping(): Promise<unknown>"
        );
    }
    for input in [
        json!({"type": "object", "additionalProperties": {"type": "string"}}),
        json!({"type": "object", "properties": {"a": {"type": "string"}}}),
    ] {
        assert!(!is_empty_input(&input), "{input}");
    }
}

// ------------------------------------------------------------------------------------------
// Schema features

#[test]
fn other_not_keywords_are_ignored() {
    assert_eq!(
        compact(&json!({"type": "string", "not": {"enum": [""]}}), Lua),
        "string"
    );
    assert_eq!(compact(&json!({"not": {"type": "string"}}), Lua), "unknown");
}

#[test]
fn enums_consts_and_literals() {
    let s = json!({"enum": ["a", 1, 2.5, true, null]});
    assert_eq!(compact(&s, Ts), r#""a" | 1 | 2.5 | true | null"#);
    assert_eq!(compact(&s, Lua), r#""a"|1|2.5|true|json.null"#);
    assert_eq!(compact(&json!({"const": "x\ty"}), Lua), r#""x\ty""#);
    assert_eq!(compact(&json!({"const": 7}), Ts), "7");
    // Object/array enum values are not expressible: unknown, with the cause.
    let s = json!({"enum": [{"a": 1}]});
    assert_eq!(compact(&s, Lua), "unknown");
    assert!(matches!(
        unknown_causes(&s).as_slice(),
        [UnknownCause::Unsupported(_)]
    ));
}

#[test]
fn unions_nullable_and_type_lists() {
    let s = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(compact(&s, Ts), "string | number");
    assert_eq!(compact(&s, Lua), "string|integer");
    let s = json!({"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                             {"type": "null"}]});
    assert_eq!(compact(&s, Ts), "{ a: string } | null");
    assert_eq!(compact(&s, Lua), "{ a: string }|json.null");
    // OpenAPI 3.0 nullable.
    assert_eq!(
        compact(&json!({"type": "string", "nullable": true}), Ts),
        "string | null"
    );
    // Type lists.
    assert_eq!(
        compact(&json!({"type": ["string", "null"]}), Lua),
        "string|json.null"
    );
    assert_eq!(
        compact(
            &json!({"type": ["object", "null"], "properties": {"name": {"type": "string"}}}),
            Ts
        ),
        "{ name?: string } | null"
    );
    // A union whose branch is not representable is unknown, and then dropped next to a type.
    let s = json!({"type": "string", "anyOf": [{"format": "email"}, {"format": "uri"}]});
    assert_eq!(compact(&s, Lua), "string");
    // Object-valued branches that only add `required` keep the base object.
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                   "oneOf": [{"required": ["a"]}, {"required": ["b"]}]});
    assert_eq!(compact(&s, Lua), "{ a?: string, b?: string }");
    // Effect's non-finite number encoding reads as number.
    let s = json!({"anyOf": [{"type": "number"}, {"type": "string", "enum": ["NaN", "Infinity", "-Infinity"]}]});
    assert_eq!(compact(&s, Ts), "number");
}

#[test]
fn all_of_merges_objects_or_intersects() {
    let s = json!({
        "$defs": {"Base": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
        "allOf": [{"$ref": "#/$defs/Base"}, {"type": "object", "properties": {"active": {"type": "boolean"}}}]
    });
    assert_eq!(compact(&s, Lua), "{ id: string, active?: boolean }");
    assert_eq!(compact(&s, Ts), "{ id: string; active?: boolean }");
    let s = json!({"allOf": [{"type": "string"}, {"enum": ["a", "b"]}]});
    assert_eq!(compact(&s, Ts), r#"string & ("a" | "b")"#);
    // A $ref with sibling keywords is intersected (here: merged) with them.
    let s = json!({
        "definitions": {"P": {"type": "object", "properties": {"x": {"type": "number"}}}},
        "$ref": "#/definitions/P", "properties": {"y": {"type": "number"}}
    });
    assert_eq!(compact(&s, Lua), "{ y?: number, x?: number }");
}

#[test]
fn arrays_tuples_and_maps() {
    assert_eq!(
        compact(&json!({"type": "array", "items": {"type": "integer"}}), Lua),
        "integer[]"
    );
    let union_items = json!({"type": "array", "items": {"enum": ["a", "b"]}});
    assert_eq!(compact(&union_items, Lua), r#"("a"|"b")[]"#);
    assert_eq!(compact(&union_items, Ts), r#"Array<"a" | "b">"#);
    let tuple = json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]});
    assert_eq!(compact(&tuple, Ts), "[string, number]");
    assert_eq!(compact(&tuple, Lua), "{ string, integer }");
    let rest =
        json!({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "number"}});
    assert_eq!(compact(&rest, Ts), "[string, ...number[]]");
    assert_eq!(compact(&rest, Lua), "{ string, ...number }");
    // Draft-07 tuple form.
    let old = json!({"type": "array", "items": [{"type": "boolean"}], "additionalItems": false});
    assert_eq!(compact(&old, Ts), "[boolean]");
    let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
    assert_eq!(compact(&map, Ts), "{ [key: string]: number }");
    assert_eq!(compact(&map, Lua), "{ [string]: integer }");
    let any_map = json!({"type": "object", "additionalProperties": true});
    assert_eq!(compact(&any_map, Lua), "{ [string]: unknown }");
    let mixed = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                       "additionalProperties": {"type": "number"}});
    assert_eq!(compact(&mixed, Ts), "{ a: string; [key: string]: number }");
    assert_eq!(compact(&mixed, Lua), "{ a: string, [string]: number }");
    let pattern = json!({"type": "object", "patternProperties": {"^x-": {"type": "string"}}});
    assert_eq!(compact(&pattern, Lua), "{ [string]: string }");
}

#[test]
fn keys_that_are_not_identifiers_are_quoted() {
    let s = json!({"type": "object", "properties": {
        "foo-bar": {"type": "string"}, "123": {"type": "number"}, "end": {"type": "boolean"},
        "$id": {"type": "string"}, "ok_1": {"type": "string"}
    }, "required": ["end"]});
    assert_eq!(
        compact(&s, Ts),
        r#"{ "foo-bar"?: string; "123"?: number; end: boolean; $id?: string; ok_1?: string }"#
    );
    assert_eq!(
        compact(&s, Lua),
        r#"{ ["foo-bar"]?: string, ["123"]?: number, ["end"]: boolean, ["$id"]?: string, ok_1?: string }"#
    );
}

#[test]
fn recursive_refs_stop_at_the_cycle() {
    let s = json!({
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
        }}}
    });
    assert_eq!(compact(&s, Lua), "{ name?: string, children?: unknown[] }");
    assert_eq!(compact(&s, Ts), "{ name?: string; children?: unknown[] }");
    assert_eq!(
        unknown_causes(&s),
        vec![UnknownCause::Cycle("#/$defs/Node".into())]
    );
    // Components refs (OpenAPI) and JSON-pointer escapes.
    let s = json!({
        "components": {"schemas": {"a/b": {"type": "integer"}, "c d": {"type": "string"}}},
        "type": "object",
        "properties": {"x": {"$ref": "#/components/schemas/a~1b"}, "y": {"$ref": "#/components/schemas/c%20d"}}
    });
    assert_eq!(compact(&s, Lua), "{ x?: integer, y?: string }");
    // Unresolvable references.
    let s = json!({"$ref": "other.json#/x"});
    assert_eq!(compact(&s, Lua), "unknown");
    assert_eq!(
        unknown_causes(&s),
        vec![UnknownCause::UnresolvedRef("other.json#/x".into())]
    );
}

#[test]
fn nested_defs_scopes_are_found() {
    let s = json!({"type": "object", "properties": {"inner": {
        "$defs": {"Id": {"type": "string", "format": "uuid"}},
        "type": "object", "properties": {"id": {"$ref": "#/$defs/Id"}}
    }}});
    assert_eq!(compact(&s, Lua), "{ inner?: { id?: string } }");
}

#[test]
fn depth_cap_renders_unknown() {
    let mut s = json!({"type": "string"});
    for _ in 0..12 {
        s = json!({"type": "object", "properties": {"a": s}});
    }
    let out = compact(&s, Lua);
    // Objects at depths 0..=MAX_DEPTH are shown; the property one level deeper is unknown.
    assert_eq!(out.matches("a?:").count(), MAX_DEPTH + 1);
    assert!(out.contains("a?: unknown"), "{out}");
    assert!(unknown_causes(&s).contains(&UnknownCause::Depth));
    // Very deep schemas (deeper than any recursion limit) do not overflow the stack.
    let mut deep = json!({"type": "string"});
    for _ in 0..5_000 {
        // (not `json!`, which would serialize `deep` recursively)
        let mut m = serde_json::Map::new();
        m.insert("anyOf".into(), Value::Array(vec![deep]));
        deep = Value::Object(m);
    }
    assert_eq!(compact(&deep, Lua), "unknown");
    std::mem::forget(deep); // serde_json's recursive drop of 5000 levels is not what is tested
}

#[test]
fn long_reference_chains_are_bounded() {
    // D0 -> D1 -> ... -> D9999 -> string: no structure between the references.
    let mut defs = serde_json::Map::new();
    for i in 0..10_000 {
        defs.insert(
            format!("D{i}"),
            json!({"$ref": format!("#/$defs/D{}", i + 1)}),
        );
    }
    defs.insert("D10000".into(), json!({"type": "string"}));
    let s = json!({"$defs": defs, "type": "object", "properties": {"x": {"$ref": "#/$defs/D0"}}});
    assert_eq!(compact(&s, Lua), "{ x?: unknown }");
    assert_eq!(unknown_causes(&s), vec![UnknownCause::Depth]);
    // A short chain resolves.
    let s = json!({"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "integer"}}, "$ref": "#/$defs/A"});
    assert_eq!(compact(&s, Lua), "integer");
}

#[test]
fn item_and_value_docs_are_attached_to_the_field() {
    let s = json!({"type": "object", "properties": {
        "tags": {"type": "array", "description": "Tags to set.", "maxItems": 5,
                 "items": {"type": "string", "description": "A tag name", "maxLength": 20}},
        "scores": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    }});
    assert_eq!(
        pretty(&s, Lua),
        "{\n  -- Tags to set. @maxItems 5\n  -- Each item: A tag name. @maxLength 20\n  tags?: string[],\n  \
         scores?: { [string]: integer }, -- Each value: @minimum 0\n}"
    );
    assert_eq!(
        pretty(&s, Ts),
        "{\n  /**\n   * Tags to set. @maxItems 5\n   * Each item: A tag name. @maxLength 20\n   */\n  tags?: string[];\n  \
         /** Each value: @integer @minimum 0 */\n  scores?: { [key: string]: number };\n}"
    );
}

#[test]
fn reference_fan_out_is_bounded() {
    // Each level has 10 properties referring to the next level: 10^8 paths when expanded.
    let mut defs = serde_json::Map::new();
    for level in 0..8 {
        let mut props = serde_json::Map::new();
        for i in 0..10 {
            props.insert(
                format!("p{i}"),
                json!({"$ref": format!("#/$defs/L{}", level + 1)}),
            );
        }
        defs.insert(
            format!("L{level}"),
            json!({"type": "object", "properties": props}),
        );
    }
    defs.insert("L8".into(), json!({"type": "string"}));
    let s = json!({"$defs": defs, "$ref": "#/$defs/L0"});
    let start = std::time::Instant::now();
    let out = compact(&s, Ts);
    assert!(start.elapsed().as_secs() < 5);
    assert!(out.len() < 200_000, "{}", out.len());
    assert!(unknown_causes(&s).contains(&UnknownCause::Budget));
}

#[test]
fn malformed_schemas_render_unknown_without_panicking() {
    for s in [
        json!({"type": 5}),
        json!({"type": "strin"}),
        json!({"type": ["string", 1]}),
        json!({"enum": "a"}),
        json!({"enum": []}),
        json!({"$ref": 5}),
        json!({"allOf": 5}),
        json!({"properties": 5}),
        json!(false),
        json!(42),
        json!([1, 2]),
    ] {
        for lang in [Lua, Ts] {
            for style in [Style::Compact, Style::Pretty] {
                let out = render_type(&s, lang, style);
                assert!(
                    out == "unknown" || out == "{}",
                    "{s} rendered {out:?} in {lang:?}"
                );
            }
        }
    }
    assert!(matches!(
        unknown_causes(&json!({"type": 5})).as_slice(),
        [UnknownCause::Invalid(_)]
    ));
    // Property docs with odd values do not break anything.
    let s = json!({"type": "object", "properties": {"a": {"type": "string", "description": 5, "default": {"x": [1]},
        "pattern": "^[a-z]+$", "format": "email", "deprecated": true, "uniqueItems": true}}});
    assert_eq!(
        pretty(&s, Ts),
        "{\n  /** @deprecated @default {\"x\":[1]} @format email @pattern ^[a-z]+$ @uniqueItems true */\n  a?: string;\n}"
    );
}

#[test]
fn expressions() {
    assert_eq!(
        tool_expression("context7.resolve-library-id", Ts),
        r#"tools.context7["resolve-library-id"]"#
    );
    assert_eq!(
        tool_expression("context7.resolve-library-id", Lua),
        r#"tools.context7["resolve-library-id"]"#
    );
    for kw in ["end", "function", "nil", "local", "repeat", "until", "goto"] {
        assert_eq!(
            tool_expression(&format!("x.{kw}"), Lua),
            format!("tools.x[\"{kw}\"]")
        );
    }
    assert_eq!(tool_expression("x.end", Ts), "tools.x.end");
    assert_eq!(tool_expression("$x.y_1", Ts), "tools.$x.y_1");
    assert_eq!(tool_expression("$x.y_1", Lua), "tools[\"$x\"].y_1");
    assert_eq!(tool_expression("a.new", Ts), "tools.a[\"new\"]");
    assert_eq!(tool_expression("émoji.x", Lua), "tools[\"émoji\"].x");
}

// ------------------------------------------------------------------------------------------
// Real fixtures

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(fixtures_dir().join(name)).expect("fixture readable");
    serde_json::from_str(&text).expect("fixture is JSON")
}

fn find<'a>(fixture: &'a Value, name: &str) -> &'a Value {
    fixture["tools"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["name"] == name))
        .expect("tool in fixture")
}

/// The fixture's tools as (path, input, output), with shared OpenAPI components attached.
fn tools_of(fixture: &Value) -> Vec<(String, Value, Option<Value>)> {
    let server = fixture["server"].as_str().expect("server name");
    let attach = |s: &Value| {
        let mut s = s.clone();
        if let (Some(c), Some(o)) = (fixture.get("components"), s.as_object_mut()) {
            o.insert("components".into(), c.clone());
        }
        s
    };
    fixture["tools"]
        .as_array()
        .expect("tools array")
        .iter()
        .map(|t| {
            (
                format!("{server}.{}", t["name"].as_str().expect("tool name")),
                attach(&t["inputSchema"]),
                t.get("outputSchema").map(attach),
            )
        })
        .collect()
}

fn mcp_fixtures() -> Vec<Value> {
    ["everything", "filesystem", "memory", "time", "git"]
        .iter()
        .map(|n| load(&format!("mcp/{n}.json")))
        .collect()
}

fn render_all_ways(path: &str, input: &Value, output: Option<&Value>) -> Vec<String> {
    let mut all = Vec::new();
    for lang in [Lua, Ts] {
        for style in [Style::Compact, Style::Pretty] {
            all.push(signature(path, input, output, lang, style));
        }
    }
    all
}

#[test]
fn every_mcp_fixture_renders_without_unknown() {
    let mut inputs = 0;
    let mut outputs = 0;
    for fixture in mcp_fixtures() {
        for (path, input, output) in tools_of(&fixture) {
            inputs += 1;
            for text in render_all_ways(&path, &input, output.as_ref()) {
                assert!(text.starts_with("tools."), "{text}");
            }
            assert_eq!(unknown_causes(&input), vec![], "{path} input");
            let lua = signature(&path, &input, output.as_ref(), Lua, Style::Compact);
            let ts = signature(&path, &input, output.as_ref(), Ts, Style::Compact);
            match &output {
                Some(out) => {
                    outputs += 1;
                    assert_eq!(unknown_causes(out), vec![], "{path} output");
                    assert!(!lua.contains("unknown"), "{lua}");
                    assert!(!ts.contains("unknown"), "{ts}");
                }
                None => {
                    assert!(lua.ends_with(" -> unknown"), "{lua}");
                    assert!(ts.ends_with("): Promise<unknown>"), "{ts}");
                    assert_eq!(lua.matches("unknown").count(), 1, "{lua}");
                }
            }
        }
    }
    assert!(inputs >= 40, "only {inputs} input schemas");
    assert_eq!((inputs, outputs), (50, 26));
}

#[test]
fn github_openapi_fixture_renders_with_only_depth_and_any_unknowns() {
    let fixture = load("openapi_github.json");
    let tools = tools_of(&fixture);
    assert!(tools.len() >= 20);
    for (path, input, output) in tools {
        for text in render_all_ways(&path, &input, output.as_ref()) {
            assert!(text.starts_with("tools.github"), "{text}");
        }
        // Inputs (parameters and request bodies) are fully representable.
        assert_eq!(unknown_causes(&input), vec![], "{path} input");
        let lua = signature(&path, &input, None, Lua, Style::Compact);
        assert_eq!(lua.matches("unknown").count(), 1, "{lua}"); // the missing output only
        // Outputs: `unknown` only at the depth cap or for schemas that allow any value.
        let output = output.expect("every chosen operation has a JSON response");
        let causes = unknown_causes(&output);
        for c in &causes {
            assert!(
                matches!(c, UnknownCause::Depth | UnknownCause::Any),
                "{path}: {c:?}"
            );
        }
        if causes.is_empty() {
            let ts = signature(&path, &input, Some(&output), Ts, Style::Compact);
            assert!(!ts.contains("unknown"), "{ts}");
        }
    }
}

#[test]
fn lua_outputs_show_nullable_fields_as_optional() {
    let out = json!({"type": "object", "properties": {
        "next": {"type": ["integer", "null"]},
        "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "b": {"oneOf": [{"type": "object", "properties": {"offset": {"type": "integer"}}, "required": ["offset"]}, {"type": "null"}]},
        "c": {"type": "string", "nullable": true},
        "d": {"type": "null"},
        "list": {"type": "array", "items": {"type": ["integer", "null"]}},
        "rows": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": ["number", "null"]}}, "required": ["x"]}},
        "pair": {"prefixItems": [{"type": "string"}, {"type": "null"}]},
        "map": {"type": "object", "additionalProperties": {"type": ["integer", "null"]}}
    }, "required": ["next", "a", "b", "c", "d", "list", "rows", "pair", "map"]});
    assert_eq!(
        signature("t.x", &json!({}), Some(&out), Lua, Style::Compact),
        "tools.t.x() -> { next?: integer, a?: string, b?: { offset: integer }, c?: string, d?: nil, \
         list: (integer|json.null)[], rows: { x?: number }[], pair: { string, json.null }, \
         map: { [string]: integer } }"
    );
    // TypeScript notation is unchanged.
    assert_eq!(
        signature(
            "t.x",
            &json!({}),
            Some(&json!({"type": "object", "properties": {
            "next": {"type": ["integer", "null"]}}, "required": ["next"]})),
            Ts,
            Style::Compact
        ),
        "tools.t.x(): Promise<{ next: number | null }>"
    );
    // A nullable result arrives as nil.
    let top = json!({"anyOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "null"}]});
    assert_eq!(
        signature("t.x", &json!({}), Some(&top), Lua, Style::Compact),
        "tools.t.x() -> { a: string }|nil"
    );
    assert_eq!(
        render_output_type(&json!({"type": "null"}), Lua, Style::Compact),
        "nil"
    );
    assert_eq!(
        render_output_type(&json!({"type": ["integer", "null"]}), Lua, Style::Compact),
        "integer|nil"
    );
    // Inputs keep `json.null` (a program sends null with it).
    let input = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}, "required": ["n"]});
    assert_eq!(
        signature("t.x", &input, None, Lua, Style::Compact),
        "tools.t.x({ n: integer|json.null }) -> unknown"
    );
}

#[test]
fn github_nullable_and_formats_render() {
    let fixture = load("openapi_github.json");
    let tools = tools_of(&fixture);
    let (path, input, output) = tools
        .iter()
        .find(|(p, _, _)| p == "github.pulls_merge")
        .expect("pulls_merge");
    assert_eq!(
        signature(path, input, output.as_ref(), Lua, Style::Compact),
        "tools.github.pulls_merge({ owner: string, repo: string, pull_number: integer, commit_title?: string, \
         commit_message?: string, sha?: string, merge_method?: \"merge\"|\"squash\"|\"rebase\" }) -> \
         { sha: string, merged: boolean, message: string }"
    );
    let (path, input, output) = tools
        .iter()
        .find(|(p, _, _)| p == "github.repos_get-content")
        .expect("repos_get-content");
    let lua = signature(path, input, output.as_ref(), Lua, Style::Pretty);
    assert!(
        lua.starts_with("tools.github[\"repos_get-content\"]({"),
        "{lua}"
    );
    assert!(
        lua.contains("  git_url?: string, -- @format uri\n"),
        "{lua}"
    );
}

/// Every object node of `v` (depth-first, bounded).
fn subschemas<'a>(v: &'a Value, out: &mut Vec<&'a Value>, depth: usize) {
    if depth > 40 {
        return;
    }
    match v {
        Value::Object(o) => {
            out.push(v);
            for x in o.values() {
                subschemas(x, out, depth + 1);
            }
        }
        Value::Array(a) => {
            for x in a {
                subschemas(x, out, depth + 1);
            }
        }
        _ => {}
    }
}

#[test]
fn every_subschema_and_mangled_variants_render_without_panicking() {
    let mut docs = mcp_fixtures();
    docs.push(load("openapi_github.json"));
    let mut nodes = Vec::new();
    for d in &docs {
        subschemas(d, &mut nodes, 0);
    }
    assert!(nodes.len() > 2_000, "{}", nodes.len());
    let weird = [
        json!(5),
        json!("x"),
        json!(null),
        json!([]),
        json!({}),
        json!(true),
    ];
    let mut rendered = 0usize;
    for (i, node) in nodes.iter().enumerate() {
        for lang in [Lua, Ts] {
            let text = render_type(node, lang, Style::Pretty);
            assert!(!text.is_empty());
            rendered += 1;
        }
        // Replace one keyword of every 7th node with an odd value.
        if i % 7 == 0
            && let Some(o) = node.as_object()
        {
            for key in [
                "type",
                "properties",
                "items",
                "required",
                "enum",
                "anyOf",
                "$ref",
                "additionalProperties",
            ] {
                if o.contains_key(key) {
                    let mut m = o.clone();
                    m.insert(key.into(), weird[i % weird.len()].clone());
                    let v = Value::Object(m);
                    let _ = render_type(&v, Lua, Style::Pretty);
                    let _ = render_type(&v, Ts, Style::Compact);
                    let _ = is_empty_input(&v);
                    let _ = unknown_causes(&v);
                    rendered += 1;
                }
            }
        }
    }
    assert!(rendered > 5_000, "{rendered}");
}

#[test]
fn required_keys_without_property_schemas_are_listed() {
    // An output schema that only says which keys exist (seen in a user trial rendering `-> {}`).
    let s = json!({"type": "object", "required": ["id", "items"]});
    assert_eq!(compact(&s, Lua), "{ id: unknown, items: unknown }");
    assert_eq!(compact(&s, Ts), "{ id: unknown; items: unknown }");
    // Keys with schemas keep them; the bare required key is appended.
    let s = json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id", "n"]});
    assert_eq!(compact(&s, Lua), "{ id: string, n: unknown }");
}

#[test]
fn expressions_follow_each_language() {
    assert_eq!(tool_expression("orders.lookup", Lua), "tools.orders.lookup");
    assert_eq!(
        tool_expression("context7.resolve-library-id", Lua),
        "tools.context7[\"resolve-library-id\"]"
    );
    assert_eq!(tool_expression("x.end", Lua), "tools.x[\"end\"]");
    assert_eq!(tool_expression("x.end", Ts), "tools.x.end");
    assert_eq!(tool_expression("a.$b", Ts), "tools.a.$b");
    assert_eq!(tool_expression("a.$b", Lua), "tools.a[\"$b\"]");
    assert_eq!(tool_expression("a.default", Ts), "tools.a[\"default\"]");
    assert_eq!(tool_expression("a.1x", Lua), "tools.a[\"1x\"]");
    assert_eq!(
        tool_expression("a.q\"\n\u{1}é", Lua),
        "tools.a[\"q\\\"\\n\\001é\"]"
    );
    assert_eq!(
        tool_expression("a.q\"\n\u{1}é", Ts),
        "tools.a[\"q\\\"\\n\\u0001é\"]"
    );
}

#[test]
fn bad_schemas_render_unknown() {
    for s in [
        json!({"type": 5}),
        json!(5),
        json!(null),
        json!("string"),
        json!({}),
        json!({"$ref": "https://example.com/x"}),
        json!({"$ref": "#/$defs/missing"}),
        json!({"enum": "x"}),
        json!({"type": ["string", 3]}),
    ] {
        assert_eq!(render_type(&s, Lua, Style::Pretty), "unknown", "{s}");
        assert_eq!(render_type(&s, Ts, Style::Pretty), "unknown", "{s}");
    }
}
