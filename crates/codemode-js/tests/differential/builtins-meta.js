// Function, Reflect, WeakMap/WeakSet, the error types with cause, Symbol registry and the
// well-known symbols (toPrimitive, toStringTag, hasInstance), descriptors on arrays.

// @program function-global-identity
function add(a, b) { return a + b; }
const arrow = (x) => x;
class Point {}
return [add instanceof Function, arrow instanceof Function, Point instanceof Function,
  Function.prototype.constructor === Function, Object.getPrototypeOf(add) === Function.prototype,
  Function.length, Function.name, typeof Function.prototype, Function.prototype.name,
  Function.prototype.length, ({}) instanceof Function];

// @program reflect-basics
const target = { a: 1, get double() { return this.a * 2; } };
const receiver = { a: 21 };
const out = [];
out.push(Reflect.has(target, "a"), Reflect.has(target, "toString"), Reflect.ownKeys(target));
out.push(Reflect.get(target, "double"), Reflect.get(target, "double", receiver));
out.push(Reflect.set(target, "b", 2), target.b);
out.push(Reflect.defineProperty(target, "c", { value: 3 }), Reflect.defineProperty(target, "c", { value: 4 }));
out.push(Reflect.deleteProperty(target, "c"), Reflect.deleteProperty(target, "b"), "b" in target);
out.push(Reflect.getPrototypeOf(target) === Object.prototype, Reflect.isExtensible(target));
out.push(Reflect.preventExtensions(target), Reflect.isExtensible(target), Reflect.set(target, "z", 1));
return out;

// @program reflect-apply-construct
function sum(...xs) { return xs.reduce((a, b) => a + b, this ? this.base : 0); }
class Box { constructor(v) { this.v = v; } }
const b = Reflect.construct(Box, [7]);
let err = null;
try { Reflect.construct(() => 1, []); } catch (e) { err = e.constructor.name; }
let err2 = null;
try { Reflect.apply(sum, null, 5); } catch (e) { err2 = e.constructor.name; }
return [Reflect.apply(sum, { base: 10 }, [1, 2, 3]), Reflect.apply(Math.max, null, [4, 9, 2]),
  b instanceof Box, b.v, err, err2];

// @program reflect-set-with-setter-receiver
const log = [];
const proto = { set name(v) { log.push(["set", v, this === obj]); this._name = v.toUpperCase(); } };
const obj = Object.create(proto);
const ok = Reflect.set(obj, "name", "ada");
const frozen = Object.freeze({ x: 1 });
return [ok, obj._name, log, Reflect.set(frozen, "x", 2), frozen.x, Object.hasOwn(obj, "name")];

// @program weakmap-memo-cache
const cache = new WeakMap();
let computed = 0;
function area(shape) {
  if (cache.has(shape)) return cache.get(shape);
  computed++;
  const a = shape.w * shape.h;
  cache.set(shape, a);
  return a;
}
const s1 = { w: 2, h: 3 }, s2 = { w: 4, h: 5 };
const r = [area(s1), area(s2), area(s1), area(s2), computed, cache.has({ w: 2, h: 3 })];
let err = null;
try { cache.set("key", 1); } catch (e) { err = e.constructor.name; }
r.push(err, cache.delete(s1), cache.has(s1), cache.get(s1), cache.delete(s1));
r.push(Object.prototype.toString.call(cache), cache instanceof WeakMap);
return r;

// @program weakset-visited-tracking
const seen = new WeakSet();
const a = { id: "a" }, b = { id: "b", next: null };
a.next = b; b.next = a;
const order = [];
let cur = a;
while (cur && !seen.has(cur)) { seen.add(cur); order.push(cur.id); cur = cur.next; }
let err = null;
try { seen.add(1); } catch (e) { err = e.constructor.name; }
let err2 = null;
try { WeakSet(); } catch (e) { err2 = e.constructor.name; }
return [order, seen.has(a), seen.delete(b), seen.has(b), err, err2, String(seen)];

// @program error-types-and-cause
const errs = [new EvalError("e"), new URIError("u"), new RangeError("r", { cause: 42 }),
  new Error("top", { cause: new TypeError("inner") })];
const agg = new AggregateError([new Error("a"), "b"], "many", { cause: "why" });
return [errs.map((e) => [e.name, e.message, e instanceof Error, "cause" in e]),
  errs[2].cause, errs[3].cause.message, agg.name, agg.message, agg.errors.length, agg.errors[1],
  agg.cause, agg instanceof Error, Object.keys(agg), String(agg),
  Object.getPrototypeOf(AggregateError) === Error, AggregateError.length];

// @program symbol-registry-and-description
const a = Symbol.for("app.key"), b = Symbol.for("app.key"), c = Symbol("app.key");
return [a === b, a === c, Symbol.keyFor(a), Symbol.keyFor(c), a.description, c.description,
  Symbol().description, Symbol("").description, c.toString(), typeof Symbol.prototype.valueOf.call(a)];

// @program well-known-symbols
class Money {
  constructor(c) { this.cents = c; }
  [Symbol.toPrimitive](hint) { return hint === "number" ? this.cents / 100 : hint === "string" ? `$${this.cents / 100}` : "default:" + this.cents; }
  get [Symbol.toStringTag]() { return "Money"; }
}
class Even { static [Symbol.hasInstance](n) { return n % 2 === 0; } }
const m = new Money(250);
return [+m, `${m}`, m + "", m * 2, Object.prototype.toString.call(m), String(Object.prototype.toString.call(null)),
  4 instanceof Even, 3 instanceof Even, Object.prototype.toString.call(Math),
  Object.prototype.toString.call(new Map()), Object.prototype.toString.call(Reflect)];

// @program array-descriptors-and-length
const arr = [1, 2, 3];
Object.defineProperty(arr, "length", { writable: false });
const errs = [];
for (const f of [() => arr.push(4), () => { arr[5] = 1; }, () => { arr.length = 0; }]) {
  try { f(); errs.push("ok"); } catch (e) { errs.push(e.constructor.name); }
}
const b = [1, 2, 3, 4];
Object.defineProperty(b, 1, { value: 20, writable: false });
let e2 = null;
try { b[1] = 5; } catch (e) { e2 = e.message; }
const d = Object.getOwnPropertyDescriptor(b, 1);
b.length = 1;
return [errs, arr.length, Object.getOwnPropertyDescriptor(arr, "length"), e2, d, b, Object.getOwnPropertyNames([7, 8])];

// @program define-property-redefine-rules
const o = {};
Object.defineProperty(o, "fixed", { value: 1, enumerable: true });
const results = [];
for (const d of [{ value: 1 }, { value: 2 }, { enumerable: false }, { get() { return 1; } }, { writable: false }, { configurable: true }]) {
  try { Object.defineProperty(o, "fixed", d); results.push("ok"); } catch (e) { results.push(e.message); }
}
let e3 = null;
try { Object.defineProperty(o, "x", { get() {}, value: 1 }); } catch (e) { e3 = e.constructor.name; }
const sealed = Object.seal({ a: 1 });
let e4 = null;
try { delete sealed.a; } catch (e) { e4 = e.message; }
let e5 = null;
try { Object.preventExtensions(o); o.y = 1; } catch (e) { e5 = e.message; }
return [results, e3, e4, e5, Object.isSealed(sealed), Object.isFrozen(Object.freeze([1])), Object.isSealed([])];

// @program create-with-descriptors
const base = { greet() { return "hi " + this.name; } };
const p = Object.create(base, {
  name: { value: "ada", enumerable: true },
  id: { get() { return 7; } },
});
return [p.greet(), p.id, Object.keys(p), JSON.stringify(p), Object.getOwnPropertyNames(p),
  Object.getOwnPropertySymbols({ [Symbol.iterator]: 1, a: 2 }).length,
  ({ a: 1 }).propertyIsEnumerable("a"), [1].propertyIsEnumerable("length")];

// @program strict-mode-write-errors
class Config { constructor() { Object.defineProperty(this, "mode", { value: "prod", enumerable: true }); } }
const c = new Config();
const msgs = [];
for (const f of [() => { c.mode = "dev"; }, () => { Object.freeze(c).extra = 1; }, () => { delete c.mode; },
  () => { const a = Object.freeze([1]); a[0] = 2; }]) {
  try { f(); msgs.push("ok"); } catch (e) { msgs.push(e.message); }
}
return msgs;

// @program object-assign-setters-and-errors
const log = [];
const target = { set price(v) { log.push("set " + v); this._p = v * 100; } };
const src = { price: 2, get label() { log.push("get label"); return "x"; } };
Object.defineProperty(src, "hidden", { value: 1, enumerable: false });
const out = Object.assign(target, src, null, undefined, "ab", { [Symbol.iterator]: 1 });
let err = null;
try { Object.assign(Object.freeze({ a: 1 }), { a: 2 }); } catch (e) { err = e.constructor.name; }
return [log, out._p, out.label, "hidden" in out, out[0], out[1], typeof out[Symbol.iterator], err,
  [1234.5, null, "a"].toLocaleString(), ({}).toLocaleString(), Object.assign.length];

// @program to-primitive-method-fallbacks
const calls = [];
const a = { toString() { calls.push("ts"); return {}; }, valueOf() { calls.push("vo"); return 7; } };
const b = { valueOf() { calls.push("vo-b"); return {}; } };
const c = { toString: 1, valueOf() { return "from valueOf"; } };
const bare = Object.create(null);
const errs = [];
for (const f of [() => String(bare), () => `${bare}`, () => bare + 1, () => String({ toString() { return {}; }, valueOf() { return {}; } })]) {
  try { f(); errs.push("ok"); } catch (e) { errs.push(e.constructor.name + ": " + e.message); }
}
return [String(a), a + 1, `${b}`, b + "", String(c), errs, calls, { [a]: 1 }];
