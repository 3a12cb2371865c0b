//! Fair timing's records (issue 24): each worker's calibrated speed, the
//! speed factor and scaled limit stored with each result, and what became
//! of a verdict decided within the margin of its limit.
//!
//! A close call is not finished: [`Queue::defer_rerun`] keeps its first
//! judging (`first_*`) and puts it back in the queue with `rerun_exclude`
//! naming the worker that judged it. [`Queue::claim`], the one claim, gives
//! it to a worker that can run it other than that one while one lives,
//! else to that one itself. The re-run's result replaces it
//! ([`Queue::finish`], one transaction with the timing record), so a
//! submission is re-run at most once; if no such worker takes it in time,
//! or the re-run fails on every try, the first judging stands, recorded in
//! `first_stands` (see [`crate::store::queue`]).
//!
//! [`Queue::defer_rerun`]: super::Queue::defer_rerun
//! [`Queue::claim`]: super::Queue::claim
//! [`Queue::finish`]: super::Queue::finish

use std::future::Future;
use std::time::Duration;

use super::db::{millis, on_db, sql};
use super::{Error, Store};
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
    /// Present when the submission was a close call: its first judging.
    pub first: Option<FirstRun>,
    /// Waiting for its re-run (or being re-run) now.
    pub rerun_pending: bool,
    /// Why the stored result is the first judging's, when its re-run did
    /// not happen (no worker that could run it took it in time, or it
    /// failed on every try); `None` while it waits, and when the stored
    /// result is the re-run's.
    pub first_stands: Option<String>,
}

/// Fair timing's part of the queue, whatever the database.
pub trait FairTiming: Send + Sync {
    /// The calibrations of the workers heard from in the last `fresh`.
    fn live_speeds(
        &self,
        fresh: Duration,
    ) -> impl Future<Output = Result<Vec<WorkerSpeed>, Error>> + Send;
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
            first_stands: Option<String>,
        }
        let row = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Row>(&sql(
                d,
                "SELECT judged_by, speed_factor, time_limit_ms, rerun_exclude, first_verdict,
                     first_time_ms, first_judged_by, first_speed_factor, first_time_limit_ms,
                     first_stands
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
            first_stands: r.first_stands,
            first,
        }))
    }
}
