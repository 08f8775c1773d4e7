// The node side of the JavaScript differential tests: runs programs under codemode's program
// model and prints one JSON line per program.
//
// Run as `node --expose-internals run.mjs` with TZ=UTC (the Rust side does both). Input on stdin,
// one JSON object a line: {"id": <any>, "source": "<program>"}. Output on stdout, one JSON line
// per input line, in order:
//   {"id", "ok": true,  "value": <JSON>, "logs": [..]}
//   {"id", "ok": false, "error": {"kind", "name", "message"}, "logs": [..]}
//   {"id", "harness": "<what went wrong in this runner>"}
//
// The program model (codemode's, issue 12 point 2): the source is the body of an async function
// in strict mode; the result is the value of an explicit `return`, else the value of the last
// top-level statement when it is an expression statement, else undefined; undefined becomes
// null. Blank or comment-only source is a ParseError. Every program runs in a fresh realm
// (`vm.createContext`), so a program that changes a built-in hurts only itself, and sees only
// the language's globals plus `console`.
//
// The data boundary (issue 12 point 6) is `exportValue` below: what JSON.stringify gives
// (toJSON, undefined dropped in objects and null in arrays, -0 as 0, NaN and Infinity as null,
// Map and Set as {}), except that an Error is { name, message, ...own enumerable fields } (as
// the seed's boundary, seed-inventory §7.1), and a cycle, a function inside the data and a
// symbol-keyed property are an InvalidDataValue failure.
//
// Strings in the value and the logs are made well-formed (a lone surrogate becomes U+FFFD), as
// they must be to cross into serde_json on codemode's side.
//
// Logs: each console call is one line, formatted as node's console prints it (`util.format`,
// node's default inspect options but `breakLength: Infinity`), with the seed's `[warn] `,
// `[error] `, `[debug] ` prefixes. `console.dir` inspects its first argument. `console.table`
// is node's table. Errors print without stack frames (`Error.stackTraceLimit = 0` in every
// realm), because codemode has no V8 frames to print.

import vm from 'node:vm';
import util from 'node:util';
import readline from 'node:readline';
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
// node's own copy of acorn (needs --expose-internals): the runner has no npm dependencies.
const acorn = require('internal/deps/acorn/acorn/dist/acorn');

const PREFIX = '"use strict";';
// A rejection nothing observed is a warning under codemode, never the end of the runner.
process.on('unhandledRejection', () => {});
/** Wall-clock bound for the synchronous part of one program, and for its settling. */
const TIMEOUT_MS = 5000;

class InvalidData extends Error {}

function isErrorLike(v) {
  return v !== null && typeof v === 'object' && Object.prototype.toString.call(v) === '[object Error]';
}

/** JSON.stringify's SerializeJSONProperty, into a host-realm JSON value; `undefined` = absent. */
function exportValue(holder, key, stack, path) {
  let v = holder[key];
  if (v !== null && (typeof v === 'object' || typeof v === 'function') && typeof v.toJSON === 'function') {
    v = v.toJSON(key);
  }
  if (v !== null && typeof v === 'object') {
    const tag = Object.prototype.toString.call(v);
    if (tag === '[object Number]') v = Number(v);
    else if (tag === '[object String]') v = String(v);
    else if (tag === '[object Boolean]') v = v.valueOf();
  }
  switch (typeof v) {
    case 'undefined':
      return undefined;
    case 'boolean':
      return v;
    case 'string':
      // serde_json on the Rust side holds no lone surrogates: U+FFFD, as at codemode's boundary.
      return v.toWellFormed();
    case 'number':
      if (!Number.isFinite(v)) return null;
      return Object.is(v, -0) ? 0 : v;
    case 'symbol':
      return undefined;
    case 'function':
      throw new InvalidData(`${path} is a function, which cannot cross to the host`);
    case 'bigint':
      throw new InvalidData(`${path} is a bigint`);
  }
  if (v === null) return null;
  if (stack.includes(v)) throw new InvalidData(`${path} contains a circular value`);
  stack.push(v);
  let out;
  if (Array.isArray(v)) {
    out = [];
    const n = v.length;
    for (let i = 0; i < n; i++) {
      const e = exportValue(v, String(i), stack, `${path}[${i}]`);
      out.push(e === undefined ? null : e);
    }
  } else if (isErrorLike(v)) {
    // An Error crosses as { name, message, ...own enumerable fields } (seed-inventory §7.1).
    out = { name: String(v.name), message: String(v.message) };
    for (const k of Object.keys(v)) {
      if (k === 'name' || k === 'message') continue;
      const e = exportValue(v, k, stack, `${path}.${k}`);
      if (e !== undefined) out[k] = e;
    }
  } else {
    for (const s of Object.getOwnPropertySymbols(v)) {
      if (Object.getOwnPropertyDescriptor(v, s)?.enumerable) {
        throw new InvalidData(`${path} has a symbol-keyed property`);
      }
    }
    out = {};
    for (const k of Object.keys(v)) {
      const e = exportValue(v, k, stack, `${path}.${k}`);
      if (e !== undefined) out[k] = e;
    }
  }
  stack.pop();
  return out;
}

/**
 * A TypeScript program as TypeScript's own `transpileModule` emits it (ES2022, class fields
 * defined as the standard says), from the package in $CODEMODE_TYPESCRIPT (`tests/setup.sh`
 * installs it). A syntax error TypeScript reports is the program's SyntaxError.
 */
let typescript;
function transpileTypeScript(source) {
  if (typescript === undefined) {
    if (!process.env.CODEMODE_TYPESCRIPT) {
      throw new Error('TypeScript is not installed for the oracle: run crates/codemode-js/tests/setup.sh');
    }
    typescript = require(process.env.CODEMODE_TYPESCRIPT);
  }
  const ts = typescript;
  const out = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.None, useDefineForClassFields: true },
    reportDiagnostics: true,
  });
  const syntax = (out.diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error && d.code !== 1108);
  if (syntax.length > 0) throw new SyntaxError(ts.flattenDiagnosticMessageText(syntax[0].messageText, ' '));
  return out.outputText;
}

/** Parses the program; returns the function source text or throws SyntaxError. */
function transform(source) {
  const text = PREFIX + source;
  const ast = acorn.parse(text, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowReturnOutsideFunction: true,
    allowAwaitOutsideFunction: true,
  });
  const body = ast.body.filter((s) => s.directive === undefined || s.start !== 0);
  if (body.length === 0 || source.trim() === '') {
    const e = new SyntaxError('Code cannot be empty.');
    throw e;
  }
  const last = body[body.length - 1];
  if (last.type === 'ExpressionStatement' && last.directive === undefined) {
    const expr = text.slice(last.expression.start, last.expression.end);
    return text.slice(0, last.start) + 'return (' + expr + ');' + text.slice(last.end);
  }
  return text;
}

function newRealm(logs) {
  const ctx = vm.createContext({});
  vm.runInContext('Error.stackTraceLimit = 0;', ctx);
  const push = (s) => {
    logs.push(s.toWellFormed());
  };
  let tableOut = '';
  const tableConsole = new Console({
    stdout: new Writable({
      write(chunk, _enc, cb) {
        tableOut += chunk.toString();
        cb();
      },
    }),
  });
  const one = { breakLength: Infinity };
  const fmt = (prefix) => (...args) => push(prefix + util.formatWithOptions(one, ...args));
  const console = {
    log: fmt(''),
    info: fmt(''),
    warn: fmt('[warn] '),
    error: fmt('[error] '),
    debug: fmt('[debug] '),
    dir: (v, options) => push(util.inspect(v, { customInspect: false, ...one, ...options })),
    table: (...args) => {
      tableOut = '';
      tableConsole.table(...args);
      push(tableOut.replace(/\n$/, ''));
    },
  };
  Object.defineProperty(ctx, 'console', { value: console, writable: true, configurable: true, enumerable: false });
  // The web-platform classes codemode has, node's own as they are (from the host realm: their
  // errors and the arrays they return are the host's, so programs check `name`, not
  // `instanceof`).
  for (const [name, value] of Object.entries({ URL, URLSearchParams })) {
    Object.defineProperty(ctx, name, { value, writable: true, configurable: true, enumerable: false });
  }
  // node's atob/btoa, with their DOMException rethrown as an Error of this realm with the
  // same name and message (as codemode throws it).
  Object.defineProperty(ctx, '__cm_host', { value: { atob, btoa }, configurable: true });
  vm.runInContext(
    `for (const name of ['atob', 'btoa']) {
      const host = __cm_host[name];
      const f = { [name](data) {
        if (arguments.length === 0) throw new TypeError('The "data" argument must be specified');
        try { return host(String(data)); } catch (e) { const err = new Error(e.message); err.name = e.name; throw err; }
      } }[name];
      Object.defineProperty(globalThis, name, { value: f, writable: true, configurable: true, enumerable: false });
    }
    delete globalThis.__cm_host;`,
    ctx,
  );
  // TextEncoder, TextDecoder, structuredClone and crypto.getRandomValues: node's own doing
  // the work, with what they return and throw made this realm's (a Uint8Array of this realm,
  // a clone built from this realm's Date, Map, Error ...; a DOMException as an Error with its
  // name and code), so that `instanceof` and prototypes read as in codemode.
  Object.defineProperty(ctx, '__cm_host', {
    value: { TextEncoder, TextDecoder, structuredClone, crypto: globalThis.crypto, types: util.types },
    configurable: true,
  });
  vm.runInContext(
    `{
    const H = __cm_host;
    delete globalThis.__cm_host;
    const t = H.types;
    const hidden = (o, k, value) => Object.defineProperty(o, k, { value, writable: true, configurable: true, enumerable: false });
    const errorTypes = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
    const rethrow = (e) => {
      if (e === null || typeof e !== 'object') return e;
      const C = Object.hasOwn(errorTypes, e.name) ? errorTypes[e.name] : Error;
      const err = new C(e.message);
      if (C.name !== e.name) hidden(err, 'name', e.name);
      if (e.code !== undefined) hidden(err, 'code', e.code);
      return err;
    };
    const wrap = (f) => function (...args) { try { return f.apply(this, args); } catch (e) { throw rethrow(e); } };
    const bytes = (u) => new Uint8Array(u);
    class TextEncoder {
      #e = new H.TextEncoder();
      get encoding() { return this.#e.encoding; }
      encode(input = undefined) { return bytes(this.#e.encode(input)); }
      encodeInto(src, dest) { const r = wrap(() => this.#e.encodeInto(src, dest))(); return { read: r.read, written: r.written }; }
    }
    class TextDecoder {
      #d;
      constructor(label = undefined, options = undefined) { this.#d = wrap(() => new H.TextDecoder(label, options))(); }
      get encoding() { return this.#d.encoding; }
      get fatal() { return this.#d.fatal; }
      get ignoreBOM() { return this.#d.ignoreBOM; }
      decode(input = undefined, options = undefined) { return wrap(() => this.#d.decode(input, options))(); }
    }
    // A clone made by the host's structuredClone, copied into this realm (identity kept).
    const adopt = (root) => {
      const seen = new Map();
      const buffers = new Map();
      const go = (v) => {
        if (v === null || typeof v !== 'object') return v;
        if (seen.has(v)) return seen.get(v);
        let out;
        if (t.isDate(v)) out = new Date(v.getTime());
        else if (t.isRegExp(v)) out = new RegExp(v.source, v.flags);
        else if (t.isBoxedPrimitive(v)) out = Object(v.valueOf());
        else if (t.isUint8Array(v)) {
          if (!buffers.has(v.buffer)) buffers.set(v.buffer, new Uint8Array(new Uint8Array(v.buffer)).buffer);
          out = new Uint8Array(buffers.get(v.buffer), v.byteOffset, v.length);
        } else if (t.isMap(v)) {
          out = new Map();
          seen.set(v, out);
          for (const [k, x] of v) out.set(go(k), go(x));
          return out;
        } else if (t.isSet(v)) {
          out = new Set();
          seen.set(v, out);
          for (const k of v) out.add(go(k));
          return out;
        } else if (t.isNativeError(v)) {
          const C = Object.hasOwn(errorTypes, v.name) ? errorTypes[v.name] : Error;
          out = Object.create(C.prototype);
          seen.set(v, out);
          for (const k of ['message', 'cause']) if (Object.hasOwn(v, k)) hidden(out, k, go(v[k]));
          return out;
        } else out = Array.isArray(v) ? new Array(v.length) : {};
        seen.set(v, out);
        for (const k of Object.keys(v)) out[k] = go(v[k]);
        return out;
      };
      return go(root);
    };
    hidden(globalThis, 'TextEncoder', TextEncoder);
    hidden(globalThis, 'TextDecoder', TextDecoder);
    hidden(globalThis, 'structuredClone', { structuredClone(...args) { return adopt(wrap(H.structuredClone)(...args)); } }.structuredClone);
    const crypto = {
      getRandomValues(u) { wrap((x) => H.crypto.getRandomValues(x))(...arguments); return u; },
      randomUUID() { return H.crypto.randomUUID(); },
    };
    Object.defineProperty(crypto, Symbol.toStringTag, { value: 'Crypto', configurable: true });
    hidden(globalThis, 'crypto', crypto);
    }`,
    ctx,
  );
  return ctx;
}

function errorOf(e) {
  if (isErrorLike(e)) {
    let name, message;
    try {
      name = String(e.name);
      message = String(e.message);
    } catch {
      name = 'Error';
      message = '';
    }
    return { kind: 'ExecutionFailure', name, message: message === '' ? name : `${name}: ${message}` };
  }
  // A thrown instance of a user class with a message (test262's Test262Error): its class name.
  let name = null;
  try {
    const ctor = e !== null && typeof e === 'object' ? e.constructor : undefined;
    if (typeof ctor === 'function' && typeof ctor.name === 'string' && ctor.name !== 'Object' && typeof e.message === 'string') {
      name = ctor.name;
    }
  } catch {
    name = null;
  }
  let shown;
  try {
    shown = typeof e === 'string' ? e : JSON.stringify(e);
  } catch {
    shown = String(e);
  }
  return { kind: 'ExecutionFailure', name, message: `Uncaught: ${shown}` };
}

async function runOne(source) {
  const logs = [];
  let fnText;
  try {
    fnText = transform(source);
  } catch (e) {
    if (e instanceof SyntaxError) {
      let message = e.message;
      if (e.loc) {
        const column = e.loc.line === 1 ? e.loc.column - PREFIX.length : e.loc.column;
        message = message.replace(/ \(\d+:\d+\)$/, ` (${e.loc.line}:${column + 1})`);
      }
      return { ok: false, error: { kind: 'ParseError', name: 'SyntaxError', message }, logs };
    }
    throw e;
  }
  const ctx = newRealm(logs);
  let fn;
  try {
    fn = vm.runInContext(`(async function () {${fnText}\n})`, ctx);
  } catch (e) {
    if (isErrorLike(e) && e.name === 'SyntaxError') {
      return { ok: false, error: { kind: 'ParseError', name: 'SyntaxError', message: e.message }, logs };
    }
    throw e;
  }
  ctx.__cm_main = fn;
  let timer;
  try {
    const promise = vm.runInContext('__cm_main()', ctx, { timeout: TIMEOUT_MS });
    delete ctx.__cm_main;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('__cm_timeout')), TIMEOUT_MS);
    });
    const value = await Promise.race([promise, timeout]);
    let out;
    try {
      out = exportValue({ '': value }, '', [], 'the result');
    } catch (e) {
      if (e instanceof InvalidData) {
        return { ok: false, error: { kind: 'InvalidDataValue', name: null, message: e.message }, logs };
      }
      return { ok: false, error: errorOf(e), logs };
    }
    return { ok: true, value: out === undefined ? null : out, logs };
  } catch (e) {
    const msg = isErrorLike(e) ? String(e.message) : '';
    if (msg === '__cm_timeout' || msg.startsWith('Script execution timed out')) {
      return { ok: false, error: { kind: 'TimeoutExceeded', name: null, message: 'timeout' }, logs };
    }
    return { ok: false, error: errorOf(e), logs };
  } finally {
    clearTimeout(timer);
  }
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (line.trim() === '') continue;
  let id = null;
  let reply;
  try {
    const req = JSON.parse(line);
    id = req.id;
    let source = req.source;
    if (req.ts) {
      try {
        source = transpileTypeScript(source);
      } catch (e) {
        if (!(e instanceof SyntaxError)) throw e;
        reply = { id, ok: false, error: { kind: 'ParseError', name: 'SyntaxError', message: e.message }, logs: [] };
      }
    }
    reply ??= { id, ...(await runOne(source)) };
  } catch (e) {
    reply = { id, harness: String(e && e.stack ? e.stack : e) };
  }
  let text;
  try {
    text = JSON.stringify(reply);
  } catch (e) {
    text = JSON.stringify({ id, harness: `cannot print the reply: ${e}` });
  }
  process.stdout.write(text + '\n');
}
