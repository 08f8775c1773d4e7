//! GC roots and safe points: when the dispatch loop may start a collection (never while a
//! native other than a [`GC_SAFE_NATIVES`] one runs, never a large one in an inline stretch,
//! never past the deadline) and what it marks from (the whole value stack, constants,
//! globals, frames' closures, open upvalues, pinned values).

use super::Vm;
use crate::heap::UpvalRef;
use crate::limits;
use crate::value::Value;

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
}

/// Natives whose callbacks may run a garbage collection: while their Lua callback runs they hold
/// no collectable value outside the VM stack (gsub's subject, pattern and replacement are its
/// arguments; each capture is pushed as an argument before the call; the result is copied into
/// its byte buffer before any allocation). Other natives (a `table.sort` comparator holds the
/// values being sorted in a Rust vector) keep the rule "no collection inside a callback".
pub(super) const GC_SAFE_NATIVES: &[&str] = &["gsub"];
