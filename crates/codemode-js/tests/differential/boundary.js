// The data boundary of the result: JSON values, what JSON.stringify drops, what cannot cross.

// @program result-undefined-is-null
return undefined;

// @program result-no-return-is-null
const x = 1;

// @program result-nested-undefined-dropped
return { a: undefined, b: [undefined, 1], c: null };

// @program result-negative-zero-and-nonfinite
return { nz: -0, nan: NaN, inf: Infinity, list: [-0, -Infinity] };

// @program result-map-set-as-empty-objects
return { m: new Map([[1, 2]]), s: new Set([1]), w: new WeakMap() };

// @program result-to-json-honoured
return { when: { toJSON() { return "2024-01-01"; } }, n: 1 };

// @program result-boxed-primitives
return [new Number(3), new String("s"), new Boolean(true)];

// @program result-array-holes-null
return [1, , 3];

// @program result-class-instance-own-fields
class P { #hidden = 1; constructor() { this.x = 1; } get y() { return 2; } }
return new P();

// @program result-error-object
return new Error("boom");

// @program result-cycle !InvalidDataValue
const a = { name: "a" };
a.self = a;
return a;

// @program result-array-cycle !InvalidDataValue
const arr = [1];
arr.push(arr);
return arr;

// @program result-function-inside !InvalidDataValue
return { ok: true, handler() {} };

// @program result-function-in-array !InvalidDataValue
return [1, () => 2];

// @program result-shared-reference-is-not-cycle
const shared = { v: 1 };
return { a: shared, b: shared, list: [shared, shared] };

// @program result-string-unicode
return ["héllo", "\u{1F600}", "tab\there", "quote\"", "\u2028"];

// @program result-large-structure
return Array.from({ length: 200 }, (_, i) => ({ i, sq: i * i, even: i % 2 === 0 })).filter((r) => r.i % 50 === 0);

// @program result-object-key-order
return { b: 1, 2: "two", a: 2, 1: "one" };

// @program result-nonenumerable-dropped
const o = { visible: 1 };
Object.defineProperty(o, "hidden", { value: 2, enumerable: false });
return o;

// @program result-inherited-dropped
const o = Object.create({ inherited: 1 });
o.own = 2;
return o;

// @program result-symbol-value-in-object-dropped
return { s: Symbol("x"), keep: 1 };

// @program result-getter-evaluated
return { get computed() { return 6 * 7; } };

// @program result-bare-string
"just a " + "string"

// @program result-large-numbers
return [2 ** 53, 2 ** 64, 1e300, 5e-324, 0.1];

// @program result-custom-error-fields
const e = new RangeError("out of range", { cause: "not exported" });
e.code = "E_RANGE";
e.name = "BoundsError";
return { error: e, list: [new TypeError("t")] };

// @program result-to-json-with-key-and-nesting
class Money { constructor(c) { this.cents = c; } toJSON(key) { return `${key}:${(this.cents / 100).toFixed(2)}`; } }
return { total: new Money(1234), lines: [new Money(5), { price: new Money(99) }], plain: 1 };

// @program result-getters-on-classes-and-literals
class Box { #v; constructor(v) { this.#v = v; Object.defineProperty(this, "doubled", { get: () => this.#v * 2, enumerable: true }); } get hidden() { return "prototype getters are not own"; } }
const o = { a: 1, get b() { return this.a + 1; }, items: [new Box(4)] };
return o;

// @program result-to-json-returning-undefined-drops-key
return { gone: { toJSON() { return undefined; } }, kept: [{ toJSON() { return undefined; } }], n: 1 };

// @program result-getter-throws !ExecutionFailure:RangeError
return { get bad() { throw new RangeError("no value yet"); } };

// @program result-to-json-returns-function !InvalidDataValue
return { f: { toJSON() { return () => 1; } } };

// @program result-getter-cycle !InvalidDataValue
const o = { name: "loop" };
Object.defineProperty(o, "self", { get() { return o; }, enumerable: true });
return o;

// @program result-symbol-keyed-property !InvalidDataValue
return { [Symbol("k")]: 1, ok: true };

// @program result-symbol-values-in-arrays-are-null
return [Symbol("a"), 1, { s: Symbol.iterator, n: 2 }];

// @program result-date-like-to-json-on-prototype
function Stamp(ms) { this.ms = ms; }
Stamp.prototype.toJSON = function () { return { iso: "t+" + this.ms }; };
return { events: [new Stamp(1), new Stamp(2)].map((s) => ({ at: s })) };

// @program result-overwritten-array-push-does-not-matter
Array.prototype.push = function () { throw new Error("push was replaced"); };
return { list: [{ toJSON() { return [1, 2]; } }] };
