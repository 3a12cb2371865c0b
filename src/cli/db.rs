//! `grundy db copy --to URL`: the configured (SQLite) database, whole, into
//! an empty PostgreSQL database, checked by counting every table on both
//! sides; then the organiser points `database_url` at the new one.

use std::io::Write;

use anyhow::{bail, Context as _};
use clap::Subcommand;

use crate::context::Context;
use crate::store::{is_postgres, Store};

#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Copy everything in the configured SQLite database (accounts, tokens,
    /// sessions, submissions with their results and history, contests with
    /// their records, clarifications, workers' speeds, published packages)
    /// into an empty PostgreSQL database, then count each table on both
    /// sides. Stop the judge first. Refuses a target that holds anything.
    Copy {
        /// The PostgreSQL database to fill, e.g.
        /// `postgres://grundy@localhost/grundy` or, over a Unix socket,
        /// `postgres://grundy@localhost/grundy?host=/var/run/postgresql`.
        #[arg(long)]
        to: String,
    },
}

pub fn run(ctx: &Context, command: DbCommand) -> anyhow::Result<u8> {
    let DbCommand::Copy { to } = command;
    let from = ctx.config.database_url();
    if is_postgres(&from) {
        bail!("the configured database is already PostgreSQL: db copy moves a judge from SQLite");
    }
    if !is_postgres(&to) {
        bail!(
            "--to {:?}: give a PostgreSQL URL (postgres://...)",
            crate::store::masked_url(&to)
        );
    }
    let rt = super::runtime()?;
    rt.block_on(async {
        let source = super::open_store(ctx).await?;
        let target = Store::open(&to)
            .await
            .context("opening the target database")?;
        let copied = source.copy_to(&target).await;
        source.close().await;
        target.close().await;
        let copied = copied?;
        let mut out = std::io::stdout().lock();
        let total: u64 = copied.iter().map(|c| c.rows).sum();
        for c in &copied {
            writeln!(out, "{:<24} {:>9}", c.table, c.rows)?;
        }
        writeln!(
            out,
            "copied {total} rows in {} tables; every count matches. \
             Set database_url to the new database and start the judge.",
            copied.len()
        )?;
        Ok(0)
    })
}
