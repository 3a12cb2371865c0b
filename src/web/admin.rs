//! The admin's pages: users (add one or many, disable and enable, reset a
//! password, grant the role, list and revoke their API tokens), rejudging, and the queue with every worker process, its
//! sandbox tiers and its calibrated speed.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::{context, Value};
use serde::Deserialize;

use super::pages::when;
use super::render::{me, percent_encode, render, PageError, PagePath, PageQuery};
use super::session::{check_csrf, Admin};
use crate::site::AppState;
use crate::store::{self, Queue};
use crate::worker::HEARTBEAT;

use crate::site::roster::{self, valid_name, MIN_PASSWORD};

#[derive(Deserialize)]
pub struct Notice {
    done: Option<String>,
    user: Option<String>,
}

pub async fn users(
    State(state): State<AppState>,
    Admin(session): Admin,
    PageQuery(q): PageQuery<Notice>,
) -> Result<Response, PageError> {
    let user = q.user.unwrap_or_default();
    let notice = q.done.as_deref().and_then(|done| {
        Some(match done {
            "added" => format!("Added {user}."),
            "disabled" => format!("Disabled {user}: their sessions and tokens no longer work."),
            "enabled" => format!("Enabled {user}."),
            "admin" => format!("{user} is now an admin."),
            "unadmin" => format!("{user} is no longer an admin."),
            "password" => format!("Set a new password for {user}; their sessions were ended."),
            _ => return None,
        })
    });
    users_page(&state, &session, notice, None, StatusCode::OK).await
}

async fn users_page(
    state: &AppState,
    session: &store::WebSession,
    notice: Option<String>,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    users_page_with(state, session, notice, error, Vec::new(), status).await
}

/// The users page, with `generated` passwords (name, password) shown once.
async fn users_page_with(
    state: &AppState,
    session: &store::WebSession,
    notice: Option<String>,
    error: Option<String>,
    generated: Vec<Value>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let rows: Vec<Value> = state
        .store
        .users()
        .await?
        .iter()
        .map(|u| {
            context! {
                name => u.name, is_admin => u.is_admin, disabled => u.disabled,
                since => u.created_at.get(..10).unwrap_or(&u.created_at),
            }
        })
        .collect();
    let html = render(
        "admin_users.html",
        context! {
            me => me(Some(session)), section => "admin", users => rows, notice, error, generated,
        },
    )?;
    Ok((status, html).into_response())
}

#[derive(Deserialize)]
pub struct AddUser {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    password: String,
    admin: Option<String>,
}

pub async fn add_user(
    State(state): State<AppState>,
    Admin(session): Admin,
    Form(form): Form<AddUser>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let name = form.name.trim().to_string();
    let refuse =
        |why: String| users_page(&state, &session, None, Some(why), StatusCode::BAD_REQUEST);
    if !valid_name(&name) {
        return refuse("A name is 1 to 32 letters, digits, '_', '.' or '-'.".to_string()).await;
    }
    if form.password.chars().count() < MIN_PASSWORD {
        return refuse(format!(
            "A password has at least {MIN_PASSWORD} characters."
        ))
        .await;
    }
    let password = form.password;
    let hash = state
        .passwords
        .hash(password)
        .await
        .map_err(busy)?
        .map_err(|e| PageError::internal(&e))?;
    match state
        .store
        .add_user(&name, &hash, form.admin.is_some())
        .await
    {
        Ok(_) => {}
        Err(store::Error::UserExists(_)) => {
            return refuse(format!("There is already a user {name}.")).await;
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(admin = %session.user.name, user = %name, "user added on the web");
    Ok(done("added", &name))
}

#[derive(Deserialize)]
pub struct ImportUsers {
    #[serde(default)]
    csrf: String,
    /// One account a line: `name` or `name,password`.
    #[serde(default)]
    roster: String,
}

/// Adds many accounts at once (all or none); the generated passwords are
/// shown on the answer, once.
pub async fn import_users(
    State(state): State<AppState>,
    Admin(session): Admin,
    Form(form): Form<ImportUsers>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let refuse =
        |why: String| users_page(&state, &session, None, Some(why), StatusCode::BAD_REQUEST);
    let entries = match roster::parse(&form.roster) {
        Ok(entries) => entries,
        Err(why) => return refuse(why).await,
    };
    let mut hashed = Vec::with_capacity(entries.len());
    for e in &entries {
        let hash = state
            .passwords
            .hash(e.password.clone())
            .await
            .map_err(busy)?
            .map_err(|e| PageError::internal(&e))?;
        hashed.push((e.name.clone(), hash));
    }
    match state.store.add_users(&hashed).await {
        Ok(()) => {}
        Err(store::Error::UserExists(name)) => {
            return refuse(format!(
                "There is already a user {name}; no account was added."
            ))
            .await;
        }
        Err(e) => return Err(e.into()),
    }
    tracing::info!(admin = %session.user.name, n = entries.len(), "users added on the web");
    let generated: Vec<Value> = entries
        .iter()
        .filter(|e| e.generated)
        .map(|e| context! { name => e.name, password => e.password })
        .collect();
    let notice = format!(
        "Added {} {}.",
        entries.len(),
        if entries.len() == 1 { "user" } else { "users" }
    );
    users_page_with(
        &state,
        &session,
        Some(notice),
        None,
        generated,
        StatusCode::OK,
    )
    .await
}

fn done(what: &str, name: &str) -> Response {
    Redirect::to(&format!(
        "/admin/users?done={what}&user={}",
        percent_encode(name)
    ))
    .into_response()
}

#[derive(Deserialize)]
pub struct ChangeUser {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
    password: Option<String>,
}

pub async fn change_user(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(name): PagePath<String>,
    Form(form): Form<ChangeUser>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    if state.store.user(&name).await?.is_none() {
        return Err(PageError::not_found());
    }
    let own = name == session.user.name;
    let result = match form.action.as_str() {
        // An admin cannot lock themselves out.
        "disable" | "unadmin" if own => {
            return users_page(
                &state,
                &session,
                None,
                Some("You cannot disable yourself or drop your own admin role.".to_string()),
                StatusCode::BAD_REQUEST,
            )
            .await;
        }
        "disable" => state.store.set_disabled(&name, true).await,
        "enable" => state.store.set_disabled(&name, false).await,
        "admin" => state.store.set_admin(&name, true).await,
        "unadmin" => state.store.set_admin(&name, false).await,
        "password" => {
            let password = form.password.unwrap_or_default();
            if password.chars().count() < MIN_PASSWORD {
                return users_page(
                    &state,
                    &session,
                    None,
                    Some(format!(
                        "A password has at least {MIN_PASSWORD} characters."
                    )),
                    StatusCode::BAD_REQUEST,
                )
                .await;
            }
            let hash = state
                .passwords
                .hash(password)
                .await
                .map_err(busy)?
                .map_err(|e| PageError::internal(&e))?;
            state.store.set_password(&name, &hash).await
        }
        _ => {
            return Err(PageError::bad_request(
                "That is not something to do to a user.",
            ))
        }
    };
    match result {
        Ok(()) => {}
        Err(store::Error::NoUser(_)) => return Err(PageError::not_found()),
        Err(e) => return Err(e.into()),
    }
    tracing::info!(admin = %session.user.name, user = %name, action = %form.action, "user changed on the web");
    let word = match form.action.as_str() {
        "disable" => "disabled",
        "enable" => "enabled",
        other => other,
    };
    Ok(done(word, &name))
}

/// The account named `name`, or the page's 404.
async fn user_named(state: &AppState, name: &str) -> Result<store::User, PageError> {
    state
        .store
        .user(name)
        .await?
        .ok_or_else(PageError::not_found)
}

/// A user's live API tokens (by prefix), each with its revoke button.
pub async fn tokens(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(name): PagePath<String>,
    PageQuery(q): PageQuery<Notice>,
) -> Result<Response, PageError> {
    let user = user_named(&state, &name).await?;
    let notice = match q.done.as_deref() {
        Some("revoked") => Some("Revoked the token.".to_string()),
        Some(done) => done
            .strip_prefix("revoked-")
            .and_then(|n| n.parse::<u64>().ok())
            .map(|n| format!("Revoked {n} {}.", if n == 1 { "token" } else { "tokens" })),
        None => None,
    };
    tokens_page(&state, &session, &user, notice, None, StatusCode::OK).await
}

async fn tokens_page(
    state: &AppState,
    session: &store::WebSession,
    user: &store::User,
    notice: Option<String>,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let tokens = state.store.tokens_of(user.id).await?;
    let html = render(
        "admin_tokens.html",
        context! {
            me => me(Some(session)), section => "admin", user => user.name, tokens, notice, error,
        },
    )?;
    Ok((status, html).into_response())
}

fn tokens_done(name: &str, done: &str) -> Response {
    Redirect::to(&format!(
        "/admin/users/{}/tokens?done={done}",
        percent_encode(name)
    ))
    .into_response()
}

/// Revokes one of a user's tokens, named by its first characters.
pub async fn revoke_token(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath((name, prefix)): PagePath<(String, String)>,
    Form(form): Form<CsrfOnly>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let user = user_named(&state, &name).await?;
    match state.store.revoke_own_token(user.id, &prefix).await? {
        store::Revoked::One => {
            tracing::info!(admin = %session.user.name, user = %name, prefix = %prefix, "token revoked by an admin on the web");
            Ok(tokens_done(&name, "revoked"))
        }
        store::Revoked::NoMatch => Err(PageError::not_found()),
        store::Revoked::Ambiguous(n) => {
            let why = format!("{n} tokens of {name} start with {prefix}; none was revoked.");
            tokens_page(
                &state,
                &session,
                &user,
                None,
                Some(why),
                StatusCode::CONFLICT,
            )
            .await
        }
    }
}

/// Revokes every live token of a user.
pub async fn revoke_all_tokens(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(name): PagePath<String>,
    Form(form): Form<CsrfOnly>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let user = user_named(&state, &name).await?;
    let n = state.store.revoke_tokens_of(user.id).await?;
    tracing::info!(admin = %session.user.name, user = %name, n, "tokens revoked by an admin on the web");
    Ok(tokens_done(&name, &format!("revoked-{n}")))
}

#[derive(Deserialize)]
pub struct CsrfOnly {
    #[serde(default)]
    csrf: String,
}

pub async fn rejudge(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(id): PagePath<String>,
    Form(form): Form<CsrfOnly>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let id: i64 = id.parse().map_err(|_| PageError::not_found())?;
    if !state.store.rejudge(id).await? {
        // Unknown, or not judged yet (then it is judged soon anyway).
        if state.store.get(id).await?.is_none() {
            return Err(PageError::not_found());
        }
    }
    state.wake.notify_one();
    tracing::info!(admin = %session.user.name, id, "rejudge from the web");
    Ok(Redirect::to(&format!("/submissions/{id}")).into_response())
}

pub async fn rejudge_problem(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<CsrfOnly>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let done = state.store.rejudge_problem(&slug).await?;
    for _ in 0..done.queued.min(64) {
        state.wake.notify_one();
    }
    let (n, kept) = (done.queued, done.final_kept);
    tracing::info!(admin = %session.user.name, problem = %slug, n, kept, "problem rejudged from the web");
    Ok(Redirect::to("/recent").into_response())
}

pub async fn queue(
    State(state): State<AppState>,
    Admin(session): Admin,
) -> Result<Response, PageError> {
    let counts = state.store.queue_counts().await?;
    let processes = state.store.worker_processes().await?;
    // Which process holds which submission, from the processes' reports.
    let mut holder: BTreeMap<i64, String> = BTreeMap::new();
    for p in &processes {
        for id in p.current.split(',').filter_map(|s| s.parse::<i64>().ok()) {
            holder.insert(id, p.name.clone());
        }
    }
    let judging: Vec<Value> = state
        .store
        .judging()
        .await?
        .iter()
        .map(|j| {
            context! {
                id => j.id, problem => j.problem, user => j.user, attempt => j.attempt,
                worker => holder.get(&j.id),
                claimed => j.claimed_at.as_deref().map(when),
            }
        })
        .collect();
    let stale_ms = i64::try_from(HEARTBEAT.as_millis() * 3).unwrap_or(i64::MAX);
    let speeds = crate::site::speeds::speeds(&state).await?;
    let workers: Vec<Value> = processes
        .iter()
        .map(|p| {
            let speed = speeds.workers.iter().find(|s| s.worker == p.name).map(|s| {
                context! {
                    median_ms => s.median_ms, runs => s.runs_ms.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
                    spread => format!("{:.3}", s.spread), factor => format!("{:.2}", s.factor),
                    language => s.language, measured => when(&s.measured_at),
                }
            });
            context! {
                speed,
                name => p.name, workers => p.workers, tiers => p.tiers,
                cores => p.cores, languages => p.languages,
                busy => p.current.split(',').filter(|s| !s.is_empty()).count(),
                alive => p.silent_ms <= stale_ms,
                started => when(&p.started_at),
                seen => format!("{} s ago", p.silent_ms.max(0) / 1000),
            }
        })
        .collect();
    // Workers whose build of a published package differed: they judge
    // none of that problem.
    let refusals: Vec<Value> = state
        .store
        .refusals()
        .await?
        .iter()
        .map(|r| {
            context! {
                worker => r.worker, problem => r.problem, reason => r.reason,
                package => r.hash.get(..12).unwrap_or(&r.hash),
                at => when(&r.at),
            }
        })
        .collect();
    // What keeps submissions waiting: processes gone silent (dropped
    // from the list after a while; their history stays), and languages
    // that no live worker judges.
    let silent: Vec<Value> = processes
        .iter()
        .filter(|p| p.silent_ms > stale_ms)
        .map(
            |p| context! { name => p.name, seen => format!("{} s ago", p.silent_ms.max(0) / 1000) },
        )
        .collect();
    let judges = crate::site::waiting::Judges::read(&state.store).await?;
    let unjudged = judges.unjudged(state.ctx.languages.iter().map(|l| l.id.as_str()));
    let html = render(
        "admin_queue.html",
        context! {
            me => me(Some(&session)), section => "admin",
            counts => context! { queued => counts.queued, judging => counts.judging, done => counts.done },
            judging, workers, refusals, silent, unjudged,
            reference => match (speeds.reference, speeds.reference_ms) {
                ("off", _) => "fair timing is off: every worker judges with factor 1".to_string(),
                ("configured", Some(ms)) => format!("limits are set on the configured reference speed: {ms:.0} ms of calibration"),
                (_, Some(ms)) => format!("limits are set on the fastest live worker: {ms:.0} ms of calibration"),
                _ => "no live worker is calibrated yet".to_string(),
            },
        },
    )?;
    Ok(html.into_response())
}

/// The password hashers were all busy: try again shortly.
fn busy(_: crate::site::signin::Busy) -> PageError {
    PageError::status(
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        "Busy",
        "The judge is busy checking passwords; try again in a moment.",
    )
}
