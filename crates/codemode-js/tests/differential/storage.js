// The storage model: sparse arrays and holes, length writes, in-place array natives, large
// arrays, and Map/Set with their key order and mutation during iteration.

// @program sparse-far-index
const a = [];
a[1e6] = "far";
a[3] = "near";
return [a.length, Object.keys(a), a[1e6], a[999999], 1e6 in a, 7 in a];

// @program sparse-near-max-length
const a = [];
a[4294967294] = "last";
a[0] = "first";
return [a.length, Object.keys(a), a.at(-1), a.at(0)];

// @program holes-in-literals-and-keys
const a = [1, , 3, , , 6];
const out = [];
for (const k in a) out.push(k);
return [a.length, Object.keys(a), out, a.map((x) => x * 2), a.filter(() => true), 1 in a];

// @program holes-iterate-as-undefined
const a = [1, , 3];
const seen = [];
for (const v of a) seen.push(v);
return [seen, [...a], Array.from(a), a.entries().next(), [...a.keys()]];

// @program length-write-truncates-and-grows
const a = [1, 2, 3, 4, 5];
a.length = 2;
const after = [...a];
a.length = 6;
a[10] = "x";
a.length = 8;
return [after, a.length, Object.keys(a), a.indexOf("x")];

// @program length-write-huge-then-shrink
const a = ["a", "b"];
a.length = 4294967295;
a[4000000000] = "z";
const keys = Object.keys(a);
a.length = 3;
return [keys, a.length, Object.keys(a)];

// @program invalid-lengths
const out = [];
for (const f of [
  () => new Array(4294967296),
  () => { const a = []; a.length = -1; },
  () => { const a = []; a.length = 4294967296; },
  () => { const a = new Array(4294967295); a.push(1); },
  () => new Array(4294967295).length,
  () => { const a = []; a[4294967295] = 1; return [a.length, Object.keys(a)]; },
]) {
  try { out.push(f() ?? "ok"); } catch (e) { out.push(e.name + ": " + e.message); }
}
return out;

// @program new-array-large-then-write
const a = new Array(1e7);
a[5e6] = "mid";
a[0] = "start";
return [a.length, Object.keys(a), a.indexOf("mid"), a.lastIndexOf("start"), a.includes(undefined)];

// @program fill-ranges-with-holes
const a = new Array(10);
a.fill(0, 2, 5);
const b = [1, 2, 3, 4, 5].fill(9, -2);
const c = new Array(1e6).fill(1, 999990);
return [Object.keys(a), b, Object.keys(c).length, c[999995]];

// @program reverse-sparse-and-holes
const a = [1, , 3, , 5, , ];
a.reverse();
const b = [];
b[100] = "x";
b[2] = "y";
b.reverse();
return [Object.keys(a), a.length, Object.keys(b), b[0], b[98]];

// @program shift-unshift-sparse
const a = [];
a[5] = "five";
a[1000] = "thousand";
const s = a.shift();
a.unshift("u1", "u2");
return [s, a.length, Object.keys(a)];

// @program splice-everywhere
const a = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const r1 = a.splice(2, 3);
const r2 = a.splice(-2, 1, "x", "y");
const r3 = a.splice(1, 0, "in");
const b = [];
b[50] = "far";
const r4 = b.splice(10, 5, "a", "b");
return [a, r1, r2, r3, b.length, Object.keys(b), r4.length, Object.keys(r4)];

// @program slice-sparse-and-negative
const a = [];
a[2] = "two";
a[1e6] = "million";
const s1 = a.slice(1, 4);
const s2 = a.slice(-1);
const s3 = a.slice(999999);
return [s1.length, Object.keys(s1), s2, s3.length, Object.keys(s3)];

// @program copy-within-overlaps
const a = [1, 2, 3, 4, 5];
const b = [1, 2, 3, 4, 5];
const c = [1, , 3, , 5];
return [a.copyWithin(0, 3), b.copyWithin(1, 0, 3), Object.keys(c.copyWithin(1, 0)), [1, 2, 3, 4, 5].copyWithin(-2, -4, -3)];

// @program last-index-of-from-index
const a = [1, 2, 3, 1, 2, 3];
return [
  a.lastIndexOf(3), a.lastIndexOf(3, 4), a.lastIndexOf(3, -2), a.lastIndexOf(3, -4),
  a.lastIndexOf(1, -7), a.lastIndexOf(1, 100), a.lastIndexOf(2, undefined), a.lastIndexOf(1, -Infinity),
  [NaN].lastIndexOf(NaN), [NaN].indexOf(NaN), [NaN].includes(NaN),
];

// @program index-of-holes-and-undefined
const a = [undefined, , null];
return [a.indexOf(undefined), a.includes(undefined), a.indexOf(null, 1), [, ,].includes(undefined), [, ,].indexOf(undefined)];

// @program join-holes-and-nullish
const a = [1, , null, undefined, "x", , ];
const nested = [1, [2, [3, , 4]], , 5];
return [a.join(), a.join("-"), a.join(""), String(nested), [, , ,].join("|")];

// @program push-pop-large
const a = [];
for (let i = 0; i < 100000; i++) a.push(i * 2);
let sum = 0;
while (a.length > 50000) sum += a.pop();
return [a.length, sum, a[49999], a.at(-1)];

// @program large-array-natives
const a = Array.from({ length: 200000 }, (_, i) => i % 1000);
const b = a.slice(1000, 2000);
a.reverse();
return [a.indexOf(999), a.lastIndexOf(0), a.includes(500), b.length, b[0], a.join("").length];

// @program concat-with-holes
const a = [1, , 3];
const b = [];
b[3] = "b3";
const c = a.concat(b, 7, [[8]]);
return [c.length, Object.keys(c), c[6], c[8]];

// @program sort-with-holes-and-undefined
const a = [3, , undefined, 1, , 2];
a.sort();
return [a, Object.keys(a), a.length];

// @program delete-elements-makes-holes
const a = [1, 2, 3, 4];
delete a[1];
delete a[3];
return [a.length, Object.keys(a), 1 in a, a.indexOf(undefined), a.includes(undefined)];

// @program map-key-order-and-reinsert
const m = new Map();
m.set("z", 1).set(2, "two").set("a", 3).set(-0, "zero");
m.delete("z");
m.set("z", 4);
m.set(2, "TWO");
return [[...m.keys()], m.get(0), m.get(-0), [...m.values()]];

// @program map-add-during-iteration
const m = new Map([[1, 1]]);
const seen = [];
for (const [k] of m) {
  seen.push(k);
  if (k < 5) m.set(k + 1, k + 1);
}
return seen;

// @program map-delete-during-iteration
const m = new Map([[1, "a"], [2, "b"], [3, "c"], [4, "d"], [5, "e"]]);
const seen = [];
for (const [k] of m) {
  seen.push(k);
  m.delete(k + 1);
}
return [seen, [...m.keys()]];

// @program map-delete-current-and-reinsert
const m = new Map([["a", 1], ["b", 2], ["c", 3]]);
const seen = [];
for (const [k, v] of m) {
  seen.push(k + v);
  if (k === "a") { m.delete("a"); m.set("a", 9); }
  if (seen.length > 10) break;
}
return seen;

// @program map-clear-during-iteration
const m = new Map([[1, 1], [2, 2], [3, 3]]);
const seen = [];
for (const [k] of m) {
  seen.push(k);
  if (k === 1) { m.clear(); m.set(10, 10); m.set(11, 11); }
}
return [seen, m.size];

// @program map-iterator-after-done-stays-done
const m = new Map([[1, 1]]);
const it = m.keys();
const r1 = it.next();
const r2 = it.next();
m.set(2, 2);
const r3 = it.next();
return [r1, r2, r3];

// @program map-many-deletes-keep-iterator
const m = new Map();
for (let i = 0; i < 1000; i++) m.set(i, i);
const it = m.keys();
it.next();
for (let i = 0; i < 990; i++) m.delete(i);
const rest = [...it];
return [rest, m.size];

// @program map-foreach-sees-additions
const m = new Map([["a", 1]]);
const seen = [];
m.forEach((v, k) => {
  seen.push(k);
  if (seen.length < 4) m.set(k + "x", v + 1);
});
return seen;

// @program set-mutation-during-iteration
const s = new Set([1, 2, 3]);
const seen = [];
for (const v of s) {
  seen.push(v);
  if (v === 1) { s.delete(2); s.add(4); }
  if (v === 4) s.add(1);
}
return [seen, [...s]];

// @program set-same-value-zero
const s = new Set([NaN, 0, -0, "0", NaN, 1]);
return [s.size, [...s].map((x) => Object.is(x, -0) ? "-0" : String(x)), s.has(-0), s.has(NaN)];

// @program set-clear-and-iterate
const s = new Set(["a", "b"]);
const it = s.values();
it.next();
s.clear();
s.add("c");
return [it.next(), it.next(), s.size];

// @program map-large-lookups
const m = new Map();
for (let i = 0; i < 50000; i++) m.set("k" + i, i);
let hits = 0;
for (let i = 0; i < 100000; i += 3) if (m.has("k" + i)) hits++;
for (let i = 0; i < 50000; i += 2) m.delete("k" + i);
return [hits, m.size, m.get("k49999"), m.get("k2"), [...m.keys()].slice(0, 3)];

// @program map-object-and-string-keys
const o1 = {}, o2 = {};
const m = new Map([[o1, 1], ["1", "s"], [1, "n"], [true, "t"], [null, "null"], [undefined, "u"]]);
m.set(o2, 2);
return [m.get(o1), m.get(o2), m.get({}), m.get("1"), m.get(1), m.get(true), m.get(null), m.get(undefined), m.size];

// @program weak-collections-many-keys
const wm = new WeakMap();
const ws = new WeakSet();
const keys = [];
for (let i = 0; i < 5000; i++) { const k = { i }; keys.push(k); wm.set(k, i); if (i % 2) ws.add(k); }
let sum = 0;
for (const k of keys) sum += wm.get(k);
for (let i = 0; i < 5000; i += 3) wm.delete(keys[i]);
return [sum, wm.has(keys[0]), wm.has(keys[1]), ws.has(keys[1]), ws.has(keys[2])];
