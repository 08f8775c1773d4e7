// Tagged templates (§13.3.11, the template object of §13.2.8.4) and strict arguments objects.

// @program tag-receives-strings-and-values
function tag(strings, ...values) {
  return { strings: [...strings], raw: [...strings.raw], values, n: strings.length };
}
const name = "Ada", n = 3;
return tag`Hello ${name}, you have ${n} new ${n === 1 ? "message" : "messages"}.`;

// @program template-object-is-frozen-and-cached-per-site
const seen = [];
const id = (s) => s;
for (let i = 0; i < 3; i++) seen.push(id`same site ${i}`);
const other = id`same site ${0}`;
const t = seen[0];
return [seen[0] === seen[1], seen[1] === seen[2], other === seen[0], Object.isFrozen(t), Object.isFrozen(t.raw), Array.isArray(t), Object.keys(t), Object.getOwnPropertyDescriptor(t, "raw").enumerable];

// @program raw-strings-keep-escapes
const raw = (s, ...v) => s.raw.join("|") + "#" + v.join(",");
return [raw`a\nb${1}\t${2}\u0041`, String.raw`C:\new\table${"x"}\z`, String.raw`\``, String.raw({ raw: ["x", "y", "z"] }, 1, 2, 3)];

// @program invalid-escape-cooks-to-undefined
const look = (s) => [s[0], s.raw[0], s.length];
return [look`\unicode`, look`\xZ`, look`\01`];

// @program tag-called-as-method-keeps-this
const fmt = {
  unit: "ms",
  t(strings, ...values) {
    return strings.reduce((acc, s, i) => acc + s + (i < values.length ? values[i] + this.unit : ""), "");
  },
};
const key = "t";
return [fmt.t`took ${12} and ${30}`, fmt[key]`once ${1}`];

// @program html-escaping-tag
const escape = (s) => String(s).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
function html(strings, ...values) {
  let out = strings[0];
  values.forEach((v, i) => { out += escape(v) + strings[i + 1]; });
  return out;
}
const user = { name: "<b>Bob & Co</b>", title: '"admin"' };
return html`<p title="${user.title}">${user.name}</p>`;

// @program sql-like-tag-builds-params
function sql(strings, ...values) {
  return { text: strings.reduce((q, s, i) => q + "$" + i + s), params: values };
}
const id = 42, status = "open";
return sql`SELECT * FROM orders WHERE id = ${id} AND status = ${status}`;

// @program tag-returning-function-and-chained-tags
const repeat = (s) => (t) => s[0] + t[0];
const upper = (s, ...v) => s.raw.map((x, i) => x.toUpperCase() + (v[i] ?? "")).join("");
return [repeat`ab``cd`, upper`x${1}y${2}z`, typeof (() => 0)``];

// @program tag-substitutions-evaluate-in-order
const log = [];
const v = (x) => { log.push(x); return x; };
const tag = (s, ...a) => a;
const r = tag`${v(1)}${v(2)}-${v(3)}`;
return [r, log];

// @program tag-that-is-not-a-function !ExecutionFailure:TypeError
const notFn = 5;
return notFn`x`;

// @program arguments-callee-throws-in-strict-code !ExecutionFailure:TypeError
function f() { return arguments.callee; }
return f();

// @program arguments-object-shape
function f(a, b) {
  const d = Object.getOwnPropertyDescriptor(arguments, "callee");
  return [arguments.length, Object.keys(arguments), typeof d.get, d.get === d.set, d.enumerable, d.configurable, Array.from(arguments), Object.prototype.toString.call(arguments)];
}
return f(1, "two", [3]);
