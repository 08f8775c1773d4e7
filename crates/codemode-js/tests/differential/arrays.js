// Array methods (ES2023), holes, array-likes, Array.from/of, length semantics.

// @program map-filter-reduce
const xs = [1, 2, 3, 4, 5, 6];
return [xs.map((x) => x * x), xs.filter((x) => x % 2), xs.reduce((a, b) => a + b), xs.reduceRight((acc, x) => acc + x, ""), [].reduce((a, b) => a + b, "init")];

// @program reduce-empty-error
try { [].reduce((a, b) => a + b); } catch (e) { return e.name; }

// @program find-family
const xs = [5, 12, 8, 130, 44];
return [xs.find((x) => x > 10), xs.findIndex((x) => x > 10), xs.findLast((x) => x > 10), xs.findLastIndex((x) => x > 10), xs.find((x) => x > 1000), xs.findIndex((x) => x > 1000)];

// @program some-every-includes-indexof
const xs = [1, 2, NaN, "3"];
return [xs.some((x) => x > 1), xs.every((x) => typeof x === "number"), xs.includes(NaN), xs.indexOf(NaN), xs.includes("3"), xs.indexOf(3), [].every(() => false), [].some(() => true), xs.lastIndexOf(2)];

// @program flat-and-flatmap
const nested = [1, [2, [3, [4, [5]]]]];
return [nested.flat(), nested.flat(2), nested.flat(Infinity), [[1, 2], [3]].flatMap((x) => x), ["a b", "c"].flatMap((s) => s.split(" ")), [1, 2].flatMap((x) => [[x]])];

// @program slice-splice
const a = [1, 2, 3, 4, 5];
const removed = a.splice(1, 2, "x", "y", "z");
const b = [1, 2, 3];
b.splice(-1);
const c = [1, 2, 3];
c.splice(1, 0, 1.5);
return [a, removed, b, c, a.slice(-2), a.slice(1, -1), a.slice(10)];

// @program to-spliced-with-at
const a = [1, 2, 3, 4];
return [a.toSpliced(1, 2), a.toSpliced(1, 0, "n"), a.with(0, "w"), a.with(-1, "last"), a.at(0), a.at(-1), a.at(9), a];

// @program with-out-of-range
try { [1, 2].with(5, 0); } catch (e) { return e.name; }

// @program fill-copywithin
return [new Array(4).fill(0), [1, 2, 3, 4].fill(9, 1, 3), [1, 2, 3, 4, 5].copyWithin(0, 3), [1, 2, 3, 4, 5].copyWithin(1, 0, 2), Array(3).fill().map((_, i) => i)];

// @program join-and-tostring
return [[1, null, undefined, 2].join("-"), [[1, 2], [3]].join(";"), [].join(), ["a"].join(", "), Array(3).join("x"), [1, 2].join(undefined)];

// @program keys-values-entries-iterators
const a = ["a", , "c"];
return [[...a.keys()], [...a.values()], [...a.entries()], Object.keys(a)];

// @program array-from-variants
return [Array.from("abc"), Array.from({ length: 3 }, (_, i) => i * 2), Array.from(new Set([1, 1, 2])), Array.from({ length: 2, 0: "x", 1: "y" }), Array.from([1, 2], function (x) { return x * this.k; }, { k: 10 }), Array.from(new Map([[1, 2]]).keys())];

// @program array-of-and-isarray
return [Array.of(7), Array.of(1, 2, 3), Array(7).length, Array(1, 2), Array.isArray([]), Array.isArray({ length: 0 }), Array.isArray(Array.prototype)];

// @program holes-behaviour
const h = [1, , 3];
const visited = [];
h.forEach((v, i) => visited.push(i));
return [h.length, 1 in h, visited, h.map((x) => x * 2).length, 1 in h.map((x) => x), h.indexOf(undefined), h.includes(undefined), JSON.stringify(h), [...h]];

// @program length-truncation-and-growth
const a = [1, 2, 3, 4, 5];
a.length = 2;
const b = [];
b[4] = "e";
const c = [1, 2, 3];
c.length = 5;
return [a, b.length, Object.keys(b), c.length, 3 in c];

// @program sparse-large-array
const big = new Array(1e7);
big[5e6] = "mid";
return [big.length, big[5e6], Object.keys(big).length, big.indexOf("mid")];

// @program invalid-array-length
const out = [];
for (const f of [() => new Array(-1), () => { const a = []; a.length = 1.5; }, () => new Array(2 ** 32)]) { try { f(); out.push("ok"); } catch (e) { out.push(e.name); } }
return out;

// @program push-pop-shift-unshift
const a = [2];
const r = [a.push(3, 4), a.unshift(0, 1), a.pop(), a.shift(), a, [].pop(), [].shift()];
return r;

// @program concat-spreadable
const a = [1, 2];
const arrayLike = { length: 2, 0: "x", 1: "y", [Symbol.isConcatSpreadable]: true };
return [a.concat(3, [4, [5]]), a.concat(arrayLike), a.concat("str"), a];

// @program generic-methods-on-array-likes
const al = { 0: "a", 1: "b", length: 2 };
return [Array.prototype.map.call(al, (x) => x.toUpperCase()), Array.prototype.join.call(al, "+"), Array.prototype.includes.call("abc", "b"), [].slice.call(al, 1)];

// @program reverse-index-array-methods
const a = [1, 2, 3, 2, 1];
return [a.lastIndexOf(2), a.lastIndexOf(2, 2), a.indexOf(2, -2), a.indexOf(1, 10), a.lastIndexOf(9)];

// @program callback-mutation-during-iteration
const a = [1, 2, 3];
const seen = [];
a.forEach((x, i) => { seen.push(x); if (i === 0) a.push(99); });
const b = [1, 2, 3, 4];
const seenB = [];
b.forEach((x) => { seenB.push(x); b.pop(); });
return [seen, a.length, seenB];

// @program array-destructive-vs-copy
const orig = [3, 1, 2];
const copies = [orig.toSorted(), orig.toReversed(), orig.with(1, 0), orig.toSpliced(0, 1), [...orig].sort(), orig.slice().reverse()];
return [orig, copies];

// @program matrix-ops
const m = [[1, 2, 3], [4, 5, 6]];
const transpose = m[0].map((_, c) => m.map((r) => r[c]));
const mul = (A, B) => A.map((r) => B[0].map((_, j) => r.reduce((s, v, k) => s + v * B[k][j], 0)));
return [transpose, mul(m, transpose)];

// @program range-and-sum-helpers
const range = (a, b, s = 1) => Array.from({ length: Math.max(0, Math.ceil((b - a) / s)) }, (_, i) => a + i * s);
return [range(0, 5), range(1, 10, 3), range(5, 0), range(0, 1, 0.25)];

// @program array-equality-helper
const eq = (a, b) => a.length === b.length && a.every((v, i) => (Array.isArray(v) ? eq(v, b[i]) : Object.is(v, b[i])));
return [eq([1, [2, 3]], [1, [2, 3]]), eq([1, 2], [1, 2, 3]), eq([NaN], [NaN]), eq([0], [-0]), [1] === [1]];

// @program array-includes-from-index-and-negative
return [[1, 2, 3].includes(1, 1), [1, 2, 3].includes(3, -1), [1, 2, 3].includes(1, -10), ["a"].includes("a", 5)];

// @program array-subclass-species-map-filter
class Tagged extends Array {}
const t = Tagged.from([1, 2, 3]);
return [t instanceof Tagged, t.filter((x) => x > 1) instanceof Tagged, t.length, Tagged.of(1).constructor.name];

// @program array-to-string-nested-and-cycle
const a = [1, 2];
a.push(a);
return [String(a), a.join("|")];

// @program array-length-property-descriptor
const d = Object.getOwnPropertyDescriptor([1, 2], "length");
return [d.value, d.writable, d.enumerable, d.configurable];

// @program generic-receivers-of-the-array-natives
const out = [];
const al = { length: 3, 0: "a", 1: "b", 2: "c" };
out.push(Array.prototype.join.call("abc", "-"), [].concat.call("ab").length, Array.prototype.concat.call(al, [1]).length);
const p = { length: 0 }; out.push(Array.prototype.push.call(p, 1, 2), JSON.stringify(p));
const q = { length: 2, 0: "x", 1: "y" }; out.push(Array.prototype.pop.call(q), JSON.stringify(q));
const r = { length: 3, 0: 1, 2: 3 }; out.push(Array.prototype.shift.call(r), JSON.stringify(r));
const u = { length: 2, 0: "a", 1: "b" }; out.push(Array.prototype.unshift.call(u, "z"), JSON.stringify(u));
const s = { length: 5, 0: 0, 1: 1, 2: 2, 3: 3, 4: 4 }; out.push(JSON.stringify(Array.prototype.splice.call(s, 1, 2, "x", "y", "z")), JSON.stringify(s));
const v = { length: 3, 0: 1, 2: 3 }; out.push(JSON.stringify(Array.prototype.reverse.call(v)));
out.push(JSON.stringify(Array.prototype.fill.call({ length: 3 }, 0, 1)));
out.push(JSON.stringify(Array.prototype.copyWithin.call({ length: 5, 0: 1, 1: 2, 2: 3, 3: 4, 4: 5 }, 0, 3)));
function f() { return Array.prototype.slice.call(arguments, 1); } out.push(f(1, 2, 3));
return out;

// @program reverse-of-frozen-short-arrays
const out = [];
out.push(JSON.stringify(Object.freeze([1]).reverse()), JSON.stringify(Object.freeze([]).reverse()));
try { Object.freeze([1, 2]).reverse(); } catch (e) { out.push(e.constructor.name); }
out.push(JSON.stringify(Array.prototype.flat.call("abc")));
return out;

// @program inherited-index-accessors-and-read-only
// A prototype's index setter or read-only index wins over a new own element; holes read
// what the prototypes hold (natives take the generic algorithm then).
const log = [];
const L = (...v) => { for (const x of v) Object.defineProperty(log, log.length, { value: x, enumerable: true, writable: true, configurable: true }); };
Object.defineProperty(Array.prototype, 3, { get() { return "inherited"; }, set(v) { L("set " + v); }, configurable: true });
const a = [1, 2, 3];
a[3] = "own";
L(a.length, Object.hasOwn(a, 3), a[3]);
const b = [1, 2, 3];
b.push("p");
L(b.length, Object.hasOwn(b, 3));
const c = [0, , 2, , 4];
L(c.indexOf("inherited"), c.includes("inherited"), c.join("-"), c.at(3), c.lastIndexOf("inherited"));
delete Array.prototype[3];
Object.defineProperty(Array.prototype, 5, { value: "ro", writable: false, configurable: true });
const d = [0, 1, 2, 3, 4];
try { d[5] = "x"; } catch (e) { L(e.constructor.name); }
try { d.push("y"); } catch (e) { L(e.constructor.name); }
L(d.length, d[5], [0, , 2].indexOf(undefined), [0, , 2].includes(undefined));
delete Array.prototype[5];
Array.prototype[1] = "hole";
L([0, , 2].indexOf("hole"), [0, , 2].join(), [0, , 2].lastIndexOf("hole"), [0, , 2].at(1));
delete Array.prototype[1];
L([0, , 2].indexOf("hole"), [1, 2, 3].push(4), Object.keys(Array.prototype).length);
return log;

// @program holes-read-inherited-indices-in-copies-and-json
// slice, concat and JSON.stringify read a hole through the prototypes (a getter on
// Array.prototype), and the string algorithms' own lists never meet an inherited setter.
let sets = 0;
Object.defineProperty(Array.prototype, 1, { get() { return "P"; }, set(v) { sets++; }, configurable: true });
const a = [0, , 2];
const out = [JSON.stringify(a), a.slice(0), a.concat([5, , 6]), [...a], a.join(), JSON.stringify({ a: [1, , 3] })];
out.push("a1b2".match(/\d/g), "a,b,c".split(/,/), "x-y".replace(/(-)/g, (m, d, p) => "<" + d + p + ">"));
out.push("aXa".replaceAll("a", () => "b"), [..."ab".matchAll(/./g)].map(m => m[0]), "ab".replace(/./g, "$&$&"));
delete Array.prototype[1];
return [out, sets];

// @program array-methods-on-large-array-likes
// Array methods on an array-like of 300,000 elements, and JSON.stringify of 300,000 records.
const n = 300000;
const records = Array.from({ length: n }, (_, i) => ({ i }));
const al = { length: n };
for (let i = 0; i < n; i++) al[i] = i;
const P = Array.prototype;
return [
  JSON.stringify(records).length,
  P.map.call(al, x => x * 2)[n - 1],
  P.filter.call(al, x => x % 1000 === 0).length,
  P.indexOf.call(al, n - 1),
  P.join.call(al, ",").length,
  P.slice.call(al, -2),
  P.reduce.call(al, (s, x) => s + x, 0),
  P.includes.call(al, n - 1),
  P.lastIndexOf.call(al, 0),
  P.find.call(al, x => x === n - 1),
];

// @program slice-on-array-likes-reads-only-what-it-copies
const P = Array.prototype;
const r = [P.slice.call("abcd", 1, 3), P.slice.call({ length: 3, 0: "a", 2: "c" }), P.slice.call(5), (function () { return P.slice.call(arguments, 1); })(1, 2, 3)];
try { P.slice.call({ length: 2 ** 32, 0: 1 }, 0, 2 ** 32); } catch (e) { r.push(e.constructor.name); }
r.push(P.slice.call({ length: 2 ** 40, [2 ** 40 - 1]: "z" }, -1));
return r;

// @program concat-honours-is-concat-spreadable
const al = { length: 2, 0: "a", 1: "b", [Symbol.isConcatSpreadable]: true };
const arr = [1, 2]; arr[Symbol.isConcatSpreadable] = false;
const r = [[0].concat(al), [0].concat(arr).length, [].concat(arr)[0] === arr, typeof Symbol.isConcatSpreadable, String(Symbol.isConcatSpreadable), [1].concat([2], 3, [[4]]), [0].concat({ length: 1, 0: "x" }).length];
let reads = 0;
const lazy = { get [Symbol.isConcatSpreadable]() { reads++; return true; }, length: 1, 0: "L" };
r.push([].concat(lazy, lazy), reads);
const o = Object.getOwnPropertyDescriptor(Symbol, "isConcatSpreadable"); r.push(o.writable, o.enumerable, o.configurable);
return r;
