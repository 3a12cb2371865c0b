//! The web pages of the hosted judge: server-rendered HTML for contestants
//! and admins, next to the API. Templates, the stylesheet and the script
//! are compiled into the binary and served by grundy itself; nothing is
//! fetched from elsewhere at run time.
//!
//! Knows the store, the context and `site` (the state, intake and who-sees-
//! what policy it shares with the API), never `server`;
//! handlers extract, call them, and render. Sessions are cookies
//! (HttpOnly, SameSite) whose hashes the store keeps; every form carries
//! the session's CSRF token (module `session`). What a visitor may see follows
//! the API's rules: every verdict, only one's own sources (admins: all),
//! secret tests' checker messages to admins only.

mod admin;
mod catalog;
mod chart;
mod contest;
mod contest_admin;
mod highlight;
mod markdown;
mod pages;
mod render;
mod session;
mod shadow;
mod signin;
mod submission;
mod tokens;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;

use crate::site::AppState;
pub use render::PageError;
pub use session::Admin;

/// The pages' routes (merged into [`crate::hosted::app`]).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(|| async { Redirect::to("/problems") }))
        .route("/signin", get(signin::form).post(signin::signin))
        .route("/signout", post(signin::signout))
        .route("/account/tokens", get(tokens::page).post(tokens::create))
        .route("/account/tokens/{prefix}/revoke", post(tokens::revoke))
        .route("/problems", get(pages::problems))
        .route("/problems/{slug}", get(contest::problem))
        .route("/problems/{slug}/submit", post(pages::submit))
        .route("/problems/{slug}/rejudge", post(admin::rejudge_problem))
        .route("/submissions", get(pages::mine))
        .route("/submissions/{id}", get(submission::submission))
        .route("/submissions/{id}/live", get(submission::live))
        .route("/submissions/{id}/source", get(submission::source))
        .route("/submissions/{id}/rejudge", post(admin::rejudge))
        .route("/recent", get(pages::recent))
        .route("/admin", get(|| async { Redirect::to("/admin/users") }))
        .route("/admin/users", get(admin::users).post(admin::add_user))
        .route("/admin/users/import", post(admin::import_users))
        .route("/admin/users/{name}", post(admin::change_user))
        .route("/admin/users/{name}/tokens", get(admin::tokens))
        .route(
            "/admin/users/{name}/tokens/revoke-all",
            post(admin::revoke_all_tokens),
        )
        .route(
            "/admin/users/{name}/tokens/{prefix}/revoke",
            post(admin::revoke_token),
        )
        .route("/admin/queue", get(admin::queue))
        .route(
            "/admin/problems",
            // The upload counts its archive against the configured limit
            // itself, not the pages' small default.
            get(catalog::page)
                .post(catalog::upload)
                .layer(axum::extract::DefaultBodyLimit::disable()),
        )
        .route("/admin/problems/{slug}", post(catalog::act))
        .route("/contests", get(contest::list))
        .route("/contests/{slug}", get(contest::page))
        .route("/contests/{slug}/submit", post(contest::submit))
        .route("/contests/{slug}/ask", post(contest::ask))
        .route("/contests/{slug}/scoreboard", get(contest::scoreboard))
        .route("/contests/{slug}/live", get(contest::live))
        .route(
            "/admin/contests",
            get(contest_admin::list).post(contest_admin::create),
        )
        .route(
            "/admin/contests/{slug}",
            get(contest_admin::page).post(contest_admin::edit),
        )
        .route("/admin/contests/{slug}/act", post(contest_admin::act))
        .route("/admin/contests/{slug}/delete", post(contest_admin::delete))
        .route("/admin/contests/{slug}/answer", post(contest_admin::answer))
        .route("/admin/contests/{slug}/award", post(contest_admin::award))
        .route("/admin/contests/{slug}/shadow", get(shadow::page))
        .route("/admin/contests/{slug}/shadow/check", post(shadow::check))
        .route("/admin/contests/{slug}/shadow/follow", post(shadow::follow))
        .route("/admin/contests/import", post(shadow::import))
        .route("/static/{file}", get(asset))
}

/// Any other path: the 404 page.
pub async fn not_found() -> PageError {
    PageError::not_found()
}

/// The stylesheet, script and icon, from the binary.
async fn asset(axum::extract::Path(file): axum::extract::Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "style.css" => (include_str!("static/style.css"), "text/css; charset=utf-8"),
        "app.js" => (
            include_str!("static/app.js"),
            "text/javascript; charset=utf-8",
        ),
        "contest.js" => (
            include_str!("static/contest.js"),
            "text/javascript; charset=utf-8",
        ),
        "icon.svg" => (include_str!("static/icon.svg"), "image/svg+xml"),
        _ => return PageError::not_found().into_response(),
    };
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}
