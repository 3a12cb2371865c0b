//! What a contest's board is read from changing: a version of its
//! submissions and participants read in one statement (so a cached board
//! is read again only when it changed), and submissions brought in with
//! their own times (a contest's history replayed or imported). On SQLite
//! or PostgreSQL, as the rest of the store.

use super::db::{on_db, sql};
use super::{Error, NewSubmission, Store};
use crate::contest::time::format_time;
use crate::contest::Contest;

/// What a contest's board and event feed depend on, as counts, sums and
/// latest changes: any submission stored, judged, re-queued or re-judged,
/// any participant or account added, disabled or made admin, and any
/// question asked or answered changes it. Participants and accounts are
/// summed by id, not counted, so one taken out and another put in within
/// one poll still change it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ContestVersion {
    submissions: i64,
    last_id: i64,
    done: i64,
    last_finished: String,
    participants: i64,
    accounts: i64,
    last_account: i64,
    questions: i64,
    answers: i64,
    last_answer: i64,
}

impl Store {
    /// The version of `contest`'s board inputs now.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_version(&self, contest: &Contest) -> Result<ContestVersion, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, ContestVersion>(&sql(
                d,
                "SELECT COUNT(*) AS submissions, COALESCE(MAX(id), 0) AS last_id,
                        COALESCE(SUM(CASE WHEN status = 'done' THEN 1 ELSE 0 END), 0) AS done,
                        COALESCE(MAX(finished_at), '') AS last_finished,
                        (SELECT CAST(COALESCE(SUM(user_id), 0) AS BIGINT)
                         FROM contest_participants WHERE contest_id = ?1) AS participants,
                        (SELECT CAST(COALESCE(SUM(id), 0) AS BIGINT) FROM users
                         WHERE NOT is_admin AND NOT disabled) AS accounts,
                        (SELECT COALESCE(MAX(id), 0) FROM users) AS last_account,
                        (SELECT COUNT(*) FROM clarifications WHERE contest_id = ?1)
                            AS questions,
                        (SELECT COUNT(answered_ms) FROM clarifications WHERE contest_id = ?1)
                            AS answers,
                        (SELECT COALESCE(MAX(answered_ms), 0) FROM clarifications
                         WHERE contest_id = ?1) AS last_answer
                 FROM submissions WHERE contest_id = ?1",
            ))
            .bind(contest.id)
            .fetch_one(pool)
            .await?
        }))
    }

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
        // The `*_at` columns' text: `2026-01-02T03:04:05.678Z`.
        let at = format!("{}Z", &format_time(at_ms)[..23]);
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
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
            .fetch_one(pool)
            .await?
        }))
    }
}
