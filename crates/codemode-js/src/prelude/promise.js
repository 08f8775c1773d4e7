// Promise's methods that call user code (ECMA-262 §27.2): the combinators, `catch`,
// `finally`, the statics, and the slow paths of the native `then` and resolve functions.
// The states, reactions and jobs are native (`vm/coro.rs`); this file reaches them through
// `I.performThen`, `I.promiseFulfill`, `I.promiseReject` and `I.enqueueThenable`.
{
  const PP = Promise.prototype;
  const isObj = (v) => (typeof v === "object" && v !== null) || typeof v === "function";

  // NewPromiseCapability(C) (§27.2.1.5).
  function newCapability(C) {
    if (!I.isConstructor(C)) typeError(toStr(C) + " is not a constructor");
    let resolve, reject;
    const promise = new C((res, rej) => {
      if (resolve !== undefined) typeError("Promise executor has already been invoked with non-undefined arguments");
      if (reject !== undefined) typeError("Promise executor has already been invoked with non-undefined arguments");
      resolve = res;
      reject = rej;
    });
    if (!isCallable(resolve)) typeError("Promise resolve or reject function is not callable");
    if (!isCallable(reject)) typeError("Promise resolve or reject function is not callable");
    return { promise, resolve, reject };
  }

  // SpeciesConstructor(O, %Promise%) (§7.3.22).
  function species(O) {
    const C = O.constructor;
    if (C === undefined) return Promise;
    if (!isObj(C)) typeError("The .constructor property is not an object");
    const S = C[Symbol.species];
    if (S === undefined || S === null) return Promise;
    if (I.isConstructor(S)) return S;
    typeError("object.constructor[Symbol.species] is not a constructor");
  }

  // PromiseResolve(C, x) (§27.2.4.7.1).
  function promiseResolve(C, x) {
    if (I.isPromise(x) && x.constructor === C) return x;
    if (C === Promise) {
      // The capability of %Promise% is observable only through x's `then`, which the native
      // reads as the resolving function would (an accessor: the general path below).
      const p = I.resolvedPromise(x);
      if (p !== undefined) return p;
    }
    const cap = newCapability(C);
    call(cap.resolve, undefined, x);
    return cap.promise;
  }

  I.resolveSlow = function resolveSlow(p, v) {
    let then;
    try {
      then = v.then;
    } catch (e) {
      I.promiseReject(p, e);
      return;
    }
    if (!isCallable(then)) I.promiseFulfill(p, v);
    else I.enqueueThenable(p, v, then);
  };

  I.thenSlow = function thenSlow(p, onFulfilled, onRejected) {
    const C = species(p);
    const cap = newCapability(C);
    I.performThen(p, onFulfilled, onRejected, cap);
    return cap.promise;
  };

  const getSpecies = {
    get [Symbol.species]() {
      return this;
    },
  };
  const speciesDesc = Object.getOwnPropertyDescriptor(getSpecies, Symbol.species);
  Object.defineProperty(speciesDesc.get, "name", { value: "get [Symbol.species]" });
  Object.defineProperty(Promise, Symbol.species, { get: speciesDesc.get, configurable: true });

  def(PP, "catch", {
    catch(onRejected) {
      return this.then(undefined, onRejected);
    },
  }.catch);

  def(PP, "finally", {
    finally(onFinally) {
      const p = this;
      if (!isObj(p)) typeError("Promise.prototype.finally called on a non-object");
      const C = species(p);
      let thenFinally = onFinally;
      let catchFinally = onFinally;
      if (isCallable(onFinally)) {
        thenFinally = (value) => {
          const result = onFinally();
          return promiseResolve(C, result).then(() => value);
        };
        catchFinally = (reason) => {
          const result = onFinally();
          return promiseResolve(C, result).then(() => {
            throw reason;
          });
        };
      }
      return p.then(thenFinally, catchFinally);
    },
  }.finally);

  function thisCtor(C, what) {
    if (!isObj(C)) typeError("Promise." + what + " called on non-object");
    return C;
  }

  def(Promise, "resolve", {
    resolve(x) {
      return promiseResolve(thisCtor(this, "resolve"), x);
    },
  }.resolve);

  def(Promise, "reject", {
    reject(r) {
      const cap = newCapability(thisCtor(this, "reject"));
      call(cap.reject, undefined, r);
      return cap.promise;
    },
  }.reject);

  def(Promise, "withResolvers", {
    withResolvers() {
      const cap = newCapability(thisCtor(this, "withResolvers"));
      return { promise: cap.promise, resolve: cap.resolve, reject: cap.reject };
    },
  }.withResolvers);

  def(Promise, "try", {
    try(f, ...args) {
      const cap = newCapability(thisCtor(this, "try"));
      try {
        call(cap.resolve, undefined, f(...args));
      } catch (e) {
        call(cap.reject, undefined, e);
      }
      return cap.promise;
    },
  }.try);

  // GetPromiseResolve(C) (§27.2.4.1.1).
  function getResolve(C) {
    const r = C.resolve;
    if (!isCallable(r)) typeError("Promise resolve or reject function is not callable");
    return r;
  }

  // The shared shape of all/allSettled/any: iterate, resolve each item through C.resolve,
  // and attach the per-item reactions `attach(next, index)` makes.
  function combinator(C, iterable, cap, attach, finish) {
    let resolve;
    try {
      resolve = getResolve(C);
    } catch (e) {
      call(cap.reject, undefined, e);
      return cap.promise;
    }
    try {
      const state = { remaining: 1, values: [] };
      let index = 0;
      for (const item of iterable) {
        I.createDataProperty(state.values, state.values.length, undefined);
        const next = call(resolve, C, item);
        state.remaining++;
        attach(next, index++, state);
      }
      if (--state.remaining === 0) finish(state);
    } catch (e) {
      call(cap.reject, undefined, e);
    }
    return cap.promise;
  }

  def(Promise, "all", {
    all(iterable) {
      const C = thisCtor(this, "all");
      const cap = newCapability(C);
      const finish = (state) => call(cap.resolve, undefined, state.values);
      return combinator(C, iterable, cap, (next, i, state) => {
        let called = false;
        next.then((v) => {
          if (called) return;
          called = true;
          I.createDataProperty(state.values, i, v);
          if (--state.remaining === 0) finish(state);
        }, cap.reject);
      }, finish);
    },
  }.all);

  def(Promise, "allSettled", {
    allSettled(iterable) {
      const C = thisCtor(this, "allSettled");
      const cap = newCapability(C);
      const finish = (state) => call(cap.resolve, undefined, state.values);
      return combinator(C, iterable, cap, (next, i, state) => {
        let called = false;
        next.then((value) => {
          if (called) return;
          called = true;
          I.createDataProperty(state.values, i, { status: "fulfilled", value });
          if (--state.remaining === 0) finish(state);
        }, (reason) => {
          if (called) return;
          called = true;
          I.createDataProperty(state.values, i, { status: "rejected", reason });
          if (--state.remaining === 0) finish(state);
        });
      }, finish);
    },
  }.allSettled);

  def(Promise, "any", {
    any(iterable) {
      const C = thisCtor(this, "any");
      const cap = newCapability(C);
      const finish = (state) => {
        const e = new AggregateError(state.values, "All promises were rejected");
        call(cap.reject, undefined, e);
      };
      return combinator(C, iterable, cap, (next, i, state) => {
        let called = false;
        next.then(cap.resolve, (reason) => {
          if (called) return;
          called = true;
          I.createDataProperty(state.values, i, reason);
          if (--state.remaining === 0) finish(state);
        });
      }, finish);
    },
  }.any);

  def(Promise, "race", {
    race(iterable) {
      const C = thisCtor(this, "race");
      const cap = newCapability(C);
      let resolve;
      try {
        resolve = getResolve(C);
      } catch (e) {
        call(cap.reject, undefined, e);
        return cap.promise;
      }
      try {
        for (const item of iterable) call(resolve, C, item).then(cap.resolve, cap.reject);
      } catch (e) {
        call(cap.reject, undefined, e);
      }
      return cap.promise;
    },
  }.race);
}

// Async iteration (§27.1): %AsyncIteratorPrototype%[Symbol.asyncIterator], GetIterator(obj,
// async) for `for await`, and CreateAsyncFromSyncIterator for sync iterables.
{
  const isObj = (v) => (typeof v === "object" && v !== null) || typeof v === "function";
  def(I.asyncIteratorPrototype, Symbol.asyncIterator, {
    [Symbol.asyncIterator]() {
      return this;
    },
  }[Symbol.asyncIterator]);

  // AsyncFromSyncIteratorContinuation (§27.1.6.4): settle with the awaited value.
  function continuation(result, resolve, reject) {
    const done = result.done;
    const value = result.value;
    Promise.resolve(value).then((v) => resolve({ value: v, done }), reject);
  }

  function asyncFromSync(it, next) {
    return {
      next(v) {
        return new Promise((resolve, reject) => {
          const r = call(next, it, v);
          if (!isObj(r)) typeError("Iterator result " + toStr(r) + " is not an object");
          continuation(r, resolve, reject);
        });
      },
      return(v) {
        return new Promise((resolve, reject) => {
          const ret = it.return;
          if (ret === undefined || ret === null) {
            resolve({ value: v, done: true });
            return;
          }
          const r = call(ret, it, v);
          if (!isObj(r)) typeError("Iterator result " + toStr(r) + " is not an object");
          continuation(r, resolve, reject);
        });
      },
      throw(v) {
        return new Promise((resolve, reject) => {
          const th = it.throw;
          if (th === undefined || th === null) {
            const ret = it.return;
            if (ret !== undefined && ret !== null) call(ret, it);
            typeError("The iterator does not provide a 'throw' method");
          }
          const r = call(th, it, v);
          if (!isObj(r)) typeError("Iterator result " + toStr(r) + " is not an object");
          continuation(r, resolve, reject);
        });
      },
    };
  }

  I.getAsyncIterator = function getAsyncIterator(obj) {
    if (obj === undefined || obj === null) typeError(toStr(obj) + " is not async iterable");
    const m = obj[Symbol.asyncIterator];
    if (m !== undefined && m !== null) {
      if (!isCallable(m)) typeError(toStr(obj) + " is not async iterable");
      const it = call(m, obj);
      if (!isObj(it)) typeError("Result of the Symbol.asyncIterator method is not an object");
      return it;
    }
    const sm = obj[Symbol.iterator];
    if (!isCallable(sm)) typeError(toStr(obj) + " is not async iterable");
    const it = call(sm, obj);
    if (!isObj(it)) typeError("Result of the Symbol.iterator method is not an object");
    return asyncFromSync(it, it.next);
  };
}
