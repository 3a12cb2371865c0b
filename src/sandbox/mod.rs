//! The sandbox: runs one untrusted program under limits and reports what it
//! saw. It knows processes, limits and measurement; it knows nothing of
//! problems, languages, verdicts or the database. The judge maps an
//! [`Outcome`] to a verdict.
//!
//! # Theory of operation (the `rlimit` tier)
//!
//! * **Process group.** The child calls `setpgid(0, 0)` before `exec`, so it
//!   and everything it forks share one group, which is killed with
//!   `SIGKILL` when the run ends or a limit hits.
//! * **rlimits**, set between `fork` and `exec`: `RLIMIT_CPU` (a backstop one
//!   second above the limit; the precise check is on the measured time),
//!   `RLIMIT_FSIZE` (stdout and stderr go to files, so an output flood dies
//!   of `SIGXFSZ` and is never buffered), `RLIMIT_STACK` (the memory limit:
//!   deep recursion works as contestants expect), `RLIMIT_NOFILE`,
//!   `RLIMIT_CORE = 0`.
//! * **Waiting.** The calling thread blocks in `wait4`, which returns the
//!   exit status together with the rusage of the child and of every
//!   descendant it reaped: CPU time (user + system) and peak RSS.
//! * **Watchdog.** A second thread wakes every few milliseconds until the
//!   child is reaped: it enforces the wall-clock limit, samples the child's
//!   resident memory (so a memory bomb is stopped near the limit instead of
//!   eating the machine) and its CPU time. Whatever limit it enforces is
//!   recorded, so the outcome names the limit that stopped the run.
//! * **Kill path.** After `wait4` returns (or the watchdog fires), the whole
//!   process group gets `SIGKILL`; nothing survives a run.

mod rlimit;

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

pub use rlimit::RlimitSandbox;

/// One program to run, like `std::process::Command` plus limits.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The program; looked up in `PATH` when it has no `/`.
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The complete environment (nothing is inherited).
    pub env: Vec<(String, String)>,
    /// Working directory.
    pub cwd: PathBuf,
    /// A file to feed on stdin, or `None` for `/dev/null`.
    pub stdin: Option<PathBuf>,
    /// Where stdout is written (truncated first).
    pub stdout: PathBuf,
    /// Where stderr is written (truncated first).
    pub stderr: PathBuf,
    pub limits: Limits,
}

/// Resource limits of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time of the program (user + system).
    pub cpu: Duration,
    /// Wall-clock time.
    pub wall: Duration,
    /// Peak resident memory, bytes.
    pub memory: u64,
    /// Size of any file written, stdout and stderr included, bytes.
    pub output: u64,
    /// Open file descriptors.
    pub open_files: u64,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Termination {
    /// Exited by itself with this status.
    Exited(i32),
    /// Killed by this signal (not one of ours).
    Signaled(i32),
    /// Stopped by the CPU-time limit.
    CpuTimeout,
    /// Stopped by the wall-clock limit.
    WallTimeout,
    /// Stopped by the memory limit, or its peak exceeded it.
    MemoryExceeded,
    /// Wrote more than the output limit.
    OutputExceeded,
}

/// Which mechanism measured time and memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Measurement {
    /// `wait4` rusage plus `/proc` sampling of the main process.
    Rusage,
}

/// What the sandbox saw.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub termination: Termination,
    /// CPU time, milliseconds.
    pub cpu_ms: u64,
    /// Wall-clock time, milliseconds.
    pub wall_ms: u64,
    /// Peak resident memory, KiB.
    pub memory_kib: u64,
    pub measured_by: Measurement,
}

impl Outcome {
    /// Exited by itself with status 0.
    pub fn success(&self) -> bool {
        self.termination == Termination::Exited(0)
    }
}

/// The sandbox itself failed (never the program's fault).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("starting {program}: {source}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("opening {path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("waiting for {program}: {source}")]
    Wait {
        program: String,
        source: std::io::Error,
    },
}

/// Something that runs a [`RunSpec`]; the judge and checkers hold a
/// `&dyn Runner` so tests can substitute their own.
pub trait Runner: Send + Sync {
    /// Runs one program to completion.
    ///
    /// # Errors
    /// Only when the sandbox itself fails; everything the program does is
    /// reported in the [`Outcome`].
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error>;

    /// A one-line description of the isolation and measurement in force.
    fn describe(&self) -> String;
}
