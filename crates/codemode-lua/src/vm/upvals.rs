//! Upvalues: open cells point into the value stack (one per stack slot, kept sorted by slot)
//! and are closed, copying the value into the cell, when their frame or block ends.

use super::Vm;
use crate::heap::{Upval, UpvalRef};
use crate::value::{ClosureRef, Value, VmResult};

impl Vm {
    pub(super) fn find_upval(&mut self, idx: usize) -> VmResult<UpvalRef> {
        match self.open_upvals.binary_search_by_key(&idx, |(i, _)| *i) {
            Ok(p) => Ok(self.open_upvals[p].1),
            Err(p) => {
                let u = self.heap.new_upval(Upval::Open(idx))?;
                self.open_upvals.insert(p, (idx, u));
                Ok(u)
            }
        }
    }

    #[inline]
    pub(super) fn close_upvals(&mut self, level: usize) {
        while let Some(&(idx, u)) = self.open_upvals.last() {
            if idx < level {
                break;
            }
            let v = self.stack[idx];
            self.heap.set_upval(u, Upval::Closed(v));
            self.open_upvals.pop();
        }
    }

    #[inline]
    pub(super) fn get_upval(&self, cl: ClosureRef, u: u8) -> Value {
        let r = self.heap.closure(cl).upvals[u as usize];
        match self.heap.upval_ref(r) {
            &Upval::Open(i) => self.stack[i],
            Upval::Closed(v) => *v,
        }
    }

    #[inline]
    pub(super) fn set_upval(&mut self, cl: ClosureRef, u: u8, v: Value) {
        let r = self.heap.closure(cl).upvals[u as usize];
        match *self.heap.upval_ref(r) {
            Upval::Open(i) => self.stack[i] = v,
            Upval::Closed(_) => self.heap.set_upval(r, Upval::Closed(v)),
        }
    }
}
