//! The seccomp filter every boxed program runs under: a deny list of the
//! system calls no submission or compiler needs and that could reach past
//! the namespaces (debugging other processes, mounting, loading code into
//! the kernel, new namespaces, io_uring, ...). Denied calls fail with
//! `EPERM`, so an attack fails visibly instead of crashing the program;
//! `clone3` fails with `ENOSYS`, which makes the C library fall back to
//! `clone`, whose flags the filter can inspect (no `CLONE_NEW*`).
//! `socket` opens only local, IPv4, IPv6 and netlink sockets of the
//! ordinary protocols (`EAFNOSUPPORT` or `EPROTONOSUPPORT` otherwise:
//! `AF_VSOCK` crosses the network namespace, and rare families and
//! protocols load kernel modules). A call
//! from another ABI (x32, or a foreign architecture) kills the process.
//!
//! The host's page cache is no channel between runs: a box cannot ask
//! which pages of a file are cached (`mincore`, `preadv2` with
//! `RWF_NOWAIT`, `cachestat` fail with `ENOSYS`) nor drop or age them
//! (`fadvise`, `readahead` and `madvise`'s `MADV_COLD`/`MADV_PAGEOUT` are
//! hints the kernel may ignore: here they succeed and do nothing), so one
//! test's run cannot tell the next anything through the cached pages of a
//! file both can read.
//!
//! The filter is classic BPF written by hand: it is built once in the
//! judge and installed in the child with `prctl`, which allocates nothing.
//! By hand, not by a filter-building crate, because of what the rules
//! return: one filter answers `EPERM`, `ENOSYS`, `EAFNOSUPPORT`,
//! `EPROTONOSUPPORT`, success without effect, or a kill, by call and by
//! argument. The maintained pure-Rust builder (`seccompiler`) gives a
//! filter one action for every rule that matches (several filters stacked
//! would run each on every call, and lose the search tree below, which is
//! what keeps installing the filter cheap); libseccomp, which has per-rule
//! actions, is a C library a machine with only Rust and a C compiler
//! lacks. The sandbox's attack tests try each rule (`seccomp_denies_…`,
//! `r12_only_ordinary_socket_families_open`, `a_run_cannot_probe_or_evict_…`).

/// Namespace flags a `clone` must not carry (the low byte of `clone`'s
/// flags is the exit signal, so `CLONE_NEWTIME` cannot be tested there;
/// `unshare` and `clone3` are denied outright).
const CLONE_NEW_FLAGS: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u32;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xC000_00B7;

const SECCOMP_RET_KILL_PROCESS: u32 = 0x8000_0000;
const SECCOMP_RET_ERRNO: u32 = 0x0005_0000;
const SECCOMP_RET_ALLOW: u32 = 0x7fff_0000;

/// Offsets in `struct seccomp_data`.
const OFF_NR: u32 = 0;
/// `setpriority`'s and `ioprio_set`'s "every process of this user".
const PRIO_USER: u32 = libc::PRIO_USER;
const IOPRIO_WHO_USER: u32 = 3;
const OFF_ARCH: u32 = 4;
/// The low 32 bits of the first argument (little endian).
const OFF_ARG0: u32 = 16;
/// The low 32 bits of the second argument (little endian).
const OFF_ARG1: u32 = 24;
/// The low 32 bits of the third argument (little endian).
const OFF_ARG2: u32 = 32;

/// `fcntl`'s command that sizes a pipe's buffer.
const F_SETPIPE_SZ: u32 = 1031;

/// The `SOL_SOCKET` options that size a socket's buffers: without a
/// cgroup a box may not set them (see [`Filter::new`]).
const BUFFER_SIZES: [u32; 4] = [
    libc::SO_SNDBUF as u32,
    libc::SO_RCVBUF as u32,
    libc::SO_SNDBUFFORCE as u32,
    libc::SO_RCVBUFFORCE as u32,
];

/// Socket families a program may open are local sockets, IPv4 and IPv6
/// (the network namespace has only a loopback device, down) and netlink
/// (the C library asks the kernel for its interfaces that way). Every
/// other family is refused with `EAFNOSUPPORT`: `AF_VSOCK` reaches the
/// host and other boxes past the network namespace, and the rare ones
/// (`AF_ALG`, TIPC, RDS, ...) are kernel attack surface whose modules a
/// `socket` call would load. The protocols of `AF_INET` and `AF_INET6`
/// sockets are the type's default, TCP and UDP: others (SCTP, DCCP, ...)
/// would load their modules. The only netlink protocol is
/// `NETLINK_ROUTE` (0) for the same reason.
const INET_PROTOCOLS: [u32; 3] = [0, libc::IPPROTO_TCP as u32, libc::IPPROTO_UDP as u32];

/// System calls a box may not make.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn denied() -> Vec<libc::c_long> {
    let mut calls = vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_pidfd_getfd,
        libc::SYS_kcmp,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_chroot,
        libc::SYS_fsopen,
        libc::SYS_fsconfig,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_mount_setattr,
        libc::SYS_open_by_handle_at,
        libc::SYS_name_to_handle_at,
        libc::SYS_setns,
        libc::SYS_unshare,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_bpf,
        libc::SYS_perf_event_open,
        libc::SYS_fanotify_init,
        libc::SYS_userfaultfd,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_syslog,
        libc::SYS_settimeofday,
        libc::SYS_clock_settime,
        libc::SYS_clock_adjtime,
        libc::SYS_adjtimex,
        libc::SYS_sethostname,
        libc::SYS_setdomainname,
        libc::SYS_vhangup,
        libc::SYS_migrate_pages,
        libc::SYS_move_pages,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        // A run keeps to the core its slot pinned it to.
        libc::SYS_sched_setaffinity,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([
        libc::SYS_iopl,
        libc::SYS_ioperm,
        libc::SYS_uselib,
        libc::SYS_lookup_dcookie,
    ]);
    calls
}

/// System calls that make memory only a cgroup counts: an anonymous
/// memory file, a System V segment, message queue or semaphore set holds
/// pages no process maps (and so no resident set shows); the kernel's own
/// bounds on the last two (32,000 queues of 16 KiB each, 32,000 sets of
/// 32,000 semaphores) are far above any memory limit.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn unmeasured() -> Vec<libc::c_long> {
    vec![
        libc::SYS_memfd_create,
        libc::SYS_shmget,
        libc::SYS_msgget,
        libc::SYS_semget,
    ]
}

/// `cachestat` (Linux 6.5), one number on every architecture; not in
/// every C library's tables yet.
const SYS_CACHESTAT: u32 = 451;

/// `madvise`'s advice that ages or drops a mapping's pages (file pages
/// shared with other boxes among them).
const MADV_COLD: u32 = 20;
const MADV_PAGEOUT: u32 = 21;

/// System calls that ask which pages of a file the host has cached: they
/// fail with `ENOSYS` (a program that uses them has a fallback).
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn cache_probes() -> Vec<u32> {
    vec![
        libc::SYS_mincore as u32,
        libc::SYS_preadv2 as u32,
        libc::SYS_pwritev2 as u32,
        SYS_CACHESTAT,
    ]
}

/// Hints that drop a file's cached pages or read them in ahead: they
/// succeed and do nothing.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn cache_hints() -> Vec<u32> {
    vec![libc::SYS_fadvise64 as u32, libc::SYS_readahead as u32]
}

/// A compiled filter, ready for `prctl(PR_SET_SECCOMP)`.
pub struct Filter {
    code: Vec<libc::sock_filter>,
    prog: libc::sock_fprog,
}

// SAFETY: `prog` points into `code`, which the filter owns and never
// changes after construction; the pointer is only read.
unsafe impl Send for Filter {}
// SAFETY: as above: immutable after construction.
unsafe impl Sync for Filter {}

impl std::fmt::Debug for Filter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "seccomp::Filter({} instructions)", self.code.len())
    }
}

/// Where a jump goes while assembling: the next instruction or a label.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum To {
    Next,
    Label(usize),
}

/// Classic BPF with symbolic forward jumps.
#[derive(Default)]
struct Asm {
    /// (code, k, jump if true, jump if false).
    insns: Vec<(u16, u32, To, To)>,
    /// Where each label was placed.
    labels: Vec<Option<usize>>,
}

impl Asm {
    fn label(&mut self) -> usize {
        self.labels.push(None);
        self.labels.len() - 1
    }

    fn place(&mut self, label: usize) {
        self.labels[label] = Some(self.insns.len());
    }

    fn stmt(&mut self, code: u16, k: u32) {
        self.insns.push((code, k, To::Next, To::Next));
    }

    fn jump(&mut self, code: u16, k: u32, jt: To, jf: To) {
        self.insns.push((code, k, jt, jf));
    }

    /// Resolves the labels into relative offsets (forward, at most 255).
    fn finish(self) -> Vec<libc::sock_filter> {
        let offset = |i: usize, to: To| -> u8 {
            match to {
                To::Next => 0,
                To::Label(l) => {
                    let at = self.labels[l].expect("every label is placed");
                    u8::try_from(at - i - 1).expect("a forward jump of at most 255")
                }
            }
        };
        self.insns
            .iter()
            .enumerate()
            .map(|(i, &(code, k, jt, jf))| libc::sock_filter {
                code,
                jt: offset(i, jt),
                jf: offset(i, jf),
                k,
            })
            .collect()
    }
}

const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
const JSET: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;

/// Emits a binary search over `calls` (sorted by number): each call
/// jumps to its label, anything else returns ALLOW. The kernel evaluates
/// the filter once per system call number when it is installed (to cache
/// the calls it always allows), so a tree of depth log n instead of a
/// list of n comparisons is what makes installing it cheap.
fn search(asm: &mut Asm, calls: &[(u32, usize)]) {
    if calls.len() <= 3 {
        for &(nr, label) in calls {
            asm.jump(JEQ, nr, To::Label(label), To::Next);
        }
        asm.stmt(RET, SECCOMP_RET_ALLOW);
        return;
    }
    let (low, high) = calls.split_at(calls.len() / 2);
    let upper = asm.label();
    asm.jump(JGE, high[0].0, To::Label(upper), To::Next);
    search(asm, low);
    asm.place(upper);
    search(asm, high);
}

impl Filter {
    /// The filter for this architecture, or `None` where the judge has no
    /// system call table for it (the sandbox then says so). Without a
    /// cgroup (`counted = false`) memory outside every process's resident
    /// set cannot be measured, so the box may not make it: `memfd_create`
    /// and System V IPC are denied too, and neither a socket's buffers
    /// (what was sent and not read) nor a pipe's can be made larger than
    /// the kernel's default (`net.core.wmem_default`, 208 KiB; 16 pages):
    /// what a box can hold there is bounded by its open files and
    /// processes, not by what it asks. (The Java runtime makes a local socket pair at start, so
    /// local sockets themselves stay.)
    pub fn new(counted: bool) -> Option<Filter> {
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            None
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            let mut asm = Asm::default();
            let (kill, deny, nosys, clone) = (asm.label(), asm.label(), asm.label(), asm.label());
            let (socket, socketpair, self_only) = (asm.label(), asm.label(), asm.label());
            let (own_nice, own_io, own_sched, ignored) =
                (asm.label(), asm.label(), asm.label(), asm.label());
            let (sockopt, pipe_size, advice) = (asm.label(), asm.label(), asm.label());
            let (no_family, no_protocol, inet, netlink, allow) = (
                asm.label(),
                asm.label(),
                asm.label(),
                asm.label(),
                asm.label(),
            );
            // Another architecture's calls (or x32's, which carry bit 30)
            // would be read against the wrong table: kill.
            asm.stmt(LD_W_ABS, OFF_ARCH);
            asm.jump(JEQ, AUDIT_ARCH, To::Next, To::Label(kill));
            asm.stmt(LD_W_ABS, OFF_NR);
            #[cfg(target_arch = "x86_64")]
            asm.jump(JGE, 0x4000_0000, To::Label(kill), To::Next);
            let mut calls: Vec<(u32, usize)> =
                denied().into_iter().map(|nr| (nr as u32, deny)).collect();
            if !counted {
                calls.extend(unmeasured().into_iter().map(|nr| (nr as u32, deny)));
            }
            calls.extend(cache_probes().into_iter().map(|nr| (nr, nosys)));
            calls.extend(cache_hints().into_iter().map(|nr| (nr, ignored)));
            calls.push((libc::SYS_madvise as u32, advice));
            calls.push((libc::SYS_clone3 as u32, nosys));
            calls.push((libc::SYS_clone as u32, clone));
            calls.push((libc::SYS_socket as u32, socket));
            calls.push((libc::SYS_socketpair as u32, socketpair));
            if !counted {
                calls.push((libc::SYS_setsockopt as u32, sockopt));
                calls.push((libc::SYS_fcntl as u32, pipe_size));
            }
            calls.push((libc::SYS_prlimit64 as u32, self_only));
            for nr in [
                libc::SYS_sched_setscheduler,
                libc::SYS_sched_setparam,
                libc::SYS_sched_setattr,
            ] {
                calls.push((nr as u32, own_sched));
            }
            calls.push((libc::SYS_setpriority as u32, own_nice));
            calls.push((libc::SYS_ioprio_set as u32, own_io));
            calls.sort_unstable();
            calls.dedup_by_key(|c| c.0);
            search(&mut asm, &calls);
            // prlimit64(pid, ...): the caller's own limits only (pid 0, as
            // the C library's getrlimit and setrlimit ask); another
            // process's (the box's init) are not a program's to change.
            // A scheduling policy too (below): init's, inherited by a kept
            // box's later runs, is not a program's to lower.
            asm.place(self_only);
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(JEQ, 0, To::Label(allow), To::Label(deny));
            // A scheduling policy set by thread id (Mono sets each of its
            // threads' this way, and prints a failure on the program's
            // stdout): a no-op that succeeds, as the thread cannot be told
            // from init here.
            asm.place(own_sched);
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(JEQ, 0, To::Label(allow), To::Label(ignored));
            // setpriority and ioprio_set(which, who, value): the caller's
            // own process or group (who 0), never "every process of my
            // user", which takes in init.
            asm.place(own_nice);
            asm.stmt(LD_W_ABS, OFF_ARG1);
            asm.jump(JEQ, 0, To::Next, To::Label(deny));
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(JEQ, PRIO_USER, To::Label(deny), To::Label(allow));
            asm.place(own_io);
            asm.stmt(LD_W_ABS, OFF_ARG1);
            asm.jump(JEQ, 0, To::Next, To::Label(deny));
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(JEQ, IOPRIO_WHO_USER, To::Label(deny), To::Label(allow));
            // madvise(addr, length, advice): every advice but the two
            // that age or drop pages.
            asm.place(advice);
            asm.stmt(LD_W_ABS, OFF_ARG2);
            asm.jump(JEQ, MADV_COLD, To::Label(ignored), To::Next);
            asm.jump(JEQ, MADV_PAGEOUT, To::Label(ignored), To::Label(allow));
            asm.place(clone);
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(JSET, CLONE_NEW_FLAGS, To::Label(deny), To::Next);
            asm.stmt(RET, SECCOMP_RET_ALLOW);
            // socket(family, type, protocol): the families and protocols above.
            asm.place(socket);
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(JEQ, libc::AF_UNIX as u32, To::Label(allow), To::Next);
            asm.jump(JEQ, libc::AF_INET as u32, To::Label(inet), To::Next);
            asm.jump(JEQ, libc::AF_INET6 as u32, To::Label(inet), To::Next);
            asm.jump(
                JEQ,
                libc::AF_NETLINK as u32,
                To::Label(netlink),
                To::Label(no_family),
            );
            asm.place(inet);
            asm.stmt(LD_W_ABS, OFF_ARG2);
            for protocol in INET_PROTOCOLS {
                asm.jump(JEQ, protocol, To::Label(allow), To::Next);
            }
            asm.stmt(RET, SECCOMP_RET_ERRNO | libc::EPROTONOSUPPORT as u32);
            asm.place(netlink);
            asm.stmt(LD_W_ABS, OFF_ARG2);
            asm.jump(JEQ, 0, To::Label(allow), To::Label(no_protocol));
            // socketpair: local sockets only (no other family makes pairs,
            // but asking would load its module).
            asm.place(socketpair);
            asm.stmt(LD_W_ABS, OFF_ARG0);
            asm.jump(
                JEQ,
                libc::AF_UNIX as u32,
                To::Label(allow),
                To::Label(no_family),
            );
            // fcntl(fd, cmd, ...), without a cgroup: a pipe's buffer stays
            // at the kernel's default size, as a socket's does.
            if !counted {
                asm.place(pipe_size);
                asm.stmt(LD_W_ABS, OFF_ARG1);
                asm.jump(JEQ, F_SETPIPE_SZ, To::Label(deny), To::Label(allow));
            }
            // setsockopt(fd, level, name, ...), without a cgroup: a socket's
            // buffers stay at the kernel's default size (the data a local
            // socket holds unread is memory no process maps).
            if !counted {
                asm.place(sockopt);
                asm.stmt(LD_W_ABS, OFF_ARG1);
                asm.jump(JEQ, libc::SOL_SOCKET as u32, To::Next, To::Label(allow));
                asm.stmt(LD_W_ABS, OFF_ARG2);
                for name in BUFFER_SIZES {
                    asm.jump(JEQ, name, To::Label(deny), To::Next);
                }
            }
            asm.place(allow);
            asm.stmt(RET, SECCOMP_RET_ALLOW);
            asm.place(no_protocol);
            asm.stmt(RET, SECCOMP_RET_ERRNO | libc::EPROTONOSUPPORT as u32);
            asm.place(no_family);
            asm.stmt(RET, SECCOMP_RET_ERRNO | libc::EAFNOSUPPORT as u32);
            asm.place(deny);
            asm.stmt(RET, SECCOMP_RET_ERRNO | libc::EPERM as u32);
            asm.place(nosys);
            asm.stmt(RET, SECCOMP_RET_ERRNO | libc::ENOSYS as u32);
            asm.place(ignored);
            asm.stmt(RET, SECCOMP_RET_ERRNO);
            asm.place(kill);
            asm.stmt(RET, SECCOMP_RET_KILL_PROCESS);
            let code = asm.finish();
            let prog = libc::sock_fprog {
                len: code.len() as u16,
                filter: code.as_ptr() as *mut libc::sock_filter,
            };
            Some(Filter { code, prog })
        }
    }

    /// Installs the filter on the calling thread. Call after
    /// `PR_SET_NO_NEW_PRIVS`; async-signal-safe.
    ///
    /// # Errors
    /// The raw `errno` when the kernel refuses.
    pub fn install(&self) -> Result<(), i32> {
        // SAFETY: `prog` points at `code`, alive as long as `self`.
        let r = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER as libc::c_ulong,
                &self.prog as *const libc::sock_fprog,
            )
        };
        if r == 0 {
            Ok(())
        } else {
            Err(errno())
        }
    }
}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

#[cfg(test)]
mod tests;
