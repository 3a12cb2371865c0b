//! A run's own part of the box's file system, planned per run: its binds,
//! the directories copied into the box, its working directory, the host
//! paths renamed to where the box sees them, and the key that says when a
//! kept box may serve the next run.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::{add_host, cstr, sort_entries, Entry, WORK};
use crate::sandbox::ns::Inner;
use crate::sandbox::{Error, RunSpec};

/// The largest directory [`crate::sandbox::Bind::at`] copies into a box
/// (entries, bytes); a larger one is bound instead.
const COPY_MAX: (usize, u64) = (256, 64 << 20);

/// The most entries a working space starts with (a source of many files);
/// its bytes are bounded by its size.
const SPACE_ENTRIES: usize = 4096;

/// A run's own part of the file system.
pub(in crate::sandbox::ns) struct RunMounts {
    /// Binds, symlinks and tmpfs, parents first.
    pub(in crate::sandbox::ns) entries: Vec<(PathBuf, Entry)>,
    /// Directories copied into tmpfs of the box, after `entries`.
    pub(in crate::sandbox::ns) copies: Vec<Copied>,
    /// The working directory inside the box.
    pub(in crate::sandbox::ns) cwd: PathBuf,
    /// Host paths the box sees elsewhere, and where (longest first).
    pub(in crate::sandbox::ns) renames: Vec<(String, String)>,
}

impl RunMounts {
    /// What the copied directories take in the box, bytes: the box's,
    /// not the run's (see [`crate::sandbox::cgroup::RunGroup::hold`]).
    pub(in crate::sandbox::ns) fn copied_bytes(&self) -> u64 {
        self.copies.iter().map(|c| c.bytes).sum()
    }
}

/// A host directory copied into a tmpfs of the box: read-only, or the
/// run's working space ([`crate::sandbox::Bind::space`]).
pub(in crate::sandbox::ns) struct Copied {
    pub(in crate::sandbox::ns) inside: PathBuf,
    /// A working space: the host directory what the run leaves there goes
    /// back to. `None`: read-only.
    pub(in crate::sandbox::ns) space: Option<PathBuf>,
    /// Size of the tmpfs, KiB.
    pub(in crate::sandbox::ns) kib: u64,
    /// What its files take, bytes (whole pages).
    pub(in crate::sandbox::ns) bytes: u64,
    /// What it holds, parents first, at their paths inside the box.
    pub(in crate::sandbox::ns) items: Vec<(PathBuf, Item)>,
}

/// One entry of a [`Copied`] directory.
pub(in crate::sandbox::ns) enum Item {
    Dir,
    File { source: PathBuf, mode: u32 },
    Symlink(PathBuf),
}

/// Plans copying host directory `dir` to `inside`, or `None` when it is
/// larger than `max` (entries, bytes), or unreadable here.
fn plan_copy(dir: &Path, inside: &Path, max: (usize, u64)) -> Option<Copied> {
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
            if items.len() > max.0 || bytes > max.1 {
                return None;
            }
        }
    }
    // Parents first.
    items.sort_by(|a, b| a.0.components().cmp(b.0.components()));
    Some(Copied {
        inside: inside.to_path_buf(),
        space: None,
        kib: bytes / 1024 + 4 * items.len() as u64 + 1024,
        bytes,
        items,
    })
}

/// `text` with every host path of `renames` (at a path boundary) replaced
/// by where the box sees it.
pub(in crate::sandbox::ns) fn rename(text: &str, renames: &[(String, String)]) -> String {
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

impl Inner {
    /// The run's own mounts: its binds and working directory, beyond the
    /// base, and the working directory inside the box. Writable
    /// directories are given to the box user. A working directory that is
    /// no writable bind's is a tmpfs of the box at [`WORK`]: the host
    /// directory is not used.
    pub(in crate::sandbox::ns) fn run_entries(&self, spec: &RunSpec) -> Result<RunMounts, Error> {
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
            if let Some(bytes) = bind.space {
                let host = std::fs::canonicalize(&bind.path).map_err(|source| Error::Io {
                    path: bind.path.clone(),
                    source,
                })?;
                if !copies.iter().all(|c: &Copied| c.space.is_none()) {
                    return Err(Error::Unavailable(
                        "a run has one working space at most".into(),
                    ));
                }
                let mut copy =
                    plan_copy(&host, &host, (SPACE_ENTRIES, bytes)).ok_or_else(|| {
                        Error::Unavailable(format!(
                            "{}: too large to copy into a working space",
                            host.display()
                        ))
                    })?;
                copy.kib = bytes.div_ceil(1024).max(copy.kib);
                copy.space = Some(host);
                copies.push(copy);
                continue;
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
                    match plan_copy(&canonical, inside, COPY_MAX) {
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
            .any(|(at, e)| matches!(e, Entry::Bind { writable: true, .. }) && cwd.starts_with(at))
            || copies
                .iter()
                .any(|c| c.space.is_some() && cwd.starts_with(&c.inside));
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
    /// (which cleaning mounts afresh), or works in a working space (its
    /// init hands it to the judge and ends). (A box whose cgroup cannot restart
    /// its peak is not kept either: see `NamespaceSandbox::run`.)
    pub(in crate::sandbox::ns) fn reuse_key(&self, run: &RunMounts) -> Option<String> {
        use std::fmt::Write;
        use std::os::unix::fs::MetadataExt;
        let in_tmp = |at: &Path| at.starts_with("/tmp");
        if run.entries.iter().any(|(at, _)| in_tmp(at))
            || run
                .copies
                .iter()
                .any(|c| in_tmp(&c.inside) || c.space.is_some())
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
