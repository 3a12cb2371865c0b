//! `/api/v1/problems` and `/api/v1/languages`: what can be submitted to,
//! an admin's rejudge of a problem, and the workers' speeds.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::{AppPath, AppQuery, Caller, NoParams};
use crate::problem::{self, TestInput};
use crate::server::{ApiError, AppState};
use crate::site::contests;
use crate::store::Queue as _;

/// The workers' calibrated speeds and factors (admins only).
pub(super) async fn admin_workers(
    State(state): State<AppState>,
    AppQuery(_): AppQuery<NoParams>,
    Caller(user): Caller,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let speeds = crate::site::speeds::speeds(&state).await?;
    Ok(Json(speeds).into_response())
}

pub(super) async fn problems(
    State(state): State<AppState>,
    AppQuery(_): AppQuery<NoParams>,
    Caller(caller): Caller,
) -> Result<Response, ApiError> {
    let ctx = state.ctx.clone();
    // A contest not yet started hides its problems from all but admins.
    // Admins see every problem, and which ones they hid.
    let (hidden, admin_hidden) = match caller.is_admin {
        true => (Vec::new(), Some(state.store.hidden_catalog().await?)),
        false => (contests::hidden_all(&state.store).await?, None),
    };
    let list = tokio::task::spawn_blocking(move || {
        let slugs = ctx.catalog.slugs()?;
        let mut out = Vec::new();
        for slug in slugs.into_iter().filter(|s| !hidden.contains(s)) {
            // A broken package is the setter's to fix (`grundy verify`);
            // the others are still listed.
            match ctx.catalog.load(&slug) {
                Ok(p) => {
                    let mut row = json!({
                        "slug": p.slug, "name": p.manifest.name,
                        "time_limit_s": p.manifest.time_limit,
                        "memory_limit_mib": p.manifest.memory_limit,
                    });
                    if let Some(admin_hidden) = &admin_hidden {
                        row["hidden"] = json!(admin_hidden.contains(&p.slug));
                    }
                    out.push(row)
                }
                Err(e) => tracing::warn!(slug, error = %e, "problem not listed"),
            }
        }
        Ok::<_, problem::Error>(out)
    })
    .await?
    .map_err(|e| ApiError::internal(&e))?;
    Ok(Json(json!({ "problems": list })).into_response())
}

pub(super) async fn problem(
    State(state): State<AppState>,
    Caller(caller): Caller,
    AppPath(slug): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    // A contest not yet ended holds it: the caller learns that much, and
    // no more (which contest, only once it runs).
    if !caller.is_admin {
        if let Some(closed) = contests::closed_by(&state.store, &slug).await? {
            if closed == contests::Closed::Hidden {
                return Err(ApiError::not_found(format!("no problem {slug:?}")));
            }
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "problem_in_contest",
                closed.message(&slug),
            ));
        }
    }
    let ctx = state.ctx.clone();
    let name = slug.clone();
    let found = tokio::task::spawn_blocking(move || {
        let p = ctx.catalog.load(&name)?;
        let statement = p.statement()?;
        let samples: Vec<_> = p
            .manifest
            .tests
            .iter()
            .filter(|t| t.group.is_sample())
            .filter_map(|t| match &t.input {
                TestInput::File(path) => std::fs::read_to_string(p.dir.join(path))
                    .ok()
                    .map(|input| json!({"name": t.name, "input": input})),
                TestInput::Gen(_) => None,
            })
            .collect();
        Ok::<_, problem::Error>(json!({
            "slug": p.slug, "name": p.manifest.name,
            "time_limit_s": p.manifest.time_limit,
            "memory_limit_mib": p.manifest.memory_limit,
            "statement": statement, "samples": samples,
        }))
    })
    .await?;
    match found {
        Ok(v) => Ok(Json(v).into_response()),
        Err(problem::Error::Unknown { .. }) => {
            Err(ApiError::not_found(format!("no problem {slug:?}")))
        }
        Err(e) => Err(ApiError::internal(&e)),
    }
}

pub(super) async fn languages(
    State(state): State<AppState>,
    Caller(_): Caller,
    AppQuery(_): AppQuery<NoParams>,
) -> Response {
    let list: Vec<_> = state
        .ctx
        .languages
        .iter()
        .map(|l| json!({"id": l.id, "name": l.config.name, "extensions": l.config.extensions}))
        .collect();
    Json(json!({ "languages": list })).into_response()
}

pub(super) async fn rejudge_problem(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(slug): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let done = state.store.rejudge_problem(&slug).await?;
    for _ in 0..done.queued.min(64) {
        state.wake.notify_one();
    }
    let body = json!({"rejudged": done.queued, "final_kept": done.final_kept});
    Ok((StatusCode::ACCEPTED, Json(body)).into_response())
}
