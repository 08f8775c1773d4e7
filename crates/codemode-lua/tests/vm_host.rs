//! Host interaction: tool calls suspend the machine and resume with the host's reply; unknown
//! tools; errors and aborts; fuel slices; memory cap.

use std::sync::Arc;

use codemode_lua::{
    Budgets, Env, ErrorKind, GuestError, HostCall, HostReply, HostTarget, Machine, MissingTool,
    Step, compile,
};
use serde_json::{Value as Json, json};

fn env() -> Env {
    Env {
        tool_paths: vec![
            "orders.lookup".into(),
            "orders.list".into(),
            "ns.dash-name".into(),
            "util".into(),
            "util.echo".into(),
        ],
        extension_paths: vec!["fetch".into(), "fs.read".into()],
        async_extension_paths: Vec::new(),
        missing: Some(Arc::new(Host)),
        ..Env::default()
    }
}

/// A host that suggests `orders.lookup` for paths under `orders`.
struct Host;

impl MissingTool for Host {
    fn missing(&self, p: &str, rank: bool) -> GuestError {
        let mut e = GuestError::new(ErrorKind::UnknownTool, format!("unknown tool 'tools.{p}'"));
        if rank && p.starts_with("orders.") {
            e.message.push_str(" (did you mean tools.orders.lookup?)");
            e.suggestions.push("tools.orders.lookup".to_string());
        }
        e
    }
}

/// Run with a scripted host: `reply` answers each call.
fn drive(
    src: &str,
    mut reply: impl FnMut(&HostCall) -> HostReply,
) -> (Result<Json, GuestError>, Vec<HostCall>, Vec<String>) {
    let p = compile(src).expect("compiles");
    let mut m = Machine::new(&p, &env(), Budgets::default());
    let mut calls = Vec::new();
    loop {
        match m.run(10_000) {
            Step::Yield => {}
            Step::HostCall(c) => {
                let r = reply(&c);
                calls.push(c);
                m.resume(r);
            }
            Step::Done(v) => return (Ok(v), calls, m.take_logs()),
            Step::Error(e) => return (Err(e), calls, m.take_logs()),
        }
    }
}

fn echo(c: &HostCall) -> HostReply {
    HostReply::Value(json!({"tool": format!("{:?}", c.target), "args": c.args}))
}

#[test]
fn tool_call_suspends_and_resumes() {
    let (r, calls, _) = drive(
        "local r = tools.orders.lookup({id = 'o1'}) return r.args[1].id",
        echo,
    );
    assert_eq!(r.unwrap(), json!("o1"));
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].target, HostTarget::Tool("orders.lookup".into()));
    assert_eq!(calls[0].args, vec![json!({"id": "o1"})]);
    assert_eq!(calls[0].location.map(|l| l.line), Some(1));
}

#[test]
fn tool_calls_inside_nested_functions_pcall_and_loops() {
    let src = "
        local function get(id) return tools['orders'].lookup({id = id}) end
        local out = {}
        for i = 1, 3 do
          local ok, v = pcall(get, 'o' .. i)
          out[#out + 1] = ok and v.args[1].id or 'err'
        end
        local ok2, v2 = pcall(tools.ns['dash-name'], {})
        out[#out + 1] = ok2 and 'dash' or v2
        out[#out + 1] = tools.util.echo({}).tool
        out[#out + 1] = tools.util({x = 1}).tool
        return out";
    let (r, calls, _) = drive(src, echo);
    assert_eq!(
        r.unwrap(),
        json!([
            "o1",
            "o2",
            "o3",
            "dash",
            "Tool(\"util.echo\")",
            "Tool(\"util\")"
        ])
    );
    assert_eq!(calls.len(), 6);
}

#[test]
fn host_error_caught_by_pcall_and_uncaught_keeps_kind() {
    let fail = |_: &HostCall| HostReply::error(ErrorKind::ToolFailure, "db down", Vec::new());
    let (r, _, _) = drive(
        "local ok, e = pcall(tools.orders.lookup, {id = 1})
         local ok2, e2 = pcall(function() return tools.orders.lookup({}) end)
         return {ok, e, ok2, e2}",
        fail,
    );
    assert_eq!(r.unwrap(), json!([false, "db down", false, "db down"]));
    let (r, _, _) = drive("local x = 1\nreturn tools.orders.lookup({})", fail);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::ToolFailure);
    assert_eq!(e.message, "db down");
    assert_eq!(e.location.map(|l| l.line), Some(2));
}

#[test]
fn abort_is_not_caught_by_pcall() {
    let abort = |_: &HostCall| {
        HostReply::Abort(GuestError {
            kind: ErrorKind::TimeoutExceeded,
            message: "timed out".into(),
            location: None,
            suggestions: vec![],
        })
    };
    let (r, _, _) = drive(
        "local ok = pcall(tools.orders.lookup, {}) return 'survived'",
        abort,
    );
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::TimeoutExceeded);
    assert_eq!(e.message, "timed out");
}

#[test]
fn unknown_tool_has_suggestion() {
    let (r, calls, _) = drive("return tools.orders.lookpu({id = 1})", echo);
    let e = r.unwrap_err();
    // The attempt reaches the host as a refused call (counted there), never as a real call:
    // even a host that answers it with a value gets the UnknownTool error.
    assert_eq!(calls.len(), 1);
    let refused = calls[0].refused.as_ref().expect("refused");
    assert_eq!(refused.kind, ErrorKind::UnknownTool);
    assert_eq!(calls[0].target, HostTarget::Tool("orders.lookpu".into()));
    assert_eq!(e.kind, ErrorKind::UnknownTool);
    assert!(
        e.message.contains("did you mean tools.orders.lookup?"),
        "{}",
        e.message
    );
    assert_eq!(e.suggestions, vec!["tools.orders.lookup".to_string()]);
    let (r, _, _) = drive("return tools.nope.x()", echo);
    let e = r.unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnknownTool);
    assert!(e.message.contains("'tools.nope.x'"), "{}", e.message);
    // Catchable.
    let (r, _, _) = drive(
        "local ok, e = pcall(function() return tools.orders.lookpu({}) end) return {ok, e}",
        echo,
    );
    let v = r.unwrap();
    assert_eq!(v[0], json!(false));
    assert!(v[1].as_str().unwrap().contains("unknown tool"));
}

#[test]
fn types_of_host_values() {
    let (r, _, _) = drive(
        "return {type(tools), type(tools.orders), type(tools.orders.lookup), type(search), type(fetch), type(fs.read), type(tools.util)}",
        echo,
    );
    assert_eq!(
        r.unwrap(),
        json!([
            "table", "table", "function", "function", "function", "function", "function"
        ])
    );
}

#[test]
fn search_and_extensions_suspend() {
    let (r, calls, _) = drive(
        "local a = search({query = 'x'}) local b = fs.read({path = 'p'}) return fetch('u', 2)",
        echo,
    );
    assert!(r.is_ok());
    assert_eq!(calls[0].target, HostTarget::Search);
    assert_eq!(calls[1].target, HostTarget::Extension("fs.read".into()));
    assert_eq!(calls[2].target, HostTarget::Extension("fetch".into()));
    assert_eq!(calls[2].args, vec![json!("u"), json!(2)]);
}

#[test]
fn tool_result_shapes_survive_round_trip() {
    let (r, calls, _) = drive(
        "local r = tools.orders.list({}) return tools.orders.lookup({items = r.items, meta = r.meta})",
        |c| match &c.target {
            HostTarget::Tool(p) if p == "orders.list" => {
                HostReply::Value(json!({"items": [], "meta": {}}))
            }
            _ => HostReply::Value(c.args[0].clone()),
        },
    );
    assert_eq!(r.unwrap(), json!({"items": [], "meta": {}}));
    assert_eq!(calls.len(), 2);
}

#[test]
fn fuel_yields_and_resumes() {
    let p = compile("local n = 0 for i = 1, 100000 do n = n + i end return n").unwrap();
    let mut m = Machine::new(&p, &Env::default(), Budgets::default());
    let mut yields = 0;
    let v = loop {
        match m.run(1000) {
            Step::Yield => yields += 1,
            Step::Done(v) => break v,
            other => panic!("{:?}", other),
        }
    };
    assert_eq!(v, json!(5000050000i64));
    assert!(yields >= 100, "yields = {}", yields);
}

#[test]
fn memory_cap_trips_uncatchably() {
    let p = compile(
        "local ok = pcall(function() local t = {} for i = 1, 10000000 do t[i] = 'x' .. i end end) return 'no'",
    )
    .unwrap();
    let mut m = Machine::new(
        &p,
        &Env::default(),
        Budgets {
            max_memory_bytes: Some(4 * 1024 * 1024),
        },
    );
    let e = loop {
        match m.run(100_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("{:?}", other),
        }
    };
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(
        e.message.starts_with("memory limit exceeded"),
        "{}",
        e.message
    );
}

#[test]
fn garbage_is_collected() {
    // Allocates far more than the cap in total, but holds little at any time.
    let p =
        compile("local s for i = 1, 200000 do s = {i, tostring(i) .. 'abcdefgh'} end return s[1]")
            .unwrap();
    let mut m = Machine::new(
        &p,
        &Env::default(),
        Budgets {
            max_memory_bytes: Some(16 * 1024 * 1024),
        },
    );
    let v = loop {
        match m.run(100_000) {
            Step::Yield => {}
            Step::Done(v) => break v,
            other => panic!("{:?}", other),
        }
    };
    assert_eq!(v, json!(200000));
}

#[test]
fn print_goes_to_logs() {
    let (r, _, logs) = drive("print('a', 1, nil, true, 2.5) print() return 0", echo);
    assert!(r.is_ok());
    assert_eq!(
        logs,
        vec!["a\t1\tnil\ttrue\t2.5".to_string(), String::new()]
    );
}

#[test]
fn unavailable_features_say_what_to_do() {
    for (src, needle) in [
        ("require('x')", "require is not available in this sandbox"),
        ("load('x')", "load is not available"),
        ("coroutine.wrap(print)", "coroutine.wrap is not available"),
        ("io.write('x')", "io.write is not available"),
        ("os.time()", "os.time is not available"),
    ] {
        let (r, _, _) = drive(src, echo);
        let e = r.unwrap_err();
        assert!(e.message.contains(needle), "{}: {}", src, e.message);
    }
}

#[test]
fn host_call_inside_sort_comparator_is_refused_clearly() {
    let (r, calls, _) = drive(
        "local t = {3, 1, 2}
         table.sort(t, function(a, b) tools.orders.lookup({}) return a < b end)
         return t",
        echo,
    );
    assert!(calls.is_empty());
    let e = r.unwrap_err();
    assert!(
        e.message
            .contains("cannot call a tool (tools.orders.lookup) from inside a sort callback"),
        "{}",
        e.message
    );
    // pcall and errors inside comparators work.
    let (r, _, _) = drive(
        "local t = {3, 1, 2}
         table.sort(t, function(a, b) local ok = pcall(error, 'x') return a < b end)
         local ok, e = pcall(table.sort, t, function(a, b) error('cmp failed') end)
         return {t, ok, e}",
        echo,
    );
    assert_eq!(r.unwrap(), json!([[1, 2, 3], false, "input:3: cmp failed"]));
}

#[test]
fn deadline_stops_a_comparator_loop() {
    let p = compile("table.sort({3, 2, 1}, function(a, b) while true do end end)").unwrap();
    let mut m = Machine::new(&p, &Env::default(), Budgets::default());
    m.set_deadline(std::time::Instant::now() + std::time::Duration::from_millis(50));
    let start = std::time::Instant::now();
    let e = loop {
        match m.run(10_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("{:?}", other),
        }
    };
    assert_eq!(e.kind, ErrorKind::TimeoutExceeded);
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

#[test]
fn tail_calls_do_not_grow_the_stack() {
    let (r, _, _) = drive(
        "local function loop(n, acc) if n == 0 then return acc end return loop(n - 1, acc + 1) end
         return loop(1000000, 0)",
        echo,
    );
    assert_eq!(r.unwrap(), json!(1000000));
    // A tool call in tail position suspends and returns its value.
    let (r, _, _) = drive(
        "local function f() return tools.orders.lookup({id = 5}) end return f().args[1].id",
        echo,
    );
    assert_eq!(r.unwrap(), json!(5));
}

#[test]
fn namespace_call_and_colon_call_explain_themselves() {
    let (r, calls, _) = drive("return tools.orders({})", echo);
    assert!(calls.is_empty());
    let e = r.unwrap_err();
    assert!(
        e.message
            .starts_with("tools.orders is a namespace, not a tool"),
        "{}",
        e.message
    );
    assert!(e.message.contains("lookup"), "{}", e.message);
    let (r, calls, _) = drive("return tools.orders:lookup({id = 1})", echo);
    assert!(calls.is_empty());
    let e = r.unwrap_err();
    assert!(
        e.message.contains("tools are called with '.', not ':'"),
        "{}",
        e.message
    );
}

/// Every corpus program gives the same value and logs when the machine yields every few
/// instructions (suspension at any instruction boundary is transparent).
#[test]
fn tiny_slices_do_not_change_results() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/differential");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lua"))
        .collect();
    files.sort();
    assert!(files.len() > 50);
    let run = |src: &str, slice: u32| {
        let p = match compile(src) {
            Ok(p) => p,
            Err(e) => return (Err(e.message), vec![]),
        };
        let mut m = Machine::new(&p, &Env::default(), Budgets::default());
        let mut steps = 0u64;
        loop {
            steps += 1;
            if steps > 50_000_000 {
                return (Err("too many steps".into()), vec![]);
            }
            match m.run(slice) {
                Step::Yield => {}
                Step::Done(v) => return (Ok(v), m.take_logs()),
                Step::Error(e) => {
                    return (Err(format!("{:?}: {}", e.kind, e.message)), m.take_logs());
                }
                Step::HostCall(_) => return (Err("host call".into()), vec![]),
            }
        }
    };
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let big = run(&src, 100_000_000);
        let small = run(&src, 3);
        assert_eq!(big, small, "{}", f.display());
    }
}

#[test]
fn unknown_tool_passed_to_pcall_is_named() {
    let (r, calls, _) = drive(
        "local ok, e = pcall(tools.orders.lookpu, {id = 1}) return {ok, e}",
        echo,
    );
    assert_eq!(calls.len(), 1);
    assert!(calls[0].refused.is_some());
    let v = r.unwrap();
    assert_eq!(v[0], json!(false));
    assert!(
        v[1].as_str()
            .unwrap()
            .contains("unknown tool 'tools.orders.lookpu' (did you mean tools.orders.lookup?)"),
        "{}",
        v[1]
    );
}

#[test]
fn deadline_stops_long_native_work() {
    let p = compile("table.move({}, 1, 1 << 50, 2) return 1").unwrap();
    let mut m = Machine::new(&p, &Env::default(), Budgets::default());
    m.set_deadline(std::time::Instant::now() + std::time::Duration::from_millis(50));
    let start = std::time::Instant::now();
    let e = loop {
        match m.run(10_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("{:?}", other),
        }
    };
    assert_eq!(e.kind, ErrorKind::TimeoutExceeded);
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

/// Closures, closed upvalues, varargs and tables survive many collections (small cap → GC every
/// ~128 KiB of allocation).
#[test]
fn gc_keeps_everything_reachable() {
    let src = "
        local function counter()
          local n = 0
          local log = {}
          return function(tag)
            n = n + 1
            log[#log + 1] = tag .. n
            return n, log
          end
        end
        local counters = {}
        for i = 1, 50 do counters[i] = counter() end
        local keep = {}
        for round = 1, 200 do
          for i = 1, 50 do
            local n, log = counters[i]('r' .. round)
            if round == 200 then keep[#keep + 1] = log[#log] end
          end
          -- garbage
          local junk = {}
          for j = 1, 100 do junk[j] = {j, tostring(j) .. 'xxxxxxxxxxxxxxxx'} end
        end
        local function va(...) local t = {...} return select('#', ...), t end
        local total = 0
        for i = 1, 2000 do local c, t = va(i, 'a' .. i, {i}) total = total + c + t[3][1] end
        return {keep[1], keep[50], #keep, total}
    ";
    let p = compile(src).unwrap();
    let mut m = Machine::new(
        &p,
        &Env::default(),
        Budgets {
            max_memory_bytes: Some(1 << 20),
        },
    );
    let v = loop {
        match m.run(10_000) {
            Step::Yield => {}
            Step::Done(v) => break v,
            other => panic!("{:?}", other),
        }
    };
    assert_eq!(v, json!(["r200200", "r200200", 50, 6000 + 2001000]));
}

#[test]
fn an_input_that_cannot_cross_is_a_refused_call() {
    // A function or a cycle in the input: the call reaches the host as a refused attempt
    // (InvalidDataValue, no arguments), and the program gets the error as before.
    let (r, calls, _) = drive(
        "local t = {} t.self = t\n\
         local ok, e = pcall(tools.orders.lookup, {f = print})\n\
         local ok2, e2 = pcall(function() return tools.orders.lookup(t) end)\n\
         return {ok, e, ok2, e2}",
        echo,
    );
    let v = r.unwrap();
    assert_eq!(calls.len(), 2);
    for c in &calls {
        let refused = c.refused.as_ref().expect("refused");
        assert_eq!(refused.kind, ErrorKind::InvalidDataValue);
        assert!(c.args.is_empty());
        assert_eq!(c.target, HostTarget::Tool("orders.lookup".into()));
    }
    assert_eq!(v[0], json!(false));
    assert_eq!(
        v[1],
        json!(
            "input.f is a function; functions cannot cross to the host. Pass data only (strings, numbers, booleans, json.null and tables of them)"
        )
    );
    assert_eq!(v[2], json!(false));
    assert!(v[3].as_str().unwrap().starts_with("input:3:"), "{v}");
    assert!(
        v[3].as_str()
            .unwrap()
            .contains("refers back to input (a cycle)"),
        "{v}"
    );
}

#[test]
fn suggestions_are_looked_up_at_most_max_suggestion_lookups_times() {
    let n = codemode_lua::limits::MAX_SUGGESTION_LOOKUPS as usize;
    let src = format!(
        "local out = {{}}\n\
         for i = 1, {} do\n\
           local ok, e = pcall(function() return tools.orders.lookpu({{}}) end)\n\
           out[#out + 1] = e:find('did you mean', 1, true) ~= nil\n\
         end\n\
         return out",
        n + 3
    );
    let (r, calls, _) = drive(&src, echo);
    let v = r.unwrap();
    let with: Vec<bool> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b.as_bool().unwrap())
        .collect();
    // Every attempt reaches the host (to be counted); only the first N get suggestions.
    assert_eq!(calls.len(), n + 3);
    assert!(with[..n].iter().all(|&b| b), "{with:?}");
    assert!(with[n..].iter().all(|&b| !b), "{with:?}");
}

#[test]
fn unknown_tool_inside_a_callback_is_raised_in_place() {
    // A builtin's callback cannot suspend for a host call: the unknown tool is raised there
    // (caught by the pcall around the builtin), every time, without any host call.
    let (r, calls, _) = drive(
        "local c = 0\n\
         for i = 1, 500 do\n\
           local ok, e = pcall(string.gsub, 'a', 'a', function() return tools.orders.nope({}) end)\n\
           if not ok and e:find('unknown tool', 1, true) then c = c + 1 end\n\
         end\n\
         local t = {3, 1, 2}\n\
         local ok, e = pcall(table.sort, t, function(a, b) tools.orders.nope({}) return a < b end)\n\
         return {c, ok, e:find('unknown tool', 1, true) ~= nil}",
        echo,
    );
    assert_eq!(r.unwrap(), json!([500, false, true]));
    assert!(calls.is_empty());
}

#[test]
fn the_arguments_of_one_call_share_one_export_bound() {
    // One 30 MiB table passed three times: each argument alone is under MAX_EXPORT_BYTES, but
    // the call would copy 90 MiB outside the memory accounting (1000 such arguments once held
    // 2.27 GB). The third argument is refused, with no arguments sent.
    let (r, calls, _) = drive(
        "local t = {s = string.rep('x', 30 * 1024 * 1024)}\n\
         local ok, e = pcall(fetch, t, t, t)\n\
         local ok2 = pcall(fetch, t, {n = 1})\n\
         return {ok, e, ok2}",
        echo,
    );
    let v = r.unwrap();
    assert_eq!(calls.len(), 2);
    let refused = calls[0].refused.as_ref().expect("refused");
    assert_eq!(refused.kind, ErrorKind::InvalidDataValue);
    assert!(calls[0].args.is_empty());
    assert!(
        calls[1].refused.is_none(),
        "two small-enough arguments cross"
    );
    assert_eq!(v[0], json!(false));
    assert_eq!(
        v[1],
        json!(format!(
            "argument #3 together with the arguments before it is too large to cross to the host \
             (more than {} bytes of data; a table that appears several times is copied each \
             time); send less data or summarize it first",
            codemode_lua::limits::MAX_EXPORT_BYTES
        ))
    );
    assert_eq!(v[2], json!(true));
}
