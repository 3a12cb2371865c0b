//! Opening a run's stdin, stdout and stderr, the same way on every tier:
//! stdin read from its file (or `/dev/null`), stdout and stderr created or
//! truncated; the same path for both shares one open file, so their
//! writes interleave instead of overwriting each other.

use std::fs::File;
use std::os::fd::OwnedFd;
use std::path::Path;

use super::{Error, RunSpec};

fn open(path: &Path, write: bool) -> Result<File, Error> {
    let f = if write {
        File::create(path)
    } else {
        File::open(path)
    };
    f.map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The run's stdin, stdout and stderr, opened by the judge (close-on-exec:
/// each tier puts them on 0..2 itself).
///
/// # Errors
/// When a file cannot be opened.
pub(super) fn open_stdio(spec: &RunSpec) -> Result<[OwnedFd; 3], Error> {
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
    Ok([stdin.into(), stdout.into(), stderr.into()])
}
