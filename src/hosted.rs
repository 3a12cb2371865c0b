//! The hosted judge as one process: the API's routes ([`server`]) and the
//! pages' ([`web`]) on one router, with the policy every response shares,
//! served with judge workers. It sits above both edges, which know each
//! other only through [`crate::site`]; the one route that needs both (a
//! contest package, built as the API builds its objects, downloaded from
//! the admin's pages) is here.

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
        .route(
            "/admin/contests/{slug}/package.zip",
            axum::routing::get(contest_package),
        )
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

/// A finished contest's CLICS contest package as one ZIP archive, for an
/// admin signed in to the pages (`grundy contest export` writes the same
/// files to a directory).
async fn contest_package(
    axum::extract::State(state): axum::extract::State<AppState>,
    web::Admin(session): web::Admin,
    axum::extract::Path(slug): axum::extract::Path<String>,
) -> Result<axum::response::Response, web::PageError> {
    use axum::http::{header, StatusCode};
    use axum::response::IntoResponse;
    use server::contest_package::{build, Error};
    let Some(c) = state.store.contest(&slug).await? else {
        return Err(web::PageError::not_found());
    };
    let package = match build(&state, &c, crate::site::contests::now_ms()).await {
        Ok(p) => p,
        Err(e @ (Error::NotEnded { .. } | Error::Unjudged { .. })) => {
            return Err(web::PageError::status(
                StatusCode::CONFLICT,
                "Not exported",
                e.to_string(),
            ))
        }
        Err(e) => return Err(web::PageError::internal(&e)),
    };
    let zip = package.zip().map_err(|e| web::PageError::internal(&e))?;
    tracing::info!(admin = %session.user.name, contest = %c.slug, bytes = zip.len(), "contest package downloaded");
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{}.zip\"", c.slug),
            ),
        ],
        zip,
    )
        .into_response())
}
