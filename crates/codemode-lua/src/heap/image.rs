//! The arena as plain data for a snapshot ([`HeapImage`]), and its checked rebuild: every
//! handle in range and alive, every free list naming free slots once, strings interned once,
//! the slab sizes within what the restored memory counter holds.

use serde::{Deserialize, Serialize};

use super::{
    Closure, Heap, HostKind, HostObj, IdMap, MemCounter, NO_LINK, StrData, StrObj, Upval, UpvalRef,
    intern_table_bytes,
};
use crate::snapshot::{Damaged, check, damaged};
use crate::table::TableImage;
use crate::value::{StrRef, Value, hash_bytes};

/// One string slot: free, the template's (static) string of the same slot, or owned bytes.
#[derive(Serialize, Deserialize)]
pub(crate) enum StrImage {
    Free,
    /// A static string (the template's, or one the standard library interned at run time:
    /// a type name, `""`), with its bytes: restored as the template's when the template holds
    /// the same bytes in that slot, else as an owned copy.
    Static(Vec<u8>),
    Owned(Vec<u8>),
}

/// A host object: what a tools node, `search` or an extension is, by path (no handler).
#[derive(Serialize, Deserialize)]
pub(crate) struct HostImage {
    pub kind: HostKind,
    pub path: String,
    pub children: Vec<(StrRef, Value)>,
}

/// The arena's state (see the module docs). The natives are the standard library's, in the
/// template's order: only their count is kept.
#[derive(Serialize, Deserialize)]
pub(crate) struct HeapImage {
    strs: Vec<StrImage>,
    str_free: Vec<u32>,
    intern_capacity: usize,
    intern_charged: usize,
    tables: Vec<Option<TableImage>>,
    table_free: Vec<u32>,
    closures: Vec<Option<(u32, Vec<UpvalRef>)>>,
    closure_free: Vec<u32>,
    upvals: Vec<Upval>,
    upval_free: Vec<u32>,
    natives: usize,
    hosts: Vec<HostImage>,
    logs: Vec<String>,
    mem: (usize, usize, usize, usize),
    fuel: (i64, i64, u64, u64),
    dirty: bool,
    collect_next: bool,
    null_fields: Vec<(u32, Vec<String>)>,
}

/// A free list naming distinct slots below `len` for which `free` holds.
fn check_free(list: &[u32], len: usize, what: &str, free: impl Fn(usize) -> bool) -> Damaged<()> {
    let mut seen = vec![false; len];
    for &i in list {
        let i = i as usize;
        check(i < len && !seen[i] && free(i), || {
            format!("the free list of {what} names slot {i} wrongly")
        })?;
        seen[i] = true;
    }
    Ok(())
}

impl Heap {
    /// The arena as plain data (no handler, no pointer).
    pub(crate) fn to_image(&self) -> HeapImage {
        let m = &self.meter;
        HeapImage {
            strs: self
                .strs
                .iter()
                .map(|o| match &o.data {
                    StrData::Free => StrImage::Free,
                    StrData::Static(b) => StrImage::Static(b.to_vec()),
                    StrData::Owned(b) => StrImage::Owned(b.to_vec()),
                })
                .collect(),
            str_free: self.str_free.clone(),
            intern_capacity: self.intern.capacity(),
            intern_charged: self.intern_charged,
            tables: self
                .tables
                .iter()
                .map(|t| t.as_ref().map(|t| t.to_image()))
                .collect(),
            table_free: self.table_free.clone(),
            closures: self
                .closures
                .iter()
                .map(|c| c.as_ref().map(|c| (c.proto, c.upvals.to_vec())))
                .collect(),
            closure_free: self.closure_free.clone(),
            upvals: self.upvals.clone(),
            upval_free: self.upval_free.clone(),
            natives: self.natives.len(),
            hosts: self
                .hosts
                .iter()
                .map(|h| HostImage {
                    kind: h.kind.clone(),
                    path: h.path.clone(),
                    children: h.children.clone(),
                })
                .collect(),
            logs: self.logs.clone(),
            mem: (m.mem.used, m.mem.cap, m.mem.debt, m.mem.live_after_gc),
            fuel: (m.fuel, m.slice, m.fuel_used, m.fuel_cap),
            dirty: m.dirty,
            collect_next: m.collect_next,
            null_fields: {
                let mut v: Vec<(u32, Vec<String>)> = self
                    .null_fields
                    .iter()
                    .map(|(k, n)| (*k, n.iter().map(|s| s.to_string()).collect()))
                    .collect();
                v.sort_by_key(|e| e.0);
                v
            },
        }
    }

    /// Rebuild an arena from `img` over the standard-library `template` (its static strings
    /// and natives), under a memory cap of `cap` bytes. Checks every slab and free list, and
    /// that the slabs take no more than the restored counter holds; values inside the slabs
    /// are checked by [`Heap::check_values`] once the whole arena is there.
    pub(crate) fn from_image(img: HeapImage, template: &Heap, cap: usize) -> Damaged<Heap> {
        let (used, old_cap, debt, live_after_gc) = img.mem;
        check(
            used <= cap && old_cap <= crate::limits::MAX_MEMORY_BYTES,
            || format!("it holds {used} bytes, over the memory cap of {cap} bytes"),
        )?;
        check(img.natives == template.natives.len(), || {
            "its standard library differs from this build's".into()
        })?;
        // Slab slots are charged when a slab grows: the slabs cannot outgrow what is held.
        let slots = img.strs.len() * super::STR_SLOT_BYTES
            + img.tables.len() * super::TABLE_SLOT_BYTES
            + img.closures.len() * super::CLOSURE_SLOT_BYTES
            + img.upvals.len() * super::UPVAL_SLOT_BYTES;
        check(slots <= used.saturating_add(4096), || {
            "its slabs are larger than the memory it holds".into()
        })?;
        let mut heap = Heap::new(cap);
        let mut table_bytes = 0usize;
        // Strings.
        let mut live_strs = 0usize;
        for (i, s) in img.strs.into_iter().enumerate() {
            let data = match s {
                StrImage::Free => StrData::Free,
                StrImage::Static(b) => match template.strs.get(i).map(|o| &o.data) {
                    Some(StrData::Static(t)) if **t == *b => StrData::Static(t),
                    _ => {
                        table_bytes += super::alloc_bytes(b.len());
                        StrData::Owned(b.into_boxed_slice())
                    }
                },
                StrImage::Owned(b) => {
                    table_bytes += super::alloc_bytes(b.len());
                    StrData::Owned(b.into_boxed_slice())
                }
            };
            if !matches!(data, StrData::Free) {
                live_strs += 1;
            }
            heap.strs.push(StrObj {
                data,
                hash: 0,
                chain: NO_LINK,
                marked: false,
            });
        }
        check(img.intern_capacity <= live_strs.max(8) * 2, || {
            "its string map is larger than its strings".into()
        })?;
        heap.intern = IdMap::with_capacity_and_hasher(img.intern_capacity, Default::default());
        for i in 0..heap.strs.len() {
            let bytes: &[u8] = match &heap.strs[i].data {
                StrData::Free => continue,
                StrData::Static(b) => b,
                StrData::Owned(b) => b,
            };
            let h = hash_bytes(bytes);
            check(heap.find_hashed(bytes, h).is_none(), || {
                format!("string {i} is held twice")
            })?;
            let chain = heap.intern.get(&h).copied().unwrap_or(NO_LINK);
            heap.strs[i].hash = h;
            heap.strs[i].chain = chain;
            heap.intern.insert(h, i as u32);
        }
        check(
            img.intern_charged == intern_table_bytes(img.intern_capacity)
                || img.intern_charged <= used,
            || "its string map's charge is wrong".into(),
        )?;
        heap.intern_charged = img.intern_charged;
        check_free(&img.str_free, heap.strs.len(), "strings", |i| {
            matches!(heap.strs[i].data, StrData::Free)
        })?;
        heap.str_free = img.str_free;
        // Tables.
        for t in img.tables {
            let t = match t {
                Some(t) => {
                    let t = crate::table::Table::from_image(t, used.saturating_sub(table_bytes))?;
                    table_bytes += t.mem_size();
                    Some(t)
                }
                None => None,
            };
            heap.tables.push(t);
            heap.table_marks.push(false);
        }
        check(table_bytes <= used, || {
            "its strings and tables are larger than the memory it holds".into()
        })?;
        check_free(&img.table_free, heap.tables.len(), "tables", |i| {
            heap.tables[i].is_none()
        })?;
        heap.table_free = img.table_free;
        // Closures (their prototypes are checked against the program by the VM).
        let nupvals = img.upvals.len();
        for c in img.closures {
            let c = match c {
                Some((proto, upvals)) => {
                    table_bytes += super::alloc_bytes(upvals.len() * 4);
                    check(upvals.iter().all(|u| (u.0 as usize) < nupvals), || {
                        "a closure names a missing upvalue".into()
                    })?;
                    Some(Closure {
                        proto,
                        upvals: upvals.into_boxed_slice(),
                    })
                }
                None => None,
            };
            heap.closures.push(c);
            heap.closure_marks.push(false);
        }
        check(table_bytes <= used, || {
            "its closures are larger than the memory it holds".into()
        })?;
        check_free(&img.closure_free, heap.closures.len(), "closures", |i| {
            heap.closures[i].is_none()
        })?;
        heap.closure_free = img.closure_free;
        heap.upval_marks = vec![false; nupvals];
        heap.upvals = img.upvals;
        check_free(&img.upval_free, nupvals, "upvalues", |_| true)?;
        heap.upval_free = img.upval_free;
        heap.natives = template.natives.clone();
        heap.native_lib = template.native_lib.clone();
        heap.hosts = img
            .hosts
            .into_iter()
            .map(|h| HostObj {
                kind: h.kind,
                path: h.path,
                children: h.children,
            })
            .collect();
        heap.logs = img.logs;
        heap.meter.mem = MemCounter {
            used,
            cap,
            debt,
            live_after_gc,
        };
        let (fuel, slice, fuel_used, fuel_cap) = img.fuel;
        check(
            fuel_cap <= crate::limits::MAX_TOTAL_FUEL && fuel_used <= fuel_cap,
            || "its fuel counters are out of range".into(),
        )?;
        heap.meter.fuel = fuel;
        heap.meter.slice = slice;
        heap.meter.fuel_used = fuel_used;
        heap.meter.fuel_cap = fuel_cap;
        heap.meter.dirty = img.dirty;
        heap.meter.collect_next = img.collect_next;
        check(
            img.null_fields.len() <= crate::limits::MAX_NULL_FIELD_TABLES,
            || "it remembers too many null fields".into(),
        )?;
        for (t, names) in img.null_fields {
            check(
                heap.tables.get(t as usize).is_some_and(|t| t.is_some())
                    && names.len() <= crate::limits::MAX_NULL_FIELDS_PER_TABLE,
                || "its null fields name a missing table".into(),
            )?;
            let names: Box<[Box<str>]> = names.into_iter().map(Into::into).collect();
            heap.null_fields.insert(t, names);
        }
        Ok(heap)
    }

    /// The upvalue cell `u`, if it exists.
    pub(crate) fn upval_get(&self, u: UpvalRef) -> Option<Upval> {
        self.upvals.get(u.0 as usize).copied()
    }

    /// Whether `v` is a valid value of this arena: every handle in range and alive.
    pub(crate) fn value_ok(&self, v: Value) -> bool {
        match v {
            Value::Str(s) => self
                .strs
                .get(s.0 as usize)
                .is_some_and(|o| !matches!(o.data, StrData::Free)),
            Value::Table(t) => self.tables.get(t.0 as usize).is_some_and(|t| t.is_some()),
            Value::Closure(c) => self.closures.get(c.0 as usize).is_some_and(|c| c.is_some()),
            Value::Native(n) => (n.0 as usize) < self.natives.len(),
            Value::HostNs(h) | Value::HostFn(h) => (h.0 as usize) < self.hosts.len(),
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_) | Value::JsonNull => true,
        }
    }

    /// Every value held in the arena's slabs is valid ([`Heap::value_ok`]); closures' upvalue
    /// cells that are open point below `stack_len`; every closure's prototype is one of
    /// `upvals_of` (its upvalue count) with that many cells.
    pub(crate) fn check_values(
        &self,
        stack_len: usize,
        upvals_of: impl Fn(u32) -> Option<usize>,
    ) -> Damaged<()> {
        let bad = |what: &str| damaged(format!("{what} holds an invalid value"));
        for t in self.tables.iter().flatten() {
            let mut ok = true;
            t.for_each_ref(|v| ok &= self.value_ok(v));
            if !ok {
                return Err(bad("a table"));
            }
        }
        for c in self.closures.iter().flatten() {
            check(upvals_of(c.proto) == Some(c.upvals.len()), || {
                "a closure does not match its function".into()
            })?;
        }
        for u in &self.upvals {
            match *u {
                Upval::Open(i) => check(i < stack_len, || "an upvalue is out of range".into())?,
                Upval::Closed(v) => check(self.value_ok(v), || {
                    "an upvalue holds an invalid value".into()
                })?,
            }
        }
        for h in &self.hosts {
            for (k, v) in &h.children {
                check(self.value_ok(Value::Str(*k)) && self.value_ok(*v), || {
                    "a tools node holds an invalid value".into()
                })?;
            }
        }
        Ok(())
    }
}
