//! The machine as plain data for a snapshot ([`VmImage`]), taken while the run waits for host
//! calls, and its checked rebuild over a fork of the standard-library template and the
//! program compiled again from its source.
//!
//! What the template holds (the intrinsics, the platform prototypes, the well-known keys and
//! symbols, the prelude and its constants) is taken from this build's template, never from
//! the bytes. Caches (string constants, the RegExp pattern cache, the last call site) start
//! empty; a RegExp search or replacement a fuel slice interrupted starts again (with the same
//! result), and a global match it interrupted goes on (its array holds the matches so far).
//! The random generator's
//! state is kept, so the numbers after a resume are the ones the uninterrupted run draws;
//! the clock is the restoring host's.
//!
//! Loading checks every handle (strings, objects, cells, symbols, interned names, natives),
//! every function reference (program, function, captured cells) and frame (program,
//! function, pc, registers, handlers, return register), and the shapes the machine relies on
//! (a promise where a promise is expected, a coroutine where a coroutine is, elements and
//! tables whole) before anything runs; the bytes held are then recounted by a collection and
//! refused above the cap.

use std::collections::VecDeque;
use std::sync::Arc;

use codemode_guest::{HostError, Location};
use serde::{Deserialize, Serialize};

use super::coro::{Cap, Finish, Job, Reaction};
use super::{Detour, Frame, Vm};
use crate::heap::image::HeapImage;
use crate::heap::{Func, Heap, Iter, Key, Kind, Slot};
use crate::limits;
use crate::proto::ProgramData;
use crate::snapshot::{Damaged, check};
use crate::value::{ObjId, StrId, Value};

/// A host error as plain data (its data fields as JSON text).
#[derive(Serialize, Deserialize)]
struct HostErrorImage {
    kind: codemode_guest::ErrorKind,
    message: String,
    suggestions: Vec<String>,
    data: Option<String>,
}

/// The run's host calls, without the host's policy object.
#[derive(Serialize, Deserialize)]
struct HostImage {
    ranked: usize,
    next_id: u64,
    waiting: Vec<(u64, ObjId, Option<Location>)>,
    sync_wait: Option<u64>,
    errors: Vec<(ObjId, HostErrorImage, Option<Location>)>,
    modules: Vec<String>,
    module_cache: Vec<(String, ObjId)>,
}

/// The state of a machine waiting for host calls (see the module docs).
#[derive(Serialize, Deserialize)]
pub(crate) struct VmImage {
    heap: HeapImage,
    templates: Vec<Vec<Option<ObjId>>>,
    hint: Option<(Value, String, Vec<String>)>,
    regs: Vec<Value>,
    frames: Vec<Frame>,
    logs: Vec<String>,
    fuel_used: u64,
    fuel_cap: u64,
    throw_at: Option<Location>,
    throw_origins: Vec<(Value, Location)>,
    rng: u64,
    jobs: VecDeque<Job>,
    unhandled: Vec<ObjId>,
    slips: Vec<(String, Option<Location>)>,
    promise_serial: u64,
    pending_promises: usize,
    body: Option<ObjId>,
    body_returned: bool,
    body_end_at: Option<Location>,
    body_error_at: Option<Location>,
    drain_left: Option<usize>,
    host: HostImage,
    /// A global RegExp match a fuel slice stopped (`builtins/regexp.rs`).
    matching: Option<crate::builtins::regexp::Matching>,
}

impl Vm {
    /// The machine as plain data. Errors: it is not at a point where it waits for the host
    /// (a native's work or an answer is pending, calls are not taken yet).
    pub(crate) fn to_image(&self) -> Result<VmImage, String> {
        if self.pending_throw.is_some()
            || self.tail.is_some()
            || self.native_nesting != 0
            || self.pending_callee.is_some()
            || self.native_construct.is_some()
            || !self.host.started.is_empty()
            || !self.host.replies.is_empty()
            || self.host.sync_reply.is_some()
        {
            return Err("a builtin's work or a reply is pending".into());
        }
        if self.progs.len() != 2 {
            return Err("it runs more than one program".into());
        }
        let h = &self.host;
        Ok(VmImage {
            heap: self.heap.to_image()?,
            templates: self.templates.clone(),
            hint: self.hint.clone(),
            regs: self.regs.clone(),
            frames: self.frames.clone(),
            logs: self.logs.clone(),
            fuel_used: self.fuel_used,
            fuel_cap: self.fuel_cap,
            throw_at: self.throw_at,
            throw_origins: self.throw_origins.clone(),
            rng: self.platform.rng,
            jobs: self.jobs.clone(),
            unhandled: self.unhandled.clone(),
            slips: self.slips.clone(),
            promise_serial: self.promise_serial,
            pending_promises: self.pending_promises,
            body: self.body,
            body_returned: self.body_returned,
            body_end_at: self.body_end_at,
            body_error_at: self.body_error_at,
            drain_left: self.drain_left,
            matching: self.regexp.matching(),
            host: HostImage {
                ranked: h.ranked,
                next_id: h.next_id,
                waiting: h
                    .waiting
                    .iter()
                    .map(|(id, (p, at))| (*id, *p, *at))
                    .collect(),
                sync_wait: h.sync_wait,
                errors: h
                    .errors
                    .iter()
                    .map(|(o, e, at)| {
                        let img = HostErrorImage {
                            kind: e.kind,
                            message: e.message.clone(),
                            suggestions: e.suggestions.clone(),
                            data: e
                                .data
                                .as_ref()
                                .map(|d| serde_json::Value::Object((**d).clone()).to_string()),
                        };
                        (*o, img, *at)
                    })
                    .collect(),
                modules: h.modules.clone(),
                module_cache: h.module_cache.clone(),
            },
        })
    }

    /// Rebuild a machine from `img` over the standard-library `template` and the user
    /// program `prog` (compiled again from the snapshot's source), under a memory cap of `cap`
    /// bytes. Checks everything (see the module docs); the caller sets the host's parts (the
    /// missing-tool policy, the clock, the deadline).
    pub(crate) fn from_image(
        img: VmImage,
        template: &Vm,
        prog: Arc<ProgramData>,
        cap: usize,
    ) -> Damaged<Vm> {
        let heap = Heap::from_image(img.heap, &template.heap, cap)?;
        let mut vm = template.clone();
        vm.heap = heap;
        vm.heap.cap = cap;
        vm.add_program(prog);
        check(img.templates.len() == vm.templates.len(), || {
            "its tagged templates are not the program's".into()
        })?;
        for (t, mine) in img.templates.iter().zip(&vm.templates) {
            check(t.len() == mine.len(), || {
                "its tagged templates are not the program's".into()
            })?;
        }
        check(
            img.regs.len() <= limits::MAX_STACK_SLOTS
                && img.frames.len() <= limits::MAX_CALL_DEPTH
                && img.fuel_used <= img.fuel_cap
                && img.fuel_cap <= limits::MAX_TOTAL_FUEL
                && img.throw_origins.len() <= limits::MAX_THROW_ORIGINS
                && img.slips.len() <= limits::MAX_SLIP_WARNINGS
                && img.pending_promises <= limits::MAX_PENDING_PROMISES
                && img.jobs.len() <= limits::MAX_PENDING_PROMISES,
            || "its stack or counters are beyond any run's".into(),
        )?;
        let c = Checker { vm: &vm };
        c.heap()?;
        for t in img.templates.iter().flatten().flatten() {
            c.obj(*t)?;
        }
        if let Some((v, ..)) = &img.hint {
            c.value(*v)?;
        }
        c.values(&img.regs)?;
        for (v, _) in &img.throw_origins {
            c.value(*v)?;
        }
        // The frames on the stack: each inside the registers, above the one below, returning
        // into a register of its caller.
        let mut below: Option<(usize, usize)> = None;
        for f in &img.frames {
            let nregs = c.frame(f, Some(f.base as usize), img.regs.len())?;
            let base = f.base as usize;
            match below {
                Some((b, n)) => check(
                    base >= b + n && f.ret.is_none_or(|r| (r as usize) < n),
                    || "a frame overlaps its caller".into(),
                )?,
                None => check(f.ret.is_none(), || {
                    "the first frame returns into no frame".into()
                })?,
            }
            below = Some((base, nregs));
        }
        for j in &img.jobs {
            c.job(j)?;
        }
        for p in &img.unhandled {
            c.obj(*p)?;
        }
        if let Some(b) = img.body {
            c.coro(b)?;
        }
        let h = img.host;
        for (id, p, _) in &h.waiting {
            check(*id < h.next_id, || {
                "it waits on a call it never started".into()
            })?;
            c.promise(*p)?;
        }
        check(
            h.sync_wait.is_none_or(|id| id < h.next_id)
                && (h.sync_wait.is_some() || !h.waiting.is_empty()),
            || "it waits on no call".into(),
        )?;
        let mut errors = Vec::with_capacity(h.errors.len());
        for (o, e, at) in h.errors {
            c.obj(o)?;
            let data = match e.data {
                None => None,
                Some(text) => match serde_json::from_str(&text) {
                    Ok(serde_json::Value::Object(m)) => Some(Box::new(m)),
                    _ => return Err("a tool error's data is not an object".into()),
                },
            };
            let e = HostError {
                kind: e.kind,
                message: e.message,
                suggestions: e.suggestions,
                data,
            };
            errors.push((o, e, at));
        }
        for (_, o) in &h.module_cache {
            c.obj(*o)?;
        }
        if let Some((re, s, out, _)) = img.matching {
            c.obj(re)?;
            c.str(s)?;
            check(matches!(c.kind(out)?, Kind::Array(_)), || {
                "an interrupted match collects into no array".into()
            })?;
        }
        vm.templates = img.templates;
        vm.hint = img.hint;
        vm.base = img.frames.last().map_or(0, |f| f.base as usize);
        vm.regs = img.regs;
        vm.frames = img.frames;
        vm.logs = img.logs;
        vm.fuel = 0;
        vm.fuel_used = img.fuel_used;
        vm.fuel_cap = img.fuel_cap;
        vm.throw_at = img.throw_at;
        vm.throw_origins = img.throw_origins;
        vm.platform.rng = img.rng;
        vm.jobs = img.jobs;
        vm.unhandled = img.unhandled;
        vm.slips = img.slips;
        vm.promise_serial = img.promise_serial;
        vm.pending_promises = img.pending_promises;
        vm.body = img.body;
        vm.body_returned = img.body_returned;
        vm.body_end_at = img.body_end_at;
        vm.body_error_at = img.body_error_at;
        vm.drain_left = img.drain_left;
        vm.regexp.set_matching(img.matching);
        vm.host.ranked = h.ranked;
        vm.host.next_id = h.next_id;
        vm.host.waiting = h
            .waiting
            .into_iter()
            .map(|(id, p, at)| (id, (p, at)))
            .collect();
        vm.host.sync_wait = h.sync_wait;
        vm.host.errors = errors;
        vm.host.modules = h.modules;
        vm.host.module_cache = h.module_cache;
        // What it holds, counted as the collector counts it, with the standard library's
        // part as a fresh run charges it (the collector counts the template's slots a little
        // differently from what building it charged): the bytes of its own are then the run's.
        let used = (crate::gc::collect(&mut vm) + template.heap.shared_bytes)
            .saturating_sub(template_recount(template));
        vm.heap.used = used;
        check(used <= cap, || {
            format!("it holds {used} bytes, over the memory limit of {cap} bytes")
        })?;
        vm.gc_at = crate::gc::next_collection(used, cap);
        Ok(vm)
    }
}

/// What the collector counts of the template alone (once per process).
fn template_recount(template: &Vm) -> usize {
    static RECOUNT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *RECOUNT.get_or_init(|| {
        let mut vm = template.clone();
        vm.heap.flattened = Default::default();
        crate::gc::collect(&mut vm)
    })
}

/// The checks of a loaded machine's handles against its heap and programs.
struct Checker<'a> {
    vm: &'a Vm,
}

/// The damage of an invalid handle.
fn bad<T>(what: &str) -> Damaged<T> {
    Err(format!("{what} holds an invalid reference"))
}

impl Checker<'_> {
    fn h(&self) -> &Heap {
        &self.vm.heap
    }

    fn value(&self, v: Value) -> Damaged<()> {
        let h = self.h();
        let ok = match v {
            Value::Str(s) => (s.0 as usize) < h.strings.len(),
            Value::Obj(o) => (o.0 as usize) < h.objects.len(),
            Value::Sym(s) => (s.0 as usize) < h.symbols.len(),
            Value::Undefined | Value::Null | Value::Bool(_) | Value::Num(_) | Value::Empty => true,
        };
        if ok { Ok(()) } else { bad("a value") }
    }

    fn values(&self, vs: &[Value]) -> Damaged<()> {
        vs.iter().try_for_each(|v| self.value(*v))
    }

    fn obj(&self, o: ObjId) -> Damaged<()> {
        self.value(Value::Obj(o))
    }

    fn str(&self, s: StrId) -> Damaged<()> {
        self.value(Value::Str(s))
    }

    fn kind(&self, o: ObjId) -> Damaged<&Kind> {
        self.obj(o)?;
        Ok(&self.h().obj(o).kind)
    }

    fn promise(&self, o: ObjId) -> Damaged<()> {
        match self.kind(o)? {
            Kind::Promise(_) => Ok(()),
            _ => Err("a promise reference names another object".into()),
        }
    }

    fn coro(&self, o: ObjId) -> Damaged<()> {
        match self.kind(o)? {
            Kind::Coro(_) => Ok(()),
            _ => Err("a coroutine reference names another object".into()),
        }
    }

    fn key(&self, k: Key) -> Damaged<()> {
        let h = self.h();
        let ok = match k {
            Key::Index(_) => true,
            Key::Name(a) => (a as usize) < h.atoms.len(),
            Key::Sym(s) => (s.0 as usize) < h.symbols.len(),
        };
        if ok { Ok(()) } else { bad("a property key") }
    }

    fn slot(&self, s: Slot) -> Damaged<()> {
        match s {
            Slot::Data(v) => self.value(v),
            Slot::Accessor(g, s) => {
                self.value(g)?;
                self.value(s)
            }
        }
    }

    fn cell(&self, c: crate::value::CellId) -> Damaged<()> {
        if (c.0 as usize) < self.h().cells.len() {
            Ok(())
        } else {
            bad("a captured variable")
        }
    }

    /// Every slot of every arena.
    fn heap(&self) -> Damaged<()> {
        let h = self.h();
        self.values(&h.cells)?;
        for d in h.symbols.iter().flatten() {
            self.str(*d)?;
        }
        for s in &h.registry {
            self.value(Value::Sym(*s))?;
        }
        for i in 0..h.objects.len() {
            self.object(ObjId(i as u32))?;
        }
        // The machine walks prototype chains and bound functions' targets to their ends: no
        // program can make either a cycle.
        check(self.acyclic(|o| h.obj(o).proto), || {
            "an object's prototype chain is a cycle".into()
        })?;
        check(
            self.acyclic(|o| match &h.obj(o).kind {
                Kind::Function(Func::Bound { target, .. }) => Some(*target),
                _ => None,
            }),
            || "a bound function is bound to itself".into(),
        )
    }

    /// Whether following `next` from any object (all of them valid handles) always ends:
    /// each object is walked once (0 not seen, 1 on the walk now, 2 known to end).
    fn acyclic(&self, next: impl Fn(ObjId) -> Option<ObjId>) -> bool {
        let n = self.h().objects.len();
        let mut state = vec![0u8; n];
        let mut path = Vec::new();
        for start in 0..n {
            let mut at = Some(ObjId(start as u32));
            while let Some(o) = at {
                match state[o.0 as usize] {
                    0 => {
                        state[o.0 as usize] = 1;
                        path.push(o);
                        at = next(o);
                    }
                    1 => return false,
                    _ => break,
                }
            }
            for o in path.drain(..) {
                state[o.0 as usize] = 2;
            }
        }
        true
    }

    fn object(&self, o: ObjId) -> Damaged<()> {
        let vm = self.vm;
        let obj = self.vm.heap.obj(o);
        if let Some(p) = obj.proto {
            self.obj(p)?;
        }
        for p in &obj.props.list {
            self.key(p.key)?;
            self.slot(p.slot)?;
        }
        check(obj.props.keys_unique(), || {
            "an object has a property twice".into()
        })?;
        for e in &obj.privates {
            self.value(Value::Sym(e.name))?;
            self.slot(e.slot)?;
        }
        match &obj.kind {
            Kind::Ordinary
            | Kind::Error
            | Kind::Boolean(_)
            | Kind::Number(_)
            | Kind::Date(_)
            | Kind::Url(_)
            | Kind::Params(_)
            | Kind::Buffer(_)
            | Kind::Encoder
            | Kind::Decoder(_)
            | Kind::RegExp(_) => {}
            Kind::Array(e) | Kind::Arguments(e) => {
                check(e.image_ok(limits::MAX_ARRAY_LENGTH), || {
                    "an array's elements are damaged".into()
                })?;
                for (_, v) in e.iter() {
                    self.value(v)?;
                }
            }
            Kind::Function(Func::Closure { prog, func, ups }) => {
                let f = vm
                    .progs
                    .get(*prog as usize)
                    .and_then(|p| p.funcs.get(*func as usize));
                let Some(f) = f else {
                    return bad("a function");
                };
                check(ups.len() == f.captures.len(), || {
                    "a function's captured variables do not match it".into()
                })?;
                ups.iter().try_for_each(|c| self.cell(*c))?;
            }
            // `Function.prototype` is the native `u16::MAX` (it does nothing).
            Kind::Function(Func::Native(n)) => {
                check(*n == u16::MAX || (*n as usize) < vm.natives.len(), || {
                    "a builtin function does not exist in this build".into()
                })?
            }
            Kind::Function(Func::Bound { target, this, args }) => {
                check(matches!(self.kind(*target)?, Kind::Function(_)), || {
                    "a bound function's target is not a function".into()
                })?;
                self.value(*this)?;
                check(args.len() <= limits::MAX_ARGUMENTS, || {
                    "a bound function has too many arguments".into()
                })?;
                self.values(args)?;
            }
            Kind::String(s) | Kind::ToolNs(s) => self.str(*s)?,
            Kind::Iterator(it) => match it {
                Iter::Array { target, .. } => self.value(*target)?,
                Iter::Str { s, .. } => self.str(*s)?,
                Iter::List { items, .. } => self.values(items)?,
                Iter::Table { target, pos, .. } => match self.kind(*target)? {
                    Kind::Map(t) | Kind::Set(t) => {
                        check(*pos == u32::MAX || (*pos as usize) <= t.slots(), || {
                            "an iterator is past its collection".into()
                        })?
                    }
                    _ => return Err("a collection iterator runs over no collection".into()),
                },
            },
            Kind::Map(t) | Kind::Set(t) | Kind::WeakMap(t) | Kind::WeakSet(t) => {
                for (k, v) in t.iter() {
                    self.value(k)?;
                    self.value(v)?;
                }
                check(
                    t.image_ok(self.h(), |a, b| vm.same_value_zero(a, b)),
                    || "a Map or Set is damaged".into(),
                )?;
            }
            Kind::Bytes { buf, off, len } => match self.kind(*buf)? {
                Kind::Buffer(b) => check(
                    (*off as usize).saturating_add(*len as usize) <= b.len(),
                    || "a Uint8Array lies outside its buffer".into(),
                )?,
                _ => return Err("a Uint8Array has no buffer".into()),
            },
            Kind::Promise(p) => {
                self.value(p.result)?;
                p.reactions.iter().try_for_each(|r| self.reaction(r))?;
            }
            Kind::Coro(co) => {
                self.values(&co.regs)?;
                check(co.regs.len() <= limits::MAX_STACK_SLOTS, || {
                    "a suspended function holds too many registers".into()
                })?;
                if let Some(f) = &co.frame {
                    use super::coro::CoroState;
                    check(
                        matches!(co.state, CoroState::Start | CoroState::Suspended)
                            && f.ret.is_none(),
                        || "a suspended function's frame is damaged".into(),
                    )?;
                    // Its registers are the coroutine's (its base is set when it resumes).
                    self.frame(f, None, co.regs.len())?;
                }
                if let Some(p) = co.promise {
                    self.promise(p)?;
                }
                for q in &co.queue {
                    self.value(q.value)?;
                    self.promise(q.promise)?;
                }
            }
            Kind::Resolving(p, _) => self.promise(*p)?,
        }
        Ok(())
    }

    fn reaction(&self, r: &Reaction) -> Damaged<()> {
        self.value(r.on_fulfilled)?;
        self.value(r.on_rejected)?;
        self.cap(r.cap)?;
        if let Some(c) = r.resume {
            self.coro(c)?;
        }
        Ok(())
    }

    fn cap(&self, c: Cap) -> Damaged<()> {
        match c {
            Cap::None => Ok(()),
            Cap::Promise(p) => self.promise(p),
            Cap::Record(o) => self.obj(o),
            Cap::AgReturn(c) => self.coro(c),
        }
    }

    fn job(&self, j: &Job) -> Damaged<()> {
        match j {
            Job::Reaction { reaction, arg, .. } => {
                self.reaction(reaction)?;
                self.value(*arg)
            }
            Job::Thenable {
                promise,
                thenable,
                then,
            } => {
                self.promise(*promise)?;
                self.value(*thenable)?;
                self.value(*then)
            }
            Job::Call(f) => self.value(*f),
        }
    }

    fn detour(&self, d: &Detour) -> Damaged<()> {
        match *d {
            Detour::Prim(o) | Detour::PrimNext(o) | Detour::PrimHint(o, _) => self.obj(o),
            Detour::Get(v, k) => {
                self.value(v)?;
                self.key(k)
            }
            Detour::HasInstance(o, v) => {
                self.obj(o)?;
                self.value(v)
            }
            Detour::Prepare(v) => self.value(v),
        }
    }

    /// A frame whose registers start at `base` (none: at 0 of a suspended coroutine's) of
    /// a register vector of `nregs_total`: its function, pc, registers, cells, handlers, and
    /// what it settles. Returns the function's register count.
    fn frame(&self, f: &Frame, base: Option<usize>, nregs_total: usize) -> Damaged<usize> {
        let vm = self.vm;
        let Some(p) = vm
            .progs
            .get(f.prog as usize)
            .and_then(|p| p.funcs.get(f.func as usize))
        else {
            return bad("a frame");
        };
        let nregs = p.nregs as usize;
        check(
            (f.pc as usize) < p.code.len()
                && base.unwrap_or(0).saturating_add(nregs) <= nregs_total
                && f.cells.len() >= p.ncells as usize
                && f.args.len() <= limits::MAX_ARGUMENTS
                && f.handlers
                    .iter()
                    .all(|(pc, r)| (*pc as usize) < p.code.len() && (*r as usize) < nregs),
            || "a frame lies outside its function or its registers".into(),
        )?;
        // The running function: a closure of this very function (its captured cells are
        // read through it), or none.
        match f.callee {
            Value::Undefined => check(p.captures.is_empty(), || {
                "a frame runs without its function".into()
            })?,
            Value::Obj(o) => match self.kind(o)? {
                Kind::Function(Func::Closure { prog, func, .. })
                    if *prog == f.prog && *func == f.func => {}
                _ => return Err("a frame runs another function than its own".into()),
            },
            _ => return Err("a frame runs a value that is no function".into()),
        }
        f.cells.iter().try_for_each(|c| self.cell(*c))?;
        self.values(&f.args)?;
        if let Some(o) = f.construct {
            self.obj(o)?;
        }
        self.value(f.new_target)?;
        for (d, v) in &f.conversions {
            self.detour(d)?;
            self.value(*v)?;
        }
        if let Some(d) = &f.converting {
            self.detour(d)?;
        }
        match f.finish {
            Finish::Normal | Finish::Done => {}
            Finish::Coro(c) => self.coro(c)?,
            Finish::Settle(cap) => self.cap(cap)?,
            Finish::Executor { state, promise } => {
                check(matches!(self.kind(state)?, Kind::Resolving(..)), || {
                    "an executor's state is damaged".into()
                })?;
                self.promise(promise)?;
            }
            Finish::Thenable(p) => self.promise(p)?,
        }
        if let Some((_, v)) = f.resumed {
            self.value(v)?;
        }
        Ok(nregs)
    }
}
