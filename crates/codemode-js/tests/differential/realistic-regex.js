// Realistic agent programs with regular expressions: extraction, parsing, templating, cleanup.

// @program extract-emails-urls-mentions
const text = "Contact ann@example.com or bob.smith+tag@mail.co.uk. See https://example.com/docs?id=1#x and http://foo.bar/baz. cc @carol, @dave_99!";
const emails = text.match(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g);
const urls = [...text.matchAll(/https?:\/\/[^\s,]+?(?=[.,]?(\s|$))/g)].map((m) => m[0]);
const mentions = Array.from(text.matchAll(/(?<![\w.])@(\w+)/g), (m) => m[1]);
console.log(emails, urls, mentions);
console.log(text.match(/nomatch/g), text.match(/nomatch/), "abc".match(/(?<first>a)(b)?(x)?/));
return { emails, urls, mentions };

// @program parse-log-lines-named-groups
const lines = [
  '127.0.0.1 - - [10/Oct/2024:13:55:36 +0000] "GET /api/users?id=7 HTTP/1.1" 200 2326',
  '10.0.0.5 - bob [10/Oct/2024:13:56:01 +0000] "POST /api/login HTTP/2" 401 12',
  "garbage line",
  '192.168.1.1 - - [11/Oct/2024:00:00:00 +0000] "DELETE /api/users/7 HTTP/1.1" 204 -',
];
const re = /^(?<ip>\d+(?:\.\d+){3}) \S+ (?<user>\S+) \[(?<time>[^\]]+)\] "(?<method>[A-Z]+) (?<path>\S+) [^"]+" (?<status>\d{3}) (?<size>\d+|-)$/;
const parsed = lines.map((l) => l.match(re)?.groups).filter(Boolean).map(({ size, status, ...g }) => ({ ...g, status: +status, size: size === "-" ? 0 : +size }));
console.log(parsed);
const m = lines[0].match(re);
console.log(m.index, m.input.length, Object.keys(m.groups), m.length);
return parsed;

// @program replace-with-function-templating
const template = "Hello {{ name }}, you have {{count}} new {{ count|plural:message }}. {{missing}} {{ user.city | upper }}";
const data = { name: "Ana", count: 3, user: { city: "porto" } };
const filters = { upper: (v) => String(v).toUpperCase(), plural: (v, word) => (v === 1 ? word : word + "s") };
const out = template.replace(/\{\{\s*([\w.]+)\s*(?:\|\s*(\w+)(?::(\w+))?\s*)?\}\}/g, (whole, path, filter, arg, offset) => {
  const v = path.split(".").reduce((o, k) => o?.[k], data);
  if (v === undefined) return `<${path}@${offset}>`;
  return filter ? filters[filter](v, arg) : v;
});
console.log(out);
console.log("a-b_c d".replace(/[-_ ](\w)/g, (_, c) => c.toUpperCase()), "x".replace("x", "$&$&"), "aaa".replace(/a/g, "$'"), "abc".replace(/(?<l>b)/, "[$<l>]"), "abc".replace("b", () => "$&"));
return out;

// @program split-tokenize-and-csv
const csv = 'name,age,city\n"Smith, John",42,"New York"\nJane,,Boston\n"Quote ""Q"" Man",7,"LA"';
const parseRow = (row) => [...row.matchAll(/("(?:[^"]|"")*"|[^,]*)(,|$)/g)].filter((m, i, arr) => !(m[0] === "" && i === arr.length - 1)).map((m) => m[1].startsWith('"') ? m[1].slice(1, -1).replaceAll('""', '"') : m[1]);
const [header, ...rows] = csv.split(/\r?\n/).map(parseRow);
const records = rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
console.log(records);
console.log("a, b,c ,  d".split(/\s*,\s*/), "one  two   three".split(/\s+/), "a1b2c3".split(/\d/), "a1b2c3".split(/(\d)/), "".split(","), "abc".split(/(?:)/u));
console.log("2024-01-02".split("-").map(Number), "k=v;x=y".split(";").map((p) => p.split("=")));
return records;

// @program sticky-tokenizer
function tokenize(src) {
  const rules = [["ws", /\s+/y], ["num", /\d+(?:\.\d+)?/y], ["id", /[A-Za-z_]\w*/y], ["op", /[-+*/()=]/y], ["str", /"(?:\\.|[^"\\])*"/y]];
  const out = [];
  let pos = 0;
  outer: while (pos < src.length) {
    for (const [type, re] of rules) {
      re.lastIndex = pos;
      const m = re.exec(src);
      if (m) {
        if (type !== "ws") out.push(`${type}:${m[0]}`);
        pos = re.lastIndex;
        continue outer;
      }
    }
    throw new SyntaxError(`Unexpected character ${JSON.stringify(src[pos])} at ${pos}`);
  }
  return out;
}
console.log(tokenize('x = 3.14 * (y + 2) - "a \\"q\\""'));
try { tokenize("a = 1 # comment"); } catch (e) { console.log(String(e)); }
const re = /foo/y;
console.log(re.test("foofoo"), re.lastIndex, re.test("foofoo"), re.lastIndex, re.test("foofoo"), re.lastIndex);
return tokenize("sum = a + b2");

// @program lookbehind-and-unicode-props
const prices = "Items: $12.50, €8, $0.99 and 15 USD; refund -$3";
console.log(prices.match(/(?<=\$)\d+(\.\d+)?/g), prices.match(/(?<!\$)\b\d+\b(?!\.)/g), prices.match(/(?<=-\$)\d+/));
const mixed = "Héllo Wörld 你好 123 ٣ 😀 Ωmega";
console.log(mixed.match(/\p{L}+/gu), mixed.match(/\p{Nd}/gu), mixed.match(/\p{Script=Han}+/u)[0], mixed.match(/\p{Emoji_Presentation}/u)?.[0]);
console.log("camelCaseStringHere".split(/(?=[A-Z])/), "1234567.891".replace(/\B(?=(\d{3})+(?!\d))/g, ","), "aaa".match(/a*?/)[0].length);
console.log(/^[\p{Lu}]/u.test("Élan"), /\w/.test("é"), /[^\x00-\x7F]/.test("naïve"), "ﬁ".normalize("NFKC"));
return prices.replace(/(?<cur>[$€])(?<amt>\d+(?:\.\d+)?)/g, (...args) => { const g = args.at(-1); return `${g.amt}${g.cur === "$" ? "USD" : "EUR"}`; });

// @program regex-validate-inputs
const checks = {
  email: [/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, ["a@b.co", "bad@", "x y@z.com", "ok.name+1@sub.domain.org"]],
  phone: [/^\+?\d{1,3}[-. ]?\(?\d{3}\)?[-. ]?\d{3}[-. ]?\d{4}$/, ["+1 (555) 123-4567", "555.123.4567", "12345"]],
  semver: [/^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([\da-z-]+(?:\.[\da-z-]+)*))?$/i, ["1.2.3", "01.2.3", "1.2.3-beta.1", "1.2"]],
  uuid: [/^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i, ["123e4567-e89b-12d3-a456-426614174000", "not-a-uuid"]],
  ipv4: [/^((25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(25[0-5]|2[0-4]\d|1?\d?\d)$/, ["192.168.0.1", "256.1.1.1", "1.2.3"]],
};
const res = Object.fromEntries(Object.entries(checks).map(([k, [re, vals]]) => [k, vals.map((v) => re.test(v))]));
console.log(res);
console.log("1.2.3-rc.1".match(checks.semver[0]).slice(1));
return res;

// @program regex-object-state-and-flags
const re = /(\d+)-(\d+)/g;
const s = "10-20, 30-40, 50-60";
let m;
const pairs = [];
while ((m = re.exec(s)) !== null) pairs.push([+m[1], +m[2], m.index, re.lastIndex]);
console.log(pairs, re.lastIndex);
const d = /(?<y>\d{4})-(?<m>\d{2})/d.exec("on 2024-05 ok");
console.log(d.indices[0], d.indices.groups.y, d.indices.groups.m);
console.log(re.flags, re.global, re.source, String(re), new RegExp(re, "i").flags, new RegExp("a.b", "s").test("a\nb"), /a.b/.test("a\nb"));
console.log(/^b/m.test("a\nb"), /^b/.test("a\nb"));
for (const src of ["[", "(?<n>a)(?<n>b)", "a{2,1}", "\\", "(", "*a", "(?<=a+)b", "[z-a]", "a/b", "\n"]) {
  try { console.log(new RegExp(src).source); } catch (e) { console.log(e.name); }
}
try { new RegExp("a", "gg"); } catch (e) { console.log(e.name); }
