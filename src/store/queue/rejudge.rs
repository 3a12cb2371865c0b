//! Rejudging: a judged submission back in the queue, its result moved
//! into the history.

use crate::store::db::{numbered, on_db, sql, Dialect};
use crate::store::record::{record_try, TryChange};
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

impl Store {
    /// Rejudges one submission (by id) or a problem's (by slug): the
    /// current results move to the history, the rows go back in the queue
    /// behind live submissions with a fresh count of tries.
    pub(super) async fn rejudge_where(
        &self,
        id: Option<i64>,
        problem: Option<&str>,
    ) -> Result<u64, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let tests = HISTORY_TESTS[usize::from(d == Dialect::Postgres)];
            let history = format!(
                "INSERT INTO submission_history (submission_id, verdict, score, time_ms,
                     memory_kib, compile_output, finished_at, tests)
                 SELECT s.id, s.verdict, s.score, s.time_ms, s.memory_kib, s.compile_output,
                        s.finished_at, {tests}
                 FROM submissions s
                 WHERE s.status = 'done' AND (s.id = ?1 OR s.problem = ?2)"
            );
            let history = match d {
                Dialect::Sqlite => history,
                Dialect::Postgres => numbered(&history),
            };
            sqlx::query(&history)
                .bind(id)
                .bind(problem)
                .execute(&mut *tx)
                .await?;
            for table in [
                "DELETE FROM test_results WHERE submission_id IN
                     (SELECT id FROM submissions WHERE status = 'done'
                        AND (id = ?1 OR problem = ?2))",
                "DELETE FROM group_results WHERE submission_id IN
                     (SELECT id FROM submissions WHERE status = 'done'
                        AND (id = ?1 OR problem = ?2))",
            ] {
                sqlx::query(&sql(d, table))
                    .bind(id)
                    .bind(problem)
                    .execute(&mut *tx)
                    .await?;
            }
            let mut reset = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "UPDATE submissions SET status = 'queued', priority = 1, tries = 0,
                     verdict = NULL, score = NULL, time_ms = NULL, memory_kib = NULL,
                     compile_output = '', finished_at = NULL, lease_until = NULL, error = NULL,
                     rerun_exclude = NULL, first_verdict = NULL, first_report = NULL,
                     rerun_until = NULL, first_stands = NULL
                 WHERE status = 'done' AND (id = ?1 OR problem = ?2)
                 RETURNING id",
            ))
            .bind(id)
            .bind(problem)
            .fetch_all(&mut *tx)
            .await?;
            // In their contests' records; contests locked in one order by
            // every writer.
            reset.sort_unstable();
            for s in &reset {
                record_try!(tx, d, *s, TryChange::Reset);
            }
            tx.commit().await?;
            reset.len() as u64
        }))
    }
}
