//! Fixed internal bounds of the Lua machine, each a named constant. Hosts tune only what
//! [`crate::Budgets`] exposes; these protect the host process whatever the program does.

/// Memory cap (bytes held by strings, tables, closures, logs) when
/// [`crate::Budgets::max_memory_bytes`] is `None`. Exceeding it is an uncatchable
/// ExecutionFailure ("memory limit exceeded").
pub const MAX_MEMORY_BYTES: usize = 512 * 1024 * 1024;

/// A garbage collection runs when the bytes allocated since the last one exceed
/// `max(live bytes, GC_MIN_DEBT_BYTES)`.
pub const GC_MIN_DEBT_BYTES: usize = 8 * 1024 * 1024;

/// Total fuel (about one unit per VM instruction; natives charge per byte/element) an execution
/// may use. Exceeding it is an uncatchable ExecutionFailure.
pub const MAX_TOTAL_FUEL: u64 = 10_000_000_000;

/// Maximum number of active Lua call frames; one more is a catchable "stack overflow" error.
pub const MAX_FRAMES: usize = 200_000;

/// Maximum value-stack slots (like LUAI_MAXSTACK); more is a catchable "stack overflow" error.
pub const MAX_STACK_SLOTS: usize = 1_000_000;

/// Maximum nesting of natives calling back into Lua (sort comparators, xpcall handlers, ...).
pub const MAX_NATIVE_NESTING: usize = 200;

/// Maximum registers per function (operands are 8-bit).
pub const MAX_REGISTERS: usize = 250;

/// Maximum upvalues per function.
pub const MAX_UPVALUES: usize = 255;

/// Maximum nesting depth of values walked recursively (export, tostring of nested data).
pub const MAX_VALUE_DEPTH: usize = 200;
