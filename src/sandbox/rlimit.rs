//! The `rlimit` tier: process group, rlimits, `wait4` and a watchdog thread.
//! See the theory of operation in the parent module.

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::limits::{ProcessLimit, Rlimits};
use super::outcome::{classify, own_peak_kib, rusage_peak_kib, Ending, Stopped};
use super::stdio::open_stdio;
use super::{Error, Limits, Measurement, Outcome, RunSpec, Runner};

/// How often the watchdog samples a running program.
const POLL: Duration = Duration::from_millis(5);

/// The plain tier: no isolation, exact limits.
#[derive(Debug, Default, Clone)]
pub struct RlimitSandbox;

impl Runner for RlimitSandbox {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error> {
        let [stdin, stdout, stderr] = open_stdio(spec)?;
        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .env_clear()
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&spec.cwd)
            .stdin(std::process::Stdio::from(stdin))
            .stdout(std::process::Stdio::from(stdout))
            .stderr(std::process::Stdio::from(stderr));
        let limits = spec.limits;
        // See `ProcessLimit::NotByRlimit`: the program runs as the judge.
        let rlimits = limits.rlimits(ProcessLimit::NotByRlimit);
        // SAFETY: the closure runs between fork and exec and calls only
        // async-signal-safe functions (setpgid, setrlimit) on data made
        // before the fork; it allocates nothing.
        unsafe {
            command.pre_exec(move || set_limits(&rlimits));
        }

        let program = spec.program.display().to_string();
        // The child starts as a copy of the judge: its peak is at least ours.
        let inherited_kib = own_peak_kib();
        let start = Instant::now();
        let child = command.spawn().map_err(|source| Error::Spawn {
            program: program.clone(),
            source,
        })?;
        let pid = child.id() as libc::pid_t;

        let (done_tx, done_rx) = mpsc::channel::<()>();
        let watchdog = std::thread::spawn(move || watch(pid, limits, start, done_rx));

        let waited = wait4(pid);
        let wall = start.elapsed();
        let _ = done_tx.send(());
        let (stopped, sampled_kib) = watchdog.join().unwrap_or((None, 0));
        // Kill whatever the program left behind in its process group.
        // SAFETY: plain syscall; the group id is the child's pid (setpgid(0, 0)).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let (status, usage) = waited.map_err(|source| Error::Wait { program, source })?;

        let cpu = timeval_ms(usage.ru_utime) + timeval_ms(usage.ru_stime);
        let peak = rusage_peak_kib(usage.ru_maxrss as u64, inherited_kib, sampled_kib);
        let ending = Ending {
            status: Some(status),
            stopped,
            cpu_ms: cpu,
            memory_kib: peak.own,
            ..Ending::default()
        };
        Ok(Outcome {
            termination: classify(&ending, &limits),
            cpu_ms: cpu,
            wall_ms: wall.as_millis() as u64,
            memory_kib: peak.reported,
            measured_by: Measurement::Rusage,
        })
    }

    fn describe(&self) -> String {
        "isolation: none (rlimits and a process group); measurement: rusage".to_string()
    }
}

/// Runs in the child between fork and exec: its own process group (so
/// the whole group can be killed), then the rlimits.
fn set_limits(rlimits: &Rlimits) -> std::io::Result<()> {
    // SAFETY: plain syscall.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    rlimits.apply()
}

/// The watchdog: returns the limit it enforced (if any) and the peak RSS it sampled.
fn watch(
    pid: libc::pid_t,
    limits: Limits,
    start: Instant,
    done: mpsc::Receiver<()>,
) -> (Option<Stopped>, u64) {
    let mut peak_kib = 0;
    let ticks = clock_ticks();
    let cpu_limit_ms = limits.cpu.as_millis() as u64;
    loop {
        match done.recv_timeout(POLL) {
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            _ => return (None, peak_kib),
        }
        let mut stop = None;
        if start.elapsed() > limits.wall {
            stop = Some(Stopped::Wall);
        }
        if let Some((rss_kib, cpu_ms)) = sample(pid, ticks) {
            peak_kib = peak_kib.max(rss_kib);
            if rss_kib * 1024 > limits.memory {
                stop = Some(Stopped::Memory);
            } else if cpu_ms > cpu_limit_ms + 50 {
                // The rlimit backstop works in whole seconds; this is sharper.
                stop = Some(Stopped::Cpu);
            }
        }
        if let Some(reason) = stop {
            // SAFETY: plain syscall on the child's process group.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
            return (Some(reason), peak_kib);
        }
    }
}

/// Resident memory (KiB) and CPU time (ms) of one process, from `/proc`.
pub(super) fn sample(pid: libc::pid_t, ticks: u64) -> Option<(u64, u64)> {
    let s = stat(pid)?;
    Some((s.rss_kib, s.cpu_ticks * 1000 / ticks.max(1)))
}

/// What `/proc/<pid>/stat` says of a process.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Stat {
    /// Resident memory, KiB.
    pub(super) rss_kib: u64,
    /// CPU time of its threads (user + system), clock ticks.
    pub(super) cpu_ticks: u64,
    /// CPU time of the children it reaped, clock ticks.
    pub(super) reaped_ticks: u64,
}

/// One process's [`Stat`], from `/proc`.
pub(super) fn stat(pid: libc::pid_t) -> Option<Stat> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may contain spaces; fields resume after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // Field numbers (1-based, from proc(5)): utime 14, stime 15, cutime
    // 16, cstime 17, rss 24; `rest` starts at field 3.
    let field = |n: usize| -> Option<u64> { fields.get(n - 3)?.parse().ok() };
    let page_kib = page_size() / 1024;
    Some(Stat {
        rss_kib: field(24)? * page_kib,
        cpu_ticks: field(14)? + field(15)?,
        reaped_ticks: field(16)? + field(17)?,
    })
}

pub(super) fn clock_ticks() -> u64 {
    // SAFETY: plain libc call.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 {
        t as u64
    } else {
        100
    }
}

fn page_size() -> u64 {
    // SAFETY: plain libc call.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as u64
    } else {
        4096
    }
}

fn wait4(pid: libc::pid_t) -> std::io::Result<(libc::c_int, libc::rusage)> {
    let mut status = 0;
    // SAFETY: rusage is plain old data; zeroed is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            return Ok((status, usage));
        }
        let err = std::io::Error::last_os_error();
        if err.kind() != std::io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

fn timeval_ms(tv: libc::timeval) -> u64 {
    tv.tv_sec as u64 * 1000 + tv.tv_usec as u64 / 1000
}
