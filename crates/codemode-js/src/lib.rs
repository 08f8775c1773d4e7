//! # codemode-js: the JavaScript guest language of codemode
//!
//! A JavaScript interpreter in safe Rust for untrusted, model-written programs over host
//! tools. The program is the body of an async function: its result is the value of an explicit
//! `return`, else of the last top-level statement when that is an expression statement
//! (`undefined` → `null`); strict-mode semantics. TypeScript annotations are accepted and
//! dropped. What lies outside the subset (`with`, `eval`, `Function(...)`, `import` of
//! packages, `export`, BigInt, Proxy) is `UnsupportedSyntax` with what to write instead.
//!
//! ## Public surface
//! [`JavaScript`] implements `codemode_guest::Language` (compile a program into a [`JsGuest`],
//! and the words host messages use) and [`JsGuest`] implements `codemode_guest::Guest`.
//! [`compile`] turns source into a [`Program`] (shareable, `Send + Sync`); [`limits`] lists
//! every fixed internal bound. A run waiting for host calls snapshots to bytes
//! (`Guest::snapshot`) and [`JsGuest::restore`] / `Language::restore` continue it, in another
//! process of the same build (durable executions: `snapshot.rs`).
//!
//! ## Pipeline
//! source → `scan.rs` (blank check, size cap, nesting pre-scan: the parser aborts the process
//! on deep nesting; deep sources parse and compile on a large stack of their own) → oxc
//! parser in TypeScript mode (top-level `return`/`await` allowed) → `early.rs` (the early
//! errors) → `compiler/` (one
//! capture pass, then the syntax tree straight to register bytecode, `proto.rs`: every local
//! is a register or a heap cell, only globals are looked up by name) → `vm.rs` (the
//! stackless machine).
//!
//! ## Map of the files
//! - `scan.rs`: blank sources, the size cap, the nesting pre-scan, byte offset → line:column
//!   (UTF-16 columns, 1-based).
//! - `early.rs`: early errors (oxc_semantic's static-semantics checks) and oxc diagnostics
//!   as located ParseErrors.
//! - `compiler/`: the capture pass (names referenced by nested functions live in cells),
//!   scopes, hoisting, TDZ (`mod.rs`: a local read after its declaration has run needs no
//!   check, and a register local is an instruction's operand as it is, `direct_reg`);
//!   statements, labels, try/finally inlined on every exit
//!   (`statements.rs`); destructuring (`patterns.rs`); expressions, UnsupportedSyntax with
//!   hints (`expressions.rs`); classes with private names, static blocks and derived
//!   constructors (`classes.rs`); TypeScript that lowers to code: enums and constructor
//!   parameter properties (`typescript.rs`); the rest of TypeScript is erased.
//! - `proto.rs`: the instruction set, function prototypes, the compiled program's data.
//! - `vm.rs`: the machine state (`Vm`): frames on a heap `Vec` (never the Rust stack), the
//!   dispatch loop (`fast_ops`: the instructions that touch only registers, Numbers, cells,
//!   data properties and dense elements, in a tight loop; `step`: everything else), calls,
//!   exceptions, property access, conversions and operators; user code
//!   an instruction needs (getters, setters, iterators, `valueOf`) runs in frames of its own,
//!   either as a call returning into the instruction's register or as a detour after which the
//!   instruction runs again (`Throw::Convert`). `vm/coro.rs`: coroutines (generators, async
//!   functions: a suspended frame moves with its registers into the coroutine object), the
//!   promise states and reactions, the job queue (run whenever the frame stack is empty), and
//!   the host calls behind tool promises and `search`. `vm/class.rs`: private elements and their
//!   brand checks, `extends`, `super(...)` with `new.target`, derived constructors' returns,
//!   `super[key]` reads and writes.
//! - `machine.rs`: [`Machine`]: the process-wide standard-library template, forked per run;
//!   slices of fuel; the result export and uncaught-error messages.
//! - `value.rs`: the 16-byte `Copy` value of arena handles.
//! - `string.rs`: strings with UTF-16 semantics stored in one or two bytes per unit, and ropes
//!   (`s += piece` costs the piece; written out once, when first read, and charged then).
//! - `number.rs`: Number → string (shortest round trip), string → Number, radix, fixed,
//!   precision and exponential forms.
//! - `heap.rs`: the per-run arenas (objects with ordered properties and attributes, strings,
//!   cells, symbols), interned property names, byte accounting (the charges are the
//!   structures' own sizes: `OBJECT_BYTES`, `PROP_BYTES`, `FRAME_BYTES`, ...;
//!   `bench/js-memory.sh` compares them with RSS). `elements.rs`: array
//!   elements (a dense prefix and a sparse ordered map, with the length); `table.rs`: the
//!   hashed insertion-ordered table of Map, Set, WeakMap and WeakSet (tombstones, live
//!   iterators, compaction).
//! - `gc.rs`: mark and sweep between instructions (worklist marking, free lists).
//!   `arena.rs`: the slot vectors whose first slots (the standard library's) every run shares
//!   and copies only when it writes one.
//! - `builtins/`: the natives, one file per object (Object, Function, Array, String,
//!   Number, Boolean, Math, JSON, console, errors, Symbol, Map, Set, WeakMap and WeakSet,
//!   Reflect, Date in `date.rs` with V8's date parser, URL and URLSearchParams in `url.rs`
//!   over the `url` crate, the en-US number and date formatting of `Intl` and the
//!   `toLocale*String` methods in `intl.rs`, Uint8Array with base64 and hex in `bytes.rs`
//!   (a view over a byte buffer object), TextEncoder and TextDecoder in `text.rs`, `structuredClone` in
//!   `clone.rs` (an explicit work stack)), the host's clock and random generator
//!   (`platform.rs`: `Env::clock`/`Env::random`, `crypto` with `getRandomValues`, the
//!   web-platform prototypes),
//!   property descriptors and integrity levels (`descriptors.rs`), and the
//!   intrinsics' setup; `prelude.js` and `prelude/*.js` (`json.js`: `JSON.stringify`'s spec
//!   algorithm and revivers; `string.js`: replacement functions, `String.raw`; `regexp.js`: `exec`,
//!   `Symbol.match`/`matchAll`/`replace`/`search`/`split` and the String methods over them;
//!   `iterator.js`: the iterator helpers and `Iterator.from`, over the abstract `Iterator` of
//!   `builtins/iterator.rs`; `intl.js`: the `Intl` objects, locale lists and option reading in
//!   node's order, the fallback warnings): the builtins
//!   written in JavaScript (those that call back into user code: `map`, `sort`, ...),
//!   compiled as builtins (not constructors; errors located at the call).
//! - `hints.rs`: what an uncaught error's diagnostic adds for the model (never to the
//!   program's `message`): which expression was `undefined`, what its object has.
//! - `regexp/`: the RegExp engine: the pattern's nesting pre-scan, oxc's pattern parser and
//!   the lowering to a small program (`compile.rs`), the backtracking matcher with its stack
//!   as data, metered and resumable across fuel slices (`exec.rs`), sets, `\p{…}` and case
//!   folding from `regex-syntax`'s tables (`classes.rs`). The object model is
//!   `builtins/regexp.rs`, the spec algorithms that call user code `prelude/regexp.js`.
//! - `builtins/promise.rs` + `prelude/promise.js`: `Promise` (constructor and `then` native;
//!   combinators, `catch`, `finally` and the statics in JavaScript), generator methods,
//!   `queueMicrotask`. `builtins/host.rs`: `tools` (frozen namespaces, tool functions that
//!   return promises, missing names that reject with the host's unknown-tool error),
//!   `search` and extension functions (synchronous host calls). `builtins/modules.rs`:
//!   `import`/`require`/`import()` of Node module names, resolved to the extension globals
//!   (the compiler evaluates a program's imports before its first statement, `Op::Import`).
//! - `boundary.rs`: values → JSON for results (a result holding `toJSON` or getters first
//!   goes through the prelude's `exportPrepare`; the data rules: `undefined` → absent/null,
//!   `-0` → 0, NaN/Infinity → null,
//!   `InvalidDataValue` naming the path).
//! - `limits.rs`: every fixed bound, with what exhausting it gives.
//! - `snapshot.rs`: durable executions — a run waiting for host calls as bytes (magic, format
//!   version, the template's fingerprint, postcard) and back; `heap/image.rs` (the arenas as
//!   the base slots written and the run's own, strings written out, URLs and RegExps by
//!   their text) and `vm/image.rs` (frames, registers, jobs, host calls; every handle and
//!   frame checked on load, the bytes held recounted against the cap).
//! - `guest.rs`: [`JsGuest`]; `language.rs`: [`JavaScript`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Conversions (`to_number`, `to_key` ...) take the machine mutably: they allocate and throw.
#![allow(clippy::wrong_self_convention)]
// `JsStr` keys hash maps although a rope holds a `OnceLock` and a `Mutex`: its hash and
// equality are its code units, which writing a rope out never changes.
#![allow(clippy::mutable_key_type)]

mod arena;
mod boundary;
mod builtins;
mod compiler;
mod early;
mod elements;
mod gc;
mod guest;
mod heap;
mod hints;
mod language;
pub mod limits;
mod machine;
mod number;
mod proto;
mod regexp;
mod scan;
mod snapshot;
mod string;
mod table;
mod value;
mod vm;

#[cfg(test)]
mod tests;

pub use guest::JsGuest;
pub use language::{JavaScript, KEYWORDS};
pub use machine::Machine;

use codemode_guest::{ErrorKind, GuestError};

/// A compiled program. Cheap to clone; `Send + Sync`, so one compile serves many runs.
#[derive(Clone, Debug)]
pub struct Program {
    data: std::sync::Arc<proto::ProgramData>,
}

/// Check, parse and compile `source`. Errors: ParseError (blank, too large, nested too
/// deep, syntax) and UnsupportedSyntax, located (line and UTF-16 column, 1-based).
pub fn compile(source: &str) -> Result<Program, GuestError> {
    if scan::is_blank(source) {
        return Err(GuestError::new(
            ErrorKind::ParseError,
            "Code cannot be empty.",
        ));
    }
    let depth = scan::check(source)?;
    let data = if depth > scan::DEEP || source.len() > scan::LARGE_SOURCE_BYTES {
        // Deeply nested or long sources parse and compile on a large stack of their own.
        let src = source.to_string();
        std::thread::Builder::new()
            .stack_size(scan::DEEP_STACK_BYTES)
            .spawn(move || compiler::compile(&src))
            .map_err(|_| {
                GuestError::new(
                    ErrorKind::ExecutionFailure,
                    "cannot start the compiler thread",
                )
            })?
            .join()
            .map_err(|_| {
                GuestError::new(
                    ErrorKind::ExecutionFailure,
                    "internal error: the compiler failed",
                )
            })??
    } else {
        compiler::compile(source)?
    };
    Ok(Program {
        data: std::sync::Arc::new(data),
    })
}

/// `Date.parse(text)` as a program's `Date` reads it (the ISO format, then V8's other forms,
/// UTC as the local zone): milliseconds since the epoch, `None` when it is no date in range.
/// For hosts that take an instant from their user (`codemode run --now`).
pub fn parse_date(text: &str) -> Option<i64> {
    let t = builtins::parse_date(&text.encode_utf16().collect::<Vec<u16>>());
    t.is_finite().then_some(t as i64)
}

/// Every global a program starts with (besides `tools` and `search`), sorted.
pub(crate) fn reserved_globals() -> Vec<String> {
    let mut names = machine::global_names();
    names.push("tools".into());
    names.push("search".into());
    names.sort();
    names.dedup();
    names
}
