//! Indexing without metatables: tables, strings (through the `string` library), the `tools`
//! tree (a missing path is remembered for a later UnknownTool), and the slow path of the
//! indexing opcodes with "attempt to index a X value" and its hints.

use super::{Miss, Vm};
use crate::heap::{Heap, HostKind};
use crate::value::{Throw, Value, VmResult};

impl Vm {
    /// `obj[key]` without metatables. `None`: the value cannot be indexed.
    #[inline]
    pub(super) fn index(&mut self, obj: Value, key: Value) -> Option<Value> {
        match obj {
            Value::Table(t) => Some(self.heap.table_get(t, key)),
            Value::Str(_) => match self.string_lib {
                Some(s) => Some(self.heap.table_get(s, key)),
                None => Some(Value::Nil),
            },
            Value::HostNs(h) | Value::HostFn(h) => {
                let obj = self.heap.host(h);
                if let Value::Str(k) = key {
                    if let Some((_, v)) = obj.children.iter().find(|(ck, _)| *ck == k) {
                        return Some(*v);
                    }
                    if matches!(obj.kind, HostKind::Node { .. }) {
                        let seg = self.heap.str_lossy(k);
                        let path = if obj.path.is_empty() {
                            seg
                        } else {
                            format!("{}.{}", obj.path, seg)
                        };
                        self.miss_flag = Some(path);
                    }
                }
                Some(Value::Nil)
            }
            _ => None,
        }
    }

    /// `obj[key]` off the table fast path of GetField/GetTable/SelfOp (strings, the tools tree,
    /// or an error), for register `reg` of frame `fi` whose next instruction is `pc` (its pc must
    /// be saved): remembers a missing `tools` path for a later UnknownTool, and names the
    /// variable in "attempt to index a X value" (`hint`: add the field hint too).
    #[cold]
    #[inline(never)]
    pub(super) fn index_slow(
        &mut self,
        obj: Value,
        key: Value,
        reg: u8,
        fi: usize,
        pc: usize,
        hint: bool,
    ) -> VmResult<Value> {
        if let Some(v) = self.index(obj, key) {
            if let Some(path) = self.miss_flag.take() {
                self.miss = Some(Miss {
                    depth: fi + 1,
                    pc: pc - 1,
                    path,
                    unavailable: None,
                });
            }
            return Ok(v);
        }
        let ks = key_desc(&self.heap, key);
        if obj.is_nil() {
            if let Some(k) = &ks
                && self.defer_unavailable(reg, k, fi, pc)
            {
                return Ok(Value::Nil);
            }
            if let Some(e) = self.unknown_tool_for(reg, ks.clone()) {
                self.charge_unknown_tool();
                return Err(e);
            }
        }
        let field_hint = match (hint, ks) {
            (true, Some(k)) => hint_field(&k),
            _ => String::new(),
        };
        let (zero_hint, missing) = if obj.is_nil() {
            (self.zero_index_hint(reg), self.missing_field_hint(reg))
        } else {
            (String::new(), String::new())
        };
        Err(Throw::msg(format!(
            "attempt to index a {} value{}{}{}{}",
            obj.type_name(),
            self.varinfo(reg),
            field_hint,
            zero_hint,
            missing
        )))
    }

    /// `obj[key] = v`; `reg` is the register `obj` came from (named in the error when it
    /// cannot be indexed).
    pub(super) fn set_index(&mut self, obj: Value, key: Value, v: Value, reg: u8) -> VmResult<()> {
        match obj {
            Value::Table(t) => self.heap.table_set(t, key, v),
            Value::HostNs(_) | Value::HostFn(_) => Err(Throw::msg(
                "cannot assign to a field of 'tools' (the tools namespace is read-only)",
            )),
            _ => Err(Throw::msg(format!(
                "attempt to index a {} value{}",
                obj.type_name(),
                self.varinfo(reg)
            ))),
        }
    }
}

fn key_desc(heap: &Heap, k: Value) -> Option<String> {
    match k {
        Value::Str(s) => Some(heap.str_lossy(s)),
        _ => None,
    }
}

fn hint_field(_k: &str) -> String {
    String::new()
}
