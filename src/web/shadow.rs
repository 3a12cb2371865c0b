//! The admin's page of a shadowed contest (issue 48): where it is followed
//! from and how far, the summary, the matrix of the other system's
//! verdicts against grundy's, the submissions whose verdicts differ
//! (filtered by problem, team and verdict, or all of them), and a form on
//! each to mark it as checked with a note.

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::{context, Value};
use serde::Deserialize;

use super::contest::find;
use super::render::{me, percent_encode, render, PageError, PagePath, PageQuery};
use super::session::{check_csrf, Admin};
use crate::contest::time::{format_human, format_reltime};
use crate::shadow::compare::Filter;
use crate::site::contests::now_ms;
use crate::site::AppState;

#[derive(Deserialize, Default)]
pub struct FilterQuery {
    #[serde(default)]
    all: Option<String>,
    #[serde(default)]
    problem: Option<String>,
    #[serde(default)]
    team: Option<String>,
    #[serde(default)]
    verdict: Option<String>,
}

/// A filter's text, empty as none.
fn given(v: Option<String>) -> Option<String> {
    v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty())
}

pub async fn page(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    PageQuery(q): PageQuery<FilterQuery>,
) -> Result<Response, PageError> {
    let c = find(&state, &slug).await?;
    let report = crate::shadow::differences(&state.store, c.id)
        .await?
        .ok_or_else(PageError::not_found)?;
    let filter = Filter {
        all: q.all.is_some(),
        problem: given(q.problem),
        team: given(q.team),
        verdict: given(q.verdict),
    };
    let secs = |ms: Option<i64>| ms.map(|ms| format!("{:.3}", ms as f64 / 1000.0));
    let rows: Vec<Value> = report
        .shown(&filter)
        .map(|x| {
            context! {
                id => x.id, team => x.team, problem => x.problem, language => x.language,
                time => format_reltime(x.contest_time_ms), agreement => x.agreement.as_str(),
                submission => x.submission, ours => x.ours.map(|v| v.as_str()),
                theirs => x.theirs, their_time => secs(x.their_time_ms),
                our_time => secs(x.our_time_ms), first => x.first_difference,
                first_verdicts => x.first_difference_verdicts.as_ref().map(|(t, o)| format!("{t}/{o}")),
                reason => x.reason, checked => x.checked,
            }
        })
        .collect();
    let ours: std::collections::BTreeSet<&str> =
        report.matrix.keys().map(|(_, o)| o.as_str()).collect();
    let theirs: std::collections::BTreeSet<&str> =
        report.matrix.keys().map(|(t, _)| t.as_str()).collect();
    let matrix: Vec<Value> = theirs
        .iter()
        .map(|t| {
            let cells: Vec<usize> = ours
                .iter()
                .map(|o| {
                    report
                        .matrix
                        .get(&(t.to_string(), o.to_string()))
                        .copied()
                        .unwrap_or(0)
                })
                .collect();
            context! { theirs => t, cells }
        })
        .collect();
    let html = render(
        "admin_shadow.html",
        context! {
            me => me(Some(&session)), section => "admin",
            slug => c.slug, name => c.name, source => report.source, token => report.token,
            ended => report.ended_ms.map(format_human), line => report.summary.line(),
            summary => Value::from_serialize(report.summary), ours => ours, matrix,
            rows, all => filter.all, problem => filter.problem, team => filter.team,
            verdict => filter.verdict,
            following => state.followers.said(c.id).map(|(running, said)| context! { running, said }),
        },
    )?;
    Ok(html.into_response())
}

#[derive(Deserialize)]
pub struct CheckForm {
    #[serde(default)]
    csrf: String,
    submission: String,
    #[serde(default)]
    note: String,
    #[serde(default)]
    undo: Option<String>,
}

pub async fn check(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<CheckForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    let note = match form.undo {
        Some(_) => None,
        None => {
            let note = form.note.trim();
            if note.is_empty() || note.chars().count() > 2000 {
                return Err(PageError::bad_request(
                    "A note is 1 to 2000 characters: say what was checked.",
                ));
            }
            Some(note.to_string())
        }
    };
    let found = state
        .store
        .check_shadowed(c.id, &form.submission, note.as_deref(), now_ms())
        .await?;
    if !found {
        return Err(PageError::not_found());
    }
    Ok(Redirect::to(&format!(
        "/admin/contests/{}/shadow#s-{}",
        percent_encode(&c.slug),
        percent_encode(&form.submission)
    ))
    .into_response())
}

#[derive(Deserialize)]
pub struct FollowForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    token: String,
    /// `follow` or `stop`.
    action: String,
}

/// Starts or stops following the contest's source in this server (its
/// workers judge).
pub async fn follow(
    State(state): State<AppState>,
    Admin(session): Admin,
    PagePath(slug): PagePath<String>,
    Form(form): Form<FollowForm>,
) -> Result<Response, PageError> {
    check_csrf(&session, &form.csrf)?;
    let c = find(&state, &slug).await?;
    if state.store.shadow(c.id).await?.is_none() {
        return Err(PageError::not_found());
    }
    match form.action.as_str() {
        "follow" => {
            let token = Some(form.token.trim().to_string()).filter(|t| !t.is_empty());
            crate::shadow::follow::start_in_server(&state, c.clone(), token);
        }
        "stop" => {
            state.followers.stop(c.id);
        }
        _ => return Err(PageError::bad_request("Follow or stop.")),
    }
    Ok(Redirect::to(&format!(
        "/admin/contests/{}/shadow",
        percent_encode(&c.slug)
    ))
    .into_response())
}

/// An admin's import of a contest from another system: a Contest API URL
/// or an uploaded contest package (kept under the data directory, to be
/// followed from), a token, a name and a mapping. Refused whole, with
/// every item that cannot be mapped listed on the contests' page.
pub async fn import(
    State(state): State<AppState>,
    Admin(session): Admin,
    mut multipart: Multipart,
) -> Result<Response, PageError> {
    let limit = state.ctx.config.server.upload_limit_mib << 20;
    let (mut csrf, mut source, mut token, mut slug, mut map) = Default::default();
    let mut package = Vec::new();
    let Some(fields) = super::catalog::form_fields(&mut multipart, limit, "Not imported").await?
    else {
        return Err(PageError::status(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Not imported",
            format!("the package is over {} MiB", limit >> 20),
        ));
    };
    for (name, bytes) in fields {
        let text = String::from_utf8_lossy(&bytes).trim().to_string();
        match name.as_str() {
            "csrf" => csrf = text,
            "source" => source = text,
            "token" => token = text,
            "slug" => slug = text,
            "map" => map = text,
            "package" => package = bytes,
            _ => {}
        }
    }
    check_csrf(&session, &csrf)?;
    let refused = |lines: Vec<String>| async {
        super::contest_admin::list_with(
            &state,
            &session,
            &crate::site::contests::Settings::default(),
            None,
            Some(lines),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await
    };
    let map = match crate::shadow::import::Mapping::parse(&map) {
        Ok(map) => map,
        Err(e) => return refused(vec![e]).await,
    };
    if !package.is_empty() {
        let dir = state.ctx.config.data_dir.join("shadow");
        let path = dir.join(format!("{}.zip", crate::digest::sha256(&package)));
        let written = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &package));
        if let Err(e) = written {
            return Err(PageError::internal(&e));
        }
        source = path.display().to_string();
    } else if !(source.starts_with("http://") || source.starts_with("https://")) {
        return refused(vec!["give the other system's Contest API URL (http:// or https://) or upload its contest package".into()]).await;
    }
    let token = Some(token).filter(|t| !t.is_empty());
    let slug = Some(slug).filter(|s| !s.is_empty());
    match crate::shadow::import::import(&state.ctx, &state.store, &source, token, map, slug).await {
        Ok((_, plan)) => Ok(Redirect::to(&format!(
            "/admin/contests/{}/shadow",
            percent_encode(&plan.contest.slug)
        ))
        .into_response()),
        Err(e) => {
            let lines = match e.downcast_ref::<crate::shadow::import::Refused>() {
                Some(r) => std::iter::once(format!(
                    "Nothing imported: {} cannot be mapped.",
                    crate::plural::count(r.0.len(), "item", "items")
                ))
                .chain(r.0.iter().cloned())
                .collect(),
                None => vec![crate::errors::chain(&*e)],
            };
            refused(lines).await
        }
    }
}
