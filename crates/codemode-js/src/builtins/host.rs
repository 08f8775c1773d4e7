//! The host's globals: the `tools` namespace, `search`, and extension functions.
//!
//! - `tools.ns.name(input)` starts the call at once and returns a promise that settles once
//!   with the output (fresh data) or rejects with a `ToolError` (`name` "ToolError", the
//!   host's `message`, its `kind` such as "ToolFailure"). The host runs at most 8 at a time.
//! - `tools` and each namespace are frozen objects made once per run (`tools.a === tools.a`,
//!   `Object.keys(tools.orders)` lists the names); reading a name a namespace lacks gives a
//!   function whose call rejects with the host's unknown-tool error and suggestions.
//! - `search(query)` and extension functions are synchronous: the program waits for the
//!   reply, which is the call's value, or a thrown `ToolError`.

use codemode_guest::{CallMode, Env, ErrorKind, GuestError, HostTarget};

use super::*;
use crate::vm::Detour;

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("%Intrinsics%.toolCall", tool_call, 1),
    ("%Intrinsics%.missingTool", missing_tool, 1),
    ("%Intrinsics%.search", search, 1),
    ("%Intrinsics%.extensionCall", extension_call, 0),
    ("%Intrinsics%.extensionAsync", extension_async, 0),
];

/// The path a tool, missing-tool or extension function is bound to (its `this`).
fn path_of(vm: &Vm, this: Value) -> String {
    match this {
        Value::Str(s) => vm.heap.str(s).to_rust(),
        _ => String::new(),
    }
}

/// Export the arguments as `JSON.stringify` would write them; a value that cannot cross
/// refuses the call (the inner `Err`). An argument with a `toJSON` method or a getter in it
/// first goes through the prelude's `exportPrepare` in the loop ([`Detour::Prepare`]): the
/// instruction runs again and finds the prepared copy among the frame's conversions.
fn export_args(vm: &mut Vm, args: &[Value]) -> Res<Result<Vec<serde_json::Value>, GuestError>> {
    let n = args
        .iter()
        .rposition(|v| *v != Value::Undefined)
        .map_or(0, |i| i + 1);
    let mut out = Vec::with_capacity(n);
    for (i, a) in args[..n].iter().enumerate() {
        let what = if n == 1 {
            std::borrow::Cow::Borrowed("input")
        } else {
            std::borrow::Cow::Owned(format!("argument {}", i + 1))
        };
        use crate::boundary::CallInput;
        let (v, prepared) = match vm.frames_conversion(Detour::Prepare(*a)) {
            Some(p) => (p, true),
            None => (*a, false),
        };
        match crate::boundary::export_call_input(vm, v, &what, prepared) {
            CallInput::Done(j) => out.push(j),
            CallInput::Invalid(e) => return Ok(Err(e)),
            // Inline and large: the instruction runs again on the blocking pool.
            CallInput::Slow => return Err(Throw::Suspend),
            CallInput::UserCode => {
                let Some(f) = vm.intr.export_prepare else {
                    return Err(Throw::Fatal(GuestError::new(
                        ErrorKind::ExecutionFailure,
                        "internal error: the standard library has no exportPrepare",
                    )));
                };
                return Err(Throw::Convert(
                    Value::Obj(f),
                    Value::Undefined,
                    Detour::Prepare(*a),
                ));
            }
        }
    }
    Ok(Ok(out))
}

/// Start an asynchronous call and return its promise.
fn start_async(
    vm: &mut Vm,
    target: HostTarget,
    args: Vec<serde_json::Value>,
    refused: Option<GuestError>,
) -> Res<Value> {
    let p = vm.new_promise(None)?;
    let id = vm.start_host_call(target, args, CallMode::Continue, refused)?;
    let at = vm.host.started.last().and_then(|c| c.location);
    vm.host.waiting.insert(id, (p, at));
    Ok(Value::Obj(p))
}

/// `tools.ns.name(input)`.
fn tool_call(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let path = path_of(vm, this);
    match export_args(vm, args)? {
        Ok(a) => start_async(vm, HostTarget::Tool(path), a, None),
        Err(e) => start_async(vm, HostTarget::Tool(path), Vec::new(), Some(e)),
    }
}

/// A name no tool has: the host answers with its unknown-tool error.
fn missing_tool(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let path = path_of(vm, this);
    let a = export_args(vm, args)?.unwrap_or_default();
    let refused = match vm.host.missing.clone() {
        Some(m) => {
            let rank = vm.host.ranked < crate::limits::MAX_SUGGESTION_LOOKUPS;
            if rank {
                vm.host.ranked += 1;
                vm.work(crate::limits::SUGGESTION_LOOKUP_WORK);
            }
            m.0.missing(&path, rank)
        }
        None => GuestError::new(
            ErrorKind::UnknownTool,
            format!("unknown tool 'tools.{path}': no tool has this path"),
        ),
    };
    start_async(vm, HostTarget::Tool(path), a, Some(refused))
}

/// A synchronous call: the first run starts it and suspends the instruction; the second
/// (once the reply is in) returns its value or throws.
fn sync_call(vm: &mut Vm, target: HostTarget, args: &[Value]) -> Res<Value> {
    if let Some(reply) = vm.host.sync_reply.take() {
        return vm.sync_result(reply);
    }
    let (a, refused) = match export_args(vm, args)? {
        Ok(a) => (a, None),
        Err(e) => (Vec::new(), Some(e)),
    };
    let id = vm.start_host_call(target, a, CallMode::Suspend, refused)?;
    vm.host.sync_wait = Some(id);
    Err(Throw::Suspend)
}

/// `search(query)`.
fn search(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    sync_call(vm, HostTarget::Search, args)
}

/// An extension function (bound to its dotted path).
fn extension_call(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let path = path_of(vm, this);
    sync_call(vm, HostTarget::Extension(path), args)
}

/// An asynchronous extension function: returns a promise of its reply.
fn extension_async(vm: &mut Vm, this: Value, args: &[Value]) -> Res<Value> {
    let path = path_of(vm, this);
    match export_args(vm, args)? {
        Ok(a) => start_async(vm, HostTarget::Extension(path), a, None),
        Err(e) => start_async(vm, HostTarget::Extension(path), Vec::new(), Some(e)),
    }
}

/// A function bound to `path` over the hidden native `target`, named `name`.
fn bound_fn(vm: &mut Vm, target: ObjId, path: &str, name: &str, length: u16) -> Res<ObjId> {
    let p = vm.str_val(path)?;
    let f = vm.heap.new_obj(
        vm.intr.function_proto,
        Kind::Function(Func::Bound {
            target,
            this: p,
            args: Vec::new(),
        }),
    )?;
    vm.function_props(f, name, length)?;
    Ok(f)
}

/// The function a missing name of the `tools` namespace reads as.
pub(crate) fn missing_fn(vm: &mut Vm, parent: &str, key: &str) -> Res<Value> {
    let Some(t) = vm.intr.missing_tool_fn else {
        return Ok(Value::Undefined);
    };
    let path = if parent.is_empty() {
        key.to_string()
    } else {
        format!("{parent}.{key}")
    };
    Ok(Value::Obj(bound_fn(vm, t, &path, key, 1)?))
}

/// The dotted path of a `tools` node (a namespace, a missing-tool function, or a tool that
/// is also a namespace: `issues` beside `issues.list`).
pub(crate) fn tool_node_path(vm: &Vm, o: ObjId) -> Option<String> {
    let obj = vm.heap.obj(o);
    match &obj.kind {
        Kind::ToolNs(s) => Some(vm.heap.str(*s).to_rust()),
        Kind::Function(Func::Bound { target, this, .. })
            if Some(*target) == vm.intr.missing_tool_fn =>
        {
            Some(path_of(vm, *this))
        }
        // A tool's children are its own enumerable properties.
        Kind::Function(Func::Bound { target, this, .. })
            if Some(*target) == vm.intr.tool_fn
                && obj.props.list.iter().any(|p| p.attrs & ENUMERABLE != 0) =>
        {
            Some(path_of(vm, *this))
        }
        _ => None,
    }
}

/// Install `tools`, `search` and the extension globals the host provides.
pub fn install(vm: &mut Vm, env: &Env) -> Res<()> {
    use std::collections::BTreeMap;
    vm.host.missing = env.missing.clone().map(crate::vm::coro::Missing);
    let global = vm.global;
    // Every node: path → is a tool.
    let mut nodes: BTreeMap<String, bool> = BTreeMap::new();
    nodes.insert(String::new(), false);
    for p in &env.tool_paths {
        let segs: Vec<&str> = p.split('.').collect();
        if segs.iter().any(|s| s.is_empty()) {
            continue;
        }
        for i in 1..segs.len() {
            nodes.entry(segs[..i].join(".")).or_insert(false);
        }
        nodes.insert(p.clone(), true);
    }
    let tool_fn = vm.intr.tool_fn;
    let mut objs: BTreeMap<String, ObjId> = BTreeMap::new();
    for (path, is_tool) in &nodes {
        let name = path.rsplit('.').next().unwrap_or("");
        let o = match (is_tool, tool_fn) {
            (true, Some(t)) => bound_fn(vm, t, path, name, 1)?,
            _ => {
                let s = vm.heap.new_str(crate::string::JsStr::from_str(path))?;
                vm.heap.new_obj(vm.intr.object_proto, Kind::ToolNs(s))?
            }
        };
        objs.insert(path.clone(), o);
    }
    for (path, o) in &objs {
        if path.is_empty() {
            continue;
        }
        let (parent, seg) = match path.rfind('.') {
            Some(i) => (&path[..i], &path[i + 1..]),
            None => ("", path.as_str()),
        };
        let Some(&po) = objs.get(parent) else {
            continue;
        };
        let key = vm.heap.key_of(&crate::string::JsStr::from_str(seg))?;
        vm.define(po, key, Slot::Data(Value::Obj(*o)), ENUMERABLE)?;
    }
    for o in objs.values() {
        set_integrity(vm, *o, true);
    }
    let k = vm.heap.key("tools");
    vm.define(global, k, Slot::Data(Value::Obj(objs[""])), HIDDEN_ATTRS)?;
    // `search`: the hidden native under its public name.
    if let Some(s) = vm.intr.search_fn {
        let ik = vm.heap.key("search");
        vm.define(global, ik, Slot::Data(Value::Obj(s)), HIDDEN_ATTRS)?;
    }
    // Extensions: each first segment a global, deeper segments nested objects.
    let Some(ext) = vm.intr.extension_fn else {
        return Ok(());
    };
    for path in &env.extension_paths {
        let segs: Vec<&str> = path.split('.').collect();
        if segs.iter().any(|s| s.is_empty()) {
            continue;
        }
        if !vm.host.modules.iter().any(|m| m == segs[0]) {
            vm.host.modules.push(segs[0].to_string());
        }
        let mut owner = global;
        for (i, seg) in segs.iter().enumerate() {
            let key = vm.heap.key_of(&crate::string::JsStr::from_str(seg))?;
            if i + 1 == segs.len() {
                let target = match vm.intr.extension_async_fn {
                    Some(a) if env.async_extension_paths.contains(path) => a,
                    _ => ext,
                };
                let f = bound_fn(vm, target, path, seg, 0)?;
                vm.define(owner, key, Slot::Data(Value::Obj(f)), HIDDEN_ATTRS)?;
                break;
            }
            owner = match vm.own(owner, key) {
                Some(crate::heap::Prop {
                    slot: Slot::Data(Value::Obj(o)),
                    ..
                }) => o,
                _ => {
                    let o = vm.new_object()?;
                    vm.define(owner, key, Slot::Data(Value::Obj(o)), HIDDEN_ATTRS)?;
                    o
                }
            };
        }
    }
    Ok(())
}
