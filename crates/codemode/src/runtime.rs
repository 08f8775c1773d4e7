//! The runtime: [`Options`] (builder), [`CodeMode`] (built once, executes many programs, also
//! concurrently), the one-shot [`execute`], and the async driver loop that runs a guest machine
//! and answers its host calls (tools, `search`, extensions) under the limits.
//!
//! ## The rule
//! Nothing guest input controls runs unbounded on an async worker: guest work runs in
//! self-bounding inline stretches or on the blocking pool under the backstop; host work a
//! program can trigger is either moved to the pool under the deadline (compiling long programs,
//! behind [`MAX_CONCURRENT_COMPILES`]; validating inputs against costly schemas,
//! `CompiledSchema::is_costly`) or capped and counted as a call attempt (unknown-tool
//! suggestions, refused calls, `search`). `docs/internals.md` lists each with its bound.
//!
//! ## Driver
//! Guest code runs in two places.
//!
//! **Inline stretches.** Most guest work between two host calls is short (µs), and handing it
//! to another thread costs more than the work (waking a parked thread: 5–30 µs each way). So
//! the driver first runs it directly in the `execute` future: `run_inline` gives the machine
//! [`INLINE_SLICE`] fuel at a time, reading the clock in between, until it needs the host,
//! finishes, or [`INLINE_BUDGET`] (200 µs) has passed or the machine asks for the pool
//! ([`Machine::wants_pool`]). Short programs ([`INLINE_COMPILE_BYTES`]) are compiled inline
//! too, and a tool's reply is imported inline ([`Machine::try_resume`]). The machine keeps a
//! stretch short itself ([`Machine::set_inline`]): a builtin or data walk that runs past the
//! stretch's end before it changed anything is abandoned and re-run on the pool; garbage
//! collection, `xpcall` handlers and builtins calling back into Lua never run inline. The
//! longest stretch is recorded for tests ([`take_longest_inline_stretch`]; the adversarial
//! suite asserts ≤ 50 ms in a debug build for every program, measured < 1 ms). After each
//! answered host call the driver spends tokio's cooperative budget
//! (`coop::consume_budget`), so a program calling tools that answer at once still lets the
//! runtime run other tasks.
//!
//! **Segments.** Work that outlives a stretch runs in *segments*, each one `spawn_blocking`
//! call (also on a current-thread runtime) that takes the guest by value (boxed) and gives it
//! back only with a host call. The first segment of a long program compiles it
//! (ParseError → failure) and builds the `Machine` (with the deadline set); a segment that
//! continues a stretch first imports the reply the stretch could not (`resume`). A segment
//! loops on `run(slice)`, the slice size adapting so one slice takes about [`TARGET_SLICE`] of
//! wall time, until the machine needs the host (`HostCall`), finishes (`Done`/`Error`), or the
//! deadline passed between two slices. After every slice (inline ones too) it moves the
//! machine's log lines to the host (kept up to `max_output_bytes`, later lines only counted),
//! so they survive any timeout. A finished guest is dropped on the blocking pool.
//!
//! So a blocking-pool thread is held only while long guest code runs: while the program waits
//! for a tool, the parked machine is plain data owned by the `execute` future and no thread is
//! held (thousands of executions can wait for tools at once; tokio's blocking pool bounds how
//! many *compute* at once, default 512, more queue). A parked guest that the driver drops
//! (deadline, cancellation, a dropped `execute` future) is dropped on the blocking pool too.
//!
//! **Wall-clock backstop.** While a segment runs, the driver only awaits its `JoinHandle`
//! under `tokio::select!` with the cancellation token and a timer at the deadline +
//! [`BACKSTOP_MARGIN`]. So even when the machine's own checks are bypassed (one long builtin
//! such as a native `table.sort` of millions of values, or a bug), `execute` returns
//! `TimeoutExceeded` (or the cancellation failure) by the deadline plus the margin, with the
//! `toolCalls` record and the logs of every finished slice. The running segment is abandoned,
//! never awaited (dropping its `JoinHandle` detaches it): it notices at its next slice boundary
//! and ends, dropping the guest on the blocking pool; the machine's own deadline stops most
//! work inside long natives too. (Inline stretches are not under the timer: they are bounded
//! by the machine's stretch checks above, and the driver checks the deadline and the
//! cancellation token before each.) A panic in a segment (a `JoinError`) becomes an
//! `ExecutionFailure` "Internal error: the interpreter panicked. ...", never a host panic.
//! Costs (release, idle 2-core machine, `benches/host.rs`): `return 1` about 5.6 µs end to end
//! and a no-op tool call about 1.1 µs (with segments only: 63 µs and 31 µs). A finished guest
//! holding more than 64 KiB is dropped by a blocking task of its own, so freeing it does not
//! delay the result. Dropping the runtime waits for blocking threads, so an abandoned segment
//! can delay runtime shutdown until its current native returns.
//!
//! The driver, for each segment's report:
//! - `TimedOut` (the segment saw the deadline between slices): `TimeoutExceeded`.
//! - `HostCall`: count the attempt (over `max_tool_calls` → `HostReply::Abort`
//!   (ToolCallLimitExceeded), not catchable); then the one gate every host call goes through:
//!   - tools: resolve the path (UnknownTool with suggestions); check the argument count and the
//!     input schema (InvalidToolInput, listed with status `failure`, no hooks); list the call;
//!     `tool_before` hook (may deny: status `denied`, catchable ToolFailure with the hook's
//!     message); run the handler; check the output's nesting
//!     ([`crate::limits::check_tool_output`], iterative) and then its schema (both
//!     InvalidToolOutput naming the tool); `tool_after` hook;
//!   - `search` (also reached as `tools.search(...)` when no tool owns the path `search`): the
//!     same with the name `"search"` and [`search::SearchRequest::from_input`] as the input check;
//!   - extensions: `extension_before` hook (may deny: catchable ExecutionFailure), the handler,
//!     `extension_after` hook; never listed.
//!
//!   The `before` hook and the handler run under `tokio::select!` with the deadline and the
//!   cancellation token (deadline → status `interrupted`, `after` hook with
//!   [`CallOutcome::Interrupted`], result TimeoutExceeded). The guest resumes with the value or an
//!   ordinary catchable error.
//! - `Done` / `Error`: build the [`ExecutionResult`] from the collected logs and the record,
//!   apply `max_output_bytes` (value, logs and tool-call inputs share it; see
//!   [`ExecutionResult::truncate`]). Tool-call inputs are copied into the record only while
//!   they fit that budget; larger ones are recorded as a marker with their size.
//!
//! `toolCalls` lists admitted calls only (status `success`, `failure`, `interrupted`, or `denied`
//! by a hook), plus calls the guest refused for an input that cannot cross (`failure`, input
//! `"[input not sent: ...]"`): a call refused by the tool-call limit, a call to an unknown tool
//! (refused by the guest or not), and an extension call are counted but not listed.

use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use codemode_lua::{Env, ErrorKind, GuestError, HostCall, HostReply, HostTarget, Machine, Step};
use futures::FutureExt;
use serde_json::Value;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::extension::{Extension, ExtensionHandler, RESERVED_GLOBALS, is_lua_name};
use crate::hooks::{AFTER_HOOK_GRACE, CallOutcome, HOOK_PANIC_MESSAGE, Hooks};
use crate::limits::{Limits, check_tool_output, drop_deep};
use crate::namespace::{Namespace, ToolTree};
use crate::result::{Diagnostic, DiagnosticKind, ExecutionResult, ToolCallRecord, ToolCallStatus};
use crate::search::{self, SearchIndex, SearchRequest};
use crate::tool::{Tool, ToolError, ToolErrorKind};

/// Wall time one `run` slice should take; the slice size adapts toward it.
pub const TARGET_SLICE: Duration = Duration::from_millis(1);
/// First slice size in fuel units (also the size used when a slice had no time to measure).
pub const INITIAL_SLICE: u32 = 20_000;
/// Smallest slice size in fuel units.
pub const MIN_SLICE: u32 = 1_000;
/// Largest slice size in fuel units.
pub const MAX_SLICE: u32 = 2_000_000;
/// How long after the deadline the driver still waits for a running slice before it gives up
/// on it (the wall-clock backstop): the machine checks the deadline itself inside long natives
/// and reports TimeoutExceeded with the program's location; past this margin the driver
/// returns TimeoutExceeded without it and abandons the running segment.
pub const BACKSTOP_MARGIN: Duration = Duration::from_millis(10);
/// The warning ([`DiagnosticKind::NoReturn`]) of a program that ended without `return`.
pub const NO_RETURN_WARNING: &str = "The program ended without `return`, so `value` is null. \
End it with `return <value>` (for example `return results`) to hand data back; printed lines \
are in `logs`.";
/// Longest *inline stretch*: guest work the driver runs directly in the `execute` future
/// (on the async runtime's thread) before it hands the machine to the blocking pool (see the
/// Most bytes of the guest's message kept in the `toolCalls` input marker of a call refused for
/// an input that cannot cross (`"[input not sent: ...]"`).
const REFUSED_INPUT_MARKER_BYTES: usize = 300;

/// module docs, "Inline stretches").
pub const INLINE_BUDGET: Duration = Duration::from_micros(200);
/// Fuel per `run` call in an inline stretch (the clock is read between calls).
pub const INLINE_SLICE: u32 = 2_000;
/// Programs up to this many bytes of source are compiled inline; longer ones on the blocking
/// pool (compiling is linear in the source: 8 KiB takes well under [`INLINE_BUDGET`]).
pub const INLINE_COMPILE_BYTES: usize = 8 * 1024;

/// Most programs longer than [`INLINE_COMPILE_BYTES`] compiling at once in this process; more
/// wait (under their deadline). Compiling is charged to each execution's memory budget, and
/// this bounds how many such budgets are in use by compilers at one time.
pub const MAX_CONCURRENT_COMPILES: usize = 4;

/// Programs compiling right now, and the most at once since [`take_most_concurrent_compiles`].
static COMPILING: AtomicUsize = AtomicUsize::new(0);
static MOST_COMPILING: AtomicUsize = AtomicUsize::new(0);

/// The most programs that compiled at once in this process since the previous call, which
/// resets it. For tests of [`MAX_CONCURRENT_COMPILES`].
#[doc(hidden)]
pub fn take_most_concurrent_compiles() -> usize {
    MOST_COMPILING.swap(0, Ordering::Relaxed)
}

/// The diagnostic of an execution cancelled through its token.
fn cancelled() -> Diagnostic {
    Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        "Execution was cancelled by the host.",
    )
}

/// The process-wide permits of [`MAX_CONCURRENT_COMPILES`].
fn compile_permits() -> Arc<tokio::sync::Semaphore> {
    static PERMITS: std::sync::OnceLock<Arc<tokio::sync::Semaphore>> = std::sync::OnceLock::new();
    PERMITS
        .get_or_init(|| Arc::new(tokio::sync::Semaphore::new(MAX_CONCURRENT_COMPILES)))
        .clone()
}

/// The guest language of a [`CodeMode`]. Default: Lua.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// Lua 5.4 subset (`codemode-lua`).
    #[default]
    Lua,
    /// JavaScript: not available yet ([`BuildError::UnsupportedLanguage`]).
    JavaScript,
}

/// Why a [`CodeMode`] could not be built. Every message names the tool or path concerned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// A tool or namespace key has an empty segment (`""`, `"a..b"`, `".a"`, `"a."`).
    #[error(
        "tool path '{path}' contains an empty segment; use non-empty names separated by single dots (e.g. \"orders.lookup\")"
    )]
    EmptySegment {
        /// The key as given.
        path: String,
    },
    /// Two tools canonicalise to the same path.
    #[error("tool '{path}' is defined twice; every tool needs its own path")]
    DuplicateTool {
        /// Canonical path.
        path: String,
    },
    /// Two descriptions for the same namespace path.
    #[error("namespace '{path}' has two descriptions; give it only one")]
    DuplicateNamespaceDescription {
        /// Canonical path.
        path: String,
    },
    /// A tool's input or output JSON Schema does not compile.
    #[error("tool '{path}' has an invalid {which} schema: {message}")]
    InvalidSchema {
        /// Canonical path of the tool.
        path: String,
        /// `"input"` or `"output"`.
        which: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The chosen language is not available.
    #[error("JavaScript support is not available yet; use Language::Lua")]
    UnsupportedLanguage(Language),
    /// An extension name or function path is not a dotted Lua name.
    #[error(
        "extension '{extension}': '{path}' is not a valid global path; use Lua names (letters, digits and '_', not starting with a digit, not a keyword) separated by single dots"
    )]
    InvalidExtensionName {
        /// The extension's name.
        extension: String,
        /// The offending full path.
        path: String,
    },
    /// An extension without functions.
    #[error("extension '{extension}' has no functions; add some with .function(name, handler)")]
    EmptyExtension {
        /// The extension's name.
        extension: String,
    },
    /// An extension global would shadow a built-in global ([`crate::extension::RESERVED_GLOBALS`]).
    #[error(
        "extension '{extension}' would shadow the built-in global '{global}'; choose another name"
    )]
    ReservedGlobal {
        /// The extension's name.
        extension: String,
        /// The global.
        global: String,
    },
    /// Two extensions claim the same global, or one path is both a function and a table.
    #[error("extension '{extension}': {message}")]
    ExtensionConflict {
        /// The extension added last.
        extension: String,
        /// What collides with what.
        message: String,
    },
}

/// Options of a [`CodeMode`]: language, tools, namespaces, limits, hooks, extensions. Also the
/// builder.
///
/// ```
/// use codemode::{CodeMode, Limits, Namespace, Tool};
/// use serde_json::json;
/// let lookup = Tool::new("Look up an order.", json!({"type": "object"}), |v| async move { Ok(v) });
/// let codemode = CodeMode::builder()
///     .tool("orders.lookup", lookup)
///     .namespace("orders", Namespace::new().description("Order management"))
///     .limits(Limits::default().with_timeout_ms(10_000)?)
///     .build()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct Options {
    language: Language,
    root: Namespace,
    limits: Limits,
    hooks: Option<Arc<dyn Hooks>>,
    extensions: Vec<Extension>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("language", &self.language)
            .field("root", &self.root)
            .field("limits", &self.limits)
            .field("hooks", &self.hooks.is_some())
            .field("extensions", &self.extensions)
            .finish()
    }
}

impl Options {
    /// Lua, no tools, default limits.
    pub fn new() -> Self {
        Options::default()
    }

    /// Choose the language (default Lua).
    pub fn language(mut self, language: Language) -> Self {
        self.language = language;
        self
    }

    /// Add a tool at a dotted path (`"orders.lookup"`).
    pub fn tool(mut self, path: impl Into<String>, tool: Tool) -> Self {
        self.root = std::mem::take(&mut self.root).tool(path, tool);
        self
    }

    /// Add many tools at once (path → tool).
    pub fn tools<K: Into<String>>(mut self, tools: impl IntoIterator<Item = (K, Tool)>) -> Self {
        self.root = std::mem::take(&mut self.root).tools(tools);
        self
    }

    /// Add a namespace (its description and/or tools) at a dotted path.
    pub fn namespace(mut self, path: impl Into<String>, namespace: Namespace) -> Self {
        self.root = std::mem::take(&mut self.root).namespace(path, namespace);
        self
    }

    /// Set the limits (already validated by [`Limits`]).
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Set the hooks around every host call (see [`crate::hooks`]); replaces earlier hooks.
    /// `Arc<H>` works too, so the host can keep a handle on its hooks.
    pub fn hooks(mut self, hooks: impl Hooks) -> Self {
        self.hooks = Some(Arc::new(hooks));
        self
    }

    /// Add an extension (host functions as Lua globals, see [`crate::extension`]). Names are
    /// checked by [`Options::build`].
    pub fn extension(mut self, extension: Extension) -> Self {
        self.extensions.push(extension);
        self
    }

    /// Build the runtime: canonicalise paths, compile schemas, index tools for `search`, check
    /// extension names. Errors: [`BuildError`].
    pub fn build(self) -> Result<CodeMode, BuildError> {
        CodeMode::new(self)
    }
}

struct Inner {
    language: Language,
    tree: Arc<ToolTree>,
    index: Arc<SearchIndex>,
    limits: Limits,
    env: Env,
    /// `None` when the host gave no hooks (the gate then costs nothing).
    hooks: Option<Arc<dyn Hooks>>,
    extensions: HashMap<String, ExtensionHandler>,
    /// `tools.search(...)` is an alias of the `search` global (no tool owns the root `search`).
    search_alias: bool,
}

/// The tool path that aliases the `search` global when no tool uses it.
const SEARCH_ALIAS: &str = "search";

/// `true` when no tool path is `search` or starts with `search.`, so `tools.search(...)` can
/// alias the built-in.
fn search_alias_free(tree: &ToolTree) -> bool {
    !tree.paths().any(|p| search::in_namespace(p, SEARCH_ALIAS))
}

/// A Code Mode runtime: built once, then [`CodeMode::execute`] any number of times, concurrently.
/// Every execution has fresh state (globals, counters, logs). Cheap to clone (shared inside).
#[derive(Clone)]
pub struct CodeMode {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for CodeMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeMode")
            .field("language", &self.inner.language)
            .field("tools", &self.inner.tree.paths().collect::<Vec<_>>())
            .field("limits", &self.inner.limits)
            .finish()
    }
}

impl CodeMode {
    /// Start building a runtime.
    pub fn builder() -> Options {
        Options::new()
    }

    /// Build a runtime from options. Errors: [`BuildError`].
    pub fn new(options: Options) -> Result<CodeMode, BuildError> {
        if options.language != Language::Lua {
            return Err(BuildError::UnsupportedLanguage(options.language));
        }
        let mut tree = ToolTree::default();
        tree.insert_root(options.root)?;
        let tree = Arc::new(tree);
        let index = Arc::new(SearchIndex::for_language(&tree, options.language));
        let extensions = check_extensions(options.extensions)?;
        let mut extension_paths: Vec<String> = extensions.keys().cloned().collect();
        extension_paths.sort();
        let suggest_index = index.clone();
        let mut tool_paths: Vec<String> = tree.paths().map(str::to_string).collect();
        let search_alias = search_alias_free(&tree);
        if search_alias {
            tool_paths.push(SEARCH_ALIAS.to_string());
        }
        // Paths under a namespace marked unavailable fail with a catchable ToolFailure.
        let unavailable_tree = tree.clone();
        let env = Env {
            tool_paths,
            extension_paths,
            suggest: Some(Arc::new(move |p: &str| suggest_index.suggest(p))),
            unavailable: tree.has_unavailable().then(|| {
                Arc::new(move |p: &str| unavailable_tree.unavailable_message(p))
                    as Arc<dyn Fn(&str) -> Option<String> + Send + Sync>
            }),
        };
        Ok(CodeMode {
            inner: Arc::new(Inner {
                language: options.language,
                tree,
                index,
                limits: options.limits,
                env,
                hooks: options.hooks,
                extensions,
                search_alias,
            }),
        })
    }

    /// The tool tree.
    pub fn tools(&self) -> &ToolTree {
        &self.inner.tree
    }

    /// The search index over the tools (what the built-in `search` uses).
    pub fn search_index(&self) -> &SearchIndex {
        &self.inner.index
    }

    /// Run the built-in `search` from the host (same input checks and result as a program's
    /// `search(...)`, without hooks or counting). Errors: the `InvalidToolInput` message.
    pub fn search(&self, input: &Value) -> Result<Value, String> {
        let req = SearchRequest::from_input(input)?;
        Ok(self.inner.index.search(&req))
    }

    /// Dotted paths of every extension function (`fs.list`, `fs.read`, ...), sorted.
    pub fn extension_paths(&self) -> &[String] {
        &self.inner.env.extension_paths
    }

    /// The limits every execution runs under.
    pub fn limits(&self) -> Limits {
        self.inner.limits
    }

    /// The language.
    pub fn language(&self) -> Language {
        self.inner.language
    }

    /// Run one program. The future is `Send + 'static` (spawn it), never fails (every problem is
    /// a failed [`ExecutionResult`]), and dropping it stops the execution and drops in-flight
    /// tool futures.
    pub fn execute(
        &self,
        source: &str,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        self.execute_with_cancel(source, CancellationToken::new())
    }

    /// Like [`CodeMode::execute`]; cancelling `cancel` ends the execution with an
    /// `ExecutionFailure` "Execution was cancelled by the host." (logs and toolCalls kept,
    /// in-flight calls `interrupted`).
    pub fn execute_with_cancel(
        &self,
        source: &str,
        cancel: CancellationToken,
    ) -> impl Future<Output = ExecutionResult> + Send + 'static + use<> {
        let inner = self.inner.clone();
        let source = source.to_owned();
        async move {
            let start = Instant::now();
            let deadline = deadline_after(start, inner.limits.timeout_ms());
            if is_blank_lua(&source) {
                return ExecutionResult::failure(Diagnostic::new(
                    DiagnosticKind::ParseError,
                    "The program is empty: write Lua statements and `return` the result.",
                ));
            }
            let machine_inner = inner.clone();
            let source_len = source.len();
            let inline_setup = source_len <= INLINE_COMPILE_BYTES;
            // A long program compiles only with one of MAX_CONCURRENT_COMPILES permits, so
            // many large programs at once cannot hold that many compilers' memory; waiting
            // for one counts against the deadline.
            let permit = if inline_setup {
                None
            } else {
                let wait = compile_permits().acquire_owned();
                tokio::select! {
                    biased;
                    _ = cancel.cancelled() => return ExecutionResult::failure(cancelled()),
                    _ = tokio::time::sleep_until(deadline) => {
                        return ExecutionResult::failure(Diagnostic::new(
                            DiagnosticKind::TimeoutExceeded,
                            format!(
                                "Execution timed out after {}ms (waiting to compile: other large programs were compiling).",
                                inner.limits.timeout_ms()
                            ),
                        ));
                    }
                    p = wait => p.ok(),
                }
            };
            // Compiling and building the machine run in the first inline stretch (short
            // programs) or the first segment on the blocking pool (see `drive`).
            let setup = move || {
                let _permit = permit;
                let budgets = machine_inner.limits.budgets();
                let counted = _permit.is_some();
                if counted {
                    let now = COMPILING.fetch_add(1, Ordering::Relaxed) + 1;
                    MOST_COMPILING.fetch_max(now, Ordering::Relaxed);
                }
                let program = codemode_lua::compile_with(&source, &budgets);
                if counted {
                    COMPILING.fetch_sub(1, Ordering::Relaxed);
                }
                let program = program.map_err(Diagnostic::from)?;
                let mut machine = Machine::new(&program, &machine_inner.env, budgets);
                // Natives that call back into Lua (a `table.sort` comparator) and long data
                // walks cannot yield; the machine checks this deadline there itself.
                machine.set_deadline(deadline.into_std());
                Ok(machine)
            };
            drive(&inner, setup, inline_setup, deadline, &cancel).await
        }
    }
}

impl CodeMode {
    /// Call one tool the way a program would, outside any program: the input is checked against
    /// the tool's schema, the handler runs under `timeout_ms`, the output is checked. Useful for
    /// hosts (and tests) that want the same validation and error messages. Errors: the
    /// diagnostic a program would get (`UnknownTool`, `InvalidToolInput`, `ToolFailure`,
    /// `InvalidToolOutput`, `TimeoutExceeded`).
    pub async fn call_tool(&self, path: &str, input: Value) -> Result<Value, Diagnostic> {
        let cancel = CancellationToken::new();
        let deadline = deadline_after(Instant::now(), self.inner.limits.timeout_ms());
        let mut exec = Exec::new(&self.inner, deadline, &cancel);
        match exec.tool_call(path.to_string(), vec![input]).await {
            Answer::Reply(HostReply::Value(v)) => Ok(v),
            Answer::Reply(HostReply::Error { kind, message }) => Err(exec.diagnostic(GuestError {
                kind,
                message,
                location: None,
                suggestions: Vec::new(),
            })),
            Answer::Reply(HostReply::Abort(e)) => Err(e.into()),
            Answer::Stop(d) => Err(d),
        }
    }
}

/// One-shot: build a runtime from `options` and run `source` (≡ `options.build()?.execute(source)`).
pub async fn execute(options: Options, source: &str) -> Result<ExecutionResult, BuildError> {
    let cm = CodeMode::new(options)?;
    Ok(cm.execute(source).await)
}

fn deadline_after(start: Instant, timeout_ms: u64) -> Instant {
    start
        .checked_add(Duration::from_millis(timeout_ms))
        .unwrap_or_else(|| start + Duration::from_secs(100 * 365 * 24 * 3600))
}

/// What the driver needs from a guest machine (the real one is [`codemode_lua::Machine`]; tests
/// use a scripted fake). It moves between the async driver and the blocking pool's threads.
pub(crate) trait Guest: Send + 'static {
    /// Whether the guest supports inline stretches (the real machine does; test fakes that
    /// block inside `run` do not, and always run on the blocking pool).
    const INLINE: bool = false;
    fn run(&mut self, slice: u32) -> Step;
    fn resume(&mut self, reply: HostReply);
    fn take_logs(&mut self) -> Vec<String>;
    /// Bytes the guest holds (decides where a finished guest is dropped).
    fn memory_used(&self) -> usize {
        0
    }
    /// Start or end an inline stretch ([`Machine::set_inline`]).
    fn set_inline(&mut self, _until: Option<std::time::Instant>) {}
    /// After a `Yield` in a stretch: continue on the blocking pool ([`Machine::wants_pool`]).
    fn wants_pool(&self) -> bool {
        true
    }
    /// Import a reply in a stretch, or hand it back for the pool ([`Machine::try_resume`]).
    fn try_resume(&mut self, reply: HostReply) -> Result<(), HostReply> {
        Err(reply)
    }
    /// After `Done`: no `return` statement ran ([`Machine::ended_without_return`]).
    fn ended_without_return(&self) -> bool {
        false
    }
}

impl Guest for Machine {
    const INLINE: bool = true;
    fn set_inline(&mut self, until: Option<std::time::Instant>) {
        Machine::set_inline(self, until)
    }
    fn wants_pool(&self) -> bool {
        Machine::wants_pool(self)
    }
    fn try_resume(&mut self, reply: HostReply) -> Result<(), HostReply> {
        Machine::try_resume(self, reply)
    }
    fn ended_without_return(&self) -> bool {
        Machine::ended_without_return(self)
    }
    fn run(&mut self, slice: u32) -> Step {
        Machine::run(self, slice)
    }
    fn resume(&mut self, reply: HostReply) {
        Machine::resume(self, reply)
    }
    fn take_logs(&mut self) -> Vec<String> {
        Machine::take_logs(self)
    }
    fn memory_used(&self) -> usize {
        Machine::memory_used(self)
    }
}

/// Per-execution host state.
struct Exec<'a> {
    inner: &'a Inner,
    deadline: Instant,
    cancel: &'a CancellationToken,
    attempts: u64,
    tool_calls: Vec<ToolCallRecord>,
    /// Bytes of tool-call inputs the record may still hold in full (see [`Exec::record`]).
    input_budget: usize,
    /// [`Exec::record`] replaced an input by the omitted-input marker.
    inputs_cut: bool,
    /// Suggestions of host errors handed to the guest, re-attached if the error ends the run.
    host_suggestions: HashMap<(ErrorKind, String), Vec<String>>,
    /// One timer for the deadline, created at the first tool call and reused by every call.
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
}

/// Bound on remembered host-error suggestions per execution.
const MAX_REMEMBERED_SUGGESTIONS: usize = 64;

enum Answer {
    Reply(HostReply),
    Stop(Diagnostic),
}

/// The guest between segments, with its adaptive slice size. Boxed while it travels between
/// the driver and the blocking pool, so a hand-off moves one pointer.
struct Worker<G> {
    guest: G,
    slice: u32,
}

/// How one segment (one `spawn_blocking`) of guest work ended.
enum Report<G> {
    /// Compiling or building the machine failed.
    Failed(Diagnostic),
    /// The guest asks for a host call; the machine comes back with it, parked until the reply.
    Paused(HostCall, Box<Worker<G>>),
    /// `Done` or `Error`, and whether the program ended without `return`; the guest was
    /// dropped on the blocking pool ([`dispose`]).
    Finished(Step, bool),
    /// The deadline passed between two slices; the guest was dropped on the blocking pool.
    TimedOut,
    /// The driver was gone at a slice boundary (nobody reads this report).
    Abandoned,
}

/// State shared between the driver and the running segment of one execution.
struct Shared {
    logs: Mutex<LogSink>,
    /// Set when the driver stops waiting (it returned, or its future was dropped): a segment
    /// still running stops at its next slice boundary.
    abandoned: AtomicBool,
}

impl Shared {
    fn collect_logs<G: Guest>(&self, guest: &mut G) {
        let lines = guest.take_logs();
        if !lines.is_empty() {
            self.logs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .extend(lines);
        }
    }
}

/// Log lines taken from the guest after every slice, kept host-side so they survive a backstop
/// timeout. Holds the leading lines that fit `budget` bytes (each line costs its length + 1, as
/// in [`ExecutionResult::truncate`]); later lines are only counted, so a program printing in a
/// loop cannot grow host memory.
struct LogSink {
    lines: Vec<String>,
    bytes: usize,
    budget: usize,
    /// Lines not kept (everything after the first line that did not fit).
    dropped: usize,
}

impl LogSink {
    fn new(budget: usize) -> Self {
        LogSink {
            lines: Vec::new(),
            bytes: 0,
            budget,
            dropped: 0,
        }
    }

    fn extend(&mut self, lines: Vec<String>) {
        for line in lines {
            let cost = line.len().saturating_add(1);
            if self.dropped == 0 && self.bytes.saturating_add(cost) <= self.budget {
                self.bytes += cost;
                self.lines.push(line);
            } else {
                self.dropped += 1;
            }
        }
    }
}

/// Marks the execution abandoned when the driver ends or its future is dropped.
struct AbandonOnDrop(Arc<Shared>);

impl Drop for AbandonOnDrop {
    fn drop(&mut self) {
        self.0.abandoned.store(true, Ordering::Relaxed);
    }
}

/// A guest parked while the driver answers its host call. If the driver ends before handing it
/// to the next segment (deadline, cancellation, a dropped `execute` future), the guest is
/// dropped on the blocking pool, like every other guest: freeing a large heap is guest work.
struct Parked<G: Guest>(Option<Box<Worker<G>>>);

impl<G: Guest> Parked<G> {
    fn take(mut self) -> Box<Worker<G>> {
        self.0.take().expect("a parked guest is taken once")
    }
}

impl<G: Guest> Drop for Parked<G> {
    fn drop(&mut self) {
        if let Some(w) = self.0.take() {
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => drop(handle.spawn_blocking(move || drop(w))),
                Err(_) => drop(w),
            }
        }
    }
}

/// A finished guest holding more than this many bytes is dropped by a blocking task of its own,
/// so freeing its heap does not delay the segment's report; a smaller one is dropped inline
/// (cheaper than the hand-off).
const DROP_ASIDE_BYTES: usize = 64 * 1024;

/// Drops a finished guest on the blocking pool (called on a segment's thread).
fn dispose<G: Guest>(w: Box<Worker<G>>) {
    if w.guest.memory_used() > DROP_ASIDE_BYTES
        && let Ok(handle) = tokio::runtime::Handle::try_current()
    {
        drop(handle.spawn_blocking(move || drop(w)));
    }
}

/// One segment of guest work, on a blocking-pool thread: runs slices until the guest needs the
/// host, finishes, or must stop. Logs are moved to `shared` after every slice. The guest comes
/// back only with a host call; otherwise it is dropped on the blocking pool ([`dispose`]).
fn run_segment<G: Guest>(
    mut w: Box<Worker<G>>,
    deadline: std::time::Instant,
    shared: &Shared,
) -> Report<G> {
    loop {
        let t0 = std::time::Instant::now();
        let step = w.guest.run(w.slice);
        let took = t0.elapsed();
        shared.collect_logs(&mut w.guest);
        match step {
            Step::Yield => {
                w.slice = adapt_slice(w.slice, took);
                if shared.abandoned.load(Ordering::Relaxed) {
                    dispose(w);
                    return Report::Abandoned;
                }
                if std::time::Instant::now() >= deadline {
                    dispose(w);
                    return Report::TimedOut;
                }
            }
            Step::HostCall(call) => return Report::Paused(call, w),
            done_or_error => {
                let no_return = w.guest.ended_without_return();
                dispose(w);
                return Report::Finished(done_or_error, no_return);
            }
        }
    }
}

/// Longest inline stretch (including an inline compile) since the last
/// [`take_longest_inline_stretch`], in ns, process-wide.
static LONGEST_INLINE_STRETCH_NS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

fn record_stretch(took: Duration) {
    let ns = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
    LONGEST_INLINE_STRETCH_NS.fetch_max(ns, Ordering::Relaxed);
}

/// The longest inline stretch (guest work run on the async runtime's thread, see the module
/// docs) of any execution in this process since the previous call, which it resets. For tests
/// and benchmarks that check how long guest work may hold the runtime's thread.
#[doc(hidden)]
pub fn take_longest_inline_stretch() -> Duration {
    Duration::from_nanos(LONGEST_INLINE_STRETCH_NS.swap(0, Ordering::Relaxed))
}

/// How an inline stretch ended.
enum Stretch<G> {
    /// Like the segment reports of the same names.
    Report(Report<G>),
    /// The stretch is over but the guest is not: continue on the blocking pool.
    Pool(Box<Worker<G>>),
}

/// One inline stretch (see the module docs): slices of [`INLINE_SLICE`] run directly on the
/// caller's thread until the guest needs the host, finishes, asks for the pool
/// ([`Guest::wants_pool`]) or [`INLINE_BUDGET`] has passed. `reply`, if any, is imported
/// first; a reply too large to import in the stretch goes with the guest to the pool.
fn run_inline<G: Guest>(
    w: Box<Worker<G>>,
    reply: Option<HostReply>,
    deadline: std::time::Instant,
    shared: &Shared,
) -> (Stretch<G>, Option<HostReply>) {
    let start = std::time::Instant::now();
    let r = stretch(w, reply, start, deadline, shared);
    record_stretch(start.elapsed());
    r
}

fn stretch<G: Guest>(
    mut w: Box<Worker<G>>,
    reply: Option<HostReply>,
    start: std::time::Instant,
    deadline: std::time::Instant,
    shared: &Shared,
) -> (Stretch<G>, Option<HostReply>) {
    w.guest.set_inline(Some(start + INLINE_BUDGET));
    if let Some(reply) = reply
        && let Err(reply) = w.guest.try_resume(reply)
    {
        w.guest.set_inline(None);
        return (Stretch::Pool(w), Some(reply));
    }
    loop {
        let step = w.guest.run(INLINE_SLICE);
        shared.collect_logs(&mut w.guest);
        match step {
            Step::Yield => {
                let now = std::time::Instant::now();
                if now >= deadline {
                    dispose(w);
                    return (Stretch::Report(Report::TimedOut), None);
                }
                if w.guest.wants_pool() || now >= start + INLINE_BUDGET {
                    w.guest.set_inline(None);
                    return (Stretch::Pool(w), None);
                }
            }
            Step::HostCall(call) => {
                w.guest.set_inline(None);
                return (Stretch::Report(Report::Paused(call, w)), None);
            }
            done_or_error => {
                let no_return = w.guest.ended_without_return();
                dispose(w);
                return (
                    Stretch::Report(Report::Finished(done_or_error, no_return)),
                    None,
                );
            }
        }
    }
}

/// The diagnostic for a segment that panicked or was cancelled by a runtime shutdown.
fn internal_failure(e: tokio::task::JoinError) -> Diagnostic {
    let what = if e.is_panic() {
        "the interpreter panicked"
    } else {
        "the interpreter stopped unexpectedly"
    };
    Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        format!(
            "Internal error: {what}. This is a bug in codemode, not in your program; run it again, and report it if it repeats."
        ),
    )
}

/// The execution loop (see the module docs, "Driver"): each segment of guest work runs on the
/// blocking pool while this future awaits it under the cancellation token and the backstop
/// (`deadline` + [`BACKSTOP_MARGIN`]), whichever comes first; host calls are answered here, with
/// no thread held.
async fn drive<G, S>(
    inner: &Inner,
    setup: S,
    inline_setup: bool,
    deadline: Instant,
    cancel: &CancellationToken,
) -> ExecutionResult
where
    G: Guest,
    S: FnOnce() -> Result<G, Diagnostic> + Send + 'static,
{
    /// What runs the guest next.
    enum Next<G> {
        /// An inline stretch, importing the reply first if there is one.
        Inline(Box<Worker<G>>, Option<HostReply>),
        /// A segment on the blocking pool, awaited under the backstop.
        Pool(tokio::task::JoinHandle<Report<G>>),
    }

    let mut exec = Exec::new(inner, deadline, cancel);
    let mut warnings = Vec::new();
    let shared = Arc::new(Shared {
        logs: Mutex::new(LogSink::new(retained_bytes(
            inner.limits.max_output_bytes(),
        ))),
        abandoned: AtomicBool::new(false),
    });
    let _abandon = AbandonOnDrop(shared.clone());
    let backstop = tokio::time::sleep_until(deadline + BACKSTOP_MARGIN);
    tokio::pin!(backstop);
    let std_deadline = deadline.into_std();
    let pool = |w: Box<Worker<G>>, reply: Option<HostReply>| {
        let segment_shared = shared.clone();
        // Importing a reply (a tool output can be large) is guest work: it runs in the
        // segment, under the backstop.
        Next::Pool(tokio::task::spawn_blocking(move || {
            let mut w = w;
            if let Some(reply) = reply {
                w.guest.resume(reply);
            }
            run_segment(w, std_deadline, &segment_shared)
        }))
    };
    let worker = |guest| {
        Box::new(Worker {
            guest,
            slice: INITIAL_SLICE,
        })
    };
    let mut next = if G::INLINE && inline_setup {
        // A short program is compiled in the first inline stretch.
        let start = std::time::Instant::now();
        let guest = setup();
        record_stretch(start.elapsed());
        match guest {
            Ok(guest) => Next::Inline(worker(guest), None),
            Err(d) => Next::Pool(tokio::spawn(async move { Report::Failed(d) })),
        }
    } else {
        // Longer ones are compiled in the first segment, so the backstop covers compiling and
        // building the machine too.
        let segment_shared = shared.clone();
        Next::Pool(tokio::task::spawn_blocking(move || match setup() {
            Ok(guest) => run_segment(worker(guest), std_deadline, &segment_shared),
            Err(d) => Report::Failed(d),
        }))
    };
    let outcome: Result<Value, Diagnostic> = loop {
        let report = match next {
            Next::Inline(w, reply) => {
                if let Some(d) = exec.stop_reason() {
                    drop(Parked(Some(w)));
                    break Err(d);
                }
                match run_inline(w, reply, std_deadline, &shared) {
                    (Stretch::Report(report), _) => report,
                    (Stretch::Pool(w), reply) => {
                        next = pool(w, reply);
                        continue;
                    }
                }
            }
            // Dropping `segment` (when this loop breaks or the future is dropped) detaches a
            // running segment: it stops at its next slice boundary (`abandoned`, or the
            // deadline the machine checks itself) and drops the guest on its own thread.
            // Nothing waits for it.
            Next::Pool(mut segment) => tokio::select! {
                biased;
                _ = cancel.cancelled() => break Err(exec.cancel_diagnostic()),
                r = &mut segment => match r {
                    Ok(report) => report,
                    Err(e) => break Err(internal_failure(e)),
                },
                _ = backstop.as_mut() => break Err(exec.timeout_diagnostic()),
            },
        };
        match report {
            Report::Failed(d) => break Err(d),
            Report::Finished(Step::Done(value), no_return) => {
                if no_return {
                    warnings.push(Diagnostic::new(DiagnosticKind::NoReturn, NO_RETURN_WARNING));
                }
                break Ok(value);
            }
            Report::Finished(Step::Error(e), _) => break Err(exec.diagnostic(e)),
            Report::Finished(..) | Report::TimedOut | Report::Abandoned => {
                break Err(exec
                    .stop_reason()
                    .unwrap_or_else(|| exec.timeout_diagnostic()));
            }
            Report::Paused(call, w) => {
                let parked = Parked(Some(w));
                if let Some(d) = exec.stop_reason() {
                    break Err(d);
                }
                match exec.host_call(call).await {
                    Answer::Reply(reply) => {
                        if G::INLINE {
                            // Tools that answer at once never make this future wait: give
                            // the runtime its turn now and then (tokio's cooperative budget).
                            tokio::task::coop::consume_budget().await;
                            next = Next::Inline(parked.take(), Some(reply));
                        } else {
                            next = pool(parked.take(), Some(reply));
                        }
                    }
                    Answer::Stop(d) => break Err(d),
                }
            }
        }
    };
    let (logs, dropped) = {
        let mut sink = shared.logs.lock().unwrap_or_else(|e| e.into_inner());
        (std::mem::take(&mut sink.lines), sink.dropped)
    };
    let mut result = ExecutionResult {
        outcome,
        warnings,
        logs,
        truncated: exec.inputs_cut,
        tool_calls: exec.tool_calls,
    };
    let max_output_bytes = inner.limits.max_output_bytes();
    let small = match &result.outcome {
        Ok(v) => json_within(v, FINISH_INLINE_BYTES),
        Err(_) => true,
    };
    if small {
        result.truncate_with_dropped_logs(max_output_bytes, dropped);
        return result;
    }
    // Measuring and cutting a large value (up to 64 MiB of JSON) is long work: not on the
    // async runtime's thread.
    match tokio::task::spawn_blocking(move || {
        result.truncate_with_dropped_logs(max_output_bytes, dropped);
        result
    })
    .await
    {
        Ok(result) => result,
        Err(e) => ExecutionResult::failure(internal_failure(e)),
    }
}

/// A result value whose JSON may exceed this many bytes is measured and cut
/// ([`ExecutionResult::truncate`]) on the blocking pool instead of the async thread.
const FINISH_INLINE_BYTES: usize = 256 * 1024;

/// Whether the JSON text of `v` certainly fits in `budget` bytes (an estimate from above: string
/// lengths plus a few bytes per item; escapes counted as 6 bytes per byte). Iterative, and it
/// stops as soon as the budget is spent, so it costs at most about `budget` steps.
fn json_within(v: &Value, budget: usize) -> bool {
    let mut left = budget as isize;
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        left -= 8;
        match v {
            Value::String(s) => left -= (s.len() as isize).saturating_mul(6),
            Value::Array(items) => {
                left -= (items.len() as isize).saturating_mul(8);
                if left < 0 {
                    return false;
                }
                stack.extend(items.iter());
            }
            Value::Object(m) => {
                left -= (m.len() as isize).saturating_mul(8);
                if left < 0 {
                    return false;
                }
                for (k, v) in m {
                    left -= (k.len() as isize).saturating_mul(6);
                    stack.push(v);
                }
            }
            _ => left -= 24,
        }
        if left < 0 {
            return false;
        }
    }
    true
}

/// Bytes of logs and of tool-call inputs the host keeps during one execution: what
/// `max_output_bytes` can show, at most [`crate::limits::MAX_RETAINED_OUTPUT_BYTES`].
fn retained_bytes(max_output_bytes: u64) -> usize {
    usize::try_from(max_output_bytes.min(crate::limits::MAX_RETAINED_OUTPUT_BYTES))
        .unwrap_or(usize::MAX)
}

fn adapt_slice(slice: u32, took: Duration) -> u32 {
    if took > TARGET_SLICE * 2 {
        (slice / 2).max(MIN_SLICE)
    } else if took < TARGET_SLICE / 2 {
        slice.saturating_mul(2).min(MAX_SLICE)
    } else {
        slice
    }
}

impl<'a> Exec<'a> {
    fn new(inner: &'a Inner, deadline: Instant, cancel: &'a CancellationToken) -> Self {
        Exec {
            inner,
            deadline,
            cancel,
            attempts: 0,
            tool_calls: Vec::new(),
            input_budget: retained_bytes(inner.limits.max_output_bytes()),
            inputs_cut: false,
            host_suggestions: HashMap::new(),
            sleep: None,
        }
    }
}

impl Exec<'_> {
    fn timeout_diagnostic(&self) -> Diagnostic {
        Diagnostic::new(
            DiagnosticKind::TimeoutExceeded,
            format!("Execution timed out after {}ms.", self.inner.limits.timeout_ms()),
        )
        .with_suggestion(
            "Do less in one execution: narrow tool queries, avoid unbounded loops, or continue the work in a new execution.",
        )
    }

    fn cancel_diagnostic(&self) -> Diagnostic {
        cancelled()
    }

    fn stop_reason(&self) -> Option<Diagnostic> {
        if self.cancel.is_cancelled() {
            Some(self.cancel_diagnostic())
        } else if Instant::now() >= self.deadline {
            Some(self.timeout_diagnostic())
        } else {
            None
        }
    }

    /// A guest error → diagnostic, re-attaching host suggestions lost in `HostReply::Error`.
    fn diagnostic(&mut self, e: GuestError) -> Diagnostic {
        if e.kind == ErrorKind::TimeoutExceeded {
            // The machine noticed the deadline itself (inside a native that calls back into
            // Lua): same message as the driver's, keeping the machine's location.
            let mut d = self.timeout_diagnostic();
            d.location = e.location.map(Into::into);
            return d;
        }
        let key = (e.kind, e.message.clone());
        let mut d = Diagnostic::from(e);
        if d.suggestions.is_empty()
            && let Some(s) = self.host_suggestions.remove(&key)
        {
            d.suggestions = s;
        }
        d
    }

    fn host_error(
        &mut self,
        kind: DiagnosticKind,
        message: String,
        suggestions: Vec<String>,
    ) -> Answer {
        let gk = kind.to_guest().expect("host errors are guest kinds");
        if !suggestions.is_empty() && self.host_suggestions.len() < MAX_REMEMBERED_SUGGESTIONS {
            self.host_suggestions
                .insert((gk, message.clone()), suggestions);
        }
        Answer::Reply(HostReply::Error { kind: gk, message })
    }

    /// Lists an admitted call. The input is copied while the copies fit `max_output_bytes`
    /// (at most [`crate::limits::MAX_RETAINED_OUTPUT_BYTES`]) in total; a larger one is
    /// recorded as the omitted-input marker, so the record never holds more than the output
    /// can show ([`ExecutionResult::truncate`] cuts the rest).
    fn record(&mut self, name: &str, input: &Value, status: ToolCallStatus) -> usize {
        let cost = crate::result::json_len(input);
        let input = if cost <= self.input_budget {
            self.input_budget -= cost;
            input.clone()
        } else {
            self.inputs_cut = true;
            crate::result::omitted_input(cost)
        };
        self.tool_calls.push(ToolCallRecord {
            name: name.to_string(),
            input,
            status,
        });
        self.tool_calls.len() - 1
    }

    async fn host_call(&mut self, call: HostCall) -> Answer {
        self.attempts += 1;
        let max = self.inner.limits.max_tool_calls();
        if self.attempts > max {
            return Answer::Reply(HostReply::Abort(GuestError {
                kind: ErrorKind::ToolCallLimitExceeded,
                message: format!(
                    "Execution exceeded its tool-call limit of {max}; make fewer calls (batch work into one call, reuse results you already have) or continue in a new execution."
                ),
                location: call.location,
                suggestions: Vec::new(),
            }));
        }
        if let Some(refused) = call.refused {
            return self.refused_call(call.target, refused);
        }
        match call.target {
            HostTarget::Tool(path) => self.tool_call(path, call.args).await,
            HostTarget::Search => self.search_call(call.args).await,
            HostTarget::Extension(name) => self.extension_call(name, call.args).await,
        }
    }

    /// A call the guest refused before making it (see `HostCall::refused`), already counted:
    /// an input that cannot cross is listed as a failed call (its input a marker, since none
    /// could be exported); an unknown tool path is answered with the guest's own message and
    /// suggestions, and not listed (no tool has that name).
    fn refused_call(&mut self, target: HostTarget, refused: GuestError) -> Answer {
        let kind = DiagnosticKind::from(refused.kind);
        if refused.kind == ErrorKind::InvalidDataValue {
            let name = match &target {
                HostTarget::Tool(path) => Some(path.as_str()),
                HostTarget::Search => Some("search"),
                HostTarget::Extension(_) => None,
            };
            if let Some(name) = name {
                let mut why = refused.message.as_str();
                if why.len() > REFUSED_INPUT_MARKER_BYTES {
                    let mut end = REFUSED_INPUT_MARKER_BYTES;
                    while !why.is_char_boundary(end) {
                        end -= 1;
                    }
                    why = &why[..end];
                }
                let marker = Value::String(format!("[input not sent: {why}]"));
                self.record(name, &marker, ToolCallStatus::Failure);
            }
        }
        self.host_error(kind, refused.message, refused.suggestions)
    }

    /// Zero arguments → `{}`, one → itself, more → error message.
    fn single_input(name: &str, mut args: Vec<Value>) -> Result<Value, String> {
        match args.len() {
            0 => Ok(Value::Object(Default::default())),
            1 => Ok(args.pop().expect("one argument")),
            n => Err(format!(
                "Tool '{name}' expects at most one input table; got {n} arguments. Pass all fields in one table: {}({{ field = value }}).",
                if name == "search" {
                    "search".to_string()
                } else {
                    search::tool_expression(name)
                }
            )),
        }
    }

    /// Awaits `fut` under the deadline and the cancellation token; `Err` is the diagnostic that
    /// ends the run.
    async fn bounded<F: Future>(&mut self, fut: F) -> Result<F::Output, Diagnostic> {
        let deadline = self.deadline;
        let sleep = self
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        tokio::select! {
            biased;
            _ = self.cancel.cancelled() => Err(self.cancel_diagnostic()),
            _ = sleep.as_mut() => Err(self.timeout_diagnostic()),
            r = fut => Ok(r),
        }
    }

    /// Runs a `before` hook, turning a panic into a denial.
    async fn before_hook(
        hooks: Option<&dyn Hooks>,
        gate: Gate,
        name: &str,
        input: &Value,
        args: &[Value],
    ) -> Result<(), String> {
        let Some(hooks) = hooks else {
            return Ok(());
        };
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| match gate {
            Gate::Tool => hooks.tool_before(name, input),
            Gate::Extension => hooks.extension_before(name, args),
        }));
        match started {
            Err(_) => Err(HOOK_PANIC_MESSAGE.to_string()),
            Ok(fut) => AssertUnwindSafe(fut)
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Err(HOOK_PANIC_MESSAGE.to_string())),
        }
    }

    /// Runs an `after` hook: until the deadline or for [`AFTER_HOOK_GRACE`], whichever ends
    /// later; panics are ignored.
    async fn after_hook(
        &self,
        gate: Gate,
        name: &str,
        input: &Value,
        args: &[Value],
        outcome: &CallOutcome,
    ) {
        let Some(hooks) = self.inner.hooks.as_deref() else {
            return;
        };
        let started = std::panic::catch_unwind(AssertUnwindSafe(|| match gate {
            Gate::Tool => hooks.tool_after(name, input, outcome),
            Gate::Extension => hooks.extension_after(name, args, outcome),
        }));
        if let Ok(fut) = started {
            let until = self.deadline.max(Instant::now() + AFTER_HOOK_GRACE);
            let _ = tokio::time::timeout_at(until, AssertUnwindSafe(fut).catch_unwind()).await;
        }
    }

    async fn search_call(&mut self, args: Vec<Value>) -> Answer {
        let n_args = args.len();
        let all_args = (n_args > 1).then(|| Value::Array(args.clone()));
        let hint = vec![format!(
            "Call search with one table: search({{ query = \"words\", namespace = \"a.b\", limit = {}, offset = 0 }}); every field is optional.",
            search::DEFAULT_SEARCH_LIMIT
        )];
        let input = match Self::single_input("search", args) {
            Ok(v) => v,
            Err(msg) => {
                self.record(
                    "search",
                    &all_args.unwrap_or(Value::Null),
                    ToolCallStatus::Failure,
                );
                return self.host_error(DiagnosticKind::InvalidToolInput, msg, hint);
            }
        };
        let req = match SearchRequest::from_input(&input) {
            Ok(r) => r,
            Err(msg) => {
                self.record("search", &input, ToolCallStatus::Failure);
                return self.host_error(DiagnosticKind::InvalidToolInput, msg, hint);
            }
        };
        let index = self.record("search", &input, ToolCallStatus::Interrupted);
        let hooks = self.inner.hooks.as_deref();
        let gate = self
            .bounded(Self::before_hook(hooks, Gate::Tool, "search", &input, &[]))
            .await;
        let outcome = match gate {
            Err(stop) => {
                self.after_hook(Gate::Tool, "search", &input, &[], &CallOutcome::Interrupted)
                    .await;
                return Answer::Stop(stop);
            }
            Ok(Err(message)) => HookedOutcome::denied(message),
            Ok(Ok(())) => HookedOutcome::success(self.inner.index.search(&req)),
        };
        self.finish_tool(index, "search", &input, outcome).await
    }

    /// Records the final status, runs `tool_after`, and turns the outcome into the reply.
    async fn finish_tool(
        &mut self,
        index: usize,
        name: &str,
        input: &Value,
        outcome: HookedOutcome,
    ) -> Answer {
        self.tool_calls[index].status = outcome.outcome.status();
        self.after_hook(Gate::Tool, name, input, &[], &outcome.outcome)
            .await;
        match outcome.outcome {
            CallOutcome::Success(v) => Answer::Reply(HostReply::Value(v)),
            CallOutcome::Denied(message) => {
                self.host_error(DiagnosticKind::ToolFailure, message, Vec::new())
            }
            CallOutcome::Failure { kind, message } => {
                self.host_error(kind, message, outcome.suggestions)
            }
            CallOutcome::Interrupted => unreachable_interrupted(),
        }
    }

    async fn extension_call(&mut self, name: String, args: Vec<Value>) -> Answer {
        let Some(handler) = self.inner.extensions.get(&name).cloned() else {
            return self.host_error(
                DiagnosticKind::ExecutionFailure,
                format!("Extension function '{name}' is not available in this host."),
                Vec::new(),
            );
        };
        let null = Value::Null;
        let hooks = self.inner.hooks.as_deref();
        // Without hooks the arguments move into the handler; with hooks they are kept for `after`.
        let (handler_args, args) = if hooks.is_some() {
            (args.clone(), args)
        } else {
            (args, Vec::new())
        };
        let gated = self
            .bounded(async {
                Self::before_hook(hooks, Gate::Extension, &name, &null, &args).await?;
                let started = std::panic::catch_unwind(AssertUnwindSafe(|| handler(handler_args)));
                Ok(match started {
                    Err(_) => Err(ToolError::internal("the extension handler panicked")),
                    Ok(fut) => AssertUnwindSafe(fut)
                        .catch_unwind()
                        .await
                        .unwrap_or_else(|_| {
                            Err(ToolError::internal("the extension handler panicked"))
                        }),
                })
            })
            .await;
        let outcome = match gated {
            Err(stop) => {
                self.after_hook(
                    Gate::Extension,
                    &name,
                    &null,
                    &args,
                    &CallOutcome::Interrupted,
                )
                .await;
                return Answer::Stop(stop);
            }
            Ok(Err(message)) => CallOutcome::Denied(message),
            Ok(Ok(Ok(v))) => CallOutcome::Success(v),
            Ok(Ok(Err(e))) => CallOutcome::Failure {
                kind: DiagnosticKind::ExecutionFailure,
                message: match e.kind() {
                    ToolErrorKind::Internal => format!("Extension function '{name}' failed."),
                    _ if e.message().is_empty() => format!("Extension function '{name}' failed."),
                    _ => e.message().to_string(),
                },
            },
        };
        self.after_hook(Gate::Extension, &name, &null, &args, &outcome)
            .await;
        match outcome {
            CallOutcome::Success(v) => Answer::Reply(HostReply::Value(v)),
            CallOutcome::Denied(message) | CallOutcome::Failure { message, .. } => {
                self.host_error(DiagnosticKind::ExecutionFailure, message, Vec::new())
            }
            CallOutcome::Interrupted => unreachable_interrupted(),
        }
    }

    async fn tool_call(&mut self, path: String, args: Vec<Value>) -> Answer {
        let inner = self.inner;
        if inner.search_alias && path == SEARCH_ALIAS {
            return self.search_call(args).await;
        }
        let Some(entry) = inner.tree.get(&path).cloned() else {
            if let Some(message) = inner.tree.unavailable_message(&path) {
                return self.host_error(DiagnosticKind::ToolFailure, message, Vec::new());
            }
            let near = inner.index.suggest(&path);
            let (message, suggestions) = match near.first() {
                Some(best) => (
                    format!(
                        "Unknown tool '{path}'. Did you mean {}?",
                        search::tool_expression(best)
                    ),
                    near.iter().map(|p| search::tool_expression(p)).collect(),
                ),
                None => (
                    format!("Unknown tool '{path}'."),
                    vec![format!(
                        "Use search({{ query = {} }}) to find available tools.",
                        lua_quote(&path)
                    )],
                ),
            };
            return self.host_error(DiagnosticKind::UnknownTool, message, suggestions);
        };
        let n_args = args.len();
        let all_args = if n_args > 1 {
            Value::Array(args.clone())
        } else {
            Value::Null
        };
        let input = match Self::single_input(&path, args) {
            Ok(v) => v,
            Err(msg) => {
                // Recorded with all arguments as an array, so the call shows what was sent.
                self.record(&path, &all_args, ToolCallStatus::Failure);
                return self.host_error(
                    DiagnosticKind::InvalidToolInput,
                    msg,
                    vec![signature_hint(&path)],
                );
            }
        };
        let input = entry.input.coerce_integers(input);
        let (input, checked) = if entry.input.is_costly(&input) {
            // Slow patterns or a large schema or input: validate on the blocking pool, under
            // the deadline, so the async thread (and other executions) never waits for it.
            let e = entry.clone();
            let job = tokio::task::spawn_blocking(move || {
                let r = e.input.validate(&input);
                (input, r)
            });
            match self.bounded(job).await {
                Ok(Ok(done)) => done,
                Ok(Err(_)) => {
                    return self.host_error(
                        DiagnosticKind::ToolFailure,
                        format!(
                            "Tool '{path}': its input could not be validated (internal error)."
                        ),
                        Vec::new(),
                    );
                }
                Err(d) => {
                    // Timed out (or cancelled) while validating: the attempt is listed, and
                    // the validation job ends by itself off the async thread.
                    self.record(&path, &Value::Null, ToolCallStatus::Interrupted);
                    return Answer::Stop(d);
                }
            }
        } else {
            let r = entry.input.validate(&input);
            (input, r)
        };
        if let Err(msg) = checked {
            self.record(&path, &input, ToolCallStatus::Failure);
            return self.host_error(
                DiagnosticKind::InvalidToolInput,
                format!("Invalid input for tool '{path}': {msg}"),
                vec![signature_hint(&path)],
            );
        }
        let index = self.record(&path, &input, ToolCallStatus::Interrupted);
        let hooks = inner.hooks.as_deref();
        // Without hooks the input moves into the handler; with hooks it is kept for `after`.
        let (handler_input, input) = if hooks.is_some() {
            (input.clone(), input)
        } else {
            (input, Value::Null)
        };
        let gated = self
            .bounded(async {
                Self::before_hook(hooks, Gate::Tool, &path, &input, &[]).await?;
                let started =
                    std::panic::catch_unwind(AssertUnwindSafe(|| entry.tool.call(handler_input)));
                Ok(match started {
                    Err(_) => Err(ToolError::internal("the tool handler panicked")),
                    Ok(fut) => AssertUnwindSafe(fut)
                        .catch_unwind()
                        .await
                        .unwrap_or_else(|_| Err(ToolError::internal("the tool handler panicked"))),
                })
            })
            .await;
        let result = match gated {
            Err(stop) => {
                self.after_hook(Gate::Tool, &path, &input, &[], &CallOutcome::Interrupted)
                    .await;
                return Answer::Stop(stop);
            }
            Ok(Err(message)) => {
                return self
                    .finish_tool(index, &path, &input, HookedOutcome::denied(message))
                    .await;
            }
            Ok(Ok(r)) => r,
        };
        let outcome = match result {
            Err(e) => {
                let (kind, message, suggestions) = match e.kind() {
                    ToolErrorKind::Failure if !e.message().is_empty() => (
                        DiagnosticKind::ToolFailure,
                        e.message().to_string(),
                        Vec::new(),
                    ),
                    ToolErrorKind::InvalidInput => (
                        DiagnosticKind::InvalidToolInput,
                        format!("Invalid input for tool '{path}': {}", e.message()),
                        vec![signature_hint(&path)],
                    ),
                    ToolErrorKind::InvalidOutput => (
                        DiagnosticKind::InvalidToolOutput,
                        format!("Invalid output from tool '{path}': {}", e.message()),
                        Vec::new(),
                    ),
                    _ => (
                        DiagnosticKind::ToolFailure,
                        format!("Tool '{path}' failed."),
                        Vec::new(),
                    ),
                };
                HookedOutcome {
                    outcome: CallOutcome::Failure { kind, message },
                    suggestions,
                }
            }
            // Depth first (iteratively): a schema validator may recurse on a hostile value.
            Ok(value) => {
                match check_tool_output(&value).and_then(|()| match entry.output.as_ref() {
                    Some(out) => out.validate_output(&value),
                    None => Ok(()),
                }) {
                    Err(msg) => {
                        drop_deep(value);
                        HookedOutcome {
                            outcome: CallOutcome::Failure {
                                kind: DiagnosticKind::InvalidToolOutput,
                                message: format!("Invalid output from tool '{path}': {msg}"),
                            },
                            suggestions: Vec::new(),
                        }
                    }
                    Ok(()) => HookedOutcome::success(value),
                }
            }
        };
        self.finish_tool(index, &path, &input, outcome).await
    }
}

/// Which pair of hooks a call goes through.
#[derive(Clone, Copy, Debug)]
enum Gate {
    Tool,
    Extension,
}

/// A finished call's outcome plus the suggestions to attach to its diagnostic.
struct HookedOutcome {
    outcome: CallOutcome,
    suggestions: Vec<String>,
}

impl HookedOutcome {
    fn success(v: Value) -> Self {
        HookedOutcome {
            outcome: CallOutcome::Success(v),
            suggestions: Vec::new(),
        }
    }
    fn denied(message: String) -> Self {
        HookedOutcome {
            outcome: CallOutcome::Denied(message),
            suggestions: Vec::new(),
        }
    }
}

/// Interrupted calls return `Answer::Stop` before reaching the reply; this is the fallback.
fn unreachable_interrupted() -> Answer {
    Answer::Stop(Diagnostic::new(
        DiagnosticKind::ExecutionFailure,
        "A host call was interrupted.",
    ))
}

/// Checks extension names (see [`crate::extension`]) and flattens them to path → handler.
fn check_extensions(
    extensions: Vec<Extension>,
) -> Result<HashMap<String, ExtensionHandler>, BuildError> {
    // global → extension that owns it
    let mut owners: HashMap<String, String> = HashMap::new();
    let mut functions: HashMap<String, ExtensionHandler> = HashMap::new();
    for ext in extensions {
        let name = ext.name().to_string();
        if !is_lua_name(&name) {
            return Err(BuildError::InvalidExtensionName {
                extension: name.clone(),
                path: name,
            });
        }
        if RESERVED_GLOBALS.contains(&name.as_str()) {
            return Err(BuildError::ReservedGlobal {
                extension: name.clone(),
                global: name,
            });
        }
        if let Some(other) = owners.get(&name) {
            return Err(BuildError::ExtensionConflict {
                extension: name.clone(),
                message: format!("the global '{name}' is already defined by extension '{other}'"),
            });
        }
        owners.insert(name.clone(), name.clone());
        let mut own: Vec<String> = Vec::new();
        let mut any = false;
        for (path, handler) in ext.into_functions() {
            any = true;
            if !path.split('.').all(is_lua_name) {
                return Err(BuildError::InvalidExtensionName {
                    extension: name.clone(),
                    path,
                });
            }
            for other in &own {
                let clash = if *other == path {
                    Some(format!("'{path}' is defined twice"))
                } else if path.starts_with(other.as_str()) && path.as_bytes()[other.len()] == b'.' {
                    Some(format!(
                        "'{other}' is a function, so it cannot also hold '{path}'"
                    ))
                } else if other.starts_with(path.as_str()) && other.as_bytes()[path.len()] == b'.' {
                    Some(format!(
                        "'{path}' is a function, so it cannot also hold '{other}'"
                    ))
                } else {
                    None
                };
                if let Some(message) = clash {
                    return Err(BuildError::ExtensionConflict {
                        extension: name.clone(),
                        message,
                    });
                }
            }
            own.push(path.clone());
            functions.insert(path, handler);
        }
        if !any {
            return Err(BuildError::EmptyExtension { extension: name });
        }
    }
    Ok(functions)
}

/// `true` when `source` holds only whitespace and Lua comments (`-- line`, `--[[ long ]]`,
/// `--[==[ long ]==]`). An unterminated long comment counts as not blank (the parser reports it).
fn is_blank_lua(source: &str) -> bool {
    let b = source.as_bytes();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i == b.len() {
            return true;
        }
        if !b[i..].starts_with(b"--") {
            return false;
        }
        i += 2;
        // Long comment: `[` `=`* `[` ... `]` `=`* `]`.
        if i < b.len() && b[i] == b'[' {
            let mut j = i + 1;
            while j < b.len() && b[j] == b'=' {
                j += 1;
            }
            if j < b.len() && b[j] == b'[' {
                let level = j - i - 1;
                let mut close = Vec::with_capacity(level + 2);
                close.push(b']');
                close.extend(std::iter::repeat_n(b'=', level));
                close.push(b']');
                match b[j + 1..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                {
                    Some(p) => {
                        i = j + 1 + p + close.len();
                        continue;
                    }
                    None => return false,
                }
            }
        }
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
    }
}

/// The suggestion attached to InvalidToolInput diagnostics.
fn signature_hint(path: &str) -> String {
    format!(
        "Use search({{ query = {} }}) to get the tool's signature.",
        lua_quote(path)
    )
}

/// A Lua string literal for `s` (JSON escapes are valid Lua escapes for what paths contain).
fn lua_quote(s: &str) -> String {
    Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    //! Driver tests with a scripted guest (no Lua needed).
    use super::*;
    use serde_json::json;
    use std::collections::VecDeque;
    use std::sync::Mutex;

    /// Plays back steps; after `HostReply::Abort(e)` it returns `Step::Error(e)` like the VM;
    /// after a `HostReply::Error` the script decides (next step).
    struct Scripted {
        steps: VecDeque<Step>,
        replies: Arc<Mutex<Vec<HostReply>>>,
        abort: Option<GuestError>,
        logs: Vec<String>,
        busy: bool,
        /// When the script is played out, `run` blocks this long (a native that ignores the
        /// deadline), then returns `Done("late")`.
        block: Option<Duration>,
        /// Lines `run` prints at each call (after the initial "log 1").
        print_each_run: bool,
        /// When the script is played out, `run` panics (a bug in the interpreter).
        panic: bool,
        runs: usize,
    }

    impl Scripted {
        fn new(steps: Vec<Step>) -> (Self, Arc<Mutex<Vec<HostReply>>>) {
            let replies = Arc::new(Mutex::new(Vec::new()));
            (
                Scripted {
                    steps: steps.into(),
                    replies: replies.clone(),
                    abort: None,
                    logs: vec!["log 1".into()],
                    busy: false,
                    block: None,
                    print_each_run: false,
                    panic: false,
                    runs: 0,
                },
                replies,
            )
        }
    }

    impl Guest for Scripted {
        fn run(&mut self, _slice: u32) -> Step {
            if let Some(e) = self.abort.take() {
                return Step::Error(e);
            }
            self.runs += 1;
            if self.print_each_run {
                self.logs.push(format!("run {}", self.runs));
            }
            if self.busy {
                std::thread::sleep(Duration::from_micros(200));
                return Step::Yield;
            }
            match (self.steps.pop_front(), self.block) {
                (Some(step), _) => step,
                (None, Some(d)) => {
                    std::thread::sleep(d);
                    Step::Done(json!("late"))
                }
                (None, None) if self.panic => panic!("interpreter bug"),
                (None, None) => Step::Done(Value::Null),
            }
        }
        fn resume(&mut self, reply: HostReply) {
            if let HostReply::Abort(e) = &reply {
                self.abort = Some(e.clone());
            }
            self.replies.lock().unwrap().push(reply);
        }
        fn take_logs(&mut self) -> Vec<String> {
            std::mem::take(&mut self.logs)
        }
    }

    fn tool_call(path: &str, args: Vec<Value>) -> Step {
        Step::HostCall(HostCall {
            target: HostTarget::Tool(path.into()),
            args,
            location: None,
            refused: None,
        })
    }

    fn runtime(limits: Limits) -> CodeMode {
        let echo = Tool::new(
            "Echo the input.",
            json!({"type": "object", "properties": {"id": {"type": "integer"}}}),
            |v| async move { Ok(v) },
        );
        let fail = Tool::new("Always fails.", json!({}), |_| async move {
            Err(ToolError::new("no such order"))
        });
        let secret = Tool::fallible("Internal failure.", json!({}), |_| async move {
            Err::<Value, _>(std::io::Error::other("password=hunter2"))
        });
        let hang = Tool::new("Never returns.", json!({}), |_| async move {
            futures::future::pending::<()>().await;
            Ok(Value::Null)
        });
        let bad_out = Tool::new(
            "Bad output.",
            json!({}),
            |_| async move { Ok(json!("text")) },
        )
        .with_output_schema(json!({"type": "object"}));
        let panics = Tool::new("Panics.", json!({}), |_| async move {
            if true {
                panic!("handler bug");
            }
            Ok(Value::Null)
        });
        let deep = Tool::new("Deep output.", json!({}), |_| async move {
            let mut v = Value::Null;
            for _ in 0..1000 {
                v = Value::Array(vec![v]);
            }
            Ok(v)
        })
        .with_output_schema(json!({"type": "object"}));
        CodeMode::builder()
            .tool("orders.lookup", echo)
            .tool("orders.deep", deep)
            .tool("orders.fail", fail)
            .tool("orders.secret", secret)
            .tool("slow.hang", hang)
            .tool("orders.bad_out", bad_out)
            .tool("orders.panics", panics)
            .limits(limits)
            .build()
            .unwrap()
    }

    async fn run(cm: &CodeMode, g: Scripted) -> ExecutionResult {
        run_guest(cm, g).await
    }

    async fn run_guest<G: Guest>(cm: &CodeMode, g: G) -> ExecutionResult {
        let deadline = deadline_after(Instant::now(), cm.inner.limits.timeout_ms());
        drive(
            &cm.inner,
            move || Ok(g),
            false,
            deadline,
            &CancellationToken::new(),
        )
        .await
    }

    #[tokio::test]
    async fn successful_call_is_recorded_and_value_returned() {
        let cm = runtime(Limits::default());
        let (g, replies) = Scripted::new(vec![
            tool_call("orders.lookup", vec![json!({"id": 7})]),
            Step::Done(json!(1)),
        ]);
        let r = run(&cm, g).await;
        assert_eq!(
            replies.lock().unwrap()[0],
            HostReply::Value(json!({"id": 7}))
        );
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":true,"value":1,"logs":["log 1"],"toolCalls":[{"name":"orders.lookup","input":{"id":7},"status":"success"}]}"#
        );
    }

    #[tokio::test]
    async fn invalid_input_is_a_failure_and_suggestion_reattached() {
        let cm = runtime(Limits::default());
        let msg =
            "Invalid input for tool 'orders.lookup': at /id: \"x\" is not of type \"integer\"";
        let (g, replies) = Scripted::new(vec![
            tool_call("orders.lookup", vec![json!({"id": "x"})]),
            Step::Error(GuestError {
                kind: ErrorKind::InvalidToolInput,
                message: msg.into(),
                location: Some(codemode_lua::Location { line: 1, column: 8 }),
                suggestions: vec![],
            }),
        ]);
        let r = run(&cm, g).await;
        assert_eq!(
            replies.lock().unwrap()[0],
            HostReply::Error {
                kind: ErrorKind::InvalidToolInput,
                message: msg.into()
            }
        );
        let e = r.error().unwrap();
        assert_eq!(
            e.suggestions,
            vec!["Use search({ query = \"orders.lookup\" }) to get the tool's signature."]
        );
        assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    }

    #[tokio::test]
    async fn too_many_arguments_is_invalid_input() {
        let cm = runtime(Limits::default());
        let (g, replies) =
            Scripted::new(vec![tool_call("orders.lookup", vec![json!({}), json!(2)])]);
        let r = run(&cm, g).await;
        let HostReply::Error { kind, message } = &replies.lock().unwrap()[0] else {
            panic!()
        };
        assert_eq!(*kind, ErrorKind::InvalidToolInput);
        assert!(
            message.starts_with(
                "Tool 'orders.lookup' expects at most one input table; got 2 arguments."
            ),
            "{message}"
        );
        assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
        assert_eq!(r.tool_calls[0].input, json!([{}, 2]));
    }

    #[tokio::test]
    async fn tool_errors_map_to_kinds_and_hide_internal_text() {
        let cm = runtime(Limits::default());
        let (g, replies) = Scripted::new(vec![
            tool_call("orders.fail", vec![]),
            tool_call("orders.secret", vec![]),
            tool_call("orders.bad_out", vec![]),
            tool_call("orders.panics", vec![]),
        ]);
        let r = run(&cm, g).await;
        let replies = replies.lock().unwrap();
        assert_eq!(
            replies[0],
            HostReply::Error {
                kind: ErrorKind::ToolFailure,
                message: "no such order".into()
            }
        );
        assert_eq!(
            replies[1],
            HostReply::Error {
                kind: ErrorKind::ToolFailure,
                message: "Tool 'orders.secret' failed.".into()
            }
        );
        assert_eq!(
            replies[2],
            HostReply::Error {
                kind: ErrorKind::InvalidToolOutput,
                message: "Invalid output from tool 'orders.bad_out': at the top level: \"text\" is not of type \"object\"".into()
            }
        );
        assert_eq!(
            replies[3],
            HostReply::Error {
                kind: ErrorKind::ToolFailure,
                message: "Tool 'orders.panics' failed.".into()
            }
        );
        assert!(
            r.tool_calls
                .iter()
                .all(|c| c.status == ToolCallStatus::Failure)
        );
        assert_eq!(r.tool_calls[0].input, json!({}));
    }

    #[tokio::test]
    async fn unknown_tool_suggests_nearest() {
        let cm = runtime(Limits::default());
        let (g, replies) = Scripted::new(vec![
            tool_call("orders.lookpu", vec![]),
            tool_call("zzz.qqq", vec![]),
        ]);
        let r = run(&cm, g).await;
        let replies = replies.lock().unwrap();
        assert_eq!(
            replies[0],
            HostReply::Error {
                kind: ErrorKind::UnknownTool,
                message: "Unknown tool 'orders.lookpu'. Did you mean tools.orders.lookup?".into()
            }
        );
        assert_eq!(
            replies[1],
            HostReply::Error {
                kind: ErrorKind::UnknownTool,
                message: "Unknown tool 'zzz.qqq'.".into()
            }
        );
        assert!(r.tool_calls.is_empty());
    }

    #[tokio::test]
    async fn limit_aborts_and_refused_calls_are_not_listed() {
        let cm = runtime(Limits::default().with_max_tool_calls(2).unwrap());
        let (g, _replies) = Scripted::new(vec![
            tool_call("orders.lookup", vec![]),
            tool_call("nope", vec![]),
            tool_call("orders.lookup", vec![]),
        ]);
        let r = run(&cm, g).await;
        let e = r.error().unwrap();
        assert_eq!(e.kind, DiagnosticKind::ToolCallLimitExceeded);
        assert!(
            e.message
                .starts_with("Execution exceeded its tool-call limit of 2;"),
            "{}",
            e.message
        );
        assert_eq!(r.tool_calls.len(), 1);
    }

    #[tokio::test]
    async fn zero_limit_refuses_the_first_call() {
        let cm = runtime(Limits::default().with_max_tool_calls(0).unwrap());
        let (g, _) = Scripted::new(vec![Step::HostCall(HostCall {
            target: HostTarget::Search,
            args: vec![],
            location: None,
            refused: None,
        })]);
        let r = run(&cm, g).await;
        assert_eq!(
            r.error().unwrap().kind,
            DiagnosticKind::ToolCallLimitExceeded
        );
        assert!(r.tool_calls.is_empty());
    }

    #[tokio::test]
    async fn hanging_tool_is_interrupted_at_the_deadline() {
        let cm = runtime(Limits::default().with_timeout_ms(50).unwrap());
        let (g, _) = Scripted::new(vec![
            tool_call("orders.lookup", vec![]),
            tool_call("slow.hang", vec![json!({"a": 1})]),
        ]);
        let t = std::time::Instant::now();
        let r = run(&cm, g).await;
        assert!(
            t.elapsed() < Duration::from_millis(150),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 50ms.","suggestions":["Do less in one execution: narrow tool queries, avoid unbounded loops, or continue the work in a new execution."]},"logs":["log 1"],"toolCalls":[{"name":"orders.lookup","input":{},"status":"success"},{"name":"slow.hang","input":{"a":1},"status":"interrupted"}]}"#
        );
    }

    #[tokio::test]
    async fn busy_guest_times_out() {
        let cm = runtime(Limits::default().with_timeout_ms(30).unwrap());
        let (mut g, _) = Scripted::new(vec![]);
        g.busy = true;
        let t = std::time::Instant::now();
        let r = run(&cm, g).await;
        assert!(
            t.elapsed() < Duration::from_millis(130),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
        assert_eq!(r.logs, vec!["log 1"]);
    }

    #[tokio::test]
    async fn cancellation_interrupts_a_tool() {
        let cm = runtime(Limits::default());
        let (g, _) = Scripted::new(vec![tool_call("slow.hang", vec![])]);
        let token = CancellationToken::new();
        let t2 = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            t2.cancel();
        });
        let deadline = deadline_after(Instant::now(), 60_000);
        let r = drive(&cm.inner, move || Ok(g), false, deadline, &token).await;
        assert_eq!(
            r.error().unwrap().message,
            "Execution was cancelled by the host."
        );
        assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
    }

    #[tokio::test]
    async fn search_is_a_counted_tool_call() {
        let cm = runtime(Limits::default());
        let (g, replies) = Scripted::new(vec![
            Step::HostCall(HostCall {
                target: HostTarget::Search,
                args: vec![json!({"query": "lookup"})],
                location: None,
                refused: None,
            }),
            Step::HostCall(HostCall {
                target: HostTarget::Search,
                args: vec![json!({"limit": 0})],
                location: None,
                refused: None,
            }),
        ]);
        let r = run(&cm, g).await;
        let replies = replies.lock().unwrap();
        let HostReply::Value(v) = &replies[0] else {
            panic!("{:?}", replies[0])
        };
        assert_eq!(v["items"][0]["path"], json!("orders.lookup"));
        assert_eq!(
            v["items"][0]["signature"],
            json!("tools.orders.lookup({ id?: integer }) -> unknown")
        );
        assert_eq!(v["remaining"], json!(0));
        assert_eq!(v["next"], Value::Null);
        let HostReply::Error { kind, message } = &replies[1] else {
            panic!()
        };
        assert_eq!(*kind, ErrorKind::InvalidToolInput);
        assert_eq!(
            message,
            "search: 'limit' must be an integer from 1 to 50; got 0."
        );
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].name, "search");
        assert_eq!(r.tool_calls[1].status, ToolCallStatus::Failure);
    }

    #[tokio::test]
    async fn extension_calls_are_counted_not_listed() {
        let cm = runtime(Limits::default().with_max_tool_calls(1).unwrap());
        let (g, replies) = Scripted::new(vec![
            Step::HostCall(HostCall {
                target: HostTarget::Extension("fs.read".into()),
                args: vec![],
                location: None,
                refused: None,
            }),
            tool_call("orders.lookup", vec![]),
        ]);
        let r = run(&cm, g).await;
        assert_eq!(
            replies.lock().unwrap()[0],
            HostReply::Error {
                kind: ErrorKind::ExecutionFailure,
                message: "Extension function 'fs.read' is not available in this host.".into()
            }
        );
        assert_eq!(
            r.error().unwrap().kind,
            DiagnosticKind::ToolCallLimitExceeded
        );
        assert!(r.tool_calls.is_empty());
    }

    #[test]
    fn blank_programs_are_detected() {
        for blank in [
            "",
            "  \n\t",
            "-- hi",
            "-- a\n  -- b\n",
            "--[[ x\n y ]]",
            "--[==[ ]] ]==]  --x",
        ] {
            assert!(is_blank_lua(blank), "{blank:?}");
        }
        for code in [
            "return 1",
            "-- c\nx = 1",
            "--[[ x ]] return",
            "--[[ unterminated",
            "--[=[ ]] ]=] y",
        ] {
            assert!(!is_blank_lua(code), "{code:?}");
        }
    }

    /// The timeout outcome of the backstop tests: the earlier call and the logs of the slices
    /// that returned are kept; "run 3" was printed inside the blocked slice and is lost.
    const BACKSTOP_RESULT: &str = r#"{"ok":false,"error":{"kind":"TimeoutExceeded","message":"Execution timed out after 100ms.","suggestions":["Do less in one execution: narrow tool queries, avoid unbounded loops, or continue the work in a new execution."]},"logs":["log 1","run 1","run 2"],"toolCalls":[{"name":"orders.lookup","input":{"id":1},"status":"success"}]}"#;

    /// A guest that calls a tool, yields once, then blocks in one `run` for 3 s.
    fn blocking_guest() -> Scripted {
        let (mut g, _) = Scripted::new(vec![
            tool_call("orders.lookup", vec![json!({"id": 1})]),
            Step::Yield,
        ]);
        g.block = Some(Duration::from_secs(3));
        g.print_each_run = true;
        g
    }

    async fn backstop_times_out() {
        let cm = runtime(Limits::default().with_timeout_ms(100).unwrap());
        let t = std::time::Instant::now();
        let r = run(&cm, blocking_guest()).await;
        let took = t.elapsed();
        assert!(took >= Duration::from_millis(100), "{took:?}");
        assert!(took < Duration::from_millis(200), "{took:?}");
        assert_eq!(r.to_json_string(), BACKSTOP_RESULT);
    }

    #[tokio::test]
    async fn backstop_ends_a_blocked_slice_on_current_thread_runtime() {
        backstop_times_out().await;
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn backstop_ends_a_blocked_slice_on_multi_thread_runtime() {
        backstop_times_out().await;
    }

    #[tokio::test]
    async fn cancel_ends_a_blocked_slice() {
        let cm = runtime(Limits::default());
        let token = CancellationToken::new();
        let t2 = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            t2.cancel();
        });
        let deadline = deadline_after(Instant::now(), 60_000);
        let g = blocking_guest();
        let t = std::time::Instant::now();
        let r = drive(&cm.inner, move || Ok(g), false, deadline, &token).await;
        let took = t.elapsed();
        assert!(took < Duration::from_millis(150), "{took:?}");
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":false,"error":{"kind":"ExecutionFailure","message":"Execution was cancelled by the host."},"logs":["log 1","run 1","run 2"],"toolCalls":[{"name":"orders.lookup","input":{"id":1},"status":"success"}]}"#
        );
    }

    #[tokio::test]
    async fn panic_in_a_slice_is_an_internal_execution_failure() {
        let cm = runtime(Limits::default());
        let (mut g, _) = Scripted::new(vec![tool_call("orders.lookup", vec![])]);
        g.panic = true;
        let r = run(&cm, g).await;
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":false,"error":{"kind":"ExecutionFailure","message":"Internal error: the interpreter panicked. This is a bug in codemode, not in your program; run it again, and report it if it repeats."},"logs":["log 1"],"toolCalls":[{"name":"orders.lookup","input":{},"status":"success"}]}"#
        );
    }

    #[test]
    fn json_within_is_an_upper_bound_and_stops_early() {
        let small = json!({"a": [1, 2, "xyz"], "b": null});
        assert!(json_within(&small, 1024));
        assert!(!json_within(&small, 16));
        let big = json!(vec![1; 1_000_000]);
        assert!(!json_within(&big, 256 * 1024));
        let text = json!("x".repeat(100_000));
        assert!(!json_within(&text, 256 * 1024));
        assert!(json_within(&text, 1024 * 1024));
        // Its estimate is never below the real length.
        for v in [small, json!({"k\"": "\u{1}\u{2}"}), json!([[[]], {}])] {
            let real = serde_json::to_string(&v).unwrap().len();
            assert!(json_within(&v, 8 * real + 64), "{v}");
            assert!(!json_within(&v, real.saturating_sub(1)) || real == 0, "{v}");
        }
    }

    #[tokio::test]
    async fn setup_failure_is_the_result() {
        let cm = runtime(Limits::default());
        let deadline = deadline_after(Instant::now(), 60_000);
        let r = drive(
            &cm.inner,
            || Err::<Scripted, _>(Diagnostic::new(DiagnosticKind::ParseError, "bad")),
            false,
            deadline,
            &CancellationToken::new(),
        )
        .await;
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":false,"error":{"kind":"ParseError","message":"bad"},"toolCalls":[]}"#
        );
    }

    #[tokio::test]
    async fn logs_of_yield_slices_are_collected() {
        let cm = runtime(Limits::default());
        let (mut g, _) = Scripted::new(vec![Step::Yield, Step::Yield]);
        g.print_each_run = true;
        let r = run(&cm, g).await;
        assert_eq!(r.logs, vec!["log 1", "run 1", "run 2", "run 3"]);
    }

    #[tokio::test]
    async fn logs_past_the_output_limit_are_counted_not_kept() {
        // The host keeps "log 1" and "run 1" (6 bytes each; "run 2" would make 18 > 16) and
        // only counts the three later lines; the value null (4) leaves 12 for both.
        let cm = runtime(Limits::default().with_max_output_bytes(16).unwrap());
        let (mut g, _) = Scripted::new(vec![Step::Yield, Step::Yield, Step::Yield]);
        g.print_each_run = true;
        let r = run(&cm, g).await;
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":true,"value":null,"warnings":[{"kind":"Truncated","message":"Output was cut by the 16-byte output limit (max_output_bytes): the logs (showing 2 of 5 lines). To get everything back, print less."}],"logs":["log 1","run 1","[logs truncated: showing 2 of 5 lines]"],"truncated":true,"toolCalls":[]}"#
        );
    }

    #[tokio::test]
    async fn oversize_tool_input_is_recorded_as_a_marker() {
        // Budget 30: the first input (8 bytes) is copied; the second (108 bytes) does not fit
        // what is left (22) and is recorded as the marker. At the end value null (4) and the
        // log "log 1" (6) leave 20 for inputs: {"id":7} stays.
        let cm = runtime(Limits::default().with_max_output_bytes(30).unwrap());
        let big = json!({"s": "x".repeat(100)});
        let (g, replies) = Scripted::new(vec![
            tool_call("orders.lookup", vec![json!({"id": 7})]),
            tool_call("orders.fail", vec![big]),
        ]);
        let r = run(&cm, g).await;
        assert_eq!(
            replies.lock().unwrap()[1],
            HostReply::Error {
                kind: ErrorKind::ToolFailure,
                message: "no such order".into()
            }
        );
        assert_eq!(
            r.to_json_string(),
            r#"{"ok":true,"value":null,"warnings":[{"kind":"Truncated","message":"Output was cut by the 30-byte output limit (max_output_bytes): 1 tool-call input in toolCalls (the calls themselves got their full input). To get everything back, pass smaller inputs if you need them listed."}],"logs":["log 1"],"truncated":true,"toolCalls":[{"name":"orders.lookup","input":{"id":7},"status":"success"},{"name":"orders.fail","input":"[input omitted by the output limit: 108 bytes of JSON]","status":"failure"}]}"#
        );
    }

    #[tokio::test]
    async fn deep_tool_output_is_invalid_before_the_schema_check() {
        let cm = runtime(Limits::default());
        let (g, replies) = Scripted::new(vec![tool_call("orders.deep", vec![])]);
        let r = run(&cm, g).await;
        assert_eq!(
            replies.lock().unwrap()[0],
            HostReply::Error {
                kind: ErrorKind::InvalidToolOutput,
                message: "Invalid output from tool 'orders.deep': the output nests deeper than 128 levels; tools must return flatter data".into()
            }
        );
        assert_eq!(r.tool_calls[0].status, ToolCallStatus::Failure);
    }

    /// 200 executions, each waiting 200 ms for a tool, on a runtime whose blocking pool has 4
    /// threads: a waiting execution holds no thread, so they all wait at once (one guest per
    /// blocking thread for the whole execution would queue them: 200 / 4 x 200 ms = 10 s).
    #[test]
    fn waiting_for_a_tool_holds_no_blocking_thread() {
        use std::sync::atomic::AtomicUsize;
        const N: usize = 200;
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(4)
            .enable_all()
            .build()
            .unwrap();
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let (f, p) = (in_flight.clone(), peak.clone());
        let sleep = Tool::new("Sleeps 200 ms.", json!({"type": "object"}), move |v| {
            let (f, p) = (f.clone(), p.clone());
            async move {
                let now = f.fetch_add(1, Ordering::SeqCst) + 1;
                p.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(200)).await;
                f.fetch_sub(1, Ordering::SeqCst);
                Ok(v)
            }
        });
        let cm = CodeMode::builder()
            .tool("slow.sleep", sleep)
            .limits(Limits::default().with_timeout_ms(30_000).unwrap())
            .build()
            .unwrap();
        let t = std::time::Instant::now();
        let results = rt.block_on(async {
            let handles: Vec<_> = (0..N)
                .map(|i| {
                    tokio::spawn(cm.execute(&format!(
                        "local r = tools.slow.sleep({{ i = {i} }})\nreturn r.i * 2"
                    )))
                })
                .collect();
            futures::future::join_all(handles).await
        });
        let took = t.elapsed();
        for (i, r) in results.into_iter().enumerate() {
            let r = r.unwrap();
            assert_eq!(r.value(), Some(&json!(i * 2)), "{}", r.to_json_string());
        }
        assert!(took < Duration::from_secs(4), "{took:?}");
        let peak = peak.load(Ordering::SeqCst);
        assert!(
            peak >= N / 2,
            "at most {peak} tool calls were waiting at once"
        );
    }

    /// A guest that records which thread dropped it; dropping it takes `drop_time`.
    struct DropProbe {
        inner: Scripted,
        dropped_on: Arc<Mutex<Option<std::thread::ThreadId>>>,
        memory: usize,
        drop_time: Duration,
    }

    impl Drop for DropProbe {
        fn drop(&mut self) {
            std::thread::sleep(self.drop_time);
            *self.dropped_on.lock().unwrap() = Some(std::thread::current().id());
        }
    }

    /// Waits up to 5 s for the probe's drop; the dropping thread.
    async fn dropped_on(probe: &Mutex<Option<std::thread::ThreadId>>) -> std::thread::ThreadId {
        let mut waited = Duration::ZERO;
        loop {
            if let Some(id) = *probe.lock().unwrap() {
                return id;
            }
            assert!(
                waited < Duration::from_secs(5),
                "the guest was never dropped"
            );
            tokio::time::sleep(Duration::from_millis(5)).await;
            waited += Duration::from_millis(5);
        }
    }

    impl Guest for DropProbe {
        fn run(&mut self, slice: u32) -> Step {
            self.inner.run(slice)
        }
        fn resume(&mut self, reply: HostReply) {
            self.inner.resume(reply)
        }
        fn take_logs(&mut self) -> Vec<String> {
            self.inner.take_logs()
        }
        fn memory_used(&self) -> usize {
            self.memory
        }
    }

    #[tokio::test]
    async fn a_guest_parked_at_the_deadline_is_dropped_off_the_driver_thread() {
        let cm = runtime(Limits::default().with_timeout_ms(50).unwrap());
        let (g, _) = Scripted::new(vec![tool_call("slow.hang", vec![])]);
        let probe_on = Arc::new(Mutex::new(None));
        let probe = DropProbe {
            inner: g,
            dropped_on: probe_on.clone(),
            memory: 0,
            drop_time: Duration::ZERO,
        };
        let r = run_guest(&cm, probe).await;
        assert_eq!(r.error().unwrap().kind, DiagnosticKind::TimeoutExceeded);
        assert_eq!(r.tool_calls[0].status, ToolCallStatus::Interrupted);
        assert_ne!(dropped_on(&probe_on).await, std::thread::current().id());
    }

    /// A finished guest over [`DROP_ASIDE_BYTES`] is freed after the result is back; a small one
    /// before (inline, in the segment).
    #[tokio::test]
    async fn a_large_finished_guest_is_dropped_after_the_result() {
        let cm = runtime(Limits::default());
        for (memory, result_waits) in [(DROP_ASIDE_BYTES + 1, false), (DROP_ASIDE_BYTES, true)] {
            let (g, _) = Scripted::new(vec![Step::Done(json!(7))]);
            let probe_on = Arc::new(Mutex::new(None));
            let probe = DropProbe {
                inner: g,
                dropped_on: probe_on.clone(),
                memory,
                drop_time: Duration::from_millis(300),
            };
            let t = std::time::Instant::now();
            let r = run_guest(&cm, probe).await;
            let took = t.elapsed();
            assert_eq!(r.value(), Some(&json!(7)));
            assert_eq!(took >= Duration::from_millis(300), result_waits, "{took:?}");
            assert_ne!(dropped_on(&probe_on).await, std::thread::current().id());
        }
    }

    #[test]
    fn slice_adapts_toward_one_millisecond() {
        assert_eq!(adapt_slice(10_000, Duration::from_millis(5)), 5_000);
        assert_eq!(adapt_slice(10_000, Duration::from_micros(100)), 20_000);
        assert_eq!(adapt_slice(10_000, Duration::from_millis(1)), 10_000);
        assert_eq!(adapt_slice(MIN_SLICE, Duration::from_secs(1)), MIN_SLICE);
        assert_eq!(adapt_slice(MAX_SLICE, Duration::ZERO), MAX_SLICE);
    }
}
