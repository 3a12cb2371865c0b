//! Each contest's record: the ordered list of every change a client of the
//! Contest API can see (the contest and its state, problems, teams,
//! submissions, judgements, runs, clarifications), appended in the very
//! transaction that makes the change. Feeds and the contest package read
//! it; nothing derives a contest's history again.
//!
//! **Order.** An event's number is `contests.event_seq` bumped by one. The
//! bump is the writer's first statement about the contest, so it holds the
//! contest's row (PostgreSQL: a row lock until commit) or the database
//! (SQLite: one writer at a time) until it commits. A later writer waits
//! for it, and takes the next number only after the earlier one is
//! committed: numbers commit in their order, and a reader that read up to
//! number N and resumes after it cannot miss an event that commits later
//! with a smaller number, since there is none. The bumped number is also
//! the contest's version, which the boards are cached on.
//!
//! **Who reads what.** Each event has an audience: everyone; admins only
//! (a contest's problems before it starts); one team and the admins (a
//! team's question, a result the freeze seals); or everyone but the admins
//! and that team, who read it earlier (a sealed result revealed at the
//! unfreeze, a question once answered to all, the problems at the start).
//! The unfreeze appends the revealed results as new events: nothing is
//! rewritten in the past.

use serde_json::Value;

use super::db::{on_db, sql};
use super::{Error, Store};
use crate::contest::clics::{self, Outcome, Try};
use crate::contest::{Contest, Viewer};
use crate::verdict::Verdict;

/// Who reads an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    All,
    Admin,
    /// Admins and one team.
    Team(i64),
    /// Everyone but admins and, where named, one team.
    Others(Option<i64>),
}

impl Audience {
    fn as_str(self) -> &'static str {
        match self {
            Audience::All => "all",
            Audience::Admin => "admin",
            Audience::Team(_) => "team",
            Audience::Others(_) => "others",
        }
    }

    fn team(self) -> Option<i64> {
        match self {
            Audience::Team(t) => Some(t),
            Audience::Others(t) => t,
            _ => None,
        }
    }
}

/// An event to append.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub kind: &'static str,
    pub id: Option<String>,
    /// `None`: the object was deleted.
    pub data: Option<Value>,
    pub audience: Audience,
}

impl NewEvent {
    pub(super) fn of(kind: &'static str, data: Value, audience: Audience) -> NewEvent {
        let id = match kind {
            "contest" | "state" => None,
            _ => data["id"].as_str().map(String::from),
        };
        NewEvent {
            kind,
            id,
            data: Some(data),
            audience,
        }
    }
}

/// An event as read back.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// Its number in the contest's record: the feed's token.
    pub seq: i64,
    pub kind: String,
    pub id: Option<String>,
    pub data: Option<Value>,
    /// The database's clock when it was written.
    pub at_ms: i64,
}

/// Who reads a contest's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reader {
    Admin,
    Team(i64),
    Public,
}

/// A contest's version: the number of its last event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ContestVersion(pub i64);

/// What happened to a try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TryChange {
    /// Stored: its submission and its judgement begun.
    Made,
    /// Judged (or given up on, as a judging error).
    Judged,
    /// Sent back to be judged again.
    Reset,
}

/// Locks contest `$cid`'s record within `$tx` (the first statement about
/// it in the transaction) and reads the contest as it is there: `None`
/// when there is none. A macro: the transaction's type differs between the
/// databases.
macro_rules! locked_contest {
    ($tx:ident, $d:ident, $cid:expr) => {{
        let cid: i64 = $cid;
        sqlx::query(&$crate::store::db::sql(
            $d,
            "UPDATE contests SET event_seq = event_seq WHERE id = ?",
        ))
        .bind(cid)
        .execute(&mut *$tx)
        .await?;
        let row = sqlx::query_as::<_, $crate::store::contest_row::ContestRow>(
            &$crate::store::db::sql($d, $crate::store::contest_row::CONTEST_ROW),
        )
        .bind(cid)
        .fetch_optional(&mut *$tx)
        .await?;
        match row {
            None => None,
            Some(row) => {
                let problems =
                    sqlx::query_as::<_, (String, String, Option<String>)>(&$crate::store::db::sql(
                        $d,
                        "SELECT label, problem, rgb FROM contest_problems WHERE contest_id = ?
                     ORDER BY position",
                    ))
                    .bind(cid)
                    .fetch_all(&mut *$tx)
                    .await?;
                Some(row.into_contest(problems)?)
            }
        }
    }};
}
pub(super) use locked_contest;

/// The most events one statement appends: eight values each, well within
/// what either database binds in one statement.
pub(super) const EVENTS_PER_STATEMENT: usize = 500;

/// The statement that appends `rows` events (each: contest, number,
/// kind, object, data, audience, team), stamped with the database's clock.
pub(super) fn insert_events(d: super::db::Dialect, rows: usize) -> std::borrow::Cow<'static, str> {
    let row = "(?, ?, ?, ?, ?, ?, ?, {now_ms})";
    let mut text = String::from(
        "INSERT INTO contest_events (contest_id, seq, kind, object_id, data, audience, team_id,
                                     at_ms) VALUES ",
    );
    for k in 0..rows {
        if k > 0 {
            text.push_str(", ");
        }
        text.push_str(row);
    }
    super::db::sql(d, text)
}

/// Appends `$events` (a slice of [`NewEvent`]) to contest `$cid`'s record
/// within `$tx`, which must hold it ([`locked_contest!`]): their numbers
/// taken in one statement, the events written in one more (per
/// [`EVENTS_PER_STATEMENT`]), however many there are.
macro_rules! append_events {
    ($tx:ident, $d:ident, $cid:expr, $events:expr) => {{
        let cid: i64 = $cid;
        let events: &[$crate::store::record::NewEvent] = $events;
        for chunk in events.chunks($crate::store::record::EVENTS_PER_STATEMENT) {
            let n = chunk.len() as i64;
            let last = sqlx::query_scalar::<_, i64>(&$crate::store::db::sql(
                $d,
                "UPDATE contests SET event_seq = event_seq + ? WHERE id = ? RETURNING event_seq",
            ))
            .bind(n)
            .bind(cid)
            .fetch_one(&mut *$tx)
            .await?;
            let text = $crate::store::record::insert_events($d, chunk.len());
            let mut insert = sqlx::query(&text);
            for (k, e) in chunk.iter().enumerate() {
                insert = insert
                    .bind(cid)
                    .bind(last - n + 1 + k as i64)
                    .bind(e.kind)
                    .bind(e.id.clone())
                    .bind(e.data.as_ref().map(|v| v.to_string()))
                    .bind($crate::store::record::audience_text(e.audience))
                    .bind($crate::store::record::audience_team(e.audience));
            }
            insert.execute(&mut *$tx).await?;
        }
    }};
}
pub(super) use append_events;

/// Unix milliseconds `ms` as the `*_at` columns hold a time:
/// `2026-01-02T03:04:05.678Z` (sortable text, UTC), as `{now_text}` writes
/// it.
pub(crate) fn stamp_of(ms: i64) -> String {
    format!("{}Z", &crate::contest::time::format_time(ms)[..23])
}

/// The database's clock within `$tx`, Unix milliseconds.
macro_rules! db_now {
    ($tx:ident, $d:ident) => {
        sqlx::query_scalar::<_, i64>(&$crate::store::db::sql($d, "SELECT {now_ms}"))
            .fetch_one(&mut *$tx)
            .await?
    };
}
pub(super) use db_now;

/// Records what happened to submission `$id` (`$change`, a [`TryChange`])
/// in its contest's record within `$tx`, after the change was written
/// there; nothing for a practice submission, nor for a jury's (an
/// admin's) try, which makes the jury no team, nor for a withdrawn try
/// (its record deleted it). Evaluates to the contest
/// whose awards the change may have moved ([`awards_may_move`]), for the
/// caller to record them once its changes are written
/// (`store::awards::record_awards!`).
macro_rules! record_try {
    ($tx:ident, $d:ident, $id:expr, $change:expr) => {{
        let id: i64 = $id;
        let mut moved: Option<i64> = None;
        let row = sqlx::query_as::<
            _,
            (
                Option<i64>,
                Option<i64>,
                String,
                String,
                String,
                Option<String>,
                Option<i64>,
                Option<i64>,
                Option<String>,
                Option<String>,
                Option<bool>,
            ),
        >(&$crate::store::db::sql(
            $d,
            "SELECT CASE WHEN s.withdrawn_reason IS NULL THEN s.contest_id END,
                        CASE WHEN u.is_admin THEN NULL ELSE s.user_id END,
                        s.problem, s.language, s.submitted_at, s.verdict, s.score, s.time_ms,
                        s.finished_at, {team_id}, u.hidden
                 FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?",
        ))
        .bind(id)
        .fetch_optional(&mut *$tx)
        .await?;
        if let Some((
            Some(cid),
            Some(team),
            problem,
            language,
            at,
            verdict,
            score,
            time_ms,
            end,
            Some(team_id),
            hidden,
        )) = row
        {
            if let Some(c) = $crate::store::record::locked_contest!($tx, $d, cid) {
                let runs =
                    sqlx::query_as::<_, (i64, String, i64, String)>(&$crate::store::db::sql(
                        $d,
                        "SELECT position, verdict, time_ms, test_group FROM test_results
                     WHERE submission_id = ? ORDER BY position",
                    ))
                    .bind(id)
                    .fetch_all(&mut *$tx)
                    .await?;
                let now = $crate::store::record::db_now!($tx, $d);
                let stored = $crate::store::record::StoredTry {
                    id,
                    team,
                    team_id: &team_id,
                    hidden: hidden.unwrap_or(false),
                    problem: &problem,
                    language: &language,
                    at: &at,
                    verdict: verdict.as_deref(),
                    score,
                    time_ms,
                    end: end.as_deref(),
                };
                let change: $crate::store::record::TryChange = $change;
                // Which judging this is: one more than the results the
                // history keeps (a rejudge keeps the one it replaces
                // there first); and when it began, as the record has it.
                let judged_before = sqlx::query_scalar::<_, i64>(&$crate::store::db::sql(
                    $d,
                    "SELECT COUNT(*) FROM submission_history WHERE submission_id = ?",
                ))
                .bind(id)
                .fetch_one(&mut *$tx)
                .await?;
                let number = judged_before + 1;
                let begun = sqlx::query_scalar::<_, Option<String>>(&$crate::store::db::sql(
                    $d,
                    "SELECT data FROM contest_events
                     WHERE contest_id = ? AND kind = 'judgements' AND object_id = ?
                     ORDER BY seq DESC LIMIT 1",
                ))
                .bind(cid)
                .bind($crate::contest::clics::judgement_id(id, number))
                .fetch_optional(&mut *$tx)
                .await?
                .flatten()
                .and_then(|data| serde_json::from_str::<serde_json::Value>(&data).ok())
                .and_then(|v| {
                    v["start_time"]
                        .as_str()
                        .and_then($crate::contest::time::parse_time)
                });
                let events = $crate::store::record::try_events(
                    &c,
                    &stored,
                    &runs,
                    $crate::store::record::Begun {
                        number,
                        at_ms: begun,
                    },
                    change,
                    now,
                )?;
                $crate::store::record::append_events!($tx, $d, cid, &events);
                if !stored.hidden {
                    // A later solve on the problem (this team's, or anyone's
                    // that this try's result decides the first solve of).
                    let solved_after = sqlx::query_scalar::<_, i64>(&$crate::store::db::sql(
                        $d,
                        "SELECT COUNT(*) FROM submissions
                         WHERE contest_id = ? AND problem = ? AND verdict = 'AC'
                           AND (user_id = ? OR submitted_at >= ?)",
                    ))
                    .bind(cid)
                    .bind(&problem)
                    .bind(team)
                    .bind(&at)
                    .fetch_one(&mut *$tx)
                    .await?;
                    if $crate::store::record::awards_may_move(&c, change, solved_after > 0) {
                        moved = Some(cid);
                    }
                }
            }
        }
        moved
    }};
}
pub(super) use record_try;

/// Whether a try's `change` in contest `c` may move its awards:
/// `solved_after` says whether its problem has a solve that counts this
/// try (the same team's, for the penalty) or waits for it (anyone's made
/// at or after it, for the first solve). A new try moves nothing; a try
/// sent back may take a solve away; under IOI scoring any result may.
pub(super) fn awards_may_move(c: &Contest, change: TryChange, solved_after: bool) -> bool {
    match change {
        TryChange::Made => false,
        TryChange::Reset => true,
        TryChange::Judged => c.scoring == crate::contest::Scoring::Ioi || solved_after,
    }
}

/// The results of contest `$cid` that the freeze sealed and that are not
/// revealed yet, of tries made before `$before` (an `Option<i64>`, Unix
/// ms; `None`: all), as events for everyone who has not read them: the
/// latest sealed version of each, in the record's order. Within `$tx`,
/// which holds the record.
macro_rules! revealed_results {
    ($tx:ident, $d:ident, $cid:expr, $before:expr) => {{
        let cid: i64 = $cid;
        let before: Option<i64> = $before;
        let sealed = sqlx::query_as::<_, (String, Option<String>, Option<String>, Option<i64>)>(
            &$crate::store::db::sql(
                $d,
                "SELECT kind, object_id, data, team_id FROM contest_events e
                 WHERE contest_id = ?1 AND audience = 'team'
                   AND kind IN ('judgements', 'runs')
                   AND seq = (SELECT MAX(seq) FROM contest_events f
                              WHERE f.contest_id = ?1 AND f.kind = e.kind
                                AND f.object_id = e.object_id)
                 ORDER BY seq",
            ),
        )
        .bind(cid)
        .fetch_all(&mut *$tx)
        .await?;
        // When each try was made (a judgement's id is its try's, a run's
        // is `TRY-N`), where only some are revealed.
        let made: std::collections::HashMap<String, String> = match before {
            None => Default::default(),
            Some(_) => sqlx::query_as::<_, (i64, String)>(&$crate::store::db::sql(
                $d,
                "SELECT id, submitted_at FROM submissions WHERE contest_id = ?",
            ))
            .bind(cid)
            .fetch_all(&mut *$tx)
            .await?
            .into_iter()
            .map(|(id, at)| (id.to_string(), at))
            .collect(),
        };
        let mut events = Vec::new();
        for (kind, object, data, team) in sealed {
            if let Some(before) = before {
                let try_id = object.as_deref().and_then($crate::contest::clics::try_of);
                let at = try_id
                    .and_then(|t| made.get(&t.to_string()))
                    .and_then(|at| $crate::contest::time::parse_time(at));
                if at.is_none_or(|at| at >= before) {
                    continue;
                }
            }
            events.push($crate::store::record::NewEvent {
                kind: if kind == "runs" { "runs" } else { "judgements" },
                id: object,
                data: data.and_then(|t| serde_json::from_str(&t).ok()),
                audience: $crate::store::record::Audience::Others(team),
            });
        }
        events
    }};
}
pub(super) use revealed_results;

/// Object `data` of a contest that starts at `start_ms`, with each
/// contest time (`contest_time`, `start_contest_time`,
/// `end_contest_time`) counted again from its absolute time; `None` when
/// none changes.
pub(super) fn retimed(data: &Value, start_ms: i64) -> Option<Value> {
    let mut out = data.clone();
    let mut changed = false;
    for (at, rel) in [
        ("time", "contest_time"),
        ("start_time", "start_contest_time"),
        ("end_time", "end_contest_time"),
    ] {
        let Some(ms) = data[at].as_str().and_then(crate::contest::time::parse_time) else {
            continue;
        };
        let now = Value::from(crate::contest::time::format_reltime(ms - start_ms));
        if data.get(rel).is_some() && data[rel] != now {
            out[rel] = now;
            changed = true;
        }
    }
    changed.then_some(out)
}

/// The events that count contest `$c`'s tries and clarifications from its
/// start again after the start moved, within `$tx` (which holds its
/// record): the latest event of each object for each audience, in the
/// record's order (so each reader's latest stays the one it held), with
/// its contest times counted anew; a delete is said again, where a
/// version before it is.
macro_rules! retimed_events {
    ($tx:ident, $d:ident, $c:expr) => {{
        let c: &$crate::contest::Contest = $c;
        let rows =
            sqlx::query_as::<_, (String, Option<String>, Option<String>, String, Option<i64>)>(
                &$crate::store::db::sql(
                    $d,
                    "SELECT kind, object_id, data, audience, team_id FROM contest_events e
                 WHERE contest_id = ?1
                   AND kind IN ('submissions', 'judgements', 'runs', 'clarifications')
                   AND seq = (SELECT MAX(seq) FROM contest_events f
                              WHERE f.contest_id = ?1 AND f.kind = e.kind
                                AND f.object_id = e.object_id AND f.audience = e.audience
                                AND COALESCE(f.team_id, -1) = COALESCE(e.team_id, -1))
                 ORDER BY seq",
                ),
            )
            .bind(c.id)
            .fetch_all(&mut *$tx)
            .await?;
        let kind_of = |k: &str| match k {
            "submissions" => "submissions",
            "judgements" => "judgements",
            "runs" => "runs",
            _ => "clarifications",
        };
        let mut events = Vec::new();
        let mut any = false;
        for (kind, id, data, audience, team) in rows {
            let data = data.and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
            let retimed = data
                .as_ref()
                .and_then(|v| $crate::store::record::retimed(v, c.start_ms));
            any |= retimed.is_some();
            let audience = match audience.as_str() {
                "all" => $crate::store::record::Audience::All,
                "admin" => $crate::store::record::Audience::Admin,
                "team" => $crate::store::record::Audience::Team(team.unwrap_or_default()),
                _ => $crate::store::record::Audience::Others(team),
            };
            events.push($crate::store::record::NewEvent {
                kind: kind_of(&kind),
                id,
                data: retimed.or(data),
                audience,
            });
        }
        if !any {
            events.clear();
        }
        events
    }};
}
pub(super) use retimed_events;

/// A try as its row holds it.
pub struct StoredTry<'a> {
    pub id: i64,
    /// The team's account.
    pub team: i64,
    /// The team's CLICS id.
    pub team_id: &'a str,
    /// Whether the team is hidden: its tries are the admins' only.
    pub hidden: bool,
    pub problem: &'a str,
    pub language: &'a str,
    pub at: &'a str,
    pub verdict: Option<&'a str>,
    pub score: Option<i64>,
    pub time_ms: Option<i64>,
    pub end: Option<&'a str>,
}

pub(super) fn audience_text(a: Audience) -> &'static str {
    a.as_str()
}

pub(super) fn audience_team(a: Audience) -> Option<i64> {
    a.team()
}

/// The audience of a result of a try by `team` made at `at`, judged at
/// `now`: sealed from others while the freeze hides it (the freeze's one
/// rule, [`Contest::hides`]).
pub(super) fn result_audience(c: &Contest, team: i64, at: i64, now: i64) -> Audience {
    if c.hides(Viewer::Public, Some(team), at, now) {
        Audience::Team(team)
    } else {
        Audience::All
    }
}

/// The judging a change is about: its number, and when it began where
/// the record already holds its judgement.
pub struct Begun {
    pub number: i64,
    pub at_ms: Option<i64>,
}

/// The events of `change` to try `s`, with its test results `runs`
/// (position, verdict, CPU ms, group: `sample` or a secret one), in its
/// judging `begun`, at the database's time `now`. A rejudge
/// ([`TryChange::Reset`]) begins a new judgement beside the last one,
/// which stays as it ended, with its runs (the standard's judgements are
/// never re-opened).
///
/// # Errors
/// A stored time or verdict that is not one.
pub(super) fn try_events(
    c: &Contest,
    s: &StoredTry<'_>,
    runs: &[(i64, String, i64, String)],
    begun: Begun,
    change: TryChange,
    now: i64,
) -> Result<Vec<NewEvent>, Error> {
    let parse = |t: &str| {
        crate::contest::time::parse_time(t)
            .ok_or_else(|| Error::BadContest(s.id.to_string(), t.to_string()))
    };
    let at_ms = parse(s.at)?;
    let t = Try {
        id: s.id,
        team: s.team_id,
        problem: s.problem,
        language: s.language,
        at_ms,
    };
    // A hidden team's tries are the admins' only, now and after the
    // thaw (which reveals what is sealed for one team, never these).
    let (made, sealed) = if s.hidden {
        (Audience::Admin, Audience::Admin)
    } else {
        (Audience::All, result_audience(c, s.team, at_ms, now))
    };
    let judging = clics::Judging {
        number: begun.number,
        start_ms: begun.at_ms.unwrap_or(match change {
            TryChange::Reset => now,
            _ => at_ms,
        }),
    };
    let judgement = clics::judgement_id(s.id, begun.number);
    let mut out = Vec::new();
    match change {
        TryChange::Made => {
            out.push(NewEvent::of("submissions", clics::submission(c, &t), made));
            out.push(NewEvent::of(
                "judgements",
                clics::judgement(c, &t, judging, None),
                sealed,
            ));
        }
        TryChange::Reset => {
            out.push(NewEvent::of(
                "judgements",
                clics::judgement(c, &t, judging, None),
                sealed,
            ));
        }
        TryChange::Judged => {
            let (Some(v), Some(end)) = (s.verdict, s.end) else {
                return Ok(out);
            };
            let verdict = v
                .parse::<Verdict>()
                .map_err(|_| Error::BadVerdict(s.id, v.to_string()))?;
            let end_ms = parse(end)?;
            let outcome = Outcome {
                verdict,
                score: s.score.unwrap_or(0),
                time_ms: s.time_ms.unwrap_or(0),
                end_ms,
            };
            out.push(NewEvent::of(
                "judgements",
                clics::judgement(c, &t, judging, Some(outcome)),
                sealed,
            ));
            for (position, verdict, time_ms, group) in runs {
                let Ok(verdict) = verdict.parse::<Verdict>() else {
                    continue;
                };
                let sample = group == "sample";
                let run = clics::run(c, &judgement, *position, verdict, *time_ms, end_ms, sample);
                out.push(NewEvent::of("runs", run, sealed));
            }
        }
    }
    Ok(out)
}

/// The events of a clarification `q` just asked (`answered` false) or
/// answered.
pub(super) fn clarification_events(
    c: &Contest,
    q: &clics::Clarification<'_>,
    answered: bool,
) -> Vec<NewEvent> {
    let mut out = Vec::new();
    if !answered {
        if let (Some(v), Some(team)) = (clics::question(c, q), q.team) {
            out.push(NewEvent::of("clarifications", v, Audience::Team(team)));
        }
        return out;
    }
    let Some(answer) = clics::answer(c, q) else {
        return out;
    };
    match (q.team, q.to_all) {
        (Some(team), true) => {
            // The question, now everyone's too, without who asked.
            if let Some(v) = clics::public_question(c, q) {
                out.push(NewEvent::of(
                    "clarifications",
                    v,
                    Audience::Others(Some(team)),
                ));
            }
            out.push(NewEvent::of("clarifications", answer, Audience::All));
        }
        (Some(team), false) => {
            out.push(NewEvent::of("clarifications", answer, Audience::Team(team)));
        }
        (None, _) => out.push(NewEvent::of("clarifications", answer, Audience::All)),
    }
    out
}

/// The contest's problems as the record keeps them, for `audience`.
pub(super) fn problem_events(c: &Contest, audience: Audience) -> Vec<NewEvent> {
    (0..c.problems.len())
        .filter_map(|i| clics::problem_place(c, i))
        .map(|p| NewEvent::of("problems", p, audience))
        .collect()
}

/// The contest object, its problems, its teams (`teams`: their events,
/// with their organizations and groups), as a change of its settings at
/// `now` records them.
pub(super) fn settings_events(c: &Contest, teams: Vec<NewEvent>, now: i64) -> Vec<NewEvent> {
    let mut out = vec![NewEvent::of("contest", clics::contest(c), Audience::All)];
    let problems = if now < c.start_ms {
        Audience::Admin
    } else {
        Audience::All
    };
    out.extend(problem_events(c, problems));
    // A hidden team's absence for everyone but the admins is said when it
    // is hidden (if they held it); here it would name it to them.
    out.extend(
        teams
            .into_iter()
            .filter(|e| e.data.is_some() || e.audience != Audience::Others(None)),
    );
    out.push(NewEvent::of("state", clics::state(c, now), Audience::All));
    out
}

impl Store {
    /// The version of `contest`'s record now: the number of its last event.
    ///
    /// # Errors
    /// Database failures.
    pub async fn contest_version(&self, contest: &Contest) -> Result<ContestVersion, Error> {
        Ok(ContestVersion(on_db!(&self.db, pool, d => {
            sqlx::query_scalar::<_, i64>(&sql(d, "SELECT event_seq FROM contests WHERE id = ?"))
                .bind(contest.id)
                .fetch_optional(pool)
                .await?
                .unwrap_or(0)
        })))
    }

    /// The objects of endpoint `kind` of contest `contest` as `reader`
    /// reads them: the record replayed, each object's latest event that
    /// reader may read, deleted ones left out, in the order the objects
    /// first appeared. What a feed reader holds after reading the whole
    /// feed, so REST and the feed cannot disagree.
    ///
    /// # Errors
    /// As [`Store::contest_events`].
    pub async fn contest_objects(
        &self,
        contest: i64,
        reader: Reader,
        kind: &str,
    ) -> Result<Vec<Event>, Error> {
        self.recorded_objects(contest, reader, (kind, None)).await
    }

    /// Object `object` of endpoint `kind` of contest `contest` as `reader`
    /// holds it ([`Store::contest_objects`]), read alone: `None` when there
    /// is none, or it was deleted.
    ///
    /// # Errors
    /// As [`Store::contest_events`].
    pub async fn contest_object(
        &self,
        contest: i64,
        reader: Reader,
        (kind, object): (&str, &str),
    ) -> Result<Option<Event>, Error> {
        let mut found = self
            .recorded_objects(contest, reader, (kind, Some(object)))
            .await?;
        Ok(found.pop())
    }

    /// [`Store::contest_objects`], of one object only where given.
    async fn recorded_objects(
        &self,
        contest: i64,
        reader: Reader,
        of: (&str, Option<&str>),
    ) -> Result<Vec<Event>, Error> {
        let events = self
            .read_events(contest, 0, reader, Some(of), i64::MAX)
            .await?;
        let mut at: std::collections::HashMap<Option<String>, usize> = Default::default();
        let mut objects: Vec<Option<Event>> = Vec::new();
        for e in events {
            let place = *at.entry(e.id.clone()).or_insert_with(|| {
                objects.push(None);
                objects.len() - 1
            });
            objects[place] = e.data.is_some().then_some(e);
        }
        Ok(objects.into_iter().flatten().collect())
    }

    /// Up to `limit` events of contest `contest` after number `after` that
    /// `reader` may read, in order.
    ///
    /// # Errors
    /// Database failures, or an event whose data is not JSON.
    pub async fn contest_events(
        &self,
        contest: i64,
        after: i64,
        reader: Reader,
        limit: i64,
    ) -> Result<Vec<Event>, Error> {
        self.read_events(contest, after, reader, None, limit).await
    }

    /// [`Store::contest_events`], of one kind (and of one object of it)
    /// only where given: those alone are read, by the index on kind and
    /// object (migration 0018).
    async fn read_events(
        &self,
        contest: i64,
        after: i64,
        reader: Reader,
        of: Option<(&str, Option<&str>)>,
        limit: i64,
    ) -> Result<Vec<Event>, Error> {
        let (kind, object) = match of {
            Some((kind, object)) => (Some(kind), object),
            None => (None, None),
        };
        let text = format!(
            "SELECT seq, kind, object_id, data, at_ms FROM contest_events
             WHERE contest_id = ?1 AND seq > ?2
               AND CASE WHEN ?3 THEN audience <> 'others'
                   ELSE audience = 'all' OR (audience = 'team' AND team_id = ?4)
                        OR (audience = 'others' AND (team_id IS NULL OR team_id <> ?4))
                   END{}{}
             ORDER BY seq LIMIT ?5",
            if kind.is_some() { " AND kind = ?6" } else { "" },
            if object.is_some() {
                " AND object_id = ?7"
            } else {
                ""
            },
        );
        let (admin, team) = match reader {
            Reader::Admin => (true, -1),
            Reader::Team(t) => (false, t),
            Reader::Public => (false, -1),
        };
        let rows = on_db!(&self.db, pool, d => {
            let text = sql(d, text.clone());
            let mut query =
                sqlx::query_as::<_, (i64, String, Option<String>, Option<String>, i64)>(&text)
                    .bind(contest)
                    .bind(after)
                    .bind(admin)
                    .bind(team)
                    .bind(limit);
            if let Some(kind) = kind {
                query = query.bind(kind);
            }
            if let Some(object) = object {
                query = query.bind(object);
            }
            query.fetch_all(pool).await?
        });
        rows.into_iter()
            .map(|(seq, kind, id, data, at_ms)| {
                let data = match data {
                    Some(text) => Some(
                        serde_json::from_str(&text)
                            .map_err(|_| Error::BadContest(format!("event {seq}"), text))?,
                    ),
                    None => None,
                };
                Ok(Event {
                    seq,
                    kind,
                    id,
                    data,
                    at_ms,
                })
            })
            .collect()
    }
}
