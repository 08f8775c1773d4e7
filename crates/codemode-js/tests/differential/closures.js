// Functions and closures: counters, memoization, currying, arguments, call/apply/bind, defaults, rest.

// @program counter-closure
function makeCounter(start = 0, step = 1) {
  let n = start;
  return { next: () => (n += step), reset() { n = start; return n; } };
}
const c = makeCounter(10, 5);
return [c.next(), c.next(), c.reset(), c.next()];

// @program per-iteration-let
const fns = [];
for (let i = 0; i < 3; i++) fns.push(() => i);
const vfns = [];
for (var j = 0; j < 3; j++) vfns.push(() => j);
return [fns.map((f) => f()), vfns.map((f) => f())];

// @program memoize-fib
const memo = new Map();
function fib(n) {
  if (n < 2) return n;
  if (memo.has(n)) return memo.get(n);
  const v = fib(n - 1) + fib(n - 2);
  memo.set(n, v);
  return v;
}
return [fib(30), fib(78), memo.size];

// @program curry-and-compose
const curry = (f) => function curried(...args) {
  return args.length >= f.length ? f(...args) : (...more) => curried(...args, ...more);
};
const add3 = curry((a, b, c) => a + b + c);
const compose = (...fs) => (x) => fs.reduceRight((acc, f) => f(acc), x);
const inc = (x) => x + 1, dbl = (x) => x * 2;
return [add3(1)(2)(3), add3(1, 2)(3), add3(1)(2, 3), compose(inc, dbl)(5), compose(dbl, inc)(5)];

// @program arguments-object
function f(a, b) {
  return [arguments.length, Array.from(arguments), typeof arguments, Array.isArray(arguments), arguments[2]];
}
f(1, "two", [3])

// @program arguments-strict-unmapped
function g(a) { a = 2; return arguments[0]; }
g(1)

// @program call-apply-bind
function greet(greeting, punct) { return `${greeting}, ${this.name}${punct}`; }
const who = { name: "Ada" };
const bound = greet.bind(who, "Hi");
return [greet.call(who, "Hello", "!"), greet.apply(who, ["Hey", "?"]), bound("."), bound.name, bound.length, greet.length];

// @program function-properties
function named(a, b = 2, ...rest) {}
const arrow = (x, y) => x;
const obj = { method() {}, ["comp" + "uted"]: function () {}, get g() { return 1; } };
return [named.name, named.length, arrow.name, arrow.length, obj.method.name, obj.computed.name, Object.getOwnPropertyDescriptor(obj, "g").get.name, (function () {}).name, (() => {}).name];

// @program default-params-scope
let x = 1;
function f(a = x, b = a + 1, c = () => a + b) { return [a, b, c()]; }
return [f(), f(10), f(undefined, 5), f(null)];

// @program rest-and-spread-args
const sum = (...ns) => ns.reduce((a, b) => a + b, 0);
const parts = [1, 2, 3];
return [sum(), sum(...parts), sum(...parts, 4, ...[5, 6]), Math.max(...parts, 0)];

// @program iife-module-pattern
const store = (() => {
  const items = [];
  return {
    add(i) { items.push(i); return items.length; },
    get all() { return items.slice(); },
  };
})();
store.add("a");
store.add("b");
const copy = store.all;
copy.push("c");
return store.all;

// @program recursion-deep
function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); }
depth(5000)

// @program mutual-recursion-hoisting
const r = [isEven(10), isOdd(7)];
function isEven(n) { return n === 0 ? true : isOdd(n - 1); }
function isOdd(n) { return n === 0 ? false : isEven(n - 1); }
r

// @program once-and-debounce-counter
const once = (f) => { let done = false, v; return (...a) => (done ? v : ((done = true), (v = f(...a)))); };
let calls = 0;
const init = once(() => ++calls);
init(); init(); init();
return [calls, init()];

// @program arrow-lexical-this
const timer = {
  ticks: 0,
  run() { [1, 2, 3].forEach(() => this.ticks++); return this.ticks; },
  runFn() { try { [1].forEach(function () { this.ticks++; }); return "no error"; } catch (e) { return e.name; } },
};
return [timer.run(), timer.runFn()];

// @program closures-share-variable
function pair() {
  let v = 0;
  return [() => ++v, () => v];
}
const [inc, get] = pair();
inc(); inc();
return get();

// @program higher-order-pipeline
const pipe2 = [(s) => s.trim(), (s) => s.toLowerCase(), (s) => s.split(" ").filter(Boolean).length];
pipe2.reduce((v, f) => f(v), "  Hello   Big  World ")

// @program function-hoisting-in-blocks
const out = [];
out.push(typeof hoisted);
function hoisted() {}
{
  out.push(typeof inner);
  function inner() {}
}
return [...out, typeof inner];

// @program tdz-error
try {
  use();
  let value = 1;
  function use() { return value; }
} catch (e) {
  return [e.name, e instanceof ReferenceError];
}

// @program const-assignment-error
const k = 1;
try { k = 2; } catch (e) { return [e.name, k]; }

// @program callbacks-with-index-and-array
return ["a", "b"].map(function (v, i, arr) { return `${v}${i}${arr.length}${this.sep}`; }, { sep: ";" });

// @program generator-like-with-closures
function idGen(prefix) { let n = 0; return () => `${prefix}-${String(++n).padStart(3, "0")}`; }
const nextId = idGen("req");
return [nextId(), nextId(), nextId()];

// @program function-as-object
function counter() { counter.calls = (counter.calls || 0) + 1; return counter.calls; }
counter(); counter();
return [counter.calls, Object.keys(counter), typeof counter.prototype, counter.prototype.constructor === counter];

// @program bind-partial-and-new
function P(a, b) { this.sum = a + b; }
const P1 = P.bind(null, 1);
const o = new P1(2);
return [o.sum, o instanceof P, P1.name];

// @program getter-in-closure-object
function makeUser(first, last) {
  return {
    first, last,
    get full() { return `${this.first} ${this.last}`; },
    set full(v) { [this.first, this.last] = v.split(" "); },
  };
}
const u = makeUser("Ada", "Lovelace");
u.full = "Grace Hopper";
return [u.first, u.full, JSON.stringify(u)];

// @program stack-overflow-caught
function down(n) { return down(n + 1) + 1; }
try { down(0); return "no overflow"; } catch (e) { return [e instanceof RangeError, e.name]; }

// @program optional-call
const o = { f() { return 1; }, g: null };
return [o.f?.(), o.g?.(), o.h?.(), o.missing?.deep.deeper, typeof o.g?.()];

// @program closure-in-loop-with-break
const found = [];
outer: for (let i = 0; i < 5; i++) {
  for (let j = 0; j < 5; j++) {
    if (i * j === 6) { found.push(() => [i, j]); break outer; }
  }
}
found.map((f) => f())
