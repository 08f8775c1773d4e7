//! # codemode-openapi: an OpenAPI 3 document as a namespace of tools (issue 16)
//!
//! [`load()`] reads a spec (JSON or YAML, OpenAPI 3.0, 3.1 or 3.2) into a [`Document`];
//! [`from_spec`] turns each supported operation into a [`codemode::Tool`] that sends the HTTP
//! request, and lists every other operation with the reason it was skipped.
//!
//! ```no_run
//! # async fn f() -> Result<(), Box<dyn std::error::Error>> {
//! use codemode_openapi::{Format, Options, from_spec, load};
//! let doc = load(&std::fs::read("petstore.json")?, Format::Auto)?;
//! let built = from_spec(&doc, Options { base_url: Some("http://127.0.0.1:8080".into()), ..Options::default() })?;
//! for s in &built.skipped {
//!     eprintln!("skipped {} {}: {}", s.method, s.path, s.reason);
//! }
//! let cm = codemode::CodeMode::builder().namespace("pets", built.namespace).build()?;
//! let run = cm.execute("return tools.pets.listPets({ limit = 2 })").await;
//! # Ok(()) }
//! ```
//!
//! | concern | file |
//! |---|---|
//! | loading: JSON/YAML, size, depth and YAML budgets, duplicate keys, versions ([`load()`], [`Document`]) | `load.rs` |
//! | where a spec comes from: a file or an `http(s)://` URL, fetched with a cap ([`read()`]) | `source.rs` |
//! | local `$ref`s: JSON Pointers with percent-decoding and array indices, chains, cycles | `pointer.rs` |
//! | tool names: operationId segments, sanitising, fallbacks, collisions | `names.rs` |
//! | schemas: 3.0 → 2020-12, per-tool `$defs` closures, readOnly/writeOnly projection, binary | `schema.rs` |
//! | media types: JSON, text, SSE, form | `media.rs` |
//! | [`from_spec`], [`Options`], filters, the checks and skip reasons, the flat input | `spec.rs` |
//! | request building: path, query, header, cookie styles; JSON, form and text bodies | `request.rs` |
//! | auth: schemes, [`AuthResolver`], [`Credential`], OR/AND alternatives, [`Secret`] | `auth.rs` |
//! | OAuth2 client credentials: the token request, its cache ([`Credential::ClientCredentials`]) | `oauth.rs` |
//! | sending: the same-origin client, the response cap, decoding, failure messages | `http.rs` |
//! | every fixed bound | `limits.rs` |
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod auth;
mod http;
pub mod limits;
pub mod load;
pub mod media;
pub mod names;
mod oauth;
pub mod pointer;
mod request;
pub mod schema;
pub mod source;
pub mod spec;

pub use auth::{ApiKeyIn, AuthRequest, AuthResolver, Credential, Scheme, Secret, StaticAuth};
pub use load::{Document, Format, LoadError, Version, load};
pub use source::{Loaded, read};
pub use spec::{BuildError, Built, Options, Skipped, ToolInfo, from_spec};
