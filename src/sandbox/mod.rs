//! The sandbox: runs one untrusted program under limits and reports what it
//! saw. It knows processes, limits, isolation and measurement; it knows
//! nothing of problems, languages, verdicts or the database (its only
//! imports from the crate are [`SandboxConfig`](crate::config::SandboxConfig) and the error chain of
//! `crate::errors`). The judge maps an
//! [`Outcome`] to a verdict; an `Err` is the sandbox's own failure and
//! becomes `IE`, never a program's verdict.
//!
//! # Threat model
//!
//! The program in a box is hostile: a submission, or a compiler fed a
//! hostile source. It knows the judge's source, the sandbox's and every
//! path convention. It wants to learn the answers (the expected output,
//! or a test's name, which says the answer), change the test data or the
//! judge, reach the network, the host or another box, outlive its run,
//! or use more time, memory, processes or disk than it is given, and be
//! judged as if it had not. Everything it can see or touch is what the
//! box gives it; nothing it does may become the judge's failure (IE) or
//! another run's outcome. Its box's init is out of its reach: a process of
//! a fresh image (cloned from the zygote, see below) with default signal
//! dispositions, which the kernel therefore never delivers a signal from
//! inside the box; its limits cannot be changed (`prlimit64` on another
//! process is denied); it shows nothing of the judge (`/proc/1/cmdline`
//! is blank, its environment unreadable). What the kernel counts per user
//! (inotify instances, namespaces, queued signals, message queues) is
//! also charged to the judge's uid, so each box's user namespace and
//! rlimits allow little of it: a box exhausts only its own. Out of
//! scope: kernel bugs beyond what seccomp takes away, and timing side
//! channels between concurrent boxes.
//!
//! # Tiers
//!
//! [`select`] picks the best tier the machine allows, proving each with a
//! probe run (`/usr/bin/true` in a box) before trusting it, and says which
//! in [`Tiers`] (`grundy doctor` prints them):
//!
//! * isolation: [`IsolationTier::UserNamespace`] (no root needed),
//!   [`IsolationTier::RootNamespaces`] (root where user namespaces are
//!   forbidden), or [`IsolationTier::None`] (the `rlimit` tier, which
//!   isolates nothing). The judge **fails closed**: when no namespace tier
//!   works, every run is refused (an internal error naming why and what to
//!   enable) unless the configuration says `[sandbox] isolation = "none"`
//!   (or the command `--insecure`). A failed probe never means running
//!   untrusted code unisolated;
//! * measurement: [`Measurement::CgroupV2`], [`Measurement::CgroupV1`] or
//!   [`Measurement::Rusage`].
//!
//! What each tier guarantees against the threat model:
//!
//! * **Both namespace tiers** (with or without cgroups): the box sees a
//!   read-only root of the system paths, the language's paths and the
//!   program's directory, nothing else of the host; no network (and of
//!   the socket families only local, IPv4, IPv6 and netlink); no host
//!   path of the judge's data where the caller uses [`Bind::at`] (the
//!   program's directory is a copy at `/box/prog`; a compiler still works
//!   in its writable workspace at its host path, and a directory too large
//!   to copy shows its host path in `/proc/self/mountinfo`); no process
//!   outside its PID namespace; no capability and the seccomp filter. Its
//!   stdin is a sealed copy of the test in anonymous memory, its stdout
//!   and stderr anonymous memory files the judge copies out afterwards: no
//!   descriptor of a judge's file, so no host path of a test and nothing
//!   to reopen or `fchmod`. Its writable places are tmpfs of the box,
//!   size-bounded and gone with it (`/tmp` and, unless the spec binds a
//!   writable directory, its working directory at `/box/work`). Time and
//!   memory count every process of the box, children included, whether
//!   or not they were reaped.
//! * **With cgroups** (root, or a delegated cgroup): the kernel enforces
//!   memory and the process limit, and counts CPU and memory exactly
//!   (page cache and tmpfs written included).
//! * **Without cgroups** (an ordinary user without a delegated cgroup):
//!   the judge samples every process of the box in `/proc` each 10 ms
//!   (CPU, children's included, and memory: resident pages, page tables,
//!   and the most the run's pipes and sockets can hold, `ns/sample.rs`)
//!   and stops the box past a limit, and init reports the rusage of what
//!   it reaped and its task clock's count: the CPU of every process of
//!   the run, a child the kernel reaped by itself (its parent ignoring
//!   `SIGCHLD`) included, which no rusage holds (where the kernel refuses
//!   the clock, `kernel.perf_event_paranoid` 3, `grundy doctor` says that
//!   this CPU is not counted); a burst between two samples can exceed the
//!   memory limit briefly before it is stopped (and is then judged over
//!   it), and tmpfs pages are bounded by the tmpfs sizes but not counted
//!   as memory. Other memory no process maps cannot be made: memory files
//!   and System V segments are refused, and pipes and sockets keep the
//!   kernel's default buffer sizes (so each holds a known most). CPU is
//!   the scheduler's nanosecond count where it exceeds the tick count. The box
//!   user is the judge's own uid (no subordinate ids are used), so the box
//!   must never be handed anything of the judge's that is writable: its
//!   binds are read-only mounts and its stdio anonymous copies.
//! * **`rlimit`** (only when asked for): no isolation at all; limits and
//!   measurement of the program and its waited-for children only. For
//!   trusted code.
//!
//! # Layout
//!
//! * `mod.rs`: the API ([`RunSpec`], [`Bind`], [`Runner`], [`Error`]).
//! * `tiers.rs`: choosing a tier ([`select`]), each proved by a probe.
//! * `limits.rs`: [`Limits`], and the one rlimit table both tiers apply.
//! * `stdio.rs`: [`Stdio`] (a file, `/dev/null` or an open descriptor such
//!   as a pipe's end), opened the same way for both tiers.
//! * `outcome.rs`: [`Outcome`] and [`Termination`], and the one
//!   classification of how a run ended, with its precedence, for both
//!   tiers: the same run ends the same way wherever it ran.
//! * `ns/`: the `namespaces` tier, one room a concern: `mod.rs` (a run
//!   from spec to outcome, the watch, a box that fails to come up
//!   replaced), `pool.rs` (boxes prepared ahead: take, refill, discard),
//!   `zygote.rs` (the one process every init is cloned from), `boxed.rs`
//!   (preparing one box: channels, id maps, cgroup), `plan/` (the mount
//!   plan: the base every box shares, `base.rs`, and a run's own, `run.rs`),
//!   `region.rs` (the memory shared with every box's init, a slot a box),
//!   `job.rs` (the run's description laid out in its box's slot), `wire.rs`
//!   (every message between judge, init and program), `child/` (clone to
//!   execve: `init.rs`, `program.rs`, `mounts.rs`).
//! * `throttle.rs`: [`Throttled`], the judge's one budget of runs at once,
//!   each run pinned to a core.
//! * `cgroup/`: measuring and limiting by cgroup v1 or v2: where runs'
//!   cgroups are made (`mod.rs`), one run's cgroup (`run.rs`).
//! * `seccomp.rs`: the system call filter.
//! * `rlimit.rs`: the `rlimit` tier.
//! * `workdir.rs`: [`Workdir`], a host directory a box writes in, and
//!   [`remove_tree`], which removes whatever a box left there (trees
//!   deeper than a path can name, directories without permissions).
//!
//! # Theory of operation (the `namespaces` tier, `ns/`)
//!
//! * **Inits come from a zygote, not from the judge.** Forking copies the
//!   parent's page tables and write-protects all of its pages under its
//!   `mmap_lock`: a box made by forking the judge cost more the larger the
//!   judge had grown, forks of the judge ran one at a time, and every
//!   judge thread then took copy-on-write faults (with 16 workers, boxes
//!   missed their preparation deadline: IE). When the sandbox is made, the
//!   judge forks once: the zygote, a small single-threaded copy that never
//!   allocates, resets the judge's signal handlers, blanks its command line
//!   and environment and keeps only its request socket. For each box it
//!   clones an init into fresh namespaces and hands the judge a pidfd of
//!   it (the zygote reaps its children; the judge signals and waits through
//!   the pidfd only). The job memory of every box is one shared region
//!   mapped before the zygote's fork, a slot a box; an init unmaps the
//!   others. The cost of a box is then the same however large the judge is
//!   and however many boxes start at once (`cargo bench --bench sandbox
//!   concurrency`).
//! * **Boxes are prepared ahead.** Creating namespaces is the expensive
//!   part of a box (a network namespace alone costs ~0.3 ms of kernel
//!   time), so a refill thread keeps two boxes ready: each is an init
//!   process in fresh namespaces and a fresh cgroup, with the part of the
//!   file system every box shares already built and the program's process
//!   already forked and locked down, waiting for one run. A run takes a
//!   ready box (or prepares one itself when none is, or waits for the one
//!   being prepared), sends it its description, and hands the used box to
//!   a reaper thread, which kills and reaps init and removes the cgroup.
//!   What building a box costs is not counted in the run's CPU time
//!   (counters restart once it is ready).
//! * **A box is kept across a submission's tests**, as isolate keeps one
//!   between `--init` and `--cleanup`. Setting up namespaces and mounts is
//!   most of a box's cost, and it grew with the number of boxes set up at
//!   once (the kernel serialises namespace and mount creation and teardown
//!   on global locks and RCU grace periods), so a run whose mounts repeat a
//!   recent run's (the same program, the next test) asks init to stay.
//!   After the program ends by itself within its limits, init kills what
//!   is left, reaps it, reports, mounts `/tmp` and the working directory's
//!   tmpfs afresh where the run touched them (an inotify watch on their
//!   roots tells: anything made, opened, removed or changed there, an
//!   unnamed `O_TMPFILE` included; a run that only computes leaves them
//!   as they were mounted), and waits until every socket of the run is gone, those
//!   that only a cycle of descriptors in flight (`SCM_RIGHTS`) keeps alive
//!   included: it enters the run's network namespace, releases a socket
//!   there (which sets the kernel's collector to work) and reads the
//!   namespace's socket count (`/proc/net/sockstat`) until it is 0, so
//!   what they held (a `flock`, a pipe's or a socket's buffers) is
//!   released before the next run. It then sets the PID namespace's last
//!   pid back (`ns_last_pid`), so the next run gets the pids the box's
//!   first run got, and forks and arms the next program's process in a
//!   fresh IPC namespace and a network namespace where no earlier run left
//!   a trace (System V and POSIX IPC, sockets, abstract names, lingering
//!   flow labels and the counters of `/proc/net` cannot outlive a run): the
//!   run before's where, its sockets gone, its counters and flow labels
//!   read the same as when it was new (the run did nothing there, as a run
//!   that only computes), a new one otherwise (making one is the costliest
//!   step between two runs), all before the next run is asked for, and
//!   waits. That takes longer than a quick run (each unmount waits for an
//!   RCU grace period), so runs that follow one another at once take turns
//!   in two boxes of their key: a run whose key's only box is still being
//!   emptied takes a fresh box (kept after it) instead of waiting, and from
//!   then on each box is emptied while the other is used.
//!   The box waits in the pool under a key of its mounts, sources named by
//!   device, inode, size and change time, so a replaced file is a new key;
//!   runs that write to the host (a writable bind), work in a working
//!   space ([`Bind::space`]) or mount inside `/tmp` never share, nor boxes whose cgroup v2 cannot restart `memory.peak`
//!   (before Linux 6.12).
//!   A box stopped at a limit, one that fails to clean within a second,
//!   one whose cgroup holds more than 8 MiB beyond what it held at its
//!   first run once cleaned, or one whose limits the kernel refuses for
//!   the next run, is discarded (the run then takes a fresh box: a limit
//!   change is never `IE`). Usage is summed per run from `wait4`, and
//!   cgroup counters and peak restart per run: nothing of one run is seen
//!   or counted by another (`tests/it/sandbox/kept.rs`).
//! * **No allocation in the child.** The zygote is a fork of a
//!   multi-threaded judge, so in it and in every process cloned from it
//!   nothing may allocate or take a lock (even
//!   glibc's `setresuid` is avoided: it signals threads that no longer
//!   exist). Everything init needs is prepared before the zygote's fork
//!   (the mount plan, the seccomp filter, a stack); the run's description
//!   (mounts, argv, envp, rlimits) is written later by the judge as C data
//!   into memory shared with init (`MAP_SHARED`, mapped before the
//!   zygote's fork, `ns/job.rs`), and its stdin, stdout and stderr, opened by the judge
//!   (files, or descriptors it was given, such as pipes), travel as
//!   descriptors over a socket. Every message between the judge, init and
//!   the program is defined once, in `ns/wire.rs`, and encoded into fixed
//!   buffers on the child's side. The child only makes system calls
//!   (`ns/child/`).
//! * **Namespaces.** One `clone` of the zygote makes the box's init with fresh user,
//!   PID, mount, network, IPC, UTS and cgroup namespaces. The judge writes
//!   the user namespace's maps (box uid 1000 inside = `[sandbox] uid`
//!   outside when the judge is root, the judge's own uid otherwise; no
//!   supplementary groups) and moves init into the box's cgroup, or on
//!   cgroup v1 sends init the cgroup's `tasks` files with its go, and
//!   init moves itself before anything else (the judge's move waits on a
//!   global kernel lock; a thread's own move does not). The network namespace has only a loopback device,
//!   down: nothing is reachable, not even the host's loopback. Init then
//!   sets its user namespace's counts low (`/proc/sys/user`: 16 inotify
//!   instances, no further namespaces, no fanotify), which the box cannot
//!   raise and which bound what it charges to the judge's uid.
//! * **File system, shared part.** Init makes every mount private, reopens
//!   each bind source inside its own mount namespace (with the judge's
//!   identity, so a toolchain under `/root` is reachable), and a helper
//!   running as the box user builds a root on a small tmpfs: read-only
//!   recursive binds (`mount_setattr`, or a remount keeping locked flags)
//!   of the `[sandbox] paths` (`/usr`, `/lib*`, `/bin`, ...; symlinks are
//!   copied as symlinks), a size-bounded `/tmp` tmpfs, a fresh `/proc` of
//!   the new PID namespace, `/dev/{null,zero,full,random,urandom}` and a
//!   synthetic `/etc/passwd`.
//! * **The program's process**, forked by init while the box is prepared,
//!   puts `SIGPIPE` and the signal mask back to defaults, starts a
//!   session, becomes the box user, drops every capability, sets
//!   `no_new_privs` and installs the seccomp filter (`seccomp.rs`: ptrace,
//!   mount, kexec, bpf, perf, keyctl, namespaces, io_uring, ... fail with
//!   `EPERM`), then waits for its run.
//! * **File system, the run's part.** When the run arrives, init adds the
//!   language's `paths` and the spec's read-only [`Bind`]s (the program's
//!   directory) and writable binds, at their host paths; a working space
//!   ([`Bind::space`], a compiler's directory) is copied into a writable
//!   tmpfs of the box of its size at its host path (the box user's), so a
//!   compile writes nothing to the host's disk and fills at most its
//!   size, whatever its files; once the run is over init hands that
//!   directory to the judge over the control socket and ends, and the
//!   judge copies back what is there (links as links, nothing followed,
//!   32 directories deep at most) before the tmpfs goes with its last
//!   descriptor. And a read-only directory given a neutral path
//!   ([`Bind::at`], the program's directory at `/box/prog`): init copies
//!   it (opened with the judge's identity) into a tmpfs of the box there
//!   and makes it read-only (a large one is bound there), and the program
//!   path, arguments and environment values naming it are rewritten, so
//!   `{dir}` arguments work; when no writable bind holds the working
//!   directory, init mounts a tmpfs of the box at `/box/work` as the
//!   working directory (the host directory is not used); and makes the
//!   root read-only. Init has `pivot_root`ed into the root and detached
//!   the old one before, while the box was prepared, where the kernel can
//!   clone a mount out of a detached tree (Linux 6.15 and later): it then
//!   opens the run's sources in a detached copy of the host's tree it
//!   took first, which no other process of the box ever holds, and gives
//!   up before its program goes: it sends the copy to the judge's end of
//!   its control socket (where it lies unread until the box is dropped,
//!   so the kernel tears it down then, off the run's path) and closes its
//!   own. On older kernels it does so now, after the run's mounts.
//!   Either way no path,
//!   `/proc/*/root` and `/proc/*/cwd` included, leads back to the host.
//!   It then passes the stdio to the program's process (`stdio.rs`: a
//!   sealed anonymous copy of a stdin file, anonymous memory files for
//!   stdout and stderr, copied to their files when the run is over), which puts it on
//!   0..2 (every other descriptor closes at exec), enters the working
//!   directory, sets the rlimits (`RLIMIT_CPU` as a backstop a second
//!   above the limit, `RLIMIT_FSIZE` = the output limit, so a flood dies
//!   of `SIGXFSZ` and is never buffered, `RLIMIT_STACK` = the memory
//!   limit, so deep recursion works, `RLIMIT_NOFILE`, `RLIMIT_CORE = 0`,
//!   small `RLIMIT_SIGPENDING` and `RLIMIT_MSGQUEUE`, `RLIMIT_RTPRIO` and
//!   `RLIMIT_NICE` = 0 whatever the judge inherited, and without a pids
//!   controller `RLIMIT_NPROC`, which counts this user namespace only)
//!   and `execve`s with exactly the spec's environment. Init pins it to
//!   the spec's core first ([`RunSpec::cpu`]; `sched_setaffinity` is
//!   denied to the program). What it writes to stdout is kept up to the
//!   output limit, to stderr up to 16 KiB, and only the bytes it wrote:
//!   a hole it seeked over stays a hole.
//!   Init stays as PID 1, so signals, orphans and `abort` behave as on a
//!   normal system.
//! * **Time and memory** (`cgroup/`). With a cgroup, CPU time is the
//!   cgroup's (`cpuacct.usage` or `cpu.stat`): every thread and child,
//!   reaped or not; peak memory is the cgroup's high-water mark
//!   (`memory.max_usage_in_bytes` or `memory.peak`), page cache written by
//!   the program included, above what the box held when the run began
//!   (its init, the program's process before its `execve`, and the copy
//!   of the program's directory, which is the box's: the pages of the
//!   program's file it maps are the copy's, and a table the program writes
//!   is counted once, as the pages it wrote), with the largest process's
//!   own resident peak as the floor. So `memory_kib` is what the run's
//!   processes held, resident pages and the kernel memory they made
//!   (pipes, sockets, IPC), never the box's. The kernel enforces the
//!   memory limit, set at the run's limit above what the box holds, and
//!   the process limit (`pids.max`: fork and thread bombs meet it). A run the
//!   kernel OOM-killed (`oom_kill` in `memory.oom_control` or
//!   `memory.events`), or that failed after meeting the limit (`failcnt`,
//!   `max`), is [`Termination::MemoryExceeded`]. Without a cgroup: the
//!   rusage of init's reaped children, which init reports once it has
//!   reaped every process of the run, those killed at the program's end
//!   included (exact CPU time of every process and thread, however short
//!   each ran; peak RSS of the largest), and the largest of the judge's
//!   samples of the whole box in `/proc` (every process below init: the
//!   sum of their resident memory, and of their CPU time, what each has
//!   reaped and what init has reaped during the run), which stop it near
//!   the limits. Memory that no resident set shows cannot be measured
//!   there, so it is refused or bounded (by the seccomp filter,
//!   `seccomp::Filter::new`): no memory file, no System V object
//!   (segment, message queue, semaphore set), and no socket's or pipe's
//!   buffer above the kernel's default (208 KiB, 64 KiB). Bounded is not
//!   counted: a box of P processes and F open files can still hold up to
//!   about P × F × 208 KiB of socket buffers and P × F × 64 KiB of pipe
//!   buffers (the kernel's per-user `fs.pipe-user-pages-soft` shrinks new
//!   pipes to 8 KiB past 64 MiB), so the rusage tier's memory limit is
//!   as good as its process and file limits; a cgroup counts all of it.
//! * **Watching.** The judge's thread waits on init's report pipe and a
//!   pidfd of init, waking every 10 ms: past the wall-clock limit, or past
//!   the CPU limit by the cgroup's count, it kills init. Whatever it
//!   enforced is recorded, so the outcome names the limit that stopped the
//!   run.
//! * **Kill path.** When the program ends, init `kill(-1, SIGKILL)`s the
//!   rest of its namespace, reaps it, reports the program's wait status
//!   and rusage and exits (or, kept, cleans); when init dies (by itself, by the judge's `SIGKILL` sent
//!   through its pidfd, or by `PR_SET_PDEATHSIG` when the zygote dies,
//!   which dies with the judge's thread that forked it) the kernel kills
//!   every process of the PID namespace. The reaper then checks the
//!   cgroup empty (`cgroup.kill` on v2) and removes it. Nothing survives a
//!   run.
//! * **Setup failures.** A failing step in a child is reported on the
//!   report pipe with its `errno` and becomes [`Error::Setup`] naming the
//!   step: the judge's fault, never the program's. A box that fails to
//!   come up is replaced by a fresh one (three boxes in all) before the
//!   run fails; an init that dies without reporting is still the judge's
//!   failure (nothing in the box can reach init to make it die).
//! * **How it ended** (`outcome.rs`). What init reported, what the judge
//!   enforced and what was measured go to the classification both tiers
//!   share: the kernel's OOM kill, then the judge's stop, then the
//!   kernel's `SIGXCPU`/`SIGXFSZ`, then CPU over the limit, then a memory
//!   peak over the limit (whatever the exit), then a failure after meeting
//!   the cgroup's memory limit, and only then the program's own exit or
//!   signal.
//!
//! # Theory of operation (the `rlimit` tier, `rlimit.rs`)
//!
//! No isolation, and used only when the configuration says
//! `isolation = "none"` (or the command `--insecure`): the child calls
//! `setpgid(0, 0)` and gets the rlimits
//! above (but not `RLIMIT_NPROC`: the program runs as the judge's user,
//! whose every process it would count, so the process limit is not
//! enforced here); `wait4` gives CPU time and peak RSS; a watchdog thread
//! enforces the wall clock and samples `/proc` for memory and CPU; the
//! process group is killed at the end. The stdio, the rlimit table and the
//! classification are the ones the `namespaces` tier uses (the stdio
//! files themselves, not copies). Only for trusted code or machines with
//! no namespaces at all, and said loudly by `grundy doctor`.

mod cgroup;
mod limits;
mod ns;
mod outcome;
mod rlimit;
mod seccomp;
mod stdio;
mod throttle;
mod tiers;
mod workdir;

use std::path::PathBuf;

pub use limits::Limits;
pub use ns::NamespaceSandbox;
pub use outcome::{Measurement, Outcome, Termination};
pub use rlimit::RlimitSandbox;
pub use stdio::Stdio;
pub use throttle::Throttled;
pub use tiers::{select, select_among, IsolationTier, Tiers};
pub use workdir::{remove_tree, Workdir};

/// One program to run, like `std::process::Command` plus limits. Made by
/// [`RunSpec::new`] and its builder methods:
///
/// ```no_run
/// # use std::time::Duration;
/// # use grundy::sandbox::{Bind, Limits, RunSpec, Stdio};
/// let spec = RunSpec::new("/opt/sol/main", "/tmp/run", Limits::new(Duration::from_secs(1), 256 << 20))
///     .args(["--fast"])
///     .env("LANG", "C")
///     .stdin(Stdio::file("/tmp/tests/01.in"))
///     .stdout(Stdio::file("/tmp/out/stdout"))
///     .bind(Bind::read_only("/opt/sol"));
/// ```
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The program; looked up in `PATH` when it has no `/` (on the
    /// `rlimit` tier: a box needs an absolute path).
    pub program: PathBuf,
    pub args: Vec<String>,
    /// The complete environment (nothing is inherited).
    pub env: Vec<(String, String)>,
    /// Working directory. In a box, unless a writable [`Bind`] holds it,
    /// the program works in a tmpfs of its own at `/box/work` instead
    /// (bounded like `/tmp`, gone with the box): the host directory is
    /// neither seen nor written.
    pub cwd: PathBuf,
    /// Where stdin comes from ([`Stdio::Null`] unless set).
    pub stdin: Stdio,
    /// Where stdout goes ([`Stdio::Null`] unless set).
    pub stdout: Stdio,
    /// Where stderr goes ([`Stdio::Null`] unless set).
    pub stderr: Stdio,
    /// Host paths the program may see, at the same path inside the box
    /// (the program's directory, a toolchain, a compiler's writable
    /// directory). Ignored by the `rlimit` tier, which isolates nothing.
    pub binds: Vec<Bind>,
    pub limits: Limits,
    /// The core the run (its threads and children included) is pinned
    /// to, or `None` to run anywhere. [`Throttled`] sets it to its slot's
    /// core; a box cannot change it (`sched_setaffinity` is denied).
    pub cpu: Option<usize>,
}

impl RunSpec {
    /// A run of `program` in working directory `cwd` under `limits`: no
    /// arguments, an empty environment, stdio on `/dev/null`, no binds
    /// beyond `cwd`. The three are required because no default would be
    /// safe: a judge must say where a box works and what it may use.
    pub fn new(program: impl Into<PathBuf>, cwd: impl Into<PathBuf>, limits: Limits) -> RunSpec {
        RunSpec {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: cwd.into(),
            stdin: Stdio::Null,
            stdout: Stdio::Null,
            stderr: Stdio::Null,
            binds: Vec::new(),
            limits,
            cpu: None,
        }
    }

    /// Adds one argument.
    pub fn arg(mut self, arg: impl Into<String>) -> RunSpec {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    pub fn args<I, S>(mut self, args: I) -> RunSpec
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Adds one environment variable.
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> RunSpec {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Adds environment variables.
    pub fn envs<I, K, V>(mut self, vars: I) -> RunSpec
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        self.env
            .extend(vars.into_iter().map(|(k, v)| (k.into(), v.into())));
        self
    }

    pub fn stdin(mut self, stdin: Stdio) -> RunSpec {
        self.stdin = stdin;
        self
    }

    pub fn stdout(mut self, stdout: Stdio) -> RunSpec {
        self.stdout = stdout;
        self
    }

    pub fn stderr(mut self, stderr: Stdio) -> RunSpec {
        self.stderr = stderr;
        self
    }

    /// Makes one more host path visible in the box.
    pub fn bind(mut self, bind: Bind) -> RunSpec {
        self.binds.push(bind);
        self
    }

    /// Makes more host paths visible in the box.
    pub fn binds(mut self, binds: impl IntoIterator<Item = Bind>) -> RunSpec {
        self.binds.extend(binds);
        self
    }
}

/// A host path made visible inside the box, at the same path unless
/// [`Bind::at`] names another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bind {
    pub path: PathBuf,
    /// Whether the box may write there (only its own directories).
    pub writable: bool,
    /// Where the box sees a read-only directory instead of its host path.
    pub inside: Option<PathBuf>,
    /// A writable directory worked on in a tmpfs of the box of this many
    /// bytes instead of on the host's disk ([`Bind::space`]).
    pub space: Option<u64>,
}

impl Bind {
    /// A path the box may read.
    pub fn read_only(path: impl Into<PathBuf>) -> Bind {
        Bind {
            path: path.into(),
            writable: false,
            inside: None,
            space: None,
        }
    }

    /// Shows a read-only directory at `inside` (a neutral path such as
    /// `/box/prog`) instead of its host path, so the box learns nothing of
    /// the judge's directories: a small directory (up to 256 entries and
    /// 64 MiB) is copied into a read-only tmpfs of the box there, a larger
    /// one bound there (`/proc/self/mountinfo` then still shows its path
    /// within its file system). The program path, arguments and
    /// environment values that name the host path are rewritten to
    /// `inside`. Writable binds ignore it; so does the `rlimit` tier.
    pub fn at(mut self, inside: impl Into<PathBuf>) -> Bind {
        self.inside = Some(inside.into());
        self
    }

    /// A path the box may read and write.
    pub fn writable(path: impl Into<PathBuf>) -> Bind {
        Bind {
            path: path.into(),
            writable: true,
            inside: None,
            space: None,
        }
    }

    /// Directory `path` as the box's working space of `bytes`: copied
    /// (up to 4,096 entries) into a writable tmpfs of the box of
    /// that size at the same path, which everything the run writes there
    /// fills together (a write beyond it fails with "No space left on
    /// device"; a cgroup counts its pages as the run's memory). Nothing
    /// reaches the host's disk while the run lasts. Once it has ended by
    /// itself, what it left there replaces the host directory's contents
    /// (32 directories deep at most; symbolic links as links, nothing
    /// unreadable, no special file); a run stopped by a limit leaves the
    /// host directory empty. At most one per run. The `rlimit` tier binds
    /// the directory writable instead.
    pub fn space(path: impl Into<PathBuf>, bytes: u64) -> Bind {
        Bind {
            space: Some(bytes),
            ..Bind::writable(path)
        }
    }
}

/// The sandbox itself failed (never the program's fault).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("starting {program}")]
    Spawn {
        program: String,
        source: std::io::Error,
    },
    #[error("opening {path}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("waiting for {program}")]
    Wait {
        program: String,
        source: std::io::Error,
    },
    #[error("setting up the box for {program}: {step}")]
    Setup {
        program: String,
        step: &'static str,
        source: std::io::Error,
    },
    #[error("cgroup {path}")]
    Cgroup {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Unavailable(String),
}

impl Error {
    /// Whether `execve` refused the program's own file: missing, not
    /// executable, a directory, no format the kernel runs, an interpreter
    /// (`#!`) or loader that is not there. What the sandbox did around it
    /// worked; whoever supplied that file decides whose fault it is.
    pub fn exec_refused(&self) -> bool {
        let source = match self {
            Error::Setup { step, source, .. } if *step == ns::exec_step() => source,
            Error::Spawn { source, .. } => source,
            _ => return false,
        };
        matches!(
            source.raw_os_error(),
            Some(
                libc::ENOENT
                    | libc::EACCES
                    | libc::ENOEXEC
                    | libc::ENOTDIR
                    | libc::ELOOP
                    | libc::EISDIR
                    | libc::ELIBBAD
                    | libc::ENAMETOOLONG
            )
        )
    }
}

/// Something that runs a [`RunSpec`]; the judge and checkers hold a
/// `&dyn Runner` so tests can substitute their own.
pub trait Runner: Send + Sync {
    /// Runs one program to completion.
    ///
    /// # Errors
    /// Only when the sandbox itself fails; everything the program does is
    /// reported in the [`Outcome`].
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error>;

    /// Runs programs at the same time (a submission and its interactor,
    /// joined by pipes), each to completion, and returns their outcomes in
    /// order. Each spec is dropped as soon as its own run ends, closing
    /// its descriptors: a pipe's reader in another box then sees the end.
    fn run_together(&self, specs: Vec<RunSpec>) -> Vec<Result<Outcome, Error>> {
        std::thread::scope(|scope| {
            let span = tracing::Span::current();
            let handles: Vec<_> = specs
                .into_iter()
                .map(|spec| {
                    let span = span.clone();
                    scope.spawn(move || span.in_scope(|| self.run(&spec)))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    }

    /// A one-line description of the isolation and measurement in force.
    fn describe(&self) -> String;

    /// No run follows for a while (a command's judging is over): what is
    /// kept ready for the next runs is let go now, its teardown going on
    /// off the caller's path while the caller finishes. A later run works
    /// as before. Nothing by default.
    fn wind_down(&self) {}
}
