//! Choosing a tier: the best isolation and measurement the machine
//! allows, each proved by a probe run before it is trusted, and a judge
//! that refuses every run (failing closed) where none works.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use super::{cgroup, ns, Error, Outcome, RlimitSandbox, RunSpec, Runner};
use super::{Limits, Measurement, Stdio};
use crate::config::{Isolation, MeasurementChoice, SandboxConfig};

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
    /// One line per kind of use that this tier can neither count nor
    /// bound (`grundy doctor` names them): none where a cgroup measures.
    pub unbounded: Vec<String>,
    /// Set when the configuration demands isolation the machine lacks:
    /// the runner then refuses every run.
    pub refused: Option<String>,
}

impl Tiers {
    /// Whether untrusted programs run isolated. A judge serving others
    /// refuses to start when they do not, unless told it is insecure.
    ///
    /// # Errors
    /// A one-line reason naming what is missing.
    pub fn require_isolation(&self) -> Result<(), String> {
        if let Some(why) = &self.refused {
            return Err(why.clone());
        }
        if self.isolation == IsolationTier::None {
            return Err(format!(
                "no isolating sandbox on this machine ({})",
                self.missing.join("; ")
            ));
        }
        Ok(())
    }
}

/// Picks the best sandbox this machine allows under `config`, proving
/// each isolating tier with a probe run before trusting it. When none
/// works, the runner refuses every run (unless `config` asks for no
/// isolation): see "fails closed" above.
pub fn select(config: &SandboxConfig) -> (std::sync::Arc<dyn Runner>, Tiers) {
    select_among(
        config,
        &[IsolationTier::UserNamespace, IsolationTier::RootNamespaces],
    )
}

/// [`select`] among the given isolation tiers only (in order), for tests
/// and benchmarks of a tier this machine would not pick by itself; refuses
/// like [`select`] when none works.
pub fn select_among(
    config: &SandboxConfig,
    candidates: &[IsolationTier],
) -> (std::sync::Arc<dyn Runner>, Tiers) {
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
                Ok(cg) => {
                    missing.extend(cg.shortfall());
                    return Some(cg);
                }
                Err(why) => missing.push(why),
            }
        }
        None
    };
    if config.isolation != Isolation::None {
        // SAFETY: plain syscall.
        let root = unsafe { libc::geteuid() } == 0;
        let mut modes = Vec::new();
        for &tier in candidates {
            match tier {
                IsolationTier::UserNamespace => modes.push((ns::Users::Namespace, tier)),
                IsolationTier::RootNamespaces if root => modes.push((ns::Users::Setuid, tier)),
                IsolationTier::RootNamespaces => {
                    missing.push(format!("{tier}: the judge is not root"));
                }
                IsolationTier::None => {}
            }
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
                        dedup(&mut missing);
                        let measurement = sb.measurement();
                        let unbounded = match measurement {
                            Measurement::Rusage => ns::task_clock_refused().into_iter().collect(),
                            _ => Vec::new(),
                        };
                        let tiers = Tiers {
                            isolation: tier,
                            measurement,
                            missing,
                            unbounded,
                            refused: None,
                        };
                        return (std::sync::Arc::new(sb), tiers);
                    }
                    Err(e) if with_cgroups => {
                        missing.push(format!("{tier} with cgroups: {}", crate::errors::chain(&e)));
                        // Try the same isolation measured by rusage.
                    }
                    Err(e) => {
                        missing.push(format!("{tier}: {}", crate::errors::chain(&e)));
                        break;
                    }
                }
            }
        }
    }
    dedup(&mut missing);
    // Fail closed: untrusted code runs unisolated only when the
    // configuration (or `--insecure`) says so, never because a probe
    // failed (Docker's seccomp profile, a distribution's user-namespace
    // restriction, a probe timing out under load).
    let refused = (config.isolation != Isolation::None).then(|| refusal(&missing));
    let tiers = Tiers {
        isolation: IsolationTier::None,
        measurement: Measurement::Rusage,
        missing,
        unbounded: vec![
            "CPU and memory of processes the program does not wait for, and the kernel's memory \
             for it (page tables, pipes, sockets): the rlimit tier measures the program and its \
             waited-for children only"
                .to_string(),
        ],
        refused: refused.clone(),
    };
    let runner: std::sync::Arc<dyn Runner> = match refused {
        Some(why) => std::sync::Arc::new(Refusing(why)),
        None => std::sync::Arc::new(RlimitSandbox),
    };
    (runner, tiers)
}

/// Why a judge that asked for isolation refuses to run anything, and what
/// to do about it, in one line.
fn refusal(missing: &[String]) -> String {
    format!(
        "refusing to run untrusted code: no isolating sandbox works here ({}); run the judge as \
         root, or allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; \
         Ubuntu 24.04: kernel.apparmor_restrict_unprivileged_userns=0; Docker: \
         --security-opt seccomp=unconfined), or accept running it unisolated with \
         [sandbox] isolation = \"none\" or --insecure",
        if missing.is_empty() {
            "no namespace tier was tried".to_string()
        } else {
            missing.join("; ")
        }
    )
}

/// Drops repeated lines (each tier retries the same cgroup setup).
fn dedup(lines: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    lines.retain(|l| seen.insert(l.clone()));
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
    let limits = Limits::new(Duration::from_secs(5), 64 << 20)
        .wall(Duration::from_secs(10))
        .open_files(16)
        .processes(4);
    let spec = RunSpec::new(program, dir.path(), limits)
        .stdout(Stdio::file(&out))
        .stderr(Stdio::file(out));
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
