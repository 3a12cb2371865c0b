//! The contests' rosters as accounts and affiliations change: what an
//! account's change, an import and a hidden team append to the record of
//! every contest they touch (the teams, organizations and groups that
//! changed there, a hidden team's tries retold, and the awards that
//! moves), in the transaction that makes the change. An import changes
//! the affiliations in one transaction with the records of every contest
//! whose results are not final: a feed sees a team's new organization in
//! the same order as everything else, and never a team before the
//! organization it names.

use std::collections::BTreeMap;

use super::affiliations::{all_affiliations, keep_team_id, team_id_of, teams_in, Affiliation};
use super::db::{on_db, sql};
use super::{Error, Store};
use crate::contest::affiliation::{Affiliations, Group, Organization};

/// Appends to contest `$cid`'s record within `$tx` (which holds it) those
/// of `$events` whose object differs from the record's latest version of
/// it that the event's readers hold: an import that changes one team
/// writes one team. (An event for everyone is compared with the latest of
/// any audience, so a team shown again after it was hidden is written.)
macro_rules! append_changed {
    ($tx:ident, $d:ident, $cid:expr, $events:expr) => {{
        let cid: i64 = $cid;
        let mut changed = Vec::new();
        for e in $events {
            let e: $crate::store::record::NewEvent = e;
            let latest = sqlx::query_scalar::<_, Option<String>>(&$crate::store::db::sql(
                $d,
                "SELECT data FROM contest_events
                 WHERE contest_id = ?1 AND kind = ?2 AND object_id = ?3
                   AND (?4 = 'all' OR audience = 'all' OR audience = ?4)
                 ORDER BY seq DESC LIMIT 1",
            ))
            .bind(cid)
            .bind(e.kind)
            .bind(e.id.as_deref())
            .bind($crate::store::record::audience_text(e.audience))
            .fetch_optional(&mut *$tx)
            .await?;
            let now = e.data.as_ref().map(|v| v.to_string());
            // A delete of what these readers never held is no change (a
            // hidden team's absence, for those who never saw it).
            let changed_now = match latest {
                None => now.is_some(),
                Some(latest) => latest != now,
            };
            if changed_now {
                changed.push(e);
            }
        }
        $crate::store::record::append_events!($tx, $d, cid, &changed);
    }};
}
pub(super) use append_changed;

/// Appends to contest `$cid`'s record within `$tx` (which holds it) a
/// delete for each organization and group the record shows that none of
/// `$teams` (a [`super::affiliations::ContestTeams`]) is in any more: after the teams' updates,
/// so no team names what is gone.
macro_rules! drop_stale {
    ($tx:ident, $d:ident, $cid:expr, $teams:expr) => {{
        let cid: i64 = $cid;
        let teams: &$crate::store::affiliations::ContestTeams = $teams;
        let mut gone = Vec::new();
        for kind in ["teams", "groups", "organizations"] {
            let shown = sqlx::query_scalar::<_, String>(&$crate::store::db::sql(
                $d,
                "SELECT e.object_id FROM contest_events e
                 WHERE e.contest_id = ?1 AND e.kind = ?2 AND e.data IS NOT NULL
                   AND e.seq = (SELECT MAX(f.seq) FROM contest_events f
                                WHERE f.contest_id = ?1 AND f.kind = ?2
                                  AND f.object_id = e.object_id)
                 ORDER BY e.seq",
            ))
            .bind(cid)
            .bind(kind)
            .fetch_all(&mut *$tx)
            .await?;
            for id in shown {
                let present = match kind {
                    "teams" => teams.teams.iter().any(|t| t.team_id == id),
                    "groups" => teams.groups.iter().any(|g| g.id == id),
                    _ => teams.organizations.iter().any(|o| o.id == id),
                };
                if !present {
                    gone.push($crate::store::record::NewEvent {
                        kind,
                        id: Some(id),
                        data: None,
                        audience: $crate::store::record::Audience::All,
                    });
                }
            }
        }
        $crate::store::record::append_events!($tx, $d, cid, &gone);
    }};
}
pub(super) use drop_stale;

/// Records a change of account `$user` within `$tx`: in every contest
/// open to all whose results are not final, the team is there (enabled,
/// not an admin, with its organization and groups) or gone, and the
/// awards that moves.
macro_rules! record_account {
    ($tx:ident, $d:ident, $user:expr) => {{
        let user: i64 = $user;
        let open = sqlx::query_scalar::<_, i64>(&$crate::store::db::sql(
            $d,
            "SELECT id FROM contests WHERE open_to_all ORDER BY id",
        ))
        .fetch_all(&mut *$tx)
        .await?;
        for cid in open {
            if let Some(c) = $crate::store::record::locked_contest!($tx, $d, cid) {
                if c.finalized_ms.is_some() {
                    continue;
                }
                let teams = $crate::store::affiliations::teams_in!($tx, $d, cid, true);
                let team_id = $crate::store::affiliations::team_id_of!($tx, $d, Some(user))
                    .unwrap_or_else(|| user.to_string());
                let mut events: Vec<$crate::store::record::NewEvent> = teams
                    .events()
                    .into_iter()
                    .filter(|e| e.kind != "teams" || e.id.as_deref() == Some(team_id.as_str()))
                    .collect();
                if !teams.teams.iter().any(|t| t.id == user) {
                    events.push($crate::store::affiliations::team_gone(&team_id));
                }
                $crate::store::rosters::append_changed!($tx, $d, cid, events);
                $crate::store::rosters::drop_stale!($tx, $d, cid, &teams);
                $crate::store::awards::record_awards!($tx, $d, cid);
            }
        }
    }};
}
pub(super) use record_account;

/// Retells, within `$tx`, to everyone but the admins the tries of account
/// `$user` in contest `$c` (held by `$tx`) now that its team is hidden
/// (`$hidden`: each object they hold of them is deleted for them) or shown
/// again (each is sent again as the admins hold it, a result the freeze
/// still hides sealed for the team until the thaw, as any other).
macro_rules! retell_tries {
    ($tx:ident, $d:ident, $c:expr, $user:expr, $hidden:expr) => {{
        let c: &$crate::contest::Contest = $c;
        let user: i64 = $user;
        let hidden: bool = $hidden;
        let tries: std::collections::HashMap<i64, String> =
            sqlx::query_as::<_, (i64, String)>(&$crate::store::db::sql(
                $d,
                "SELECT id, submitted_at FROM submissions WHERE contest_id = ? AND user_id = ?",
            ))
            .bind(c.id)
            .bind(user)
            .fetch_all(&mut *$tx)
            .await?
            .into_iter()
            .collect();
        if !tries.is_empty() {
            let rows = sqlx::query_as::<_, (String, Option<String>, Option<String>, String)>(
                &$crate::store::db::sql(
                    $d,
                    "SELECT kind, object_id, data, audience FROM contest_events
                     WHERE contest_id = ?
                       AND kind IN ('submissions', 'judgements', 'runs')
                     ORDER BY seq",
                ),
            )
            .bind(c.id)
            .fetch_all(&mut *$tx)
            .await?;
            // Each object of the user's tries: the latest version the
            // admins hold, and the latest anyone else may hold.
            let mut objects: Vec<(&'static str, String, i64)> = Vec::new();
            let mut admins: std::collections::HashMap<String, Option<String>> = Default::default();
            let mut others: std::collections::HashMap<String, Option<String>> = Default::default();
            for (kind, id, data, audience) in rows {
                let Some(id) = id else { continue };
                let Some(t) = $crate::contest::clics::try_of(&id).filter(|t| tries.contains_key(t))
                else {
                    continue;
                };
                let kind: &'static str = match kind.as_str() {
                    "submissions" => "submissions",
                    "judgements" => "judgements",
                    _ => "runs",
                };
                let key = format!("{kind}/{id}");
                if !admins.contains_key(&key) && !others.contains_key(&key) {
                    objects.push((kind, id.clone(), t));
                }
                if audience != "others" {
                    admins.insert(key.clone(), data.clone());
                }
                if audience != "admin" {
                    others.insert(key, data);
                }
            }
            let now = $crate::store::record::db_now!($tx, $d);
            let mut events = Vec::new();
            for (kind, id, t) in objects {
                let key = format!("{kind}/{id}");
                let seen = others.get(&key).cloned().flatten();
                let held = admins.get(&key).cloned().flatten();
                if hidden {
                    if seen.is_some() {
                        events.push($crate::store::record::NewEvent {
                            kind,
                            id: Some(id),
                            data: None,
                            audience: $crate::store::record::Audience::Others(None),
                        });
                    }
                } else if let Some(data) = held.filter(|h| Some(h) != seen.as_ref()) {
                    let at = tries
                        .get(&t)
                        .and_then(|at| $crate::contest::time::parse_time(at))
                        .unwrap_or(c.start_ms);
                    let audience = if kind == "submissions" {
                        $crate::store::record::Audience::All
                    } else {
                        $crate::store::record::result_audience(c, user, at, now)
                    };
                    events.push($crate::store::record::NewEvent {
                        kind,
                        id: Some(id),
                        data: serde_json::from_str(&data).ok(),
                        audience,
                    });
                }
            }
            $crate::store::record::append_events!($tx, $d, c.id, &events);
        }
    }};
}

pub(super) use retell_tries;

/// Appends, within `$tx`, to the record of every contest whose results
/// are not final the organizations, groups and teams that changed there
/// (a final contest keeps the teams it had), and retells the tries of the
/// accounts hidden or shown (`$flipped`: (account, hidden) pairs); the
/// number of those contests.
macro_rules! record_teams {
    ($tx:ident, $d:ident, $flipped:expr) => {{
        let flipped: &[(i64, bool)] = $flipped;
        let ids = sqlx::query_scalar::<_, i64>(&$crate::store::db::sql(
            $d,
            "SELECT id FROM contests ORDER BY id",
        ))
        .fetch_all(&mut *$tx)
        .await?;
        let mut contests = 0;
        for cid in ids {
            let Some(c) = $crate::store::record::locked_contest!($tx, $d, cid) else {
                continue;
            };
            if c.finalized_ms.is_some() {
                continue;
            }
            let teams = $crate::store::affiliations::teams_in!($tx, $d, cid, c.open_to_all);
            $crate::store::rosters::append_changed!($tx, $d, cid, teams.events());
            $crate::store::rosters::drop_stale!($tx, $d, cid, &teams);
            for &(user, hidden) in flipped {
                $crate::store::rosters::retell_tries!($tx, $d, &c, user, hidden);
            }
            $crate::store::awards::record_awards!($tx, $d, cid);
            contests += 1;
        }
        contests
    }};
}

/// What an import changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Imported {
    pub organizations: usize,
    pub groups: usize,
    pub teams: usize,
    /// Contests whose record got the changes.
    pub contests: usize,
}

impl Store {
    /// Every organization and group, and each account's organization and
    /// groups.
    ///
    /// # Errors
    /// Database failures.
    pub async fn affiliations(
        &self,
    ) -> Result<(Vec<Organization>, Vec<Group>, BTreeMap<i64, Affiliation>), Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let (organizations, groups, members) = all_affiliations!(tx, d);
            let users = sqlx::query_as::<_, (i64, Option<String>)>(&sql(
                d,
                "SELECT id, organization_id FROM users ORDER BY id",
            ))
            .fetch_all(&mut *tx)
            .await?;
            tx.commit().await?;
            let mut by_user: BTreeMap<i64, Affiliation> = users
                .into_iter()
                .map(|(id, org)| (id, (org, Vec::new())))
                .collect();
            for (user, group) in members {
                if let Some(entry) = by_user.get_mut(&user) {
                    entry.1.push(group);
                }
            }
            (organizations, groups, by_user)
        }))
    }

    /// Each team of `contest`'s groups, as (id, name): what its group
    /// awards go by. Only the contest's teams (as [`Store::contest_teams`]
    /// reads them) and their groups: the groups its `/groups` lists.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_team_groups(
        &self,
        contest: &crate::contest::Contest,
    ) -> Result<BTreeMap<i64, Vec<(String, String)>>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let roster = teams_in!(tx, d, contest.id, contest.open_to_all);
            tx.commit().await?;
            roster.team_groups()
        }))
    }

    /// Adds or updates `a`'s organizations and groups and sets its teams'
    /// organization and groups, in one transaction with the record of
    /// every contest whose results are not final (a final contest keeps the
    /// teams it had).
    ///
    /// # Errors
    /// [`Error::BadImport`] for a team with no account, an organization
    /// or group that is neither imported nor known, or a name over its
    /// bound ([`Affiliations::check`]); database failures.
    pub async fn import_affiliations(&self, a: &Affiliations) -> Result<Imported, Error> {
        // Names within their bounds, no id given twice differently.
        a.check().map_err(Error::BadImport)?;
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            for o in &a.organizations {
                sqlx::query(&sql(
                    d,
                    "INSERT INTO organizations (id, name, formal_name, country, icpc_id)
                     VALUES (?, ?, ?, ?, ?)
                     ON CONFLICT (id) DO UPDATE SET name = excluded.name,
                        formal_name = excluded.formal_name, country = excluded.country,
                        icpc_id = excluded.icpc_id",
                ))
                .bind(&o.id)
                .bind(&o.name)
                .bind(&o.formal_name)
                .bind(&o.country)
                .bind(&o.icpc_id)
                .execute(&mut *tx)
                .await?;
            }
            for g in &a.groups {
                sqlx::query(&sql(
                    d,
                    "INSERT INTO team_groups (id, name, icpc_id) VALUES (?, ?, ?)
                     ON CONFLICT (id) DO UPDATE SET name = excluded.name,
                        icpc_id = excluded.icpc_id",
                ))
                .bind(&g.id)
                .bind(&g.name)
                .bind(&g.icpc_id)
                .execute(&mut *tx)
                .await?;
            }
            let mut flipped = Vec::new();
            for t in &a.teams {
                let mut user = None;
                for key in &t.keys {
                    // The team id a registration gave it, then its name.
                    user = sqlx::query_scalar::<_, i64>(&sql(
                        d,
                        "SELECT id FROM users WHERE team_id = ?1
                         UNION ALL SELECT id FROM users WHERE name = ?1 LIMIT 1",
                    ))
                    .bind(key)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if user.is_some() {
                        break;
                    }
                }
                let Some(user) = user else {
                    return Err(Error::BadImport(format!(
                        "team {}: no account named {}; add it first (grundy user add)",
                        t.keys[0],
                        t.keys.iter().map(|k| format!("{k:?}")).collect::<Vec<_>>().join(" or ")
                    )));
                };
                if let Some(org) = &t.organization {
                    let known = sqlx::query_scalar::<_, i64>(&sql(
                        d,
                        "SELECT COUNT(*) FROM organizations WHERE id = ?",
                    ))
                    .bind(org)
                    .fetch_one(&mut *tx)
                    .await?;
                    if known == 0 {
                        return Err(Error::BadImport(format!(
                            "team {}: no organization {org:?} (import organizations.json with it)",
                            t.keys[0]
                        )));
                    }
                }
                if let Some(id) = &t.team_id {
                    keep_team_id!(tx, d, user, id);
                }
                if let Some(hidden) = t.hidden {
                    let was = sqlx::query_scalar::<_, bool>(&sql(
                        d,
                        "SELECT hidden FROM users WHERE id = ?",
                    ))
                    .bind(user)
                    .fetch_one(&mut *tx)
                    .await?;
                    if was != hidden {
                        flipped.push((user, hidden));
                    }
                }
                sqlx::query(&sql(
                    d,
                    "UPDATE users SET organization_id = ?, icpc_id = COALESCE(?, icpc_id),
                                      hidden = COALESCE(?, hidden)
                     WHERE id = ?",
                ))
                .bind(&t.organization)
                .bind(&t.icpc_id)
                .bind(t.hidden)
                .bind(user)
                .execute(&mut *tx)
                .await?;
                sqlx::query(&sql(d, "DELETE FROM group_members WHERE user_id = ?"))
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                for g in &t.groups {
                    let known = sqlx::query_scalar::<_, i64>(&sql(
                        d,
                        "SELECT COUNT(*) FROM team_groups WHERE id = ?",
                    ))
                    .bind(g)
                    .fetch_one(&mut *tx)
                    .await?;
                    if known == 0 {
                        return Err(Error::BadImport(format!(
                            "team {}: no group {g:?} (import groups.json with it)",
                            t.keys[0]
                        )));
                    }
                    sqlx::query(&sql(
                        d,
                        "INSERT INTO group_members (group_id, user_id) VALUES (?, ?)
                         ON CONFLICT DO NOTHING",
                    ))
                    .bind(g)
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
                }
            }
            let contests = record_teams!(tx, d, &flipped);
            tx.commit().await?;
            Imported {
                organizations: a.organizations.len(),
                groups: a.groups.len(),
                teams: a.teams.len(),
                contests,
            }
        }))
    }

    /// The CLICS id of account `user`'s team: its registration's, else its
    /// account number; `None` for no such account.
    ///
    /// # Errors
    /// Database failures.
    pub async fn team_id_of(&self, user: i64) -> Result<Option<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let id = team_id_of!(tx, d, Some(user));
            tx.commit().await?;
            id
        }))
    }

    /// Hides account `name`'s team from the board, the awards and
    /// everyone but the admins (`hidden`), or shows it again, in one
    /// transaction with the record of every contest whose results are not
    /// final; `false` when there is no such account.
    ///
    /// # Errors
    /// Database failures.
    pub async fn set_hidden(&self, name: &str, hidden: bool) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let was = sqlx::query_as::<_, (i64, bool)>(&sql(
                d,
                "SELECT id, hidden FROM users WHERE name = ?",
            ))
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?;
            match was {
                None => false,
                Some((_, was)) if was == hidden => true,
                Some((user, _)) => {
                    sqlx::query(&sql(d, "UPDATE users SET hidden = ? WHERE id = ?"))
                        .bind(hidden)
                        .bind(user)
                        .execute(&mut *tx)
                        .await?;
                    record_teams!(tx, d, &[(user, hidden)]);
                    tx.commit().await?;
                    true
                }
            }
        }))
    }
}
