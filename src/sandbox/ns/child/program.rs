//! The program's process, from init's fork to its `execve`.

use std::os::fd::RawFd;

use super::{check, close_all_but, fail, raw_setgroups, raw_setresgid, raw_setresuid, Prep};
use crate::sandbox::ns::job::slice;
use crate::sandbox::ns::wire::{self, Control, Step};
use crate::sandbox::ns::{Users, BOX_ID};

/// The program's process, forked by init while the box is prepared:
/// signals, session, its own IPC namespace (its network namespace is
/// init's doing), user, capabilities, `no_new_privs` and seccomp now;
/// then, once init has built the run's file system and handed over the
/// stdio (on `init_end`): stdio, working directory, rlimits, exec.
pub(super) unsafe fn program(prep: &Prep, init_end: RawFd) -> ! {
    let report = prep.report;
    close_all_but(&[init_end, report]);
    reset_signals();
    // Every run's own: nothing of an earlier run's System V or POSIX IPC
    // reaches it.
    check(libc::unshare(libc::CLONE_NEWIPC), report, Step::Ipc);
    lock_down(prep);
    // Armed; an init that is gone already will not read it.
    Control::Armed.send(init_end);

    let Some(stdio) = wire::receive_run(init_end) else {
        // The box was dropped unused, or init failed (and said why).
        libc::_exit(126)
    };
    let job = &*prep.job;
    take_stdio(&stdio, report);
    check(libc::chdir(job.cwd), report, Step::Chdir);
    for r in slice(job.rlimits, job.n_rlimits) {
        let lim = libc::rlimit {
            rlim_cur: r.soft,
            rlim_max: r.hard,
        };
        check(libc::setrlimit(r.resource, &lim), report, Step::Rlimit);
    }
    libc::execve(job.program, job.argv, job.envp);
    fail(report, Step::Exec)
}

/// Puts `SIGPIPE` and the signal mask back to defaults (the judge ignores
/// `SIGPIPE`, as Rust does; the program must not inherit that) and starts
/// a session.
unsafe fn reset_signals() {
    libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut set);
    libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    libc::setsid();
}

/// Becomes the box user with no capabilities in any set, sets
/// `no_new_privs` and installs the seccomp filter.
unsafe fn lock_down(prep: &Prep) {
    let report = prep.report;
    let (uid, gid) = match prep.users {
        Users::Namespace => (BOX_ID, BOX_ID),
        Users::Setuid => (prep.host_uid, prep.host_gid),
    };
    if prep.drop_groups {
        // The judge's supplementary groups (root's) stay outside.
        check(raw_setgroups(), report, Step::Groups);
    }
    check(raw_setresgid(gid), report, Step::Setuid);
    check(raw_setresuid(uid), report, Step::Setuid);
    #[repr(C)]
    struct CapHeader {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    struct CapData {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let header = CapHeader {
        version: 0x2008_0522,
        pid: 0,
    };
    let none = || CapData {
        effective: 0,
        permitted: 0,
        inheritable: 0,
    };
    let data = [none(), none()];
    check(
        libc::syscall(libc::SYS_capset, &header as *const CapHeader, data.as_ptr()) as libc::c_int,
        report,
        Step::Caps,
    );
    check(
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
        report,
        Step::NoNewPrivs,
    );
    if let Err(errno) = prep.seccomp.install() {
        *libc::__errno_location() = errno;
        fail(report, Step::Seccomp);
    }
}

/// Puts the run's stdio on 0..2; everything else closes at exec (the
/// report pipe stays open until then).
unsafe fn take_stdio(stdio: &[RawFd; 3], report: RawFd) {
    // Move the stdio descriptors out of the way of 0..2 first, so that one
    // dup2 cannot clobber another's source.
    let mut high = [0; 3];
    for (i, fd) in stdio.iter().enumerate() {
        high[i] = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 10);
        if high[i] < 0 {
            fail(report, Step::Stdio);
        }
    }
    for (i, fd) in high.iter().enumerate() {
        if libc::dup2(*fd, i as RawFd) < 0 {
            fail(report, Step::Stdio);
        }
    }
    const CLOSE_RANGE_CLOEXEC: u32 = 1 << 2;
    libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, CLOSE_RANGE_CLOEXEC);
}
