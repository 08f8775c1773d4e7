//! The per-execution arena: strings, tables, closures, upvalue cells, native functions and host
//! objects live in slabs (`Vec`s with free lists) and are referenced by `u32` handles from
//! [`Value`]. Dropping the heap frees everything.
//!
//! Memory accounting: [`MemCounter`] counts the bytes held (strings, tables with their capacity,
//! closures, logs). Every allocation is charged *before* it happens, at what it occupies: the
//! allocator's chunk ([`alloc_bytes`]), the object's slab slot (charged when a slab grows and
//! kept: freed slots are reused), and for strings the intern map's table (charged by its
//! capacity). Going over the cap is an uncatchable ExecutionFailure.
//!
//! The garbage collector (pacing and mark-and-sweep, [`Heap::collect`]) is in `gc.rs`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::ErrorKind;
use crate::table::{Shape, Table};
use crate::value::{
    ClosureRef, HostRef, NativeRef, StrRef, TableRef, Throw, Value, VmResult, hash_bytes,
    hash_finish, hash_start, hash_words,
};
use crate::vm::NativeFn;

// The collector works on the arena's private slabs, so it is a child module.
mod gc;
// Snapshots of the arena reach into its private slabs too.
pub(crate) mod image;

/// Units of work (values, 64-byte string chunks) between two deadline checks in long data walks.
pub(crate) const DEADLINE_CHECK_WORK: u64 = 1 << 12;

/// Byte accounting with a hard cap and a GC debt counter.
#[derive(Clone, Debug)]
pub(crate) struct MemCounter {
    /// Bytes currently held.
    pub used: usize,
    /// Hard cap (bytes).
    pub cap: usize,
    /// Bytes allocated since the last collection.
    pub debt: usize,
    /// Bytes held right after the last collection.
    pub live_after_gc: usize,
}

impl MemCounter {
    pub(crate) fn new(cap: usize) -> MemCounter {
        MemCounter {
            used: 0,
            cap,
            debt: 0,
            live_after_gc: 0,
        }
    }
    /// Charge `n` bytes before allocating them. Error: uncatchable ExecutionFailure naming the cap.
    #[inline]
    pub(crate) fn charge(&mut self, n: usize) -> VmResult<()> {
        match self.used.checked_add(n) {
            Some(u) if u <= self.cap => {
                self.used = u;
                self.debt = self.debt.saturating_add(n);
                Ok(())
            }
            _ => Err(Throw::fatal(
                ErrorKind::ExecutionFailure,
                format!(
                    "memory limit exceeded: the program holds more than {} bytes; process data in smaller pieces",
                    self.cap
                ),
            )),
        }
    }
    /// Count `n` bytes held outside the heap for a while (a builtin's buffer while it calls back
    /// into Lua) against the cap, without adding GC debt (they are not garbage to collect);
    /// give them back with [`MemCounter::release`]. Error: as [`MemCounter::charge`].
    pub(crate) fn hold(&mut self, n: usize) -> VmResult<()> {
        let debt = self.debt;
        self.charge(n)?;
        self.debt = debt;
        Ok(())
    }
    /// Check that `n` more bytes would fit, without charging them.
    pub(crate) fn check(&self, n: usize) -> VmResult<()> {
        let mut probe = self.clone();
        probe.charge(n)
    }
    #[inline]
    pub(crate) fn release(&mut self, n: usize) {
        self.used = self.used.saturating_sub(n);
    }
}

/// Identity hasher for maps keyed by an already-computed hash.
#[derive(Default)]
pub(crate) struct IdHasher(u64);
impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
type IdMap<V> = HashMap<u64, V, BuildHasherDefault<IdHasher>>;

const NO_LINK: u32 = u32::MAX;

/// Bytes charged for a table's remembered `null` field names (see [`Heap::note_null_fields`]).
pub(crate) fn null_names_bytes(names: &[Box<str>]) -> usize {
    alloc_bytes(names.len() * 16) + names.iter().map(|n| alloc_bytes(n.len())).sum::<usize>() + 64
}

/// Bytes the system allocator really takes for a request of `n` bytes (glibc on 64-bit Linux:
/// an 8-byte header, 16-byte granules, 32 bytes at least; a request of 128 KiB or more is
/// mapped on its own, whole pages plus a header). `0` for `0` (nothing is allocated).
///
/// Every heap charge of an allocation goes through this, so that many small objects are
/// charged what they occupy, not only their payload (a short string of 5 bytes
/// occupies a 32-byte chunk).
#[inline]
pub(crate) const fn alloc_bytes(n: usize) -> usize {
    if n == 0 {
        0
    } else if n >= 128 * 1024 {
        (n.saturating_add(16 + 4095)) & !4095
    } else {
        let c = (n + 8 + 15) & !15;
        if c < 32 { 32 } else { c }
    }
}

/// Bytes of one string slot: the slab entry and its free-list entry. Charged when the slab
/// grows and never given back (a freed slot is reused by the next new string).
pub(crate) const STR_SLOT_BYTES: usize = std::mem::size_of::<StrObj>() + 4;
/// Bytes of one table slot (slab entry, mark, free-list entry); charged like
/// [`STR_SLOT_BYTES`].
pub(crate) const TABLE_SLOT_BYTES: usize = std::mem::size_of::<Option<Table>>() + 1 + 4;
/// Bytes of one closure slot; charged like [`STR_SLOT_BYTES`].
pub(crate) const CLOSURE_SLOT_BYTES: usize = std::mem::size_of::<Option<Closure>>() + 1 + 4;
/// Bytes of one upvalue cell slot; charged like [`STR_SLOT_BYTES`].
pub(crate) const UPVAL_SLOT_BYTES: usize = std::mem::size_of::<Upval>() + 1 + 4;

/// Bytes of the intern map's table for a map of `capacity` (hashbrown: one 16-byte entry and
/// one control byte per bucket, buckets a power of two holding at most 7/8 of them, plus a
/// 16-byte control group), rounded like [`alloc_bytes`].
fn intern_table_bytes(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        (capacity + 1).next_power_of_two()
    } else {
        (capacity * 8 / 7).next_power_of_two()
    };
    alloc_bytes(buckets * 17 + 16)
}

/// Bytes a log line holds while the heap keeps it: its chunk and its entry in the list.
pub(crate) fn log_line_bytes(line: &String) -> usize {
    alloc_bytes(line.capacity()) + std::mem::size_of::<String>()
}

/// Bytes a string of `len` bytes holds outside its slot: its allocator chunk (`0` for a static
/// string, whose bytes are shared).
#[inline]
fn owned_str_bytes(len: usize) -> usize {
    alloc_bytes(len)
}

/// Bytes at most that creating one new string of `len` bytes charges (chunk, a new slot, and a
/// share of the intern map; [`Heap::reserve_str`] checks this much).
pub(crate) const fn string_cost(len: usize) -> usize {
    alloc_bytes(len) + STR_SLOT_BYTES + 40
}

#[derive(Clone, Debug)]
enum StrData {
    Free,
    Static(&'static [u8]),
    Owned(Box<[u8]>),
}

#[derive(Clone, Debug)]
struct StrObj {
    data: StrData,
    hash: u64,
    /// Next string in the same intern bucket.
    chain: u32,
    marked: bool,
}

/// A Lua closure: a prototype index in the running program plus upvalue cells.
#[derive(Clone, Debug)]
pub(crate) struct Closure {
    pub proto: u32,
    pub upvals: Box<[UpvalRef]>,
}

/// Handle of an upvalue cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub(crate) struct UpvalRef(pub u32);

/// An upvalue cell: open (pointing at a live stack slot) or closed (holding its value).
#[derive(Clone, Copy, Debug, serde::Serialize, serde::Deserialize)]
pub(crate) enum Upval {
    Open(usize),
    Closed(Value),
}

/// A registered native function.
#[derive(Clone, Copy)]
pub(crate) struct NativeDef {
    /// Name used in error messages ("bad argument #1 to 'insert'").
    pub name: &'static str,
    pub f: NativeFn,
}

/// What a host object is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) enum HostKind {
    /// A `tools` namespace node; `is_tool` when the path itself is a callable tool.
    Node { is_tool: bool },
    /// The `search` built-in.
    Search,
    /// An extension function (dotted path).
    Extension,
}

/// A host object (never collected; a handful per execution).
#[derive(Clone, Debug)]
pub(crate) struct HostObj {
    pub kind: HostKind,
    /// Canonical dotted path ("" for the `tools` root).
    pub path: String,
    /// Children by key (namespace nodes only).
    pub children: Vec<(StrRef, Value)>,
}

/// The arena. See the module docs. `Clone` copies the whole arena (used to fork a prepared
/// standard-library template into each new machine).
#[derive(Clone)]
pub(crate) struct Heap {
    strs: Vec<StrObj>,
    str_free: Vec<u32>,
    intern: IdMap<u32>,
    /// Bytes charged for the intern map's table ([`intern_table_bytes`] of its capacity).
    intern_charged: usize,
    tables: Vec<Option<Table>>,
    table_marks: Vec<bool>,
    table_free: Vec<u32>,
    closures: Vec<Option<Closure>>,
    closure_marks: Vec<bool>,
    closure_free: Vec<u32>,
    upvals: Vec<Upval>,
    upval_marks: Vec<bool>,
    upval_free: Vec<u32>,
    natives: Vec<NativeDef>,
    /// The library of each library native ("string" for `string.rep`), parallel to `natives`:
    /// static names, so forking the template copies no strings.
    native_lib: Vec<Option<&'static str>>,
    /// Host objects (tools tree, `search`, extensions).
    pub hosts: Vec<HostObj>,
    /// Log lines written by `print` (charged to `mem`).
    pub logs: Vec<String>,
    /// Memory, fuel, the deadline and the inline stretch (see [`crate::restart::Meter`]).
    pub meter: crate::restart::Meter,
    /// Tables imported from a tool's result whose fields were `null` there (they read as nil),
    /// by table index, with those field names: at most [`crate::limits::MAX_NULL_FIELD_TABLES`]
    /// tables; an entry goes when its table is collected.
    pub null_fields: HashMap<u32, Box<[Box<str>]>>,
}

impl Heap {
    /// An empty heap with a memory cap in bytes.
    pub(crate) fn new(cap: usize) -> Heap {
        Heap {
            strs: Vec::new(),
            str_free: Vec::new(),
            intern: IdMap::default(),
            intern_charged: 0,
            tables: Vec::new(),
            table_marks: Vec::new(),
            table_free: Vec::new(),
            closures: Vec::new(),
            closure_marks: Vec::new(),
            closure_free: Vec::new(),
            upvals: Vec::new(),
            upval_marks: Vec::new(),
            upval_free: Vec::new(),
            natives: Vec::new(),
            native_lib: Vec::new(),
            hosts: Vec::new(),
            logs: Vec::new(),
            meter: crate::restart::Meter::new(cap),
            null_fields: HashMap::new(),
        }
    }

    /// [`hash_bytes`] of a string about to be interned; a long one is hashed
    /// [`crate::limits::WORK_CHUNK_BYTES`] at a time with a deadline check after each piece
    /// (hashing 400 MB takes a noticeable time in a debug build).
    fn hash_checked(&self, bytes: &[u8]) -> VmResult<u64> {
        let chunk = crate::limits::WORK_CHUNK_BYTES;
        if bytes.len() < chunk || !self.meter.clocked() {
            return Ok(hash_bytes(bytes));
        }
        let whole = bytes.len() - bytes.len() % 8;
        let mut h = hash_start(bytes.len());
        for piece in bytes[..whole].chunks(chunk) {
            h = hash_words(h, piece);
            self.check_deadline()?;
        }
        Ok(hash_finish(h, &bytes[whole..]))
    }

    /// Turn every owned string into a leaked `'static` one, so clones of this heap share the
    /// bytes. Only for the process-wide standard-library template (built once).
    pub(crate) fn make_static(&mut self) {
        for o in &mut self.strs {
            if let StrData::Owned(b) = &o.data {
                let leaked: &'static [u8] = Box::leak(b.clone());
                o.data = StrData::Static(leaked);
            }
        }
    }

    // ----- strings ------------------------------------------------------------------------

    /// The bytes of a string.
    #[inline]
    pub(crate) fn str_bytes(&self, s: StrRef) -> &[u8] {
        match &self.strs[s.0 as usize].data {
            StrData::Static(b) => b,
            StrData::Owned(b) => b,
            StrData::Free => &[],
        }
    }

    /// The string as UTF-8 text, lossily (for messages).
    pub(crate) fn str_lossy(&self, s: StrRef) -> String {
        String::from_utf8_lossy(self.str_bytes(s)).into_owned()
    }

    /// The interned handle for `bytes` if such a string exists (no allocation).
    pub(crate) fn find_str(&self, bytes: &[u8]) -> Option<StrRef> {
        let h = hash_bytes(bytes);
        self.find_hashed(bytes, h)
    }

    #[inline]
    fn find_hashed(&self, bytes: &[u8], h: u64) -> Option<StrRef> {
        let mut cur = *self.intern.get(&h)?;
        while cur != NO_LINK {
            let o = &self.strs[cur as usize];
            let b: &[u8] = match &o.data {
                StrData::Static(b) => b,
                StrData::Owned(b) => b,
                StrData::Free => &[],
            };
            if o.hash == h && b == bytes {
                return Some(StrRef(cur));
            }
            cur = o.chain;
        }
        None
    }

    /// Charge what a new string of `len` bytes (`owned`: with its own chunk) takes besides what
    /// is already charged: its chunk, a new slab slot when no freed one is left, and the intern
    /// map's growth when this insert makes it grow (checked for the old and new tables together,
    /// which both exist while it grows). Error: the memory limit.
    fn charge_new_str(&mut self, len: usize, owned: bool) -> VmResult<()> {
        let mut n = if owned { owned_str_bytes(len) } else { 0 };
        if self.str_free.is_empty() {
            n += STR_SLOT_BYTES;
        }
        if self.intern.len() >= self.intern.capacity() {
            let grown = intern_table_bytes((self.intern.capacity() * 2).max(3));
            self.meter.mem.check(n + grown)?;
        }
        self.meter.mem.charge(n)
    }

    /// Charge (or give back) the difference between the intern map's table and what was
    /// charged for it. Only after the map was resized, by an insert whose growth
    /// [`Heap::charge_new_str`] checked, or by a shrink.
    fn settle_intern(&mut self) {
        let now = intern_table_bytes(self.intern.capacity());
        if now >= self.intern_charged {
            let grown = now - self.intern_charged;
            self.meter.mem.used = self.meter.mem.used.saturating_add(grown);
            self.meter.mem.debt = self.meter.mem.debt.saturating_add(grown);
        } else {
            self.meter.mem.release(self.intern_charged - now);
        }
        self.intern_charged = now;
    }

    /// Insert a string already charged with [`Heap::charge_new_str`].
    fn insert_str(&mut self, data: StrData, h: u64) -> StrRef {
        let chain = self.intern.get(&h).copied().unwrap_or(NO_LINK);
        let obj = StrObj {
            data,
            hash: h,
            chain,
            marked: false,
        };
        let id = if let Some(id) = self.str_free.pop() {
            self.strs[id as usize] = obj;
            id
        } else {
            self.strs.push(obj);
            (self.strs.len() - 1) as u32
        };
        self.intern.insert(h, id);
        if intern_table_bytes(self.intern.capacity()) != self.intern_charged {
            self.settle_intern();
        }
        StrRef(id)
    }

    /// Intern a byte string (charged to memory when new).
    #[inline]
    pub(crate) fn intern(&mut self, bytes: &[u8]) -> VmResult<StrRef> {
        // A string that could not be held fails before it is hashed (hashing 100 MB of tool
        // output only to refuse it would take a noticeable time).
        if bytes.len() >= 1 << 20 {
            self.meter.mem.check(string_cost(bytes.len()))?;
        }
        let h = self.hash_checked(bytes)?;
        if let Some(s) = self.find_hashed(bytes, h) {
            return Ok(s);
        }
        self.charge_new_str(bytes.len(), true)?;
        Ok(self.insert_str(StrData::Owned(bytes.into()), h))
    }

    /// Intern an owned byte string without copying it (the caller must have charged nothing;
    /// this charges [`string_cost`] when new — but the buffer already exists, so prefer
    /// [`Heap::reserve_str`] before building large buffers).
    pub(crate) fn intern_owned(&mut self, bytes: Vec<u8>) -> VmResult<StrRef> {
        let h = self.hash_checked(&bytes)?;
        if let Some(s) = self.find_hashed(&bytes, h) {
            return Ok(s);
        }
        self.charge_new_str(bytes.len(), true)?;
        Ok(self.insert_str(StrData::Owned(bytes.into_boxed_slice()), h))
    }

    /// Intern a static string (no copy).
    pub(crate) fn intern_static(&mut self, s: &'static str) -> VmResult<StrRef> {
        let bytes = s.as_bytes();
        let h = hash_bytes(bytes);
        if let Some(r) = self.find_hashed(bytes, h) {
            return Ok(r);
        }
        self.charge_new_str(bytes.len(), false)?;
        Ok(self.insert_str(StrData::Static(bytes), h))
    }

    /// A string value from bytes.
    #[inline]
    pub(crate) fn new_str(&mut self, bytes: &[u8]) -> VmResult<Value> {
        Ok(Value::Str(self.intern(bytes)?))
    }

    /// Check (without charging) that a string of `len` bytes could be created. Call this before
    /// building a large result buffer (`string.rep`, `table.concat`) so a huge request fails at
    /// once instead of trying to allocate.
    pub(crate) fn reserve_str(&self, len: usize) -> VmResult<()> {
        self.meter.mem.check(string_cost(len))
    }

    // ----- tables -------------------------------------------------------------------------

    /// A new table with preallocated capacity.
    pub(crate) fn new_table(&mut self, narr: usize, nhash: usize) -> VmResult<TableRef> {
        let est = alloc_bytes(narr.saturating_mul(16))
            + if nhash > 0 {
                alloc_bytes((nhash * 4 / 3 + 1).next_power_of_two().max(4) * 32)
            } else {
                0
            };
        let slot = if self.table_free.is_empty() {
            TABLE_SLOT_BYTES
        } else {
            0
        };
        self.meter.mem.charge(est + slot)?;
        let t = Table::with_capacity(narr, nhash);
        let extra = t.mem_size().saturating_sub(est);
        self.meter.mem.used += extra;
        let id = if let Some(id) = self.table_free.pop() {
            self.tables[id as usize] = Some(t);
            id
        } else {
            self.tables.push(Some(t));
            self.table_marks.push(false);
            (self.tables.len() - 1) as u32
        };
        Ok(TableRef(id))
    }

    /// Read access to a table.
    #[inline]
    pub(crate) fn table(&self, t: TableRef) -> &Table {
        self.tables[t.0 as usize].as_ref().expect("live table")
    }

    /// Mutable access to a table together with the memory counter (for growth charges).
    #[inline]
    pub(crate) fn table_and_mem(&mut self, t: TableRef) -> (&mut Table, &mut MemCounter) {
        (
            self.tables[t.0 as usize].as_mut().expect("live table"),
            &mut self.meter.mem,
        )
    }

    #[inline]
    pub(crate) fn table_get(&self, t: TableRef, key: Value) -> Value {
        self.table(t).get(key)
    }
    #[inline]
    pub(crate) fn table_get_int(&self, t: TableRef, i: i64) -> Value {
        self.table(t).get_int(i)
    }
    /// Get a field by name (no allocation: an absent string cannot be a key).
    pub(crate) fn table_get_field(&self, t: TableRef, name: &str) -> Value {
        match self.find_str(name.as_bytes()) {
            Some(s) => self.table(t).get_str(s),
            None => Value::Nil,
        }
    }
    /// Raw set (errors: nil/NaN key, memory).
    #[inline]
    pub(crate) fn table_set(&mut self, t: TableRef, key: Value, val: Value) -> VmResult<()> {
        let (tb, mem) = self.table_and_mem(t);
        tb.set(key, val, mem)
    }
    #[inline]
    pub(crate) fn table_set_int(&mut self, t: TableRef, i: i64, val: Value) -> VmResult<()> {
        let (tb, mem) = self.table_and_mem(t);
        tb.set_int(i, val, mem)
    }
    /// Store `vals` at keys `start + 1, ...` as a constructor does (see [`Table::set_list`]).
    pub(crate) fn table_set_list(
        &mut self,
        t: TableRef,
        start: i64,
        vals: &[Value],
    ) -> VmResult<()> {
        let (tb, mem) = self.table_and_mem(t);
        tb.set_list(start, vals, mem)
    }
    /// Set a field by name (interns the name).
    pub(crate) fn table_set_field(&mut self, t: TableRef, name: &str, val: Value) -> VmResult<()> {
        let k = self.intern(name.as_bytes())?;
        self.table_set(t, Value::Str(k), val)
    }
    /// `#t`.
    pub(crate) fn table_len(&self, t: TableRef) -> i64 {
        self.table(t).len()
    }
    /// `next(t, k)` with the number of empty slots skipped (see [`Table::next_counted`]).
    pub(crate) fn table_next_counted(
        &self,
        t: TableRef,
        k: Value,
    ) -> VmResult<(Option<(Value, Value)>, usize)> {
        self.table(t).next_counted(k)
    }
    /// Remember that the tool result's object imported as `t` had the fields `names` as `null`
    /// (within [`crate::limits::MAX_NULL_FIELD_TABLES`] and the per-table bounds; charged).
    pub(crate) fn note_null_fields(&mut self, t: TableRef, names: Vec<Box<str>>) -> VmResult<()> {
        if names.is_empty() || self.null_fields.len() >= crate::limits::MAX_NULL_FIELD_TABLES {
            return Ok(());
        }
        let names = names.into_boxed_slice();
        self.meter.mem.charge(null_names_bytes(&names))?;
        self.null_fields.insert(t.0, names);
        Ok(())
    }

    /// Whether field `name` of table `t` was `null` in the tool result it was imported from.
    pub(crate) fn was_null_field(&self, t: TableRef, name: &str) -> bool {
        self.null_fields
            .get(&t.0)
            .is_some_and(|names| names.iter().any(|n| &**n == name))
    }

    pub(crate) fn set_shape(&mut self, t: TableRef, shape: Shape) {
        self.tables[t.0 as usize]
            .as_mut()
            .expect("live table")
            .shape = shape;
    }

    // ----- closures and upvalues ------------------------------------------------------------

    pub(crate) fn new_closure(
        &mut self,
        proto: u32,
        upvals: Box<[UpvalRef]>,
    ) -> VmResult<ClosureRef> {
        let slot = if self.closure_free.is_empty() {
            CLOSURE_SLOT_BYTES
        } else {
            0
        };
        self.meter
            .mem
            .charge(slot + alloc_bytes(upvals.len() * 4))?;
        let c = Closure { proto, upvals };
        let id = if let Some(id) = self.closure_free.pop() {
            self.closures[id as usize] = Some(c);
            id
        } else {
            self.closures.push(Some(c));
            self.closure_marks.push(false);
            (self.closures.len() - 1) as u32
        };
        Ok(ClosureRef(id))
    }
    #[inline]
    pub(crate) fn closure(&self, c: ClosureRef) -> &Closure {
        self.closures[c.0 as usize].as_ref().expect("live closure")
    }
    pub(crate) fn new_upval(&mut self, u: Upval) -> VmResult<UpvalRef> {
        if self.upval_free.is_empty() {
            self.meter.mem.charge(UPVAL_SLOT_BYTES)?;
        }
        let id = if let Some(id) = self.upval_free.pop() {
            self.upvals[id as usize] = u;
            id
        } else {
            self.upvals.push(u);
            self.upval_marks.push(false);
            (self.upvals.len() - 1) as u32
        };
        Ok(UpvalRef(id))
    }
    /// The upvalue cell, by reference (avoids copying the enum).
    #[inline]
    pub(crate) fn upval_ref(&self, u: UpvalRef) -> &Upval {
        &self.upvals[u.0 as usize]
    }
    #[inline]
    pub(crate) fn set_upval(&mut self, u: UpvalRef, v: Upval) {
        self.upvals[u.0 as usize] = v;
    }

    // ----- natives and host objects ----------------------------------------------------------

    /// Register a native function; the returned value can be stored in tables.
    pub(crate) fn register_native(&mut self, name: &'static str, f: NativeFn) -> Value {
        self.natives.push(NativeDef { name, f });
        self.native_lib.push(None);
        Value::Native(NativeRef((self.natives.len() - 1) as u32))
    }

    /// Record the library (`"string"`) of a library native, whose qualified name
    /// ("string.rep") argument errors use when the function is called without a call-site name
    /// (e.g. directly by `pcall`).
    pub(crate) fn set_native_lib(&mut self, n: NativeRef, lib: &'static str) {
        if let Some(q) = self.native_lib.get_mut(n.0 as usize) {
            *q = Some(lib);
        }
    }

    /// The qualified name of a native ("string.rep"), if it belongs to a library.
    pub(crate) fn native_qualified(&self, n: NativeRef) -> Option<String> {
        let lib = (*self.native_lib.get(n.0 as usize)?)?;
        Some(format!("{}.{}", lib, self.native(n).name))
    }
    #[inline]
    pub(crate) fn native(&self, n: NativeRef) -> NativeDef {
        self.natives[n.0 as usize]
    }
    pub(crate) fn new_host(&mut self, obj: HostObj) -> HostRef {
        self.hosts.push(obj);
        HostRef((self.hosts.len() - 1) as u32)
    }
    pub(crate) fn host(&self, h: HostRef) -> &HostObj {
        &self.hosts[h.0 as usize]
    }

    // ----- logs -------------------------------------------------------------------------------

    /// Append a log line (charged to memory: [`log_line_bytes`]).
    pub(crate) fn push_log(&mut self, line: String) -> VmResult<()> {
        self.meter.mem.charge(log_line_bytes(&line))?;
        self.logs.push(line);
        Ok(())
    }

    /// A stable per-object id for `tostring` ("table: 0x...").
    pub(crate) fn object_id(v: Value) -> u64 {
        match v {
            Value::Table(t) => 0x5555_1000_0000 + t.0 as u64 * 0x40,
            Value::Closure(c) => 0x5555_2000_0000 + c.0 as u64 * 0x40,
            Value::Native(n) => 0x5555_3000_0000 + n.0 as u64 * 0x40,
            Value::HostNs(h) | Value::HostFn(h) => 0x5555_4000_0000 + h.0 as u64 * 0x40,
            _ => 0,
        }
    }

    /// What `string.format("%p", v)` shows: the address `tostring` shows for a table or a
    /// function, one for a string (equal strings are one string: one address) and for
    /// `json.null`; `None` for nil, booleans and numbers (Lua's `lua_topointer` gives NULL).
    pub(crate) fn address(v: Value) -> Option<u64> {
        match v {
            Value::Nil | Value::Bool(_) | Value::Int(_) | Value::Float(_) => None,
            Value::Str(s) => Some(0x5555_5000_0000 + s.0 as u64 * 0x40),
            Value::JsonNull => Some(0x5555_0000_0040),
            _ => Some(Self::object_id(v)),
        }
    }
}
