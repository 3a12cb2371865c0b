//! What a run's outcome means before any checker looks at its output: a
//! program that exited non-zero, was killed, or ran past a limit has its
//! verdict here; one that exited 0 goes on to be checked.

use crate::lang;
use crate::sandbox::{Outcome, Termination};
use crate::verdict::Verdict;

/// What a test stopped by the wall clock says (its CPU time stayed under
/// the limit: a program that sleeps or waits).
pub const WALL_CLOCK: &str = "wall-clock time limit exceeded";

/// The verdict of a run that did not end cleanly, or `None` when the
/// output should go to the checker.
pub fn run_verdict(outcome: &Outcome) -> Option<(Verdict, String)> {
    match outcome.termination {
        Termination::Exited(0) => None,
        Termination::Exited(code) => Some((Verdict::RE, format!("exit code {code}"))),
        Termination::Signaled(sig) => {
            Some((Verdict::RE, format!("killed by {}", signal_name(sig))))
        }
        Termination::CpuTimeout => Some((Verdict::TLE, "CPU time limit exceeded".into())),
        Termination::WallTimeout => Some((Verdict::TLE, WALL_CLOCK.into())),
        Termination::MemoryExceeded => Some((Verdict::MLE, "memory limit exceeded".into())),
        Termination::OutputExceeded => Some((Verdict::OLE, "output limit exceeded".into())),
    }
}

/// [`run_verdict`] for a run of `program`, whose language may report its
/// own memory exhaustion by an exit status (a runtime that would otherwise
/// let the program catch it).
pub fn program_run_verdict(
    outcome: &Outcome,
    program: &lang::Program,
) -> Option<(Verdict, String)> {
    match outcome.termination {
        Termination::Exited(code) if Some(code) == program.memory_exit_code => Some((
            Verdict::MLE,
            "memory limit exceeded (the runtime ran out of memory)".into(),
        )),
        _ => run_verdict(outcome),
    }
}

fn signal_name(sig: i32) -> String {
    let name = match sig {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSYS => "SIGSYS",
        libc::SIGTRAP => "SIGTRAP",
        _ => return format!("signal {sig}"),
    };
    format!("{name} (signal {sig})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::Measurement;

    fn outcome(termination: Termination) -> Outcome {
        Outcome {
            termination,
            cpu_ms: 1,
            wall_ms: 1,
            memory_kib: 1,
            measured_by: Measurement::Rusage,
        }
    }

    #[test]
    fn outcome_maps_to_verdict() {
        let table = [
            (Termination::Exited(0), None),
            (Termination::Exited(1), Some(Verdict::RE)),
            (Termination::Signaled(libc::SIGSEGV), Some(Verdict::RE)),
            (Termination::CpuTimeout, Some(Verdict::TLE)),
            (Termination::WallTimeout, Some(Verdict::TLE)),
            (Termination::MemoryExceeded, Some(Verdict::MLE)),
            (Termination::OutputExceeded, Some(Verdict::OLE)),
        ];
        for (t, want) in table {
            assert_eq!(run_verdict(&outcome(t)).map(|(v, _)| v), want, "{t:?}");
        }
    }

    #[test]
    fn signal_message_names_the_signal() {
        let (_, msg) = run_verdict(&outcome(Termination::Signaled(libc::SIGSEGV))).unwrap();
        assert_eq!(msg, "killed by SIGSEGV (signal 11)");
    }
}
