//! The handlers of `/api/v1` (documented in `docs/api.md`). Each one
//! extracts, calls the judge's plan or the store, and maps the result.

use std::time::Duration;

use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::views::{GroupView, TranscriptView};
use super::{ApiError, AppState};
use crate::auth;
use crate::judge::{Report, TestReport};
use crate::problem::{self, Group, TestInput};
use crate::site::contests::{self, viewer_of, Seals};
use crate::site::intake::{self, Entry};
use crate::site::policy::{self, Part, Role, TestField, TestKind};
use crate::store::{ListFilter, Queue, Status, Submission, SubmissionTiming, User};
use crate::verdict::Verdict;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/health", get(health))
        .route("/submissions", post(submit).get(list))
        .route("/submissions/{id}", get(submission))
        .route("/submissions/{id}/source", get(source))
        .route("/submissions/{id}/rejudge", post(rejudge))
        .route("/problems", get(problems))
        .route("/problems/{slug}", get(problem))
        .route("/problems/{slug}/rejudge", post(rejudge_problem))
        .route("/languages", get(languages))
        .route("/admin/workers", get(admin_workers))
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
            .map(str::trim)
            .ok_or_else(ApiError::unauthorized)?;
        state
            .store
            .user_for_token(&auth::token_hash(token))
            .await?
            .filter(|u| !u.disabled)
            .ok_or_else(ApiError::unauthorized)
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

/// `Query` whose rejections keep the API's error shape.
pub struct AppQuery<T>(pub T);

impl<T: serde::de::DeserializeOwned, S: Send + Sync> FromRequestParts<S> for AppQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(v)| AppQuery(v))
            .map_err(|r| ApiError::bad_request("bad_query", r.body_text()))
    }
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

async fn health(State(state): State<AppState>) -> Response {
    if state.is_stopping() {
        return ApiError::unavailable().into_response();
    }
    Json(json!({"status": "ok"})).into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBody {
    problem: String,
    language: String,
    source: String,
    /// A contest's id or slug: the submission is made in it (`problem`
    /// then names one of its problems by label or catalog slug).
    #[serde(default)]
    contest: Option<ContestRef>,
}

/// A contest named by its id or its slug.
#[derive(Deserialize)]
#[serde(untagged)]
enum ContestRef {
    Id(i64),
    Slug(String),
}

async fn submit(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppJson(body): AppJson<NewBody>,
) -> Result<Response, ApiError> {
    if state.is_stopping() {
        return Err(ApiError::unavailable());
    }
    let entry = Entry {
        user_id: user.id,
        problem: body.problem,
        language: body.language,
        source: body.source,
    };
    let problem = entry.problem.clone();
    let taken = match &body.contest {
        None => intake::submit(&state.ctx, &state.store, state.limits, entry).await,
        Some(named) => {
            let name = match named {
                ContestRef::Id(id) => id.to_string(),
                ContestRef::Slug(slug) => slug.clone(),
            };
            let c = contests::find(&state.store, &name)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("no contest {name:?}")))?;
            let label = contests::label_for(&c, &problem);
            contests::submit(&state.ctx, &state.store, state.limits, &c, &label, entry).await
        }
    };
    let id = taken.map_err(|r| ApiError::new(r.status(), r.code(), r.to_string()))?;
    state.wake.notify_one();
    if body.contest.is_some() {
        // Open scoreboards and contest pages show the new try.
        state.worker.changes.changed_any();
    }
    tracing::info!(id, user = %user.name, problem = %problem, "submission queued");
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"id": id, "status": "queued"})),
    )
        .into_response())
}

/// A test as the caller may see it ([`policy`] decides): a secret test is
/// a number, a verdict and a score to a contestant; its name, time, memory,
/// message, exit code and signal are kept back (absent from the object).
#[derive(Serialize)]
struct TestView<'a> {
    /// Its position in the plan, from 1.
    number: usize,
    /// Its name, or `#` and its number where the name is not the caller's to see.
    name: String,
    group: &'a Group,
    verdict: Verdict,
    #[serde(skip_serializing_if = "Option::is_none")]
    time_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    wall_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    memory_kib: Option<u64>,
    exit_code: Option<i32>,
    signal: Option<i32>,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    /// Only samples have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    transcript: Option<TranscriptView<'a>>,
}

impl<'a> TestView<'a> {
    fn new(t: &'a TestReport, index: usize, role: Role) -> TestView<'a> {
        let kind = if t.group.is_sample() {
            TestKind::Sample
        } else {
            TestKind::Secret
        };
        let shows = |field| policy::shows(role, Part::Test(kind, field));
        TestView {
            number: index + 1,
            name: policy::test_label(role, kind, &t.name, index + 1),
            group: &t.group,
            verdict: t.verdict,
            time_ms: Some(t.time_ms).filter(|_| shows(TestField::Time)),
            wall_ms: Some(t.wall_ms).filter(|_| shows(TestField::Time)),
            memory_kib: Some(t.memory_kib).filter(|_| shows(TestField::Memory)),
            exit_code: t.exit_code.filter(|_| shows(TestField::ExitCode)),
            signal: t.signal.filter(|_| shows(TestField::Signal)),
            message: if shows(TestField::Message) {
                &t.message
            } else {
                ""
            },
            score: t.score.filter(|_| shows(TestField::Score)),
            transcript: t
                .transcript
                .as_ref()
                .filter(|_| shows(TestField::Transcript))
                .map(TranscriptView::new),
        }
    }
}

/// `grundy submit --json`'s object plus `status` and `user`.
#[derive(Serialize)]
struct SubmissionView<'a> {
    id: i64,
    problem: &'a str,
    language: &'a str,
    verdict: Option<Verdict>,
    score: Option<u32>,
    time_ms: Option<u64>,
    memory_kib: Option<u64>,
    compile_output: &'a str,
    tests: Vec<TestView<'a>>,
    groups: Vec<GroupView<'a>>,
    /// `queued`, `judging`, `done`, or `frozen` where a contest's freeze
    /// hides the result from the caller.
    status: &'static str,
    user: Option<&'a str>,
    submitted_at: &'a str,
    /// Why the judge failed (admins only).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    /// Who judged it, its speed factor and scaled limit, and its first
    /// judging when it was re-run (admins only; see docs/timing.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    timing: Option<SubmissionTiming>,
    /// Why a queued submission waits (`crate::site::waiting`).
    #[serde(skip_serializing_if = "Option::is_none")]
    waiting: Option<String>,
}

impl<'a> SubmissionView<'a> {
    /// `sealed`: the freeze hides its result from the caller (only what
    /// was submitted shows).
    fn new(sub: &'a Submission, caller: &User, sealed: bool) -> SubmissionView<'a> {
        let role = Role::of(caller.id, caller.is_admin, sub.user_id);
        let report: Option<&Report> = sub.report.as_ref().filter(|_| !sealed);
        let tests = match report {
            Some(r) => r.tests.as_slice(),
            None if sealed => &[],
            None => sub.progress.as_slice(),
        };
        SubmissionView {
            id: sub.id,
            problem: &sub.problem,
            language: &sub.language,
            verdict: report.map(|r| r.verdict),
            score: report.map(|r| r.score),
            time_ms: report.map(|r| r.time_ms),
            memory_kib: report.map(|r| r.memory_kib),
            // Compiler messages quote the source: its owner's and admins' only.
            compile_output: match report {
                Some(r) if policy::shows(role, Part::CompileOutput) => &r.compile_output,
                _ => "",
            },
            tests: tests
                .iter()
                .enumerate()
                .map(|(i, t)| TestView::new(t, i, role))
                .collect(),
            groups: report.map_or_else(Vec::new, |r| {
                r.groups
                    .iter()
                    .map(|g| GroupView::new(g, &r.tests, role))
                    .collect()
            }),
            status: match sub.status {
                _ if sealed => policy::FROZEN,
                Status::Queued => "queued",
                Status::Judging => "judging",
                Status::Done => "done",
            },
            user: sub.user.as_deref(),
            submitted_at: &sub.submitted_at,
            error: sub
                .error
                .as_deref()
                .filter(|_| policy::shows(role, Part::JudgeError)),
            timing: None,
            waiting: None,
        }
    }
}

#[derive(Deserialize)]
struct WaitQuery {
    wait: Option<f64>,
}

/// The longest long poll, in seconds.
const MAX_WAIT: f64 = 60.0;

fn parse_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>()
        .map_err(|_| ApiError::not_found(format!("no submission {text:?}")))
}

async fn submission(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(id): AppPath<String>,
    AppQuery(q): AppQuery<WaitQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let id = parse_id(&id)?;
    let wait = q.wait.unwrap_or(0.0);
    if !(wait.is_finite() && wait >= 0.0) {
        return Err(ApiError::bad_request(
            "bad_wait",
            "wait is a number of seconds from 0 to 60",
        ));
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait.min(MAX_WAIT));
    // Subscribe before reading, so a change between the read and the wait
    // is not missed.
    let mut changes = state.worker.changes.subscribe(id);
    let mut stop = state.stop_signal();
    loop {
        let sub = state
            .store
            .get_status(id)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("no submission {id}")))?;
        let mut seals = Seals::new(&state.store, viewer_of(Some(&user)));
        if seals.hides(&sub).await? {
            return Err(ApiError::not_found(format!("no submission {id}")));
        }
        // A sealed result answers at once: when it would have changed is
        // itself a result.
        let sealed = seals.submission(&sub).await?;
        let waiting = sub.status != Status::Done
            && !sealed
            && tokio::time::Instant::now() < deadline
            && !state.is_stopping();
        if !waiting {
            let mut view = SubmissionView::new(&sub, &user, sealed);
            // Which machine judged it is the judge's business, like its errors.
            let role = Role::of(user.id, user.is_admin, sub.user_id);
            if policy::shows(role, Part::JudgeError) {
                view.timing = state.store.timing_of(id).await?;
            }
            if sub.status == Status::Queued && !sealed {
                let judges = crate::site::waiting::Judges::read(&state.store).await?;
                view.waiting = Some(judges.reason(&sub.problem, &sub.language));
            }
            return Ok(Json(view).into_response());
        }
        // Workers of this process say when something changed; those of a
        // `grundy worker` elsewhere cannot, so the database is read again
        // every second as well.
        let recheck = (tokio::time::Instant::now() + RECHECK).min(deadline);
        tokio::select! {
            _ = tokio::time::sleep_until(recheck) => {}
            _ = changes.changed() => {}
            _ = stop.wait_for(|s| *s) => {}
        }
        // A token revoked or a user disabled meanwhile ends the wait.
        Caller::of(&state, &headers).await?;
    }
}

/// How often a long poll reads the database again when nothing woke it.
const RECHECK: Duration = Duration::from_secs(1);

async fn source(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(id): AppPath<String>,
) -> Result<Response, ApiError> {
    let id = parse_id(&id)?;
    let sub = state.store.get(id).await?;
    // Someone else's source does not exist, as far as the caller can tell.
    let sub = sub
        .filter(|s| policy::shows(Role::of(user.id, user.is_admin, s.user_id), Part::Source))
        .ok_or_else(|| ApiError::not_found(format!("no submission {id}")))?;
    Ok(Json(json!({
        "id": sub.id,
        "problem": sub.problem,
        "language": sub.language,
        "source": String::from_utf8_lossy(&sub.source),
    }))
    .into_response())
}

#[derive(Deserialize)]
struct ListQuery {
    user: Option<String>,
    problem: Option<String>,
    verdict: Option<String>,
    limit: Option<u32>,
    before: Option<i64>,
}

async fn list(
    State(state): State<AppState>,
    Caller(caller): Caller,
    AppQuery(q): AppQuery<ListQuery>,
) -> Result<Response, ApiError> {
    if let Some(v) = &q.verdict {
        if v.parse::<Verdict>().is_err() {
            return Err(ApiError::bad_request(
                "bad_verdict",
                format!("{v:?} is not a verdict (AC, WA, PE, TLE, MLE, OLE, RE, CE, IE)"),
            ));
        }
    }
    let limit = q.limit.unwrap_or(20).clamp(1, 100);
    let filter = ListFilter {
        user: q.user.as_deref(),
        problem: q.problem.as_deref(),
        verdict: q.verdict.as_deref(),
        before: q.before,
        limit,
    };
    let rows = contests::list(&state.store, viewer_of(Some(&caller)), &filter).await?;
    let next = if rows.len() == limit as usize {
        rows.last().map(|r| r.id)
    } else {
        None
    };
    let items: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.id, "user": r.user, "problem": r.problem, "language": r.language,
                "status": r.status, "verdict": r.verdict, "score": r.score,
                "time_ms": r.time_ms, "memory_kib": r.memory_kib,
                "submitted_at": r.submitted_at,
            })
        })
        .collect();
    Ok(Json(json!({"submissions": items, "next_before": next})).into_response())
}

async fn rejudge(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(id): AppPath<String>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let id = parse_id(&id)?;
    if !state.store.rejudge(id).await? {
        return Err(ApiError::not_found(format!("no judged submission {id}")));
    }
    state.wake.notify_one();
    Ok((StatusCode::ACCEPTED, Json(json!({"rejudged": 1}))).into_response())
}

async fn rejudge_problem(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(slug): AppPath<String>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let n = state.store.rejudge_problem(&slug).await?;
    for _ in 0..n.min(64) {
        state.wake.notify_one();
    }
    Ok((StatusCode::ACCEPTED, Json(json!({"rejudged": n}))).into_response())
}

/// The workers' calibrated speeds and factors (admins only).
async fn admin_workers(
    State(state): State<AppState>,
    Caller(user): Caller,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let speeds = crate::site::speeds::speeds(&state).await?;
    Ok(Json(speeds).into_response())
}

async fn problems(
    State(state): State<AppState>,
    Caller(caller): Caller,
) -> Result<Response, ApiError> {
    let ctx = state.ctx.clone();
    // A contest not yet started hides its problems from all but admins.
    let hidden = match caller.is_admin {
        true => Vec::new(),
        false => contests::hidden_all(&state.store).await?,
    };
    let list = tokio::task::spawn_blocking(move || {
        let slugs = ctx.catalog.slugs()?;
        let mut out = Vec::new();
        for slug in slugs.into_iter().filter(|s| !hidden.contains(s)) {
            // A broken package is the setter's to fix (`grundy verify`);
            // the others are still listed.
            match ctx.catalog.load(&slug) {
                Ok(p) => out.push(json!({
                    "slug": p.slug, "name": p.manifest.name,
                    "time_limit_s": p.manifest.time_limit,
                    "memory_limit_mib": p.manifest.memory_limit,
                })),
                Err(e) => tracing::warn!(slug, error = %e, "problem not listed"),
            }
        }
        Ok::<_, problem::Error>(out)
    })
    .await?
    .map_err(|e| ApiError::internal(&e))?;
    Ok(Json(json!({ "problems": list })).into_response())
}

async fn problem(
    State(state): State<AppState>,
    Caller(caller): Caller,
    AppPath(slug): AppPath<String>,
) -> Result<Response, ApiError> {
    // Hidden, it does not exist as far as the caller can tell.
    if !caller.is_admin && contests::hidden(&state.store, &slug).await? {
        return Err(ApiError::not_found(format!("no problem {slug:?}")));
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

async fn languages(State(state): State<AppState>, Caller(_): Caller) -> Response {
    let list: Vec<_> = state
        .ctx
        .languages
        .iter()
        .map(|l| json!({"id": l.id, "name": l.config.name, "extensions": l.config.extensions}))
        .collect();
    Json(json!({ "languages": list })).into_response()
}
