//! Connections of their own for the hottest reads on SQLite: a
//! submission's status row, and what each poll of a contest's board reads
//! (the contest, its version, the tries changed since a kept board).
//!
//! A query through the pool costs two trips to a SQLite connection's
//! thread (sqlx pings a connection as it goes back to the pool, on a task
//! spawned for it) where the query needs one; and these reads, a few
//! indexed rows each, are most of a busy judge's traffic (every
//! contestant's client polls its submissions and the board). So they are
//! read on one of a few connections held here ([`super::db::on_reader`]),
//! taken only when one is free: when all are busy the pool serves the read
//! as before, so a slow read never waits here. A database in memory has
//! none (a new connection would open another).
//!
//! Each is opened when a read first finds none free, not with the store:
//! most commands read a status once, and opening a connection (a thread,
//! the file, its pragmas) cost `grundy submit` a few of them at its start.

use std::path::{Path, PathBuf};
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteSynchronous};
use sqlx::Connection as _;
use tokio::sync::{Mutex, MutexGuard};

/// How many connections are held at most: as many as a 2-core server's
/// runtime threads can keep busy at once.
const READERS: usize = 2;

/// One of the connections.
#[derive(Debug)]
enum Slot {
    /// Not opened yet.
    Unopened,
    Open(SqliteConnection),
    /// Closed with the store, or failed to open: the pool serves instead.
    Gone,
}

#[derive(Debug)]
pub(super) struct Readers {
    /// The database's file.
    file: PathBuf,
    slots: Vec<Mutex<Slot>>,
}

impl Readers {
    /// Up to [`READERS`] connections to the SQLite database in `file`,
    /// each opened when first wanted.
    pub fn beside(file: &Path) -> Readers {
        Readers {
            file: file.to_path_buf(),
            slots: (0..READERS).map(|_| Mutex::new(Slot::Unopened)).collect(),
        }
    }

    /// None: every read goes through the pool.
    pub fn none() -> Readers {
        Readers {
            file: PathBuf::new(),
            slots: Vec::new(),
        }
    }

    /// A connection no one is using now: an open one, else one opened now
    /// where fewer than [`READERS`] are; none when all are busy or one
    /// cannot be opened (the pool serves the read then).
    pub async fn free(&self) -> Option<Reader<'_>> {
        let mut unopened = None;
        for slot in &self.slots {
            let Ok(guard) = slot.try_lock() else { continue };
            match *guard {
                Slot::Open(_) => return Some(Reader(guard)),
                Slot::Unopened if unopened.is_none() => unopened = Some(guard),
                _ => {}
            }
        }
        let mut guard = unopened?;
        let options = SqliteConnectOptions::new()
            .filename(&self.file)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        match SqliteConnection::connect_with(&options).await {
            Ok(c) => {
                *guard = Slot::Open(c);
                Some(Reader(guard))
            }
            Err(e) => {
                tracing::warn!(error = %e, "no reading connection of its own: the pool reads");
                *guard = Slot::Gone;
                None
            }
        }
    }

    /// Closes the connections (the store is closing).
    pub async fn close(&self) {
        for slot in &self.slots {
            let mut guard = slot.lock().await;
            if let Slot::Open(c) = std::mem::replace(&mut *guard, Slot::Gone) {
                let _ = c.close().await;
            }
        }
    }
}

/// A held connection, free again when dropped.
pub(super) struct Reader<'r>(MutexGuard<'r, Slot>);

impl Reader<'_> {
    pub fn connection(&mut self) -> &mut SqliteConnection {
        match &mut *self.0 {
            Slot::Open(c) => c,
            _ => unreachable!("a free reader holds its connection"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Connections opened (one held by a reader is open).
    fn opened(readers: &Readers) -> usize {
        readers
            .slots
            .iter()
            .filter(|s| s.try_lock().map_or(true, |s| matches!(*s, Slot::Open(_))))
            .count()
    }

    /// None is opened with the store; a read opens one only when none is
    /// free, up to [`READERS`]; beyond, the pool serves.
    #[tokio::test]
    async fn connections_open_as_reads_need_them() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("grundy.db");
        let options = SqliteConnectOptions::new()
            .filename(&file)
            .create_if_missing(true);
        SqliteConnection::connect_with(&options)
            .await
            .unwrap()
            .close()
            .await
            .unwrap();
        let readers = Readers::beside(&file);
        assert_eq!(opened(&readers), 0, "a connection opened with the store");
        drop(readers.free().await.expect("a reader"));
        assert_eq!(opened(&readers), 1);
        // The one opened is free again: it serves the next read.
        let first = readers.free().await.expect("a reader");
        assert_eq!(opened(&readers), 1, "a second opened while one was free");
        let second = readers.free().await.expect("a second reader");
        assert!(readers.free().await.is_none(), "a third reader");
        drop((first, second));
        assert_eq!(opened(&readers), READERS);
        readers.close().await;
        assert_eq!(opened(&readers), 0);
    }
}
