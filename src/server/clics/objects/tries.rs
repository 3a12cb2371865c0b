//! The teams' tries, who may read their files, and where they are.

use serde_json::{json, Value};

use super::super::{ApiError, Role};
use crate::contest::time::parse_time;
use crate::contest::Contest;
use crate::site::AppState;
use crate::store::ContestSubmission;

/// The tries of `c`'s teams as stored (of account `user` only, where
/// given), with the times they were made (a jury's tries are no team's),
/// oldest first.
///
/// # Errors
/// The store's failures.
pub async fn team_tries(
    state: &AppState,
    c: &Contest,
    user: Option<i64>,
) -> Result<Vec<(ContestSubmission, i64)>, ApiError> {
    let teams = state.store.contest_teams(c).await?;
    Ok(state
        .store
        .contest_submissions(c.id, user)
        .await?
        .into_iter()
        .filter(|s| teams.iter().any(|t| t.id == s.user_id))
        .filter_map(|s| parse_time(&s.submitted_at).map(|t| (s, t)))
        .collect())
}

/// Whether `role` may read the files of a submission by `team`: an admin,
/// or the team itself.
pub fn reads_files(role: &Role, team: i64) -> bool {
    match role {
        Role::Admin => true,
        Role::Team(id) => *id == team,
        _ => false,
    }
}

/// The `files` of submission `id` of contest `c`.
pub fn files(c: &Contest, id: &str) -> Value {
    json!([{
        "href": format!("contests/{}/submissions/{id}/files", c.slug),
        "filename": "files.zip", "mime": "application/zip",
    }])
}
