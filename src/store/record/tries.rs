//! A try's events: made, judged, sent back; the results the thaw
//! reveals; every try's contest times told again when the start moves.

use serde_json::Value;

use super::{append, db_now, locked_contest, Audience, NewEvent};
use crate::contest::clics::{self, Outcome, Try};
use crate::contest::{Contest, Scoring, Viewer};
use crate::store::db::{on_tx, sql, AsTx, Tx};
use crate::store::Error;
use crate::verdict::Verdict;

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

/// Records what happened to submission `id` (`change`, a [`TryChange`])
/// in its contest's record within `tx`, after the change was written
/// there; nothing for a practice submission, nor for a jury's (an
/// admin's) try, which makes the jury no team (an admin listed among the
/// contest's participants is a team, [`super::teams::teams_in`], and
/// its tries are told), nor for a withdrawn try
/// (its record deleted it). Evaluates to the contest whose awards the
/// change may have moved, for the caller to record them once its changes
/// are written ([`super::record_awards`]).
pub(in crate::store) async fn record_try(
    tx: Tx<'_>,
    id: i64,
    change: TryChange,
) -> Result<Option<i64>, Error> {
    Ok(on_tx!(tx, conn, d => {
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
        >(&sql(
            d,
            "SELECT CASE WHEN s.withdrawn_reason IS NULL THEN s.contest_id END,
                        CASE WHEN u.is_admin AND NOT EXISTS (
                                 SELECT 1 FROM contest_participants p
                                 WHERE p.contest_id = s.contest_id AND p.user_id = s.user_id)
                             THEN NULL ELSE s.user_id END,
                        s.problem, s.language, s.submitted_at, s.verdict, s.score, s.time_ms,
                        s.finished_at, {team_id}, u.hidden
                 FROM submissions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = ?",
        ))
        .bind(id)
        .fetch_optional(&mut *conn)
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
            if let Some(c) = locked_contest(conn.as_tx(), cid).await? {
                let runs =
                    sqlx::query_as::<_, (i64, String, i64, String)>(&sql(
                        d,
                        "SELECT position, verdict, time_ms, test_group FROM test_results
                     WHERE submission_id = ? ORDER BY position",
                    ))
                    .bind(id)
                    .fetch_all(&mut *conn)
                    .await?;
                let now = db_now(conn.as_tx()).await?;
                let stored = StoredTry {
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
                // Which judging this is: one more than the results the
                // history keeps (a rejudge keeps the one it replaces
                // there first); and when it began, as the record has it.
                let judged_before = sqlx::query_scalar::<_, i64>(&sql(
                    d,
                    "SELECT COUNT(*) FROM submission_history WHERE submission_id = ?",
                ))
                .bind(id)
                .fetch_one(&mut *conn)
                .await?;
                let number = judged_before + 1;
                let begun = sqlx::query_scalar::<_, Option<String>>(&sql(
                    d,
                    "SELECT data FROM contest_events
                     WHERE contest_id = ? AND kind = 'judgements' AND object_id = ?
                     ORDER BY seq DESC LIMIT 1",
                ))
                .bind(cid)
                .bind(crate::contest::clics::judgement_id(id, number))
                .fetch_optional(&mut *conn)
                .await?
                .flatten()
                .and_then(|data| serde_json::from_str::<serde_json::Value>(&data).ok())
                .and_then(|v| {
                    v["start_time"]
                        .as_str()
                        .and_then(crate::contest::time::parse_time)
                });
                let events = try_events(
                    &c,
                    &stored,
                    &runs,
                    Begun {
                        number,
                        at_ms: begun,
                    },
                    change,
                    now,
                )?;
                append(conn.as_tx(), cid, &events).await?;
                if !stored.hidden {
                    // Whether the change may move the awards: a new try
                    // moves nothing; a try sent back may take a solve
                    // away; under IOI scoring any result may; under ICPC
                    // scoring a result may where a solve of its problem
                    // counts it (the same team's, for the penalty) or
                    // waits for it (anyone's made at or after it, for the
                    // first solve).
                    let may_move = match change {
                        TryChange::Made => false,
                        TryChange::Reset => true,
                        TryChange::Judged if c.scoring == Scoring::Ioi => true,
                        TryChange::Judged => sqlx::query_scalar::<_, bool>(&sql(d, SOLVES_AFTER))
                            .bind(cid)
                            .bind(&problem)
                            .bind(team)
                            .bind(&at)
                            .fetch_one(&mut *conn)
                            .await?,
                    };
                    if may_move {
                        moved = Some(cid);
                    }
                }
            }
        }
        moved
    }))
}

/// The tries of account `user` in contest `cid` that count (not
/// withdrawn), in the order they were made; within `tx`.
pub(in crate::store) async fn tries_of(tx: Tx<'_>, cid: i64, user: i64) -> Result<Vec<i64>, Error> {
    Ok(on_tx!(tx, conn, d => {
        sqlx::query_scalar::<_, i64>(&sql(
            d,
            "SELECT id FROM submissions
             WHERE contest_id = ? AND user_id = ? AND withdrawn_reason IS NULL
             ORDER BY id",
        ))
        .bind(cid)
        .bind(user)
        .fetch_all(&mut *conn)
        .await?
    }))
}

/// Tells, within `tx`, tries `tries` of a team that has just come to
/// their contest, as they stand: each made, then judged where it was.
pub(in crate::store) async fn tell_tries(tx: Tx<'_>, tries: &[i64]) -> Result<(), Error> {
    on_tx!(tx, conn, _d => {
        for &id in tries {
            record_try(conn.as_tx(), id, TryChange::Made).await?;
            record_try(conn.as_tx(), id, TryChange::Judged).await?;
        }
    });
    Ok(())
}

/// The deletes, within `tx`, of every object of tries `tries` (by id)
/// that contest `cid`'s record holds for some audience now, each for
/// every audience that holds it: their runs, then their judgements, then
/// the tries themselves.
pub(in crate::store) async fn tries_gone(
    tx: Tx<'_>,
    cid: i64,
    tries: &std::collections::HashSet<i64>,
) -> Result<Vec<NewEvent>, Error> {
    if tries.is_empty() {
        return Ok(Vec::new());
    }
    let told = on_tx!(tx, conn, d => {
        sqlx::query_as::<_, (String, Option<String>, String, Option<i64>, bool)>(&sql(
            d,
            "SELECT kind, object_id, audience, team_id, data IS NOT NULL FROM contest_events
             WHERE contest_id = ? AND kind IN ('submissions', 'judgements', 'runs')
             ORDER BY seq",
        ))
        .bind(cid)
        .fetch_all(&mut *conn)
        .await?
    });
    // Each object of the tries, by audience: whether its latest event
    // there holds it, in the order the pairs first appeared.
    let mut order = Vec::new();
    let mut holds = std::collections::HashMap::new();
    for (kind, object, audience, team, data) in told {
        let Some(object) = object.filter(|o| clics::try_of(o).is_some_and(|t| tries.contains(&t)))
        else {
            continue;
        };
        let key = (kind, object, audience, team);
        if holds.insert(key.clone(), data).is_none() {
            order.push(key);
        }
    }
    let mut events = Vec::new();
    for kind in ["runs", "judgements", "submissions"] {
        for key in order.iter().filter(|k| k.0 == kind && holds[*k]) {
            let (_, object, audience, team) = key;
            let audience = match audience.as_str() {
                "all" => Audience::All,
                "admin" => Audience::Admin,
                "team" => Audience::Team(team.unwrap_or_default()),
                _ => Audience::Others(*team),
            };
            events.push(NewEvent {
                kind,
                id: Some(object.clone()),
                data: None,
                audience,
            });
        }
    }
    Ok(events)
}

/// Whether a solve of problem `?2` in contest `?1` counts a try of team
/// `?3` made at `?4` (the team's own solve) or waits for it (anyone's
/// made at or after it): two probes of the contest's solves of the
/// problem (the `submissions_solves` index), not a scan of its tries.
const SOLVES_AFTER: &str = "SELECT EXISTS (SELECT 1 FROM submissions
                      WHERE contest_id = ?1 AND problem = ?2 AND verdict = 'AC'
                        AND submitted_at >= ?4)
         OR EXISTS (SELECT 1 FROM submissions
                      WHERE contest_id = ?1 AND problem = ?2 AND verdict = 'AC'
                        AND user_id = ?3)";

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

/// The audience of a result of a try by `team` made at `at`, judged at
/// `now`: sealed from others while the freeze hides it (the freeze's one
/// rule, [`Contest::hides`]).
pub(in crate::store) fn result_audience(c: &Contest, team: i64, at: i64, now: i64) -> Audience {
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
pub(in crate::store) fn try_events(
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

/// The results of contest `cid` that the freeze sealed and that are not
/// revealed yet, of tries made before `before` (an `Option<i64>`, Unix
/// ms; `None`: all), as events for everyone who has not read them: the
/// latest sealed version of each, in the record's order. Within `tx`,
/// which holds the record.
pub(in crate::store) async fn revealed_results(
    tx: Tx<'_>,
    cid: i64,
    before: Option<i64>,
) -> Result<Vec<NewEvent>, Error> {
    Ok(on_tx!(tx, conn, d => {
        let sealed = sqlx::query_as::<_, (String, Option<String>, Option<String>, Option<i64>)>(
            &sql(
                d,
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
        .fetch_all(&mut *conn)
        .await?;
        // When each try was made (a judgement's id is its try's, a run's
        // is `TRY-N`), where only some are revealed.
        let made: std::collections::HashMap<String, String> = match before {
            None => Default::default(),
            Some(_) => sqlx::query_as::<_, (i64, String)>(&sql(
                d,
                "SELECT id, submitted_at FROM submissions WHERE contest_id = ?",
            ))
            .bind(cid)
            .fetch_all(&mut *conn)
            .await?
            .into_iter()
            .map(|(id, at)| (id.to_string(), at))
            .collect(),
        };
        let mut events = Vec::new();
        for (kind, object, data, team) in sealed {
            if let Some(before) = before {
                let try_id = object.as_deref().and_then(crate::contest::clics::try_of);
                let at = try_id
                    .and_then(|t| made.get(&t.to_string()))
                    .and_then(|at| crate::contest::time::parse_time(at));
                if at.is_none_or(|at| at >= before) {
                    continue;
                }
            }
            events.push(NewEvent {
                kind: if kind == "runs" { "runs" } else { "judgements" },
                id: object,
                data: data.and_then(|t| serde_json::from_str(&t).ok()),
                audience: Audience::Others(team),
            });
        }
        events
    }))
}

/// Object `data` of a contest that starts at `start_ms`, with each
/// contest time (`contest_time`, `start_contest_time`,
/// `end_contest_time`) counted again from its absolute time; `None` when
/// none changes.
pub(in crate::store) fn retimed(data: &Value, start_ms: i64) -> Option<Value> {
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

/// The events that count contest `c`'s tries and clarifications from its
/// start again after the start moved, within `tx` (which holds its
/// record): the latest event of each object for each audience, in the
/// record's order (so each reader's latest stays the one it held), with
/// its contest times counted anew; a delete is said again, where a
/// version before it is.
pub(in crate::store) async fn retimed_events(
    tx: Tx<'_>,
    c: &Contest,
) -> Result<Vec<NewEvent>, Error> {
    Ok(on_tx!(tx, conn, d => {
        let rows =
            sqlx::query_as::<_, (String, Option<String>, Option<String>, String, Option<i64>)>(
                &sql(
                    d,
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
            .fetch_all(&mut *conn)
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
                .and_then(|v| retimed(v, c.start_ms));
            any |= retimed.is_some();
            let audience = match audience.as_str() {
                "all" => Audience::All,
                "admin" => Audience::Admin,
                "team" => Audience::Team(team.unwrap_or_default()),
                _ => Audience::Others(team),
            };
            events.push(NewEvent {
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
    }))
}
