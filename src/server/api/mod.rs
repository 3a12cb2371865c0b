//! The handlers of `/api/v1` (documented in `docs/api.md`), by what they
//! serve: submissions, problems and languages, contests, and accounts'
//! tokens. Each one extracts, calls the judge's plan, `site` or the store,
//! and maps the result. The extractors here keep the API's error shape and
//! refuse what a route does not understand (an unknown query parameter is
//! a 400 naming the known ones).

mod catalog;
mod clarifications;
mod contests;
mod problems;
mod shadow;
mod submissions;
mod tokens;

use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde_json::json;

use super::{ApiError, AppState};
use crate::site::signin::{self, Credential};
use crate::store::User;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route(
            "/submissions",
            post(submissions::submit).get(submissions::list),
        )
        .route("/submissions/{id}", get(submissions::submission))
        .route("/submissions/{id}/source", get(submissions::source))
        .route("/submissions/{id}/rejudge", post(submissions::rejudge))
        .route("/problems", get(problems::problems).post(catalog::upload))
        .route(
            "/problems/{slug}",
            get(problems::problem).delete(catalog::remove),
        )
        .route("/problems/{slug}/rejudge", post(problems::rejudge_problem))
        .route("/problems/{slug}/hide", post(catalog::hide))
        .route("/problems/{slug}/unhide", post(catalog::unhide))
        .route("/languages", get(problems::languages))
        .route("/admin/workers", get(problems::admin_workers))
        .route("/contests", get(contests::contests))
        .route("/contests/{contest}", get(contests::contest))
        .route("/contests/{contest}/board", get(contests::board))
        .route(
            "/contests/{contest}/submissions",
            get(contests::submissions),
        )
        .route(
            "/contests/{contest}/submissions/{id}/withdraw",
            post(contests::withdraw),
        )
        .route(
            "/contests/{contest}/clarifications",
            get(clarifications::list).post(clarifications::ask),
        )
        .route(
            "/contests/{contest}/clarifications/{id}/answer",
            post(clarifications::answer),
        )
        .route("/contests/import", post(shadow::import))
        .route("/contests/{contest}/shadow", get(shadow::differences))
        .route("/contests/{contest}/shadow/follow", post(shadow::follow))
        .route("/contests/{contest}/shadow/stop", post(shadow::stop))
        .route(
            "/contests/{contest}/shadow/{submission}/check",
            post(shadow::check),
        )
        .route("/tokens", post(tokens::create).get(tokens::list))
        .route("/tokens/{prefix}", axum::routing::delete(tokens::revoke))
}

/// The caller, from `Authorization: Bearer TOKEN`: an enabled account
/// with a live token, checked on every request (so revoking a token or
/// disabling its user takes effect at once).
pub struct Caller(pub User);

impl Caller {
    /// The account of a request with `headers`, as the database says now.
    ///
    /// # Errors
    /// 401 for no token, a revoked one or a disabled account.
    pub async fn of(state: &AppState, headers: &axum::http::HeaderMap) -> Result<User, ApiError> {
        let token = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim);
        let Some(token) = token else {
            // A name and password are taken at one door only: where a
            // token is made from them.
            let basic = headers
                .get(axum::http::header::AUTHORIZATION)
                .and_then(|v| v.to_str().ok())
                .is_some_and(|v| v.starts_with("Basic "));
            return Err(match basic {
                true => ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "unauthorized",
                    "a name and password are taken only by POST /api/v1/tokens, which \
                     answers a token (curl -u NAME -X POST URL/api/v1/tokens); send it as \
                     Authorization: Bearer TOKEN",
                ),
                false => ApiError::unauthorized(),
            });
        };
        // The one check of a credential, at every request and every
        // recheck of a long poll alike.
        let credential = Credential::token(token);
        match signin::holder(&state.store, &credential).await? {
            Some(user) => Ok(user),
            None if signin::refused_as_disabled(&state.store, &credential).await? => {
                Err(ApiError::account_disabled())
            }
            None => Err(ApiError::unauthorized()),
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Caller::of(state, &parts.headers).await.map(Caller)
    }
}

/// `Json` whose rejections keep the API's error shape.
pub struct AppJson<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequest<S> for AppJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(AppJson(v)),
            Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
                Err(ApiError::new(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "body_too_large",
                    format!("the request body is over {} bytes", super::BODY_LIMIT),
                ))
            }
            Err(rejection) => Err(ApiError::bad_request("bad_request", rejection.body_text())),
        }
    }
}

/// A route's query parameters: the names it understands.
pub trait Params: serde::de::DeserializeOwned {
    const KNOWN: &'static [&'static str];
}

/// No query parameters at all.
#[derive(serde::Deserialize)]
pub struct NoParams {}

impl Params for NoParams {
    const KNOWN: &'static [&'static str] = &[];
}

/// `Query` whose rejections keep the API's error shape. A parameter the
/// route does not know is refused (`400 unknown_parameter`, naming the
/// known ones) rather than ignored: `?contest=` on a route that has no such
/// filter would otherwise answer as if it had filtered.
pub struct AppQuery<T>(pub T);

impl<T: Params, S: Send + Sync> FromRequestParts<S> for AppQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let query = parts.uri.query().unwrap_or("");
        for (name, _) in url::form_urlencoded::parse(query.as_bytes()) {
            if !T::KNOWN.contains(&name.as_ref()) {
                return Err(unknown_parameter(&name, T::KNOWN));
            }
        }
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(v)| AppQuery(v))
            .map_err(|r| ApiError::bad_request("bad_query", r.body_text()))
    }
}

fn unknown_parameter(name: &str, known: &[&str]) -> ApiError {
    let known = match known {
        [] => "this route takes no query parameters".to_string(),
        known => format!("the known ones are: {}", known.join(", ")),
    };
    ApiError::bad_request(
        "unknown_parameter",
        format!("unknown query parameter {name:?}; {known}"),
    )
}

/// `Path` whose rejections keep the API's error shape.
pub struct AppPath<T>(pub T);

impl<T: serde::de::DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for AppPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(v)| AppPath(v))
            .map_err(|r| ApiError::bad_request("bad_path", r.body_text()))
    }
}

async fn health(State(state): State<AppState>, AppQuery(_): AppQuery<NoParams>) -> Response {
    if state.is_stopping() {
        return ApiError::unavailable().into_response();
    }
    Json(json!({"status": "ok"})).into_response()
}

/// A submission's id from its path, or the 404 a wrong one gets.
fn parse_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>()
        .map_err(|_| ApiError::not_found(format!("no submission {text:?}")))
}
