//! The data boundary (program result ↔ JSON) and the `json` library, end to end through
//! [`Machine`]: shapes, numbers, json.null, key order, and every kind of value that cannot cross.

use codemode_lua::{Budgets, Env, ErrorKind, GuestError, Machine, Step, compile};
use serde_json::{Value, json};

fn run(src: &str) -> Result<Value, GuestError> {
    run_with(src, Budgets::default())
}

fn run_with(src: &str, budgets: Budgets) -> Result<Value, GuestError> {
    let prog = compile(src).unwrap_or_else(|e| panic!("compile error {e:?}\n{src}"));
    let mut m = Machine::new(&prog, &Env::default(), budgets);
    loop {
        match m.run(1_000_000) {
            Step::Yield => continue,
            Step::Done(v) => return Ok(v),
            Step::Error(e) => return Err(e),
            Step::HostCall(c) => panic!("unexpected host call {c:?}"),
        }
    }
}

fn ok(src: &str) -> Value {
    run(src).unwrap_or_else(|e| panic!("failed: {e:?}\n{src}"))
}

fn invalid(src: &str) -> String {
    match run(src) {
        Err(e) => {
            assert_eq!(e.kind, ErrorKind::InvalidDataValue, "{e:?}");
            e.message
        }
        Ok(v) => panic!("expected InvalidDataValue, got {v}"),
    }
}

#[test]
fn result_values_cross_as_json() {
    assert_eq!(ok("return nil"), json!(null));
    assert_eq!(ok("return"), json!(null));
    assert_eq!(ok("return 1, 2"), json!(1));
    assert_eq!(ok("return 3.0"), json!(3.0));
    assert!(ok("return 3.0").is_f64());
    assert!(ok("return 3").is_i64());
    assert_eq!(ok("return 0/0"), json!(null));
    assert_eq!(ok("return 1/0"), json!(null));
    assert_eq!(ok("return 'héllo'"), json!("héllo"));
    assert_eq!(ok("return {}"), json!({}));
    assert_eq!(ok("return json.array()"), json!([]));
    assert_eq!(ok("return {1, 2, 'x', true}"), json!([1, 2, "x", true]));
    assert_eq!(
        ok("return {b = 1, a = {c = json.null}, z = {}}"),
        json!({"a": {"c": null}, "b": 1, "z": {}})
    );
    assert_eq!(
        ok("local t = {x = 1}; t.x = nil; t.y = 2; return t"),
        json!({"y": 2})
    );
    assert_eq!(ok("return {json.null, 2}"), json!([null, 2]));
    assert_eq!(ok("return json.array(1, nil, 3)"), json!([1, null, 3]));
    assert_eq!(ok("return {[1] = 'a', [2] = 'b'}"), json!(["a", "b"]));
    assert_eq!(ok("return {['1'] = 'a'}"), json!({"1": "a"}));
    assert_eq!(
        ok("return {math.maxinteger, math.mininteger}"),
        json!([i64::MAX, i64::MIN])
    );
    // Keys are sorted bytewise.
    let v = ok("return {zeta = 1, alpha = 2, Mid = 3, ['b c'] = 4}");
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["Mid", "alpha", "b c", "zeta"]);
    // A shared (not cyclic) sub-table is fine and copied.
    assert_eq!(
        ok("local s = {1}; return {a = s, b = s}"),
        json!({"a": [1], "b": [1]})
    );
}

#[test]
fn values_that_cannot_cross_name_their_path() {
    let m = invalid("return {items = {1, 2, function() end}}");
    assert!(m.starts_with("result.items[3] is a function"), "{m}");
    let m = invalid("local t = {name = 'x'}; t.self = t; return t");
    assert!(
        m.contains("result.self refers back to result (a cycle)"),
        "{m}"
    );
    let m = invalid("local t = {a = {b = {}}}; t.a.b.c = t.a; return t");
    assert!(m.contains("result.a.b.c refers back to result.a"), "{m}");
    let m = invalid("return {1, 2, x = 3}");
    assert!(m.starts_with("result mixes array items"), "{m}");
    let m = invalid("return {data = {[1] = 'a', [3] = 'c'}}");
    assert!(
        m.starts_with("result.data is not a list 1..n: it has key [3] but [2] is nil"),
        "{m}"
    );
    let m = invalid("return {[0] = 'a'}");
    assert!(m.contains("key [0]"), "{m}");
    // Key 0 beside a list: the message names key 0 and where arrays start, not a made-up hole.
    let m = invalid("return {[0] = 1, [1] = 2}");
    assert_eq!(
        m,
        "result is not a list 1..n: it has key [0], and Lua arrays start at 1; store the items \
         at 1..n (t[i + 1] = v for a 0-based i), or use string keys for a record"
    );
    let m = invalid("return {rows = {[-1] = 'x', [1] = 'y', [2] = 'z'}}");
    assert!(
        m.starts_with("result.rows is not a list 1..n: it has key [-1]"),
        "{m}"
    );
    let m = invalid("return {[1.5] = 'a'}");
    assert!(m.contains("has a key of type number (1.5)"), "{m}");
    let m = invalid("return {[true] = 'a'}");
    assert!(m.contains("has a key of type boolean"), "{m}");
    let m = invalid("return {s = 'ok\\255'}");
    assert!(
        m.starts_with("result.s is not valid UTF-8 text (invalid byte at position 3)"),
        "{m}"
    );
    let m = invalid("return {['bad key'] = print}");
    assert!(m.starts_with("result[\"bad key\"] is a function"), "{m}");
    let m = invalid("local t = {}; local c = t; for i = 1, 200 do c.x = {}; c = c.x end; return t");
    assert!(m.contains("nests deeper than 128 levels"), "{m}");
    let m = invalid("return tools");
    assert!(m.contains("tools namespace"), "{m}");
    // Exponential sharing is bounded.
    let m = invalid(
        "local t = {'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'}; for i = 1, 40 do t = {t, t} end; return t",
    );
    assert!(m.contains("too large"), "{m}");
}

#[test]
fn json_library() {
    assert_eq!(
        ok("return json.encode({b = 1, a = {1, 2.5, 'x'}, c = json.null, d = json.array()})"),
        json!(r#"{"a":[1,2.5,"x"],"b":1,"c":null,"d":[]}"#)
    );
    assert_eq!(ok("return json.encode({})"), json!("{}"));
    assert_eq!(ok("return json.encode(3.0)"), json!("3.0"));
    assert_eq!(ok("return json.encode('a\"b\\n')"), json!(r#""a\"b\n""#));
    assert_eq!(ok("return json.encode(nil)"), json!("null"));
    assert_eq!(ok("return json.encode(0/0)"), json!("null"));
    // Shapes survive a round trip.
    assert_eq!(
        ok(r#"return json.encode(json.decode('{"a":[],"b":{},"c":[{"d":null}]}'))"#),
        json!(r#"{"a":[],"b":{},"c":[{}]}"#)
    );
    assert_eq!(
        ok(
            r#"local v = json.decode('{"a":[1,2,3],"n":1.5,"i":7,"s":"x","t":true}')
        return {#v.a, v.a[2], v.n, math.type(v.i), v.s, v.t}"#
        ),
        json!([3, 2, 1.5, "integer", "x", true])
    );
    assert_eq!(
        ok(r#"return json.decode('[1, null, 3]')[2] == json.null"#),
        json!(true)
    );
    assert_eq!(ok(r#"return json.decode('null') == nil"#), json!(true));
    assert_eq!(ok(r#"return type(json.null)"#), json!("userdata"));
    assert_eq!(ok(r#"return tostring(json.null)"#), json!("json.null"));
    // Caught messages may carry a position first ("input:1: ...").
    let e = ok(r#"local ok, e = pcall(json.decode, '{"a":1,}'); return e"#);
    assert!(
        e.as_str()
            .unwrap()
            .ends_with("json.decode: unexpected character '}' at position 8"),
        "{e}"
    );
    let e = ok(r#"local ok, e = pcall(json.decode, '[1e400]'); return e"#);
    assert!(
        e.as_str()
            .unwrap()
            .ends_with("json.decode: number out of range (1e400) at position 2"),
        "{e}"
    );
    let e = ok(r#"local ok, e = pcall(json.encode, {f = print}); return e"#);
    assert!(
        e.as_str()
            .unwrap()
            .contains("json.encode: value.f is a function"),
        "{e}"
    );
    let e = run(r#"return json.encode({f = print})"#).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidDataValue);
    let e = run(r#"return json.decode(string.rep('[', 200))"#).unwrap_err();
    assert!(
        e.message.contains("nesting deeper than 128 levels"),
        "{e:?}"
    );
    // A decoded array that gets a string key becomes mixed and cannot cross.
    let m = invalid(r#"local a = json.decode('[1]'); a.x = 1; return a"#);
    assert!(m.contains("mixes array items"), "{m}");
}

#[test]
fn absent_features_explain_themselves() {
    for (src, needle) in [
        (
            "return math.randomseed(1)",
            "programs must be deterministic",
        ),
        ("return string.dump(print)", "string.dump is not available"),
        (
            "return string.pack('i4', 1)",
            "string.pack is not available: there is no binary packing here; build byte strings \
             with string.char",
        ),
        ("return ('x'):unpack()", "string.unpack is not available"),
        (
            "return string.packsize('i4')",
            "string.packsize is not available",
        ),
    ] {
        let e = run(src).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ExecutionFailure);
        assert!(e.message.contains(needle), "{src}: {}", e.message);
    }
    // A find without special characters is a plain search, as in Lua; patterns work.
    assert_eq!(ok("return {('a,b'):find(',')}"), json!([2, 2]));
    assert_eq!(ok("return {('a,b'):find('%a', 2)}"), json!([3, 3]));
    assert_eq!(
        ok("local t = {} for w in string.gmatch('a b', '%S+') do t[#t + 1] = w end return t"),
        json!(["a", "b"])
    );
    assert_eq!(
        ok("return {string.gsub('a-a', 'a', 'b')}"),
        json!(["b-b", 2])
    );
    // gmatch returns an iterator closure, as in Lua: it can be stored and called, and a
    // finished iterator returns nothing.
    assert_eq!(
        ok("local it = ('a b'):gmatch('%a') return {it(), it(), select('#', it())}"),
        json!(["a", "b", 0])
    );
    assert_eq!(
        ok(
            "local it = ('a b'):gmatch('%a') local t = {} for w in it do t[#t + 1] = w end \
            return t"
        ),
        json!(["a", "b"])
    );
    assert_eq!(
        ok("return select('#', ('a'):gmatch('a')), type(('a'):gmatch('a'))"),
        json!(1)
    );
}

#[test]
fn big_requests_fail_fast() {
    let e = run("return string.rep('x', 1e12)").unwrap_err();
    assert!(
        e.message.contains("resulting string too large") || e.message.contains("memory limit"),
        "{e:?}"
    );
    let e = run("return string.rep('x', 1e9)").unwrap_err();
    assert!(e.message.contains("memory limit exceeded"), "{e:?}");
    let e = run("return pcall(string.rep, 'x', 1e9)").unwrap_err();
    assert!(
        e.message.contains("memory limit exceeded"),
        "uncatchable: {e:?}"
    );
    let e = run("return table.unpack({}, 1, 1e7)").unwrap_err();
    assert!(e.message.contains("too many results to unpack"), "{e:?}");
    // Results built inside natives are checked against the memory cap while they grow.
    let small = || Budgets {
        max_memory_bytes: Some(10 << 20),
    };
    for src in [
        "local s = string.rep('x', 2e6); return #string.format('%s%s%s%s%s%s', s, s, s, s, s, s)",
        "local s = string.rep('x', 2e6); return #table.concat({s, s, s, s, s, s})",
        "local s = string.rep('x', 2e6); return #string.rep(s, 6)",
    ] {
        let e = run_with(src, small()).unwrap_err();
        assert!(e.message.contains("memory limit exceeded"), "{src}: {e:?}");
    }
    assert_eq!(
        run_with(
            "local s = string.rep('x', 1e6); return #string.format('%s%s', s, s)",
            small()
        )
        .unwrap(),
        json!(2_000_000)
    );
}

#[test]
fn null_object_fields_read_as_nil_and_array_nulls_keep_positions() {
    // `while page.next do` must end: a null field is absent, not the truthy json.null.
    assert_eq!(
        ok(
            r#"local r = json.decode('{"next": null, "items": [null, 1, null]}')
              local keys = 0 for _ in pairs(r) do keys = keys + 1 end
              return { r.next == nil, keys, #r.items, r.items[1] == json.null,
                       r.items[3] == json.null, r.items[2] }"#
        ),
        json!([true, 1, 3, true, true, 1])
    );
}
