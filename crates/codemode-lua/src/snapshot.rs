//! Durable executions: a [`LuaGuest`] waiting for a host call as bytes, and back.
//!
//! The bytes are a postcard encoding of a [`GuestImage`] behind a magic and a format version:
//! the program's source (compiled again on restore: the compiler is deterministic, so the
//! prototypes are the same), the arena (strings, tables with their hash slots as they are,
//! closures, upvalue cells, host objects by path, logs, the memory and fuel counters), the
//! frames and value stack, the waiting call and the call counters. Natives are the standard
//! library's, the same in every machine of this build: values name them by index, and the
//! count must match. Nothing of the host is inside: no handler, no policy, no deadline (the
//! restoring host gives those in its `Env` and `StartOptions`).
//!
//! Loading checks everything before the machine runs: the magic, the version, that the bytes
//! end where the image does, then every handle (in range and alive), every free list, every
//! frame against its function and the stack, every table's hash part against its probing,
//! every string interned once, and sizes against the memory held (at most the cap the host
//! restores under). A damaged snapshot is an `ExecutionFailure`, never a panic.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use codemode_guest::{
    CallId, DiagnosticKind, Env, ErrorKind, GuestError, HostTarget, Location, StartOptions, Warning,
};

use crate::vm::Vm;
use crate::vm::image::VmImage;
use crate::{Budgets, LuaGuest, Machine, compile_with, memory_cap, stdlib_template};

/// The first bytes of every Lua snapshot.
pub(crate) const MAGIC: &[u8; 8] = b"CMLUASNP";
/// The version of the encoding; a snapshot of another version is refused.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// A check's outcome while loading: `Err` says what is damaged.
pub(crate) type Damaged<T> = Result<T, String>;

/// `Ok` when `ok`, else the damage `why` describes.
pub(crate) fn check(ok: bool, why: impl FnOnce() -> String) -> Damaged<()> {
    if ok { Ok(()) } else { Err(why()) }
}

/// The damage `why`.
pub(crate) fn damaged(why: String) -> String {
    why
}

/// The error of a damaged snapshot.
fn damaged_error(why: &str) -> GuestError {
    GuestError {
        kind: ErrorKind::ExecutionFailure,
        message: format!(
            "the snapshot cannot be restored: {why}; it is damaged or was not made by this version of codemode, so run the program again from the start"
        ),
        location: None,
        suggestions: Vec::new(),
    }
}

/// The error of a snapshot taken at the wrong moment.
fn not_now(why: &str) -> GuestError {
    GuestError {
        kind: ErrorKind::ExecutionFailure,
        message: format!("the program cannot be snapshotted now: {why}"),
        location: None,
        suggestions: Vec::new(),
    }
}

/// A warning as plain data.
#[derive(Serialize, Deserialize)]
pub(crate) struct WarningImage {
    kind: DiagnosticKind,
    message: String,
    location: Option<Location>,
}

impl From<&Warning> for WarningImage {
    fn from(w: &Warning) -> Self {
        WarningImage {
            kind: w.kind,
            message: w.message.clone(),
            location: w.location,
        }
    }
}

impl From<WarningImage> for Warning {
    fn from(w: WarningImage) -> Self {
        Warning {
            kind: w.kind,
            message: w.message,
            location: w.location,
        }
    }
}

#[derive(Serialize, Deserialize)]
enum TargetImage {
    Tool(String),
    Search,
    Extension(String),
}

#[derive(Serialize, Deserialize)]
struct ErrorImage {
    kind: ErrorKind,
    message: String,
    location: Option<Location>,
    suggestions: Vec<String>,
}

/// Everything a Lua snapshot holds (see the module docs).
#[derive(Serialize, Deserialize)]
struct GuestImage {
    source: String,
    vm: VmImage,
    waiting_on: Option<TargetImage>,
    refusal: Option<ErrorImage>,
    calls_started: u64,
    waiting: u64,
}

/// The bytes of `guest` (see [`codemode_guest::Guest::snapshot`]).
pub(crate) fn encode(guest: &LuaGuest) -> Result<Vec<u8>, GuestError> {
    let Some(source) = &guest.source else {
        return Err(not_now("the guest was not started from source"));
    };
    let Some(waiting) = guest.waiting else {
        return Err(not_now("it is not waiting for a host call"));
    };
    if guest.reply.is_some()
        || !guest.started.is_empty()
        || !guest.noted.is_empty()
        || guest.held.is_some()
        || guest.abort.is_some()
    {
        return Err(not_now("calls are not taken yet or already answered"));
    }
    let m = &guest.machine;
    let Some(vm) = m.vm.as_ref() else {
        return Err(not_now("the program has ended"));
    };
    if m.finished.is_some() || m.returned || !m.noted.is_empty() {
        return Err(not_now("the program has ended"));
    }
    let vm = vm.to_image().map_err(|w| not_now(&w))?;
    let image = GuestImage {
        source: source.to_string(),
        vm,
        waiting_on: m.waiting_on.as_ref().map(|t| match t {
            HostTarget::Tool(p) => TargetImage::Tool(p.clone()),
            HostTarget::Search => TargetImage::Search,
            HostTarget::Extension(p) => TargetImage::Extension(p.clone()),
        }),
        refusal: m.refusal.as_ref().map(|e| ErrorImage {
            kind: e.kind,
            message: e.message.clone(),
            location: e.location,
            suggestions: e.suggestions.clone(),
        }),
        calls_started: m.calls_started,
        waiting: waiting.0,
    };
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    postcard::to_extend(&image, out).map_err(|e| not_now(&format!("encoding failed: {e}")))
}

/// A guest from the bytes of [`encode`] (see [`codemode_guest::Language::restore`]).
pub(crate) fn decode(
    bytes: &[u8],
    env: &Env,
    options: &StartOptions,
) -> Result<LuaGuest, GuestError> {
    let rest = codemode_guest::snapshot_payload(bytes, MAGIC, FORMAT_VERSION, "Lua")
        .map_err(|w| damaged_error(&w))?;
    let (image, tail): (GuestImage, &[u8]) =
        postcard::take_from_bytes(rest).map_err(|_| damaged_error("its contents do not decode"))?;
    if !tail.is_empty() {
        return Err(damaged_error("bytes follow its end"));
    }
    let budgets = Budgets {
        max_memory_bytes: options.max_memory_bytes,
    };
    let cap = memory_cap(&budgets);
    let program = compile_with(&image.source, &budgets)
        .map_err(|e| damaged_error(&format!("its program does not compile: {}", e.message)))?;
    let template = stdlib_template().map_err(|_| damaged_error("the standard library failed"))?;
    let mut vm = Vm::from_image(image.vm, template, program.inner.clone(), cap)
        .map_err(|w| damaged_error(&w))?;
    // What it calls must be the host's: a tools node or extension the host lacks is damage.
    for h in &vm.heap.hosts {
        let known = match h.kind {
            crate::heap::HostKind::Node { is_tool: true } => env.tool_paths.contains(&h.path),
            crate::heap::HostKind::Extension => env.extension_paths.contains(&h.path),
            _ => true,
        };
        if !known {
            return Err(damaged_error(&format!(
                "it calls '{}', which this host does not have",
                h.path
            )));
        }
    }
    vm.missing = env.missing.clone();
    vm.tool_count = env.tool_paths.len();
    if image.waiting == 0 || image.waiting > image.calls_started {
        return Err(damaged_error("the call it waits on was never started"));
    }
    let mut machine = Machine {
        vm: Some(Box::new(vm)),
        finished: None,
        returned: false,
        waiting_on: image.waiting_on.map(|t| match t {
            TargetImage::Tool(p) => HostTarget::Tool(p),
            TargetImage::Search => HostTarget::Search,
            TargetImage::Extension(p) => HostTarget::Extension(p),
        }),
        refusal: image.refusal.map(|e| GuestError {
            kind: e.kind,
            message: e.message,
            location: e.location,
            suggestions: e.suggestions,
        }),
        calls_started: image.calls_started,
        noted: Vec::new(),
    };
    if let Some(deadline) = options.deadline {
        machine.set_deadline(deadline);
    }
    let mut guest = LuaGuest::new(machine);
    guest.source = Some(Arc::from(image.source));
    guest.waiting = Some(CallId(image.waiting));
    Ok(guest)
}
