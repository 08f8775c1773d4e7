//! Media types: which ones are JSON, text or streams (parameters and case ignored).

/// `application/json; charset=utf-8` → `application/json`.
pub fn essence(media: &str) -> String {
    media
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// JSON: `application/json`, any `*+json`, and the wildcards `*/*` and `application/*`.
pub fn is_json(media: &str) -> bool {
    let m = essence(media);
    m == "application/json" || m.ends_with("+json") || m == "*/*" || m == "application/*"
}

/// Text: `text/*` except the event stream.
pub fn is_text(media: &str) -> bool {
    let m = essence(media);
    m.starts_with("text/") && m != "text/event-stream"
}

/// Server-sent events.
pub fn is_sse(media: &str) -> bool {
    essence(media) == "text/event-stream"
}

/// `application/x-www-form-urlencoded`.
pub fn is_form(media: &str) -> bool {
    essence(media) == "application/x-www-form-urlencoded"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds() {
        assert!(is_json("application/merge-patch+json"));
        assert!(is_json("Application/JSON; charset=utf-8"));
        assert!(is_json("*/*"));
        assert!(!is_json("application/octet-stream"));
        assert!(is_text("text/plain"));
        assert!(!is_text("text/event-stream"));
        assert!(is_sse("text/event-stream"));
        assert!(is_form("application/x-www-form-urlencoded"));
    }
}
