//! Signing in and out of the pages: the form with its double-submit
//! value, the throttled attempt, the session cookie.

use std::time::Duration;

use axum::extract::State;
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
use crate::site::place::Place;
use crate::site::signin::{self, Checked};
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
    let name = signin::typed_name(&form.name);
    let address = Place::of_request(&extensions);
    let user = match signin::check(&state, name, form.password, address).await? {
        Checked::User(u, _) => u,
        Checked::Throttled(wait) => return signin_throttled(&state, &next, name, wait),
        Checked::Busy => {
            return Ok((
                [(RETRY_AFTER, "2")],
                PageError::status(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Busy",
                    "The judge is busy checking passwords; try again in a moment.",
                ),
            )
                .into_response())
        }
        Checked::Wrong => {
            return signin_page(
                &state,
                &next,
                name,
                Some("Wrong name or password, or the account is disabled."),
                StatusCode::UNAUTHORIZED,
            )
        }
    };
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
