// URL and URLSearchParams: WHATWG parsing and serialization, getters and setters, the live link
// between a URL and its searchParams, iteration, sort, toString, errors as node words them.

// @program url-tour
const u = new URL("https://user:pw@Example.COM:8080/a/../b/c d?x=1&y=two%20words#frag");
const out = [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, String(u), JSON.stringify({u})];
const p = u.searchParams;
out.push(p.get("x"), p.get("y"), p.get("z"), p === u.searchParams, p.size);
p.append("z", "a b&c");
out.push(u.href, u.search);
u.search = "?q=1&q=2";
out.push(p.getAll("q"), [...p], [...p.keys()], [...p.values()]);
p.delete("q");
out.push(u.href);
u.port = "443"; u.protocol = "http"; u.hash = ""; u.pathname = "/x y";
out.push(u.href);
out.push(new URL("../up?a", "https://h.com/p/q/r").href, URL.canParse("nope"), URL.canParse("/x", "https://a.b"));
try { new URL("nope"); } catch (e) { out.push(e.name, e.message, e.code, e.input); }
const s = new URLSearchParams("?b=2&a=1&b=1&c=%F0%9F%98%80+x");
s.sort();
out.push(s.toString(), s.has("a"), s.has("a", "2"), s.size);
s.set("b", "9");
out.push(s.toString());
const r = new URLSearchParams({ k: "v", n: 1 });
const q = new URLSearchParams([["a", "1"], ["a", "2"]]);
const f = [];
q.forEach((v, k) => f.push(k + "=" + v));
out.push(r.toString(), q.toString(), f, Object.prototype.toString.call(s), Object.prototype.toString.call(u), String(new URLSearchParams(q)));
return out;

// @program url-parsing-edge-cases
const inputs = ["http://a.b", "HTTP://A.B:80/", "https://a.b:443/x", "file:///tmp/x y", "mailto:me@x.org",
  "data:text/plain,hi", "http://[::1]:3000/p", "http://192.168.0.1.", "http://0x7f.1/", "https://例え.jp/パス",
  "https://xn--r8jz45g.jp/", "http://a.b/%7Efoo/./bar/../baz", "http://a.b?q= x#h a", "  https://trim.me/  ",
  "https://a.b\\back\\slash", "blob:https://a.b/uuid", "ws://h/", "javascript:alert(1)", "http://user@h/", "http://:pw@h/",
  "http://h:99999/", "http://exa mple.com", "", "//no-scheme", "https://", "http://a.b/\u0000"];
return inputs.map((s) => { try { const u = new URL(s); return [s, u.href, u.origin, u.host, u.pathname]; } catch (e) { return [s, e.message]; } });

// @program url-relative-resolution
const base = "https://example.com/a/b/c?q=1#f";
return ["d", "./d", "../d", "../../../../d", "/d", "//other.org/x", "?z=2", "#g", "", "https:d", "http:d", ".", ".."]
  .map((r) => new URL(r, base).href);

// @program url-setters
const u = new URL("https://example.com/path?x=1#h");
const log = [];
const show = () => log.push(u.href);
u.hostname = "api.example.org"; show();
u.port = "8443"; show();
u.port = "443"; show();
u.port = "bogus"; show();
u.username = "me"; u.password = "p@ss:word"; show();
u.pathname = "v1/items"; show();
u.search = "a=1&b=2"; show();
u.search = ""; show();
u.hash = "#top"; u.hash = "frag ment"; show();
u.host = "h.test:81"; show();
u.protocol = "ftp:"; show();
u.protocol = "bogus protocol"; show();
u.href = "http://new.example/"; show();
try { u.href = "not a url"; } catch (e) { log.push(e.message, e.code); }
show();
return log;

// @program url-search-params-live-link
const u = new URL("https://x.test/search?q=rust&page=2");
const p = u.searchParams;
p.set("page", "3");
p.append("tag", "a&b");
p.append("tag", "ü é");
const a = u.href;
p.delete("tag", "a&b");
const b = u.search;
u.search = "?fresh=1";
const c = [...p];
p.delete("fresh");
const d = [u.href, u.search];
u.href = "https://y.test/?k=v";
return [a, b, c, d, p.get("k"), p.size];

// @program url-search-params-forms
const cases = ["a=1&b=2", "?a=1", "a", "a=", "=b", "a=1&&b=2", "a+b=c+d", "%zz=1", "a=%E2%82%AC", "a=1;b=2", ""];
const out = cases.map((s) => { const p = new URLSearchParams(s); return [s, [...p.entries()], p.toString()]; });
out.push(new URLSearchParams({ a: 1, b: [1, 2], c: null, d: undefined }).toString());
out.push(new URLSearchParams(new Map([["m", "1"], ["n", "2"]])).toString());
out.push(new URLSearchParams([["x", "1"], ["x", "2"]]).getAll("x"));
try { new URLSearchParams([["only-one"]]); } catch (e) { out.push(e.constructor.name, e.message); }
try { new URLSearchParams().append("x"); } catch (e) { out.push(e.constructor.name, e.message, e.code); }
out.push(new URLSearchParams("z=1&a=2&m=3&a=1").toString(), (() => { const p = new URLSearchParams("z=1&a=2&m=3&a=1"); p.sort(); return p.toString(); })());
out.push(new URLSearchParams({ "sp ace": "a b", "amp&": "=", "üñí": "☃", "*-._~": "!'()" }).toString());
return out;

// @program url-model-style-query-building
const base = new URL("https://api.example.com/v2/orders");
const filters = { status: "open", since: "2026-01-01", tags: ["rush", "gift"], q: "blue & green" };
for (const [k, v] of Object.entries(filters)) {
  if (Array.isArray(v)) for (const x of v) base.searchParams.append(k, x);
  else base.searchParams.set(k, v);
}
const parsed = new URL(base.href);
const params = Object.fromEntries(parsed.searchParams);
const paths = ["/v2/orders/1", "/v2/orders/2?expand=items"].map((p) => new URL(p, base).pathname + new URL(p, base).search);
return { href: base.href, params, tags: parsed.searchParams.getAll("tags"), paths, host: parsed.host };

// @program url-errors-and-types
const out = [];
try { URL("https://a.b"); } catch (e) { out.push(e.constructor.name); }
try { new URL(); } catch (e) { out.push(e.constructor.name, e.code); }
try { new URL("/rel"); } catch (e) { out.push(e.message, e.input); }
try { new URL("/rel", "also-bad"); } catch (e) { out.push(e.message, e.input, e.base); }
out.push(typeof URL, typeof URLSearchParams, URL.length, URLSearchParams.length, URL.canParse.length);
out.push(new URL("https://a.b") instanceof URL, Object.keys(new URL("https://a.b")), JSON.stringify(new URLSearchParams("a=1")));
out.push(Object.getOwnPropertyNames(URL.prototype).includes("href"), typeof Object.getOwnPropertyDescriptor(URL.prototype, "href").set);
return out;

// @program url-console-forms
const u = new URL("https://me:pw@a.example:8080/p/q?x=1&y=%20two#h");
console.log(u);
console.log(u.searchParams, new URLSearchParams(), new URLSearchParams("a=1&a='q'"));
console.log([new URL("file:///tmp/a")], { link: new URL("mailto:x@y.z") });
return `${u}`;
