//! The contestant's pages: problems, submitting and the submission lists
//! (signing in is `signin.rs`, one submission's page `submission.rs`).

use std::collections::BTreeMap;

use axum::extract::State;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::{context, Value};
use serde::{Deserialize, Serialize};

use super::markdown;
use super::render::{me, render, PageError, PagePath, PageQuery};
use super::session::{check_csrf, Signed, Viewer};
use crate::problem::{self, Group};
use crate::site::contests::{self, viewer_of};
use crate::site::intake::{Entry, Refusal};
use crate::site::take::{take_try, Venue};
use crate::site::AppState;
use crate::store::{ListFilter, Summary, WebSession};
use crate::verdict::Verdict;

/// Lines of a submission list page.
const PAGE_ROWS: u32 = 50;

// ---------------------------------------------------------------- problems

/// What a page shows of a problem.
#[derive(Debug, Clone, Serialize)]
pub(super) struct Facts {
    pub(super) slug: String,
    pub(super) name: String,
    pub(super) time_limit_s: f64,
    pub(super) memory_mib: u64,
    pub(super) interactive: bool,
    /// The plan's tests in order: name and group.
    pub(super) tests: Vec<(String, Group)>,
}

impl Facts {
    pub(super) fn time_limit(&self) -> String {
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
pub(super) async fn load_facts(state: &AppState, slug: &str) -> Result<Option<Facts>, PageError> {
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
    let hidden = contests::hidden_all(&state.store).await?;
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
    let offered = crate::site::offered::offered(state).await?;
    let languages: Vec<Value> = offered
        .iter()
        .map(|l| context! { id => l.id, name => l.name, extensions => l.extensions.join(",") })
        .collect();
    let accept: Vec<String> = offered
        .iter()
        .flat_map(|l| l.extensions.iter().map(|e| format!(".{e}")))
        .collect();
    let default_language = match offered.iter().find(|l| l.id == "cpp") {
        Some(l) => l.id.clone(),
        None => offered.first().map(|l| l.id.clone()).unwrap_or_default(),
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
    // A browser sends a text box's lines ending CRLF; the file had LF.
    let source = form.source.replace("\r\n", "\n");
    let entry = Entry {
        user_id: session.user.id,
        problem: slug.clone(),
        language: form.language.clone(),
        source: source.clone(),
    };
    let refusal = match take_try(&state, &session.user.name, Venue::Practice, entry).await {
        Ok(id) => return Ok(Redirect::to(&format!("/submissions/{id}")).into_response()),
        Err(refusal) => refusal,
    };
    match refusal {
        Refusal::UnknownProblem(_) | Refusal::InContest(_) => Err(PageError::not_found()),
        Refusal::Internal => Err(PageError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Something went wrong",
            "The judge failed to take the submission; an admin can find why in its log.",
        )),
        Refusal::ShuttingDown => Err(PageError::status(
            refusal.status(),
            "Judge restarting",
            "The judge is shutting down and takes no submissions now; try again in a minute.",
        )),
        Refusal::PerMinute(_) | Refusal::TooManyWaiting(_) => Err(PageError::status(
            refusal.status(),
            "Slow down",
            sentence(&refusal),
        )),
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
pub(super) fn when(at: &str) -> String {
    at.get(..19).unwrap_or(at).replace('T', " ")
}

pub(super) fn memory(kib: u64) -> String {
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
    let filter = ListFilter {
        user: Some(&session.user.name),
        problem: problem.as_deref(),
        verdict: verdict.as_deref(),
        before: q.before,
        limit: PAGE_ROWS,
        ..ListFilter::default()
    };
    let rows = contests::list(&state.store, viewer_of(Some(&session.user)), &filter).await?;
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
    let filter = ListFilter {
        before: q.before,
        limit: PAGE_ROWS,
        ..ListFilter::default()
    };
    let seer = viewer_of(viewer.as_ref().map(|s| &s.user));
    let rows = contests::list(&state.store, seer, &filter).await?;
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
