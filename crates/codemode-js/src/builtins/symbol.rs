//! `Symbol` and `Symbol.prototype`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("Symbol", symbol_ctor, 0),
    ("Symbol.prototype.toString", symbol_to_string, 0),
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

pub(super) fn symbol_to_string(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let Value::Sym(s) = this else {
        return Err(vm.type_error("Symbol.prototype.toString requires that 'this' be a Symbol"));
    };
    let d = vm.heap.symbols[s.0 as usize].map_or(String::new(), |d| vm.heap.str(d).to_rust());
    vm.str_val(&format!("Symbol({d})"))
}
