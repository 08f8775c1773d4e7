//! `Function` (which cannot build code from strings) and `Function.prototype`: `bind`,
//! `toString`, `[Symbol.hasInstance]`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Function", function_ctor, 1),
    // %AsyncFunction% and the generator function constructors (§27.3.1, §27.4.1, §27.7.1):
    // no globals, reached as `Object.getPrototypeOf(async () => {}).constructor`; the setup
    // links them to their prototypes.
    ("%Intrinsics%.AsyncFunction", function_ctor, 1),
    ("%Intrinsics%.GeneratorFunction", function_ctor, 1),
    ("%Intrinsics%.AsyncGeneratorFunction", function_ctor, 1),
    // Installed as `Function.prototype[Symbol.hasInstance]` by the setup.
    ("%Intrinsics%.functionHasInstance", function_has_instance, 1),
    // %ThrowTypeError%: `caller` and `arguments` of Function.prototype (§10.2.4.1).
    (
        "%Intrinsics%.throwTypeErrorAccessor",
        throw_type_error_accessor,
        0,
    ),
    ("Function.prototype.bind", function_bind, 1),
    ("Function.prototype.toString", function_to_string, 0),
];

pub(super) fn function_bind(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let Value::Obj(target) = this else {
        return Err(vm.type_error("Bind must be called on a function"));
    };
    if !matches!(vm.heap.obj(target).kind, Kind::Function(_)) {
        return Err(vm.type_error("Bind must be called on a function"));
    }
    let name = vm.get_simple(this, "name")?;
    let name = match name {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    };
    let len = vm.get_simple(this, "length")?;
    let len = match len {
        Value::Num(n) => (n - (args.len().saturating_sub(1)) as f64).max(0.0) as u16,
        _ => 0,
    };
    let f = vm.heap.new_obj(
        vm.intr.function_proto,
        Kind::Function(Func::Bound {
            target,
            this: arg(args, 0),
            args: args.iter().skip(1).copied().collect(),
        }),
    )?;
    vm.function_props(f, &format!("bound {name}"), len)?;
    Ok(Value::Obj(f))
}

pub(super) fn function_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let name = match this {
        Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_)) => {
            let n = vm.get_simple(this, "name")?;
            vm.to_rust_string(n)?
        }
        _ => {
            return Err(
                vm.type_error("Function.prototype.toString requires that 'this' be a Function")
            );
        }
    };
    vm.str_val(&format!("function {name}() {{ [native code] }}"))
}

/// The sentence `Function(...)` and `new Function(...)` throw: codemode compiles the program
/// once, before it runs.
pub const FUNCTION_CTOR_MESSAGE: &str = "Function(...) cannot build code from strings at run time: \
the program is compiled once before it runs. Write the function itself instead, e.g. \
`(a, b) => a + b` or `function f(a, b) { return a + b; }`";

/// `Function(...)`/`new Function(...)`: an EvalError (as V8 with code generation from strings
/// disallowed) saying what to write instead.
pub(super) fn function_ctor(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    let e = vm.make_error(vm.intr.eval_error_proto, FUNCTION_CTOR_MESSAGE);
    Err(Throw::Js(e))
}

/// %ThrowTypeError% (§10.2.4.1).
pub(super) fn throw_type_error_accessor(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    Err(vm.type_error(
        "'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them",
    ))
}

/// `Function.prototype[Symbol.hasInstance](v)`: OrdinaryHasInstance (§7.3.21).
pub(super) fn function_has_instance(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if !matches!(this, Value::Obj(o) if matches!(vm.heap.obj(o).kind, Kind::Function(_))) {
        return Ok(Value::Bool(false));
    }
    Ok(Value::Bool(vm.ordinary_has_instance(arg(args, 0), this)?))
}
