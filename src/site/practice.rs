//! What practice may reach while contests hold problems: a catalog problem
//! that a contest not yet ended holds is reached only through that contest
//! ([`super::policy::practice_open`]), and the clock the site reads for it.
//! Taking a practice submission ([`super::intake`]) and every edge's
//! problem lists ask here.

use crate::store::{self, Store};

/// Now, as Unix milliseconds.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Whether catalog problem `slug` is closed now to a non-admin outside
/// its contests: a contest that holds it has not ended
/// ([`super::policy::practice_open`]; before the end its problems are
/// reached through the contest). Every edge asks this (or
/// [`hidden_all`]): the problem lists and pages, the API's problems,
/// practice submissions, `/recent`.
///
/// # Errors
/// Database failures.
pub async fn hidden(store: &Store, slug: &str) -> Result<bool, store::Error> {
    let all = store.contests().await?;
    let holders = all
        .iter()
        .filter(|c| c.problems.iter().any(|p| p.slug == slug));
    Ok(!super::policy::practice_open(holders, now_ms()))
}

/// Every catalog problem [`hidden`] now.
///
/// # Errors
/// Database failures.
pub async fn hidden_all(store: &Store) -> Result<Vec<String>, store::Error> {
    let now = now_ms();
    let mut out: Vec<String> = store
        .contests()
        .await?
        .iter()
        .filter(|c| !super::policy::practice_open([*c], now))
        .flat_map(|c| c.problems.iter().map(|p| p.slug.clone()))
        .collect();
    out.sort();
    out.dedup();
    Ok(out)
}
