// JSON.stringify and JSON.parse (ECMA-262 §25.5). The natives do the common case in one pass:
// `fastStringify` gives up (returns null) when the value holds anything that would run user
// code (a `toJSON` method, a getter, a wrapper object, a replacer function); then the spec's
// algorithm below runs in the loop, every callback metered. `parse` is native; a reviver walks
// the result here (InternalizeJSONProperty).
// The block keeps these names out of the other prelude files.
{
const jsonQuote = I.jsonQuote;
const fastStringify = I.jsonFastStringify;
const nativeParse = I.jsonParse;
const primitiveKind = I.primitiveKind;
const createData = I.createDataProperty;
const deleteQuiet = I.deleteQuiet;
const ownKeys = Object.keys;
const isArrayValue = Array.isArray;
const StringOf = String;
const NumberOf = Number;
const trunc = Math.trunc;
const circularMessage = I.jsonCircularMessage;

function serializeProperty(state, holder, key) {
  let value = holder[key];
  if ((typeof value === "object" && value !== null) || typeof value === "bigint") {
    const toJSON = value.toJSON;
    if (isCallable(toJSON)) value = call(toJSON, value, key);
  }
  if (state.replacer !== undefined) value = call(state.replacer, holder, key, value);
  if (typeof value === "object" && value !== null) {
    const kind = primitiveKind(value);
    if (kind === "Number") value = NumberOf(value);
    else if (kind === "String") value = StringOf(value);
    else if (kind === "Boolean") value = I.unbox(value);
  }
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return jsonQuote(value);
  if (typeof value === "number") return value === value && value !== Infinity && value !== -Infinity ? StringOf(value) : "null";
  if (typeof value === "object" && !isCallable(value)) {
    return isArrayValue(value) ? serializeArray(state, value, key) : serializeObject(state, value, key);
  }
  return undefined;
}

function enter(state, value, key) {
  const stack = state.stack;
  const keys = state.keys;
  // V8 names array elements by index (a number), other keys as properties.
  const via = stack.length > 0 && isArrayValue(stack[stack.length - 1]) ? NumberOf(key) : key;
  for (let i = 0; i < stack.length; i++) {
    if (stack[i] === value) typeError(circularMessage(stack, keys, i, via));
  }
  createData(keys, stack.length, via);
  createData(stack, stack.length, value);
  const stepback = state.indent;
  state.indent = stepback + state.gap;
  return stepback;
}

function leave(state, stepback) {
  state.stack.length = state.stack.length - 1;
  state.keys.length = state.stack.length;
  state.indent = stepback;
}

function serializeObject(state, value, key) {
  const stepback = enter(state, value, key);
  const keys = state.propertyList !== undefined ? state.propertyList : ownKeys(value);
  const parts = [];
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const str = serializeProperty(state, value, k);
    if (str !== undefined) {
      createData(parts, parts.length, jsonQuote(k) + (state.gap === "" ? ":" : ": ") + str);
    }
  }
  leave(state, stepback);
  return wrap(state, stepback, "{", parts, "}");
}

function serializeArray(state, value, key) {
  const stepback = enter(state, value, key);
  const len = toLength(value);
  const parts = [];
  for (let i = 0; i < len; i++) {
    const str = serializeProperty(state, value, StringOf(i));
    createData(parts, parts.length, str === undefined ? "null" : str);
  }
  leave(state, stepback);
  return wrap(state, stepback, "[", parts, "]");
}

function wrap(state, stepback, open, parts, close) {
  if (parts.length === 0) return open + close;
  if (state.gap === "") {
    let out = open + parts[0];
    for (let i = 1; i < parts.length; i++) out += "," + parts[i];
    return out + close;
  }
  const inner = stepback + state.gap;
  let out = open + "\n" + inner + parts[0];
  for (let i = 1; i < parts.length; i++) out += ",\n" + inner + parts[i];
  return out + "\n" + stepback + close;
}

def(JSON, "stringify", function stringify(value, replacer, space) {
  if (!isCallable(replacer)) {
    const fast = fastStringify(value, replacer, space);
    if (fast !== null) return fast;
  }
  const state = { replacer: undefined, propertyList: undefined, stack: [], keys: [], indent: "", gap: "" };
  if (isCallable(replacer)) state.replacer = replacer;
  else if (isArrayValue(replacer)) {
    const list = [];
    const len = toLength(replacer);
    for (let i = 0; i < len; i++) {
      const v = replacer[i];
      let item;
      if (typeof v === "string") item = v;
      else if (typeof v === "number") item = StringOf(v);
      else if (typeof v === "object" && v !== null) {
        const kind = primitiveKind(v);
        if (kind === "String" || kind === "Number") item = StringOf(v);
      }
      if (item !== undefined) {
        let seen = false;
        for (let j = 0; j < list.length; j++) if (list[j] === item) seen = true;
        if (!seen) createData(list, list.length, item);
      }
    }
    state.propertyList = list;
  }
  if (typeof space === "object" && space !== null) {
    const kind = primitiveKind(space);
    if (kind === "Number") space = NumberOf(space);
    else if (kind === "String") space = StringOf(space);
  }
  if (typeof space === "number") {
    const n = space === space ? trunc(space) : 0;
    state.gap = "          ".slice(0, n < 0 ? 0 : n > 10 ? 10 : n);
  } else if (typeof space === "string") state.gap = space.slice(0, 10);
  const wrapper = {};
  createData(wrapper, "", value);
  return serializeProperty(state, wrapper, "");
});

function internalize(holder, name, reviver) {
  const val = holder[name];
  if (typeof val === "object" && val !== null) {
    if (isArrayValue(val)) {
      const len = toLength(val);
      for (let i = 0; i < len; i++) revive(val, StringOf(i), reviver);
    } else {
      const keys = ownKeys(val);
      for (let i = 0; i < keys.length; i++) revive(val, keys[i], reviver);
    }
  }
  return call(reviver, holder, name, val);
}

function revive(holder, key, reviver) {
  const v = internalize(holder, key, reviver);
  if (v === undefined) deleteQuiet(holder, key);
  else createData(holder, key, v);
}

def(JSON, "parse", function parse(text, reviver) {
  const value = nativeParse(text);
  if (!isCallable(reviver)) return value;
  const root = {};
  createData(root, "", value);
  return internalize(root, "", reviver);
});

// The result's crossing to the host (`boundary.rs`), when it holds a `toJSON` method or a
// getter: a copy with those applied as JSON.stringify applies them (toJSON called with its
// key, getters read once, in key order). What the native export judges (functions, symbols,
// cycles, depth, errors, wrappers, Map and Set) is left as it is, so its messages keep
// naming the path.
const isErrorValue = I.isError;
const symbolKeyed = I.hasEnumerableSymbolKey;
I.exportPrepare = function exportPrepare(root, maxDepth) {
  // Only captured functions and own data properties: a program that replaces
  // Array.prototype.push or defines setters on prototypes changes nothing here.
  const stack = [];
  let depth = 0;
  function onStack(value) {
    for (let i = 0; i < depth; i++) if (stack[i] === value) return true;
    return false;
  }
  function prepare(holder, key) {
    let value = holder[key];
    if ((typeof value === "object" && value !== null) || typeof value === "function") {
      const toJSON = value.toJSON;
      if (isCallable(toJSON)) value = call(toJSON, value, key);
    }
    if (typeof value !== "object" || value === null || isCallable(value)) return value;
    if (primitiveKind(value) !== "" || isErrorValue(value) || symbolKeyed(value)) return value;
    if (depth >= maxDepth || onStack(value)) return value;
    createData(stack, depth, value);
    depth++;
    let out;
    if (isArrayValue(value)) {
      out = [];
      const n = value.length;
      for (let i = 0; i < n; i++) createData(out, i, prepare(value, StringOf(i)));
    } else {
      out = {};
      const keys = ownKeys(value);
      for (let i = 0; i < keys.length; i++) createData(out, keys[i], prepare(value, keys[i]));
    }
    depth--;
    return out;
  }
  const holder = {};
  createData(holder, "", root);
  return prepare(holder, "");
};
}
