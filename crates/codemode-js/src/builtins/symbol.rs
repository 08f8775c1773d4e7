//! `Symbol` (with the global registry of `Symbol.for`/`keyFor`) and `Symbol.prototype`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Symbol", symbol_ctor, 0),
    ("Symbol.for", symbol_for, 1),
    ("Symbol.keyFor", symbol_key_for, 1),
    ("Symbol.prototype.toString", symbol_to_string, 0),
    ("Symbol.prototype.valueOf", symbol_value_of, 0),
    // Made a getter by the setup.
    ("Symbol.prototype.description", symbol_description, 0),
];

pub(super) fn symbol_ctor(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    if let Value::Obj(o) = this
        && vm.heap.obj(o).proto == vm.intr.symbol_proto
    {
        return Err(vm.type_error("Symbol is not a constructor"));
    }
    let d = match arg(args, 0) {
        Value::Undefined => None,
        v => Some(vm.to_string(v)?),
    };
    Ok(Value::Sym(vm.heap.new_symbol(d)?))
}

/// `Symbol.for(key)`: the registry's symbol for the string, made on first use.
pub(super) fn symbol_for(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let key = vm.to_string(arg(args, 0))?;
    vm.work(vm.heap.registry.len() / 16);
    let found = vm.heap.registry.iter().copied().find(|s| {
        vm.heap.symbols[s.0 as usize].is_some_and(|d| vm.heap.str(d) == vm.heap.str(key))
    });
    if let Some(s) = found {
        return Ok(Value::Sym(s));
    }
    let s = vm.heap.new_symbol(Some(key))?;
    vm.heap.charge(8)?;
    vm.heap.registry.push(s);
    Ok(Value::Sym(s))
}

/// `Symbol.keyFor(sym)`: the registry key of a registered symbol, else undefined.
pub(super) fn symbol_key_for(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    let Value::Sym(s) = arg(args, 0) else {
        let t = inspect(vm, arg(args, 0))?;
        return Err(vm.type_error(&format!("{t} is not a symbol")));
    };
    if !vm.heap.registry.contains(&s) {
        return Ok(Value::Undefined);
    }
    Ok(vm.heap.symbols[s.0 as usize].map_or(Value::Undefined, Value::Str))
}

/// thisSymbolValue (§20.4.3): a symbol, or a Symbol wrapper's symbol.
fn this_symbol(vm: &mut Vm, this: Value, method: &str) -> Res<SymId> {
    match this {
        Value::Sym(s) => Ok(s),
        _ => Err(vm.type_error(&format!(
            "Symbol.prototype.{method} requires that 'this' be a Symbol"
        ))),
    }
}

pub(super) fn symbol_value_of(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    Ok(Value::Sym(this_symbol(vm, this, "valueOf")?))
}

/// `get Symbol.prototype.description`.
pub(super) fn symbol_description(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_symbol(vm, this, "description")?;
    Ok(vm.heap.symbols[s.0 as usize].map_or(Value::Undefined, Value::Str))
}

pub(super) fn symbol_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let s = this_symbol(vm, this, "toString")?;
    let d = vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
    vm.str_val(&format!("Symbol({d})"))
}
