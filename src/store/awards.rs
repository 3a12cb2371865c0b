//! A contest's awards in the store: the medal counts, an admin's changes
//! (`contest_awards`: a generated award's citation, or an award of the
//! admin's own), and the awards' events in the contest's record.
//!
//! **Awards follow the standings.** Every change that can move them (a
//! try judged or sent back, a team hidden or imported, the medal counts,
//! an admin's change, the freeze moved, the thaw, the finalize) appends,
//! in its own transaction, each award that now differs from what the
//! record last said of it ([`award_changes`]): the admins' from the full
//! board, everyone else's from the public's board. REST replays the
//! record, so `/awards` and every feed agree at every moment. Once the
//! updates ended (`end_of_updates`, which must be the record's last
//! event) awards no longer change: a change is refused.

use serde_json::Value;

use super::db::{on_db, sql};
use super::record::{db_now, locked_contest, Audience, NewEvent};
use super::{Error, Store};
use crate::contest::awards::{self, Award, AwardEdit};
use crate::contest::{Contest, Medals, Viewer};

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

/// The generated awards of contest `$c` (as locked in `$tx`) at `$now`,
/// from its full board and from the public's, with its teams: `(admin,
/// public, teams)`. The admin's changes are not applied.
macro_rules! generated_in {
    ($tx:ident, $d:ident, $c:expr, $now:expr) => {{
        let c: &$crate::contest::Contest = $c;
        let now: i64 = $now;
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
            $crate::store::standing::CONTEST_SUBMISSIONS,
        ))
        .bind(c.id)
        .bind(None::<i64>)
        .fetch_all(&mut *$tx)
        .await?;
        let groups = sqlx::query_as::<_, (i64, String, i64)>(&$crate::store::db::sql(
            $d,
            $crate::store::standing::GROUP_SCORES,
        ))
        .bind(c.id)
        .fetch_all(&mut *$tx)
        .await?;
        let attempts = $crate::store::standing::attempts_of(subs, groups)?;
        let of = |viewer| {
            let board = $crate::contest::scoreboard::scoreboard(c, &teams, &attempts, viewer, now);
            $crate::contest::awards::generate(c, &board, &team_groups)
        };
        let admin = of($crate::contest::Viewer::Admin);
        // The same board unless the freeze hides results from the public.
        let public = match c.hidden_from($crate::contest::Viewer::Public, now) {
            None => admin.clone(),
            Some(_) => of($crate::contest::Viewer::Public),
        };
        (admin, public, teams)
    }};
}
pub(super) use generated_in;

/// The events that bring contest `$c`'s awards in its record (within
/// `$tx`, which holds it) to the standings at `$now`: each award whose
/// admins' or public's version changed since the record last said it
/// ([`award_changes`]).
macro_rules! award_events_now {
    ($tx:ident, $d:ident, $c:expr, $now:expr) => {{
        let c: &$crate::contest::Contest = $c;
        let now: i64 = $now;
        let (admin, public, _) = $crate::store::awards::generated_in!($tx, $d, c, now);
        let edits = $crate::store::awards::edits_in!($tx, $d, c.id);
        let held =
            sqlx::query_as::<_, (Option<String>, Option<String>, String)>(&$crate::store::db::sql(
                $d,
                "SELECT object_id, data, audience FROM contest_events
                 WHERE contest_id = ? AND kind = 'awards' ORDER BY seq",
            ))
            .bind(c.id)
            .fetch_all(&mut *$tx)
            .await?;
        $crate::store::awards::award_changes(c, now, admin, public, &edits, held)
    }};
}
pub(super) use award_events_now;

/// Appends to contest `$cid`'s record within `$tx` (which holds it) the
/// awards that changed with what `$tx` changed ([`award_events_now!`]);
/// nothing once its updates ended.
macro_rules! record_awards {
    ($tx:ident, $d:ident, $cid:expr) => {{
        let c = $crate::store::record::locked_contest!($tx, $d, $cid);
        if let Some(c) = c.filter(|c| c.end_of_updates_ms().is_none()) {
            let now = $crate::store::record::db_now!($tx, $d);
            let events = $crate::store::awards::award_events_now!($tx, $d, &c, now);
            $crate::store::record::append_events!($tx, $d, c.id, &events);
        }
    }};
}
pub(super) use record_awards;

/// The award events that bring what the record holds (`held`: its award
/// events in order, as (id, data, audience)) to the awards of `c` at
/// `now`: `admin` and `public` as generated from the full and the
/// public's board, with the admin's `edits` (an award of the admin's own
/// reaches the public only once nothing is hidden from it). One event for
/// everyone where both changed alike, else one for the admins and one for
/// everyone else; a team reads the public's awards, its own sealed
/// results being no standing of others'. An award gone is a delete.
pub(super) fn award_changes(
    c: &Contest,
    now: i64,
    admin: Vec<Award>,
    public: Vec<Award>,
    edits: &[AwardEdit],
    held: Vec<(Option<String>, Option<String>, String)>,
) -> Vec<NewEvent> {
    use std::collections::BTreeMap;
    let admin = awards::with_edits(admin, edits);
    let public_edits: Vec<AwardEdit> = if c.hidden_from(Viewer::Public, now).is_some() {
        edits
            .iter()
            .filter(|e| e.team_ids.is_none())
            .cloned()
            .collect()
    } else {
        edits.to_vec()
    };
    let mut public = awards::with_edits(public, &public_edits);
    // A first solve names its problem: not to the public before the start.
    if c.phase(now) == crate::contest::Phase::Before {
        public.retain(|a| !a.id.starts_with("first-to-solve-"));
    }
    // What each reader holds now: the latest event of each award it reads.
    let mut held_admin: BTreeMap<String, Option<Value>> = BTreeMap::new();
    let mut held_public: BTreeMap<String, Option<Value>> = BTreeMap::new();
    for (id, data, audience) in held {
        let Some(id) = id else { continue };
        let data = data.and_then(|t| serde_json::from_str::<Value>(&t).ok());
        match audience.as_str() {
            "all" => {
                held_admin.insert(id.clone(), data.clone());
                held_public.insert(id, data);
            }
            "admin" => {
                held_admin.insert(id, data);
            }
            _ => {
                held_public.insert(id, data);
            }
        }
    }
    let now_of = |list: &[Award], id: &str| list.iter().find(|a| a.id == id).map(Award::to_json);
    let mut ids: Vec<String> = admin.iter().chain(&public).map(|a| a.id.clone()).collect();
    ids.extend(held_admin.keys().chain(held_public.keys()).cloned());
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(id.clone()));
    let mut out = Vec::new();
    for id in ids {
        let (a, p) = (now_of(&admin, &id), now_of(&public, &id));
        let admin_changed = held_admin.get(&id).cloned().flatten() != a;
        let public_changed = held_public.get(&id).cloned().flatten() != p;
        let event = |data: Option<Value>, audience| NewEvent {
            kind: "awards",
            id: Some(id.clone()),
            data,
            audience,
        };
        if admin_changed && public_changed && a == p {
            out.push(event(a, Audience::All));
            continue;
        }
        if admin_changed {
            out.push(event(a, Audience::Admin));
        }
        if public_changed {
            out.push(event(p, Audience::Others(None)));
        }
    }
    out
}

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
            record_awards!(tx, d, id);
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
            let (generated, _, teams) = generated_in!(tx, d, &c, now);
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
            record_awards!(tx, d, id);
            tx.commit().await?;
            true
        }))
    }
}
