//! What practice may reach while contests hold problems: a catalog problem
//! that a contest not yet ended holds is reached only through that contest
//! ([`super::policy::practice_open`]), and the clock the site reads for it.
//! A problem an admin hid is closed to practice too. Taking a practice
//! submission ([`super::intake`]) and every edge's problem lists ask here.

use crate::contest::{Contest, Phase};
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
    Ok(closed_by(store, slug).await?.is_some())
}

/// Why catalog problem `slug` is [`hidden`] now, if it is: the words a
/// refused caller reads instead of "unknown problem".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closed {
    /// A contest that has not started holds it; which one is not said
    /// (before the start no one learns which problems a contest holds).
    Upcoming,
    /// Contest `slug` (`name`) holds it and runs now: it is reached
    /// through the contest until the end.
    Running { slug: String, name: String },
    /// An admin hid it (`crate::site::catalog`): outside the contests
    /// that hold it, it is answered as a problem that does not exist.
    Hidden,
}

impl Closed {
    /// One line saying why `problem` cannot be reached outside a contest.
    pub fn message(&self, problem: &str) -> String {
        match self {
            Closed::Upcoming => format!(
                "problem {problem:?} is part of a contest that has not started; \
                 it opens to practice after that contest ends"
            ),
            Closed::Running { slug, name } => format!(
                "problem {problem:?} is part of contest {name} ({slug}), running now: \
                 its participants reach it through the contest; practice opens after the end"
            ),
            Closed::Hidden => format!("unknown problem {problem:?}"),
        }
    }
}

/// Why `slug` is closed to a non-admin now ([`hidden`]), or `None` when
/// it is open to practice. A running contest is named before one not yet
/// started (whose problems stay unsaid).
///
/// # Errors
/// Database failures.
pub async fn closed_by(store: &Store, slug: &str) -> Result<Option<Closed>, store::Error> {
    if store.hidden_catalog().await?.iter().any(|s| s == slug) {
        return Ok(Some(Closed::Hidden));
    }
    let now = now_ms();
    let all = store.contests().await?;
    let closing: Vec<&Contest> = all
        .iter()
        .filter(|c| c.problems.iter().any(|p| p.slug == slug))
        .filter(|c| !super::policy::practice_open([*c], now))
        .collect();
    if let Some(c) = closing.iter().find(|c| c.phase(now) == Phase::Running) {
        return Ok(Some(Closed::Running {
            slug: c.slug.clone(),
            name: c.name.clone(),
        }));
    }
    Ok((!closing.is_empty()).then_some(Closed::Upcoming))
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
    out.extend(store.hidden_catalog().await?);
    out.sort();
    out.dedup();
    Ok(out)
}
