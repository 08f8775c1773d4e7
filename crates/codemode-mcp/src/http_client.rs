//! The HTTP client of the streamable-HTTP transport to a downstream server: rmcp's reqwest
//! client, wrapped so that a reply it cannot use fails its call at once.
//!
//! rmcp takes a reply it cannot decode (nesting past serde_json's 128 levels, `NaN`, invalid
//! UTF-8, more than [`MAX_REPLY_LINE_BYTES`]) for a broken connection: a JSON body fails the
//! POST, an SSE event ends its stream, and the gateway then drops the connection and counts a
//! restart. Here, for a POST that carries a request:
//! - an `application/json` body rmcp could not read or that exceeds [`MAX_REPLY_LINE_BYTES`]
//!   becomes the error `transport::settle` makes for that request;
//! - every `text/event-stream` event is decoded with `transport::decode` first (which
//!   also refuses more than [`crate::limits::MAX_REPLY_PARTS`] content parts), and one that
//!   cannot be used becomes that error for the id it names; an event that is not UTF-8 or exceeds
//!   [`MAX_REPLY_LINE_BYTES`] becomes it for the POST's request and ends the stream.
//!
//! Events of the streams opened by GET (server messages, resumed responses) are decoded the
//! same way; their stream errors are left to rmcp (which reconnects).

use std::collections::HashMap;
use std::sync::Arc;

use futures::StreamExt;
use futures::stream::BoxStream;
use reqwest::header::{HeaderName, HeaderValue};
use rmcp::model::{ClientJsonRpcMessage, RequestId};
use rmcp::transport::streamable_http_client::{
    StreamableHttpClient, StreamableHttpError, StreamableHttpPostResponse,
    StreamableHttpResponseLimits,
};
use sse_stream::{Error as SseError, Sse};

use crate::limits::MAX_REPLY_LINE_BYTES;
use crate::transport::{decode, settle, skim_id, too_long, unreadable};

type SseStream = BoxStream<'static, Result<Sse, SseError>>;
type PostResult = Result<StreamableHttpPostResponse, StreamableHttpError<reqwest::Error>>;

/// Most same-origin 307/308 redirects one request follows (as rmcp's default client).
const MAX_REDIRECTS: usize = 10;

/// A [`StreamableHttpClient`] over reqwest that turns unreadable replies into errors for their
/// requests (see the module docs). Configure the transport's `max_json_response_size` and
/// `max_sse_event_size` as [`MAX_REPLY_LINE_BYTES`].
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
                reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
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
}

impl Default for BoundedHttpClient {
    fn default() -> BoundedHttpClient {
        BoundedHttpClient::new()
    }
}

/// The id of the request `message` carries, if it is one.
fn request_id(message: &ClientJsonRpcMessage) -> Option<RequestId> {
    match message {
        ClientJsonRpcMessage::Request(r) => Some(r.id.clone()),
        _ => None,
    }
}

/// rmcp's text for a JSON body it could not decode: this prefix, serde's error, a preview.
const JSON_PARSE_FAILURE: &str = "could not parse JSON response as ServerJsonRpcMessage: ";

/// Why rmcp's error `e` means the reply could not be read, or `None` when it is another failure
/// (the connection, an HTTP status).
fn unreadable_body(e: &StreamableHttpError<reqwest::Error>) -> Option<String> {
    match e {
        StreamableHttpError::ResponseBodyTooLarge { .. } => Some(too_long(None)),
        StreamableHttpError::UnexpectedServerResponse(text) => {
            let rest = text.strip_prefix(JSON_PARSE_FAILURE)?;
            Some(format!(
                "it is not a JSON-RPC message codemode can decode ({})",
                serde_message(rest)
            ))
        }
        _ => None,
    }
}

/// serde_json's message ("… at line L column C") from the front of `text`, without the body
/// preview rmcp appends.
fn serde_message(text: &str) -> &str {
    let end = text.find(" at line ").and_then(|at| {
        let col = at + text[at..].find(" column ")? + " column ".len();
        let digits = text[col..].bytes().take_while(u8::is_ascii_digit).count();
        Some(col + digits)
    });
    let end = end.unwrap_or_else(|| text.floor_char_boundary(text.len().min(200)));
    &text[..end]
}

/// Why an SSE stream error means the event could not be read, or `None` for another failure.
fn unreadable_event(e: &SseError) -> Option<String> {
    match e {
        SseError::Utf8Parse(e) => Some(format!("it is not UTF-8 ({e})")),
        // rmcp's size bound reports itself as a body error with this text.
        SseError::Body(b)
            if b.to_string()
                .contains("SSE event exceeded the maximum size") =>
        {
            Some(too_long(None))
        }
        _ => None,
    }
}

/// An event whose data is `message`.
fn event_of(message: &impl serde::Serialize, id: Option<String>) -> Sse {
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

/// What a POST of a request with `id` answers once unreadable replies are errors.
fn settle_post(id: Option<RequestId>, result: PostResult) -> PostResult {
    match result {
        Ok(StreamableHttpPostResponse::Sse(stream, session)) => Ok(
            StreamableHttpPostResponse::Sse(checked(stream, id), session),
        ),
        Err(e) => match (unreadable_body(&e), id) {
            (Some(why), Some(id)) => {
                Ok(StreamableHttpPostResponse::Json(unreadable(id, why), None))
            }
            _ => Err(e),
        },
        other => other,
    }
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
        let id = request_id(&message);
        let r = self
            .0
            .post_message_with_response_limits(
                uri,
                message,
                session_id,
                auth_header,
                custom_headers,
                limits,
            )
            .await;
        settle_post(id, r)
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

    #[test]
    fn serde_message_drops_the_body_preview() {
        let e = serde_json::from_str::<serde_json::Value>("{\"a\":NaN}").unwrap_err();
        let text = format!("{e}: {{\"a\":NaN}}");
        assert_eq!(serde_message(&text), "expected value at line 1 column 6");
        assert_eq!(serde_message("no position here"), "no position here");
    }
}
