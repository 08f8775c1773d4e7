// Sorting: default order, comparators, stability, multi-key, toSorted, edge values.

// @program default-sort-is-string-order
return [[10, 9, 1, 100, 25].sort(), ["b", "a", "C", "B"].sort(), [true, false, null, undefined, "x", 2].sort()];

// @program numeric-comparator
return [[10, 9, 1, 100, 25, -3, 0].sort((a, b) => a - b), [3, 1, 2].sort((a, b) => b - a)];

// @program stable-sort-records
const rows = [
  { n: "a", g: 2 }, { n: "b", g: 1 }, { n: "c", g: 2 }, { n: "d", g: 1 }, { n: "e", g: 3 },
  { n: "f", g: 1 }, { n: "g", g: 2 }, { n: "h", g: 3 }, { n: "i", g: 1 }, { n: "j", g: 2 },
  { n: "k", g: 1 }, { n: "l", g: 3 },
];
return rows.sort((x, y) => x.g - y.g).map((r) => r.n).join("");

// @program multi-key-sort
const emps = [
  { dept: "eng", name: "zoe", salary: 100 }, { dept: "ops", name: "amy", salary: 90 },
  { dept: "eng", name: "bob", salary: 120 }, { dept: "eng", name: "cal", salary: 100 },
  { dept: "ops", name: "dan", salary: 95 },
];
emps.sort((a, b) => (a.dept < b.dept ? -1 : a.dept > b.dept ? 1 : b.salary - a.salary || (a.name < b.name ? -1 : 1)));
return emps.map((e) => `${e.dept}/${e.name}/${e.salary}`);

// @program to-sorted-does-not-mutate
const orig = [3, 1, 2];
const sorted = orig.toSorted();
const rev = orig.toReversed();
return [orig, sorted, rev, orig.toSorted((a, b) => b - a)];

// @program sort-undefined-and-holes-last
const arr = [3, undefined, 1, , 2];
arr.sort((a, b) => a - b);
return [arr.length, 3 in arr, 4 in arr, arr.slice(0, 3), arr[3]];

// @program sort-strings-by-length-then-alpha
const words = ["pear", "fig", "banana", "kiwi", "apple", "date"];
return words.sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));

// @program sort-with-boolean-comparator-quirk
const xs = [5, 1, 4, 2, 3];
return xs.slice().sort((a, b) => (a > b ? 1 : -1));

// @program sort-objects-by-date-string
const logs = [{ at: "2024-03-01T10:00:00Z", m: "c" }, { at: "2023-12-31T23:59:59Z", m: "a" }, { at: "2024-01-15T08:30:00Z", m: "b" }];
return logs.sort((a, b) => a.at.localeCompare(b.at)).map((l) => l.m);

// @program sort-comparator-call-log-count-ok
let calls = 0;
const big = Array.from({ length: 200 }, (_, i) => (i * 37) % 200);
big.sort((a, b) => { calls++; return a - b; });
return [big.slice(0, 5), big.slice(-3), calls > 0, big.every((v, i) => i === 0 || big[i - 1] <= v)];

// @program sort-returns-same-array
const a = [2, 1];
const r = a.sort();
return [r === a, a];

// @program sort-mixed-numbers-strings
return [[10, "9", 8, "100"].sort(), [10, "9", 8, "100"].sort((a, b) => a - b)];

// @program sort-by-key-helper
const by = (...keys) => (a, b) => {
  for (const k of keys) {
    const desc = k.startsWith("-");
    const f = desc ? k.slice(1) : k;
    if (a[f] !== b[f]) return (a[f] < b[f] ? -1 : 1) * (desc ? -1 : 1);
  }
  return 0;
};
const items = [{ t: "x", p: 2, q: 1 }, { t: "y", p: 1, q: 5 }, { t: "z", p: 2, q: 3 }, { t: "w", p: 1, q: 5 }];
return items.sort(by("p", "-q", "t")).map((i) => i.t);

// @program rank-with-ties
const scores = [88, 92, 88, 75, 92, 100];
const sortedDesc = [...scores].sort((a, b) => b - a);
return scores.map((s) => sortedDesc.indexOf(s) + 1);

// @program sort-nan-comparator-treated-as-zero
const v = [3, 2, 1];
v.sort(() => NaN);
return v;

// @program sort-array-like-object
const obj = { 0: "c", 1: "a", 2: "b", length: 3 };
Array.prototype.sort.call(obj);
return [obj[0], obj[1], obj[2]];

// @program reverse-and-in-place
const a = [1, 2, 3, 4];
a.reverse();
const b = ["x"];
b.reverse();
return [a, b, [].reverse()];

// @program custom-order-lookup
const order = ["critical", "high", "medium", "low"];
const alerts = [{ s: "low" }, { s: "critical" }, { s: "medium" }, { s: "high" }, { s: "critical" }];
return alerts.sort((a, b) => order.indexOf(a.s) - order.indexOf(b.s)).map((a) => a.s[0]).join("");

// @program sort-throwing-comparator
try {
  [3, 2, 1].sort(() => { throw new Error("cmp failed"); });
} catch (e) {
  return e.message;
}

// @program binary-search-on-sorted
const sorted = [1, 3, 5, 7, 9, 11];
function bs(xs, t) {
  let lo = 0, hi = xs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] === t) return mid;
    if (xs[mid] < t) lo = mid + 1; else hi = mid - 1;
  }
  return -(lo + 1);
}
return [bs(sorted, 7), bs(sorted, 1), bs(sorted, 4), bs(sorted, 12)];
// @program default-sort-primitives-stable-and-large
// Equal ToString keys (1 and "1", -0 and 0, null and "null") keep their order; a large list of
// generated keys sorts as node sorts it.
const mixed = [1, "1", "b", null, "null", -0, 0, "0", true, "true", 1e21, "1e+21", NaN, "NaN", undefined, "", "\u00e9", "\ud83d\ude00", "\uffff"];
const tagged = mixed.map((v, i) => [String(v), i]);
mixed.sort();
const keys = [];
let x = 7;
for (let i = 0; i < 5000; i++) { x = (x * 48271) % 2147483647; keys.push(i % 3 ? "k" + (x % 1000) : x % 977); }
const sortedKeys = keys.toSorted();
let sum = 0;
for (let i = 0; i < sortedKeys.length; i += 97) sum = (sum * 31 + String(sortedKeys[i]).length + i) % 1000003;
return { mixed: mixed.map(v => typeof v + ":" + String(v)), first: sortedKeys.slice(0, 5), last: sortedKeys.slice(-3), sum, orig: keys.slice(0, 3), tagged: tagged.length };
// @program default-sort-objects-call-to-string
const log = [];
const o = (n) => ({ toString() { log.push(n); return "k" + n; } });
const a = [o(3), "k2", o(1)];
a.sort();
return { order: a.map(String), calls: log.length > 0 };
// @program comparator-sort-on-runs-stable
// Sorted, reversed, few-runs, many-duplicates and random inputs of 3,000 records: the same
// permutation as node (every comparator here defines a total preorder; ties keep input order).
const N = 3000;
const mk = (f) => Array.from({ length: N }, (_, i) => ({ id: i, v: f(i) }));
const inputs = {
  random: mk(i => (i * 7919) % N), sorted: mk(i => i), reversed: mk(i => N - i),
  plateaus: mk(i => Math.floor(i / 100)), fewRuns: mk(i => (i % 300) * 10 + Math.floor(i / 300)),
  dup: mk(i => i % 7), sawtooth: mk(i => i % 37 < 20 ? i % 37 : 40 - (i % 37)),
};
const out = {};
for (const [name, a] of Object.entries(inputs)) {
  a.sort((p, q) => p.v - q.v);
  let h = 0;
  for (let i = 0; i < N; i++) h = (h * 31 + a[i].id) % 1000003;
  out[name] = h;
}
const words = "the quick brown fox jumps over the lazy dog again and again".split(" ");
out.words = words.toSorted((a, b) => a.length - b.length).join(",");
out.small = [[3], [1, 2], [2, 1], []].map(x => x.toSorted((a, b) => b - a));
return out;
