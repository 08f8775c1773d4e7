//! The garbage collector of the [`Heap`]: when to collect ([`Heap::gc_due`], paced by the bytes
//! allocated since the last collection against the bytes alive after it, and by the room left
//! under the memory cap) and a stop-the-world mark-and-sweep ([`Heap::collect`]).
//!
//! The VM collects only at safe points (never while a native function runs, never inside an
//! inline stretch once the heap is over `limits::INLINE_GC_BYTES`), and gathers the roots itself
//! (`Vm::gc`: stack, constants, pinned values, globals, frames' closures, open upvalues); host
//! objects' children are added here. Marking checks the deadline every [`DEADLINE_CHECK_WORK`]
//! objects and abandons the collection, freeing nothing, once it has passed. Sweeping frees
//! unmarked strings (unlinking them from the intern map), tables, closures and upvalue cells into
//! their slabs' free lists and gives their bytes back to [`MemCounter`]; slab slots stay charged
//! and are reused.

use super::{
    DEADLINE_CHECK_WORK, Heap, NO_LINK, StrData, Upval, UpvalRef, alloc_bytes, null_names_bytes,
    owned_str_bytes,
};
use crate::value::Value;

#[cfg(doc)]
use super::MemCounter;

impl Heap {
    /// True when enough has been allocated since the last collection to make one worthwhile.
    #[inline]
    pub(crate) fn gc_due(&self) -> bool {
        let paced = self
            .meter
            .mem
            .live_after_gc
            .max(crate::limits::GC_MIN_DEBT_BYTES.min(self.meter.mem.cap / 8));
        // Near the cap, collect before the garbage can fill the remaining room: at most half of
        // it (but not more often than every 1/64 of the cap).
        let room = self
            .meter
            .mem
            .cap
            .saturating_sub(self.meter.mem.live_after_gc)
            / 2;
        self.meter.mem.debt > paced.min(room.max(self.meter.mem.cap / 64))
    }

    /// Mark-and-sweep. `roots` must list every value reachable from outside the heap (stack,
    /// globals, constants, pinned values) and `upval_roots` the upvalue cells of open frames.
    ///
    /// The mark phase checks the deadline every [`DEADLINE_CHECK_WORK`] objects: once it has
    /// passed, the collection is abandoned (marks cleared, nothing freed) and `false` returned,
    /// so a collection over a huge heap cannot hold the execution past its deadline (which the
    /// VM reports at its next check). Returns `true` when the collection ran to the end.
    pub(crate) fn collect(&mut self, roots: &[Value], upval_roots: &[UpvalRef]) -> bool {
        let mut work: Vec<Value> = roots.to_vec();
        for h in &self.hosts {
            for (k, v) in &h.children {
                work.push(Value::Str(*k));
                work.push(*v);
            }
        }
        for u in upval_roots {
            self.mark_upval(*u, &mut work);
        }
        let mut visited = 0u64;
        while let Some(v) = work.pop() {
            visited += 1;
            if visited.is_multiple_of(DEADLINE_CHECK_WORK) && self.check_deadline().is_err() {
                self.clear_marks();
                return false;
            }
            match v {
                Value::Str(s) => self.strs[s.0 as usize].marked = true,
                Value::Table(t) => {
                    let i = t.0 as usize;
                    if !self.table_marks[i] {
                        self.table_marks[i] = true;
                        // Strings are marked at once and only unmarked tables and closures
                        // are pushed: the work list (memory outside the accounting) stays
                        // small next to the heap it walks.
                        let (strs, marks, cmarks) =
                            (&mut self.strs, &self.table_marks, &self.closure_marks);
                        if let Some(tb) = &self.tables[i] {
                            tb.for_each_ref(|x| match x {
                                Value::Str(s) => strs[s.0 as usize].marked = true,
                                Value::Table(c) if !marks[c.0 as usize] => work.push(x),
                                Value::Closure(c) if !cmarks[c.0 as usize] => work.push(x),
                                _ => {}
                            });
                        }
                    }
                }
                Value::Closure(c) => {
                    let i = c.0 as usize;
                    if !self.closure_marks[i] {
                        self.closure_marks[i] = true;
                        let ups = self.closures[i].as_ref().map(|c| c.upvals.clone());
                        if let Some(ups) = ups {
                            for u in ups.iter() {
                                self.mark_upval(*u, &mut work);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        // Sweep strings.
        for i in 0..self.strs.len() {
            let o = &mut self.strs[i];
            if matches!(o.data, StrData::Free) {
                continue;
            }
            if o.marked {
                o.marked = false;
                continue;
            }
            let held = match &o.data {
                StrData::Owned(b) => owned_str_bytes(b.len()),
                _ => 0,
            };
            let h = o.hash;
            o.data = StrData::Free;
            let next = o.chain;
            self.meter.mem.release(held);
            // Unlink from the intern chain.
            let head = self.intern.get(&h).copied().unwrap_or(NO_LINK);
            if head == i as u32 {
                if next == NO_LINK {
                    self.intern.remove(&h);
                } else {
                    self.intern.insert(h, next);
                }
            } else {
                let mut cur = head;
                while cur != NO_LINK {
                    let c = self.strs[cur as usize].chain;
                    if c == i as u32 {
                        self.strs[cur as usize].chain = next;
                        break;
                    }
                    cur = c;
                }
            }
            self.str_free.push(i as u32);
        }
        for i in 0..self.tables.len() {
            if self.table_marks[i] {
                self.table_marks[i] = false;
            } else if let Some(t) = self.tables[i].take() {
                self.meter.mem.release(t.mem_size());
                if !self.null_fields.is_empty()
                    && let Some(names) = self.null_fields.remove(&(i as u32))
                {
                    self.meter.mem.release(null_names_bytes(&names));
                }
                self.table_free.push(i as u32);
            }
        }
        for i in 0..self.closures.len() {
            if self.closure_marks[i] {
                self.closure_marks[i] = false;
            } else if let Some(c) = self.closures[i].take() {
                self.meter.mem.release(alloc_bytes(c.upvals.len() * 4));
                self.closure_free.push(i as u32);
            }
        }
        // Free cells count as marked, so that they are not freed twice (no set of them is
        // built: the sweep allocates nothing).
        for &i in &self.upval_free {
            self.upval_marks[i as usize] = true;
        }
        for i in 0..self.upvals.len() {
            if self.upval_marks[i] {
                self.upval_marks[i] = false;
            } else {
                self.upvals[i] = Upval::Closed(Value::Nil);
                self.upval_free.push(i as u32);
            }
        }
        // A map that many strings left keeps its table: shrink it so its size follows the
        // strings alive (and what is charged for it with it).
        let cap = self.intern.capacity();
        if cap > 1024 && self.intern.len() * 4 < cap {
            self.intern.shrink_to(self.intern.len() * 2);
            self.settle_intern();
        }
        self.meter.mem.debt = 0;
        self.meter.mem.live_after_gc = self.meter.mem.used;
        true
    }

    /// Undo a partial mark phase.
    fn clear_marks(&mut self) {
        for o in &mut self.strs {
            o.marked = false;
        }
        self.table_marks.fill(false);
        self.closure_marks.fill(false);
        self.upval_marks.fill(false);
    }

    fn mark_upval(&mut self, u: UpvalRef, work: &mut Vec<Value>) {
        let i = u.0 as usize;
        if !self.upval_marks[i] {
            self.upval_marks[i] = true;
            if let Upval::Closed(v) = self.upvals[i] {
                work.push(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::*;
    use crate::value::Value;

    /// A collection over a large heap is abandoned once the deadline has passed (nothing freed,
    /// marks cleared), and the next collection without a deadline frees exactly the garbage.
    #[test]
    fn collection_past_the_deadline_is_abandoned_cleanly() {
        let mut h = Heap::new(crate::limits::MAX_MEMORY_BYTES);
        let root = h.new_table(0, 0).unwrap();
        let n = 3 * DEADLINE_CHECK_WORK as i64;
        for i in 1..=n {
            let t = h.new_table(1, 0).unwrap();
            h.table_set_int(t, 1, Value::Int(i)).unwrap();
            h.table_set_int(root, i, Value::Table(t)).unwrap();
            h.new_table(0, 0).unwrap(); // garbage
        }
        let before = h.meter.mem.used;
        h.meter.deadline = Some(std::time::Instant::now());
        assert!(!h.collect(&[Value::Table(root)], &[]));
        assert_eq!(h.meter.mem.used, before);
        assert!(h.table_marks.iter().all(|m| !m));
        h.meter.deadline = None;
        assert!(h.collect(&[Value::Table(root)], &[]));
        // The garbage tables were empty: their slots stay charged and are reused.
        assert_eq!(h.meter.mem.used, before);
        for _ in 0..n {
            h.new_table(0, 0).unwrap();
        }
        assert_eq!(h.meter.mem.used, before);
        assert!(h.table_free.is_empty());
        assert!(h.collect(&[Value::Table(root)], &[]));
        for i in 1..=n {
            let Value::Table(t) = h.table_get_int(root, i) else {
                panic!("entry {i} lost")
            };
            assert_eq!(h.table_get_int(t, 1), Value::Int(i));
        }
        assert_eq!(h.table_free.len() as i64, n);
    }
}
