//! `/api/v1/contests/{contest}/shadow`: a shadowed contest's differences
//! with the other system (issue 48), and a jury's mark on one; the
//! admins' only.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::{AppJson, AppPath, AppQuery, Caller, Params};
use crate::server::{ApiError, AppState};
use crate::shadow::compare::Filter;
use crate::site::contests::{self, now_ms};

#[derive(Deserialize)]
pub(super) struct DiffQuery {
    all: Option<bool>,
    problem: Option<String>,
    team: Option<String>,
    verdict: Option<String>,
}

impl Params for DiffQuery {
    const KNOWN: &'static [&'static str] = &["all", "problem", "team", "verdict"];
}

/// The shadowed contest `name`, for an admin.
async fn shadowed(
    state: &AppState,
    admin: bool,
    name: &str,
) -> Result<crate::contest::Contest, ApiError> {
    if !admin {
        return Err(ApiError::forbidden());
    }
    contests::find(&state.store, name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no contest {name:?}")))
}

/// `GET`: the report of `grundy shadow diff --json`, filtered as it is.
pub(super) async fn differences(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppQuery(q): AppQuery<DiffQuery>,
) -> Result<Response, ApiError> {
    let c = shadowed(&state, user.is_admin, &name).await?;
    let report = crate::shadow::differences(&state.store, c.id)
        .await?
        .ok_or_else(|| {
            ApiError::not_found(format!("contest {} shadows no other system", c.slug))
        })?;
    let filter = Filter {
        all: q.all.unwrap_or(false),
        problem: q.problem,
        team: q.team,
        verdict: q.verdict,
    };
    Ok(Json(report.json(&c.slug, &filter)).into_response())
}

#[derive(Deserialize)]
pub(super) struct CheckBody {
    /// The note; `null` takes the mark away.
    note: Option<String>,
}

/// `POST .../shadow/{submission}/check` `{"note": "..."}`: marks the
/// difference of the other system's submission as checked.
pub(super) async fn check(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath((name, submission)): AppPath<(String, String)>,
    AppJson(body): AppJson<CheckBody>,
) -> Result<Response, ApiError> {
    let c = shadowed(&state, user.is_admin, &name).await?;
    if let Some(note) = &body.note {
        if note.trim().is_empty() || note.chars().count() > 2000 {
            return Err(ApiError::bad_request(
                "bad_note",
                "a note is 1 to 2000 characters",
            ));
        }
    }
    let found = state
        .store
        .check_shadowed(c.id, &submission, body.note.as_deref(), now_ms())
        .await?;
    if !found {
        return Err(ApiError::not_found(format!(
            "contest {} shadows no submission {submission:?}",
            c.slug
        )));
    }
    Ok(Json(json!({"submission": submission, "checked": body.note})).into_response())
}
