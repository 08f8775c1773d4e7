// Realistic agent programs over URLs, bytes, text encoding, iterators and control flow.

// @program url-build-and-parse-query
const base = new URL("https://api.example.com/v2/search?q=old&page=1");
base.searchParams.set("q", "rust async & more");
base.searchParams.append("tag", "a b");
base.searchParams.append("tag", "c/d");
base.searchParams.delete("page");
base.hash = "results";
console.log(base.href, base.search, base.searchParams.getAll("tag"), [...base.searchParams.keys()]);
const u = new URL("../other/path?x=1#frag", "https://h.io/a/b/c");
console.log(u.toString(), u.pathname, u.origin, u.host, u.protocol);
const params = Object.fromEntries(new URLSearchParams("a=1&b=two%20words&c=&d=%E2%9C%93"));
console.log(params, new URLSearchParams({ x: "1", y: "ä ö" }).toString());
console.log(URL.canParse("nope"), URL.canParse("mailto:x@y.z"), encodeURIComponent("a b&c=d/é"), decodeURIComponent("%F0%9F%98%80"), encodeURI("https://x.y/a b?q=é"));
return { href: base.href, params };

// @program text-encoder-bytes-and-base64
const enc = new TextEncoder();
const bytes = enc.encode("héllo ✓ 😀");
console.log(bytes.length, bytes, Array.from(bytes.slice(0, 4)));
const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
console.log(hex);
const dec = new TextDecoder();
console.log(dec.decode(bytes), dec.decode(bytes.subarray(0, 2)), dec.decode(new Uint8Array([0xff, 0x41])));
const b64 = btoa(String.fromCharCode(...enc.encode("binary ✓")));
console.log(b64, new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
const u8 = new Uint8Array(8);
u8.set([1, 2, 3], 2);
u8[7] = 300;
console.log(u8, u8.reduce((a, b) => a + b, 0), u8.indexOf(3), u8.includes(44), [...u8.entries()].slice(0, 3));
return { hex, b64 };

// @program generator-pipelines
function* range(start, end, step = 1) { for (let i = start; i < end; i += step) yield i; }
function* map(it, f) { for (const x of it) yield f(x); }
function* filter(it, p) { for (const x of it) if (p(x)) yield x; }
function* take(it, n) { if (n <= 0) return; for (const x of it) { yield x; if (--n <= 0) return; } }
function* naturals() { let n = 0; while (true) yield n++; }
const evensSquared = [...take(map(filter(naturals(), (n) => n % 2 === 0), (n) => n * n), 5)];
const gen = range(0, 10, 3);
console.log(evensSquared, [...gen], [...gen], Array.from(range(1, 4), (x) => x * 10));
function* chunks(arr, n) { for (let i = 0; i < arr.length; i += n) yield arr.slice(i, i + n); }
console.log([...chunks([1, 2, 3, 4, 5], 2)]);
const it = range(0, 3);
console.log(it.next(), it.next(), it.next(), it.next(), typeof it[Symbol.iterator], it[Symbol.iterator]() === it);
function* withReturn() { const x = yield 1; console.log("got", x); try { yield 2; } finally { console.log("cleanup"); } return 3; }
const w = withReturn();
console.log(w.next(), w.next("hello"), w.return(9), w.next());
return evensSquared;

// @program custom-iterables-and-entries
class Matrix {
  constructor(rows) { this.rows = rows; }
  *[Symbol.iterator]() { for (const r of this.rows) yield* r; }
  *cells() { for (const [i, r] of this.rows.entries()) for (const [j, v] of r.entries()) yield { i, j, v }; }
  get size() { return [this.rows.length, this.rows[0]?.length ?? 0]; }
}
const m = new Matrix([[1, 2, 3], [4, 5, 6]]);
console.log([...m], Math.max(...m), m.size, [...m.cells()].filter((c) => c.v % 2 === 0));
const [first, second, ...rest] = m;
console.log(first, second, rest);
const iterable = { from: 1, to: 4, [Symbol.iterator]() { let c = this.from; const t = this.to; return { next: () => (c <= t ? { value: c++, done: false } : { value: undefined, done: true }), [Symbol.iterator]() { return this; } }; } };
console.log([...iterable], Array.from(iterable).map((x) => x * 2), new Set(iterable).size, Object.fromEntries([...iterable].map((x) => [`k${x}`, x])));
return [...m.cells()].length;

// @program labelled-loops-search-grid
const grid = [
  [".", ".", "#", "."],
  [".", "#", ".", "."],
  [".", ".", ".", "X"],
  ["#", ".", ".", "."],
];
let found = null;
let visited = 0;
search: for (let r = 0; r < grid.length; r++) {
  for (let c = 0; c < grid[r].length; c++) {
    visited++;
    if (grid[r][c] === "#") continue search;
    if (grid[r][c] === "X") { found = { r, c }; break search; }
  }
}
const counts = {};
rows: for (const row of grid) {
  for (const cell of row) {
    if (cell === "X") { counts.stopped = true; break rows; }
    counts[cell] = (counts[cell] ?? 0) + 1;
  }
}
let i = 0;
block: { if (i === 0) break block; i = 99; }
console.log(found, visited, counts, i);
return { found, visited, counts };

// @program optional-chaining-and-nullish-assign
const data = { user: { profile: { name: "Ann", tags: ["x"] }, greet() { return `hi ${this.profile.name}`; } }, list: null };
const settings = { theme: null, size: 0, lang: undefined };
settings.theme ??= "dark";
settings.size ||= 12;
settings.lang ??= "en";
settings.debug &&= "never";
const counters = {};
for (const w of "a b a c b a".split(" ")) counters[w] ??= 0, counters[w]++;
console.log(data.user?.profile?.name, data.user?.missing?.deep, data.list?.[0], data.user?.greet?.(), data.user?.nope?.(), data?.["user"]?.profile.tags?.at?.(-1));
console.log(settings, counters, null ?? 0 ?? 1, 0 || null || "x", "" ?? "fallback", (null || undefined) ?? "both");
const deep = { a: { b: { c: { d: 1 } } } };
const path = (o, p) => p.split(".").reduce((x, k) => x?.[k], o);
console.log(path(deep, "a.b.c.d"), path(deep, "a.x.c"), path(null, "a"));
return settings;

// @program map-set-utilities
const a = new Set([1, 2, 3, 4]);
const b = new Set([3, 4, 5]);
const union = new Set([...a, ...b]);
const inter = new Set([...a].filter((x) => b.has(x)));
const diff = new Set([...a].filter((x) => !b.has(x)));
console.log(union, inter, diff, [...union].sort((x, y) => y - x));
const m = new Map(Object.entries({ b: 2, a: 1, c: 3 }));
const sortedMap = new Map([...m].sort(([k1], [k2]) => k1.localeCompare(k2)));
const inverted = new Map([...m].map(([k, v]) => [v, k]));
console.log(sortedMap, inverted, Object.fromEntries(sortedMap), [...m.values()].reduce((s, v) => s + v, 0));
m.forEach((v, k, map) => { if (v > 1) map.set(k, v * 10); });
console.log(m, m.size, m.has("a"), m.delete("zz"), [...m.keys()].join("|"));
const objKey = { id: 1 };
const byObj = new Map([[objKey, "first"]]);
console.log(byObj.get(objKey), byObj.get({ id: 1 }), new Map([[NaN, "nan"]]).get(NaN), new Set([0, -0, NaN, NaN]).size);
return Object.fromEntries(m);
