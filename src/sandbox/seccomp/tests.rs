//! The filter run as the kernel runs it, call by call.

use super::*;

/// Runs the filter as the kernel would, for one call.
fn verdict(f: &Filter, arch: u32, nr: u32, arg0: u32) -> u32 {
    verdict3(f, arch, nr, arg0, 0)
}

/// [`verdict`] with a third argument.
fn verdict3(f: &Filter, arch: u32, nr: u32, arg0: u32, arg2: u32) -> u32 {
    run(f, arch, nr, [arg0.into(), 0, arg2.into(), 0, 0, 0])
}

/// What the filter answers a call with these arguments.
fn run(f: &Filter, arch: u32, nr: u32, args: [u64; 6]) -> u32 {
    let (mut a, mut pc) = (0u32, 0usize);
    loop {
        let insn = f.code[pc];
        pc += 1;
        match insn.code {
            LD_W_ABS => {
                a = match insn.k {
                    OFF_NR => nr,
                    OFF_ARCH => arch,
                    k if k >= OFF_ARG0 && (k - OFF_ARG0).is_multiple_of(8) => {
                        args[((k - OFF_ARG0) / 8) as usize] as u32
                    }
                    k => panic!("load of offset {k}"),
                }
            }
            RET => return insn.k,
            code => {
                let taken = match code {
                    JEQ => a == insn.k,
                    JGE => a >= insn.k,
                    JSET => a & insn.k != 0,
                    c => panic!("instruction {c:#x}"),
                };
                pc += usize::from(if taken { insn.jt } else { insn.jf });
            }
        }
    }
}

#[test]
fn filter_denies_exactly_the_listed_calls() {
    let f = Filter::new(true).expect("supported architecture");
    let eperm = SECCOMP_RET_ERRNO | libc::EPERM as u32;
    let denied: Vec<u32> = denied().into_iter().map(|nr| nr as u32).collect();
    for nr in 0..512u32 {
        if nr == libc::SYS_socket as u32 || nr == libc::SYS_socketpair as u32 {
            continue;
        }
        let want = if denied.contains(&nr) {
            eperm
        } else if nr == libc::SYS_clone3 as u32 || cache_probes().contains(&nr) {
            SECCOMP_RET_ERRNO | libc::ENOSYS as u32
        } else if cache_hints().contains(&nr) {
            SECCOMP_RET_ERRNO
        } else {
            SECCOMP_RET_ALLOW
        };
        assert_eq!(verdict(&f, AUDIT_ARCH, nr, 0), want, "system call {nr}");
    }
    let clone = libc::SYS_clone as u32;
    let thread = (libc::CLONE_VM | libc::CLONE_THREAD) as u32;
    assert_eq!(verdict(&f, AUDIT_ARCH, clone, thread), SECCOMP_RET_ALLOW);
    assert_eq!(
        verdict(&f, AUDIT_ARCH, clone, libc::CLONE_NEWUSER as u32),
        eperm
    );
    let memfd = libc::SYS_memfd_create as u32;
    assert_eq!(
        verdict(&f, AUDIT_ARCH, memfd, 0),
        SECCOMP_RET_ALLOW,
        "counted"
    );
    let uncounted = Filter::new(false).expect("supported architecture");
    assert_eq!(
        verdict(&uncounted, AUDIT_ARCH, memfd, 0),
        eperm,
        "not counted"
    );
    let sockopt = libc::SYS_setsockopt as u32;
    let sol = libc::SOL_SOCKET as u64;
    for (filter, name, want, why) in [
        (&uncounted, libc::SO_SNDBUF, eperm, "not counted"),
        (&uncounted, libc::SO_RCVBUFFORCE, eperm, "not counted"),
        (
            &uncounted,
            libc::SO_REUSEADDR,
            SECCOMP_RET_ALLOW,
            "no buffer",
        ),
        (&f, libc::SO_SNDBUF, SECCOMP_RET_ALLOW, "counted"),
    ] {
        let args = [0, sol, name as u64, 0, 0, 0];
        assert_eq!(
            run(filter, AUDIT_ARCH, sockopt, args),
            want,
            "{why}: {name}"
        );
    }
    let tcp = [0, libc::IPPROTO_TCP as u64, libc::SO_SNDBUF as u64, 0, 0, 0];
    assert_eq!(
        run(&uncounted, AUDIT_ARCH, sockopt, tcp),
        SECCOMP_RET_ALLOW,
        "another level's option of the same number"
    );
    let prlimit = libc::SYS_prlimit64 as u32;
    assert_eq!(
        verdict(&f, AUDIT_ARCH, prlimit, 0),
        SECCOMP_RET_ALLOW,
        "its own"
    );
    assert_eq!(verdict(&f, AUDIT_ARCH, prlimit, 1), eperm, "init's");
    // A kept box's init passes its scheduling on to later runs.
    for nr in [
        libc::SYS_sched_setscheduler,
        libc::SYS_sched_setparam,
        libc::SYS_sched_setattr,
    ] {
        assert_eq!(verdict(&f, AUDIT_ARCH, nr as u32, 0), SECCOMP_RET_ALLOW);
        // Init's, or a thread's by its id (Mono's): succeeds, doing nothing.
        assert_eq!(
            verdict(&f, AUDIT_ARCH, nr as u32, 1),
            SECCOMP_RET_ERRNO,
            "init's"
        );
    }
    for (nr, process, user) in [
        (libc::SYS_setpriority, libc::PRIO_PROCESS as u64, PRIO_USER),
        (libc::SYS_ioprio_set, 1, IOPRIO_WHO_USER),
    ] {
        let call = |which: u64, who: u64| run(&f, AUDIT_ARCH, nr as u32, [which, who, 5, 0, 0, 0]);
        assert_eq!(call(process, 0), SECCOMP_RET_ALLOW, "its own");
        assert_eq!(call(process, 1), eperm, "init's");
        assert_eq!(call(user.into(), 0), eperm, "every process of its user");
    }
    assert_eq!(
        verdict(&f, 0x4000_0003, 0, 0),
        SECCOMP_RET_KILL_PROCESS,
        "another architecture"
    );
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        verdict(&f, AUDIT_ARCH, 0x4000_0000, 0),
        SECCOMP_RET_KILL_PROCESS,
        "x32"
    );
    // A search tree, not a list: few comparisons per call.
    let searched = denied.len() + cache_probes().len() + cache_hints().len() + 1;
    assert!(f.code.len() < 2 * searched + 60, "{}", f.code.len());
}

/// Issue 34: without a cgroup, a box may not make kernel memory that no
/// resident set shows beyond the kernel's small defaults: no System V
/// message queue or semaphore set, no pipe grown past its default.
#[test]
fn without_a_cgroup_queues_semaphores_and_big_pipes_are_refused() {
    let eperm = SECCOMP_RET_ERRNO | libc::EPERM as u32;
    let counted = Filter::new(true).expect("supported architecture");
    let uncounted = Filter::new(false).expect("supported architecture");
    for nr in [libc::SYS_msgget, libc::SYS_semget] {
        assert_eq!(
            verdict(&counted, AUDIT_ARCH, nr as u32, 0),
            SECCOMP_RET_ALLOW
        );
        assert_eq!(verdict(&uncounted, AUDIT_ARCH, nr as u32, 0), eperm);
    }
    let fcntl = |f: &Filter, cmd: u64| {
        run(
            f,
            AUDIT_ARCH,
            libc::SYS_fcntl as u32,
            [3, cmd, 1 << 20, 0, 0, 0],
        )
    };
    let set_size = libc::F_SETPIPE_SZ as u64;
    assert_eq!(F_SETPIPE_SZ as u64, set_size);
    assert_eq!(fcntl(&uncounted, set_size), eperm);
    assert_eq!(fcntl(&counted, set_size), SECCOMP_RET_ALLOW);
    for cmd in [
        libc::F_GETPIPE_SZ,
        libc::F_GETFL,
        libc::F_SETFD,
        libc::F_DUPFD_CLOEXEC,
    ] {
        assert_eq!(fcntl(&uncounted, cmd as u64), SECCOMP_RET_ALLOW, "{cmd}");
    }
}

/// The families `Filter::new` lets `socket` open.
const SOCKET_FAMILIES: [u32; 4] = [
    libc::AF_UNIX as u32,
    libc::AF_INET as u32,
    libc::AF_INET6 as u32,
    libc::AF_NETLINK as u32,
];

#[test]
fn only_the_socket_families_a_program_needs_open() {
    let f = Filter::new(true).expect("supported architecture");
    let socket = libc::SYS_socket as u32;
    let pair = libc::SYS_socketpair as u32;
    let no_family = SECCOMP_RET_ERRNO | libc::EAFNOSUPPORT as u32;
    let no_protocol = SECCOMP_RET_ERRNO | libc::EPROTONOSUPPORT as u32;
    for family in 0..64u32 {
        let want = if SOCKET_FAMILIES.contains(&family) {
            SECCOMP_RET_ALLOW
        } else {
            no_family
        };
        assert_eq!(
            verdict(&f, AUDIT_ARCH, socket, family),
            want,
            "family {family}"
        );
        let want = if family == libc::AF_UNIX as u32 {
            SECCOMP_RET_ALLOW
        } else {
            no_family
        };
        assert_eq!(verdict(&f, AUDIT_ARCH, pair, family), want, "pair {family}");
    }
    for family in [libc::AF_INET, libc::AF_INET6] {
        for protocol in 0..256u32 {
            let want = if INET_PROTOCOLS.contains(&protocol) {
                SECCOMP_RET_ALLOW
            } else {
                no_protocol
            };
            let got = verdict3(&f, AUDIT_ARCH, socket, family as u32, protocol);
            assert_eq!(got, want, "family {family} protocol {protocol}");
        }
    }
    let netlink = libc::AF_NETLINK as u32;
    assert_eq!(
        verdict3(&f, AUDIT_ARCH, socket, netlink, 0),
        SECCOMP_RET_ALLOW
    );
    assert_eq!(verdict3(&f, AUDIT_ARCH, socket, netlink, 4), no_protocol);
    assert_eq!(
        verdict(&f, AUDIT_ARCH, socket, libc::AF_VSOCK as u32),
        no_family
    );
    assert_eq!(
        verdict(&f, AUDIT_ARCH, socket, libc::AF_ALG as u32),
        no_family
    );
    // A family in the high bits of the argument is the kernel's int.
    assert_eq!(verdict(&f, AUDIT_ARCH, socket, 0x1_0000 | 40), no_family);
}

#[test]
fn madvise_may_not_age_or_drop_pages_and_may_do_the_rest() {
    let f = Filter::new(true).expect("supported architecture");
    let madvise = libc::SYS_madvise as u32;
    for advice in [MADV_COLD, MADV_PAGEOUT] {
        assert_eq!(
            verdict3(&f, AUDIT_ARCH, madvise, 0, advice),
            SECCOMP_RET_ERRNO,
            "advice {advice}: succeeds, does nothing"
        );
    }
    for advice in [
        libc::MADV_DONTNEED,
        libc::MADV_FREE,
        libc::MADV_HUGEPAGE,
        libc::MADV_WILLNEED,
    ] {
        assert_eq!(
            verdict3(&f, AUDIT_ARCH, madvise, 0, advice as u32),
            SECCOMP_RET_ALLOW,
            "advice {advice}"
        );
    }
}
