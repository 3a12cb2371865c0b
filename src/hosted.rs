//! The hosted judge as one process: the API's routes ([`server`]) and the
//! pages' ([`web`]) on one router, with the policy every response shares,
//! served with judge workers. It sits above both edges, which know each
//! other only through [`crate::site`].

use std::future::Future;

use axum::Router;
use tokio::net::TcpListener;

use crate::server;
use crate::site::AppState;
use crate::web;

/// The API's routes and the web pages over `state`.
pub fn app(state: AppState) -> Router {
    server::routes()
        .merge(web::router())
        .fallback(web::not_found)
        .layer(axum::extract::DefaultBodyLimit::max(server::BODY_LIMIT))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(state)
}

/// [`server::serve`] over [`app`]: the API, the pages and `workers` judge
/// workers until `shutdown` completes.
///
/// # Errors
/// As [`server::serve`].
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    workers: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    server::serve(listener, app(state.clone()), state, workers, shutdown).await
}

/// The pages' and the API's policy for browsers, on every response: only
/// this site's own scripts, styles and images (no inline script, no
/// plugin, no other origin), never inside another site's frame, types as
/// sent, no full URL in the referrer to other sites. Every response is
/// private (sources, verdicts, admin pages, the API's replies) and not
/// stored by caches, unless its handler said otherwise (the static
/// files).
async fn security_headers(mut response: axum::response::Response) -> axum::response::Response {
    use axum::http::header::{self, HeaderValue};
    let headers = response.headers_mut();
    let fixed = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// The Content-Security-Policy of every response.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; \
    frame-ancestors 'none'";
