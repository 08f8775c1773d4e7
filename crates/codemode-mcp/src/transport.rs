//! The stdio transport to a downstream server, and what every transport does with a message it
//! cannot use.
//!
//! The stdio transport is newline-delimited JSON-RPC over a child process's stdin/stdout, like
//! rmcp's `TokioChildProcess`, except that a reply it cannot use is not dropped silently. rmcp's
//! reader logs and skips a line that does not decode (nesting past serde_json's 128 levels,
//! `NaN`, invalid UTF-8, a line over 16 MiB), so the call waited for the server's `timeoutMs`.
//! Here every line is skimmed for its top-level `"id"` while it is read (also while an over-long
//! line is discarded), and a reply that cannot be decoded (`decode`), or has more than
//! [`MAX_REPLY_PARTS`] content parts, [`MAX_LISTED_TOOLS`] tools or [`MAX_REPLY_VALUES`] JSON
//! values (counted in one pass before it is decoded), becomes a JSON-RPC error for that id carrying [`UNREADABLE`] in its `data`
//! (`settle`): the call fails at once. The streamable-HTTP transport ([`crate::http_client`])
//! turns its unreadable replies into the same error.

use std::sync::Arc;

use rmcp::RoleClient;
use rmcp::model::{ErrorCode, ErrorData, RequestId, ServerJsonRpcMessage};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout};

use crate::limits::{MAX_LISTED_TOOLS, MAX_REPLY_LINE_BYTES, MAX_REPLY_PARTS, MAX_REPLY_VALUES};

/// The `data` of the error a reply that could not be read turns into.
pub const UNREADABLE: &str = "codemode: unreadable reply";

/// JSON-RPC transport over a child process (killed when the transport is dropped).
pub struct ChildTransport {
    _child: Child,
    stdin: Arc<tokio::sync::Mutex<Option<ChildStdin>>>,
    stdout: BufReader<ChildStdout>,
    line: Vec<u8>,
    /// Bytes of the current line seen so far (also while discarding an over-long one).
    seen: usize,
    skim: Skim,
}

impl ChildTransport {
    /// Wrap a child spawned with piped stdin and stdout (and `kill_on_drop`).
    ///
    /// # Errors
    /// The child's stdin or stdout is not piped.
    pub fn new(mut child: Child) -> std::io::Result<ChildTransport> {
        let missing = || std::io::Error::other("stdin and stdout must be piped");
        let stdin = child.stdin.take().ok_or_else(missing)?;
        let stdout = child.stdout.take().ok_or_else(missing)?;
        Ok(ChildTransport {
            _child: child,
            stdin: Arc::new(tokio::sync::Mutex::new(Some(stdin))),
            stdout: BufReader::new(stdout),
            line: Vec::new(),
            seen: 0,
            skim: Skim::default(),
        })
    }

    /// Read to the end of the next line; `None` at EOF or on a read error.
    async fn next_line(&mut self) -> Option<()> {
        loop {
            let (take, done) = {
                let buf = self.stdout.fill_buf().await.ok()?;
                if buf.is_empty() {
                    return None;
                }
                let nl = buf.iter().position(|b| *b == b'\n');
                let take = nl.map_or(buf.len(), |i| i + 1);
                let chunk = &buf[..take];
                for &b in chunk {
                    self.skim.feed(b);
                }
                self.seen = self.seen.saturating_add(take);
                if self.seen <= MAX_REPLY_LINE_BYTES + 1 {
                    self.line.extend_from_slice(chunk);
                } else if !self.line.is_empty() {
                    self.line = Vec::new();
                }
                (take, nl.is_some())
            };
            self.stdout.consume(take);
            if done {
                return Some(());
            }
        }
    }
}

/// What [`Walk`] counts in a message, keeping nothing: its JSON values (keys included), the
/// elements of `result.content` (content parts) and of `result.tools`.
#[derive(Default)]
struct Tally {
    values: u64,
    parts: u64,
    tools: u64,
}

/// Where [`Walk`] is in a message.
#[derive(Clone, Copy, PartialEq)]
enum At {
    Top,
    Result,
    Content,
    Tools,
    Other,
}

/// One pass over a message that counts into a [`Tally`] (linear, serde_json's recursion limit).
/// Duplicate keys are all counted and a field of another type counts no elements, so no shape
/// of message escapes the count.
struct Walk<'a> {
    at: At,
    tally: &'a mut Tally,
}

impl<'de> serde::de::DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// Visitor methods that count one value of each scalar type.
macro_rules! scalars {
    ($($name:ident: $t:ty),*) => {
        $(fn $name<E>(self, _: $t) -> Result<(), E> {
            self.tally.values += 1;
            Ok(())
        })*
    };
}

impl<'de> serde::de::Visitor<'de> for Walk<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        self.tally.values += 1;
        let mut n = 0u64;
        while a
            .next_element_seed(Walk {
                at: At::Other,
                tally: &mut *self.tally,
            })?
            .is_some()
        {
            n += 1;
        }
        match self.at {
            At::Content => self.tally.parts += n,
            At::Tools => self.tally.tools += n,
            _ => {}
        }
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<(), A::Error> {
        self.tally.values += 1;
        while let Some(key) = a.next_key::<std::borrow::Cow<'de, str>>()? {
            self.tally.values += 1;
            let at = match (self.at, key.as_ref()) {
                (At::Top, "result") => At::Result,
                (At::Result, "content") => At::Content,
                (At::Result, "tools") => At::Tools,
                _ => At::Other,
            };
            a.next_value_seed(Walk {
                at,
                tally: &mut *self.tally,
            })?;
        }
        Ok(())
    }
    scalars!(visit_bool: bool, visit_i64: i64, visit_u64: u64, visit_f64: f64, visit_str: &str);
    fn visit_unit<E>(self) -> Result<(), E> {
        self.tally.values += 1;
        Ok(())
    }
}

/// Decode one message (a line, an HTTP body, an SSE event's data): the message, `Err(why)` when
/// it cannot be used, `Ok(None)` when it is blank.
pub(crate) fn decode(line: &[u8]) -> Result<Option<ServerJsonRpcMessage>, String> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let mut t = Tally::default();
    let walk = Walk {
        at: At::Top,
        tally: &mut t,
    };
    // A message that does not parse fails the full decode below, with serde's message.
    let mut d = serde_json::Deserializer::from_slice(line);
    if serde::de::DeserializeSeed::deserialize(walk, &mut d).is_ok() {
        if t.parts > MAX_REPLY_PARTS as u64 {
            return Err(format!(
                "it has {} content parts, more than the {MAX_REPLY_PARTS} one reply may have (MAX_REPLY_PARTS)",
                t.parts
            ));
        }
        if t.tools > MAX_LISTED_TOOLS as u64 {
            return Err(format!(
                "it lists {} tools, more than the {MAX_LISTED_TOOLS} one server may list (MAX_LISTED_TOOLS)",
                t.tools
            ));
        }
        if t.values > MAX_REPLY_VALUES {
            return Err(format!(
                "it has {} JSON values and keys, more than the {MAX_REPLY_VALUES} one message may have (MAX_REPLY_VALUES)",
                t.values
            ));
        }
    }
    serde_json::from_slice::<ServerJsonRpcMessage>(line)
        .map(Some)
        .map_err(|e| format!("it is not a JSON-RPC message codemode can decode ({e})"))
}

/// Why a message longer than [`MAX_REPLY_LINE_BYTES`] was not read (`seen`: its length, when
/// known).
pub(crate) fn too_long(seen: Option<usize>) -> String {
    let long = seen.map_or(String::new(), |n| format!(" {n} bytes long,"));
    format!(
        "it is{long} more than the {MAX_REPLY_LINE_BYTES} bytes one message may have (MAX_REPLY_LINE_BYTES)"
    )
}

/// What a received message becomes: the decoded message; for one that could not be used
/// (`Err(why)`), an error for its request `id` carrying [`UNREADABLE`], so that call fails at
/// once; `None` for a blank message, or an unusable one without an id (logged).
pub(crate) fn settle(
    outcome: Result<Option<ServerJsonRpcMessage>, String>,
    id: Option<RequestId>,
) -> Option<ServerJsonRpcMessage> {
    match (outcome, id) {
        (Ok(m), _) => m,
        (Err(why), Some(id)) => Some(unreadable(id, why)),
        (Err(why), None) => {
            eprintln!("codemode: ignored a message without an id from a server: {why}");
            None
        }
    }
}

/// The top-level `"id"` of a JSON object that is a reply (has no top-level `"method"`), found
/// without decoding it (see [`Skim`]).
pub(crate) fn skim_id(bytes: &[u8]) -> Option<RequestId> {
    let mut k = Skim::default();
    for &b in bytes {
        k.feed(b);
    }
    k.feed(b'\n');
    k.reply_id()
}

/// A JSON-RPC error for request `id` saying its reply could not be read and why.
pub(crate) fn unreadable(id: RequestId, why: String) -> ServerJsonRpcMessage {
    ServerJsonRpcMessage::error(
        ErrorData {
            code: ErrorCode::PARSE_ERROR,
            message: why.into(),
            data: Some(json!(UNREADABLE)),
        },
        Some(id),
    )
}

/// Whether `data` marks an error made by this transport for an unreadable reply.
pub fn is_unreadable(data: Option<&Value>) -> bool {
    data.and_then(Value::as_str) == Some(UNREADABLE)
}

impl rmcp::transport::Transport<RoleClient> for ChildTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let stdin = self.stdin.clone();
        async move {
            let mut bytes = serde_json::to_vec(&item)?;
            bytes.push(b'\n');
            let mut w = stdin.lock().await;
            let w = w
                .as_mut()
                .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::NotConnected))?;
            w.write_all(&bytes).await?;
            w.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            self.next_line().await?;
            let line = std::mem::take(&mut self.line);
            let seen = std::mem::replace(&mut self.seen, 0);
            let id = std::mem::take(&mut self.skim).reply_id();
            let outcome = if seen > MAX_REPLY_LINE_BYTES + 1 {
                Err(too_long(Some(seen)))
            } else {
                decode(&line)
            };
            if let Some(m) = settle(outcome, id) {
                return Some(m);
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        drop(self.stdin.lock().await.take());
        Ok(())
    }
}

/// Finds the top-level `"id"` of a JSON object byte by byte (linear, no recursion, bounded
/// state), so it is known even when the message cannot be decoded.
#[derive(Default)]
struct Skim {
    depth: u32,
    in_str: bool,
    esc: bool,
    expect_key: bool,
    key: Option<Vec<u8>>,
    key_is_id: bool,
    want_value: bool,
    /// The id being read: digits, or a string's bytes.
    value: Option<(bool, Vec<u8>)>,
    id: Option<RequestId>,
    /// A top-level `"method"` key was seen: a request or notification, whose id is not ours.
    has_method: bool,
}

impl Skim {
    /// The id, when the message is a reply (an error for a server's request id would be taken
    /// for the reply to one of ours).
    fn reply_id(self) -> Option<RequestId> {
        if self.has_method { None } else { self.id }
    }

    fn feed(&mut self, b: u8) {
        if self.in_str {
            let push = |v: &mut Vec<u8>, max: usize| {
                if v.len() < max {
                    v.push(b)
                }
            };
            if self.esc {
                self.esc = false;
            } else if b == b'\\' {
                self.esc = true;
            } else if b == b'"' {
                self.in_str = false;
                if let Some(k) = self.key.take() {
                    self.key_is_id = k == b"id";
                    self.has_method |= k == b"method";
                }
                if let Some((false, v)) = self.value.take()
                    && self.id.is_none()
                {
                    self.id = Some(RequestId::String(
                        String::from_utf8_lossy(&v).into_owned().into(),
                    ));
                }
                return;
            }
            if let Some(k) = &mut self.key {
                push(k, 8);
            }
            if let Some((false, v)) = &mut self.value {
                push(v, 256);
            }
            return;
        }
        if let Some((true, v)) = &mut self.value {
            if b.is_ascii_digit() || b == b'-' {
                if v.len() < 24 {
                    v.push(b);
                }
                return;
            }
            let digits = std::mem::take(v);
            self.value = None;
            if self.id.is_none()
                && let Some(n) = std::str::from_utf8(&digits)
                    .ok()
                    .and_then(|s| s.parse::<i64>().ok())
            {
                self.id = Some(RequestId::Number(n));
            }
        }
        match b {
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'"' => {
                self.in_str = true;
                if self.depth == 1 && self.expect_key {
                    self.key = Some(Vec::new());
                } else if self.depth == 1 && self.want_value {
                    self.want_value = false;
                    self.value = Some((false, Vec::new()));
                }
            }
            b'{' | b'[' => {
                self.depth = self.depth.saturating_add(1);
                self.expect_key = self.depth == 1 && b == b'{';
                self.want_value = false;
            }
            b'}' | b']' => self.depth = self.depth.saturating_sub(1),
            b':' if self.depth == 1 => {
                self.expect_key = false;
                self.want_value = std::mem::take(&mut self.key_is_id);
            }
            b',' if self.depth == 1 => {
                self.expect_key = true;
                self.key_is_id = false;
                self.want_value = false;
            }
            b'0'..=b'9' | b'-' if self.depth == 1 && self.want_value => {
                self.want_value = false;
                self.value = Some((true, vec![b]));
            }
            _ => {
                if self.depth == 1 {
                    self.want_value = false;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_of(s: &str) -> Option<RequestId> {
        skim_id(s.as_bytes())
    }

    #[test]
    fn skims_the_top_level_id() {
        assert_eq!(
            id_of(r#"{"jsonrpc":"2.0","id":17,"result":{"x":NaN}}"#),
            Some(RequestId::Number(17))
        );
        assert_eq!(
            id_of(r#"{"result":{"id":1,"s":"\"id\":2"},"id":"a\"b"}"#),
            Some(RequestId::String("a\\\"b".into()))
        );
        assert_eq!(id_of(r#"{"method":"x","params":{"id":3}}"#), None);
        // A server's request: its id is in the server's numbering, not a reply to ours.
        assert_eq!(
            id_of(r#"{"jsonrpc":"2.0","id":3,"method":"ping","params":NaN}"#),
            None
        );
        assert_eq!(
            id_of(r#"{"id":3,"result":{"method":"x"}}"#),
            Some(RequestId::Number(3))
        );
        assert_eq!(
            id_of(r#"{"result":[{"id":4}], "id" : -5 }"#),
            Some(RequestId::Number(-5))
        );
    }

    #[test]
    fn too_many_tools_is_unreadable() {
        let tools: Vec<Value> = (0..=MAX_LISTED_TOOLS)
            .map(|i| json!({"name": format!("t{i}"), "inputSchema": {}}))
            .collect();
        let line = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools}}).to_string();
        let e = decode(line.as_bytes()).unwrap_err();
        assert_eq!(
            e,
            "it lists 10001 tools, more than the 10000 one server may list (MAX_LISTED_TOOLS)"
        );
        let line = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": tools[..10]}});
        assert!(decode(line.to_string().as_bytes()).unwrap().is_some());
    }

    #[test]
    fn too_many_values_is_unreadable_whatever_the_shape() {
        let zeros = vec!["0"; MAX_REPLY_VALUES as usize].join(",");
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[],"structuredContent":{{"a":[{zeros}]}}}}}}"#
        );
        let e = decode(line.as_bytes()).map(|_| ()).unwrap_err();
        assert_eq!(
            e,
            format!(
                "it has {} JSON values and keys, more than the {MAX_REPLY_VALUES} one message may have (MAX_REPLY_VALUES)",
                MAX_REPLY_VALUES + 13
            )
        );
        // A second "result" does not hide the first one's parts.
        let parts = vec![r#"{"type":"text","text":"p"}"#; MAX_REPLY_PARTS + 1].join(",");
        let line =
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"content":[{parts}]}},"result":{{}}}}"#);
        let e = decode(line.as_bytes()).map(|_| ()).unwrap_err();
        assert!(e.contains("10001 content parts"), "{e}");
    }

    #[test]
    fn an_odd_field_does_not_hide_a_count() {
        let parts: Vec<Value> = (0..=MAX_REPLY_PARTS)
            .map(|_| json!({"type": "text", "text": ""}))
            .collect();
        for odd in [
            json!(1),
            json!("x"),
            json!({"a": [1]}),
            Value::Null,
            json!(true),
        ] {
            let line = json!({"jsonrpc": "2.0", "id": 1,
                              "result": {"tools": odd, "content": parts}});
            match decode(line.to_string().as_bytes()) {
                Err(e) => assert!(e.contains("10001 content parts"), "{odd}: {e}"),
                Ok(_) => panic!("{odd}: the reply was decoded"),
            }
        }
    }

    #[test]
    fn too_many_parts_is_unreadable() {
        let parts: Vec<Value> = (0..=MAX_REPLY_PARTS)
            .map(|_| json!({"type": "text", "text": ""}))
            .collect();
        let line = json!({"jsonrpc": "2.0", "id": 1, "result": {"content": parts}}).to_string();
        let e = decode(line.as_bytes()).unwrap_err();
        assert!(e.contains("10001 content parts"), "{e}");
        assert!(e.contains("MAX_REPLY_PARTS"), "{e}");
    }
}
