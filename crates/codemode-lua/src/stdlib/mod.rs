//! The standard library available to programs: base functions ([`base`]), `string`, `table`,
//! `math`, `utf8`, `json`. [`open_all`] installs everything into a fresh [`Vm`].
//!
//! Library modules register natives with [`Vm::new_lib`] (see /work/team/vm-api.md for the
//! native calling convention: [`crate::vm::Ctx`], [`crate::vm::Rets`]).

use crate::value::VmResult;
use crate::vm::Vm;

pub(crate) mod base;
pub(crate) mod format;
pub(crate) mod json;
pub(crate) mod math;
pub(crate) mod string;
pub(crate) mod table;
pub(crate) mod utf8;

/// Standard Lua globals the sandbox does not install at all (not even as an error-raising
/// stub): reserved anyway, so no host function can take their names.
pub(crate) const WITHHELD_GLOBALS: &[&str] = &["package", "warn", "unpack"];

/// Install the whole standard library into `vm` (globals and the `string` table used for
/// string methods).
pub(crate) fn open_all(vm: &mut Vm) -> VmResult<()> {
    base::open(vm)?;
    // ---- stdlib helper: library `open` calls (each `pub fn open(vm: &mut Vm) -> VmResult<()>`).
    string::open(vm)?;
    table::open(vm)?;
    math::open(vm)?;
    utf8::open(vm)?;
    json::open(vm)?;
    // ---- end of library calls.
    if let crate::value::Value::Table(t) = vm.get_global("string") {
        vm.string_lib = Some(t);
    }
    Ok(())
}
