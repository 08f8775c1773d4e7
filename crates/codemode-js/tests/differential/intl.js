// Intl and toLocaleString with options, en-US as node 20 prints it: currencies, percentages,
// fixed decimals, compact numbers, rounding corners, dates in reports. Every date is a fixed
// instant (the oracle runs node with TZ=UTC, our zone).

// @program invoice-total-usd
const items = [{ name: "Widget", qty: 3, price: 19.99 }, { name: "Gadget", qty: 1, price: 249.5 }, { name: "Cable", qty: 10, price: 2.25 }];
const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const lines = items.map((i) => `${i.name}: ${fmt.format(i.qty * i.price)}`);
const total = items.reduce((s, i) => s + i.qty * i.price, 0);
return { lines, total: fmt.format(total) };

// @program invoice-currencies
const amounts = [0, 1, 12.5, 1234.5, 1000000, -5, 0.005, 99.995];
return ["USD", "EUR", "GBP", "JPY"].map((c) => amounts.map((a) => a.toLocaleString("en-US", { style: "currency", currency: c })));

// @program currency-display-forms
const out = {};
for (const display of ["symbol", "narrowSymbol", "code", "name"]) {
  out[display] = [1, 2.5, -1234.56].map((v) => v.toLocaleString("en-US", { style: "currency", currency: "EUR", currencyDisplay: display }));
}
return out;

// @program currency-name-plural
return [1, 1.0, 2, 0, -1].map((v) => [
  v.toLocaleString("en-US", { style: "currency", currency: "USD", currencyDisplay: "name" }),
  v.toLocaleString("en-US", { style: "currency", currency: "USD", currencyDisplay: "name", maximumFractionDigits: 0 }),
  v.toLocaleString("en-US", { style: "currency", currency: "JPY", currencyDisplay: "name" }),
]);

// @program currency-accounting
const fmt = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", currencySign: "accounting" });
return [1234.5, -1234.5, 0, -0, -0.001].map((v) => fmt.format(v));

// @program currency-lowercase-code
return [(5).toLocaleString("en-US", { style: "currency", currency: "usd" }), new Intl.NumberFormat("en-US", { style: "currency", currency: "eur" }).resolvedOptions().currency];

// @program currency-other-codes
return ["CAD", "AUD", "CHF", "CNY", "INR", "MXN", "KRW", "BRL", "XYZ", "BHD"].map((c) => (1234.5).toLocaleString("en-US", { style: "currency", currency: c }));

// @program currency-whole-dollars
const prices = [19.99, 5, 1234.49, 1234.5];
return prices.map((p) => p.toLocaleString("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 }));

// @program currency-min-fraction-zero
return [1, 1.5, 1.555, 10.1].map((p) => p.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 0 }));

// @program percent-report
const rows = [{ region: "North", share: 0.256 }, { region: "South", share: 0.1 }, { region: "East", share: 0.6444 }, { region: "West", share: 0 }];
const pct = new Intl.NumberFormat("en-US", { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
return rows.map((r) => `${r.region.padEnd(6)} ${pct.format(r.share)}`).join("\n");

// @program percent-defaults
return [0.256, 0.2567, 1, 1.5, -0.5, 0.001, 0.005, 12.345].map((v) => v.toLocaleString("en-US", { style: "percent" }));

// @program percent-growth-signed
const growth = [0.125, -0.034, 0, 0.5];
return growth.map((g) => g.toLocaleString("en-US", { style: "percent", signDisplay: "exceptZero", maximumFractionDigits: 1 }));

// @program fixed-decimals-table
const data = [3.14159, 2.71828, 1.41421, 1234.5678, 0.1, 100];
return data.map((x) => x.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

// @program fraction-digit-variants
return [1, 1.5, 1234.5678, 0.1, 0.00001].map((x) => [
  x.toLocaleString("en-US", { minimumFractionDigits: 2 }),
  x.toLocaleString("en-US", { maximumFractionDigits: 1 }),
  x.toLocaleString("en-US", { maximumFractionDigits: 0 }),
  x.toLocaleString(undefined, { minimumFractionDigits: 4 }),
]);

// @program rounding-corners-half
return [1.005, 1.015, 1.025, 2.675, 0.125, 0.135, 1.45, 8.345, 10.235].map((x) => [x.toFixed(2), x.toLocaleString("en-US", { maximumFractionDigits: 2 })]);

// @program rounding-half-expand-integers
return [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 999.5, 1e-7].map((x) => x.toLocaleString("en-US", { maximumFractionDigits: 0 }));

// @program rounding-modes
const modes = ["ceil", "floor", "expand", "trunc", "halfCeil", "halfFloor", "halfExpand", "halfTrunc", "halfEven"];
return modes.map((m) => [m, ...[1.25, -1.25, 1.35, -1.35, 1.2, -1.2].map((x) => new Intl.NumberFormat("en-US", { roundingMode: m, maximumFractionDigits: 1 }).format(x))]);

// @program rounding-carries
return [9.9995, 99.995, 999.9995, 0.9999, 9999.5].map((x) => [x.toLocaleString(), x.toLocaleString("en-US", { maximumFractionDigits: 2 }), x.toLocaleString("en-US", { maximumSignificantDigits: 2 })]);

// @program significant-digits
return [1234.5678, 0.00012345, 5, 0, 98765, 1.5].map((x) => [
  x.toLocaleString("en-US", { maximumSignificantDigits: 3 }),
  x.toLocaleString("en-US", { minimumSignificantDigits: 3 }),
  x.toLocaleString("en-US", { minimumSignificantDigits: 2, maximumSignificantDigits: 4 }),
]);

// @program rounding-priority
return [1.23456, 123.456, 0.012345].map((x) => ["auto", "morePrecision", "lessPrecision"].map((p) =>
  x.toLocaleString("en-US", { roundingPriority: p, maximumSignificantDigits: 2, maximumFractionDigits: 3 })));

// @program trailing-zero-display
const f = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, trailingZeroDisplay: "stripIfInteger" });
return [5, 5.1, 5.123, 0].map((x) => f.format(x));

// @program integer-digits-padding
return [5, 42, 123.456, 0.5].map((x) => [x.toLocaleString("en-US", { minimumIntegerDigits: 3 }), x.toLocaleString("en-US", { minimumIntegerDigits: 5, useGrouping: false })]);

// @program grouping-options
const values = [1234, 12345, 1234567.891, 999, -98765];
return [true, false, "always", "auto", "min2", undefined].map((g) => values.map((v) => v.toLocaleString("en-US", { useGrouping: g })));

// @program default-to-locale-string
return [0, -0, 1, -1, 1234.5, 1234567.891, 0.1 + 0.2, 1e21, 1.5e-7, 123456789012345680000, NaN, Infinity, -Infinity, 0.0005, 0.0004].map((x) => x.toLocaleString());

// @program locale-en-variants
return [(1234.5).toLocaleString("en-US"), (1234.5).toLocaleString("en"), (1234.5).toLocaleString(["en-US"]), (1234.5).toLocaleString([]), (1234.5).toLocaleString("EN-us"), new Intl.NumberFormat("EN-us").resolvedOptions().locale, new Intl.NumberFormat("en").resolvedOptions().locale];

// @program compact-short
const f = new Intl.NumberFormat("en-US", { notation: "compact" });
return [0, 5, 12.345, 999, 1000, 1234, 1500, 12345, 99999, 123456, 999950, 999999, 1234567, 1e9, 2.5e10, 1e12, 1e15, -1234, 0.001234].map((x) => f.format(x));

// @program compact-long
const f = new Intl.NumberFormat("en-US", { notation: "compact", compactDisplay: "long" });
return [999, 1234, 1234567, 1e9, 1e12, -2500].map((x) => f.format(x));

// @program compact-with-digits
return [1234, 15678, 1234567].map((x) => [
  x.toLocaleString("en-US", { notation: "compact", maximumFractionDigits: 2 }),
  x.toLocaleString("en-US", { notation: "compact", maximumSignificantDigits: 3 }),
  x.toLocaleString("en-US", { notation: "compact", style: "currency", currency: "USD" }),
]);

// @program compact-followers-report
const accounts = [{ name: "a", followers: 532 }, { name: "b", followers: 18400 }, { name: "c", followers: 2750000 }];
const f = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
return accounts.map((a) => `${a.name}: ${f.format(a.followers)} followers`);

// @program scientific-engineering
return [0, 1.5e-7, 1234.5, -98765.4321, 1e21, 0.00123].map((x) => [x.toLocaleString("en-US", { notation: "scientific" }), x.toLocaleString("en-US", { notation: "engineering" })]);

// @program sign-display-matrix
const modes = ["auto", "always", "never", "exceptZero", "negative"];
return modes.map((s) => [s, ...[1, -1, 0, -0, NaN, -0.0001].map((x) => x.toLocaleString("en-US", { signDisplay: s }))]);

// @program sign-display-currency
return ["auto", "always", "exceptZero", "never"].map((s) => [5, -5, 0].map((x) => x.toLocaleString("en-US", { style: "currency", currency: "USD", signDisplay: s })));

// @program nan-infinity-styles
return [NaN, Infinity, -Infinity, -0].map((x) => [
  x.toLocaleString("en-US", { style: "percent" }),
  x.toLocaleString("en-US", { style: "currency", currency: "USD" }),
  x.toLocaleString("en-US", { notation: "compact" }),
]);

// @program number-format-map-bound
const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const values = [1.25, 1000.06, 12345.67];
return { mapped: values.map(nf.format), same: nf.format === nf.format, length: nf.format.length, name: nf.format.name };

// @program number-format-without-new
const nf = Intl.NumberFormat("en-US", { style: "percent" });
return [nf.format(0.5), nf instanceof Intl.NumberFormat, Object.prototype.toString.call(nf)];

// @program number-format-resolved-options
return [
  new Intl.NumberFormat().resolvedOptions(),
  new Intl.NumberFormat("en-US", { style: "currency", currency: "JPY" }).resolvedOptions(),
  new Intl.NumberFormat("en-US", { maximumSignificantDigits: 3 }).resolvedOptions(),
  new Intl.NumberFormat("en-US", { notation: "compact" }).resolvedOptions(),
  new Intl.NumberFormat("en-US", { style: "percent", signDisplay: "always", useGrouping: false }).resolvedOptions(),
];

// @program number-format-to-parts
const nf = new Intl.NumberFormat("en-US", { style: "currency", currency: "EUR" });
return [nf.formatToParts(-1234.5), new Intl.NumberFormat("en-US", { style: "percent" }).formatToParts(0.25), new Intl.NumberFormat().formatToParts(NaN)];

// @program number-format-strings-and-coercion
const nf = new Intl.NumberFormat("en-US");
return [nf.format("1234.5"), nf.format(""), nf.format("abc"), nf.format(null), nf.format(true), nf.format(undefined), nf.format({ valueOf: () => 42 })];

// @program number-options-errors
const tries = [
  () => (1).toLocaleString("en-US", { maximumFractionDigits: 101 }),
  () => (1).toLocaleString("en-US", { minimumFractionDigits: 3, maximumFractionDigits: 1 }),
  () => (1).toLocaleString("en-US", { style: "currency" }),
  () => (1).toLocaleString("en-US", { style: "bogus" }),
  () => new Intl.NumberFormat("en-US", { style: "bogus" }),
  () => (1).toLocaleString("en-US", { style: "currency", currency: "US" }),
  () => (1).toLocaleString("en-US", { minimumIntegerDigits: 0 }),
  () => (1).toLocaleString("en-US", { maximumSignificantDigits: 0 }),
  () => (1).toLocaleString("en-US", { minimumSignificantDigits: 5, maximumSignificantDigits: 2 }),
  () => (1).toLocaleString("en-US", { useGrouping: "bogus" }),
  () => (1).toLocaleString("en-US", { maximumFractionDigits: -1 }),
  () => (1).toLocaleString("en-US", { maximumFractionDigits: NaN }),
  () => (1).toLocaleString("en-US", { notation: "bogus" }),
  () => (1).toLocaleString("en-US", null),
];
return tries.map((f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message}`; } });

// @program locale-errors
const tries = [() => (1).toLocaleString("en_US"), () => (1).toLocaleString(""), () => (1).toLocaleString(5), () => (1).toLocaleString(null), () => new Intl.DateTimeFormat("x"), () => new Date(0).toLocaleString("en-US-")];
return tries.map((f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message}`; } });

// @program option-getters-order
const seen = [];
const options = {};
for (const k of ["style", "currency", "minimumFractionDigits", "maximumFractionDigits", "useGrouping", "notation", "signDisplay"]) {
  Object.defineProperty(options, k, { get() { seen.push(k); return undefined; } });
}
const s = (12.5).toLocaleString("en-US", options);
return { s, seen };

// @program option-to-string-conversion
const style = { toString() { return "percent"; } };
return [(0.5).toLocaleString("en-US", { style }), (1.23456).toLocaleString("en-US", { maximumFractionDigits: "2" })];

// @program number-this-errors
const tries = [() => Number.prototype.toLocaleString.call("5"), () => Intl.NumberFormat.prototype.format, () => Intl.NumberFormat.prototype.resolvedOptions.call({})];
return tries.map((f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message}`; } });

// @program intl-shape
return {
  keys: ["NumberFormat", "DateTimeFormat", "getCanonicalLocales"].map((k) => typeof Intl[k]),
  tag: Object.prototype.toString.call(Intl),
  lengths: [Intl.NumberFormat.length, Intl.DateTimeFormat.length, Number.prototype.toLocaleString.length, Date.prototype.toLocaleString.length],
  names: [Intl.NumberFormat.name, Intl.DateTimeFormat.name, Date.prototype.toLocaleDateString.name],
  getter: Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, "format").get.name,
  protoTag: Object.prototype.toString.call(new Intl.DateTimeFormat()),
  canonical: Intl.getCanonicalLocales(["EN-us", "en", "en-US"]),
  supported: Intl.NumberFormat.supportedLocalesOf(["en-US", "en"]),
};

// @program subclass-number-format
class Money extends Intl.NumberFormat {
  constructor() { super("en-US", { style: "currency", currency: "USD" }); }
  show(x) { return "[" + this.format(x) + "]"; }
}
const m = new Money();
return [m.show(3), m instanceof Intl.NumberFormat, m.resolvedOptions().currency];

// @program array-to-locale-string
return [[1234.5, 6789, 0.25].toLocaleString(), [new Date(Date.UTC(2026, 0, 2, 3, 4, 5))].toLocaleString()];

// @program sales-report-table
const sales = [{ month: "Jan", revenue: 12345.678, growth: 0.0512 }, { month: "Feb", revenue: 9876.5, growth: -0.1234 }, { month: "Mar", revenue: 150000, growth: 0.5 }];
const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 });
const pct = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1, signDisplay: "always" });
return sales.map((s) => [s.month, money.format(s.revenue), pct.format(s.growth)].join(" | "));

// @program budget-negative-values
const entries = [500, -120.5, -3000, 42.42, -0.004];
const f = new Intl.NumberFormat("en-US", { style: "currency", currency: "GBP" });
return { each: entries.map(f.format), net: f.format(entries.reduce((a, b) => a + b, 0)) };

// @program large-and-tiny-numbers
return [1e20, 1.7976931348623157e308, 5e-324, 123456789.123456789, 0.000001234].map((x) => x.toLocaleString("en-US", { maximumFractionDigits: 20 }));

// @program date-defaults
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6));
const e = new Date(Date.UTC(2026, 10, 22, 15, 30, 0));
const m = new Date(Date.UTC(2026, 5, 1, 0, 0, 0));
return [d, e, m].map((x) => [x.toLocaleDateString(), x.toLocaleTimeString(), x.toLocaleString(), x.toLocaleString("en-US"), x.toLocaleString("en-US", { timeZone: "UTC" })]);

// @program date-styles
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
return ["full", "long", "medium", "short"].map((s) => [
  d.toLocaleDateString("en-US", { dateStyle: s }),
  d.toLocaleTimeString("en-US", { timeStyle: s }),
  d.toLocaleString("en-US", { dateStyle: s, timeStyle: s }),
  d.toLocaleString("en-US", { dateStyle: s }),
  d.toLocaleString("en-US", { timeStyle: s }),
  new Intl.DateTimeFormat("en-US", { dateStyle: s, timeStyle: "short" }).format(d),
]);

// @program date-month-forms
const d = new Date(Date.UTC(2026, 8, 7, 13, 4, 5));
return ["numeric", "2-digit", "long", "short", "narrow"].map((m) => [
  d.toLocaleDateString("en-US", { month: m }),
  d.toLocaleDateString("en-US", { month: m, day: "numeric" }),
  d.toLocaleDateString("en-US", { year: "numeric", month: m, day: "numeric" }),
  d.toLocaleDateString("en-US", { year: "numeric", month: m }),
]);

// @program date-weekday-forms
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
return ["long", "short", "narrow"].map((w) => [
  d.toLocaleDateString("en-US", { weekday: w }),
  d.toLocaleDateString("en-US", { weekday: w, year: "numeric", month: "long", day: "numeric" }),
  d.toLocaleDateString("en-US", { weekday: w, month: "short", day: "numeric" }),
  d.toLocaleDateString("en-US", { weekday: w, year: "numeric", month: "numeric", day: "numeric" }),
  d.toLocaleDateString("en-US", { weekday: w, month: "numeric", day: "numeric" }),
]);

// @program date-two-digit-fields
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
return [
  d.toLocaleDateString("en-US", { year: "2-digit", month: "2-digit", day: "2-digit" }),
  d.toLocaleDateString("en-US", { year: "numeric", month: "2-digit", day: "2-digit" }),
  d.toLocaleDateString("en-US", { year: "numeric" }),
  d.toLocaleDateString("en-US", { day: "numeric" }),
  d.toLocaleDateString("en-US", { day: "2-digit" }),
  d.toLocaleDateString("en-US", { year: "2-digit" }),
  d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "2-digit" }),
  d.toLocaleDateString("en-US", { month: "2-digit", day: "2-digit" }),
  d.toLocaleDateString("en-US", { year: "numeric", month: "2-digit" }),
];

// @program time-fields
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const p = new Date(Date.UTC(2026, 0, 2, 15, 45, 30));
return [d, p].map((x) => [
  x.toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit" }),
  x.toLocaleTimeString("en-US", { hour: "numeric" }),
  x.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit" }),
  x.toLocaleTimeString("en-US", { minute: "2-digit", second: "2-digit" }),
  x.toLocaleTimeString("en-US", { minute: "2-digit" }),
  x.toLocaleTimeString("en-US", { second: "numeric" }),
]);

// @program hour-cycles
const times = [Date.UTC(2026, 0, 1, 0, 5, 9), Date.UTC(2026, 0, 1, 12, 5, 9), Date.UTC(2026, 0, 1, 15, 5, 9)].map((t) => new Date(t));
const opts = [{ hour12: false }, { hour12: true }, { hourCycle: "h11" }, { hourCycle: "h12" }, { hourCycle: "h23" }, { hourCycle: "h24" }, { hour12: false, hourCycle: "h23" }, { hour: "numeric", hourCycle: "h23" }, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" }, { timeStyle: "short", hourCycle: "h23" }, { timeStyle: "medium", hour12: false }];
return opts.map((o) => times.map((d) => d.toLocaleTimeString("en-US", o)));

// @program time-zone-name
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
return [
  d.toLocaleString("en-US", { timeZoneName: "short" }),
  d.toLocaleTimeString("en-US", { timeZoneName: "short" }),
  d.toLocaleDateString("en-US", { timeZoneName: "short" }),
  d.toLocaleTimeString("en-US", { timeZoneName: "long" }),
  d.toLocaleString("en-US", { timeZone: "utc" }),
  d.toLocaleString("en-US", { timeZone: "Etc/UTC" }),
  d.toLocaleString("en-US", { timeZone: "GMT" }),
];

// @program date-time-mixed-report
const d = new Date(Date.UTC(2026, 2, 14, 9, 26, 53));
return [
  d.toLocaleDateString("en-US", { month: "long", day: "numeric", hour: "numeric" }),
  d.toLocaleString("en-US", { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }),
  d.toLocaleString("en-US", { month: "long", day: "numeric", year: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" }),
  d.toLocaleString("en-US", { weekday: "long", hour: "numeric" }),
  d.toLocaleString("en-US", { weekday: "short", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" }),
  d.toLocaleString("en-US", { month: "numeric", day: "numeric", hour: "numeric", minute: "2-digit" }),
  d.toLocaleString("en-US", { hour: "numeric", minute: "numeric", hour12: false }),
];

// @program date-required-defaults
const d = new Date(Date.UTC(2026, 0, 1, 15, 5, 9));
return [
  d.toLocaleString("en-US", { weekday: "long" }),
  d.toLocaleTimeString("en-US", { weekday: "long" }),
  d.toLocaleDateString("en-US", { hour: "numeric" }),
  d.toLocaleString("en-US", { year: "numeric" }),
  d.toLocaleString("en-US", { month: "long" }),
  d.toLocaleTimeString("en-US", { hour12: false }),
  new Intl.DateTimeFormat("en-US").format(d),
  new Intl.DateTimeFormat("en-US", { hour: "numeric" }).format(d),
];

// @program date-fractional-seconds
const d = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 67));
return [1, 2, 3].map((n) => [d.toLocaleTimeString("en-US", { fractionalSecondDigits: n }), d.toLocaleTimeString("en-US", { hour: "numeric", minute: "2-digit", second: "2-digit", fractionalSecondDigits: n })]);

// @program date-event-list
const events = [
  { title: "Kickoff", at: "2026-01-05T09:00:00Z" },
  { title: "Review", at: "2026-02-17T14:30:00Z" },
  { title: "Launch", at: "2026-03-31T23:59:00Z" },
];
const day = new Intl.DateTimeFormat("en-US", { weekday: "short", month: "short", day: "numeric", year: "numeric" });
const time = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit" });
return events.map((e) => `${e.title}: ${day.format(new Date(e.at))} at ${time.format(new Date(e.at))}`);

// @program date-format-map-bound
const f = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric" });
const dates = [0, 86400000 * 40, 86400000 * 400].map((t) => new Date(t));
return { mapped: dates.map(f.format), same: f.format === f.format, len: f.format.length };

// @program date-format-to-parts
const d = new Date(Date.UTC(2026, 0, 2, 15, 4, 5));
return [
  new Intl.DateTimeFormat("en-US").formatToParts(d),
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).formatToParts(d),
  new Intl.DateTimeFormat("en-US", { weekday: "long", hour: "2-digit", minute: "2-digit", timeZoneName: "short" }).formatToParts(d),
];

// @program date-resolved-options
return [
  new Intl.DateTimeFormat().resolvedOptions(),
  new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).resolvedOptions(),
  new Intl.DateTimeFormat("en-US", { hour: "numeric", hour12: false }).resolvedOptions(),
  new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "numeric", second: "numeric" }).resolvedOptions(),
  new Intl.DateTimeFormat("en", { weekday: "long", month: "long" }).resolvedOptions(),
];

// @program date-format-values
const f = new Intl.DateTimeFormat("en-US", { dateStyle: "short", timeStyle: "short" });
return [f.format(0), f.format(1767225600000), f.format(new Date(Date.UTC(1999, 11, 31, 23, 59))), f.format("2026")];

// @program date-invalid
const bad = new Date(NaN);
const tries = [() => bad.toLocaleString(), () => bad.toLocaleDateString("en-US", { dateStyle: "full" }), () => bad.toLocaleTimeString(), () => new Intl.DateTimeFormat("en-US").format(bad), () => new Intl.DateTimeFormat().format(8.64e15 + 1)];
return tries.map((f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message}`; } });

// @program date-options-errors
const d = new Date(0);
const tries = [
  () => d.toLocaleString("en-US", { dateStyle: "long", year: "numeric" }),
  () => d.toLocaleString("en-US", { timeStyle: "long", hour: "numeric" }),
  () => d.toLocaleString("en-US", { month: "bogus" }),
  () => d.toLocaleTimeString("en-US", { dateStyle: "short" }),
  () => d.toLocaleDateString("en-US", { timeStyle: "short" }),
  () => new Intl.DateTimeFormat("en-US", { dateStyle: "huge" }),
  () => d.toLocaleString("en-US", { timeZone: "Mars/Olympus" }),
  () => d.toLocaleString("en-US", { fractionalSecondDigits: 4 }),
  () => Date.prototype.toLocaleString.call({}),
  () => Intl.DateTimeFormat.prototype.format,
];
return tries.map((f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message}`; } });

// @program date-years-edge
return [Date.UTC(-50, 0, 1), Date.UTC(12345, 0, 1), Date.UTC(5, 0, 1), Date.UTC(1970, 0, 1), -8.64e15, 8.64e15].map((t) => {
  const d = new Date(t);
  return [d.toLocaleDateString(), d.toLocaleDateString("en-US", { year: "2-digit" }), d.toLocaleDateString("en-US", { dateStyle: "medium" })];
});

// @program date-every-month-and-weekday
const out = [];
for (let m = 0; m < 12; m++) {
  const d = new Date(Date.UTC(2026, m, 1 + m));
  out.push(d.toLocaleDateString("en-US", { weekday: "short", month: "long", day: "numeric" }) + " / " + d.toLocaleDateString("en-US", { month: "narrow" }) + " / " + d.toLocaleDateString("en-US", { weekday: "narrow" }));
}
return out;

// @program date-noon-midnight
return [0, 12, 23].map((h) => new Date(Date.UTC(2026, 0, 1, h, 0, 0))).map((d) => [d.toLocaleTimeString(), d.toLocaleTimeString("en-US", { hour: "numeric" }), d.toLocaleTimeString("en-US", { timeStyle: "short" }), d.toLocaleTimeString("en-US", { hourCycle: "h23", timeStyle: "short" })]);

// @program date-report-header
const start = new Date("2026-04-01T00:00:00Z");
const end = new Date("2026-04-30T23:59:59Z");
const f = (d) => d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric" });
return `Report for ${f(start)} – ${f(end)} (generated ${end.toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" })})`;

// @program date-getters-order
const seen = [];
const options = {};
for (const k of ["weekday", "year", "month", "day", "hour", "minute", "timeZone", "hour12", "dateStyle"]) {
  Object.defineProperty(options, k, { get() { seen.push(k); return undefined; } });
}
const s = new Date(0).toLocaleDateString("en-US", options);
return { s, seen };

// @program date-without-new
const f = Intl.DateTimeFormat("en-US", { month: "long" });
return [f.format(new Date(0)), f instanceof Intl.DateTimeFormat];

// @program date-locale-list
const d = new Date(Date.UTC(2026, 6, 4, 18, 0));
return [d.toLocaleDateString(["en-US", "de-DE"]), d.toLocaleDateString("en", { dateStyle: "long" }), new Intl.DateTimeFormat(["en"]).resolvedOptions().locale];

// @program number-locale-list
return [(1234.5).toLocaleString(["en-US", "fr"]), Intl.getCanonicalLocales("en-us"), Intl.getCanonicalLocales([])];

// @program mixed-invoice-document
const order = { id: "A-1029", placed: "2026-05-20T16:45:00Z", lines: [{ sku: "X1", qty: 2, unit: 1499.99 }, { sku: "Y2", qty: 12, unit: 0.35 }], taxRate: 0.0825 };
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const subtotal = order.lines.reduce((s, l) => s + l.qty * l.unit, 0);
const tax = subtotal * order.taxRate;
return [
  `Order ${order.id} — ${new Date(order.placed).toLocaleString("en-US", { dateStyle: "full", timeStyle: "short" })}`,
  ...order.lines.map((l) => `${l.sku} x${l.qty} @ ${usd.format(l.unit)} = ${usd.format(l.qty * l.unit)}`),
  `Subtotal ${usd.format(subtotal)}`,
  `Tax (${(order.taxRate).toLocaleString("en-US", { style: "percent", minimumFractionDigits: 2 })}) ${usd.format(tax)}`,
  `Total ${usd.format(subtotal + tax)}`,
];

// @program stats-summary
const xs = [12.5, 7.25, 19.125, 3, 8.875];
const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length);
const f2 = new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
return { mean: f2.format(mean), sd: f2.format(sd), min: f2.format(Math.min(...xs)), max: f2.format(Math.max(...xs)), n: xs.length.toLocaleString() };

// @program leaderboard-scores
const players = [{ n: "ann", s: 1234567 }, { n: "bob", s: 98765.4 }, { n: "cy", s: 500 }];
return players.map((p, i) => `${(i + 1).toLocaleString("en-US", { minimumIntegerDigits: 2 })}. ${p.n} ${p.s.toLocaleString("en-US", { maximumFractionDigits: 0 })} (${p.s.toLocaleString("en-US", { notation: "compact" })})`);

// @program durations-and-units
const secs = [59, 3600, 86399];
return secs.map((s) => `${Math.floor(s / 3600).toLocaleString("en-US", { minimumIntegerDigits: 2 })}:${Math.floor((s % 3600) / 60).toLocaleString("en-US", { minimumIntegerDigits: 2 })}:${(s % 60).toLocaleString("en-US", { minimumIntegerDigits: 2 })}`);

// @program exchange-rates
const rates = { EUR: 0.92115, GBP: 0.78904, JPY: 151.237 };
return Object.entries(rates).map(([c, r]) => `1 USD = ${(r).toLocaleString("en-US", { style: "currency", currency: c, maximumFractionDigits: 4 })}`);

// @program percent-of-total
const parts = { rent: 1800, food: 650.45, fun: 210, save: 900 };
const total = Object.values(parts).reduce((a, b) => a + b, 0);
return Object.entries(parts).map(([k, v]) => `${k}: ${(v / total).toLocaleString("en-US", { style: "percent", maximumFractionDigits: 2 })}`);

// @program calendar-week
const monday = new Date(Date.UTC(2026, 7, 3));
const days = [];
for (let i = 0; i < 7; i++) days.push(new Date(monday.getTime() + i * 86400000).toLocaleDateString("en-US", { weekday: "long", month: "2-digit", day: "2-digit" }));
return days;

// @program timestamps-log
const base = Date.UTC(2026, 10, 3, 22, 58, 10);
return [0, 61000, 3600000, 7200000].map((ms) => new Date(base + ms).toLocaleTimeString("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false }));

// @program number-format-reused-many
const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const out = [];
for (let i = 0; i < 200; i++) out.push(nf.format(i * 1234.5678));
return [out.length, out[0], out[1], out[199]];

// @program array-to-locale-string-passes-locales-and-options
const prices = [1234.5, 99, 0.5];
return [prices.toLocaleString("en-US", { style: "currency", currency: "USD" }),
        [new Date(Date.UTC(2024, 0, 5))].toLocaleString("en-US", { dateStyle: "medium", timeZone: "UTC" }),
        [0.256].toLocaleString(undefined, { style: "percent" }), [1234.5, null, 7].toLocaleString(),
        Array.prototype.toLocaleString.length, "  x ".trimLeft() + "|" + " y  ".trimRight(),
        String.prototype.trimLeft === String.prototype.trimStart, String.prototype.trimRight.name];
