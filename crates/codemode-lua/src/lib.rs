//! # codemode-lua: the Lua 5.4 guest language of codemode
//!
//! A Lua 5.4 interpreter written in safe Rust for running untrusted, model-written programs over
//! host tools. No metatables, coroutines, I/O, `os`, dynamic loading or `debug`.
//!
//! ## Map of the crate
//! - [`ast`]: syntax tree with positions.
//! - `lexer`, `parser`: source text → [`ast::Block`] (depth-guarded recursive descent).
//! - `compiler`: AST → register bytecode (`Proto`), locals resolved to registers, upvalues to slots.
//! - `vm`: the stackless dispatch loop. Guest frames live on a heap `Vec`, never on the Rust stack.
//!   A host call (tool, `search`, extension) *suspends* the machine: [`Machine::run`] returns
//!   [`Step::HostCall`] and the driver resumes it with [`Machine::resume`].
//! - `value`, `heap`, `table`: the value representation (`Copy` values with handles into a
//!   per-execution arena, so a [`Machine`] is `Send`), garbage collection, tables with array and
//!   hash parts.
//! - `stdlib`: base library, `string`, `table`, `math`, `utf8`, `json`.
//! - `boundary`: Lua values ↔ JSON ([`serde_json::Value`]) under the data rules.
//! - `limits`: every fixed internal bound as a named constant.
//!
//! ## Host interface
//! ```text
//! let program = compile(source)?;                 // ParseError with line:column
//! let mut m = Machine::new(&program, &env, Budgets::default());
//! loop {
//!     match m.run(SLICE) {
//!         Step::Yield => { /* check the deadline, yield to the async runtime */ }
//!         Step::HostCall(call) => { /* validate, hooks, await the tool */ m.resume(reply) }
//!         Step::Done(value) => break,      // the exported first return value (JSON)
//!         Step::Error(err) => break,       // GuestError with kind, message, location
//!     }
//! }
//! let logs = m.take_logs();
//! ```
#![forbid(unsafe_code)]

pub mod ast;
pub mod boundary;
pub mod compiler;
pub mod heap;
pub mod lexer;
pub mod limits;
pub mod number;
pub mod parser;
pub mod stdlib;
pub mod table;
pub mod value;
pub mod vm;

use std::sync::Arc;

/// A 1-based source location (`column` counts bytes within the line, starting at 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub line: u32,
    pub column: u32,
}

/// The kind of a [`GuestError`]. Mirrors the host's diagnostic kinds (the host maps them 1:1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The source cannot be parsed (also: `<close>`, empty program, source or nesting too large).
    ParseError,
    /// A syntax construct outside the supported subset.
    UnsupportedSyntax,
    /// A call through `tools.` named a path that does not exist.
    UnknownTool,
    /// Tool input rejected (schema, argument count). Raised by the host via [`HostReply::Error`].
    InvalidToolInput,
    /// Tool output rejected. Raised by the host.
    InvalidToolOutput,
    /// A value that cannot cross the data boundary (cyclic, mixed keys, sparse, function, bad UTF-8).
    InvalidDataValue,
    /// `max_tool_calls` exhausted. Raised by the host; never catchable.
    ToolCallLimitExceeded,
    /// The deadline passed. Raised by the host; never catchable.
    TimeoutExceeded,
    /// A tool failed. Raised by the host.
    ToolFailure,
    /// A runtime error in the program (error(), type errors, exhausted internal bounds, ...).
    ExecutionFailure,
}

/// An error that ends an execution (or, before being caught by `pcall`, travels through it).
#[derive(Clone, Debug, PartialEq)]
pub struct GuestError {
    pub kind: ErrorKind,
    /// Model-facing text: what went wrong and what to do instead. Does not repeat the location.
    pub message: String,
    pub location: Option<Location>,
    /// "Did you mean" candidates (e.g. for UnknownTool: `tools.orders.lookup`).
    pub suggestions: Vec<String>,
}

/// Which host capability a suspended call targets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostTarget {
    /// A tool, by canonical dotted path (`orders.lookup`).
    Tool(String),
    /// The `search` built-in.
    Search,
    /// An extension function, by dotted path of its global (`fs.read`).
    Extension(String),
}

/// A host call the program is waiting on. The machine is suspended until [`Machine::resume`].
#[derive(Clone, Debug, PartialEq)]
pub struct HostCall {
    pub target: HostTarget,
    /// The exported arguments, one JSON value per Lua argument (trailing nils dropped).
    /// For tools and `search` the host expects at most one (an object); zero means `{}`.
    pub args: Vec<serde_json::Value>,
    /// Where the call is in the source.
    pub location: Option<Location>,
}

/// The host's answer to a [`HostCall`].
#[derive(Clone, Debug, PartialEq)]
pub enum HostReply {
    /// The call succeeded; the value is imported as fresh Lua data (arrays and objects keep their
    /// shape, so an empty array stays an array when sent back).
    Value(serde_json::Value),
    /// The call failed with an ordinary, catchable error: `pcall` sees `false, message`. If
    /// uncaught, the execution fails with this kind and message.
    Error { kind: ErrorKind, message: String },
    /// The execution must end now (timeout, tool-call limit). Not catchable.
    Abort(GuestError),
}

/// What the host provides to a program, besides the standard library.
#[derive(Clone, Default)]
pub struct Env {
    /// Canonical dotted paths of every callable tool; `tools` is built from them.
    pub tool_paths: Vec<String>,
    /// Dotted paths of extension functions (`fetch`, `fs.read`); each first segment becomes a global.
    pub extension_paths: Vec<String>,
    /// Ranks existing tool paths nearest to a missing one (for UnknownTool suggestions).
    pub suggest: Option<Arc<dyn Fn(&str) -> Vec<String> + Send + Sync>>,
}

/// One step of a running [`Machine`].
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The instruction slice given to [`Machine::run`] is used up; call `run` again.
    Yield,
    /// The program waits for a host call; answer with [`Machine::resume`], then call `run`.
    HostCall(HostCall),
    /// The program returned; its first return value exported to JSON (`nil`/no value → null).
    Done(serde_json::Value),
    /// The program failed.
    Error(GuestError),
}

/// Per-execution resource budgets (fixed internal bounds live in `limits`; these are the ones
/// a host may tune). `Default` gives the documented defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Budgets {
    /// Optional cap on bytes held by the execution (strings, tables, closures, logs). `None`: the
    /// fixed internal cap in `limits` applies.
    pub max_memory_bytes: Option<usize>,
}

impl Default for Budgets {
    fn default() -> Self {
        Budgets { max_memory_bytes: None }
    }
}

// ---------------------------------------------------------------------------------------------
// PLACEHOLDER until the compiler and VM land (the VM work replaces everything below this line).
// ---------------------------------------------------------------------------------------------

/// A compiled chunk. Cheap to clone; `Send + Sync`, so one compile can serve many executions.
#[derive(Clone, Debug)]
pub struct Program {
    _private: (),
}

/// Parse and compile a chunk. Errors: [`ErrorKind::ParseError`] with a location.
pub fn compile(_source: &str) -> Result<Program, GuestError> {
    unimplemented!("compiler not yet implemented")
}

/// One execution of a [`Program`]: fresh globals, heap and frame stack. `Send`.
pub struct Machine {
    _private: (),
}

impl Machine {
    /// Prepare an execution of `program` with the host's `env`.
    pub fn new(_program: &Program, _env: &Env, _budgets: Budgets) -> Machine {
        unimplemented!()
    }
    /// Run at most about `slice` instructions (fuel units), then return the next [`Step`].
    pub fn run(&mut self, _slice: u32) -> Step {
        unimplemented!()
    }
    /// Answer the pending [`Step::HostCall`].
    pub fn resume(&mut self, _reply: HostReply) {
        unimplemented!()
    }
    /// Take the log lines written by `print` so far (one entry per call, tab-separated args).
    pub fn take_logs(&mut self) -> Vec<String> {
        unimplemented!()
    }
}
