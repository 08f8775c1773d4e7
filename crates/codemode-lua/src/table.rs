//! Lua tables: an array part (`Vec<Value>` for keys `1..=n`) and a hash part (open addressing
//! with linear probing, keys kept in place when their value is set to nil, like PUC Lua's dead
//! keys, so `next` keeps working when a traversal assigns nil to existing fields).
//!
//! Float keys with an integer value are normalized to integer keys; `nil` and NaN keys are errors
//! on assignment. Memory growth is charged to the heap's [`MemCounter`] before allocating.

use crate::heap::{MemCounter, alloc_bytes};
use crate::value::{StrRef, Throw, Value, VmResult, float_to_int_exact};

/// The JSON shape a table has when it crosses the data boundary. `None`: decided by content
/// (an empty table exports as `{}`); `Array`: set by `json.array()` and by importing a JSON array
/// (an empty one exports as `[]`); `Object`: set by importing a JSON object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub(crate) enum Shape {
    #[default]
    None,
    Array,
    Object,
}

#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
struct Node {
    /// `Nil` marks a never-used slot. A slot whose key is set and value is nil is "dead".
    key: Value,
    val: Value,
}

/// A Lua table. Read with [`Table::get`] / [`Table::get_int`]; writes go through the heap
/// (`Heap::table_set` and friends) so memory is accounted.
#[derive(Clone, Debug, Default)]
pub(crate) struct Table {
    /// Values for keys `1..=arr.len()` (may contain nils).
    pub arr: Vec<Value>,
    nodes: Vec<Node>,
    /// Slots with a non-nil key (live or dead).
    used: usize,
    /// JSON shape marker, see [`Shape`].
    pub shape: Shape,
}

/// Bytes of an array part of `cap` values, as charged.
#[inline]
fn arr_bytes(cap: usize) -> usize {
    alloc_bytes(cap.saturating_mul(16))
}

/// Bytes of a hash part of `slots` nodes, as charged.
#[inline]
fn nodes_bytes(slots: usize) -> usize {
    alloc_bytes(slots.saturating_mul(32))
}

#[inline]
fn mix(x: u64) -> u64 {
    let x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    x ^ (x >> 32)
}

#[inline]
fn key_hash(k: &Value) -> u64 {
    match *k {
        Value::Int(i) => mix(i as u64),
        Value::Float(f) => mix(f.to_bits() ^ 0x1234_5678),
        Value::Str(s) => str_hash(s),
        Value::Bool(b) => mix(b as u64 + 0xB00),
        Value::Table(t) => mix(t.0 as u64 ^ 0x7AB1_0000_0000),
        Value::Closure(c) => mix(c.0 as u64 ^ 0xC105_0000_0000),
        Value::Native(n) => mix(n.0 as u64 ^ 0x4A71_0000_0000),
        Value::HostNs(h) => mix(h.0 as u64 ^ 0x4057_0000_0000),
        Value::HostFn(h) => mix(h.0 as u64 ^ 0x405F_0000_0000),
        Value::JsonNull => 0x15_0A11,
        Value::Nil => 0,
    }
}

/// The hash of a string key (its handle: strings are interned).
#[inline]
fn str_hash(s: StrRef) -> u64 {
    mix(s.0 as u64 ^ 0xA5A5_0000_0000)
}

/// Key identity for the hash part (after normalization: no float keys with integer values).
#[inline]
fn key_eq(a: &Value, b: &Value) -> bool {
    match (*a, *b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::Int(_), Value::Float(_)) | (Value::Float(_), Value::Int(_)) => false,
        _ => a == b,
    }
}

/// Normalize a key for lookup: floats with an exact integer value become integers.
#[inline]
pub(crate) fn normalize_key(k: Value) -> Value {
    if let Value::Float(f) = k
        && let Some(i) = float_to_int_exact(f)
    {
        return Value::Int(i);
    }
    k
}

impl Table {
    /// A table with preallocated array and hash capacity (no accounting; see `Heap::new_table`).
    pub(crate) fn with_capacity(narr: usize, nhash: usize) -> Table {
        let mut t = Table {
            arr: Vec::with_capacity(narr),
            ..Default::default()
        };
        if nhash > 0 {
            let cap = (nhash * 4 / 3 + 1).next_power_of_two().max(4);
            t.nodes = vec![Node::default(); cap];
        }
        t
    }

    /// Bytes this table holds outside its heap slot (the allocations of its array and hash
    /// parts), as charged to the memory counter.
    pub(crate) fn mem_size(&self) -> usize {
        arr_bytes(self.arr.capacity()) + nodes_bytes(self.nodes.len())
    }

    #[inline]
    fn find_slot(&self, key: &Value) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        let mask = self.nodes.len() - 1;
        let mut i = (key_hash(key) as usize) & mask;
        loop {
            let n = &self.nodes[i];
            if n.key.is_nil() {
                return None;
            }
            if key_eq(&n.key, key) {
                return Some(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of string key `s`, like [`Table::find_slot`] with the string's hash and
    /// identity compared directly (strings are interned: equal exactly when their handles are),
    /// the fast path of field reads and writes.
    #[inline]
    fn find_str_slot(&self, s: StrRef) -> Option<usize> {
        if self.nodes.is_empty() {
            return None;
        }
        let mask = self.nodes.len() - 1;
        let mut i = (str_hash(s) as usize) & mask;
        loop {
            match self.nodes[i].key {
                Value::Str(k) if k == s => return Some(i),
                Value::Nil => return None,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Raw get (`rawget`). Accepts any key; nil and NaN give nil.
    #[inline]
    pub(crate) fn get(&self, key: Value) -> Value {
        match key {
            Value::Int(i) => self.get_int(i),
            Value::Str(s) => self.get_str(s),
            Value::Nil => Value::Nil,
            Value::Float(f) => match float_to_int_exact(f) {
                Some(i) => self.get_int(i),
                None => self.get_hashed(&key),
            },
            _ => self.get_hashed(&key),
        }
    }

    #[inline]
    fn get_hashed(&self, key: &Value) -> Value {
        match self.find_slot(key) {
            Some(i) => self.nodes[i].val,
            None => Value::Nil,
        }
    }

    /// Raw get with an integer key.
    #[inline]
    pub(crate) fn get_int(&self, i: i64) -> Value {
        if i >= 1 && (i as u64) <= self.arr.len() as u64 {
            self.arr[(i - 1) as usize]
        } else if self.nodes.is_empty() {
            Value::Nil
        } else {
            self.get_hashed(&Value::Int(i))
        }
    }

    /// Raw get with a string key handle.
    #[inline]
    pub(crate) fn get_str(&self, s: StrRef) -> Value {
        match self.find_str_slot(s) {
            Some(i) => self.nodes[i].val,
            None => Value::Nil,
        }
    }

    /// Raw set. Errors: nil key ("table index is nil"), NaN key ("table index is NaN"),
    /// memory limit. Assigning nil to an absent key is a no-op.
    pub(crate) fn set(&mut self, key: Value, val: Value, mem: &mut MemCounter) -> VmResult<()> {
        match key {
            Value::Int(i) => self.set_int(i, val, mem),
            Value::Nil => Err(Throw::msg("table index is nil")),
            Value::Float(f) => {
                if let Some(i) = float_to_int_exact(f) {
                    self.set_int(i, val, mem)
                } else if f.is_nan() {
                    Err(Throw::msg("table index is NaN"))
                } else {
                    self.set_hashed(key, val, mem)
                }
            }
            Value::Str(s) => match self.find_str_slot(s) {
                // An existing key (live or dead): set in place, as `set_hashed` would.
                Some(i) => {
                    self.nodes[i].val = val;
                    Ok(())
                }
                None => self.set_hashed(key, val, mem),
            },
            _ => self.set_hashed(key, val, mem),
        }
    }

    /// Raw set with an integer key.
    pub(crate) fn set_int(&mut self, i: i64, val: Value, mem: &mut MemCounter) -> VmResult<()> {
        let len = self.arr.len();
        if i >= 1 && (i as u64) <= len as u64 {
            self.arr[(i - 1) as usize] = val;
            return Ok(());
        }
        if i >= 1 && i as u64 == len as u64 + 1 {
            if val.is_nil() {
                // Might still exist in the hash part.
                if let Some(s) = self.find_slot(&Value::Int(i)) {
                    self.nodes[s].val = Value::Nil;
                }
                return Ok(());
            }
            if self.arr.len() == self.arr.capacity() {
                self.grow_arr(mem)?;
            }
            self.arr.push(val);
            return self.absorb_following(i, mem);
        }
        self.set_hashed(Value::Int(i), val, mem)
    }

    /// After key `i` was pushed onto the array part: drop its hash entry and migrate the keys
    /// that follow from the hash part.
    fn absorb_following(&mut self, i: i64, mem: &mut MemCounter) -> VmResult<()> {
        if self.used == 0 {
            return Ok(());
        }
        if let Some(s) = self.find_slot(&Value::Int(i)) {
            self.nodes[s].val = Value::Nil;
        }
        loop {
            let next = Value::Int(self.arr.len() as i64 + 1);
            match self.find_slot(&next) {
                Some(s) if !self.nodes[s].val.is_nil() => {
                    let v = self.nodes[s].val;
                    self.nodes[s].val = Value::Nil;
                    if self.arr.len() == self.arr.capacity() {
                        self.grow_arr(mem)?;
                    }
                    self.arr.push(v);
                }
                _ => return Ok(()),
            }
        }
    }

    /// Store `vals` at keys `start + 1, start + 2, ...` as a table constructor's positional
    /// items (and `table.pack`) do in Lua: in the array part, nils included, so that `#t` of
    /// `{1, nil, 3}` is 3 as in lua5.4 (whose constructor sizes the array part to the items).
    pub(crate) fn set_list(
        &mut self,
        start: i64,
        vals: &[Value],
        mem: &mut MemCounter,
    ) -> VmResult<()> {
        for (n, &v) in vals.iter().enumerate() {
            let i = start.saturating_add(n as i64 + 1);
            if i as u64 == self.arr.len() as u64 + 1 {
                if self.arr.len() == self.arr.capacity() {
                    self.grow_arr(mem)?;
                }
                self.arr.push(v);
                self.absorb_following(i, mem)?;
            } else {
                self.set_int(i, v, mem)?;
            }
        }
        Ok(())
    }

    /// Double the array part (4 values at least), charged first.
    fn grow_arr(&mut self, mem: &mut MemCounter) -> VmResult<()> {
        let cap = self.arr.capacity();
        let extra = cap.max(4);
        mem.charge(arr_bytes(cap + extra) - arr_bytes(cap))?;
        self.arr.reserve_exact(extra);
        Ok(())
    }

    fn set_hashed(&mut self, key: Value, val: Value, mem: &mut MemCounter) -> VmResult<()> {
        if let Some(s) = self.find_slot(&key) {
            self.nodes[s].val = val;
            return Ok(());
        }
        if val.is_nil() {
            return Ok(());
        }
        // New key: reuse a dead slot on the probe path, else take an empty one.
        if !self.nodes.is_empty() {
            let mask = self.nodes.len() - 1;
            let mut i = (key_hash(&key) as usize) & mask;
            loop {
                let n = &self.nodes[i];
                if n.key.is_nil() {
                    break;
                }
                if n.val.is_nil() {
                    self.nodes[i] = Node { key, val };
                    return Ok(());
                }
                i = (i + 1) & mask;
            }
        }
        if (self.used + 1) * 4 > self.nodes.len() * 3 {
            self.rehash(mem)?;
        }
        let mask = self.nodes.len() - 1;
        let mut i = (key_hash(&key) as usize) & mask;
        while !self.nodes[i].key.is_nil() {
            i = (i + 1) & mask;
        }
        self.nodes[i] = Node { key, val };
        self.used += 1;
        Ok(())
    }

    fn rehash(&mut self, mem: &mut MemCounter) -> VmResult<()> {
        let live = self.nodes.iter().filter(|n| !n.val.is_nil()).count();
        let new_cap = ((live + 1) * 2).next_power_of_two().max(4);
        let old_bytes = nodes_bytes(self.nodes.len());
        let new_bytes = nodes_bytes(new_cap);
        if new_bytes > old_bytes {
            mem.charge(new_bytes - old_bytes)?;
        } else {
            mem.release(old_bytes - new_bytes);
        }
        let old = std::mem::replace(&mut self.nodes, vec![Node::default(); new_cap]);
        self.used = 0;
        let mask = new_cap - 1;
        for n in old {
            if !n.val.is_nil() {
                let mut i = (key_hash(&n.key) as usize) & mask;
                while !self.nodes[i].key.is_nil() {
                    i = (i + 1) & mask;
                }
                self.nodes[i] = n;
                self.used += 1;
            }
        }
        Ok(())
    }

    /// The length operator `#t` (a border, like Lua: the array part's border when its last
    /// element is nil, otherwise continues into the hash part).
    pub(crate) fn len(&self) -> i64 {
        let n = self.arr.len();
        if n > 0 && self.arr[n - 1].is_nil() {
            // As lua5.4: `n - 1` when the value before the last is present.
            if n >= 2 && !self.arr[n - 2].is_nil() {
                return n as i64 - 1;
            }
            // Binary search for a border inside the array part.
            let (mut lo, mut hi) = (0usize, n);
            while hi - lo > 1 {
                let m = (lo + hi) / 2;
                if self.arr[m - 1].is_nil() {
                    hi = m
                } else {
                    lo = m
                }
            }
            return lo as i64;
        }
        if self.used == 0 {
            return n as i64;
        }
        let mut j = n as i64;
        while j < i64::MAX && !self.get_int(j + 1).is_nil() {
            j += 1;
        }
        j
    }

    /// True when the table has no non-nil entries.
    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.arr.iter().all(|v| v.is_nil()) && self.nodes.iter().all(|n| n.val.is_nil())
    }

    /// `next(t, key)`: the entry after `key` (`Nil` starts), `Ok(None)` at the end.
    /// Error "invalid key to 'next'" when `key` is not in the table.
    #[cfg(test)]
    pub(crate) fn next(&self, key: Value) -> VmResult<Option<(Value, Value)>> {
        self.next_counted(key).map(|(r, _)| r)
    }

    /// [`Table::next`], also returning how many empty slots it skipped (the work to charge:
    /// `next(t)` from the start of a table whose first million slots were emptied scans them
    /// all, every call).
    pub(crate) fn next_counted(&self, key: Value) -> VmResult<(Option<(Value, Value)>, usize)> {
        let key = normalize_key(key);
        let mut idx = match key {
            Value::Nil => 0,
            Value::Int(i) if i >= 1 && (i as u64) <= self.arr.len() as u64 => i as usize,
            _ => match self.find_slot(&key) {
                Some(s) => self.arr.len() + s + 1,
                None => return Err(Throw::in_builtin("invalid key to 'next'")),
            },
        };
        let start = idx;
        while idx < self.arr.len() {
            if !self.arr[idx].is_nil() {
                return Ok((
                    Some((Value::Int(idx as i64 + 1), self.arr[idx])),
                    idx - start,
                ));
            }
            idx += 1;
        }
        let mut s = idx - self.arr.len();
        while s < self.nodes.len() {
            let n = &self.nodes[s];
            if !n.val.is_nil() {
                return Ok((Some((n.key, n.val)), self.arr.len() + s - start));
            }
            s += 1;
        }
        Ok((None, self.arr.len() + s - start))
    }

    /// Iterate over the live hash-part entries (no particular order; array part excluded).
    pub(crate) fn hash_entries(&self) -> impl Iterator<Item = (Value, Value)> + '_ {
        self.nodes
            .iter()
            .filter(|n| !n.val.is_nil())
            .map(|n| (n.key, n.val))
    }

    /// Visit every value and key (for the garbage collector).
    pub(crate) fn for_each_ref(&self, mut f: impl FnMut(Value)) {
        for v in &self.arr {
            f(*v);
        }
        for n in &self.nodes {
            if !n.key.is_nil() {
                f(n.key);
                f(n.val);
            }
        }
    }
}

/// A table as plain data for a snapshot: the array part with its capacity, the hash part's
/// slots as they are (so `next` order and probing are the same after a restore), the shape.
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct TableImage {
    arr: Vec<Value>,
    arr_capacity: usize,
    nodes: Vec<Node>,
    shape: Shape,
}

impl Table {
    /// The table as plain data.
    pub(crate) fn to_image(&self) -> TableImage {
        TableImage {
            arr: self.arr.clone(),
            arr_capacity: self.arr.capacity(),
            nodes: self.nodes.clone(),
            shape: self.shape,
        }
    }

    /// Rebuild a table, taking at most `budget` bytes. Checks what lookups rely on: the hash
    /// part is empty or a power of two with a never-used slot (so probing ends), every key is
    /// normalized and found where probing from its hash looks first (no key twice), a
    /// never-used slot holds no value. Values are checked against the arena by the caller.
    pub(crate) fn from_image(img: TableImage, budget: usize) -> crate::snapshot::Damaged<Table> {
        use crate::snapshot::check;
        let n = img.nodes.len();
        check(
            img.arr_capacity >= img.arr.len()
                && arr_bytes(img.arr_capacity).saturating_add(nodes_bytes(n)) <= budget,
            || "a table is larger than the memory it holds".into(),
        )?;
        check(n == 0 || (n.is_power_of_two() && n >= 4), || {
            "a table's hash part has a wrong size".into()
        })?;
        let mut used = 0;
        for node in &img.nodes {
            match node.key {
                Value::Nil => check(node.val.is_nil(), || {
                    "a table holds a value without a key".into()
                })?,
                Value::Float(f) => {
                    check(!f.is_nan() && float_to_int_exact(f).is_none(), || {
                        "a table has a float key that should be an integer".into()
                    })?;
                    used += 1;
                }
                _ => used += 1,
            }
        }
        check(n == 0 || used < n, || "a table's hash part is full".into())?;
        let mut arr = Vec::with_capacity(img.arr_capacity);
        arr.extend_from_slice(&img.arr);
        let t = Table {
            arr,
            nodes: img.nodes,
            used,
            shape: img.shape,
        };
        for (i, node) in t.nodes.iter().enumerate() {
            if !node.key.is_nil() {
                check(t.find_slot(&node.key) == Some(i), || {
                    "a table's key is not where lookups find it".into()
                })?;
            }
        }
        Ok(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    fn mem() -> MemCounter {
        MemCounter::new(1 << 30)
    }
    #[test]
    fn array_and_hash() {
        let mut m = mem();
        let mut t = Table::default();
        for i in 1..=10 {
            t.set(Value::Int(i), Value::Int(i * 10), &mut m).unwrap();
        }
        assert_eq!(t.arr.len(), 10);
        assert_eq!(t.len(), 10);
        t.set(Value::Float(3.0), Value::Int(7), &mut m).unwrap();
        assert_eq!(t.get_int(3), Value::Int(7));
        t.set(Value::Int(20), Value::Bool(true), &mut m).unwrap();
        assert_eq!(t.get(Value::Float(20.0)), Value::Bool(true));
        assert!(
            t.set(Value::Float(f64::NAN), Value::Int(1), &mut m)
                .is_err()
        );
        assert!(t.set(Value::Nil, Value::Int(1), &mut m).is_err());
        // migration
        let mut t = Table::default();
        t.set(Value::Int(2), Value::Int(2), &mut m).unwrap();
        t.set(Value::Int(3), Value::Int(3), &mut m).unwrap();
        t.set(Value::Int(1), Value::Int(1), &mut m).unwrap();
        assert_eq!(t.arr.len(), 3);
        assert_eq!(t.len(), 3);
    }
    #[test]
    fn next_tolerates_nil_assignment() {
        let mut m = mem();
        let mut t = Table::default();
        for i in 0..100 {
            t.set(Value::Float(i as f64 + 0.5), Value::Int(i), &mut m)
                .unwrap();
        }
        let mut k = Value::Nil;
        let mut seen = 0;
        while let Some((key, _)) = t.next(k).unwrap() {
            t.set(key, Value::Nil, &mut m).unwrap();
            seen += 1;
            k = key;
        }
        assert_eq!(seen, 100);
        assert!(t.is_empty());
    }
}
