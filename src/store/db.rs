//! The two databases behind [`Store`](super::Store): which one is open,
//! and the few words of SQL in which they differ.
//!
//! Every query of the store is written once, in SQLite's spelling, and
//! run on either database through [`on_db!`] and [`sql`]:
//! - `?` and `?N` placeholders are SQLite's; on PostgreSQL [`sql`] turns
//!   them into `$N` (numbered as SQLite numbers them: a bare `?` is one
//!   more than the largest number before it);
//! - what only one database can say is a `{word}` that [`sql`] spells for
//!   each (see [`WORDS`]): the clock, a claim that skips rows other
//!   transactions hold, an empty blob.
//!
//! Where two databases need different statements altogether (a JSON
//! aggregate, an advisory lock) a method matches on the [`Dialect`].

use std::borrow::Cow;

use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;

/// An open database.
#[derive(Debug, Clone)]
pub(crate) enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Which database a statement is spelled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// Runs `$body` with `$pool` bound to the open database's pool and `$d`
/// to its [`Dialect`]: the body is compiled once per database, so a bound
/// value or a row type must suit both (`i64`, `f64`, `bool`, `String`,
/// `Vec<u8>` and their `Option`s do).
macro_rules! on_db {
    ($db:expr, $pool:ident, $d:ident => $body:expr) => {
        match $db {
            $crate::store::db::Db::Sqlite($pool) => {
                #[allow(unused_variables)]
                let $d = $crate::store::db::Dialect::Sqlite;
                $body
            }
            $crate::store::db::Db::Postgres($pool) => {
                #[allow(unused_variables)]
                let $d = $crate::store::db::Dialect::Postgres;
                $body
            }
        }
    };
}
pub(crate) use on_db;

/// Runs `$body`, a read, with `$exec` bound to the connection it reads on
/// and `$d` to its dialect: one of the store's own SQLite connections
/// ([`super::readers`]) when one is free, which answers in one trip to
/// its thread; else one from the pool ([`on_db!`]), held for the whole
/// body, which costs a second trip as it goes back. For the reads that
/// every status poll and every poll of a contest's pages make.
macro_rules! on_reader {
    ($store:expr, $exec:ident, $d:ident => $body:expr) => {
        match $store.readers.free().await {
            Some(mut reader) => {
                #[allow(unused_variables)]
                let $d = $crate::store::db::Dialect::Sqlite;
                let $exec = reader.connection();
                $body
            }
            None => $crate::store::db::on_db!(&$store.db, pool, $d => {
                let mut held = pool.acquire().await?;
                let $exec = &mut *held;
                $body
            }),
        }
    };
}
pub(crate) use on_reader;

/// An open transaction (or connection) on either database, as the
/// functions that write within a caller's transaction take it: the
/// record's appends, which every kind of change makes in its own
/// transaction. A caller in an [`on_db!`] body passes `tx.as_tx()`
/// ([`AsTx`]); the function runs its body for the one database with
/// [`on_tx!`].
pub(crate) enum Tx<'t> {
    Sqlite(&'t mut sqlx::SqliteConnection),
    Postgres(&'t mut sqlx::PgConnection),
}

/// A transaction or a connection lent as a [`Tx`].
pub(crate) trait AsTx {
    fn as_tx(&mut self) -> Tx<'_>;
}

impl AsTx for sqlx::SqliteConnection {
    fn as_tx(&mut self) -> Tx<'_> {
        Tx::Sqlite(self)
    }
}

impl AsTx for sqlx::PgConnection {
    fn as_tx(&mut self) -> Tx<'_> {
        Tx::Postgres(self)
    }
}

impl AsTx for sqlx::Transaction<'_, sqlx::Sqlite> {
    fn as_tx(&mut self) -> Tx<'_> {
        Tx::Sqlite(self)
    }
}

impl AsTx for sqlx::Transaction<'_, sqlx::Postgres> {
    fn as_tx(&mut self) -> Tx<'_> {
        Tx::Postgres(self)
    }
}

/// Runs `$body` with `$c` bound to [`Tx`] `$tx`'s connection and `$d` to
/// its [`Dialect`], as [`on_db!`] does for a pool.
macro_rules! on_tx {
    ($tx:expr, $c:ident, $d:ident => $body:expr) => {
        match $tx {
            $crate::store::db::Tx::Sqlite($c) => {
                #[allow(unused_variables)]
                let $d = $crate::store::db::Dialect::Sqlite;
                $body
            }
            $crate::store::db::Tx::Postgres($c) => {
                #[allow(unused_variables)]
                let $d = $crate::store::db::Dialect::Postgres;
                $body
            }
        }
    };
}
pub(crate) use on_tx;

/// A duration as the whole milliseconds a statement adds to or takes from
/// `{now_ms}` (saturating far beyond any lease or freshness window).
pub(crate) fn millis(d: std::time::Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX / 2)
}

/// `{is_team}` of [`WORDS`], spelled alike for both databases.
const IS_TEAM: &str = "((?2 AND NOT u.is_admin AND NOT u.disabled)
    OR u.id IN (SELECT user_id FROM contest_participants WHERE contest_id = ?1)
    OR (u.id IN (SELECT user_id FROM submissions WHERE contest_id = ?1) AND NOT u.is_admin))";

/// The `{word}`s a statement may use, spelled for SQLite and PostgreSQL.
pub const WORDS: &[(&str, &str, &str)] = &[
    // The database's clock in Unix milliseconds (one value per statement).
    (
        "{now_ms}",
        "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
        "CAST(EXTRACT(EPOCH FROM statement_timestamp()) * 1000 AS BIGINT)",
    ),
    // Now, in the format of the `*_at` columns (sortable text, UTC).
    (
        "{now_text}",
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
        "to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')",
    ),
    // A minute ago, in the same format.
    (
        "{minute_ago_text}",
        "strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-60 seconds')",
        "to_char((statement_timestamp() - interval '60 seconds') AT TIME ZONE 'UTC', \
         'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')",
    ),
    // After a subquery that picks rows to update: pass over the rows
    // another transaction holds instead of waiting for them (SQLite has
    // one writer at a time, so nothing to skip).
    ("{skip_locked}", "", "FOR UPDATE SKIP LOCKED"),
    // The CLICS id of the team of account `u` (a row of `users` named
    // `u`): the one its registration gave it, else its account number.
    (
        "{team_id}",
        "COALESCE(u.team_id, CAST(u.id AS TEXT))",
        "COALESCE(u.team_id, CAST(u.id AS TEXT))",
    ),
    // Whether account `u` (a row of `users` named `u`) is a team of the
    // contest bound as `?1`, which is open to all where `?2`: listed among
    // its participants, or no admin and either signed up by its openness
    // (an enabled account) or a submitter in it. A jury's (an admin's)
    // tries make no team. The teams the boards show and those the record
    // tells are both read by it; a try's own check (`record_try`) is its
    // one-row form: its submitter is a team unless an unlisted admin.
    ("{is_team}", IS_TEAM, IS_TEAM),
    // The queue's fence, the one condition of every write a worker makes
    // under its lease: the submission is still being judged, in the
    // attempt the lease holds (the lease's id and attempt are bound next,
    // in that order). A worker whose lease was lost (expired and claimed
    // again, rejudged, withdrawn) writes nothing. Its parameters are bare
    // `?`, so the statement's others must be too: sqlx's SQLite driver
    // numbers bare ones from 1 whatever numbered ones come before.
    (
        "{held}",
        "id = ? AND attempt = ? AND status = 'judging'",
        "id = ? AND attempt = ? AND status = 'judging'",
    ),
    // The items of a JSON array of strings (a bound text), as the rows of
    // one column `value`: membership by value (`x IN (SELECT value FROM
    // {json_items}(?))`), where a pattern would read `_` and `%`.
    ("{json_items}", "json_each", "json_array_elements_text"),
    // The type a JSON text is cast to for {json_items}.
    ("{json}", "TEXT", "json"),
    // A text's position in another (0: nowhere), taken as it is.
    ("{position}", "instr", "strpos"),
    // The problems of a contest (a row of `contests`, unnamed), as the
    // text of a JSON array of `[position, label, problem, colour]`: its row
    // and its problems read in one statement.
    (
        "{contest_problems}",
        "(SELECT json_group_array(json_array(position, label, problem, rgb))
          FROM contest_problems WHERE contest_id = contests.id)",
        "(SELECT CAST(json_agg(json_build_array(position, label, problem, rgb)) AS TEXT)
          FROM contest_problems WHERE contest_id = contests.id)",
    ),
    // An empty blob.
    ("{empty_blob}", "X''", "'\\x'::bytea"),
    // A line feed.
    ("{newline}", "char(10)", "chr(10)"),
];

/// `text` (SQLite's spelling, with `{word}`s) for `dialect`: a statement
/// written out, or one put together at run time (rows of one insert).
pub fn sql(dialect: Dialect, text: impl Into<Cow<'static, str>>) -> Cow<'static, str> {
    let mut out: Cow<'static, str> = text.into();
    for (word, sqlite, postgres) in WORDS {
        if out.contains(word) {
            let spelled = match dialect {
                Dialect::Sqlite => sqlite,
                Dialect::Postgres => postgres,
            };
            out = Cow::Owned(out.replace(word, spelled));
        }
    }
    match dialect {
        Dialect::Sqlite => out,
        Dialect::Postgres => Cow::Owned(numbered(&out)),
    }
}

/// SQLite's `?` and `?N` placeholders as PostgreSQL's `$N`, outside quoted
/// strings and names.
pub(crate) fn numbered(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    let mut largest = 0u32;
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == q {
                    quote = None;
                }
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '?' => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    digits.push(d);
                    chars.next();
                }
                let n = digits.parse::<u32>().unwrap_or(largest + 1);
                largest = largest.max(n);
                out.push('$');
                out.push_str(&n.to_string());
            }
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_as_sqlite_numbers_them() {
        assert_eq!(
            numbered("SELECT ?, ?3, ?, ?1 WHERE a = '?' AND \"b?\" = ?"),
            "SELECT $1, $3, $4, $1 WHERE a = '?' AND \"b?\" = $5"
        );
    }

    #[test]
    fn words_are_spelled_for_each_database_and_sqlite_keeps_its_text() {
        let text = "UPDATE t SET at = {now_text} WHERE id = ? AND until <= {now_ms}";
        let lite = sql(Dialect::Sqlite, text);
        assert!(lite.contains("strftime(") && lite.contains("julianday(") && lite.contains('?'));
        let pg = sql(Dialect::Postgres, text);
        assert!(
            pg.contains("to_char(") && pg.contains("EXTRACT(EPOCH"),
            "{pg}"
        );
        assert!(pg.contains("id = $1") && !pg.contains('{'), "{pg}");
        assert!(matches!(
            sql(Dialect::Sqlite, "SELECT 1"),
            Cow::Borrowed("SELECT 1")
        ));
    }
}
