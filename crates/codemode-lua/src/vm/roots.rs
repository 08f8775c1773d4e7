//! GC roots and safe points: when the dispatch loop may start a collection (never while a
//! native other than a [`GC_SAFE_NATIVES`] one runs, never a large one in an inline stretch,
//! never past the deadline) and what it marks from (the whole value stack, constants,
//! globals, frames' closures, open upvalues, pinned values, the callback roots natives push
//! with [`Vm::push_roots`] while their Lua callbacks run).

use super::Vm;
use crate::heap::UpvalRef;
use crate::limits;
use crate::value::{Value, VmResult};

impl Vm {
    #[inline]
    pub(super) fn maybe_gc(&mut self) {
        if self.heap.meter.inline() {
            if !self.heap.gc_due() {
                return;
            }
            // A collection costs about as much as the heap is large: in an inline stretch
            // only a small heap is collected; otherwise the machine asks to continue off the
            // caller's thread and yields at the end of this instruction (`settle!`).
            if self.heap.meter.mem.used > limits::INLINE_GC_BYTES {
                self.heap.meter.wants_pool = true;
                self.heap.meter.fuel = self.heap.meter.fuel.min(-1);
                return;
            }
        }
        // Past the deadline a collection is not started (it would be abandoned): the run ends at
        // the next deadline check.
        if self.heap.gc_due()
            && self.nested.iter().all(|n| GC_SAFE_NATIVES.contains(n))
            && self.heap.check_deadline().is_ok()
        {
            self.gc();
        }
    }

    /// Run a full collection now (only at safe points: no native is running). Abandoned, with
    /// nothing freed, once the deadline has passed (see [`Heap::collect`]).
    pub(crate) fn gc(&mut self) {
        let mut roots: Vec<Value> = Vec::with_capacity(self.stack.len() + self.kflat.len() + 8);
        roots.extend_from_slice(&self.stack);
        roots.extend_from_slice(&self.kflat);
        roots.extend_from_slice(&self.pinned);
        roots.extend_from_slice(&self.callback_roots);
        roots.push(self.ipairs_iter);
        roots.push(Value::Table(self.globals));
        if let Some(s) = self.string_lib {
            roots.push(Value::Table(s));
        }
        for f in &self.frames {
            roots.push(Value::Closure(f.closure));
        }
        let ups: Vec<UpvalRef> = self.open_upvals.iter().map(|(_, u)| *u).collect();
        let _finished = self.heap.collect(&roots, &ups);
    }

    /// Make `vals` GC roots until [`Vm::pop_roots`] with the returned mark: what a native holds
    /// in Rust (outside the value stack) while a Lua callback it makes runs, so that a
    /// collection may run inside the callback. Their bytes count against the memory cap while
    /// they are held. Error: the memory limit.
    pub(crate) fn push_roots(&mut self, vals: &[Value]) -> VmResult<usize> {
        self.heap.meter.mem.hold(std::mem::size_of_val(vals))?;
        let mark = self.callback_roots.len();
        self.callback_roots.extend_from_slice(vals);
        Ok(mark)
    }

    /// Drop the callback roots pushed since `mark` (from [`Vm::push_roots`]).
    pub(crate) fn pop_roots(&mut self, mark: usize) {
        let n = self.callback_roots.len().saturating_sub(mark);
        self.callback_roots.truncate(mark);
        self.heap
            .meter
            .mem
            .release(n * std::mem::size_of::<Value>());
    }
}

/// Natives whose callbacks may run a garbage collection: while their Lua callback runs every
/// collectable value they hold is on the VM stack or in the callback roots ([`Vm::push_roots`]):
/// - `gsub`: its subject, pattern and replacement are its arguments; each capture is pushed as
///   an argument before the call; the result is copied into its byte buffer before any
///   allocation.
/// - `sort`: the table and comparator are its arguments; the values being sorted (a Rust
///   vector, permuted but always the same set) are pushed as callback roots for the sort.
/// - `pcall`/`xpcall`: a protected call of a builtin (`pcall(pcall, f)`) copies its arguments
///   onto the stack; an `xpcall` message handler and the error value it gets are pushed as
///   callback roots for each attempt (`Vm::run_handler`).
///
/// A native that calls back into Lua and is not listed keeps the rule "no collection inside
/// its callback" (memory then only grows until it returns).
pub(super) const GC_SAFE_NATIVES: &[&str] = &["gsub", "sort", "pcall", "xpcall"];
