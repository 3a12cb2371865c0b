//! The one way a try from the network is taken, beside the two rules it
//! follows (`intake`: practice; `contests`: a contest's), for every edge:
//! the API, the practice page and the contest page.

use super::intake::{self, Entry, Refusal};
use super::{contests, AppState};

/// Where a try from the network is made.
#[derive(Debug, Clone, Copy)]
pub enum Venue<'a> {
    /// Practice, outside any contest.
    Practice,
    /// In `contest`, for its problem named `label` (a label or a catalog
    /// slug).
    Contest {
        contest: &'a crate::contest::Contest,
        label: &'a str,
    },
}

/// The one way a try from the network is taken, for every edge (the API,
/// the practice page, the contest page): refused while the server stops
/// (nothing stored), else checked and stored by [`intake::submit`] or, in
/// a contest, [`contests::submit`]; a stored try wakes a worker, and one
/// in a contest tells open scoreboards and contest pages. Its id.
///
/// # Errors
/// A [`Refusal`], which each edge shows as it shows refusals.
pub async fn take_try(
    state: &AppState,
    user: &str,
    venue: Venue<'_>,
    entry: Entry,
) -> Result<i64, Refusal> {
    if state.is_stopping() {
        return Err(Refusal::ShuttingDown);
    }
    let problem = entry.problem.clone();
    let (ctx, store, limits) = (&state.ctx, &state.store, state.limits);
    match venue {
        Venue::Practice => {
            let id = intake::submit(ctx, store, limits, entry).await?;
            state.wake.notify_one();
            tracing::info!(id, user, problem, "submission queued");
            Ok(id)
        }
        Venue::Contest { contest, label } => {
            let id = contests::submit(ctx, store, limits, contest, label, entry).await?;
            state.wake.notify_one();
            state.worker.changes.changed_any();
            tracing::info!(id, user, contest = %contest.slug, label, "contest submission queued");
            Ok(id)
        }
    }
}
