//! Measurement and limits by cgroup: one fresh cgroup per run, below the
//! judge's own cgroup (so whatever limits the judge runs under still hold
//! for its boxes), removed after the run.
//!
//! * **v2**: `memory.max` (and `memory.swap.max = 0`), `memory.oom.group`,
//!   `pids.max`; CPU from `cpu.stat` `usage_usec`, peak memory from
//!   `memory.peak`, the memory limit's hits from `memory.events`
//!   (`oom_kill`). Needs the `memory` controller delegated to the judge's
//!   cgroup, and uses `pids` where it is delegated too (many containers
//!   delegate memory alone: processes are then limited by `RLIMIT_NPROC`,
//!   which counts each box's user namespace alone, and `grundy doctor`
//!   says so); the judge moves itself into a `judge` leaf so that
//!   its own cgroup may have controllers for children (the "no internal
//!   processes" rule).
//! * **v1**: separate `memory`, `cpuacct` and `pids` hierarchies:
//!   `memory.limit_in_bytes` (and `memsw` where swap is accounted),
//!   `pids.max`; CPU from `cpuacct.usage`, peak from
//!   `memory.max_usage_in_bytes`, hits from `memory.oom_control`
//!   (`oom_kill`) and `memory.failcnt`.
//!
//! Either way the numbers cover the whole process tree, threads and
//! children included, even those that were killed rather than reaped.
//!
//! This module finds where runs' cgroups can be made ([`Cgroups`]: the
//! judge's own cgroup and its controllers, v2 or v1); `run.rs` owns one
//! run's cgroup ([`RunGroup`]: its limits, its counters, the kill).

mod run;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub use run::RunGroup;

use super::{Error, Measurement};

/// Where the per-run cgroups are created.
#[derive(Debug)]
pub enum Cgroups {
    V2 {
        /// The judge's cgroup, whose children the runs are.
        parent: PathBuf,
        /// Whether the `pids` controller is there to limit processes.
        pids: bool,
    },
    V1 {
        memory: PathBuf,
        cpuacct: PathBuf,
        pids: PathBuf,
    },
}

static SEQ: AtomicU64 = AtomicU64::new(0);

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Cgroup { path, source }
}

fn write(path: &Path, value: &str) -> Result<(), Error> {
    std::fs::write(path, value).map_err(io_err(path))
}

/// Mount points of cgroup file systems: (fs type, mount point, options).
fn cgroup_mounts() -> Vec<(String, PathBuf, String)> {
    let Ok(text) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    let mut mounts = Vec::new();
    for line in text.lines() {
        // id parent maj:min root mount-point options ... - fstype source super-options
        let Some((left, right)) = line.split_once(" - ") else {
            continue;
        };
        let left: Vec<&str> = left.split(' ').collect();
        let right: Vec<&str> = right.split(' ').collect();
        if left.len() < 5 || right.len() < 3 {
            continue;
        }
        if right[0] == "cgroup" || right[0] == "cgroup2" {
            mounts.push((
                right[0].to_string(),
                PathBuf::from(left[4]),
                right[2].to_string(),
            ));
        }
    }
    mounts
}

/// The judge's own cgroup path per hierarchy, from `/proc/self/cgroup`:
/// (controllers, path). v2 is the entry with an empty controller list.
fn own_cgroups() -> Vec<(String, String)> {
    let Ok(text) = std::fs::read_to_string("/proc/self/cgroup") else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let _id = parts.next()?;
            let controllers = parts.next()?.to_string();
            let path = parts.next()?.to_string();
            Some((controllers, path))
        })
        .collect()
}

/// `<prefix>-<pid>-<nanoseconds>`: the pid alone is not unique across PID
/// namespaces (a judge in a container may well be pid 1).
fn unique_name(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{prefix}-{}-{nanos}", std::process::id())
}

/// Removes what judges that died (or never dropped their sandbox) left in
/// `base`: their `grundy-*` directories once empty, and empty run groups
/// inside them older than a minute (a live judge's groups hold a box's
/// processes from a few milliseconds after they are made until the box is
/// disposed of). Best effort: a cgroup with processes or children cannot
/// be removed.
fn remove_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let minute = std::time::Duration::from_secs(60);
    for entry in entries.flatten() {
        let name = entry.file_name();
        if !name.to_string_lossy().starts_with("grundy-") {
            continue;
        }
        if let Ok(runs) = std::fs::read_dir(entry.path()) {
            for run in runs.flatten() {
                let old = run
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > minute);
                if old && run.file_name().to_string_lossy().starts_with("run-") {
                    let _ = std::fs::remove_dir(run.path());
                }
            }
        }
        let _ = std::fs::remove_dir(entry.path());
    }
}

fn join_cgroup(mount: &Path, path: &str) -> PathBuf {
    mount.join(path.trim_start_matches('/'))
}

impl Cgroups {
    /// cgroup v2 with the `memory` controller (and `pids`, where it is)
    /// usable by the judge, or why not.
    pub fn v2() -> Result<Cgroups, String> {
        let mount = cgroup_mounts()
            .into_iter()
            .find(|(fs, _, _)| fs == "cgroup2")
            .map(|(_, mnt, _)| mnt)
            .ok_or("no cgroup2 file system mounted")?;
        let own = own_cgroups()
            .into_iter()
            .find(|(c, _)| c.is_empty())
            .map(|(_, p)| p)
            .ok_or("the judge is in no cgroup v2 group")?;
        let mut parent = join_cgroup(&mount, &own);
        let available = std::fs::read_to_string(parent.join("cgroup.controllers"))
            .map_err(|e| format!("{}: {e}", parent.join("cgroup.controllers").display()))?;
        let has = |c: &str| available.split_whitespace().any(|x| x == c);
        if !has("memory") {
            return Err(format!(
                "cgroup v2 at {} has no memory controller (it has: {})",
                parent.display(),
                if available.trim().is_empty() {
                    "none"
                } else {
                    available.trim()
                }
            ));
        }
        // A judge that was itself moved into its `judge` leaf earlier
        // (another sandbox in this process) uses the group above it.
        if parent.file_name().is_some_and(|n| n == "judge") {
            if let Some(up) = parent.parent() {
                parent = up.to_path_buf();
            }
        } else {
            let leaf = parent.join("judge");
            std::fs::create_dir_all(&leaf).map_err(|e| format!("{}: {e}", leaf.display()))?;
            std::fs::write(leaf.join("cgroup.procs"), "0")
                .map_err(|e| format!("moving the judge into {}: {e}", leaf.display()))?;
        }
        let pids = has("pids");
        let control = parent.join("cgroup.subtree_control");
        let wanted = if pids { "+memory +pids" } else { "+memory" };
        std::fs::write(&control, wanted)
            .map_err(|e| format!("enabling {wanted} in {}: {e}", control.display()))?;
        Ok(Cgroups::V2 { parent, pids })
    }

    /// Whether the run's processes are limited by the cgroup (`pids.max`)
    /// rather than by `RLIMIT_NPROC`.
    pub fn limits_processes(&self) -> bool {
        match self {
            Cgroups::V2 { pids, .. } => *pids,
            Cgroups::V1 { .. } => true,
        }
    }

    /// What the cgroup does not do that a full one would, for `grundy
    /// doctor`, if anything.
    pub fn shortfall(&self) -> Option<String> {
        (!self.limits_processes()).then(|| {
            format!(
                "cgroup v2 at {} has no pids controller: processes are limited by RLIMIT_NPROC, \
                 counted in each box's user namespace",
                self.location().display()
            )
        })
    }

    /// cgroup v1 with writable `memory`, `cpuacct` and `pids` hierarchies,
    /// or why not.
    pub fn v1() -> Result<Cgroups, String> {
        let mounts = cgroup_mounts();
        let own = own_cgroups();
        let find = |controller: &str| -> Result<PathBuf, String> {
            let mount = mounts
                .iter()
                .find(|(fs, _, opts)| fs == "cgroup" && opts.split(',').any(|o| o == controller))
                .map(|(_, m, _)| m.clone())
                .ok_or_else(|| format!("no cgroup v1 {controller} hierarchy mounted"))?;
            let path = own
                .iter()
                .find(|(c, _)| c.split(',').any(|x| x == controller))
                .map(|(_, p)| p.clone())
                .unwrap_or_else(|| "/".to_string());
            let base = join_cgroup(&mount, &path);
            remove_stale(&base);
            let dir = base.join(unique_name("grundy"));
            std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            Ok(dir)
        };
        let memory = find("memory")?;
        let cpuacct = find("cpuacct")?;
        let pids = find("pids")?;
        Ok(Cgroups::V1 {
            memory,
            cpuacct,
            pids,
        })
    }

    pub fn kind(&self) -> Measurement {
        match self {
            Cgroups::V2 { .. } => Measurement::CgroupV2,
            Cgroups::V1 { .. } => Measurement::CgroupV1,
        }
    }

    /// The directory (or, for v1, the memory directory) runs are made in.
    pub fn location(&self) -> &Path {
        match self {
            Cgroups::V2 { parent, .. } => parent,
            Cgroups::V1 { memory, .. } => memory,
        }
    }

    /// A fresh cgroup for one run, with its limits set.
    ///
    /// # Errors
    /// When the cgroup cannot be created or limited.
    pub fn create(&self, memory: u64, processes: u64) -> Result<RunGroup, Error> {
        let name = format!(
            "run-{}-{}",
            std::process::id(),
            SEQ.fetch_add(1, Ordering::Relaxed)
        );
        match self {
            Cgroups::V2 { parent, pids } => {
                let dir = parent.join(name);
                std::fs::create_dir(&dir).map_err(io_err(&dir))?;
                RunGroup::v2(dir, *pids, memory, processes)
            }
            Cgroups::V1 {
                memory: mem_root,
                cpuacct,
                pids,
            } => {
                let dirs = vec![mem_root.join(&name), cpuacct.join(&name), pids.join(&name)];
                for dir in &dirs {
                    // `create_dir_all`: another sandbox of this process may
                    // have removed the shared parent when it was dropped.
                    if let Err(e) = std::fs::create_dir_all(dir) {
                        for made in &dirs {
                            let _ = std::fs::remove_dir(made);
                        }
                        return Err(io_err(dir)(e));
                    }
                }
                RunGroup::v1(dirs, memory, processes)
            }
        }
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        if let Cgroups::V1 {
            memory,
            cpuacct,
            pids,
        } = self
        {
            for dir in [memory, cpuacct, pids] {
                let _ = std::fs::remove_dir(dir);
            }
        }
    }
}
