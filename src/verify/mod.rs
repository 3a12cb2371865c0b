//! `grundy verify`: proves a problem package right. A package is verified
//! when every check holds:
//!
//! * **tests**: every input is produced and passes the validator, and the
//!   reference solver answers every test (building the test set proves it);
//! * **cross-check**: `brute.rs` agrees with the answers on every test within
//!   its reach, and with `solution.rs` on random small inputs from the
//!   package's stress plan; a disagreement shows the smallest input found;
//! * **submissions**: every example submission gets its expected verdict;
//! * **time margin**: the slowest accepted run uses at most half its limit;
//! * **answer balance**: where answers are a few words, none is above 80%.
//!
//! The time margin is a figure of this machine: it tells the setter how much
//! room the limit leaves here. Every other check gives the same result on
//! any machine whose speed is within the room the limits leave.
//!
//! It sits above the judge (it judges the example submissions) and reports
//! results as values; an `Err` is a failure of the judge itself.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::data::{self, PackagePrograms, TestData, TestSet};
use crate::judge::{self, Judge, Plan, PlanError, Report};
use crate::problem::kattis::NotJudged;
use crate::problem::{Expected, Problem, Role, TestInput};
use crate::verdict::Verdict;

/// The share of tests one answer word may have at most.
pub const MAX_WORD_SHARE: f64 = 0.8;
/// The part of the time limit the slowest accepted run may use at most.
pub const MAX_TIME_SHARE: f64 = 0.5;
/// Exit status by which `brute.rs` declines an input beyond its reach.
pub const BRUTE_DECLINES: i32 = 3;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Data(#[from] data::Error),
    #[error(transparent)]
    Judge(#[from] judge::Error),
    #[error("{what}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

/// The checks of a verification, in the order they are reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CheckName {
    #[serde(rename = "tests")]
    Tests,
    #[serde(rename = "cross-check")]
    CrossCheck,
    #[serde(rename = "submissions")]
    Submissions,
    #[serde(rename = "time limit")]
    TimeLimit,
    #[serde(rename = "time margin")]
    TimeMargin,
    #[serde(rename = "answer balance")]
    AnswerBalance,
}

impl CheckName {
    pub fn as_str(self) -> &'static str {
        match self {
            CheckName::Tests => "tests",
            CheckName::CrossCheck => "cross-check",
            CheckName::Submissions => "submissions",
            CheckName::TimeLimit => "time limit",
            CheckName::TimeMargin => "time margin",
            CheckName::AnswerBalance => "answer balance",
        }
    }
}

/// One check and its outcome.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: CheckName,
    pub ok: bool,
    pub detail: String,
}

/// One example submission's outcome.
#[derive(Debug, Clone, Serialize)]
pub struct SubmissionCheck {
    pub path: String,
    pub expected: Expected,
    pub verdict: Verdict,
    /// Every distinct verdict its tests got.
    pub test_verdicts: Vec<Verdict>,
    pub time_ms: u64,
    pub ok: bool,
    /// Not judged: in a language grundy lacks (not a failure).
    pub skipped: bool,
    pub detail: String,
}

/// The verification of one package.
#[derive(Debug, Clone, Serialize)]
pub struct ProblemReport {
    pub problem: String,
    pub verified: bool,
    pub checks: Vec<Check>,
    pub submissions: Vec<SubmissionCheck>,
}

/// Verification settings.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Overrides every stress plan's count.
    pub stress: Option<u32>,
}

/// Verifies one package: its data is built with `data`, its example
/// submissions judged by `judge` (every test run, whatever fails first)
/// with sources up to `source_limit_kib`.
///
/// # Errors
/// Only failures of the judge itself; everything wrong with the package is
/// a failed check in the report.
pub fn verify(
    data: &TestData,
    judge: &Judge,
    source_limit_kib: u64,
    problem: &Problem,
    options: Options,
    progress: &dyn Fn(&str),
) -> Result<ProblemReport, Error> {
    let mut checks = Vec::new();
    let mut submissions = Vec::new();
    progress("generating tests");
    let set = match data.mend(problem, &|_| {}) {
        Ok(set) if given_answers(problem) => {
            checks.push(kattis_tests_check(problem, &set));
            Some(set)
        }
        Ok(set) => {
            checks.push(Check {
                name: CheckName::Tests,
                ok: problem.has(Role::Validator),
                detail: if problem.has(Role::Validator) {
                    format!(
                        "{} tests, every input valid and answered",
                        set.index.tests.len()
                    )
                } else {
                    "validator.rs is missing: inputs are unchecked".into()
                },
            });
            Some(set)
        }
        Err(e) => {
            checks.push(Check {
                name: CheckName::Tests,
                ok: false,
                detail: e.to_string(),
            });
            None
        }
    };
    if let Some(set) = set {
        progress("cross-checking with the brute force");
        checks.push(cross_check(data, judge, problem, &set, options)?);
        progress("judging example submissions");
        let set = Arc::new(set);
        let Judged {
            submissions: subs,
            margin,
            time_limit,
            ..
        } = check_submissions(data, judge, source_limit_kib, problem, &set)?;
        submissions = subs;
        let mut detail = summarize_submissions(&submissions);
        let unjudged = problem.kattis.as_ref().map_or(0, |k| k.unjudged.len());
        if unjudged > 0 {
            let folders: std::collections::BTreeSet<&str> = problem
                .kattis
                .iter()
                .flat_map(|k| k.unjudged.iter().map(|(_, f)| f.as_str()))
                .collect();
            let folders: Vec<&str> = folders.into_iter().collect();
            detail.push_str(&format!(
                "; {unjudged} not judged: in folders grundy has no verdict for ({})",
                folders.join(", ")
            ));
        }
        checks.push(Check {
            name: CheckName::Submissions,
            ok: !submissions.is_empty() && submissions.iter().all(|s| s.ok),
            detail,
        });
        checks.extend(time_limit);
        checks.push(margin);
        if given_answers(problem) {
            checks.push(Check {
                name: CheckName::AnswerBalance,
                ok: true,
                detail: "every answer is given (a Kattis package's): not applicable".into(),
            });
        } else {
            checks.push(answer_balance(&set)?);
        }
    }
    let verified = checks.iter().all(|c| c.ok);
    Ok(ProblemReport {
        problem: problem.slug.clone(),
        verified,
        checks,
        submissions,
    })
}

/// Whether the package gives every answer itself and has no reference
/// solver (a Kattis package, or one imported from Kattis).
fn given_answers(problem: &Problem) -> bool {
    problem.kattis.is_some()
        || (!problem.has(Role::Solution)
            && problem.manifest.tests.iter().all(|t| t.answer.is_some()))
}

/// The tests of a Kattis package: every input accepted by every input
/// validator grundy can run; those it cannot run are named, not failed.
fn kattis_tests_check(problem: &Problem, set: &TestSet) -> Check {
    let validators = problem.manifest.input_validators.len();
    let skipped = problem
        .kattis
        .as_ref()
        .map(|k| k.skipped.clone())
        .unwrap_or_default();
    let mut detail = format!(
        "{} tests, every input accepted by {validators} input validator{}",
        set.index.tests.len(),
        if validators == 1 { "" } else { "s" }
    );
    for s in &skipped {
        detail.push_str(&format!("; skipped: {s}"));
    }
    // problemtools warns of a package without input validators; it does
    // not fail it.
    if validators == 0 && !skipped.iter().any(|s| s.starts_with("input validator")) {
        detail.push_str("; warning: no input validators, inputs are unchecked");
    }
    Check {
        name: CheckName::Tests,
        ok: true,
        detail,
    }
}

fn summarize_submissions(subs: &[SubmissionCheck]) -> String {
    if subs.is_empty() {
        return "no example submissions".into();
    }
    let bad: Vec<String> = subs
        .iter()
        .filter(|s| !s.ok)
        .map(|s| format!("{}: {}", s.path, s.detail))
        .collect();
    let skipped: Vec<String> = subs
        .iter()
        .filter(|s| s.skipped)
        .map(|s| {
            let why = s.detail.trim_start_matches("skipped: ");
            format!("{} ({why})", s.path)
        })
        .collect();
    let mut detail = if bad.is_empty() {
        let judged = subs.len() - skipped.len();
        format!("{judged} submissions, each got its expected verdict")
    } else {
        bad.join("; ")
    };
    if !skipped.is_empty() {
        detail.push_str(&format!(
            "; skipped (a language grundy lacks): {}",
            skipped.join(", ")
        ));
    }
    detail
}

/// A disagreement found by the cross-check.
struct Disagreement {
    what: String,
    input: Vec<u8>,
    expected: Vec<u8>,
    brute: Vec<u8>,
}

fn cross_check(
    data: &TestData,
    judge: &Judge,
    problem: &Problem,
    set: &TestSet,
    options: Options,
) -> Result<Check, Error> {
    let fail = |detail: String| Check {
        name: CheckName::CrossCheck,
        ok: false,
        detail,
    };
    if given_answers(problem) {
        return Ok(Check {
            name: CheckName::CrossCheck,
            ok: true,
            detail:
                "every answer is given (a Kattis package's), no solver writes them: not applicable"
                    .into(),
        });
    }
    if !problem.has(Role::Brute) {
        return Ok(fail("brute.rs is missing".into()));
    }
    let roles = [
        Role::Brute,
        Role::Generator,
        Role::Validator,
        Role::Solution,
    ];
    let checking = match judge.checking(problem) {
        Ok(c) => c,
        Err(judge::Error::Checker { path, message }) => {
            return Ok(fail(format!(
                "the checker {} does not compile: {message}",
                display_path(&path, &problem.dir)
            )))
        }
        Err(e) => return Err(e.into()),
    };
    let agree = |input: &Path, answer: &Path, output: &Path| -> Result<Agreement, Error> {
        Ok(
            match checking.check(data.runner.as_ref(), input, answer, output)? {
                (Verdict::AC, _) => Agreement::Agree,
                (Verdict::IE, why) => Agreement::CheckerFailed(why),
                _ => Agreement::Disagree,
            },
        )
    };
    let programs = match data.programs(problem, &roles) {
        Ok(p) => p,
        Err(data::Error::Compile { role, message, .. }) => {
            return Ok(fail(format!("{role} does not compile: {message}")))
        }
        Err(e) => return Err(e.into()),
    };
    let scratch = tempfile::tempdir().map_err(|source| Error::Io {
        what: "creating a scratch directory".into(),
        source,
    })?;
    let out = scratch.path().join("brute.out");
    let mut compared = 0usize;
    let mut worst: Option<Disagreement> = None;
    let mut problems_seen = Vec::new();
    let consider = |d: Disagreement, worst: &mut Option<Disagreement>| {
        if worst.as_ref().is_none_or(|w| d.input.len() < w.input.len()) {
            *worst = Some(d);
        }
    };

    // Every test of the plan within the brute force's reach.
    for test in &set.index.tests {
        let input = set.input(test);
        match run_brute(&programs, &input, &out)? {
            BruteRun::Declined => continue,
            BruteRun::Failed(why) => {
                problems_seen.push(format!("brute.rs failed on test {}: {why}", test.name));
                continue;
            }
            BruteRun::Answered => {}
        }
        compared += 1;
        let agreement = agree(&input, &set.answer(test), &out)?;
        if let Agreement::CheckerFailed(why) = &agreement {
            problems_seen.push(format!("the checker failed on test {}: {why}", test.name));
        }
        let (input, answer, brute) = (read(&input)?, read(&set.answer(test))?, read(&out)?);
        if agreement == Agreement::Disagree {
            consider(
                Disagreement {
                    what: format!("test {}", test.name),
                    input,
                    expected: answer,
                    brute,
                },
                &mut worst,
            );
        }
    }
    let plan_compared = compared;

    // Random small inputs from the stress plan.
    let input = scratch.path().join("stress.in");
    let answer = scratch.path().join("stress.ans");
    let mut stress_runs = 0usize;
    for plan in &problem.manifest.stress {
        let count = options.stress.unwrap_or(plan.count);
        for i in 1..=count {
            let mut args = plan.args.clone();
            args.push(format!("seed=stress-{i}"));
            let label = format!("stress `gen {}`", args.join(" "));
            let origin = TestInput::Gen(args);
            if let Err(why) = programs.produce(&problem.dir, &origin, &input, &answer)? {
                problems_seen.push(format!("{label}: {why}"));
                break;
            }
            match run_brute(&programs, &input, &out)? {
                BruteRun::Declined => continue,
                BruteRun::Failed(why) => {
                    problems_seen.push(format!("{label}: brute.rs failed: {why}"));
                    break;
                }
                BruteRun::Answered => {}
            }
            stress_runs += 1;
            compared += 1;
            let agreement = agree(&input, &answer, &out)?;
            if let Agreement::CheckerFailed(why) = &agreement {
                problems_seen.push(format!("{label}: the checker failed: {why}"));
                break;
            }
            let (given, expected, brute) = (read(&input)?, read(&answer)?, read(&out)?);
            if agreement == Agreement::Disagree {
                consider(
                    Disagreement {
                        what: label,
                        input: given,
                        expected,
                        brute,
                    },
                    &mut worst,
                );
            }
        }
    }

    let mut detail =
        format!("brute force agreed on {plan_compared} plan tests and {stress_runs} stress runs");
    let mut ok = problems_seen.is_empty();
    if compared == 0 {
        ok = false;
        detail = "the brute force declined every input: nothing was cross-checked".into();
    }
    if let Some(d) = worst {
        ok = false;
        detail = format!(
            "solution and brute force disagree; smallest input found ({}):\n{}\nsolution.rs says:\n{}\nbrute.rs says:\n{}",
            d.what,
            excerpt(&d.input),
            excerpt(&d.expected),
            excerpt(&d.brute)
        );
    }
    if !problems_seen.is_empty() {
        detail = format!("{}; {detail}", problems_seen.join("; "));
    }
    Ok(Check {
        name: CheckName::CrossCheck,
        ok,
        detail,
    })
}

enum BruteRun {
    Answered,
    Declined,
    Failed(String),
}

fn run_brute(programs: &PackagePrograms, input: &Path, out: &Path) -> Result<BruteRun, Error> {
    let run = programs.run(Role::Brute, &[], Some(input), out)?;
    Ok(match run.outcome.termination {
        crate::sandbox::Termination::Exited(0) => BruteRun::Answered,
        crate::sandbox::Termination::Exited(BRUTE_DECLINES) => BruteRun::Declined,
        other => BruteRun::Failed(format!("{other:?} {}", run.stderr_line)),
    })
}

/// What the problem's checker says of the brute force's output, judged
/// against the solution's answer on the real input.
#[derive(Debug, PartialEq)]
enum Agreement {
    Agree,
    Disagree,
    CheckerFailed(String),
}

fn read(path: &Path) -> Result<Vec<u8>, Error> {
    std::fs::read(path).map_err(|source| Error::Io {
        what: format!("reading {}", path.display()),
        source,
    })
}

/// The start of a file's text, for a report.
fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 1000;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(MAX)]).into_owned();
    if bytes.len() > MAX {
        format!("{text}[... {} bytes in all]", bytes.len())
    } else {
        text.trim_end().to_string()
    }
}

/// Judges every example submission on every test. A Kattis package's
/// time limit, where it fixes none, is derived from its accepted
/// submissions as problemtools does (they run first, under the largest
/// limit grundy allows); a time-limit-exceeded submission must exceed the
/// limit times `time_limit_to_tle`.
fn check_submissions(
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
    let with_limit = |limit: f64| {
        let mut p = problem.clone();
        p.manifest.time_limit = limit;
        Arc::new(p)
    };
    let mut shared = Arc::new(problem.clone());
    // The limit in force, once known (a derived one is known after the
    // accepted submissions ran).
    let mut limit = match rule {
        Some(rule) => rule.fixed,
        None => Some(problem.manifest.time_limit),
    };
    let mut time_check = None;
    // A limit derived for this version of the package before is kept.
    let kept_at = rule
        .filter(|r| r.fixed.is_none())
        .map(|_| kept_path(data, problem, set));
    if let Some((seconds, how)) = kept_at.as_deref().and_then(read_kept) {
        limit = Some(seconds);
        time_check = Some(Check {
            name: CheckName::TimeLimit,
            ok: true,
            detail: how,
        });
    }
    let derive = |rule: &crate::problem::kattis::TimeRule, accepted: &[(f64, String, f64)]| {
        let (limit, check) = derive_limit(rule, accepted);
        if let (Some(at), true) = (&kept_at, check.ok) {
            keep(at, limit, &check.detail);
        }
        (limit, check)
    };
    let mut out = Vec::new();
    // The accepted runs: CPU seconds over the language's time factor.
    let mut accepted: Vec<(f64, String, f64)> = Vec::new();
    for sub in problem.submissions() {
        let path = display_path(&sub.path, &problem.dir);
        if sub.expected != Expected::Accepted && limit.is_none() {
            if let Some(rule) = rule {
                let (derived, check) = derive(&rule, &accepted);
                limit = Some(derived);
                time_check = Some(check);
            }
        }
        if let (Some(rule), Some(l)) = (rule, limit) {
            shared = match sub.expected {
                Expected::Accepted => with_limit(l),
                Expected::TimeLimitExceeded => with_limit(l * rule.time_limit_to_tle),
                _ => with_limit(l),
            };
        } else if rule.is_some() {
            // Accepted submissions of a package without a fixed limit run
            // under the largest one, to measure them.
            shared = with_limit(problem.manifest.time_limit);
        }
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
        let kattis = problem.kattis.is_some();
        let skipped = |why: String| SubmissionCheck {
            ok: true,
            skipped: true,
            ..refused(format!("skipped: {why}"))
        };
        let files = match crate::problem::kattis::submission(&sub.path, kattis) {
            Ok(files) => files,
            Err(NotJudged::Lacks(why)) if kattis => {
                out.push(skipped(why));
                continue;
            }
            Err(why) => {
                out.push(refused(why.to_string()));
                continue;
            }
        };
        let language = match data.languages.for_path(Path::new(&files.name)) {
            Ok(l) => l.clone(),
            Err(e) if kattis => {
                out.push(skipped(e.to_string()));
                continue;
            }
            Err(e) => {
                out.push(refused(e.to_string()));
                continue;
            }
        };
        let factor = language.config.time_factor;
        let plan = match Plan::new(
            shared.clone(),
            language,
            &files.name,
            files.text,
            set.clone(),
            source_limit_kib,
        ) {
            Ok(plan) => plan.with_siblings(files.siblings).with_units(files.units),
            // A Python 2 file: problemtools judges it, grundy cannot.
            Err(PlanError::Refused { why, .. }) if kattis => {
                out.push(skipped(why));
                continue;
            }
            Err(e) => {
                out.push(refused(e.to_string()));
                continue;
            }
        };
        let report = judge.judge(&plan, &mut |_| {})?;
        let (ok, detail) = judge_expectation(sub.expected, &report);
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
    if let Some(rule) = rule {
        if limit.is_none() {
            let (derived, check) = derive(&rule, &accepted);
            limit = Some(derived);
            time_check = Some(check);
        }
        if time_check.is_none() {
            let fixed = limit.unwrap_or(problem.manifest.time_limit);
            let slowest = accepted.iter().map(|(t, ..)| *t).fold(0.0, f64::max);
            let tight = !accepted.is_empty() && slowest * rule.ac_to_time_limit > fixed;
            time_check = Some(Check {
                name: CheckName::TimeLimit,
                ok: !tight,
                detail: if tight {
                    format!(
                        "fixed at {fixed} s, tighter than the slowest accepted run ({slowest:.3} s) x {} = {:.3} s",
                        rule.ac_to_time_limit,
                        slowest * rule.ac_to_time_limit
                    )
                } else {
                    format!("fixed at {fixed} s by the package")
                },
            });
        }
    }
    let final_limit = limit.unwrap_or(problem.manifest.time_limit);
    let slowest = accepted
        .iter()
        .map(|(secs, what, factor)| {
            let limit_ms = final_limit * factor * 1000.0;
            (secs / final_limit, format!("{what} of {limit_ms:.0} ms"))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let margin = match slowest {
        Some((share, what)) => Check {
            name: CheckName::TimeMargin,
            ok: share <= MAX_TIME_SHARE,
            detail: format!(
                "slowest accepted run uses {:.0}% of its limit ({what}); at most {:.0}% allowed",
                share * 100.0,
                MAX_TIME_SHARE * 100.0
            ),
        },
        None => Check {
            name: CheckName::TimeMargin,
            ok: false,
            detail: "no accepted submission ran".into(),
        },
    };
    Ok(Judged {
        submissions: out,
        margin,
        time_limit: time_check,
        limit: final_limit,
    })
}

/// What judging the example submissions found.
struct Judged {
    submissions: Vec<SubmissionCheck>,
    margin: Check,
    /// A Kattis package's time limit, fixed or derived.
    time_limit: Option<Check>,
    /// The time limit in force, seconds.
    limit: f64,
}

/// The time limit of a Kattis package that fixes none, derived from its
/// accepted submissions as `verify` does (they are judged on `set`), with
/// the sentence saying how; `None` where the package fixes it.
///
/// # Errors
/// Only failures of the judge itself.
pub fn derive_time_limit(
    data: &TestData,
    judge: &Judge,
    source_limit_kib: u64,
    problem: &Problem,
    set: &Arc<TestSet>,
) -> Result<Option<(f64, String)>, Error> {
    let Some(k) = &problem.kattis else {
        return Ok(None);
    };
    if k.time.fixed.is_some() {
        return Ok(None);
    }
    if let Some(kept) = read_kept(&kept_path(data, problem, set)) {
        return Ok(Some(kept));
    }
    let mut accepted_only = problem.clone();
    if let Some(k) = &mut accepted_only.kattis {
        k.submissions.retain(|s| s.expected == Expected::Accepted);
    }
    let judged = check_submissions(data, judge, source_limit_kib, &accepted_only, set)?;
    let how = judged.time_limit.map(|c| c.detail).unwrap_or_default();
    Ok(Some((judged.limit, how)))
}

/// Where the time limit derived for this version of a Kattis package is
/// kept: named by the digest of what it depends on (`problem.yaml`,
/// `.timelimit`, the tests, the accepted submissions and the languages'
/// time factors), so that a changed package derives its own.
fn kept_path(data: &TestData, problem: &Problem, set: &TestSet) -> PathBuf {
    let mut h = crate::digest::Fields::new();
    h.field(b"kattis time limit 1")
        .field(set.dir.to_string_lossy().as_bytes());
    for file in ["problem.yaml", ".timelimit"] {
        h.field(&std::fs::read(problem.dir.join(file)).unwrap_or_default());
    }
    for sub in problem.submissions() {
        if sub.expected != Expected::Accepted {
            continue;
        }
        let mut files = vec![sub.path.clone()];
        if let Ok(entries) = std::fs::read_dir(&sub.path) {
            files = entries.flatten().map(|e| e.path()).collect();
            files.sort();
        }
        for f in files {
            h.field(f.to_string_lossy().as_bytes())
                .field(&std::fs::read(&f).unwrap_or_default());
        }
    }
    for l in data.languages.iter() {
        h.field(l.id.as_bytes())
            .field(&l.config.time_factor.to_le_bytes());
    }
    data.root.join("kattis-time-limits").join(h.finish())
}

/// A kept derived limit and the sentence saying how it was derived.
fn read_kept(path: &Path) -> Option<(f64, String)> {
    let text = std::fs::read_to_string(path).ok()?;
    let (seconds, how) = text.split_once('\n')?;
    let seconds = seconds.trim().parse::<f64>().ok()?;
    Some((
        seconds,
        format!(
            "{} (kept: derived once for this version of the package)",
            how.trim_end()
        ),
    ))
}

/// Keeps a derived limit (a failure to keep it only costs deriving it
/// again).
fn keep(path: &Path, seconds: f64, how: &str) {
    let write = || -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(path);
        std::fs::create_dir_all(dir)?;
        let tmp = tempfile::NamedTempFile::new_in(dir)?;
        std::fs::write(tmp.path(), format!("{seconds}\n{how}\n"))?;
        tmp.persist(path).map_err(|e| e.error)?;
        Ok(())
    };
    if let Err(e) = write() {
        tracing::warn!(path = %path.display(), error = %e, "keeping a derived time limit");
    }
}

/// The limit a Kattis package's accepted runs give (CPU seconds over each
/// language's time factor), and the check reporting it.
fn derive_limit(
    rule: &crate::problem::kattis::TimeRule,
    accepted: &[(f64, String, f64)],
) -> (f64, Check) {
    let Some(slowest) = accepted.iter().map(|(t, ..)| *t).reduce(f64::max) else {
        return (
            60.0,
            Check {
                name: CheckName::TimeLimit,
                ok: false,
                detail: "the package fixes no time limit and no accepted submission ran to derive one from".into(),
            },
        );
    };
    let limit = rule.derive(slowest);
    (
        limit,
        Check {
            name: CheckName::TimeLimit,
            ok: true,
            detail: format!(
                "derived: slowest accepted run {slowest:.3} s x {} rounded up to {} s = {limit} s; time-limit-exceeded submissions judged at {} s",
                rule.ac_to_time_limit,
                rule.resolution,
                limit * rule.time_limit_to_tle
            ),
        },
    )
}

fn display_path(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .map(PathBuf::from)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// Whether a report matches the expectation of its directory:
/// `accepted` is AC on every test; the others need their verdict on at
/// least one test and no failure of another kind worse than allowed.
pub fn judge_expectation(expected: Expected, report: &Report) -> (bool, String) {
    let verdicts: Vec<Verdict> = report.tests.iter().map(|t| t.verdict).collect();
    let has = |v: Verdict| verdicts.contains(&v);
    let first_other = |allowed: &[Verdict]| {
        report
            .tests
            .iter()
            .find(|t| !allowed.contains(&t.verdict))
            .map(|t| format!("{} on test {}", t.verdict, t.name))
    };
    if report.verdict == Verdict::CE {
        return (
            false,
            format!(
                "does not compile: {}",
                report.compile_output.lines().next().unwrap_or("")
            ),
        );
    }
    let (target, allowed): (Verdict, &[Verdict]) = match expected {
        Expected::PartiallyAccepted => {
            let ok = report.score > 0 && report.score < 100 && report.verdict != Verdict::IE;
            return if ok {
                (true, String::new())
            } else {
                let got = format!("{} with {} points", report.verdict, report.score);
                (
                    false,
                    format!("expected some points but not all, got {got}"),
                )
            };
        }
        Expected::Accepted => (Verdict::AC, &[Verdict::AC]),
        Expected::WrongAnswer => (Verdict::WA, &[Verdict::AC, Verdict::WA, Verdict::PE]),
        Expected::TimeLimitExceeded => (Verdict::TLE, &[Verdict::AC, Verdict::TLE]),
        Expected::MemoryLimitExceeded => (Verdict::MLE, &[Verdict::AC, Verdict::MLE, Verdict::TLE]),
        Expected::RuntimeError => (Verdict::RE, &[Verdict::AC, Verdict::RE]),
    };
    if let Some(other) = first_other(allowed) {
        return (false, format!("expected {target}, got {other}"));
    }
    if !has(target) {
        return (
            false,
            format!("expected {target} on some test, but every test was accepted"),
        );
    }
    // With groups, an accepted submission must also get every point (a
    // checker's partial score can leave a group short while accepting).
    if expected == Expected::Accepted && report.score < 100 {
        let short: Vec<String> = report
            .groups
            .iter()
            .filter(|g| g.score < g.points)
            .map(|g| format!("{} {}/{}", g.name, g.score, g.points))
            .collect();
        return (
            false,
            format!(
                "accepted with {} points, not 100 ({})",
                report.score,
                short.join(", ")
            ),
        );
    }
    (true, String::new())
}

/// Where every answer is one of a few lines (words), the share of each.
fn answer_balance(set: &TestSet) -> Result<Check, Error> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = 0usize;
    for test in &set.index.tests {
        let text = String::from_utf8_lossy(&read(&set.answer(test))?).into_owned();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            *counts.entry(line.to_string()).or_default() += 1;
            total += 1;
        }
        if counts.len() > 4 {
            return Ok(Check {
                name: CheckName::AnswerBalance,
                ok: true,
                detail: "answers are not a few words: not applicable".into(),
            });
        }
    }
    let shares: Vec<(String, f64)> = counts
        .into_iter()
        .map(|(w, c)| (w, c as f64 / total.max(1) as f64))
        .collect();
    let ok = shares.iter().all(|(_, s)| *s <= MAX_WORD_SHARE) && shares.len() > 1;
    let detail = shares
        .iter()
        .map(|(w, s)| format!("{w:?} {:.0}%", s * 100.0))
        .collect::<Vec<_>>()
        .join(", ");
    let detail = if ok {
        detail
    } else {
        format!(
            "{detail}: one answer dominates (at most {:.0}% allowed)",
            MAX_WORD_SHARE * 100.0
        )
    };
    Ok(Check {
        name: CheckName::AnswerBalance,
        ok,
        detail,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::TestReport;

    fn report(verdicts: &[Verdict]) -> Report {
        let tests: Vec<TestReport> = verdicts
            .iter()
            .enumerate()
            .map(|(i, &verdict)| TestReport {
                name: format!("t{i}"),
                group: crate::problem::Group::secret(),
                verdict,
                time_ms: 0,
                wall_ms: 0,
                memory_kib: 0,
                exit_code: Some(0),
                signal: None,
                message: String::new(),
                score: None,
                transcript: None,
            })
            .collect();
        let (verdict, score) = crate::judge::aggregate(verdicts, verdicts.len());
        Report {
            verdict,
            score,
            time_ms: 0,
            memory_kib: 0,
            compile_output: String::new(),
            tests,
            groups: Vec::new(),
        }
    }

    #[test]
    fn expectations_table() {
        use Expected::*;
        use Verdict::*;
        let cases: &[(Expected, &[Verdict], bool)] = &[
            (Accepted, &[AC, AC], true),
            (Accepted, &[AC, WA], false),
            (WrongAnswer, &[AC, WA, WA], true),
            (WrongAnswer, &[AC, AC], false),
            (WrongAnswer, &[WA, TLE], false),
            (TimeLimitExceeded, &[AC, TLE, TLE], true),
            (TimeLimitExceeded, &[AC, TLE, WA], false),
            (TimeLimitExceeded, &[WA], false),
            (MemoryLimitExceeded, &[MLE, TLE], true),
            (RuntimeError, &[AC, RE], true),
            (RuntimeError, &[RE, WA], false),
        ];
        for (expected, verdicts, ok) in cases {
            let (got, why) = judge_expectation(*expected, &report(verdicts));
            assert_eq!(got, *ok, "{expected:?} {verdicts:?}: {why}");
        }
    }
}
