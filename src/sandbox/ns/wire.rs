//! The wire between the judge, a box's init and the program's process:
//! every message they exchange, encoded and decoded here only.
//!
//! * **Report pipe** (init and the program before its exec → the judge):
//!   one [`Record`] per message, a tag byte and native-endian fields.
//! * **Control socket** (judge → init, and init ↔ the program's process):
//!   one byte a message ([`Control`]); [`Control::Run`] carries the run's
//!   stdin, stdout and stderr as `SCM_RIGHTS`.
//!
//! Both ends are the same binary, so nothing here is versioned. The child
//! side encodes into fixed buffers: nothing here allocates on that side.

use std::os::fd::RawFd;

/// Declares [`Step`] and what each step is called, in one table.
macro_rules! steps {
    ($($step:ident => $what:literal,)*) => {
        /// A step of a box's setup, reported with `errno` when it fails.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        #[repr(u32)]
        pub(super) enum Step {
            $($step,)*
        }

        impl Step {
            const ALL: &'static [Step] = &[$(Step::$step,)*];

            /// What the step does, for [`super::Error::Setup`].
            pub(super) fn what(self) -> &'static str {
                match self {
                    $(Step::$step => $what,)*
                }
            }
        }
    };
}

steps! {
    Go => "waiting for the judge",
    Private => "making mounts private",
    Root => "mounting the root tmpfs",
    Mkdir => "creating a mount point",
    Bind => "bind-mounting",
    ReadOnly => "making a bind read-only",
    Tmpfs => "mounting tmpfs",
    Proc => "mounting /proc",
    Symlink => "creating a symlink",
    File => "writing a file",
    RootReadOnly => "making the root read-only",
    Pivot => "pivot_root",
    Umount => "detaching the old root",
    Chdir => "entering the working directory",
    Fork => "forking the program",
    Stdio => "redirecting stdio",
    Rlimit => "setting rlimits",
    Groups => "dropping groups",
    Setuid => "switching user",
    Caps => "dropping capabilities",
    NoNewPrivs => "setting no_new_privs",
    Seccomp => "installing seccomp",
    Exec => "executing the program",
    Hostname => "setting the hostname",
    Open => "opening a bind source",
    Job => "receiving the run",
    Base => "preparing the box's file system",
    Copy => "copying a file into the box",
    Clean => "cleaning the box for its next run",
    Ipc => "giving the run fresh IPC and network namespaces",
    Pids => "starting the next run's pids where the first run's started",
    Drain => "waiting until the run's sockets are gone",
    Enter => "moving into the box's cgroup",
}

impl Step {
    fn from_wire(n: u32) -> Option<Step> {
        Step::ALL.get(n as usize).copied()
    }
}

/// One message on the report pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Record {
    /// Init built the base file system and the program's process is armed:
    /// the box waits for its run.
    Prepared,
    /// The program's wait status.
    Status(libc::c_int),
    /// A setup step failed with this `errno`.
    Failed { step: Step, errno: i32 },
    /// Rusage of init's reaped children: CPU microseconds (user and
    /// system) and the largest peak RSS, KiB; and init's own peak RSS,
    /// KiB, the most a process cloned from it started with; and the CPU
    /// time (ns) of every process of the run, by init's task clock
    /// (`u64::MAX` where there is none).
    Usage {
        user_us: u64,
        system_us: u64,
        max_rss_kib: u64,
        inherited_kib: u64,
        counted_ns: u64,
    },
}

const PREPARED: u8 = b'P';
const STATUS: u8 = b'S';
const FAILED: u8 = b'E';
const USAGE: u8 = b'R';

/// What [`Record::decode`] found at the front of the bytes.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Decoded {
    /// A record and how many bytes it took.
    Record(Record, usize),
    /// The front of a record whose rest has not arrived yet (or nothing).
    Partial,
    /// Not a record of ours: nothing after it can be trusted.
    Garbage,
}

impl Record {
    /// The longest encoding, tag included.
    pub(super) const MAX: usize = 41;

    /// Writes the record at the front of `buf`; its length. Allocates
    /// nothing (the child side encodes).
    pub(super) fn encode(self, buf: &mut [u8; Record::MAX]) -> usize {
        match self {
            Record::Prepared => {
                buf[0] = PREPARED;
                1
            }
            Record::Status(status) => {
                buf[0] = STATUS;
                buf[1..5].copy_from_slice(&status.to_ne_bytes());
                5
            }
            Record::Failed { step, errno } => {
                buf[0] = FAILED;
                buf[1..5].copy_from_slice(&(step as u32).to_ne_bytes());
                buf[5..9].copy_from_slice(&errno.to_ne_bytes());
                9
            }
            Record::Usage {
                user_us,
                system_us,
                max_rss_kib,
                inherited_kib,
                counted_ns,
            } => {
                buf[0] = USAGE;
                buf[1..9].copy_from_slice(&user_us.to_ne_bytes());
                buf[9..17].copy_from_slice(&system_us.to_ne_bytes());
                buf[17..25].copy_from_slice(&max_rss_kib.to_ne_bytes());
                buf[25..33].copy_from_slice(&inherited_kib.to_ne_bytes());
                buf[33..41].copy_from_slice(&counted_ns.to_ne_bytes());
                41
            }
        }
    }

    /// Reads the record at the front of `bytes`.
    pub(super) fn decode(bytes: &[u8]) -> Decoded {
        let Some((&tag, body)) = bytes.split_first() else {
            return Decoded::Partial;
        };
        let need = match tag {
            PREPARED => 0,
            STATUS => 4,
            FAILED => 8,
            USAGE => 40,
            _ => return Decoded::Garbage,
        };
        let Some(body) = body.get(..need) else {
            return Decoded::Partial;
        };
        let word = |at: usize| {
            let mut b = [0; 4];
            b.copy_from_slice(&body[at..at + 4]);
            b
        };
        let long = |at: usize| {
            let mut b = [0; 8];
            b.copy_from_slice(&body[at..at + 8]);
            u64::from_ne_bytes(b)
        };
        let record = match tag {
            PREPARED => Record::Prepared,
            STATUS => Record::Status(libc::c_int::from_ne_bytes(word(0))),
            FAILED => match Step::from_wire(u32::from_ne_bytes(word(0))) {
                Some(step) => Record::Failed {
                    step,
                    errno: i32::from_ne_bytes(word(4)),
                },
                None => return Decoded::Garbage,
            },
            _ => Record::Usage {
                user_us: long(0),
                system_us: long(8),
                max_rss_kib: long(16),
                inherited_kib: long(24),
                counted_ns: long(32),
            },
        };
        Decoded::Record(record, 1 + need)
    }
}

/// One message on a control socket: a single byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(super) enum Control {
    /// Judge → init: the id maps are in place, and init is in its
    /// cgroup, or the descriptors to move itself in come with this byte
    /// (see [`send_go`]); go on.
    Go = b'g',
    /// As [`Control::Go`], but init enters its root only with its first
    /// run, as where the kernel cannot clone a mount out of a detached
    /// tree (`child::init::enter_ahead`): the tests' way to that path.
    GoEnterLate = b'l',
    /// The program's process → init: locked down, waiting for its run.
    Armed = b'a',
    /// Judge → init, then init → the program's process: the run is
    /// described in shared memory (and its mounts are in place, for the
    /// program); its stdin, stdout and stderr come with this byte.
    Run = b'r',
    /// Init → judge, after a run with a working space: the space's
    /// directory comes with this byte (`crate::sandbox::Bind::space`).
    Space = b's',
    /// Init → judge, before its first run goes: init's detached copy of
    /// the host's tree comes with this byte, to lie unread in the judge's
    /// end of the socket until the box is dropped. (Init's own close of
    /// the last reference would wait for the kernel to tear the copy down,
    /// on the run's path; see `child::init::enter_ahead`.)
    Tree = b't',
}

impl Control {
    /// Sends a message that carries no descriptors; whether it went.
    ///
    /// # Safety
    /// `socket` must be an open descriptor. Allocates nothing.
    pub(super) unsafe fn send(self, socket: RawFd) -> bool {
        let byte = self as u8;
        libc::write(socket, (&byte as *const u8).cast(), 1) == 1
    }

    /// Waits for message `self` on `socket`; whether it came (not the
    /// socket's end, an error or another message).
    ///
    /// # Safety
    /// `socket` must be an open descriptor. Allocates nothing.
    pub(super) unsafe fn receive(self, socket: RawFd) -> bool {
        let mut byte = 0u8;
        libc::read(socket, (&mut byte as *mut u8).cast(), 1) == 1 && byte == self as u8
    }
}

/// Sends [`Control::Run`] with the three stdio descriptors (`SCM_RIGHTS`);
/// what `sendmsg` returned (1 when it went). Allocates nothing: init sends
/// it on to the program's process.
///
/// # Safety
/// `socket` and the three descriptors must be open.
pub(super) unsafe fn send_run(socket: RawFd, stdio: &[RawFd; 3]) -> isize {
    send_with(socket, Control::Run, stdio)
}

/// Sends [`Control::Go`] with the descriptors init enters its cgroups
/// through (none where the judge moved it); whether it went. Allocates
/// nothing.
///
/// # Safety
/// `socket` and the descriptors must be open.
pub(super) unsafe fn send_go(socket: RawFd, go: Control, entrances: &[RawFd]) -> bool {
    if entrances.is_empty() {
        go.send(socket)
    } else {
        send_with(socket, go, entrances) == 1
    }
}

/// Waits for [`Control::Go`] (or [`Control::GoEnterLate`]) and the
/// descriptors that come with it (received close-on-exec, up to three):
/// which go it was, and how many descriptors there are, in `entrances`;
/// `None` on anything else or the socket's end.
///
/// # Safety
/// `socket` must be an open descriptor. Allocates nothing.
pub(super) unsafe fn receive_go(
    socket: RawFd,
    entrances: &mut [RawFd; 3],
) -> Option<(Control, usize)> {
    let (byte, count) = receive_with(socket, entrances)?;
    [Control::Go, Control::GoEnterLate]
        .into_iter()
        .find(|go| *go as u8 == byte)
        .map(|go| (go, count))
}

/// Sends init's message `control` ([`Control::Space`], [`Control::Tree`])
/// with the one descriptor `fd` it carries; what `sendmsg` returned.
/// Allocates nothing.
///
/// # Safety
/// `socket` and `fd` must be open.
pub(super) unsafe fn send_one(socket: RawFd, control: Control, fd: RawFd) -> isize {
    send_with(socket, control, &[fd])
}

/// Sends `control` with up to three descriptors (`SCM_RIGHTS`).
unsafe fn send_with(socket: RawFd, control: Control, fds: &[RawFd]) -> isize {
    let mut byte = [control as u8];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // Aligned room for a control message of three descriptors (32 bytes).
    let mut space = [0u64; 8];
    let fds = &fds[..fds.len().min(3)];
    let data_len = std::mem::size_of_val(fds) as u32;
    let mut msg: libc::msghdr = std::mem::zeroed();
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = space.as_mut_ptr().cast();
    msg.msg_controllen = libc::CMSG_SPACE(data_len) as usize;
    let cmsg = libc::CMSG_FIRSTHDR(&msg);
    (*cmsg).cmsg_level = libc::SOL_SOCKET;
    (*cmsg).cmsg_type = libc::SCM_RIGHTS;
    (*cmsg).cmsg_len = libc::CMSG_LEN(data_len) as usize;
    std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast(), fds.len());
    libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL)
}

/// The judge's side of [`send_one`] of [`Control::Space`]: the working space's directory,
/// waiting up to `within` for it; `None` when init ended (or closed the
/// socket) without sending one, or sent anything else.
pub(super) fn receive_space(
    socket: RawFd,
    within: std::time::Duration,
) -> Option<std::os::fd::OwnedFd> {
    let deadline = std::time::Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let (byte, fd) = receive_one(socket, left)?;
        match byte {
            // The copy of the host's tree the box was built with, sent
            // before its run: closed here (a working space's run is a
            // compilation, which does not miss those microseconds).
            b if b == Control::Tree as u8 => drop(fd),
            b if b == Control::Space as u8 => return Some(fd),
            _ => return None,
        }
    }
}

/// One message and the one descriptor that comes with it, waiting up to
/// `within`; `None` at the socket's end, on an error, a timeout, or a
/// message without exactly one descriptor.
pub(super) fn receive_one(
    socket: RawFd,
    within: std::time::Duration,
) -> Option<(u8, std::os::fd::OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut poll = libc::pollfd {
        fd: socket,
        events: libc::POLLIN,
        revents: 0,
    };
    let ms = libc::c_int::try_from(within.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one valid pollfd.
    if unsafe { libc::poll(&mut poll, 1, ms) } != 1 {
        return None;
    }
    let mut byte = 0u8;
    let mut iov = libc::iovec {
        iov_base: (&mut byte as *mut u8).cast(),
        iov_len: 1,
    };
    let mut space = [0u64; 8];
    // SAFETY: a zeroed msghdr is a valid empty one; its buffers outlive it.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = space.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&space);
    // SAFETY: the buffers above are valid for the call.
    let n = unsafe { libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC) };
    // SAFETY: the control buffer was filled by the kernel (or is empty).
    let cmsg = unsafe { libc::CMSG_FIRSTHDR(&msg) };
    if n != 1 || cmsg.is_null() {
        return None;
    }
    // SAFETY: a header the kernel wrote, within the buffer.
    let (level, kind, len) = unsafe { ((*cmsg).cmsg_level, (*cmsg).cmsg_type, (*cmsg).cmsg_len) };
    // SAFETY: CMSG_LEN only computes.
    let one = unsafe { libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) } as usize;
    if level != libc::SOL_SOCKET || kind != libc::SCM_RIGHTS || len != one {
        return None;
    }
    let mut fd: RawFd = -1;
    // SAFETY: the message carries one descriptor, now ours.
    unsafe {
        std::ptr::copy_nonoverlapping(libc::CMSG_DATA(cmsg).cast::<RawFd>(), &mut fd, 1);
    }
    // SAFETY: a fresh descriptor received for us alone.
    Some((byte, unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) }))
}

/// Waits for [`Control::Run`] and its three stdio descriptors (received
/// close-on-exec); `None` when the other end closed the socket instead.
///
/// # Safety
/// `socket` must be an open descriptor. Allocates nothing.
pub(super) unsafe fn receive_run(socket: RawFd) -> Option<[RawFd; 3]> {
    let mut stdio = [-1; 3];
    let (byte, count) = receive_with(socket, &mut stdio)?;
    (byte == Control::Run as u8 && count == 3).then_some(stdio)
}

/// Waits for a message and the descriptors that come with it (received
/// close-on-exec, up to three, in `fds`): its byte and how many came;
/// `None` at the socket's end, on an error, or on control data that is
/// not descriptors.
///
/// # Safety
/// `socket` must be an open descriptor. Allocates nothing.
unsafe fn receive_with(socket: RawFd, fds: &mut [RawFd; 3]) -> Option<(u8, usize)> {
    let mut byte = 0u8;
    let mut iov = libc::iovec {
        iov_base: (&mut byte as *mut u8).cast(),
        iov_len: 1,
    };
    let mut space = [0u64; 8];
    let mut msg: libc::msghdr = std::mem::zeroed();
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = space.as_mut_ptr().cast();
    msg.msg_controllen = std::mem::size_of_val(&space);
    loop {
        let n = libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n > 0 {
            break;
        }
        if n == 0 || *libc::__errno_location() != libc::EINTR {
            return None;
        }
    }
    let cmsg = libc::CMSG_FIRSTHDR(&msg);
    if cmsg.is_null() {
        return Some((byte, 0));
    }
    let header = libc::CMSG_LEN(0) as usize;
    if (*cmsg).cmsg_level != libc::SOL_SOCKET
        || (*cmsg).cmsg_type != libc::SCM_RIGHTS
        || (*cmsg).cmsg_len < header
    {
        return None;
    }
    let count = ((*cmsg).cmsg_len - header) / std::mem::size_of::<RawFd>();
    if count > fds.len() {
        return None;
    }
    std::ptr::copy_nonoverlapping(
        libc::CMSG_DATA(cmsg).cast::<RawFd>(),
        fds.as_mut_ptr(),
        count,
    );
    Some((byte, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(record: Record) {
        let mut buf = [0; Record::MAX];
        let n = record.encode(&mut buf);
        assert_eq!(Record::decode(&buf[..n]), Decoded::Record(record, n));
        assert_eq!(Record::decode(&buf[..n - 1]), Decoded::Partial);
    }

    #[test]
    fn every_record_decodes_to_itself() {
        round_trip(Record::Prepared);
        round_trip(Record::Status(9 << 8));
        round_trip(Record::Failed {
            step: Step::Seccomp,
            errno: libc::EPERM,
        });
        round_trip(Record::Usage {
            user_us: 1,
            system_us: 2,
            max_rss_kib: 3,
            inherited_kib: 4,
            counted_ns: 5,
        });
    }

    #[test]
    fn every_step_crosses_the_wire_as_itself() {
        for &step in Step::ALL {
            assert_eq!(Step::from_wire(step as u32), Some(step));
        }
        assert_eq!(Step::from_wire(Step::ALL.len() as u32), None);
    }

    #[test]
    fn a_stranger_byte_is_garbage() {
        assert_eq!(Record::decode(b"x"), Decoded::Garbage);
    }
}
