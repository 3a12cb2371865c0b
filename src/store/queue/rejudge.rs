//! Rejudging: a judged submission back in the queue, its result moved
//! into the history.

use crate::store::db::{on_db, sql, AsTx, Dialect};
use crate::store::record::{self, TryChange};
use crate::store::{Error, Store};

/// How a rejudged result's tests are kept in the history: a JSON array,
/// built by each database's own JSON functions.
const HISTORY_TESTS: [&str; 2] = [
    "(SELECT json_group_array(json(t)) FROM
         (SELECT json_object('name', name, 'group', test_group,
                  'verdict', verdict, 'time_ms', time_ms, 'wall_ms', wall_ms,
                  'memory_kib', memory_kib, 'exit_code', exit_code,
                  'signal', signal, 'message', message) AS t
          FROM test_results WHERE submission_id = s.id ORDER BY position))",
    "(SELECT COALESCE(json_agg(json_build_object('name', name, 'group', test_group,
                  'verdict', verdict, 'time_ms', time_ms, 'wall_ms', wall_ms,
                  'memory_kib', memory_kib, 'exit_code', exit_code,
                  'signal', signal, 'message', message) ORDER BY position), '[]')::text
      FROM test_results WHERE submission_id = s.id)",
];

/// What a rejudge did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rejudged {
    /// Submissions sent back to the queue.
    pub queued: u64,
    /// Judged submissions left as they were: their contest's results are
    /// final.
    pub final_kept: u64,
}

/// The rows a rejudge takes: judged, of submission `?1` or problem `?2`,
/// not in a contest whose results are final.
const REJUDGED: &str = "s.status = 'done' AND (s.id = ?1 OR s.problem = ?2)
     AND NOT EXISTS (SELECT 1 FROM contests c
                     WHERE c.id = s.contest_id AND c.finalized_ms IS NOT NULL)";

impl Store {
    /// Rejudges one submission (by id) or a problem's (by slug): the
    /// current results move to the history, the rows go back in the queue
    /// behind live submissions with a fresh count of tries. A try in a
    /// contest whose results are final is never rejudged: one by id is
    /// refused, a problem's are counted in [`Rejudged::final_kept`].
    ///
    /// The contests concerned are locked first, in the order of their
    /// ids, as every writer of several contests locks them.
    ///
    /// # Errors
    /// [`Error::Refused`] for one submission in a final contest; database
    /// failures.
    pub(super) async fn rejudge_where(
        &self,
        id: Option<i64>,
        problem: Option<&str>,
    ) -> Result<Rejudged, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // A write first, that changes nothing: a SQLite transaction
            // that began by reading and then writes fails at once when
            // another writer holds the database (a refused rejudge's
            // rollback not yet done), where one that begins writing waits
            // its turn.
            sqlx::query("UPDATE contests SET event_seq = event_seq WHERE 0 = 1")
                .execute(&mut *tx)
                .await?;
            let contests = sqlx::query_as::<_, (i64, i64)>(&sql(
                d,
                "SELECT contest_id, COUNT(*) FROM submissions
                 WHERE status = 'done' AND (id = ?1 OR problem = ?2) AND contest_id IS NOT NULL
                 GROUP BY contest_id ORDER BY contest_id",
            ))
            .bind(id)
            .bind(problem)
            .fetch_all(&mut *tx)
            .await?;
            let mut final_kept = 0;
            for (cid, n) in contests {
                let Some(c) = record::locked_contest(tx.as_tx(), cid).await? else {
                    continue;
                };
                if c.finalized_ms.is_some() {
                    if let Some(id) = id {
                        return Err(Error::Refused(
                            c.slug,
                            format!(
                                "its results are final: submission {id} cannot be rejudged, \
                                 which would change them"
                            ),
                        ));
                    }
                    final_kept += u64::try_from(n).unwrap_or_default();
                }
            }
            let tests = HISTORY_TESTS[usize::from(d == Dialect::Postgres)];
            let history = format!(
                "INSERT INTO submission_history (submission_id, verdict, score, time_ms,
                     memory_kib, compile_output, finished_at, tests)
                 SELECT s.id, s.verdict, s.score, s.time_ms, s.memory_kib, s.compile_output,
                        s.finished_at, {tests}
                 FROM submissions s
                 WHERE {REJUDGED}"
            );
            let history = sql(d, history);
            sqlx::query(&history)
                .bind(id)
                .bind(problem)
                .execute(&mut *tx)
                .await?;
            for table in ["test_results", "group_results"] {
                let text = format!(
                    "DELETE FROM {table} WHERE submission_id IN
                         (SELECT s.id FROM submissions s WHERE {REJUDGED})"
                );
                let text = sql(d, text);
                sqlx::query(&text)
                    .bind(id)
                    .bind(problem)
                    .execute(&mut *tx)
                    .await?;
            }
            let update = format!(
                "UPDATE submissions SET status = 'queued', priority = 1, tries = 0,
                     verdict = NULL, score = NULL, time_ms = NULL, memory_kib = NULL,
                     compile_output = '', finished_at = NULL, lease_until = NULL, error = NULL,
                     rerun_exclude = NULL, first_verdict = NULL, first_report = NULL,
                     rerun_until = NULL, first_stands = NULL
                 WHERE id IN (SELECT s.id FROM submissions s WHERE {REJUDGED})
                 RETURNING id"
            );
            let update = sql(d, update);
            let mut reset = sqlx::query_scalar::<_, i64>(&update)
            .bind(id)
            .bind(problem)
            .fetch_all(&mut *tx)
            .await?;
            // In their contests' records (locked above).
            reset.sort_unstable();
            let mut moved = std::collections::BTreeSet::new();
            for s in &reset {
                moved.extend(record::record_try(tx.as_tx(), *s, TryChange::Reset).await?);
            }
            // The awards the tries sent back take, once per contest.
            for cid in moved {
                record::record_awards(tx.as_tx(), cid, None).await?;
            }
            tx.commit().await?;
            Rejudged {
                queued: reset.len() as u64,
                final_kept,
            }
        }))
    }
}
