// Text: tables, padding, wrapping, string building, templates.

// @program padded-table
const rows = [["name", "qty", "price"], ["apple", 3, 1.5], ["kiwi", 12, 0.25], ["watermelon", 1, 4]];
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
const lines = rows.map((r) => r.map((cell, c) => (typeof cell === "number" ? String(cell).padStart(widths[c]) : String(cell).padEnd(widths[c]))).join(" | "));
lines.splice(1, 0, widths.map((w) => "-".repeat(w)).join("-+-"));
for (const l of lines) console.log(l);
return lines.length;

// @program markdown-table
const data = [{ tool: "search", calls: 12, ms: 340.5 }, { tool: "lookup", calls: 3, ms: 41 }];
const cols = Object.keys(data[0]);
const md = [`| ${cols.join(" | ")} |`, `|${cols.map(() => "---").join("|")}|`, ...data.map((d) => `| ${cols.map((c) => d[c]).join(" | ")} |`)].join("\n");
md

// @program csv-parse-simple
const csv = "id,name,score\n1,ann,90\n2,bob,75\n3,cat,88";
const [header, ...body] = csv.split("\n");
const keys = header.split(",");
return body.map((line) => Object.fromEntries(line.split(",").map((v, i) => [keys[i], i === 1 ? v : Number(v)])));

// @program csv-quote-fields
const recs = [["a", 'say "hi"', "x,y"], ["plain", "", "1"]];
const esc = (f) => ([...'",\n'].some((c) => f.includes(c)) ? '"' + f.replaceAll('"', '""') + '"' : f);
return recs.map((r) => r.map(esc).join(",")).join("\n");

// @program word-wrap
function wrap(text, width) {
  const out = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && (line + " " + word).length > width) {
      out.push(line);
      line = word;
    } else line = line ? line + " " + word : word;
  }
  if (line) out.push(line);
  return out;
}
wrap("The quick brown fox jumps over the lazy dog and keeps running far away", 16)

// @program center-text
const center = (s, w, ch = " ") => {
  const left = Math.floor((w - s.length) / 2);
  return ch.repeat(Math.max(0, left)) + s + ch.repeat(Math.max(0, w - s.length - left));
};
return ["a", "abc", "toolong!!"].map((s) => `[${center(s, 7, ".")}]`);

// @program progress-bar
const bar = (p, w = 20) => "[" + "#".repeat(Math.round(p * w)).padEnd(w, ".") + "] " + (p * 100).toFixed(0).padStart(3) + "%";
return [0, 0.05, 0.5, 0.999, 1].map((p) => bar(p));

// @program template-multiline
const user = { name: "Kim", items: 3, total: 42.5 };
const msg = `Hello ${user.name},
you have ${user.items} item${user.items === 1 ? "" : "s"} (total ${user.total.toFixed(2)}).
${"-".repeat(10)}`;
msg.split("\n")

// @program tagged-template-html-escape
function html(strings, ...vals) {
  return strings.reduce((out, s, i) => out + s + (i < vals.length ? String(vals[i]).replaceAll("&", "&amp;").replaceAll("<", "&lt;") : ""), "");
}
html`<p>${"a < b & c"}</p><i>${42}</i>`

// @program tagged-template-raw
function tag(strings, ...v) {
  return { cooked: strings, raw: strings.raw, v, frozen: Object.isFrozen(strings) };
}
tag`a\tb${1}c\n`

// @program slugify
const slug = (s) => s.trim().toLowerCase().split("").map((c) => (("a" <= c && c <= "z") || ("0" <= c && c <= "9") ? c : "-")).join("").split("-").filter(Boolean).join("-");
return ["Hello, World!", "  Multiple   spaces ", "Already-slug-42"].map(slug);

// @program title-case
const title = (s) => s.split(" ").map((w) => (w ? w[0].toUpperCase() + w.slice(1).toLowerCase() : w)).join(" ");
title("the lord OF the rings")

// @program indent-code-block
const code = "if (x) {\nreturn 1;\n}";
let depth = 0;
const out = code.split("\n").map((l) => {
  if (l.startsWith("}")) depth--;
  const r = "  ".repeat(depth) + l;
  if (l.endsWith("{")) depth++;
  return r;
});
out.join("\n")

// @program string-builder-loop
let s = "";
for (let i = 0; i < 50; i++) s += i % 10;
return { len: s.length, head: s.slice(0, 12), tail: s.slice(-5) };

// @program array-join-building
const parts = [];
for (let i = 1; i <= 5; i++) parts.push(`${i}x${i}=${i * i}`);
parts.join("; ")

// @program key-value-report
const stats = { requests: 1234, errors: 12, p50: 23.5, p99: 812.25 };
const w = Math.max(...Object.keys(stats).map((k) => k.length));
for (const [k, v] of Object.entries(stats)) console.log(`${k.padEnd(w)} : ${v}`);

// @program ascii-box
const content = ["codemode", "js guest"];
const width = Math.max(...content.map((l) => l.length));
const box = ["+" + "-".repeat(width + 2) + "+", ...content.map((l) => "| " + l.padEnd(width) + " |"), "+" + "-".repeat(width + 2) + "+"];
box.forEach((l) => console.log(l));

// @program truncate-with-ellipsis
const trunc = (s, n) => (s.length > n ? s.slice(0, n - 1) + "\u2026" : s);
return ["short", "exactly10!", "a much longer description"].map((s) => trunc(s, 10));

// @program reverse-words-and-chars
const sentence = "stressed desserts are nice";
return {
  words: sentence.split(" ").reverse().join(" "),
  chars: [...sentence].reverse().join(""),
};

// @program count-vowels-and-lines
const poem = "Roses are red\nViolets are blue\nSugar is sweet";
const vowels = [...poem.toLowerCase()].filter((c) => "aeiou".includes(c)).length;
return { lines: poem.split("\n").length, vowels, longest: poem.split("\n").reduce((a, b) => (b.length > a.length ? b : a)) };

// @program unicode-lengths
const strs = ["abc", "h\u00e9llo", "\u{1F600}", "a\u{1F44D}b"];
return strs.map((s) => [s.length, [...s].length, s.codePointAt(0), s.charCodeAt(s.length - 1)]);

// @program roman-numerals
function roman(n) {
  const table = [[1000, "M"], [900, "CM"], [500, "D"], [400, "CD"], [100, "C"], [90, "XC"], [50, "L"], [40, "XL"], [10, "X"], [9, "IX"], [5, "V"], [4, "IV"], [1, "I"]];
  let out = "";
  for (const [v, s] of table) while (n >= v) { out += s; n -= v; }
  return out;
}
[1, 4, 9, 14, 40, 90, 400, 1994, 2024, 3999].map(roman)

// @program caesar-cipher
const plain = "attack at dawn";
let enc = "";
for (const c of plain) enc += c === " " ? c : String.fromCharCode(((c.charCodeAt(0) - 97 + 3) % 26) + 97);
enc

// @program list-sentence
const list = (xs) => (xs.length <= 1 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs.at(-1));
return [[], ["a"], ["a", "b"], ["a", "b", "c"]].map(list);

// @program pluralize-counts
const plural = (n, w) => `${n} ${w}${n === 1 ? "" : "s"}`;
return [0, 1, 2].flatMap((n) => [plural(n, "file"), plural(n, "match")]);

// @program diff-lines
const a = ["one", "two", "three", "four"];
const b = ["one", "2", "three", "five", "six"];
const out = [];
for (let i = 0; i < Math.max(a.length, b.length); i++) {
  if (a[i] === b[i]) out.push("  " + a[i]);
  else {
    if (a[i] !== undefined) out.push("- " + a[i]);
    if (b[i] !== undefined) out.push("+ " + b[i]);
  }
}
out
