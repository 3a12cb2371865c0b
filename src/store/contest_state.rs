//! A contest's state as an admin moves it, in the order the Contest API
//! gives (started < frozen < ended < thawed, ended < finalized <
//! end_of_updates): the freeze while it runs, the reveal after the end
//! of a frozen contest, and the finalize once nothing blocks it. Each
//! change is written with its record events in one transaction; what the
//! state does not allow is [`Error::Refused`] with why.

use super::db::{on_db, sql, AsTx};
use super::record::{self, Audience, NewEvent};
use super::withdrawn::{unsettled_message, Unsettled, UNSETTLED};
use super::{Error, Store};
use crate::contest::clics;

impl Store {
    /// Freezes the scoreboard of contest `id` at `at_ms` (`None`: only the
    /// scheduled freeze), while it runs ([`crate::contest::Contest::may_freeze`]).
    ///
    /// # Errors
    /// [`Error::Refused`] outside the contest's run or after its results
    /// were revealed; database failures.
    pub async fn set_contest_frozen(&self, id: i64, at_ms: Option<i64>) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(before) = record::locked_contest(tx.as_tx(), id).await? else {
                return Ok(());
            };
            let now = record::db_now(tx.as_tx()).await?;
            if at_ms.is_some() {
                before.may_freeze(now).map_err(|why| Error::Refused(before.slug.clone(), why))?;
            }
            sqlx::query(&sql(d, "UPDATE contests SET frozen_ms = ? WHERE id = ?"))
                .bind(at_ms)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            if let Some(c) = record::locked_contest(tx.as_tx(), id).await? {
                let mut events = record::award_events_now(tx.as_tx(), &c, now, None).await?.0;
                events.push(NewEvent::of("contest", clics::contest(&c), Audience::All));
                events.push(NewEvent::of("state", clics::state(&c, now), Audience::All));
                record::append(tx.as_tx(), id, &events).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Reveals the frozen results of contest `id` at `at_ms` (`None`: hides
    /// them again), only after the end of a frozen contest
    /// ([`crate::contest::Contest::may_thaw`]). The results the freeze sealed are appended
    /// to the contest's record again for everyone who had not read them,
    /// before the new state: nothing in the record is rewritten.
    ///
    /// # Errors
    /// [`Error::Refused`] before the end, without a freeze, when already
    /// revealed, or (hiding again) once the updates ended; database
    /// failures.
    pub async fn set_contest_thawed(&self, id: i64, at_ms: Option<i64>) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(before) = record::locked_contest(tx.as_tx(), id).await? else {
                return Ok(());
            };
            let now = record::db_now(tx.as_tx()).await?;
            let allowed = match at_ms {
                Some(_) => before.may_thaw(now),
                None if before.end_of_updates_ms().is_some() => {
                    Err("its results are final and revealed: they cannot be hidden again".into())
                }
                None => Ok(()),
            };
            allowed.map_err(|why| Error::Refused(before.slug.clone(), why))?;
            sqlx::query(&sql(d, "UPDATE contests SET thawed_ms = ? WHERE id = ?"))
                .bind(at_ms)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            if let Some(c) = record::locked_contest(tx.as_tx(), id).await? {
                let mut events = Vec::new();
                if at_ms.is_some() {
                    events.extend(record::revealed_results(tx.as_tx(), id, None).await?);
                }
                // The public's awards, now from the board it sees (the
                // full one after the thaw).
                events.extend(record::award_events_now(tx.as_tx(), &c, now, None).await?.0);
                events.push(NewEvent::of("state", clics::state(&c, now), Audience::All));
                record::append(tx.as_tx(), id, &events).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Declares the results of contest `id` final (the state's
    /// `finalized`, and `end_of_updates` where nothing is hidden), with its
    /// awards in its record (`store/awards.rs`): after its end, once every
    /// try is judged, none ended in a judging error (or each such try was
    /// withdrawn, `store/withdrawn.rs`), and every question is answered.
    /// Returns when, by the database's clock.
    ///
    /// # Errors
    /// [`Error::Refused`] naming what blocks it; database failures.
    pub async fn finalize_contest(&self, id: i64) -> Result<i64, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(before) = record::locked_contest(tx.as_tx(), id).await? else {
                return Err(Error::BadContest(id.to_string(), "no such contest".into()));
            };
            let now = record::db_now(tx.as_tx()).await?;
            let refuse = |why: String| Error::Refused(before.slug.clone(), why);
            before.may_finalize(now).map_err(refuse)?;
            // Every try has a result that counts, or was withdrawn.
            let unsettled = sqlx::query_as::<_, Unsettled>(&sql(d, UNSETTLED))
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
            if !unsettled.is_empty() {
                return Err(refuse(unsettled_message(&before.slug, &unsettled)));
            }
            let unanswered = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT COUNT(*) FROM clarifications
                 WHERE contest_id = ? AND user_id IS NOT NULL AND answer IS NULL",
            ))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            if unanswered > 0 {
                return Err(refuse(format!(
                    "cannot finalize: {} not answered yet",
                    crate::plural::count(unanswered, "question", "questions")
                )));
            }
            sqlx::query(&sql(d, "UPDATE contests SET finalized_ms = ? WHERE id = ?"))
                .bind(now)
                .bind(id)
                .execute(&mut *tx)
                .await?;
            if let Some(c) = record::locked_contest(tx.as_tx(), id).await? {
                // The awards as they stand (nothing is unjudged, checked
                // above), before the state that may end the updates.
                let mut events = record::award_events_now(tx.as_tx(), &c, now, None).await?.0;
                events.push(NewEvent::of("state", clics::state(&c, now), Audience::All));
                record::append(tx.as_tx(), id, &events).await?;
            }
            tx.commit().await?;
            now
        }))
    }
}
