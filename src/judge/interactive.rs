//! One test of an interactive problem: the submission and the problem's
//! interactor run at the same time, each in its own box under its own
//! limits, joined by two pipes. Neither can deadlock the judge: a
//! submission that never flushes or stops reading is stopped by its wall
//! clock, which closes its pipes, so the interactor sees the end; an
//! interactor that hangs is stopped by its own limits.
//!
//! Who decides, in order: an interactor that did not finish by itself is
//! the judge's fault (IE); then the submission's own limits (TLE, MLE,
//! OLE); then the interactor's verdict (WA, PE); then the submission's
//! exit status (RE); then the problem's checker, on what a testlib
//! interactor wrote for it; otherwise AC.
//!
//! A Kattis validator (the `kattis` protocol) decides in problemtools'
//! order instead, which depends on which program ended first: its
//! interactions always pass through the relays, which see each program's
//! output end (see [`kattis_order`]).

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use super::transcript::{self, Side, Transcript};
use super::{program_run_verdict, Checking, Error};
use crate::checker::interactor::{self, Files};
use crate::checker::special::{Judged, Protocol, SpecialJudge};
use crate::checker::{Checker, Decision, Partial};
use crate::lang;
use crate::sandbox::{Outcome, RunSpec, Runner, Stdio, Termination};
use crate::verdict::Verdict;

/// The interactor's scratch directory, under the test's.
const INTERACTOR_DIR: &str = "interactor";

/// The Kattis feedback directory of an interaction in the test's scratch
/// directory `work`.
pub(super) fn feedback_dir(work: &Path) -> std::path::PathBuf {
    interactor::feedback_dir(&work.join(INTERACTOR_DIR))
}

/// A test's verdict, its message and the score its judge gave.
pub(super) type Judgement = (Verdict, String, Option<Partial>);

/// The test's files and the problem's checking.
pub(super) struct Test<'a> {
    pub input: &'a Path,
    pub answer: &'a Path,
    /// A scratch directory of the judge's, removed after the test.
    pub work: &'a Path,
    pub checker: &'a Checker,
    pub checking: &'a Checking,
    /// Keep a transcript (a sample): the two programs are then joined
    /// through two relays of the judge's instead of directly.
    pub record: bool,
}

/// Runs `submission` (its stdin and stdout are set here) with the
/// interactor; returns the submission's outcome and the test's verdict.
pub(super) fn run(
    runner: &dyn Runner,
    interactor: &SpecialJudge,
    program: &lang::Program,
    submission: RunSpec,
    test: Test<'_>,
) -> Result<(Outcome, Judgement, Option<Transcript>), Error> {
    let io = |what: &str| {
        let what = what.to_string();
        move |source| Error::Io { what, source }
    };
    let (from_submission, submission_out) = std::io::pipe().map_err(io("making a pipe"))?;
    let (submission_in, to_submission) = std::io::pipe().map_err(io("making a pipe"))?;
    // With a transcript, each direction passes through a relay: the
    // submission writes to one pipe, the relay copies it to the
    // interactor's, and the other way round.
    // A Kattis validator's verdict depends on which program ended first:
    // the relays see it (each program's end of output), so a Kattis
    // interaction always goes through them.
    let kattis = interactor.protocol == Protocol::Kattis;
    let relays = if test.record || kattis {
        let (a, b) = std::io::pipe().map_err(io("making a pipe"))?;
        let (c, d) = std::io::pipe().map_err(io("making a pipe"))?;
        Some((a, b, c, d))
    } else {
        None
    };
    let (from_submission, submission_out, submission_in, to_submission, relays) = match relays {
        None => (
            from_submission,
            submission_out,
            submission_in,
            to_submission,
            None,
        ),
        // The submission writes `submission_out`, the relay reads
        // `from_submission` and writes `b`, the interactor reads `a`; the
        // interactor writes `d`, the relay reads `c` and writes
        // `to_submission`, the submission reads `submission_in`.
        Some((a, b, c, d)) => (
            a,
            submission_out,
            submission_in,
            d,
            Some(((from_submission, b), (c, to_submission))),
        ),
    };
    // The same directory on every pass of a multi-pass test: the
    // interactor's feedback directory is kept over them.
    let work = test.work.join(INTERACTOR_DIR);
    std::fs::create_dir_all(&work).map_err(io("making the interactor's directory"))?;
    let files = Files {
        input: test.input,
        answer: test.answer,
        work: &work,
    };
    let mut spec = interactor::spec(
        interactor,
        files,
        from_submission.into(),
        to_submission.into(),
    )
    .map_err(io("making the interactor's feedback directory"))?;
    // The interactor outlasts the submission's wall clock: a submission that
    // keeps it waiting is stopped first, and its end closes the pipes.
    spec.limits.wall = spec.limits.wall.max(submission.limits.wall * 2);
    let submission = submission
        .stdin(Stdio::fd(submission_in))
        .stdout(Stdio::fd(submission_out));
    // The specs own every end of the pipes they use: each end closes as
    // soon as its run is over. The relays own the others, and end once the
    // programs are over.
    let recorder = transcript::Recorder::default();
    let stop = AtomicBool::new(false);
    let (outcomes, ends) = std::thread::scope(|scope| {
        let relayed = relays.map(|((sub_r, int_w), (int_r, sub_w))| {
            let (recorder, stop) = (&recorder, &stop);
            (
                scope.spawn(move || {
                    transcript::relay(sub_r, int_w, Side::Submission, recorder, stop)
                }),
                scope.spawn(move || {
                    transcript::relay(int_r, sub_w, Side::Interactor, recorder, stop)
                }),
            )
        });
        let outcomes = runner.run_together(vec![submission, spec]);
        stop.store(true, Ordering::Release);
        let ends = relayed.map(|(s, i)| (s.join().ok().flatten(), i.join().ok().flatten()));
        (outcomes, ends)
    });
    // The interactor was over first when its output ended before the
    // submission's (or the submission's never did: its reader had gone).
    let interactor_first = match ends {
        Some((submission_end, Some(interactor_end))) => {
            submission_end.is_none_or(|s| interactor_end <= s)
        }
        _ => false,
    };
    let transcript = test.record.then(|| recorder.finish());
    let mut outcomes = outcomes.into_iter();
    let (Some(ran), Some(talked)) = (outcomes.next(), outcomes.next()) else {
        unreachable!("run_together returns one outcome per spec");
    };
    let (ran, talked) = (ran.map_err(|e| Error::of_run(e, program))?, talked?);

    let said = match talked.termination {
        Termination::Exited(code) => interactor::verdict(interactor.protocol, code, files),
        Termination::Signaled(libc::SIGPIPE) => Judged::Judged(crate::checker::CheckResult::wrong(
            "the program stopped reading before the interaction was over".into(),
        )),
        other => Judged::Failed(format!("the interactor did not finish: {other:?}")),
    };
    let failed = |(verdict, message): (Verdict, String)| (verdict, message, None);
    if kattis {
        let verdict = kattis_order(said, interactor_first, &ran, program);
        return Ok((ran, verdict, transcript));
    }
    let verdict = match said {
        Judged::Failed(why) => (Verdict::IE, why, None),
        _ if matches!(
            ran.termination,
            Termination::CpuTimeout
                | Termination::WallTimeout
                | Termination::MemoryExceeded
                | Termination::OutputExceeded
        ) =>
        {
            failed(program_run_verdict(&ran, program).unwrap_or((Verdict::IE, String::new())))
        }
        Judged::Judged(r) if r.decision == Decision::WrongAnswer => {
            (Verdict::WA, r.message, r.score)
        }
        Judged::Judged(r) if r.decision == Decision::PresentationError => {
            (Verdict::PE, r.message, None)
        }
        Judged::Judged(r) => match program_run_verdict(&ran, program) {
            Some(failure) => failed(failure),
            None if interactor.protocol == Protocol::Testlib
                && matches!(test.checker, Checker::Program { .. }) =>
            {
                test.checking
                    .check_scored(runner, test.input, test.answer, &files.for_checker())?
            }
            None => (Verdict::AC, r.message, r.score),
        },
    };
    Ok((ran, verdict, transcript))
}

/// A Kattis interaction's verdict, in problemtools' order: a validator
/// that failed (crashed, or exited with neither 42 nor 43) is the judge's
/// error; a validator that ended first with a rejection is `WA`, whatever
/// the submission did after; otherwise the submission's time limit, then
/// its run-time error (any other failed run), then the validator's
/// verdict.
fn kattis_order(
    said: Judged,
    interactor_first: bool,
    ran: &Outcome,
    program: &lang::Program,
) -> Judgement {
    let r = match said {
        Judged::Failed(why) => return (Verdict::IE, why, None),
        Judged::Judged(r) => r,
    };
    let rejected = r.decision != Decision::Accepted;
    if rejected && interactor_first {
        return (Verdict::WA, r.message, r.score);
    }
    if let Some((verdict, message)) = program_run_verdict(ran, program) {
        return (verdict, message, None);
    }
    match r.decision {
        Decision::Accepted => (Verdict::AC, r.message, r.score),
        _ => (Verdict::WA, r.message, r.score),
    }
}
