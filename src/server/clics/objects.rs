//! The Contest API's objects, built from the store as the standard shapes
//! them (times as TIME and RELTIME text, ids as strings), with the
//! freeze applied for the public and for other teams.

use serde_json::{json, Value};

use super::{ApiError, Role};
use crate::contest::time::{format_reltime, format_time, parse_time};
use crate::contest::{Board, Contest, Phase, Scoring, Team};
use crate::context::Context;
use crate::site::AppState;
use crate::store::{Clarification, ContestSubmission};
use crate::verdict::Verdict;

pub fn contest(c: &Contest) -> Value {
    let mut v = json!({
        "id": c.slug,
        "name": c.name,
        "formal_name": c.name,
        "start_time": format_time(c.start_ms),
        "countdown_pause_time": null,
        "duration": format_reltime(c.duration_s * 1000),
        // The freeze as it happened: an admin's early freeze included.
        "scoreboard_freeze_duration": c.freeze_ms()
            .filter(|&f| f < c.end_ms() || c.frozen_ms.is_some())
            .map(|f| format_reltime((c.end_ms() - f).max(0))),
        "scoreboard_type": match c.scoring { Scoring::Icpc => "pass-fail", Scoring::Ioi => "score" },
    });
    if c.scoring == Scoring::Icpc {
        v["penalty_time"] = json!(c.penalty_min);
    }
    v
}

/// The times the contest reached each state, `null` until then.
pub fn state(c: &Contest, now: i64) -> Value {
    let at = |t: Option<i64>| t.filter(|&t| t <= now).map(format_time);
    let ended = c.end_ms();
    // Final once the end passed and nothing is hidden any more.
    let finalized = if now < ended {
        None
    } else {
        match (c.freeze_ms(), c.thawed_ms) {
            (None, _) => Some(ended),
            (Some(_), Some(thawed)) => Some(thawed.max(ended)),
            (Some(_), None) => None,
        }
    };
    json!({
        "started": at(Some(c.start_ms)),
        "frozen": at(c.freeze_ms().filter(|&f| f < ended || c.frozen_ms.is_some())),
        "ended": at(Some(ended)),
        "thawed": at(c.thawed_ms),
        "finalized": at(finalized),
        "end_of_updates": at(finalized),
    })
}

pub fn access(role: &Role) -> Value {
    let all = |kind: &str, props: &[&str]| json!({"type": kind, "properties": props});
    let mut endpoints = vec![
        all(
            "contest",
            &[
                "id",
                "name",
                "formal_name",
                "start_time",
                "duration",
                "scoreboard_freeze_duration",
                "scoreboard_type",
                "penalty_time",
            ],
        ),
        all(
            "state",
            &[
                "started",
                "frozen",
                "ended",
                "thawed",
                "finalized",
                "end_of_updates",
            ],
        ),
        all("judgement-types", &["id", "name", "penalty", "solved"]),
        all(
            "languages",
            &["id", "name", "entry_point_required", "extensions"],
        ),
        all(
            "problems",
            &[
                "id",
                "label",
                "name",
                "ordinal",
                "time_limit",
                "test_data_count",
            ],
        ),
        all("teams", &["id", "name", "label", "display_name", "hidden"]),
        all(
            "submissions",
            &[
                "id",
                "language_id",
                "problem_id",
                "team_id",
                "time",
                "contest_time",
                "files",
            ],
        ),
        all(
            "judgements",
            &[
                "id",
                "submission_id",
                "judgement_type_id",
                "start_time",
                "start_contest_time",
                "end_time",
                "end_contest_time",
                "max_run_time",
            ],
        ),
        all(
            "runs",
            &[
                "id",
                "judgement_id",
                "ordinal",
                "judgement_type_id",
                "time",
                "contest_time",
                "run_time",
            ],
        ),
        all(
            "clarifications",
            &[
                "id",
                "from_team_id",
                "to_team_id",
                "reply_to_id",
                "problem_id",
                "text",
                "time",
                "contest_time",
            ],
        ),
        all("scoreboard", &["time", "contest_time", "state", "rows"]),
    ];
    // Every role reads the same endpoints; what each shows differs (the
    // freeze, others' clarifications).
    let _ = role;
    endpoints.push(all("event-feed", &["type", "id", "data", "token"]));
    json!({ "capabilities": [], "endpoints": endpoints })
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

pub fn judgement_types() -> Vec<Value> {
    let t = |id: &str, name: &str, penalty: bool, solved: bool| json!({"id": id, "name": name, "penalty": penalty, "solved": solved});
    vec![
        t("AC", "accepted", false, true),
        t("WA", "wrong answer", true, false),
        t("PE", "presentation error", true, false),
        t("TLE", "time limit exceeded", true, false),
        t("MLE", "memory limit exceeded", true, false),
        t("OLE", "output limit exceeded", true, false),
        t("RTE", "run-time error", true, false),
        t("CE", "compiler error", false, false),
        t("JE", "judging error", false, false),
    ]
}

pub fn languages(ctx: &Context) -> Vec<Value> {
    ctx.languages
        .iter()
        .map(|l| {
            json!({
                "id": l.id, "name": l.config.name, "entry_point_required": false,
                "extensions": l.config.extensions,
            })
        })
        .collect()
}

/// The board as the standard's scoreboard.
pub fn scoreboard(c: &Contest, board: &Board, now: i64) -> Value {
    let rows: Vec<Value> = board
        .rows
        .iter()
        .map(|r| {
            let problems: Vec<Value> = r
                .cells
                .iter()
                .zip(&c.problems)
                .map(|(cell, p)| {
                    let mut v = json!({
                        "problem_id": p.slug, "num_judged": cell.tries, "num_pending": cell.pending,
                    });
                    match c.scoring {
                        Scoring::Icpc => {
                            v["solved"] = json!(cell.solved);
                            if cell.solved {
                                v["time"] = json!(cell.minute.unwrap_or(0));
                                v["first_to_solve"] = json!(cell.first);
                            }
                        }
                        Scoring::Ioi => {
                            let score = cell.score.unwrap_or(0);
                            v["score"] = json!(score);
                            if score > 0 {
                                v["time"] = json!(cell.minute.unwrap_or(0).max(0));
                            }
                        }
                    }
                    v
                })
                .collect();
            let score = match c.scoring {
                Scoring::Icpc => json!({"num_solved": r.solved, "total_time": r.penalty}),
                Scoring::Ioi => json!({"score": r.score}),
            };
            json!({"rank": r.rank, "team_id": r.team.id.to_string(), "score": score, "problems": problems})
        })
        .collect();
    json!({
        "time": format_time(now),
        "contest_time": format_reltime(now - c.start_ms),
        "state": state(c, now),
        "rows": rows,
    })
}

/// What a role may read of a contest now, read once per request.
pub struct Snapshot {
    role: Role,
    now: i64,
    teams: Vec<Team>,
    submissions: Vec<(ContestSubmission, i64)>,
    runs: Vec<(i64, i64, String, i64)>,
    clarifications: Vec<Clarification>,
    contest: Contest,
}

impl Snapshot {
    pub async fn load(
        state: &AppState,
        c: &Contest,
        role: &Role,
        now: i64,
    ) -> Result<Snapshot, ApiError> {
        let store = &state.store;
        let teams = store.contest_teams(c).await?;
        let submissions = store
            .contest_submissions(c.id, None)
            .await?
            .into_iter()
            .filter_map(|s| parse_time(&s.submitted_at).map(|t| (s, t)))
            .collect();
        let viewer = match role {
            Role::Admin => None,
            Role::Team(id) => Some(*id),
            _ => Some(-1),
        };
        let clarifications = store
            .clarifications(c.id, viewer)
            .await?
            .into_iter()
            .filter(|q| viewer != Some(-1) || (q.to_all && q.answer.is_some()))
            .collect();
        Ok(Snapshot {
            role: role.clone(),
            now,
            teams,
            submissions,
            runs: store.contest_runs(c.id).await?,
            clarifications,
            contest: c.clone(),
        })
    }

    /// Whether the result of a submission by `team` made at `at` is shown
    /// (the one rule of the freeze, as everywhere).
    fn shows_result(&self, team: i64, at: i64) -> bool {
        !crate::site::policy::sealed(
            self.role.viewer(),
            Some(team),
            Some(&self.contest),
            at,
            self.now,
        )
    }

    pub async fn problems(&self, state: &AppState, c: &Contest) -> Result<Vec<Value>, ApiError> {
        if c.phase(self.now) == Phase::Before && !matches!(self.role, Role::Admin) {
            return Ok(Vec::new());
        }
        let ctx = state.ctx.clone();
        let problems = c.problems.clone();
        let list = tokio::task::spawn_blocking(move || {
            problems
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let problem = ctx.catalog.load(&p.slug)?;
                    Ok(json!({
                        "id": p.slug, "label": p.label, "name": problem.manifest.name,
                        "ordinal": i, "time_limit": problem.manifest.time_limit,
                        "test_data_count": problem.manifest.tests.len(),
                    }))
                })
                .collect::<Result<Vec<Value>, crate::problem::Error>>()
        })
        .await?;
        list.map_err(|e| ApiError::internal(&e))
    }

    pub fn teams(&self) -> Vec<Value> {
        self.teams
            .iter()
            .map(|t| {
                json!({"id": t.id.to_string(), "name": t.name, "label": t.id.to_string(),
                       "display_name": t.name, "hidden": false})
            })
            .collect()
    }

    pub fn submissions(&self, c: &Contest) -> Vec<Value> {
        self.submissions
            .iter()
            .map(|(s, at)| self.submission(c, s, *at))
            .collect()
    }

    /// Whether the role may read the files of a submission by `team`: an
    /// admin, or the team itself.
    pub fn reads_files(&self, team: i64) -> bool {
        match self.role {
            Role::Admin => true,
            Role::Team(id) => id == team,
            _ => false,
        }
    }

    /// A submission, with its files where the role may read them.
    fn submission(&self, c: &Contest, s: &ContestSubmission, at: i64) -> Value {
        let mut v = submission(c, s, at);
        if self.reads_files(s.user_id) {
            v["files"] = json!([{
                "href": format!("contests/{}/submissions/{}/files", c.slug, s.id),
                "filename": "files.zip", "mime": "application/zip",
            }]);
        }
        v
    }

    /// The contest's submissions as read, with the times they were made.
    pub fn stored(&self) -> &[(ContestSubmission, i64)] {
        &self.submissions
    }

    /// The judgements shown: one per judged submission (its id), its
    /// latest result.
    pub fn judgements(&self, c: &Contest) -> Vec<Value> {
        self.submissions
            .iter()
            .filter(|(s, at)| self.shows_result(s.user_id, *at))
            .map(|(s, at)| judgement(c, s, *at))
            .collect()
    }

    pub fn runs(&self, c: &Contest) -> Vec<Value> {
        let shown: std::collections::BTreeMap<i64, (i64, i64)> = self
            .submissions
            .iter()
            .filter(|(s, at)| s.status == "done" && self.shows_result(s.user_id, *at))
            .map(|(s, at)| {
                (
                    s.id,
                    (
                        *at,
                        s.finished_at.as_deref().and_then(parse_time).unwrap_or(*at),
                    ),
                )
            })
            .collect();
        self.runs
            .iter()
            .filter_map(|(sub, position, verdict, time_ms)| {
                let (_, end) = shown.get(sub)?;
                let verdict = verdict.parse::<Verdict>().ok()?;
                Some(json!({
                    "id": format!("{sub}-{}", position + 1), "judgement_id": sub.to_string(),
                    "ordinal": position + 1, "judgement_type_id": judgement_type(verdict),
                    "time": format_time(*end), "contest_time": format_reltime(end - c.start_ms),
                    "run_time": *time_ms as f64 / 1000.0,
                }))
            })
            .collect()
    }

    pub fn clarifications(&self, c: &Contest) -> Vec<Value> {
        let mut out = Vec::new();
        for q in &self.clarifications {
            let problem = q
                .label
                .as_deref()
                .and_then(|l| c.problem(l))
                .map(|p| p.slug.clone());
            let team = q.user_id.map(|id| id.to_string());
            // An announcement is only its answer.
            if q.user_id.is_some() {
                out.push(json!({
                    "id": format!("q{}", q.id), "from_team_id": team, "to_team_id": null,
                    "reply_to_id": null, "problem_id": problem, "text": q.question,
                    "time": format_time(q.asked_ms), "contest_time": format_reltime(q.asked_ms - c.start_ms),
                }));
            }
            if let (Some(answer), Some(at)) = (&q.answer, q.answered_ms) {
                out.push(json!({
                    "id": format!("a{}", q.id), "from_team_id": null,
                    "to_team_id": if q.to_all { None } else { team.clone() },
                    "reply_to_id": q.user_id.map(|_| format!("q{}", q.id)), "problem_id": problem,
                    "text": answer, "time": format_time(at), "contest_time": format_reltime(at - c.start_ms),
                }));
            }
        }
        out
    }

    /// Each shown object with the time it came to be, for the event feed.
    pub fn timed(&self, c: &Contest) -> Vec<(i64, &'static str, Value)> {
        let mut out = Vec::new();
        for (s, at) in &self.submissions {
            out.push((*at, "submissions", self.submission(c, s, *at)));
            if self.shows_result(s.user_id, *at) {
                let end = s.finished_at.as_deref().and_then(parse_time);
                out.push((*at, "judgements", judgement_started(c, s, *at)));
                if let Some(end) = end {
                    out.push((end, "judgements", judgement(c, s, *at)));
                }
            }
        }
        for run in self.runs(c) {
            let at = run["time"].as_str().and_then(parse_time).unwrap_or(0);
            out.push((at, "runs", run));
        }
        for q in self.clarifications(c) {
            let at = q["time"].as_str().and_then(parse_time).unwrap_or(0);
            out.push((at, "clarifications", q));
        }
        out
    }
}

fn submission(c: &Contest, s: &ContestSubmission, at: i64) -> Value {
    // Java runs the class of its source file (`Main.java`); the others
    // have no entry point.
    let entry_point = (s.language == "java").then_some("Main");
    json!({
        "id": s.id.to_string(), "language_id": s.language, "problem_id": s.problem,
        "team_id": s.user_id.to_string(), "time": format_time(at),
        "contest_time": format_reltime(at - c.start_ms), "entry_point": entry_point,
        "files": [],
    })
}

fn judgement_started(c: &Contest, s: &ContestSubmission, at: i64) -> Value {
    json!({
        "id": s.id.to_string(), "submission_id": s.id.to_string(), "judgement_type_id": null,
        "start_time": format_time(at), "start_contest_time": format_reltime(at - c.start_ms),
        "end_time": null, "end_contest_time": null,
    })
}

fn judgement(c: &Contest, s: &ContestSubmission, at: i64) -> Value {
    let mut v = judgement_started(c, s, at);
    let verdict = s.verdict.as_deref().and_then(|v| v.parse::<Verdict>().ok());
    if let (Some(verdict), Some(end)) = (verdict, s.finished_at.as_deref().and_then(parse_time)) {
        v["judgement_type_id"] = json!(judgement_type(verdict));
        v["end_time"] = json!(format_time(end));
        v["end_contest_time"] = json!(format_reltime(end - c.start_ms));
        v["max_run_time"] = json!(s.time_ms.unwrap_or(0) as f64 / 1000.0);
        if c.scoring == Scoring::Ioi {
            v["score"] = json!(s.score.unwrap_or(0));
        }
    }
    v
}
