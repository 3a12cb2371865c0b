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

mod cgroup;
mod ns;
mod rlimit;
mod seccomp;

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use crate::config::{Isolation, MeasurementChoice, SandboxConfig};

pub use ns::NamespaceSandbox;
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
    /// Host paths the program may see, at the same path inside the box
    /// (the program's directory, a toolchain, a writable working
    /// directory). `cwd` must be one of them or below one. Ignored by the
    /// `rlimit` tier, which isolates nothing.
    pub binds: Vec<Bind>,
    pub limits: Limits,
}

/// A host path made visible inside the box at the same path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bind {
    pub path: PathBuf,
    /// Whether the box may write there (only its own directories).
    pub writable: bool,
}

impl Bind {
    /// A path the box may read.
    pub fn read_only(path: impl Into<PathBuf>) -> Bind {
        Bind {
            path: path.into(),
            writable: false,
        }
    }

    /// A path the box may read and write.
    pub fn writable(path: impl Into<PathBuf>) -> Bind {
        Bind {
            path: path.into(),
            writable: true,
        }
    }
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
    /// Processes and threads alive at once, the first one included.
    pub processes: u64,
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
    /// A cgroup v1 per run (`memory`, `cpuacct`, `pids` controllers).
    CgroupV1,
    /// A cgroup v2 per run (`memory`, `pids`, `cpu.stat`).
    CgroupV2,
}

impl std::fmt::Display for Measurement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Measurement::Rusage => "rusage",
            Measurement::CgroupV1 => "cgroup v1",
            Measurement::CgroupV2 => "cgroup v2",
        })
    }
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
    #[error("setting up the box for {program}: {step}: {source}")]
    Setup {
        program: String,
        step: &'static str,
        source: std::io::Error,
    },
    #[error("cgroup {path}: {source}")]
    Cgroup {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Unavailable(String),
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

/// The isolation tier in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum IsolationTier {
    /// Namespaces with a user namespace (root not required).
    UserNamespace,
    /// Namespaces without a user namespace: the judge is root and
    /// switches to the box uid itself.
    RootNamespaces,
    /// None: rlimits and a process group only.
    None,
}

impl std::fmt::Display for IsolationTier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IsolationTier::UserNamespace => "namespaces (user namespace)",
            IsolationTier::RootNamespaces => "namespaces (root, no user namespace)",
            IsolationTier::None => "none (rlimits and a process group only)",
        })
    }
}

/// Which tiers were chosen, and why not better ones.
#[derive(Debug, Clone)]
pub struct Tiers {
    pub isolation: IsolationTier,
    pub measurement: Measurement,
    /// One line per missing capability: what was tried and what failed.
    pub missing: Vec<String>,
    /// Set when the configuration demands isolation the machine lacks:
    /// the runner then refuses every run.
    pub refused: Option<String>,
}

/// Picks the best sandbox this machine allows under `config`, proving
/// each isolating tier with a probe run before trusting it.
pub fn select(config: &SandboxConfig) -> (std::sync::Arc<dyn Runner>, Tiers) {
    let mut missing = Vec::new();
    let want_cgroups = |missing: &mut Vec<String>| -> Option<cgroup::Cgroups> {
        let v2 = || cgroup::Cgroups::v2().map_err(|e| format!("cgroup v2: {e}"));
        let v1 = || cgroup::Cgroups::v1().map_err(|e| format!("cgroup v1: {e}"));
        let attempts: Vec<&dyn Fn() -> Result<cgroup::Cgroups, String>> = match config.measurement {
            MeasurementChoice::Auto => vec![&v2, &v1],
            MeasurementChoice::CgroupV2 => vec![&v2],
            MeasurementChoice::CgroupV1 => vec![&v1],
            MeasurementChoice::Rusage => vec![],
        };
        for attempt in attempts {
            match attempt() {
                Ok(cg) => return Some(cg),
                Err(why) => missing.push(why),
            }
        }
        None
    };
    if config.isolation != Isolation::None {
        // SAFETY: plain syscall.
        let root = unsafe { libc::geteuid() } == 0;
        let mut modes = vec![(ns::Users::Namespace, IsolationTier::UserNamespace)];
        if root {
            modes.push((ns::Users::Setuid, IsolationTier::RootNamespaces));
        }
        for (users, tier) in modes {
            let mut cg = want_cgroups(&mut missing);
            loop {
                let with_cgroups = cg.is_some();
                let attempt = ns::NamespaceSandbox::new(
                    users,
                    config.uid,
                    &config.paths,
                    config.tmp_size,
                    cg.take(),
                )
                .and_then(|sb| probe(&sb).map(|()| sb));
                match attempt {
                    Ok(sb) => {
                        let tiers = Tiers {
                            isolation: tier,
                            measurement: sb.measurement(),
                            missing,
                            refused: None,
                        };
                        return (std::sync::Arc::new(sb), tiers);
                    }
                    Err(e) if with_cgroups => {
                        missing.push(format!("{tier} with cgroups: {e}"));
                        // Try the same isolation measured by rusage.
                    }
                    Err(e) => {
                        missing.push(format!("{tier}: {e}"));
                        break;
                    }
                }
            }
        }
    }
    let refused = (config.isolation == Isolation::Namespaces)
        .then(|| "sandbox.isolation = \"namespaces\" but no namespace tier works here".to_string());
    let tiers = Tiers {
        isolation: IsolationTier::None,
        measurement: Measurement::Rusage,
        missing,
        refused: refused.clone(),
    };
    let runner: std::sync::Arc<dyn Runner> = match refused {
        Some(why) => std::sync::Arc::new(Refusing(why)),
        None => std::sync::Arc::new(RlimitSandbox),
    };
    (runner, tiers)
}

/// Runs `/bin/true` (or `/usr/bin/true`) in a box, proving the tier works.
fn probe(sandbox: &dyn Runner) -> Result<(), Error> {
    let dir = tempfile::tempdir().map_err(|source| Error::Io {
        path: std::env::temp_dir(),
        source,
    })?;
    let program = ["/usr/bin/true", "/bin/true"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .ok_or_else(|| Error::Unavailable("no /usr/bin/true to probe the sandbox with".into()))?;
    let out = dir.path().join("out");
    let spec = RunSpec {
        program,
        args: Vec::new(),
        env: Vec::new(),
        cwd: dir.path().to_path_buf(),
        stdin: None,
        stdout: out.clone(),
        stderr: out,
        binds: Vec::new(),
        limits: Limits {
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(10),
            memory: 64 << 20,
            output: 1 << 20,
            open_files: 16,
            processes: 4,
        },
    };
    let outcome = sandbox.run(&spec)?;
    if outcome.success() {
        Ok(())
    } else {
        Err(Error::Unavailable(format!(
            "probe run ended with {:?}",
            outcome.termination
        )))
    }
}

/// The runner of a judge that must not run anything: every run is an
/// internal error naming why.
#[derive(Debug)]
struct Refusing(String);

impl Runner for Refusing {
    fn run(&self, _spec: &RunSpec) -> Result<Outcome, Error> {
        Err(Error::Unavailable(self.0.clone()))
    }

    fn describe(&self) -> String {
        format!("refusing to run: {}", self.0)
    }
}
