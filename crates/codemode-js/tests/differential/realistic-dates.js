// Realistic agent programs over dates: parsing tool output, arithmetic, bucketing, formatting.

// @program parse-mixed-timestamps
const inputs = [
  "2024-03-10T14:30:00Z", "2024-03-10T14:30:00.5+02:00", "2024-03-10", "2024-03-10T14:30",
  "2024-03-10 14:30:00", "March 10, 2024", "Mar 10 2024 14:30:00 GMT+0100", "10 Mar 2024",
  "2024/03/10", "03/10/2024", "Sun, 10 Mar 2024 14:30:00 GMT", "2024-3-1", "20240310", "not a date",
  "2024-02-30", "2024-13-01", "1710081000000", "2024-03-10T25:00:00Z", "Sunday, March 10, 2024",
];
const out = inputs.map((s) => {
  const d = new Date(s);
  return [s, Number.isNaN(d.getTime()) ? "Invalid" : d.toISOString()];
});
for (const [s, iso] of out) console.log(s.padEnd(34), iso);
console.log(new Date(1710081000000).toISOString(), new Date(Number("1710081000000")).getUTCFullYear());
return out;

// @program date-arithmetic-days-between
const day = 24 * 60 * 60 * 1000;
const start = new Date("2024-01-28T00:00:00Z");
const end = new Date("2024-03-02T12:00:00Z");
const days = Math.floor((end - start) / day);
const addDays = (d, n) => new Date(d.getTime() + n * day);
const addMonths = (d, n) => { const c = new Date(d); c.setUTCMonth(c.getUTCMonth() + n); return c; };
console.log(days, addDays(start, 10).toISOString(), addMonths(new Date("2024-01-31T00:00:00Z"), 1).toISOString());
console.log(addMonths(new Date("2023-12-15T00:00:00Z"), 14).toISOString(), addMonths(start, -2).toISOString());
const isLeap = (y) => new Date(Date.UTC(y, 1, 29)).getUTCMonth() === 1;
console.log([1900, 2000, 2023, 2024].map(isLeap));
const daysInMonth = (y, m) => new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
console.log(Array.from({ length: 12 }, (_, m) => daysInMonth(2024, m)));
return { days, weeks: +(days / 7).toFixed(1) };

// @program week-buckets-and-weekday
const events = ["2024-05-01T10:00:00Z", "2024-05-03T23:59:59Z", "2024-05-06T00:00:00Z", "2024-05-12T08:00:00Z", "2024-05-13T09:00:00Z"];
const weekStart = (d) => {
  const c = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = (c.getUTCDay() + 6) % 7;
  c.setUTCDate(c.getUTCDate() - dow);
  return c.toISOString().slice(0, 10);
};
const buckets = {};
for (const e of events) { const k = weekStart(new Date(e)); buckets[k] = (buckets[k] || 0) + 1; }
const names = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
console.log(events.map((e) => names[new Date(e).getUTCDay()]));
console.log(buckets);
function isoWeek(d) {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dayNum = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - dayNum);
  const yearStart = new Date(Date.UTC(t.getUTCFullYear(), 0, 1));
  return Math.ceil(((t - yearStart) / 86400000 + 1) / 7);
}
console.log(["2024-01-01", "2024-12-30", "2021-01-03", "2026-06-15"].map((s) => isoWeek(new Date(s))));
return buckets;

// @program relative-time-ago
const now = new Date("2024-06-01T12:00:00Z").getTime();
function ago(iso) {
  const s = Math.round((now - Date.parse(iso)) / 1000);
  const table = [[60, "second"], [60, "minute"], [24, "hour"], [30, "day"], [12, "month"], [Infinity, "year"]];
  let v = s;
  for (const [n, unit] of table) {
    if (Math.abs(v) < n) return v === 0 ? "just now" : v > 0 ? `${v} ${unit}${v === 1 ? "" : "s"} ago` : `in ${-v} ${unit}${v === -1 ? "" : "s"}`;
    v = Math.floor(v / n);
  }
}
const stamps = ["2024-06-01T12:00:00Z", "2024-06-01T11:59:30Z", "2024-06-01T11:00:00Z", "2024-05-31T12:00:00Z", "2024-03-01T00:00:00Z", "2020-01-01T00:00:00Z", "2024-06-01T12:05:00Z"];
return stamps.map(ago);

// @program date-getters-setters-utc
const d = new Date(Date.UTC(2024, 11, 31, 23, 59, 59, 999));
console.log(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
console.log(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getTimezoneOffset());
d.setUTCMilliseconds(1000);
console.log(d.toISOString());
d.setUTCHours(48);
console.log(d.toISOString());
d.setUTCFullYear(2023, 1, 29);
console.log(d.toISOString(), d.valueOf(), +d, d.getTime() === Number(d));
d.setTime(NaN);
console.log(d.getTime(), String(d), d.toJSON());
try { d.toISOString(); } catch (e) { console.log(e.name, e.message); }
console.log(Date.UTC(2024), Date.UTC(2024, 0, 1, 0, 0, 0, 0), Date.UTC(99, 0), new Date(0, 0).getFullYear(), new Date(2024, 0, 1).toISOString());
return new Date(8.64e15).toISOString();

// @program schedule-next-occurrences
const base = new Date("2024-01-31T09:00:00Z");
const next = [];
for (let i = 1; i <= 4; i++) {
  const d = new Date(base);
  d.setUTCMonth(base.getUTCMonth() + i, 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(base.getUTCDate(), last));
  next.push(d.toISOString());
}
console.log(next);
const weekdays = [];
const cur = new Date("2024-03-08T00:00:00Z");
while (weekdays.length < 5) {
  cur.setUTCDate(cur.getUTCDate() + 1);
  if (cur.getUTCDay() !== 0 && cur.getUTCDay() !== 6) weekdays.push(cur.toISOString().slice(0, 10));
}
return { next, weekdays };

// @program date-sort-and-range-filter
const logs = [
  { at: "2024-02-01T10:00:00Z", msg: "b" }, { at: "2024-01-15T08:30:00Z", msg: "a" },
  { at: "2024-03-20T16:45:00Z", msg: "d" }, { at: "2024-02-28T23:00:00Z", msg: "c" },
];
const from = new Date("2024-02-01"), to = new Date("2024-02-29T23:59:59Z");
const inRange = logs.filter((l) => { const t = new Date(l.at); return t >= from && t <= to; });
const sorted = logs.toSorted((a, b) => new Date(a.at) - new Date(b.at));
const newest = logs.reduce((m, l) => (l.at > m.at ? l : m));
console.log(inRange.map((l) => l.msg), sorted.map((l) => l.msg), newest.msg);
console.log(new Date(Math.max(...logs.map((l) => Date.parse(l.at)))).toISOString());
console.log(JSON.stringify({ when: new Date("2024-02-01T10:00:00Z") }), JSON.parse(JSON.stringify({ d: new Date(0) })).d);
return { inRange, range: [from, to] };

// @program date-format-manual
const pad = (n, w = 2) => String(n).padStart(w, "0");
const fmt = (d, pattern) => pattern
  .replace("YYYY", d.getUTCFullYear()).replace("MM", pad(d.getUTCMonth() + 1)).replace("DD", pad(d.getUTCDate()))
  .replace("HH", pad(d.getUTCHours())).replace("mm", pad(d.getUTCMinutes())).replace("ss", pad(d.getUTCSeconds()))
  .replace("SSS", pad(d.getUTCMilliseconds(), 3));
const d = new Date("2024-09-05T07:08:09.045Z");
console.log(fmt(d, "YYYY-MM-DD HH:mm:ss.SSS"), fmt(d, "DD/MM/YYYY"), fmt(d, "HHmm"));
const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
console.log(`${months[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`);
console.log(d.toLocaleDateString(undefined, { month: "long" }), d.toLocaleDateString("en-US", { timeZone: "UTC" }));
console.log(d.toISOString().split("T")[0], d.toISOString().replace(/\.\d+Z$/, "Z"), d.toUTCString().slice(5, 16));
return fmt(d, "YYYY-MM-DDTHH:mm:ss");

// @program date-invalid-and-edge-construction
const cases = [new Date(""), new Date(undefined), new Date(null), new Date(true), new Date([]), new Date(["2024-01-01"]), new Date(2024, 0), new Date(8.64e15 + 1), new Date(-1), new Date("0"), new Date("2024"), new Date(2024), new Date("2024-06")];
for (const c of cases) console.log(Number.isNaN(+c) ? "NaN" : c.toISOString());
console.log(typeof Date(), Date.length, new Date(2020, 1, 31).getDate(), new Date(Date.UTC(2020, 1, 31)).toISOString());
console.log(new Date("2024-01-01T00:00:00.000Z") < new Date("2024-01-01T00:00:00.001Z"), new Date(0) == 0, new Date(0) === new Date(0), +new Date(0) === +new Date(0));
return cases.map((c) => c.getTime());
