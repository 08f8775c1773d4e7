//! Fixed bounds on what a downstream MCP server can make the gateway hold or wait for. Each one,
//! when exceeded, fails with a message that names it.

/// Most `tools/list` pages read from one server at a start or refresh: a server that keeps
/// returning `nextCursor` becomes unavailable after this many pages.
pub const MAX_LIST_PAGES: usize = 100;

/// Most tools one server may list (over all its pages); a page with more is refused before it
/// is decoded.
pub const MAX_LISTED_TOOLS: usize = 10_000;

/// Most bytes of tool definitions (as JSON) one server may list over all its pages: 16 MiB.
pub const MAX_LIST_BYTES: usize = 16 * 1024 * 1024;

/// Longest JSON-RPC message read from a server: a stdio line, an HTTP `application/json` body
/// or one `text/event-stream` event, 16 MiB. A longer reply fails its call as unreadable.
pub const MAX_REPLY_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Most content parts in one `tools/call` reply; a reply with more fails its call (counted
/// before the reply is decoded).
pub const MAX_REPLY_PARTS: usize = 10_000;

/// Most JSON values (keys included) in one message from a server, counted before it is decoded;
/// a message with more fails as unreadable. The same cap as a command tool's output (2·10^6
/// values), so a reply of 2·10^5 records of four fields fits. Decoding holds about 140 bytes a
/// value for a moment, so this bounds a message's decoding to about 280 MB whatever its shape
/// (a reply of this many values is charged 320 MB by [`REPLY_VALUE_COST`], within the default
/// memory limit of 512 MiB).
pub const MAX_REPLY_VALUES: u64 = 2_000_000;

/// What one content part or JSON value of a reply is counted as, beyond its strings' bytes, when
/// a reply is accounted against the execution's memory limit (the decoded structs and the
/// program's copy).
pub const REPLY_VALUE_COST: u64 = 160;

/// Default of `codemode.maxAttachmentBytes`: bytes of attachment data (base64 `data`, resource
/// `text`/`blob`) one execution keeps, 16 MiB. Later parts are dropped (`attachment = 0`).
pub const DEFAULT_MAX_ATTACHMENT_BYTES: u64 = 16 * 1024 * 1024;

/// Most paused executions the default (memory) snapshot store keeps; past it the oldest is
/// dropped (its token then answers "no paused execution has the token").
pub const MAX_PAUSED_IN_MEMORY: usize = 1024;

/// Most bytes of snapshots the memory store keeps, 1 GiB; past it the oldest are dropped, and a
/// larger snapshot is refused (use a `dir:` or `sqlite:` store).
pub const MAX_PAUSED_MEMORY_BYTES: usize = 1 << 30;

/// Most claimed tokens the memory store remembers (to answer "resumed already"); older ones
/// answer "no paused execution has the token".
pub const MAX_CLAIMED_IN_MEMORY: usize = 4096;
