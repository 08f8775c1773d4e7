// Locals kept in registers: operands read in place, updates and assignments that write the
// register itself, and the TDZ checks the compiler leaves out after a declaration has run.
// Each program mixes the forms where reading a register late or writing it early would show.

// @program tdz-switch-cases
const out = [];
switch (1) {
  case 0:
    let x = 1;
    break;
  case 1:
    try { out.push(x); } catch (e) { out.push(e.constructor.name); }
    try { x = 2; } catch (e) { out.push("assign:" + e.constructor.name); }
}
switch (0) {
  case 0:
    let x = 1;
    x += 1;
    out.push(x);
}
return out;

// @program tdz-self-and-closures
const out = [];
try { let q = q + 1; } catch (e) { out.push("self:" + e.constructor.name); }
function f() { return y; }
const g = () => y * 2;
try { f(); } catch (e) { out.push("decl:" + e.constructor.name); }
try { g(); } catch (e) { out.push("arrow:" + e.constructor.name); }
let y = 1;
out.push(f(), g());
return out;

// @program tdz-loop-bodies
const out = [];
for (let k = 0; k < 3; k++) {
  try { out.push(z); } catch (e) { out.push("before:" + e.constructor.name); }
  let z = k * 10;
  z += k;
  out.push(z);
}
let n = 0;
while (n < 2) {
  try { out.push(w); } catch (e) { out.push("while:" + e.constructor.name); }
  const w = n++;
  out.push(w);
}
return out;

// @program operand-order
const out = [];
let a = 1; out.push(a + (a = 5)); out.push(a);
let b = 2; b += (b = 10); out.push(b);
let c = 3; c = c + (c = 4); out.push(c);
let i = 1; out.push(i + i++); out.push(i); out.push(i++ + i); out.push(++i + i);
let d = 2; out.push(d * (d += 3) - d);
let e = 1; out.push((e = e + 1) + e);
let f = 5; out.push(f - f-- - f);
return out;

// @program assignments-that-throw-keep-the-old-value
const out = [];
let s = Symbol("s");
let v = 7;
try { v = -s; } catch (e) { out.push("neg:" + String(v)); }
let w = 1;
try { w = notDefinedAnywhere(); } catch (e) { out.push("call:" + w); }
let t = 3;
try { t = t + s; } catch (e) { out.push("add:" + t); }
let u = 4;
try { u += s; } catch (e) { out.push("compound:" + u); }
let o = null;
try { o = o.field; } catch (e) { out.push("member:" + o); }
return out;

// @program updates-and-coercions
const out = [];
let u = "3"; u++; out.push(typeof u, u);
let u2 = "3"; out.push(u2++, typeof u2);
let n = null; n += 1; out.push(n);
let m; m++; out.push(m);
let q = "a"; q += 1; q += null; out.push(q);
let obj = { valueOf() { return 41; } };
let p = obj; p++; out.push(p);
let r = obj; out.push(r++, typeof r);
const kk = 1;
try { kk = 2; } catch (e) { out.push("const:" + e.constructor.name); }
try { kk++; } catch (e) { out.push("constinc:" + e.constructor.name); }
try { kk += 1; } catch (e) { out.push("constadd:" + e.constructor.name + kk); }
return out;

// @program captured-locals-change-under-calls
const out = [];
let o2 = 5;
const o = { valueOf() { o2 = 9; return 1; } };
out.push(o2 + o, o2);
let count = 0;
const bump = () => ++count;
out.push(count + bump() + count);
let acc = 0;
for (let j = 0; j < 4; j++) acc = acc + bump() * j;
out.push(acc, count);
return out;

// @program loops-over-register-locals
let isum = 0, fsum = 0;
for (let i = 1; i <= 1000; i++) {
  isum = isum + ((i * 3) % 7) + Math.floor(i / 5);
  fsum = fsum + i * 0.5 + i / 4;
}
let arr = [1];
for (let j = 0; j < 5; j++) arr.push(arr[j] + j);
let g = 0;
for (let j = 0; j < 10; j += 3) g += j;
let down = 10, steps = 0;
while (down > 0) { down -= 3; steps++; }
var vv = 1; vv = vv * 2 + vv;
return [isum, fsum, arr.join(), g, down, steps, vv, ((x) => { let t = x; t *= 3; t -= 1; t **= 2; t %= 7; return t; })(4)];

// @program calls-on-locals-assigned-in-arguments
const out = [];
let f = (x) => "old:" + x;
const g = (x) => "new:" + x;
out.push(f(f = g), f(1));
let o = { m(x) { return "o1:" + x; } };
const other = { m(x) { return "o2:" + x; } };
out.push(o.m(o = other), o.m(2));
let arr = [10, 20, 30];
let i = 0;
out.push(arr[i], arr[i++], arr[i], arr[(i = 2)], i);
let a2 = [1, 2];
out.push(a2[a2 = 0]);
const s = "text";
out.push(s.toUpperCase(), s.length, s[1]);
return out;

// @program declarations-straight-into-registers
const out = [];
try { const x = x.p; } catch (e) { out.push("member:" + e.constructor.name); }
try { let k = { a: 1 }[k]; } catch (e) { out.push("key:" + e.constructor.name); }
try { let y = y + 1; } catch (e) { out.push("binary:" + e.constructor.name); }
try { let z = ((q) => q)(z); } catch (e) { out.push("call:" + e.constructor.name); }
const obj = { get v() { return 5; }, n: { deep: "d" } };
const v = obj.v, d = obj.n.deep, w = obj["n"];
let sum = v + 1;
const fn = (t) => t * 2, str = "s" + v;
out.push(v, d, typeof w, sum, fn(sum), str);
let u = obj.missing;
out.push(u === undefined);
for (let j = 0, n = out.length; j < n; j += 4) out.push(j);
return out;

// @program getters-and-throws-on-direct-operands
const out = [];
let hits = 0;
const o = { get p() { hits++; return hits * 10; } };
let x = o.p;
x = o.p + x;
out.push(x, hits);
let t = 1;
try { t = null.p; } catch (e) { out.push("null:" + t); }
let r = 2;
try { r = undefined[r]; } catch (e) { out.push("undef:" + r); }
const box = { n: 0, inc() { return ++this.n; } };
let last = 0;
for (let k = 0; k < 3; k++) last = box.inc();
out.push(last, box.n);
return out;
