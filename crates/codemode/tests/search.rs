//! The simple built-in `search` and UnknownTool suggestions, over a realistic tool tree.

use codemode::search::{run_search, suggest, tool_expression};
use codemode::{CodeMode, Namespace, Tool};
use serde_json::{Value, json};

fn tool(desc: &str, schema: Value) -> Tool {
    Tool::new(desc, schema, |v| async move { Ok(v) })
}

fn runtime() -> CodeMode {
    CodeMode::builder()
        .namespace(
            "github",
            Namespace::new()
                .description("GitHub repositories, issues and pull requests")
                .tool(
                    "issues.list",
                    tool(
                        "List issues of a repository.",
                        json!({"type": "object", "properties": {"repo": {"type": "string"}, "state": {"enum": ["open", "closed"]}}, "required": ["repo"]}),
                    ),
                )
                .tool("issues.get", tool("Get one issue by number.", json!({"type": "object", "properties": {"number": {"type": "integer"}}})))
                .tool("pulls.list", tool("List pull requests.", json!({"type": "object"}))),
        )
        .tool("orders.lookup", tool("Look up an order by id.", json!({"type": "object", "properties": {"id": {"type": "string"}}})))
        .tool("orders.list", tool("List recent orders.", json!({"type": "object"})))
        .tool("time.zones", tool("Time zones.", json!({})))
        .tool("time.get_timezones", tool("All time zones with offsets.", json!({})))
        .tool("ns.dash-name", tool("A tool with a dash.", json!({})))
        .build()
        .unwrap()
}

fn paths(v: &Value) -> Vec<&str> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect()
}

#[test]
fn empty_query_browses_in_path_order_with_pages() {
    let cm = runtime();
    let page = run_search(cm.tools(), &json!({"limit": 3}));
    assert_eq!(
        paths(&page),
        vec![
            "github.issues.get",
            "github.issues.list",
            "github.pulls.list"
        ]
    );
    assert_eq!(page["remaining"], json!(5));
    assert_eq!(page["next"], json!({"offset": 3}));
    let last = run_search(cm.tools(), &json!({"limit": 3, "offset": 6}));
    assert_eq!(paths(&last), vec!["time.get_timezones", "time.zones"]);
    assert_eq!(last["remaining"], json!(0));
    assert_eq!(last["next"], Value::Null);
    let past = run_search(cm.tools(), &json!({"offset": 100}));
    assert_eq!(past, json!({"items": [], "remaining": 0, "next": null}));
}

#[test]
fn namespace_scopes_by_whole_segments() {
    let cm = runtime();
    let r = run_search(cm.tools(), &json!({"namespace": "github.issues"}));
    assert_eq!(paths(&r), vec!["github.issues.get", "github.issues.list"]);
    let r = run_search(cm.tools(), &json!({"namespace": "tools.orders"}));
    assert_eq!(paths(&r), vec!["orders.list", "orders.lookup"]);
    let r = run_search(cm.tools(), &json!({"namespace": "order"}));
    assert_eq!(paths(&r), Vec::<&str>::new());
}

#[test]
fn exact_path_or_expression_returns_one_tool_with_signature() {
    let cm = runtime();
    let r = run_search(cm.tools(), &json!({"query": "tools.github.issues.list"}));
    assert_eq!(
        r["items"],
        json!([{
            "path": "github.issues.list",
            "description": "List issues of a repository.",
            "signature": "tools.github.issues.list({ repo: string, state?: \"open\" | \"closed\" })"
        }])
    );
    let r = run_search(cm.tools(), &json!({"query": "tools.ns[\"dash-name\"]"}));
    assert_eq!(paths(&r), vec!["ns.dash-name"]);
    assert_eq!(
        r["items"][0]["signature"],
        json!("tools.ns[\"dash-name\"](any)")
    );
}

#[test]
fn ranking_prefers_path_words_then_descriptions() {
    let cm = runtime();
    let r = run_search(cm.tools(), &json!({"query": "zones"}));
    assert_eq!(paths(&r), vec!["time.zones", "time.get_timezones"]);
    let r = run_search(cm.tools(), &json!({"query": "issues"}));
    assert_eq!(paths(&r)[..2], ["github.issues.get", "github.issues.list"]);
    // Namespace descriptions count too: "pull requests" only appears in github's description
    // and in pulls.list's own text.
    let r = run_search(cm.tools(), &json!({"query": "pull"}));
    assert_eq!(paths(&r)[0], "github.pulls.list");
    // Input property names are searchable.
    let r = run_search(cm.tools(), &json!({"query": "repo"}));
    assert!(paths(&r).contains(&"github.issues.list"), "{r}");
    let r = run_search(cm.tools(), &json!({"query": "nothing-matches-this"}));
    assert_eq!(r, json!({"items": [], "remaining": 0, "next": null}));
}

#[test]
fn suggestions_rank_nearest_paths() {
    let cm = runtime();
    assert_eq!(suggest(cm.tools(), "orders.lookpu")[0], "orders.lookup");
    assert_eq!(
        suggest(cm.tools(), "github.issue.list")[0],
        "github.issues.list"
    );
    assert_eq!(
        suggest(cm.tools(), "issues.list"),
        vec!["github.issues.list", "github.pulls.list", "orders.list"]
    );
    assert_eq!(suggest(cm.tools(), "pulls.list")[0], "github.pulls.list");
    assert_eq!(suggest(cm.tools(), "Orders.Lookup")[0], "orders.lookup");
    assert_eq!(
        suggest(cm.tools(), "github.issues"),
        vec!["github.issues.get", "github.issues.list"]
    );
    assert!(suggest(cm.tools(), "weather.forecast").is_empty());
    assert!(suggest(cm.tools(), &"x".repeat(10_000)).is_empty());
}

#[test]
fn expressions() {
    assert_eq!(
        tool_expression("context7.resolve-library-id"),
        "tools.context7[\"resolve-library-id\"]"
    );
    assert_eq!(tool_expression("a.b_c.D9"), "tools.a.b_c.D9");
    assert_eq!(tool_expression("x.return"), "tools.x[\"return\"]");
}
