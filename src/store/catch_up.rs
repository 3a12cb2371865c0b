//! Bringing a contest's record up to the database's clock: the moments it
//! reached (started, frozen, ended), written by the server's clock at
//! their time ([`crate::site::clock`]) or by whoever comes first (a try, a
//! reader), and the whole history of a contest made before records were
//! kept.

use serde_json::Value;

use super::db::{on_db, sql, AsTx};
use super::record::{
    self, clarification_events, problem_events, settings_events, Audience, NewEvent, TryChange,
};
use super::{Error, Store};
use crate::contest::clics;

impl Store {
    /// Brings contest `id`'s record up to the database's clock: the state
    /// it reached since its last state event (started, frozen, ended,
    /// final), and its problems for everyone once it started. A contest
    /// with no record yet (made before records were kept) gets its whole
    /// history first. Writes nothing when nothing changed; `true` when it
    /// appended.
    ///
    /// # Errors
    /// Database failures.
    pub async fn catch_up_contest(&self, id: i64) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            // A read first: most calls find nothing to do and take no lock.
            let (now, head, last) = sqlx::query_as::<_, (i64, i64, Option<String>)>(&sql(
                d,
                "SELECT {now_ms}, event_seq,
                        (SELECT data FROM contest_events
                         WHERE contest_id = ?1 AND kind = 'state' ORDER BY seq DESC LIMIT 1)
                 FROM contests WHERE id = ?1",
            ))
            .bind(id)
            .fetch_optional(pool)
            .await?
            .unwrap_or((0, -1, None));
            if head < 0 {
                return Ok(false);
            }
            let Some(c) = self.contest_by_id(id).await? else {
                return Ok(false);
            };
            if head > 0 && last.as_deref() == Some(&clics::state(&c, now).to_string()) {
                return Ok(false);
            }
            let mut tx = pool.begin().await?;
            let Some(c) = record::locked_contest(tx.as_tx(), id).await? else {
                return Ok(false);
            };
            let now = record::db_now(tx.as_tx()).await?;
            let (head, last) = sqlx::query_as::<_, (i64, Option<String>)>(&sql(
                d,
                "SELECT event_seq, (SELECT data FROM contest_events
                                    WHERE contest_id = ?1 AND kind = 'state'
                                    ORDER BY seq DESC LIMIT 1)
                 FROM contests WHERE id = ?1",
            ))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            let state = clics::state(&c, now);
            let mut events = Vec::new();
            if head == 0 {
                let teams = record::teams_in(tx.as_tx(), id, c.open_to_all).await?;
                events = settings_events(&c, record::roster_events(&teams), now);
                events.pop();
            } else if last.as_deref() == Some(&state.to_string()) {
                return Ok(false);
            } else {
                let was: Option<Value> = last.and_then(|t| serde_json::from_str(&t).ok());
                let started_before = was.as_ref().is_some_and(|w| !w["started"].is_null());
                if !started_before && !state["started"].is_null() {
                    events.extend(problem_events(&c, Audience::Others(None)));
                }
            }
            if head > 0 && c.end_of_updates_ms().is_none() {
                // The awards the moment brings (the first solves, named to
                // everyone once the contest started).
                events.extend(record::award_events_now(tx.as_tx(), &c, now, None).await?.0);
            }
            events.push(NewEvent::of("state", state, Audience::All));
            record::append(tx.as_tx(), id, &events).await?;
            if head == 0 {
                // The history before the record: every try as it stands.
                let ids = sqlx::query_scalar::<_, i64>(&sql(
                    d,
                    "SELECT id FROM submissions WHERE contest_id = ? AND withdrawn_reason IS NULL
                     ORDER BY id",
                ))
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
                for s in ids {
                    record::record_try(tx.as_tx(), s, TryChange::Made).await?;
                    record::record_try(tx.as_tx(), s, TryChange::Judged).await?;
                }
                record::record_awards(tx.as_tx(), id, None).await?;
                let qs = sqlx::query_as::<_, (i64, Option<i64>, Option<String>, String, i64, Option<String>, bool, Option<i64>, Option<String>)>(&sql(
                    d,
                    "SELECT q.id, q.user_id, label, question, asked_ms, answer, to_all, answered_ms,
                            {team_id}
                     FROM clarifications q LEFT JOIN users u ON u.id = q.user_id
                     WHERE q.contest_id = ? ORDER BY q.id",
                ))
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
                for (qid, team, label, question, asked_ms, answer, to_all, answered_ms, team_id) in &qs {
                    let q = clics::Clarification {
                        id: *qid, team: *team, team_id: team_id.as_deref(), label: label.as_deref(), question, asked_ms: *asked_ms,
                        answer: answer.as_deref(), to_all: *to_all, answered_ms: *answered_ms,
                    };
                    let mut events = clarification_events(&c, &q, false);
                    events.extend(clarification_events(&c, &q, true));
                    record::append(tx.as_tx(), id, &events).await?;
                }
            }
            tx.commit().await?;
            true
        }))
    }
}
