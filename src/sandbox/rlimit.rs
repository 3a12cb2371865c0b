//! The `rlimit` tier: process group, rlimits, `wait4` and a watchdog thread.
//! See the theory of operation in the parent module.

use std::fs::File;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{Error, Limits, Measurement, Outcome, RunSpec, Runner, Termination};

/// How often the watchdog samples a running program.
const POLL: Duration = Duration::from_millis(5);

/// The plain tier: no isolation, exact limits.
#[derive(Debug, Default, Clone)]
pub struct RlimitSandbox;

/// The limit the watchdog enforced, if any.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stopped {
    Wall,
    Memory,
    Cpu,
}

impl Runner for RlimitSandbox {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error> {
        let open = |path: &std::path::Path, write: bool| {
            let f = if write {
                File::create(path)
            } else {
                File::open(path)
            };
            f.map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })
        };
        let stdin = match &spec.stdin {
            Some(path) => Stdio::from(open(path, false)?),
            None => Stdio::null(),
        };
        let stdout = Stdio::from(open(&spec.stdout, true)?);
        let stderr = Stdio::from(open(&spec.stderr, true)?);

        let mut command = Command::new(&spec.program);
        command
            .args(&spec.args)
            .env_clear()
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            .current_dir(&spec.cwd)
            .stdin(stdin)
            .stdout(stdout)
            .stderr(stderr);
        let limits = spec.limits;
        // SAFETY: the closure runs between fork and exec and calls only
        // async-signal-safe functions (setpgid, setrlimit); it allocates nothing.
        unsafe {
            command.pre_exec(move || set_limits(&limits));
        }

        let program = spec.program.display().to_string();
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
        let memory_kib = (usage.ru_maxrss as u64).max(sampled_kib);
        let termination = classify(status, stopped, cpu, memory_kib, &limits);
        Ok(Outcome {
            termination,
            cpu_ms: cpu,
            wall_ms: wall.as_millis() as u64,
            memory_kib,
            measured_by: Measurement::Rusage,
        })
    }

    fn describe(&self) -> String {
        "isolation: none (rlimits and a process group); measurement: rusage".to_string()
    }
}

fn classify(
    status: libc::c_int,
    stopped: Option<Stopped>,
    cpu_ms: u64,
    memory_kib: u64,
    limits: &Limits,
) -> Termination {
    let over_cpu = cpu_ms > limits.cpu.as_millis() as u64;
    let over_memory = memory_kib * 1024 > limits.memory;
    match stopped {
        Some(Stopped::Memory) => return Termination::MemoryExceeded,
        Some(Stopped::Cpu) => return Termination::CpuTimeout,
        Some(Stopped::Wall) if !over_cpu => return Termination::WallTimeout,
        Some(Stopped::Wall) => return Termination::CpuTimeout,
        None => {}
    }
    if over_cpu {
        return Termination::CpuTimeout;
    }
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        return match sig {
            libc::SIGXCPU => Termination::CpuTimeout,
            libc::SIGXFSZ => Termination::OutputExceeded,
            _ if over_memory => Termination::MemoryExceeded,
            _ => Termination::Signaled(sig),
        };
    }
    if over_memory {
        return Termination::MemoryExceeded;
    }
    Termination::Exited(libc::WEXITSTATUS(status))
}

/// Runs in the child between fork and exec.
fn set_limits(limits: &Limits) -> std::io::Result<()> {
    fn set(resource: libc::__rlimit_resource_t, soft: u64, hard: u64) -> std::io::Result<()> {
        let lim = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        // SAFETY: plain syscall with a valid pointer.
        if unsafe { libc::setrlimit(resource, &lim) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
    // SAFETY: plain syscall.
    if unsafe { libc::setpgid(0, 0) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let cpu_s = limits.cpu.as_secs() + 1;
    set(libc::RLIMIT_CPU, cpu_s, cpu_s + 1)?;
    set(libc::RLIMIT_FSIZE, limits.output, limits.output)?;
    set(libc::RLIMIT_STACK, limits.memory, limits.memory)?;
    set(libc::RLIMIT_NOFILE, limits.open_files, limits.open_files)?;
    set(libc::RLIMIT_CORE, 0, 0)?;
    Ok(())
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
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may contain spaces; fields resume after the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // Field numbers (1-based, from proc(5)): utime 14, stime 15, rss 24;
    // `rest` starts at field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    let rss_pages: u64 = fields.get(21)?.parse().ok()?;
    let page_kib = page_size() / 1024;
    Some((rss_pages * page_kib, (utime + stime) * 1000 / ticks.max(1)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> Limits {
        Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(3),
            memory: 256 << 20,
            output: 1 << 20,
            open_files: 64,
            processes: 64,
        }
    }

    fn exited(code: i32) -> libc::c_int {
        code << 8
    }

    #[test]
    fn clean_exit_is_exited() {
        let t = classify(exited(0), None, 10, 1000, &limits());
        assert_eq!(t, Termination::Exited(0));
    }

    #[test]
    fn cpu_over_limit_is_timeout_even_when_exited() {
        let t = classify(exited(0), None, 1001, 1000, &limits());
        assert_eq!(t, Termination::CpuTimeout);
    }

    #[test]
    fn sigxfsz_is_output_exceeded() {
        let t = classify(libc::SIGXFSZ, None, 10, 1000, &limits());
        assert_eq!(t, Termination::OutputExceeded);
    }

    #[test]
    fn crash_above_memory_limit_is_memory_exceeded() {
        let t = classify(libc::SIGABRT, None, 10, 300 * 1024, &limits());
        assert_eq!(t, Termination::MemoryExceeded);
    }

    #[test]
    fn sleeping_program_stopped_by_wall_is_wall_timeout() {
        let t = classify(libc::SIGKILL, Some(Stopped::Wall), 1, 1000, &limits());
        assert_eq!(t, Termination::WallTimeout);
    }
}
