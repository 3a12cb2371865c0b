//! Connections of their own for the hottest read on SQLite: a
//! submission's status row.
//!
//! A query through the pool costs two trips to a SQLite connection's
//! thread (sqlx pings a connection as it goes back to the pool, on a task
//! spawned for it) where the query needs one; and a status read, one
//! indexed row, is most of a busy judge's traffic (every contestant's
//! client polls its submissions). So that row is read on one of a few
//! connections held here, taken only when one is free: when all are busy
//! the pool serves the read as before, so a slow read never waits here.
//! A database in memory has none (a new connection would open another).

use std::path::Path;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteSynchronous};
use sqlx::Connection as _;
use tokio::sync::{Mutex, MutexGuard};

/// How many connections are held: as many as a 2-core server's runtime
/// threads can keep busy at once.
const READERS: usize = 2;

#[derive(Debug)]
pub(super) struct Readers {
    connections: Vec<Mutex<Option<SqliteConnection>>>,
}

impl Readers {
    /// Connections to the SQLite database in `file`; none when they cannot
    /// be opened (the pool serves every read then).
    pub async fn open(file: &Path) -> Readers {
        let options = SqliteConnectOptions::new()
            .filename(file)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let mut connections = Vec::new();
        for _ in 0..READERS {
            match SqliteConnection::connect_with(&options).await {
                Ok(c) => connections.push(Mutex::new(Some(c))),
                Err(e) => {
                    tracing::warn!(error = %e, "no reading connection of its own: the pool reads");
                    break;
                }
            }
        }
        Readers { connections }
    }

    /// None: every read goes through the pool.
    pub fn none() -> Readers {
        Readers {
            connections: Vec::new(),
        }
    }

    /// A connection no one is using now, if any.
    pub fn free(&self) -> Option<Reader<'_>> {
        self.connections.iter().find_map(|m| {
            let guard = m.try_lock().ok()?;
            guard.is_some().then_some(Reader(guard))
        })
    }

    /// Closes the connections (the store is closing).
    pub async fn close(&self) {
        for m in &self.connections {
            if let Some(c) = m.lock().await.take() {
                let _ = c.close().await;
            }
        }
    }
}

/// A held connection, free again when dropped.
pub(super) struct Reader<'r>(MutexGuard<'r, Option<SqliteConnection>>);

impl Reader<'_> {
    pub fn connection(&mut self) -> &mut SqliteConnection {
        self.0.as_mut().expect("a free reader holds its connection")
    }
}
