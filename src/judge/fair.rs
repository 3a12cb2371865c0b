//! Fair timing across workers of different speeds, as pure rules: the
//! speed factor a worker's limits are scaled by, and when a verdict was
//! decided so close to its limit that it is judged once more. The judge
//! applies a [`Scaling`] to every run; the workers decide the rest (see
//! `docs/timing.md`).

use super::Report;
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
pub fn close_call(report: &Report, limit_ms: u64, margin: f64) -> Option<CloseCall> {
    if margin.is_nan() || margin <= 0.0 || limit_ms == 0 {
        return None;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::TestReport;
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
}
