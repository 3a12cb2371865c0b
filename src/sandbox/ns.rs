//! The `namespaces` tier: each run gets fresh user, PID, mount, network,
//! IPC, UTS and cgroup namespaces, a private root, an unprivileged uid, a
//! seccomp filter and (where the machine has them) a cgroup. See the
//! theory of operation in the parent module.
//!
//! The code between `clone` and `execve` runs in a child of a possibly
//! multi-threaded judge, so it must not allocate, lock or unwind: the
//! parent prepares everything (C strings, the mount plan, the filter) in
//! a [`Plan`], and the child only makes system calls.

use std::ffi::CString;
use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, Instant};

use super::cgroup::{Cgroups, RunGroup};
use super::seccomp::Filter;
use super::{rlimit, Error, Limits, Measurement, Outcome, RunSpec, Runner, Termination};

/// The uid and gid a program has inside its box.
const BOX_ID: u32 = 1000;
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
#[derive(Debug)]
pub struct NamespaceSandbox {
    users: Users,
    /// The host uid and gid the box runs as.
    host_uid: u32,
    host_gid: u32,
    /// The judge runs as root (maps another uid, drops supplementary groups).
    privileged: bool,
    /// Read-only host paths every box sees.
    system: Vec<PathBuf>,
    tmp_size_mib: u64,
    cgroups: Option<Cgroups>,
    seccomp: Filter,
    /// An empty directory the box root is mounted on, inside each box's
    /// own mount namespace only: the host always sees it empty, so every
    /// sandbox shares one (`<tmp>/grundy-box`) and nothing is left behind.
    staging: PathBuf,
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

/// One step of building the box's file system, with absolute paths under
/// the staging directory.
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

/// Everything the child needs, prepared by the parent.
struct Plan<'a> {
    /// `O_PATH` descriptors the judge opened on every bind source, which
    /// reserve their numbers: a mount in another mount namespace cannot be
    /// bound, so the child reopens each source in its own namespace (while
    /// it may still walk the host's directories), moves it onto the
    /// reserved number, and later binds `/proc/self/fd/N`.
    _sources: Vec<OwnedFd>,
    root: CString,
    tmpfs: CString,
    ops: Vec<Op>,
    cwd: CString,
    program: CString,
    _args: Vec<CString>,
    argv: Vec<*const libc::c_char>,
    _env: Vec<CString>,
    envp: Vec<*const libc::c_char>,
    stdio: [RawFd; 3],
    rlimits: Vec<(libc::__rlimit_resource_t, u64, u64)>,
    users: Users,
    host_uid: u32,
    host_gid: u32,
    drop_groups: bool,
    seccomp: &'a Filter,
    go: RawFd,
    report: RawFd,
    /// The stack the program's side runs on until it execs.
    program_stack: Vec<u8>,
}

fn cstr(bytes: &[u8]) -> Result<CString, Error> {
    CString::new(bytes)
        .map_err(|_| Error::Unavailable("a path or argument contains a NUL byte".into()))
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
        let staging = staging_dir()?;
        // SAFETY: plain syscalls.
        let (euid, egid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let privileged = euid == 0;
        let (host_uid, host_gid) = if privileged {
            (host_uid, host_uid)
        } else {
            (euid, egid)
        };
        Ok(NamespaceSandbox {
            users,
            host_uid,
            host_gid,
            privileged,
            system: system.to_vec(),
            tmp_size_mib,
            cgroups,
            seccomp,
            staging,
        })
    }

    pub fn users(&self) -> Users {
        self.users
    }

    pub fn measurement(&self) -> Measurement {
        self.cgroups
            .as_ref()
            .map_or(Measurement::Rusage, Cgroups::kind)
    }

    pub fn cgroups(&self) -> Option<&Cgroups> {
        self.cgroups.as_ref()
    }

    /// The box's file system, sorted so that parents come first.
    fn entries(&self, spec: &RunSpec) -> Result<Vec<(PathBuf, Entry)>, Error> {
        let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
        let add_host = |path: &Path, writable: bool, entries: &mut Vec<(PathBuf, Entry)>| {
            let Ok(meta) = std::fs::symlink_metadata(path) else {
                return; // Missing optional system paths are skipped.
            };
            if meta.file_type().is_symlink() {
                // Like /bin -> usr/bin on merged-/usr systems: the same link.
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
        };
        for path in &self.system {
            add_host(path, false, &mut entries);
        }
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
        entries.push((
            PathBuf::from("/tmp"),
            Entry::Tmpfs(format!("size={}m,mode=1777", self.tmp_size_mib)),
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
        // Parents before children; a later duplicate of a path wins nothing.
        entries.sort_by(|a, b| a.0.components().cmp(b.0.components()));
        entries.dedup_by(|later, earlier| later.0 == earlier.0);
        Ok(entries)
    }

    fn plan<'a>(
        &'a self,
        spec: &RunSpec,
        stdio: [RawFd; 3],
        go: RawFd,
        report: RawFd,
    ) -> Result<Plan<'a>, Error> {
        let root = self.staging.as_path();
        let mut ops = Vec::new();
        let mut sources: Vec<OwnedFd> = Vec::new();
        let mut open_path = |path: &Path| -> Result<(RawFd, CString), Error> {
            let c = cstr(path.as_os_str().as_bytes())?;
            // SAFETY: valid C string.
            let fd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
            if fd < 0 {
                return Err(Error::Io {
                    path: path.to_path_buf(),
                    source: std::io::Error::last_os_error(),
                });
            }
            // SAFETY: a fresh descriptor we own.
            sources.push(unsafe { OwnedFd::from_raw_fd(fd) });
            Ok((fd, cstr(format!("/proc/self/fd/{fd}").as_bytes())?))
        };
        let mut made: Vec<PathBuf> = Vec::new();
        let mkdirs =
            |inside: &Path, ops: &mut Vec<Op>, made: &mut Vec<PathBuf>| -> Result<(), Error> {
                let mut at = PathBuf::from("/");
                for c in inside.components() {
                    if let Component::Normal(name) = c {
                        at.push(name);
                        if !made.contains(&at) {
                            made.push(at.clone());
                            ops.push(Op::Mkdir(under(root, &at)?));
                        }
                    }
                }
                Ok(())
            };
        for (inside, entry) in self.entries(spec)? {
            let parent = inside.parent().unwrap_or(Path::new("/"));
            match entry {
                Entry::Bind { source, writable } => {
                    let file = !source.is_dir();
                    if file {
                        mkdirs(parent, &mut ops, &mut made)?;
                    } else {
                        mkdirs(&inside, &mut ops, &mut made)?;
                    }
                    if writable && self.privileged {
                        // The box user must own its writable directories.
                        let c = cstr(source.as_os_str().as_bytes())?;
                        // SAFETY: valid C string.
                        if unsafe { libc::chown(c.as_ptr(), self.host_uid, self.host_gid) } != 0 {
                            return Err(Error::Io {
                                path: source,
                                source: std::io::Error::last_os_error(),
                            });
                        }
                    }
                    let (fd, fd_path) = open_path(&source)?;
                    ops.push(Op::Bind {
                        locked: locked_flags(&source),
                        fd,
                        fd_path,
                        source: cstr(source.as_os_str().as_bytes())?,
                        target: under(root, &inside)?,
                        file,
                        writable,
                    });
                }
                Entry::Dev(name) => {
                    mkdirs(parent, &mut ops, &mut made)?;
                    let source = Path::new("/dev").join(name);
                    let (fd, fd_path) = open_path(&source)?;
                    ops.push(Op::Bind {
                        locked: 0,
                        fd,
                        fd_path,
                        source: cstr(source.as_os_str().as_bytes())?,
                        target: under(root, &inside)?,
                        file: true,
                        writable: true,
                    });
                }
                Entry::Symlink(to) => {
                    mkdirs(parent, &mut ops, &mut made)?;
                    ops.push(Op::Symlink {
                        to: cstr(to.as_os_str().as_bytes())?,
                        at: under(root, &inside)?,
                    });
                }
                Entry::Tmpfs(options) => {
                    mkdirs(&inside, &mut ops, &mut made)?;
                    ops.push(Op::Tmpfs {
                        target: under(root, &inside)?,
                        options: cstr(options.as_bytes())?,
                    });
                }
                Entry::Proc => {
                    mkdirs(&inside, &mut ops, &mut made)?;
                    ops.push(Op::Proc(under(root, &inside)?));
                }
                Entry::File(which) => {
                    mkdirs(parent, &mut ops, &mut made)?;
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
        }

        let cwd = std::fs::canonicalize(&spec.cwd).map_err(|source| Error::Io {
            path: spec.cwd.clone(),
            source,
        })?;
        let program = cstr(spec.program.as_os_str().as_bytes())?;
        let mut args = vec![program.clone()];
        for a in &spec.args {
            args.push(cstr(a.as_bytes())?);
        }
        let mut argv: Vec<*const libc::c_char> = args.iter().map(|a| a.as_ptr()).collect();
        argv.push(std::ptr::null());
        let env: Vec<CString> = spec
            .env
            .iter()
            .map(|(k, v)| cstr(format!("{k}={v}").as_bytes()))
            .collect::<Result<_, _>>()?;
        let mut envp: Vec<*const libc::c_char> = env.iter().map(|e| e.as_ptr()).collect();
        envp.push(std::ptr::null());

        let l = &spec.limits;
        let cpu_s = l.cpu.as_secs() + 1;
        let mut rlimits = vec![
            (libc::RLIMIT_CPU, cpu_s, cpu_s + 1),
            (libc::RLIMIT_FSIZE, l.output, l.output),
            (libc::RLIMIT_STACK, l.memory, l.memory),
            (libc::RLIMIT_NOFILE, l.open_files, l.open_files),
            (libc::RLIMIT_CORE, 0, 0),
        ];
        if self.cgroups.is_none() {
            // Without a pids controller: per-user process count, which in
            // a fresh user namespace counts this box alone.
            rlimits.push((libc::RLIMIT_NPROC, l.processes, l.processes));
        }
        Ok(Plan {
            _sources: sources,
            root: cstr(root.as_os_str().as_bytes())?,
            tmpfs: cstr(b"size=4m,mode=0755")?,
            ops,
            cwd: cstr(cwd.as_os_str().as_bytes())?,
            program,
            _args: args,
            argv,
            _env: env,
            envp,
            stdio,
            rlimits,
            users: self.users,
            host_uid: self.host_uid,
            host_gid: self.host_gid,
            drop_groups: self.privileged,
            seccomp: &self.seccomp,
            go,
            report,
            program_stack: vec![0; 256 << 10],
        })
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

/// What the box's init reported.
#[derive(Debug, Default)]
struct Report {
    status: Option<libc::c_int>,
    failure: Option<(u32, i32)>,
}

fn read_report(fd: &OwnedFd) -> Report {
    // The writers (init and the program before exec) are gone once init
    // has been reaped; read without blocking in case another thread's box
    // inherited a copy of the write end.
    // SAFETY: plain fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    let mut buf = Vec::new();
    let mut chunk = [0u8; 256];
    loop {
        // SAFETY: valid buffer.
        let n = unsafe { libc::read(fd.as_raw_fd(), chunk.as_mut_ptr().cast(), chunk.len()) };
        if n <= 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n as usize]);
    }
    let mut report = Report::default();
    let mut rest = &buf[..];
    while let Some((&tag, tail)) = rest.split_first() {
        match tag {
            b'S' if tail.len() >= 4 => {
                report.status = Some(i32::from_ne_bytes([tail[0], tail[1], tail[2], tail[3]]));
                rest = &tail[4..];
            }
            b'E' if tail.len() >= 8 => {
                let step = u32::from_ne_bytes([tail[0], tail[1], tail[2], tail[3]]);
                let errno = i32::from_ne_bytes([tail[4], tail[5], tail[6], tail[7]]);
                report.failure.get_or_insert((step, errno));
                rest = &tail[8..];
            }
            _ => break,
        }
    }
    report
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
        let setup = |step: &'static str| {
            let program = program.clone();
            move |source| Error::Setup {
                program,
                step,
                source,
            }
        };
        let (go_read, go_write) = pipe().map_err(setup("creating a pipe"))?;
        let (report_read, report_write) = pipe().map_err(setup("creating a pipe"))?;
        let plan = self.plan(
            spec,
            [stdin.as_raw_fd(), stdout.as_raw_fd(), stderr.as_raw_fd()],
            go_read.as_raw_fd(),
            report_write.as_raw_fd(),
        )?;
        let group = match &self.cgroups {
            Some(cg) => Some(cg.create(spec.limits.memory, spec.limits.processes)?),
            None => None,
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
        let start = Instant::now();
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
            unsafe { init(&plan) }
        }
        if pid < 0 {
            return Err(Error::Spawn {
                program,
                source: std::io::Error::last_os_error(),
            });
        }
        let pid = pid as libc::pid_t;
        drop(report_write);
        drop(go_read);
        // From here on the child must be killed and reaped on every path.
        let guard = Reaper { pid, reaped: false };

        if self.users == Users::Namespace {
            self.map_ids(pid)
                .map_err(setup("writing the user namespace maps"))?;
        }
        if let Some(group) = &group {
            group.attach(pid)?;
        }
        // SAFETY: valid one-byte buffer.
        if unsafe { libc::write(go_write.as_raw_fd(), b"g".as_ptr().cast(), 1) } != 1 {
            return Err(setup("starting the box")(std::io::Error::last_os_error()));
        }
        drop(go_write);
        drop(plan);
        drop((stdin, stdout, stderr));

        let mut sampled = Sampled::default();
        let stopped = watch(pid, &spec.limits, start, group.as_ref(), &mut sampled);
        let mut guard = guard;
        let (_, usage) = guard.wait().map_err(|source| Error::Wait {
            program: program.clone(),
            source,
        })?;
        let wall = start.elapsed();
        let report = read_report(&report_read);
        if let Some((step, errno)) = report.failure {
            return Err(Error::Setup {
                program,
                step: STEPS.get(step as usize).copied().unwrap_or("setup"),
                source: std::io::Error::from_raw_os_error(errno),
            });
        }

        let (cpu_ms, memory_kib, oom_kills, hits, measured_by) = match &group {
            Some(g) => {
                let u = g.usage();
                g.kill_all();
                (
                    u.cpu_ns / 1_000_000,
                    // memory.peak needs Linux 5.19; before it, the largest
                    // process's peak (init reaped the program) is the floor.
                    (u.peak_bytes / 1024).max(usage.ru_maxrss as u64),
                    u.oom_kills,
                    u.limit_hits,
                    g.kind(),
                )
            }
            None => {
                let cpu = timeval_ms(usage.ru_utime) + timeval_ms(usage.ru_stime);
                let cpu = cpu.max(sampled.cpu_ms);
                let rss = (usage.ru_maxrss as u64).max(sampled.rss_kib);
                (cpu, rss, 0, 0, Measurement::Rusage)
            }
        };
        let termination = classify(
            report.status,
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
        let users = match self.users {
            Users::Namespace => "user namespace",
            Users::Setuid => "root setuid, no user namespace",
        };
        let cgroup = match &self.cgroups {
            Some(cg) => format!(" at {}", cg.location().display()),
            None => String::new(),
        };
        format!(
            "isolation: namespaces ({users}, uid {}), seccomp; measurement: {}{cgroup}",
            self.host_uid,
            self.measurement()
        )
    }
}

/// Kills and reaps the box's init unless it was reaped normally.
struct Reaper {
    pid: libc::pid_t,
    reaped: bool,
}

impl Reaper {
    fn wait(&mut self) -> std::io::Result<(libc::c_int, libc::rusage)> {
        let mut status = 0;
        // SAFETY: rusage is plain old data.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        loop {
            // SAFETY: valid pointers.
            let r = unsafe { libc::wait4(self.pid, &mut status, libc::__WALL, &mut usage) };
            if r == self.pid {
                self.reaped = true;
                return Ok((status, usage));
            }
            let err = std::io::Error::last_os_error();
            if err.kind() != std::io::ErrorKind::Interrupted {
                return Err(err);
            }
        }
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        if !self.reaped {
            // SAFETY: our own unreaped child: the pid cannot be reused yet.
            unsafe {
                libc::kill(self.pid, libc::SIGKILL);
            }
            let _ = self.wait();
        }
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

/// Waits for init to end, enforcing the wall-clock and CPU limits; kills
/// init (and with it the whole PID namespace) when one is exceeded.
fn watch(
    pid: libc::pid_t,
    limits: &Limits,
    start: Instant,
    group: Option<&RunGroup>,
    sampled: &mut Sampled,
) -> Option<Stopped> {
    // SAFETY: plain syscall; our unreaped child cannot be recycled.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) } as RawFd;
    // SAFETY: on success a fresh descriptor we own.
    let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd) });
    let cpu_limit_ns = limits.cpu.as_nanos() as u64;
    let ticks = rlimit::clock_ticks();
    let mut stop = None;
    loop {
        let remaining = limits.wall.saturating_sub(start.elapsed());
        let wait = remaining.min(POLL);
        let exited = match &pidfd {
            Some(fd) => {
                let mut p = libc::pollfd {
                    fd: fd.as_raw_fd(),
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: valid pollfd.
                let r = unsafe { libc::poll(&mut p, 1, wait.as_millis().max(1) as libc::c_int) };
                r > 0
            }
            None => {
                std::thread::sleep(wait.min(Duration::from_millis(1)));
                // SAFETY: siginfo_t is plain old data.
                let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
                // SAFETY: WNOWAIT leaves the child for the real wait.
                let r = unsafe {
                    libc::waitid(
                        libc::P_PID,
                        pid as libc::id_t,
                        &mut info,
                        libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                    )
                };
                // SAFETY: reading the pid field of a filled siginfo.
                r == 0 && unsafe { info.si_pid() } == pid
            }
        };
        if exited {
            return stop;
        }
        if start.elapsed() >= limits.wall {
            stop = Some(Stopped::Wall);
        } else if let Some(g) = group {
            if g.cpu_ns() > cpu_limit_ns {
                stop = Some(Stopped::Cpu);
            }
        } else if let Some(child) = first_child(pid) {
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
                libc::kill(pid, libc::SIGKILL);
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

fn timeval_ms(tv: libc::timeval) -> u64 {
    tv.tv_sec as u64 * 1000 + tv.tv_usec as u64 / 1000
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

/// The box's init (PID 1 of its namespace): builds the file system, forks
/// the program, reaps everything, reports the program's status.
///
/// # Safety
/// Only in the child of the fork-like clone in [`NamespaceSandbox::run`].
unsafe fn init(plan: &Plan) -> ! {
    let report = plan.report;
    // Die with the judge.
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
    let mut byte = 0u8;
    if libc::read(plan.go, (&mut byte as *mut u8).cast(), 1) != 1 {
        fail(report, S_GO);
    }
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
    for op in &plan.ops {
        if let Op::Bind { source, fd, .. } = op {
            let f = libc::open(source.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
            if f < 0 || libc::dup3(f, *fd, libc::O_CLOEXEC) < 0 {
                fail(report, S_OPEN);
            }
            libc::close(f);
        }
    }
    if plan.users == Users::Namespace {
        // Become the (mapped) box user now, keeping this namespace's
        // capabilities: an unmapped uid cannot create files on the box's
        // own tmpfs (EOVERFLOW). The program drops the capabilities.
        if plan.drop_groups {
            check(raw_setgroups(), report, S_GROUPS);
        }
        check(raw_setresgid(BOX_ID), report, S_SETUID);
        check(raw_setresuid(BOX_ID), report, S_SETUID);
    }
    // Nothing in the box may read init's memory or descriptors.
    libc::prctl(libc::PR_SET_DUMPABLE, 0 as libc::c_ulong);
    check(
        libc::mount(
            c"tmpfs".as_ptr(),
            plan.root.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            plan.tmpfs.as_ptr().cast(),
        ),
        report,
        S_ROOT,
    );
    for op in &plan.ops {
        match op {
            Op::Mkdir(path) => {
                if libc::mkdir(path.as_ptr(), 0o755) != 0
                    && *libc::__errno_location() != libc::EEXIST
                {
                    fail(report, S_MKDIR);
                }
            }
            Op::Bind {
                fd_path,
                target,
                file,
                writable,
                locked,
                ..
            } => {
                if *file {
                    let fd = libc::open(
                        target.as_ptr(),
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
                        fd_path.as_ptr(),
                        target.as_ptr(),
                        null,
                        libc::MS_BIND | libc::MS_REC,
                        std::ptr::null(),
                    ),
                    report,
                    S_BIND,
                );
                if !*writable {
                    make_read_only(target.as_ptr(), *locked, report);
                }
            }
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
    check(
        libc::mount(
            null,
            plan.root.as_ptr(),
            null,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            std::ptr::null(),
        ),
        report,
        S_ROOT_RO,
    );
    check(libc::chdir(plan.root.as_ptr()), report, S_PIVOT);
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
    check(libc::chdir(plan.cwd.as_ptr()), report, S_CHDIR);
    let host = b"box";
    check(
        libc::sethostname(host.as_ptr().cast(), host.len()),
        report,
        S_HOSTNAME,
    );

    // Like posix_spawn: the program shares init's memory on its own stack
    // until it execs (init waits), so nothing of the judge's address space
    // is copied. A plain fork here copied the page tables of the whole
    // judge and cost milliseconds.
    let stack = plan.program_stack.as_ptr() as usize + plan.program_stack.len();
    let child = libc::clone(
        program_entry,
        (stack & !15) as *mut libc::c_void,
        libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
        plan as *const Plan as *mut libc::c_void,
    );
    if child < 0 {
        fail(report, S_FORK);
    }
    // Init keeps only the report pipe: descriptors inherited from the
    // judge (other runs' pipes) must not outlive their owners' needs.
    close_all_but(report);
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
    if let Some(status) = program_status {
        let mut msg = [0u8; 5];
        msg[0] = b'S';
        msg[1..5].copy_from_slice(&status.to_ne_bytes());
        libc::write(report, msg.as_ptr().cast(), msg.len());
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

/// Closes every descriptor from 3 up except `keep`.
unsafe fn close_all_but(keep: RawFd) {
    if keep > 3 {
        libc::syscall(libc::SYS_close_range, 3u32, (keep - 1) as u32, 0u32);
    }
    libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0u32);
}

extern "C" fn program_entry(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `plan` is the init's plan, alive (init is suspended until
    // this child execs or exits).
    unsafe { exec_program(&*(plan as *const Plan)) }
}

/// The program's side: stdio, limits, user, capabilities, seccomp, exec.
unsafe fn exec_program(plan: &Plan) -> ! {
    let report = plan.report;
    // Move the stdio descriptors out of the way of 0..2 first, so that one
    // dup2 cannot clobber another's source.
    let mut high = [0; 3];
    for (i, fd) in plan.stdio.iter().enumerate() {
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
    // The judge ignores SIGPIPE (Rust does); the program must not inherit that.
    libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    let mut set: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut set);
    libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    libc::setsid();

    for &(resource, soft, hard) in &plan.rlimits {
        let lim = libc::rlimit {
            rlim_cur: soft,
            rlim_max: hard,
        };
        check(libc::setrlimit(resource, &lim), report, S_RLIMIT);
    }
    let (uid, gid) = match plan.users {
        Users::Namespace => (BOX_ID, BOX_ID),
        Users::Setuid => (plan.host_uid, plan.host_gid),
    };
    if plan.drop_groups && plan.users == Users::Setuid {
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
    if let Err(errno) = plan.seccomp.install() {
        *libc::__errno_location() = errno;
        fail(report, S_SECCOMP);
    }
    libc::execve(
        plan.program.as_ptr(),
        plan.argv.as_ptr(),
        plan.envp.as_ptr(),
    );
    fail(report, S_EXEC)
}
