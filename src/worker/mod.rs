//! The judge worker, in a room of its own below the server: a process's
//! workers claim submissions from the queue ([`crate::store::Queue`]),
//! fetch and check the published package and tests of each problem,
//! judge in the sandbox through the judge, report each test and the
//! verdict, renew their leases, and keep the process's heartbeat and
//! calibration in the database. It holds only what that needs (a
//! [`Pool`]: the store, the [`WorkerEnv`], a wake-up and a stop signal),
//! never the web server's state: `grundy serve` starts a pool beside its
//! API, `grundy worker` runs one alone.
//!
//! # Files
//! - `mod.rs`: starting and stopping a process's workers;
//! - `env.rs`: what a process's workers share;
//! - `judging.rs`: one worker's loop and its one testable step;
//! - `packages.rs`: published packages and tests, fetched and checked;
//! - `registry.rs`: the heartbeat, and what the process can judge;
//! - `calibration.rs`: the process's measured speed.

pub mod calibration;
mod env;
mod judging;
pub mod packages;
pub mod registry;

use std::future::Future;
use std::sync::Arc;

use tokio::sync::{watch, Notify};

pub use env::{process_name, Busy, Changes, Judged, WorkerEnv, WorkerTiming, HEARTBEAT, LIVE};
pub use judging::{run, try_judge_next, WorkOutcome};

use crate::context::Context;
use crate::store::{Queue, Store};

/// A process's workers: what they share, where they claim from, what
/// wakes them (a submission stored by this process) and what stops them.
#[derive(Clone)]
pub struct Pool {
    pub store: Store,
    pub env: WorkerEnv,
    /// Woken when a submission is stored (by this process, or by another
    /// on PostgreSQL, through LISTEN).
    pub wake: Arc<Notify>,
    /// Turns `true` when the workers are to stop: each finishes the
    /// submission in hand first.
    pub stop: watch::Receiver<bool>,
}

/// `workers` judge workers alone, until `shutdown` completes (what
/// `grundy worker` runs on a machine that shares the judge's database):
/// then each finishes the submission in hand.
///
/// # Errors
/// A database that cannot be read at start.
pub async fn work(
    ctx: Arc<Context>,
    store: Store,
    workers: usize,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let (stop, stopped) = watch::channel(false);
    let pool = Pool {
        store,
        env: WorkerEnv::new(ctx),
        wake: Arc::new(Notify::new()),
        stop: stopped,
    };
    let handles = start(&pool, workers).await?;
    shutdown.await;
    tracing::info!("shutting down: finishing the submissions being judged");
    stop.send_replace(true);
    join(handles).await;
    Ok(())
}

/// Queues again the submissions whose leases expired (a judge killed
/// mid-run), measures this machine's speed, finds which languages it has
/// toolchains for (the only ones its workers claim), listens for new work
/// where the database tells of it, then starts `workers` workers, the
/// calibration's schedule and the heartbeat. They run until `pool.stop`
/// turns true; [`join`] waits for them.
///
/// # Errors
/// A database that cannot be read at start.
pub async fn start(
    pool: &Pool,
    workers: usize,
) -> std::io::Result<Vec<tokio::task::JoinHandle<()>>> {
    if workers == 0 {
        return Ok(Vec::new());
    }
    match pool.store.requeue_expired().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(n, "requeued submissions whose lease expired"),
        Err(e) => return Err(std::io::Error::other(e)),
    }
    calibrate(pool, workers).await;
    let ctx = pool.env.ctx.clone();
    let languages = tokio::task::spawn_blocking(move || registry::languages(&ctx))
        .await
        .map_err(std::io::Error::other)?;
    for (id, why) in languages
        .iter()
        .filter_map(|l| Some((&l.id, l.missing.as_ref()?)))
    {
        tracing::warn!(language = %id, %why, "no toolchain: this machine judges none of it");
    }
    let env = pool.env.clone();
    env.languages.set(registry::usable(&languages));
    let mut handles = Vec::new();
    let listener = pool
        .store
        .wake_on_work(pool.wake.clone())
        .await
        .map_err(std::io::Error::other)?;
    let listening = listener.is_some();
    if let Some(listener) = listener {
        // Listens until the workers are told to stop.
        let mut stop = pool.stop.clone();
        handles.push(tokio::spawn(async move {
            let _ = stop.wait_for(|s| *s).await;
            listener.abort();
        }));
    }
    handles.extend((0..workers).map(|_| {
        tokio::spawn(run(
            pool.store.clone(),
            env.clone(),
            pool.wake.clone(),
            listening,
            pool.stop.clone(),
        ))
    }));
    handles.push(tokio::spawn(calibration::keep(pool.clone(), workers)));
    handles.push(tokio::spawn(registry::run(
        pool.store.clone(),
        pool.env.ctx.clone(),
        (pool.env.timing.name.clone(), workers),
        (languages, env.languages.clone()),
        pool.env.busy.clone(),
        pool.stop.clone(),
    )));
    Ok(handles)
}

/// Measures this machine's speed before its workers claim anything (a
/// limit scaled by a speed not yet known would be unfair), with a copy of
/// the calibration program in each of their slots. Skipped where a
/// calibration is already known (set by a test) or calibration is off.
async fn calibrate(pool: &Pool, workers: usize) {
    if pool.env.ctx.config.timing.calibration_runs == 0 || pool.env.timing.calibration().is_some() {
        return;
    }
    calibration::measure(pool, calibration::copies(pool, workers), None).await;
}

/// Waits for the tasks [`start`] began (after the stop signal).
pub async fn join(handles: Vec<tokio::task::JoinHandle<()>>) {
    for h in handles {
        if let Err(e) = h.await {
            tracing::error!(error = %e, "worker ended abnormally");
        }
    }
}
