//! The Lua guest behind the host's protocol: [`LuaGuest`] implements
//! [`codemode_guest::Guest`] over a [`Machine`].
//!
//! Every Lua host call suspends the program ([`CallMode::Suspend`]): a run that makes one
//! returns [`GuestStep::Started`], and runs before its reply return [`GuestStep::Blocked`].
//! A run with a soft deadline is an inline stretch ([`Machine::set_inline`]): it runs slices
//! of the budget's fuel until the deadline, a call, the end, or a step that asks for the pool,
//! and returns `Yield` when the host should continue on the blocking pool. A reply too large
//! to import in a stretch is kept for the next run.

use codemode_guest::{Budget, CallId, Guest, HostCall, HostReply, Step as GuestStep};

use crate::{Machine, Step};

/// One Lua run, as the host drives it.
pub struct LuaGuest {
    pub(crate) machine: Machine,
    /// The program's source, kept for a snapshot (which compiles it again on restore).
    pub(crate) source: Option<std::sync::Arc<str>>,
    /// Calls started and not yet taken by the host.
    pub(crate) started: Vec<HostCall>,
    /// The call the program waits on, until its reply arrives.
    pub(crate) waiting: Option<CallId>,
    /// The reply to `waiting`'s call, imported by the next run.
    pub(crate) reply: Option<HostReply>,
    /// Ids of calls refused inside callbacks, handed to the host to count and list (their
    /// error was raised already); an `Abort` reply to one ends the run.
    pub(crate) noted: Vec<CallId>,
    /// The machine's step held back while the host takes the noted calls first.
    pub(crate) held: Option<Step>,
    /// The abort (tool-call limit) a noted call got: the run's end.
    pub(crate) abort: Option<codemode_guest::GuestError>,
}

impl LuaGuest {
    /// Wrap a prepared machine.
    pub fn new(machine: Machine) -> Self {
        LuaGuest {
            machine,
            source: None,
            started: Vec::new(),
            waiting: None,
            reply: None,
            noted: Vec::new(),
            held: None,
            abort: None,
        }
    }

    /// `step`, after the calls the machine refused inside callbacks: when there are some they
    /// go to the host first (`Started`), and a `Done` or `Error` waits for the next run.
    fn after_noted(&mut self, step: Step) -> GuestStep {
        let noted = self.machine.take_noted_calls();
        if noted.is_empty() {
            return self.map(step);
        }
        self.noted.extend(noted.iter().map(|c| c.id));
        self.started.extend(noted);
        match step {
            Step::Yield => GuestStep::Started,
            Step::HostCall(_) => self.map(step),
            Step::Done(_) | Step::Error(_) => {
                self.held = Some(step);
                GuestStep::Started
            }
        }
    }

    fn map(&mut self, step: Step) -> GuestStep {
        match step {
            Step::Yield => GuestStep::Yield,
            Step::HostCall(call) => {
                self.waiting = Some(call.id);
                self.started.push(call);
                GuestStep::Started
            }
            Step::Done(value) => GuestStep::Done {
                value,
                returned: !self.machine.ended_without_return(),
            },
            Step::Error(e) => GuestStep::Error(e),
        }
    }

    /// An inline stretch until `until` (see the module docs).
    fn stretch(&mut self, fuel: u32, until: std::time::Instant) -> GuestStep {
        if let Some(reply) = self.reply.take()
            && let Err(reply) = self.machine.try_resume(reply)
        {
            self.reply = Some(reply);
            return GuestStep::Yield;
        }
        loop {
            let step = self.machine.run(fuel);
            if step == Step::Yield && !self.machine.has_noted_calls() {
                if self.machine.wants_pool() || std::time::Instant::now() >= until {
                    return GuestStep::Yield;
                }
                continue;
            }
            return self.after_noted(step);
        }
    }
}

impl Guest for LuaGuest {
    fn restartable(&self) -> bool {
        true
    }

    fn run(&mut self, budget: Budget) -> GuestStep {
        if let Some(e) = &self.abort {
            return GuestStep::Error(e.clone());
        }
        if self.waiting.is_some() {
            return GuestStep::Blocked;
        }
        if let Some(step) = self.held.take() {
            return self.map(step);
        }
        match budget.soft_deadline {
            Some(until) => {
                self.machine.set_inline(Some(until));
                let step = self.stretch(budget.fuel, until);
                self.machine.set_inline(None);
                step
            }
            None => {
                if let Some(reply) = self.reply.take() {
                    self.machine.resume(reply);
                }
                let step = self.machine.run(budget.fuel);
                self.after_noted(step)
            }
        }
    }

    fn take_calls(&mut self) -> Vec<HostCall> {
        std::mem::take(&mut self.started)
    }

    fn resolve(&mut self, id: CallId, reply: HostReply) {
        if self.waiting == Some(id) {
            self.waiting = None;
            self.reply = Some(reply);
        } else if let Some(i) = self.noted.iter().position(|n| *n == id) {
            self.noted.swap_remove(i);
            if let HostReply::Abort(e) = reply
                && self.abort.is_none()
            {
                self.abort = Some(e);
            }
        }
    }

    fn take_logs(&mut self) -> Vec<String> {
        self.machine.take_logs()
    }

    fn take_warnings(&mut self) -> Vec<codemode_guest::Warning> {
        self.machine.take_warnings()
    }

    fn location(&self) -> Option<codemode_guest::Location> {
        self.machine.location()
    }

    fn memory_used(&self) -> usize {
        self.machine.memory_used()
    }

    fn snapshot(&self) -> Result<Vec<u8>, codemode_guest::GuestError> {
        crate::snapshot::encode(self)
    }
}
