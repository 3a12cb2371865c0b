//! Turning per-test verdicts into the submission's verdict and score.
//!
//! The rule is ICPC's: tests are judged in the order of the plan and the
//! first failure decides. The verdict is `AC` only when every test of the
//! plan was run and accepted. The score is 100 for `AC` and otherwise the
//! share of the plan's tests that passed before the first failure, rounded
//! down (so a submission failing the first sample scores 0).

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
}
