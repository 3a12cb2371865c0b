//! Why a compilation failed, and whose fault it was. A compile is
//! untrusted code (Template Haskell, a preprocessor the source names): a
//! compiler killed by a signal, stopped by a limit or out of its wall
//! clock is the source's doing, a compilation error (`CE`) with the reason
//! shown. Where the machine could have done it instead (a signal, a wall
//! clock run out with CPU time to spare, a full disk), a trivial compile
//! in the same language under the same limits decides: only when it fails
//! too (or the judge's disk is full) is the fault the machine's (tried
//! again, and `IE` if it persists).

use std::path::{Path, PathBuf};

use super::{read_bounded, Compiled, Error, ProgramCache};
use crate::config::CompileLimits;
use crate::sandbox;

/// A compilation that did not succeed, and what is known of it.
pub(super) struct Failure<'a> {
    pub(super) outcome: &'a sandbox::Outcome,
    /// The compiler's messages.
    pub(super) log: &'a Path,
    /// The compilation's directory on the host's disk.
    pub(super) work: &'a Path,
}

/// What a failed compilation comes to before any control: settled, or
/// the source's only if a trivial compile shows the machine sound.
pub(super) enum Settled {
    Compiled(Compiled),
    Unsure(Unsure),
}

/// A failure the source or the machine may have caused.
pub(super) struct Unsure {
    /// The compiler's messages, with the reason added.
    message: String,
    /// Why, in the contestant's words ("compilation used more than 20 s").
    why: String,
    /// Where the compile wrote, for the judge's own free space.
    scratch: PathBuf,
    kind: Doubt,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Doubt {
    /// Killed by a signal: the source's if a trivial compile ends by
    /// itself.
    Signal,
    /// Out of wall-clock time with CPU to spare, having had this share of
    /// a CPU: the source's (it slept, or waited on something it made) if a
    /// trivial compile got at least twice that share, the machine's (too
    /// busy to run it) if not.
    Wall { share: f64 },
    /// Out of disk space: the source's unless the judge's disk is full
    /// once the compile's own files are gone.
    Disk,
}

/// How a trivial compile in the same language went: whether it ended by
/// itself (any status: only the machine is tested, not the compiler's
/// opinion of an empty source), and its share of a CPU.
#[derive(Debug, Clone, Copy)]
pub(super) struct Control {
    pub(super) ended: Option<&'static str>,
    pub(super) share: f64,
}

impl Control {
    /// A control with nothing against the machine.
    pub(super) fn fine() -> Control {
        Control {
            ended: None,
            share: 1.0,
        }
    }

    pub(super) fn of(outcome: &sandbox::Outcome) -> Control {
        use sandbox::Termination::*;
        let ended = match outcome.termination {
            Exited(_) => None,
            Signaled(_) => Some("killed by a signal"),
            CpuTimeout => Some("out of CPU time"),
            WallTimeout => Some("out of wall-clock time"),
            MemoryExceeded => Some("out of memory"),
            OutputExceeded => Some("over the output limit"),
        };
        Control {
            ended,
            share: share(outcome),
        }
    }
}

/// The share of one CPU a run had: CPU time over wall-clock time, both
/// counted from 10 ms, so a run too short to measure (an empty shell
/// script) counts as one the machine ran at once, not as one it starved.
fn share(outcome: &sandbox::Outcome) -> f64 {
    (outcome.cpu_ms + 10) as f64 / (outcome.wall_ms + 10) as f64
}

impl Failure<'_> {
    /// The failure as [`Compiled::Failed`] (`CE`) when the source caused
    /// it (the compiler's own error, a limit met), or [`Settled::Unsure`]
    /// when the machine may have. Only the compiler's own verdict on the
    /// source is cached under `key`: a limit met may depend on the load.
    pub(super) fn verdict(
        &self,
        limits: &CompileLimits,
        cache: &ProgramCache,
        key: &str,
    ) -> Result<Settled, Error> {
        let mut message = read_bounded(self.log, (limits.output_limit as usize) << 10);
        let (why, kind) = match self.cause(&message, limits) {
            Cause::Source(None) => {
                cache.store_failure(key, &message)?;
                return Ok(Settled::Compiled(Compiled::Failed(message)));
            }
            Cause::Source(Some(why)) => (why, None),
            Cause::Unsure(why, kind) => (why, Some(kind)),
        };
        if !message.is_empty() && !message.ends_with('\n') {
            message.push('\n');
        }
        message.push_str(&why);
        Ok(match kind {
            None => Settled::Compiled(Compiled::Failed(message)),
            Some(kind) => Settled::Unsure(Unsure {
                message,
                why,
                scratch: self.work.parent().unwrap_or(self.work).to_path_buf(),
                kind,
            }),
        })
    }

    fn cause(&self, log: &str, limits: &CompileLimits) -> Cause {
        use sandbox::Termination::*;
        let limit_cpu_ms = (limits.cpu_limit * 1000.0) as u64;
        match self.outcome.termination {
            CpuTimeout => Cause::Source(Some(format!(
                "compilation used more than {} s of CPU time",
                limits.cpu_limit
            ))),
            // Busy the whole time: a template bomb.
            WallTimeout if self.outcome.cpu_ms >= limit_cpu_ms * 9 / 10 => Cause::Source(Some(
                format!("compilation used more than {} s", limits.time_limit),
            )),
            WallTimeout => Cause::Unsure(
                format!(
                    "compilation used more than {} s (with {} ms of CPU time)",
                    limits.time_limit, self.outcome.cpu_ms
                ),
                Doubt::Wall {
                    share: share(self.outcome),
                },
            ),
            MemoryExceeded => Cause::Source(Some(format!(
                "compilation used more than {} MiB of memory",
                limits.memory_limit
            ))),
            OutputExceeded => Cause::Source(Some(format!(
                "compilation wrote a file larger than {} MiB",
                limits.program_limit
            ))),
            Signaled(sig) => Cause::Unsure(
                format!(
                    "the compiler was killed by signal {sig} ({})",
                    signal_name(sig)
                ),
                Doubt::Signal,
            ),
            Exited(_) if log.contains("No space left on device") => Cause::Unsure(
                format!(
                    "compilation ran out of its working space ({} MiB)",
                    limits.space_limit
                ),
                Doubt::Disk,
            ),
            Exited(_) => Cause::Source(None),
        }
    }
}

impl Unsure {
    /// The source's [`Compiled::Failed`], or [`Error::Machine`] when
    /// `control` (a trivial compile in the same language, run after the
    /// failed compile's files were removed) shows the machine at fault.
    pub(super) fn settle(self, language: &str, control: Control) -> Result<Compiled, Error> {
        let machine = |how: String| {
            Err(Error::Machine {
                language: language.to_string(),
                why: format!("{}; {how}", self.why),
            })
        };
        if let Some(how) = control.ended {
            return machine(format!(
                "a trivial compile in {language} failed too ({how})"
            ));
        }
        match self.kind {
            Doubt::Wall { share } if control.share < share * 2.0 => machine(format!(
                "a trivial compile in {language} had {:.0}% of a CPU, the compile {:.0}%: the machine is too busy",
                control.share * 100.0,
                share * 100.0
            )),
            Doubt::Disk if host_space_left(&self.scratch) < HOST_SPACE_FLOOR => {
                machine("the judge's disk is full".to_string())
            }
            _ => Ok(Compiled::Failed(self.message)),
        }
    }
}

/// Who failed a compilation: the source (with the reason to add to the
/// compiler's messages, where it is not the compiler's own verdict), or
/// either of them, as a trivial compile will tell.
enum Cause {
    Source(Option<String>),
    Unsure(String, Doubt),
}

/// A signal's name, for the contestant.
fn signal_name(sig: i32) -> &'static str {
    match sig {
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSYS => "SIGSYS",
        _ => "a signal",
    }
}

/// Below this much free space on the judge's disk, a compiler's "No space
/// left on device" is the machine's.
const HOST_SPACE_FLOOR: u64 = 64 << 20;

/// Bytes free to an unprivileged user on the file system holding `path`.
fn host_space_left(path: &Path) -> u64 {
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
        return u64::MAX;
    };
    // SAFETY: a valid C string and an out struct.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return u64::MAX;
    }
    st.f_bavail as u64 * st.f_frsize as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(termination: sandbox::Termination, cpu_ms: u64, wall_ms: u64) -> sandbox::Outcome {
        sandbox::Outcome {
            termination,
            cpu_ms,
            wall_ms,
            memory_kib: 0,
            measured_by: sandbox::Measurement::Rusage,
        }
    }

    #[test]
    fn a_compile_failure_is_the_sources_or_in_doubt() {
        use sandbox::Termination::*;
        let limits = CompileLimits::default();
        let work = std::env::temp_dir();
        // (how it ended, CPU ms, the compiler's messages) and whose it
        // is: "cached" (the compiler's own verdict), "CE" (a limit the
        // source met) or "unsure" (a trivial compile decides).
        let table = [
            (Exited(1), 0, "main.cpp:1: error: expected ';'", "cached"),
            (CpuTimeout, 10_000, "", "CE"),
            (MemoryExceeded, 100, "", "CE"),
            (OutputExceeded, 100, "", "CE"),
            // Busy the whole time: a template bomb.
            (WallTimeout, 9_500, "", "CE"),
            // Asleep, or starved: the machine is tried.
            (WallTimeout, 300, "", "unsure"),
            (Signaled(libc::SIGKILL), 100, "", "unsure"),
            (Signaled(libc::SIGSEGV), 100, "", "unsure"),
            (
                Exited(1),
                100,
                "fatal error: No space left on device",
                "unsure",
            ),
        ];
        for (termination, cpu_ms, log, want) in table {
            let outcome = outcome(termination, cpu_ms, 20_000);
            let failure = Failure {
                outcome: &outcome,
                log: Path::new("/nonexistent"),
                work: &work,
            };
            let got = match failure.cause(log, &limits) {
                Cause::Source(None) => "cached",
                Cause::Source(Some(_)) => "CE",
                Cause::Unsure(..) => "unsure",
            };
            assert_eq!(got, want, "{termination:?} after {cpu_ms} ms");
        }
    }

    #[test]
    fn a_doubt_is_the_machines_only_where_a_trivial_compile_fails_too() {
        let unsure = |kind| Unsure {
            message: "m".into(),
            why: "w".into(),
            scratch: std::env::temp_dir(),
            kind,
        };
        let fine = Control {
            ended: None,
            share: 0.8,
        };
        let killed = Control {
            ended: Some("killed by a signal"),
            share: 0.8,
        };
        let starved = Control {
            ended: None,
            share: 0.05,
        };
        let is_ce = |r: Result<Compiled, Error>| match r {
            Ok(Compiled::Failed(m)) => {
                assert_eq!(m, "m");
                true
            }
            Err(Error::Machine { .. }) => false,
            other => panic!("{other:?}"),
        };
        // (doubt, control, the source's)
        let table = [
            (Doubt::Signal, fine, true),
            (Doubt::Signal, killed, false),
            // 1% of a CPU (asleep) against a trivial compile's 80%.
            (Doubt::Wall { share: 0.01 }, fine, true),
            (Doubt::Wall { share: 0.01 }, killed, false),
            // Both starved alike: the machine is too busy.
            (Doubt::Wall { share: 0.04 }, starved, false),
            (Doubt::Disk, fine, true),
        ];
        for (kind, control, source) in table {
            assert_eq!(
                is_ce(unsure(kind).settle("cpp", control)),
                source,
                "{kind:?} {control:?}"
            );
        }
    }
}
