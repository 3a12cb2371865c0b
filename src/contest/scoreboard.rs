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

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::{collate, Contest, Scoring};
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Viewer {
    Admin,
    Team(i64),
    Public,
}

/// One team's standing on one problem.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Cell {
    /// Shared by the cells of its column: a board is copied for every
    /// version read, its cells with it.
    pub label: std::sync::Arc<str>,
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
    /// Shared by the copies of its row: a board is copied for every
    /// version read.
    pub team: std::sync::Arc<Team>,
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
    KeptBoard::new(contest, teams, attempts, viewer, now_ms).board()
}

/// Where a row stands: its sort key, its name's collation key and its
/// place among the teams (equal teams keep the order they were given in).
type Place = ((i64, i64, i64), collate::Key, usize);

/// A board kept up to date try by try: a changed try costs the work of
/// its own cell and row (and a logarithm of the number of teams), not a
/// computation of the whole board. [`KeptBoard::board`] reads it out;
/// [`scoreboard`] is a kept board read once.
///
/// What a viewer sees of a try depends on the time only through the
/// freeze's hiding ([`Contest::hidden_from`]): a kept board stays right
/// while [`KeptBoard::is_for`] says so.
#[derive(Debug, Clone)]
pub struct KeptBoard {
    contest: Contest,
    viewer: Viewer,
    now_ms: i64,
    /// Each problem's column, by slug.
    columns: HashMap<String, usize>,
    /// Each shown team's slot, by account.
    slots: HashMap<i64, usize>,
    /// By slot: the teams in the order given, ranks not set.
    rows: Vec<Row>,
    /// By slot, each name's collation key.
    names: Vec<collate::Key>,
    /// Each cell's tries, by slot and column, in time order.
    tries: HashMap<(usize, usize), Vec<Attempt>>,
    /// Each counted try's cell, by id.
    cells: HashMap<i64, (usize, usize)>,
    /// The rows best first.
    order: BTreeSet<Place>,
    /// By column, each solved cell's time and slot.
    solves: Vec<BTreeSet<(i64, usize)>>,
}

impl KeptBoard {
    /// The board of `contest` at `now_ms` for `viewer` over `attempts` by
    /// `teams`, as [`scoreboard`] has it, kept.
    pub fn new(
        contest: &Contest,
        teams: &[Team],
        attempts: &[Attempt],
        viewer: Viewer,
        now_ms: i64,
    ) -> KeptBoard {
        // A hidden team has no row: it is off the board for every reader.
        let shown: Vec<&Team> = teams.iter().filter(|t| !t.hidden).collect();
        let mut kept = KeptBoard {
            contest: contest.clone(),
            viewer,
            now_ms,
            columns: contest
                .problems
                .iter()
                .enumerate()
                .map(|(i, p)| (p.slug.clone(), i))
                .collect(),
            slots: shown.iter().enumerate().map(|(i, t)| (t.id, i)).collect(),
            rows: shown
                .iter()
                .map(|t| Row {
                    rank: 0,
                    team: std::sync::Arc::new((*t).clone()),
                    solved: 0,
                    penalty: 0,
                    score: 0,
                    last_ac_ms: None,
                    cells: Vec::new(),
                })
                .collect(),
            names: shown.iter().map(|t| collate::key(&t.name)).collect(),
            tries: HashMap::new(),
            cells: HashMap::new(),
            order: BTreeSet::new(),
            solves: vec![BTreeSet::new(); contest.problems.len()],
        };
        for a in attempts {
            if let Some(cell) = kept.cell_of(a) {
                kept.cells.insert(a.id, cell);
                kept.tries.entry(cell).or_default().push(a.clone());
            }
        }
        for list in kept.tries.values_mut() {
            list.sort_by_key(|a| (a.at_ms, a.id));
        }
        for slot in 0..kept.rows.len() {
            let cells = (0..kept.contest.problems.len())
                .map(|p| kept.computed(slot, p))
                .collect();
            kept.rows[slot].cells = cells;
            kept.total(slot);
            for p in 0..kept.contest.problems.len() {
                if let Some(time) = kept.rows[slot].cells[p].time_ms {
                    kept.solves[p].insert((time, slot));
                }
            }
            kept.order.insert(kept.place(slot));
        }
        kept
    }

    /// The board of `contest` for `viewer` at `now_ms` over `attempts` by
    /// `teams`, read out of the board in `kept` that is it, else made and
    /// kept there in place of the viewer's older one. (`kept`: boards over
    /// those tries, brought up with them.)
    pub fn read_kept(
        kept: &mut Vec<KeptBoard>,
        contest: &Contest,
        teams: &[Team],
        attempts: &[Attempt],
        viewer: Viewer,
        now_ms: i64,
    ) -> Board {
        if let Some(b) = kept.iter().find(|b| b.is_for(contest, viewer, now_ms)) {
            return b.board();
        }
        let made = KeptBoard::new(contest, teams, attempts, viewer, now_ms);
        let board = made.board();
        kept.retain(|b| b.viewer != viewer);
        kept.push(made);
        board
    }

    /// Whether this is still the board of `contest` for `viewer` at
    /// `now_ms`: the same settings, and the freeze hiding the same.
    pub fn is_for(&self, contest: &Contest, viewer: Viewer, now_ms: i64) -> bool {
        self.viewer == viewer
            && self.contest == *contest
            && contest.hidden_from(viewer, now_ms) == self.contest.hidden_from(viewer, self.now_ms)
    }

    /// Brings in tries `ids` as they are now: `fresh`, those of them that
    /// are tries still (any order); the others gone. A try by a team not
    /// on the board, or on a problem not in the contest, is left out, as
    /// [`scoreboard`] leaves it.
    pub fn change(&mut self, ids: &[i64], fresh: &[Attempt]) {
        let mut touched: BTreeSet<(usize, usize)> = BTreeSet::new();
        for id in ids {
            if let Some(cell) = self.cells.remove(id) {
                if let Some(list) = self.tries.get_mut(&cell) {
                    list.retain(|a| a.id != *id);
                }
                touched.insert(cell);
            }
        }
        for a in fresh {
            let Some(cell) = self.cell_of(a) else {
                continue;
            };
            if let Some(before) = self.cells.insert(a.id, cell) {
                // Named twice: the later stands.
                if let Some(list) = self.tries.get_mut(&before) {
                    list.retain(|b| b.id != a.id);
                }
                touched.insert(before);
            }
            let list = self.tries.entry(cell).or_default();
            let at = list.partition_point(|b| (b.at_ms, b.id) < (a.at_ms, a.id));
            list.insert(at, a.clone());
            touched.insert(cell);
        }
        let mut rows: Vec<usize> = Vec::new();
        for &(slot, p) in &touched {
            if rows.last() != Some(&slot) {
                self.order.remove(&self.place(slot));
                rows.push(slot);
            }
            if let Some(time) = self.rows[slot].cells[p].time_ms {
                self.solves[p].remove(&(time, slot));
            }
            let cell = self.computed(slot, p);
            if let Some(time) = cell.time_ms {
                self.solves[p].insert((time, slot));
            }
            self.rows[slot].cells[p] = cell;
        }
        for slot in rows {
            self.total(slot);
            self.order.insert(self.place(slot));
        }
    }

    /// The board: rows best first, ranked, each problem's first solve
    /// marked.
    pub fn board(&self) -> Board {
        let firsts: Vec<Option<i64>> = self
            .solves
            .iter()
            .map(|s| s.first().map(|&(time, _)| time))
            .collect();
        let mut rows: Vec<Row> = Vec::with_capacity(self.rows.len());
        let mut last: Option<&Place> = None;
        for (i, place) in self.order.iter().enumerate() {
            let mut row = self.rows[place.2].clone();
            row.rank = match last {
                Some(before) if before.0 == place.0 => rows[i - 1].rank,
                _ => i as u32 + 1,
            };
            for (cell, first) in row.cells.iter_mut().zip(&firsts) {
                cell.first = cell.time_ms.is_some() && cell.time_ms == *first;
            }
            rows.push(row);
            last = Some(place);
        }
        Board {
            scoring: self.contest.scoring,
            frozen: self.contest.hidden_from(self.viewer, self.now_ms).is_some(),
            rows,
        }
    }

    /// The cell `a` counts in, if any.
    fn cell_of(&self, a: &Attempt) -> Option<(usize, usize)> {
        Some((*self.slots.get(&a.team)?, *self.columns.get(&a.problem)?))
    }

    /// Cell `p` of the row in `slot`, from its tries.
    fn computed(&self, slot: usize, p: usize) -> Cell {
        let sight = Sight {
            contest: &self.contest,
            viewer: self.viewer,
            now_ms: self.now_ms,
        };
        let list: Vec<&Attempt> = self
            .tries
            .get(&(slot, p))
            .map(|l| l.iter().collect())
            .unwrap_or_default();
        let mut cell = match self.contest.scoring {
            Scoring::Icpc => icpc_cell(&self.contest, &list, sight),
            Scoring::Ioi => ioi_cell(&self.contest, &list, sight),
        };
        cell.label = self.contest.problems[p].label.as_str().into();
        cell
    }

    /// Sets the row's sums from its cells.
    fn total(&mut self, slot: usize) {
        let row = &mut self.rows[slot];
        row.solved = row.cells.iter().filter(|c| c.solved).count() as u32;
        row.penalty = row.cells.iter().map(|c| c.penalty).sum();
        row.score = row.cells.iter().filter_map(|c| c.score).sum();
        row.last_ac_ms = row.cells.iter().filter_map(|c| c.time_ms).max();
    }

    /// Where the row in `slot` stands, by its sums now.
    fn place(&self, slot: usize) -> Place {
        let r = &self.rows[slot];
        let key = match self.contest.scoring {
            Scoring::Icpc => (
                -i64::from(r.solved),
                r.penalty,
                r.last_ac_ms.map_or(-1, |ms| ms / 60_000),
            ),
            Scoring::Ioi => (-i64::from(r.score), 0, 0),
        };
        (key, self.names[slot].clone(), slot)
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

#[cfg(test)]
#[path = "scoreboard_tests.rs"]
pub(crate) mod tests;
