// The object model: property order, accessors, descriptors, prototypes, freeze/seal, Reflect.

// @program object-literal-accessors
const o = {
  _v: 1,
  get v() { return this._v * 10; },
  set v(x) { this._v = x; },
};
o.v = 5;
return [o.v, o._v, Object.keys(o), typeof Object.getOwnPropertyDescriptor(o, "v").get];

// @program define-property-defaults
const o = {};
Object.defineProperty(o, "x", { value: 1 });
const d = Object.getOwnPropertyDescriptor(o, "x");
let err = "none";
try { o.x = 2; } catch (e) { err = e.name; }
return [d, err, o.x, Object.keys(o), JSON.stringify(o)];

// @program define-properties-and-descriptors
const o = Object.defineProperties({}, {
  a: { value: 1, enumerable: true, writable: true },
  b: { get() { return this.a + 1; }, enumerable: false, configurable: true },
});
const ds = Object.getOwnPropertyDescriptors(o);
return [Object.keys(ds), ds.a, typeof ds.b.get, ds.b.set, ds.b.enumerable, o.b];

// @program freeze-strict-errors
const o = Object.freeze({ a: 1, nested: { b: 2 } });
const errs = [];
for (const f of [() => { o.a = 2; }, () => { o.c = 3; }, () => { delete o.a; }]) { try { f(); errs.push("ok"); } catch (e) { errs.push(e.name); } }
o.nested.b = 20;
return [errs, o.a, o.nested.b, Object.isFrozen(o), Object.isFrozen(o.nested)];

// @program seal-and-prevent-extensions
const s = Object.seal({ a: 1 });
s.a = 2;
const p = Object.preventExtensions({ b: 1 });
delete p.b;
const out = [s.a, Object.isSealed(s), Object.isExtensible(p), "b" in p];
try { s.z = 1; } catch (e) { out.push(e.name); }
try { p.q = 1; } catch (e) { out.push(e.name); }
return out;

// @program prototype-chain
const base = { greet() { return "hi " + this.name; } };
const mid = Object.create(base, { name: { value: "mid", enumerable: true, writable: true } });
const leaf = Object.create(mid);
leaf.name = "leaf";
return [leaf.greet(), Object.getPrototypeOf(leaf) === mid, base.isPrototypeOf(leaf), Object.hasOwn(leaf, "greet"), "greet" in leaf, leaf.hasOwnProperty("name")];

// @program object-create-null
const dict = Object.create(null);
dict.key = 1;
return [typeof dict.toString, "toString" in dict, Object.keys(dict), Object.getPrototypeOf(dict)];

// @program set-prototype-of
const a = { x: 1 };
const b = { y: 2 };
Object.setPrototypeOf(b, a);
return [b.x, Object.getPrototypeOf(b) === a, Object.keys(b)];

// @program proto-in-literal
const base = { kind: "base" };
const o = { __proto__: base, own: 1 };
const computed = { ["__proto__"]: 5 };
return [o.kind, Object.keys(o), Object.getPrototypeOf(o) === base, Object.keys(computed), Object.getPrototypeOf(computed) === Object.prototype];

// @program proto-accessor
const o = {};
o.__proto__ = { inherited: true };
return [o.inherited, Object.keys(o), ({}).__proto__ === Object.prototype];

// @program property-order-spec
const o = {};
o.z = 1; o[10] = 1; o.a = 1; o[2] = 1; o["-5"] = 1; o[Symbol("s")] = 1; o["07"] = 1;
return [Object.keys(o), Reflect.ownKeys(o).length, Object.getOwnPropertyNames(o)];

// @program delete-and-own-keys
const o = { a: 1, b: 2, c: 3 };
delete o.b;
o.b = 4;
return [Object.keys(o), delete o.zz, Object.entries(o)];

// @program object-assign-and-spread
const target = { a: 1 };
const src = { b: 2, get c() { return 3; } };
Object.defineProperty(src, "hidden", { value: 4, enumerable: false });
const r = Object.assign(target, src, null, { a: 10 });
const spread = { ...src, ...[9] };
return [r === target, target, spread, Object.getOwnPropertyDescriptor(target, "c").value];

// @program object-entries-values-fromentries
const o = { x: 1, y: [2], z: "3" };
return [Object.entries(o), Object.values(o), Object.fromEntries(Object.entries(o).map(([k, v]) => [k.toUpperCase(), String(v)])), Object.fromEntries(new Map([["m", 1]]))];

// @program object-is
return [Object.is(1, 1), Object.is(NaN, NaN), Object.is(0, -0), Object.is("a", "a"), Object.is({}, {})];

// @program getters-on-prototype-chain
class Vec { constructor(x, y) { this.x = x; this.y = y; } get len() { return Math.hypot(this.x, this.y); } }
const v = new Vec(6, 8);
const copy = { ...v };
return [v.len, copy.len, Object.keys(v), "len" in v, v.hasOwnProperty("len")];

// @program setter-only-and-getter-only
"use strict";
const o = { set only(v) { this._v = v; }, get ro() { return "ro"; } };
o.only = 1;
let err;
try { o.ro = 2; } catch (e) { err = e.name; }
return [o.only, o._v, o.ro, err];

// @program reflect-api
const o = { a: 1 };
return [Reflect.has(o, "a"), Reflect.get(o, "a"), Reflect.set(o, "b", 2), o.b, Reflect.ownKeys(o), Reflect.deleteProperty(o, "a"), Reflect.getPrototypeOf(o) === Object.prototype, Reflect.defineProperty(o, "c", { value: 3 }), Reflect.apply(Math.max, null, [1, 5, 2])];

// @program reflect-construct-and-frozen-set
class P { constructor(a) { this.a = a; } }
const p = Reflect.construct(P, [7]);
const f = Object.freeze({ x: 1 });
return [p.a, p instanceof P, Reflect.set(f, "x", 2), f.x, Reflect.isExtensible(f)];

// @program object-get-own-property-names-arrays
return [Object.getOwnPropertyNames([1, 2]), Object.keys("ab"), Object.getOwnPropertyNames("ab"), Object.keys(5)];

// @program shorthand-methods-and-computed
const k = "dyn";
const n = 5;
const o = { n, [k]: 1, [`${k}2`]() { return "m"; }, "quoted key": 2, 3: "three", async: 1, get: 2, set: 3 };
return [Object.keys(o), o.dyn2(), o["quoted key"]];

// @program tostring-tag-and-object-prototype-tostring
const tags = [[], {}, null, undefined, 1, "s", true, () => 1, new Error("e"), new Map(), Symbol(), Math, JSON, Object.create(null), { [Symbol.toStringTag]: "Custom" }];
return tags.map((v) => Object.prototype.toString.call(v));

// @program non-writable-inherited-blocks-assignment
const proto = Object.defineProperty({}, "x", { value: 1, writable: false });
const o = Object.create(proto);
try { o.x = 2; return "assigned"; } catch (e) { return [e.name, o.x, Object.keys(o)]; }

// @program getter-this-is-receiver
const proto = { get who() { return this.name; } };
const a = Object.create(proto); a.name = "a";
const b = Object.create(proto); b.name = "b";
return [a.who, b.who, proto.who];

// @program valueof-and-tostring-overrides-in-keys
const k = { toString() { return "custom-key"; } };
const o = { [k]: 1 };
return Object.keys(o);

// @program object-freeze-array
const arr = Object.freeze([1, 2]);
const out = [];
for (const f of [() => arr.push(3), () => { arr[0] = 9; }, () => arr.pop()]) { try { f(); out.push("ok"); } catch (e) { out.push(e.name); } }
return [out, arr];

// @program has-own-property-variants
const o = { own: 1 };
return [Object.hasOwn(o, "own"), Object.hasOwn(o, "toString"), Object.prototype.hasOwnProperty.call(o, "own"), Object.hasOwn([1], 0), Object.hasOwn([1], "length")];

// @program computed-keys-name-functions
const handlers = {
  ["on" + "Click"]: function () { return 1; },
  [Symbol.iterator]: () => [][Symbol.iterator](),
  get ["total" + 1]() { return 2; },
  [`step${2}`]() { return 3; },
};
const order = [];
const tagged = { [(order.push("key"), "k")]: (order.push("value"), 0) };
return [handlers.onClick.name, handlers[Symbol.iterator].name, handlers.step2.name,
  Object.keys(handlers), order, tagged];

// @program getters-read-once-by-keys-stringify-entries
let n = 0;
const o = { get a() { n++; return { x: n }; }, b: 2 };
const keys = Object.keys(o);
const afterKeys = n;
const s = JSON.stringify(o);
const afterStringify = n;
const inKeys = [];
for (const k in o) inKeys.push(k);
const e = Object.entries(o);
return { keys, afterKeys, s, afterStringify, inKeys, e, n, copy: { ...o }, last: n };

// @program for-in-shadowing-and-order
const p = { a: 1, b: 2, c: 3, 5: "five" };
Object.defineProperty(p, "n", { value: 1, enumerable: true });
Object.defineProperty(p, "hid", { value: 1, enumerable: false });
const o = Object.create(p);
Object.defineProperty(o, "b", { value: 9, enumerable: false });
o.d = 4;
o[2] = 0;
Object.defineProperty(o, "hid", { value: 3, enumerable: true });
const out = [];
for (const k in o) out.push(k);
const big = {};
for (let i = 0; i < 20000; i++) big["k" + (i % 7 === 0 ? i : i * 3)] = i;
let count = 0, firstKeys = [];
for (const k in Object.create(big)) { if (count < 3) firstKeys.push(k); count++; }
return { out, count, firstKeys, str: (() => { const r = []; for (const i in "héllo") r.push(i); return r; })() };

// @program from-entries-of-generators-maps-and-params
function* g() { yield ["a", 1]; yield ["b", 2]; } const m = new Map([["x", 1]]); let e1 = null; try { Object.fromEntries(null) } catch (e) { e1 = e.name } return [Object.fromEntries(g()), Object.fromEntries(m), Object.fromEntries(new URLSearchParams("q=1")), Object.fromEntries([["k", 2]]), e1];

// @program from-entries-refuses-primitive-entries-and-values-boxes-strings
const out = [];
for (const src of [["ab"], [1], new Set(["ab"]), [null]]) { try { out.push(Object.fromEntries(src)); } catch (e) { out.push(e.name + ": " + e.message); } }
out.push([...Array.prototype.values.call("ab")], [...Array.prototype.entries.call("ab")], [...Array.prototype.keys.call("ab")], [...Array.prototype.values.call(5)]);
return out;
