//! The mount plan: which host paths a box sees, where, and how. The base
//! every box shares is planned once ([`Base::plan`]), as [`Op`]s init's
//! helper replays; a run's own binds are planned per run
//! ([`Inner::run_entries`]) and written into its job (`job.rs`).

use std::ffi::CString;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use super::{Inner, BOX_ID};
use crate::sandbox::{Error, RunSpec};

/// Descriptor numbers init moves bind sources to (`/proc/self/fd/N`).
pub(super) const SOURCE_FD: RawFd = 100;

/// The file system every box shares: built by each box's init before it
/// is handed a run.
#[derive(Debug)]
pub(super) struct Base {
    /// The staging directory the box root is mounted on, inside each
    /// box's own mount namespace only: the host always sees it empty, so
    /// every sandbox shares one (`<tmp>/grundy-box`).
    pub(super) root: CString,
    /// Mount options of the root tmpfs.
    pub(super) tmpfs: CString,
    pub(super) ops: Vec<Op>,
    /// Bind sources among `ops`, moved to `SOURCE_FD..SOURCE_FD + n`.
    pub(super) sources: usize,
    /// Paths inside the box that `ops` provide.
    pub(super) paths: Vec<PathBuf>,
    /// Mount options of a run's working directory when the judge gives it
    /// none ([`WORK`]): a tmpfs as small as `/tmp`.
    pub(super) work: CString,
    /// Mount options of `/tmp`. A kept box mounts `/tmp` and [`WORK`]
    /// afresh between runs.
    pub(super) tmp: CString,
}

/// Where a run works when its working directory is not one of its
/// writable binds: a tmpfs of the box, gone with it. Nothing a program
/// writes reaches the host's disk, however many files, and a neutral path
/// says nothing of the judge's directories.
pub(super) const WORK: &str = "/box/work";
/// [`WORK`] for the child side.
pub(super) const WORK_C: &std::ffi::CStr = c"/box/work";

/// The largest directory [`crate::sandbox::Bind::at`] copies into a box
/// (entries, bytes); a larger one is bound instead.
const COPY_MAX: (usize, u64) = (256, 64 << 20);

/// A run's own part of the file system.
pub(super) struct RunMounts {
    /// Binds, symlinks and tmpfs, parents first.
    pub(super) entries: Vec<(PathBuf, Entry)>,
    /// Directories copied into tmpfs of the box, after `entries`.
    pub(super) copies: Vec<Copied>,
    /// The working directory inside the box.
    pub(super) cwd: PathBuf,
    /// Host paths the box sees elsewhere, and where (longest first).
    pub(super) renames: Vec<(String, String)>,
}

impl RunMounts {
    /// What the copied directories take in the box, bytes: the box's,
    /// not the run's (see [`crate::sandbox::cgroup::RunGroup::hold`]).
    pub(super) fn copied_bytes(&self) -> u64 {
        self.copies.iter().map(|c| c.bytes).sum()
    }
}

/// A host directory copied into a read-only tmpfs of the box.
pub(super) struct Copied {
    pub(super) inside: PathBuf,
    /// Size of the tmpfs, KiB.
    pub(super) kib: u64,
    /// What its files take, bytes (whole pages).
    pub(super) bytes: u64,
    /// What it holds, parents first, at their paths inside the box.
    pub(super) items: Vec<(PathBuf, Item)>,
}

/// One entry of a [`Copied`] directory.
pub(super) enum Item {
    Dir,
    File { source: PathBuf, mode: u32 },
    Symlink(PathBuf),
}

/// Plans copying host directory `dir` to `inside`, or `None` when it is
/// too large (or unreadable here) to copy.
fn plan_copy(dir: &Path, inside: &Path) -> Option<Copied> {
    use std::os::unix::fs::PermissionsExt;
    let mut items = Vec::new();
    let mut bytes = 0u64;
    let mut pending = vec![(dir.to_path_buf(), inside.to_path_buf())];
    while let Some((host, at)) = pending.pop() {
        let mut names: Vec<_> = std::fs::read_dir(&host).ok()?.flatten().collect();
        names.sort_by_key(std::fs::DirEntry::file_name);
        for entry in names {
            let meta = std::fs::symlink_metadata(entry.path()).ok()?;
            let to = at.join(entry.file_name());
            let item = if meta.is_dir() {
                pending.push((entry.path(), to.clone()));
                Item::Dir
            } else if meta.file_type().is_symlink() {
                Item::Symlink(std::fs::read_link(entry.path()).ok()?)
            } else if meta.is_file() {
                bytes += meta.len().next_multiple_of(4096);
                Item::File {
                    source: entry.path(),
                    mode: meta.permissions().mode() & 0o755,
                }
            } else {
                continue;
            };
            items.push((to, item));
            if items.len() > COPY_MAX.0 || bytes > COPY_MAX.1 {
                return None;
            }
        }
    }
    // Parents first.
    items.sort_by(|a, b| a.0.components().cmp(b.0.components()));
    Some(Copied {
        inside: inside.to_path_buf(),
        kib: bytes / 1024 + 4 * items.len() as u64 + 1024,
        bytes,
        items,
    })
}

/// `text` with every host path of `renames` (at a path boundary) replaced
/// by where the box sees it.
pub(super) fn rename(text: &str, renames: &[(String, String)]) -> String {
    let mut out = text.to_string();
    for (host, inside) in renames {
        let mut from = 0;
        while let Some(at) = out[from..].find(host.as_str()).map(|i| i + from) {
            let end = at + host.len();
            let boundary = out[end..]
                .chars()
                .next()
                .is_none_or(|c| !(c.is_alphanumeric() || "-_.".contains(c)));
            if boundary {
                out.replace_range(at..end, inside);
                from = at + inside.len();
            } else {
                from = end;
            }
        }
    }
    out
}

/// One step of building the box's file system, with absolute paths under
/// the staging directory.
#[derive(Debug)]
pub(super) enum Op {
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

/// A mount of the box, before it becomes an [`Op`] (or a job's op).
pub(super) enum Entry {
    Bind { source: PathBuf, writable: bool },
    Symlink(PathBuf),
    Tmpfs(String),
    Proc,
    Dev(&'static str),
    File(&'static str),
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

pub(super) fn cstr(bytes: &[u8]) -> Result<CString, Error> {
    CString::new(bytes).map_err(|_| nul_byte())
}

pub(super) fn nul_byte() -> Error {
    Error::Unavailable("a path or argument contains a NUL byte".into())
}

/// `inside` (a path in the box) under the staging `root`.
pub(super) fn under(root: &Path, inside: &Path) -> Result<CString, Error> {
    let mut p = root.as_os_str().as_bytes().to_vec();
    p.extend_from_slice(inside.as_os_str().as_bytes());
    cstr(&p)
}

/// Flags of the mount holding `path` that an unprivileged remount must keep.
pub(super) fn locked_flags(path: &Path) -> libc::c_ulong {
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
pub(super) fn ancestors(inside: &Path) -> Vec<PathBuf> {
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

/// What every box sees: the system paths read-only, a size-bounded
/// `/tmp`, `/proc`, a few devices and `/etc/passwd`, parents first.
fn base_entries(system: &[PathBuf], tmp: &str) -> Vec<(PathBuf, Entry)> {
    let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
    for path in system {
        add_host(path, false, &mut entries);
    }
    entries.push((PathBuf::from("/tmp"), Entry::Tmpfs(tmp.to_string())));
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
    entries
}

/// Turns entries into [`Op`]s under the staging root: each entry's missing
/// parents made once, each bind source given its reserved descriptor.
struct OpWriter<'a> {
    root: &'a Path,
    ops: Vec<Op>,
    made: Vec<PathBuf>,
    sources: usize,
}

impl OpWriter<'_> {
    /// Directories `inside` and its ancestors, those not made yet.
    fn mkdirs(&mut self, inside: &Path) -> Result<(), Error> {
        for at in ancestors(inside) {
            if !self.made.contains(&at) {
                self.ops.push(Op::Mkdir(under(self.root, &at)?));
                self.made.push(at);
            }
        }
        Ok(())
    }

    fn bind(
        &mut self,
        source: &Path,
        inside: &Path,
        file: bool,
        writable: bool,
    ) -> Result<(), Error> {
        let fd = SOURCE_FD + self.sources as RawFd;
        self.sources += 1;
        self.ops.push(Op::Bind {
            locked: locked_flags(source),
            fd,
            fd_path: cstr(format!("/proc/self/fd/{fd}").as_bytes())?,
            source: cstr(source.as_os_str().as_bytes())?,
            target: under(self.root, inside)?,
            file,
            writable,
        });
        Ok(())
    }

    fn entry(&mut self, inside: &Path, entry: Entry) -> Result<(), Error> {
        let parent = inside.parent().unwrap_or(Path::new("/"));
        match entry {
            Entry::Bind { source, writable } => {
                let file = !source.is_dir();
                self.mkdirs(if file { parent } else { inside })?;
                self.bind(&source, inside, file, writable)?;
            }
            Entry::Dev(name) => {
                self.mkdirs(parent)?;
                self.bind(&Path::new("/dev").join(name), inside, true, true)?;
            }
            Entry::Symlink(to) => {
                self.mkdirs(parent)?;
                self.ops.push(Op::Symlink {
                    to: cstr(to.as_os_str().as_bytes())?,
                    at: under(self.root, inside)?,
                });
            }
            Entry::Tmpfs(options) => {
                self.mkdirs(inside)?;
                self.ops.push(Op::Tmpfs {
                    target: under(self.root, inside)?,
                    options: cstr(options.as_bytes())?,
                });
            }
            Entry::Proc => {
                self.mkdirs(inside)?;
                self.ops.push(Op::Proc(under(self.root, inside)?));
            }
            Entry::File(which) => {
                self.mkdirs(parent)?;
                let contents = match which {
                    "passwd" => format!("box:x:{BOX_ID}:{BOX_ID}:box:/tmp:/bin/sh\n"),
                    _ => format!("box:x:{BOX_ID}:\n"),
                };
                self.ops.push(Op::File {
                    path: under(self.root, inside)?,
                    contents: cstr(contents.as_bytes())?,
                });
            }
        }
        Ok(())
    }
}

impl Base {
    /// Plans the shared part of every box (see [`base_entries`]).
    pub(super) fn plan(system: &[PathBuf], tmp_size_mib: u64) -> Result<Base, Error> {
        let staging = staging_dir()?;
        let mut writer = OpWriter {
            root: &staging,
            ops: Vec::new(),
            made: Vec::new(),
            sources: 0,
        };
        let mut paths = Vec::new();
        let tmp = format!("size={tmp_size_mib}m,mode=1777");
        for (inside, entry) in base_entries(system, &tmp) {
            writer.entry(&inside, entry)?;
            paths.push(inside);
        }
        Ok(Base {
            root: cstr(staging.as_os_str().as_bytes())?,
            tmpfs: cstr(b"size=4m,mode=0755")?,
            ops: writer.ops,
            sources: writer.sources,
            paths,
            work: cstr(format!("size={tmp_size_mib}m,mode=0777").as_bytes())?,
            tmp: cstr(tmp.as_bytes())?,
        })
    }
}

impl Inner {
    /// The run's own mounts: its binds and working directory, beyond the
    /// base, and the working directory inside the box. Writable
    /// directories are given to the box user. A working directory that is
    /// no writable bind's is a tmpfs of the box at [`WORK`]: the host
    /// directory is not used.
    pub(super) fn run_entries(&self, spec: &RunSpec) -> Result<RunMounts, Error> {
        let mut entries: Vec<(PathBuf, Entry)> = Vec::new();
        let mut copies = Vec::new();
        let mut renames = Vec::new();
        for bind in &spec.binds {
            if !bind.path.exists() {
                return Err(Error::Io {
                    path: bind.path.clone(),
                    source: std::io::Error::from(std::io::ErrorKind::NotFound),
                });
            }
            match &bind.inside {
                Some(inside) if !bind.writable && bind.path.is_dir() => {
                    let canonical =
                        std::fs::canonicalize(&bind.path).map_err(|source| Error::Io {
                            path: bind.path.clone(),
                            source,
                        })?;
                    for host in [&bind.path, &canonical] {
                        let host = host.to_string_lossy().trim_end_matches('/').to_string();
                        renames.push((host, inside.to_string_lossy().into_owned()));
                    }
                    match plan_copy(&canonical, inside) {
                        Some(copy) => copies.push(copy),
                        None => entries.push((
                            inside.clone(),
                            Entry::Bind {
                                source: canonical,
                                writable: false,
                            },
                        )),
                    }
                }
                _ => add_host(&bind.path, bind.writable, &mut entries),
            }
        }
        renames.sort_by_key(|(host, _)| std::cmp::Reverse(host.len()));
        renames.dedup();
        let cwd = std::fs::canonicalize(&spec.cwd).map_err(|source| Error::Io {
            path: spec.cwd.clone(),
            source,
        })?;
        let covered = entries
            .iter()
            .any(|(at, e)| matches!(e, Entry::Bind { writable: true, .. }) && cwd.starts_with(at));
        let inside = if covered {
            cwd
        } else {
            entries.push((
                PathBuf::from(WORK),
                Entry::Tmpfs(self.base.work.to_string_lossy().into_owned()),
            ));
            PathBuf::from(WORK)
        };
        entries.retain(|(at, _)| !self.base.paths.contains(at));
        sort_entries(&mut entries);
        if self.privileged {
            self.give_writable_to_box_user(&entries)?;
        }
        Ok(RunMounts {
            entries,
            copies,
            cwd: inside,
            renames,
        })
    }

    /// What a box kept after a run must match for another run to use it:
    /// the run's mounts, each source named with the identity of what is
    /// there now (device, inode, size, change time), so a host path that
    /// was replaced or changed since is a new key. `None` when the run
    /// may not share its box: it writes to the host (a writable bind, which
    /// cleaning the box cannot empty) or mounts something inside `/tmp`
    /// (which cleaning mounts afresh). (A box whose cgroup cannot restart
    /// its peak is not kept either: see `NamespaceSandbox::run`.)
    pub(super) fn reuse_key(&self, run: &RunMounts) -> Option<String> {
        use std::fmt::Write;
        use std::os::unix::fs::MetadataExt;
        let in_tmp = |at: &Path| at.starts_with("/tmp");
        if run.entries.iter().any(|(at, _)| in_tmp(at))
            || run.copies.iter().any(|c| in_tmp(&c.inside))
        {
            return None;
        }
        let identity = |path: &Path| {
            std::fs::metadata(path).ok().map(|m| {
                format!(
                    "{}:{}:{}:{}.{}:{:o}",
                    m.dev(),
                    m.ino(),
                    m.size(),
                    m.ctime(),
                    m.ctime_nsec(),
                    m.mode()
                )
            })
        };
        let mut key = format!("cwd {}\n", run.cwd.display());
        for (at, entry) in &run.entries {
            let _ = match entry {
                Entry::Bind { writable: true, .. } => return None,
                Entry::Bind { source, .. } => writeln!(
                    key,
                    "bind {} {} {}",
                    at.display(),
                    source.display(),
                    identity(source)?
                ),
                Entry::Symlink(to) => writeln!(key, "link {} {}", at.display(), to.display()),
                Entry::Tmpfs(options) => writeln!(key, "tmpfs {} {options}", at.display()),
                Entry::Proc | Entry::Dev(_) | Entry::File(_) => return None,
            };
        }
        for copy in &run.copies {
            let _ = writeln!(key, "copy {} {}", copy.inside.display(), copy.kib);
            for (at, item) in &copy.items {
                let _ = match item {
                    Item::Dir => writeln!(key, " dir {}", at.display()),
                    Item::Symlink(to) => writeln!(key, " link {} {}", at.display(), to.display()),
                    Item::File { source, mode } => writeln!(
                        key,
                        " file {} {} {mode:o} {}",
                        at.display(),
                        source.display(),
                        identity(source)?
                    ),
                };
            }
        }
        Some(key)
    }

    /// The box user must own its writable directories (when the judge is
    /// root, the box user is another host user).
    fn give_writable_to_box_user(&self, entries: &[(PathBuf, Entry)]) -> Result<(), Error> {
        for (_, entry) in entries {
            if let Entry::Bind {
                source,
                writable: true,
            } = entry
            {
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
        Ok(())
    }
}
