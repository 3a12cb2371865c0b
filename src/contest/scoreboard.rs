//! The scoreboard, a pure function of a contest's attempts: the same
//! history always gives the same board, so a rejudge (a changed verdict)
//! changes it and nothing else does.
//!
//! ICPC: problems solved, then penalty time: for each solved problem the
//! minutes from the start to its first accepted try plus `penalty_min`
//! for each earlier rejected try (CE and IE are not tries; tries after the
//! first accepted one are ignored). Ties are broken by the minute of the
//! last accepted try; teams still equal share their rank, listed by name
//! in the order the Contest API names ([`super::collate`]).
//!
//! IOI: the sum over problems of the best score; where a problem has
//! groups, each group's best score over all tries counts. A problem is
//! solved once its full 100 points are reached. Equal sums share their
//! rank.
//!
//! The freeze: a try made at or after the freeze by another team is
//! pending to participants and the public until the results are revealed;
//! a team always sees its own, and admins see everything.

use std::collections::BTreeMap;

use super::{Contest, Scoring};
use crate::verdict::Verdict;

/// A participant.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Team {
    /// Its account.
    pub id: i64,
    pub name: String,
    /// Its CLICS id: its registration's, else its account number.
    pub team_id: String,
    /// Off the board (and so the awards) for every reader.
    pub hidden: bool,
}

impl Team {
    /// A shown team whose CLICS id is its account number.
    pub fn new(id: i64, name: impl Into<String>) -> Team {
        Team {
            id,
            name: name.into(),
            team_id: id.to_string(),
            hidden: false,
        }
    }
}

/// A judged try's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub verdict: Verdict,
    /// 0 to 100.
    pub score: u32,
    /// Each group's score, where the problem has groups.
    pub groups: Vec<(String, u32)>,
}

/// One submission to a contest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub id: i64,
    pub team: i64,
    /// The catalog slug.
    pub problem: String,
    /// Unix milliseconds.
    pub at_ms: i64,
    /// `None` while not yet judged.
    pub result: Option<Judged>,
}

/// Who looks at the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    Admin,
    Team(i64),
    Public,
}

/// One team's standing on one problem.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    pub label: String,
    /// Tries that count: rejected ones, plus the accepted one.
    pub tries: u32,
    /// Tries not judged yet, or hidden by the freeze.
    pub pending: u32,
    /// Milliseconds from the start to the earliest of them (a first
    /// solve is decided only once no earlier try is pending).
    #[serde(skip)]
    pub pending_from_ms: Option<i64>,
    pub solved: bool,
    /// The first accepted try of this problem in the contest.
    pub first: bool,
    /// Minutes from the start to the accepted try (ICPC).
    pub minute: Option<i64>,
    /// Milliseconds from the start to the accepted try.
    pub time_ms: Option<i64>,
    /// The best score (IOI), once a try is judged.
    pub score: Option<u32>,
    /// Milliseconds from the start to the try that last raised the score
    /// (IOI; `None` while it is 0).
    pub improved_ms: Option<i64>,
    /// The penalty minutes this problem adds (ICPC, solved only).
    pub penalty: i64,
}

impl Cell {
    /// Counts a pending try made `ms` after the start (tries come in
    /// time order).
    fn pend(&mut self, ms: i64) {
        self.pending += 1;
        self.pending_from_ms.get_or_insert(ms);
    }
}

/// One line of the board.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Row {
    /// From 1; equal teams share it.
    pub rank: u32,
    pub team: Team,
    pub solved: u32,
    /// Penalty minutes (ICPC).
    pub penalty: i64,
    /// The sum of the best scores (IOI).
    pub score: u32,
    /// Milliseconds from the start to the last accepted try.
    pub last_ac_ms: Option<i64>,
    pub cells: Vec<Cell>,
}

/// The board as one viewer sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Board {
    pub scoring: Scoring,
    /// Some results are hidden from this viewer by the freeze.
    pub frozen: bool,
    pub rows: Vec<Row>,
}

/// The board of `contest` at `now_ms` for `viewer`, over `attempts` by
/// `teams` (attempts by others, or on problems not in the contest, are
/// left out).
pub fn scoreboard(
    contest: &Contest,
    teams: &[Team],
    attempts: &[Attempt],
    viewer: Viewer,
    now_ms: i64,
) -> Board {
    let hide_from = contest.hidden_from(viewer, now_ms);
    let sight = Sight {
        contest,
        viewer,
        now_ms,
    };
    let index: BTreeMap<&str, usize> = contest
        .problems
        .iter()
        .enumerate()
        .map(|(i, p)| (p.slug.as_str(), i))
        .collect();
    // A hidden team has no row: it is off the board for every reader.
    let teams: Vec<&Team> = teams.iter().filter(|t| !t.hidden).collect();
    let mut by_team: BTreeMap<i64, Vec<Vec<&Attempt>>> = teams
        .iter()
        .map(|t| (t.id, vec![Vec::new(); contest.problems.len()]))
        .collect();
    for a in attempts {
        if let (Some(lists), Some(&p)) = (by_team.get_mut(&a.team), index.get(a.problem.as_str())) {
            lists[p].push(a);
        }
    }
    for list in by_team.values_mut().flatten() {
        list.sort_by_key(|a| (a.at_ms, a.id));
    }
    let mut rows: Vec<Row> = teams
        .iter()
        .map(|team| {
            let cells: Vec<Cell> = by_team[&team.id]
                .iter()
                .zip(&contest.problems)
                .map(|(list, problem)| {
                    let mut cell = match contest.scoring {
                        Scoring::Icpc => icpc_cell(contest, list, sight),
                        Scoring::Ioi => ioi_cell(contest, list, sight),
                    };
                    cell.label = problem.label.clone();
                    cell
                })
                .collect();
            Row {
                rank: 0,
                team: (*team).clone(),
                solved: cells.iter().filter(|c| c.solved).count() as u32,
                penalty: cells.iter().map(|c| c.penalty).sum(),
                score: cells.iter().filter_map(|c| c.score).sum(),
                last_ac_ms: cells.iter().filter_map(|c| c.time_ms).max(),
                cells,
            }
        })
        .collect();
    mark_first_solves(&mut rows);
    let key = |r: &Row| match contest.scoring {
        Scoring::Icpc => (
            -i64::from(r.solved),
            r.penalty,
            r.last_ac_ms.map_or(-1, |ms| ms / 60_000),
        ),
        Scoring::Ioi => (-i64::from(r.score), 0, 0),
    };
    // Each name's collation key made once, not per comparison.
    rows.sort_by_cached_key(|r| (key(r), super::collate::key(&r.team.name)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    Board {
        scoring: contest.scoring,
        frozen: hide_from.is_some(),
        rows,
    }
}

/// Whether a judged try counts as a try at all.
fn counts(verdict: Verdict) -> bool {
    !matches!(verdict, Verdict::CE | Verdict::IE)
}

/// What a viewer may see of each try.
#[derive(Clone, Copy)]
struct Sight<'c> {
    contest: &'c Contest,
    viewer: Viewer,
    now_ms: i64,
}

impl Sight<'_> {
    /// The result of `a` as shown (`None`: pending).
    fn result<'a>(&self, a: &'a Attempt) -> Option<&'a Judged> {
        if self
            .contest
            .hides(self.viewer, Some(a.team), a.at_ms, self.now_ms)
        {
            None
        } else {
            a.result.as_ref()
        }
    }
}

fn icpc_cell(contest: &Contest, list: &[&Attempt], sight: Sight) -> Cell {
    let mut cell = Cell::default();
    let mut rejected = 0i64;
    for a in list {
        match sight.result(a) {
            None => cell.pend(a.at_ms - contest.start_ms),
            Some(j) if !counts(j.verdict) => {}
            Some(j) if j.verdict == Verdict::AC => {
                let time = a.at_ms - contest.start_ms;
                cell.solved = true;
                cell.time_ms = Some(time);
                cell.minute = Some(time.div_euclid(60_000));
                cell.penalty = time.div_euclid(60_000) + rejected * contest.penalty_min;
                cell.tries = rejected as u32 + 1;
                return cell;
            }
            Some(_) => rejected += 1,
        }
    }
    cell.tries = rejected as u32;
    cell
}

fn ioi_cell(contest: &Contest, list: &[&Attempt], sight: Sight) -> Cell {
    let mut cell = Cell::default();
    let mut best_whole: Option<u32> = None;
    let mut best_group: BTreeMap<&str, u32> = BTreeMap::new();
    let mut shown = 0u32;
    for a in list {
        let Some(j) = sight.result(a) else {
            cell.pend(a.at_ms - contest.start_ms);
            continue;
        };
        if !counts(j.verdict) {
            continue;
        }
        cell.tries += 1;
        best_whole = Some(best_whole.unwrap_or(0).max(j.score));
        for (name, score) in &j.groups {
            let slot = best_group.entry(name.as_str()).or_insert(0);
            *slot = (*slot).max(*score);
        }
        let total = if best_group.is_empty() {
            best_whole.unwrap_or(0)
        } else {
            best_group.values().sum::<u32>()
        };
        let capped = total.min(100);
        if capped > shown {
            shown = capped;
            cell.improved_ms = Some(a.at_ms - contest.start_ms);
        }
        if total >= 100 && !cell.solved {
            cell.solved = true;
            cell.time_ms = Some(a.at_ms - contest.start_ms);
            cell.minute = Some((a.at_ms - contest.start_ms).div_euclid(60_000));
        }
    }
    cell.score = best_whole.map(|whole| {
        if best_group.is_empty() {
            whole
        } else {
            best_group.values().sum::<u32>().min(100)
        }
    });
    cell
}

/// Marks, for each problem, the cell of the earliest accepted try the
/// board shows.
fn mark_first_solves(rows: &mut [Row]) {
    let problems = rows.first().map_or(0, |r| r.cells.len());
    for p in 0..problems {
        let first = rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.cells[p].time_ms.map(|t| (t, i)))
            .min();
        if let Some((time, _)) = first {
            for r in rows.iter_mut() {
                if r.cells[p].time_ms == Some(time) {
                    r.cells[p].first = true;
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "scoreboard_tests.rs"]
pub(crate) mod tests;
