//! The event feed (NDJSON): every object of the contest as an event, in
//! the order things happened, each with a token; `since_token` resumes
//! after one. The feed is derived from the store (the same objects as the
//! other endpoints, with the same freeze), so reconnecting anywhere sees
//! the same history. Streaming, it sends new events as they come and a
//! newline after every [`KEEP_ALIVE`] of silence, and ends once the
//! contest's results are final (`end_of_updates`), or at once with
//! `stream=false`. An open feed derives its events again only when what
//! they are derived from changed (the contest's stored version and its
//! state at the time, read in two cheap statements a poll), not on every
//! poll.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};

use super::objects::{self, Snapshot};
use super::{find, ApiError, Role};
use crate::contest::{Contest, Phase};
use crate::site::contests::now_ms;
use crate::site::AppState;

/// The longest silence on an open feed.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How often an open feed looks for news (judges in other processes).
const POLL: Duration = Duration::from_secs(1);

/// An event's place in the feed: time, kind, id.
pub(super) type Key = (i64, u8, String);

#[derive(Deserialize)]
pub struct FeedQuery {
    since_token: Option<String>,
    stream: Option<bool>,
}

pub async fn event_feed(
    State(state): State<AppState>,
    role: Role,
    Path(id): Path<String>,
    Query(q): Query<FeedQuery>,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    let role = role.within(&state, &c).await?;
    let since = match &q.since_token {
        Some(token) => Some(parse_token(token).ok_or_else(|| {
            ApiError::bad_request(
                "bad_token",
                format!("since_token {token:?} is not a token of this feed"),
            )
        })?),
        None => None,
    };
    let seen = fingerprint(&state, &c).await?;
    let (all, finished) = events(&state, &c, &role).await?;
    let first: Vec<&(Key, Value)> = all
        .iter()
        .filter(|(k, _)| since.as_ref().is_none_or(|s| k > s))
        .collect();
    let head = lines(&first);
    if q.stream == Some(false) {
        return Ok(ndjson(Body::from(head)));
    }
    let feed = Feed {
        last: first.last().map(|(k, _)| k.clone()).or(since),
        head: Some(head),
        done: finished,
        seen: Some(seen),
        state,
        slug: c.slug.clone(),
        role,
        quiet_since: tokio::time::Instant::now(),
    };
    Ok(ndjson(Body::from_stream(futures_util::stream::unfold(
        feed, next,
    ))))
}

fn ndjson(body: Body) -> Response {
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

/// An open feed's place.
struct Feed {
    state: AppState,
    slug: String,
    role: Role,
    /// The last event sent.
    last: Option<Key>,
    /// What to send first.
    head: Option<String>,
    /// Nothing more will come.
    done: bool,
    /// What the events were last derived from: while it is the same, a
    /// poll derives nothing again (the feed is a function of it).
    seen: Option<Fingerprint>,
    quiet_since: tokio::time::Instant,
}

/// What a contest's events are derived from: its stored history's version
/// and its state at the time (which moves with the clock alone).
type Fingerprint = (crate::store::ContestVersion, String);

async fn fingerprint(state: &AppState, c: &Contest) -> Result<Fingerprint, ApiError> {
    Ok((
        state.store.contest_version(c).await?,
        objects::state(c, now_ms()).to_string(),
    ))
}

/// The feed's next chunk: new events, a keep-alive newline, or the end.
async fn next(mut f: Feed) -> Option<(Result<String, std::io::Error>, Feed)> {
    if let Some(head) = f.head.take().filter(|h| !h.is_empty()) {
        f.quiet_since = tokio::time::Instant::now();
        return Some((Ok(head), f));
    }
    loop {
        if f.done || f.state.is_stopping() {
            return None;
        }
        let changes = f.state.worker.changes.clone();
        let changed = changes.any.notified();
        let c = f.state.store.contest(&f.slug).await.ok()??;
        // Read before the events, so a change while they are derived is
        // seen on the next poll.
        let print = fingerprint(&f.state, &c).await.ok()?;
        if f.seen.as_ref() != Some(&print) {
            let (all, finished) = events(&f.state, &c, &f.role).await.ok()?;
            f.seen = Some(print);
            let new: Vec<&(Key, Value)> = all
                .iter()
                .filter(|(k, _)| f.last.as_ref().is_none_or(|l| k > l))
                .collect();
            f.done = finished;
            if let Some((key, _)) = new.last() {
                f.last = Some(key.clone());
                f.quiet_since = tokio::time::Instant::now();
                return Some((Ok(lines(&new)), f));
            }
        }
        if f.done {
            return None;
        }
        if f.quiet_since.elapsed() >= KEEP_ALIVE {
            f.quiet_since = tokio::time::Instant::now();
            return Some((Ok("\n".to_string()), f));
        }
        let _ = tokio::time::timeout(POLL, changed).await;
    }
}

fn token(key: &Key) -> String {
    format!("{}.{}.{}", key.0, key.1, key.2)
}

fn parse_token(text: &str) -> Option<Key> {
    let mut parts = text.splitn(3, '.');
    Some((
        parts.next()?.parse().ok()?,
        parts.next()?.parse().ok()?,
        parts.next()?.to_string(),
    ))
}

pub(super) fn lines(events: &[&(Key, Value)]) -> String {
    let mut out = String::new();
    for (key, event) in events {
        let mut event = event.clone();
        event["token"] = json!(token(key));
        out.push_str(&event.to_string());
        out.push('\n');
    }
    out
}

/// The kinds in the order the feed gives objects of the same moment.
const KINDS: &[&str] = &[
    "contest",
    "judgement-types",
    "languages",
    "problems",
    "teams",
    "state",
    "submissions",
    "judgements",
    "runs",
    "clarifications",
];

pub(super) fn rank(kind: &str) -> u8 {
    KINDS.iter().position(|k| *k == kind).unwrap_or(KINDS.len()) as u8
}

/// One event of the feed (its token comes with [`lines`]).
pub(super) fn event(kind: &str, id: Option<String>, data: Value) -> Value {
    json!({"type": kind, "id": id, "data": data})
}

/// Every event `role` may see now, in order, and whether the contest's
/// updates have ended.
pub(super) async fn events(
    state: &AppState,
    c: &Contest,
    role: &Role,
) -> Result<(Vec<(Key, Value)>, bool), ApiError> {
    let now = now_ms();
    let snap = Snapshot::load(state, c, role, now).await?;
    let mut out: Vec<(Key, Value)> = Vec::new();
    let mut push = |at: i64, kind: &'static str, data: Value| {
        let id = match kind {
            "contest" | "state" => None,
            _ => data["id"].as_str().map(String::from),
        };
        let key = (at, rank(kind), id.clone().unwrap_or_default());
        out.push((key, event(kind, id, data)));
    };
    push(0, "contest", objects::contest(c));
    for t in objects::judgement_types() {
        push(0, "judgement-types", t);
    }
    for l in objects::languages(&state.ctx) {
        push(0, "languages", l);
    }
    // The problems come at the start (before it, to admins only).
    let problems_at = if matches!(role, Role::Admin) {
        0
    } else {
        c.start_ms
    };
    for p in snap.problems(state, c).await? {
        push(problems_at, "problems", p);
    }
    for t in snap.teams() {
        push(0, "teams", t);
    }
    let st = objects::state(c, now);
    let mut moments: Vec<i64> = ["started", "frozen", "ended", "thawed", "finalized"]
        .iter()
        .filter_map(|k| st[*k].as_str().and_then(crate::contest::time::parse_time))
        .collect();
    moments.sort_unstable();
    moments.dedup();
    for at in moments {
        push(at, "state", objects::state(c, at));
    }
    for (at, kind, data) in snap.timed(c) {
        push(at, kind, data);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    let finished = !st["end_of_updates"].is_null() && c.phase(now) == Phase::Ended;
    Ok((out, finished))
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_round_trip() {
        let key = (1_800_000_000_123, 6, "17".to_string());
        assert_eq!(super::parse_token(&super::token(&key)), Some(key));
        assert_eq!(super::parse_token("nonsense"), None);
    }
}
