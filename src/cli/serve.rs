//! `grundy serve`: the hosted judge in one process (the API and the
//! workers, or none with `--workers 0`), until SIGTERM or Ctrl-C; `grundy
//! worker`: the workers alone, for another machine that shares the
//! database.

use std::sync::Arc;

use anyhow::{bail, Context as _};

use crate::context::Context;
use crate::server::AppState;
use crate::worker::packages::{self, Published};

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
        let listener = tokio::net::TcpListener::bind(&bind)
            .await
            .with_context(|| format!("listening on {bind}"))?;
        let addr = listener.local_addr().context("reading the bound address")?;
        // PostgreSQL: workers elsewhere judge from the published packages,
        // so every problem is published, while the server already answers;
        // until each is, no worker claims its submissions, and they wait
        // with that reason.
        let held = match store.notifies() {
            true => {
                let slugs = ctx.catalog.slugs().context("listing the problems")?;
                let server = crate::worker::process_name();
                store
                    .hold_preparing(&server, &slugs, packages::PREPARING_HOLD)
                    .await
                    .context("holding the problems while they are prepared")?;
                Some((server, slugs))
            }
            false => None,
        };
        // On stdout, one line, so a script (or a test) binding port 0
        // learns the port.
        println!(
            "grundy: serving http://{addr}/api/v1 with {}",
            workers_word(workers)
        );
        let preparing = async {
            if let Some((server, slugs)) = &held {
                eprintln!(
                    "grundy: publishing {} for workers on other machines, {} at a time",
                    crate::plural::count(slugs.len(), "problem", "problems"),
                    packages::publishing_at_once(&store, slugs.len())
                );
                let prepared = packages::publish_held(ctx, &store, server, slugs, say_prepared);
                if let Err(e) = prepared.await {
                    tracing::error!(error = %crate::errors::chain(&e), "preparing the problems failed");
                }
            }
            std::future::pending::<std::convert::Infallible>().await
        };
        let state = AppState::new(ctx.clone(), store.clone());
        // Stopping while problems are still prepared leaves their holds to
        // lapse by themselves.
        tokio::select! {
            served = crate::hosted::serve(listener, state, workers, shutdown_signal()) => {
                served.context("serving")?;
            }
            never = preparing => match never {},
        }
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

/// What a server says on stderr of each problem it prepared.
fn say_prepared(p: Published<'_>) {
    let (slug, done, total) = (p.slug, p.done, p.total);
    match p.result {
        Ok(hash) => {
            tracing::info!(slug, hash, "published");
            eprintln!("grundy: published {slug} ({done}/{total})");
        }
        Err(e) => {
            let why = crate::errors::chain(&e);
            tracing::warn!(slug, error = %why, "not published");
            eprintln!("grundy: not published {slug} ({done}/{total}): {why}");
        }
    }
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
        // A line per problem on stdout (`slug hash`), in the order given,
        // and one on stderr for each that fails.
        let mut lines = std::collections::BTreeMap::new();
        let mut next = 0;
        let failed = packages::publish_many(ctx, &store, &slugs, None, |p| {
            let line = match p.result {
                Ok(hash) => Some(format!("{} {hash}", p.slug)),
                Err(e) => {
                    eprintln!(
                        "grundy: publishing {}: {}",
                        p.slug,
                        crate::errors::chain(&e)
                    );
                    None
                }
            };
            lines.insert(p.index, line);
            while let Some(line) = lines.remove(&next) {
                if let Some(line) = line {
                    println!("{line}");
                }
                next += 1;
            }
        })
        .await?;
        store.close().await;
        Ok(if failed == 0 { 0 } else { 2 })
    })
}

/// The worker count, the isolation check (for a process that judges:
/// one that only serves runs no submission) and the runtime of a judge
/// that serves others. `--workers 0` means none; `workers = 0` in
/// config.toml means one per core.
pub(super) fn prepare(
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
pub(super) async fn shutdown_signal() {
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
