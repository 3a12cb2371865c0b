//! The admin's contest pages: the list with a form to create one, and a
//! contest's page to edit it (everything before the start; its name, end,
//! freeze and participants while it runs) or delete it, freeze and reveal the
//! scoreboard, open or close it to the public, answer clarifications (to
//! the asker or to all), announce, rejudge the contest, set its medals
//! (after the end too, until the results are final), and change its
//! awards' citations or add awards of the admins' own.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::{context, Value};
use serde::Deserialize;

use super::contest::{find, summary, MAX_TEXT};
use super::render::{me, render, PageError, PagePath};
use super::session::{check_csrf, Admin};
use crate::contest::awards::AwardEdit;
use crate::contest::time::format_human;
use crate::contest::{Contest, Phase};
use crate::site::contest_edit::{self, Refused};
use crate::site::contests::{check_settings, now_ms, Settings};
use crate::site::AppState;
use crate::store::{self, AwardChange, Queue as _, WebSession};

pub async fn list(
    State(state): State<AppState>,
    Admin(session): Admin,
) -> Result<Response, PageError> {
    list_page(&state, &session, &Settings::default(), None, StatusCode::OK).await
}

/// The contests' list; `import_error`: why a contest was not imported
/// from another system (a line per item).
pub(super) async fn list_page(
    state: &AppState,
    session: &WebSession,
    draft: &Settings,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    list_with(state, session, draft, error, None, status).await
}

pub(super) async fn list_with(
    state: &AppState,
    session: &WebSession,
    draft: &Settings,
    error: Option<String>,
    import_error: Option<Vec<String>>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let rows = super::contest::contest_rows(&state.store.contests().await?);
    let html = render(
        "admin_contests.html",
        context! {
            me => me(Some(session)), section => "admin", contests => rows,
            draft => Value::from_serialize(draft_value(draft)), error, import_error,
        },
    )?;
    Ok((status, html).into_response())
}

fn draft_value(s: &Settings) -> serde_json::Value {
    serde_json::json!({
        "slug": s.slug, "name": s.name, "start": s.start, "duration": s.duration,
        "freeze": s.freeze, "penalty": s.penalty, "scoring": s.scoring,
        "problems": s.problems, "participants": s.participants, "colors": s.colors,
        "medals": s.medals,
    })
}

#[derive(Deserialize)]
pub struct SettingsForm {
    #[serde(default)]
    csrf: String,
    #[serde(flatten)]
    settings: Settings,
}

pub async fn create(
    State(state): State<AppState>,
    Admin(session): Admin,
    Form(form): Form<SettingsForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let now = now_ms();
    let new = match check_settings(&state.ctx, &form.settings, now) {
        Ok(new) => new,
        Err(e) => {
            return list_page(
                &state,
                &session,
                &form.settings,
                Some(e),
                StatusCode::BAD_REQUEST,
            )
            .await
        }
    };
    match state.store.create_contest(&new, now).await {
        Ok(_) => {}
        Err(e @ (store::Error::ContestExists(_) | store::Error::NoUser(_))) => {
            return list_page(
                &state,
                &session,
                &form.settings,
                Some(e.to_string()),
                StatusCode::BAD_REQUEST,
            )
            .await
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(admin = %session.user.name, contest = %new.slug, "contest created");
    Ok(Redirect::to(&format!("/admin/contests/{}", new.slug)).into_response())
}

pub async fn page(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
) -> Result<Response, PageError> {
    let c = find(&state, &slug).await?;
    contest_page(&state, &session, &c, None, None, StatusCode::OK).await
}

async fn contest_page(
    state: &AppState,
    session: &WebSession,
    c: &Contest,
    draft: Option<&Settings>,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let now = now_ms();
    let settings = match draft {
        Some(d) => d.clone(),
        None => contest_edit::settings_of(&state.store, c).await?,
    };
    let questions: Vec<Value> = state
        .store
        .clarifications(c.id, None)
        .await?
        .iter()
        .rev()
        .map(|q| {
            context! {
                id => q.id, user => q.user, label => q.label, question => q.question,
                asked => format_human(q.asked_ms), answer => q.answer, to_all => q.to_all,
            }
        })
        .collect();
    // Each try's team by name (a hidden one too: this is the admins' page).
    let names: std::collections::HashMap<i64, String> = state
        .store
        .contest_teams(c)
        .await?
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect();
    let submissions: Vec<Value> = state
        .store
        .contest_submissions(c.id, None)
        .await?
        .iter()
        .rev()
        .map(|s| {
            let team = names.get(&s.user_id).cloned().unwrap_or_else(|| format!("#{}", s.user_id));
            context! {
                id => s.id, user_id => s.user_id, team, label => c.label_of(&s.problem).unwrap_or("?"),
                at => s.submitted_at, status => s.status, verdict => s.verdict,
            }
        })
        .collect();
    // What the finalize and the package wait for, and why (in the admins'
    // words); and the tries withdrawn, with the reason.
    let judges = crate::site::waiting::Judges::read(&state.store).await?;
    let unsettled: Vec<Value> = state
        .store
        .unsettled_tries(c.id)
        .await?
        .iter()
        .map(|t| {
            let why = match t.status.as_str() {
                "queued" => {
                    judges.reason(&t.problem, &t.language, crate::site::policy::Role::Admin)
                }
                _ => t.state().to_string(),
            };
            context! {
                id => t.id, label => c.label_of(&t.problem).unwrap_or("?"),
                language => t.language, why,
            }
        })
        .collect();
    let withdrawn: Vec<Value> = state
        .store
        .withdrawn_tries(c.id)
        .await?
        .iter()
        .map(|w| {
            let team = w
                .user_id
                .and_then(|u| names.get(&u).cloned())
                .unwrap_or_default();
            context! {
                id => w.id, team, label => c.label_of(&w.problem).unwrap_or("?"),
                language => w.language, reason => w.reason,
            }
        })
        .collect();
    let shown = crate::site::contests::board(state, c, crate::contest::Viewer::Admin).await?;
    let board = &shown.board;
    let teams: std::collections::BTreeMap<String, String> = board
        .rows
        .iter()
        .map(|r| (r.team.team_id.clone(), r.team.name.clone()))
        .collect();
    let edits = state.store.contest_award_edits(c.id).await?;
    let awards: Vec<Value> = state
        .store
        .contest_awards(c.id, crate::store::Reader::Admin)
        .await?
        .iter()
        .map(|a| {
            let names: Vec<&str> = a
                .team_ids
                .iter()
                .map(|t| teams.get(t).map_or(t.as_str(), String::as_str))
                .collect();
            let own = edits.iter().any(|e| e.id == a.id && e.team_ids.is_some());
            let edited = edits.iter().any(|e| e.id == a.id);
            context! { id => a.id, citation => a.citation, teams => names.join(", "), own, edited }
        })
        .collect();
    let html = render(
        "admin_contest.html",
        context! {
            me => me(Some(session)), section => "admin", contest => summary(c, now),
            awards, medals => c.medals.to_string(),
            medals_open => c.phase(now) == Phase::Ended && c.finalized_ms.is_none(),
            awards_open => c.end_of_updates_ms().is_none(),
            editable => c.phase(now) != Phase::Ended,
            started => c.phase(now) != Phase::Before,
            draft => Value::from_serialize(draft_value(&settings)), error,
            questions, submissions, unsettled, withdrawn,
            shadowed => state.store.shadow(c.id).await?.is_some(),
            thawed => c.thawed_ms.map(format_human),
            finalized => c.finalized_ms.map(format_human),
            // Only what the contest's state allows now is offered.
            can_freeze => c.may_freeze(now).is_ok(),
            can_thaw => c.may_thaw(now).is_ok(),
            can_finalize => c.may_finalize(now).is_ok(),
            can_rejudge => c.finalized_ms.is_none(),
        },
    )?;
    Ok((status, html).into_response())
}

/// Edits a contest: anything before the start; its name, end, freeze and
/// participants while it runs ([`contest_edit`]).
pub async fn edit(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(mut form): Form<SettingsForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    form.settings.slug = c.slug.clone();
    match contest_edit::edit(&state.ctx, &state.store, &c, &form.settings, now_ms()).await {
        Ok(_) => {
            state.worker.changes.changed_any();
            tracing::info!(admin = %session.user.name, contest = %c.slug, "contest edited");
            Ok(Redirect::to(&format!("/admin/contests/{}", c.slug)).into_response())
        }
        Err(Refused::Store(e)) => Err(e.into()),
        Err(e) => {
            let status = match c.phase(now_ms()) {
                Phase::Before => StatusCode::BAD_REQUEST,
                _ => StatusCode::CONFLICT,
            };
            contest_page(
                &state,
                &session,
                &c,
                Some(&form.settings),
                Some(e.to_string()),
                status,
            )
            .await
        }
    }
}

/// Deletes a contest that holds no submissions.
pub async fn delete(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<ActionForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    match contest_edit::delete(&state.store, &c).await {
        Ok(()) => {
            state.worker.changes.changed_any();
            tracing::info!(admin = %session.user.name, contest = %c.slug, "contest deleted");
            Ok(Redirect::to("/admin/contests").into_response())
        }
        Err(Refused::Store(e)) => Err(e.into()),
        Err(e) => {
            contest_page(
                &state,
                &session,
                &c,
                None,
                Some(e.to_string()),
                StatusCode::CONFLICT,
            )
            .await
        }
    }
}

#[derive(Deserialize)]
pub struct ActionForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
    /// The try to withdraw (`withdraw`).
    #[serde(default)]
    submission: Option<i64>,
    /// Why it is withdrawn (`withdraw`), for its team to read.
    #[serde(default)]
    reason: String,
}

/// Freeze, reveal, finalize, open or close the board, rejudge the
/// contest, or withdraw a try without a result; an action the contest's
/// state does not allow is refused with why.
pub async fn act(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<ActionForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    let now = now_ms();
    let done = match form.action.as_str() {
        "freeze" => state.store.set_contest_frozen(c.id, Some(now)).await,
        "unfreeze" => state.store.set_contest_thawed(c.id, Some(now)).await,
        "finalize" => state.store.finalize_contest(c.id).await.map(|_| ()),
        "withdraw" => {
            let id = form.submission.unwrap_or_default();
            state.store.withdraw_try(c.id, id, &form.reason).await
        }
        _ => Ok(()),
    };
    match done {
        Err(e @ (store::Error::Refused(..) | store::Error::TooLong(_))) => {
            return Err(PageError::bad_request(e.to_string()))
        }
        other => other?,
    }
    match form.action.as_str() {
        "freeze" | "unfreeze" | "finalize" | "withdraw" => {}
        "rejudge" if c.finalized_ms.is_some() => {
            return Err(PageError::bad_request(format!(
                "The results of {} are final: a rejudge would change them.",
                c.slug
            )))
        }
        "open-board" => state.store.set_board_public(c.id, true).await?,
        "close-board" => state.store.set_board_public(c.id, false).await?,
        "rejudge" => {
            for s in state.store.contest_submissions(c.id, None).await? {
                state.store.rejudge(s.id).await?;
            }
            state.wake.notify_waiters();
            state.wake.notify_one();
        }
        other => {
            return Err(PageError::bad_request(format!(
                "{other:?} is not an action of this page."
            )))
        }
    }
    state.worker.changes.changed_any();
    tracing::info!(admin = %session.user.name, contest = %c.slug, action = %form.action, "contest action");
    Ok(Redirect::to(&format!("/admin/contests/{}", c.slug)).into_response())
}

#[derive(Deserialize)]
pub struct AnswerForm {
    #[serde(default)]
    csrf: String,
    /// The question answered; none for an announcement.
    id: Option<i64>,
    #[serde(default)]
    answer: String,
    /// `all` to show the answer to every participant.
    #[serde(default)]
    to: String,
    #[serde(default)]
    label: String,
}

pub async fn answer(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<AnswerForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    let text = form.answer.trim();
    if text.is_empty() || text.chars().count() > MAX_TEXT {
        return contest_page(
            &state,
            &session,
            &c,
            None,
            Some(format!("An answer is 1 to {MAX_TEXT} characters.")),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
    let now = now_ms();
    let refused = |e: store::Error| match e {
        e @ store::Error::Refused(..) => PageError::bad_request(e.to_string()),
        e => e.into(),
    };
    match form.id {
        Some(id) => {
            let to_all = form.to == "all";
            let found = state
                .store
                .answer(c.id, id, text, to_all, session.user.id, now)
                .await
                .map_err(refused)?;
            if !found {
                return Err(PageError::not_found());
            }
        }
        None => {
            // An announcement: a question with no asker, answered to all.
            let label = Some(form.label.as_str()).filter(|l| c.problem(l).is_some());
            let id = state
                .store
                .ask(c.id, None, label, text, now)
                .await
                .map_err(refused)?;
            state
                .store
                .answer(c.id, id, text, true, session.user.id, now)
                .await
                .map_err(refused)?;
        }
    }
    state.worker.changes.changed_any();
    Ok(Redirect::to(&format!("/admin/contests/{}#clarifications", c.slug)).into_response())
}

#[derive(Deserialize)]
pub struct AwardForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    award: String,
    #[serde(default)]
    citation: String,
    /// Account names, comma-separated: an award of the admin's own.
    #[serde(default)]
    teams: String,
    /// `remove` to undo.
    #[serde(default)]
    action: String,
}

/// Changes an award's citation, adds an award of the admin's own (with
/// teams), or undoes either; what is wrong is shown on the page, in one
/// line.
pub async fn award(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<AwardForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    let id = form.award.trim().to_string();
    let change = if form.action == "remove" {
        Ok(AwardChange::Remove(id))
    } else {
        award_edit(&state, &c, id, &form).await?
    };
    let done = match change {
        Ok(change) => match state.store.change_contest_award(c.id, &change).await {
            Ok(_) => Ok(()),
            Err(e @ store::Error::Refused(..)) => Err(e.to_string()),
            Err(e) => return Err(e.into()),
        },
        Err(why) => Err(why),
    };
    if let Err(why) = done {
        return contest_page(
            &state,
            &session,
            &c,
            None,
            Some(why),
            StatusCode::BAD_REQUEST,
        )
        .await;
    }
    state.worker.changes.changed_any();
    tracing::info!(admin = %session.user.name, contest = %c.slug, award = %form.award, "award changed");
    Ok(Redirect::to(&format!("/admin/contests/{}#awards", c.slug)).into_response())
}

/// The form's award as a change, its teams named by account: `Err` names
/// a team the contest does not have.
async fn award_edit(
    state: &AppState,
    c: &Contest,
    id: String,
    form: &AwardForm,
) -> Result<Result<AwardChange, String>, PageError> {
    let names: Vec<&str> = form
        .teams
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    let team_ids = if names.is_empty() {
        None
    } else {
        let teams = state.store.contest_teams(c).await?;
        let mut ids = Vec::new();
        for name in names {
            match teams.iter().find(|t| t.name == name) {
                Some(t) => ids.push(t.team_id.clone()),
                None => return Ok(Err(format!("no team {name:?} in contest {}", c.slug))),
            }
        }
        Some(ids)
    };
    Ok(Ok(AwardChange::Set(AwardEdit {
        id,
        citation: form.citation.clone(),
        team_ids,
    })))
}
