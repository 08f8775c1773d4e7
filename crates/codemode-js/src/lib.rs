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
//! every fixed internal bound.
//!
//! ## Pipeline
//! source → `scan.rs` (blank check, size cap, nesting pre-scan: the parser aborts the process
//! on deep nesting) → oxc parser in TypeScript mode (top-level `return`/`await` allowed) →
//! `lower.rs` (oxc AST → `ir.rs`, scopes resolved: every local is a register or a heap cell,
//! no names looked up at run time except globals) → `compiler.rs` (IR → register bytecode,
//! `proto.rs`) → `vm.rs` (the stackless machine).
//!
//! ## Map of the files
//! - `scan.rs`: blank sources, the size cap, the nesting pre-scan, byte offset → line:column
//!   (UTF-16 columns, 1-based).
//! - `lower.rs`: the oxc syntax tree → IR; scope analysis (hoisting, TDZ, captured bindings),
//!   UnsupportedSyntax with hints, TypeScript erased.
//! - `ir.rs`: the IR: statements and expressions over resolved bindings.
//! - `compiler.rs`: IR → bytecode; register allocation, jumps, exception handlers.
//! - `proto.rs`: the instruction set, function prototypes, the compiled [`Program`].
//! - `vm.rs`: [`vm::Machine`]: frames on a heap `Vec` (never the Rust stack), the dispatch
//!   loop, calls, exceptions, metering of fuel and memory.
//! - `value.rs`: the 16-byte `Copy` value of arena handles.
//! - `string.rs`: strings with UTF-16 semantics stored in one or two bytes per unit.
//! - `number.rs`: Number → string (shortest round trip), string → Number, radix and fixed forms.
//! - `heap.rs`: the per-run arenas (objects, strings, cells), byte accounting, atoms.
//! - `object.rs`: objects: ordered properties with attributes, elements, property lookup.
//! - `builtins/`: natives of the standard library (Object, Array, String, Number, Math, JSON,
//!   console, errors); `prelude.js`: the builtins written in JavaScript (those that call back
//!   into user code: `map`, `sort`, ...), compiled once per process.
//! - `boundary.rs`: values → JSON for results (the data rules: `undefined` → absent/null,
//!   `-0` → 0, NaN/Infinity → null, `InvalidDataValue` naming the path).
//! - `limits.rs`: every fixed bound, with what exhausting it gives.
//! - `guest.rs`: [`JsGuest`]; `language.rs`: [`JavaScript`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Conversions (`to_number`, `to_key` ...) take the machine mutably: they allocate and throw.
#![allow(clippy::wrong_self_convention)]

mod boundary;
mod builtins;
mod compiler;
mod guest;
mod heap;
mod language;
pub mod limits;
mod machine;
mod number;
mod proto;
mod scan;
mod string;
mod value;
mod vm;

#[cfg(test)]
mod tests;

pub use guest::JsGuest;
pub use language::{JavaScript, KEYWORDS};

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
    scan::check(source)?;
    let data = compiler::compile(source)?;
    Ok(Program {
        data: std::sync::Arc::new(data),
    })
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
