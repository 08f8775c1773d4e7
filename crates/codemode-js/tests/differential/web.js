// The URI functions and btoa/atob (node 20 has no Set composition methods: test262 checks
// those).

// @program uri-component-round-trip
const parts = ["a b", "x&y=z", "path/to?q", "é", "😀", "-_.!~*'()", ""];
const enc = parts.map(encodeURIComponent);
return [enc, enc.map(decodeURIComponent).every((d, i) => d === parts[i])];

// @program build-query-string
const params = { q: "rust lang", page: 2, tags: ["a&b", "c"] };
const qs = Object.entries(params).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(Array.isArray(v) ? v.join(",") : v)}`).join("&");
return ["https://example.com/search?" + qs, encodeURI("https://example.com/a path/é?x=1&y=2#frag")];

// @program decode-uri-keeps-reserved
return [decodeURI("%3Fa%3Db%20c%23"), decodeURIComponent("%3Fa%3Db%20c%23"), decodeURI("%E2%82%AC")];

// @program uri-malformed !ExecutionFailure:URIError
return decodeURIComponent("%E0%A4%A");

// @program lone-surrogate-cannot-encode !ExecutionFailure:URIError
return encodeURIComponent("\ud800");

// @program base64-basics
const s = "Hello, codemode!";
return [btoa(s), atob(btoa(s)) === s, btoa(""), btoa("a"), btoa("ab"), atob("YQ"), atob(" Y W I = "), btoa(String.fromCharCode(255, 0, 128))];

// @program base64-of-utf8-text
const text = "naïve ☕";
const bytes = unescapeLike(encodeURIComponent(text));
function unescapeLike(s) { return s.replace(/%([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16))); }
const b64 = btoa(bytes);
const back = decodeURIComponent(atob(b64).split("").map((c) => "%" + c.charCodeAt(0).toString(16).padStart(2, "0")).join(""));
return [b64, back === text];

// @program btoa-rejects-wide-characters
try { btoa("€"); } catch (e) { return [e.name, e.message, e instanceof Error]; }

// @program atob-rejects-bad-input
const out = [];
for (const s of ["abcde", "ab$c", "a==="]) { try { out.push(atob(s)); } catch (e) { out.push(e.name); } }
return out;
