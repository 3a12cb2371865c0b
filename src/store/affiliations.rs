//! Organizations, groups and the teams in them: kept for the site (as
//! accounts are), shown per contest for the contest's teams. An import
//! changes them in one transaction that also appends, to the record of
//! every contest whose updates have not ended, the organizations, groups
//! and teams that changed there: a feed sees a team's new organization in
//! the same order as everything else, and never a team before the
//! organization it names.

use std::collections::BTreeMap;

use super::db::{on_db, sql};
use super::record::{Audience, NewEvent};
use super::{Error, Store};
use crate::contest::affiliation::{Affiliations, Group, Organization};
use crate::contest::clics;

/// An account's organization (its id) and groups (their ids).
pub type Affiliation = (Option<String>, Vec<String>);

/// A team of a contest: an account, with its organization and groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamRow {
    /// Its account.
    pub id: i64,
    /// Its CLICS id: its registration's, else its account number.
    pub team_id: String,
    pub name: String,
    pub organization: Option<String>,
    pub groups: Vec<String>,
    pub icpc_id: Option<String>,
    /// Off the board and out of the public's sight.
    pub hidden: bool,
}

/// A team's row as [`teams_in!`] reads it: account, CLICS id, name,
/// organization, ICPC id, hidden.
pub(super) type TeamFields = (i64, String, String, Option<String>, Option<String>, bool);

/// A contest's teams, and the organizations and groups they are in.
#[derive(Debug, Clone, Default)]
pub struct ContestTeams {
    pub teams: Vec<TeamRow>,
    pub organizations: Vec<Organization>,
    pub groups: Vec<Group>,
}

impl ContestTeams {
    /// Builds the teams from `(id, name, organization)` rows and
    /// `(user, group)` memberships, keeping the organizations and groups
    /// (of `all_*`) that they name.
    pub(super) fn of(
        rows: Vec<TeamFields>,
        members: &[(i64, String)],
        all_organizations: Vec<Organization>,
        all_groups: Vec<Group>,
    ) -> ContestTeams {
        let teams: Vec<TeamRow> = rows
            .into_iter()
            .map(
                |(id, team_id, name, organization, icpc_id, hidden)| TeamRow {
                    groups: members
                        .iter()
                        .filter(|(u, _)| *u == id)
                        .map(|(_, g)| g.clone())
                        .collect(),
                    id,
                    team_id,
                    name,
                    organization,
                    icpc_id,
                    hidden,
                },
            )
            .collect();
        let organizations = all_organizations
            .into_iter()
            .filter(|o| teams.iter().any(|t| t.organization.as_ref() == Some(&o.id)))
            .collect();
        let groups = all_groups
            .into_iter()
            .filter(|g| teams.iter().any(|t| t.groups.contains(&g.id)))
            .collect();
        ContestTeams {
            teams,
            organizations,
            groups,
        }
    }

    /// Each team's groups, as (id, name): what group awards go by.
    pub fn team_groups(&self) -> BTreeMap<i64, Vec<(String, String)>> {
        group_names(
            &self.groups,
            self.teams.iter().map(|t| (t.id, t.groups.as_slice())),
        )
    }

    /// The events that show them: organizations and groups first, then
    /// the teams that name them.
    pub fn events(&self) -> Vec<NewEvent> {
        let mut out: Vec<NewEvent> = self
            .organizations
            .iter()
            .map(|o| NewEvent::of("organizations", clics::organization(o), Audience::All))
            .collect();
        out.extend(
            self.groups
                .iter()
                .map(|g| NewEvent::of("groups", clics::group(g), Audience::All)),
        );
        out.extend(self.teams.iter().flat_map(team_events));
        out
    }
}

/// Teams' groups by id as (id, name), for `teams` (team, group ids).
fn group_names<'a>(
    groups: &[Group],
    teams: impl Iterator<Item = (i64, &'a [String])>,
) -> BTreeMap<i64, Vec<(String, String)>> {
    teams
        .map(|(team, ids)| {
            let named = ids
                .iter()
                .filter_map(|id| groups.iter().find(|g| &g.id == id))
                .map(|g| (g.id.clone(), g.name.clone()))
                .collect();
            (team, named)
        })
        .collect()
}

/// A team's events: its object for everyone; or, for a hidden team, its
/// object for the admins and its absence for everyone else (who never see
/// a hidden team).
pub(super) fn team_events(t: &TeamRow) -> Vec<NewEvent> {
    let object = clics::team(&clics::TeamObject {
        id: &t.team_id,
        name: &t.name,
        organization: t.organization.as_deref(),
        groups: &t.groups,
        icpc_id: t.icpc_id.as_deref(),
        hidden: t.hidden,
    });
    if t.hidden {
        vec![
            NewEvent {
                audience: Audience::Others(None),
                ..team_gone(&t.team_id)
            },
            NewEvent::of("teams", object, Audience::Admin),
        ]
    } else {
        vec![NewEvent::of("teams", object, Audience::All)]
    }
}

/// The event of team `team_id` (its CLICS id) gone.
pub(super) fn team_gone(team_id: &str) -> NewEvent {
    NewEvent {
        kind: "teams",
        id: Some(team_id.to_string()),
        data: None,
        audience: Audience::All,
    }
}

/// The CLICS id of account `$user` (an `Option<i64>`) within `$tx`.
macro_rules! team_id_of {
    ($tx:ident, $d:ident, $user:expr) => {{
        let user: Option<i64> = $user;
        match user {
            None => None,
            Some(user) => {
                sqlx::query_scalar::<_, String>(&$crate::store::db::sql(
                    $d,
                    "SELECT {team_id} FROM users u WHERE u.id = ?",
                ))
                .bind(user)
                .fetch_optional(&mut *$tx)
                .await?
            }
        }
    }};
}
pub(super) use team_id_of;

/// Every organization and group, and every membership, within `$tx`.
macro_rules! all_affiliations {
    ($tx:ident, $d:ident) => {{
        let organizations = sqlx::query_as::<
            _,
            (String, String, String, Option<String>, Option<String>),
        >(&$crate::store::db::sql(
            $d,
            "SELECT id, name, formal_name, country, icpc_id FROM organizations ORDER BY id",
        ))
        .fetch_all(&mut *$tx)
        .await?
        .into_iter()
        .map(|(id, name, formal_name, country, icpc_id)| {
            $crate::contest::affiliation::Organization {
                id,
                name,
                formal_name,
                country,
                icpc_id,
            }
        })
        .collect::<Vec<_>>();
        let groups = sqlx::query_as::<_, (String, String, Option<String>)>(
            &$crate::store::db::sql($d, "SELECT id, name, icpc_id FROM team_groups ORDER BY id"),
        )
        .fetch_all(&mut *$tx)
        .await?
        .into_iter()
        .map(|(id, name, icpc_id)| $crate::contest::affiliation::Group { id, name, icpc_id })
        .collect::<Vec<_>>();
        let members = sqlx::query_as::<_, (i64, String)>(&$crate::store::db::sql(
            $d,
            "SELECT user_id, group_id FROM group_members ORDER BY group_id",
        ))
        .fetch_all(&mut *$tx)
        .await?;
        (organizations, groups, members)
    }};
}
pub(super) use all_affiliations;

/// The teams of contest `$cid` (open to all or not: `$open`) within `$tx`,
/// as [`Store::contest_teams`] reads them, with their organizations and
/// groups: a [`ContestTeams`].
macro_rules! teams_in {
    ($tx:ident, $d:ident, $cid:expr, $open:expr) => {{
        let rows = sqlx::query_as::<_, $crate::store::affiliations::TeamFields>(&$crate::store::db::sql(
            $d,
            "SELECT u.id, {team_id}, u.name, u.organization_id, u.icpc_id, u.hidden FROM users u
             WHERE (?2 AND NOT u.is_admin AND NOT u.disabled)
                OR u.id IN (SELECT user_id FROM contest_participants WHERE contest_id = ?1)
                OR (u.id IN (SELECT user_id FROM submissions WHERE contest_id = ?1)
                     AND NOT u.is_admin)
             ORDER BY u.name",
        ))
        .bind($cid)
        .bind($open)
        .fetch_all(&mut *$tx)
        .await?;
        let (organizations, groups, members) =
            $crate::store::affiliations::all_affiliations!($tx, $d);
        $crate::store::affiliations::ContestTeams::of(rows, &members, organizations, groups)
    }};
}
pub(super) use teams_in;

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
/// `$teams` (a [`ContestTeams`]) is in any more: after the teams' updates,
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
                $crate::store::affiliations::append_changed!($tx, $d, cid, events);
                $crate::store::affiliations::drop_stale!($tx, $d, cid, &teams);
                $crate::store::awards::record_awards!($tx, $d, cid);
            }
        }
    }};
}
pub(super) use record_account;

/// Gives new account `$user` (just inserted in `$tx`) a CLICS id of its
/// own where its number, the id an account has by default, is already a
/// registration's id for another team: `u<number>`, then `u<number>-2`,
/// ... (no two teams ever share an id, whatever order accounts are made
/// and imported in).
macro_rules! own_team_id {
    ($tx:ident, $d:ident, $user:expr) => {{
        let user: i64 = $user;
        let mut id = user.to_string();
        let mut n = 1;
        loop {
            let holder = sqlx::query_scalar::<_, i64>(&$crate::store::db::sql(
                $d,
                "SELECT u.id FROM users u WHERE {team_id} = ? AND u.id <> ? LIMIT 1",
            ))
            .bind(&id)
            .bind(user)
            .fetch_optional(&mut *$tx)
            .await?;
            if holder.is_none() {
                break;
            }
            id = match n {
                1 => format!("u{user}"),
                _ => format!("u{user}-{n}"),
            };
            n += 1;
        }
        if id != user.to_string() {
            sqlx::query(&$crate::store::db::sql(
                $d,
                "UPDATE users SET team_id = ? WHERE id = ?",
            ))
            .bind(&id)
            .bind(user)
            .execute(&mut *$tx)
            .await?;
        }
    }};
}
pub(super) use own_team_id;

/// Sets the CLICS id of account `$user` to `$id` (a `&String`) within
/// `$tx`, unless it is that already. An id that reached a record never
/// changes under it, and no two teams share one: either returns
/// [`Error::BadImport`] naming the team.
macro_rules! keep_team_id {
    ($tx:ident, $d:ident, $user:expr, $id:expr) => {{
        let user: i64 = $user;
        let id: &String = $id;
        let (name, now) = sqlx::query_as::<_, (String, String)>(&$crate::store::db::sql(
            $d,
            "SELECT u.name, {team_id} FROM users u WHERE u.id = ?",
        ))
        .bind(user)
        .fetch_one(&mut *$tx)
        .await?;
        if now != *id {
            let holder = sqlx::query_scalar::<_, String>(&$crate::store::db::sql(
                $d,
                "SELECT u.name FROM users u WHERE {team_id} = ? AND u.id <> ? LIMIT 1",
            ))
            .bind(id)
            .bind(user)
            .fetch_optional(&mut *$tx)
            .await?;
            if let Some(holder) = holder {
                return Err(Error::BadImport(format!(
                    "team {id}: account {holder} already has the id {id:?}; nothing was imported"
                )));
            }
            let recorded = sqlx::query_scalar::<_, String>(&$crate::store::db::sql(
                $d,
                "SELECT c.slug FROM contests c
                 WHERE c.id IN (SELECT contest_id FROM submissions WHERE user_id = ?1)
                    OR c.id IN (SELECT contest_id FROM clarifications WHERE user_id = ?1)
                 ORDER BY c.id LIMIT 1",
            ))
            .bind(user)
            .fetch_optional(&mut *$tx)
            .await?;
            if let Some(slug) = recorded {
                return Err(Error::BadImport(format!(
                    "team {id}: account {name} is team {now} in the record of contest {slug}, \
                     which keeps that id; nothing was imported"
                )));
            }
            sqlx::query(&$crate::store::db::sql(
                $d,
                "UPDATE users SET team_id = ? WHERE id = ?",
            ))
            .bind(id)
            .bind(user)
            .execute(&mut *$tx)
            .await?;
        }
    }};
}

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
            $crate::store::affiliations::append_changed!($tx, $d, cid, teams.events());
            $crate::store::affiliations::drop_stale!($tx, $d, cid, &teams);
            for &(user, hidden) in flipped {
                $crate::store::affiliations::retell_tries!($tx, $d, &c, user, hidden);
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
