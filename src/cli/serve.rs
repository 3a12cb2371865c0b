//! `grundy serve`: the hosted judge in one process (the API and the
//! workers, or none with `--workers 0`), until SIGTERM or Ctrl-C; `grundy
//! worker`: the workers alone, for another machine that shares the
//! database.

use std::sync::Arc;

use anyhow::{bail, Context as _};

use crate::context::Context;
use crate::server::AppState;

pub fn run(
    ctx: &Arc<Context>,
    bind: Option<String>,
    workers: Option<usize>,
    insecure: bool,
) -> anyhow::Result<u8> {
    let (workers, rt) = prepare(ctx, workers, insecure)?;
    let bind = bind.unwrap_or_else(|| ctx.config.server.bind.clone());
    rt.block_on(async {
        let store = super::open_store(ctx).await?;
        if store.notifies() {
            // PostgreSQL: workers elsewhere judge from the published
            // packages, so every problem is published first.
            let slugs = ctx.catalog.slugs().context("listing the problems")?;
            publish_each(ctx, &store, &slugs, false).await?;
        }
        let listener = tokio::net::TcpListener::bind(&bind)
            .await
            .with_context(|| format!("listening on {bind}"))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        // On stdout, one line, so a script (or a test) binding port 0
        // learns the port.
        println!(
            "grundy: serving http://{addr}/api/v1 with {}",
            workers_word(workers)
        );
        let state = AppState::new(ctx.clone(), store.clone());
        crate::hosted::serve(listener, state, workers, shutdown_signal())
            .await
            .context("serving")?;
        store.close().await;
        eprintln!("grundy: stopped");
        Ok(0)
    })
}

/// "1 worker", "2 workers", "0 workers".
fn workers_word(n: usize) -> String {
    crate::plural::count(n, "worker", "workers")
}

/// `grundy worker`: judge workers against the configured database until
/// SIGTERM or Ctrl-C.
pub fn worker(ctx: &Arc<Context>, workers: Option<usize>, insecure: bool) -> anyhow::Result<u8> {
    if workers == Some(0) {
        bail!("grundy worker --workers 0 would judge nothing (give 1 or more)");
    }
    let (workers, rt) = prepare(ctx, workers, insecure)?;
    rt.block_on(async {
        let store = super::open_store(ctx).await?;
        println!("grundy: judging with {}", workers_word(workers));
        crate::worker::work(ctx.clone(), store.clone(), workers, shutdown_signal())
            .await
            .context("judging")?;
        store.close().await;
        eprintln!("grundy: stopped");
        Ok(0)
    })
}

/// `grundy publish`: the named problems, or every one, published to the
/// configured database.
pub fn publish(ctx: &Arc<Context>, problems: &[String], all: bool) -> anyhow::Result<u8> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    rt.block_on(async {
        let store = super::open_store(ctx).await?;
        let slugs = if all {
            ctx.catalog.slugs().context("listing the problems")?
        } else {
            problems.to_vec()
        };
        let failed = publish_each(ctx, &store, &slugs, true).await?;
        store.close().await;
        Ok(if failed == 0 { 0 } else { 2 })
    })
}

/// Publishes each of `slugs`, on PostgreSQL as many at once as the machine
/// has cores (building a problem's tests runs its generators and
/// solvers). `grundy
/// publish` (`strict`) prints one line each on stdout (`slug hash`), in the
/// order given, and a line on stderr for one that fails; a server says on
/// stderr what it is preparing, a line per problem as each is done, and
/// goes on without the failed ones. Returns how many failed.
async fn publish_each(
    ctx: &Arc<Context>,
    store: &crate::store::Store,
    slugs: &[String],
    strict: bool,
) -> anyhow::Result<usize> {
    use futures_util::stream::{self, StreamExt as _};
    let total = slugs.len();
    // SQLite takes one writer at a time: one problem after another there.
    let at_once = match store.notifies() {
        true => std::thread::available_parallelism().map_or(1, |n| n.get()),
        false => 1,
    }
    .clamp(1, total.max(1));
    if !strict {
        eprintln!(
            "grundy: publishing {} for workers on other machines, {at_once} at a time",
            crate::plural::count(total, "problem", "problems")
        );
    }
    let mut published = stream::iter(slugs)
        .map(|slug| async move {
            let result = crate::worker::packages::publish(ctx, store, slug).await;
            (slug, result)
        })
        .buffered(at_once);
    let (mut done, mut failed) = (0, 0);
    while let Some((slug, result)) = published.next().await {
        done += 1;
        match result {
            Ok(hash) if strict => println!("{slug} {hash}"),
            Ok(hash) => {
                tracing::info!(slug, hash, "published");
                eprintln!("grundy: published {slug} ({done}/{total})");
            }
            Err(e) if strict => {
                failed += 1;
                eprintln!("grundy: publishing {slug}: {}", crate::errors::chain(&e));
            }
            Err(e) => {
                failed += 1;
                let why = crate::errors::chain(&e);
                tracing::warn!(slug, error = %why, "not published");
                eprintln!("grundy: not published {slug} ({done}/{total}): {why}");
            }
        }
    }
    Ok(failed)
}

/// The worker count, the isolation check (for a process that judges:
/// one that only serves runs no submission) and the runtime of a judge
/// that serves others. `--workers 0` means none; `workers = 0` in
/// config.toml means one per core.
fn prepare(
    ctx: &Arc<Context>,
    workers: Option<usize>,
    insecure: bool,
) -> anyhow::Result<(usize, tokio::runtime::Runtime)> {
    let workers = match workers {
        Some(n) => n,
        None => match ctx.config.server.workers {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        },
    };
    if workers > 0 {
        if let Err(why) = ctx.tiers().require_isolation() {
            if !insecure {
                bail!("refusing to serve others without sandbox isolation: {why} (or start with --insecure)");
            }
            tracing::warn!(%why, "serving WITHOUT sandbox isolation (--insecure)");
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    Ok((workers, rt))
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
