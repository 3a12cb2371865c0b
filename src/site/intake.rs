//! One way in for a submission from the network, used by the API and the
//! pages alike: the request becomes a checked [`Plan`] (the problem a
//! catalog slug, never a path of the server) and is stored `queued` within
//! the user's limits. A refusal is a [`Refusal`], whose status, code and
//! message both edges show as they are; only the judge's own failures are
//! internal.

use std::sync::Arc;

use axum::http::StatusCode;

use std::collections::BTreeSet;

use crate::context::Context;
use crate::judge::{Plan, PlanError, Request};
use crate::problem;
use crate::store::{self, NewSubmission, OverLimit, Store, SubmitLimits};

/// A submission as it comes from the network.
#[derive(Debug, Clone)]
pub struct Entry {
    pub user_id: i64,
    pub problem: String,
    pub language: String,
    pub source: String,
}

/// Why a submission was not taken.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    #[error("unknown problem {0:?}")]
    UnknownProblem(String),
    /// A contest that has not ended holds the problem (the message says
    /// which, or that it has not started).
    #[error("{0}")]
    InContest(String),
    #[error("unknown language {0:?}")]
    UnknownLanguage(String),
    #[error("the source is empty")]
    EmptySource,
    #[error("the source is {kib} KiB, above the limit of {limit_kib} KiB")]
    SourceTooLarge { kib: u64, limit_kib: u64 },
    /// The problem's rules refuse it (a Python 2 `#!` line on a Kattis problem).
    #[error("the source was refused: {0}")]
    Refused(String),
    #[error("language {0:?} is not available on this judge now")]
    LanguageUnavailable(String),
    #[error(
        "at most {} a minute; try again shortly",
        crate::plural::count(.0, "submission", "submissions")
    )]
    PerMinute(u32),
    #[error(
        "you have {} waiting to be judged, the most allowed; submit again once one is judged",
        crate::plural::count(.0, "submission", "submissions")
    )]
    TooManyWaiting(u32),
    #[error("the judge is shutting down; try again later")]
    ShuttingDown,
    /// The contest's name and start.
    #[error("{0} has not started yet; it starts at {1}")]
    ContestNotStarted(String, String),
    /// The contest's name and where practice goes on.
    #[error("{contest} is over and takes no more submissions; practice goes on at {practice}")]
    ContestOver { contest: String, practice: String },
    #[error("you do not take part in {0}")]
    NotParticipant(String),
    /// The judge's own failure (already logged, never shown).
    #[error("an internal error occurred")]
    Internal,
}

impl Refusal {
    pub fn status(&self) -> StatusCode {
        match self {
            Refusal::UnknownProblem(_)
            | Refusal::UnknownLanguage(_)
            | Refusal::EmptySource
            | Refusal::Refused(_) => StatusCode::BAD_REQUEST,
            Refusal::SourceTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            Refusal::PerMinute(_) | Refusal::TooManyWaiting(_) => StatusCode::TOO_MANY_REQUESTS,
            Refusal::LanguageUnavailable(_) | Refusal::ShuttingDown => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Refusal::ContestNotStarted(..)
            | Refusal::InContest(_)
            | Refusal::ContestOver { .. }
            | Refusal::NotParticipant(_) => StatusCode::FORBIDDEN,
            Refusal::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The API's error code.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::UnknownProblem(_) => "unknown_problem",
            Refusal::InContest(_) => "problem_in_contest",
            Refusal::UnknownLanguage(_) => "unknown_language",
            Refusal::EmptySource => "empty_source",
            Refusal::SourceTooLarge { .. } => "source_too_large",
            Refusal::Refused(_) => "refused_source",
            Refusal::LanguageUnavailable(_) => "language_unavailable",
            Refusal::PerMinute(_) => "rate_limited",
            Refusal::TooManyWaiting(_) => "too_many_waiting",
            Refusal::ShuttingDown => "shutting_down",
            Refusal::ContestNotStarted(..) => "contest_not_started",
            Refusal::ContestOver { .. } => "contest_over",
            Refusal::NotParticipant(_) => "not_a_participant",
            Refusal::Internal => "internal",
        }
    }
}

/// Checks `entry` and stores it `queued`; returns its id and the
/// problem's slug.
///
/// # Errors
/// A [`Refusal`] saying what is wrong; the judge's own failures are logged
/// here and become [`Refusal::Internal`].
pub async fn submit(
    ctx: &Arc<Context>,
    store: &Store,
    limits: SubmitLimits,
    entry: Entry,
) -> Result<i64, Refusal> {
    take(ctx, store, limits, entry, None).await
}

/// [`submit`], for practice (`contest` `None`: a problem a contest not yet
/// ended holds is refused, saying so) or in a contest whose rules were checked
/// (`site::contests::submit`).
pub(super) async fn take(
    ctx: &Arc<Context>,
    store: &Store,
    limits: SubmitLimits,
    entry: Entry,
    contest: Option<&crate::contest::Contest>,
) -> Result<i64, Refusal> {
    if contest.is_none() {
        match super::practice::closed_by(store, &entry.problem).await {
            Ok(None) => {}
            Ok(Some(super::practice::Closed::Hidden)) => {
                return Err(Refusal::UnknownProblem(entry.problem))
            }
            Ok(Some(closed)) => return Err(Refusal::InContest(closed.message(&entry.problem))),
            Err(e) => return Err(internal::<store::Error>(&e)),
        }
    }
    // The user's limits before any work is done for the request.
    match store.over_limits(entry.user_id, limits).await {
        Ok(Some(OverLimit::PerMinute(n))) => return Err(Refusal::PerMinute(n)),
        Ok(Some(OverLimit::Waiting(n))) => return Err(Refusal::TooManyWaiting(n)),
        Ok(Some(OverLimit::Closed)) | Ok(None) => {}
        Err(e) => return Err(internal::<store::Error>(&e)),
    }
    // The checks of `grundy submit` that need no test data (a toolchain
    // probe may run a program: off the executor).
    let plan_ctx = ctx.clone();
    let (problem, language) = (entry.problem.clone(), entry.language.clone());
    let source = entry.source.into_bytes();
    let admitted = tokio::task::spawn_blocking(move || {
        let request = Request {
            problem: &problem,
            language: Some(&language),
            file_name: "source",
            source,
        };
        Plan::admit(
            request,
            &plan_ctx.catalog,
            &plan_ctx.test_data(),
            plan_ctx.config.limits.source_limit,
        )
    })
    .await
    .map_err(|e| internal(&e))?
    .map_err(|e| refusal(&e, &entry.problem, &entry.language))?;
    prepare_data(ctx, &admitted.problem);
    let new = NewSubmission {
        problem: &admitted.problem.slug,
        language: &admitted.language.id,
        source: &admitted.source,
        user_id: Some(entry.user_id),
    };
    match store
        .insert_submission_within(new, limits, contest.map(|c| c.id))
        .await
    {
        Ok(Ok(id)) => Ok(id),
        Ok(Err(OverLimit::PerMinute(n))) => Err(Refusal::PerMinute(n)),
        Ok(Err(OverLimit::Waiting(n))) => Err(Refusal::TooManyWaiting(n)),
        // The database's clock found the window shut: the try is not stored.
        Ok(Err(OverLimit::Closed)) => Err(match contest {
            Some(c) if store_clock_before_start(c) => Refusal::ContestNotStarted(
                c.name.clone(),
                crate::contest::time::format_human(c.start_ms),
            ),
            Some(c) => Refusal::ContestOver {
                contest: c.name.clone(),
                practice: format!("/problems/{}", admitted.problem.slug),
            },
            None => Refusal::Internal,
        }),
        Err(e) => Err(internal::<store::Error>(&e)),
    }
}

/// Whether a try refused by the database's clock was early rather than
/// late (the window is checked by that clock; this only picks the words).
fn store_clock_before_start(c: &crate::contest::Contest) -> bool {
    super::practice::now_ms() < c.start_ms
}

/// Makes sure `problem`'s test data is built, off the request's path: a
/// background build when it is missing, one per package at a time in this
/// process (however many submissions wait for it; the data's own lock
/// keeps it to one across processes). The worker that judges a submission
/// waits for that build, or makes it itself.
fn prepare_data(ctx: &Arc<Context>, problem: &problem::Problem) {
    static BUILDING: std::sync::Mutex<BTreeSet<String>> = std::sync::Mutex::new(BTreeSet::new());
    let data = ctx.test_data();
    if matches!(data.existing(problem), Ok(Some(_))) {
        return;
    }
    let slug = problem.slug.clone();
    if !BUILDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(slug.clone())
    {
        return;
    }
    let problem = problem.clone();
    tokio::task::spawn_blocking(move || {
        if let Err(e) = data.ensure(&problem, &|_| {}) {
            tracing::error!(
                problem = %problem.slug,
                error = %crate::errors::chain(&e),
                "building test data failed; the submissions wait for a worker to build it"
            );
        }
        BUILDING
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&slug);
    });
}

/// A plan's refusal in the user's terms; the judge's own failures are
/// logged (their messages may name paths of the server) and hidden.
fn refusal(e: &PlanError, problem: &str, language: &str) -> Refusal {
    match e {
        PlanError::Problem(problem::Error::Unknown { .. }) => {
            Refusal::UnknownProblem(problem.to_string())
        }
        PlanError::Language(_) => Refusal::UnknownLanguage(language.to_string()),
        PlanError::EmptySource { .. } => Refusal::EmptySource,
        PlanError::SourceTooLarge { kib, limit_kib, .. } => Refusal::SourceTooLarge {
            kib: *kib,
            limit_kib: *limit_kib,
        },
        PlanError::Refused { why, .. } => Refusal::Refused(why.clone()),
        PlanError::Toolchain { .. } => {
            // Not the judge failing: a language this machine lacks, which
            // the forms no longer offer once a worker says so.
            tracing::warn!(language, error = %e, "a try in a language whose toolchain is missing");
            Refusal::LanguageUnavailable(language.to_string())
        }
        _ => internal(e),
    }
}

fn internal<E: std::error::Error + 'static>(e: &E) -> Refusal {
    super::log_internal(e, "internal error taking a submission");
    Refusal::Internal
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_python_2_source_on_a_kattis_problem_is_the_users_400() {
        let e = PlanError::Refused {
            name: "source".into(),
            why: "its first line `#!/usr/bin/python2` asks for Python 2".into(),
        };
        let r = refusal(&e, "guess", "python");
        assert_eq!(r.status(), StatusCode::BAD_REQUEST);
        assert_eq!(r.code(), "refused_source");
        assert!(r.to_string().contains("Python 2"), "{r}");
    }

    #[test]
    fn a_path_is_an_unknown_problem() {
        let e = PlanError::Problem(problem::Error::Unknown {
            slug: "/etc".into(),
        });
        let r = refusal(&e, "/etc", "c");
        assert_eq!(
            (r.status(), r.code()),
            (StatusCode::BAD_REQUEST, "unknown_problem")
        );
    }
}
