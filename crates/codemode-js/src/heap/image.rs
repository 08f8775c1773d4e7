//! The heap as plain data for a snapshot ([`HeapImage`]): the base slots this run wrote and
//! its own slots of each arena (the standard library's template supplies the rest on load),
//! cells, symbols, free lists; strings written out (a rope is flattened); a URL by its
//! `href` (parsed again), a RegExp by its pattern and flags (compiled again); an object's
//! property index rebuilt from its list. Handles inside are checked by `vm/image.rs` once
//! the whole machine is there.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Heap, INDEX_AT, Key, Obj, Prop, Props};
use crate::arena::Arena;
use crate::snapshot::{Damaged, check};
use crate::string::{JsStr, View};
use crate::value::{StrId, SymId, Value};

/// A string's code units: one byte each, or two.
#[derive(Serialize, Deserialize)]
enum StrImage {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

impl Serialize for JsStr {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.view() {
            View::Narrow(b) => s.serialize_newtype_variant("StrImage", 0, "Narrow", b),
            View::Wide(w) => s.serialize_newtype_variant("StrImage", 1, "Wide", w),
        }
    }
}

impl<'de> Deserialize<'de> for JsStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<JsStr, D::Error> {
        Ok(match StrImage::deserialize(d)? {
            StrImage::Narrow(b) => JsStr::Narrow(b.into()),
            // Stored narrow when every unit allows it (equality compares the two forms).
            StrImage::Wide(w) => JsStr::from_units(w),
        })
    }
}

impl Serialize for Props {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.list.serialize(s)
    }
}

impl<'de> Deserialize<'de> for Props {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Props, D::Error> {
        let list = Vec::<Prop>::deserialize(d)?;
        let indices = list
            .iter()
            .filter(|p| matches!(p.key, Key::Index(_)))
            .count() as u32;
        let mut p = Props {
            list,
            index: None,
            indices,
        };
        if p.list.len() > INDEX_AT {
            p.reindex();
        }
        Ok(p)
    }
}

impl Props {
    /// No key is there twice.
    pub(crate) fn keys_unique(&self) -> bool {
        match &self.index {
            Some(ix) => ix.len() == self.list.len(),
            None => self
                .list
                .iter()
                .enumerate()
                .all(|(i, p)| self.list[..i].iter().all(|q| q.key != p.key)),
        }
    }
}

/// `Kind::Url`: the URL by its serialization, parsed again.
pub(crate) mod url_serde {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(u: &url::Url, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(u.as_str())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Box<url::Url>, D::Error> {
        let href = String::deserialize(d)?;
        url::Url::parse(&href)
            .map(Box::new)
            .map_err(|_| serde::de::Error::custom("a URL object holds no valid URL"))
    }
}

/// `Kind::RegExp`: the pattern's source and flags, compiled again.
pub(crate) mod regexp_serde {
    use std::sync::Arc;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::builtins::regexp::Shared;
    use crate::regexp::Flags;

    pub fn serialize<S: Serializer>(re: &Shared, s: S) -> Result<S::Ok, S::Error> {
        (&re.0.source, re.0.flags.text()).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Shared, D::Error> {
        let (source, flags) = <(Vec<u16>, String)>::deserialize(d)?;
        let bad = || serde::de::Error::custom("a RegExp object holds an invalid pattern");
        if source.len() > crate::limits::MAX_STRING_LENGTH {
            return Err(bad());
        }
        let units: Vec<u16> = flags.encode_utf16().collect();
        let flags = Flags::parse(&units).ok_or_else(bad)?;
        crate::regexp::compile(&source, flags)
            .map(|re| Shared(Arc::new(re)))
            .map_err(|_| bad())
    }
}

/// The heap's state (see the module docs).
#[derive(Serialize, Deserialize)]
pub(crate) struct HeapImage {
    strings: ArenaImage<JsStr>,
    objects: ArenaImage<Obj>,
    /// Interned names past the template's (a run never rewrites one).
    atoms: (u32, Vec<JsStr>),
    cells: Vec<Value>,
    symbols: Vec<Option<StrId>>,
    registry: Vec<SymId>,
    free_strs: Vec<u32>,
    free_objs: Vec<u32>,
    free_cells: Vec<u32>,
}

/// An arena over the template: the template's slot count, the base slots written, the own
/// slots.
#[derive(Serialize, Deserialize)]
struct ArenaImage<T> {
    base: u32,
    written: Vec<(u32, T)>,
    own: Vec<T>,
}

impl<T: Clone> ArenaImage<T> {
    fn of(a: &Arena<T>) -> ArenaImage<T> {
        ArenaImage {
            base: a.base_len() as u32,
            written: a.written().map(|(i, x)| (i as u32, x.clone())).collect(),
            own: a.own().to_vec(),
        }
    }

    fn load(self, template: &Arena<T>, what: &str) -> Damaged<Arena<T>> {
        check(self.base as usize == template.base_len(), || {
            format!("its {what} were made over another standard library")
        })?;
        let written = self
            .written
            .into_iter()
            .map(|(i, x)| (i as usize, x))
            .collect();
        Arena::fork_with(template, written, self.own)
            .ok_or_else(|| format!("its {what} name a slot of the standard library wrongly"))
    }
}

/// A free list naming distinct slots of this run (`base..len`).
fn free_ok(list: &[u32], base: usize, len: usize) -> bool {
    let mut seen = vec![false; len];
    list.iter().all(|&i| {
        let i = i as usize;
        let ok = i >= base && i < len && !seen[i];
        if ok {
            seen[i] = true;
        }
        ok
    })
}

impl Heap {
    /// The heap as plain data. Errors: a name interned by the template was rewritten (never
    /// done by a run).
    pub(crate) fn to_image(&self) -> Result<HeapImage, String> {
        if self.atoms.written().next().is_some() {
            return Err("an interned name of the standard library was changed".into());
        }
        Ok(HeapImage {
            strings: ArenaImage::of(&self.strings),
            objects: ArenaImage::of(&self.objects),
            atoms: (self.atoms.base_len() as u32, self.atoms.own().to_vec()),
            cells: self.cells.clone(),
            symbols: self.symbols.clone(),
            registry: self.registry.clone(),
            free_strs: self.free_strs.clone(),
            free_objs: self.free_objs.clone(),
            free_cells: self.free_cells.clone(),
        })
    }

    /// The heap of `img` over the template's heap `template`, with a memory cap of `cap`
    /// bytes (the bytes used are recounted once the machine is whole). Checks the arenas'
    /// shapes, the free lists and the interned names (each once); the values inside are
    /// checked by the VM's load.
    pub(crate) fn from_image(img: HeapImage, template: &Heap, cap: usize) -> Damaged<Heap> {
        let strings = img.strings.load(&template.strings, "strings")?;
        let objects = img.objects.load(&template.objects, "objects")?;
        let (atoms_base, atoms_own) = img.atoms;
        check(atoms_base as usize == template.atoms.base_len(), || {
            "its interned names were made over another standard library".into()
        })?;
        check(
            template.symbols.len() <= img.symbols.len()
                && img.symbols[..template.symbols.len()] == template.symbols[..],
            || "its symbols were made over another standard library".into(),
        )?;
        check(
            img.registry.len() >= template.registry.len()
                && img.registry[..template.registry.len()] == template.registry[..],
            || "its symbol registry was made over another standard library".into(),
        )?;
        let mut atom_index = std::collections::HashMap::with_capacity(atoms_own.len());
        for (i, a) in atoms_own.iter().enumerate() {
            let fresh = a.len() <= crate::limits::MAX_STRING_LENGTH
                && a.as_index().is_none()
                && !template.atom_base_index.contains_key(a)
                && atom_index
                    .insert(a.clone(), (atoms_base as usize + i) as u32)
                    .is_none();
            check(fresh, || "an interned name is there twice".into())?;
        }
        let atoms = Arena::fork_with(&template.atoms, Vec::new(), atoms_own)
            .ok_or_else(|| "its interned names are damaged".to_string())?;
        check(
            free_ok(&img.free_strs, strings.base_len(), strings.len())
                && free_ok(&img.free_objs, objects.base_len(), objects.len())
                && free_ok(&img.free_cells, 0, img.cells.len()),
            || "a free list names a slot wrongly".into(),
        )?;
        check(
            strings
                .iter()
                .all(|s| s.len() <= crate::limits::MAX_STRING_LENGTH),
            || "a string is longer than any program can make".into(),
        )?;
        Ok(Heap {
            strings,
            objects,
            cells: img.cells,
            symbols: img.symbols,
            registry: img.registry,
            atoms,
            atom_base_index: template.atom_base_index.clone(),
            atom_index,
            free_strs: img.free_strs,
            free_objs: img.free_objs,
            free_cells: img.free_cells,
            used: template.used,
            cap,
            shared_bytes: template.shared_bytes,
            flattened: Default::default(),
        })
    }
}
