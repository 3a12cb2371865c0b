//! A run's stdin, stdout and stderr: what a [`RunSpec`] asks for
//! ([`Stdio`]), and opening it the same way on every tier.

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
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
    /// caller), used as it is: the run gets a duplicate. The spec keeps
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

/// The run's stdin, stdout and stderr, opened by the judge (close-on-exec:
/// each tier puts them on 0..2 itself).
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
