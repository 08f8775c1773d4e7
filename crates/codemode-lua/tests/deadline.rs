//! Single long builtin calls stop at the deadline (issue 3, breaker findings): every native whose
//! work grows with its data checks the deadline (and the total fuel) every
//! `limits::WORK_CHUNK_BYTES` bytes or `limits::WORK_CHUNK_ELEMS` elements, so
//! `string.rep("x", 4e8)`, `s:upper()` of 200 MB or a `table.sort` of 10^6 elements end with the
//! uncatchable `TimeoutExceeded` instead of finishing long after the deadline.
//!
//! Deterministic style: the program builds its data, then calls the tool `t.sync`; the test
//! answers that call after setting a deadline that has already passed, and the next statement
//! calls the big builtin inside `pcall` in one huge fuel slice (so nothing else checks the clock).
//! Each program also runs without a deadline and must then finish (the same call completes).
//!
//! Also here: fuel for instructions that copy many values (`return ...`, varargs), and compiling
//! many pending forward gotos.

use std::time::Instant;

use codemode_lua::{Budgets, Env, ErrorKind, HostReply, Machine, Step, compile, limits};
use serde_json::{Value, json};

/// Run `setup; tools.t.sync(); <call inside pcall>`; with `expired`, the deadline passes at the
/// sync point. Returns the final step.
fn run_synced(setup: &str, call: &str, expired: bool) -> Step {
    run_source(
        &format!(
            "{setup}\ntools.t.sync()\nlocal ok, e = pcall(function() {call} end)\nreturn {{ok = ok, after = 'finished'}}"
        ),
        expired,
    )
}

/// Run `src` (which calls `tools.t.sync()` once) in huge fuel slices; with `expired`, the
/// deadline passes when the sync call is answered.
fn run_source(src: &str, expired: bool) -> Step {
    let program = compile(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    let env = Env {
        tool_paths: vec!["t.sync".into()],
        ..Env::default()
    };
    let mut m = Machine::new(&program, &env, Budgets::default());
    loop {
        match m.run(u32::MAX) {
            Step::Yield => {}
            Step::HostCall(_) => {
                if expired {
                    m.set_deadline(Instant::now());
                }
                m.resume(HostReply::Value(Value::Null));
            }
            done => return done,
        }
    }
}

/// The call completes without a deadline and ends with an uncatchable TimeoutExceeded once the
/// deadline has passed.
fn stops_at_deadline(setup: &str, call: &str) {
    match run_synced(setup, call, false) {
        Step::Done(v) => assert_eq!(v["after"], json!("finished"), "{call}: {v}"),
        other => panic!("{call} without a deadline: {other:?}"),
    }
    match run_synced(setup, call, true) {
        Step::Error(e) => {
            assert_eq!(e.kind, ErrorKind::TimeoutExceeded, "{call}: {}", e.message);
        }
        other => panic!("{call} finished after the deadline: {other:?}"),
    }
}

/// An 8 MiB string (32 chunks of work).
const BIG: &str = "local s = string.rep('ab', 4 * 1024 * 1024)";
/// 50,000 integers in scrambled order (12 chunks of elements).
const INTS: &str = "local t = {} for i = 1, 50000 do t[i] = (i * 7919) % 50021 end";

#[test]
fn string_rep_stops_at_the_deadline() {
    stops_at_deadline("", "return #string.rep('x', 10000000)");
    stops_at_deadline("", "return #string.rep('ab', 3000000, ',')");
    stops_at_deadline(
        "local big = string.rep('y', 3000000)",
        "return #big:rep(10)",
    );
}

#[test]
fn case_and_reverse_stop_at_the_deadline() {
    stops_at_deadline(BIG, "return #s:upper()");
    stops_at_deadline(BIG, "return #s:lower()");
    stops_at_deadline(BIG, "return #s:reverse()");
}

#[test]
fn sub_byte_char_stop_at_the_deadline() {
    stops_at_deadline(BIG, "return #s:sub(2, -2)");
    stops_at_deadline(BIG, "return select('#', s:byte(1, 100000))");
    // string.char of 200,000 arguments (already on the stack when the deadline passes).
    let setup = "local t = {} for i = 1, 50000 do t[i] = 65 end \
                 local function f(...) tools.t.sync() return string.char(...) end";
    let src = format!("{setup} local ok, e = pcall(f, table.unpack(t)) return 'finished'");
    match run_source(&src, false) {
        Step::Done(v) => assert_eq!(v, json!("finished")),
        other => panic!("string.char without a deadline: {other:?}"),
    }
    match run_source(&src, true) {
        Step::Error(e) => assert_eq!(e.kind, ErrorKind::TimeoutExceeded),
        other => panic!("string.char after the deadline: {other:?}"),
    }
}

#[test]
fn find_stops_at_the_deadline() {
    // A short needle (scan) and a long one (KMP), neither present.
    stops_at_deadline(BIG, "return s:find('abc', 1, true)");
    stops_at_deadline(BIG, "return s:find(string.rep('ab', 20) .. 'c', 1, true)");
}

#[test]
fn patterns_stop_at_the_deadline() {
    // Long linear matches over 8 MiB, and back-tracking that would take long.
    stops_at_deadline(BIG, "return s:find('abc')");
    stops_at_deadline(BIG, "return s:match('(a)(b)c')");
    stops_at_deadline(BIG, "return #s:gsub('a', 'x')");
    // One iterator step that scans the whole string for a match that is not there.
    stops_at_deadline(BIG, "for _ in s:gmatch('abc') do end");
    stops_at_deadline("local s = string.rep('a', 600)", "return s:find('.-.-x')");
}

#[test]
fn format_stops_at_the_deadline() {
    stops_at_deadline(BIG, "return #string.format('%q', s)");
    let many = "local t = {} for i = 1, 50000 do t[i] = i end";
    stops_at_deadline(
        many,
        "return #string.format(string.rep('%d', 50000), table.unpack(t))",
    );
}

#[test]
fn concat_operator_and_table_concat_stop_at_the_deadline() {
    stops_at_deadline(BIG, "return #(s .. s .. s)");
    stops_at_deadline(
        "local t = {} for i = 1, 30 do t[i] = string.rep('z', 1000000) end",
        "return #table.concat(t, ',')",
    );
    stops_at_deadline(INTS, "return #table.concat(t, ',')");
}

#[test]
fn table_functions_stop_at_the_deadline() {
    stops_at_deadline(INTS, "return select('#', table.unpack(t))");
    stops_at_deadline(INTS, "table.sort(t) return t[1]");
    stops_at_deadline(
        "local t = {} for i = 1, 50000 do t[i] = tostring((i * 7919) % 50021) end",
        "table.sort(t) return t[1]",
    );
    // Mixed integers and floats: the general path (Lua's quicksort with `<`).
    stops_at_deadline(
        "local t = {} for i = 1, 50000 do t[i] = (i % 2 == 0) and i or i + 0.5 end",
        "table.sort(t) return t[1]",
    );
    // Long strings with a common prefix: each comparison reads 100 KB (the check counts bytes).
    stops_at_deadline(
        "local p = string.rep('x', 100000) local t = {} for i = 1, 300 do t[i] = p .. ((i * 7919) % 301) end",
        "table.sort(t) return #t",
    );
    stops_at_deadline(INTS, "table.move(t, 1, #t, 2) return #t");
    stops_at_deadline(INTS, "return table.pack(table.unpack(t)).n");
    // insert/remove shifting: in the array part (chunked moves) and outside it (hash-stored
    // integer keys, slot by slot).
    stops_at_deadline(INTS, "table.insert(t, 1, 0) return #t");
    stops_at_deadline(INTS, "table.remove(t, 1) return #t");
    stops_at_deadline(
        "local t = {} for i = 1, 50000 do t[i * 2] = i end for i = 1, 50000 do t[i * 2 - 1] = i end",
        "table.insert(t, 1, 0) return #t",
    );
}

#[test]
fn utf8_functions_stop_at_the_deadline() {
    stops_at_deadline(BIG, "return utf8.len(s)");
    stops_at_deadline(BIG, "return utf8.offset(s, 8000000)");
    // The codes iterator skips continuation bytes: 8 MiB of them in one step.
    stops_at_deadline(
        "local c = string.rep('\\x80', 8 * 1024 * 1024)",
        "for p, cp in utf8.codes('a' .. c) do end",
    );
}

#[test]
fn json_stops_at_the_deadline() {
    stops_at_deadline(INTS, "return #json.encode(t)");
    stops_at_deadline(BIG, "return #json.encode({s, s})");
    stops_at_deadline(
        "local text = '[' .. string.rep('1,', 300000) .. '1]'",
        "return #json.decode(text)",
    );
    // One long string literal, and a long run of whitespace.
    stops_at_deadline(
        "local text = '\"' .. string.rep('a', 8 * 1024 * 1024) .. '\"'",
        "return #json.decode(text)",
    );
    stops_at_deadline(
        "local text = string.rep(' ', 8 * 1024 * 1024) .. '1'",
        "return json.decode(text)",
    );
}

#[test]
fn print_and_utf8_char_stop_at_the_deadline() {
    stops_at_deadline(BIG, "print(s, s, s)");
    stops_at_deadline(
        "local t = {} for i = 1, 50000 do t[i] = 0x4E2D end",
        "return #utf8.char(table.unpack(t))",
    );
}

#[test]
fn print_line_is_bounded_by_the_memory_cap_before_it_is_built() {
    // Eight copies of a 10 MB string in one line under a 32 MiB cap: refused while the line is
    // built (it used to be built whole, outside the accounting, then refused).
    let budgets = Budgets {
        max_memory_bytes: Some(32 * 1024 * 1024),
    };
    let Step::Error(e) = finish(
        "local s = string.rep('p', 10000000) print(s, s, s, s, s, s, s, s)",
        budgets,
    )
    .0
    else {
        panic!("print of 80 MB under a 32 MiB cap finished")
    };
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(e.message.contains("memory limit exceeded"), "{}", e.message);
}

#[test]
fn error_with_a_huge_message_stops_at_the_deadline() {
    // A caught error gets its position prefix: building that string is chunked work too.
    stops_at_deadline(BIG, "error(s)");
}

#[test]
fn huge_error_messages_are_positioned_and_capped() {
    let v = run_plain(
        "local s = string.rep('e', 20000000) local ok, e = pcall(error, s) local ok2, e2 = pcall(function() error(s) end) return {#e, #e2, e2:sub(1, 12)}",
    );
    // Called directly by pcall: no position (like Lua); from a Lua function: "input:1:..: ".
    assert_eq!(v[0], json!(20000000));
    let prefix = v[2].as_str().unwrap();
    assert!(prefix.starts_with("input:1:"), "{prefix}");
    assert!(v[1].as_u64().unwrap() > 20000000);
    // Uncaught: the message handed to the host is cut to MAX_ERROR_MESSAGE_BYTES.
    let Step::Error(e) = finish("error(string.rep('\\xff', 30000000))", Budgets::default()).0
    else {
        panic!("error() finished")
    };
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(
        e.message
            .ends_with(" ... [error message truncated: 30000000 bytes]"),
        "{}",
        &e.message[e.message.len() - 60..]
    );
    assert!(e.message.len() < limits::MAX_ERROR_MESSAGE_BYTES + 64);
}

/// Fuel used by `src` (run to completion in one big slice).
fn fuel_of(src: &str) -> u64 {
    match finish(src, Budgets::default()) {
        (Step::Done(_), fuel) => fuel,
        (other, _) => panic!("{src}: {other:?}"),
    }
}

/// Run `src` (no host calls) to its final step in huge slices; also the fuel used.
fn finish(src: &str, budgets: Budgets) -> (Step, u64) {
    let program = compile(src).unwrap_or_else(|e| panic!("{src}: {e:?}"));
    let mut m = Machine::new(&program, &Env::default(), budgets);
    loop {
        match m.run(u32::MAX) {
            Step::Yield => {}
            done => return (done, m.fuel_used()),
        }
    }
}

#[test]
fn copying_many_values_costs_fuel() {
    // `return ...` of 100,000 values, 20 times: the vararg copy and the return copy are charged
    // per value (before, only the call was).
    let setup = "local t = {} for i = 1, 100000 do t[i] = i end \
                 local function pass(...) return ... end \
                 local function one(...) return 1 end \
                 local function run(f) local n = 0 for i = 1, 20 do n = n + select('#', f(table.unpack(t))) end return n end";
    let copying = fuel_of(&format!("{setup} return run(pass)"));
    let not_copying = fuel_of(&format!("{setup} return run(one)"));
    assert!(
        copying >= not_copying + 20 * 100_000 / 4,
        "{copying} < {not_copying} + 500000"
    );
    // A table constructor of many values (SETLIST) too.
    let with_list = fuel_of(&format!(
        "{setup} local n = 0 for i = 1, 20 do n = n + #{{table.unpack(t)}} end return n"
    ));
    let without = fuel_of(&format!(
        "{setup} local n = 0 for i = 1, 20 do n = n + select('#', table.unpack(t)) end return n"
    ));
    assert!(
        with_list >= without + 20 * 100_000 / 8,
        "{with_list} < {without}"
    );
}

#[test]
fn comparing_long_strings_costs_fuel() {
    // `<` on two 1 MB strings that differ at the end reads 1 MB: charged per byte, not as one
    // instruction (a loop of such comparisons used to run a whole slice of them).
    let setup = "local p = string.rep('x', 1000000) local a, b = p .. '1', p .. '2' local c = 0";
    let long = fuel_of(&format!(
        "{setup} for i = 1, 100 do if a < b then c = c + 1 end end return c"
    ));
    let short = fuel_of(&format!(
        "{setup} for i = 1, 100 do if 'a' < 'b' then c = c + 1 end end return c"
    ));
    assert!(long >= short + 100 * 1_000_000 / 20, "{long} < {short}");
}

#[test]
fn returning_many_values_costs_fuel() {
    // The same calls, returning all 100,000 varargs or only the first: the copies made by the
    // vararg expansion and by `return` are charged (before, both cost the same few units, so a
    // loop of such returns ran a whole slice's worth of iterations of 200,000 copies each).
    let setup = "local t = {} for i = 1, 100000 do t[i] = i end \
                 local function all(...) return ... end \
                 local function first(...) return (...) end \
                 local function run(f, ...) for i = 1, 20 do f(...) end return 1 end";
    let all = fuel_of(&format!("{setup} return run(all, table.unpack(t))"));
    let first = fuel_of(&format!("{setup} return run(first, table.unpack(t))"));
    assert!(
        all >= first + 20 * 2 * 100_000 / 4,
        "{all} < {first} + 1000000"
    );
}

/// 50,000 gotos waiting for forward labels at once (to one label, to 50,000 different labels,
/// from 50,000 closed blocks) compile: label resolution was quadratic in pending gotos (minutes
/// in a debug build for this size).
#[test]
fn many_pending_forward_gotos_compile() {
    let n = 50_000;
    let same: String = (0..n).map(|_| "goto done\n").collect();
    let src = format!("local k = 1 {same} k = 2 ::done:: return k");
    assert_eq!(run_plain(&src), json!(1));

    let gotos: String = (0..n).map(|i| format!("goto l{i}\n")).collect();
    let labels: String = (0..n).map(|i| format!("::l{i}::\n")).collect();
    let src = format!("local k = 1 do {gotos} k = 2 {labels} end return k");
    assert_eq!(run_plain(&src), json!(1));

    let blocks: String = (0..n).map(|_| "do goto out end\n").collect();
    let src = format!("local k = 1 {blocks} k = 2 ::out:: return k");
    assert_eq!(run_plain(&src), json!(1));

    // Still Lua's rules: an unresolved goto names the first one; jumping into a local's scope.
    let src = format!("{same} goto nowhere");
    let e = compile(&src).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert!(
        e.message
            .contains("no visible label 'done' for goto at line 1"),
        "{}",
        e.message
    );
    let e = compile(&format!("{same} local x = 1 ::done:: print(x)")).unwrap_err();
    assert!(
        e.message.contains("jumps into the scope of local 'x'"),
        "{}",
        e.message
    );
    // A label inside a nested block does not resolve gotos of the enclosing block.
    assert!(compile("goto a do ::a:: end").is_err());
    assert_eq!(
        run_plain(
            "local s = 0 for i = 1, 3 do do if i == 2 then goto c end end s = s + i ::c:: end return s"
        ),
        json!(4)
    );
}

fn run_plain(src: &str) -> Value {
    match finish(src, Budgets::default()).0 {
        Step::Done(v) => v,
        other => panic!("{other:?}"),
    }
}
