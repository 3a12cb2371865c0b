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
//! * **answer balance**: where answers are a few words, none is above 80%;
//! * **adversaries**: no built-in wrong program (`adversaries.rs`) gets
//!   through the tests, unless `verify.toml` expects it to, with a reason,
//!   or every test has the same answer (and nothing shows another: then a
//!   program printing it is a solution, and the report says so);
//! * **bounds**: every maximum the validator declares is reached by some
//!   test, unless `verify.toml` says why none needs to (a Kattis package's
//!   are only reported);
//! * **game coverage** (a report, never a failure): each group's share of
//!   winning and losing positions, and the spread of Sprague–Grundy values
//!   where the solution prints them.
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

use crate::data::{self, TestData, TestSet};
use crate::judge::{self, Judge};
use crate::plural::count;
use crate::problem::{Expected, Problem, Role};
use crate::verdict::Verdict;

mod adversaries;
mod bounds;
mod coverage;
mod cross;
mod expectation;
mod notes;
mod shrink;
mod submissions;

pub use adversaries::AdversaryRun;
pub use bounds::BoundReach;
pub use coverage::GroupCoverage;
use cross::{cross_check, read, same_text};
pub use expectation::{claims_hold, judge_expectation};
pub use notes::Notes;
use submissions::{check_submissions, Judged};

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
    #[serde(rename = "adversaries")]
    Adversaries,
    #[serde(rename = "bounds")]
    Bounds,
    #[serde(rename = "game coverage")]
    Coverage,
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
            CheckName::Adversaries => "adversaries",
            CheckName::Bounds => "bounds",
            CheckName::Coverage => "game coverage",
        }
    }
}

/// One check and its outcome.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub name: CheckName,
    pub ok: bool,
    pub detail: String,
    /// The input the solution and the brute force disagree on, shrunk
    /// (the cross-check's, when it fails).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counterexample: Option<Counterexample>,
}

/// A shrunk input on which `solution.rs` and `brute.rs` disagree, with
/// what each says.
#[derive(Debug, Clone, Serialize)]
pub struct Counterexample {
    pub input: String,
    pub solution: String,
    pub brute: String,
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
    /// Every built-in adversary's run.
    pub adversaries: Vec<AdversaryRun>,
    /// Each declared bound of the validator, and whether tests reach it.
    pub bounds: Vec<BoundReach>,
    /// Per group, winning and losing positions (game problems).
    pub coverage: Vec<GroupCoverage>,
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
    let (mut adversaries, mut bounds, mut coverage) = (Vec::new(), Vec::new(), Vec::new());
    let notes = match Notes::read(&problem.dir) {
        Ok(n) => n,
        Err(e) => {
            checks.push(Check {
                name: CheckName::Tests,
                ok: false,
                detail: e,
                counterexample: None,
            });
            Notes::default()
        }
    };
    progress("generating tests");
    let set = match data.mend(problem, &|_| {}) {
        Ok(set) if given_answers(problem) => {
            checks.push(kattis_tests_check(problem, &set));
            Some(set)
        }
        Ok(set) => {
            checks.push(Check {
                name: CheckName::Tests,
                counterexample: None,
                ok: problem.has(Role::Validator),
                detail: if problem.has(Role::Validator) {
                    format!(
                        "{}, every input valid and answered",
                        count(set.index.tests.len(), "test", "tests")
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
                counterexample: None,
                ok: false,
                detail: e.to_string(),
            });
            None
        }
    };
    if let Some(set) = set {
        progress("cross-checking with the brute force");
        let (check, stress_answers) = cross_check(data, judge, problem, &set, options)?;
        checks.push(check);
        let sole = sole_answer(&set, &notes, &stress_answers)?;
        progress("judging example submissions");
        let set = Arc::new(set);
        let Judged {
            submissions: subs,
            margin,
            time_limit,
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
            counterexample: None,
            ok: !submissions.is_empty() && submissions.iter().all(|s| s.ok),
            detail,
        });
        checks.extend(time_limit);
        checks.push(margin);
        if given_answers(problem) {
            checks.push(Check {
                name: CheckName::AnswerBalance,
                counterexample: None,
                ok: true,
                detail: "every answer is given (a Kattis package's): not applicable".into(),
            });
        } else {
            checks.push(answer_balance(&set)?);
        }
        progress("running the adversaries");
        let (check, runs) = adversaries::check_adversaries(
            judge,
            &data.languages,
            source_limit_kib,
            problem,
            &set,
            &notes,
            sole.as_deref(),
        )?;
        checks.push(check);
        adversaries = runs;
        progress("measuring the bounds reached");
        let (check, reached) = bounds::check_bounds(data, problem, &set, &notes)?;
        checks.push(check);
        bounds = reached;
        progress("measuring game coverage");
        let (check, groups) = coverage::game_coverage(data, problem, &set, &notes)?;
        checks.push(check);
        coverage = groups;
    }
    let verified = checks.iter().all(|c| c.ok);
    Ok(ProblemReport {
        problem: problem.slug.clone(),
        verified,
        checks,
        submissions,
        adversaries,
        bounds,
        coverage,
    })
}

/// The one answer of a package whose tests all have the same answer (as
/// `same_text` compares them), where nothing shows that another exists: no
/// `[game]` in `verify.toml` naming two answers, no other answer from the
/// solution on the stress plan's inputs. Such a package (a "hello world")
/// has a program that prints that answer for its solution, so an adversary
/// that prints it cannot be told apart from one and fails nothing.
fn sole_answer(
    set: &TestSet,
    notes: &Notes,
    stress_answers: &[String],
) -> Result<Option<String>, Error> {
    if notes.game.is_some() {
        return Ok(None);
    }
    let mut sole: Option<String> = None;
    for test in &set.index.tests {
        let text = same_text(&read(&set.answer(test))?);
        match &sole {
            Some(s) if *s != text => return Ok(None),
            Some(_) => {}
            None => sole = Some(text),
        }
    }
    Ok(sole.filter(|s| stress_answers.iter().all(|a| a == s)))
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
        "{}, every input accepted by {}",
        count(set.index.tests.len(), "test", "tests"),
        count(validators, "input validator", "input validators")
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
        counterexample: None,
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
        match judged {
            1 => "1 submission, which got its expected verdict".to_string(),
            n => format!("{n} submissions, each got its expected verdict"),
        }
    } else {
        bad.join("; ")
    };
    if !skipped.is_empty() {
        detail.push_str(&format!(
            "; skipped (a language grundy or this machine lacks): {}",
            skipped.join(", ")
        ));
    }
    detail
}

/// Where every answer is one of a few lines (words), the share of each.
/// One answer everywhere fails it too: a package with a reference solver
/// whose tests all say one thing misses the others (a package that gives
/// its answers, as Kattis's do, is not measured).
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
                counterexample: None,
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
        counterexample: None,
        ok,
        detail,
    })
}

fn display_path(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .map(PathBuf::from)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// The report in `grundy verify`'s words: a line per check (`ok` or
/// `FAIL`, continued where its detail has several), then a line per
/// example submission. The admin pages show an upload's report this way.
///
/// # Errors
/// Failures to write to `out`.
pub fn write_human(out: &mut dyn std::io::Write, r: &ProblemReport) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {}",
        r.problem,
        if r.verified {
            "verified"
        } else {
            "NOT VERIFIED"
        }
    )?;
    for c in &r.checks {
        let mut lines = c.detail.lines();
        writeln!(
            out,
            "  {:<4} {:<15} {}",
            if c.ok { "ok" } else { "FAIL" },
            c.name.as_str(),
            lines.next().unwrap_or("")
        )?;
        for line in lines {
            writeln!(out, "  {:<4} {:<15} {line}", "", "")?;
        }
    }
    for s in &r.submissions {
        let verdicts: Vec<&str> = s.test_verdicts.iter().map(|v| v.as_str()).collect();
        writeln!(
            out,
            "       {:<4} {:<48} {:<20} {:<4} {:>5} ms  [{}]",
            if s.skipped {
                "skip"
            } else if s.ok {
                "ok"
            } else {
                "FAIL"
            },
            s.path,
            s.expected.dir_name(),
            s.verdict.as_str(),
            s.time_ms,
            verdicts.join(" ")
        )?;
    }
    Ok(())
}
