//! Organizations, groups and the teams in them: kept for the site (as
//! accounts are), shown per contest for the contest's teams. An import
//! changes them in one transaction that also appends, to the record of
//! every contest whose updates have not ended, the organizations, groups
//! and teams that changed there: a feed sees a team's new organization in
//! the same order as everything else, and never a team before the
//! organization it names.

use std::collections::BTreeMap;

use super::record::{Audience, NewEvent};
use crate::contest::affiliation::{Group, Organization};
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
/// as [`super::Store::contest_teams`] reads them, with their organizations and
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
/// [`super::Error::BadImport`] naming the team.
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

pub(super) use keep_team_id;
