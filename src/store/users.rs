//! Accounts and API tokens. Passwords arrive here already hashed (argon2)
//! and tokens as SHA-256 hashes: the store never sees a secret.

use super::db::{on_db, on_tx, sql, AsTx, Dialect, Tx};
use super::record;
use super::{Error, Store};
use crate::bounds::Field;

/// An account.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct User {
    pub id: i64,
    pub name: String,
    pub is_admin: bool,
    pub disabled: bool,
    pub created_at: String,
}

/// What `revoke_token_prefix` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revoked {
    One,
    NoMatch,
    /// The prefix names this many live tokens; none was revoked.
    Ambiguous(u64),
}

/// A live token as its owner sees it: never the token, only what names it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow, serde::Serialize)]
pub struct TokenInfo {
    /// Its first characters (too short to use), to name it by.
    pub prefix: String,
    pub created_at: String,
}

impl Store {
    /// Adds an account; returns its id.
    ///
    /// # Errors
    /// [`Error::UserExists`] when the name is taken, [`Error::TooLong`]
    /// for a name over its bound; database failures.
    pub async fn add_user(
        &self,
        name: &str,
        password_hash: &str,
        is_admin: bool,
    ) -> Result<i64, Error> {
        Field::AccountName.check(name)?;
        Ok(on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let r = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "INSERT INTO users (name, password_hash, is_admin) VALUES (?, ?, ?) RETURNING id",
            ))
            .bind(name)
            .bind(password_hash)
            .bind(is_admin)
            .fetch_one(&mut *tx)
            .await;
            let id = match r {
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    return Err(Error::UserExists(name.to_string()))
                }
                other => other?,
            };
            record::own_team_id(tx.as_tx(), id).await?;
            record::record_account(tx.as_tx(), id).await?;
            tx.commit().await?;
            id
        }))
    }

    /// Adds the accounts `users` (name, password hash) together: all of
    /// them, or none when one name is taken.
    ///
    /// # Errors
    /// [`Error::UserExists`] naming the first name taken,
    /// [`Error::TooLong`] for a name over its bound (nothing is added);
    /// database failures.
    pub async fn add_users(&self, users: &[(String, String)]) -> Result<(), Error> {
        on_db!(&self.db, pool, _d => {
            let mut tx = pool.begin().await?;
            add_users_in(tx.as_tx(), users).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Every account, by name.
    ///
    /// # Errors
    /// Database failures.
    pub async fn users(&self) -> Result<Vec<User>, Error> {
        Ok(
            on_db!(&self.db, pool, d => sqlx::query_as::<_, User>(&sql(d, "SELECT id, name, is_admin, disabled, created_at FROM users ORDER BY name"))
        .fetch_all(pool).await)?,
        )
    }

    /// Each account's organization's name, for the accounts that have
    /// one (the boards show it under the team).
    ///
    /// # Errors
    /// Database failures.
    pub async fn organization_names(
        &self,
    ) -> Result<std::collections::HashMap<i64, String>, Error> {
        let rows = on_db!(&self.db, pool, d => {
            sqlx::query_as::<_, (i64, String)>(&sql(
                d,
                "SELECT u.id, o.name FROM users u JOIN organizations o ON o.id = u.organization_id",
            ))
            .fetch_all(pool)
            .await?
        });
        Ok(rows.into_iter().collect())
    }

    /// One account by name.
    ///
    /// # Errors
    /// Database failures.
    pub async fn user(&self, name: &str) -> Result<Option<User>, Error> {
        Ok(
            on_db!(&self.db, pool, d => sqlx::query_as::<_, User>(&sql(d, "SELECT id, name, is_admin, disabled, created_at FROM users WHERE name = ?"))
        .bind(name)
        .fetch_optional(pool).await)?,
        )
    }

    /// Enables or disables an account (a disabled one's sessions and tokens
    /// stop working at once: every request checks the account).
    ///
    /// # Errors
    /// [`Error::NoUser`]; database failures.
    pub async fn set_disabled(&self, name: &str, disabled: bool) -> Result<(), Error> {
        self.set_account_flag(
            name,
            "UPDATE users SET disabled = ? WHERE name = ? RETURNING id",
            disabled,
        )
        .await
    }

    /// Sets one flag of account `name` with `update` (binding the flag and
    /// the name, returning the id), and records the change in the contests
    /// open to all, in one transaction.
    pub(super) async fn set_account_flag(
        &self,
        name: &str,
        update: &'static str,
        flag: bool,
    ) -> Result<(), Error> {
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let id = sqlx::query_scalar::<_, i64>(&sql(d, update))
                .bind(flag)
                .bind(name)
                .fetch_optional(&mut *tx)
                .await?;
            let Some(id) = id else {
                return Err(Error::NoUser(name.to_string()));
            };
            record::record_account(tx.as_tx(), id).await?;
            tx.commit().await?;
        });
        self.credentials.changed();
        Ok(())
    }

    /// Stores a new token's hash for a user.
    ///
    /// # Errors
    /// [`Error::NoUser`]; database failures.
    pub async fn add_token(&self, user: &str, hash: &[u8], prefix: &str) -> Result<(), Error> {
        let done = on_db!(&self.db, pool, d => sqlx::query(&sql(d, "INSERT INTO tokens (user_id, hash, prefix) SELECT id, ?, ? FROM users WHERE name = ?"))
        .bind(hash)
        .bind(prefix)
        .bind(user)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        if done == 0 {
            return Err(Error::NoUser(user.to_string()));
        }
        Ok(())
    }

    /// Stores a new token's hash for account `user_id` unless it already
    /// has `max` live tokens: `false` then, and nothing stored. The count
    /// and the insert are one transaction that first takes the account's
    /// row for writing (`FOR UPDATE` on PostgreSQL; on SQLite a write,
    /// which takes the database's one write lock), so requests sent at
    /// once are counted one after another and none passes the cap.
    ///
    /// # Errors
    /// [`Error::NoUser`] (as `#id`); database failures.
    pub async fn add_own_token(
        &self,
        user_id: i64,
        hash: &[u8],
        prefix: &str,
        max: usize,
    ) -> Result<bool, Error> {
        let max = i64::try_from(max).unwrap_or(i64::MAX);
        on_db!(&self.db, pool, d => {
            let mut tx = pool.begin().await?;
            let lock = match d {
                Dialect::Postgres => "SELECT id FROM users WHERE id = ? FOR UPDATE",
                Dialect::Sqlite => "UPDATE users SET id = id WHERE id = ? RETURNING id",
            };
            let found = sqlx::query_scalar::<_, i64>(&sql(d, lock))
                .bind(user_id)
                .fetch_optional(&mut *tx)
                .await?;
            if found.is_none() {
                return Err(Error::NoUser(format!("#{user_id}")));
            }
            let live = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "SELECT COUNT(*) FROM tokens WHERE user_id = ? AND revoked_at IS NULL",
            ))
            .bind(user_id)
            .fetch_one(&mut *tx)
            .await?;
            if live >= max {
                tx.rollback().await?;
                return Ok(false);
            }
            sqlx::query(&sql(d, "INSERT INTO tokens (user_id, hash, prefix) VALUES (?, ?, ?)"))
                .bind(user_id)
                .bind(hash)
                .bind(prefix)
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        });
        Ok(true)
    }

    /// Revokes every live token of account `user_id`; how many.
    ///
    /// # Errors
    /// Database failures.
    pub async fn revoke_tokens_of(&self, user_id: i64) -> Result<u64, Error> {
        let n = on_db!(&self.db, pool, d => sqlx::query(&sql(d, "UPDATE tokens SET revoked_at = {now_text}
             WHERE user_id = ? AND revoked_at IS NULL"))
        .bind(user_id)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        self.credentials.changed();
        Ok(n)
    }

    /// Revokes the live token with this hash; false when there is none.
    ///
    /// # Errors
    /// Database failures.
    pub async fn revoke_token(&self, hash: &[u8]) -> Result<bool, Error> {
        let done = on_db!(&self.db, pool, d => sqlx::query(&sql(d, "UPDATE tokens SET revoked_at = {now_text}
             WHERE hash = ? AND revoked_at IS NULL"))
        .bind(hash)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        self.credentials.changed();
        Ok(done == 1)
    }

    /// Revokes the one live token whose recorded prefix starts with
    /// `prefix`; nothing when several match.
    ///
    /// # Errors
    /// Database failures.
    pub async fn revoke_token_prefix(&self, prefix: &str) -> Result<Revoked, Error> {
        let done = on_db!(&self.db, pool, d => sqlx::query(&sql(d, "UPDATE tokens SET revoked_at = {now_text}
             WHERE revoked_at IS NULL AND substr(prefix, 1, length(?1)) = ?1
               AND (SELECT COUNT(*) FROM tokens WHERE revoked_at IS NULL
                        AND substr(prefix, 1, length(?1)) = ?1) = 1"))
        .bind(prefix)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        if done == 1 {
            self.credentials.changed();
            return Ok(Revoked::One);
        }
        let n = on_db!(&self.db, pool, d => sqlx::query_scalar::<_, i64>(&sql(d, "SELECT COUNT(*) FROM tokens WHERE revoked_at IS NULL
                 AND substr(prefix, 1, length(?1)) = ?1"))
        .bind(prefix)
        .fetch_one(pool).await)?;
        Ok(match n {
            0 => Revoked::NoMatch,
            n => Revoked::Ambiguous(n as u64),
        })
    }

    /// The enabled account a live token (by hash) belongs to.
    ///
    /// # Errors
    /// Database failures.
    pub async fn user_for_token(&self, hash: &[u8]) -> Result<Option<User>, Error> {
        // The mark first, then the database (see `credentials`).
        let mark = self.credentials.mark();
        if let Some(user) = mark.and_then(|m| self.credentials.kept(hash, m)) {
            return Ok(Some(user));
        }
        let user = on_db!(&self.db, pool, d => sqlx::query_as::<_, User>(&sql(d, "SELECT u.id, u.name, u.is_admin, u.disabled, u.created_at
             FROM tokens t JOIN users u ON u.id = t.user_id
             WHERE t.hash = ? AND t.revoked_at IS NULL AND NOT u.disabled"))
        .bind(hash)
        .fetch_optional(pool).await)?;
        if let (Some(mark), Some(user)) = (mark, &user) {
            self.credentials.keep(hash, user, mark);
        }
        Ok(user)
    }

    /// Whether a live token (by hash) belongs to a disabled account. Only
    /// for telling a refused token's sender why: whoever sends the token
    /// holds it, and its account's state is theirs to know.
    ///
    /// # Errors
    /// Database failures.
    pub async fn token_of_disabled_account(&self, hash: &[u8]) -> Result<bool, Error> {
        let n = on_db!(&self.db, pool, d => sqlx::query_scalar::<_, i64>(&sql(d, "SELECT COUNT(*)
             FROM tokens t JOIN users u ON u.id = t.user_id
             WHERE t.hash = ? AND t.revoked_at IS NULL AND u.disabled"))
        .bind(hash)
        .fetch_one(pool).await)?;
        Ok(n > 0)
    }

    /// The live tokens of account `user_id`, oldest first.
    ///
    /// # Errors
    /// Database failures.
    pub async fn tokens_of(&self, user_id: i64) -> Result<Vec<TokenInfo>, Error> {
        Ok(
            on_db!(&self.db, pool, d => sqlx::query_as::<_, TokenInfo>(&sql(d,
            "SELECT prefix, created_at FROM tokens WHERE user_id = ? AND revoked_at IS NULL
             ORDER BY id"))
        .bind(user_id)
        .fetch_all(pool).await)?,
        )
    }

    /// Revokes the one live token of account `user_id` whose prefix starts
    /// with `prefix` (another account's tokens are never matched); nothing
    /// when several match.
    ///
    /// # Errors
    /// Database failures.
    pub async fn revoke_own_token(&self, user_id: i64, prefix: &str) -> Result<Revoked, Error> {
        let done = on_db!(&self.db, pool, d => sqlx::query(&sql(d, "UPDATE tokens SET revoked_at = {now_text}
             WHERE user_id = ?2 AND revoked_at IS NULL AND substr(prefix, 1, length(?1)) = ?1
               AND (SELECT COUNT(*) FROM tokens WHERE user_id = ?2 AND revoked_at IS NULL
                        AND substr(prefix, 1, length(?1)) = ?1) = 1"))
        .bind(prefix)
        .bind(user_id)
        .execute(pool).await.map(|r| r.rows_affected()))?;
        if done == 1 {
            self.credentials.changed();
            return Ok(Revoked::One);
        }
        let n = on_db!(&self.db, pool, d => sqlx::query_scalar::<_, i64>(&sql(d, "SELECT COUNT(*) FROM tokens
             WHERE user_id = ?2 AND revoked_at IS NULL AND substr(prefix, 1, length(?1)) = ?1"))
        .bind(prefix)
        .bind(user_id)
        .fetch_one(pool).await)?;
        Ok(match n {
            0 => Revoked::NoMatch,
            n => Revoked::Ambiguous(n as u64),
        })
    }
}

/// [`Store::add_users`] within the caller's transaction.
pub(super) async fn add_users_in(tx: Tx<'_>, users: &[(String, String)]) -> Result<(), Error> {
    for (name, _) in users {
        Field::AccountName.check(name)?;
    }
    on_tx!(tx, tx, d => {
        for (name, hash) in users {
            let r = sqlx::query_scalar::<_, i64>(&sql(
                d,
                "INSERT INTO users (name, password_hash, is_admin) VALUES (?, ?, ?) RETURNING id",
            ))
            .bind(name)
            .bind(hash)
            .bind(false)
            .fetch_one(&mut *tx)
            .await;
            let id = match r {
                Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                    return Err(Error::UserExists(name.clone()))
                }
                other => other?,
            };
            record::own_team_id(tx.as_tx(), id).await?;
            record::record_account(tx.as_tx(), id).await?;
        }
    });
    Ok(())
}
