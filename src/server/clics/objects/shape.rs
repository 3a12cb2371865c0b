//! Which endpoints a contest serves and which properties each sends.

use serde_json::{json, Value};

use crate::contest::{Contest, Scoring};

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
