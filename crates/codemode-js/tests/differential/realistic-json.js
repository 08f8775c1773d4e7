// Realistic agent programs over JSON: round trips, replacers, revivers, indentation, safe parsing.

// @program json-replacer-redact-and-indent
const payload = { user: "ann", password: "hunter2", token: "abc", nested: { apiKey: "k", keep: [1, 2, { secret: 1 }] }, when: new Date(0), n: NaN, u: undefined, f() {} };
const redacted = JSON.stringify(payload, (k, v) => (/password|token|secret|apikey/i.test(k) ? "[REDACTED]" : v), 2);
console.log(redacted);
console.log(JSON.stringify(payload, ["user", "nested", "keep"]));
console.log(JSON.stringify(payload, null, "\t"));
console.log(JSON.stringify([undefined, function () {}, Symbol("x"), NaN, -0, Infinity]));
console.log(JSON.stringify({ a: [] , b: {}, c: [[]] }, null, 4));
console.log(JSON.stringify("str"), JSON.stringify(42), JSON.stringify(null), JSON.stringify(undefined), JSON.stringify(() => 1));
return JSON.parse(redacted);

// @program json-reviver-dates-and-numbers
const text = '{"id":"42","created":"2024-01-02T03:04:05.000Z","items":[{"price":"9.99","qty":2},{"price":"1.5","qty":"3"}],"meta":{"deleted":null,"tags":["a"]}}';
const parsed = JSON.parse(text, function (k, v) {
  if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)) return new Date(v);
  if (k === "price" || k === "qty" || k === "id") return Number(v);
  if (v === null) return undefined;
  return v;
});
console.log(parsed, parsed.created instanceof Date, parsed.meta);
const order = [];
JSON.parse('{"a":{"b":1,"c":[2,3]},"d":4}', (k, v) => { order.push(k); return v; });
console.log(order);
return { total: parsed.items.reduce((s, i) => s + i.price * i.qty, 0), created: parsed.created.getUTCHours() };

// @program json-safe-parse-errors
const bad = ["{", '{"a":1,}', "[1,2", "undefined", "{'a':1}", '{"a":01}', "", "NaN", '"unterminated', "[1]x", '{"a":1}{"b":2}', "tru", "  {} ", '"\\u00e9"', '{"__proto__":{"x":1}}'];
const results = bad.map((s) => {
  try { const v = JSON.parse(s); return ["ok", JSON.stringify(v)]; }
  catch (e) { return [e.name, e.message]; }
});
for (const r of results) console.log(r.join(" | "));
const proto = JSON.parse('{"__proto__":{"x":1}}');
console.log(Object.keys(proto), proto.x, Object.getPrototypeOf(proto) === Object.prototype);
for (const v of [undefined, {}, NaN, Infinity, -Infinity, "[object Object] ", new Map()]) {
  try { JSON.parse(v); } catch (e) { console.log(e.message); }
}
return results.map((r) => r[0]);

// @program json-tojson-and-class-serialization
class Money {
  constructor(amount, currency) { this.amount = amount; this.currency = currency; }
  toJSON() { return `${this.amount.toFixed(2)} ${this.currency}`; }
}
class Order {
  #internal = "hidden";
  constructor(id, lines) { this.id = id; this.lines = lines; this.createdAt = new Date(Date.UTC(2024, 0, 1)); }
  get total() { return new Money(this.lines.reduce((s, l) => s + l.price.amount, 0), "USD"); }
  toJSON(key) { return { ...this, total: this.total, key }; }
}
const o = new Order(7, [{ sku: "a", price: new Money(3.5, "USD") }, { sku: "b", price: new Money(1.25, "USD") }]);
console.log(JSON.stringify(o));
console.log(JSON.stringify({ order: o }, null, 1));
console.log(JSON.stringify([o]));
console.log(JSON.stringify(new Map([["a", 1]])), JSON.stringify(new Set([1])), JSON.stringify(new Uint8Array([1, 2])), JSON.stringify(/re/g), JSON.stringify(new Error("e")));
return o;

// @program json-deep-equal-and-diff
const a = { id: 1, tags: ["x", "y"], meta: { v: 2, nested: { z: [1, { q: true }] } } };
const b = structuredClone(a);
b.meta.nested.z[1].q = false;
b.tags.push("z");
const deepEqual = (x, y) => JSON.stringify(x) === JSON.stringify(y);
function diff(x, y, path = "") {
  if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return x === y ? [] : [`${path || "."}: ${JSON.stringify(x)} -> ${JSON.stringify(y)}`];
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].flatMap((k) => diff(x[k], y[k], Array.isArray(x) ? `${path}[${k}]` : `${path}.${k}`));
}
console.log(deepEqual(a, structuredClone(a)), deepEqual(a, b));
console.log(diff(a, b));
return diff(a, b);

// @program json-stable-stringify-sorted-keys
const obj = { z: 1, a: { y: [3, { d: 1, c: 2 }], b: null }, m: "s", 10: "ten", 2: "two" };
const sortKeys = (v) => (Array.isArray(v) ? v.map(sortKeys) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])])) : v);
console.log(JSON.stringify(sortKeys(obj)));
console.log(JSON.stringify(obj));
const stable = JSON.stringify(obj, (k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0))) : v), 2);
console.log(stable);
return sortKeys(obj);

// @program json-unicode-and-escapes
const s = { emoji: "😀", lone: "\ud800", ctrl: "\u0001\b\f\n\r\t", quote: '"\\/', sep: "\u2028\u2029", nul: "\0", latin: "café" };
const text = JSON.stringify(s);
console.log(text);
console.log(JSON.parse(text).emoji === s.emoji, JSON.parse('"\\ud83d\\ude00"'), JSON.parse('"\\/"'));
console.log(JSON.stringify("\u007f\u0080\u00ff"), JSON.stringify({ "key\nline": 1 }));
return JSON.parse(text).latin.length;

// @program json-large-numbers-and-precision
const text = '{"big":12345678901234567890,"small":1e-400,"neg":-0,"exp":1E+3,"frac":0.1000000000000000055511151231257827,"int":9007199254740993}';
const v = JSON.parse(text);
console.log(v, Object.is(v.neg, -0));
console.log(JSON.stringify(v));
console.log(JSON.stringify({ a: 1e21, b: 1e-7, c: 123456789012345680000, d: 0.000001, e: 5e-324 }));
return v;

// @program json-nested-tool-output-pipeline
const toolOutput = JSON.stringify({
  results: [
    { repo: "a/b", stars: 120, topics: ["cli", "rust"], updated: "2024-04-01T00:00:00Z" },
    { repo: "c/d", stars: 5, topics: [], updated: "2023-01-01T00:00:00Z" },
    { repo: "e/f", stars: 980, topics: ["web"], updated: "2024-05-20T00:00:00Z", archived: true },
  ],
  total: 3,
});
const { results, total } = JSON.parse(toolOutput);
const active = results.filter((r) => !r.archived);
const report = {
  total, active: active.length,
  byTopic: active.flatMap((r) => r.topics).reduce((m, t) => ({ ...m, [t]: (m[t] ?? 0) + 1 }), {}),
  freshest: active.toSorted((x, y) => y.updated.localeCompare(x.updated))[0]?.repo,
  starsFmt: results.map((r) => `${r.repo}: ${r.stars.toLocaleString("en-US")}★`),
};
console.log(JSON.stringify(report, null, 2));
return report;

// @program json-circular-structure-messages
const tryIt = (label, f) => { try { console.log(label, f()); } catch (e) { console.log(label, `${e.name}: ${e.message}`); } };
const self = { name: "self" }; self.me = self;
tryIt("self", () => JSON.stringify(self));
const parent = { name: "p", children: [] };
const child = { name: "c", parent };
parent.children.push({ wrap: child });
tryIt("deep", () => JSON.stringify({ root: parent }));
const a = [1, 2]; a.push(a);
tryIt("array", () => JSON.stringify(a));
class Node { constructor(v) { this.v = v; this.next = null; } }
const n1 = new Node(1), n2 = new Node(2), n3 = new Node(3), n4 = new Node(4), n5 = new Node(5);
n1.next = n2; n2.next = n3; n3.next = n4; n4.next = n5; n5.next = n1;
tryIt("long", () => JSON.stringify(n1));
tryIt("replacer", () => JSON.stringify(self, (k, v) => v));
tryIt("toJSON", () => JSON.stringify({ x: { toJSON() { return self; } } }));
tryIt("indent", () => JSON.stringify({ list: [n2] }, null, 2));
const m = new Map(); const holder = { m, o: {} }; holder.o.back = holder;
tryIt("empty-key", () => JSON.stringify({ "": holder }));
const nullProto = Object.create(null); nullProto.loop = nullProto;
tryIt("null-proto", () => JSON.stringify(nullProto));
const e = new Error("x"); e.self = e;
tryIt("error", () => JSON.stringify({ e }));
