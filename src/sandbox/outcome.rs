//! How a run ended: the [`Outcome`] both tiers report, and the one
//! classification ([`classify`]) that turns what a tier saw into a
//! [`Termination`], so that the same run ends the same way on every tier.
//!
//! # Precedence
//!
//! A run can break several limits, or break one and then die of
//! something else. The first rule that applies decides:
//!
//! 1. The kernel OOM-killed a process of the run (cgroup `oom_kill`):
//!    [`Termination::MemoryExceeded`].
//! 2. The judge stopped the run for a limit: memory is `MemoryExceeded`,
//!    CPU is `CpuTimeout`, the wall clock is `CpuTimeout` when the CPU
//!    time is over its limit too and `WallTimeout` otherwise.
//! 3. The kernel ended the program for an rlimit: `SIGXCPU` is
//!    `CpuTimeout`, `SIGXFSZ` is `OutputExceeded` (whatever the memory
//!    peak: the flood is what killed it).
//! 4. The CPU time is over the limit: `CpuTimeout`, even after a clean
//!    exit.
//! 5. The memory peak is over the limit: `MemoryExceeded`, whatever the
//!    exit (a program that catches its failed allocation and exits 0
//!    still used more than it was allowed).
//! 6. The program failed (a non-zero exit or a signal) after meeting the
//!    cgroup's memory limit: `MemoryExceeded`, an allocation that could
//!    not be satisfied, however the program reacted to it. Meeting the
//!    limit and then exiting 0 is not: the kernel reclaims page cache at
//!    the limit, and a program writing files meets it harmlessly.
//! 7. Otherwise what the program did: `Signaled(sig)` or `Exited(code)`;
//!    a status never reported (the box's init died first) counts as
//!    `SIGKILL`.

use serde::Serialize;

use super::Limits;

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

/// Above what a process inherited, this much is its own (the pages a
/// clone touches before `execve`: its stack, a few variables).
const INHERITED_SLACK_KIB: u64 = 1024;

/// A run's peak memory where rusage measures it, KiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct RusagePeak {
    /// The figure reported: the program's own peak where it is known, else
    /// the best bound there is.
    pub reported: u64,
    /// The figure held against the memory limit: only what is surely the
    /// program's own.
    pub own: u64,
}

/// A process cloned from a larger one (the judge, or a box's init cloned
/// from it) starts with that one's resident size as its peak, and
/// `ru_maxrss` keeps it across `execve`. So a peak above what was inherited
/// is the program's own; one no larger says only "at most this", and then
/// the watchdog's samples of the box while it ran are the program's own
/// figure (none for a program quicker than a sample: the bound is reported
/// then, and never counts against the limit).
pub(super) fn rusage_peak_kib(
    max_rss_kib: u64,
    inherited_kib: u64,
    sampled_kib: u64,
) -> RusagePeak {
    if max_rss_kib > inherited_kib + INHERITED_SLACK_KIB {
        let own = max_rss_kib.max(sampled_kib);
        RusagePeak { reported: own, own }
    } else if sampled_kib > 0 {
        RusagePeak {
            reported: sampled_kib,
            own: sampled_kib,
        }
    } else {
        RusagePeak {
            reported: max_rss_kib,
            own: 0,
        }
    }
}

/// This process's own peak resident size, KiB.
pub(super) fn own_peak_kib() -> u64 {
    // SAFETY: getrusage writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    usage.ru_maxrss as u64
}

/// Which limit the judge enforced by killing a running program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stopped {
    Wall,
    Cpu,
    Memory,
}

/// Everything a tier knows about how a run ended.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Ending {
    /// The program's wait status; `None` when it was never reported.
    pub(super) status: Option<libc::c_int>,
    /// The limit the judge enforced, if it stopped the run.
    pub(super) stopped: Option<Stopped>,
    pub(super) cpu_ms: u64,
    /// Peak memory, KiB.
    pub(super) memory_kib: u64,
    /// Processes the kernel OOM-killed at the cgroup's memory limit.
    pub(super) oom_kills: u64,
    /// Times the run met the cgroup's memory limit.
    pub(super) limit_hits: u64,
}

/// How the run ended, by the precedence in the module's documentation.
pub(super) fn classify(e: &Ending, limits: &Limits) -> Termination {
    let over_cpu = e.cpu_ms > limits.cpu.as_millis() as u64;
    let over_memory = e.memory_kib.saturating_mul(1024) > limits.memory;
    if e.oom_kills > 0 {
        return Termination::MemoryExceeded;
    }
    match e.stopped {
        Some(Stopped::Memory) => return Termination::MemoryExceeded,
        Some(Stopped::Cpu) => return Termination::CpuTimeout,
        Some(Stopped::Wall) if over_cpu => return Termination::CpuTimeout,
        Some(Stopped::Wall) => return Termination::WallTimeout,
        None => {}
    }
    // A wait status of "killed by SIGKILL" is the signal number itself.
    let status = e.status.unwrap_or(libc::SIGKILL);
    let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
    match signal {
        Some(libc::SIGXCPU) => return Termination::CpuTimeout,
        Some(libc::SIGXFSZ) => return Termination::OutputExceeded,
        _ => {}
    }
    if over_cpu {
        return Termination::CpuTimeout;
    }
    if over_memory {
        return Termination::MemoryExceeded;
    }
    let clean = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    if !clean && e.limit_hits > 0 {
        return Termination::MemoryExceeded;
    }
    match signal {
        Some(sig) => Termination::Signaled(sig),
        None => Termination::Exited(libc::WEXITSTATUS(status)),
    }
}

#[cfg(test)]
mod tests {
    use super::Termination::*;
    use super::*;
    use std::time::Duration;

    /// 1 s of CPU, 3 s of wall clock, 256 MiB.
    fn limits() -> Limits {
        Limits::new(Duration::from_secs(1), 256 << 20).wall(Duration::from_secs(3))
    }

    /// A run that exited with `code`, well within every limit.
    fn exited(code: i32) -> Ending {
        Ending {
            status: Some(code << 8),
            cpu_ms: 10,
            memory_kib: 1000,
            ..Ending::default()
        }
    }

    /// A run killed by `signal`, well within every limit.
    fn killed(signal: i32) -> Ending {
        Ending {
            status: Some(signal),
            ..exited(0)
        }
    }

    impl Ending {
        fn stopped(self, by: Stopped) -> Ending {
            Ending {
                status: None,
                stopped: Some(by),
                ..self
            }
        }
        fn cpu(self, cpu_ms: u64) -> Ending {
            Ending { cpu_ms, ..self }
        }
        /// A peak over the 256 MiB limit.
        fn peak_over(self) -> Ending {
            Ending {
                memory_kib: 300 << 10,
                ..self
            }
        }
        fn oom_killed(self) -> Ending {
            Ending {
                oom_kills: 1,
                ..self
            }
        }
        fn met_memory_limit(self) -> Ending {
            Ending {
                limit_hits: 3,
                ..self
            }
        }
    }

    /// One test a row: `name: what the tier saw => how the run ended`.
    macro_rules! table {
        ($($name:ident: $ending:expr => $want:expr,)*) => {
            $(
                #[test]
                fn $name() {
                    assert_eq!(classify(&$ending, &limits()), $want);
                }
            )*
        };
    }

    table! {
        a_clean_exit_is_exited: exited(0) => Exited(0),
        a_non_zero_exit_is_exited_with_its_code: exited(3) => Exited(3),
        a_signal_of_its_own_is_signaled: killed(libc::SIGSEGV) => Signaled(libc::SIGSEGV),
        an_oom_kill_is_memory_exceeded: killed(libc::SIGKILL).oom_killed() => MemoryExceeded,
        an_oom_kill_beats_the_judge_stopping_it_later:
            exited(0).oom_killed().stopped(Stopped::Wall) => MemoryExceeded,
        the_judge_stopping_it_for_memory_is_memory_exceeded:
            exited(0).stopped(Stopped::Memory) => MemoryExceeded,
        the_judge_stopping_it_for_cpu_is_cpu_timeout:
            exited(0).stopped(Stopped::Cpu).cpu(1050) => CpuTimeout,
        the_wall_clock_with_cpu_to_spare_is_wall_timeout:
            exited(0).stopped(Stopped::Wall) => WallTimeout,
        the_wall_clock_with_cpu_over_its_limit_is_cpu_timeout:
            exited(0).stopped(Stopped::Wall).cpu(1500) => CpuTimeout,
        the_judge_stopping_it_for_cpu_beats_a_peak_over_the_memory_limit:
            exited(0).stopped(Stopped::Cpu).peak_over() => CpuTimeout,
        sigxcpu_is_cpu_timeout: killed(libc::SIGXCPU).cpu(2000) => CpuTimeout,
        sigxcpu_after_a_peak_over_the_memory_limit_is_cpu_timeout:
            killed(libc::SIGXCPU).cpu(2000).peak_over() => CpuTimeout,
        sigxfsz_is_output_exceeded: killed(libc::SIGXFSZ) => OutputExceeded,
        sigxfsz_after_a_peak_over_the_memory_limit_is_output_exceeded:
            killed(libc::SIGXFSZ).peak_over() => OutputExceeded,
        sigxfsz_after_meeting_the_cgroup_memory_limit_is_output_exceeded:
            killed(libc::SIGXFSZ).met_memory_limit() => OutputExceeded,
        sigxfsz_with_cpu_over_its_limit_is_output_exceeded:
            killed(libc::SIGXFSZ).cpu(1200) => OutputExceeded,
        cpu_over_its_limit_is_cpu_timeout_even_after_a_clean_exit:
            exited(0).cpu(1001) => CpuTimeout,
        cpu_and_memory_both_over_is_cpu_timeout: exited(0).cpu(1200).peak_over() => CpuTimeout,
        a_peak_over_the_memory_limit_then_exit_zero_is_memory_exceeded:
            exited(0).peak_over() => MemoryExceeded,
        a_peak_over_the_memory_limit_then_a_crash_is_memory_exceeded:
            killed(libc::SIGABRT).peak_over() => MemoryExceeded,
        a_peak_over_the_memory_limit_then_a_failing_exit_is_memory_exceeded:
            exited(3).peak_over() => MemoryExceeded,
        failing_after_meeting_the_cgroup_memory_limit_is_memory_exceeded:
            exited(1).met_memory_limit() => MemoryExceeded,
        a_crash_after_meeting_the_cgroup_memory_limit_is_memory_exceeded:
            killed(libc::SIGSEGV).met_memory_limit() => MemoryExceeded,
        meeting_the_cgroup_memory_limit_then_exiting_cleanly_is_exited:
            exited(0).met_memory_limit() => Exited(0),
        a_status_never_reported_is_signaled_by_sigkill:
            Ending { status: None, ..exited(0) } => Signaled(libc::SIGKILL),
    }

    #[test]
    fn a_rusage_peak_counts_only_above_what_was_inherited() {
        // (ru_maxrss, inherited, sampled) -> (reported, own)
        let table = [
            ((200_000, 180_000, 0), (200_000, 200_000)),
            ((180_000, 180_000, 900), (900, 900)),
            ((180_500, 180_000, 0), (180_500, 0)),
            ((300_000, 180_000, 310_000), (310_000, 310_000)),
            ((2_000, 0, 0), (2_000, 2_000)),
        ];
        for ((rss, inherited, sampled), want) in table {
            let peak = rusage_peak_kib(rss, inherited, sampled);
            assert_eq!(
                (peak.reported, peak.own),
                want,
                "{rss} {inherited} {sampled}"
            );
        }
    }
}
