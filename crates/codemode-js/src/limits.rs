//! Every fixed internal bound of the JavaScript guest, in one place. Hosts tune only what
//! [`codemode_guest::StartOptions`] carries (the memory cap, the deadline) and the fuel the host
//! hands each run; these bounds protect the host process whatever the program does.
//!
//! What exhausting each gives:
//! - source bounds ([`MAX_SOURCE_BYTES`], [`MAX_NESTING`]): a `ParseError` naming the limit,
//!   before the parser runs;
//! - syntax bounds the lowering checks ([`MAX_SYNTAX_DEPTH`], [`MAX_REGISTERS`]): a
//!   `ParseError` naming the limit, located;
//! - call depth ([`MAX_CALL_DEPTH`]): the catchable `RangeError: Maximum call stack size
//!   exceeded`, as V8 words it (frames live on the heap, never on the Rust stack);
//! - execution bounds (memory, total fuel): an uncatchable `ExecutionFailure` naming the bound;
//! - per-value bounds ([`MAX_STRING_LENGTH`], [`MAX_ARRAY_LENGTH`], [`MAX_ARGUMENTS`]): a
//!   catchable `RangeError`;
//! - the data boundary ([`MAX_DATA_DEPTH`]): `InvalidDataValue` naming the path;
//! - [`MAX_ERROR_MESSAGE_BYTES`]: longer uncaught messages are cut.

/// Largest accepted source text in bytes (4 MiB). Larger is a ParseError "program too large
/// (N bytes; the limit is 4194304 bytes)" before parsing.
pub const MAX_SOURCE_BYTES: usize = 4 * 1024 * 1024;

/// Deepest nesting of brackets (`(`, `[`, `{`, `${`) the pre-scan accepts: 256. The parser
/// recurses once per level and aborts the whole process near 10,000 levels, so deeper sources
/// are a ParseError "nesting too deep (limit 256 brackets)" before it runs. The scan skips
/// strings, comments, template text and regular-expression literals approximately; a bracket it
/// mistakes only makes the count larger, never hides real nesting.
pub const MAX_NESTING: usize = 256;

/// Deepest nesting of syntax the lowering walks recursively (expressions inside expressions,
/// statements inside statements, functions inside functions): 512. Nesting without brackets
/// (`!!!!x`, `x = y = ...`, `a ? b : c ? ...`, `a ** b ** ...`) is counted here; a
/// left-leaning operator chain (`s + a + b + ...`) is not nesting: the parser and the
/// compiler read it in a loop, so only the source size bounds it. Deeper is a ParseError
/// "expression or statement nesting too deep (limit 512)".
pub const MAX_SYNTAX_DEPTH: usize = 512;

/// Registers one function may use (locals, temporaries): 65,535 (16-bit operands). More is a
/// ParseError "function needs too many registers".
pub const MAX_REGISTERS: usize = 65_535;

/// Deepest nesting of active JavaScript calls: 10,000 (the seed's depth; node's own limit is
/// near it for small frames). One more throws the catchable
/// `RangeError: Maximum call stack size exceeded`.
pub const MAX_CALL_DEPTH: usize = 10_000;

/// Register slots of all active frames together: 4,000,000. More throws the same catchable
/// RangeError as [`MAX_CALL_DEPTH`].
pub const MAX_STACK_SLOTS: usize = 4_000_000;

/// Memory cap when the host gives none: 512 MiB. Allocations (objects, properties, elements,
/// strings, closures, cells, frames, logs) are charged as they are made; exceeding the cap is
/// an uncatchable ExecutionFailure "memory limit exceeded". The charges are the sizes the
/// process holds (`heap.rs`: `OBJECT_BYTES`, `PROP_BYTES`, `INDEX_ENTRY_BYTES`, `STRING_BYTES`,
/// `FRAME_BYTES` are the structures' own sizes); what they leave out is allocator and
/// growth slack, so a program at the cap holds at most about 1.4× it in RSS (the shapes
/// measured in bench/RESULTS.md).
pub const MAX_MEMORY_BYTES: usize = 512 * 1024 * 1024;

/// Total fuel an execution may use (about one unit per instruction, builtins per element or
/// byte of work): 10^10. More is the uncatchable ExecutionFailure "instruction limit exceeded".
pub const MAX_TOTAL_FUEL: u64 = 10_000_000_000;

/// Longest string in UTF-16 code units: 2^24 (the seed's bound; V8's is 2^29 - 24). Longer
/// throws the catchable `RangeError: Invalid string length`, as V8 words it.
pub const MAX_STRING_LENGTH: usize = 1 << 24;

/// Largest array length: 2^32 - 1, the language's own bound (ECMA-262 §10.4.2). A longer
/// `new Array(n)`, `length` write or element write throws the catchable
/// `RangeError: Invalid array length`, as V8 words it. Only the elements written are stored
/// (a dense prefix and a sparse map): `new Array(1e7)` and `a[4e9] = 1` hold a few bytes;
/// what they do hold is bounded by the memory cap.
pub const MAX_ARRAY_LENGTH: usize = u32::MAX as usize;

/// Most bytes one `crypto.getRandomValues(u8)` call fills: 65,536 (the Web Crypto
/// standard's quota, as node has it). More throws the catchable `QuotaExceededError`
/// "The requested length exceeds 65,536 bytes". A `Uint8Array`'s own length is bounded by
/// [`MAX_ARRAY_LENGTH`] (more is `RangeError: Invalid typed array length: N`) and, before
/// its bytes are allocated, by the memory cap.
pub const MAX_RANDOM_VALUES_BYTES: usize = 65_536;

/// Most arguments one call may pass (spread included): 250,000 (the seed's bound). More throws
/// the catchable `RangeError: Maximum call stack size exceeded`, as V8 does for huge spreads.
pub const MAX_ARGUMENTS: usize = 250_000;

/// Deepest nesting of builtin string conversions inside one another (`String(a)` of an array
/// holding arrays, an Error whose `name` is an Error, ...): 64. Deeper throws the catchable
/// `RangeError: Maximum call stack size exceeded` instead of recursing on the Rust stack.
pub const MAX_NATIVE_NESTING: u32 = 64;

/// Deepest nesting of arrays and objects where data crosses between guest and host, and in
/// `JSON.stringify`/`JSON.parse`: the protocol's bound (128).
pub const MAX_DATA_DEPTH: usize = codemode_guest::MAX_DATA_DEPTH;

/// Largest value that crosses to the host (a result, a tool call's or extension's input): 64
/// MiB counting its JSON text plus [`EXPORT_NODE_BYTES`] per value (the copy handed to the
/// host is outside the memory accounting, and an object that appears several times is copied
/// each time, so a small program can stand for a huge copy). Larger is InvalidDataValue
/// "... is too large to cross to the host"; the same bound as Lua's.
pub const MAX_EXPORT_BYTES: usize = 64 * 1024 * 1024;

/// Bytes counted per value against [`MAX_EXPORT_BYTES`] besides its JSON text: one
/// `serde_json::Value`.
pub const EXPORT_NODE_BYTES: usize = std::mem::size_of::<serde_json::Value>();

/// Longest message of an uncaught error handed to the host (8 KiB); longer is cut with
/// " ... [error message truncated: N bytes]".
pub const MAX_ERROR_MESSAGE_BYTES: usize = 8 * 1024;

/// Elements or bytes a builtin processes between two checks of the total fuel and the
/// deadline (a tuning value: it bounds the overshoot of one long builtin call).
pub const WORK_CHUNK: usize = 4096;

/// Deepest nesting of groups and classes (`(`, `[`) in a regular expression: 256. The
/// pattern parser recurses per level, so deeper patterns are a SyntaxError "pattern nesting
/// too deep" before it runs.
pub const MAX_REGEX_NESTING: usize = 256;

/// Largest regular-expression program: 2^20 instructions (and as many pattern code units).
/// Larger is a SyntaxError "regular expression too large".
pub const MAX_REGEX_PROGRAM: usize = 1 << 20;

/// Most capture groups one regular expression may have: 32,767. More is a SyntaxError "too
/// many capture groups".
pub const MAX_REGEX_CAPTURES: usize = 32_767;

/// Most entries of one search's backtrack stack: 2^23 (16 bytes each, charged to the run's
/// memory as it grows). More throws the catchable `RangeError: Maximum call stack size
/// exceeded`, as V8 does for a regular expression that backtracks too deep; a stack the
/// memory cap cannot hold ends the run with "memory limit exceeded".
pub const MAX_REGEX_BACKTRACK: usize = 1 << 23;

/// Compiled patterns a run keeps for reuse (a literal in a loop compiles once): 64.
pub const MAX_REGEX_CACHE: usize = 64;

/// Longest result of one replacement template (`$1`, `$<name>`, `$&` ...) in code units: the
/// string bound, [`MAX_STRING_LENGTH`]. Longer throws the catchable
/// `RangeError: Invalid string length`.
pub const MAX_REPLACEMENT_LENGTH: usize = MAX_STRING_LENGTH;

/// Longest prototype chain a property lookup follows; a longer one reads as ending there
/// (JSON's `toJSON` check treats it as needing the slow path).
pub const MAX_PROTO_CHAIN: usize = 100_000;

/// Promises that may be pending at once in one run: 1,000,000. Making one more (a `new
/// Promise`, a `then`, a tool call, an async call) is the catchable `RangeError` "too many
/// pending promises (limit 1000000)". Pending promises are also charged against the memory
/// cap ([`PROMISE_BYTES`] each), which usually ends hostile growth first.
pub const MAX_PENDING_PROMISES: usize = 1_000_000;

/// Bytes charged for one promise (its slots and what it costs beyond a plain object), on top of
/// the object's own charge.
pub const PROMISE_BYTES: usize = 192;

/// Jobs that may wait in the job queue at once: 1,000,000. One more ends the run
/// (uncatchably) with "too many queued promise jobs". Each queued job and each registered
/// reaction is charged [`JOB_BYTES`].
pub const MAX_QUEUED_JOBS: usize = 1_000_000;

/// Bytes charged for one queued job or registered promise reaction.
pub const JOB_BYTES: usize = 64;

/// Bytes charged for a suspended frame (a generator or an async call waiting), besides its
/// registers (each charged as a value).
pub const SUSPENDED_FRAME_BYTES: usize = 128;

/// Host calls (tool calls, `search`, extensions) started and not yet answered at once:
/// 10,000. Starting one more is the catchable `RangeError` "too many tool calls started and
/// not finished". The host runs at most 8 at a time and queues the rest first in first out.
pub const MAX_OPEN_HOST_CALLS: usize = 10_000;

/// Thrown values whose first throw site a run remembers (`Vm::throw_origins`): 8. A value
/// thrown again is located where it was first thrown while it is among the last 8 thrown;
/// an older one is located at its new throw.
pub const MAX_THROW_ORIGINS: usize = 8;

/// Most `LikelyMistake` warnings a run reports (a Promise used as data, `for…in` over an
/// array); later ones are not noted.
pub const MAX_SLIP_WARNINGS: usize = 8;

/// Work units charged for noting a likely mistake (its location is looked up).
pub const SLIP_WORK: usize = 64;

/// Error objects made from host errors that keep their host kind for an uncaught report:
/// 10,000 (later ones are reported as ordinary uncaught errors).
pub const MAX_KEPT_HOST_ERRORS: usize = 10_000;

/// Missing-tool errors per run that come with ranked "did you mean" suggestions: 16 (ranking
/// costs work proportional to the number of tools; later errors name the path only).
pub const MAX_SUGGESTION_LOOKUPS: usize = 16;

/// Fuel charged for one ranked missing-tool lookup.
pub const SUGGESTION_LOOKUP_WORK: usize = 10_000;

/// Elements (array elements, properties, table entries, string units, or the value of a number
/// argument) above which a native call does not run inline on an async thread: 4,096. Such a
/// call, and a due collection, wait for the next run, which the host makes on the blocking pool.
pub const INLINE_MAX_ELEMENTS: usize = 4096;
