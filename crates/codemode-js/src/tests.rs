//! End-to-end tests of the pipeline: source → result, logs and errors.

use codemode_guest::{Env, ErrorKind, GuestError, StartOptions, Step};
use serde_json::{Value as Json, json};

/// Run `src` to its end: (value, returned, logs) or the error.
pub fn run(src: &str) -> Result<(Json, bool, Vec<String>), GuestError> {
    let program = crate::compile(src)?;
    let mut m = crate::machine::Machine::new(
        &program,
        &Env::default(),
        &StartOptions {
            max_memory_bytes: None,
            deadline: None,
        },
    )?;
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
    let e = error("let q = 1; q = nope + 1");
    assert_eq!(e.message, "ReferenceError: nope is not defined");
}
