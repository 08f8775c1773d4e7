//! `codemode._codemode`: the native half of the Python package `codemode`.
//!
//! It converts values at the edge and calls the `codemode` crate; every limit, status and
//! diagnostic is the library's. The Python layer (`python/codemode/__init__.py`) collects the
//! tools, hooks and extensions, then builds one `Runtime`:
//! - `Runtime::run` runs a program to its end with the GIL released (`execute_sync`);
//! - `Runtime::start` runs it on this module's tokio runtime and resolves an asyncio future
//!   of the caller's loop with the result (`await execute`); tool coroutines run on that loop
//!   (see `call.rs`);
//! - `Runtime::from_mcp_config` puts the same tools, hooks and extensions on an MCP gateway
//!   (`codemode_mcp::Gateway`, the one `codemode mcp` serves);
//! - results cross as the library's wire JSON (`ExecutionResult::to_json_string`), which the
//!   Python `Result` reads.
//!
//! No panic crosses into Python: pyo3 turns a panic in a method into `PanicException`, and the
//! futures run on tokio, whose tasks catch panics.
#![forbid(unsafe_code)]

mod call;
mod convert;

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};

use codemode::{
    ByValue, CallOutcome, CancellationToken, CodeMode, Diagnostic, ExecutionResult, Extension,
    HookTarget, Language, Limits, Namespace, Options, Reply, Snapshot, Tool, ToolError, ValueHooks,
};
use codemode_mcp::Gateway;
use futures::FutureExt;
use futures::future::BoxFuture;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use serde_json::Value;

use call::{Callable, EVENT_LOOP, Glue};
use convert::{from_py, to_py};

/// The tokio runtime every execution of the process runs on (two worker threads: the guest's
/// work runs on tokio's blocking pool, the workers only poll the drivers).
fn tokio_runtime() -> PyResult<&'static tokio::runtime::Runtime> {
    static RT: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("codemode")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())
    })
    .as_ref()
    .map_err(|e| PyRuntimeError::new_err(format!("codemode: cannot start tokio: {e}")))
}

/// The language named by `name`: `"lua"`, `"js"` or `"javascript"` (any case).
fn language_of(name: &str) -> PyResult<Language> {
    match name.to_ascii_lowercase().as_str() {
        "lua" => Ok(Language::Lua),
        "js" | "javascript" => Ok(Language::JavaScript),
        _ => Err(PyValueError::new_err(format!(
            "unknown language {name:?}; use \"lua\", \"js\" or \"javascript\""
        ))),
    }
}

/// JSON data from Python for a place named `what` (a schema, a hook's input); errors are
/// `ValueError`s naming it.
fn json_arg(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    from_py(obj).map_err(|e| PyValueError::new_err(format!("{what}: {e}")))
}

/// How a handler's outcome becomes a tool's result: a `codemode.ToolError` keeps its message
/// (the one channel for a message the program sees); any other exception is logged with its
/// traceback and reaches the program as "Tool 'x' failed."; a return value that is not JSON
/// data is an `InvalidToolOutput` saying where.
fn tool_outcome(
    glue: &Glue,
    py: Python<'_>,
    context: &str,
    outcome: PyResult<Bound<'_, PyAny>>,
) -> Result<Value, ToolError> {
    match outcome {
        Ok(obj) => from_py(&obj).map_err(ToolError::invalid_output),
        Err(err) => {
            if err.is_instance(py, glue.tool_error.bind(py)) {
                let message = err
                    .value(py)
                    .str()
                    .map(|s| s.to_string())
                    .unwrap_or_default();
                Err(ToolError::new(message))
            } else {
                glue.log(py, context, &err);
                Err(ToolError::internal(format!("{context} raised")))
            }
        }
    }
}

/// The handler of a tool or extension function backed by a Python callable.
async fn call_handler(
    glue: Arc<Glue>,
    callable: Arc<Callable>,
    context: Arc<str>,
    args: Vec<Value>,
) -> Result<Value, ToolError> {
    let finish_glue = glue.clone();
    let outcome = call::call(
        glue,
        callable,
        move |py| {
            let items = args
                .iter()
                .map(|v| to_py(py, v))
                .collect::<PyResult<Vec<_>>>()?;
            PyTuple::new(py, items)
        },
        Box::new(move |py, r| tool_outcome(&finish_glue, py, &context, r)),
    )
    .await;
    outcome.unwrap_or_else(|| {
        Err(ToolError::internal(
            "the Python interpreter or the event loop went away during the call",
        ))
    })
}

/// The callables of a `codemode.Hooks` (each optional).
struct PyHooks {
    glue: Arc<Glue>,
    /// `pause_before(name, input)`: synchronous (the Python layer refuses `async def`).
    pause_before: Option<Arc<Callable>>,
    tool_before: Option<Arc<Callable>>,
    tool_after: Option<Arc<Callable>>,
    extension_before: Option<Arc<Callable>>,
    extension_after: Option<Arc<Callable>>,
}

/// The message of a denial by a hook that raised something other than `ToolError`.
const HOOK_RAISED_MESSAGE: &str = codemode::hooks::HOOK_PANIC_MESSAGE;

impl PyHooks {
    /// Run a `before` hook: `None` (or `True`) allows, a `str` (or a raised `ToolError`) denies
    /// with that message, `False` or any other exception denies with "The host refused this
    /// call." (the exception is logged).
    fn run_before(
        &self,
        hook: &Option<Arc<Callable>>,
        name: &str,
        args: Value,
    ) -> BoxFuture<'static, Result<(), String>> {
        let Some(hook) = hook.clone() else {
            return Box::pin(async { Ok(()) });
        };
        let glue = self.glue.clone();
        let name = name.to_owned();
        Box::pin(async move {
            let finish_glue = glue.clone();
            let r = call::call(
                glue,
                hook,
                move |py| PyTuple::new(py, [name.into_pyobject(py)?.into_any(), to_py(py, &args)?]),
                Box::new(move |py, r| match r {
                    Ok(obj) if obj.is_none() => Ok(()),
                    Ok(obj) => match obj.extract::<String>() {
                        Ok(message) => Err(message),
                        Err(_) if obj.is_truthy().unwrap_or(false) => Ok(()),
                        Err(_) => Err(HOOK_RAISED_MESSAGE.to_owned()),
                    },
                    Err(err) if err.is_instance(py, finish_glue.tool_error.bind(py)) => Err(err
                        .value(py)
                        .str()
                        .map(|s| s.to_string())
                        .unwrap_or_default()),
                    Err(err) => {
                        finish_glue.log(py, "codemode: a before hook", &err);
                        Err(HOOK_RAISED_MESSAGE.to_owned())
                    }
                }),
            )
            .await;
            r.unwrap_or_else(|| Err(HOOK_RAISED_MESSAGE.to_owned()))
        })
    }

    /// Run an `after` hook with `(name, input, outcome)`, `outcome` a dict
    /// `{"status": ..., "value"?: ..., "kind"?: ..., "message"?: ...}`. What it returns or
    /// raises is ignored (an exception is logged).
    fn run_after(
        &self,
        hook: &Option<Arc<Callable>>,
        name: &str,
        args: Value,
        outcome: &CallOutcome,
    ) -> BoxFuture<'static, ()> {
        let Some(hook) = hook.clone() else {
            return Box::pin(async {});
        };
        let glue = self.glue.clone();
        let name = name.to_owned();
        let outcome = outcome.to_json();
        Box::pin(async move {
            let finish_glue = glue.clone();
            let _ = call::call(
                glue,
                hook,
                move |py| {
                    PyTuple::new(
                        py,
                        [
                            name.into_pyobject(py)?.into_any(),
                            to_py(py, &args)?,
                            to_py(py, &outcome)?,
                        ],
                    )
                },
                Box::new(move |py, r| {
                    if let Err(err) = r {
                        finish_glue.log(py, "codemode: an after hook", &err);
                    }
                }),
            )
            .await;
        })
    }
}

impl ValueHooks for PyHooks {
    fn before(
        &self,
        target: HookTarget,
        name: &str,
        input: Value,
    ) -> BoxFuture<'static, Result<(), String>> {
        match target {
            HookTarget::Tool => self.run_before(&self.tool_before, name, input),
            HookTarget::Extension => self.run_before(&self.extension_before, name, input),
        }
    }

    fn after(
        &self,
        target: HookTarget,
        name: &str,
        input: Value,
        outcome: &CallOutcome,
    ) -> BoxFuture<'static, ()> {
        match target {
            HookTarget::Tool => self.run_after(&self.tool_after, name, input, outcome),
            HookTarget::Extension => self.run_after(&self.extension_after, name, input, outcome),
        }
    }

    /// `pause_before(name, input)` with the GIL taken on this thread (the library asks at
    /// admission and needs the answer at once): a truthy return pauses the call. A hook that
    /// raises pauses it too (and is logged): nothing it was asked about runs unapproved.
    fn pause_before(&self, name: &str, input: &Value) -> bool {
        let Some(hook) = &self.pause_before else {
            return false;
        };
        call::attach(|py| {
            let answer = to_py(py, input)
                .and_then(|input| hook.func.bind(py).call1((name, input)))
                .and_then(|r| r.is_truthy());
            answer.unwrap_or_else(|err| {
                self.glue.log(py, "codemode: the pause_before hook", &err);
                true
            })
        })
        .unwrap_or(true)
    }
}

/// A `(callable, is_async)` pair from the Python layer.
fn callable(pair: &Bound<'_, PyAny>) -> PyResult<Arc<Callable>> {
    let (func, is_async): (Py<PyAny>, bool) = pair.extract()?;
    Ok(Arc::new(Callable { func, is_async }))
}

fn optional_callable(pair: Option<Bound<'_, PyAny>>) -> PyResult<Option<Arc<Callable>>> {
    match pair {
        Some(p) if !p.is_none() => callable(&p).map(Some),
        _ => Ok(None),
    }
}

/// The limits from the Python layer's dict (`timeout_ms`, `max_tool_calls`, `max_output_bytes`,
/// `max_memory_bytes`; missing or `None` keeps the library's default). Errors: the library's
/// `LimitError` message as a `ValueError`.
fn limits(d: &Bound<'_, PyDict>) -> PyResult<Limits> {
    use codemode::LimitName;
    let mut l = Limits::default();
    let bad = |e: codemode::LimitError| PyValueError::new_err(e.to_string());
    for (key, name) in [
        ("timeout_ms", LimitName::TimeoutMs),
        ("max_tool_calls", LimitName::MaxToolCalls),
        ("max_output_bytes", LimitName::MaxOutputBytes),
        ("max_memory_bytes", LimitName::MaxMemoryBytes),
    ] {
        if let Some(v) = d.get_item(key)?.filter(|v| !v.is_none()) {
            l = l.with(name, v.extract::<i128>()?).map_err(bad)?;
        }
    }
    Ok(l)
}

/// `fut`, with a panic turned into a failed result. The library never panics on guest input;
/// should it anyway, the caller still gets a result (and an awaiting Python task a resolved
/// future) instead of a panic crossing into Python.
async fn guarded(fut: impl Future<Output = ExecutionResult>) -> ExecutionResult {
    AssertUnwindSafe(fut)
        .catch_unwind()
        .await
        .unwrap_or_else(|_| ExecutionResult::panicked())
}

/// A built runtime (the Python `CodeMode` holds one).
#[pyclass(frozen, module = "codemode._codemode")]
struct Runtime {
    backend: Backend,
    glue: Arc<Glue>,
    /// The `pause_on` paths it was built with.
    pause_on: Vec<String>,
}

/// Cancels one started execution (`Runtime.start`'s return value).
#[pyclass(frozen, module = "codemode._codemode")]
struct Execution {
    token: CancellationToken,
}

#[pymethods]
impl Execution {
    /// Cancel the execution: it ends as "Execution was cancelled by the host." with the calls in
    /// flight `interrupted` and their `after` hooks run.
    fn cancel(&self) {
        self.token.cancel();
    }
}

/// The Python layer's helpers: `(run_coroutine_threadsafe, CoroutineType, log_exception,
/// set_if_pending, ToolError)`.
fn glue_of(glue: &Bound<'_, PyTuple>) -> PyResult<Arc<Glue>> {
    let (run_coroutine_threadsafe, coroutine_type, log_exception, set_if_pending, tool_error) =
        glue.extract()?;
    Ok(Arc::new(Glue {
        run_coroutine_threadsafe,
        coroutine_type,
        log_exception,
        set_if_pending,
        tool_error,
    }))
}

/// What the Python layer gives a runtime besides language and limits, converted once: applied
/// to the builder of a plain runtime, or to every rebuild of an MCP gateway's.
#[derive(Clone)]
struct Parts {
    namespaces: Vec<(String, String)>,
    tools: Vec<(String, Tool)>,
    hooks: Option<Arc<ByValue<PyHooks>>>,
    extensions: Vec<Extension>,
}

impl Parts {
    /// Convert the Python layer's `spec`: `(tools, namespaces, hooks, extensions, glue)` with
    /// - `tools`: `[(path, description, input_schema, output_schema | None, (handler, is_async))]`;
    /// - `namespaces`: `[(path, description)]`;
    /// - `hooks`: `None` or a 5-tuple of `(callable, is_async) | None` (`tool_before`,
    ///   `tool_after`, `extension_before`, `extension_after`, `pause_before`);
    /// - `extensions`: `[(name, [(path, (handler, is_async), is_async_in_js)])]`, path `""`
    ///   for a global that is itself a function;
    /// - `glue`: see [`glue_of`].
    fn from_spec(spec: &Bound<'_, PyTuple>) -> PyResult<(Arc<Glue>, Parts)> {
        type Spec<'py> = (
            Vec<Bound<'py, PyTuple>>,
            Vec<(String, String)>,
            Option<Bound<'py, PyTuple>>,
            Vec<(String, Vec<Bound<'py, PyTuple>>)>,
            Bound<'py, PyTuple>,
        );
        let (tools, namespaces, hooks, extensions, glue): Spec<'_> = spec.extract()?;
        let glue = glue_of(&glue)?;
        let mut parts = Parts {
            namespaces,
            tools: Vec::with_capacity(tools.len()),
            hooks: None,
            extensions: Vec::with_capacity(extensions.len()),
        };
        for t in tools {
            let path: String = t.get_item(0)?.extract()?;
            let description: String = t.get_item(1)?.extract()?;
            let input = json_arg(&t.get_item(2)?, &format!("tool '{path}': input_schema"))?;
            let output = t.get_item(3)?;
            let output = if output.is_none() {
                None
            } else {
                Some(json_arg(&output, &format!("tool '{path}': output_schema"))?)
            };
            let handler = callable(&t.get_item(4)?)?;
            let glue = glue.clone();
            let context: Arc<str> = format!("tool '{path}'").into();
            let mut tool = Tool::new(description, input, move |input| {
                call_handler(glue.clone(), handler.clone(), context.clone(), vec![input])
            });
            if let Some(output) = output {
                tool = tool.with_output_schema(output);
            }
            parts.tools.push((path, tool));
        }
        if let Some(h) = hooks {
            parts.hooks = Some(Arc::new(ByValue(PyHooks {
                glue: glue.clone(),
                tool_before: optional_callable(h.get_item(0).ok())?,
                tool_after: optional_callable(h.get_item(1).ok())?,
                extension_before: optional_callable(h.get_item(2).ok())?,
                extension_after: optional_callable(h.get_item(3).ok())?,
                pause_before: optional_callable(h.get_item(4).ok())?,
            })));
        }
        for (name, functions) in extensions {
            let mut ext: Option<Extension> = None;
            for f in functions {
                let path: String = f.get_item(0)?.extract()?;
                let handler = callable(&f.get_item(1)?)?;
                let asynchronous: bool = f.get_item(2)?.extract()?;
                let full = if path.is_empty() {
                    name.clone()
                } else {
                    format!("{name}.{path}")
                };
                let glue = glue.clone();
                let context: Arc<str> = format!("extension function '{full}'").into();
                let h = move |args: Vec<Value>| {
                    call_handler(glue.clone(), handler.clone(), context.clone(), args)
                };
                ext = Some(match (ext, path.is_empty(), asynchronous) {
                    (None, true, false) => Extension::global_function(name.clone(), h),
                    (None, true, true) => Extension::async_global_function(name.clone(), h),
                    (e, _, false) => e
                        .unwrap_or_else(|| Extension::new(name.clone()))
                        .function(path, h),
                    (e, _, true) => e
                        .unwrap_or_else(|| Extension::new(name.clone()))
                        .async_function(path, h),
                });
            }
            parts
                .extensions
                .push(ext.unwrap_or_else(|| Extension::new(name)));
        }
        Ok((glue, parts))
    }

    /// Add everything to `options`.
    fn apply(&self, mut options: Options) -> Options {
        for (path, description) in &self.namespaces {
            options = options.namespace(path, Namespace::new().description(description));
        }
        for (path, tool) in &self.tools {
            options = options.tool(path, tool.clone());
        }
        if let Some(h) = &self.hooks {
            options = options.hooks(h.clone());
        }
        for e in &self.extensions {
            options = options.extension(e.clone());
        }
        options
    }
}

/// Where a runtime's executions run.
enum Backend {
    /// A runtime over the Python layer's tools.
    Plain(CodeMode),
    /// An MCP gateway (`CodeMode.from_mcp_config`): the servers' tools plus the Python ones.
    Gateway(Arc<Gateway>),
}

/// What the Python layer gets back from an execution or a resume: `(wire_json, snapshot,
/// snapshot_id, refusal)`: the result's wire JSON, and when it is paused the snapshot's bytes
/// and hex id; or, for a refused resume, `None`s and the refusal's message.
type Outcome = (
    Option<String>,
    Option<Vec<u8>>,
    Option<String>,
    Option<String>,
);

/// The [`Outcome`] of a result or a refusal.
fn outcome(r: Result<ExecutionResult, Diagnostic>) -> Outcome {
    match r {
        Ok(mut r) => {
            let json = r.to_json_string();
            match r.paused.take() {
                Some(p) => {
                    let id = p.snapshot.id_hex();
                    (Some(json), Some(p.snapshot.into_bytes()), Some(id), None)
                }
                None => (Some(json), None, None, None),
            }
        }
        Err(d) => (None, None, None, Some(d.message)),
    }
}

impl Runtime {
    /// Run `fut` on the tokio runtime under `event_loop`, then resolve `future` with its
    /// [`Outcome`] there.
    fn spawn(
        &self,
        fut: impl Future<Output = Result<ExecutionResult, Diagnostic>> + Send + 'static,
        event_loop: Py<PyAny>,
        future: Py<PyAny>,
    ) -> PyResult<()> {
        let rt = tokio_runtime()?;
        let event_loop = Arc::new(event_loop);
        let lp = event_loop.clone();
        let glue = self.glue.clone();
        rt.spawn(EVENT_LOOP.scope(event_loop, async move {
            let out = outcome(fut.await);
            call::attach(|py| {
                // The loop may be closed already (the caller gave up): nothing to resolve then.
                let set = glue.set_if_pending.clone_ref(py);
                let _ = lp.call_method1(py, "call_soon_threadsafe", (set, future, out));
            });
        }));
        Ok(())
    }

    /// The resume of `snapshot` with `replies` on the current `CodeMode`, cancelled by
    /// `cancel`, a panic a failed result. Errors: `ValueError` naming a reply that is not one.
    fn resumption(
        &self,
        snapshot: Vec<u8>,
        replies: Vec<(u64, Bound<'_, PyAny>)>,
        cancel: CancellationToken,
    ) -> PyResult<BoxFuture<'static, Result<ExecutionResult, Diagnostic>>> {
        let mut parsed = Vec::with_capacity(replies.len());
        for (id, reply) in replies {
            let what = format!("replies[{id}]");
            let reply = Reply::from_json(&json_arg(&reply, &what)?)
                .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))?;
            parsed.push((id, reply));
        }
        let fut =
            self.codemode()
                .try_resume_with_cancel(&Snapshot::from_bytes(snapshot), parsed, cancel);
        Ok(Box::pin(async move {
            AssertUnwindSafe(fut)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Ok(ExecutionResult::panicked()))
        }))
    }

    /// The current `CodeMode` (a gateway's changes when its servers' tool lists do).
    fn codemode(&self) -> CodeMode {
        match &self.backend {
            Backend::Plain(cm) => cm.clone(),
            Backend::Gateway(gw) => gw.codemode(),
        }
    }

    /// The execution of `code`, cancelled by `cancel`.
    fn execution(
        &self,
        code: &str,
        cancel: CancellationToken,
    ) -> BoxFuture<'static, ExecutionResult> {
        match &self.backend {
            Backend::Plain(cm) => Box::pin(cm.execute_with_cancel(code, cancel)),
            Backend::Gateway(gw) => {
                let gw = gw.clone();
                let code = code.to_owned();
                Box::pin(async move { gw.execute(&code, cancel, None).await.result })
            }
        }
    }
}

#[pymethods]
impl Runtime {
    /// Build a runtime.
    ///
    /// - `language`: `"lua"`, `"js"`, `"javascript"`;
    /// - `limits`: a dict (see [`limits`]);
    /// - `spec`: `(tools, namespaces, hooks, extensions, glue)` (see [`Parts::from_spec`]);
    /// - `pause_on`: canonical tool paths whose calls pause the execution
    ///   (`Options::pause_on`);
    /// - `snapshot_key`: signs snapshots and accepts signed ones only (`Options::snapshot_key`).
    ///
    /// Errors: `ValueError` with the library's `BuildError` or `LimitError` message (a
    /// `pause_on` path that is no tool is reported by [`Runtime::check_pause_on`]).
    #[new]
    #[pyo3(signature = (language, limits, spec, pause_on=Vec::new(), snapshot_key=None))]
    fn new(
        language: &str,
        limits: Bound<'_, PyDict>,
        spec: Bound<'_, PyTuple>,
        pause_on: Vec<String>,
        snapshot_key: Option<Vec<u8>>,
    ) -> PyResult<Self> {
        let (glue, parts) = Parts::from_spec(&spec)?;
        let mut options = CodeMode::builder()
            .language(language_of(language)?)
            .limits(self::limits(&limits)?);
        for path in &pause_on {
            options = options.pause_on(path.clone());
        }
        if let Some(key) = snapshot_key {
            options = options.snapshot_key(key);
        }
        let cm = parts
            .apply(options)
            .build()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(Runtime {
            backend: Backend::Plain(cm),
            glue,
            pause_on,
        })
    }

    /// An MCP gateway over the servers of the config file at `path` (the format of
    /// `codemode mcp --config`: language and limits come from its `codemode` section), plus
    /// the `spec`'s tools, namespaces, hooks and extensions (as for [`Runtime::new`]).
    /// Starts every server with the GIL released; one that fails to start is reported on
    /// stderr and its namespace answers calls with the startup error (the library's
    /// `Gateway::start`). Errors: `ValueError` with the config or build error.
    #[staticmethod]
    fn from_mcp_config(
        py: Python<'_>,
        path: std::path::PathBuf,
        spec: Bound<'_, PyTuple>,
    ) -> PyResult<Self> {
        let (glue, parts) = Parts::from_spec(&spec)?;
        let config = codemode_mcp::Config::load(&path).map_err(|e| PyValueError::new_err(e.0))?;
        let extend: codemode_mcp::gateway::Extend = Arc::new(move |o| parts.apply(o));
        let rt = tokio_runtime()?;
        let gw = py
            .detach(|| rt.block_on(Gateway::start(config, Some(extend))))
            .map_err(|e| PyValueError::new_err(e.0))?;
        Ok(Runtime {
            backend: Backend::Gateway(gw),
            glue,
            pause_on: Vec::new(),
        })
    }

    /// Stop an MCP gateway's servers (GIL released); nothing for a plain runtime.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        if let Backend::Gateway(gw) = &self.backend {
            let rt = tokio_runtime()?;
            py.detach(|| rt.block_on(gw.shutdown()));
        }
        Ok(())
    }

    /// Run `code` to its end on this thread, the GIL released; returns its [`Outcome`].
    /// Tool coroutines have no event loop here (`CodeMode.execute_sync` runs those through
    /// `asyncio.run` and [`Runtime::start`]).
    fn run(&self, py: Python<'_>, code: &str) -> PyResult<Outcome> {
        let rt = tokio_runtime()?;
        let fut = self.execution(code, CancellationToken::new());
        Ok(outcome(Ok(py.detach(|| rt.block_on(guarded(fut))))))
    }

    /// Start `code` on the tokio runtime; when it ends, `set_if_pending(future, outcome)` is
    /// scheduled on `event_loop` (`call_soon_threadsafe`), `outcome` as [`Outcome`]. Tool and
    /// hook coroutines run on `event_loop`. Returns the [`Execution`] that cancels it.
    fn start(&self, code: &str, event_loop: Py<PyAny>, future: Py<PyAny>) -> PyResult<Execution> {
        let token = CancellationToken::new();
        let fut = self.execution(code, token.clone());
        self.spawn(async move { Ok(guarded(fut).await) }, event_loop, future)?;
        Ok(Execution { token })
    }

    /// Resume a paused execution's `snapshot` with `replies` (`[(call id, reply)]`, each reply
    /// JSON data as `codemode::Reply::from_json` reads it) on this thread, the GIL released.
    /// Returns its [`Outcome`]: a refusal (another catalog, damaged bytes, wrong ids, ...) is
    /// its fourth item. Errors: `ValueError` for a reply that is not one.
    fn resume_run(
        &self,
        py: Python<'_>,
        snapshot: Vec<u8>,
        replies: Vec<(u64, Bound<'_, PyAny>)>,
    ) -> PyResult<Outcome> {
        let rt = tokio_runtime()?;
        let fut = self.resumption(snapshot, replies, CancellationToken::new())?;
        Ok(outcome(py.detach(|| rt.block_on(fut))))
    }

    /// [`Runtime::resume_run`] on the tokio runtime, resolving `future` on `event_loop` as
    /// [`Runtime::start`] does; returns the [`Execution`] that cancels it.
    fn resume_start(
        &self,
        snapshot: Vec<u8>,
        replies: Vec<(u64, Bound<'_, PyAny>)>,
        event_loop: Py<PyAny>,
        future: Py<PyAny>,
    ) -> PyResult<Execution> {
        let token = CancellationToken::new();
        let fut = self.resumption(snapshot, replies, token.clone())?;
        self.spawn(fut, event_loop, future)?;
        Ok(Execution { token })
    }

    /// The catalog as `[{"path", "description", "signature"}]`, sorted by path, with
    /// signatures in `language` (default: the runtime's).
    #[pyo3(signature = (language=None))]
    fn catalog<'py>(&self, py: Python<'py>, language: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let lang = match language {
            Some(l) => language_of(l)?,
            None => self.codemode().language(),
        };
        let entries = codemode::catalog::catalog(self.codemode().tools(), lang);
        to_py(py, &serde_json::to_value(entries).unwrap_or_default())
    }

    /// The model-facing instructions with a catalog of about `budget` o200k tokens.
    /// For an MCP gateway, the servers that are not available follow, with why.
    fn instructions(&self, budget: usize) -> String {
        match &self.backend {
            Backend::Plain(cm) => cm.instructions(budget),
            Backend::Gateway(gw) => gw.description(gw.language(), budget),
        }
    }

    /// The built-in `search` from the host: `input` as a program would pass it. Errors: the
    /// `InvalidToolInput` message as a `ValueError`.
    fn search<'py>(
        &self,
        py: Python<'py>,
        input: Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = json_arg(&input, "search input")?;
        let out = self
            .codemode()
            .search(&input)
            .map_err(PyValueError::new_err)?;
        to_py(py, &out)
    }

    /// Errors: `ValueError` when a `pause_on` path names no tool (it would pause nothing, and
    /// the tool meant would run unapproved). The Python layer asks before the first run, so
    /// tools may be added after the constructor.
    fn check_pause_on(&self) -> PyResult<()> {
        codemode::durable::check_pause_paths(self.codemode().tools(), &self.pause_on)
            .map_err(|e| PyValueError::new_err(format!("pause_on: {e}")))
    }

    /// The language's name: `"lua"` or `"javascript"`.
    #[getter]
    fn language(&self) -> &'static str {
        match self.codemode().language() {
            Language::Lua => "lua",
            Language::JavaScript => "javascript",
        }
    }
}

/// Keeps snapshots single-use in this process: the library's `MemoryStore`.
#[pyclass(frozen, module = "codemode._codemode")]
struct MemoryStore(codemode::MemoryStore);

#[pymethods]
impl MemoryStore {
    #[new]
    fn new() -> Self {
        MemoryStore(codemode::MemoryStore::new())
    }

    /// Claim `snapshot_id` (32 hex digits) for one resume: `None`, or the refusal's message
    /// when it was claimed before. Errors: `ValueError` for an id that is not 32 hex digits.
    fn claim(&self, snapshot_id: &str) -> PyResult<Option<String>> {
        use codemode::SnapshotStore;
        let id = Snapshot::id_from_hex(snapshot_id).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{snapshot_id:?} is not a snapshot id (32 hex digits)"
            ))
        })?;
        Ok(self.0.claim(id).err())
    }
}

/// The hex id of the snapshot `bytes` (all zeros for bytes that are no snapshot).
#[pyfunction]
fn snapshot_id(bytes: Vec<u8>) -> String {
    Snapshot::from_bytes(bytes).id_hex()
}

/// The module.
#[pymodule]
fn _codemode(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Runtime>()?;
    m.add_class::<MemoryStore>()?;
    m.add_function(wrap_pyfunction!(snapshot_id, m)?)?;
    m.add_class::<Execution>()?;
    m.add_function(wrap_pyfunction!(call::_shutdown, m)?)?;
    m.py()
        .import("atexit")?
        .call_method1("register", (m.getattr("_shutdown")?,))?;
    m.add(
        "DEFAULT_INSTRUCTIONS_BUDGET",
        codemode::catalog::DEFAULT_INSTRUCTIONS_BUDGET,
    )?;
    Ok(())
}
