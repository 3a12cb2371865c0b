//! Submissions brought into a contest with their own times (a contest's
//! history replayed or imported), recorded in the contest's record as any
//! other try. On SQLite or PostgreSQL, as the rest of the store.

use super::db::{on_db, sql, AsTx};
use super::record::{self, stamp_of, TryChange};
use super::{Error, NewSubmission, Store};

impl Store {
    /// Stores a submission to contest `contest` made at `at_ms` (a contest's
    /// history brought in or replayed) as `queued`; returns its id.
    ///
    /// # Errors
    /// Database failures.
    pub async fn insert_contest_submission(
        &self,
        new: NewSubmission<'_>,
        contest: i64,
        at_ms: i64,
    ) -> Result<i64, Error> {
        let at = stamp_of(at_ms);
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let _ = record::locked_contest(tx.as_tx(), contest).await?;
            let id = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "INSERT INTO submissions (problem, language, source, user_id, contest_id,
                                          submitted_at)
                 VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
            ))
            .bind(new.problem)
            .bind(new.language)
            .bind(new.source)
            .bind(new.user_id)
            .bind(contest)
            .bind(at)
            .fetch_one(&mut *tx)
            .await?;
            record::record_try(tx.as_tx(), id, TryChange::Made).await?;
            tx.commit().await?;
            id
        }))
    }
}
