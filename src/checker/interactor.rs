//! Interactors: a problem's program that talks with the submission while
//! both run, each in its own box, joined by two pipes (the submission's
//! stdout is the interactor's stdin and the other way round). Its protocol
//! is one of two, unchanged:
//!
//! * **testlib**: `interactor <input> <output-for-checker>`; exit 0
//!   accepted, 1 wrong answer, 2 presentation error, 3 its own failure;
//!   its comment (stderr) is the message. What it writes to
//!   `<output-for-checker>` goes to the problem's checker, where it has one.
//! * **kattis**: `interactor <input> <answer> <feedback_dir>`; exit 42
//!   accepted, 43 wrong answer; `judgemessage.txt` is the message.
//!
//! This module builds the interactor's run and reads its verdict; the
//! judge runs the two together and decides between them.

use std::os::fd::OwnedFd;
use std::path::Path;

use super::special::{self, Judged, Protocol, SpecialJudge};
use crate::sandbox::{Bind, RunSpec, Stdio};

/// The interactor's files for one test, in a scratch directory of the
/// judge's.
#[derive(Debug, Clone, Copy)]
pub struct Files<'a> {
    pub input: &'a Path,
    pub answer: &'a Path,
    /// A scratch directory the interactor may write (its comment, the
    /// output for the checker, Kattis's feedback directory).
    pub work: &'a Path,
}

impl<'a> Files<'a> {
    /// Where a testlib interactor writes the output for the checker.
    pub fn for_checker(&self) -> std::path::PathBuf {
        self.work.join("tout")
    }

    fn comment(&self) -> std::path::PathBuf {
        self.work.join("comment")
    }

    fn feedback(&self) -> std::path::PathBuf {
        feedback_dir(self.work)
    }
}

/// A Kattis interactor's feedback directory in its scratch directory
/// `work` (kept over the passes of a multi-pass test, which share `work`).
pub fn feedback_dir(work: &Path) -> std::path::PathBuf {
    work.join("feedback")
}

/// The interactor's run on one test: `from_submission` is its stdin,
/// `to_submission` its stdout.
///
/// # Errors
/// When the feedback directory cannot be made.
pub fn spec(
    interactor: &SpecialJudge,
    files: Files<'_>,
    from_submission: OwnedFd,
    to_submission: OwnedFd,
) -> std::io::Result<RunSpec> {
    let path = |p: &Path| p.display().to_string();
    let spec = RunSpec::new(&interactor.program, files.work, interactor.limits)
        .args(interactor.args.iter().cloned())
        .envs(interactor.env.iter().cloned())
        .binds(interactor.binds.iter().cloned())
        .bind(Bind::writable(files.work))
        .bind(Bind::read_only(files.input))
        .bind(Bind::read_only(files.answer))
        .stdin(Stdio::fd(from_submission))
        .stdout(Stdio::fd(to_submission))
        .stderr(Stdio::file(files.comment()));
    let spec = match interactor.protocol {
        Protocol::Testlib => spec.args([path(files.input), path(&files.for_checker())]),
        Protocol::Kattis => {
            std::fs::create_dir_all(files.feedback())?;
            spec.bind(Bind::writable(files.feedback())).args([
                path(files.input),
                path(files.answer),
                format!("{}/", files.feedback().display()),
            ])
        }
    };
    Ok(spec.args(interactor.flags.iter().cloned()))
}

/// What the interactor said, from its exit status and its files.
pub fn verdict(protocol: Protocol, code: i32, files: Files<'_>) -> Judged {
    let comment = special::read_text(&files.comment());
    match protocol {
        Protocol::Testlib => special::testlib(code, comment),
        Protocol::Kattis => {
            special::kattis(code, special::Feedback::read(&files.feedback()), comment)
        }
    }
}
