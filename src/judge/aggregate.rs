//! Turning per-test results into the submission's verdict and score.
//!
//! **Without `[[groups]]`** the rule is ICPC's: tests are judged in the
//! order of the plan and the first failure decides. The verdict is `AC`
//! only when every test of the plan was run and accepted. The score is 100
//! for `AC` and otherwise the share of the plan's tests that passed before
//! the first failure, rounded down (so a submission failing the first
//! sample scores 0).
//!
//! **With `[[groups]]`** every group is judged (in its judging order) and
//! scored alone. A test's score is a share of its group's points: 1 for
//! `AC`, 0 for any failure, unless the checker gave a score (testlib's
//! `points`, Kattis's score files). A group scores its points times the
//! least share among its tests, rounded down (so a group is all-or-nothing
//! unless its checker gives partial scores); its tests stop at the first
//! that scores 0. A group is *full* when every test of it was run,
//! accepted and given the whole share; a group whose dependency is not
//! full is *skipped*: its tests are not run, it scores 0, and it has no
//! verdict. The submission's score is the sum over its groups; its verdict
//! is `IE` if any test is, else the first failing test's (in judging
//! order), else `AC`.

use serde::{Deserialize, Serialize};

use super::TestReport;
use crate::problem::{Group, GroupSpec};
use crate::verdict::Verdict;

/// The submission's verdict and score from its test verdicts (in plan
/// order, possibly stopped at the first failure) and the plan's size.
pub fn aggregate(verdicts: &[Verdict], plan_size: usize) -> (Verdict, u32) {
    match verdicts.iter().position(|v| !v.is_accepted()) {
        Some(i) => (verdicts[i], share(i, plan_size)),
        None if verdicts.len() == plan_size => (Verdict::AC, 100),
        // Fewer results than tests and no failure: the run was cut short,
        // which only the judge itself can cause.
        None => (Verdict::IE, share(verdicts.len(), plan_size)),
    }
}

fn share(passed: usize, total: usize) -> u32 {
    if total == 0 {
        return 0;
    }
    (passed * 100 / total) as u32
}

/// Checkers print shares with a few decimals; this much short of a whole
/// share still counts as whole.
pub(crate) const EPSILON: f64 = 1e-9;

/// The result of one test group.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GroupReport {
    pub name: Group,
    pub points: u32,
    pub score: u32,
    /// The first failing test's verdict, else `AC`; `None` when skipped
    /// (or, only where the judge cut the run short, when a test is
    /// missing without a failure).
    pub verdict: Option<Verdict>,
    /// A dependency did not get full marks: the group's tests were not run.
    pub skipped: bool,
    /// The names of the group's tests in the plan (those that ran are in
    /// the report's tests, the others were skipped).
    pub tests: Vec<String>,
}

/// A test's share of its group's points.
pub fn test_share(t: &TestReport) -> f64 {
    let whole = if t.verdict.is_accepted() { 1.0 } else { 0.0 };
    t.score.map_or(whole, |s| s.clamp(0.0, 1.0))
}

/// One group's result from the tests of it that ran (in judging order);
/// `names` are all of its tests in the plan. Also says whether it is full.
pub fn group(
    spec: &GroupSpec,
    names: Vec<String>,
    ran: &[&TestReport],
    skipped: bool,
) -> (GroupReport, bool) {
    if skipped {
        let report = GroupReport {
            name: spec.name.clone(),
            points: spec.points,
            score: 0,
            verdict: None,
            skipped: true,
            tests: names,
        };
        return (report, false);
    }
    // A group without tests cannot be judged (the manifest refuses one; a
    // test set that disagrees with its manifest is the judge's fault).
    let complete = !names.is_empty() && names.iter().all(|n| ran.iter().any(|t| t.name == *n));
    let failure = ran.iter().find(|t| !t.verdict.is_accepted());
    let verdict = match failure {
        Some(t) => Some(t.verdict),
        None if complete => Some(Verdict::AC),
        None => None,
    };
    let least = if verdict.is_none() || ran.is_empty() {
        0.0
    } else {
        ran.iter().map(|t| test_share(t)).fold(1.0, f64::min)
    };
    let score = (f64::from(spec.points) * least + EPSILON).floor() as u32;
    let full = verdict == Some(Verdict::AC) && least >= 1.0 - EPSILON;
    let report = GroupReport {
        name: spec.name.clone(),
        points: spec.points,
        score: score.min(spec.points),
        verdict,
        skipped: false,
        tests: names,
    };
    (report, full)
}

/// The submission's verdict and score from its tests (in judging order)
/// and its groups.
pub fn scored(tests: &[TestReport], groups: &[GroupReport]) -> (Verdict, u32) {
    let score = groups.iter().map(|g| g.score).sum::<u32>().min(100);
    let verdict = if tests.iter().any(|t| t.verdict == Verdict::IE) {
        Verdict::IE
    } else if let Some(t) = tests.iter().find(|t| !t.verdict.is_accepted()) {
        t.verdict
    } else if groups.iter().any(|g| !g.skipped && g.verdict.is_none()) {
        Verdict::IE
    } else {
        Verdict::AC
    };
    (verdict, score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn table() {
        let cases: &[(&[Verdict], usize, (Verdict, u32))] = &[
            (&[AC, AC, AC], 3, (AC, 100)),
            (&[AC, WA], 3, (WA, 33)),
            (&[TLE], 4, (TLE, 0)),
            (&[AC, AC, AC, RE], 4, (RE, 75)),
            (&[AC, AC], 3, (IE, 66)),
            (&[AC, MLE, WA], 3, (MLE, 33)),
        ];
        for (verdicts, plan, want) in cases {
            assert_eq!(aggregate(verdicts, *plan), *want, "{verdicts:?} of {plan}");
        }
    }

    fn spec(points: u32) -> GroupSpec {
        GroupSpec {
            name: Group::parse("g").unwrap(),
            points,
            depends: Vec::new(),
        }
    }

    fn test(name: &str, verdict: Verdict, score: Option<f64>) -> TestReport {
        TestReport {
            name: name.into(),
            group: Group::parse("g").unwrap(),
            verdict,
            time_ms: 0,
            wall_ms: 0,
            memory_kib: 0,
            exit_code: Some(0),
            signal: None,
            message: String::new(),
            score,
            transcript: None,
        }
    }

    fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("t{i}")).collect()
    }

    #[test]
    fn a_group_is_all_or_nothing_without_partial_scores() {
        let (a, b) = (test("t0", AC, None), test("t1", WA, None));
        let (g, full) = group(&spec(30), names(2), &[&a, &b], false);
        assert_eq!((g.score, g.verdict, full), (0, Some(WA), false));
        let (g, full) = group(&spec(30), names(1), &[&a], false);
        assert_eq!((g.score, g.verdict, full), (30, Some(AC), true));
    }

    #[test]
    fn a_group_scores_the_least_partial_share() {
        let a = test("t0", WA, Some(0.5));
        let b = test("t1", WA, Some(0.25));
        let c = test("t2", AC, None);
        let (g, full) = group(&spec(40), names(3), &[&a, &b, &c], false);
        assert_eq!((g.score, g.verdict, full), (10, Some(WA), false));
    }

    #[test]
    fn a_skipped_group_has_no_verdict_and_no_points() {
        let (g, full) = group(&spec(40), names(3), &[], true);
        assert_eq!(
            (g.score, g.verdict, g.skipped, full),
            (0, None, true, false)
        );
    }

    #[test]
    fn a_group_without_tests_has_no_verdict_and_no_points() {
        let (g, full) = group(&spec(40), Vec::new(), &[], false);
        assert_eq!((g.score, g.verdict, full), (0, None, false));
    }

    #[test]
    fn a_group_missing_a_test_without_a_failure_has_no_verdict() {
        let a = test("t0", AC, None);
        let (g, full) = group(&spec(40), names(2), &[&a], false);
        assert_eq!((g.score, g.verdict, full), (0, None, false));
    }

    #[test]
    fn the_submission_sums_its_groups_and_takes_the_first_failure() {
        let tests = [
            test("t0", AC, None),
            test("t1", TLE, None),
            test("t2", WA, None),
        ];
        let (g1, _) = group(&spec(30), vec!["t0".into()], &[&tests[0]], false);
        let (g2, _) = group(&spec(70), vec!["t1".into()], &[&tests[1]], false);
        assert_eq!(scored(&tests, &[g1.clone(), g2.clone()]), (TLE, 30));
        let with_ie = [tests[0].clone(), test("t1", IE, None)];
        assert_eq!(scored(&with_ie, &[g1, g2]).0, IE);
    }
}
