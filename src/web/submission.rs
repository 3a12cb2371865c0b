//! One submission's page: its verdict, its tests as the viewer may see
//! them (one policy with the API), the chart, the live fragment the page
//! swaps in while it is judged, and the source.

use std::time::Duration;

use axum::extract::State;

use axum::response::{Html, IntoResponse, Response};
use minijinja::{context, Value};
use serde::Deserialize;

use super::render::{me, render, PageError, PagePath, PageQuery};
use super::session::Signed;
use super::{chart, highlight};
use crate::judge::TestReport;
use crate::problem::Group;
use crate::site::contests::{viewer_of, Seals};
use crate::site::policy::{self, Part, Role, TestField, TestKind};
use crate::site::AppState;
use crate::store::{Status, Submission, WebSession};
use crate::verdict::Verdict;

use super::pages::{load_facts, memory, when, Facts};

fn parse_id(text: &str) -> Result<i64, PageError> {
    text.parse::<i64>().map_err(|_| PageError::not_found())
}

fn status_word(s: Status) -> &'static str {
    match s {
        Status::Queued => "queued",
        Status::Judging => "judging",
        Status::Done => "done",
    }
}

/// Why a queued submission waits (`crate::site::waiting`), as the API
/// says it to `viewer` (workers and refusals for admins only); nothing for
/// any other.
async fn waiting(
    state: &AppState,
    sub: &Submission,
    viewer: &WebSession,
    sealed: bool,
) -> Result<Value, crate::store::Error> {
    if sub.status != Status::Queued || sealed {
        return Ok(Value::from(()));
    }
    let role = Role::of(viewer.user.id, viewer.user.is_admin, sub.user_id);
    let judges = state.judges.read(&state.store).await?;
    Ok(Value::from(judges.reason(
        &sub.problem,
        &sub.language,
        role,
    )))
}

/// Why the jury withdrew a contest try, for its author and admins
/// ([`Part::Withdrawal`]); nothing for any other.
async fn withdrawn(
    state: &AppState,
    sub: &Submission,
    viewer: &WebSession,
) -> Result<Value, crate::store::Error> {
    let role = Role::of(viewer.user.id, viewer.user.is_admin, sub.user_id);
    if sub.contest_id.is_none() || !policy::shows(role, Part::Withdrawal) {
        return Ok(Value::from(()));
    }
    Ok(state
        .store
        .withdrawal_of(sub.id)
        .await?
        .map_or(Value::from(()), Value::from))
}

/// What the results section shows, by the API's rules of who sees what
/// (`sealed`: the freeze hides the result, status and progress included).
fn results(
    state: &AppState,
    sub: &Submission,
    facts: Option<&Facts>,
    viewer: &WebSession,
    sealed: bool,
) -> Vec<(&'static str, Value)> {
    let role = Role::of(viewer.user.id, viewer.user.is_admin, sub.user_id);
    let report = sub.report.as_ref().filter(|_| !sealed);
    let tests: &[TestReport] = match report {
        Some(r) => r.tests.as_slice(),
        None if sealed => &[],
        None => sub.progress.as_slice(),
    };
    let status = if sealed {
        policy::FROZEN
    } else {
        status_word(sub.status)
    };
    let labels: Vec<String> = tests
        .iter()
        .enumerate()
        .map(|(i, t)| policy::test_label(role, kind_of(&t.group), &t.name, i + 1))
        .collect();
    let shows = |t: &TestReport, field| policy::shows(role, Part::Test(kind_of(&t.group), field));
    let shows_message = |t: &TestReport| shows(t, TestField::Message);
    let mut rows: Vec<Value> = tests
        .iter()
        .zip(&labels)
        .map(|(t, label)| {
            context! {
                name => label, group => t.group.as_str(), verdict => t.verdict.as_str(),
                time_ms => shows(t, TestField::Time).then_some(t.time_ms),
                memory => shows(t, TestField::Memory).then(|| memory(t.memory_kib)),
                message => if shows_message(t) { t.message.as_str() } else { "" },
            }
        })
        .collect();
    let messages = tests
        .iter()
        .any(|t| shows_message(t) && !t.message.is_empty());
    let planned = facts.map_or(tests.len(), |f| f.tests.len().max(tests.len()));
    if sub.status != Status::Done && !sealed {
        if let Some(f) = facts {
            for (i, (name, group)) in f.tests.iter().enumerate().skip(tests.len()) {
                let running = sub.status == Status::Judging && i == tests.len();
                rows.push(context! {
                    name => policy::test_label(role, kind_of(group), name, i + 1),
                    group => group.as_str(),
                    state => if running { "running" } else { "waiting" },
                });
            }
        }
    }
    let time_factor = state
        .ctx
        .languages
        .get(&sub.language)
        .map_or(1.0, |l| l.config.time_factor);
    let chart = facts
        .map(|f| {
            // Only the tests whose time and memory the viewer may see.
            let points: Vec<chart::Point<'_>> = tests
                .iter()
                .zip(&labels)
                .filter(|(t, _)| shows(t, TestField::Time) && shows(t, TestField::Memory))
                .map(|(t, label)| chart::Point {
                    name: label,
                    time_ms: t.time_ms,
                    memory_kib: t.memory_kib,
                    failed: !t.verdict.is_accepted(),
                })
                .collect();
            chart::render(
                &points,
                (f.time_limit_s * time_factor * 1000.0).round() as u64,
                f.memory_mib * 1024,
            )
        })
        .unwrap_or_default();
    let time_limit = facts.map(|f| {
        if time_factor == 1.0 {
            f.time_limit()
        } else {
            format!("{} s", f.time_limit_s * time_factor)
        }
    });
    vec![
        ("id", Value::from(sub.id)),
        ("status", Value::from(status)),
        ("verdict", Value::from(report.map(|r| r.verdict.as_str()))),
        (
            "verdict_text",
            Value::from(report.map(|r| {
                // A run the wall clock stopped used less CPU than the
                // limit: its time alone would not explain the TLE.
                let walled = r.verdict == Verdict::TLE
                    && r.tests.iter().any(|t| {
                        t.verdict == Verdict::TLE && t.message == crate::judge::WALL_CLOCK
                    });
                match walled {
                    true => format!(
                        "{}: stopped by the wall clock (the program waited or slept, \
                         its CPU time under the limit)",
                        r.verdict.describe()
                    ),
                    false => r.verdict.describe().to_string(),
                }
            })),
        ),
        ("score", Value::from(report.map(|r| r.score))),
        ("time_ms", Value::from(report.map(|r| r.time_ms))),
        ("memory", Value::from(report.map(|r| memory(r.memory_kib)))),
        (
            "compile_output",
            Value::from(match report {
                Some(r) if policy::shows(role, Part::CompileOutput) => r.compile_output.as_str(),
                _ => "",
            }),
        ),
        (
            "error",
            Value::from(
                sub.error
                    .as_deref()
                    .filter(|_| !sealed && policy::shows(role, Part::JudgeError)),
            ),
        ),
        ("tests", Value::from_serialize(&labels)),
        ("rows", Value::from(rows)),
        (
            "groups",
            Value::from(
                report
                    .map(|r| r.groups.as_slice())
                    .unwrap_or_default()
                    .iter()
                    .map(|g| {
                        context! {
                            name => g.name.as_str(), points => g.points, score => g.score,
                            verdict => g.verdict.map(|v| v.as_str()), skipped => g.skipped,
                        }
                    })
                    .collect::<Vec<_>>(),
            ),
        ),
        ("messages", Value::from(messages)),
        ("planned", Value::from(planned)),
        ("chart", Value::from_safe_string(chart)),
        (
            "time_limit",
            Value::from(time_limit.unwrap_or_else(|| "—".into())),
        ),
        ("memory_limit", Value::from(facts.map(|f| f.memory_mib))),
    ]
}

fn kind_of(group: &Group) -> TestKind {
    if group.is_sample() {
        TestKind::Sample
    } else {
        TestKind::Secret
    }
}

async fn load_submission(state: &AppState, id: &str) -> Result<Submission, PageError> {
    let id = parse_id(id)?;
    state.store.get(id).await?.ok_or_else(PageError::not_found)
}

pub async fn submission(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(id): PagePath<String>,
) -> Result<Response, PageError> {
    let sub = load_submission(&state, &id).await?;
    let mut seals = Seals::new(&state.store, viewer_of(Some(&session.user)));
    if seals.hides(&sub).await? {
        return Err(PageError::not_found());
    }
    let sealed = seals.submission(&sub).await?;
    let facts = load_facts(&state, &sub.problem).await?;
    let mut fields = results(&state, &sub, facts.as_ref(), &session, sealed);
    fields.push(("waiting", waiting(&state, &sub, &session, sealed).await?));
    fields.push(("withdrawn", withdrawn(&state, &sub, &session).await?));
    let sees_source = policy::shows(
        Role::of(session.user.id, session.user.is_admin, sub.user_id),
        Part::Source,
    );
    // Which machine judged it is the judge's business.
    let timing = match policy::shows(
        Role::of(session.user.id, session.user.is_admin, sub.user_id),
        Part::Workers,
    ) {
        true => state.store.timing_of(sub.id).await?,
        false => None,
    };
    let source = sees_source.then(|| {
        Value::from_safe_string(highlight::highlight(
            &sub.language,
            &String::from_utf8_lossy(&sub.source),
        ))
    });
    let language_name = state
        .ctx
        .languages
        .get(&sub.language)
        .map_or(sub.language.clone(), |l| l.config.name.clone());
    fields.extend([
        ("me", me(Some(&session))),
        ("section", Value::from("mine")),
        ("problem", Value::from(sub.problem.clone())),
        (
            "problem_name",
            Value::from(
                facts
                    .as_ref()
                    .map_or(sub.problem.clone(), |f| f.name.clone()),
            ),
        ),
        ("user", Value::from(sub.user.clone())),
        ("language_name", Value::from(language_name)),
        ("when", Value::from(when(&sub.submitted_at))),
        ("source", Value::from(source)),
        ("timing", Value::from_serialize(&timing)),
    ]);
    Ok(render("submission.html", Value::from_iter(fields))?.into_response())
}

#[derive(Deserialize)]
pub struct LiveQuery {
    wait: Option<f64>,
    status: Option<String>,
    seen: Option<usize>,
}

/// How long the live fragment may be held, at most.
const MAX_WAIT: f64 = 30.0;
/// How often a held request reads the database again unprompted (for
/// workers in other processes, which cannot wake it).
const RECHECK: Duration = Duration::from_secs(1);

/// The results section alone, once it differs from what the page shows
/// (another status, more tests) or after `wait` seconds: the page's script
/// swaps it in, so the table fills in while the submission is judged.
pub async fn live(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(id): PagePath<String>,
    PageQuery(q): PageQuery<LiveQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Response, PageError> {
    let id = parse_id(&id)?;
    let wait = q.wait.filter(|w| w.is_finite() && *w >= 0.0).unwrap_or(0.0);
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait.min(MAX_WAIT));
    let mut changes = state.worker.changes.subscribe(id);
    let viewer = viewer_of(Some(&session.user));
    let (sub, sealed) = loop {
        let sub = state
            .store
            .get_status(id)
            .await?
            .ok_or_else(PageError::not_found)?;
        let mut seals = Seals::new(&state.store, viewer);
        if seals.hides(&sub).await? {
            return Err(PageError::not_found());
        }
        // Sealed, it stays `frozen` with nothing shown, however it goes.
        let sealed = seals.submission(&sub).await?;
        let (status, shown) = match sub.report.as_ref() {
            _ if sealed => (policy::FROZEN, 0),
            Some(r) => (status_word(sub.status), r.tests.len()),
            None => (status_word(sub.status), sub.progress.len()),
        };
        let same = q.status.as_deref() == Some(status) && q.seen == Some(shown);
        if !same || tokio::time::Instant::now() >= deadline || state.is_stopping() {
            break (sub, sealed);
        }
        let recheck = (tokio::time::Instant::now() + RECHECK).min(deadline);
        state
            .polls
            .wait(async {
                tokio::select! {
                    _ = tokio::time::sleep_until(recheck) => {}
                    _ = changes.changed() => {}
                }
            })
            .await;
        // Signed out or disabled meanwhile: the wait ends.
        if super::session::current(&state, &headers).await?.is_none() {
            return Err(PageError::SignIn(format!("/submissions/{id}")));
        }
    };
    let facts = load_facts(&state, &sub.problem).await?;
    let mut fields = results(&state, &sub, facts.as_ref(), &session, sealed);
    fields.push(("waiting", waiting(&state, &sub, &session, sealed).await?));
    fields.push(("withdrawn", withdrawn(&state, &sub, &session).await?));
    let html: Html<String> = render("results.html", Value::from_iter(fields))?;
    Ok(([(axum::http::header::CACHE_CONTROL, "no-store")], html).into_response())
}

pub async fn source(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(id): PagePath<String>,
) -> Result<Response, PageError> {
    let sub = load_submission(&state, &id).await?;
    // Someone else's source does not exist, as far as the visitor can tell.
    if !policy::shows(
        Role::of(session.user.id, session.user.is_admin, sub.user_id),
        Part::Source,
    ) {
        return Err(PageError::not_found());
    }
    let language_name = state
        .ctx
        .languages
        .get(&sub.language)
        .map_or(sub.language.clone(), |l| l.config.name.clone());
    let code = highlight::highlight(&sub.language, &String::from_utf8_lossy(&sub.source));
    let html = render(
        "source.html",
        context! {
            me => me(Some(&session)), section => "mine", id => sub.id, problem => sub.problem,
            language_name, source => Value::from_safe_string(code),
        },
    )?;
    Ok(html.into_response())
}
