//! The one claim, and the leases it hands out: renewed while a worker
//! judges, given back untouched, put back in the queue once expired.

use std::time::Duration;

use super::result::{clear_tests, first_stands, write_result, Written};
use super::{millis, Claim, ClaimAs, Lease, MAX_TRIES};
use crate::judge::Report;
use crate::store::db::{on_db, sql};
use crate::store::{Error, Store};
use crate::verdict::Verdict;

/// Why a submission abandoned on every try ends `IE`.
const ABANDONED: &str = "judging was abandoned on every try (lease expired)";

impl Store {
    /// [`Queue::claim`](super::Queue::claim).
    pub(super) async fn claim_for(
        &self,
        lease: Duration,
        by: &ClaimAs<'_>,
    ) -> Result<Option<Claim>, Error> {
        // The languages as a JSON array that a row's language is looked
        // up in by value (an id's `_` or `%` is itself); the refused
        // problems likewise.
        let languages = by
            .languages
            .map(|l| serde_json::Value::from(l.to_vec()).to_string());
        let refused = (!by.refused.is_empty())
            .then(|| serde_json::Value::from(by.refused.to_vec()).to_string());
        let claimed = on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // The claim comes first, so that a SQLite transaction begins
            // with a write; it passes over what is settled below. A re-run
            // is taken by a worker other than the one that judged it first
            // (`rerun_exclude`), or by that one when no other live worker
            // could run it.
            let claimed = sqlx::query_as::<_, (i64, i64, bool)>(&sql(
                d,
                "UPDATE submissions SET status = 'judging', attempt = attempt + 1,
                     tries = tries + 1, lease_until = {now_ms} + ?1, claimed_at = {now_text}
                 WHERE id = (SELECT s.id FROM submissions s
                     WHERE s.status IN ('queued', 'judging')
                       AND COALESCE(s.lease_until, 0) <= {now_ms} AND s.tries < ?2
                       AND (?3 IS NULL
                            OR s.language IN (SELECT value FROM {json_items}(CAST(?3 AS {json}))))
                       AND (?4 IS NULL
                            OR s.problem NOT IN
                               (SELECT value FROM {json_items}(CAST(?4 AS {json}))))
                       AND (?5 IS NULL OR (s.id = ?5 AND s.rerun_exclude IS NULL))
                       AND NOT EXISTS (SELECT 1 FROM preparing_problems p
                                       WHERE p.slug = s.problem AND p.until_ms > {now_ms})
                       AND (s.rerun_exclude IS NULL
                            OR (COALESCE(s.rerun_until, {now_ms} + 1) > {now_ms}
                                AND (s.rerun_exclude <> ?6 OR NOT EXISTS
                                     (SELECT 1 FROM workers w
                                      WHERE w.name <> ?6 AND w.seen_ms >= {now_ms} - ?7
                                        AND (w.languages = ''
                                             OR {position}({newline} || w.languages,
                                                           {newline} || s.language || ' ') > 0)
                                        AND NOT EXISTS
                                            (SELECT 1 FROM worker_refusals r
                                             WHERE r.worker = w.name
                                               AND r.problem = s.problem)))))
                     ORDER BY s.rerun_exclude IS NULL, s.priority, s.id LIMIT 1 {skip_locked})
                 RETURNING id, attempt, rerun_exclude IS NOT NULL",
            ))
            .bind(millis(lease))
            .bind(MAX_TRIES)
            .bind(languages.as_deref())
            .bind(refused.as_deref())
            .bind(by.only)
            .bind(by.worker)
            .bind(millis(by.alive))
            .fetch_optional(&mut *tx)
            .await?;
            if let Some((id, attempt, _)) = claimed {
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
            // What can no longer be claimed: abandoned on every try (its
            // lease expired on the last), or a re-run past its deadline
            // that no one holds.
            let due = sqlx::query_as::<_, (i64, bool, bool)>(&sql(
                d,
                "SELECT id, rerun_exclude IS NOT NULL, tries >= ?1 FROM submissions
                 WHERE status IN ('queued', 'judging') AND COALESCE(lease_until, 0) <= {now_ms}
                   AND ((status = 'judging' AND tries >= ?1)
                        OR (rerun_exclude IS NOT NULL AND rerun_until <= {now_ms}))
                 ORDER BY id {skip_locked}",
            ))
            .bind(MAX_TRIES)
            .fetch_all(&mut *tx)
            .await?;
            for (id, rerun, abandoned) in due {
                let why = match (rerun, abandoned) {
                    (true, true) => "the re-run was abandoned on every try (lease expired)",
                    (true, false) => "no worker that could re-run it took it in time",
                    (false, _) => ABANDONED,
                };
                let stood = rerun && first_stands!(tx, d, id, why);
                if !stood {
                    let ie = Report::failed(Verdict::IE, String::new());
                    write_result!(tx, d, id, None, &Written::failed(&ie, why));
                }
            }
            tx.commit().await?;
            claimed
        });
        let Some((id, attempt, rerun)) = claimed else {
            return Ok(None);
        };
        let submission = self.get(id).await?.ok_or(Error::Vanished(id))?;
        Ok(Some(Claim {
            lease: Lease { id, attempt },
            submission,
            rerun,
        }))
    }

    /// [`Queue::renew`](super::Queue::renew).
    pub(super) async fn renew_lease(&self, lease: Lease, by: Duration) -> Result<bool, Error> {
        let done = on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "UPDATE submissions SET lease_until = {now_ms} + ?
                 WHERE {held}",
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

    /// [`Queue::release`](super::Queue::release).
    pub(super) async fn release_lease(&self, lease: Lease) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&sql(
                d,
                "UPDATE submissions SET status = 'queued',
                     tries = CASE WHEN tries > 0 THEN tries - 1 ELSE 0 END, lease_until = NULL
                 WHERE {held}",
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

    /// [`Queue::requeue_expired`](super::Queue::requeue_expired).
    pub(super) async fn requeue_expired_leases(&self) -> Result<u64, Error> {
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
}
