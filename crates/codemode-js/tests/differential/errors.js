// Errors: thrown and caught, finally, custom types, cause, AggregateError, uncaught failures.

// @program try-catch-finally-order
const log = [];
function f() {
  try { log.push("try"); throw new Error("x"); }
  catch (e) { log.push("catch " + e.message); return "from catch"; }
  finally { log.push("finally"); }
}
return [f(), log];

// @program finally-overrides-return
function f() { try { return "try"; } finally { return "finally"; } }
function g() { try { throw new Error("lost"); } finally { return "swallowed"; } }
return [f(), g()];

// @program nested-try-rethrow
const log = [];
try {
  try { throw new TypeError("inner"); }
  catch (e) { log.push("inner caught " + e.name); throw new RangeError("outer", { cause: e }); }
  finally { log.push("inner finally"); }
} catch (e) {
  log.push(`${e.name}: ${e.message} (cause ${e.cause.name}: ${e.cause.message})`);
}
return log;

// @program optional-catch-binding
let ok = false;
try { JSON.parse("{"); } catch { ok = true; }
return ok;

// @program throw-non-errors
const out = [];
for (const v of [42, "str", null, undefined, { code: 1 }, [1, 2]]) {
  try { throw v; } catch (e) { out.push(e === v ? typeof e : "different"); }
}
return out;

// @program error-types-and-props
const errs = [new Error("e"), new TypeError("t"), new RangeError("r"), new SyntaxError("s"), new ReferenceError("f"), new EvalError("v"), new URIError("u")];
return errs.map((e) => [e.name, e.message, e instanceof Error, String(e), Object.keys(e).length]);

// @program error-cause
const e = new Error("top", { cause: { code: "E42" } });
const noCause = new Error("plain", {});
return [e.cause.code, "cause" in noCause, Object.getOwnPropertyDescriptor(e, "cause").enumerable, Object.keys(e)];

// @program aggregate-error
const agg = new AggregateError([new Error("a"), new TypeError("b")], "several failed");
return [agg.name, agg.message, agg.errors.length, agg.errors.map((e) => e.name), agg instanceof Error];

// @program custom-error-hierarchy
class AppError extends Error { constructor(msg, opts) { super(msg, opts); this.name = this.constructor.name; } }
class NotFound extends AppError { constructor(what) { super(`${what} not found`); this.status = 404; } }
class Forbidden extends AppError { status = 403; }
const handle = (e) => (e instanceof NotFound ? `404 ${e.message}` : e instanceof AppError ? `${e.status} ${e.name}` : "500");
return [new NotFound("user"), new Forbidden("nope"), new Error("x")].map(handle);

// @program error-message-coercion
return [new Error(42).message, new Error(undefined).message, new Error(null).message, String(new Error()), new Error({ toString() { return "obj" } }).message];

// @program error-to-string-custom-name
const e = new Error("boom");
e.name = "Custom";
const e2 = new Error("");
e2.name = "OnlyName";
const e3 = new Error("msg");
e3.name = "";
return [String(e), String(e2), String(e3), Error.prototype.toString.call({ name: "N", message: "M" })];

// @program type-error-messages-v8
const out = [];
const cases = [() => null.x, () => undefined.foo.bar, () => (void 0)(), () => ({}).f(), () => { const c = 1; c = 2; }, () => Symbol() + ""];
for (const f of cases) { try { f(); } catch (e) { out.push(`${e.name}: ${e.message}`); } }
return out;

// @program reference-error-undeclared
try { undeclaredVariable; } catch (e) { return [e.name, e.message]; }

// @program strict-assign-undeclared
try { notDeclared = 1; return "assigned"; } catch (e) { return [e.name, e.message]; }

// @program error-in-callback-propagates
try {
  [1, 2, 3].map((x) => { if (x === 2) throw new Error(`bad item ${x}`); return x; });
} catch (e) {
  return e.message;
}

// @program finally-runs-on-break-continue
const log = [];
for (let i = 0; i < 3; i++) {
  try { if (i === 1) continue; if (i === 2) break; log.push("body" + i); }
  finally { log.push("fin" + i); }
}
return log;

// @program retry-loop
let attempts = 0;
function flaky() { attempts++; if (attempts < 3) throw new Error("transient " + attempts); return "ok after " + attempts; }
let result, errors = [];
for (let i = 0; i < 5; i++) {
  try { result = flaky(); break; } catch (e) { errors.push(e.message); }
}
return { result, errors };

// @program error-instanceof-across-types
const e = new TypeError("t");
return [e instanceof TypeError, e instanceof RangeError, e instanceof Error, Object.getPrototypeOf(TypeError) === Error, TypeError.prototype.name, Object.getPrototypeOf(TypeError.prototype) === Error.prototype];

// @program uncaught-error !ExecutionFailure:Error
console.log("before");
throw new Error("something broke");

// @program uncaught-type-error !ExecutionFailure:TypeError
const user = undefined;
console.log("looking up");
user.name

// @program uncaught-custom-error !ExecutionFailure:ValidationError
class ValidationError extends Error { constructor(m) { super(m); this.name = "ValidationError"; } }
throw new ValidationError("field 'email' is required");

// @program uncaught-string !ExecutionFailure
throw "plain string";

// @program uncaught-object !ExecutionFailure
throw { code: 7, reason: "bad" };

// @program uncaught-in-nested-call !ExecutionFailure:RangeError
function validate(n) { if (n < 0) throw new RangeError(`n must be >= 0, got ${n}`); return n; }
function process(xs) { return xs.map(validate); }
process([1, 2, -3]);

// @program uncaught-reference-error !ExecutionFailure:ReferenceError
const total = itms.length;

// @program uncaught-after-logs !ExecutionFailure:Error
for (let i = 0; i < 3; i++) console.log("step", i);
throw new Error("stopped at step 3");

// @program uncaught-rethrow-from-catch !ExecutionFailure:TypeError
try { null.f(); } catch (e) { console.log("caught", e.name); throw e; }

// @program uncaught-from-finally !ExecutionFailure:Error
try { console.log("try"); } finally { throw new Error("from finally"); }

// @program uncaught-not-a-function !ExecutionFailure:TypeError
const api = { list: [] };
api.list();

// @program uncaught-stack-overflow !ExecutionFailure:RangeError
function forever(n) { return forever(n + 1); }
forever(0);

// @program uncaught-json-parse !ExecutionFailure:SyntaxError
JSON.parse("{not json}");

// @program uncaught-null-error-value !ExecutionFailure
throw null;

// @program error-caught-and-returned-as-data
try { null.x; } catch (e) { return { name: e.name, isType: e instanceof TypeError, hasMessage: typeof e.message === "string" && e.message.length > 0 }; }

// @program errors-in-getters
const o = { get bad() { throw new Error("getter failed"); } };
try { o.bad; } catch (e) { return e.message; }

// @program syntax-error-parse !ParseError
const x = ;

// @program syntax-error-unterminated !ParseError
let s = "unterminated;

// @program syntax-error-strict-octal !ParseError
const n = 0777;

// @program syntax-error-duplicate-let !ParseError
let a = 1;
let a = 2;

// @program syntax-error-delete-identifier !ParseError
let v = 1;
delete v;

// @program blank-program !ParseError
   

// @program comment-only-program !ParseError
// just a comment
/* and another */

// @program stack-is-the-first-line-read-when-asked
class MyErr extends Error { constructor(m) { super(m); this.name = "MyErr"; } }
const e = new MyErr("bad");
const o = {};
Error.captureStackTrace(o);
let t;
try { null.x; } catch (x) { t = x; }
return [e.stack.split("\n")[0], t.stack.split("\n")[0], typeof o.stack, new RangeError("r").stack.split("\n")[0], JSON.stringify(e)];

// @program capture-stack-trace-refuses-frozen-objects
let m = null;
try { Error.captureStackTrace(Object.freeze({})); } catch (e) { m = [e.name, e.message]; }
const o = {};
Error.captureStackTrace(o);
return [m, typeof o.stack, Object.keys(o)];
