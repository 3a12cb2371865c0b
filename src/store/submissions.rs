//! Storing, listing and reading submissions.

use std::sync::Arc;

use super::db::{on_db, on_reader, sql, AsTx, Dialect};
use super::finished::Results;
use super::record::{self, stamp_of, TryChange};
use super::{
    Error, GroupRow, ListFilter, NewSubmission, OverLimit, Status, Store, Submission,
    SubmissionRow, SubmitLimits, Summary, TestRow,
};
use crate::judge::{GroupReport, Report, TestReport};
use crate::problem::Group;
use crate::verdict::Verdict;

impl Store {
    /// Stores a new submission as `queued`; returns its id.
    ///
    /// # Errors
    /// Database failures.
    pub async fn insert_submission(&self, new: NewSubmission<'_>) -> Result<i64, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
                d,
                "INSERT INTO submissions (problem, language, source, user_id) VALUES (?, ?, ?, ?)
                 RETURNING id",
            ))
            .bind(new.problem)
            .bind(new.language)
            .bind(new.source)
            .bind(new.user_id)
            .fetch_one(pool)
            .await?
        }))
    }

    /// Which of `limits` a new submission of `user_id` would exceed now,
    /// if any: read before any work is done for a request (the insert
    /// checks again, atomically).
    ///
    /// # Errors
    /// Database failures.
    pub async fn over_limits(
        &self,
        user_id: i64,
        limits: SubmitLimits,
    ) -> Result<Option<OverLimit>, Error> {
        let (recent, waiting) = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (i64, i64)>(&sql(
                d,
                "SELECT
                     (SELECT COUNT(*) FROM submissions WHERE user_id = ?1
                        AND submitted_at > {minute_ago_text}),
                     (SELECT COUNT(*) FROM submissions WHERE user_id = ?1
                        AND status != 'done' AND priority = 0
                        AND withdrawn_reason IS NULL)",
            ))
            .bind(user_id)
            .fetch_one(pool)
            .await?
        });
        Ok(
            if limits.per_minute > 0 && recent >= i64::from(limits.per_minute) {
                Some(OverLimit::PerMinute(limits.per_minute))
            } else if limits.max_waiting > 0 && waiting >= i64::from(limits.max_waiting) {
                Some(OverLimit::Waiting(limits.max_waiting))
            } else {
                None
            },
        )
    }

    /// Stores a new submission as `queued` unless its user is over one of
    /// `limits` (checked and inserted in one statement, so concurrent
    /// requests cannot both slip through); otherwise says which limit.
    /// Waiting submissions are the user's own not yet judged, rejudges
    /// (an admin's doing) not counted.
    ///
    /// The database's clock is read once, in the transaction: that one
    /// instant is the try's stamp and what the limits and, for a try in
    /// `contest`, the contest's window are checked against
    /// ([`Store::insert_submission_at`]).
    ///
    /// # Errors
    /// Database failures.
    pub async fn insert_submission_within(
        &self,
        new: NewSubmission<'_>,
        limits: SubmitLimits,
        contest: Option<i64>,
    ) -> Result<Result<i64, OverLimit>, Error> {
        self.insert_within(new, limits, contest, None).await
    }

    /// [`Store::insert_submission_within`] at the instant `at_ms` instead
    /// of the database's clock: stamped `at_ms`, counted against the limits
    /// as of `at_ms`, and in `contest` only while `start <= at_ms < end`
    /// ([`OverLimit::Closed`] otherwise, nothing stored). A try at the end
    /// instant is refused.
    ///
    /// # Errors
    /// Database failures.
    pub async fn insert_submission_at(
        &self,
        new: NewSubmission<'_>,
        limits: SubmitLimits,
        contest: Option<i64>,
        at_ms: i64,
    ) -> Result<Result<i64, OverLimit>, Error> {
        self.insert_within(new, limits, contest, Some(at_ms)).await
    }

    /// The two above: `at_ms` `None` reads the database's clock once, in
    /// the transaction, after the contest's lock (so tries are stamped in
    /// the order the lock gives them).
    async fn insert_within(
        &self,
        new: NewSubmission<'_>,
        limits: SubmitLimits,
        contest: Option<i64>,
        at_ms: Option<i64>,
    ) -> Result<Result<i64, OverLimit>, Error> {
        let (id, waiting, recent) = on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            if let (Dialect::Postgres, Some(user)) = (d, new.user_id) {
                // One request of a user at a time checks its limits
                // (SQLite has one writer at a time already).
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(user)
                    .execute(&mut *tx)
                    .await?;
            }
            if let Some(cid) = contest {
                // The contest's record first: its lock orders the try.
                let _ = record::locked_contest(tx.as_tx(), cid).await?;
            }
            // One instant for the stamp and every check: two readings of
            // the clock (or two expressions of it, which round apart) let
            // a try stamped at the end pass a window check made before it.
            let now = match at_ms {
                Some(at) => at,
                None => record::db_now(tx.as_tx()).await?,
            };
            let (stamp, minute_ago) = (stamp_of(now), stamp_of(now - 60_000));
            let id = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "INSERT INTO submissions (problem, language, source, user_id, contest_id,
                                          submitted_at)
                 SELECT ?1, ?2, ?3, ?4, ?7, ?9
                 WHERE (?5 = 0 OR (SELECT COUNT(*) FROM submissions
                        WHERE user_id = ?4 AND submitted_at > ?10)
                       < ?5)
                   AND (?6 = 0 OR (SELECT COUNT(*) FROM submissions
                        WHERE user_id = ?4 AND status != 'done' AND priority = 0
                          AND withdrawn_reason IS NULL) < ?6)
                   AND (?7 IS NULL OR EXISTS (SELECT 1 FROM contests WHERE id = ?7
                        AND start_ms <= ?8 AND ?8 < start_ms + duration_s * 1000))
                 RETURNING id",
            ))
            .bind(new.problem)
            .bind(new.language)
            .bind(new.source)
            .bind(new.user_id)
            .bind(i64::from(limits.per_minute))
            .bind(i64::from(limits.max_waiting))
            .bind(contest)
            .bind(now)
            .bind(&stamp)
            .bind(&minute_ago)
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(id) = id {
                record::record_try(tx.as_tx(), id, TryChange::Made).await?;
            }
            // What refused it, read after the fact: only the message
            // depends on it.
            let (waiting, recent) = sqlx::query_as::<_, (i64, i64)>(&sql(
                d,
                "SELECT COUNT(CASE WHEN status != 'done' AND priority = 0 THEN 1 END),
                        COUNT(CASE WHEN submitted_at > ?2 THEN 1 END)
                 FROM submissions WHERE user_id = ?1",
            ))
            .bind(new.user_id)
            .bind(&minute_ago)
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            (id, waiting, recent)
        });
        if let Some(id) = id {
            return Ok(Ok(id));
        }
        if limits.max_waiting > 0 && waiting >= i64::from(limits.max_waiting) {
            Ok(Err(OverLimit::Waiting(limits.max_waiting)))
        } else if limits.per_minute > 0 && recent >= i64::from(limits.per_minute) {
            Ok(Err(OverLimit::PerMinute(limits.per_minute)))
        } else {
            Ok(Err(OverLimit::Closed))
        }
    }

    /// Stores a new submission as `queued` unless its user already made
    /// `per_minute` submissions in the last minute (checked and inserted in
    /// one statement, so concurrent requests cannot both slip through);
    /// `None` when refused.
    ///
    /// # Errors
    /// Database failures.
    pub async fn insert_submission_limited(
        &self,
        new: NewSubmission<'_>,
        per_minute: u32,
    ) -> Result<Option<i64>, Error> {
        let limits = SubmitLimits {
            per_minute,
            max_waiting: 0,
        };
        Ok(self.insert_submission_within(new, limits, None).await?.ok())
    }

    /// Submissions newest first, filtered.
    ///
    /// # Errors
    /// Database failures.
    pub async fn list(&self, f: &ListFilter<'_>) -> Result<Vec<Summary>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Summary>(&sql(
                d,
                "SELECT s.id, u.name AS user, s.problem, s.language, s.status, s.verdict,
                        s.score, s.time_ms, s.memory_kib, s.submitted_at, s.user_id,
                        s.contest_id
                 FROM submissions s LEFT JOIN users u ON u.id = s.user_id
                 WHERE (?1 IS NULL OR u.name = ?1) AND (?2 IS NULL OR s.problem = ?2)
                   AND (?3 IS NULL OR s.verdict = ?3) AND (?4 IS NULL OR s.id < ?4)
                   AND (?6 IS NULL OR s.contest_id = ?6)
                 ORDER BY s.id DESC LIMIT ?5",
            ))
            .bind(f.user)
            .bind(f.problem)
            .bind(f.verdict)
            .bind(f.before)
            .bind(i64::from(f.limit))
            .bind(f.contest)
            .fetch_all(pool)
            .await?
        }))
    }

    /// How many results a submission had before its rejudges (oldest first).
    ///
    /// # Errors
    /// Database failures.
    pub async fn history_verdicts(&self, id: i64) -> Result<Vec<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT verdict FROM submission_history WHERE submission_id = ? ORDER BY id",
            ))
            .bind(id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The claims of one submission, or of every one: (submission, attempt,
    /// worker process), in order.
    ///
    /// # Errors
    /// Database failures.
    pub async fn claims(&self, id: Option<i64>) -> Result<Vec<(i64, i64, String)>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (i64, i64, String)>(&sql(
                d,
                "SELECT submission_id, attempt, worker FROM claims
                 WHERE ?1 IS NULL OR submission_id = ?1 ORDER BY submission_id, attempt",
            ))
            .bind(id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// One submission with its results.
    ///
    /// # Errors
    /// Database failures, or a row that does not hold a valid verdict.
    pub async fn get(&self, id: i64) -> Result<Option<Submission>, Error> {
        self.fetch(id, true).await
    }

    /// [`Store::get`] without the source (left empty): what a status read
    /// or a long poll needs, read often, without the up to 256 KiB of
    /// source each time.
    ///
    /// # Errors
    /// As [`Store::get`].
    pub async fn get_status(&self, id: i64) -> Result<Option<Submission>, Error> {
        self.fetch(id, false).await
    }

    async fn fetch(&self, id: i64, with_source: bool) -> Result<Option<Submission>, Error> {
        let query = if with_source {
            "SELECT s.id, s.problem, s.language, s.source, s.submitted_at, s.status, s.attempt,
                    u.name AS user_name, s.user_id, s.error, s.verdict, s.score,
                    s.time_ms, s.memory_kib, s.compile_output, s.contest_id
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?"
        } else {
            "SELECT s.id, s.problem, s.language, {empty_blob} AS source, s.submitted_at,
                    s.status, s.attempt, u.name AS user_name, s.user_id, s.error, s.verdict,
                    s.score, s.time_ms, s.memory_kib, s.compile_output, s.contest_id
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?"
        };
        let row = on_reader!(self, db, d => {
            sqlx::query_as::<_, SubmissionRow>(&sql(d, query))
                .bind(id)
                .fetch_optional(db)
                .await?
        });
        let Some(row) = row else { return Ok(None) };
        let status = match row.status.as_str() {
            "queued" => Status::Queued,
            "judging" => Status::Judging,
            "done" => Status::Done,
            other => return Err(Error::BadStatus(id, other.to_string())),
        };
        let done = status == Status::Done;
        let results = match self.finished.get(id, row.attempt).filter(|_| done) {
            Some(kept) => kept,
            None => {
                let results = Arc::new(self.results_of(id, status).await?);
                // Kept only if no new attempt began between the two reads
                // (attempts only grow, so the same number means the same
                // results).
                if done && self.done_at(id).await? == Some(row.attempt) {
                    self.finished.put(id, row.attempt, Arc::clone(&results));
                }
                results
            }
        };
        let parse = |v: &str| {
            v.parse::<Verdict>()
                .map_err(|_| Error::BadVerdict(id, v.to_string()))
        };
        let (report, progress) = match &row.verdict {
            Some(v) => (
                Some(Report {
                    verdict: parse(v)?,
                    score: row.score.unwrap_or(0) as u32,
                    time_ms: row.time_ms.unwrap_or(0) as u64,
                    memory_kib: row.memory_kib.unwrap_or(0) as u64,
                    compile_output: row.compile_output,
                    tests: results.tests.clone(),
                    groups: results.groups.clone(),
                }),
                Vec::new(),
            ),
            None => (None, results.tests.clone()),
        };
        Ok(Some(Submission {
            id: row.id,
            problem: row.problem,
            language: row.language,
            source: row.source,
            submitted_at: row.submitted_at,
            status,
            user: row.user_name,
            user_id: row.user_id,
            error: row.error,
            report,
            progress,
            contest_id: row.contest_id,
        }))
    }

    /// The attempt of submission `id` if it is done.
    async fn done_at(&self, id: i64) -> Result<Option<i64>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT attempt FROM submissions WHERE id = ? AND status = 'done'",
            ))
            .bind(id)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// The stored test and group results of submission `id`, in order, as
    /// far as its `status` has any: a queued submission has none to show
    /// (a new claim clears what an earlier attempt left), and groups are
    /// written when it is done, with its last tests.
    async fn results_of(&self, id: i64, status: Status) -> Result<Results, Error> {
        if status == Status::Queued {
            return Ok(Results {
                tests: Vec::new(),
                groups: Vec::new(),
            });
        }
        let (tests, groups) = on_db!(&self.db, pool, d => {
            let tests = sqlx::query_as::<_, TestRow>(&sql(
                d,
                "SELECT name, test_group, verdict, time_ms, wall_ms, memory_kib, exit_code,
                        signal, message, score, transcript
                 FROM test_results WHERE submission_id = ? ORDER BY position",
            ))
            .bind(id)
            .fetch_all(pool)
            .await?;
            let groups = if status == Status::Done {
                sqlx::query_as::<_, GroupRow>(&sql(
                    d,
                    "SELECT name, points, score, verdict, skipped, tests
                     FROM group_results WHERE submission_id = ? ORDER BY position",
                ))
                .bind(id)
                .fetch_all(pool)
                .await?
            } else {
                Vec::new()
            };
            (tests, groups)
        });
        let parse = |v: &str| {
            v.parse::<Verdict>()
                .map_err(|_| Error::BadVerdict(id, v.to_string()))
        };
        let tests = tests
            .into_iter()
            .map(|t| {
                Ok(TestReport {
                    group: Group::parse(&t.test_group)
                        .ok_or_else(|| Error::BadGroup(id, t.test_group.clone()))?,
                    verdict: parse(&t.verdict)?,
                    time_ms: t.time_ms as u64,
                    wall_ms: t.wall_ms as u64,
                    memory_kib: t.memory_kib as u64,
                    exit_code: t.exit_code.map(|c| c as i32),
                    signal: t.signal.map(|s| s as i32),
                    score: t.score,
                    transcript: match &t.transcript {
                        Some(json) => Some(
                            serde_json::from_str(json)
                                .map_err(|_| Error::BadTranscript(id, t.name.clone()))?,
                        ),
                        None => None,
                    },
                    name: t.name,
                    message: t.message,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let groups = groups
            .into_iter()
            .map(|g| {
                Ok(GroupReport {
                    name: Group::parse(&g.name)
                        .ok_or_else(|| Error::BadGroup(id, g.name.clone()))?,
                    points: g.points as u32,
                    score: g.score as u32,
                    verdict: g.verdict.as_deref().map(parse).transpose()?,
                    skipped: g.skipped,
                    tests: serde_json::from_str(&g.tests)
                        .map_err(|_| Error::BadGroup(id, g.name.clone()))?,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Results { tests, groups })
    }
}
