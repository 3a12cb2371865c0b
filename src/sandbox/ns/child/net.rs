//! A run's network namespace: what a run can leave there, and how init
//! tells that a run left nothing.
//!
//! Every run of a box is forked into a network namespace where the run
//! before left no trace. Making one costs the kernel about 0.4 ms, and as
//! much again to free it later: more than the rest of a run of a trivial
//! program. So a kept box's namespace is used again where its run provably
//! left it as it found it, and made afresh only where the run did
//! something in it.
//!
//! What a run can change in its namespace: the program has no capability
//! there (no device brought up, no route, address, sysctl or filter added)
//! and its one device, the loopback, is down, so no packet is ever
//! delivered; it can open sockets (local, IPv4, IPv6 and netlink-route
//! ones of the default protocols, `seccomp`). What of those outlives the
//! run is, by the kernel's own accounts:
//!
//! * the sockets themselves (bound ports and addresses, abstract names,
//!   memberships): init's drain (`init.rs`) waits until the namespace has
//!   no socket left, those kept alive only by descriptors in flight
//!   included;
//! * the counters every failed or refused send, connect or receive
//!   increments (`/proc/net/snmp`, `snmp6`, `netstat`, the loopback's
//!   figures in `dev`);
//! * IPv6 flow labels, which linger after their socket closes
//!   (`/proc/net/ip6_flowlabel`).
//!
//! [`Views`] reads all of those when the namespace is new and again once
//! the run's sockets are gone; the namespace is kept only where every byte
//! is the same, so the next run sees exactly what the run before saw. A
//! run that only computes (every submission's usual run) opens nothing
//! there, and its box's namespace lasts as long as the box.

use std::os::fd::RawFd;

/// What a run can change of its network namespace once its sockets are
/// gone (see the module's notes), as the namespace's process reads it.
const VIEWS: [&std::ffi::CStr; 5] = [
    c"/proc/self/net/snmp",
    c"/proc/self/net/snmp6",
    c"/proc/self/net/netstat",
    c"/proc/self/net/dev",
    c"/proc/self/net/ip6_flowlabel",
];

/// Room for one view (the largest, `netstat`, is about 4 KiB).
const SLOT: usize = 32 << 10;

/// The views of a namespace as it was made, open, and room to read them
/// again: memory init maps once (it must not allocate). A view's file
/// shows the namespace it was opened in, wherever its reader is, and
/// reading it from its start again reads it afresh.
pub(super) struct Views {
    /// `VIEWS.len()` slots, then one for reading again; null where the
    /// kernel gave no memory (no namespace is then kept).
    memory: *mut u8,
    /// Each view's file (-1: none, where the kernel has no such file).
    files: [RawFd; VIEWS.len()],
    /// Each view's length in its slot; `None` where it could not be read
    /// whole (that namespace is not kept).
    taken: [Option<usize>; VIEWS.len()],
}

impl Views {
    /// Maps the memory.
    ///
    /// # Safety
    /// System calls only.
    pub(super) unsafe fn new() -> Views {
        let memory = libc::mmap(
            std::ptr::null_mut(),
            SLOT * (VIEWS.len() + 1),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        Views {
            memory: if memory == libc::MAP_FAILED {
                std::ptr::null_mut()
            } else {
                memory.cast()
            },
            files: [-1; VIEWS.len()],
            taken: [None; VIEWS.len()],
        }
    }

    /// Opens and reads the views of the caller's network namespace, new:
    /// what it must show again to be kept. The files of the namespace
    /// before are closed.
    ///
    /// # Safety
    /// System calls only.
    pub(super) unsafe fn take(&mut self) {
        for (i, view) in VIEWS.iter().enumerate() {
            if self.files[i] >= 0 {
                libc::close(self.files[i]);
            }
            self.files[i] = libc::open(view.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
            self.taken[i] = if self.files[i] < 0 {
                // No such view where the kernel has no IPv6: it will not
                // appear later.
                (*libc::__errno_location() == libc::ENOENT).then_some(0)
            } else {
                self.slot(i).and_then(|slot| read(self.files[i], slot))
            };
        }
    }

    /// Whether the namespace of the last [`Views::take`] shows, byte for
    /// byte, what it showed then.
    ///
    /// # Safety
    /// System calls only.
    pub(super) unsafe fn unchanged(&mut self) -> bool {
        let Some(again) = self.slot(VIEWS.len()) else {
            return false;
        };
        for (i, &file) in self.files.iter().enumerate() {
            let (Some(len), Some(slot)) = (self.taken[i], self.slot(i)) else {
                return false;
            };
            if file >= 0 && (read(file, again) != Some(len) || again[..len] != slot[..len]) {
                return false;
            }
        }
        true
    }

    /// The views' open files, which init keeps (-1: none).
    pub(super) fn files(&self) -> [RawFd; VIEWS.len()] {
        self.files
    }

    /// Slot `i` of the memory (mapped for as long as init lives: never
    /// unmapped).
    unsafe fn slot(&self, i: usize) -> Option<&'static mut [u8]> {
        if self.memory.is_null() {
            return None;
        }
        Some(std::slice::from_raw_parts_mut(
            self.memory.add(i * SLOT),
            SLOT,
        ))
    }
}

/// Reads open file `fd` whole, from its start, into `into`: its length, or
/// `None` where it could not be read or did not fit.
unsafe fn read(fd: RawFd, into: &mut [u8]) -> Option<usize> {
    let mut len = 0;
    loop {
        if len == into.len() {
            return None;
        }
        let n = libc::pread(
            fd,
            into[len..].as_mut_ptr().cast(),
            into.len() - len,
            len as libc::off_t,
        );
        if n < 0 && *libc::__errno_location() == libc::EINTR {
            continue;
        }
        if n <= 0 {
            return (n == 0).then_some(len);
        }
        len += n as usize;
    }
}
