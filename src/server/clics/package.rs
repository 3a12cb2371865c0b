//! A finished contest as a CLICS contest package (2023-06), what the ICPC
//! Resolver and other contest tools replay: every endpoint of the Contest
//! API as the admin role reads it (`contest.json`, `state.json`,
//! `problems.json`, `teams.json`, `submissions.json`, `judgements.json`,
//! ...), the complete event feed as `event-feed.ndjson`, `api.json`, and
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

use super::feed::{self, Key};
use super::objects::{self, Snapshot};
use super::{zip, ApiError, Role};
use crate::contest::time::{format_human, format_time, parse_time};
use crate::contest::{Contest, Phase};
use crate::site::AppState;

/// Why a contest is not exported.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("contest {contest} has not ended (it ends {ends}): its results are not final yet")]
    NotEnded { contest: String, ends: String },
    #[error("contest {contest}: {count} submission(s) not judged yet (first {first}); export once every result is in")]
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
    let snap = Snapshot::load(state, c, &role, now).await.map_err(api)?;
    let waiting: Vec<i64> = snap
        .stored()
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
    let (events, _) = feed::events(state, c, &role).await.map_err(api)?;
    // Final once the end passed and the last result (or answer) is in.
    let finalized = events
        .iter()
        .map(|((at, _, _), _)| *at)
        .fold(c.end_ms(), i64::max);
    let full = final_state(c, finalized);
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
    put(
        "api.json",
        &json!({
            "version": "2023-06",
            "version_url": "https://ccs-specs.icpc.io/2023-06/contest_api",
            "provider": {"name": "grundy", "version": env!("CARGO_PKG_VERSION")},
        }),
    );
    put("contest.json", &objects::contest(c));
    put("state.json", &full);
    put("access.json", &objects::access(&role));
    put(
        "judgement-types.json",
        &Value::Array(objects::judgement_types()),
    );
    put(
        "languages.json",
        &Value::Array(objects::languages(&state.ctx)),
    );
    put(
        "problems.json",
        &Value::Array(snap.problems(state, c).await.map_err(api)?),
    );
    put("teams.json", &Value::Array(snap.teams()));
    put("submissions.json", &Value::Array(snap.submissions(c)));
    put("judgements.json", &Value::Array(snap.judgements(c)));
    put("runs.json", &Value::Array(snap.runs(c)));
    put("clarifications.json", &Value::Array(snap.clarifications(c)));
    let board = crate::site::contests::board(state, c, role.viewer())
        .await
        .map_err(|e| api(ApiError::from(e)))?;
    let mut scoreboard = objects::scoreboard(c, &board, finalized);
    scoreboard["state"] = full.clone();
    put("scoreboard.json", &scoreboard);

    files.push((
        "event-feed.ndjson".to_string(),
        final_feed(events, &full).into_bytes(),
    ));
    for (s, at) in snap.stored() {
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
    let hidden = c.freeze_ms().is_some() && c.thawed_ms.is_none();
    st["end_of_updates"] = if hidden {
        Value::Null
    } else {
        json!(format_time(finalized.max(c.thawed_ms.unwrap_or(0))))
    };
    st
}

/// `full` with the moments after `at` not reached yet.
fn state_at(full: &Value, at: i64) -> Value {
    let mut st = full.clone();
    if let Some(map) = st.as_object_mut() {
        for v in map.values_mut() {
            if v.as_str().and_then(parse_time).is_some_and(|t| t > at) {
                *v = Value::Null;
            }
        }
    }
    st
}

/// The admin's feed with its state events replaced by the final ones:
/// each moment of `full` in its place, and `end_of_updates`, where there
/// is one, the very last line.
fn final_feed(events: Vec<(Key, Value)>, full: &Value) -> String {
    let mut out: Vec<(Key, Value)> = events
        .into_iter()
        .filter(|(_, e)| e["type"] != "state")
        .collect();
    let end = full["end_of_updates"].as_str().and_then(parse_time);
    let mut moments: Vec<i64> = full
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(|v| v.as_str().and_then(parse_time))
        .filter(|t| Some(*t) != end)
        .collect();
    moments.sort_unstable();
    moments.dedup();
    let rank = feed::rank("state");
    for at in moments {
        let mut st = state_at(full, at);
        st["end_of_updates"] = Value::Null;
        out.push(((at, rank, String::new()), feed::event("state", None, st)));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(end) = end {
        // After everything, even what happened in the same millisecond.
        out.push((
            (end, u8::MAX, String::new()),
            feed::event("state", None, full.clone()),
        ));
    }
    let refs: Vec<&(Key, Value)> = out.iter().collect();
    feed::lines(&refs)
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
