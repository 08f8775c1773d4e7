// Iteration protocols: user iterators, spread, Array.from, iterator closing, Symbol.iterator.

// @program custom-iterable-spread
const countdown = { from: 3, [Symbol.iterator]() { let n = this.from; return { next: () => (n > 0 ? { value: n--, done: false } : { value: undefined, done: true }) }; } };
return [[...countdown], Array.from(countdown), Math.max(...countdown), new Set(countdown).size];

// @program iterator-return-on-throw
const log = [];
const it = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }), return: () => { log.push("return"); return {}; } }; } };
try { for (const v of it) throw new Error("stop"); } catch (e) { log.push(e.message); }
return log;

// @program array-iterator-manual
const it = [10, 20][Symbol.iterator]();
return [it.next(), it.next(), it.next(), it.next()];

// @program iterator-result-non-object-error
const bad = { [Symbol.iterator]() { return { next: () => 5 }; } };
try { for (const x of bad) {} } catch (e) { return e.name; }

// @program not-iterable-error
const out = [];
for (const v of [{}, 5, null]) { try { [...v]; } catch (e) { out.push(e.name); } }
return out;

// @program entries-of-object-and-map
const o = { a: 1, b: 2 };
const m = new Map(Object.entries(o));
return [[...m.entries()].flat(), Object.entries(o).map(([k, v]) => k + v).join("")];

// @program spread-string-and-set-into-array
return [[..."héllo"], [...new Set("aabbc")], [...[1, 2].entries()]];

// @program linked-list-iterable
class List {
  constructor(...xs) { this.head = null; for (const x of xs.reverse()) this.head = { x, next: this.head }; }
  [Symbol.iterator]() { let n = this.head; return { next() { if (!n) return { done: true, value: undefined }; const v = n.x; n = n.next; return { done: false, value: v }; } }; }
}
const l = new List(1, 2, 3);
return [[...l], Array.from(l, (x) => x * 2), [...l].reduce((a, b) => a + b)];

// @program symbol-iterator-identity
return [typeof Symbol.iterator, Symbol.iterator.toString(), Symbol.iterator === Symbol.for("Symbol.iterator"), Symbol.for("app") === Symbol.for("app"), Symbol.keyFor(Symbol.for("app")), Symbol("a") === Symbol("a"), Symbol.asyncIterator.description];

// @program iterator-in-destructuring-with-rest
const gen = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i, done: i++ >= 4 }) }; } };
const [first, ...rest] = gen;
return [first, rest];

// @program arguments-is-iterable
function f() { return [...arguments].map((a) => typeof a); }
f(1, "s", null)

// @program map-set-iterator-after-delete
const s = new Set([1, 2, 3]);
const it = s.values();
it.next();
s.delete(2);
return [it.next(), it.next()];
