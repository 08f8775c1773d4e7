// Realistic console.log output of agent programs: nested data, class instances, errors, collections.

// @program log-api-response-nested-depth
const resp = {
  status: 200,
  headers: { "content-type": "application/json", "x-rate-limit": { remaining: 42, reset: 1700000000 } },
  body: { data: [{ id: 1, attrs: { tags: ["a", "b"], meta: { deep: { deeper: true } } } }], next: null },
};
console.log(resp);
console.log(resp.body.data);
console.log([resp.headers]);
console.log(JSON.stringify(resp));
console.dir(resp, { depth: 0 });
console.dir(resp, { depth: null });

// @program log-class-instances-with-state
class Account {
  #balance = 0;
  static count = 0;
  constructor(owner, opened) { this.owner = owner; this.opened = opened; this.history = []; Account.count++; }
  get balance() { return this.#balance; }
  deposit(n) { this.#balance += n; this.history.push({ op: "dep", n }); return this; }
}
class Savings extends Account { constructor(owner) { super(owner, new Date(0)); this.rate = 0.02; } }
const a = new Account("ann", new Date("2024-01-01T00:00:00Z")).deposit(10).deposit(5);
const s = new Savings("bob");
console.log(a, a.balance);
console.log(s);
console.log([a, s].map((x) => x.constructor.name), Account.count, Account);
console.log({ accounts: [a, s] });
console.log(String(a), `${s}`, Object.prototype.toString.call(s));

// @program log-errors-with-cause-and-props
class HttpError extends Error {
  constructor(status, message, options) { super(message, options); this.name = "HttpError"; this.status = status; }
}
const root = new TypeError("socket hang up");
const e = new HttpError(502, "upstream failed", { cause: root });
console.log(String(e));
console.log(e.message, e.status, e.cause.message, e instanceof HttpError, e instanceof Error);
console.log(`${e}`);
console.log(e.toString(), Object.keys(e), JSON.stringify(e));
const plain = new Error("plain");
console.log(plain.name + ": " + plain.message);
console.log({ err: String(plain) });
try { null.x; } catch (err) { console.log(String(err)); console.log(err.constructor.name, err.message); }
try { undefined(); } catch (err) { console.log(err.message); }
try { ({}).foo.bar; } catch (err) { console.log(err.message); }
try { const o = {}; o.method(); } catch (err) { console.log(err.message); }
try { [].reduce((a, b) => a); } catch (err) { console.log(err.message); }
try { JSON.parse("{bad json}"); } catch (err) { console.log(err.name, err.message); }
try { new Array(-1); } catch (err) { console.log(err.name, err.message); }
try { "x".repeat(-1); } catch (err) { console.log(err.name, err.message); }
try { (1).toFixed(101); } catch (err) { console.log(err.name, err.message); }
return { name: e.name, status: e.status };

// @program log-maps-sets-nested
const graph = new Map([
  ["a", new Set(["b", "c"])],
  ["b", new Set(["c"])],
  ["c", new Set()],
]);
console.log(graph);
const cache = new Map([[{ url: "/x" }, { hits: 3, at: [1, 2] }], ["k", new Map([["inner", [1, { z: 1 }]]])]]);
console.log(cache);
console.log({ graph, size: graph.size });
console.log([...graph.entries()].map(([k, v]) => [k, [...v]]));
console.log(new Set([[1, 2], { a: 1 }, "s", 1, null, undefined]));
console.log(graph.keys(), graph.values(), new Set([1, 2]).entries());
const it = graph.entries();
it.next();
console.log(it, [it], { it });
for (const _ of it);
console.log(it, new Set(["x"]).values(), new Set(["y"])[Symbol.iterator](), [1, 2].values(), "ab"[Symbol.iterator]());
console.log(new Map(Array.from({ length: 105 }, (_, i) => [i, -i])).values());

// @program log-arrays-long-and-mixed
console.log(Array.from({ length: 30 }, (_, i) => i * i));
console.log(Array.from({ length: 120 }, (_, i) => i));
console.log(["short", "strings", "in", "an", "array", "of", "words", "that", "goes", "on"]);
console.log([1, "two", { three: 3 }, [4], null, undefined, true, 3.5, -0, NaN]);
console.log(Array(5), [1, , 3], [, , 1, , ,]);
const arr = [1, 2, 3];
arr.label = "tagged";
console.log(arr, Object.assign([], { 0: "a", 5: "f" }));
console.log([[]], [{}], [[[]]], { a: [] }, { a: {} });

// @program log-strings-quotes-and-escapes
console.log(["it's", 'say "hi"', `both ' and "`, "back`tick", "new\nline", "tab\there", "uni\u00e9", "\u0000", "emoji 😀"]);
console.log({ k: "it's" }, { k: 'a"b' }, { "key with space": 1, "key'quote": 2 });
console.log("top level strings are raw: it's \"quoted\"");
console.log("%s is %d years and %i days, %f, %j, %o, %O, %%, %c done", "Bob", 42.5, 7.9, "3.5", 1, { a: 1 }, { b: [2] }, "color: red");
console.log("%s", { a: 1 }, "%s", Symbol("s"));
console.log("%d", "abc", "extra", 5);

// @program log-numbers-and-special-values
console.log(0.1 + 0.2, 1e21, 1e-7, -0, [-0], { z: -0 }, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 123e-20);
console.log([NaN, Infinity, -Infinity], { n: NaN });
console.log(Symbol("sym"), Symbol(), Symbol.iterator, { [Symbol("k")]: 1, plain: 2 });
console.log(null, undefined, [null, undefined], { u: undefined, n: null });
console.log(true, [true, false], new Boolean(false), new Number(3), new String("boxed"));
console.log(function namedFn() {}, () => {}, class Foo {}, class extends Array {}, async () => {}, function* g() {}, Math.max);
console.log({ f() {}, g: () => 1, h: function () {}, async i() {}, *j() {} });

// @program log-dates-in-structures
const d = new Date(Date.UTC(2024, 1, 29, 12, 0, 0));
console.log(d);
console.log([d], { d });
console.log(String(d));
console.log(`${d}`);
console.log(d.toString(), d.toDateString(), d.toTimeString());
console.log(d.toUTCString(), d.toISOString(), d.toJSON());
console.log(new Date(NaN), [new Date(NaN)], String(new Date(NaN)));
console.log(JSON.stringify({ d, bad: new Date(NaN) }));

// @program log-objects-with-accessors-and-symbols
const o = {
  get computed() { return 42; },
  set onlySet(v) {},
  get both() { return 1; }, set both(v) {},
  [Symbol.toStringTag]: "Custom",
  regular: 1,
};
console.log(o);
const proto = { inherited: true };
const child = Object.create(proto);
child.own = 1;
console.log(child, Object.create(null), Object.assign(Object.create(null), { x: 1 }));
const frozen = Object.freeze({ a: 1 });
console.log(frozen, Object.isFrozen(frozen));
class Tagged { get [Symbol.toStringTag]() { return "T"; } }
console.log(String(new Tagged()));
class DataTagged {}
Object.defineProperty(DataTagged.prototype, Symbol.toStringTag, { value: "DT" });
console.log(new DataTagged(), [new DataTagged()]);

// @program log-regexps-and-misc
console.log(/ab+c/gi, [/x/], { r: /y/m }, new RegExp("a/b"), new RegExp(""), /[/]/);
console.log(new URL("https://user:pw@example.com:8080/p/a/t/h?query=string#hash"));
console.log(new URLSearchParams("a=1&b=2&a=3"));
console.log(new Uint8Array([1, 2, 255]), new TextEncoder().encode("hé"));
console.log(Promise.resolve(5), Promise.reject(new Error("no")).catch(() => {}) && "x", new Promise(() => {}));
const rejected = Promise.reject(new RangeError("bad"));
rejected.catch(() => {});
console.log(rejected, { p: Promise.resolve({ a: { b: { c: {} } } }) }, [Promise.resolve([1, 2])], Object.assign(Promise.resolve(1), { extra: 2 }));
class Task extends Promise {}
console.log(Task.resolve("done"), Promise.reject(7).catch(() => {}));
console.log(new WeakMap(), new WeakSet(), globalThis.Math === Math, typeof globalThis);
console.log([function () {}, class {}], Symbol.for("reg"));

// @program log-weak-collections-and-hidden
const wm = new WeakMap();
const key = { id: 1 };
wm.set(key, "meta");
const ws = new WeakSet([key]);
console.log(wm, ws, { wm }, [ws]);
console.log("%o", ws);
console.log("%o", wm);
class Registry extends WeakMap {}
console.log(new Registry(), new WeakMap().has(key), wm.get(key), ws.has(key));
