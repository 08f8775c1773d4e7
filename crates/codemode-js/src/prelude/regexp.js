// RegExp's spec algorithms that call user code (ECMA-262 §22.2.6-22.2.9): exec through
// lastIndex, test, toString, the flags getter, Symbol.match/matchAll/replace/search/split,
// the RegExp String Iterator, and the String methods that dispatch to them (§22.1.3).
// The search itself is the native regexpMatch (metered, resumable across fuel slices).
// The block keeps these names out of the other prelude files.
{
const rxMatch = I.regexpMatch;
const rxExecFast = I.regexpExecFast;
const rxFlags = I.regexpFlags;
const rxCreate = I.regexpCreate;
const getSubstitution = I.getSubstitution;
const rxReplaceAll = I.regexpReplaceAll;
const rxMatchGlobal = I.regexpMatchGlobal;
const createData = I.createDataProperty;
const RegExpCtor = RegExp;
const RP = RegExp.prototype;
const SP = String.prototype;
const symMatch = Symbol.match;
const symMatchAll = Symbol.matchAll;
const symReplace = Symbol.replace;
const symSearch = Symbol.search;
const symSplit = Symbol.split;
const symSpecies = Symbol.species;
const defineProperty = Object.defineProperty;
const sameValue = Object.is;
const ObjectCtor = Object;
const arrayJoin = AP.join;
const sliceStr = SP.slice;
const indexOfStr = SP.indexOf;
const charCodeAt = SP.charCodeAt;
const prevReplace = SP.replace;
const prevReplaceAll = SP.replaceAll;
const prevSplit = SP.split;
const trunc = Math.trunc;
const mathMax = Math.max;
const mathMin = Math.min;
const objectCreate = Object.create;
const WM = WeakMap;
const wmGet = WeakMap.prototype.get;
const wmSet = WeakMap.prototype.set;
const MAX_LENGTH = 9007199254740991;
// Pieces of a replace's output joined into one string at a time.
const REPLACE_CHUNK = 4096;

function isObject(v) {
  return (typeof v === "object" && v !== null) || typeof v === "function";
}
function toLen(v) {
  const n = +v;
  if (!(n > 0)) return 0;
  if (n >= MAX_LENGTH) return MAX_LENGTH;
  return trunc(n);
}
function toInt(v) {
  const n = +v;
  if (n !== n) return 0;
  return trunc(n);
}
function has(flags, c) {
  return call(indexOfStr, flags, c) !== -1;
}
function named(fn, name) {
  defineProperty(fn, "name", { value: name });
  return fn;
}
function needObject(v, method) {
  if (!isObject(v)) typeError(method + " called on a value that is not an object");
}
// GetMethod (§7.3.10).
function getMethod(v, key) {
  const f = v[key];
  if (f === undefined || f === null) return undefined;
  if (!isCallable(f)) typeError(toStr(typeof f) + " is not a function");
  return f;
}
// AdvanceStringIndex (§22.2.7.3).
function advance(S, index, unicode) {
  if (!unicode || index + 1 >= S.length) return index + 1;
  const c = call(charCodeAt, S, index);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = call(charCodeAt, S, index + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return index + 2;
  }
  return index + 1;
}
// IsRegExp (§7.2.8).
function isRegExp(v) {
  if (!isObject(v)) return false;
  const m = v[symMatch];
  if (m !== undefined) return !!m;
  return rxFlags(v) !== undefined;
}
function speciesConstructor(O, fallback) {
  const C = O.constructor;
  if (C === undefined) return fallback;
  if (!isObject(C)) typeError("object.constructor is not an object");
  const S = C[symSpecies];
  if (S === undefined || S === null) return fallback;
  return S;
}

// RegExpBuiltinExec (§22.2.7.2).
function builtinExec(R, S) {
  const fast = rxExecFast(R, S, false);
  if (fast !== undefined) return fast;
  const flags = rxFlags(R);
  const global = has(flags, "g");
  const sticky = has(flags, "y");
  let lastIndex = toLen(R.lastIndex);
  if (!global && !sticky) lastIndex = 0;
  if (lastIndex > S.length) {
    if (global || sticky) R.lastIndex = 0;
    return null;
  }
  const m = rxMatch(R, S, lastIndex);
  if (m === null) {
    if (global || sticky) R.lastIndex = 0;
    return null;
  }
  if (global || sticky) R.lastIndex = m.index + m[0].length;
  return m;
}
const builtinExecMethod = function exec(string) {
  if (rxFlags(this) === undefined) typeError("RegExp.prototype.exec called on an incompatible receiver");
  return builtinExec(this, toStr(string));
};
// RegExpExec (§22.2.7.1).
function regExpExec(R, S) {
  return regExpExecWith(R, S, R.exec);
}
// RegExpExec with `exec` already read from R.
function regExpExecWith(R, S, exec) {
  if (exec === builtinExecMethod && rxFlags(R) !== undefined) return builtinExec(R, S);
  if (isCallable(exec)) {
    const result = call(exec, R, S);
    if (result !== null && !isObject(result)) typeError("the result of a RegExp exec method must be an object or null");
    return result;
  }
  if (rxFlags(R) === undefined) typeError("RegExp exec called on an incompatible receiver");
  return builtinExec(R, S);
}

def(RP, "exec", builtinExecMethod);
def(RP, "test", function test(S) {
  needObject(this, "RegExp.prototype.test");
  const str = toStr(S);
  const exec = this.exec;
  // The builtin exec: one native call, no match array.
  if (exec === builtinExecMethod && rxFlags(this) !== undefined) {
    const r = rxExecFast(this, str, true);
    return r !== undefined ? r : builtinExec(this, str) !== null;
  }
  return regExpExecWith(this, str, exec) !== null;
});
def(RP, "toString", function toString() {
  needObject(this, "RegExp.prototype.toString");
  return "/" + toStr(this.source) + "/" + toStr(this.flags);
});
defineProperty(RP, "flags", {
  get: named(function flags() {
    const R = this;
    needObject(R, "RegExp.prototype.flags getter");
    let r = "";
    if (R.hasIndices) r += "d";
    if (R.global) r += "g";
    if (R.ignoreCase) r += "i";
    if (R.multiline) r += "m";
    if (R.dotAll) r += "s";
    if (R.unicode) r += "u";
    if (R.unicodeSets) r += "v";
    if (R.sticky) r += "y";
    return r;
  }, "get flags"),
  configurable: true,
});
defineProperty(RegExpCtor, symSpecies, {
  get: named(function species() { return this; }, "get [Symbol.species]"),
  configurable: true,
});

def(RP, symMatch, named(function match(string) {
  const rx = this;
  needObject(rx, "RegExp.prototype[Symbol.match]");
  const S = toStr(string);
  const flags = toStr(rx.flags);
  if (!has(flags, "g")) return regExpExec(rx, S);
  const fullUnicode = has(flags, "u") || has(flags, "v");
  rx.lastIndex = 0;
  // The builtin exec: every search in one native call, no match arrays.
  if (rx.exec === builtinExecMethod && rxFlags(rx) !== undefined) return rxMatchGlobal(rx, S, fullUnicode, []);
  const A = [];
  let n = 0;
  for (;;) {
    const result = regExpExec(rx, S);
    if (result === null) return n === 0 ? null : A;
    const matchStr = toStr(result[0]);
    createData(A, n++, matchStr);
    if (matchStr === "") rx.lastIndex = advance(S, toLen(rx.lastIndex), fullUnicode);
  }
}, "[Symbol.match]"));

// %RegExpStringIteratorPrototype% (§22.2.9).
const iterStates = new WM();
const RSIP = objectCreate(I.iteratorPrototype);
def(RSIP, "next", function next() {
  const st = isObject(this) ? call(wmGet, iterStates, this) : undefined;
  if (st === undefined) typeError("%RegExpStringIterator%.next requires that 'this' be a RegExp String Iterator");
  if (st.done) return { value: undefined, done: true };
  const match = regExpExec(st.R, st.S);
  if (match === null) {
    st.done = true;
    return { value: undefined, done: true };
  }
  if (!st.global) {
    st.done = true;
    return { value: match, done: false };
  }
  if (toStr(match[0]) === "") st.R.lastIndex = advance(st.S, toLen(st.R.lastIndex), st.unicode);
  return { value: match, done: false };
});
defineProperty(RSIP, Symbol.toStringTag, { value: "RegExp String Iterator", configurable: true });

def(RP, symMatchAll, named(function matchAll(string) {
  const R = this;
  needObject(R, "RegExp.prototype[Symbol.matchAll]");
  const S = toStr(string);
  const C = speciesConstructor(R, RegExpCtor);
  const flags = toStr(R.flags);
  const matcher = new C(R, flags);
  matcher.lastIndex = toLen(R.lastIndex);
  const global = has(flags, "g");
  const unicode = has(flags, "u") || has(flags, "v");
  const it = objectCreate(RSIP);
  call(wmSet, iterStates, it, {
    R: matcher,
    S: S,
    global: global,
    unicode: unicode,
    done: false,
  });
  return it;
}, "[Symbol.matchAll]"));

def(RP, symReplace, named(function replace(string, replaceValue) {
  const rx = this;
  needObject(rx, "RegExp.prototype[Symbol.replace]");
  const S = toStr(string);
  const lengthS = S.length;
  const functionalReplace = isCallable(replaceValue);
  if (!functionalReplace) replaceValue = toStr(replaceValue);
  const flags = toStr(rx.flags);
  const global = has(flags, "g");
  let fullUnicode = false;
  if (global) {
    fullUnicode = has(flags, "u") || has(flags, "v");
    rx.lastIndex = 0;
  }
  // With a string replacement and the builtin exec, no user code runs between the searches,
  // so each match is replaced as it is found instead of being kept until the last one.
  const fused = !functionalReplace && rx.exec === builtinExecMethod && rxFlags(rx) !== undefined;
  // Global too: every search and substitution in one native call, no match arrays.
  if (fused && global) return rxReplaceAll(rx, S, replaceValue, fullUnicode);
  const results = [];
  let nres = 0;
  if (!fused) {
    for (;;) {
      const result = regExpExec(rx, S);
      if (result === null) break;
      createData(results, nres++, result);
      if (!global) break;
      if (toStr(result[0]) === "") rx.lastIndex = advance(S, toLen(rx.lastIndex), fullUnicode);
    }
  }
  let parts = [];
  let np = 0;
  const chunks = [];
  let nchunks = 0;
  let nextSourcePosition = 0;
  for (let i = 0; ; i++) {
    let result;
    if (fused) {
      if (i > 0 && !global) break;
      result = builtinExec(rx, S);
      if (result === null) break;
      if (global && result[0] === "") rx.lastIndex = advance(S, toLen(rx.lastIndex), fullUnicode);
    } else {
      if (i >= nres) break;
      result = results[i];
    }
    const nCaptures = mathMax(toLen(result.length) - 1, 0);
    const matched = toStr(result[0]);
    const matchLength = matched.length;
    const position = mathMax(mathMin(toInt(result.index), lengthS), 0);
    const captures = [];
    for (let n = 1; n <= nCaptures; n++) {
      let capN = result[n];
      if (capN !== undefined) capN = toStr(capN);
      createData(captures, n - 1, capN);
    }
    let namedCaptures = result.groups;
    let replacement;
    if (functionalReplace) {
      const args = [matched];
      for (let n = 0; n < captures.length; n++) createData(args, args.length, captures[n]);
      createData(args, args.length, position);
      createData(args, args.length, S);
      if (namedCaptures !== undefined) createData(args, args.length, namedCaptures);
      replacement = toStr(call(replaceValue, undefined, ...args));
    } else {
      if (namedCaptures !== undefined) {
        if (namedCaptures === null) typeError("Cannot convert undefined or null to object");
        namedCaptures = ObjectCtor(namedCaptures);
      }
      replacement = getSubstitution(matched, S, position, captures, namedCaptures, replaceValue);
    }
    if (position >= nextSourcePosition) {
      createData(parts, np++, call(sliceStr, S, nextSourcePosition, position));
      createData(parts, np++, replacement);
      nextSourcePosition = position + matchLength;
      // Joined in chunks, so a million matches do not keep two million pieces alive.
      if (np >= REPLACE_CHUNK) {
        createData(chunks, nchunks++, call(arrayJoin, parts, ""));
        parts = [];
        np = 0;
      }
    }
  }
  if (nextSourcePosition < lengthS) createData(parts, np++, call(sliceStr, S, nextSourcePosition));
  if (nchunks === 0) return call(arrayJoin, parts, "");
  createData(chunks, nchunks++, call(arrayJoin, parts, ""));
  return call(arrayJoin, chunks, "");
}, "[Symbol.replace]"));

def(RP, symSearch, named(function search(string) {
  const rx = this;
  needObject(rx, "RegExp.prototype[Symbol.search]");
  const S = toStr(string);
  const previousLastIndex = rx.lastIndex;
  if (!sameValue(previousLastIndex, 0)) rx.lastIndex = 0;
  const result = regExpExec(rx, S);
  const currentLastIndex = rx.lastIndex;
  if (!sameValue(currentLastIndex, previousLastIndex)) rx.lastIndex = previousLastIndex;
  if (result === null) return -1;
  return result.index;
}, "[Symbol.search]"));

def(RP, symSplit, named(function split(string, limit) {
  const rx = this;
  needObject(rx, "RegExp.prototype[Symbol.split]");
  const S = toStr(string);
  const C = speciesConstructor(rx, RegExpCtor);
  const flags = toStr(rx.flags);
  const unicodeMatching = has(flags, "u") || has(flags, "v");
  const newFlags = has(flags, "y") ? flags : flags + "y";
  const splitter = new C(rx, newFlags);
  const A = [];
  let lengthA = 0;
  const lim = limit === undefined ? 4294967295 : limit >>> 0;
  if (lim === 0) return A;
  const size = S.length;
  if (size === 0) {
    if (regExpExec(splitter, S) !== null) return A;
    A[0] = S;
    return A;
  }
  let p = 0;
  let q = p;
  // A splitter no user code can observe searches forward instead of trying each position.
  const fast = C === RegExpCtor && splitter.exec === builtinExecMethod && rxFlags(splitter) !== undefined;
  const searcher = fast ? rxCreate(splitter, call(prevReplaceAll, newFlags, "y", ""), true) : undefined;
  while (q < size) {
    let z;
    let e;
    if (fast) {
      z = rxMatch(searcher, S, q);
      if (z === null || z.index >= size) break;
      q = z.index;
      e = mathMin(q + z[0].length, size);
    } else {
      splitter.lastIndex = q;
      z = regExpExec(splitter, S);
      if (z === null) {
        q = advance(S, q, unicodeMatching);
        continue;
      }
      e = mathMin(toLen(splitter.lastIndex), size);
    }
    if (e === p) {
      q = advance(S, q, unicodeMatching);
      continue;
    }
    createData(A, lengthA++, call(sliceStr, S, p, q));
    if (lengthA === lim) return A;
    p = e;
    const numberOfCaptures = mathMax(toLen(z.length) - 1, 0);
    for (let i = 1; i <= numberOfCaptures; i++) {
      createData(A, lengthA++, z[i]);
      if (lengthA === lim) return A;
    }
    q = p;
  }
  createData(A, lengthA, call(sliceStr, S, p, size));
  return A;
}, "[Symbol.split]"));

// String.prototype methods over the protocol (§22.1.3).
function coercible(v, method) {
  if (v === undefined || v === null) typeError("String.prototype." + method + " called on null or undefined");
}
def(SP, "match", function match(regexp) {
  coercible(this, "match");
  if (isObject(regexp)) {
    const matcher = getMethod(regexp, symMatch);
    if (matcher !== undefined) return call(matcher, regexp, this);
  }
  const S = toStr(this);
  const rx = rxCreate(regexp, undefined);
  return call(rx[symMatch], rx, S);
});
def(SP, "matchAll", function matchAll(regexp) {
  coercible(this, "matchAll");
  if (isObject(regexp)) {
    if (isRegExp(regexp)) {
      const flags = regexp.flags;
      if (flags === undefined || flags === null) typeError("String.prototype.matchAll called with a RegExp whose flags are undefined");
      if (!has(toStr(flags), "g")) typeError("String.prototype.matchAll called with a non-global RegExp argument");
    }
    const matcher = getMethod(regexp, symMatchAll);
    if (matcher !== undefined) return call(matcher, regexp, this);
  }
  const S = toStr(this);
  const rx = rxCreate(regexp, "g");
  return call(rx[symMatchAll], rx, S);
});
def(SP, "search", function search(regexp) {
  coercible(this, "search");
  if (isObject(regexp)) {
    const searcher = getMethod(regexp, symSearch);
    if (searcher !== undefined) return call(searcher, regexp, this);
  }
  const S = toStr(this);
  const rx = rxCreate(regexp, undefined);
  return call(rx[symSearch], rx, S);
});
def(SP, "replace", function replace(searchValue, replaceValue) {
  coercible(this, "replace");
  if (isObject(searchValue)) {
    const replacer = getMethod(searchValue, symReplace);
    if (replacer !== undefined) return call(replacer, searchValue, this, replaceValue);
  }
  return call(prevReplace, this, searchValue, replaceValue);
});
def(SP, "replaceAll", function replaceAll(searchValue, replaceValue) {
  coercible(this, "replaceAll");
  if (isObject(searchValue)) {
    if (isRegExp(searchValue)) {
      const flags = searchValue.flags;
      if (flags === undefined || flags === null) typeError("String.prototype.replaceAll called with a RegExp whose flags are undefined");
      if (!has(toStr(flags), "g")) typeError("replaceAll must be called with a global RegExp");
    }
    const replacer = getMethod(searchValue, symReplace);
    if (replacer !== undefined) return call(replacer, searchValue, this, replaceValue);
  }
  return call(prevReplaceAll, this, searchValue, replaceValue);
});
def(SP, "split", function split(separator, limit) {
  coercible(this, "split");
  if (isObject(separator)) {
    const splitter = getMethod(separator, symSplit);
    if (splitter !== undefined) return call(splitter, separator, this, limit);
  }
  return call(prevSplit, this, separator, limit);
});
}
