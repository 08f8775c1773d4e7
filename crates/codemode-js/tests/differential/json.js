// JSON: parse with reviver, stringify with replacer function/array, indent, toJSON, errors.

// @program roundtrip-tool-payload
const text = '{"id":"o1","items":[{"sku":"a","qty":2,"price":9.5},{"sku":"b","qty":1,"price":0.25}],"meta":{"next":null,"ok":true}}';
const o = JSON.parse(text);
o.total = o.items.reduce((s, i) => s + i.qty * i.price, 0);
return JSON.stringify(o);

// @program stringify-indent-variants
const v = { a: [1, { b: 2 }], c: "x", e: [], f: {} };
return [JSON.stringify(v, null, 2), JSON.stringify(v, null, "--"), JSON.stringify([1, [2]], null, 20).split("\n")[1].length, JSON.stringify(v, null, 0)];

// @program stringify-special-values
return JSON.stringify({ u: undefined, f() {}, s: Symbol("x"), n: null, nan: NaN, inf: -Infinity, nz: -0, arr: [undefined, () => 1, Symbol("y"), NaN], d: new Map([[1, 2]]), st: new Set([1]) });

// @program stringify-toplevel-oddities
return [JSON.stringify(undefined), JSON.stringify(() => 1), JSON.stringify(null), JSON.stringify("a\"b\n\u2028"), JSON.stringify(true), JSON.stringify(new Number(5)), JSON.stringify(new String("s")), JSON.stringify(Object(false))].map(String);

// @program stringify-replacer-function
const data = { name: "n", password: "hunter2", nested: { token: "t", keep: 1 }, list: [1, 2, 3] };
return JSON.stringify(data, (k, v) => (k === "password" || k === "token" ? "[redacted]" : typeof v === "number" ? v * 10 : v));

// @program stringify-replacer-array
return JSON.stringify({ b: 1, a: 2, c: { a: 3, z: 4 }, 1: "one" }, ["a", "c", 1, "missing"]);

// @program replacer-sees-holder-and-key-order
const seen = [];
JSON.stringify({ x: { y: 1 }, z: [5] }, function (k, v) { seen.push(`${k}:${typeof v}:${Array.isArray(this) ? "arr" : typeof this}`); return v; });
seen

// @program to-json-methods
const money = { cents: 1234, toJSON(key) { return `$${(this.cents / 100).toFixed(2)}@${key}`; } };
class Secret { toJSON() { return undefined; } }
return JSON.stringify({ price: money, list: [money], hidden: new Secret(), arr: [new Secret()] });

// @program parse-reviver
const revived = JSON.parse('{"a":1,"b":{"c":2,"d":[3,4]},"drop":5}', function (k, v) {
  if (k === "drop") return undefined;
  return typeof v === "number" ? v + 100 : v;
});
revived

// @program reviver-order
const order = [];
JSON.parse('{"a":{"b":1,"c":[2]},"d":3}', (k, v) => { order.push(k); return v; });
order

// @program parse-errors
const bad = ["{a:1}", "[1,]", "'x'", "", "{\"a\":1,}", "01", "NaN", "[1] x", "\"\\x\""];
return bad.map((s) => { try { JSON.parse(s); return "ok"; } catch (e) { return e.name; } });

// @program parse-edge-values
return [JSON.parse(" 1e3 "), JSON.parse("-0"), JSON.parse('"\\u00e9\\ud83d\\ude00"'), JSON.parse("[]").length, JSON.parse('{"__proto__": 1}').__proto__, JSON.parse("null"), JSON.parse('{"a":1,"a":2}').a];

// @program parse-proto-key-is-own
const o = JSON.parse('{"__proto__": {"x": 1}}');
return [Object.keys(o), o.x, Object.getPrototypeOf(o) === Object.prototype];

// @program stringify-cycle-error
const a = { name: "a" };
a.self = a;
try {
  JSON.stringify(a);
} catch (e) {
  return [e.name, e instanceof TypeError];
}

// @program stringify-cycle-message
const a = [];
a.push({ back: a });
try { JSON.stringify(a); } catch (e) { return e.message.split("\n")[0]; }

// @program stringify-key-order-integer-first
return JSON.stringify({ z: 1, 10: "ten", a: 2, 2: "two", "-1": "neg", "01": "lead" });

// @program stringify-nested-depth
let v = { leaf: true };
for (let i = 0; i < 20; i++) v = { i, child: v };
const s = JSON.stringify(v);
return [s.length, JSON.parse(s).child.child.i];

// @program stringify-unicode-escapes
return JSON.stringify(["\u0000\u001f", "\u007f", "\t\b\f\r", "é", "\ud83d\ude00", "/"]);

// @program deep-clone-via-json
const orig = { a: [1, { b: 2 }], d: "x" };
const copy = JSON.parse(JSON.stringify(orig));
copy.a[1].b = 99;
return [orig.a[1].b, copy.a[1].b];

// @program stringify-getters-and-nonenumerable
const o = { get g() { return "got"; } };
Object.defineProperty(o, "hidden", { value: 1, enumerable: false });
return JSON.stringify(o);

// @program stringify-array-with-extra-props
const arr = [1, 2];
arr.extra = "x";
return [JSON.stringify(arr), JSON.stringify([, 1])];

// @program pretty-print-report
const report = { service: "api", checks: [{ name: "db", ok: true }, { name: "cache", ok: false, error: "timeout" }] };
console.log(JSON.stringify(report, null, 2));
return report.checks.filter((c) => !c.ok).length;

// @program json-lines-processing
const jsonl = '{"level":"info","msg":"start"}\n{"level":"error","msg":"boom","code":7}\n{"level":"info","msg":"end"}';
const recs = jsonl.split("\n").map((l) => JSON.parse(l));
return { errors: recs.filter((r) => r.level === "error").map((r) => r.code), count: recs.length };

// @program json-to-string-tag
return [Object.prototype.toString.call(JSON), typeof JSON.parse, JSON[Symbol.toStringTag]];

// @program stringify-big-and-small-numbers
return JSON.stringify([1e21, 1e-7, 123456789.123, 0.1 + 0.2, 2 ** 53 + 1, -1e-300]);

// @program parse-large-ints-precision
return JSON.parse("[9007199254740993, 12345678901234567890, 1.0, 1e400]").map(String);

// @program tojson-on-classes-and-nested
class Money { constructor(c) { this.cents = c; } toJSON(key) { return `${key || "root"}=$${(this.cents / 100).toFixed(2)}`; } }
return JSON.stringify({ price: new Money(1999), list: [new Money(5)], plain: { toJSON() { return undefined; } } });

// @program stringify-getters-and-wrappers
const o = { get total() { return this.items.length * 2; }, items: [1, 2, 3], n: new Number(7), s: new String("x"), b: new Boolean(false) };
return JSON.stringify(o, null, "\t");

// @program reviver-dates-and-counts
const calls = [];
const v = JSON.parse('{"when":"2024-01-02","n":"42","deep":{"k":[1,"2"]}}', (k, val) => {
  calls.push(k);
  return typeof val === "string" && val !== "" && !isNaN(Number(val)) ? Number(val) : val;
});
return { v, calls };

// @program reviver-deletes-and-this
const v = JSON.parse('{"keep":1,"drop":2,"arr":[1,2,3]}', function (k, val) {
  if (k === "drop") return undefined;
  if (Array.isArray(this) && val === 2) return undefined;
  return val;
});
return [v, Object.keys(v), v.arr.length, 1 in v.arr];

// @program replacer-array-order-and-dupes
return [JSON.stringify({ b: 1, a: 2, c: 3 }, ["c", "b", "a", "b"]), JSON.stringify([{ x: 1, y: 2 }], ["y"]), JSON.stringify({ 1: "a", 2: "b" }, [2, 1])];

// @program stringify-cycle-through-tojson
const cyc = {}; cyc.self = cyc;
try { JSON.stringify({ x: { toJSON() { return cyc; } } }); return "no error"; } catch (e) { return [e.name, e.message.split("\n")[0]]; }

// @program stringify-replacer-wraps-root
const keys = [];
const out = JSON.stringify(5, function (k, v) { keys.push([k, typeof this, Object.keys(this)]); return v + 1; });
return [out, keys];

// @program parse-errors-as-v8-words-them
const cases = ["{", '{"a":}', "[1,]", "tru", '"abc', "[1 2]", "", '{"a":1}x', "01", '"\\x"', "1e", "-", '"a\nb"', "[" + "1,".repeat(30) + "x" + ",1".repeat(30) + "]", "x".padEnd(22, "1"), '{"a" 1}', '{"a":1,}', "{1:2}", '["\\u12"]', "nul", "[-x]", "1.e5", "[1.]", "  ", "[1]  ]", '{"a":1 "b":2}', "é", '["a\t"]', '"\\', "[1,2", '{"a"', "-01", "1e+", "[1,,2]", "{,}", "[" + "1,".repeat(30) + "x]"];
return cases.map((s) => { try { return JSON.stringify(JSON.parse(s)); } catch (e) { return e.name + ": " + e.message; } });

// @program parse-key-order-escapes-and-numbers
const ok = JSON.parse('{"b":1,"a":[1,2.5,-0,1e400,-1e-400,9007199254740993,"\\ud800x","\\u00e9\\n\\/"],"2":true,"1":null,"__proto__":5,"b":7}');
return [JSON.stringify(ok), Object.keys(ok).join(), Object.is(ok.a[2], -0), ok.a[6].length, ok.a[6].charCodeAt(0), Object.getPrototypeOf(ok) === Object.prototype, ok.__proto__];
