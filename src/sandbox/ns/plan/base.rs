//! The file system every box shares, planned once: the system paths
//! read-only, `/tmp`, `/proc`, a few devices and `/etc/passwd`, as the
//! [`Op`]s each box's init replays under the staging directory.

use std::ffi::CString;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::{add_host, ancestors, cstr, locked_flags, sort_entries, under, Entry, SOURCE_FD};
use crate::sandbox::ns::BOX_ID;
use crate::sandbox::Error;

/// The file system every box shares: built by each box's init before it
/// is handed a run.
#[derive(Debug)]
pub(in crate::sandbox::ns) struct Base {
    /// The staging directory the box root is mounted on, inside each
    /// box's own mount namespace only: the host always sees it empty, so
    /// every sandbox shares one (`<tmp>/grundy-box`).
    pub(in crate::sandbox::ns) root: CString,
    /// Mount options of the root tmpfs.
    pub(in crate::sandbox::ns) tmpfs: CString,
    pub(in crate::sandbox::ns) ops: Vec<Op>,
    /// Bind sources among `ops`, moved to `SOURCE_FD..SOURCE_FD + n`.
    pub(in crate::sandbox::ns) sources: usize,
    /// Paths inside the box that `ops` provide.
    pub(in crate::sandbox::ns) paths: Vec<PathBuf>,
    /// Mount options of a run's working directory when the judge gives it
    /// none ([`super::WORK`]): a tmpfs as small as `/tmp`.
    pub(in crate::sandbox::ns) work: CString,
    /// Mount options of `/tmp`. A kept box mounts `/tmp` and [`super::WORK`]
    /// afresh between runs, where a run touched them.
    pub(in crate::sandbox::ns) tmp: CString,
}

/// One step of building the box's file system, with absolute paths under
/// the staging directory.
#[derive(Debug)]
pub(in crate::sandbox::ns) enum Op {
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
    pub(in crate::sandbox::ns) fn plan(
        system: &[PathBuf],
        tmp_size_mib: u64,
    ) -> Result<Base, Error> {
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
