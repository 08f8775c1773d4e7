//! Where a spec comes from: a file, or an `http(s)://` URL fetched with a size cap and a timeout
//! ([`read`]). A fetched spec knows its own URL ([`Loaded::spec_url`]), against which relative
//! server URLs (and a spec without `servers`) resolve; the CLI and the MCP gateway take both.

use std::path::Path;
use std::time::Duration;

use crate::limits::{MAX_REDIRECTS, MAX_SPEC_BYTES, SPEC_FETCH_TIMEOUT};
use crate::load::{Document, Format, LoadError, load};

/// A spec read by [`read`].
#[derive(Debug)]
pub struct Loaded {
    /// The document.
    pub document: Document,
    /// The URL it was fetched from (`None` for a file): pass it as
    /// [`crate::Options::spec_url`].
    pub spec_url: Option<String>,
}

/// `true` when `location` is an `http://` or `https://` URL (else a file path).
pub fn is_url(location: &str) -> bool {
    let l = location.trim_start();
    l.len() > 8
        && (l[..7].eq_ignore_ascii_case("http://") || l[..8].eq_ignore_ascii_case("https://"))
}

/// The path part of a location: a URL's path (`https://x/v1/openapi.json` → `/v1/openapi.json`),
/// else the location itself (a file path). Its extension picks the format; its stem makes a name.
pub fn path_of(location: &str) -> std::path::PathBuf {
    if is_url(location) {
        let path = url::Url::parse(location)
            .map(|u| u.path().to_string())
            .unwrap_or_default();
        return std::path::PathBuf::from(path);
    }
    std::path::PathBuf::from(location)
}

/// Read and load the spec at `location`: a file path, or an `http(s)://` URL fetched (at most
/// [`MAX_SPEC_BYTES`], within [`SPEC_FETCH_TIMEOUT`], redirects followed at most
/// [`MAX_REDIRECTS`] times). The format comes from the name's extension, else from the content.
/// Blocks the calling thread (the fetch runs on a thread of its own, so this may be called from
/// inside an async runtime too). Errors say what could not be read and why.
pub fn read(location: &str) -> Result<Loaded, LoadError> {
    if is_url(location) {
        let bytes = fetch(location, SPEC_FETCH_TIMEOUT, MAX_SPEC_BYTES)?;
        let document = load(&bytes, Format::from_path(&path_of(location)))
            .map_err(|e| LoadError(format!("OpenAPI spec {location}: {}", e.0)))?;
        return Ok(Loaded {
            document,
            spec_url: Some(location.to_string()),
        });
    }
    let path = Path::new(location);
    let bytes = read_file(path)?;
    let document = load(&bytes, Format::from_path(path))
        .map_err(|e| LoadError(format!("OpenAPI spec {location}: {}", e.0)))?;
    Ok(Loaded {
        document,
        spec_url: None,
    })
}

/// The file's bytes, at most one past [`MAX_SPEC_BYTES`] (so `load` reports the size).
fn read_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    use std::io::Read;
    let mut buf = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_SPEC_BYTES as u64 + 1).read_to_end(&mut buf))
        .map_err(|e| LoadError(format!("cannot read OpenAPI spec {}: {e}", path.display())))?;
    Ok(buf)
}

/// GET `url` on a thread of its own: the body, at most `cap` bytes, within `timeout`.
pub(crate) fn fetch(url: &str, timeout: Duration, cap: usize) -> Result<Vec<u8>, LoadError> {
    let owned = url.to_string();
    let job = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
        rt.block_on(async move {
            match tokio::time::timeout(timeout, fetch_async(&owned, timeout, cap)).await {
                Ok(r) => r,
                Err(_) => Err(format!("no response within {} ms", timeout.as_millis())),
            }
        })
    });
    let r = job
        .join()
        .unwrap_or_else(|_| Err("the HTTP client stopped unexpectedly".into()));
    r.map_err(|e| LoadError(format!("cannot fetch OpenAPI spec {url}: {e}")))
}

async fn fetch_async(url: &str, timeout: Duration, cap: usize) -> Result<Vec<u8>, String> {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::limited(MAX_REDIRECTS))
        .timeout(timeout)
        .build()
        .map_err(|e| format!("cannot start the HTTP client: {e}"))?;
    let mut resp = client
        .get(url)
        .header(
            "accept",
            "application/json, application/yaml;q=0.9, */*;q=0.5",
        )
        .send()
        .await
        .map_err(|e| {
            if e.is_timeout() {
                format!("no response within {} ms", timeout.as_millis())
            } else {
                "could not connect to the server".to_string()
            }
        })?;
    if !resp.status().is_success() {
        return Err(format!("HTTP {}", resp.status().as_u16()));
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|_| "the connection failed while reading the spec".to_string())?
    {
        if body.len() + chunk.len() > cap {
            return Err(format!(
                "the spec is larger than the {} MiB accepted",
                cap / (1024 * 1024)
            ));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A loopback server answering every request with `body` (after `delay`).
    fn serve(body: Vec<u8>, delay: Duration) -> String {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = std_listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                std_listener.set_nonblocking(true).unwrap();
                let listener = tokio::net::TcpListener::from_std(std_listener).unwrap();
                loop {
                    let Ok((mut sock, _)) = listener.accept().await else {
                        return;
                    };
                    let body = body.clone();
                    tokio::spawn(async move {
                        let mut buf = [0u8; 4096];
                        let _ = sock.read(&mut buf).await;
                        tokio::time::sleep(delay).await;
                        let head = format!(
                            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                            body.len()
                        );
                        let _ = sock.write_all(head.as_bytes()).await;
                        let _ = sock.write_all(&body).await;
                    });
                }
            });
        });
        format!("http://{addr}")
    }

    const SPEC: &str =
        r#"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {}}"#;

    #[test]
    fn a_url_is_fetched_and_remembered() {
        let base = serve(SPEC.as_bytes().to_vec(), Duration::ZERO);
        let url = format!("{base}/v1/openapi.json");
        let loaded = read(&url).unwrap();
        assert_eq!(loaded.spec_url.as_deref(), Some(url.as_str()));
        assert!(loaded.document.root().get("paths").is_some());
        assert!(is_url("HTTPS://x.example/a.yaml"));
        assert!(!is_url("specs/http.json"));
        assert_eq!(path_of(&url), Path::new("/v1/openapi.json"));
        assert_eq!(path_of("a/b.yaml"), Path::new("a/b.yaml"));
    }

    #[test]
    fn fetching_is_bounded_in_size_and_time() {
        let base = serve(vec![b' '; 4096], Duration::ZERO);
        let e = fetch(&format!("{base}/big.json"), SPEC_FETCH_TIMEOUT, 1024).unwrap_err();
        assert!(
            e.0.ends_with("the spec is larger than the 0 MiB accepted"),
            "{}",
            e.0
        );
        let slow = serve(SPEC.as_bytes().to_vec(), Duration::from_secs(5));
        let t = std::time::Instant::now();
        let e = fetch(
            &format!("{slow}/s.json"),
            Duration::from_millis(200),
            MAX_SPEC_BYTES,
        )
        .unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        assert!(e.0.ends_with("no response within 200 ms"), "{}", e.0);
        let e = read("http://127.0.0.1:9/none.json").unwrap_err();
        assert!(e.0.contains("could not connect to the server"), "{}", e.0);
    }
}
