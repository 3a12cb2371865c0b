//! Fair timing's records (issue 24): each worker's calibrated speed, the
//! speed factor and scaled limit stored with each result, and the re-run
//! of a verdict decided within the margin of its limit.
//!
//! A close call is not finished: [`FairTiming::defer_rerun`] keeps its
//! first verdict and time in `first_*`, puts the submission back in the
//! queue with `rerun_exclude` naming the worker that judged it, and gives
//! the try back. Such a row is claimed only by [`FairTiming::claim_rerun`]
//! (the ordinary claim leaves it alone), by a worker other than the
//! excluded one while another is alive, else by the excluded one itself.
//! The re-run's result is finished as usual; [`FairTiming::record_timing`]
//! clears `rerun_exclude` first, so a submission is re-run at most once.

use std::future::Future;
use std::time::Duration;

use super::db::{on_db, sql};
use super::queue::millis;
use super::{Claim, Error, Lease, Store};
use crate::judge::Calibration;
use crate::verdict::Verdict;

/// One worker's calibration as recorded.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct WorkerSpeed {
    pub worker: String,
    /// CPU milliseconds of the median run.
    pub median_ms: i64,
    /// Every run's, as a JSON array.
    pub runs_ms: String,
    pub language: String,
    pub measured_at: String,
}

/// Who judged a result and how its limit was scaled.
#[derive(Debug, Clone, Copy)]
pub struct Timed<'a> {
    /// The worker process's name.
    pub worker: &'a str,
    pub factor: f64,
    /// The scaled CPU limit of its tests, milliseconds.
    pub limit_ms: u64,
}

/// The first judging of a submission that was re-run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FirstRun {
    pub verdict: Verdict,
    pub time_ms: i64,
    pub judged_by: Option<String>,
    pub speed_factor: Option<f64>,
    pub time_limit_ms: Option<i64>,
}

/// A submission's timing, for admins.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SubmissionTiming {
    /// The worker whose result is stored.
    pub judged_by: Option<String>,
    pub speed_factor: Option<f64>,
    /// The scaled CPU limit its tests ran under, milliseconds.
    pub time_limit_ms: Option<i64>,
    /// Present when the result is a re-run's: the first judging.
    pub first: Option<FirstRun>,
    /// Waiting for its re-run (or being re-run) now.
    pub rerun_pending: bool,
}

/// Fair timing's part of the queue, whatever the database.
pub trait FairTiming: Send + Sync {
    /// The calibrations of the workers heard from in the last `fresh`.
    fn live_speeds(
        &self,
        fresh: Duration,
    ) -> impl Future<Output = Result<Vec<WorkerSpeed>, Error>> + Send;

    /// Records who judged the current attempt and how its limit was
    /// scaled, just before it is finished; a first judging forgets any
    /// earlier round's `first_*`. False when the lease is not current.
    fn record_timing(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        rerun: bool,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Puts a close call back in the queue for its one re-run, keeping
    /// its first verdict and time; false (nothing written) when the lease
    /// is not current.
    fn defer_rerun(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        verdict: Verdict,
        time_ms: u64,
    ) -> impl Future<Output = Result<bool, Error>> + Send;

    /// Claims a submission waiting for its re-run: one another worker
    /// judged first, or one `worker` judged first when no other worker was
    /// heard from in the last `fresh`.
    fn claim_rerun(
        &self,
        worker: &str,
        lease: Duration,
        fresh: Duration,
    ) -> impl Future<Output = Result<Option<Claim>, Error>> + Send;
}

impl FairTiming for Store {
    async fn live_speeds(&self, fresh: Duration) -> Result<Vec<WorkerSpeed>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, WorkerSpeed>(&sql(
                d,
                "SELECT s.worker, s.median_ms, s.runs_ms, s.language, s.measured_at
                 FROM worker_speeds s JOIN workers w ON w.name = s.worker
                 WHERE w.seen_ms >= {now_ms} - ? ORDER BY s.median_ms, s.worker",
            ))
            .bind(millis(fresh))
            .fetch_all(pool)
            .await?
        }))
    }

    async fn record_timing(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        rerun: bool,
    ) -> Result<bool, Error> {
        let done = on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "UPDATE submissions SET judged_by = ?1, speed_factor = ?2, time_limit_ms = ?3,
                     rerun_exclude = NULL,
                     first_verdict = CASE WHEN ?4 THEN first_verdict END,
                     first_time_ms = CASE WHEN ?4 THEN first_time_ms END,
                     first_judged_by = CASE WHEN ?4 THEN first_judged_by END,
                     first_speed_factor = CASE WHEN ?4 THEN first_speed_factor END,
                     first_time_limit_ms = CASE WHEN ?4 THEN first_time_limit_ms END
                 WHERE id = ?5 AND attempt = ?6 AND status = 'judging'",
            ))
            .bind(timed.worker)
            .bind(timed.factor)
            .bind(i64::try_from(timed.limit_ms).unwrap_or(i64::MAX))
            .bind(rerun)
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(done == 1)
    }

    async fn defer_rerun(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        verdict: Verdict,
        time_ms: u64,
    ) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // The try is given back: a re-run is the judge's choice, not a
            // failure, and must not bring the submission nearer to IE.
            let done = sqlx::query(&sql(
                d,
                "UPDATE submissions SET status = 'queued', lease_until = NULL,
                     tries = CASE WHEN tries > 0 THEN tries - 1 ELSE 0 END, rerun_exclude = ?1,
                     first_verdict = ?2, first_time_ms = ?3, first_judged_by = ?1,
                     first_speed_factor = ?4, first_time_limit_ms = ?5,
                     judged_by = NULL, speed_factor = NULL, time_limit_ms = NULL
                 WHERE id = ?6 AND attempt = ?7 AND status = 'judging'",
            ))
            .bind(timed.worker)
            .bind(verdict.as_str())
            .bind(i64::try_from(time_ms).unwrap_or(i64::MAX))
            .bind(timed.factor)
            .bind(i64::try_from(timed.limit_ms).unwrap_or(i64::MAX))
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if done == 1 {
                for table in [
                    "DELETE FROM test_results WHERE submission_id = ?",
                    "DELETE FROM group_results WHERE submission_id = ?",
                ] {
                    sqlx::query(&sql(d, table))
                        .bind(lease.id)
                        .execute(&mut *tx)
                        .await?;
                }
                tx.commit().await?;
            }
            done == 1
        }))
    }

    async fn claim_rerun(
        &self,
        worker: &str,
        lease: Duration,
        fresh: Duration,
    ) -> Result<Option<Claim>, Error> {
        let claimed = on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let claimed = sqlx::query_as::<_, (i64, i64)>(&sql(
                d,
                "UPDATE submissions SET status = 'judging', attempt = attempt + 1,
                     tries = tries + 1, lease_until = {now_ms} + ?1, claimed_at = {now_text}
                 WHERE id = (SELECT id FROM submissions
                     WHERE rerun_exclude IS NOT NULL
                       AND status IN ('queued', 'judging') AND COALESCE(lease_until, 0) <= {now_ms}
                       AND tries < ?4
                       AND (rerun_exclude <> ?2 OR NOT EXISTS
                             (SELECT 1 FROM workers WHERE name <> ?2 AND seen_ms >= {now_ms} - ?3))
                     ORDER BY priority, id LIMIT 1 {skip_locked})
                 RETURNING id, attempt",
            ))
            .bind(millis(lease))
            .bind(worker)
            .bind(millis(fresh))
            .bind(super::MAX_TRIES)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((id, _)) = claimed {
                sqlx::query(&sql(d, "DELETE FROM test_results WHERE submission_id = ?"))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            claimed
        });
        self.claimed(claimed).await
    }
}

impl Store {
    /// Records a worker's calibration (replacing its earlier one), and
    /// forgets those of processes no longer reporting.
    ///
    /// # Errors
    /// Database failures.
    pub async fn record_calibration(&self, worker: &str, c: &Calibration) -> Result<(), Error> {
        let runs = serde_json::to_string(&c.runs_ms).unwrap_or_else(|_| "[]".into());
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            sqlx::query(&sql(
                d,
                "INSERT INTO worker_speeds (worker, median_ms, runs_ms, language)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (worker) DO UPDATE SET median_ms = ?2, runs_ms = ?3, language = ?4,
                     measured_at = {now_text}",
            ))
            .bind(worker)
            .bind(i64::try_from(c.median_ms.max(1)).unwrap_or(i64::MAX))
            .bind(&runs)
            .bind(&c.language)
            .execute(&mut *tx)
            .await?;
            sqlx::query(&sql(
                d,
                "DELETE FROM worker_speeds
                 WHERE worker <> ? AND worker NOT IN (SELECT name FROM workers)",
            ))
            .bind(worker)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Every recorded calibration, fastest first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn worker_speeds(&self) -> Result<Vec<WorkerSpeed>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, WorkerSpeed>(&sql(
                d,
                "SELECT worker, median_ms, runs_ms, language, measured_at
                 FROM worker_speeds ORDER BY median_ms, worker",
            ))
            .fetch_all(pool)
            .await?
        }))
    }

    /// A submission's timing (for admins); `None` when there is no such
    /// submission.
    ///
    /// # Errors
    /// Database failures; a stored first verdict that is not a verdict.
    pub async fn timing_of(&self, id: i64) -> Result<Option<SubmissionTiming>, Error> {
        #[derive(sqlx::FromRow)]
        struct Row {
            judged_by: Option<String>,
            speed_factor: Option<f64>,
            time_limit_ms: Option<i64>,
            rerun_exclude: Option<String>,
            first_verdict: Option<String>,
            first_time_ms: Option<i64>,
            first_judged_by: Option<String>,
            first_speed_factor: Option<f64>,
            first_time_limit_ms: Option<i64>,
        }
        let row = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Row>(&sql(
                d,
                "SELECT judged_by, speed_factor, time_limit_ms, rerun_exclude, first_verdict,
                     first_time_ms, first_judged_by, first_speed_factor, first_time_limit_ms
                 FROM submissions WHERE id = ?",
            ))
            .bind(id)
            .fetch_optional(pool)
            .await?
        });
        let Some(r) = row else {
            return Ok(None);
        };
        let first = match r.first_verdict {
            None => None,
            Some(v) => Some(FirstRun {
                verdict: v.parse().map_err(|_| Error::BadVerdict(id, v.clone()))?,
                time_ms: r.first_time_ms.unwrap_or(0),
                judged_by: r.first_judged_by,
                speed_factor: r.first_speed_factor,
                time_limit_ms: r.first_time_limit_ms,
            }),
        };
        Ok(Some(SubmissionTiming {
            judged_by: r.judged_by,
            speed_factor: r.speed_factor,
            time_limit_ms: r.time_limit_ms,
            rerun_pending: r.rerun_exclude.is_some(),
            first,
        }))
    }
}
