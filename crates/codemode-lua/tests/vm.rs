//! End-to-end tests of the compiler and VM: `compile` + `Machine` (no host tools here; see
//! `vm_host.rs` for suspension/resume).

use codemode_lua::{Budgets, Env, ErrorKind, GuestError, Machine, Step, compile};
use serde_json::{Value as Json, json};

/// Run to completion; returns the exported value and the logs.
fn run(src: &str) -> (Result<Json, GuestError>, Vec<String>) {
    let p = match compile(src) {
        Ok(p) => p,
        Err(e) => return (Err(e), vec![]),
    };
    let mut m = Machine::new(&p, &Env::default(), Budgets::default());
    loop {
        match m.run(100_000) {
            Step::Yield => continue,
            Step::Done(v) => return (Ok(v), m.take_logs()),
            Step::Error(e) => return (Err(e), m.take_logs()),
            Step::HostCall(c) => panic!("unexpected host call {:?}", c),
        }
    }
}

fn val(src: &str) -> Json {
    match run(src).0 {
        Ok(v) => v,
        Err(e) => panic!("program failed: {:?}\n{}", e, src),
    }
}

fn logs(src: &str) -> Vec<String> {
    let (r, l) = run(src);
    if let Err(e) = r {
        panic!("program failed: {:?}\n{}", e, src);
    }
    l
}

fn err(src: &str) -> GuestError {
    match run(src).0 {
        Ok(v) => panic!("expected an error, got {}", v),
        Err(e) => e,
    }
}

#[test]
fn returns_values() {
    assert_eq!(val("return 1"), json!(1));
    assert_eq!(val("return 1.5"), json!(1.5));
    assert_eq!(val("return 'hi'"), json!("hi"));
    assert_eq!(val("return nil"), Json::Null);
    assert_eq!(val("local x = 2 return x * 21"), json!(42));
    assert_eq!(val("return {1, 2, 3}"), json!([1, 2, 3]));
    assert_eq!(val("return {a = 1}"), json!({"a": 1}));
}

/// Run `src` in lua5.4 and here; the printed lines must be equal.
fn same_as_lua(src: &str) {
    let out = std::process::Command::new("lua5.4")
        .arg("-e")
        .arg(src)
        .output()
        .expect("lua5.4 must be installed");
    assert!(
        out.status.success(),
        "lua5.4 failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let expected: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|s| s.to_string())
        .collect();
    let expected: Vec<String> = expected
        .iter()
        .map(|l| l.replace("(command line):", "input:"))
        .collect();
    let got = logs(src);
    let got: Vec<String> = got
        .iter()
        .flat_map(|l| l.split('\n').map(str::to_string).collect::<Vec<_>>())
        // The hint codemode appends after Lua's text for a missing field runs to the line's end.
        .map(|l| match l.find("; that table has no field '") {
            Some(at) => l[..at].to_string(),
            None => l,
        })
        .collect();
    assert_eq!(got, expected, "program:\n{}", src);
}

/// Issue 17 §12: error values carry Lua's `input:LINE: ` prefix (no column), so programs that
/// read the line or strip the prefix the usual way see what they would under Lua 5.4.
#[test]
fn error_values_have_luas_line_prefix() {
    same_as_lua(
        "local ok, e = pcall(function() error('boom') end)
         print(ok, e, e:match(':(%d+): '), (e:gsub('^[^:]+:%d+: ', '')))
         local function lvl2() error('caller', 2) end
         print(pcall(function()
           lvl2()
         end))
         print(pcall(function() local t = nil; return t.x end))
         print(pcall(function() return #5 end))
         print(pcall(error, 'plain'), pcall(error, 'lvl0', 0))",
    );
    let v = val("local ok, e = pcall(function() local x = nil\n  return x.y end) return e");
    assert_eq!(
        v,
        json!("input:2: attempt to index a nil value (local 'x')")
    );
}

/// Issue 17 §13: `%F` is not a conversion of Lua 5.4's `string.format`.
#[test]
fn format_rejects_upper_f_like_lua() {
    same_as_lua(
        "print(pcall(string.format, '%F', 10))
         print(pcall(string.format, '%5.1F', 1.5))
         print(pcall(string.format, '%F'))
         print(string.format('%f %E %G', 10, 10, 10))",
    );
}

/// Issue 17 §14: an error in a builtin called directly by another builtin names the inner one
/// (qualified, as Lua's `pushglobalfuncname`) without a position; one called from Lua code keeps
/// the call site's name and position.
#[test]
fn builtin_called_by_builtin_names_the_inner_one() {
    same_as_lua(
        "print(pcall(function() return string.gsub('abc', '%w', string.rep) end))
         print(pcall(function() table.sort({1, 2, 3}, table.sort) end))
         print(pcall(string.rep))
         print(pcall(function() string.rep() end))
         local r = string.rep
         print(pcall(function() r() end))
         print(pcall(function() return ('x'):rep({}) end))
         print(pcall(function() return string.gsub('abc', '%w', math.floor) end))
         print(pcall(function() table.sort({3, 2, 1}, function(a, b) return string.rep() end) end))",
    );
    // Uncaught, the message is Lua's and the diagnostic still points at the outer call.
    let e = err("local s = 'abc'\nreturn s:gsub('%w', string.rep)");
    assert_eq!(
        e.message,
        "bad argument #2 to 'string.rep' (number expected, got no value)"
    );
    assert_eq!(e.location.map(|l| l.line), Some(2));
}

#[test]
fn arithmetic_subtypes() {
    same_as_lua(
        "print(7 // 2, 7.0 // 2, -7 // 2, 7 % -3, -7 % 3, 5.5 % 2, 1 / 2, 2^10, 3 | 5, 3 ~ 5, 1 << 63, 1 << 64, -1 >> 1)
         print(type(print), 10 / 2, 3 - 1.0, '10' + 1, '3' * '4', 0x10, 1e15, 1e16, -0.0, 100 // 0.0, 5.0 % -3)
         print(9007199254740993 < 9007199254740992.0, 2^53 == 2^53 + 1, 1 == 1.0, math_type, 3 // 0.0, -3 % 0.0)
         print(9223372036854775807 + 1, -9223372036854775808 // -1, 5 // 0.0, -5 // 0.0, 0/0 ~= 0/0)
         print(math_type, 1 < 1.5, 2 <= 2.0, 'a' < 'b', 'abc' < 'abd', 'Z' < 'a', 2^63 == math_type, -(-9223372036854775807 - 1))
         print(7 // -2.0, -7.5 // 2, 7.5 % -2, 3 & 5.0, 1 << -1, 8 >> -1, ~0, '0x10' + 0, ' 5 ' * 2, 10 == '10')
         print(1e308 * 10, -1e308 * 10, 2^-1074, 123456789012345678)
         local a, b = 10, 3 print(a / b, a % b, a // b, -a // b, a % -b, a ^ 0.5)",
    );
}

#[test]
fn closures_and_upvalues() {
    same_as_lua(
        "local function counter() local n = 0 return function() n = n + 1 return n end end
         local c1, c2 = counter(), counter()
         print(c1(), c1(), c2(), c1())
         local fs = {}
         for i = 1, 3 do fs[i] = function() return i end end
         print(fs[1](), fs[2](), fs[3]())
         local gs = {}
         local j = 0
         while j < 3 do j = j + 1 local k = j * 10 gs[j] = function() k = k + 1 return k end end
         print(gs[1](), gs[1](), gs[2](), gs[3]())
         local x = 1
         local function get() return x end
         local function set(v) x = v end
         set(5) print(get(), x)
         local hs = {}
         for _, v in ipairs({'a', 'b'}) do hs[#hs + 1] = function() return v end end
         print(hs[1](), hs[2]())
         local function outer() local a = 1 return function() return function() a = a + 1 return a end end end
         local f = outer()() print(f(), f())
         local r = {}
         repeat local z = #r r[#r + 1] = function() return z end until z >= 2
         print(r[1](), r[2](), r[3]())",
    );
}

#[test]
fn varargs_select_and_multiple_results() {
    same_as_lua(
        "local function f(...) return select('#', ...), ... end
         print(f()) print(f(nil, nil)) print(f(1, 2, 3))
         local function g(...) local a, b = ... return a, b end
         print(g(1)) print(g(1, 2, 3))
         print(select(2, 'a', 'b', 'c')) print(select(-1, 'a', 'b', 'c'))
         local function mr() return 1, 2, 3 end
         local t = {mr(), mr()} print(#t, t[1], t[2], t[4])
         local t2 = {mr(), (mr())} print(#t2)
         print(mr(), 10) print((mr()))
         local a, b, c, d = mr() print(a, b, c, d)
         local x, y = 1 print(x, y)
         a, b = b, a print(a, b)
         local p = {n = 0} p.n, p[1] = 5, 6 print(p.n, p[1])
         local function pack(...) return {n = select('#', ...), ...} end
         local pk = pack(nil, 2, nil) print(pk.n, pk[2])
         print(select('#', table_unpack))",
    );
}

#[test]
fn numeric_for_edge_cases() {
    same_as_lua(
        "for i = 1, 3 do io_write = i end print(io_write)
         for i = 10, 1, -3 do print(i) end
         for i = 1, 2, 0.5 do print(i) end
         for i = 1.0, 3 do print(i) end
         for i = math_huge or 9223372036854775806, 9223372036854775807 do print(i) end
         for i = -9223372036854775807, -9223372036854775808, -1 do print(i) end
         for i = 1, 0 do print('never') end
         for i = 3, 1.5, -1 do print(i) end
         for i = 1, 1.9 do print(i) end
         for i = 0.1, 0.35, 0.1 do print(i) end
         local n = 0 for i = 1, 10 do n = n + i end print(n)
         print(pcall(function() for i = 1, 10, 0 do end end))
         print(pcall(function() for i = 'a', 10 do end end))
         for i = 9223372036854775807 - 2, 1e100 do print(i) end",
    );
}

#[test]
fn goto_break_repeat() {
    same_as_lua(
        "for i = 1, 5 do
           if i % 2 == 0 then goto continue end
           print(i)
           ::continue::
         end
         local i = 0
         ::top:: i = i + 1 if i < 3 then goto top end print(i)
         local k = 0
         repeat local done = k >= 2 k = k + 1 until done
         print(k)
         while true do k = k + 1 if k > 10 then break end end print(k)
         for a = 1, 3 do for b = 1, 3 do if b == 2 then break end print(a, b) end end
         do local fs = {} for i = 1, 3 do local x = i * 2 fs[i] = function() return x end if i == 2 then break end end print(fs[1](), fs[2](), fs[3]) end",
    );
}

#[test]
fn pcall_error_values_and_levels() {
    same_as_lua(
        "print(pcall(error, 'x'))
         print(pcall(error, 'x', 0))
         print(pcall(function() error('boom') end))
         print(pcall(function() error('lvl2', 2) end))
         local ok, e = pcall(function() error({code = 1}) end) print(ok, type(e), e.code)
         print(pcall(function() error() end))
         print(pcall(function() local t = nil; return t.x end))
         print(pcall(function() return undefinedfn() end))
         print(pcall(function() local t = {} t.a.b = 1 end))
         print(pcall(function() return 1 + {} end))
         print(pcall(function() local s = nil return s + 1 end))
         print(pcall(function() return #nil end))
         print(pcall(function() return {} < {} end))
         print(pcall(function() return 1 < 'x' end))
         print(pcall(function() return 'a' .. {} end))
         print(pcall(function() return 1 // 0 end))
         print(pcall(function() return 1 % 0 end))
         print(pcall(function() return 1.5 | 0 end))
         print(pcall(function() local t = {} t[nil] = 1 end))
         print(pcall(function() local t = {} t[0/0] = 1 end))
         print(pcall(function() local obj = {} obj:method() end))
         print(pcall(function() string_x.y() end))
         print(select('#', pcall(function() return 1, 2, 3 end)))
         print(pcall(pcall, error, 'e'))
         print(xpcall(function() error('E') end, function(m) return 'handled: ' .. m end))
         print(xpcall(function(a, b) return a + b end, print, 3, 4))
         print(pcall(assert, false, 'custom'))
         print(pcall(assert, nil))
         print(pcall(assert, 1, 2, 3))
         local up = nil
         print(pcall(function() return up.field end))
         print(pcall(function() local a = {} return a.b.c end))
         print(pcall(function() return ('x'):nosuch() end))",
    );
}

#[test]
fn stack_overflow_is_catchable() {
    same_as_lua(
        "local function r(n) return 1 + r(n + 1) end
         local ok, e = pcall(r, 1)
         print(ok, type(e) == 'string' and e:len() > 0 and e:sub(-14))",
    );
}

#[test]
fn uncaught_error_location_and_message() {
    let e = err("local x = 1\nlocal y = nil\nreturn x + y");
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert_eq!(
        e.message,
        "attempt to perform arithmetic on a nil value (local 'y')"
    );
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((3, 10)));
    let e = err("  error('my message')");
    assert_eq!(e.message, "my message");
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((1, 8)));
    let e = err("error({code = 7})");
    assert!(e.message.contains("\"code\":7"), "{}", e.message);
    let e = err("local t = {}\nt.lookpu()");
    assert_eq!(e.message, "attempt to call a nil value (field 'lookpu')");
    let e = err("foo()");
    assert_eq!(e.message, "attempt to call a nil value (global 'foo')");
    let e = err("local t = setmetatable({}, {})");
    assert!(
        e.message
            .starts_with("setmetatable is not available in this sandbox"),
        "{}",
        e.message
    );
    let e = err("local x <const> = 1\nx = 2");
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert_eq!(e.message, "attempt to assign to const variable 'x'");
    // Clearer than Lua's "bad argument #1 to 'for iterator'".
    let e = err("for k in pairs(nil) do end");
    assert_eq!(
        e.message,
        "bad argument #1 to 'pairs' (table expected, got nil)"
    );
    let e = err("goto nowhere");
    assert_eq!(e.kind, ErrorKind::ParseError);
    let e = err("do goto l1 local a = 1 ::l1:: print(a) end");
    assert!(
        e.message.contains("jumps into the scope of local 'a'"),
        "{}",
        e.message
    );
}

#[test]
fn tables_length_next_and_keys() {
    same_as_lua(
        "local t = {} for i = 1, 10 do t[i] = i end print(#t)
         t[11] = nil t[10] = nil print(#t)
         local h = {} h[1.0] = 'a' h[2] = 'b' print(h[1], h[2.0], #h, math_type)
         local cnt = 0 for k, v in pairs({a = 1, b = 2, c = 3, 10, 20}) do cnt = cnt + 1 end print(cnt)
         local d = {} for i = 1, 100 do d['k' .. i] = i end
         for k in pairs(d) do d[k] = nil end print(next(d))
         local s = {} s[3] = 3 s[2] = 2 s[1] = 1 print(#s)
         local n = 0 for i, v in ipairs({1, 2, nil, 4}) do n = n + 1 end print(n)
         print(rawlen({1, 2}), rawget({5}, 1), rawequal('a', 'a'), rawequal({}, {}))
         local big = {} for i = 1, 1000 do big[#big + 1] = i end print(#big, big[500])
         print(#'hello', ('x'):len(), ('abc'):upper())",
    );
}

#[test]
fn strings_concat_and_tostring() {
    same_as_lua(
        "print(1 .. 2, 1.5 .. '', 'a' .. 'b' .. 'c' .. 1 .. 2.0)
         print(tostring(nil), tostring(true), tostring(12), tostring(1e100), tostring(-0.0))
         print(tonumber('0x1p4'), tonumber('  12  '), tonumber('1e'), tonumber('z', 36), tonumber('ff', 16), tonumber('8', 8))
         print(tonumber(nil), tonumber('10', 2), tonumber(' -7 ', 10))
         local parts = {} for i = 1, 5 do parts[#parts + 1] = i end
         local s = '' for i = 1, 5 do s = s .. i .. ',' end print(s)
         print(type(print), type(nil), type({}), type('s'), type(2), type(true))",
    );
}

/// Deeply nested programs (up to the parser's depth limit) compile and run on a small stack.
#[test]
fn deep_nesting_compiles_on_small_stack() {
    let handle = std::thread::Builder::new()
        .stack_size(1024 * 1024)
        .spawn(|| {
            let n = 190;
            let mut outs = Vec::new();
            let parens = format!("return {}1{}", "(".repeat(n), ")".repeat(n));
            let tables = format!("return {}1{}", "{".repeat(n), "}".repeat(n));
            let arith = format!(
                "local x = 1 return {}x{}",
                "(x + ".repeat(n / 2),
                ")".repeat(n / 2)
            );
            let funcs = format!(
                "return {} 7 {}",
                "(function() return ".repeat(60),
                " end)()".repeat(60)
            );
            let mut ifs = String::new();
            for _ in 0..n / 2 {
                ifs.push_str("if true then ");
            }
            ifs.push_str("x = 5 ");
            for _ in 0..n / 2 {
                ifs.push_str("end ");
            }
            ifs.push_str("return x");
            let concat = format!("return {}'z'", "'a' .. ".repeat(1000));
            let sum = format!("local x = 1 return {}0", "x + ".repeat(5000));
            for src in [parens, tables, arith, funcs, ifs, concat, sum] {
                outs.push(match compile(&src) {
                    Ok(p) => {
                        let mut m = Machine::new(&p, &Env::default(), Budgets::default());
                        loop {
                            match m.run(1_000_000) {
                                Step::Yield => continue,
                                Step::Done(_) => break "ok".to_string(),
                                Step::Error(e) => break format!("error: {}", e.message),
                                Step::HostCall(_) => break "host".into(),
                            }
                        }
                    }
                    Err(e) => format!("compile error: {}", e.message),
                });
            }
            outs
        })
        .unwrap();
    let outs = handle.join().expect("no stack overflow");
    assert_eq!(outs[0], "ok");
    assert_eq!(outs[4], "ok");
    assert!(outs[1].contains("nests deeper than"), "{}", outs[1]);
    // Everything else either works or gives a clean error (never a crash).
    for o in &outs {
        assert!(o == "ok" || o.contains("error"), "{}", o);
    }
}

#[test]
fn assignment_order_and_logic_values() {
    same_as_lua(
        "local a = {} local i = 1 i, a[i] = i + 1, 20 print(i, a[1], a[2])
         local x print(nil and 1, false or nil, 1 and nil or 3, 1 and 2, nil or false, false and nil)
         local c = 1 < 2 local d = 'a' == 'b' local e = not nil print(c, d, e, not 0)
         x = x or {} x.n = (x.n or 0) + 1 print(x.n)
         local y = 5 y = y > 3 and 'big' or 'small' print(y)
         local z = 0 z = (z == 0) and {z} or z print(type(z), z[1])
         local obj = {v = 10} function obj:add(n) return self.v + n end print(obj:add(5), obj.add(obj, 1))
         local ns = {inner = {}} function ns.inner.f(a) return a * 2 end print(ns.inner.f(21))
         for k = 1, 3 do local kk = k k = k * 10 print(k, kk) end
         local w = 0 while w < 10 do w = w + 1 if w % 3 ~= 0 then goto cont end print('w', w) ::cont:: end
         local u = 0 repeat u = u + 1 if u == 2 then goto skip end print('u', u) ::skip:: until u >= 3
         local s = '' for q = 1, 3 do s = s .. q .. (q < 3 and ',' or '') end print(s)
         print(('abc'):upper(), ('%d'):format(7), #'xyz', ('x'):rep(3, '-'))
         local function deep(n) if n == 0 then return 0 end return 1 + deep(n - 1) end print(deep(10000))
         local t = {10, 20, 30, nil, 50} print(select('#', table.unpack(t, 1, 5)))
         print(math.type(1), math.type(1.0), math.type('1'), 7 // 0.0, -7 // 0.0, math.maxinteger + 1 == math.mininteger)
         print(string.format('%5.2f|%-5d|%s', 3.14159, 42, {1} ~= nil))",
    );
}

#[test]
fn generic_for_with_custom_iterators() {
    same_as_lua(
        "local function range(n) local i = 0 return function() i = i + 1 if i <= n then return i end end end
         for v in range(3) do print(v) end
         local function iter(t, k) local nk, nv = next(t, k) return nk, nv end
         local cnt = 0 for k, v in iter, {a = 1, b = 2} do cnt = cnt + v end print(cnt)
         for i, v in ipairs({'x', 'y'}) do print(i, v) end
         local keys = {} for k in pairs({x = 1, y = 2, z = 3}) do keys[#keys + 1] = k end table.sort(keys) print(table.concat(keys, ','))
         local t = {} for i = 1, 10 do t[i] = i end for k, v in pairs(t) do if v % 2 == 0 then t[k] = nil end end
         local rest = {} for k, v in pairs(t) do rest[#rest + 1] = v end table.sort(rest) print(table.concat(rest, ' '))
         print(pcall(function() for x in 5 do end end))",
    );
}

#[test]
fn errors_on_json_null_name_it_and_say_how_to_test_for_it() {
    let e = err("local page = json.decode('[null]') return page[1].offset");
    assert!(
        e.message.starts_with(
            "attempt to index a userdata value (field 'integer index'); the value is json.null"
        ),
        "{}",
        e.message
    );
    assert!(e.message.contains("x == json.null"), "{}", e.message);
    let e = err("return json.null + 1");
    assert!(
        e.message.contains(
            "perform arithmetic on a userdata value (field 'null'); the value is json.null"
        ),
        "{}",
        e.message
    );
    let e = err("return string.upper(json.null)");
    assert!(
        e.message.contains("got userdata); the value is json.null"),
        "{}",
        e.message
    );
}

/// A hex float literal and `tonumber` of the same text give the same float: one parser for both.
/// Generated numerals (fixed seed): long mantissas with tie-deciding tails past the 30th digit,
/// leading zeros, exponents at the normal/subnormal/overflow boundaries.
#[test]
fn hex_float_literal_equals_tonumber() {
    let mut seed: u64 = 301;
    let mut next = move |n: u64| {
        // Knuth's MMIX linear congruential generator; the high bits are the good ones.
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % n
    };
    let digits = b"0123456789abcdef";
    let mut src = String::from("local bad = {}\n");
    for _ in 0..400 {
        let mut text = String::from("0x");
        for _ in 0..next(3) {
            text.push('0');
        }
        text.push(digits[1 + next(15) as usize] as char);
        text.push('.');
        for _ in 0..(12 + next(30)) {
            text.push(digits[next(16) as usize] as char);
        }
        if next(2) == 0 {
            text.push('8');
            for _ in 0..next(25) {
                text.push('0');
            }
            text.push(['0', '1'][next(2) as usize]);
        }
        let exp = [
            0, 1, -1, 1023, 1024, -1022, -1023, -1030, -1060, -1074, -1075,
        ][next(11) as usize]
            - next(4) as i64;
        text.push_str(&format!("p{exp}"));
        src.push_str(&format!(
            "if {text} ~= tonumber('{text}') then bad[#bad + 1] = '{text}' end\n"
        ));
    }
    src.push_str("return bad");
    assert_eq!(val(&src), json!({}), "literal and tonumber differ");
}
