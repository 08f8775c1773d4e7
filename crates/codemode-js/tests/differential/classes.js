// Classes: constructors, methods, statics, accessors, private members, inheritance, super, new.target.

// @program basic-class
class Point {
  constructor(x, y) { this.x = x; this.y = y; }
  norm() { return Math.hypot(this.x, this.y); }
  toString() { return `(${this.x}, ${this.y})`; }
}
const p = new Point(3, 4);
return [p.norm(), String(p), p instanceof Point, typeof Point, Object.keys(p), p.constructor === Point];

// @program inheritance-and-super
class Animal {
  constructor(name) { this.name = name; }
  speak() { return `${this.name} makes a sound`; }
}
class Dog extends Animal {
  constructor(name, breed) { super(name); this.breed = breed; }
  speak() { return super.speak() + " (woof)"; }
}
const d = new Dog("Rex", "lab");
return [d.speak(), d instanceof Animal, Object.getPrototypeOf(Dog) === Animal, d.breed, Dog.name];

// @program static-members-and-blocks
class Counter {
  static count = 0;
  static #secret = 41;
  static { Counter.count = Counter.#secret + 1; }
  static inc() { return ++Counter.count; }
}
Counter.inc();
return [Counter.count, Object.keys(Counter), typeof Counter.inc];

// @program private-fields-and-methods
class Account {
  #balance = 0;
  #log = [];
  deposit(n) { this.#check(n); this.#balance += n; this.#log.push(`+${n}`); return this; }
  #check(n) { if (n <= 0) throw new RangeError("amount must be positive"); }
  get balance() { return this.#balance; }
  static isAccount(o) { return #balance in o; }
  history() { return this.#log.join(" "); }
}
const a = new Account().deposit(10).deposit(5);
let err;
try { a.deposit(-1); } catch (e) { err = e.name + ": " + e.message; }
return [a.balance, a.history(), err, Account.isAccount(a), Account.isAccount({}), Object.keys(a)];

// @program getters-setters-in-class
class Temp {
  #c = 0;
  get f() { return this.#c * 9 / 5 + 32; }
  set f(v) { this.#c = (v - 32) * 5 / 9; }
  get c() { return this.#c; }
}
const t = new Temp();
t.f = 212;
return [t.c, t.f, Object.getOwnPropertyNames(Temp.prototype)];

// @program public-fields-order
const order = [];
class A {
  a = order.push("field a");
  constructor() { order.push("ctor A"); }
}
class B extends A {
  b = order.push("field b");
  constructor() { order.push("before super"); super(); order.push("after super"); }
}
new B();
order

// @program class-field-arrow-this
class Button {
  label = "ok";
  onClick = () => this.label.toUpperCase();
  method() { return this?.label; }
}
const b = new Button();
const { onClick, method } = b;
return [onClick(), method.call(undefined) ?? "no this"];

// @program extends-error
class ValidationError extends Error {
  constructor(field, msg) { super(msg); this.name = "ValidationError"; this.field = field; }
}
try {
  throw new ValidationError("email", "invalid email");
} catch (e) {
  return [e instanceof ValidationError, e instanceof Error, e.name, e.message, e.field, String(e), Object.prototype.toString.call(e)];
}

// @program extends-array
class Stack extends Array {
  peek() { return this[this.length - 1]; }
}
const s = new Stack();
s.push(1, 2, 3);
const m = s.map((x) => x * 2);
return [s.length, s.peek(), Array.isArray(s), m instanceof Stack, m.peek(), s instanceof Array];

// @program extends-map
class DefaultMap extends Map {
  constructor(def) { super(); this.def = def; }
  get(k) { if (!this.has(k)) this.set(k, this.def()); return super.get(k); }
}
const dm = new DefaultMap(() => []);
dm.get("a").push(1);
dm.get("a").push(2);
dm.get("b");
return [dm.size, dm.get("a"), [...dm.keys()]];

// @program new-target
function F() { return new.target === F; }
class Base { constructor() { this.kind = new.target.name; } }
class Derived extends Base {}
return [new F() instanceof F, F(), new Base().kind, new Derived().kind];

// @program abstract-via-new-target
class Shape {
  constructor() { if (new.target === Shape) throw new TypeError("Shape is abstract"); }
  area() { return 0; }
}
class Sq extends Shape { constructor(s) { super(); this.s = s; } area() { return this.s ** 2; } }
let msg;
try { new Shape(); } catch (e) { msg = e.message; }
return [msg, new Sq(3).area()];

// @program class-call-without-new
class K {}
try { K(); } catch (e) { return [e instanceof TypeError, e.name]; }

// @program class-expression-and-name
const Anon = class {};
const Named = class Inner { who() { return Inner.name; } };
return [Anon.name, Named.name, new Named().who(), typeof Inner];

// @program static-inheritance
class Base { static create() { return new this(); } static tag = "base"; }
class Child extends Base { static tag = "child"; }
const c = Child.create();
return [c instanceof Child, Child.tag, Base.tag, Object.getPrototypeOf(Child).tag];

// @program super-property-access
class A { greet() { return "A"; } get v() { return 1; } }
class B extends A {
  greet() { return super.greet() + "B"; }
  get v() { return super.v + 10; }
  static s() { return super.constructor === Function; }
}
return [new B().greet(), new B().v];

// @program method-chaining-builder
class Query {
  #parts = [];
  select(...f) { this.#parts.push("SELECT " + f.join(", ")); return this; }
  from(t) { this.#parts.push("FROM " + t); return this; }
  where(c) { this.#parts.push("WHERE " + c); return this; }
  build() { return this.#parts.join(" "); }
}
new Query().select("id", "name").from("users").where("age > 18").build()

// @program instanceof-and-symbol-hasinstance
class Even { static [Symbol.hasInstance](n) { return n % 2 === 0; } }
return [2 instanceof Even, 3 instanceof Even, [] instanceof Object, Object.create(null) instanceof Object];

// @program computed-method-names
const key = "dyn";
class C {
  [key + "Method"]() { return 1; }
  static ["s" + 1]() { return 2; }
  get [`${key}Get`]() { return 3; }
}
const c = new C();
return [c.dynMethod(), C.s1(), c.dynGet, Object.getOwnPropertyNames(C.prototype)];

// @program to-string-tag-and-iterator
class Range {
  constructor(a, b) { this.a = a; this.b = b; }
  get [Symbol.toStringTag]() { return "Range"; }
}
return Object.prototype.toString.call(new Range(1, 3));

// @program iterator-class-manual
class Range {
  constructor(a, b) { this.a = a; this.b = b; }
  [Symbol.iterator]() {
    let i = this.a;
    const b = this.b;
    return { next: () => (i < b ? { value: i++, done: false } : { value: undefined, done: true }) };
  }
}
return [[...new Range(1, 5)], Array.from(new Range(0, 3), (x) => x * 10)];

// @program private-name-brand-check-error
class P { #x = 1; static read(o) { return o.#x; } }
try { P.read({}); } catch (e) { return e instanceof TypeError; }

// @program class-fields-with-initializer-this
class Cfg {
  base = 10;
  doubled = this.base * 2;
  static defaults = { a: 1 };
  merged = { ...Cfg.defaults, b: this.doubled };
}
new Cfg()

// @program prototype-methods-not-enumerable
class M { a() {} static b() {} }
const keys = [];
for (const k in new M()) keys.push(k);
return [keys, Object.keys(M.prototype), Object.getOwnPropertyDescriptor(M.prototype, "a").enumerable];

// @program accessor-static-and-instance
class Registry {
  static #items = new Map();
  static register(k, v) { Registry.#items.set(k, v); }
  static get size() { return Registry.#items.size; }
}
Registry.register("a", 1);
Registry.register("b", 2);
Registry.register("a", 3);
Registry.size

// @program class-strict-mode-this
class S { m() { return (function () { return this; })(); } }
return new S().m() === undefined;

// @program constructor-returns-object
class Weird { constructor() { return { hijacked: true }; } }
const w = new Weird();
return [w.hijacked, w instanceof Weird];

// @program derived-without-super-error
class A {}
class B extends A { constructor() { } }
try { new B(); } catch (e) { return e.name; }

// @program extends-null-prototype-methods
class Plain {}
return [Object.getPrototypeOf(Plain.prototype) === Object.prototype, Plain.prototype.constructor === Plain, Plain.length, (class { constructor(a, b) {} }).length];

// @program mixins
const Serializable = (Base) => class extends Base { toJSON() { return { type: this.constructor.name, ...this }; } };
const Comparable = (Base) => class extends Base { compareTo(o) { return this.value - o.value; } };
class Item { constructor(v) { this.value = v; } }
class Rich extends Serializable(Comparable(Item)) {}
const items = [new Rich(3), new Rich(1), new Rich(2)].sort((a, b) => a.compareTo(b));
return JSON.parse(JSON.stringify(items));
