//! The hashed, insertion-ordered table behind `Map`, `Set`, `WeakMap` and `WeakSet`.
//!
//! Entries live in a vector in insertion order; a hash index maps each key's hash to its
//! newest entry, and entries of equal hash chain through `next`. Deleting an entry leaves a
//! tombstone (an `Empty` key) so that iterators, which hold a position in the vector, see
//! later entries and skip deleted ones exactly as V8's do. Tombstones are compacted away on
//! deletion when no iterator may be part-way through ([`Table::pinned`]), and by the collector
//! otherwise, which moves the live iterators' positions with them ([`Table::compact`]).
//!
//! Keys compare by SameValueZero: the caller hashes them with [`hash_value`] (numbers by
//! value with -0 as +0, strings by content, objects and symbols by identity) and passes the
//! equality test.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::heap::Heap;
use crate::value::Value;

/// The end of a hash chain.
const NONE: u32 = u32::MAX;

/// Tombstones that a table with no iterator part-way through keeps before it compacts
/// (then only when they outnumber the live entries).
const COMPACT_AT: usize = 16;

/// A hasher for keys that are already hashes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | *b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct Entry {
    /// `Empty` once deleted.
    key: Value,
    value: Value,
    hash: u64,
    /// The next older entry of the same hash.
    next: u32,
}

/// An insertion-ordered hash table of values (a Set's entries hold the key as the value).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    entries: Vec<Entry>,
    index: HashMap<u64, u32, BuildHasherDefault<IdHasher>>,
    live: u32,
    /// An iterator may be part-way through the entries, so their positions must stay: set
    /// when an iterator is made, recomputed by the collector.
    pub pinned: bool,
}

/// splitmix64's finalizer: every input bit reaches every output bit.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 30;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 27;
    x = x.wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of a key under SameValueZero: equal keys hash equally.
pub fn hash_value(heap: &Heap, v: Value) -> u64 {
    let (tag, bits) = match v {
        Value::Undefined => (1u64, 0),
        Value::Null => (2, 0),
        Value::Bool(b) => (3, b as u64),
        Value::Num(n) => {
            let n = if n == 0.0 {
                0.0
            } else if n.is_nan() {
                f64::NAN
            } else {
                n
            };
            (4, n.to_bits())
        }
        Value::Str(s) => {
            let st = heap.str(s);
            // FNV-1a over the UTF-16 units (one or two bytes per unit hash alike).
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for i in 0..st.len() {
                h ^= st.at(i) as u64;
                h = h.wrapping_mul(0x100_0000_01b3);
            }
            (5, h)
        }
        Value::Sym(s) => (6, s.0 as u64),
        Value::Obj(o) => (7, o.0 as u64),
        Value::Empty => (8, 0),
    };
    mix(bits ^ tag.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}

/// A table as plain data (snapshots): every entry position in order, a deleted one as an
/// `Empty` key, each with its key's hash; the hash index is rebuilt on load.
#[derive(serde::Serialize, serde::Deserialize)]
struct TableImage {
    entries: Vec<(Value, Value, u64)>,
    pinned: bool,
}

impl serde::Serialize for Table {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TableImage {
            entries: self
                .entries
                .iter()
                .map(|e| (e.key, e.value, e.hash))
                .collect(),
            pinned: self.pinned,
        }
        .serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Table {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Table, D::Error> {
        let img = TableImage::deserialize(d)?;
        let mut t = Table {
            pinned: img.pinned,
            ..Table::default()
        };
        for (key, value, hash) in img.entries {
            if key == Value::Empty {
                t.entries.push(Entry {
                    key,
                    value: Value::Undefined,
                    hash: 0,
                    next: NONE,
                });
            } else {
                t.insert(hash, key, value);
            }
        }
        Ok(t)
    }
}

impl Table {
    /// Whether a loaded table is sound over `heap`: every live key's hash is
    /// [`hash_value`]'s, and no key is there twice (under `same`, SameValueZero).
    pub fn image_ok(&self, heap: &Heap, same: impl Fn(Value, Value) -> bool) -> bool {
        self.entries.iter().enumerate().all(|(i, e)| {
            e.key == Value::Empty
                || (e.hash == hash_value(heap, e.key)
                    && self.find(e.hash, |k| same(k, e.key)).0 == Some(i))
        })
    }

    /// Live entries.
    pub fn len(&self) -> usize {
        self.live as usize
    }

    /// Entry positions in use, tombstones included (iterator positions run over these).
    pub fn slots(&self) -> usize {
        self.entries.len()
    }

    /// Deleted entries not yet compacted.
    pub fn tombstones(&self) -> usize {
        self.entries.len() - self.live as usize
    }

    /// Bytes the table holds: its entry vector and its index (hashbrown keeps a control byte
    /// per bucket and about 8 buckets per 7 of capacity).
    pub fn bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.index.capacity() * 8 / 7 * (std::mem::size_of::<(u64, u32)>() + 1)
    }

    /// The position of the live entry with key `hash` for which `eq` holds; also the number
    /// of chain steps taken (work).
    pub fn find(&self, hash: u64, eq: impl Fn(Value) -> bool) -> (Option<usize>, usize) {
        let mut at = self.index.get(&hash).copied().unwrap_or(NONE);
        let mut steps = 0;
        while at != NONE {
            let e = &self.entries[at as usize];
            steps += 1;
            if e.hash == hash && eq(e.key) {
                return (Some(at as usize), steps);
            }
            at = e.next;
        }
        (None, steps)
    }

    /// The key and value at position `i`, unless deleted.
    pub fn entry(&self, i: usize) -> Option<(Value, Value)> {
        let e = self.entries.get(i)?;
        (e.key != Value::Empty).then_some((e.key, e.value))
    }

    /// The first live entry at position `from` or later: its position, key and value.
    pub fn next_live(&self, from: usize) -> Option<(usize, Value, Value)> {
        self.entries
            .get(from..)?
            .iter()
            .position(|e| e.key != Value::Empty)
            .map(|k| {
                let e = &self.entries[from + k];
                (from + k, e.key, e.value)
            })
    }

    /// Live entries in insertion order.
    pub fn iter(&self) -> impl Iterator<Item = (Value, Value)> + '_ {
        self.entries
            .iter()
            .filter(|e| e.key != Value::Empty)
            .map(|e| (e.key, e.value))
    }

    /// Most bytes one more [`Table::insert`] may add.
    pub fn growth(&self) -> usize {
        let mut b = 0;
        if self.entries.len() == self.entries.capacity() {
            b += self.entries.capacity().max(4) * std::mem::size_of::<Entry>();
        }
        if self.index.len() >= self.index.capacity() {
            b += (self.index.capacity().max(4) * 2) * 8 / 7
                * (std::mem::size_of::<(u64, u32)>() + 1);
        }
        b
    }

    /// Replace the value at live position `i`.
    pub fn set_value(&mut self, i: usize, v: Value) {
        self.entries[i].value = v;
    }

    /// Add an entry for a key known to be absent.
    pub fn insert(&mut self, hash: u64, key: Value, value: Value) {
        let i = self.entries.len() as u32;
        let next = self.index.insert(hash, i).unwrap_or(NONE);
        self.entries.push(Entry {
            key,
            value,
            hash,
            next,
        });
        self.live += 1;
    }

    /// Delete the live entry at position `i` (a tombstone stays while the table is pinned).
    pub fn remove(&mut self, i: usize) {
        let Entry { hash, next, .. } = self.entries[i];
        let head = self.index.get(&hash).copied().unwrap_or(NONE);
        if head == i as u32 {
            if next == NONE {
                self.index.remove(&hash);
            } else {
                self.index.insert(hash, next);
            }
        } else {
            let mut at = head;
            while at != NONE {
                let n = self.entries[at as usize].next;
                if n == i as u32 {
                    self.entries[at as usize].next = next;
                    break;
                }
                at = n;
            }
        }
        self.entries[i] = Entry {
            key: Value::Empty,
            value: Value::Undefined,
            hash: 0,
            next: NONE,
        };
        self.live -= 1;
        if !self.pinned && self.tombstones() >= COMPACT_AT && self.tombstones() > self.len() {
            self.compact();
        }
    }

    /// Delete every entry. Iterators part-way through go on with entries added later.
    pub fn clear(&mut self) {
        if self.pinned {
            for e in &mut self.entries {
                *e = Entry {
                    key: Value::Empty,
                    value: Value::Undefined,
                    hash: 0,
                    next: NONE,
                };
            }
        } else {
            self.entries = Vec::new();
        }
        self.index = HashMap::default();
        self.live = 0;
    }

    /// Drop the tombstones. Returns, for each old position `p` (and one past the end), the
    /// new position of the first live entry at or after it: where an iterator at `p` goes.
    pub fn compact(&mut self) -> Vec<u32> {
        let mut moved = Vec::with_capacity(self.entries.len() + 1);
        let mut kept: Vec<Entry> = Vec::with_capacity(self.live as usize);
        for e in &self.entries {
            moved.push(kept.len() as u32);
            if e.key != Value::Empty {
                kept.push(*e);
            }
        }
        moved.push(kept.len() as u32);
        self.index = HashMap::default();
        self.index.reserve(kept.len());
        for (i, e) in kept.iter_mut().enumerate() {
            e.next = self.index.insert(e.hash, i as u32).unwrap_or(NONE);
        }
        self.entries = kept;
        moved
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(n: f64) -> Value {
        Value::Num(n)
    }

    #[test]
    fn insert_find_remove_keep_order_and_chains() {
        let mut t = Table::default();
        // Equal hashes chain: every key hashes alike here.
        for i in 0..40 {
            t.insert(7, num(i as f64), num(i as f64 * 10.0));
        }
        assert_eq!(t.find(7, |k| k == num(13.0)).0, Some(13));
        for i in (0..40).step_by(2) {
            let (at, _) = t.find(7, |k| k == num(i as f64));
            t.remove(at.unwrap());
        }
        assert_eq!(t.len(), 20);
        let keys: Vec<Value> = t.iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            (1..40)
                .step_by(2)
                .map(|i| num(i as f64))
                .collect::<Vec<_>>()
        );
        assert_eq!(t.find(7, |k| k == num(4.0)).0, None);
        assert!(t.find(7, |k| k == num(39.0)).0.is_some());
    }

    #[test]
    fn compaction_moves_positions_to_the_next_live_entry() {
        let mut t = Table {
            pinned: true,
            ..Table::default()
        };
        for i in 0..6 {
            t.insert(i, num(i as f64), Value::Undefined);
        }
        t.remove(1);
        t.remove(2);
        t.remove(5);
        let moved = t.compact();
        assert_eq!(moved, vec![0, 1, 1, 1, 2, 3, 3]);
        assert_eq!(t.slots(), 3);
        assert_eq!(t.find(4, |k| k == num(4.0)).0, Some(2));
    }
}
