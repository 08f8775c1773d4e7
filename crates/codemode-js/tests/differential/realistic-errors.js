// Realistic agent programs that handle, wrap and print errors.

// @program error-stack-and-printing-forms
class AppError extends Error {
  constructor(message, { code = "E_APP", cause, details } = {}) { super(message, { cause }); this.name = this.constructor.name; this.code = code; if (details) this.details = details; }
}
class NotFound extends AppError { constructor(what) { super(`${what} not found`, { code: "E_NOT_FOUND", details: { what } }); } }
const e = new NotFound("user 7");
console.log(e.stack);
console.log(String(e), e.name, e.code, e instanceof AppError, e instanceof NotFound, Object.prototype.toString.call(e));
console.log(e);
console.log([e], { e });
console.log(new AppError("wrapped", { cause: e }));
console.log(`${new Error("in template")}`, new Error("x") + "", JSON.stringify({ e }), Object.keys(e));
return e;

// @program error-wrapping-chain-walk
function walk(err) { const chain = []; let cur = err; while (cur) { chain.push(`${cur.name}: ${cur.message}`); cur = cur.cause; } return chain; }
let err;
try {
  try {
    try { JSON.parse("{oops"); } catch (e) { throw new Error("config parse failed", { cause: e }); }
  } catch (e) { throw new Error("startup failed", { cause: e }); }
} catch (e) { err = e; }
console.log(walk(err).join("\n  caused by "));
console.log(err.cause.cause instanceof SyntaxError, "cause" in new Error("x"), "cause" in new Error("x", {}), new Error("x", { cause: undefined }).cause, Object.getOwnPropertyDescriptor(err, "cause").enumerable);
console.log(new Error("with string cause", { cause: "because" }));
return walk(err);

// @program built-in-error-messages-common-mistakes
const tries = [
  () => null.length,
  () => undefined.map((x) => x),
  () => { const cfg = {}; return cfg.db.host; },
  () => { const arr = [1]; return arr[5].name; },
  () => { const f = 5; return f(); },
  () => { const o = { a: 1 }; return o.a(); },
  () => { const o = {}; return o.list.push(1); },
  () => [].reduce((a, b) => a + b),
  () => new Array(-5),
  () => "abc".repeat(Infinity),
  () => (123.456).toFixed(200),
  () => Symbol() + "",
  () => ({}).x.y.z,
  () => { class A { #p = 1; static get(o) { return o.#p; } } return A.get({}); },
  () => { class B {} return B(); },
  () => { const x = 1; x = 2; },
  () => JSON.stringify((() => { const o = {}; o.self = o; return o; })()),
  () => Object.defineProperty(1, "x", {}),
  () => new (class { constructor() { undefinedVariable; } })(),
  () => [1, 2].toSorted("not a function"),
  () => [3, 1].sort({ by: "name" }),
  () => new Uint8Array([2, 1]).sort(null),
  () => [1].sort(undefined).length,
  () => [1, 2].map("x"),
  () => [1, 2].filter(),
  () => [1].forEach(null),
  () => [1].find({}),
  () => new Map([1, 2]),
  () => Object.fromEntries([1]),
  () => decodeURIComponent("%"),
  () => new URL("not a url"),
  () => "x".localeCompare(),
  () => Number.prototype.toString.call("x"),
  () => new Intl.NumberFormat("en-US", { style: "currency" }),
  () => [...{}],
  () => { const [a] = {}; return a; },
  () => { const { a } = null; return a; },
  () => { for (const x of 5) return x; },
  () => new Set().add.call({}, 1),
  () => Map.prototype.get.call([1], "k"),
  () => Object.getOwnPropertyDescriptor(Map.prototype, "size").get.call(new Set()),
  () => Map.prototype.forEach.call({}, () => 1),
  () => Set.prototype.has.call(new Map(), 1),
  () => Object.getOwnPropertyDescriptor(Set.prototype, "size").get.call("str"),
  () => Reflect.ownKeys(1),
];
for (const t of tries) {
  try { const v = t(); console.log("ok", typeof v); } catch (e) { console.log(`${e.constructor.name}: ${e.message}`); }
}

// @program finally-and-error-propagation-in-loops
const processed = [];
const errors = [];
outer: for (const batch of [[1, 2, 3], [4, "five", 6], [7, 8, null, 10]]) {
  for (const item of batch) {
    try {
      if (item === null) { errors.push("null item: abort batch"); continue outer; }
      if (typeof item !== "number") throw new TypeError(`bad item ${JSON.stringify(item)}`);
      if (item === 8) break outer;
      processed.push(item * 2);
    } catch (e) {
      errors.push(`${e.name}: ${e.message}`);
    } finally {
      processed.push(`f${item}`);
    }
  }
}
console.log(processed, errors);
function f() { try { return "try"; } finally { processed.push("finally-ran"); } }
function g() { try { throw new Error("lost"); } finally { return "finally-wins"; } }
console.log(f(), g(), processed.at(-1));
return { processed, errors };

// @program throw-non-error-values
const values = [42, "string thrown", { code: 1, msg: "obj" }, null, undefined, [1, 2], Symbol("s")];
for (const v of values) {
  try { throw v; } catch (e) {
    console.log(typeof e, e instanceof Error, String(e?.toString ? e : typeof e), e?.message ?? "(no message)");
  }
}
const p = await Promise.reject({ reason: "plain object" }).catch((x) => x);
console.log(p);
try { await (async () => { throw "async string"; })(); } catch (e) { console.log(e, typeof e); }
return values.length;

// @program aggregate-and-error-inspection
const errs = [new Error("one"), new TypeError("two"), new RangeError("three")];
const agg = new AggregateError(errs, "multiple failures");
console.log(agg.name, agg.message, agg.errors.length, agg.errors.map(String));
console.log(agg);
console.log(String(agg), agg instanceof Error, Array.isArray(agg.errors));
const e = new Error("props");
e.extra = { nested: [1, 2] };
e.code = 500;
console.log(e);
const noMsg = new Error();
console.log(noMsg, String(noMsg), noMsg.message === "");
const renamed = new TypeError("renamed");
renamed.name = "CustomName";
console.log(renamed, String(renamed));
return { agg: agg.errors.length };

// @program callback-not-a-function-messages
const calls = {
  map: (f) => [1].map(f), forEach: (f) => [1].forEach(f), filter: (f) => [1].filter(f), reduce: (f) => [1].reduce(f),
  find: (f) => [1].find(f), findLast: (f) => [1].findLast(f), some: (f) => [1].some(f), flatMap: (f) => [1].flatMap(f),
  from: (f) => Array.from([1], f), sort: (f) => [2, 1].sort(f), mapForEach: (f) => new Map([[1, 1]]).forEach(f),
  setForEach: (f) => new Set([1]).forEach(f), promise: (f) => new Promise(f), u8map: (f) => new Uint8Array(1).map(f),
  u8from: (f) => Uint8Array.from([1], f), apply: (f) => Reflect.apply(f, null, []), construct: (f) => Reflect.construct(f, []),
  getter: (f) => Object.defineProperty({}, "x", { get: f }), then: (f) => Promise.prototype.then.call(f),
};
const values = ["q", {}, 5, -0, null, undefined, [1, 2], Symbol("s"), new Map(), true, Object.create(null), new Error("boom"), new (class Foo {})(), new Date(0), /re/g, "x".repeat(120), { toString() { return "custom"; } }, Object.assign(Object.create({ [Symbol.toStringTag]: "Tagged" }), {})];
for (const [name, c] of Object.entries(calls)) {
  const row = [];
  for (const v of values) { try { c(v); row.push("ok"); } catch (e) { row.push(`${e.name}:${e.message}`); } }
  console.log(name + " | " + row.join(" | "));
}
const wm = new WeakMap();
for (const k of [1, "k", null, Symbol.for("reg")]) { try { wm.set(k, 1); console.log("ok"); } catch (e) { console.log(e.message); } }
try { new WeakSet().add(2); } catch (e) { console.log(e.message); }
try { new WeakSet([1]); } catch (e) { console.log(e.message); }

// @program destructuring-nullish-messages
const cfg = {}; const obj = null; const o = { f() {} }; const m = new Map(); const arr = [];
function getX() { return undefined; }
class Foo { get x() { return null; } }
const tests = [
  () => { const { a } = obj; }, () => { const { a } = cfg.db; }, () => { const { a } = cfg["db"]; }, () => { const { a } = (0, cfg.x); },
  () => { const { a } = getX(); }, () => { const { data: { items } } = { data: null }; }, () => { function f({ x }) {} f(null); },
  () => { const g = ({ x }) => x; g(); }, () => { const [{ a }] = [null]; }, () => { const { a = 1 } = null; }, () => { let a; ({ a } = cfg.q); },
  () => { const { "quoted key": q } = null; }, () => { const {} = null; }, () => { const { ...r } = undefined; }, () => { const { [`k`]: z } = undefined; },
  () => { const { a } = void 0; }, () => { const { a } = "s".match(/x/); }, () => { const { a } = o.f(); }, () => { const { a } = JSON.parse("null"); },
  () => { const { a } = m.get("k"); }, () => { const { a } = arr[0]; }, () => { const i = 0; const { a } = arr[i]; }, () => { const { a } = [].find((x) => x); },
  () => { const { a } = cfg?.z; }, () => { const { a } = new Foo().x; }, () => { const { a } = cfg.x || cfg.y; }, () => { const { a } = cfg.x ?? null; },
  () => { const { a } = cfg ? null : 1; }, () => { const { a } = cfg["k" + 1]; }, () => { const { a } = [null][0]; }, () => { const { a } = cfg[1]; },
  () => { [undefined].map(({ id }) => id); }, () => { [null].forEach(({ id, name }) => id); }, () => { for (const { id } of [undefined]); },
  () => { try { throw null; } catch ({ message }) {} }, () => { let x; [{ x }] = [undefined]; }, () => { let x; ({ x } = null); },
  () => { const { 0: first } = null; }, () => { const { a, b: { c } } = { a: 1 }; }, () => { const { x: { y: { z } } } = { x: { y: undefined } }; },
];
for (const t of tests) { try { t(); console.log("ok"); } catch (e) { console.log(`${e.constructor.name}: ${e.message}`); } }
const rows = [{ id: 1, meta: { tag: "a" } }, { id: 2 }];
try { rows.map(({ id, meta: { tag } }) => `${id}:${tag}`); } catch (e) { console.log(e.message); }
