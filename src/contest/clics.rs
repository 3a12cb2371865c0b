//! A contest's objects in the shapes of the CLICS Contest API (2023-06):
//! times as TIME and RELTIME text, ids as strings. Pure functions of the
//! contest and one stored fact each, so the store can write them into the
//! contest's record in the transaction that makes the change, and the API
//! can serve its collections in the very same shapes.

use serde_json::{json, Value};

use super::affiliation::{Group, Organization};
use super::time::{format_reltime, format_time};
use super::{Contest, Scoring};
use crate::verdict::Verdict;

/// The contest object.
pub fn contest(c: &Contest) -> Value {
    let mut v = json!({
        "id": c.slug,
        "name": c.name,
        "formal_name": c.name,
        "start_time": format_time(c.start_ms),
        "countdown_pause_time": null,
        "duration": format_reltime(c.duration_s * 1000),
        // The freeze as it happened: an admin's early freeze included.
        "scoreboard_freeze_duration": c.state_frozen_ms()
            .map(|f| format_reltime((c.end_ms() - f).max(0))),
        "scoreboard_type": match c.scoring { Scoring::Icpc => "pass-fail", Scoring::Ioi => "score" },
    });
    if c.scoring == Scoring::Icpc {
        v["penalty_time"] = json!(c.penalty_min);
    }
    v
}

/// The times the contest reached each state by `now`, `null` until then,
/// in the standard's order: started < frozen < ended < thawed, ended <
/// finalized (an admin's action), and `end_of_updates` once the results
/// are final and nothing is hidden any more, the very last change.
pub fn state(c: &Contest, now: i64) -> Value {
    let at = |t: Option<i64>| t.filter(|&t| t <= now).map(format_time);
    let [started, frozen, ended, thawed, finalized, end_of_updates] = moments(c);
    json!({
        "started": at(started),
        "frozen": at(frozen),
        "ended": at(ended),
        "thawed": at(thawed),
        "finalized": at(finalized),
        "end_of_updates": at(end_of_updates),
    })
}

/// Whether [`state`] reads the same at `a` and at `b`: no moment of the
/// contest lies between them. (An open feed asks at every look, which
/// is cheaper than formatting the state twice.)
pub fn same_state(c: &Contest, a: i64, b: i64) -> bool {
    let (early, late) = (a.min(b), a.max(b));
    moments(c)
        .into_iter()
        .flatten()
        .all(|t| t <= early || t > late)
}

/// The moments of [`state`], in its order.
fn moments(c: &Contest) -> [Option<i64>; 6] {
    [
        Some(c.start_ms),
        c.state_frozen_ms(),
        Some(c.end_ms()),
        c.thawed_ms,
        c.finalized_ms,
        c.end_of_updates_ms(),
    ]
}

/// grundy's verdict as the standard's judgement type.
pub fn judgement_type(v: Verdict) -> &'static str {
    match v {
        Verdict::AC => "AC",
        Verdict::WA => "WA",
        Verdict::PE => "PE",
        Verdict::TLE => "TLE",
        Verdict::MLE => "MLE",
        Verdict::OLE => "OLE",
        Verdict::RE => "RTE",
        Verdict::CE => "CE",
        Verdict::IE => "JE",
    }
}

/// The standard's id of grundy's language `id` (the CLICS list of
/// language ids): `python` is `python3`; the others are the same words
/// (`c`, `cpp`, `java`, `kotlin`, `rust`, ...). The one place the mapping
/// lives.
pub fn language_id(id: &str) -> &str {
    match id {
        "python" => "python3",
        other => other,
    }
}

/// A team as the API shows it: an account, with the id its registration
/// gave it (else its account number), its organization and groups.
#[derive(Debug, Clone, Copy)]
pub struct TeamObject<'a> {
    /// Its CLICS id, also its label.
    pub id: &'a str,
    pub name: &'a str,
    pub organization: Option<&'a str>,
    pub groups: &'a [String],
    pub icpc_id: Option<&'a str>,
    pub hidden: bool,
}

/// A team. `icpc_id` is there only where set (the standard has it as
/// text, never null).
pub fn team(t: &TeamObject<'_>) -> Value {
    let mut v = json!({"id": t.id, "name": t.name, "label": t.id,
           "display_name": t.name, "hidden": t.hidden, "organization_id": t.organization,
           "group_ids": t.groups});
    if let Some(icpc) = t.icpc_id {
        v["icpc_id"] = json!(icpc);
    }
    v
}

/// An organization (`icpc_id` only where set).
pub fn organization(o: &Organization) -> Value {
    let mut v =
        json!({"id": o.id, "name": o.name, "formal_name": o.formal_name, "country": o.country});
    if let Some(icpc) = &o.icpc_id {
        v["icpc_id"] = json!(icpc);
    }
    v
}

/// A group of teams (`icpc_id` only where set).
pub fn group(g: &Group) -> Value {
    let mut v = json!({"id": g.id, "name": g.name});
    if let Some(icpc) = &g.icpc_id {
        v["icpc_id"] = json!(icpc);
    }
    v
}

/// What the record keeps of a problem: its place in the contest and the
/// colour the contest sets. The API adds what the package says (name,
/// time limit, tests, its own colour where the contest sets none) when it
/// serves it.
pub fn problem_place(c: &Contest, ordinal: usize) -> Option<Value> {
    let p = c.problems.get(ordinal)?;
    let mut v = json!({"id": p.slug, "label": p.label, "ordinal": ordinal});
    // The standard's colour properties are text, never null: absent
    // where the contest sets none.
    if let Some(rgb) = &p.rgb {
        v["rgb"] = json!(rgb);
        v["color"] = json!(crate::color::color_name(rgb));
    }
    Some(v)
}

/// One try as the record and the API know it.
#[derive(Debug, Clone)]
pub struct Try<'a> {
    pub id: i64,
    /// The team's CLICS id.
    pub team: &'a str,
    pub problem: &'a str,
    pub language: &'a str,
    /// When it was made.
    pub at_ms: i64,
}

/// A try's result.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    pub verdict: Verdict,
    pub score: i64,
    pub time_ms: i64,
    pub end_ms: i64,
}

/// A submission, without its files (those depend on who reads it). Its
/// `language_id` is the judge's own id: readers give the API's id of it
/// from the configuration (the server's `clics_language`).
pub fn submission(c: &Contest, s: &Try<'_>) -> Value {
    // Java runs the class of its source file (`Main.java`); the others
    // have no entry point.
    let entry_point = (s.language == "java").then_some("Main");
    json!({
        "id": s.id.to_string(), "language_id": s.language,
        "problem_id": s.problem,
        "team_id": s.team, "time": format_time(s.at_ms),
        "contest_time": format_reltime(s.at_ms - c.start_ms), "entry_point": entry_point,
        "files": [],
    })
}

/// One judging of a try: its number (1 for the first, then one more for
/// each rejudge) and when it began.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Judging {
    pub number: i64,
    pub start_ms: i64,
}

/// The id of judging `number` of try `sub`: the try's own id for the
/// first, `<try>-<number>` for each later one. A judgement once ended is
/// never changed: a rejudge is a new judgement beside it.
pub fn judgement_id(sub: i64, number: i64) -> String {
    if number <= 1 {
        sub.to_string()
    } else {
        format!("{sub}-{number}")
    }
}

/// The try a judgement or run id belongs to (ids of [`judgement_id`] and
/// [`run`] begin with it).
pub fn try_of(id: &str) -> Option<i64> {
    id.split('-').next()?.parse().ok()
}

/// A try's judgement `judging`, final once `outcome` is known.
pub fn judgement(c: &Contest, s: &Try<'_>, judging: Judging, outcome: Option<Outcome>) -> Value {
    let start = judging.start_ms;
    let mut v = json!({
        "id": judgement_id(s.id, judging.number), "submission_id": s.id.to_string(),
        "judgement_type_id": null,
        "start_time": format_time(start), "start_contest_time": format_reltime(start - c.start_ms),
        "end_time": null, "end_contest_time": null,
    });
    if let Some(o) = outcome {
        v["judgement_type_id"] = json!(judgement_type(o.verdict));
        v["end_time"] = json!(format_time(o.end_ms));
        v["end_contest_time"] = json!(format_reltime(o.end_ms - c.start_ms));
        v["max_run_time"] = json!(o.time_ms as f64 / 1000.0);
        if c.scoring == Scoring::Ioi {
            v["score"] = json!(o.score);
        }
    }
    v
}

/// The key a run of a secret test carries in the record until it is read
/// ([`run_as_read`]); never shown.
const SECRET: &str = "secret_test";

/// Test `position` (from 0) of judgement `judgement`, ended at `end_ms`;
/// `sample`: its data is in the statement (else its figures are the
/// admins' only, [`run_as_read`]).
pub fn run(
    c: &Contest,
    judgement: &str,
    position: i64,
    verdict: Verdict,
    time_ms: i64,
    end_ms: i64,
    sample: bool,
) -> Value {
    let mut v = json!({
        "id": format!("{judgement}-{}", position + 1), "judgement_id": judgement,
        "ordinal": position + 1, "judgement_type_id": judgement_type(verdict),
        "time": format_time(end_ms), "contest_time": format_reltime(end_ms - c.start_ms),
        "run_time": time_ms as f64 / 1000.0,
    });
    if !sample {
        v[SECRET] = json!(true);
    }
    v
}

/// Run `v` ([`run`]) as a reader reads it: without the secret test's
/// time unless `secret_figures` (an admin). The time of a secret test, to
/// the millisecond, carries bits of its hidden input.
pub fn run_as_read(v: &mut Value, secret_figures: bool) {
    let Some(o) = v.as_object_mut() else {
        return;
    };
    if o.remove(SECRET).is_some() && !secret_figures {
        o.remove("run_time");
    }
}

/// A question to the judges, or an answer.
#[derive(Debug, Clone)]
pub struct Clarification<'a> {
    pub id: i64,
    /// The asker's account (`None`: an announcement, which is only its
    /// answer).
    pub team: Option<i64>,
    /// The asker's CLICS id.
    pub team_id: Option<&'a str>,
    /// The problem's label.
    pub label: Option<&'a str>,
    pub question: &'a str,
    pub asked_ms: i64,
    pub answer: Option<&'a str>,
    pub to_all: bool,
    pub answered_ms: Option<i64>,
}

/// The question `q<N>`, where there is one, as the judges and its asker
/// read it.
pub fn question(c: &Contest, q: &Clarification<'_>) -> Option<Value> {
    let mut v = public_question(c, q)?;
    v["from_team_id"] = json!(q.team_id?);
    Some(v)
}

/// The question `q<N>` as everyone else reads it once it is answered to
/// all: without who asked.
pub fn public_question(c: &Contest, q: &Clarification<'_>) -> Option<Value> {
    q.team?;
    Some(json!({
        "id": format!("q{}", q.id), "from_team_id": null, "to_team_id": null,
        "reply_to_id": null, "problem_id": problem_of(c, q.label), "text": q.question,
        "time": format_time(q.asked_ms), "contest_time": format_reltime(q.asked_ms - c.start_ms),
    }))
}

/// The answer `a<N>`, once given.
pub fn answer(c: &Contest, q: &Clarification<'_>) -> Option<Value> {
    let (answer, at) = (q.answer?, q.answered_ms?);
    let team = q.team_id;
    Some(json!({
        "id": format!("a{}", q.id), "from_team_id": null,
        "to_team_id": if q.to_all { None } else { team },
        "reply_to_id": q.team.map(|_| format!("q{}", q.id)), "problem_id": problem_of(c, q.label),
        "text": answer, "time": format_time(at), "contest_time": format_reltime(at - c.start_ms),
    }))
}

fn problem_of(c: &Contest, label: Option<&str>) -> Option<String> {
    label.and_then(|l| c.problem(l)).map(|p| p.slug.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::scoreboard::tests::START;

    #[test]
    fn the_state_reads_the_same_at_two_times_exactly_when_no_moment_lies_between() {
        let mut c = crate::contest::scoreboard::tests::contest(Scoring::Icpc);
        c.thawed_ms = Some(c.end_ms() + 600_000);
        c.finalized_ms = Some(c.end_ms() + 300_000);
        let moments = moments(&c);
        // Each moment, a millisecond either side, and times far off.
        let mut times = vec![START - 3_600_000, c.end_ms() + 7_200_000];
        for t in moments.into_iter().flatten() {
            times.extend([t - 1, t, t + 1]);
        }
        for &a in &times {
            for &b in &times {
                assert_eq!(
                    same_state(&c, a, b),
                    state(&c, a) == state(&c, b),
                    "at {a} and {b}"
                );
            }
        }
        assert!(!same_state(&c, START - 1, START));
        assert!(same_state(&c, START, START + 1));
    }
}
