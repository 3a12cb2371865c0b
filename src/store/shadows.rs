//! Contests set up from another system and shadowed (issue 48): a
//! contest imported whole in one transaction, and what is kept of the
//! other system's feed: its submissions beside grundy's own judging of
//! them, its judgements and runs, how far its feed was read, and a jury's
//! marks on differences. Each event of the feed is applied with its token
//! in one transaction, so a shadow stopped anywhere resumes after the
//! last event it applied, and a submission is stored for judging once:
//! the row of the other system's id is written in the same transaction
//! as grundy's submission.

use std::collections::BTreeMap;

use super::contests::create_contest_in;
use super::db::{on_db, sql, AsTx};
use super::record::{self, stamp_of, TryChange};
use super::rosters::import_affiliations_in;
use super::users::add_users_in;
use super::{Error, NewContest, NewSubmission, Store};
use crate::contest::affiliation::Affiliations;

/// A contest read from another system and mapped to grundy's, to store
/// whole or not at all.
#[derive(Debug, Clone)]
pub struct ImportedContest {
    pub contest: NewContest,
    /// Its teams' accounts that do not exist yet (their names are the
    /// teams' ids).
    pub new_accounts: Vec<String>,
    /// Organizations, groups and teams with their ids kept.
    pub affiliations: Affiliations,
    /// Where it was read from (a URL or a path), to follow it from.
    pub source: String,
    /// The other system's problem id → the contest's label.
    pub problems: BTreeMap<String, String>,
    /// The other system's language id → grundy's language (`""`: none).
    pub languages: BTreeMap<String, String>,
}

/// What a shadowed contest keeps of its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shadow {
    pub source: String,
    pub problems: BTreeMap<String, String>,
    pub languages: BTreeMap<String, String>,
    /// The other system's judgement types seen, as JSON
    /// `{id: {"name", "solved", "penalty"}}`.
    pub types: String,
    /// The last event applied.
    pub token: Option<String>,
    /// When the feed said its updates ended.
    pub ended_ms: Option<i64>,
}

/// One submission of the other system as the feed gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShadowTry<'a> {
    pub external_id: &'a str,
    pub team: &'a str,
    pub problem: &'a str,
    pub language: &'a str,
    pub contest_time_ms: i64,
}

/// One judgement of the other system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShadowJudgement<'a> {
    pub external_id: &'a str,
    pub submission: &'a str,
    pub verdict: Option<&'a str>,
    pub current: bool,
    pub max_run_ms: Option<i64>,
}

/// One run of the other system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShadowRun<'a> {
    pub external_id: &'a str,
    pub judgement: &'a str,
    pub ordinal: i64,
    pub verdict: &'a str,
    pub time_ms: Option<i64>,
}

/// A change of the feed, applied with its token.
#[derive(Debug, Clone)]
pub enum ShadowChange<'a> {
    Types(&'a str),
    /// A submission to judge here, or the reason it is not.
    Try(ShadowTry<'a>, Result<NewSubmission<'a>, String>),
    TryGone(&'a str),
    Judgement(ShadowJudgement<'a>),
    JudgementGone(&'a str),
    Run(ShadowRun<'a>),
    RunGone(&'a str),
    Ended,
    /// Nothing but the token.
    Nothing,
}

/// A shadowed submission read back: the other system's side and grundy's.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ShadowedRow {
    pub external_id: String,
    pub team: String,
    pub problem: String,
    pub language: String,
    pub contest_time_ms: i64,
    pub submission_id: Option<i64>,
    pub unjudged_reason: Option<String>,
    pub deleted: bool,
    pub checked_note: Option<String>,
    pub checked_ms: Option<i64>,
    /// grundy's status and verdict (`None` until judged).
    pub status: Option<String>,
    pub verdict: Option<String>,
    pub time_ms: Option<i64>,
}

/// A judgement of the other system read back.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct JudgementRow {
    pub external_id: String,
    pub submission: String,
    pub verdict: Option<String>,
    pub is_current: bool,
    pub max_run_ms: Option<i64>,
    pub deleted: bool,
    pub arrival: i64,
}

/// A run of the other system read back.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct RunRow {
    pub judgement: String,
    pub ordinal: i64,
    pub verdict: String,
    pub time_ms: Option<i64>,
}

/// Everything kept of a shadowed contest, to compare.
#[derive(Debug, Clone, Default)]
pub struct ShadowRows {
    pub submissions: Vec<ShadowedRow>,
    pub judgements: Vec<JudgementRow>,
    pub runs: Vec<RunRow>,
    /// grundy's test verdicts of each judged submission, in the plan's
    /// order: (submission, position, verdict).
    pub tests: Vec<(i64, i64, String)>,
}

impl Store {
    /// Stores an imported contest whole: the accounts its teams lack
    /// (`password_hash` for each: nobody's password, until an admin sets
    /// one), its organizations, groups and teams with their ids, the
    /// contest, and where it came from; in one transaction, so a failure
    /// anywhere leaves nothing of it.
    ///
    /// # Errors
    /// [`Error::ContestExists`], [`Error::UserExists`],
    /// [`Error::BadImport`] and the others of the three parts; database
    /// failures.
    pub async fn import_contest(
        &self,
        c: &ImportedContest,
        password_hash: &str,
        now_ms: i64,
    ) -> Result<i64, Error> {
        crate::bounds::Field::ContestName.check(&c.contest.name)?;
        let users: Vec<(String, String)> = c
            .new_accounts
            .iter()
            .map(|n| (n.clone(), password_hash.to_string()))
            .collect();
        let json = |m: &BTreeMap<String, String>| serde_json::to_string(m).unwrap_or_default();
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            // Each account takes its team's id at once, before the next
            // is made with its own number as its id (which could be the
            // id a later team brings).
            for user in &users {
                add_users_in(tx.as_tx(), std::slice::from_ref(user)).await?;
                let id = sqlx::query_scalar::<_, i64>(&sql(d, "SELECT id FROM users WHERE name = ?"))
                    .bind(&user.0)
                    .fetch_one(&mut *tx)
                    .await?;
                record::keep_team_id(tx.as_tx(), id, &user.0).await?;
            }
            import_affiliations_in(tx.as_tx(), &c.affiliations).await?;
            let id = create_contest_in(tx.as_tx(), &c.contest, now_ms).await?;
            sqlx::query(&sql(
                d,
                "INSERT INTO shadows (contest_id, source, problems, languages) VALUES (?, ?, ?, ?)",
            ))
            .bind(id)
            .bind(&c.source)
            .bind(json(&c.problems))
            .bind(json(&c.languages))
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            id
        }))
    }

    /// What contest `contest_id` keeps of its source; `None` for a contest
    /// made here.
    ///
    /// # Errors
    /// Database failures.
    pub async fn shadow(&self, contest_id: i64) -> Result<Option<Shadow>, Error> {
        type Row = (String, String, String, String, Option<String>, Option<i64>);
        let row: Option<Row> = on_db!(&self.db, pool, d => {
            sqlx::query_as(&sql(
                d,
                "SELECT source, problems, languages, types, token, ended_ms
                 FROM shadows WHERE contest_id = ?",
            ))
            .bind(contest_id)
            .fetch_optional(pool)
            .await?
        });
        let map = |text: &str| serde_json::from_str(text).unwrap_or_default();
        Ok(row.map(
            |(source, problems, languages, types, token, ended_ms)| Shadow {
                problems: map(&problems),
                languages: map(&languages),
                source,
                types,
                token,
                ended_ms,
            },
        ))
    }

    /// Follows contest `contest_id` from `source` from now on.
    ///
    /// # Errors
    /// Database failures.
    pub async fn set_shadow_source(&self, contest_id: i64, source: &str) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            sqlx::query(&sql(d, "UPDATE shadows SET source = ? WHERE contest_id = ?"))
                .bind(source)
                .bind(contest_id)
                .execute(pool)
                .await?;
        });
        Ok(())
    }

    /// Whether the other system's submission `external_id` is kept
    /// already (so its files need not be fetched again).
    ///
    /// # Errors
    /// Database failures.
    pub async fn shadowed(&self, contest_id: i64, external_id: &str) -> Result<bool, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT COUNT(*) FROM shadow_submissions WHERE contest_id = ? AND external_id = ?",
            ))
            .bind(contest_id)
            .bind(external_id)
            .fetch_one(pool)
            .await?
        }) > 0)
    }

    /// Applies one change of contest `contest_id`'s feed and its `token`,
    /// in one transaction. A submission already kept is left as it is (it
    /// is judged once, whatever the feed repeats); a new one to judge is
    /// stored `queued` at its time in the contest, with grundy's
    /// submission's id returned.
    ///
    /// # Errors
    /// Database failures.
    pub async fn apply_shadow(
        &self,
        contest_id: i64,
        change: &ShadowChange<'_>,
        token: Option<&str>,
    ) -> Result<Option<i64>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let Some(c) = record::locked_contest(tx.as_tx(), contest_id).await? else {
                return Ok(None);
            };
            let mut made = None;
            match change {
                ShadowChange::Types(json) => {
                    sqlx::query(&sql(d, "UPDATE shadows SET types = ? WHERE contest_id = ?"))
                        .bind(*json)
                        .bind(contest_id)
                        .execute(&mut *tx)
                        .await?;
                }
                ShadowChange::Try(t, judge) => {
                    let kept = sqlx::query_scalar::<_, i64>(&sql(
                        d,
                        "SELECT COUNT(*) FROM shadow_submissions
                         WHERE contest_id = ? AND external_id = ?",
                    ))
                    .bind(contest_id)
                    .bind(t.external_id)
                    .fetch_one(&mut *tx)
                    .await?;
                    if kept == 0 {
                        let (id, reason) = match judge {
                            Ok(new) => {
                                let at = c.start_ms + t.contest_time_ms;
                                let id = sqlx::query_scalar::<_, i64>(&sql(
                                    d,
                                    "INSERT INTO submissions (problem, language, source, user_id,
                                                              contest_id, submitted_at)
                                     VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                                ))
                                .bind(new.problem)
                                .bind(new.language)
                                .bind(new.source)
                                .bind(new.user_id)
                                .bind(contest_id)
                                .bind(stamp_of(at))
                                .fetch_one(&mut *tx)
                                .await?;
                                record::record_try(tx.as_tx(), id, TryChange::Made).await?;
                                made = Some(id);
                                (Some(id), None)
                            }
                            Err(why) => (None, Some(why.as_str())),
                        };
                        sqlx::query(&sql(
                            d,
                            "INSERT INTO shadow_submissions (contest_id, external_id, team, problem,
                                 language, contest_time_ms, submission_id, unjudged_reason)
                             VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        ))
                        .bind(contest_id)
                        .bind(t.external_id)
                        .bind(t.team)
                        .bind(t.problem)
                        .bind(t.language)
                        .bind(t.contest_time_ms)
                        .bind(id)
                        .bind(reason)
                        .execute(&mut *tx)
                        .await?;
                    }
                }
                ShadowChange::Judgement(j) => {
                    sqlx::query(&sql(
                        d,
                        "INSERT INTO shadow_judgements (contest_id, external_id, submission, verdict,
                             is_current, max_run_ms, arrival)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6,
                             (SELECT COALESCE(MAX(arrival), 0) + 1 FROM shadow_judgements
                              WHERE contest_id = ?1))
                         ON CONFLICT (contest_id, external_id) DO UPDATE SET
                             submission = excluded.submission, verdict = excluded.verdict,
                             is_current = excluded.is_current, max_run_ms = excluded.max_run_ms,
                             deleted = FALSE",
                    ))
                    .bind(contest_id)
                    .bind(j.external_id)
                    .bind(j.submission)
                    .bind(j.verdict)
                    .bind(j.current)
                    .bind(j.max_run_ms)
                    .execute(&mut *tx)
                    .await?;
                }
                ShadowChange::Run(r) => {
                    sqlx::query(&sql(
                        d,
                        "INSERT INTO shadow_runs (contest_id, external_id, judgement, ordinal,
                             verdict, time_ms)
                         VALUES (?, ?, ?, ?, ?, ?)
                         ON CONFLICT (contest_id, external_id) DO UPDATE SET
                             judgement = excluded.judgement, ordinal = excluded.ordinal,
                             verdict = excluded.verdict, time_ms = excluded.time_ms,
                             deleted = FALSE",
                    ))
                    .bind(contest_id)
                    .bind(r.external_id)
                    .bind(r.judgement)
                    .bind(r.ordinal)
                    .bind(r.verdict)
                    .bind(r.time_ms)
                    .execute(&mut *tx)
                    .await?;
                }
                ShadowChange::TryGone(id)
                | ShadowChange::JudgementGone(id)
                | ShadowChange::RunGone(id) => {
                    let statement = match change {
                        ShadowChange::TryGone(_) => "UPDATE shadow_submissions SET deleted = TRUE
                             WHERE contest_id = ? AND external_id = ?",
                        ShadowChange::JudgementGone(_) => "UPDATE shadow_judgements SET deleted = TRUE
                             WHERE contest_id = ? AND external_id = ?",
                        _ => "UPDATE shadow_runs SET deleted = TRUE
                             WHERE contest_id = ? AND external_id = ?",
                    };
                    sqlx::query(&sql(d, statement))
                    .bind(contest_id)
                    .bind(*id)
                    .execute(&mut *tx)
                    .await?;
                }
                ShadowChange::Ended => {
                    let now = record::db_now(tx.as_tx()).await?;
                    sqlx::query(&sql(
                        d,
                        "UPDATE shadows SET ended_ms = COALESCE(ended_ms, ?) WHERE contest_id = ?",
                    ))
                    .bind(now)
                    .bind(contest_id)
                    .execute(&mut *tx)
                    .await?;
                }
                ShadowChange::Nothing => {}
            }
            if let Some(token) = token {
                sqlx::query(&sql(d, "UPDATE shadows SET token = ? WHERE contest_id = ?"))
                    .bind(token)
                    .bind(contest_id)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
            made
        }))
    }

    /// Everything kept of shadowed contest `contest_id`, with grundy's
    /// results beside it.
    ///
    /// # Errors
    /// Database failures.
    pub async fn shadow_rows(&self, contest_id: i64) -> Result<ShadowRows, Error> {
        Ok(on_db!(&self.db, pool, d => {
            let submissions = sqlx::query_as::<_, ShadowedRow>(&sql(
                d,
                "SELECT x.external_id, x.team, x.problem, x.language, x.contest_time_ms,
                        x.submission_id, x.unjudged_reason, x.deleted, x.checked_note,
                        x.checked_ms, s.status, s.verdict, s.time_ms
                 FROM shadow_submissions x LEFT JOIN submissions s ON s.id = x.submission_id
                 WHERE x.contest_id = ? ORDER BY x.contest_time_ms, x.external_id",
            ))
            .bind(contest_id)
            .fetch_all(pool)
            .await?;
            let judgements = sqlx::query_as::<_, JudgementRow>(&sql(
                d,
                "SELECT external_id, submission, verdict, is_current, max_run_ms, deleted, arrival
                 FROM shadow_judgements WHERE contest_id = ? ORDER BY arrival",
            ))
            .bind(contest_id)
            .fetch_all(pool)
            .await?;
            let runs = sqlx::query_as::<_, RunRow>(&sql(
                d,
                "SELECT judgement, ordinal, verdict, time_ms FROM shadow_runs
                 WHERE contest_id = ? AND NOT deleted ORDER BY judgement, ordinal",
            ))
            .bind(contest_id)
            .fetch_all(pool)
            .await?;
            let tests = sqlx::query_as::<_, (i64, i64, String)>(&sql(
                d,
                "SELECT t.submission_id, t.position, t.verdict
                 FROM shadow_submissions x JOIN test_results t ON t.submission_id = x.submission_id
                 WHERE x.contest_id = ? ORDER BY t.submission_id, t.position",
            ))
            .bind(contest_id)
            .fetch_all(pool)
            .await?;
            ShadowRows {
                submissions,
                judgements,
                runs,
                tests,
            }
        }))
    }

    /// Accounts by their team's CLICS id (as a registration or an import
    /// gave it, else the account's number).
    ///
    /// # Errors
    /// Database failures.
    pub async fn accounts_by_team_id(&self) -> Result<BTreeMap<String, i64>, Error> {
        let rows: Vec<(String, i64)> = on_db!(&self.db, pool, d => {
            sqlx::query_as(&sql(d, "SELECT {team_id}, u.id FROM users u"))
                .fetch_all(pool)
                .await?
        });
        Ok(rows.into_iter().collect())
    }

    /// Marks the difference of the other system's submission
    /// `external_id` as checked, with `note` (`None`: unmarks it).
    /// `false` when the contest keeps no such submission.
    ///
    /// # Errors
    /// Database failures.
    pub async fn check_shadowed(
        &self,
        contest_id: i64,
        external_id: &str,
        note: Option<&str>,
        now_ms: i64,
    ) -> Result<bool, Error> {
        let done = on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "UPDATE shadow_submissions SET checked_note = ?, checked_ms = ?
                 WHERE contest_id = ? AND external_id = ?",
            ))
            .bind(note)
            .bind(note.map(|_| now_ms))
            .bind(contest_id)
            .bind(external_id)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(done > 0)
    }
}
