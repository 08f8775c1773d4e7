//! `codemode.node`: the native half of the Node package `codemode` (bindings/node).
//!
//! It converts values at the edge and calls the `codemode` crate; every limit, status and
//! diagnostic is the library's. The JavaScript layer (`index.js`) flattens the tools record,
//! wraps every handler and hook, and builds one [`Runtime`]:
//! - [`Runtime::execute`] runs a program on napi's tokio runtime (the guest's work on tokio's
//!   blocking pool, never on the JS thread) and returns a promise of the result's wire JSON
//!   (`ExecutionResult::to_json_string`, which the JS layer parses);
//! - a [`Cancel`] given to it interrupts the execution (the JS layer's `AbortSignal`);
//! - handlers and hooks are JS functions called through thread-safe functions (`src/call.rs`).
//!
//! No panic crosses into node: executions run under `guarded` (a panic becomes a failed
//! result), and the synchronous methods are `catch_unwind` (napi turns a caught panic into a
//! thrown JS error).
//!
//! There is no hand-written `unsafe` here; napi's macros generate the FFI glue (which is why
//! this crate cannot `forbid(unsafe_code)` as the others do).
#![deny(missing_docs)]

mod call;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use codemode::{
    CancellationToken, CodeMode, Diagnostic, ExecutionResult, Extension, Language, LimitName,
    Limits, Namespace, Reply, Snapshot, Tool,
};
use futures::FutureExt;
use napi::bindgen_prelude::{Buffer, PromiseRaw};
use napi::{Env, Error, Result, Status};
use napi_derive::napi;
use serde_json::Value;

use call::{Callback, JsHooks, call_handler};

/// Deepest nesting of arrays and objects a handler's return value may have (levels below the
/// top value): the library's bound on tool output depth, which the JS layer's conversion
/// enforces so a cyclic or deeply nested value fails with a message.
#[napi]
pub const MAX_DATA_DEPTH: u32 = codemode::limits::MAX_TOOL_OUTPUT_DEPTH as u32;

/// The default catalog budget of `instructions()`, in o200k tokens.
#[napi]
pub const DEFAULT_INSTRUCTIONS_BUDGET: u32 = codemode::catalog::DEFAULT_INSTRUCTIONS_BUDGET as u32;

/// The language named by `name`: `"lua"`, `"js"` or `"javascript"` (any case).
fn language_of(name: &str) -> Result<Language> {
    match name.to_ascii_lowercase().as_str() {
        "lua" => Ok(Language::Lua),
        "js" | "javascript" => Ok(Language::JavaScript),
        _ => Err(build_error(format!(
            "unknown language {name:?}; use \"lua\", \"javascript\" or \"js\""
        ))),
    }
}

/// A construction error (a bad path, schema, language): the JS layer throws it as a `TypeError`.
fn build_error(message: impl Into<String>) -> Error {
    Error::new(Status::GenericFailure, message.into())
}

/// A limit out of range: the JS layer throws it as a `RangeError`.
fn limit_error(message: impl Into<String>) -> Error {
    Error::new(Status::InvalidArg, message.into())
}

/// JSON text from the JS layer for a place named `what` (a schema).
fn json_arg(text: &str, what: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| build_error(format!("{what}: not JSON ({e})")))
}

/// The limits of every execution, camelCase as the seed spells them; a missing one keeps the
/// library's default.
#[napi(object)]
pub struct LimitsSpec {
    /// Wall-clock milliseconds per execution (`TimeoutExceeded`).
    pub timeout_ms: Option<f64>,
    /// Host calls per execution (`ToolCallLimitExceeded`).
    pub max_tool_calls: Option<f64>,
    /// Bytes of value and logs kept in the result (cut, never failing the run).
    pub max_output_bytes: Option<f64>,
    /// Bytes the program's interpreter may allocate.
    pub max_memory_bytes: Option<f64>,
}

/// The library's `Limits` from `spec`. Errors (a `RangeError` in JS): a value that is not a
/// safe integer, or the library's `LimitError` message.
fn limits(spec: &LimitsSpec) -> Result<Limits> {
    let mut l = Limits::default();
    for (key, value, name) in [
        ("timeoutMs", spec.timeout_ms, LimitName::TimeoutMs),
        ("maxToolCalls", spec.max_tool_calls, LimitName::MaxToolCalls),
        (
            "maxOutputBytes",
            spec.max_output_bytes,
            LimitName::MaxOutputBytes,
        ),
        (
            "maxMemoryBytes",
            spec.max_memory_bytes,
            LimitName::MaxMemoryBytes,
        ),
    ] {
        let Some(v) = value else { continue };
        // 2^53 - 1: Number.MAX_SAFE_INTEGER.
        if v.fract() != 0.0 || !v.is_finite() || v.abs() > 9_007_199_254_740_991.0 {
            return Err(limit_error(format!(
                "limits.{key} must be a safe integer, got {v}"
            )));
        }
        l = l
            .with(name, v as i128)
            .map_err(|e| limit_error(e.to_string()))?;
    }
    Ok(l)
}

/// One tool from the JS layer: its dotted path, description, schemas (JSON text) and wrapped
/// handler (see `src/call.rs`).
#[napi(object, object_to_js = false)]
pub struct ToolSpec {
    /// Dotted path (`"orders.lookup"`).
    pub path: String,
    /// What the tool does (model-visible).
    pub description: String,
    /// The input JSON Schema, as JSON text.
    pub input: String,
    /// The output JSON Schema, as JSON text, when given.
    pub output: Option<String>,
    /// The wrapped handler.
    pub handler: Callback,
}

/// A namespace's description (`Namespace(description, tools)` in JS).
#[napi(object)]
pub struct NamespaceSpec {
    /// Dotted path.
    pub path: String,
    /// Its description (search matches it for every tool below).
    pub description: String,
}

/// The wrapped hooks (each optional).
#[napi(object, object_to_js = false)]
pub struct HooksSpec {
    /// `pauseBefore(name, input)`: synchronous.
    pub pause_before: Option<Callback>,
    /// `toolBefore(name, input)`.
    pub tool_before: Option<Callback>,
    /// `toolAfter(name, input, outcome)`.
    pub tool_after: Option<Callback>,
    /// `extensionBefore(name, args)`.
    pub extension_before: Option<Callback>,
    /// `extensionAfter(name, args, outcome)`.
    pub extension_after: Option<Callback>,
}

/// One function of an extension global.
#[napi(object, object_to_js = false)]
pub struct ExtensionFunctionSpec {
    /// Dotted path below the global; `""` when the global is itself the function.
    pub path: String,
    /// The wrapped function.
    pub handler: Callback,
    /// Whether JavaScript programs get a promise from it (an `async` host function).
    pub asynchronous: bool,
}

/// One guest global made of host functions.
#[napi(object, object_to_js = false)]
pub struct ExtensionSpec {
    /// The global's name.
    pub name: String,
    /// Its functions.
    pub functions: Vec<ExtensionFunctionSpec>,
}

/// The extension named `name` over `functions`.
fn extension(spec: ExtensionSpec) -> Extension {
    let name = spec.name;
    let mut ext: Option<Extension> = None;
    for f in spec.functions {
        let full = if f.path.is_empty() {
            name.clone()
        } else {
            format!("{name}.{}", f.path)
        };
        let handler = Arc::new(f.handler);
        let context: Arc<str> = format!("extension function '{full}'").into();
        let h = move |args: Vec<Value>| {
            call_handler(handler.clone(), context.clone(), Value::Array(args))
        };
        ext = Some(match (ext, f.path.is_empty(), f.asynchronous) {
            (None, true, false) => Extension::global_function(name.clone(), h),
            (None, true, true) => Extension::async_global_function(name.clone(), h),
            (e, _, false) => e
                .unwrap_or_else(|| Extension::new(name.clone()))
                .function(f.path, h),
            (e, _, true) => e
                .unwrap_or_else(|| Extension::new(name.clone()))
                .async_function(f.path, h),
        });
    }
    ext.unwrap_or_else(|| Extension::new(name))
}

/// `fut`, with a panic turned into a failed result: the caller still gets a result instead of
/// a rejected promise with a panic message (the library never panics on guest input).
async fn guarded(fut: impl Future<Output = ExecutionResult>) -> ExecutionResult {
    AssertUnwindSafe(fut)
        .catch_unwind()
        .await
        .unwrap_or_else(|_| ExecutionResult::panicked())
}

/// What an execution or a resume gives the JS layer: the result's wire JSON and, when it is
/// paused, the snapshot's bytes and hex id; or, for a refused resume, the refusal's message.
#[napi(object)]
pub struct Outcome {
    /// The result's wire JSON (absent for a refusal).
    pub json: Option<String>,
    /// A paused result's snapshot.
    pub snapshot: Option<Buffer>,
    /// The snapshot's id, 32 hex digits.
    pub snapshot_id: Option<String>,
    /// Why the resume was refused (nothing ran).
    pub refusal: Option<String>,
}

impl Outcome {
    fn of(r: std::result::Result<ExecutionResult, Diagnostic>) -> Outcome {
        match r {
            Ok(mut r) => {
                let json = Some(r.to_json_string());
                let paused = r.paused.take();
                Outcome {
                    json,
                    snapshot_id: paused.as_ref().map(|p| p.snapshot.id_hex()),
                    snapshot: paused.map(|p| p.snapshot.into_bytes().into()),
                    refusal: None,
                }
            }
            Err(d) => Outcome {
                json: None,
                snapshot: None,
                snapshot_id: None,
                refusal: Some(d.message),
            },
        }
    }
}

/// Keeps snapshots single-use in this process (the library's `MemoryStore`).
#[napi]
pub struct MemoryStore(codemode::MemoryStore);

#[napi]
impl MemoryStore {
    /// An empty store.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        MemoryStore(codemode::MemoryStore::new())
    }

    /// Claim `snapshot_id` (32 hex digits) for one resume: `null`, or the refusal's message
    /// when it was claimed before. Errors: an id that is not 32 hex digits.
    #[napi(catch_unwind)]
    pub fn claim(&self, snapshot_id: String) -> Result<Option<String>> {
        use codemode::SnapshotStore;
        let id = Snapshot::id_from_hex(&snapshot_id).ok_or_else(|| {
            build_error(format!(
                "{snapshot_id:?} is not a snapshot id (32 hex digits)"
            ))
        })?;
        Ok(self.0.claim(id).err())
    }
}

/// The hex id of the snapshot `bytes` (all zeros for bytes that are no snapshot).
#[napi(catch_unwind)]
pub fn snapshot_id(bytes: Buffer) -> String {
    Snapshot::from_bytes(bytes.to_vec()).id_hex()
}

/// Interrupts the executions it was given to (`new Cancel()`, then `cancel()`).
#[napi]
pub struct Cancel {
    token: CancellationToken,
}

#[napi]
impl Cancel {
    /// A token not cancelled yet.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        Cancel {
            token: CancellationToken::new(),
        }
    }

    /// Cancel: the execution ends as "Execution was cancelled by the host." with the calls in
    /// flight `interrupted` and their `after` hooks run.
    #[napi]
    pub fn cancel(&self) {
        self.token.cancel();
    }
}

/// The durable-execution options (`pauseOn`, `snapshotKey`).
#[napi(object, object_to_js = false)]
pub struct DurableSpec {
    /// Canonical tool paths whose calls pause the execution (`Options::pause_on`).
    pub pause_on: Option<Vec<String>>,
    /// Signs snapshots and accepts signed ones only (`Options::snapshot_key`).
    pub snapshot_key: Option<Buffer>,
}

/// A built runtime (the JS `CodeMode` holds one).
#[napi]
pub struct Runtime {
    cm: CodeMode,
}

#[napi]
impl Runtime {
    /// Build a runtime. Errors: the library's `BuildError` (status `GenericFailure`) or
    /// `LimitError` (status `InvalidArg`) message.
    #[napi(constructor, catch_unwind)]
    pub fn new(
        language: String,
        limits: LimitsSpec,
        tools: Vec<ToolSpec>,
        namespaces: Vec<NamespaceSpec>,
        hooks: Option<HooksSpec>,
        extensions: Vec<ExtensionSpec>,
        durable: DurableSpec,
    ) -> Result<Self> {
        let DurableSpec {
            pause_on,
            snapshot_key,
        } = durable;
        let pause_on = pause_on.unwrap_or_default();
        let mut options = CodeMode::builder()
            .language(language_of(&language)?)
            .limits(self::limits(&limits)?);
        for path in &pause_on {
            options = options.pause_on(path.clone());
        }
        if let Some(key) = snapshot_key {
            options = options.snapshot_key(key.to_vec());
        }
        for ns in namespaces {
            options = options.namespace(&ns.path, Namespace::new().description(&ns.description));
        }
        for t in tools {
            let input = json_arg(&t.input, &format!("tool '{}': input", t.path))?;
            let output = match &t.output {
                Some(o) => Some(json_arg(o, &format!("tool '{}': output", t.path))?),
                None => None,
            };
            let handler = Arc::new(t.handler);
            let context: Arc<str> = format!("tool '{}'", t.path).into();
            let mut tool = Tool::new(t.description, input, move |input| {
                call_handler(handler.clone(), context.clone(), input)
            });
            if let Some(output) = output {
                tool = tool.with_output_schema(output);
            }
            options = options.tool(&t.path, tool);
        }
        if let Some(h) = hooks {
            options = options.hooks(Arc::new(codemode::ByValue(JsHooks::new(h))));
        }
        for e in extensions {
            options = options.extension(extension(e));
        }
        let cm = options.build().map_err(|e| build_error(e.to_string()))?;
        codemode::durable::check_pause_paths(cm.tools(), &pause_on)
            .map_err(|e| build_error(format!("pauseOn: {e}")))?;
        Ok(Runtime { cm })
    }

    /// Start `code` and return a promise of its [`Outcome`]; `cancel` interrupts it.
    #[napi(catch_unwind, ts_return_type = "Promise<Outcome>")]
    pub fn execute<'env>(
        &self,
        env: &'env Env,
        code: String,
        cancel: Option<&Cancel>,
    ) -> Result<PromiseRaw<'env, Outcome>> {
        let token = cancel.map(|c| c.token.clone()).unwrap_or_default();
        let fut = self.cm.execute_with_cancel(&code, token);
        env.spawn_future(async move { Ok(Outcome::of(Ok(guarded(fut).await))) })
    }

    /// Resume the paused execution `snapshot` with `replies` (JSON text of `[[id, reply]]`,
    /// each reply as `codemode::Reply::from_json` reads it) and return a promise of its
    /// [`Outcome`] (a refusal in its `refusal`); `cancel` interrupts it. Errors (thrown at
    /// once): a reply that is not one.
    #[napi(catch_unwind, ts_return_type = "Promise<Outcome>")]
    pub fn resume<'env>(
        &self,
        env: &'env Env,
        snapshot: Buffer,
        replies: String,
        cancel: Option<&Cancel>,
    ) -> Result<PromiseRaw<'env, Outcome>> {
        let token = cancel.map(|c| c.token.clone()).unwrap_or_default();
        let pairs: Vec<(u64, Value)> = serde_json::from_str(&replies)
            .map_err(|e| build_error(format!("replies: not [[id, reply]] ({e})")))?;
        let mut parsed = Vec::with_capacity(pairs.len());
        for (id, reply) in pairs {
            let reply =
                Reply::from_json(&reply).map_err(|e| build_error(format!("replies[{id}]: {e}")))?;
            parsed.push((id, reply));
        }
        let fut =
            self.cm
                .try_resume_with_cancel(&Snapshot::from_bytes(snapshot.to_vec()), parsed, token);
        env.spawn_future(async move {
            let r = AssertUnwindSafe(fut)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Ok(ExecutionResult::panicked()));
            Ok(Outcome::of(r))
        })
    }

    /// The catalog as JSON text: `[{"path", "description", "signature"}]` sorted by path,
    /// signatures in `language` (default: the runtime's).
    #[napi(catch_unwind)]
    pub fn catalog(&self, language: Option<String>) -> Result<String> {
        let lang = match language {
            Some(l) => language_of(&l)?,
            None => self.cm.language(),
        };
        let entries = codemode::catalog::catalog(self.cm.tools(), lang);
        serde_json::to_string(&entries).map_err(|e| build_error(e.to_string()))
    }

    /// The model-facing instructions with a catalog of about `budget` o200k tokens.
    #[napi(catch_unwind)]
    pub fn instructions(&self, budget: u32) -> String {
        self.cm.instructions(budget as usize)
    }

    /// The built-in `search` from the host: `input` (JSON text) as a program would pass it;
    /// returns the page as JSON text. Errors: the `InvalidToolInput` message.
    #[napi(catch_unwind)]
    pub fn search(&self, input: String) -> Result<String> {
        let input = json_arg(&input, "search input")?;
        let out = self.cm.search(&input).map_err(build_error)?;
        Ok(out.to_string())
    }

    /// The language's name: `"lua"` or `"javascript"`.
    #[napi(getter)]
    pub fn language(&self) -> &'static str {
        match self.cm.language() {
            Language::Lua => "lua",
            Language::JavaScript => "javascript",
        }
    }
}
