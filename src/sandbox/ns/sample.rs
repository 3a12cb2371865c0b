//! What the watchdog reads of a box without a cgroup, from `/proc`, each
//! time it looks (every 10 ms): the CPU time and the memory of every
//! process of the box, and the memory the kernel holds for them.
//!
//! A cgroup would count all of it; without one, what the kernel keeps for
//! a process outside the pages it maps must be counted here, or a program
//! could hold hundreds of MiB that no resident size shows:
//!
//! * **page tables** (`VmPTE`): reading the zero page across a huge
//!   mapping makes page tables and no resident pages;
//! * **pipes**: each holds at most its default sixteen pages (the seccomp
//!   filter refuses `F_SETPIPE_SZ` without a cgroup), counted full;
//! * **sockets**: the run has a network namespace of its own, so its
//!   sockets are the namespace's (`/proc/<pid>/net/sockstat`, in flight
//!   ones included); each holds at most its send and receive buffers at
//!   their default sizes (the filter refuses raising them), counted full.
//!
//! Pipes and sockets are counted at the most they can hold, not what they
//! hold now: the kernel tells no process what a local socket's buffers
//! hold, and a buffer fills faster than one sample to the next. A program
//! with a few of them is charged a few hundred KiB; one that makes
//! thousands to hide memory is stopped past its limit.

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::sandbox::rlimit;

/// One look at a box.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sample {
    /// CPU ticks of the children init reaped.
    pub(super) reaped: u64,
    /// CPU time (ns) of every other process (its own and what it reaped).
    pub(super) cpu_ns: u64,
    /// Resident memory (each shared page once, when there are several
    /// processes), page tables, and the most the run's pipes and sockets
    /// can hold, KiB.
    pub(super) memory_kib: u64,
}

/// Every process of the box below its init. Processes of a box can only
/// be descendants of its init: orphans are reparented to it.
pub(super) fn sample_box(init: libc::pid_t) -> Option<Sample> {
    let reaped = rlimit::stat(init)?.reaped_ticks;
    let tick_ns = 1_000_000_000 / rlimit::clock_ticks().max(1);
    let mut cpu_ns = 0;
    let mut rss_kib = 0;
    let mut kernel_kib = 0;
    let mut pipes = HashSet::new();
    let mut processes = Vec::new();
    let mut pending = vec![init];
    let mut seen = 0usize;
    while let Some(pid) = pending.pop() {
        // A fork bomb is stopped by the process limit; never loop on one.
        seen += 1;
        if seen > 100_000 {
            break;
        }
        if pid != init {
            if let Some(s) = rlimit::stat(pid) {
                // Whole ticks round each process down: many short-lived
                // processes would hide their time. The scheduler's own
                // count is exact where the kernel keeps it.
                cpu_ns += (s.cpu_ticks * tick_ns).max(scheduled_ns(pid)) + s.reaped_ticks * tick_ns;
                rss_kib += s.rss_kib;
                kernel_kib += page_tables_kib(pid);
                add_pipes(pid, &mut pipes);
                processes.push((pid, s.rss_kib));
            }
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for task in tasks.flatten() {
            let children =
                std::fs::read_to_string(task.path().join("children")).unwrap_or_default();
            pending.extend(
                children
                    .split_whitespace()
                    .filter_map(|c| c.parse::<libc::pid_t>().ok()),
            );
        }
    }
    if processes.len() > 1 {
        // Forked processes share pages: count each page once, split
        // among its sharers (PSS), where the kernel tells it.
        rss_kib = processes
            .iter()
            .map(|&(pid, rss)| proportional_kib(pid).unwrap_or(rss))
            .sum();
    }
    kernel_kib += pipes.len() as u64 * pipe_kib();
    if let Some(&(pid, _)) = processes.first() {
        kernel_kib += sockets(pid) * socket_kib();
    }
    Some(Sample {
        reaped,
        cpu_ns,
        memory_kib: rss_kib + kernel_kib,
    })
}

/// The CPU time the scheduler counted for process `pid`'s threads
/// (`schedstat`, nanoseconds), or 0 where the kernel keeps none. A
/// zombie's exited threads are not in it (its ticks are).
fn scheduled_ns(pid: libc::pid_t) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|text| text.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// A process's proportional set size (KiB), from `smaps_rollup`.
fn proportional_kib(pid: libc::pid_t) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    kib_field(&text, "Pss:")
}

/// A process's page tables (KiB, every level), from `status`.
fn page_tables_kib(pid: libc::pid_t) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|text| kib_field(&text, "VmPTE:"))
        .unwrap_or(0)
}

/// The number after `name` on its line of a `/proc` file in KiB.
fn kib_field(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Adds the pipes process `pid` holds open to `pipes` (by inode: a pipe's
/// two ends, or one end in several processes, are one pipe).
fn add_pipes(pid: libc::pid_t, pipes: &mut HashSet<u64>) {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return;
    };
    for fd in fds.flatten() {
        let Ok(target) = std::fs::read_link(fd.path()) else {
            continue;
        };
        let inode = target
            .to_str()
            .and_then(|t| t.strip_prefix("pipe:["))
            .and_then(|t| t.strip_suffix(']'))
            .and_then(|n| n.parse().ok());
        if let Some(inode) = inode {
            pipes.insert(inode);
        }
    }
}

/// The sockets of the network namespace process `pid` is in (`sockets:
/// used` of its `net/sockstat`).
fn sockets(pid: libc::pid_t) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/net/sockstat"))
        .ok()
        .and_then(|text| {
            let rest = text.lines().next()?.strip_prefix("sockets: used ")?;
            rest.trim().parse().ok()
        })
        .unwrap_or(0)
}

/// The most a pipe holds at its default size (sixteen pages), KiB.
fn pipe_kib() -> u64 {
    static KIB: OnceLock<u64> = OnceLock::new();
    *KIB.get_or_init(|| {
        // SAFETY: a plain query.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        16 * u64::try_from(page).unwrap_or(4096) / 1024
    })
}

/// The most a socket holds at the kernel's default buffer sizes, KiB: a
/// full send buffer plus one more message the kernel lets past it, or a
/// full receive buffer likewise (twice the larger default).
fn socket_kib() -> u64 {
    static KIB: OnceLock<u64> = OnceLock::new();
    *KIB.get_or_init(|| {
        let read = |name: &str| {
            std::fs::read_to_string(format!("/proc/sys/net/core/{name}"))
                .ok()
                .and_then(|t| t.trim().parse::<u64>().ok())
                .unwrap_or(212_992)
        };
        2 * read("wmem_default").max(read("rmem_default")) / 1024
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kib_field_is_read_from_its_own_line() {
        let status = "Name:\tx\nVmRSS:\t  1200 kB\nVmPTE:\t    48 kB\n";
        assert_eq!(kib_field(status, "VmPTE:"), Some(48));
        assert_eq!(kib_field(status, "VmRSS:"), Some(1200));
        assert_eq!(kib_field(status, "VmSwap:"), None);
    }

    #[test]
    fn this_process_pipes_are_found_once_each() {
        let mut fds = [0; 2];
        // SAFETY: plain system calls; both ends are closed below.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let mut pipes = HashSet::new();
        add_pipes(std::process::id() as libc::pid_t, &mut pipes);
        let inode = std::fs::read_link(format!("/proc/self/fd/{}", fds[0])).unwrap();
        unsafe {
            libc::close(fds[0]);
            libc::close(fds[1]);
        }
        let inode: u64 = inode.to_str().unwrap()[6..]
            .trim_end_matches(']')
            .parse()
            .unwrap();
        assert!(pipes.contains(&inode), "{pipes:?} lacks {inode}");
        assert!(socket_kib() >= 64 && pipe_kib() >= 64);
    }
}
