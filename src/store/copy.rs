//! Moving a judge from SQLite to PostgreSQL (`grundy db copy`): every
//! table of the source, row by row with its ids, into an empty PostgreSQL
//! database migrated to the same version, in one transaction, then each
//! table counted on both sides.
//!
//! Tables and columns are read from the databases themselves, not listed
//! here: a table a later migration adds moves with the rest. Tables are
//! copied parents first (by their foreign keys); the identity sequences
//! are set past the largest copied id, so new rows get new ids. A table
//! that triggers keep (`KEPT_BY_TRIGGERS`) is made by the target's own.

use std::collections::{BTreeMap, BTreeSet};

use futures_util::TryStreamExt as _;
use sqlx::{Row as _, TypeInfo as _, ValueRef as _};

use super::db::Db;
use super::Store;
use crate::plural::count;

/// Tables that the database's own triggers write from others (see the
/// migrations): not copied, since the target's make them as the rows they
/// count are copied, but counted on both sides like the rest.
const KEPT_BY_TRIGGERS: &[&str] = &["contest_tallies"];

/// One table copied: its name and its rows (as counted on both sides).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    pub table: String,
    pub rows: u64,
}

/// Why a copy was refused or failed (the target is then left as it was:
/// the copy is one transaction).
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("the source database is PostgreSQL: copy moves a judge from SQLite to PostgreSQL")]
    SourceNotSqlite,
    #[error("the target is not PostgreSQL: give a postgres:// URL")]
    TargetNotPostgres,
    #[error(
        "the target database is not empty: table {table} holds {}; copy into a new, empty database",
        count(.rows, "row", "rows")
    )]
    TargetNotEmpty { table: String, rows: u64 },
    #[error("the databases' tables differ ({0}): run the same grundy version on both")]
    Schema(String),
    #[error("table {table}, column {column}: a {found} value does not fit the target's {target}")]
    Value {
        table: String,
        column: String,
        found: String,
        target: String,
    },
    #[error(
        "table {table}: {} in the source but {target_rows} in the target after the copy",
        count(.source_rows, "row", "rows")
    )]
    Count {
        table: String,
        source_rows: u64,
        target_rows: u64,
    },
    #[error("the foreign keys of tables {0} form a cycle")]
    Cycle(String),
    #[error("database")]
    Query(#[from] sqlx::Error),
}

/// One value on its way, as the target column wants it.
enum Value {
    Null,
    Int(i64),
    Bool(bool),
    Real(f64),
    Text(String),
    Bytes(Vec<u8>),
}

impl Store {
    /// Copies everything in this (SQLite) store into `target`
    /// (PostgreSQL, empty), and returns each table with its rows, counted
    /// on both sides after the copy.
    ///
    /// # Errors
    /// [`CopyError`]: the wrong databases, a target not empty, schemas
    /// that differ, a count that does not match; database failures.
    pub async fn copy_to(&self, target: &Store) -> Result<Vec<Copied>, CopyError> {
        let Db::Sqlite(src) = &self.db else {
            return Err(CopyError::SourceNotSqlite);
        };
        let Db::Postgres(dst) = &target.db else {
            return Err(CopyError::TargetNotPostgres);
        };
        let tables: Vec<String> = sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table'
               AND name NOT LIKE 'sqlite_%' AND name <> '_sqlx_migrations' ORDER BY name",
        )
        .fetch_all(src)
        .await?;
        let theirs: Vec<String> = sqlx::query_scalar(
            "SELECT table_name::TEXT FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
               AND table_name <> '_sqlx_migrations' ORDER BY table_name",
        )
        .fetch_all(dst)
        .await?;
        let (ours_set, theirs_set): (BTreeSet<_>, BTreeSet<_>) =
            (tables.iter().collect(), theirs.iter().collect());
        if ours_set != theirs_set {
            let only: Vec<String> = ours_set
                .symmetric_difference(&theirs_set)
                .map(|t| t.to_string())
                .collect();
            return Err(CopyError::Schema(format!(
                "only on one side: {}",
                only.join(", ")
            )));
        }
        for table in &tables {
            let rows = count_pg(dst, table).await?;
            if rows > 0 {
                return Err(CopyError::TargetNotEmpty {
                    table: table.clone(),
                    rows,
                });
            }
        }
        let order = parents_first(src, &tables).await?;
        // One snapshot of the source, one transaction on the target.
        let mut read = src.begin().await?;
        let mut write = dst.begin().await?;
        for table in &order {
            let columns: Vec<(String, String, bool)> = sqlx::query_as(
                "SELECT column_name::TEXT, data_type::TEXT, is_identity = 'YES'
                 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = $1
                 ORDER BY ordinal_position",
            )
            .bind(table)
            .fetch_all(&mut *write)
            .await?;
            let source_columns: BTreeSet<String> =
                sqlx::query_scalar("SELECT name FROM pragma_table_info(?)")
                    .bind(table)
                    .fetch_all(&mut *read)
                    .await?
                    .into_iter()
                    .collect();
            let target_columns: BTreeSet<String> =
                columns.iter().map(|(c, _, _)| c.clone()).collect();
            if source_columns != target_columns {
                return Err(CopyError::Schema(format!("the columns of {table}")));
            }
            if KEPT_BY_TRIGGERS.contains(&table.as_str()) {
                // The target's triggers made its rows as their sources
                // arrived; the counts below still compare them.
                continue;
            }
            let names: Vec<String> = columns.iter().map(|(c, _, _)| quoted(c)).collect();
            let select = format!("SELECT {} FROM {}", names.join(", "), quoted(table));
            let placeholders: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
            let insert = format!(
                "INSERT INTO {} ({}) VALUES ({})",
                quoted(table),
                names.join(", "),
                placeholders.join(", ")
            );
            let mut rows = sqlx::query(&select).fetch(&mut *read);
            while let Some(row) = rows.try_next().await? {
                let mut query = sqlx::query(&insert);
                for (i, (column, kind, _)) in columns.iter().enumerate() {
                    query = match value(&row, i, kind).map_err(|found| CopyError::Value {
                        table: table.clone(),
                        column: column.clone(),
                        found,
                        target: kind.clone(),
                    })? {
                        // A NULL typed as its column is.
                        Value::Null => match kind.as_str() {
                            "bigint" | "integer" | "smallint" => query.bind(None::<i64>),
                            "boolean" => query.bind(None::<bool>),
                            "double precision" | "real" | "numeric" => query.bind(None::<f64>),
                            "bytea" => query.bind(None::<Vec<u8>>),
                            _ => query.bind(None::<String>),
                        },
                        Value::Int(v) => query.bind(v),
                        Value::Bool(v) => query.bind(v),
                        Value::Real(v) => query.bind(v),
                        Value::Text(v) => query.bind(v),
                        Value::Bytes(v) => query.bind(v),
                    };
                }
                query.execute(&mut *write).await?;
            }
            drop(rows);
            // New rows get ids past the copied ones.
            for (column, _, _) in columns.iter().filter(|(_, _, identity)| *identity) {
                let reset = format!(
                    "SELECT setval(pg_get_serial_sequence($1, $2), MAX({c})) FROM {t} HAVING MAX({c}) IS NOT NULL",
                    c = quoted(column),
                    t = quoted(table)
                );
                sqlx::query(&reset)
                    .bind(table)
                    .bind(column)
                    .fetch_optional(&mut *write)
                    .await?;
            }
        }
        write.commit().await?;
        let mut copied = Vec::new();
        for table in &order {
            let source_rows: i64 =
                sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", quoted(table)))
                    .fetch_one(&mut *read)
                    .await?;
            let target_rows = count_pg(dst, table).await?;
            if source_rows as u64 != target_rows {
                return Err(CopyError::Count {
                    table: table.clone(),
                    source_rows: source_rows as u64,
                    target_rows,
                });
            }
            copied.push(Copied {
                table: table.clone(),
                rows: target_rows,
            });
        }
        read.rollback().await?;
        Ok(copied)
    }
}

/// `name` as a quoted SQL identifier.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

async fn count_pg(pool: &sqlx::PgPool, table: &str) -> Result<u64, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", quoted(table)))
        .fetch_one(pool)
        .await?;
    Ok(n as u64)
}

/// `tables` ordered so that every table comes after those its foreign keys
/// point at (ties by name).
async fn parents_first(
    pool: &sqlx::SqlitePool,
    tables: &[String],
) -> Result<Vec<String>, CopyError> {
    let mut parents: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for table in tables {
        let refs: Vec<String> =
            sqlx::query_scalar("SELECT \"table\" FROM pragma_foreign_key_list(?)")
                .bind(table)
                .fetch_all(pool)
                .await?;
        parents.insert(
            table.clone(),
            refs.into_iter().filter(|r| r != table).collect(),
        );
    }
    let mut order: Vec<String> = Vec::new();
    while order.len() < tables.len() {
        let ready: Vec<String> = parents
            .iter()
            .filter(|(t, ps)| !order.contains(t) && ps.iter().all(|p| order.contains(p)))
            .map(|(t, _)| t.clone())
            .collect();
        if ready.is_empty() {
            let left: Vec<&str> = tables
                .iter()
                .filter(|t| !order.contains(t))
                .map(String::as_str)
                .collect();
            return Err(CopyError::Cycle(left.join(", ")));
        }
        order.extend(ready);
    }
    Ok(order)
}

/// Column `i` of a SQLite row as the target's `kind` (PostgreSQL's
/// `data_type`) wants it; the error names what was found.
fn value(row: &sqlx::sqlite::SqliteRow, i: usize, kind: &str) -> Result<Value, String> {
    let raw = row.try_get_raw(i).map_err(|e| e.to_string())?;
    if raw.is_null() {
        return Ok(Value::Null);
    }
    let found = raw.type_info().name().to_string();
    let int = || row.try_get::<i64, _>(i).map_err(|_| found.clone());
    let text = || row.try_get::<String, _>(i).map_err(|_| found.clone());
    Ok(match (kind, found.as_str()) {
        ("bigint" | "integer" | "smallint", "INTEGER") => Value::Int(int()?),
        ("boolean", "INTEGER") => Value::Bool(int()? != 0),
        ("double precision" | "real" | "numeric", "REAL" | "INTEGER") => {
            Value::Real(row.try_get::<f64, _>(i).map_err(|_| found.clone())?)
        }
        ("text", "TEXT") => Value::Text(text()?),
        ("text", "INTEGER") => Value::Text(int()?.to_string()),
        ("bytea", "BLOB") => Value::Bytes(row.try_get::<Vec<u8>, _>(i).map_err(|_| found.clone())?),
        ("bytea", "TEXT") => Value::Bytes(text()?.into_bytes()),
        _ => return Err(found),
    })
}
