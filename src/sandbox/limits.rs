//! A run's resource limits, and the rlimits both tiers give the program's
//! process before its exec (one table, so the tiers cannot drift).

use std::time::Duration;

/// Resource limits of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time of the program (user + system).
    pub cpu: Duration,
    /// Wall-clock time.
    pub wall: Duration,
    /// Peak resident memory, bytes.
    pub memory: u64,
    /// Size of any file written, stdout and stderr included, bytes (a
    /// pipe's reader bounds what it takes itself).
    pub output: u64,
    /// Open file descriptors.
    pub open_files: u64,
    /// Processes and threads alive at once, the first one included.
    /// Enforced inside a box only (a cgroup's `pids.max`, or
    /// `RLIMIT_NPROC`); see `ProcessLimit::NotByRlimit` for why the
    /// `rlimit` tier does not.
    pub processes: u64,
}

impl Limits {
    /// `cpu` of CPU time and `memory` bytes, with a wall clock of twice
    /// the CPU time plus a second, 1 MiB of output, 64 open files and 64
    /// processes; the methods below change those.
    pub fn new(cpu: Duration, memory: u64) -> Limits {
        Limits {
            cpu,
            wall: cpu * 2 + Duration::from_secs(1),
            memory,
            output: 1 << 20,
            open_files: 64,
            processes: 64,
        }
    }

    /// Sets the wall-clock limit.
    pub fn wall(self, wall: Duration) -> Limits {
        Limits { wall, ..self }
    }

    /// Sets the output limit, bytes.
    pub fn output(self, output: u64) -> Limits {
        Limits { output, ..self }
    }

    /// Sets the open files limit.
    pub fn open_files(self, open_files: u64) -> Limits {
        Limits { open_files, ..self }
    }

    /// Sets the process limit.
    pub fn processes(self, processes: u64) -> Limits {
        Limits { processes, ..self }
    }
}

/// One rlimit, as C data: the `namespaces` tier writes these into memory
/// shared with the box, which sets them without parsing anything.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rlimit {
    pub(super) resource: libc::__rlimit_resource_t,
    pub(super) soft: u64,
    pub(super) hard: u64,
}

/// The rlimits of one run: a fixed array, so the rlimit tier can set them
/// between fork and exec without allocating.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rlimits {
    items: [Rlimit; 10],
    len: usize,
}

impl Rlimits {
    pub(super) fn as_slice(&self) -> &[Rlimit] {
        &self.items[..self.len]
    }

    /// Sets every rlimit on the calling process; allocates nothing.
    ///
    /// # Errors
    /// The `errno` of the first `setrlimit` that failed.
    pub(super) fn apply(&self) -> std::io::Result<()> {
        for r in self.as_slice() {
            let lim = libc::rlimit {
                rlim_cur: r.soft,
                rlim_max: r.hard,
            };
            // SAFETY: plain system call with a valid pointer.
            if unsafe { libc::setrlimit(r.resource, &lim) } != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
        Ok(())
    }
}

/// Signals a run may have queued at once.
const PENDING_SIGNALS: u64 = 256;
/// Bytes a run may hold in POSIX message queues.
const MESSAGE_QUEUE_BYTES: u64 = 64 << 10;

/// Whether `RLIMIT_NPROC` carries [`Limits::processes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ProcessLimit {
    /// By `RLIMIT_NPROC`: it counts the processes of the run's real uid,
    /// which in a fresh user namespace are this box's alone (without one,
    /// those of every box: the host uid boxes run as).
    Rlimit,
    /// Elsewhere (a cgroup's `pids.max`), or nowhere: on the rlimit tier
    /// the program runs as the judge's own user, whose every process
    /// `RLIMIT_NPROC` would count (root ignores it altogether), so a
    /// limit there would fail runs for what the judge does.
    NotByRlimit,
}

impl Limits {
    /// The rlimits of a run under these limits:
    ///
    /// * `RLIMIT_CPU`, a backstop a second above the CPU limit the judge
    ///   enforces (`SIGXCPU`, then `SIGKILL` a second later);
    /// * `RLIMIT_FSIZE` = the output limit, so a flood dies of `SIGXFSZ`
    ///   and is never buffered;
    /// * `RLIMIT_STACK` = the memory limit, so deep recursion works;
    /// * `RLIMIT_NOFILE` = the open files limit, `RLIMIT_CORE` = 0;
    /// * `RLIMIT_SIGPENDING` and `RLIMIT_MSGQUEUE` small: the kernel
    ///   charges queued signals and POSIX message queues to the judge's
    ///   uid as well as the box's, so an unbounded box would deny them to
    ///   every process of that uid on the host;
    /// * `RLIMIT_RTPRIO` and `RLIMIT_NICE` = 0: no real-time priority and
    ///   no nice value below the one it started with, whatever a host
    ///   granted the judge (the limits are inherited, so a host that raised
    ///   them for the judge would raise them for every program);
    /// * `RLIMIT_NPROC` = the process limit, where `processes` says so.
    pub(super) fn rlimits(&self, processes: ProcessLimit) -> Rlimits {
        let cpu_s = self.cpu.as_secs() + 1;
        let rlimit = |resource, soft, hard| Rlimit {
            resource,
            soft,
            hard,
        };
        let mut items = [
            rlimit(libc::RLIMIT_CPU, cpu_s, cpu_s + 1),
            rlimit(libc::RLIMIT_FSIZE, self.output, self.output),
            rlimit(libc::RLIMIT_STACK, self.memory, self.memory),
            rlimit(libc::RLIMIT_NOFILE, self.open_files, self.open_files),
            rlimit(libc::RLIMIT_CORE, 0, 0),
            rlimit(libc::RLIMIT_SIGPENDING, PENDING_SIGNALS, PENDING_SIGNALS),
            rlimit(
                libc::RLIMIT_MSGQUEUE,
                MESSAGE_QUEUE_BYTES,
                MESSAGE_QUEUE_BYTES,
            ),
            rlimit(libc::RLIMIT_RTPRIO, 0, 0),
            rlimit(libc::RLIMIT_NICE, 0, 0),
            // Last: left out where `processes` says so.
            rlimit(libc::RLIMIT_NPROC, self.processes, self.processes),
        ];
        let len = match processes {
            ProcessLimit::Rlimit => items.len(),
            ProcessLimit::NotByRlimit => items.len() - 1,
        };
        items[len..].iter_mut().for_each(|r| *r = rlimit(0, 0, 0));
        Rlimits { items, len }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits::new(Duration::from_millis(1500), 256 << 20).processes(32)
    }

    fn find(r: &Rlimits, resource: libc::__rlimit_resource_t) -> Option<(u64, u64)> {
        r.as_slice()
            .iter()
            .find(|r| r.resource == resource)
            .map(|r| (r.soft, r.hard))
    }

    #[test]
    fn the_cpu_rlimit_is_a_backstop_above_the_limit() {
        let r = limits().rlimits(ProcessLimit::Rlimit);
        assert_eq!(find(&r, libc::RLIMIT_CPU), Some((2, 3)));
    }

    #[test]
    fn output_stack_files_and_core_follow_the_limits() {
        let r = limits().rlimits(ProcessLimit::NotByRlimit);
        assert_eq!(find(&r, libc::RLIMIT_FSIZE), Some((1 << 20, 1 << 20)));
        assert_eq!(find(&r, libc::RLIMIT_STACK), Some((256 << 20, 256 << 20)));
        assert_eq!(find(&r, libc::RLIMIT_NOFILE), Some((64, 64)));
        assert_eq!(find(&r, libc::RLIMIT_CORE), Some((0, 0)));
    }

    #[test]
    fn scheduling_priority_limits_are_zero_on_every_tier() {
        for processes in [ProcessLimit::Rlimit, ProcessLimit::NotByRlimit] {
            let r = limits().rlimits(processes);
            assert_eq!(find(&r, libc::RLIMIT_RTPRIO), Some((0, 0)), "{processes:?}");
            assert_eq!(find(&r, libc::RLIMIT_NICE), Some((0, 0)), "{processes:?}");
        }
    }

    #[test]
    fn the_process_limit_is_an_rlimit_only_where_asked() {
        let with = limits().rlimits(ProcessLimit::Rlimit);
        let without = limits().rlimits(ProcessLimit::NotByRlimit);
        assert_eq!(find(&with, libc::RLIMIT_NPROC), Some((32, 32)));
        assert_eq!(find(&without, libc::RLIMIT_NPROC), None);
    }
}
