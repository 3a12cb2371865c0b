//! The teams' events, with their organizations and groups: what an
//! account's change, an import and a hidden team append to every contest
//! they touch, and the CLICS ids that a record, once it names them, keeps.

use super::{append, audience_text, db_now, locked_contest, record_awards, Audience, NewEvent};
use crate::contest::{clics, Contest};
use crate::store::affiliations::{ContestTeams, TeamFields, TeamRow};
use crate::store::db::{on_tx, sql, AsTx, Tx};
use crate::store::Error;

/// Appends to contest `cid`'s record within `tx` (which holds it) those
/// of `events` whose object differs from the record's latest version of
/// it that the event's readers hold: an import that changes one team
/// writes one team. (An event for everyone is compared with the latest of
/// any audience, so a team shown again after it was hidden is written.)
pub(in crate::store) async fn append_changed(
    tx: Tx<'_>,
    cid: i64,
    events: Vec<NewEvent>,
) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let mut changed = Vec::new();
        for e in events {
            let latest = sqlx::query_scalar::<_, Option<String>>(&sql(
                d,
                "SELECT data FROM contest_events
                 WHERE contest_id = ?1 AND kind = ?2 AND object_id = ?3
                   AND (?4 = 'all' OR audience = 'all' OR audience = ?4)
                 ORDER BY seq DESC LIMIT 1",
            ))
            .bind(cid)
            .bind(e.kind)
            .bind(e.id.as_deref())
            .bind(audience_text(e.audience))
            .fetch_optional(&mut *conn)
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
        append(conn.as_tx(), cid, &changed).await?;
    });
    Ok(())
}

/// Appends to contest `cid`'s record within `tx` (which holds it) a
/// delete for each organization and group the record shows that none of
/// `teams` (a [`ContestTeams`]) is in any more: after the teams' updates,
/// so no team names what is gone.
pub(in crate::store) async fn drop_stale(
    tx: Tx<'_>,
    cid: i64,
    teams: &ContestTeams,
) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let mut gone = Vec::new();
        for kind in ["teams", "groups", "organizations"] {
            let shown = sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT e.object_id FROM contest_events e
                 WHERE e.contest_id = ?1 AND e.kind = ?2 AND e.data IS NOT NULL
                   AND e.seq = (SELECT MAX(f.seq) FROM contest_events f
                                WHERE f.contest_id = ?1 AND f.kind = ?2
                                  AND f.object_id = e.object_id)
                 ORDER BY e.seq",
            ))
            .bind(cid)
            .bind(kind)
            .fetch_all(&mut *conn)
            .await?;
            for id in shown {
                let present = match kind {
                    "teams" => teams.teams.iter().any(|t| t.team_id == id),
                    "groups" => teams.groups.iter().any(|g| g.id == id),
                    _ => teams.organizations.iter().any(|o| o.id == id),
                };
                if !present {
                    gone.push(NewEvent {
                        kind,
                        id: Some(id),
                        data: None,
                        audience: Audience::All,
                    });
                }
            }
        }
        append(conn.as_tx(), cid, &gone).await?;
    });
    Ok(())
}

/// Records a change of account `user` within `tx`: in every contest
/// whose results are not final and that is open to all, lists the
/// account or holds its tries, the team is there (by [`teams_in`]'s rule,
/// with its organization and groups) or gone, and the awards that moves.
/// The team's tries follow it: a team gone (an account made admin) takes
/// them from every reader ([`super::tries_gone`]), and one that comes
/// (an admin made a team again) brings them as they stand.
pub(in crate::store) async fn record_account(tx: Tx<'_>, user: i64) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let concerned = sqlx::query_scalar::<_, i64>(&sql(
            d,
            "SELECT id FROM contests
             WHERE open_to_all
                OR id IN (SELECT contest_id FROM contest_participants WHERE user_id = ?1)
                OR id IN (SELECT contest_id FROM submissions WHERE user_id = ?1)
             ORDER BY id",
        ))
        .bind(user)
        .fetch_all(&mut *conn)
        .await?;
        for cid in concerned {
            if let Some(c) = locked_contest(conn.as_tx(), cid).await? {
                if c.finalized_ms.is_some() {
                    continue;
                }
                let teams = teams_in(conn.as_tx(), cid, c.open_to_all).await?;
                let team_id = team_id_of(conn.as_tx(), Some(user)).await?
                    .unwrap_or_else(|| user.to_string());
                let was = team_shown(conn.as_tx(), cid, &team_id).await?;
                let is = teams.teams.iter().any(|t| t.id == user);
                let tries = if was != is {
                    super::tries_of(conn.as_tx(), cid, user).await?
                } else {
                    Vec::new()
                };
                let mut events: Vec<NewEvent> = Vec::new();
                if was && !is {
                    let gone = tries.iter().copied().collect();
                    events.extend(super::tries_gone(conn.as_tx(), cid, &gone).await?);
                }
                events.extend(
                    roster_events(&teams)
                        .into_iter()
                        .filter(|e| e.kind != "teams" || e.id.as_deref() == Some(team_id.as_str())),
                );
                if !is {
                    events.push(team_gone(&team_id));
                }
                append_changed(conn.as_tx(), cid, events).await?;
                drop_stale(conn.as_tx(), cid, &teams).await?;
                if is && !was {
                    super::tell_tries(conn.as_tx(), &tries).await?;
                }
                record_awards(conn.as_tx(), cid, None).await?;
            }
        }
    });
    Ok(())
}

/// Whether contest `cid`'s record shows team `team_id` to its admins now
/// (its latest event there holds it); within `tx`.
async fn team_shown(tx: Tx<'_>, cid: i64, team_id: &str) -> Result<bool, Error> {
    Ok(on_tx!(tx, conn, d => {
        sqlx::query_scalar::<_, bool>(&sql(
            d,
            "SELECT data IS NOT NULL FROM contest_events
             WHERE contest_id = ? AND kind = 'teams' AND object_id = ? AND audience <> 'others'
             ORDER BY seq DESC LIMIT 1",
        ))
        .bind(cid)
        .bind(team_id)
        .fetch_optional(&mut *conn)
        .await?
        .unwrap_or(false)
    }))
}

/// Retells, within `tx`, to everyone but the admins the tries of account
/// `user` in contest `c` (held by `tx`) now that its team is hidden
/// (`hidden`: each object they hold of them is deleted for them) or shown
/// again (each is sent again as the admins hold it, a result the freeze
/// still hides sealed for the team until the thaw, as any other).
pub(in crate::store) async fn retell_tries(
    tx: Tx<'_>,
    c: &Contest,
    user: i64,
    hidden: bool,
) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let tries: std::collections::HashMap<i64, String> =
            sqlx::query_as::<_, (i64, String)>(&sql(
                d,
                "SELECT id, submitted_at FROM submissions WHERE contest_id = ? AND user_id = ?",
            ))
            .bind(c.id)
            .bind(user)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .collect();
        if !tries.is_empty() {
            let rows = sqlx::query_as::<_, (String, Option<String>, Option<String>, String)>(
                &sql(
                    d,
                    "SELECT kind, object_id, data, audience FROM contest_events
                     WHERE contest_id = ?
                       AND kind IN ('submissions', 'judgements', 'runs')
                     ORDER BY seq",
                ),
            )
            .bind(c.id)
            .fetch_all(&mut *conn)
            .await?;
            // Each object of the user's tries: the latest version the
            // admins hold, and the latest anyone else may hold.
            let mut objects: Vec<(&'static str, String, i64)> = Vec::new();
            let mut admins: std::collections::HashMap<String, Option<String>> = Default::default();
            let mut others: std::collections::HashMap<String, Option<String>> = Default::default();
            for (kind, id, data, audience) in rows {
                let Some(id) = id else { continue };
                let Some(t) = crate::contest::clics::try_of(&id).filter(|t| tries.contains_key(t))
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
            let now = db_now(conn.as_tx()).await?;
            let mut events = Vec::new();
            for (kind, id, t) in objects {
                let key = format!("{kind}/{id}");
                let seen = others.get(&key).cloned().flatten();
                let held = admins.get(&key).cloned().flatten();
                if hidden {
                    if seen.is_some() {
                        events.push(NewEvent {
                            kind,
                            id: Some(id),
                            data: None,
                            audience: Audience::Others(None),
                        });
                    }
                } else if let Some(data) = held.filter(|h| Some(h) != seen.as_ref()) {
                    let at = tries
                        .get(&t)
                        .and_then(|at| crate::contest::time::parse_time(at))
                        .unwrap_or(c.start_ms);
                    let audience = if kind == "submissions" {
                        Audience::All
                    } else {
                        super::tries::result_audience(c, user, at, now)
                    };
                    events.push(NewEvent {
                        kind,
                        id: Some(id),
                        data: serde_json::from_str(&data).ok(),
                        audience,
                    });
                }
            }
            append(conn.as_tx(), c.id, &events).await?;
        }
    });
    Ok(())
}

/// Appends, within `tx`, to the record of every contest whose results
/// are not final the organizations, groups and teams that changed there
/// (a final contest keeps the teams it had), and retells the tries of the
/// accounts hidden or shown (`flipped`: (account, hidden) pairs); the
/// number of those contests.
pub(in crate::store) async fn record_teams(
    tx: Tx<'_>,
    flipped: &[(i64, bool)],
) -> Result<usize, Error> {
    Ok(on_tx!(tx, conn, d => {
        let ids = sqlx::query_scalar::<_, i64>(&sql(
            d,
            "SELECT id FROM contests ORDER BY id",
        ))
        .fetch_all(&mut *conn)
        .await?;
        let mut contests = 0;
        for cid in ids {
            let Some(c) = locked_contest(conn.as_tx(), cid).await? else {
                continue;
            };
            if c.finalized_ms.is_some() {
                continue;
            }
            let teams = teams_in(conn.as_tx(), cid, c.open_to_all).await?;
            append_changed(conn.as_tx(), cid, roster_events(&teams)).await?;
            drop_stale(conn.as_tx(), cid, &teams).await?;
            for &(user, hidden) in flipped {
                retell_tries(conn.as_tx(), &c, user, hidden).await?;
            }
            record_awards(conn.as_tx(), cid, None).await?;
            contests += 1;
        }
        contests
    }))
}

/// The events that show `roster`: organizations and groups first, then
/// the teams that name them.
pub(in crate::store) fn roster_events(roster: &ContestTeams) -> Vec<NewEvent> {
    let mut out: Vec<NewEvent> = roster
        .organizations
        .iter()
        .map(|o| NewEvent::of("organizations", clics::organization(o), Audience::All))
        .collect();
    out.extend(
        roster
            .groups
            .iter()
            .map(|g| NewEvent::of("groups", clics::group(g), Audience::All)),
    );
    out.extend(roster.teams.iter().flat_map(team_events));
    out
}

/// A team's events: its object for everyone; or, for a hidden team, its
/// object for the admins and its absence for everyone else (who never see
/// a hidden team).
fn team_events(t: &TeamRow) -> Vec<NewEvent> {
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
pub(in crate::store) fn team_gone(team_id: &str) -> NewEvent {
    NewEvent {
        kind: "teams",
        id: Some(team_id.to_string()),
        data: None,
        audience: Audience::All,
    }
}

/// The CLICS id of account `user` (an `Option<i64>`) within `tx`.
pub(in crate::store) async fn team_id_of(
    tx: Tx<'_>,
    user: Option<i64>,
) -> Result<Option<String>, Error> {
    Ok(on_tx!(tx, conn, d => {
        match user {
            None => None,
            Some(user) => {
                sqlx::query_scalar::<_, String>(&sql(
                    d,
                    "SELECT {team_id} FROM users u WHERE u.id = ?",
                ))
                .bind(user)
                .fetch_optional(&mut *conn)
                .await?
            }
        }
    }))
}

/// Every organization and group, and every membership, within `tx`.
pub(in crate::store) async fn all_affiliations(
    tx: Tx<'_>,
) -> Result<
    (
        Vec<crate::contest::affiliation::Organization>,
        Vec<crate::contest::affiliation::Group>,
        Vec<(i64, String)>,
    ),
    Error,
> {
    Ok(on_tx!(tx, conn, d => {
        let organizations = sqlx::query_as::<
            _,
            (String, String, String, Option<String>, Option<String>),
        >(&sql(
            d,
            "SELECT id, name, formal_name, country, icpc_id FROM organizations ORDER BY id",
        ))
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|(id, name, formal_name, country, icpc_id)| {
            crate::contest::affiliation::Organization {
                id,
                name,
                formal_name,
                country,
                icpc_id,
            }
        })
        .collect::<Vec<_>>();
        let groups = sqlx::query_as::<_, (String, String, Option<String>)>(
            &sql(d, "SELECT id, name, icpc_id FROM team_groups ORDER BY id"),
        )
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|(id, name, icpc_id)| crate::contest::affiliation::Group { id, name, icpc_id })
        .collect::<Vec<_>>();
        let members = sqlx::query_as::<_, (i64, String)>(&sql(
            d,
            "SELECT user_id, group_id FROM group_members ORDER BY group_id",
        ))
        .fetch_all(&mut *conn)
        .await?;
        (organizations, groups, members)
    }))
}

/// The teams of contest `cid` (open to all or not: `open`) within `tx`,
/// as [`crate::store::Store::contest_teams`] reads them, with their organizations and
/// groups: a [`ContestTeams`].
pub(in crate::store) async fn teams_in(
    tx: Tx<'_>,
    cid: i64,
    open: bool,
) -> Result<ContestTeams, Error> {
    Ok(on_tx!(tx, conn, d => {
        let rows = sqlx::query_as::<_, TeamFields>(&sql(
            d,
            "SELECT u.id, {team_id}, u.name, u.organization_id, u.icpc_id, u.hidden FROM users u
             WHERE {is_team} ORDER BY u.name",
        ))
        .bind(cid)
        .bind(open)
        .fetch_all(&mut *conn)
        .await?;
        let (organizations, groups, members) =
            all_affiliations(conn.as_tx()).await?;
        ContestTeams::of(rows, &members, organizations, groups)
    }))
}

/// Gives new account `user` (just inserted in `tx`) a CLICS id of its
/// own where its number, the id an account has by default, is already a
/// registration's id for another team: `u<number>`, then `u<number>-2`,
/// ... (no two teams ever share an id, whatever order accounts are made
/// and imported in).
pub(in crate::store) async fn own_team_id(tx: Tx<'_>, user: i64) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let mut id = user.to_string();
        let mut n = 1;
        loop {
            let holder = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT u.id FROM users u WHERE {team_id} = ? AND u.id <> ? LIMIT 1",
            ))
            .bind(&id)
            .bind(user)
            .fetch_optional(&mut *conn)
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
            sqlx::query(&sql(
                d,
                "UPDATE users SET team_id = ? WHERE id = ?",
            ))
            .bind(&id)
            .bind(user)
            .execute(&mut *conn)
            .await?;
        }
    });
    Ok(())
}

/// Sets the CLICS id of account `user` to `id` (a `&String`) within
/// `tx`, unless it is that already. An id that reached a record never
/// changes under it, and no two teams share one: either returns
/// [`super::Error::BadImport`] naming the team.
pub(in crate::store) async fn keep_team_id(
    tx: Tx<'_>,
    user: i64,
    id: &String,
) -> Result<(), Error> {
    on_tx!(tx, conn, d => {
        let (name, now) = sqlx::query_as::<_, (String, String)>(&sql(
            d,
            "SELECT u.name, {team_id} FROM users u WHERE u.id = ?",
        ))
        .bind(user)
        .fetch_one(&mut *conn)
        .await?;
        if now != *id {
            let holder = sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT u.name FROM users u WHERE {team_id} = ? AND u.id <> ? LIMIT 1",
            ))
            .bind(id)
            .bind(user)
            .fetch_optional(&mut *conn)
            .await?;
            if let Some(holder) = holder {
                return Err(Error::BadImport(format!(
                    "team {id}: account {holder} already has the id {id:?}; nothing was imported"
                )));
            }
            let recorded = sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT c.slug FROM contests c
                 WHERE c.id IN (SELECT contest_id FROM submissions WHERE user_id = ?1)
                    OR c.id IN (SELECT contest_id FROM clarifications WHERE user_id = ?1)
                 ORDER BY c.id LIMIT 1",
            ))
            .bind(user)
            .fetch_optional(&mut *conn)
            .await?;
            if let Some(slug) = recorded {
                return Err(Error::BadImport(format!(
                    "team {id}: account {name} is team {now} in the record of contest {slug}, \
                     which keeps that id; nothing was imported"
                )));
            }
            sqlx::query(&sql(
                d,
                "UPDATE users SET team_id = ? WHERE id = ?",
            ))
            .bind(id)
            .bind(user)
            .execute(&mut *conn)
            .await?;
        }
    });
    Ok(())
}
