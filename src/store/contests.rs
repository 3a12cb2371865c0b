//! Contests, their problems and participants, and the submissions made
//! in them (questions to the judges are in `clarifications.rs`), on
//! SQLite or PostgreSQL (see "One method, two databases" in [`super`]).
//! Times are Unix milliseconds.

use std::collections::HashMap;

use super::affiliations::{ContestTeams, TeamRow};
use super::contest_row::{contest_columns, ContestRow};
use super::db::{on_db, on_reader, on_tx, sql, AsTx, Tx};
use super::record::{self, retimed, settings_events, team_gone, Audience, NewEvent};
use super::standing::{
    attempts_of, tries_changed, CONTEST_SUBMISSIONS, EVENTS_AFTER, GROUP_SCORES, MOST_CHANGES,
    SOME_CONTEST_SUBMISSIONS, SOME_GROUP_SCORES,
};
use super::{ContestVersion, Error, Store};
use crate::bounds::Field;
use crate::contest::{Attempt, Contest, Medals, Scoring, Team};

/// A contest to create (or the new settings of one not yet started).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewContest {
    pub slug: String,
    pub name: String,
    pub start_ms: i64,
    pub duration_s: i64,
    pub freeze_s: i64,
    pub penalty_min: i64,
    pub scoring: Scoring,
    /// The medals its awards give.
    pub medals: Medals,
    /// `None`: every signed-in user; else these account names.
    pub participants: Option<Vec<String>>,
    /// (label, catalog slug) in order.
    pub problems: Vec<(String, String)>,
    /// Balloon colours set for this contest: (label, `#rrggbb`).
    pub colors: Vec<(String, String)>,
}

/// A contest submission for lists: who, what, when, and its result.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ContestSubmission {
    pub id: i64,
    pub user_id: i64,
    pub problem: String,
    pub language: String,
    pub submitted_at: String,
    pub status: String,
    pub verdict: Option<String>,
    pub score: Option<i64>,
    pub time_ms: Option<i64>,
    pub finished_at: Option<String>,
}

/// Stores `$new`'s problems and named participants for contest `$id`
/// within transaction `$tx` (a macro: the transaction's type differs
/// between the two databases); returns [`Error::NoUser`] from the
/// enclosing function for an unknown participant.
macro_rules! fill_contest {
    ($tx:ident, $d:ident, $id:expr, $new:expr) => {
        let new: &NewContest = $new;
        for (position, (label, slug)) in new.problems.iter().enumerate() {
            let rgb = new
                .colors
                .iter()
                .find(|(l, _)| l == label)
                .map(|(_, rgb)| rgb);
            sqlx::query(&sql(
                $d,
                "INSERT INTO contest_problems (contest_id, position, label, problem, rgb)
                 VALUES (?, ?, ?, ?, ?)",
            ))
            .bind($id)
            .bind(position as i64)
            .bind(label)
            .bind(slug)
            .bind(rgb)
            .execute(&mut *$tx)
            .await?;
        }
        for name in new.participants.iter().flatten() {
            let done = sqlx::query(&sql(
                $d,
                "INSERT INTO contest_participants (contest_id, user_id)
                 SELECT ?, id FROM users WHERE name = ?",
            ))
            .bind($id)
            .bind(name)
            .execute(&mut *$tx)
            .await?;
            if done.rows_affected() == 0 {
                return Err(Error::NoUser(name.clone()));
            }
        }
    };
}

impl Store {
    /// Creates a contest with its problems and participants; returns its id.
    ///
    /// # Errors
    /// [`Error::ContestExists`] when the slug is taken, [`Error::NoUser`]
    /// for an unknown participant, [`Error::TooLong`] for a name over its
    /// bound; database failures.
    pub async fn create_contest(&self, new: &NewContest, now_ms: i64) -> Result<i64, Error> {
        Field::ContestName.check(&new.name)?;
        Ok(on_db!(&self.db, pool, _d => {
            let mut tx = pool.begin().await?;
            let id = create_contest_in(tx.as_tx(), new, now_ms).await?;
            tx.commit().await?;
            id
        }))
    }

    /// Changes a contest's settings, problems and participants.
    ///
    /// # Errors
    /// As [`Store::create_contest`].
    pub async fn update_contest(&self, id: i64, new: &NewContest) -> Result<(), Error> {
        Field::ContestName.check(&new.name)?;
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(before) = record::locked_contest(tx.as_tx(), id).await? else {
                return Ok(());
            };
            if before.end_of_updates_ms().is_some() {
                return Err(Error::Refused(
                    before.slug,
                    "its results are final and revealed (end of updates): it can no longer change"
                        .into(),
                ));
            }
            let now = record::db_now(tx.as_tx()).await?;
            let (freeze_s, frozen_ms) = before
                .freeze_after_edit(new.start_ms + new.duration_s * 1000, new.freeze_s, now)
                .map_err(|why| Error::Refused(before.slug.clone(), why))?;
            let teams_before = record::teams_in(tx.as_tx(), id, before.open_to_all).await?;
            sqlx::query(&sql(
                d,
                "UPDATE contests SET name = ?, start_ms = ?, duration_s = ?, freeze_s = ?,
                        frozen_ms = ?, penalty_min = ?, scoring = ?, open_to_all = ?,
                        gold_medals = ?, silver_medals = ?, bronze_medals = ? WHERE id = ?",
            ))
            .bind(&new.name)
            .bind(new.start_ms)
            .bind(new.duration_s)
            .bind(freeze_s)
            .bind(frozen_ms)
            .bind(new.penalty_min)
            .bind(new.scoring.as_str())
            .bind(new.participants.is_none())
            .bind(i64::from(new.medals.gold))
            .bind(i64::from(new.medals.silver))
            .bind(i64::from(new.medals.bronze))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            for table in [
                "DELETE FROM contest_problems WHERE contest_id = ?",
                "DELETE FROM contest_participants WHERE contest_id = ?",
            ] {
                sqlx::query(&sql(d, table))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
            }
            fill_contest!(tx, d, id, new);
            if let Some(c) = record::locked_contest(tx.as_tx(), id).await? {
                let teams = record::teams_in(tx.as_tx(), id, c.open_to_all).await?;
                // A begun freeze moved later or removed: what it no longer
                // hides, revealed to everyone who had not read it.
                let mut events = Vec::new();
                if c.start_ms != before.start_ms {
                    // Every contest time counted from the new start.
                    events.extend(record::retimed_events(tx.as_tx(), &c).await?);
                }
                if before.is_frozen(now) {
                    let until = c.freeze_ms().filter(|_| c.is_frozen(now));
                    if until != before.freeze_ms() {
                        let mut revealed = record::revealed_results(tx.as_tx(), id, until).await?;
                        for e in &mut revealed {
                            if let Some(v) = e.data.as_ref().and_then(|v| retimed(v, c.start_ms)) {
                                e.data = Some(v);
                            }
                        }
                        events.extend(revealed);
                    }
                }
                // What is no longer there, deleted; then everything as it is.
                events.extend(before
                    .problems
                    .iter()
                    .filter(|p| c.label_of(&p.slug).is_none())
                    .map(|p| NewEvent {
                        kind: "problems",
                        id: Some(p.slug.clone()),
                        data: None,
                        audience: if now < before.start_ms { Audience::Admin } else { Audience::All },
                    })
                );
                // The tries follow their teams: a team gone takes its
                // tries from every reader, and a new one (an admin listed,
                // a team listed again) brings its tries as they stand.
                let is_team = |teams: &ContestTeams, user: i64| teams.teams.iter().any(|t| t.id == user);
                let gone: Vec<&TeamRow> = teams_before
                    .teams
                    .iter()
                    .filter(|t| !is_team(&teams, t.id))
                    .collect();
                let mut gone_tries = std::collections::HashSet::new();
                for t in &gone {
                    gone_tries.extend(record::tries_of(tx.as_tx(), id, t.id).await?);
                }
                events.extend(record::tries_gone(tx.as_tx(), id, &gone_tries).await?);
                events.extend(gone.iter().map(|t| team_gone(&t.team_id)));
                events.extend(settings_events(&c, record::roster_events(&teams), now));
                record::append(tx.as_tx(), id, &events).await?;
                record::drop_stale(tx.as_tx(), id, &teams).await?;
                for t in teams.teams.iter().filter(|t| !is_team(&teams_before, t.id)) {
                    let tries = record::tries_of(tx.as_tx(), id, t.id).await?;
                    record::tell_tries(tx.as_tx(), &tries).await?;
                }
                // What the new settings make of the standings (the freeze
                // moved, problems or teams gone, the penalty).
                record::record_awards(tx.as_tx(), id, None).await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Deletes contest `id` with its problems, participants,
    /// clarifications and record (which go with it, by their foreign
    /// keys), in one transaction that holds the record, unless submissions
    /// were made in it: then nothing is deleted and their number is
    /// returned (0: deleted, or no such contest).
    ///
    /// # Errors
    /// Database failures.
    pub async fn delete_contest(&self, id: i64) -> Result<usize, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            if record::locked_contest(tx.as_tx(), id).await?.is_none() {
                return Ok(0);
            }
            let n = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT COUNT(*) FROM submissions WHERE contest_id = ?",
            ))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
            if n == 0 {
                sqlx::query(&sql(d, "DELETE FROM contests WHERE id = ?"))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                self.standings.forget(id);
            }
            n as usize
        }))
    }

    /// Every contest, latest start first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contests(&self) -> Result<Vec<Contest>, Error> {
        let rows = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, ContestRow>(&sql(
                d,
                concat!(contest_columns!(), " FROM contests ORDER BY start_ms DESC, id DESC"),
            ))
            .fetch_all(pool)
            .await?
        });
        rows.into_iter().map(ContestRow::into_contest).collect()
    }

    /// One contest by its slug.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest(&self, slug: &str) -> Result<Option<Contest>, Error> {
        self.one_contest(Which::Slug(slug)).await
    }

    /// One contest by its id.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_by_id(&self, id: i64) -> Result<Option<Contest>, Error> {
        self.one_contest(Which::Id(id)).await
    }

    /// The one query of a contest and its problems, by slug or by id.
    async fn one_contest(&self, which: Which<'_>) -> Result<Option<Contest>, Error> {
        let text = match which {
            Which::Slug(_) => concat!(contest_columns!(), " FROM contests WHERE slug = ?"),
            Which::Id(_) => concat!(contest_columns!(), " FROM contests WHERE id = ?"),
        };
        let row = on_reader!(self, db, d => {
            let text = sql(d, text);
            let query = sqlx::query_as::<_, ContestRow>(&text);
            let query = match which {
                Which::Slug(slug) => query.bind(slug),
                Which::Id(id) => query.bind(id),
            };
            query.fetch_optional(db).await?
        });
        row.map(ContestRow::into_contest).transpose()
    }

    /// Shows the scoreboard page to anyone, or to participants and admins only.
    ///
    /// # Errors
    /// Database failures.
    pub async fn set_board_public(&self, id: i64, public: bool) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "UPDATE contests SET board_public = ? WHERE id = ?",
            ))
            .bind(public)
            .bind(id)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(())
    }

    /// The participants of `contest`, by name: the named ones, or for a
    /// contest open to all every enabled account that is not an admin's,
    /// and anyone but an admin who submitted in it (a jury's tries make no
    /// team). Once its results are final it keeps the teams its record
    /// holds, each hidden or not as it was there: hiding an account later
    /// changes no final board.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_teams(&self, contest: &Contest) -> Result<Vec<Team>, Error> {
        let kept: Option<HashMap<String, bool>> = match contest.finalized_ms {
            None => None,
            Some(_) => Some(
                self.contest_objects(contest.id, super::record::Reader::Admin, "teams")
                    .await?
                    .into_iter()
                    .filter_map(|e| {
                        let hidden = e.data.as_ref()?["hidden"].as_bool().unwrap_or(false);
                        Some((e.id?, hidden))
                    })
                    .collect(),
            ),
        };
        let rows = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (i64, String, String, bool)>(&sql(
                d,
                "SELECT u.id, u.name, {team_id}, u.hidden FROM users u
                 WHERE {is_team} ORDER BY u.name",
            ))
            .bind(contest.id)
            .bind(contest.open_to_all)
            .fetch_all(pool)
            .await?
        });
        Ok(rows
            .into_iter()
            .filter_map(|(id, name, team_id, hidden)| {
                let hidden = match &kept {
                    None => hidden,
                    Some(kept) => *kept.get(&team_id)?,
                };
                Some(Team {
                    id,
                    name,
                    team_id,
                    hidden,
                })
            })
            .collect())
    }

    /// Whether account `user_id` takes part in `contest`.
    ///
    /// # Errors
    /// Database failures.
    pub async fn takes_part(&self, contest: &Contest, user_id: i64) -> Result<bool, Error> {
        if contest.open_to_all {
            return Ok(true);
        }
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT COUNT(*) FROM contest_participants WHERE contest_id = ? AND user_id = ?",
            ))
            .bind(contest.id)
            .bind(user_id)
            .fetch_one(pool)
            .await?
        }) > 0)
    }

    /// The contests (not yet started) that hold catalog problem `slug`.
    ///
    /// # Errors
    /// Database failures.
    pub async fn hiding_contests(&self, slug: &str, now_ms: i64) -> Result<Vec<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT c.slug FROM contests c JOIN contest_problems p ON p.contest_id = c.id
                 WHERE p.problem = ? AND c.start_ms > ?",
            ))
            .bind(slug)
            .bind(now_ms)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Every catalog problem in a contest that has not started.
    ///
    /// # Errors
    /// Database failures.
    pub async fn hidden_problems(&self, now_ms: i64) -> Result<Vec<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT DISTINCT p.problem FROM contests c
                 JOIN contest_problems p ON p.contest_id = c.id WHERE c.start_ms > ?",
            ))
            .bind(now_ms)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The contest submission `id` was made in, if any.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_of_submission(&self, id: i64) -> Result<Option<i64>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, Option<i64>>(&sql(
                d,
                "SELECT contest_id FROM submissions WHERE id = ?",
            ))
            .bind(id)
            .fetch_optional(pool)
            .await?
        })
        .flatten())
    }

    /// The submissions of `contest` (of account `user` only, where given),
    /// oldest first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_submissions(
        &self,
        contest: i64,
        user: Option<i64>,
    ) -> Result<Vec<ContestSubmission>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, ContestSubmission>(&sql(d, CONTEST_SUBMISSIONS))
            .bind(contest)
            .bind(user)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Every try of `contest` as the scoreboard reads it, with each
    /// judged try's group scores.
    ///
    /// # Errors
    /// Database failures, or a stored verdict or time that is not one.
    pub async fn contest_attempts(&self, contest: i64) -> Result<Vec<Attempt>, Error> {
        let subs = self.contest_submissions(contest, None).await?;
        let groups = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (i64, String, i64)>(&sql(d, GROUP_SCORES))
                .bind(contest)
                .fetch_all(pool)
                .await?
        });
        attempts_of(subs, groups)
    }

    /// The tries of `contest` (by id) as the scoreboard reads them, of
    /// `ids` only: an id that is none of its tries now (withdrawn, or of
    /// no team) is left out.
    ///
    /// # Errors
    /// As [`Store::contest_attempts`].
    pub async fn contest_attempts_of(
        &self,
        contest: i64,
        ids: &[i64],
    ) -> Result<Vec<Attempt>, Error> {
        let ids = serde_json::to_string(ids).expect("a list of numbers");
        let (subs, groups) = on_reader!(self, db, d => {
            let subs = sqlx::query_as::<_, ContestSubmission>(&sql(d, SOME_CONTEST_SUBMISSIONS))
                .bind(contest)
                .bind(&ids)
                .fetch_all(&mut *db)
                .await?;
            let groups = sqlx::query_as::<_, (i64, String, i64)>(&sql(d, SOME_GROUP_SCORES))
                .bind(contest)
                .bind(&ids)
                .fetch_all(db)
                .await?;
            (subs, groups)
        });
        attempts_of(subs, groups)
    }

    /// The tries of `contest` whose record changed after version `since`,
    /// by id, when its record says nothing else changed since (no team,
    /// setting, problem or state): what a standing kept at `since` needs
    /// to read again. `None` when something else changed, or more than
    /// reading everything again would cost.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_tries_changed(
        &self,
        contest: i64,
        since: ContestVersion,
    ) -> Result<Option<Vec<i64>>, Error> {
        let events = on_reader!(self, db, d => {
            sqlx::query_as::<_, (String, Option<String>)>(&sql(d, EVENTS_AFTER))
                .bind(contest)
                .bind(since.0)
                .bind(MOST_CHANGES + 1)
                .fetch_all(db)
                .await?
        });
        Ok(tries_changed(events))
    }

    /// The test results of `contest`'s judged submissions: (submission,
    /// position from 0, verdict, CPU milliseconds, test group: `sample` or
    /// a secret one), by submission and position.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_runs(
        &self,
        contest: i64,
    ) -> Result<Vec<(i64, i64, String, i64, String)>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (i64, i64, String, i64, String)>(&sql(
                d,
                "SELECT t.submission_id, t.position, t.verdict, t.time_ms, t.test_group
                 FROM test_results t
                 JOIN submissions s ON s.id = t.submission_id
                 WHERE s.contest_id = ? AND s.status = 'done'
                 ORDER BY t.submission_id, t.position",
            ))
            .bind(contest)
            .fetch_all(pool)
            .await?
        }))
    }
}

/// Which contest [`Store::one_contest`] reads.
#[derive(Debug, Clone, Copy)]
enum Which<'a> {
    Slug(&'a str),
    Id(i64),
}

/// [`Store::create_contest`] within the caller's transaction.
pub(super) async fn create_contest_in(
    tx: Tx<'_>,
    new: &NewContest,
    now_ms: i64,
) -> Result<i64, Error> {
    Ok(on_tx!(tx, tx, d => {
        let id = sqlx::query_scalar::<_, i64>(&sql(
            d,
            "INSERT INTO contests (slug, name, start_ms, duration_s, freeze_s, penalty_min,
                                   scoring, open_to_all, created_ms, gold_medals,
                                   silver_medals, bronze_medals)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        ))
        .bind(&new.slug)
        .bind(&new.name)
        .bind(new.start_ms)
        .bind(new.duration_s)
        .bind(new.freeze_s)
        .bind(new.penalty_min)
        .bind(new.scoring.as_str())
        .bind(new.participants.is_none())
        .bind(now_ms)
        .bind(i64::from(new.medals.gold))
        .bind(i64::from(new.medals.silver))
        .bind(i64::from(new.medals.bronze))
        .fetch_one(&mut *tx)
        .await;
        let id = match id {
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                return Err(Error::ContestExists(new.slug.clone()))
            }
            other => other?,
        };
        fill_contest!(tx, d, id, new);
        if let Some(c) = record::locked_contest(tx.as_tx(), id).await? {
            let now = record::db_now(tx.as_tx()).await?;
            let teams = record::teams_in(tx.as_tx(), id, c.open_to_all).await?;
            record::append(tx.as_tx(), id, &settings_events(&c, record::roster_events(&teams), now)).await?;
            // Every award it gives, with no team yet.
            record::record_awards(tx.as_tx(), id, None).await?;
        }
        id
    }))
}
