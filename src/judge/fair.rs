//! Fair timing across workers of different speeds, as pure rules: the
//! speed factor a worker's limits are scaled by, and when a verdict was
//! decided so close to its limit that it is judged once more. The judge
//! applies a [`Scaling`] to every run; the workers decide the rest (see
//! `docs/timing.md`).

use super::aggregate::{test_share, EPSILON};
use super::{Report, TestReport};
use crate::verdict::Verdict;

/// How one judging's time limits are scaled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scaling {
    /// The worker's speed factor: its calibration time over the
    /// reference's (2 on a machine twice as slow). Every limit is
    /// multiplied by it.
    pub factor: f64,
    /// How far past its (scaled) limit a run may go before it is stopped,
    /// as a fraction of the limit: a run that ends in that band is a TLE
    /// whose time is known, one stopped at its end a TLE by more than it.
    /// 0 stops a run at its limit (a local `grundy submit`).
    pub grace: f64,
}

impl Default for Scaling {
    fn default() -> Self {
        Scaling {
            factor: 1.0,
            grace: 0.0,
        }
    }
}

/// The speed factor of a worker whose calibration took `mine_ms`, among
/// live workers whose calibrations took `live_ms` (its own may be among
/// them), against `reference_ms` when one is configured (else the fastest
/// live worker's). Differences up to `spread` (0.05: 5%) are ignored: the
/// factor is exactly 1 for a worker within it of a configured reference,
/// and for every worker while the live ones are all within it of each
/// other (once one is slower than that, every worker is scaled, by its
/// exact ratio to the fastest).
pub fn speed_factor(mine_ms: f64, live_ms: &[f64], reference_ms: Option<f64>, spread: f64) -> f64 {
    if !(mine_ms > 0.0 && mine_ms.is_finite()) {
        return 1.0;
    }
    let known = live_ms
        .iter()
        .copied()
        .filter(|ms| *ms > 0.0 && ms.is_finite());
    match reference_ms.filter(|r| *r > 0.0 && r.is_finite()) {
        // Against a fixed reference, each worker on its own.
        Some(reference) => {
            let factor = mine_ms / reference;
            if (factor - 1.0).abs() <= spread {
                1.0
            } else {
                factor
            }
        }
        // Against the fastest: all scaled once any two differ.
        None => {
            let (fastest, slowest) = known
                .chain([mine_ms])
                .fold((f64::MAX, 0.0_f64), |(lo, hi), ms| (lo.min(ms), hi.max(ms)));
            if slowest / fastest <= 1.0 + spread {
                1.0
            } else {
                mine_ms / fastest
            }
        }
    }
}

/// A verdict decided within the margin of its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CloseCall {
    /// Accepted, with a test using at least `1 - margin` of the limit.
    UnderLimit,
    /// Over the limit by less than the margin: the run ended (or was still
    /// running) inside the grace band, never stopped at its end.
    OverLimit,
}

/// Whether `report`, judged under a limit of `limit_ms` with runs stopped
/// at `limit_ms * (1 + margin)`, was decided within `margin` of the limit.
///
/// - An `AC` is close when its slowest test took at least
///   `(1 - margin) * limit_ms`.
/// - A `TLE` is close when every test over the CPU limit took less than
///   the stopping point `(1 + margin) * limit_ms`: a test stopped there
///   needed more, by an unknown amount, and is a clear TLE. A TLE of the
///   wall clock (a sleeping program, its CPU time under the limit) is
///   never close.
/// - Every other verdict is decided by what the program did, not by time.
///
/// A problem with groups (IOI scoring) is judged on its points instead:
/// see [`group_close_call`].
pub fn close_call(report: &Report, limit_ms: u64, margin: f64) -> Option<CloseCall> {
    if margin.is_nan() || margin <= 0.0 || limit_ms == 0 {
        return None;
    }
    if !report.groups.is_empty() {
        return group_close_call(report, limit_ms, margin);
    }
    let limit = limit_ms as f64;
    match report.verdict {
        Verdict::AC => {
            let slowest = report.tests.iter().map(|t| t.time_ms).max()?;
            (slowest as f64 >= (1.0 - margin) * limit).then_some(CloseCall::UnderLimit)
        }
        Verdict::TLE => {
            let over: Vec<f64> = report
                .tests
                .iter()
                .filter(|t| t.verdict == Verdict::TLE && t.time_ms > limit_ms)
                .map(|t| t.time_ms as f64)
                .collect();
            let stop = (1.0 + margin) * limit;
            (!over.is_empty() && over.iter().all(|ms| *ms < stop)).then_some(CloseCall::OverLimit)
        }
        _ => None,
    }
}

/// Whether a test within `margin` of its limit decides a group's points
/// (IOI scoring): had it landed on the other side of the limit, a group
/// of the report would score differently or change whether it is full
/// (which its dependents' points and the verdict follow). Per test, in
/// every group that was judged (not skipped):
///
/// - one that ran under its limit but at least `(1 - margin) * limit_ms`,
///   and earned a share of its group's points: had it been a TLE (share
///   0), the group would score 0 and not be full; it decides when the
///   group scored points or was full ([`CloseCall::UnderLimit`]).
/// - a TLE that ended inside the grace band (over the limit, under the
///   stopping point `(1 + margin) * limit_ms`): had it passed (share 1),
///   the group would score as its other tests let it, the ones its TLE
///   kept from running counted as passing (a re-run runs them); it decides
///   when that is more points, or a full group ([`CloseCall::OverLimit`]).
///
/// A near-limit test whose group scores nothing and is not full either
/// way (another test of it failed) decides nothing. A report with an `IE`
/// is the judge's fault, never a close call. `OverLimit` when any
/// deciding test is over its limit, else `UnderLimit`.
pub fn group_close_call(report: &Report, limit_ms: u64, margin: f64) -> Option<CloseCall> {
    if margin.is_nan() || margin <= 0.0 || limit_ms == 0 || report.verdict == Verdict::IE {
        return None;
    }
    let limit = limit_ms as f64;
    let stop = (1.0 + margin) * limit;
    let near = (1.0 - margin) * limit;
    let mut close = None;
    for group in report.groups.iter().filter(|g| !g.skipped) {
        let ran: Vec<&TestReport> = report
            .tests
            .iter()
            .filter(|t| t.group == group.name && group.tests.contains(&t.name))
            .collect();
        let least = ran.iter().map(|t| test_share(t)).fold(1.0, f64::min);
        let full = group.verdict == Some(Verdict::AC) && least >= 1.0 - EPSILON;
        for (i, t) in ran.iter().enumerate() {
            let ms = t.time_ms as f64;
            if t.verdict == Verdict::TLE && t.time_ms > limit_ms && ms < stop {
                // Had it passed: the group's other tests decide.
                let others = ran.iter().enumerate().filter(|(j, _)| *j != i);
                let least = others
                    .clone()
                    .map(|(_, o)| test_share(o))
                    .fold(1.0, f64::min);
                let score = (f64::from(group.points) * least + EPSILON).floor() as u32;
                let full =
                    others.clone().all(|(_, o)| o.verdict.is_accepted()) && least >= 1.0 - EPSILON;
                if score > group.score || full {
                    return Some(CloseCall::OverLimit);
                }
            } else if t.verdict != Verdict::TLE
                && ms >= near
                && t.time_ms <= limit_ms
                && test_share(t) > 0.0
                && (group.score > 0 || full)
            {
                // Had it been a TLE: the group would score 0, not full.
                close = Some(CloseCall::UnderLimit);
            }
        }
    }
    close
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::Group;

    fn report(verdict: Verdict, times: &[(Verdict, u64)]) -> Report {
        let tests = times
            .iter()
            .enumerate()
            .map(|(i, (v, ms))| TestReport {
                name: format!("t{i}"),
                group: Group::secret(),
                verdict: *v,
                time_ms: *ms,
                wall_ms: *ms,
                memory_kib: 1,
                exit_code: None,
                signal: None,
                message: String::new(),
                score: None,
                transcript: None,
            })
            .collect();
        Report {
            tests,
            ..Report::failed(verdict, String::new())
        }
    }

    #[test]
    fn a_worker_twice_as_slow_as_the_fastest_gets_twice_the_limit() {
        assert_eq!(speed_factor(200.0, &[100.0, 200.0], None, 0.05), 2.0);
        assert_eq!(speed_factor(100.0, &[100.0, 200.0], None, 0.05), 1.0);
    }

    #[test]
    fn workers_within_the_spread_are_not_scaled() {
        assert_eq!(speed_factor(104.0, &[100.0, 104.0], None, 0.05), 1.0);
        assert_eq!(speed_factor(100.0, &[100.0, 104.0], None, 0.05), 1.0);
        // One slow worker among them turns scaling on for every one.
        assert_eq!(
            speed_factor(104.0, &[100.0, 104.0, 150.0], None, 0.05),
            1.04
        );
    }

    #[test]
    fn a_configured_reference_scales_faster_and_slower_workers() {
        assert_eq!(speed_factor(50.0, &[], Some(100.0), 0.05), 0.5);
        assert_eq!(speed_factor(300.0, &[], Some(100.0), 0.05), 3.0);
        assert_eq!(speed_factor(103.0, &[], Some(100.0), 0.05), 1.0);
    }

    #[test]
    fn an_uncalibrated_worker_is_not_scaled() {
        assert_eq!(speed_factor(0.0, &[100.0, 300.0], None, 0.05), 1.0);
        assert_eq!(speed_factor(f64::NAN, &[100.0], Some(50.0), 0.05), 1.0);
    }

    #[test]
    fn close_calls_are_within_the_margin_of_the_limit() {
        use Verdict::*;
        let cases = [
            (report(AC, &[(AC, 10), (AC, 899)]), None),
            (
                report(AC, &[(AC, 10), (AC, 900)]),
                Some(CloseCall::UnderLimit),
            ),
            (report(AC, &[(AC, 1000)]), Some(CloseCall::UnderLimit)),
            (
                report(TLE, &[(AC, 5), (TLE, 1001)]),
                Some(CloseCall::OverLimit),
            ),
            (report(TLE, &[(TLE, 1099)]), Some(CloseCall::OverLimit)),
            // Stopped at the end of the grace band: a clear TLE.
            (report(TLE, &[(TLE, 1100)]), None),
            (report(TLE, &[(TLE, 1050), (TLE, 1230)]), None),
            // A sleeping program: the wall clock stopped it.
            (report(TLE, &[(TLE, 3)]), None),
            (report(WA, &[(WA, 990)]), None),
            (report(RE, &[(RE, 1050)]), None),
        ];
        for (r, want) in cases {
            assert_eq!(close_call(&r, 1000, 0.10), want, "{:?}", r.tests);
        }
        assert_eq!(close_call(&report(AC, &[(AC, 999)]), 1000, 0.0), None);
    }

    /// A report of a problem with groups: each `(points, tests)` is one
    /// group (no dependencies), its tests in judging order; a group that
    /// failed has one more test that its failure kept from running.
    fn ioi(groups: &[(u32, &[(Verdict, u64)])]) -> Report {
        let mut tests = Vec::new();
        let mut reports = Vec::new();
        for (g, (points, ran)) in groups.iter().enumerate() {
            let name = Group::parse(&format!("g{g}")).unwrap();
            let mut names = Vec::new();
            for (i, (verdict, ms)) in ran.iter().enumerate() {
                let mut t = report(*verdict, &[(*verdict, *ms)]).tests.remove(0);
                t.name = format!("g{g}t{i}");
                t.group = name.clone();
                names.push(t.name.clone());
                tests.push(t);
            }
            if ran.iter().any(|(v, _)| !v.is_accepted()) {
                names.push(format!("g{g}later"));
            }
            let spec = crate::problem::GroupSpec {
                name,
                points: *points,
                depends: Vec::new(),
            };
            let mine: Vec<&TestReport> = tests[tests.len() - ran.len()..].iter().collect();
            reports.push(crate::judge::aggregate::group(&spec, names, &mine, false).0);
        }
        let (verdict, score) = crate::judge::aggregate::scored(&tests, &reports);
        Report {
            verdict,
            score,
            tests,
            groups: reports,
            ..Report::failed(verdict, String::new())
        }
    }

    #[test]
    fn an_ioi_group_decided_by_a_test_within_the_margin_is_a_close_call() {
        use Verdict::*;
        // The first group is lost to a wrong answer (the verdict is WA);
        // the second's points hang on one test near its limit.
        let cases: [(&[(Verdict, u64)], _); 6] = [
            // Over the limit inside the grace: had it passed, 70 points.
            (&[(AC, 100), (TLE, 1050)], Some(CloseCall::OverLimit)),
            // Under the limit by less than the margin: had it been over,
            // none.
            (&[(AC, 950), (AC, 100)], Some(CloseCall::UnderLimit)),
            // Outside the margin, either side.
            (&[(AC, 899), (AC, 100)], None),
            (&[(AC, 100), (TLE, 1100)], None),
            // A sleeping program: the wall clock stopped it.
            (&[(TLE, 3)], None),
            // Near the limit, but the group is lost to a wrong answer
            // either way.
            (&[(AC, 950), (WA, 10)], None),
        ];
        for (second, want) in cases {
            let r = ioi(&[(30, &[(WA, 10)]), (70, second)]);
            assert_eq!(r.verdict, WA, "{second:?}");
            assert_eq!(close_call(&r, 1000, 0.10), want, "{second:?}");
        }
    }

    #[test]
    fn an_ioi_near_limit_test_that_decides_no_group_is_not_a_close_call() {
        use Verdict::*;
        // A TLE inside the grace, in a group another test already lost:
        // it would score nothing had it passed.
        let mut r = ioi(&[(30, &[(AC, 10)]), (70, &[(WA, 10), (TLE, 1050)])]);
        assert_eq!((r.verdict, r.score), (WA, 30));
        assert_eq!(close_call(&r, 1000, 0.10), None);
        // A partial share before it: had it passed, half the points.
        r.tests[1].score = Some(0.5);
        r.groups[1] = crate::judge::aggregate::group(
            &crate::problem::GroupSpec {
                name: r.groups[1].name.clone(),
                points: 70,
                depends: Vec::new(),
            },
            r.groups[1].tests.clone(),
            &[&r.tests[1], &r.tests[2]],
            false,
        )
        .0;
        assert_eq!(close_call(&r, 1000, 0.10), Some(CloseCall::OverLimit));
        // A full group's near-limit test decides it; at the margin 0
        // nothing does.
        let r = ioi(&[(30, &[(AC, 10)]), (70, &[(AC, 990)])]);
        assert_eq!(close_call(&r, 1000, 0.10), Some(CloseCall::UnderLimit));
        assert_eq!(close_call(&r, 1000, 0.0), None);
        // A close TLE beside a clear one in another group still decides
        // its own group's points.
        let r = ioi(&[(30, &[(TLE, 1100)]), (70, &[(TLE, 1020)])]);
        assert_eq!(close_call(&r, 1000, 0.10), Some(CloseCall::OverLimit));
        // The judge's own failure is never re-run.
        let r = ioi(&[(30, &[(IE, 0)]), (70, &[(AC, 990)])]);
        assert_eq!(close_call(&r, 1000, 0.10), None);
    }
}
