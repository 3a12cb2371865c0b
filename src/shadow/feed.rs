//! Another system's event feed as changes to shadow: one NDJSON line of
//! the CLICS Contest API (2023-06: `{"type", "id", "data", "token"}`,
//! `data` `null` for a deletion, a whole collection when `id` is `null`;
//! the older `"op": "delete"` too) read into what grundy keeps of it.
//! Pure: no database, no network.

use serde_json::Value;

use crate::contest::time::read_time;
use crate::verdict::Verdict;

/// A submission of the other system, as far as judging it needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Submission {
    pub id: String,
    pub team: String,
    pub problem: String,
    pub language: String,
    /// Since the contest's start.
    pub contest_time_ms: i64,
    /// Its `files` references (to fetch from an API).
    pub files: Value,
}

/// A judgement of the other system.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    pub id: String,
    pub submission: String,
    /// Its judgement type's id; `None` while it runs.
    pub verdict: Option<String>,
    /// `false` for one the system replaced (`current: false`, or the
    /// older `valid: false`).
    pub current: bool,
    pub max_run_ms: Option<i64>,
}

/// One run (a test case) of a judgement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    pub id: String,
    pub judgement: String,
    pub ordinal: i64,
    pub verdict: String,
    pub time_ms: Option<i64>,
}

/// A judgement type as the other system defines it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgementType {
    pub id: String,
    pub name: String,
    pub solved: bool,
    pub penalty: bool,
}

/// What one event changes, for the shadow.
#[derive(Debug, Clone, PartialEq)]
pub enum Change {
    Types(Vec<JudgementType>),
    Submission(Submission),
    SubmissionGone(String),
    Judgement(Judgement),
    JudgementGone(String),
    Run(Run),
    RunGone(String),
    /// The contest's state; `true` once its updates ended.
    State {
        end_of_updates: bool,
    },
    /// A kind the shadow does not follow (teams, clarifications, awards,
    /// ...): only its token counts.
    Other,
}

/// One line of the feed: its token (if any) and its changes.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub token: Option<String>,
    pub changes: Vec<Change>,
}

/// Reads one line of a feed; `Ok(None)` for a keep-alive (blank) line.
///
/// # Errors
/// A line that is no event, or an object that lacks what the standard
/// requires of it: one line naming the event and the property.
pub fn parse_line(line: &str) -> Result<Option<Event>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON event ({e})"))?;
    let kind = v["type"]
        .as_str()
        .ok_or_else(|| "an event without \"type\"".to_string())?;
    let token = text(&v, "token");
    let deleted = v["op"].as_str() == Some("delete");
    let id = text(&v, "id").or_else(|| text(&v["data"], "id"));
    let changes = match &v["data"] {
        Value::Array(all) => all
            .iter()
            .map(|o| change(kind, text(o, "id"), Some(o)))
            .collect::<Result<_, _>>()?,
        Value::Null => vec![change(kind, id, None)?],
        o if deleted => vec![change(kind, id.or_else(|| text(o, "id")), None)?],
        o => vec![change(kind, id, Some(o))?],
    };
    let changes = match kind {
        // The collection as a whole.
        "judgement-types" => vec![Change::Types(
            changes
                .into_iter()
                .filter_map(|c| match c {
                    Change::Types(t) => t.into_iter().next(),
                    _ => None,
                })
                .collect(),
        )],
        _ => changes,
    };
    Ok(Some(Event { token, changes }))
}

/// The change of one object of `kind` (`data` `None`: deleted).
fn change(kind: &str, id: Option<String>, data: Option<&Value>) -> Result<Change, String> {
    let named = id.clone().unwrap_or_else(|| "?".into());
    let need = |what: &str| format!("{kind} {named}: no {what:?}");
    let Some(o) = data else {
        let id = id.ok_or_else(|| need("id"))?;
        return Ok(match kind {
            "submissions" => Change::SubmissionGone(id),
            "judgements" => Change::JudgementGone(id),
            "runs" => Change::RunGone(id),
            _ => Change::Other,
        });
    };
    Ok(match kind {
        "judgement-types" => Change::Types(vec![JudgementType {
            id: id.ok_or_else(|| need("id"))?,
            name: text(o, "name").unwrap_or_default(),
            solved: o["solved"].as_bool().unwrap_or(false),
            penalty: o["penalty"].as_bool().unwrap_or(false),
        }]),
        "submissions" => Change::Submission(Submission {
            id: id.clone().ok_or_else(|| need("id"))?,
            team: text(o, "team_id").ok_or_else(|| need("team_id"))?,
            problem: text(o, "problem_id").ok_or_else(|| need("problem_id"))?,
            language: text(o, "language_id").ok_or_else(|| need("language_id"))?,
            contest_time_ms: o["contest_time"]
                .as_str()
                .and_then(reltime_ms)
                .ok_or_else(|| need("contest_time"))?,
            files: o["files"].clone(),
        }),
        "judgements" => Change::Judgement(Judgement {
            id: id.clone().ok_or_else(|| need("id"))?,
            submission: text(o, "submission_id").ok_or_else(|| need("submission_id"))?,
            verdict: text(o, "judgement_type_id"),
            current: o["current"]
                .as_bool()
                .or(o["valid"].as_bool())
                .unwrap_or(true),
            max_run_ms: seconds_ms(&o["max_run_time"]),
        }),
        "runs" => Change::Run(Run {
            id: id.clone().ok_or_else(|| need("id"))?,
            judgement: text(o, "judgement_id").ok_or_else(|| need("judgement_id"))?,
            ordinal: o["ordinal"].as_i64().ok_or_else(|| need("ordinal"))?,
            verdict: text(o, "judgement_type_id").ok_or_else(|| need("judgement_type_id"))?,
            time_ms: seconds_ms(&o["run_time"]),
        }),
        "state" => Change::State {
            end_of_updates: !o["end_of_updates"].is_null(),
        },
        _ => Change::Other,
    })
}

/// Property `key` as text: ids come as strings or numbers.
pub fn text(o: &Value, key: &str) -> Option<String> {
    match &o[key] {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A number of seconds (the API's run times) in milliseconds.
fn seconds_ms(v: &Value) -> Option<i64> {
    v.as_f64()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| (s * 1000.0).round() as i64)
}

/// A RELTIME (`[-]H:MM:SS[.fff]`) in milliseconds.
pub fn reltime_ms(text: &str) -> Option<i64> {
    let (sign, rest) = match text.trim().strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text.trim()),
    };
    let mut parts = rest.split(':');
    let (h, m, s) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let h: i64 = whole(h)?.parse().ok()?;
    let m: i64 = whole(m)?.parse().ok().filter(|m| *m < 60)?;
    let (secs, frac) = s.split_once('.').unwrap_or((s, ""));
    let secs: i64 = whole(secs)?.parse().ok().filter(|s| *s < 60)?;
    let frac = match frac {
        "" => 0,
        f if f.bytes().all(|b| b.is_ascii_digit()) => {
            let f: String = f.chars().chain("000".chars()).take(3).collect();
            f.parse().ok()?
        }
        _ => return None,
    };
    Some(sign * (((h * 60 + m) * 60 + secs) * 1000 + frac))
}

/// `t` where it is all digits (and some).
fn whole(t: &str) -> Option<&str> {
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())).then_some(t)
}

/// A TIME (`2026-11-30T10:00:00.000+01:00`) in Unix milliseconds.
pub fn time_ms(text: &str) -> Option<i64> {
    read_time(text).ok()
}

/// The other system's judgement type as grundy's verdict: the standard's
/// ids of the types it lists (`RTE` and `RE` are grundy's `RE`, `JE` and
/// `IE` its `IE`, `NO` (no output) a `WA`, the time limits of idleness
/// and wall clock a `TLE`, a compile's time limit a `CE`), else by the
/// type's own `solved` (an accepted kind); `None`: a type grundy has no
/// word for, compared by its id.
pub fn verdict_of(type_id: &str, types: &[JudgementType]) -> Option<Verdict> {
    let v = match type_id {
        "AC" => Verdict::AC,
        "WA" | "NO" => Verdict::WA,
        "PE" => Verdict::PE,
        "TLE" | "ILE" | "WTL" | "OTL" => Verdict::TLE,
        "MLE" => Verdict::MLE,
        "OLE" => Verdict::OLE,
        "RTE" | "RE" => Verdict::RE,
        "CE" | "CTL" => Verdict::CE,
        "JE" | "IE" => Verdict::IE,
        other => {
            return types
                .iter()
                .find(|t| t.id == other && t.solved)
                .map(|_| Verdict::AC)
        }
    };
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_each_kind_reads_into_its_change() {
        let sub = r#"{"type":"submissions","id":"s1","data":{"id":"s1","team_id":"t1","problem_id":"nim","language_id":"cpp","contest_time":"0:12:03.5","files":[]},"token":"7"}"#;
        let e = parse_line(sub).unwrap().unwrap();
        assert_eq!(e.token.as_deref(), Some("7"));
        match &e.changes[..] {
            [Change::Submission(s)] => {
                assert_eq!((s.team.as_str(), s.contest_time_ms), ("t1", 723_500));
            }
            other => panic!("{other:?}"),
        }
        let gone = r#"{"type":"judgements","id":"j1","data":null,"token":"8"}"#;
        assert_eq!(
            parse_line(gone).unwrap().unwrap().changes,
            vec![Change::JudgementGone("j1".into())]
        );
        let old = r#"{"type":"runs","op":"delete","data":{"id":"r9"}}"#;
        assert_eq!(
            parse_line(old).unwrap().unwrap().changes,
            vec![Change::RunGone("r9".into())]
        );
        let types = r#"{"type":"judgement-types","id":null,"data":[{"id":"AC","name":"ok","solved":true,"penalty":false},{"id":"XX","name":"?","solved":false,"penalty":true}]}"#;
        match &parse_line(types).unwrap().unwrap().changes[..] {
            [Change::Types(t)] => assert_eq!(t.len(), 2),
            other => panic!("{other:?}"),
        }
        assert_eq!(parse_line("  ").unwrap(), None);
        let bad = parse_line(r#"{"type":"submissions","id":"s2","data":{"id":"s2"}}"#);
        assert!(bad.unwrap_err().contains("team_id"));
    }

    #[test]
    fn reltimes_and_verdicts_read_as_the_standard_writes_them() {
        assert_eq!(reltime_ms("1:02:03.004"), Some(3_723_004));
        assert_eq!(reltime_ms("-0:00:01"), Some(-1000));
        assert_eq!(reltime_ms("0:61:00"), None);
        let types = vec![JudgementType {
            id: "AC2".into(),
            name: "accepted late".into(),
            solved: true,
            penalty: false,
        }];
        assert_eq!(verdict_of("RTE", &types), Some(Verdict::RE));
        assert_eq!(verdict_of("AC2", &types), Some(Verdict::AC));
        assert_eq!(verdict_of("SV", &types), None);
    }
}
