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
//! [`Queue`] is the interface; [`Store`] (SQLite) is its first
//! implementation. Every SQLite transaction here begins with a write, so it
//! takes the write lock at once and waits for it under the busy timeout (a
//! deferred transaction that reads first cannot upgrade under contention
//! and fails with "database is locked").

use std::future::Future;
use std::time::Duration;

use super::{Error, NewSubmission, Store, Submission};
use crate::judge::{GroupReport, Report, TestReport};

/// Claims a submission may make before it ends `IE`.
pub const MAX_TRIES: i64 = 3;

/// The database's clock in Unix milliseconds (one value per statement).
macro_rules! now_ms {
    () => {
        "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"
    };
}

/// The timestamp format of the `*_at` columns.
macro_rules! now_text {
    () => {
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
    };
}

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

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 2)
}

impl Queue for Store {
    async fn enqueue(&self, new: NewSubmission<'_>) -> Result<i64, Error> {
        self.insert_submission(new).await
    }

    async fn claim_next(&self, lease: Duration) -> Result<Option<Claim>, Error> {
        let mut tx = self.pool.begin().await?;
        // A submission whose last try was abandoned ends IE here, before
        // it could be claimed a fourth time.
        let abandoned = sqlx::query_scalar::<_, i64>(concat!(
            "UPDATE submissions SET status = 'done', verdict = 'IE', score = 0, time_ms = 0,
                 memory_kib = 0, lease_until = NULL, finished_at = ",
            now_text!(),
            ", error = 'judging was abandoned on every try (lease expired)'
             WHERE status = 'judging' AND COALESCE(lease_until, 0) <= ",
            now_ms!(),
            " AND tries >= ? RETURNING id"
        ))
        .bind(MAX_TRIES)
        .fetch_all(&mut *tx)
        .await?;
        for id in abandoned {
            clear_tests(&mut tx, id).await?;
        }
        let claimed = sqlx::query_as::<_, (i64, i64)>(concat!(
            "UPDATE submissions SET status = 'judging', attempt = attempt + 1, tries = tries + 1,
                 lease_until = ",
            now_ms!(),
            " + ?, claimed_at = ",
            now_text!(),
            " WHERE id = (SELECT id FROM submissions
                          WHERE ((status = 'queued' AND COALESCE(lease_until, 0) <= ",
            now_ms!(),
            ") OR (status = 'judging' AND COALESCE(lease_until, 0) <= ",
            now_ms!(),
            ")) AND rerun_exclude IS NULL ORDER BY priority, id LIMIT 1)
             RETURNING id, attempt"
        ))
        .bind(millis(lease))
        .fetch_optional(&mut *tx)
        .await?;
        let Some((id, attempt)) = claimed else {
            tx.commit().await?;
            return Ok(None);
        };
        // A previous attempt's partial results go; this attempt writes its own.
        clear_tests(&mut tx, id).await?;
        tx.commit().await?;
        let submission = self.get(id).await?.ok_or(Error::Vanished(id))?;
        Ok(Some(Claim {
            lease: Lease { id, attempt },
            submission,
        }))
    }

    async fn claim(&self, id: i64, lease: Duration) -> Result<Option<Lease>, Error> {
        let attempt = sqlx::query_scalar::<_, i64>(concat!(
            "UPDATE submissions SET status = 'judging', attempt = attempt + 1, tries = tries + 1,
                 lease_until = ",
            now_ms!(),
            " + ?, claimed_at = ",
            now_text!(),
            " WHERE id = ? AND status = 'queued' RETURNING attempt"
        ))
        .bind(millis(lease))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(attempt.map(|attempt| Lease { id, attempt }))
    }

    async fn renew(&self, lease: Lease, by: Duration) -> Result<bool, Error> {
        let done = sqlx::query(concat!(
            "UPDATE submissions SET lease_until = ",
            now_ms!(),
            " + ? WHERE id = ? AND attempt = ? AND status = 'judging'"
        ))
        .bind(millis(by))
        .bind(lease.id)
        .bind(lease.attempt)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn record_test(
        &self,
        lease: Lease,
        position: usize,
        t: &TestReport,
    ) -> Result<bool, Error> {
        let done = sqlx::query(
            "INSERT OR REPLACE INTO test_results (submission_id, position, name, test_group,
                 verdict, time_ms, wall_ms, memory_kib, exit_code, signal, message, score,
                 transcript)
             SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
             WHERE EXISTS (SELECT 1 FROM submissions
                           WHERE id = ? AND attempt = ? AND status = 'judging')",
        )
        .bind(lease.id)
        .bind(position as i64)
        .bind(&t.name)
        .bind(t.group.as_str())
        .bind(t.verdict.as_str())
        .bind(t.time_ms as i64)
        .bind(t.wall_ms as i64)
        .bind(t.memory_kib as i64)
        .bind(t.exit_code)
        .bind(t.signal)
        .bind(&t.message)
        .bind(t.score)
        .bind(transcript_json(t))
        .bind(lease.id)
        .bind(lease.attempt)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    async fn finish(&self, lease: Lease, report: &Report) -> Result<bool, Error> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(concat!(
            "UPDATE submissions SET status = 'done', verdict = ?, score = ?, time_ms = ?,
                 memory_kib = ?, compile_output = ?, lease_until = NULL, error = NULL,
                 finished_at = ",
            now_text!(),
            " WHERE id = ? AND attempt = ? AND status = 'judging'"
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
        if done.rows_affected() != 1 {
            // Dropping the transaction rolls it back; nothing was written.
            return Ok(false);
        }
        clear_tests(&mut tx, lease.id).await?;
        for (position, t) in report.tests.iter().enumerate() {
            insert_test(&mut tx, lease.id, position, t).await?;
        }
        for (position, g) in report.groups.iter().enumerate() {
            insert_group(&mut tx, lease.id, position, g).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn fail(
        &self,
        lease: Lease,
        reason: &str,
        retry_after: Duration,
    ) -> Result<Failed, Error> {
        let mut tx = self.pool.begin().await?;
        let status = sqlx::query_scalar::<_, String>(concat!(
            "UPDATE submissions SET
                 status = CASE WHEN tries >= ?1 THEN 'done' ELSE 'queued' END,
                 verdict = CASE WHEN tries >= ?1 THEN 'IE' END,
                 score = CASE WHEN tries >= ?1 THEN 0 END,
                 time_ms = CASE WHEN tries >= ?1 THEN 0 END,
                 memory_kib = CASE WHEN tries >= ?1 THEN 0 END,
                 finished_at = CASE WHEN tries >= ?1 THEN ",
            now_text!(),
            " END,
                 lease_until = CASE WHEN tries >= ?1 THEN NULL ELSE ",
            now_ms!(),
            " + ?5 END,
                 error = ?2
             WHERE id = ?3 AND attempt = ?4 AND status = 'judging'
             RETURNING status"
        ))
        .bind(MAX_TRIES)
        .bind(reason)
        .bind(lease.id)
        .bind(lease.attempt)
        .bind(millis(retry_after))
        .fetch_optional(&mut *tx)
        .await?;
        let Some(status) = status else {
            return Ok(Failed::LeaseLost);
        };
        clear_tests(&mut tx, lease.id).await?;
        tx.commit().await?;
        Ok(if status == "done" {
            Failed::GaveUp
        } else {
            Failed::Requeued
        })
    }

    async fn release(&self, lease: Lease) -> Result<bool, Error> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE submissions SET status = 'queued', tries = MAX(tries - 1, 0),
                 lease_until = NULL
             WHERE id = ? AND attempt = ? AND status = 'judging'",
        )
        .bind(lease.id)
        .bind(lease.attempt)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        clear_tests(&mut tx, lease.id).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn requeue_expired(&self) -> Result<u64, Error> {
        let mut tx = self.pool.begin().await?;
        let ids = sqlx::query_scalar::<_, i64>(concat!(
            "UPDATE submissions SET status = 'queued', lease_until = NULL
             WHERE status = 'judging' AND COALESCE(lease_until, 0) <= ",
            now_ms!(),
            " AND tries < ? RETURNING id"
        ))
        .bind(MAX_TRIES)
        .fetch_all(&mut *tx)
        .await?;
        for id in &ids {
            clear_tests(&mut tx, *id).await?;
        }
        tx.commit().await?;
        Ok(ids.len() as u64)
    }

    async fn rejudge(&self, id: i64) -> Result<bool, Error> {
        Ok(self.rejudge_where(Some(id), None).await? == 1)
    }

    async fn rejudge_problem(&self, problem: &str) -> Result<u64, Error> {
        self.rejudge_where(None, Some(problem)).await
    }
}

impl Store {
    /// Rejudges one submission (by id) or a problem's (by slug): the
    /// current results move to the history, the rows go back in the queue
    /// behind live submissions with a fresh count of tries.
    async fn rejudge_where(&self, id: Option<i64>, problem: Option<&str>) -> Result<u64, Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO submission_history (submission_id, verdict, score, time_ms, memory_kib,
                 compile_output, finished_at, tests)
             SELECT s.id, s.verdict, s.score, s.time_ms, s.memory_kib, s.compile_output,
                    s.finished_at,
                    (SELECT json_group_array(json(t)) FROM
                        (SELECT json_object('name', name, 'group', test_group,
                                 'verdict', verdict, 'time_ms', time_ms, 'wall_ms', wall_ms,
                                 'memory_kib', memory_kib, 'exit_code', exit_code,
                                 'signal', signal, 'message', message) AS t
                         FROM test_results WHERE submission_id = s.id ORDER BY position))
             FROM submissions s
             WHERE s.status = 'done' AND (s.id = ?1 OR s.problem = ?2)",
        )
        .bind(id)
        .bind(problem)
        .execute(&mut *tx)
        .await?;
        for table in [
            "DELETE FROM test_results WHERE submission_id IN
                 (SELECT id FROM submissions WHERE status = 'done' AND (id = ?1 OR problem = ?2))",
            "DELETE FROM group_results WHERE submission_id IN
                 (SELECT id FROM submissions WHERE status = 'done' AND (id = ?1 OR problem = ?2))",
        ] {
            sqlx::query(table)
                .bind(id)
                .bind(problem)
                .execute(&mut *tx)
                .await?;
        }
        let done = sqlx::query(
            "UPDATE submissions SET status = 'queued', priority = 1, tries = 0, verdict = NULL,
                 score = NULL, time_ms = NULL, memory_kib = NULL, compile_output = '',
                 finished_at = NULL, lease_until = NULL, error = NULL, rerun_exclude = NULL,
                 first_verdict = NULL
             WHERE status = 'done' AND (id = ?1 OR problem = ?2)",
        )
        .bind(id)
        .bind(problem)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }
}

/// Removes a submission's test and group results (a new attempt writes
/// its own).
async fn clear_tests(tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>, id: i64) -> Result<(), Error> {
    sqlx::query("DELETE FROM test_results WHERE submission_id = ?")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM group_results WHERE submission_id = ?")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// A test's transcript as stored (JSON), if it has one.
fn transcript_json(t: &TestReport) -> Option<String> {
    t.transcript
        .as_ref()
        .and_then(|tr| serde_json::to_string(tr).ok())
}

async fn insert_group(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    id: i64,
    position: usize,
    g: &GroupReport,
) -> Result<(), Error> {
    // A list of strings always serializes.
    let tests = serde_json::to_string(&g.tests).unwrap_or_else(|_| "[]".into());
    sqlx::query(
        "INSERT INTO group_results (submission_id, position, name, points, score, verdict,
             skipped, tests)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(position as i64)
    .bind(g.name.as_str())
    .bind(i64::from(g.points))
    .bind(i64::from(g.score))
    .bind(g.verdict.map(|v| v.as_str()))
    .bind(g.skipped)
    .bind(tests)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

async fn insert_test(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    id: i64,
    position: usize,
    t: &TestReport,
) -> Result<(), Error> {
    sqlx::query(
        "INSERT INTO test_results (submission_id, position, name, test_group, verdict,
             time_ms, wall_ms, memory_kib, exit_code, signal, message, score, transcript)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(position as i64)
    .bind(&t.name)
    .bind(t.group.as_str())
    .bind(t.verdict.as_str())
    .bind(t.time_ms as i64)
    .bind(t.wall_ms as i64)
    .bind(t.memory_kib as i64)
    .bind(t.exit_code)
    .bind(t.signal)
    .bind(&t.message)
    .bind(t.score)
    .bind(transcript_json(t))
    .execute(&mut **tx)
    .await?;
    Ok(())
}
