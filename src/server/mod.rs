//! The hosted judge's API: the HTTP API (axum), served with the judge
//! workers ([`crate::worker`]) in one process. The server never runs
//! untrusted code itself: handlers check a request into a
//! [`Plan`](crate::judge::Plan) (as `grundy submit` does) and store it
//! `queued`; workers claim it from the database and judge it in the
//! sandbox. Knows the store, the judge and the context; the sandbox only
//! through them.
//!
//! The API's routes are [`routes`]; [`crate::hosted`] puts them beside the
//! pages' on one router. [`serve`] takes a bound listener, so tests run the
//! whole server on port 0. Knows `site` (the state and rules shared with
//! the pages), never `web`.

mod api;
mod clics;
mod error;
mod views;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::net::TcpListener;

pub use crate::site::AppState;
pub use clics::package as contest_package;
pub use error::ApiError;

/// The largest request body accepted (413 beyond it).
pub const BODY_LIMIT: usize = 1 << 20;

/// The API's routes, under `/api/v1` (an unknown route there is the
/// API's JSON 404).
pub fn routes() -> Router<AppState> {
    Router::new()
        .nest(
            "/api/v1",
            api::router().fallback(|| async { ApiError::not_found("no such route") }),
        )
        .nest("/api/contests", clics::router())
        .merge(
            Router::new()
                .route("/api", axum::routing::get(clics::api_info))
                .route("/api/", axum::routing::get(clics::api_info))
                .layer(axum::middleware::from_fn(clics::open_to_pages)),
        )
}

/// Serves `app` (the routes over `state`: [`crate::hosted::app`]) on
/// `listener` with `workers` judge workers until `shutdown` completes;
/// then stops taking work, lets each worker finish the submission in
/// hand, and returns. The contests' clock ([`crate::site::clock`]) runs
/// beside them. Submissions whose leases expired (a previous server
/// killed mid-run) are queued again first.
///
/// # Errors
/// The listener's failures and a database that cannot be read at start.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    state: AppState,
    workers: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let handles = crate::worker::start(&pool(&state), workers).await?;
    let clock = tokio::spawn(crate::site::clock::run(
        state.store.clone(),
        state.stop_signal(),
    ));
    let stopper = state.clone();
    let server = &state.ctx.config.server;
    let limits = Connections {
        header_timeout: Duration::from_secs_f64(server.header_timeout_seconds),
        max: server.max_connections,
    };
    let result = accept(listener, app, limits, async move {
        shutdown.await;
        tracing::info!("shutting down: finishing the submissions being judged");
        stopper.begin_shutdown();
    })
    .await;
    state.begin_shutdown();
    crate::worker::join(handles).await;
    let _ = clock.await;
    result
}

/// The workers of `state`'s process: its store, the worker state the
/// pages share, woken by its new submissions, stopped with it.
fn pool(state: &AppState) -> crate::worker::Pool {
    crate::worker::Pool {
        store: state.store.clone(),
        env: state.worker.clone(),
        wake: state.wake.clone(),
        stop: state.stop_signal(),
    }
}

/// What one connection may hold of the server.
#[derive(Debug, Clone, Copy)]
struct Connections {
    /// The longest wait for a request's head, on a new connection or an
    /// idle one between requests; then the connection is closed (a client
    /// that opens connections and sends nothing holds none for long).
    header_timeout: Duration,
    /// Connections served at once; the next waits in the listener's
    /// backlog until one closes.
    max: usize,
}

/// Serves `router` over HTTP/1 on `listener`, each request told its
/// client's address (`ConnectInfo`), until `shutdown` completes; then
/// takes no new connection, lets requests in flight finish, and closes
/// idle connections.
async fn accept(
    listener: TcpListener,
    router: Router,
    limits: Connections,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use tower::ServiceExt as _;

    let permits = Arc::new(tokio::sync::Semaphore::new(limits.max));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = permits.clone().acquire_owned() => permit.map_err(std::io::Error::other)?,
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, or a connection reset before it
                    // was taken: the listener itself is fine.
                    tracing::warn!(error = %e, "accepting a connection failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let router = router.clone();
        let service = hyper::service::service_fn(
            move |mut request: axum::extract::Request<hyper::body::Incoming>| {
                request
                    .extensions_mut()
                    .insert(axum::extract::ConnectInfo(peer));
                router.clone().oneshot(request)
            },
        );
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(limits.header_timeout)
            .serve_connection(TokioIo::new(stream), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "a connection ended in error");
            }
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
