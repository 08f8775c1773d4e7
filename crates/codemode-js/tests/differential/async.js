// Async: promises, the job queue's order, async functions and await, generators. Each program
// logs the order things happen in; node's order is the oracle.

// @program then-order-basic
const log = [];
Promise.resolve(1).then((v) => log.push("a" + v));
Promise.resolve(2).then((v) => log.push("b" + v));
log.push("sync");
await null;
return log;

// @program then-chains-interleave
const log = [];
Promise.resolve().then(() => log.push("a1")).then(() => log.push("a2")).then(() => log.push("a3"));
Promise.resolve().then(() => log.push("b1")).then(() => log.push("b2")).then(() => log.push("b3"));
await new Promise((r) => setTimeoutLike(r));
function setTimeoutLike(r) { let n = 0; const spin = () => (++n < 10 ? Promise.resolve().then(spin) : r()); spin(); }
return log;

// @program await-takes-one-tick
const log = [];
async function f() { log.push("f start"); await null; log.push("f after await"); }
f();
Promise.resolve().then(() => log.push("then 1")).then(() => log.push("then 2"));
log.push("sync end");
await Promise.resolve();
await Promise.resolve();
await Promise.resolve();
return log;

// @program await-native-promise-vs-thenable
const log = [];
const thenable = { then(r) { log.push("then called"); r("T"); } };
async function a() { const v = await thenable; log.push("a got " + v); }
async function b() { const v = await Promise.resolve("P"); log.push("b got " + v); }
a(); b();
Promise.resolve().then(() => log.push("tick1")).then(() => log.push("tick2")).then(() => log.push("tick3"));
for (let i = 0; i < 5; i++) await null;
return log;

// @program resolve-with-promise-takes-two-ticks
const log = [];
const p = new Promise((res) => res(Promise.resolve("inner")));
p.then((v) => log.push("p " + v));
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"));
for (let i = 0; i < 5; i++) await null;
return log;

// @program async-return-promise-ticks
const log = [];
async function r() { return Promise.resolve("x"); }
r().then((v) => log.push("r " + v));
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3")).then(() => log.push("t4"));
for (let i = 0; i < 6; i++) await null;
return log;

// @program executor-runs-synchronously
const log = [];
const p = new Promise((resolve) => { log.push("executor"); resolve(1); log.push("after resolve"); });
log.push("after new");
p.then((v) => log.push("then " + v));
log.push("end");
await p;
return log;

// @program executor-throw-rejects
const p = new Promise(() => { throw new Error("boom"); });
try { await p; } catch (e) { return ["caught", e.message]; }

// @program executor-throw-after-resolve-ignored
const p = new Promise((res) => { res("ok"); throw new Error("ignored"); });
return await p;

// @program resolve-only-once
const log = [];
const p = new Promise((res, rej) => { res(1); res(2); rej(3); });
p.then((v) => log.push("v" + v), (e) => log.push("e" + e));
await p;
return log;

// @program catch-and-finally-order
const log = [];
Promise.reject(new Error("x"))
  .finally(() => log.push("finally 1"))
  .catch((e) => log.push("catch " + e.message))
  .finally(() => log.push("finally 2"))
  .then((v) => log.push("then " + v));
for (let i = 0; i < 10; i++) await null;
return log;

// @program finally-passes-value-through
const v = await Promise.resolve(7).finally(() => 99);
const w = await Promise.reject(new Error("no")).finally(() => 1).catch((e) => e.message);
return [v, w];

// @program finally-throw-overrides
const r = await Promise.resolve(1).finally(() => { throw new Error("from finally"); }).catch((e) => e.message);
return r;

// @program promise-all-values-in-order
const log = [];
const mk = (v, n) => new Promise((res) => { let k = 0; const step = () => (++k >= n ? res(v) : Promise.resolve().then(step)); step(); });
const out = await Promise.all([mk("slow", 5), mk("fast", 1), 42, Promise.resolve("p")]);
log.push(out.join(","));
return log;

// @program promise-all-rejects-first
const r = await Promise.all([Promise.resolve(1), Promise.reject(new Error("e1")), Promise.reject(new Error("e2"))]).catch((e) => e.message);
return r;

// @program promise-all-empty
return await Promise.all([]);

// @program promise-allsettled
const r = await Promise.allSettled([Promise.resolve(1), Promise.reject(new Error("bad")), 3]);
return r.map((x) => x.status + ":" + (x.status === "fulfilled" ? x.value : x.reason.message));

// @program promise-race-first-wins
const slow = new Promise((res) => Promise.resolve().then(() => Promise.resolve()).then(() => res("slow")));
const fast = Promise.resolve("fast");
return await Promise.race([slow, fast]);

// @program promise-any-and-aggregate
const a = await Promise.any([Promise.reject(1), Promise.resolve(2), Promise.resolve(3)]);
let b;
try { await Promise.any([Promise.reject(new Error("x")), Promise.reject(new Error("y"))]); }
catch (e) { b = [e.constructor.name, e.message, e.errors.map((x) => x.message)]; }
return [a, b];

// @program promise-any-empty
try { await Promise.any([]); } catch (e) { return [e.name, e.errors.length]; }

// @program combinator-order-of-callbacks
const log = [];
Promise.all([1, 2]).then(() => log.push("all"));
Promise.race([1, 2]).then(() => log.push("race"));
Promise.allSettled([1]).then(() => log.push("allSettled"));
Promise.any([1]).then(() => log.push("any"));
Promise.resolve().then(() => log.push("plain")).then(() => log.push("plain2")).then(() => log.push("plain3"));
for (let i = 0; i < 8; i++) await null;
return log;

// @program thenable-assimilation
const t = { then(onF) { onF(10); } };
const v = await Promise.resolve(t);
const w = await new Promise((r) => r({ then(f, g) { g(new Error("thenable rejected")); } })).catch((e) => e.message);
return [v, w];

// @program thenable-then-throws
const t = { then() { throw new Error("then threw"); } };
return await Promise.resolve(t).catch((e) => e.message);

// @program thenable-getter-throws
const t = { get then() { throw new Error("getter threw"); } };
return await Promise.resolve(t).catch((e) => e.message);

// @program chaining-cycle
const log = [];
const p = Promise.resolve().then(() => p);
await p.catch((e) => log.push(e.constructor.name + ": " + e.message));
return log;

// @program async-throw-becomes-rejection
async function f() { throw new TypeError("inside"); }
const p = f();
const r = await p.then(() => "no", (e) => e.name + " " + e.message);
return r;

// @program async-try-catch-await
async function fail() { await null; throw new Error("late"); }
async function g() { try { await fail(); return "no"; } catch (e) { return "caught " + e.message; } finally { log.push("finally"); } }
const log = [];
log.push(await g());
return log;

// @program async-arrow-and-method
const o = { async m(x) { await null; return x * 2; } };
const f = async (x) => (await o.m(x)) + 1;
class C { async run() { return await f(3); } static async s() { return "static"; } }
return [await f(1), await new C().run(), await C.s()];

// @program await-in-loops
const out = [];
for (let i = 0; i < 3; i++) out.push(await Promise.resolve(i));
let j = 0;
while (j < 3) { j = await (j + 1); out.push(j); }
for (const x of [10, 20]) out.push(await x);
return out;

// @program await-in-expressions
const a = (await 1) + (await 2) * (await 3);
const o = { x: await "x", [await "k"]: await "v" };
const arr = [await 1, ...(await [2, 3])];
const t = `${await "t"}!`;
return [a, o, arr, t, (await null) ?? "nullish", (await 0) || "or"];

// @program await-in-try-finally
const log = [];
try { log.push("try"); await null; throw new Error("x"); }
catch (e) { log.push("catch"); await null; log.push("after await in catch"); }
finally { log.push("finally"); await null; log.push("after await in finally"); }
return log;

// @program concurrent-async-functions
const log = [];
async function worker(name, n) { for (let i = 0; i < n; i++) { log.push(name + i); await null; } return name; }
const r = await Promise.all([worker("a", 3), worker("b", 2), worker("c", 1)]);
return [r, log];

// @program unawaited-async-runs-until-first-await
const log = [];
async function f() { log.push("1"); await null; log.push("3"); }
f();
log.push("2");
await null;
await null;
return log;

// @program then-non-callable-passthrough
const a = await Promise.resolve(1).then(null).then(undefined, 5).then((v) => v + 1);
const b = await Promise.reject(new Error("r")).then(1).catch((e) => e.message);
return [a, b];

// @program promise-statics-shape
return [typeof Promise, Promise.length, Promise.name, typeof Promise.prototype.then, Promise.prototype.then.length,
  Object.prototype.toString.call(Promise.resolve()), Promise.resolve(1) instanceof Promise,
  Promise.resolve(Promise.resolve(1)) === Promise.resolve(1)];

// @program promise-resolve-same
const p = Promise.resolve(1);
return [Promise.resolve(p) === p, Promise.reject(1) === Promise.reject(1)];

// @program promise-without-new !ExecutionFailure:TypeError
Promise(() => {});

// @program promise-resolver-not-function !ExecutionFailure:TypeError
new Promise(5);

// @program then-on-non-promise !ExecutionFailure:TypeError
Promise.prototype.then.call({}, () => {});

// @program uncaught-rejection-of-body !ExecutionFailure:RangeError
await Promise.reject(new RangeError("bad range"));

// @program top-level-await-result
const v = await new Promise((r) => r({ ok: true }));
v;

// @program return-promise-from-body
return Promise.resolve([1, 2, 3]);

// @program async-error-location-kept !ExecutionFailure:Error
async function deep() { await null; throw new Error("deep failure"); }
await deep();

// @program generator-basic
function* g() { yield 1; yield 2; return 3; }
const it = g();
return [it.next(), it.next(), it.next(), it.next()];

// @program generator-lazy-start
const log = [];
function* g() { log.push("started"); yield 1; }
const it = g();
log.push("made");
it.next();
return log;

// @program generator-send-values
function* g() { const a = yield "first"; const b = yield a * 2; return a + b; }
const it = g();
return [it.next("ignored").value, it.next(5).value, it.next(7)];

// @program generator-for-of-and-spread
function* range(n) { for (let i = 0; i < n; i++) yield i; }
const out = [];
for (const x of range(4)) out.push(x);
return [out, [...range(3)], Array.from(range(2)), Math.max(...range(5))];

// @program generator-return-runs-finally
const log = [];
function* g() { try { yield 1; yield 2; } finally { log.push("cleanup"); } }
const it = g();
it.next();
const r = it.return("early");
return [r, it.next(), log];

// @program generator-break-closes
const log = [];
function* g() { try { for (let i = 0; ; i++) yield i; } finally { log.push("closed"); } }
for (const x of g()) { if (x === 2) break; log.push(x); }
return log;

// @program generator-throw
function* g() { try { yield 1; } catch (e) { yield "caught " + e; } yield "after"; }
const it = g();
it.next();
return [it.throw("E").value, it.next().value, it.next().done];

// @program generator-throw-uncaught
function* g() { yield 1; }
const it = g();
it.next();
try { it.throw(new Error("out")); } catch (e) { return [e.message, it.next()]; }

// @program generator-return-before-start
function* g() { throw new Error("never"); }
const it = g();
return [it.return(4), it.next()];

// @program generator-already-running
function* g() { it.next(); yield 1; }
const it = g();
try { it.next(); } catch (e) { return [e.constructor.name, e.message]; }

// @program generator-methods-and-objects
const o = { *items() { yield 1; yield 2; } };
class C { *[Symbol.iterator]() { yield "a"; yield "b"; } static *s() { yield "s"; } }
return [...new C(), ...o.items(), ...C.s()];

// @program generator-prototype-chain
function* g() {}
const it = g();
const GP = Object.getPrototypeOf(g);
return [Object.getPrototypeOf(it) === g.prototype, typeof it.next, it[Symbol.iterator]() === it,
  Object.prototype.toString.call(it), GP === Object.getPrototypeOf(function* () {}), typeof g.prototype];

// @program generator-fibonacci-take
function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b]; } }
const out = [];
for (const x of fib()) { if (out.length >= 10) break; out.push(x); }
return out;

// @program generator-default-params-evaluated-at-call
const log = [];
function* g(x = log.push("default")) { log.push("body"); yield x; }
const it = g();
log.push("called");
it.next();
return log;

// @program async-function-shapes
async function f() {}
const af = async () => {};
return [typeof f, f.length, Object.prototype.toString.call(f), f() instanceof Promise, "prototype" in f, "prototype" in af];

// @program yield-star-delegates
function* inner() { const x = yield 1; yield x * 10; return "inner done"; }
function* outer() { const r = yield* inner(); yield r; yield* [7, 8]; yield* "ab"; }
const it = outer();
return [it.next(), it.next(3), it.next(), it.next(), it.next(), it.next(), it.next(), it.next()];

// @program yield-star-return-and-throw-forwarded
const log = [];
function* inner() { try { yield 1; yield 2; } catch (e) { log.push("inner caught " + e); yield "recovered"; } finally { log.push("inner finally"); } }
function* outer() { try { yield* inner(); } finally { log.push("outer finally"); } }
const a = outer();
a.next();
const t = a.throw("E");
const b = outer();
b.next();
const r = b.return("R");
return [t, a.next(), r, b.next(), log];

// @program yield-star-over-user-iterable
const iterable = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i, done: i++ >= 3 }) }; } };
function* g() { const res = yield* iterable; return res; }
return [...g()];

// @program async-generator-basic
async function* ag() { yield 1; await null; yield 2; return 3; }
const it = ag();
const out = [];
out.push(await it.next(), await it.next(), await it.next(), await it.next());
return out;

// @program async-generator-for-await
async function* count(n) { for (let i = 0; i < n; i++) { await null; yield i; } }
const out = [];
for await (const x of count(4)) out.push(x);
return out;

// @program for-await-over-sync-iterable-of-promises
const out = [];
for await (const x of [Promise.resolve(1), 2, new Promise((r) => r(3))]) out.push(x);
return out;

// @program async-generator-queued-requests
const log = [];
async function* ag() { log.push("start"); const a = yield "y1"; log.push("got " + a); const b = yield "y2"; log.push("got " + b); return "end"; }
const it = ag();
const ps = [it.next("x0"), it.next("x1"), it.next("x2"), it.next("x3")];
const rs = await Promise.all(ps);
return [rs, log];

// @program async-generator-yield-awaits-promises
async function* ag() { yield Promise.resolve("resolved"); yield new Promise((r) => r("later")); }
const out = [];
for await (const v of ag()) out.push(v);
return out;

// @program async-generator-return-and-throw
async function* ag() { try { yield 1; yield 2; } finally { log.push("cleanup"); } }
const log = [];
const a = ag();
await a.next();
const r = await a.return("early");
const b = ag();
const t = await b.throw(new Error("before start")).catch((e) => "rejected " + e.message);
return [r, await a.next(), t, log];

// @program async-generator-error-rejects
async function* ag() { yield 1; throw new Error("gen failed"); }
const out = [];
try { for await (const v of ag()) out.push(v); } catch (e) { out.push("caught " + e.message); }
return out;

// @program for-await-break-closes
const log = [];
async function* ag() { try { yield 1; yield 2; yield 3; } finally { log.push("closed"); } }
for await (const v of ag()) { log.push(v); if (v === 2) break; }
return log;

// @program microtask-order-async-generators
const log = [];
async function* ag() { log.push("ag start"); yield "a"; log.push("ag after a"); }
const it = ag();
it.next().then((r) => log.push("next1 " + r.value));
it.next().then((r) => log.push("next2 " + r.done));
Promise.resolve().then(() => log.push("p1")).then(() => log.push("p2")).then(() => log.push("p3"));
for (let i = 0; i < 8; i++) await null;
return log;

// @program async-generator-shapes
async function* ag() {}
const it = ag();
return [Object.prototype.toString.call(it), typeof it[Symbol.asyncIterator], it[Symbol.asyncIterator]() === it,
  Object.prototype.toString.call(ag), typeof ag.prototype, it instanceof ag];

// @program async-yield-star
const log = [];
async function* inner() { yield 1; await null; yield 2; return "inner result"; }
async function* outer() { const r = yield* inner(); log.push(r); yield* [3, Promise.resolve(4)]; }
for await (const v of outer()) log.push(v);
return log;

// @program async-yield-star-order
const log = [];
async function* inner() { log.push("inner start"); yield "a"; log.push("inner after a"); }
async function* outer() { yield* inner(); log.push("outer end"); }
const it = outer();
it.next().then((r) => log.push("n1 " + r.value));
it.next().then((r) => log.push("n2 " + r.done));
Promise.resolve().then(() => log.push("p1")).then(() => log.push("p2")).then(() => log.push("p3")).then(() => log.push("p4"));
for (let i = 0; i < 12; i++) await null;
return log;

// @program for-await-iterable-expression-with-inner-loops
const items = [{ parts: [1, 2] }, { parts: [3] }];
const sums = [];
for await (const s of items.map(async (item) => { let t = 0; for (const x of item.parts) t += x; return t; })) sums.push(s);
return sums;

// @program await-ambiguous-operands
const a = await (async () => 7)();
let x = 1;
x += await (2);
const b = await [1, 2];
const c = await { k: 1 };
return [a, x, b, c, await -1, await `t`];

// @program iterator-closing-break-continue-throw
const log = [];
const make = (n) => ({
  i: 0,
  [Symbol.iterator]() { return this; },
  next() { return { value: this.i, done: this.i++ >= n }; },
  return() { log.push("return " + this.i); return {}; },
});
for (const x of make(5)) { if (x === 1) continue; log.push(x); if (x === 2) break; }
try { for (const x of make(5)) { if (x === 1) throw new Error("out"); } } catch (e) { log.push(e.message); }
outer: for (const a of [1, 2]) { for (const b of make(3)) { log.push("in " + a + b); continue outer; } }
for (const x of make(2)) log.push("all " + x);
function f() { for (const x of make(3)) return x; }
log.push("f " + f());
return log;
// @program async-function-as-then-handler-and-executor
// An async function given straight to then/catch, and an async executor (a common mistake
// that works in node), settle as in node, in the same microtask order.
const log = [];
const a = await Promise.resolve(1).then(async (v) => v + 1);
const b = await Promise.reject(new Error("x")).catch(async (e) => e.message + "!");
const c = await new Promise(async (resolve) => { await null; resolve(5); });
const d = new Promise(async (resolve) => resolve(6));
const p = Promise.resolve(1).then(async (v) => { log.push("a"); await null; log.push("b"); return v + 1; });
Promise.resolve().then(() => log.push("x")).then(() => log.push("y")).then(() => log.push("z"));
const e = await p;
const f = await Promise.all([1, 2].map((n) => Promise.resolve(n).then(async (m) => m * 10)));
return { a, b, c, d: [d instanceof Promise, await d], e, log, f };
