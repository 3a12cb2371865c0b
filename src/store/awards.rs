//! A contest's awards in the store: the medal counts, an admin's changes
//! (`contest_awards`: a generated award's citation, or an award of the
//! admin's own), and the awards' events in the contest's record.
//!
//! **When awards reach the record.** The API computes awards from the
//! board as each reader sees it, at every request. The record (feeds, the
//! package) gets them when the results are final: the finalize appends
//! every award, computed from the full board read inside its own
//! transaction, before its state event. While a freeze still hides
//! results they are the admins' only; the unfreeze appends them again for
//! everyone else, before its state ([`revealed_awards!`]), as it does the
//! results the freeze sealed. A change of an award after the finalize
//! appends the award as it now is, in the change's transaction. Once the
//! updates ended (`end_of_updates`, which must be the record's last
//! event) awards no longer change: the change is refused.

use super::db::{on_db, sql};
use super::record::{append_events, db_now, locked_contest, Audience, NewEvent};
use super::{Error, Store};
use crate::contest::awards::{self, Award, AwardEdit};
use crate::contest::{Contest, Medals};

/// The audience of `c`'s award events: the admins while a freeze still
/// hides results, else everyone.
pub(super) fn award_audience(c: &Contest) -> Audience {
    if c.state_frozen_ms().is_some() && c.thawed_ms.is_none() {
        Audience::Admin
    } else {
        Audience::All
    }
}

/// Each award of `list` as an event of `c`'s record.
pub(super) fn award_events(c: &Contest, list: &[Award]) -> Vec<NewEvent> {
    let audience = award_audience(c);
    list.iter()
        .map(|a| NewEvent::of("awards", a.to_json(), audience))
        .collect()
}

/// An admin's change as its row holds it.
fn edit_of(id: String, citation: String, team_ids: Option<String>) -> AwardEdit {
    AwardEdit {
        id,
        citation,
        // Written by this module as a JSON array of strings.
        team_ids: team_ids.map(|t| serde_json::from_str(&t).unwrap_or_default()),
    }
}

/// Contest `$cid`'s award changes within `$tx`, by id.
macro_rules! edits_in {
    ($tx:ident, $d:ident, $cid:expr) => {
        sqlx::query_as::<_, (String, String, Option<String>)>(&$crate::store::db::sql(
            $d,
            "SELECT award_id, citation, team_ids FROM contest_awards
             WHERE contest_id = ? ORDER BY award_id",
        ))
        .bind($cid)
        .fetch_all(&mut *$tx)
        .await?
        .into_iter()
        .map(|(id, citation, teams)| $crate::store::awards::edit_of_row(id, citation, teams))
        .collect::<Vec<_>>()
    };
}

/// The generated awards of contest `$c` (as locked in `$tx`) from its
/// full board as `$tx` reads it at `$now`, and its teams; the admin's
/// changes are not applied.
macro_rules! generated_in {
    ($tx:ident, $d:ident, $c:expr, $now:expr) => {{
        let c: &$crate::contest::Contest = $c;
        let roster = $crate::store::affiliations::teams_in!($tx, $d, c.id, c.open_to_all);
        let team_groups = roster.team_groups();
        let teams: Vec<$crate::contest::Team> = roster
            .teams
            .into_iter()
            .map(|t| $crate::contest::Team {
                id: t.id,
                name: t.name,
                team_id: t.team_id,
                hidden: t.hidden,
            })
            .collect();
        let subs = sqlx::query_as::<_, $crate::store::ContestSubmission>(&$crate::store::db::sql(
            $d,
            $crate::store::contests::CONTEST_SUBMISSIONS,
        ))
        .bind(c.id)
        .bind(None::<i64>)
        .fetch_all(&mut *$tx)
        .await?;
        let groups = sqlx::query_as::<_, (i64, String, i64)>(&$crate::store::db::sql(
            $d,
            $crate::store::contests::GROUP_SCORES,
        ))
        .bind(c.id)
        .fetch_all(&mut *$tx)
        .await?;
        let attempts = $crate::store::contests::attempts_of(subs, groups)?;
        let board = $crate::contest::scoreboard::scoreboard(
            c,
            &teams,
            &attempts,
            $crate::contest::Viewer::Admin,
            $now,
        );
        (
            $crate::contest::awards::generate(c, &board, &team_groups),
            teams,
        )
    }};
}
pub(super) use generated_in;

/// The events of contest `$c`'s awards, final, within `$tx` at `$now`:
/// what the finalize appends before its state.
macro_rules! final_award_events {
    ($tx:ident, $d:ident, $c:expr, $now:expr) => {{
        let c: &$crate::contest::Contest = $c;
        let (generated, _) = $crate::store::awards::generated_in!($tx, $d, c, $now);
        let edits = $crate::store::awards::edits_in!($tx, $d, c.id);
        let all = $crate::contest::awards::with_edits(generated, &edits);
        $crate::store::awards::award_events(c, &all)
    }};
}
pub(super) use final_award_events;

/// The award events of contest `$cid` that only admins read, latest of
/// each award, again for everyone else: what the unfreeze appends before
/// its state. An award the admins saw deleted was never seen by others,
/// and is left out.
macro_rules! revealed_awards {
    ($tx:ident, $d:ident, $cid:expr) => {{
        let rows = sqlx::query_as::<_, (Option<String>, Option<String>)>(&$crate::store::db::sql(
            $d,
            "SELECT object_id, data FROM contest_events e
             WHERE contest_id = ?1 AND kind = 'awards' AND audience = 'admin'
               AND data IS NOT NULL
               AND seq = (SELECT MAX(seq) FROM contest_events f
                          WHERE f.contest_id = ?1 AND f.kind = 'awards'
                            AND f.object_id = e.object_id)
             ORDER BY seq",
        ))
        .bind($cid)
        .fetch_all(&mut *$tx)
        .await?;
        rows.into_iter()
            .map(|(id, data)| $crate::store::record::NewEvent {
                kind: "awards",
                id,
                data: data.and_then(|t| serde_json::from_str(&t).ok()),
                audience: $crate::store::record::Audience::Others(None),
            })
            .collect::<Vec<_>>()
    }};
}
pub(super) use revealed_awards;

pub(super) use edits_in;

/// [`edit_of`] for the macros.
pub(super) fn edit_of_row(id: String, citation: String, teams: Option<String>) -> AwardEdit {
    edit_of(id, citation, teams)
}

/// An admin's change to a contest's awards.
#[derive(Debug, Clone)]
pub enum AwardChange {
    /// Set: a generated award's citation, or an award of the admin's own.
    Set(AwardEdit),
    /// Undone: a generated award's citation back to its default, or an
    /// award of the admin's own gone.
    Remove(String),
}

impl Store {
    /// The admin's changes to contest `contest`'s awards, by id.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_award_edits(&self, contest: i64) -> Result<Vec<AwardEdit>, Error> {
        let rows = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (String, String, Option<String>)>(&sql(
                d,
                "SELECT award_id, citation, team_ids FROM contest_awards
                 WHERE contest_id = ? ORDER BY award_id",
            ))
            .bind(contest)
            .fetch_all(pool)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|(id, citation, teams)| edit_of(id, citation, teams))
            .collect())
    }

    /// Sets the medal counts of contest `id`, until its results are final
    /// (its awards are then in its record).
    ///
    /// # Errors
    /// [`Error::Refused`] once finalized; database failures.
    pub async fn set_contest_medals(&self, id: i64, medals: Medals) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(c) = locked_contest!(tx, d, id) else {
                return Ok(());
            };
            if c.finalized_ms.is_some() && c.medals != medals {
                return Err(Error::Refused(
                    c.slug,
                    "its results are final: its medals no longer change".into(),
                ));
            }
            sqlx::query(&sql(
                d,
                "UPDATE contests SET gold_medals = ?, silver_medals = ?, bronze_medals = ?
                 WHERE id = ?",
            ))
            .bind(i64::from(medals.gold))
            .bind(i64::from(medals.silver))
            .bind(i64::from(medals.bronze))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Makes `change` to contest `id`'s awards, checked against the awards
    /// and teams the contest has now ([`awards::check_edit`]). After the
    /// finalize the changed award is appended to the record in the same
    /// transaction; once the updates ended nothing changes. Returns
    /// whether anything changed (a removal of nothing changes nothing).
    ///
    /// # Errors
    /// [`Error::Refused`] naming what is wrong (an unknown team or award,
    /// an empty citation, the updates ended); database failures.
    pub async fn change_contest_award(&self, id: i64, change: &AwardChange) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(c) = locked_contest!(tx, d, id) else {
                return Err(Error::BadContest(id.to_string(), "no such contest".into()));
            };
            let refuse = |why: String| Error::Refused(c.slug.clone(), why);
            if c.end_of_updates_ms().is_some() {
                return Err(refuse(
                    "its results are final and revealed (end of updates): its awards no longer change"
                        .into(),
                ));
            }
            let now = db_now!(tx, d);
            let (generated, teams) = generated_in!(tx, d, &c, now);
            let award_id = match change {
                AwardChange::Set(edit) => {
                    awards::check_edit(&generated, &teams, edit).map_err(refuse)?;
                    let team_ids = edit
                        .team_ids
                        .as_ref()
                        .map(|t| serde_json::Value::from(t.clone()).to_string());
                    sqlx::query(&sql(
                        d,
                        "INSERT INTO contest_awards (contest_id, award_id, citation, team_ids)
                         VALUES (?1, ?2, ?3, ?4)
                         ON CONFLICT (contest_id, award_id)
                         DO UPDATE SET citation = ?3, team_ids = ?4",
                    ))
                    .bind(id)
                    .bind(&edit.id)
                    .bind(edit.citation.trim())
                    .bind(team_ids)
                    .execute(&mut *tx)
                    .await?;
                    &edit.id
                }
                AwardChange::Remove(award) => {
                    let gone = sqlx::query(&sql(
                        d,
                        "DELETE FROM contest_awards WHERE contest_id = ? AND award_id = ?",
                    ))
                    .bind(id)
                    .bind(award)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
                    if gone == 0 {
                        return Ok(false);
                    }
                    award
                }
            };
            if c.finalized_ms.is_some() {
                let edits = edits_in!(tx, d, id);
                let all = awards::with_edits(generated, &edits);
                let event = match all.iter().find(|a| a.id == *award_id) {
                    Some(a) => award_events(&c, std::slice::from_ref(a)),
                    None => vec![NewEvent {
                        kind: "awards",
                        id: Some(award_id.clone()),
                        data: None,
                        audience: award_audience(&c),
                    }],
                };
                append_events!(tx, d, id, &event);
            }
            tx.commit().await?;
            true
        }))
    }
}
