//! A run's stdin, stdout and stderr: what a [`RunSpec`] asks for
//! ([`Stdio`]), and opening it for each tier.
//!
//! A box never gets a descriptor of the judge's own files ([`BoxStdio`]):
//! a file for stdin is copied into a sealed anonymous memory file, and
//! stdout and stderr go to anonymous memory files the judge copies to
//! their paths once the run is over. Through a descriptor of a real file
//! a program could learn its host path (`readlink /proc/self/fd/0` names
//! the test) and, where the box user is the judge's own, reopen it for
//! writing or `fchmod` it: change the data every later run is judged on.

use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{Error, RunSpec};

/// Where a run's stdin comes from, or its stdout or stderr goes.
#[derive(Debug, Clone, Default)]
pub enum Stdio {
    /// `/dev/null`.
    #[default]
    Null,
    /// A file: read for stdin; created or truncated for stdout and stderr.
    /// Stdout and stderr to the same path share one open file, so their
    /// writes interleave instead of overwriting each other.
    File(PathBuf),
    /// A descriptor already open (a pipe's end, a file opened by the
    /// caller), used as it is: the run gets a duplicate. Never a file of
    /// the judge's data: a box could learn its path and, where the box
    /// user is the judge's own, write to it (use [`Stdio::File`], which
    /// a box gets as an anonymous copy). The spec keeps
    /// it open while the spec (or a clone) lives, so drop the spec to let
    /// a pipe's reader see its end. The output limit bounds files only: a
    /// pipe's reader bounds what it takes.
    Fd(Arc<OwnedFd>),
}

impl Stdio {
    /// A file at `path`.
    pub fn file(path: impl Into<PathBuf>) -> Stdio {
        Stdio::File(path.into())
    }

    /// An open descriptor: a `std::io::PipeReader` or `PipeWriter`, a
    /// `File`, an `OwnedFd`.
    pub fn fd(fd: impl Into<OwnedFd>) -> Stdio {
        Stdio::Fd(Arc::new(fd.into()))
    }
}

/// Which end of the run a descriptor is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Read,
    Write,
}

fn open(stdio: &Stdio, direction: Direction) -> Result<OwnedFd, Error> {
    let open_file = |path: &Path| {
        let f = match direction {
            Direction::Read => File::open(path),
            Direction::Write => File::create(path),
        };
        f.map(OwnedFd::from).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })
    };
    match stdio {
        Stdio::Null => open_file(Path::new("/dev/null")),
        Stdio::File(path) => open_file(path),
        Stdio::Fd(fd) => fd.try_clone().map_err(|source| Error::Io {
            path: PathBuf::from(format!("/proc/self/fd/{}", fd.as_raw_fd())),
            source,
        }),
    }
}

/// An anonymous memory file (`memfd`) named `name`, close-on-exec.
fn memfd(name: &std::ffi::CStr, path: &Path) -> Result<File, Error> {
    // SAFETY: valid C string; a fresh descriptor on success.
    let fd =
        unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC | libc::MFD_ALLOW_SEALING) };
    if fd < 0 {
        return Err(Error::Io {
            path: path.to_path_buf(),
            source: std::io::Error::last_os_error(),
        });
    }
    // SAFETY: a fresh descriptor we own.
    Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
}

/// A sealed copy of the file at `path` in anonymous memory, read-only to
/// everyone, at offset 0.
fn copy_in(path: &Path) -> Result<OwnedFd, Error> {
    let io = |source| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut from = File::open(path).map_err(io)?;
    let mut copy = memfd(c"stdin", path)?;
    std::io::copy(&mut from, &mut copy).map_err(io)?;
    copy.seek(SeekFrom::Start(0)).map_err(io)?;
    copy.set_permissions(std::fs::Permissions::from_mode(0o444))
        .map_err(io)?;
    // F_SEAL_FUTURE_WRITE, not F_SEAL_WRITE: both forbid every later
    // write and writable mapping, but F_SEAL_WRITE also fails with EBUSY
    // while the kernel still holds references to pages just written (the
    // copy above may splice), which under load ended whole runs of
    // `grundy verify --all`. Kernels before 5.1 lack it: seal with
    // F_SEAL_WRITE there, retrying the transient EBUSY.
    let grow = libc::F_SEAL_SEAL | libc::F_SEAL_SHRINK | libc::F_SEAL_GROW;
    let seal = |seals: libc::c_int| {
        // SAFETY: plain fcntl on a descriptor we own.
        match unsafe { libc::fcntl(copy.as_raw_fd(), libc::F_ADD_SEALS, seals) } {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        }
    };
    match seal(grow | libc::F_SEAL_FUTURE_WRITE) {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {
            let mut tries = 0;
            loop {
                match seal(grow | libc::F_SEAL_WRITE) {
                    Err(e) if e.raw_os_error() == Some(libc::EBUSY) && tries < 50 => {
                        tries += 1;
                        std::thread::sleep(std::time::Duration::from_millis(2));
                    }
                    other => break other.map_err(io)?,
                }
            }
        }
        other => other.map_err(io)?,
    }
    Ok(copy.into())
}

/// A boxed run's stdin, stdout and stderr: `fds` go to the box (drop them
/// once it holds its copies, so a pipe's reader sees its end when the run
/// ends); `outputs` copies what it wrote to the files asked for.
pub(super) struct BoxStdio {
    pub(super) fds: [OwnedFd; 3],
    pub(super) outputs: Outputs,
}

/// Memory files a box writes, the file each is copied to, and how much
/// of it is kept.
pub(super) struct Outputs(Vec<(File, PathBuf, u64)>);

/// Bytes of a run's stderr the judge keeps (when it has a file of its
/// own): enough for an admin to read why a program failed, and a program
/// that writes (or seeks) far cannot make the judge copy more.
const STDERR_KEPT: u64 = 16 << 10;

impl Outputs {
    /// Copies what the run wrote to its files (at most `limit` bytes each,
    /// the output limit the box's writes met already; at most
    /// [`STDERR_KEPT`] of a stderr of its own). Only the bytes the run
    /// wrote are copied: a hole it seeked over (or made with `ftruncate`)
    /// stays a hole, so the host's disk and the copy cost no more than
    /// what was really written.
    ///
    /// # Errors
    /// When a file cannot be written.
    pub(super) fn finish(self, limit: u64) -> Result<(), Error> {
        for (memory, path, kept) in self.0 {
            let io = |source| Error::Io {
                path: path.clone(),
                source,
            };
            let mut file = File::create(&path).map_err(io)?;
            copy_data(&memory, &mut file, limit.min(kept)).map_err(io)?;
        }
        Ok(())
    }
}

/// Copies the data of `from` (not its holes) to the same offsets of `to`,
/// up to `max` bytes of length.
fn copy_data(from: &File, to: &mut File, max: u64) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::FileExt;
    let len = from.metadata()?.len().min(max);
    let fd = from.as_raw_fd();
    let mut at = 0u64;
    let mut buf = vec![0u8; 64 << 10];
    while at < len {
        // SAFETY: plain lseek on a descriptor we own.
        let data = unsafe { libc::lseek(fd, at as libc::off_t, libc::SEEK_DATA) };
        if data < 0 {
            // ENXIO: nothing but a hole from here on.
            break;
        }
        // SAFETY: as above.
        let hole = unsafe { libc::lseek(fd, data, libc::SEEK_HOLE) };
        let (start, end) = (data as u64, (hole.max(data) as u64).min(len));
        let mut pos = start;
        while pos < end {
            let want = buf.len().min((end - pos) as usize);
            let n = from.read_at(&mut buf[..want], pos)?;
            if n == 0 {
                break;
            }
            to.seek(SeekFrom::Start(pos))?;
            to.write_all(&buf[..n])?;
            pos += n as u64;
        }
        at = end.max(start + 1);
    }
    to.set_len(len)
}

/// The run's stdin, stdout and stderr for a box: files become anonymous
/// memory files (see the module's documentation); `/dev/null` and
/// descriptors the caller gave are passed as they are.
///
/// # Errors
/// When a file cannot be read or a memory file made.
pub(super) fn open_box_stdio(spec: &RunSpec) -> Result<BoxStdio, Error> {
    let stdin = match &spec.stdin {
        Stdio::File(path) => copy_in(path)?,
        other => open(other, Direction::Read)?,
    };
    let mut outputs: Vec<(File, PathBuf, u64)> = Vec::new();
    let mut output = |stdio: &Stdio, name: &std::ffi::CStr, kept: u64| -> Result<OwnedFd, Error> {
        let Stdio::File(path) = stdio else {
            return open(stdio, Direction::Write);
        };
        let io = |source| Error::Io {
            path: path.clone(),
            source,
        };
        // Stdout and stderr to one path share one memory file (kept as
        // stdout is: a compiler's messages).
        if let Some((memory, _, _)) = outputs.iter().find(|(_, p, _)| p == path) {
            return memory.try_clone().map(OwnedFd::from).map_err(io);
        }
        let memory = memfd(name, path)?;
        let fd = memory.try_clone().map(OwnedFd::from).map_err(io)?;
        outputs.push((memory, path.clone(), kept));
        Ok(fd)
    };
    let stdout = output(&spec.stdout, c"stdout", u64::MAX)?;
    let stderr = output(&spec.stderr, c"stderr", STDERR_KEPT)?;
    Ok(BoxStdio {
        fds: [stdin, stdout, stderr],
        outputs: Outputs(outputs),
    })
}

/// The run's stdin, stdout and stderr as the `rlimit` tier gives them (the
/// files themselves; nothing is isolated there), opened by the judge
/// (close-on-exec: the tier puts them on 0..2 itself).
///
/// # Errors
/// When a file cannot be opened or a descriptor duplicated.
pub(super) fn open_stdio(spec: &RunSpec) -> Result<[OwnedFd; 3], Error> {
    let stdin = open(&spec.stdin, Direction::Read)?;
    let stdout = open(&spec.stdout, Direction::Write)?;
    let stderr = match (&spec.stdout, &spec.stderr) {
        (Stdio::File(out), Stdio::File(err)) if out == err => {
            stdout.try_clone().map_err(|source| Error::Io {
                path: err.clone(),
                source,
            })?
        }
        (_, stderr) => open(stderr, Direction::Write)?,
    };
    Ok([stdin, stdout, stderr])
}
