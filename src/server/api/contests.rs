//! `/api/v1/contests`: the contests, one contest with its problems, its
//! board and its submissions, each as the one access policy
//! ([`crate::site::policy::may`]) lets the caller see them now.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::submissions::{page, ListQuery};
use super::{AppJson, AppPath, AppQuery, Caller, NoParams};
use crate::contest::time::format_time;
use crate::contest::{Contest, Phase};
use crate::server::{ApiError, AppState};
use crate::site::contests::{self, now_ms, viewer_of};
use crate::site::policy::{Object, Who};
use crate::store::User;

/// What every caller may know of a contest: its name, window and rules
/// (the contest list page shows as much to anyone).
fn header(c: &Contest, now: i64) -> Value {
    json!({
        "id": c.id, "slug": c.slug, "name": c.name,
        "start": format_time(c.start_ms), "end": format_time(c.end_ms()),
        "freeze": c.freeze_ms().map(format_time),
        "phase": match c.phase(now) {
            Phase::Before => "upcoming",
            Phase::Running => "running",
            Phase::Ended => "ended",
        },
        "frozen": c.is_frozen(now),
        "scoring": c.scoring.as_str(),
        "penalty_min": c.penalty_min,
        "open_to_all": c.open_to_all,
        "board_public": c.board_public,
    })
}

/// Contest `name` (slug or id) and who the caller is to it, or the 404.
pub(super) async fn find(
    state: &AppState,
    user: &User,
    name: &str,
) -> Result<(Contest, Who), ApiError> {
    let c = contests::find(&state.store, name)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no contest {name:?}")))?;
    let who = contests::who(&state.store, &c, Some(user)).await?;
    Ok((c, who))
}

/// The refusal of `what` of `c` to `who`, saying why.
fn refused(c: &Contest, what: Object) -> ApiError {
    let message = match what {
        Object::ProblemNames | Object::Statements => format!(
            "contest {} has not started: its problems are shown from {}",
            c.slug,
            format_time(c.start_ms)
        ),
        _ => format!("the board of contest {} is its participants' only", c.slug),
    };
    ApiError::new(axum::http::StatusCode::FORBIDDEN, "forbidden", message)
}

pub(super) async fn contests(
    State(state): State<AppState>,
    Caller(_): Caller,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    let now = now_ms();
    let list: Vec<Value> = state
        .store
        .contests()
        .await?
        .iter()
        .map(|c| header(c, now))
        .collect();
    Ok(Json(json!({ "contests": list })).into_response())
}

/// One contest: its header, whether the caller takes part, and its
/// problems (label, slug, name) once the caller may know them.
pub(super) async fn contest(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    let (c, who) = find(&state, &user, &name).await?;
    let now = now_ms();
    let mut view = header(&c, now);
    view["participant"] = json!(matches!(who, Who::Participant(_)));
    view["problems"] = if contests::may(&c, who, Object::ProblemNames) {
        let ctx = state.ctx.clone();
        let problems = c.problems.clone();
        let named = tokio::task::spawn_blocking(move || {
            problems
                .iter()
                .map(|p| {
                    // A package that does not load is still listed, unnamed.
                    let title = ctx.catalog.load(&p.slug).ok().map(|l| l.manifest.name);
                    json!({"label": p.label, "slug": p.slug, "name": title})
                })
                .collect::<Vec<_>>()
        })
        .await?;
        Value::from(named)
    } else {
        Value::Null
    };
    Ok(Json(view).into_response())
}

/// The board as the caller may see it (the freeze applied to them).
pub(super) async fn board(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    let (c, who) = find(&state, &user, &name).await?;
    if !contests::may(&c, who, Object::Board) {
        return Err(refused(&c, Object::Board));
    }
    // Before the start the board would name the problems (its columns).
    if !contests::may(&c, who, Object::ProblemNames) {
        return Err(refused(&c, Object::ProblemNames));
    }
    let shown = contests::board(&state, &c, viewer_of(Some(&user))).await?;
    let board = &shown.board;
    let labels: Vec<&str> = c.problems.iter().map(|p| p.label.as_str()).collect();
    Ok(Json(json!({
        "contest": c.slug, "problems": labels,
        "scoring": board.scoring, "frozen": board.frozen, "rows": board.rows,
    }))
    .into_response())
}

/// The contest's submissions, newest first, paged and filtered as
/// `/api/v1/submissions` is; results the freeze seals show as `frozen`.
pub(super) async fn submissions(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppQuery(q): AppQuery<ListQuery>,
) -> Result<Response, ApiError> {
    let (c, who) = find(&state, &user, &name).await?;
    if !contests::may(&c, who, Object::Board) {
        return Err(refused(&c, Object::Board));
    }
    page(&state, &user, &q, Some(&c)).await
}

#[derive(serde::Deserialize)]
pub(super) struct WithdrawBody {
    #[serde(default)]
    reason: String,
}

/// An admin withdraws try `id` from the contest, for `reason` (its team
/// reads it): a try without a result (one no worker can judge, or that
/// ended in a judging error) then counts for nobody. `200` with what was
/// done; `409` naming why the contest's state or the try's refuses it.
pub(super) async fn withdraw(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath((name, id)): AppPath<(String, i64)>,
    AppQuery(_): AppQuery<NoParams>,
    AppJson(body): AppJson<WithdrawBody>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let (c, _) = find(&state, &user, &name).await?;
    state.store.withdraw_try(c.id, id, &body.reason).await?;
    state.worker.changes.changed_any();
    tracing::info!(admin = %user.name, contest = %c.slug, submission = id, "try withdrawn");
    Ok(Json(json!({
        "contest": c.slug, "submission": id, "withdrawn": body.reason.trim(),
    }))
    .into_response())
}
