//! A contest's awards in the store: the medal counts, an admin's changes
//! (`contest_awards`: a generated award's citation, or an award of the
//! admin's own), and the awards' events in the contest's record.
//!
//! **Awards follow the standings.** Every change that can move them (a
//! try judged or sent back, a team hidden or imported, the medal counts,
//! an admin's change, the freeze moved, the thaw, the finalize) appends,
//! in its own transaction, each award that now differs from what the
//! record last said of it (`record::award_changes`): the admins' from the full
//! board, everyone else's from the public's board. REST replays the
//! record, so `/awards` and every feed agree at every moment. Once the
//! updates ended (`end_of_updates`, which must be the record's last
//! event) awards no longer change: a change is refused.

use super::db::{on_db, sql, AsTx};
use super::record::{self, edit_of};
use super::{Error, Store};
use crate::contest::awards::{self, Award, AwardEdit};
use crate::contest::Medals;

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
    /// Contest `contest`'s awards as `reader` reads them: its record
    /// replayed, in the order the awards first appeared (what `/awards`
    /// and every feed give that reader).
    ///
    /// # Errors
    /// As [`Store::contest_objects`].
    pub async fn contest_awards(
        &self,
        contest: i64,
        reader: super::record::Reader,
    ) -> Result<Vec<Award>, Error> {
        Ok(self
            .contest_objects(contest, reader, "awards")
            .await?
            .into_iter()
            .filter_map(|e| {
                let v = e.data?;
                Some(Award {
                    id: v["id"].as_str()?.to_string(),
                    citation: v["citation"].as_str()?.to_string(),
                    team_ids: v["team_ids"]
                        .as_array()?
                        .iter()
                        .filter_map(|t| t.as_str().map(String::from))
                        .collect(),
                })
            })
            .collect())
    }

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

    /// Sets the medal counts of contest `id`, with the medals they change
    /// in its record, until its results are final.
    ///
    /// # Errors
    /// [`Error::Refused`] once finalized; database failures.
    pub async fn set_contest_medals(&self, id: i64, medals: Medals) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(c) = record::locked_contest(tx.as_tx(), id).await? else {
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
            record::record_awards(tx.as_tx(), id, None).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Makes `change` to contest `id`'s awards, checked against the awards
    /// and teams the contest has now ([`awards::check_edit`]), and appends
    /// the changed award to its record in the same transaction; once the
    /// updates ended nothing changes. Returns
    /// whether anything changed (a removal of nothing changes nothing).
    ///
    /// # Errors
    /// [`Error::Refused`] naming what is wrong (an unknown team or award,
    /// an empty citation, the updates ended); database failures.
    pub async fn change_contest_award(&self, id: i64, change: &AwardChange) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(c) = record::locked_contest(tx.as_tx(), id).await? else {
                return Err(Error::BadContest(id.to_string(), "no such contest".into()));
            };
            let refuse = |why: String| Error::Refused(c.slug.clone(), why);
            if c.end_of_updates_ms().is_some() {
                return Err(refuse(
                    "its results are final and revealed (end of updates): its awards no longer change"
                        .into(),
                ));
            }
            let now = record::db_now(tx.as_tx()).await?;
            let g = record::generated_in(tx.as_tx(), &c, now, None).await?;
            let (generated, teams) = (g.admin, g.teams);
            match change {
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
                }
            }
            record::record_awards(tx.as_tx(), id, None).await?;
            tx.commit().await?;
            true
        }))
    }
}
