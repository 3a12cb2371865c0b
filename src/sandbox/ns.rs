//! The `namespaces` tier: each run gets fresh user, PID, mount, network,
//! IPC, UTS and cgroup namespaces, a private root, an unprivileged uid, a
//! seccomp filter and (where the machine has them) a cgroup. See the
//! theory of operation in the parent module.
//!
//! Boxes are prepared ahead of the runs that use them: a background thread
//! keeps a few boxes whose init has made its namespaces, joined a fresh
//! cgroup, built the part of the file system every run shares and forked
//! the program's process (which has locked itself down), and waits for one
//! run's description; another thread reaps used boxes. A run takes a
//! prepared box (or prepares one itself when none is ready), so namespace
//! creation and teardown stay off its path. Every box serves one run only.
//!
//! The code between `clone` and `execve` runs in a child of a possibly
//! multi-threaded judge, so it must not allocate, lock or unwind: the
//! parent prepares everything (C strings, the mount plan, the filter)
//! before the clone, and the run's description is written later into
//! memory shared with the box's init, already laid out as C data; the
//! child only makes system calls.

use std::ffi::CString;
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::sync::{mpsc, Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::cgroup::{Cgroups, RunGroup};
use super::seccomp::Filter;
use super::{rlimit, Error, Limits, Measurement, Outcome, RunSpec, Runner, Termination};

/// The uid and gid a program has inside its box.
const BOX_ID: u32 = 1000;
/// How often a running box is checked against its CPU limit.
const POLL: Duration = Duration::from_millis(10);
/// How many boxes are kept prepared.
const POOL: usize = 2;
/// Bytes of memory shared with a box's init for the run's description
/// (arguments, environment, paths); mapped lazily, so only what a run
/// writes is ever allocated.
const JOB_BYTES: usize = 4 << 20;
/// Descriptor numbers init moves bind sources to (`/proc/self/fd/N`).
const SOURCE_FD: RawFd = 100;
/// How long a box may take to prepare before the judge gives up on it.
const PREPARE_TIMEOUT: Duration = Duration::from_secs(10);

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
    seccomp: Filter,
    /// The file system every box shares, planned once.
    base: Base,
}

/// Prepared boxes, and the limits the next ones are prepared with.
struct Pool {
    state: Mutex<PoolState>,
    /// Wakes the refill thread (a box was taken, or shutdown).
    wake: Condvar,
    /// Wakes runs waiting for a box the refill thread is preparing.
    ready: Condvar,
}

struct PoolState {
    ready: Vec<Boxed>,
    /// Memory and process limits of the latest run: most runs repeat them,
    /// so a box prepared with them needs no cgroup write when taken.
    limits: (u64, u64),
    /// The refill thread is preparing a box.
    preparing: bool,
    /// A run is waiting for that box.
    awaited: bool,
    shutdown: bool,
}

struct Workers {
    refill: JoinHandle<()>,
    reaper: JoinHandle<()>,
    used: mpsc::Sender<Boxed>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The file system every box shares: built by each box's init before it
/// is handed a run.
#[derive(Debug)]
struct Base {
    /// The staging directory the box root is mounted on, inside each
    /// box's own mount namespace only: the host always sees it empty, so
    /// every sandbox shares one (`<tmp>/grundy-box`).
    root: CString,
    tmpfs: CString,
    ops: Vec<Op>,
    /// Bind sources among `ops`, moved to `SOURCE_FD..SOURCE_FD + n`.
    sources: usize,
    /// Paths inside the box that `ops` provide.
    paths: Vec<PathBuf>,
}

/// The shared staging directory, created if needed (mode 0755, so judges
/// of any user can use it).
fn staging_dir() -> Result<PathBuf, Error> {
    let dir = std::env::temp_dir().join("grundy-box");
    let io = |source| Error::Io {
        path: dir.clone(),
        source,
    };
    match std::fs::create_dir(&dir) {
        Ok(()) => {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io(e)),
    }
    // A symlink planted there would move where boxes are built: refuse.
    let meta = std::fs::symlink_metadata(&dir).map_err(io)?;
    if !meta.is_dir() {
        return Err(io(std::io::Error::other("not a directory")));
    }
    Ok(dir)
}

/// Steps of the child's setup, reported with `errno` when one fails.
const STEPS: &[&str] = &[
    "waiting for the judge",
    "making mounts private",
    "mounting the root tmpfs",
    "creating a mount point",
    "bind-mounting",
    "making a bind read-only",
    "mounting tmpfs",
    "mounting /proc",
    "creating a symlink",
    "writing a file",
    "making the root read-only",
    "pivot_root",
    "detaching the old root",
    "entering the working directory",
    "forking the program",
    "redirecting stdio",
    "setting rlimits",
    "dropping groups",
    "switching user",
    "dropping capabilities",
    "setting no_new_privs",
    "installing seccomp",
    "executing the program",
    "setting the hostname",
    "opening a bind source",
    "receiving the run",
    "preparing the box's file system",
];
const S_GO: u32 = 0;
const S_PRIVATE: u32 = 1;
const S_ROOT: u32 = 2;
const S_MKDIR: u32 = 3;
const S_BIND: u32 = 4;
const S_RDONLY: u32 = 5;
const S_TMPFS: u32 = 6;
const S_PROC: u32 = 7;
const S_SYMLINK: u32 = 8;
const S_FILE: u32 = 9;
const S_ROOT_RO: u32 = 10;
const S_PIVOT: u32 = 11;
const S_UMOUNT: u32 = 12;
const S_CHDIR: u32 = 13;
const S_FORK: u32 = 14;
const S_STDIO: u32 = 15;
const S_RLIMIT: u32 = 16;
const S_GROUPS: u32 = 17;
const S_SETUID: u32 = 18;
const S_CAPS: u32 = 19;
const S_NNP: u32 = 20;
const S_SECCOMP: u32 = 21;
const S_EXEC: u32 = 22;
const S_HOSTNAME: u32 = 23;
const S_OPEN: u32 = 24;
const S_JOB: u32 = 25;
const S_BASE: u32 = 26;

/// One step of building the box's file system, with absolute paths under
/// the staging directory.
#[derive(Debug)]
enum Op {
    Mkdir(CString),
    Bind {
        source: CString,
        /// The reserved descriptor number, and `/proc/self/fd/N`.
        fd: RawFd,
        fd_path: CString,
        target: CString,
        file: bool,
        writable: bool,
        /// Flags of the source mount that a user namespace may not drop.
        locked: libc::c_ulong,
    },
    Tmpfs {
        target: CString,
        options: CString,
    },
    Proc(CString),
    Symlink {
        to: CString,
        at: CString,
    },
    File {
        path: CString,
        contents: CString,
    },
}

fn cstr(bytes: &[u8]) -> Result<CString, Error> {
    CString::new(bytes).map_err(|_| nul_byte())
}

fn nul_byte() -> Error {
    Error::Unavailable("a path or argument contains a NUL byte".into())
}

fn under(root: &Path, inside: &Path) -> Result<CString, Error> {
    let mut p = root.as_os_str().as_bytes().to_vec();
    p.extend_from_slice(inside.as_os_str().as_bytes());
    cstr(&p)
}

/// Flags of the mount holding `path` that an unprivileged remount must keep.
fn locked_flags(path: &Path) -> libc::c_ulong {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return 0;
    };
    // SAFETY: statvfs is plain old data; the pointer is valid.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: valid C string and out pointer.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return 0;
    }
    let mut flags = 0;
    for (st_flag, ms_flag) in [
        (libc::ST_NOSUID, libc::MS_NOSUID),
        (libc::ST_NODEV, libc::MS_NODEV),
        (libc::ST_NOEXEC, libc::MS_NOEXEC),
        (libc::ST_NOATIME, libc::MS_NOATIME),
        (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
        (libc::ST_RELATIME, libc::MS_RELATIME),
    ] {
        if st.f_flag & st_flag != 0 {
            flags |= ms_flag;
        }
    }
    flags
}

/// A mount of the box, before it becomes an [`Op`].
enum Entry {
    Bind { source: PathBuf, writable: bool },
    Symlink(PathBuf),
    Tmpfs(String),
    Proc,
    Dev(&'static str),
    File(&'static str),
}

/// One run's description, laid out as C data in memory shared with the
/// box's init (the same addresses in both processes).
#[repr(C)]
struct Job {
    /// Directories to create before `ops`, parents first.
    mkdirs: *const *const libc::c_char,
    n_mkdirs: usize,
    ops: *const JobOp,
    n_ops: usize,
    cwd: *const libc::c_char,
    program: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
    rlimits: *const Rlimit,
    n_rlimits: usize,
}

/// A per-run mount: a bind of a host path, or a symlink.
#[repr(C)]
#[derive(Clone, Copy)]
struct JobOp {
    kind: u32,
    writable: u32,
    /// Where init moves the reopened source.
    fd: RawFd,
    /// Flags of the source mount that a user namespace may not drop.
    locked: libc::c_ulong,
    /// The host path (a bind), or what the link points to (a symlink).
    source: *const libc::c_char,
    /// `/proc/self/fd/<fd>`.
    fd_path: *const libc::c_char,
    target: *const libc::c_char,
}

const JOB_BIND_DIR: u32 = 0;
const JOB_BIND_FILE: u32 = 1;
const JOB_SYMLINK: u32 = 2;

#[repr(C)]
#[derive(Clone, Copy)]
struct Rlimit {
    resource: libc::__rlimit_resource_t,
    soft: u64,
    hard: u64,
}

/// Anonymous memory shared with one box's init (mapped before its clone).
struct Shared {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the mapping is owned by one `Boxed` at a time and written only
// by the thread running its run.
unsafe impl Send for Shared {}

impl Shared {
    fn new(len: usize) -> std::io::Result<Shared> {
        // SAFETY: a fresh anonymous mapping, no aliasing.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Shared {
            ptr: ptr.cast(),
            len,
        })
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        // SAFETY: our own mapping, unmapped once.
        unsafe {
            libc::munmap(self.ptr.cast(), self.len);
        }
    }
}

/// Lays C data out in a [`Shared`] mapping, front to back.
struct Arena<'a> {
    shared: &'a Shared,
    used: usize,
}

impl Arena<'_> {
    fn alloc(&mut self, size: usize, align: usize) -> Result<*mut u8, Error> {
        let start = self.used.div_ceil(align) * align;
        let end = start
            .checked_add(size)
            .filter(|&end| end <= self.shared.len)
            .ok_or_else(|| {
                Error::Unavailable(format!(
                    "the program's arguments, environment and paths exceed {} MiB",
                    JOB_BYTES >> 20
                ))
            })?;
        self.used = end;
        // SAFETY: in bounds of the mapping, checked above.
        Ok(unsafe { self.shared.ptr.add(start) })
    }

    fn put<T: Copy>(&mut self, items: &[T]) -> Result<*const T, Error> {
        let p = self
            .alloc(std::mem::size_of_val(items), std::mem::align_of::<T>())?
            .cast::<T>();
        // SAFETY: `p` is aligned and has room for `items`, which cannot
        // overlap the mapping's fresh space.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), p, items.len()) };
        Ok(p)
    }

    fn cstr(&mut self, bytes: &[u8]) -> Result<*const libc::c_char, Error> {
        if bytes.contains(&0) {
            return Err(nul_byte());
        }
        let p = self.alloc(bytes.len() + 1, 1)?;
        // SAFETY: room for the bytes and the NUL, checked by alloc.
        unsafe {
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p, bytes.len());
            *p.add(bytes.len()) = 0;
        }
        Ok(p.cast_const().cast())
    }

    /// A NULL-terminated array of C strings.
    fn strings<'s>(
        &mut self,
        items: impl IntoIterator<Item = &'s [u8]>,
    ) -> Result<*const *const libc::c_char, Error> {
        let mut ptrs = Vec::new();
        for item in items {
            ptrs.push(self.cstr(item)?);
        }
        ptrs.push(std::ptr::null());
        self.put(&ptrs)
    }
}

/// Everything a box's init needs before its run arrives, prepared by the
/// judge before the clone (the child works on its own copy).
struct Prep<'a> {
    base: &'a Base,
    users: Users,
    host_uid: u32,
    host_gid: u32,
    drop_groups: bool,
    seccomp: &'a Filter,
    /// Init's end of the control socket (the judge's go, then the run).
    control: RawFd,
    report: RawFd,
    /// Where the run's [`Job`] will be.
    job: *const Job,
    /// The stack init's helper runs on.
    stack: Vec<u8>,
}

/// Adds host `path` to `entries`: a symlink as the same symlink (like
/// `/bin -> usr/bin` on merged-`/usr` systems), anything else as a bind of
/// its canonical path. Missing paths are skipped.
fn add_host(path: &Path, writable: bool, entries: &mut Vec<(PathBuf, Entry)>) {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return;
    };
    if meta.file_type().is_symlink() {
        if let Ok(to) = std::fs::read_link(path) {
            let at = match path.parent().and_then(|p| std::fs::canonicalize(p).ok()) {
                Some(parent) => parent.join(path.file_name().unwrap_or_default()),
                None => path.to_path_buf(),
            };
            entries.push((at, Entry::Symlink(to)));
        }
        return;
    }
    let Ok(canonical) = std::fs::canonicalize(path) else {
        return;
    };
    entries.push((
        canonical.clone(),
        Entry::Bind {
            source: canonical,
            writable,
        },
    ));
}

/// Parents before children; a later duplicate of a path wins nothing.
fn sort_entries(entries: &mut Vec<(PathBuf, Entry)>) {
    entries.sort_by(|a, b| a.0.components().cmp(b.0.components()));
    entries.dedup_by(|later, earlier| later.0 == earlier.0);
}

/// `inside` and its ancestors below `/`, outermost first.
fn ancestors(inside: &Path) -> Vec<PathBuf> {
    let mut at = PathBuf::from("/");
    let mut all = Vec::new();
    for c in inside.components() {
        if let Component::Normal(name) = c {
            at.push(name);
            all.push(at.clone());
        }
    }
    all
}

impl Base {
    /// Plans the shared part of every box: the system paths read-only, a
    /// size-bounded `/tmp`, `/proc`, a few devices and `/etc/passwd`.
    fn plan(system: &[PathBuf], tmp_size_mib: u64) -> Result<Base, Error> {
        let staging = staging_dir()?;
        let root = staging.as_path();
        let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
        for path in system {
            add_host(path, false, &mut entries);
        }
        entries.push((
            PathBuf::from("/tmp"),
            Entry::Tmpfs(format!("size={tmp_size_mib}m,mode=1777")),
        ));
        entries.push((PathBuf::from("/proc"), Entry::Proc));
        for dev in ["null", "zero", "full", "random", "urandom"] {
            entries.push((Path::new("/dev").join(dev), Entry::Dev(dev)));
        }
        for (link, to) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            entries.push((
                Path::new("/dev").join(link),
                Entry::Symlink(PathBuf::from(to)),
            ));
        }
        entries.push((PathBuf::from("/etc/passwd"), Entry::File("passwd")));
        entries.push((PathBuf::from("/etc/group"), Entry::File("group")));
        sort_entries(&mut entries);

        let mut ops = Vec::new();
        let mut made: Vec<PathBuf> = Vec::new();
        let mut sources = 0;
        let mut mkdirs = |inside: &Path, ops: &mut Vec<Op>| -> Result<(), Error> {
            for at in ancestors(inside) {
                if !made.contains(&at) {
                    ops.push(Op::Mkdir(under(root, &at)?));
                    made.push(at);
                }
            }
            Ok(())
        };
        let mut bind = |source: &Path, inside: &Path, file: bool, writable: bool| {
            let fd = SOURCE_FD + sources as RawFd;
            sources += 1;
            Ok::<Op, Error>(Op::Bind {
                locked: locked_flags(source),
                fd,
                fd_path: cstr(format!("/proc/self/fd/{fd}").as_bytes())?,
                source: cstr(source.as_os_str().as_bytes())?,
                target: under(root, inside)?,
                file,
                writable,
            })
        };
        let mut paths = Vec::new();
        for (inside, entry) in entries {
            let parent = inside.parent().unwrap_or(Path::new("/"));
            match entry {
                Entry::Bind { source, writable } => {
                    let file = !source.is_dir();
                    mkdirs(if file { parent } else { &inside }, &mut ops)?;
                    ops.push(bind(&source, &inside, file, writable)?);
                }
                Entry::Dev(name) => {
                    mkdirs(parent, &mut ops)?;
                    ops.push(bind(&Path::new("/dev").join(name), &inside, true, true)?);
                }
                Entry::Symlink(to) => {
                    mkdirs(parent, &mut ops)?;
                    ops.push(Op::Symlink {
                        to: cstr(to.as_os_str().as_bytes())?,
                        at: under(root, &inside)?,
                    });
                }
                Entry::Tmpfs(options) => {
                    mkdirs(&inside, &mut ops)?;
                    ops.push(Op::Tmpfs {
                        target: under(root, &inside)?,
                        options: cstr(options.as_bytes())?,
                    });
                }
                Entry::Proc => {
                    mkdirs(&inside, &mut ops)?;
                    ops.push(Op::Proc(under(root, &inside)?));
                }
                Entry::File(which) => {
                    mkdirs(parent, &mut ops)?;
                    let contents = match which {
                        "passwd" => format!("box:x:{BOX_ID}:{BOX_ID}:box:/tmp:/bin/sh\n"),
                        _ => format!("box:x:{BOX_ID}:\n"),
                    };
                    ops.push(Op::File {
                        path: under(root, &inside)?,
                        contents: cstr(contents.as_bytes())?,
                    });
                }
            }
            paths.push(inside);
        }
        Ok(Base {
            root: cstr(root.as_os_str().as_bytes())?,
            tmpfs: cstr(b"size=4m,mode=0755")?,
            ops,
            sources,
            paths,
        })
    }
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
        let seccomp = Filter::new()
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
            seccomp,
            base: Base::plan(system, tmp_size_mib)?,
        };
        Ok(NamespaceSandbox {
            inner: Arc::new(inner),
            pool: Arc::new(Pool {
                state: Mutex::new(PoolState {
                    ready: Vec::new(),
                    limits: (256 << 20, 64),
                    preparing: false,
                    awaited: false,
                    shutdown: false,
                }),
                wake: Condvar::new(),
                ready: Condvar::new(),
            }),
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

    /// A prepared box for a run with `limits`: one from the pool, or a new
    /// one when none is ready. Starts the pool's threads on first use.
    fn take(&self, limits: &Limits) -> Result<Boxed, Error> {
        self.start_workers();
        let wanted = (limits.memory, limits.processes);
        let ready = {
            let mut state = lock(&self.pool.state);
            state.limits = wanted;
            // A box on its way is sooner than one begun now, and two
            // boxes built at once slow each other (and the runs) down; one
            // run waits for it, others build their own.
            if state.ready.is_empty() && state.preparing && !state.awaited {
                state.awaited = true;
                let deadline = Instant::now() + PREPARE_TIMEOUT;
                while state.ready.is_empty() && state.preparing && !state.shutdown {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    state = self
                        .pool
                        .ready
                        .wait_timeout(state, left)
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .0;
                }
                state.awaited = false;
            }
            let ready = state.ready.pop();
            self.pool.wake.notify_one();
            ready
        };
        match ready {
            Some(b) => Ok(b),
            None => self.inner.prepare(wanted),
        }
    }

    fn start_workers(&self) {
        let mut workers = lock(&self.workers);
        if workers.is_some() {
            return;
        }
        let (used, done) = mpsc::channel::<Boxed>();
        // Dropping a box kills and reaps its init and removes its cgroup.
        let reaper = std::thread::spawn(move || done.into_iter().for_each(drop));
        let (inner, pool) = (Arc::clone(&self.inner), Arc::clone(&self.pool));
        // Boxes die with the thread that cloned them (PR_SET_PDEATHSIG):
        // this one lives as long as the sandbox.
        let refill = std::thread::spawn(move || refill(&inner, &pool));
        *workers = Some(Workers {
            refill,
            reaper,
            used,
        });
    }

    /// Loads the run into box `b` and lets it go; when its wall clock
    /// started.
    fn start(
        &self,
        b: &mut Boxed,
        spec: &RunSpec,
        entries: &[(PathBuf, Entry)],
        stdio: [RawFd; 3],
        program: &str,
    ) -> Result<Instant, Error> {
        self.inner.load(b, spec, entries)?;
        b.set_limits(&spec.limits)?;
        let start = Instant::now();
        send_run(&b.control, stdio).map_err(|source| Error::Setup {
            program: program.to_string(),
            step: STEPS[S_JOB as usize],
            source,
        })?;
        Ok(start)
    }

    /// Hands a used box to the reaper thread (or reaps it here).
    fn discard(&self, b: Boxed) {
        let workers = lock(&self.workers);
        match workers.as_ref() {
            Some(w) => {
                if let Err(mpsc::SendError(b)) = w.used.send(b) {
                    drop(b);
                }
            }
            None => drop(b),
        }
    }
}

/// The refill thread: keeps [`POOL`] boxes prepared until shutdown.
fn refill(inner: &Inner, pool: &Pool) {
    loop {
        let limits = {
            let mut state = lock(&pool.state);
            while !state.shutdown && state.ready.len() >= POOL {
                state = pool
                    .wake
                    .wait(state)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            if state.shutdown {
                return;
            }
            state.preparing = true;
            state.limits
        };
        let prepared = inner.prepare(limits);
        let mut state = lock(&pool.state);
        state.preparing = false;
        pool.ready.notify_all();
        match prepared {
            Ok(b) => {
                if state.shutdown {
                    drop(state);
                    drop(b);
                    return;
                }
                state.ready.push(b);
                pool.ready.notify_one();
            }
            Err(e) => {
                // Runs prepare their own box meanwhile, and report the
                // failure if it persists.
                tracing::warn!("preparing a sandbox box ahead: {e}");
                if !state.shutdown {
                    let _ = pool.wake.wait_timeout(state, Duration::from_secs(1));
                }
            }
        }
    }
}

impl Drop for NamespaceSandbox {
    fn drop(&mut self) {
        lock(&self.pool.state).shutdown = true;
        self.pool.wake.notify_all();
        self.pool.ready.notify_all();
        let workers = lock(&self.workers).take();
        if let Some(w) = workers {
            let _ = w.refill.join();
            let ready = std::mem::take(&mut lock(&self.pool.state).ready);
            drop(ready);
            drop(w.used);
            let _ = w.reaper.join();
        }
        // Boxes prepared by hand (no workers) were used and reaped.
    }
}

impl Inner {
    /// The run's own mounts: its binds and working directory, beyond the
    /// base. Writable directories are given to the box user.
    fn run_entries(&self, spec: &RunSpec) -> Result<Vec<(PathBuf, Entry)>, Error> {
        let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
        for bind in &spec.binds {
            if !bind.path.exists() {
                return Err(Error::Io {
                    path: bind.path.clone(),
                    source: std::io::Error::from(std::io::ErrorKind::NotFound),
                });
            }
            add_host(&bind.path, bind.writable, &mut entries);
        }
        let cwd = std::fs::canonicalize(&spec.cwd).map_err(|source| Error::Io {
            path: spec.cwd.clone(),
            source,
        })?;
        let covered = entries
            .iter()
            .any(|(at, e)| matches!(e, Entry::Bind { writable: true, .. }) && cwd.starts_with(at));
        if !covered {
            entries.push((
                cwd.clone(),
                Entry::Bind {
                    source: cwd,
                    writable: true,
                },
            ));
        }
        entries.retain(|(at, _)| !self.base.paths.contains(at));
        sort_entries(&mut entries);
        if self.privileged {
            for (_, entry) in &entries {
                if let Entry::Bind {
                    source,
                    writable: true,
                } = entry
                {
                    // The box user must own its writable directories.
                    let c = cstr(source.as_os_str().as_bytes())?;
                    // SAFETY: valid C string.
                    if unsafe { libc::chown(c.as_ptr(), self.host_uid, self.host_gid) } != 0 {
                        return Err(Error::Io {
                            path: source.clone(),
                            source: std::io::Error::last_os_error(),
                        });
                    }
                }
            }
        }
        Ok(entries)
    }

    /// Writes the run's [`Job`] into box `b`'s shared memory.
    fn load(&self, b: &Boxed, spec: &RunSpec, entries: &[(PathBuf, Entry)]) -> Result<(), Error> {
        let root = Path::new(std::ffi::OsStr::from_bytes(self.base.root.as_bytes()));
        let mut arena = Arena {
            shared: &b.shared,
            used: 0,
        };
        let job_at = arena
            .alloc(std::mem::size_of::<Job>(), std::mem::align_of::<Job>())?
            .cast::<Job>();
        let mut dirs: Vec<PathBuf> = Vec::new();
        let mut ops = Vec::new();
        for (i, (inside, entry)) in entries.iter().enumerate() {
            let parent = inside.parent().unwrap_or(Path::new("/"));
            let fd = SOURCE_FD + i as RawFd;
            let target = arena.cstr(under(root, inside)?.as_bytes())?;
            let (kind, source, writable, locked, new_dirs) = match entry {
                Entry::Bind { source, writable } if source.is_dir() => (
                    JOB_BIND_DIR,
                    source,
                    *writable,
                    locked_flags(source),
                    inside.as_path(),
                ),
                Entry::Bind { source, writable } => (
                    JOB_BIND_FILE,
                    source,
                    *writable,
                    locked_flags(source),
                    parent,
                ),
                Entry::Symlink(to) => (JOB_SYMLINK, to, false, 0, parent),
                _ => unreachable!("a run adds only binds and symlinks"),
            };
            for at in ancestors(new_dirs) {
                if !dirs.contains(&at) {
                    dirs.push(at);
                }
            }
            ops.push(JobOp {
                kind,
                writable: u32::from(writable),
                fd,
                locked,
                source: arena.cstr(source.as_os_str().as_bytes())?,
                fd_path: arena.cstr(format!("/proc/self/fd/{fd}").as_bytes())?,
                target,
            });
        }
        let mkdirs: Vec<CString> = dirs
            .iter()
            .map(|d| under(root, d))
            .collect::<Result<_, _>>()?;
        let cwd = std::fs::canonicalize(&spec.cwd).map_err(|source| Error::Io {
            path: spec.cwd.clone(),
            source,
        })?;
        let program = spec.program.as_os_str().as_bytes();
        let env: Vec<Vec<u8>> = spec
            .env
            .iter()
            .map(|(k, v)| format!("{k}={v}").into_bytes())
            .collect();
        let l = &spec.limits;
        let cpu_s = l.cpu.as_secs() + 1;
        let mut rlimits = vec![
            // A backstop a second above the limit the judge enforces.
            (libc::RLIMIT_CPU, cpu_s, cpu_s + 1),
            // A flood dies of SIGXFSZ and is never buffered.
            (libc::RLIMIT_FSIZE, l.output, l.output),
            // Deep recursion works up to the memory limit.
            (libc::RLIMIT_STACK, l.memory, l.memory),
            (libc::RLIMIT_NOFILE, l.open_files, l.open_files),
            (libc::RLIMIT_CORE, 0, 0),
        ];
        if self.cgroups.is_none() {
            // Without a pids controller: per-user process count, which in
            // a fresh user namespace counts this box alone.
            rlimits.push((libc::RLIMIT_NPROC, l.processes, l.processes));
        }
        let rlimits: Vec<Rlimit> = rlimits
            .into_iter()
            .map(|(resource, soft, hard)| Rlimit {
                resource,
                soft,
                hard,
            })
            .collect();
        let job = Job {
            mkdirs: arena.strings(mkdirs.iter().map(|c| c.as_bytes()))?,
            n_mkdirs: mkdirs.len(),
            ops: arena.put(&ops)?,
            n_ops: ops.len(),
            cwd: arena.cstr(cwd.as_os_str().as_bytes())?,
            program: arena.cstr(program)?,
            argv: arena
                .strings(std::iter::once(program).chain(spec.args.iter().map(|a| a.as_bytes())))?,
            envp: arena.strings(env.iter().map(Vec::as_slice))?,
            rlimits: arena.put(&rlimits)?,
            n_rlimits: rlimits.len(),
        };
        // SAFETY: `job_at` is aligned room for a Job in the mapping.
        unsafe { job_at.write(job) };
        Ok(())
    }

    /// Starts a box: clones its init into fresh namespaces and a fresh
    /// cgroup (limited to `limits`: memory, processes) and waits until it
    /// has built the base file system.
    fn prepare(&self, limits: (u64, u64)) -> Result<Boxed, Error> {
        let setup = |step: &'static str| {
            move |source| Error::Setup {
                program: "a box".into(),
                step,
                source,
            }
        };
        // Init and its helper run in the cgroup while the box is built.
        let limits = (limits.0, limits.1.max(4));
        let group = match &self.cgroups {
            Some(cg) => Some(cg.create(limits.0, limits.1)?),
            None => None,
        };
        let shared = Shared::new(JOB_BYTES).map_err(setup("mapping shared memory"))?;
        let (control, control_box) = socketpair().map_err(setup("creating a socket"))?;
        let (report_read, report_write) = pipe().map_err(setup("creating a pipe"))?;
        let prep = Prep {
            base: &self.base,
            users: self.users,
            host_uid: self.host_uid,
            host_gid: self.host_gid,
            drop_groups: self.privileged,
            seccomp: &self.seccomp,
            control: control_box.as_raw_fd(),
            report: report_write.as_raw_fd(),
            job: shared.ptr.cast_const().cast(),
            stack: vec![0; 256 << 10],
        };
        let mut flags = libc::CLONE_NEWNS
            | libc::CLONE_NEWPID
            | libc::CLONE_NEWNET
            | libc::CLONE_NEWIPC
            | libc::CLONE_NEWUTS
            | libc::CLONE_NEWCGROUP;
        if self.users == Users::Namespace {
            flags |= libc::CLONE_NEWUSER;
        }
        // SAFETY: a fork-like clone (no new stack: the child continues on a
        // copy of this one). The child runs only `init`, which makes plain
        // system calls on memory prepared above and never returns.
        let pid = unsafe {
            libc::syscall(
                libc::SYS_clone,
                (flags | libc::SIGCHLD) as libc::c_ulong,
                0usize,
                0usize,
                0usize,
                0usize,
            )
        };
        if pid == 0 {
            // SAFETY: we are the child; see `init`.
            unsafe { init(&prep) }
        }
        if pid < 0 {
            return Err(setup("cloning the box's init")(
                std::io::Error::last_os_error(),
            ));
        }
        let pid = pid as libc::pid_t;
        drop(prep);
        drop(control_box);
        drop(report_write);
        // SAFETY: plain syscall; our unreaped child cannot be recycled.
        let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as RawFd;
        // From here on dropping the box kills and reaps its init.
        let mut b = Boxed {
            pid,
            // SAFETY: on success a fresh descriptor we own.
            pidfd: (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) }),
            control,
            report: ReportReader::new(report_read),
            group,
            shared,
            limits,
        };
        if self.users == Users::Namespace {
            self.map_ids(pid)
                .map_err(setup("writing the user namespace maps"))?;
        }
        if let Some(group) = &b.group {
            group.attach(pid)?;
        }
        // SAFETY: valid one-byte buffer.
        if unsafe { libc::write(b.control.as_raw_fd(), b"g".as_ptr().cast(), 1) } != 1 {
            return Err(setup("starting the box")(std::io::Error::last_os_error()));
        }
        b.wait_prepared()?;
        if let Some(group) = &mut b.group {
            // What building the box cost is not the run's.
            group.reset();
        }
        Ok(b)
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

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: valid out array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn socketpair() -> std::io::Result<(OwnedFd, OwnedFd)> {
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

/// Sends the run's go with its stdin, stdout and stderr.
fn send_run(control: &OwnedFd, stdio: [RawFd; 3]) -> std::io::Result<()> {
    // SAFETY: plain system calls on valid descriptors.
    if unsafe { send_stdio(control.as_raw_fd(), &stdio) } != 1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// What the box's init reported.
#[derive(Debug, Default)]
struct Report {
    /// The base file system is built; the box waits for its run.
    prepared: bool,
    status: Option<libc::c_int>,
    failure: Option<(u32, i32)>,
    /// CPU microseconds and peak RSS (KiB) of init's reaped children.
    rusage: Option<(u64, u64)>,
}

/// Reads init's report pipe as records arrive.
struct ReportReader {
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

    /// Reads whatever has arrived and parses the complete records.
    fn pump(&mut self) {
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
        let word = |b: &[u8]| u32::from_ne_bytes([b[0], b[1], b[2], b[3]]);
        let long = |b: &[u8]| u64::from_ne_bytes(b[..8].try_into().unwrap_or_default());
        let mut used = 0;
        loop {
            let rest = &self.pending[used..];
            let Some((&tag, tail)) = rest.split_first() else {
                break;
            };
            let need = match tag {
                b'P' => 0,
                b'S' => 4,
                b'E' => 8,
                b'R' => 24,
                _ => {
                    // Not ours: nothing after it can be trusted.
                    used = self.pending.len();
                    break;
                }
            };
            if tail.len() < need {
                break;
            }
            let r = &mut self.report;
            match tag {
                b'P' => r.prepared = true,
                b'S' => r.status = Some(word(tail) as i32),
                b'E' => {
                    r.failure
                        .get_or_insert((word(tail), word(&tail[4..]) as i32));
                }
                _ => r.rusage = Some((long(tail) + long(&tail[8..]), long(&tail[16..]))),
            }
            used += 1 + need;
        }
        self.pending.drain(..used);
    }
}

/// A box: its init, waiting for a run or running one. Dropping it kills
/// and reaps init (and with it the whole PID namespace), then removes the
/// cgroup.
struct Boxed {
    pid: libc::pid_t,
    pidfd: Option<OwnedFd>,
    /// The judge's end of the control socket.
    control: OwnedFd,
    report: ReportReader,
    group: Option<RunGroup>,
    shared: Shared,
    /// The cgroup's memory and process limits.
    limits: (u64, u64),
}

impl Boxed {
    /// Waits until init has built the base file system (or failed to).
    fn wait_prepared(&mut self) -> Result<(), Error> {
        let start = Instant::now();
        loop {
            let dead = self.poll(POLL);
            self.report.pump();
            if let Some((step, errno)) = self.report.failure {
                return Err(Error::Setup {
                    program: "a box".into(),
                    step: STEPS.get(step as usize).copied().unwrap_or("setup"),
                    source: std::io::Error::from_raw_os_error(errno),
                });
            }
            if self.report.prepared {
                return Ok(());
            }
            if dead || start.elapsed() > PREPARE_TIMEOUT {
                return Err(Error::Setup {
                    program: "a box".into(),
                    step: STEPS[S_BASE as usize],
                    source: std::io::Error::other(if dead {
                        "the box's init died"
                    } else {
                        "timed out"
                    }),
                });
            }
        }
    }

    /// Waits up to `wait` for a report or for init's end; whether init
    /// has ended.
    fn poll(&self, wait: Duration) -> bool {
        let mut fds = [
            libc::pollfd {
                fd: self.report.fd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: self.pidfd.as_ref().map_or(-1, AsRawFd::as_raw_fd),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        let ms = wait.as_millis().clamp(1, 1000) as libc::c_int;
        // SAFETY: valid pollfd array.
        unsafe { libc::poll(fds.as_mut_ptr(), 2, ms) };
        if self.pidfd.is_some() {
            return fds[1].revents != 0;
        }
        // Before pidfds (Linux 5.3): ask without reaping.
        // SAFETY: siginfo_t is plain old data.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: WNOWAIT leaves the child for the real wait.
        let r = unsafe {
            libc::waitid(
                libc::P_PID,
                self.pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            )
        };
        // SAFETY: reading the pid field of a filled siginfo.
        r == 0 && unsafe { info.si_pid() } == self.pid
    }

    /// Sets the cgroup's limits where they differ from the box's.
    fn set_limits(&mut self, limits: &Limits) -> Result<(), Error> {
        let wanted = (limits.memory, limits.processes);
        if let Some(group) = &self.group {
            if self.limits != wanted {
                group.set_limits(self.limits.0, wanted.0, wanted.1)?;
                self.limits = wanted;
            }
        }
        Ok(())
    }
}

impl std::ops::Deref for ReportReader {
    type Target = Report;
    fn deref(&self) -> &Report {
        &self.report
    }
}

impl Drop for Boxed {
    fn drop(&mut self) {
        // SAFETY: our own unreaped child: the pid cannot be reused yet.
        unsafe {
            libc::kill(self.pid, libc::SIGKILL);
        }
        let mut status = 0;
        loop {
            // SAFETY: valid pointer.
            let r = unsafe { libc::waitpid(self.pid, &mut status, libc::__WALL) };
            if r == self.pid
                || (r < 0
                    && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted)
            {
                break;
            }
        }
        if let Some(group) = &self.group {
            // A backstop: the PID namespace died with its init.
            group.kill_all();
        }
    }
}

/// Which limit the judge enforced on a running box.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stopped {
    Wall,
    Cpu,
    Memory,
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
        let open = |path: &Path, write: bool| {
            let f = if write {
                File::create(path)
            } else {
                File::open(path)
            };
            f.map_err(|source| Error::Io {
                path: path.to_path_buf(),
                source,
            })
        };
        let stdin = match &spec.stdin {
            Some(path) => open(path, false)?,
            None => open(Path::new("/dev/null"), false)?,
        };
        let stdout = open(&spec.stdout, true)?;
        let stderr = if spec.stderr == spec.stdout {
            stdout.try_clone().map_err(|source| Error::Io {
                path: spec.stderr.clone(),
                source,
            })?
        } else {
            open(&spec.stderr, true)?
        };
        let stdio = [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()];
        let entries = self.inner.run_entries(spec)?;

        let mut b = self.take(&spec.limits)?;
        let start = match self.start(&mut b, spec, &entries, stdio, &program) {
            Ok(start) => start,
            // Only sending fails so: the prepared box died waiting (killed
            // from outside). Once more with a fresh one.
            Err(Error::Setup { .. }) => {
                self.discard(b);
                b = self
                    .inner
                    .prepare((spec.limits.memory, spec.limits.processes))?;
                self.start(&mut b, spec, &entries, stdio, &program)?
            }
            Err(e) => {
                self.discard(b);
                return Err(e);
            }
        };
        drop((stdin, stdout, stderr));

        let mut sampled = Sampled::default();
        let stopped = watch(&mut b, &spec.limits, start, &mut sampled);
        let wall = start.elapsed();
        let report = &*b.report;
        if let Some((step, errno)) = report.failure {
            let e = Error::Setup {
                program,
                step: STEPS.get(step as usize).copied().unwrap_or("setup"),
                source: std::io::Error::from_raw_os_error(errno),
            };
            self.discard(b);
            return Err(e);
        }
        let status = report.status;
        let (cpu_ms, memory_kib, oom_kills, hits, measured_by) = match &b.group {
            Some(g) => {
                let u = g.usage();
                (
                    u.cpu_ns / 1_000_000,
                    // memory.peak needs Linux 5.19; before it, the largest
                    // process's peak is the floor.
                    (u.peak_bytes / 1024).max(report.rusage.map_or(0, |r| r.1)),
                    u.oom_kills,
                    u.limit_hits,
                    g.kind(),
                )
            }
            None => {
                let (cpu_us, rss) = report.rusage.unwrap_or_default();
                (
                    (cpu_us / 1000).max(sampled.cpu_ms),
                    rss.max(sampled.rss_kib),
                    0,
                    0,
                    Measurement::Rusage,
                )
            }
        };
        self.discard(b);
        if status.is_none() && stopped.is_none() && oom_kills == 0 {
            return Err(Error::Setup {
                program,
                step: "watching the program",
                source: std::io::Error::other("the box's init died without reporting"),
            });
        }
        let termination = classify(
            status,
            stopped,
            cpu_ms,
            memory_kib,
            oom_kills,
            hits,
            &spec.limits,
        );
        Ok(Outcome {
            termination,
            cpu_ms,
            wall_ms: wall.as_millis() as u64,
            memory_kib,
            measured_by,
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
}

/// What the watchdog saw without a cgroup: the program's last sampled CPU
/// time (ms) and peak RSS (KiB). A program killed with its namespace is
/// never reaped by init, so rusage alone would miss it.
#[derive(Debug, Default, Clone, Copy)]
struct Sampled {
    cpu_ms: u64,
    rss_kib: u64,
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
        } else if let Some(child) = first_child(b.pid) {
            // No cgroup: sample the program itself, as the rlimit tier does.
            if let Some((rss_kib, cpu_ms)) = rlimit::sample(child, ticks) {
                sampled.cpu_ms = sampled.cpu_ms.max(cpu_ms);
                sampled.rss_kib = sampled.rss_kib.max(rss_kib);
                if rss_kib * 1024 > limits.memory {
                    stop = Some(Stopped::Memory);
                } else if cpu_ms * 1_000_000 > cpu_limit_ns + 50_000_000 {
                    stop = Some(Stopped::Cpu);
                }
            }
        }
        if stop.is_some() {
            // SAFETY: our unreaped child; its death takes the namespace down.
            unsafe {
                libc::kill(b.pid, libc::SIGKILL);
            }
            return stop;
        }
    }
}

/// The first child of `pid` (the program, for a box's init).
fn first_child(pid: libc::pid_t) -> Option<libc::pid_t> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// What stopped the program, from what init reported and what was measured.
fn classify(
    status: Option<libc::c_int>,
    stopped: Option<Stopped>,
    cpu_ms: u64,
    memory_kib: u64,
    oom_kills: u64,
    limit_hits: u64,
    limits: &Limits,
) -> Termination {
    let over_cpu = cpu_ms > limits.cpu.as_millis() as u64;
    if oom_kills > 0 {
        return Termination::MemoryExceeded;
    }
    match stopped {
        Some(Stopped::Memory) => return Termination::MemoryExceeded,
        Some(Stopped::Cpu) => return Termination::CpuTimeout,
        Some(Stopped::Wall) if over_cpu => return Termination::CpuTimeout,
        Some(Stopped::Wall) => return Termination::WallTimeout,
        None => {}
    }
    if over_cpu {
        return Termination::CpuTimeout;
    }
    let over_memory = memory_kib * 1024 > limits.memory;
    let Some(status) = status else {
        // Init died without a report: only our kill does that.
        return Termination::Signaled(libc::SIGKILL);
    };
    let failed = !(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    if failed && (over_memory || limit_hits > 0) {
        // It met the memory limit and then failed: an allocation that could
        // not be satisfied, however the program reacted to it.
        return Termination::MemoryExceeded;
    }
    if libc::WIFSIGNALED(status) {
        return match libc::WTERMSIG(status) {
            libc::SIGXCPU => Termination::CpuTimeout,
            libc::SIGXFSZ => Termination::OutputExceeded,
            sig => Termination::Signaled(sig),
        };
    }
    Termination::Exited(libc::WEXITSTATUS(status))
}

// ---------------------------------------------------------------------------
// The child side. Everything below runs between clone and execve: system
// calls only, on memory the parent prepared.

/// Reports a failed step to the judge and exits.
unsafe fn fail(report: RawFd, step: u32) -> ! {
    let errno = *libc::__errno_location();
    let mut msg = [0u8; 9];
    msg[0] = b'E';
    msg[1..5].copy_from_slice(&step.to_ne_bytes());
    msg[5..9].copy_from_slice(&errno.to_ne_bytes());
    libc::write(report, msg.as_ptr().cast(), msg.len());
    libc::_exit(126)
}

unsafe fn check(r: libc::c_int, report: RawFd, step: u32) {
    if r != 0 {
        fail(report, step);
    }
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;
const AT_RECURSIVE: libc::c_uint = 0x8000;

#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Makes the bind at `target` (and everything below it) read-only.
unsafe fn make_read_only(target: *const libc::c_char, locked: libc::c_ulong, report: RawFd) {
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    let r = libc::syscall(
        libc::SYS_mount_setattr,
        libc::AT_FDCWD,
        target,
        AT_RECURSIVE,
        &attr as *const MountAttr,
        std::mem::size_of::<MountAttr>(),
    );
    if r == 0 {
        return;
    }
    // Older kernels: remount the top mount, keeping its locked flags.
    let flags = libc::MS_REMOUNT
        | libc::MS_BIND
        | libc::MS_RDONLY
        | libc::MS_NOSUID
        | libc::MS_NODEV
        | locked;
    check(
        libc::mount(
            std::ptr::null(),
            target,
            std::ptr::null(),
            flags,
            std::ptr::null(),
        ),
        report,
        S_RDONLY,
    );
}

/// Opens bind `source` in the box's own mount namespace (a mount of the
/// judge's namespace cannot be bound here) and moves it to `fd`.
unsafe fn open_source(source: *const libc::c_char, fd: RawFd, report: RawFd) {
    let f = libc::open(source, libc::O_PATH | libc::O_CLOEXEC);
    if f < 0 || libc::dup3(f, fd, libc::O_CLOEXEC) < 0 {
        fail(report, S_OPEN);
    }
    libc::close(f);
}

/// Creates directory `path` unless it exists.
unsafe fn mkdir(path: *const libc::c_char, report: RawFd) {
    if libc::mkdir(path, 0o755) != 0 && *libc::__errno_location() != libc::EEXIST {
        fail(report, S_MKDIR);
    }
}

/// Binds `/proc/self/fd/N` (a reopened source) at `target`, creating the
/// target first when it is a file.
unsafe fn bind(
    fd_path: *const libc::c_char,
    target: *const libc::c_char,
    file: bool,
    writable: bool,
    locked: libc::c_ulong,
    report: RawFd,
) {
    if file {
        let fd = libc::open(
            target,
            libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
            0o644,
        );
        if fd < 0 && *libc::__errno_location() != libc::EEXIST {
            fail(report, S_MKDIR);
        }
        if fd >= 0 {
            libc::close(fd);
        }
    }
    check(
        libc::mount(
            fd_path,
            target,
            std::ptr::null(),
            libc::MS_BIND | libc::MS_REC,
            std::ptr::null(),
        ),
        report,
        S_BIND,
    );
    if !writable {
        make_read_only(target, locked, report);
    }
}

/// Becomes the (mapped) box user, keeping this namespace's capabilities:
/// an unmapped uid cannot create files on the box's own tmpfs
/// (`EOVERFLOW`). The program drops the capabilities.
unsafe fn become_box_user(prep: &Prep) {
    if prep.drop_groups {
        check(raw_setgroups(), prep.report, S_GROUPS);
    }
    check(raw_setresgid(BOX_ID), prep.report, S_SETUID);
    check(raw_setresuid(BOX_ID), prep.report, S_SETUID);
}

/// Spawns `entry(arg)` as `posix_spawn` does: the child shares this
/// process's memory on its own stack (`prep.stack`) and this process waits
/// until it execs or exits, so nothing is copied.
unsafe fn spawn(
    prep: &Prep,
    entry: extern "C" fn(*mut libc::c_void) -> libc::c_int,
    arg: *const libc::c_void,
) -> libc::pid_t {
    let stack = prep.stack.as_ptr() as usize + prep.stack.len();
    libc::clone(
        entry,
        (stack & !15) as *mut libc::c_void,
        libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
        arg.cast_mut(),
    )
}

/// The box's init (PID 1 of its namespace): builds the base file system,
/// waits for its run, adds the run's mounts, enters the root, spawns the
/// program, reaps everything, reports.
///
/// # Safety
/// Only in the child of the fork-like clone in [`Inner::prepare`].
unsafe fn init(prep: &Prep) -> ! {
    let report = prep.report;
    // Die with the judge's thread that made this box.
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
    // Descriptors of the judge (other boxes' pipes, its files) are not
    // this box's business.
    close_all_but(&[prep.control, report]);
    let mut byte = 0u8;
    if libc::read(prep.control, (&mut byte as *mut u8).cast(), 1) != 1 {
        fail(report, S_GO);
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
        S_PRIVATE,
    );
    for op in &prep.base.ops {
        if let Op::Bind { source, fd, .. } = op {
            open_source(source.as_ptr(), *fd, report);
        }
    }
    // The base is built by a helper as the box user, while init keeps the
    // judge's identity to open the run's own paths later (which the box
    // user may not be able to reach: a toolchain under /root).
    let helper = spawn(prep, base_entry, (prep as *const Prep).cast());
    let mut status = 0;
    if helper < 0 {
        fail(report, S_FORK);
    }
    while libc::waitpid(helper, &mut status, libc::__WALL) < 0 {
        if *libc::__errno_location() != libc::EINTR {
            fail(report, S_BASE);
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
    let host = b"box";
    check(
        libc::sethostname(host.as_ptr().cast(), host.len()),
        report,
        S_HOSTNAME,
    );
    // The program's process is made now, and arms itself (box user, no
    // capabilities, seccomp) while the box waits: only its exec is left
    // for the run. Its root and working directory are the old root, which
    // pivot_root moves to the new one.
    check(libc::chdir(c"/".as_ptr()), report, S_CHDIR);
    let mut pair = [0; 2];
    if libc::socketpair(
        libc::AF_UNIX,
        libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
        0,
        pair.as_mut_ptr(),
    ) != 0
    {
        fail(report, S_FORK);
    }
    let [to_stub, stub_end] = pair;
    // A raw fork: the C library's would run the judge's fork handlers.
    let stub = libc::syscall(
        libc::SYS_clone,
        libc::SIGCHLD as libc::c_ulong,
        0usize,
        0usize,
        0usize,
        0usize,
    ) as libc::pid_t;
    if stub == 0 {
        program(prep, stub_end);
    }
    if stub < 0 {
        fail(report, S_FORK);
    }
    libc::close(stub_end);
    let mut armed = 0u8;
    if libc::read(to_stub, (&mut armed as *mut u8).cast(), 1) != 1 {
        // The program's side reported why.
        libc::_exit(126);
    }
    let ready = b'P';
    libc::write(report, (&ready as *const u8).cast(), 1);

    // The run: its description in shared memory, its stdio on the socket.
    let Some(stdio) = receive_run(prep.control) else {
        // The judge dropped the box unused.
        libc::_exit(0)
    };
    let job = &*prep.job;
    let ops = slice(job.ops, job.n_ops);
    for op in ops {
        if op.kind != JOB_SYMLINK {
            open_source(op.source, op.fd, report);
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
            JOB_SYMLINK => check(libc::symlink(op.source, op.target), report, S_SYMLINK),
            kind => bind(
                op.fd_path,
                op.target,
                kind == JOB_BIND_FILE,
                op.writable != 0,
                op.locked,
                report,
            ),
        }
    }
    check(
        libc::mount(
            null,
            prep.base.root.as_ptr(),
            null,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            std::ptr::null(),
        ),
        report,
        S_ROOT_RO,
    );
    check(libc::chdir(prep.base.root.as_ptr()), report, S_PIVOT);
    check(
        libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as libc::c_int,
        report,
        S_PIVOT,
    );
    check(
        libc::umount2(c".".as_ptr(), libc::MNT_DETACH),
        report,
        S_UMOUNT,
    );
    // The file system is ready: the program may go.
    if send_stdio(to_stub, &stdio) != 1 {
        fail(report, S_JOB);
    }
    let child = stub;
    // Init keeps only the report pipe.
    close_all_but(&[report]);
    let mut program_status = None;
    loop {
        let mut status = 0;
        let r = libc::waitpid(-1, &mut status, libc::__WALL);
        if r == child {
            program_status = Some(status);
            break;
        }
        if r < 0 && *libc::__errno_location() != libc::EINTR {
            break;
        }
    }
    // Nothing outlives the program: kill the rest of the namespace.
    libc::kill(-1, libc::SIGKILL);
    let mut usage: libc::rusage = std::mem::zeroed();
    libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
    let us = |tv: libc::timeval| tv.tv_sec as u64 * 1_000_000 + tv.tv_usec as u64;
    // One write, so the judge wakes once.
    let mut msg = [0u8; 30];
    msg[0] = b'R';
    msg[1..9].copy_from_slice(&us(usage.ru_utime).to_ne_bytes());
    msg[9..17].copy_from_slice(&us(usage.ru_stime).to_ne_bytes());
    msg[17..25].copy_from_slice(&(usage.ru_maxrss as u64).to_ne_bytes());
    let mut len = 25;
    if let Some(status) = program_status {
        msg[25] = b'S';
        msg[26..30].copy_from_slice(&status.to_ne_bytes());
        len = 30;
    }
    libc::write(report, msg.as_ptr().cast(), len);
    libc::_exit(0)
}

/// `n` items at `ptr` (none when `n` is 0, whatever `ptr` is).
unsafe fn slice<'a, T>(ptr: *const T, n: usize) -> &'a [T] {
    if n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(ptr, n)
    }
}

/// Waits for the run's go and its three stdio descriptors; `None` when the
/// judge closed the socket instead.
unsafe fn receive_run(control: RawFd) -> Option<[RawFd; 3]> {
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
        let n = libc::recvmsg(control, &mut msg, libc::MSG_CMSG_CLOEXEC);
        if n > 0 {
            break;
        }
        if n == 0 || *libc::__errno_location() != libc::EINTR {
            return None;
        }
    }
    let cmsg = libc::CMSG_FIRSTHDR(&msg);
    let want = libc::CMSG_LEN(3 * std::mem::size_of::<RawFd>() as u32) as usize;
    if cmsg.is_null()
        || (*cmsg).cmsg_level != libc::SOL_SOCKET
        || (*cmsg).cmsg_type != libc::SCM_RIGHTS
        || (*cmsg).cmsg_len != want
    {
        return None;
    }
    let mut stdio = [0; 3];
    std::ptr::copy_nonoverlapping(libc::CMSG_DATA(cmsg).cast::<RawFd>(), stdio.as_mut_ptr(), 3);
    Some(stdio)
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
    check(
        libc::mount(
            c"tmpfs".as_ptr(),
            base.root.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            base.tmpfs.as_ptr().cast(),
        ),
        report,
        S_ROOT,
    );
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
                target.as_ptr(),
                *file,
                *writable,
                *locked,
                report,
            ),
            Op::Tmpfs { target, options } => check(
                libc::mount(
                    c"tmpfs".as_ptr(),
                    target.as_ptr(),
                    c"tmpfs".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV,
                    options.as_ptr().cast(),
                ),
                report,
                S_TMPFS,
            ),
            Op::Proc(target) => check(
                libc::mount(
                    c"proc".as_ptr(),
                    target.as_ptr(),
                    c"proc".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    std::ptr::null(),
                ),
                report,
                S_PROC,
            ),
            Op::Symlink { to, at } => {
                check(libc::symlink(to.as_ptr(), at.as_ptr()), report, S_SYMLINK)
            }
            Op::File { path, contents } => {
                let fd = libc::open(
                    path.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                );
                if fd < 0 {
                    fail(report, S_FILE);
                }
                let bytes = contents.as_bytes();
                libc::write(fd, bytes.as_ptr().cast(), bytes.len());
                libc::close(fd);
            }
        }
    }
    libc::_exit(0)
}

// The C library's set*id and setgroups apply the change to every thread of
// the process (POSIX), by signalling them and waiting: after a fork-like
// clone of a multi-threaded judge those threads do not exist and the wait
// never ends. The raw system calls change this thread only, which is all
// the child has.
unsafe fn raw_setgroups() -> libc::c_int {
    libc::syscall(libc::SYS_setgroups, 0usize, std::ptr::null::<libc::gid_t>()) as libc::c_int
}

unsafe fn raw_setresgid(gid: u32) -> libc::c_int {
    libc::syscall(libc::SYS_setresgid, gid, gid, gid) as libc::c_int
}

unsafe fn raw_setresuid(uid: u32) -> libc::c_int {
    libc::syscall(libc::SYS_setresuid, uid, uid, uid) as libc::c_int
}

/// Closes every descriptor from 3 up except those in `keep`.
unsafe fn close_all_but(keep: &[RawFd]) {
    let mut from = 3u32;
    let mut sorted = [RawFd::MAX; 2];
    for (slot, &fd) in sorted.iter_mut().zip(keep) {
        *slot = fd;
    }
    sorted.sort_unstable();
    for fd in sorted {
        if fd == RawFd::MAX {
            break;
        }
        let fd = fd as u32;
        if fd > from {
            libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32);
        }
        from = from.max(fd + 1);
    }
    libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32);
}

/// The program's process, forked by init while the box is prepared:
/// signals, session, user, capabilities, `no_new_privs` and seccomp now;
/// then, once init has built the run's file system and handed over the
/// stdio (on `init_end`): stdio, working directory, rlimits, exec.
unsafe fn program(prep: &Prep, init_end: RawFd) -> ! {
    let report = prep.report;
    close_all_but(&[init_end, report]);
    // The judge ignores SIGPIPE (Rust does); the program must not inherit that.
    libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut set);
    libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    libc::setsid();
    let (uid, gid) = match prep.users {
        Users::Namespace => (BOX_ID, BOX_ID),
        Users::Setuid => (prep.host_uid, prep.host_gid),
    };
    if prep.drop_groups {
        // The judge's supplementary groups (root's) stay outside.
        check(raw_setgroups(), report, S_GROUPS);
    }
    check(raw_setresgid(gid), report, S_SETUID);
    check(raw_setresuid(uid), report, S_SETUID);
    // No capabilities left, in any set.
    #[repr(C)]
    struct CapHeader {
        version: u32,
        pid: i32,
    }
    #[repr(C)]
    struct CapData {
        effective: u32,
        permitted: u32,
        inheritable: u32,
    }
    let header = CapHeader {
        version: 0x2008_0522,
        pid: 0,
    };
    let data = [
        CapData {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
        CapData {
            effective: 0,
            permitted: 0,
            inheritable: 0,
        },
    ];
    check(
        libc::syscall(libc::SYS_capset, &header as *const CapHeader, data.as_ptr()) as libc::c_int,
        report,
        S_CAPS,
    );
    check(
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
        report,
        S_NNP,
    );
    if let Err(errno) = prep.seccomp.install() {
        *libc::__errno_location() = errno;
        fail(report, S_SECCOMP);
    }
    let armed = b'a';
    libc::write(init_end, (&armed as *const u8).cast(), 1);

    let Some(stdio) = receive_run(init_end) else {
        // The box was dropped unused, or init failed (and said why).
        libc::_exit(126)
    };
    let job = &*prep.job;
    // Move the stdio descriptors out of the way of 0..2 first, so that one
    // dup2 cannot clobber another's source.
    let mut high = [0; 3];
    for (i, fd) in stdio.iter().enumerate() {
        high[i] = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, 10);
        if high[i] < 0 {
            fail(report, S_STDIO);
        }
    }
    for (i, fd) in high.iter().enumerate() {
        if libc::dup2(*fd, i as RawFd) < 0 {
            fail(report, S_STDIO);
        }
    }
    // Everything else closes at exec (the report pipe stays open until then).
    const CLOSE_RANGE_CLOEXEC: u32 = 1 << 2;
    libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, CLOSE_RANGE_CLOEXEC);
    check(libc::chdir(job.cwd), report, S_CHDIR);
    for r in slice(job.rlimits, job.n_rlimits) {
        let lim = libc::rlimit {
            rlim_cur: r.soft,
            rlim_max: r.hard,
        };
        check(libc::setrlimit(r.resource, &lim), report, S_RLIMIT);
    }
    libc::execve(job.program, job.argv, job.envp);
    fail(report, S_EXEC)
}

/// Sends one byte with three descriptors (`SCM_RIGHTS`); what `sendmsg`
/// returned. Allocates nothing: used by init too.
unsafe fn send_stdio(socket: RawFd, stdio: &[RawFd; 3]) -> isize {
    let mut byte = *b"r";
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // Aligned room for a control message of three descriptors (32 bytes).
    let mut space = [0u64; 8];
    let data_len = std::mem::size_of_val(stdio) as u32;
    let mut msg: libc::msghdr = std::mem::zeroed();
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = space.as_mut_ptr().cast();
    msg.msg_controllen = libc::CMSG_SPACE(data_len) as usize;
    let cmsg = libc::CMSG_FIRSTHDR(&msg);
    (*cmsg).cmsg_level = libc::SOL_SOCKET;
    (*cmsg).cmsg_type = libc::SCM_RIGHTS;
    (*cmsg).cmsg_len = libc::CMSG_LEN(data_len) as usize;
    std::ptr::copy_nonoverlapping(stdio.as_ptr(), libc::CMSG_DATA(cmsg).cast(), 3);
    libc::sendmsg(socket, &msg, libc::MSG_NOSIGNAL)
}
