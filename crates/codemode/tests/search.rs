//! The built-in `search`: input checks, exact lookup, namespaces, pages, the ranker and
//! UnknownTool suggestions, over a realistic tool tree (60 tools in GitHub-, Slack- and
//! shop-style namespaces), from Rust and from Lua.

use codemode::search::{SearchIndex, rank, run_search, suggest, tool_expression};
use codemode::{CodeMode, DiagnosticKind, Limits, Namespace, Tool, ToolCallStatus};
use serde_json::{Value, json};

fn tool(desc: &str, schema: Value) -> Tool {
    Tool::new(desc, schema, |v| async move { Ok(v) })
}

fn obj(props: Value) -> Value {
    json!({"type": "object", "properties": props})
}

fn plain(desc: &str) -> Tool {
    tool(desc, json!({"type": "object"}))
}

/// 60 tools. Namespace descriptions carry words found nowhere else ("kanban", "workspace").
fn realistic() -> CodeMode {
    let github = Namespace::new()
        .description("GitHub repositories, issues and pull requests")
        .tool("issues.list", tool("List issues of a repository.", json!({"type": "object", "properties": {"repo": {"type": "string", "description": "owner/name"}, "state": {"enum": ["open", "closed"]}}, "required": ["repo"]})))
        .tool("issues.get", tool("Get one issue by number.", obj(json!({"repo": {"type": "string"}, "number": {"type": "integer"}}))))
        .tool("issues.create", tool("Open a new issue.", obj(json!({"repo": {"type": "string"}, "title": {"type": "string"}, "body": {"type": "string"}}))))
        .tool("issues.update", plain("Edit an issue's title, body, labels or state."))
        .tool("issues.comment", tool("Add a comment to an issue.", obj(json!({"body": {"type": "string", "description": "Markdown text of the comment"}}))))
        .tool("issues.lock", plain("Lock the conversation of an issue."))
        .tool("pulls.list", plain("List pull requests."))
        .tool("pulls.get", plain("Get one pull request."))
        .tool("pulls.create", plain("Open a pull request from a branch."))
        .tool("pulls.merge", plain("Merge a pull request."))
        .tool("pulls.listReviewComments", plain("List review comments on a pull request."))
        .tool("repos.list", plain("List repositories of a user or organization."))
        .tool("repos.get", plain("Get a repository."))
        .tool("repos.createFork", plain("Fork a repository."))
        .tool("repos.listBranches", plain("List branches."))
        .tool("repos.getContent", tool("Read a file or directory from a repository.", obj(json!({"path": {"type": "string", "description": "File path inside the repository"}}))))
        .tool("actions.listWorkflowRuns", plain("List workflow runs of a repository."))
        .tool("actions.rerun", plain("Re-run a workflow run."))
        .tool("search.code", plain("Search code across repositories."))
        .tool("search.issuesAndPullRequests", plain("Search issues and pull requests by keywords."))
        .tool("users.getAuthenticated", plain("The signed-in user."));
    let slack = Namespace::new()
        .description("Slack workspace: channels, messages and people")
        .tool(
            "chat.postMessage",
            tool(
                "Send a message to a channel.",
                obj(json!({"channel": {"type": "string"}, "text": {"type": "string"}})),
            ),
        )
        .tool("chat.update", plain("Edit a message you sent."))
        .tool("chat.delete", plain("Delete a message."))
        .tool(
            "chat.scheduleMessage",
            plain("Schedule a message to be sent later."),
        )
        .tool("chat.getPermalink", plain("Permanent link to a message."))
        .tool("conversations.list", plain("List channels."))
        .tool(
            "conversations.history",
            plain("Messages posted in a channel."),
        )
        .tool("conversations.join", plain("Join a channel."))
        .tool("conversations.create", plain("Create a channel."))
        .tool("conversations.invite", plain("Invite people to a channel."))
        .tool("users.list", plain("List people in the workspace."))
        .tool("users.info", plain("Profile of one person."))
        .tool(
            "users.lookupByEmail",
            tool(
                "Find a person by email address.",
                obj(json!({"email": {"type": "string"}})),
            ),
        )
        .tool(
            "reactions.add",
            plain("Add an emoji reaction to a message."),
        )
        .tool("reactions.remove", plain("Remove an emoji reaction."))
        .tool("files.upload", plain("Upload a file to channels."))
        .tool("files.list", plain("List files."))
        .tool(
            "admin.users.invite",
            plain("Invite someone to the workspace."),
        )
        .tool(
            "admin.users.remove",
            plain("Remove someone from the workspace."),
        )
        .tool("administrator.list", plain("Workspace owners."));
    let orders = Namespace::new()
        .description("Shop orders")
        .tool("lookup", tool("Look up an order by id.", obj(json!({"id": {"type": "string"}}))))
        .tool("list", tool("List recent orders.", obj(json!({"customer": {"type": "string", "description": "Customer id"}, "since": {"type": "string", "format": "date"}}))))
        .tool("create", plain("Place a new order."))
        .tool("cancel", plain("Cancel an order that has not shipped."))
        .tool("refund", plain("Refund an order, fully or partly."))
        .tool("shipments.track", tool("Where a parcel is now.", obj(json!({"trackingNumber": {"type": "string"}}))))
        .tool("shipments.create", plain("Create a shipment for an order."))
        .tool("invoices.get", plain("Invoice PDF link for an order."))
        .tool("invoices.list", plain("Invoices of a customer."));
    let board = Namespace::new()
        .description("Kanban board for the team")
        .tool("cards.move", plain("Move a card to another column."))
        .tool("cards.create", plain("Create a card."))
        .tool("columns.list", plain("Columns of the board."));
    CodeMode::builder()
        .namespace("github", github)
        .namespace("slack", slack)
        .namespace("orders", orders)
        .namespace("board", board)
        .tool("time.zones", plain("Time zones."))
        .tool("time.get_timezones", plain("All time zones with offsets."))
        .tool("time.now", plain("Current time."))
        .tool("ns.dash-name", tool("A tool with a dash.", json!({})))
        .tool(
            "context7.resolve-library-id",
            plain("Find the Context7 id of a library."),
        )
        .tool(
            "context7.get-library-docs",
            plain("Documentation of a library."),
        )
        .tool(
            "weather.forecast_daily",
            plain("Daily forecast for a city."),
        )
        .build()
        .unwrap()
}

fn search(cm: &CodeMode, input: Value) -> Value {
    cm.search(&input)
        .unwrap_or_else(|e| panic!("search({input}) failed: {e}"))
}

fn paths(v: &Value) -> Vec<&str> {
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["path"].as_str().unwrap())
        .collect()
}

fn top(cm: &CodeMode, query: &str, n: usize) -> Vec<String> {
    cm.search_index()
        .rank(query)
        .into_iter()
        .take(n)
        .map(|(_, p)| p.to_string())
        .collect()
}

#[test]
fn the_tree_has_60_tools() {
    assert_eq!(realistic().tools().len(), 60);
}

// ------------------------------------------------------------------ ranking

#[test]
fn list_issues_ranks_github_issues_list_first() {
    let cm = realistic();
    assert_eq!(top(&cm, "list issues", 1), ["github.issues.list"]);
    // Same with the singular, other case and word order.
    assert_eq!(top(&cm, "Issue LIST", 1), ["github.issues.list"]);
    assert_eq!(top(&cm, "issues", 1), ["github.issues.comment"]); // ties among issues.* by path
}

#[test]
fn send_message_finds_post_message() {
    let cm = realistic();
    assert_eq!(top(&cm, "send message", 1), ["slack.chat.postMessage"]);
    assert_eq!(
        top(&cm, "post a message to a channel", 1),
        ["slack.chat.postMessage"]
    );
    // camelCase words of the path are words: "schedule message".
    assert_eq!(
        top(&cm, "schedule message", 1),
        ["slack.chat.scheduleMessage"]
    );
}

#[test]
fn plural_folding_matches_both_ways() {
    let cm = realistic();
    // "comments" (plural) finds a tool whose path says "comment".
    assert_eq!(
        top(&cm, "comments", 2),
        ["github.issues.comment", "github.pulls.listReviewComments"]
    );
    // "repositories" and "repository" fold to the same stem: the same hits, the same order.
    let plural = top(&cm, "repositories", 100);
    assert_eq!(plural, top(&cm, "repository", 100));
    assert!(
        plural.contains(&"github.repos.list".to_string()),
        "{plural:?}"
    );
    assert_eq!(top(&cm, "messages", 100), top(&cm, "message", 100));
    // "zones": the whole last segment beats a word inside another one.
    assert_eq!(top(&cm, "zones", 2), ["time.zones", "time.get_timezones"]);
    assert_eq!(top(&cm, "zone", 2), ["time.zones", "time.get_timezones"]);
}

#[test]
fn namespace_descriptions_are_searched() {
    let cm = realistic();
    // "kanban" appears only in the board namespace's description.
    let r = search(&cm, json!({"query": "kanban"}));
    assert_eq!(
        paths(&r),
        [
            "board.cards.create",
            "board.cards.move",
            "board.columns.list"
        ]
    );
    // "workspace": slack's description, plus tools whose own description says it rank higher.
    let r = top(&cm, "workspace", 3);
    assert_eq!(
        r,
        [
            "slack.admin.users.invite",
            "slack.admin.users.remove",
            "slack.administrator.list"
        ]
    );
}

#[test]
fn input_properties_are_searched() {
    let cm = realistic();
    assert_eq!(top(&cm, "email", 1), ["slack.users.lookupByEmail"]);
    assert_eq!(top(&cm, "tracking number", 1), ["orders.shipments.track"]);
    // Property descriptions: "Markdown" only in issues.comment's body description.
    assert_eq!(top(&cm, "markdown", 5), ["github.issues.comment"]);
}

#[test]
fn scores_are_deterministic_and_explained() {
    let cm = realistic();
    let ranked = cm.search_index().rank("list issues");
    // list: 20 (last segment) + 12 (path word) + 8 (in path) + 6 (description) + 2 (text);
    // issues → issue: 12 + 8 + 6 + 2.
    assert_eq!(ranked[0], (48 + 28, "github.issues.list"));
    // Ties are broken by path.
    for w in ranked.windows(2) {
        assert!(
            w[0].0 > w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1),
            "{w:?}"
        );
    }
    // The free function agrees with the index.
    let free = rank(cm.tools(), "list issues");
    assert_eq!(free[0], (76, "github.issues.list".to_string()));
    assert_eq!(free.len(), ranked.len());
    // No terms → everything, score 0, in path order.
    let all = cm.search_index().rank("  -- ");
    assert_eq!(all.len(), 60);
    assert!(all.iter().all(|(s, _)| *s == 0));
    assert!(rank(cm.tools(), "qqqzzz").is_empty());
}

// ------------------------------------------------------------------ request handling

#[test]
fn empty_query_browses_in_path_order_with_pages() {
    let cm = realistic();
    let page = search(&cm, json!({"limit": 3}));
    assert_eq!(
        paths(&page),
        [
            "board.cards.create",
            "board.cards.move",
            "board.columns.list"
        ]
    );
    assert_eq!(page["remaining"], json!(57));
    assert_eq!(page["next"], json!({"offset": 3}));
    let default = search(&cm, json!({}));
    assert_eq!(paths(&default).len(), 10);
    assert_eq!(default["next"], json!({"offset": 10}));
    let last = search(&cm, json!({"limit": 5, "offset": 58}));
    assert_eq!(paths(&last), ["time.zones", "weather.forecast_daily"]);
    assert_eq!(last["remaining"], json!(0));
    assert_eq!(last["next"], Value::Null);
    let past = search(&cm, json!({"offset": 100}));
    assert_eq!(past, json!({"items": [], "remaining": 0, "next": null}));
    // Walking the pages visits every tool once, in order.
    let mut seen = Vec::new();
    let mut offset = json!(0);
    loop {
        let p = search(&cm, json!({"limit": 7, "offset": offset}));
        seen.extend(paths(&p).iter().map(|s| s.to_string()));
        if p["next"].is_null() {
            break;
        }
        offset = p["next"]["offset"].clone();
    }
    assert_eq!(seen, cm.tools().paths().collect::<Vec<_>>());
}

#[test]
fn ranked_results_paginate_too() {
    let cm = realistic();
    let first = search(&cm, json!({"query": "list", "limit": 2}));
    // Tools whose last segment is "list" and whose description says "List" first, by path.
    assert_eq!(paths(&first), ["github.issues.list", "github.pulls.list"]);
    let total = cm.search_index().rank("list").len();
    assert_eq!(first["remaining"], json!(total - 2));
    let second = search(&cm, json!({"query": "list", "limit": 2, "offset": 2}));
    assert_eq!(paths(&second), ["github.repos.list", "orders.list"]);
}

#[test]
fn namespace_scopes_by_whole_segments_at_any_depth() {
    let cm = realistic();
    let r = search(&cm, json!({"namespace": "github.issues"}));
    assert_eq!(
        paths(&r),
        [
            "github.issues.comment",
            "github.issues.create",
            "github.issues.get",
            "github.issues.list",
            "github.issues.lock",
            "github.issues.update"
        ]
    );
    let r = search(&cm, json!({"namespace": "tools.orders.shipments"}));
    assert_eq!(
        paths(&r),
        ["orders.shipments.create", "orders.shipments.track"]
    );
    // slack.admin covers slack.admin.users.* but not slack.administrator.
    let r = search(&cm, json!({"namespace": "slack.admin"}));
    assert_eq!(
        paths(&r),
        ["slack.admin.users.invite", "slack.admin.users.remove"]
    );
    let r = search(&cm, json!({"namespace": "order"}));
    assert_eq!(paths(&r), Vec::<&str>::new());
    // "tools" means everything.
    assert_eq!(
        search(&cm, json!({"namespace": "tools"}))["remaining"],
        json!(50)
    );
    // Ranked within a namespace.
    let r = search(&cm, json!({"query": "list", "namespace": "slack"}));
    assert_eq!(
        paths(&r)[..3],
        [
            "slack.conversations.list",
            "slack.files.list",
            "slack.users.list"
        ]
    );
    // A namespace-scoped exact lookup outside the namespace finds nothing exact, ranks instead.
    let r = search(
        &cm,
        json!({"query": "orders.lookup", "namespace": "github"}),
    );
    assert!(!paths(&r).contains(&"orders.lookup"));
}

#[test]
fn exact_path_or_expression_returns_one_tool_with_signature() {
    let cm = realistic();
    for q in [
        "github.issues.list",
        "tools.github.issues.list",
        "  github.issues.list ",
    ] {
        let r = search(&cm, json!({"query": q}));
        assert_eq!(paths(&r), ["github.issues.list"], "{q}");
        assert_eq!(r["remaining"], json!(0));
    }
    let r = search(&cm, json!({"query": "github.issues.list"}));
    assert_eq!(
        r["items"][0]["description"],
        json!("List issues of a repository.")
    );
    let sig = r["items"][0]["signature"].as_str().unwrap();
    assert!(sig.starts_with("tools.github.issues.list("), "{sig}");
    assert!(sig.contains("repo: string"), "{sig}");
    // The same full signature as the catalog (Lua, pretty, with field docs).
    let entry = cm
        .catalog()
        .into_iter()
        .find(|e| e.path == "github.issues.list")
        .unwrap();
    assert_eq!(r["items"][0]["signature"], json!(entry.signature));
    assert!(sig.contains("-- owner/name"), "{sig}");
    let r = search(&cm, json!({"query": "tools.ns[\"dash-name\"]"}));
    assert_eq!(paths(&r), ["ns.dash-name"]);
    let r = search(
        &cm,
        json!({"query": "tools.context7[\"resolve-library-id\"]"}),
    );
    assert_eq!(paths(&r), ["context7.resolve-library-id"]);
    let r = search(&cm, json!({"query": "context7.resolve-library-id"}));
    assert_eq!(paths(&r), ["context7.resolve-library-id"]);
}

#[test]
fn bad_arguments_are_rejected_with_clear_messages() {
    let cm = realistic();
    for (input, msg) in [
        (
            json!({"limit": 0}),
            "search: 'limit' must be an integer from 1 to 50; got 0.",
        ),
        (
            json!({"limit": 1000}),
            "search: 'limit' must be an integer from 1 to 50; got 1000.",
        ),
        (
            json!({"offset": -3}),
            "search: 'offset' must be an integer >= 0 (use next.offset of the previous page); got -3.",
        ),
        (
            json!({"query": ["a"]}),
            "search: 'query' must be a string; got a list.",
        ),
        (
            json!({"namespace": 7}),
            "search: 'namespace' must be a string; got 7.",
        ),
        (
            json!({"text": "x"}),
            "search: unknown field 'text'; the fields are query, namespace, limit, offset.",
        ),
        (
            json!(42),
            "search expects one table such as search({ query = \"list issues\" }); got 42.",
        ),
    ] {
        assert_eq!(cm.search(&input).unwrap_err(), msg, "{input}");
        assert_eq!(run_search(cm.tools(), &input).unwrap_err(), msg);
    }
}

// ------------------------------------------------------------------ suggestions

#[test]
fn suggestions_rank_nearest_paths() {
    let cm = realistic();
    let t = cm.tools();
    assert_eq!(suggest(t, "orders.lookpu")[0], "orders.lookup");
    assert_eq!(suggest(t, "github.issue.list")[0], "github.issues.list");
    assert_eq!(suggest(t, "issues.list")[0], "github.issues.list");
    assert_eq!(suggest(t, "pulls.list")[0], "github.pulls.list");
    assert_eq!(suggest(t, "Orders.Lookup")[0], "orders.lookup");
    // The ranker fills in: a word-level match far from any spelling.
    assert_eq!(suggest(t, "slack.sendMessage")[0], "slack.chat.postMessage");
    assert_eq!(suggest(t, "github.listIssues")[0], "github.issues.list");
    // Scoped to the first segment when it is a namespace.
    assert!(
        suggest(t, "orders.list_all_orders")
            .iter()
            .all(|p| p.starts_with("orders."))
    );
    assert!(suggest(t, "zzz.qqq").is_empty());
    assert!(suggest(t, &"x".repeat(10_000)).is_empty());
    assert!(suggest(t, "github.issues.list.x").len() <= 3);
    // The index gives the same answers.
    let index = SearchIndex::new(t);
    assert_eq!(index.suggest("orders.lookpu"), suggest(t, "orders.lookpu"));
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

// ------------------------------------------------------------------ from Lua

#[tokio::test]
async fn search_from_lua_is_a_counted_tool_call() {
    let cm = realistic();
    let r = cm
        .execute(
            r#"
            local first = search({ query = "send message", limit = 1 })
            local page2 = search({ namespace = "github.issues", limit = 4, offset = 4 })
            local all = search()
            return {
                first.items[1].path, first.remaining > 0,
                #page2.items, page2.next == nil, #all.items, all.next.offset,
            }
            "#,
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!(["slack.chat.postMessage", true, 2, true, 10, 10])),
        "{}",
        r.to_json_string()
    );
    let names: Vec<&str> = r.tool_calls.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["search", "search", "search"]);
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Success)
    );
    assert_eq!(
        r.tool_calls[0].input,
        json!({"query": "send message", "limit": 1})
    );
}

#[tokio::test]
async fn bad_search_arguments_from_lua_are_catchable_invalid_input() {
    let cm = realistic();
    let r = cm
        .execute(
            r#"
            local ok, err = pcall(search, { limit = 0 })
            local ok2, err2 = pcall(search, "issues")
            return { ok, err, ok2, err2 }
            "#,
        )
        .await;
    let v = r
        .value()
        .unwrap_or_else(|| panic!("{}", r.to_json_string()));
    assert_eq!(v[0], json!(false));
    assert!(
        v[1].as_str()
            .unwrap()
            .ends_with("search: 'limit' must be an integer from 1 to 50; got 0."),
        "{v}"
    );
    assert!(
        v[3].as_str().unwrap().contains("search expects one table"),
        "{v}"
    );
    assert!(
        r.tool_calls
            .iter()
            .all(|c| c.status == ToolCallStatus::Failure)
    );
    let r = cm.execute("return search({ offset = -1 })").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::InvalidToolInput);
    assert!(
        e.message.starts_with("search: 'offset' must be"),
        "{}",
        e.message
    );
    assert!(
        e.suggestions[0].starts_with("Call search with one table"),
        "{:?}",
        e.suggestions
    );
}

#[tokio::test]
async fn search_counts_against_max_tool_calls() {
    let cm = CodeMode::builder()
        .tool("a.b", plain("x"))
        .limits(Limits::default().with_max_tool_calls(2).unwrap())
        .build()
        .unwrap();
    let r = cm.execute("search() search() search() return 1").await;
    assert_eq!(
        r.error().unwrap().kind,
        DiagnosticKind::ToolCallLimitExceeded
    );
    assert_eq!(r.tool_calls.len(), 2);
}

#[tokio::test]
async fn unknown_tool_from_lua_uses_the_ranker() {
    let cm = realistic();
    let r = cm.execute("return tools.slack.sendMessage({})").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::UnknownTool);
    assert!(
        e.message.contains("tools.slack.chat.postMessage"),
        "{}",
        e.message
    );
}

#[test]
fn everyday_queries_find_the_right_tool_first() {
    let cm = realistic();
    for (q, want) in [
        ("create pull request", "github.pulls.create"),
        ("merge", "github.pulls.merge"),
        ("find user by email", "slack.users.lookupByEmail"),
        ("upload file", "slack.files.upload"),
        ("track package", "orders.shipments.track"),
        ("cancel order", "orders.cancel"),
        ("workflow runs", "github.actions.listWorkflowRuns"),
        ("repo content", "github.repos.getContent"),
        ("get issue", "github.issues.get"),
        ("invite user workspace", "slack.admin.users.invite"),
        ("library docs", "context7.get-library-docs"),
        ("forecast", "weather.forecast_daily"),
    ] {
        assert_eq!(top(&cm, q, 1), [want], "{q}");
    }
}

#[tokio::test]
async fn tools_search_is_an_alias_unless_a_tool_owns_the_path() {
    let cm = realistic();
    let r = cm
        .execute(r#"return tools.search({ query = "send message", limit = 1 }).items[1].path"#)
        .await;
    assert_eq!(
        r.value(),
        Some(&json!("slack.chat.postMessage")),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls[0].name, "search");
    // Not a tool: not in the catalog or in search results.
    assert!(cm.catalog().iter().all(|e| e.path != "search"));
    // A real tool at `search` (or below it) wins.
    let cm = CodeMode::builder()
        .tool("search.code", plain("Search code."))
        .build()
        .unwrap();
    let r = cm.execute("return tools.search.code({})").await;
    assert_eq!(r.tool_calls[0].name, "search.code");
    let r = cm
        .execute("return search({ query = \"code\" }).items[1].path")
        .await;
    assert_eq!(r.value(), Some(&json!("search.code")));
}

#[test]
fn typos_are_tolerated_only_when_nothing_matches() {
    let cm = realistic();
    // "isues": no exact match anywhere, so the typo pass finds the issues tools.
    let r = top(&cm, "isues", 10);
    assert!(
        !r.is_empty() && r.iter().all(|p| p.contains("issues")),
        "{r:?}"
    );
    // "postMesage" → post + message; "shipmnts" (stem "shipmnt") is 1 edit from "shipment".
    assert_eq!(top(&cm, "postMesage", 1), ["slack.chat.postMessage"]);
    assert_eq!(
        top(&cm, "shipmnts", 2),
        ["orders.shipments.create", "orders.shipments.track"]
    );
    // Short terms get no allowance; exact matches switch the typo pass off.
    assert!(top(&cm, "lst", 5).is_empty());
    assert_eq!(
        cm.search_index().rank("list isues"),
        cm.search_index().rank("list")
    );
}

#[test]
fn expressions_quote_non_names_and_keywords() {
    assert_eq!(tool_expression("orders.lookup"), "tools.orders.lookup");
    assert_eq!(tool_expression("ns.dash-name"), "tools.ns[\"dash-name\"]");
    assert_eq!(tool_expression("a.end"), "tools.a[\"end\"]");
    assert_eq!(tool_expression("a.9x"), "tools.a[\"9x\"]");
}

/// An input that is not an object is answered with an example call in the language's words.
#[test]
fn a_non_object_input_is_answered_with_an_example_call() {
    use codemode::search::SearchRequest;
    assert_eq!(
        SearchRequest::from_input(&json!("x")).unwrap_err(),
        "search expects one table such as search({ query = \"list issues\" }); got the string \"x\"."
    );
    assert_eq!(
        SearchRequest::from_input_for(&json!([1]), codemode::Language::Lua).unwrap_err(),
        "search expects one table such as search({ query = \"list issues\" }); got a list."
    );
    assert_eq!(
        SearchRequest::from_input_for(&json!(null), codemode::Language::JavaScript).unwrap_err(),
        "search expects one object such as search({ query: \"list issues\" }); got null."
    );
}

/// The runtime's language decides the notation of `search` results, from a program and from
/// the host; a Lua runtime answers as the language-free `run_search` (the default, Lua) does.
#[cfg(feature = "js")]
#[tokio::test]
async fn a_javascript_runtime_searches_in_typescript() {
    let shop = || {
        CodeMode::builder()
            .tool(
                "shop.orders.lookup",
                tool(
                    "Look up an order by id.",
                    json!({"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}),
                )
                .with_output_schema(obj(json!({"total": {"type": "number"}}))),
            )
            .tool("shop.dash-name", plain("A tool whose name is not an identifier."))
    };
    let js = shop()
        .language(codemode::Language::JavaScript)
        .build()
        .unwrap();
    let lookup_ts = "tools.shop.orders.lookup(input: { id: string }): Promise<{ total?: number }>";
    let r = js
        .execute(
            "const a = search({ query: 'order lookup', limit: 1 });\n\
             const b = await search({ query: 'tools.shop[\"dash-name\"]' });\n\
             return [a.items[0].signature, b.items[0].signature];",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            lookup_ts,
            "tools.shop[\"dash-name\"](): Promise<unknown>"
        ])),
        "{}",
        r.to_json_string()
    );
    let page = js.search(&json!({"query": "order lookup"})).unwrap();
    assert_eq!(page["items"][0]["signature"], json!(lookup_ts));
    assert_eq!(
        js.search(&json!("x")).unwrap_err(),
        "search expects one object such as search({ query: \"list issues\" }); got the string \"x\"."
    );
    // Lua: the same result as before runtimes had a language.
    let lua = shop().build().unwrap();
    let input = json!({"query": "order lookup"});
    let page = lua.search(&input).unwrap();
    assert_eq!(page, run_search(lua.tools(), &input).unwrap());
    assert_eq!(
        page["items"][0]["signature"],
        json!("tools.shop.orders.lookup({ id: string }) -> { total?: number }")
    );
}
