//! Special judges: a problem's own checker program, run in the sandbox
//! under its own limits, speaking one of two protocols unchanged:
//!
//! * **testlib**: `checker <input> <output> <answer>`; exit 0 accepted,
//!   1 wrong answer, 2 presentation error, 3 the checker's own failure,
//!   7 partial (testlib's `quitp`: its comment begins `points X`, read as
//!   the share of the test's group points, from 0 to 1; `X` = 1 is
//!   accepted, less is a wrong answer with that score); the comment
//!   (testlib writes it on stderr) is the test's message.
//! * **kattis** (output validators): `validator <input> <answer>
//!   <feedback_dir>` with the output on stdin; exit 42 accepted, 43 wrong
//!   answer; `judgemessage.txt` in the feedback directory is the message.
//!   On 42, `score_multiplier.txt` (a share from 0 to 1) or `score.txt`
//!   (points out of the test's group points) is the test's score.
//!
//! A checker that crashes, runs out of time, or exits with any other
//! status has failed, not the submission: [`Judged::Failed`] names why,
//! and the judge records `IE` for that test. This module is handed a
//! [`Runner`] and a compiled program; it never starts a process itself
//! and knows nothing of languages.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{CheckResult, Decision, Partial};
use crate::sandbox::{self, Bind, Limits, RunSpec, Runner, Stdio, Termination};

/// How a checker program is called and how it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    Testlib,
    Kattis,
}

/// A compiled checker program, ready to run.
#[derive(Debug, Clone)]
pub struct SpecialJudge {
    pub program: PathBuf,
    pub args: Vec<String>,
    pub env: Vec<(String, String)>,
    /// What its box must see (its directory, its toolchain).
    pub binds: Vec<Bind>,
    pub limits: Limits,
    pub protocol: Protocol,
    /// Arguments after the protocol's own (Kattis's validator flags of the
    /// test at hand).
    pub flags: Vec<String>,
}

impl SpecialJudge {
    /// The same program with these flags after its protocol's arguments.
    pub fn with_flags(&self, flags: &[String]) -> SpecialJudge {
        SpecialJudge {
            flags: flags.to_vec(),
            ..self.clone()
        }
    }
}

/// The files of one test as the checker sees them.
#[derive(Debug, Clone, Copy)]
pub struct Files<'a> {
    pub input: &'a Path,
    pub output: &'a Path,
    pub answer: &'a Path,
}

/// What a special judge said.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// It judged the output.
    Judged(CheckResult),
    /// It failed to judge (crashed, timed out, exited with an unknown
    /// status, or reported its own failure): why, for the problem's owner.
    Failed(String),
}

/// How much of a checker's comment is kept.
const MESSAGE_BYTES: usize = 4096;

impl SpecialJudge {
    /// Runs the checker on one test.
    ///
    /// # Errors
    /// Only when the sandbox itself fails, or a scratch directory cannot be
    /// made.
    pub fn check(&self, runner: &dyn Runner, files: Files<'_>) -> Result<Judged, sandbox::Error> {
        self.check_in(runner, files, None)
    }

    /// [`SpecialJudge::check`] with the Kattis feedback directory the
    /// judge keeps (a multi-pass test keeps one over its passes, and reads
    /// `nextpass.in` from it); `None`: a fresh one.
    ///
    /// # Errors
    /// As [`SpecialJudge::check`].
    pub fn check_in(
        &self,
        runner: &dyn Runner,
        files: Files<'_>,
        kept: Option<&Path>,
    ) -> Result<Judged, sandbox::Error> {
        let work = sandbox::Workdir::new("grundy-check-").map_err(|source| sandbox::Error::Io {
            path: std::env::temp_dir(),
            source,
        })?;
        let dir = work.path();
        let comment = dir.join("comment");
        let feedback = kept.map_or_else(|| dir.join("feedback"), Path::to_path_buf);
        let path = |p: &Path| p.display().to_string();
        let mut spec = RunSpec::new(&self.program, dir, self.limits)
            .args(self.args.iter().cloned())
            .envs(self.env.iter().cloned())
            .binds(self.binds.iter().cloned())
            .bind(Bind::writable(dir))
            .bind(Bind::read_only(files.input))
            .bind(Bind::read_only(files.answer))
            .stderr(Stdio::file(&comment));
        spec = match self.protocol {
            Protocol::Testlib => spec
                .bind(Bind::read_only(files.output))
                .args([path(files.input), path(files.output), path(files.answer)])
                .stdout(Stdio::file(dir.join("stdout"))),
            Protocol::Kattis => {
                std::fs::create_dir_all(&feedback).map_err(|source| sandbox::Error::Io {
                    path: feedback.clone(),
                    source,
                })?;
                // Its own writable bind: the box user is given it.
                spec.bind(Bind::writable(&feedback))
                    .args([
                        path(files.input),
                        path(files.answer),
                        format!("{}/", feedback.display()),
                    ])
                    .stdin(Stdio::file(files.output))
                    .stdout(Stdio::file(&comment))
            }
        };
        let spec = spec.args(self.flags.iter().cloned());
        let outcome = runner.run(&spec)?;
        let said = read_text(&comment);
        let code = match outcome.termination {
            Termination::Exited(code) => code,
            other => {
                return Ok(Judged::Failed(format!(
                    "the checker did not finish: {other:?}{}",
                    suffix(&said)
                )))
            }
        };
        Ok(match self.protocol {
            Protocol::Testlib => testlib(code, said),
            Protocol::Kattis => kattis(code, Feedback::read(&feedback), said),
        })
    }
}

/// What a Kattis validator left in its feedback directory.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct Feedback {
    /// `judgemessage.txt`.
    pub message: String,
    /// `score.txt`, if written.
    pub score: Option<String>,
    /// `score_multiplier.txt`, if written.
    pub multiplier: Option<String>,
}

impl Feedback {
    pub(super) fn read(dir: &Path) -> Feedback {
        let opt = |name: &str| {
            let path = dir.join(name);
            path.exists().then(|| read_text(&path))
        };
        Feedback {
            message: read_text(&dir.join("judgemessage.txt")),
            score: opt("score.txt"),
            multiplier: opt("score_multiplier.txt"),
        }
    }
}

/// A Kattis validator's exit status, its feedback and its other output.
pub(super) fn kattis(code: i32, feedback: Feedback, said: String) -> Judged {
    let message = feedback.message;
    match code {
        42 => {
            let number = |name: &str, text: &str| match text.parse::<f64>() {
                Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
                _ => Err(format!(
                    "the validator wrote {name} {text:?}, not a number >= 0"
                )),
            };
            let score = match (&feedback.multiplier, &feedback.score) {
                (Some(m), _) => match number("score_multiplier.txt", m) {
                    Ok(x) if x <= 1.0 => Some(Partial::Fraction(x)),
                    Ok(x) => {
                        return Judged::Failed(format!(
                            "the validator wrote score_multiplier.txt {x}, above 1"
                        ))
                    }
                    Err(why) => return Judged::Failed(why),
                },
                (None, Some(s)) => match number("score.txt", s) {
                    Ok(x) => Some(Partial::Points(x)),
                    Err(why) => return Judged::Failed(why),
                },
                (None, None) => None,
            };
            Judged::Judged(CheckResult {
                decision: Decision::Accepted,
                message,
                score,
            })
        }
        43 => Judged::Judged(CheckResult::wrong(message)),
        _ => Judged::Failed(format!(
            "the validator exited with {code} (42 accepts, 43 rejects){}",
            suffix(&if message.is_empty() { said } else { message })
        )),
    }
}

/// A testlib checker's exit status and comment.
pub(super) fn testlib(code: i32, comment: String) -> Judged {
    let judged = |decision, score| {
        Judged::Judged(CheckResult {
            decision,
            message: comment.clone(),
            score,
        })
    };
    match code {
        0 => judged(Decision::Accepted, None),
        1 => judged(Decision::WrongAnswer, None),
        2 => judged(Decision::PresentationError, None),
        3 => Judged::Failed(format!(
            "the checker reported its own failure{}",
            suffix(&comment)
        )),
        // Partial credit: a share of the test's group points. Only full
        // points are accepted; less is a wrong answer that still scores.
        7 => match points(&comment) {
            Some(p) if p > 1.0 + POINTS_EPSILON => Judged::Failed(format!(
                "the checker gave points {p}: grundy reads testlib points as a share of the \
                 test's group points, from 0 to 1{}",
                suffix(&comment)
            )),
            Some(p) if p >= 1.0 - POINTS_EPSILON => {
                judged(Decision::Accepted, Some(Partial::Fraction(1.0)))
            }
            Some(p) => judged(Decision::WrongAnswer, Some(Partial::Fraction(p.max(0.0)))),
            None => Judged::Failed(format!(
                "the checker gave partial credit without `points X`{}",
                suffix(&comment)
            )),
        },
        _ => Judged::Failed(format!(
            "the checker exited with {code} (testlib uses 0, 1, 2, 3 and 7){}",
            suffix(&comment)
        )),
    }
}

/// testlib prints points with ten decimals at most.
const POINTS_EPSILON: f64 = 1e-9;

/// The number after `points` in a testlib comment (testlib writes
/// `points X message`).
fn points(comment: &str) -> Option<f64> {
    let mut words = comment.split_whitespace();
    words.find(|w| *w == "points")?;
    words.next()?.parse().ok().filter(|p: &f64| p.is_finite())
}

fn suffix(said: &str) -> String {
    if said.is_empty() {
        String::new()
    } else {
        format!(": {said}")
    }
}

/// A checker's message: bounded, lossy UTF-8, whitespace runs kept to one
/// line's worth.
pub(super) fn read_text(path: &Path) -> String {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(MESSAGE_BYTES as u64).read_to_end(&mut buf);
    }
    String::from_utf8_lossy(&buf).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn testlib_exit_statuses() {
        let decision = |code, comment: &str| match testlib(code, comment.into()) {
            Judged::Judged(r) => Some(r.decision),
            Judged::Failed(_) => None,
        };
        assert_eq!(decision(0, "ok 5 numbers"), Some(Decision::Accepted));
        assert_eq!(decision(1, "wrong answer"), Some(Decision::WrongAnswer));
        assert_eq!(
            decision(2, "wrong output format"),
            Some(Decision::PresentationError)
        );
        assert_eq!(decision(3, "fail"), None, "the checker's own failure");
        assert_eq!(decision(4, ""), None, "unknown status");
        assert_eq!(decision(-1, ""), None);
        assert_eq!(decision(7, "points 1 ok"), Some(Decision::Accepted));
        assert_eq!(decision(7, "points 0.5 half"), Some(Decision::WrongAnswer));
        assert_eq!(decision(7, "half"), None, "partial without points");
        assert_eq!(decision(7, "points 5 of 10"), None, "points are a share");
    }

    #[test]
    fn testlib_points_are_the_share_of_the_group() {
        let score = |comment: &str| match testlib(7, comment.into()) {
            Judged::Judged(r) => r.score,
            Judged::Failed(_) => None,
        };
        assert_eq!(
            score("points 0.25 a quarter"),
            Some(Partial::Fraction(0.25))
        );
        assert_eq!(score("points 1"), Some(Partial::Fraction(1.0)));
        assert_eq!(score("points 0"), Some(Partial::Fraction(0.0)));
    }

    #[test]
    fn kattis_scores_come_from_the_feedback_directory() {
        let judge = |code, score: Option<&str>, multiplier: Option<&str>| {
            let feedback = Feedback {
                message: String::new(),
                score: score.map(str::to_string),
                multiplier: multiplier.map(str::to_string),
            };
            kattis(code, feedback, String::new())
        };
        let score_of = |j: Judged| match j {
            Judged::Judged(r) => Ok(r.score),
            Judged::Failed(why) => Err(why),
        };
        assert_eq!(score_of(judge(42, None, None)), Ok(None));
        assert_eq!(
            score_of(judge(42, None, Some("0.5"))),
            Ok(Some(Partial::Fraction(0.5)))
        );
        assert_eq!(
            score_of(judge(42, Some("12"), None)),
            Ok(Some(Partial::Points(12.0)))
        );
        assert_eq!(score_of(judge(43, Some("12"), None)), Ok(None));
        assert!(score_of(judge(42, None, Some("1.5"))).is_err());
        assert!(score_of(judge(42, Some("lots"), None)).is_err());
    }

    #[test]
    fn a_failure_says_why_with_the_comment() {
        let Judged::Failed(why) = testlib(3, "FAIL answer file is empty".into()) else {
            panic!("a failure");
        };
        assert_eq!(
            why,
            "the checker reported its own failure: FAIL answer file is empty"
        );
    }
}
