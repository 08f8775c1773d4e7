//! The real HTTP servers that `tests/setup.sh` installs (a venv under the target dir): the
//! FastAPI app `tests/servers/app.py` and httpbin, each started on a free loopback port for one
//! test and killed when its [`Server`] drops. Without the install a test prints a loud SKIPPED
//! and passes, except under `CI` (set by `.ci/run`'s environment), where it fails.
//! Shared with `crates/codemode-cli/tests/openapi.rs` (included there by path).
#![allow(dead_code)]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server; killed on drop.
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// This crate's directory.
fn crate_dir() -> PathBuf {
    // Compiled into codemode-openapi's tests and (by path) into codemode-cli's.
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../codemode-openapi")
        .canonicalize()
        .expect("crates/codemode-openapi")
}

/// The venv's python, or `None` (after saying so loudly) when `tests/setup.sh` has not run.
/// Under `CI` a missing install fails the test.
pub fn python(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("CODEMODE_OPENAPI_SERVERS")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate_dir().join("../../target/openapi-servers"));
    let py = dir.join("venv/bin/python");
    if py.exists() {
        return Some(py);
    }
    let msg = format!(
        "the real OpenAPI test servers are not installed in {} (run crates/codemode-openapi/tests/setup.sh)",
        dir.display()
    );
    assert!(std::env::var_os("CI").is_none(), "{test}: {msg}");
    eprintln!("\n*** SKIPPED {test}: {msg} ***\n");
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

/// Start `python args...` (with `{port}` replaced) and wait until the port accepts connections.
fn start(py: &Path, args: &[&str]) -> Server {
    let port = free_port();
    let args: Vec<String> = args
        .iter()
        .map(|a| a.replace("{port}", &port.to_string()))
        .collect();
    let log = std::env::temp_dir().join(format!("codemode-openapi-server-{port}.log"));
    let mut child = Command::new(py)
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("the server's log file"))
        .spawn()
        .expect("start the test server");
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            let err = std::fs::read_to_string(&log).unwrap_or_default();
            panic!("the test server {args:?} exited with {status}: {err}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the test server {args:?} did not listen on port {port} within 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Server {
        base: format!("http://127.0.0.1:{port}"),
        child,
    }
}

/// The FastAPI app of `tests/servers/app.py` (its spec: `{base}/openapi.json`).
pub fn fastapi(test: &str) -> Option<Server> {
    let py = python(test)?;
    let app_dir = crate_dir().join("tests/servers");
    let app_dir = app_dir.to_string_lossy().into_owned();
    Some(start(
        &py,
        &[
            "-m",
            "uvicorn",
            "app:app",
            "--app-dir",
            &app_dir,
            "--host",
            "127.0.0.1",
            "--port",
            "{port}",
            "--log-level",
            "warning",
        ],
    ))
}

/// httpbin (`{base}/anything/...` echoes the request as JSON).
pub fn httpbin(test: &str) -> Option<Server> {
    let py = python(test)?;
    Some(start(
        &py,
        &[
            "-c",
            "import sys, logging; logging.disable(logging.WARNING); from httpbin import app; app.run(host='127.0.0.1', port=int(sys.argv[1]))",
            "{port}",
        ],
    ))
}
