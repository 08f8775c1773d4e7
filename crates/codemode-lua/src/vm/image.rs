//! The VM as plain data for a snapshot ([`VmImage`]), taken while the machine waits for a host
//! call, and its checked rebuild over a recompiled program.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Frame, FrameKind, Miss, Pending, Vm};
use crate::heap::image::HeapImage;
use crate::heap::{Heap, Upval, UpvalRef};
use crate::limits;
use crate::proto::{Const, ProgramData};
use crate::snapshot::{Damaged, WarningImage, check, damaged};
use crate::value::{NativeRef, TableRef, Value};

/// The state of a VM waiting for a host call (see the module docs).
#[derive(Serialize, Deserialize)]
pub(crate) struct VmImage {
    heap: HeapImage,
    stack: Vec<Value>,
    frames: Vec<Frame>,
    open_upvals: Vec<(usize, UpvalRef)>,
    globals: TableRef,
    string_lib: Option<TableRef>,
    kflat: Vec<Value>,
    top: usize,
    specials: [Option<NativeRef>; 3],
    pending: Pending,
    miss: Option<Miss>,
    miss_flag: Option<String>,
    suggest_lookups: u32,
    pinned: Vec<Value>,
    ipairs_iter: Value,
    direct_next: bool,
    nested_top: usize,
    fell_off: bool,
    warnings: Vec<WarningImage>,
    length_key: Value,
}

impl Vm {
    /// The VM as plain data. Errors: it is not waiting for a host call from the main dispatch
    /// loop with nothing else pending.
    pub(crate) fn to_image(&self) -> Result<VmImage, String> {
        let Some(pending) = self.pending else {
            return Err("the program is not waiting for a host call".into());
        };
        if !self.nested.is_empty()
            || !self.callback_roots.is_empty()
            || self.pending_error.is_some()
            || self.pending_handled.is_some()
            || !self.noted.is_empty()
            || self.handler_depth != 0
        {
            return Err(
                "the program is inside a builtin's callback or has an answer pending".into(),
            );
        }
        Ok(VmImage {
            heap: self.heap.to_image(),
            stack: self.stack.clone(),
            frames: self.frames.clone(),
            open_upvals: self.open_upvals.clone(),
            globals: self.globals,
            string_lib: self.string_lib,
            kflat: self.kflat.clone(),
            top: self.top,
            specials: [self.pcall_ref, self.xpcall_ref, self.next_ref],
            pending,
            miss: self.miss.clone(),
            miss_flag: self.miss_flag.clone(),
            suggest_lookups: self
                .suggest_lookups
                .load(std::sync::atomic::Ordering::Relaxed),
            pinned: self.pinned.clone(),
            ipairs_iter: self.ipairs_iter,
            direct_next: self.direct_next,
            nested_top: self.nested_top,
            fell_off: self.fell_off,
            warnings: self.warnings.iter().map(WarningImage::from).collect(),
            length_key: self.length_key,
        })
    }

    /// Rebuild a VM of `prog` (the snapshot's source, compiled again) from `img` over the
    /// standard-library `template`, under a memory cap of `cap` bytes. Checks every handle
    /// against the arena, every frame against its function, every stack index against the
    /// stack.
    pub(crate) fn from_image(
        img: VmImage,
        template: &Vm,
        prog: Arc<ProgramData>,
        cap: usize,
    ) -> Damaged<Vm> {
        let heap = Heap::from_image(img.heap, &template.heap, cap)?;
        let n = img.stack.len();
        check(
            n <= limits::MAX_STACK_SLOTS * 2 && img.frames.len() <= limits::MAX_FRAMES,
            || "its stack is deeper than any program's".into(),
        )?;
        let protos = &prog.protos;
        heap.check_values(n, |p| protos.get(p as usize).map(|p| p.upvals.len()))?;
        let value = |v: &Value| heap.value_ok(*v);
        check(
            img.stack.iter().all(value)
                && img.kflat.iter().all(value)
                && img.pinned.iter().all(value)
                && value(&img.ipairs_iter)
                && value(&img.length_key)
                && heap.value_ok(Value::Table(img.globals))
                && img
                    .string_lib
                    .is_none_or(|t| heap.value_ok(Value::Table(t)))
                && img
                    .specials
                    .iter()
                    .flatten()
                    .all(|r| heap.value_ok(Value::Native(*r))),
            || "the VM holds an invalid value".into(),
        )?;
        check(
            img.specials == [template.pcall_ref, template.xpcall_ref, template.next_ref],
            || "its standard library differs from this build's".into(),
        )?;
        // The constants are the program's, in order.
        check(img.kflat.len() == prog.num_consts, || {
            "its constants are not the program's".into()
        })?;
        let consts = prog.protos.iter().flat_map(|p| p.consts.iter());
        for (k, v) in consts.zip(&img.kflat) {
            let same = match (k, v) {
                (Const::Int(a), Value::Int(b)) => a == b,
                (Const::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
                (Const::Str(a), Value::Str(s)) => **a == *heap.str_bytes(*s),
                _ => false,
            };
            check(same, || "its constants are not the program's".into())?;
        }
        // Frames: each runs a live closure of its function, inside the stack.
        check(!img.frames.is_empty(), || {
            "it has no running function".into()
        })?;
        let mut pdepth = 0u16;
        let mut caller: Option<(usize, usize)> = None;
        let mut wanted = Vec::with_capacity(img.frames.len());
        for f in &img.frames {
            let Some(Some(c)) = heap_closure(&heap, f.closure.0) else {
                return Err(damaged("a frame runs a missing function".into()));
            };
            let p = protos.get(f.proto as usize);
            let fits = p.is_some_and(|p| {
                c == f.proto
                    && f.pc < p.code.len()
                    && f.func < f.base
                    && f.base + p.max_stack as usize <= n
                    && f.vararg_base.saturating_add(f.nvarargs) <= n
                    && (f.kind == FrameKind::Normal || f.func >= 1)
            });
            check(fits, || {
                "a frame lies outside its function or the stack".into()
            })?;
            // Every frame waits right after a call (a frame runs again only once what it
            // called returns; a tail call to a host function keeps its frame), and a called function's slot lies in its caller's registers:
            // what the instructions after a call read (the stack top) is what the call sets.
            let code = &protos[f.proto as usize].code;
            let after_call = f.pc >= 1
                && matches!(
                    code[f.pc - 1],
                    crate::proto::Op::Call { .. }
                        | crate::proto::Op::TailCall { .. }
                        | crate::proto::Op::TForCall { .. }
                );
            check(after_call, || "a frame does not wait after a call".into())?;
            // What that call wants back is what its callee (the next frame, or the waiting
            // host call) delivers: the instructions after a call that wants all results read
            // the stack top the delivery sets.
            let wants = match code[f.pc - 1] {
                crate::proto::Op::Call { c, .. } => c as i32 - 1,
                crate::proto::Op::TForCall { c, .. } => c as i32,
                _ => -1,
            };
            wanted.push(wants);
            if let Some((base, size)) = caller {
                check(f.func >= base && f.func < base + size, || {
                    "a frame's function is outside its caller's registers".into()
                })?;
            }
            caller = Some((f.base, protos[f.proto as usize].max_stack as usize));
            if f.kind != FrameKind::Normal {
                pdepth += 1;
            }
            check(
                f.pdepth == pdepth && (pdepth as usize) <= limits::MAX_PCALL_NESTING,
                || "a frame's protection depth is wrong".into(),
            )?;
        }
        let delivered = img.frames[1..]
            .iter()
            .map(|f| f.nresults)
            .chain(std::iter::once(img.pending.nresults));
        check(delivered.eq(wanted.iter().copied()), || {
            "a call and what it wants back disagree".into()
        })?;
        // Open upvalues: increasing stack slots, each cell open on its slot.
        let mut last = None;
        for &(slot, u) in &img.open_upvals {
            let open_here = matches!(heap_upval(&heap, u), Some(Upval::Open(s)) if s == slot);
            check(
                slot < n && last.is_none_or(|l| l < slot) && open_here,
                || "an open upvalue is out of order".into(),
            )?;
            last = Some(slot);
        }
        check(
            img.top <= n && img.nested_top <= n && img.warnings.len() <= limits::MAX_WARNINGS,
            || "the stack top is out of range".into(),
        )?;
        // Result counts are register counts: a larger one would make delivering a reply
        // allocate without bound.
        let results_ok = |r: i32| (-1..=limits::MAX_REGISTERS as i32).contains(&r);
        check(
            img.pending.dest <= n
                && results_ok(img.pending.nresults)
                && img.frames.iter().all(|f| results_ok(f.nresults)),
            || "a call's result slots are out of range".into(),
        )?;
        check(
            img.miss
                .as_ref()
                .is_none_or(|m| m.depth <= img.frames.len()),
            || "its missing-tool note is out of range".into(),
        )?;
        let mut vm = template.fork_bare(heap, prog);
        vm.stack = img.stack;
        vm.frames = img.frames;
        vm.open_upvals = img.open_upvals;
        vm.globals = img.globals;
        vm.string_lib = img.string_lib;
        vm.kflat = img.kflat;
        vm.top = img.top;
        vm.pending = Some(img.pending);
        vm.miss = img.miss;
        vm.miss_flag = img.miss_flag;
        vm.suggest_lookups = std::sync::atomic::AtomicU32::new(img.suggest_lookups);
        vm.pinned = img.pinned;
        vm.ipairs_iter = img.ipairs_iter;
        vm.direct_next = img.direct_next;
        vm.nested_top = img.nested_top;
        vm.fell_off = img.fell_off;
        vm.warnings = img.warnings.into_iter().map(Into::into).collect();
        vm.length_key = img.length_key;
        Ok(vm)
    }
}

/// The prototype of closure `i`, if it is alive.
fn heap_closure(heap: &Heap, i: u32) -> Option<Option<u32>> {
    let c = crate::value::ClosureRef(i);
    heap.value_ok(Value::Closure(c))
        .then(|| Some(heap.closure(c).proto))
}

fn heap_upval(heap: &Heap, u: UpvalRef) -> Option<Upval> {
    heap.upval_get(u)
}
