// TypeScript accepted, types ignored (issue 15 point 1); node runs what TypeScript's own
// transpileModule emits (ES2022), codemode runs the source.

// @program annotations-interfaces-aliases
interface Order { id: string; total: number; tags?: string[] }
type Status = "open" | "closed";
const orders: Order[] = [{ id: "a", total: 30 }, { id: "b", total: 12, tags: ["rush"] }];
function sum(xs: readonly Order[]): number { return xs.reduce((acc: number, o: Order) => acc + o.total, 0); }
const s: Status = "open";
return { total: sum(orders), s, rush: orders.filter((o): o is Order => (o.tags ?? []).includes("rush")).map((o) => o.id) };

// @program generics-and-assertions
function first<T>(xs: T[]): T | undefined { return xs[0]; }
function pair<A, B extends object = {}>(a: A, b: B): [A, B] { return [a, b]; }
const n = first<number>([3, 4])!;
const el = <string>"angle";
const data = JSON.parse('{"x": 1}') as { x: number };
const cfg = { port: 8080 } satisfies Record<string, number>;
return [n, el, data.x, cfg.port, pair("k", { v: 1 })];

// @program enums-numeric-string-and-reverse
enum Level { Debug, Info = 10, Warn, Error = Warn * 2 }
enum Kind { File = "file", Dir = "dir" }
const enum Bits { A = 1 << 0, B = 1 << 1, AB = A | B }
return [Level.Info, Level.Warn, Level.Error, Level[11], Object.keys(Level), Kind.Dir, Object.entries(Kind), Bits.AB];

// @program enum-used-in-switch-and-maps
enum Shape { Circle, Square }
function area(k: Shape, r: number): number {
  switch (k) { case Shape.Circle: return Math.round(Math.PI * r * r); case Shape.Square: return r * r; }
}
const byName = new Map<string, Shape>(Object.keys(Shape).filter((k) => isNaN(Number(k))).map((k) => [k, Shape[k as keyof typeof Shape]]));
return [area(Shape.Circle, 2), area(Shape.Square, 3), [...byName]];

// @program parameter-properties-and-modifiers
class Account {
  private static next = 1;
  readonly id: number;
  protected history: number[] = [];
  constructor(public owner: string, private balance: number = 0) { this.id = Account.next++; }
  deposit(n: number): this { this.balance += n; this.history.push(n); return this; }
  get total(): number { return this.balance; }
}
class Savings extends Account {
  constructor(owner: string, public readonly rate: number) { super(owner, 100); }
  interest(): number { return this.total * this.rate; }
}
const a = new Account("ann").deposit(5).deposit(7);
const s = new Savings("sam", 0.5);
return [a.total, a.id, s.id, s.interest(), Object.keys(a), Object.keys(s)];

// @program abstract-classes-and-overloads
abstract class Base { abstract name(): string; hello(): string { return "hi " + this.name(); } }
class Impl extends Base { name(): string { return "impl"; } }
function parse(x: string): number;
function parse(x: number): string;
function parse(x: any): any { return typeof x === "string" ? Number(x) : String(x); }
return [new Impl().hello(), parse("42"), parse(7)];

// @program declare-and-definite-assignment
declare const injected: number | undefined;
declare function helper(): void;
class Lazy { value!: number; init(): this { this.value = 3; return this; } }
let late!: string;
late = "set";
return [typeof injected === "undefined" ? "no" : "yes", new Lazy().init().value, late];

// @program this-parameter-and-optional-params
function describe(this: { label: string }, suffix?: string, ...rest: number[]): string {
  return this.label + (suffix ?? "") + rest.length;
}
return [describe.call({ label: "x" }), describe.call({ label: "y" }, "!", 1, 2)];

// @program type-only-constructs-vanish
type Id = string & { readonly brand: unique symbol };
interface Repo<T> { get(id: Id): T | undefined }
type Keys = keyof { a: 1; b: 2 };
const k: Keys = "a";
const tuple: [name: string, age?: number] = ["z"];
let fn: (x: number) => number = (x) => x * 2;
return [k, tuple, fn(21)];

// @program index-signatures-and-records
const counts: { [word: string]: number } = {};
for (const w of "a b a c b a".split(" ")) counts[w] = (counts[w] ?? 0) + 1;
const rec: Record<"x" | "y", number> = { x: 1, y: 2 };
return [counts, Object.values(rec).reduce((a, b) => a + b, 0)];

// @program non-null-and-optional-chains
type Node = { value: number; next?: Node };
const list: Node = { value: 1, next: { value: 2, next: { value: 3 } } };
let total = 0;
for (let n: Node | undefined = list; n; n = n.next) total += n.value;
return [total, list.next!.next!.value, list.next?.next?.next?.value ?? "end"];

// @program generic-class-with-constraints
class Stack<T extends { id: number }> {
  private items: T[] = [];
  push(...xs: T[]): number { this.items.push(...xs); return this.items.length; }
  top(): T | undefined { return this.items.at(-1); }
  ids(): number[] { return this.items.map((x) => x.id); }
}
const st = new Stack<{ id: number; name: string }>();
st.push({ id: 1, name: "a" }, { id: 2, name: "b" });
return [st.top()?.name, st.ids()];

// @program enum-member-shadows-outer-name
const A = 100;
enum E { A = 1, B = A + 1 }
return [E.A, E.B, A];
