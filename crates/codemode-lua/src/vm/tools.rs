//! The `tools` namespace seen from the VM: building a host call's suspension (argument
//! export, refusals), and the errors of a missing tool (the host's [`MissingTool`] policy,
//! remembered misses, unavailable namespaces, calling a namespace).

use super::*;

impl Vm {
    /// If register `reg` got its nil from a missed `tools` lookup, the UnknownTool error for
    /// `path` (+ `extra` segment).
    pub(super) fn unknown_tool_for(&self, reg: u8, extra: Option<String>) -> Option<Throw> {
        let m = self.miss.as_ref()?;
        let f = self.frames.last()?;
        if m.depth != self.frames.len() {
            return None;
        }
        let p = &self.prog.protos[f.proto as usize];
        let pc = f.pc.saturating_sub(1);
        let setpc = find_setreg(p, pc, reg)?;
        if setpc != m.pc {
            return None;
        }
        let path = match extra {
            Some(x) => format!("{}.{}", m.path, x),
            None => {
                if let Some(msg) = &m.unavailable {
                    // Positioned where the lookup was written (`tools.down.x`), as before.
                    let location = p.pos.get(m.pc).map(|pos| Location {
                        line: pos.line,
                        column: pos.column,
                    });
                    let t = Throw::with_kind(ErrorKind::ToolFailure, msg.clone());
                    return Some(t.with(|d| d.location = location));
                }
                m.path.clone()
            }
        };
        Some(self.unknown_tool(&path))
    }

    /// Indexing the nil of a missed `tools` lookup in register `reg` with `key`
    /// (`tools.down.x` where namespace `down` is unavailable): when the extended path lies under
    /// an unavailable namespace, remember it (with the ToolFailure message) for the instruction
    /// before `pc` and yield nil, so the error is raised when the value is called and
    /// `pcall(tools.down.x, {})` catches it like an unknown tool.
    pub(super) fn defer_unavailable(&mut self, reg: u8, key: &str, fi: usize, pc: usize) -> bool {
        let Some(f) = self.missing.as_ref() else {
            return false;
        };
        let Some(m) = self.miss.as_ref() else {
            return false;
        };
        let Some(fr) = self.frames.last() else {
            return false;
        };
        if m.depth != self.frames.len() || m.depth != fi + 1 {
            return false;
        }
        let p = &self.prog.protos[fr.proto as usize];
        let cur = pc.saturating_sub(1);
        if find_setreg(p, cur, reg) != Some(m.pc) {
            return false;
        }
        let path = format!("{}.{}", m.path, key);
        let e = f.missing(&path, false);
        if e.kind != ErrorKind::ToolFailure {
            return false;
        }
        let msg = e.message;
        self.miss = Some(Miss {
            depth: fi + 1,
            pc: cur,
            path,
            unavailable: Some(msg),
        });
        true
    }

    /// Calling a namespace (`tools.orders(...)`): say which tools it holds.
    pub(super) fn namespace_call_error(&self, h: HostRef) -> Throw {
        let obj = self.heap.host(h);
        let mut names: Vec<String> = obj
            .children
            .iter()
            .take(5)
            .map(|(k, _)| self.heap.str_lossy(*k))
            .collect();
        names.sort();
        let path = if obj.path.is_empty() {
            "tools".to_string()
        } else {
            format!("tools.{}", obj.path)
        };
        let example = names
            .first()
            .map(|n| format!(" (e.g. {}.{}({{ ... }}))", path, n))
            .unwrap_or_default();
        Throw::msg(format!(
            "{} is a namespace, not a tool; call one of its tools{}; it contains: {}",
            path,
            example,
            names.join(", ")
        ))
    }

    /// The error for calling the missing tool `path`, in the host's words ([`MissingTool`]):
    /// `UnknownTool` with suggestions (ranked for the first [`limits::MAX_SUGGESTION_LOOKUPS`]
    /// errors of the run only), or `ToolFailure` under an unavailable namespace.
    pub(super) fn unknown_tool(&self, path: &str) -> Throw {
        let Some(missing) = &self.missing else {
            return Throw::with_kind(
                ErrorKind::UnknownTool,
                format!("unknown tool 'tools.{path}': no tool has this path"),
            );
        };
        let lookups = self
            .suggest_lookups
            .load(std::sync::atomic::Ordering::Relaxed);
        let rank = lookups < limits::MAX_SUGGESTION_LOOKUPS;
        if rank {
            self.suggest_lookups
                .store(lookups + 1, std::sync::atomic::Ordering::Relaxed);
        }
        let e = missing.missing(path, rank);
        let mut t = Throw::with_kind(e.kind, e.message);
        if let Some(d) = t.error_mut() {
            d.suggestions = e.suggestions;
        }
        t
    }

    /// Build the suspension for a host function call.
    pub(super) fn host_call(
        &mut self,
        h: HostRef,
        func: usize,
        nargs: usize,
    ) -> VmResult<HostCall> {
        let obj = self.heap.host(h).clone();
        let target = match obj.kind {
            HostKind::Node { .. } => HostTarget::Tool(obj.path.clone()),
            HostKind::Search => HostTarget::Search,
            HostKind::Extension => HostTarget::Extension(obj.path.clone()),
        };
        if let Some(name) = self.nested.last() {
            let what = match &target {
                HostTarget::Tool(p) => format!("a tool (tools.{})", p),
                HostTarget::Search => "search".to_string(),
                HostTarget::Extension(p) => format!("'{}'", p),
            };
            let direct = match &target {
                HostTarget::Tool(p) => format!("tools.{p}"),
                HostTarget::Search => "search".to_string(),
                HostTarget::Extension(p) => p.clone(),
            };
            let message = match *name {
                "pcall" | "xpcall" if self.handler_depth == 0 => format!(
                    "cannot call {what} through {name}({name}, ...): write pcall({direct}, input) directly"
                ),
                "xpcall" => format!(
                    "cannot call {what} from inside an xpcall message handler; call it in the protected function and handle its result there"
                ),
                "sort" => format!(
                    "cannot call {what} from inside a sort callback; call it before sorting and compare the results"
                ),
                "gsub" => format!(
                    "cannot call {what} from inside a gsub callback; collect the matches first (e.g. with gmatch), call it for each, then substitute"
                ),
                _ => format!(
                    "cannot call {what} from inside a {name} callback; call it outside and use the results"
                ),
            };
            let location = self.current_location();
            self.note_refused(target, refusal(Throw::msg(message.clone()), location));
            return Err(Throw::msg(message));
        }
        if let (HostTarget::Tool(p), true) = (&target, nargs >= 1)
            && matches!(self.stack[func + 1], Value::HostNs(_) | Value::HostFn(_))
        {
            let (ns, name) = p.rsplit_once('.').unwrap_or(("", p));
            return Err(Throw::msg(format!(
                "tools are called with '.', not ':': write tools.{}.{}({{ ... }}) instead of tools.{}:{}(...)",
                ns, name, ns, name
            )));
        }
        let mut n = nargs;
        while n > 0 && self.stack[func + n].is_nil() {
            n -= 1;
        }
        let mut args = Vec::with_capacity(n);
        let mut exported_bytes = 0usize;
        for i in 0..n {
            let v = self.stack[func + 1 + i];
            let root = if n == 1 {
                "input".to_string()
            } else {
                format!("argument #{}", i + 1)
            };
            let mut work = 0u64;
            let exported = crate::boundary::export_counted(
                &self.heap,
                v,
                &root,
                &mut work,
                &mut exported_bytes,
            );
            self.heap.meter.fuel -= work as i64;
            match exported {
                Ok(j) => args.push(j),
                // An argument that cannot cross (a function, a cycle): the call is refused, but
                // it still reaches the host as an attempt, counted and listed (issue 10).
                Err(e) if e.error().is_some_and(|d| d.catchable) => {
                    for j in args.drain(..) {
                        crate::boundary::drop_json(j);
                    }
                    let location = self.current_location();
                    return Ok(HostCall {
                        id: CallId(0),
                        target,
                        args,
                        location,
                        mode: CallMode::Suspend,
                        refused: Some(refusal(e, location)),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        let location = self.current_location();
        Ok(HostCall {
            id: CallId(0),
            target,
            args,
            location,
            mode: CallMode::Suspend,
            refused: None,
        })
    }

    /// A host call refused inside a builtin's callback, where the machine cannot suspend: kept
    /// for the host to count and list ([`crate::Machine::take_noted_calls`]), at most
    /// [`limits::MAX_NOTED_CALLS`] between two steps (later ones are raised but not handed on).
    pub(super) fn note_refused(&mut self, target: HostTarget, refused: GuestError) {
        if self.noted.len() >= limits::MAX_NOTED_CALLS {
            return;
        }
        let location = refused.location.or_else(|| self.current_location());
        self.noted.push(HostCall {
            id: CallId(0),
            target,
            args: Vec::new(),
            location,
            mode: CallMode::Continue,
            refused: Some(refused),
        });
    }

    /// Charge the work of an unknown-tool error: the host compared the path with each tool.
    pub(super) fn charge_unknown_tool(&mut self) {
        let n = (self.tool_count as i64).saturating_add(1);
        self.heap.meter.fuel -= n.saturating_mul(limits::SUGGESTION_FUEL_PER_TOOL);
    }

    /// A call of the nil in the stack slot `func` that came from a missed `tools` lookup:
    /// `Some` refused host call for the unknown path (the host counts the attempt and answers
    /// with the error), with the pending reply set to land at `dest`. `None` when the nil did
    /// not come from `tools`; `Err` for a path under an unavailable namespace (raised as is).
    pub(super) fn refuse_unknown_call(
        &mut self,
        reg: u8,
        dest: usize,
        nresults: i32,
        pcall: bool,
    ) -> VmResult<Option<HostCall>> {
        let Some(e) = self.unknown_tool_for(reg, None) else {
            return Ok(None);
        };
        self.charge_unknown_tool();
        let counted = e
            .error()
            .is_some_and(|d| matches!(d.kind, ErrorKind::UnknownTool | ErrorKind::ToolFailure));
        if !counted {
            return Err(e);
        }
        if !self.nested.is_empty() {
            // Inside a builtin's callback (a sort comparator, a gsub function) no host call
            // can suspend the machine: the error is raised here, and the attempt is handed to
            // the host to count and list with the next step.
            let path = self
                .miss
                .as_ref()
                .map(|m| m.path.clone())
                .unwrap_or_default();
            let location = e
                .error()
                .and_then(|d| d.location)
                .or_else(|| self.current_location());
            let g = refusal(e, location);
            let mut t = Throw::with_kind(g.kind, g.message.clone());
            if let Some(d) = t.error_mut() {
                d.suggestions = g.suggestions.clone();
                d.location = g.location;
            }
            self.note_refused(HostTarget::Tool(path), g);
            return Err(t);
        }
        let path = self
            .miss
            .as_ref()
            .map(|m| m.path.clone())
            .unwrap_or_default();
        let here = self.current_location();
        // An unavailable namespace is blamed where the lookup was written (`tools.down.x`).
        let at = e.error().and_then(|d| d.location).or(here);
        let location = if pcall { None } else { at };
        self.pending = Some(Pending {
            dest,
            nresults,
            pcall,
            handler: false,
            location,
            refused: true,
        });
        Ok(Some(HostCall {
            id: CallId(0),
            target: HostTarget::Tool(path),
            args: Vec::new(),
            // Where the call is, also under `pcall` (a limit error names it).
            location: here,
            mode: CallMode::Suspend,
            refused: Some(refusal(e, location)),
        }))
    }
}

/// The [`GuestError`] a refused host call carries (see [`HostCall::refused`]).
pub(super) fn refusal(e: Throw, location: Option<Location>) -> GuestError {
    GuestError {
        location,
        ..crate::guest_error(None, e)
    }
}
