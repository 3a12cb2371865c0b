//! The `namespaces` tier: each box gets fresh user, PID, mount, UTS and
//! cgroup namespaces, a private root, an unprivileged uid, a seccomp
//! filter and (where the machine has them) a cgroup; each run its own
//! network and IPC namespaces, and the pids its box's first run got. See
//! the theory of operation in the parent module.
//!
//! Boxes are prepared ahead of the runs that use them: a background thread
//! keeps a few boxes whose init has made its namespaces, joined a fresh
//! cgroup, built the part of the file system every run shares and forked
//! the program's process (which has locked itself down), and waits for one
//! run's description; another thread reaps used boxes. A run takes a
//! prepared box (or prepares one itself when none is ready), so namespace
//! creation and teardown stay off its path. A box is not made for one run:
//! after a clean ending, a box whose next run repeats its mounts (the same
//! program on a submission's next test) is kept, cleaned by its init and
//! taken by that run; only a box that ended badly, or that no such run takes
//! in time, is reaped (`pool.rs`). Each run of a kept box has a network
//! namespace where no earlier run left a trace: the one before's where
//! that run left it as it found it (it did nothing there, as every run
//! that only computes), a new one otherwise (`child/net.rs`).
//!
//! The code between `clone` and `execve` runs in a child of a possibly
//! multi-threaded judge, so it must not allocate, lock or unwind: the
//! parent prepares everything (C strings, the mount plan, the filter)
//! before the clone, and the run's description is written later into
//! memory shared with the box's init, already laid out as C data; the
//! child only makes system calls.
//!
//! # Layout
//!
//! * `mod.rs`: the tier itself, and one run from spec to outcome: load a
//!   box, let it go, watch it, measure it.
//! * `pool.rs`: the box pool (take, refill, discard).
//! * `boxed.rs`: preparing one box (channels, clone, id maps, cgroup) and
//!   owning it ([`boxed::Boxed`]: dropping it kills and reaps).
//! * `plan/`: the mount plan: what both plans are made of (`mod.rs`), the
//!   base every box shares (`base.rs`) and a run's own (`run.rs`).
//! * `region.rs`: the memory shared with every box's init, a slot a box.
//! * `job.rs`: the run's description laid out as C data in a box's slot.
//! * `wire.rs`: every message between judge, init and program (the setup
//!   steps, the report records, the control bytes).
//! * `child/`: the child side, clone to execve: what its processes share
//!   (`mod.rs`), the box's init and its helper (`init.rs`), the program's
//!   process (`program.rs`) and the mount system calls (`mounts.rs`).

mod boxed;
mod child;
mod job;
mod plan;
mod pool;
mod region;
mod sample;
mod space;
mod wire;
mod zygote;

use std::os::fd::{AsRawFd, RawFd};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use super::cgroup::{Cgroups, RunGroup};
use super::outcome::{classify, rusage_peak_kib, Ending, RusagePeak, Stopped};
use super::seccomp::Filter;
use super::stdio::{open_box_stdio, BoxStdio};
use super::{rlimit, Error, Limits, Measurement, Outcome, RunSpec, Runner};
use boxed::Boxed;
use plan::{Base, RunMounts};
use pool::{Pool, Workers};
use wire::Step;

/// The uid and gid a program has inside its box.
const BOX_ID: u32 = 1000;
/// What [`Error::Setup`] names as its step when `execve` of the program
/// failed.
pub(super) fn exec_step() -> &'static str {
    wire::Step::Exec.what()
}

/// How many boxes one run tries before its failure is the judge's (IE).
const BOX_TRIES: u32 = 3;
/// How often a running box is checked against its CPU limit.
const POLL: Duration = Duration::from_millis(10);

/// How the box's user is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Users {
    /// A user namespace maps the box user to an unprivileged host uid.
    Namespace,
    /// No user namespace (forbidden here); the judge is root and switches
    /// to the unprivileged host uid itself.
    Setuid,
}

/// The isolating tier.
pub struct NamespaceSandbox {
    inner: Arc<Inner>,
    pool: Arc<Pool>,
    /// The refill and reaper threads, started by the first run.
    workers: Mutex<Option<Workers>>,
}

impl std::fmt::Debug for NamespaceSandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NamespaceSandbox")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

/// What preparing a box needs; shared with the refill thread.
#[derive(Debug)]
struct Inner {
    users: Users,
    /// The host uid and gid the box runs as.
    host_uid: u32,
    host_gid: u32,
    /// The judge runs as root (maps another uid, drops supplementary groups).
    privileged: bool,
    cgroups: Option<Cgroups>,
    /// Whether a box's init moves itself into its cgroup (cgroup v1; see
    /// `RunGroup::entrances`); cleared for good when a kernel refuses.
    inits_enter: AtomicBool,
    /// Tests: hands init an entrance it cannot write through, as a kernel
    /// that refuses the move would.
    #[cfg(test)]
    refuse_entry: AtomicBool,
    /// Tests: has init enter its root with its first run, as on a kernel
    /// that cannot clone a mount out of a detached tree.
    #[cfg(test)]
    enter_late: AtomicBool,
    seccomp: Filter,
    /// The file system every box shares, planned once.
    base: Base,
    /// Every box's job slot, mapped before the zygote's fork.
    region: Arc<region::Region>,
    /// What every box's init is cloned from (set right after `Inner` is
    /// made: the zygote is a copy of it).
    zygote: OnceLock<zygote::Zygote>,
}

impl NamespaceSandbox {
    /// Prepares the tier; does not check that the kernel allows it (see
    /// [`super::select`], which runs a probe).
    ///
    /// # Errors
    /// When the staging directory cannot be created or seccomp is not
    /// available for this architecture.
    pub fn new(
        users: Users,
        host_uid: u32,
        system: &[PathBuf],
        tmp_size_mib: u64,
        cgroups: Option<Cgroups>,
    ) -> Result<NamespaceSandbox, Error> {
        let seccomp = Filter::new(cgroups.is_some())
            .ok_or_else(|| Error::Unavailable("no seccomp filter for this architecture".into()))?;
        // SAFETY: plain syscalls.
        let (euid, egid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let privileged = euid == 0;
        let (host_uid, host_gid) = if privileged {
            (host_uid, host_uid)
        } else {
            (euid, egid)
        };
        let inner = Inner {
            users,
            host_uid,
            host_gid,
            privileged,
            cgroups,
            inits_enter: AtomicBool::new(true),
            #[cfg(test)]
            refuse_entry: AtomicBool::new(false),
            #[cfg(test)]
            enter_late: AtomicBool::new(false),
            seccomp,
            base: Base::plan(system, tmp_size_mib)?,
            region: Arc::new(region::Region::new().map_err(|source| Error::Setup {
                program: "a box".into(),
                step: "mapping the boxes' shared memory",
                source,
            })?),
            zygote: OnceLock::new(),
        };
        let inner = Arc::new(inner);
        let zygote = zygote::Zygote::start(Arc::clone(&inner))?;
        let _ = inner.zygote.set(zygote);
        Ok(NamespaceSandbox {
            inner,
            pool: Arc::new(Pool::new()),
            workers: Mutex::new(None),
        })
    }

    pub fn users(&self) -> Users {
        self.inner.users
    }

    pub fn measurement(&self) -> Measurement {
        self.inner
            .cgroups
            .as_ref()
            .map_or(Measurement::Rusage, Cgroups::kind)
    }

    /// A box with the run loaded and let go, and when its wall clock
    /// started. A box that fails to come up (its preparation, or loading
    /// the run into it: a machine under load, a prepared box killed from
    /// outside) is replaced by a fresh one, up to [`BOX_TRIES`] boxes; the
    /// error is the last box's.
    fn launch(
        &self,
        spec: &RunSpec,
        mounts: &RunMounts,
        stdio: [RawFd; 3],
        (program, key, keep): (&str, Option<&str>, bool),
    ) -> Result<(Boxed, Instant), Error> {
        let mut tries = 0;
        loop {
            tries += 1;
            let attempt = if tries == 1 {
                self.take(&spec.limits, key)
            } else {
                self.inner
                    .prepare((spec.limits.memory, spec.limits.processes))
            };
            let failed = match attempt {
                Ok(mut b) => match self.start(&mut b, spec, mounts, stdio, (program, keep)) {
                    Ok(start) => return Ok((b, start)),
                    Err(e) => {
                        self.discard(b);
                        e
                    }
                },
                Err(e) => e,
            };
            if tries >= BOX_TRIES || !matches!(failed, Error::Setup { .. }) {
                return Err(failed);
            }
            tracing::warn!(
                error = %crate::errors::chain(&failed),
                "a box failed to come up; trying a fresh one"
            );
            std::thread::sleep(Duration::from_millis(20 << tries));
        }
    }

    /// Loads the run into box `b` (to be kept for the next run if `keep`)
    /// and lets it go; when its wall clock started.
    fn start(
        &self,
        b: &mut Boxed,
        spec: &RunSpec,
        mounts: &RunMounts,
        stdio: [RawFd; 3],
        (program, keep): (&str, bool),
    ) -> Result<Instant, Error> {
        self.inner.load(b, spec, mounts, keep)?;
        b.set_limits(&spec.limits, mounts.copied_bytes())?;
        self.note_limits(b);
        let start = Instant::now();
        // SAFETY: plain system calls on descriptors that are open.
        if unsafe { wire::send_run(b.control.as_raw_fd(), &stdio) } != 1 {
            return Err(Error::Setup {
                program: program.to_string(),
                step: Step::Job.what(),
                source: std::io::Error::last_os_error(),
            });
        }
        Ok(start)
    }
}

/// Why a box without a cgroup cannot count the CPU time of processes the
/// kernel reaps by itself (children of a parent that ignores `SIGCHLD`),
/// if it cannot: init's task clock is refused here (see
/// `child::init::task_clock`). Tried in this process, under the same
/// kernel settings and filters as every init.
pub(super) fn task_clock_refused() -> Option<String> {
    // SAFETY: a plain system call; the descriptor is closed at once.
    let fd = unsafe { child::task_clock() };
    if fd >= 0 {
        // SAFETY: our own descriptor.
        unsafe { libc::close(fd) };
        return None;
    }
    let why = std::io::Error::last_os_error();
    let paranoid = std::fs::read_to_string("/proc/sys/kernel/perf_event_paranoid")
        .map(|t| format!(", kernel.perf_event_paranoid is {}", t.trim()))
        .unwrap_or_default();
    Some(format!(
        "CPU time of processes the kernel reaps by itself (children of a parent that ignores \
         SIGCHLD) is not counted: perf_event_open refused a task clock ({why}{paranoid}); \
         set kernel.perf_event_paranoid to 2 or lower, or give the judge a cgroup"
    ))
}

/// What was measured of a run that ended.
struct Measured {
    cpu_ms: u64,
    memory_kib: u64,
    /// What of `memory_kib` is surely the program's (held against the limit).
    own_memory_kib: u64,
    oom_kills: u64,
    limit_hits: u64,
    measured_by: Measurement,
}

/// The run's CPU time and peak memory: the cgroup's, or (without one)
/// init's rusage of its reaped children and the watchdog's samples.
fn measure(b: &Boxed, sampled: &Sampled) -> Measured {
    let rusage = b.report.rusage;
    match &b.group {
        Some(g) => {
            let u = g.usage();
            // The cgroup's peak above what the box held before the run
            // (its init, its copy of the program's directory): the run's
            // pages and kernel objects, but not the pages of the program's
            // file it maps, which the box's copy holds. The largest
            // process's own resident peak is the floor (memory.peak needs
            // Linux 5.19; before it, that is all there is).
            let r = rusage.unwrap_or_default();
            let floor = rusage_peak_kib(r.max_rss_kib, r.inherited_kib, 0);
            let peak = match u.peak_bytes {
                // Only a peak of the program's own is a floor: a peak no
                // higher than what its process inherited from the judge
                // (`own` 0) is the judge's memory, never the program's.
                //
                // (cgroup v1 charges in batches of 64 pages a CPU: a run
                // smaller than one may show no peak above what the box
                // held. Its figure is then 0, not the rusage bound, which
                // can be the judge's own size.)
                Some(bytes) => RusagePeak {
                    reported: (bytes / 1024).max(floor.own),
                    own: (bytes / 1024).max(floor.own),
                },
                None => floor,
            };
            Measured {
                cpu_ms: u.cpu_ns / 1_000_000,
                memory_kib: peak.reported,
                own_memory_kib: peak.own,
                oom_kills: u.oom_kills,
                limit_hits: u.limit_hits,
                measured_by: g.kind(),
            }
        }
        None => {
            let r = rusage.unwrap_or_default();
            let peak = rusage_peak_kib(r.max_rss_kib, r.inherited_kib, sampled.rss_kib);
            // The task clock counts what neither rusage nor the samples
            // see: processes the kernel reaped by itself, however short.
            let counted_ms = r.counted_ns.unwrap_or(0) / 1_000_000;
            Measured {
                cpu_ms: (r.cpu_us / 1000).max(sampled.cpu_ms).max(counted_ms),
                memory_kib: peak.reported,
                own_memory_kib: peak.own,
                oom_kills: 0,
                limit_hits: 0,
                measured_by: Measurement::Rusage,
            }
        }
    }
}

impl Runner for NamespaceSandbox {
    fn run(&self, spec: &RunSpec) -> Result<Outcome, Error> {
        let program = spec.program.display().to_string();
        if !spec.program.is_absolute() {
            return Err(Error::Spawn {
                program,
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "a boxed program needs an absolute path",
                ),
            });
        }
        let _in_flight = self.in_flight();
        let BoxStdio { fds, outputs } = open_box_stdio(spec)?;
        let mounts = self.inner.run_entries(spec)?;
        let key = self.inner.reuse_key(&mounts);
        // A run like a recent one (the next test of a submission) keeps
        // its box for the one after.
        let keep = key.as_deref().is_some_and(|k| self.repeats(k));
        let raw = fds.each_ref().map(AsRawFd::as_raw_fd);
        let (mut b, start) = self.launch(spec, &mounts, raw, (&program, key.as_deref(), keep))?;
        // The box holds its own copies now.
        drop(fds);

        let mut sampled = Sampled::default();
        let stopped = watch(&mut b, &spec.limits, start, &mut sampled);
        let wall = start.elapsed();
        if let Some(e) = b.report.error(&program) {
            self.discard(b);
            return Err(e);
        }
        let status = b.report.status;
        if let Some(host) = mounts.copies.iter().find_map(|c| c.space.as_deref()) {
            // Before the box goes: its init hands the space over on its way out.
            let ended = status.is_some() && stopped.is_none();
            if let Err(e) = space::take_back(&b, host, ended) {
                self.discard(b);
                return Err(e);
            }
        }
        let m = measure(&b, &sampled);
        // Only a box whose program ended by itself, within its limits, is
        // kept (a box stopped from outside is dead or in doubt), and only
        // where the next run's peak memory can be told from this one's.
        let clean = status.is_some()
            && stopped.is_none()
            && m.oom_kills == 0
            && m.limit_hits == 0
            && b.group.as_ref().is_none_or(RunGroup::peak_restarted);
        match key {
            Some(key) if keep && clean => self.keep(key, b),
            _ => self.discard(b),
        }
        outputs.finish(spec.limits.output)?;
        if status.is_none() && stopped.is_none() && m.oom_kills == 0 {
            return Err(Error::Setup {
                program,
                step: "watching the program",
                source: std::io::Error::other("the box's init died without reporting"),
            });
        }
        let ending = Ending {
            status,
            stopped,
            cpu_ms: m.cpu_ms,
            memory_kib: m.own_memory_kib,
            oom_kills: m.oom_kills,
            limit_hits: m.limit_hits,
        };
        Ok(Outcome {
            termination: classify(&ending, &spec.limits),
            cpu_ms: m.cpu_ms,
            wall_ms: wall.as_millis() as u64,
            memory_kib: m.memory_kib,
            measured_by: m.measured_by,
        })
    }

    fn describe(&self) -> String {
        let inner = &self.inner;
        let users = match inner.users {
            Users::Namespace => "user namespace",
            Users::Setuid => "root setuid, no user namespace",
        };
        let cgroup = match &inner.cgroups {
            Some(cg) => format!(" at {}", cg.location().display()),
            None => String::new(),
        };
        format!(
            "isolation: namespaces ({users}, uid {}), seccomp; measurement: {}{cgroup}",
            inner.host_uid,
            self.measurement()
        )
    }

    fn wind_down(&self) {
        self.let_boxes_go();
    }
}

/// What the watchdog saw without a cgroup: the box's largest sampled CPU
/// time (ms) and memory (KiB: resident, page tables and the kernel's
/// buffers, see [`sample::sample_box`]), each summed over every process of
/// the box. A process killed with its namespace is never reaped by init,
/// so rusage alone would miss it.
#[derive(Debug, Default, Clone, Copy)]
struct Sampled {
    cpu_ms: u64,
    rss_kib: u64,
    /// CPU ticks init had reaped before the run (its helper's).
    reaped_before: Option<u64>,
}

/// Waits for the program to end (init's report) or init to die, enforcing
/// the wall-clock and CPU limits; kills init (and with it the whole PID
/// namespace) when one is exceeded.
fn watch(b: &mut Boxed, limits: &Limits, start: Instant, sampled: &mut Sampled) -> Option<Stopped> {
    let cpu_limit_ns = limits.cpu.as_nanos() as u64;
    let ticks = rlimit::clock_ticks();
    loop {
        let remaining = limits.wall.saturating_sub(start.elapsed());
        let dead = b.poll(remaining.min(POLL));
        b.report.pump();
        if dead || b.report.status.is_some() || b.report.failure.is_some() {
            return None;
        }
        let mut stop = None;
        if start.elapsed() >= limits.wall {
            stop = Some(Stopped::Wall);
        } else if let Some(g) = &b.group {
            if g.cpu_ns() > cpu_limit_ns {
                stop = Some(Stopped::Cpu);
            }
        } else if let Some(sample::Sample {
            reaped,
            cpu_ns,
            memory_kib: rss_kib,
        }) = sample::sample_box(b.pid)
        {
            // No cgroup: sum every process of the box, children included.
            let before = *sampled.reaped_before.get_or_insert(reaped);
            let reaped_ns = reaped.saturating_sub(before) * 1_000_000_000 / ticks.max(1);
            let cpu_ms = (cpu_ns + reaped_ns) / 1_000_000;
            sampled.cpu_ms = sampled.cpu_ms.max(cpu_ms);
            sampled.rss_kib = sampled.rss_kib.max(rss_kib);
            if rss_kib * 1024 > limits.memory {
                stop = Some(Stopped::Memory);
            } else if cpu_ms * 1_000_000 > cpu_limit_ns + 50_000_000 {
                stop = Some(Stopped::Cpu);
            }
        }
        if stop.is_some() {
            // Its death takes the namespace down.
            b.kill();
            return stop;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use super::*;
    use crate::config::SandboxConfig;

    /// A namespace sandbox measuring by cgroup v1, or `None` (with a line
    /// saying why) where this machine has none.
    fn sandbox_v1() -> Option<NamespaceSandbox> {
        let config = SandboxConfig::default();
        let made = Cgroups::v1().map_err(|e| e.to_string()).and_then(|cg| {
            NamespaceSandbox::new(
                Users::Namespace,
                config.uid,
                &config.paths,
                config.tmp_size,
                Some(cg),
            )
            .map_err(|e| e.to_string())
        });
        match made {
            Ok(sandbox) => Some(sandbox),
            Err(why) => {
                eprintln!("skipped: no namespace sandbox on cgroup v1 here ({why})");
                None
            }
        }
    }

    /// Whether box `b`'s init is in its run's cgroup in every v1
    /// hierarchy, by the host's view of it.
    fn in_its_group(b: &Boxed) -> bool {
        let text = std::fs::read_to_string(format!("/proc/{}/cgroup", b.pid)).unwrap();
        let run = format!("/run-{}-", std::process::id());
        ["memory", "cpuacct", "pids"].iter().all(|controller| {
            text.lines().any(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, controllers, path) = (parts.next(), parts.next(), parts.next());
                controllers.is_some_and(|c| c.split(',').any(|x| x == *controller))
                    && path.is_some_and(|p| p.contains(&run))
            })
        })
    }

    /// Init moves itself into its box's cgroup; where the kernel refuses,
    /// the box is replaced by one the judge moves, and the judge moves
    /// every box's init from then on.
    #[test]
    fn an_init_refused_its_own_move_is_moved_by_the_judge() {
        let Some(sandbox) = sandbox_v1() else { return };
        let inner = &sandbox.inner;
        let limits = (64 << 20, 16);
        let entered = inner.prepare(limits).expect("a box");
        assert!(in_its_group(&entered), "init did not move itself in");
        assert!(inner.inits_enter.load(Ordering::Relaxed));
        drop(entered);

        inner.refuse_entry.store(true, Ordering::Relaxed);
        let moved = inner.prepare(limits).expect("a box after a refused move");
        assert!(
            !inner.inits_enter.load(Ordering::Relaxed),
            "a refused move left inits moving themselves"
        );
        assert!(in_its_group(&moved), "the judge did not move init in");
        drop(moved);
        let next = inner.prepare(limits).expect("the next box");
        assert!(in_its_group(&next), "the next init is not in its group");
    }

    /// A namespace sandbox of the default configuration, without cgroups.
    fn plain_sandbox() -> NamespaceSandbox {
        let config = SandboxConfig::default();
        NamespaceSandbox::new(
            Users::Namespace,
            config.uid,
            &config.paths,
            config.tmp_size,
            None,
        )
        .expect("a namespace sandbox")
    }

    /// Whether this kernel clones mounts out of a detached tree (Linux
    /// 6.15 and later).
    fn clones_out_of_detached_trees() -> bool {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mut numbers = release
            .split(|c: char| !c.is_ascii_digit())
            .map(|n| n.parse::<u32>().unwrap_or(0));
        (numbers.next().unwrap_or(0), numbers.next().unwrap_or(0)) >= (6, 15)
    }

    /// A prepared box's init has entered the box's root (its root is the
    /// box's tmpfs, not the host's), by the host's view of it; `None` where
    /// the host may not look (the judge is not root).
    fn entered(b: &Boxed) -> Option<bool> {
        use std::os::unix::fs::MetadataExt;
        let root = std::fs::metadata(format!("/proc/{}/root/", b.pid)).ok()?;
        Some(root.dev() != std::fs::metadata("/").unwrap().dev())
    }

    /// Init gives its copy of the host's tree up before its program goes:
    /// while the program runs, no descriptor of init's is a directory (the
    /// copy, or anything else), and the copy lies in the judge's end of the
    /// control socket, for the box's drop to tear down off the run's path.
    #[test]
    fn init_holds_no_way_back_to_the_host_while_its_program_runs() {
        if !clones_out_of_detached_trees() {
            eprintln!("skipped: init holds no copy of the host's tree before Linux 6.15");
            return;
        }
        let sandbox = plain_sandbox();
        let work = tempfile::tempdir().unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
        let spec = RunSpec::new(
            "/bin/sh",
            work.path(),
            crate::sandbox::Limits::new(Duration::from_secs(5), 64 << 20),
        )
        .arg("-c")
        .arg("echo > started; sleep 3")
        .bind(crate::sandbox::Bind::writable(work.path()));
        let BoxStdio { fds, .. } = open_box_stdio(&spec).unwrap();
        let mounts = sandbox.inner.run_entries(&spec).unwrap();
        let mut b = sandbox.inner.prepare((64 << 20, 16)).expect("a box");
        let raw = fds.each_ref().map(AsRawFd::as_raw_fd);
        sandbox
            .start(&mut b, &spec, &mounts, raw, ("/bin/sh", false))
            .expect("the run goes");
        let started = work.path().join("started");
        let deadline = Instant::now() + Duration::from_secs(5);
        while !started.exists() {
            assert!(Instant::now() < deadline, "the program never started");
            std::thread::sleep(Duration::from_millis(5));
        }
        match std::fs::read_dir(format!("/proc/{}/fd", b.pid)) {
            Ok(entries) => {
                for entry in entries.flatten() {
                    let held = std::fs::metadata(entry.path());
                    assert!(
                        !held.is_ok_and(|m| m.is_dir()),
                        "init holds a directory while its program runs: {:?}",
                        std::fs::read_link(entry.path())
                    );
                }
            }
            Err(_) => eprintln!("skipped: only root may look at a box's init's descriptors"),
        }
        let (byte, tree) = wire::receive_one(b.control.as_raw_fd(), Duration::from_secs(1))
            .expect("init sent its copy of the host's tree to the judge");
        assert_eq!(byte, wire::Control::Tree as u8);
        assert!(
            std::fs::metadata(format!("/proc/self/fd/{}", tree.as_raw_fd()))
                .is_ok_and(|m| m.is_dir())
        );
        b.kill();
    }

    /// Where the kernel allows, a box enters its root before it is handed
    /// a run, and the run's copies and binds come out of init's copy of
    /// the host's tree; told to enter with its run (as on older kernels),
    /// it does. Either way the run sees its copied directory and writes
    /// through its writable bind, and nothing else of the host.
    #[test]
    fn a_box_enters_its_root_ahead_where_the_kernel_can_and_runs_either_way() {
        let sandbox = plain_sandbox();
        let inner = &sandbox.inner;
        for late in [false, true] {
            inner.enter_late.store(late, Ordering::Relaxed);
            let b = inner.prepare((64 << 20, 16)).expect("a box");
            match entered(&b) {
                Some(ahead) => assert_eq!(
                    ahead,
                    !late && clones_out_of_detached_trees(),
                    "entered ahead (told to enter late: {late})"
                ),
                None => eprintln!("skipped: only root may look at a box's root"),
            }
            drop(b);
            let prog = tempfile::tempdir().unwrap();
            std::fs::write(prog.path().join("data"), "copied\n").unwrap();
            let work = tempfile::tempdir().unwrap();
            use std::os::unix::fs::PermissionsExt;
            for dir in [prog.path(), work.path()] {
                std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            }
            let spec = RunSpec::new(
                "/bin/sh",
                work.path(),
                crate::sandbox::Limits::new(Duration::from_secs(5), 64 << 20),
            )
            .arg("-c")
            .arg(format!(
                "cat /box/prog/data > out; test -e {}/Cargo.toml && echo host >> out; true",
                env!("CARGO_MANIFEST_DIR")
            ))
            .bind(crate::sandbox::Bind::read_only(prog.path()).at("/box/prog"))
            .bind(crate::sandbox::Bind::writable(work.path()));
            let outcome = sandbox.run(&spec).expect("a run");
            assert!(outcome.success(), "{outcome:?} (late: {late})");
            let out = std::fs::read_to_string(work.path().join("out")).unwrap();
            assert_eq!(out, "copied\n", "late: {late}");
        }
    }
}
