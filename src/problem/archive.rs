//! A problem package as one blob, to publish in a database for workers on
//! other machines: every file of `problems/<slug>/` and of the shared
//! `problems/_common/`, sorted by path, each as its path and its bytes
//! (lengths as 8-byte little-endian numbers). The same files give the same
//! bytes, so the blob's SHA-256 names the package's content.

use std::path::{Component, Path, PathBuf};

/// What is wrong with a package blob or its files.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("reading {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("writing {path}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("package blob: {0}")]
    Malformed(String),
}

/// The directory of shared code beside the packages, packed with each.
const SHARED_DIR: &str = "_common";

/// Packs package `slug` of the problems directory `root` (with the shared
/// code beside it).
///
/// # Errors
/// A file that cannot be read.
pub fn pack(root: &Path, slug: &str) -> Result<Vec<u8>, ArchiveError> {
    let mut files = Vec::new();
    walk(root, Path::new(slug), true, &mut files)?;
    if root.join(SHARED_DIR).is_dir() {
        walk(root, Path::new(SHARED_DIR), false, &mut files)?;
    }
    files.sort();
    let mut out = Vec::new();
    for (rel, bytes) in files {
        let name = rel.as_bytes();
        out.extend_from_slice(&(name.len() as u64).to_le_bytes());
        out.extend_from_slice(name);
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&bytes);
    }
    Ok(out)
}

/// The files under `root/rel` (recursively when `deep`), as ('/'-joined
/// path relative to `root`, bytes).
fn walk(
    root: &Path,
    rel: &Path,
    deep: bool,
    out: &mut Vec<(String, Vec<u8>)>,
) -> Result<(), ArchiveError> {
    let dir = root.join(rel);
    let entries = std::fs::read_dir(&dir).map_err(|source| ArchiveError::Read {
        path: dir.clone(),
        source,
    })?;
    for entry in entries {
        let entry = entry.map_err(|source| ArchiveError::Read {
            path: dir.clone(),
            source,
        })?;
        let path = entry.path();
        let rel = rel.join(entry.file_name());
        if path.is_dir() {
            if deep {
                walk(root, &rel, deep, out)?;
            }
        } else if path.is_file() {
            let bytes = std::fs::read(&path).map_err(|source| ArchiveError::Read {
                path: path.clone(),
                source,
            })?;
            let name = rel
                .to_str()
                .ok_or_else(|| ArchiveError::Malformed(format!("{}: not UTF-8", rel.display())))?
                .to_string();
            out.push((name, bytes));
        }
    }
    Ok(())
}

/// The files of a package blob, each path checked to stay below the
/// directory it will be written into.
///
/// # Errors
/// A blob that is cut short or names a path outside.
pub fn files(blob: &[u8]) -> Result<Vec<(PathBuf, &[u8])>, ArchiveError> {
    fn take<'a>(blob: &'a [u8], n: usize, at: &mut usize) -> Result<&'a [u8], ArchiveError> {
        let end = at
            .checked_add(n)
            .filter(|&e| e <= blob.len())
            .ok_or_else(|| ArchiveError::Malformed("cut short".into()))?;
        let part = &blob[*at..end];
        *at = end;
        Ok(part)
    }
    fn len(bytes: &[u8]) -> Result<usize, ArchiveError> {
        let bytes: [u8; 8] = bytes
            .try_into()
            .map_err(|_| ArchiveError::Malformed("a length".into()))?;
        usize::try_from(u64::from_le_bytes(bytes))
            .map_err(|_| ArchiveError::Malformed("a length too large".into()))
    }
    let mut out = Vec::new();
    let mut at = 0usize;
    while at < blob.len() {
        let n = len(take(blob, 8, &mut at)?)?;
        let name = std::str::from_utf8(take(blob, n, &mut at)?)
            .map_err(|_| ArchiveError::Malformed("a path that is not UTF-8".into()))?;
        let path = PathBuf::from(name);
        if path.as_os_str().is_empty()
            || !path.components().all(|c| matches!(c, Component::Normal(_)))
        {
            return Err(ArchiveError::Malformed(format!(
                "path {name:?} leaves the package"
            )));
        }
        let n = len(take(blob, 8, &mut at)?)?;
        out.push((path, take(blob, n, &mut at)?));
    }
    Ok(out)
}

/// Writes a package blob's files below `dir` (created).
///
/// # Errors
/// A malformed blob, or a file that cannot be written.
pub fn unpack(blob: &[u8], dir: &Path) -> Result<(), ArchiveError> {
    for (rel, bytes) in files(blob)? {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|source| ArchiveError::Write {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        std::fs::write(&path, bytes).map_err(|source| ArchiveError::Write {
            path: path.clone(),
            source,
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_package_packs_the_same_twice_and_unpacks_to_its_files() {
        let root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(root.path().join("nim/tests")).unwrap();
        std::fs::create_dir_all(root.path().join("_common")).unwrap();
        std::fs::write(root.path().join("nim/problem.toml"), "name = 'Nim'").unwrap();
        std::fs::write(root.path().join("nim/tests/01.in"), "1\n3\n").unwrap();
        std::fs::write(root.path().join("_common/game.rs"), "fn f() {}").unwrap();
        std::fs::create_dir_all(root.path().join("other")).unwrap();
        std::fs::write(root.path().join("other/problem.toml"), "x").unwrap();
        let blob = pack(root.path(), "nim").unwrap();
        assert_eq!(blob, pack(root.path(), "nim").unwrap());
        let names: Vec<_> = files(&blob).unwrap().into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            names,
            ["_common/game.rs", "nim/problem.toml", "nim/tests/01.in"].map(PathBuf::from)
        );
        let out = tempfile::tempdir().unwrap();
        unpack(&blob, out.path()).unwrap();
        assert_eq!(
            std::fs::read(out.path().join("nim/tests/01.in")).unwrap(),
            b"1\n3\n"
        );
    }

    #[test]
    fn a_blob_naming_a_path_outside_or_cut_short_is_refused() {
        let mut blob = Vec::new();
        for part in [&b"../x"[..], b"y"] {
            blob.extend_from_slice(&(part.len() as u64).to_le_bytes());
            blob.extend_from_slice(part);
        }
        assert!(matches!(files(&blob), Err(ArchiveError::Malformed(_))));
        assert!(matches!(files(&blob[..5]), Err(ArchiveError::Malformed(_))));
    }
}
