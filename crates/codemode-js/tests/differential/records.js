// Records and tool-like JSON data: grouping, aggregation, filtering, reshaping.

// @program group-orders-by-status
const orders = [
  { id: "o1", status: "open", total: 120.5 },
  { id: "o2", status: "shipped", total: 80 },
  { id: "o3", status: "open", total: 19.99 },
  { id: "o4", status: "cancelled", total: 5 },
];
const byStatus = {};
for (const o of orders) {
  (byStatus[o.status] ??= []).push(o.id);
}
return byStatus;

// @program sum-by-customer-reduce
const rows = [
  { customer: "acme", amount: 10 },
  { customer: "globex", amount: 7.5 },
  { customer: "acme", amount: 2.25 },
  { customer: "initech", amount: 0 },
];
const totals = rows.reduce((acc, r) => {
  acc[r.customer] = (acc[r.customer] || 0) + r.amount;
  return acc;
}, {});
console.log(Object.keys(totals).join(","));
totals

// @program top-n-by-score
const players = [
  { name: "ana", score: 81 }, { name: "bo", score: 95 }, { name: "cy", score: 67 },
  { name: "di", score: 95 }, { name: "ed", score: 72 },
];
return players
  .slice()
  .sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
  .slice(0, 3)
  .map((p, i) => `${i + 1}. ${p.name} (${p.score})`);

// @program index-by-id-and-join
const users = [{ id: 1, name: "Ada" }, { id: 2, name: "Linus" }];
const tickets = [
  { id: 100, user: 2, title: "crash" },
  { id: 101, user: 1, title: "typo" },
  { id: 102, user: 3, title: "orphan" },
];
const byId = Object.fromEntries(users.map((u) => [u.id, u]));
return tickets.map((t) => ({ ticket: t.id, owner: byId[t.user]?.name ?? "unknown" }));

// @program nested-tool-response-pluck
const response = {
  data: {
    items: [
      { node: { id: "a", stats: { stars: 10, forks: 2 } } },
      { node: { id: "b", stats: { stars: 3 } } },
      { node: { id: "c" } },
    ],
  },
  pageInfo: { hasNext: false },
};
return response.data.items.map(({ node }) => ({
  id: node.id,
  stars: node.stats?.stars ?? 0,
  forks: node.stats?.forks ?? null,
}));

// @program dedupe-by-key
const events = [
  { key: "k1", v: 1 }, { key: "k2", v: 2 }, { key: "k1", v: 3 }, { key: "k3", v: 4 }, { key: "k2", v: 5 },
];
const seen = new Set();
const firsts = events.filter((e) => (seen.has(e.key) ? false : (seen.add(e.key), true)));
return firsts.map((e) => e.v);

// @program latest-per-key
const readings = [
  { sensor: "t1", at: 3, value: 20.5 }, { sensor: "t2", at: 1, value: 18 },
  { sensor: "t1", at: 5, value: 21 }, { sensor: "t2", at: 4, value: 17.5 }, { sensor: "t1", at: 4, value: 22 },
];
const latest = {};
for (const r of readings) {
  if (!latest[r.sensor] || latest[r.sensor].at < r.at) latest[r.sensor] = r;
}
return Object.values(latest).map((r) => [r.sensor, r.value]);

// @program histogram-buckets
const durations = [12, 45, 7, 88, 130, 23, 61, 5, 99, 250];
const buckets = { "<10": 0, "10-49": 0, "50-99": 0, ">=100": 0 };
for (const d of durations) {
  if (d < 10) buckets["<10"]++;
  else if (d < 50) buckets["10-49"]++;
  else if (d < 100) buckets["50-99"]++;
  else buckets[">=100"]++;
}
buckets

// @program paginate-and-merge
const pages = [
  { items: [1, 2, 3], next: 1 },
  { items: [4, 5], next: 2 },
  { items: [6], next: null },
];
let cursor = 0;
const all = [];
while (cursor !== null) {
  const page = pages[cursor];
  all.push(...page.items);
  cursor = page.next;
}
return { count: all.length, sum: all.reduce((a, b) => a + b, 0) };

// @program flatten-nested-categories
const tree = {
  name: "root",
  children: [
    { name: "a", children: [{ name: "a1", children: [] }, { name: "a2", children: [] }] },
    { name: "b", children: [{ name: "b1", children: [{ name: "b1x", children: [] }] }] },
  ],
};
const out = [];
const stack = [[tree, 0]];
while (stack.length) {
  const [node, depth] = stack.pop();
  out.push("  ".repeat(depth) + node.name);
  for (let i = node.children.length - 1; i >= 0; i--) stack.push([node.children[i], depth + 1]);
}
return out;

// @program recursive-tree-sum
function total(node) {
  return node.size + node.kids.reduce((s, k) => s + total(k), 0);
}
const fsTree = { size: 1, kids: [{ size: 10, kids: [] }, { size: 5, kids: [{ size: 2, kids: [] }] }] };
total(fsTree)

// @program pick-and-rename-fields
const raw = { user_id: 42, first_name: "Grace", last_name: "Hopper", email: "g@example.com", internal: true };
const mapping = { user_id: "id", first_name: "first", last_name: "last" };
const picked = {};
for (const [from, to] of Object.entries(mapping)) picked[to] = raw[from];
return picked;

// @program camel-case-keys
const snake = { created_at: 1, updated_by_user: "x", id: 7 };
const camel = Object.fromEntries(
  Object.entries(snake).map(([k, v]) => [k.split("_").map((w, i) => (i ? w[0].toUpperCase() + w.slice(1) : w)).join(""), v]),
);
camel

// @program inventory-low-stock
const inventory = [
  { sku: "A-1", qty: 3, min: 5 }, { sku: "B-2", qty: 10, min: 2 }, { sku: "C-3", qty: 0, min: 1 },
];
const low = inventory.filter((i) => i.qty < i.min);
console.log(`low stock: ${low.length}`);
return low.map((i) => ({ sku: i.sku, reorder: i.min * 2 - i.qty }));

// @program partition-pass-fail
const results = [{ t: "a", ok: true }, { t: "b", ok: false }, { t: "c", ok: true }, { t: "d", ok: false }];
const [pass, fail] = results.reduce(([p, f], r) => (r.ok ? [[...p, r.t], f] : [p, [...f, r.t]]), [[], []]);
({ pass, fail })

// @program diff-two-snapshots
const before = { a: 1, b: 2, c: 3 };
const after = { a: 1, b: 20, d: 4 };
const changes = [];
for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) {
  if (!(k in after)) changes.push(`-${k}`);
  else if (!(k in before)) changes.push(`+${k}`);
  else if (before[k] !== after[k]) changes.push(`~${k}: ${before[k]} -> ${after[k]}`);
}
changes

// @program percentages-rounded
const votes = { yes: 37, no: 12, abstain: 6 };
const n = Object.values(votes).reduce((a, b) => a + b);
return Object.entries(votes).map(([k, v]) => `${k} ${((v / n) * 100).toFixed(1)}%`);

// @program average-median-mode
const xs = [4, 1, 7, 4, 9, 2, 4, 7];
const sorted = [...xs].sort((a, b) => a - b);
const mean = xs.reduce((a, b) => a + b) / xs.length;
const mid = sorted.length / 2;
const median = sorted.length % 2 ? sorted[Math.floor(mid)] : (sorted[mid - 1] + sorted[mid]) / 2;
const counts = {};
for (const x of xs) counts[x] = (counts[x] || 0) + 1;
const mode = Number(Object.entries(counts).sort((a, b) => b[1] - a[1])[0][0]);
return { mean, median, mode };

// @program chunk-array
function chunk(arr, size) {
  const out = [];
  for (let i = 0; i < arr.length; i += size) out.push(arr.slice(i, i + size));
  return out;
}
chunk([1, 2, 3, 4, 5, 6, 7], 3)

// @program zip-and-unzip
const names = ["x", "y", "z"];
const vals = [1, 2, 3];
const zipped = names.map((n, i) => [n, vals[i]]);
const unzipped = zipped.reduce((acc, [a, b]) => [acc[0].concat(a), acc[1].concat(b)], [[], []]);
return { zipped, unzipped };

// @program issue-triage
const issues = [
  { n: 1, labels: ["bug", "p1"], assignee: null },
  { n: 2, labels: ["feature"], assignee: "kim" },
  { n: 3, labels: ["bug"], assignee: "lee" },
  { n: 4, labels: ["bug", "p1"], assignee: "kim" },
];
const urgent = issues.filter((i) => i.labels.includes("bug") && i.labels.includes("p1"));
const unassigned = issues.filter((i) => !i.assignee).map((i) => i.n);
const perAssignee = {};
for (const i of issues) if (i.assignee) perAssignee[i.assignee] = (perAssignee[i.assignee] ?? 0) + 1;
return { urgent: urgent.map((i) => i.n), unassigned, perAssignee };

// @program running-balance
const txns = [{ d: "a", amt: 100 }, { d: "b", amt: -30.5 }, { d: "c", amt: -80 }, { d: "d", amt: 15.25 }];
let bal = 0;
const ledger = txns.map((t) => {
  bal += t.amt;
  return { d: t.d, bal, overdrawn: bal < 0 };
});
ledger

// @program integer-keys-order-in-records
const byCode = {};
for (const code of ["200", "404", "b", "3", "a", "10"]) byCode[code] = code.length;
return Object.keys(byCode);

// @program count-words-frequency
const text = "the quick brown fox jumps over the lazy dog the end";
const freq = {};
for (const w of text.split(" ")) freq[w] = (freq[w] || 0) + 1;
return Object.entries(freq).filter(([, c]) => c > 1);

// @program schema-validate-records
const schema = { id: "number", name: "string", tags: "object" };
const items = [{ id: 1, name: "a", tags: [] }, { id: "2", name: "b", tags: [] }, { id: 3, tags: null }];
const problems = [];
items.forEach((item, i) => {
  for (const [field, type] of Object.entries(schema)) {
    if (!(field in item)) problems.push(`${i}.${field}: missing`);
    else if (typeof item[field] !== type || item[field] === null) problems.push(`${i}.${field}: expected ${type}`);
  }
});
problems

// @program merge-config-deep
function merge(a, b) {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = v && typeof v === "object" && !Array.isArray(v) && typeof a[k] === "object" ? merge(a[k], v) : v;
  }
  return out;
}
merge({ db: { host: "h", port: 1 }, debug: false, list: [1] }, { db: { port: 2 }, debug: true, list: [2, 3] })

// @program structured-summary-with-nulls
const resp = { name: "svc", owner: undefined, replicas: 3, lastError: null, ratio: 0 / 0 };
return { ...resp, healthy: resp.lastError === null };
