//! End-to-end tests of the pipeline: source → result, logs and errors.

use codemode_guest::{Env, ErrorKind, GuestError, StartOptions, Step};
use serde_json::{Value as Json, json};

/// Run `src` to its end: (value, returned, logs) or the error.
pub fn run(src: &str) -> Result<(Json, bool, Vec<String>), GuestError> {
    let mut m = machine(src, None)?;
    for _ in 0..100_000 {
        match m.run(100_000) {
            Step::Yield => continue,
            Step::Done { value, returned } => return Ok((value, returned, m.take_logs())),
            Step::Error(e) => return Err(e),
            other => panic!("unexpected step {other:?}"),
        }
    }
    panic!("did not finish")
}

/// A machine for `src` under a memory cap.
fn machine(
    src: &str,
    max_memory_bytes: Option<usize>,
) -> Result<crate::machine::Machine, GuestError> {
    let program = crate::compile(src)?;
    crate::machine::Machine::new(
        &program,
        &Env::default(),
        &StartOptions {
            max_memory_bytes,
            deadline: None,
        },
    )
}

/// Run `m` until it fails; the error.
fn run_to_error(m: &mut crate::machine::Machine) -> GuestError {
    loop {
        match m.run(100_000) {
            Step::Yield => continue,
            Step::Error(e) => return e,
            other => panic!("{other:?}"),
        }
    }
}

fn value(src: &str) -> Json {
    match run(src) {
        Ok((v, _, _)) => v,
        Err(e) => panic!("{src}: {e:?}"),
    }
}

#[allow(dead_code)]
fn logs(src: &str) -> Vec<String> {
    run(src).unwrap_or_else(|e| panic!("{src}: {e:?}")).2
}

fn error(src: &str) -> GuestError {
    match run(src) {
        Ok(v) => panic!("{src}: expected an error, got {v:?}"),
        Err(e) => e,
    }
}

#[test]
fn program_model() {
    assert_eq!(run("return 1 + 2").unwrap().0, json!(3));
    assert_eq!(run("1; 2").unwrap().0, json!(2));
    let (v, returned, _) = run("const x = 1").unwrap();
    assert_eq!((v, returned), (Json::Null, false));
    assert_eq!(run("if (true) { 2 }").unwrap().0, Json::Null);
    assert_eq!(run("return undefined").unwrap().0, Json::Null);
    assert_eq!(
        run("return { a: undefined, b: [1, undefined] }").unwrap().0,
        json!({"b": [1, null]})
    );
    assert_eq!(
        value("return [NaN, -0, 1/0, 0.5]"),
        json!([null, 0, null, 0.5])
    );
    let e = error("  // nothing\n");
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::ParseError, "Code cannot be empty.")
    );
    assert_eq!(value("return this"), Json::Null);
}

#[test]
fn arithmetic_and_coercion() {
    assert_eq!(
        value("return [1 + '2', '3' * '4', 10 / 4, 7 % 3, 2 ** 10, -7 % 3]"),
        json!(["12", 12, 2.5, 1, 1024, -1])
    );
    assert_eq!(
        value(
            "return [1 < 2, 'b' > 'a', null == undefined, null === undefined, '1' == 1, NaN == NaN]"
        ),
        json!([true, true, true, false, true, false])
    );
    assert_eq!(
        value("return [5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 31, -1 >>> 0, -16 >> 2]"),
        json!([1, 7, 6, -6, -2147483648, 4294967295u32, -4])
    );
    assert_eq!(
        value(
            "return [typeof 1, typeof 'x', typeof null, typeof undefined, typeof {}, typeof (() => 1), typeof nope]"
        ),
        json!([
            "number",
            "string",
            "object",
            "undefined",
            "object",
            "function",
            "undefined"
        ])
    );
    assert_eq!(
        value("return String(0.1 + 0.2) + ' ' + (1e21) + ' ' + (123.456).toFixed(1)"),
        json!("0.30000000000000004 1e+21 123.5")
    );
    assert_eq!(
        value("let x = 5; x += 2; x *= 3; x -= 1; x **= 1; let y = x++; return [x, y, --x]"),
        json!([21, 20, 20])
    );
    assert_eq!(
        value("return [null ?? 'd', 0 ?? 'd', 0 || 'd', 1 && 2, '' && 3]"),
        json!(["d", 0, "d", 2, ""])
    );
    assert_eq!(
        value("return [+'', +' 12 ', +'0x10', +'1e3', +'abc', +[], +[5], +true]"),
        json!([0, 12, 16, 1000, null, 0, 5, 1])
    );
    assert_eq!(
        value("return [[1,2] + '', {} + '', String(null), `${1}${'a'}${[1,[2,3]]}`]"),
        json!(["1,2", "[object Object]", "null", "1a1,2,3"])
    );
}

#[test]
fn bindings_scopes_and_closures() {
    assert_eq!(
        value("function f() { return g() } function g() { return 7 } return f()"),
        json!(7)
    );
    assert_eq!(value("var a = 1; { let a = 2; } return a"), json!(1));
    assert_eq!(
        value(
            "const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); return fs.map(f => f())"
        ),
        json!([0, 1, 2])
    );
    assert_eq!(
        value(
            "function counter() { let n = 0; return { inc: () => ++n, get: () => n } } const c = counter(); c.inc(); c.inc(); return c.get()"
        ),
        json!(2)
    );
    assert_eq!(
        value(
            "function f(a, b = a * 2, ...rest) { return [a, b, rest] } return [f(1), f(1, 5, 6, 7)]"
        ),
        json!([[1, 2, []], [1, 5, [6, 7]]])
    );
    let e = error("x = 1; let x = 2");
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert_eq!(
        e.message,
        "ReferenceError: Cannot access 'x' before initialization"
    );
    let e = error("const c = 1; c = 2");
    assert_eq!(e.message, "TypeError: Assignment to constant variable.");
    assert_eq!(
        value("function f() { return arguments.length } return f(1, 2, 3)"),
        json!(3)
    );
    assert_eq!(
        value("const o = { n: 2, m() { return this.n } }; return o.m()"),
        json!(2)
    );
    assert_eq!(
        value("const o = { n: 2, m() { return [1].map(() => this.n) } }; return o.m()"),
        json!([2])
    );
    assert_eq!(
        value("return (function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) })(10)"),
        json!(3628800)
    );
}

#[test]
fn control_flow() {
    assert_eq!(
        value(
            "let s = 0; for (let i = 0; i < 10; i++) { if (i === 3) continue; if (i === 6) break; s += i } return s"
        ),
        json!(12)
    );
    assert_eq!(
        value("let i = 0; while (true) { if (++i > 4) break } do { i++ } while (i < 10); return i"),
        json!(10)
    );
    assert_eq!(
        value(
            "outer: for (const a of [1, 2, 3]) { for (const b of [1, 2]) { if (a === 2) continue outer; if (a === 3) break outer; } } return 'ok'"
        ),
        json!("ok")
    );
    assert_eq!(
        value("const r = []; for (const k in { a: 1, b: 2, 1: 3 }) r.push(k); return r"),
        json!(["1", "a", "b"])
    );
    assert_eq!(
        value(
            "function f(x) { switch (x) { case 1: return 'one'; case 2: case 3: return 'few'; default: return 'many' } } return [f(1), f(3), f(9)]"
        ),
        json!(["one", "few", "many"])
    );
    assert_eq!(
        value(
            "let r = ''; switch (2) { case 1: r += 'a'; case 2: r += 'b'; case 3: r += 'c'; break; case 4: r += 'd' } return r"
        ),
        json!("bc")
    );
    assert_eq!(
        value("let r = []; for (const ch of 'a😀') r.push(ch); return r"),
        json!(["a", "😀"])
    );
}

#[test]
fn exceptions() {
    assert_eq!(
        value("try { throw new Error('boom') } catch (e) { return e.message }"),
        json!("boom")
    );
    assert_eq!(
        value("try { null.x } catch (e) { return [e instanceof TypeError, e.message] }"),
        json!([true, "Cannot read properties of null (reading 'x')"])
    );
    assert_eq!(
        value(
            "const r = []; try { r.push(1); throw 1 } catch { r.push(2) } finally { r.push(3) } return r"
        ),
        json!([1, 2, 3])
    );
    assert_eq!(
        value(
            "function f() { try { return 'try' } finally { log.push('fin') } } const log = []; return [f(), log]"
        ),
        json!(["try", ["fin"]])
    );
    assert_eq!(
        value(
            "let n = 0; for (let i = 0; i < 3; i++) { try { if (i === 1) break } finally { n++ } } return n"
        ),
        json!(2)
    );
    let e = error("throw new TypeError('bad')");
    assert_eq!(e.message, "TypeError: bad");
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((1, 1)));
    let e = error("\n  throw 'boom'");
    assert_eq!(e.message, "Uncaught: boom");
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((2, 3)));
    let e = error("throw { code: 7 }");
    assert_eq!(e.message, "Uncaught: {\"code\":7}");
    let e = error("undefinedThing()");
    assert_eq!(e.message, "ReferenceError: undefinedThing is not defined");
    let e = error("const o = {a: {}}; o.a.run(1)");
    assert_eq!(
        e.message,
        "TypeError: o.a.run is not a function. o.a has no method 'run'"
    );
    let e = error("const f = 3; f()");
    assert_eq!(e.message, "TypeError: f is not a function");
    let e = error("const o = {}; new o.Thing()");
    assert_eq!(e.message, "TypeError: o.Thing is not a constructor");
    let e = error("let q = 1; q = nope + 1");
    assert_eq!(e.message, "ReferenceError: nope is not defined");
    // Globals left out by design say what to write instead.
    let e = error("const n = BigInt(5); return n");
    assert_eq!(
        e.message,
        "ReferenceError: BigInt is not defined. codemode has no BigInt: use Numbers (exact up to 2^53) or strings of digits"
    );
    let e = error("setTimeout(() => 1, 10)");
    assert!(e.message.contains("There are no timers"), "{}", e.message);
    let e = error("new Int32Array(4)");
    assert!(
        e.message.contains("The one typed array is `Uint8Array`"),
        "{}",
        e.message
    );
    let e = error("try { BigInt(1) } catch (e) { throw new Error(e.message) }");
    assert_eq!(e.message, "Error: BigInt is not defined");
}

#[test]
fn builtins_that_node_20_lacks_or_host_only() {
    assert_eq!(
        value(
            "const g = Object.groupBy([1, 2, 3, 4], x => x % 2 ? 'odd' : 'even'); return [g.odd, g.even]"
        ),
        json!([[1, 3], [2, 4]])
    );
    assert_eq!(
        logs(
            "console.log('a', 1, {b: [1, 'x']}, null); console.warn('careful'); console.log(NaN, [undefined])"
        ),
        vec![
            "a 1 { b: [ 1, 'x' ] } null",
            "[warn] careful",
            "NaN [ undefined ]"
        ]
    );
}

/// Run `src` on a thread with a small stack (as tokio workers and test threads have), so a
/// recursion on guest input would overflow it.
fn on_small_stack(src: String) -> Result<(Json, bool, Vec<String>), GuestError> {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || run(&src))
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn limit_call_depth_is_a_catchable_range_error() {
    let v = value(
        "function f(n) { return f(n + 1) } try { f(0) } catch (e) { return [e instanceof RangeError, e.message] }",
    );
    assert_eq!(v, json!([true, "Maximum call stack size exceeded"]));
    // Deep recursion below the bound works, on the heap.
    let (v, _, _) =
        on_small_stack("function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(9000)".into())
            .unwrap();
    assert_eq!(v, json!(9000));
}

#[test]
fn limit_syntax_depth_without_brackets() {
    for src in [
        format!("return x{}", ".y".repeat(5000)),
        format!("return f{}", "()".repeat(5000)),
        // Chains the bracket pre-scan does not count (they overflowed a worker's stack in oxc).
        format!(
            "let C = {}Object{}",
            "class extends ".repeat(1000),
            "{}".repeat(1000)
        ),
        format!("let a = 1; a{}", " ** a".repeat(2000)),
        format!(
            "{};",
            (0..5000).map(|i| format!("l{i}:")).collect::<String>()
        ),
        format!("let a = 1; a{}", " || a".repeat(40_000)),
        format!("let a = 1; a{}", " ?? a".repeat(100_000)),
    ] {
        let e = on_small_stack(src).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ParseError, "{}", e.message);
        assert!(e.message.contains("limit"), "{}", e.message);
    }
    // Left-leaning binary chains are read in loops by the parser and the compiler: programs.
    assert_eq!(
        on_small_stack(format!("return 1{}", " + 1".repeat(5000)))
            .unwrap()
            .0,
        json!(5001)
    );
    assert!(crate::compile(&format!("let a = 1; a{}", " instanceof a".repeat(50_000))).is_ok());
    // At the bound itself, everything runs on the large compiler stack.
    let src = format!(
        "const o = {}1{}; return 1",
        "{a: ".repeat(200),
        "}".repeat(200)
    );
    assert_eq!(on_small_stack(src).unwrap().0, json!(1));
    let src = format!(
        "const a = {}1{}; return JSON.stringify(a).length",
        "[".repeat(120),
        "]".repeat(120)
    );
    assert_eq!(on_small_stack(src).unwrap().0, json!(241));
}

#[test]
fn limit_memory() {
    let src =
        "const a = []; for (let i = 0; i < 1e6; i++) a.push({i, s: 'x' + i}); return a.length";
    assert!(out_of_memory(src, 8 << 20) < 9 << 20);
}

#[test]
fn a_cap_below_the_standard_library_names_the_floor() {
    let e = machine("return 1", Some(64 << 10)).err().expect("refused");
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    let floor = machine("return 1", None).unwrap().memory_used();
    let mib = floor.div_ceil(1 << 20);
    assert!(
        e.message
            .starts_with("memory limit exceeded: max_memory_bytes is 65536 bytes, below the ")
            && e.message.ends_with(&format!(
                "give max_memory_bytes at least {mib} MiB ({} bytes)",
                mib << 20
            )),
        "{}",
        e.message
    );
    assert!(machine("return 1", Some(mib << 20)).is_ok());
}

/// Run `src` under a memory cap of `cap` bytes, assert that it ends with the memory-limit
/// error; the bytes it held then.
pub fn out_of_memory(src: &str, cap: usize) -> usize {
    let mut m = machine(src, Some(cap)).unwrap();
    let e = run_to_error(&mut m);
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert_eq!(
        e.message,
        format!(
            "memory limit exceeded: the program holds more than {cap} bytes; process data in smaller pieces"
        )
    );
    m.memory_used()
}

#[test]
fn limit_fuel() {
    let mut m = machine("let i = 0; while (true) i++", None).unwrap();
    m.set_fuel_limit(1_000_000);
    let e = run_to_error(&mut m);
    assert!(
        e.message.starts_with("instruction limit exceeded"),
        "{}",
        e.message
    );
    assert!(m.fuel_used() <= 1_100_000);
}

#[test]
fn limit_string_array_and_argument_lengths() {
    assert_eq!(
        value("try { 'x'.repeat(2 ** 25) } catch (e) { return [e.name, e.message] }"),
        json!(["RangeError", "Invalid string length"])
    );
    assert_eq!(
        value("let s = 'x'.repeat(2 ** 23); try { s = s + s + s } catch (e) { return e.message }"),
        json!("Invalid string length")
    );
    assert_eq!(
        value("try { new Array(2 ** 32) } catch (e) { return [e.name, e.message] }"),
        json!(["RangeError", "Invalid array length"])
    );
    assert_eq!(
        value("const a = []; try { a.length = 2 ** 32 } catch (e) { return e.message }"),
        json!("Invalid array length")
    );
    assert_eq!(
        value(
            "function f() { return arguments.length } try { f(...new Array(300000)) } catch (e) { return e.message }"
        ),
        json!("Maximum call stack size exceeded")
    );
}

#[test]
fn limit_error_message_size() {
    let e = error("throw new Error('e'.repeat(100000))");
    assert!(e.message.len() < crate::limits::MAX_ERROR_MESSAGE_BYTES + 100);
    assert!(
        e.message
            .ends_with("[error message truncated: 100007 bytes]"),
        "{}",
        &e.message[e.message.len() - 60..]
    );
}

#[test]
fn data_boundary() {
    let e = error("const f = () => 1; return {a: [1, f]}");
    assert_eq!(e.kind, ErrorKind::InvalidDataValue);
    assert!(
        e.message.starts_with("result.a[1] is a function"),
        "{}",
        e.message
    );
    let e = error("const o = {}; o.self = o; return o");
    assert_eq!(e.kind, ErrorKind::InvalidDataValue);
    assert!(
        e.message
            .starts_with("result.self contains a circular value"),
        "{}",
        e.message
    );
    let e = error("let o = {}; for (let i = 0; i < 200; i++) o = {o}; return o");
    assert!(
        e.message.contains("nests deeper than 128 levels"),
        "{}",
        e.message
    );
    assert_eq!(
        value("return [new Map([[1, 2]]), new Set([1]), [1, , 3], {'a-b': -0}]"),
        json!([{}, {}, [1, null, 3], {"a-b": 0}])
    );
    assert_eq!(
        value("const e = new TypeError('x'); e.code = 7; return e"),
        json!({"name": "TypeError", "message": "x", "code": 7})
    );
}

#[test]
fn unsupported_syntax_names_the_alternative() {
    for (src, what) in [
        ("with (o) { x }", "with"),
        ("class B { accessor p = 1 }", "accessor"),
        (
            "import x from 'y' with { type: 'json' }",
            "import attributes or phases",
        ),
        ("export const a = 1", "export"),
        ("eval('1')", "eval"),
        ("const b = 10n", "BigInt"),
        ("namespace N { export const x = 1 }", "namespace"),
        ("function d(c: any) { return c } @d class C {}", "decorator"),
        ("class C { m(@inject x: number) {} }", "decorator"),
    ] {
        let e = error(src);
        assert_eq!(e.kind, ErrorKind::UnsupportedSyntax, "{src}: {e:?}");
        assert!(
            e.message
                .starts_with(&format!("Syntax '{what}' is not supported.")),
            "{src}: {}",
            e.message
        );
        assert_eq!(e.location.map(|l| l.line), Some(1));
    }
    // TypeScript that declares types only has no code.
    for src in [
        "declare namespace G { const y: number }\nreturn 2",
        "import type { T } from 'x'\nreturn 2",
        "declare module 'm' {}\ndeclare enum E { A }\nreturn 2",
    ] {
        assert_eq!(value(src), json!(2), "{src}");
    }
    let e = error("let x = ;");
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((1, 9)));
}

#[test]
fn typescript_annotations_are_erased() {
    assert_eq!(
        value(
            "interface P { x: number }\ntype T = string;\nfunction f(a: number, b?: string): number { return a * 2 }\nconst v = f(2) as number;\nlet w!: number;\nreturn [v, (v satisfies number) + 1, <any>v]"
        ),
        json!([4, 5, 4])
    );
}

#[test]
fn fresh_intrinsics_per_run() {
    assert_eq!(
        value("Array.prototype.map = () => 'mine'; return [1].map(x => x)"),
        json!("mine")
    );
    assert_eq!(value("return [1].map(x => x + 1)"), json!([2]));
}

#[test]
fn garbage_is_collected() {
    // Without collection the intermediate strings alone would take about 1.3 GB.
    let src = "let s = ''; for (let i = 0; i < 20000; i++) s += 'line ' + i + '\\n'; const o = {a: [1, 2], f: () => s.length}; return [s.length, o.f(), o.a]";
    let mut m = machine(src, Some(16 << 20)).unwrap();
    let r = loop {
        match m.run(100_000) {
            Step::Yield => continue,
            other => break other,
        }
    };
    assert_eq!(
        r,
        Step::Done {
            value: json!([208890, 208890, [1, 2]]),
            returned: true
        }
    );
    assert!(m.memory_used() < 16 << 20);
    // Closures, cells and prototypes survive collections in a long loop.
    let v = value(
        "function mk(n) { let c = n; return () => c++ } const fs = []; for (let i = 0; i < 50000; i++) { const f = mk(i); f(); if (i % 10000 === 0) fs.push(f) } let junk = ''; for (let i = 0; i < 3000; i++) junk += 'x'.repeat(100) + i; return fs.map(f => f())",
    );
    assert_eq!(v, json!([1, 10001, 20001, 30001, 40001]));
}

#[test]
fn searching_for_a_needle_longer_than_the_string() {
    // Each of these panicked (an index past an empty string) before; the values are node's.
    assert_eq!(
        value(
            r#"return ["".indexOf("a"), "a".indexOf("abc"), "".includes("ab"), "".split("x"), "".replaceAll("x", "y"), "ab".lastIndexOf("abc")]"#
        ),
        json!([-1, -1, false, [""], "", -1])
    );
}

#[test]
fn function_prototype_is_callable_and_returns_undefined() {
    // It panicked (no entry in the natives table) before; node gives [true, "function"].
    assert_eq!(
        value("const fp = Object.getPrototypeOf(() => 1); return [fp() === undefined, typeof fp]"),
        json!([true, "function"])
    );
}

#[test]
fn limit_native_nesting_is_a_catchable_range_error() {
    // Before MAX_NATIVE_NESTING these recursed on the Rust stack and aborted the process.
    let src = "let a = []; for (let i = 0; i < 10000; i++) a = [a];
        let e = new Error('x'); for (let i = 0; i < 10000; i++) { const n = new Error('y'); n.name = e; e = n }
        const out = [];
        for (const f of [() => String(a), () => a.join('-'), () => `${a}`, () => [a, a].sort(), () => String(e)]) {
            try { f(); out.push('no error') } catch (x) { out.push(x instanceof RangeError && x.message) }
        }
        out.push(String([[1, [2, [3]]], 4]));
        return out";
    let (v, _, _) = on_small_stack(src.into()).unwrap();
    let m = "Maximum call stack size exceeded";
    assert_eq!(v, json!([m, m, m, m, m, "1,2,3,4"]));
}

/// `JSON.parse` nests at most `MAX_DATA_DEPTH` containers, with a RangeError past it, and a
/// hostile depth (10^6 brackets) neither recurses nor allocates per bracket beyond the bound.
#[test]
fn json_parse_depth_is_bounded() {
    use crate::limits::MAX_DATA_DEPTH;
    let at = format!(
        "return JSON.parse('{}1{}').length",
        "[".repeat(MAX_DATA_DEPTH),
        "]".repeat(MAX_DATA_DEPTH)
    );
    assert_eq!(value(&at), json!(1));
    let past = format!(
        "try {{ JSON.parse('{}1{}'); return 'parsed'; }} catch (e) {{ return e.name + ': ' + e.message; }}",
        "[".repeat(MAX_DATA_DEPTH + 1),
        "]".repeat(MAX_DATA_DEPTH + 1)
    );
    assert_eq!(
        value(&past),
        json!(format!(
            "RangeError: Value exceeds the maximum depth of {MAX_DATA_DEPTH}."
        ))
    );
    let hostile = "const s = '['.repeat(1000000); try { JSON.parse(s); return 'parsed'; } catch (e) { return e.name; }";
    assert_eq!(value(hostile), json!("RangeError"));
}

/// The bytes a finished run of `src` holds.
fn memory_after(src: &str) -> usize {
    memory_after_under(src, None)
}

/// The bytes a finished run of `src` under memory cap `cap` holds.
fn memory_after_under(src: &str, cap: Option<usize>) -> usize {
    let mut m = machine(src, cap).unwrap();
    loop {
        match m.run(100_000) {
            Step::Yield => continue,
            Step::Done { .. } => return m.memory_used(),
            other => panic!("{src}: {other:?}"),
        }
    }
}

#[test]
fn private_elements_are_byte_accounted() {
    let keep = "const keep = []; for (let i = 0; i < 1000; i++) keep.push(new K()); return 1";
    let with = memory_after(&format!(
        "class K {{ #a = 1; #b = 2; #c = 3; #d = 4; #e = 5; }}\n{keep}"
    ));
    let without = memory_after(&format!("class K {{}}\n{keep}"));
    assert!(
        with >= without + 1000 * 5 * crate::heap::PROP_BYTES,
        "{with} vs {without}"
    );
}

#[test]
fn returned_frames_give_their_charge_back() {
    // 10^5 calls that allocate nothing hold no more than one call does: each frame's
    // charge goes back when it returns (before, every call left ~150 bytes charged until
    // the next collection).
    let one = memory_after("function f(a, b) { return a + b; }\nlet s = 0; s = f(s, 1); return s");
    let many = memory_after(
        "function f(a, b) { return a + b; }\nlet s = 0; for (let i = 0; i < 100000; i++) s = f(s, 1); return s",
    );
    assert!(many < one + 4096, "{many} vs {one}");
    // A throw out of a frame gives it back too.
    let thrown = memory_after(
        "function f() { throw 1; }\nlet n = 0; for (let i = 0; i < 100000; i++) { try { f(); } catch { n++; } } return n",
    );
    assert!(thrown < one + 4096, "{thrown} vs {one}");
}

#[test]
fn records_are_charged_what_they_occupy() {
    // 10^4 records of three properties: at least the object slot and the property list's
    // room for four entries each, as the process holds them (not the smaller figures charged
    // before).
    let base = memory_after("const a = []; return 1");
    let held = memory_after(
        "const a = []; for (let i = 0; i < 10000; i++) a.push({ id: i, name: 'n', score: 1 }); return 1",
    );
    let per = (held - base) / 10000;
    let least =
        std::mem::size_of::<crate::heap::Obj>() + 4 * std::mem::size_of::<crate::heap::Prop>();
    assert!(
        per >= least,
        "{per} bytes per record, the structures take {least}"
    );
    assert!(
        per < least + 64,
        "{per} bytes per record, the structures take {least}"
    );
}

#[test]
fn compiled_patterns_stay_charged_after_a_collection() {
    // 2,000 distinct patterns kept in RegExp objects: their compiled programs count against
    // the cap after collections too (the recount left them out: RSS reached 5x the cap).
    // Measured while the program still holds them: paused in a long loop afterwards.
    let collected = |make: &str| {
        let src = format!(
            "const a = []; for (let i = 0; i < 2000; i++) a.push({make});\n\
             let s = 0; for (let j = 0; j < 1e8; j++) s += j; return a.length + s"
        );
        let mut m = machine(&src, None).unwrap();
        for _ in 0..40 {
            assert!(matches!(m.run(100_000), Step::Yield));
        }
        m.collect();
        m.memory_used()
    };
    let with = collected("new RegExp('a' + i + '(b|c)*d')");
    let without = collected("{ lastIndex: 0, s: 'a' + i + '(b|c)*d' }");
    assert!(with > without + 2000 * 200, "{with} vs {without}");
}

#[test]
fn undeclared_private_name_is_an_early_error() {
    let e = error("const o = {};\nclass A { m() { return o.#y; } }");
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert_eq!(
        e.message,
        "Private field '#y' must be declared in an enclosing class"
    );
    assert_eq!(e.location.map(|l| (l.line, l.column)), Some((2, 26)));
    let e = error("class A { #x; m() { delete this.#x; } }");
    assert_eq!(e.kind, ErrorKind::ParseError);
    let e = error("class A { x = arguments; }");
    assert_eq!(e.kind, ErrorKind::ParseError);
}

#[test]
fn private_names_stay_out_of_reflection() {
    assert_eq!(
        value(
            "class A { #x = 1; y = 2; #m() {} static has(o) { return #x in o; } }\n\
             const a = new A();\n\
             return [Object.keys(a), Object.getOwnPropertyNames(a), JSON.stringify(a), A.has(a), A.has({})]"
        ),
        json!([["y"], ["y"], "{\"y\":2}", true, false])
    );
}

#[test]
fn long_concatenations_are_not_nesting() {
    // oxc parses a left-leaning operator chain in a loop and the compiler lowers it in one:
    // a model's 10,000-term concatenation is a program, not a ParseError.
    let terms: Vec<String> = (0..10_000).map(|i| format!("x{}", i % 7)).collect();
    let src = format!(
        "const [x0, x1, x2, x3, x4, x5, x6] = ['a', 'b', 'c', 'd', 'e', 'f', 'g']; \
         const s = {}; return [s.length, s.slice(0, 9), 1 - 2 - 3 + 4 * 2 - 1]",
        terms.join(" + ")
    );
    let v = value(&src);
    assert_eq!(v, json!([10_000, "abcdefgab", 3]));
    // A short chain (under the size at which compiling moves to a large stack) compiles on
    // a small stack.
    let short = format!("return {}", vec!["1"; 500].join("+"));
    assert!(short.len() < crate::scan::LARGE_SOURCE_BYTES);
    let got = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || crate::compile(&short).is_ok())
        .unwrap()
        .join()
        .unwrap();
    assert!(got);
    // Prefix operators still nest: 300 unary minus signs are past the bound.
    let e = crate::compile(&format!("return {}1", "- ".repeat(300))).unwrap_err();
    assert_eq!(e.kind, ErrorKind::ParseError);
    assert!(e.message.starts_with("nesting too deep"), "{}", e.message);
}

#[test]
fn many_statements_with_bodies_are_not_nesting() {
    // Each `if (…) {…}`, function, arrow body or method used to leave one level behind in the
    // pre-scan: the 257th was a ParseError.
    let ifs: String = (0..600)
        .map(|i| format!("if (x > {i}) {{ x++; }} else {{ x += 2; }}\nif (x < 0) {{ x = 0 }}\n"))
        .collect();
    let fns: String = (0..600)
        .map(|i| format!("function f{i}() {{ return {i}; }}\n"))
        .collect();
    let arrows: String = (0..600)
        .map(|i| format!("const a{i} = () => {{ x++ }}\n"))
        .collect();
    let methods: String = (0..600)
        .map(|i| format!("m{i}() {{ return {i} }}\n"))
        .collect();
    let src = format!(
        "let x = 0\n{ifs}{fns}{arrows}class A {{\n{methods}}}\na7(); return [x, f599(), new A().m42()]"
    );
    let v = value(&src);
    assert_eq!(v, json!([602, 599, 42]));
    // A chain of `else if` still counts: the parser recurses once per link.
    let chain = format!(
        "let x = 1; if (x === 0) {{}}{} return x",
        " else if (x === 0) { x++ }".repeat(300)
    );
    let e = crate::compile(&chain).unwrap_err();
    assert!(e.message.starts_with("nesting too deep"), "{}", e.message);
}

#[test]
fn reads_of_undefined_name_the_expression_and_what_its_object_has() {
    for (src, hint, suggestions) in [
        (
            "const order = { id: 1, items: [1], total: 3 }\nreturn order.itmes.length",
            "TypeError: Cannot read properties of undefined (reading 'length'). `order.itmes` is undefined: order has no property 'itmes'; its properties: id, items, total. Did you mean 'items'?",
            vec!["items"],
        ),
        (
            "const cfg = {}\nreturn cfg.server.port",
            "TypeError: Cannot read properties of undefined (reading 'port'). `cfg.server` is undefined: cfg has no property 'server' and no own properties",
            vec![],
        ),
        (
            "const rows = [{ id: 1 }, { id: 2 }]\nreturn rows[2].id",
            "TypeError: Cannot read properties of undefined (reading 'id'). `rows[2]` is undefined: rows has 2 elements (indices 0 to 1)",
            vec![],
        ),
        (
            "let u = null\nreturn u.name",
            "TypeError: Cannot read properties of null (reading 'name'). `u` is null",
            vec![],
        ),
        (
            "const r = { data: { user: {} } }\nreturn r.data.usr.name.first",
            "TypeError: Cannot read properties of undefined (reading 'name'). `r.data.usr` is undefined: r.data has no property 'usr'; its properties: user. Did you mean 'user'?",
            vec!["user"],
        ),
    ] {
        let e = error(src);
        assert_eq!(e.message, hint, "{src}");
        assert_eq!(e.suggestions, suggestions, "{src}");
        assert_eq!(e.location.map(|l| l.line), Some(2), "{src}");
    }
    for (src, hint, suggestions) in [
        (
            "const list = [3, 1]\nreturn list.fitler((x) => x > 1)",
            "TypeError: list.fitler is not a function. list has no method 'fitler'. Did you mean 'filter'?",
            vec!["filter"],
        ),
        (
            "class Repo { findAll() { return [] } }\nconst repo = new Repo()\nreturn repo.findall()",
            "TypeError: repo.findall is not a function. repo has no method 'findall'. Did you mean 'findAll'?",
            vec!["findAll"],
        ),
        (
            "const api = { get: 1 }\nreturn api.get()",
            "TypeError: api.get is not a function",
            vec![],
        ),
    ] {
        let e = error(src);
        assert_eq!(e.message, hint, "{src}");
        assert_eq!(e.suggestions, suggestions, "{src}");
    }
    // The program's own error message keeps V8's wording.
    assert_eq!(
        value("const o = {}\ntry { o.a.b } catch (e) { return e.message }"),
        json!("Cannot read properties of undefined (reading 'b')")
    );
    // A caught read of undefined leaves no hint behind for a later, different error.
    let e = error("try { const o = {}; o.a.b } catch {}\nthrow new TypeError('later')");
    assert_eq!(e.message, "TypeError: later");
}

#[test]
fn regexp_bounds_trip() {
    // Nesting: a pattern 100,000 groups deep is a SyntaxError, never a stack overflow.
    let deep = format!(
        "try {{ new RegExp('{}' + 'a' + '{}'); return 'compiled'; }} catch (e) {{ return e.name + ': ' + e.message; }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let v = value(&deep);
    assert!(
        v.as_str()
            .is_some_and(|s| s.starts_with("SyntaxError") && s.contains("nesting too deep")),
        "{v}"
    );
    // In a literal too (the source pre-scan or the pattern pre-scan stops it).
    let lit = format!("/{}a{}/", "(".repeat(100_000), ")".repeat(100_000));
    assert!(crate::compile(&lit).is_err());
    // Capture count.
    let v = value(&format!(
        "try {{ new RegExp('()'.repeat({})); return 'ok'; }} catch (e) {{ return e.message; }}",
        crate::limits::MAX_REGEX_CAPTURES + 1
    ));
    assert!(
        v.as_str()
            .is_some_and(|s| s.contains("too many capture groups")),
        "{v}"
    );
    // Program size.
    let v = value(&format!(
        "try {{ new RegExp('a'.repeat({})); return 'ok'; }} catch (e) {{ return e.message; }}",
        crate::limits::MAX_REGEX_PROGRAM + 1
    ));
    assert!(v.as_str().is_some_and(|s| s.contains("too large")), "{v}");
    // Replacement output.
    let v = value(
        "const s = 'x'.repeat(5000000); try { s.replace(/^/, \"$'$'$'$'\"); return 'ok'; } catch (e) { return e.name + ': ' + e.message; }",
    );
    assert_eq!(v, json!("RangeError: Invalid string length"));
    // Backtrack stack: a catchable RangeError.
    let v = value(
        "try { /(?:a|b)*c/.test('a'.repeat(9000000)); return 'ok'; } catch (e) { return e.name; }",
    );
    assert_eq!(v, json!("RangeError"));
    // Invalid patterns: SyntaxError with the position.
    let v = value("try { new RegExp('ab(c'); } catch (e) { return e.message; }");
    assert!(
        v.as_str()
            .is_some_and(|s| s.contains("/ab(c/") && s.contains("at position")),
        "{v}"
    );
}

#[test]
fn regexp_search_spans_fuel_slices() {
    // An exponential search runs in many slices (each bounded) and ends by the fuel cap.
    let mut m = machine("return /^(a+)+$/.test('a'.repeat(40) + 'b')", None).expect("compiles");
    m.set_fuel_limit(3_000_000);
    let mut slices = 0;
    let e = loop {
        let before = m.fuel_used();
        match m.run(10_000) {
            Step::Yield => {
                slices += 1;
                assert!(m.fuel_used() - before < 20_000, "a slice overran");
            }
            Step::Error(e) => break e,
            other => panic!("{other:?}"),
        }
    };
    assert!(slices > 100, "{slices}");
    assert!(e.message.contains("instruction limit"), "{e:?}");
    // A search that needs several slices finishes with the right answer.
    let (v, _, _) = run("return /^(a|b)*c$/.test('ab'.repeat(200000) + 'c')").expect("runs");
    assert_eq!(v, json!(true));
}
#[test]
fn global_replace_and_match_span_fuel_slices() {
    // The native global replace and match stop when a slice's fuel is spent and continue in
    // the next slice, giving what one long call would.
    let src = "const s = 'ab1 '.repeat(20000); const r = s.replace(/(\\w)(\\d)/g, '$2$1'); const m = s.match(/\\d/g); return [r.length, r.slice(0, 8), m.length, m[19999]]";
    let mut m = machine(src, None).expect("compiles");
    let mut slices = 0;
    let v = loop {
        let before = m.fuel_used();
        match m.run(5_000) {
            Step::Yield => {
                slices += 1;
                assert!(m.fuel_used() - before < 50_000, "a slice overran");
            }
            Step::Done { value, .. } => break value,
            other => panic!("{other:?}"),
        }
    };
    assert!(slices > 10, "{slices}");
    assert_eq!(v, json!([80000, "a1b a1b ", 20000, "1"]));
}

mod intl;
mod platform;
mod storage;
mod webdata;

#[test]
fn regexp_deep_patterns_compile_off_the_small_stack() {
    // 200 nested groups (test262's S15.10.2.8_A3_T15) on a 256 KiB thread: the pattern
    // compiles on a large stack of its own, in the constructor and in a literal.
    let t = std::thread::Builder::new()
        .stack_size(256 << 10)
        .spawn(|| {
            let src = "let p = ''; for (let i = 0; i < 200; i++) p += '('; p += 'x'; for (let i = 0; i < 200; i++) p += ')'; return new RegExp(p).exec('x').length";
            let v = value(src);
            let lit = format!("return /{}x{}/.exec('x').length", "(".repeat(200), ")".repeat(200));
            (v, value(&lit))
        })
        .expect("thread");
    let (a, b) = t.join().expect("no overflow");
    assert_eq!((a, b), (json!(201), json!(201)));
}

// ----- async bounds (limits.rs) ---------------------------------------------------------

#[test]
fn pending_promises_are_bounded() {
    let n = crate::limits::MAX_PENDING_PROMISES;
    let src = format!(
        "const ps = []; try {{ for (let i = 0; i < {}; i++) ps.push(new Promise(() => {{}})); }} catch (e) {{ return [e.name, e.message, ps.length]; }}",
        n + 10
    );
    let v = value(&src);
    assert_eq!(v[0], json!("RangeError"), "{v}");
    assert!(
        v[1].as_str()
            .unwrap()
            .contains("too many pending promises (limit 1000000)"),
        "{v}"
    );
    // The body's own promise is one of them.
    assert_eq!(v[2], json!(n - 1));
}

#[test]
fn queued_jobs_are_bounded() {
    let n = crate::limits::MAX_QUEUED_JOBS;
    let src = format!(
        "for (let i = 0; i < {}; i++) queueMicrotask(() => {{}}); return 1;",
        n + 10
    );
    let e = error(&src);
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert!(
        e.message
            .contains("too many queued promise jobs (limit 1000000)"),
        "{}",
        e.message
    );
}

#[test]
fn open_host_calls_are_bounded() {
    let program = crate::compile(
        "const ps = []; try { for (;;) ps.push(tools.a.b({})); } catch (e) { return [e.name, e.message, ps.length]; }",
    )
    .unwrap();
    let env = Env {
        tool_paths: vec!["a.b".into()],
        ..Env::default()
    };
    let opts = StartOptions {
        max_memory_bytes: None,
        deadline: None,
    };
    let mut m = crate::machine::Machine::new(&program, &env, &opts).unwrap();
    let mut taken = 0;
    let v = loop {
        match m.run(1_000_000) {
            Step::Yield => continue,
            Step::Started | Step::Blocked => taken += m.take_calls().len(),
            Step::Done { value, .. } => break value,
            Step::Error(e) => panic!("{e:?}"),
        }
    };
    assert_eq!(v[0], json!("RangeError"), "{v}");
    assert!(
        v[1].as_str()
            .unwrap()
            .contains("too many tool calls started and not finished (limit 10000)"),
        "{v}"
    );
    assert_eq!(v[2], json!(crate::limits::MAX_OPEN_HOST_CALLS));
    assert_eq!(taken, crate::limits::MAX_OPEN_HOST_CALLS);
}

/// A missing-tool policy that says whether it was asked to rank.
struct Ranks;

impl codemode_guest::MissingTool for Ranks {
    fn missing(&self, path: &str, rank: bool) -> GuestError {
        GuestError::new(ErrorKind::UnknownTool, format!("{path} ranked={rank}"))
    }
}

/// Drive `m`, answering every call with `answer`; the end.
fn drive(
    m: &mut crate::machine::Machine,
    answer: impl Fn(&codemode_guest::HostCall) -> codemode_guest::HostReply,
) -> Step {
    loop {
        match m.run(1_000_000) {
            Step::Yield => continue,
            Step::Started | Step::Blocked => {
                for c in m.take_calls() {
                    let reply = match &c.refused {
                        Some(e) => codemode_guest::HostReply::error(
                            e.kind,
                            e.message.clone(),
                            e.suggestions.clone(),
                        ),
                        None => answer(&c),
                    };
                    m.resolve(c.id, reply);
                }
            }
            end => return end,
        }
    }
}

fn machine_with(src: &str, env: Env) -> crate::machine::Machine {
    let program = crate::compile(src).unwrap();
    let opts = StartOptions {
        max_memory_bytes: None,
        deadline: None,
    };
    crate::machine::Machine::new(&program, &env, &opts).unwrap()
}

#[test]
fn missing_tool_suggestions_are_ranked_for_the_first_lookups_only() {
    let env = Env {
        tool_paths: vec!["a.b".into()],
        missing: Some(std::sync::Arc::new(Ranks)),
        ..Env::default()
    };
    let n = crate::limits::MAX_SUGGESTION_LOOKUPS;
    let src = format!(
        "const out = []; for (let i = 0; i < {}; i++) {{ try {{ await tools.a.nope({{}}); }} catch (e) {{ out.push(e.message); }} }} return out;",
        n + 2
    );
    let mut m = machine_with(&src, env);
    let Step::Done { value, .. } = drive(&mut m, |_| codemode_guest::HostReply::Value(json!(1)))
    else {
        panic!("did not finish")
    };
    let msgs: Vec<&str> = value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(msgs.len(), n + 2);
    assert!(
        msgs[..n].iter().all(|m| *m == "a.nope ranked=true"),
        "{msgs:?}"
    );
    assert!(
        msgs[n..].iter().all(|m| *m == "a.nope ranked=false"),
        "{msgs:?}"
    );
}

#[test]
fn host_errors_keep_their_kind_up_to_a_bound() {
    let env = Env {
        tool_paths: vec!["a.fail".into()],
        ..Env::default()
    };
    let n = crate::limits::MAX_KEPT_HOST_ERRORS;
    let fail = |_: &codemode_guest::HostCall| {
        codemode_guest::HostReply::error(ErrorKind::ToolFailure, "it failed", Vec::new())
    };
    // Uncaught within the bound: the host's kind and message.
    let mut m = machine_with("await tools.a.fail({});", env.clone());
    let Step::Error(e) = drive(&mut m, fail) else {
        panic!("no error")
    };
    assert_eq!(
        (e.kind, e.message.as_str()),
        (ErrorKind::ToolFailure, "it failed")
    );
    // Past the bound: an ordinary uncaught error.
    let src = format!(
        "for (let i = 0; i < {n}; i++) {{ try {{ await tools.a.fail({{}}); }} catch (e) {{}} }}\nawait tools.a.fail({{}});"
    );
    let mut m = machine_with(&src, env);
    let Step::Error(e) = drive(&mut m, fail) else {
        panic!("no error")
    };
    assert_eq!(e.kind, ErrorKind::ExecutionFailure);
    assert_eq!(e.message, "ToolError: it failed");
}

#[test]
fn leftover_microtasks_do_not_hold_a_finished_result() {
    // Jobs queued when the body settles run; what they queue is dropped.
    assert_eq!(
        value("queueMicrotask(function f() { queueMicrotask(f); }); return 1;"),
        json!(1)
    );
    let (v, _, logs) = run("Promise.resolve().then(() => console.log('late')); return 2").unwrap();
    assert_eq!((v, logs), (json!(2), vec!["late".to_string()]));
}

#[test]
fn export_errors_name_the_path_to_the_value() {
    let cases = [
        (
            "return { a: [1, { 'b-c': () => 1 }] }",
            "result.a[1][\"b-c\"] is a function",
        ),
        (
            "const o = { k: {} }; o.k.self = o; return [o]",
            "result[0].k.self contains a circular value",
        ),
        (
            "return { x: { 7: Symbol.iterator, y: [[0, n => n]] } }",
            "result.x.y[0][1] is a function",
        ),
        (
            "const later = async () => 1; return { n: later() }",
            "result.n is a promise (a call that was not awaited)",
        ),
        (
            "function* g() { yield 1 } return [g()]",
            "result[0] is an iterator",
        ),
        (
            "return { keys: new Map([[1, 2]]).keys() }",
            "result.keys is an iterator",
        ),
    ];
    for (src, want) in cases {
        let e = run(src).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidDataValue, "{src}");
        assert!(e.message.starts_with(want), "{src}: {}", e.message);
    }
    // The fast path keeps insertion order, drops undefined and keeps nested data.
    let (v, ..) = run("return { z: 1, a: undefined, m: [{ q: null, p: 'x' }], b: true }").unwrap();
    assert_eq!(
        v.to_string(),
        r#"{"z":1,"m":[{"q":null,"p":"x"}],"b":true}"#
    );
}

/// A pattern's SyntaxError names the reason once, after a pattern shown whole when short and
/// by its ends when long (so the reason survives the diagnostic's size cut), and an error
/// inside a group name says so (the parser's own words are about a `\u` escape).
#[test]
fn regexp_syntax_errors_name_the_reason() {
    let v = value(
        r#"const out = [];
for (const p of ["(?<year>\\d{4})-(?<month\\d{2})", "a(", "(?<n>a)(?<n>b)", "x".repeat(5000) + "("]) {
  try { new RegExp(p); out.push("ok"); } catch (e) { out.push(e.message); }
}
return out;"#,
    );
    let m: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(m[0].starts_with("Invalid regular expression: /(?<year>\\d{4})-(?<month\\d{2})/: Invalid capture group name"), "{}", m[0]);
    assert_eq!(
        m[1],
        "Invalid regular expression: /a(/: Unterminated capturing group at position 1"
    );
    assert!(
        m[2].contains("Duplicated capturing group names"),
        "{}",
        m[2]
    );
    assert_eq!(m[0].matches("Invalid regular expression").count(), 1);
    assert!(m[3].len() < 400, "{}", m[3]);
    assert!(
        m[3].contains("(5001 characters): Unterminated capturing group at position 5000"),
        "{}",
        m[3]
    );
}
