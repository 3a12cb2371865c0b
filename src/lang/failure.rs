//! Why a compilation failed, and whose fault it was: the source's (a
//! compilation error, cached with its messages), or the machine's (a
//! compiler killed by a limit the machine's state explains, a full disk:
//! tried again, and IE if it persists).

use std::path::Path;

use super::{read_bounded, Compiled, Error, ProgramCache, COMPILE_TRIES};
use crate::config::CompileLimits;
use crate::sandbox;

/// A compilation that did not succeed, and what is known of it.
pub(super) struct Failure<'a> {
    pub(super) language: &'a str,
    pub(super) outcome: &'a sandbox::Outcome,
    /// The compiler's messages.
    pub(super) log: &'a Path,
    /// The compilation's directory on the host's disk.
    pub(super) work: &'a Path,
    /// The last try: a crash repeated on every try is the source's.
    pub(super) last: bool,
}

impl Failure<'_> {
    /// The failure as [`Compiled::Failed`] (`CE`) when the source caused
    /// it or plausibly did (the compiler's own error, a limit a template
    /// bomb meets), or [`Error::Machine`] when the machine did. Only the
    /// compiler's own verdict on the source is cached under `key`: a limit
    /// met may be the machine's load.
    pub(super) fn verdict(
        &self,
        limits: &CompileLimits,
        cache: &ProgramCache,
        key: &str,
    ) -> Result<Compiled, Error> {
        let mut message = read_bounded(self.log, (limits.output_limit as usize) << 10);
        match self.cause(&message, limits) {
            Cause::Source(None) => cache.store_failure(key, &message)?,
            Cause::Source(Some(why)) => {
                if !message.is_empty() && !message.ends_with('\n') {
                    message.push('\n');
                }
                message.push_str(&why);
            }
            Cause::Machine(why) => {
                return Err(Error::Machine {
                    language: self.language.to_string(),
                    why,
                })
            }
        }
        Ok(Compiled::Failed(message))
    }

    pub(super) fn cause(&self, log: &str, limits: &CompileLimits) -> Cause {
        use sandbox::Termination::*;
        let limit_cpu_ms = (limits.cpu_limit * 1000.0) as u64;
        match self.outcome.termination {
            CpuTimeout => Cause::Source(Some(format!(
                "compilation exceeded {} s of CPU time",
                limits.cpu_limit
            ))),
            // Wall clock out with CPU time to spare: the compiler waited
            // for a machine too busy to run it (a source cannot make it
            // sleep: its only input is the source).
            WallTimeout if self.outcome.cpu_ms < limit_cpu_ms * 9 / 10 => Cause::Machine(format!(
                "the compiler had used {} ms of CPU when its {} s of wall-clock time ran out",
                self.outcome.cpu_ms, limits.time_limit
            )),
            WallTimeout => Cause::Source(Some(format!(
                "compilation exceeded {} s of wall-clock time",
                limits.time_limit
            ))),
            MemoryExceeded => Cause::Source(Some(format!(
                "compilation exceeded {} MiB of memory",
                limits.memory_limit
            ))),
            OutputExceeded => Cause::Source(Some(format!(
                "compilation wrote a file larger than {} MiB",
                limits.program_limit
            ))),
            // Nothing in the box sends SIGKILL to the compiler but the
            // host (its OOM killer, an operator): the limits are reported
            // as themselves.
            Signaled(sig) if sig == libc::SIGKILL => {
                Cause::Machine("the compiler was killed from outside (SIGKILL)".to_string())
            }
            // A compiler crash: tried again, and the source's only when it
            // repeats on every try (an internal compiler error it triggers).
            Signaled(sig) if !self.last => {
                Cause::Machine(format!("the compiler was killed by signal {sig}"))
            }
            Signaled(sig) => Cause::Source(Some(format!(
                "the compiler crashed (signal {sig}) on each of {COMPILE_TRIES} tries"
            ))),
            Exited(_) if log.contains("No space left on device") => {
                if host_space_left(self.work) < HOST_SPACE_FLOOR {
                    Cause::Machine("the judge's disk is full".to_string())
                } else {
                    // The box's own bounded /tmp, filled by what the
                    // source made the compiler write.
                    Cause::Source(Some("the compiler ran out of disk space".to_string()))
                }
            }
            Exited(_) => Cause::Source(None),
        }
    }
}

/// Who failed a compilation: the source (with the reason to add to the
/// compiler's messages, where it is not the compiler's own verdict), or
/// the machine.
pub(super) enum Cause {
    Source(Option<String>),
    Machine(String),
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

    #[test]
    fn a_compile_failure_is_the_sources_or_the_machines() {
        use sandbox::Termination::*;
        let limits = CompileLimits::default();
        let work = std::env::temp_dir();
        // (how it ended, CPU ms, the compiler's messages, last try) and
        // who failed it: "cached" (the compiler's own verdict), "CE"
        // (a limit the source plausibly met) or "machine".
        let table = [
            (
                Exited(1),
                0,
                "main.cpp:1: error: expected ';'",
                false,
                "cached",
            ),
            (CpuTimeout, 10_000, "", false, "CE"),
            (MemoryExceeded, 100, "", false, "CE"),
            (OutputExceeded, 100, "", false, "CE"),
            // Starved past its wall clock: the machine's.
            (WallTimeout, 300, "", false, "machine"),
            (WallTimeout, 300, "", true, "machine"),
            // Busy the whole time: a template bomb.
            (WallTimeout, 9_500, "", false, "CE"),
            (Signaled(libc::SIGKILL), 100, "", true, "machine"),
            (Signaled(libc::SIGSEGV), 100, "", false, "machine"),
            // A crash on every try: one the source triggers.
            (Signaled(libc::SIGSEGV), 100, "", true, "CE"),
            // The box's own /tmp filled, the judge's disk has room.
            (
                Exited(1),
                100,
                "fatal error: No space left on device",
                false,
                "CE",
            ),
        ];
        for (termination, cpu_ms, log, last, want) in table {
            let outcome = sandbox::Outcome {
                termination,
                cpu_ms,
                wall_ms: 20_000,
                memory_kib: 0,
                measured_by: sandbox::Measurement::Rusage,
            };
            let failure = Failure {
                language: "cpp",
                outcome: &outcome,
                log: Path::new("/nonexistent"),
                work: &work,
                last,
            };
            let got = match failure.cause(log, &limits) {
                Cause::Source(None) => "cached",
                Cause::Source(Some(_)) => "CE",
                Cause::Machine(_) => "machine",
            };
            assert_eq!(
                got, want,
                "{termination:?} after {cpu_ms} ms, last try {last}"
            );
        }
    }
}
