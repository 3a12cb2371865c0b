//! Signing in and out of the pages: the form with its double-submit
//! value, the throttled attempt, the session cookie.

use std::time::Duration;

use axum::extract::State;
use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::header::{RETRY_AFTER, SET_COOKIE};
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::context;
use serde::Deserialize;

use super::render::{render, PageError, PageQuery};
use super::session::{
    check_csrf, cookie, new_secret, safe_next, same_secret, set_cookie, Signed, Viewer,
    SESSION_COOKIE, SESSION_TTL_S, SIGNIN_COOKIE,
};
use crate::auth;
use crate::site::AppState;

#[derive(Deserialize)]
pub struct NextQuery {
    next: Option<String>,
}

pub async fn form(
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
