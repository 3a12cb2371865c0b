//! The store: SQLite through sqlx, the source of truth for submissions,
//! verdicts and accounts. All SQL of grundy lives in this module. The
//! submissions table is also the judging queue (`queued` → `judging` →
//! `done`, see [`queue`]); a judge killed mid-run leaves a `judging` row
//! whose lease expires, and the submission is judged again from scratch.
//! A verdict and its final test results are written in one transaction, so
//! a crash never leaves half a result.

use std::str::FromStr;
use std::time::Duration;

use serde::Serialize;
use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

use crate::judge::{GroupReport, Report, TestReport};
use crate::problem::Group;
use crate::verdict::Verdict;

mod contests;
pub mod queue;
mod users;
mod web;

pub use contests::{Clarification, ContestSubmission, NewContest};
pub use queue::{Claim, Failed, Lease, Queue, MAX_TRIES};
pub use users::{Revoked, User};
pub use web::{Judging, QueueCounts, WebSession, WorkerRow};

/// The embedded migrations, applied at [`Store::open`].
pub static MIGRATOR: Migrator = sqlx::migrate!();

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("database {url}")]
    Open { url: String, source: sqlx::Error },
    #[error("database migration")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database")]
    Query(#[from] sqlx::Error),
    #[error("submission {0}: stored verdict {1:?} is not a verdict")]
    BadVerdict(i64, String),
    #[error("submission {0}: stored test group {1:?} is not a group")]
    BadGroup(i64, String),
    #[error("submission {0}: stored transcript of test {1} is not a transcript")]
    BadTranscript(i64, String),
    #[error("submission {0} vanished while it was claimed")]
    Vanished(i64),
    #[error("user {0:?} already exists")]
    UserExists(String),
    #[error("no user {0:?}")]
    NoUser(String),
    #[error("contest {0:?} already exists")]
    ContestExists(String),
    #[error("contest {0}: stored value {1:?} is not valid")]
    BadContest(String, String),
}

/// Where a submission is in the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Queued,
    Judging,
    Done,
}

/// A submission to store.
#[derive(Debug, Clone)]
pub struct NewSubmission<'a> {
    pub problem: &'a str,
    pub language: &'a str,
    pub source: &'a [u8],
    /// The submitting account (`None` at the keyboard).
    pub user_id: Option<i64>,
}

/// A user's limits on new submissions (0: no limit).
#[derive(Debug, Clone, Copy, Default)]
pub struct SubmitLimits {
    /// Submissions in the last minute.
    pub per_minute: u32,
    /// Submissions of theirs not yet judged.
    pub max_waiting: u32,
}

/// Which of [`SubmitLimits`] refused a submission, with its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverLimit {
    PerMinute(u32),
    Waiting(u32),
}

/// A stored submission with its test results.
#[derive(Debug, Clone)]
pub struct Submission {
    pub id: i64,
    pub problem: String,
    pub language: String,
    pub source: Vec<u8>,
    pub submitted_at: String,
    pub status: Status,
    /// The submitting account's name (`None` at the keyboard).
    pub user: Option<String>,
    pub user_id: Option<i64>,
    /// Why the last attempt failed (for admins only).
    pub error: Option<String>,
    /// Present once judged.
    pub report: Option<Report>,
    /// While judging: the tests done so far (empty once judged: they are
    /// in the report).
    pub progress: Vec<TestReport>,
}

/// One line of a submission list.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Summary {
    pub id: i64,
    pub user: Option<String>,
    pub problem: String,
    pub language: String,
    pub status: String,
    pub verdict: Option<String>,
    pub score: Option<i64>,
    pub time_ms: Option<i64>,
    pub memory_kib: Option<i64>,
    pub submitted_at: String,
}

/// What a submission list is filtered by; newest first, ids below `before`.
#[derive(Debug, Clone, Default)]
pub struct ListFilter<'a> {
    pub user: Option<&'a str>,
    pub problem: Option<&'a str>,
    pub verdict: Option<&'a str>,
    pub before: Option<i64>,
    pub limit: u32,
}

/// The store, cheap to clone.
#[derive(Debug, Clone)]
pub struct Store {
    pool: SqlitePool,
}

#[derive(sqlx::FromRow)]
struct SubmissionRow {
    id: i64,
    problem: String,
    language: String,
    source: Vec<u8>,
    submitted_at: String,
    status: String,
    user_name: Option<String>,
    user_id: Option<i64>,
    error: Option<String>,
    verdict: Option<String>,
    score: Option<i64>,
    time_ms: Option<i64>,
    memory_kib: Option<i64>,
    compile_output: String,
}

#[derive(sqlx::FromRow)]
struct TestRow {
    name: String,
    test_group: String,
    verdict: String,
    time_ms: i64,
    wall_ms: i64,
    memory_kib: i64,
    exit_code: Option<i64>,
    signal: Option<i64>,
    message: String,
    score: Option<f64>,
    transcript: Option<String>,
}

#[derive(sqlx::FromRow)]
struct GroupRow {
    name: String,
    points: i64,
    score: i64,
    verdict: Option<String>,
    skipped: bool,
    tests: String,
}

impl Store {
    /// Opens (creating if missing) the database at `url` and applies the
    /// migrations.
    ///
    /// # Errors
    /// When the file cannot be opened or is not a grundy database.
    pub async fn open(url: &str) -> Result<Store, Error> {
        let open_err = |source| Error::Open {
            url: url.to_string(),
            source,
        };
        let options = SqliteConnectOptions::from_str(url)
            .map_err(open_err)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .map_err(open_err)?;
        Store::from_pool(pool).await
    }

    /// Wraps an existing pool (e.g. from `#[sqlx::test]`), applying the migrations.
    ///
    /// # Errors
    /// When a migration fails.
    pub async fn from_pool(pool: SqlitePool) -> Result<Store, Error> {
        MIGRATOR.run(&pool).await?;
        Ok(Store { pool })
    }

    /// Stores a new submission as `queued`; returns its id.
    ///
    /// # Errors
    /// Database failures.
    pub async fn insert_submission(&self, new: NewSubmission<'_>) -> Result<i64, Error> {
        let id = sqlx::query_scalar::<_, i64>(
            "INSERT INTO submissions (problem, language, source, user_id) VALUES (?, ?, ?, ?)
             RETURNING id",
        )
        .bind(new.problem)
        .bind(new.language)
        .bind(new.source)
        .bind(new.user_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// Stores a new submission as `queued` unless its user is over one of
    /// `limits` (checked and inserted in one statement, so concurrent
    /// requests cannot both slip through); otherwise says which limit.
    /// Waiting submissions are the user's own not yet judged, rejudges
    /// (an admin's doing) not counted.
    ///
    /// # Errors
    /// Database failures.
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
        let (recent, waiting) = sqlx::query_as::<_, (i64, i64)>(
            "SELECT
                 (SELECT COUNT(*) FROM submissions WHERE user_id = ?1
                    AND submitted_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds')),
                 (SELECT COUNT(*) FROM submissions WHERE user_id = ?1
                    AND status != 'done' AND priority = 0)",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await?;
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

    pub async fn insert_submission_within(
        &self,
        new: NewSubmission<'_>,
        limits: SubmitLimits,
    ) -> Result<Result<i64, OverLimit>, Error> {
        let id = sqlx::query_scalar::<_, i64>(
            "INSERT INTO submissions (problem, language, source, user_id)
             SELECT ?1, ?2, ?3, ?4
             WHERE (?5 = 0 OR (SELECT COUNT(*) FROM submissions
                    WHERE user_id = ?4
                      AND submitted_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds'))
                   < ?5)
               AND (?6 = 0 OR (SELECT COUNT(*) FROM submissions
                    WHERE user_id = ?4 AND status != 'done' AND priority = 0) < ?6)
             RETURNING id",
        )
        .bind(new.problem)
        .bind(new.language)
        .bind(new.source)
        .bind(new.user_id)
        .bind(i64::from(limits.per_minute))
        .bind(i64::from(limits.max_waiting))
        .fetch_optional(&self.pool)
        .await?;
        if let Some(id) = id {
            return Ok(Ok(id));
        }
        // Which limit refused it, read after the fact: only the message
        // depends on it.
        let waiting = sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM submissions WHERE user_id = ? AND status != 'done' AND priority = 0",
        )
        .bind(new.user_id)
        .fetch_one(&self.pool)
        .await?;
        if limits.max_waiting > 0 && waiting >= i64::from(limits.max_waiting) {
            Ok(Err(OverLimit::Waiting(limits.max_waiting)))
        } else {
            Ok(Err(OverLimit::PerMinute(limits.per_minute)))
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
        let id = sqlx::query_scalar::<_, i64>(
            "INSERT INTO submissions (problem, language, source, user_id)
             SELECT ?1, ?2, ?3, ?4
             WHERE (SELECT COUNT(*) FROM submissions
                    WHERE user_id = ?4
                      AND submitted_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds'))
                   < ?5
             RETURNING id",
        )
        .bind(new.problem)
        .bind(new.language)
        .bind(new.source)
        .bind(new.user_id)
        .bind(i64::from(per_minute))
        .fetch_optional(&self.pool)
        .await?;
        Ok(id)
    }

    /// Submissions newest first, filtered.
    ///
    /// # Errors
    /// Database failures.
    pub async fn list(&self, f: &ListFilter<'_>) -> Result<Vec<Summary>, Error> {
        let rows = sqlx::query_as::<_, Summary>(
            "SELECT s.id, u.name AS user, s.problem, s.language, s.status, s.verdict, s.score,
                    s.time_ms, s.memory_kib, s.submitted_at
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id
             WHERE (?1 IS NULL OR u.name = ?1) AND (?2 IS NULL OR s.problem = ?2)
               AND (?3 IS NULL OR s.verdict = ?3) AND (?4 IS NULL OR s.id < ?4)
             ORDER BY s.id DESC LIMIT ?5",
        )
        .bind(f.user)
        .bind(f.problem)
        .bind(f.verdict)
        .bind(f.before)
        .bind(i64::from(f.limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// How many results a submission had before its rejudges (oldest first).
    ///
    /// # Errors
    /// Database failures.
    pub async fn history_verdicts(&self, id: i64) -> Result<Vec<String>, Error> {
        Ok(sqlx::query_scalar::<_, String>(
            "SELECT verdict FROM submission_history WHERE submission_id = ? ORDER BY id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?)
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
            "SELECT s.id, s.problem, s.language, s.source, s.submitted_at, s.status,
                    u.name AS user_name, s.user_id, s.error, s.verdict, s.score,
                    s.time_ms, s.memory_kib, s.compile_output
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?"
        } else {
            "SELECT s.id, s.problem, s.language, X'' AS source, s.submitted_at, s.status,
                    u.name AS user_name, s.user_id, s.error, s.verdict, s.score,
                    s.time_ms, s.memory_kib, s.compile_output
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?"
        };
        let row = sqlx::query_as::<_, SubmissionRow>(query)
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        let tests = sqlx::query_as::<_, TestRow>(
            "SELECT name, test_group, verdict, time_ms, wall_ms, memory_kib, exit_code, signal,
                    message, score, transcript
             FROM test_results WHERE submission_id = ? ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        let parse = |v: &str| {
            v.parse::<Verdict>()
                .map_err(|_| Error::BadVerdict(id, v.to_string()))
        };
        let status = match row.status.as_str() {
            "queued" => Status::Queued,
            "judging" => Status::Judging,
            _ => Status::Done,
        };
        let tests = tests
            .iter()
            .map(|t| {
                Ok(TestReport {
                    name: t.name.clone(),
                    group: Group::parse(&t.test_group)
                        .ok_or_else(|| Error::BadGroup(id, t.test_group.clone()))?,
                    verdict: parse(&t.verdict)?,
                    time_ms: t.time_ms as u64,
                    wall_ms: t.wall_ms as u64,
                    memory_kib: t.memory_kib as u64,
                    exit_code: t.exit_code.map(|c| c as i32),
                    signal: t.signal.map(|s| s as i32),
                    message: t.message.clone(),
                    score: t.score,
                    transcript: match &t.transcript {
                        Some(json) => Some(
                            serde_json::from_str(json)
                                .map_err(|_| Error::BadTranscript(id, t.name.clone()))?,
                        ),
                        None => None,
                    },
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let groups = sqlx::query_as::<_, GroupRow>(
            "SELECT name, points, score, verdict, skipped, tests
             FROM group_results WHERE submission_id = ? ORDER BY position",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
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
        let (report, progress) = match &row.verdict {
            Some(v) => (
                Some(Report {
                    verdict: parse(v)?,
                    score: row.score.unwrap_or(0) as u32,
                    time_ms: row.time_ms.unwrap_or(0) as u64,
                    memory_kib: row.memory_kib.unwrap_or(0) as u64,
                    compile_output: row.compile_output.clone(),
                    tests,
                    groups,
                }),
                Vec::new(),
            ),
            None => (None, tests),
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
        }))
    }

    /// Closes the pool, flushing the WAL.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
