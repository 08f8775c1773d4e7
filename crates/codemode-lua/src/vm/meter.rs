//! Metering: charging the fuel of the execution's [`crate::restart::Meter`] (the slice
//! `Machine::run` gives, the total cap), data work accounted in chunks with a limits check after
//! each (so one long builtin stops soon after the deadline), the overdraft of natives that run
//! far past the slice, and the check of the totals.

use super::Vm;
use crate::ErrorKind;
use crate::limits;
use crate::value::{StrRef, Throw, VmResult};

impl Vm {
    /// Fuel units used so far (whole execution).
    pub(crate) fn fuel_used(&self) -> u64 {
        self.heap.meter.fuel_used + (self.heap.meter.slice - self.heap.meter.fuel).max(0) as u64
    }

    /// Start a slice of `slice` fuel units.
    pub(crate) fn begin_slice(&mut self, slice: u32) {
        self.heap.meter.fuel_used += (self.heap.meter.slice - self.heap.meter.fuel).max(0) as u64;
        self.heap.meter.slice = slice.max(1) as i64;
        self.heap.meter.fuel = self.heap.meter.slice;
    }

    /// Charge `units` of fuel for work done outside the dispatch loop (natives, value copies).
    /// Far past the slice, the overdraft is accounted and the limits checked.
    #[inline]
    pub(crate) fn charge_units(&mut self, units: u64) -> VmResult<()> {
        self.heap.meter.fuel = self
            .heap
            .meter
            .fuel
            .saturating_sub(units.min(i64::MAX as u64) as i64);
        if self.heap.meter.fuel < -(1 << 20) {
            self.overdraft()?;
        }
        Ok(())
    }

    /// Account `bytes` of data work inside one operation (copying, scanning, converting):
    /// `acc` holds the bytes done since the last check; each time it reaches
    /// [`limits::WORK_CHUNK_BYTES`], fuel is charged (one unit per [`BYTES_PER_FUEL`]) and the
    /// deadline and total fuel are checked, so one long operation stops soon after the deadline.
    #[inline]
    pub(crate) fn work_bytes(&mut self, acc: &mut usize, bytes: usize) -> VmResult<()> {
        self.work(acc, bytes, limits::WORK_CHUNK_BYTES, BYTES_PER_FUEL)
    }

    /// Like [`Vm::work_bytes`] for elements (values, table slots, comparisons): one fuel unit
    /// each, limits checked every [`limits::WORK_CHUNK_ELEMS`].
    #[inline]
    pub(crate) fn work_elems(&mut self, acc: &mut usize, elems: usize) -> VmResult<()> {
        self.work(acc, elems, limits::WORK_CHUNK_ELEMS, 1)
    }

    /// Add `n` units of work to `acc`; at `chunk`, charge `acc / per_fuel` fuel, check the limits
    /// and start over.
    #[inline]
    pub(super) fn work(
        &mut self,
        acc: &mut usize,
        n: usize,
        chunk: usize,
        per_fuel: usize,
    ) -> VmResult<()> {
        *acc = acc.saturating_add(n);
        if *acc >= chunk || self.heap.meter.stress {
            let done = std::mem::take(acc);
            self.charge_units((done / per_fuel) as u64)?;
            self.check_totals()?;
        }
        Ok(())
    }

    /// Append `bytes[from..to]` of string `s` to `out`, [`limits::WORK_CHUNK_BYTES`] at a time,
    /// accounting each piece with [`Vm::work_bytes`] (`acc`: see there).
    pub(crate) fn append_str(
        &mut self,
        out: &mut Vec<u8>,
        s: StrRef,
        from: usize,
        to: usize,
        acc: &mut usize,
    ) -> VmResult<()> {
        let mut i = from;
        while i < to {
            let end = to.min(i + limits::WORK_CHUNK_BYTES);
            out.extend_from_slice(&self.heap.str_bytes(s)[i..end]);
            self.work_bytes(acc, end - i)?;
            i = end;
        }
        Ok(())
    }

    /// A native ran far past the slice: account the overdraft and check the total fuel cap and
    /// the deadline (natives cannot yield, so long native work is checked here).
    pub(super) fn overdraft(&mut self) -> VmResult<()> {
        if !self.nested.is_empty() {
            return self.refuel_nested();
        }
        self.heap.meter.fuel_used += self.heap.meter.fuel.unsigned_abs();
        self.heap.meter.fuel = 0;
        self.check_totals()
    }

    pub(super) fn refuel_nested(&mut self) -> VmResult<()> {
        self.heap.meter.fuel_used += (self.heap.meter.slice - self.heap.meter.fuel).max(0) as u64;
        self.heap.meter.fuel = self.heap.meter.slice;
        self.check_totals()
    }

    /// Check the total fuel cap and the deadline.
    pub(crate) fn check_totals(&self) -> VmResult<()> {
        if self.fuel_used() > self.heap.meter.fuel_cap {
            return Err(Throw::fatal(
                ErrorKind::ExecutionFailure,
                format!(
                    "instruction limit exceeded: the program ran more than {} steps; look for an endless loop or process less data",
                    self.heap.meter.fuel_cap
                ),
            ));
        }
        if let Some(d) = self.heap.meter.deadline
            && std::time::Instant::now() >= d
        {
            return Err(Throw::fatal(
                ErrorKind::TimeoutExceeded,
                "the execution timed out",
            ));
        }
        self.check_stretch()
    }
}

/// Fuel charged per call (besides the callee's own loops).
pub(super) const CALL_FUEL: i64 = 4;

/// Bytes of data work (copying, scanning, converting strings) per fuel unit, for natives and
/// the `..` operator.
pub(super) const BYTES_PER_FUEL: usize = 16;

/// Values copied per fuel unit by instructions that move a variable number of values (`return`
/// of many values, varargs, calls with many arguments or results, table constructors).
pub(super) const VALUES_PER_FUEL: usize = 4;
