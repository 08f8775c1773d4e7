//! Error positions and model hints, as PUC Lua's ldebug.c: where the current instruction is
//! (`input:LINE:` prefixes as Lua's, the location of a Lua frame), what a register holds at an
//! instruction ("global 'x'", "field 'x'", like getobjname and findsetreg), call-site names
//! in argument errors, and the hints a model reads to fix its program (a missing field and
//! the fields there are, `t[0]`, functions other languages have).

use super::{Frame, FrameKind, Vm};
use crate::Location;
use crate::proto::{Const, Op, Proto};
use crate::value::{ErrVal, NativeRef, Throw, ThrowData, Value, VmResult, ZERO_INDEX_HINT};

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

    /// Location of the Lua frame `level` levels up (1 = the innermost Lua frame).
    pub(crate) fn location_at_level(&self, level: usize) -> Option<Location> {
        if level == 0 || level > self.frames.len() {
            return None;
        }
        let mut idx = self.frames.len() - 1;
        for _ in 1..level {
            // The caller of a frame started by pcall is pcall itself: no position.
            if self.frames[idx].kind != FrameKind::Normal || idx == 0 {
                return None;
            }
            idx -= 1;
        }
        let f = &self.frames[idx];
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        p.pos.get(pc).map(|pos| Location {
            line: pos.line,
            column: pos.column,
        })
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

    /// [`ZERO_INDEX_HINT`] when register `reg` (a temporary) got its value from `t[0]` (a
    /// constant 0, or a local key holding 0); "" otherwise. Only called on error paths.
    pub(super) fn zero_index_hint(&self, reg: u8) -> &'static str {
        let Some(f) = self.frames.last() else {
            return "";
        };
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        if Self::local_name(p, pc, reg).is_some() {
            return "";
        }
        let Some(setpc) = find_setreg(p, pc, reg) else {
            return "";
        };
        let Op::GetTable { key, .. } = p.code[setpc] else {
            return "";
        };
        let zero = match find_setreg(p, setpc, key).map(|k| p.code[k]) {
            Some(Op::LoadInt { i: 0, .. }) if Self::local_name(p, setpc, key).is_none() => true,
            _ => {
                Self::local_name(p, setpc, key).is_some()
                    && matches!(self.stack.get(f.base + key as usize), Some(Value::Int(0)))
            }
        };
        if zero { ZERO_INDEX_HINT } else { "" }
    }

    /// When the nil in register `reg` (a temporary) came from `t.name` and `t` is still in its
    /// register: what `t` holds instead, so a model can fix the field name in one step
    /// ("; that table has no field 'qty'; its fields: name, price, sku"), or that it is an
    /// array ("... it is an array of 5 items: index it first, e.g. t[1].qty"). "" otherwise.
    /// Only called on error paths.
    pub(super) fn missing_field_hint(&self, reg: u8) -> String {
        let Some(f) = self.frames.last() else {
            return String::new();
        };
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        if Self::local_name(p, pc, reg).is_some() {
            return String::new();
        }
        let Some(setpc) = find_setreg(p, pc, reg) else {
            return String::new();
        };
        let Op::GetField { a, t, k } = p.code[setpc] else {
            return String::new();
        };
        // The table must still be in its register: not overwritten by the load itself or later.
        if a == t || find_setreg(p, pc, t).is_some_and(|w| w >= setpc) {
            return String::new();
        }
        let Some(Value::Table(tb)) = self.stack.get(f.base + t as usize).copied() else {
            return String::new();
        };
        let name = match self.kflat.get(p.k_offset as usize + k as usize) {
            Some(Value::Str(s)) => self.heap.str_lossy(*s),
            _ => return String::new(),
        };
        let table = self.heap.table(tb);
        let mut keys: Vec<String> = table
            .hash_entries()
            .filter_map(|(k, _)| match k {
                Value::Str(s) => Some(self.heap.str_lossy(s)),
                _ => None,
            })
            .take(1000)
            .collect();
        let items = self.heap.table_len(tb);
        if keys.is_empty() && items > 0 {
            return format!(
                "; that table has no field '{name}': it is an array of {items} items, so index \
                 it first (e.g. t[1].{name}) or loop over it with ipairs"
            );
        }
        if keys.is_empty() {
            return format!("; that table has no field '{name}': it is empty");
        }
        keys.sort();
        let more = keys.len().saturating_sub(12);
        keys.truncate(12);
        let mut list = keys.join(", ");
        if more > 0 {
            list.push_str(&format!(" and {more} more"));
        }
        format!("; that table has no field '{name}'; its fields: {list}")
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
