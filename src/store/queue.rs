//! The judging queue: the submissions table itself, so a crash loses
//! nothing. A worker claims a submission atomically and receives a
//! [`Lease`]: the submission's id, its attempt number (bumped by every
//! claim, never reset) and an expiry it renews while judging. Every write
//! a worker makes names its lease and is applied only while that lease is
//! the current attempt of a submission still `judging`, so a worker whose
//! lease expired (and whose submission another worker claimed again)
//! cannot overwrite the newer attempt's result: its writes affect no row,
//! and it is told so. A submission abandoned on its third try ends `IE`
//! with the reason, never loops.
//!
//! [`Queue`] is the interface; [`Store`] implements it on SQLite and on
//! PostgreSQL. Every SQLite transaction here begins with a write, so it
//! takes the write lock at once and waits for it under the busy timeout (a
//! deferred transaction that reads first cannot upgrade under contention
//! and fails with "database is locked"). On PostgreSQL many workers claim
//! at once: the row to claim is picked `FOR UPDATE SKIP LOCKED`, so each
//! takes a different one without waiting for the others.

use std::future::Future;
use std::time::Duration;

use super::db::{on_db, sql};
use super::record::{record_try, TryChange};
use super::results::{clear_tests, insert_group, insert_test, transcript_json};
use super::{Error, NewSubmission, Store, Submission};
use crate::judge::{Report, TestReport};

/// Claims a submission may make before it ends `IE`.
pub const MAX_TRIES: i64 = 3;

/// One claim of one submission: valid while `attempt` is the submission's
/// current attempt and its lease has not expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lease {
    pub id: i64,
    pub attempt: i64,
}

/// A claimed submission and the lease to name in every write about it.
#[derive(Debug, Clone)]
pub struct Claim {
    pub lease: Lease,
    pub submission: Submission,
}

/// Who claims, and what: a worker never claims a submission in a language
/// it cannot compile, nor of a problem whose package it refused.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClaimAs<'a> {
    /// The worker process (`host:pid`), recorded with each claim.
    pub worker: &'a str,
    /// The languages it has (all when `None`).
    pub languages: Option<&'a [String]>,
    /// The problems it refused.
    pub refused: &'a [String],
}

/// What became of a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failed {
    /// Back in the queue for another try.
    Requeued,
    /// That was the last try: the submission ended `IE` with the reason.
    GaveUp,
    /// The lease was no longer current; nothing was written.
    LeaseLost,
}

/// The judging queue, whatever the database.
pub trait Queue: Send + Sync {
    /// Stores a submission as `queued`; returns its id.
    fn enqueue(&self, new: NewSubmission<'_>) -> impl Future<Output = Result<i64, Error>> + Send;

    /// Claims the next submission (live ones before rejudges, oldest first),
    /// a `queued` one or one whose lease expired, for `lease`.
    fn claim_next(
        &self,
        lease: Duration,
    ) -> impl Future<Output = Result<Option<Claim>, Error>> + Send;

    /// [`Queue::claim_next`] for worker process `by` (recorded with the
    /// claim), among submissions it can judge.
    fn claim_next_as(
        &self,
        lease: Duration,
        by: &ClaimAs<'_>,
    ) -> impl Future<Output = Result<Option<Claim>, Error>> + Send;

    /// The published version of a problem, if any.
    fn published(
        &self,
        slug: &str,
    ) -> impl Future<Output = Result<Option<super::Published>, Error>> + Send;

    /// A published package's blob.
    fn package_blob(
        &self,
        hash: &str,
    ) -> impl Future<Output = Result<Option<Vec<u8>>, Error>> + Send;

    /// Records that `worker` refused version `hash` of `problem`.
    fn refuse_package(
        &self,
        worker: &str,
        problem: &str,
        hash: &str,
        reason: &str,
    ) -> impl Future<Output = Result<(), Error>> + Send;

    /// Claims one specific queued submission (a local `grundy submit`).
    fn claim(
        &self,
        id: i64,
        lease: Duration,
    ) -> impl Future<Output = Result<Option<Lease>, Error>> + Send;

    /// Extends a lease; false when it is no longer current.
    fn renew(&self, lease: Lease, by: Duration)
        -> impl Future<Output = Result<bool, Error>> + Send;

    /// Records one test's result as it finishes; false (nothing written)
    /// when the lease is no longer current.
    fn record_test(
        &self,
        lease: Lease,
        position: usize,
        test: &TestReport,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Records the verdict and the final test results at once; false
    /// (nothing written) when the lease is no longer current.
    fn finish(
        &self,
        lease: Lease,
        report: &Report,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// The judge itself failed on this attempt: requeue for another try,
    /// claimable again after `retry_after` (a sandbox that failed under
    /// load often works a moment later), or end `IE` with `reason` after
    /// the last.
    fn fail(
        &self,
        lease: Lease,
        reason: &str,
        retry_after: Duration,
    ) -> impl Future<Output = Result<Failed, Error>> + Send;

    /// Gives a claim back untouched (a worker shutting down); the try is
    /// not counted. False when the lease is no longer current.
    fn release(&self, lease: Lease) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Puts back in the queue every submission whose lease expired (at
    /// start; claims take such rows anyway). Live leases are left alone:
    /// they may be another worker's.
    fn requeue_expired(&self) -> impl Future<Output = Result<u64, Error>> + Send;

    /// Queues a judged submission again behind live ones, keeping its
    /// result in the history; false when it is not `done`.
    fn rejudge(&self, id: i64) -> impl Future<Output = Result<bool, Error>> + Send;

    /// [`Queue::rejudge`] for every judged submission of a problem; returns how many.
    fn rejudge_problem(&self, problem: &str) -> impl Future<Output = Result<u64, Error>> + Send;
}

/// A duration as the whole milliseconds the queue's SQL adds to `{now_ms}`.
pub(super) fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 2)
}

impl Store {
    /// The claim of a submission just taken as (id, attempt), with the
    /// submission read back; `None` when nothing was taken.
    pub(super) async fn claimed(
        &self,
        claimed: Option<(i64, i64)>,
    ) -> Result<Option<Claim>, Error> {
        let Some((id, attempt)) = claimed else {
            return Ok(None);
        };
        let submission = self.get(id).await?.ok_or(Error::Vanished(id))?;
        Ok(Some(Claim {
            lease: Lease { id, attempt },
            submission,
        }))
    }
}

impl Queue for Store {
    async fn enqueue(&self, new: NewSubmission<'_>) -> Result<i64, Error> {
        self.insert_submission(new).await
    }

    async fn claim_next(&self, lease: Duration) -> Result<Option<Claim>, Error> {
        self.claim_next_as(lease, &ClaimAs::default()).await
    }

    async fn published(&self, slug: &str) -> Result<Option<super::Published>, Error> {
        Store::published(self, slug).await
    }

    async fn package_blob(&self, hash: &str) -> Result<Option<Vec<u8>>, Error> {
        Store::package_blob(self, hash).await
    }

    async fn refuse_package(
        &self,
        worker: &str,
        problem: &str,
        hash: &str,
        reason: &str,
    ) -> Result<(), Error> {
        Store::refuse_package(self, worker, problem, hash, reason).await
    }

    async fn claim_next_as(
        &self,
        lease: Duration,
        by: &ClaimAs<'_>,
    ) -> Result<Option<Claim>, Error> {
        // The languages as one text, ",c,cpp,", that a row's language is
        // looked up in (the same SQL on both databases); the refused
        // problems likewise.
        let languages = by.languages.map(|l| format!(",{},", l.join(",")));
        let refused = (!by.refused.is_empty()).then(|| format!(",{},", by.refused.join(",")));
        let claimed = on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // A submission whose last try was abandoned ends IE here, before
            // it could be claimed a fourth time.
            let abandoned = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "UPDATE submissions SET status = 'done', verdict = 'IE', score = 0, time_ms = 0,
                     memory_kib = 0, lease_until = NULL, finished_at = {now_text},
                     error = 'judging was abandoned on every try (lease expired)'
                 WHERE id IN (SELECT id FROM submissions
                              WHERE status = 'judging' AND COALESCE(lease_until, 0) <= {now_ms}
                                AND tries >= ? {skip_locked})
                 RETURNING id",
            ))
            .bind(MAX_TRIES)
            .fetch_all(&mut *tx)
            .await?;
            for id in abandoned {
                clear_tests!(tx, d, id);
            }
            let claimed = sqlx::query_as::<_, (i64, i64)>(&sql(
                d,
                "UPDATE submissions SET status = 'judging', attempt = attempt + 1,
                     tries = tries + 1, lease_until = {now_ms} + ?1, claimed_at = {now_text}
                 WHERE id = (SELECT id FROM submissions
                             WHERE ((status = 'queued' AND COALESCE(lease_until, 0) <= {now_ms})
                                 OR (status = 'judging' AND COALESCE(lease_until, 0) <= {now_ms}))
                               AND rerun_exclude IS NULL
                               AND (?2 IS NULL OR ?2 LIKE '%,' || language || ',%')
                               AND (?3 IS NULL OR ?3 NOT LIKE '%,' || problem || ',%')
                             ORDER BY priority, id LIMIT 1 {skip_locked})
                 RETURNING id, attempt",
            ))
            .bind(millis(lease))
            .bind(languages.as_deref())
            .bind(refused.as_deref())
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((id, attempt)) = claimed {
                // A previous attempt's partial results go; this attempt
                // writes its own.
                clear_tests!(tx, d, id);
                sqlx::query(&sql(
                    d,
                    "INSERT INTO claims (submission_id, attempt, worker) VALUES (?, ?, ?)",
                ))
                .bind(id)
                .bind(attempt)
                .bind(by.worker)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            claimed
        });
        self.claimed(claimed).await
    }

    async fn claim(&self, id: i64, lease: Duration) -> Result<Option<Lease>, Error> {
        let attempt = on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
                d,
                "UPDATE submissions SET status = 'judging', attempt = attempt + 1,
                     tries = tries + 1, lease_until = {now_ms} + ?, claimed_at = {now_text}
                 WHERE id = ? AND status = 'queued' RETURNING attempt",
            ))
            .bind(millis(lease))
            .bind(id)
            .fetch_optional(pool)
            .await?
        });
        Ok(attempt.map(|attempt| Lease { id, attempt }))
    }

    async fn renew(&self, lease: Lease, by: Duration) -> Result<bool, Error> {
        let done = on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "UPDATE submissions SET lease_until = {now_ms} + ?
                 WHERE id = ? AND attempt = ? AND status = 'judging'",
            ))
            .bind(millis(by))
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(done == 1)
    }

    async fn record_test(
        &self,
        lease: Lease,
        position: usize,
        t: &TestReport,
    ) -> Result<bool, Error> {
        let done = on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "INSERT INTO test_results (submission_id, position, name, test_group,
                     verdict, time_ms, wall_ms, memory_kib, exit_code, signal, message, score,
                     transcript)
                 SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
                 WHERE EXISTS (SELECT 1 FROM submissions
                               WHERE id = ? AND attempt = ? AND status = 'judging')
                 ON CONFLICT (submission_id, position) DO UPDATE SET
                     name = excluded.name, test_group = excluded.test_group,
                     verdict = excluded.verdict, time_ms = excluded.time_ms,
                     wall_ms = excluded.wall_ms, memory_kib = excluded.memory_kib,
                     exit_code = excluded.exit_code, signal = excluded.signal,
                     message = excluded.message, score = excluded.score,
                     transcript = excluded.transcript",
            ))
            .bind(lease.id)
            .bind(position as i64)
            .bind(&t.name)
            .bind(t.group.as_str())
            .bind(t.verdict.as_str())
            .bind(t.time_ms as i64)
            .bind(t.wall_ms as i64)
            .bind(t.memory_kib as i64)
            .bind(t.exit_code.map(i64::from))
            .bind(t.signal.map(i64::from))
            .bind(&t.message)
            .bind(t.score)
            .bind(transcript_json(t))
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(done == 1)
    }

    async fn finish(&self, lease: Lease, report: &Report) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&sql(
                d,
                "UPDATE submissions SET status = 'done', verdict = ?, score = ?, time_ms = ?,
                     memory_kib = ?, compile_output = ?, lease_until = NULL, error = NULL,
                     finished_at = {now_text}
                 WHERE id = ? AND attempt = ? AND status = 'judging'",
            ))
            .bind(report.verdict.as_str())
            .bind(i64::from(report.score))
            .bind(report.time_ms as i64)
            .bind(report.memory_kib as i64)
            .bind(&report.compile_output)
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                clear_tests!(tx, d, lease.id);
                for (position, t) in report.tests.iter().enumerate() {
                    insert_test!(tx, d, lease.id, position, t);
                }
                for (position, g) in report.groups.iter().enumerate() {
                    insert_group!(tx, d, lease.id, position, g);
                }
                record_try!(tx, d, lease.id, TryChange::Judged);
                tx.commit().await?;
                true
            } else {
                // Dropping the transaction rolls it back; nothing was written.
                false
            }
        }))
    }

    async fn fail(
        &self,
        lease: Lease,
        reason: &str,
        retry_after: Duration,
    ) -> Result<Failed, Error> {
        let status = on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let status = sqlx::query_scalar::<_, String>(&sql(
                d,
                "UPDATE submissions SET
                     status = CASE WHEN tries >= ?1 THEN 'done' ELSE 'queued' END,
                     verdict = CASE WHEN tries >= ?1 THEN 'IE' END,
                     score = CASE WHEN tries >= ?1 THEN 0 END,
                     time_ms = CASE WHEN tries >= ?1 THEN 0 END,
                     memory_kib = CASE WHEN tries >= ?1 THEN 0 END,
                     finished_at = CASE WHEN tries >= ?1 THEN {now_text} END,
                     lease_until = CASE WHEN tries >= ?1 THEN NULL ELSE {now_ms} + ?5 END,
                     error = ?2
                 WHERE id = ?3 AND attempt = ?4 AND status = 'judging'
                 RETURNING status",
            ))
            .bind(MAX_TRIES)
            .bind(reason)
            .bind(lease.id)
            .bind(lease.attempt)
            .bind(millis(retry_after))
            .fetch_optional(&mut *tx)
            .await?;
            if status.is_some() {
                clear_tests!(tx, d, lease.id);
                if status.as_deref() == Some("done") {
                    record_try!(tx, d, lease.id, TryChange::Judged);
                }
                tx.commit().await?;
            }
            status
        });
        Ok(match status.as_deref() {
            None => Failed::LeaseLost,
            Some("done") => Failed::GaveUp,
            Some(_) => Failed::Requeued,
        })
    }

    async fn release(&self, lease: Lease) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&sql(
                d,
                "UPDATE submissions SET status = 'queued',
                     tries = CASE WHEN tries > 0 THEN tries - 1 ELSE 0 END, lease_until = NULL
                 WHERE id = ? AND attempt = ? AND status = 'judging'",
            ))
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                clear_tests!(tx, d, lease.id);
                tx.commit().await?;
                true
            } else {
                false
            }
        }))
    }

    async fn requeue_expired(&self) -> Result<u64, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let ids = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "UPDATE submissions SET status = 'queued', lease_until = NULL
                 WHERE id IN (SELECT id FROM submissions
                              WHERE status = 'judging' AND COALESCE(lease_until, 0) <= {now_ms}
                                AND tries < ? {skip_locked})
                 RETURNING id",
            ))
            .bind(MAX_TRIES)
            .fetch_all(&mut *tx)
            .await?;
            for id in &ids {
                clear_tests!(tx, d, *id);
            }
            tx.commit().await?;
            ids.len() as u64
        }))
    }

    async fn rejudge(&self, id: i64) -> Result<bool, Error> {
        Ok(self.rejudge_where(Some(id), None).await? == 1)
    }

    async fn rejudge_problem(&self, problem: &str) -> Result<u64, Error> {
        self.rejudge_where(None, Some(problem)).await
    }
}
