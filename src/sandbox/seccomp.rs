//! The seccomp filter every boxed program runs under: a deny list of the
//! system calls no submission or compiler needs and that could reach past
//! the namespaces (debugging other processes, mounting, loading code into
//! the kernel, new namespaces, io_uring, ...). Denied calls fail with
//! `EPERM`, so an attack fails visibly instead of crashing the program;
//! `clone3` fails with `ENOSYS`, which makes the C library fall back to
//! `clone`, whose flags the filter can inspect (no `CLONE_NEW*`). A call
//! from another ABI (x32, or a foreign architecture) kills the process.
//!
//! The filter is classic BPF written by hand: it is built once in the
//! judge and installed in the child with `prctl`, which allocates nothing.

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
const OFF_ARCH: u32 = 4;
/// The low 32 bits of the first argument (little endian).
const OFF_ARG0: u32 = 16;

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

/// A jump target while assembling.
#[derive(Clone, Copy)]
enum To {
    Next,
    Allow,
    Deny,
    NoSys,
}

fn stmt(code: u16, k: u32) -> (libc::sock_filter, To, To) {
    (
        libc::sock_filter {
            code,
            jt: 0,
            jf: 0,
            k,
        },
        To::Next,
        To::Next,
    )
}

fn jump(code: u16, k: u32, jt: To, jf: To) -> (libc::sock_filter, To, To) {
    (
        libc::sock_filter {
            code,
            jt: 0,
            jf: 0,
            k,
        },
        jt,
        jf,
    )
}

const LD_W_ABS: u16 = (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16;
const JEQ: u16 = (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16;
const JGE: u16 = (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16;
const JSET: u16 = (libc::BPF_JMP | libc::BPF_JSET | libc::BPF_K) as u16;
const RET: u16 = (libc::BPF_RET | libc::BPF_K) as u16;

impl Filter {
    /// The filter for this architecture, or `None` where the judge has no
    /// system call table for it (the sandbox then says so).
    pub fn new() -> Option<Filter> {
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        {
            None
        }
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
        {
            let mut body = vec![
                stmt(LD_W_ABS, OFF_ARCH),
                jump(JEQ, AUDIT_ARCH, To::Next, To::Deny),
                stmt(LD_W_ABS, OFF_NR),
            ];
            // Wrong architecture is handled by the instruction after the
            // body (kill); see `assemble`. x32 system calls carry bit 30.
            #[cfg(target_arch = "x86_64")]
            body.push(jump(JGE, 0x4000_0000, To::Deny, To::Next));
            for nr in denied() {
                body.push(jump(JEQ, nr as u32, To::Deny, To::Next));
            }
            body.push(jump(JEQ, libc::SYS_clone3 as u32, To::NoSys, To::Next));
            body.push(jump(JEQ, libc::SYS_clone as u32, To::Next, To::Allow));
            body.push(stmt(LD_W_ABS, OFF_ARG0));
            body.push(jump(JSET, CLONE_NEW_FLAGS, To::Deny, To::Allow));
            Some(Filter::assemble(body))
        }
    }

    /// Resolves jump targets: the body is followed by ALLOW, DENY (EPERM)
    /// and NOSYS returns. The architecture check jumps to DENY... which
    /// must kill instead, so it gets its own KILL instruction first.
    fn assemble(body: Vec<(libc::sock_filter, To, To)>) -> Filter {
        // Layout: [0] ld arch, [1] jeq arch ? next : kill, [2] kill,
        // then the rest of the body, then allow, deny, nosys.
        let mut items = Vec::with_capacity(body.len() + 4);
        let mut it = body.into_iter();
        items.push(it.next().expect("body starts with the arch load"));
        let (check, _, _) = it.next().expect("body has the arch check");
        // jt skips the kill instruction; jf falls onto it.
        items.push((
            libc::sock_filter {
                code: check.code,
                jt: 1,
                jf: 0,
                k: check.k,
            },
            To::Next,
            To::Next,
        ));
        items.push(stmt(RET, SECCOMP_RET_KILL_PROCESS));
        items.extend(it);
        let allow = items.len();
        let deny = allow + 1;
        let nosys = allow + 2;
        let mut code: Vec<libc::sock_filter> = items
            .iter()
            .enumerate()
            .map(|(i, (insn, jt, jf))| {
                let target = |to: To, keep: u8| -> u8 {
                    let at = match to {
                        To::Next => return keep,
                        To::Allow => allow,
                        To::Deny => deny,
                        To::NoSys => nosys,
                    };
                    // Classic BPF jumps are relative and at most 255; the
                    // deny list is far shorter.
                    u8::try_from(at - i - 1).expect("seccomp jump fits in u8")
                };
                libc::sock_filter {
                    code: insn.code,
                    jt: target(*jt, insn.jt),
                    jf: target(*jf, insn.jf),
                    k: insn.k,
                }
            })
            .collect();
        code.push(stmt(RET, SECCOMP_RET_ALLOW).0);
        code.push(stmt(RET, SECCOMP_RET_ERRNO | libc::EPERM as u32).0);
        code.push(stmt(RET, SECCOMP_RET_ERRNO | libc::ENOSYS as u32).0);
        let prog = libc::sock_fprog {
            len: code.len() as u16,
            filter: code.as_ptr() as *mut libc::sock_filter,
        };
        Filter { code, prog }
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
mod tests {
    use super::*;

    #[test]
    fn filter_assembles_with_returns_last() {
        let f = Filter::new().expect("supported architecture");
        let n = f.code.len();
        assert_eq!(f.code[n - 3].k, SECCOMP_RET_ALLOW);
        assert_eq!(f.code[2].k, SECCOMP_RET_KILL_PROCESS);
        assert_eq!(f.prog.len as usize, n);
    }
}
