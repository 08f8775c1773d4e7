//! Error positions and model hints, as PUC Lua's ldebug.c: where the current instruction is
//! (`input:LINE:` prefixes as Lua's, the location of a Lua frame), what a register holds at an
//! instruction ("global 'x'", "field 'x'", like getobjname and findsetreg), call-site names
//! in argument errors, and the hints a model reads to fix its program (a missing field and
//! the fields there are, `t[0]`, functions other languages have).

use super::{Frame, FrameKind, Vm};
use crate::Location;
use crate::proto::{Const, Op, Proto};
use crate::value::{ErrVal, NativeRef, Throw, ThrowData, Value, VmResult, ZERO_INDEX_HINT};

/// Appended when a nil came from `.length` of an array or a string.
pub(super) const LENGTH_HINT: &str =
    "; Lua has no .length: use #t for the length of a table or string";

impl Vm {
    pub(super) fn current_location(&self) -> Option<Location> {
        let f = self.frames.last()?;
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        p.pos.get(pc).map(|pos| Location {
            line: pos.line,
            column: pos.column,
        })
    }

    /// Where the innermost frame stands between two slices: the instruction it runs next
    /// (after a yield its pc points at it), or the call it waits on.
    pub(crate) fn here(&self) -> Option<Location> {
        if let Some(p) = &self.pending
            && p.location.is_some()
        {
            return p.location;
        }
        let f = self.frames.last()?;
        let p = &self.prog.protos[f.proto as usize];
        p.pos
            .get(f.pc.min(p.pos.len().saturating_sub(1)))
            .map(|pos| Location {
                line: pos.line,
                column: pos.column,
            })
    }

    /// Location of the code `level` levels up the call stack (1 = the innermost Lua frame, or
    /// with `direct` the builtin that called the running native directly), counting levels as
    /// Lua 5.4's `luaL_where` does: a builtin between two Lua frames (`pcall`, `xpcall`, a
    /// `table.sort` or `gsub` running a callback) is a level of its own, without a position
    /// (`None`), and the levels past it reach the Lua code that called it. `None` past the main
    /// chunk too.
    pub(crate) fn location_at_level(&self, level: usize, direct: bool) -> Option<Location> {
        let mut left = level;
        if direct {
            if left <= 1 {
                return None;
            }
            left -= 1;
        }
        if left == 0 || self.frames.is_empty() {
            return None;
        }
        let mut idx = self.frames.len() - 1;
        loop {
            if left == 1 {
                let f = &self.frames[idx];
                let p = &self.prog.protos[f.proto as usize];
                let pc = f.pc.saturating_sub(1);
                return p.pos.get(pc).map(|pos| Location {
                    line: pos.line,
                    column: pos.column,
                });
            }
            left -= 1;
            // The builtins between this frame and the Lua code below it: the `pcall` or
            // `xpcall` that started it, the native that called it back (or both, for
            // `pcall(pcall, f)`).
            let builtins = usize::from(self.frames[idx].kind != FrameKind::Normal)
                + self.nested_frames.iter().filter(|&&d| d == idx).count();
            if left <= builtins || idx == 0 {
                return None;
            }
            left -= builtins;
            idx -= 1;
        }
    }

    /// Convert a caught error into the Lua value `pcall` returns.
    pub(crate) fn error_value(&mut self, e: &ThrowData) -> VmResult<Value> {
        match &e.value {
            ErrVal::Value(Value::Str(s))
                if e.prefix_position && e.location.is_some() && !e.bare =>
            {
                let (s, l) = (*s, e.location.unwrap_or(Location { line: 0, column: 0 }));
                let prefix = format!("input:{}: ", l.line);
                let len = self.heap.str_bytes(s).len();
                self.heap.reserve_str(prefix.len() + len)?;
                let mut out = Vec::with_capacity(prefix.len() + len);
                out.extend_from_slice(prefix.as_bytes());
                let mut acc = 0usize;
                self.append_str(&mut out, s, 0, len, &mut acc)?;
                Ok(Value::Str(self.heap.intern_owned(out)?))
            }
            ErrVal::Value(v) => Ok(*v),
            ErrVal::Msg(m) => {
                let s = match e.location {
                    Some(l) if !e.bare => format!("input:{}: {}", l.line, m),
                    _ => m.clone(),
                };
                self.heap.new_str(s.as_bytes())
            }
        }
    }

    /// Describe register `reg` of the current frame at its current instruction, like Lua's
    /// getobjname: "global 'x'", "local 'x'", "field 'x'", "upvalue 'x'", "method 'x'".
    pub(super) fn varinfo(&self, reg: u8) -> String {
        let Some(f) = self.frames.last() else {
            return String::new();
        };
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        match self.obj_name(p, f, pc, reg) {
            Some((kind, name)) => format!(" ({} '{}')", kind, name),
            None => String::new(),
        }
    }

    /// [`ZERO_INDEX_HINT`] when the nil in register `reg` (a temporary or a local, see
    /// [`Vm::nil_source`]) came from `t[0]`, or "index N is past the end" when it came from
    /// `t[k]` with `k` past the end of the array `t` (`t[#t + 1]`); "" otherwise. The key and
    /// the table are read back as [`Vm::traced_value`] does. Only called on error paths.
    pub(super) fn zero_index_hint(&self, reg: u8) -> String {
        let Some(f) = self.frames.last() else {
            return String::new();
        };
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        let Some((setpc, _)) = Self::nil_source(p, pc, reg) else {
            return String::new();
        };
        let Op::GetTable { t, key, .. } = p.code[setpc] else {
            return String::new();
        };
        match self.traced_value(Trace::new(p, f.base, pc), setpc, key, 0) {
            Some(Value::Int(0)) => ZERO_INDEX_HINT.to_string(),
            Some(Value::Int(k)) if k > 0 => {
                let Some(Value::Table(tb)) =
                    self.traced_value(Trace::new(p, f.base, pc), setpc, t, 0)
                else {
                    return String::new();
                };
                let n = self.heap.table_len(tb);
                let strings = self
                    .heap
                    .table(tb)
                    .hash_entries()
                    .any(|(k, _)| matches!(k, Value::Str(_)));
                if n == 0 || k <= n || strings {
                    return String::new();
                }
                let items = if n == 1 {
                    "1 item"
                } else {
                    &format!("{n} items")
                };
                format!("; index {k} is past the end: the array has {items} (t[1] to t[#t])")
            }
            _ => String::new(),
        }
    }

    /// The instruction that put the nil in register `reg` (at instruction `pc`), and the
    /// name of the local that holds it if one does (`(for state)` is no name): through a
    /// copy of a local too (`e:lower()` moves `e` to a temporary first). `None` when unknown.
    fn nil_source(p: &Proto, pc: usize, reg: u8) -> Option<(usize, Option<&str>)> {
        let named = |pc: usize, r: u8| Self::local_name(p, pc, r).filter(|n| !n.starts_with('('));
        let mut local = named(pc, reg);
        let mut setpc = find_setreg(p, pc, reg)?;
        if let Op::Move { b, .. } = p.code[setpc]
            && let Some(n) = named(setpc, b)
        {
            local = local.or(Some(n));
            setpc = find_setreg(p, setpc, b)?;
        }
        Some((setpc, local))
    }

    /// When the nil in register `reg` (a temporary) came from `t.name` (or `t[i]`): what `t`
    /// holds instead, so a model can fix the field name in one step ("; that table has no
    /// field 'qty'; its fields: name, price, sku"), that it is an array ("... it is an array
    /// of 5 items: index it first, e.g. t[1].qty"), a record (`r[1]`), that the field was
    /// `null` in a tool's result, or that Lua has no `.length`. `t` is read back as
    /// [`Vm::traced_value`] does, so a chain of temporaries (`r.items[1].email .. "x"`) is
    /// seen. A named local holding nil gets only the `null` hint ("it came from r.email:
    /// field 'email' was null ..."). "" otherwise. Only called on error paths.
    pub(super) fn missing_field_hint(&self, reg: u8) -> String {
        self.field_hint(reg, None)
    }

    /// [`Vm::missing_field_hint`], with the default a `null` field hint suggests (`""`, `0`,
    /// `{}`); `None`: the one the failing instruction wants ([`nil_default`]).
    fn field_hint(&self, reg: u8, default: Option<&str>) -> String {
        let Some(f) = self.frames.last() else {
            return String::new();
        };
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        let default =
            default.unwrap_or_else(|| p.code.get(pc).map_or("\"\"", |op| nil_default(*op)));
        let Some((setpc, local)) = Self::nil_source(p, pc, reg) else {
            return String::new();
        };
        let t = match p.code[setpc] {
            Op::GetField { t, .. } | Op::GetTable { t, .. } => t,
            _ => return String::new(),
        };
        let obj = self.traced_value(Trace::new(p, f.base, pc), setpc, t, 0);
        let name = match p.code[setpc] {
            Op::GetField { k, .. } => match self.kflat.get(p.k_offset as usize + k as usize) {
                Some(Value::Str(s)) => self.heap.str_lossy(*s),
                _ => return String::new(),
            },
            Op::GetTable { key, .. } => {
                let Some(kv) = self.traced_value(Trace::new(p, f.base, pc), setpc, key, 0) else {
                    return String::new();
                };
                let (Value::Int(i), Some(Value::Table(tb)), None) = (kv, obj, local) else {
                    return String::new();
                };
                // `r[1]` on a record.
                if self.heap.table_len(tb) > 0 {
                    return String::new();
                }
                let Some((list, first)) = self.field_list(tb) else {
                    return String::new();
                };
                let var = self
                    .traced_text(Trace::new(p, f.base, pc), setpc, t, 0)
                    .unwrap_or_else(|| "t".into());
                return format!(
                    "; that table has no item {i}: it is a record with fields: {list} (read them as {var}.{first})"
                );
            }
            _ => return String::new(),
        };
        let tb = match obj {
            Some(Value::Table(tb)) => tb,
            Some(Value::Str(_)) if name == "length" && local.is_none() => {
                return LENGTH_HINT.to_string();
            }
            _ => return String::new(),
        };
        let var = self
            .traced_text(Trace::new(p, f.base, pc), setpc, t, 0)
            .unwrap_or_else(|| "t".into());
        if self.heap.was_null_field(tb, &name) {
            return match local {
                Some(l) => format!(
                    "; it came from {var}.{name}: field '{name}' was null in the tool's result: test it first (`if {l} then ... end`) or give a default (`local {l} = {var}.{name} or {default}`)"
                ),
                None => format!(
                    "; field '{name}' was null in the tool's result: test it first (`if {var}.{name} then ... end`) or give a default (`{var}.{name} or {default}`)"
                ),
            };
        }
        if local.is_some() {
            return String::new();
        }
        let items = self.heap.table_len(tb);
        let Some((list, _)) = self.field_list(tb) else {
            if name == "length" {
                return LENGTH_HINT.to_string();
            }
            if items > 0 {
                return format!(
                    "; that table has no field '{name}': it is an array of {items} items, so index \
                     it first (e.g. t[1].{name}) or loop over it with ipairs"
                );
            }
            return format!("; that table has no field '{name}': it is empty");
        };
        format!("; that table has no field '{name}'; its fields: {list}")
    }

    /// How the program wrote the value register `reg` held just before instruction `at` (see
    /// [`Vm::traced_value`]): a local's name, or `r.items[1]` from the reads that computed it,
    /// within [`crate::limits::MAX_HINT_TRACE_STEPS`] steps. `None` when unknown.
    fn traced_text(&self, tr: Trace<'_>, at: usize, reg: u8, steps: usize) -> Option<String> {
        let p = tr.p;
        if let Some(n) = Self::local_name(p, at, reg).filter(|n| !n.starts_with('(')) {
            return Some(n.to_string());
        }
        let w = find_setreg(p, at, reg)?;
        if steps >= crate::limits::MAX_HINT_TRACE_STEPS {
            return None;
        }
        let text = |r: u8| self.traced_text(tr, w, r, steps + 1);
        match p.code[w] {
            Op::Move { b, .. } => text(b),
            Op::GetGlobal { k, .. } => Some(self.kstr(p, k)),
            Op::GetField { t, k, .. } => Some(format!("{}.{}", text(t)?, self.kstr(p, k))),
            Op::GetTable { t, key, .. } => {
                if let Some(n) = Self::local_name(p, w, key).filter(|n| !n.starts_with('(')) {
                    return Some(format!("{}[{n}]", text(t)?));
                }
                let k = match self.traced_value(tr, w, key, steps + 1)? {
                    Value::Int(i) => i.to_string(),
                    Value::Str(s) => serde_json::to_string(&self.heap.str_lossy(s)).ok()?,
                    _ => text(key)?,
                };
                Some(format!("{}[{k}]", text(t)?))
            }
            _ => None,
        }
    }

    /// The value register `reg` held just before instruction `at` of the current frame (whose
    /// registers start at `base` and which failed at instruction `cur`): its value now when no
    /// instruction from `at` to `cur` writes it, else recomputed from the instruction that
    /// wrote it when that is a pure read (`Move`, a constant, `t.k`, `t[k]`: tables have no
    /// metatables, so reading again gives the same value), following at most
    /// [`crate::limits::MAX_HINT_TRACE_STEPS`] such instructions. `None` when unknown. Only
    /// called on error paths (to find the table a nil was read from).
    fn traced_value(&self, tr: Trace<'_>, at: usize, reg: u8, steps: usize) -> Option<Value> {
        let Trace { p, cur, .. } = tr;
        let w = find_setreg(p, at, reg);
        // The failing instruction may have written its targets already (`SelfOp` sets
        // `R[a + 1]` before it indexes): its writes count.
        if find_setreg(p, cur + 1, reg) == w {
            return self.stack.get(tr.base + reg as usize).copied();
        }
        let w = w?;
        if steps >= crate::limits::MAX_HINT_TRACE_STEPS {
            return None;
        }
        let table = |t: u8| match self.traced_value(tr, w, t, steps + 1) {
            Some(Value::Table(tb)) => Some(tb),
            _ => None,
        };
        match p.code[w] {
            Op::Move { b, .. } => self.traced_value(tr, w, b, steps + 1),
            Op::LoadInt { i, .. } => Some(Value::Int(i64::from(i))),
            Op::LoadK { k, .. } => self.kflat.get(p.k_offset as usize + k as usize).copied(),
            Op::GetField { t, k, .. } => {
                let key = *self.kflat.get(p.k_offset as usize + k as usize)?;
                Some(self.heap.table_get(table(t)?, key))
            }
            Op::GetTable { t, key, .. } => {
                let tb = table(t)?;
                let key = self.traced_value(tr, w, key, steps + 1)?;
                Some(self.heap.table_get(tb, key))
            }
            _ => None,
        }
    }

    /// The string keys of table `tb`, sorted, the first 12 joined ("a, b and 3 more"), with the
    /// first one; `None` when it has none.
    fn field_list(&self, tb: crate::value::TableRef) -> Option<(String, String)> {
        let table = self.heap.table(tb);
        let mut keys: Vec<String> = table
            .hash_entries()
            .filter_map(|(k, _)| match k {
                Value::Str(s) => Some(self.heap.str_lossy(s)),
                _ => None,
            })
            .take(1000)
            .collect();
        if keys.is_empty() {
            return None;
        }
        keys.sort();
        let more = keys.len().saturating_sub(12);
        keys.truncate(12);
        let first = keys[0].clone();
        let mut list = keys.join(", ");
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        Some((list, first))
    }

    /// The hints for an error raised by the current instruction without naming its operand
    /// (comparisons, numeric `for`): where its nil operand came from (see
    /// [`Vm::missing_field_hint`], [`Vm::zero_index_hint`]). "" otherwise.
    pub(super) fn operand_hint(&self, msg: &str) -> String {
        let Some(f) = self.frames.last() else {
            return String::new();
        };
        let p = &self.prog.protos[f.proto as usize];
        let Some(op) = p.code.get(f.pc.saturating_sub(1)).copied() else {
            return String::new();
        };
        let regs: &[u8] = match op {
            Op::Lt { a, b, .. } | Op::Le { a, b, .. } if msg.starts_with("attempt to compare") => {
                &[a, b]
            }
            Op::LtK { a, .. } | Op::LeK { a, .. } | Op::GtK { a, .. } | Op::GeK { a, .. }
                if msg.starts_with("attempt to compare") =>
            {
                &[a]
            }
            Op::ForPrep { a, .. } if msg.starts_with("bad 'for' initial") => &[a],
            Op::ForPrep { a, .. } if msg.starts_with("bad 'for' limit") => &[a + 1],
            Op::ForPrep { a, .. } if msg.starts_with("bad 'for' step") => &[a + 2],
            Op::Len { b, .. } if msg.starts_with("attempt to get length of a nil") => &[b],
            // A builtin's "bad argument #N to 'f' (... got nil)": the argument's register
            // (after `self` for a method call, which the message does not count).
            Op::Call { a, .. } | Op::TailCall { a, .. } if msg.ends_with("got nil)") => {
                let Some(n) = msg
                    .strip_prefix("bad argument #")
                    .and_then(|r| r.split(' ').next())
                    .and_then(|d| d.parse::<u8>().ok())
                else {
                    return String::new();
                };
                let p = &self.prog.protos[f.proto as usize];
                let method = find_setreg(p, f.pc.saturating_sub(1), a)
                    .is_some_and(|w| matches!(p.code[w], Op::SelfOp { .. }));
                let Some(r) = a
                    .checked_add(n)
                    .and_then(|r| r.checked_add(u8::from(method)))
                else {
                    return String::new();
                };
                if !matches!(self.stack.get(f.base + r as usize), Some(Value::Nil)) {
                    return String::new();
                }
                let default = if msg.contains("(table expected") {
                    "{}"
                } else if msg.contains("(number expected") {
                    "0"
                } else {
                    "\"\""
                };
                return self.zero_index_hint(r) + &self.field_hint(r, Some(default));
            }
            _ => return String::new(),
        };
        for &r in regs {
            let hint = self.nil_hint(r);
            if !hint.is_empty() {
                return hint;
            }
        }
        String::new()
    }

    /// Where the nil in register `r` of the current frame came from ([`Vm::zero_index_hint`],
    /// [`Vm::missing_field_hint`]); "" when `r` holds no nil or nothing is known.
    fn nil_hint(&self, r: u8) -> String {
        let Some(f) = self.frames.last() else {
            return String::new();
        };
        if !matches!(self.stack.get(f.base + r as usize), Some(Value::Nil)) {
            return String::new();
        }
        self.zero_index_hint(r) + &self.missing_field_hint(r)
    }

    /// `R[t].length` (the instruction before `pc` of frame `fi`) read nil: on an array (a table
    /// without string keys) or a string, warn that Lua has no `.length`, once per place and
    /// within [`crate::limits::MAX_WARNINGS`].
    #[cold]
    #[inline(never)]
    pub(super) fn note_length(&mut self, obj: Value, t: u8, fi: usize, pc: usize) {
        let array = match obj {
            Value::Str(_) => true,
            Value::Table(tb) => !self
                .heap
                .table(tb)
                .hash_entries()
                .any(|(k, _)| matches!(k, Value::Str(_))),
            _ => false,
        };
        if !array || self.warnings.len() >= crate::limits::MAX_WARNINGS {
            return;
        }
        let Some(f) = self.frames.get(fi) else { return };
        let p = &self.prog.protos[f.proto as usize];
        let Some(pos) = p.pos.get(pc.saturating_sub(1)) else {
            return;
        };
        let location = Location {
            line: pos.line,
            column: pos.column,
        };
        if self.warnings.iter().any(|w| w.location == Some(location)) {
            return;
        }
        let at = pc.saturating_sub(1);
        let var = self
            .traced_text(Trace::new(p, f.base, at), at, t, 0)
            .unwrap_or_else(|| "t".into());
        self.warnings.push(crate::Warning {
            kind: codemode_guest::DiagnosticKind::LikelyMistake,
            message: format!(
                "{var}.length at {}:{} is nil: Lua has no .length; use #{var} for the length of a table or string",
                location.line, location.column
            ),
            location: Some(location),
        });
    }

    pub(super) fn local_name(p: &Proto, pc: usize, reg: u8) -> Option<&str> {
        p.locvars
            .iter()
            .rev()
            .find(|l| l.reg == reg && (l.start_pc as usize) <= pc && pc < l.end_pc as usize)
            .map(|l| &*l.name)
    }

    pub(super) fn kstr(&self, p: &Proto, k: u32) -> String {
        match p.consts.get(k as usize) {
            Some(Const::Str(s)) => String::from_utf8_lossy(s).into_owned(),
            _ => "?".into(),
        }
    }

    pub(super) fn obj_name(
        &self,
        p: &Proto,
        _f: &Frame,
        pc: usize,
        reg: u8,
    ) -> Option<(&'static str, String)> {
        if let Some(n) = Self::local_name(p, pc, reg) {
            return Some(("local", n.to_string()));
        }
        let setpc = find_setreg(p, pc, reg)?;
        match p.code[setpc] {
            Op::Move { b, .. } => {
                if b < reg {
                    Self::local_name(p, setpc, b).map(|n| ("local", n.to_string()))
                } else {
                    None
                }
            }
            Op::GetGlobal { k, .. } => Some(("global", self.kstr(p, k))),
            Op::GetField { k, .. } => Some(("field", self.kstr(p, k))),
            Op::GetTable { key, .. } => {
                let name = match find_setreg(p, setpc, key).map(|kpc| p.code[kpc]) {
                    // Lua's GETI (a constant integer key 0..=255) reports "integer index".
                    Some(Op::LoadInt { i, .. })
                        if (0..=255).contains(&i) && Self::local_name(p, setpc, key).is_none() =>
                    {
                        "integer index".to_string()
                    }
                    Some(Op::LoadK { k, .. }) if Self::local_name(p, setpc, key).is_none() => {
                        match p.consts.get(k as usize) {
                            Some(Const::Str(s)) => String::from_utf8_lossy(s).into_owned(),
                            _ => "?".into(),
                        }
                    }
                    _ => "?".into(),
                };
                Some(("field", name))
            }
            Op::GetUpval { u, .. } => p
                .upvals
                .get(u as usize)
                .map(|d| ("upvalue", d.name.to_string())),
            Op::LoadK { k, .. } => match p.consts.get(k as usize) {
                Some(Const::Str(s)) => Some(("constant", String::from_utf8_lossy(s).into_owned())),
                _ => None,
            },
            Op::SelfOp { k, .. } => Some(("method", self.kstr(p, k))),
            _ => None,
        }
    }

    /// Rewrite "bad argument #N to 'name'" with the name used at the call site, like
    /// luaL_argerror (method calls do not count `self`).
    pub(super) fn fix_arg_error(&self, mut e: Throw, reg: u8) -> Throw {
        let Some(d) = e.error() else { return e };
        if d.positioned || d.bare {
            // Raised deeper (e.g. in a comparator, or by a builtin the callee called directly)
            // and already named there.
            return e;
        }
        let ErrVal::Msg(m) = &d.value else { return e };
        let Some(rest) = m.strip_prefix("bad argument #") else {
            return e;
        };
        let digits = rest.bytes().take_while(|b| b.is_ascii_digit()).count();
        let Ok(n) = rest[..digits].parse::<usize>() else {
            return e;
        };
        let Some(after) = rest[digits..].strip_prefix(" to '") else {
            return e;
        };
        let Some(q) = after.find('\'') else { return e };
        let tail = &after[q + 1..];
        let Some(f) = self.frames.last() else {
            return e;
        };
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        let new = match self.obj_name(p, f, pc, reg) {
            Some(("method", name)) => {
                if n == 1 {
                    format!("calling '{}' on bad self{}", name, tail)
                } else {
                    format!(
                        "bad argument #{} to '{}'{}",
                        n.saturating_sub(1),
                        name,
                        tail
                    )
                }
            }
            Some((_, name)) => format!("bad argument #{} to '{}'{}", n, name, tail),
            None => return e,
        };
        if let Some(d) = e.error_mut() {
            d.value = ErrVal::Msg(new);
        }
        e
    }

    /// Qualify the function name of an argument error with its library ("string.rep"), as Lua
    /// does when no call-site name is known.
    pub(super) fn qualify_arg_error(&self, mut e: Throw, n: NativeRef) -> Throw {
        let qual = self.heap.native_qualified(n);
        let short = self.heap.native(n).name;
        if let (Some(q), Some(ErrVal::Msg(m))) = (qual, e.error().map(|d| &d.value)) {
            let pat = format!(" to '{}'", short);
            if m.starts_with("bad argument #") && m.contains(&pat) {
                let new = m.replacen(&pat, &format!(" to '{}'", q), 1);
                if let Some(d) = e.error_mut() {
                    d.value = ErrVal::Msg(new);
                }
            }
        }
        e
    }
}

pub(super) fn call_hint(vi: &str) -> String {
    if vi.starts_with(" (global '") {
        let name = vi.trim_start_matches(" (global '").trim_end_matches("')");
        let known_fns = [
            "setmetatable",
            "getmetatable",
            "require",
            "load",
            "loadstring",
            "dofile",
            "loadfile",
            "unpack",
            "collectgarbage",
            "rawlen",
        ];
        if name == "unpack" {
            return "; use table.unpack".into();
        }
        if known_fns.contains(&name) {
            return format!("; '{}' is not available in this sandbox", name);
        }
    }
    let name = [" (method '", " (field '", " (global '"]
        .iter()
        .find_map(|p| vi.strip_prefix(p))
        .map(|rest| rest.trim_end_matches("')"));
    match name.and_then(missing_function_hint) {
        Some(h) => format!("; {h}"),
        None => String::new(),
    }
}

/// What to write instead of a function models often expect from other languages
/// (`s:split(",")`, `t:push(x)`, `json.stringify(v)`, `len(t)`, ...).
fn missing_function_hint(name: &str) -> Option<&'static str> {
    Some(match name {
        "split" => "Lua has no split: use `for part in s:gmatch(\"[^,]+\") do ... end`",
        "trim" | "strip" => "Lua has no trim: use `s:match(\"^%s*(.-)%s*$\")`",
        "startswith" | "startsWith" => "use `s:sub(1, #prefix) == prefix`",
        "endswith" | "endsWith" => "use `suffix == \"\" or s:sub(-#suffix) == suffix`",
        "contains" | "includes" | "indexOf" => {
            "use `s:find(text, 1, true)` for strings (plain search), or a loop for tables"
        }
        "replace" | "replaceAll" => {
            "use `s:gsub(pattern, replacement)` (a Lua pattern: escape magic characters with %)"
        }
        "toUpperCase" => "use `s:upper()`",
        "toLowerCase" => "use `s:lower()`",
        "length" | "len" | "size" | "count" => "use the length operator: `#t` or `#s`",
        "push" | "append" | "add" => "use `t[#t + 1] = value` or `table.insert(t, value)`",
        "insert" | "remove" | "concat" | "sort" | "unpack" => {
            "these are functions of the table library: `table.insert(t, value)`, \
             `table.remove(t)`, `table.concat(t, \", \")`, `table.sort(t)`"
        }
        "map" | "filter" | "reduce" | "forEach" | "keys" | "values" => {
            "Lua tables have no methods: write a loop, e.g. \
             `local out = {} for i, v in ipairs(t) do out[#out + 1] = f(v) end`"
        }
        "stringify" | "dumps" => "use `json.encode(value)`",
        "parse" | "loads" => "use `json.decode(text)`",
        "round" => "use `math.floor(x + 0.5)`",
        "str" => "use `tostring(v)`",
        "int" => "use `math.tointeger(x)` or `math.floor(x)`",
        _ => return None,
    })
}

/// Where [`Vm::traced_value`] and [`Vm::traced_text`] read: the failing frame's prototype,
/// the stack index of its register 0 and the failing instruction.
#[derive(Clone, Copy)]
struct Trace<'p> {
    p: &'p Proto,
    base: usize,
    cur: usize,
}

impl<'p> Trace<'p> {
    fn new(p: &'p Proto, base: usize, cur: usize) -> Self {
        Trace { p, base, cur }
    }
}

/// The default a `null` field hint suggests where instruction `op` fails on a nil:
/// `0` for arithmetic, comparisons and `for` limits, `{}` for indexing it or taking its
/// length, `""` otherwise (concatenation, a method call: mostly on strings).
fn nil_default(op: Op) -> &'static str {
    match op {
        Op::GetField { .. } | Op::GetTable { .. } | Op::Len { .. } => "{}",
        Op::Add { .. }
        | Op::Sub { .. }
        | Op::AddI { .. }
        | Op::Arith { .. }
        | Op::ArithK { .. }
        | Op::AddK { .. }
        | Op::MulI { .. }
        | Op::DivI { .. }
        | Op::ModI { .. }
        | Op::IDivI { .. }
        | Op::SubK { .. }
        | Op::MulK { .. }
        | Op::DivK { .. }
        | Op::ModK { .. }
        | Op::IDivK { .. }
        | Op::ArithKR { .. }
        | Op::Unm { .. }
        | Op::Lt { .. }
        | Op::Le { .. }
        | Op::LtK { .. }
        | Op::LeK { .. }
        | Op::GtK { .. }
        | Op::GeK { .. }
        | Op::ForPrep { .. } => "0",
        _ => "\"\"",
    }
}

/// Like Lua's findsetreg: the last instruction before `lastpc` that wrote `reg`.
pub(super) fn find_setreg(p: &Proto, lastpc: usize, reg: u8) -> Option<usize> {
    let mut setreg: Option<usize> = None;
    let mut jmptarget = 0usize;
    for pc in 0..lastpc.min(p.code.len()) {
        let change = match p.code[pc] {
            Op::Move { a, .. }
            | Op::LoadK { a, .. }
            | Op::LoadInt { a, .. }
            | Op::LoadBool { a, .. }
            | Op::GetUpval { a, .. }
            | Op::GetGlobal { a, .. }
            | Op::GetTable { a, .. }
            | Op::GetField { a, .. }
            | Op::NewTable { a, .. }
            | Op::Add { a, .. }
            | Op::Sub { a, .. }
            | Op::AddI { a, .. }
            | Op::Arith { a, .. }
            | Op::ArithK { a, .. }
            | Op::AddK { a, .. }
            | Op::MulI { a, .. }
            | Op::DivI { a, .. }
            | Op::ModI { a, .. }
            | Op::IDivI { a, .. }
            | Op::SubK { a, .. }
            | Op::MulK { a, .. }
            | Op::DivK { a, .. }
            | Op::ModK { a, .. }
            | Op::IDivK { a, .. }
            | Op::ArithKR { a, .. }
            | Op::Unm { a, .. }
            | Op::Not { a, .. }
            | Op::Len { a, .. }
            | Op::BNot { a, .. }
            | Op::Concat { a, .. }
            | Op::Closure { a, .. }
            | Op::TestSet { a, .. } => a == reg,
            Op::LoadNil { a, n } => a <= reg && reg <= a + n,
            Op::SelfOp { a, .. } => reg == a || reg == a + 1,
            Op::Call { a, .. } | Op::Vararg { a, .. } => reg >= a,
            Op::TForCall { a, .. } => reg >= a + 3,
            Op::ForPrep { a, .. } | Op::ForLoop { a, .. } => reg >= a && reg <= a + 3,
            Op::Jmp { off } => {
                let dest = (pc as i64 + 1 + off as i64) as usize;
                if dest <= lastpc && dest > jmptarget {
                    jmptarget = dest;
                }
                false
            }
            _ => false,
        };
        if change {
            setreg = if pc < jmptarget { None } else { Some(pc) };
        }
    }
    setreg
}
