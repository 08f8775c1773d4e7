//! Mark and sweep over the heap's arenas, run by the dispatch loop between instructions (the
//! only point where every live value is in a register, a frame, a cell or an object). Marking
//! uses a worklist, never recursion; freed slots go on free lists that the allocators reuse,
//! and the accounted bytes are recomputed from what survives.

use crate::heap::{Func, Iter, Kind, OBJECT_BYTES, PROP_BYTES, STRING_BYTES, Slot, VALUE_BYTES};
use crate::value::{ObjId, Value};
use crate::vm::Vm;

/// Smallest heap (accounted bytes) that triggers a collection.
pub const GC_MIN_BYTES: usize = 4 << 20;

/// Where the next collection starts (accounted bytes), after one left `live` bytes under the
/// memory cap `cap`: `live` more (at least [`GC_MIN_BYTES`]), but at most half the room left, and
/// at least a sixteenth of `live` (up to the cap). Near the cap the steps so shrink no further
/// than `live / 16`: a program growing its data towards the cap is collected a bounded number of
/// times (each collection traces everything live) instead of once per halving of the room.
pub fn next_collection(live: usize, cap: usize) -> usize {
    let room = cap.saturating_sub(live);
    let step = live
        .max(GC_MIN_BYTES)
        .min(room / 2)
        .max((live / 16).min(room));
    (live + step).max(live + 1)
}

enum Item {
    Val(Value),
    Obj(ObjId),
}

/// Collect unreachable strings, objects and cells; returns the bytes held afterwards.
pub fn collect(vm: &mut Vm) -> usize {
    let h = &vm.heap;
    let mut strs = vec![false; h.strings.len()];
    let mut objs = vec![false; h.objects.len()];
    let mut cells = vec![false; h.cells.len()];
    let mut work: Vec<Item> = Vec::new();
    work.extend(vm.regs.iter().map(|v| Item::Val(*v)));
    let mut roots = Vec::new();
    for f in &vm.frames {
        mark_frame(f, h, &mut cells, &mut roots);
    }
    vm.coro_roots(&mut roots);
    work.extend(roots.drain(..).map(Item::Val));
    work.push(Item::Obj(vm.global));
    if let Some((e, ..)) = &vm.hint {
        work.push(Item::Val(*e));
    }
    work.extend(vm.throw_origins.iter().map(|(v, _)| Item::Val(*v)));
    work.extend(
        vm.templates
            .iter()
            .flatten()
            .flatten()
            .map(|o| Item::Obj(*o)),
    );
    for o in vm.intr.objects() {
        work.push(Item::Obj(o));
    }
    for d in vm.heap.symbols.iter().flatten() {
        strs[d.0 as usize] = true;
    }
    while let Some(it) = work.pop() {
        let o = match it {
            Item::Val(Value::Str(s)) => {
                strs[s.0 as usize] = true;
                continue;
            }
            Item::Val(Value::Obj(o)) | Item::Obj(o) => o,
            Item::Val(_) => continue,
        };
        if objs[o.0 as usize] {
            continue;
        }
        objs[o.0 as usize] = true;
        let obj = &h.objects[o.0 as usize];
        if let Some(p) = obj.proto {
            work.push(Item::Obj(p));
        }
        let privates = obj.privates.iter().map(|e| (e.slot,));
        for (slot,) in obj.props.list.iter().map(|p| (p.slot,)).chain(privates) {
            match slot {
                Slot::Data(v) => work.push(Item::Val(v)),
                Slot::Accessor(g, s) => {
                    work.push(Item::Val(g));
                    work.push(Item::Val(s));
                }
            }
        }
        match &obj.kind {
            Kind::Array(e) | Kind::Arguments(e) => work.extend(e.iter().map(|(_, v)| Item::Val(v))),
            Kind::Map(t) | Kind::Set(t) | Kind::WeakMap(t) | Kind::WeakSet(t) => {
                for (k, v) in t.iter() {
                    work.push(Item::Val(k));
                    work.push(Item::Val(v));
                }
            }
            Kind::Iterator(Iter::Table { target, .. }) => work.push(Item::Obj(*target)),
            Kind::String(s) => strs[s.0 as usize] = true,
            Kind::Function(Func::Closure { ups, .. }) => {
                for c in ups {
                    cells[c.0 as usize] = true;
                    work.push(Item::Val(h.cells[c.0 as usize]));
                }
            }
            Kind::Function(Func::Bound { target, this, args }) => {
                work.push(Item::Obj(*target));
                work.push(Item::Val(*this));
                work.extend(args.iter().map(|v| Item::Val(*v)));
            }
            Kind::Iterator(Iter::Array { target, .. }) => work.push(Item::Val(*target)),
            Kind::Iterator(Iter::Str { s, .. }) => strs[s.0 as usize] = true,
            Kind::Iterator(Iter::List { items, .. }) => {
                work.extend(items.iter().map(|v| Item::Val(*v)))
            }
            Kind::Promise(p) => {
                work.push(Item::Val(p.result));
                for r in &p.reactions {
                    crate::vm::coro::push_reaction(r, &mut roots);
                }
            }
            Kind::Coro(c) => {
                work.extend(c.regs.iter().map(|v| Item::Val(*v)));
                if let Some(f) = &c.frame {
                    mark_frame(f, h, &mut cells, &mut roots);
                }
                if let Some(p) = c.promise {
                    work.push(Item::Obj(p));
                }
                for q in &c.queue {
                    work.push(Item::Val(q.value));
                    work.push(Item::Obj(q.promise));
                }
            }
            Kind::Resolving(p, _) => work.push(Item::Obj(*p)),
            Kind::ToolNs(s) => strs[s.0 as usize] = true,
            Kind::Bytes { buf, .. } => work.push(Item::Obj(*buf)),
            _ => {}
        }
        work.extend(roots.drain(..).map(Item::Val));
    }
    compact_tables(vm, &objs);
    // Program constants are re-made on their next use.
    vm.clear_const_cache();
    let h = &mut vm.heap;
    let mut used = 0usize;
    // The compiled patterns of live RegExp objects (shared ones counted once, below).
    let mut patterns = Vec::new();
    h.free_strs.clear();
    // The template's slots are shared by every run: counted, never freed.
    let (base_strs, base_objs) = (h.strings.base_len(), h.objects.base_len());
    for (i, live) in strs.iter().enumerate() {
        if *live || i < base_strs {
            used += STRING_BYTES + h.strings[i].bytes();
        } else {
            h.strings[i] = crate::string::JsStr::empty();
            h.free_strs.push(i as u32);
        }
    }
    h.free_objs.clear();
    for (i, live) in objs.iter().enumerate() {
        if *live || i < base_objs {
            let o = &h.objects[i];
            let elems = match &o.kind {
                Kind::Array(e) | Kind::Arguments(e) => e.bytes() / VALUE_BYTES,
                Kind::Map(t) | Kind::Set(t) | Kind::WeakMap(t) | Kind::WeakSet(t) => {
                    t.bytes() / VALUE_BYTES
                }
                Kind::Function(Func::Closure { ups, .. }) => ups.len() / 2,
                Kind::Coro(c) => c.regs.len() + crate::limits::SUSPENDED_FRAME_BYTES / VALUE_BYTES,
                Kind::Promise(p) => {
                    (crate::limits::PROMISE_BYTES + p.reactions.len() * crate::limits::JOB_BYTES)
                        / VALUE_BYTES
                }
                Kind::RegExp(re) => {
                    patterns.push(re.0.clone());
                    0
                }
                k => {
                    (crate::builtins::url::extra_bytes(k) + crate::builtins::bytes::extra_bytes(k))
                        / VALUE_BYTES
                }
            };
            used += OBJECT_BYTES
                + o.props.bytes()
                + o.privates.len() * PROP_BYTES
                + elems * VALUE_BYTES;
        } else {
            h.objects[i].kind = Kind::Ordinary;
            h.objects[i].props = Default::default();
            h.objects[i].privates = Vec::new();
            h.objects[i].proto = None;
            h.free_objs.push(i as u32);
        }
    }
    h.free_cells.clear();
    for (i, live) in cells.iter().enumerate() {
        if *live {
            used += VALUE_BYTES + 8;
        } else {
            h.cells[i] = Value::Undefined;
            h.free_cells.push(i as u32);
        }
    }
    used += h.atoms.iter().map(crate::heap::atom_bytes).sum::<usize>();
    used += h.symbols.len() * 16;
    used += vm.regs.len() * VALUE_BYTES + vm.frames.len() * crate::heap::FRAME_BYTES;
    used += vm.jobs.len() * crate::limits::JOB_BYTES;
    used += vm.logs.iter().map(|l| l.len() + 32).sum::<usize>();
    used += crate::builtins::regexp::held_bytes(vm, patterns.iter());
    vm.heap.used = used;
    used
}

/// Mark what frame `f` holds: its cells (and their values) and its values.
fn mark_frame(
    f: &crate::vm::Frame,
    h: &crate::heap::Heap,
    cells: &mut [bool],
    out: &mut Vec<Value>,
) {
    crate::vm::coro::frame_values(f, out);
    for (t, v) in &f.conversions {
        match t {
            crate::vm::Detour::Prim(o)
            | crate::vm::Detour::PrimHint(o, _)
            | crate::vm::Detour::PrimNext(o) => out.push(Value::Obj(*o)),
            crate::vm::Detour::Get(r, _) | crate::vm::Detour::Prepare(r) => out.push(*r),
            crate::vm::Detour::HasInstance(o, v) => {
                out.push(Value::Obj(*o));
                out.push(*v);
            }
        }
        out.push(*v);
    }
    // (Captured cells are marked through the frame's closure, its callee.)
    for c in &f.cells {
        cells[c.0 as usize] = true;
        out.push(h.cells[c.0 as usize]);
    }
}

/// Compact the tombstones of every live Map, Set, WeakMap and WeakSet, moving the live
/// iterators over them to the same entries; a table stays pinned (no compaction outside the
/// collector) while an iterator that is not done may be part-way through it.
fn compact_tables(vm: &mut Vm, live: &[bool]) {
    let objects = &mut vm.heap.objects;
    let mut moved: std::collections::HashMap<u32, Vec<u32>> = Default::default();
    for i in 0..objects.len() {
        if !live[i]
            || !matches!(
                objects[i].kind,
                Kind::Map(_) | Kind::Set(_) | Kind::WeakMap(_) | Kind::WeakSet(_)
            )
        {
            continue;
        }
        if let Kind::Map(t) | Kind::Set(t) | Kind::WeakMap(t) | Kind::WeakSet(t) =
            &mut objects[i].kind
        {
            t.pinned = false;
            if t.tombstones() > 0 {
                moved.insert(i as u32, t.compact());
            }
        }
    }
    let mut pinned = Vec::new();
    for i in 0..objects.len() {
        if !live[i]
            || !matches!(objects[i].kind, Kind::Iterator(Iter::Table { pos, .. }) if pos != u32::MAX)
        {
            continue;
        }
        if let Kind::Iterator(Iter::Table { target, pos, .. }) = &mut objects[i].kind
            && *pos != u32::MAX
        {
            if let Some(m) = moved.get(&target.0) {
                *pos = m[(*pos as usize).min(m.len() - 1)];
            }
            pinned.push(*target);
        }
    }
    for t in pinned {
        if let Kind::Map(t) | Kind::Set(t) = &mut objects[t.0 as usize].kind {
            t.pinned = true;
        }
    }
}

#[cfg(test)]
mod schedule_tests {
    use super::*;

    /// A program whose live data grows steadily to the cap is collected a bounded number of
    /// times (each collection traces all of it), however large the cap.
    #[test]
    fn growth_to_the_cap_is_collected_a_bounded_number_of_times() {
        for cap in [16usize << 20, 64 << 20, 512 << 20, 4 << 30] {
            let mut at = GC_MIN_BYTES;
            let mut collections = 0;
            while at < cap {
                collections += 1;
                // All of it survives.
                at = next_collection(at, cap);
            }
            assert!(collections <= 14, "{collections} collections for cap {cap}");
        }
        // Lots of room: the next collection after as much again (at least GC_MIN_BYTES).
        assert_eq!(next_collection(1 << 20, 1 << 30), (1 << 20) + GC_MIN_BYTES);
        assert_eq!(next_collection(100 << 20, 1 << 30), 200 << 20);
        // At the cap: never below the live bytes.
        assert_eq!(next_collection(64 << 20, 64 << 20), (64 << 20) + 1);
    }
}
