//! The submissions check of `grundy verify`: every example submission
//! judged on every test and held to what it should get; a Kattis
//! package's time limit fixed or derived (see [`crate::judge::derive`]),
//! its time-limit-exceeded submissions judged at the limit times
//! `time_limit_to_tle`; and the time margin of the slowest accepted run.

use std::sync::Arc;

use super::expectation::{claims_hold, judge_expectation};
use super::{display_path, Check, CheckName, Error, SubmissionCheck, MAX_TIME_SHARE};
use crate::data::{TestData, TestSet};
use crate::judge::derive::{self, AcceptedRun};
use crate::judge::examples::{self, Unplanned};
use crate::judge::Judge;
use crate::problem::{Expected, Problem};
use crate::verdict::Verdict;

/// What judging the example submissions found.
pub(super) struct Judged {
    pub submissions: Vec<SubmissionCheck>,
    pub margin: Check,
    /// A Kattis package's time limit, fixed or derived.
    pub time_limit: Option<Check>,
}

/// Judges every example submission of `problem` on every test of `set`.
///
/// # Errors
/// Only failures of the judge itself.
pub(super) fn check_submissions(
    data: &TestData,
    judge: &Judge,
    source_limit_kib: u64,
    problem: &Problem,
    set: &Arc<TestSet>,
) -> Result<Judged, Error> {
    let judge = Judge {
        run_all: true,
        ..judge.clone()
    };
    let rule = problem.kattis.as_ref().map(|k| k.time);
    let derived = derive::time_limit(&judge, data, source_limit_kib, problem, set)?;
    let limit = match (&derived, rule) {
        (Some(d), _) => d.seconds,
        (None, Some(rule)) => rule.fixed.unwrap_or(problem.manifest.time_limit),
        (None, None) => problem.manifest.time_limit,
    };
    let with_limit = |limit: f64| {
        let mut p = problem.clone();
        p.manifest.time_limit = limit;
        Arc::new(p)
    };
    let normal = with_limit(limit);
    // A Kattis time-limit-exceeded submission must exceed the limit with
    // the package's safety margin.
    let slow = rule.map(|r| with_limit(limit * r.time_limit_to_tle));
    let mut out = Vec::new();
    let mut accepted: Vec<AcceptedRun> = Vec::new();
    for sub in problem.submissions() {
        let path = display_path(&sub.path, &problem.dir);
        let shared = match (&slow, sub.expected) {
            (Some(slow), Expected::TimeLimitExceeded) => slow.clone(),
            _ => normal.clone(),
        };
        let refused = |detail: String| SubmissionCheck {
            path: path.clone(),
            expected: sub.expected,
            verdict: Verdict::IE,
            test_verdicts: Vec::new(),
            time_ms: 0,
            ok: false,
            skipped: false,
            detail,
        };
        let (plan, factor) = match examples::plan(data, shared, &sub, set.clone(), source_limit_kib)
        {
            Ok(planned) => planned,
            Err(Unplanned::Skipped(why)) => {
                out.push(SubmissionCheck {
                    ok: true,
                    skipped: true,
                    ..refused(format!("skipped: {why}"))
                });
                continue;
            }
            Err(Unplanned::Refused(why)) => {
                out.push(refused(why));
                continue;
            }
        };
        let report = judge.judge(&plan, &mut |_| {})?;
        let (ok, detail) = match &sub.claimed {
            Some(claimed) => claims_hold(claimed, &report, problem),
            None => judge_expectation(sub.expected, &report),
        };
        if sub.expected == Expected::Accepted && ok {
            accepted.push((
                report.time_ms as f64 / 1000.0 / factor,
                format!("{path}: {} ms", report.time_ms),
                factor,
            ));
        }
        let mut test_verdicts: Vec<Verdict> = report.tests.iter().map(|t| t.verdict).collect();
        test_verdicts.sort_by_key(|v| v.severity());
        test_verdicts.dedup();
        out.push(SubmissionCheck {
            path,
            expected: sub.expected,
            verdict: report.verdict,
            test_verdicts,
            time_ms: report.time_ms,
            ok,
            skipped: false,
            detail,
        });
    }
    let time_limit = match (derived, rule) {
        (Some(d), _) => Some(Check {
            name: CheckName::TimeLimit,
            counterexample: None,
            ok: d.ok,
            detail: d.how,
        }),
        (None, Some(rule)) => {
            let slowest = accepted.iter().map(|(t, ..)| *t).fold(0.0, f64::max);
            let tight = !accepted.is_empty() && slowest * rule.ac_to_time_limit > limit;
            Some(Check {
                name: CheckName::TimeLimit,
                counterexample: None,
                ok: !tight,
                detail: if tight {
                    format!(
                        "fixed at {limit} s, tighter than the slowest accepted run ({slowest:.3} s) x {} = {:.3} s",
                        rule.ac_to_time_limit,
                        slowest * rule.ac_to_time_limit
                    )
                } else {
                    format!("fixed at {limit} s by the package")
                },
            })
        }
        (None, None) => None,
    };
    Ok(Judged {
        submissions: out,
        margin: margin(&accepted, limit),
        time_limit,
    })
}

/// The time margin: the slowest accepted run's share of its limit.
fn margin(accepted: &[AcceptedRun], limit: f64) -> Check {
    let slowest = accepted
        .iter()
        .map(|(secs, what, factor)| {
            let limit_ms = limit * factor * 1000.0;
            (secs / limit, format!("{what} of {limit_ms:.0} ms"))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    match slowest {
        Some((share, what)) => Check {
            name: CheckName::TimeMargin,
            counterexample: None,
            ok: share <= MAX_TIME_SHARE,
            detail: format!(
                "slowest accepted run uses {:.0}% of its limit ({what}); at most {:.0}% allowed",
                share * 100.0,
                MAX_TIME_SHARE * 100.0
            ),
        },
        None => Check {
            name: CheckName::TimeMargin,
            counterexample: None,
            ok: false,
            detail: "no accepted submission ran".into(),
        },
    }
}
