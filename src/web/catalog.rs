//! The admin's problems page: every problem of the catalog with its state
//! and the contests that hold it, a form to upload a problem archive (the
//! verification's report shown on the page), and hide, show and remove
//! buttons. The work is [`crate::site::catalog`]'s, shared with the API.

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::context;
use serde::Deserialize;

use super::render::{me, percent_encode, render, PageError, PagePath, PageQuery};
use super::session::{check_csrf, Admin};
use crate::site::catalog::{self, CatalogError, Upload};
use crate::site::AppState;
use crate::store::WebSession;

#[derive(Deserialize)]
pub struct Notice {
    done: Option<String>,
    problem: Option<String>,
}

pub async fn page(
    State(state): State<AppState>,
    Admin(session): Admin,
    PageQuery(q): PageQuery<Notice>,
) -> Result<Response, PageError> {
    let problem = q.problem.unwrap_or_default();
    let notice = q.done.as_deref().and_then(|done| {
        Some(match done {
            "hidden" => format!("{problem} is hidden: only admins see it outside its contests."),
            "unhidden" => format!("{problem} is shown to everyone again."),
            "removed" => format!("{problem} was removed from the catalog."),
            _ => return None,
        })
    });
    let shown = Shown {
        notice,
        ..Shown::default()
    };
    problems_page(&state, &session, shown, StatusCode::OK).await
}

/// What the page shows above the list besides the problems.
#[derive(Default)]
struct Shown {
    notice: Option<String>,
    error: Option<String>,
    /// The last upload's verification, in `grundy verify`'s words.
    report: Option<String>,
    notes: Vec<String>,
}

async fn problems_page(
    state: &AppState,
    session: &WebSession,
    shown: Shown,
    status: StatusCode,
) -> Result<Response, PageError> {
    let rows = catalog::list(state).await.map_err(|e| match e {
        CatalogError::Internal(_) => PageError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error",
            "an internal error occurred",
        ),
        other => PageError::status(other.status(), "Not listed", other.to_string()),
    })?;
    let limit = state.ctx.config.server.upload_limit_mib;
    let html = render(
        "admin_problems.html",
        context! {
            me => me(Some(session)), section => "admin", problems => rows,
            notice => shown.notice, error => shown.error, report => shown.report,
            notes => shown.notes, limit_mib => limit,
        },
    )?;
    Ok((status, html).into_response())
}

/// The upload form: `csrf`, `archive` (the file), `slug`, `replace`,
/// `rejudge`.
/// A multipart form's fields (name, bytes), each read a chunk at a time
/// so a form over `limit` bytes in all is refused without being held
/// whole: `None` then. `what`: the refusal page's title for a form that
/// does not read.
///
/// # Errors
/// A form that is not multipart, as a 400 page.
pub(super) async fn form_fields(
    multipart: &mut Multipart,
    limit: u64,
    what: &'static str,
) -> Result<Option<Vec<(String, Vec<u8>)>>, PageError> {
    let bad = |why: String| PageError::status(StatusCode::BAD_REQUEST, what, why);
    let (mut fields, mut total) = (Vec::new(), 0u64);
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| bad(format!("the form: {e}")))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let mut bytes = Vec::new();
        while let Some(chunk) = field
            .chunk()
            .await
            .map_err(|e| bad(format!("the form: {e}")))?
        {
            total += chunk.len() as u64;
            if total > limit {
                return Ok(None);
            }
            bytes.extend_from_slice(&chunk);
        }
        fields.push((name, bytes));
    }
    Ok(Some(fields))
}

pub async fn upload(
    State(state): State<AppState>,
    Admin(session): Admin,
    mut multipart: Multipart,
) -> Result<Response, PageError> {
    let limit = state.ctx.config.server.upload_limit_mib;
    let mut upload = Upload::default();
    let mut csrf = String::new();
    let fields = match form_fields(&mut multipart, limit << 20, "Not uploaded").await? {
        Some(fields) => fields,
        None => {
            let error = CatalogError::TooLarge(limit).to_string();
            return refused(&state, &session, error, None).await;
        }
    };
    for (name, bytes) in fields {
        let text = || String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "csrf" => csrf = text(),
            "slug" => upload.slug = Some(text()).filter(|s| !s.is_empty()),
            "replace" => upload.replace = !bytes.is_empty(),
            "rejudge" => upload.rejudge = !bytes.is_empty(),
            "archive" => upload.archive = bytes,
            _ => {}
        }
    }
    check_csrf(&session, &csrf)?;
    if state.is_stopping() {
        return Err(PageError::status(
            StatusCode::SERVICE_UNAVAILABLE,
            "Not uploaded",
            "the judge is shutting down; try again later",
        ));
    }
    match catalog::upload(&state, upload).await {
        Ok(done) => {
            let mut notice = format!(
                "{} ({}) {} and verified.",
                done.slug,
                done.name,
                if done.replaced { "replaced" } else { "added" }
            );
            if let Some(n) = done.rejudged {
                notice.push_str(&format!(
                    " {} queued for rejudging.",
                    crate::plural::count(n, "submission", "submissions")
                ));
            }
            let shown = Shown {
                notice: Some(notice),
                report: Some(catalog::report_text(&done.report)),
                notes: done.notes,
                ..Shown::default()
            };
            problems_page(&state, &session, shown, StatusCode::OK).await
        }
        Err(e) => {
            let report = match &e {
                CatalogError::NotVerified(r) => Some(catalog::report_text(r)),
                _ => None,
            };
            let status = e.status();
            let error = match &e {
                CatalogError::Internal(_) => "an internal error occurred".to_string(),
                other => other.to_string(),
            };
            let shown = Shown {
                error: Some(error),
                report,
                ..Shown::default()
            };
            problems_page(&state, &session, shown, status).await
        }
    }
}

async fn refused(
    state: &AppState,
    session: &WebSession,
    error: String,
    report: Option<String>,
) -> Result<Response, PageError> {
    let shown = Shown {
        error: Some(error),
        report,
        ..Shown::default()
    };
    problems_page(state, session, shown, StatusCode::PAYLOAD_TOO_LARGE).await
}

#[derive(Deserialize)]
pub struct Act {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
}

/// Hide, show or remove one problem.
pub async fn act(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<Act>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let done = match form.action.as_str() {
        "hide" => catalog::set_hidden(&state, &slug, true)
            .await
            .map(|_| "hidden"),
        "unhide" => catalog::set_hidden(&state, &slug, false)
            .await
            .map(|_| "unhidden"),
        "remove" => catalog::remove(&state, &slug).await.map(|()| "removed"),
        _ => {
            return Err(PageError::status(
                StatusCode::BAD_REQUEST,
                "Unknown action",
                "the form asked for no action this page knows",
            ))
        }
    };
    match done {
        Ok(done) => Ok(Redirect::to(&format!(
            "/admin/problems?done={done}&problem={}",
            percent_encode(&slug)
        ))
        .into_response()),
        Err(CatalogError::Internal(_)) => Err(PageError::status(
            StatusCode::INTERNAL_SERVER_ERROR,
            "Internal error",
            "an internal error occurred",
        )),
        Err(e) => {
            let status = e.status();
            let shown = Shown {
                error: Some(e.to_string()),
                ..Shown::default()
            };
            problems_page(&state, &session, shown, status).await
        }
    }
}
