//! `Promise` (ECMA-262 §27.2), the generator objects' methods (§27.5.1), `queueMicrotask`,
//! and the hidden helpers `prelude/promise.js` builds the rest of `Promise` on (the
//! combinators, `catch`, `finally`, `resolve`, `reject`, `withResolvers`, `try`: they call user
//! code, so they are JavaScript). The machinery (states, reactions, jobs, coroutines) is
//! `crate::vm::coro`.

use super::*;
use crate::vm::coro::{Cap, CoroKind, CoroState, Finish, Job, Mode, Reaction, Tail};

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Promise", promise_ctor, 1),
    ("Promise.prototype.then", promise_then, 2),
    ("queueMicrotask", queue_microtask, 1),
    ("%GeneratorPrototype%.next", gen_next, 1),
    ("%GeneratorPrototype%.return", gen_return, 1),
    ("%GeneratorPrototype%.throw", gen_throw, 1),
    ("%AsyncGeneratorPrototype%.next", ag_next, 1),
    ("%AsyncGeneratorPrototype%.return", ag_return, 1),
    ("%AsyncGeneratorPrototype%.throw", ag_throw, 1),
    ("%Intrinsics%.resolveFunction", resolve_function, 1),
    ("%Intrinsics%.rejectFunction", reject_function, 1),
    ("%Intrinsics%.isPromise", intr_is_promise, 1),
    ("%Intrinsics%.resolvedPromise", intr_resolved_promise, 1),
    ("%Intrinsics%.promiseFulfill", intr_fulfill, 2),
    ("%Intrinsics%.promiseReject", intr_reject, 2),
    ("%Intrinsics%.enqueueThenable", intr_enqueue_thenable, 3),
    ("%Intrinsics%.performThen", intr_perform_then, 4),
];

fn this_promise(vm: &mut Vm, this: Value, what: &str) -> Res<ObjId> {
    match this {
        Value::Obj(o) if vm.is_promise(this) => Ok(o),
        _ => {
            let shown = super::errors::describe(vm, this)?;
            Err(vm.type_error(&format!(
                "Method Promise.prototype.{what} called on incompatible receiver {shown}"
            )))
        }
    }
}

/// `new Promise(executor)` (§27.2.3.1): the executor runs in place of this native, with the
/// promise's resolving functions; its exception rejects the promise.
fn promise_ctor(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Some(o) = vm.native_construct else {
        return Err(vm.type_error("Promise constructor cannot be invoked without 'new'"));
    };
    let executor = arg(args, 0);
    if !vm.is_callable(executor) {
        let shown = super::errors::describe(vm, executor)?;
        return Err(vm.type_error(&format!("Promise resolver {shown} is not a function")));
    }
    vm.init_promise(o)?;
    let (state, res, rej) = vm.resolving_functions(o)?;
    vm.tail = Some(Tail::Call {
        f: executor,
        this: Value::Undefined,
        args: vec![res, rej],
        finish: Finish::Executor { state, promise: o },
    });
    Ok(Value::Obj(o))
}

/// `promise.then(onFulfilled, onRejected)` (§27.2.5.4): a promise whose `constructor` is
/// `Promise` gets a native derived promise; any other goes through the prelude's `thenSlow`
/// (SpeciesConstructor and NewPromiseCapability call user code).
fn promise_then(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let p = this_promise(vm, this, "then")?;
    let on_fulfilled = callable_or_undefined(vm, arg(args, 0));
    let on_rejected = callable_or_undefined(vm, arg(args, 1));
    let k = vm.heap.key("constructor");
    let plain = matches!(
        vm.lookup(this, k),
        Some(crate::heap::Prop { slot: Slot::Data(Value::Obj(c)), .. }) if Some(c) == vm.intr.promise_ctor
    );
    if !plain && let Some(slow) = vm.intr.then_slow {
        vm.tail = Some(Tail::Call {
            f: Value::Obj(slow),
            this: Value::Undefined,
            args: vec![this, on_fulfilled, on_rejected],
            finish: Finish::Normal,
        });
        return Ok(Value::Undefined);
    }
    let d = vm.new_promise(None)?;
    vm.perform_then(
        p,
        Reaction {
            on_fulfilled,
            on_rejected,
            cap: Cap::Promise(d),
            resume: None,
        },
    )?;
    Ok(Value::Obj(d))
}

fn callable_or_undefined(vm: &Vm, v: Value) -> Value {
    if vm.is_callable(v) {
        v
    } else {
        Value::Undefined
    }
}

/// `queueMicrotask(callback)`: a job calling it with no arguments.
fn queue_microtask(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let f = arg(args, 0);
    if !vm.is_callable(f) {
        let shown = inspect(vm, f)?;
        return Err(vm.type_error(&format!(
            "The \"callback\" argument must be of type function. Received {shown}"
        )));
    }
    vm.enqueue(Job::Call(f))?;
    Ok(Value::Undefined)
}

/// The promise of a resolving-functions record not used yet, marking it used
/// (alreadyResolved); None when it was.
fn first_use(vm: &mut Vm, this: Value) -> Option<ObjId> {
    let Value::Obj(state) = this else {
        return None;
    };
    let Kind::Resolving(p, already) = &mut vm.heap.obj_mut(state).kind else {
        return None;
    };
    if *already {
        return None;
    }
    *already = true;
    Some(*p)
}

/// The promise's resolving `resolve` (§27.2.1.3.2), bound to its record.
fn resolve_function(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Some(p) = first_use(vm, this) else {
        return Ok(Value::Undefined);
    };
    if let Some((f, a)) = vm.resolve_promise(p, arg(args, 0))? {
        vm.tail = Some(Tail::Call {
            f,
            this: Value::Undefined,
            args: a,
            finish: Finish::Normal,
        });
    }
    Ok(Value::Undefined)
}

/// The promise's resolving `reject` (§27.2.1.3.1).
fn reject_function(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Some(p) = first_use(vm, this) else {
        return Ok(Value::Undefined);
    };
    vm.promise_reject(p, arg(args, 0))?;
    Ok(Value::Undefined)
}

fn intr_is_promise(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    Ok(Value::Bool(vm.is_promise(arg(args, 0))))
}

/// `resolvedPromise(x)`: PromiseResolve(%Promise%, x) for a non-promise `x` without the
/// capability's closures: a new promise resolved with `x` (a thenable's `then` runs in a
/// job, as the resolving function would queue it). `undefined` when `x` has a `then`
/// accessor (user code to run now): the caller takes the general path.
fn intr_resolved_promise(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let x = arg(args, 0);
    if let Value::Obj(_) = x
        && let Some(crate::heap::Prop {
            slot: Slot::Accessor(..),
            ..
        }) = vm.lookup(x, vm.then_key)
    {
        return Ok(Value::Undefined);
    }
    let p = vm.new_promise(None)?;
    if let Some((f, args)) = vm.resolve_promise(p, x)? {
        // Not reached (no accessor): resolve as the resolving function would.
        vm.call(f, Value::Undefined, args, None, None)?;
    }
    Ok(Value::Obj(p))
}

fn promise_arg(vm: &mut Vm, v: Value) -> Res<ObjId> {
    match v {
        Value::Obj(o) if vm.is_promise(v) => Ok(o),
        _ => Err(vm.type_error("internal: not a promise")),
    }
}

fn intr_fulfill(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let p = promise_arg(vm, arg(args, 0))?;
    vm.promise_fulfill(p, arg(args, 1))?;
    Ok(Value::Undefined)
}

fn intr_reject(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let p = promise_arg(vm, arg(args, 0))?;
    vm.promise_reject(p, arg(args, 1))?;
    Ok(Value::Undefined)
}

fn intr_enqueue_thenable(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let p = promise_arg(vm, arg(args, 0))?;
    vm.enqueue(Job::Thenable {
        promise: p,
        thenable: arg(args, 1),
        then: arg(args, 2),
    })?;
    Ok(Value::Undefined)
}

/// `performThen(promise, onFulfilled, onRejected, capability)`: PerformPromiseThen with a
/// capability record (or none: `undefined`).
fn intr_perform_then(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let p = promise_arg(vm, arg(args, 0))?;
    let on_fulfilled = callable_or_undefined(vm, arg(args, 1));
    let on_rejected = callable_or_undefined(vm, arg(args, 2));
    let cap = match arg(args, 3) {
        Value::Obj(c) => Cap::Record(c),
        _ => Cap::None,
    };
    vm.perform_then(
        p,
        Reaction {
            on_fulfilled,
            on_rejected,
            cap,
            resume: None,
        },
    )?;
    Ok(Value::Undefined)
}

// ----- generators ---------------------------------------------------------------------

fn gen_resume(vm: &mut Vm, this: Value, mode: Mode, v: Value, what: &str) -> Res<Value> {
    let Some((c, CoroKind::Generator, state)) = vm.coro_of(this) else {
        let shown = match this {
            Value::Obj(_) => "#<Object>".to_string(),
            v => inspect(vm, v)?,
        };
        return Err(vm.type_error(&format!(
            "{what} method called on incompatible receiver {shown}"
        )));
    };
    match (state, mode) {
        (CoroState::Running, _) => Err(vm.type_error("Generator is already running")),
        (CoroState::Done, Mode::Next) => vm.iter_result(Value::Undefined, true),
        (CoroState::Done, Mode::Return) => vm.iter_result(v, true),
        (CoroState::Done, Mode::Throw) => Err(Throw::Js(v)),
        (CoroState::Start, Mode::Return) => {
            finish_unstarted(vm, c);
            vm.iter_result(v, true)
        }
        (CoroState::Start, Mode::Throw) => {
            finish_unstarted(vm, c);
            Err(Throw::Js(v))
        }
        _ => {
            vm.tail = Some(Tail::Resume {
                coro: c,
                mode,
                value: v,
                result: None,
            });
            Ok(Value::Undefined)
        }
    }
}

/// A generator closed before it started: its frame is dropped.
fn finish_unstarted(vm: &mut Vm, c: ObjId) {
    let co = vm.coro_mut(c);
    co.state = CoroState::Done;
    co.frame = None;
    co.regs = Vec::new();
}

fn gen_next(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    gen_resume(vm, this, Mode::Next, arg(args, 0), "next")
}

fn gen_return(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    gen_resume(vm, this, Mode::Return, arg(args, 0), "return")
}

fn gen_throw(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    gen_resume(vm, this, Mode::Throw, arg(args, 0), "throw")
}

// ----- async generators -----------------------------------------------------------------

fn ag_method(vm: &mut Vm, this: Value, mode: Mode, v: Value, what: &str) -> Res<Value> {
    let Some((c, CoroKind::AsyncGenerator, _)) = vm.coro_of(this) else {
        // A rejected promise, not a throw (§27.6.1.2 step 5).
        let p = vm.new_promise(None)?;
        let e = vm.type_error(&format!(
            "AsyncGenerator.prototype.{what} called on an object that is not an async generator"
        ));
        let Throw::Js(e) = e else { return Err(e) };
        vm.promise_reject(p, e)?;
        return Ok(Value::Obj(p));
    };
    vm.ag_request(c, mode, v)
}

fn ag_next(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    ag_method(vm, this, Mode::Next, arg(args, 0), "next")
}

fn ag_return(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    ag_method(vm, this, Mode::Return, arg(args, 0), "return")
}

fn ag_throw(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    ag_method(vm, this, Mode::Throw, arg(args, 0), "throw")
}
