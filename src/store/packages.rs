//! Problem packages published in the database, for workers on machines
//! without the problems directory: blobs named by their SHA-256, the
//! version of each problem to judge with the test hashes its publisher
//! recorded, the workers that refused one (their build differed), and
//! the problems a starting server is still preparing.

use super::db::{on_db, sql};
use super::{Error, Store};

/// The published version of a problem.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Published {
    pub slug: String,
    /// SHA-256 (hex) of the package blob.
    pub hash: String,
    /// The publisher's tests, JSON: `[{"name", "input_sha256", "answer_sha256"}]`.
    pub tests: String,
    pub published_at: String,
}

/// A worker that refused a problem's package.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Refusal {
    pub worker: String,
    pub problem: String,
    pub hash: String,
    pub reason: String,
    pub at: String,
}

impl Store {
    /// Stores package blob `blob` (named `hash`) and the test `files`
    /// (each named by its SHA-256) where new, and makes it the version of
    /// `slug` workers judge, with the publisher's `tests` (its test set's
    /// index), in one transaction.
    ///
    /// # Errors
    /// Database failures.
    pub async fn publish_package(
        &self,
        slug: &str,
        (hash, blob): (&str, &[u8]),
        tests: &str,
        files: &[(String, Vec<u8>)],
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            for (sha256, bytes) in files {
                sqlx::query(&sql(
                    d,
                    "INSERT INTO test_files (sha256, bytes) VALUES (?, ?)
                     ON CONFLICT (sha256) DO NOTHING",
                ))
                .bind(sha256)
                .bind(bytes)
                .execute(&mut *tx)
                .await?;
            }
            sqlx::query(&sql(
                d,
                "INSERT INTO packages (hash, slug, blob) VALUES (?, ?, ?)
                 ON CONFLICT (hash) DO NOTHING",
            ))
            .bind(hash)
            .bind(slug)
            .bind(blob)
            .execute(&mut *tx)
            .await?;
            sqlx::query(&sql(
                d,
                "INSERT INTO published_problems (slug, hash, tests) VALUES (?1, ?2, ?3)
                 ON CONFLICT (slug) DO UPDATE SET hash = ?2, tests = ?3,
                     published_at = {now_text}",
            ))
            .bind(slug)
            .bind(hash)
            .bind(tests)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// The published version of `slug`, if any.
    ///
    /// # Errors
    /// Database failures.
    pub async fn published(&self, slug: &str) -> Result<Option<Published>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Published>(&sql(
                d,
                "SELECT slug, hash, tests, published_at FROM published_problems WHERE slug = ?",
            ))
            .bind(slug)
            .fetch_optional(pool)
            .await?
        }))
    }

    /// The package blob named `hash`, if stored.
    ///
    /// # Errors
    /// Database failures.
    pub async fn package_blob(&self, hash: &str) -> Result<Option<Vec<u8>>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, Vec<u8>>(&sql(d, "SELECT blob FROM packages WHERE hash = ?"))
                .bind(hash)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// A published test file (an input or an answer) by its SHA-256, if
    /// stored.
    ///
    /// # Errors
    /// Database failures.
    pub async fn test_file(&self, sha256: &str) -> Result<Option<Vec<u8>>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, Vec<u8>>(&sql(d, "SELECT bytes FROM test_files WHERE sha256 = ?"))
                .bind(sha256)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// Records that `worker` refused version `hash` of `problem`, and why.
    ///
    /// # Errors
    /// Database failures.
    pub async fn refuse_package(
        &self,
        worker: &str,
        problem: &str,
        hash: &str,
        reason: &str,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "INSERT INTO worker_refusals (worker, problem, hash, reason) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (worker, problem, hash) DO UPDATE SET reason = ?4, at = {now_text}",
            ))
            .bind(worker)
            .bind(problem)
            .bind(hash)
            .bind(reason)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(())
    }

    /// Every refusal of a problem's current version (or of a package that
    /// could not be fetched), newest first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn refusals(&self) -> Result<Vec<Refusal>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, Refusal>(&sql(
                d,
                "SELECT r.worker, r.problem, r.hash, r.reason, r.at
                 FROM worker_refusals r
                 WHERE r.hash = '' OR EXISTS (SELECT 1 FROM published_problems p
                                              WHERE p.slug = r.problem AND p.hash = r.hash)
                 ORDER BY r.at DESC, r.worker",
            ))
            .fetch_all(pool)
            .await?
        }))
    }

    /// Holds `slugs` as being prepared by `server` for `hold`: no worker
    /// claims their submissions meanwhile. Taken over from any earlier
    /// holder (a server that restarted prepares them afresh).
    ///
    /// # Errors
    /// Database failures.
    pub async fn hold_preparing(
        &self,
        server: &str,
        slugs: &[String],
        hold: std::time::Duration,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            for slug in slugs {
                sqlx::query(&sql(
                    d,
                    "INSERT INTO preparing_problems (slug, server, until_ms)
                     VALUES (?1, ?2, {now_ms} + ?3)
                     ON CONFLICT (slug) DO UPDATE SET server = ?2, until_ms = {now_ms} + ?3",
                ))
                .bind(slug)
                .bind(server)
                .bind(super::db::millis(hold))
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// Renews every problem `server` still holds as being prepared for
    /// `hold` from now.
    ///
    /// # Errors
    /// Database failures.
    pub async fn renew_preparing(
        &self,
        server: &str,
        hold: std::time::Duration,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            sqlx::query(&sql(
                d,
                "UPDATE preparing_problems SET until_ms = {now_ms} + ? WHERE server = ?",
            ))
            .bind(super::db::millis(hold))
            .bind(server)
            .execute(pool)
            .await?
            .rows_affected()
        });
        Ok(())
    }

    /// Lets go of `slug` (prepared, or given up): its submissions can be
    /// claimed again, and idle workers are woken to claim them. Only
    /// `server`'s own hold goes.
    ///
    /// # Errors
    /// Database failures.
    pub async fn end_preparing(&self, server: &str, slug: &str) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            sqlx::query(&sql(
                d,
                "DELETE FROM preparing_problems WHERE slug = ? AND server = ?",
            ))
            .bind(slug)
            .bind(server)
            .execute(&mut *tx)
            .await?;
            if d == super::db::Dialect::Postgres {
                // Delivered at the commit, as the queue's own trigger's.
                sqlx::query(&format!("NOTIFY {}", super::queue::listen::QUEUE_CHANNEL))
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        });
        Ok(())
    }

    /// The problems being prepared now (held by a server that renews its
    /// hold), by slug.
    ///
    /// # Errors
    /// Database failures.
    pub async fn preparing(&self) -> Result<Vec<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT slug FROM preparing_problems WHERE until_ms > {now_ms} ORDER BY slug",
            ))
            .fetch_all(pool)
            .await?
        }))
    }
}
