//! What the web pages need beyond the API's queries: sessions (stored as
//! hashes, like tokens), password changes and roles, a user's best verdict
//! per problem, and the queue's counts.

use super::db::{on_db, sql};
use super::{Error, Store, User};

/// A live session's account and the CSRF token its forms must carry.
#[derive(Debug, Clone)]
pub struct WebSession {
    pub user: User,
    pub csrf: String,
}

/// One submission being judged, for the queue page.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Judging {
    pub id: i64,
    pub problem: String,
    pub user: Option<String>,
    pub attempt: i64,
    pub claimed_at: Option<String>,
}

/// How many submissions wait and are being judged.
#[derive(Debug, Clone, Copy, Default)]
pub struct QueueCounts {
    pub queued: i64,
    pub judging: i64,
    pub done: i64,
}

impl Store {
    /// Stores a session's hash for a user, valid for `ttl_ms`.
    ///
    /// # Errors
    /// Database failures.
    pub async fn add_session(
        &self,
        user_id: i64,
        hash: &[u8],
        csrf: &str,
        ttl_ms: i64,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => sqlx::query(&sql(d, "INSERT INTO web_sessions (user_id, hash, csrf, expires_ms) VALUES (?, ?, ?, {now_ms} + ?)"))
        .bind(user_id)
        .bind(hash)
        .bind(csrf)
        .bind(ttl_ms)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// The enabled account of a live session (by hash).
    ///
    /// # Errors
    /// Database failures.
    pub async fn session(&self, hash: &[u8]) -> Result<Option<WebSession>, Error> {
        #[derive(sqlx::FromRow)]
        struct Row {
            id: i64,
            name: String,
            is_admin: bool,
            disabled: bool,
            created_at: String,
            csrf: String,
        }
        let row = on_db!(&self.db, pool, d => sqlx::query_as::<_, Row>(&sql(d, "SELECT u.id, u.name, u.is_admin, u.disabled, u.created_at, s.csrf
             FROM web_sessions s JOIN users u ON u.id = s.user_id
             WHERE s.hash = ? AND NOT u.disabled AND s.expires_ms > {now_ms}"))
        .bind(hash)
        .fetch_optional(pool).await)?;
        Ok(row.map(|r| WebSession {
            user: User {
                id: r.id,
                name: r.name,
                is_admin: r.is_admin,
                disabled: r.disabled,
                created_at: r.created_at,
            },
            csrf: r.csrf,
        }))
    }

    /// Ends a session (signing out); expired ones are swept at the same time.
    ///
    /// # Errors
    /// Database failures.
    pub async fn end_session(&self, hash: &[u8]) -> Result<(), Error> {
        on_db!(&self.db, pool, d => sqlx::query(&sql(d, "DELETE FROM web_sessions WHERE hash = ? OR expires_ms <= {now_ms}"))
        .bind(hash)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// An account with its password hash, by name, for signing in.
    ///
    /// # Errors
    /// Database failures.
    pub async fn user_with_password(&self, name: &str) -> Result<Option<(User, String)>, Error> {
        let row = on_db!(&self.db, pool, d => sqlx::query_as::<_, PasswordRow>(&sql(d, "SELECT id, name, is_admin, disabled, created_at, password_hash
             FROM users WHERE name = ?"))
        .bind(name)
        .fetch_optional(pool).await)?;
        Ok(row.map(PasswordRow::split))
    }

    /// An account with its password hash, by id: what a password that
    /// signed in is checked against again.
    ///
    /// # Errors
    /// Database failures.
    pub async fn user_with_password_by_id(&self, id: i64) -> Result<Option<(User, String)>, Error> {
        let row = on_db!(&self.db, pool, d => sqlx::query_as::<_, PasswordRow>(&sql(d, "SELECT id, name, is_admin, disabled, created_at, password_hash
             FROM users WHERE id = ?"))
        .bind(id)
        .fetch_optional(pool).await)?;
        Ok(row.map(PasswordRow::split))
    }

    /// Replaces a user's password hash and ends their sessions.
    ///
    /// # Errors
    /// [`Error::NoUser`]; database failures.
    pub async fn set_password(&self, name: &str, password_hash: &str) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let done = sqlx::query(&sql(d, "UPDATE users SET password_hash = ? WHERE name = ?"))
                .bind(password_hash)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            if done.rows_affected() == 0 {
                return Err(Error::NoUser(name.to_string()));
            }
            sqlx::query(&sql(
                d,
                "DELETE FROM web_sessions WHERE user_id = (SELECT id FROM users WHERE name = ?)",
            ))
            .bind(name)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Grants or withdraws the admin role.
    ///
    /// # Errors
    /// [`Error::NoUser`]; database failures.
    pub async fn set_admin(&self, name: &str, is_admin: bool) -> Result<(), Error> {
        self.set_account_flag(
            name,
            "UPDATE users SET is_admin = ? WHERE name = ? RETURNING id",
            is_admin,
        )
        .await
    }

    /// Each problem a user has a verdict on, with every distinct verdict
    /// they got there (the caller picks the best).
    ///
    /// # Errors
    /// Database failures.
    pub async fn verdicts_of(&self, user_id: i64) -> Result<Vec<(String, String)>, Error> {
        Ok(
            on_db!(&self.db, pool, d => sqlx::query_as::<_, (String, String)>(&sql(d, "SELECT problem, verdict FROM submissions
             WHERE user_id = ? AND verdict IS NOT NULL GROUP BY problem, verdict"))
        .bind(user_id)
        .fetch_all(pool).await)?,
        )
    }

    /// Submissions by queue status.
    ///
    /// # Errors
    /// Database failures.
    pub async fn queue_counts(&self) -> Result<QueueCounts, Error> {
        let rows = on_db!(&self.db, pool, d => sqlx::query_as::<_, (String, i64)>(&sql(d, "SELECT status, COUNT(*) FROM submissions GROUP BY status"))
        .fetch_all(pool).await)?;
        let mut c = QueueCounts::default();
        for (status, n) in rows {
            match status.as_str() {
                "queued" => c.queued = n,
                "judging" => c.judging = n,
                _ => c.done += n,
            }
        }
        Ok(c)
    }

    /// The submissions being judged now, oldest claim first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn judging(&self) -> Result<Vec<Judging>, Error> {
        Ok(
            on_db!(&self.db, pool, d => sqlx::query_as::<_, Judging>(&sql(d, "SELECT s.id, s.problem, u.name AS user, s.attempt, s.claimed_at
             FROM submissions s LEFT JOIN users u ON u.id = s.user_id
             WHERE s.status = 'judging' ORDER BY s.claimed_at, s.id LIMIT 100"))
        .fetch_all(pool).await)?,
        )
    }
}

/// A process running judge workers, as it last reported.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkerRow {
    pub name: String,
    pub workers: i64,
    pub tiers: String,
    /// Ids of the submissions in hand, comma-separated.
    pub current: String,
    pub started_at: String,
    /// Milliseconds since the last heartbeat.
    pub silent_ms: i64,
    /// The machine's cores.
    pub cores: i64,
    /// The languages its workers judge, `id version` a line.
    pub languages: String,
}

impl Store {
    /// Records (or records again) a process running `workers` workers.
    ///
    /// # Errors
    /// Database failures.
    pub async fn register_workers(
        &self,
        name: &str,
        workers: i64,
        tiers: &str,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => sqlx::query(&sql(d, "INSERT INTO workers (name, workers, tiers, seen_ms) VALUES (?1, ?2, ?3, {now_ms}) ON CONFLICT (name) DO UPDATE SET workers = ?2, tiers = ?3, current = '',
                 started_at = {now_text}, seen_ms = {now_ms}"))
        .bind(name)
        .bind(workers)
        .bind(tiers)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// A heartbeat with the submissions in hand.
    ///
    /// # Errors
    /// Database failures.
    pub async fn workers_alive(&self, name: &str, current: &str) -> Result<(), Error> {
        on_db!(&self.db, pool, d => sqlx::query(&sql(d, "UPDATE workers SET current = ?, seen_ms = {now_ms} WHERE name = ?"))
        .bind(current)
        .bind(name)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// Records what a process's workers can judge: the machine's cores
    /// and its languages (`id version` a line).
    ///
    /// # Errors
    /// Database failures.
    pub async fn announce_workers(
        &self,
        name: &str,
        cores: i64,
        languages: &str,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            sqlx::query(&sql(d, "UPDATE workers SET cores = ?, languages = ? WHERE name = ?"))
                .bind(cores)
                .bind(languages)
                .bind(name)
                .execute(pool)
                .await?
                .rows_affected()
        });
        Ok(())
    }

    /// Forgets a process that stopped.
    ///
    /// # Errors
    /// Database failures.
    pub async fn unregister_workers(&self, name: &str) -> Result<(), Error> {
        on_db!(&self.db, pool, d => sqlx::query(&sql(d, "DELETE FROM workers WHERE name = ?"))
            .bind(name)
            .execute(pool).await.map(|r| r.rows_affected()))?;
        Ok(())
    }

    /// Forgets the processes not heard from for `silent` (dead: killed,
    /// or their machine gone), so restarts do not pile up names; their
    /// history (claims, calibrations, refusals) stays. Returns how many.
    ///
    /// # Errors
    /// Database failures.
    pub async fn forget_silent_workers(&self, silent: std::time::Duration) -> Result<u64, Error> {
        let silent_ms = i64::try_from(silent.as_millis()).unwrap_or(i64::MAX / 2);
        Ok(
            on_db!(&self.db, pool, d => sqlx::query(&sql(d, "DELETE FROM workers WHERE seen_ms < {now_ms} - ?"))
            .bind(silent_ms)
            .execute(pool).await?.rows_affected()),
        )
    }

    /// Every process that reported, most recently seen first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn worker_processes(&self) -> Result<Vec<WorkerRow>, Error> {
        Ok(
            on_db!(&self.db, pool, d => sqlx::query_as::<_, WorkerRow>(&sql(d, "SELECT name, workers, tiers, current, started_at, {now_ms} - seen_ms AS silent_ms,
                    cores, languages FROM workers ORDER BY seen_ms DESC, name"))
        .fetch_all(pool).await)?,
        )
    }
}

/// An account's row with its password hash.
#[derive(sqlx::FromRow)]
struct PasswordRow {
    id: i64,
    name: String,
    is_admin: bool,
    disabled: bool,
    created_at: String,
    password_hash: String,
}

impl PasswordRow {
    fn split(self) -> (User, String) {
        (
            User {
                id: self.id,
                name: self.name,
                is_admin: self.is_admin,
                disabled: self.disabled,
                created_at: self.created_at,
            },
            self.password_hash,
        )
    }
}
