// Control flow: labels, switch, loops, for-in, for-of, completion values of the program.

// @program labeled-break-continue
const out = [];
outer: for (let i = 0; i < 4; i++) {
  inner: for (let j = 0; j < 4; j++) {
    if (j === i) continue outer;
    if (i === 3) break outer;
    out.push(`${i}${j}`);
  }
}
return out;

// @program labeled-block-break
const log = [];
found: {
  for (const x of [1, 3, 5, 6, 7]) {
    if (x % 2 === 0) { log.push("even " + x); break found; }
  }
  log.push("none even");
}
log.push("after");
return log;

// @program switch-fallthrough-and-default
const f = (n) => {
  const out = [];
  switch (n) {
    case 1: out.push("one");
    case 2: out.push("two"); break;
    default: out.push("default");
    case 3: out.push("three");
  }
  return out.join(",");
};
return [f(1), f(2), f(3), f(9)];

// @program switch-lexical-scope
const g = (k) => { switch (k) { case "a": { let v = 1; return v; } case "b": { let v = 2; return v; } } return 0; };
return [g("a"), g("b"), g("c")];

// @program do-while-and-while
let i = 0, log = [];
do { log.push(i); i++; } while (i < 3);
while (i < 6) { if (i++ === 4) continue; log.push(i); }
do log.push("once"); while (false);
return log;

// @program for-in-order-and-inherited
const proto = { inherited: 1 };
const o = Object.create(proto);
o.b = 2; o[2] = "two"; o.a = 3; o[1] = "one";
Object.defineProperty(o, "hidden", { value: 0, enumerable: false });
const keys = [];
for (const k in o) keys.push(k);
return keys;

// @program for-in-over-array-and-string
const ks = [];
for (const k in ["x", "y"]) ks.push(typeof k + k);
for (const k in "hi") ks.push(k);
return ks;

// @program for-in-shadowed-and-deleted
const proto = { a: 1, b: 2 };
const o = Object.create(proto);
o.a = "own";
const seen = [];
for (const k in o) { seen.push(k); delete proto.b; }
return seen;

// @program for-of-over-builtins
const out = [];
for (const c of "ab") out.push(c);
for (const [k, v] of new Map([[1, "m"]])) out.push(k + v);
for (const v of new Set(["s"])) out.push(v);
for (const [i, v] of ["p", "q"].entries()) out.push(i + v);
for (const v of Object.values({ z: "ov" })) out.push(v);
return out;

// @program for-of-break-closes-iterator
const log = [];
const it = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i++, done: i > 10 }), return: () => { log.push("closed"); return {}; } }; } };
for (const v of it) { if (v === 2) break; log.push(v); }
return log;

// @program for-of-continue-does-not-close
const log = [];
const it = { [Symbol.iterator]() { let i = 0; return { next: () => ({ value: i++, done: i > 3 }), return: () => { log.push("closed"); return {}; } }; } };
for (const v of it) { if (v === 1) continue; log.push(v); }
return log;

// @program for-loop-var-hoisting
const r = [typeof v, v];
for (var v = 0; v < 2; v++) {}
return [...r, v];

// @program for-loop-multiple-bindings
const out = [];
for (let i = 0, j = 10; i < j; i += 3, j -= 3) out.push([i, j]);
return out;

// @program nested-loops-search
const grid = [[1, 2, 3], [4, 5, 6], [7, 8, 9]];
let pos = null;
search: for (let r = 0; r < grid.length; r++) {
  for (let c = 0; c < grid[r].length; c++) {
    if (grid[r][c] === 6) { pos = { r, c }; break search; }
  }
}
pos

// @program completion-if-statement-is-null
if (true) { 2 }

// @program completion-last-expression
1;
2;
"last"

// @program completion-after-declaration-is-null
const v = 5;
v * 2;
const w = v;

// @program explicit-return-wins
const v = 5;
if (v > 1) return "early";
"late"

// @program return-inside-loop
for (const x of [1, 2, 3]) {
  if (x === 2) return x * 100;
}
return -1;

// @program top-level-this-is-undefined
return [this === undefined, typeof this];

// @program while-with-complex-condition
const q = [5, 3, 8, 1];
let total = 0, n = 0;
while (q.length && (total += q.shift()) < 15) n++;
return [total, n, q];

// @program conditional-chains
const grade = (s) => (s >= 90 ? "A" : s >= 80 ? "B" : s >= 70 ? "C" : "F");
return [95, 85, 75, 10].map(grade).join("");

// @program block-scoping-shadowing
let x = "outer";
const seen = [];
{
  let x = "block";
  seen.push(x);
  {
    const x = "inner";
    seen.push(x);
  }
}
seen.push(x);
return seen;

// @program loop-closure-capture-in-for-in
const fs = [];
for (const k in { a: 1, b: 2 }) fs.push(() => k);
return fs.map((f) => f());

// @program empty-statements-and-blocks
;;;
{}
if (false);
for (;false;);
"done"

// @program exception-in-switch-discriminant
try {
  switch (null.x) { default: break; }
} catch (e) {
  return e.name;
}
