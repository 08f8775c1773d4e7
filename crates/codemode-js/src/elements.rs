//! Array elements: a dense prefix and a sparse ordered map beyond it, with the length.
//! Every change goes through [`Elems`]' methods, which keep the two parts apart (sparse keys
//! start past the dense prefix) and grow the prefix with a capacity the byte accounting can
//! predict ([`Elems::growth_for`]).

use std::collections::BTreeMap;

use crate::value::Value;

/// Bytes charged per element held in an array's sparse map (a B-tree entry: the key, the
/// value and its share of a node).
pub const SPARSE_ENTRY_BYTES: usize = 48;

/// Widest run of holes a write past the dense prefix fills in; a write farther out goes to
/// the sparse map (as V8 turns such arrays into dictionaries).
pub const DENSE_GAP: usize = 64;

/// The elements of an array or `arguments` object: a dense prefix (holes are
/// `Value::Empty`) and a sparse ordered map of the elements beyond it, so `new Array(1e7)`,
/// `a[4e9] = 1` and `a.length = 4294967295` hold only what was written. `len` is the
/// array's length (at most 2^32 - 1), never less than one past the last element.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Elems {
    dense: Vec<Value>,
    /// Elements at indices `>= dense.len()`; never `Empty`.
    sparse: BTreeMap<u32, Value>,
    len: u32,
}

impl Elems {
    /// Whether loaded elements keep the invariants: the length at most `max_len` and past
    /// every element, sparse indices past the dense prefix and never holes.
    pub fn image_ok(&self, max_len: usize) -> bool {
        (self.len as usize) <= max_len
            && self.dense.len() <= self.len as usize
            && self.sparse.iter().all(|(i, v)| {
                (*i as usize) >= self.dense.len() && *i < self.len && *v != Value::Empty
            })
    }

    /// No elements, length 0.
    pub const fn new() -> Elems {
        Elems {
            dense: Vec::new(),
            sparse: BTreeMap::new(),
            len: 0,
        }
    }

    /// Most bytes a copy of the elements in `from..to` holds (an upper bound, found without
    /// walking them).
    pub fn bytes_for(&self, from: usize, to: usize) -> usize {
        let d = self.dense.len();
        let dense = to.min(d).saturating_sub(from.min(d));
        let sparse = if to > d { self.sparse.len() } else { 0 };
        dense * std::mem::size_of::<Value>() + sparse * SPARSE_ENTRY_BYTES
    }

    /// Append the elements of `other` (holes too) after this one's length.
    pub fn append(&mut self, other: &Elems) {
        let base = self.len();
        if self.is_flat() && other.sparse.is_empty() {
            self.dense.extend_from_slice(&other.dense);
        } else {
            for (i, v) in other.iter() {
                self.set(base + i, v);
            }
        }
        self.len = (base + other.len()) as u32;
    }

    /// Elements `items` (holes are `Empty`); the length is their count.
    pub fn from_vec(items: Vec<Value>) -> Elems {
        let len = items.len() as u32;
        Elems {
            dense: items,
            sparse: BTreeMap::new(),
            len,
        }
    }

    /// `len` holes.
    pub fn holes(len: u32) -> Elems {
        Elems {
            len,
            ..Elems::default()
        }
    }

    /// The length.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// No elements and length 0.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element at `i`, unless a hole.
    pub fn get(&self, i: usize) -> Option<Value> {
        match self.dense.get(i) {
            Some(Value::Empty) => None,
            Some(v) => Some(*v),
            None if i < self.len() && !self.sparse.is_empty() => {
                self.sparse.get(&(i as u32)).copied()
            }
            None => None,
        }
    }

    /// Whether every index below the length is in the dense prefix (holes may be there).
    pub fn is_flat(&self) -> bool {
        self.sparse.is_empty() && self.dense.len() == self.len()
    }

    /// The dense prefix (holes are `Empty`).
    pub fn dense(&self) -> &[Value] {
        &self.dense
    }

    /// Bytes of storage the elements hold (what the allocator gave for them).
    pub fn bytes(&self) -> usize {
        self.dense.capacity() * std::mem::size_of::<Value>()
            + self.sparse.len() * SPARSE_ENTRY_BYTES
    }

    /// Most bytes [`Elems::set`] of index `i` may add.
    pub fn growth_for(&self, i: usize) -> usize {
        let d = self.dense.len();
        if i < d {
            return 0;
        }
        if i - d <= DENSE_GAP {
            let need = i + 1;
            let cap = self.dense.capacity();
            return if need > cap {
                (need.max(cap * 2).max(4) - cap) * std::mem::size_of::<Value>()
            } else {
                0
            };
        }
        SPARSE_ENTRY_BYTES
    }

    /// Store `v` at `i` (`Empty` makes a hole), growing the length past it. `i` is below
    /// 2^32 - 1.
    /// The element at Number index `n` when `n` is an integer below the length and the
    /// element is present (not a hole).
    #[inline]
    pub fn get_num(&self, n: f64) -> Option<Value> {
        if n >= 0.0 && (n as usize) < self.len() && n.fract() == 0.0 {
            self.get(n as usize)
        } else {
            None
        }
    }

    /// Replace present element `i` of the dense prefix with `v` (not a hole): the length and
    /// the byte charge stay. `false`, with nothing changed, past the prefix or at a hole.
    #[inline]
    pub fn overwrite(&mut self, i: usize, v: Value) -> bool {
        match self.dense.get_mut(i) {
            Some(slot) if !matches!(*slot, Value::Empty) && !matches!(v, Value::Empty) => {
                *slot = v;
                true
            }
            _ => false,
        }
    }

    pub fn set(&mut self, i: usize, v: Value) {
        if v == Value::Empty {
            self.delete(i);
            if i >= self.len() {
                self.len = (i + 1) as u32;
            }
            return;
        }
        if i >= self.len() {
            self.len = (i + 1) as u32;
        }
        let d = self.dense.len();
        if i < d {
            self.dense[i] = v;
            return;
        }
        if i - d > DENSE_GAP {
            self.sparse.insert(i as u32, v);
            return;
        }
        self.grow_dense(i + 1);
        self.dense[i] = v;
        self.absorb();
    }

    /// Extend the dense prefix with holes to `n` (capacity doubling, exactly as
    /// [`Elems::growth_for`] predicts), moving sparse elements below `n` into it.
    fn grow_dense(&mut self, n: usize) {
        let cap = self.dense.capacity();
        if n > cap {
            let want = n.max(cap * 2).max(4);
            self.dense.reserve_exact(want - self.dense.len());
        }
        let d = self.dense.len();
        self.dense.resize(n, Value::Empty);
        if !self.sparse.is_empty() && (n as u64) > d as u64 {
            let rest = self.sparse.split_off(&(n as u32));
            for (k, v) in std::mem::replace(&mut self.sparse, rest) {
                self.dense[k as usize] = v;
            }
        }
    }

    /// Move sparse elements that follow the dense prefix closely into it.
    fn absorb(&mut self) {
        while let Some((&k, _)) = self.sparse.first_key_value() {
            let d = self.dense.len();
            if k as usize - d > DENSE_GAP {
                break;
            }
            self.grow_dense(k as usize + 1);
        }
    }

    /// Make `i` a hole (the length stays).
    pub fn delete(&mut self, i: usize) {
        if let Some(x) = self.dense.get_mut(i) {
            *x = Value::Empty;
            if i + 1 == self.dense.len() {
                while self.dense.last() == Some(&Value::Empty) {
                    self.dense.pop();
                }
            }
        } else if !self.sparse.is_empty() && i < self.len() {
            self.sparse.remove(&(i as u32));
        }
    }

    /// Set the length: shorter drops the elements at and past `n`; longer adds holes.
    pub fn set_len(&mut self, n: usize) {
        if n < self.len() {
            if n < self.dense.len() {
                self.dense.truncate(n);
                self.sparse.clear();
            } else {
                self.sparse.split_off(&(n as u32));
            }
            if self.dense.capacity() > 2 * self.dense.len() + 16 {
                self.dense.shrink_to(self.dense.len());
            }
        }
        self.len = n as u32;
    }

    /// Append `v` (the length grows by one).
    pub fn push(&mut self, v: Value) {
        let n = self.len();
        self.set(n, v);
    }

    /// Remove the last element (the length shrinks by one): its value, `Empty` for a hole,
    /// `None` when the length is 0.
    pub fn pop(&mut self) -> Option<Value> {
        let n = self.len().checked_sub(1)?;
        let v = self.get(n).unwrap_or(Value::Empty);
        self.set_len(n);
        Some(v)
    }

    /// Present elements in ascending index order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (usize, Value)> + '_ {
        self.range(0, self.len())
    }

    /// Present elements with `from <= index < to`, ascending.
    pub fn range(
        &self,
        from: usize,
        to: usize,
    ) -> impl DoubleEndedIterator<Item = (usize, Value)> + '_ {
        let to = to.min(self.len());
        let d = self.dense.len();
        let (a, b) = (from.min(d), to.min(d).max(from.min(d)));
        let dense = self.dense[a..b]
            .iter()
            .enumerate()
            .filter(|(_, v)| **v != Value::Empty)
            .map(move |(i, v)| (a + i, *v));
        let sparse = if from < to && to > d && !self.sparse.is_empty() {
            Some(
                self.sparse
                    .range(from.max(d) as u32..to as u32)
                    .map(|(k, v)| (*k as usize, *v)),
            )
        } else {
            None
        };
        dense.chain(sparse.into_iter().flatten())
    }

    /// How many elements are present (not holes) with `from <= index < to`.
    pub fn count_in(&self, from: usize, to: usize) -> usize {
        self.range(from, to).count()
    }

    /// Every index below the length as a vector, holes as `Empty` (the caller bounds the
    /// length).
    pub fn to_vec(&self) -> Vec<Value> {
        let mut out = self.dense.clone();
        out.resize(self.len(), Value::Empty);
        for (k, v) in &self.sparse {
            out[*k as usize] = *v;
        }
        out
    }

    /// The elements with `from <= index < to`, renumbered from 0 (the length is
    /// `to - from`).
    pub fn slice(&self, from: usize, to: usize) -> Elems {
        let to = to.min(self.len()).max(from);
        let mut out = Elems::holes((to - from) as u32);
        if to <= self.dense.len() {
            out.dense = self.dense[from..to].to_vec();
            while out.dense.last() == Some(&Value::Empty) {
                out.dense.pop();
            }
            return out;
        }
        for (i, v) in self.range(from, to) {
            out.set(i - from, v);
        }
        out
    }

    /// Remove `count` elements at `start` and insert `items` there, moving the later
    /// elements; returns the removed ones as elements of their own. `start + count` is at
    /// most the length; the caller checks the new length.
    pub fn splice(&mut self, start: usize, count: usize, items: &[Value]) -> Elems {
        let len = self.len();
        let new_len = len - count + items.len();
        if start + count <= self.dense.len() && self.sparse.is_empty() {
            let removed: Vec<Value> = self
                .dense
                .splice(start..start + count, items.iter().copied())
                .collect();
            self.len = new_len as u32;
            while self.dense.last() == Some(&Value::Empty) {
                self.dense.pop();
            }
            let mut r = Elems::from_vec(removed);
            r.trim();
            return r;
        }
        let removed = self.slice(start, start + count);
        let tail: Vec<(usize, Value)> = self.range(start + count, len).collect();
        self.set_len(start);
        for (i, v) in items.iter().enumerate() {
            self.set(start + i, *v);
        }
        for (i, v) in tail {
            self.set(i - count + items.len(), v);
        }
        self.len = new_len as u32;
        removed
    }

    /// Drop trailing holes of the dense prefix (the length stays).
    fn trim(&mut self) {
        while self.dense.last() == Some(&Value::Empty) {
            self.dense.pop();
        }
    }

    /// Reverse in place (holes move too).
    pub fn reverse(&mut self) {
        let len = self.len();
        if self.is_flat() {
            self.dense.reverse();
            self.trim();
            return;
        }
        let items: Vec<(usize, Value)> = self.iter().collect();
        self.set_len(0);
        self.len = len as u32;
        for (i, v) in items.into_iter().rev() {
            self.set(len - 1 - i, v);
        }
    }

    /// Set every index in `from..to` to `v` (not `Empty`).
    pub fn fill(&mut self, v: Value, from: usize, to: usize) {
        let to = to.min(self.len());
        if from >= to {
            return;
        }
        if to <= self.dense.len() {
            self.dense[from..to].fill(v);
            return;
        }
        for i in from..to {
            self.set(i, v);
        }
    }

    /// `copyWithin`: copy `count` indices from `start` to `target` (holes copy as holes),
    /// as if through a temporary copy.
    pub fn copy_within(&mut self, target: usize, start: usize, count: usize) {
        if count == 0 {
            return;
        }
        if target.max(start) + count <= self.dense.len() {
            self.dense.copy_within(start..start + count, target);
            self.trim();
            return;
        }
        let src: Vec<(usize, Value)> = self.range(start, start + count).collect();
        let dead: Vec<usize> = self.range(target, target + count).map(|(i, _)| i).collect();
        for i in dead {
            self.delete(i);
        }
        for (i, v) in src {
            self.set(i - start + target, v);
        }
    }
}
