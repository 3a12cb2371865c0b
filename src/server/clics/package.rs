//! A finished contest as a CLICS contest package (2023-06), what the ICPC
//! Resolver and other contest tools replay: every endpoint of the Contest
//! API as the admin role reads it (`contest.json`, `state.json`,
//! `problems.json`, `teams.json`, `submissions.json`, `judgements.json`,
//! `awards.json`, ...), the complete event feed as `event-feed.ndjson`, `api.json`, and
//! each submission's files as `submissions/<id>/files.zip` (the file
//! reference in its object).
//!
//! Only a contest whose results are final is exported: ended, and every
//! submission judged. Its state is then `finalized` (what the Resolver
//! expects), and the feed ends with `end_of_updates` as the spec's last
//! event once nothing is hidden any more (thawed, or never frozen). A
//! contest still frozen is exported finalized without `end_of_updates`
//! (the spec allows that only after the thaw), with a warning: that is
//! the package the Resolver reveals the frozen results from.

use serde_json::{json, Value};

use super::feed;
use super::objects;
use super::{zip, ApiError, Role};
use crate::contest::time::{format_human, format_time};
use crate::contest::{Contest, Phase};
use crate::site::AppState;
use crate::store::{Event, Reader};

/// Why a contest is not exported.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("contest {contest} has not ended (it ends {ends}): its results are not final yet")]
    NotEnded { contest: String, ends: String },
    #[error(
        "contest {contest}: {} not judged yet (first {first}); export once every result is in, \
         or withdraw a try no worker can judge (`grundy contest withdraw {contest} ID --reason TEXT`)",
        crate::plural::count(.count, "submission", "submissions")
    )]
    Unjudged {
        contest: String,
        count: usize,
        first: i64,
    },
    #[error("contest {contest}: {message}")]
    Api { contest: String, message: String },
    #[error(transparent)]
    Zip(#[from] zip::TooLarge),
}

/// The files of a package, paths relative to its directory, and what a
/// person should know about it.
#[derive(Debug)]
pub struct Package {
    pub files: Vec<(String, Vec<u8>)>,
    pub warnings: Vec<String>,
    /// When the results were final (the package's time).
    pub finalized_ms: i64,
}

impl Package {
    /// The package as one ZIP archive, its files at the root.
    ///
    /// # Errors
    /// A package too large for a plain ZIP archive.
    pub fn zip(&self) -> Result<Vec<u8>, zip::TooLarge> {
        zip::write(&self.files, self.finalized_ms)
    }
}

/// Builds the package of contest `c` at `now`.
///
/// # Errors
/// [`Error::NotEnded`] before the end, [`Error::Unjudged`] while a
/// submission waits for its result, and the store's failures.
pub async fn build(state: &AppState, c: &Contest, now: i64) -> Result<Package, Error> {
    if c.phase(now) != Phase::Ended {
        return Err(Error::NotEnded {
            contest: c.slug.clone(),
            ends: format_human(c.end_ms()),
        });
    }
    let api = |e: ApiError| Error::Api {
        contest: c.slug.clone(),
        message: e.message,
    };
    let role = Role::Admin;
    let tries = objects::team_tries(state, c, None).await.map_err(api)?;
    let waiting: Vec<i64> = tries
        .iter()
        .filter(|(s, _)| s.status != "done")
        .map(|(s, _)| s.id)
        .collect();
    if let Some(&first) = waiting.first() {
        return Err(Error::Unjudged {
            contest: c.slug.clone(),
            count: waiting.len(),
            first,
        });
    }
    state
        .store
        .catch_up_contest(c.id)
        .await
        .map_err(|e| api(ApiError::from(e)))?;
    let mut events = Vec::new();
    loop {
        let after = events.last().map_or(0, |e: &Event| e.seq);
        let batch = state
            .store
            .contest_events(c.id, after, Reader::Admin, 1000)
            .await
            .map_err(|e| api(ApiError::from(e)))?;
        if batch.is_empty() {
            break;
        }
        events.extend(batch);
    }
    // Final once the end passed and the last change (a result, an answer)
    // is in.
    let finalized = c.finalized_ms.unwrap_or_else(|| {
        events
            .iter()
            .filter(|e| e.kind != "state")
            .map(|e| e.at_ms)
            .fold(c.end_ms(), i64::max)
    });
    // An admin's finalize is the state itself; before it, the package is
    // final for the Resolver as of the last change.
    let full = match c.finalized_ms {
        Some(at) => objects::state(c, now.max(at).max(c.thawed_ms.unwrap_or(0))),
        None => final_state(c, finalized),
    };
    let mut warnings = Vec::new();
    if full["end_of_updates"].is_null() {
        warnings.push(format!(
            "the scoreboard of {} is still frozen: the package is final for the Resolver to \
             reveal, without end_of_updates (export again after unfreezing for the archive)",
            c.slug
        ));
    }

    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    let mut put = |name: &str, value: &Value| {
        let mut text = serde_json::to_vec_pretty(value).unwrap_or_default();
        text.push(b'\n');
        files.push((name.to_string(), text));
    };
    put("api.json", &super::info());
    put("contest.json", &objects::contest(c));
    put("state.json", &full);
    put("access.json", &objects::access(c));
    put(
        "judgement-types.json",
        &Value::Array(objects::judgement_types()),
    );
    put(
        "languages.json",
        &Value::Array(objects::languages(&state.ctx)),
    );
    // Each endpoint as the record holds it: what the package's own feed
    // replays to.
    for kind in [
        "problems",
        "organizations",
        "groups",
        "teams",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
        "awards",
    ] {
        let objects = super::recorded(state, c, &role, (kind, None))
            .await
            .map_err(api)?;
        put(&format!("{kind}.json"), &Value::Array(objects));
    }
    let shown = crate::site::contests::board(state, c, role.viewer())
        .await
        .map_err(|e| api(ApiError::from(e)))?;
    let mut scoreboard = objects::scoreboard(c, &shown.board, finalized, true);
    scoreboard["state"] = full.clone();
    put("scoreboard.json", &scoreboard);

    files.push((
        "event-feed.ndjson".to_string(),
        final_feed(state, c, &role, &events, &full)
            .await
            .map_err(api)?
            .into_bytes(),
    ));
    for (s, at) in &tries {
        let source = files_zip(state, s.id, &s.language, *at)
            .await
            .map_err(|e| match e {
                FilesError::Api(e) => api(e),
                FilesError::Zip(e) => Error::Zip(e),
            })?;
        files.push((format!("submissions/{}/files.zip", s.id), source));
    }
    Ok(Package {
        files,
        warnings,
        finalized_ms: finalized,
    })
}

/// The state of ended contest `c` whose results were final at
/// `finalized`: `end_of_updates` once nothing is hidden any more, after
/// every other change.
pub fn final_state(c: &Contest, finalized: i64) -> Value {
    let mut st = objects::state(c, finalized.max(c.thawed_ms.unwrap_or(0)));
    st["finalized"] = json!(format_time(finalized));
    let hidden = c.state_frozen_ms().is_some() && c.thawed_ms.is_none();
    st["end_of_updates"] = if hidden {
        Value::Null
    } else {
        json!(format_time(finalized.max(c.thawed_ms.unwrap_or(0))))
    };
    st
}

/// The admin's feed as the contest's record holds it, in its order, with
/// `full` (the final state) the very last line: a state the record holds
/// with `end_of_updates` is left out, as nothing may follow it. The
/// record holds the awards as the standings left them.
async fn final_feed(
    state: &AppState,
    c: &Contest,
    role: &Role,
    events: &[Event],
    full: &Value,
) -> Result<String, ApiError> {
    let mut out = feed::fixed_events(state);
    let mut push = |v: &Value| {
        out.push_str(&v.to_string());
        out.push('\n');
    };
    let own = feed::own_team(state, role).await?;
    for e in events {
        let ends = e.kind == "state"
            && e.data
                .as_ref()
                .is_some_and(|d| !d["end_of_updates"].is_null());
        if !ends {
            push(&feed::render(state, c, (role, own.as_deref()), e).await?);
        }
    }
    // The final state, last: `finalized` for the Resolver, and
    // `end_of_updates` once nothing is hidden.
    // With a token of its own after the record's last event.
    let last = events.last().map_or(0, |e| e.seq);
    let token = feed::between_token(last, 1);
    push(&json!({"type": "state", "id": null, "data": full, "token": token}));
    Ok(out)
}

/// Why a submission's files could not be packed.
#[derive(Debug)]
pub enum FilesError {
    Api(ApiError),
    Zip(zip::TooLarge),
}

/// Submission `id`'s files as the Contest API gives them: a ZIP archive
/// with its source at the root, under the name the language saves it as
/// (`main.cpp`, `Main.java`), dated `ms` (when it was submitted).
///
/// # Errors
/// A submission not found, and the store's failures.
pub async fn files_zip(
    state: &AppState,
    id: i64,
    language: &str,
    ms: i64,
) -> Result<Vec<u8>, FilesError> {
    let sub = state
        .store
        .get(id)
        .await
        .map_err(|e| FilesError::Api(e.into()))?
        .ok_or_else(|| FilesError::Api(ApiError::not_found(format!("no submission {id}"))))?;
    let name = state
        .ctx
        .languages
        .get(language)
        .map(|l| l.config.source.clone())
        .unwrap_or_else(|_| format!("main.{language}"));
    zip::write(&[(name, sub.source)], ms).map_err(FilesError::Zip)
}
