//! The mount plan: which host paths a box sees, where, and how. The base
//! every box shares is planned once ([`Base::plan`], `base.rs`), as
//! [`Op`]s init's helper replays; a run's own binds are planned per run
//! ([`super::Inner::run_entries`], `run.rs`) and written into its job
//! (`job.rs`). This module holds what both plans are made of: the mounts
//! ([`Entry`]) and the paths under the staging root.

mod base;
mod run;

use std::ffi::CString;
use std::os::fd::RawFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

pub(super) use base::{Base, Op};
pub(super) use run::{rename, Item, RunMounts};

use crate::sandbox::Error;

/// Descriptor numbers init moves bind sources to (`/proc/self/fd/N`).
pub(super) const SOURCE_FD: RawFd = 100;

/// Where a run works when its working directory is not one of its
/// writable binds: a tmpfs of the box, gone with it. Nothing a program
/// writes reaches the host's disk, however many files, and a neutral path
/// says nothing of the judge's directories.
pub(super) const WORK: &str = "/box/work";
/// [`WORK`] for the child side.
pub(super) const WORK_C: &std::ffi::CStr = c"/box/work";

/// A mount of the box, before it becomes an [`Op`] (or a job's op).
pub(super) enum Entry {
    Bind { source: PathBuf, writable: bool },
    Symlink(PathBuf),
    Tmpfs(String),
    Proc,
    Dev(&'static str),
    File(&'static str),
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

/// `inside` (a path in the box) relative to the box's root: a run's
/// mounts are made from init's working directory, which is the root, or
/// the staging directory where init enters the root with the run (see
/// `child::init::enter_ahead`).
pub(super) fn in_root(inside: &Path) -> Result<CString, Error> {
    let bytes = inside.as_os_str().as_bytes();
    let start = bytes.iter().take_while(|&&b| b == b'/').count();
    match &bytes[start..] {
        [] => cstr(b"."),
        rest => cstr(rest),
    }
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
