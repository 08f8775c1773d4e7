//! `Iterator` (ECMA-262 §27.1.3.1): the abstract constructor whose `prototype` is
//! %Iterator.prototype%; subclasses (`class Counter extends Iterator`) construct through it.
//! The helpers (`Iterator.from`, `map`, `filter`, `take`, `drop`, `flatMap`, `reduce`,
//! `toArray`, `forEach`, `some`, `every`, `find`) call user code, so they are in
//! `prelude/iterator.js`.

use super::*;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[("Iterator", iterator_ctor, 0)];

/// `new Iterator()` from a subclass: the object `new` made. Called without `new`, or with
/// `Iterator` itself as the new target (the object's prototype is %Iterator.prototype%), a
/// TypeError as V8 words it.
fn iterator_ctor(vm: &mut Vm, this: Value, _: &[Value]) -> Res<Value> {
    let Some(o) = vm.native_construct else {
        return Err(vm.type_error("Constructor Iterator requires 'new'"));
    };
    if vm.heap.obj(o).proto == vm.intr.iterator_proto {
        return Err(vm.type_error("Abstract class Iterator not directly constructable"));
    }
    Ok(this)
}
