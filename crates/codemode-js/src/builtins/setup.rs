//! The intrinsics' setup: prototypes, well-known symbols, every native installed where its
//! path says, constructors linked to their prototypes, and the global constants.

use super::*;

/// Create the intrinsics and install every native into `vm`.
pub fn setup(vm: &mut Vm) -> Res<()> {
    let h = &mut vm.heap;
    let object_proto = h.new_obj(None, Kind::Ordinary)?;
    let function_proto = h.new_obj(Some(object_proto), Kind::Function(Func::Native(u16::MAX)))?;
    vm.intr.object_proto = Some(object_proto);
    vm.intr.function_proto = Some(function_proto);
    let mk =
        |vm: &mut Vm, kind: Kind| -> Res<ObjId> { Ok(vm.heap.new_obj(Some(object_proto), kind)?) };
    vm.intr.array_proto = Some(mk(vm, Kind::Array(Elems::new()))?);
    let empty = vm.heap.new_str(JsStr::from_str(""))?;
    vm.intr.string_proto = Some(mk(vm, Kind::String(empty))?);
    vm.intr.number_proto = Some(mk(vm, Kind::Number(0.0))?);
    vm.intr.boolean_proto = Some(mk(vm, Kind::Boolean(false))?);
    vm.intr.symbol_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.iterator_proto = Some(mk(vm, Kind::Ordinary)?);
    for slot in 0..4 {
        let p = Some(vm.heap.new_obj(vm.intr.iterator_proto, Kind::Ordinary)?);
        match slot {
            0 => vm.intr.array_iter_proto = p,
            1 => vm.intr.map_iter_proto = p,
            2 => vm.intr.set_iter_proto = p,
            _ => vm.intr.string_iter_proto = p,
        }
    }
    vm.intr.map_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.set_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.weak_map_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.weak_set_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.regexp_proto = Some(mk(vm, Kind::Ordinary)?);
    vm.intr.promise_proto = Some(mk(vm, Kind::Ordinary)?);
    super::platform::prototypes(vm)?;
    let iter_proto = vm.intr.iterator_proto;
    vm.intr.generator_proto = Some(vm.heap.new_obj(iter_proto, Kind::Ordinary)?);
    let async_iter_proto = mk(vm, Kind::Ordinary)?;
    vm.intr.async_generator_proto = Some(vm.heap.new_obj(Some(async_iter_proto), Kind::Ordinary)?);
    for slot in 0..3 {
        let p = vm.heap.new_obj(Some(function_proto), Kind::Ordinary)?;
        match slot {
            0 => vm.intr.async_function_proto = Some(p),
            1 => vm.intr.generator_function_proto = Some(p),
            _ => vm.intr.async_generator_function_proto = Some(p),
        }
    }
    let error_proto = mk(vm, Kind::Ordinary)?;
    vm.intr.error_proto = Some(error_proto);
    for slot in 0..7 {
        let p = vm.heap.new_obj(Some(error_proto), Kind::Ordinary)?;
        match slot {
            0 => vm.intr.type_error_proto = Some(p),
            1 => vm.intr.range_error_proto = Some(p),
            2 => vm.intr.reference_error_proto = Some(p),
            3 => vm.intr.syntax_error_proto = Some(p),
            4 => vm.intr.eval_error_proto = Some(p),
            5 => vm.intr.uri_error_proto = Some(p),
            _ => vm.intr.aggregate_error_proto = Some(p),
        }
    }
    vm.function_props(function_proto, "", 0)?;
    let global = vm.global;
    vm.heap.obj_mut(global).proto = Some(object_proto);
    for (name, desc) in [
        ("iterator", "Symbol.iterator"),
        ("asyncIterator", "Symbol.asyncIterator"),
        ("toPrimitive", "Symbol.toPrimitive"),
        ("toStringTag", "Symbol.toStringTag"),
        ("hasInstance", "Symbol.hasInstance"),
        ("isConcatSpreadable", "Symbol.isConcatSpreadable"),
    ] {
        let d = vm.heap.new_str(JsStr::from_str(desc))?;
        let s = vm.heap.new_symbol(Some(d))?;
        match name {
            "iterator" => vm.intr.sym_iterator = Some(s),
            "asyncIterator" => vm.intr.sym_async_iterator = Some(s),
            "toPrimitive" => vm.intr.sym_to_primitive = Some(s),
            "toStringTag" => vm.intr.sym_to_string_tag = Some(s),
            "hasInstance" => vm.intr.sym_has_instance = Some(s),
            _ => vm.intr.sym_is_concat_spreadable = Some(s),
        }
    }
    let math = mk(vm, Kind::Ordinary)?;
    let json = mk(vm, Kind::Ordinary)?;
    let console = mk(vm, Kind::Ordinary)?;
    let intrinsics = mk(vm, Kind::Ordinary)?;
    let reflect = mk(vm, Kind::Ordinary)?;
    let mut ctors: Vec<(String, ObjId)> = Vec::new();
    for (i, (path, _, length)) in NATIVES.iter().enumerate() {
        let (owner, name) = match path.rsplit_once('.') {
            Some((o, n)) => (Some(o), n),
            None => (None, *path),
        };
        let f = vm
            .heap
            .new_obj(Some(function_proto), Kind::Function(Func::Native(i as u16)))?;
        vm.function_props(f, name, *length)?;
        let target = match owner {
            None => {
                ctors.push((name.to_string(), f));
                global
            }
            Some("Reflect") => reflect,
            Some(o) => resolve_owner(vm, o, &ctors, math, json, console, intrinsics)?,
        };
        let key = vm.heap.key(name);
        vm.define(target, key, Slot::Data(Value::Obj(f)), HIDDEN_ATTRS)?;
    }
    // Constructors and their prototypes.
    for (name, ctor) in &ctors {
        let proto = match name.as_str() {
            "Object" => Some(object_proto),
            "Array" => vm.intr.array_proto,
            "String" => vm.intr.string_proto,
            "Number" => vm.intr.number_proto,
            "Boolean" => vm.intr.boolean_proto,
            "Symbol" => vm.intr.symbol_proto,
            "Map" => vm.intr.map_proto,
            "Set" => vm.intr.set_proto,
            "Error" => vm.intr.error_proto,
            "TypeError" => vm.intr.type_error_proto,
            "RangeError" => vm.intr.range_error_proto,
            "ReferenceError" => vm.intr.reference_error_proto,
            "SyntaxError" => vm.intr.syntax_error_proto,
            "EvalError" => vm.intr.eval_error_proto,
            "URIError" => vm.intr.uri_error_proto,
            "AggregateError" => vm.intr.aggregate_error_proto,
            "Function" => vm.intr.function_proto,
            "WeakMap" => vm.intr.weak_map_proto,
            "WeakSet" => vm.intr.weak_set_proto,
            "RegExp" => vm.intr.regexp_proto,
            "Iterator" => vm.intr.iterator_proto,
            name if super::platform::proto_of(vm, name).is_some() => {
                super::platform::proto_of(vm, name)
            }
            "Promise" => {
                vm.intr.promise_ctor = Some(*ctor);
                vm.intr.promise_proto
            }
            _ => None,
        };
        if let Some(p) = proto {
            let k = vm.heap.key("prototype");
            vm.define(*ctor, k, Slot::Data(Value::Obj(p)), 0)?;
            let k = vm.heap.key("constructor");
            vm.define(p, k, Slot::Data(Value::Obj(*ctor)), HIDDEN_ATTRS)?;
            if name.ends_with("Error") {
                let n = vm.str_val(name)?;
                let k = vm.heap.key("name");
                vm.define(p, k, Slot::Data(n), HIDDEN_ATTRS)?;
                let m = vm.str_val("")?;
                let k = vm.heap.key("message");
                vm.define(p, k, Slot::Data(m), HIDDEN_ATTRS)?;
            }
        }
        if name.ends_with("Error") && name != "Error" {
            let e = ctors.iter().find(|(n, _)| n == "Error").map(|(_, o)| *o);
            vm.heap.obj_mut(*ctor).proto = e;
        }
    }
    // Symbol.iterator of arrays, strings' iterator, well-known symbols on Symbol.
    let values = vm.get_simple(Value::Obj(vm.intr.array_proto.expect("array")), "values")?;
    let sym = Key::Sym(vm.intr.sym_iterator.expect("sym"));
    vm.define(
        vm.intr.array_proto.expect("array"),
        sym,
        Slot::Data(values),
        HIDDEN_ATTRS,
    )?;
    let symbol_ctor = ctors.iter().find(|(n, _)| n == "Symbol").map(|(_, o)| *o);
    if let Some(sc) = symbol_ctor {
        for (name, s) in [
            ("iterator", vm.intr.sym_iterator),
            ("asyncIterator", vm.intr.sym_async_iterator),
            ("toPrimitive", vm.intr.sym_to_primitive),
            ("toStringTag", vm.intr.sym_to_string_tag),
            ("hasInstance", vm.intr.sym_has_instance),
            ("isConcatSpreadable", vm.intr.sym_is_concat_spreadable),
        ] {
            let k = vm.heap.key(name);
            vm.define(sc, k, Slot::Data(Value::Sym(s.expect("symbol"))), 0)?;
        }
    }
    for (name, v) in [
        ("NaN", Value::Num(f64::NAN)),
        ("Infinity", Value::Num(f64::INFINITY)),
        ("undefined", Value::Undefined),
    ] {
        let k = vm.heap.key(name);
        vm.define(global, k, Slot::Data(v), 0)?;
    }
    let number = ctors
        .iter()
        .find(|(n, _)| n == "Number")
        .map(|(_, o)| *o)
        .expect("Number");
    for (name, v) in [
        ("MAX_SAFE_INTEGER", 9007199254740991.0),
        ("MIN_SAFE_INTEGER", -9007199254740991.0),
        ("EPSILON", f64::EPSILON),
        ("MAX_VALUE", f64::MAX),
        ("MIN_VALUE", 5e-324),
        ("POSITIVE_INFINITY", f64::INFINITY),
        ("NEGATIVE_INFINITY", f64::NEG_INFINITY),
        ("NaN", f64::NAN),
    ] {
        let k = vm.heap.key(name);
        vm.define(number, k, Slot::Data(Value::Num(v)), 0)?;
    }
    for (name, v) in [
        ("PI", std::f64::consts::PI),
        ("E", std::f64::consts::E),
        ("LN2", std::f64::consts::LN_2),
        ("LN10", std::f64::consts::LN_10),
        ("LOG2E", std::f64::consts::LOG2_E),
        ("LOG10E", std::f64::consts::LOG10_E),
        ("SQRT2", std::f64::consts::SQRT_2),
        ("SQRT1_2", std::f64::consts::FRAC_1_SQRT_2),
    ] {
        let k = vm.heap.key(name);
        vm.define(math, k, Slot::Data(Value::Num(v)), 0)?;
    }
    // Getters among the natives: a data property made an accessor named `get x`.
    let getters: Vec<(Option<ObjId>, &str)> = vec![(vm.intr.symbol_proto, "description")];
    for (owner, name) in getters {
        let owner = owner.expect("owner");
        let k = vm.heap.key(name);
        if let Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(f)),
            ..
        }) = vm.own(owner, k)
        {
            let n = vm.str_val(&format!("get {name}"))?;
            let nk = vm.heap.key("name");
            vm.define(f, nk, Slot::Data(n), CONFIGURABLE)?;
            vm.define(
                owner,
                k,
                Slot::Accessor(Value::Obj(f), Value::Undefined),
                CONFIGURABLE,
            )?;
        }
    }
    // Function.prototype[Symbol.hasInstance], from its hidden native.
    let k = vm.heap.key("functionHasInstance");
    if let Some(crate::heap::Prop {
        slot: Slot::Data(Value::Obj(f)),
        ..
    }) = vm.own(intrinsics, k)
    {
        if let Kind::Function(Func::Native(n)) = vm.heap.obj(f).kind {
            vm.intr.native_has_instance = n;
        }
        let n = vm.str_val("[Symbol.hasInstance]")?;
        let nk = vm.heap.key("name");
        vm.define(f, nk, Slot::Data(n), CONFIGURABLE)?;
        let sk = Key::Sym(vm.intr.sym_has_instance.expect("symbol"));
        vm.define(function_proto, sk, Slot::Data(Value::Obj(f)), 0)?;
    }
    // %ThrowTypeError% as Function.prototype's `caller` and `arguments`.
    let k = vm.heap.key("throwTypeErrorAccessor");
    if let Some(crate::heap::Prop {
        slot: Slot::Data(t @ Value::Obj(f)),
        ..
    }) = vm.own(intrinsics, k)
    {
        for (name, v) in [("length", Value::Num(0.0)), ("name", vm.str_val("")?)] {
            let k = vm.heap.key(name);
            vm.define(f, k, Slot::Data(v), 0)?;
        }
        vm.heap.obj_mut(f).extensible = false;
        vm.intr.throw_type_error = Some(f);
        for name in ["caller", "arguments"] {
            let k = vm.heap.key(name);
            vm.define(function_proto, k, Slot::Accessor(t, t), CONFIGURABLE)?;
        }
    }
    // Symbol.toStringTag of the namespaces and prototypes.
    let tag = Key::Sym(vm.intr.sym_to_string_tag.expect("symbol"));
    for (o, t) in [
        (Some(math), "Math"),
        (Some(json), "JSON"),
        (Some(reflect), "Reflect"),
        (vm.intr.symbol_proto, "Symbol"),
        (vm.intr.map_proto, "Map"),
        (vm.intr.set_proto, "Set"),
        (vm.intr.weak_map_proto, "WeakMap"),
        (vm.intr.weak_set_proto, "WeakSet"),
        (vm.intr.promise_proto, "Promise"),
        (vm.intr.array_iter_proto, "Array Iterator"),
        (vm.intr.map_iter_proto, "Map Iterator"),
        (vm.intr.set_iter_proto, "Set Iterator"),
        (vm.intr.string_iter_proto, "String Iterator"),
        (vm.intr.generator_proto, "Generator"),
        (vm.intr.async_generator_proto, "AsyncGenerator"),
        (vm.intr.async_function_proto, "AsyncFunction"),
        (vm.intr.generator_function_proto, "GeneratorFunction"),
        (
            vm.intr.async_generator_function_proto,
            "AsyncGeneratorFunction",
        ),
    ] {
        let v = vm.str_val(t)?;
        vm.define(o.expect("object"), tag, Slot::Data(v), CONFIGURABLE)?;
    }
    for (name, o) in [
        ("Math", math),
        ("JSON", json),
        ("Reflect", reflect),
        ("console", console),
        ("__intrinsics", intrinsics),
    ] {
        let k = vm.heap.key(name);
        vm.define(global, k, Slot::Data(Value::Obj(o)), HIDDEN_ATTRS)?;
    }
    let k = vm.heap.key("iteratorPrototype");
    let ip = vm.intr.iterator_proto.expect("iterator");
    vm.define(intrinsics, k, Slot::Data(Value::Obj(ip)), HIDDEN_ATTRS)?;
    let k = vm.heap.key("globalThis");
    vm.define(global, k, Slot::Data(Value::Obj(global)), HIDDEN_ATTRS)?;
    // The generator functions' prototypes and their instances' prototypes (§27.3, §27.4).
    for (f, p) in [
        (vm.intr.generator_function_proto, vm.intr.generator_proto),
        (
            vm.intr.async_generator_function_proto,
            vm.intr.async_generator_proto,
        ),
    ] {
        let (f, p) = (f.expect("function prototype"), p.expect("prototype"));
        let k = vm.heap.key("prototype");
        vm.define(f, k, Slot::Data(Value::Obj(p)), CONFIGURABLE)?;
        let k = vm.heap.key("constructor");
        vm.define(p, k, Slot::Data(Value::Obj(f)), CONFIGURABLE)?;
    }
    // %AsyncFunction%, %GeneratorFunction%, %AsyncGeneratorFunction%: each the `constructor`
    // of its prototype, inheriting from `Function` (§27.3.2, §27.3.3).
    let function_ctor = ctors.iter().find(|(n, _)| n == "Function").map(|(_, o)| *o);
    for (name, p) in [
        ("AsyncFunction", vm.intr.async_function_proto),
        ("GeneratorFunction", vm.intr.generator_function_proto),
        (
            "AsyncGeneratorFunction",
            vm.intr.async_generator_function_proto,
        ),
    ] {
        let k = vm.heap.key(name);
        let Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(ctor)),
            ..
        }) = vm.own(intrinsics, k)
        else {
            continue;
        };
        let p = p.expect("function prototype");
        vm.heap.obj_mut(ctor).proto = function_ctor;
        let k = vm.heap.key("prototype");
        vm.define(ctor, k, Slot::Data(Value::Obj(p)), 0)?;
        let k = vm.heap.key("constructor");
        vm.define(p, k, Slot::Data(Value::Obj(ctor)), CONFIGURABLE)?;
    }
    // %AsyncIteratorPrototype%, for the prelude (its `[Symbol.asyncIterator]`).
    let k = vm.heap.key("asyncIteratorPrototype");
    vm.define(
        intrinsics,
        k,
        Slot::Data(Value::Obj(async_iter_proto)),
        HIDDEN_ATTRS,
    )?;
    // The natives behind resolving functions and tool functions.
    for (name, slot) in [
        ("resolveFunction", 0),
        ("rejectFunction", 1),
        ("toolCall", 2),
        ("missingTool", 3),
        ("search", 4),
        ("extensionCall", 5),
        ("extensionAsync", 6),
    ] {
        let k = vm.heap.key(name);
        if let Some(crate::heap::Prop {
            slot: Slot::Data(Value::Obj(f)),
            ..
        }) = vm.own(intrinsics, k)
        {
            match slot {
                0 => vm.intr.resolve_fn = Some(f),
                1 => vm.intr.reject_fn = Some(f),
                2 => vm.intr.tool_fn = Some(f),
                3 => vm.intr.missing_tool_fn = Some(f),
                4 => {
                    let n = vm.str_val("search")?;
                    let nk = vm.heap.key("name");
                    vm.define(f, nk, Slot::Data(n), CONFIGURABLE)?;
                    vm.intr.search_fn = Some(f)
                }
                5 => vm.intr.extension_fn = Some(f),
                _ => vm.intr.extension_async_fn = Some(f),
            }
        }
    }
    super::regexp::setup(vm)?;
    super::platform::setup(vm)?;
    Ok(())
}

fn resolve_owner(
    vm: &mut Vm,
    owner: &str,
    ctors: &[(String, ObjId)],
    math: ObjId,
    json: ObjId,
    console: ObjId,
    intrinsics: ObjId,
) -> Res<ObjId> {
    Ok(match owner {
        "Math" => math,
        "JSON" => json,
        "console" => console,
        "%Intrinsics%" => intrinsics,
        "%IteratorPrototype%" => vm.intr.iterator_proto.expect("iter"),
        "%ArrayIteratorPrototype%" => vm.intr.array_iter_proto.expect("array iter"),
        "%MapIteratorPrototype%" => vm.intr.map_iter_proto.expect("map iter"),
        "%SetIteratorPrototype%" => vm.intr.set_iter_proto.expect("set iter"),
        "%StringIteratorPrototype%" => vm.intr.string_iter_proto.expect("string iter"),
        "Function.prototype" => vm.intr.function_proto.expect("fp"),
        "Object.prototype" => vm.intr.object_proto.expect("op"),
        "Array.prototype" => vm.intr.array_proto.expect("ap"),
        "String.prototype" => vm.intr.string_proto.expect("sp"),
        "Number.prototype" => vm.intr.number_proto.expect("np"),
        "Boolean.prototype" => vm.intr.boolean_proto.expect("bp"),
        "Symbol.prototype" => vm.intr.symbol_proto.expect("syp"),
        "Error.prototype" => vm.intr.error_proto.expect("ep"),
        "Map.prototype" => vm.intr.map_proto.expect("mp"),
        "Set.prototype" => vm.intr.set_proto.expect("setp"),
        "WeakMap.prototype" => vm.intr.weak_map_proto.expect("wmp"),
        "WeakSet.prototype" => vm.intr.weak_set_proto.expect("wsp"),
        "RegExp.prototype" => vm.intr.regexp_proto.expect("rxp"),
        "Promise.prototype" => vm.intr.promise_proto.expect("pp"),
        "%GeneratorPrototype%" => vm.intr.generator_proto.expect("gp"),
        "%AsyncGeneratorPrototype%" => vm.intr.async_generator_proto.expect("agp"),
        other => match super::platform::owner(vm, other) {
            Some(o) => o,
            None => ctors
                .iter()
                .find(|(n, _)| n == other)
                .map(|(_, o)| *o)
                .unwrap_or(vm.global),
        },
    })
}
