//! The cross-check of `grundy verify`: `brute.rs` must agree with the
//! answers on every test within its reach (it declines the others by
//! exiting 3), and with `solution.rs` on random small inputs from the
//! package's stress plans; a disagreement shows the smallest input found,
//! shrunk further (`shrink.rs`) with the validator checking every step.

use std::path::Path;

use super::shrink::shrink;
use super::{
    display_path, given_answers, Check, CheckName, Counterexample, Error, Options, BRUTE_DECLINES,
};
use crate::data::{self, PackagePrograms, TestData, TestSet};
use crate::judge::{self, Judge};
use crate::plural::count;
use crate::problem::{Problem, Role, TestInput};
use crate::verdict::Verdict;

/// What the solution and the brute force said of one input.
type Outputs = (Vec<u8>, Vec<u8>);

/// A disagreement found by the cross-check.
struct Disagreement {
    what: String,
    input: Vec<u8>,
    expected: Vec<u8>,
    brute: Vec<u8>,
}

/// The cross-check, and up to two distinct answers the solution gave on the
/// stress plan's inputs (as [`same_text`] compares them): where the tests
/// all have one answer, another one here shows the tests miss it.
pub(super) fn cross_check(
    data: &TestData,
    judge: &Judge,
    problem: &Problem,
    set: &TestSet,
    options: Options,
) -> Result<(Check, Vec<String>), Error> {
    let mut stress_answers = Vec::new();
    let check = cross_check_into(data, judge, problem, set, options, &mut stress_answers)?;
    Ok((check, stress_answers))
}

/// An answer's text as the adversaries and the balance compare answers:
/// each line trimmed, blank lines left out.
pub(super) fn same_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

fn cross_check_into(
    data: &TestData,
    judge: &Judge,
    problem: &Problem,
    set: &TestSet,
    options: Options,
    stress_answers: &mut Vec<String>,
) -> Result<Check, Error> {
    let fail = |detail: String| Check {
        name: CheckName::CrossCheck,
        counterexample: None,
        ok: false,
        detail,
    };
    if given_answers(problem) {
        return Ok(Check {
            name: CheckName::CrossCheck,
            counterexample: None,
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
            let text = same_text(&read(&answer)?);
            if stress_answers.len() < 2 && !stress_answers.contains(&text) {
                stress_answers.push(text);
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

    let mut detail = format!(
        "brute force agreed on {} and {}",
        count(plan_compared, "plan test", "plan tests"),
        count(stress_runs, "stress run", "stress runs")
    );
    let mut ok = problems_seen.is_empty();
    if compared == 0 {
        ok = false;
        detail = "the brute force declined every input: nothing was cross-checked".into();
    }
    let mut counterexample = None;
    if let Some(mut d) = worst {
        // Shrink it: every candidate validated and answered by the
        // solution, then judged against the brute force.
        let cand = scratch.path().join("shrink.cand");
        let (cin, cans) = (
            scratch.path().join("shrink.in"),
            scratch.path().join("shrink.ans"),
        );
        let (small, (expected, brute)) = shrink(
            &d.input,
            (d.expected.clone(), d.brute.clone()),
            |bytes| -> Result<Option<Outputs>, Error> {
                std::fs::write(&cand, bytes).map_err(|source| Error::Io {
                    what: format!("writing {}", cand.display()),
                    source,
                })?;
                let origin = TestInput::File(cand.clone());
                if programs
                    .produce(&problem.dir, &origin, &cin, &cans)?
                    .is_err()
                {
                    return Ok(None);
                }
                if !matches!(run_brute(&programs, &cin, &out)?, BruteRun::Answered) {
                    return Ok(None);
                }
                if agree(&cin, &cans, &out)? != Agreement::Disagree {
                    return Ok(None);
                }
                Ok(Some((read(&cans)?, read(&out)?)))
            },
        )?;
        if small.len() < d.input.len() {
            d.what = format!("{}, shrunk from {} bytes", d.what, d.input.len());
        }
        (d.input, d.expected, d.brute) = (small, expected, brute);
        counterexample = Some(Counterexample {
            input: String::from_utf8_lossy(&d.input).into_owned(),
            solution: String::from_utf8_lossy(&d.expected).into_owned(),
            brute: String::from_utf8_lossy(&d.brute).into_owned(),
        });
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
        counterexample,
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

pub(super) fn read(path: &Path) -> Result<Vec<u8>, Error> {
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
