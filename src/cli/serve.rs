//! `grundy serve`: the hosted judge in one process (the API and the
//! workers), until SIGTERM or Ctrl-C; `grundy worker`: the workers alone,
//! for another machine that shares the database and the problems.

use std::sync::Arc;

use anyhow::{bail, Context as _};

use crate::context::Context;
use crate::server::{self, AppState};

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
        // On stdout, one line, so a script (or a test) binding port 0
        // learns the port.
        println!("grundy: serving http://{addr}/api/v1 with {workers} workers");
        let state = AppState::new(ctx.clone(), store.clone());
        crate::hosted::serve(listener, state, workers, shutdown_signal())
            .await
            .context("serving")?;
        store.close().await;
        eprintln!("grundy: stopped");
        Ok(0)
    })
}

/// `grundy worker`: judge workers against the configured database until
/// SIGTERM or Ctrl-C.
pub fn worker(ctx: &Arc<Context>, workers: Option<usize>, insecure: bool) -> anyhow::Result<u8> {
    let (workers, rt) = prepare(ctx, workers, insecure)?;
    rt.block_on(async {
        let store = super::open_store(ctx).await?;
        println!("grundy: judging with {workers} workers");
        let state = AppState::new(ctx.clone(), store.clone());
        server::work(state, workers, shutdown_signal())
            .await
            .context("judging")?;
        store.close().await;
        eprintln!("grundy: stopped");
        Ok(0)
    })
}

/// The isolation check, the worker count and the runtime of a judge that
/// serves others.
fn prepare(
    ctx: &Arc<Context>,
    workers: Option<usize>,
    insecure: bool,
) -> anyhow::Result<(usize, tokio::runtime::Runtime)> {
    if let Err(why) = ctx.tiers().require_isolation() {
        if !insecure {
            bail!("refusing to serve others without sandbox isolation: {why} (or start with --insecure)");
        }
        tracing::warn!(%why, "serving WITHOUT sandbox isolation (--insecure)");
    }
    let workers = match workers.unwrap_or(ctx.config.server.workers) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
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
