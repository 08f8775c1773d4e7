// Date: construction, parsing (ISO and V8's legacy forms), getters, setters, strings, JSON.
// Every program uses fixed instants (the oracle runs node with TZ=UTC, our zone).

// @program date-parse-iso-forms
const inputs = [
  "2026-01-15", "2026-01", "2026", "2026-01-15T10:20", "2026-01-15T10:20:30", "2026-01-15T10:20:30.5",
  "2026-01-15T10:20:30.123456Z", "2026-01-15T10:20:30+02:00", "2026-01-15T10:20:30-0530",
  "2026-01-15t10:20:30z", "+002026-01-15T00:00:00Z", "-000001-01-01T00:00:00Z", "-000000-01-01T00:00:00Z",
  "2026-01-15T24:00:00Z", "2026-01-15T24:00:01Z", "2026-02-30", "2026-13-01", "2026-00-10",
  "2026-01-15T10:20:30 GMT", "2026-01-15T10:20:30Zjunk", "2026-1-5", "2026-01-15 10:20", "2026-01-15 10:20:30Z",
  "275760-09-13T00:00:00Z", "+275760-09-13T00:00:00.000Z", "+275760-09-13T00:00:00.001Z", "-271821-04-20T00:00:00Z",
  "-271821-04-19T23:59:59.999Z", "2026-01-15T10:20:30.Z", "2026-01-15T1:20", "2026-01-15T10:2",
];
return inputs.map((s) => [s, Date.parse(s)]);

// @program date-parse-legacy-forms
const inputs = [
  "Thu, 15 Jan 2026 10:20:30 GMT", "Thu, 15 Jan 2026 10:20:30 +0200", "15 Jan 2026 10:20:30 -0800",
  "Thu Jan 15 2026 10:20:30 GMT+0000 (Coordinated Universal Time)", "Jan 15, 2026", "January 15, 2026 10:20 PM",
  "15 January 2026", "Jan 15 2026 10:20:30 EST", "Jan 15 2026 10:20:30 PDT", "1/15/2026", "01/15/2026 10:20:30",
  "2026/01/15", "2026/1/5 3:04:05 pm", "1/2", "Jan 5", "5 Jan", "12:00 AM Jan 1 2026", "Jan 1 2026 12:00 PM",
  "Jan 1 2026 13:00 PM", "Jan 1 2026 24:00", "Jan 1 2026 GMT-8", "Jan 1 2026 GMT+05:30", "Jan 1 2026 UTC+1",
  "Jan 1 2026 10:20:30.456", "Jan 1 2026 10:20:30.4", "Jan 1 2026 10::", "Tuesday, June 3, 2025",
  "Sat, 01-Feb-2025 00:00:00 GMT", "June 3 99", "June 3 49", "June 3 50", "3 June 0", "foo Jan 1 2026",
  "Jan 1 2026 foo", "(comment) Jan 1 2026", "Jan 1 2026 (Pacific)", "Jan 1 2026 )", "2026-01-15T10:20:30.5 Z",
  "", " ", "not a date", "12", "2026", "Z", "T10:00", "1 2 3 4", "Dec 25 2025 12:30:45 z",
  "Mon, 25 Dec 1995 13:30:00 +0430", "Wed Dec 31 1969 23:59:59 GMT-0000", "1970-01-01T00:00:00.000+00:00",
];
return inputs.map((s) => [s, Date.parse(s)]);

// @program date-constructor-forms
const out = [];
out.push(new Date(0).toISOString());
out.push(new Date(1768482245006).toISOString());
out.push(new Date(2026, 0).toISOString(), new Date(2026, 0, 15, 10, 20, 30, 400).toISOString());
out.push(new Date(99, 11, 31).toISOString(), new Date(0, 0).toISOString(), new Date(100, 0).toISOString());
out.push(new Date(2026, 13, 40).toISOString(), new Date(2026, -1, 0).toISOString(), new Date(2026, 0, 1, 25, 61, 61, 1001).toISOString());
out.push(new Date("2026-03-04T05:06:07Z").getTime(), new Date(new Date(5)).getTime());
out.push(new Date(8.64e15).getTime(), new Date(8.64e15 + 1).getTime(), new Date(-8.64e15).getTime(), new Date(1.5).getTime(), new Date(-1.5).getTime());
out.push(new Date(NaN).getTime(), new Date(undefined).getTime(), new Date(null).getTime(), new Date(true).getTime(), new Date("").getTime());
out.push(new Date({ valueOf() { return 42; } }).getTime(), new Date({ toString() { return "1970-01-02"; }, valueOf: undefined }).getTime());
out.push(new Date(2026, NaN).getTime(), new Date(2026, 0, Infinity).getTime(), new Date(1e7, 0).getTime());
out.push(Date.UTC(2026), Date.UTC(2026, 1), Date.UTC(2026, 1, 29), Date.UTC(), Date.UTC(50, 0), Date.UTC(-1, 0), Date.UTC(2026, 0, 1, 0, 0, 0, 0.9));
out.push(Date.length, Date.UTC.length, Date.parse.length, Date.now.length, Date.prototype.setHours.length, Date.name);
out.push(typeof Date.now(), Number.isInteger(Date.now()), typeof Date(), Date() === new Date().toString() || "changed-second");
return out;

// @program date-getters
const ds = [new Date(Date.UTC(2024, 1, 29, 23, 59, 58, 999)), new Date(-1), new Date(Date.UTC(-50, 6, 4)), new Date(NaN)];
return ds.map((d) => [
  d.getFullYear(), d.getMonth(), d.getDate(), d.getDay(), d.getHours(), d.getMinutes(), d.getSeconds(), d.getMilliseconds(),
  d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(),
  d.getUTCMilliseconds(), d.getTimezoneOffset(), d.getYear(), d.valueOf(), d.getTime(),
]);

// @program date-setters
const d = new Date(Date.UTC(2026, 0, 31, 12, 0, 0));
const log = [];
log.push(d.setMonth(1), d.toISOString());
log.push(d.setDate(0), d.toISOString());
log.push(d.setFullYear(2024, 1, 29), d.toISOString());
log.push(d.setFullYear(2025), d.toISOString());
log.push(d.setHours(25, 70, 80, 1500), d.toISOString());
log.push(d.setMinutes(-1), d.toISOString());
log.push(d.setSeconds(30, 5), d.toISOString());
log.push(d.setMilliseconds(-1), d.toISOString());
log.push(d.setUTCHours(0, 0, 0, 0), d.setUTCDate(15), d.setUTCMonth(5, 1), d.setUTCFullYear(2000), d.toISOString());
log.push(d.setTime(86400000), d.toISOString(), d.setTime("x"), String(d));
log.push(d.setHours(1), d.setFullYear(2020), d.toISOString());
log.push(d.setYear(99), d.toISOString(), d.setYear(2001), d.getYear(), d.setYear(NaN));
log.push(d.setMonth(), d.getTime());
const e = new Date(0);
log.push(e.setMonth(1, undefined), e.setDate(8.64e15));
return log;

// @program date-setter-argument-order
// (On an invalid date node 20 converts only the first argument; the spec and test262 convert
// all of them, as this crate does: that case is a unit test, not a differential program.)
const d = new Date(0);
const seen = [];
const arg = (v) => ({ valueOf() { seen.push(v); return v; } });
const r = d.setHours(arg(1), arg(2), arg(3), arg(4));
const bad = new Date(NaN);
return [r, seen, bad.setFullYear(arg(2020), arg(5)), bad.toISOString(), seen];

// @program date-strings
const ds = [0, 1768482245006, Date.UTC(-1, 0, 1), Date.UTC(12345, 4, 6), Date.UTC(5, 0, 1) - 86400000 * 365 * 4, -62198755200000];
const out = ds.map((t) => {
  const d = new Date(t);
  return [d.toISOString(), d.toString(), d.toDateString(), d.toTimeString(), d.toUTCString(), d.toGMTString(), d.toJSON(), String(d), d + "", `${d}`];
});
const bad = new Date(NaN);
out.push([bad.toString(), bad.toDateString(), bad.toTimeString(), bad.toUTCString(), bad.toJSON(), String(bad)]);
try { bad.toISOString(); } catch (e) { out.push([e.name, e.message]); }
return out;

// @program date-locale-defaults
const ds = [new Date(Date.UTC(2026, 0, 5, 0, 0, 7)), new Date(Date.UTC(2026, 11, 25, 12, 30)), new Date(Date.UTC(1999, 6, 4, 23, 5, 9))];
return ds.map((d) => [d.toLocaleString(), d.toLocaleDateString(), d.toLocaleTimeString()]).concat([[new Date(NaN).toLocaleString()]]);

// @program date-arithmetic-and-coercion
const a = new Date("2026-03-01T00:00:00Z"), b = new Date("2026-02-01T00:00:00Z");
const days = (a - b) / 86400000;
return [days, a > b, a < b, +a, a == a.toString(), a === new Date(+a), a.getTime() === new Date(+a).getTime(),
  a + 1, [a] + "", Number(a), Math.max(a, b), JSON.stringify([a, new Date(NaN)]), a[Symbol.toPrimitive]("number"),
  a[Symbol.toPrimitive]("default"), typeof Date.prototype[Symbol.toPrimitive], Date.prototype[Symbol.toPrimitive].name];

// @program date-to-primitive-errors
const out = [];
try { new Date(0)[Symbol.toPrimitive]("bogus"); } catch (e) { out.push(e.constructor.name, e.message); }
try { Date.prototype.getTime.call({}); } catch (e) { out.push(e.constructor.name, e.message); }
try { Date.prototype[Symbol.toPrimitive].call(1, "number"); } catch (e) { out.push(e.constructor.name); }
out.push(Date.prototype.toJSON.call({ valueOf: () => NaN }), Date.prototype.toJSON.call({ toISOString: () => "mine" }));
out.push(Object.prototype.toString.call(new Date(0)), Object.prototype.toString.call(Date.prototype));
return out;

// @program date-user-overrides
class Stamp extends Date {
  toString() { return "stamp:" + this.getUTCFullYear(); }
  label() { return this.toISOString().slice(0, 10); }
}
const s = new Stamp(Date.UTC(2026, 4, 6));
const o = new Date(0);
o.valueOf = () => 7;
return [s.label(), `${s}`, s + "", s instanceof Date, Object.getPrototypeOf(s) === Stamp.prototype, s - 0, o + 1, o * 2, JSON.stringify({ s })];

// @program date-model-style-report
const events = [
  { at: "2026-01-03T09:15:00Z", kind: "deploy" },
  { at: "2026-01-01T23:59:59Z", kind: "alert" },
  { at: "Fri, 02 Jan 2026 12:00:00 GMT", kind: "deploy" },
  { at: "2026-01-03", kind: "alert" },
];
const parsed = events.map((e) => ({ ...e, t: new Date(e.at) })).sort((x, y) => x.t - y.t);
const byDay = {};
for (const e of parsed) {
  const day = e.t.toISOString().slice(0, 10);
  (byDay[day] ??= []).push(e.kind);
}
const span = parsed.at(-1).t - parsed[0].t;
const weekday = parsed.map((e) => ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][e.t.getUTCDay()]);
const next = new Date(parsed[0].t);
next.setUTCDate(next.getUTCDate() + 30);
return { byDay, hours: span / 36e5, weekday, next, first: parsed[0].t };

// @program date-console-forms
console.log(new Date(0));
console.log([new Date(86400000)], { when: new Date(NaN) });
const d = new Date(0);
d.extra = 1;
console.log(d);
class Later extends Date {}
console.log(new Later(0));
return String(new Date(0));
