//! A signed-in user's own API tokens: the list (by prefix), a new one
//! (shown once, on the answer to the form), and revoking one. The API's
//! counterpart is `/api/v1/tokens`; both reach only the user's own tokens.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::context;
use serde::Deserialize;

use super::render::{me, render, PageError, PagePath};
use super::session::{check_csrf, Signed};
use crate::auth;
use crate::site::AppState;
use crate::store::{Revoked, WebSession};

pub async fn page(
    State(state): State<AppState>,
    Signed(session): Signed,
) -> Result<Response, PageError> {
    tokens_page(&state, &session, None, None, StatusCode::OK).await
}

async fn tokens_page(
    state: &AppState,
    session: &WebSession,
    new_token: Option<String>,
    error: Option<String>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let tokens = state.store.tokens_of(session.user.id).await?;
    let html = render(
        "tokens.html",
        context! {
            me => me(Some(session)), section => "tokens", tokens, new_token, error,
            max => auth::MAX_OWN_TOKENS,
        },
    )?;
    Ok((status, html).into_response())
}

#[derive(Deserialize)]
pub struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

pub async fn create(
    State(state): State<AppState>,
    Signed(session): Signed,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let token = auth::new_token();
    // Counted and stored in one transaction, as the API does.
    let made = state
        .store
        .add_own_token(
            session.user.id,
            &token.hash,
            &token.prefix,
            auth::MAX_OWN_TOKENS,
        )
        .await?;
    if !made {
        let why = format!(
            "You have {} live tokens; revoke one first.",
            auth::MAX_OWN_TOKENS
        );
        return tokens_page(&state, &session, None, Some(why), StatusCode::CONFLICT).await;
    }
    tracing::info!(user = %session.user.name, prefix = %token.prefix, "token made on the web");
    // Shown on this answer only: it is not stored anywhere readable.
    tokens_page(&state, &session, Some(token.token), None, StatusCode::OK).await
}

pub async fn revoke(
    State(state): State<AppState>,
    Signed(session): Signed,
    PagePath(prefix): PagePath<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    match state
        .store
        .revoke_own_token(session.user.id, &prefix)
        .await?
    {
        Revoked::One => {
            tracing::info!(user = %session.user.name, prefix = %prefix, "token revoked on the web");
            Ok(Redirect::to("/account/tokens").into_response())
        }
        Revoked::NoMatch => Err(PageError::not_found()),
        Revoked::Ambiguous(n) => {
            let why = format!("{n} of your tokens start with {prefix}; none was revoked.");
            tokens_page(&state, &session, None, Some(why), StatusCode::CONFLICT).await
        }
    }
}
