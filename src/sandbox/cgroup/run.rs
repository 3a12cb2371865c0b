//! One run's cgroup (v2: one directory; v1: one in each of the memory,
//! cpuacct and pids hierarchies): the limits written for the run, the
//! counters read after it (opened once, re-read in place), the kill of
//! everything in it, and its removal.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use super::write;
use crate::sandbox::{Error, Measurement};

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
    /// v1's `memory.memsw.limit_in_bytes`, where swap is accounted.
    memsw: Option<PathBuf>,
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

    /// Opened for reading and writing where it may be (a peak that takes
    /// a reset), for reading otherwise.
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

    /// Restarts a peak by writing `reset` to it (v1: the whole group's;
    /// v2: for later reads through this descriptor); whether the kernel
    /// took it.
    fn restart_peak(&self, reset: &[u8]) -> bool {
        use std::io::Write;
        self.0
            .as_ref()
            .is_some_and(|mut f| f.write_all(reset).is_ok())
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

impl RunGroup {
    /// The run's cgroup v2 at `dir` (made), limited to `memory` bytes and
    /// `processes` (by `pids.max` where `pids`).
    pub(super) fn v2(
        dir: PathBuf,
        pids: bool,
        memory: u64,
        processes: u64,
    ) -> Result<RunGroup, Error> {
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
            pids,
            memsw: None,
            peak_restarted: false,
            held: 0,
        };
        // Absent when swap is not accounted: nothing to limit then.
        let _ = std::fs::write(dir.join("memory.swap.max"), "0");
        let _ = std::fs::write(dir.join("memory.oom.group"), "1");
        group.set_limits((u64::MAX, u64::MAX), (memory, processes))?;
        Ok(group)
    }

    /// The run's cgroups v1 (made): its memory, cpuacct and pids
    /// directories, in that order, limited as [`RunGroup::v2`].
    pub(super) fn v1(dirs: Vec<PathBuf>, memory: u64, processes: u64) -> Result<RunGroup, Error> {
        let (mem, cpu) = (&dirs[0], &dirs[1]);
        // Present only where swap is accounted.
        let memsw = Some(mem.join("memory.memsw.limit_in_bytes")).filter(|p| p.exists());
        let group = RunGroup {
            kind: Measurement::CgroupV1,
            procs: dirs.iter().map(|d| d.join("cgroup.procs")).collect(),
            base: Usage::default(),
            counters: Counters {
                cpu: Counter::open(&cpu.join("cpuacct.usage")),
                peak: Counter::open_writable(&mem.join("memory.max_usage_in_bytes")),
                events: Counter::open(&mem.join("memory.oom_control")),
                failcnt: Counter::open(&mem.join("memory.failcnt")),
                current: Counter::open(&mem.join("memory.usage_in_bytes")),
            },
            dirs,
            pids: true,
            memsw,
            peak_restarted: false,
            held: 0,
        };
        let _ = std::fs::write(group.dirs[0].join("memory.swappiness"), "0");
        group.set_limits((u64::MAX, u64::MAX), (memory, processes))?;
        Ok(group)
    }
}

impl RunGroup {
    pub fn kind(&self) -> Measurement {
        self.kind
    }

    /// Moves process `pid` (a host pid) into the run's cgroup(s).
    ///
    /// Moving another process takes the kernel's global threadgroup lock
    /// for writing, which waits for an RCU grace period once the lock has
    /// been idle (milliseconds, and every `fork` and `exit` of the machine
    /// waits meanwhile). Where it can, a box's init moves itself instead
    /// (see [`RunGroup::entrances`]).
    ///
    /// # Errors
    /// When the kernel refuses.
    pub fn attach(&self, pid: libc::pid_t) -> Result<(), Error> {
        for procs in &self.procs {
            write(procs, &pid.to_string())?;
        }
        Ok(())
    }

    /// v1: the run's `tasks` files, opened for writing here, through which
    /// a single-threaded process moves itself into the run's cgroups by
    /// writing `0` to each. That move skips the global lock that
    /// [`RunGroup::attach`] takes (microseconds instead of milliseconds),
    /// and the kernel checks the credentials of the descriptor's opener,
    /// the judge. `None` on v2 (a process moving itself there takes the
    /// lock all the same) or where a file cannot be opened.
    pub fn entrances(&self) -> Option<Vec<std::os::fd::OwnedFd>> {
        if self.kind != Measurement::CgroupV1 {
            return None;
        }
        self.dirs
            .iter()
            .map(|dir| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(dir.join("tasks"))
                    .map(std::os::fd::OwnedFd::from)
                    .ok()
            })
            .collect()
    }

    /// Sets the memory and process limits to `(memory, processes)` where
    /// they differ from `old`, those in force (with swap accounted, `memsw`
    /// may never be below the memory limit). See [`RunGroup::limit_for`].
    ///
    /// # Errors
    /// When the kernel refuses a limit.
    pub fn set_limits(
        &self,
        old: (u64, u64),
        (memory, processes): (u64, u64),
    ) -> Result<(), Error> {
        let dir = &self.dirs[0];
        if memory != old.0 {
            let value = memory.to_string();
            match self.kind {
                Measurement::CgroupV2 => write(&dir.join("memory.max"), &value)?,
                _ => {
                    let limit = dir.join("memory.limit_in_bytes");
                    if memory > old.0 {
                        if let Some(memsw) = &self.memsw {
                            write(memsw, &value)?;
                        }
                        write(&limit, &value)?;
                    } else {
                        write(&limit, &value)?;
                        if let Some(memsw) = &self.memsw {
                            write(memsw, &value)?;
                        }
                    }
                }
            }
        }
        if !self.pids || processes == old.1 {
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
        self.peak_restarted = self.counters.peak.restart_peak(match self.kind {
            Measurement::CgroupV1 => b"0",
            _ => b"reset\n",
        });
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
