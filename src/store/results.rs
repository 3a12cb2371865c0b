//! Writing a submission's results beside the queue: clearing an attempt's
//! tests, inserting a verdict's tests and groups (macros, so one text
//! serves both databases inside a transaction), and rejudging, which moves
//! a result into the history.

use super::db::{on_db, sql};
use super::record::{record_try, TryChange};
use super::{Error, Store};
use crate::judge::TestReport;

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
            let tests = HISTORY_TESTS[usize::from(d == super::Dialect::Postgres)];
            let history = format!(
                "INSERT INTO submission_history (submission_id, verdict, score, time_ms,
                     memory_kib, compile_output, finished_at, tests)
                 SELECT s.id, s.verdict, s.score, s.time_ms, s.memory_kib, s.compile_output,
                        s.finished_at, {tests}
                 FROM submissions s
                 WHERE s.status = 'done' AND (s.id = ?1 OR s.problem = ?2)"
            );
            let history = match d {
                super::Dialect::Sqlite => history,
                super::Dialect::Postgres => super::db::numbered(&history),
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
            let reset = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "UPDATE submissions SET status = 'queued', priority = 1, tries = 0,
                     verdict = NULL, score = NULL, time_ms = NULL, memory_kib = NULL,
                     compile_output = '', finished_at = NULL, lease_until = NULL, error = NULL,
                     rerun_exclude = NULL, first_verdict = NULL
                 WHERE status = 'done' AND (id = ?1 OR problem = ?2)
                 RETURNING id",
            ))
            .bind(id)
            .bind(problem)
            .fetch_all(&mut *tx)
            .await?;
            let mut reset = reset;
            // Contests locked in one order by every writer.
            reset.sort_unstable();
            for s in &reset {
                record_try!(tx, d, *s, TryChange::Reset);
            }
            tx.commit().await?;
            reset.len() as u64
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
pub(super) use clear_tests;

/// A test's transcript as stored (JSON), if it has one.
pub(super) fn transcript_json(t: &TestReport) -> Option<String> {
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
pub(super) use insert_group;

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
        .bind($crate::store::results::transcript_json(t))
        .execute(&mut *$tx)
        .await?;
    }};
}
pub(super) use insert_test;
