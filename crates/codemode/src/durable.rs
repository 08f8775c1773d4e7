//! Durable executions: an execution paused at a host call, as bytes, and resumed later.
//!
//! A call to a tool marked with [`crate::Options::pause_on`] (or one a hook's
//! [`crate::Hooks::pause_before`] answers `true` for) is admitted as usual (counted, its input
//! checked and listed), but not run: once the program waits for it and nothing else is in
//! flight, `execute` returns a result with [`crate::ExecutionResult::paused`] set: the
//! [`PendingCall`]s, the record and logs so far, and a [`Snapshot`]. [`crate::CodeMode::resume`]
//! with a [`Reply`] per pending call continues the program exactly where it stopped.
//!
//! ## The snapshot's bytes
//! ```text
//! "CODEMODE" | format version: u32 LE | flags: u8 (bit 0: signed)
//! | postcard(Envelope { id, language, catalog hash, host state, guest bytes })
//! | HMAC-SHA256 tag (32 bytes) when signed, else a SHA-256 digest (32 bytes) of what precedes
//! ```
//! The catalog hash is SHA-256 over every tool's path, input and output schema and every
//! extension path: a runtime with other tools (added, removed, other schemas) refuses the
//! snapshot. The host state is the attempt count, the `toolCalls` record, the logs and
//! warnings so far, the input budget left, the execution time used (paused time is not
//! counted: the resumed run gets the rest of `timeout_ms`), and the limits the execution ran
//! under (a resume runs under the stricter of those and its runtime's, so a resume never lifts
//! a limit). The guest bytes are the guest's
//! own ([`codemode_guest::Guest::snapshot`]). No handler, hook, key or secret is inside; a
//! snapshot is as large as the guest's heap (bounded by `max_memory_bytes`).
//!
//! ## Integrity and single use
//! An unsigned snapshot ends with a SHA-256 digest of its bytes, so accidental damage (a bit
//! flipped on disk or in transit) is refused; it does not stop a deliberate edit, which
//! recomputes the digest. With [`crate::Options::snapshot_key`] every snapshot is signed, and
//! an unsigned or wrongly signed one is refused. Each snapshot carries a random 16-byte [`Snapshot::id`]; resuming
//! through a [`SnapshotStore`] ([`crate::CodeMode::resume_once`]) claims the id first, so a
//! second resume of the same snapshot is refused. [`MemoryStore`] keeps claimed ids in memory
//! (one process); a host that resumes in several processes implements the trait over its
//! database. [`crate::CodeMode::resume`] alone does not enforce single use.

use std::collections::HashSet;
use std::sync::Mutex;

use hmac::{KeyInit, Mac};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::result::{Diagnostic, DiagnosticKind, Location, ToolCallRecord, ToolCallStatus};

/// The first bytes of every snapshot.
const MAGIC: &[u8; 8] = b"CODEMODE";
/// The snapshot format this build writes and reads.
pub const SNAPSHOT_FORMAT_VERSION: u32 = 2;
/// Bytes of the trailer: the HMAC-SHA256 tag of a signed snapshot, the SHA-256 digest of an
/// unsigned one.
const TAG_BYTES: usize = 32;
/// Bytes of the prefix: magic, version, flags.
const PREFIX_BYTES: usize = 8 + 4 + 1;

/// An execution paused at host calls, as opaque bytes (see the module docs for the layout).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    bytes: Vec<u8>,
    id: [u8; 16],
}

impl Snapshot {
    /// The bytes, to store or send anywhere.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The bytes, owned.
    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    /// A snapshot from stored bytes. Nothing is checked until [`crate::CodeMode::resume`];
    /// the id is read from the bytes when they have one (else all zeros).
    pub fn from_bytes(bytes: Vec<u8>) -> Snapshot {
        let id = peek_id(&bytes).unwrap_or([0; 16]);
        Snapshot { bytes, id }
    }

    /// The random id that makes this snapshot single-use through a [`SnapshotStore`].
    pub fn id(&self) -> [u8; 16] {
        self.id
    }

    /// [`Snapshot::id`] as 32 lowercase hex digits (how the Python and Node packages show it).
    pub fn id_hex(&self) -> String {
        self.id.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// The id written by [`Snapshot::id_hex`] (either case); `None` for anything but 32 hex
    /// digits.
    pub fn id_from_hex(hex: &str) -> Option<[u8; 16]> {
        if hex.len() != 32 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let mut id = [0u8; 16];
        for (i, b) in id.iter_mut().enumerate() {
            *b = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(id)
    }

    /// The ids of the calls the snapshot waits on, read without any check (for a host that
    /// answers without keeping the paused result, such as `codemode resume`); empty when the
    /// bytes do not decode. [`crate::CodeMode::resume`] checks everything.
    pub fn pending_ids(&self) -> Vec<u64> {
        self.envelope()
            .map(|e| e.pending.iter().map(|p| p.id).collect())
            .unwrap_or_default()
    }

    /// The name of the language of the paused program (`"Lua"`, `"JavaScript"`: a
    /// [`crate::Language`]'s name), read without any check like [`Snapshot::pending_ids`];
    /// `None` when the bytes do not decode.
    pub fn language(&self) -> Option<String> {
        self.envelope().map(|e| e.language)
    }

    /// The envelope, decoded without any check.
    fn envelope(&self) -> Option<Envelope> {
        let body = self.bytes.get(PREFIX_BYTES..)?;
        let body = &body[..body.len().saturating_sub(TAG_BYTES)];
        postcard::take_from_bytes::<Envelope>(body)
            .ok()
            .map(|(e, _)| e)
    }
}

/// A call the paused program waits on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingCall {
    /// The call's id: the key of its [`Reply`] in [`crate::CodeMode::resume`].
    pub id: u64,
    /// The tool's canonical path.
    pub name: String,
    /// The validated input (as listed in `toolCalls`).
    pub input: Value,
    /// Where the call is in the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
}

/// What a paused execution returns besides its record and logs.
#[derive(Clone, Debug, PartialEq)]
pub struct Paused {
    /// The calls it waits on, in program order.
    pub pending: Vec<PendingCall>,
    /// The execution, to resume with [`crate::CodeMode::resume`].
    pub snapshot: Snapshot,
}

/// The host's answer to a pending call when resuming.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// Approved: run the tool now (its `tool_before` hook, handler and output checks), under
    /// the resumed execution's deadline.
    Run,
    /// The call returns this value (the host answered it itself); listed as `success`. It
    /// must meet the tool's output schema and output bounds, as the tool's own output would;
    /// else the resume is refused.
    Value(Value),
    /// The call fails with this message (catchable `ToolFailure`); listed as `failure`.
    Error(String),
    /// The call is denied with this message (catchable `ToolFailure`); listed as `denied`.
    Deny(String),
}

/// What [`Reply::from_json`] accepts, for its error messages.
const REPLY_SHAPES: &str =
    r#""run" (or {"approve": true}), {"value": V}, {"error": "message"} or {"deny": "message"}"#;

impl Reply {
    /// A reply written as JSON, the shape the Python and Node packages take (and `codemode
    /// resume --reply`): `"run"`, `{"run": true}` or `{"approve": true}` ([`Reply::Run`]),
    /// `{"value": V}`, `{"error": "message"}`, `{"deny": "message"}`. Errors: what is wrong and
    /// the shapes to write instead.
    pub fn from_json(reply: &Value) -> Result<Reply, String> {
        let bad = |why: &str| format!("{why}; write {REPLY_SHAPES}");
        match reply {
            Value::String(s) if s == "run" => Ok(Reply::Run),
            Value::Object(m) if m.len() == 1 => {
                let (key, v) = m.iter().next().expect("one entry");
                let text = |v: &Value| match v {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(bad(&format!("the reply's \"{key}\" is not a string"))),
                };
                match key.as_str() {
                    "run" | "approve" if *v == Value::Bool(true) => Ok(Reply::Run),
                    "run" | "approve" => Err(bad(&format!(
                        "the reply's \"{key}\" is not true (to refuse the call write {{\"deny\": \"reason\"}})"
                    ))),
                    "value" => Ok(Reply::Value(v.clone())),
                    "error" => text(v).map(Reply::Error),
                    "deny" => text(v).map(Reply::Deny),
                    _ => Err(bad(&format!("the reply has the unknown key \"{key}\""))),
                }
            }
            Value::Object(_) => Err(bad("a reply object has exactly one key")),
            other => Err(bad(&format!("{other} is not a reply"))),
        }
    }
}

/// Keeps snapshots single-use (see the module docs).
pub trait SnapshotStore: Send + Sync {
    /// Claim `id` for one resume. `Err(message)`: it was claimed before (or cannot be
    /// claimed); the resume is refused with that message.
    fn claim(&self, id: [u8; 16]) -> Result<(), String>;
}

/// A [`SnapshotStore`] in memory: every id can be claimed once in this process.
#[derive(Debug, Default)]
pub struct MemoryStore {
    claimed: Mutex<HashSet<[u8; 16]>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }
}

impl SnapshotStore for MemoryStore {
    fn claim(&self, id: [u8; 16]) -> Result<(), String> {
        let mut claimed = self.claimed.lock().unwrap_or_else(|e| e.into_inner());
        if claimed.insert(id) {
            Ok(())
        } else {
            Err("This snapshot was resumed already: a snapshot continues once. Resume the snapshot the later pause returned, or run the program again.".into())
        }
    }
}

/// Check that every path of `paths` (for [`crate::Options::pause_on`]) names a tool of
/// `tools`: one that does not would pause nothing, and the tool meant would run unapproved.
/// Errors: the first such path, with the tools there are.
pub fn check_pause_paths(tools: &crate::ToolTree, paths: &[String]) -> Result<(), String> {
    let Some(path) = paths.iter().find(|p| tools.get(p).is_none()) else {
        return Ok(());
    };
    let mut known: Vec<&str> = tools.tools().map(|e| e.path.as_str()).collect();
    known.sort_unstable();
    Err(format!(
        "no tool has the path '{path}', so nothing would pause; give a tool's full path (the tools: {})",
        if known.is_empty() {
            "none".to_string()
        } else {
            known.join(", ")
        }
    ))
}

/// SHA-256 of what a snapshot depends on in the host: every tool's path and schemas (sorted
/// by path) and the extension paths.
pub(crate) fn catalog_hash(tree: &crate::ToolTree, extension_paths: &[String]) -> [u8; 32] {
    let mut h = Sha256::new();
    for entry in tree.tools() {
        h.update(entry.path.as_bytes());
        h.update([0]);
        h.update(entry.tool.input_schema().to_string().as_bytes());
        h.update([0]);
        if let Some(out) = entry.tool.output_schema() {
            h.update(out.to_string().as_bytes());
        }
        h.update([1]);
    }
    for p in extension_paths {
        h.update(p.as_bytes());
        h.update([2]);
    }
    h.finalize().into()
}

/// A record entry as plain data (inputs as JSON text: the encoding has no self-describing
/// values).
#[derive(Serialize, Deserialize)]
pub(crate) struct RecordImage {
    name: String,
    input: String,
    status: u8,
}

impl RecordImage {
    fn of(r: &ToolCallRecord) -> Self {
        RecordImage {
            name: r.name.clone(),
            input: r.input.to_string(),
            status: match r.status {
                ToolCallStatus::Success => 0,
                ToolCallStatus::Failure => 1,
                ToolCallStatus::Interrupted => 2,
                ToolCallStatus::Denied => 3,
            },
        }
    }

    fn into_record(self) -> Result<ToolCallRecord, String> {
        Ok(ToolCallRecord {
            name: self.name,
            input: serde_json::from_str(&self.input).map_err(|e| e.to_string())?,
            status: match self.status {
                0 => ToolCallStatus::Success,
                1 => ToolCallStatus::Failure,
                2 => ToolCallStatus::Interrupted,
                3 => ToolCallStatus::Denied,
                _ => return Err("a call has an unknown status".into()),
            },
        })
    }
}

/// A diagnostic as plain data.
#[derive(Serialize, Deserialize)]
struct DiagnosticImage {
    kind: DiagnosticKind,
    message: String,
    location: Option<Location>,
    suggestions: Vec<String>,
}

/// A pending call as plain data, with its record entry.
#[derive(Serialize, Deserialize)]
pub(crate) struct PendingImage {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) input: String,
    pub(crate) location: Option<Location>,
    pub(crate) index: usize,
}

/// The host's side of a paused execution.
#[derive(Default)]
pub(crate) struct HostState {
    pub(crate) attempts: u64,
    pub(crate) tool_calls: Vec<ToolCallRecord>,
    pub(crate) input_budget: usize,
    pub(crate) inputs_cut: bool,
    pub(crate) logs: Vec<String>,
    pub(crate) log_bytes: usize,
    pub(crate) logs_dropped: usize,
    pub(crate) warnings: Vec<Diagnostic>,
    /// Execution time used so far, in microseconds.
    pub(crate) elapsed_us: u64,
    pub(crate) pending: Vec<(PendingCall, usize)>,
    /// The limits the execution ran under: `(timeout_ms, max_tool_calls, max_output_bytes,
    /// max_memory_bytes)`. A resume runs under the stricter of these and its runtime's.
    pub(crate) limits: Option<(u64, u64, u64, Option<u64>)>,
}

#[derive(Serialize, Deserialize)]
struct Envelope {
    id: [u8; 16],
    language: String,
    catalog: [u8; 32],
    attempts: u64,
    tool_calls: Vec<RecordImage>,
    input_budget: usize,
    inputs_cut: bool,
    logs: Vec<String>,
    log_bytes: usize,
    logs_dropped: usize,
    warnings: Vec<DiagnosticImage>,
    elapsed_us: u64,
    pending: Vec<PendingImage>,
    limits: Option<(u64, u64, u64, Option<u64>)>,
    guest: Vec<u8>,
}

/// A refusal to resume: an `ExecutionFailure` naming why.
pub(crate) fn refused(why: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        format!("The snapshot cannot be resumed: {why}."),
    )
}

/// The id inside `bytes`, if they decode that far.
fn peek_id(bytes: &[u8]) -> Option<[u8; 16]> {
    let body = bytes.get(PREFIX_BYTES..)?;
    let (id, _) = postcard::take_from_bytes::<[u8; 16]>(body).ok()?;
    Some(id)
}

fn mac(key: &[u8]) -> hmac::Hmac<Sha256> {
    <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes keys of any length")
}

/// Encode a paused execution.
pub(crate) fn encode(
    language: &str,
    catalog: [u8; 32],
    host: &HostState,
    guest: Vec<u8>,
    key: Option<&[u8]>,
) -> Result<Snapshot, Diagnostic> {
    let mut id = [0u8; 16];
    getrandom::fill(&mut id).map_err(|e| {
        Diagnostic::new(
            DiagnosticKind::ExecutionFailure,
            format!("The execution cannot be paused: no random id for its snapshot ({e})."),
        )
    })?;
    let env = Envelope {
        id,
        language: language.to_string(),
        catalog,
        attempts: host.attempts,
        tool_calls: host.tool_calls.iter().map(RecordImage::of).collect(),
        input_budget: host.input_budget,
        inputs_cut: host.inputs_cut,
        logs: host.logs.clone(),
        log_bytes: host.log_bytes,
        logs_dropped: host.logs_dropped,
        warnings: host
            .warnings
            .iter()
            .map(|d| DiagnosticImage {
                kind: d.kind,
                message: d.message.clone(),
                location: d.location,
                suggestions: d.suggestions.clone(),
            })
            .collect(),
        elapsed_us: host.elapsed_us,
        pending: host
            .pending
            .iter()
            .map(|(p, index)| PendingImage {
                id: p.id,
                name: p.name.clone(),
                input: p.input.to_string(),
                location: p.location,
                index: *index,
            })
            .collect(),
        limits: host.limits,
        guest,
    };
    let mut bytes = MAGIC.to_vec();
    bytes.extend_from_slice(&SNAPSHOT_FORMAT_VERSION.to_le_bytes());
    bytes.push(key.is_some() as u8);
    let mut bytes = postcard::to_extend(&env, bytes).map_err(|e| {
        Diagnostic::new(
            DiagnosticKind::ExecutionFailure,
            format!("The execution cannot be paused: encoding its snapshot failed ({e})."),
        )
    })?;
    match key {
        Some(key) => {
            let mut m = mac(key);
            m.update(&bytes);
            bytes.extend_from_slice(&m.finalize().into_bytes());
        }
        None => {
            let digest: [u8; 32] = Sha256::digest(&bytes).into();
            bytes.extend_from_slice(&digest);
        }
    }
    Ok(Snapshot { bytes, id })
}

/// A decoded snapshot: the host state and the guest's bytes.
pub(crate) struct Decoded {
    pub(crate) host: HostState,
    pub(crate) guest: Vec<u8>,
}

/// Decode and check a snapshot against this runtime (language, catalog, key). Errors: the
/// refusal, saying why.
pub(crate) fn decode(
    bytes: &[u8],
    language: &str,
    catalog: [u8; 32],
    key: Option<&[u8]>,
) -> Result<Decoded, Diagnostic> {
    if bytes.len() < PREFIX_BYTES || &bytes[..8] != MAGIC {
        return Err(refused("these bytes are not a codemode snapshot"));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != SNAPSHOT_FORMAT_VERSION {
        return Err(refused(format_args!(
            "it has format version {version}, and this runtime reads version {SNAPSHOT_FORMAT_VERSION}; run the program again from the start"
        )));
    }
    let signed = match bytes[12] {
        0 => false,
        1 => true,
        _ => return Err(refused("its header is damaged")),
    };
    if bytes.len() < PREFIX_BYTES + TAG_BYTES {
        return Err(refused("it is cut short"));
    }
    let body = match (signed, key) {
        (true, Some(key)) => {
            let (signed_part, tag) = bytes.split_at(bytes.len() - TAG_BYTES);
            let mut m = mac(key);
            m.update(signed_part);
            if m.verify_slice(tag).is_err() {
                return Err(refused(
                    "its signature does not match this runtime's key (it was altered, or signed with another key)",
                ));
            }
            &signed_part[PREFIX_BYTES..]
        }
        (true, None) => {
            return Err(refused(
                "it is signed, and this runtime has no snapshot key; resume it with the key it was signed with (Options::snapshot_key; --snapshot-key-file for the codemode command)",
            ));
        }
        (false, Some(_)) => {
            return Err(refused(
                "it is not signed, and this runtime accepts signed snapshots only",
            ));
        }
        (false, None) => {
            let (part, digest) = bytes.split_at(bytes.len() - TAG_BYTES);
            if Sha256::digest(part).as_slice() != digest {
                return Err(refused(
                    "it is damaged: its checksum does not match (the bytes were changed or corrupted after the pause); run the program again from the start",
                ));
            }
            &part[PREFIX_BYTES..]
        }
    };
    let (env, rest): (Envelope, &[u8]) =
        postcard::take_from_bytes(body).map_err(|_| refused("it is damaged or cut short"))?;
    if !rest.is_empty() {
        return Err(refused("bytes follow its end"));
    }
    if env.language != language {
        return Err(refused(format_args!(
            "it was taken from a {} program, and this runtime runs {language}",
            env.language
        )));
    }
    if env.catalog != catalog {
        return Err(refused(
            "it was taken against other tools (tools were added, removed, or their schemas changed); resume it with the tools it was paused with (the same --tools manifests for the codemode command), or run the program again from the start",
        ));
    }
    let bad = |_| refused("it is damaged");
    let tool_calls = env
        .tool_calls
        .into_iter()
        .map(RecordImage::into_record)
        .collect::<Result<Vec<_>, _>>()
        .map_err(bad)?;
    let mut pending = Vec::with_capacity(env.pending.len().min(64));
    let mut ids = HashSet::new();
    for p in env.pending {
        let input: Value = serde_json::from_str(&p.input).map_err(|_| refused("it is damaged"))?;
        // The pending call and its record entry are written together: they must agree.
        let agrees = tool_calls.get(p.index).is_some_and(|r| {
            r.name == p.name
                && r.status == ToolCallStatus::Interrupted
                && (r.input == input
                    || r.input == crate::result::omitted_input(crate::result::json_len(&input)))
        });
        if !agrees || !ids.insert(p.id) {
            return Err(refused("it is damaged"));
        }
        pending.push((
            PendingCall {
                id: p.id,
                name: p.name,
                input,
                location: p.location,
            },
            p.index,
        ));
    }
    if pending.is_empty() {
        return Err(refused("it waits on no call"));
    }
    Ok(Decoded {
        host: HostState {
            attempts: env.attempts,
            tool_calls,
            input_budget: env.input_budget,
            inputs_cut: env.inputs_cut,
            logs: env.logs,
            log_bytes: env.log_bytes,
            logs_dropped: env.logs_dropped,
            warnings: env
                .warnings
                .into_iter()
                .map(|d| Diagnostic {
                    kind: d.kind,
                    message: d.message,
                    location: d.location,
                    suggestions: d.suggestions,
                })
                .collect(),
            elapsed_us: env.elapsed_us,
            limits: env.limits,
            pending,
        },
        guest: env.guest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> HostState {
        HostState {
            pending: vec![(
                PendingCall {
                    id: 1,
                    name: "a.b".into(),
                    input: serde_json::json!({"x": 1}),
                    location: None,
                },
                0,
            )],
            tool_calls: vec![ToolCallRecord {
                name: "a.b".into(),
                input: serde_json::json!({"x": 1}),
                status: ToolCallStatus::Interrupted,
            }],
            ..HostState::default()
        }
    }

    #[test]
    fn another_language_is_refused() {
        let snap = encode("GuestB", [7; 32], &state(), vec![1, 2], None).unwrap();
        let e = decode(snap.as_bytes(), "GuestA", [7; 32], None)
            .err()
            .unwrap();
        assert_eq!(
            e.message,
            "The snapshot cannot be resumed: it was taken from a GuestB program, and this runtime runs GuestA."
        );
        let d = decode(snap.as_bytes(), "GuestB", [7; 32], None)
            .ok()
            .unwrap();
        assert_eq!(d.guest, vec![1, 2]);
        assert_eq!(d.host.pending[0].0.input, serde_json::json!({"x": 1}));
    }

    #[test]
    fn the_id_is_read_back_from_the_bytes() {
        let snap = encode("GuestA", [0; 32], &state(), vec![], Some(b"k")).unwrap();
        assert_eq!(snap.pending_ids(), vec![1]);
        assert_eq!(
            Snapshot::from_bytes(b"CODEMODE".to_vec()).pending_ids(),
            Vec::<u64>::new()
        );
        assert_eq!(
            Snapshot::from_bytes(snap.as_bytes().to_vec()).id(),
            snap.id()
        );
        assert_ne!(snap.id(), [0; 16]);
    }

    #[test]
    fn a_pending_call_must_agree_with_its_record_entry() {
        let mut bad_name = state();
        bad_name.pending[0].0.name = "a.c".into();
        let mut bad_input = state();
        bad_input.pending[0].0.input = serde_json::json!({"x": 2});
        let mut bad_status = state();
        bad_status.tool_calls[0].status = ToolCallStatus::Success;
        let mut twice = state();
        twice.pending.push(twice.pending[0].clone());
        for (what, host) in [
            ("name", bad_name),
            ("input", bad_input),
            ("status", bad_status),
            ("id", twice),
        ] {
            let snap = encode("GuestA", [0; 32], &host, vec![], None).unwrap();
            let e = decode(snap.as_bytes(), "GuestA", [0; 32], None).err();
            assert_eq!(
                e.map(|e| e.message).as_deref(),
                Some("The snapshot cannot be resumed: it is damaged."),
                "{what}"
            );
        }
        let mut cut = state();
        cut.tool_calls[0].input = crate::result::omitted_input(7);
        let snap = encode("GuestA", [0; 32], &cut, vec![], None).unwrap();
        assert!(decode(snap.as_bytes(), "GuestA", [0; 32], None).is_ok());
    }

    #[test]
    fn replies_from_json() {
        use serde_json::json;
        assert_eq!(Reply::from_json(&json!("run")), Ok(Reply::Run));
        assert_eq!(Reply::from_json(&json!({"run": true})), Ok(Reply::Run));
        assert_eq!(Reply::from_json(&json!({"approve": true})), Ok(Reply::Run));
        assert_eq!(
            Reply::from_json(&json!({"value": {"a": [1]}})),
            Ok(Reply::Value(json!({"a": [1]})))
        );
        assert_eq!(
            Reply::from_json(&json!({"error": "down"})),
            Ok(Reply::Error("down".into()))
        );
        assert_eq!(
            Reply::from_json(&json!({"deny": "no"})),
            Ok(Reply::Deny("no".into()))
        );
        let e = Reply::from_json(&json!({"deny": 3})).unwrap_err();
        assert!(
            e.starts_with("the reply's \"deny\" is not a string; write \"run\""),
            "{e}"
        );
        let e = Reply::from_json(&json!({"approve": false})).unwrap_err();
        assert!(e.contains("to refuse the call write {\"deny\""), "{e}");
        let e = Reply::from_json(&json!({"value": 1, "deny": "x"})).unwrap_err();
        assert!(e.starts_with("a reply object has exactly one key"), "{e}");
        let e = Reply::from_json(&json!({"ok": 1})).unwrap_err();
        assert!(e.starts_with("the reply has the unknown key \"ok\""), "{e}");
        let e = Reply::from_json(&json!(true)).unwrap_err();
        assert!(e.starts_with("true is not a reply"), "{e}");
    }

    #[test]
    fn the_id_in_hex() {
        let snap = Snapshot {
            bytes: vec![],
            id: [0xab; 16],
        };
        assert_eq!(snap.id_hex(), "ab".repeat(16));
        assert_eq!(Snapshot::id_from_hex(&"AB".repeat(16)), Some([0xab; 16]));
        for bad in [
            "ab",
            &"ab".repeat(17),
            &"zz".repeat(16),
            &"+1".repeat(16),
            &"é".repeat(16),
        ] {
            assert_eq!(Snapshot::id_from_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_second_claim_is_refused() {
        let store = MemoryStore::new();
        assert!(store.claim([1; 16]).is_ok());
        assert!(store.claim([2; 16]).is_ok());
        assert!(
            store
                .claim([1; 16])
                .unwrap_err()
                .contains("resumed already")
        );
    }
}
