//! One test's runs: the submission run once and its output checked (or
//! its interaction judged), or, for a Kattis multi-pass problem, pass after
//! pass. There the output validator asks for another pass by accepting
//! (exit 42) and writing `nextpass.in` into its feedback directory; the
//! submission then runs again, anew, on that input, under the same limits,
//! and the validator judges it with the same feedback directory (kept over
//! the passes). The verdicts are problemtools': the first pass that is not
//! accepted decides; a validator that writes `nextpass.in` and does not
//! accept, or asks for more passes than `limits.validation_passes`, is the
//! package's fault (`IE`); a pass accepted without `nextpass.in` ends the
//! test, accepted. The test's time and memory are the largest of its passes.

use std::path::{Path, PathBuf};

use super::interactive::{self, Judgement};
use super::transcript::Transcript;
use super::{program_run_verdict, Checking, Error};
use crate::checker::special::SpecialJudge;
use crate::checker::Checker;
use crate::lang;
use crate::sandbox::{Outcome, RunSpec, Runner, Stdio};
use crate::verdict::Verdict;

/// What one test needs, besides its input.
pub(super) struct Test<'a> {
    pub runner: &'a dyn Runner,
    pub program: &'a lang::Program,
    pub checker: &'a Checker,
    pub checking: &'a Checking,
    pub interactor: Option<&'a SpecialJudge>,
    pub answer: &'a Path,
    /// The judge's scratch directory for this test (outputs, feedback,
    /// the inputs of later passes).
    pub work: &'a Path,
    /// Keep a transcript of an interaction (a sample).
    pub record: bool,
}

/// The submission's outcome (over every pass), the verdict, and the
/// transcript of an interaction.
pub(super) type Ran = (Outcome, Judgement, Option<Transcript>);

/// The name of the file a multi-pass validator writes for the next pass.
pub const NEXT_PASS: &str = "nextpass.in";

/// Runs the test: once, or up to `passes` times for a multi-pass problem.
/// `spec` is the submission's run without its stdin and stdout.
///
/// # Errors
/// The judge's own failures.
pub(super) fn run(
    test: &Test<'_>,
    spec: RunSpec,
    input: &Path,
    passes: Option<u32>,
) -> Result<Ran, Error> {
    let Some(passes) = passes else {
        return once(test, spec, input, None);
    };
    let feedback = match test.interactor {
        Some(_) => interactive::feedback_dir(test.work),
        None => test.work.join("feedback"),
    };
    let next = feedback.join(NEXT_PASS);
    let mut input: PathBuf = input.to_path_buf();
    let mut worst: Option<Outcome> = None;
    for pass in 1..=passes {
        let (outcome, (verdict, message, score), transcript) =
            once(test, spec.clone(), &input, Some(&feedback))?;
        let outcome = slowest(worst.take(), outcome);
        let asked = next.exists();
        let on_pass = |message: String| {
            if pass == 1 || message.is_empty() {
                message
            } else {
                format!("pass {pass}: {message}")
            }
        };
        let judgement = match (verdict, asked) {
            (Verdict::AC, true) if pass < passes => {
                // The next pass's input, out of the validator's reach.
                input = test.work.join(format!("pass-{}.in", pass + 1));
                std::fs::rename(&next, &input).map_err(|source| Error::Io {
                    what: format!("moving {} to {}", next.display(), input.display()),
                    source,
                })?;
                worst = Some(outcome);
                continue;
            }
            (Verdict::AC, true) => (
                Verdict::IE,
                format!(
                    "the output validator asked for pass {} of a test, beyond \
                     limits.validation_passes ({passes})",
                    passes + 1
                ),
                None,
            ),
            (Verdict::AC, false) => (Verdict::AC, message, score),
            (Verdict::IE, _) => (Verdict::IE, on_pass(message), None),
            (_, true) => (
                Verdict::IE,
                on_pass(format!(
                    "the output validator wrote {NEXT_PASS} but did not accept \
                     the pass (it gave {verdict})"
                )),
                None,
            ),
            (verdict, false) => (verdict, on_pass(message), score),
        };
        return Ok((outcome, judgement, transcript));
    }
    unreachable!("validation_passes is at least 2, and every pass returns or continues")
}

/// One run of the submission on `input`, and its verdict.
fn once(
    test: &Test<'_>,
    spec: RunSpec,
    input: &Path,
    feedback: Option<&Path>,
) -> Result<Ran, Error> {
    match test.interactor {
        Some(interactor) => {
            let with = interactive::Test {
                input,
                answer: test.answer,
                work: test.work,
                checker: test.checker,
                checking: test.checking,
                record: test.record,
            };
            interactive::run(test.runner, interactor, test.program, spec, with)
        }
        None => {
            let stdout = test.work.join("stdout");
            let spec = spec.stdin(Stdio::file(input)).stdout(Stdio::file(&stdout));
            let outcome = test
                .runner
                .run(&spec)
                .map_err(|e| Error::of_run(e, test.program))?;
            let judged = match program_run_verdict(&outcome, test.program) {
                Some((verdict, message)) => (verdict, message, None),
                None => {
                    test.checking
                        .check_in(test.runner, input, test.answer, &stdout, feedback)?
                }
            };
            Ok((outcome, judged, None))
        }
    }
}

/// The outcome a test reports over its passes: the last pass's ending,
/// with the largest time and memory of any pass.
fn slowest(before: Option<Outcome>, last: Outcome) -> Outcome {
    match before {
        None => last,
        Some(before) => Outcome {
            cpu_ms: last.cpu_ms.max(before.cpu_ms),
            wall_ms: last.wall_ms.max(before.wall_ms),
            memory_kib: last.memory_kib.max(before.memory_kib),
            ..last
        },
    }
}
