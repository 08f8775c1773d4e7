//! Paused executions kept on the server (durable executions, issue 19): when a program calls a
//! tool that needs approval, `execute` returns the paused Result with a resume token, and the
//! snapshot's bytes stay here, in a [`PausedStore`], until the `resume` tool claims them. The
//! client never holds a snapshot.
//!
//! - A token is the snapshot's random 16-byte id as 32 lowercase hex characters
//!   ([`TOKEN_CHARS`]); anything else is refused before a store is asked, so a token cannot
//!   name a path.
//! - A token resumes once: [`PausedStore::take`] claims it atomically (memory: under a lock;
//!   `dir:`: a rename; `sqlite:`: one `UPDATE ... RETURNING`), and a claimed token answers
//!   [`Missing::Claimed`] from then on.
//! - Stores ([`StoreSpec`]): `memory` (the default; lost when the server stops, bounded by
//!   [`crate::limits::MAX_PAUSED_IN_MEMORY`] executions and
//!   [`crate::limits::MAX_PAUSED_MEMORY_BYTES`] bytes, the oldest dropped first),
//!   `dir:PATH` (one file per token, `TOKEN.snapshot`, written to a temporary file and renamed;
//!   claimed ones become empty `TOKEN.claimed` files), `sqlite:PATH` (one table, `paused`).
//!   On disk nothing expires: remove old files or rows yourself.
//! - Snapshots are signed (HMAC-SHA256, [`codemode::Options::snapshot_key`]) with a key the
//!   server keeps ([`load_or_create_key`]): for `memory` a random one per process; for
//!   `dir:PATH` the file `PATH/key`, for `sqlite:PATH` the file `PATH.key`, or the
//!   `--snapshot-key-file` (`codemode.snapshotKeyFile`); a key file that does not exist is
//!   created once, with mode 0600, holding 64 hex characters. A snapshot altered on disk, or
//!   signed with another key, is refused on resume.

use std::collections::{HashMap, HashSet, VecDeque};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::limits::{MAX_CLAIMED_IN_MEMORY, MAX_PAUSED_IN_MEMORY, MAX_PAUSED_MEMORY_BYTES};

/// Characters of a resume token: 32 lowercase hex digits (the snapshot's 16-byte id).
pub const TOKEN_CHARS: usize = 32;

/// Bytes of a key created for a store (written as twice as many hex characters).
pub const KEY_BYTES: usize = 32;

/// Fewest bytes a snapshot key file must hold.
pub const MIN_KEY_BYTES: usize = 16;

/// Where paused executions are kept: `codemode.snapshotStore` or `--snapshot-store`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum StoreSpec {
    /// `memory`: in this process (the default).
    #[default]
    Memory,
    /// `dir:PATH`: one file per token in the directory `PATH` (created, mode 0700).
    Dir(PathBuf),
    /// `sqlite:PATH`: the SQLite database file `PATH` (created).
    Sqlite(PathBuf),
}

impl StoreSpec {
    /// Parse `memory`, `dir:PATH` or `sqlite:PATH`; a relative `PATH` resolves against `dir`.
    /// Errors: the message says what to write instead.
    pub fn parse(text: &str, dir: &Path) -> Result<StoreSpec, String> {
        let bad = || {
            format!(
                "snapshot store {text:?}: write \"memory\", \"dir:PATH\" (a directory) or \"sqlite:PATH\" (a database file)"
            )
        };
        if text == "memory" {
            return Ok(StoreSpec::Memory);
        }
        let (kind, path) = text.split_once(':').ok_or_else(bad)?;
        if path.is_empty() {
            return Err(bad());
        }
        let path = dir.join(path);
        match kind {
            "dir" => Ok(StoreSpec::Dir(path)),
            "sqlite" => Ok(StoreSpec::Sqlite(path)),
            _ => Err(bad()),
        }
    }

    /// The key file kept with the store (`None` for memory).
    pub fn key_file(&self) -> Option<PathBuf> {
        match self {
            StoreSpec::Memory => None,
            StoreSpec::Dir(d) => Some(d.join("key")),
            StoreSpec::Sqlite(p) => {
                let mut s = p.clone().into_os_string();
                s.push(".key");
                Some(PathBuf::from(s))
            }
        }
    }

    /// Open (and create) the store.
    ///
    /// # Errors
    /// The directory or database cannot be created or opened.
    pub fn open(&self) -> Result<Box<dyn PausedStore>, String> {
        Ok(match self {
            StoreSpec::Memory => Box::new(MemoryStore::new()),
            StoreSpec::Dir(d) => Box::new(DirStore::open(d)?),
            StoreSpec::Sqlite(p) => Box::new(SqliteStore::open(p)?),
        })
    }
}

/// Why a token has no snapshot to give.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The token is not 32 lowercase hex characters.
    BadToken,
    /// No paused execution has this token (never issued here, or dropped).
    Unknown,
    /// It was resumed already.
    Claimed,
    /// The store failed (a disk or database error).
    Failed(String),
}

impl Missing {
    /// What the `resume` tool answers, for `token`.
    pub fn message(&self, token: &str) -> String {
        match self {
            Missing::BadToken => format!(
                "resume: {token:?} is not a resume token; pass the \"resumeToken\" of a paused execute result ({TOKEN_CHARS} hexadecimal characters)."
            ),
            Missing::Unknown => format!(
                "resume: no paused execution has the token {token} on this server (it was never issued here, or it was dropped from the store). Run the program again with execute."
            ),
            Missing::Claimed => format!(
                "resume: the paused execution of token {token} was resumed already; a token resumes once. Use the resumeToken of the latest paused result, or run the program again with execute."
            ),
            Missing::Failed(why) => format!(
                "resume: the snapshot store failed ({why}); nothing was run. Try again, or run the program again with execute."
            ),
        }
    }
}

/// Checks that `token` is [`TOKEN_CHARS`] lowercase hex characters.
pub fn check_token(token: &str) -> Result<(), Missing> {
    if token.len() == TOKEN_CHARS
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        Ok(())
    } else {
        Err(Missing::BadToken)
    }
}

/// The token of a snapshot id.
pub fn token_of(id: [u8; 16]) -> String {
    hex(&id)
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    s
}

/// Paused executions by token (see the module docs). Every method checks the token first
/// ([`check_token`]).
pub trait PausedStore: Send + Sync {
    /// Keep `snapshot` under `token` (a new token).
    ///
    /// # Errors
    /// The store failed; the message says how.
    fn put(&self, token: &str, snapshot: &[u8]) -> Result<(), String>;

    /// The snapshot under `token`, without claiming it (to check a resume's replies first).
    ///
    /// # Errors
    /// [`Missing`].
    fn peek(&self, token: &str) -> Result<Vec<u8>, Missing>;

    /// Claim `token` and give its snapshot: atomic, so of two takes of one token (in one
    /// process or several sharing the store) exactly one gets the bytes and the other
    /// [`Missing::Claimed`].
    ///
    /// # Errors
    /// [`Missing`].
    fn take(&self, token: &str) -> Result<Vec<u8>, Missing>;
}

/// The default store: in this process, bounded (the oldest dropped first).
#[derive(Default)]
pub struct MemoryStore {
    inner: Mutex<MemoryInner>,
    max_count: usize,
    max_bytes: usize,
}

#[derive(Default)]
struct MemoryInner {
    paused: HashMap<String, Vec<u8>>,
    order: VecDeque<String>,
    bytes: usize,
    claimed: HashSet<String>,
    claimed_order: VecDeque<String>,
}

impl MemoryStore {
    /// A store holding at most [`MAX_PAUSED_IN_MEMORY`] executions and
    /// [`MAX_PAUSED_MEMORY_BYTES`] bytes of snapshots.
    pub fn new() -> Self {
        Self::with_bounds(MAX_PAUSED_IN_MEMORY, MAX_PAUSED_MEMORY_BYTES)
    }

    /// A store with other bounds (executions, bytes).
    pub fn with_bounds(max_count: usize, max_bytes: usize) -> Self {
        MemoryStore {
            inner: Mutex::default(),
            max_count,
            max_bytes,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MemoryInner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl PausedStore for MemoryStore {
    fn put(&self, token: &str, snapshot: &[u8]) -> Result<(), String> {
        check_token(token).map_err(|m| m.message(token))?;
        if snapshot.len() > self.max_bytes {
            return Err(format!(
                "the snapshot has {} bytes, more than the {} the memory store keeps; use --snapshot-store dir:PATH or sqlite:PATH",
                snapshot.len(),
                self.max_bytes
            ));
        }
        let mut s = self.lock();
        while s.order.len() >= self.max_count || s.bytes + snapshot.len() > self.max_bytes {
            let Some(old) = s.order.pop_front() else {
                break;
            };
            if let Some(b) = s.paused.remove(&old) {
                s.bytes -= b.len();
            }
        }
        s.bytes += snapshot.len();
        s.paused.insert(token.to_string(), snapshot.to_vec());
        s.order.push_back(token.to_string());
        Ok(())
    }

    fn peek(&self, token: &str) -> Result<Vec<u8>, Missing> {
        check_token(token)?;
        let s = self.lock();
        match s.paused.get(token) {
            Some(b) => Ok(b.clone()),
            None if s.claimed.contains(token) => Err(Missing::Claimed),
            None => Err(Missing::Unknown),
        }
    }

    fn take(&self, token: &str) -> Result<Vec<u8>, Missing> {
        check_token(token)?;
        let mut s = self.lock();
        let Some(bytes) = s.paused.remove(token) else {
            return Err(if s.claimed.contains(token) {
                Missing::Claimed
            } else {
                Missing::Unknown
            });
        };
        s.bytes -= bytes.len();
        s.order.retain(|t| t != token);
        if s.claimed_order.len() >= MAX_CLAIMED_IN_MEMORY
            && let Some(old) = s.claimed_order.pop_front()
        {
            s.claimed.remove(&old);
        }
        s.claimed.insert(token.to_string());
        s.claimed_order.push_back(token.to_string());
        Ok(bytes)
    }
}

/// `dir:PATH`: `PATH/TOKEN.snapshot` per paused execution; a claim renames it to
/// `TOKEN.claimed` (atomic) and empties it.
pub struct DirStore {
    dir: PathBuf,
}

impl DirStore {
    /// Open the directory, creating it (mode 0700 on Unix) when missing.
    ///
    /// # Errors
    /// It cannot be created, or is not a directory.
    pub fn open(dir: &Path) -> Result<DirStore, String> {
        let mut b = std::fs::DirBuilder::new();
        b.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(dir).map_err(|e| {
            format!(
                "cannot create the snapshot store directory {}: {e}",
                dir.display()
            )
        })?;
        Ok(DirStore {
            dir: dir.to_path_buf(),
        })
    }

    fn file(&self, token: &str, ext: &str) -> PathBuf {
        self.dir.join(format!("{token}.{ext}"))
    }

    fn missing(&self, token: &str, e: std::io::Error) -> Missing {
        if e.kind() != std::io::ErrorKind::NotFound {
            return Missing::Failed(format!("{}: {e}", self.dir.display()));
        }
        if self.file(token, "claimed").exists() {
            Missing::Claimed
        } else {
            Missing::Unknown
        }
    }
}

impl PausedStore for DirStore {
    fn put(&self, token: &str, snapshot: &[u8]) -> Result<(), String> {
        check_token(token).map_err(|m| m.message(token))?;
        let tmp = self.file(token, "tmp");
        let fail = |e: std::io::Error| format!("cannot write {}: {e}", tmp.display());
        let mut f = std::fs::File::create(&tmp).map_err(fail)?;
        f.write_all(snapshot)
            .and_then(|()| f.sync_all())
            .map_err(fail)?;
        drop(f);
        std::fs::rename(&tmp, self.file(token, "snapshot")).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot store the snapshot in {}: {e}", self.dir.display())
        })
    }

    fn peek(&self, token: &str) -> Result<Vec<u8>, Missing> {
        check_token(token)?;
        std::fs::read(self.file(token, "snapshot")).map_err(|e| self.missing(token, e))
    }

    fn take(&self, token: &str) -> Result<Vec<u8>, Missing> {
        check_token(token)?;
        let claimed = self.file(token, "claimed");
        // A snapshot put back beside its claim record does not resume again.
        if claimed.exists() {
            return Err(Missing::Claimed);
        }
        std::fs::rename(self.file(token, "snapshot"), &claimed)
            .map_err(|e| self.missing(token, e))?;
        let bytes = std::fs::read(&claimed)
            .map_err(|e| Missing::Failed(format!("{}: {e}", claimed.display())))?;
        // The empty file stays: it says the token was resumed.
        let _ = std::fs::File::create(&claimed);
        Ok(bytes)
    }
}

/// `sqlite:PATH`: the table `paused(token TEXT PRIMARY KEY, snapshot BLOB, claimed INTEGER)`;
/// a claim is one `UPDATE ... SET claimed = 1 WHERE claimed = 0 RETURNING snapshot`.
pub struct SqliteStore {
    db: Mutex<rusqlite::Connection>,
    path: PathBuf,
}

impl SqliteStore {
    /// Open (and create) the database and its table.
    ///
    /// # Errors
    /// It cannot be opened, or is not an SQLite database.
    pub fn open(path: &Path) -> Result<SqliteStore, String> {
        let fail = |e: rusqlite::Error| {
            format!("cannot open the snapshot database {}: {e}", path.display())
        };
        let db = rusqlite::Connection::open(path).map_err(fail)?;
        db.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(fail)?;
        db.execute_batch(
            "CREATE TABLE IF NOT EXISTS paused (
                token TEXT PRIMARY KEY NOT NULL,
                snapshot BLOB,
                claimed INTEGER NOT NULL DEFAULT 0
            )",
        )
        .map_err(fail)?;
        Ok(SqliteStore {
            db: Mutex::new(db),
            path: path.to_path_buf(),
        })
    }

    fn db(&self) -> std::sync::MutexGuard<'_, rusqlite::Connection> {
        self.db.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn failed(&self, e: rusqlite::Error) -> Missing {
        Missing::Failed(format!("{}: {e}", self.path.display()))
    }

    /// Why `token` has no unclaimed row.
    fn missing(&self, db: &rusqlite::Connection, token: &str) -> Missing {
        use rusqlite::OptionalExtension;
        match db
            .query_row(
                "SELECT claimed FROM paused WHERE token = ?1",
                [token],
                |r| r.get::<_, i64>(0),
            )
            .optional()
        {
            Ok(Some(_)) => Missing::Claimed,
            Ok(None) => Missing::Unknown,
            Err(e) => self.failed(e),
        }
    }
}

impl PausedStore for SqliteStore {
    fn put(&self, token: &str, snapshot: &[u8]) -> Result<(), String> {
        check_token(token).map_err(|m| m.message(token))?;
        self.db()
            .execute(
                "INSERT INTO paused (token, snapshot) VALUES (?1, ?2)",
                rusqlite::params![token, snapshot],
            )
            .map(|_| ())
            .map_err(|e| format!("cannot store the snapshot in {}: {e}", self.path.display()))
    }

    fn peek(&self, token: &str) -> Result<Vec<u8>, Missing> {
        use rusqlite::OptionalExtension;
        check_token(token)?;
        let db = self.db();
        match db
            .query_row(
                "SELECT snapshot FROM paused WHERE token = ?1 AND claimed = 0",
                [token],
                |r| r.get::<_, Vec<u8>>(0),
            )
            .optional()
        {
            Ok(Some(b)) => Ok(b),
            Ok(None) => Err(self.missing(&db, token)),
            Err(e) => Err(self.failed(e)),
        }
    }

    fn take(&self, token: &str) -> Result<Vec<u8>, Missing> {
        use rusqlite::OptionalExtension;
        check_token(token)?;
        let db = self.db();
        let bytes = db
            .query_row(
                "UPDATE paused SET claimed = 1 WHERE token = ?1 AND claimed = 0 RETURNING snapshot",
                [token],
                |r| r.get::<_, Vec<u8>>(0),
            )
            .optional()
            .map_err(|e| self.failed(e))?;
        match bytes {
            Some(b) => {
                // The claimed row stays (it says the token was resumed), without its bytes.
                let _ = db.execute(
                    "UPDATE paused SET snapshot = NULL WHERE token = ?1",
                    [token],
                );
                Ok(b)
            }
            None => Err(self.missing(&db, token)),
        }
    }
}

/// The key snapshots are signed with: read from `file`, or, when it does not exist, created
/// there once ([`KEY_BYTES`] random bytes as hex, mode 0600, published with a hard link so two
/// servers starting together agree on one key). The key is the file's bytes without trailing
/// whitespace; at least [`MIN_KEY_BYTES`]. `None`: a random key for this process.
///
/// # Errors
/// The file cannot be read or created, or holds too short a key.
pub fn load_or_create_key(file: Option<&Path>) -> Result<Vec<u8>, String> {
    let Some(file) = file else {
        return random(KEY_BYTES);
    };
    for _ in 0..2 {
        match std::fs::read(file) {
            Ok(mut k) => {
                while k.last().is_some_and(u8::is_ascii_whitespace) {
                    k.pop();
                }
                if k.len() < MIN_KEY_BYTES {
                    return Err(format!(
                        "the snapshot key file {} holds {} bytes; a key needs at least {MIN_KEY_BYTES} (remove the file to have one created)",
                        file.display(),
                        k.len()
                    ));
                }
                return Ok(k);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => create_key(file)?,
            Err(e) => {
                return Err(format!(
                    "cannot read the snapshot key file {}: {e}",
                    file.display()
                ));
            }
        }
    }
    Err(format!(
        "the snapshot key file {} cannot be created",
        file.display()
    ))
}

fn random(n: usize) -> Result<Vec<u8>, String> {
    let mut k = vec![0u8; n];
    getrandom::fill(&mut k).map_err(|e| format!("no random bytes for a snapshot key: {e}"))?;
    Ok(k)
}

/// Write a new key to a temporary file and link it at `file` unless one appeared meanwhile.
fn create_key(file: &Path) -> Result<(), String> {
    let fail = |e: std::io::Error| {
        format!(
            "cannot create the snapshot key file {}: {e}",
            file.display()
        )
    };
    let key = hex(&random(KEY_BYTES)?);
    let mut tmp = file.as_os_str().to_owned();
    tmp.push(format!(".{}.tmp", hex(&random(8)?)));
    let tmp = PathBuf::from(tmp);
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let mut f = o.open(&tmp).map_err(fail)?;
    let written = writeln!(f, "{key}").and_then(|()| f.sync_all());
    drop(f);
    let linked = written.and_then(|()| std::fs::hard_link(&tmp, file));
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(fail(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T1: &str = "0123456789abcdef0123456789abcdef";
    const T2: &str = "fedcba9876543210fedcba9876543210";

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("codemode-paused-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// The contract every store keeps.
    fn claims_once(store: &dyn PausedStore) {
        store.put(T1, b"snapshot one").unwrap();
        assert_eq!(store.peek(T1).unwrap(), b"snapshot one");
        assert_eq!(
            store.peek(T1).unwrap(),
            b"snapshot one",
            "peek does not claim"
        );
        assert_eq!(store.take(T1).unwrap(), b"snapshot one");
        assert_eq!(store.take(T1), Err(Missing::Claimed));
        assert_eq!(store.peek(T1), Err(Missing::Claimed));
        assert_eq!(store.take(T2), Err(Missing::Unknown));
        assert_eq!(store.peek(T2), Err(Missing::Unknown));
        for bad in [
            "../../etc/passwd",
            "0123456789ABCDEF0123456789ABCDEF",
            "0123",
            "",
            "0123456789abcdef0123456789abcdeg",
        ] {
            assert_eq!(store.take(bad), Err(Missing::BadToken), "{bad}");
            assert_eq!(store.peek(bad), Err(Missing::BadToken), "{bad}");
            assert!(
                store
                    .put(bad, b"x")
                    .unwrap_err()
                    .contains("not a resume token")
            );
        }
    }

    #[test]
    fn memory_store_claims_once() {
        claims_once(&MemoryStore::new());
    }

    #[test]
    fn dir_store_claims_once_and_keeps_files_by_token() {
        let d = scratch("dir");
        let store = DirStore::open(&d.join("store")).unwrap();
        claims_once(&store);
        assert_eq!(
            std::fs::read(d.join("store").join(format!("{T1}.claimed"))).unwrap(),
            b""
        );
        assert!(!d.join("store").join(format!("{T1}.snapshot")).exists());
        // A second store over the same directory (another process, a restart) sees the same.
        store.put(T2, b"two").unwrap();
        let again = DirStore::open(&d.join("store")).unwrap();
        assert_eq!(again.take(T1), Err(Missing::Claimed));
        assert_eq!(again.take(T2).unwrap(), b"two");
        assert_eq!(store.take(T2), Err(Missing::Claimed));
    }

    #[test]
    fn sqlite_store_claims_once_and_survives_reopening() {
        let d = scratch("sqlite");
        let path = d.join("paused.db");
        let store = SqliteStore::open(&path).unwrap();
        claims_once(&store);
        store.put(T2, b"two").unwrap();
        drop(store);
        let again = SqliteStore::open(&path).unwrap();
        assert_eq!(again.take(T1), Err(Missing::Claimed));
        assert_eq!(again.take(T2).unwrap(), b"two");
        assert_eq!(again.take(T2), Err(Missing::Claimed));
    }

    #[test]
    fn sqlite_store_refuses_a_file_that_is_not_a_database() {
        let d = scratch("notdb");
        let path = d.join("paused.db");
        std::fs::write(&path, vec![7u8; 4096]).unwrap();
        let e = SqliteStore::open(&path).err().unwrap();
        assert!(e.contains("cannot open the snapshot database"), "{e}");
        assert!(e.contains("not a database"), "{e}");
    }

    #[test]
    fn concurrent_takes_of_one_token_give_the_bytes_once() {
        let d = scratch("race");
        let stores: Vec<Box<dyn PausedStore>> = vec![
            Box::new(MemoryStore::new()),
            Box::new(DirStore::open(&d.join("dir")).unwrap()),
            Box::new(SqliteStore::open(&d.join("db")).unwrap()),
        ];
        for store in &stores {
            store.put(T1, b"once").unwrap();
            let wins = std::thread::scope(|s| {
                let hs: Vec<_> = (0..8).map(|_| s.spawn(|| store.take(T1).is_ok())).collect();
                hs.into_iter()
                    .map(|h| h.join().unwrap())
                    .filter(|w| *w)
                    .count()
            });
            assert_eq!(wins, 1);
        }
    }

    #[test]
    fn a_corrupted_file_is_given_back_as_it_is_and_does_not_decode() {
        let d = scratch("corrupt");
        let store = DirStore::open(&d).unwrap();
        store
            .put(T1, b"CODEMODE\x01\x00\x00\x00\x01garbage")
            .unwrap();
        std::fs::write(d.join(format!("{T1}.snapshot")), b"not a snapshot").unwrap();
        let bytes = store.take(T1).unwrap();
        // The store does not judge the bytes: resuming refuses them (see the gateway tests).
        assert_eq!(bytes, b"not a snapshot");
        assert!(
            codemode::Snapshot::from_bytes(bytes)
                .pending_ids()
                .is_empty()
        );
    }

    #[test]
    fn the_memory_store_drops_the_oldest_past_its_bounds() {
        let store = MemoryStore::new();
        let token = |i: usize| format!("{i:032x}");
        for i in 0..=MAX_PAUSED_IN_MEMORY {
            store.put(&token(i), b"s").unwrap();
        }
        assert_eq!(store.take(&token(0)), Err(Missing::Unknown));
        assert_eq!(store.take(&token(1)).unwrap(), b"s");
        assert_eq!(store.take(&token(MAX_PAUSED_IN_MEMORY)).unwrap(), b"s");

        let small = MemoryStore::with_bounds(10, 10);
        small.put(T1, b"123456").unwrap();
        small.put(T2, b"123456").unwrap();
        assert_eq!(small.take(T1), Err(Missing::Unknown));
        assert_eq!(small.take(T2).unwrap(), b"123456");
        assert!(
            small
                .put(T1, b"12345678901")
                .unwrap_err()
                .contains("more than the 10 the memory store keeps")
        );
    }

    #[test]
    fn the_memory_store_forgets_the_oldest_claims_past_its_bound() {
        let store = MemoryStore::new();
        let token = |i: usize| format!("{i:032x}");
        for i in 0..=MAX_CLAIMED_IN_MEMORY {
            store.put(&token(i), b"s").unwrap();
            store.take(&token(i)).unwrap();
        }
        assert_eq!(store.take(&token(0)), Err(Missing::Unknown));
        assert_eq!(store.take(&token(1)), Err(Missing::Claimed));
    }

    #[test]
    fn store_specs() {
        let dir = Path::new("/etc/cm");
        assert_eq!(StoreSpec::parse("memory", dir), Ok(StoreSpec::Memory));
        assert_eq!(
            StoreSpec::parse("dir:snaps", dir),
            Ok(StoreSpec::Dir("/etc/cm/snaps".into()))
        );
        assert_eq!(
            StoreSpec::parse("sqlite:/var/p.db", dir),
            Ok(StoreSpec::Sqlite("/var/p.db".into()))
        );
        assert_eq!(
            StoreSpec::Sqlite("/var/p.db".into()).key_file(),
            Some("/var/p.db.key".into())
        );
        assert_eq!(
            StoreSpec::Dir("/var/s".into()).key_file(),
            Some("/var/s/key".into())
        );
        for bad in ["", "dir:", "redis:x", "sqlite"] {
            assert!(
                StoreSpec::parse(bad, dir)
                    .unwrap_err()
                    .contains("write \"memory\", \"dir:PATH\""),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_key_file_is_created_once_private_and_read_back() {
        let d = scratch("key");
        let f = d.join("k");
        let k1 = load_or_create_key(Some(&f)).unwrap();
        assert_eq!(k1.len(), KEY_BYTES * 2);
        assert!(k1.iter().all(u8::is_ascii_hexdigit));
        assert_eq!(load_or_create_key(Some(&f)).unwrap(), k1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&f).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        std::fs::write(&f, "short\n").unwrap();
        let e = load_or_create_key(Some(&f)).unwrap_err();
        assert!(e.contains("holds 5 bytes; a key needs at least 16"), "{e}");
        let r1 = load_or_create_key(None).unwrap();
        assert_eq!(r1.len(), KEY_BYTES);
        assert_ne!(r1, load_or_create_key(None).unwrap());
    }
}
