//! A small differential suite against node: every program runs under codemode and, in one
//! node process, as the body of a strict async function; the exported value (JSON) and the
//! uncaught error's name must agree. Programs end with an explicit `return` (node's async
//! functions have no completion value). Skipped, loudly, without `node` on PATH; under
//! `CI=true` a missing node fails.

use std::io::Write;
use std::process::{Command, Stdio};

use codemode_guest::{Budget, Env, Language, StartOptions, Step};
use serde_json::{Value, json};

const PROGRAMS: &[&str] = &[
    "return 1 + 2 * 3 - 4 / 5",
    "return [0.1 + 0.2, 1e21, 1 / 3, -0, 2 ** 53 + 1, 5e-7, 123e-20]",
    "return [String(0.000001), String(1e-7), (255).toString(16), (255).toString(2), (-7.5).toString(8)]",
    "return [(1.005).toFixed(2), (0.5).toFixed(0), (1.5).toFixed(0), (2.5).toFixed(0), (1234.5678).toFixed(2), (-1.5).toFixed(0)]",
    "return ['5' * '2', '5' + 2, 5 + '2', '5' - 2, true + 1, null + 1, undefined + 1, [] + [], [] + {}, [1] == 1]",
    "return [null == 0, null >= 0, undefined == null, NaN != NaN, '' == 0, '0' == false, 'b' > 'a', 'B' < 'a', '10' < '9', 10 < 9]",
    "return [7 % -3, -7 % 3, 5.5 % 2, 2 ** -1, (-8) ** (1/3), 0 / 0, 1 / -0]",
    "return [1 << 32, 1 << 31, -1 >>> 28, 0xff & 0x0f, 6 | 9, 6 ^ 3, ~~3.7, ~-1]",
    "return [parseInt('42px'), parseInt('0x1f'), parseInt('z', 36), parseFloat('3.5e2abc'), Number(''), Number(' 7 '), Number('1_0'), Number('0b101')]",
    "return [Math.max(), Math.min(), Math.max(1, 'x'), Math.round(-0.5), Math.round(2.5), Math.sign(-3), Math.trunc(-4.7), Math.hypot(3, 4)]",
    "return [typeof null, typeof [], typeof function(){}, typeof Symbol(), typeof undefined]",
    "let s = ''; for (let i = 0; i < 5; i++) s += i; return s",
    "const a = []; for (let i = 0; i < 3; i++) a.push(() => i); return a.map(f => f())",
    "var a = []; for (var i = 0; i < 3; i++) a.push(() => i); return a.map(f => f())",
    "function f(a, b = 2, ...r) { return [a, b, r, arguments.length] } return [f(1), f(1, undefined, 3, 4), f.length]",
    "const {a, b: {c = 5} = {}, ...rest} = {a: 1, d: 4, e: 5}; return [a, c, rest]",
    "const [x, , y = 3, ...z] = [1, 2, undefined, 4, 5]; return [x, y, z]",
    "let a = 1, b = 2; [a, b] = [b, a]; return [a, b]",
    "const o = {}; ({x: o.x, y: o['y']} = {x: 1, y: 2}); return o",
    "return [1, 2, 3].map((x, i) => x * i).filter(x => x > 0).reduce((s, x) => s + x, 10)",
    "return [[1, [2, [3, [4]]]].flat(), [[1, [2, [3, [4]]]]].flat(Infinity), [1, 2].flatMap(x => [x, x * 2])]",
    "const xs = [5, 1, 10, 2]; return [xs.slice().sort(), xs.slice().sort((a, b) => a - b), xs.toSorted((a, b) => b - a), xs]",
    "const r = [{n: 'b', v: 1}, {n: 'a', v: 1}, {n: 'c', v: 0}]; return r.sort((p, q) => p.v - q.v).map(x => x.n)",
    "return [[1, 2, 3].includes(2), [NaN].includes(NaN), [NaN].indexOf(NaN), [1, 2, 3].at(-1), [1, 2, 3].join('-'), [null, undefined, 1].join()]",
    "const a = [1, 2, 3, 4, 5]; const removed = a.splice(1, 2, 'x', 'y', 'z'); return [a, removed]",
    "const a = [1, 2]; a.push(3, 4); a.unshift(0); return [a, a.pop(), a.shift(), a.length, a.reverse()]",
    "return [[1, 2, 3].find(x => x > 1), [1, 2, 3].findIndex(x => x > 5), [1, 2, 3].findLast(x => x < 3), [1, 2].some(x => x > 1), [].every(x => false)]",
    "return [Array.from('abc'), Array.from({length: 3}, (_, i) => i * i), Array.of(7, 8), Array.isArray([]), new Array(3).length]",
    "const a = [1, 2, 3]; a[5] = 6; return [a.length, a, 2 in a, 3 in a]",
    "const a = [1, 2, 3]; a.length = 1; return a",
    "return ['abc'.length, 'héllo'.toUpperCase(), '  x  '.trim(), 'a-b-c'.split('-'), 'abc'.split(''), 'x'.padStart(3, 'ab'), 'ab'.repeat(3)]",
    "return ['hello'.slice(-3), 'hello'.substring(3, 1), 'hello'.indexOf('l'), 'hello'.lastIndexOf('l'), 'hello'.charAt(1), 'hello'.charCodeAt(1), 'hello'.at(-1)]",
    "return ['a.b.c'.replace('.', '/'), 'a.b.c'.replaceAll('.', '/'), 'abc'.startsWith('ab'), 'abc'.endsWith('bc'), 'abc'.includes('d'), 'a,b'.split(',', 1)]",
    "const s = '😀x'; return [s.length, s.codePointAt(0), s.charCodeAt(0), [...s].length, Array.from(s)]",
    "return `a${1 + 1}b${[1, 2]}c${null}d${undefined}e${{}}`",
    "const o = {b: 1, a: 2, 1: 'x', 0: 'y', [`k${1}`]: 3}; return [Object.keys(o), Object.values(o), Object.entries(o)]",
    "const o = {a: 1}; const p = Object.assign({}, o, {b: 2}, null); return [p, {...p, c: 3}, Object.fromEntries([['x', 1], ['y', 2]])]",
    "const o = Object.freeze({a: 1}); try { o.a = 2 } catch (e) { return [e.name, o.a, Object.isFrozen(o)] }",
    "const o = {get x() { return this.y * 2 }, set x(v) { this.y = v }, y: 1}; o.x = 5; return [o.x, o.y]",
    "const p = {greet() { return 'hi ' + this.name }}; const o = Object.create(p); o.name = 'ann'; return [o.greet(), Object.getPrototypeOf(o) === p, 'greet' in o, o.hasOwnProperty('greet')]",
    "const keys = []; const o = Object.create({inherited: 1}); o.own = 2; for (const k in o) keys.push(k); return keys",
    "function P(n) { this.n = n } P.prototype.get = function () { return this.n }; const p = new P(3); return [p.get(), p instanceof P, p.constructor === P]",
    "const m = new Map([['a', 1]]); m.set('b', 2).set('a', 3); return [m.size, m.get('a'), m.has('c'), [...m.keys()], [...m], m.delete('a'), m.size]",
    "const s = new Set([1, 2, 2, 3]); s.add(4); s.delete(1); return [s.size, [...s], s.has(2)]",
    "const m = new Map(); m.set(NaN, 1); m.set(0, 2); return [m.get(NaN), m.get(-0)]",
    "return JSON.stringify({a: [1, {b: 2}], c: 'x', d: undefined, e: () => 1, f: NaN})",
    "return JSON.stringify({a: 1, b: [1, 2]}, null, 2)",
    "return JSON.stringify({a: 1, b: 2, c: 3}, ['a', 'c'])",
    "return JSON.parse('{\"a\": [1, 2, {\"b\": null}], \"c\": \"\\\\u0041\"}')",
    "try { JSON.parse('{bad') } catch (e) { return e.name }",
    "const o = {}; o.self = o; try { JSON.stringify(o) } catch (e) { return e.name }",
    "try { undefined.x } catch (e) { return [e.name, e.message] }",
    "try { null.foo() } catch (e) { return [e.name, e.message] }",
    "try { x = 1 } catch (e) { return [e.name, e.message] }",
    "try { let y = z; let z = 1 } catch (e) { return [e.name, e.message] }",
    "try { throw new RangeError('r', {cause: 1}) } catch (e) { return [e.name, e.message, e.cause, e instanceof Error, String(e)] }",
    "const log = []; function f() { try { log.push('t'); return 1 } finally { log.push('f') } } return [f(), log]",
    "let out = []; for (const i of [1, 2, 3]) { try { if (i === 2) continue; out.push(i) } finally { out.push('f' + i) } } return out",
    "a: { b: { break a } } let r = []; outer: for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer; r.push([i, j]) } return r",
    "function f(x) { switch (typeof x) { case 'number': return 'n'; case 'string': return 's'; default: return 'o' } } return [f(1), f('a'), f(null)]",
    "let i = 0, r = []; do { r.push(i) } while (++i < 3); while (i > 0) r.push(i--); return r",
    "const o = {a: {b: {c: 1}}}; return [o?.a?.b?.c, o.x?.y.z, o.f?.(), o.a?.['b'], (null)?.x ?? 'd']",
    "let a = null; a ??= 5; let b = 0; b ||= 7; let c = 1; c &&= 9; return [a, b, c]",
    "const f = function fact(n) { return n < 2 ? 1 : n * fact(n - 1) }; return [f(5), f.name]",
    "const add = (a) => (b) => a + b; const bound = function (x) { return this.k + x }.bind({k: 10}); return [add(1)(2), bound(5), bound.name]",
    "function sum() { let s = 0; for (const x of arguments) s += x; return s } return [sum(1, 2, 3), sum.apply(null, [4, 5]), sum.call(null, 6)]",
    "function outer() { const self = this; return [typeof self, (() => this)()] } return outer()",
    "const counter = (() => { let n = 0; return { inc: () => ++n, dec: () => --n } })(); counter.inc(); counter.inc(); counter.dec(); return counter.inc()",
    "return [Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), Number.MAX_SAFE_INTEGER, Number.EPSILON > 0, isNaN('x'), isFinite('5')]",
    "const sym = Symbol('d'); const o = {[sym]: 1, a: 2}; return [Object.keys(o), o[sym], sym.toString(), typeof Symbol.iterator]",
    "const it = {[Symbol.iterator]() { let i = 0; return {next: () => ({done: i >= 3, value: i++})} }}; const r = []; for (const x of it) r.push(x); return r",
    "const e = [['a', 1], ['b', 2]]; const r = []; for (const [k, v] of e) r.push(k + v); return r",
    "const words = 'the cat the dog the end'.split(' '); const counts = {}; for (const w of words) counts[w] = (counts[w] || 0) + 1; return Object.entries(counts).sort((a, b) => b[1] - a[1])",
    "const rows = [{name: 'Kit', qty: 2, price: 1.5}, {name: 'Olive', qty: 1, price: 10}]; return rows.map(r => `${r.name.padEnd(6)}|${(r.qty * r.price).toFixed(2).padStart(7)}`).join('\\n')",
    "function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } return f(1000)",
    "function f() { return f() } try { f() } catch (e) { return [e.name, e.message] }",
    "throw new TypeError('uncaught here')",
    "throw 'a string'",
    "const o = {a: 1}; delete o.a; return [o, delete o.zz, 'a' in o]",
    "const a = [1, 2, 3]; delete a[1]; return [a, a.length, 1 in a]",
    "return [String(null), String([1, [2, 3]]), String({}), `${[]}`, [1, 2] + '', String(Symbol('q'))]",
    "return [[3, 20, 100].sort(), ['b', 'a', 'C'].sort(), [true, false].sort(), [undefined, 3, null, 1].sort()]",
    "return [1, 2, 3, 4].reduceRight((acc, x) => acc + x, '')",
    "return [[1, 2, 3].with(1, 9), [1, 2, 3].toReversed(), [1, 2, 3].toSpliced(0, 1), [1, 2, 3].fill(0, 1), [1, 2, 3].lastIndexOf(3)]",
    "return [[1,2,3].entries().next(), [...[7, 8].keys()], [...[7, 8].entries()]]",
    "const parts = []; const s = new Set(['x', 'y']); s.forEach(v => parts.push(v)); new Map([[1, 'a']]).forEach((v, k) => parts.push(k + v)); return parts",
    "return [Object.is(-0, 0), Object.is(NaN, NaN), Object.hasOwn({a: 1}, 'a'), Object.getOwnPropertyNames([1])]",
    "const o = Object.defineProperty({}, 'hidden', {value: 1, enumerable: false}); return [Object.keys(o), o.hidden, JSON.stringify(o)]",
    "class P { x = 1; static count = 0; constructor(y) { this.y = y; P.count++ } sum() { return this.x + this.y } get double() { return this.sum() * 2 } set double(v) { this.y = v / 2 - this.x } static make() { return new P(5) } } const p = P.make(); p.double = 10; return [p.sum(), p.double, P.count, Object.keys(p), p instanceof P, typeof P]",
    "class A { m() { return 1 } } try { A() } catch (e) { return [e.name, Object.keys(A.prototype), new A().m()] }",
    "const K = class { static of(v) { const k = new K(); k.v = v; return k } }; return [K.of(3).v, K.name]",
    "class Stack { items = []; push(x) { this.items.push(x); return this } get size() { return this.items.length } } const s = new Stack().push(1).push(2); return [s.size, JSON.stringify(s)]",
    "class Money { constructor(c) { this.c = c } valueOf() { return this.c / 100 } toString() { return '$' + (this.c / 100).toFixed(2) } } const m = new Money(1250); return [m + 1, `${m}`, String(m), m * 2, m > 12, [m, m].join(' '), m == 12.5]",
    "const o = { toString() { return 'O' } }; const p = { valueOf() { return 7 } }; return [o + '!', `${o}`, p + 1, p * p, [o, p].join(), JSON.stringify({k: String(p)})]",
    "const bad = { valueOf() { return {} }, toString() { return {} } }; try { bad + 1 } catch (e) { return e.name }",
    "const t = { toString() { throw new RangeError('no') } }; try { `${t}` } catch (e) { return [e.name, e.message] }",
    "class A { constructor(x) { this.x = x } hi() { return 'A' + this.x } static k() { return 'sa' } } class B extends A { y = 2; constructor(x) { super(x * 10); this.z = this.y + 1 } hi() { return 'B' + super.hi() } static k() { return 'sb' + super.k() } } const b = new B(1); return [b.hi(), b.x, b.y, b.z, B.k(), b instanceof A, b instanceof B, Object.keys(b)]",
    "class E extends Error { constructor(m, code) { super(m); this.name = 'E'; this.code = code } } try { throw new E('bad', 7) } catch (e) { return [e instanceof E, e instanceof Error, e.message, e.code, String(e)] }",
    "class C extends Array {} const c = new C(); c.push(1, 2); return [c.length, Array.isArray(c), c instanceof C]",
    "class P { greet() { return 'p' } } class Q extends P {} class R extends Q { greet() { return 'r' + super.greet() } } return new R().greet()",
    "class V extends Map { total() { let t = 0; for (const v of this.values()) t += v; return t } } const v = new V([['a', 1], ['b', 2]]); return [v.total(), v.size]",
    "return [(123.456).toPrecision(4), (0.000123).toPrecision(2), (123456).toPrecision(2), (2.5).toPrecision(1), (1e-7).toPrecision(3), (0).toPrecision(3), (-1.005).toPrecision(3)]",
    "return [(123.456).toExponential(2), (0).toExponential(), (1e21).toExponential(), (-0.00015).toExponential(1), (5).toExponential(0), (12345).toExponential()]",
    "return [(1234567.891).toLocaleString(), (0.5).toLocaleString(), (-1234.5).toLocaleString(), (1e21).toLocaleString(), (999.9999).toLocaleString(), (12).toLocaleString()]",
    "const o = {a: 1, get b() { return this.a + 1 }}; return [JSON.stringify(o), Object.entries(o), {...o}, Object.values(o)]",
    "class T { constructor() { this.n = 2 } get sq() { return this.n ** 2 } } const t = new T(); const x = Object.defineProperty({}, 'g', {get() { return t.sq }, enumerable: true}); return [JSON.stringify(x), Object.assign({}, x)]",
];

/// The node side: each program as a strict async function body, exported like codemode.
const NODE_RUNNER: &str = r#"
const programs = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const AsyncFunction = (async () => {}).constructor;
(async () => {
  for (const src of programs) {
    let out;
    try {
      const v = await new AsyncFunction('"use strict";\n' + src)();
      const text = JSON.stringify(v === undefined ? null : v);
      out = { ok: true, value: text === undefined ? null : JSON.parse(text) };
    } catch (e) {
      const name = e instanceof Error ? e.name : 'Uncaught';
      out = { ok: false, name };
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  }
})();
"#;

fn run_codemode(src: &str) -> Value {
    let lang = codemode_js::JavaScript;
    let opts = StartOptions {
        max_memory_bytes: None,
        deadline: None,
    };
    let mut g = match lang.start(src, &Env::default(), &opts) {
        Ok(g) => g,
        Err(e) => return json!({"ok": false, "name": "Compile", "message": e.message}),
    };
    loop {
        match g.run(Budget {
            fuel: 1_000_000,
            soft_deadline: None,
        }) {
            Step::Yield => continue,
            Step::Done { value, .. } => return json!({"ok": true, "value": value}),
            Step::Error(e) => {
                let name = e
                    .message
                    .split_once(':')
                    .map(|(n, _)| n.to_string())
                    .unwrap_or_default();
                return json!({"ok": false, "name": name, "message": e.message});
            }
            other => panic!("unexpected step {other:?}"),
        }
    }
}

#[test]
fn agrees_with_node() {
    let Ok(mut child) = Command::new("node")
        .arg("-e")
        .arg(NODE_RUNNER)
        .env("TZ", "UTC")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "node is required under CI"
        );
        eprintln!("SKIPPED: node is not on PATH; the differential suite did not run");
        return;
    };
    let input = serde_json::to_string(PROGRAMS).unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let node: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(node.len(), PROGRAMS.len(), "node printed {text}");
    let mut failures = Vec::new();
    for (src, want) in PROGRAMS.iter().zip(&node) {
        let got = run_codemode(src);
        let same = got["ok"] == want["ok"]
            && if want["ok"] == json!(true) {
                got["value"] == want["value"]
            } else {
                got["name"] == want["name"]
            };
        if !same {
            failures.push(format!("{src}\n  node:     {want}\n  codemode: {got}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        PROGRAMS.len(),
        failures.join("\n")
    );
}
