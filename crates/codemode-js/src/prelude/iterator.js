// Iterator helpers (ECMA-262 §27.1.2–§27.1.4): Iterator.from, %WrapForValidIteratorPrototype%,
// %IteratorHelperPrototype% and the Iterator.prototype methods. A helper's closure is a
// generator kept out of sight: the helper object's next/return resume it, so a mapper that
// calls its own helper meets "already running" as the spec's GeneratorValidate throws, and a
// return() at a yield closes the underlying iterator through the generator's finally.
// The block keeps these names out of the other prelude files.
{
const IP = I.iteratorPrototype;
const objectCreate = Object.create;
const defineProperty = Object.defineProperty;
const getOwnDescriptor = Object.getOwnPropertyDescriptor;
const protoOf = Object.getPrototypeOf;
const WM = WeakMap;
const wmGet = WeakMap.prototype.get;
const wmSet = WeakMap.prototype.set;
const IteratorCtor = Iterator;
const createData = I.createDataProperty;
const NumberOf = Number;
const mathTrunc = Math.trunc;
const symIterator = Symbol.iterator;
const symToStringTag = Symbol.toStringTag;
const RangeErrorCtor = RangeError;
const DONE = {};

function needThis(O, name) {
  if (!isObjectLike(O)) typeError("Iterator.prototype." + name + " called on non-object");
}

// GetIteratorDirect (§7.4.2).
function direct(O) {
  return { iterator: O, next: O.next };
}

// IteratorStepValue (§7.4.8): the next value, or DONE.
function stepValue(rec) {
  const r = call(rec.next, rec.iterator);
  if (!isObjectLike(r)) typeError("Iterator result " + toStr(r) + " is not an object");
  if (r.done) return DONE;
  return r.value;
}

// IteratorClose (§7.4.11) with a normal or return completion: errors of return() win.
function closeNormal(iterator) {
  const ret = iterator.return;
  if (ret === undefined || ret === null) return;
  const r = call(ret, iterator);
  if (!isObjectLike(r)) typeError("Iterator result " + toStr(r) + " is not an object");
}

function needCallable(fn, O) {
  if (!isCallable(fn)) {
    closeQuiet(O);
    typeError(toStr(typeof fn === "string" ? '"' + fn + '"' : fn) + " is not a function");
  }
}

// GetIteratorFlattenable (§7.4.13).
function flattenable(obj, iterateStrings) {
  if (!isObjectLike(obj) && !(iterateStrings && typeof obj === "string")) {
    typeError(toStr(obj) + " is not an object");
  }
  const method = obj[symIterator];
  let iterator;
  if (method === undefined || method === null) iterator = obj;
  else {
    if (!isCallable(method)) typeError(toStr(method) + " is not a function");
    iterator = call(method, obj);
  }
  if (!isObjectLike(iterator)) typeError(toStr(iterator) + " is not an object");
  return direct(iterator);
}

// ToIntegerOrInfinity of take's and drop's limit, closing `O` on a bad one.
function limitOf(O, limit) {
  let n;
  try {
    n = NumberOf(limit);
  } catch (e) {
    closeQuiet(O);
    throw e;
  }
  if (n !== n) {
    closeQuiet(O);
    throw new RangeErrorCtor(toStr(limit) + " must be positive");
  }
  const k = n === Infinity || n === -Infinity ? n : mathTrunc(n);
  if (k < 0) {
    closeQuiet(O);
    throw new RangeErrorCtor(toStr(limit) + " must be positive");
  }
  // (Finite limits past 2^53 - 1 are a RangeError too, as test262 checks.)
  if (k !== Infinity && k > 9007199254740991) {
    closeQuiet(O);
    throw new RangeErrorCtor(toStr(limit) + " is too large: a limit is at most 2^53 - 1, or Infinity for no limit");
  }
  return k;
}

// %IteratorHelperPrototype% (§27.1.2.1). The generators are resumed through the captured
// %GeneratorPrototype% methods, so a program that replaces them changes nothing here.
const states = new WM();
const HP = objectCreate(IP);
function helper(gen, iterator) {
  const h = objectCreate(HP);
  call(wmSet, states, h, { gen, iterator, started: false });
  return h;
}
function stateOf(h, name) {
  const st = isObjectLike(h) ? call(wmGet, states, h) : undefined;
  if (st === undefined) typeError("Method Iterator Helper.prototype." + name + " called on incompatible receiver " + toStr(h));
  return st;
}
def(HP, "next", function next() {
  const st = stateOf(this, "next");
  st.started = true;
  return call(genNext, st.gen);
});
def(HP, "return", function return_() {
  const st = stateOf(this, "return");
  if (!st.started) {
    // Suspended at its start: completed at once, the underlying iterator closed.
    st.started = true;
    call(genReturn, st.gen, undefined);
    closeNormal(st.iterator);
    return { value: undefined, done: true };
  }
  return call(genReturn, st.gen, undefined);
});
defineProperty(HP.return, "name", { value: "return" });
defineProperty(HP, symToStringTag, { value: "Iterator Helper", configurable: true });

let GP = protoOf(mapBody(undefined, undefined));
while (GP !== null && getOwnDescriptor(GP, "next") === undefined) GP = protoOf(GP);
const genNext = GP.next;
const genReturn = GP.return;

function* mapBody(rec, mapper) {
  for (let counter = 0; ; counter++) {
    const value = stepValue(rec);
    if (value === DONE) return undefined;
    let mapped;
    try { mapped = call(mapper, undefined, value, counter); } catch (e) { closeQuiet(rec.iterator); throw e; }
    let resumed = false;
    try { yield mapped; resumed = true; } finally { if (!resumed) closeNormal(rec.iterator); }
  }
}
function* filterBody(rec, predicate) {
  for (let counter = 0; ; counter++) {
    const value = stepValue(rec);
    if (value === DONE) return undefined;
    let selected;
    try { selected = call(predicate, undefined, value, counter); } catch (e) { closeQuiet(rec.iterator); throw e; }
    if (selected) {
      let resumed = false;
      try { yield value; resumed = true; } finally { if (!resumed) closeNormal(rec.iterator); }
    }
  }
}
function* takeBody(rec, remaining) {
  for (;;) {
    if (remaining === 0) {
      closeNormal(rec.iterator);
      return undefined;
    }
    if (remaining !== Infinity) remaining--;
    const value = stepValue(rec);
    if (value === DONE) return undefined;
    let resumed = false;
    try { yield value; resumed = true; } finally { if (!resumed) closeNormal(rec.iterator); }
  }
}
function* dropBody(rec, remaining) {
  while (remaining > 0) {
    if (remaining !== Infinity) remaining--;
    if (stepValue(rec) === DONE) return undefined;
  }
  for (;;) {
    const value = stepValue(rec);
    if (value === DONE) return undefined;
    let resumed = false;
    try { yield value; resumed = true; } finally { if (!resumed) closeNormal(rec.iterator); }
  }
}
function* flatMapBody(rec, mapper) {
  for (let counter = 0; ; counter++) {
    const value = stepValue(rec);
    if (value === DONE) return undefined;
    let inner;
    try {
      inner = flattenable(call(mapper, undefined, value, counter), false);
    } catch (e) {
      closeQuiet(rec.iterator);
      throw e;
    }
    for (;;) {
      let innerValue;
      try { innerValue = stepValue(inner); } catch (e) { closeQuiet(rec.iterator); throw e; }
      if (innerValue === DONE) break;
      let resumed = false;
      try {
        yield innerValue;
        resumed = true;
      } finally {
        if (!resumed) {
          // A return() at the yield closes the inner iterator, then the outer one.
          try { closeNormal(inner.iterator); } catch (e) { closeQuiet(rec.iterator); throw e; }
          closeNormal(rec.iterator);
        }
      }
    }
  }
}

def(IP, "map", function map(mapper) {
  needThis(this, "map");
  needCallable(mapper, this);
  const rec = direct(this);
  return helper(mapBody(rec, mapper), this);
});
def(IP, "filter", function filter(predicate) {
  needThis(this, "filter");
  needCallable(predicate, this);
  const rec = direct(this);
  return helper(filterBody(rec, predicate), this);
});
def(IP, "take", function take(limit) {
  needThis(this, "take");
  const n = limitOf(this, limit);
  const rec = direct(this);
  return helper(takeBody(rec, n), this);
});
def(IP, "drop", function drop(limit) {
  needThis(this, "drop");
  const n = limitOf(this, limit);
  const rec = direct(this);
  return helper(dropBody(rec, n), this);
});
def(IP, "flatMap", function flatMap(mapper) {
  needThis(this, "flatMap");
  needCallable(mapper, this);
  const rec = direct(this);
  return helper(flatMapBody(rec, mapper), this);
});
def(IP, "reduce", function reduce(reducer, ...init) {
  needThis(this, "reduce");
  needCallable(reducer, this);
  const rec = direct(this);
  let acc;
  let counter;
  if (init.length === 0) {
    acc = stepValue(rec);
    if (acc === DONE) typeError("Reduce of empty iterator with no initial value");
    counter = 1;
  } else {
    acc = init[0];
    counter = 0;
  }
  for (; ; counter++) {
    const value = stepValue(rec);
    if (value === DONE) return acc;
    try { acc = call(reducer, undefined, acc, value, counter); } catch (e) { closeQuiet(rec.iterator); throw e; }
  }
});
def(IP, "toArray", function toArray() {
  needThis(this, "toArray");
  const rec = direct(this);
  const items = [];
  for (let i = 0; ; i++) {
    const value = stepValue(rec);
    if (value === DONE) return items;
    createData(items, i, value);
  }
});
def(IP, "forEach", function forEach(fn) {
  needThis(this, "forEach");
  needCallable(fn, this);
  const rec = direct(this);
  for (let counter = 0; ; counter++) {
    const value = stepValue(rec);
    if (value === DONE) return undefined;
    try { call(fn, undefined, value, counter); } catch (e) { closeQuiet(rec.iterator); throw e; }
  }
});
// some, every and find: `want` is the truth of the predicate that stops the walk.
function search(O, predicate, want, name) {
  needThis(O, name);
  needCallable(predicate, O);
  const rec = direct(O);
  for (let counter = 0; ; counter++) {
    const value = stepValue(rec);
    if (value === DONE) return DONE;
    let r;
    try { r = call(predicate, undefined, value, counter); } catch (e) { closeQuiet(rec.iterator); throw e; }
    if (!r === !want) {
      closeNormal(rec.iterator);
      return value;
    }
  }
}
def(IP, "some", function some(predicate) {
  return search(this, predicate, true, "some") !== DONE;
});
def(IP, "every", function every(predicate) {
  return search(this, predicate, false, "every") === DONE;
});
def(IP, "find", function find(predicate) {
  const v = search(this, predicate, true, "find");
  return v === DONE ? undefined : v;
});

// %WrapForValidIteratorPrototype% (§27.1.3.2.1.1) and Iterator.from (§27.1.3.2.1).
const wrapped = new WM();
const WP = objectCreate(IP);
function wrappedOf(w) {
  const rec = isObjectLike(w) ? call(wmGet, wrapped, w) : undefined;
  if (rec === undefined) typeError("Method %WrapForValidIteratorPrototype%.next called on incompatible receiver " + toStr(w));
  return rec;
}
def(WP, "next", function next() {
  const rec = wrappedOf(this);
  return call(rec.next, rec.iterator);
});
def(WP, "return", function return_() {
  const rec = wrappedOf(this);
  const ret = rec.iterator.return;
  if (ret === undefined || ret === null) return { value: undefined, done: true };
  return call(ret, rec.iterator);
});
defineProperty(WP.return, "name", { value: "return" });
def(IteratorCtor, "from", function from(O) {
  const rec = flattenable(O, true);
  // OrdinaryHasInstance(%Iterator%, iterator): its chain reaches Iterator.prototype.
  for (let p = protoOf(rec.iterator); p !== null; p = protoOf(p)) {
    if (p === IP) return rec.iterator;
  }
  const w = objectCreate(WP);
  call(wmSet, wrapped, w, rec);
  return w;
});

// Iterator.prototype.constructor and [Symbol.toStringTag] (§27.1.4.1, §27.1.4.14): accessors
// whose setters ignore the prototype itself (SetterThatIgnoresPrototypeProperties).
function ignoringSetter(key, name) {
  return {
    set [name](v) {
      if (!isObjectLike(this)) typeError("Iterator.prototype setter called on non-object");
      if (this === IP) typeError("Cannot assign to read only property '" + toStr(key === symToStringTag ? "Symbol(Symbol.toStringTag)" : key) + "' of object '[object Iterator]'");
      if (getOwnDescriptor(this, key) === undefined) createData(this, key, v);
      else this[key] = v;
    },
  };
}
defineProperty(IP, "constructor", {
  get: getOwnDescriptor({ get constructor() { return IteratorCtor; } }, "constructor").get,
  set: getOwnDescriptor(ignoringSetter("constructor", "constructor"), "constructor").set,
  enumerable: false,
  configurable: true,
});
defineProperty(IP, symToStringTag, {
  get: getOwnDescriptor({ get [symToStringTag]() { return "Iterator"; } }, symToStringTag).get,
  set: getOwnDescriptor(ignoringSetter(symToStringTag, symToStringTag), symToStringTag).set,
  enumerable: false,
  configurable: true,
});
}
