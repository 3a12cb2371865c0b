//! The contest pages: the list, a participant's contest page (problems by
//! label with statements, a countdown, their own submissions, the
//! clarifications), the scoreboard, and the live fragment both pages
//! long-poll to stay current without reloading.

use std::hash::{Hash, Hasher};
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::{context, Value};
use serde::Deserialize;

use super::markdown;
use super::render::{me, render, PageError, PagePath, PageQuery};
use super::session::{check_csrf, Signed, Viewer};
use crate::contest::scoreboard::Row;
use crate::contest::time::{format_human, format_time};
use crate::contest::{Contest, Phase, Scoring, Viewer as Who};
use crate::site::contests::{self, now_ms, viewer_of};
use crate::site::intake::Entry;
use crate::site::policy::{self, Object};
use crate::site::take::{take_try, Venue};
use crate::site::AppState;
use crate::store::{Clarification, ContestSubmission, WebSession};

/// The longest a live request waits for a change.
const MAX_WAIT: f64 = 25.0;
/// How often a waiting live request looks again (judges in other
/// processes, the clock passing the start, the freeze or the end).
const RECHECK: Duration = Duration::from_secs(2);

pub async fn list(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
) -> Result<Response, PageError> {
    let rows = contest_rows(&state.store.contests().await?);
    Ok(render(
        "contests.html",
        context! { me => me(viewer.as_ref()), section => "contests", contests => rows },
    )?
    .into_response())
}

/// The rows of a list of contests (the contestants' page and the admins'):
/// each one's name, start, phase now, scoring and number of problems.
pub(super) fn contest_rows(contests: &[Contest]) -> Vec<Value> {
    let now = now_ms();
    contests
        .iter()
        .map(|c| {
            context! {
                slug => c.slug, name => c.name, start => format_human(c.start_ms),
                phase => phase_word(c.phase(now)), scoring => c.scoring.as_str(),
                problems => c.problems.len(),
            }
        })
        .collect()
}

/// The contest named `slug`, or the page's 404.
pub(super) async fn find(state: &AppState, slug: &str) -> Result<Contest, PageError> {
    state
        .store
        .contest(slug)
        .await?
        .ok_or_else(PageError::not_found)
}

/// A participant's contest page (admins see it too).
pub async fn page(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(slug): PagePath<String>,
) -> Result<Response, PageError> {
    let c = find(&state, &slug).await?;
    contest_page(&state, &session, &c, None, StatusCode::OK).await
}

async fn contest_page(
    state: &AppState,
    session: &WebSession,
    c: &Contest,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let now = now_ms();
    let who = gate(state, c, Some(session), Page::Contest).await?;
    let takes_part = matches!(who, policy::Who::Participant(_));
    // Before the start the problems are the admins' only.
    let problems = if contests::may(c, who, Object::Statements) {
        statements(state, c).await?
    } else {
        Vec::new()
    };
    let languages = crate::site::offered::offered(state).await?;
    let live = live_parts(state, c, Some(session), Page::Contest).await?;
    let html = render(
        "contest.html",
        context! {
            me => me(Some(session)), section => "contests",
            contest => summary(c, now), problems, languages, error,
            can_submit => takes_part && c.phase(now) == Phase::Running,
            live => Value::from_safe_string(live.0), seen => live.1,
        },
    )?;
    Ok((status, html).into_response())
}

/// Each problem's label, name and statement, in order.
async fn statements(state: &AppState, c: &Contest) -> Result<Vec<Value>, PageError> {
    let ctx = state.ctx.clone();
    let problems = c.problems.clone();
    let loaded = tokio::task::spawn_blocking(move || {
        problems
            .iter()
            .map(|p| {
                let problem = ctx.catalog.load(&p.slug)?;
                let statement = markdown::render(&problem.statement()?);
                Ok(context! {
                    label => p.label, slug => p.slug, name => problem.manifest.name,
                    rgb => p.rgb,
                    statement => Value::from_safe_string(statement),
                })
            })
            .collect::<Result<Vec<Value>, crate::problem::Error>>()
    })
    .await?;
    loaded.map_err(|e| PageError::internal(&e))
}

#[derive(Deserialize)]
pub struct SubmitForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    label: String,
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
    let c = find(&state, &slug).await?;
    let entry = Entry {
        user_id: session.user.id,
        problem: String::new(),
        language: form.language,
        source: form.source.replace("\r\n", "\n"),
    };
    let place = Venue::Contest {
        contest: &c,
        label: &form.label,
    };
    match take_try(&state, &session.user.name, place, entry).await {
        Ok(_) => Ok(Redirect::to(&format!("/contests/{}#mine", c.slug)).into_response()),
        Err(refusal) => {
            let status = refusal.status();
            contest_page(&state, &session, &c, Some(refusal.to_string()), status).await
        }
    }
}

#[derive(Deserialize)]
pub struct AskForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    label: String,
    #[serde(default)]
    question: String,
}

/// The longest question or answer taken ([`crate::bounds`]).
pub const MAX_TEXT: usize = crate::bounds::Field::Clarification.max_chars();

pub async fn ask(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(slug): PagePath<String>,
    Form(form): Form<AskForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    let question = form.question.trim();
    let label = Some(form.label.as_str()).filter(|l| !l.is_empty());
    let error = if !state.store.takes_part(&c, session.user.id).await? {
        Some(format!("You do not take part in {}.", c.name))
    } else if question.is_empty() || question.chars().count() > MAX_TEXT {
        Some(format!("A question is 1 to {MAX_TEXT} characters."))
    } else if label.is_some_and(|l| c.problem(l).is_none()) {
        Some(format!("{} has no problem {:?}.", c.name, form.label))
    } else {
        None
    };
    if let Some(error) = error {
        return contest_page(&state, &session, &c, Some(error), StatusCode::BAD_REQUEST).await;
    }
    let per_minute = state.ctx.config.server.questions_per_minute;
    let asked = match state
        .store
        .ask_within(
            c.id,
            Some(session.user.id),
            label,
            question,
            now_ms(),
            per_minute,
        )
        .await
    {
        Err(e @ crate::store::Error::Refused(..)) => {
            let error = e.to_string();
            return contest_page(&state, &session, &c, Some(error), StatusCode::CONFLICT).await;
        }
        other => other?,
    };
    if asked.is_none() {
        let error = format!("At most {per_minute} questions a minute; ask again in a moment.");
        return contest_page(
            &state,
            &session,
            &c,
            Some(error),
            StatusCode::TOO_MANY_REQUESTS,
        )
        .await;
    }
    state.worker.changes.changed_any();
    Ok(Redirect::to(&format!("/contests/{}#clarifications", c.slug)).into_response())
}

pub async fn scoreboard(
    State(state): State<AppState>,
    Viewer(viewer): Viewer,
    PagePath(slug): PagePath<String>,
) -> Result<Response, PageError> {
    let c = find(&state, &slug).await?;
    gate(&state, &c, viewer.as_ref(), Page::Board).await?;
    let live = live_parts(&state, &c, viewer.as_ref(), Page::Board).await?;
    Ok(render(
        "scoreboard.html",
        context! {
            me => me(viewer.as_ref()), section => "contests", contest => summary(&c, now_ms()),
            live => Value::from_safe_string(live.0), seen => live.1,
        },
    )?
    .into_response())
}

/// The one rule of each of a contest's pages, asked by the page and by its
/// live part at every round of a held request (the viewer and the contest
/// read again each time): the contest page is its participants' and the
/// admins' (anyone else signed in gets 403, a visitor is sent to sign in);
/// the scoreboard is public unless an admin closed it, then participants'
/// and admins' ([`Object::Board`]; 403, or 404 to a visitor). Answers who
/// the viewer is to the contest.
async fn gate(
    state: &AppState,
    c: &Contest,
    viewer: Option<&WebSession>,
    page: Page,
) -> Result<policy::Who, PageError> {
    let who = contests::who(&state.store, c, viewer.map(|s| &s.user)).await?;
    match page {
        Page::Contest => match viewer {
            None => Err(PageError::SignIn(format!("/contests/{}", c.slug))),
            Some(_) if who == policy::Who::Other => Err(PageError::status(
                StatusCode::FORBIDDEN,
                "Not a participant",
                format!("You do not take part in {}.", c.name),
            )),
            Some(_) => Ok(who),
        },
        Page::Board if contests::may(c, who, Object::Board) => Ok(who),
        Page::Board => match viewer {
            Some(_) => Err(PageError::forbidden()),
            None => Err(PageError::not_found()),
        },
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Page {
    Contest,
    Board,
}

#[derive(Deserialize)]
pub struct LiveQuery {
    page: Option<String>,
    seen: Option<String>,
    wait: Option<f64>,
}

/// The live part of the contest page or the scoreboard, returned once it
/// differs from what the page shows (`seen`) or after `wait` seconds. Each
/// round asks the page's own [`gate`] with the viewer and the contest as
/// they are then: whoever the page refuses, the live part refuses alike,
/// and a held request ends once the page would refuse (signed out,
/// disabled, no longer a participant, the board closed).
pub async fn live(
    State(state): State<AppState>,
    Viewer(mut viewer): Viewer,
    PagePath(slug): PagePath<String>,
    PageQuery(q): PageQuery<LiveQuery>,
    headers: axum::http::HeaderMap,
) -> Result<Response, PageError> {
    let page = match q.page.as_deref() {
        Some("contest") => Page::Contest,
        _ => Page::Board,
    };
    let signed_in = viewer.is_some();
    let wait = q.wait.filter(|w| w.is_finite() && *w >= 0.0).unwrap_or(0.0);
    let deadline = tokio::time::Instant::now() + Duration::from_secs_f64(wait.min(MAX_WAIT));
    let mut first = true;
    loop {
        let changed = state.worker.changes.any.notified();
        if !std::mem::take(&mut first) {
            viewer = super::session::current(&state, &headers).await?;
            // Signed out or disabled meanwhile: the wait ends.
            if signed_in && viewer.is_none() {
                return Err(PageError::SignIn(format!("/contests/{slug}")));
            }
        }
        let c = find(&state, &slug).await?;
        gate(&state, &c, viewer.as_ref(), page).await?;
        let (html, seen) = live_parts(&state, &c, viewer.as_ref(), page).await?;
        let now = tokio::time::Instant::now();
        if q.seen.as_deref() != Some(seen.as_str()) || now >= deadline || state.is_stopping() {
            return Ok(Html(html).into_response());
        }
        let _ = state
            .polls
            .wait(tokio::time::timeout(RECHECK.min(deadline - now), changed))
            .await;
    }
}

/// The live fragment's HTML and its fingerprint.
async fn live_parts(
    state: &AppState,
    c: &Contest,
    viewer: Option<&WebSession>,
    page: Page,
) -> Result<(String, String), PageError> {
    let who = viewer_of(viewer.map(|s| &s.user));
    let shown = contests::board(state, c, who).await?;
    // The board as HTML with its digest: made once per board, which every
    // admin, or every reader the freeze hides the same from, shares.
    let made;
    let (board, board_seen) = match shown.page.get() {
        Some(kept) => kept,
        None => {
            let fresh = board_html(state, c, &shown)?;
            shown.page.get_or_init(|| fresh)
        }
    };
    // A team's own row, marked on the board every reader of its kind shares.
    let (board, board_seen) = match who {
        Who::Team(id) => {
            let row = format!("<tr data-team-id=\"{id}\" ");
            made = board.replacen(
                &row,
                &format!("<tr class=\"own\" data-team-id=\"{id}\" "),
                1,
            );
            let seen = digest(&made);
            (&made, seen)
        }
        _ => (board, board_seen.clone()),
    };
    let (body, seen) = match (page, viewer) {
        (Page::Contest, Some(s)) => {
            let mine = state
                .store
                .contest_submissions(c.id, Some(s.user.id))
                .await?;
            let asked = state
                .store
                .clarifications(c.id, (!s.user.is_admin).then_some(s.user.id))
                .await?;
            let rest = render(
                "contest_live.html",
                context! {
                    scoring => c.scoring.as_str(),
                    mine => submissions(c, &mine), clarifications => clarification_rows(&asked),
                },
            )?
            .0;
            let body = format!("{board}{rest}");
            let seen = digest(&body);
            (body, seen)
        }
        _ => (board.clone(), board_seen),
    };
    let html = format!(
        "<section id=\"live\" data-live=\"/contests/{}/live\" data-page=\"{}\" data-seen=\"{seen}\">{body}</section>",
        c.slug,
        if page == Page::Contest { "contest" } else { "board" }
    );
    Ok((html, seen))
}

/// The digest a live part is known by (`seen`).
fn digest(body: &str) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut hasher);
    format!("{:016x}", hasher.finish())
}

/// The board of a contest page as HTML, with its digest; each row known
/// by its team's account (`data-team-id`), for a team's own to be marked.
/// A row is made again only when it changed ([`Boards::rows_made`]).
///
/// [`Boards::rows_made`]: crate::site::boards::Boards::rows_made
fn board_html(
    state: &AppState,
    c: &Contest,
    shown: &crate::site::boards::Shown,
) -> Result<(String, String), PageError> {
    let board = &shown.board;
    let scoring = c.scoring.as_str();
    let rows = state.boards.rows_made(c, shown, |r, organization| {
        Ok::<_, PageError>(
            render(
                "contest_board_row.html",
                context! { r => board_row(c, r, organization), scoring },
            )?
            .0,
        )
    })?;
    let html = render(
        "contest_board.html",
        context! {
            rows => rows.iter().map(|r| Value::from_safe_string(r.to_string())).collect::<Vec<_>>(),
            frozen => board.frozen, scoring,
            problems => c.problems.iter().map(|p| context! { label => p.label, rgb => p.rgb }).collect::<Vec<_>>(),
        },
    )?
    .0;
    let seen = digest(&html);
    Ok((html, seen))
}

/// One row of the board, its team with its organization's name where it
/// has one.
fn board_row(c: &Contest, r: &Row, organization: Option<&String>) -> Value {
    let cells: Vec<Value> = r
        .cells
        .iter()
        .map(|cell| {
            let (class, text) = match c.scoring {
                Scoring::Icpc if cell.solved => (
                    if cell.first { "first" } else { "solved" },
                    format!("{}/{}", cell.tries, cell.minute.unwrap_or(0)),
                ),
                Scoring::Ioi if cell.score.is_some() => (
                    if cell.first {
                        "first"
                    } else if cell.solved {
                        "solved"
                    } else {
                        "partial"
                    },
                    cell.score.unwrap_or(0).to_string(),
                ),
                _ if cell.pending > 0 => (
                    "pending",
                    if cell.tries > 0 {
                        cell.tries.to_string()
                    } else {
                        String::new()
                    },
                ),
                Scoring::Icpc if cell.tries > 0 => ("rejected", cell.tries.to_string()),
                _ => ("", String::new()),
            };
            let pending = if cell.pending > 0 {
                format!("{}?", cell.pending)
            } else {
                String::new()
            };
            context! { label => cell.label, class, text, pending }
        })
        .collect();
    context! {
        rank => r.rank, team => r.team.name, team_id => r.team.id, solved => r.solved,
        organization, penalty => r.penalty, score => r.score, cells,
    }
}

fn submissions(c: &Contest, mine: &[ContestSubmission]) -> Vec<Value> {
    mine.iter()
        .rev()
        .map(|s| {
            context! {
                id => s.id, label => c.label_of(&s.problem).unwrap_or("?"),
                language => s.language, at => s.submitted_at.get(11..19).unwrap_or(""),
                status => s.status, verdict => s.verdict, score => s.score,
            }
        })
        .collect()
}

fn clarification_rows(list: &[Clarification]) -> Vec<Value> {
    list.iter()
        .rev()
        .map(|q| {
            context! {
                id => q.id, user => q.user, label => q.label, question => q.question,
                asked => format_human(q.asked_ms), answer => q.answer, to_all => q.to_all,
            }
        })
        .collect()
}

/// What every contest page shows of the contest itself.
pub fn summary(c: &Contest, now: i64) -> Value {
    context! {
        slug => c.slug, name => c.name, scoring => c.scoring.as_str(),
        start => format_human(c.start_ms), end => format_human(c.end_ms()),
        start_iso => format_time(c.start_ms), end_iso => format_time(c.end_ms()),
        start_ms => c.start_ms, end_ms => c.end_ms(), now_ms => now,
        phase => phase_word(c.phase(now)), frozen => c.is_frozen(now),
        freeze => c.freeze_ms().map(format_human), board_public => c.board_public,
        penalty => c.penalty_min, open_to_all => c.open_to_all,
        problems => c.problems.iter().map(|p| context! { label => p.label, slug => p.slug }).collect::<Vec<_>>(),
    }
}

pub fn phase_word(phase: Phase) -> &'static str {
    match phase {
        Phase::Before => "upcoming",
        Phase::Running => "running",
        Phase::Ended => "ended",
    }
}

/// A problem page, unless a contest not yet started holds the problem
/// (then it does not exist for anyone but admins).
pub async fn problem(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(slug): PagePath<String>,
) -> Result<Response, PageError> {
    if !session.user.is_admin && contests::hidden(&state.store, &slug).await? {
        return Err(PageError::not_found());
    }
    super::pages::problem(State(state), Signed(session), PagePath(slug)).await
}
