//! Special judges: a problem's own checker program, run in the sandbox
//! under its own limits, speaking one of two protocols unchanged:
//!
//! * **testlib**: `checker <input> <output> <answer>`; exit 0 accepted,
//!   1 wrong answer, 2 presentation error, 3 the checker's own failure,
//!   7 partial (testlib's `quitp`, with `points X` in its comment); the
//!   comment (testlib writes it on stderr) is the test's message.
//! * **kattis** (output validators): `validator <input> <answer>
//!   <feedback_dir>` with the output on stdin; exit 42 accepted, 43 wrong
//!   answer; `judgemessage.txt` in the feedback directory is the message.
//!
//! A checker that crashes, runs out of time, or exits with any other
//! status has failed, not the submission: [`Judged::Failed`] names why,
//! and the judge records `IE` for that test. This module is handed a
//! [`Runner`] and a compiled program; it never starts a process itself
//! and knows nothing of languages.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{CheckResult, Decision};
use crate::sandbox::{self, Bind, Limits, RunSpec, Runner, Stdio, Termination};

/// How a checker program is called and how it answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
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
        let work = tempfile::Builder::new()
            .prefix("grundy-check-")
            .tempdir()
            .map_err(|source| sandbox::Error::Io {
                path: std::env::temp_dir(),
                source,
            })?;
        let dir = work.path();
        let comment = dir.join("comment");
        let feedback = dir.join("feedback");
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
                std::fs::create_dir(&feedback).map_err(|source| sandbox::Error::Io {
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
            Protocol::Kattis => kattis(code, read_text(&feedback.join("judgemessage.txt")), said),
        })
    }
}

/// A Kattis validator's exit status, its judge message and its other
/// output.
pub(super) fn kattis(code: i32, message: String, said: String) -> Judged {
    match code {
        42 => Judged::Judged(CheckResult {
            decision: Decision::Accepted,
            message,
        }),
        43 => Judged::Judged(CheckResult::wrong(message)),
        _ => Judged::Failed(format!(
            "the validator exited with {code} (42 accepts, 43 rejects){}",
            suffix(&if message.is_empty() { said } else { message })
        )),
    }
}

/// A testlib checker's exit status and comment.
pub(super) fn testlib(code: i32, comment: String) -> Judged {
    let judged = |decision| {
        Judged::Judged(CheckResult {
            decision,
            message: comment.clone(),
        })
    };
    match code {
        0 => judged(Decision::Accepted),
        1 => judged(Decision::WrongAnswer),
        2 => judged(Decision::PresentationError),
        3 => Judged::Failed(format!(
            "the checker reported its own failure{}",
            suffix(&comment)
        )),
        // Partial credit: only full points pass until scores per test exist.
        7 => match points(&comment) {
            Some(p) if p >= 1.0 => judged(Decision::Accepted),
            Some(_) => judged(Decision::WrongAnswer),
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

/// The number after `points` in a testlib comment.
fn points(comment: &str) -> Option<f64> {
    let mut words = comment.split_whitespace();
    words.find(|w| *w == "points")?;
    words.next()?.parse().ok()
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
