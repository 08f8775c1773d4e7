// Classes in full: private names and brand checks, static blocks, new.target, super in object
// literals, derived constructors per spec, subclassed built-ins.

// @program private-counter-with-history
class Counter {
  #count = 0;
  #log = [];
  static #instances = 0;
  constructor(start) { this.#count = start ?? 0; Counter.#instances++; }
  #bump(n) { this.#count += n; this.#log.push(n); return this; }
  get value() { return this.#count; }
  get #doubled() { return this.#count * 2; }
  set #doubled(v) { this.#count = v / 2; }
  inc() { return this.#bump(1); }
  double() { this.#doubled = this.#doubled * 2; return this; }
  static instances() { return Counter.#instances; }
  history() { return this.#log.slice(); }
}
const c = new Counter(5).inc().inc().double();
new Counter();
return [c.value, Counter.instances(), c.history(), Object.keys(c), JSON.stringify(c), Object.getOwnPropertyNames(c)];

// @program private-brand-checks
class Account {
  #balance = 0;
  static isAccount(o) { return #balance in o; }
  deposit(n) { this.#balance += n; return this.#balance; }
  #audit() { return "ok"; }
  audit() { return this.#audit(); }
}
const errors = [];
for (const f of [() => Account.prototype.deposit.call({}, 1), () => Account.prototype.audit.call([])]) {
  try { f(); } catch (e) { errors.push(`${e.name}: ${e.message}`); }
}
let inPrimitive;
try { Account.isAccount(42); } catch (e) { inPrimitive = e.name; }
return [Account.isAccount(new Account()), Account.isAccount({}), errors, inPrimitive];

// @program private-names-per-evaluation
const makeTagged = (tag) => class {
  #tag = tag;
  static has(o) { return #tag in o; }
  tag() { return this.#tag; }
};
const A = makeTagged("a");
const B = makeTagged("b");
const a = new A();
let err;
try { A.prototype.tag.call(new B()); } catch (e) { err = e.constructor.name; }
return [A.has(a), B.has(a), a.tag(), new B().tag(), err];

// @program private-accessors-and-errors
class Temperature {
  #celsius = 0;
  get #fahrenheit() { return this.#celsius * 9 / 5 + 32; }
  set #fahrenheit(f) { this.#celsius = (f - 32) * 5 / 9; }
  get #readOnly() { return 1; }
  #method() {}
  setF(f) { this.#fahrenheit = f; return this.#celsius; }
  getF() { return this.#fahrenheit; }
  writeReadOnly() { this.#readOnly = 2; }
  writeMethod() { this.#method = 1; }
}
const t = new Temperature();
const out = [t.setF(212), t.getF()];
for (const f of [() => t.writeReadOnly(), () => t.writeMethod()]) {
  try { f(); } catch (e) { out.push(`${e.name}: ${e.message}`); }
}
return out;

// @program nested-class-sees-outer-private
class Outer {
  #secret = 42;
  makeReader() {
    return class Inner {
      read(o) { return o.#secret; }
    };
  }
}
const o = new Outer();
const Reader = o.makeReader();
return new Reader().read(o);

// @program static-private-and-blocks
class Registry {
  static #items = new Map();
  static #nextId = 1;
  static defaults;
  static {
    this.defaults = ["alpha", "beta"];
    for (const name of this.defaults) Registry.register(name);
  }
  static register(name) { const id = Registry.#nextId++; Registry.#items.set(id, name); return id; }
  static get size() { return Registry.#items.size; }
  static names() { return [...Registry.#items.values()]; }
}
return [Registry.register("gamma"), Registry.size, Registry.names(), Registry.defaults];

// @program static-block-this-and-order
const log = [];
class Config {
  static a = (log.push("a"), 1);
  static { log.push("block " + (this === Config) + " " + this.a); }
  static b = this.a + 1;
  static { log.push("b=" + this.b); }
}
return [log, Config.a, Config.b];

// @program new-target-in-functions-and-classes
function Shape() {
  if (!new.target) return "called";
  this.kind = new.target.name;
}
class Base { constructor() { this.made = new.target.name; } }
class Derived extends Base {}
const arrowSeesOuter = function () { return (() => new.target)(); };
return [Shape(), new Shape().kind, new Base().made, new Derived().made, arrowSeesOuter(), typeof new arrowSeesOuter()];

// @program abstract-base-with-new-target
class Repository {
  constructor() {
    if (new.target === Repository) throw new TypeError("Repository is abstract");
  }
  find(id) { return `${this.constructor.name}#${id}`; }
}
class UserRepository extends Repository {}
let msg;
try { new Repository(); } catch (e) { msg = e.message; }
return [msg, new UserRepository().find(7)];

// @program super-in-object-literal-methods
const base = { greet() { return "hello"; }, get who() { return "base"; } };
const child = {
  greet() { return super.greet() + " from child"; },
  get who() { return "child of " + super.who; },
};
Object.setPrototypeOf(child, base);
const grand = { greet() { return super.greet() + "!"; } };
Object.setPrototypeOf(grand, child);
return [child.greet(), child.who, grand.greet()];

// @program super-property-assignment
class A {
  set value(v) { this._v = v * 10; }
  get value() { return this._v; }
}
class B extends A {
  set value(v) { super.value = v + 1; }
  get value() { return super.value; }
}
const b = new B();
b.value = 1;
return [b.value, b._v, Object.keys(b)];

// @program field-initializers-this-and-computed-keys
let counter = 0;
const key = () => `k${++counter}`;
class Item {
  id = Item.next++;
  label = `item-${this.id}`;
  [key()] = "computed";
  handler = () => this.label;
  static next = 1;
}
const x = new Item();
const y = new Item();
return [x.id, y.id, x.label, x.handler.call(null), Object.keys(y), counter];

// @program derived-constructor-rules
const tryNew = (C) => { try { return new C(); } catch (e) { return `${e.name}: ${e.message}`; } };
class P { constructor() { this.p = 1; } }
return [
  tryNew(class extends P { constructor() { this.x = 1; super(); } }),
  tryNew(class extends P { constructor() {} }),
  tryNew(class extends P { constructor() { super(); super(); } }),
  tryNew(class extends P { constructor() { super(); return 1; } }),
  tryNew(class extends P { constructor() { return { replaced: true }; } }),
  tryNew(class extends P { constructor() { super(); return undefined; } }),
  tryNew(class extends P { constructor() { const init = () => super(); init(); this.q = 2; } }),
];

// @program extends-checks
const results = [];
for (const parent of [42, undefined, {}, "str"]) {
  try { class X extends parent {} } catch (e) { results.push(`${e.name}: ${e.message}`); }
}
function NoProto() {}
NoProto.prototype = 3;
try { class Y extends NoProto {} } catch (e) { results.push(`${e.name}: ${e.message}`); }
class Nil extends null { static ok() { return "static ok"; } }
try { new Nil(); } catch (e) { results.push(e.name); }
results.push(Object.getPrototypeOf(Nil.prototype), Nil.ok());
return results;

// @program subclassed-builtins
class ValidationError extends Error {
  constructor(field, message) { super(message); this.name = "ValidationError"; this.field = field; }
}
class Stack extends Array {
  peek() { return this[this.length - 1]; }
}
class DefaultMap extends Map {
  constructor(make) { super(); this.make = make; }
  get(k) { if (!this.has(k)) this.set(k, this.make()); return super.get(k); }
}
const e = new ValidationError("email", "is required");
const s = new Stack();
s.push(1, 2, 3);
const before = s.length;
s.length = 1;
const m = new DefaultMap(() => []);
m.get("a").push(1);
m.get("a").push(2);
return [
  e instanceof ValidationError, e instanceof Error, String(e), e.field,
  Array.isArray(s), before, s.length, s.peek(), s instanceof Stack,
  m.get("a"), m.size, m instanceof Map,
];

// @program class-constructor-without-new
class Service {}
const Anonymous = class {};
const out = [];
for (const C of [Service, Anonymous]) {
  try { C(); } catch (e) { out.push(`${e.name}: ${e.message}`); }
}
return out;

// @program class-inner-name-binding
const Factory = class Node {
  static create() { return new Node(); }
  kind() { return Node.name; }
};
let reassign;
try { (class K { static m() { K = 1; } }).m(); } catch (e) { reassign = e.name; }
return [Factory.create().kind(), typeof Node, reassign];

// @program class-member-definition-errors
const out = [];
for (const make of [
  () => class { static get ["proto" + "type"]() { return 1; } },
  () => class { static ["prototype"] = 1; },
]) {
  try { make(); out.push("defined"); } catch (e) { out.push(`${e.name}: ${e.message}`); }
}
class Frozen { constructor() { Object.freeze(this); } }
class WithField extends Frozen { x = 1; }
try { new WithField(); out.push("defined"); } catch (e) { out.push(e.name); }
return out;
