// String methods (non-RegExp forms) and UTF-16 semantics.

// @program search-methods
const s = "The quick brown fox";
return [s.indexOf("o"), s.lastIndexOf("o"), s.indexOf("o", 13), s.includes("quick"), s.startsWith("quick", 4), s.endsWith("brown", 15), s.search === undefined, s.indexOf(""), s.lastIndexOf("", 3)];

// @program slice-substring-substr
const s = "codemode";
return [s.slice(2, 5), s.slice(-4), s.slice(5, 2), s.substring(5, 2), s.substring(-3, 3), s.substr(1, 3), s.substr(-3), s.slice(), s.at(-1), s.at(100), s.charAt(100)];

// @program split-forms
return ["a,b,,c".split(","), "abc".split(""), "a b c".split(" ", 2), "".split(","), "".split(""), "abc".split(), "a--b--c".split("--"), "x".split("x")];

// @program replace-string-forms
const s = "a-b-c-a";
return [s.replace("a", "X"), s.replaceAll("a", "X"), s.replace("-", "$&$&"), s.replace("b", "[$`|$']"), s.replaceAll("-", (m, off) => `<${off}>`), s.replace("zz", "Q"), "aaa".replaceAll("aa", "b"), "x".replace("x", "$$")];

// @program case-trim-pad-repeat
const s = "  Mixed Case  ";
return [s.toUpperCase(), s.toLowerCase(), s.trim(), s.trimStart(), s.trimEnd(), "5".padStart(3, "0"), "5".padEnd(4, "ab"), "abc".padStart(2), "-".repeat(0), "ab".repeat(3), "x".padStart(5, "")];

// @program char-codes-and-from
return ["A".charCodeAt(0), "é".charCodeAt(0), String.fromCharCode(72, 105), String.fromCodePoint(0x1f600).length, "\u{1F600}".codePointAt(0), "\u{1F600}".codePointAt(1), String.fromCharCode(0x10041)];

// @program surrogates-and-iteration
const s = "a\u{1F600}b";
return [s.length, [...s].length, s[1] === "\ud83d", s.split("").length, Array.from(s).map((c) => c.length), s.slice(1, 2).length];

// @program lone-surrogate-wellformed
const lone = "ab\ud800c";
return [lone.isWellFormed(), "ok".isWellFormed(), lone.toWellFormed().charCodeAt(2), lone.length];

// @program compare-strings
return ["a" < "b", "B" < "a", "10" < "9", "abc" < "abd", "" < "a", "a".localeCompare("b"), "b".localeCompare("a"), "a".localeCompare("a"), "\u{1F600}" > "\uffff"];

// @program concat-and-plus
return ["a".concat("b", 1, null, [2, 3]), "x" + 1 + 2, 1 + 2 + "x", "" + {}, "" + [], "" + [1, [2, 3]], `${null}|${undefined}|${[1, 2]}`];

// @program string-immutability-and-index
const s = "abc";
let err = "none";
try { s[0] = "z"; } catch (e) { err = e.name; }
return [s, s[0], s[5], err, Object.keys(s), s.length];

// @program normalize-and-at
return ["e\u0301".normalize("NFC").length, "\u00e9".normalize("NFD").length, "abc".at(0), "abc".at(-4)];

// @program string-object-wrappers
const w = new String("hi");
return [typeof w, typeof String("hi"), w.length, w == "hi", w === "hi", w instanceof String, Object.keys(w), JSON.stringify(w)];

// @program string-raw
return [String.raw`a\nb${1 + 1}\t`, String.raw({ raw: ["x", "y", "z"] }, 1, 2, 3), String.raw({ raw: "abc" }, "-", "+")];

// @program templates-with-expressions
const items = [{ n: "a", p: 1.5 }, { n: "b", p: 2 }];
return `Items: ${items.map((i) => `${i.n}=$${i.p.toFixed(2)}`).join(", ")} (${items.length} total)${"!".repeat(items.length)}`;

// @program string-iterator-protocol
const it = "hé"[Symbol.iterator]();
return [it.next(), it.next(), it.next(), Object.prototype.toString.call(it)];

// @program to-string-conversions
return [String(123), String(-0), String(null), String(undefined), String(true), String([1, [2, [3]]]), String({}), String(Symbol("s")), String(1e21), String([null, undefined])];

// @program split-join-roundtrip-paths
const path = "/usr/local//bin/";
const parts = path.split("/").filter(Boolean);
return [parts, "/" + parts.join("/"), parts.at(-1), path.split("/").length];

// @program count-occurrences
const count = (hay, needle) => { let n = 0, i = 0; while ((i = hay.indexOf(needle, i)) !== -1) { n++; i += needle.length; } return n; };
return [count("banana", "an"), count("aaaa", "aa"), count("abc", "z")];

// @program palindromes
const isPal = (s) => { const c = [...s.toLowerCase()].filter((ch) => ch >= "a" && ch <= "z").join(""); return c === [...c].reverse().join(""); };
return ["Racecar", "A man, a plan, a canal: Panama", "hello"].map(isPal);

// @program string-comparison-sorting-case-insensitive
const names = ["bob", "Alice", "carol", "Dave"];
return [names.slice().sort(), names.slice().sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))];

// @program starts-ends-with-errors
try { "abc".startsWith(Symbol("a")); } catch (e) { return e.name; }

// @program string-length-of-escapes
return ["\n\t\\".length, "\x41\u0041\u{41}", "\0".length, "line1\
line2"];

// @program string-methods-on-numbers-via-string
const n = 1234.5;
return [String(n).split(".")[0].length, n.toString().includes("."), `${n}`.padStart(10, "*")];

// @program trim-unicode-whitespace
return ["\u00a0\u2003x\ufeff\n".trim(), "\t y \r\n".trim().length];

// @program replace-functions-raw-codepoints-normalize
const r = [];
r.push("a-b-c".replace("-", (m, i, s) => `[${m}${i}${s.length}]`), "a-b-c".replaceAll("-", (m, i) => i), "abc".replaceAll("", (m, i) => i), "xyz".replace("q", () => "!"));
r.push("price: 5".replace("5", "$&.00 ($`|$')"), "aaa".replaceAll("a", "$$"), "abc".replace("b", "$1"));
r.push(String.raw({ raw: ["x", "y", "z"] }, 1, 2, 3), String.fromCodePoint(0x1f600, 65).length);
try { String.fromCodePoint(-1); } catch (e) { r.push(e.name + ": " + e.message); }
r.push("\u1E9B\u0323".normalize("NFKC").length, "café".normalize("NFD").length, "ab\uD800".isWellFormed(), "ab\uD800c".toWellFormed().charCodeAt(2), "ß\uD800".toUpperCase().length, "İ".toLowerCase().length, "abc".toLocaleUpperCase());
try { "a".normalize("bad"); } catch (e) { r.push(e.name + ": " + e.message); }
return r;

// @program string-object-length
const s = new String("abc");
const out = [s.length, Object("ab").length, Object.getOwnPropertyNames(s), Object.keys(s), JSON.stringify(Object.getOwnPropertyDescriptor(s, "length")), "length" in s, s.hasOwnProperty("length")];
try { s.length = 5 } catch (e) { out.push(e.message) }
try { delete s.length } catch (e) { out.push(e.message) }
out.push(String.prototype.length, Object.getOwnPropertyNames(String.prototype).includes("length"));
return out;

// @program locale-compare-orders-accents-and-case-as-icu
const names = ["b","a","C","é","e","Z","ä","Émile","emile","Zoë","zoe","item10","item2","_x","Ångström","angstrom","co-op","coop","résumé","resume","Resume"];
return [names.slice().sort((a, b) => a.localeCompare(b)), "a".localeCompare("B"), "résumé".localeCompare("resume"), "a".localeCompare("a"), "e".localeCompare("é"), "E".localeCompare("e")];

// @program string-object-indices-are-read-only
const s = new String("ab"); let m = null; try { s[0] = "x"; } catch (e) { m = e.name; } s[5] = "y"; let r = null; try { Array.prototype.reverse.call("abc"); } catch (e) { r = e.name; } return [m, s[0], s[5], r, Object.keys(s), Array.prototype.join.call(new String("xyz"), "+")];

// @program split-converts-the-separator-then-the-limit-wraps
// §22.1.3.23: ToUint32(limit), then ToString(separator), then a limit of 0 returns [].
const log = [];
const sep = { toString() { log.push("sep"); return ","; } };
return [
  "a,b,c".split(sep, 0), log, "a,b,c".split(",", 2 ** 32 + 1), "a,b".split(",", -1),
  "abc".split("", 2), "a,b,".split(","), "".split(","), "".split(""), "abc".split(undefined, 0),
  "abc".split(undefined), "a\u00e9\u4e2d".split(""), "x".repeat(5).split("x").length,
  "\u4e2d\u6587".repeat(3).split("\u6587"), "ab".repeat(3).split("").join("|"),
];

// @program locale-compare-orders-latin-letters-punctuation-and-digits-as-icu
// ß, æ, ø, ł, þ, ð and friends, compatibility forms, ASCII punctuation and digits, in words.
const words = ["Zoe", "Łukasz", "Lara", "Øystein", "Olaf", "Ærøskøbing", "Anders", "Weiß", "Weiss", "Weiz",
  "Þór", "Tom", "straße", "strasse", "Strasse", "œuvre", "oeuvre", "Đorđe", "Dora", "ðe", "fjord", "ﬁsh", "fish",
  "Ħal", "hal", "ıspanak", "ijs", "ĳs", "Ŋa", "na", "_id", "-id", "id", "ID", "Id", "#tag", "@user", "$5", "5", "10",
  "e-mail", "email", "e mail", "co-op", "coop", "Côte", "cote", "côté", "coté", "naïve", "naive", "Ångström",
  "angstrom", "Zürich", "zurich", "résumé", "resume", "Résumé", "a.b", "a,b", "a;b", "a_b", "(x)", "[x]", "x"];
const sorted = words.slice().sort((a, b) => a.localeCompare(b));
return [sorted, "a".localeCompare("b"), "b".localeCompare("a"), "a".localeCompare("a"), "ß".localeCompare("ss"), "".localeCompare("a")];
