//! Clarifications: questions to a contest's judges, their answers, and
//! announcements, on SQLite or PostgreSQL (see "One method, two
//! databases" in [`super`]). Times are Unix milliseconds.

use super::db::{on_db, sql, AsTx};
use super::record::{self, clarification_events};
use super::{Error, Store};
use crate::bounds::Field;
use crate::contest::clics;

/// A question to the judges, with its answer once given.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Clarification {
    pub id: i64,
    pub contest_id: i64,
    /// The asker (`None`: an announcement).
    pub user_id: Option<i64>,
    pub user: Option<String>,
    /// The problem's label, `None` for a general question.
    pub label: Option<String>,
    pub question: String,
    pub asked_ms: i64,
    pub answer: Option<String>,
    pub to_all: bool,
    pub answered_ms: Option<i64>,
}

impl Store {
    /// Stores a question (or, with no asker, an announcement); returns its
    /// id.
    ///
    /// # Errors
    /// Database failures.
    pub async fn ask(
        &self,
        contest: i64,
        user_id: Option<i64>,
        label: Option<&str>,
        question: &str,
        now_ms: i64,
    ) -> Result<i64, Error> {
        let asked = self
            .ask_within(contest, user_id, label, question, now_ms, 0)
            .await?;
        Ok(asked.unwrap_or_default())
    }

    /// [`Store::ask`], unless the asker asked `per_minute` questions in
    /// the minute before `now_ms` (0: no limit): then `None`. Counted under
    /// the contest's lock, so questions sent at once are counted too.
    ///
    /// # Errors
    /// [`Error::Refused`] for a team's question once the results are final,
    /// and for anything once the updates ended; [`Error::TooLong`] for a
    /// text over its bound; database failures.
    pub async fn ask_within(
        &self,
        contest: i64,
        user_id: Option<i64>,
        label: Option<&str>,
        question: &str,
        now_ms: i64,
        per_minute: u32,
    ) -> Result<Option<i64>, Error> {
        Field::Clarification.check(question)?;
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let c = record::locked_contest(tx.as_tx(), contest).await?;
            // A team's question after the finalize could not be answered
            // without undoing it; nothing at all follows the end of updates.
            if let Some(c) = &c {
                let closed = if c.end_of_updates_ms().is_some() {
                    Some("its results are final and revealed: nothing more is asked or announced")
                } else if user_id.is_some() && c.finalized_ms.is_some() {
                    Some("its results are final: questions are closed")
                } else {
                    None
                };
                if let Some(why) = closed {
                    return Err(Error::Refused(c.slug.clone(), why.into()));
                }
            }
            if let (Some(user), true) = (user_id, per_minute > 0) {
                let recent = sqlx::query_scalar::<_, i64>(&sql(
                    d,
                    "SELECT COUNT(*) FROM clarifications
                     WHERE contest_id = ? AND user_id = ? AND asked_ms > ?",
                ))
                .bind(contest)
                .bind(user)
                .bind(now_ms - 60_000)
                .fetch_one(&mut *tx)
                .await?;
                if recent >= i64::from(per_minute) {
                    tx.rollback().await?;
                    return Ok(None);
                }
            }
            let id = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "INSERT INTO clarifications (contest_id, user_id, label, question, asked_ms)
                 VALUES (?, ?, ?, ?, ?) RETURNING id",
            ))
            .bind(contest)
            .bind(user_id)
            .bind(label)
            .bind(question)
            .bind(now_ms)
            .fetch_one(&mut *tx)
            .await?;
            if let Some(c) = c {
                let team_id = record::team_id_of(tx.as_tx(), user_id).await?;
                let q = clics::Clarification {
                    id, team: user_id, team_id: team_id.as_deref(), label, question, asked_ms: now_ms,
                    answer: None, to_all: false, answered_ms: None,
                };
                record::append(tx.as_tx(), contest, &clarification_events(&c, &q, false)).await?;
            }
            tx.commit().await?;
            Some(id)
        }))
    }

    /// Answers question `id` of `contest`, to its asker or to all; `false`
    /// when there is no such question.
    ///
    /// # Errors
    /// [`Error::Refused`] once the contest's updates ended,
    /// [`Error::TooLong`] for a text over its bound; database failures.
    pub async fn answer(
        &self,
        contest: i64,
        id: i64,
        answer: &str,
        to_all: bool,
        by: i64,
        now_ms: i64,
    ) -> Result<bool, Error> {
        Field::Clarification.check(answer)?;
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let c = record::locked_contest(tx.as_tx(), contest).await?;
            if let Some(c) = c.as_ref().filter(|c| c.end_of_updates_ms().is_some()) {
                return Err(Error::Refused(
                    c.slug.clone(),
                    "its results are final and revealed: nothing more is answered".into(),
                ));
            }
            let asked = sqlx::query_as::<_, (Option<i64>, Option<String>, String, i64)>(&sql(
                d,
                "UPDATE clarifications SET answer = ?, to_all = ?, answered_by = ?, answered_ms = ?
                 WHERE id = ? AND contest_id = ?
                 RETURNING user_id, label, question, asked_ms",
            ))
            .bind(answer)
            .bind(to_all)
            .bind(by)
            .bind(now_ms)
            .bind(id)
            .bind(contest)
            .fetch_optional(&mut *tx)
            .await?;
            match (asked, c) {
                (Some((team, label, question, asked_ms)), Some(c)) => {
                    let team_id = record::team_id_of(tx.as_tx(), team).await?;
                    let q = clics::Clarification {
                        id, team, team_id: team_id.as_deref(), label: label.as_deref(), question: &question, asked_ms,
                        answer: Some(answer), to_all, answered_ms: Some(now_ms),
                    };
                    record::append(tx.as_tx(), contest, &clarification_events(&c, &q, true)).await?;
                    tx.commit().await?;
                    true
                }
                _ => false,
            }
        }))
    }

    /// The clarifications of `contest` that account `viewer` may read
    /// (`None`: all, for admins): their own questions, and announcements
    /// and answers to all.
    ///
    /// # Errors
    /// Database failures.
    pub async fn clarifications(
        &self,
        contest: i64,
        viewer: Option<i64>,
    ) -> Result<Vec<Clarification>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Clarification>(&sql(
                d,
                "SELECT c.id, c.contest_id, c.user_id, u.name AS user, c.label, c.question,
                        c.asked_ms, c.answer, c.to_all, c.answered_ms
                 FROM clarifications c LEFT JOIN users u ON u.id = c.user_id
                 WHERE c.contest_id = ?1
                   AND (?2 IS NULL OR c.user_id = ?2 OR c.user_id IS NULL
                        OR (c.to_all AND c.answer IS NOT NULL))
                 ORDER BY c.id",
            ))
            .bind(contest)
            .bind(viewer)
            .fetch_all(pool)
            .await?
        }))
    }
}
