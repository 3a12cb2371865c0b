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

use super::affiliations::Affiliation;
use super::db::{on_db, on_tx, sql, AsTx, Tx};
use super::record;
use super::{Error, Store};
use crate::contest::affiliation::{Affiliations, Group, Organization};

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
            let (organizations, groups, members) = record::all_affiliations(tx.as_tx()).await?;
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
            let roster = record::teams_in(tx.as_tx(), contest.id, contest.open_to_all).await?;
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
        Ok(on_db!(&self.db, pool, _d => {
            let mut tx = pool.begin().await?;
            let imported = import_affiliations_in(tx.as_tx(), a).await?;
            tx.commit().await?;
            imported
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
            let id = record::team_id_of(tx.as_tx(), Some(user)).await?;
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
                    record::record_teams(tx.as_tx(), &[(user, hidden)]).await?;
                    tx.commit().await?;
                    true
                }
            }
        }))
    }
}

/// [`Store::import_affiliations`] within the caller's transaction.
pub(super) async fn import_affiliations_in(
    tx: Tx<'_>,
    a: &Affiliations,
) -> Result<Imported, Error> {
    // Names within their bounds, no id given twice differently.
    a.check().map_err(Error::BadImport)?;
    Ok(on_tx!(tx, tx, d => {
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
                record::keep_team_id(tx.as_tx(), user, id).await?;
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
        let contests = record::record_teams(tx.as_tx(), &flipped).await?;
        Imported {
            organizations: a.organizations.len(),
            groups: a.groups.len(),
            teams: a.teams.len(),
            contests,
        }
    }))
}
