//! The awards' events: each award that moved with a change, for the
//! admins from the full board and for everyone else from the public's
//! (see `store::awards` for the rule).

use serde_json::Value;

use super::{append, db_now, locked_contest, teams_in, Audience, NewEvent};
use crate::contest::awards::{self, Award, AwardEdit};
use crate::contest::{Contest, Team, Viewer};
use crate::store::db::{on_tx, sql, AsTx, Tx};
use crate::store::Error;
use crate::store::{standing, ContestSubmission};

/// An admin's change as its row holds it.
pub(in crate::store) fn edit_of(
    id: String,
    citation: String,
    team_ids: Option<String>,
) -> AwardEdit {
    AwardEdit {
        id,
        citation,
        // Written by this module as a JSON array of strings.
        team_ids: team_ids.map(|t| serde_json::from_str(&t).unwrap_or_default()),
    }
}

/// Contest `cid`'s award changes within `tx`, by id.
pub(in crate::store) async fn edits_in(
    tx: Tx<'_>,
    cid: i64,
) -> Result<Vec<crate::contest::awards::AwardEdit>, Error> {
    Ok(
        on_tx!(tx, conn, d => {sqlx::query_as::<_, (String, String, Option<String>)>(&sql(
            d,
            "SELECT award_id, citation, team_ids FROM contest_awards
             WHERE contest_id = ? ORDER BY award_id",
        ))
        .bind(cid)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|(id, citation, teams)| edit_of(id, citation, teams))
        .collect::<Vec<_>>()}),
    )
}

/// The generated awards of contest `c` (as locked in `tx`) at `now`,
/// from its full board and from the public's, with its teams: `(admin,
/// public, teams)`. The admin's changes are not applied.
pub(in crate::store) async fn generated_in(
    tx: Tx<'_>,
    c: &Contest,
    now: i64,
) -> Result<
    (
        Vec<crate::contest::awards::Award>,
        Vec<crate::contest::awards::Award>,
        Vec<Team>,
    ),
    Error,
> {
    Ok(on_tx!(tx, conn, d => {
        let roster = teams_in(conn.as_tx(), c.id, c.open_to_all).await?;
        let team_groups = roster.team_groups();
        let teams: Vec<Team> = roster
            .teams
            .into_iter()
            .map(|t| Team {
                id: t.id,
                name: t.name,
                team_id: t.team_id,
                hidden: t.hidden,
            })
            .collect();
        let subs = sqlx::query_as::<_, ContestSubmission>(&sql(
            d,
            standing::CONTEST_SUBMISSIONS,
        ))
        .bind(c.id)
        .bind(None::<i64>)
        .fetch_all(&mut *conn)
        .await?;
        let groups = sqlx::query_as::<_, (i64, String, i64)>(&sql(
            d,
            standing::GROUP_SCORES,
        ))
        .bind(c.id)
        .fetch_all(&mut *conn)
        .await?;
        let attempts = standing::attempts_of(subs, groups)?;
        let of = |viewer| {
            let board = crate::contest::scoreboard::scoreboard(c, &teams, &attempts, viewer, now);
            crate::contest::awards::generate(c, &board, &team_groups)
        };
        let admin = of(Viewer::Admin);
        // The same board unless the freeze hides results from the public.
        let public = match c.hidden_from(Viewer::Public, now) {
            None => admin.clone(),
            Some(_) => of(Viewer::Public),
        };
        (admin, public, teams)
    }))
}

/// The events that bring contest `c`'s awards in its record (within
/// `tx`, which holds it) to the standings at `now`: each award whose
/// admins' or public's version changed since the record last said it
/// ([`award_changes`]).
pub(in crate::store) async fn award_events_now(
    tx: Tx<'_>,
    c: &Contest,
    now: i64,
) -> Result<Vec<NewEvent>, Error> {
    Ok(on_tx!(tx, conn, d => {
        let (admin, public, _) = generated_in(conn.as_tx(), c, now).await?;
        let edits = edits_in(conn.as_tx(), c.id).await?;
        let held =
            sqlx::query_as::<_, (Option<String>, Option<String>, String)>(&sql(
                d,
                "SELECT object_id, data, audience FROM contest_events
                 WHERE contest_id = ? AND kind = 'awards' ORDER BY seq",
            ))
            .bind(c.id)
            .fetch_all(&mut *conn)
            .await?;
        award_changes(c, now, admin, public, &edits, held)
    }))
}

/// Appends to contest `cid`'s record within `tx` (which holds it) the
/// awards that changed with what `tx` changed ([`award_events_now`]);
/// nothing once its updates ended.
pub(in crate::store) async fn record_awards(tx: Tx<'_>, cid: i64) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let c = locked_contest(conn.as_tx(), cid).await?;
        if let Some(c) = c.filter(|c| c.end_of_updates_ms().is_none()) {
            let now = db_now(conn.as_tx()).await?;
            let events = award_events_now(conn.as_tx(), &c, now).await?;
            append(conn.as_tx(), c.id, &events).await?;
        }
    });
    Ok(())
}

/// The award events that bring what the record holds (`held`: its award
/// events in order, as (id, data, audience)) to the awards of `c` at
/// `now`: `admin` and `public` as generated from the full and the
/// public's board, with the admin's `edits` (an award of the admin's own
/// reaches the public only once nothing is hidden from it). One event for
/// everyone where both changed alike, else one for the admins and one for
/// everyone else; a team reads the public's awards, its own sealed
/// results being no standing of others'. An award gone is a delete.
pub(in crate::store) fn award_changes(
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
