// Destructuring in every position: defaults, rest, nested, computed keys, iterables, parameters.

// @program object-basic-defaults-rename
const { a, b: bee = 2, c = 3, ...rest } = { a: 1, b: undefined, d: 4, e: 5 };
return { a, bee, c, rest };

// @program array-holes-defaults-rest
const [x, , y = 10, ...zs] = [1, 2, undefined, 4, 5];
const [p = "def"] = [];
return [x, y, zs, p];

// @program nested-patterns
const cfg = { server: { host: "localhost", ports: [80, 443] }, users: [{ name: "root" }] };
const { server: { host, ports: [http, https] }, users: [{ name: firstUser }] } = cfg;
return [host, http, https, firstUser];

// @program swap-and-rotate
let a = 1, b = 2, c = 3;
[a, b] = [b, a];
[a, b, c] = [c, a, b];
return [a, b, c];

// @program computed-keys
const key = "dyn";
const { [key]: v, [`${key}2`]: v2 = "none" } = { dyn: 42 };
return [v, v2];

// @program parameters-destructuring
function draw({ x = 0, y = 0, color: { r = 0, g = 0 } = {} } = {}, ...extra) {
  return `${x},${y} rgb(${r},${g}) +${extra.length}`;
}
return [draw(), draw({ x: 5, color: { g: 9 } }, 1, 2), draw({ y: 3 })];

// @program for-of-destructuring
const pairs = Object.entries({ one: 1, two: 2, three: 3 });
const out = [];
for (const [name, n] of pairs) out.push(name.repeat(n > 1 ? 1 : 2));
for (const { length } of ["ab", "cde"]) out.push(length);
return out;

// @program destructure-from-string-and-set-map
const [first, second, ...others] = "héllo";
const [s1, s2] = new Set(["x", "y", "z"]);
const [[k1, v1]] = new Map([["key", "val"]]);
return [first, second, others, s1, s2, k1, v1];

// @program default-evaluation-order
const log = [];
const d = (n) => (log.push(n), n);
const { a = d("a"), b = d("b"), c = d("c") } = { b: 0 };
const [x = d("x"), y = d("y")] = [undefined, null];
return [log, a, b, c, x, y];

// @program destructure-null-error
try {
  const { a } = null;
} catch (e) {
  return [e.name, e instanceof TypeError];
}

// @program destructure-undefined-nested
try {
  const { a: { b } } = { c: 1 };
} catch (e) {
  return e.name;
}

// @program iterator-closing-on-partial-destructure
const log = [];
const iterable = {
  [Symbol.iterator]() {
    let i = 0;
    return {
      next() { log.push("next"); return { value: i++, done: false }; },
      return() { log.push("return"); return {}; },
    };
  },
};
const [a, b] = iterable;
return [a, b, log];

// @program rest-object-excludes-and-copies
const src = { id: 1, secret: "s", nested: { k: 1 } };
const { secret, ...pub } = src;
pub.nested.k = 2;
return [pub, src.nested.k, Object.keys(pub)];

// @program assignment-destructuring-to-properties
const target = {};
const arr = [];
({ a: target.x, b: arr[0], c: target["y"] = "dflt" } = { a: 1, b: 2 });
return [target, arr];

// @program destructuring-in-catch
try {
  throw { code: 404, detail: { msg: "not found" } };
} catch ({ code, detail: { msg } }) {
  return `${code}: ${msg}`;
}

// @program arrow-param-destructuring-map
const people = [{ name: "a", age: 3 }, { name: "b", age: 5 }];
return people.map(({ name, age }) => ({ [name]: age * 2 }));

// @program nested-defaults-with-functions
const parse = ({ opts: { retries = 3, backoff = (n) => n * 100 } = {} } = {}) => [retries, backoff(retries)];
return [parse(), parse({ opts: { retries: 1 } }), parse({ opts: { backoff: (n) => -n } })];

// @program string-object-destructuring
const { length, 0: firstChar } = "codemode";
const { toFixed } = 1;
return [length, firstChar, typeof toFixed];

// @program elision-and-trailing-commas
const [, , third, , fifth] = [1, 2, 3, 4, 5];
const { q, } = { q: 1 };
return [third, fifth, q];

// @program destructure-returned-tuple
function minMax(xs) { return [Math.min(...xs), Math.max(...xs)]; }
const [lo, hi] = minMax([4, -2, 9, 0]);
const { 0: zero, length: len } = minMax([1]);
return { lo, hi, zero, len };

// @program parameter-patterns-with-defaults
function pick([first = "none", second = 0], { limit = 10, sort: order = "asc" } = {}) {
  return { first, second, limit, order };
}
const swap = ([a = 1, b = 2]) => [b, a];
const area = ({ w = 1, h = w } = {}) => w * h;
return [pick(["x", 5], { sort: "desc" }), pick([]), swap([null, 0]), swap([]), area({ w: 3 }), area()];
