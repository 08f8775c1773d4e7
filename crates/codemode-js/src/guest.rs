//! The JavaScript guest behind the host's protocol: [`JsGuest`] implements
//! [`codemode_guest::Guest`] over a [`Machine`].
//!
//! A run spends its budget's fuel in the machine's one dispatch loop and returns `Yield`,
//! `Started` (calls to take: tool calls run on while the program goes on, `search` and
//! extension calls suspend it), `Blocked` (everything left waits for a reply), `Done` or
//! `Error`. Replies are imported at the start of the next run.

use codemode_guest::{
    Budget, CallId, Env, Guest, GuestError, HostCall, HostReply, StartOptions, Step,
};

use crate::machine::Machine;

/// One JavaScript run, as the host drives it.
pub struct JsGuest {
    machine: Machine,
}

impl JsGuest {
    /// Check, parse, lower and compile `source`, and prepare a machine for it. Errors:
    /// ParseError (blank source, size or nesting bounds, syntax), UnsupportedSyntax (outside
    /// the subset), ExecutionFailure (memory limit while compiling), each located.
    pub fn start(source: &str, env: &Env, options: &StartOptions) -> Result<JsGuest, GuestError> {
        let program = crate::compile(source)?;
        let machine = Machine::new(&program, env, options)?;
        Ok(JsGuest { machine })
    }

    /// A guest from the bytes of [`Guest::snapshot`] (`snapshot.rs`): it waits on the same
    /// calls. Errors: ExecutionFailure naming what is damaged.
    pub fn restore(bytes: &[u8], env: &Env, options: &StartOptions) -> Result<JsGuest, GuestError> {
        let machine = crate::snapshot::decode(bytes, env, options)?;
        Ok(JsGuest { machine })
    }

    /// The machine underneath (for the crate's tests).
    pub fn machine(&mut self) -> &mut Machine {
        &mut self.machine
    }
}

impl Guest for JsGuest {
    fn restartable(&self) -> bool {
        // An inline run (with a soft deadline) is a short slice of fuel; what could take long
        // (a collection, a native over a large value, a large import or export) yields first
        // and runs on the pool (`Machine::run_with`).
        true
    }

    fn run(&mut self, budget: Budget) -> Step {
        self.machine
            .run_with(budget.fuel, budget.soft_deadline.is_some())
    }

    fn take_calls(&mut self) -> Vec<HostCall> {
        self.machine.take_calls()
    }

    fn resolve(&mut self, id: CallId, reply: HostReply) {
        self.machine.resolve(id, reply)
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

    fn snapshot(&self) -> Result<Vec<u8>, GuestError> {
        crate::snapshot::encode(&self.machine)
    }
}
