// Realistic agent programs with async control flow over local async functions.

// @program fetch-all-with-retries-and-fallback
let attempts = {};
async function fakeFetch(id) {
  attempts[id] = (attempts[id] ?? 0) + 1;
  await null;
  if (id % 3 === 0 && attempts[id] < 3) throw new Error(`transient failure for ${id}`);
  if (id === 5) throw Object.assign(new Error("not found"), { status: 404 });
  return { id, value: id * 10 };
}
async function withRetry(fn, tries = 3) {
  let last;
  for (let i = 0; i < tries; i++) {
    try { return await fn(); } catch (e) { last = e; if (e.status === 404) break; }
  }
  throw new Error(`gave up after retries: ${last.message}`, { cause: last });
}
const ids = [1, 2, 3, 4, 5, 6];
const settled = await Promise.allSettled(ids.map((id) => withRetry(() => fakeFetch(id))));
const ok = settled.filter((s) => s.status === "fulfilled").map((s) => s.value);
const failed = settled.filter((s) => s.status === "rejected").map((s) => ({ msg: s.reason.message, cause: s.reason.cause?.status }));
console.log(ok, failed, attempts);
console.log(settled[4]);
return { ok: ok.map((o) => o.id), failed };

// @program concurrency-limited-pool
const order = [];
const sleepTicks = async (n) => { for (let i = 0; i < n; i++) await null; };
async function task(i) { order.push(`start ${i}`); await sleepTicks((i * 7) % 5 + 1); order.push(`end ${i}`); return i * i; }
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async (w) => { while (next < items.length) { const idx = next++; results[idx] = await fn(items[idx]); } return w; };
  const workers = await Promise.all(Array.from({ length: limit }, (_, w) => worker(w)));
  return { results, workers };
}
const out = await pool([0, 1, 2, 3, 4, 5, 6], 3, task);
console.log(order.join(", "));
return out;

// @program race-timeout-pattern
const never = new Promise(() => {});
const slow = async () => { for (let i = 0; i < 10; i++) await null; return "slow"; };
const fast = async () => { await null; return "fast"; };
const timeout = (ticks, label) => (async () => { for (let i = 0; i < ticks; i++) await null; throw new Error(`timeout: ${label}`); })();
const r1 = await Promise.race([slow(), fast()]);
const r2 = await Promise.race([slow(), timeout(3, "slow op")]).catch((e) => e.message);
const r3 = await Promise.any([Promise.reject(new Error("a")), fast(), never]);
const r4 = await Promise.any([Promise.reject(new Error("x")), Promise.reject(new TypeError("y"))]).catch((e) => [e.constructor.name, e.message, e.errors.map((x) => x.message)]);
const r5 = await Promise.race([]).constructor.name;
console.log(r1, r2, r3, r4, r5);
return [r1, r2, r3, r4];

// @program sequential-vs-parallel-order
const log = [];
const step = async (name, ticks) => { log.push(`+${name}`); for (let i = 0; i < ticks; i++) await null; log.push(`-${name}`); return name; };
for (const [n, t] of [["a", 2], ["b", 1]]) await step(n, t);
log.push("|");
await Promise.all([step("c", 3), step("d", 1), step("e", 2)]);
log.push("|");
const results = [];
for await (const r of [step("f", 1), step("g", 0)]) results.push(r);
console.log(log.join(" "));
const reduced = await [1, 2, 3].reduce(async (accP, x) => (await accP) + x, Promise.resolve(0));
return { log, results, reduced };

// @program async-generator-pagination
async function* pages(total, size) {
  for (let offset = 0; offset < total; offset += size) {
    await null;
    yield { offset, items: Array.from({ length: Math.min(size, total - offset) }, (_, i) => `item${offset + i}`) };
  }
}
const collected = [];
for await (const page of pages(7, 3)) { console.log(`page at ${page.offset}: ${page.items.length}`); collected.push(...page.items); if (collected.length > 5) break; }
async function take(it, n) { const out = []; for await (const x of it) { out.push(x); if (out.length === n) break; } return out; }
const firstTwo = await take(pages(100, 10), 2);
return { collected, firstTwo: firstTwo.map((p) => p.offset) };

// @program promise-chaining-with-finally-and-errors
const trace = [];
const result = await Promise.resolve(1)
  .then((v) => { trace.push(`then1 ${v}`); return v + 1; })
  .then((v) => { trace.push(`then2 ${v}`); throw new RangeError(`too big: ${v}`); })
  .then(() => trace.push("skipped"))
  .catch((e) => { trace.push(`catch ${e.name}`); return "recovered"; })
  .finally(() => { trace.push("finally"); return "ignored"; })
  .then((v) => { trace.push(`after ${v}`); return v; });
let unhandled;
try { await Promise.reject(new Error("direct")); } catch (e) { unhandled = e.message; }
const viaAwait = await (async () => { try { return await Promise.reject(new Error("inner")); } catch (e) { return `caught ${e.message}`; } finally { trace.push("inner finally"); } })();
console.log(trace, result, unhandled, viaAwait);
return trace;

// @program async-class-methods-and-this
class Repo {
  #store = new Map();
  async save(item) { await null; this.#store.set(item.id, { ...item, savedAt: this.#store.size }); return this; }
  async get(id) { await null; const v = this.#store.get(id); if (!v) throw new Error(`no item ${id}`); return v; }
  async *all() { for (const v of this.#store.values()) { await null; yield v; } }
  static async create(items) { const r = new Repo(); for (const i of items) await r.save(i); return r; }
}
const repo = await Repo.create([{ id: "x", n: 1 }, { id: "y", n: 2 }]);
const both = await Promise.all(["x", "y"].map((id) => repo.get(id)));
const missing = await repo.get("z").catch((e) => e.message);
const all = [];
for await (const v of repo.all()) all.push(v.id);
const bound = repo.get;
const unboundErr = await bound("x").catch((e) => e.constructor.name);
console.log(both, missing, all, unboundErr);
return { both, missing, all };

// @program microtask-ordering-mixed
const out = [];
Promise.resolve().then(() => out.push("micro1"));
Promise.resolve().then(() => out.push("then1")).then(() => out.push("then2"));
(async () => { out.push("async-sync-part"); await undefined; out.push("async-after-await"); })();
Promise.resolve().then(() => out.push("micro2"));
out.push("sync");
await null;
out.push("body-after-await");
await Promise.resolve();
await Promise.resolve();
return out;
