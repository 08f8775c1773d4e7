// Binary data and structured data on the web platform: TextEncoder/TextDecoder (UTF-8),
// Uint8Array, structuredClone, crypto.getRandomValues. node 20 has no Uint8Array base64/hex
// methods (fromBase64, toHex, ...): the unit tests check those against RFC 4648 and the TC39
// proposal's text instead. Random bytes are checked for length and type only.

// @program encode-decode-round-trip
const enc = new TextEncoder();
const dec = new TextDecoder();
const texts = ["", "hello", "naïve café", "€100", "日本語テキスト", "emoji 😀🎉", "tab\tnew\nline"];
return texts.map((t) => {
  const bytes = enc.encode(t);
  return [t, bytes.length, Array.from(bytes).slice(0, 6), dec.decode(bytes) === t];
});

// @program utf8-of-astral-and-lone-surrogates
const enc = new TextEncoder();
return ["😀", "\ud83d", "\ude00", "a\ud800b", "\udbff\udfff", "\u0000", "\u07ff\u0800\uffff"].map((s) => Array.from(enc.encode(s)));

// @program utf8-byte-length-of-a-payload
const payload = JSON.stringify({ user: "Zoë", note: "≈ 3 km", tags: ["🚲", "city"] });
const bytes = new TextEncoder().encode(payload);
return { chars: payload.length, bytes: bytes.length, byteLength: bytes.byteLength, over: bytes.length > 40 };

// @program decode-replacement-characters
const dec = new TextDecoder();
const cases = [[0xff], [0xe2, 0x82], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0x41, 0x80, 0x42], [0xf4, 0x90, 0x80, 0x80]];
return cases.map((c) => {
  const s = dec.decode(new Uint8Array(c));
  return [s.length, Array.from(s, (ch) => ch.codePointAt(0))];
});

// @program fatal-decoding-errors
const strict = new TextDecoder("utf-8", { fatal: true });
const out = [strict.fatal, strict.decode(new Uint8Array([0x68, 0x69]))];
for (const bad of [[0xff], [0xe2, 0x82], [0x61, 0xc3]]) {
  try {
    strict.decode(new Uint8Array(bad));
    out.push("decoded");
  } catch (e) {
    out.push([e.name, e.code, e.message, e instanceof TypeError]);
  }
}
return out;

// @program byte-order-mark
const withBom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]);
const plain = new TextDecoder().decode(withBom);
const kept = new TextDecoder("utf-8", { ignoreBOM: true }).decode(withBom);
return [plain, plain.length, kept.length, kept.charCodeAt(0), new TextDecoder().ignoreBOM, new TextDecoder("utf8", { ignoreBOM: true }).ignoreBOM];

// @program streaming-decode
const dec = new TextDecoder();
const bytes = new TextEncoder().encode("a€😀b");
const parts = [];
for (let i = 0; i < bytes.length; i += 2) parts.push(dec.decode(bytes.subarray(i, i + 2), { stream: true }));
parts.push(dec.decode());
return [parts, parts.join("")];

// @program decoder-labels-and-errors
const out = [new TextDecoder("UTF-8").encoding, new TextDecoder(" utf8 ").encoding, new TextDecoder("unicode-1-1-utf-8").encoding, new TextEncoder().encoding];
for (const make of [() => new TextDecoder("no-such-encoding"), () => new TextDecoder().decode("text"), () => TextDecoder(), () => new TextEncoder().encodeInto("x", [])]) {
  try { make(); out.push("ok"); } catch (e) { out.push([e.name, e.code, e.message]); }
}
return out;

// @program encode-into-a-buffer
const enc = new TextEncoder();
const buf = new Uint8Array(8);
const r1 = enc.encodeInto("hi€", buf);
const r2 = enc.encodeInto("😀😀😀", new Uint8Array(6));
const r3 = enc.encodeInto("", buf);
return [r1, Array.from(buf), r2, r3];

// @program uint8array-construction
const a = new Uint8Array(4);
const b = new Uint8Array([1, 2, 255, 256, -1, 3.7, NaN, "7", null, true]);
const c = new Uint8Array(b);
c[0] = 99;
const d = new Uint8Array({ length: 3, 0: 5, 2: 9 });
const e = new Uint8Array(new Set([10, 20]));
const f = Uint8Array.from("123");
const g = Uint8Array.from([1, 2, 3], (x) => x * 100);
const h = Uint8Array.of(7, 8, 300);
return [a, b, b[0], c[0], d, e, f, g, h].map((x) => (typeof x === "number" ? x : Array.from(x)));

// @program uint8array-indexing-wraps
const u = new Uint8Array(3);
u[0] = 256; u[1] = -1; u[2] = 1000.9;
u[3] = 5; u[-1] = 7; u["1.5"] = 9; u.label = "x";
return [Array.from(u), u[3], u[-1], u.length, Object.keys(u), u.label, 1 in u, 3 in u];

// @program uint8array-methods
const u = new Uint8Array([5, 1, 4, 1, 3]);
return {
  indexOf: [u.indexOf(1), u.indexOf(1, 2), u.indexOf(9), u.lastIndexOf(1), u.indexOf("1")],
  includes: [u.includes(4), u.includes(6)],
  at: [u.at(0), u.at(-1), u.at(9)],
  join: [u.join(), u.join("-"), String(u), `${new Uint8Array(0)}`],
  slice: Array.from(u.slice(1, -1)),
  map: Array.from(u.map((x) => x * 60)),
  filter: Array.from(u.filter((x) => x > 1)),
  reduce: u.reduce((s, x) => s + x, 0),
  every: [u.every((x) => x > 0), u.some((x) => x > 4)],
  find: [u.find((x) => x > 3), u.findIndex((x) => x === 3)],
  sorted: Array.from(new Uint8Array(u).sort()),
  reversed: Array.from(new Uint8Array(u).reverse()),
  filled: Array.from(new Uint8Array(4).fill(9, 1, 3)),
};

// @program subarray-shares-bytes
const u = new Uint8Array([1, 2, 3, 4, 5, 6]);
const mid = u.subarray(2, 4);
mid[0] = 30;
u[3] = 40;
const copy = u.slice(2, 4);
copy[0] = 0;
return [Array.from(u), Array.from(mid), mid.length, mid.byteOffset, Array.from(copy), Array.from(u.subarray(-2))];

// @program set-copies-in
const u = new Uint8Array(6);
u.set([1, 2, 3]);
u.set(new Uint8Array([9, 9]), 4);
const out = [Array.from(u)];
try { u.set([1, 2, 3], 5); } catch (e) { out.push(e.name); }
return out;

// @program iterate-bytes
const u = new Uint8Array([10, 20, 30]);
const seen = [];
for (const b of u) seen.push(b);
u.forEach((b, i) => seen.push(`${i}:${b}`));
return [seen, [...u.keys()], [...u.entries()], [...u.values()], Array.from(u), Math.max(...u)];

// @program uint8array-as-data
const u = new Uint8Array([1, 2, 3]);
return { json: JSON.stringify(u), nested: JSON.stringify({ u }), tag: Object.prototype.toString.call(u), isArray: Array.isArray(u), isView: u instanceof Uint8Array, u };

// @program console-prints-uint8array
console.log(new Uint8Array([1, 2]));
console.log(new Uint8Array(0));
console.log({ bytes: new Uint8Array([255, 0]) });
console.log(new TextEncoder().encode("hi"));
return null;

// @program base64-of-binary-data
const bytes = new Uint8Array(256);
for (let i = 0; i < 256; i++) bytes[i] = i;
const b64 = btoa(String.fromCharCode(...bytes));
const back = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
return [b64.length, b64.slice(0, 24), b64.slice(-8), back.length, back.every((b, i) => b === i)];

// @program base64-of-utf8-text
const text = "Grüße, 世界 👋";
const bytes = new TextEncoder().encode(text);
let bin = "";
for (const b of bytes) bin += String.fromCharCode(b);
const b64 = btoa(bin);
const decoded = new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
return [b64, decoded === text];

// @program hex-digest-formatting
const bytes = new TextEncoder().encode("codemode");
const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const back = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)));
return [hex, new TextDecoder().decode(back)];

// @program xor-checksum
const data = new TextEncoder().encode("The quick brown fox");
const sum = data.reduce((a, b) => (a + b) & 0xff, 0);
const xor = data.reduce((a, b) => a ^ b, 0);
return { sum, xor, length: data.length };

// @program structured-clone-of-records
const original = {
  id: 7,
  when: new Date(Date.UTC(2026, 0, 15, 10, 30)),
  tags: new Set(["a", "b"]),
  scores: new Map([["alice", 3], ["bob", 5]]),
  nested: { list: [1, { deep: true }], pattern: /ab+c/gi },
  bytes: new Uint8Array([1, 2, 3]),
};
const copy = structuredClone(original);
copy.nested.list[1].deep = false;
copy.scores.set("carol", 1);
return [
  original.nested.list[1].deep, copy.nested.list[1].deep,
  copy.when instanceof Date, copy.when.toISOString(), copy.when !== original.when,
  [...copy.tags], [...copy.scores], original.scores.size,
  copy.nested.pattern.source, copy.nested.pattern.flags, copy.nested.pattern.lastIndex,
  Array.from(copy.bytes), copy.bytes !== original.bytes,
];

// @program structured-clone-keeps-cycles-and-sharing
const shared = { n: 1 };
const root = { a: shared, b: shared, list: [shared] };
root.self = root;
root.list.push(root);
const m = new Map();
m.set(m, root);
root.m = m;
const c = structuredClone(root);
return [c.self === c, c.a === c.b, c.list[0] === c.a, c.list[1] === c, c.m.get(c.m) === c, c.a !== shared, c !== root];

// @program structured-clone-arrays-and-primitives
const arr = [1, , 3];
arr.extra = "kept";
const c = structuredClone(arr);
return [
  c.length, 1 in c, c.extra, Object.keys(c),
  structuredClone("s"), structuredClone(null), structuredClone(undefined) === undefined, Object.is(structuredClone(-0), -0),
  typeof structuredClone(new Number(3)), structuredClone(new Number(3)) + 1, structuredClone(Object("str")).length, structuredClone(new Boolean(false)).valueOf(),
];

// @program structured-clone-drops-prototypes-and-reads-getters
class Point {
  constructor(x, y) { this.x = x; this.y = y; }
  get norm() { return Math.hypot(this.x, this.y); }
}
let reads = 0;
const src = { p: new Point(3, 4), get computed() { reads++; return { value: 42 }; } };
const c = structuredClone(src);
return [c.p instanceof Point, Object.getPrototypeOf(c.p) === Object.prototype, c.p, c.p.norm, c.computed, reads, Object.getOwnPropertyDescriptor(c, "computed").value !== undefined];

// @program structured-clone-errors
const e = structuredClone(new RangeError("out of range", { cause: { code: 7 } }));
const custom = structuredClone(Object.assign(new Error("boom"), { name: "MyError", extra: 1 }));
return [e instanceof RangeError, e.name, e.message, e.cause, custom.name, custom.message, custom.extra, Object.keys(custom)];

// @program data-clone-error
const out = [];
for (const v of [() => 1, function named() {}, Symbol("tag"), Promise.resolve(1), new WeakMap(), new WeakSet(), { fn() {} }, [1, () => 2]]) {
  try {
    structuredClone(v);
    out.push("cloned");
  } catch (e) {
    // The message names the value: a symbol as it prints; a function by its source (which
    // codemode does not keep) and an object by a label that depends on the realm, so only
    // their ending is compared.
    const m = typeof v === "symbol" ? e.message : e.message.endsWith(" could not be cloned.");
    out.push([e.name, e.code, m, e instanceof Error]);
  }
}
return out;

// @program structured-clone-needs-an-argument
try { structuredClone(); } catch (e) { return [e.name, e.code, e.message]; }

// @program structured-clone-of-typed-views
const base = new Uint8Array([1, 2, 3, 4]);
const view = base.subarray(1, 3);
const c = structuredClone({ base, view });
c.base[1] = 99;
return [Array.from(c.view), c.view.byteOffset, c.view.length, Array.from(base)];

// @program get-random-values-shape
const u = new Uint8Array(16);
const r = crypto.getRandomValues(u);
const out = [r === u, r instanceof Uint8Array, r.length, r.every((b) => Number.isInteger(b) && b >= 0 && b < 256)];
try { crypto.getRandomValues(new Uint8Array(65537)); } catch (e) { out.push([e.name, e.code, e.message]); }
try { crypto.getRandomValues([1, 2]); } catch (e) { out.push([e.name, e.code, e.message]); }
out.push(crypto.getRandomValues(new Uint8Array(65536)).length);
return out;

// @program random-token-from-bytes
const bytes = crypto.getRandomValues(new Uint8Array(12));
const token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
return [token.length, /^[0-9a-f]+$/.test(token)];

// @program uint8array-errors
const out = [];
for (const f of [() => new Uint8Array(-1), () => Uint8Array(2), () => Uint8Array.prototype.join.call([1, 2]), () => new Uint8Array(2 ** 32 + 1)]) {
  try { f(); out.push("ok"); } catch (e) { out.push([e.name, e.message]); }
}
return out;

// @program console-prints-long-uint8arrays
const u = new Uint8Array(120);
for (let i = 0; i < u.length; i++) u[i] = i * 7;
console.log(u);
console.log(u.subarray(0, 30));
console.log([u.subarray(0, 3)], { n: u.subarray(5, 7) });
return u.length;
