//! Modules as Node names them, over the globals the host provides (no packages exist):
//! `import fs, { readFile } from "node:fs"`, `import * as u from "url"`,
//! `const m = require("fs")`, `await import("fs")`, TypeScript's `import fs = require("fs")`.
//!
//! A module name (with or without `node:`) resolves, in this order:
//! 1. `fs/promises` → the `promises` member of the `fs` module;
//! 2. the extension global of that name, when the host provides one (`fs`, `crypto`, ...):
//!    the module *is* that global (`import fs from "fs"` gives it; `import { readFile }` reads
//!    its member);
//! 3. a Node module that is a standard global of its name ([`GLOBAL_MODULES`]: `crypto`), or
//!    whose members are built-in globals ([`BUILTIN_MODULES`]: `url`, `util`, `buffer`): a
//!    frozen object of those of its globals that exist, one per run;
//! 4. anything else throws `Error: Cannot find module 'x'` (`code` "MODULE_NOT_FOUND"), with a
//!    hint naming the modules that exist.
//!
//! A named import the module lacks is V8's `SyntaxError: The requested module 'fs' does not
//! provide an export named 'x'`, with a hint listing its members. A namespace (`import * as`,
//! `import()`) is a fresh frozen object of the module's members plus `default` (the module).
//! Imports are evaluated before the program's first statement, in source order.

use super::*;
use crate::heap::Prop;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[("require", require, 1)];

/// Node modules whose members are standard globals, when no extension global has the name.
pub const BUILTIN_MODULES: &[(&str, &[&str])] = &[
    ("url", &["URL", "URLSearchParams"]),
    ("util", &["TextEncoder", "TextDecoder"]),
    ("buffer", &["Blob", "atob", "btoa"]),
];

/// Node modules that are a standard global object of the same name (`crypto`: its
/// `randomUUID`), when no extension global has the name.
pub const GLOBAL_MODULES: &[&str] = &["crypto"];

/// How a module is wanted (the `u8` operand of `Op::Import`).
pub const IMPORT_MODULE: u8 = 0;
/// `import * as ns`: the namespace object.
pub const IMPORT_NAMESPACE: u8 = 1;
/// `import(x)`: a promise of the namespace object.
pub const IMPORT_DYNAMIC: u8 = 2;

/// `require(id)`.
fn require(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    resolve(vm, arg(args, 0))
}

/// The module `spec` names (see the module docs).
pub fn resolve(vm: &mut Vm, spec: Value) -> Res<Value> {
    let Value::Str(s) = spec else {
        let shown = super::inspect(vm, spec)?;
        return Err(vm.type_error(&format!(
            "The \"id\" argument must be of type string. Received {shown}"
        )));
    };
    let text = vm.heap.str(s).to_rust();
    let name = text.strip_prefix("node:").unwrap_or(&text).to_string();
    if let Some(m) = find(vm, &name)? {
        return Ok(m);
    }
    Err(not_found(vm, &text))
}

fn find(vm: &mut Vm, name: &str) -> Res<Option<Value>> {
    if name == "fs/promises" {
        let Some(fs) = find(vm, "fs")? else {
            return Ok(None);
        };
        let p = vm.get_simple(fs, "promises")?;
        return Ok(matches!(p, Value::Obj(_)).then_some(p));
    }
    if vm.host.modules.iter().any(|m| m == name) || GLOBAL_MODULES.contains(&name) {
        let k = vm.heap.key_of(&JsStr::from_str(name))?;
        if let Some(Prop {
            slot: Slot::Data(v @ Value::Obj(_)),
            ..
        }) = vm.own(vm.global, k)
        {
            return Ok(Some(v));
        }
    }
    if let Some((_, o)) = vm.host.module_cache.iter().find(|(n, _)| n == name) {
        return Ok(Some(Value::Obj(*o)));
    }
    let Some((_, members)) = BUILTIN_MODULES.iter().find(|(n, _)| *n == name) else {
        return Ok(None);
    };
    let mut found = Vec::new();
    for m in *members {
        let k = vm.heap.key(m);
        if let Some(Prop {
            slot: Slot::Data(v),
            ..
        }) = vm.own(vm.global, k)
        {
            found.push((k, v));
        }
    }
    if found.is_empty() {
        return Ok(None);
    }
    let o = vm.new_object()?;
    for (k, v) in found {
        vm.define(o, k, Slot::Data(v), ENUMERABLE)?;
    }
    set_integrity(vm, o, true);
    vm.host.module_cache.push((name.to_string(), o));
    Ok(Some(Value::Obj(o)))
}

/// The names `import` and `require` resolve on this run.
fn available(vm: &mut Vm) -> Vec<String> {
    let mut names: Vec<String> = vm.host.modules.clone();
    for g in GLOBAL_MODULES {
        let k = vm.heap.key(g);
        if !names.iter().any(|n| n == g) && vm.own(vm.global, k).is_some() {
            names.push((*g).to_string());
        }
    }
    if names.iter().any(|n| n == "fs") {
        names.push("fs/promises".to_string());
    }
    for (name, members) in BUILTIN_MODULES {
        if names.iter().any(|n| n == name) {
            continue;
        }
        let exists = members.iter().any(|m| {
            let k = vm.heap.key(m);
            vm.own(vm.global, k).is_some()
        });
        if exists {
            names.push((*name).to_string());
        }
    }
    names
}

fn not_found(vm: &mut Vm, text: &str) -> Throw {
    let e = vm.make_error(vm.intr.error_proto, &format!("Cannot find module '{text}'"));
    if let Value::Obj(o) = e {
        let code = vm.str_val("MODULE_NOT_FOUND");
        if let Ok(code) = code {
            let k = vm.heap.key("code");
            let _ = vm.define(o, k, Slot::Data(code), DEFAULT_ATTRS);
        }
    }
    let names = available(vm);
    let have = if names.is_empty() {
        "this host provides none".to_string()
    } else {
        format!("the modules here are {}", names.join(", "))
    };
    let hint = format!(
        "No packages can be loaded: a module is a global the host provides, and {have}; call the tools through the `tools` object and use the built-in globals (JSON, Math, Array, ...) for the rest"
    );
    let name = text.strip_prefix("node:").unwrap_or(text);
    let suggestions = crate::hints::closest(name, &names).into_iter().collect();
    vm.hint = Some((e, hint, suggestions));
    Throw::Js(e)
}

/// The string-keyed own property names of `o`, hidden ones too (extension members are).
fn members(vm: &mut Vm, o: ObjId) -> Vec<(Key, String)> {
    own_keys(vm, o, false)
        .into_iter()
        .filter(|k| !matches!(k, Key::Sym(_)))
        .filter_map(|k| vm.heap.key_str(k).map(|s| (k, s.to_rust())))
        .collect()
}

/// `import * as ns from m` / `import(m)`: `{ default: m, ...members of m }`, frozen.
pub fn namespace(vm: &mut Vm, m: Value) -> Res<Value> {
    let ns = vm.heap.new_obj(None, Kind::Ordinary)?;
    if let Value::Obj(o) = m {
        for (k, name) in members(vm, o) {
            if name == "default" {
                continue;
            }
            let v = vm.get_value(m, k)?;
            vm.define(ns, k, Slot::Data(v), ENUMERABLE | WRITABLE)?;
        }
    }
    let k = vm.heap.key("default");
    vm.define(ns, k, Slot::Data(m), ENUMERABLE | WRITABLE)?;
    set_integrity(vm, ns, true);
    Ok(Value::Obj(ns))
}

/// The module of `spec` as `mode` wants it ([`IMPORT_MODULE`], [`IMPORT_NAMESPACE`],
/// [`IMPORT_DYNAMIC`]).
pub fn import(vm: &mut Vm, spec: Value, mode: u8) -> Res<Value> {
    if mode != IMPORT_DYNAMIC {
        let m = resolve(vm, spec)?;
        return if mode == IMPORT_NAMESPACE {
            namespace(vm, m)
        } else {
            Ok(m)
        };
    }
    let p = vm.new_promise(None)?;
    let spec = match spec {
        Value::Str(_) => spec,
        other => vm.to_string(other).map(Value::Str)?,
    };
    match resolve(vm, spec).and_then(|m| namespace(vm, m)) {
        Ok(ns) => vm.promise_fulfill(p, ns)?,
        Err(Throw::Js(e)) => vm.promise_reject(p, e)?,
        Err(t) => return Err(t),
    }
    Ok(Value::Obj(p))
}

/// `import { name } from "spec"`: the member `name` of module `m`, or V8's SyntaxError.
pub fn import_name(vm: &mut Vm, m: Value, spec: &str, name: Key) -> Res<Value> {
    if matches!(m, Value::Obj(_)) && vm.lookup(m, name).is_some() {
        return vm.get_value(m, name);
    }
    let text = vm
        .heap
        .key_str(name)
        .map(|s| s.to_rust())
        .unwrap_or_default();
    let Throw::Js(e) = vm.err_syntax(&format!(
        "The requested module '{spec}' does not provide an export named '{text}'"
    )) else {
        return Err(vm.err_syntax("import"));
    };
    let names: Vec<String> = match m {
        Value::Obj(o) => members(vm, o).into_iter().map(|(_, n)| n).collect(),
        _ => Vec::new(),
    };
    let hint = if names.is_empty() {
        format!("'{spec}' has no members; import it whole: `import m from \"{spec}\"`")
    } else {
        format!("its exports: {}", names.join(", "))
    };
    let suggestions = crate::hints::closest(&text, &names).into_iter().collect();
    vm.hint = Some((e, hint, suggestions));
    Err(Throw::Js(e))
}
