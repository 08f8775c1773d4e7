// Subclasses of Array keep their class through map, filter, slice, splice, concat, flat,
// flatMap, Array.from and Array.of (ArraySpeciesCreate and the constructor receiver), as node.

// @program subclass-methods-keep-the-class
class Stack extends Array {
  top() { return this[this.length - 1]; }
}
const s = Stack.from([1, 2, 3]);
const m = s.map((x) => x * 2), f = s.filter((x) => x > 1), sl = s.slice(1);
const c = s.concat([9], 10), fl = s.flat(), fm = s.flatMap((x) => [x, x]);
const sp = Stack.of(5, 6, 7);
const removed = sp.splice(0, 2);
return [m instanceof Stack, m.top(), f instanceof Stack, f.length, sl instanceof Stack, sl.top(),
  c instanceof Stack, c.top(), c.length, fl instanceof Stack, fm.length, fm instanceof Stack,
  removed instanceof Stack, removed.join(), sp.join(), Array.isArray(m), JSON.stringify(m)];

// @program plain-arrays-and-species-overrides
const plain = [1, 2].map((x) => x);
const odd = [1, 2, 3];
odd.constructor = { [Symbol.species]: function Box(n) { this.n = n; } };
const boxed = odd.map((x) => x * 10);
const nul = [1];
nul.constructor = { [Symbol.species]: null };
const un = [2];
un.constructor = undefined;
return [Object.getPrototypeOf(plain) === Array.prototype, boxed.constructor.name, JSON.stringify(boxed),
  Array.isArray(nul.map((x) => x)), Array.isArray(un.filter(() => true)), Array[Symbol.species] === Array,
  Object.getOwnPropertyDescriptor(Array, Symbol.species).get.name, typeof Object.getOwnPropertyDescriptor(Array, Symbol.species).set];

// @program species-that-is-not-a-constructor !ExecutionFailure:TypeError
const bad = [1];
bad.constructor = { [Symbol.species]: 5 };
return bad.map((x) => x);

// @program subclass-with-state-and-from-of
class Tagged extends Array {
  constructor(...args) { super(...args); this.tag = "t"; }
  static get [Symbol.species]() { return Array; }
}
const t = Tagged.from("abc", (ch) => ch.toUpperCase());
const o = Tagged.of(1, 2);
const mapped = t.map((x) => x + "!");
class Range extends Array {}
const r = Range.from({ length: 3 }, (_, i) => i * i);
return [t instanceof Tagged, t.tag, t.join(""), o instanceof Tagged, o.length, o.tag,
  mapped instanceof Tagged, Array.isArray(mapped), r instanceof Range, r.join(), r.length];
