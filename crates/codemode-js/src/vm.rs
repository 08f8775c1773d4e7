//! The machine (placeholder until the VM lands).

use codemode_guest::{Env, ErrorKind, GuestError, StartOptions, Step};

use crate::Program;

/// One execution of a [`Program`].
pub struct Machine {
    logs: Vec<String>,
    len: usize,
}

impl Machine {
    /// Prepare an execution.
    pub fn new(
        program: &Program,
        _env: &Env,
        _options: &StartOptions,
    ) -> Result<Machine, GuestError> {
        Ok(Machine {
            logs: Vec::new(),
            len: program.source_len,
        })
    }

    /// Run at most `fuel` units.
    pub fn run(&mut self, _fuel: u32) -> Step {
        Step::Error(GuestError::new(
            ErrorKind::UnsupportedSyntax,
            "the JavaScript interpreter is not built yet",
        ))
    }

    /// Log lines since the last take.
    pub fn take_logs(&mut self) -> Vec<String> {
        std::mem::take(&mut self.logs)
    }

    /// Bytes held.
    pub fn memory_used(&self) -> usize {
        self.len
    }
}
