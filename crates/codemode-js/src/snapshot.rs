//! Durable executions: a [`crate::JsGuest`] waiting for host calls as bytes, and back.
//!
//! The bytes are [`MAGIC`], the format version ([`FORMAT_VERSION`], u32 LE), the template
//! fingerprint (u64 LE: a hash of this build's standard library — the crate version, the
//! natives' names and lengths, the prelude's source, the template's arena sizes — so bytes of
//! another build are refused before anything is read), then a postcard encoding of a
//! [`GuestImage`]: the program's source (compiled again on restore: the compiler is
//! deterministic), the machine (`vm/image.rs`: heap, frames, registers, jobs, promises,
//! coroutines, host calls in flight, logs, counters, the random generator's state) and
//! whether the result's preparation was running. Nothing of the host is inside: no handler,
//! no missing-tool policy, no deadline, no clock (the restoring host gives those in its
//! `Env` and `StartOptions`); the `tools` namespace and extension functions are the run's
//! objects, bound to their paths, and every path must be one the restoring host has.
//!
//! Loading checks everything before the machine runs (see `vm/image.rs`); a damaged
//! snapshot is an `ExecutionFailure` naming what is wrong, never a panic.

use std::sync::OnceLock;

use codemode_guest::{Env, ErrorKind, GuestError, StartOptions};
use serde::{Deserialize, Serialize};

use crate::heap::{Func, Kind};
use crate::machine::Machine;
use crate::value::Value;
use crate::vm::Vm;
use crate::vm::image::VmImage;

/// The first bytes of every JavaScript snapshot.
pub const MAGIC: &[u8; 8] = b"CMJSSNAP";
/// The version of the encoding; a snapshot of another version is refused.
pub const FORMAT_VERSION: u32 = 1;

/// A check's outcome while loading: `Err` says what is damaged.
pub(crate) type Damaged<T> = Result<T, String>;

/// `Ok` when `ok`, else the damage `why` describes.
pub(crate) fn check(ok: bool, why: impl FnOnce() -> String) -> Damaged<()> {
    if ok { Ok(()) } else { Err(why()) }
}

/// The error of a damaged snapshot.
fn damaged_error(why: &str) -> GuestError {
    GuestError::new(
        ErrorKind::ExecutionFailure,
        format!(
            "the snapshot cannot be restored: {why}; it is damaged or was not made by this version of codemode, so run the program again from the start"
        ),
    )
}

/// The error of a snapshot taken at the wrong moment.
fn not_now(why: &str) -> GuestError {
    GuestError::new(
        ErrorKind::ExecutionFailure,
        format!("the program cannot be snapshotted now: {why}"),
    )
}

/// Everything a JavaScript snapshot holds after its header (see the module docs).
#[derive(Serialize, Deserialize)]
struct GuestImage {
    source: String,
    vm: VmImage,
    preparing: Option<bool>,
}

/// FNV-1a, 64 bits: a stable hash (the same in every process of a build).
fn fnv(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= *b as u64;
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// The fingerprint of the standard library of `template` (see the module docs).
pub(crate) fn fingerprint(template: &Vm) -> u64 {
    static FP: OnceLock<u64> = OnceLock::new();
    *FP.get_or_init(|| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        fnv(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
        for (name, _, len) in template.natives {
            fnv(&mut h, name.as_bytes());
            fnv(&mut h, &len.to_le_bytes());
        }
        for p in &template.progs {
            fnv(&mut h, p.source.as_bytes());
        }
        let heap = &template.heap;
        for n in [
            heap.strings.base_len(),
            heap.objects.base_len(),
            heap.atoms.base_len(),
            heap.cells.len(),
            heap.symbols.len(),
        ] {
            fnv(&mut h, &(n as u64).to_le_bytes());
        }
        h
    })
}

/// The bytes of `m` (see [`codemode_guest::Guest::snapshot`]).
pub(crate) fn encode(m: &Machine) -> Result<Vec<u8>, GuestError> {
    if m.finished.is_some() {
        return Err(not_now("the program has ended"));
    }
    let vm = &m.vm;
    if vm.host.sync_wait.is_none() && vm.host.waiting.is_empty() {
        return Err(not_now("it is not waiting for a host call"));
    }
    let source = match vm.progs.get(1) {
        Some(p) if !p.builtin => p.source.to_string(),
        _ => return Err(not_now("it runs no program of its own")),
    };
    // Strings are written out flat, and ropes sharing one long part are charged it once: a
    // snapshot of many such strings could be far larger than the memory limit (and than
    // what a restore under that limit accepts), so it is refused before anything is written.
    let cap = vm.heap.cap;
    let mut flat = 0usize;
    for s in vm
        .heap
        .strings
        .written()
        .map(|(_, s)| s)
        .chain(vm.heap.strings.own())
    {
        flat = flat.saturating_add(s.bytes());
        if flat > cap {
            return Err(GuestError::new(
                ErrorKind::ExecutionFailure,
                format!(
                    "memory limit exceeded: the program cannot be paused here, because its strings written out take more than max_memory_bytes ({cap} bytes) (strings built by appending to one long string share it in memory, not in a snapshot); keep fewer long strings alive across a paused call"
                ),
            ));
        }
    }
    let template = crate::machine::template()?;
    let image = GuestImage {
        source,
        vm: vm.to_image().map_err(|w| not_now(&w))?,
        preparing: m.preparing,
    };
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&fingerprint(template).to_le_bytes());
    postcard::to_extend(&image, out).map_err(|e| not_now(&format!("encoding failed: {e}")))
}

/// A machine from the bytes of [`encode`] (see [`codemode_guest::Language::restore`]).
pub(crate) fn decode(
    bytes: &[u8],
    env: &Env,
    options: &StartOptions,
) -> Result<Machine, GuestError> {
    let rest = codemode_guest::snapshot_payload(bytes, MAGIC, FORMAT_VERSION, "JavaScript")
        .map_err(|w| damaged_error(&w))?;
    let Some((fp, rest)) = rest.split_first_chunk::<8>() else {
        return Err(damaged_error("it is cut short"));
    };
    let template = crate::machine::template()?;
    if u64::from_le_bytes(*fp) != fingerprint(template) {
        return Err(damaged_error(
            "it was taken by a build with another standard library",
        ));
    }
    // A snapshot is smaller than the heap it holds (every value, string and object is
    // charged more than its encoding): larger bytes are refused before they are decoded, which
    // bounds what decoding allocates by a small multiple of the cap.
    let cap = crate::machine::memory_cap(options);
    if bytes.len() > cap {
        return Err(damaged_error(&format!(
            "it is {} bytes, more than the memory limit of {cap} bytes",
            bytes.len()
        )));
    }
    let (image, tail): (GuestImage, &[u8]) =
        postcard::take_from_bytes(rest).map_err(|e| damaged_error(&format!("{e}")))?;
    if !tail.is_empty() {
        return Err(damaged_error("bytes follow its end"));
    }
    let program = crate::compile(&image.source)
        .map_err(|e| damaged_error(&format!("its program does not compile: {}", e.message)))?;
    let mut vm = Vm::from_image(image.vm, template, program.data.clone(), cap)
        .map_err(|w| damaged_error(&w))?;
    // What it calls must be the host's: a tool or extension the host lacks is damage.
    for o in vm.heap.objects.iter() {
        let Kind::Function(Func::Bound {
            target,
            this: Value::Str(path),
            ..
        }) = &o.kind
        else {
            continue;
        };
        let target = Some(*target);
        let (known, what) = if target == vm.intr.tool_fn {
            let path = vm.heap.str(*path).to_rust();
            (env.tool_paths.contains(&path), path)
        } else if target == vm.intr.extension_fn || target == vm.intr.extension_async_fn {
            let path = vm.heap.str(*path).to_rust();
            (env.extension_paths.contains(&path), path)
        } else {
            continue;
        };
        if !known {
            return Err(damaged_error(&format!(
                "it calls '{what}', which this host does not have"
            )));
        }
    }
    vm.host.missing = env.missing.clone().map(crate::vm::coro::Missing);
    vm.platform.clock = env.clock;
    vm.deadline = options.deadline;
    Ok(Machine::restored(Box::new(vm), image.preparing))
}
