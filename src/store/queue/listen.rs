//! Waking idle workers when there is work. On PostgreSQL a trigger
//! notifies channel `grundy_queue` whenever a submission becomes `queued`
//! (see `migrations/postgres/0002_*`), whichever process wrote it, and each
//! worker process LISTENs; SQLite has no such thing, and workers there
//! look at the queue on a short interval instead.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::Notify;

use crate::store::db::Db;
use crate::store::{Error, Store};

/// The channel the queue's trigger notifies.
pub const QUEUE_CHANNEL: &str = "grundy_queue";

impl Store {
    /// Whether this database tells waiting workers about new work.
    pub fn notifies(&self) -> bool {
        matches!(self.db, Db::Postgres(_))
    }

    /// On PostgreSQL, a task that wakes every waiter on `wake` each time
    /// the queue gets work, for as long as the process runs (a lost
    /// connection is opened again; waiters are woken then too, since a
    /// notification may have been missed meanwhile). `None` on SQLite.
    ///
    /// # Errors
    /// When the first LISTEN fails.
    pub async fn wake_on_work(
        &self,
        wake: Arc<Notify>,
    ) -> Result<Option<tokio::task::JoinHandle<()>>, Error> {
        let Db::Postgres(pool) = &self.db else {
            return Ok(None);
        };
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen(QUEUE_CHANNEL).await?;
        Ok(Some(tokio::spawn(async move {
            loop {
                match listener.try_recv().await {
                    Ok(Some(_)) => wake.notify_waiters(),
                    Ok(None) => {
                        // The connection was lost and is opened again on
                        // the next call: anything may have happened.
                        tracing::warn!("the queue's LISTEN connection was lost; reconnecting");
                        wake.notify_waiters();
                        tokio::time::sleep(Duration::from_millis(200)).await;
                    }
                    Err(e) => {
                        tracing::warn!(error = %crate::errors::chain(&e), "LISTEN failed; trying again");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
        })))
    }
}
