//! # codemode-mcp: Code Mode as an MCP gateway (issue 5)
//!
//! Starts the MCP servers of a config file (the `mcpServers` format MCP clients use), turns each
//! into a namespace of one [`codemode::CodeMode`] runtime (`tools.<server>.<tool>(input)`), and
//! serves MCP itself with two tools, `execute` (run a program over all of them) and `search`,
//! plus `resume` when some tools need approval (a call to one pauses the execution; its
//! snapshot is kept in a store and continued by token, see [`paused`]).
//! Programs are Lua, or JavaScript with `"codemode": {"language": "js"}` (cargo feature `js`,
//! which turns on codemode's JavaScript guest): `execute`'s description, `search`'s signatures
//! and the server's words follow the language.
//!
//! | concern | file |
//! |---|---|
//! | config file format and validation ([`Config`]) | `config.rs` |
//! | downstream servers: start, list, call, result mapping, restarts ([`downstream::Server`]) | `downstream.rs` |
//! | attachments and progress per execution | `attachments.rs` |
//! | the runtime over the servers, rebuilt on `list_changed`; pauses at tools needing approval and `resume` ([`Gateway`]) | `gateway.rs` |
//! | fixed bounds on what downstream servers send, and on the memory snapshot store | `limits.rs` |
//! | paused executions by resume token: memory, `dir:`, `sqlite:` stores, snapshot keys ([`paused::PausedStore`]) | `paused.rs` |
//! | the `"openapi"` section: specs as namespaces of HTTP tools (codemode-openapi) | `openapi.rs` |
//! | the stdio transport that fails unreadable replies at once | `transport.rs` |
//! | the HTTP client: replies read within the same bounds, unreadable ones fail at once | `http_client.rs` |
//! | the MCP server: `execute`, `search`, `resume`, their words in the program's language, stdio and streamable HTTP ([`CodeModeServer`]) | `server.rs` |
//!
//! ```no_run
//! # async fn f() -> Result<(), Box<dyn std::error::Error>> {
//! use codemode_mcp::{Config, Gateway};
//! let config = Config::load(std::path::Path::new("mcp.json"))?;
//! let gateway = Gateway::start(config, None).await?;
//! let run = gateway
//!     .execute("return tools.time.get_current_time({ timezone = 'UTC' })", Default::default(), None)
//!     .await;
//! println!("{}", run.result.to_json_string());
//! codemode_mcp::serve_stdio(gateway).await?;
//! # Ok(()) }
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attachments;
pub mod config;
pub mod downstream;
pub mod gateway;
pub mod http_client;
pub mod limits;
pub mod openapi;
pub mod paused;
pub mod server;
pub mod transport;

pub use config::{Config, ConfigError, ServerSpec, Transport};
pub use gateway::{Execution, Extend, Gateway};
pub use server::{CodeModeServer, serve_http, serve_io, serve_stdio};
