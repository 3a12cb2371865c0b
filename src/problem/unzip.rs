//! A problem archive from the network (an admin's upload: grundy's own
//! layout or a Kattis package, as one ZIP file) unpacked into a fresh
//! directory, refusing whatever could reach outside it or fill the disk:
//! names that climb out (`..`, absolute, `\`, NUL), links and other
//! special entries, the same path twice, encrypted entries, more entries
//! or more bytes than the bounds allow. The bytes are counted as they are
//! inflated, never taken from the archive's own claims, so a bomb stops
//! at the bound. On any refusal the caller removes the directory: nothing
//! of a refused archive is kept.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Component, Path, PathBuf};

/// What an archive may hold at most.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Bytes of every file together, once inflated.
    pub bytes: u64,
    /// Entries (files and directories).
    pub entries: usize,
}

/// Why an archive was refused: one line each, naming the entry.
#[derive(Debug, thiserror::Error)]
pub enum UnzipError {
    #[error("not a ZIP archive: {0}")]
    NotZip(String),
    #[error("entry {name:?}: {why}")]
    Entry { name: String, why: &'static str },
    #[error("more than {0} entries")]
    TooManyEntries(usize),
    #[error("more than {} MiB once unpacked", .0 >> 20)]
    TooLarge(u64),
    #[error("the archive is empty")]
    Empty,
    #[error("writing {path}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Unpacks `archive` into `into` (an empty directory the caller owns);
/// returns the number of files written.
///
/// # Errors
/// [`UnzipError`]: the archive is malformed, breaks a rule above or
/// a bound, or a file cannot be written. Whatever was written stays for
/// the caller to remove.
pub fn unzip(archive: &[u8], into: &Path, bounds: Bounds) -> Result<usize, UnzipError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive))
        .map_err(|e| UnzipError::NotZip(e.to_string()))?;
    if zip.len() > bounds.entries {
        return Err(UnzipError::TooManyEntries(bounds.entries));
    }
    // Files and directories named so far: a name twice, or a file and a
    // directory of one name, would have the later entry replace the
    // earlier or write through it.
    let (mut file_names, mut dir_names) = (BTreeSet::new(), BTreeSet::new());
    let (mut written, mut files) = (0u64, 0usize);
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| UnzipError::NotZip(e.to_string()))?;
        let name = String::from_utf8_lossy(entry.name_raw()).into_owned();
        let refuse = |why: &'static str| UnzipError::Entry {
            name: name.clone(),
            why,
        };
        let rel = safe_path(&name).ok_or_else(|| refuse("a path outside the archive"))?;
        if entry.encrypted() {
            return Err(refuse("encrypted"));
        }
        let kind = entry.unix_mode().map(|m| m & libc::S_IFMT);
        let special = kind.is_some_and(|k| k != 0 && k != libc::S_IFREG && k != libc::S_IFDIR);
        if entry.is_symlink() || special {
            return Err(refuse(
                "a link or special file (only files and directories)",
            ));
        }
        let twice = "the same path twice, or a file and a directory of one name";
        let parents: Vec<PathBuf> = rel
            .ancestors()
            .skip(1)
            .filter(|p| !p.as_os_str().is_empty())
            .map(Path::to_path_buf)
            .collect();
        if file_names.contains(&rel)
            || (!entry.is_dir() && dir_names.contains(&rel))
            || parents.iter().any(|p| file_names.contains(p))
        {
            return Err(refuse(twice));
        }
        dir_names.extend(parents);
        match entry.is_dir() {
            true => dir_names.insert(rel.clone()),
            false => file_names.insert(rel.clone()),
        };
        let path = into.join(&rel);
        let io = |source| UnzipError::Write {
            path: path.clone(),
            source,
        };
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(io)?;
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => refuse(twice),
                _ => io(e),
            })?;
        // Inflated a buffer at a time, counted against what is left.
        let left = bounds.bytes - written;
        let mut limited = (&mut entry).take(left + 1);
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = limited
                .read(&mut buf)
                .map_err(|e| UnzipError::NotZip(format!("entry {name:?}: {e}")))?;
            if n == 0 {
                break;
            }
            written += n as u64;
            if written > bounds.bytes {
                return Err(UnzipError::TooLarge(bounds.bytes));
            }
            out.write_all(&buf[..n]).map_err(io)?;
        }
        // A program's executable bit is kept (a Kattis package's `build`
        // and `run` scripts); nothing else of the mode is.
        if entry.unix_mode().is_some_and(|m| m & 0o111 != 0) {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        }
        files += 1;
    }
    if files == 0 {
        return Err(UnzipError::Empty);
    }
    Ok(files)
}

/// `name` as a relative path of plain components, or `None` when it could
/// name anything outside the directory it is unpacked in.
fn safe_path(name: &str) -> Option<PathBuf> {
    if name.is_empty() || name.contains('\0') || name.contains('\\') || name.starts_with('/') {
        return None;
    }
    let path = Path::new(name);
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// The package's directory in what an archive unpacked into `dir`: `dir`
/// itself when it holds `problem.toml` or `problem.yaml`, else its one
/// directory that does (an archive of a package's folder), else `None`.
pub fn package_root(dir: &Path) -> Option<PathBuf> {
    let is_package =
        |d: &Path| d.join("problem.toml").is_file() || d.join("problem.yaml").is_file();
    if is_package(dir) {
        return Some(dir.to_path_buf());
    }
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            // A Mac's archiver adds `__MACOSX/`; it is no part of a package.
            p.file_name()
                .is_some_and(|n| n != "__MACOSX" && !n.to_string_lossy().starts_with('.'))
        })
        .collect();
    match entries.as_slice() {
        [one] if one.is_dir() && is_package(one) => Some(one.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_names_are_safe() {
        for bad in [
            "../x",
            "a/../../x",
            "/etc/passwd",
            "a\\..\\x",
            "",
            "a/\0b",
            "a/..",
        ] {
            assert_eq!(safe_path(bad), None, "{bad:?}");
        }
        assert_eq!(safe_path("a/./b.txt"), Some(PathBuf::from("a/b.txt")));
        assert_eq!(safe_path("dir/"), Some(PathBuf::from("dir")));
    }
}
