//! The Contest API's objects, built from the store as the standard shapes
//! them (times as TIME and RELTIME text, ids as strings), with the
//! freeze applied for the public and for other teams.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::{ApiError, Role};
use crate::contest::affiliation::{Group, Organization};
use crate::contest::clics::{self, Outcome, Try};
use crate::contest::time::{format_reltime, format_time, parse_time};
use crate::contest::{Board, Contest, Scoring, Team};
use crate::context::Context;
use crate::site::policy::{self, Object};
use crate::site::AppState;
use crate::store::affiliations::Affiliation;
use crate::store::{Clarification, ContestSubmission};
use crate::verdict::Verdict;

pub use crate::contest::clics::{contest, state};

/// The properties each endpoint of contest `c` sends, in the order of
/// the standard's tables: what `access` declares, and what a collection
/// may be filtered on. One list, so the two cannot differ from what is
/// sent (the contest's scoring decides `penalty_time`, `max_score` and a
/// judgement's `score`).
pub fn endpoints(c: &Contest) -> Vec<(&'static str, Vec<&'static str>)> {
    let icpc = c.scoring == Scoring::Icpc;
    let mut contest = vec![
        "id",
        "name",
        "formal_name",
        "start_time",
        "countdown_pause_time",
        "duration",
        "scoreboard_freeze_duration",
        "scoreboard_type",
    ];
    let mut problems = vec![
        "id",
        "label",
        "name",
        "ordinal",
        "rgb",
        "color",
        "time_limit",
        "test_data_count",
    ];
    let mut judgements = vec![
        "id",
        "submission_id",
        "judgement_type_id",
        "start_time",
        "start_contest_time",
        "end_time",
        "end_contest_time",
        "max_run_time",
    ];
    if icpc {
        contest.push("penalty_time");
    } else {
        problems.push("max_score");
        judgements.insert(3, "score");
    }
    vec![
        ("contest", contest),
        (
            "state",
            vec![
                "started",
                "frozen",
                "ended",
                "thawed",
                "finalized",
                "end_of_updates",
            ],
        ),
        ("judgement-types", vec!["id", "name", "penalty", "solved"]),
        (
            "languages",
            vec!["id", "name", "entry_point_required", "extensions"],
        ),
        ("problems", problems),
        ("groups", vec!["id", "name"]),
        (
            "organizations",
            vec!["id", "name", "formal_name", "country"],
        ),
        (
            "teams",
            vec![
                "id",
                "label",
                "name",
                "display_name",
                "organization_id",
                "group_ids",
                "hidden",
            ],
        ),
        (
            "submissions",
            vec![
                "id",
                "language_id",
                "problem_id",
                "team_id",
                "time",
                "contest_time",
                "entry_point",
                "files",
            ],
        ),
        ("judgements", judgements),
        (
            "runs",
            vec![
                "id",
                "judgement_id",
                "ordinal",
                "judgement_type_id",
                "time",
                "contest_time",
                "run_time",
            ],
        ),
        (
            "clarifications",
            vec![
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
        ("awards", vec!["id", "citation", "team_ids"]),
        ("scoreboard", vec!["time", "contest_time", "state", "rows"]),
        ("event-feed", vec!["type", "id", "data", "token"]),
    ]
}

/// The properties endpoint `kind` of `c` sends (none: no such endpoint).
pub fn properties(c: &Contest, kind: &str) -> Vec<&'static str> {
    endpoints(c)
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, p)| p)
        .unwrap_or_default()
}

/// The access object: every endpoint served and the properties it
/// sends. Every role reads the same endpoints; what each shows differs
/// (the freeze, others' clarifications).
pub fn access(c: &Contest) -> Value {
    let endpoints: Vec<Value> = endpoints(c)
        .into_iter()
        .map(|(kind, props)| json!({"type": kind, "properties": props}))
        .collect();
    json!({ "capabilities": [], "endpoints": endpoints })
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
                "id": clics_language(ctx, &l.id),
                "name": l.config.name,
                "entry_point_required": false,
                "extensions": l.config.extensions,
            })
        })
        .collect()
}

/// The scoreboard object; `names`: whether its reader may know which
/// problems the contest holds ([`policy::may`], else no problem cells).
/// Rows in the board's order: rank, then team name as the standard
/// collates it ([`crate::contest::collate`]). A cell's `time` is the
/// minute of its solve (ICPC) or of its score's last raise (IOI), sent
/// only then; the row's `score.time` is the latest of them, once the team
/// has solved or scored anything.
pub fn scoreboard(c: &Contest, board: &Board, now: i64, names: bool) -> Value {
    let minute = |ms: i64| ms.div_euclid(60_000).max(0);
    let rows: Vec<Value> = board
        .rows
        .iter()
        .map(|r| {
            let problems: Vec<Value> = r
                .cells
                .iter()
                .zip(&c.problems)
                .filter(|_| names)
                .map(|(cell, p)| {
                    let mut v = json!({
                        "problem_id": p.slug, "num_judged": cell.tries, "num_pending": cell.pending,
                    });
                    let time = match c.scoring {
                        Scoring::Icpc => {
                            v["solved"] = json!(cell.solved);
                            cell.time_ms.filter(|_| cell.solved)
                        }
                        Scoring::Ioi => {
                            let score = cell.score.unwrap_or(0);
                            v["score"] = json!(score);
                            cell.improved_ms.filter(|_| score > 0)
                        }
                    };
                    if let Some(ms) = time {
                        v["time"] = json!(minute(ms));
                    }
                    v
                })
                .collect();
            let mut score = match c.scoring {
                Scoring::Icpc => json!({"num_solved": r.solved, "total_time": r.penalty}),
                Scoring::Ioi => json!({"score": r.score}),
            };
            let last = match c.scoring {
                Scoring::Icpc => r.last_ac_ms.filter(|_| r.solved > 0),
                Scoring::Ioi => r
                    .cells
                    .iter()
                    .filter_map(|cell| cell.improved_ms)
                    .max()
                    .filter(|_| r.score > 0),
            };
            if let Some(ms) = last {
                score["time"] = json!(minute(ms));
            }
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

/// The Contest API's id of the judge's language `id`: its `clics_id` in
/// the configuration, else the standard's name for it
/// ([`clics::language_id`]). One mapping for the languages endpoint, the
/// submissions and the feed, so they cannot disagree. An id no language
/// has (a record written before ids were mapped on reading) is as it is.
pub fn clics_language(ctx: &Context, id: &str) -> String {
    ctx.languages
        .iter()
        .find(|l| l.id == id)
        .and_then(|l| l.config.clics_id.clone())
        .unwrap_or_else(|| clics::language_id(id).to_string())
}

/// What a role may read of a contest now, read once per request.
pub struct Snapshot {
    role: Role,
    now: i64,
    teams: Vec<Team>,
    /// Each account's organization and groups, and those the contest's
    /// teams are in.
    affiliations: BTreeMap<i64, Affiliation>,
    organizations: Vec<Organization>,
    groups: Vec<Group>,
    submissions: Vec<(ContestSubmission, i64)>,
    /// The judge's language ids as the API names them.
    languages: BTreeMap<String, String>,
    runs: Vec<(i64, i64, String, i64, String)>,
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
        let (organizations, groups, affiliations) = store.affiliations().await?;
        let named = |pick: &dyn Fn(&Affiliation) -> bool| {
            teams
                .iter()
                .any(|t| affiliations.get(&t.id).is_some_and(pick))
        };
        let organizations = organizations
            .into_iter()
            .filter(|o| named(&|a| a.0.as_ref() == Some(&o.id)))
            .collect();
        let groups = groups
            .into_iter()
            .filter(|g| named(&|a| a.1.contains(&g.id)))
            .collect();
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
            affiliations,
            organizations,
            groups,
            languages: state
                .ctx
                .languages
                .iter()
                .map(|l| (l.id.clone(), clics_language(&state.ctx, &l.id)))
                .collect(),
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
        if !policy::may(c, self.role.who(), Object::ProblemNames, self.now) {
            return Ok(Vec::new());
        }
        let mut out = Vec::with_capacity(c.problems.len());
        for i in 0..c.problems.len() {
            if let Some(mut p) = clics::problem_place(c, i) {
                fill_problem(state, c, &mut p).await?;
                out.push(p);
            }
        }
        Ok(out)
    }

    pub fn teams(&self) -> Vec<Value> {
        let none = (None, Vec::new());
        self.teams
            .iter()
            .map(|t| {
                let (organization, groups) = self.affiliations.get(&t.id).unwrap_or(&none);
                clics::team(t.id, &t.name, organization.as_deref(), groups)
            })
            .collect()
    }

    /// The organizations of the contest's teams.
    pub fn organizations(&self) -> Vec<Value> {
        self.organizations.iter().map(clics::organization).collect()
    }

    /// The groups the contest's teams are in.
    pub fn groups(&self) -> Vec<Value> {
        self.groups.iter().map(clics::group).collect()
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
        reads_files(&self.role, team)
    }

    /// A submission, with its files where the role may read them.
    fn submission(&self, c: &Contest, s: &ContestSubmission, at: i64) -> Value {
        let mut v = clics::submission(c, &as_try(s, at));
        if let Some(id) = self.languages.get(&s.language) {
            v["language_id"] = json!(id);
        }
        if self.reads_files(s.user_id) {
            v["files"] = files(c, &s.id.to_string());
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
            .map(|(s, at)| clics::judgement(c, &as_try(s, *at), outcome(s)))
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
        let figures = policy::may(c, self.role.who(), Object::SecretFigures, self.now);
        self.runs
            .iter()
            .filter_map(|(sub, position, verdict, time_ms, group)| {
                let (_, end) = shown.get(sub)?;
                let verdict = verdict.parse::<Verdict>().ok()?;
                let sample = group == "sample";
                let mut run = clics::run(c, *sub, *position, verdict, *time_ms, *end, sample);
                clics::run_as_read(&mut run, figures);
                Some(run)
            })
            .collect()
    }

    pub fn clarifications(&self, c: &Contest) -> Vec<Value> {
        let mut out = Vec::new();
        for q in &self.clarifications {
            let q = clics::Clarification {
                id: q.id,
                team: q.user_id,
                label: q.label.as_deref(),
                question: &q.question,
                asked_ms: q.asked_ms,
                answer: q.answer.as_deref(),
                to_all: q.to_all,
                answered_ms: q.answered_ms,
            };
            out.extend(clics::question(c, &q));
            out.extend(clics::answer(c, &q));
        }
        out
    }
}

/// Whether `role` may read the files of a submission by `team`: an admin,
/// or the team itself.
pub fn reads_files(role: &Role, team: i64) -> bool {
    match role {
        Role::Admin => true,
        Role::Team(id) => *id == team,
        _ => false,
    }
}

/// The `files` of submission `id` of contest `c`.
pub fn files(c: &Contest, id: &str) -> Value {
    json!([{
        "href": format!("contests/{}/submissions/{id}/files", c.slug),
        "filename": "files.zip", "mime": "application/zip",
    }])
}

/// Problem `p` (its place in contest `c`) with what its package says,
/// and its `max_score` in a scoring contest (every problem scores 0 to
/// 100).
///
/// # Errors
/// A package that cannot be read.
pub async fn fill_problem(state: &AppState, c: &Contest, p: &mut Value) -> Result<(), ApiError> {
    let ctx = state.ctx.clone();
    let slug = p["id"].as_str().unwrap_or_default().to_string();
    let manifest = tokio::task::spawn_blocking(move || {
        ctx.catalog.load(&slug).map(|problem| {
            (
                problem.manifest.name.clone(),
                problem.manifest.time_limit,
                problem.manifest.tests.len(),
                problem.manifest.rgb.clone(),
                problem.manifest.color.clone(),
            )
        })
    })
    .await?
    .map_err(|e| ApiError::internal(&e))?;
    p["name"] = json!(manifest.0);
    p["time_limit"] = json!(manifest.1);
    p["test_data_count"] = json!(manifest.2);
    // The contest's colour, else the problem's own, else none (the
    // properties are absent, as the standard has no null for them).
    if let (None, Some(rgb), Some(color)) = (p.get("rgb"), manifest.3, manifest.4) {
        p["rgb"] = json!(rgb);
        p["color"] = json!(color);
    }
    if c.scoring == Scoring::Ioi {
        p["max_score"] = json!(100);
    }
    Ok(())
}

fn as_try(s: &ContestSubmission, at: i64) -> Try<'_> {
    Try {
        id: s.id,
        team: s.user_id,
        problem: &s.problem,
        language: &s.language,
        at_ms: at,
    }
}

fn outcome(s: &ContestSubmission) -> Option<Outcome> {
    Some(Outcome {
        verdict: s.verdict.as_deref()?.parse().ok()?,
        score: s.score.unwrap_or(0),
        time_ms: s.time_ms.unwrap_or(0),
        end_ms: s.finished_at.as_deref().and_then(parse_time)?,
    })
}
