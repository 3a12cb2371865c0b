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
        /// Whether the `pids` controller is there to limit processes.
        pids: bool,
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
    /// The most memory the run held above what its box held when it
    /// began (see [`RunGroup::held`]); `None` where the kernel keeps no
    /// peak (cgroup v2 before 5.19).
    pub peak_bytes: Option<u64>,
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
    /// Whether `pids.max` limits the run's processes.
    pids: bool,
    /// The `cgroup.procs` files to attach a process to.
    procs: Vec<PathBuf>,
    /// Counters at the last [`RunGroup::reset`], subtracted from later
    /// readings (v2 counters cannot be reset).
    base: Usage,
    counters: Counters,
    /// The last reset restarted the peak: v1 always; v2 where
    /// `memory.peak` takes a reset for its descriptor (Linux 6.12).
    peak_restarted: bool,
    /// What the box holds that is not the run's, bytes: its init, the
    /// program's process before its exec, its file system (the program's
    /// copied directory included). Measured at the last reset, raised by
    /// [`RunGroup::hold`]; the memory limit is the run's above it.
    held: u64,
}

static SEQ: AtomicU64 = AtomicU64::new(0);

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    let path = path.to_path_buf();
    move |source| Error::Cgroup { path, source }
}

fn write(path: &Path, value: &str) -> Result<(), Error> {
    std::fs::write(path, value).map_err(io_err(path))
}

/// The value of `key` in the text of a flat keyed file (`memory.events`,
/// `cpu.stat`, `memory.oom_control`).
fn keyed(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

/// A counter file of a run's cgroup, opened once (while the box is
/// prepared) and re-read in place: reading a cgroup file from offset 0
/// produces it afresh.
#[derive(Debug)]
struct Counter(Option<std::fs::File>);

impl Counter {
    fn open(path: &Path) -> Counter {
        Counter(std::fs::File::open(path).ok())
    }

    /// Opened for reading and writing where it may be (a v2 peak that
    /// takes a reset), for reading otherwise.
    fn open_writable(path: &Path) -> Counter {
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
        {
            Ok(file) => Counter(Some(file)),
            Err(_) => Counter::open(path),
        }
    }

    /// Restarts a v2 peak for later reads through this descriptor;
    /// whether the kernel took it.
    fn restart_peak(&self) -> bool {
        use std::io::Write;
        self.0
            .as_ref()
            .is_some_and(|mut f| f.write_all(b"reset\n").is_ok())
    }

    fn text(&self) -> Option<String> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 1024];
        let n = self.0.as_ref()?.read_at(&mut buf, 0).ok()?;
        String::from_utf8(buf[..n].to_vec()).ok()
    }

    fn value(&self) -> Option<u64> {
        self.text()?.trim().parse().ok()
    }

    fn keyed(&self, key: &str) -> Option<u64> {
        keyed(&self.text()?, key)
    }
}

/// The files a run's measurements are read from.
#[derive(Debug)]
struct Counters {
    /// v2 `cpu.stat`, v1 `cpuacct.usage`.
    cpu: Counter,
    /// v2 `memory.peak`, v1 `memory.max_usage_in_bytes`.
    peak: Counter,
    /// v2 `memory.events`, v1 `memory.oom_control`.
    events: Counter,
    /// v1 `memory.failcnt`.
    failcnt: Counter,
    /// v2 `memory.current`, v1 `memory.usage_in_bytes`.
    current: Counter,
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
                let group = RunGroup {
                    kind: Measurement::CgroupV2,
                    procs: vec![dir.join("cgroup.procs")],
                    base: Usage::default(),
                    counters: Counters {
                        cpu: Counter::open(&dir.join("cpu.stat")),
                        peak: Counter::open_writable(&dir.join("memory.peak")),
                        events: Counter::open(&dir.join("memory.events")),
                        failcnt: Counter(None),
                        current: Counter::open(&dir.join("memory.current")),
                    },
                    dirs: vec![dir.clone()],
                    pids: *pids,
                    peak_restarted: false,
                    held: 0,
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
                let (mem, cpu) = (&dirs[0], &dirs[1]);
                let group = RunGroup {
                    kind: Measurement::CgroupV1,
                    procs: dirs.iter().map(|d| d.join("cgroup.procs")).collect(),
                    base: Usage::default(),
                    counters: Counters {
                        cpu: Counter::open(&cpu.join("cpuacct.usage")),
                        peak: Counter::open(&mem.join("memory.max_usage_in_bytes")),
                        events: Counter::open(&mem.join("memory.oom_control")),
                        failcnt: Counter::open(&mem.join("memory.failcnt")),
                        current: Counter::open(&mem.join("memory.usage_in_bytes")),
                    },
                    dirs,
                    pids: true,
                    peak_restarted: false,
                    held: 0,
                };
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

    /// Sets the memory limit to `memory` (from `old`, the one in force:
    /// with swap accounted, `memsw` may never be below the memory limit)
    /// and the process limit. See [`RunGroup::limit_for`].
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
        if !self.pids {
            return Ok(());
        }
        write(
            &self.dirs.last().unwrap_or(dir).join("pids.max"),
            &processes.to_string(),
        )
    }

    /// Starts counting afresh: what the group used so far (building a box,
    /// or a kept box's earlier run) is not the run's. Restarts the v1 peak,
    /// and the v2 peak where the kernel can (see [`RunGroup::peak_restarted`]).
    pub fn reset(&mut self) {
        self.peak_restarted = match self.kind {
            Measurement::CgroupV1 => {
                std::fs::write(self.dirs[0].join("memory.max_usage_in_bytes"), "0").is_ok()
            }
            _ => self.counters.peak.restart_peak(),
        };
        self.base = Usage::default();
        self.base = self.usage();
        self.base.peak_bytes = None;
        self.held = self.counters.current.value().unwrap_or(0);
    }

    /// Counts `bytes` more as the box's, not the run's: a fresh box's
    /// copy of the program's directory, made after the reset.
    pub fn hold(&mut self, bytes: u64) {
        self.held += bytes;
    }

    /// What the box holds that is not the run's (bytes).
    pub fn held(&self) -> u64 {
        self.held
    }

    /// The cgroup's memory limit for a run limited to `memory`: the run's
    /// own above what the box holds.
    pub fn limit_for(&self, memory: u64) -> u64 {
        memory.saturating_add(self.held)
    }

    /// Whether the last [`RunGroup::reset`] restarted the peak: a group
    /// whose peak keeps an earlier run's cannot measure another run.
    pub fn peak_restarted(&self) -> bool {
        self.peak_restarted
    }

    /// CPU time of the whole tree so far, nanoseconds.
    pub fn cpu_ns(&self) -> u64 {
        let total = match self.kind {
            Measurement::CgroupV2 => self.counters.cpu.keyed("usage_usec").map(|us| us * 1000),
            _ => self.counters.cpu.value(),
        };
        total.unwrap_or(0).saturating_sub(self.base.cpu_ns)
    }

    /// Everything measured since the last reset, read after the run.
    pub fn usage(&self) -> Usage {
        let c = &self.counters;
        let hits = match self.kind {
            Measurement::CgroupV2 => c.events.keyed("max"),
            _ => c.failcnt.value(),
        };
        Usage {
            cpu_ns: self.cpu_ns(),
            peak_bytes: c.peak.value().map(|peak| peak.saturating_sub(self.held)),
            oom_kills: c
                .events
                .keyed("oom_kill")
                .unwrap_or(0)
                .saturating_sub(self.base.oom_kills),
            limit_hits: hits.unwrap_or(0).saturating_sub(self.base.limit_hits),
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
        let counter = Counter::open(&path);
        assert_eq!(counter.keyed("max"), Some(3));
        assert_eq!(counter.keyed("oom_kill"), Some(1));
        assert_eq!(counter.keyed("oom_group_kill"), None);
        // Read in place again: the file as it is now, not as first read.
        std::fs::write(&path, "max 4\noom_kill 1\n").unwrap();
        assert_eq!(counter.keyed("max"), Some(4));
    }
}
