//! The zygote: the one process every box's init is cloned from.
//!
//! A box's init used to be a fork of the judge. Forking copies the
//! parent's page tables and marks every page of it copy-on-write, holding
//! the parent's `mmap_lock` for writing all the while: the cost grows with
//! the judge's memory, forks of one process run one at a time, and every
//! thread of the judge then takes a page fault on each page it writes. A
//! server judging on 16 workers forked itself twice a run (init, then the
//! program's process from init); setting up a box slowed as more were set
//! up at once, the judge's threads stalled on the lock, and boxes missed
//! their preparation deadline (IE).
//!
//! So the judge forks once, when the sandbox is made: the zygote, a
//! single-threaded copy of the judge as it was then, which never
//! allocates and never grows. It serves one request at a time: given the
//! two channels of a new box and its job slot, it clones the box's init
//! into fresh namespaces and answers with a pidfd of it. Cloning the
//! zygote costs the same however large the judge has become and touches
//! nothing of the judge. The zygote also leaves nothing of the judge to
//! the box: its signal handlers are reset to defaults (a program could
//! otherwise make init run the judge's handlers), its command line and
//! environment are overwritten with zeros (`/proc/1/cmdline` shows
//! nothing of the judge), and only its own socket stays open. It dies
//! with the judge's thread that forked it, and every init dies with it.
//!
//! Init's parent is the zygote, which ignores `SIGCHLD` so that the
//! kernel reaps its children: the judge watches, signals and waits for an
//! init through its pidfd only (no pid is ever reused under it).

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::Mutex;
use std::thread::JoinHandle;

use super::child::{self, Prep};
use super::region::Shared;
use super::{Inner, Users};
use crate::sandbox::Error;

/// The judge's side of the zygote.
pub(super) struct Zygote {
    /// The request socket; one request and its answer at a time.
    socket: Mutex<Option<OwnedFd>>,
    /// The thread that forked the zygote and reaps it at the end.
    keeper: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Zygote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Zygote")
    }
}

fn setup(step: &'static str) -> impl Fn(std::io::Error) -> Error {
    move |source| Error::Setup {
        program: "a box".into(),
        step,
        source,
    }
}

/// What the zygote clones each init with, laid out before its fork.
struct Template<'a> {
    prep: Prep<'a>,
    flags: libc::c_ulong,
    /// The judge's command line and environment, to overwrite.
    args: (usize, usize),
    env: (usize, usize),
    socket: RawFd,
}

impl Zygote {
    /// Forks the zygote from a thread that lives until [`Zygote::stop`]
    /// (the zygote dies with the thread that forked it).
    pub(super) fn start(inner: std::sync::Arc<Inner>) -> Result<Zygote, Error> {
        let (judge_end, zygote_end) =
            super::boxed::socketpair().map_err(setup("creating a socket"))?;
        let (tx, rx) = std::sync::mpsc::channel::<std::io::Result<libc::pid_t>>();
        let keeper = std::thread::Builder::new()
            .name("grundy-zygote".into())
            .spawn(move || {
                let stack = vec![0u8; 256 << 10];
                let (args, env) = command_line_span();
                let mut flags = libc::CLONE_NEWNS
                    | libc::CLONE_NEWPID
                    | libc::CLONE_NEWNET
                    | libc::CLONE_NEWIPC
                    | libc::CLONE_NEWUTS
                    | libc::CLONE_NEWCGROUP;
                if inner.users == Users::Namespace {
                    flags |= libc::CLONE_NEWUSER;
                }
                let template = Template {
                    prep: Prep {
                        base: &inner.base,
                        users: inner.users,
                        host_uid: inner.host_uid,
                        host_gid: inner.host_gid,
                        drop_groups: inner.privileged,
                        seccomp: &inner.seccomp,
                        count_cpu: inner.cgroups.is_none(),
                        control: -1,
                        report: -1,
                        job: std::ptr::null(),
                        region: inner.region.span(),
                        stack: &stack,
                    },
                    flags: flags as libc::c_ulong,
                    args,
                    env,
                    socket: zygote_end.as_raw_fd(),
                };
                // SAFETY: a fork-like clone; the child runs only `serve`,
                // plain system calls on memory prepared above, and never
                // returns.
                let pid = unsafe { child::raw_clone(0, std::ptr::null_mut()) };
                if pid == 0 {
                    // SAFETY: we are the child.
                    unsafe { serve(&template) }
                }
                // The zygote has its own copy of all it needs.
                drop(stack);
                drop(inner);
                drop(zygote_end);
                if pid < 0 {
                    let _ = tx.send(Err(std::io::Error::last_os_error()));
                    return;
                }
                let _ = tx.send(Ok(pid));
                // Reap the zygote when it ends (its socket closed).
                let mut status = 0;
                // SAFETY: our own child.
                while unsafe { libc::waitpid(pid, &mut status, 0) } < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                }
            })
            .map_err(setup("starting the zygote's thread"))?;
        match rx.recv() {
            Ok(Ok(_)) => Ok(Zygote {
                socket: Mutex::new(Some(judge_end)),
                keeper: Mutex::new(Some(keeper)),
            }),
            Ok(Err(e)) => {
                let _ = keeper.join();
                Err(setup("forking the zygote")(e))
            }
            Err(_) => {
                let _ = keeper.join();
                Err(setup("forking the zygote")(std::io::Error::other(
                    "its thread ended",
                )))
            }
        }
    }

    /// Has the zygote clone a box's init with these ends of its channels
    /// and its job slot: init's pid and a pidfd of it.
    pub(super) fn clone_init(
        &self,
        control: &OwnedFd,
        report: &OwnedFd,
        shared: &Shared,
    ) -> Result<(libc::pid_t, OwnedFd), Error> {
        let guard = self
            .socket
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(socket) = guard.as_ref() else {
            return Err(setup("cloning the box's init")(std::io::Error::other(
                "the sandbox is shutting down",
            )));
        };
        let request = Request {
            job: shared.ptr as usize,
        };
        // SAFETY: valid descriptors and buffers.
        let sent = unsafe {
            send_with_fds(
                socket.as_raw_fd(),
                as_bytes(&request),
                &[control.as_raw_fd(), report.as_raw_fd()],
            )
        };
        if !sent {
            return Err(setup("asking the zygote for a box")(
                std::io::Error::last_os_error(),
            ));
        }
        let mut answer = Answer { pid: 0, errno: 0 };
        let mut fds = [-1; 1];
        // SAFETY: valid descriptors and buffers.
        let got =
            unsafe { receive_with_fds(socket.as_raw_fd(), as_bytes_mut(&mut answer), &mut fds) };
        drop(guard);
        if got != std::mem::size_of::<Answer>() as isize {
            return Err(setup("hearing from the zygote")(if got < 0 {
                std::io::Error::last_os_error()
            } else {
                std::io::Error::other("the zygote is gone")
            }));
        }
        if answer.errno != 0 || fds[0] < 0 {
            // SAFETY: closing what we were sent, if anything.
            if fds[0] >= 0 {
                unsafe { libc::close(fds[0]) };
            }
            return Err(setup("cloning the box's init")(
                std::io::Error::from_raw_os_error(answer.errno.max(1)),
            ));
        }
        // SAFETY: a descriptor just received, ours alone.
        Ok((answer.pid, unsafe { OwnedFd::from_raw_fd(fds[0]) }))
    }

    /// Ends the zygote (and with it every init it cloned) and its thread.
    pub(super) fn stop(&self) {
        drop(
            self.socket
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .take(),
        );
        let keeper = self
            .keeper
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(k) = keeper {
            let _ = k.join();
        }
    }
}

impl Drop for Zygote {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A request: the job slot's address (the channels travel as descriptors).
#[repr(C)]
#[derive(Clone, Copy)]
struct Request {
    job: usize,
}

/// An answer: init's pid, or the errno of a failed clone (its pidfd
/// travels as a descriptor).
#[repr(C)]
#[derive(Clone, Copy)]
struct Answer {
    pid: libc::pid_t,
    errno: i32,
}

fn as_bytes<T: Copy>(v: &T) -> &[u8] {
    // SAFETY: plain old data, read as bytes.
    unsafe { std::slice::from_raw_parts((v as *const T).cast(), std::mem::size_of::<T>()) }
}

fn as_bytes_mut<T: Copy>(v: &mut T) -> &mut [u8] {
    // SAFETY: plain old data of integers, any bytes valid.
    unsafe { std::slice::from_raw_parts_mut((v as *mut T).cast(), std::mem::size_of::<T>()) }
}

/// Where this process's command line and environment lie (fields 48 to
/// 51 of `/proc/self/stat`), read before the fork.
fn command_line_span() -> ((usize, usize), (usize, usize)) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name, which may hold spaces: from the last ')'.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<usize> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // `rest` starts at field 3 (state); field n is at index n - 3.
    let at = |n: usize| fields.get(n - 3).copied().unwrap_or(0);
    ((at(48), at(49)), (at(50), at(51)))
}

/// Sends `bytes` and `fds` in one message.
unsafe fn send_with_fds(socket: RawFd, bytes: &[u8], fds: &[RawFd]) -> bool {
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr().cast_mut().cast(),
        iov_len: bytes.len(),
    };
    let mut control = [0u64; 8];
    let mut msg: libc::msghdr = std::mem::zeroed();
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    if !fds.is_empty() {
        let len = std::mem::size_of_val(fds) as u32;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = libc::CMSG_SPACE(len) as _;
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        (*cmsg).cmsg_level = libc::SOL_SOCKET;
        (*cmsg).cmsg_type = libc::SCM_RIGHTS;
        (*cmsg).cmsg_len = libc::CMSG_LEN(len) as _;
        std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast(), fds.len());
    }
    loop {
        let n = libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL);
        if n >= 0 {
            return n as usize == bytes.len();
        }
        if *libc::__errno_location() != libc::EINTR {
            return false;
        }
    }
}

/// Receives one message into `bytes` and up to `fds.len()` descriptors
/// (close-on-exec); the bytes received, 0 at the end, negative on error.
unsafe fn receive_with_fds(socket: RawFd, bytes: &mut [u8], fds: &mut [RawFd]) -> isize {
    let mut iov = libc::iovec {
        iov_base: bytes.as_mut_ptr().cast(),
        iov_len: bytes.len(),
    };
    let mut control = [0u64; 8];
    let mut msg: libc::msghdr = std::mem::zeroed();
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&control) as _;
    let n = loop {
        let n = libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n >= 0 || *libc::__errno_location() != libc::EINTR {
            break n;
        }
    };
    if n <= 0 {
        return n;
    }
    let mut got = 0;
    let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
    while !cmsg.is_null() {
        if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
            let data = libc::CMSG_DATA(cmsg).cast::<RawFd>();
            let count = ((*cmsg).cmsg_len as usize - libc::CMSG_LEN(0) as usize)
                / std::mem::size_of::<RawFd>();
            for i in 0..count {
                let fd = *data.add(i);
                if got < fds.len() {
                    fds[got] = fd;
                    got += 1;
                } else {
                    libc::close(fd);
                }
            }
        }
        cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
    }
    n
}

/// The zygote's loop: clones an init for each request until its socket
/// closes. System calls only, on the template and the stack (it is a
/// fork of a multi-threaded judge: nothing may allocate or lock).
unsafe fn serve(t: &Template) -> ! {
    // Die with the judge's thread that forked us; keep only our socket.
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
    child::close_all_but(&[t.socket]);
    // Nothing of the judge's handlers, alternate stack or mask reaches a
    // box; children are reaped by the kernel.
    child::reset_signal_handlers();
    let mut ignore: libc::sigaction = std::mem::zeroed();
    ignore.sa_sigaction = libc::SIG_IGN;
    libc::sigaction(libc::SIGCHLD, &ignore, std::ptr::null_mut());
    // Nothing of the judge's command line or environment either.
    for (start, end) in [t.args, t.env] {
        if start != 0 && end > start {
            let p = start as *mut u8;
            for i in 0..end - start {
                std::ptr::write_volatile(p.add(i), 0);
            }
        }
    }
    let name = c"grundy-zygote";
    libc::prctl(libc::PR_SET_NAME, name.as_ptr() as libc::c_ulong);
    loop {
        let mut request = Request { job: 0 };
        let mut fds = [-1; 2];
        let n = receive_with_fds(t.socket, as_bytes_mut(&mut request), &mut fds);
        if n <= 0 {
            libc::_exit(0);
        }
        let mut answer = Answer { pid: 0, errno: 0 };
        let mut pidfd: RawFd = -1;
        if n as usize != std::mem::size_of::<Request>() || fds[0] < 0 || fds[1] < 0 {
            answer.errno = libc::EPROTO;
        } else {
            let prep = Prep {
                control: fds[0],
                report: fds[1],
                job: request.job as *const _,
                ..t.prep
            };
            let pid = child::raw_clone(t.flags | libc::CLONE_PIDFD as libc::c_ulong, &mut pidfd);
            if pid == 0 {
                child::init(&prep)
            }
            if pid < 0 {
                answer.errno = *libc::__errno_location();
            } else {
                answer.pid = pid;
            }
        }
        for fd in fds {
            if fd >= 0 {
                libc::close(fd);
            }
        }
        let one = [pidfd];
        let sent: &[RawFd] = if pidfd >= 0 { &one } else { &[] };
        let ok = send_with_fds(t.socket, as_bytes(&answer), sent);
        if pidfd >= 0 {
            libc::close(pidfd);
        }
        if !ok {
            libc::_exit(0);
        }
    }
}
