//! The awards endpoint (`/contests/{c}/awards`): the contest's awards
//! ([`crate::contest::awards`]) computed at each request from the board
//! as the caller sees it, so the public's winner does not move while the
//! freeze hides results, with the admin's changes. An award of the
//! admin's own is shown to others only once nothing is hidden from them
//! (it is announced with the results), and a first solve names its
//! problem only to those who may know the contest's problems.

use serde_json::Value;

use super::{ApiError, Role};
use crate::contest::awards::{self, Award};
use crate::contest::Contest;
use crate::site::policy::Object;
use crate::site::AppState;

/// The awards of `c` as `role` sees them at `now`.
///
/// # Errors
/// The store's failures.
pub async fn list(
    state: &AppState,
    c: &Contest,
    role: &Role,
    now: i64,
) -> Result<Vec<Value>, ApiError> {
    let board = crate::site::contests::board(state, c, role.viewer()).await?;
    let generated = awards::generate(c, &board, &state.store.contest_team_groups(c).await?);
    let mut edits = state.store.contest_award_edits(c.id).await?;
    if c.hidden_from(role.viewer(), now).is_some() {
        edits.retain(|e| e.team_ids.is_none());
    }
    let names = crate::site::policy::may(c, role.who(), Object::ProblemNames, now);
    Ok(awards::with_edits(generated, &edits)
        .iter()
        .filter(|a| names || !a.id.starts_with("first-to-solve-"))
        .map(Award::to_json)
        .collect())
}
