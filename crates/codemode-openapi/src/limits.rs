//! Every fixed bound of the adapter, in one place (each has a test that trips it).

/// Largest spec document accepted by [`crate::load()`], in bytes (64 MiB; GitHub's is 13 MB).
pub const MAX_SPEC_BYTES: usize = 64 * 1024 * 1024;

/// Longest wait for a spec fetched from an `http(s)://` URL ([`crate::source::read`]), 30 s.
pub const SPEC_FETCH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Deepest nesting of arrays and objects in a spec document (every real spec checked is at most
/// 30 deep). JSON stops here through serde_json's own recursion limit (the same 128), YAML
/// through the parser's depth budget; later passes recurse only within this bound.
pub const MAX_DOCUMENT_DEPTH: usize = 128;

/// Most YAML nodes in one spec (a billion-laughs document stops here): 4 million, about twice
/// GitHub's spec as YAML.
pub const MAX_YAML_NODES: usize = 4_000_000;

/// Most YAML parser events (each node is one or two events).
pub const MAX_YAML_EVENTS: usize = 8_000_000;

/// Most YAML aliases (`*name`) in one spec.
pub const MAX_YAML_ALIASES: usize = 100_000;

/// Longest chain of `$ref`s followed to reach one object (`a` → `b` → ... ); a longer chain is
/// reported as unresolved.
pub const MAX_REF_CHAIN: usize = 64;

/// Default cap on a response body, in bytes (50 MiB, as the seed).
pub const DEFAULT_MAX_RESPONSE_BYTES: u64 = 50 * 1024 * 1024;

/// Longest start of a non-2xx response body quoted in the error, in characters (then `...`).
pub const MAX_ERROR_BODY_CHARS: usize = 1024;

/// Largest OAuth2 token response read, in bytes (64 KiB; a token response is a small JSON object).
pub const MAX_TOKEN_RESPONSE_BYTES: usize = 64 * 1024;

/// Most redirects followed for one request (each to the same origin).
pub const MAX_REDIRECTS: usize = 10;

/// Deepest nesting of a value serialized as a deepObject (query or form body): `a[b][c]...`.
pub const MAX_DEEP_OBJECT_DEPTH: usize = 32;

/// Most `$defs` one tool's input or output schema carries, in bytes of compact JSON (64 KiB):
/// definitions past it (breadth-first from what the tool names) become unconstrained schemas
/// described as left out (see [`crate::schema::Schemas::closure`]). Measured on the converted
/// response schemas: GitHub's largest closure is 68,857 bytes (1 tool of 1221 is cut),
/// Kubernetes' 151,030 (83 of 845); Stripe's expandable fields reach most of its 775 schemas
/// from 288 of its 452 operations (176 MB in all, 688 KB at most), which took 368 s and a
/// 4.5 GiB peak to build in a debug build; with this bound 12 s and 620 MiB (128 KiB: 21 s,
/// 1.1 GiB).
pub const MAX_TOOL_DEFS_BYTES: usize = 64 * 1024;

/// Longest tool name segment kept from an operationId (longer ones are cut).
pub const MAX_NAME_SEGMENT_CHARS: usize = 128;

/// Most numbered fallbacks tried for a colliding tool name (`a_b_2` ... ).
pub const MAX_NAME_FALLBACKS: usize = 10_000;
