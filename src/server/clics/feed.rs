//! The event feed (NDJSON), streamed from the contest's record
//! ([`crate::store::record`]): each event is read once from the database,
//! in the order of its number, which is its token. `since_token` resumes
//! after one (400 for a token the contest has not reached); an open feed
//! reads only what came after the last event it sent, so a change costs
//! an open feed the events since, never the history. The record is
//! brought up to the database's clock (the contest started, froze,
//! ended) before it is read. Streaming, the feed sends a newline after
//! every [`KEEP_ALIVE`] of silence, ends once `end_of_updates` is sent, at
//! once with `stream=false`, and as soon as its credentials stop being
//! valid (a token revoked, an account disabled or its password changed).
//! Open feeds are counted per client place (an IPv4 address or an IPv6
//! /64, [`Place`]) and in all (`[server] feeds_per_address`,
//! `max_feeds`), so they cannot take the
//! connections the rest of the server needs.

use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::{header, Extensions};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{json, Value};

use super::auth::Signed;
use super::objects;
use super::{find, ApiError, Role};
use crate::contest::Contest;
use crate::site::place::Place;
use crate::site::policy::{Object, Who};
use crate::site::signin::{self, Credential};
use crate::site::state::{Chunk, FeedSlot, Rendered, Shared};
use crate::site::AppState;
use crate::store::{Event, Reader};

/// The longest silence on an open feed.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// How often an open feed looks for news (judges in other processes) and
/// checks its credentials: on the process's beats of this length
/// ([`Beats`]).
const POLL: Duration = Duration::from_secs(1);
/// Events read from the database at once.
const BATCH: i64 = 500;
/// Lines the open feeds of one contest and reader share.
const SHARED_LINES: usize = 2048;

#[derive(Deserialize)]
pub struct FeedQuery {
    since_token: Option<String>,
    stream: Option<bool>,
}

pub async fn event_feed(
    State(state): State<AppState>,
    Signed { role, credential }: Signed,
    Path(id): Path<String>,
    Query(q): Query<FeedQuery>,
    extensions: Extensions,
) -> Result<Response, ApiError> {
    let c = find(&state, &id).await?;
    let role = role.within(&state, &c).await?;
    super::reaches(&c, &role, crate::site::policy::Object::Board)?;
    state.store.catch_up_contest(c.id).await?;
    let head = state.store.contest_version(&c).await?.0;
    let since = match &q.since_token {
        Some(token) => Some(
            record_token(token)
                .filter(|(t, _)| (0..=head).contains(t))
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "bad_token",
                        format!("since_token {token:?} is not a token of this feed"),
                    )
                })?,
        ),
        None => None,
    };
    let stream = q.stream != Some(false);
    let slot = if stream {
        let address = Place::of_request(&extensions);
        Some(
            state
                .feeds
                .take(address)
                .map_err(|full| ApiError::new(full.status(), "too_many_feeds", full.to_string()))?,
        )
    } else {
        None
    };
    let reader = reader(&role);
    let shared = (stream && matches!(reader, Reader::Admin | Reader::Public)).then(|| {
        let (shared, news, new) = state.feeds.share(c.id, reader);
        if new {
            tokio::spawn(pump(state.clone(), c.clone(), reader, shared.clone()));
        }
        (shared, news)
    });
    let mut feed = Feed {
        last: since.map_or(0, |(seq, _)| seq),
        head: Vec::new(),
        done: false,
        reader,
        shared,
        role,
        credential,
        contest: c,
        state,
        quiet_since: tokio::time::Instant::now(),
        checked: Beats::of(tokio::time::Instant::now()),
        caught_up: crate::site::contests::now_ms(),
        _slot: slot,
    };
    // The judge's settings first, or those after the one a reader resumes
    // from.
    let settings_read = match since {
        None => Some(0),
        Some((0, line)) => line,
        Some(_) => None,
    };
    if let Some(read) = settings_read {
        for l in fixed_events(&feed.state).lines().skip(read) {
            feed.head.extend_from_slice(l.as_bytes());
            feed.head.push(b'\n');
        }
    }
    // Everything up to now: the whole answer when not streaming.
    loop {
        let lines = feed.read().await?;
        feed.head.extend_from_slice(&lines);
        if lines.is_empty() || feed.done {
            break;
        }
    }
    if !stream {
        return Ok(ndjson(Body::from(std::mem::take(&mut feed.head))));
    }
    Ok(ndjson(Body::from_stream(futures_util::stream::unfold(
        feed, next,
    ))))
}

fn ndjson(body: Body) -> Response {
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

/// Who reads, as the record knows readers.
pub(super) fn reader(role: &Role) -> Reader {
    match role {
        Role::Admin => Reader::Admin,
        Role::Team(id) => Reader::Team(*id),
        Role::User(_) | Role::Public => Reader::Public,
    }
}

/// The record's number in a token: `N` is event `N` of the record; `N.K`
/// the `K`th line sent after it that is no event of the record (the
/// judge's settings before event 1, a package's closing lines), which
/// resumes after `N` as well.
fn record_token(token: &str) -> Option<(i64, Option<usize>)> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match token.split_once('.') {
        None if digits(token) => Some((token.parse().ok()?, None)),
        Some((seq, line)) if digits(seq) && digits(line) => {
            Some((seq.parse().ok()?, Some(line.parse().ok()?)))
        }
        _ => None,
    }
}

/// The token of the `k`th line (from 1) sent after event `seq` that is no
/// event of the record ([`record_token`]).
pub(super) fn between_token(seq: i64, k: usize) -> String {
    format!("{seq}.{k}")
}

/// The events that are no change of the contest but the judge's own
/// settings (judgement types, languages), sent first to a new reader,
/// with tokens before the record's first event.
pub(super) fn fixed_events(state: &AppState) -> String {
    let mut out = String::new();
    let mut k = 0;
    let mut put = |kind: &str, data: Value| {
        k += 1;
        let event =
            json!({"type": kind, "id": data["id"], "data": data, "token": between_token(0, k)});
        out.push_str(&event.to_string());
        out.push('\n');
    };
    for t in objects::judgement_types() {
        put("judgement-types", t);
    }
    for l in objects::languages(&state.ctx) {
        put("languages", l);
    }
    out
}

/// An open feed's place.
struct Feed {
    state: AppState,
    contest: Contest,
    role: Role,
    reader: Reader,
    credential: Credential,
    /// What it shares with the other open feeds of its contest and
    /// reader, and the news of it: the public's and admins' streaming
    /// feeds have it; a team's reads its own.
    shared: Option<(Arc<Shared>, tokio::sync::watch::Receiver<u64>)>,
    /// The token of the last event read.
    last: i64,
    /// What to send first.
    head: Vec<u8>,
    /// `end_of_updates` was sent: nothing more will come.
    done: bool,
    quiet_since: tokio::time::Instant,
    /// The beat ([`Beats`]) in which the credentials were last checked.
    checked: u64,
    /// When (this server's clock) the record was last brought up to the
    /// clock: a moment of the contest passed since then asks for it again.
    caught_up: i64,
    /// Counts this feed among the open ones until it is dropped.
    _slot: Option<FeedSlot>,
}

impl Feed {
    /// Whether the credential the feed was opened with still signs in as
    /// it did ([`signin::holder`], the sign-in's own check): a revoked
    /// token, a disabled account, a new password or a lost admin role ends
    /// the feed. The public's feed has nothing to check.
    async fn still_signed(&self) -> Result<bool, crate::store::Error> {
        if self.credential == Credential::Anonymous {
            return Ok(true);
        }
        Ok(signin::holder(&self.state.store, &self.credential)
            .await?
            .is_some_and(|u| u.is_admin == matches!(self.role, Role::Admin)))
    }

    /// The next events after `last`, as lines (empty when none).
    async fn read(&mut self) -> Result<Bytes, ApiError> {
        let chunk = match self.read_shared() {
            Some(chunk) => chunk,
            None => Chunk::join(self.last, &self.read_own().await?),
        };
        self.last = chunk.last;
        self.done |= chunk.ends;
        if chunk.settings && !chunk.ends {
            // Settings changed: the clock's next moments with them.
            if let Some(c) = self.state.store.contest_by_id(self.contest.id).await? {
                self.contest = c;
            }
        }
        Ok(chunk.text)
    }

    /// Whether the contest's board is still open to this feed's reader, as
    /// the database says now ([`Feed::contest_now`]): an admin may close
    /// it, or drop a team, while the feed is open.
    async fn still_open(&mut self) -> Result<bool, crate::store::Error> {
        let Some(c) = self.contest_now().await? else {
            return Ok(false);
        };
        let who = match self.role {
            Role::Team(id) if !self.state.store.takes_part(&c, id).await? => Who::Other,
            _ => self.role.who(),
        };
        let open = crate::site::contests::may(&c, who, Object::Board);
        self.contest = c;
        Ok(open)
    }

    /// The contest as the database has it now; for the feeds that share
    /// lines, as last read for all of them ([`pump`]).
    async fn contest_now(&self) -> Result<Option<Contest>, crate::store::Error> {
        if let Some((shared, _)) = &self.shared {
            if let Some(c) = shared.lock().contest.clone() {
                return Ok(c);
            }
        }
        self.state.store.contest_by_id(self.contest.id).await
    }

    /// The next events from the database, rendered for this feed alone.
    async fn read_own(&self) -> Result<Vec<Rendered>, ApiError> {
        let events = self
            .state
            .store
            .contest_events(self.contest.id, self.last, self.reader, BATCH)
            .await?;
        let own = own_team(&self.state, &self.role).await?;
        let mut out = Vec::with_capacity(events.len());
        for e in &events {
            let r = rendered(&self.state, &self.contest, (&self.role, own.as_deref()), e);
            out.push(r.await?);
        }
        Ok(out)
    }

    /// The next events from the lines that the open feeds of the same
    /// contest and reader share ([`pump`]): joined once for every feed
    /// that is as far (most are: they wake together). `None` when this
    /// feed is behind what they keep (it reads its own way until it
    /// catches up) or reads for one team.
    fn read_shared(&self) -> Option<Chunk> {
        let (shared, _) = self.shared.as_ref()?;
        let mut tail = shared.lock();
        if !tail.started || self.last < tail.base {
            return None;
        }
        if let Some(joined) = tail.joined.as_ref().filter(|j| j.after == self.last) {
            return Some(joined.clone());
        }
        // The lines are in the order of their numbers: this feed's are
        // found without looking at those it sent already.
        let from = tail.lines.partition_point(|l| l.seq <= self.last);
        let chunk = Chunk::join(self.last, tail.lines.range(from..));
        // Kept for the feeds as far as this one; a feed that has sent
        // everything keeps nothing (it would put out the one the others
        // still want).
        if !chunk.text.is_empty() {
            tail.joined = Some(chunk.clone());
        }
        Some(chunk)
    }
}

/// Reads the record for the open feeds of contest `c` and `reader` that
/// share `shared`, once for all of them, and tells them: on each beat
/// ([`Beats`]: for judges in other processes, and for the feeds' checks)
/// and after each change, but for changes at most once a beat: a change
/// in the beat of the last read a change asked for is read on the next
/// beat, with whatever else came meanwhile. A change after a quiet beat
/// goes out at once; under a stream of changes, each feed wakes and
/// writes once a second. (Each write costs the server more than the
/// events in it: with 120 feeds open, the median of three pairs of
/// `cargo bench --bench contest` at 60× gave them +20% CPU per change at
/// one read every 200 ms, +12% at one a second, +10% once the feeds woke
/// on its word alone.) While it runs, its word is what wakes the feeds,
/// so that a beat wakes each of them once, not once for the beat and
/// again for the news. It brings the record up to the clock and reads
/// the contest for the feeds' checks as well. It ends once no feed is
/// open.
async fn pump(state: AppState, mut c: Contest, reader: Reader, shared: Arc<Shared>) {
    let role = match reader {
        Reader::Admin => Role::Admin,
        _ => Role::Public,
    };
    let _served = Served {
        state: state.clone(),
        contest: c.id,
        reader,
        shared: shared.clone(),
    };
    let mut caught_up = crate::site::contests::now_ms();
    let changes = state.worker.changes.clone();
    // The beat of the last read a change asked for, and of the last news.
    let (mut asked_in, mut told) = (None, None);
    loop {
        // Made before reading: a change meanwhile is read next time.
        let changed = changes.any.notified();
        let read_in = Beats::of(tokio::time::Instant::now());
        let news = pump_once(&state, &mut c, &role, reader, &shared, &mut caught_up)
            .await
            .unwrap_or_else(|e| {
                tracing::warn!(contest = %c.slug, "reading the record for the open feeds: {}", e.message);
                false
            });
        // Told on every beat, news or not: the feeds wake for their
        // checks then, once, and not on timers of their own as well.
        if news || told != Some(read_in) {
            told = Some(read_in);
            shared.news.send_modify(|n| *n = n.wrapping_add(1));
        }
        if state.is_stopping() || state.feeds.unshare(c.id, reader) {
            return;
        }
        let next_beat = Beats::after(tokio::time::Instant::now());
        if tokio::time::timeout_at(next_beat, changed).await.is_ok() {
            let now = tokio::time::Instant::now();
            if asked_in == Some(Beats::of(now)) {
                tokio::time::sleep_until(Beats::after(now)).await;
            }
            asked_in = Some(Beats::of(tokio::time::Instant::now()));
        }
    }
}

/// Held by [`pump`] while it runs. However it ends (no feed open, the
/// server stopping, a panic), the feeds still open read their own way from
/// then on, and the next feed to open starts a new one.
struct Served {
    state: AppState,
    contest: i64,
    reader: Reader,
    shared: Arc<Shared>,
}

impl Drop for Served {
    fn drop(&mut self) {
        self.shared.lock().started = false;
        self.state
            .feeds
            .forget_shared(self.contest, self.reader, &self.shared);
        self.shared.news.send_modify(|n| *n = n.wrapping_add(1));
    }
}

/// One read of [`pump`]: the clock's moments, the contest, the events
/// since the last read, rendered once and kept for the feeds. Whether
/// there is news for them (events, or the contest changed).
async fn pump_once(
    state: &AppState,
    c: &mut Contest,
    role: &Role,
    reader: Reader,
    shared: &Shared,
    caught_up: &mut i64,
) -> Result<bool, ApiError> {
    // The clock's moments (started, frozen, ended) are written by whoever
    // reads first; each is written once.
    let now = crate::site::contests::now_ms();
    if !crate::contest::clics::same_state(c, now, *caught_up) {
        state.store.catch_up_contest(c.id).await?;
        *caught_up = now;
    }
    let read = state.store.contest_by_id(c.id).await?;
    if let Some(now) = &read {
        *c = now.clone();
    }
    let (started, mut head) = {
        let tail = shared.lock();
        (tail.started, tail.head)
    };
    if !started {
        // It keeps what comes after the record's head now: a feed that
        // is behind reads its own way up to it.
        head = state.store.contest_version(c).await?.0;
    }
    let base = head;
    let mut lines = Vec::new();
    loop {
        let events = state
            .store
            .contest_events(c.id, head, reader, BATCH)
            .await?;
        for e in &events {
            // Admins' and the public's: no team of their own.
            let r = rendered(state, c, (role, None), e).await?;
            head = r.seq;
            lines.push(r);
        }
        if (events.len() as i64) < BATCH {
            break;
        }
    }
    let mut tail = shared.lock();
    let news = !started || !lines.is_empty() || tail.contest.as_ref() != Some(&read);
    if !started {
        tail.started = true;
        tail.base = base;
    }
    tail.head = head;
    if !lines.is_empty() {
        tail.lines.extend(lines);
        tail.joined = None;
    }
    while tail.lines.len() > SHARED_LINES {
        if let Some(gone) = tail.lines.pop_front() {
            tail.base = gone.seq;
        }
    }
    tail.contest = Some(read);
    Ok(news)
}

/// Event `e` as `role` reads it, as one line with what the feed needs to
/// know of it.
async fn rendered(
    state: &AppState,
    c: &Contest,
    reader: (&Role, Option<&str>),
    e: &Event,
) -> Result<Rendered, ApiError> {
    Ok(Rendered {
        seq: e.seq,
        line: render(state, c, reader, e).await?.to_string().into(),
        ends: e.kind == "state"
            && e.data
                .as_ref()
                .is_some_and(|d| !d["end_of_updates"].is_null()),
        settings: matches!(e.kind.as_str(), "contest" | "state"),
    })
}

/// The CLICS id of the team `role` reads for, if any: read once per
/// request or batch of events, for [`render`] to tell a team its own tries.
///
/// # Errors
/// The store's failures.
pub(super) async fn own_team(state: &AppState, role: &Role) -> Result<Option<String>, ApiError> {
    Ok(match role {
        Role::Team(account) => state.store.team_id_of(*account).await?,
        _ => None,
    })
}

/// Event `e` of contest `c` as `role` reads it, with its token: a
/// problem with what its package says, a submission with its files where
/// the role may read them (`own`: the reader's team, [`own_team`]).
pub(super) async fn render(
    state: &AppState,
    c: &Contest,
    (role, own): (&Role, Option<&str>),
    e: &Event,
) -> Result<Value, ApiError> {
    let mut data = e.data.clone();
    match (e.kind.as_str(), data.as_mut()) {
        ("problems", Some(p)) => objects::fill_problem(state, c, p).await?,
        ("submissions", Some(s)) => {
            let language =
                objects::clics_language(&state.ctx, s["language_id"].as_str().unwrap_or_default());
            s["language_id"] = json!(language);
            // The try's team by its CLICS id: the reader's own team's?
            let reads = match role {
                Role::Admin => true,
                Role::Team(_) => own.is_some() && s["team_id"].as_str() == own,
                _ => false,
            };
            if reads {
                s["files"] = objects::files(c, s["id"].as_str().unwrap_or_default());
            }
        }
        ("runs", Some(r)) => {
            let figures = crate::site::contests::may(
                c,
                role.who(),
                crate::site::policy::Object::SecretFigures,
            );
            crate::contest::clics::run_as_read(r, figures);
        }
        _ => {}
    }
    Ok(json!({
        "type": e.kind, "id": e.id, "data": data, "token": e.seq.to_string(),
    }))
}

/// The feed's next chunk: new events, a keep-alive newline, or the end.
async fn next(mut f: Feed) -> Option<(Result<Bytes, std::io::Error>, Feed)> {
    if !f.head.is_empty() {
        f.quiet_since = tokio::time::Instant::now();
        let head = std::mem::take(&mut f.head);
        return Some((Ok(head.into()), f));
    }
    loop {
        if f.done || f.state.is_stopping() {
            return None;
        }
        let beat = Beats::of(tokio::time::Instant::now());
        if beat > f.checked {
            f.checked = beat;
            if !f.still_signed().await.ok()? || !f.still_open().await.ok()? {
                return None;
            }
        }
        // A team's feed waits for any change of the judge; made before
        // reading, so that a change meanwhile wakes it.
        let changes = f.state.worker.changes.clone();
        let changed = f.shared.is_none().then(|| changes.any.notified());
        match &mut f.shared {
            // What the lines hold now is read now.
            Some((_, news)) => {
                news.borrow_and_update();
            }
            // The clock's moments (started, frozen, ended) are written by
            // whoever reads first; each is written once.
            None => {
                let now = crate::site::contests::now_ms();
                if !crate::contest::clics::same_state(&f.contest, now, f.caught_up) {
                    f.state.store.catch_up_contest(f.contest.id).await.ok()?;
                    f.caught_up = now;
                }
            }
        }
        let lines = f.read().await.ok()?;
        if !lines.is_empty() {
            f.quiet_since = tokio::time::Instant::now();
            return Some((Ok(lines), f));
        }
        if f.quiet_since.elapsed() >= KEEP_ALIVE {
            f.quiet_since = tokio::time::Instant::now();
            return Some((Ok(Bytes::from_static(b"\n")), f));
        }
        let next_beat = Beats::after(tokio::time::Instant::now());
        match &mut f.shared {
            // The shared reader tells its feeds on every beat, a few
            // milliseconds into it: their own time is only a fallback,
            // half a beat later, while it runs.
            Some((shared, news)) => {
                let by = if shared.lock().started {
                    next_beat + POLL / 2
                } else {
                    next_beat
                };
                let _ = tokio::time::timeout_at(by, news.changed()).await;
            }
            None => {
                if let Some(changed) = changed {
                    let _ = tokio::time::timeout_at(next_beat, changed).await;
                }
            }
        }
    }
}

/// The beats of [`POLL`] that every open feed of the process keeps: a
/// feed with no news wakes on the next one (to check its credentials, or
/// to send a keep-alive), never in between; one that shares a reader
/// ([`pump`]) wakes when the reader tells it, a few milliseconds into
/// the beat. An idle feed's checks are little work, but waking the
/// server's threads for them is much more, and feeds that each kept
/// their own second would wake them at as many moments: 120 idle feeds
/// added 10.7% to the server's CPU per change of
/// a busy contest that way (`cargo bench --bench contest` at 60×, with
/// the feeds' reads stopped), and nothing measurable (-2.8%) on shared
/// beats, where they all wake together.
struct Beats;

impl Beats {
    /// When the beats started: the first time a feed asked.
    fn epoch() -> tokio::time::Instant {
        static EPOCH: std::sync::OnceLock<tokio::time::Instant> = std::sync::OnceLock::new();
        *EPOCH.get_or_init(tokio::time::Instant::now)
    }

    /// The number of the beat that `t` falls in.
    fn of(t: tokio::time::Instant) -> u64 {
        let since = t.saturating_duration_since(Self::epoch());
        u64::try_from(since.as_nanos() / POLL.as_nanos()).unwrap_or(u64::MAX)
    }

    /// When the beat after the one `t` falls in begins.
    fn after(t: tokio::time::Instant) -> tokio::time::Instant {
        let next = Self::of(t).saturating_add(1);
        Self::epoch() + POLL * u32::try_from(next).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::time::Instant;

    /// Feeds that wait from different moments of one beat wake at one
    /// moment: the next beat's start, within a [`POLL`] of each of them.
    #[test]
    fn feeds_waiting_from_different_moments_wake_together() {
        let start = Beats::after(Instant::now());
        let next = start + POLL;
        for ms in [0, 1, 250, 500, 999] {
            let t = start + Duration::from_millis(ms);
            assert_eq!(Beats::of(t), Beats::of(start), "{ms} ms into the beat");
            assert_eq!(Beats::after(t), next, "{ms} ms into the beat");
        }
        assert_eq!(Beats::of(next), Beats::of(start) + 1);
        assert_eq!(Beats::after(next), next + POLL);
    }
}
