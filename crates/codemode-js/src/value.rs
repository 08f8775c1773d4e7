//! The value: a 16-byte `Copy` enum of numbers and arena handles, so a machine is plain data
//! (`Send`, no `Rc`) and can later be snapshotted.

/// A handle to a string in the heap's string arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct StrId(pub u32);

/// A handle to an object in the heap's object arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ObjId(pub u32);

/// A handle to a symbol (its description lives in the heap).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SymId(pub u32);

/// A handle to a heap cell: a binding captured by a closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct CellId(pub u32);

/// A JavaScript value, or one of two internal markers that never reach a program.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Value {
    /// `undefined`.
    Undefined,
    /// `null`.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// Every Number (IEEE-754 double).
    Num(f64),
    /// A string.
    Str(StrId),
    /// A symbol.
    Sym(SymId),
    /// An object (functions and arrays included).
    Obj(ObjId),
    /// Internal: an array hole, and a lexical binding before its initialization (TDZ).
    Empty,
}

impl Value {
    /// The object handle, when the value is an object.
    pub fn obj(self) -> Option<ObjId> {
        match self {
            Value::Obj(o) => Some(o),
            _ => None,
        }
    }

    /// `undefined` or `null`.
    pub fn is_nullish(self) -> bool {
        matches!(self, Value::Undefined | Value::Null)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_value_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<super::Value>(), 16);
    }
}
