//! Catalog and instructions (issue 4 "Catalog"): sorted catalog independent of insertion order,
//! round-robin fairness under a token budget, the budget respected (counted with the real
//! tokenizer), the limits in force stated, real MCP tool sets.

use std::path::PathBuf;

use codemode::catalog::{
    CatalogEntry, DEFAULT_INSTRUCTIONS_BUDGET, catalog, count_tokens, guide, instructions,
};
use codemode::{CodeMode, Language, Limits, Namespace, Tool};
use serde_json::{Value, json};

fn tool(description: &str, input: Value) -> Tool {
    Tool::new(description, input, |v| async move { Ok(v) })
}

fn obj(props: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": props, "required": required})
}

#[test]
fn catalog_is_sorted_whatever_the_insertion_order() {
    let a = tool("Alpha.", obj(json!({"x": {"type": "string"}}), &["x"]));
    let b = tool("Beta.", json!({"type": "object"}));
    let c = tool(
        "Gamma.",
        obj(
            json!({"n": {"type": "integer", "description": "How many"}}),
            &[],
        ),
    );
    let one = CodeMode::builder()
        .tool("z.last", a.clone())
        .tool("a.first", b.clone())
        .namespace("m", Namespace::new().tool("mid", c.clone()))
        .tool("A.upper", b.clone())
        .build()
        .expect("builds");
    let two = CodeMode::builder()
        .tool("A.upper", b.clone())
        .namespace("m", Namespace::new().tool("mid", c))
        .tool("a.first", b)
        .tool("z.last", a)
        .build()
        .expect("builds");
    let cat = one.catalog();
    assert_eq!(cat, two.catalog());
    let paths: Vec<&str> = cat.iter().map(|e| e.path.as_str()).collect();
    // Plain byte order: upper case before lower case.
    assert_eq!(paths, ["A.upper", "a.first", "m.mid", "z.last"]);
    assert_eq!(
        cat[3],
        CatalogEntry {
            path: "z.last".into(),
            description: "Alpha.".into(),
            signature: "tools.z.last({ x: string }) -> unknown".into(),
        }
    );
    assert_eq!(cat[1].signature, "tools.a.first() -> unknown");
    assert_eq!(
        cat[2].signature,
        "tools.m.mid({\n  n?: integer, -- How many\n}) -> unknown"
    );
    // The free function gives the same, and TypeScript notation on request.
    assert_eq!(catalog(one.tools(), Language::Lua), cat);
    let ts = catalog(one.tools(), Language::JavaScript);
    assert_eq!(
        ts[3].signature,
        "tools.z.last(input: { x: string }): Promise<unknown>"
    );
    // Serializes as {path, description, signature}.
    assert_eq!(
        serde_json::to_value(&cat[1]).expect("serializes"),
        json!({"path": "a.first", "description": "Beta.", "signature": "tools.a.first() -> unknown"})
    );
}

/// A runtime with one namespace of 200 tools and two small ones.
fn lopsided() -> CodeMode {
    let mut b = CodeMode::builder()
        .namespace(
            "big",
            Namespace::new().description("A very large namespace"),
        )
        .namespace("small", Namespace::new().description("Three tools"))
        .namespace("tiny", Namespace::new().description("Two tools"));
    for i in 0..200 {
        b = b.tool(
            format!("big.op{i:03}"),
            tool(
                &format!("Operation number {i} of the big namespace."),
                obj(
                    json!({"id": {"type": "string", "description": "Identifier of the thing"},
                           "count": {"type": "integer", "minimum": 1}}),
                    &["id"],
                ),
            ),
        );
    }
    for name in ["alpha", "beta", "gamma"] {
        b = b.tool(
            format!("small.{name}"),
            tool(
                &format!("Small tool {name}."),
                obj(json!({"q": {"type": "string"}}), &["q"]),
            ),
        );
    }
    for name in ["one", "two"] {
        b = b.tool(
            format!("tiny.{name}"),
            tool(&format!("Tiny tool {name}."), json!({"type": "object"})),
        );
    }
    b.build().expect("builds")
}

#[test]
fn round_robin_keeps_every_namespace_visible_and_small_ones_complete() {
    let cm = lopsided();
    let text = cm.instructions(600);
    let tools = &text[text.find("## Tools").expect("tools section")..];
    assert!(tools.starts_with("## Tools (partial: "), "{tools}");
    assert!(
        tools.contains("- small (3 tools, all shown): Three tools\n"),
        "{tools}"
    );
    assert!(
        tools.contains("- tiny (2 tools, all shown): Two tools\n"),
        "{tools}"
    );
    for name in ["alpha", "beta", "gamma"] {
        assert!(
            tools.contains(&format!(
                "  -- Small tool {name}.\n  tools.small.{name}({{ q: string }}) -> unknown\n"
            )),
            "{tools}"
        );
    }
    assert!(tools.contains("  tools.tiny.one() -> unknown\n"), "{tools}");
    assert!(tools.contains("  tools.tiny.two() -> unknown\n"), "{tools}");
    // The big namespace is partial, says how many are shown and how to list the rest.
    let big_line = tools
        .lines()
        .find(|l| l.starts_with("- big (200 tools, "))
        .expect("big namespace line");
    let shown: usize = big_line["- big (200 tools, ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("shown count");
    assert!(shown > 0 && shown < 200, "{big_line}");
    assert_eq!(
        big_line,
        format!(
            "- big (200 tools, {shown} shown; search({{ namespace = \"big\" }}) lists all): A very large namespace"
        )
    );
    assert_eq!(tools.matches("tools.big.op").count(), shown);
    assert!(
        tools.contains(&format!("## Tools (partial: {} of 205 shown", shown + 5)),
        "{tools}"
    );
    // The search note and search's signature close a partial catalog.
    assert!(
        tools.contains("search({ query = \"create issue\" })"),
        "{tools}"
    );
    assert!(
        tools.contains(
            "search({ query?: string, namespace?: string, limit?: integer, offset?: integer }) -> \
             { items: { path: string, description: string, signature: string }[], remaining: integer, \
             next?: { offset: integer } }"
        ),
        "{tools}"
    );
    // Namespaces appear in name order.
    let (b, s, t) = (
        tools.find("- big").expect("big"),
        tools.find("- small").expect("small"),
        tools.find("- tiny").expect("tiny"),
    );
    assert!(b < s && s < t);
}

#[test]
fn budget_is_respected() {
    let cm = lopsided();
    let header = count_tokens(&guide(Language::Lua, &cm.limits()));
    let mut previous_shown = 0;
    for budget in [
        250,
        400,
        800,
        1_500,
        DEFAULT_INSTRUCTIONS_BUDGET,
        5_000,
        20_000,
    ] {
        let text = cm.instructions(budget);
        let total = count_tokens(&text);
        assert!(
            total <= budget + header,
            "budget {budget}: {total} tokens > {budget} + header {header}"
        );
        // More budget never shows fewer tools.
        let shown = text.matches("\n  tools.").count();
        assert!(shown >= previous_shown, "budget {budget}");
        previous_shown = shown;
    }
    // A big enough budget shows everything.
    let all = cm.instructions(1_000_000);
    assert!(all.contains("## Tools (complete: all 205 tools with full signatures)"));
    assert_eq!(all.matches("\n  tools.").count(), 205);
    assert!(!all.contains("Not every tool is shown"));
    // A zero budget still lists every namespace (and no tool).
    let none = cm.instructions(0);
    for ns in [
        "- big (200 tools, 0 shown",
        "- small (3 tools, 0 shown",
        "- tiny (2 tools, 0 shown",
    ] {
        assert!(none.contains(ns), "{none}");
    }
    assert_eq!(none.matches("\n  tools.").count(), 0);
}

#[test]
fn cheapest_entries_come_first_within_a_namespace() {
    let mut huge_props = serde_json::Map::new();
    for i in 0..80 {
        huge_props.insert(
            format!("field{i}"),
            json!({"type": "string", "description": format!("Field number {i} with a long description")}),
        );
    }
    let cm = CodeMode::builder()
        .tool(
            "ns.a_huge",
            tool("Huge.", json!({"type": "object", "properties": huge_props})),
        )
        .tool("ns.b_small", tool("Small.", json!({"type": "object"})))
        .tool("ns.c_small", tool("Small too.", json!({"type": "object"})))
        .build()
        .expect("builds");
    let text = cm.instructions(300);
    assert!(text.contains("- ns (3 tools, 2 shown;"), "{text}");
    assert!(text.contains("tools.ns.b_small()"));
    assert!(text.contains("tools.ns.c_small()"));
    assert!(!text.contains("tools.ns.a_huge"));
}

#[test]
fn instructions_state_the_limits_in_force() {
    let limits = Limits::default()
        .with_timeout_ms(5_000)
        .and_then(|l| l.with_max_tool_calls(7))
        .and_then(|l| l.with_max_output_bytes(1_000))
        .and_then(|l| l.with_max_memory_bytes(Some(1_048_576)))
        .expect("valid limits");
    let cm = CodeMode::builder()
        .tool("a.b", tool("B.", json!({"type": "object"})))
        .limits(limits)
        .build()
        .expect("builds");
    let text = cm.instructions(DEFAULT_INSTRUCTIONS_BUDGET);
    assert!(text.contains("- time: 5,000 ms in total"), "{text}");
    assert!(
        text.contains("- tool calls: at most 7 tool calls"),
        "{text}"
    );
    assert!(text.contains("- output: 1,000 bytes of JSON"), "{text}");
    assert!(text.contains("- memory: 1,048,576 bytes"), "{text}");
    // Defaults.
    let d = CodeMode::builder()
        .build()
        .expect("builds")
        .instructions(100);
    assert!(d.contains("- time: 120,000 ms in total"), "{d}");
    assert!(d.contains("at most 128 tool calls"), "{d}");
    assert!(d.contains("65,536 bytes"), "{d}");
    assert!(!d.contains("- memory:"), "{d}");
    assert!(d.ends_with("## Tools\nNo tools are available.\n"), "{d}");
}

#[test]
fn lua_guide_covers_the_program_and_data_rules() {
    let g = guide(Language::Lua, &Limits::default());
    for needle in [
        "Lua 5.4",
        "explicit `return <value>`",
        "only the first returned value",
        "tools.<namespace>.<tool>({ field = value })",
        "no await",
        "one after another",
        "pcall(tools.<namespace>.<tool>",
        "json.array()",
        "json.null",
        "Assigning nil removes a field",
        "UTF-8",
        "metatables",
        "coroutines",
        "`io`, `os`, `require`",
        "string patterns work",
        "gmatch` only as a `for` iterator",
        "an object field that is null is left out",
        "search({ query = ",
    ] {
        assert!(g.contains(needle), "guide lacks {needle:?}:\n{g}");
    }
    // No real tool names in the guide's examples.
    assert!(!g.contains("tools.orders"));
    let js = guide(Language::JavaScript, &Limits::default());
    assert!(js.contains("await tools.<namespace>.<tool>({ field: value })"));
    assert!(js.contains("at most 128 tool calls"));
}

#[test]
fn typescript_notation_on_request() {
    let cm = lopsided();
    let text = instructions(cm.tools(), &cm.limits(), Language::JavaScript, 600);
    assert!(
        text.contains(
            "  // Small tool alpha.\n  tools.small.alpha(input: { q: string }): Promise<unknown>\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("search({ namespace: \"big\" }) lists all"),
        "{text}"
    );
}

fn fixture_tools(name: &str) -> Vec<(String, Tool)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("tests/fixtures/mcp/{name}.json"));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    v["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| {
            let mut tl = tool(
                t["description"].as_str().unwrap_or_default(),
                t["inputSchema"].clone(),
            );
            if let Some(o) = t.get("outputSchema") {
                tl = tl.with_output_schema(o.clone());
            }
            (format!("{name}.{}", t["name"].as_str().expect("name")), tl)
        })
        .collect()
}

/// The tools of five real MCP servers (50 tools in 5 namespaces).
fn real_mcp_runtime() -> CodeMode {
    let mut b = CodeMode::builder();
    for server in ["everything", "filesystem", "memory", "time", "git"] {
        b = b.tools(fixture_tools(server));
    }
    b.build().expect("real schemas compile")
}

#[test]
fn real_mcp_tool_sets() {
    let cm = real_mcp_runtime();
    assert_eq!(cm.catalog().len(), 50);
    let header = count_tokens(&guide(Language::Lua, &cm.limits()));
    for budget in [300, DEFAULT_INSTRUCTIONS_BUDGET, 100_000] {
        let text = cm.instructions(budget);
        assert!(count_tokens(&text) <= budget + header, "budget {budget}");
        for ns in ["everything", "filesystem", "git", "memory", "time"] {
            assert!(
                text.contains(&format!("\n- {ns} (")),
                "{ns} missing at {budget}"
            );
        }
    }
    let all = cm.instructions(100_000);
    // Every signature is shown; some real descriptions run past one line, so not "complete".
    assert!(all.contains(
        "## Tools (all 50 tools with full signatures; long descriptions are cut to their first line, `search` returns them whole)"
    ));
    assert!(
        all.contains("  tools.everything[\"get-env\"]() -> unknown\n"),
        "{all}"
    );
    assert!(!all.contains("unknown\n  }"));
}

#[test]
fn github_openapi_tools_with_huge_signatures() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openapi_github.json");
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("json");
    let attach = |s: &Value| {
        let mut s = s.clone();
        if let Some(o) = s.as_object_mut() {
            o.insert("components".into(), v["components"].clone());
        }
        s
    };
    let mut b = CodeMode::builder()
        .namespace("github", Namespace::new().description("GitHub REST API"))
        .tools(fixture_tools("time"));
    for t in v["tools"].as_array().expect("tools") {
        let mut tl = tool(
            t["description"].as_str().unwrap_or_default(),
            attach(&t["inputSchema"]),
        );
        if let Some(o) = t.get("outputSchema") {
            tl = tl.with_output_schema(attach(o));
        }
        b = b.tool(format!("github.{}", t["name"].as_str().expect("name")), tl);
    }
    let cm = b.build().expect("GitHub schemas compile");
    let header = count_tokens(&guide(Language::Lua, &cm.limits()));
    let text = cm.instructions(DEFAULT_INSTRUCTIONS_BUDGET);
    assert!(count_tokens(&text) <= DEFAULT_INSTRUCTIONS_BUDGET + header);
    // Both namespaces visible; the small one complete; the cheapest GitHub operation shown,
    // the issue operations (thousands of tokens each) not.
    assert!(text.contains("- time (2 tools, all shown)"), "{text}");
    assert!(
        text.contains("- github (24 tools, ") && text.contains(": GitHub REST API\n"),
        "{text}"
    );
    assert!(text.contains("  tools.github.pulls_merge({\n"), "{text}");
    assert!(!text.contains("tools.github.issues_get("), "{text}");
    // The catalog still has every full signature.
    let cat = cm.catalog();
    let issues_get = cat
        .iter()
        .find(|e| e.path == "github.issues_get")
        .expect("issues_get");
    assert!(count_tokens(&issues_get.signature) > 3_000);
    assert!(!issues_get.signature.contains("unknown"));
}

/// Issue 17 point 9: names outrank signatures. At every budget, no signature is shown while a
/// namespace with tools left out names fewer than `FIRST_HIDDEN_NAMES` of them (before: at 350
/// tokens, two signatures and 48 tools neither shown nor named).
#[test]
fn left_out_tools_are_named_before_any_signature_is_shown() {
    use codemode::catalog::FIRST_HIDDEN_NAMES;
    let cm = real_mcp_runtime();
    let header = count_tokens(&guide(Language::Lua, &cm.limits()));
    let mut named_at_some_budget = false;
    for budget in (250..=2_500).step_by(25) {
        let text = cm.instructions(budget);
        assert!(count_tokens(&text) <= budget + header, "budget {budget}");
        let tools = &text[text.find("## Tools").expect("tools section")..];
        if !tools.contains("\n  tools.") {
            continue;
        }
        // Each namespace line, then its names line (if any): `- ns (n tools, k shown; ...`.
        let lines: Vec<&str> = tools.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.strip_prefix("- ") else {
                continue;
            };
            let count: usize = rest
                .split(" (")
                .nth(1)
                .and_then(|r| r.split(' ').next())
                .and_then(|c| c.parse().ok())
                .unwrap_or_else(|| panic!("{line}"));
            let shown = match rest.split(", ").nth(1) {
                Some(s) if s.ends_with(" shown") || s.contains(" shown;") => s
                    .split(' ')
                    .next()
                    .and_then(|k| k.parse::<usize>().ok())
                    .unwrap_or(count),
                _ => count,
            };
            if shown == count {
                continue;
            }
            let names = lines
                .get(i + 1)
                .and_then(|l| l.strip_prefix("  (not shown: "))
                .unwrap_or_else(|| panic!("budget {budget}: no names under {line}\n{tools}"));
            let listed = names
                .split(" and ")
                .next()
                .unwrap_or("")
                .split(", ")
                .count();
            assert!(
                listed >= FIRST_HIDDEN_NAMES.min(count - shown),
                "budget {budget}: {line}\n{names}"
            );
            named_at_some_budget = true;
        }
    }
    assert!(named_at_some_budget);
}
