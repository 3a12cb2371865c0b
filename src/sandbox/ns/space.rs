//! Taking a run's working space back ([`crate::sandbox::Bind::space`]):
//! the box's init hands the space's directory to the judge once every
//! process of the run is gone, and the judge copies what is there into
//! the host directory, which it emptied first. Nothing of the box runs any
//! more, so the tree cannot change under the copy; still, nothing in it is
//! followed: a link is copied as a link, a directory is entered only as
//! what `lstat` found, and only regular files are read. The copy is
//! bounded by the space itself (its size, its entries) and by
//! [`DEPTH`]; what it cannot read is left behind, with the box.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::Path;

use super::boxed::Boxed;
use crate::sandbox::{remove_tree, Error};

/// How many directories deep the copy goes; deeper ones stay behind.
pub(super) const DEPTH: usize = 32;

/// How long the judge waits for init to hand the space over.
const HANDOVER: std::time::Duration = std::time::Duration::from_secs(10);

/// Empties host directory `host`, then, where the run `ended` by itself,
/// fills it with what the run left in its working space.
///
/// # Errors
/// The host side's failures only (the judge's disk): what the box left is
/// never an error, at most left behind.
pub(super) fn take_back(b: &Boxed, host: &Path, ended: bool) -> Result<(), Error> {
    let io = |source| Error::Io {
        path: host.to_path_buf(),
        source,
    };
    remove_tree(host).map_err(io)?;
    std::fs::create_dir(host).map_err(io)?;
    if !ended {
        return Ok(());
    }
    let Some(dir) = super::wire::receive_space(b.control.as_raw_fd(), HANDOVER) else {
        return Ok(());
    };
    copy_tree(&dir, host)
}

/// Copies the tree of open directory `dir` into the empty `to`.
fn copy_tree(dir: &OwnedFd, to: &Path) -> Result<(), Error> {
    let from = Path::new("/proc/self/fd").join(dir.as_raw_fd().to_string());
    copy_level(&from, to, DEPTH).map_err(|(path, source)| Error::Io { path, source })
}

/// One directory of [`copy_tree`]: errors on the host side come back with
/// the host path.
fn copy_level(from: &Path, to: &Path, depth: usize) -> Result<(), (std::path::PathBuf, io::Error)> {
    let Ok(entries) = std::fs::read_dir(from) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let (src, dst) = (entry.path(), to.join(entry.file_name()));
        let Ok(meta) = std::fs::symlink_metadata(&src) else {
            continue;
        };
        let host = |e: io::Error| (dst.clone(), e);
        if meta.is_dir() {
            if depth == 0 {
                continue;
            }
            match std::fs::create_dir(&dst) {
                Err(e) if too_long(&e) => continue,
                done => done.map_err(host)?,
            }
            copy_level(&src, &dst, depth - 1)?;
        } else if meta.file_type().is_symlink() {
            let Ok(target) = std::fs::read_link(&src) else {
                continue;
            };
            match std::os::unix::fs::symlink(&target, &dst) {
                Err(e) if too_long(&e) => continue,
                done => done.map_err(host)?,
            }
        } else if meta.is_file() {
            let Ok(mut input) = std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                .open(&src)
            else {
                continue;
            };
            let mut output = match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&dst)
            {
                Err(e) if too_long(&e) => continue,
                opened => opened.map_err(host)?,
            };
            io::copy(&mut input, &mut output).map_err(host)?;
            let mode = meta.permissions().mode() & 0o755 | 0o600;
            output
                .set_permissions(std::fs::Permissions::from_mode(mode))
                .map_err(host)?;
        }
    }
    Ok(())
}

/// A name too long for the host's paths: left behind, like one too deep.
fn too_long(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::ENAMETOOLONG)
}
