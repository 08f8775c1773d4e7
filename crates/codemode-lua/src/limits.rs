//! Every fixed internal bound of the Lua guest, in one place. Hosts tune only what
//! [`crate::Budgets`] exposes (and the host crate's `Limits`); these bounds protect the host
//! process whatever the program does, even when the host raises its own limits.
//!
//! What exhausting each gives (see also `docs/limits.md`):
//! - source and syntax bounds: a `ParseError` with a location and a hint;
//! - execution bounds (memory, total fuel): an `ExecutionFailure` that `pcall` cannot catch,
//!   naming the bound; logs and the tool-call record are kept by the host;
//! - call depth ([`MAX_FRAMES`], [`MAX_STACK_SLOTS`], [`MAX_NATIVE_NESTING`]): the catchable
//!   "stack overflow" error, like Lua's;
//! - Lua's own per-call bounds ([`MAX_UNPACK`], [`MAX_CALL_RESULTS`], [`MAX_FORMAT_SPEC_LEN`],
//!   [`MAX_PATTERN_DEPTH`], [`MAX_CAPTURES`], [`MAX_REP_BYTES`]): catchable errors with Lua's
//!   messages;
//! - data-boundary bounds ([`MAX_DATA_DEPTH`], [`MAX_EXPORT_BYTES`]): `InvalidDataValue` naming the
//!   path (catchable when raised by a call such as `json.encode` or a tool call).
//! - work chunks ([`WORK_CHUNK_BYTES`], [`WORK_CHUNK_ELEMS`]): how much one builtin call does
//!   between two checks of the deadline and the total fuel, so that a single long call (a
//!   `string.rep` of 400 MB, a `table.sort` of 10^6 values) ends with the uncatchable
//!   `TimeoutExceeded` soon after the deadline (tested in `tests/deadline.rs`).
//! - inline stretches ([`INLINE_GATE_ELEMS`], see `Machine::set_inline`): how much table-changing
//!   work a builtin may start while the machine runs on the caller's async thread; more moves
//!   the call to a worker thread (nothing for the program to see).

// ----- source ---------------------------------------------------------------------------------

/// Largest accepted source text in bytes (4 MiB): larger is a ParseError "program too large
/// (N bytes; the limit is 4194304 bytes); write a shorter program" before lexing.
pub use crate::parser::MAX_SOURCE_BYTES;

/// Deepest syntactic nesting (blocks, sub-expressions, parentheses, table constructors,
/// function bodies, suffix chains such as `a.b.c` or `f()()`, unary operators, `^` chains): 200,
/// like Lua's `LUAI_MAXCCALLS`. Deeper is a ParseError "expression/block nesting too deep (limit
/// 200); flatten the program ...". The parser and compiler never recurse further than this.
///
/// A run of other binary operators at one level (`1 + 2 * 3 - ...`, `a and b or c`, comparisons,
/// bitwise operators, and right-associative `..` runs) is parsed in a loop into one flat node
/// and counts one level (two with a `..` run) whatever its length: such chains are bounded only
/// by [`MAX_SOURCE_BYTES`], and compile in a loop with a constant number of registers. Lua 5.4
/// accepts long left-associative chains too, but stops `..` chains near 200 terms ("C stack
/// overflow"); codemode accepts long `..` chains (concatenated 200 operands at a time).
pub use crate::parser::MAX_SYNTAX_DEPTH;

/// Maximum registers per function (operands are 8-bit): more is a ParseError "function or
/// expression needs too many registers (limit 250)".
pub const MAX_REGISTERS: usize = 250;

/// Maximum upvalues per function (Lua's limit): more is a ParseError "too many upvalues (limit
/// is 255)".
pub const MAX_UPVALUES: usize = 255;

// ----- execution ------------------------------------------------------------------------------

/// Memory cap (bytes held by strings, tables, closures, frames, logs and the compiled program)
/// when [`crate::Budgets::max_memory_bytes`] is `None`: 512 MiB. Every allocation is charged
/// *before* it is made (a `string.rep('x', 2e9)` fails at once), at what it occupies
/// (`heap::alloc_bytes` of its chunk, its heap slot, its share of the string table), so resident
/// memory stays within about 1.3 times the cap (`tests/rss.rs`). Exceeding it is an uncatchable
/// ExecutionFailure "memory limit exceeded: the program holds more than N bytes; process data in
/// smaller pieces".
///
/// [`crate::compile_with`] charges the syntax tree, the compiler's state and the bytecode to the
/// same budget (`parser::CompileMeter`): a program that does not fit fails before it runs with
/// the ExecutionFailure "memory limit exceeded: compiling the program needs more than N bytes
/// ...", located where compiling stopped.
pub const MAX_MEMORY_BYTES: usize = 512 * 1024 * 1024;

/// A garbage collection runs when the bytes allocated since the last one exceed
/// `max(live bytes, GC_MIN_DEBT_BYTES)`, or half the room left under the memory cap when that is
/// less (a tuning value, not a bound).
pub const GC_MIN_DEBT_BYTES: usize = 8 * 1024 * 1024;

/// Total fuel an execution may use: 10^10 units (about one per VM instruction; builtins charge
/// per byte or element they process: `string.rep`, `table.concat`, `table.sort`, `json.encode`,
/// copies). Exceeding it is an uncatchable ExecutionFailure "instruction limit exceeded".
/// In practice the host's `timeout_ms` ends long runs first.
pub const MAX_TOTAL_FUEL: u64 = 10_000_000_000;

/// Maximum active Lua call frames (kept on the heap, never on the Rust stack): one more is the
/// catchable "stack overflow" error.
pub const MAX_FRAMES: usize = 200_000;

/// Maximum value-stack slots (like `LUAI_MAXSTACK`): more is the catchable "stack overflow".
pub const MAX_STACK_SLOTS: usize = 1_000_000;

/// Maximum nesting of natives calling back into Lua (a `table.sort` comparator that sorts, an
/// `xpcall` handler that calls `xpcall`, ...). Each level is a nested dispatch loop on the Rust
/// stack: measured about 30 KiB per level in a debug build, so 32 levels stay near 1 MiB, half
/// of a 2 MiB thread stack (tokio workers, test threads). One more is the catchable
/// "stack overflow (too many nested callbacks)".
pub const MAX_NATIVE_NESTING: usize = 32;

/// Deepest nesting of active `pcall`/`xpcall` calls (Lua's C stack limit, `LUAI_MAXCCALLS`,
/// 200): one more is the catchable "C stack overflow", like Lua. Without it, `return pcall(f)`
/// recursion returns one more value per level (quadratic work on unwind).
pub const MAX_PCALL_NESTING: usize = 200;
/// How many times an `xpcall` message handler that itself fails is called again on its new
/// error (Lua re-enters it until its C stack limit, 200). Then `xpcall` returns `false, "error in
/// error handling"`, like Lua.
pub const MAX_ERROR_HANDLER_CALLS: usize = 200;

/// How many unknown-tool errors of one execution get "did you mean" suggestions. Ranking the
/// nearest tool paths is host work proportional to the number of tools (two edit distances per
/// path); later unknown-tool errors name the namespace's tools or say to use `search` instead.
/// Each lookup is also charged [`SUGGESTION_FUEL_PER_TOOL`] fuel per tool path.
pub const MAX_SUGGESTION_LOOKUPS: u32 = 16;

/// Fuel charged for an unknown-tool error, per tool path the host has (the suggestion ranking
/// and the namespace listing compare the missing path with each).
pub const SUGGESTION_FUEL_PER_TOOL: i64 = 8;

/// Most values one builtin call may return (`string.byte` over a long slice, `utf8.codepoint`):
/// half of [`MAX_STACK_SLOTS`]. More is the catchable "string slice too long".
pub const MAX_CALL_RESULTS: usize = MAX_STACK_SLOTS / 2;

/// Most values `table.unpack` may return: more is the catchable "too many results to unpack"
/// (Lua's message).
pub const MAX_UNPACK: u64 = 999_000;

/// Largest `string.rep(s, n, sep)` Lua 5.4 builds (its lstrlib `MAXSIZE`, `INT_MAX` bytes),
/// counting `#s + #sep` bytes per repetition as Lua does: more is the catchable "resulting
/// string too large" before anything is allocated (`string.rep('x', 2^31)`). A result under
/// this bound can still pass the memory cap, which stops the execution (uncatchable).
pub const MAX_REP_BYTES: usize = i32::MAX as usize;

/// Longest `string.format` conversion spec (flags, width, precision, letter) in bytes, like
/// Lua: longer is the catchable "invalid format (too long)"; widths or precisions over 99
/// (`%5000d`) are "invalid conversion specification: '%5000d'", like Lua.
pub const MAX_FORMAT_SPEC_LEN: usize = 21;

/// Deepest recursion of the Lua pattern matcher (`string.find`, `match`, `gmatch`, `gsub`):
/// 200, like Lua's `MAXCCALLS` in lstrlib.c. The matcher recurses (on the Rust stack) once per
/// capture, per quantified item followed by more pattern, and per back-tracking point; one more
/// level is the catchable "pattern too complex", like Lua. At full depth the matcher uses under
/// 512 KiB of Rust stack in a debug build (about 2 KiB per level; tested), on top of at most
/// [`MAX_NATIVE_NESTING`] callback levels. Work inside a match (every byte tried)
/// is charged as fuel and checked every [`WORK_CHUNK_ELEMS`] steps, so exponential
/// back-tracking ends with the execution's fuel or deadline.
pub const MAX_PATTERN_DEPTH: usize = 200;

/// Most captures one pattern may hold (Lua's `LUA_MAXCAPTURES`, 32): more is the catchable
/// "too many captures".
pub const MAX_CAPTURES: usize = 32;

/// Longest message of an uncaught error handed to the host (8 KiB): `error(string.rep('e', 1e7))`
/// gives the first 8 KiB followed by " ... [error message truncated: N bytes]". (Inside the
/// program, `pcall` still sees the whole value.)
pub const MAX_ERROR_MESSAGE_BYTES: usize = 8 * 1024;

/// Bytes a builtin copies, scans, converts or hashes between two checks of the deadline and the
/// total fuel (`string.rep`, `upper`, `sub`, `find`, `table.concat`, `..`, `json.encode`, hashing
/// a new long string, ...): 256 KiB. A single call over a huge string (`s:upper()` of 200 MB)
/// therefore ends with `TimeoutExceeded` about one chunk of work after the deadline; a call
/// smaller than one chunk never reads the clock. (A tuning value: it bounds the overshoot, not
/// what a program may do.)
pub const WORK_CHUNK_BYTES: usize = 256 * 1024;

/// Elements (values copied, table slots read or written, comparisons) a builtin processes between
/// two checks of the deadline and the total fuel (`table.sort`, `table.unpack`, `table.move`,
/// `utf8.len`, ...): 4,096.
pub const WORK_CHUNK_ELEMS: usize = 4096;

/// Elements a builtin that changes a table (`table.insert`/`table.remove` at a position,
/// `table.move`, writing back `table.sort`'s result) may process in an *inline stretch* (guest
/// work run on the caller's async thread, see `Machine::set_inline`): 16,384. Larger work is
/// not started there; the call runs off that thread instead. (A tuning value: it bounds how
/// long an inline stretch can run past its end, not what a program may do.)
pub const INLINE_GATE_ELEMS: u64 = 16 * 1024;

/// Largest heap (accounted bytes, live and garbage) collected in an inline stretch: 4 MiB. A
/// collection due over a larger heap moves the execution to a worker thread first (the
/// collection's cost grows with the heap). (A tuning value.)
pub const INLINE_GC_BYTES: usize = 4 * 1024 * 1024;

// ----- data boundary --------------------------------------------------------------------------

/// Deepest nesting of arrays/objects wherever data crosses between Lua and JSON: results, tool
/// inputs and outputs, `json.encode`, `json.decode` (128, serde_json's own parse limit). Deeper
/// is InvalidDataValue "... nests deeper than 128 levels" (`json.decode`: "nesting deeper than
/// 128 levels at position N"). Every walk also detects cycles.
pub use crate::boundary::MAX_DEPTH as MAX_DATA_DEPTH;

/// Largest exported value: 64 MiB counting its JSON text plus one `serde_json::Value` per item
/// (the copy handed to the host is outside the memory accounting). Larger is InvalidDataValue
/// "... is too large to cross to the host".
pub use crate::boundary::MAX_EXPORT_BYTES;

/// Bytes counted per item against [`MAX_EXPORT_BYTES`] besides its JSON text.
pub use crate::boundary::EXPORT_NODE_BYTES;

/// Bytes counted per value while `json.decode` builds its intermediate tree; the tree may not
/// exceed the memory the execution has left (else the memory-limit failure, before building on).
pub use crate::stdlib::json::DECODE_NODE_BYTES;

// ----- model hints ----------------------------------------------------------------------------

/// Most instructions an error hint follows back through the reads that computed a value (a
/// register move, a constant, a field read each): to find the table a nil was read from when
/// its register was reused, and to name it as written (`r.items[1].email`): 8. Past them the
/// table is named `t`, or the hint is left out when the table itself is not found.
pub const MAX_HINT_TRACE_STEPS: usize = 8;

/// Most warnings one execution collects for its result (`t.length` read as nil, ...): 16;
/// later ones are dropped.
pub const MAX_WARNINGS: usize = 16;

/// Most tables imported from tool results whose `null` fields are remembered for the hint
/// "field 'email' was null in the tool's result": 256 tables; later ones get the plain
/// missing-field hint.
pub const MAX_NULL_FIELD_TABLES: usize = 256;

/// Most `null` field names remembered per table (see [`MAX_NULL_FIELD_TABLES`]): 16, each
/// at most [`MAX_NULL_FIELD_NAME_BYTES`] bytes (a longer name is not remembered).
pub const MAX_NULL_FIELDS_PER_TABLE: usize = 16;

/// Longest `null` field name remembered for the hint: 64 bytes.
pub const MAX_NULL_FIELD_NAME_BYTES: usize = 64;

/// Longest compact JSON `print` logs for a table argument: 1,024 bytes, then `…`. Larger
/// tables are exported up to [`PRINT_EXPORT_BUDGET_BYTES`] (more, or a table that cannot be
/// JSON, logs as a Lua table constructor, cut at the same length).
pub const MAX_PRINT_JSON_BYTES: usize = 1024;

/// Deepest nesting `print` shows of a table that cannot be JSON (logged as a Lua table
/// constructor): 16 levels; deeper tables show as `{…}`.
pub const MAX_PRINT_DEPTH: usize = 16;

/// Most bytes of JSON `print` exports for one table argument before it gives up and logs
/// the table as a Lua table constructor: 64 KiB.
pub const PRINT_EXPORT_BUDGET_BYTES: usize = 64 * 1024;

/// Most host calls refused inside builtins' callbacks (a tool called in a `table.sort`
/// comparator, a `gsub` function, an `xpcall` handler, `pcall(pcall, tool)`) kept between two
/// steps for the host to count and list: 1,024. The refusal is raised either way; later ones
/// are not counted.
pub const MAX_NOTED_CALLS: usize = 1024;
