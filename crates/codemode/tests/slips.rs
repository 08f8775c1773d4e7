//! Slips a first-time model makes on the host side (issue 17): missing namespaces, `search`
//! ranking and scopes, calls into an unavailable namespace, and what `toolCalls` lists.

use codemode::namespace::Unavailable;
use codemode::{CodeMode, DiagnosticKind, Extension, Limits, Namespace, Tool, ToolCallStatus};
use serde_json::{Value, json};

fn tool(desc: &str, schema: Value) -> Tool {
    Tool::new(desc, schema, |v| async move { Ok(v) })
}

/// The run ended at the tool-call limit with `listed` calls in `toolCalls`.
fn assert_limit(r: &codemode::ExecutionResult, listed: usize) {
    assert_eq!(
        r.error().map(|e| e.kind),
        Some(DiagnosticKind::ToolCallLimitExceeded),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls.len(), listed);
}

fn runtime(limits: Limits) -> CodeMode {
    CodeMode::builder()
        .tool(
            "crm.list_customers",
            tool(
                "List customers, newest first.",
                json!({"type": "object", "properties": {"page": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}}),
            ),
        )
        .tool(
            "fetch.fetch",
            tool(
                "Fetches a URL from the internet and extracts its contents as markdown; use it to read web content.",
                json!({"type": "object", "properties": {"url": {"type": "string"}}}),
            ),
        )
        .tool("fs.read_file", tool("Read one file.", json!({"type": "object"})))
        .namespace(
            "down",
            Namespace::new().unavailable(Unavailable::new("server 'down' failed to start")),
        )
        .extension(Extension::new("util").function(
            "echo",
            |args: Vec<Value>| async move { Ok(Value::Array(args)) },
        ))
        .limits(limits)
        .build()
        .unwrap()
}

/// Point 5: a namespace that does not exist is named as such, with the namespaces there are.
#[tokio::test]
async fn missing_namespace_lists_the_namespaces() {
    let r = runtime(Limits::default())
        .execute("return tools.github.list_issues()")
        .await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::UnknownTool);
    assert_eq!(
        e.message,
        "unknown tool 'tools.github.list_issues': there is no namespace 'github'; the namespaces are: tools.crm, tools.fetch, tools.fs; use search({ query = \"...\" }) to find tools by what they do"
    );
    assert!(
        !e.suggestions.iter().any(|s| s.contains("crm")),
        "{:?}",
        e.suggestions
    );
    // A near spelling of a namespace still gets "did you mean".
    let r = runtime(Limits::default())
        .execute("return tools.crn.list_customers()")
        .await;
    assert_eq!(
        r.error().unwrap().message,
        "unknown tool 'tools.crn.list_customers' (did you mean tools.crm.list_customers?)"
    );
}

/// Point 10: a description match outranks one input property; transpositions are typos; an
/// unknown `namespace` says so.
#[tokio::test]
async fn search_ranks_descriptions_over_properties_and_checks_namespaces() {
    let cm = runtime(Limits::default());
    let r = cm
        .execute("local r = search({ query = 'download web page' }) return r.items[1].path")
        .await;
    assert_eq!(r.value(), Some(&json!("fetch.fetch")));
    let r = cm
        .execute("local r = search({ query = 'fiel' }) return r.items[1].path")
        .await;
    assert_eq!(r.value(), Some(&json!("fs.read_file")));
    let r = cm.execute("return search({ namespace = 'nope' })").await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::InvalidToolInput);
    assert_eq!(
        e.message,
        "search: namespace \"nope\" does not exist; the namespaces are: crm, fetch, fs; leave namespace out to search every tool"
    );
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
}

/// Point 11: a call into a namespace that failed to start is listed and counted.
#[tokio::test]
async fn calls_into_an_unavailable_namespace_are_listed_and_counted() {
    let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
    let r = cm
        .execute("local ok, e = pcall(tools.down.x, {})\nlocal ok2, e2 = pcall(function() return tools.down.y({}) end)\nreturn {e, e2}")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            "tools.down.x cannot be called: server 'down' failed to start",
            "input:2: tools.down.y cannot be called: server 'down' failed to start"
        ]))
    );
    let names: Vec<(&str, ToolCallStatus)> = r
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), c.status))
        .collect();
    assert_eq!(
        names,
        vec![
            ("down.x", ToolCallStatus::Failure),
            ("down.y", ToolCallStatus::Failure)
        ]
    );
    assert_eq!(
        r.tool_calls[0].input,
        json!("[input not sent: its namespace is unavailable]")
    );
    let r = cm
        .execute("for i = 1, 3 do pcall(tools.down.x, {}) end return 1")
        .await;
    assert_limit(&r, 2);
}

/// Breaker finding: unknown-tool attempts and extension calls are counted and listed, and the
/// limit error they trip has a location and no stray suggestion.
#[tokio::test]
async fn unknown_tools_and_extension_calls_are_listed() {
    let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
    let r = cm
        .execute("for i = 1, 3 do pcall(tools.crm.nope, {}) end return 1")
        .await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::ToolCallLimitExceeded);
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((1, 22)));
    assert!(e.suggestions.is_empty(), "{:?}", e.suggestions);
    assert_eq!(r.tool_calls.len(), 2);
    assert_eq!(r.tool_calls[0].name, "crm.nope");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    assert_eq!(
        r.tool_calls[0].input,
        json!("[input not sent: no tool has this path]")
    );
    let r = cm.execute("util.echo('a', 2) return util.echo()").await;
    assert_eq!(r.value(), Some(&json!([])));
    let calls: Vec<(&str, &Value, ToolCallStatus)> = r
        .tool_calls
        .iter()
        .map(|c| (c.name.as_str(), &c.input, c.status))
        .collect();
    assert_eq!(
        calls,
        vec![
            ("util.echo", &json!(["a", 2]), ToolCallStatus::Success),
            ("util.echo", &json!([]), ToolCallStatus::Success)
        ]
    );
}

/// Point 4: an empty table sent where the schema says `array` is sent as `[]`.
#[tokio::test]
async fn empty_table_for_an_array_property_is_sent_as_an_array() {
    let cm = runtime(Limits::default());
    let r = cm
        .execute("return tools.crm.list_customers({ tags = {} })")
        .await;
    assert_eq!(r.value(), Some(&json!({"tags": []})));
    assert_eq!(r.tool_calls[0].input, json!({"tags": []}));
}

fn many(n: usize, desc: &str) -> CodeMode {
    let mut b = CodeMode::builder();
    for i in 0..n {
        b = b.tool(
            format!("big.op{i:03}"),
            tool(
                desc,
                json!({"type": "object", "properties": {"q": {"type": "string"}}}),
            ),
        );
    }
    b.build().unwrap()
}

/// Point 9: under a small budget the catalog names the tools it has no room for; the guide
/// reminds that Lua is not JavaScript.
#[test]
fn catalog_names_the_tools_it_cuts() {
    let cm = many(30, "One operation.");
    let text = cm.instructions(400);
    let tools = &text[text.find("## Tools").expect("tools section")..];
    let hidden = tools
        .lines()
        .find(|l| l.starts_with("  (not shown: "))
        .unwrap_or_else(|| panic!("{tools}"));
    let listed = tools.matches("tools.big.op").count();
    let names = hidden
        .trim_start_matches("  (not shown: ")
        .trim_end_matches(')');
    assert_eq!(names.split(", ").count() + listed, 30, "{tools}");
    assert!(names.starts_with("op"), "{hidden}");
    assert!(text.contains(
        "- Lua is not JavaScript: `#t` is the length (no `.length`), `t[1]` is the first item, `~=` is not-equal, `..` joins strings, `nil` (no null/undefined), declare variables with `local`.\n"
    ));
}

/// Breaker finding: a catalog whose descriptions were cut does not call itself complete.
#[test]
fn catalog_with_cut_descriptions_says_so() {
    let long = "word ".repeat(40);
    let text = many(2, &long).instructions(10_000);
    assert!(
        text.contains("## Tools (all 2 tools with full signatures; long descriptions are cut to their first line, `search` returns them whole)"),
        "{text}"
    );
    let text = many(2, "Short.").instructions(10_000);
    assert!(text.contains("## Tools (complete: all 2 tools with full signatures)"));
}

/// Breaker findings: a host call refused inside a builtin's callback is counted and listed,
/// says what to write instead, and an `xpcall` handler that calls a tool gets that message.
#[tokio::test]
async fn calls_refused_inside_callbacks_are_listed() {
    let cm = runtime(Limits::default());
    let r = cm
        .execute("local t = {3, 1, 2}\ntable.sort(t, function(a, b) tools.crm.list_customers({}) return a < b end)\nreturn t")
        .await;
    let e = r.error().unwrap();
    assert_eq!(
        e.message,
        "cannot call a tool (tools.crm.list_customers) from inside a sort callback; call it before sorting and compare the results"
    );
    assert_eq!(e.location.map(|l| l.line), Some(2));
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].name, "crm.list_customers");
    assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    assert_eq!(
        r.tool_calls[0].input,
        json!("[input not sent: called inside a builtin's callback]")
    );

    let r = cm
        .execute(
            "return {pcall(string.gsub, 'ab', '%w', function(c) return search({ query = c }) end)}",
        )
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "input:1: cannot call search from inside a gsub callback; collect the matches first (e.g. with gmatch), call it for each, then substitute"
        ])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls[0].name, "search");

    let r = cm
        .execute("return {pcall(pcall, tools.crm.list_customers, {})}")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            true,
            false,
            "cannot call a tool (tools.crm.list_customers) through pcall(pcall, ...): write pcall(tools.crm.list_customers, input) directly"
        ]))
    );
    assert_eq!(r.tool_calls.len(), 1);

    let r = cm
        .execute("return {xpcall(function() error('x') end, function(m) return tools.crm.list_customers({}) end)}")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "input:1: cannot call a tool (tools.crm.list_customers) from inside an xpcall message handler; call it in the protected function and handle its result there"
        ])),
        "{}",
        r.to_json_string()
    );
    assert_eq!(r.tool_calls.len(), 1);

    // Counted: past the limit the run ends.
    let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
    let r = cm
        .execute("local t = {}\nfor i = 1, 10 do t[i] = i end\ntable.sort(t, function(a, b) pcall(tools.crm.list_customers, {}) return a < b end)\nreturn 1")
        .await;
    assert_limit(&r, 2);
}

/// Breaker finding: `xpcall(tool, handler, bad input)` runs the handler on the error.
#[tokio::test]
async fn xpcall_handler_sees_a_tool_input_error() {
    let r = runtime(Limits::default())
        .execute("return {xpcall(tools.crm.list_customers, function(m) return 'H: ' .. m end, { page = 'x' })}")
        .await;
    assert_eq!(
        r.value(),
        Some(&json!([
            false,
            "H: Invalid input for tool 'crm.list_customers': at /page: \"x\" is not of type \"integer\""
        ])),
        "{}",
        r.to_json_string()
    );
}

/// Breaker finding: a timeout in a plain loop says where the program was.
#[tokio::test]
async fn timeout_in_a_plain_loop_has_a_location() {
    let r = runtime(Limits::default().with_timeout_ms(100).unwrap())
        .execute("local x = 0\nwhile true do\n  x = x + 1\nend")
        .await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::TimeoutExceeded);
    let line = e.location.map(|l| l.line);
    assert!(matches!(line, Some(2..=4)), "{:?}", e.location);
}

/// Breaker finding: `tools["crm.list_customers"]` (the dotted path as one key) says how to write
/// it instead of suggesting the very path it was given.
#[tokio::test]
async fn dotted_path_as_one_key_says_how_to_write_it() {
    let r = runtime(Limits::default())
        .execute("return tools[\"crm.list_customers\"]({})")
        .await;
    let e = r.error().unwrap();
    assert_eq!(e.kind, DiagnosticKind::UnknownTool);
    assert_eq!(
        e.message,
        "no tool is named by the one key \"crm.list_customers\": a dotted path is one key per segment; write tools.crm.list_customers"
    );
}

/// `catalog::MAX_HIDDEN_NAMES`: more left-out tools than that are counted.
#[test]
fn catalog_counts_left_out_tools_past_the_bound() {
    let text = many(100, "One operation.").instructions(700);
    let hidden = text
        .lines()
        .find(|l| l.starts_with("  (not shown: "))
        .unwrap_or_else(|| panic!("{text}"));
    let listed = text.matches("tools.big.op").count();
    let more = 100 - listed - codemode::catalog::MAX_HIDDEN_NAMES;
    assert!(hidden.ends_with(&format!(" and {more} more)")), "{hidden}");
}
