//! The Contest API's objects, built from the store as the standard shapes
//! them (times as TIME and RELTIME text, ids as strings), with the
//! freeze applied for the public and for other teams.

use serde_json::{json, Value};

use super::{ApiError, Role};
use crate::contest::clics;
use crate::contest::time::{format_reltime, format_time, parse_time};
use crate::contest::{Board, Contest, Scoring};
use crate::context::Context;
use crate::site::AppState;
use crate::store::ContestSubmission;

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
/// problems the contest holds ([`crate::site::policy::may`], else no problem cells).
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
            json!({"rank": r.rank, "team_id": r.team.team_id, "score": score, "problems": problems})
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

/// The tries of `c`'s teams as stored, with the times they were made (a
/// jury's tries are no team's), oldest first.
///
/// # Errors
/// The store's failures.
pub async fn team_tries(
    state: &AppState,
    c: &Contest,
) -> Result<Vec<(ContestSubmission, i64)>, ApiError> {
    let teams = state.store.contest_teams(c).await?;
    Ok(state
        .store
        .contest_submissions(c.id, None)
        .await?
        .into_iter()
        .filter(|s| teams.iter().any(|t| t.id == s.user_id))
        .filter_map(|s| parse_time(&s.submitted_at).map(|t| (s, t)))
        .collect())
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
