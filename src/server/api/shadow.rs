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
    let mut v = report.json(&c.slug, &filter);
    v["following"] = match state.followers.said(c.id) {
        Some((running, said)) => json!({"running": running, "said": said}),
        None => json!(null),
    };
    Ok(Json(v).into_response())
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

#[derive(Deserialize)]
pub(super) struct ImportBody {
    /// The other system's Contest API URL of the contest.
    source: String,
    token: Option<String>,
    slug: Option<String>,
    #[serde(default)]
    map: Option<crate::shadow::import::Mapping>,
}

/// `POST /api/v1/contests/import`: a contest set up from another system's
/// Contest API, as `grundy contest import URL` does. 422 `not_mapped`
/// lists in `items` what cannot be mapped; nothing is then stored.
pub(super) async fn import(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppJson(body): AppJson<ImportBody>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    if !(body.source.starts_with("http://") || body.source.starts_with("https://")) {
        return Err(ApiError::bad_request(
            "bad_source",
            "source: the other system's Contest API URL of the contest (http:// or https://)",
        ));
    }
    let map = body.map.unwrap_or_default();
    match crate::shadow::import::import(&state.ctx, &state.store, &body.source, body.token, map, body.slug).await {
        Ok((id, plan)) => Ok((
            axum::http::StatusCode::CREATED,
            Json(json!({
                "id": id, "slug": plan.contest.slug, "name": plan.contest.name,
                "teams": plan.contest.participants.as_ref().map_or(0, Vec::len),
                "accounts_made": plan.new_accounts.len(),
                "problems": plan.contest.problems.iter().map(|(l, p)| json!({"label": l, "problem": p})).collect::<Vec<_>>(),
            })),
        )
            .into_response()),
        Err(e) => match e.downcast_ref::<crate::shadow::import::Refused>() {
            Some(r) => Ok((
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                Json(json!({"error": {"code": "not_mapped", "message": r.to_string(), "items": r.0}})),
            )
                .into_response()),
            None => Err(ApiError::bad_request("not_imported", crate::errors::chain(&*e))),
        },
    }
}

#[derive(Deserialize)]
pub(super) struct FollowBody {
    #[serde(default)]
    token: Option<String>,
}

/// `POST .../shadow/follow`: this server follows the contest's source
/// (its workers judge); 409 while it does already.
pub(super) async fn follow(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppJson(body): AppJson<FollowBody>,
) -> Result<Response, ApiError> {
    let c = shadowed(&state, user.is_admin, &name).await?;
    if state.store.shadow(c.id).await?.is_none() {
        return Err(ApiError::not_found(format!(
            "contest {} shadows no other system",
            c.slug
        )));
    }
    if !crate::shadow::follow::start_in_server(&state, c.clone(), body.token) {
        return Err(ApiError::new(
            axum::http::StatusCode::CONFLICT,
            "following",
            format!("this server follows contest {} already", c.slug),
        ));
    }
    Ok((
        axum::http::StatusCode::ACCEPTED,
        Json(json!({"following": c.slug})),
    )
        .into_response())
}

/// `POST .../shadow/stop`: stops this server's following.
pub(super) async fn stop(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
) -> Result<Response, ApiError> {
    let c = shadowed(&state, user.is_admin, &name).await?;
    let stopped = state.followers.stop(c.id);
    Ok(Json(json!({"stopped": stopped})).into_response())
}
