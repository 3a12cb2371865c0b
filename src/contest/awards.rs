//! A contest's awards as the CCS requirements list them, a pure function
//! of a scoreboard (as one viewer sees it) and the contest's medal counts:
//! `winner`, `gold-medal`, `silver-medal`, `bronze-medal`, `rank-<N>`,
//! `honorable-mention`, `first-to-solve-<problem>` and
//! `group-winner-<group>`, in the Contest API's shape (2023-06: `id`,
//! `citation`, `team_ids`). An admin's changes ([`AwardEdit`]) replace a
//! generated award's citation or add awards of their own.
//!
//! The rules. Only a team that solved something (ICPC) or scored (IOI) is
//! placed: winner, medals, ranks and group wins go to placed teams only,
//! so before anyone scored they are all empty. Medals go by rank: ranks 1
//! to G gold, up to G+S silver, up to G+S+B bronze, so teams that tie
//! share the better medal and push the next ones down. A placed team with
//! no medal gets an honourable mention. A problem's first solve is decided
//! once no try made at or before it is still pending (the standard's
//! "no unjudged submission made earlier remains"); until then its award
//! lists no team. Every award the contest gives is listed, an empty one
//! with `team_ids: []`, as the standard's example does (a medal whose
//! count is 0 is not given, so not listed).

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::scoreboard::{Board, Row};
use super::{Contest, Scoring, Team};

/// One award.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award {
    pub id: String,
    pub citation: String,
    /// Team ids as the API writes them (strings).
    pub team_ids: Vec<String>,
}

impl Award {
    fn new(id: impl Into<String>, citation: impl Into<String>, teams: Vec<String>) -> Award {
        Award {
            id: id.into(),
            citation: citation.into(),
            team_ids: teams,
        }
    }

    /// The award object of the Contest API.
    pub fn to_json(&self) -> Value {
        json!({"id": self.id, "citation": self.citation, "team_ids": self.team_ids})
    }
}

/// What an admin changed of a contest's awards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwardEdit {
    pub id: String,
    pub citation: String,
    /// `None`: only the citation of the generated award `id` changes;
    /// else an award of the admin's own, to these teams (ids as strings).
    pub team_ids: Option<Vec<String>>,
}

/// Whether a team is placed: it solved something (ICPC) or scored (IOI).
fn placed(scoring: Scoring, r: &Row) -> bool {
    match scoring {
        Scoring::Icpc => r.solved > 0,
        Scoring::Ioi => r.score > 0,
    }
}

/// The awards of `c` from `board` (module docs), in a fixed order: winner,
/// medals, ranks, honourable mention, first solves in problem order, group
/// winners by group id. `team_groups`: each team's groups as (id, name).
/// A group award exists only for a group that a team of the board is in:
/// an account's groups outside the contest (an admin's, another
/// contest's team's) give none, whatever `team_groups` holds.
pub fn generate(
    c: &Contest,
    board: &Board,
    team_groups: &BTreeMap<i64, Vec<(String, String)>>,
) -> Vec<Award> {
    let placed: Vec<&Row> = board
        .rows
        .iter()
        .filter(|r| placed(board.scoring, r))
        .collect();
    let teams = |keep: &dyn Fn(&Row) -> bool| -> Vec<String> {
        placed
            .iter()
            .filter(|r| keep(r))
            .map(|r| r.team.team_id.clone())
            .collect()
    };
    let m = c.medals;
    let gold = m.gold;
    let silver = gold.saturating_add(m.silver);
    let bronze = silver.saturating_add(m.bronze);
    let mut out = vec![Award::new(
        "winner",
        "Contest winner",
        teams(&|r| r.rank == 1),
    )];
    let medals = [
        ("gold-medal", "Gold medal winner", m.gold, 0, gold),
        (
            "silver-medal",
            "Silver medal winner",
            m.silver,
            gold,
            silver,
        ),
        (
            "bronze-medal",
            "Bronze medal winner",
            m.bronze,
            silver,
            bronze,
        ),
    ];
    for (id, citation, count, above, upto) in medals {
        if count > 0 {
            let won = teams(&|r| r.rank > above && r.rank <= upto);
            out.push(Award::new(id, citation, won));
        }
    }
    let mut ranks: Vec<u32> = placed.iter().map(|r| r.rank).collect();
    ranks.dedup();
    for rank in ranks {
        out.push(Award::new(
            format!("rank-{rank}"),
            format!("Rank {rank}"),
            teams(&|r| r.rank == rank),
        ));
    }
    out.push(Award::new(
        "honorable-mention",
        "Honorable mention",
        teams(&|r| r.rank > bronze),
    ));
    for (i, p) in c.problems.iter().enumerate() {
        out.push(Award::new(
            format!("first-to-solve-{}", p.slug),
            format!("First to solve problem {}", p.label),
            first_solvers(board, i),
        ));
    }
    let mut groups: BTreeMap<&str, (&str, Option<u32>, Vec<String>)> = BTreeMap::new();
    for row in &board.rows {
        for (id, name) in team_groups.get(&row.team.id).into_iter().flatten() {
            groups.entry(id).or_insert((name, None, Vec::new()));
        }
    }
    for r in &placed {
        for (id, _) in team_groups.get(&r.team.id).into_iter().flatten() {
            if let Some((_, best, winners)) = groups.get_mut(id.as_str()) {
                // Rows come best first: the group's first placed team sets
                // its best rank, and teams tied with it share the win.
                if best.is_none_or(|b| b == r.rank) {
                    *best = Some(r.rank);
                    winners.push(r.team.team_id.clone());
                }
            }
        }
    }
    for (id, (name, _, winners)) in groups {
        out.push(Award::new(
            format!("group-winner-{id}"),
            format!("Winner of group {name}"),
            winners,
        ));
    }
    out
}

/// The teams first to solve problem `i` of `board`: those whose cell is the
/// first solve, once no try made at or before it is pending.
fn first_solvers(board: &Board, i: usize) -> Vec<String> {
    let cell = |r: &Row| r.cells.get(i).cloned().unwrap_or_default();
    let Some(first) = board
        .rows
        .iter()
        .map(cell)
        .filter(|c| c.first)
        .find_map(|c| c.time_ms)
    else {
        return Vec::new();
    };
    let undecided = board
        .rows
        .iter()
        .any(|r| cell(r).pending_from_ms.is_some_and(|p| p <= first));
    if undecided {
        return Vec::new();
    }
    board
        .rows
        .iter()
        .filter(|r| cell(r).first)
        .map(|r| r.team.team_id.clone())
        .collect()
}

/// `awards` with the admin's `edits`: a generated award's citation
/// replaced, and the admin's own awards after the generated ones, in the
/// order given. A citation for an award not generated now (a rank no team
/// holds any more) waits until it is.
pub fn with_edits(mut awards: Vec<Award>, edits: &[AwardEdit]) -> Vec<Award> {
    for e in edits {
        match &e.team_ids {
            None => {
                if let Some(a) = awards.iter_mut().find(|a| a.id == e.id) {
                    a.citation = e.citation.clone();
                }
            }
            Some(teams) => awards.push(Award {
                id: e.id.clone(),
                citation: e.citation.clone(),
                team_ids: teams.clone(),
            }),
        }
    }
    awards
}

/// Whether `id` may name an award: an identifier of the Contest API
/// (letters, digits, `-`, `_`, `.`, up to 36, not starting with `-` or `.`).
pub fn valid_id(id: &str) -> bool {
    (1..=36).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))
        && !id.starts_with(['-', '.'])
}

/// Whether `edit` may be made to a contest whose generated awards are
/// `generated` and whose teams are `teams`: a citation of 1 to 200
/// characters on one line; without teams, a generated award's id; with
/// teams, an id of the admin's own and the contest's teams.
///
/// # Errors
/// What is wrong, in one line.
pub fn check_edit(generated: &[Award], teams: &[Team], edit: &AwardEdit) -> Result<(), String> {
    let citation = edit.citation.trim();
    let max = crate::bounds::Field::Citation.max_chars();
    if citation.is_empty() || citation.chars().count() > max || citation.contains(['\n', '\r']) {
        return Err(format!(
            "award {}: a citation is one line of 1 to {max} characters",
            edit.id
        ));
    }
    if !valid_id(&edit.id) {
        return Err(format!(
            "award id {:?}: use up to 36 letters, digits, '-', '_' and '.', not starting with '-' or '.'",
            edit.id
        ));
    }
    let is_generated = generated.iter().any(|a| a.id == edit.id);
    match &edit.team_ids {
        None if !is_generated => Err(format!(
            "award {} is not one this contest generates now: give its teams to add it as an award of your own",
            edit.id
        )),
        None => Ok(()),
        Some(_) if is_generated => Err(format!(
            "award {} is generated from the scoreboard: change only its citation (no teams)",
            edit.id
        )),
        Some(ids) => match ids
            .iter()
            .find(|t| !teams.iter().any(|team| team.team_id == **t))
        {
            Some(t) => Err(format!("award {}: no team {t} in this contest", edit.id)),
            None => Ok(()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::scoreboard::{scoreboard, Attempt, Judged, Viewer};
    use crate::contest::{ContestProblem, Medals};
    use crate::verdict::Verdict;

    const MIN: i64 = 60_000;
    const START: i64 = 1_800_000_000_000;

    fn contest(scoring: Scoring, medals: (u32, u32, u32)) -> Contest {
        Contest {
            id: 1,
            slug: "c".into(),
            name: "C".into(),
            start_ms: START,
            duration_s: 5 * 3600,
            freeze_s: 0,
            penalty_min: 20,
            scoring,
            open_to_all: true,
            board_public: true,
            frozen_ms: None,
            thawed_ms: None,
            finalized_ms: None,
            medals: Medals {
                gold: medals.0,
                silver: medals.1,
                bronze: medals.2,
            },
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

    fn teams(n: i64) -> Vec<Team> {
        (1..=n).map(|id| Team::new(id, format!("t{id}"))).collect()
    }

    /// A try by `team` on `problem` at `minute`; `verdict` `None`: pending.
    fn try_(id: i64, team: i64, problem: &str, minute: i64, verdict: Option<Verdict>) -> Attempt {
        Attempt {
            id,
            team,
            problem: problem.into(),
            at_ms: START + minute * MIN,
            result: verdict.map(|verdict| Judged {
                verdict,
                score: if verdict == Verdict::AC { 100 } else { 0 },
                groups: vec![],
            }),
        }
    }

    fn awards(c: &Contest, n: i64, attempts: &[Attempt]) -> Vec<Award> {
        let board = scoreboard(c, &teams(n), attempts, Viewer::Admin, START + 6 * 3_600_000);
        generate(c, &board, &BTreeMap::new())
    }

    fn teams_of<'a>(awards: &'a [Award], id: &str) -> Vec<&'a str> {
        awards
            .iter()
            .find(|a| a.id == id)
            .unwrap_or_else(|| panic!("no award {id} in {awards:?}"))
            .team_ids
            .iter()
            .map(String::as_str)
            .collect()
    }

    #[test]
    fn ties_across_a_medal_boundary_share_the_better_medal() {
        let c = contest(Scoring::Icpc, (1, 1, 1));
        let ac = Some(Verdict::AC);
        // Teams 1 and 2 tie for first (same problems, same minute); 3 is
        // third, 4 fourth, 5 solved nothing.
        let attempts = [
            try_(1, 1, "nim", 10, ac),
            try_(2, 2, "nim", 10, ac),
            try_(3, 3, "nim", 20, ac),
            try_(4, 4, "nim", 30, ac),
            try_(5, 5, "nim", 5, Some(Verdict::WA)),
        ];
        let a = awards(&c, 5, &attempts);
        assert_eq!(teams_of(&a, "winner"), ["1", "2"]);
        assert_eq!(
            teams_of(&a, "gold-medal"),
            ["1", "2"],
            "the tie shares gold"
        );
        assert_eq!(
            teams_of(&a, "silver-medal"),
            Vec::<&str>::new(),
            "rank 3 is past the silver's rank 2"
        );
        assert_eq!(teams_of(&a, "bronze-medal"), ["3"]);
        assert_eq!(teams_of(&a, "honorable-mention"), ["4"]);
        assert_eq!(teams_of(&a, "rank-1"), ["1", "2"]);
        assert_eq!(teams_of(&a, "rank-3"), ["3"]);
        assert_eq!(teams_of(&a, "rank-4"), ["4"]);
        assert!(
            !a.iter().any(|x| x.id == "rank-2" || x.id == "rank-5"),
            "no team holds rank 2, and team 5 is not placed: {a:?}"
        );
        let citations: Vec<&str> = a.iter().map(|x| x.citation.as_str()).collect();
        assert!(citations.contains(&"Gold medal winner") && citations.contains(&"Rank 3"));
    }

    #[test]
    fn a_tie_at_the_last_medal_rank_gives_the_medal_to_all_of_it() {
        let c = contest(Scoring::Icpc, (1, 1, 1));
        let ac = Some(Verdict::AC);
        let attempts = [
            try_(1, 1, "nim", 10, ac),
            try_(2, 2, "nim", 20, ac),
            try_(3, 3, "nim", 30, ac),
            try_(4, 4, "nim", 30, ac),
        ];
        let a = awards(&c, 4, &attempts);
        assert_eq!(teams_of(&a, "bronze-medal"), ["3", "4"]);
        assert_eq!(teams_of(&a, "honorable-mention"), Vec::<&str>::new());
    }

    #[test]
    fn no_medal_or_placing_without_a_solve_or_a_score() {
        let c = contest(Scoring::Icpc, (4, 4, 4));
        let a = awards(&c, 3, &[try_(1, 1, "nim", 3, Some(Verdict::WA))]);
        for id in ["winner", "gold-medal", "silver-medal", "bronze-medal"] {
            assert_eq!(teams_of(&a, id), Vec::<&str>::new(), "{id}");
        }
        assert_eq!(teams_of(&a, "honorable-mention"), Vec::<&str>::new());
        assert!(!a.iter().any(|x| x.id.starts_with("rank-")), "{a:?}");
        // IOI: a positive score places a team; 0 points do not.
        let ioi = contest(Scoring::Ioi, (1, 0, 0));
        let partial = Attempt {
            result: Some(Judged {
                verdict: Verdict::WA,
                score: 30,
                groups: vec![],
            }),
            ..try_(1, 2, "nim", 3, None)
        };
        let a = awards(&ioi, 3, &[partial, try_(2, 1, "nim", 4, Some(Verdict::WA))]);
        assert_eq!(teams_of(&a, "gold-medal"), ["2"]);
        assert!(
            !a.iter()
                .any(|x| x.id == "silver-medal" || x.id == "bronze-medal"),
            "a medal counted 0 is not given: {a:?}"
        );
        assert_eq!(teams_of(&a, "honorable-mention"), Vec::<&str>::new());
    }

    #[test]
    fn first_to_solve_each_problem_waits_for_earlier_pending_tries() {
        let c = contest(Scoring::Icpc, (4, 4, 4));
        let ac = Some(Verdict::AC);
        let attempts = [
            try_(1, 1, "nim", 10, ac),
            try_(2, 2, "nim", 8, Some(Verdict::WA)),
            try_(3, 2, "nim", 12, ac),
            try_(4, 3, "kayles", 30, ac),
            // Made before team 3's solve, not judged yet.
            try_(5, 1, "kayles", 25, None),
        ];
        let a = awards(&c, 3, &attempts);
        assert_eq!(teams_of(&a, "first-to-solve-nim"), ["1"]);
        assert_eq!(
            teams_of(&a, "first-to-solve-kayles"),
            Vec::<&str>::new(),
            "an earlier try is still pending"
        );
        let cite = a.iter().find(|x| x.id == "first-to-solve-kayles").unwrap();
        assert_eq!(cite.citation, "First to solve problem B");
        // Judged wrong: the first solve is decided.
        let mut judged = attempts.to_vec();
        judged[4] = try_(5, 1, "kayles", 25, Some(Verdict::WA));
        assert_eq!(
            teams_of(&awards(&c, 3, &judged), "first-to-solve-kayles"),
            ["3"]
        );
        // A pending try after the first solve does not hold it back.
        judged[4] = try_(5, 1, "kayles", 40, None);
        assert_eq!(
            teams_of(&awards(&c, 3, &judged), "first-to-solve-kayles"),
            ["3"]
        );
    }

    #[test]
    fn each_group_is_won_by_its_best_placed_teams() {
        let c = contest(Scoring::Icpc, (1, 1, 1));
        let ac = Some(Verdict::AC);
        let attempts = [
            try_(1, 1, "nim", 10, ac),
            try_(2, 2, "nim", 20, ac),
            try_(3, 3, "nim", 20, ac),
            try_(4, 4, "nim", 30, ac),
        ];
        let board = scoreboard(
            &c,
            &teams(5),
            &attempts,
            Viewer::Admin,
            START + 6 * 3_600_000,
        );
        let g = |id: &str, name: &str| (id.to_string(), name.to_string());
        let groups = BTreeMap::from([
            (1, vec![g("north", "North")]),
            (2, vec![g("south", "South"), g("students", "Students")]),
            (3, vec![g("south", "South")]),
            (4, vec![g("students", "Students")]),
            (5, vec![g("east", "East")]),
        ]);
        let a = generate(&c, &board, &groups);
        assert_eq!(teams_of(&a, "group-winner-north"), ["1"]);
        assert_eq!(
            teams_of(&a, "group-winner-south"),
            ["2", "3"],
            "a tie shares it"
        );
        assert_eq!(teams_of(&a, "group-winner-students"), ["2"]);
        assert_eq!(
            teams_of(&a, "group-winner-east"),
            Vec::<&str>::new(),
            "its only team solved nothing"
        );
        let south = a.iter().find(|x| x.id == "group-winner-south").unwrap();
        assert_eq!(south.citation, "Winner of group South");
    }

    #[test]
    fn a_group_of_no_team_of_the_contest_wins_nothing() {
        let c = contest(Scoring::Icpc, (1, 1, 1));
        let board = scoreboard(
            &c,
            &teams(2),
            &[try_(1, 1, "nim", 10, Some(Verdict::AC))],
            Viewer::Admin,
            START + 6 * 3_600_000,
        );
        let g = |id: &str, name: &str| (id.to_string(), name.to_string());
        // Account 7 (an admin) and account 8 (not in the contest) are in
        // groups of their own; team 2 shares one of them.
        let groups = BTreeMap::from([
            (1, vec![g("north", "North")]),
            (2, vec![g("shared", "Shared")]),
            (7, vec![g("jury", "Jury")]),
            (8, vec![g("elsewhere", "Elsewhere"), g("shared", "Shared")]),
        ]);
        let ids: Vec<String> = generate(&c, &board, &groups)
            .into_iter()
            .map(|a| a.id)
            .filter(|id| id.starts_with("group-winner-"))
            .collect();
        assert_eq!(ids, ["group-winner-north", "group-winner-shared"]);
    }

    #[test]
    fn edits_change_citations_and_add_awards_and_are_checked() {
        let c = contest(Scoring::Icpc, (1, 1, 1));
        let generated = awards(&c, 2, &[try_(1, 1, "nim", 10, Some(Verdict::AC))]);
        let cite = AwardEdit {
            id: "winner".into(),
            citation: "Champion of the cup".into(),
            team_ids: None,
        };
        let own = AwardEdit {
            id: "special-spirit".into(),
            citation: "Team spirit".into(),
            team_ids: Some(vec!["2".into()]),
        };
        let all = with_edits(generated.clone(), &[cite.clone(), own.clone()]);
        assert_eq!(all.len(), generated.len() + 1);
        assert_eq!(all[0].citation, "Champion of the cup");
        assert_eq!(all[0].team_ids, ["1"]);
        assert_eq!(all.last().unwrap().to_json()["team_ids"], json!(["2"]));
        let t = teams(2);
        assert_eq!(check_edit(&generated, &t, &cite), Ok(()));
        assert_eq!(check_edit(&generated, &t, &own), Ok(()));
        let wrong = [
            (
                AwardEdit {
                    citation: " ".into(),
                    ..cite.clone()
                },
                "citation",
            ),
            (
                AwardEdit {
                    id: "nope".into(),
                    ..cite.clone()
                },
                "give its teams",
            ),
            (
                AwardEdit {
                    team_ids: Some(vec!["1".into()]),
                    ..cite.clone()
                },
                "generated",
            ),
            (
                AwardEdit {
                    team_ids: Some(vec!["9".into()]),
                    ..own.clone()
                },
                "no team 9",
            ),
            (
                AwardEdit {
                    id: "-x".into(),
                    ..own.clone()
                },
                "award id",
            ),
        ];
        for (edit, says) in wrong {
            let why = check_edit(&generated, &t, &edit).unwrap_err();
            assert!(why.contains(says), "{edit:?}: {why}");
            assert!(!why.contains('\n'));
        }
    }
}
