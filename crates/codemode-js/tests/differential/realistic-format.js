// Realistic agent programs that format text: padding, fixed decimals, locale numbers and dates.

// @program invoice-lines-currency
const items = [
  { sku: "WIDGET-1", qty: 3, price: 19.99 },
  { sku: "GADGET-22", qty: 1, price: 1249.5 },
  { sku: "BOLT", qty: 250, price: 0.035 },
];
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const lines = items.map((i) => `${i.sku.padEnd(10)} ${String(i.qty).padStart(4)} x ${usd.format(i.price).padStart(10)} = ${usd.format(i.qty * i.price).padStart(11)}`);
const subtotal = items.reduce((a, i) => a + i.qty * i.price, 0);
const tax = subtotal * 0.0825;
lines.push("-".repeat(44), `${"Subtotal".padEnd(32)}${usd.format(subtotal).padStart(12)}`, `${"Tax (8.25%)".padEnd(32)}${usd.format(tax).padStart(12)}`);
console.log(lines.join("\n"));
return { subtotal: +subtotal.toFixed(2), tax: Math.round(tax * 100) / 100, total: usd.format(subtotal + tax) };

// @program number-locale-options-mix
const n = 1234567.891;
console.log(n.toLocaleString());
console.log(n.toLocaleString("en-US", { maximumFractionDigits: 0 }));
console.log(n.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
console.log((0.4567).toLocaleString("en-US", { style: "percent", minimumFractionDigits: 1 }));
console.log((-42.5).toLocaleString("en-US", { style: "currency", currency: "EUR" }));
console.log((9876543210).toLocaleString("en-US", { notation: "compact", compactDisplay: "long" }));
console.log((1500).toLocaleString("en-US", { notation: "compact" }), (999999).toLocaleString("en-US", { notation: "compact" }));
console.log((0.000123).toLocaleString(), (1e21).toLocaleString(), NaN.toLocaleString(), (-0).toLocaleString());
console.log(new Intl.NumberFormat("en-US", { style: "currency", currency: "JPY" }).format(123456.7));
console.log(new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).format(123456));
console.log(new Intl.NumberFormat("en-US", { signDisplay: "always" }).format(5), new Intl.NumberFormat("en-US", { signDisplay: "exceptZero" }).format(0));
return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).formatToParts(-1234.5);

// @program bytes-human-readable
const units = ["B", "KB", "MB", "GB", "TB"];
function human(bytes) {
  let i = 0;
  let v = bytes;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}
const sizes = [0, 512, 1024, 1536, 1048576, 123456789, 5e12];
console.log(sizes.map(human));
console.log(sizes.map((s) => s.toExponential(2)));
console.log((1234.5678).toPrecision(6), (0.00001234).toPrecision(2), (123.456).toFixed(1), (1.45).toFixed(1), (2.5).toFixed(0), (-1.5).toFixed(0));
return sizes.map(human);

// @program duration-formatting
function fmt(ms) {
  const s = Math.floor(ms / 1000);
  const parts = [[Math.floor(s / 86400), "d"], [Math.floor((s % 86400) / 3600), "h"], [Math.floor((s % 3600) / 60), "m"], [s % 60, "s"]];
  return parts.filter(([v]) => v > 0).map(([v, u]) => `${v}${u}`).join(" ") || "0s";
}
const clock = (ms) => {
  const t = Math.floor(ms / 1000);
  return [Math.floor(t / 3600), Math.floor(t / 60) % 60, t % 60].map((v) => String(v).padStart(2, "0")).join(":");
};
const samples = [0, 999, 61000, 3723000, 90061000, 172800000];
console.log(samples.map(fmt));
console.log(samples.map(clock));
return samples.map((s) => ({ s, text: fmt(s), clock: clock(s) }));

// @program table-render-ascii
const rows = [
  { name: "alpha", status: "ok", latency: 12.3456 },
  { name: "beta-service", status: "degraded", latency: 250 },
  { name: "γ", status: "down", latency: null },
];
const cols = ["name", "status", "latency"];
const cell = (r, c) => (r[c] == null ? "-" : typeof r[c] === "number" ? r[c].toFixed(1) : String(r[c]));
const widths = cols.map((c) => Math.max(c.length, ...rows.map((r) => cell(r, c).length)));
const line = (vals) => "| " + vals.map((v, i) => v.padEnd(widths[i])).join(" | ") + " |";
const sep = "+" + widths.map((w) => "-".repeat(w + 2)).join("+") + "+";
const out = [sep, line(cols), sep, ...rows.map((r) => line(cols.map((c) => cell(r, c)))), sep].join("\n");
console.log(out);
return out.split("\n").length;

// @program string-utils-slug-case
const titles = ["Hello, World!", "  Leading and trailing  ", "Ünïcödé Títlé", "already-a-slug", "CamelCaseString", "snake_case_here"];
const slug = (s) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
const camel = (s) => s.replace(/[-_\s]+(.)?/g, (_, c) => (c ? c.toUpperCase() : ""));
const snake = (s) => s.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[-\s]+/g, "_").toLowerCase();
const title = (s) => s.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());
const res = titles.map((t) => ({ t, slug: slug(t), camel: camel(t.trim()), snake: snake(t.trim()), title: title(t.trim()) }));
console.log(res);
return res;

// @program truncate-and-wrap-text
const text = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs. How vexingly quick daft zebras jump!";
const truncate = (s, n) => (s.length <= n ? s : s.slice(0, n - 1).trimEnd() + "…");
function wrap(s, width) {
  const out = [];
  let cur = "";
  for (const w of s.split(/\s+/)) {
    if ((cur + " " + w).trim().length > width) { out.push(cur); cur = w; }
    else cur = (cur + " " + w).trim();
  }
  if (cur) out.push(cur);
  return out;
}
console.log(truncate(text, 20), truncate("short", 20));
console.log(wrap(text, 30).map((l, i) => `${String(i + 1).padStart(2, "0")}: ${l}`).join("\n"));
return wrap(text, 40);

// @program template-literal-report
const user = { name: "Ada", roles: ["admin", "dev"], lastLogin: new Date(Date.UTC(2024, 0, 15, 9, 30)) };
const stats = { sessions: 42, avg: 13.37777 };
const report = `
User: ${user.name}
Roles: ${user.roles.length ? user.roles.join(" & ") : "(none)"}
Last login: ${user.lastLogin.toISOString().slice(0, 16).replace("T", " ")} UTC
Sessions: ${stats.sessions} (avg ${stats.avg.toFixed(2)} min)
Flags: ${[user.roles.includes("admin") && "ADMIN", stats.sessions > 40 && "POWER"].filter(Boolean)}
Obj: ${{}} Arr: ${[1, [2, 3]]} Null: ${null} Undef: ${undefined}
`.trim();
console.log(report);
const tag = (strings, ...vals) => strings.raw.map((s, i) => s + (i < vals.length ? `[${vals[i]}]` : "")).join("");
console.log(tag`a${1}b${"two"}c\n`);
return report.split("\n");

// @program date-locale-formats
const d = new Date("2024-07-04T15:05:09.123Z");
console.log(d.toLocaleDateString("en-US"), d.toLocaleTimeString("en-US"), d.toLocaleString("en-US"));
console.log(d.toLocaleDateString("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" }));
console.log(d.toLocaleDateString("en-US", { month: "short", day: "numeric" }), d.toLocaleDateString("en-US", { year: "2-digit", month: "2-digit", day: "2-digit" }));
console.log(d.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }), d.toLocaleTimeString("en-US", { hour12: false }));
console.log(new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "long", timeZone: "UTC" }).format(d));
console.log(new Intl.DateTimeFormat("en-US", { dateStyle: "medium" }).format(d), new Intl.DateTimeFormat("en-US", { timeStyle: "short" }).format(d));
console.log(new Intl.DateTimeFormat("en-US", { month: "long" }).format(d), new Intl.DateTimeFormat("en-US", { weekday: "short" }).format(d));
console.log(new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", timeZoneName: "short" }).format(d));
return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }).formatToParts(d).map((p) => `${p.type}:${p.value}`);

// @program number-parsing-messy-input
const inputs = ["42", " 3.14 ", "1e3", "0x1F", "12px", "", "  ", "abc", "1,234.56", "-0", "+7", ".5", "5.", "Infinity", "0b101", "0o17", null, undefined, true, [], [5], "1_000"];
const rows = inputs.map((v) => [JSON.stringify(v) ?? "undefined", Number(v), parseFloat(v), parseInt(v), parseInt(v, 16)]);
for (const r of rows) console.log(r.map(String).join("\t"));
const clean = (s) => Number(String(s).replace(/[^0-9.-]/g, ""));
console.log(clean("$1,234.56"), clean("(12)"), Number.isInteger(5.0), Number.isSafeInteger(2 ** 53), Number.isNaN("x"), isNaN("x"));
return rows.map((r) => r.slice(1).map((x) => (Number.isNaN(x) ? "NaN" : x)));

// @program pad-and-align-numbers
const values = [3.14159, -2.5, 1000, 0.001, 42, -0.0001];
const width = 12;
for (const v of values) {
  console.log(`|${v.toFixed(3).padStart(width)}|${v.toFixed(3).padEnd(width)}|${String(Math.round(v)).padStart(5, "0")}|`);
}
console.log("7".padStart(3, "0"), "abc".padStart(2), "abc".padEnd(8, "12"), "x".padStart(5, ""), String(-5).padStart(4, "0"));
console.log((255).toString(16).padStart(4, "0"), (5).toString(2).padStart(8, "0"), (0.5).toString(2), (-255).toString(36));
return values.map((v) => v.toFixed(2));

// @program plural-and-list-join
const plural = (n, word, pl = word + "s") => `${n} ${n === 1 ? word : pl}`;
const listJoin = (arr) => (arr.length <= 1 ? arr.join("") : arr.length === 2 ? arr.join(" and ") : `${arr.slice(0, -1).join(", ")}, and ${arr.at(-1)}`);
console.log(plural(0, "file"), plural(1, "file"), plural(2, "box", "boxes"), plural(1.5, "hour"));
console.log(listJoin([]), "|", listJoin(["a"]), "|", listJoin(["a", "b"]), "|", listJoin(["a", "b", "c", "d"]));
const summary = (counts) => listJoin(Object.entries(counts).filter(([, n]) => n).map(([k, n]) => plural(n, k)));
return summary({ error: 2, warning: 1, note: 0, hint: 5 });

// @program string-search-and-case
const log = "ERROR 2024-01-01 disk full\nWARN 2024-01-01 slow query\nerror 2024-01-02 disk full again\nINFO ok";
const lines = log.split("\n");
const errors = lines.filter((l) => l.toLowerCase().startsWith("error"));
console.log(errors.length, lines.map((l) => l.split(" ")[0].toUpperCase()));
console.log(log.indexOf("disk"), log.lastIndexOf("disk"), log.includes("query"), log.search(/warn/i));
console.log("Straße".toUpperCase(), "İstanbul".toLowerCase().length, "ǅ".toLowerCase(), "ß".localeCompare("ss"));
console.log(" \t trim me \n".trim() + "|", "xxhixx".replaceAll("x", ""), "a-b-c".split("-", 2), "abc".split(""));
console.log("abc".localeCompare("abd"), "a".localeCompare("B"), "a".localeCompare("A"), ["b", "a", "C", "A"].sort((x, y) => x.localeCompare(y)));
return errors;

// @program currency-rounding-edge-cases
const amounts = [0.1 + 0.2, 1.005, 2.675, 1.45, 8.345, 10.235, 1e-7, 123456789.125];
console.log(amounts.map((a) => a.toFixed(2)));
console.log(amounts.map((a) => Math.round(a * 100) / 100));
console.log(amounts.map((a) => a.toLocaleString("en-US", { style: "currency", currency: "USD" })));
console.log(amounts.map((a) => Number(a.toPrecision(15))));
console.log(amounts.map((a) => String(a)));
return amounts.map((a) => +(Math.round(a + "e2") + "e-2"));
