//! The value representation: [`Value`] is a 16-byte `Copy` enum. Strings, tables and closures
//! are handles (`u32` indices) into the per-execution [`crate::heap::Heap`] arena, so values hold
//! no `Rc` and a machine is `Send`.
//!
//! Strings are interned (every string, whatever its length), so two string values are equal
//! exactly when their handles are equal, and a string's hash for table keys is its handle.

use crate::ErrorKind;

/// Handle of an interned byte string in the heap.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct StrRef(pub u32);
/// Handle of a table in the heap.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct TableRef(pub u32);
/// Handle of a Lua closure in the heap.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct ClosureRef(pub u32);
/// Handle of a registered native (Rust) function in the heap's native registry.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct NativeRef(pub u32);
/// Handle of a host object (tools namespace node, tool, `search`, extension function).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub(crate) struct HostRef(pub u32);

/// A Lua value. `Copy`, 16 bytes.
#[derive(Clone, Copy, Debug, Default, serde::Serialize, serde::Deserialize)]
pub(crate) enum Value {
    #[default]
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(StrRef),
    Table(TableRef),
    /// A Lua function (closure over a compiled prototype).
    Closure(ClosureRef),
    /// A native (Rust) function from the standard library.
    Native(NativeRef),
    /// A tools namespace node that is not itself callable (`type` is "table").
    HostNs(HostRef),
    /// A callable host object: a tool (possibly with children), `search`, or an extension
    /// function (`type` is "function").
    HostFn(HostRef),
    /// `json.null`: a distinct sentinel (`type` is "userdata", `tostring` gives "json.null").
    JsonNull,
}

/// Raw equality (`rawequal`): numbers compare by mathematical value (1 == 1.0), strings by
/// content (interned, so by handle), everything else by identity.
impl PartialEq for Value {
    #[inline]
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Nil, Value::Nil) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a == b,
            (&Value::Int(a), &Value::Float(b)) | (&Value::Float(b), &Value::Int(a)) => {
                float_to_int_exact(b) == Some(a)
            }
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Table(a), Value::Table(b)) => a == b,
            (Value::Closure(a), Value::Closure(b)) => a == b,
            (Value::Native(a), Value::Native(b)) => a == b,
            (Value::HostNs(a), Value::HostNs(b)) => a == b,
            (Value::HostFn(a), Value::HostFn(b)) => a == b,
            (Value::JsonNull, Value::JsonNull) => true,
            _ => false,
        }
    }
}

impl Value {
    /// The name `type()` returns.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::Table(_) | Value::HostNs(_) => "table",
            Value::Closure(_) | Value::Native(_) | Value::HostFn(_) => "function",
            Value::JsonNull => "userdata",
        }
    }
    /// Lua truthiness: everything except `nil` and `false` is true.
    #[inline]
    pub(crate) fn truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }
    #[inline]
    pub(crate) fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }
    /// True for Lua closures, natives and callable host objects.
    pub(crate) fn is_function(&self) -> bool {
        matches!(
            self,
            Value::Closure(_) | Value::Native(_) | Value::HostFn(_)
        )
    }
    /// The number as f64 (ints converted), without string coercion.
    #[inline]
    pub(crate) fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }
}

/// `f` as an i64 if it has an exact integer value in range (Lua's `luaV_flttointns` with F2Ieq).
#[inline]
pub(crate) fn float_to_int_exact(f: f64) -> Option<i64> {
    // -2^63 <= f < 2^63 and integral.
    if (-9223372036854775808.0..9223372036854775808.0).contains(&f) {
        let i = f as i64;
        if i as f64 == f { Some(i) } else { None }
    } else {
        None
    }
}

/// What unwinds the VM: an error, or a restart. Every place that catches one (`pcall`, an
/// `xpcall` handler, a builtin that inspects a callback's failure, the machine) must say what
/// it does with each. Boxed so `Result<T, Throw>` stays small.
#[derive(Debug)]
pub(crate) enum Throw {
    /// A runtime error (catchable or not, see [`ThrowData::catchable`]).
    Error(Box<ThrowData>),
    /// Not an error: a restartable step of an inline stretch ran past the stretch's end (see
    /// `crate::restart`). It passes every `pcall` up to the instruction (or the machine
    /// step) that started the step, which is abandoned with nothing visible changed and runs
    /// again from its start off the caller's thread.
    Restart,
}

/// Appended to runtime errors about a userdata value, which can only be `json.null`.
pub(crate) const JSON_NULL_HINT: &str = "; the value is json.null (a JSON null received from a tool or \
json.decode, and it is truthy): test it with `x == json.null` before using it";

/// Appended when a nil that came from `t[0]` is used: Lua sequences are 1-based.
pub(crate) const ZERO_INDEX_HINT: &str = "; Lua arrays start at 1 (items[1] is the first)";

/// Appended to "attempt to call a table value (for iterator ...)" (`for x in t do`).
pub(crate) const FOR_TABLE_HINT: &str = "; to loop over a table use `for i, v in ipairs(t)` (arrays) or \
`for k, v in pairs(t)`";

/// Appended when `+` gets a string that is not a number (`"a" + "b"`).
pub(crate) const STRING_ADD_HINT: &str = "; use `..` to join strings";

/// Appended to "number has no integer representation" from `string.format("%d", 31.5)`.
pub(crate) const FORMAT_FLOAT_HINT: &str = "; use %.0f or math.floor(x) for a float";

/// What a [`Throw`] carries.
#[derive(Debug)]
pub(crate) struct ThrowData {
    /// The error value. [`ErrVal::Msg`] is a message still without position: the VM prefixes
    /// `input:LINE: ` (line of the current Lua instruction, as Lua 5.4) when a `pcall` catches it.
    pub value: ErrVal,
    /// The kind the execution fails with if nobody catches the error.
    pub kind: ErrorKind,
    /// False for errors `pcall` must not catch (timeouts, limits, memory/fuel bounds, aborts).
    pub catchable: bool,
    /// "Did you mean" candidates (UnknownTool).
    pub suggestions: Vec<String>,
    /// Source location, filled by the VM when the error passes through a Lua frame.
    pub location: Option<crate::Location>,
    /// For `error(v, level)`: set once the position prefix has been decided (level 0 or a
    /// non-string value: no prefix).
    pub positioned: bool,
    /// For a string raised by `error`/`assert` and kept as [`ErrVal::Value`] (long or not
    /// UTF-8): when `location` is set, a `pcall` that catches it sees `input:LINE: ` before
    /// it (the VM builds that string in the heap, charged and in chunks).
    pub prefix_position: bool,
    /// Raised by a builtin that another builtin called directly (`string.gsub(s, p,
    /// string.rep)`): like Lua, the caught value has no position prefix and the message is not
    /// renamed after the outer call site; `location` (the outer call) is for the diagnostic only.
    pub bare: bool,
}

/// The payload of a [`Throw`].
#[derive(Clone, Debug)]
pub(crate) enum ErrVal {
    /// A message (the VM adds the position when converting it to a Lua string).
    Msg(String),
    /// An arbitrary Lua value raised by `error(v)` (or an already-positioned message string).
    Value(Value),
}

impl Throw {
    /// A catchable runtime error (ExecutionFailure) with a message; position added by the VM.
    pub(crate) fn msg(message: impl Into<String>) -> Throw {
        let mut message = message.into();
        // `json.null` is the only userdata a program can hold; Lua's wording ("a userdata
        // value", "got userdata") does not tell a model what it tripped over.
        if message.contains("userdata value") || message.contains("got userdata") {
            message.push_str(JSON_NULL_HINT);
        }
        Throw::Error(Box::new(ThrowData {
            value: ErrVal::Msg(message),
            kind: ErrorKind::ExecutionFailure,
            catchable: true,
            suggestions: Vec::new(),
            location: None,
            positioned: false,
            prefix_position: false,
            bare: false,
        }))
    }
    /// A runtime error raised inside a builtin, as Lua's `luaG_runerror` raises one from a C
    /// function (`table.unpack(nil)`: "attempt to get length of a nil value", `rawset(t, nil,
    /// v)`, `next(t, k)` with a key not in `t`): the caught value has no position prefix, the
    /// diagnostic's location is still the call. (Argument errors and `luaL_error`-style
    /// messages use [`Throw::msg`]: they carry the calling line.)
    pub(crate) fn in_builtin(message: impl Into<String>) -> Throw {
        Throw::msg(message).with(|d| d.bare = true)
    }
    /// The error's data; `None` for [`Throw::Restart`].
    #[inline]
    pub(crate) fn error(&self) -> Option<&ThrowData> {
        match self {
            Throw::Error(d) => Some(d),
            Throw::Restart => None,
        }
    }
    /// The error's data to adjust (a position, suggestions); `None` for [`Throw::Restart`],
    /// which passes on unchanged.
    #[inline]
    pub(crate) fn error_mut(&mut self) -> Option<&mut ThrowData> {
        match self {
            Throw::Error(d) => Some(d),
            Throw::Restart => None,
        }
    }
    /// This error with `f` applied to its data (a restart unchanged).
    pub(crate) fn with(mut self, f: impl FnOnce(&mut ThrowData)) -> Throw {
        if let Some(d) = self.error_mut() {
            f(d);
        }
        self
    }
    /// A catchable error of a given kind (e.g. UnknownTool, ToolFailure from a host reply).
    pub(crate) fn with_kind(kind: ErrorKind, message: impl Into<String>) -> Throw {
        Throw::msg(message).with(|d| d.kind = kind)
    }
    /// An uncatchable error (limits, timeouts, aborts): unwinds through every `pcall`.
    pub(crate) fn fatal(kind: ErrorKind, message: impl Into<String>) -> Throw {
        Throw::with_kind(kind, message).with(|d| d.catchable = false)
    }
    /// Append `hint` (e.g. [`ZERO_INDEX_HINT`]) to a message error; other values unchanged.
    pub(crate) fn hint(self, hint: &str) -> Throw {
        self.with(|d| {
            if let ErrVal::Msg(m) = &mut d.value {
                m.push_str(hint);
            }
        })
    }
    /// An error whose value is a Lua value (`error(v)`).
    pub(crate) fn value(v: Value) -> Throw {
        Throw::msg(String::new()).with(|d| d.value = ErrVal::Value(v))
    }
}

/// Result type of fallible VM and native operations.
pub(crate) type VmResult<T> = Result<T, Throw>;

/// Fast non-cryptographic hash for byte strings (FxHash-style, 8 bytes at a time).
#[inline]
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    let whole = b.len() - b.len() % 8;
    hash_finish(hash_words(hash_start(b.len()), &b[..whole]), &b[whole..])
}

const HASH_K: u64 = 0x517c_c1b7_2722_0a95;

/// First state of [`hash_bytes`] for a string of `len` bytes (with [`hash_words`] and
/// [`hash_finish`], the hash can be computed piecewise, e.g. with deadline checks in between).
#[inline]
pub(crate) fn hash_start(len: usize) -> u64 {
    len as u64
}

/// Fold whole 8-byte words into the state (`words.len()` must be a multiple of 8).
#[inline]
pub(crate) fn hash_words(mut h: u64, words: &[u8]) -> u64 {
    debug_assert_eq!(words.len() % 8, 0);
    for c in words.chunks_exact(8) {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(HASH_K);
    }
    h
}

/// Fold the last `tail` bytes (fewer than 8) and finish.
#[inline]
pub(crate) fn hash_finish(mut h: u64, tail: &[u8]) -> u64 {
    for &x in tail {
        h = (h.rotate_left(5) ^ x as u64).wrapping_mul(HASH_K);
    }
    h ^ (h >> 29)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn value_is_16_bytes() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }
    #[test]
    fn int_float_equality() {
        assert_eq!(Value::Int(1), Value::Float(1.0));
        assert_ne!(Value::Int(1), Value::Float(1.5));
        assert_ne!(Value::Float(f64::NAN), Value::Float(f64::NAN));
        assert_eq!(float_to_int_exact(9223372036854775808.0), None);
        assert_eq!(float_to_int_exact(-9223372036854775808.0), Some(i64::MIN));
    }
}
