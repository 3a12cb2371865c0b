//! `/api/v1/tokens`: a contestant's own API tokens. A token is made by
//! signing in with the account's name and password over HTTP Basic
//! (`curl -u NAME -X POST .../api/v1/tokens`), through the one sign-in
//! check of the form and the Contest API ([`signin::check`]: its throttle
//! by name and address, its hashing pool); listing and revoking take a
//! token, and reach only the caller's own.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{AppPath, AppQuery, Caller, NoParams};
use crate::auth;
use crate::server::{ApiError, AppState};
use crate::site::place::Place;
use crate::site::signin::{self, Checked};
use crate::store::Revoked;

/// Signs in with HTTP Basic and answers a new token (shown this once).
pub(super) async fn create(
    State(state): State<AppState>,
    AppQuery(_): AppQuery<NoParams>,
    extensions: axum::http::Extensions,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let header = headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let Some((name, password)) = signin::basic_credentials(header) else {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "sign in with the account's name and password over HTTP Basic \
             (curl -u NAME -X POST URL/api/v1/tokens)",
        ));
    };
    let address = Place::of_request(&extensions);
    let user = match signin::check(&state, &name, password, address).await? {
        Checked::User(u, _) => u,
        Checked::Wrong => {
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "unauthorized",
                "wrong name or password, or the account is disabled",
            ))
        }
        Checked::Busy => {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "the judge is busy checking passwords; try again in a moment",
            ))
        }
        Checked::Throttled(wait) => {
            let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "throttled",
                format!(
                    "too many failed sign-ins for this name or from this address; \
                     try again in {seconds} s"
                ),
            ));
        }
    };
    let token = auth::new_token();
    // Counted and stored in one transaction: requests sent at once cannot
    // all pass the cap.
    let made = state
        .store
        .add_own_token(user.id, &token.hash, &token.prefix, auth::MAX_OWN_TOKENS)
        .await?;
    if !made {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "too_many_tokens",
            format!(
                "{} already has {} live tokens; revoke one first \
                 (DELETE /api/v1/tokens/PREFIX)",
                user.name,
                auth::MAX_OWN_TOKENS
            ),
        ));
    }
    tracing::info!(user = %user.name, prefix = %token.prefix, "token made through the API");
    Ok((
        StatusCode::CREATED,
        Json(json!({"token": token.token, "prefix": token.prefix, "user": user.name})),
    )
        .into_response())
}

/// The caller's live tokens, by prefix (never the tokens themselves).
pub(super) async fn list(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    let tokens = state.store.tokens_of(user.id).await?;
    Ok(Json(json!({ "tokens": tokens })).into_response())
}

/// Revokes one of the caller's own tokens, named by its first characters.
pub(super) async fn revoke(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(prefix): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    match state.store.revoke_own_token(user.id, &prefix).await? {
        Revoked::One => Ok(Json(json!({"revoked": 1})).into_response()),
        Revoked::NoMatch => Err(ApiError::not_found(format!(
            "no live token of yours starts with {prefix:?}"
        ))),
        Revoked::Ambiguous(n) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "ambiguous",
            format!("{n} of your live tokens start with {prefix:?}; give more of it"),
        )),
    }
}
