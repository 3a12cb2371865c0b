//! Host directories a box may write in ([`Workdir`]), and removing
//! whatever a box left in one ([`remove_tree`]), whatever its shape.
//!
//! A box writes as its own user, so what it leaves is the attacker's
//! shape: a tree deeper than `PATH_MAX` allows to name (thousands of
//! nested directories), directories without any permission (mode 000,
//! which a judge that is not root cannot list or empty), read-only ones.
//! A removal by path fails on the first; one that opens a descriptor per
//! level (as `std::fs::remove_dir_all` does) fails on a deep tree with
//! `EMFILE`; neither restores permissions. [`remove_tree`] walks with two
//! descriptors at most (the directory it is in and, going up, its parent),
//! by names relative to them, and gives each directory back to its owner
//! (`u+rwx`) before it opens or empties it. The judge owns every box's
//! files where it is not root (the box user is the judge's uid) and
//! overrides permissions where it is, so both can do this.
//!
//! By the time a directory is removed nothing runs in its box (nothing
//! survives a run), so nothing moves under the walk; the walk still never
//! follows a symbolic link (`O_NOFOLLOW`) and never leaves the tree.

use std::ffi::{CStr, CString, OsStr};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// A fresh directory for a box to write in, removed with everything in it
/// (by [`remove_tree`]) when dropped.
#[derive(Debug)]
pub struct Workdir {
    path: PathBuf,
}

impl Workdir {
    /// A new directory in `parent` whose name starts with `prefix`.
    ///
    /// # Errors
    /// The directory could not be made.
    pub fn new_in(parent: &Path, prefix: &str) -> std::io::Result<Workdir> {
        let dir = tempfile::Builder::new().prefix(prefix).tempdir_in(parent)?;
        Ok(Workdir { path: dir.keep() })
    }

    /// A new directory in the system's temporary directory.
    ///
    /// # Errors
    /// The directory could not be made.
    pub fn new(prefix: &str) -> std::io::Result<Workdir> {
        Workdir::new_in(&std::env::temp_dir(), prefix)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Empties the directory for its next use as though it were new (with
    /// [`remove_tree`]'s care), but for the regular files named in `keep`
    /// at its top, which stay, truncated to nothing: on a disk, making and
    /// removing directories and files costs far more than emptying them
    /// (each of a submission's tests reuses the same two directories).
    ///
    /// # Errors
    /// The first removal that failed, with what it was removing.
    pub fn clear(&self, keep: &[&str]) -> std::io::Result<()> {
        let top = cstring(self.path.as_os_str())?;
        let dir = open_dir(libc::AT_FDCWD, &top)?;
        let fd = dir.as_raw_fd();
        own(fd)?;
        for (name, is_dir) in entries(fd)? {
            if is_dir {
                remove_tree(&self.path.join(OsStr::from_bytes(name.to_bytes())))?;
                continue;
            }
            if keep.iter().any(|k| k.as_bytes() == name.to_bytes()) && truncate(fd, &name)? {
                continue;
            }
            // SAFETY: a valid descriptor and C string.
            if unsafe { libc::unlinkat(fd, name.as_ptr(), 0) } != 0 {
                return Err(failed("removing a file", &name));
            }
        }
        Ok(())
    }
}

/// Truncates `name` in the directory open at `dir` to nothing where it is
/// a regular file (never through a symbolic link); whether it was one.
fn truncate(dir: RawFd, name: &CStr) -> std::io::Result<bool> {
    // SAFETY: a valid descriptor, C string and out struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstatat(dir, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) } != 0 {
        return Err(failed("looking at a file", name));
    }
    if st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Ok(false);
    }
    let flags = libc::O_WRONLY | libc::O_TRUNC | libc::O_NOFOLLOW | libc::O_CLOEXEC;
    // SAFETY: as above; the descriptor is ours and closed at once.
    let fd = unsafe { libc::openat(dir, name.as_ptr(), flags) };
    if fd < 0 {
        return Err(failed("emptying a file", name));
    }
    // SAFETY: ours.
    unsafe { libc::close(fd) };
    Ok(true)
}

impl Drop for Workdir {
    fn drop(&mut self) {
        if let Err(e) = remove_tree(&self.path) {
            tracing::warn!(dir = %self.path.display(), error = %e, "removing a work directory");
        }
    }
}

/// Removes `path` and, where it is a directory, everything in it, however
/// deep and whatever its permissions (see the module's notes). A path
/// that is not there is already removed.
///
/// # Errors
/// The first removal that failed, with what it was removing.
pub fn remove_tree(path: &Path) -> std::io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.is_dir() {
        return std::fs::remove_file(path);
    }
    let top = cstring(path.as_os_str())?;
    let mut cur = open_dir(libc::AT_FDCWD, &top)?;
    // Each level: its name in its parent (none for the top) and the
    // directories in it still to remove; its files are gone already.
    let mut stack: Vec<(Option<CString>, Vec<CString>)> = vec![(None, empty(&cur)?)];
    while let Some((_, pending)) = stack.last_mut() {
        if let Some(sub) = pending.pop() {
            let next = open_dir(cur.as_raw_fd(), &sub)?;
            let subdirs = empty(&next)?;
            cur = next;
            stack.push((Some(sub), subdirs));
            continue;
        }
        let Some((Some(name), _)) = stack.pop() else {
            break;
        };
        let parent = openat(cur.as_raw_fd(), c"..", 0)?;
        // SAFETY: a valid descriptor and C string.
        if unsafe { libc::unlinkat(parent.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) } != 0 {
            return Err(failed("removing a directory", &name));
        }
        cur = parent;
    }
    drop(cur);
    std::fs::remove_dir(path)
}

/// Opens the directory `name` in `dir` (never through a symbolic link),
/// giving it back to its owner first where it refuses to be opened.
fn open_dir(dir: RawFd, name: &CStr) -> std::io::Result<OwnedFd> {
    let flags = libc::O_NOFOLLOW;
    match openat(dir, name, flags) {
        // (the error says which name: its kind is the errno's)
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            // SAFETY: a valid descriptor and C string. `name` was seen
            // as a directory, not a link, and nothing renames it now.
            if unsafe { libc::fchmodat(dir, name.as_ptr(), 0o700, 0) } != 0 {
                return Err(failed("giving a directory back to its owner", name));
            }
            openat(dir, name, flags)
        }
        other => other,
    }
}

fn openat(dir: RawFd, name: &CStr, flags: libc::c_int) -> std::io::Result<OwnedFd> {
    // SAFETY: a valid C string; the descriptor returned is ours.
    let fd = unsafe {
        libc::openat(
            dir,
            name.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC | flags,
        )
    };
    if fd < 0 {
        return Err(failed("opening a directory", name));
    }
    // SAFETY: a fresh descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Makes the directory open at `fd` its owner's (`u+rwx`) where it is
/// not, so that its entries can be removed.
fn own(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: a valid descriptor and an out struct.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: a valid descriptor.
    if st.st_mode & 0o700 != 0o700 && unsafe { libc::fchmod(fd, 0o700) } != 0 {
        return Err(failed("giving a directory back to its owner", c"."));
    }
    Ok(())
}

/// Removes every entry of the directory `dir` but its subdirectories,
/// and names those. The directory is made its owner's (`u+rwx`) first
/// where it is not, so its entries can be removed.
fn empty(dir: &OwnedFd) -> std::io::Result<Vec<CString>> {
    let fd = dir.as_raw_fd();
    own(fd)?;
    let mut subdirs = Vec::new();
    for (name, is_dir) in entries(fd)? {
        if is_dir {
            subdirs.push(name);
        // SAFETY: a valid descriptor and C string.
        } else if unsafe { libc::unlinkat(fd, name.as_ptr(), 0) } != 0 {
            return Err(failed("removing a file", &name));
        }
    }
    Ok(subdirs)
}

/// The entries of the directory open at `fd` (`.` and `..` left out),
/// each with whether it is a directory (a symbolic link is not).
fn entries(fd: RawFd) -> std::io::Result<Vec<(CString, bool)>> {
    // A stream of its own: `closedir` closes the copy, not `fd`.
    // SAFETY: plain system calls on a valid descriptor.
    let copy = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if copy < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `copy` is ours; on success the stream owns it.
    let stream = unsafe { libc::fdopendir(copy) };
    if stream.is_null() {
        let e = std::io::Error::last_os_error();
        // SAFETY: still ours.
        unsafe { libc::close(copy) };
        return Err(e);
    }
    let mut found = Vec::new();
    let result = loop {
        // SAFETY: errno of this thread, then a valid stream.
        unsafe { *libc::__errno_location() = 0 };
        let entry = unsafe { libc::readdir64(stream) };
        if entry.is_null() {
            let errno = std::io::Error::last_os_error();
            break match errno.raw_os_error() {
                Some(0) | None => Ok(()),
                Some(_) => Err(errno),
            };
        }
        // SAFETY: readdir returned a valid entry, valid until the next call.
        let (name, kind) = unsafe { (CStr::from_ptr((*entry).d_name.as_ptr()), (*entry).d_type) };
        if name == c"." || name == c".." {
            continue;
        }
        let is_dir = match kind {
            libc::DT_DIR => true,
            libc::DT_UNKNOWN => {
                // SAFETY: a valid descriptor, C string and out struct.
                let mut st: libc::stat = unsafe { std::mem::zeroed() };
                if unsafe { libc::fstatat(fd, name.as_ptr(), &mut st, libc::AT_SYMLINK_NOFOLLOW) }
                    != 0
                {
                    break Err(failed("reading a directory entry", name));
                }
                st.st_mode & libc::S_IFMT == libc::S_IFDIR
            }
            _ => false,
        };
        found.push((name.to_owned(), is_dir));
    };
    // SAFETY: the stream is valid and closed once.
    unsafe { libc::closedir(stream) };
    result.map(|()| found)
}

fn cstring(s: &OsStr) -> std::io::Result<CString> {
    CString::new(s.as_bytes()).map_err(|_| std::io::Error::from(std::io::ErrorKind::InvalidInput))
}

/// The last OS error, saying what was being done and to which name.
fn failed(what: &str, name: &CStr) -> std::io::Error {
    let e = std::io::Error::last_os_error();
    std::io::Error::new(
        e.kind(),
        format!("{what} {:?}: {e}", OsStr::from_bytes(name.to_bytes())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn a_tree_deeper_than_a_path_can_name_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().join("deep");
        std::fs::create_dir(&top).unwrap();
        // 5,000 levels: far past PATH_MAX, and past the descriptors a
        // walk holding one per level may open (`ulimit -n` 1024).
        let mut dir = std::fs::File::open(&top).unwrap();
        for _ in 0..5_000 {
            // SAFETY: valid descriptors and C strings.
            unsafe {
                assert_eq!(libc::mkdirat(dir.as_raw_fd(), c"d".as_ptr(), 0o755), 0);
                let fd = libc::openat(
                    dir.as_raw_fd(),
                    c"d".as_ptr(),
                    libc::O_RDONLY | libc::O_DIRECTORY,
                );
                assert!(fd >= 0);
                libc::close(libc::openat(
                    fd,
                    c"f".as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY,
                    0o644,
                ));
                dir = std::fs::File::from_raw_fd(fd);
            }
        }
        drop(dir);
        remove_tree(&top).unwrap();
        assert!(!top.exists());
    }

    #[test]
    fn directories_without_permissions_are_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let top = tmp.path().join("locked");
        std::fs::create_dir_all(top.join("a/b/c")).unwrap();
        std::fs::write(top.join("a/b/c/file"), b"x").unwrap();
        std::fs::write(top.join("a/file"), b"x").unwrap();
        std::os::unix::fs::symlink("/etc", top.join("a/link")).unwrap();
        for (dir, mode) in [("a/b/c", 0o000), ("a/b", 0o000), ("a", 0o500), ("", 0o000)] {
            std::fs::set_permissions(top.join(dir), std::fs::Permissions::from_mode(mode)).unwrap();
        }
        remove_tree(&top).unwrap();
        assert!(!top.exists());
        // The link was removed, not followed.
        assert!(Path::new("/etc").is_dir());
    }

    #[test]
    fn a_cleared_workdir_is_as_new_but_for_its_kept_files_emptied() {
        let work = Workdir::new("grundy-clear-").unwrap();
        let top = work.path();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("target");
        std::fs::write(&target, b"not the judge's").unwrap();
        std::fs::write(top.join("stdout"), b"the last test's output").unwrap();
        std::fs::write(top.join("left"), b"x").unwrap();
        std::os::unix::fs::symlink(&target, top.join("stderr")).unwrap();
        std::fs::create_dir_all(top.join("feedback/deep/er")).unwrap();
        std::fs::write(top.join("feedback/deep/er/judgemessage.txt"), b"x").unwrap();
        std::fs::create_dir(top.join("stdin")).unwrap();
        std::fs::set_permissions(
            top.join("feedback/deep"),
            std::fs::Permissions::from_mode(0o000),
        )
        .unwrap();
        std::fs::set_permissions(top, std::fs::Permissions::from_mode(0o500)).unwrap();
        work.clear(&["stdout", "stderr", "stdin"]).unwrap();
        let mut left: Vec<_> = std::fs::read_dir(top)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        // A kept name that is a link or a directory is removed like the
        // rest; the link was not followed.
        assert_eq!(left, ["stdout"]);
        assert_eq!(std::fs::read(top.join("stdout")).unwrap(), b"");
        assert_eq!(std::fs::read(&target).unwrap(), b"not the judge's");
        work.clear(&[]).unwrap();
        assert_eq!(std::fs::read_dir(top).unwrap().count(), 0);
    }

    #[test]
    fn a_file_or_nothing_is_removed_too() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        remove_tree(&file).unwrap();
        assert!(!file.exists());
        remove_tree(&file).unwrap();
    }
}
