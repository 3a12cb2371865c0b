//! What a contest's standing is computed from: its tries, with their
//! results and group scores, as the scoreboard reads them. The boards
//! (`Store::contest_attempts`) and the awards the record follows
//! (`store/awards.rs`) read them alike.

use super::{ContestSubmission, Error};
use crate::contest::time::parse_time;
use crate::contest::{Attempt, Judged};
use crate::verdict::Verdict;

/// A contest's submissions, as `Store::contest_submissions` reads them
/// (bind the contest's id): a withdrawn try is none of them.
pub(super) const CONTEST_SUBMISSIONS: &str =
    "SELECT id, user_id, problem, language, submitted_at, status, verdict, score,
            time_ms, finished_at
     FROM submissions
     WHERE contest_id = ?1 AND user_id IS NOT NULL AND (?2 IS NULL OR user_id = ?2)
       AND withdrawn_reason IS NULL
     ORDER BY id";

/// [`CONTEST_SUBMISSIONS`] of some ids only (bind the contest's id and a
/// JSON array of the ids, as text).
pub(super) const SOME_CONTEST_SUBMISSIONS: &str =
    "SELECT id, user_id, problem, language, submitted_at, status, verdict, score,
            time_ms, finished_at
     FROM submissions
     WHERE contest_id = ? AND user_id IS NOT NULL AND withdrawn_reason IS NULL
       AND id IN (SELECT CAST(value AS BIGINT) FROM {json_items}(CAST(? AS {json})))
     ORDER BY id";

/// [`GROUP_SCORES`] of some submissions only (bind the contest's id and a
/// JSON array of the ids, as text).
pub(super) const SOME_GROUP_SCORES: &str =
    "SELECT g.submission_id, g.name, g.score FROM group_results g
     JOIN submissions s ON s.id = g.submission_id
     WHERE s.contest_id = ? AND s.status = 'done'
       AND s.id IN (SELECT CAST(value AS BIGINT) FROM {json_items}(CAST(? AS {json})))
     ORDER BY g.submission_id, g.position";

/// The kinds of record event that say a try changed and nothing else:
/// every other kind (a team, the settings, the problems, the state) may
/// change what the standing is computed from in another way.
pub(super) const TRY_KINDS: &[&str] = &[
    "submissions",
    "judgements",
    "runs",
    "awards",
    "clarifications",
];

/// The events of a contest's record after a version (bind the contest's id,
/// the version and at most how many to read: one more than
/// [`MOST_CHANGES`]), as [`tries_changed`] reads them.
pub(super) const EVENTS_AFTER: &str = "SELECT kind, object_id FROM contest_events
     WHERE contest_id = ? AND seq > ? ORDER BY seq LIMIT ?";

/// Past this many events since a kept standing, the whole history is read
/// again.
pub(super) const MOST_CHANGES: i64 = 2000;

/// The tries that `events` ([`EVENTS_AFTER`]: kind and object) say
/// changed, by id, when they say nothing else changed (no team, setting,
/// problem or state: see [`TRY_KINDS`]) and are not more than
/// [`MOST_CHANGES`]; `None` otherwise, for the whole history to be read
/// again.
pub(super) fn tries_changed(events: Vec<(String, Option<String>)>) -> Option<Vec<i64>> {
    if events.len() as i64 > MOST_CHANGES {
        return None;
    }
    let mut ids = Vec::new();
    for (kind, object) in events {
        if !TRY_KINDS.contains(&kind.as_str()) {
            return None;
        }
        if matches!(&kind[..], "submissions" | "judgements" | "runs") {
            ids.push(object.as_deref().and_then(crate::contest::clics::try_of)?);
        }
    }
    ids.sort_unstable();
    ids.dedup();
    Some(ids)
}

/// `attempts` (by id) with tries `ids` (sorted) as they are now: `fresh`,
/// those of them that are tries still (by id); the others gone.
pub fn bring_up(attempts: &mut Vec<Attempt>, ids: &[i64], fresh: Vec<Attempt>) {
    let mut fresh = fresh.into_iter().peekable();
    for &id in ids {
        let now = fresh.next_if(|a| a.id == id);
        match (attempts.binary_search_by_key(&id, |a| a.id), now) {
            (Ok(at), Some(a)) => attempts[at] = a,
            (Ok(at), None) => {
                attempts.remove(at);
            }
            (Err(at), Some(a)) => attempts.insert(at, a),
            (Err(_), None) => {}
        }
    }
}

/// The group scores of a contest's judged submissions, by submission
/// (bind the contest's id).
pub(super) const GROUP_SCORES: &str = "SELECT g.submission_id, g.name, g.score FROM group_results g
     JOIN submissions s ON s.id = g.submission_id
     WHERE s.contest_id = ? AND s.status = 'done'
     ORDER BY g.submission_id, g.position";

/// Every try as the scoreboard reads it, from a contest's submissions (by
/// id) and their group scores ([`GROUP_SCORES`]).
///
/// # Errors
/// A stored verdict or time that is not one.
pub(super) fn attempts_of(
    subs: Vec<ContestSubmission>,
    groups: Vec<(i64, String, i64)>,
) -> Result<Vec<Attempt>, Error> {
    let mut groups = groups.into_iter().peekable();
    let mut attempts = Vec::with_capacity(subs.len());
    for s in subs {
        let mut mine = Vec::new();
        while let Some((_, name, score)) = groups.next_if(|g| g.0 <= s.id) {
            mine.push((name, score.max(0) as u32));
        }
        let at_ms = parse_time(&s.submitted_at)
            .ok_or_else(|| Error::BadContest(s.id.to_string(), s.submitted_at.clone()))?;
        let result = match (&s.status[..], &s.verdict) {
            ("done", Some(v)) => Some(Judged {
                verdict: v
                    .parse::<Verdict>()
                    .map_err(|_| Error::BadVerdict(s.id, v.clone()))?,
                score: s.score.unwrap_or(0).max(0) as u32,
                groups: mine,
            }),
            _ => None,
        };
        attempts.push(Attempt {
            id: s.id,
            team: s.user_id,
            problem: s.problem,
            at_ms,
            result,
        });
    }
    Ok(attempts)
}
