// Number formatting and arithmetic: Number→string, toFixed/toPrecision/toExponential, radix, Math.

// @program shortest-roundtrip
return [0.1 + 0.2, 1 / 3, 2 / 3, 100, 1e21, 1e-7, 123456789012345680000, 5e-324, 1.7976931348623157e308, -0.000001].map(String);

// @program number-to-string-exponent-boundaries
return [1e20, 1e21, 123e-20, 0.000001, 0.0000001, 1.5e-10, 12345678901234567890, 2 ** 53, 2 ** 64].map((n) => "" + n);

// @program to-fixed-rounding
return [1.005, 1.255, 2.5, -2.5, 0.5, 1.45, 8.345, 10.235, 1e21, 0, -0, 123.456].map((n) => n.toFixed(2));

// @program to-fixed-digits
const x = 3.14159;
return [0, 1, 3, 5, 10, 20].map((d) => x.toFixed(d)).concat([(0.000001).toFixed(7), (1234.5678).toFixed(1), (-1.5).toFixed(0)]);

// @program to-precision
return [123.456, 0.00012345, 1e21, 5, 99.99, -0.5].flatMap((n) => [n.toPrecision(1), n.toPrecision(4)]);

// @program to-exponential
return [0, 1, 123456, 0.000123, -42.5].flatMap((n) => [n.toExponential(), n.toExponential(2)]);

// @program to-string-radix
return [255, -255, 0.5, 3.75, 1e21, 2 ** 31].flatMap((n) => [n.toString(2), n.toString(16), n.toString(36)]);

// @program to-string-radix-fraction
return [0.1, 1 / 3, Math.PI].map((n) => n.toString(7));

// @program parse-int-variants
return [parseInt("42px"), parseInt("  -17"), parseInt("0x1F"), parseInt("1F", 16), parseInt("101", 2), parseInt(""), parseInt("z", 36), parseInt("12", 3), parseInt("0.9"), parseInt("1e3"), parseInt(null, 36)];

// @program parse-float-variants
return [parseFloat("3.14abc"), parseFloat(".5"), parseFloat("-.5e-3"), parseFloat("Infinityx"), parseFloat("e5"), parseFloat("  12  "), parseFloat("0x10")].map(String);

// @program number-conversion
return [Number(""), Number("  12  "), Number("0x10"), Number("0b101"), Number("0o17"), Number("1e3"), Number("12px"), Number(null), Number(undefined), Number([]), Number([7]), Number([1, 2]), Number(true), Number("-0")].map(String);

// @program number-statics
return [Number.isInteger(5.0), Number.isInteger(5.5), Number.isSafeInteger(2 ** 53), Number.isSafeInteger(2 ** 53 - 1), Number.isFinite("5"), isFinite("5"), Number.isNaN("x"), isNaN("x"), Number.EPSILON > 0, Number.MAX_SAFE_INTEGER, Number.MIN_VALUE];

// @program integer-arithmetic-edges
return [7 % 3, -7 % 3, 7 % -3, 5.5 % 2, 2 ** 10, 2 ** -1, (-8) ** (1 / 3), 0 / 0, 1 / 0, -1 / 0, 0 * -1].map(String);

// @program negative-zero
const nz = -0;
return [Object.is(nz, 0), nz === 0, 1 / nz, String(nz), JSON.stringify(nz), nz.toFixed(1), [nz].includes(0), Math.sign(nz)].map(String);

// @program bitwise-ops
return [5 & 3, 5 | 3, 5 ^ 3, ~5, 1 << 31, -1 >>> 0, -16 >> 2, -16 >>> 28, 2 ** 32 | 0, 1.9 | 0, -1.9 | 0, NaN | 0];

// @program math-basics
return [Math.round(2.5), Math.round(-2.5), Math.round(-2.51), Math.floor(-1.5), Math.ceil(-1.5), Math.trunc(-1.7), Math.sign(-3), Math.abs(-7.25), Math.max(), Math.min(), Math.max(1, NaN), Math.hypot(3, 4)];

// @program math-functions
const r = (x) => Math.round(x * 1e9) / 1e9;
return [Math.sqrt(2), Math.cbrt(27), Math.pow(2, 0.5), Math.log(Math.E), Math.log10(1000), Math.log2(8), Math.exp(1), Math.sin(Math.PI / 6), Math.cos(0), Math.atan2(1, 1)].map(r);

// @program math-fround-clz-imul
return [Math.fround(5.5), Math.fround(0.1), Math.clz32(1), Math.clz32(0), Math.imul(3, 4), Math.imul(0xffffffff, 5), Math.expm1(0), Math.log1p(0), Math.sinh(0)];

// @program currency-format
const group = (s) => {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    if (i > 0 && (s.length - i) % 3 === 0) out += ",";
    out += s[i];
  }
  return out;
};
return [0, 5, 1234, 123456789, -99999].map((c) => {
  const [int, frac] = (Math.abs(c) / 100).toFixed(2).split(".");
  return (c < 0 ? "-$" : "$") + group(int) + "." + frac;
});

// @program human-bytes
const human = (n) => {
  const units = ["B", "KiB", "MiB", "GiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
};
return [0, 1023, 1024, 1536, 10 * 1024 * 1024, 5.5 * 1024 ** 3].map(human);

// @program duration-format
const dur = (ms) => {
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60), h = Math.floor(m / 60);
  return `${h}:${String(m % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.${String(ms % 1000).padStart(3, "0")}`;
};
return [0, 999, 61001, 3723004, 86399999].map(dur);

// @program float-sums
let s = 0;
for (let i = 0; i < 10; i++) s += 0.1;
const kahan = (xs) => { let sum = 0, c = 0; for (const x of xs) { const y = x - c; const t = sum + y; c = (t - sum) - y; sum = t; } return sum; };
return [s, s === 1, kahan(Array(10).fill(0.1)), 0.1 * 3, 9007199254740993, 0.3 - 0.1];

// @program rounding-helpers
const round = (x, d) => Math.round(x * 10 ** d) / 10 ** d;
return [round(1.005, 2), round(2.675, 2), round(-1.005, 2), round(1234.5678, -2), Number((1.005).toFixed(2)), +(0.1 + 0.2).toFixed(10)];

// @program number-methods-on-literals
return [(25).toString(), 1.5.toFixed(1), (1e3).toExponential(1), 0x10.toString(8), (-7).toString(2), 5..toString()];

// @program increments-and-compound
let a = 5, b = "5";
const log = [a++, ++a, a--, --a, b++, b];
let c = 10; c += 5; c -= 3; c *= 2; c /= 4; c %= 4; c **= 3; c <<= 2; c >>= 1; c >>>= 0; c &= 7; c |= 8; c ^= 3;
return [...log, c];

// @program numeric-separators-and-literals
return [1_000_000, 0b1010, 0o777, 0xff, 1e3, .5, 5., 0.1e-2, 0B11, 0XAB];

// @program max-min-spread-large
const arr = Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 1009) - 500);
return [Math.max(...arr), Math.min(...arr), arr.reduce((a, b) => a + b, 0)];

// @program stats-stddev
const xs = [2, 4, 4, 4, 5, 5, 7, 9];
const mean = xs.reduce((a, b) => a + b) / xs.length;
const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length);
return { mean, sd, cv: (sd / mean).toFixed(4) };

// @program number-to-locale-free-grouping
const n = 9876543.21;
const [i, f] = n.toFixed(2).split(".");
const rev = [...i].reverse();
let out = "";
rev.forEach((ch, k) => { out = ch + (k && k % 3 === 0 ? " " : "") + out; });
return out + "," + f;

// @program large-and-small-printing
return [2 ** 70, 1 / 2 ** 30, 123.0, 1.10, -1e-7, 1e300 * 10, -(1e300 * 10), 4.35, 0.000001234, 1e6 + 0.1].map((n) => `${n}`);

// @program compare-numbers-and-nan
const v = [NaN, 0, -0, Infinity];
return [NaN === NaN, NaN !== NaN, [NaN].indexOf(NaN), [NaN].includes(NaN), Object.is(NaN, NaN), 0 === -0, Infinity > 1e308, -Infinity < -1e308, v.map((x) => x > -1)];

// @program math-surface-and-rounding-corners
const xs = [0.49999999999999994, -0.5, -0.4, 2.5, -2.5, 1e300, -0, 0.5, -1.5000000000000002];
const sign = (v) => (Object.is(v, -0) ? "-0" : v);
return [xs.map((x) => sign(Math.round(x))), Math.hypot(1e200, 1e200), Math.hypot(3, 4), Math.hypot(NaN, Infinity), Math.hypot(), sign(Math.hypot(-0)),
  Math.clz32(1), Math.clz32(-1), Math.clz32(0), Math.imul(0xffffffff, 5), Math.imul(3, 4), Math.fround(5.5), Math.fround(5.05),
  Math.asinh(1), Math.acosh(2), Math.atanh(0.5), Math.expm1(1e-10), Math.log1p(1e-10), Math.cosh(1), Math.tanh(1), Math.sinh(1), Math.acos(0.5), Math.asin(0.5), Math[Symbol.toStringTag]];

// @program to-string-radix-prints-the-shortest-digits-that-read-back
// V8's DoubleToRadixCString: fraction digits up to the double's precision, round half to even
// with carries, integer digits past 2^53 as zeros.
const xs = [0.1, 5e-324, 123.456, 1e21, 0.5, 255, -255.5, 1 / 3, 2 ** 53, 2 ** 60 + 12345, 1e300, 3.14159, 0, -0,
  1e-7, 0.000001, 123456789.123, 7.0000001, Number.MAX_VALUE, Number.MIN_VALUE * 3, 4.35, 0.3, 0.75, 1 - 2 ** -53];
const out = [];
for (const r of [2, 3, 5, 7, 8, 16, 32, 36]) for (const x of xs) out.push(x.toString(r));
return [out, parseInt((255.5).toString(16), 16), (0.1).toString(2).length];

// @program math-acosh-keeps-its-digits-near-one
return [1 + 1e-10, 1 + 1e-15, 1.0000001, 1.5, 2, 2.5, 10, 1e10, 2 ** 28, 2 ** 30, 1e300, 1, 0.5, NaN, Infinity]
  .map((x) => Math.acosh(x));
