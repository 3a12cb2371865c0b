//! `/api/v1/contests/{contest}/clarifications`: a contest's questions and
//! answers, under the rules of its pages. A participant asks (about a
//! problem by its label, or in general) and reads its own questions with
//! their answers, and the announcements and answers to all; an admin reads
//! everything, answers a question to its asker or to all, and announces.
//! Others read the announcements and answers to all. A question answered to
//! all names its asker only to the asker and the admins.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::contests::find;
use super::{AppJson, AppPath, AppQuery, Caller, NoParams};
use crate::contest::time::format_time;
use crate::contest::Contest;
use crate::server::{ApiError, AppState};
use crate::site::contests::now_ms;
use crate::site::policy::Who;
use crate::store::{Clarification, User};

/// Clarification `q` as `reader` (an admin, or an account by id) reads it.
fn view(q: &Clarification, admin: bool, reader: i64) -> Value {
    let own = q.user_id == Some(reader);
    json!({
        "id": q.id,
        "problem": q.label,
        "question": q.question,
        "asker": if admin || own { q.user.clone() } else { None },
        "announcement": q.user_id.is_none(),
        "asked": format_time(q.asked_ms),
        "answer": q.answer,
        "to_all": q.to_all,
        "answered": q.answered_ms.map(format_time),
    })
}

/// The clarifications the caller may read, oldest first.
pub(super) async fn list(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
) -> Result<Response, ApiError> {
    let (c, _) = find(&state, &user, &name).await?;
    let asked = state
        .store
        .clarifications(c.id, (!user.is_admin).then_some(user.id))
        .await?;
    let list: Vec<Value> = asked
        .iter()
        .map(|q| view(q, user.is_admin, user.id))
        .collect();
    Ok(Json(json!({ "clarifications": list })).into_response())
}

/// A question or an announcement: its text, and the label of the problem
/// it is about (none: general).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AskBody {
    text: String,
    #[serde(default)]
    problem: Option<String>,
}

/// The text of a question or answer, trimmed, within its bound.
fn text_of(text: &str) -> Result<&str, ApiError> {
    let text = text.trim();
    let max = crate::bounds::Field::Clarification.max_chars();
    if text.is_empty() || text.chars().count() > max {
        return Err(ApiError::bad_request(
            "bad_text",
            format!("a question or answer is 1 to {max} characters"),
        ));
    }
    Ok(text)
}

/// A participant's question (`201`, the question as it reads it), or an
/// admin's announcement.
pub(super) async fn ask(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath(name): AppPath<String>,
    AppQuery(_): AppQuery<NoParams>,
    AppJson(body): AppJson<AskBody>,
) -> Result<Response, ApiError> {
    if state.is_stopping() {
        return Err(ApiError::unavailable());
    }
    let (c, who) = find(&state, &user, &name).await?;
    let text = text_of(&body.text)?;
    let label = body.problem.as_deref().filter(|l| !l.is_empty());
    if let Some(label) = label {
        if c.problem(label).is_none() {
            return Err(ApiError::bad_request(
                "unknown_problem",
                format!("contest {} has no problem {label:?}", c.slug),
            ));
        }
    }
    let now = now_ms();
    let id = match who {
        Who::Admin => {
            let id = state.store.ask(c.id, None, label, text, now).await?;
            state
                .store
                .answer(c.id, id, text, true, user.id, now)
                .await?;
            id
        }
        Who::Participant(_) => {
            let per_minute = state.ctx.config.server.questions_per_minute;
            let asked = state
                .store
                .ask_within(c.id, Some(user.id), label, text, now, per_minute)
                .await?;
            asked.ok_or_else(|| {
                ApiError::new(
                    StatusCode::TOO_MANY_REQUESTS,
                    "rate_limited",
                    format!(
                        "at most {} a minute; ask again in a moment",
                        crate::plural::count(per_minute, "question", "questions")
                    ),
                )
            })?
        }
        Who::Other => {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "forbidden",
                format!("you do not take part in contest {}", c.slug),
            ))
        }
    };
    state.worker.changes.changed_any();
    created(&state, &c, &user, id).await
}

/// `201` with clarification `id` of `c` as `user` reads it.
async fn created(
    state: &AppState,
    c: &Contest,
    user: &User,
    id: i64,
) -> Result<Response, ApiError> {
    let asked = state
        .store
        .clarifications(c.id, (!user.is_admin).then_some(user.id))
        .await?;
    let q = asked
        .iter()
        .find(|q| q.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no clarification {id}")))?;
    Ok((StatusCode::CREATED, Json(view(q, user.is_admin, user.id))).into_response())
}

/// An admin's answer: its text, and whether everyone reads it (else the
/// asker only).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AnswerBody {
    text: String,
    #[serde(default)]
    to_all: bool,
}

/// An admin answers question `id` (`200`, the question as it now reads).
pub(super) async fn answer(
    State(state): State<AppState>,
    Caller(user): Caller,
    AppPath((name, id)): AppPath<(String, i64)>,
    AppQuery(_): AppQuery<NoParams>,
    AppJson(body): AppJson<AnswerBody>,
) -> Result<Response, ApiError> {
    if !user.is_admin {
        return Err(ApiError::forbidden());
    }
    let (c, _) = find(&state, &user, &name).await?;
    let text = text_of(&body.text)?;
    let found = state
        .store
        .answer(c.id, id, text, body.to_all, user.id, now_ms())
        .await?;
    if !found {
        return Err(ApiError::not_found(format!(
            "no clarification {id} in {}",
            c.slug
        )));
    }
    state.worker.changes.changed_any();
    let asked = state.store.clarifications(c.id, None).await?;
    let q = asked
        .iter()
        .find(|q| q.id == id)
        .ok_or_else(|| ApiError::not_found(format!("no clarification {id}")))?;
    Ok(Json(view(q, true, user.id)).into_response())
}
