//! Organizations, groups and the teams in them: kept for the site (as
//! accounts are), shown per contest for the contest's teams. An import
//! changes them in one transaction that also appends, to the record of
//! every contest whose updates have not ended, the organizations, groups
//! and teams that changed there: a feed sees a team's new organization in
//! the same order as everything else, and never a team before the
//! organization it names.

use std::collections::BTreeMap;

use crate::contest::affiliation::{Group, Organization};

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

/// A team's row as [`super::record::teams_in`] reads it: account, CLICS id, name,
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
