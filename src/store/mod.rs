//! The store: SQLite through sqlx, the source of truth for submissions and
//! verdicts. All SQL of grundy lives in this module. The submissions table
//! is also the judging queue (`queued` → `judging` → `done`); a judge
//! killed mid-run leaves a `judging` row, which [`Store::requeue_unfinished`]
//! puts back in the queue. A verdict and its test results are written in one
//! transaction, so a crash never leaves half a result.

use std::str::FromStr;
use std::time::Duration;

use serde::Serialize;
use sqlx::migrate::Migrator;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions};

use crate::judge::{Report, TestReport};
use crate::problem::Group;
use crate::verdict::Verdict;

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
}

/// Where a submission is in the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
    /// Present once judged.
    pub report: Option<Report>,
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
            "INSERT INTO submissions (problem, language, source) VALUES (?, ?, ?) RETURNING id",
        )
        .bind(new.problem)
        .bind(new.language)
        .bind(new.source)
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// Claims one specific queued submission; false if it was not queued.
    ///
    /// # Errors
    /// Database failures.
    pub async fn claim(&self, id: i64) -> Result<bool, Error> {
        let done = sqlx::query(
            "UPDATE submissions SET status = 'judging',
                 claimed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ? AND status = 'queued'",
        )
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims the oldest queued submission, if any (atomically: two judges
    /// never claim the same one).
    ///
    /// # Errors
    /// Database failures.
    pub async fn claim_next_pending(&self) -> Result<Option<Submission>, Error> {
        let id = sqlx::query_scalar::<_, i64>(
            "UPDATE submissions SET status = 'judging',
                 claimed_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = (SELECT id FROM submissions WHERE status = 'queued' ORDER BY id LIMIT 1)
             RETURNING id",
        )
        .fetch_optional(&self.pool)
        .await?;
        match id {
            Some(id) => self.get(id).await,
            None => Ok(None),
        }
    }

    /// Records the verdict and every test result, in one transaction.
    ///
    /// # Errors
    /// Database failures (nothing is written then).
    pub async fn finish_submission(&self, id: i64, report: &Report) -> Result<(), Error> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM test_results WHERE submission_id = ?")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        for (position, t) in report.tests.iter().enumerate() {
            sqlx::query(
                "INSERT INTO test_results (submission_id, position, name, test_group, verdict,
                     time_ms, wall_ms, memory_kib, exit_code, signal, message)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(id)
            .bind(position as i64)
            .bind(&t.name)
            .bind(t.group.as_str())
            .bind(t.verdict.as_str())
            .bind(t.time_ms as i64)
            .bind(t.wall_ms as i64)
            .bind(t.memory_kib as i64)
            .bind(t.exit_code)
            .bind(t.signal)
            .bind(&t.message)
            .execute(&mut *tx)
            .await?;
        }
        sqlx::query(
            "UPDATE submissions SET status = 'done', verdict = ?, score = ?, time_ms = ?,
                 memory_kib = ?, compile_output = ?,
                 finished_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
             WHERE id = ?",
        )
        .bind(report.verdict.as_str())
        .bind(i64::from(report.score))
        .bind(report.time_ms as i64)
        .bind(report.memory_kib as i64)
        .bind(&report.compile_output)
        .bind(id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Puts every `judging` submission back in the queue (after a crash);
    /// returns how many.
    ///
    /// # Errors
    /// Database failures.
    pub async fn requeue_unfinished(&self) -> Result<u64, Error> {
        let done = sqlx::query(
            "UPDATE submissions SET status = 'queued', claimed_at = NULL WHERE status = 'judging'",
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// One submission with its results.
    ///
    /// # Errors
    /// Database failures, or a row that does not hold a valid verdict.
    pub async fn get(&self, id: i64) -> Result<Option<Submission>, Error> {
        let row = sqlx::query_as::<_, SubmissionRow>(
            "SELECT id, problem, language, source, submitted_at, status, verdict, score,
                    time_ms, memory_kib, compile_output
             FROM submissions WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let tests = sqlx::query_as::<_, TestRow>(
            "SELECT name, test_group, verdict, time_ms, wall_ms, memory_kib, exit_code, signal,
                    message
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
        let report = match &row.verdict {
            Some(v) => Some(Report {
                verdict: parse(v)?,
                score: row.score.unwrap_or(0) as u32,
                time_ms: row.time_ms.unwrap_or(0) as u64,
                memory_kib: row.memory_kib.unwrap_or(0) as u64,
                compile_output: row.compile_output.clone(),
                tests: tests
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
                        })
                    })
                    .collect::<Result<Vec<_>, Error>>()?,
            }),
            None => None,
        };
        Ok(Some(Submission {
            id: row.id,
            problem: row.problem,
            language: row.language,
            source: row.source,
            submitted_at: row.submitted_at,
            status,
            report,
        }))
    }

    /// Closes the pool, flushing the WAL.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}
