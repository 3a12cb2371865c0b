//! Each rule of the scoreboard pinned on small hand-made histories.

use super::*;
use crate::contest::{ContestProblem, Scoring};

const MIN: i64 = 60_000;
pub(crate) const START: i64 = 1_800_000_000_000;

/// A two-problem contest (nim as A, kayles as B) that started at `START`.
pub(crate) fn contest(scoring: Scoring) -> Contest {
    Contest {
        id: 1,
        slug: "test".into(),
        name: "Test".into(),
        start_ms: START,
        duration_s: 5 * 3600,
        freeze_s: 3600,
        penalty_min: 20,
        scoring,
        open_to_all: true,
        board_public: true,
        frozen_ms: None,
        thawed_ms: None,
        finalized_ms: None,
        medals: crate::contest::Medals::default(),
        problems: vec![
            ContestProblem {
                label: "A".into(),
                slug: "nim".into(),
                rgb: None,
            },
            ContestProblem {
                label: "B".into(),
                slug: "kayles".into(),
                rgb: None,
            },
        ],
    }
}

fn teams(names: &[&str]) -> Vec<Team> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| Team::new(i as i64 + 1, *n))
        .collect()
}

/// A judged try: `team` on `problem` at `minute`, with `verdict`.
pub(crate) fn tried(id: i64, team: i64, problem: &str, minute: i64, verdict: Verdict) -> Attempt {
    Attempt {
        id,
        team,
        problem: problem.into(),
        at_ms: START + minute * MIN,
        result: Some(Judged {
            verdict,
            score: if verdict == Verdict::AC { 100 } else { 0 },
            groups: vec![],
        }),
    }
}

fn scored(id: i64, team: i64, problem: &str, minute: i64, groups: &[(&str, u32)]) -> Attempt {
    let score = groups.iter().map(|g| g.1).sum::<u32>();
    Attempt {
        result: Some(Judged {
            verdict: if score == 100 {
                Verdict::AC
            } else {
                Verdict::WA
            },
            score,
            groups: groups.iter().map(|(n, s)| (n.to_string(), *s)).collect(),
        }),
        ..tried(id, team, problem, minute, Verdict::WA)
    }
}

/// (team, rank, solved, penalty) for each row, in order.
fn standings(board: &Board) -> Vec<(&str, u32, u32, i64)> {
    board
        .rows
        .iter()
        .map(|r| (r.team.name.as_str(), r.rank, r.solved, r.penalty))
        .collect()
}

fn at_end(c: &Contest) -> i64 {
    c.end_ms() - 1
}

#[test]
fn penalty_is_minutes_to_the_first_ac_plus_the_earlier_rejected_tries() {
    let mut c = contest(Scoring::Icpc);
    c.freeze_s = 0;
    let history = [
        tried(1, 1, "nim", 10, Verdict::WA),
        tried(2, 1, "nim", 12, Verdict::TLE),
        tried(3, 1, "nim", 30, Verdict::AC),
        // After the first AC nothing counts, not even another AC.
        tried(4, 1, "nim", 31, Verdict::WA),
        tried(5, 1, "nim", 32, Verdict::AC),
        tried(6, 1, "kayles", 45, Verdict::AC),
        // Rejected tries on an unsolved problem cost nothing.
        tried(7, 2, "nim", 5, Verdict::WA),
        tried(8, 2, "kayles", 50, Verdict::AC),
    ];
    let board = scoreboard(
        &c,
        &teams(&["ana", "bo"]),
        &history,
        Viewer::Public,
        at_end(&c),
    );
    assert_eq!(
        standings(&board),
        [("ana", 1, 2, 30 + 40 + 45), ("bo", 2, 1, 50)]
    );
    let a = &board.rows[0].cells[0];
    assert_eq!((a.tries, a.minute, a.penalty), (3, Some(30), 70));
    let bo_nim = &board.rows[1].cells[0];
    assert_eq!((bo_nim.tries, bo_nim.solved, bo_nim.penalty), (1, false, 0));
}

#[test]
fn compile_errors_and_internal_errors_are_not_tries() {
    let mut c = contest(Scoring::Icpc);
    c.freeze_s = 0;
    let history = [
        tried(1, 1, "nim", 1, Verdict::CE),
        tried(2, 1, "nim", 2, Verdict::IE),
        tried(3, 1, "nim", 3, Verdict::CE),
        tried(4, 1, "nim", 7, Verdict::AC),
    ];
    let board = scoreboard(&c, &teams(&["ana"]), &history, Viewer::Public, at_end(&c));
    assert_eq!(standings(&board), [("ana", 1, 1, 7)]);
    assert_eq!(board.rows[0].cells[0].tries, 1);
}

#[test]
fn ties_go_to_the_earlier_last_ac_then_share_the_rank() {
    let mut c = contest(Scoring::Icpc);
    c.freeze_s = 0;
    let history = [
        // cy: 2 solved, 10 + 50 = 60, last AC at minute 50.
        tried(1, 3, "nim", 10, Verdict::AC),
        tried(2, 3, "kayles", 50, Verdict::AC),
        // ana: 2 solved, 30 + 30 = 60, last AC at minute 30: ahead of cy.
        tried(3, 1, "nim", 30, Verdict::AC),
        tried(4, 1, "kayles", 30, Verdict::AC),
        // bo: exactly as ana: shares rank 1.
        tried(5, 2, "kayles", 30, Verdict::AC),
        tried(6, 2, "nim", 30, Verdict::AC),
        // dee and eve: nothing solved: share the last rank.
        tried(7, 4, "nim", 3, Verdict::WA),
    ];
    let all = teams(&["ana", "bo", "cy", "dee", "eve"]);
    let board = scoreboard(&c, &all, &history, Viewer::Public, at_end(&c));
    assert_eq!(
        standings(&board),
        [
            ("ana", 1, 2, 60),
            ("bo", 1, 2, 60),
            ("cy", 3, 2, 60),
            ("dee", 4, 0, 0),
            ("eve", 4, 0, 0)
        ]
    );
}

#[test]
fn the_first_solve_of_each_problem_is_marked() {
    let mut c = contest(Scoring::Icpc);
    c.freeze_s = 0;
    let history = [
        tried(1, 1, "nim", 20, Verdict::AC),
        tried(2, 2, "nim", 10, Verdict::AC),
        tried(3, 1, "kayles", 40, Verdict::AC),
    ];
    let board = scoreboard(
        &c,
        &teams(&["ana", "bo"]),
        &history,
        Viewer::Public,
        at_end(&c),
    );
    let first = |name: &str, p: usize| {
        board
            .rows
            .iter()
            .find(|r| r.team.name == name)
            .unwrap()
            .cells[p]
            .first
    };
    assert!(first("bo", 0) && !first("ana", 0));
    assert!(first("ana", 1) && !first("bo", 1));
}

#[test]
fn after_the_freeze_others_see_pending_and_a_team_its_own() {
    let c = contest(Scoring::Icpc);
    let freeze = (c.freeze_ms().unwrap() - START) / MIN;
    let history = [
        tried(1, 1, "nim", 10, Verdict::AC),
        tried(2, 2, "nim", freeze - 1, Verdict::WA),
        tried(3, 2, "nim", freeze, Verdict::WA),
        tried(4, 2, "nim", freeze + 5, Verdict::AC),
        tried(5, 1, "kayles", freeze + 10, Verdict::AC),
    ];
    let all = teams(&["ana", "bo"]);
    let now = at_end(&c);
    let public = scoreboard(&c, &all, &history, Viewer::Public, now);
    assert!(public.frozen);
    assert_eq!(standings(&public), [("ana", 1, 1, 10), ("bo", 2, 0, 0)]);
    let bo = &public.rows[1].cells[0];
    assert_eq!(
        (bo.tries, bo.pending),
        (1, 2),
        "the try before the freeze shows"
    );
    assert_eq!(public.rows[0].cells[1].pending, 1);

    // bo sees its own results, and ana's after the freeze as pending.
    let bo_view = scoreboard(&c, &all, &history, Viewer::Team(2), now);
    let bo_row = bo_view.rows.iter().find(|r| r.team.name == "bo").unwrap();
    assert_eq!((bo_row.solved, bo_row.penalty), (1, freeze + 5 + 40));
    let ana_row = bo_view.rows.iter().find(|r| r.team.name == "ana").unwrap();
    assert_eq!((ana_row.solved, ana_row.cells[1].pending), (1, 1));

    // Admins see everything; so does everyone once the results are revealed.
    let admin = scoreboard(&c, &all, &history, Viewer::Admin, now);
    assert!(!admin.frozen);
    assert_eq!(admin.rows[0].solved + admin.rows[1].solved, 3);
    let mut thawed = c.clone();
    thawed.thawed_ms = Some(c.end_ms() + MIN);
    let after = scoreboard(
        &thawed,
        &all,
        &history,
        Viewer::Public,
        c.end_ms() + 2 * MIN,
    );
    assert_eq!(after.rows, admin.rows);
    // Before the freeze nothing is hidden.
    let before = scoreboard(&c, &all, &history[..2], Viewer::Public, START + 20 * MIN);
    assert!(!before.frozen);
}

#[test]
fn a_first_solve_hidden_by_the_freeze_is_not_revealed_by_its_mark() {
    let c = contest(Scoring::Icpc);
    let freeze = (c.freeze_ms().unwrap() - START) / MIN;
    let history = [
        tried(1, 2, "nim", freeze + 1, Verdict::AC),
        tried(2, 1, "nim", freeze + 2, Verdict::AC),
    ];
    let all = teams(&["ana", "bo"]);
    let ana_view = scoreboard(&c, &all, &history, Viewer::Team(1), at_end(&c));
    let ana = ana_view.rows.iter().find(|r| r.team.name == "ana").unwrap();
    assert!(
        ana.cells[0].solved && ana.cells[0].first,
        "the first ana can see"
    );
    let admin = scoreboard(&c, &all, &history, Viewer::Admin, at_end(&c));
    let ana = admin.rows.iter().find(|r| r.team.name == "ana").unwrap();
    assert!(!ana.cells[0].first);
}

#[test]
fn a_rejudge_changes_the_board() {
    let mut c = contest(Scoring::Icpc);
    c.freeze_s = 0;
    let mut history = vec![
        tried(1, 1, "nim", 10, Verdict::WA),
        tried(2, 1, "nim", 20, Verdict::AC),
        tried(3, 2, "nim", 15, Verdict::AC),
    ];
    let all = teams(&["ana", "bo"]);
    let before = scoreboard(&c, &all, &history, Viewer::Public, at_end(&c));
    assert_eq!(standings(&before), [("bo", 1, 1, 15), ("ana", 2, 1, 40)]);
    // The first try is rejudged accepted; bo's accepted try turns wrong.
    history[0] = tried(1, 1, "nim", 10, Verdict::AC);
    history[2] = tried(3, 2, "nim", 15, Verdict::WA);
    let after = scoreboard(&c, &all, &history, Viewer::Public, at_end(&c));
    assert_eq!(standings(&after), [("ana", 1, 1, 10), ("bo", 2, 0, 0)]);
    // A rejudge under way: the try is pending again.
    history[0].result = None;
    let judging = scoreboard(&c, &all, &history, Viewer::Public, at_end(&c));
    let ana = judging.rows.iter().find(|r| r.team.name == "ana").unwrap();
    assert_eq!((ana.cells[0].pending, ana.cells[0].solved), (1, true));
    assert_eq!(
        ana.penalty, 20,
        "the later AC counts, the pending try is no rejected one"
    );
}

#[test]
fn ioi_sums_each_groups_best_over_all_tries_and_shares_ties() {
    let mut c = contest(Scoring::Ioi);
    c.freeze_s = 0;
    let history = [
        // ana: group 1 in one try, group 2 in another: 30 + 70.
        scored(1, 1, "nim", 10, &[("g1", 30), ("g2", 0)]),
        scored(2, 1, "nim", 20, &[("g1", 0), ("g2", 70)]),
        // kayles has no groups: the best whole score counts.
        scored(3, 1, "kayles", 30, &[]),
        Attempt {
            result: Some(Judged {
                verdict: Verdict::WA,
                score: 40,
                groups: vec![],
            }),
            ..tried(4, 1, "kayles", 31, Verdict::WA)
        },
        // bo: 100 on nim at once, 40 on kayles: ties with ana at 140.
        scored(5, 2, "nim", 50, &[("g1", 30), ("g2", 70)]),
        Attempt {
            result: Some(Judged {
                verdict: Verdict::WA,
                score: 40,
                groups: vec![],
            }),
            ..tried(6, 2, "kayles", 55, Verdict::WA)
        },
        // cy: a compile error scores nothing and is no try.
        tried(7, 3, "nim", 5, Verdict::CE),
    ];
    let all = teams(&["ana", "bo", "cy"]);
    let board = scoreboard(&c, &all, &history, Viewer::Public, at_end(&c));
    let got: Vec<(&str, u32, u32)> = board
        .rows
        .iter()
        .map(|r| (r.team.name.as_str(), r.rank, r.score))
        .collect();
    assert_eq!(got, [("ana", 1, 140), ("bo", 1, 140), ("cy", 3, 0)]);
    assert_eq!(board.rows[0].cells[0].score, Some(100));
    assert_eq!(board.rows[2].cells[0].tries, 0);
    assert_eq!(board.rows[2].cells[0].score, None);
    // Full points on a problem solve it, whether in one try or over several.
    assert!(board.rows[0].cells[0].solved && board.rows[0].cells[0].first);
    assert_eq!(board.rows[0].cells[0].minute, Some(20));
    assert!(board.rows[1].cells[0].solved && !board.rows[1].cells[0].first);
    assert!(!board.rows[0].cells[1].solved);
}

#[test]
fn tries_on_problems_outside_the_contest_or_by_non_participants_are_left_out() {
    let mut c = contest(Scoring::Icpc);
    c.freeze_s = 0;
    let history = [
        tried(1, 1, "wythoff", 5, Verdict::AC),
        tried(2, 9, "nim", 5, Verdict::AC),
    ];
    let board = scoreboard(&c, &teams(&["ana"]), &history, Viewer::Public, at_end(&c));
    assert_eq!(standings(&board), [("ana", 1, 0, 0)]);
    assert!(!board.rows[0].cells[0].first);
}

/// A random try for the kept board's test: any of 13 accounts (the 13th
/// no team), any problem or one outside the contest, any verdict or none.
fn random_try(rng: &mut rand::rngs::SmallRng, id: i64, scoring: Scoring) -> Attempt {
    use rand::RngExt;
    let problem = ["nim", "kayles", "other"][rng.random_range(0..3)];
    let team = rng.random_range(1..=13);
    // Few distinct minutes, so that ties are common.
    let minute = rng.random_range(0..40) * 7;
    let verdict = [
        Verdict::AC,
        Verdict::WA,
        Verdict::TLE,
        Verdict::CE,
        Verdict::IE,
    ][rng.random_range(0..5)];
    let mut a = match scoring {
        Scoring::Icpc => tried(id, team, problem, minute, verdict),
        Scoring::Ioi => {
            let one = rng.random_range(0..=2) * 20;
            let two = rng.random_range(0..=3) * 20;
            scored(id, team, problem, minute, &[("one", one), ("two", two)])
        }
    };
    if rng.random_range(0..5) == 0 {
        a.result = None;
    }
    a
}

#[test]
fn a_kept_board_changed_try_by_try_is_the_board_computed_whole() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand::rngs::SmallRng::seed_from_u64(46);
    let mut names = vec![
        "ann", "bob", "cy", "dee", "ed", "fay", "gus", "hal", "ivy", "jo",
    ];
    // Two teams of one name, and a hidden one.
    names.extend(["same", "same"]);
    let mut roster = teams(&names);
    roster[3].hidden = true;
    for scoring in [Scoring::Icpc, Scoring::Ioi] {
        let c = contest(scoring);
        let frozen = c.freeze_ms().expect("a freeze") + 10 * MIN;
        for (viewer, now) in [
            (Viewer::Admin, frozen),
            (Viewer::Public, frozen),
            (Viewer::Team(5), frozen),
            (Viewer::Public, at_end(&c) + 3_600_000),
        ] {
            let mut truth: BTreeMap<i64, Attempt> = BTreeMap::new();
            for id in 1..=60 {
                truth.insert(id, random_try(&mut rng, id, scoring));
            }
            let all: Vec<Attempt> = truth.values().cloned().collect();
            let mut kept = KeptBoard::new(&c, &roster, &all, viewer, now);
            assert!(kept.is_for(&c, viewer, now));
            let mut next = 61;
            for _ in 0..300 {
                let mut ids = Vec::new();
                let mut fresh = Vec::new();
                for _ in 0..rng.random_range(1..=3) {
                    let known: Vec<i64> = truth.keys().copied().collect();
                    match rng.random_range(0..4) {
                        // A new try.
                        0 => {
                            let a = random_try(&mut rng, next, scoring);
                            next += 1;
                            ids.push(a.id);
                            truth.insert(a.id, a.clone());
                            fresh.push(a);
                        }
                        // Withdrawn.
                        1 if !known.is_empty() => {
                            let id = known[rng.random_range(0..known.len())];
                            truth.remove(&id);
                            ids.push(id);
                            fresh.retain(|a: &Attempt| a.id != id);
                        }
                        // Judged (again), or sent back.
                        _ if !known.is_empty() => {
                            let id = known[rng.random_range(0..known.len())];
                            let before = &truth[&id];
                            let mut a = random_try(&mut rng, id, scoring);
                            a.team = before.team;
                            a.problem = before.problem.clone();
                            a.at_ms = before.at_ms;
                            ids.push(id);
                            truth.insert(id, a.clone());
                            fresh.retain(|b: &Attempt| b.id != id);
                            fresh.push(a);
                        }
                        _ => {}
                    }
                }
                ids.sort_unstable();
                ids.dedup();
                kept.change(&ids, &fresh);
                let all: Vec<Attempt> = truth.values().cloned().collect();
                let whole = scoreboard(&c, &roster, &all, viewer, now);
                assert_eq!(kept.board(), whole, "{scoring:?} {viewer:?} after {ids:?}");
            }
        }
    }
}
