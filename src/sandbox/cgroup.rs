//! Measurement and limits by cgroup: one fresh cgroup per run, below the
//! judge's own cgroup (so whatever limits the judge runs under still hold
//! for its boxes), removed after the run.
//!
//! * **v2**: `memory.max` (and `memory.swap.max = 0`), `memory.oom.group`,
//!   `pids.max`; CPU from `cpu.stat` `usage_usec`, peak memory from
//!   `memory.peak`, the memory limit's hits from `memory.events`
//!   (`oom_kill`). Needs the `memory` and `pids` controllers delegated to
//!   the judge's cgroup; the judge moves itself into a `judge` leaf so that
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

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::{Error, Measurement};

/// Where the per-run cgroups are created.
#[derive(Debug)]
pub enum Cgroups {
    V2 {
        /// The judge's cgroup, whose children the runs are.
        parent: PathBuf,
    },
    V1 {
        memory: PathBuf,
        cpuacct: PathBuf,
        pids: PathBuf,
    },
}

/// What a run's cgroup saw.
#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub cpu_ns: u64,
    pub peak_bytes: u64,
    /// Processes the kernel killed for the memory limit.
    pub oom_kills: u64,
    /// Times an allocation met the memory limit (reclaim may have
    /// satisfied it).
    pub limit_hits: u64,
}

/// The cgroup(s) of one run; removed on drop.
#[derive(Debug)]
pub struct RunGroup {
    kind: Measurement,
    /// v2: one directory. v1: memory, cpuacct, pids.
    dirs: Vec<PathBuf>,
    /// The `cgroup.procs` files to attach a process to.
    procs: Vec<PathBuf>,
    /// Counters at the last [`RunGroup::reset`], subtracted from later
    /// readings (v2 counters cannot be reset).
    base: Usage,
}

static SEQ: AtomicU64 = AtomicU64::new(0);

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Cgroup { path, source }
}

fn write(path: &Path, value: &str) -> Result<(), Error> {
    std::fs::write(path, value).map_err(io_err(path))
}

fn read_u64(path: &Path) -> Option<u64> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}

/// The value of `key` in a flat keyed file (`memory.events`, `cpu.stat`,
/// `memory.oom_control`).
fn keyed(path: &Path, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
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
/// `base`: their `grundy-*` directories once empty, and run groups inside
/// them older than an hour (a live judge's runs are younger, or busy).
/// Best effort: a cgroup with processes or children cannot be removed.
fn remove_stale(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    let hour = std::time::Duration::from_secs(3600);
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
                    .is_some_and(|age| age > hour);
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
    /// cgroup v2 with the `memory` and `pids` controllers usable by the
    /// judge, or why not.
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
        if !has("memory") || !has("pids") {
            return Err(format!(
                "cgroup v2 at {} has no memory and pids controllers (it has: {})",
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
        let control = parent.join("cgroup.subtree_control");
        std::fs::write(&control, "+memory +pids")
            .map_err(|e| format!("enabling memory and pids in {}: {e}", control.display()))?;
        Ok(Cgroups::V2 { parent })
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
            Cgroups::V2 { parent } => parent,
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
            Cgroups::V2 { parent } => {
                let dir = parent.join(name);
                std::fs::create_dir(&dir).map_err(io_err(&dir))?;
                let group = RunGroup {
                    kind: Measurement::CgroupV2,
                    procs: vec![dir.join("cgroup.procs")],
                    dirs: vec![dir.clone()],
                    base: Usage::default(),
                };
                // Absent when swap is not accounted: nothing to limit then.
                let _ = std::fs::write(dir.join("memory.swap.max"), "0");
                let _ = std::fs::write(dir.join("memory.oom.group"), "1");
                group.set_limits(u64::MAX, memory, processes)?;
                Ok(group)
            }
            Cgroups::V1 {
                memory: mem_root,
                cpuacct,
                pids,
            } => {
                let dirs = vec![mem_root.join(&name), cpuacct.join(&name), pids.join(&name)];
                let mut group = RunGroup {
                    kind: Measurement::CgroupV1,
                    dirs: Vec::new(),
                    procs: Vec::new(),
                    base: Usage::default(),
                };
                for dir in dirs {
                    // `create_dir_all`: another sandbox of this process may
                    // have removed the shared parent when it was dropped.
                    std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
                    group.procs.push(dir.join("cgroup.procs"));
                    group.dirs.push(dir);
                }
                let _ = std::fs::write(group.dirs[0].join("memory.swappiness"), "0");
                group.set_limits(u64::MAX, memory, processes)?;
                Ok(group)
            }
        }
    }
}

impl RunGroup {
    pub fn kind(&self) -> Measurement {
        self.kind
    }

    /// Moves process `pid` (a host pid) into the run's cgroup(s).
    ///
    /// # Errors
    /// When the kernel refuses.
    pub fn attach(&self, pid: libc::pid_t) -> Result<(), Error> {
        for procs in &self.procs {
            write(procs, &pid.to_string())?;
        }
        Ok(())
    }

    /// Sets the memory limit (from `old`, the one in force: with swap
    /// accounted, `memsw` may never be below the memory limit) and the
    /// process limit.
    ///
    /// # Errors
    /// When the kernel refuses a limit.
    pub fn set_limits(&self, old: u64, memory: u64, processes: u64) -> Result<(), Error> {
        let dir = &self.dirs[0];
        match self.kind {
            Measurement::CgroupV2 => write(&dir.join("memory.max"), &memory.to_string())?,
            _ => {
                let limit = dir.join("memory.limit_in_bytes");
                // Present only where swap is accounted.
                let memsw = dir.join("memory.memsw.limit_in_bytes");
                let memsw = memsw.exists().then_some(memsw);
                let value = memory.to_string();
                if memory > old {
                    if let Some(memsw) = &memsw {
                        write(memsw, &value)?;
                    }
                    write(&limit, &value)?;
                } else {
                    write(&limit, &value)?;
                    if let Some(memsw) = &memsw {
                        write(memsw, &value)?;
                    }
                }
            }
        }
        write(
            &self.dirs.last().unwrap_or(dir).join("pids.max"),
            &processes.to_string(),
        )
    }

    /// Starts counting afresh: what the group used so far (building a box)
    /// is not the run's. Resets the v1 peak; a v2 peak keeps its history.
    pub fn reset(&mut self) {
        if self.kind == Measurement::CgroupV1 {
            let _ = std::fs::write(self.dirs[0].join("memory.max_usage_in_bytes"), "0");
        }
        self.base = Usage::default();
        self.base = self.usage();
        self.base.peak_bytes = 0;
    }

    /// CPU time of the whole tree so far, nanoseconds.
    pub fn cpu_ns(&self) -> u64 {
        let total = match self.kind {
            Measurement::CgroupV2 => keyed(&self.dirs[0].join("cpu.stat"), "usage_usec")
                .map(|us| us * 1000)
                .unwrap_or(0),
            _ => read_u64(&self.dirs[1].join("cpuacct.usage")).unwrap_or(0),
        };
        total.saturating_sub(self.base.cpu_ns)
    }

    /// Everything measured since the last reset, read after the run.
    pub fn usage(&self) -> Usage {
        let dir = &self.dirs[0];
        let since = |now: u64, base: u64| now.saturating_sub(base);
        match self.kind {
            Measurement::CgroupV2 => Usage {
                cpu_ns: self.cpu_ns(),
                peak_bytes: read_u64(&dir.join("memory.peak")).unwrap_or(0),
                oom_kills: since(
                    keyed(&dir.join("memory.events"), "oom_kill").unwrap_or(0),
                    self.base.oom_kills,
                ),
                limit_hits: since(
                    keyed(&dir.join("memory.events"), "max").unwrap_or(0),
                    self.base.limit_hits,
                ),
            },
            _ => Usage {
                cpu_ns: self.cpu_ns(),
                peak_bytes: read_u64(&dir.join("memory.max_usage_in_bytes")).unwrap_or(0),
                oom_kills: since(
                    keyed(&dir.join("memory.oom_control"), "oom_kill").unwrap_or(0),
                    self.base.oom_kills,
                ),
                limit_hits: since(
                    read_u64(&dir.join("memory.failcnt")).unwrap_or(0),
                    self.base.limit_hits,
                ),
            },
        }
    }

    /// Kills every process still in the cgroup (a backstop: the PID
    /// namespace already died with its init).
    pub fn kill_all(&self) {
        if self.kind == Measurement::CgroupV2 {
            let _ = std::fs::write(self.dirs[0].join("cgroup.kill"), "1");
        }
        for procs in &self.procs {
            if let Ok(text) = std::fs::read_to_string(procs) {
                for pid in text
                    .lines()
                    .filter_map(|l| l.trim().parse::<libc::pid_t>().ok())
                {
                    // SAFETY: plain syscall on a pid read from our own cgroup.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
            }
        }
    }
}

impl Drop for RunGroup {
    fn drop(&mut self) {
        for dir in &self.dirs {
            // Killed processes leave their cgroup as they finish exiting:
            // retry briefly.
            for attempt in 0..200 {
                match std::fs::remove_dir(dir) {
                    Ok(()) => break,
                    Err(e) if e.kind() == ErrorKind::NotFound => break,
                    Err(_) if attempt < 199 => {
                        if attempt == 10 {
                            self.kill_all();
                        }
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    Err(e) => {
                        tracing::warn!("removing cgroup {}: {e}", dir.display());
                    }
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keyed_file_values_are_found_by_key() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("memory.events");
        std::fs::write(&path, "low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n").unwrap();
        assert_eq!(keyed(&path, "max"), Some(3));
        assert_eq!(keyed(&path, "oom_kill"), Some(1));
        assert_eq!(keyed(&path, "oom_group_kill"), None);
    }
}
