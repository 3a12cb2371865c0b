//! `/api/v1/problems` for admins: upload a problem archive, hide or show a
//! problem, remove one (the work is [`crate::site::catalog`]'s, shared
//! with the admin pages).

use axum::body::Body;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{AppPath, AppQuery, Caller, NoParams, Params};
use crate::server::{ApiError, AppState};
use crate::site::catalog::{self, CatalogError, Upload};

#[derive(Deserialize)]
pub(super) struct UploadQuery {
    slug: Option<String>,
    replace: Option<bool>,
    rejudge: Option<bool>,
}

impl Params for UploadQuery {
    const KNOWN: &'static [&'static str] = &["slug", "replace", "rejudge"];
}

/// A refusal in the API's error shape; a package that did not verify
/// carries its report beside the error.
fn refused(e: CatalogError) -> Response {
    let report = match &e {
        CatalogError::NotVerified(report) => Some(serde_json::to_value(report).unwrap_or_default()),
        _ => None,
    };
    let error = json!({"code": e.code(), "message": e.to_string()});
    let body = match report {
        Some(report) => json!({"error": error, "report": report}),
        None => json!({ "error": error }),
    };
    (e.status(), Json(body)).into_response()
}

/// `POST /api/v1/problems[?slug=&replace=true&rejudge=true]`, the body a
/// ZIP archive: `201` with what was done and the verification's report
/// (`200` when it replaced a problem).
pub(super) async fn upload(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppQuery(q): AppQuery<UploadQuery>,
    body: Body,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    if state.is_stopping() {
        return Err(ApiError::unavailable());
    }
    let limit = state.ctx.config.server.upload_limit_mib;
    let Ok(archive) = axum::body::to_bytes(body, (limit << 20) as usize).await else {
        return Ok(refused(CatalogError::TooLarge(limit)));
    };
    let upload = Upload {
        archive: archive.to_vec(),
        slug: q.slug,
        replace: q.replace.unwrap_or(false),
        rejudge: q.rejudge.unwrap_or(false),
    };
    match catalog::upload(&state, upload).await {
        Ok(done) => {
            let status = match done.replaced {
                true => StatusCode::OK,
                false => StatusCode::CREATED,
            };
            Ok((status, Json(done)).into_response())
        }
        Err(e) => Ok(refused(e)),
    }
}

/// `POST /api/v1/problems/{slug}/hide` and `…/unhide`.
pub(super) async fn hide(
    state: State<AppState>,
    caller: Caller,
    path: AppPath<String>,
    query: AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    set_hidden(state, caller, path, query, true).await
}

pub(super) async fn unhide(
    state: State<AppState>,
    caller: Caller,
    path: AppPath<String>,
    query: AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    set_hidden(state, caller, path, query, false).await
}

async fn set_hidden(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(slug): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
    hidden: bool,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    match catalog::set_hidden(&state, &slug, hidden).await {
        Ok(changed) => {
            Ok(Json(json!({"slug": slug, "hidden": hidden, "changed": changed})).into_response())
        }
        Err(e) => Ok(refused(e)),
    }
}

/// `DELETE /api/v1/problems/{slug}`: `204`, or `409` while a contest
/// holds it or its submissions wait.
pub(super) async fn remove(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(slug): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    match catalog::remove(&state, &slug).await {
        Ok(()) => Ok(StatusCode::NO_CONTENT.into_response()),
        Err(e) => Ok(refused(e)),
    }
}
