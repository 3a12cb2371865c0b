//! The box's init and the helper that builds the base file system.

use std::os::fd::RawFd;

use super::mounts::{
    bind, clone_mounts, copy_file, make_read_only, mkdir, mount_tmpfs, open_source, BIND_SOURCE,
    COPY_SOURCE,
};
use super::net::Views;
use super::program::program;
use super::{become_box_user, check, close_all_but, fail, spawn, Prep};
use crate::sandbox::ns::job::{slice, Job, JobKind};
use crate::sandbox::ns::plan::{Op, SOURCE_FD, WORK_C};
use crate::sandbox::ns::wire::{self, Control, Record, Step};
use crate::sandbox::ns::Users;

/// The box's init (PID 1 of its namespace): builds the base file system,
/// enters the root where it can ([`enter_ahead`]), arms the program's
/// process, waits for its run, adds the run's mounts, enters the root (if
/// not yet), lets the program go, reaps everything, reports. A
/// kept box ([`Job::keep`]) then cleans itself, arms the next program's
/// process and waits for the next run of the same mounts.
///
/// # Safety
/// Only in the child of the fork-like clone in `Inner::clone_init`.
pub(in crate::sandbox::ns) unsafe fn init(prep: &Prep) -> ! {
    let report = prep.report;
    let go = wait_for_go(prep);
    build_base_by_helper(prep);
    let tree = match go {
        Control::Go => enter_ahead(prep),
        _ => -1,
    };
    let host = b"box";
    check(
        libc::sethostname(host.as_ptr().cast(), host.len()),
        report,
        Step::Hostname,
    );
    // Init's own network namespace, to come back to from a run's.
    let own_net = libc::open(
        c"/proc/self/ns/net".as_ptr(),
        libc::O_RDONLY | libc::O_CLOEXEC,
    );
    if own_net < 0 {
        fail(report, Step::Ipc);
    }
    // Without a cgroup, counts the CPU time of every process of every run
    // from here on, whoever reaps it (-1 where the kernel refuses, or a
    // cgroup counts: see `task_clock`).
    let clock = if prep.count_cpu { task_clock() } else { -1 };
    // What the run's network namespace showed when new (see `net`).
    let mut views = Views::new();
    // What each program's process runs on until its exec.
    let stack = stub_stack(report);
    let (mut stub, mut to_stub, mut run_net) =
        arm_program(prep, (own_net, -1), &mut views, stack, || {});
    // Every later run of a kept box gets the pids its first run got.
    let first_pid = stub;
    say_prepared(report);

    // The run: its description in shared memory, its stdio on the socket.
    let Some(mut stdio) = wire::receive_run(prep.control) else {
        // The judge dropped the box unused.
        libc::_exit(0)
    };
    // The job is read again for every run: the judge rewrites it between
    // them. The first run's mounts stay for the box's later runs.
    add_run_mounts(prep, &*prep.job, tree);
    if tree >= 0 {
        root_read_only(c"/".as_ptr(), report);
        // No program ever runs beside a way back to the host. The copy
        // goes to the judge's end of the control socket, where it stays
        // until the box is dropped: closing the last reference here would
        // wait, on the run's path, for the kernel to tear it down.
        wire::send_one(prep.control, Control::Tree, tree);
        libc::close(tree);
    } else {
        root_read_only(prep.base.root.as_ptr(), report);
        pivot(prep);
    }
    // What tells a kept box whether a run touched its scratch mounts (see
    // `clean`), as they are now: mounted, and not yet shown to any run. A
    // box used once has none (closing one waits for the kernel's SRCU
    // grace period: milliseconds, on the way out of the box).
    let mut scratch_watch = if (*prep.job).keep {
        libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC)
    } else {
        -1
    };
    watch_scratch(&mut scratch_watch, roots(prep, &*prep.job));
    loop {
        let job = &*prep.job;
        if job.cpu >= 0 && (job.cpu as usize) < libc::CPU_SETSIZE as usize {
            // The program's threads and children inherit it; it cannot
            // undo it (seccomp). A core the machine took away since is no
            // pinning.
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(job.cpu as usize, &mut set);
            libc::sched_setaffinity(stub, std::mem::size_of::<libc::cpu_set_t>(), &set);
        }
        // The file system is ready: the program may go.
        let clock_at_go = read_clock(clock);
        if wire::send_run(to_stub, &stdio) != 1 {
            fail(report, Step::Job);
        }
        // Init keeps only its channels: the run's stdio are the program's
        // alone (a pipe's reader must see its end when the program's does).
        let [a, b, c, d, e] = views.files();
        close_all_but(&[
            report,
            prep.control,
            own_net,
            run_net,
            clock,
            scratch_watch,
            a,
            b,
            c,
            d,
            e,
        ]);
        reap_and_report(stub, report, (clock, clock_at_go));
        if !job.keep {
            if !job.space.is_null() {
                hand_over_space(prep, job.space);
            }
            // Init's exit tears the box's namespaces down, in the kernel,
            // on this core, where the judge wakes to read the report: the
            // judge's reaper ends the box instead, off the runs' path
            // (or the socket's end, when the judge is gone).
            let _ = wire::receive_run(prep.control);
            libc::_exit(0);
        }
        let kept_net = drain(run_net, own_net, report, &mut views);
        restart_pids(first_pid, report);
        // The scratch space is emptied while the next program's process
        // arms itself.
        (stub, to_stub, run_net) =
            arm_program(prep, (own_net, kept_net), &mut views, stack, || {
                clean(prep, job, &mut scratch_watch)
            });
        say_prepared(report);
        match wire::receive_run(prep.control) {
            Some(next) => stdio = next,
            None => libc::_exit(0),
        }
    }
}

unsafe fn say_prepared(report: RawFd) {
    let mut msg = [0u8; Record::MAX];
    let len = Record::Prepared.encode(&mut msg);
    libc::write(report, msg.as_ptr().cast(), len);
}

/// Empties what a run could write, for the next run of a kept box: `/tmp`
/// and the working directory's tmpfs are mounted afresh (the old ones,
/// with everything in them, go with their last reference), before the
/// next program may go; not where no run touched them since they were
/// mounted (`watch`, see [`watch_scratch`]). Every process of the run is
/// gone by now; System V and POSIX IPC are left behind in the run's own
/// IPC namespace, and its sockets in its own network namespace (see
/// [`drain`] for those still in flight).
///
/// A fresh mount costs more than the rest of a trivial run's cleaning (its
/// unmount waits for the kernel's expedited RCU grace period, which
/// interrupts every core), and a run that only computes never touches it.
unsafe fn clean(prep: &Prep, job: &Job, watch: &mut RawFd) {
    let report = prep.report;
    if *watch >= 0 && untouched(*watch) {
        return;
    }
    for (target, options) in scratch(prep, job) {
        check(
            libc::umount2(target.as_ptr(), libc::MNT_DETACH),
            report,
            Step::Clean,
        );
        mount_tmpfs(target.as_ptr(), options, report, Step::Clean);
    }
    watch_scratch(watch, roots(prep, job));
}

/// What a run of `job` can write in its box: `/tmp` and, where the judge
/// gave the run no working directory of its own, the box's; each with its
/// mount options.
fn scratch<'a>(
    prep: &'a Prep,
    job: &Job,
) -> impl Iterator<Item = (&'static std::ffi::CStr, *const libc::c_char)> + 'a {
    let work = job.work_tmpfs.then(|| (WORK_C, prep.base.work.as_ptr()));
    std::iter::once((c"/tmp", prep.base.tmp.as_ptr())).chain(work)
}

/// Where [`scratch`] mounts are.
fn roots<'a>(prep: &'a Prep, job: &Job) -> impl Iterator<Item = &'static std::ffi::CStr> + 'a {
    scratch(prep, job).map(|(root, _)| root)
}

/// Watches each of the scratch mounts' `roots`, as they were just
/// mounted, with inotify instance `watch` (-1 where the kernel gave none,
/// or it failed here: every cleaning then mounts afresh). Whatever a run
/// can leave in a tmpfs that is there for the next run to find begins
/// with an event on its root: an entry made, removed or renamed there
/// (the first step to anything deeper), the root's attributes, times,
/// owner or extended attributes changed, or a file opened there, an
/// unnamed `O_TMPFILE` one included (which takes the next inode number).
/// Reading the root lists it (an event too: mounted afresh then,
/// needlessly). The instance is init's alone (close-on-exec, and the
/// program's process closes what it inherits before it is armed), and
/// lasts as long as the box: closing one waits for an SRCU grace period.
/// What is queued is read away: the run's events and those of the
/// mounts just replaced (the kernel queues those as it unmounts them).
unsafe fn watch_scratch(watch: &mut RawFd, roots: impl Iterator<Item = &'static std::ffi::CStr>) {
    if *watch < 0 {
        return;
    }
    for target in roots {
        if libc::inotify_add_watch(*watch, target.as_ptr(), libc::IN_ALL_EVENTS) < 0 {
            libc::close(*watch);
            *watch = -1;
            return;
        }
    }
    let mut events = [0u8; 4096];
    while libc::read(*watch, events.as_mut_ptr().cast(), events.len()) > 0 {}
}

/// Whether nothing happened under the watch (see [`watch_scratch`]) since
/// it was made: no event waits, not even an overflow. (`poll`, whose
/// answer needs no `errno`: the program's process, armed beside this,
/// shares it.)
unsafe fn untouched(watch: RawFd) -> bool {
    let mut ready = libc::pollfd {
        fd: watch,
        events: libc::POLLIN,
        revents: 0,
    };
    libc::poll(&mut ready, 1, 0) == 0
}

/// Waits until every socket of the run that ended is gone, those that
/// only a cycle of descriptors in flight (`SCM_RIGHTS`) keeps alive
/// included: the kernel collects those later, and until then they hold
/// what was sent with them (a `flock` on a file the next run can open,
/// socket buffers charged to the box). Init enters the run's network
/// namespace (`run_net`), where only the run's sockets live, releases a
/// socket there (which sets the kernel's collector to work while any are
/// in flight) and reads the namespace's socket count until it is 0; then
/// comes back to its own (`own_net`). A run whose sockets do not go
/// within a second fails the cleaning, and the box is not kept. Returns
/// `run_net` where the run left nothing else there either (its `views`
/// are what they were when it was made: see `net`), for the next run;
/// otherwise closes it and returns -1.
unsafe fn drain(run_net: RawFd, own_net: RawFd, report: RawFd, views: &mut Views) -> RawFd {
    check(
        libc::setns(run_net, libc::CLONE_NEWNET),
        report,
        Step::Drain,
    );
    let mut waited = 0;
    loop {
        let Some(used) = sockets_used() else {
            fail(report, Step::Drain)
        };
        if used == 0 {
            break;
        }
        if waited >= 1000 {
            *libc::__errno_location() = libc::EBUSY;
            fail(report, Step::Drain);
        }
        if waited % 50 == 0 {
            let mut pair = [0; 2];
            if libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM, 0, pair.as_mut_ptr()) == 0 {
                libc::close(pair[0]);
                libc::close(pair[1]);
            }
        }
        libc::usleep(1000);
        waited += 1;
    }
    if waited > 0 {
        // The collector releases the files that were in flight with the
        // sockets in the same pass, right after them.
        libc::usleep(5000);
    }
    let kept = if views.unchanged() {
        run_net
    } else {
        libc::close(run_net);
        -1
    };
    check(
        libc::setns(own_net, libc::CLONE_NEWNET),
        report,
        Step::Drain,
    );
    kept
}

/// The sockets of init's network namespace (`sockets: used` of
/// `/proc/self/net/sockstat`, which counts only the namespace's own
/// sockets, those in flight included).
unsafe fn sockets_used() -> Option<u64> {
    let fd = libc::open(
        c"/proc/self/net/sockstat".as_ptr(),
        libc::O_RDONLY | libc::O_CLOEXEC,
    );
    if fd < 0 {
        return None;
    }
    let mut buf = [0u8; 128];
    let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
    libc::close(fd);
    let text = buf.get(..usize::try_from(n).ok()?)?;
    let rest = text.strip_prefix(b"sockets: used ")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    Some(
        rest[..digits]
            .iter()
            .fold(0u64, |n, d| n * 10 + u64::from(d - b'0')),
    )
}

/// Sets the PID namespace's last pid so that the next run's process gets
/// `first_pid`, as the box's first run did (every process of the run
/// before is reaped, so its pids are free): the pids a run is given say
/// nothing of how many processes an earlier run made.
unsafe fn restart_pids(first_pid: libc::pid_t, report: RawFd) {
    let fd = libc::open(
        c"/proc/sys/kernel/ns_last_pid".as_ptr(),
        libc::O_WRONLY | libc::O_CLOEXEC,
    );
    if fd < 0 {
        fail(report, Step::Pids);
    }
    let mut digits = [0u8; 12];
    let mut at = digits.len();
    let mut n = (first_pid - 1).max(1) as u32;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let len = digits.len() - at;
    if libc::write(fd, digits[at..].as_ptr().cast(), len) != len as isize {
        fail(report, Step::Pids);
    }
    libc::close(fd);
}

/// Dies with the judge's thread, keeps only its own descriptors, waits
/// for the judge's go (the id maps are written), moves itself into the
/// box's cgroup where the go brought the way in, then hides its memory
/// and makes every mount private. Which go it was.
unsafe fn wait_for_go(prep: &Prep) -> Control {
    let report = prep.report;
    // Die with the zygote that made this box (which dies with the judge).
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
    // The zygote lets the kernel reap its children; init reaps its own.
    let mut default: libc::sigaction = std::mem::zeroed();
    default.sa_sigaction = libc::SIG_DFL;
    libc::sigaction(libc::SIGCHLD, &default, std::ptr::null_mut());
    let name = c"init";
    libc::prctl(libc::PR_SET_NAME, name.as_ptr() as libc::c_ulong);
    // Only this box's job slot of the shared region stays mapped.
    let (start, len) = prep.region;
    let job = prep.job as usize;
    if job >= start && job < start + len {
        let slot = crate::sandbox::ns::region::JOB_BYTES;
        if job > start {
            libc::munmap(start as *mut libc::c_void, job - start);
        }
        if start + len > job + slot {
            libc::munmap((job + slot) as *mut libc::c_void, start + len - job - slot);
        }
    }
    // Descriptors of the judge (other boxes' pipes, its files) are not
    // this box's business.
    close_all_but(&[prep.control, report]);
    let mut entrances = [-1; 3];
    let Some((go, count)) = wire::receive_go(prep.control, &mut entrances) else {
        fail(report, Step::Go)
    };
    // Into the box's cgroups by itself, while it is the box's only
    // thread (see `RunGroup::entrances`): the helper it forks next, and
    // every process after, start there.
    for &fd in &entrances[..count] {
        if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
            fail(report, Step::Enter);
        }
        libc::close(fd);
    }
    if prep.users == Users::Namespace {
        // Never without a user namespace of the box's own: there these
        // would be the host's.
        limit_namespace_counts();
    }
    // Nothing in the box may read init's memory or descriptors. (Not
    // before the judge has written the id maps: a process that is not
    // dumpable has its /proc files owned by root.)
    libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong);
    let null = std::ptr::null::<libc::c_char>();
    check(
        libc::mount(
            null,
            c"/".as_ptr(),
            null,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ),
        report,
        Step::Private,
    );
    go
}

/// Sets the counts this box's user namespace allows low (inotify
/// instances and watches; no further namespaces but the few init makes
/// itself, no fanotify groups or marks). The kernel charges each of them
/// to the namespace's creator too (the judge's uid): unbounded, one box
/// could take them all from every process of that uid on the host. Init
/// may (it holds every capability in its own namespace); the program,
/// without capabilities, cannot raise them. Where a count does not exist
/// (an older kernel) or there is no user namespace (root's tier), nothing
/// is written.
unsafe fn limit_namespace_counts() {
    let counts: [(&std::ffi::CStr, &[u8]); 12] = [
        (c"/proc/sys/user/max_inotify_instances", b"16"),
        (c"/proc/sys/user/max_inotify_watches", b"1024"),
        (c"/proc/sys/user/max_fanotify_groups", b"0"),
        (c"/proc/sys/user/max_fanotify_marks", b"0"),
        (c"/proc/sys/user/max_user_namespaces", b"0"),
        // Init's own, its copy of the host's tree (`enter_ahead`) and one
        // bind's copy at a time, with room for the kernel's late frees.
        (c"/proc/sys/user/max_mnt_namespaces", b"8"),
        (c"/proc/sys/user/max_pid_namespaces", b"0"),
        // Init's program processes make one of each per run (the kernel
        // frees a network namespace a little after its run); the program
        // itself can make none.
        (c"/proc/sys/user/max_net_namespaces", b"256"),
        (c"/proc/sys/user/max_ipc_namespaces", b"256"),
        (c"/proc/sys/user/max_uts_namespaces", b"0"),
        (c"/proc/sys/user/max_cgroup_namespaces", b"0"),
        (c"/proc/sys/user/max_time_namespaces", b"0"),
    ];
    for (path, value) in counts {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd >= 0 {
            libc::write(fd, value.as_ptr().cast(), value.len());
            libc::close(fd);
        }
    }
}

/// Opens the base's bind sources, then has a helper build the base as
/// the box user, while init keeps the judge's identity to open the run's
/// own paths later (which the box user may not be able to reach: a
/// toolchain under /root).
unsafe fn build_base_by_helper(prep: &Prep) {
    let report = prep.report;
    for op in &prep.base.ops {
        if let Op::Bind { source, fd, .. } = op {
            open_source(source.as_ptr(), BIND_SOURCE, *fd, -1, report);
        }
    }
    // The helper runs before init touches the stack again: a shared slice
    // is written only by it.
    let helper = spawn(prep.stack, base_entry, (prep as *const Prep).cast(), 0);
    let mut status = 0;
    if helper < 0 {
        fail(report, Step::Fork);
    }
    while libc::waitpid(helper, &mut status, libc::__WALL) < 0 {
        if *libc::__errno_location() != libc::EINTR {
            fail(report, Step::Base);
        }
    }
    if !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0) {
        // The helper reported its failed step.
        libc::_exit(126);
    }
    if prep.base.sources > 0 {
        let last = SOURCE_FD as u32 + prep.base.sources as u32 - 1;
        libc::syscall(libc::SYS_close_range, SOURCE_FD as u32, last, 0u32);
    }
}

/// Forks the program's process, which arms itself (box user, no
/// capabilities, seccomp) while the box waits: only its exec is left for
/// the run. Its root and working directory are the old root, which
/// `pivot_root` moves to the new one (or, in a kept box, the box's root).
/// It makes its own IPC namespace, and is forked into a network namespace
/// of its own (and held, `own_net` being init's own to come back to):
/// nothing an earlier run of a kept box made or counted (System V and
/// POSIX IPC; sockets, abstract names and the counters of `/proc/net`)
/// reaches it, and [`drain`] can tell when the run's sockets are gone.
/// The namespace is `kept`, the run before's, where that run left it as
/// it found it (see `net`), or a new one, whose `views` are read.
/// The process shares init's memory until its exec (`CLONE_VM`, on
/// `stack`, the top of memory nothing else uses): copying init's page
/// tables for a process that only makes system calls and execs was most
/// of what forking it cost, with the copy-on-write faults after. No
/// program runs in the box while it is armed (the run before is reaped),
/// and after its exec it has its own memory, as any program. Init does
/// `meanwhile` while it arms itself: system calls on its own stack and
/// the prepared plan, which the process only reads (the two share the C
/// library's `errno`, read only on a failure that ends the box).
/// `nets`: init's own network namespace and the one `kept` from the run
/// before (or -1).
/// Returns its pid, init's end of the socket to it and its network
/// namespace, once it is armed.
unsafe fn arm_program(
    prep: &Prep,
    (own_net, kept): (RawFd, RawFd),
    views: &mut Views,
    stack: usize,
    meanwhile: impl FnOnce(),
) -> (libc::pid_t, RawFd, RawFd) {
    let report = prep.report;
    check(libc::chdir(c"/".as_ptr()), report, Step::Chdir);
    let mut pair = [0; 2];
    if libc::socketpair(
        libc::AF_UNIX,
        libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
        0,
        pair.as_mut_ptr(),
    ) != 0
    {
        fail(report, Step::Fork);
    }
    let [to_stub, stub_end] = pair;
    // Init's sockets stay in its own namespace: only the run's are in the
    // run's.
    let net = if kept >= 0 && libc::setns(kept, libc::CLONE_NEWNET) == 0 {
        kept
    } else {
        if kept >= 0 {
            libc::close(kept);
        }
        check(libc::unshare(libc::CLONE_NEWNET), report, Step::Ipc);
        views.take();
        libc::open(
            c"/proc/self/ns/net".as_ptr(),
            libc::O_RDONLY | libc::O_CLOEXEC,
        )
    };
    if net < 0 {
        fail(report, Step::Ipc);
    }
    let args = StubArgs {
        prep,
        end: stub_end,
    };
    let stub = libc::clone(
        stub_entry,
        stack as *mut libc::c_void,
        libc::CLONE_VM | libc::SIGCHLD,
        (&args as *const StubArgs).cast_mut().cast(),
    );
    if stub < 0 {
        fail(report, Step::Fork);
    }
    check(libc::setns(own_net, libc::CLONE_NEWNET), report, Step::Ipc);
    libc::close(stub_end);
    meanwhile();
    if !Control::Armed.receive(to_stub) {
        // The program's side reported why.
        libc::_exit(126);
    }
    (stub, to_stub, net)
}

/// What [`stub_entry`] is given: init's own, alive while init waits for
/// the process to be armed.
struct StubArgs<'a> {
    prep: &'a Prep<'a>,
    /// The process's end of its socket to init.
    end: RawFd,
}

/// The program's process, cloned by [`arm_program`]: system calls only.
extern "C" fn stub_entry(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is arm_program's `StubArgs`, read before the process
    // says it is armed (arm_program returns only after that); `prep` is
    // init's, which outlives it.
    unsafe {
        let a = &*arg.cast::<StubArgs>();
        let (prep, end) = (a.prep, a.end);
        program(prep, end)
    }
}

/// Maps the stack the program's processes run on until their exec (one at
/// a time: the one before has exec'd or ended by the next arming); its
/// top, aligned.
unsafe fn stub_stack(report: RawFd) -> usize {
    const SIZE: usize = 256 << 10;
    let stack = libc::mmap(
        std::ptr::null_mut(),
        SIZE,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
        -1,
        0,
    );
    if stack == libc::MAP_FAILED {
        fail(report, Step::Fork);
    }
    (stack as usize + SIZE) & !15
}

/// Mounts the run's binds, symlinks and tmpfs and copies its copied
/// directories (sources opened with the judge's identity, from `tree`
/// where init entered the root ahead, mounts and copies made as the box
/// user). The job's paths are relative to the box's root: init works from
/// there, or from the staging directory where it has not entered it yet.
unsafe fn add_run_mounts(prep: &Prep, job: &Job, tree: RawFd) {
    let report = prep.report;
    let at = if tree >= 0 {
        c"/".as_ptr()
    } else {
        prep.base.root.as_ptr()
    };
    check(libc::chdir(at), report, Step::Chdir);
    let ops = slice(job.ops, job.n_ops);
    for op in ops {
        match op.kind {
            JobKind::BindDir | JobKind::BindFile => {
                open_source(op.source, BIND_SOURCE, op.fd, tree, report)
            }
            JobKind::CopyFile => open_source(op.source, COPY_SOURCE, op.fd, tree, report),
            _ => {}
        }
    }
    if prep.users == Users::Namespace {
        become_box_user(prep);
    }
    for &dir in slice(job.mkdirs, job.n_mkdirs) {
        mkdir(dir, report);
    }
    for op in ops {
        match op.kind {
            JobKind::Symlink => check(libc::symlink(op.source, op.target), report, Step::Symlink),
            JobKind::Tmpfs => mount_tmpfs(op.target, op.source, report, Step::Tmpfs),
            JobKind::Mkdir => mkdir(op.target, report),
            JobKind::CopyFile => copy_file(op.fd, op.target, op.mode, report),
            JobKind::Seal => make_read_only(op.target, 0, report),
            kind => bind(
                op.fd_path,
                if tree >= 0 { op.fd } else { -1 },
                op.target,
                kind == JobKind::BindFile,
                op.writable != 0,
                op.locked,
                report,
            ),
        }
        // A working space is the box user's (in a user namespace, init
        // made it as that user already).
        if op.own != 0 && prep.users == Users::Setuid {
            check(
                libc::lchown(op.target, prep.host_uid, prep.host_gid),
                report,
                Step::Copy,
            );
        }
    }
}

/// Hands the run's working space (`space`, a path in the box) to the judge
/// over the control socket, once every process of the run is gone: its
/// tmpfs outlives the box as long as the judge holds it open. Nothing is
/// sent where it cannot be opened; the judge then takes nothing back.
unsafe fn hand_over_space(prep: &Prep, space: *const libc::c_char) {
    let dir = libc::open(
        space,
        libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC,
    );
    if dir >= 0 {
        wire::send_one(prep.control, Control::Space, dir);
        libc::close(dir);
    }
}

/// Enters the box's root before any run is known, where the kernel can
/// clone a mount out of a detached tree (Linux 6.15 and later): init
/// first keeps a detached copy of its mount namespace (the host's tree,
/// as it is now), which a run's binds and copied files then come out of
/// ([`super::mounts::open_source`]). The root's `pivot_root` and the old
/// root's detach, which waits for the kernel's RCU grace period, then
/// happen before the box is handed a run, not on the run's way. The root
/// stays writable until the run's mounts are in place. The copy is
/// init's alone, given up before its first program goes (sent to the
/// judge, then closed); no other process of the box ever holds it.
/// Returns it, or -1 where the kernel cannot clone out of it: init then
/// enters the root with its first run.
unsafe fn enter_ahead(prep: &Prep) -> RawFd {
    let tree = clone_mounts(libc::AT_FDCWD, c"/".as_ptr());
    if tree < 0 {
        return -1;
    }
    // Whether mounts clone out of the copy: its own.
    let probe = clone_mounts(tree, c"".as_ptr());
    if probe < 0 {
        libc::close(tree);
        return -1;
    }
    libc::close(probe);
    pivot(prep);
    tree
}

/// Makes the root tmpfs at `root` read-only, with everything in it.
unsafe fn root_read_only(root: *const libc::c_char, report: RawFd) {
    let null = std::ptr::null::<libc::c_char>();
    check(
        libc::mount(
            null,
            root,
            null,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            std::ptr::null(),
        ),
        report,
        Step::RootReadOnly,
    );
}

/// `pivot_root`s into the box's root and detaches the old root: no path
/// leads back to the host.
unsafe fn pivot(prep: &Prep) {
    let report = prep.report;
    check(libc::chdir(prep.base.root.as_ptr()), report, Step::Pivot);
    check(
        libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as libc::c_int,
        report,
        Step::Pivot,
    );
    check(
        libc::umount2(c".".as_ptr(), libc::MNT_DETACH),
        report,
        Step::Umount,
    );
}

/// Opens a task clock on init itself, inherited by every process it makes
/// from now on and theirs (`perf_event_open`, software event
/// `TASK_CLOCK`, counting only): its count is the CPU time, user and
/// system, of init and of every descendant, alive or ended, whether or not
/// anything reaped it. The kernel adds an ended process's count to its
/// parent's as it exits, so a child of a parent that ignores `SIGCHLD`
/// (reaped by the kernel itself, its rusage given to nobody) is counted
/// too. Counting one's own processes needs no privilege where
/// `kernel.perf_event_paranoid` is 2 or lower (the kernel's default);
/// where it is 3, or a container's filter refuses the call, -1: the
/// judge's tier check says so (`grundy doctor`). The program cannot
/// touch it: the descriptor is init's, and seccomp refuses the call.
pub(in crate::sandbox::ns) unsafe fn task_clock() -> RawFd {
    // The attribute's first version (64 bytes), which every kernel with
    // `perf_event_open` reads: type, size, config, and the flag bits at
    // byte 40 (`inherit` 1, `exclude_kernel` 5, `exclude_hv` 6). Kernel
    // time is still counted (a task clock counts time on the CPU);
    // excluding it only spares the check that sampling the kernel needs.
    let mut attr = [0u64; 8];
    attr[0] = u64::from(PERF_TYPE_SOFTWARE) | (64u64 << 32);
    attr[1] = PERF_COUNT_SW_TASK_CLOCK;
    attr[5] = 1 << 1 | 1 << 5 | 1 << 6;
    libc::syscall(
        libc::SYS_perf_event_open,
        attr.as_ptr(),
        0 as libc::pid_t,
        -1 as libc::c_int,
        -1 as libc::c_int,
        PERF_FLAG_FD_CLOEXEC,
    ) as RawFd
}

/// `linux/perf_event.h`'s values (the libc crate has none of them).
const PERF_TYPE_SOFTWARE: u32 = 1;
const PERF_COUNT_SW_TASK_CLOCK: u64 = 1;
const PERF_FLAG_FD_CLOEXEC: libc::c_ulong = 1 << 3;

/// The task clock's count (ns), or `u64::MAX` without one.
unsafe fn read_clock(clock: RawFd) -> u64 {
    if clock < 0 {
        return u64::MAX;
    }
    let mut count = 0u64;
    let n = libc::read(clock, (&mut count as *mut u64).cast(), 8);
    if n == 8 {
        count
    } else {
        u64::MAX
    }
}

/// Reaps every process until the program (`child`) ends, kills the rest
/// of the namespace and reaps it too, then reports the program's status
/// and the rusage of everything reaped in this run: nothing of the run is
/// left, and every process and thread of it, whether it ended by itself
/// or was killed at the end, is counted (the kernel's rusage of a reaped
/// process holds the exact CPU time of all its threads, however short
/// each ran; an orphan is reparented to init and reaped here too).
///
/// `(clock, at_go)`: init's task clock and its count when the program was
/// let go; the difference is the run's CPU time, every process's (see
/// [`task_clock`]).
unsafe fn reap_and_report(child: libc::pid_t, report: RawFd, (clock, at_go): (RawFd, u64)) {
    let mut program_status = None;
    // Each reaped process's own usage and its reaped children's.
    let us = |tv: libc::timeval| tv.tv_sec as u64 * 1_000_000 + tv.tv_usec as u64;
    let (mut user_us, mut system_us, mut max_rss_kib) = (0, 0, 0);
    let mut killed = false;
    loop {
        let mut status = 0;
        let mut usage: libc::rusage = std::mem::zeroed();
        let r = libc::wait4(-1, &mut status, libc::__WALL, &mut usage);
        if r > 0 {
            user_us += us(usage.ru_utime);
            system_us += us(usage.ru_stime);
            max_rss_kib = max_rss_kib.max(usage.ru_maxrss as u64);
        }
        if r == child {
            program_status = Some(status);
        }
        if r < 0 && *libc::__errno_location() == libc::EINTR {
            continue;
        }
        if (r == child || r < 0) && !killed {
            // Nothing outlives the program: kill the rest of the
            // namespace, and go on reaping until no process is left.
            libc::kill(-1, libc::SIGKILL);
            killed = true;
            continue;
        }
        if r < 0 {
            break;
        }
    }
    let mut own: libc::rusage = std::mem::zeroed();
    libc::getrusage(libc::RUSAGE_SELF, &mut own);
    let now = read_clock(clock);
    let counted_ns = if now == u64::MAX || at_go == u64::MAX {
        u64::MAX
    } else {
        now.saturating_sub(at_go)
    };
    // One write, so the judge wakes once. (Each record is at most
    // `Record::MAX` bytes, so the slices below are in bounds.)
    let mut msg = [0u8; 2 * Record::MAX];
    let mut one = [0u8; Record::MAX];
    let n = Record::Usage {
        user_us,
        system_us,
        max_rss_kib,
        inherited_kib: own.ru_maxrss as u64,
        counted_ns,
    }
    .encode(&mut one);
    msg[..n].copy_from_slice(&one[..n]);
    let mut len = n;
    if let Some(status) = program_status {
        let n = Record::Status(status).encode(&mut one);
        msg[len..len + n].copy_from_slice(&one[..n]);
        len += n;
    }
    libc::write(report, msg.as_ptr().cast(), len);
}

extern "C" fn base_entry(prep: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `prep` is init's, alive (init waits for this helper).
    unsafe { build_base(&*(prep as *const Prep)) }
}

/// The helper's side: the root tmpfs and every shared mount, as the box
/// user; the sources are already open on their reserved descriptors.
unsafe fn build_base(prep: &Prep) -> ! {
    let report = prep.report;
    if prep.users == Users::Namespace {
        become_box_user(prep);
    }
    let base = prep.base;
    mount_tmpfs(base.root.as_ptr(), base.tmpfs.as_ptr(), report, Step::Root);
    for op in &base.ops {
        match op {
            Op::Mkdir(path) => mkdir(path.as_ptr(), report),
            Op::Bind {
                fd_path,
                target,
                file,
                writable,
                locked,
                ..
            } => bind(
                fd_path.as_ptr(),
                -1,
                target.as_ptr(),
                *file,
                *writable,
                *locked,
                report,
            ),
            Op::Tmpfs { target, options } => {
                mount_tmpfs(target.as_ptr(), options.as_ptr(), report, Step::Tmpfs)
            }
            Op::Proc(target) => check(
                libc::mount(
                    c"proc".as_ptr(),
                    target.as_ptr(),
                    c"proc".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    std::ptr::null(),
                ),
                report,
                Step::Proc,
            ),
            Op::Symlink { to, at } => check(
                libc::symlink(to.as_ptr(), at.as_ptr()),
                report,
                Step::Symlink,
            ),
            Op::File { path, contents } => {
                let fd = libc::open(
                    path.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                );
                if fd < 0 {
                    fail(report, Step::File);
                }
                let bytes = contents.as_bytes();
                libc::write(fd, bytes.as_ptr().cast(), bytes.len());
                libc::close(fd);
            }
        }
    }
    libc::_exit(0)
}
