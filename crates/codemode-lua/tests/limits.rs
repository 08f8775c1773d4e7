//! One test per fixed internal bound (issue 3): each program trips the bound, and the test checks
//! the error kind, whether `pcall` can catch it, and that the message names the bound.
//! The table of bounds is `docs/limits.md`.

use codemode_lua::limits::{
    MAX_DATA_DEPTH as MAX_DEPTH, MAX_EXPORT_BYTES, MAX_SOURCE_BYTES, MAX_SYNTAX_DEPTH,
};
use codemode_lua::{
    Budgets, Env, ErrorKind, GuestError, HostReply, Machine, Step, compile, limits,
};
use serde_json::{Value, json};

/// Run `src` to completion (host calls answered with `reply`), returning the final step.
fn run_with(
    src: &str,
    budgets: Budgets,
    reply: impl Fn() -> HostReply,
) -> Result<Value, GuestError> {
    let program = compile(src)?;
    let env = Env {
        tool_paths: vec!["t.echo".into()],
        ..Env::default()
    };
    let mut m = Machine::new(&program, &env, budgets);
    loop {
        match m.run(1_000_000) {
            Step::Yield => {}
            Step::HostCall(_) => m.resume(reply()),
            Step::Done(v) => return Ok(v),
            Step::Error(e) => return Err(e),
        }
    }
}

/// Run `src` under a memory cap of `cap` bytes.
fn run_under(src: &str, cap: usize) -> Result<Value, GuestError> {
    let budgets = Budgets {
        max_memory_bytes: Some(cap),
    };
    run_with(src, budgets, || HostReply::Value(Value::Null))
}

fn run(src: &str) -> Result<Value, GuestError> {
    run_with(src, Budgets::default(), || HostReply::Value(Value::Null))
}

fn fails(src: &str, kind: ErrorKind, fragment: &str) -> GuestError {
    let e = run(src).expect_err(src);
    assert_eq!(e.kind, kind, "{}", e.message);
    assert!(
        e.message.contains(fragment),
        "{:?} lacks {:?}",
        e.message,
        fragment
    );
    e
}

/// `pcall(f)` inside the program: `"caught: <message>"` when caught.
fn caught(body: &str) -> String {
    let src = format!(
        "local ok, e = pcall(function() {body} end) if ok then return 'no error' end return 'caught: ' .. tostring(e)"
    );
    run(&src)
        .expect("the error should be catchable")
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn max_source_bytes() {
    let src = format!("return '{}'", "x".repeat(MAX_SOURCE_BYTES));
    let e = fails(&src, ErrorKind::ParseError, "too large");
    assert!(
        e.message.contains(&MAX_SOURCE_BYTES.to_string()),
        "{}",
        e.message
    );
    // Just under the bound is fine.
    let ok = format!("return #'{}'", "x".repeat(MAX_SOURCE_BYTES - 20));
    assert_eq!(run(&ok).unwrap(), json!(MAX_SOURCE_BYTES - 20));
}

#[test]
fn max_syntax_depth() {
    let depth = MAX_SYNTAX_DEPTH as usize;
    let deep = format!("return {}1{}", "(".repeat(depth + 1), ")".repeat(depth + 1));
    fails(
        &deep,
        ErrorKind::ParseError,
        &format!("nesting too deep (limit {depth})"),
    );
    let deep_blocks = format!("{}{}", "do ".repeat(100_000), " end".repeat(100_000));
    fails(&deep_blocks, ErrorKind::ParseError, "nesting too deep");
    let ok = format!("return {}1{}", "(".repeat(100), ")".repeat(100));
    assert_eq!(run(&ok).unwrap(), json!(1));
}

#[test]
fn max_registers() {
    let locals: String = (0..limits::MAX_REGISTERS + 10)
        .map(|i| format!("local v{i} = {i}\n"))
        .collect();
    fails(&locals, ErrorKind::ParseError, "too many");
}

#[test]
fn max_upvalues() {
    let n = limits::MAX_UPVALUES + 5;
    // Locals spread over nested functions so no single function has too many registers.
    let mut src = String::new();
    let mut names = Vec::new();
    for chunk in 0..n.div_ceil(100) {
        src.push_str("local function f");
        src.push_str(&chunk.to_string());
        src.push_str("()\n");
        for i in chunk * 100..((chunk + 1) * 100).min(n) {
            src.push_str(&format!("local u{i} = {i}\n"));
            names.push(format!("u{i}"));
        }
    }
    src.push_str(&format!(
        "return function() return {{{}}} end\n",
        names.join(", ")
    ));
    for _ in 0..n.div_ceil(100) {
        src.push_str("end\n");
    }
    fails(
        &src,
        ErrorKind::ParseError,
        "too many upvalues (limit is 255)",
    );
}

#[test]
fn max_frames_is_a_catchable_stack_overflow() {
    let e = fails(
        "local function f(n) return 1 + f(n + 1) end return f(0)",
        ErrorKind::ExecutionFailure,
        "stack overflow",
    );
    assert!(e.location.is_some());
    let msg = caught("local function f(n) return 1 + f(n + 1) end return f(0)");
    assert!(
        msg.starts_with("caught: ") && msg.contains("stack overflow"),
        "{msg}"
    );
    // Recursion well under MAX_FRAMES is fine.
    let depth = limits::MAX_FRAMES / 2;
    let ok = format!(
        "local function f(n) if n == 0 then return 0 end return 1 + f(n - 1) end return f({depth})"
    );
    assert_eq!(run(&ok).unwrap(), json!(depth));
}

#[test]
fn max_stack_slots() {
    // Each frame of this function holds many registers: the value stack runs out before the
    // frame count does.
    let locals: String = (0..200).map(|i| format!("local a{i} = n ")).collect();
    let src = format!("local function f(n) {locals} return 1 + f(n + 1) end return f(0)");
    const { assert!(limits::MAX_STACK_SLOTS / 200 < limits::MAX_FRAMES) };
    fails(&src, ErrorKind::ExecutionFailure, "stack overflow");
    // Results of one call are bounded by it too.
    let msg = caught("return string.byte(string.rep('a', 600000), 1, -1)");
    assert_eq!(msg, "caught: input:1: string slice too long");
}

#[test]
fn max_native_nesting() {
    // Natives calling back into Lua (sort comparators inside comparators) nest on the Rust
    // stack; the bound turns that into a catchable "stack overflow". A big stack here so this
    // test checks the bound itself in any build profile.
    let handle = std::thread::Builder::new()
        .stack_size(512 * 1024 * 1024)
        .spawn(|| {
            run("local function cmp(a, b) table.sort({3, 2, 1}, cmp) return a < b end table.sort({3, 2, 1}, cmp)")
        })
        .unwrap();
    let e = handle.join().unwrap().unwrap_err();
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(
        e.message
            .contains("stack overflow (too many nested callbacks)"),
        "{}",
        e.message
    );
    let _ = limits::MAX_NATIVE_NESTING;
}

#[test]
fn max_memory_bytes_default_cap_is_checked_before_allocating() {
    let src = format!("return string.rep('x', {})", limits::MAX_MEMORY_BYTES);
    let e = fails(&src, ErrorKind::ExecutionFailure, "memory limit exceeded");
    assert!(
        e.message.contains(&limits::MAX_MEMORY_BYTES.to_string()),
        "{}",
        e.message
    );
    // Not catchable.
    let e = run(&format!(
        "local ok = pcall(string.rep, 'x', {}) return 'caught'",
        limits::MAX_MEMORY_BYTES
    ))
    .unwrap_err();
    assert!(e.message.contains("memory limit exceeded"));
}

#[test]
fn budget_above_the_fixed_cap_keeps_the_fixed_cap() {
    let e = run_with(
        &format!("return #string.rep('x', {})", limits::MAX_MEMORY_BYTES),
        Budgets {
            max_memory_bytes: Some(usize::MAX),
        },
        || HostReply::Value(Value::Null),
    )
    .unwrap_err();
    assert!(
        e.message
            .contains(&format!("more than {} bytes", limits::MAX_MEMORY_BYTES)),
        "{}",
        e.message
    );
}

#[test]
fn budget_max_memory_bytes_over_and_under() {
    let cap = 8 * 1024 * 1024;
    let budgets = || Budgets {
        max_memory_bytes: Some(cap),
    };
    // Over: a growing table of distinct strings.
    let over = run_with(
        "local t = {} for i = 1, 1e7 do t[i] = string.rep('x', 100) .. i end return #t",
        budgets(),
        || HostReply::Value(Value::Null),
    )
    .unwrap_err();
    assert_eq!(over.kind, ErrorKind::ExecutionFailure);
    assert!(
        over.message.contains(&format!("more than {cap} bytes")),
        "{}",
        over.message
    );
    // Under: about 2 MB held.
    let under = run_with(
        "local t = {} for i = 1, 20000 do t[i] = string.rep('x', 100) .. i end return #t",
        budgets(),
        || HostReply::Value(Value::Null),
    )
    .unwrap();
    assert_eq!(under, json!(20000));
    // Checked before allocating: a 1 GB request fails at once.
    let e = run_with("return ('x'):rep(1e9)", budgets(), || {
        HostReply::Value(Value::Null)
    })
    .unwrap_err();
    assert!(e.message.contains("memory limit exceeded"), "{}", e.message);
}

#[test]
fn json_decode_tree_is_bounded_by_the_memory_cap() {
    let budgets = Budgets {
        max_memory_bytes: Some(16 * 1024 * 1024),
    };
    // 2 MB of text, ~600k values: more than 16 MiB once decoded.
    let e = run_with(
        "return #json.decode('[' .. string.rep('[1,2],', 200000) .. '0]')",
        budgets,
        || HostReply::Value(Value::Null),
    )
    .unwrap_err();
    assert!(e.message.contains("memory limit exceeded"), "{}", e.message);
}

#[test]
fn boundary_max_depth_export_import_and_json() {
    let d = MAX_DEPTH;
    fails(
        "local t = {} for i = 1, 1000 do t = {t} end return t",
        ErrorKind::InvalidDataValue,
        &format!("nests deeper than {d} levels"),
    );
    let msg = caught("local t = {} for i = 1, 1000 do t = {t} end return json.encode(t)");
    assert!(msg.contains(&format!("deeper than {d} levels")), "{msg}");
    let msg = caught(&format!(
        "return json.decode(string.rep('[', {0}) .. string.rep(']', {0}))",
        d + 1
    ));
    assert!(
        msg.contains(&format!("nesting deeper than {d} levels")),
        "{msg}"
    );
    // Tool output deeper than the bound: refused on import (the tool's fault: InvalidToolOutput).
    let mut deep = json!(1);
    for _ in 0..=d {
        deep = json!([deep]);
    }
    let e = run_with("return tools.t.echo({})", Budgets::default(), || {
        HostReply::Value(deep.clone())
    })
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidToolOutput);
    assert_eq!(
        e.message,
        format!(
            "Invalid output from tool 't.echo': the data nests deeper than {d} levels and cannot be received"
        )
    );
    // Exactly at the bound is fine.
    let ok = format!(
        "return #json.decode(string.rep('[', {0}) .. string.rep(']', {0}))",
        d
    );
    assert_eq!(run(&ok).unwrap(), json!(1));
}

#[test]
fn boundary_max_export_bytes() {
    let e = fails(
        "local t = {1} for i = 1, 40 do t = {t, t} end return t",
        ErrorKind::InvalidDataValue,
        "too large to cross to the host",
    );
    assert!(
        e.message.contains(&MAX_EXPORT_BYTES.to_string()),
        "{}",
        e.message
    );
    let msg = caught("local t = {1} for i = 1, 40 do t = {t, t} end return json.encode(t)");
    assert!(msg.contains("too large to cross"), "{msg}");
}

#[test]
fn table_unpack_result_count() {
    assert_eq!(
        caught("return table.unpack({}, 1, 1e8)"),
        "caught: input:1: too many results to unpack"
    );
}

#[test]
fn string_rep_result_size() {
    // Larger than any memory could hold: Lua's own message, catchable like Lua's.
    let msg = caught("return string.rep('ab', math.maxinteger)");
    assert!(msg.contains("resulting string too large"), "{msg}");
}

#[test]
fn format_spec_length() {
    let msg = caught("return string.format('%5000d', 1)");
    assert!(msg.contains("invalid conversion"), "{msg}");
    assert_eq!(run("return #string.format('%99d', 1)").unwrap(), json!(99));
}

/// Fuel used by `src` (run to completion in one big slice).
fn fuel_of(src: &str) -> u64 {
    let program = compile(src).unwrap();
    let mut m = Machine::new(&program, &Env::default(), Budgets::default());
    loop {
        match m.run(1_000_000_000) {
            Step::Yield => {}
            Step::Done(_) => return m.fuel_used(),
            other => panic!("{src}: {other:?}"),
        }
    }
}

#[test]
fn fuel_is_charged_for_builtin_work() {
    // Builtins charge for what they do (per byte or element), not one unit per call: the same
    // program with and without one call differs by far more than a few instructions.
    for (setup, call, at_least) in [
        (
            "local s = 'x'",
            "s = string.rep('x', 10000000)",
            10_000_000 / 64,
        ),
        (
            "local t = {} for i = 1, 100000 do t[i] = 'abcdefgh' end local s",
            "s = table.concat(t)",
            800_000 / 64,
        ),
        (
            "local t = {} for i = 1, 100000 do t[i] = i end local s",
            "s = json.encode(t)",
            100_000,
        ),
        (
            "local t = {} for i = 1, 100000 do t[i] = (i * 7919) % 100003 end",
            "table.sort(t)",
            100_000,
        ),
        (
            "local t = {} for i = 1, 100000 do t[i] = (i * 7919) % 100003 end",
            "table.sort(t, function(a, b) return a < b end)",
            4 * 1_000_000,
        ),
    ] {
        let without = fuel_of(&format!("{setup} return 1"));
        let with = fuel_of(&format!("{setup} {call} return 1"));
        assert!(
            with >= without + at_least,
            "{call}: {with} < {without} + {at_least}"
        );
    }
}

#[test]
fn frames_and_value_stack_count_toward_the_memory_cap() {
    // Deep recursion under a 2 MiB cap: the frames and stack slots it needs are charged as they
    // grow, so the cap is reached long before MAX_FRAMES.
    let e = run_with(
        "local function f(n) return 1 + f(n + 1) end return f(0)",
        Budgets {
            max_memory_bytes: Some(2 * 1024 * 1024),
        },
        || HostReply::Value(Value::Null),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(e.message.contains("memory limit exceeded"), "{}", e.message);
}

#[test]
fn max_error_message_bytes() {
    let e = fails(
        "error(string.rep('e', 100000))",
        ErrorKind::ExecutionFailure,
        " ... [error message truncated: 100000 bytes]",
    );
    assert_eq!(
        e.message.len(),
        limits::MAX_ERROR_MESSAGE_BYTES + " ... [error message truncated: 100000 bytes]".len()
    );
    // pcall still sees the whole value.
    assert_eq!(
        run("local ok, e = pcall(error, string.rep('e', 100000)) return #e").unwrap(),
        json!(100000)
    );
}

#[test]
fn max_total_fuel() {
    // The fixed cap (10^10) takes minutes to reach; `set_fuel_limit` lowers it for this test
    // (the same check and message).
    assert_eq!(limits::MAX_TOTAL_FUEL, 10_000_000_000);
    let program =
        compile("local ok = pcall(function() while true do end end) return 'caught'").unwrap();
    let mut m = Machine::new(&program, &Env::default(), Budgets::default());
    m.set_fuel_limit(5_000_000);
    let e = loop {
        match m.run(100_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert_eq!(
        e.message,
        "instruction limit exceeded: the program ran more than 5000000 steps; look for an endless loop or process less data"
    );
    assert!(m.fuel_used() < 5_000_000 + 200_000, "{}", m.fuel_used());
    // A native loop (sort) is stopped too.
    let program = compile(
        "local t = {} for i = 1, 200000 do t[i] = (i * 7919) % 200003 end table.sort(t, function(a, b) return a < b end)",
    )
    .unwrap();
    let mut m = Machine::new(&program, &Env::default(), Budgets::default());
    m.set_fuel_limit(3_000_000);
    let e = loop {
        match m.run(100_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("{other:?} fuel {}", m.fuel_used()),
        }
    };
    assert!(
        e.message.starts_with("instruction limit exceeded"),
        "{}",
        e.message
    );
}

#[test]
fn max_error_handler_calls() {
    // A handler that always fails: Lua's "error in error handling" after the bound.
    assert_eq!(
        run("return {xpcall(function() error('a') end, function(m) error('b') end)}").unwrap(),
        json!([false, "error in error handling"])
    );
    // A handler that fails once is handed its own error, like Lua.
    assert_eq!(
        run("local n = 0 return {xpcall(error, function(m) n = n + 1 if n == 1 then error('again', 0) end return 'handled ' .. m end, 'first')}").unwrap(),
        json!([false, "handled again"])
    );
    let _ = limits::MAX_ERROR_HANDLER_CALLS;
}

/// `return pcall(f)` recursion: a tail call into pcall returns one more value per level, so an
/// unbounded pcall nesting made the unwind quadratic and a slice never yielded. Like Lua (whose
/// C stack allows about 200 nested pcalls), nesting stops at `MAX_PCALL_NESTING` with a
/// catchable "C stack overflow"; lua5.4 gives `true, ..., true, false, "C stack overflow"`.
#[test]
fn max_pcall_nesting_tail_call_into_pcall() {
    let check = |src: &str| {
        let v = run(src).unwrap();
        let a = v.as_array().unwrap();
        let n = a.len();
        assert!(
            (3..=limits::MAX_PCALL_NESTING + 2).contains(&n),
            "{n} results: {src}"
        );
        assert!(a[..n - 2].iter().all(|x| *x == json!(true)), "{src}: {v}");
        assert_eq!(a[n - 2], json!(false), "{src}");
        assert_eq!(a[n - 1], json!("C stack overflow"), "{src}");
    };
    check("local function f() return pcall(f) end return {f()}");
    check(
        "local n = 0 local function f() n = n + 1 if n > 40000 then return 1 end return pcall(f) end return {f()}",
    );
    // Not a tail call: one value, like Lua.
    assert_eq!(
        run("local function f() return (pcall(f)) end return {f()}").unwrap(),
        json!([true])
    );
    // xpcall too: ends with a bounded result.
    let v = run("local function f() return xpcall(f, f) end return select('#', f())").unwrap();
    assert!(
        v.as_u64().unwrap() <= limits::MAX_PCALL_NESTING as u64 + 2,
        "{v}"
    );
    // Nesting under the bound works.
    assert_eq!(
        run("local n = 0 local function f() n = n + 1 if n > 150 then return 1 end return pcall(f) end return select('#', f())").unwrap(),
        json!(151)
    );
}

/// The same recursion repeated forever yields at every fuel slice (the host's deadline can fire).
#[test]
fn tail_call_into_pcall_yields_each_slice() {
    for src in [
        "local function f() return pcall(f) end while true do f() end",
        "local function f() return xpcall(f, f) end while true do f() end",
    ] {
        let program = compile(src).unwrap();
        let mut m = Machine::new(&program, &Env::default(), Budgets::default());
        let mut yields = 0;
        for _ in 0..50 {
            match m.run(10_000) {
                Step::Yield => yields += 1,
                other => panic!("{src}: {other:?}"),
            }
        }
        assert_eq!(yields, 50, "{src}");
    }
}

/// 100,000 labels in one block compile (label lookup and the "only labels follow" check were
/// quadratic: about a minute in a debug build). Lua's goto rules still hold.
#[test]
fn many_labels_compile_in_linear_time() {
    let n = 100_000;
    let labels: String = (0..n).map(|i| format!("::l{i}::\n")).collect();
    assert_eq!(run(&format!("{labels}return 1")).unwrap(), json!(1));
    // A forward goto over all of them, and a backward one.
    assert_eq!(
        run(&format!(
            "local k = 0 goto l{} {labels} k = k + 1 if k < 3 then goto l5 end return k",
            n - 1
        ))
        .unwrap(),
        json!(3)
    );
    let e = compile(&format!("{labels}::l7::\nreturn 1")).unwrap_err();
    assert!(
        e.message.contains("label 'l7' already defined on line 8"),
        "{}",
        e.message
    );
    let e = compile("goto f local x ::f:: print(x)").unwrap_err();
    assert!(
        e.message.contains("jumps into the scope of local 'x'"),
        "{}",
        e.message
    );
    assert_eq!(
        run("local s = 0 for i = 1, 5 do if i % 2 == 0 then goto continue end s = s + i ::continue:: end return s").unwrap(),
        json!(9)
    );
    // Same label name in sibling blocks is fine; visible in a nested block it is not.
    assert_eq!(run("do ::a:: end do ::a:: end return 2").unwrap(), json!(2));
    assert!(compile("::a:: do ::a:: end").is_err());
}

/// `string.rep` over Lua's MAXSIZE is Lua's catchable "resulting string too large"; at the
/// bound the result is attempted (and here passes the memory cap, uncatchable).
#[test]
fn max_rep_bytes() {
    assert_eq!(limits::MAX_REP_BYTES, 2_147_483_647);
    let over = limits::MAX_REP_BYTES + 1;
    let m = caught(&format!("return string.rep('x', {over})"));
    assert!(m.ends_with(": resulting string too large"), "{m}");
    // `#s + #sep` counts per repetition, as in Lua.
    let half = limits::MAX_REP_BYTES / 2 + 1;
    let m = caught(&format!("return string.rep('x', {half}, ',')"));
    assert!(m.ends_with(": resulting string too large"), "{m}");
    fails(
        &format!("return pcall(string.rep, 'x', {})", limits::MAX_REP_BYTES),
        ErrorKind::ExecutionFailure,
        "memory limit exceeded",
    );
}

#[test]
fn max_pattern_depth_and_captures() {
    assert_eq!(limits::MAX_PATTERN_DEPTH, 200);
    assert_eq!(limits::MAX_CAPTURES, 32);
    // Each `a?` that matches recurses once: one more than the bound is "pattern too complex"
    // (catchable, like Lua); well under it matches.
    let over = limits::MAX_PATTERN_DEPTH + 50;
    let m = caught(&format!(
        "return string.find(string.rep('a', {over}), string.rep('a?', {over}))"
    ));
    assert!(m.ends_with(": pattern too complex"), "{m}");
    assert_eq!(
        run("return {string.find(string.rep('a', 150), string.rep('a?', 150))}").unwrap(),
        json!([1, 150])
    );
    // Nested captures also count.
    let deep = format!("{}a{}", "(".repeat(31), ")".repeat(31));
    assert_eq!(
        run(&format!("return select('#', string.match('a', '{deep}'))")).unwrap(),
        json!(31)
    );
    assert_eq!(
        run("return select('#', string.match(string.rep('x', 32), string.rep('(.)', 32)))")
            .unwrap(),
        json!(32)
    );
    let m = caught("return string.match(string.rep('x', 33), string.rep('(.)', 33))");
    assert!(m.ends_with(": too many captures"), "{m}");
}

/// Run `src` with a lowered total fuel limit; the final error.
fn fuel_failure(src: &str, fuel: u64) -> GuestError {
    let program = compile(src).unwrap();
    let mut m = Machine::new(&program, &Env::default(), Budgets::default());
    m.set_fuel_limit(fuel);
    let started = std::time::Instant::now();
    let e = loop {
        match m.run(100_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("{src}: {other:?} fuel {}", m.fuel_used()),
        }
    };
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "{src}: {:?}",
        started.elapsed()
    );
    e
}

#[test]
fn pattern_backtracking_is_charged_as_fuel() {
    // Exponential / polynomial back-tracking inside one call, even under pcall, ends with the
    // uncatchable instruction limit instead of hanging.
    for src in [
        "return pcall(string.find, string.rep('a', 100000), '.-.-.-x')",
        "return pcall(string.match, string.rep('a', 30) .. 'c', string.rep('a*', 30) .. 'b')",
        "return pcall(string.gsub, string.rep('a', 5000), '.-.-b', 'x')",
        "local n = 0 for _ in string.gmatch(string.rep('a', 5000), '.-.-b') do n = n + 1 end return n",
        "return pcall(string.gsub, string.rep('(', 40000), '%b()', '')",
    ] {
        let e = fuel_failure(src, 20_000_000);
        assert_eq!(e.kind, ErrorKind::ExecutionFailure, "{src}: {}", e.message);
        assert!(
            e.message.starts_with("instruction limit exceeded"),
            "{src}: {}",
            e.message
        );
    }
    // A linear match over the same data stays well inside the limit.
    let program = compile("return (string.find(string.rep('a', 100000) .. 'x', 'a-x'))").unwrap();
    let mut m = Machine::new(&program, &Env::default(), Budgets::default());
    m.set_fuel_limit(20_000_000);
    loop {
        match m.run(100_000) {
            Step::Yield => {}
            Step::Done(v) => {
                assert_eq!(v, json!(1));
                break;
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn gsub_output_is_checked_against_the_memory_cap() {
    let budgets = Budgets {
        max_memory_bytes: Some(64 * 1024 * 1024),
    };
    for src in [
        // One replacement expands to 1 GB: refused before it is built.
        "local s = string.rep('x', 1000000) return #s:gsub('.+', string.rep('%0', 1000))",
        // Many small replacements add up past the cap.
        "local s = string.rep('x', 1000000) return #s:gsub('x', string.rep('y', 200))",
        // Function and table replacements too.
        "local big = string.rep('z', 100000) return #string.rep('x', 2000):gsub('x', function() return big end)",
        "local t = {x = string.rep('z', 100000)} return #string.rep('x', 2000):gsub('x', t)",
        // Copying unmatched bytes (memory held by the program plus the output).
        "local keep = string.rep('k', 40000000) return #string.rep('q', 30000000):gsub('x', 'y')",
    ] {
        let e = run_with(src, budgets.clone(), || HostReply::Value(Value::Null)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ExecutionFailure, "{src}: {}", e.message);
        assert!(
            e.message.contains("memory limit exceeded"),
            "{src}: {}",
            e.message
        );
    }
    // Under the cap it works.
    assert_eq!(
        run_with(
            "return #string.rep('x', 100000):gsub('x', 'yy')",
            budgets,
            || HostReply::Value(Value::Null)
        )
        .unwrap(),
        json!(200000)
    );
}

#[test]
fn gsub_callbacks_nest_within_max_native_nesting() {
    // gsub's replacement function calling gsub again: bounded by MAX_NATIVE_NESTING, and the
    // deepest pattern at the innermost level still fits the test thread's stack.
    let f = "local function f(d)
        if d == 0 then return (string.find(string.rep('a', 198), string.rep('a?', 198) .. '$')) end
        local r
        string.gsub('x', 'x', function() r = f(d - 1) end)
        return r
      end";
    let ok = limits::MAX_NATIVE_NESTING - 2;
    assert_eq!(run(&format!("{f} return f({ok})")).unwrap(), json!(1));
    let m = caught(&format!("{f} return f({})", limits::MAX_NATIVE_NESTING + 5));
    assert!(
        m.contains("stack overflow (too many nested callbacks)"),
        "{m}"
    );
}

#[test]
fn gsub_result_buffer_is_charged_while_its_callback_runs() {
    // 16 MiB cap: the first match appends 5 MiB to gsub's buffer (its 5 MiB string stays
    // charged: no collection runs inside a callback); the second callback asks for 8 MiB more.
    // Counting the buffer, that is over the cap, so the callback's own allocation must
    // fail (before, the buffer was uncounted while Lua ran — nested callbacks multiplied it — and
    // the callback went on to print).
    let src = "local r = ('ab'):gsub('%a', function(c)
                 if c == 'a' then return string.rep('x', 5 * 1024 * 1024) end
                 local y = string.rep('y', 8 * 1024 * 1024)
                 print('allocated')
                 return ''
               end)
               return #r";
    let program = compile(src).unwrap();
    let budgets = Budgets {
        max_memory_bytes: Some(16 * 1024 * 1024),
    };
    let mut m = Machine::new(&program, &Env::default(), budgets);
    let e = loop {
        match m.run(1_000_000) {
            Step::Yield => {}
            Step::Error(e) => break e,
            other => panic!("expected the memory limit, got {other:?}"),
        }
    };
    assert_eq!(e.kind, ErrorKind::ExecutionFailure, "{}", e.message);
    assert!(e.message.contains("memory limit exceeded"), "{}", e.message);
    assert!(m.take_logs().is_empty(), "the 8 MiB allocation succeeded");
}

#[test]
fn back_references_charge_only_bytes_compared() {
    // Lua answers this in milliseconds: most attempts fail the length test. Charging every
    // attempt for the whole capture length ran past the total fuel cap.
    assert_eq!(
        run(
            "local s = string.rep('a', 1000000) local a, b, c = s:find('(.+)%1') return {a, b, #c}"
        )
        .unwrap(),
        json!([1, 1000000, 500000])
    );
}

#[test]
fn garbage_is_collected_while_a_gsub_callback_runs() {
    // 100,000 matches, each making a small table and strings that die at once: about 14 MB
    // live (100,000 short strings at about 100 bytes each, as charged since issue 10, the
    // joined string and the output). Without collections inside the callback the garbage
    // (about 70 MB) piled up to the cap.
    let src = "local parts = {}
               for i = 1, 100000 do parts[i] = 'k' .. i .. '=v' .. i end
               local s = table.concat(parts, ';')
               local n = 0
               local out = s:gsub('(%w+)=(%w+)', function(k, v)
                 local t = { key = k:upper(), value = v .. '!', extra = string.rep('.', 64) }
                 n = n + 1
                 return t.key .. ':' .. #t.extra
               end)
               return { n, #out }";
    let v = run_under(src, 24 * 1024 * 1024).unwrap();
    assert_eq!(v[0], json!(100000));
    let expected_len: usize = (1..=100000)
        .map(|i: usize| format!("K{i}:64").len())
        .sum::<usize>()
        + 99999;
    assert_eq!(v[1], json!(expected_len));
}

/// Issue 17, point 17: a collection runs inside a `table.sort` comparator. The comparator first
/// overwrites every slot of the table, so the values being sorted (300 distinct strings) are
/// held only by the sort itself, then makes about 4 KB of garbage per comparison (about 12 MB in
/// all, against a 2 MiB cap). The sorted values must come back intact: a value freed by a
/// collection inside the comparator would read as another string (or fail).
#[test]
fn garbage_is_collected_while_a_sort_comparator_runs() {
    let src = "local t = {}
               for i = 1, 300 do
                 t[i] = string.rep(string.char(65 + i % 26), 50) .. string.format('%05d', (i * 7919) % 301)
               end
               local first, calls = true, 0
               table.sort(t, function(a, b)
                 calls = calls + 1
                 if first then
                   first = false
                   for i = 1, #t do t[i] = false end
                 end
                 local junk = string.rep('j', 4000) .. a .. b
                 return #junk > 0 and a:sub(-5) < b:sub(-5)
               end)
               local parts = {}
               for i = 1, #t do parts[i] = t[i] end
               return { calls, table.concat(parts, ',') }";
    let v = run_under(src, 2 * 1024 * 1024).unwrap();
    assert!(v[0].as_i64().unwrap() > 2000, "{}", v[0]);
    let mut expected: Vec<(i64, String)> = (1..=300i64)
        .map(|i| {
            let k = (i * 7919) % 301;
            let c = char::from(65 + (i % 26) as u8);
            (k, format!("{}{k:05}", c.to_string().repeat(50)))
        })
        .collect();
    expected.sort();
    let expected: Vec<String> = expected.into_iter().map(|(_, s)| s).collect();
    assert_eq!(v[1], json!(expected.join(",")));
}

/// Issue 17, point 17: a collection runs inside an `xpcall` message handler: the handler makes
/// about 5 MB of garbage (against a 2 MiB cap) before it reads the error value it was given (a
/// table made only by `error`), which must still be intact.
#[test]
fn garbage_is_collected_while_an_xpcall_handler_runs() {
    let src = "local function handler(e)
                 local n = 0
                 for i = 1, 20000 do local s = string.rep('h', 200) .. i; n = n + #s end
                 return { code = e.code, note = e.note, n = n }
               end
               local results = {}
               for round = 1, 3 do
                 local ok, r = xpcall(function()
                   error({ code = 40 + round, note = string.rep('n', 10) .. round })
                 end, handler)
                 results[round] = { ok, r.code, r.note, r.n }
               end
               return results";
    let v = run_under(src, 2 * 1024 * 1024).unwrap();
    let n: usize = (1..=20000usize).map(|i| 200 + i.to_string().len()).sum();
    let expected: Vec<Value> = (1..=3)
        .map(|r| json!([false, 40 + r, format!("nnnnnnnnnn{r}"), n]))
        .collect();
    assert_eq!(v, json!(expected));
}

/// Issue 10, point 9: the syntax tree and the compiler's state are charged to the memory
/// budget while compiling: a program whose tree does not fit fails with the memory limit,
/// located where compiling stopped, before its later syntax error; the same program compiles
/// under the default cap, and an ordinary program compiles under a small budget.
#[test]
fn compiling_is_charged_to_the_memory_budget() {
    let unit = format!("x = {}1{}\n", "{".repeat(150), "}".repeat(150));
    let src = format!("{}return x = = \n", unit.repeat(200));
    let small = Budgets {
        max_memory_bytes: Some(1024 * 1024),
    };
    let e = codemode_lua::compile_with(&src, &small).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ExecutionFailure, "{}", e.message);
    assert!(
        e.message.starts_with(
            "memory limit exceeded: compiling the program needs more than 1048576 bytes"
        ),
        "{}",
        e.message
    );
    assert!(
        e.message.contains("write a shorter program"),
        "{}",
        e.message
    );
    let loc = e.location.expect("a location");
    assert!(loc.line > 1 && loc.line < 200, "{loc:?}");
    // Under the default cap the tree fits and the syntax error is reported.
    let e = codemode_lua::compile_with(&src, &Budgets::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ParseError, "{}", e.message);
    assert_eq!(compile(&src).unwrap_err().kind, ErrorKind::ParseError);
    // An ordinary program of 300 lines (14 KB) compiles under the small budget and runs.
    let mut ordinary = String::from("local t = {}\n");
    for i in 0..100 {
        ordinary.push_str(&format!(
            "local function f{i}(x) return {{ id = x, name = 'n{i}', tags = {{ 'a', 'b' }} }} end\nt[#t + 1] = f{i}({i})\nif #t ~= {} then error('count') end\n",
            i + 1
        ));
    }
    ordinary.push_str("return #t");
    let p = codemode_lua::compile_with(&ordinary, &small).unwrap();
    let mut m = Machine::new(&p, &Env::default(), small.clone());
    let v = loop {
        match m.run(1_000_000) {
            Step::Yield => {}
            Step::Done(v) => break v,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(v, json!(100));
}

/// Issue 10, point 9: the compiled program (code, positions, constants) is held for the whole
/// execution and charged to it when the machine starts.
#[test]
fn program_code_is_charged_to_each_execution() {
    let mut src = String::new();
    for i in 0..20000 {
        src.push_str(&format!("x = (x or 0) + {i}.5\n"));
    }
    src.push_str("return 1");
    let p = compile(&src).unwrap();
    let retained = p.data().retained_bytes;
    // About 5 instructions of 16 bytes (with positions) and one constant per line.
    assert!(retained > 20000 * 5 * 16, "{retained}");
    let run = |cap: usize| {
        let budgets = Budgets {
            max_memory_bytes: Some(cap),
        };
        let mut m = Machine::new(&p, &Env::default(), budgets);
        loop {
            match m.run(1_000_000) {
                Step::Yield => {}
                Step::Done(v) => return Ok((v, m.memory_used())),
                Step::Error(e) => return Err(e),
                other => panic!("{other:?}"),
            }
        }
    };
    let (v, used) = run(64 * 1024 * 1024).unwrap();
    assert_eq!(v, json!(1));
    assert!(used > retained, "{used} <= {retained}");
    let e = run(retained).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(e.message.contains("memory limit exceeded"), "{}", e.message);
}

/// Issue 10: charging what objects really occupy leaves room for ordinary data work at the
/// default cap: 2*10^5 records with string fields, and a 10 MB string.
#[test]
fn ordinary_data_work_fits_the_default_cap() {
    let v = run(
        "local r = {}
         for i = 1, 200000 do
           r[i] = { id = i, name = 'user' .. i, email = 'u' .. i .. '@example.com', tags = { 'a', 'b' } }
         end
         local n = 0
         for _, x in ipairs(r) do if x.id % 2 == 0 then n = n + #x.name end end
         return { #r, n }",
    )
    .unwrap();
    assert_eq!(v[0], json!(200000));
    let v = run("local s = string.rep('x', 10 * 1024 * 1024)
         local t = s .. 'y'
         return { #s, #t, #(t:upper()) }")
    .unwrap();
    assert_eq!(v, json!([10485760, 10485761, 10485761]));
}

/// Fuel and result of `src` run in slices of `slice` units.
fn fuel_in_slices(src: &str, slice: u32) -> (u64, Value) {
    let program = compile(src).unwrap();
    let mut m = Machine::new(&program, &Env::default(), Budgets::default());
    loop {
        match m.run(slice) {
            Step::Yield => {}
            Step::Done(v) => return (m.fuel_used(), v),
            other => panic!("{src}: {other:?}"),
        }
    }
}

/// Issue 17 §16: the fast paths (inline Lua calls and returns, a test doing its `Jmp` at once,
/// specialised arithmetic) charge exactly what the instructions they stand for charge, wherever
/// a slice ends: yielding at every possible point gives the same fuel and result as one run.
#[test]
fn fast_paths_charge_the_same_fuel_in_any_slicing() {
    let programs = [
        "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
         return fib(15)",
        "local i, s = 0, 0 while i < 500 do i = i + 1 if i % 3 == 0 then s = s + i * 2 end end
         return s",
        "local t = {} for i = 1, 200 do t[i] = { k = i * 7 % 13, v = i // 3 } end
         table.sort(t, function(a, b) if a.k ~= b.k then return a.k < b.k end return a.v > b.v end)
         local x = 0 for i = 1, #t do x = x * 3 % 1000003 + t[i].k end return x",
        "local n, f = 0, 0.0 repeat n = n + 1; f = f + n / 4 - n * 0.5 until n >= 300 or f < -1e9
         return f",
    ];
    for src in programs {
        let whole = fuel_in_slices(src, 1_000_000_000);
        for slice in [1, 2, 3, 5, 7] {
            assert_eq!(fuel_in_slices(src, slice), whole, "slice {slice}: {src}");
        }
    }
}
