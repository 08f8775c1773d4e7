//! A loopback HTTP/1.1 stub for the wire tests: records each raw request and answers with what
//! the test's responder returns (one request per connection, `connection: close`).
#![allow(dead_code)]

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One request as it arrived.
#[derive(Clone, Debug)]
pub struct Raw {
    pub method: String,
    /// Path and query, exactly as sent.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Raw {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// A response: status, headers, body.
pub type Reply = (u16, Vec<(String, String)>, Vec<u8>);

pub struct Stub {
    pub base: String,
    pub requests: Arc<Mutex<Vec<Raw>>>,
}

impl Stub {
    pub fn taken(&self) -> Vec<Raw> {
        self.requests.lock().unwrap().clone()
    }
}

pub fn json_reply(status: u16, body: &str) -> Reply {
    (
        status,
        vec![("content-type".into(), "application/json".into())],
        body.as_bytes().to_vec(),
    )
}

/// Start a stub on 127.0.0.1 answering with `respond`.
pub async fn stub(respond: impl Fn(&Raw) -> Reply + Send + Sync + 'static) -> Stub {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let requests = Arc::new(Mutex::new(Vec::new()));
    let rec = Arc::clone(&requests);
    let respond = Arc::new(respond);
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let rec = Arc::clone(&rec);
            let respond = Arc::clone(&respond);
            tokio::spawn(async move {
                let mut buf = Vec::new();
                let mut tmp = [0u8; 4096];
                let head_end = loop {
                    let n = sock.read(&mut tmp).await.unwrap_or(0);
                    if n == 0 {
                        return;
                    }
                    buf.extend_from_slice(&tmp[..n]);
                    if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                        break i;
                    }
                };
                let head = String::from_utf8_lossy(&buf[..head_end]).into_owned();
                let mut lines = head.split("\r\n");
                let start: Vec<&str> = lines.next().unwrap_or("").split(' ').collect();
                let headers: Vec<(String, String)> = lines
                    .filter_map(|l| l.split_once(':'))
                    .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
                    .collect();
                let len: usize = headers
                    .iter()
                    .find(|(n, _)| n == "content-length")
                    .and_then(|(_, v)| v.parse().ok())
                    .unwrap_or(0);
                let mut body = buf[head_end + 4..].to_vec();
                while body.len() < len {
                    let n = sock.read(&mut tmp).await.unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    body.extend_from_slice(&tmp[..n]);
                }
                let raw = Raw {
                    method: start.first().unwrap_or(&"").to_string(),
                    target: start.get(1).unwrap_or(&"").to_string(),
                    headers,
                    body,
                };
                let (status, hs, body) = respond(&raw);
                rec.lock().unwrap().push(raw);
                let mut out = format!(
                    "HTTP/1.1 {status} X\r\ncontent-length: {}\r\nconnection: close\r\n",
                    body.len()
                );
                for (n, v) in hs {
                    out.push_str(&format!("{n}: {v}\r\n"));
                }
                out.push_str("\r\n");
                let mut bytes = out.into_bytes();
                bytes.extend_from_slice(&body);
                let _ = sock.write_all(&bytes).await;
                let _ = sock.shutdown().await;
            });
        }
    });
    Stub { base, requests }
}
pub mod servers;
