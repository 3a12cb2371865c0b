//! The admin's page of a shadowed contest (issue 48): where it is followed
//! from and how far, the summary, the matrix of the other system's
//! verdicts against grundy's, the submissions whose verdicts differ
//! (filtered by problem, team and verdict, or all of them), and a form on
//! each to mark it as checked with a note.

use axum::extract::State;
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
