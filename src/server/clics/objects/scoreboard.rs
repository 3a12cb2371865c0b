//! The scoreboard object.

use serde_json::{json, Value};

use super::state;
use crate::contest::time::{format_reltime, format_time};
use crate::contest::{Board, Contest, Scoring};

/// The scoreboard object; `names`: whether its reader may know which
/// problems the contest holds ([`crate::site::policy::may`], else no problem cells).
/// Rows in the board's order: rank, then team name as the standard
/// collates it ([`crate::contest::collate`]). A cell's `time` is the
/// minute of its solve (ICPC) or of its score's last raise (IOI), sent
/// only then; the row's `score.time` is the latest of them, once the team
/// has solved or scored anything.
pub fn scoreboard(c: &Contest, board: &Board, now: i64, names: bool) -> Value {
    json!({
        "time": format_time(now),
        "contest_time": format_reltime(now - c.start_ms),
        "state": state(c, now),
        "rows": rows(c, board, names),
    })
}

/// The scoreboard object with its rows given as JSON text (`rows`, of
/// [`rows`]), written out: what a reader is sent, without building the
/// rows again for each.
pub fn scoreboard_text(c: &Contest, rows: &str, now: i64) -> String {
    format!(
        r#"{{"contest_time":{},"rows":{rows},"state":{},"time":{}}}"#,
        Value::from(format_reltime(now - c.start_ms)),
        state(c, now),
        Value::from(format_time(now)),
    )
}

/// The scoreboard's rows ([`scoreboard`]).
pub fn rows(c: &Contest, board: &Board, names: bool) -> Value {
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
    Value::Array(rows)
}
