//! One running program: the [`Guest`] trait, the [`Budget`] of one run, the [`Step`] it ends
//! with, and what the host hands a guest when it starts ([`Env`], [`StartOptions`]).

use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;

use crate::call::{CallId, HostCall, HostReply};
use crate::kind::GuestError;

/// What one [`Guest::run`] may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Work units (instructions, plus work charged by builtins) before the run yields.
    pub fuel: u32,
    /// `Some` for an inline run (on an async thread): the run yields at this instant at the
    /// latest, and work that would run past it before it changed anything is abandoned and
    /// redone by the next run (which the host makes on the blocking pool, without a soft
    /// deadline). Only a [`Guest::restartable`] guest is given one.
    pub soft_deadline: Option<Instant>,
}

/// How a [`Guest::run`] ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// The budget is spent (fuel, or the soft deadline); run again.
    Yield,
    /// The program started one or more host calls: take them with [`Guest::take_calls`], then
    /// run again.
    Started,
    /// The program waits for a reply to a started call; [`Guest::resolve`] one, then run again.
    Blocked,
    /// The program ended.
    Done {
        /// The result value, exported under the data rules (nothing returned → null).
        value: Value,
        /// `true` when a `return` ran (otherwise the host warns that the value is null).
        returned: bool,
    },
    /// The program failed.
    Error(GuestError),
}

/// One running program. It moves between the host's async driver and blocking-pool threads.
pub trait Guest: Send {
    /// `true` when the guest honours [`Budget::soft_deadline`], so the host may run it inline
    /// on an async thread; a guest that is not restartable always runs on the blocking pool.
    fn restartable(&self) -> bool;
    /// Run until the budget is spent, a call starts, the program blocks, or it ends. After
    /// `Done` or `Error` the guest is finished and must not be run again.
    fn run(&mut self, budget: Budget) -> Step;
    /// The calls started since the last take, in program order.
    fn take_calls(&mut self) -> Vec<HostCall>;
    /// Answer a started call. Cheap: the reply is imported by the next [`Guest::run`], under
    /// its budget. An unknown or already answered id is ignored.
    fn resolve(&mut self, id: CallId, reply: HostReply);
    /// Log lines (`print`, `console.log`) written since the last take.
    fn take_logs(&mut self) -> Vec<String>;
    /// Warnings for the result since the last take (a construct that works but likely not as
    /// meant). None by default.
    fn take_warnings(&mut self) -> Vec<Warning> {
        Vec::new()
    }
    /// Where the program is now (the instruction it would run next, or the call it waits on),
    /// for a timeout the host notices between two runs. None by default.
    fn location(&self) -> Option<crate::kind::Location> {
        None
    }
    /// Bytes the guest holds (its heap, program and pending replies).
    fn memory_used(&self) -> usize;
    /// The guest's whole machine as bytes, for a durable execution: taken when the guest is
    /// suspended on host calls (its last [`Guest::run`] returned [`Step::Started`] or
    /// [`Step::Blocked`], the started calls were taken, and none has been answered yet).
    /// [`Language::restore`](crate::Language::restore) of the same language makes a guest that
    /// waits on the same calls (the same [`CallId`]s) and continues exactly where this one
    /// stopped. The bytes hold the program's own state only: no host object, function or
    /// secret (the guest re-binds tools, extensions and the missing-tool policy from the
    /// [`Env`] it is restored with). Errors (`ExecutionFailure`): the guest does not support
    /// snapshots (the default), or it is not at such a point (running, or inside a builtin's
    /// callback).
    fn snapshot(&self) -> Result<Vec<u8>, GuestError> {
        Err(snapshot_unsupported())
    }
}

/// The error of [`Guest::snapshot`] and [`crate::Language::restore`] for a guest without
/// durable executions.
pub fn snapshot_unsupported() -> GuestError {
    GuestError {
        kind: crate::kind::ErrorKind::ExecutionFailure,
        message: "this guest language cannot snapshot a running program; run it without pausing (answer the call in the hook instead of pausing)".into(),
        location: None,
        suggestions: Vec::new(),
    }
}

/// The encoded machine of a guest's snapshot `bytes`: what follows its 8-byte `magic` and its
/// format version (u32 little-endian), which must be `version`. Errors name the damage in
/// words for a "cannot be restored" message: not a snapshot of `language` (another magic),
/// cut short, another format version.
pub fn snapshot_payload<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    version: u32,
    language: &str,
) -> Result<&'a [u8], String> {
    let Some(rest) = bytes.strip_prefix(magic.as_slice()) else {
        return Err(format!("it is not a {language} snapshot"));
    };
    let Some((found, rest)) = rest.split_first_chunk::<4>() else {
        return Err("it is cut short".into());
    };
    let found = u32::from_le_bytes(*found);
    if found != version {
        return Err(format!(
            "it has format version {found}, and this build reads version {version}"
        ));
    }
    Ok(rest)
}

/// A warning a guest adds to the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// The diagnostic kind it is reported with.
    pub kind: crate::kind::DiagnosticKind,
    /// Model-facing text: what looks wrong and what to write instead.
    pub message: String,
    /// Where in the source, when known.
    pub location: Option<crate::kind::Location>,
}

/// The host's one missing-tool policy, which the guest asks when a program names a tool path
/// that does not exist.
pub trait MissingTool: Send + Sync {
    /// The error for `path` (dotted, without the `tools` prefix): `UnknownTool` with the host's
    /// wording and, when `rank` is true, the nearest tool paths as suggestions (ranking costs
    /// work proportional to the number of tools: the guest charges it and stops asking after a
    /// per-run cap), or `ToolFailure` when `path` lies under a namespace that is unavailable.
    fn missing(&self, path: &str, rank: bool) -> GuestError;
}

/// What the host provides to a program, besides the language's standard library.
#[derive(Clone, Default)]
pub struct Env {
    /// Canonical dotted paths of every callable tool; the `tools` namespace is built from them.
    pub tool_paths: Vec<String>,
    /// Dotted paths of extension functions (`fetch`, `fs.read`); each first segment becomes a
    /// global.
    pub extension_paths: Vec<String>,
    /// The extension paths marked asynchronous: a JavaScript call returns a promise
    /// ([`crate::CallMode::Continue`]); Lua ignores the mark (every call waits).
    pub async_extension_paths: Vec<String>,
    /// The missing-tool policy (`None`: a plain "unknown tool" error without suggestions).
    pub missing: Option<Arc<dyn MissingTool>>,
    /// What the program's clock reads (JavaScript `Date.now()`, `new Date()`).
    pub clock: Clock,
    /// Where the program's random numbers come from (JavaScript `Math.random`, `crypto`).
    pub random: Random,
}

/// The clock a program reads: the host's real time, or one fixed instant for reproducible runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Clock {
    /// The system's time, read at each look.
    #[default]
    System,
    /// Always this instant: milliseconds since 1970-01-01T00:00:00Z (may be negative).
    Fixed(i64),
}

/// The source of a program's random numbers: fresh entropy per run, or a seed for
/// reproducible runs (the same seed gives the same numbers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Random {
    /// Seeded from the operating system's entropy at the start of each run.
    #[default]
    Entropy,
    /// Seeded with this number: every run gives the same sequence.
    Seed(u64),
}

impl std::fmt::Debug for Env {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Env")
            .field("tool_paths", &self.tool_paths.len())
            .field("extension_paths", &self.extension_paths)
            .field("clock", &self.clock)
            .field("random", &self.random)
            .finish_non_exhaustive()
    }
}

/// The per-run bounds a guest is started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartOptions {
    /// Cap on bytes the run holds (program, syntax tree while compiling, heap, logs); `None`:
    /// the guest's own fixed cap.
    pub max_memory_bytes: Option<usize>,
    /// The run's one deadline: the guest checks it itself inside long builtins and fails with
    /// `TimeoutExceeded`; the host stops driving it there too.
    pub deadline: Option<Instant>,
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Plain;
    impl Guest for Plain {
        fn restartable(&self) -> bool {
            false
        }
        fn run(&mut self, _: Budget) -> Step {
            Step::Yield
        }
        fn take_calls(&mut self) -> Vec<HostCall> {
            Vec::new()
        }
        fn resolve(&mut self, _: CallId, _: HostReply) {}
        fn take_logs(&mut self) -> Vec<String> {
            Vec::new()
        }
        fn memory_used(&self) -> usize {
            0
        }
    }

    #[test]
    fn a_snapshot_payload_needs_its_magic_and_version() {
        let mut b = b"CMXXSNAP".to_vec();
        b.extend_from_slice(&3u32.to_le_bytes());
        b.push(7);
        assert_eq!(snapshot_payload(&b, b"CMXXSNAP", 3, "X"), Ok(&[7u8][..]));
        assert_eq!(
            snapshot_payload(&b, b"CMXXSNAP", 4, "X").unwrap_err(),
            "it has format version 3, and this build reads version 4"
        );
        assert_eq!(
            snapshot_payload(&b, b"CMYYSNAP", 3, "Y").unwrap_err(),
            "it is not a Y snapshot"
        );
        assert_eq!(
            snapshot_payload(&b[..10], b"CMXXSNAP", 3, "X").unwrap_err(),
            "it is cut short"
        );
    }

    #[test]
    fn a_guest_without_snapshots_says_so() {
        let e = Plain.snapshot().unwrap_err();
        assert_eq!(e.kind, crate::ErrorKind::ExecutionFailure);
        assert!(e.message.contains("cannot snapshot"), "{}", e.message);
    }
}
