//! The CLICS Contest API, version 2023-06, under `/api/contests`: what
//! DOMjudge, the ICPC Resolver and scoreboard tools read. Collections are
//! the contest's record replayed for the reader ([`recorded`]), awards
//! included (the record follows the standings, `store/awards.rs`), so REST
//! and the event feed cannot disagree; the scoreboard comes from the same
//! scoreboard function as the pages. Who sees what follows
//! the standard's roles: an admin sees everything, a team its own
//! submissions' results and clarifications, the public (no credentials)
//! the rest, with judgements made after the freeze hidden until the
//! results are revealed. Credentials are an API
//! token (`Authorization: Bearer`) or a user's name and password (HTTP
//! Basic).
//!
//! Ids: a contest's slug; a problem's catalog slug; a team's account id;
//! a submission's id (also its first judgement's; a rejudge's judgement
//! is `<id>-<n>`, [`crate::contest::clics::judgement_id`]); clarifications `q<N>`
//! (the question) and `a<N>` (its answer); awards the standard's known
//! ids (`winner`, `gold-medal`, `first-to-solve-<problem>`, ...) and the
//! admin's own.

mod auth;
mod feed;
mod objects;
pub mod package;
pub mod zip;

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::Value;

use super::ApiError;
use crate::contest::Contest;
use crate::site::contests::may;
use crate::site::policy::Object;
use crate::site::AppState;
pub use auth::Role;

/// The routes, nested under `/api/contests` by the caller, with the
/// standard's error bodies ([`standard_errors`]).
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(contests))
        .route("/{contest}", get(contest))
        .route("/{contest}/state", get(state))
        .route("/{contest}/access", get(access))
        .route("/{contest}/scoreboard", get(scoreboard))
        .route("/{contest}/event-feed", get(feed::event_feed))
        .route("/{contest}/{kind}", get(collection))
        .route("/{contest}/{kind}/{id}", get(one))
        .route("/{contest}/submissions/{id}/files", get(files))
        .layer(axum::middleware::from_fn(standard_errors))
        .layer(axum::middleware::from_fn(open_to_pages))
}

/// Every answer of the Contest API readable by a page of another site (a
/// scoreboard or a clock in a browser): `Access-Control-Allow-Origin: *`.
/// A browser sends no credentials to `*`, so a page elsewhere reads only
/// what the public may.
pub async fn open_to_pages(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut response = next.run(req).await;
    response.headers_mut().insert(
        axum::http::header::ACCESS_CONTROL_ALLOW_ORIGIN,
        axum::http::HeaderValue::from_static("*"),
    );
    response
}

/// Query arguments every endpoint takes beside its filters: `strict`
/// (a client's wish for only the standard's properties, which is all
/// this judge sends).
const GENERAL_ARGUMENTS: [&str; 1] = ["strict"];

/// The challenge a 401 carries: the two schemes the API takes.
pub const CHALLENGES: [&str; 2] = [
    "Bearer realm=\"grundy\"",
    "Basic realm=\"grundy\", charset=\"UTF-8\"",
];

/// Every failure as the standard's error object, `{"code": <the HTTP
/// status>, "message": "..."}`, and a 401 with its `WWW-Authenticate`
/// challenges: the judge's own API (`/api/v1`) keeps its error shape, so
/// the Contest API rewrites the one [`ApiError`] body here, in one place.
async fn standard_errors(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    // Error bodies are small; a larger one is not ours and is passed on
    // as a generic message.
    let bytes = axum::body::to_bytes(body, 64 * 1024)
        .await
        .unwrap_or_default();
    let message = serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(String::from))
        .unwrap_or_else(|| {
            status
                .canonical_reason()
                .unwrap_or("request failed")
                .to_lowercase()
        });
    let body = serde_json::json!({"code": status.as_u16(), "message": message});
    parts.headers.remove(axum::http::header::CONTENT_LENGTH);
    parts.headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    if status == axum::http::StatusCode::UNAUTHORIZED {
        for challenge in CHALLENGES {
            parts.headers.append(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static(challenge),
            );
        }
    }
    Response::from_parts(parts, axum::body::Body::from(body.to_string()))
}

/// The API information object (`GET /api`): the version of the Contest
/// API served, where it is specified, and who provides it. Tools read it
/// first.
pub async fn api_info() -> Response {
    Json(info()).into_response()
}

/// The API information object, also the contest package's `api.json`.
pub fn info() -> Value {
    serde_json::json!({
        "version": "2023-06",
        "version_url": "https://ccs-specs.icpc.io/2023-06/contest_api",
        "provider": {"name": "grundy", "version": env!("CARGO_PKG_VERSION")},
    })
}

/// `Ok` where `role` may reach `what` of `c` ([`crate::site::policy::may`]),
/// else 403.
pub(super) fn reaches(c: &Contest, role: &Role, what: Object) -> Result<(), ApiError> {
    if may(c, role.who(), what) {
        return Ok(());
    }
    Err(ApiError::new(
        axum::http::StatusCode::FORBIDDEN,
        "forbidden",
        "the contest's scoreboard is closed to all but its participants",
    ))
}

async fn find(state: &AppState, id: &str) -> Result<Contest, ApiError> {
    state
        .store
        .contest(id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("no contest {id:?}")))
}

/// Every handler takes the caller's [`Role`], so wrong credentials are
/// refused everywhere, even where every role sees the same.
async fn contests(State(state): State<AppState>, _role: Role) -> Result<Response, ApiError> {
    let list: Vec<Value> = state
        .store
        .contests()
        .await?
        .iter()
        .map(objects::contest)
        .collect();
    Ok(Json(list).into_response())
}

async fn contest(
    State(state): State<AppState>,
    _role: Role,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    Ok(Json(objects::contest(&c)).into_response())
}

async fn state(
    State(state): State<AppState>,
    _role: Role,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    Ok(Json(objects::state(&c, crate::site::contests::now_ms())).into_response())
}

async fn access(
    State(state): State<AppState>,
    _role: Role,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    Ok(Json(objects::access(&c)).into_response())
}

/// The scoreboard's query: `group_id` keeps the rows of that group's
/// teams (their ranks as on the whole board); other arguments (`strict`)
/// change nothing.
#[derive(serde::Deserialize)]
struct BoardQuery {
    group_id: Option<String>,
}

async fn scoreboard(
    State(state): State<AppState>,
    role: Role,
    Path(id): Path<String>,
    query: Result<axum::extract::Query<BoardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let query = query
        .map_err(|e| ApiError::bad_request("bad_filter", e.body_text()))?
        .0;
    let c = find(&state, &id).await?;
    let role = role.within(&state, &c).await?;
    reaches(&c, &role, Object::Board)?;
    let shown = crate::site::contests::board(&state, &c, role.viewer()).await?;
    let names = may(&c, role.who(), Object::ProblemNames);
    let now = crate::site::contests::now_ms();
    let Some(group) = query.group_id else {
        // The rows as JSON text, made once per board for its every reader;
        // the readers that come meanwhile wait for it without holding a
        // thread of the runtime.
        let rows = shown.clics_rows[usize::from(names)]
            .get_or_init(|| async {
                serde_json::to_string(&objects::rows(&c, &shown.board, names))
                    .expect("rows are plain data")
            })
            .await;
        let body = objects::scoreboard_text(&c, rows, now);
        return Ok((
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response());
    };
    let mut v = objects::scoreboard(&c, &shown.board, now, names);
    {
        let groups = recorded(&state, &c, &role, ("groups", None)).await?;
        if !groups.iter().any(|g| g["id"] == group.as_str()) {
            return Err(ApiError::not_found(format!("no groups {group:?}")));
        }
        let members: Vec<Value> = recorded(&state, &c, &role, ("teams", None))
            .await?
            .into_iter()
            .filter(|t| {
                t["group_ids"]
                    .as_array()
                    .is_some_and(|ids| ids.iter().any(|g| g == group.as_str()))
            })
            .map(|t| t["id"].clone())
            .collect();
        if let Some(rows) = v["rows"].as_array_mut() {
            rows.retain(|r| members.contains(&r["team_id"]));
        }
    }
    Ok(Json(v).into_response())
}

/// Every object of endpoint `kind` that `role` may see, in order; only
/// the one with id `object` where given (read alone where it is recorded).
async fn objects_of(
    state: &AppState,
    c: &Contest,
    role: &Role,
    (kind, object): (&str, Option<&str>),
) -> Result<Vec<Value>, ApiError> {
    if matches!(
        kind,
        "teams" | "organizations" | "groups" | "submissions" | "judgements" | "runs" | "awards"
    ) {
        reaches(c, role, Object::Board)?;
    }
    let fixed = |mut all: Vec<Value>| {
        if let Some(object) = object {
            all.retain(|o| o["id"].as_str() == Some(object));
        }
        Ok(all)
    };
    match kind {
        "judgement-types" => fixed(objects::judgement_types()),
        "languages" => fixed(objects::languages(&state.ctx)),
        "problems" | "teams" | "organizations" | "groups" | "submissions" | "judgements"
        | "runs" | "clarifications" | "awards" => recorded(state, c, role, (kind, object)).await,
        // Endpoints of the standard this judge has nothing for are not
        // in `access`, and not served.
        other => Err(ApiError::not_found(format!("no endpoint {other:?}"))),
    }
}

/// The objects of endpoint `kind` of `c` as `role` reads them (only
/// `object` where given): the contest's record replayed for that reader,
/// each event rendered as its feed renders it. One derivation: what REST
/// returns is what a reader of the whole feed holds.
pub(super) async fn recorded(
    state: &AppState,
    c: &Contest,
    role: &Role,
    (kind, object): (&str, Option<&str>),
) -> Result<Vec<Value>, ApiError> {
    if kind == "problems" && !may(c, role.who(), Object::ProblemNames) {
        return Ok(Vec::new());
    }
    state.store.catch_up_contest(c.id).await?;
    let reader = feed::reader(role);
    let events = match object {
        Some(object) => state
            .store
            .contest_object(c.id, reader, (kind, object))
            .await?
            .into_iter()
            .collect(),
        None => state.store.contest_objects(c.id, reader, kind).await?,
    };
    let own = feed::own_team(state, role).await?;
    let mut out = Vec::with_capacity(events.len());
    for e in &events {
        let mut line = feed::render(state, c, (role, own.as_deref()), e).await?;
        out.push(line["data"].take());
    }
    Ok(out)
}

/// A collection, filtered by its query (`?team_id=3&problem_id=nim`):
/// each argument names a property the endpoint has ([`objects::properties`])
/// and keeps the objects whose property is that id, or `null` for an
/// empty value; several arguments must all hold.
async fn collection(
    State(state): State<AppState>,
    role: Role,
    Path((id, kind)): Path<(String, String)>,
    axum::extract::Query(filters): axum::extract::Query<Vec<(String, String)>>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    let role = role.within(&state, &c).await?;
    let declared = objects::properties(&c, &kind);
    let filters: Vec<(String, String)> = filters
        .into_iter()
        .filter(|(name, _)| !GENERAL_ARGUMENTS.contains(&name.as_str()))
        .collect();
    if let Some((bad, _)) = filters
        .iter()
        .find(|(name, _)| !declared.contains(&name.as_str()))
    {
        return Err(ApiError::bad_request(
            "bad_filter",
            format!("cannot filter {kind} on {bad:?}: the endpoint has no such property"),
        ));
    }
    let mut list = objects_of(&state, &c, &role, (&kind, None)).await?;
    list.retain(|o| {
        filters
            .iter()
            .all(|(name, want)| matches_filter(&o[name], want))
    });
    Ok(Json(list).into_response())
}

/// Whether property value `v` is the filter's `want` (empty: `null`); an
/// array of ids (an award's `team_ids`) matches an id it holds.
fn matches_filter(v: &Value, want: &str) -> bool {
    match v {
        Value::Null => want.is_empty(),
        Value::String(s) => s == want,
        Value::Number(n) => n.to_string() == want,
        Value::Bool(b) => b.to_string() == want,
        Value::Array(items) => items.iter().any(|i| i.as_str() == Some(want)),
        Value::Object(_) => false,
    }
}

async fn one(
    State(state): State<AppState>,
    role: Role,
    Path((id, kind, object)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    let role = role.within(&state, &c).await?;
    objects_of(&state, &c, &role, (&kind, Some(&object)))
        .await?
        .pop()
        .map(|o| Json(o).into_response())
        .ok_or_else(|| ApiError::not_found(format!("no {kind} {object:?}")))
}

/// A submission's files (the `files` reference of its object), for an
/// admin and the team that made it.
async fn files(
    State(state): State<AppState>,
    role: Role,
    Path((id, submission)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    let role = role.within(&state, &c).await?;
    // Its author's tries only: the one asked for is among them, if anywhere.
    let author = match submission.parse::<i64>() {
        Ok(id) if id.to_string() == submission => state
            .store
            .get_status(id)
            .await?
            .filter(|s| s.contest_id == Some(c.id))
            .and_then(|s| s.user_id),
        _ => None,
    };
    let tries = match author {
        Some(author) => objects::team_tries(&state, &c, Some(author)).await?,
        None => Vec::new(),
    };
    let Some((s, at)) = tries.iter().find(|(s, _)| s.id.to_string() == submission) else {
        return Err(ApiError::not_found(format!(
            "no submissions {submission:?}"
        )));
    };
    if !objects::reads_files(&role, s.user_id) {
        return Err(ApiError::new(
            axum::http::StatusCode::FORBIDDEN,
            "forbidden",
            "a submission's files are for admins and the team that made it",
        ));
    }
    let zip = package::files_zip(&state, s.id, &s.language, *at)
        .await
        .map_err(|e| match e {
            package::FilesError::Api(e) => e,
            package::FilesError::Zip(e) => ApiError::internal(&e),
        })?;
    Ok(([(axum::http::header::CONTENT_TYPE, "application/zip")], zip).into_response())
}
