//! Inline stretches and restarts, in one place.
//!
//! An *inline stretch* runs guest work directly on the caller's (async) thread for a short
//! time instead of handing it to a worker thread ([`Machine::set_inline`]; the host asks for
//! one with `Budget::soft_deadline` and sees only that and `Guest::restartable`). While the
//! stretch lasts, every check point of long work (the deadline checks of natives, data walks
//! and host-value imports) also compares the clock with its end. Past it, inside a
//! *restartable step* (a native called from the main dispatch loop that has not changed any
//! Lua-visible state yet, a concatenation, a tool call's argument export, a host reply's
//! import, the result's export), the check returns [`Throw::Restart`]: not an error but its
//! own unwind case, which every catch site passes on. The step is abandoned with nothing
//! visible changed: the VM points back at the step's instruction and yields
//! ([`Vm::restart_abandoned`]), the machine asks for the pool ([`Machine::wants_pool`]), and
//! the step runs again, from its start, off the caller's thread.
//!
//! - [`Meter`]: the one meter of an execution, held by the heap: the bytes held (against the
//!   cap), the fuel (the slice, the total and its cap), the deadline (stored only here) and
//!   the stretch's state. `vm/meter.rs` charges fuel and work; [`Vm::check_totals`] checks the
//!   total fuel, the deadline and the stretch at every check point of long work,
//!   [`Heap::check_deadline`] the deadline and the stretch where no VM is at hand.
//! - [`restartable`]: the scope of a restartable step, an RAII guard that restores the flag on
//!   every exit path (an early `?` included).
//! - Where a step is not restartable: [`crate::vm::Ctx::effects`] (a native changed state),
//!   [`crate::vm::Ctx::inline_gate`] (table-changing work too large for a stretch).

use std::ops::{Deref, DerefMut};
use std::time::Instant;

use crate::heap::{Heap, MemCounter};
use crate::value::{Throw, VmResult};
use crate::vm::Vm;
use crate::{ErrorKind, HostReply, Machine, boundary};

/// The meter of one execution: the bytes it holds, the fuel it uses, its deadline and the
/// state of the current inline stretch.
#[derive(Clone, Debug)]
pub(crate) struct Meter {
    /// Bytes held, against the memory cap.
    pub mem: MemCounter,
    /// Fuel left in the current slice (natives charge it with `Ctx::charge`; the dispatch
    /// loop yields when it is spent).
    pub fuel: i64,
    /// Fuel of the current slice.
    pub slice: i64,
    /// Fuel used by the slices before the current one.
    pub fuel_used: u64,
    /// Total fuel this execution may use (at most `limits::MAX_TOTAL_FUEL`).
    pub fuel_cap: u64,
    /// The execution's wall-clock deadline ([`Machine::set_deadline`]), checked between slices,
    /// inside nested runs and by long walks over data inside one builtin or host reply.
    pub deadline: Option<Instant>,
    /// End of the current inline stretch; `None` when not inline.
    pub until: Option<Instant>,
    /// A restartable step is running (only ever true while `until` is set); set only through
    /// [`restartable`], cleared early by [`crate::vm::Ctx::effects`].
    pub restartable: bool,
    /// The instruction running changed Lua-visible state (a native's
    /// [`crate::vm::Ctx::effects`], a tail call that popped its frame): an error it raises
    /// cannot be raised again by re-running it. Cleared when a native call starts, when the
    /// instruction ends without error, and by `handle_error` once it has read it.
    pub dirty: bool,
    /// A restartable step was abandoned and its garbage must be collected before it runs
    /// again (done at the next `Machine::run` or `Machine::resume` outside a stretch; see
    /// [`Heap::abandoned_step`]).
    pub collect_next: bool,
    /// Accounted bytes when the stretch started.
    pub used_at_start: usize,
    /// The machine asks to continue off the caller's thread: a restartable step ran out of
    /// time, or a garbage collection is due (collections never run inline).
    pub wants_pool: bool,
    /// Test mode: every unit of accounted work is a check point (and so, with an expired
    /// `until`, every restartable step that does any accounted work restarts once).
    pub stress: bool,
}

impl Meter {
    /// A fresh meter with a memory cap of `cap` bytes and the maximum total fuel.
    pub(crate) fn new(cap: usize) -> Meter {
        Meter {
            mem: MemCounter::new(cap),
            fuel: 0,
            slice: 0,
            fuel_used: 0,
            fuel_cap: crate::limits::MAX_TOTAL_FUEL,
            deadline: None,
            until: None,
            restartable: false,
            dirty: false,
            collect_next: false,
            used_at_start: 0,
            wants_pool: false,
            stress: false,
        }
    }

    /// In an inline stretch.
    #[inline]
    pub(crate) fn inline(&self) -> bool {
        self.until.is_some()
    }

    /// Some clock is set (a deadline or a stretch): long work must check it.
    #[inline]
    pub(crate) fn clocked(&self) -> bool {
        self.deadline.is_some() || self.until.is_some()
    }
}

/// What holds a [`Meter`] (the heap, and the VM through its heap).
pub(crate) trait Metered {
    /// The meter.
    fn meter(&mut self) -> &mut Meter;
}

impl Metered for Heap {
    fn meter(&mut self) -> &mut Meter {
        &mut self.meter
    }
}

impl Metered for Vm {
    fn meter(&mut self) -> &mut Meter {
        &mut self.heap.meter
    }
}

/// The scope of a step that is restartable when `on` (see the module docs): derefs to
/// `target`; when dropped, on every exit path, the flag is back to what it was.
pub(crate) fn restartable<T: Metered>(target: &mut T, on: bool) -> Restartable<'_, T> {
    let prev = std::mem::replace(&mut target.meter().restartable, on);
    Restartable { target, prev }
}

/// The guard [`restartable`] returns.
pub(crate) struct Restartable<'a, T: Metered> {
    target: &'a mut T,
    prev: bool,
}

impl<T: Metered> Deref for Restartable<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.target
    }
}

impl<T: Metered> DerefMut for Restartable<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.target
    }
}

impl<T: Metered> Drop for Restartable<'_, T> {
    fn drop(&mut self) {
        self.target.meter().restartable = self.prev;
    }
}

impl Heap {
    /// The uncatchable TimeoutExceeded error if the deadline has passed (checked every
    /// `heap::DEADLINE_CHECK_WORK` units of work by long data walks).
    ///
    /// In an inline stretch it is also the check point of the stretch's soft limit: past
    /// [`Meter::until`], inside a restartable step, it returns [`Throw::Restart`].
    pub(crate) fn check_deadline(&self) -> VmResult<()> {
        if !self.meter.clocked() {
            return Ok(());
        }
        let now = std::time::Instant::now();
        match self.meter.deadline {
            Some(d) if now >= d => Err(Throw::fatal(
                ErrorKind::TimeoutExceeded,
                "the execution timed out",
            )),
            _ => self.check_inline(now),
        }
    }

    /// A restartable step was abandoned: decide whether its garbage must be collected before
    /// it runs again ([`Meter::collect_next`]). Only when a collection is due anyway or
    /// what the stretch allocated is large next to the room left under the cap (else the
    /// re-run could fail with the memory limit where an ordinary run would not); a full
    /// collection per abandoned step would cost a tool-calling program on a large heap one
    /// collection per call.
    pub(crate) fn abandoned_step(&mut self) {
        let allocated = self.meter.mem.used.saturating_sub(self.meter.used_at_start);
        let room = self.meter.mem.cap.saturating_sub(self.meter.mem.used);
        if self.gc_due() || allocated.saturating_mul(4) > room {
            self.meter.collect_next = true;
        }
    }

    /// [`Throw::Restart`] if a restartable step of an inline stretch is past the stretch's end.
    #[inline]
    pub(crate) fn check_inline(&self, now: std::time::Instant) -> VmResult<()> {
        match self.meter.until {
            Some(u) if self.meter.restartable && now >= u => Err(Throw::Restart),
            _ => Ok(()),
        }
    }

    /// The instant long work inside the current step must stop at: the deadline, or the end of
    /// the inline stretch when the step is restartable, whichever comes first. For walks that
    /// take an instant instead of calling [`Heap::check_deadline`]; when it passes they call
    /// [`Heap::check_deadline`] for the error to report.
    pub(crate) fn work_until(&self) -> Option<std::time::Instant> {
        let soft = self.meter.until.filter(|_| self.meter.restartable);
        match (self.meter.deadline, soft) {
            (Some(d), Some(u)) => Some(d.min(u)),
            (d, u) => d.or(u),
        }
    }
}

impl Vm {
    /// In an inline stretch and in the main dispatch loop (not a nested callback run): where a
    /// step may be restartable.
    #[inline]
    pub(crate) fn inline_main_loop(&self) -> bool {
        self.heap.meter.inline() && self.nested_depth() == 0
    }

    /// A restartable step ended with [`Throw::Restart`]: ask for the pool and have what the
    /// abandoned attempt allocated collected before it runs again (so it cannot count twice
    /// against the memory cap).
    pub(crate) fn restart_abandoned(&mut self) {
        self.heap.meter.restartable = false;
        self.heap.meter.wants_pool = true;
        self.heap.abandoned_step();
    }

    /// Outside a stretch, collect the garbage an abandoned step left (see
    /// [`Meter::collect_next`]).
    pub(crate) fn collect_abandoned(&mut self) {
        if self.heap.meter.collect_next && !self.heap.meter.inline() {
            self.heap.meter.collect_next = false;
            self.gc();
        }
    }

    /// The check point of a restartable step in the VM: [`Throw::Restart`] once the stretch
    /// has ended.
    #[inline]
    pub(crate) fn check_stretch(&self) -> VmResult<()> {
        if self.heap.meter.restartable {
            self.heap.check_inline(Instant::now())?;
        }
        Ok(())
    }
}

impl Machine {
    /// Set a wall-clock deadline. The machine itself never reads the clock during normal runs
    /// (the driver checks it between slices), but inside natives that call back into Lua (e.g. a
    /// `table.sort` comparator) it cannot yield, so it checks this deadline there and fails with
    /// TimeoutExceeded.
    pub fn set_deadline(&mut self, deadline: std::time::Instant) {
        if let Some(vm) = &mut self.vm {
            vm.heap.meter.deadline = Some(deadline);
        }
    }

    /// Start (`Some(until)`) or end (`None`) an *inline stretch*: the next calls of
    /// [`Machine::run`] and [`Machine::try_resume`] run on a thread that must not be held long
    /// (an async runtime's), until about `until`.
    ///
    /// In a stretch the machine never starts a garbage collection, and the check points of long
    /// work inside a *restartable* step (a builtin that has not changed any table yet, a
    /// concatenation, a tool call's argument export, a host reply's import, the result's
    /// export) also compare the clock with `until`: past it, the step is abandoned with no
    /// visible effect and [`Machine::run`] returns [`Step::Yield`](crate::Step::Yield) with [`Machine::wants_pool`]
    /// set; the step runs again, from its start, at the next `run`. Builtins that change a
    /// table do not start more than [`limits::INLINE_GATE_ELEMS`](crate::limits::INLINE_GATE_ELEMS) elements of such work in a
    /// stretch, and `xpcall` or a builtin that calls back into Lua (`table.sort` with a
    /// comparator, `string.gsub` with a function) asks to continue off the thread at once. An
    /// error that an `xpcall` would catch (its message handler is a nested call that cannot
    /// be restarted) is not handled in a stretch either: the failing instruction runs again
    /// off the thread (a tool's error reply is raised there). A collection due over a heap of
    /// more than [`limits::INLINE_GC_BYTES`](crate::limits::INLINE_GC_BYTES) and copying a string longer than one work chunk
    /// across the data boundary also ask for the pool, and every instruction that charged fuel
    /// for data work yields at its end once the slice is spent. So a stretch overruns `until`
    /// by at most about one work chunk ([`limits::WORK_CHUNK_BYTES`](crate::limits::WORK_CHUNK_BYTES) /
    /// [`limits::WORK_CHUNK_ELEMS`](crate::limits::WORK_CHUNK_ELEMS)) or one table resize (a rehash of a table with millions of
    /// keys is the longest: ~0.1 s). Garbage left by an abandoned step is collected before the
    /// step runs again. Visible only to `collectgarbage("count")` and table addresses in
    /// `tostring` and `string.format("%p")`: restarts and deferred collections change those.
    ///
    /// The embedder (codemode's driver) runs small slices in a stretch and moves the machine
    /// to a worker thread when `wants_pool` is set or `until` has passed.
    pub fn set_inline(&mut self, until: Option<std::time::Instant>) {
        if let Some(vm) = &mut self.vm {
            vm.heap.meter.until = until;
            vm.heap.meter.restartable = false;
            vm.heap.meter.wants_pool = false;
            vm.heap.meter.used_at_start = vm.heap.meter.mem.used;
        }
    }

    /// After a [`Step::Yield`](crate::Step::Yield) in an inline stretch: the machine asks to continue off the
    /// caller's thread (a step ran out of the stretch's time, or a collection is due).
    pub fn wants_pool(&self) -> bool {
        self.vm.as_ref().is_some_and(|vm| vm.heap.meter.wants_pool)
    }

    /// Test mode for inline stretches: every unit of accounted work is a check point and every
    /// gated builtin asks to leave the stretch, so with an `until` in the past each restartable
    /// step that does any accounted work is abandoned once and re-run. Used by the differential
    /// tests to prove that re-running a step gives the same results.
    #[doc(hidden)]
    pub fn set_inline_stress(&mut self, on: bool) {
        if let Some(vm) = &mut self.vm {
            vm.heap.meter.stress = on;
        }
    }

    /// Like [`Machine::resume`], in an inline stretch (see [`Machine::set_inline`]): importing
    /// the reply is restartable, so when it runs past the stretch's end the machine is left as
    /// it was and the reply is handed back (`Err`), to be given to [`Machine::resume`] off the
    /// caller's thread. Outside a stretch it is [`Machine::resume`].
    pub fn try_resume(&mut self, reply: HostReply) -> Result<(), HostReply> {
        let Some(vm) = self.vm.as_mut() else {
            return Ok(());
        };
        let HostReply::Value(j) = &reply else {
            self.resume(reply);
            return Ok(());
        };
        if vm.heap.meter.until.is_none() || vm.pending.is_none() || self.refusal.is_some() {
            self.resume(reply);
            return Ok(());
        }
        let mut work = 0u64;
        let imported = {
            let mut heap = restartable(&mut vm.heap, true);
            boundary::import_from(&mut heap, j, &mut work, true)
        };
        match imported {
            Err(Throw::Restart) => {
                // The partly built value is garbage: nothing refers to it. It is collected
                // before the reply is imported again (`resume`).
                vm.restart_abandoned();
                Err(reply)
            }
            imported => {
                let Some(p) = vm.pending.take() else {
                    return Ok(());
                };
                let target = self.waiting_on.take();
                let HostReply::Value(j) = reply else {
                    return Ok(());
                };
                boundary::drop_json(j);
                self.deliver_import(p, target, imported, work);
                Ok(())
            }
        }
    }
}
