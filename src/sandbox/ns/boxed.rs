//! Preparing one box: the channels to its init, the clone into fresh
//! namespaces, the user namespace's id maps, the cgroup, and waiting
//! until init has built the base file system. A [`Boxed`] owns the box:
//! dropping it kills and reaps init (and with it the whole PID namespace).

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use super::region::Shared;
use super::wire::{self, Decoded, Record, Step};
use super::{Inner, Users, BOX_ID, POLL};
use crate::sandbox::cgroup::RunGroup;
use crate::sandbox::{Error, Limits};

/// How long a box may take to prepare before the judge gives up on it.
pub(super) const PREPARE_TIMEOUT: Duration = Duration::from_secs(10);

/// A box: its init, waiting for a run or running one. Dropping it kills
/// and reaps init (and with it the whole PID namespace), then removes the
/// cgroup.
pub(super) struct Boxed {
    /// Init's pid, for `/proc` and the cgroup only: init is the zygote's
    /// child, so it is signalled and waited for through `pidfd`.
    pub(super) pid: libc::pid_t,
    pidfd: OwnedFd,
    /// The judge's end of the control socket.
    pub(super) control: OwnedFd,
    pub(super) report: ReportReader,
    pub(super) group: Option<RunGroup>,
    pub(super) shared: Shared,
    /// The cgroup's memory and process limits, as written (the memory
    /// limit is the run's above what the box holds).
    limits: (u64, u64),
    /// The run's memory limit that `limits` was written for (none before
    /// the box's first run).
    asked: Option<u64>,
    /// The run's mounts are in place (a kept box's, since its first run).
    mounted: bool,
    /// What the box held when its first run began (bytes, cgroup only).
    pub(super) first_held: Option<u64>,
}

/// The judge's ends of a new box's channels, and init's.
struct Channels {
    control: OwnedFd,
    control_box: OwnedFd,
    report_read: OwnedFd,
    report_write: OwnedFd,
}

/// How far the box's memory limit may be from the one a run asks for
/// above what the box holds, and still be kept (see [`Boxed::set_limits`]):
/// the kernel charges memory to a cgroup in batches of 64 pages a CPU, so
/// what the box holds is known, and a limit enforced, only to that.
fn limit_move() -> u64 {
    static MOVE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *MOVE.get_or_init(|| {
        // SAFETY: a plain query.
        let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
        64 * page * cpus
    })
}

fn setup(step: &'static str) -> impl Fn(std::io::Error) -> Error {
    move |source| Error::Setup {
        program: "a box".into(),
        step,
        source,
    }
}

impl Inner {
    /// Starts a box: clones its init into fresh namespaces and a fresh
    /// cgroup (limited to `limits`: memory, processes) and waits until it
    /// has built the base file system.
    pub(super) fn prepare(&self, limits: (u64, u64)) -> Result<Boxed, Error> {
        // Init and its helper run in the cgroup while the box is built.
        let limits = (limits.0, limits.1.max(4));
        let group = match &self.cgroups {
            Some(cg) => Some(cg.create(limits.0, limits.1)?),
            None => None,
        };
        let shared = self.region.take();
        let Channels {
            control,
            control_box,
            report_read,
            report_write,
        } = channels()?;
        let zygote = self
            .zygote
            .get()
            .ok_or_else(|| setup("cloning the box's init")(std::io::Error::other("no zygote")))?;
        let (pid, pidfd) = zygote.clone_init(&control_box, &report_write, &shared)?;
        drop((control_box, report_write));
        // From here on dropping the box kills its init and waits for it.
        let mut b = Boxed {
            pid,
            pidfd,
            control,
            report: ReportReader::new(report_read),
            group,
            shared,
            limits,
            asked: None,
            mounted: false,
            first_held: None,
        };
        self.admit(&b)?;
        match b.wait_prepared(PREPARE_TIMEOUT) {
            Ok(()) => Ok(b),
            // A kernel that will not let init move itself: the judge
            // moves every init from now on, this box's successor first.
            Err(e) if b.report.failed_at(Step::Enter) => {
                if self.inits_enter.swap(false, Ordering::Relaxed) {
                    tracing::warn!(
                        error = %crate::errors::chain(&e),
                        "a box's init could not move itself into its cgroup; \
                         the judge moves each from now on"
                    );
                }
                drop(b);
                self.prepare(limits)
            }
            Err(e) => Err(e),
        }
    }

    /// Gives the box's init its identity and cgroup, then lets it go on:
    /// init moves itself into the cgroup where it can (see
    /// [`RunGroup::entrances`]), the judge moves it otherwise.
    fn admit(&self, b: &Boxed) -> Result<(), Error> {
        if self.users == Users::Namespace {
            self.map_ids(b.pid)
                .map_err(setup("writing the user namespace maps"))?;
        }
        let mut entrances = Vec::new();
        if let Some(group) = &b.group {
            match group
                .entrances()
                .filter(|_| self.inits_enter.load(Ordering::Relaxed))
            {
                Some(fds) => entrances = fds,
                None => group.attach(b.pid)?,
            }
        }
        #[cfg(test)]
        if self.refuse_entry.load(Ordering::Relaxed) && !entrances.is_empty() {
            entrances = vec![OwnedFd::from(
                std::fs::File::open("/dev/null").map_err(setup("opening /dev/null"))?,
            )];
        }
        let raw: Vec<RawFd> = entrances.iter().map(AsRawFd::as_raw_fd).collect();
        let go = wire::Control::Go;
        #[cfg(test)]
        let go = match self.enter_late.load(Ordering::Relaxed) {
            true => wire::Control::GoEnterLate,
            false => go,
        };
        // SAFETY: descriptors we own.
        if !unsafe { wire::send_go(b.control.as_raw_fd(), go, &raw) } {
            return Err(setup("starting the box")(std::io::Error::last_os_error()));
        }
        Ok(())
    }

    /// Writes the user namespace's id maps for child `pid`.
    fn map_ids(&self, pid: libc::pid_t) -> std::io::Result<()> {
        let proc = PathBuf::from(format!("/proc/{pid}"));
        if !self.privileged {
            std::fs::write(proc.join("setgroups"), "deny")?;
        }
        std::fs::write(
            proc.join("uid_map"),
            format!("{BOX_ID} {} 1\n", self.host_uid),
        )?;
        std::fs::write(
            proc.join("gid_map"),
            format!("{BOX_ID} {} 1\n", self.host_gid),
        )?;
        Ok(())
    }
}

/// The control socket and the report pipe of a new box.
fn channels() -> Result<Channels, Error> {
    let (control, control_box) = socketpair().map_err(setup("creating a socket"))?;
    let (report_read, report_write) = pipe().map_err(setup("creating a pipe"))?;
    Ok(Channels {
        control,
        control_box,
        report_read,
        report_write,
    })
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: valid out array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

pub(super) fn socketpair() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: valid out array.
    if unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    } != 0
    {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// What the box's init reported about the current run.
#[derive(Debug, Default)]
pub(super) struct Report {
    /// The base file system is built; the box waits for its run.
    pub(super) prepared: bool,
    pub(super) status: Option<libc::c_int>,
    /// The first failed step and its `errno`.
    pub(super) failure: Option<(Step, i32)>,
    /// What init counted of the run's processes.
    pub(super) rusage: Option<Reaped>,
    /// What a kept box's init reported after the run's status: cleaning
    /// and arming for the next run, which are not this run's.
    next: NextRun,
}

/// What init counted of a run: CPU microseconds and the largest peak RSS
/// (KiB) of the processes it reaped, its own peak RSS (KiB), and the CPU
/// time of every process of the run, however it ended, by its task clock
/// (none where the kernel gives none).
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Reaped {
    pub(super) cpu_us: u64,
    pub(super) max_rss_kib: u64,
    pub(super) inherited_kib: u64,
    pub(super) counted_ns: Option<u64>,
}

/// What a kept box reported about its next run, while the current one's
/// report is still being read.
#[derive(Debug, Default)]
struct NextRun {
    prepared: bool,
    failure: Option<(Step, i32)>,
}

impl Report {
    fn add(&mut self, record: Record) {
        let done = self.status.is_some();
        match record {
            Record::Prepared if done => self.next.prepared = true,
            Record::Failed { step, errno } if done => {
                self.next.failure.get_or_insert((step, errno));
            }
            Record::Prepared => self.prepared = true,
            Record::Status(status) => self.status = Some(status),
            Record::Failed { step, errno } => {
                self.failure.get_or_insert((step, errno));
            }
            Record::Usage {
                user_us,
                system_us,
                max_rss_kib,
                inherited_kib,
                counted_ns,
            } => {
                self.rusage = Some(Reaped {
                    cpu_us: user_us + system_us,
                    max_rss_kib,
                    inherited_kib,
                    counted_ns: (counted_ns != u64::MAX).then_some(counted_ns),
                });
            }
        }
    }

    /// Whether `step` is the step that failed.
    pub(super) fn failed_at(&self, step: Step) -> bool {
        self.failure.is_some_and(|(failed, _)| failed == step)
    }

    /// The failed step as the sandbox's error, if one failed.
    pub(super) fn error(&self, program: &str) -> Option<Error> {
        self.failure.map(|(step, errno)| Error::Setup {
            program: program.to_string(),
            step: step.what(),
            source: std::io::Error::from_raw_os_error(errno),
        })
    }
}

/// Reads init's report pipe as records arrive.
pub(super) struct ReportReader {
    fd: OwnedFd,
    pending: Vec<u8>,
    report: Report,
}

impl ReportReader {
    fn new(fd: OwnedFd) -> ReportReader {
        // Init and the program before exec are the writers; never block on
        // them (another box's init may briefly hold a copy of the end).
        // SAFETY: plain fcntl on a descriptor we own.
        unsafe {
            let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
            libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
        ReportReader {
            fd,
            pending: Vec::new(),
            report: Report::default(),
        }
    }

    /// Starts the report of a kept box's next run with what its init has
    /// said about it so far.
    pub(super) fn next_run(&mut self) {
        let next = std::mem::take(&mut self.report.next);
        self.report = Report {
            prepared: next.prepared,
            failure: next.failure,
            ..Report::default()
        };
    }

    /// Reads whatever has arrived and takes in the complete records.
    pub(super) fn pump(&mut self) {
        let mut chunk = [0u8; 256];
        loop {
            // SAFETY: valid buffer.
            let n =
                unsafe { libc::read(self.fd.as_raw_fd(), chunk.as_mut_ptr().cast(), chunk.len()) };
            if n <= 0 {
                break;
            }
            self.pending.extend_from_slice(&chunk[..n as usize]);
        }
        let mut used = 0;
        loop {
            match Record::decode(&self.pending[used..]) {
                Decoded::Record(record, len) => {
                    self.report.add(record);
                    used += len;
                }
                Decoded::Partial => break,
                Decoded::Garbage => {
                    used = self.pending.len();
                    break;
                }
            }
        }
        self.pending.drain(..used);
    }
}

impl std::ops::Deref for ReportReader {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.report
    }
}

impl Boxed {
    /// Waits up to `timeout` until init has built the base file system, or
    /// cleaned a kept box (or failed to). What building or cleaning the box
    /// cost is then not counted against the run.
    pub(super) fn wait_prepared(&mut self, timeout: Duration) -> Result<(), Error> {
        let start = Instant::now();
        // What has arrived already (a kept box's report is read ahead:
        // see `cleaned`) counts before any wait.
        let mut dead = false;
        loop {
            self.report.pump();
            if let Some(e) = self.report.error("a box") {
                return Err(e);
            }
            if self.report.prepared {
                if let Some(group) = &mut self.group {
                    group.reset();
                }
                return Ok(());
            }
            if dead || start.elapsed() > timeout {
                return Err(Error::Setup {
                    program: "a box".into(),
                    step: Step::Base.what(),
                    source: std::io::Error::other(if dead {
                        "the box's init died"
                    } else {
                        "timed out"
                    }),
                });
            }
            dead = self.poll(POLL.min(timeout));
        }
    }

    /// Whether a kept box's init has finished cleaning it for its next
    /// run (or failed to), by what its report says so far: never waits.
    pub(super) fn cleaned(&mut self) -> bool {
        self.report.pump();
        let next = &self.report.report.next;
        next.prepared || next.failure.is_some()
    }

    /// Waits up to `wait` for a report or for init's end; whether init
    /// has ended.
    pub(super) fn poll(&self, wait: Duration) -> bool {
        let mut fds = [
            libc::pollfd {
                fd: self.report.fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let ms = wait.as_millis().clamp(1, 1000) as libc::c_int;
        // SAFETY: valid pollfd array.
        unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        fds[1].revents != 0
    }

    /// Sets the cgroup's limits for a run limited to `limits` where they
    /// differ from the box's: the run's memory above what the box holds,
    /// which for a fresh box's first run includes the `copied` bytes of
    /// directories init is about to copy into it. A limit the kernel
    /// refuses is a box that failed to come up (another is used).
    pub(super) fn set_limits(&mut self, limits: &Limits, copied: u64) -> Result<(), Error> {
        let mounted = std::mem::replace(&mut self.mounted, true);
        let Some(group) = &mut self.group else {
            return Ok(());
        };
        if !mounted {
            group.hold(copied);
        }
        self.first_held.get_or_insert(group.held());
        let mut wanted = (group.limit_for(limits.memory), limits.processes);
        // What a kept box holds moves by the kernel's charging batches
        // from one run to the next: a limit that close, for the same
        // memory, is kept (it is enforced no closer). The verdict compares
        // the run's measured peak with its limit either way.
        if self.asked == Some(limits.memory) && wanted.0.abs_diff(self.limits.0) <= limit_move() {
            wanted.0 = self.limits.0;
        }
        if self.limits != wanted {
            group
                .set_limits(self.limits, wanted)
                .map_err(|e| Error::Setup {
                    program: "a box".into(),
                    step: "setting the box's limits",
                    source: match e {
                        Error::Cgroup { source, .. } => source,
                        other => std::io::Error::other(other.to_string()),
                    },
                })?;
            self.limits = wanted;
        }
        self.asked = Some(limits.memory);
        Ok(())
    }

    /// The cgroup's limits as written for the box's latest run, and that
    /// run's memory limit.
    pub(super) fn written(&self) -> ((u64, u64), Option<u64>) {
        (self.limits, self.asked)
    }

    /// This box, prepared with limits written for a run's memory limit
    /// `asked` (as [`Boxed::written`] gave them): a run asking the same
    /// keeps them where they are close enough (see [`Boxed::set_limits`]).
    pub(super) fn written_for(mut self, asked: Option<u64>) -> Boxed {
        self.asked = asked;
        self
    }

    /// Kills init now (and with it the whole PID namespace); the box is
    /// reaped when dropped.
    pub(super) fn kill(&self) {
        // SAFETY: a plain system call on a pidfd we own.
        unsafe {
            libc::syscall(
                libc::SYS_pidfd_send_signal,
                self.pidfd.as_raw_fd(),
                libc::SIGKILL,
                std::ptr::null::<libc::siginfo_t>(),
                0u32,
            );
        }
    }
}

impl Drop for Boxed {
    fn drop(&mut self) {
        self.kill();
        // Init has ended once its pidfd is readable, and with it every
        // process of its PID namespace (the kernel ends them first); the
        // zygote reaps it.
        let mut fd = libc::pollfd {
            fd: self.pidfd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        loop {
            // SAFETY: one valid pollfd.
            let r = unsafe { libc::poll(&mut fd, 1, 1000) };
            if (r > 0 && fd.revents != 0)
                || (r < 0
                    && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted)
            {
                break;
            }
            self.kill();
        }
        if let Some(group) = &self.group {
            // A backstop: the PID namespace died with its init.
            group.kill_all();
        }
    }
}
