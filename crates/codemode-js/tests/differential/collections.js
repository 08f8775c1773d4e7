// Map, Set, WeakMap, WeakSet: insertion order, SameValueZero keys, iteration, conversion.

// @program map-basics-and-order
const m = new Map();
m.set("b", 1).set("a", 2).set(1, "num").set("1", "str");
m.delete("b");
m.set("b", 3);
return [m.size, [...m.keys()], m.get(1), m.get("1"), m.has("zz"), m.get("zz")];

// @program map-object-keys-identity
const k1 = { id: 1 }, k2 = { id: 1 };
const m = new Map([[k1, "first"], [k2, "second"]]);
return [m.size, m.get(k1), m.get({ id: 1 }), m.has(k2)];

// @program map-nan-and-zero-keys
const m = new Map([[NaN, "nan"], [0, "zero"]]);
return [m.get(NaN), m.get(-0), m.size, [...m.keys()].map(String)];

// @program map-iteration-forms
const m = new Map([["x", 1], ["y", 2]]);
const out = [];
m.forEach((v, k, map) => out.push(`${k}=${v}/${map.size}`));
for (const [k, v] of m) out.push(k + v);
return [out, [...m.entries()], [...m.values()], Array.from(m)];

// @program map-from-object-and-back
const obj = { a: 1, b: 2 };
const m = new Map(Object.entries(obj));
m.set("c", 3);
return Object.fromEntries(m);

// @program map-counting-words
const counts = new Map();
for (const w of "a b a c b a".split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1);
return [...counts].sort((x, y) => y[1] - x[1]);

// @program map-mutation-during-iteration
const m = new Map([[1, "a"], [2, "b"], [3, "c"]]);
const seen = [];
for (const [k] of m) {
  seen.push(k);
  if (k === 1) { m.delete(2); m.set(4, "d"); }
}
return seen;

// @program set-basics
const s = new Set([3, 1, 3, 2, 1]);
s.add(4).add(1);
s.delete(3);
return [s.size, [...s], s.has(2), s.has("2")];

// @program set-operations-manual
const a = new Set([1, 2, 3, 4]), b = new Set([3, 4, 5]);
const union = new Set([...a, ...b]);
const inter = [...a].filter((x) => b.has(x));
const diff = [...a].filter((x) => !b.has(x));
return { union: [...union], inter, diff, subset: [3, 4].every((x) => a.has(x)) };

// @program set-dedupe-strings-order
const tags = ["js", "rust", "js", "go", "rust", "zig"];
return [...new Set(tags)].join(",");

// @program set-foreach-args
const s = new Set(["x"]);
const out = [];
s.forEach((v, k, set) => out.push([v, k, set === s]));
return [out, [...s.entries()], [...s.keys()]];

// @program weakmap-private-data
const priv = new WeakMap();
function make(name) { const o = {}; priv.set(o, { name }); return o; }
const o1 = make("one");
const o2 = make("two");
return [priv.get(o1).name, priv.has(o2), priv.has({}), priv.delete(o2), priv.has(o2)];

// @program weakmap-invalid-key
try {
  new WeakMap().set("str", 1);
} catch (e) {
  return e.name;
}

// @program weakset-tracking
const visited = new WeakSet();
const nodes = [{ id: 1 }, { id: 2 }];
nodes[1].next = nodes[0];
nodes[0].next = nodes[1];
let n = nodes[0], steps = 0;
while (n && !visited.has(n)) { visited.add(n); n = n.next; steps++; }
return steps;

// @program map-size-and-clear
const m = new Map([[1, 1], [2, 2]]);
const s = new Set([1]);
m.clear();
s.clear();
return [m.size, s.size, [...m], typeof Map.prototype.clear];

// @program map-to-string-tags
return [String(new Map()), String(new Set()), Object.prototype.toString.call(new WeakMap()), new Map()[Symbol.toStringTag]];

// @program map-keys-iterator-next
const it = new Map([["a", 1], ["b", 2]]).keys();
return [it.next(), it.next(), it.next(), typeof it[Symbol.iterator]];

// @program lru-cache-with-map
class LRU {
  constructor(n) { this.n = n; this.m = new Map(); }
  get(k) { if (!this.m.has(k)) return undefined; const v = this.m.get(k); this.m.delete(k); this.m.set(k, v); return v; }
  put(k, v) { this.m.delete(k); this.m.set(k, v); if (this.m.size > this.n) this.m.delete(this.m.keys().next().value); }
}
const c = new LRU(2);
c.put("a", 1); c.put("b", 2); c.get("a"); c.put("c", 3);
return [...c.m.keys()];

// @program graph-bfs-with-map-set
const edges = [["a", "b"], ["a", "c"], ["b", "d"], ["c", "d"], ["d", "e"]];
const adj = new Map();
for (const [x, y] of edges) { if (!adj.has(x)) adj.set(x, []); adj.get(x).push(y); }
const dist = new Map([["a", 0]]);
const queue = ["a"];
while (queue.length) {
  const cur = queue.shift();
  for (const nxt of adj.get(cur) ?? []) if (!dist.has(nxt)) { dist.set(nxt, dist.get(cur) + 1); queue.push(nxt); }
}
return Object.fromEntries(dist);

// @program map-constructor-errors
const out = [];
for (const bad of [[1], "ab", 5]) {
  try { new Map(bad); out.push("ok"); } catch (e) { out.push(e.name); }
}
try { Map(); } catch (e) { out.push(e.name); }
return out;

// @program set-from-string-and-array-from
return [Array.from(new Set("mississippi")).join(""), new Set().size, Array.from(new Map([[1, 2]]).values())];

// @program map-in-json-and-spread
const m = new Map([["k", "v"]]);
return [JSON.stringify(m), JSON.stringify([...m]), JSON.stringify({ ...m }), Object.keys(m)];

// @program constructors-take-generators-and-subclass-adders
function* pairs() { yield ["a", 1]; yield ["b", 2]; }
function* vals() { yield 1; yield 2; yield 2; }
const m = new Map(pairs()), s = new Set(vals());
class Counting extends Map { constructor(it) { super(it); } set(k, v) { this.n = (this.n || 0) + 1; return super.set(k, v * 10); } }
const c = new Counting([["x", 1], ["y", 2]]);
let closed = 0;
const it = { [Symbol.iterator]() { return { i: 0, next() { return this.i++ < 3 ? { value: this.i === 2 ? 5 : ["k", this.i], done: false } : { done: true }; }, return() { closed++; return {}; } }; } };
let err; try { new Map(it); } catch (e) { err = e.message; }
const ws = new WeakSet((function* () { yield {}; })());
const wm = new WeakMap((function* () { const k = {}; yield [k, 1]; })());
return [[...m], [...s], [...c], c.n, err, closed, ws instanceof WeakSet, wm instanceof WeakMap, new Map([[1, 2]]).get(1), new Set("aba").size];
