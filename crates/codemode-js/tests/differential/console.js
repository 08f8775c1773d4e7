// console: each call is one log entry, formatted as node's console prints it.

// @program log-primitives
console.log("text", 42, -0, 1.5, true, null, undefined, NaN, -Infinity);
console.log();
console.log("");
console.log(" padded ");

// @program log-strings-nested-are-quoted
console.log("top", ["in", "array"], { s: "in object", q: "it's", d: 'say "hi"' });

// @program log-objects-and-arrays
console.log({ a: 1, b: "x", c: [1, 2, 3], d: { e: null } });
console.log([]);
console.log({});
console.log([[1, [2, [3, [4]]]]]);
console.log({ l1: { l2: { l3: { l4: "deep" } } } });

// @program log-special-keys
console.log({ "needs quotes": 1, valid_id: 2, 3: "num", "a-b": 4, $ok: 5 });

// @program log-holes-and-extra-props
const a = [1, , , 4];
const b = [1, 2];
b.extra = "x";
console.log(a, b, new Array(3));

// @program log-functions-and-classes
function named() {}
class Klass {}
console.log(named, () => 1, Klass, Math.max, { method() {} });

// @program log-class-instances
class Point { constructor() { this.x = 1; this.y = 2; } }
class Empty {}
console.log(new Point(), new Empty(), Object.create(null));

// @program log-map-set
console.log(new Map([["a", 1], [{ k: 1 }, [2]]]), new Set([1, "two", [3]]), new Map(), new Set());

// @program log-errors
console.log(new Error("boom"));
console.log(new TypeError("bad type"));
const e = new RangeError("with props");
e.code = 42;
console.log(e);
console.log({ err: new Error("nested") });

// @program log-custom-error-class
class ValidationError extends Error { constructor(m) { super(m); this.name = "ValidationError"; } }
console.log(new ValidationError("invalid"));

// @program log-symbols-and-symbol-keys
console.log(Symbol("tag"), Symbol(), { [Symbol("k")]: 1, plain: 2 });

// @program log-getters
console.log({ get g() { return 1; }, set s(v) {}, get gs() { return 2; }, set gs(v) {} });

// @program log-circular
const o = { name: "root" };
o.self = o;
o.list = [o];
console.log(o);

// @program log-format-specifiers
console.log("%s is %d years", "Ada", 36.7);
console.log("%i%%", 99.9);
console.log("%o vs %O", [1], { a: 1 });
console.log("%j", { a: 1 });
console.log("%s", { a: 1 }, "extra");
console.log("100% sure", 5);
console.log("%c styled", "color: red");

// @program log-numbers-formatting
console.log([0.1 + 0.2, 1e21, 1e-7, -0, 2 ** 53, 123.0]);
console.log(-0, [-0], { z: -0 });

// @program log-long-array-breaks-lines
console.log(Array.from({ length: 30 }, (_, i) => i * 1000));

// @program log-long-object-breaks-lines
console.log({ alpha: "aaaaaaaaaaaaaaaa", beta: "bbbbbbbbbbbbbbbbbb", gamma: "cccccccccccccccccc", delta: "dddddddddddddddddd", eps: 1 });

// @program log-over-100-items
console.log(Array.from({ length: 120 }, () => 1));

// @program info-warn-error-debug
console.info("info line");
console.warn("warn line", 1);
console.error("error line", { e: 1 });
console.debug("debug line");

// @program console-dir
console.dir({ a: { b: { c: { d: 1 } } } });
console.dir("a string");
console.dir([1, "two"], { depth: 0 });

// @program console-table
console.table([{ name: "ada", age: 36 }, { name: "alan", age: 41, extra: true }]);
console.table([[1, 2], [3, 4]]);

// @program console-returns-undefined
const r = console.log("x");
return r === undefined;

// @program log-boxed-primitives
console.log(new Number(5), new String("str"), new Boolean(false), Object(Symbol("bx")));

// @program log-multiline-string-and-escapes
console.log("line1\nline2");
console.log(["tab\there", "nl\nhere", "quote'single"]);

// @program log-nested-array-of-objects
console.log([{ id: 1, tags: ["a", "b"] }, { id: 2, tags: [] }]);

// @program log-object-with-null-prototype-and-tag
const o = Object.create(null);
o.x = 1;
console.log(o, { [Symbol.toStringTag]: "Tagged", v: 1 });

// @program log-many-args-joined
console.log(1, "a", [2], { b: 3 }, null, undefined, true);

// @program log-array-of-strings-long
console.log(["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]);
