//! The native-function API: what a builtin (a Rust function, [`NativeFn`]) sees when Lua calls
//! it ([`Ctx`]: its arguments, the heap, fuel and work accounting, callbacks into Lua) and what
//! it returns ([`Rets`]).

use super::Vm;
use super::{str_to_number, to_number, tostring_text};
use crate::Location;
use crate::heap::Heap;
use crate::limits;
use crate::value::{StrRef, TableRef, Throw, Value, VmResult, float_to_int_exact};

/// Signature of a native function: read arguments from the [`Ctx`], return the results.
pub(crate) type NativeFn = fn(&mut Ctx<'_>) -> VmResult<Rets>;

/// Results of a native function.
#[derive(Debug)]
pub(crate) enum Rets {
    Zero,
    One(Value),
    Two(Value, Value),
    Many(Vec<Value>),
}

impl From<Value> for Rets {
    fn from(v: Value) -> Rets {
        Rets::One(v)
    }
}

impl Rets {
    pub(super) fn len(&self) -> usize {
        match self {
            Rets::Zero => 0,
            Rets::One(_) => 1,
            Rets::Two(..) => 2,
            Rets::Many(v) => v.len(),
        }
    }
    pub(super) fn get(&self, i: usize) -> Value {
        match self {
            Rets::Zero => Value::Nil,
            Rets::One(v) => {
                if i == 0 {
                    *v
                } else {
                    Value::Nil
                }
            }
            Rets::Two(a, b) => match i {
                0 => *a,
                1 => *b,
                _ => Value::Nil,
            },
            Rets::Many(v) => v.get(i).copied().unwrap_or(Value::Nil),
        }
    }
}

/// What a native function sees: its arguments, the heap, and a way to call back into Lua.
pub(crate) struct Ctx<'a> {
    pub vm: &'a mut Vm,
    pub(super) base: usize,
    pub(super) nargs: usize,
    pub(super) name: &'static str,
    /// Called directly by pcall or another native (no calling Lua line).
    pub(super) direct: bool,
}

impl<'a> Ctx<'a> {
    /// Number of arguments passed.
    #[inline]
    pub(crate) fn nargs(&self) -> usize {
        self.nargs
    }
    /// Argument `i` (0-based); `Nil` when absent.
    #[inline]
    pub(crate) fn arg(&self, i: usize) -> Value {
        if i < self.nargs {
            self.vm.stack[self.base + i]
        } else {
            Value::Nil
        }
    }
    /// All arguments.
    pub(crate) fn args(&self) -> &[Value] {
        &self.vm.stack[self.base..self.base + self.nargs]
    }
    /// The heap (strings, tables).
    #[inline]
    pub(crate) fn heap(&mut self) -> &mut Heap {
        &mut self.vm.heap
    }
    /// The heap, read-only.
    #[inline]
    pub(crate) fn heap_ref(&self) -> &Heap {
        &self.vm.heap
    }
    /// The function's name as used in error messages.
    pub(crate) fn name(&self) -> &'static str {
        self.name
    }
    /// "bad argument #i to 'name' (msg)" (i is 0-based here, printed 1-based).
    pub(crate) fn arg_error(&self, i: usize, msg: &str) -> Throw {
        Throw::msg(format!(
            "bad argument #{} to '{}' ({})",
            i + 1,
            self.name,
            msg
        ))
    }
    /// "bad argument #i to 'name' (X expected, got Y)".
    pub(crate) fn type_error(&self, i: usize, expected: &str) -> Throw {
        let got = if i >= self.nargs {
            "no value"
        } else {
            self.arg(i).type_name()
        };
        self.arg_error(i, &format!("{} expected, got {}", expected, got))
    }
    /// Argument `i` must be a table.
    pub(crate) fn check_table(&self, i: usize) -> VmResult<TableRef> {
        match self.arg(i) {
            Value::Table(t) => Ok(t),
            _ => Err(self.type_error(i, "table")),
        }
    }
    /// Argument `i` as an integer (floats with integral value and numeric strings accepted).
    pub(crate) fn check_int(&self, i: usize) -> VmResult<i64> {
        let v = self.arg(i);
        match v {
            Value::Int(x) => Ok(x),
            Value::Float(f) => float_to_int_exact(f)
                .ok_or_else(|| self.arg_error(i, "number has no integer representation")),
            Value::Str(s) => match str_to_number(self.vm.heap.str_bytes(s)) {
                Some(Value::Int(x)) => Ok(x),
                Some(Value::Float(f)) => float_to_int_exact(f)
                    .ok_or_else(|| self.arg_error(i, "number has no integer representation")),
                _ => Err(self.type_error(i, "number")),
            },
            _ => Err(self.type_error(i, "number")),
        }
    }
    /// Optional integer argument.
    pub(crate) fn opt_int(&self, i: usize, default: i64) -> VmResult<i64> {
        if self.arg(i).is_nil() {
            Ok(default)
        } else {
            self.check_int(i)
        }
    }
    /// Argument `i` as a number (`Value::Int` or `Value::Float`; numeric strings converted).
    pub(crate) fn check_number(&self, i: usize) -> VmResult<Value> {
        match to_number(&self.vm.heap, self.arg(i)) {
            Some(v) => Ok(v),
            None => Err(self.type_error(i, "number")),
        }
    }
    /// Argument `i` as f64.
    pub(crate) fn check_f64(&self, i: usize) -> VmResult<f64> {
        Ok(self.check_number(i)?.as_f64().unwrap_or(0.0))
    }
    /// Argument `i` as a string handle (numbers are converted to strings, like Lua).
    pub(crate) fn check_str(&mut self, i: usize) -> VmResult<StrRef> {
        match self.arg(i) {
            Value::Str(s) => Ok(s),
            v @ (Value::Int(_) | Value::Float(_)) => {
                let t = tostring_text(&self.vm.heap, v);
                self.vm.heap.intern(t.as_bytes())
            }
            _ => Err(self.type_error(i, "string")),
        }
    }
    /// Optional string argument.
    pub(crate) fn opt_str(&mut self, i: usize) -> VmResult<Option<StrRef>> {
        if self.arg(i).is_nil() {
            Ok(None)
        } else {
            self.check_str(i).map(Some)
        }
    }
    /// Declare that this native is about to change Lua-visible state (a table it was given):
    /// from here on it is not restartable, so an inline stretch's soft limit no longer stops
    /// it (see [`crate::restart`]). Call [`Ctx::inline_gate`] first with the size of
    /// the work that follows.
    #[inline]
    pub(crate) fn effects(&mut self) {
        self.vm.heap.meter.restartable = false;
        self.vm.heap.meter.dirty = true;
    }

    /// Before changing state (see [`Ctx::effects`]): in an inline stretch, work of more than
    /// [`limits::INLINE_GATE_ELEMS`] elements is not started there: the native asks to run
    /// off the caller's thread ([`Throw::Restart`]; it has changed nothing yet).
    #[inline]
    pub(crate) fn inline_gate(&mut self, elems: u64) -> VmResult<()> {
        let inline = &self.vm.heap.meter;
        if inline.restartable && (elems > limits::INLINE_GATE_ELEMS || inline.stress) {
            return Err(Throw::Restart);
        }
        Ok(())
    }

    /// Charge `units` of fuel for work proportional to data size (about 1 unit per element or
    /// per 16 bytes). Never fails by itself; the VM yields/aborts at the next instruction.
    #[inline]
    pub(crate) fn charge(&mut self, units: u64) -> VmResult<()> {
        self.vm.charge_units(units)
    }
    /// Account `bytes` of work; checks the limits each time `acc` (bytes since the last check,
    /// start at 0) reaches [`limits::WORK_CHUNK_BYTES`].
    #[inline]
    pub(crate) fn work_bytes(&mut self, acc: &mut usize, bytes: usize) -> VmResult<()> {
        self.vm.work_bytes(acc, bytes)
    }
    /// Account `elems` elements of work; checks the limits each time `acc` reaches
    /// [`limits::WORK_CHUNK_ELEMS`].
    #[inline]
    pub(crate) fn work_elems(&mut self, acc: &mut usize, elems: usize) -> VmResult<()> {
        self.vm.work_elems(acc, elems)
    }
    /// Make a string value.
    pub(crate) fn new_str(&mut self, bytes: &[u8]) -> VmResult<Value> {
        self.vm.heap.new_str(bytes)
    }
    /// Run `f` with `vals` as GC roots (see `Vm::push_roots`): the values this native holds in
    /// Rust while `f` calls back into Lua, so a collection may run in the callback (the native
    /// must also be listed in `GC_SAFE_NATIVES`). The roots are dropped when `f` returns.
    pub(crate) fn with_roots<R>(
        &mut self,
        vals: &[Value],
        f: impl FnOnce(&mut Ctx<'a>) -> R,
    ) -> VmResult<R> {
        let mark = self.vm.push_roots(vals)?;
        let r = f(self);
        self.vm.pop_roots(mark);
        Ok(r)
    }
    /// Call and return the first result (or nil). No allocation (use it for comparators).
    pub(crate) fn call1(&mut self, f: Value, args: &[Value]) -> VmResult<Value> {
        let at = self.base + self.nargs + 1;
        self.vm.call_nested1(at, f, args, self.name)
    }
    /// Lua's `<` on two values (numbers or strings; error otherwise). Like a comparison made
    /// inside a C function in Lua, the error carries no position.
    pub(crate) fn less_than(&self, a: Value, b: Value) -> VmResult<bool> {
        self.vm
            .less_than(a, b)
            .map_err(|e| e.with(|d| d.positioned = true))
    }
    /// Location of the code at `level` (1 = the function calling this native), levels
    /// counted as Lua's `luaL_where` counts them ([`Vm::location_at_level`]): `None` when that
    /// level is a builtin (this native was called directly by `pcall` or another builtin).
    pub(crate) fn location(&self, level: usize) -> Option<Location> {
        self.vm.location_at_level(level, self.direct)
    }
}
