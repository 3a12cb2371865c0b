//! What the database says of the catalog's problems beside their packages
//! on disk: which ones an admin hid, which contests hold one, and whether
//! any of its submissions still waits (the questions an admin's upload,
//! hide and removal ask before they change the catalog).

use super::db::{on_db, sql};
use super::{Error, Store};

impl Store {
    /// The catalog problems an admin hid, sorted.
    ///
    /// # Errors
    /// Database failures.
    pub async fn hidden_catalog(&self) -> Result<Vec<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT slug FROM hidden_problems ORDER BY slug",
            ))
            .fetch_all(pool)
            .await?
        }))
    }

    /// Hides catalog problem `slug` from all but admins, or shows it
    /// again; returns whether that changed anything.
    ///
    /// # Errors
    /// Database failures.
    pub async fn set_problem_hidden(&self, slug: &str, hidden: bool) -> Result<bool, Error> {
        let text = match hidden {
            true => {
                "INSERT INTO hidden_problems (slug, hidden_at) VALUES (?, {now_text})
                 ON CONFLICT (slug) DO NOTHING"
            }
            false => "DELETE FROM hidden_problems WHERE slug = ?",
        };
        let changed = on_db!(&self.db, pool, d => {
            sqlx::query(&sql(d, text)).bind(slug).execute(pool).await?.rows_affected()
        });
        Ok(changed > 0)
    }

    /// The contests, in any phase, that hold catalog problem `slug`.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contests_holding(&self, slug: &str) -> Result<Vec<String>, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, String>(&sql(
                d,
                "SELECT DISTINCT c.slug FROM contests c
                 JOIN contest_problems p ON p.contest_id = c.id
                 WHERE p.problem = ? ORDER BY c.slug",
            ))
            .bind(slug)
            .fetch_all(pool)
            .await?
        }))
    }

    /// How many submissions of problem `slug` are queued or being judged.
    ///
    /// # Errors
    /// Database failures.
    pub async fn waiting_of_problem(&self, slug: &str) -> Result<i64, Error> {
        Ok(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT COUNT(*) FROM submissions
                 WHERE problem = ? AND status IN ('queued', 'judging')",
            ))
            .bind(slug)
            .fetch_one(pool)
            .await?
        }))
    }
}
