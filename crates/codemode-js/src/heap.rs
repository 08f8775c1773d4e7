//! The per-run arenas: strings, objects, cells and symbols, with byte accounting against the
//! run's memory cap. Plain data (`Clone`): the process-wide template of the standard library
//! is one `Heap`, cloned for every run.

use std::collections::HashMap;

pub use crate::elements::{Elems, SPARSE_ENTRY_BYTES};
pub use crate::table::Table;

pub(crate) mod image;

use crate::arena::Arena;
use crate::string::JsStr;
use crate::value::{CellId, ObjId, StrId, SymId, Value};

/// Bytes charged per object besides its properties and elements: its arena slot, as the
/// process holds it (the charge is what the memory cap counts, so it is the real size).
pub const OBJECT_BYTES: usize = std::mem::size_of::<Obj>();
/// Bytes charged per property slot: one entry of an object's property list (charged by the
/// list's capacity).
pub const PROP_BYTES: usize = std::mem::size_of::<Prop>();
/// Bytes charged per element or register.
pub const VALUE_BYTES: usize = 16;
/// Charged per call frame, besides its registers (released when the frame returns or throws).
pub const FRAME_BYTES: usize = std::mem::size_of::<crate::vm::Frame>();
/// Bytes charged per property of an object with more than `INDEX_AT` properties, for its
/// entry in the object's name index (a hashed `(Key, u32)` pair with the table's spare room).
pub const INDEX_ENTRY_BYTES: usize = 32;
/// Bytes charged per string besides its code units: its arena slot and the allocation's
/// overhead (the `Arc`'s two counts; a short string's units sit in a 32-byte allocator chunk).
pub const STRING_BYTES: usize = 48;

/// Names every heap interns first, in this order (so `Key::Name(i)` is `COMMON_NAMES[i]`):
/// the keys the machine and the builtins look up by name, found by [`Heap::key`] without
/// hashing or allocating.
pub const COMMON_NAMES: [&str; 18] = [
    "length",
    "name",
    "prototype",
    "message",
    "constructor",
    "value",
    "done",
    "next",
    "return",
    "toString",
    "valueOf",
    "toJSON",
    "cause",
    "values",
    // RegExp searches and their match arrays.
    "lastIndex",
    "index",
    "input",
    "groups",
];

/// A property key: an array index, an interned name, or a symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Key {
    Index(u32),
    Name(u32),
    Sym(SymId),
}

/// Property attribute bits.
pub const WRITABLE: u8 = 1;
pub const ENUMERABLE: u8 = 2;
pub const CONFIGURABLE: u8 = 4;
/// The attributes of a property made by assignment or an object literal.
pub const DEFAULT_ATTRS: u8 = WRITABLE | ENUMERABLE | CONFIGURABLE;
/// The attributes of builtin methods (not enumerable).
pub const HIDDEN_ATTRS: u8 = WRITABLE | CONFIGURABLE;

/// What a property holds.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Slot {
    Data(Value),
    /// Getter and setter (Undefined when absent).
    Accessor(Value, Value),
}

/// One own property.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Prop {
    pub key: Key,
    pub slot: Slot,
    pub attrs: u8,
}

/// Own properties in insertion order, with an index once there are many.
#[derive(Clone, Debug, Default)]
pub struct Props {
    pub list: Vec<Prop>,
    index: Option<HashMap<Key, u32>>,
    /// How many of the keys are indices (a prototype without any needs no look on an
    /// array's element write: [`Props::has_indices`]).
    indices: u32,
}

const INDEX_AT: usize = 12;

impl Props {
    /// Position of `key`.
    pub fn find(&self, key: Key) -> Option<usize> {
        match &self.index {
            Some(ix) => ix.get(&key).map(|i| *i as usize),
            None => self.list.iter().position(|p| p.key == key),
        }
    }

    pub fn get(&self, key: Key) -> Option<&Prop> {
        self.find(key).map(|i| &self.list[i])
    }

    /// Whether any key is an index (`Key::Index`).
    pub fn has_indices(&self) -> bool {
        self.indices > 0
    }

    /// Append `p`; returns the bytes the object holds more (to charge): the list's growth
    /// (its capacity: a first property allocates room for four), and index entries (all of
    /// them when this push makes the index).
    #[must_use]
    pub fn push(&mut self, p: Prop) -> usize {
        let i = self.list.len() as u32;
        let room = self.list.capacity();
        self.indices += u32::from(matches!(p.key, Key::Index(_)));
        self.list.push(p);
        let grown = (self.list.capacity() - room) * PROP_BYTES;
        if let Some(ix) = &mut self.index {
            ix.insert(p.key, i);
            return grown + INDEX_ENTRY_BYTES;
        }
        if self.list.len() > INDEX_AT {
            self.reindex();
            return grown + self.list.len() * INDEX_ENTRY_BYTES;
        }
        grown
    }

    /// The bytes charged for these properties (what [`Props::push`] charged for them).
    pub fn bytes(&self) -> usize {
        let index = match self.index {
            Some(_) => self.list.len() * INDEX_ENTRY_BYTES,
            None => 0,
        };
        self.list.capacity() * PROP_BYTES + index
    }

    fn reindex(&mut self) {
        self.index = Some(
            self.list
                .iter()
                .enumerate()
                .map(|(i, p)| (p.key, i as u32))
                .collect(),
        );
    }

    pub fn remove(&mut self, key: Key) -> bool {
        let Some(i) = self.find(key) else {
            return false;
        };
        self.list.remove(i);
        self.indices -= u32::from(matches!(key, Key::Index(_)));
        if self.index.is_some() {
            self.reindex();
        }
        true
    }
}

/// A function's behaviour.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Func {
    /// A compiled function of program `prog` with its captured cells.
    Closure {
        prog: u16,
        func: u32,
        ups: Vec<CellId>,
    },
    /// A builtin (index into the native table).
    Native(u16),
    /// `f.bind(this, ...args)`.
    Bound {
        target: ObjId,
        this: Value,
        args: Vec<Value>,
    },
}

/// Iterator state of the builtin iterators.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Iter {
    /// Over an array-like's elements: 0 values, 1 keys, 2 entries.
    Array { target: Value, pos: u32, kind: u8 },
    /// Over a string's code points.
    Str { s: StrId, pos: u32 },
    /// Over a list of values (for…in keys).
    List { items: Vec<Value>, pos: u32 },
    /// Over a Map's or Set's live entries: 0 keys, 1 values, 2 entries (`[key, value]`);
    /// `pos` is the next entry position, `u32::MAX` once done.
    Table { target: ObjId, pos: u32, kind: u8 },
}

/// What kind of object, with its internal slots.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    Ordinary,
    /// The elements (a dense prefix and a sparse map).
    Array(Elems),
    Function(Func),
    Error,
    Arguments(Elems),
    Boolean(bool),
    Number(f64),
    String(StrId),
    Iterator(Iter),
    /// Insertion-ordered, hashed entries.
    Map(Table),
    /// Members (each entry's value is its key).
    Set(Table),
    /// `WeakMap` entries (object and unregistered symbol keys; held strongly by this
    /// collector).
    WeakMap(Table),
    /// `WeakSet` members (objects and unregistered symbols; held strongly).
    WeakSet(Table),
    /// A Date object's time value (ms since the epoch, NaN when invalid).
    Date(f64),
    /// A URL record (`builtins/url.rs`).
    Url(#[serde(with = "image::url_serde")] Box<url::Url>),
    /// A `URLSearchParams` list of name-value pairs.
    Params(Vec<(String, String)>),
    /// A `Uint8Array`: `len` bytes at `off` of the buffer object `buf` (`builtins/bytes.rs`).
    Bytes {
        buf: ObjId,
        off: u32,
        len: u32,
    },
    /// The bytes behind one or more Uint8Arrays (no prototype; reached only through them).
    Buffer(Vec<u8>),
    /// A `TextEncoder` (`builtins/text.rs`).
    Encoder,
    /// A `TextDecoder` (UTF-8): its options, and the bytes a streaming decode holds back.
    Decoder(Box<crate::builtins::text::DecoderState>),
    /// A RegExp object's compiled pattern (its `lastIndex` is a property).
    RegExp(#[serde(with = "image::regexp_serde")] crate::builtins::regexp::Shared),
    /// A promise's internal slots (ECMA-262 §27.2.6).
    Promise(Box<crate::vm::coro::PromiseSlots>),
    /// A generator, an async generator, or the hidden coroutine of an async function call:
    /// its suspended frame and registers.
    Coro(Box<crate::vm::coro::Coro>),
    /// The record a promise's resolving functions share (§27.2.1.3): the promise and
    /// whether one of them has run (alreadyResolved).
    Resolving(ObjId, bool),
    /// A node of the `tools` namespace (its dotted path; the root's is empty): children are
    /// read-only properties, and reading a missing name gives a function whose call fails
    /// with the host's unknown-tool error.
    ToolNs(StrId),
}

/// A private element of an object (ECMA-262 §7.3.27 PrivateElement): a field, a method or
/// an accessor pair under a private name (a symbol made for one evaluation of a class body).
/// Kept apart from the properties: no key enumeration, JSON or reflection sees them.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PrivateElem {
    pub name: SymId,
    /// A field's or method's value, or an accessor's getter and setter.
    pub slot: Slot,
    /// A method (not writable).
    pub method: bool,
}

/// An object.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Obj {
    pub proto: Option<ObjId>,
    pub kind: Kind,
    pub props: Props,
    /// Private elements (each charged [`PROP_BYTES`]).
    pub privates: Vec<PrivateElem>,
    pub extensible: bool,
    /// Set by `Object.freeze`/`seal` bookkeeping of arrays (elements read-only).
    pub frozen_elements: bool,
    /// Set by `Object.seal` of arrays (elements cannot be deleted).
    pub sealed_elements: bool,
    /// An array whose `length` was made non-writable.
    pub length_readonly: bool,
}

impl Obj {
    /// Whether any index key is here: an index property, an element, or the indices of a
    /// Uint8Array or String object (two reads for the usual prototypes).
    pub fn holds_indices(&self) -> bool {
        self.props.has_indices()
            || match &self.kind {
                Kind::Array(e) | Kind::Arguments(e) => !e.is_empty(),
                Kind::Bytes { .. } | Kind::String(_) => true,
                _ => false,
            }
    }

    /// The attributes every element of an array or `arguments` shares (freeze and seal
    /// clear some).
    pub fn element_attrs(&self) -> u8 {
        if self.frozen_elements {
            ENUMERABLE
        } else if self.sealed_elements {
            ENUMERABLE | WRITABLE
        } else {
            DEFAULT_ATTRS
        }
    }
}

/// The memory limit was exceeded (the run ends): the limit, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfMemory {
    pub cap: usize,
}

/// The arenas of one run.
#[derive(Clone, Debug, Default)]
pub struct Heap {
    pub strings: Arena<JsStr>,
    pub objects: Arena<Obj>,
    pub cells: Vec<Value>,
    /// Symbol descriptions.
    pub symbols: Vec<Option<StrId>>,
    /// The symbols of `Symbol.for` (the global registry; the description is the key).
    pub registry: Vec<SymId>,
    /// Interned property names: the template's (shared, with their index) and this run's.
    pub atoms: Arena<JsStr>,
    pub atom_base_index: std::sync::Arc<HashMap<JsStr, u32>>,
    pub atom_index: HashMap<JsStr, u32>,
    /// Slots freed by the collector, reused by the allocators.
    pub free_strs: Vec<u32>,
    pub free_objs: Vec<u32>,
    pub free_cells: Vec<u32>,
    /// Bytes charged so far.
    pub used: usize,
    /// The cap on `used`.
    pub cap: usize,
    /// The part of `used` that is the template's, shared with every run.
    pub shared_bytes: usize,
    /// Bytes ropes of this run wrote out since the last charge ([`crate::string::Rope`]): a
    /// rope is charged its new part when made (its left part is another string's), and the
    /// units it writes out when first read are added to `used` at the next charge or
    /// instruction ([`Heap::absorb_flattened`]). Each run gets its own counter.
    pub flattened: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Heap {
    /// Charge `bytes`; fails past the cap.
    pub fn charge(&mut self, bytes: usize) -> Result<(), OutOfMemory> {
        self.absorb_flattened();
        self.used = self.used.saturating_add(bytes);
        if self.used > self.cap {
            return Err(OutOfMemory { cap: self.cap });
        }
        Ok(())
    }

    /// Add what ropes wrote out since the last look to `used`; `true` when that passed the
    /// cap.
    pub fn absorb_flattened(&mut self) -> bool {
        let f = self.flattened.swap(0, std::sync::atomic::Ordering::Relaxed);
        if f == 0 {
            return false;
        }
        self.used = self.used.saturating_add(f);
        self.used > self.cap
    }

    /// Fails when `bytes` more would pass the cap (nothing is charged): checked before an
    /// allocation whose exact size is charged once it is made.
    pub fn fits(&self, bytes: usize) -> Result<(), OutOfMemory> {
        if self.used.saturating_add(bytes) > self.cap {
            return Err(OutOfMemory { cap: self.cap });
        }
        Ok(())
    }

    pub fn new_str(&mut self, s: JsStr) -> Result<StrId, OutOfMemory> {
        self.new_str_sharing(s, 0)
    }

    /// [`Heap::new_str`] for a string that holds `shared` bytes already charged to another
    /// live string (a rope's left part): only the rest is charged now. The collector's recount
    /// charges each live string in full ([`JsStr::bytes`]), so sharing is never undercounted
    /// once the other string is gone.
    pub fn new_str_sharing(&mut self, s: JsStr, shared: usize) -> Result<StrId, OutOfMemory> {
        self.charge((STRING_BYTES + s.bytes()).saturating_sub(shared))?;
        if let Some(i) = self.free_strs.pop() {
            self.strings[i as usize] = s;
            return Ok(StrId(i));
        }
        Ok(StrId(self.strings.push(s) as u32))
    }

    pub fn str(&self, s: StrId) -> &JsStr {
        &self.strings[s.0 as usize]
    }

    pub fn new_obj(&mut self, proto: Option<ObjId>, kind: Kind) -> Result<ObjId, OutOfMemory> {
        self.charge(OBJECT_BYTES)?;
        let obj = Obj {
            proto,
            kind,
            props: Props::default(),
            privates: Vec::new(),
            extensible: true,
            frozen_elements: false,
            sealed_elements: false,
            length_readonly: false,
        };
        if let Some(i) = self.free_objs.pop() {
            self.objects[i as usize] = obj;
            return Ok(ObjId(i));
        }
        Ok(ObjId(self.objects.push(obj) as u32))
    }

    pub fn obj(&self, o: ObjId) -> &Obj {
        &self.objects[o.0 as usize]
    }

    pub fn obj_mut(&mut self, o: ObjId) -> &mut Obj {
        &mut self.objects[o.0 as usize]
    }

    /// Write own property `key` of `o` (replacing slot and attributes, or appending it and
    /// charging what it holds): no array, exotic or attribute checks.
    pub fn put_prop(
        &mut self,
        o: ObjId,
        key: Key,
        slot: Slot,
        attrs: u8,
    ) -> Result<(), OutOfMemory> {
        let obj = self.obj_mut(o);
        if let Some(i) = obj.props.find(key) {
            obj.props.list[i].slot = slot;
            obj.props.list[i].attrs = attrs;
            return Ok(());
        }
        let bytes = obj.props.push(Prop { key, slot, attrs });
        self.charge(bytes)
    }

    pub fn new_cell(&mut self, v: Value) -> Result<CellId, OutOfMemory> {
        self.charge(VALUE_BYTES + 8)?;
        if let Some(i) = self.free_cells.pop() {
            self.cells[i as usize] = v;
            return Ok(CellId(i));
        }
        self.cells.push(v);
        Ok(CellId(self.cells.len() as u32 - 1))
    }

    pub fn new_symbol(&mut self, desc: Option<StrId>) -> Result<SymId, OutOfMemory> {
        self.charge(16)?;
        self.symbols.push(desc);
        Ok(SymId(self.symbols.len() as u32 - 1))
    }

    /// The key of a name (canonical array indices become `Index`).
    pub fn key_of(&mut self, s: &JsStr) -> Result<Key, OutOfMemory> {
        if let Some(i) = s.as_index() {
            return Ok(Key::Index(i));
        }
        if let Some(a) = self
            .atom_base_index
            .get(s)
            .or_else(|| self.atom_index.get(s))
        {
            return Ok(Key::Name(*a));
        }
        self.charge(atom_bytes(s))?;
        let a = self.atoms.push(s.clone()) as u32;
        self.atom_index.insert(s.clone(), a);
        Ok(Key::Name(a))
    }

    /// A heap whose first atoms are [`COMMON_NAMES`], charged against `cap`.
    pub fn new(cap: usize) -> Heap {
        let mut h = Heap {
            cap,
            ..Default::default()
        };
        for n in COMMON_NAMES {
            let _ = h.key_of(&JsStr::from_str(n));
        }
        h
    }

    /// Share every string, object and atom made so far with the heaps cloned from this one
    /// (the standard library's template, once it is built).
    pub fn freeze(&mut self) {
        self.strings.freeze();
        self.objects.freeze();
        self.atoms.freeze();
        let mut index = (*self.atom_base_index).clone();
        index.extend(self.atom_index.drain());
        self.atom_base_index = std::sync::Arc::new(index);
        self.free_strs.clear();
        self.free_objs.clear();
    }

    /// The key of a Rust name.
    pub fn key(&mut self, s: &str) -> Key {
        if let Some(i) = COMMON_NAMES.iter().position(|n| *n == s)
            && i < self.atoms.len()
        {
            return Key::Name(i as u32);
        }
        self.key_of(&JsStr::from_str(s)).unwrap_or(Key::Name(0))
    }

    /// A key as a string (symbols: None).
    pub fn key_str(&self, k: Key) -> Option<JsStr> {
        match k {
            Key::Index(i) => Some(JsStr::from_str(&i.to_string())),
            Key::Name(a) => Some(self.atoms[a as usize].clone()),
            Key::Sym(_) => None,
        }
    }
}

/// Bytes charged for interned property name `s`: the name in the atom table and again as the
/// key of the name-to-atom index, with that index's entry.
pub fn atom_bytes(s: &JsStr) -> usize {
    STRING_BYTES * 2 + 2 * s.bytes() + INDEX_ENTRY_BYTES
}

#[cfg(test)]
mod tests {
    use super::{COMMON_NAMES, Heap, Key};
    use crate::string::JsStr;

    #[test]
    fn common_names_are_the_first_atoms() {
        let mut h = Heap::new(1 << 20);
        for (i, n) in COMMON_NAMES.iter().enumerate() {
            assert_eq!(h.key(n), Key::Name(i as u32));
            assert_eq!(h.key_of(&JsStr::from_str(n)), Ok(Key::Name(i as u32)));
        }
        assert_eq!(h.key("other"), Key::Name(COMMON_NAMES.len() as u32));
    }
}
