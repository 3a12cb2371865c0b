//! The contestant's pages: signing in and out, problems, submitting, the
//! submission lists and a submission's page with its live results.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::extract::State;
use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::header::{RETRY_AFTER, SET_COOKIE};
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::{AppendHeaders, Html, IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::{context, Value};
use serde::{Deserialize, Serialize};

use super::render::{me, render, PageError, PagePath, PageQuery};
use super::session::{
    check_csrf, cookie, new_secret, safe_next, same_secret, set_cookie, Signed, Viewer,
    SESSION_COOKIE, SESSION_TTL_S, SIGNIN_COOKIE,
};
use super::{chart, highlight, markdown};
use crate::auth;
use crate::judge::TestReport;
use crate::problem::{self, Group};
use crate::site::intake::{self, Entry, Refusal};
use crate::site::policy::{self, Part, Role, TestField, TestKind};
use crate::site::AppState;
use crate::store::{ListFilter, Status, Submission, Summary, WebSession};
use crate::verdict::Verdict;

/// Lines of a submission list page.
const PAGE_ROWS: u32 = 50;

// ---------------------------------------------------------------- sign in

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn signin_form(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    PageQuery(q): PageQuery<NextQuery>,
) -> Result<Response, PageError> {
    let next = safe_next(q.next.as_deref());
    if viewer.is_some() {
        return Ok(Redirect::to(&next).into_response());
    }
    signin_page(&state, &next, "", None, StatusCode::OK)
}

/// The sign-in form with a fresh double-submit value (cookie and field).
fn signin_page(
    state: &AppState,
    next: &str,
    name: &str,
    error: Option<&str>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let pre = new_secret();
    let secure = state.ctx.config.server.secure_cookies;
    let html = render(
        "signin.html",
        context! { me => (), csrf => pre, next, name, error },
    )?;
    Ok((
        status,
        AppendHeaders([(
            SET_COOKIE,
            set_cookie(SIGNIN_COOKIE, &pre, 3600, "Strict", secure),
        )]),
        html,
    )
        .into_response())
}

#[derive(Deserialize)]
pub struct SigninForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    next: Option<String>,
}

pub async fn signin(
    State(state): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    Form(form): Form<SigninForm>,
) -> Result<Response, PageError> {
    let pre = cookie(&headers, SIGNIN_COOKIE).unwrap_or_default();
    if pre.is_empty() || !same_secret(&pre, &form.csrf) {
        return Err(PageError::expired_form());
    }
    let next = safe_next(form.next.as_deref());
    let name = form.name.trim();
    let address = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    // A locked name or address is refused before any password is checked:
    // guessing on gains nothing, and costs the judge nothing.
    if let Some(wait) = state.throttle.wait(name, address) {
        return signin_throttled(&state, &next, name, wait);
    }
    let found = state.store.user_with_password(name).await?;
    // An unknown name costs the same argon2 verification as a known one,
    // so the time taken does not say which names exist.
    let (user, hash) = match found {
        Some((user, hash)) => (Some(user), hash),
        None => (None, dummy_hash().to_string()),
    };
    let Ok(ok) = state.passwords.verify(form.password, hash).await else {
        return Ok((
            [(RETRY_AFTER, "2")],
            PageError::status(
                StatusCode::SERVICE_UNAVAILABLE,
                "Busy",
                "The judge is busy checking passwords; try again in a moment.",
            ),
        )
            .into_response());
    };
    // Guesses sent at once all passed the check above; a lock that other
    // guesses set meanwhile holds for this one too, right or wrong.
    if let Some(wait) = state.throttle.wait(name, address) {
        return signin_throttled(&state, &next, name, wait);
    }
    let user = match user {
        Some(u) if ok && !u.disabled => u,
        _ => {
            if let Some(wait) = state.throttle.failed(name, address) {
                return signin_throttled(&state, &next, name, wait);
            }
            return signin_page(
                &state,
                &next,
                name,
                Some("Wrong name or password, or the account is disabled."),
                StatusCode::UNAUTHORIZED,
            );
        }
    };
    state.throttle.succeeded(name);
    let secret = new_secret();
    state
        .store
        .add_session(
            user.id,
            &auth::token_hash(&secret),
            &new_secret(),
            SESSION_TTL_S * 1000,
        )
        .await?;
    tracing::info!(user = %user.name, "signed in on the web");
    let secure = state.ctx.config.server.secure_cookies;
    Ok((
        AppendHeaders([
            (
                SET_COOKIE,
                set_cookie(SESSION_COOKIE, &secret, SESSION_TTL_S, "Lax", secure),
            ),
            (
                SET_COOKIE,
                set_cookie(SIGNIN_COOKIE, "", 0, "Strict", secure),
            ),
        ]),
        Redirect::to(&next),
    )
        .into_response())
}

/// The sign-in form again, 429, saying when to try again.
fn signin_throttled(
    state: &AppState,
    next: &str,
    name: &str,
    wait: Duration,
) -> Result<Response, PageError> {
    let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    let why = format!(
        "Too many failed sign-ins for this name or from this address. Try again in {seconds} s."
    );
    let page = signin_page(state, next, name, Some(&why), StatusCode::TOO_MANY_REQUESTS)?;
    Ok(([(RETRY_AFTER, seconds.to_string())], page).into_response())
}

/// A valid argon2 hash of nothing anyone knows, made once.
fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| auth::hash_password(&new_secret()).unwrap_or_default())
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

pub async fn signout(
    State(state): State<AppState>,
    Signed(session): Signed,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        state.store.end_session(&auth::token_hash(&secret)).await?;
    }
    let secure = state.ctx.config.server.secure_cookies;
    Ok((
        AppendHeaders([(SET_COOKIE, set_cookie(SESSION_COOKIE, "", 0, "Lax", secure))]),
        Redirect::to("/signin"),
    )
        .into_response())
}

// ---------------------------------------------------------------- problems

/// What a page shows of a problem.
#[derive(Debug, Clone, Serialize)]
struct Facts {
    slug: String,
    name: String,
    time_limit_s: f64,
    memory_mib: u64,
    interactive: bool,
    /// The plan's tests in order: name and group.
    tests: Vec<(String, Group)>,
}

impl Facts {
    fn time_limit(&self) -> String {
        format!("{} s", self.time_limit_s)
    }
}

fn facts_of(p: &problem::Problem) -> Facts {
    Facts {
        slug: p.slug.clone(),
        name: p.manifest.name.clone(),
        time_limit_s: p.manifest.time_limit,
        memory_mib: p.manifest.memory_limit,
        interactive: p.manifest.interactor.is_some(),
        tests: p
            .manifest
            .tests
            .iter()
            .map(|t| (t.name.clone(), t.group.clone()))
            .collect(),
    }
}

/// A problem's facts; `None` when no such package is installed (any
/// other failure is internal).
async fn load_facts(state: &AppState, slug: &str) -> Result<Option<Facts>, PageError> {
    let ctx = state.ctx.clone();
    let slug = slug.to_string();
    match tokio::task::spawn_blocking(move || ctx.catalog.load(&slug)).await? {
        Ok(p) => Ok(Some(facts_of(&p))),
        Err(problem::Error::Unknown { .. }) => Ok(None),
        Err(e) => Err(PageError::internal(&e)),
    }
}

/// Every problem that loads (a broken package is the setter's to fix with
/// `grundy verify`; the others are listed).
async fn all_facts(state: &AppState) -> Result<Vec<Facts>, PageError> {
    let ctx = state.ctx.clone();
    let hidden = state
        .store
        .hidden_problems(crate::site::contests::now_ms())
        .await?;
    let list = tokio::task::spawn_blocking(move || {
        let mut out = Vec::new();
        for slug in ctx
            .catalog
            .slugs()?
            .into_iter()
            .filter(|s| !hidden.contains(s))
        {
            match ctx.catalog.load(&slug) {
                Ok(p) => out.push(facts_of(&p)),
                Err(e) => tracing::warn!(slug, error = %e, "problem not listed"),
            }
        }
        Ok::<_, problem::Error>(out)
    })
    .await?;
    list.map_err(|e| PageError::internal(&e))
}

pub async fn problems(
    State(state): State<AppState>,
    Signed(session): Signed,
) -> Result<Response, PageError> {
    let list = all_facts(&state).await?;
    let mut best: BTreeMap<String, Verdict> = BTreeMap::new();
    for (problem, verdict) in state.store.verdicts_of(session.user.id).await? {
        if let Ok(v) = verdict.parse::<Verdict>() {
            let slot = best.entry(problem).or_insert(v);
            if v.severity() < slot.severity() {
                *slot = v;
            }
        }
    }
    let rows: Vec<Value> = list
        .iter()
        .map(|f| {
            let mine = best.get(&f.slug);
            context! {
                slug => f.slug, name => f.name, time_limit => f.time_limit(),
                memory_limit => f.memory_mib,
                best => mine.map(|v| v.as_str()),
                best_text => mine.map(|v| v.describe()),
            }
        })
        .collect();
    let html = render(
        "problems.html",
        context! { me => me(Some(&session)), section => "problems", problems => rows },
    )?;
    Ok(html.into_response())
}

pub async fn problem(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(slug): PagePath<String>,
) -> Result<Response, PageError> {
    problem_page(
        &state,
        &session,
        &slug,
        SubmitDraft::default(),
        StatusCode::OK,
    )
    .await
}

/// What the submit form shows again after a refusal.
#[derive(Default)]
struct SubmitDraft {
    language: Option<String>,
    source: String,
    error: Option<String>,
}

async fn problem_page(
    state: &AppState,
    session: &WebSession,
    slug: &str,
    draft: SubmitDraft,
    status: StatusCode,
) -> Result<Response, PageError> {
    let ctx = state.ctx.clone();
    let name = slug.to_string();
    let loaded = tokio::task::spawn_blocking(move || {
        let p = ctx.catalog.load(&name)?;
        let statement = markdown::render(&p.statement()?);
        Ok::<_, problem::Error>((facts_of(&p), statement))
    })
    .await?;
    let (facts, statement) = match loaded {
        Ok(found) => found,
        Err(problem::Error::Unknown { .. }) => return Err(PageError::not_found()),
        Err(e) => return Err(PageError::internal(&e)),
    };
    let languages: Vec<Value> = state
        .ctx
        .languages
        .iter()
        .map(|l| context! { id => l.id, name => l.config.name, extensions => l.config.extensions.join(",") })
        .collect();
    let accept: Vec<String> = state
        .ctx
        .languages
        .iter()
        .flat_map(|l| l.config.extensions.iter().map(|e| format!(".{e}")))
        .collect();
    let default_language = if state.ctx.languages.get("cpp").is_ok() {
        "cpp".to_string()
    } else {
        state
            .ctx
            .languages
            .iter()
            .next()
            .map(|l| l.id.clone())
            .unwrap_or_default()
    };
    let html = render(
        "problem.html",
        context! {
            me => me(Some(session)), section => "problems",
            slug => facts.slug, name => facts.name, time_limit => facts.time_limit(),
            memory_limit => facts.memory_mib, interactive => facts.interactive,
            statement => Value::from_safe_string(statement),
            languages, accept => accept.join(","),
            language => draft.language.unwrap_or(default_language),
            source => draft.source, error => draft.error,
        },
    )?;
    Ok((status, html).into_response())
}

#[derive(Deserialize)]
pub struct SubmitForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    language: String,
    #[serde(default)]
    source: String,
}

pub async fn submit(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(slug): PagePath<String>,
    Form(form): Form<SubmitForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    if state.is_stopping() {
        return Err(PageError::status(
            StatusCode::SERVICE_UNAVAILABLE,
            "Judge restarting",
            "The judge is shutting down and takes no submissions now; try again in a minute.",
        ));
    }
    // A browser sends a text box's lines ending CRLF; the file had LF.
    let source = form.source.replace("\r\n", "\n");
    let entry = Entry {
        user_id: session.user.id,
        problem: slug.clone(),
        language: form.language.clone(),
        source: source.clone(),
    };
    let refusal = match intake::submit(&state.ctx, &state.store, state.limits, entry).await {
        Ok(id) => {
            state.wake.notify_one();
            tracing::info!(id, user = %session.user.name, problem = %slug, "submission queued from the web");
            return Ok(Redirect::to(&format!("/submissions/{id}")).into_response());
        }
        Err(refusal) => refusal,
    };
    match refusal {
        Refusal::UnknownProblem(_) => Err(PageError::not_found()),
        Refusal::Internal => Err(PageError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong",
            "The judge failed to take the submission; an admin can find why in its log.",
        )),
        Refusal::PerMinute(_) | Refusal::TooManyWaiting(_) | Refusal::ShuttingDown => Err(
            PageError::status(refusal.status(), "Slow down", sentence(&refusal)),
        ),
        _ => {
            let draft = SubmitDraft {
                language: Some(form.language),
                source,
                error: Some(sentence(&refusal)),
            };
            problem_page(&state, &session, &slug, draft, refusal.status()).await
        }
    }
}

/// A refusal's message as a sentence.
fn sentence(refusal: &Refusal) -> String {
    let text = refusal.to_string();
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => format!("{}{}.", first.to_uppercase(), chars.as_str()),
        None => text,
    }
}

// ---------------------------------------------------------------- lists

#[derive(Deserialize)]
pub struct ListQuery {
    problem: Option<String>,
    verdict: Option<String>,
    before: Option<i64>,
}

/// `2026-01-02T03:04:05.678Z` as `2026-01-02 03:04:05`.
fn when(at: &str) -> String {
    at.get(..19).unwrap_or(at).replace('T', " ")
}

fn memory(kib: u64) -> String {
    if kib >= 1024 {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    } else {
        format!("{kib} KiB")
    }
}

fn row(s: &Summary) -> Value {
    context! {
        id => s.id, user => s.user, problem => s.problem, language => s.language,
        status => s.status, verdict => s.verdict, score => s.score, time_ms => s.time_ms,
        memory_kib => s.memory_kib, memory => s.memory_kib.map(|k| memory(k.max(0) as u64)),
        when => when(&s.submitted_at),
    }
}

pub async fn mine(
    State(state): State<AppState>,
    Signed(session): Signed,
    PageQuery(q): PageQuery<ListQuery>,
) -> Result<Response, PageError> {
    let problem = q.problem.filter(|p| !p.is_empty());
    let verdict = q.verdict.filter(|v| !v.is_empty());
    if let Some(v) = &verdict {
        if v.parse::<Verdict>().is_err() {
            return Err(PageError::bad_request(format!(
                "{v:?} is not a verdict; pick one from the list."
            )));
        }
    }
    let rows = state
        .store
        .list(&ListFilter {
            user: Some(&session.user.name),
            problem: problem.as_deref(),
            verdict: verdict.as_deref(),
            before: q.before,
            limit: PAGE_ROWS,
        })
        .await?;
    let slugs: Vec<String> = all_facts(&state)
        .await?
        .into_iter()
        .map(|f| f.slug)
        .collect();
    let next = older_link(
        "/submissions",
        &rows,
        problem.as_deref(),
        verdict.as_deref(),
    );
    let html = render(
        "list.html",
        context! {
            me => me(Some(&session)), section => "mine", heading => "My submissions",
            filters => true, action => "/submissions", show_user => false,
            problems => slugs, verdicts => Verdict::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>(),
            problem, verdict, rows => rows.iter().map(row).collect::<Vec<_>>(), next,
        },
    )?;
    Ok(html.into_response())
}

/// The link to the next page of a full list.
fn older_link(
    base: &str,
    rows: &[Summary],
    problem: Option<&str>,
    verdict: Option<&str>,
) -> Option<String> {
    if rows.len() < PAGE_ROWS as usize {
        return None;
    }
    let last = rows.last()?.id;
    let mut link = format!("{base}?before={last}");
    if let Some(p) = problem {
        link.push_str(&format!("&problem={}", super::render::percent_encode(p)));
    }
    if let Some(v) = verdict {
        link.push_str(&format!("&verdict={}", super::render::percent_encode(v)));
    }
    Some(link)
}

pub async fn recent(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    PageQuery(q): PageQuery<ListQuery>,
) -> Result<Response, PageError> {
    let rows = state
        .store
        .list(&ListFilter {
            before: q.before,
            limit: PAGE_ROWS,
            ..ListFilter::default()
        })
        .await?;
    let next = older_link("/recent", &rows, None, None);
    let html = render(
        "list.html",
        context! {
            me => me(viewer.as_ref()), section => "recent", heading => "Recent submissions",
            filters => false, show_user => true,
            rows => rows.iter().map(row).collect::<Vec<_>>(), next,
        },
    )?;
    Ok(html.into_response())
}

// ---------------------------------------------------------------- one submission

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

/// What the results section shows, by the API's rules of who sees what.
fn results(
    state: &AppState,
    sub: &Submission,
    facts: Option<&Facts>,
    viewer: &WebSession,
) -> Vec<(&'static str, Value)> {
    let role = Role::of(viewer.user.id, viewer.user.is_admin, sub.user_id);
    let report = sub.report.as_ref();
    let tests: &[TestReport] = report.map_or(sub.progress.as_slice(), |r| r.tests.as_slice());
    let labels: Vec<String> = tests
        .iter()
        .enumerate()
        .map(|(i, t)| policy::test_label(role, kind_of(&t.group), &t.name, i + 1))
        .collect();
    let shows_message =
        |t: &TestReport| policy::shows(role, Part::Test(kind_of(&t.group), TestField::Message));
    let mut rows: Vec<Value> = tests
        .iter()
        .zip(&labels)
        .map(|(t, label)| {
            context! {
                name => label, group => t.group.as_str(), verdict => t.verdict.as_str(),
                time_ms => t.time_ms, memory => memory(t.memory_kib),
                message => if shows_message(t) { t.message.as_str() } else { "" },
            }
        })
        .collect();
    let messages = tests
        .iter()
        .any(|t| shows_message(t) && !t.message.is_empty());
    let planned = facts.map_or(tests.len(), |f| f.tests.len().max(tests.len()));
    if sub.status != Status::Done {
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
            let points: Vec<chart::Point<'_>> = tests
                .iter()
                .zip(&labels)
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
        ("status", Value::from(status_word(sub.status))),
        ("verdict", Value::from(report.map(|r| r.verdict.as_str()))),
        (
            "verdict_text",
            Value::from(report.map(|r| r.verdict.describe())),
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
                    .filter(|_| policy::shows(role, Part::JudgeError)),
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
    let facts = load_facts(&state, &sub.problem).await?;
    let mut fields = results(&state, &sub, facts.as_ref(), &session);
    let sees_source = policy::shows(
        Role::of(session.user.id, session.user.is_admin, sub.user_id),
        Part::Source,
    );
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
) -> Result<Response, PageError> {
    let id = parse_id(&id)?;
    let wait = q.wait.filter(|w| w.is_finite() && *w >= 0.0).unwrap_or(0.0);
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait.min(MAX_WAIT));
    let mut changes = state.worker.changes.subscribe(id);
    let sub = loop {
        let sub = state
            .store
            .get_status(id)
            .await?
            .ok_or_else(PageError::not_found)?;
        let shown = sub
            .report
            .as_ref()
            .map_or(sub.progress.len(), |r| r.tests.len());
        let same = q.status.as_deref() == Some(status_word(sub.status)) && q.seen == Some(shown);
        if !same || tokio::time::Instant::now() >= deadline || state.is_stopping() {
            break sub;
        }
        let recheck = (tokio::time::Instant::now() + RECHECK).min(deadline);
        tokio::select! {
            _ = tokio::time::sleep_until(recheck) => {}
            _ = changes.changed() => {}
        }
    };
    let facts = load_facts(&state, &sub.problem).await?;
    let fields = results(&state, &sub, facts.as_ref(), &session);
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
