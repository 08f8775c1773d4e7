// codemode for Node: the JavaScript half of the package (the native half is codemode.node,
// built from src/ by `npm run build`).
//
// This file only converts at the edge: it flattens the tools record into dotted paths, wraps
// every handler and hook in a function of one string that never throws (see src/call.rs for
// the strings), and parses the library's wire JSON. Every limit, status and diagnostic is the
// Rust library's.
"use strict";

const native = require("./codemode.node");

const NAMESPACE = Symbol.for("codemode.Namespace");

/**
 * The one channel for a message the program sees: throw it from a tool handler (or a
 * `toolBefore` hook) with a message written for the model. Any other thrown value reaches the
 * program only as "Tool 'x' failed." and is passed to the `onHandlerError` option.
 */
class ToolError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "ToolError";
  }
}

/**
 * A paused execution's snapshot cannot be resumed, and nothing of the program ran: the message
 * says why (bytes that are no snapshot, cut short or altered; another language; other tools;
 * a missing or wrong signature; a reply missing or given for another id; resumed already
 * through the `store`).
 */
class SnapshotError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = "SnapshotError";
  }
}

/**
 * Keeps snapshots single-use in this process (the library's `MemoryStore`): a snapshot resumed
 * once through it is refused the second time with a {@link SnapshotError}.
 */
class MemoryStore {
  #store = new native.MemoryStore();

  /** Claim `snapshotId` for one resume; throws a SnapshotError when it was claimed before. */
  claim(snapshotId) {
    let refusal;
    try {
      refusal = this.#store.claim(String(snapshotId));
    } catch (e) {
      rethrow(e);
    }
    if (refusal !== null && refusal !== undefined) {
      throw new SnapshotError(`The snapshot cannot be resumed: ${refusal}`);
    }
  }
}

/** A namespace with a description (search matches it for every tool below): `Namespace(description, tools)`. */
function Namespace(description, tools) {
  if (typeof description !== "string") {
    throw new TypeError("Namespace(description, tools): description must be a string");
  }
  return { [NAMESPACE]: true, description, tools: tools ?? {} };
}

/** `t` itself: a typed way to write a tool (`Tool({ description, input, output?, execute })`). */
function Tool(t) {
  return t;
}

const MAX_DEPTH = native.MAX_DATA_DEPTH;

function typeName(v) {
  if (v === null) return "null";
  if (typeof v !== "object") return typeof v;
  const ctor = Object.getPrototypeOf(v)?.constructor?.name;
  return ctor ? `a ${ctor}` : "an object";
}

// `value` as JSON data, or a thrown string saying what is not JSON data and where (the
// counterpart of bindings/python/src/convert.rs). Objects with `toJSON` (Dates) convert as
// JSON.stringify converts them; `undefined` object properties are left out and `undefined`
// array items become null, as JSON.stringify does.
function toData(value, path, depth) {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (!Number.isFinite(value)) {
        throw `${path}: ${value} is not a JSON number; return a finite number or null`;
      }
      return value;
    case "undefined":
      return null;
    case "bigint":
      throw `${path}: the BigInt ${value}n is not JSON data; return it as a string or a Number`;
    case "function":
      throw `${path}: a function is not JSON data; return objects, arrays, strings, numbers, booleans or null`;
    case "symbol":
      throw `${path}: a symbol is not JSON data; return a string instead`;
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) {
    throw `${path}: nested deeper than ${MAX_DEPTH} levels (or a value that contains itself); return flatter data`;
  }
  if (typeof value.toJSON === "function") {
    return toData(value.toJSON(), path, depth);
  }
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = toData(value[i], `${path}[${i}]`, depth + 1);
    return out;
  }
  if (typeof value.then === "function") {
    throw `${path}: a Promise is not JSON data; await it before returning`;
  }
  if (value instanceof Map || value instanceof Set || ArrayBuffer.isView(value)) {
    throw `${path}: ${typeName(value)} is not JSON data; return a plain object or an array`;
  }
  const out = {};
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    out[key] = toData(v, `${path}.${key}`, depth + 1);
  }
  return out;
}

function defaultOnHandlerError(context, error) {
  console.error(`codemode: ${context} threw:`, error);
}

// Hand a handler's or hook's thrown value to `onHandlerError`; a logger that throws is ignored.
function report(onHandlerError, context, error) {
  try {
    onHandlerError(context, error);
  } catch {
    // A broken logger: nothing else to do.
  }
}

function isAsync(fn) {
  return typeof fn === "function" && fn.constructor?.name === "AsyncFunction";
}

// A user function as a Callback of src/call.rs for a tool (`spread` false: one input) or an
// extension function (`spread` true: the argument array). A synchronous handler's answer is
// returned directly (no promise for the native side to settle); a thenable is awaited.
function wrapHandler(fn, context, spread, onHandlerError) {
  const fail = (e) => {
    if (e instanceof ToolError) return "e" + e.message;
    report(onHandlerError, context, e);
    return "f";
  };
  const done = (value) => {
    try {
      return "v" + JSON.stringify(toData(value, "$", 0));
    } catch (e) {
      return "i" + (typeof e === "string" ? e : `$: ${e?.message ?? e}`);
    }
  };
  return (arg) => {
    let value;
    try {
      const input = JSON.parse(arg);
      value = spread ? fn(...input) : fn(input);
      if (value !== null && (typeof value === "object" || typeof value === "function") && typeof value.then === "function") {
        return Promise.resolve(value).then(done, fail);
      }
    } catch (e) {
      return fail(e);
    }
    return done(value);
  };
}

function wrapBefore(fn, context, onHandlerError) {
  return async (arg) => {
    try {
      const [name, input] = JSON.parse(arg);
      const r = await fn(name, input);
      if (r === undefined || r === null || r === true) return "";
      if (typeof r === "string") return "d" + r;
      return "d" + "The host refused this call.";
    } catch (e) {
      if (e instanceof ToolError) return "d" + e.message;
      report(onHandlerError, context, e);
      return "x";
    }
  };
}

// The pauseBefore hook: asked at admission, it answers at once ("p": pause, "": run); one
// that throws or returns a promise pauses the call (and is reported).
function wrapPause(fn, context, onHandlerError) {
  if (isAsync(fn)) {
    throw new TypeError("hooks.pauseBefore must answer at once: give a plain function returning true (pause) or false, not an async function");
  }
  return (arg) => {
    try {
      const [name, input] = JSON.parse(arg);
      const r = fn(name, input);
      if (r !== null && typeof r === "object" && typeof r.then === "function") {
        report(onHandlerError, context, new TypeError("pauseBefore returned a promise; it must answer at once with true or false (the call pauses)"));
        return "p";
      }
      return r ? "p" : "";
    } catch (e) {
      report(onHandlerError, context, e);
      return "p";
    }
  };
}

function wrapAfter(fn, context, onHandlerError) {
  return async (arg) => {
    try {
      const [name, input, outcome] = JSON.parse(arg);
      await fn(name, input, outcome);
    } catch (e) {
      report(onHandlerError, context, e);
    }
    return "";
  };
}

function isPlainRecord(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

// The tools record as [{ path, description, input, output, handler }] and namespace
// descriptions as [{ path, description }]; dotted keys stay dotted (the library splits them
// and reports empty segments).
function flatten(tools, prefix, out, namespaces, onHandlerError) {
  if (!isPlainRecord(tools)) {
    throw new TypeError(`tools${prefix ? ` '${prefix.slice(0, -1)}'` : ""}: expected a record of tools, got ${typeName(tools)}`);
  }
  for (const key of Object.keys(tools)) {
    const path = prefix + key;
    const v = tools[key];
    if (isPlainRecord(v) && v[NAMESPACE]) {
      namespaces.push({ path, description: v.description });
      flatten(v.tools, path + ".", out, namespaces, onHandlerError);
    } else if (isPlainRecord(v) && typeof v.execute === "function") {
      if (typeof v.description !== "string") {
        throw new TypeError(`tool '${path}': description must be a string`);
      }
      if (!isPlainRecord(v.input)) {
        throw new TypeError(`tool '${path}': input must be a JSON Schema object`);
      }
      if (v.output !== undefined && !isPlainRecord(v.output)) {
        throw new TypeError(`tool '${path}': output must be a JSON Schema object`);
      }
      out.push({
        path,
        description: v.description,
        input: JSON.stringify(v.input),
        output: v.output === undefined ? undefined : JSON.stringify(v.output),
        handler: wrapHandler(v.execute, `tool '${path}'`, false, onHandlerError),
      });
    } else if (isPlainRecord(v)) {
      flatten(v, path + ".", out, namespaces, onHandlerError);
    } else {
      throw new TypeError(
        `tool '${path}': expected { description, input, output?, execute } or a record of tools, got ${typeName(v)}`,
      );
    }
  }
}

// The seed's hook names (`"tool.before"({ name, input })`, `"tool.after"(call, outcome)`,
// `"extension.before"({ extension, name, args })`, `"extension.after"(call, outcome)`) as the
// positional hooks above; giving both spellings of one hook is a TypeError.
function seedHooks(h, extensions) {
  if (!isPlainRecord(h)) throw new TypeError(`hooks: expected a record of functions, got ${typeName(h)}`);
  const owner = new Map();
  for (const ext of Array.isArray(extensions) ? extensions : []) {
    if (isPlainRecord(ext) && isPlainRecord(ext.globals)) for (const g of Object.keys(ext.globals)) owner.set(g, ext.name);
  }
  const extensionOf = (name) => owner.get(String(name).split(".")[0]);
  const seed = {
    toolBefore: ["tool.before", (f) => (name, input) => f({ name, input })],
    toolAfter: ["tool.after", (f) => (name, input, outcome) => f({ name, input }, outcome)],
    extensionBefore: ["extension.before", (f) => (name, args) => f({ extension: extensionOf(name), name, args })],
    extensionAfter: ["extension.after", (f) => (name, args, outcome) => f({ extension: extensionOf(name), name, args }, outcome)],
  };
  const out = {};
  if (h.pauseBefore !== undefined && typeof h.pauseBefore !== "function") {
    throw new TypeError(`hooks.pauseBefore must be a function, got ${typeName(h.pauseBefore)}`);
  }
  out.pauseBefore = h.pauseBefore;
  for (const [ours, [theirs, adapt]] of Object.entries(seed)) {
    const a = h[ours];
    const b = h[theirs];
    if (a !== undefined && b !== undefined) throw new TypeError(`hooks: give either ${ours} or "${theirs}", not both`);
    for (const [k, f] of [[ours, a], [theirs, b]]) {
      if (f !== undefined && typeof f !== "function") throw new TypeError(`hooks.${k} must be a function, got ${typeName(f)}`);
    }
    out[ours] = a ?? (b && adapt(b));
  }
  return out;
}

// The seed's `extensions: [{ name, globals }]`: each global is one native extension (a
// function, or a record of functions flattened to dotted paths).
function extensionsOf(extensions, onHandlerError) {
  const out = [];
  for (const ext of extensions ?? []) {
    if (!isPlainRecord(ext) || typeof ext.name !== "string" || !isPlainRecord(ext.globals)) {
      throw new TypeError("extensions: expected [{ name, globals: { [name]: function | record of functions } }]");
    }
    for (const g of Object.keys(ext.globals)) {
      const functions = [];
      const walk = (v, path) => {
        const full = path ? `${g}.${path}` : g;
        if (typeof v === "function") {
          functions.push({
            path,
            handler: wrapHandler(v, `extension function '${full}'`, true, onHandlerError),
            asynchronous: isAsync(v) || v[ASYNC] === true,
          });
        } else if (isPlainRecord(v)) {
          for (const k of Object.keys(v)) walk(v[k], path ? `${path}.${k}` : k);
        } else {
          throw new TypeError(`Extension "${ext.name}" global "${full}" must be a function.`);
        }
      };
      walk(ext.globals[g], "");
      out.push({ name: g, functions });
    }
  }
  return out;
}

const ASYNC = Symbol.for("codemode.Extension.async");

/** Mark a plain function that returns a Promise as asynchronous (JS programs get a promise). */
function asyncExtension(fn) {
  fn[ASYNC] = true;
  return fn;
}

function rethrow(e) {
  if (e && e.code === "InvalidArg") throw new RangeError(e.message);
  if (e && e.code === "GenericFailure") throw new TypeError(e.message);
  throw e;
}

// The Result of a native Outcome: the wire JSON parsed, with a paused one's snapshot and
// snapshotId as non-enumerable properties (JSON.stringify(result) stays the wire shape); a
// refusal is thrown as a SnapshotError.
function resultOf(outcome) {
  if (outcome.refusal !== undefined && outcome.refusal !== null) throw new SnapshotError(outcome.refusal);
  const result = JSON.parse(outcome.json);
  if (outcome.snapshot) {
    Object.defineProperties(result, {
      snapshot: { value: outcome.snapshot },
      snapshotId: { value: outcome.snapshotId },
    });
  }
  return result;
}

function abortError(signal) {
  if (signal.reason !== undefined) return signal.reason;
  const e = new Error("This operation was aborted");
  e.name = "AbortError";
  return e;
}

/** A Code Mode runtime (see index.d.ts for the options). */
class CodeMode {
  #rt;

  constructor(options = {}) {
    const onHandlerError = options.onHandlerError ?? defaultOnHandlerError;
    const tools = [];
    const namespaces = [];
    flatten(options.tools ?? {}, "", tools, namespaces, onHandlerError);
    const limits = {};
    for (const k of ["timeoutMs", "maxToolCalls", "maxOutputBytes", "maxMemoryBytes"]) {
      const v = options.limits?.[k];
      if (v === undefined) continue;
      if (typeof v !== "number") throw new RangeError(`limits.${k} must be a safe integer, got ${typeof v}`);
      limits[k] = v;
    }
    let hooks;
    if (options.hooks) {
      const h = seedHooks(options.hooks, options.extensions);
      hooks = {
        pauseBefore: h.pauseBefore && wrapPause(h.pauseBefore, "hook pauseBefore", onHandlerError),
        toolBefore: h.toolBefore && wrapBefore(h.toolBefore, "hook toolBefore", onHandlerError),
        toolAfter: h.toolAfter && wrapAfter(h.toolAfter, "hook toolAfter", onHandlerError),
        extensionBefore: h.extensionBefore && wrapBefore(h.extensionBefore, "hook extensionBefore", onHandlerError),
        extensionAfter: h.extensionAfter && wrapAfter(h.extensionAfter, "hook extensionAfter", onHandlerError),
      };
    }
    const extensions = extensionsOf(options.extensions, onHandlerError);
    const pauseOn = options.pauseOn ?? [];
    if (!Array.isArray(pauseOn) || pauseOn.some((p) => typeof p !== "string")) {
      throw new TypeError("pauseOn: expected an array of tool paths, e.g. [\"payments.refund\"]");
    }
    const key = options.snapshotKey;
    let snapshotKey;
    if (typeof key === "string") snapshotKey = Buffer.from(key, "utf8");
    else if (key instanceof Uint8Array) snapshotKey = Buffer.from(key);
    else if (key !== undefined) throw new TypeError(`snapshotKey: expected a Buffer, Uint8Array or string, got ${typeName(key)}`);
    try {
      this.#rt = new native.Runtime(options.language ?? "javascript", limits, tools, namespaces, hooks, extensions, { pauseOn, snapshotKey });
    } catch (e) {
      rethrow(e);
    }
  }

  /** `"lua"` or `"javascript"`. */
  get language() {
    return this.#rt.language;
  }

  /**
   * Run `code`. Resolves with the Result (never rejects for program, tool or limit failures).
   * With `signal`, aborting interrupts the execution: the calls in flight end `interrupted`,
   * their `after` hooks run, then the promise rejects with `signal.reason` whose `result`
   * property (when it is an object) is the library's Result.
   */
  async execute(code, options = {}) {
    if (typeof code !== "string") throw new TypeError("execute(code): code must be a string");
    return this.#run((cancel) => this.#rt.execute(code, cancel), options.signal);
  }

  // `start(cancel)`'s native Outcome as a Result; with `signal`, aborting cancels it and the
  // promise rejects with the reason (its `result` set to the Result).
  async #run(start, signal) {
    if (!signal) return resultOf(await start(undefined));
    const cancel = new native.Cancel();
    const onAbort = () => cancel.cancel();
    if (signal.aborted) cancel.cancel();
    else signal.addEventListener("abort", onAbort, { once: true });
    let outcome;
    try {
      outcome = await start(cancel);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
    const result = resultOf(outcome);
    if (signal.aborted) {
      const reason = abortError(signal);
      if (reason !== null && typeof reason === "object" && !Object.isFrozen(reason)) {
        try {
          reason.result = result;
        } catch {
          // A reason that refuses new properties: rejected without the result.
        }
      }
      throw reason;
    }
    return result;
  }

  /**
   * Continue a paused execution exactly where it stopped (in this runtime or another with the
   * same tools, in this process or another) with one reply per pending call id, and resolve
   * with its Result (possibly paused again). Rejects with a SnapshotError when the snapshot
   * cannot be resumed, a TypeError for arguments that are not replies. `options.store` makes
   * it single-use; `options.signal` aborts it as it aborts `execute`.
   */
  async resume(snapshot, replies, options = {}) {
    let bytes;
    if (snapshot instanceof Uint8Array) bytes = Buffer.isBuffer(snapshot) ? snapshot : Buffer.from(snapshot);
    else if (isPlainRecord(snapshot) && "ok" in snapshot) {
      if (!(snapshot.snapshot instanceof Uint8Array)) {
        throw new TypeError("resume: this Result is not paused; give a paused Result or its snapshot bytes");
      }
      bytes = snapshot.snapshot;
    } else {
      throw new TypeError(`resume: snapshot must be a Buffer, a Uint8Array or a paused Result, got ${typeName(snapshot)}`);
    }
    const entries = replies instanceof Map ? [...replies] : isPlainRecord(replies) ? Object.entries(replies) : null;
    if (entries === null) {
      throw new TypeError(`resume: replies must be an object (or a Map) of pending call id to reply, e.g. { 1: "run" }, got ${typeName(replies)}`);
    }
    const pairs = entries.map(([k, v]) => {
      const id = typeof k === "number" ? k : /^(0|[1-9][0-9]*)$/.test(k) ? Number(k) : NaN;
      if (!Number.isSafeInteger(id)) throw new TypeError(`resume: the reply key ${JSON.stringify(k)} is not a pending call id (result.pending[i].id)`);
      return [id, v === undefined ? null : v];
    });
    if (options.store !== undefined) options.store.claim(native.snapshotId(bytes));
    const json = JSON.stringify(pairs);
    return this.#run((cancel) => {
      try {
        return this.#rt.resume(bytes, json, cancel);
      } catch (e) {
        rethrow(e);
      }
    }, options.signal);
  }

  /** Every tool as `{ path, description, signature }`, sorted by path (the seed's `runtime.catalog`). */
  get catalog() {
    return this.catalogFor();
  }

  /** The catalog with signatures in `language` (default: the runtime's). */
  catalogFor(language) {
    try {
      return JSON.parse(this.#rt.catalog(language));
    } catch (e) {
      rethrow(e);
    }
  }

  /** The built-in `search` as a program calls it, without hooks or counting. */
  search(query, options = {}) {
    const input = {};
    if (query !== undefined && query !== null) input.query = query;
    for (const k of ["namespace", "limit", "offset"]) {
      if (options[k] !== undefined) input[k] = options[k];
    }
    try {
      return JSON.parse(this.#rt.search(JSON.stringify(input)));
    } catch (e) {
      rethrow(e);
    }
  }

  /** The model-facing instructions of the execute tool, with a catalog of about `budget` o200k tokens. */
  instructions(options = {}) {
    const budget = options.budget ?? native.DEFAULT_INSTRUCTIONS_BUDGET;
    if (!Number.isSafeInteger(budget) || budget < 0) throw new RangeError("instructions: budget must be a non-negative safe integer");
    return this.#rt.instructions(budget);
  }
}

const Extension = {
  /** `{ name, globals }` as given (the seed's `Extension.make`). */
  make(ext) {
    return ext;
  },
  async: asyncExtension,
};

module.exports = {
  CodeMode,
  Namespace,
  Tool,
  ToolError,
  SnapshotError,
  MemoryStore,
  Extension,
  DEFAULT_INSTRUCTIONS_BUDGET: native.DEFAULT_INSTRUCTIONS_BUDGET,
  MAX_DATA_DEPTH: native.MAX_DATA_DEPTH,
};
