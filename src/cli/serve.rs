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
                    .hold_preparing(&server, &slugs, PREPARING_HOLD)
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
                prepare_all(ctx, &store, server, slugs).await;
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

/// How long a server's hold on a problem it prepares lasts unless renewed
/// (it renews a third of this apart): a server that died stops holding
/// its problems this long after.
const PREPARING_HOLD: std::time::Duration = std::time::Duration::from_secs(60);

/// Publishes every one of `slugs`, letting go of each as it is done (or
/// failed: its submissions are then judged from the problems directory,
/// as before it was published), while the holds on those still waiting
/// are renewed.
async fn prepare_all(
    ctx: &Arc<Context>,
    store: &crate::store::Store,
    server: &str,
    slugs: &[String],
) {
    let renewing = async {
        let mut every = tokio::time::interval(PREPARING_HOLD / 3);
        loop {
            every.tick().await;
            if let Err(e) = store.renew_preparing(server, PREPARING_HOLD).await {
                tracing::warn!(error = %crate::errors::chain(&e), "renewing the hold on problems being prepared failed");
            }
        }
    };
    tokio::select! {
        () = renewing => {}
        result = publish_each(ctx, store, slugs, Some(server)) => {
            if let Err(e) = result {
                tracing::error!(error = format!("{e:#}"), "preparing the problems failed");
            }
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
        let failed = publish_each(ctx, &store, &slugs, None).await?;
        store.close().await;
        Ok(if failed == 0 { 0 } else { 2 })
    })
}

/// Publishes each of `slugs`, on PostgreSQL as many at once as the machine
/// has cores (building a problem's tests runs its generators and
/// solvers). `grundy publish` prints one line each on stdout (`slug
/// hash`), in the order given, and a line on stderr for one that fails; a
/// server (`held`: its name, holding the problems) says on stderr what it
/// is preparing, a line per problem as each is done, lets go of each, and
/// goes on without the failed ones. Returns how many failed.
async fn publish_each(
    ctx: &Arc<Context>,
    store: &crate::store::Store,
    slugs: &[String],
    held: Option<&str>,
) -> anyhow::Result<usize> {
    let strict = held.is_none();
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
    // Each as soon as it is done (a server lets go of it then); `grundy
    // publish`'s lines still in the order given.
    let mut published = stream::iter(slugs.iter().enumerate())
        .map(|(i, slug)| async move {
            let result = crate::worker::packages::publish(ctx, store, slug).await;
            (i, slug, result)
        })
        .buffer_unordered(at_once);
    let (mut done, mut failed) = (0, 0);
    let mut lines = std::collections::BTreeMap::new();
    let mut next_line = 0;
    while let Some((i, slug, result)) = published.next().await {
        done += 1;
        if let Some(server) = held {
            store
                .end_preparing(server, slug)
                .await
                .with_context(|| format!("letting go of {slug} once prepared"))?;
        }
        match result {
            Ok(hash) if strict => {
                lines.insert(i, format!("{slug} {hash}"));
            }
            Ok(hash) => {
                tracing::info!(slug, hash, "published");
                eprintln!("grundy: published {slug} ({done}/{total})");
            }
            Err(e) if strict => {
                failed += 1;
                eprintln!("grundy: publishing {slug}: {}", crate::errors::chain(&e));
                lines.insert(i, String::new());
            }
            Err(e) => {
                failed += 1;
                let why = crate::errors::chain(&e);
                tracing::warn!(slug, error = %why, "not published");
                eprintln!("grundy: not published {slug} ({done}/{total}): {why}");
            }
        }
        while let Some(line) = lines.remove(&next_line) {
            if !line.is_empty() {
                println!("{line}");
            }
            next_line += 1;
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
