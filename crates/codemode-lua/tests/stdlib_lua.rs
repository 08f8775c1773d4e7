//! Standard library behaviour compared with the reference interpreter: each snippet runs under
//! `lua5.4` and under our [`Machine`]; the printed lines must be identical. Also checks the
//! things that differ from Lua on purpose (absent features, json library, data boundary).

use codemode_lua::{Budgets, Env, ErrorKind, Machine, Step, compile};
use std::io::Write;
use std::process::{Command, Stdio};

/// Run `src` in our machine; returns (printed lines joined by '\n', final step).
fn run_ours(src: &str) -> (String, Step) {
    let prog = match compile(src) {
        Ok(p) => p,
        Err(e) => panic!("compile error: {e:?}\n{src}"),
    };
    let mut m = Machine::new(&prog, &Env::default(), Budgets::default());
    let step = loop {
        match m.run(1_000_000) {
            Step::Yield => continue,
            other => break other,
        }
    };
    (m.take_logs().join("\n"), step)
}

/// Run `src` under lua5.4; None when lua5.4 is not installed.
fn run_lua(src: &str) -> Option<String> {
    let mut child = match Command::new("lua5.4")
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(c) => c,
        Err(_) => return None,
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "lua5.4 failed: {}\n{src}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = String::from_utf8_lossy(&out.stdout).into_owned();
    Some(s.strip_suffix('\n').unwrap_or(&s).to_string())
}

/// Error messages carry a position prefix that differs between the two ("stdin:3:" vs
/// "input:3:"), and Lua omits it for some errors raised inside C functions while our VM always
/// adds it; drop the prefix on both sides, and the hint codemode appends to integer-format
/// errors (tests/hints.rs).
fn normalise(s: &str) -> String {
    let mut out = String::new();
    for line in s.split('\n') {
        let mut l = line.replace("; use %.0f or math.floor(x) for a float", "");
        for pfx in ["stdin:", "input:"] {
            while let Some(i) = l.find(pfx) {
                let rest = &l[i + pfx.len()..];
                let digits = rest
                    .bytes()
                    .take_while(|c| c.is_ascii_digit() || *c == b':')
                    .count();
                l = format!("{}{}", &l[..i], rest[digits..].trim_start());
            }
        }
        out.push_str(&l);
        out.push('\n');
    }
    out
}

fn same_as_lua(src: &str) {
    let (ours, step) = run_ours(src);
    if let Step::Error(e) = &step {
        panic!("our run failed: {e:?}\nprinted so far:\n{ours}\n--- program:\n{src}");
    }
    let Some(theirs) = run_lua(src) else {
        eprintln!("lua5.4 not installed: skipping comparison");
        return;
    };
    let (a, b) = (normalise(&ours), normalise(&theirs));
    if a != b {
        let al: Vec<&str> = a.lines().collect();
        let bl: Vec<&str> = b.lines().collect();
        for (i, (x, y)) in al.iter().zip(bl.iter()).enumerate() {
            if x != y {
                panic!(
                    "line {} differs:\n ours: {x}\n lua:  {y}\n--- program:\n{src}",
                    i + 1
                );
            }
        }
        panic!(
            "output length differs: ours {} lines, lua {} lines\nours:\n{a}\nlua:\n{b}",
            al.len(),
            bl.len()
        );
    }
}

/// `print(pcall(f, ...))` lines for many calls: builds a program from one call per line.
fn calls_same_as_lua(calls: &str) {
    let mut src = String::new();
    for line in calls.lines().map(str::trim).filter(|l| !l.is_empty()) {
        src.push_str(&format!("print(pcall(function() return {line} end))\n"));
    }
    same_as_lua(&src);
}

#[test]
fn string_functions() {
    calls_same_as_lua(
        r##"
        string.len("hello"), ("x"):len(), string.len(""), string.len(123)
        string.upper("Hello, World 1"), string.lower("ÀBC xyz"), ("abc"):upper(), string.upper(12)
        string.upper(), string.upper({}), string.lower(nil)
        string.rep("ab", 3, ","), string.rep("x", 0), string.rep("x", -1), string.rep("", 1e9), string.rep("ab", 3), ("-"):rep(5)
        string.rep(), string.rep("x"), string.rep("x", 1.5), string.rep("x", "2")
        string.reverse("abc"), string.reverse(""), ("hello"):reverse()
        string.sub("hello", 2, -2), string.sub("hello", -100, 100), string.sub("hello", 0), string.sub("hello", 4, 2), string.sub("hello", 2.0)
        string.sub("hello", 1.5), string.sub("hello", "x"), string.sub("hello", "2", "3"), string.sub("hello", -3), string.sub("hello", 5, 5), string.sub("hello", 6)
        string.sub("hello", math.mininteger, math.maxinteger), string.sub("hello", 3, math.mininteger), string.sub("", 1, 1)
        string.byte("abc"), string.byte("abc", 1, -1), string.byte("abc", 10), string.byte("abc", -1), string.byte("abc", 0, 2), string.byte("")
        string.char(), string.char(104, 105), string.char(0, 255):byte(1, -1), string.char(256), string.char("x"), string.char(-1), string.char("65")
        string.find("hello", "l"), string.find("hello", "l", 4), string.find("hello", "xyz"), string.find("hello", "")
        string.find("hello", "", 10), string.find("hello", "", 6), string.find("a.b", ".", 1, true), string.find("hello", "lo", -2)
        string.find("", ""), string.find("abc", "", 0), string.find("abc", "b", -10), string.find("a+b", "+", 1, true), string.find("hello world", "o w")
        string.find("x", "x", 2), string.find("x", "", 2), string.find(12345, 34), ("a,b,,c"):find(",", 3, true)
        string.find(), string.find("x"), string.find("x", {})
    "##,
    );
}

#[test]
fn string_format() {
    calls_same_as_lua(
        r##"
        string.format("%d %5d %-5d| %05d %+d %x %X %o %c", 42, 42, 42, 42, 42, 255, 255, 8, 65)
        string.format("%s %s %s %s %s", 1, 1.5, "x", nil, true)
        string.format("%10s|%-10s|%.2s", "abc", "abc", "abc")
        string.format("%5.1f %.3f %e %.0e %g %g %g %g", 3.14159, 2/3, 12345.678, 5e10, 1e20, 0.0001, 100000, 1e6)
        string.format("%q", "a\nb\0c\"d\\\r\t\1272")
        string.format("%q %q %q %q %q", 1, 1.5, math.mininteger, 1/0, -1/0)
        string.format("%a %A %.2a", 1.0, 0.5, 1/3)
        string.format("%i %u", -5, 7), string.format("%.3d|%.0d|%#x|%#o", 5, 0, 255, 8)
        string.format("%5%"), string.format("%"), string.format("%y", 1), string.format("%d"), string.format("%d", 1.5)
        string.format("%d", "10"), string.format("%d", "x"), string.format("%d", 2^63), string.format("%x", -1)
        string.format("%100d", 1), string.format("%.100f", 1), string.format("%q", {}), string.format("%10q", "x")
        string.format("%s", {}) ~= nil, string.format("%-5c|", 66), string.format("%.3c", 65)
        string.format("%5.2s|%.0s|%s", "abcdef", "abc", "a\0b") == "   ab||a\0b"
        string.format("%g %g %g %g", 0/0 ~= 0/0 and 1 or 0, 1e300*1e10, -1e300*1e10, 123456789)
        string.format("%.14g %.17g %.20g", 0.1, 0.1, 0.1)
        ("%d items"):format(3), ("%s=%s"):format("k", "v")
        string.format("[%s]", string.format("%5.1f", -0.04)), string.format("%+.2e", 0)
    "##,
    );
}

#[test]
fn table_functions() {
    calls_same_as_lua(
        r##"
        table.concat({1, 2, 3}), table.concat({1, 2.5, "x"}, "-"), table.concat({}, "x"), table.concat({1, 2, 3}, "", 3, 2)
        table.concat({1, 2, 3}, ", ", 2, 3), table.concat({"a", "b"}, ", ", 1, 2)
        table.concat({1, 2, {}}), table.concat({1, 2, 3}, ", ", 2, 5), table.concat({}, {}), table.concat(nil), table.concat({1,2,3}, nil, 2)
        table.unpack({1, 2, 3}), table.unpack({1, 2, 3}, 2), table.unpack({1, 2, 3}, 2, 3), table.unpack({1, 2, 3}, -1, 1), table.unpack({})
        table.unpack({}, 1, 1e8), select("#", table.unpack({}, 1, 100))
        table.pack(1, nil, 3).n, table.pack().n, #table.pack(1, 2)
        table.insert({}, 1, 2, 3), table.insert({}, 3, 2), table.insert({}), table.insert(nil, 1), table.insert({}, 1.5, 1)
        table.remove({}), table.remove({}, 0), table.remove({1, 2, 3}, 1), table.remove({1, 2, 3}), table.remove({}, 5), table.remove({1, 2, 3}, 7)
        table.remove({1, 2, 3}, 4), table.remove({1, 2, 3}, -1)
        table.sort({3, 1, "x"}), table.sort({3, 1, 2}, 5), table.sort({1, 2, 3, 4, 5}, function(a, b) return true end), table.sort(nil)
        table.sort({{}, {}})
        table.move({1, 2, 3}, 1, 3, 2)[4], table.move({}, 1, math.maxinteger, 2), table.move({}, -1, math.maxinteger, 2), table.move({1,2}, 1, 2, 1, nil)[2]
    "##,
    );
    same_as_lua(
        r##"
        local t = {5, 2, 8, 1, 9, 3}
        table.sort(t); print(table.concat(t, " "))
        table.sort(t, function(a, b) return a > b end); print(table.concat(t, " "))
        local words = {"pear", "apple", "fig", "banana", "Apple", "apple"}
        table.sort(words); print(table.concat(words, " "))
        local mixed = {3, 1.5, 2, -1, 2.5, 1e10, -0.5, 7}
        table.sort(mixed); print(table.concat(mixed, " "))
        local recs = {}
        for i = 1, 200 do recs[i] = {id = i, score = (i * 37) % 23} end
        table.sort(recs, function(a, b) if a.score ~= b.score then return a.score > b.score end return a.id < b.id end)
        local out = {}
        for i = 1, 10 do out[i] = recs[i].id .. ":" .. recs[i].score end
        print(table.concat(out, ","))
        local big = {}
        for i = 1, 1000 do big[i] = (i * 7919) % 1009 end
        table.sort(big, function(a, b) return a < b end)
        local ok = true
        for i = 2, #big do if big[i-1] > big[i] then ok = false end end
        print(ok, big[1], big[1000])
        local calls = 0
        local s = {5, 3, 4, 1, 2, 9, 7, 8, 6, 0}
        table.sort(s, function(a, b) calls = calls + 1; return a < b end)
        print(calls, table.concat(s, ""))
        local q = {}
        for i = 1, 10 do table.insert(q, i) end
        table.insert(q, 1, 0); table.insert(q, 5, "x")
        print(table.concat(q, ","), #q)
        print(table.remove(q, 1), table.remove(q), table.remove(q, 4), table.concat(q, ","))
        local m = table.move({1, 2, 3, 4, 5}, 2, 4, 1); print(table.concat(m, ","))
        local m2 = table.move({1, 2, 3, 4, 5}, 1, 3, 3); print(table.concat(m2, ","))
        local m3 = table.move({1, 2, 3}, 1, 3, 1, {}); print(table.concat(m3, ","))
        print(pcall(table.sort, {1, 2, 3}, function(a, b) error("boom") end))
        local le = {}
        for i = 1, 50 do le[i] = i % 5 end
        print(pcall(table.sort, le, function(a, b) return a <= b end))
    "##,
    );
}

#[test]
fn math_functions() {
    calls_same_as_lua(
        r##"
        math.modf(3.7), math.modf(-3.7), math.modf(5), math.modf(1/0), math.modf(-1/0), math.type(math.modf(2^70))
        math.tointeger("3"), math.tointeger(3.0), math.tointeger("x"), math.tointeger(), math.tointeger(3.5), math.tointeger(2^63)
        math.floor(3.5), math.floor(-3.5), math.floor(1e100), math.ceil(3.2), math.floor("3.7"), math.ceil(2^63), math.floor(-0.0)
        math.fmod(7, 3), math.fmod(-7, 3), math.fmod(7, -3), math.fmod(7.5, 2), math.fmod(math.mininteger, -1), math.fmod(1, 0), math.fmod(1, 0.0) ~= math.fmod(1, 0.0)
        math.abs(math.mininteger), math.abs(-0.0), math.abs(-3), math.abs("-3"), math.abs(), math.abs({})
        math.max(1, 2.5, 2), math.max(3, 3.0), math.max(3.0, 3), math.min(1), math.max(), math.max(1, "x"), math.max("a", "b"), math.min(4, 2, 8)
        math.type(1), math.type(1.0), math.type("1"), math.type()
        math.ult(1, -1), math.ult(1.5, 2), math.log(8, 2), math.log(100, 10), math.log(27, 3), math.log(0), math.exp(1), math.sqrt(2)
        math.atan(1, -1), math.atan(1), math.sin(0), math.cos(0), math.tan(1), math.asin(1), math.acos(0)
        math.huge, -math.huge, math.pi, math.maxinteger, math.mininteger, math.maxinteger + 1 == math.mininteger
        math.floor("x"), math.floor(), math.sqrt({}), math.log("8", "2")
    "##,
    );
    let (_, step) = run_ours("return math.random(1, 10)");
    match step {
        Step::Error(e) => {
            assert_eq!(e.kind, ErrorKind::ExecutionFailure);
            assert!(
                e.message.contains("math.random is not available"),
                "{}",
                e.message
            );
        }
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn utf8_functions() {
    calls_same_as_lua(
        r##"
        utf8.char(72, 0x20AC, 105), #utf8.char(0x7FFFFFFF), utf8.char(), utf8.char(0x80000000), utf8.char(-1)
        utf8.charpattern
        utf8.len("héllo€"), utf8.len("héllo€", 3), utf8.len("ab\xffcd"), utf8.len("abc", 4), utf8.len("abc", 5), utf8.len("abc", 1, 4), utf8.len("")
        utf8.len("\u{D800}"), utf8.len("\u{D800}", 1, -1, true), utf8.len("\xC0\x80", 1, -1, true), utf8.len("héllo", -3)
        utf8.codepoint("héllo€", 1, -1), utf8.codepoint("héllo€", 3), utf8.codepoint("abc", 0), utf8.codepoint("abc", 1, 4), utf8.codepoint("abc", 3, 2)
        utf8.offset("aé€b", 1), utf8.offset("aé€b", 3), utf8.offset("aé€b", 5), utf8.offset("aé€b", 6), utf8.offset("aé€b", -1), utf8.offset("aé€b", -2)
        utf8.offset("aé€b", -5), utf8.offset("aé€b", 0, 5), utf8.offset("aé€b", 1, 5), utf8.offset("aé€b", 1, 9)
    "##,
    );
    same_as_lua(
        r##"
        for p, c in utf8.codes("aé€😀") do print(p, c) end
        for p, c in utf8.codes("\x80a") do print(p, c) end
        print(pcall(function() for p, c in utf8.codes("ab\xC3") do print(p, c) end end))
        for p, c in utf8.codes("\u{D800}x", true) do print(p, c) end
        print(pcall(function() for p, c in utf8.codes("\u{D800}x") do print(p, c) end end))
    "##,
    );
}

/// Deterministic pseudo-random floats (various magnitudes, subnormals, integers, halves).
fn sample_floats(n: usize) -> Vec<f64> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut v = vec![
        0.0,
        -0.0,
        0.5,
        1.5,
        2.5,
        -2.5,
        0.1,
        1e15,
        1e16,
        123456.789,
        1e-5,
        5e-324,
        f64::MAX,
        2f64.powi(63),
        2f64.powi(53) + 1.0,
    ];
    while v.len() < n {
        let r = next();
        let f = match r % 4 {
            0 => f64::from_bits(next()),                        // any bit pattern
            1 => (next() % 2_000_000) as f64 / 1000.0 - 1000.0, // short decimals
            2 => ((next() % 100_000) as f64) * 10f64.powi((next() % 40) as i32 - 20),
            _ => (next() as i64 >> (next() % 60)) as f64 + 0.5,
        };
        if f.is_finite() {
            v.push(f);
        }
    }
    v
}

fn hex_literal(f: f64) -> String {
    let mut out = Vec::new();
    if f.is_sign_negative() {
        out.push(b'-');
    }
    codemode_lua::testing::body_a(f, None, false, false, &mut out);
    format!("({})", String::from_utf8(out).unwrap())
}

#[test]
fn float_formatting_matches_lua_on_many_values() {
    let fmts = [
        "%g", "%.3g", "%.17g", "%e", "%.0e", "%.12e", "%f", "%.0f", "%.3f", "%a", "%.2a", "%q",
        "%10.4g", "%-12.3e|", "%+.5g", "%#.3g", "%#.0f", "%08.2f", "%A", "%G", "%E",
    ];
    let mut src = String::new();
    for (i, f) in sample_floats(300).into_iter().enumerate() {
        let lit = hex_literal(f);
        let fmt = fmts[i % fmts.len()];
        let fmt2 = fmts[(i * 7 + 3) % fmts.len()];
        src.push_str(&format!("do local x = {lit}; print(x, -x, string.format('{fmt} {fmt2}', x, -x), math.tointeger(x), x // 1, tostring(x * 3)) end\n"));
    }
    same_as_lua(&src);
}

#[test]
fn string_to_number_matches_lua() {
    let cases = [
        "10",
        " 10 ",
        "0x10",
        "0X1F",
        "1e2",
        "1E+2",
        ".5",
        "5.",
        ".",
        "0x",
        "1e",
        "1e+",
        "inf",
        "nan",
        "-inf",
        " 0x1p4 ",
        "0x1.8",
        "0x.8p1",
        "0xA.8p1",
        "1 2",
        "",
        " ",
        "+5",
        "-5",
        "- 5",
        "--5",
        "0x-1",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "0xffffffffffffffff",
        "0x1ffffffffffffffff",
        "1e308",
        "1e309",
        "-1e309",
        "0x1p-1074",
        "0x1p-1075",
        "0x1.fffffffffffffp1023",
        "123456789012345678901234567890",
        "0.1e-400",
        "1.5e",
        "\t7\n",
        "0b101",
        "1_000",
        "١",
        "0x1P+2",
        "3.0",
        "-0",
        "-0.0",
        "00012",
        "0x0000000000000000000000001",
        "1.7976931348623157e308",
        "2.2250738585072011e-308",
        "4.9e-324",
        "0x1.0000000000000801p0",
        "0x1.00000000000008p0",
        "0x1.00000000000018p0",
    ];
    let mut src = String::new();
    for c in cases {
        let lua_str = c
            .replace('\\', "\\\\")
            .replace('\t', "\\t")
            .replace('\n', "\\n");
        src.push_str(&format!(
            "do local v = tonumber(\"{lua_str}\"); print(\"{lua_str}\", v, math.type(v)) end\n"
        ));
    }
    for (s, base) in [
        ("ff", 16),
        ("FF", 16),
        ("zz", 36),
        (" -11 ", 2),
        ("8", 8),
        ("", 10),
        ("1.5", 10),
        ("7fffffffffffffff", 16),
        ("ffffffffffffffffff", 16),
        ("-", 10),
        ("+z", 36),
        ("10", 36),
    ] {
        src.push_str(&format!("print(tonumber(\"{s}\", {base}))\n"));
    }
    same_as_lua(&src);
}

#[test]
fn sort_matches_lua_even_with_bad_comparators() {
    // Same algorithm as lua5.4: identical results (or the same "invalid order function" error)
    // for consistent, non-strict and inconsistent comparators, and the same number of calls.
    let src = r##"
        local seed = 12345
        local function rnd(n) seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n end
        local comps = {
            function(a, b) return a < b end,
            function(a, b) return a <= b end,
            function(a, b) return a > b end,
            function(a, b) return (a * 7 + b) % 3 == 0 end,
            function(a, b) return true end,
            function(a, b) return false end,
        }
        for size = 0, 70, 3 do
            for c = 1, #comps do
                local t = {}
                for i = 1, size do t[i] = rnd(20) end
                local calls = 0
                local f = comps[c]
                local ok, err = pcall(table.sort, t, function(a, b) calls = calls + 1; return f(a, b) end)
                print(size, c, ok, ok or err, calls, table.concat(t, ","))
            end
        end
        for size = 90, 400, 37 do
            local t = {}
            for i = 1, size do t[i] = rnd(1000) end
            table.sort(t)
            local u = {}
            for i = 1, size do u[i] = tostring(rnd(50)) end
            table.sort(u)
            print(size, table.concat(t, ","), table.concat(u, ","))
        end
    "##;
    same_as_lua(src);
}

#[test]
fn insert_remove_positions_match_lua() {
    same_as_lua(
        r##"
        local function show(t) local o = {} for i = 1, #t do o[i] = tostring(t[i]) end return #t .. ":" .. table.concat(o, ",") end
        -- array part
        local a = {}
        for i = 1, 8 do table.insert(a, i) end
        table.insert(a, 1, "first"); table.insert(a, 5, "mid"); table.insert(a, #a + 1, "last")
        print(show(a))
        print(table.remove(a, 1), table.remove(a, 4), table.remove(a), table.remove(a, #a), show(a))
        -- elements living in the hash part (filled backwards)
        local h = {}
        for i = 10, 1, -1 do h[i] = i * 10 end
        table.insert(h, 3, "x"); print(show(h))
        print(table.remove(h, 2), show(h))
        print(table.remove(h, #h + 1), show(h))
        -- removing everything from the front
        local q = {}
        for i = 1, 50 do q[i] = i end
        local sum = 0
        while #q > 0 do sum = sum + table.remove(q, 1) end
        print(sum, #q, table.remove(q), table.remove(q, 0), table.remove(q, 1))
        -- inserting at the front many times
        local f = {}
        for i = 1, 40 do table.insert(f, 1, i) end
        print(show(f))
        local n = {n = 1}
        table.insert(n, "v"); print(n[1], n.n, #n)
    "##,
    );
}

#[test]
fn string_index_rules_match_lua_exhaustively() {
    // Every (i, j) in a window around the string bounds for sub/byte/find, plus utf8 positions.
    same_as_lua(
        r##"
        local s = "héllo, wörld"
        local out = {}
        for i = -16, 16 do
            for j = -16, 16 do
                out[#out + 1] = s:sub(i, j) .. "|" .. table.concat({s:byte(i, j)}, ".")
            end
            out[#out + 1] = tostring(s:find("l", i, true)) .. tostring(s:find("", i, true)) .. tostring(s:find("ö", i, true))
            local ok, a, b = pcall(utf8.len, s, i)
            out[#out + 1] = tostring(ok) .. tostring(a) .. tostring(b)
            ok, a = pcall(utf8.offset, s, i)
            out[#out + 1] = tostring(ok) .. tostring(a)
            ok, a = pcall(utf8.offset, s, 2, i)
            out[#out + 1] = tostring(ok) .. tostring(a)
            ok, a, b = pcall(utf8.codepoint, s, i, i + 1)
            out[#out + 1] = tostring(ok) .. tostring(a) .. tostring(b)
            out[#out + 1] = ("ab"):rep(i, "-")
        end
        print(table.concat(out, "\n"))
    "##,
    );
}

#[test]
fn random_format_specs_match_lua() {
    // Random conversion specs (valid and invalid) with assorted arguments; outputs and error
    // messages must agree.
    let mut state = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let body = b"-+ #0123456789.";
    let convs = b"diouxXcseEfgGaAq%yl";
    let args = [
        "0",
        "1",
        "-1",
        "255",
        "3.0",
        "-2.5",
        "1e100",
        "0.1",
        "math.mininteger",
        "math.maxinteger",
        "'abc'",
        "'12'",
        "''",
        "nil",
        "true",
        "1/0",
        "-1/0",
        "2^53",
    ];
    let mut src = String::new();
    for _ in 0..3000 {
        let mut spec = String::from("%");
        for _ in 0..next(7) {
            spec.push(body[next(body.len() as u64) as usize] as char);
        }
        spec.push(convs[next(convs.len() as u64) as usize] as char);
        let a = args[next(args.len() as u64) as usize];
        src.push_str(&format!("print(pcall(string.format, '[{spec}]', {a}))\n"));
    }
    same_as_lua(&src);
}

#[test]
fn math_on_assorted_arguments_matches_lua() {
    let args = [
        "0",
        "-0.0",
        "1",
        "-1",
        "7",
        "-7",
        "2.5",
        "-2.5",
        "3.0",
        "1e300",
        "-1e300",
        "1/0",
        "-1/0",
        "2^63",
        "-2^63",
        "math.maxinteger",
        "math.mininteger",
        "'8'",
        "'-3.5'",
        "'0x10'",
        "'abc'",
        "nil",
        "{}",
        "true",
    ];
    // (math.atan is left out of the error cases: Debian's lua5.4 names it 'math.atan2' in messages.)
    let one = [
        "abs",
        "ceil",
        "floor",
        "sqrt",
        "exp",
        "log",
        "sin",
        "cos",
        "tan",
        "asin",
        "acos",
        "tointeger",
        "type",
        "modf",
        "deg",
        "rad",
        "cosh",
        "sinh",
        "tanh",
        "log10",
        "frexp",
    ];
    let two = ["fmod", "max", "min", "ult", "log", "pow", "ldexp"];
    let mut src = String::new();
    for f in one {
        for a in args {
            src.push_str(&format!("print('{f}', {a:?}, pcall(math.{f}, {a}))\n"));
        }
    }
    for (k, f) in two.iter().enumerate() {
        for (i, a) in args.iter().enumerate() {
            for (j, b) in args.iter().enumerate() {
                if (i * 7 + j * 3 + k) % 4 == 0 {
                    src.push_str(&format!(
                        "print('{f}', {a:?}, {b:?}, pcall(math.{f}, {a}, {b}))\n"
                    ));
                }
            }
        }
    }
    // Printing a table shows an address; only the error/ok shape matters for those.
    let mut src = src.replace("pcall(math.abs, {})", "pcall(math.abs, {}) == true");
    for (y, x) in [
        ("1", "1"),
        ("1", "-1"),
        ("-1", "-1"),
        ("0", "-0.0"),
        ("-0.0", "-1"),
        ("2", "nil"),
        ("'1'", "'2'"),
    ] {
        src.push_str(&format!(
            "print(math.atan({y}, {x}), math.atan2({y}, {x}))\n"
        ));
    }
    for (m, e) in [
        ("1", "1024"),
        ("1", "-1074"),
        ("0.75", "-1075"),
        ("1.5", "3"),
        ("1", "5000"),
        ("1", "-5000"),
        ("3", "2.0"),
    ] {
        src.push_str(&format!(
            "print(math.ldexp({m}, {e}), math.frexp(math.ldexp({m}, {e})))\n"
        ));
    }
    same_as_lua(&src);
}

#[test]
fn table_and_string_functions_on_assorted_arguments_match_lua() {
    let args = [
        "nil",
        "0",
        "1",
        "2",
        "-1",
        "3",
        "4",
        "10",
        "1.5",
        "2.0",
        "'2'",
        "'x'",
        "math.maxinteger",
        "math.mininteger",
        "{}",
        "true",
    ];
    let mut src = String::from(
        "local function T() return {'a', 'b', 'c'} end\nlocal function show(ok, ...) if ok then local o = {} for i = 1, select('#', ...) do local v = (select(i, ...)); o[i] = type(v) == 'table' and 'tbl' or tostring(v) end return 'ok ' .. table.concat(o, ' ') else return 'err ' .. tostring((...)) end end\nlocal function tshow(t) if type(t) ~= 'table' then return tostring(t) end local o = {} for i = 1, 5 do o[i] = type(t[i]) == 'table' and 'tbl' or tostring(t[i]) end return table.concat(o, ',') end\n",
    );
    for (i, a) in args.iter().enumerate() {
        for (j, b) in args.iter().enumerate() {
            if (i + 2 * j) % 3 != 0 {
                continue;
            }
            for call in [
                format!("table.concat(T(), ',', {a}, {b})"),
                format!("table.unpack(T(), {a}, {b})"),
                format!("string.sub('hello', {a}, {b})"),
                format!("string.byte('hello', {a}, {b})"),
                format!("string.rep('ab', {a}, {b})"),
                format!("string.find('hello', 'l', {a}, {b})"),
                format!("utf8.codepoint('héllo', {a}, {b})"),
                format!("utf8.len('héllo', {a}, {b})"),
                format!("utf8.offset('héllo', {a}, {b})"),
                format!("string.char({a}, {b})"),
                format!("utf8.char({a}, {b})"),
                format!("math.ult({a}, {b})"),
            ] {
                // Tables print as addresses; skip calls whose results would contain one.
                if call.contains("{}")
                    && (call.contains("unpack") || call.starts_with("string.find"))
                {
                    continue;
                }
                src.push_str(&format!(
                    "print({call:?}, show(pcall(function() return {call} end)))\n"
                ));
            }
            for call in [
                format!("local t = T(); table.insert(t, {a}, {b}); return tshow(t)"),
                format!(
                    "local t = T(); local r = table.remove(t, {a}); return tostring(r) .. ' ' .. tshow(t)"
                ),
                // (a range up to math.maxinteger would loop for ages in lua5.4 too)
                if *b == "math.maxinteger" {
                    String::from("return 'skip'")
                } else {
                    format!("local t = T(); return tshow(table.move(t, {a}, {b}, 2))")
                },
                format!("local t = T(); return tshow(table.move(t, 1, 3, {a}, {{}}))"),
            ] {
                src.push_str(&format!(
                    "print({call:?}, show(pcall(function() {call} end)))\n"
                ));
            }
        }
    }
    same_as_lua(&src);
}

#[test]
fn nan_and_infinity_print_like_lua() {
    same_as_lua(
        r##"
        local z = 0
        print(0/0, -(0/0), z/z, -(z/z), math.huge - math.huge, math.huge, -math.huge, 1/0, -1/0)
        print(string.format("%f %g %e %a %5.1f", 0/0, -(0/0), z/z, 1/0, -1/0))
        print(math.sqrt(-1), math.log(-1), math.acos(2), math.fmod(1, 0.0), math.fmod(1/0, 1))
        print(tostring(0/0), tostring(1e308 * 10), 2^1024, -2^1024)
    "##,
    );
}

/// Issue 17 §15: docs/lua.md names every global function the sandbox offers (`collectgarbage`
/// was missing), and says what `%p` and `%F` do in `string.format`.
#[test]
fn docs_name_every_global_function() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/lua.md"))
        .expect("docs/lua.md");
    let words: std::collections::HashSet<&str> = doc
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .collect();
    let (out, step) = run_ours(
        "local names = {}
         for k, v in pairs(_G) do
           if type(v) == 'function' and type(k) == 'string' then names[#names + 1] = k end
         end
         table.sort(names)
         print(table.concat(names, ' '))
         return true",
    );
    assert!(matches!(step, Step::Done(_)), "{step:?}");
    let names: Vec<&str> = out.split_whitespace().collect();
    assert!(names.contains(&"collectgarbage"), "{names:?}");
    let missing: Vec<&&str> = names.iter().filter(|n| !words.contains(**n)).collect();
    assert!(missing.is_empty(), "docs/lua.md does not name {missing:?}");
    for needle in ["`%p`", "`%F`", "`collectgarbage(opt)`"] {
        assert!(
            doc.contains(needle),
            "docs/lua.md does not document {needle}"
        );
    }
}
