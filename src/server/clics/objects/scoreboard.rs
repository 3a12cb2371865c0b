//! The scoreboard object.

use serde::Serialize;
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
        "rows": serde_json::to_value(rows(c, board, names)).expect("rows are plain data"),
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

/// One row of the scoreboard, as the standard names its fields (in the
/// order a JSON object's keys are written here: by name).
#[derive(Serialize)]
pub struct RowOut<'a> {
    problems: Vec<CellOut<'a>>,
    rank: u32,
    score: ScoreOut,
    team_id: &'a str,
}

/// A row's `score`: ICPC's problems solved and time, or IOI's points.
#[derive(Serialize)]
struct ScoreOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    num_solved: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    total_time: Option<i64>,
}

/// A row's cell for one problem.
#[derive(Serialize)]
struct CellOut<'a> {
    num_judged: u32,
    num_pending: u32,
    problem_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<i64>,
}

/// The scoreboard's rows ([`scoreboard`]), written out as they are
/// (no JSON tree built for them: a board's 200 rows are many objects).
pub fn rows<'a>(c: &'a Contest, board: &'a Board, names: bool) -> Vec<RowOut<'a>> {
    let minute = |ms: i64| ms.div_euclid(60_000).max(0);
    let icpc = c.scoring == Scoring::Icpc;
    board
        .rows
        .iter()
        .map(|r| {
            let problems = r
                .cells
                .iter()
                .zip(&c.problems)
                .filter(|_| names)
                .map(|(cell, p)| {
                    let score = cell.score.unwrap_or(0);
                    let time = if icpc {
                        cell.time_ms.filter(|_| cell.solved)
                    } else {
                        cell.improved_ms.filter(|_| score > 0)
                    };
                    CellOut {
                        num_judged: cell.tries,
                        num_pending: cell.pending,
                        problem_id: &p.slug,
                        score: (!icpc).then_some(score),
                        solved: icpc.then_some(cell.solved),
                        time: time.map(minute),
                    }
                })
                .collect();
            let last = if icpc {
                r.last_ac_ms.filter(|_| r.solved > 0)
            } else {
                r.cells
                    .iter()
                    .filter_map(|cell| cell.improved_ms)
                    .max()
                    .filter(|_| r.score > 0)
            };
            RowOut {
                problems,
                rank: r.rank,
                score: ScoreOut {
                    num_solved: icpc.then_some(r.solved),
                    score: (!icpc).then_some(r.score),
                    time: last.map(minute),
                    total_time: icpc.then_some(r.penalty),
                },
                team_id: &r.team.team_id,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::scoreboard::tests::{contest, tried, START};
    use crate::contest::scoreboard::{scoreboard as board_of, Team, Viewer};
    use crate::verdict::Verdict;

    /// The rows are written as the standard names them, with each field
    /// only where it applies; the object around kept rows
    /// ([`scoreboard_text`]) is the object made whole ([`scoreboard`]).
    #[test]
    fn rows_are_written_as_the_standard_names_them() {
        let teams = vec![Team::new(1, "ann"), Team::new(2, "bob")];
        let tries = vec![
            tried(1, 1, "nim", 3, Verdict::WA),
            tried(2, 1, "nim", 10, Verdict::AC),
            tried(3, 2, "kayles", 20, Verdict::WA),
        ];
        let now = START + 3_600_000;
        let icpc = contest(Scoring::Icpc);
        let board = board_of(&icpc, &teams, &tries, Viewer::Public, now);
        let whole = scoreboard(&icpc, &board, now, true);
        assert_eq!(
            whole["rows"][0],
            json!({"rank": 1, "team_id": "1",
            "score": {"num_solved": 1, "total_time": 30, "time": 10},
            "problems": [
                {"problem_id": "nim", "num_judged": 2, "num_pending": 0, "solved": true, "time": 10},
                {"problem_id": "kayles", "num_judged": 0, "num_pending": 0, "solved": false},
            ]})
        );
        assert_eq!(
            whole["rows"][1]["score"],
            json!({"num_solved": 0, "total_time": 0})
        );
        let text = serde_json::to_string(&rows(&icpc, &board, true)).unwrap();
        let kept: Value = serde_json::from_str(&scoreboard_text(&icpc, &text, now)).unwrap();
        assert_eq!(kept, whole);
        let unnamed = scoreboard(&icpc, &board, now, false);
        assert_eq!(unnamed["rows"][0]["problems"], json!([]));

        let ioi = contest(Scoring::Ioi);
        let board = board_of(&ioi, &teams, &tries, Viewer::Public, now);
        let whole = scoreboard(&ioi, &board, now, true);
        assert_eq!(
            whole["rows"][0],
            json!({"rank": 1, "team_id": "1", "score": {"score": 100, "time": 10},
            "problems": [
                {"problem_id": "nim", "num_judged": 2, "num_pending": 0, "score": 100, "time": 10},
                {"problem_id": "kayles", "num_judged": 0, "num_pending": 0, "score": 0},
            ]})
        );
        let text = serde_json::to_string(&rows(&ioi, &board, true)).unwrap();
        let kept: Value = serde_json::from_str(&scoreboard_text(&ioi, &text, now)).unwrap();
        assert_eq!(kept, whole);
    }
}
