//! What a run reads from its host besides tools: the clock (`Date.now()`, `new Date()`) and
//! the random generator (`Math.random`, `crypto.randomUUID`), both
//! set by [`codemode_guest::Env`] (`clock`, `random`) when the run starts; and the prototypes
//! of the web-platform objects this crate adds (`Date`, `URL`, `URLSearchParams`,
//! `TextEncoder`, `TextDecoder`, `Uint8Array`), and `crypto.getRandomValues`. Plain data: the clock is a mode, the generator
//! a 64-bit state (splitmix64: every seed is fine, and a run with the same seed gives the same
//! numbers; not a cryptographic generator).

use super::*;
use codemode_guest::{Clock, Env, Random};

/// The natives of this file: where each goes, what it runs, its `length`.
pub(super) static NATIVES: &[(&str, NativeFn, u16)] = &[
    ("crypto.randomUUID", random_uuid, 0),
    ("crypto.getRandomValues", get_random_values, 1),
];

/// The run's clock and generator, and the web-platform prototypes (template objects, never
/// collected).
#[derive(Clone, Debug, Default)]
pub struct State {
    pub clock: Clock,
    /// The splitmix64 state.
    pub rng: u64,
    pub date_proto: Option<ObjId>,
    pub url_proto: Option<ObjId>,
    pub params_proto: Option<ObjId>,
    pub params_iter_proto: Option<ObjId>,
    pub encoder_proto: Option<ObjId>,
    pub decoder_proto: Option<ObjId>,
    pub bytes_proto: Option<ObjId>,
    /// The `crypto` namespace.
    pub crypto: Option<ObjId>,
    /// Where natives wait for `setup` to make them setters (`%URLSetters%`).
    pub scratch: Option<ObjId>,
    /// The private name linking a URL and its `searchParams`.
    pub link: Option<crate::value::SymId>,
}

/// The web-platform prototypes and the `crypto` namespace, made before the natives are
/// installed on them.
pub fn prototypes(vm: &mut Vm) -> Res<()> {
    let op = vm.intr.object_proto;
    let mk = |vm: &mut Vm| -> Res<Option<ObjId>> { Ok(Some(vm.heap.new_obj(op, Kind::Ordinary)?)) };
    vm.platform.date_proto = mk(vm)?;
    vm.platform.url_proto = mk(vm)?;
    vm.platform.params_proto = mk(vm)?;
    vm.platform.params_iter_proto = Some(vm.heap.new_obj(vm.intr.iterator_proto, Kind::Ordinary)?);
    vm.platform.encoder_proto = mk(vm)?;
    vm.platform.decoder_proto = mk(vm)?;
    vm.platform.bytes_proto = mk(vm)?;
    vm.platform.crypto = mk(vm)?;
    vm.platform.scratch = mk(vm)?;
    Ok(())
}

/// The prototype of the web-platform constructor `name`.
pub fn proto_of(vm: &Vm, name: &str) -> Option<ObjId> {
    let p = &vm.platform;
    match name {
        "Date" => p.date_proto,
        "URL" => p.url_proto,
        "URLSearchParams" => p.params_proto,
        "TextEncoder" => p.encoder_proto,
        "TextDecoder" => p.decoder_proto,
        "Uint8Array" => p.bytes_proto,
        _ => None,
    }
}

/// The object a native path's owner names (`Date.prototype`, `crypto`), when it is one of
/// this module's.
pub fn owner(vm: &Vm, path: &str) -> Option<ObjId> {
    match path {
        "crypto" => vm.platform.crypto,
        "%URLSetters%" => vm.platform.scratch,
        "%URLSearchParamsIterator%" => vm.platform.params_iter_proto,
        _ => proto_of(vm, path.strip_suffix(".prototype")?),
    }
}

/// After the natives are in: the `crypto` global, the tags, the aliases.
pub fn setup(vm: &mut Vm) -> Res<()> {
    if let Some(c) = vm.platform.crypto {
        let k = vm.heap.key("crypto");
        vm.define(vm.global, k, Slot::Data(Value::Obj(c)), HIDDEN_ATTRS)?;
    }
    if let Some(sym) = vm.intr.sym_to_string_tag {
        let p = &vm.platform;
        for (o, t) in [
            (p.crypto, "Crypto"),
            (p.url_proto, "URL"),
            (p.params_proto, "URLSearchParams"),
            (p.params_iter_proto, "URLSearchParams Iterator"),
            (p.encoder_proto, "TextEncoder"),
            (p.decoder_proto, "TextDecoder"),
            (p.bytes_proto, "Uint8Array"),
        ] {
            if let Some(o) = o {
                let v = vm.str_val(t)?;
                vm.define(o, Key::Sym(sym), Slot::Data(v), CONFIGURABLE)?;
            }
        }
    }
    super::date::setup(vm)?;
    super::bytes::setup(vm)?;
    super::text::setup(vm)?;
    super::url::setup(vm)
}

/// Make the natives installed as data properties `names` of `owner` its getters (named
/// `get x`, no setter), with attributes `attrs`.
pub(super) fn getters(vm: &mut Vm, owner: ObjId, names: &[&str], attrs: u8) -> Res<()> {
    let nk = vm.heap.key("name");
    for name in names {
        let k = vm.heap.key(name);
        if let Some(crate::heap::Prop {
            slot: Slot::Data(get @ Value::Obj(f)),
            ..
        }) = vm.own(owner, k)
        {
            let n = vm.str_val(&format!("get {name}"))?;
            vm.define(f, nk, Slot::Data(n), CONFIGURABLE)?;
            vm.define(owner, k, Slot::Accessor(get, Value::Undefined), attrs)?;
        }
    }
    Ok(())
}

/// Set the run's clock and seed its generator from `env`.
pub fn start(vm: &mut Vm, env: &Env) {
    vm.platform.clock = env.clock;
    vm.platform.rng = match env.random {
        Random::Seed(s) => s,
        Random::Entropy => entropy(),
    };
}

/// 64 bits from the operating system's entropy (std's hasher keys are drawn from it once per
/// thread and then stepped), mixed with the time.
fn entropy() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    if let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.finish()
}

/// The clock's reading: milliseconds since the epoch (an integer).
pub fn now(vm: &Vm) -> f64 {
    match vm.platform.clock {
        Clock::Fixed(ms) => ms as f64,
        Clock::System => match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => d.as_millis() as f64,
            Err(e) => -(e.duration().as_millis() as f64),
        },
    }
}

/// The generator's next 64 bits (splitmix64).
pub fn next_u64(vm: &mut Vm) -> u64 {
    vm.platform.rng = vm.platform.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = vm.platform.rng;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A number in [0, 1) with 53 random bits.
pub fn next_f64(vm: &mut Vm) -> f64 {
    (next_u64(vm) >> 11) as f64 / (1u64 << 53) as f64
}

/// `crypto.randomUUID()`: a version 4 UUID, lower-case hex.
fn random_uuid(vm: &mut Vm, _: Value, _: &[Value]) -> Res<Value> {
    let (a, b) = (next_u64(vm), next_u64(vm));
    let mut bytes = [0u8; 16];
    bytes[..8].copy_from_slice(&a.to_be_bytes());
    bytes[8..].copy_from_slice(&b.to_be_bytes());
    bytes[6] = (bytes[6] & 0x0F) | 0x40;
    bytes[8] = (bytes[8] & 0x3F) | 0x80;
    let mut s = String::with_capacity(36);
    for (i, b) in bytes.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            s.push('-');
        }
        s.push_str(&format!("{b:02x}"));
    }
    vm.str_val(&s)
}

/// Most bytes one `crypto.getRandomValues` call fills: 65,536 (the Web Crypto standard's
/// quota; more is node's `QuotaExceededError`).
pub const MAX_RANDOM_BYTES: usize = crate::limits::MAX_RANDOM_VALUES_BYTES;

/// `crypto.getRandomValues(u8)`: fill the Uint8Array from the run's generator (seeded by
/// `--seed`: the same bytes every run), and return it.
fn get_random_values(vm: &mut Vm, _: Value, args: &[Value]) -> Res<Value> {
    if args.is_empty() {
        return Err(super::text::coded(
            vm,
            vm.intr.type_error_proto,
            "ERR_MISSING_ARGS",
            "Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.",
        ));
    }
    let target = args[0];
    let o = match target {
        Value::Obj(o) if super::bytes::view(vm, o).is_some() => o,
        _ => {
            return Err(super::web::dom_exception(
                vm,
                "TypeMismatchError",
                17,
                "The data argument must be an integer-type TypedArray",
            ));
        }
    };
    let n = super::bytes::bytes_of(vm, o).len();
    if n > MAX_RANDOM_BYTES {
        return Err(super::web::dom_exception(
            vm,
            "QuotaExceededError",
            22,
            "The requested length exceeds 65,536 bytes",
        ));
    }
    vm.work_check(n / 8)?;
    let mut i = 0;
    while i < n {
        let r = next_u64(vm).to_le_bytes();
        for b in r.iter().take(n - i) {
            super::bytes::store(vm, o, i, *b);
            i += 1;
        }
    }
    Ok(target)
}
