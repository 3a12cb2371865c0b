//! The awards' events: each award that moved with a change, for the
//! admins from the full board and for everyone else from the public's
//! (see `store::awards` for the rule).

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use serde_json::Value;

use super::{append, db_now, locked_contest, teams_in, Audience, NewEvent};
use crate::contest::awards::{self, Award, AwardEdit};
use crate::contest::scoreboard::KeptBoard;
use crate::contest::{Attempt, Contest, Team, Viewer};
use crate::store::db::{on_tx, sql, AsTx, Tx};
use crate::store::Error;
use crate::store::{standing, ContestSubmission};

/// A contest's tries as the awards' last computation read them, at a
/// version of its record. The next computation brings them up to date by
/// the tries the record names since ([`standing::tries_changed`]) instead
/// of reading every try again: a judgement costs a read of what changed.
///
/// With the tries it keeps the contest's teams and what the record last
/// said of each award, valid at the same version: a judgement reads
/// neither the roster nor the award events again (they grow with the
/// contest), only what changed since.
#[derive(Debug)]
pub(crate) struct Standing {
    version: i64,
    /// By id.
    attempts: Vec<Attempt>,
    /// The teams at `version`; `None`: to be read.
    roster: Option<Roster>,
    /// The awards the record holds at `version`; `None`: to be read.
    said: Option<Said>,
}

/// A contest's teams as the awards read them, with the boards kept over
/// them (changed try by try with the standing's tries).
#[derive(Debug, Clone)]
struct Roster {
    teams: Vec<Team>,
    /// Each team's groups, as (id, name).
    groups: BTreeMap<i64, Vec<(String, String)>>,
    /// The admins' board and the public's, as last used.
    boards: Vec<KeptBoard>,
}

/// What each reader of a contest's record holds of its awards: the latest
/// event of each award it reads, by id (`None`: deleted).
#[derive(Debug, Clone, Default)]
pub(in crate::store) struct Said {
    admin: BTreeMap<String, Option<Value>>,
    public: BTreeMap<String, Option<Value>>,
}

impl Said {
    /// From the award events of a record, in order, as (id, data, audience).
    fn of(held: Vec<(Option<String>, Option<String>, String)>) -> Said {
        let mut said = Said::default();
        for (id, data, audience) in held {
            let Some(id) = id else { continue };
            let data = data.and_then(|t| serde_json::from_str::<Value>(&t).ok());
            said.tell(id, data, &audience);
        }
        said
    }

    /// What they hold once `events` (awards, as appended) are read too.
    fn apply(&mut self, events: &[NewEvent]) {
        for e in events {
            if let Some(id) = &e.id {
                self.tell(id.clone(), e.data.clone(), e.audience.as_str());
            }
        }
    }

    fn tell(&mut self, id: String, data: Option<Value>, audience: &str) {
        match audience {
            "all" => {
                self.admin.insert(id.clone(), data.clone());
                self.public.insert(id, data);
            }
            "admin" => {
                self.admin.insert(id, data);
            }
            _ => {
                self.public.insert(id, data);
            }
        }
    }
}

/// What [`Standing::tally`] counts, as the database counts it: every try,
/// the judged ones, the accepted ones, the compile errors, and the scores
/// summed, as the `contest_tallies` triggers keep them (one row, however
/// many tries; none for a contest with no try). A standing brought up to
/// date that does not count the same missed a change no event tells (a
/// jury's own try, which the record leaves out), and is read again whole.
const TALLY: &str = "SELECT tries, judged, accepted, compile_errors, score
     FROM contest_tallies WHERE contest_id = ?";

impl Standing {
    /// What [`TALLY`] counts, of these tries.
    fn tally(&self) -> (i64, i64, i64, i64, i64) {
        let mut t = (self.attempts.len() as i64, 0, 0, 0, 0);
        for r in self.attempts.iter().filter_map(|a| a.result.as_ref()) {
            t.1 += 1;
            t.2 += i64::from(r.verdict == crate::verdict::Verdict::AC);
            t.3 += i64::from(r.verdict == crate::verdict::Verdict::CE);
            t.4 += i64::from(r.score);
        }
        t
    }
}

/// The standings the store keeps between transactions, by contest. Each
/// is put here only once the transaction that read it committed, so none
/// is of a version that was rolled back.
#[derive(Debug, Default)]
pub(crate) struct Standings(Mutex<HashMap<i64, Standing>>);

impl Standings {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Standing>> {
        // A panic while holding it leaves a map that is still whole.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Contest `contest`'s standing, taken out (a transaction that fails
    /// to commit leaves none: the next reads everything).
    fn take(&self, contest: i64) -> Option<Standing> {
        self.lock().remove(&contest)
    }

    /// Keeps `standing` of `contest`, read by a transaction that has
    /// committed, unless one of a later version is kept.
    pub(in crate::store) fn keep(&self, contest: i64, standing: Standing) {
        let mut kept = self.lock();
        if kept
            .get(&contest)
            .is_none_or(|k| k.version < standing.version)
        {
            kept.insert(contest, standing);
        }
    }

    /// Forgets `contest`'s standing (the contest is gone).
    pub(in crate::store) fn forget(&self, contest: i64) {
        self.lock().remove(&contest);
    }
}

/// Contest `cid`'s tries within `tx` at its record's version there: `kept`
/// (of an earlier version) brought up to date by the tries changed since,
/// when only tries changed and the result counts as the database does
/// ([`TALLY`]); otherwise every try read again. The kept teams stay where
/// no try came from a team they lack and none was withdrawn; the kept
/// awards where no award event came since but the kept standing's own.
async fn standing_in(tx: Tx<'_>, cid: i64, kept: Option<Standing>) -> Result<Standing, Error> {
    Ok(on_tx!(tx, conn, d => {
        let version = sqlx::query_scalar::<_, i64>(&sql(d, "SELECT event_seq FROM contests WHERE id = ?"))
            .bind(cid)
            .fetch_one(&mut *conn)
            .await?;
        let mut brought = None;
        if let Some(mut k) = kept.filter(|k| k.version <= version) {
            let events = sqlx::query_as::<_, (String, Option<String>)>(&sql(d, standing::EVENTS_AFTER))
                .bind(cid)
                .bind(k.version)
                .bind(standing::MOST_CHANGES + 1)
                .fetch_all(&mut *conn)
                .await?;
            if events.iter().any(|(kind, _)| kind == "awards") {
                k.said = None;
            }
            if let Some(ids) = standing::tries_changed(events) {
                if !ids.is_empty() {
                    let json = serde_json::to_string(&ids).expect("a list of numbers");
                    let subs = sqlx::query_as::<_, ContestSubmission>(&sql(d, standing::SOME_CONTEST_SUBMISSIONS))
                        .bind(cid)
                        .bind(&json)
                        .fetch_all(&mut *conn)
                        .await?;
                    let groups = sqlx::query_as::<_, (i64, String, i64)>(&sql(d, standing::SOME_GROUP_SCORES))
                        .bind(cid)
                        .bind(&json)
                        .fetch_all(&mut *conn)
                        .await?;
                    let fresh = standing::attempts_of(subs, groups)?;
                    let same_teams = fresh.len() == ids.len()
                        && k.roster.as_ref().is_some_and(|r| {
                            fresh.iter().all(|a| r.teams.iter().any(|t| t.id == a.team))
                        });
                    match k.roster.as_mut().filter(|_| same_teams) {
                        Some(roster) => roster.boards.iter_mut().for_each(|b| b.change(&ids, &fresh)),
                        None => k.roster = None,
                    }
                    standing::bring_up(&mut k.attempts, &ids, fresh);
                }
                k.version = version;
                let tally = sqlx::query_as::<_, (i64, i64, i64, i64, i64)>(&sql(d, TALLY))
                    .bind(cid)
                    .fetch_optional(&mut *conn)
                    .await?
                    .unwrap_or_default();
                if tally == k.tally() {
                    brought = Some(k);
                }
            }
        }
        match brought {
            Some(k) => k,
            None => {
                let subs = sqlx::query_as::<_, ContestSubmission>(&sql(d, standing::CONTEST_SUBMISSIONS))
                    .bind(cid)
                    .bind(None::<i64>)
                    .fetch_all(&mut *conn)
                    .await?;
                let groups = sqlx::query_as::<_, (i64, String, i64)>(&sql(d, standing::GROUP_SCORES))
                    .bind(cid)
                    .fetch_all(&mut *conn)
                    .await?;
                Standing {
                    version,
                    attempts: standing::attempts_of(subs, groups)?,
                    roster: None,
                    said: None,
                }
            }
        }
    }))
}

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
pub(in crate::store) async fn edits_in(tx: Tx<'_>, cid: i64) -> Result<Vec<AwardEdit>, Error> {
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

/// What [`generated_in`] gives: the awards from the full board and from
/// the public's, the teams, and the standing they were computed from.
pub(in crate::store) struct Generated {
    pub admin: Vec<Award>,
    pub public: Vec<Award>,
    pub teams: Vec<Team>,
    pub standing: Standing,
}

/// The generated awards of contest `c` (as locked in `tx`) at `now`,
/// from its full board and from the public's, with its teams, from its
/// tries and teams as [`standing_in`] reads them (`kept`: a standing kept
/// from an earlier computation). The admin's changes are not applied.
pub(in crate::store) async fn generated_in(
    tx: Tx<'_>,
    c: &Contest,
    now: i64,
    kept: Option<Standing>,
) -> Result<Generated, Error> {
    Ok(on_tx!(tx, conn, d => {
        let mut standing = standing_in(conn.as_tx(), c.id, kept).await?;
        let mut roster = match standing.roster.take() {
            Some(roster) => roster,
            None => {
                let read = teams_in(conn.as_tx(), c.id, c.open_to_all).await?;
                let groups = read.team_groups();
                let teams = read
                    .teams
                    .into_iter()
                    .map(|t| Team {
                        id: t.id,
                        name: t.name,
                        team_id: t.team_id,
                        hidden: t.hidden,
                    })
                    .collect();
                Roster { teams, groups, boards: Vec::new() }
            }
        };
        let mut of = |viewer| {
            let board = KeptBoard::read_kept(
                &mut roster.boards,
                c,
                &roster.teams,
                &standing.attempts,
                viewer,
                now,
            );
            crate::contest::awards::generate(c, &board, &roster.groups)
        };
        let admin = of(Viewer::Admin);
        // The same board unless the freeze hides results from the public.
        let public = match c.hidden_from(Viewer::Public, now) {
            None => admin.clone(),
            Some(_) => of(Viewer::Public),
        };
        let teams = roster.teams.clone();
        standing.roster = Some(roster);
        Generated { admin, public, teams, standing }
    }))
}

/// The events that bring contest `c`'s awards in its record (within
/// `tx`, which holds it) to the standings at `now`: each award whose
/// admins' or public's version changed since the record last said it
/// ([`award_changes`]), and the standing they were computed from (`kept`:
/// as [`generated_in`]), holding what the record says once they are
/// appended.
pub(in crate::store) async fn award_events_now(
    tx: Tx<'_>,
    c: &Contest,
    now: i64,
    kept: Option<Standing>,
) -> Result<(Vec<NewEvent>, Standing), Error> {
    Ok(on_tx!(tx, conn, d => {
        let mut g = generated_in(conn.as_tx(), c, now, kept).await?;
        let edits = edits_in(conn.as_tx(), c.id).await?;
        let mut said = match g.standing.said.take() {
            Some(said) => said,
            None => Said::of(
                sqlx::query_as::<_, (Option<String>, Option<String>, String)>(&sql(
                    d,
                    "SELECT object_id, data, audience FROM contest_events
                     WHERE contest_id = ? AND kind = 'awards' ORDER BY seq",
                ))
                .bind(c.id)
                .fetch_all(&mut *conn)
                .await?,
            ),
        };
        let events = award_changes(c, now, g.admin, g.public, &edits, &said);
        said.apply(&events);
        g.standing.said = Some(said);
        (events, g.standing)
    }))
}

/// Appends to contest `cid`'s record within `tx` (which holds it) the
/// awards that changed with what `tx` changed ([`award_events_now`]);
/// nothing once its updates ended. With `kept`, from the contest's
/// standing kept there, and returns the standing now (of the record's
/// version with those awards), for the caller to keep there once `tx`
/// commits ([`Standings::keep`]).
pub(in crate::store) async fn record_awards(
    tx: Tx<'_>,
    cid: i64,
    kept: Option<&Standings>,
) -> Result<Option<Standing>, Error> {
    Ok(on_tx!(tx, conn, d => {
        let c = locked_contest(conn.as_tx(), cid).await?;
        match c.filter(|c| c.end_of_updates_ms().is_none()) {
            None => None,
            Some(c) => {
                let now = db_now(conn.as_tx()).await?;
                let before = kept.and_then(|k| k.take(cid));
                let (events, mut standing) =
                    award_events_now(conn.as_tx(), &c, now, before).await?;
                if let Some(last) = append(conn.as_tx(), c.id, &events).await? {
                    standing.version = last;
                }
                kept.map(|_| standing)
            }
        }
    }))
}

/// The award events that bring what the record holds (`said`) to the
/// awards of `c` at `now`: `admin` and `public` as generated from the
/// full and the public's board, with the admin's `edits` (an award of the
/// admin's own reaches the public only once nothing is hidden from it).
/// One event for everyone where both changed alike, else one for the
/// admins and one for everyone else; a team reads the public's awards,
/// its own sealed results being no standing of others'. An award gone is
/// a delete.
pub(in crate::store) fn award_changes(
    c: &Contest,
    now: i64,
    admin: Vec<Award>,
    public: Vec<Award>,
    edits: &[AwardEdit],
    said: &Said,
) -> Vec<NewEvent> {
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
    // Each award's id in the order generated, then those only held.
    let mut ids: Vec<&str> = admin.iter().chain(&public).map(|a| a.id.as_str()).collect();
    ids.extend(
        said.admin
            .keys()
            .chain(said.public.keys())
            .map(String::as_str),
    );
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(*id));
    let admin: HashMap<&str, Value> = admin.iter().map(|a| (a.id.as_str(), a.to_json())).collect();
    let public: HashMap<&str, Value> = public
        .iter()
        .map(|a| (a.id.as_str(), a.to_json()))
        .collect();
    let mut out = Vec::new();
    for id in ids {
        let (a, p) = (admin.get(id).cloned(), public.get(id).cloned());
        let admin_changed = said.admin.get(id).cloned().flatten() != a;
        let public_changed = said.public.get(id).cloned().flatten() != p;
        let event = |data: Option<Value>, audience| NewEvent {
            kind: "awards",
            id: Some(id.to_string()),
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
