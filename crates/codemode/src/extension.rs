//! Extensions: host functions installed as guest globals (`fs.read(path)`, `fetch(url)`).
//!
//! An [`Extension`] has a name, which becomes a global, and either named functions below it
//! (`Extension::new("fs").function("read", h)` → the global table `fs` with `fs.read`; nested
//! names such as `"dir.list"` make nested tables, `fs.dir.list`) or a single function that *is*
//! the global ([`Extension::global_function`]: `fetch(url)`).
//!
//! ## Calls
//! - Arguments cross as JSON copies under the data rules (one [`Value`] per guest argument,
//!   trailing empty values dropped; a value that cannot cross, such as a function, fails the call
//!   with `InvalidDataValue` before the host sees it). The returned value crosses back as fresh
//!   guest data.
//! - Extension calls are not tools: they are not in the catalog or `search`, not listed in
//!   `toolCalls`, and not validated by a schema. They do count against `max_tool_calls` (every
//!   host call does) and run under the deadline (a call still running at the deadline ends the run
//!   with `TimeoutExceeded`).
//! - They run between [`crate::Hooks::extension_before`] and
//!   [`crate::Hooks::extension_after`].
//! - In JavaScript a function is synchronous (it returns the value or throws) unless it was
//!   added with [`Extension::async_function`] or [`Extension::async_global_function`]: then it
//!   returns a promise, and a failure or a denial rejects it. Lua calls always wait.
//! - A handler error crosses as an ordinary catchable error of kind `ExecutionFailure`: with
//!   [`ToolError::new`] the program sees exactly its message (write it for the model); any other
//!   error ([`ToolError::internal`], a panic) is hidden behind
//!   "Extension function 'fs.read' failed.".
//!
//! ## Names (checked by [`crate::Options::build`])
//! Every segment is a name in the guest language (an identifier that is not a reserved word). A
//! global may not shadow a built-in global ([`crate::CodeMode::reserved_globals`]: `tools`,
//! `search`, the standard library, and names the sandbox leaves out on purpose such as
//! `require`, `io`, `os`) nor another extension's global; a name may not be both a function and
//! a table of functions.
//!
//! ```
//! use codemode::{CodeMode, Extension, ToolError};
//! use serde_json::{Value, json};
//!
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let kv = Extension::new("kv")
//!     .function("get", |args: Vec<Value>| async move {
//!         match args.first().and_then(Value::as_str) {
//!             Some("answer") => Ok(json!(42)),
//!             Some(key) => Err(ToolError::new(format!("no key '{key}'; known keys: answer"))),
//!             None => Err(ToolError::new("kv.get(key) needs a string key")),
//!         }
//!     });
//! let cm = CodeMode::builder().extension(kv).build()?;
//! let r = cm.execute(r#"
//!     local ok, err = pcall(kv.get, "question")
//!     return { kv.get("answer"), ok, err }
//! "#).await;
//! assert_eq!(r.value(), Some(&json!([42, false, "no key 'question'; known keys: answer"])));
//! // Listed in `toolCalls` like tool calls, the arguments as an array.
//! assert_eq!(r.tool_calls.len(), 2);
//! assert_eq!(r.tool_calls[0].input, json!(["question"]));
//! # Ok(()) }
//! ```

use std::future::Future;
use std::sync::Arc;

use futures::FutureExt;
use futures::future::BoxFuture;
use serde_json::Value;

use crate::tool::ToolError;

/// The future an extension handler returns.
pub type ExtensionFuture = BoxFuture<'static, Result<Value, ToolError>>;

/// An extension handler: the call's arguments in, one JSON value (or an error) out.
pub type ExtensionHandler = Arc<dyn Fn(Vec<Value>) -> ExtensionFuture + Send + Sync>;

/// A named set of host functions installed as guest globals. Cheap to clone.
#[derive(Clone)]
pub struct Extension {
    name: String,
    /// Function paths relative to `name` ("" = the global itself is the function).
    functions: Vec<(String, ExtensionHandler)>,
    /// The relative paths of the functions marked asynchronous.
    asynchronous: Vec<String>,
}

impl std::fmt::Debug for Extension {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extension")
            .field("name", &self.name)
            .field("functions", &self.paths())
            .finish()
    }
}

fn boxed<F, Fut>(handler: F) -> ExtensionHandler
where
    F: Fn(Vec<Value>) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
{
    Arc::new(move |args| handler(args).boxed())
}

impl Extension {
    /// An extension whose global `name` is a table of functions (add them with
    /// [`Extension::function`]).
    pub fn new(name: impl Into<String>) -> Self {
        Extension {
            name: name.into(),
            functions: Vec::new(),
            asynchronous: Vec::new(),
        }
    }

    /// An extension whose global `name` is itself a function: `fetch(url)`.
    pub fn global_function<F, Fut>(name: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Vec<Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        Extension {
            name: name.into(),
            functions: vec![(String::new(), boxed(handler))],
            asynchronous: Vec::new(),
        }
    }

    /// [`Extension::global_function`] marked asynchronous: in JavaScript the global returns a
    /// promise (`await fetch(url)`), and a failure or a denial rejects it; in Lua, where every
    /// call waits, it is an ordinary function.
    pub fn async_global_function<F, Fut>(name: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Vec<Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        let mut e = Extension::global_function(name, handler);
        e.asynchronous.push(String::new());
        e
    }

    /// [`Extension::function`] marked asynchronous (see [`Extension::async_global_function`]).
    pub fn async_function<F, Fut>(mut self, path: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Vec<Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        let path = path.into();
        self.asynchronous.push(path.clone());
        self.functions.push((path, boxed(handler)));
        self
    }

    /// Full dotted paths of its asynchronous functions.
    pub fn async_paths(&self) -> Vec<String> {
        self.asynchronous
            .iter()
            .map(|p| full_path(&self.name, p))
            .collect()
    }

    /// Add a function at `path` below the global (`"read"` → `fs.read`, `"dir.list"` →
    /// `fs.dir.list`). The handler gets the call's arguments (copies) and returns one value.
    pub fn function<F, Fut>(mut self, path: impl Into<String>, handler: F) -> Self
    where
        F: Fn(Vec<Value>) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ToolError>> + Send + 'static,
    {
        self.functions.push((path.into(), boxed(handler)));
        self
    }

    /// The extension's name (its global).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Full dotted paths of its functions (`fs.read`, `fs.list`, or just `fetch`), in the order
    /// they were added.
    pub fn paths(&self) -> Vec<String> {
        self.functions
            .iter()
            .map(|(p, _)| full_path(&self.name, p))
            .collect()
    }

    pub(crate) fn into_functions(self) -> impl Iterator<Item = (String, ExtensionHandler)> {
        let name = self.name;
        self.functions
            .into_iter()
            .map(move |(p, h)| (full_path(&name, &p), h))
    }
}

fn full_path(name: &str, rel: &str) -> String {
    if rel.is_empty() {
        name.to_string()
    } else {
        format!("{name}.{rel}")
    }
}
