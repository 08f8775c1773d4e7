// Realistic agent programs built around classes: models, caches, state machines, errors.

// @program class-model-with-validation
class ValidationError extends Error {
  constructor(field, message) { super(`${field}: ${message}`); this.name = "ValidationError"; this.field = field; }
}
class User {
  static #nextId = 1;
  static roles = new Set(["admin", "member", "guest"]);
  #email;
  constructor({ name, email, role = "member" } = {}) {
    if (!name) throw new ValidationError("name", "is required");
    if (!/^\S+@\S+$/.test(email ?? "")) throw new ValidationError("email", `invalid value ${JSON.stringify(email)}`);
    if (!User.roles.has(role)) throw new ValidationError("role", `must be one of ${[...User.roles].join("|")}`);
    this.id = User.#nextId++;
    this.name = name;
    this.role = role;
    this.#email = email.toLowerCase();
  }
  get email() { return this.#email; }
  get domain() { return this.#email.split("@")[1]; }
  static from(list) { return list.map((x) => { try { return new User(x); } catch (e) { return e; } }); }
  toString() { return `User#${this.id}(${this.name})`; }
}
const results = User.from([{ name: "Ann", email: "ANN@X.IO" }, { email: "a@b" }, { name: "Bo", email: "nope" }, { name: "Cy", email: "c@y.z", role: "root" }, { name: "Di", email: "d@i.o", role: "admin" }]);
for (const r of results) console.log(r instanceof Error ? `${r.name} [${r.field}] ${r.message}` : `${r} ${r.email} ${r.domain} ${r.role}`);
console.log(results[0], Object.keys(results[0]), JSON.stringify(results[4]));
try { new User(); } catch (e) { console.log(String(e)); }
return results.map((r) => (r instanceof Error ? { error: r.message } : { id: r.id, email: r.email }));

// @program lru-cache-class-with-stats
class LRU {
  #max; #map = new Map(); hits = 0; misses = 0;
  constructor(max) { this.#max = max; }
  get(k) {
    if (!this.#map.has(k)) { this.misses++; return undefined; }
    const v = this.#map.get(k);
    this.#map.delete(k); this.#map.set(k, v); this.hits++;
    return v;
  }
  set(k, v) {
    this.#map.delete(k); this.#map.set(k, v);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value);
    return this;
  }
  get size() { return this.#map.size; }
  *[Symbol.iterator]() { yield* this.#map; }
  get [Symbol.toStringTag]() { return "LRU"; }
}
const c = new LRU(3);
c.set("a", 1).set("b", 2).set("c", 3);
c.get("a"); c.set("d", 4); c.get("b"); c.get("c");
console.log([...c], c.size, c.hits, c.misses, String(c));
console.log(c);
return { keys: [...c].map(([k]) => k), hitRate: (c.hits / (c.hits + c.misses)).toFixed(2) };

// @program state-machine-class
class Machine {
  static transitions = { idle: { start: "running" }, running: { pause: "paused", stop: "idle", fail: "error" }, paused: { resume: "running", stop: "idle" }, error: { reset: "idle" } };
  state = "idle";
  history = [];
  send(event) {
    const next = Machine.transitions[this.state]?.[event];
    if (!next) throw new Error(`Invalid transition "${event}" from "${this.state}"`, { cause: { state: this.state, event } });
    this.history.push(`${this.state} -[${event}]-> ${next}`);
    this.state = next;
    return this;
  }
}
const m = new Machine();
m.send("start").send("pause").send("resume");
try { m.send("resume"); } catch (e) { console.log(e.message, e.cause); }
m.send("fail").send("reset");
console.log(m.history.join("\n"));
console.log(m);
return m;

// @program class-inheritance-shapes-area
class Shape {
  constructor(name) { if (new.target === Shape) throw new TypeError("Shape is abstract"); this.name = name; }
  area() { throw new Error("not implemented"); }
  describe() { return `${this.name} with area ${this.area().toFixed(2)} and perimeter ${this.perimeter?.().toFixed(2) ?? "n/a"}`; }
  static compare(a, b) { return a.area() - b.area(); }
}
class Circle extends Shape { constructor(r) { super("circle"); this.r = r; } area() { return Math.PI * this.r ** 2; } perimeter() { return 2 * Math.PI * this.r; } }
class Rect extends Shape { constructor(w, h) { super("rect"); Object.assign(this, { w, h }); } area() { return this.w * this.h; } }
class Square extends Rect { constructor(s) { super(s, s); this.name = "square"; } perimeter() { return 4 * this.w; } }
const shapes = [new Circle(1.5), new Rect(2, 3.5), new Square(2.2)];
console.log(shapes.toSorted(Shape.compare).map((s) => s.describe()));
console.log(shapes, shapes.map((s) => [s instanceof Rect, s.constructor.name, Object.getPrototypeOf(Object.getPrototypeOf(s)).constructor.name]));
try { new Shape("x"); } catch (e) { console.log(`${e.name}: ${e.message}`); }
console.log(Square.compare === Shape.compare, Object.getOwnPropertyNames(Square.prototype), typeof Square);
return shapes.map((s) => s.describe());

// @program event-emitter-class
class Emitter {
  #handlers = new Map();
  on(evt, fn) { (this.#handlers.get(evt) ?? this.#handlers.set(evt, []).get(evt)).push(fn); return () => this.off(evt, fn); }
  off(evt, fn) { const l = this.#handlers.get(evt); if (l) this.#handlers.set(evt, l.filter((f) => f !== fn)); }
  once(evt, fn) { const off = this.on(evt, (...a) => { off(); fn(...a); }); return off; }
  emit(evt, ...args) { const l = [...(this.#handlers.get(evt) ?? [])]; for (const f of l) f.apply(this, args); return l.length; }
}
const e = new Emitter();
const log = [];
const offA = e.on("data", (x) => log.push(`a:${x}`));
e.once("data", (x) => log.push(`once:${x}`));
e.on("data", function (x) { log.push(`this-is-emitter:${this instanceof Emitter}:${x}`); });
console.log(e.emit("data", 1), e.emit("data", 2));
offA();
console.log(e.emit("data", 3), e.emit("none"));
return log;

// @program getters-setters-and-defineproperty
class Temperature {
  #c = 0;
  static fromF(f) { const t = new Temperature(); t.fahrenheit = f; return t; }
  get celsius() { return this.#c; }
  set celsius(v) { if (typeof v !== "number" || Number.isNaN(v)) throw new TypeError(`celsius must be a number, got ${typeof v}`); this.#c = v; }
  get fahrenheit() { return this.#c * 9 / 5 + 32; }
  set fahrenheit(f) { this.celsius = (f - 32) * 5 / 9; }
}
const t = Temperature.fromF(212);
console.log(t.celsius, t.fahrenheit, Object.keys(t), JSON.stringify(t));
try { t.celsius = "hot"; } catch (e) { console.log(e.message); }
const desc = Object.getOwnPropertyDescriptor(Temperature.prototype, "celsius");
console.log(typeof desc.get, typeof desc.set, desc.enumerable, desc.configurable);
const obj = {};
Object.defineProperty(obj, "ro", { value: 1, enumerable: true });
Object.defineProperty(obj, "hidden", { value: 2 });
try { obj.ro = 5; } catch (e) { console.log(e.constructor.name, e.message); }
console.log(obj, Object.keys(obj), obj.hidden, JSON.stringify(obj), Object.entries(Object.getOwnPropertyDescriptors(obj)).map(([k, d]) => `${k}:${d.writable}/${d.enumerable}/${d.configurable}`));
return [t.celsius, Temperature.fromF(-40).celsius];

// @program mixins-and-symbol-methods
const Serializable = (Base) => class extends Base { serialize() { return JSON.stringify(this); } };
const Comparable = (Base) => class extends Base { compareTo(o) { return this.valueOf() - o.valueOf(); } };
class Money { constructor(cents) { this.cents = cents; } valueOf() { return this.cents; } [Symbol.toPrimitive](hint) { return hint === "string" ? `$${(this.cents / 100).toFixed(2)}` : this.cents; } }
class SmartMoney extends Serializable(Comparable(Money)) {}
const a = new SmartMoney(1050), b = new SmartMoney(99);
console.log(a.serialize(), a.compareTo(b), `${a}`, a + b, a > b, String(b), [a, b].sort((x, y) => x - y).map(String));
console.log(SmartMoney.name, Object.getPrototypeOf(SmartMoney).name, a instanceof Money, a);
return [a.serialize(), `${b}`];

// @program static-factory-and-private-methods
class Query {
  #filters = [];
  #limit = Infinity;
  static of(items) { const q = new Query(); q.items = items; return q; }
  where(fn) { this.#filters.push(fn); return this; }
  limit(n) { this.#limit = n; return this; }
  #matches(x) { return this.#filters.every((f) => f(x)); }
  run() { const out = []; for (const x of this.items) { if (out.length >= this.#limit) break; if (this.#matches(x)) out.push(x); } return out; }
  static isQuery(o) { return #filters in o; }
}
const q = Query.of(Array.from({ length: 20 }, (_, i) => ({ n: i, even: i % 2 === 0 }))).where((x) => x.even).where((x) => x.n > 3).limit(3);
console.log(q.run(), Query.isQuery(q), Query.isQuery({}));
try { Query.prototype.run.call({ items: [] }); } catch (e) { console.log(e.constructor.name, e.message); }
return q.run().map((x) => x.n);
