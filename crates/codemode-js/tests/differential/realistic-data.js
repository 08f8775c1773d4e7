// Realistic agent programs over records: grouping, aggregation, sorting, reshaping, reports.

// @program sales-report-group-sort-format
const sales = [
  { region: "EMEA", rep: "Ana", amount: 1234.5, date: "2024-03-01" },
  { region: "APAC", rep: "Bo", amount: 987.25, date: "2024-03-02" },
  { region: "EMEA", rep: "Cy", amount: 50, date: "2024-03-05" },
  { region: "AMER", rep: "Di", amount: 15000, date: "2024-02-28" },
  { region: "APAC", rep: "Ed", amount: 0.5, date: "2024-03-03" },
];
const byRegion = sales.reduce((acc, s) => ((acc[s.region] ??= []).push(s), acc), {});
const summary = Object.entries(byRegion)
  .map(([region, rows]) => ({
    region,
    count: rows.length,
    total: rows.reduce((a, r) => a + r.amount, 0),
    reps: rows.map((r) => r.rep).toSorted(),
  }))
  .sort((a, b) => b.total - a.total);
for (const s of summary) {
  console.log(`${s.region.padEnd(6)}|${String(s.count).padStart(3)}|${s.total.toFixed(2).padStart(10)}|${s.reps.join(", ")}`);
}
console.log(summary);
return summary;

// @program map-group-by-and-counts
const events = [
  { type: "click", user: "u1" }, { type: "view", user: "u2" }, { type: "click", user: "u2" },
  { type: "click", user: "u1" }, { type: "purchase", user: "u1" }, { type: "view", user: "u3" },
];
const byType = new Map();
for (const e of events) byType.set(e.type, [...(byType.get(e.type) ?? []), e]);
console.log(byType);
const counts = new Map();
for (const e of events) counts.set(e.user, (counts.get(e.user) ?? 0) + 1);
console.log(counts, [...counts].sort((a, b) => b[1] - a[1]));
const uniqueUsers = new Set(events.map((e) => e.user));
console.log(uniqueUsers, uniqueUsers.size);
return { types: [...byType.keys()], counts: Object.fromEntries(counts) };

// @program percentile-and-stats
const latencies = [12, 45, 7, 89, 23, 56, 34, 90, 11, 67, 43, 22];
const sorted = latencies.toSorted((a, b) => a - b);
const pct = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length;
const variance = latencies.reduce((a, b) => a + (b - mean) ** 2, 0) / latencies.length;
const stats = {
  min: sorted.at(0), max: sorted.at(-1), mean: +mean.toFixed(3),
  stddev: Math.round(Math.sqrt(variance) * 100) / 100, p50: pct(50), p90: pct(90), p99: pct(99),
};
console.log(stats);
console.log(`mean=${mean} std=${Math.sqrt(variance)}`);
return stats;

// @program dedupe-by-key-keep-latest
const records = [
  { id: 3, v: "a", ts: "2024-01-02T10:00:00Z" },
  { id: 1, v: "b", ts: "2024-01-01T09:00:00Z" },
  { id: 3, v: "c", ts: "2024-01-03T08:00:00Z" },
  { id: 2, v: "d", ts: "2024-01-01T12:00:00Z" },
  { id: 1, v: "e", ts: "2023-12-31T23:59:59Z" },
];
const latest = new Map();
for (const r of records) {
  const prev = latest.get(r.id);
  if (!prev || Date.parse(r.ts) > Date.parse(prev.ts)) latest.set(r.id, r);
}
const out = [...latest.values()].sort((a, b) => a.id - b.id);
console.log(out);
return out;

// @program pivot-table
const data = [
  { month: "Jan", product: "A", units: 5 }, { month: "Jan", product: "B", units: 3 },
  { month: "Feb", product: "A", units: 7 }, { month: "Feb", product: "C", units: 1 },
  { month: "Mar", product: "B", units: 4 },
];
const products = [...new Set(data.map((d) => d.product))].sort();
const months = [...new Set(data.map((d) => d.month))];
const table = months.map((m) => ({
  month: m,
  ...Object.fromEntries(products.map((p) => [p, data.find((d) => d.month === m && d.product === p)?.units ?? 0])),
}));
console.table(table);
console.log(table);
return table;

// @program nested-flatten-with-flatmap
const orgs = [
  { name: "acme", teams: [{ name: "core", members: ["ann", "bob"] }, { name: "web", members: [] }] },
  { name: "globex", teams: [{ name: "ops", members: ["cat"] }] },
];
const flat = orgs.flatMap((o) => o.teams.flatMap((t) => t.members.map((m) => `${o.name}/${t.name}/${m}`)));
const emptyTeams = orgs.flatMap((o) => o.teams.filter((t) => t.members.length === 0).map((t) => t.name));
console.log(flat, emptyTeams, [[1, [2, [3, [4]]]]].flat(Infinity), [1, [2, [3]]].flat());
return { flat, emptyTeams };

// @program chunk-and-zip
const chunk = (arr, n) => Array.from({ length: Math.ceil(arr.length / n) }, (_, i) => arr.slice(i * n, i * n + n));
const zip = (...arrs) => Array.from({ length: Math.min(...arrs.map((a) => a.length)) }, (_, i) => arrs.map((a) => a[i]));
const ids = Array.from({ length: 10 }, (_, i) => `id-${i + 1}`);
console.log(chunk(ids, 3));
console.log(zip([1, 2, 3], ["a", "b", "c"], [true, false]));
return { chunks: chunk(ids, 4).length, zipped: zip([1, 2], [3, 4]) };

// @program sort-multi-key-stable-locale
const people = [
  { last: "Émile", first: "Zoé", age: 30 }, { last: "adams", first: "Bob", age: 25 },
  { last: "Adams", first: "Amy", age: 25 }, { last: "zed", first: "Al", age: 40 },
  { last: "Ångström", first: "Ann", age: 30 },
];
const byAgeThenName = people.toSorted((a, b) => a.age - b.age || a.last.localeCompare(b.last) || a.first.localeCompare(b.first));
const byName = people.toSorted((a, b) => a.last.localeCompare(b.last, "en", { sensitivity: "base" }));
const codeUnit = people.map((p) => p.last).sort();
console.log(byAgeThenName.map((p) => `${p.first} ${p.last}`));
console.log(byName.map((p) => p.last), codeUnit);
return { byAgeThenName, codeUnit };

// @program structured-clone-deep-copy
const original = {
  name: "cfg", created: new Date("2024-05-06T07:08:09.010Z"), tags: new Set(["a", "b"]),
  limits: new Map([["cpu", 2], ["mem", 512]]), nested: { list: [1, { deep: true }] }, re: /ab+c/gi,
};
const copy = structuredClone(original);
copy.nested.list[1].deep = false;
copy.tags.add("c");
console.log(original.nested.list[1].deep, copy.tags.size, original.tags.size);
console.log(copy.created instanceof Date, copy.created.toISOString(), copy.limits.get("mem"), copy.re.flags, copy.re.source);
console.log(copy);
try { structuredClone({ s: Symbol("tag") }); } catch (e) { console.log(e.name, e.message); }
return copy.created.getTime() === original.created.getTime();

// @program destructuring-defaults-in-pipeline
const raw = [
  { id: 1, profile: { name: "Ana", address: { city: "Lisbon" } } },
  { id: 2, profile: { name: "Bo" } },
  { id: 3 },
];
const normalized = raw.map(({ id, profile: { name = "anonymous", address: { city = "unknown", zip = null } = {} } = {} }) => ({ id, name, city, zip }));
const [first, , third = { id: -1 }, fourth = "none"] = normalized;
const { id: firstId, ...restOfFirst } = first;
console.log(normalized, third, fourth, firstId, restOfFirst);
return normalized;

// @program inventory-reconcile
const expected = { apple: 10, banana: 5, cherry: 0, date: 7 };
const actual = { apple: 8, banana: 5, date: 9, elder: 2 };
const allKeys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
const diffs = allKeys
  .map((k) => ({ item: k, expected: expected[k] ?? 0, actual: actual[k] ?? 0 }))
  .filter((d) => d.expected !== d.actual)
  .map((d) => ({ ...d, delta: d.actual - d.expected, status: d.actual > d.expected ? "surplus" : "shortage" }));
console.log(JSON.stringify(diffs, null, 2));
return diffs;

// @program running-totals-and-window
const daily = [5, 3, 8, 1, 9, 2, 7];
const running = daily.reduce((acc, v) => [...acc, (acc.at(-1) ?? 0) + v], []);
const moving = daily.map((_, i, a) => (i < 2 ? null : +((a[i] + a[i - 1] + a[i - 2]) / 3).toFixed(2)));
const maxIdx = daily.indexOf(Math.max(...daily));
const lastBig = daily.findLast((v) => v > 5);
const lastBigIdx = daily.findLastIndex((v) => v > 5);
console.log(running, moving, maxIdx, lastBig, lastBigIdx);
return { running, moving };

// @program tree-build-from-parent-ids
const nodes = [
  { id: 1, parent: null, name: "root" }, { id: 2, parent: 1, name: "a" }, { id: 3, parent: 1, name: "b" },
  { id: 4, parent: 2, name: "a1" }, { id: 5, parent: 2, name: "a2" }, { id: 6, parent: 3, name: "b1" },
];
const byId = new Map(nodes.map((n) => [n.id, { ...n, children: [] }]));
let root;
for (const n of byId.values()) {
  if (n.parent === null) root = n;
  else byId.get(n.parent).children.push(n);
}
const render = (n, depth = 0) => [`${"  ".repeat(depth)}- ${n.name}`, ...n.children.flatMap((c) => render(c, depth + 1))];
console.log(render(root).join("\n"));
console.log(root);
const strip = ({ parent, ...rest }) => ({ ...rest, children: rest.children.map(strip) });
return strip(root);

// @program array-with-and-to-methods
const arr = [3, 1, 2];
const w = arr.with(1, 10);
const r = arr.toReversed();
const s = arr.toSorted();
const sp = arr.toSpliced(1, 1, "x", "y");
console.log(arr, w, r, s, sp);
try { arr.with(5, 0); } catch (e) { console.log(e.constructor.name, e.message); }
console.log([1, 2, 3].at(-1), "abc".at(-2), [].at(0));
return { arr, w, r, s, sp };

// @program object-entries-transformations
const prices = { apple: 1.2, banana: 0.5, cherry: 3, durian: 12.75 };
const doubled = Object.fromEntries(Object.entries(prices).map(([k, v]) => [k.toUpperCase(), v * 2]));
const cheap = Object.fromEntries(Object.entries(prices).filter(([, v]) => v < 2));
const inverted = Object.fromEntries(Object.entries(prices).map(([k, v]) => [v, k]));
const sortedByPrice = Object.entries(prices).sort(([, a], [, b]) => b - a).map(([k]) => k);
console.log(doubled, cheap, inverted, sortedByPrice);
console.log(Object.entries({ 2: "b", 1: "a", x: "c", [-1]: "neg", "01": "lead" }));
return { doubled, cheap, inverted, sortedByPrice };
