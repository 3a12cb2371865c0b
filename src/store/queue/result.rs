//! Writing a submission's results: each test as it finishes, and the
//! result itself, which is one transaction whatever produced it (see
//! [`write_result!`]): a verdict with its timing record, a submission
//! given up on (`IE`), the first judging of a close call that stands. A
//! close call is put back in the queue for its re-run with its first
//! judging kept whole, so that the first judging can stand; a failed
//! attempt is retried, then given up on.
//!
//! The writes are macros over a transaction `$tx` of either database, so
//! that one text serves both and callers compose them in one transaction.

use std::time::Duration;

use super::{millis, Failed, Lease, MAX_TRIES};
use crate::judge::{Report, TestReport};
use crate::store::db::{on_db, sql};
use crate::store::timing::Timed;
use crate::store::{Error, Store};
use crate::verdict::Verdict;

/// A result as [`write_result!`] writes it.
pub(in crate::store) struct Written<'a> {
    pub report: &'a Report,
    /// Who judged it and how its limit was scaled; `None` when unscaled
    /// (a local `grundy submit`) or not judged at all (given up on).
    pub timed: Option<Timed<'a>>,
    /// Why a close call's first judging stands instead of a re-run's.
    pub first_stands: Option<&'a str>,
    /// Why the judge failed (an `IE`), for admins.
    pub error: Option<&'a str>,
}

impl<'a> Written<'a> {
    /// A judging's result.
    pub fn judged(report: &'a Report, timed: Option<Timed<'a>>) -> Written<'a> {
        Written {
            report,
            timed,
            first_stands: None,
            error: None,
        }
    }

    /// A submission given up on (`report` an `IE`), and why.
    pub fn failed(report: &'a Report, why: &'a str) -> Written<'a> {
        Written {
            report,
            timed: None,
            first_stands: None,
            error: Some(why),
        }
    }
}

/// Writes a result within transaction `$tx`: the row's verdict and timing
/// record, then its tests and groups; evaluates to whether it was written.
/// With `$kept` (an `Option<&Standings>`), the awards it moves are
/// computed from the contest's standing kept there, and it evaluates to
/// whether it was written and that standing now (with its contest), for
/// the caller to keep once the transaction commits.
/// `$attempt` fences the write: `Some(n)` writes only while attempt `n` is
/// the submission's current one and it is `judging` (a worker's lease);
/// `None` writes whatever holds it (the caller picked the row in this
/// transaction). A re-run's result, or a first judging that stands, keeps
/// the first judging (`first_*`) beside it; a first judging's result
/// forgets any earlier round's.
///
/// Every result of a submission is written here, so whatever else belongs
/// to a result goes here too, in the same transaction.
macro_rules! write_result {
    ($tx:ident, $d:ident, $id:expr, $attempt:expr, $written:expr) => {
        $crate::store::queue::result::write_result!($tx, $d, $id, $attempt, $written, None).0
    };
    ($tx:ident, $d:ident, $id:expr, $attempt:expr, $written:expr, $kept:expr) => {{
        let kept: Option<&$crate::store::record::Standings> = $kept;
        let mut standing = None;
        let id: i64 = $id;
        let attempt: Option<i64> = $attempt;
        let w: &$crate::store::queue::result::Written<'_> = $written;
        let r = w.report;
        let done = sqlx::query(&$crate::store::db::sql(
            $d,
            "UPDATE submissions SET status = 'done', verdict = ?1, score = ?2, time_ms = ?3,
                 memory_kib = ?4, compile_output = ?5, lease_until = NULL, error = ?6,
                 finished_at = {now_text}, judged_by = ?7, speed_factor = ?8,
                 time_limit_ms = ?9, first_stands = ?10,
                 first_verdict = CASE WHEN rerun_exclude IS NOT NULL THEN first_verdict END,
                 first_time_ms = CASE WHEN rerun_exclude IS NOT NULL THEN first_time_ms END,
                 first_judged_by = CASE WHEN rerun_exclude IS NOT NULL THEN first_judged_by END,
                 first_speed_factor =
                     CASE WHEN rerun_exclude IS NOT NULL THEN first_speed_factor END,
                 first_time_limit_ms =
                     CASE WHEN rerun_exclude IS NOT NULL THEN first_time_limit_ms END,
                 first_report = CASE WHEN rerun_exclude IS NOT NULL THEN first_report END,
                 rerun_exclude = NULL, rerun_until = NULL
             WHERE id = ?11 AND (?12 IS NULL OR (attempt = ?12 AND status = 'judging'))",
            // (The `{held}` fence when written under a lease, `?12` its
            // attempt; none for a result written without one.)
        ))
        .bind(r.verdict.as_str())
        .bind(i64::from(r.score))
        .bind(i64::try_from(r.time_ms).unwrap_or(i64::MAX))
        .bind(i64::try_from(r.memory_kib).unwrap_or(i64::MAX))
        .bind(&r.compile_output)
        .bind(w.error)
        .bind(w.timed.map(|t| t.worker))
        .bind(w.timed.map(|t| t.factor))
        .bind(
            w.timed
                .map(|t| i64::try_from(t.limit_ms).unwrap_or(i64::MAX)),
        )
        .bind(w.first_stands)
        .bind(id)
        .bind(attempt)
        .execute(&mut *$tx)
        .await?;
        let written = done.rows_affected() == 1;
        if written {
            $crate::store::queue::result::clear_tests!($tx, $d, id);
            for (position, t) in r.tests.iter().enumerate() {
                $crate::store::queue::result::insert_test!($tx, $d, id, position, t);
            }
            for (position, g) in r.groups.iter().enumerate() {
                $crate::store::queue::result::insert_group!($tx, $d, id, position, g);
            }
            // In its contest's record, in the same transaction, with the
            // awards it moved.
            let moved = crate::store::record::record_try(
                $crate::store::db::AsTx::as_tx(&mut *$tx),
                id,
                $crate::store::record::TryChange::Judged,
            )
            .await?;
            if let Some(cid) = moved {
                let now = crate::store::record::record_awards(
                    $crate::store::db::AsTx::as_tx(&mut *$tx),
                    cid,
                    kept,
                )
                .await?;
                standing = now.map(|s| (cid, s));
            }
        }
        (written, standing)
    }};
}
pub(in crate::store) use write_result;

/// Within transaction `$tx`, lets the first judging of close call `$id`
/// stand, recorded with the reason `$why` (its re-run did not happen);
/// evaluates to false, writing nothing, when the first judging was not
/// kept whole (a row deferred before it was).
macro_rules! first_stands {
    ($tx:ident, $d:ident, $id:expr, $why:expr) => {{
        let id: i64 = $id;
        let why: &str = $why;
        let (first, judged_by, factor, limit_ms) = sqlx::query_as::<
            _,
            (Option<String>, Option<String>, Option<f64>, Option<i64>),
        >(&$crate::store::db::sql(
            $d,
            "SELECT first_report, first_judged_by, first_speed_factor, first_time_limit_ms
             FROM submissions WHERE id = ?",
        ))
        .bind(id)
        .fetch_one(&mut *$tx)
        .await?;
        let first = first
            .as_deref()
            .and_then(|json| serde_json::from_str::<$crate::judge::Report>(json).ok());
        match first {
            Some(report) => {
                let timed = judged_by
                    .as_deref()
                    .map(|worker| $crate::store::timing::Timed {
                        worker,
                        factor: factor.unwrap_or(1.0),
                        limit_ms: limit_ms.and_then(|l| u64::try_from(l).ok()).unwrap_or(0),
                    });
                let written = $crate::store::queue::result::Written {
                    report: &report,
                    timed,
                    first_stands: Some(why),
                    error: None,
                };
                $crate::store::queue::result::write_result!($tx, $d, id, None, &written)
            }
            None => false,
        }
    }};
}
pub(in crate::store) use first_stands;

impl Store {
    /// [`Queue::record_test`](super::Queue::record_test).
    pub(super) async fn write_test(
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
                               WHERE {held})
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

    /// [`Queue::finish`](super::Queue::finish): the result and its timing
    /// record in one transaction, so a crash leaves both or neither (never
    /// a re-run's verdict without the first judging it replaced).
    pub(super) async fn finish_judged(
        &self,
        lease: Lease,
        report: &Report,
        timed: Option<Timed<'_>>,
    ) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // The awards from the contest's standing kept from its last
            // judgement, kept again once this one is committed.
            let (written, standing) = write_result!(
                tx,
                d,
                lease.id,
                Some(lease.attempt),
                &Written::judged(report, timed),
                Some(&*self.standings)
            );
            if written {
                tx.commit().await?;
                if let Some((contest, standing)) = standing {
                    self.standings.keep(contest, standing);
                }
            }
            // Otherwise dropping the transaction rolls it back; nothing
            // was written.
            written
        }))
    }

    /// [`Queue::defer_rerun`](super::Queue::defer_rerun).
    pub(super) async fn defer_close_call(
        &self,
        lease: Lease,
        timed: Timed<'_>,
        report: &Report,
        wait: Duration,
    ) -> Result<bool, Error> {
        // A report always serializes.
        let first = serde_json::to_string(report).unwrap_or_default();
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // The try is given back: a re-run is the judge's choice, not a
            // failure, and must not bring the submission nearer to IE.
            let done = sqlx::query(&sql(
                d,
                "UPDATE submissions SET status = 'queued', lease_until = NULL,
                     tries = CASE WHEN tries > 0 THEN tries - 1 ELSE 0 END, rerun_exclude = ?,
                     first_verdict = ?, first_time_ms = ?, first_judged_by = ?,
                     first_speed_factor = ?, first_time_limit_ms = ?, first_report = ?,
                     rerun_until = {now_ms} + ?, first_stands = NULL,
                     judged_by = NULL, speed_factor = NULL, time_limit_ms = NULL
                 WHERE {held}",
            ))
            .bind(timed.worker)
            .bind(report.verdict.as_str())
            .bind(i64::try_from(report.time_ms).unwrap_or(i64::MAX))
            .bind(timed.worker)
            .bind(timed.factor)
            .bind(i64::try_from(timed.limit_ms).unwrap_or(i64::MAX))
            .bind(&first)
            .bind(millis(wait))
            .bind(lease.id)
            .bind(lease.attempt)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if done == 1 {
                clear_tests!(tx, d, lease.id);
                tx.commit().await?;
            }
            done == 1
        }))
    }

    /// [`Queue::fail`](super::Queue::fail).
    pub(super) async fn fail_attempt(
        &self,
        lease: Lease,
        reason: &str,
        retry_after: Duration,
    ) -> Result<Failed, Error> {
        let rerun_failed = format!("the re-run failed on every try: {reason}");
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let held = sqlx::query_as::<_, (i64, bool)>(&sql(
                d,
                "UPDATE submissions SET error = ?
                 WHERE {held}
                 RETURNING tries, rerun_exclude IS NOT NULL",
            ))
            .bind(reason)
            .bind(lease.id)
            .bind(lease.attempt)
            .fetch_optional(&mut *tx)
            .await?;
            let failed = match held {
                None => Failed::LeaseLost,
                Some((tries, _)) if tries < MAX_TRIES => {
                    sqlx::query(&sql(
                        d,
                        "UPDATE submissions SET status = 'queued', lease_until = {now_ms} + ?
                         WHERE id = ?",
                    ))
                    .bind(millis(retry_after))
                    .bind(lease.id)
                    .execute(&mut *tx)
                    .await?;
                    clear_tests!(tx, d, lease.id);
                    Failed::Requeued
                }
                Some((_, rerun)) => {
                    if rerun && first_stands!(tx, d, lease.id, &rerun_failed) {
                        Failed::FirstStands
                    } else {
                        let ie = Report::failed(Verdict::IE, String::new());
                        write_result!(tx, d, lease.id, None, &Written::failed(&ie, reason));
                        Failed::GaveUp
                    }
                }
            };
            if failed != Failed::LeaseLost {
                tx.commit().await?;
            }
            failed
        }))
    }
}

/// Removes a submission's test and group results within transaction `$tx`
/// (a new attempt writes its own).
macro_rules! clear_tests {
    ($tx:ident, $d:ident, $id:expr) => {
        for table in [
            "DELETE FROM test_results WHERE submission_id = ?",
            "DELETE FROM group_results WHERE submission_id = ?",
        ] {
            sqlx::query(&$crate::store::db::sql($d, table))
                .bind($id)
                .execute(&mut *$tx)
                .await?;
        }
    };
}
pub(in crate::store) use clear_tests;

/// A test's transcript as stored (JSON), if it has one.
pub(in crate::store) fn transcript_json(t: &TestReport) -> Option<String> {
    t.transcript
        .as_ref()
        .and_then(|tr| serde_json::to_string(tr).ok())
}

/// Inserts group result `$g` (a [`GroupReport`](crate::judge::GroupReport)) within transaction `$tx`.
macro_rules! insert_group {
    ($tx:ident, $d:ident, $id:expr, $position:expr, $g:expr) => {{
        let g: &$crate::judge::GroupReport = $g;
        // A list of strings always serializes.
        let tests = serde_json::to_string(&g.tests).unwrap_or_else(|_| "[]".into());
        sqlx::query(&$crate::store::db::sql(
            $d,
            "INSERT INTO group_results (submission_id, position, name, points, score, verdict,
                 skipped, tests)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ))
        .bind($id)
        .bind($position as i64)
        .bind(g.name.as_str())
        .bind(i64::from(g.points))
        .bind(i64::from(g.score))
        .bind(g.verdict.map(|v| v.as_str()))
        .bind(g.skipped)
        .bind(tests)
        .execute(&mut *$tx)
        .await?;
    }};
}
pub(in crate::store) use insert_group;

/// Inserts test result `$t` (a [`TestReport`]) within transaction `$tx`.
macro_rules! insert_test {
    ($tx:ident, $d:ident, $id:expr, $position:expr, $t:expr) => {{
        let t: &$crate::judge::TestReport = $t;
        sqlx::query(&$crate::store::db::sql(
            $d,
            "INSERT INTO test_results (submission_id, position, name, test_group, verdict,
                 time_ms, wall_ms, memory_kib, exit_code, signal, message, score, transcript)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        ))
        .bind($id)
        .bind($position as i64)
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
        .bind($crate::store::queue::result::transcript_json(t))
        .execute(&mut *$tx)
        .await?;
    }};
}
pub(in crate::store) use insert_test;
