//! The hosted judge: the HTTP API (axum) and the judge workers, in one
//! process. The server never runs untrusted code itself: handlers check a
//! request into a [`Plan`](crate::judge::Plan) (as `grundy submit` does)
//! and store it `queued`; workers claim it from the database and judge it
//! in the sandbox. Knows the store, the judge and the context; the
//! sandbox only through them.
//!
//! [`app`] is a function of its state and [`serve`] takes a bound
//! listener, so tests run the whole server on port 0.

mod api;
mod error;
pub mod registry;
pub mod worker;

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};

pub(crate) use error::log_internal;
pub use error::ApiError;
pub use worker::{try_judge_next, WorkOutcome, WorkerEnv};

use crate::context::Context;
use crate::store::{Queue, Store};

/// The largest request body accepted (413 beyond it).
pub const BODY_LIMIT: usize = 1 << 20;

/// Everything a handler or worker needs; cheap to clone.
#[derive(Clone)]
pub struct AppState {
    pub ctx: Arc<Context>,
    pub store: Store,
    /// Submissions one user may make per minute (0: no limit).
    pub per_minute: u32,
    pub(crate) worker: WorkerEnv,
    /// Woken when a submission is stored.
    pub(crate) wake: Arc<Notify>,
    stopping: Arc<AtomicBool>,
    stop: watch::Sender<bool>,
}

impl AppState {
    pub fn new(ctx: Arc<Context>, store: Store) -> AppState {
        let server = &ctx.config.server;
        let (changes, _) = watch::channel(0);
        let (stop, _) = watch::channel(false);
        AppState {
            per_minute: server.submissions_per_minute,
            worker: WorkerEnv {
                lease: Duration::from_secs_f64(server.lease_seconds),
                ctx: ctx.clone(),
                changes,
                busy: Default::default(),
            },
            ctx,
            store,
            wake: Arc::new(Notify::new()),
            stopping: Arc::new(AtomicBool::new(false)),
            stop,
        }
    }

    /// Stops taking work: new submissions get 503, long polls return,
    /// workers finish the submission in hand and claim no more.
    pub fn begin_shutdown(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.stop.send_replace(true);
    }

    pub(crate) fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

/// The API's routes and the web pages over `state`.
pub fn app(state: AppState) -> Router {
    Router::new()
        .nest(
            "/api/v1",
            api::router().fallback(|| async { ApiError::not_found("no such route") }),
        )
        .merge(crate::web::router())
        .fallback(crate::web::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

/// Serves the API on `listener` with `workers` judge workers until
/// `shutdown` completes; then stops taking work, lets each worker finish
/// the submission in hand, and returns. Submissions whose leases expired
/// (a previous server killed mid-run) are queued again first.
///
/// # Errors
/// The listener's failures and a database that cannot be read at start.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    workers: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let handles = start_workers(&state, workers).await?;
    let stopper = state.clone();
    let after = state.clone();
    let result = axum::serve(listener, app(state))
        .with_graceful_shutdown(async move {
            shutdown.await;
            tracing::info!("shutting down: finishing the submissions being judged");
            stopper.begin_shutdown();
        })
        .await;
    after.begin_shutdown();
    join_workers(handles).await;
    result
}

/// Judge workers only, without the API, until `shutdown` completes (what
/// `grundy worker` runs on a machine that shares the judge's database and
/// problems): then each finishes the submission in hand.
///
/// # Errors
/// A database that cannot be read at start.
pub async fn work(
    state: AppState,
    workers: usize,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let handles = start_workers(&state, workers).await?;
    shutdown.await;
    tracing::info!("shutting down: finishing the submissions being judged");
    state.begin_shutdown();
    join_workers(handles).await;
    Ok(())
}

/// Queues again the submissions whose leases expired (a judge killed
/// mid-run), then starts `workers` workers.
async fn start_workers(
    state: &AppState,
    workers: usize,
) -> std::io::Result<Vec<tokio::task::JoinHandle<()>>> {
    match state.store.requeue_expired().await {
        Ok(0) => {}
        Ok(n) => tracing::info!(n, "requeued submissions whose lease expired"),
        Err(e) => return Err(std::io::Error::other(e)),
    }
    let mut handles: Vec<_> = (0..workers)
        .map(|_| {
            tokio::spawn(worker::run(
                state.store.clone(),
                state.worker.clone(),
                state.wake.clone(),
                state.stop.subscribe(),
            ))
        })
        .collect();
    if workers > 0 {
        handles.push(tokio::spawn(registry::run(
            state.store.clone(),
            state.ctx.clone(),
            workers,
            state.worker.busy.clone(),
            state.stop.subscribe(),
        )));
    }
    Ok(handles)
}

async fn join_workers(handles: Vec<tokio::task::JoinHandle<()>>) {
    for h in handles {
        if let Err(e) = h.await {
            tracing::error!(error = %e, "worker ended abnormally");
        }
    }
}
