// RegExp: model-style uses (log parsing, named-group extraction, validation, replace with
// functions, split with captures, unicode) and the RegExp API's observable behaviour.

// @program log-levels-count
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
const counts = {};
for (const m of log.matchAll(/^\S+ (?<level>[A-Z]+) /gm)) counts[m.groups.level] = (counts[m.groups.level] || 0) + 1;
return counts;

// @program log-parse-named
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
const re = /^(?<ts>\S+) (?<level>\w+) \[(?<svc>\w+)\] (?<msg>.*)$/;
return log.split("\n").map((l) => re.exec(l).groups);

// @program log-http-requests
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
return [...log.matchAll(/(GET|POST|PUT|DELETE) (\/\S*) (\d{3}) (\d+)ms/g)].map(([, method, path, status, ms]) => ({ method, path, status: +status, ms: +ms }));

// @program log-errors-only
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
return log.split(/\r?\n/).filter((l) => /\bERROR\b/.test(l)).map((l) => l.replace(/^\S+\s+/, ""));

// @program log-slow-queries
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
const slow = []; const re = /took (\d+)ms/g; let m;
while ((m = re.exec(log)) !== null) slow.push({ ms: Number(m[1]), at: m.index, last: re.lastIndex });
return slow;

// @program log-key-values
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
const out = [];
for (const m of log.matchAll(/(\w+)=("[^"]*"|\S+)/g)) out.push([m[1], m[2].replace(/^"|"$/g, "")]);
return out;

// @program log-timestamps
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
return log.match(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/g);

// @program log-first-error-index
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
return [log.search(/ERROR/), log.search(/FATAL/), log.search(/error/i)];

// @program log-time-parts
const log = `2024-01-15T10:23:45Z INFO [api] GET /users/42 200 12ms
2024-01-15T10:23:46Z WARN [db] slow query took 1534ms
2024-01-15T10:23:47Z ERROR [api] POST /orders 500 230ms
2024-01-15T10:24:01Z INFO [auth] login ok user=alice
2024-01-15T10:24:05Z ERROR [auth] login failed user=bob reason="bad password"
2024-01-15T10:25:00Z DEBUG [cache] hit ratio=0.93`;
return log.split("\n").map((l) => { const [, h, m, s] = l.match(/T(\d\d):(\d\d):(\d\d)/); return +h * 3600 + +m * 60 + +s; });

// @program apache-log
const line = '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326';
const m = line.match(/^(\S+) \S+ (\S+) \[([^\]]+)\] "(\w+) (\S+) (\S+)" (\d{3}) (\d+|-)$/);
return m.slice(1);

// @program nginx-log-aggregate
const lines = ['10.0.0.1 GET /a 200', '10.0.0.2 GET /b 404', '10.0.0.1 POST /a 201', '10.0.0.3 GET /a 500'];
const byStatus = {};
for (const l of lines) { const [, ip, , path, code] = /^(\S+) (\w+) (\S+) (\d+)$/.exec(l); const k = code[0] + "xx"; (byStatus[k] ||= []).push(ip + path); }
return byStatus;

// @program stack-trace-frames
const trace = `Error: boom
    at foo (/app/src/a.js:10:5)
    at bar (/app/src/b.js:22:13)
    at Object.<anonymous> (/app/index.js:3:1)`;
return [...trace.matchAll(/at (?:(\S+) )?\(?(.+?):(\d+):(\d+)\)?$/gm)].map((m) => ({ fn: m[1] ?? null, file: m[2], line: +m[3], col: +m[4] }));

// @program syslog-priority
const msgs = ["<34>Oct 11 22:14:15 mymachine su: 'su root' failed", "<13>Feb  5 17:32:18 host app: started"];
return msgs.map((m) => { const [, pri, rest] = m.match(/^<(\d{1,3})>(.*)$/); return { facility: pri >> 3, severity: pri & 7, host: rest.match(/^\w{3}\s+\d+ [\d:]+ (\S+)/)[1] }; });

// @program log-duration-units
const s = "took 1.5s, then 250ms, then 2m, finally 3h";
const mult = { ms: 1, s: 1000, m: 60000, h: 3600000 };
return [...s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)\b/g)].reduce((a, m) => a + parseFloat(m[1]) * mult[m[2]], 0);

// @program log-multiline-blocks
const text = "BEGIN\na\nb\nEND\nnoise\nBEGIN\nc\nEND";
return [...text.matchAll(/^BEGIN\n([\s\S]*?)\nEND$/gm)].map((m) => m[1].split("\n"));

// @program named-date
const { groups: { year, month, day } } = /(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})/.exec("Due: 2024-03-09.");
return { year, month, day };

// @program named-groups-absent
const m = /(?<a>x)|(?<b>y)/.exec("y");
return [m.groups.a, m.groups.b, Object.keys(m.groups)];

// @program named-backref
return ["abab", "abba", "xyxy"].map((s) => /^(?<p>..)\k<p>$/.test(s));

// @program named-replace-template
return "2024-03-09".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>");

// @program named-replace-fn-groups
return "a=1, b=22".replace(/(?<k>\w)=(?<v>\d+)/g, (...args) => { const g = args.at(-1); return `${g.k.toUpperCase()}:${g.v.length}`; });

// @program url-parts
const m = "https://user@example.com:8080/path/to?q=1&r=two#frag".match(/^(?<scheme>[a-z][a-z0-9+.-]*):\/\/(?:(?<user>[^@]+)@)?(?<host>[^:/?#]+)(?::(?<port>\d+))?(?<path>\/[^?#]*)?(?:\?(?<query>[^#]*))?(?:#(?<frag>.*))?$/i);
return { ...m.groups };

// @program query-string
const q = "a=1&b=hello%20world&c=&d";
const out = {};
for (const [, k, v] of q.matchAll(/([^&=]+)(?:=([^&]*))?/g)) out[k] = v === undefined ? true : v.replace(/%20/g, " ");
return out;

// @program emails-extract
const text = "Contact ann@example.com or bob.smith+tag@mail.co.uk; not me@ or @x.com";
return text.match(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g);

// @program phone-normalize
return ["(555) 123-4567", "555.123.4567", "+1 555 123 4567", "5551234567"].map((s) => s.replace(/\D/g, "").replace(/^1(?=\d{10}$)/, "").replace(/(\d{3})(\d{3})(\d{4})/, "($1) $2-$3"));

// @program hashtags-mentions
const tweet = "Loving #rustlang and #JS with @alice & @bob_99! #2024";
return { tags: tweet.match(/#\w+/g), users: tweet.match(/@\w+/g).map((u) => u.slice(1)) };

// @program extract-numbers
return "Totals: 12, -3.5, +7, 1e3, .5 and 0x1F".match(/[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/g).map(Number);

// @program extract-prices
const s = "Items: $4.99, $12, $1,299.00 and €5";
return [...s.matchAll(/\$(\d{1,3}(?:,\d{3})*(?:\.\d{2})?)/g)].map((m) => parseFloat(m[1].replace(/,/g, "")));

// @program json-ish-keys
const s = '{"name": "x", "count": 3, "nested": {"deep": true}}';
return [...s.matchAll(/"(\w+)"\s*:/g)].map((m) => m[1]);

// @program html-tags
const html = '<div class="a"><a href="/x">X</a><img src="i.png" alt="pic"/></div>';
return [...html.matchAll(/<(\w+)([^>]*)>/g)].map((m) => ({ tag: m[1], attrs: Object.fromEntries([...m[2].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], a[2]])) }));

// @program strip-html
return "<p>Hello <b>world</b>&nbsp;!</p>".replace(/<[^>]+>/g, "").replace(/&nbsp;/g, " ");

// @program markdown-links
const md = "See [docs](https://d.io) and [home](/), plus ![img](a.png).";
return [...md.matchAll(/(!?)\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => ({ image: m[1] === "!", text: m[2], href: m[3] }));

// @program markdown-headings
const md = "# Title\ntext\n## Sub one\n### Deep\n## Sub two";
return [...md.matchAll(/^(#{1,6})\s+(.+)$/gm)].map((m) => ({ level: m[1].length, text: m[2] }));

// @program markdown-bold-italic
return "This is **bold** and *it* and __also__ _x_".replace(/\*\*(.+?)\*\*|__(.+?)__/g, (m, a, b) => `<b>${a ?? b}</b>`).replace(/\*(.+?)\*|_(.+?)_/g, (m, a, b) => `<i>${a ?? b}</i>`);

// @program code-fences
const md = "x\n```js\nconst a = 1;\n```\ny\n```\nplain\n```";
return [...md.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => [m[1] || "text", m[2]]);

// @program semver-parse
const re = /^v?(?<major>0|[1-9]\d*)\.(?<minor>0|[1-9]\d*)\.(?<patch>0|[1-9]\d*)(?:-(?<pre>[\da-z-]+(?:\.[\da-z-]+)*))?(?:\+(?<build>[\da-z-]+(?:\.[\da-z-]+)*))?$/i;
return ["1.2.3", "v10.0.0-beta.1+exp.sha", "1.02.3", "2.0"].map((v) => re.exec(v)?.groups ?? null).map((g) => g && { ...g });

// @program ipv4-extract
return "hosts 192.168.1.1, 10.0.0.255 and 999.1.1.1 end".match(/\b(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)\b/g);

// @program csv-quoted
const line = 'a,"b,c","d ""q""",,e';
return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((m) => m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);

// @program ini-parse
const ini = "[core]\nname = app\n; comment\ndebug=true\n[db]\nhost = localhost\nport=5432";
const out = {}; let sec = null;
for (const line of ini.split("\n")) {
  let m;
  if ((m = line.match(/^\[(\w+)\]$/))) out[(sec = m[1])] = {};
  else if ((m = line.match(/^\s*([\w.]+)\s*=\s*(.*?)\s*$/))) out[sec][m[1]] = m[2];
}
return out;

// @program env-file
const env = 'A=1\nexport B="two words"\n# c\nC=\'x\'\n\nD = spaced ';
return Object.fromEntries([...env.matchAll(/^(?:export\s+)?([A-Z_]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|(.*?))\s*$/gm)].map((m) => [m[1], m[2] ?? m[3] ?? m[4]]));

// @program template-vars
const tpl = "Hello {{ name }}, you have {{count}} new {{ things.kind }}";
const data = { name: "Ann", count: 3, things: { kind: "messages" } };
return tpl.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path) => path.split(".").reduce((o, k) => o?.[k], data));

// @program sql-params
const sql = "SELECT * FROM t WHERE id = :id AND name = :name OR id = :id";
const names = [];
const text = sql.replace(/:(\w+)/g, (_, n) => { names.push(n); return "$" + names.length; });
return { text, names };

// @program git-log-parse
const out = "a1b2c3d fix: handle empty (#12)\ne4f5a6b feat(api)!: new endpoint\n0011223 chore: deps";
return out.split("\n").map((l) => l.match(/^(?<sha>[0-9a-f]{7}) (?<type>\w+)(?:\((?<scope>[^)]+)\))?(?<breaking>!)?: (?<subject>.+?)(?: \(#(?<pr>\d+)\))?$/).groups).map((g) => ({ ...g }));

// @program diff-hunks
const d = "@@ -1,3 +1,4 @@ fn\n a\n-b\n+c\n+d\n@@ -10 +11,2 @@\n x";
return [...d.matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)].map((m) => m.slice(1).map((x) => (x === undefined ? 1 : +x)));

// @program file-extensions
return ["a.tar.gz", "README", ".bashrc", "photo.JPG", "x.y/z"].map((f) => f.match(/(?<!^)\.([^./]+)$/)?.[1].toLowerCase() ?? null);

// @program path-segments
const p = "/usr//local/./bin/../lib/";
return p.split(/\/+/).filter((s) => s && s !== ".");

// @program camel-words
return ["parseHTTPResponse", "getX", "simpleTest", "ABC"].map((s) => s.split(/(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/));

// @program unit-values
const css = "margin: 10px 2.5em 0 -3%; width: calc(100% - 20px)";
return [...css.matchAll(/(-?\d*\.?\d+)(px|em|%)?/g)].map((m) => [Number(m[1]), m[2] ?? ""]);

// @program color-hex
return ["#fff", "#00ff7f", "#ABCDEF80", "fff", "#ggg"].map((c) => { const m = c.match(/^#([\da-f]{3}|[\da-f]{6}|[\da-f]{8})$/i); if (!m) return null; let h = m[1]; if (h.length === 3) h = h.replace(/./g, "$&$&"); return h.match(/../g).map((x) => parseInt(x, 16)); });

// @program rgb-functional
return "rgb(255, 0, 128) rgba(1,2,3,0.5)".match(/rgba?\(\s*\d+\s*,\s*\d+\s*,\s*\d+\s*(?:,\s*[\d.]+\s*)?\)/g);

// @program duration-iso
const m = "P3DT4H12M30.5S".match(/^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/);
return m.slice(1).map((x) => (x ? Number(x) : 0));

// @program version-compare
const cmp = (a, b) => { const pa = a.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? +x : x)); const pb = b.split(/[.-]/).map((x) => (/^\d+$/.test(x) ? +x : x)); for (let i = 0; i < Math.max(pa.length, pb.length); i++) { if (pa[i] === pb[i]) continue; if (pa[i] === undefined) return -1; if (pb[i] === undefined) return 1; return pa[i] < pb[i] ? -1 : 1; } return 0; };
return ["1.10.0", "1.2.0", "1.2.0-rc", "0.9"].sort(cmp);

// @program validate-email
const re = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
return ["a@b.co", "bad@", "x y@z.com", "ok.name+tag@sub.domain.org"].map((e) => re.test(e));

// @program validate-password
const ok = (p) => /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^\w\s]).{8,}$/.test(p);
return ["Passw0rd!", "password", "SHORT1!a", "NoDigits!!", "Good#Pass123"].map(ok);

// @program validate-uuid
const re = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
return ["123e4567-e89b-12d3-a456-426614174000", "123e4567-e89b-62d3-a456-426614174000", "not-a-uuid"].map((u) => re.test(u));

// @program validate-iso-date
return ["2024-02-29", "2024-13-01", "2024-1-01", "1999-12-31T23:59:59Z"].map((d) => /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/.test(d));

// @program validate-hostname
const re = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))*$/i;
return ["example.com", "-bad.com", "a-b.c-d.e", "toolong" + "x".repeat(60) + ".com", "bad-.com"].map((h) => re.test(h));

// @program validate-identifier
return ["foo", "_bar1", "1abc", "$el", "with space", "ünï"].map((s) => /^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(s));

// @program validate-credit-card
const luhn = (n) => [...n].reverse().map(Number).reduce((s, d, i) => s + (i % 2 ? ((d *= 2) > 9 ? d - 9 : d) : d), 0) % 10 === 0;
return ["4111 1111 1111 1111", "4111-1111-1111-1112", "abcd"].map((c) => { const digits = c.replace(/[\s-]/g, ""); return /^\d{13,19}$/.test(digits) && luhn(digits); });

// @program validate-zip
return ["12345", "12345-6789", "1234", "123456", "12345-"].map((z) => /^\d{5}(?:-\d{4})?$/.test(z));

// @program validate-hex
return ["0x1F", "0XAB", "1F", "0xG1", "0x"].map((s) => /^0x[\da-f]+$/i.test(s));

// @program validate-slug
return ["my-post-1", "My Post", "a--b", "-x", "ok"].map((s) => /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(s));

// @program validate-json-number
return ["0", "-0.5", "01", "1e10", "1.", ".5", "-1E-7"].map((s) => /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s));

// @program validate-time-24h
return ["00:00", "23:59", "24:00", "7:05", "12:60"].map((t) => /^([01]\d|2[0-3]):[0-5]\d$/.test(t));

// @program validate-ipv6-simple
const re = /^(([0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|([0-9a-f]{1,4}:){1,7}:|:(:[0-9a-f]{1,4}){1,7}|([0-9a-f]{1,4}:){1,6}:[0-9a-f]{1,4})$/i;
return ["2001:db8::1", "::1", "fe80::", "1:2:3:4:5:6:7:8", "gggg::"].map((a) => re.test(a));

// @program validate-balanced-simple
const strip = (s) => { let prev; do { prev = s; s = s.replace(/\(\)|\[\]|\{\}/g, ""); } while (s !== prev); return s === ""; };
return ["([]{})", "([)]", "((()))", "{"].map(strip);

// @program validate-no-repeat-chars
return ["abc", "abca", "aa", "xyzx"].map((s) => !/(.).*\1/.test(s));

// @program validate-palindrome
return ["A man, a plan, a canal: Panama", "race a car"].map((s) => { const t = s.toLowerCase().replace(/[^a-z0-9]/g, ""); return t === [...t].reverse().join(""); });

// @program validate-sticky-tokens
const re = /\d+/y;
re.lastIndex = 3;
const a = re.test("abc123def"); const li = re.lastIndex;
re.lastIndex = 2;
const b = re.test("abc123"); 
return [a, li, b, re.lastIndex];

// @program replace-fn-args
const calls = [];
const r = "x1y22z".replace(/(\d)(\d)?/g, (...a) => { calls.push(a); return "#"; });
return { r, calls };

// @program replace-fn-upper
return "hello big world".replace(/\b\w/g, (c) => c.toUpperCase());

// @program replace-fn-offsets
return "aXbXc".replace(/X/g, (m, off, s) => `[${off}/${s.length}]`);

// @program replace-fn-math
return "3 apples and 12 pears".replace(/\d+/g, (n) => String(n * 2));

// @program replace-fn-escape-html
const map = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
return `<a href="x">Tom & 'Jerry'</a>`.replace(/[&<>"']/g, (c) => map[c]);

// @program replace-fn-unescape
return "a\\nb\\tc\\u0041\\x42".replace(/\\(?:u([\da-f]{4})|x([\da-f]{2})|(.))/gi, (m, u, x, c) => (u || x ? String.fromCharCode(parseInt(u || x, 16)) : ({ n: "\n", t: "\t" })[c] ?? c));

// @program replace-fn-camel-to-snake
return ["userId", "HTTPServer", "parseJSONData", "simple"].map((s) => s.replace(/([a-z\d])([A-Z])/g, "$1_$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2").toLowerCase());

// @program replace-snake-to-camel
return ["user_id", "__private_var", "a_b_c", "already"].map((s) => s.replace(/(?<!^|_)_+([a-z])/g, (_, c) => c.toUpperCase()));

// @program replace-kebab
return "Hello World Foo_bar".replace(/[\s_]+/g, "-").replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();

// @program replace-title-case
const small = /^(a|an|the|of|in|and|or)$/i;
return "the lord of the rings and the return".replace(/\w+/g, (w, i) => (i > 0 && small.test(w) ? w.toLowerCase() : w[0].toUpperCase() + w.slice(1)));

// @program replace-dollar-patterns
const s = "John Smith";
return [s.replace(/(\w+)\s(\w+)/, "$2, $1"), s.replace(/o/, "[$&]"), s.replace(/Smith/, "$`|$'"), s.replace(/h/g, "$$"), s.replace(/(J)/, "$10"), s.replace(/(J)/, "$01"), s.replace(/J/, "$1"), s.replace(/(J)/, "$<x>")];

// @program replace-dollar-named-missing
return ["abc".replace(/(?<x>b)/, "[$<x>][$<y>]"), "abc".replace(/(b)/, "[$<x>]")];

// @program replace-empty-matches
return ["abc".replace(/x*/g, "-"), "abc".replace(/(?:)/g, "|"), "aaa".replace(/a*?/g, "<$&>"), "".replace(/^/, "start")];

// @program replace-unicode-empty
return ["😀😀".replace(/(?:)/gu, "."), "😀😀".replace(/(?:)/g, ".").length];

// @program replace-all-regex
return ["a.b.c".replaceAll(/\./g, "/"), "aaa".replaceAll(/a/g, (m, i) => i)];

// @program replace-all-nonglobal-throws
try { "x".replaceAll(/x/, "y"); return "no"; } catch (e) { return [e.name, e instanceof TypeError]; }

// @program replace-trim-collapse
return "   lots   of    space\t\there  ".replace(/^\s+|\s+$/g, "").replace(/\s+/g, " ");

// @program replace-mask-secrets
const cfg = "api_key=sk-12345abcdef token: ghp_ABCDEFG password = hunter2";
return cfg.replace(/(api_key|token|password)(\s*[=:]\s*)(\S+)/gi, (m, k, sep, v) => k + sep + v.slice(0, 2) + "*".repeat(v.length - 2));

// @program replace-number-grouping
return ["1234567", "1234567.891", "12"].map((n) => n.replace(/\B(?=(\d{3})+(?!\d))(?<!\.\d*)/g, ","));

// @program replace-with-lookbehind
return "price: 100 USD, cost 200 EUR".replace(/(?<=\s)\d+(?= USD)/g, (n) => `$${n}`);

// @program replace-nested-groups
return "2024-03-09 and 1999-12-31".replace(/((\d{4})-(\d{2}))-(\d{2})/g, (m, ym, y, mo, d) => `${d}.${mo}.${y} (${ym})`);

// @program replace-template-literal-fn
const vars = { a: 1, b: "two" };
return "${a} + ${b} = ${c}".replace(/\$\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

// @program replace-sticky
const re = /a/y;
return ["aaba".replace(re, "X"), re.lastIndex, "baaa".replace(re, "X"), re.lastIndex];

// @program replace-global-lastindex
const re = /o/g; re.lastIndex = 5;
const r = "foo boo".replace(re, "0");
return [r, re.lastIndex];

// @program replace-case-insensitive
return "Cat cAT CAT dog".replace(/cat/gi, (m) => (m === m.toUpperCase() ? "DOG" : "dog"));

// @program replace-callback-counter
let n = 0;
return ["x-x-x".replace(/x/g, () => ++n), n];

// @program replace-special-chars-escape
const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const needle = "a.b*c";
return [escapeRegExp(needle), new RegExp(escapeRegExp(needle), "g").test("xx a.b*c yy"), "a.b*c a+b*c".replace(new RegExp(escapeRegExp(needle), "g"), "!")];

// @program replace-line-numbers
let i = 0;
return "first\nsecond\nthird".replace(/^/gm, () => `${++i}: `);

// @program replace-indent
return "a\n  b\nc".replace(/^(?!$)/gm, "    ");

// @program replace-dedupe-words
return "the the quick brown brown fox fox fox".replace(/\b(\w+)(\s+\1\b)+/g, "$1");

// @program replace-wrap-lines
return "The quick brown fox jumps over the lazy dog again and again".replace(/(?![^\n]{1,20}$)([^\n]{1,20})\s/g, "$1\n");

// @program split-captures
return ["a1b2c3".split(/(\d)/), "a, b;c".split(/([,;])\s*/), "abc".split(/(?:)/), "a-b_c".split(/[-_]/)];

// @program split-limit
return ["a,b,c,d".split(/,/, 2), "a,b".split(/,/, 0), "a b c".split(/ /, -1)];

// @program split-optional-capture
return "a1b-c".split(/(\d)|(-)/);

// @program split-empty-string
return ["".split(/,/), "".split(/(?:)/), "".split(/x*/)];

// @program split-lookahead
return ["oneTwoThree".split(/(?=[A-Z])/), "1234567".split(/(?=(?:\d{3})+$)/)];

// @program split-whitespace
return "  leading and   trailing  ".trim().split(/\s+/);

// @program split-lines-mixed
return "a\r\nb\nc\rd".split(/\r\n|\r|\n/);

// @program split-unicode
return ["😀a😀".split(/(?:)/u), "😀a😀".split(/(?:)/).length, "a😀b".split(/\p{Emoji_Presentation}/u)];

// @program split-sticky-flag-source
const re = /-/y;
return ["a-b-c".split(re), re.lastIndex, re.flags];

// @program split-keep-delims
return "1+2*3-4/5".split(/([+*\/-])/).reduce((acc, t, i) => (i % 2 ? acc : [...acc, t]), []);

// @program split-tokenize
return "let x = 10 + foo(2, 'hi');".split(/(\s+|[(),;=+]|'[^']*')/).filter((t) => t && !/^\s+$/.test(t));

// @program split-csv-rows
const data = "h1,h2\n1,2\n3,4\n";
return data.trim().split(/\n/).map((r) => r.split(/,/).map((c) => (isNaN(c) ? c : +c)));

// @program split-sentences
return "Hi there. How are you? Great! Mr. Smith said so.".split(/(?<!\bMr)(?<=[.!?])\s+/);

// @program split-pairs
return Object.fromEntries("a:1|b:2|c:3".split(/\|/).map((kv) => kv.split(/:/)));

// @program unicode-letters
return "Héllo Wörld 123 Ωmega ñ".match(/\p{L}+/gu);

// @program unicode-scripts
const s = "Hello Привет こんにちは مرحبا 你好";
return { cyr: s.match(/\p{Script=Cyrillic}+/gu), hira: s.match(/\p{sc=Hiragana}+/gu), arab: s.match(/\p{Script=Arabic}+/u)[0], han: s.match(/\p{Script=Han}+/u)[0] };

// @program unicode-emoji-count
const s = "I ❤️ 🍕 and 🍣!";
return [s.match(/\p{Extended_Pictographic}/gu).length, [...s.matchAll(/\p{Emoji_Presentation}/gu)].map((m) => m.index)];

// @program unicode-dot-astral
const s = "a😀b";
return [s.match(/./g).length, s.match(/./gu).length, /^.$/u.test("😀"), /^.$/.test("😀"), /^..$/.test("😀")];

// @program unicode-escape-braces
return [/\u{1F600}/u.test("😀"), /\u{61}/u.test("a"), /[\u{1F600}-\u{1F64F}]/u.test("🙂"), "x😀y".replace(/\u{1F600}/u, "-")];

// @program unicode-case-insensitive
return [/ß/i.test("SS"), /σ/i.test("Σ"), /ς/iu.test("Σ"), /k/iu.test("\u212A"), /k/i.test("\u212A"), /é/i.test("É"), /[a-z]/i.test("K"), /\u017F/i.test("s"), /\u017F/iu.test("s")];

// @program unicode-property-categories
const s = "A1 b2 ¾ ٣ Ⅻ _";
return { Lu: s.match(/\p{Lu}/gu), Nd: s.match(/\p{Nd}/gu), N: s.match(/\p{N}/gu), P: "a,b.c!?".match(/\p{P}/gu) };

// @program unicode-negated-property
return "abc123äöü!".replace(/\P{L}/gu, "");

// @program unicode-normalize-and-strip
return "Crème Brûlée".normalize("NFD").replace(/\p{M}/gu, "");

// @program unicode-slugify
const slug = (s) => s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
return ["Héllo, Wörld!", "  Ça va? Très bien  ", "日本語 text"].map(slug);

// @program unicode-surrogates-nonu
return ["😀".match(/[\uD800-\uDBFF]/)[0].charCodeAt(0), /\uD83D/.test("😀"), /\uD83D/u.test("😀"), /^[^x]$/u.test("😀")];

// @program unicode-word-boundary
return ["café latte".match(/\b\w+\b/g), "café latte".match(/[\p{L}]+/gu)];

// @program unicode-v-flag-sets
return ["abcXYZ123".match(/[\p{L}--[a-z]]/gv), "a1b2".match(/[\w&&\d]/gv), "πσa".match(/[\p{Script=Greek}&&\p{Ll}]/gv)];

// @program unicode-v-flag-strings
return ["x🇫🇷y".match(/[\q{🇫🇷|🇩🇪}]/v)?.[0], "abc".match(/[\q{abc|ab}a]/v)[0]];

// @program unicode-whitespace
return "a\u00a0b\u2003c\u3000d\ufeffe".split(/\s/);

// @program unicode-count-graphemes-approx
return [..."naïve café"].filter((c) => /\p{L}/u.test(c)).length;

// @program unicode-han-ratio
const s = "中文mixed文本";
return (s.match(/\p{Script=Han}/gu) || []).length / [...s].length;

// @program unicode-lookbehind-astral
return "😀x😁x".match(/(?<=😁)x/u).index;

// @program regexp-props
const re = /a(b)?/gimsuyd;
return [re.source, re.flags, re.global, re.ignoreCase, re.multiline, re.dotAll, re.unicode, re.sticky, re.hasIndices, re.lastIndex, String(re)];

// @program regexp-constructor-forms
const a = new RegExp("a+", "g"); const b = RegExp(a); const c = new RegExp(a, "i"); const d = new RegExp(/x/g);
return [a.source, a.flags, b === a, c.flags, c.source, d.flags, String(new RegExp()), String(new RegExp("/")), String(new RegExp("\n"))];

// @program regexp-source-escaping
return [new RegExp("a/b").source, /a\/b/.source, new RegExp("[/]").source, RegExp("").source, new RegExp("line\nbreak").source];

// @program regexp-invalid-syntax
const out = [];
for (const src of ["(", "a**", "[z-a]", "(?<n>a)(?<n>b)", "\\k<x>", "x{2,1}"]) {
  try { new RegExp(src, "u"); out.push("ok"); } catch (e) { out.push(e.name); }
}
return out;

// @program regexp-invalid-flags
const out = [];
for (const f of ["gg", "x", "uv", "dgimsuy"]) { try { out.push(new RegExp("a", f).flags); } catch (e) { out.push(e.name); } }
return out;

// @program regexp-exec-result-shape
const m = /(a)(?<n>b)?(c)/.exec("xxacz");
return [m.length, m.index, m.input, m[0], m[1], m[2], m[3], Object.keys(m), JSON.stringify(m)];

// @program regexp-indices
const m = /(?<w>\w+)\s(\d+)?/d.exec("  hello 42");
return [m.indices[0], m.indices[1], m.indices[2], m.indices.groups.w, /a/d.exec("ba").indices];

// @program regexp-indices-undefined
const m = /(x)?y/d.exec("y");
return [m.indices.length, m.indices[1] === undefined];

// @program regexp-lastindex-loop
const re = /\w+/g; const s = "one two three"; const out = [];
let m; while ((m = re.exec(s))) out.push([m[0], m.index, re.lastIndex]);
return [out, re.lastIndex];

// @program regexp-test-global-state
const re = /a/g;
return [re.test("aa"), re.lastIndex, re.test("aa"), re.lastIndex, re.test("aa"), re.lastIndex];

// @program regexp-match-nonglobal-vs-global
const s = "a1b2";
const m = s.match(/\d/);
return [m[0], m.index, s.match(/\d/g), s.match(/x/g), s.match(/x/)];

// @program regexp-matchall-iterator
const it = "a1b2c3".matchAll(/[a-z](\d)/g);
const first = it.next();
const rest = [...it].map((m) => m[1]);
return [first.value[0], first.done, rest, Object.prototype.toString.call("x".matchAll(/x/g)), it.next()];

// @program regexp-matchall-nonglobal-throws
try { "x".matchAll(/x/); return "no"; } catch (e) { return e.constructor.name; }

// @program regexp-string-pattern-coerced
return ["a.c".match("."), "abc".search("c"), "1+1".match("1+1"), "aaa".matchAll("a").next().value[0], "x.y".split(".")];

// @program regexp-symbol-protocol
const custom = { [Symbol.replace](s, r) { return `custom(${s},${r})`; }, [Symbol.split](s) { return ["s", s]; }, [Symbol.search]() { return 42; }, [Symbol.match](s) { return [s.length]; } };
return ["abc".replace(custom, "x"), "abc".split(custom), "abc".search(custom), "abc".match(custom)];

// @program regexp-symbol-methods-direct
const re = /b/g;
return [re[Symbol.replace]("abcb", "X"), re[Symbol.split]("abcb"), re[Symbol.search]("abcb"), re[Symbol.match]("abcb")];

// @program regexp-subclass-exec
class Counting extends RegExp { constructor(...a) { super(...a); this.calls = 0; } exec(s) { this.calls++; return super.exec(s); } }
const re = new Counting("o", "g");
const r = "foo boo".replace(re, "0");
return [r, re.calls, re instanceof RegExp, re.test("o")];

// @program regexp-custom-exec
const re = /./g;
re.exec = function (s) { return this.lastIndex++ < 2 ? { 0: "z", length: 1, index: this.lastIndex - 1 } : null; };
return [re.test("abc"), "abc".replace(re, "Y")];

// @program regexp-tostring-generic
return [RegExp.prototype.toString.call({ source: "a", flags: "gi" }), String(/x/y), RegExp.prototype.flags, RegExp.prototype.source, RegExp.prototype.global];

// @program regexp-flags-getter-order
const seen = [];
const o = {}; for (const k of ["hasIndices", "global", "ignoreCase", "multiline", "dotAll", "unicode", "unicodeSets", "sticky"]) Object.defineProperty(o, k, { get() { seen.push(k); return true; } });
const f = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags").get.call(o);
return [f, seen.sort()];

// @program regexp-lastindex-readonly
const re = /a/g; Object.defineProperty(re, "lastIndex", { writable: false });
try { re.exec("a"); return "no"; } catch (e) { return e.name; }

// @program regexp-species-split
let used = 0;
class R extends RegExp { static get [Symbol.species]() { used++; return RegExp; } }
return ["a,b".split(new R(",")), used];

// @program regexp-instance-props
const re = /a/g;
return [Object.getOwnPropertyNames(re), Object.getOwnPropertyDescriptor(re, "lastIndex"), typeof RegExp.prototype.exec, RegExp.length, RegExp.name, re.constructor === RegExp];

// @program regexp-literal-fresh-each-eval
const make = () => /a/g;
const a = make(), b = make(); a.lastIndex = 3;
return [a === b, b.lastIndex];

// @program regexp-to-json
return [JSON.stringify({ re: /a/g }), JSON.stringify([/x/])];

// @program regexp-typeof-instanceof
return [typeof /a/, /a/ instanceof RegExp, Object.prototype.toString.call(/a/), Array.isArray("a".match(/a/))];

// @program regexp-multiline-anchors
const s = "l1\nl2\r\nl3";
return [s.match(/^l\d$/gm), s.match(/^l\d$/g), s.match(/\d$/gm), /^l2$/m.test(s)];

// @program regexp-dotall
return [/a.b/.test("a\nb"), /a.b/s.test("a\nb"), /a[^]b/.test("a\nb"), /a.b/.test("a\u2028b"), /a.b/.test("a\tb")];

// @program regexp-word-boundaries
return ["cat concat cat-like cats".match(/\bcat\b/g), "cat concat".match(/\Bcat/g), "x".match(/\b/g)];

// @program regexp-quantifier-edges
return ["aaaa".match(/a{2}/g), "aaaa".match(/a{1,3}/g), "aaaa".match(/a{2,}?/g), "ab".match(/a{0}b/)[0], "aaa".match(/a??/)[0], "x{2}".match(/x\{2\}/)[0], "a{,5}".match(/a{,5}/)[0]];

// @program regexp-greedy-vs-lazy
const s = "<b>one</b><b>two</b>";
return [s.match(/<b>.*<\/b>/)[0], s.match(/<b>.*?<\/b>/g), s.match(/<b>(?:(?!<\/b>).)*<\/b>/g)];

// @program regexp-alternation-order
return ["abc".match(/a|ab|abc/)[0], "abc".match(/abc|ab|a/)[0], "foobar".match(/foo(bar)?|foobar/)[0]];

// @program regexp-backrefs
return ["abcabc".match(/(abc)\1/)[0], "aa bb cd".match(/(\w)\1/g), /(a)|\1b/.exec("b")[0], /\1(a)/.exec("aa")[0], "<a>x</a><b>y</c>".match(/<(\w)>.*?<\/\1>/g)];

// @program regexp-backref-case-insensitive
return [/(a)\1/i.test("aA"), /(ß)\1/i.test("ßß"), /(\u212A)\1/iu.test("\u212Ak")];

// @program regexp-capture-reset
return [/(?:(a)|b)+/.exec("ab"), /(a)|(b)/g[Symbol.match]("ab"), /((a)|(b))+/.exec("ab")];

// @program regexp-empty-check
return [/(a*)+/.exec("b"), /(a*)*/.exec("b"), /(?:a?)*?b/.exec("ab"), /(a|)+b/.exec("aab")];

// @program regexp-lookahead
return ["price100 cost200".match(/\w+(?=\d{3})/g), "foobar foobaz".match(/foo(?!bar)\w+/g), /(?=(\d+))\d/.exec("123")[1]];

// @program regexp-lookbehind
return ["$10 €20 $30".match(/(?<=\$)\d+/g), "$10 €20 $30".match(/(?<!\$)\b\d+/g), /(?<=(\d)(\d))x/.exec("12x").slice(1), /(?<=\1(a))b/.exec("aab")?.[0]];

// @program regexp-lookbehind-variable
return ["id: 42, ref: 7, pid: 13".match(/(?<=(?:id|pid): )\d+/g), /(?<=^\w{2,4})z/.test("abcz"), /(?<=^a+)b/.exec("aaab").index];

// @program regexp-nested-lookaround
return ["a1 b2 c3".match(/(?<=(?=.\d)\s?)[a-z]/g), /(?=a(?!b))a./.exec("abac")[0]];

// @program regexp-class-escapes
return ["a1_ -\t".match(/\w/g), "a1_ -\t".match(/\W/g), "a1 ".match(/\d/g), "a1 \n".match(/\s/g).length, "a-z".match(/[\w-]/g), "a]b".match(/[\]]/)[0], "^x".match(/[\^x]/g)];

// @program regexp-class-ranges
return ["Az09_".match(/[A-Z0-9]/g), "abc-".match(/[a\-c]/g), "é".match(/[\u00e0-\u00ff]/)[0], "\u00e9\u0301".match(/[^\x00-\x7F]/g).length];

// @program regexp-control-escapes
return [/\cJ/.test("\n"), /\x41/.test("A"), /\u0041/.test("A"), /\0/.test("\0"), /[\b]/.test("\b"), /\t\v\f/.test("\t\v\f")];

// @program regexp-annex-b-escapes
return [/\a/.test("a"), /\8/.test("8"), /{/.test("{"), /]/.test("]"), /a{/.test("a{"), /\c/.test("\\c")];

// @program regexp-case-insensitive-classes
return ["ABCdef".match(/[a-c]/gi), "Straße".match(/[^a-z]/gi), /[^a]/i.test("A")];

// @program regexp-sticky-exec
const re = /foo/y; const s = "foofoo bar";
const out = [];
for (let i = 0; i < 4; i++) { const m = re.exec(s); out.push(m ? [m.index, re.lastIndex] : [null, re.lastIndex]); }
return out;

// @program regexp-sticky-anchor
const re = /^a/y; re.lastIndex = 1;
const re2 = /^a/my; re2.lastIndex = 2;
return [re.test("ba"), re2.test("b\na")];

// @program regexp-search-preserves-lastindex
const re = /b/g; re.lastIndex = 2;
const i = "abc".search(re);
return [i, re.lastIndex];

// @program regexp-lastindex-beyond
const re = /a/g; re.lastIndex = 10;
return [re.exec("aaa"), re.lastIndex];

// @program regexp-lastindex-coercion
const re = /a/g; re.lastIndex = "1"; const m1 = re.exec("aaa").index;
re.lastIndex = -5; const m2 = re.exec("aaa").index;
re.lastIndex = 1.9; const m3 = re.exec("aaa").index;
return [m1, m2, m3];

// @program regexp-unicode-lastindex-mid-pair
const re = /./gu; re.lastIndex = 1;
const m = re.exec("😀a");
return [m[0].length, m.index, re.lastIndex];

// @program regexp-exec-non-string
return [/1/.exec(123)[0], /null/.test(null), /undefined/.test(), /\[object Object\]/.test({}), /a/.exec({ toString() { return "xa"; } }).index];

// @program regexp-many-groups
const re = new RegExp("(a)".repeat(20));
return re.exec("a".repeat(20)).length;

// @program regexp-dollar-11-groups
const re = /(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)/;
return ["abcdefghijk".replace(re, "$11-$10-$1$2"), "abcdefghijk".replace(re, "$12")];

// @program regexp-modifiers-absent-node
let ok; try { new RegExp("(?i:a)b"); ok = "parsed"; } catch (e) { ok = e.name; }
return typeof ok;

// @program word-frequency
const text = "The cat and the hat. THE END, the end!";
const freq = {};
for (const w of text.toLowerCase().match(/\b[a-z']+\b/g)) freq[w] = (freq[w] || 0) + 1;
return Object.entries(freq).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));

// @program tokenizer-sticky
const rules = [["num", /\d+(?:\.\d+)?/y], ["id", /[A-Za-z_]\w*/y], ["op", /[+\-*\/()=]/y], ["ws", /\s+/y]];
const src = "x = 3.5 * (y + 42)";
const toks = []; let pos = 0;
outer: while (pos < src.length) { for (const [type, re] of rules) { re.lastIndex = pos; const m = re.exec(src); if (m) { if (type !== "ws") toks.push([type, m[0]]); pos = re.lastIndex; continue outer; } } throw new Error("bad char at " + pos); }
return toks;

// @program arith-eval-regex
let e = "2*(3+4)-10/5";
const inner = /\(([^()]+)\)/;
const flat = (s) => { let m; while ((m = s.match(/(-?\d+(?:\.\d+)?)([*\/])(-?\d+(?:\.\d+)?)/))) s = s.replace(m[0], m[2] === "*" ? m[1] * m[3] : m[1] / m[3]); while ((m = s.match(/(-?\d+(?:\.\d+)?)([+-])(\d+(?:\.\d+)?)/))) s = s.replace(m[0], m[2] === "+" ? +m[1] + +m[3] : m[1] - m[3]); return s; };
let m; while ((m = e.match(inner))) e = e.replace(m[0], flat(m[1]));
return Number(flat(e));

// @program parse-key-value-config
const s = "timeout=30s retries=3 verbose name='my app' ratio=0.5";
const out = {};
for (const m of s.matchAll(/(\w+)(?:=(?:'([^']*)'|(\S+)))?/g)) out[m[1]] = m[2] ?? (m[3] === undefined ? true : isNaN(m[3]) ? m[3] : Number(m[3]));
return out;

// @program parse-http-headers
const raw = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nX-Empty:\r\n\r\nbody";
const [head] = raw.split(/\r\n\r\n/);
const [status, ...lines] = head.split(/\r\n/);
const headers = {};
for (const l of lines) { const [, k, v] = l.match(/^([^:]+):\s*(.*)$/); (headers[k.toLowerCase()] ||= []).push(v); }
return { status: status.match(/^HTTP\/([\d.]+) (\d{3}) (.*)$/).slice(1), headers };

// @program parse-cookie
return Object.fromEntries("a=1; b = two ; c=x%20y; flag".split(/;\s*/).map((p) => p.match(/^\s*([^=]+?)\s*(?:=\s*(.*?)\s*)?$/)).map((m) => [m[1], m[2] === undefined ? "" : m[2].replace(/%20/g, " ")]));

// @program parse-dates-multi-format
const fmts = [[/^(\d{4})-(\d{2})-(\d{2})$/, (m) => [m[1], m[2], m[3]]], [/^(\d{2})\/(\d{2})\/(\d{4})$/, (m) => [m[3], m[1], m[2]]], [/^(\d{1,2}) (Jan|Feb|Mar) (\d{4})$/i, (m) => [m[3], String(["jan", "feb", "mar"].indexOf(m[2].toLowerCase()) + 1).padStart(2, "0"), m[1].padStart(2, "0")]]];
return ["2024-01-05", "03/15/2023", "7 feb 2022", "bad"].map((s) => { for (const [re, f] of fmts) { const m = s.match(re); if (m) return f(m).join("-"); } return null; });

// @program extract-todo-comments
const code = "// TODO: fix this\nlet x = 1; // FIXME(bob): wrong\n/* TODO refactor */\n// note: fine";
return [...code.matchAll(/(?:\/\/|\/\*)\s*(TODO|FIXME)(?:\((\w+)\))?:?\s*(.*?)\s*(?:\*\/)?$/gm)].map((m) => ({ kind: m[1], who: m[2] ?? null, text: m[3] }));

// @program strip-comments-js
const code = "let a = 1; // one\n/* block\ncomment */ let b = '//not';";
return code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m) => (m.startsWith("//") && false ? m : "")).replace(/'\s*$/, "'");

// @program function-signatures
const code = "function foo(a, b = 2) {}\nconst bar = (x) => x;\nasync function baz() {}\nclass C { method(q) {} }";
return [...code.matchAll(/(?:async\s+)?function\s+(\w+)\s*\(([^)]*)\)|const\s+(\w+)\s*=\s*\(([^)]*)\)\s*=>/g)].map((m) => [m[1] ?? m[3], (m[2] ?? m[4]).split(/\s*,\s*/).filter(Boolean).map((p) => p.split(/\s*=/)[0])]);

// @program import-statements
const code = `import a from "x";\nimport { b, c as d } from 'y';\nimport * as e from "z";\nconst f = require("w");`;
return [...code.matchAll(/(?:import\s+(?:[\w*{}\s,]+?)\s+from\s+|require\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1]);

// @program json-path-tokens
return "$.store.book[0].title['a b'][*]".match(/\$|\.\w+|\[\d+\]|\['[^']*'\]|\[\*\]/g);

// @program glob-to-regex
const globRe = (g) => new RegExp("^" + g.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*\*/g, "\u0000").replace(/\*/g, "[^/]*").replace(/\?/g, "[^/]").replace(/\u0000/g, ".*") + "$");
const re = globRe("src/**/*.js");
return ["src/a.js", "src/x/y/b.js", "src/a.ts", "lib/a.js"].map((p) => re.test(p));

// @program wildcard-match
const match = (pat, s) => new RegExp("^" + pat.split("*").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$", "i").test(s);
return [match("*.txt", "Notes.TXT"), match("a*b*c", "aXXbYc"), match("a*b", "ab"), match("x?y", "x?y")];

// @program redact-emails-phones
return "Mail ann@x.com or call 555-123-4567 / (555) 987 6543".replace(/[\w.]+@[\w.]+\w/g, "[email]").replace(/\(?\d{3}\)?[\s-]?\d{3}[\s-]\d{4}/g, "[phone]");

// @program sentence-case
return "hello. this is A TEST! ok? yes".toLowerCase().replace(/(^\s*|[.!?]\s+)([a-z])/g, (m, p, c) => p + c.toUpperCase());

// @program count-vowels-consonants
const s = "Programming in JavaScript";
return { vowels: (s.match(/[aeiou]/gi) || []).length, consonants: (s.match(/[b-df-hj-np-tv-z]/gi) || []).length };

// @program longest-word
return "I love regular-expressions and pattern matching!".match(/[\w-]+/g).reduce((a, b) => (b.length > a.length ? b : a));

// @program acronym
return ["Portable Network Graphics", "as soon as possible", "Complementary metal-oxide semiconductor"].map((s) => s.match(/\b\w|(?<=-)\w/g).join("").toUpperCase());

// @program truncate-words
const t = (s, n) => (s.length <= n ? s : s.slice(0, n + 1).replace(/\s+\S*$/, "") + "…");
return [t("The quick brown fox jumps", 12), t("short", 10), t("Averyveryverylongword here", 5)];

// @program extract-quoted
return `He said "hi" and 'bye', then "it's \"fine\"".`.match(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g);

// @program parse-args-cli
const argv = `--name="John Doe" -v --count=3 file.txt --flag 'x y'`;
return argv.match(/--?\w+(?:=(?:"[^"]*"|'[^']*'|\S+))?|"[^"]*"|'[^']*'|\S+/g).map((a) => a.replace(/^(['"])(.*)\1$/, "$2").replace(/=(['"])(.*)\1$/, "=$2"));

// @program format-bytes-parse
const units = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
return ["10KB", "1.5 MB", "3gb", "512", "x"].map((s) => { const m = /^\s*([\d.]+)\s*(b|kb|mb|gb)?\s*$/i.exec(s); return m ? Math.round(parseFloat(m[1]) * units[(m[2] || "b").toLowerCase()]) : null; });

// @program mustache-sections
const tpl = "{{#items}}- {{name}}\n{{/items}}Total: {{total}}";
const data = { items: [{ name: "a" }, { name: "b" }], total: 2 };
return tpl.replace(/\{\{#(\w+)\}\}([\s\S]*?)\{\{\/\1\}\}/g, (_, k, body) => data[k].map((it) => body.replace(/\{\{(\w+)\}\}/g, (_, f) => it[f])).join("")).replace(/\{\{(\w+)\}\}/g, (_, k) => data[k]);

// @program diff-words
const a = "the quick brown fox".split(/\s+/), b = "the slow brown dog".split(/\s+/);
return a.map((w, i) => (w === b[i] ? w : `[-${w}-]{+${b[i]}+}`)).join(" ");

// @program html-attr-values
const html = `<input type="text" name='user' disabled value=plain data-x="1">`;
return Object.fromEntries([...html.matchAll(/\s([\w-]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)].map((m) => [m[1], m[2] ?? m[3] ?? m[4] ?? true]));

// @program xml-simple-parse
const xml = "<root><item id=\"1\">A</item><item id=\"2\">B</item><other/></root>";
return [...xml.matchAll(/<item id="(\d+)">([^<]*)<\/item>/g)].map((m) => ({ id: +m[1], text: m[2] }));

// @program numbers-in-words
return "Order 66 shipped 3 boxes of 12 items at 1.5kg".match(/\d+(?:\.\d+)?/g).map(Number).reduce((a, b) => a + b, 0);

// @program validate-form
const rules = { email: /^[^@\s]+@[^@\s]+\.\w+$/, age: /^(?:1[89]|[2-9]\d)$/, zip: /^\d{5}$/ };
const form = { email: "a@b.io", age: "17", zip: "1234a" };
return Object.fromEntries(Object.entries(rules).map(([k, re]) => [k, re.test(form[k])]));

// @program route-matching
const route = (pattern) => new RegExp("^" + pattern.replace(/\//g, "\\/").replace(/:(\w+)/g, "(?<$1>[^/]+)") + "\\/?$");
const re = route("/users/:id/posts/:postId");
return ["/users/7/posts/99", "/users/7/posts/99/", "/users/7/posts"].map((p) => re.exec(p)?.groups ?? null).map((g) => g && { ...g });

// @program mime-parse
const m = "multipart/form-data; boundary=----abc; charset=UTF-8".match(/^([\w-]+)\/([\w.+-]+)((?:\s*;\s*[\w-]+=[^;]+)*)$/);
return { type: m[1], sub: m[2], params: Object.fromEntries([...m[3].matchAll(/;\s*([\w-]+)=([^;]+)/g)].map((p) => [p[1], p[2].trim()])) };

// @program emoji-strip
return "Hi 👋 there 🎉!".replace(/\p{Extended_Pictographic}\uFE0F?/gu, "").replace(/\s+/g, " ").trim();

// @program chunk-string
return ["abcdefghij".match(/.{1,3}/g), "abcdefghij".match(/.{1,3}(?=(.{3})*$)/g)];

// @program reverse-words-keep-punct
return "Hello, world! Foo bar.".replace(/\w+/g, (w) => [...w].reverse().join(""));

// @program fuzzy-search
const q = "fbr";
const re = new RegExp(q.split("").map((c) => c + ".*?").join(""), "i");
return ["foobar", "FizzBuzzR", "bar", "far boo r"].filter((s) => re.test(s));

// @program highlight-terms
const terms = ["cat", "dog"];
return "Cats and dogs: a cat, a dog, a catalog.".replace(new RegExp(`\\b(${terms.join("|")})s?\\b`, "gi"), "<mark>$&</mark>");

// @program extract-hashes
return "commit a3f5b2c merged; sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 ok".match(/\b[0-9a-f]{7,64}\b/g).map((h) => h.length);

// @program parse-table-whitespace
const out = `NAME      READY   STATUS    RESTARTS
web-1     1/1     Running   0
db-0      0/1     Pending   3`;
const [h, ...rows] = out.split("\n");
const cols = h.split(/\s{2,}/);
return rows.map((r) => Object.fromEntries(r.split(/\s{2,}/).map((v, i) => [cols[i], v])));

// @program percent-encode-check
return ["a%20b", "bad%2", "%zz", "%E2%82%AC"].map((s) => /^(?:[^%]|%[0-9A-F]{2})*$/i.test(s));

// @program line-column-of-match
const src = "line one\nline two has ERR here\nthree";
const i = src.search(/ERR/);
const before = src.slice(0, i);
return { line: (before.match(/\n/g) || []).length + 1, col: i - before.lastIndexOf("\n") };

// @program collapse-blank-lines
return "a\n\n\n\nb\n \n\nc\n".replace(/\n\s*\n/g, "\n\n").replace(/\n+$/, "");

// @program normalize-newlines
return JSON.stringify("a\r\nb\rc\n".replace(/\r\n?/g, "\n"));

// @program roman-numerals-validate
const re = /^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$/;
return ["MCMXCIV", "MMXXIV", "IIII", "IC", ""].map((r) => re.test(r));

// @program parse-coordinates
return "Pos: 40.7128° N, 74.0060° W; -33.86,151.21".match(/-?\d+\.\d+/g).map(Number);

// @program tag-balance-check
const html = "<div><p>x</p><span></div></span>";
const stack = []; let ok = true;
for (const [, close, name] of html.matchAll(/<(\/?)(\w+)[^>]*>/g)) { if (!close) stack.push(name); else if (stack.pop() !== name) ok = false; }
return [ok, stack];

// @program string-to-words-unicode
return "naïve résumé—coöperate, 東京 & São Paulo".match(/[\p{L}\p{M}]+/gu);

// @program strip-ansi
const s = "\u001b[31mred\u001b[0m and \u001b[1;32mbold green\u001b[0m";
return s.replace(/\u001b\[[0-9;]*m/g, "");

// @program regex-heavy-loop
const lines = [];
for (let i = 0; i < 300; i++) lines.push(`2024-01-${String(1 + (i % 28)).padStart(2, "0")} user${i % 7} ${["GET", "POST"][i % 2]} /api/v1/items/${i} ${[200, 404, 500][i % 3]}`);
const re = /^(?<date>[\d-]+) (?<user>\w+) (?<method>GET|POST) (?<path>\S+) (?<status>\d+)$/;
const stats = {};
for (const l of lines) { const g = re.exec(l).groups; const k = `${g.method}:${g.status}`; stats[k] = (stats[k] || 0) + 1; }
return stats;

// @program matchall-with-indices
return [..."a1 b22".matchAll(/[a-z](\d+)/dg)].map((m) => m.indices[1]);

// @program match-then-destructure-default
const [, a = "none", b = "none"] = "k=" .match(/(\w)=(\w*)/) || [];
return [a, b];

// @program replace-callback-returns-nonstring
return ["a-b".replace(/-/, () => 42), "a-b".replace(/-/, () => null), "a-b".replace(/-/, () => undefined), "a-b".replace(/-/, () => ({ toString() { return "!"; } }))];

// @program replace-string-pattern-dollars
return ["a.b".replace(".", "$&$&"), "abc".replace("b", "$`$'"), "abc".replace("b", "$$"), "abc".replace("b", "$1")];

// @program regexp-constructor-special-chars
const words = ["c++", "node.js", "a|b"];
return words.map((w) => new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).source);

// @program regexp-case-fold-greek
return ["ΣΊΣΥΦΟΣ".match(/σ/gi)?.length, "ΣΊΣΥΦΟΣ".match(/[α-ω]/giu)?.length];

// @program regexp-ignorecase-unicode-props
return [/\p{Lu}/iu.test("a"), /\p{Ll}/iu.test("A"), /[^\p{Lu}]/iu.test("A")];

// @program regexp-exponential-safe-input
return [/^(a+)+$/.test("aaaaaaaaaaaaaaaa"), /^(a|aa)+$/.test("aaaaaaaaaa"), /(x+x+)+y/.test("xxxxxxxxxxy")];

// @program regexp-string-iterator-proto
const it = "ab".matchAll(/./g);
const proto = Object.getPrototypeOf(it);
return [typeof proto.next, proto[Symbol.toStringTag], typeof proto[Symbol.iterator], proto[Symbol.iterator].call(it) === it];

// @program regexp-symbols-exist
return [typeof Symbol.match, typeof Symbol.matchAll, typeof Symbol.replace, typeof Symbol.search, typeof Symbol.split, String(Symbol.split), typeof RegExp[Symbol.species]];

// @program regexp-match-disabled-via-symbol
const re = /a/; re[Symbol.match] = false;
return ["/a/".startsWith(re), "x/a/".includes(re)];

// @program regexp-startswith-throws
try { "abc".startsWith(/a/); return "no"; } catch (e) { return e.name; }

// @program regexp-uncaught-syntax-error !ExecutionFailure:SyntaxError
new RegExp("(unclosed");

// @program regexp-uncaught-bad-flags !ExecutionFailure:SyntaxError
new RegExp("a", "q");

// @program matchall-is-lazy
// The iterator finds each match when it is asked: the first matches of an empty pattern over
// 2,000,000 characters, a for-of over 300,000 matches, and an exec replaced mid-iteration.
const it = "x".repeat(2e6).matchAll(/(?:)/g);
const first = [it.next().value.index, it.next().value.index, it.next().value.index];
let n = 0, last = -1;
for (const m of "ab".repeat(300000).matchAll(/a/g)) { n++; last = m.index; }
const re = /\d/g;
const it2 = "1a2b3".matchAll(re);
const seen = [it2.next().value[0]];
const exec = RegExp.prototype.exec;
RegExp.prototype.exec = function (s) { seen.push("patched"); return exec.call(this, s); };
seen.push(it2.next().value[0]);
RegExp.prototype.exec = exec;
seen.push(...[...it2].map(m => m[0]));
return [first, n, last, seen, Object.prototype.toString.call(it)];

// @program lone-trail-surrogate-never-matches-inside-a-pair-in-u-mode
const s = "x\u{1F600}";
return [/\ude00/u.exec(s)?.index ?? null, /\ud83d/u.exec(s)?.index ?? null, s.search(/\ude00/u),
        /[\ude00]/u.exec(s)?.index ?? null, /\ude00/v.test(s), /a|\ude00/u.exec(s)?.index ?? null,
        /(?:\ude00)/u.exec(s)?.index ?? null, /\ude00/.exec(s)?.index ?? null,
        /\ude00/gu.exec("\ude00" + s)?.index ?? null, "a\ude00b\u{1F600}\ude00".replace(/\ude00/gu, "#")];
// @program replace-global-templates
// Global replacements with string templates ($&, $`, $', $n, $nn, $<name>, empty matches, sticky, u).
const out = [];
out.push("a1b22c333".replace(/\d+/g, "[$&]"));
out.push("2024-01-05 and 1999-12-31".replace(/(\d+)-(\d+)-(\d+)/g, "$3/$2/$1 ($`|$') $$ $0 $4 $10 $11"));
out.push("2024-01-05".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/g, "$<d>.$<m>.$<y> $<nope> $<y"));
out.push("abc".replace(/x*/g, "-"));
out.push("a\u{1F600}b".replace(/(?:)/gu, "|"));
out.push("a\u{1F600}b".replace(/(?:)/g, "|").length);
out.push("aaa".replace(/a/gy, "b"), "baaa".replace(/a/gy, "b"));
const r = /o/g; r.lastIndex = 5; out.push("foo boo".replace(r, "0"), r.lastIndex);
out.push("x".repeat(10).replace(/x/g, "$'"));
out.push("Hello World".replace(/(?<first>\w)(\w*)/g, "$<first>_$2"));
out.push("aXbXc".replace(/x/gi, "$"), "ab".replace(/(a)|(b)/g, "[$1|$2]"));
out.push("caf\u00e9 \u4e2d\u6587".replace(/\S+/g, "<$&>"));
return out;
// @program match-global-and-test-fast-paths
// Global match, test and exec loops over builtin RegExps (empty matches, sticky, u, frozen).
const out = [];
out.push("a1b22c333".match(/\d+/g), "abc".match(/x/g), "abc".match(/(?:)/g), "a\u{1F600}b".match(/(?:)/gu).length, "a\u{1F600}b".match(/(?:)/g).length);
out.push("aaa".match(/a/gy), "baaa".match(/a/gy), "Hello World".match(/[A-Z]/g), "x1y2".match(/(\d)/g));
const r = /o/g; r.lastIndex = 3; out.push("foo boo".match(r), r.lastIndex);
out.push("caf\u00e9 \u4e2d\u6587 ok".match(/\S+/g), "2024-01-05, 1999-12-31".match(/(?<y>\d{4})-\d\d-\d\d/g));
const big = "ab ".repeat(50000).match(/\w+/g); out.push(big.length, big[49999]);
let words = 0; for (const line of ["one two", "three", ""]) words += (line.match(/\w+/g) || []).length; out.push(words);
const fr = Object.freeze(/a/g); try { "aa".match(fr); out.push("no"); } catch (e) { out.push(e.constructor.name); }
return out;
