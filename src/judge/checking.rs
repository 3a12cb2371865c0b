//! A problem's checking, ready to judge one output: a built-in checker,
//! a special judge (compiled), or a description the judge could not use
//! (every check is then `IE`).

use std::path::Path;

use super::Error;
use crate::checker::special::{Files, Judged, SpecialJudge};
use crate::checker::{CheckerKind, Decision, Partial};
use crate::sandbox::Runner;
use crate::verdict::Verdict;

/// A problem's checker, ready to judge outputs.
#[derive(Debug, Clone)]
pub enum Checking {
    Builtin(CheckerKind),
    Special(SpecialJudge),
    /// A checking the package describes wrongly: every check is `IE`.
    Broken(String),
}

impl Checking {
    /// The same checking with a test's Kattis validator flags: a program
    /// gets them as arguments, Kattis's default validation reads them.
    /// Flags it cannot read make every check the judge's failure (`IE`).
    pub fn with_flags(&self, flags: &[String]) -> Checking {
        match self {
            Checking::Special(judge) => Checking::Special(judge.with_flags(flags)),
            Checking::Builtin(CheckerKind::Kattis { .. }) => match CheckerKind::kattis(flags) {
                Ok(kind) => Checking::Builtin(kind),
                Err(why) => Checking::Broken(format!("output_validator_flags: {why}")),
            },
            other => other.clone(),
        }
    }

    /// Checks one output against a test's input and answer: a verdict and
    /// its message. A special judge that fails to judge gives `IE` for the
    /// test, with the reason.
    ///
    /// # Errors
    /// The judge's own failures (unreadable files, the sandbox).
    pub fn check(
        &self,
        runner: &dyn Runner,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<(Verdict, String), Error> {
        self.check_scored(runner, input, answer, output)
            .map(|(verdict, message, _)| (verdict, message))
    }

    /// [`Checking::check`], with the score a special judge gave.
    ///
    /// # Errors
    /// As [`Checking::check`].
    pub fn check_scored(
        &self,
        runner: &dyn Runner,
        input: &Path,
        answer: &Path,
        output: &Path,
    ) -> Result<(Verdict, String, Option<Partial>), Error> {
        self.check_in(runner, input, answer, output, None)
    }

    /// [`Checking::check_scored`], with the Kattis feedback directory the
    /// caller keeps (over the passes of a multi-pass test); `None`: a
    /// fresh one for this check.
    ///
    /// # Errors
    /// As [`Checking::check`].
    pub fn check_in(
        &self,
        runner: &dyn Runner,
        input: &Path,
        answer: &Path,
        output: &Path,
        feedback: Option<&Path>,
    ) -> Result<(Verdict, String, Option<Partial>), Error> {
        let result = match self {
            Checking::Builtin(kind) => {
                let open = |path: &Path| {
                    std::fs::File::open(path)
                        .map(std::io::BufReader::new)
                        .map_err(|source| Error::Io {
                            what: format!("reading {}", path.display()),
                            source,
                        })
                };
                kind.check(open(answer)?, open(output)?)
                    .map_err(|source| Error::Io {
                        what: format!("checking {}", output.display()),
                        source,
                    })?
            }
            Checking::Broken(why) => return Ok((Verdict::IE, why.clone(), None)),
            Checking::Special(judge) => {
                let files = Files {
                    input,
                    output,
                    answer,
                };
                match judge.check_in(runner, files, feedback)? {
                    Judged::Judged(result) => result,
                    Judged::Failed(why) => return Ok((Verdict::IE, why, None)),
                }
            }
        };
        let verdict = match result.decision {
            Decision::Accepted => Verdict::AC,
            Decision::WrongAnswer => Verdict::WA,
            Decision::PresentationError => Verdict::PE,
        };
        Ok((verdict, result.message, result.score))
    }
}
