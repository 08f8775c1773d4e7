//! Building a runtime: [`Options`] (the builder), [`Language`], [`BuildError`], and the checks
//! [`CodeMode::new`] makes (tool paths, extension names against the guest's identifiers and
//! reserved globals).

use std::collections::HashMap;
use std::sync::Arc;

use codemode_guest::{Clock, Env, Random};

use super::{CodeMode, DEFAULT_MAX_COMPUTING_EXECUTIONS, Inner, SEARCH_ALIAS};
use crate::extension::{Extension, ExtensionHandler};
use crate::hooks::Hooks;
use crate::limits::Limits;
use crate::missing::HostMissing;
use crate::namespace::{Namespace, ToolTree};
use crate::search::{self, SearchIndex};
use crate::tool::Tool;

/// The guest language of a [`CodeMode`]. Default: Lua.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Language {
    /// Lua 5.4 subset (`codemode-lua`).
    #[default]
    Lua,
    /// JavaScript, TypeScript annotations accepted (`codemode-js`, cargo feature `js`; without
    /// it [`BuildError::UnsupportedLanguage`]).
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
    #[error(
        "the {0:?} guest is not available in this build (its cargo feature is off, or it is not implemented yet); use another Language"
    )]
    UnsupportedLanguage(Language),
    /// An extension name or function path is not a dotted name of the guest language.
    #[error(
        "extension '{extension}': '{path}' is not a valid global path; use identifiers (letters, digits and '_', not starting with a digit, not a reserved word of the language) separated by single dots"
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
    /// An extension global would shadow a built-in global ([`CodeMode::reserved_globals`]).
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
    /// [`Options::max_computing_executions`] outside its range.
    #[error(
        "max_computing_executions must be an integer from 1 to {max} (got {value}); it bounds how many executions run guest code on the blocking pool at once"
    )]
    InvalidMaxComputingExecutions {
        /// The value given.
        value: usize,
        /// The largest accepted value ([`tokio::sync::Semaphore::MAX_PERMITS`]).
        max: usize,
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
    /// `None`: [`DEFAULT_MAX_COMPUTING_EXECUTIONS`].
    max_computing_executions: Option<usize>,
    clock: Clock,
    random: Random,
    pause_on: std::collections::HashSet<String>,
    snapshot_key: Option<Arc<[u8]>>,
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options")
            .field("language", &self.language)
            .field("root", &self.root)
            .field("limits", &self.limits)
            .field("hooks", &self.hooks.is_some())
            .field("extensions", &self.extensions)
            .field(
                "max_computing_executions",
                &self
                    .max_computing_executions
                    .unwrap_or(DEFAULT_MAX_COMPUTING_EXECUTIONS),
            )
            .field("clock", &self.clock)
            .field("random", &self.random)
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

    /// Add an extension (host functions as guest globals, see [`crate::extension`]). Names are
    /// checked by [`Options::build`].
    pub fn extension(mut self, extension: Extension) -> Self {
        self.extensions.push(extension);
        self
    }

    /// Most executions of this runtime whose guest code runs on tokio's blocking pool at once
    /// (default [`DEFAULT_MAX_COMPUTING_EXECUTIONS`], 512, tokio's default
    /// `max_blocking_threads`). An execution whose guest must continue on the pool (long guest
    /// work, compiling a long program) while every slot is taken waits for one, under its
    /// deadline and cancellation: a wait past the deadline ends in `TimeoutExceeded` with the
    /// `toolCalls` record and logs made so far, like any timeout. Executions waiting for tools,
    /// and the short inline stretches of guest work, hold no slot. Keep it at or below the
    /// blocking pool's size (`tokio::runtime::Builder::max_blocking_threads`), so waiting
    /// happens here, under the deadline, rather than in the pool's queue. Range: 1 to
    /// [`tokio::sync::Semaphore::MAX_PERMITS`]; other values fail [`Options::build`]
    /// ([`BuildError::InvalidMaxComputingExecutions`]).
    pub fn max_computing_executions(mut self, n: usize) -> Self {
        self.max_computing_executions = Some(n);
        self
    }

    /// The clock programs read (JavaScript `Date.now()`, `new Date()`): [`Clock::System`], the
    /// real time, by default; [`Clock::Fixed`] for reproducible runs. Lua has no clock.
    pub fn clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// Where programs' random numbers come from (JavaScript `Math.random`,
    /// `crypto.randomUUID`): [`Random::Entropy`], fresh per run, by default; [`Random::Seed`]
    /// for reproducible runs. Lua has no random numbers.
    pub fn random(mut self, random: Random) -> Self {
        self.random = random;
        self
    }

    /// Mark the tool at canonical path `path` as needing the host's approval: a call to it is
    /// admitted (counted, its input checked, listed) but not run, and the execution returns
    /// a paused result ([`crate::ExecutionResult::paused`]) once the program waits for it;
    /// [`CodeMode::resume`] continues it (see [`crate::durable`]).
    pub fn pause_on(mut self, path: impl Into<String>) -> Self {
        self.pause_on.insert(path.into());
        self
    }

    /// Sign every snapshot with HMAC-SHA256 under `key`, and refuse to resume one that is not
    /// signed with it (see [`crate::durable`]). Keep the key secret; it is never inside a
    /// snapshot.
    pub fn snapshot_key(mut self, key: impl Into<Vec<u8>>) -> Self {
        self.snapshot_key = Some(Arc::from(key.into()));
        self
    }

    /// Build the runtime: canonicalise paths, compile schemas, index tools for `search`, check
    /// extension names. Errors: [`BuildError`].
    pub fn build(self) -> Result<CodeMode, BuildError> {
        CodeMode::new(self)
    }
}

/// The computing-executions bound of `options` (default applied), checked before anything else
/// so the error does not depend on which guests are compiled in.
fn check_computing(options: &Options) -> Result<usize, BuildError> {
    let computing = options
        .max_computing_executions
        .unwrap_or(DEFAULT_MAX_COMPUTING_EXECUTIONS);
    if !(1..=tokio::sync::Semaphore::MAX_PERMITS).contains(&computing) {
        return Err(BuildError::InvalidMaxComputingExecutions {
            value: computing,
            max: tokio::sync::Semaphore::MAX_PERMITS,
        });
    }
    Ok(computing)
}

/// `true` when no tool path is `search` or starts with `search.`, so `tools.search(...)` can
/// alias the built-in.
fn search_alias_free(tree: &ToolTree) -> bool {
    !tree.paths().any(|p| search::in_namespace(p, SEARCH_ALIAS))
}

impl CodeMode {
    /// Build a runtime from options. Errors: [`BuildError`].
    pub fn new(options: Options) -> Result<CodeMode, BuildError> {
        check_computing(&options)?;
        let Some(lang) = crate::guests::frontend(options.language) else {
            return Err(BuildError::UnsupportedLanguage(options.language));
        };
        CodeMode::with_guest(options, lang)
    }

    /// [`CodeMode::new`] with the guest `lang` instead of the one of `options.language` (the
    /// driver tests use a stand-in).
    pub(crate) fn with_guest(
        options: Options,
        lang: &'static dyn codemode_guest::Language,
    ) -> Result<CodeMode, BuildError> {
        let computing = check_computing(&options)?;
        let mut tree = ToolTree::default();
        tree.insert_root(options.root)?;
        let tree = Arc::new(tree);
        let index = Arc::new(SearchIndex::with_notation(&tree, lang));
        let mut async_extension_paths: Vec<String> = options
            .extensions
            .iter()
            .flat_map(|e| e.async_paths())
            .collect();
        async_extension_paths.sort();
        let extensions = check_extensions(options.extensions, lang)?;
        let mut extension_paths: Vec<String> = extensions.keys().cloned().collect();
        extension_paths.sort();
        let mut tool_paths: Vec<String> = tree.paths().map(str::to_string).collect();
        let search_alias = search_alias_free(&tree);
        if search_alias {
            tool_paths.push(SEARCH_ALIAS.to_string());
        }
        // The one missing-tool policy (paths under an unavailable namespace fail with a
        // catchable ToolFailure).
        let missing = Arc::new(HostMissing {
            tree: tree.clone(),
            index: index.clone(),
            lang,
        });
        let env = Env {
            tool_paths,
            extension_paths,
            async_extension_paths,
            missing: Some(missing.clone()),
            clock: options.clock,
            random: options.random,
        };
        let tree_for_hash = tree.clone();
        let env_ext = env.extension_paths.clone();
        Ok(CodeMode {
            inner: Arc::new(Inner {
                language: options.language,
                lang,
                missing,
                tree,
                index,
                limits: options.limits,
                env,
                hooks: options.hooks,
                extensions,
                search_alias,
                catalog_hash: crate::durable::catalog_hash(&tree_for_hash, &env_ext),
                pause_on: options.pause_on,
                snapshot_key: options.snapshot_key,
                computing: Arc::new(tokio::sync::Semaphore::new(computing)),
            }),
        })
    }
}

/// Checks extension names (see [`crate::extension`]) and flattens them to path → handler.
fn check_extensions(
    extensions: Vec<Extension>,
    lang: &dyn codemode_guest::Language,
) -> Result<HashMap<String, ExtensionHandler>, BuildError> {
    let reserved = lang.reserved_globals();
    // global → extension that owns it
    let mut owners: HashMap<String, String> = HashMap::new();
    let mut functions: HashMap<String, ExtensionHandler> = HashMap::new();
    for ext in extensions {
        let name = ext.name().to_string();
        if !lang.is_identifier(&name) {
            return Err(BuildError::InvalidExtensionName {
                extension: name.clone(),
                path: name,
            });
        }
        if reserved.contains(&name) {
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
            if !path.split('.').all(|seg| lang.is_identifier(seg)) {
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
