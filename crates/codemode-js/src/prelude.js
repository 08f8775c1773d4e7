// The builtins that call back into user code, in JavaScript, so that every callback runs in
// the machine's one dispatch loop (metered, never a nested Rust loop). Compiled once per
// process into the standard-library template. `__intrinsics` is visible only here.
const I = __intrinsics;
const call = I.call;
const toLength = I.toLength;
const isCallable = I.isCallable;
const def = I.defineHidden;
const typeError = I.throwTypeError;
const toStr = I.toStr;
const setLength = I.setLength;
const AP = Array.prototype;

// ToObject(this) (§7.1.18) of an Array.prototype method `name`: primitives are boxed, so the
// generic algorithms run on `Array.prototype.every.call(false, f)` as the spec says.
function toObject(v, name) {
  if (v === undefined || v === null) typeError("Array.prototype." + name + " called on null or undefined");
  return typeof v === "object" || typeof v === "function" ? v : Object(v);
}

// ArraySpeciesCreate (§10.4.2.3): what map, filter, flat, flatMap, slice, splice and concat
// return: a plain array, unless O is an array whose constructor's [Symbol.species] is another
// constructor (a subclass of Array gets instances of itself).
// speciesCtor: the constructor to use, undefined for a plain array (whose elements the callers
// may then assign directly; anything else gets CreateDataPropertyOrThrow).
function speciesCtor(O) {
  if (!Array.isArray(O)) return undefined;
  let C = O.constructor;
  if (isObjectLike(C)) {
    C = C[Symbol.species];
    if (C === null) C = undefined;
  }
  if (C === undefined || C === Array) return undefined;
  if (!I.isConstructor(C)) typeError("object.constructor[Symbol.species] is not a constructor");
  return C;
}
function speciesCreate(O, n) {
  const C = speciesCtor(O);
  return C === undefined ? new Array(n) : new C(n);
}
// get Array[Symbol.species] (§23.1.2.5): the receiver.
Object.defineProperty(Array, Symbol.species, {
  get: Object.getOwnPropertyDescriptor({ get [Symbol.species]() { return this; } }, Symbol.species).get,
  configurable: true,
});

// A callback that is not callable: V8's wording (`x is not a function`, `#<Object> is not a
// function`; `mapFn` for flatMap's own sentence, `callSite` for Map's and Set's forEach).
function need(fn, what) {
  if (isCallable(fn)) return;
  if (what === "flatMap") typeError("flatMap mapper function is not callable");
  if (what === "callSite") typeError(I.describeCallSite(fn) + " is not a function");
  typeError(I.describe(fn) + " is not a function");
}

def(AP, "forEach", function forEach(fn, thisArg = undefined) {
  const O = toObject(this, "forEach");
  const len = toLength(O);
  need(fn);
  for (let i = 0; i < len; i++) if (i in O) call(fn, thisArg, O[i], i, O);
});
def(AP, "map", function map(fn, thisArg = undefined) {
  const O = toObject(this, "map");
  const len = toLength(O);
  need(fn);
  const C = speciesCtor(O);
  const out = C === undefined ? new Array(len) : new C(len);
  // `out[i] =` is CreateDataProperty for a plain array whose prototypes hold no indices.
  if (C !== undefined || I.protosHaveIndices(out)) {
    for (let i = 0; i < len; i++) if (i in O) I.createDataProperty(out, i, call(fn, thisArg, O[i], i, O));
    return out;
  }
  for (let i = 0; i < len; i++) if (i in O) out[i] = call(fn, thisArg, O[i], i, O);
  return out;
});
def(AP, "filter", function filter(fn, thisArg = undefined) {
  const O = toObject(this, "filter");
  const len = toLength(O);
  need(fn);
  const C = speciesCtor(O);
  const out = C === undefined ? [] : new C(0);
  const plain = C === undefined && !I.protosHaveIndices(out);
  let n = 0;
  for (let i = 0; i < len; i++) {
    if (i in O) {
      const v = O[i];
      if (!call(fn, thisArg, v, i, O)) continue;
      if (plain) out[n++] = v;
      else I.createDataProperty(out, n++, v);
    }
  }
  return out;
});
def(AP, "reduce", function reduce(fn, ...init) {
  const O = toObject(this, "reduce");
  const len = toLength(O);
  need(fn);
  let i = 0;
  let acc;
  if (init.length > 0) acc = init[0];
  else {
    while (i < len && !(i in O)) i++;
    if (i >= len) typeError("Reduce of empty array with no initial value");
    acc = O[i++];
  }
  for (; i < len; i++) if (i in O) acc = fn(acc, O[i], i, O);
  return acc;
});
def(AP, "reduceRight", function reduceRight(fn, ...init) {
  const O = toObject(this, "reduceRight");
  let i = toLength(O) - 1;
  need(fn);
  let acc;
  if (init.length > 0) acc = init[0];
  else {
    while (i >= 0 && !(i in O)) i--;
    if (i < 0) typeError("Reduce of empty array with no initial value");
    acc = O[i--];
  }
  for (; i >= 0; i--) if (i in O) acc = fn(acc, O[i], i, O);
  return acc;
});
def(AP, "find", function find(fn, thisArg = undefined) {
  const O = toObject(this, "find");
  const len = toLength(O);
  need(fn);
  for (let i = 0; i < len; i++) if (call(fn, thisArg, O[i], i, O)) return O[i];
  return undefined;
});
def(AP, "findIndex", function findIndex(fn, thisArg = undefined) {
  const O = toObject(this, "findIndex");
  const len = toLength(O);
  need(fn);
  for (let i = 0; i < len; i++) if (call(fn, thisArg, O[i], i, O)) return i;
  return -1;
});
def(AP, "findLast", function findLast(fn, thisArg = undefined) {
  const O = toObject(this, "findLast");
  const len = toLength(O);
  need(fn);
  for (let i = len - 1; i >= 0; i--) if (call(fn, thisArg, O[i], i, O)) return O[i];
  return undefined;
});
def(AP, "findLastIndex", function findLastIndex(fn, thisArg = undefined) {
  const O = toObject(this, "findLastIndex");
  const len = toLength(O);
  need(fn);
  for (let i = len - 1; i >= 0; i--) if (call(fn, thisArg, O[i], i, O)) return i;
  return -1;
});
def(AP, "some", function some(fn, thisArg = undefined) {
  const O = toObject(this, "some");
  const len = toLength(O);
  need(fn);
  for (let i = 0; i < len; i++) if (i in O && call(fn, thisArg, O[i], i, O)) return true;
  return false;
});
def(AP, "every", function every(fn, thisArg = undefined) {
  const O = toObject(this, "every");
  const len = toLength(O);
  need(fn);
  for (let i = 0; i < len; i++) if (i in O && !call(fn, thisArg, O[i], i, O)) return false;
  return true;
});
// FlattenIntoArray (§23.1.3.13.1): the elements of src from index n of out; the next index.
function flatInto(out, src, depth, n) {
  const len = toLength(src);
  for (let i = 0; i < len; i++) {
    if (!(i in src)) continue;
    const v = src[i];
    if (depth > 0 && Array.isArray(v)) n = flatInto(out, v, depth - 1, n);
    else I.createDataProperty(out, n++, v);
  }
  return n;
}
def(AP, "flat", function flat(depth = 1) {
  const O = toObject(this, "flat");
  toLength(O);
  const d = depth === undefined ? 1 : Math.trunc(Number(depth)) || 0;
  const out = speciesCreate(O, 0);
  flatInto(out, O, d, 0);
  return out;
});
def(AP, "flatMap", function flatMap(fn, thisArg = undefined) {
  const O = toObject(this, "flatMap");
  const len = toLength(O);
  need(fn, "flatMap");
  const out = speciesCreate(O, 0);
  let n = 0;
  for (let i = 0; i < len; i++) {
    if (!(i in O)) continue;
    const v = call(fn, thisArg, O[i], i, O);
    if (Array.isArray(v)) n = flatInto(out, v, 0, n);
    else I.createDataProperty(out, n++, v);
  }
  return out;
});
function defaultCompare(a, b) {
  const x = toStr(a), y = toStr(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
// A stable sort (the order of comparisons is the implementation's, §23.1.3.30): TimSort's
// first phase, then merges. Natural runs are found (a strictly descending one reversed) and
// extended to MIN_RUN elements by binary insertion; neighbouring runs are merged level by
// level, two runs already in order copied after one comparison. Sorted or reversed input
// costs n - 1 comparisons, random input about n log2 n. `sorted` puts undefined values and
// holes last, as the spec says.
const MIN_RUN = 32;
function sortList(list, cmp) {
  const n = list.length;
  const bounds = [0];
  for (let lo = 0; lo < n; ) {
    let hi = lo + 1;
    if (hi < n) {
      if (cmp(list[hi], list[lo]) < 0) {
        hi++;
        while (hi < n && cmp(list[hi], list[hi - 1]) < 0) hi++;
        for (let a = lo, b = hi - 1; a < b; a++, b--) {
          const t = list[a]; list[a] = list[b]; list[b] = t;
        }
      } else {
        hi++;
        while (hi < n && !(cmp(list[hi], list[hi - 1]) < 0)) hi++;
      }
    }
    for (const end = Math.min(lo + MIN_RUN, n); hi < end; hi++) {
      const x = list[hi];
      let a = lo, b = hi;
      while (a < b) {
        const m = (a + b) >> 1;
        if (cmp(x, list[m]) < 0) b = m;
        else a = m + 1;
      }
      for (let k = hi; k > a; k--) list[k] = list[k - 1];
      list[a] = x;
    }
    bounds.push(hi);
    lo = hi;
  }
  let src = list, dst = new Array(n), runs = bounds;
  while (runs.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < runs.length; r += 2) {
      const lo = runs[r], mid = runs[r + 1], hi = r + 2 < runs.length ? runs[r + 2] : mid;
      let i = lo, j = mid, k = lo;
      if (j < hi && cmp(src[j], src[j - 1]) < 0) {
        while (i < mid && j < hi) {
          if (cmp(src[j], src[i]) < 0) dst[k++] = src[j++];
          else dst[k++] = src[i++];
        }
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
      next.push(hi);
    }
    const t = src; src = dst; dst = t;
    runs = next;
  }
  return src;
}
// V8's message for a comparator that is neither a function nor undefined (checked first,
// before the receiver is read: §23.1.3.30 step 1).
function needComparator(fn) {
  if (fn !== undefined && !isCallable(fn)) typeError("The comparison function must be either a function or undefined");
}
function sorted(arr, fn) {
  const len = toLength(arr);
  const vals = [];
  let undef = 0;
  for (let i = 0; i < len; i++) {
    if (!(i in arr)) continue;
    const v = arr[i];
    if (v === undefined) undef++;
    else vals.push(v);
  }
  // sortList only asks `cmp(a, b) < 0`: one ToNumber of the comparator's result, NaN as 0,
  // as SortCompare does, with no wrapper call per comparison.
  // Strings, numbers, booleans and null sort natively without a comparator.
  const out = fn === undefined && I.sortDefault(vals) ? vals : sortList(vals, fn === undefined ? defaultCompare : fn);
  for (let i = 0; i < undef; i++) out.push(undefined);
  return out;
}
def(AP, "sort", function sort(fn) {
  needComparator(fn);
  const len = toLength(this);
  const out = sorted(this, fn);
  for (let i = 0; i < out.length; i++) this[i] = out[i];
  for (let i = out.length; i < len; i++) delete this[i];
  return this;
});
def(AP, "toSorted", function toSorted(fn) {
  needComparator(fn);
  const len = toLength(this);
  const out = sorted(this, fn);
  while (out.length < len) out.push(undefined);
  return out;
});
def(AP, "toReversed", function toReversed() {
  const len = toLength(this);
  const out = new Array(len);
  for (let i = 0; i < len; i++) out[i] = this[len - 1 - i];
  return out;
});
def(AP, "toSpliced", function toSpliced(start, skipCount, ...items) {
  // Reads every element with [[Get]] once, the length first (ECMA-262 §23.1.3.35).
  const len = toLength(this);
  let s = Math.trunc(Number(start)) || 0;
  s = s < 0 ? Math.max(len + s, 0) : Math.min(s, len);
  let skip = 0;
  if (arguments.length === 1) skip = len - s;
  else if (arguments.length > 1) skip = Math.min(Math.max(Math.trunc(Number(skipCount)) || 0, 0), len - s);
  if (len + items.length - skip > 4294967295) throw new RangeError("Invalid array length");
  const out = [];
  for (let k = 0; k < s; k++) out.push(this[k]);
  for (const v of items) out.push(v);
  for (let k = s + skip; k < len; k++) out.push(this[k]);
  return out;
});
// A method, for its name: `with` is a reserved word.
def(AP, "with", {
  with(index, value) {
    const len = toLength(this);
    if (len > 4294967295) throw new RangeError("Invalid array length");
    let i = Math.trunc(Number(index)) || 0;
    if (i < 0) i += len;
    if (i < 0 || i >= len) throw new RangeError("Invalid index : " + index);
    const out = [];
    for (let k = 0; k < len; k++) out.push(k === i ? value : this[k]);
    return out;
  },
}.with);
// Array.from and Array.of build instances of their receiver when it is another constructor
// (a subclass of Array: `Stack.from(xs)` is a Stack), as §23.1.2.1 and §23.1.2.3 say.
def(Array, "from", function from(items, fn = undefined, thisArg = undefined) {
  if (fn !== undefined) need(fn);
  const C = this !== Array && I.isConstructor(this) ? this : undefined;
  if (items == null) typeError("undefined is not iterable (cannot read property Symbol(Symbol.iterator))");
  const iterable = typeof items === "string" || items[Symbol.iterator] !== undefined;
  const len = iterable ? 0 : toLength(items);
  const out = C === undefined ? [] : iterable ? new C() : new C(len);
  let i = 0;
  if (iterable) {
    for (const v of items) {
      I.createDataProperty(out, i, fn === undefined ? v : call(fn, thisArg, v, i));
      i++;
    }
  } else {
    for (; i < len; i++) I.createDataProperty(out, i, fn === undefined ? items[i] : call(fn, thisArg, items[i], i));
  }
  out.length = i;
  return out;
});
def(Array, "of", function of(...items) {
  if (this === Array || !I.isConstructor(this)) return items;
  const A = new this(items.length);
  for (let k = 0; k < items.length; k++) I.createDataProperty(A, k, items[k]);
  A.length = items.length;
  return A;
});
def(Object, "groupBy", function groupBy(items, fn) {
  need(fn);
  const out = Object.create(null);
  let i = 0;
  for (const v of items) {
    const k = fn(v, i++);
    if (Object.hasOwn(out, k)) out[k].push(v);
    else out[k] = [v];
  }
  return out;
});
def(Map.prototype, "forEach", function forEach(fn, thisArg = undefined) {
  I.mapSize(this, "Map", "Map.prototype.forEach");
  need(fn, "callSite");
  for (const [k, v] of this.entries()) call(fn, thisArg, v, k, this);
});
def(Set.prototype, "forEach", function forEach(fn, thisArg = undefined) {
  I.mapSize(this, "Set", "Set.prototype.forEach");
  need(fn, "callSite");
  for (const v of this.values()) call(fn, thisArg, v, v, this);
});
def(Map, "groupBy", function groupBy(items, fn) {
  need(fn);
  const out = new Map();
  let i = 0;
  for (const v of items) {
    const k = fn(v, i++);
    if (out.has(k)) out.get(k).push(v);
    else out.set(k, [v]);
  }
  return out;
});
// Getters named `get size`, as the spec names them.
Object.defineProperty(Map.prototype, "size", {
  get: Object.getOwnPropertyDescriptor({ get size() { return I.mapSize(this, "Map", "get Map.prototype.size"); } }, "size").get,
  configurable: true,
});
Object.defineProperty(Set.prototype, "size", {
  get: Object.getOwnPropertyDescriptor({ get size() { return I.mapSize(this, "Set", "get Set.prototype.size"); } }, "size").get,
  configurable: true,
});
def(Set.prototype, "keys", Set.prototype.values);
def(Map.prototype, Symbol.iterator, Map.prototype.entries);
def(Set.prototype, Symbol.iterator, Set.prototype.values);
// The Set methods over another set-like (ES2025 §24.2.4: GetSetRecord reads `size`, `has`
// and `keys` of the argument once; each method walks the smaller side). Captured natives,
// so a program that replaces Set.prototype.add changes nothing here.
{
const SetCtor = Set;
const setAdd = Set.prototype.add;
const setHas = Set.prototype.has;
const setDelete = Set.prototype.delete;
const setValues = Set.prototype.values;
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, "size").get;
const NumberOf = Number;
function setRecord(other) {
  if ((typeof other !== "object" || other === null) && typeof other !== "function") {
    typeError(toStr(other) + " is not an object");
  }
  const raw = other.size;
  const n = NumberOf(raw);
  if (n !== n) typeError("The 'size' property must be a number");
  const size = Math.trunc(n);
  if (size < 0) throw new RangeError("'" + toStr(raw) + "' is an invalid size");
  const has = other.has;
  if (!isCallable(has)) typeError("The 'has' property must be a function");
  const keys = other.keys;
  if (!isCallable(keys)) typeError("The 'keys' property must be a function");
  return { set: other, size, has, keys };
}
function thisSize(s) { return call(setSize, s); }
function own(s) { return call(setValues, s); }
function copy(s) {
  const out = new SetCtor();
  for (const v of own(s)) call(setAdd, out, v);
  return out;
}
function otherKeys(rec) {
  const it = call(rec.keys, rec.set);
  if ((typeof it !== "object" || it === null) && typeof it !== "function") typeError("keys() result is not an object");
  const next = it.next;
  return { it, next };
}
function eachKey(rec, fn) {
  const { it, next } = otherKeys(rec);
  for (;;) {
    const r = call(next, it);
    if ((typeof r !== "object" || r === null) && typeof r !== "function") typeError("Iterator result " + toStr(r) + " is not an object");
    if (r.done) return;
    const v = r.value;
    fn(v === 0 ? 0 : v);
  }
}
def(Set.prototype, "union", function union(other) {
  thisSize(this);
  const rec = setRecord(other);
  const out = copy(this);
  eachKey(rec, (v) => call(setAdd, out, v));
  return out;
});
def(Set.prototype, "intersection", function intersection(other) {
  const size = thisSize(this);
  const rec = setRecord(other);
  const out = new SetCtor();
  if (size <= rec.size) {
    for (const v of own(this)) if (call(rec.has, rec.set, v)) call(setAdd, out, v);
  } else {
    eachKey(rec, (v) => { if (call(setHas, this, v)) call(setAdd, out, v); });
  }
  return out;
});
def(Set.prototype, "difference", function difference(other) {
  const size = thisSize(this);
  const rec = setRecord(other);
  const out = copy(this);
  if (size <= rec.size) {
    for (const v of own(this)) if (call(rec.has, rec.set, v)) call(setDelete, out, v);
  } else {
    eachKey(rec, (v) => call(setDelete, out, v));
  }
  return out;
});
def(Set.prototype, "symmetricDifference", function symmetricDifference(other) {
  thisSize(this);
  const rec = setRecord(other);
  const out = copy(this);
  eachKey(rec, (v) => {
    if (call(setHas, this, v)) call(setDelete, out, v);
    else call(setAdd, out, v);
  });
  return out;
});
def(Set.prototype, "isSubsetOf", function isSubsetOf(other) {
  const size = thisSize(this);
  const rec = setRecord(other);
  if (size > rec.size) return false;
  for (const v of own(this)) if (!call(rec.has, rec.set, v)) return false;
  return true;
});
def(Set.prototype, "isSupersetOf", function isSupersetOf(other) {
  const size = thisSize(this);
  const rec = setRecord(other);
  if (size < rec.size) return false;
  const { it, next } = otherKeys(rec);
  for (;;) {
    const r = call(next, it);
    if (r.done) return true;
    if (!call(setHas, this, r.value)) {
      const ret = it.return;
      if (ret !== undefined) call(ret, it);
      return false;
    }
  }
});
def(Set.prototype, "isDisjointFrom", function isDisjointFrom(other) {
  const size = thisSize(this);
  const rec = setRecord(other);
  if (size <= rec.size) {
    for (const v of own(this)) if (call(rec.has, rec.set, v)) return false;
    return true;
  }
  const { it, next } = otherKeys(rec);
  for (;;) {
    const r = call(next, it);
    if (r.done) return true;
    if (call(setHas, this, r.value)) {
      const ret = it.return;
      if (ret !== undefined) call(ret, it);
      return false;
    }
  }
});
}
def(String.prototype, Symbol.iterator, {
  [Symbol.iterator]() {
    if (this === undefined || this === null) typeError("String.prototype[Symbol.iterator] called on null or undefined");
    return I.stringIterator(this);
  },
}[Symbol.iterator]);
def(I.iteratorPrototype, Symbol.iterator, { [Symbol.iterator]() { return this; } }[Symbol.iterator]);
// Reflect's functions that run user code (methods: not constructors, no `prototype`).
const R = {
  apply(target, thisArgument, argumentsList) {
    if (!isCallable(target)) {
      const kind = target === null ? "null" : typeof target === "object" ? "an object" : "a " + typeof target;
      typeError("Function.prototype.apply was called on " + I.describe(target) + ", which is " + kind + " and not a function");
    }
    return call(target, thisArgument, ...I.listFromArrayLike(argumentsList));
  },
  construct(target, argumentsList) {
    const newTarget = arguments.length > 2 ? arguments[2] : target;
    if (!I.isConstructor(target)) typeError(I.describe(target) + " is not a constructor");
    if (!I.isConstructor(newTarget)) typeError(I.describe(newTarget) + " is not a constructor");
    const list = I.listFromArrayLike(argumentsList);
    const o = new target(...list);
    if (newTarget !== target) {
      // The object takes newTarget's prototype (new.target inside is still target).
      const p = newTarget.prototype;
      Object.setPrototypeOf(o, (typeof p === "object" && p !== null) || typeof p === "function" ? p : Object.prototype);
    }
    return o;
  },
  get(target, propertyKey) {
    if ((typeof target !== "object" || target === null) && typeof target !== "function") typeError("Reflect.get called on non-object");
    const receiver = arguments.length > 2 ? arguments[2] : target;
    const d = I.findProperty(target, propertyKey);
    if (d === undefined) return undefined;
    if (Object.hasOwn(d, "value")) return d.value;
    return d.get === undefined ? undefined : call(d.get, receiver);
  },
  set(target, propertyKey, V) {
    if ((typeof target !== "object" || target === null) && typeof target !== "function") typeError("Reflect.set called on non-object");
    const receiver = arguments.length > 3 ? arguments[3] : target;
    const d = I.findProperty(target, propertyKey);
    if (d !== undefined && !Object.hasOwn(d, "value")) {
      if (d.set === undefined) return false;
      call(d.set, receiver, V);
      return true;
    }
    if (d !== undefined && !d.writable) return false;
    if ((typeof receiver !== "object" || receiver === null) && typeof receiver !== "function") return false;
    const own = Reflect.getOwnPropertyDescriptor(receiver, propertyKey);
    if (own !== undefined) {
      if (!Object.hasOwn(own, "value") || !own.writable) return false;
      return Reflect.defineProperty(receiver, propertyKey, { value: V });
    }
    return Reflect.defineProperty(receiver, propertyKey, { value: V, writable: true, enumerable: true, configurable: true });
  },
};
def(Reflect, "apply", R.apply);
def(Reflect, "construct", R.construct);
def(Reflect, "get", R.get);
def(Reflect, "set", R.set);
// Object.assign (its [[Set]]s run setters and throw on read-only targets), toLocaleString,
// and the Annex B accessor methods of Object.prototype.
const ownKeys = Reflect.ownKeys;
const ownDesc = Reflect.getOwnPropertyDescriptor;
const protoOf = Reflect.getPrototypeOf;
const defineProp = Object.defineProperty;
const hasOwn = Object.hasOwn;
function toObj(v) {
  if (v == null) typeError("Cannot convert undefined or null to object");
  return Object(v);
}
function lookupAccessor(o, key, which) {
  const obj = toObj(o);
  const k = I.toPropertyKey(key);
  for (let p = obj; p !== null; p = protoOf(p)) {
    const d = ownDesc(p, k);
    if (d !== undefined) return hasOwn(d, which) ? d[which] : undefined;
  }
  return undefined;
}
const B = {
  assign(target, source) {
    const to = toObj(target);
    for (let i = 1; i < arguments.length; i++) {
      const s = arguments[i];
      if (s == null) continue;
      const from = Object(s);
      for (const k of ownKeys(from)) {
        const d = ownDesc(from, k);
        if (d !== undefined && d.enumerable) to[k] = from[k];
      }
    }
    return to;
  },
  toLocaleString() {
    return this.toString();
  },
};
const A = {
  // ECMA-402 §19.5.1: each element's toLocaleString gets the locales and options.
  toLocaleString(...args) {
    const locales = args[0];
    const options = args[1];
    const o = toObj(this);
    const len = toLength(o);
    let out = "";
    for (let i = 0; i < len; i++) {
      if (i > 0) out += ",";
      const v = o[i];
      if (v != null) out += toStr(v.toLocaleString(locales, options));
    }
    return out;
  },
};
const B2 = {
  __defineGetter__(P, getter) {
    const o = toObj(this);
    if (!isCallable(getter)) typeError("Object.prototype.__defineGetter__: Expecting function");
    defineProp(o, P, { get: getter, enumerable: true, configurable: true });
  },
  __defineSetter__(P, setter) {
    const o = toObj(this);
    if (!isCallable(setter)) typeError("Object.prototype.__defineSetter__: Expecting function");
    defineProp(o, P, { set: setter, enumerable: true, configurable: true });
  },
  __lookupGetter__(P) {
    return lookupAccessor(this, P, "get");
  },
  __lookupSetter__(P) {
    return lookupAccessor(this, P, "set");
  },
};
def(Object, "assign", B.assign);
def(Object.prototype, "toLocaleString", B.toLocaleString);
def(AP, "toLocaleString", A.toLocaleString);
// Annex B §B.2.2.15-16: trimLeft and trimRight are the same functions as trimStart and trimEnd.
def(String.prototype, "trimLeft", String.prototype.trimStart);
def(String.prototype, "trimRight", String.prototype.trimEnd);
for (const n of ["__defineGetter__", "__defineSetter__", "__lookupGetter__", "__lookupSetter__"]) def(Object.prototype, n, B2[n]);
// Date.prototype[Symbol.toPrimitive] (§21.4.4.45) and toJSON (§21.4.4.37): both call the
// object's own methods, which may be the program's.
const isObjectLike = (v) => (typeof v === "object" && v !== null) || typeof v === "function";
function ordinaryToPrimitive(o, names) {
  for (const n of names) {
    const f = o[n];
    if (isCallable(f)) {
      const r = call(f, o);
      if (!isObjectLike(r)) return r;
    }
  }
  typeError("Cannot convert object to primitive value");
}
const D = {
  [Symbol.toPrimitive](hint) {
    if (!isObjectLike(this)) typeError("Date.prototype [ @@toPrimitive ] called on non-object");
    if (hint === "string" || hint === "default") return ordinaryToPrimitive(this, ["toString", "valueOf"]);
    if (hint === "number") return ordinaryToPrimitive(this, ["valueOf", "toString"]);
    typeError("Invalid hint: " + (typeof hint === "symbol" ? "Symbol()" : toStr(hint)));
  },
  toJSON(key) {
    if (this == null) typeError("Date.prototype.toJSON called on null or undefined");
    const o = Object(this);
    const exotic = o[Symbol.toPrimitive];
    let tv;
    if (exotic != null) {
      tv = call(exotic, o, "number");
      if (isObjectLike(tv)) typeError("Cannot convert object to primitive value");
    } else tv = ordinaryToPrimitive(o, ["valueOf", "toString"]);
    if (typeof tv === "number" && !Number.isFinite(tv)) return null;
    const f = o.toISOString;
    if (!isCallable(f)) typeError("toISOString is not a function");
    return call(f, o);
  },
};
defineProp(Date.prototype, Symbol.toPrimitive, { value: D[Symbol.toPrimitive], configurable: true });
def(Date.prototype, "toJSON", D.toJSON);
// The Date setters (§21.4.4.20-28): the time value is read before the arguments are converted
// (a `valueOf` may change the date), every argument given is converted, in order.
{
  const dateValue = I.dateValue;
  const setFields = I.dateSetFields;
  const set = (d, first, most, args) => {
    const t = dateValue(d);
    const n = args.length < 1 ? 1 : args.length > most ? most : args.length;
    if (n === 1) return setFields(d, t, first, +args[0]);
    if (n === 2) return setFields(d, t, first, +args[0], +args[1]);
    if (n === 3) return setFields(d, t, first, +args[0], +args[1], +args[2]);
    return setFields(d, t, first, +args[0], +args[1], +args[2], +args[3]);
  };
  const S = {
    setMilliseconds(ms) { return set(this, 6, 1, arguments); },
    setUTCMilliseconds(ms) { return set(this, 6, 1, arguments); },
    setSeconds(sec, ms) { return set(this, 5, 2, arguments); },
    setUTCSeconds(sec, ms) { return set(this, 5, 2, arguments); },
    setMinutes(min, sec, ms) { return set(this, 4, 3, arguments); },
    setUTCMinutes(min, sec, ms) { return set(this, 4, 3, arguments); },
    setHours(hour, min, sec, ms) { return set(this, 3, 4, arguments); },
    setUTCHours(hour, min, sec, ms) { return set(this, 3, 4, arguments); },
    setDate(date) { return set(this, 2, 1, arguments); },
    setUTCDate(date) { return set(this, 2, 1, arguments); },
    setMonth(month, date) { return set(this, 1, 2, arguments); },
    setUTCMonth(month, date) { return set(this, 1, 2, arguments); },
    setFullYear(year, month, date) { return set(this, 0, 3, arguments); },
    setUTCFullYear(year, month, date) { return set(this, 0, 3, arguments); },
  };
  for (const k of Object.keys(S)) def(Date.prototype, k, S[k]);
}
def(URLSearchParams.prototype, "forEach", function forEach(callback, thisArg = undefined) {
  if (!isCallable(callback)) {
    typeError('The "callback" argument must be of type function. Received ' + (callback === undefined ? "undefined" : typeof callback));
  }
  for (const [k, v] of this.entries()) call(callback, thisArg, v, k, this);
});
// Uint8Array's methods that call user code (the byte methods are natives, `bytes.rs`).
// `bytesLength` checks `this` (V8's "this is not a typed array.").
{
  const U8 = Uint8Array;
  const U8P = U8.prototype;
  const bytesLength = I.bytesLength;
  const iter = Symbol.iterator;
  def(U8, "from", function from(source, mapFn = undefined, thisArg = undefined) {
    if (mapFn !== undefined) need(mapFn);
    if (source === undefined || source === null) typeError("object null is not iterable (cannot read property Symbol(Symbol.iterator))");
    let values;
    const it = source[iter];
    if (it !== undefined && it !== null) {
      values = [];
      for (const v of source) values[values.length] = v;
    } else {
      const O = Object(source);
      const n = toLength(O);
      values = new Array(n);
      for (let i = 0; i < n; i++) values[i] = O[i];
    }
    if (mapFn !== undefined) for (let i = 0; i < values.length; i++) values[i] = call(mapFn, thisArg, values[i], i);
    return new U8(values);
  });
  const M = {
    forEach(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      for (let i = 0; i < n; i++) call(fn, thisArg, this[i], i, this);
    },
    map(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      const out = new U8(n);
      for (let i = 0; i < n; i++) out[i] = call(fn, thisArg, this[i], i, this);
      return out;
    },
    filter(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      const kept = [];
      for (let i = 0; i < n; i++) {
        const v = this[i];
        if (call(fn, thisArg, v, i, this)) kept[kept.length] = v;
      }
      return new U8(kept);
    },
    reduce(fn, ...init) {
      const n = bytesLength(this);
      need(fn);
      let i = 0, acc;
      if (init.length > 0) acc = init[0];
      else if (n === 0) typeError("Reduce of empty array with no initial value");
      else acc = this[i++];
      for (; i < n; i++) acc = fn(acc, this[i], i, this);
      return acc;
    },
    reduceRight(fn, ...init) {
      let i = bytesLength(this) - 1;
      need(fn);
      let acc;
      if (init.length > 0) acc = init[0];
      else if (i < 0) typeError("Reduce of empty array with no initial value");
      else acc = this[i--];
      for (; i >= 0; i--) acc = fn(acc, this[i], i, this);
      return acc;
    },
    every(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      for (let i = 0; i < n; i++) if (!call(fn, thisArg, this[i], i, this)) return false;
      return true;
    },
    some(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      for (let i = 0; i < n; i++) if (call(fn, thisArg, this[i], i, this)) return true;
      return false;
    },
    find(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      for (let i = 0; i < n; i++) if (call(fn, thisArg, this[i], i, this)) return this[i];
      return undefined;
    },
    findIndex(fn, thisArg = undefined) {
      const n = bytesLength(this);
      need(fn);
      for (let i = 0; i < n; i++) if (call(fn, thisArg, this[i], i, this)) return i;
      return -1;
    },
    findLast(fn, thisArg = undefined) {
      need(fn);
      for (let i = bytesLength(this) - 1; i >= 0; i--) if (call(fn, thisArg, this[i], i, this)) return this[i];
      return undefined;
    },
    findLastIndex(fn, thisArg = undefined) {
      need(fn);
      for (let i = bytesLength(this) - 1; i >= 0; i--) if (call(fn, thisArg, this[i], i, this)) return i;
      return -1;
    },
    sort(cmp = undefined) {
      needComparator(cmp);
      const n = bytesLength(this);
      const list = new Array(n);
      for (let i = 0; i < n; i++) list[i] = this[i];
      const by = cmp === undefined ? (a, b) => a - b : (a, b) => {
        const r = +call(cmp, undefined, a, b);
        return r !== r ? 0 : r;
      };
      const s = sortList(list, by);
      for (let i = 0; i < n; i++) this[i] = s[i];
      return this;
    },
  };
  for (const k of Object.keys(M)) def(U8P, k, M[k]);
}
// The generic Array.prototype algorithms (§23.1.3) for receivers that are not arrays
// (`Array.prototype.push.call(arrayLike, x)`, a string's `join`): the natives handle arrays
// in place and tail-call these for anything else. Each reads and writes through [[Get]],
// [[Set]], [[HasProperty]] and [[Delete]], so getters, setters and frozen objects behave as
// the spec says (a failed write is a TypeError: this file is strict).
{
const MAX_LEN = 9007199254740991;
const createData = I.createDataProperty;
function O_of(v, name) {
  if (v === undefined || v === null) typeError("Array.prototype." + name + " called on null or undefined");
  return Object(v);
}
function del(O, k) {
  if (!delete O[k]) typeError("Cannot delete property '" + k + "' of " + toStr(O));
}
function rel(v, len, dflt) {
  if (v === undefined) return dflt;
  const n = Math.trunc(+v) || 0;
  return n < 0 ? Math.max(len + n, 0) : Math.min(n, len);
}
function tooLong() {
  typeError("Pushing beyond the maximum array length (2^53 - 1)");
}
// IsConcatSpreadable (§23.1.3.2.1).
function isConcatSpreadable(O) {
  if (!isObjectLike(O)) return false;
  const spreadable = O[Symbol.isConcatSpreadable];
  if (spreadable !== undefined) return !!spreadable;
  return Array.isArray(O);
}
I.arrayGeneric = {
  // slice for array-likes and arrays with a species; concat for arrays with a species,
  // holes that read inherited indices, or Symbol.isConcatSpreadable.
  slice(start, end) {
    const O = O_of(this, "slice");
    const len = toLength(O);
    let k = rel(start, len, 0);
    const fin = rel(end, len, len);
    const A = speciesCreate(O, Math.max(fin - k, 0));
    let n = 0;
    for (; k < fin; k++, n++) if (k in O) createData(A, n, O[k]);
    A.length = n;
    return A;
  },
  concat(...items) {
    const O = this;
    const A = speciesCreate(O, 0);
    let n = 0;
    for (const E of [O, ...items]) {
      if (isConcatSpreadable(E)) {
        const len = toLength(E);
        if (n + len > MAX_LEN) tooLong();
        for (let k = 0; k < len; k++, n++) if (k in E) createData(A, n, E[k]);
      } else {
        createData(A, n++, E);
      }
    }
    A.length = n;
    return A;
  },
  push(...items) {
    const O = O_of(this, "push");
    let len = toLength(O);
    if (len + items.length > MAX_LEN) tooLong();
    for (let i = 0; i < items.length; i++) O[len++] = items[i];
    O.length = len;
    return len;
  },
  pop() {
    const O = O_of(this, "pop");
    const len = toLength(O);
    if (len === 0) { O.length = 0; return undefined; }
    const idx = len - 1;
    const el = O[idx];
    del(O, idx);
    O.length = idx;
    return el;
  },
  shift() {
    const O = O_of(this, "shift");
    const len = toLength(O);
    if (len === 0) { O.length = 0; return undefined; }
    const first = O[0];
    for (let k = 1; k < len; k++) {
      if (k in O) O[k - 1] = O[k];
      else del(O, k - 1);
    }
    del(O, len - 1);
    O.length = len - 1;
    return first;
  },
  unshift(...items) {
    const O = O_of(this, "unshift");
    const len = toLength(O);
    const n = items.length;
    if (n > 0) {
      if (len + n > MAX_LEN) tooLong();
      for (let k = len; k > 0; k--) {
        if ((k - 1) in O) O[k + n - 1] = O[k - 1];
        else del(O, k + n - 1);
      }
      for (let j = 0; j < n; j++) O[j] = items[j];
    }
    O.length = len + n;
    return len + n;
  },
  splice(start, deleteCount, ...items) {
    const O = O_of(this, "splice");
    const len = toLength(O);
    const actualStart = rel(start, len, 0);
    const n = items.length;
    let dc;
    if (arguments.length === 0) dc = 0;
    else if (arguments.length === 1) dc = len - actualStart;
    else dc = Math.min(Math.max(Math.trunc(+deleteCount) || 0, 0), len - actualStart);
    if (len + n - dc > MAX_LEN) tooLong();
    // ArraySpeciesCreate(O, dc): an array that long cannot exist.
    if (dc > 4294967295) throw new RangeError("Invalid array length");
    const A = speciesCreate(O, dc);
    for (let k = 0; k < dc; k++) {
      const from = actualStart + k;
      if (from in O) createData(A, k, O[from]);
    }
    A.length = dc;
    if (n < dc) {
      for (let k = actualStart; k < len - dc; k++) {
        if ((k + dc) in O) O[k + n] = O[k + dc];
        else del(O, k + n);
      }
      for (let k = len; k > len - dc + n; k--) del(O, k - 1);
    } else if (n > dc) {
      for (let k = len - dc; k > actualStart; k--) {
        if ((k + dc - 1) in O) O[k + n - 1] = O[k + dc - 1];
        else del(O, k + n - 1);
      }
    }
    for (let j = 0; j < n; j++) O[actualStart + j] = items[j];
    O.length = len - dc + n;
    return A;
  },
  reverse() {
    const O = O_of(this, "reverse");
    const len = toLength(O);
    const middle = Math.floor(len / 2);
    for (let lower = 0; lower !== middle; lower++) {
      const upper = len - lower - 1;
      const lowerExists = lower in O;
      const lowerValue = lowerExists ? O[lower] : undefined;
      const upperExists = upper in O;
      const upperValue = upperExists ? O[upper] : undefined;
      if (lowerExists && upperExists) { O[lower] = upperValue; O[upper] = lowerValue; }
      else if (upperExists) { O[lower] = upperValue; del(O, upper); }
      else if (lowerExists) { del(O, lower); O[upper] = lowerValue; }
    }
    return O;
  },
  fill(value, start, end) {
    const O = O_of(this, "fill");
    const len = toLength(O);
    const k0 = rel(start, len, 0);
    const fin = rel(end, len, len);
    for (let k = k0; k < fin; k++) O[k] = value;
    return O;
  },
  copyWithin(target, start, end) {
    const O = O_of(this, "copyWithin");
    const len = toLength(O);
    let to = rel(target, len, 0);
    let from = rel(start, len, 0);
    const fin = rel(end, len, len);
    let count = Math.min(fin - from, len - to);
    let dir = 1;
    if (from < to && to < from + count) { dir = -1; from += count - 1; to += count - 1; }
    for (; count > 0; count--, from += dir, to += dir) {
      if (from in O) O[to] = O[from];
      else del(O, to);
    }
    return O;
  },
  // The readers, for arrays whose prototypes hold indices (a hole reads what they hold).
  indexOf(search, fromIndex) {
    const O = O_of(this, "indexOf");
    const len = toLength(O);
    for (let k = rel(fromIndex, len, 0); k < len; k++) if (k in O && O[k] === search) return k;
    return -1;
  },
  lastIndexOf(search, fromIndex) {
    const O = O_of(this, "lastIndexOf");
    const len = toLength(O);
    if (len === 0) return -1;
    let k = arguments.length > 1 ? Math.trunc(+fromIndex) || 0 : len - 1;
    k = k >= 0 ? Math.min(k, len - 1) : len + k;
    for (; k >= 0; k--) if (k in O && O[k] === search) return k;
    return -1;
  },
  includes(search, fromIndex) {
    const O = O_of(this, "includes");
    const len = toLength(O);
    for (let k = rel(fromIndex, len, 0); k < len; k++) {
      const v = O[k];
      if (v === search || (v !== v && search !== search)) return true;
    }
    return false;
  },
  join(separator) {
    const O = O_of(this, "join");
    const len = toLength(O);
    const sep = separator === undefined ? "," : toStr(separator);
    let r = "";
    for (let k = 0; k < len; k++) {
      if (k > 0) r += sep;
      const v = O[k];
      if (v !== undefined && v !== null) r += toStr(v);
    }
    return r;
  },
  at(index) {
    const O = O_of(this, "at");
    const len = toLength(O);
    let k = Math.trunc(+index) || 0;
    if (k < 0) k += len;
    return k < 0 || k >= len ? undefined : O[k];
  },
};
}
// Error.prototype.stack (the TC39 error-stacks accessor, as test262 checks it): an error's
// stack is its first line, `Name: message`, read when asked (so a subclass that sets `name` in
// its constructor shows it, as V8's lazily formatted stack does); no frames, no host paths.
{
const EP = Error.prototype;
const hasErrorData = I.hasErrorData;
const ownDesc = Object.getOwnPropertyDescriptor;
Object.defineProperty(EP, "stack", {
  get: ownDesc({
    get stack() {
      if (!isObjectLike(this)) typeError("Error.prototype.stack getter called on non-object " + toStr(this));
      if (!hasErrorData(this)) return undefined;
      const n = this.name;
      const name = n === undefined ? "Error" : toStr(n);
      const m = this.message;
      const msg = m === undefined ? "" : toStr(m);
      return name === "" ? msg : msg === "" ? name : name + ": " + msg;
    },
  }, "stack").get,
  set: ownDesc({
    set stack(v) {
      if (!isObjectLike(this)) typeError("Error.prototype.stack setter called on non-object " + toStr(this));
      if (arguments.length === 0 || typeof v !== "string") typeError("Error.prototype.stack must be set to a string");
      if (this === EP) typeError("Cannot assign to read only property 'stack' of object '[object Error]'");
      if (ownDesc(this, "stack") === undefined) I.createDataProperty(this, "stack", v) || typeError("Cannot add property stack, object is not extensible");
      else this.stack = v;
    },
  }, "stack").set,
  enumerable: false,
  configurable: true,
});
}
// AddEntriesFromIterable (§24.1.1.2) and the Set/WeakSet loop (§24.2.2.1): `new Map(it)`,
// `new Set(it)`, `new WeakMap(it)`, `new WeakSet(it)` when the iterable is a user iterable or
// generator, or the adder (`set`/`add`) is not the builtin one. Each entry goes through the
// target's own adder; a failure closes the iterator (a failing `next` or `value` does not).
// IteratorClose with a throw completion (§7.4.11): `return()` is called, and its own errors
// and result are dropped; the error being thrown is the one that counts.
function closeQuiet(it) {
  try {
    const ret = it.return;
    if (ret !== undefined && ret !== null) call(ret, it);
  } catch (_) {
    // (dropped, as the spec says)
  }
}
{
const symIterator = Symbol.iterator;
I.fillFromIterable = function fillFromIterable(target, iterable, adderName, pairs) {
  // adderName "": Object.fromEntries, whose adder is CreateDataPropertyOrThrow.
  const adder = adderName === "" ? undefined : target[adderName];
  if (adderName !== "" && !isCallable(adder)) typeError("'" + toStr(adder) + "' returned for property '" + adderName + "' of object '" + toStr(target) + "' is not a function");
  const method = iterable[symIterator];
  if (!isCallable(method)) typeError(toStr(iterable) + " is not iterable");
  const it = call(method, iterable);
  if (!isObjectLike(it)) typeError("Result of the Symbol.iterator method is not an object");
  const next = it.next;
  for (;;) {
    const r = call(next, it);
    if (!isObjectLike(r)) typeError("Iterator result " + toStr(r) + " is not an object");
    if (r.done) return target;
    const item = r.value;
    try {
      if (pairs) {
        if (!isObjectLike(item)) typeError("Iterator value " + toStr(item) + " is not an entry object");
        if (adder === undefined) I.createDataProperty(target, item[0], item[1]);
        else call(adder, target, item[0], item[1]);
      } else {
        call(adder, target, item);
      }
    } catch (e) {
      closeQuiet(it);
      throw e;
    }
  }
};
}
