//! The child side: everything here runs between `clone` and `execve`, in
//! a child of a possibly multi-threaded judge. System calls only, on
//! memory the parent prepared ([`Prep`], the base plan, the job in shared
//! memory): no allocation, no lock, no unwinding. A failed step is
//! reported on the report pipe ([`fail`]) and ends the process.
//!
//! Three processes run this code: the box's [`init()`] (PID 1 of the box),
//! its helper that builds the base file system as the box user
//! (`build_base` in `init.rs`), and the program's process
//! ([`program`](program::program())). `mod.rs` holds what all three use;
//! `mounts.rs` the mount system calls.

mod init;
mod mounts;
mod net;
mod program;

use std::os::fd::RawFd;

use super::job::Job;
use super::plan::Base;
use super::wire::{Record, Step};
use super::{Users, BOX_ID};
use crate::sandbox::seccomp::Filter;

pub(in crate::sandbox::ns) use init::{init, task_clock};

/// Everything a box's init needs before its run arrives, prepared by the
/// judge before the zygote's fork (the zygote fills in a box's channels
/// and job; each init works on its own copy).
#[derive(Clone, Copy)]
pub(in crate::sandbox::ns) struct Prep<'a> {
    pub(super) base: &'a Base,
    pub(super) users: Users,
    pub(super) host_uid: u32,
    pub(super) host_gid: u32,
    pub(super) drop_groups: bool,
    pub(super) seccomp: &'a Filter,
    /// No cgroup counts the run's CPU: init keeps a task clock (see
    /// `init::task_clock`).
    pub(super) count_cpu: bool,
    /// Init's end of the control socket (the judge's go, then the run).
    pub(super) control: RawFd,
    pub(super) report: RawFd,
    /// Where the run's [`Job`] will be: a slot of the shared region.
    pub(super) job: *const Job,
    /// The shared region of every box's job (start, length): init keeps
    /// only its own slot of it.
    pub(super) region: (usize, usize),
    /// The stack init's helper runs on.
    pub(super) stack: &'a [u8],
}

/// A fork-like `clone` with `flags` (the child continues on a copy of
/// this stack), and `SIGCHLD` to the parent when the child ends; where
/// `flags` holds `CLONE_PIDFD`, the child's pidfd is written to `pidfd`.
/// Raw: the C library's fork would run the judge's fork handlers. The pid
/// in the parent, 0 in the child, negative on failure.
pub(in crate::sandbox::ns) unsafe fn raw_clone(
    flags: libc::c_ulong,
    pidfd: *mut RawFd,
) -> libc::pid_t {
    libc::syscall(
        libc::SYS_clone,
        flags | libc::SIGCHLD as libc::c_ulong,
        0usize,
        pidfd,
        0usize,
        0usize,
    ) as libc::pid_t
}

/// Reports a failed step (with `errno`) to the judge and exits.
unsafe fn fail(report: RawFd, step: Step) -> ! {
    let errno = *libc::__errno_location();
    let mut msg = [0u8; Record::MAX];
    let len = Record::Failed { step, errno }.encode(&mut msg);
    libc::write(report, msg.as_ptr().cast(), len);
    libc::_exit(126)
}

/// Fails `step` unless a system call returned 0.
unsafe fn check(r: libc::c_int, report: RawFd, step: Step) {
    if r != 0 {
        fail(report, step);
    }
}

/// Becomes the (mapped) box user, keeping this namespace's capabilities:
/// an unmapped uid cannot create files on the box's own tmpfs
/// (`EOVERFLOW`). The program drops the capabilities.
unsafe fn become_box_user(prep: &Prep) {
    if prep.drop_groups {
        check(raw_setgroups(), prep.report, Step::Groups);
    }
    check(raw_setresgid(BOX_ID), prep.report, Step::Setuid);
    check(raw_setresuid(BOX_ID), prep.report, Step::Setuid);
}

// The C library's set*id and setgroups apply the change to every thread of
// the process (POSIX), by signalling them and waiting: after a fork-like
// clone of a multi-threaded judge those threads do not exist and the wait
// never ends. The raw system calls change this thread only, which is all
// the child has.
unsafe fn raw_setgroups() -> libc::c_int {
    libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) as libc::c_int
}

unsafe fn raw_setresgid(gid: u32) -> libc::c_int {
    libc::syscall(libc::SYS_setresgid, gid, gid, gid) as libc::c_int
}

unsafe fn raw_setresuid(uid: u32) -> libc::c_int {
    libc::syscall(libc::SYS_setresuid, uid, uid, uid) as libc::c_int
}

/// Puts every signal's disposition back to the default and turns off the
/// alternate signal stack: a clone of the judge keeps the judge's handlers
/// (Rust's for `SIGSEGV` and `SIGBUS`, the C library's), which a program
/// could make run by signalling its box's init. Raw system calls: the C
/// library refuses the signals it reserves for itself.
pub(in crate::sandbox::ns) unsafe fn reset_signal_handlers() {
    #[repr(C)]
    struct KernelSigaction {
        handler: usize,
        flags: libc::c_ulong,
        restorer: usize,
        mask: u64,
    }
    let default = KernelSigaction {
        handler: libc::SIG_DFL,
        flags: 0,
        restorer: 0,
        mask: 0,
    };
    for sig in 1..=64 {
        if sig != libc::SIGKILL && sig != libc::SIGSTOP {
            libc::syscall(
                libc::SYS_rt_sigaction,
                sig,
                &default as *const KernelSigaction,
                std::ptr::null_mut::<KernelSigaction>(),
                8usize,
            );
        }
    }
    let off = libc::stack_t {
        ss_sp: std::ptr::null_mut(),
        ss_flags: libc::SS_DISABLE,
        ss_size: 0,
    };
    libc::sigaltstack(&off, std::ptr::null_mut());
    let mut none: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut none);
    libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
}

/// Spawns `entry(arg)` as `posix_spawn` does: the child shares this
/// process's memory on its own stack (`stack`, which nothing else uses
/// meanwhile) and this process waits until it execs or exits, so nothing
/// is copied. `flags` add to that (`CLONE_FILES`: what the child opens
/// stays open for this process).
pub(in crate::sandbox::ns) unsafe fn spawn(
    stack: &[u8],
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    arg: *const libc::c_void,
    flags: libc::c_int,
) -> libc::pid_t {
    let top = stack.as_ptr() as usize + stack.len();
    libc::clone(
        entry,
        (top & !15) as *mut libc::c_void,
        libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD | flags,
        arg.cast_mut(),
    )
}

/// Closes every descriptor from 3 up except those in `keep` (twelve at
/// most: any after the twelfth kept one would be closed; a negative one,
/// no descriptor, is passed over).
pub(in crate::sandbox::ns) unsafe fn close_all_but(keep: &[RawFd]) {
    let mut from = 3u32;
    let mut sorted = [RawFd::MAX; 12];
    for (slot, &fd) in sorted.iter_mut().zip(keep.iter().filter(|&&fd| fd >= 0)) {
        *slot = fd;
    }
    sorted.sort_unstable();
    for fd in sorted {
        if fd == RawFd::MAX {
            break;
        }
        let fd = fd as u32;
        if fd > from {
            libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32);
        }
        from = from.max(fd + 1);
    }
    libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Init keeps eleven descriptors where it has no cgroup (a task clock,
    /// the watch on its scratch mounts and the five views of its run's
    /// network namespace among them): every one of twelve kept is kept,
    /// and everything else is closed.
    #[test]
    fn close_all_but_keeps_every_descriptor_it_is_given() {
        // In a child: closing the test process's descriptors would close
        // the harness's. The child makes system calls only.
        // SAFETY: fork, then plain system calls and _exit in the child.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork");
        if pid == 0 {
            // SAFETY: as above.
            unsafe {
                let open = || libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY);
                let mut keep = [-1; 13];
                for (i, fd) in keep.iter_mut().enumerate() {
                    // A negative one among them is passed over.
                    if i != 4 {
                        *fd = open();
                    }
                }
                let other = open();
                close_all_but(&keep);
                let open_now = |fd: RawFd| libc::fcntl(fd, libc::F_GETFD) >= 0;
                let kept = keep.iter().filter(|&&fd| fd >= 0).all(|&fd| open_now(fd));
                let right = kept && !open_now(other);
                libc::_exit(if right { 0 } else { 1 });
            }
        }
        let mut status = 0;
        // SAFETY: our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "a kept descriptor was closed, or another left open ({status:#x})"
        );
    }
}
