//! The languages the pages offer in their submit forms: those that a
//! worker process alive now judges (as it announced them), one entry per
//! name (`cpp` and `cpp17` are one compiler and one name: the first id
//! stands for both). While no live worker has said what it judges (none
//! started yet, or one that announced nothing: it takes every language),
//! every configured language is offered; a try then waits with its reason
//! shown ([`super::waiting`]).

use std::collections::BTreeSet;

use super::AppState;
use crate::store;

/// A language as a submit form offers it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Offered {
    pub id: String,
    pub name: String,
    pub extensions: Vec<String>,
}

/// A worker process is taken for alive while its heartbeat is this many
/// beats old at most.
const ALIVE_BEATS: u32 = 3;

/// The languages to offer now, in the configuration's order of ids.
///
/// # Errors
/// Database failures.
pub async fn offered(state: &AppState) -> Result<Vec<Offered>, store::Error> {
    let alive_ms = (crate::worker::HEARTBEAT * ALIVE_BEATS).as_millis() as i64;
    let processes = state.store.worker_processes().await?;
    let alive: Vec<_> = processes
        .iter()
        .filter(|w| w.silent_ms <= alive_ms)
        .collect();
    // `None`: every language (no live worker said what it lacks).
    let judged: Option<BTreeSet<&str>> = match alive.iter().any(|w| w.languages.is_empty()) {
        true => None,
        false if alive.is_empty() => None,
        false => Some(
            alive
                .iter()
                .flat_map(|w| w.languages.lines())
                .filter_map(|line| line.split_whitespace().next())
                .collect(),
        ),
    };
    let mut names = BTreeSet::new();
    Ok(state
        .ctx
        .languages
        .iter()
        .filter(|l| judged.as_ref().is_none_or(|j| j.contains(l.id.as_str())))
        .filter(|l| names.insert(l.config.name.clone()))
        .map(|l| Offered {
            id: l.id.clone(),
            name: l.config.name.clone(),
            extensions: l.config.extensions.clone(),
        })
        .collect())
}
