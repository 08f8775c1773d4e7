//! The HTTP client of the streamable-HTTP transport to a downstream server: rmcp's reqwest
//! client, except that the replies to codemode's requests are read here, within
//! [`MAX_REPLY_LINE_BYTES`] a message, and decoded with the stdio path's `transport::decode`.
//!
//! rmcp's own client takes a reply it cannot decode (nesting past serde_json's 128 levels,
//! `NaN`, invalid UTF-8, more than its size bound) for a broken connection (the POST fails, or
//! the event ends its stream), and decodes a whole body into structs before anything can count
//! its content parts or tools. Here, for a POST that carries a request (other than
//! `server/discover`, left to rmcp):
//! - an `application/json` body over [`MAX_REPLY_LINE_BYTES`], or one `transport::decode`
//!   refuses (it also counts [`crate::limits::MAX_REPLY_PARTS`] and
//!   [`crate::limits::MAX_LISTED_TOOLS`] before decoding), becomes a JSON-RPC error for that
//!   request marked as unreadable (`transport::unreadable`): the call fails at once, and the
//!   connection stays;
//! - each `text/event-stream` event is decoded first the same way, and one that cannot be used
//!   becomes that error for the reply id it names; an event that is not UTF-8 or exceeds
//!   [`MAX_REPLY_LINE_BYTES`] becomes it for the POST's request and ends the stream;
//! - the other answers (202, HTTP errors, an expired session, an authorization challenge) are
//!   what rmcp's client makes of them.
//!
//! Notifications, responses and `server/discover` go through rmcp's client; the events of the
//! streams it opens by GET (server messages, resumed responses) are decoded as above, their
//! stream errors left to rmcp (which reconnects).

use std::collections::HashMap;
use std::sync::Arc;

use futures::stream::BoxStream;
use futures::{Stream, StreamExt};
use reqwest::StatusCode;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue, RETRY_AFTER};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest, RequestId, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_client::{
    AuthRequiredError, HttpStatusError, InsufficientScopeError, StreamableHttpClient,
    StreamableHttpError, StreamableHttpPostResponse, StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};

use crate::limits::MAX_REPLY_LINE_BYTES;
use crate::transport::{decode, settle, skim_id, too_long, unreadable};

type SseStream = BoxStream<'static, Result<Sse, SseError>>;
type HttpError = StreamableHttpError<reqwest::Error>;
type PostResult = Result<StreamableHttpPostResponse, HttpError>;

/// Most same-origin 307/308 redirects one request follows (as rmcp's default client).
const MAX_REDIRECTS: usize = 10;

/// Longest `Retry-After` value kept (as rmcp).
const MAX_RETRY_AFTER_BYTES: usize = 128;

/// A [`StreamableHttpClient`] over reqwest that reads the replies to requests itself (see the
/// module docs). Configure the transport's `max_json_response_size` and `max_sse_event_size`
/// as [`MAX_REPLY_LINE_BYTES`].
#[derive(Clone)]
pub struct BoundedHttpClient(reqwest::Client);

impl BoundedHttpClient {
    /// A client configured like rmcp's default one: no idle connection pool, only same-origin
    /// 307/308 redirects followed (at most 10), others returned as they are.
    ///
    /// # Panics
    /// reqwest cannot build a client (no TLS backend).
    pub fn new() -> BoundedHttpClient {
        let redirect = reqwest::redirect::Policy::custom(|attempt| {
            let keeps_body = matches!(
                attempt.status(),
                StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
            );
            let same_origin = attempt
                .previous()
                .first()
                .is_some_and(|first| first.origin() == attempt.url().origin());
            if !keeps_body || !same_origin {
                attempt.stop()
            } else if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(format!("exceeded {MAX_REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        });
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(0)
            .redirect(redirect)
            .build()
            .expect("reqwest client");
        BoundedHttpClient(client)
    }

    /// The POST of `message` (as rmcp's client makes it).
    ///
    /// # Errors
    /// A custom header is one the transport sets ([`RESERVED_HEADERS`]).
    fn post(
        &self,
        uri: &str,
        message: &ClientJsonRpcMessage,
        session_id: Option<&str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<reqwest::RequestBuilder, HttpError> {
        let mut request = self
            .0
            .post(uri)
            .header(ACCEPT, "text/event-stream, application/json");
        if let Some(token) = auth_header {
            request = request.bearer_auth(token);
        }
        for (name, value) in custom_headers {
            if RESERVED_HEADERS.contains(&name.as_str()) {
                return Err(StreamableHttpError::ReservedHeaderConflict(
                    name.to_string(),
                ));
            }
            request = request.header(name, value);
        }
        if let Some(session) = session_id {
            request = request.header(SESSION_ID, session);
        }
        Ok(request.json(message))
    }
}

/// Read the answer to the POST of a request with `id` (see the module docs).
async fn answer(
    response: reqwest::Response,
    id: RequestId,
    session_attached: bool,
    limits: StreamableHttpResponseLimits,
) -> PostResult {
    let status = response.status();
    if let Some(e) = challenge(status, response.headers())? {
        return Err(e);
    }
    if matches!(status, StatusCode::ACCEPTED | StatusCode::NO_CONTENT) {
        return Ok(StreamableHttpPostResponse::Accepted);
    }
    if status == StatusCode::NOT_FOUND && session_attached {
        return Err(StreamableHttpError::SessionExpired);
    }
    let session = response
        .headers()
        .get(SESSION_ID)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let content_type = response
        .headers()
        .get(CONTENT_TYPE)
        .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
    let is = |mime: &str| {
        content_type
            .as_deref()
            .is_some_and(|ct| media_type_is(ct, mime))
    };
    if !status.is_success() {
        return failure(status, is(JSON), response, session, limits).await;
    }
    if is(EVENT_STREAM) {
        let events = sse_stream::SseStream::from_bytes_stream(bounded_events(
            response.bytes_stream(),
            limits.max_sse_event_size,
        ));
        return Ok(StreamableHttpPostResponse::Sse(
            checked(events.boxed(), Some(id)),
            session,
        ));
    }
    if !is(JSON) {
        return Err(StreamableHttpError::UnexpectedContentType(content_type));
    }
    let message = match read_bounded(response, limits.max_json_response_size).await? {
        None => unreadable(id, too_long(None)),
        Some(body) => match decode(&body) {
            Ok(Some(m)) => m,
            Ok(None) => unreadable(id, "its body is empty".to_string()),
            Err(why) => unreadable(id, why),
        },
    };
    Ok(StreamableHttpPostResponse::Json(message, session))
}

impl Default for BoundedHttpClient {
    fn default() -> BoundedHttpClient {
        BoundedHttpClient::new()
    }
}

const SESSION_ID: &str = "Mcp-Session-Id";

/// Headers the transport sets, which configured headers may not (as rmcp; lowercase, as
/// `HeaderName` spells them).
const RESERVED_HEADERS: &[&str] = &["accept", "mcp-session-id", "last-event-id"];
const JSON: &str = "application/json";
const EVENT_STREAM: &str = "text/event-stream";

/// Whether the media type of a `Content-Type` value is `expected` (parameters ignored).
fn media_type_is(content_type: &str, expected: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|t| t.trim().eq_ignore_ascii_case(expected))
}

/// The error for a 401 or 403 that carries a `WWW-Authenticate` challenge (as rmcp).
fn challenge(status: StatusCode, headers: &HeaderMap) -> Result<Option<HttpError>, HttpError> {
    if !matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
        return Ok(None);
    }
    let Some(header) = headers.get(reqwest::header::WWW_AUTHENTICATE) else {
        return Ok(None);
    };
    let header = header
        .to_str()
        .map_err(|_| {
            StreamableHttpError::UnexpectedServerResponse(
                "invalid www-authenticate header value".into(),
            )
        })?
        .to_string();
    Ok(Some(if status == StatusCode::UNAUTHORIZED {
        StreamableHttpError::AuthRequired(AuthRequiredError::new(header))
    } else {
        StreamableHttpError::InsufficientScope(InsufficientScopeError::new(header, None))
    }))
}

/// What an HTTP error answer becomes (as rmcp): a JSON-RPC error in a JSON body is that error;
/// otherwise a 429 or 5xx is [`HttpStatusError`] and any other status names itself and the
/// start of the body.
async fn failure(
    status: StatusCode,
    is_json: bool,
    response: reqwest::Response,
    session: Option<String>,
    limits: StreamableHttpResponseLimits,
) -> PostResult {
    let status_error =
        (status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error()).then(|| {
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .filter(|v| v.as_bytes().len() <= MAX_RETRY_AFTER_BYTES)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            HttpStatusError::new(status.as_u16(), retry_after)
        });
    let auth = matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN);
    let body = if is_json && !auth && status != StatusCode::TOO_MANY_REQUESTS {
        match read_bounded(response, limits.max_json_response_size).await {
            Ok(Some(body)) => {
                if let Ok(Some(m @ ServerJsonRpcMessage::Error(_))) = decode(&body) {
                    return Ok(StreamableHttpPostResponse::Json(m, session));
                }
                body
            }
            _ => Vec::new(),
        }
    } else if status_error.is_some() {
        Vec::new()
    } else {
        read_prefix(response, limits.max_error_response_size).await
    };
    if let Some(e) = status_error {
        return Err(e.into());
    }
    let body = String::from_utf8_lossy(&body[..body.len().min(limits.max_error_response_size)]);
    Err(StreamableHttpError::UnexpectedServerResponse(
        format!("HTTP {status}: {body}").into(),
    ))
}

/// The whole body, or `None` when it is longer than `max` bytes (read no further).
async fn read_bounded(
    mut response: reqwest::Response,
    max: usize,
) -> Result<Option<Vec<u8>>, reqwest::Error> {
    if response.content_length().is_some_and(|n| n > max as u64) {
        return Ok(None);
    }
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if chunk.len() > max - body.len() {
            return Ok(None);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(Some(body))
}

/// At most the first `max` bytes of the body (a diagnostic; read errors end it).
async fn read_prefix(mut response: reqwest::Response, max: usize) -> Vec<u8> {
    let mut body = Vec::new();
    while body.len() < max {
        let Ok(Some(chunk)) = response.chunk().await else {
            break;
        };
        body.extend_from_slice(&chunk[..chunk.len().min(max - body.len())]);
    }
    body
}

/// A byte stream of SSE cut off by [`EventTooLong`] once one event passes its bound.
#[derive(Debug)]
enum EventBytes {
    Body(reqwest::Error),
    TooLong,
}

impl std::fmt::Display for EventBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EventBytes::Body(e) => write!(f, "{e}"),
            EventBytes::TooLong => f.write_str(&too_long(None)),
        }
    }
}

impl std::error::Error for EventBytes {}

/// `stream` (an SSE body) failing with [`EventBytes::TooLong`] once the lines of one event (up
/// to the blank line that ends it) add up to more than `max` bytes, and ending after an error.
fn bounded_events<D: AsRef<[u8]>>(
    stream: impl Stream<Item = Result<D, reqwest::Error>>,
    max: usize,
) -> impl Stream<Item = Result<D, EventBytes>> {
    let mut event = 0usize;
    let mut line = 0usize;
    let mut after_cr = false;
    let mut failed = false;
    stream
        .map(move |chunk| {
            let chunk = chunk.map_err(EventBytes::Body)?;
            for &b in chunk.as_ref() {
                if std::mem::take(&mut after_cr) && b == b'\n' {
                    continue;
                }
                match b {
                    b'\r' | b'\n' => {
                        after_cr = b == b'\r';
                        event = if line == 0 { 0 } else { event + line + 1 };
                        line = 0;
                    }
                    _ => line += 1,
                }
                if event + line > max {
                    return Err(EventBytes::TooLong);
                }
            }
            Ok(chunk)
        })
        .take_while(move |r| {
            let go = !failed;
            failed |= r.is_err();
            std::future::ready(go)
        })
}

/// Why an SSE stream error means the event could not be read, or `None` for another failure.
fn unreadable_event(e: &SseError) -> Option<String> {
    match e {
        SseError::Utf8Parse(e) => Some(format!("it is not UTF-8 ({e})")),
        SseError::Body(b) => match b.downcast_ref::<EventBytes>() {
            Some(EventBytes::TooLong) => Some(too_long(None)),
            _ => None,
        },
        _ => None,
    }
}

/// An event whose data is `message`.
fn event_of(message: &ServerJsonRpcMessage, id: Option<String>) -> Sse {
    Sse {
        event: Some("message".into()),
        data: serde_json::to_string(message).ok(),
        id,
        retry: None,
    }
}

/// `stream` with each event decoded first: one that cannot be used becomes an error for the id
/// it names (or is dropped without one); with `post`, the id of the POST's request, an event that
/// is not UTF-8 or too long becomes an error for it and ends the stream.
fn checked(stream: SseStream, post: Option<RequestId>) -> SseStream {
    futures::stream::unfold(Some((stream, post)), |state| async move {
        let (mut stream, post) = state?;
        loop {
            match stream.next().await? {
                Ok(event) => {
                    let Some(data) = event.data.as_deref() else {
                        return Some((Ok(event), Some((stream, post))));
                    };
                    let why = match decode(data.as_bytes()) {
                        Ok(_) => return Some((Ok(event), Some((stream, post)))),
                        Err(why) => why,
                    };
                    if let Some(m) = settle(Err(why), skim_id(data.as_bytes())) {
                        let replaced = event_of(&m, event.id);
                        return Some((Ok(replaced), Some((stream, post))));
                    }
                }
                Err(e) => match (unreadable_event(&e), post.clone()) {
                    (Some(why), Some(id)) => {
                        return Some((Ok(event_of(&unreadable(id, why), None)), None));
                    }
                    _ => return Some((Err(e), Some((stream, post)))),
                },
            }
        }
    })
    .boxed()
}

/// rmcp's worker sends every POST through `post_message_with_response_limits` and opens every
/// stream through `get_stream_with_max_sse_event_size`; the other methods go there too.
impl StreamableHttpClient for BoundedHttpClient {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> PostResult {
        self.post_message_with_response_limits(
            uri,
            message,
            session_id,
            auth_header,
            custom_headers,
            StreamableHttpResponseLimits::default(),
        )
        .await
    }

    async fn post_message_with_response_limits(
        &self,
        uri: Arc<str>,
        message: ClientJsonRpcMessage,
        session_id: Option<Arc<str>>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        limits: StreamableHttpResponseLimits,
    ) -> PostResult {
        let request = match &message {
            ClientJsonRpcMessage::Request(r)
                if !matches!(r.request, ClientRequest::DiscoverRequest(_)) =>
            {
                Some(r.id.clone())
            }
            _ => None,
        };
        match request {
            Some(id) => {
                let session_attached = session_id.is_some();
                let post = self.post(
                    &uri,
                    &message,
                    session_id.as_deref(),
                    auth_header,
                    custom_headers,
                )?;
                answer(post.send().await?, id, session_attached, limits).await
            }
            None => {
                self.0
                    .post_message_with_response_limits(
                        uri,
                        message,
                        session_id,
                        auth_header,
                        custom_headers,
                        limits,
                    )
                    .await
            }
        }
    }

    async fn delete_session(
        &self,
        uri: Arc<str>,
        session_id: Arc<str>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<(), StreamableHttpError<reqwest::Error>> {
        self.0
            .delete_session(uri, session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
    ) -> Result<SseStream, StreamableHttpError<reqwest::Error>> {
        self.get_stream_with_max_sse_event_size(
            uri,
            session_id,
            last_event_id,
            auth_header,
            custom_headers,
            MAX_REPLY_LINE_BYTES,
        )
        .await
    }

    async fn get_stream_with_max_sse_event_size(
        &self,
        uri: Arc<str>,
        session_id: Option<Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: HashMap<HeaderName, HeaderValue>,
        max_sse_event_size: usize,
    ) -> Result<SseStream, StreamableHttpError<reqwest::Error>> {
        let stream = self
            .0
            .get_stream_with_max_sse_event_size(
                uri,
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
                max_sse_event_size,
            )
            .await?;
        Ok(checked(stream, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(chunks: &[&str], max: usize) -> Vec<Result<String, String>> {
        let stream = futures::stream::iter(
            chunks
                .iter()
                .map(|c| Ok::<_, reqwest::Error>(c.as_bytes().to_vec())),
        );
        futures::executor::block_on(
            bounded_events(stream, max)
                .map(|r| {
                    r.map(|b| String::from_utf8(b).unwrap())
                        .map_err(|e| e.to_string())
                })
                .collect(),
        )
    }

    #[test]
    fn configured_headers_may_not_replace_the_transport_s() {
        let ping: ClientJsonRpcMessage =
            serde_json::from_str(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
        let client = BoundedHttpClient::new();
        let post = |name: &'static str| {
            let headers =
                HashMap::from([(HeaderName::from_static(name), HeaderValue::from_static("x"))]);
            client.post("http://127.0.0.1:9/mcp", &ping, None, None, headers)
        };
        for name in ["accept", "mcp-session-id", "last-event-id"] {
            let e = post(name).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("Header name '{name}' is reserved and conflicts with default headers")
            );
        }
        assert!(post("x-test").is_ok());
        assert!(post("mcp-protocol-version").is_ok());
    }

    #[test]
    fn an_event_is_bounded_up_to_the_blank_line_that_ends_it() {
        // Two events of one 9-byte line and its line end (CRLF counts as one): within 10.
        let ok = cut(&["data: abc\r\n\r\n", "data: ab", "c\n\n"], 10);
        assert!(ok.iter().all(Result::is_ok), "{ok:?}");
        // 11 bytes of one event, over two chunks: cut off, and nothing after.
        let cut_off = cut(&["data: ab", "cde\n", "\n", "data: x\n\n"], 10);
        assert_eq!(cut_off.len(), 2, "{cut_off:?}");
        assert!(
            cut_off[1]
                .as_ref()
                .unwrap_err()
                .contains("MAX_REPLY_LINE_BYTES")
        );
        // Two lines of one event add up (with the line end between them).
        let two = cut(&["data: a\ndata: b\n\n"], 10);
        assert!(two[0].is_err(), "{two:?}");
    }
}
