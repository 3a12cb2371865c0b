//! `/api/v1/submissions`: taking one, reading one (long poll included),
//! its source, the list, and an admin's rejudge.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{parse_id, AppJson, AppPath, AppQuery, Caller, NoParams, Params};
use crate::bounds::Field;
use crate::judge::{Report, TestReport};
use crate::problem::Group;
use crate::server::views::{GroupView, TranscriptView};
use crate::server::{ApiError, AppState};
use crate::site::contests::{self, viewer_of, Seals};
use crate::site::intake::Entry;
use crate::site::policy::{self, Part, Role, TestField, TestKind};
use crate::site::take::{take_try, Venue};
use crate::store::{ListFilter, Queue as _, Status, Submission, SubmissionTiming, User};
use crate::verdict::Verdict;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NewBody {
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

pub(super) async fn submit(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppQuery(_): AppQuery<NoParams>,
    AppJson(body): AppJson<NewBody>,
) -> Result<Response, ApiError> {
    // Names within their bounds before any is looked up or echoed.
    Field::ProblemName.check(&body.problem)?;
    Field::LanguageName.check(&body.language)?;
    if let Some(ContestRef::Slug(slug)) = &body.contest {
        Field::ContestRef.check(slug)?;
    }
    let entry = Entry {
        user_id: user.id,
        problem: body.problem,
        language: body.language,
        source: body.source,
    };
    let problem = entry.problem.clone();
    // The catalog problem it is stored for (in a contest it may be named
    // by its label).
    let mut stored_for = problem.clone();
    let taken = match &body.contest {
        None => take_try(&state, &user.name, Venue::Practice, entry).await,
        Some(named) => {
            let name = match named {
                ContestRef::Id(id) => id.to_string(),
                ContestRef::Slug(slug) => slug.clone(),
            };
            let c = contests::find(&state.store, &name)
                .await?
                .ok_or_else(|| ApiError::not_found(format!("no contest {name:?}")))?;
            let label = contests::label_for(&c, &problem);
            if let Some(p) = c.problem(&label) {
                stored_for = p.slug.clone();
            }
            let place = Venue::Contest {
                contest: &c,
                label: &label,
            };
            take_try(&state, &user.name, place, entry).await
        }
    };
    let id = taken.map_err(|r| ApiError::new(r.status(), r.code(), r.to_string()))?;
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"id": id, "status": "queued", "problem": stored_for})),
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
    /// Why a queued submission waits (`crate::site::waiting`), in the
    /// words the caller may read: workers and refusals for admins only.
    #[serde(skip_serializing_if = "Option::is_none")]
    waiting: Option<String>,
    /// Why the jury withdrew it from its contest, where it did (its author
    /// and admins only): it counts for nobody there.
    #[serde(skip_serializing_if = "Option::is_none")]
    withdrawn: Option<String>,
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
            withdrawn: None,
        }
    }
}

#[derive(Deserialize)]
pub(super) struct WaitQuery {
    wait: Option<f64>,
}

impl Params for WaitQuery {
    const KNOWN: &'static [&'static str] = &["wait"];
}

/// The longest long poll, in seconds.
const MAX_WAIT: f64 = 60.0;

pub(super) async fn submission(
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
            if policy::shows(role, Part::Workers) {
                view.timing = state.store.timing_of(id).await?;
            }
            if sub.contest_id.is_some() && policy::shows(role, Part::Withdrawal) {
                view.withdrawn = state.store.withdrawal_of(id).await?;
            }
            if sub.status == Status::Queued && !sealed {
                let judges = state.judges.read(&state.store).await?;
                view.waiting = Some(judges.reason(&sub.problem, &sub.language, role));
            }
            return Ok(Json(view).into_response());
        }
        // Workers of this process say when something changed; those of a
        // `grundy worker` elsewhere cannot, so the database is read again
        // every second as well.
        let recheck = (tokio::time::Instant::now() + RECHECK).min(deadline);
        state
            .polls
            .wait(async {
                tokio::select! {
                    _ = tokio::time::sleep_until(recheck) => {}
                    _ = changes.changed() => {}
                    _ = stop.wait_for(|s| *s) => {}
                }
            })
            .await;
        // A token revoked or a user disabled meanwhile ends the wait.
        Caller::of(&state, &headers).await?;
    }
}

/// How often a long poll reads the database again when nothing woke it.
const RECHECK: Duration = Duration::from_secs(1);

pub(super) async fn source(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(id): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
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
pub(super) struct ListQuery {
    pub(super) user: Option<String>,
    pub(super) problem: Option<String>,
    pub(super) verdict: Option<String>,
    pub(super) limit: Option<u32>,
    pub(super) before: Option<i64>,
}

impl Params for ListQuery {
    const KNOWN: &'static [&'static str] = &["user", "problem", "verdict", "limit", "before"];
}

pub(super) async fn list(
    State(state): State<AppState>,
    Caller(caller): Caller,
    AppQuery(q): AppQuery<ListQuery>,
) -> Result<Response, ApiError> {
    page(&state, &caller, &q, None).await
}

/// A page of the submission list as `caller` may see it, filtered by `q`
/// and, where given, by the contest the submissions were made in. Each item
/// names its contest (its slug; `null` for practice).
pub(super) async fn page(
    state: &AppState,
    caller: &User,
    q: &ListQuery,
    contest: Option<&crate::contest::Contest>,
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
        contest: contest.map(|c| c.id),
        limit,
    };
    let rows = contests::list(&state.store, viewer_of(Some(caller)), &filter).await?;
    let next = if rows.len() == limit as usize {
        rows.last().map(|r| r.id)
    } else {
        None
    };
    let slugs: std::collections::HashMap<i64, String> = match contest {
        Some(c) => [(c.id, c.slug.clone())].into(),
        None if rows.iter().any(|r| r.contest_id.is_some()) => state
            .store
            .contests()
            .await?
            .into_iter()
            .map(|c| (c.id, c.slug))
            .collect(),
        None => Default::default(),
    };
    let items: Vec<_> = rows
        .iter()
        .map(|r| {
            json!({
                "id": r.id, "user": r.user, "problem": r.problem, "language": r.language,
                "status": r.status, "verdict": r.verdict, "score": r.score,
                "time_ms": r.time_ms, "memory_kib": r.memory_kib,
                "submitted_at": r.submitted_at,
                "contest": r.contest_id.and_then(|id| slugs.get(&id)),
            })
        })
        .collect();
    Ok(Json(json!({"submissions": items, "next_before": next})).into_response())
}

pub(super) async fn rejudge(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(id): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
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
