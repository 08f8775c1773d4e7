// Coercion corners: ToPrimitive order, ==, +, relational, ToNumber, ToString, ToPropertyKey, truthiness.

// @program loose-equality-table
const vals = [0, "", "0", null, undefined, NaN, false, [], [0], "1", 1, true];
const rows = vals.map((a) => vals.map((b) => (a == b ? 1 : 0)).join(""));
rows

// @program strict-vs-loose
return [null == undefined, null === undefined, "1" == 1, 0 == false, "" == 0, [1] == 1, [1, 2] == "1,2", ({}) == "[object Object]", null == 0, undefined == 0, NaN == NaN];

// @program plus-operator-mix
return [1 + "2", "3" - 1, "3" * "4", true + 1, null + 1, undefined + 1, [] + [], [] + {}, [1] + [2], {} + 1, "5" + null, 1 + 2 + "3" + 4 + 5].map(String);

// @program unary-plus-and-minus
return [+"", +" 42 ", +"4e2", +"0x1A", +"1,000", +[], +[5], +[1, 2], +{}, +null, +undefined, +true, -"3", -"-0"].map(String);

// @program to-primitive-order
const log = [];
const obj = {
  valueOf() { log.push("valueOf"); return 10; },
  toString() { log.push("toString"); return "str"; },
};
const r = [obj + 1, `${obj}`, obj * 2, String(obj), obj > 5, obj == 10];
return [r, log];

// @program to-primitive-symbol
const money = { [Symbol.toPrimitive](hint) { return hint === "number" ? 42 : hint === "string" ? "$42" : "default"; } };
return [+money, `${money}`, money + "", money * 1, String(money), money == "default"];

// @program valueof-returning-object-falls-back
const o = { valueOf() { return {}; }, toString() { return "7"; } };
return [o * 2, o + 1];

// @program to-primitive-both-objects-error
const o = { valueOf() { return {}; }, toString() { return {}; } };
try { o + 1; } catch (e) { return e.name; }

// @program relational-strings-vs-numbers
return ["10" < "9", "10" < 9, 10 < "9", "a" < 1, "a" > 1, null < 1, undefined < 1, null >= 0, null > 0, [2] > 1, "b" > "a", [1, 2] < [1, 3]];

// @program truthiness
const vals = [0, -0, "", " ", "0", "false", null, undefined, NaN, [], {}, function () {}, Infinity];
return vals.map((v) => (v ? "T" : "F")).join("");

// @program logical-operators-values
return [0 || "a", "" || null, 1 && "b", 0 && "c", null ?? "d", 0 ?? "e", "" ?? "f", undefined ?? null ?? "g", !"", !!"0", !![]];

// @program logical-assignment
let a = 0, b = 1, c = null;
a ||= 10; b &&= 20; c ??= 30;
const o = { x: 0, y: "set" };
o.x ||= "dflt"; o.y ??= "never"; o.z ??= "new";
return [a, b, c, o];

// @program logical-assignment-short-circuit
let calls = 0;
const f = () => (calls++, "v");
let a = "keep";
a ||= f();
let b = null;
b &&= f();
let c = 0;
c ??= f();
return [a, b, c, calls];

// @program typeof-everything
return [typeof 1, typeof "s", typeof true, typeof undefined, typeof null, typeof {}, typeof [], typeof (() => 1), typeof class {}, typeof Symbol(), typeof undeclared, typeof Math, typeof JSON.parse, typeof new Number(1)];

// @program property-key-coercion
const o = {};
o[1] = "one"; o["1"] += "!"; o[true] = "t"; o[null] = "n"; o[undefined] = "u"; o[[1, 2]] = "arr"; o[{}] = "obj"; o[1.5] = "f"; o[-0] = "z";
return [Object.keys(o), o["1"], o["null"], o["[object Object]"], o[0]];

// @program array-index-coercion
const a = ["x", "y", "z"];
return [a["1"], a[1.0], a["01"], a[-1], a["2"], a[true], a.length];

// @program number-to-string-keys-order
const o = { b: 1, 2: 2, a: 3, 1: 4, [1e21]: 5, "1.5": 6, [-1]: 7, 4294967294: 8, 4294967295: 9 };
return Object.keys(o);

// @program increment-coercion
let s = "5", n = null, u, arr = [3], b = true;
s++; n++; u++; arr++; b--;
return [s, n, u, arr, b].map(String);

// @program string-number-comparison-sorting
const xs = ["10", 9, "8", 100];
return xs.map((x) => [x, x > 9, x == 10]);

// @program in-operator-and-coercion
const o = { 1: "a", k: undefined };
return ["1" in o, 1 in o, "k" in o, "toString" in o, 0 in ["z"], "length" in [], 2 in [1, , 3], 1 in [1, , 3]];

// @program in-operator-on-primitive-error
try { "a" in "abc"; } catch (e) { return e.name; }

// @program comma-and-void
let x = (1, 2, 3);
const v = void 0;
return [x, v === undefined, void "ignored", (x++, x++, x)];

// @program exotic-tostring-of-arrays
return [String([]), String([null]), String([undefined, 1]), String([[[]]]), String([1, [2, [3, [4]]]]), [1, 2].toString(), Array.prototype.toString.call({ join: () => "custom" })];

// @program date-free-object-to-string
return [String({}), String(Object.create(null, { toString: { value: () => "nullproto" } })), `${[1, 2]}`, `${{ toString: () => "T" }}`];

// @program exponent-and-unary-precedence
return [2 ** 3 ** 2, (-2) ** 2, (2 ** -1), 2 ** 0.5 * 2 ** 0.5 === 2];

// @program nan-propagation
return [NaN + 1, NaN * 0, Math.max(NaN, 1), Math.min(1, "x"), parseInt("x") || 0, isNaN(undefined), isNaN(null), Number.isNaN(undefined)].map(String);

// @program integer-string-keys-on-arrays
const a = [];
a["2"] = "two";
a["x"] = "ex";
a[1.5] = "f";
return [a.length, Object.keys(a), JSON.stringify(a)];

// @program switch-uses-strict-equality
const classify = (v) => { switch (v) { case 1: return "num"; case "1": return "str"; case true: return "bool"; default: return "other"; } };
return [classify(1), classify("1"), classify(true), classify([1])];

// @program symbol-coercion-errors
const s = Symbol("desc");
const out = [];
for (const f of [() => s + "", () => `${s}`, () => +s, () => s * 1]) { try { f(); out.push("ok"); } catch (e) { out.push(e.name); } }
return [out, String(s), s.toString(), s.description, Object(s) instanceof Symbol];

// @program boolean-conversion-and-wrappers
const f = new Boolean(false);
return [Boolean(""), Boolean("0"), !!f, f == false, typeof f, Boolean([]), Boolean(-0)];

// @program bigint-free-large-number-compare
return [9007199254740992 === 9007199254740993, 0.1 * 3 === 0.3, Math.abs(0.1 * 3 - 0.3) < Number.EPSILON, 1e16 + 1 === 1e16];

// @program to-primitive-reads-method-getters
const out = [];
try { out.push(Number({ get valueOf() { throw new Error("from the getter"); } })); } catch (e) { out.push(e.message); }
try { out.push(`${{ get toString() { throw new RangeError("str getter"); } }}`); } catch (e) { out.push(e.name); }
let reads = 0;
const o = { get valueOf() { reads++; return () => 41; } };
out.push(o + 1, reads, o * 2, reads);
const p = { get toString() { return () => "via getter"; }, valueOf: undefined };
out.push(String(p), `${p}`, p + "!");
return out;
