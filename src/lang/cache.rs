//! The content-addressed program cache under `<data_dir>/programs/`:
//! `<key>/` holds a compiled program's directory, `<key>.ce` the message of a
//! source that failed to compile. Entries are built in a temporary directory
//! beside the cache and renamed into place, so a crash never leaves half an
//! entry behind and concurrent judges may race harmlessly.
//!
//! An entry belongs to the judge and is read-only: what a compiler left in
//! its box (owned by the box's uid) is copied into a fresh directory of the
//! judge's before it is renamed into place, so no later box can change a
//! cached program. The cache has a size budget; past it, the entries used
//! least recently go (but never one used in the last few minutes, which a
//! judge may still be running).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use super::Error;
use crate::sandbox::{remove_tree, Workdir};

/// An entry used this recently is never evicted: a judge may be running it.
const IN_USE: Duration = Duration::from_secs(600);

#[derive(Debug, Clone)]
pub struct ProgramCache {
    root: PathBuf,
}

impl ProgramCache {
    pub fn new(root: PathBuf) -> ProgramCache {
        ProgramCache { root }
    }

    /// For `map_err`: an I/O failure at `path` in the cache (or a
    /// compilation's workspace in it) is the judge's, [`Error::Cache`].
    pub(super) fn err(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.to_path_buf();
        move |source| Error::Cache { path, source }
    }

    fn scratch_dir(&self) -> Result<PathBuf, Error> {
        let tmp = self.root.join("tmp");
        std::fs::create_dir_all(&tmp).map_err(Self::err(&tmp))?;
        Ok(tmp)
    }

    /// A fresh scratch directory on the cache's file system, removed with
    /// whatever a compile left in it when dropped.
    pub fn workspace(&self) -> Result<Workdir, Error> {
        let tmp = self.scratch_dir()?;
        Workdir::new_in(&tmp, "compile-").map_err(Self::err(&tmp))
    }

    /// `Some(Ok(dir))` for a compiled program, `Some(Err(message))` for a
    /// cached compilation error, `None` for a miss. A hit counts as a use.
    pub fn lookup(&self, key: &str) -> Result<Option<Result<PathBuf, String>>, Error> {
        let dir = self.root.join(key);
        if dir.is_dir() {
            touch(&dir);
            return Ok(Some(Ok(dir)));
        }
        let ce = self.root.join(format!("{key}.ce"));
        match std::fs::read_to_string(&ce) {
            Ok(message) => {
                touch(&ce);
                Ok(Some(Err(message)))
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Self::err(&ce)(e)),
        }
    }

    /// Copies a finished compile directory into the cache as a read-only
    /// entry of the judge's, then evicts the least recently used entries
    /// while the cache is above `budget` bytes.
    pub fn store(&self, key: &str, built: &Path, budget: u64) -> Result<PathBuf, Error> {
        let dir = self.root.join(key);
        let staged = tempfile::Builder::new()
            .prefix("entry-")
            .tempdir_in(self.scratch_dir()?)
            .map_err(Self::err(&self.root))?;
        let copy = staged.path().join("entry");
        copy_read_only(built, &copy).map_err(Self::err(built))?;
        // Moving a directory to another parent rewrites its `..`, which
        // needs write permission on it (for a judge that is not root): the
        // top is made read-only once in place.
        let writable = std::fs::Permissions::from_mode(0o755);
        if copy.is_dir() {
            std::fs::set_permissions(&copy, writable).map_err(Self::err(&copy))?;
        }
        match std::fs::rename(&copy, &dir) {
            Ok(()) => {
                if dir.is_dir() {
                    let read_only = std::fs::Permissions::from_mode(0o555);
                    std::fs::set_permissions(&dir, read_only).map_err(Self::err(&dir))?;
                }
            }
            // Another judge stored the same key first: theirs is as good.
            Err(_) if dir.is_dir() => {
                let _ = remove_entry(&copy);
            }
            Err(e) => {
                let _ = remove_entry(&copy);
                return Err(Self::err(&dir)(e));
            }
        }
        self.evict(budget, &dir);
        Ok(dir)
    }

    /// Removes the entry at `dir` (a program this cache served that
    /// turned out not to run), so the next lookup is a miss. Does nothing
    /// to a path outside the cache; a failure only leaves it there.
    pub fn forget(&self, dir: &Path) {
        if dir.parent() != Some(self.root.as_path()) || dir.file_name().is_none_or(|n| n == "tmp") {
            return;
        }
        if let Err(e) = remove_entry(dir) {
            tracing::warn!(entry = %dir.display(), error = %e, "evicting a program from the cache");
        }
    }

    /// A language's prepared directory (see `prepare` in config.toml), if
    /// it was built before.
    pub fn prepared(&self, name: &str) -> Option<PathBuf> {
        let dir = self.root.join(name);
        dir.is_dir().then(|| {
            touch(&dir);
            dir
        })
    }

    /// Records a compilation error.
    pub fn store_failure(&self, key: &str, message: &str) -> Result<(), Error> {
        let path = self.root.join(format!("{key}.ce"));
        let tmp = self
            .root
            .join(format!("{key}.ce.tmp{}", std::process::id()));
        std::fs::write(&tmp, message).map_err(Self::err(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(Self::err(&path))
    }

    /// Removes entries, least recently used first, until the cache holds
    /// at most `budget` bytes; `keep` and entries used in the last
    /// [`IN_USE`] stay whatever the total. Failures only leave more behind.
    fn evict(&self, budget: u64, keep: &Path) {
        let Ok(read) = std::fs::read_dir(&self.root) else {
            return;
        };
        let mut entries: Vec<(SystemTime, u64, PathBuf)> = read
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n != "tmp"))
            .map(|p| {
                let used = std::fs::symlink_metadata(&p)
                    .and_then(|m| m.modified())
                    .unwrap_or(SystemTime::UNIX_EPOCH);
                (used, disk_size(&p), p)
            })
            .collect();
        let mut total: u64 = entries.iter().map(|(_, size, _)| size).sum();
        if total <= budget {
            return;
        }
        entries.sort();
        let now = SystemTime::now();
        for (used, size, path) in entries {
            if total <= budget {
                break;
            }
            let recent = now.duration_since(used).map_or(true, |age| age < IN_USE);
            if path == keep || recent {
                continue;
            }
            if remove_entry(&path).is_ok() {
                tracing::debug!(entry = %path.display(), size, "evicted from the program cache");
                total -= size;
            }
        }
    }
}

/// Marks an entry used now (its modification time orders eviction).
fn touch(path: &Path) {
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// How deep a compiled program's tree may go, how many entries it may
/// have, and how long a path in it may be (relative to its top). Far
/// beyond any compiler's output, and short of what copying it into the
/// cache could choke on (`PATH_MAX`, the judge's stack).
const TREE_DEPTH: usize = 32;
const TREE_ENTRIES: usize = 20_000;
const TREE_PATH: usize = 1024;

/// The bytes of what a compile left in `dir`, or why it cannot be stored
/// (a tree too deep, too wide or with too long a path, or a file the
/// judge cannot read): the submission's own doing, so a compilation
/// error, never the judge's. Walks without recursion.
pub fn survey(dir: &Path) -> Result<u64, String> {
    let mut bytes = 0;
    let mut entries = 0;
    let mut stack = vec![(dir.to_path_buf(), 0usize)];
    while let Some((path, depth)) = stack.pop() {
        let rel = path.strip_prefix(dir).unwrap_or(&path);
        let shown = || rel.display().to_string();
        if rel.as_os_str().len() > TREE_PATH {
            return Err(format!(
                "the compile left a path longer than {TREE_PATH} bytes"
            ));
        }
        let meta = std::fs::symlink_metadata(&path)
            .map_err(|e| format!("the compile left {} unreadable: {e}", shown()))?;
        bytes += meta.len();
        if meta.is_symlink() {
            // Followed in the box, where the host's paths are not the box's:
            // a link may only name something beside it in the tree.
            let target = std::fs::read_link(&path)
                .map_err(|e| format!("the compile left {} unreadable: {e}", shown()))?;
            if target.is_absolute()
                || target
                    .components()
                    .any(|c| matches!(c, std::path::Component::ParentDir))
            {
                return Err(format!(
                    "the compile left a symbolic link out of its directory: {} -> {}",
                    shown(),
                    target.display()
                ));
            }
        } else if meta.is_file() {
            std::fs::File::open(&path)
                .map_err(|e| format!("the compile left {} unreadable: {e}", shown()))?;
        } else if meta.is_dir() {
            if depth >= TREE_DEPTH {
                return Err(format!(
                    "the compile left directories more than {TREE_DEPTH} deep"
                ));
            }
            let read = std::fs::read_dir(&path)
                .map_err(|e| format!("the compile left {} unreadable: {e}", shown()))?;
            for entry in read {
                let entry =
                    entry.map_err(|e| format!("the compile left {} unreadable: {e}", shown()))?;
                entries += 1;
                if entries > TREE_ENTRIES {
                    return Err(format!("the compile left more than {TREE_ENTRIES} files"));
                }
                stack.push((entry.path(), depth + 1));
            }
        }
    }
    Ok(bytes)
}

/// Bytes of a file or a directory tree (symlinks not followed).
fn disk_size(path: &Path) -> u64 {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return 0;
    };
    if !meta.is_dir() {
        return meta.len();
    }
    std::fs::read_dir(path)
        .map(|read| read.flatten().map(|e| disk_size(&e.path())).sum())
        .unwrap_or(0)
}

/// Copies a tree into `to` as new files of the judge's (symlinks as
/// symlinks, nothing else special), without write permission for anyone.
fn copy_read_only(from: &Path, to: &Path) -> std::io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(from)?, to)
    } else if meta.is_dir() {
        std::fs::create_dir(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_read_only(&entry.path(), &to.join(entry.file_name()))?;
        }
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o555))
    } else if meta.is_file() {
        std::fs::copy(from, to)?;
        let mode = meta.permissions().mode() & 0o555 | 0o444;
        std::fs::set_permissions(to, std::fs::Permissions::from_mode(mode))
    } else {
        Ok(())
    }
}

/// Removes a read-only entry (its directories made writable first).
fn remove_entry(path: &Path) -> std::io::Result<()> {
    remove_tree(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn built(dir: &Path, name: &str, bytes: usize) -> PathBuf {
        let b = dir.join(name);
        std::fs::create_dir_all(b.join("sub")).unwrap();
        std::fs::write(b.join("main"), vec![7u8; bytes]).unwrap();
        std::fs::write(b.join("sub/lib"), b"x").unwrap();
        b
    }

    #[test]
    fn a_stored_entry_is_a_read_only_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = ProgramCache::new(tmp.path().join("programs"));
        let b = built(tmp.path(), "b", 10);
        let dir = cache.store("k", &b, u64::MAX).unwrap();
        assert!(b.join("main").exists(), "the build is copied, not moved");
        for p in [
            dir.clone(),
            dir.join("main"),
            dir.join("sub"),
            dir.join("sub/lib"),
        ] {
            let mode = std::fs::metadata(&p).unwrap().permissions().mode();
            assert_eq!(mode & 0o222, 0, "{} is writable: {mode:o}", p.display());
        }
        assert_eq!(std::fs::read(dir.join("main")).unwrap(), vec![7u8; 10]);
        assert!(matches!(cache.lookup("k").unwrap(), Some(Ok(_))));
    }

    #[test]
    fn a_tree_the_cache_could_choke_on_is_refused_with_a_reason() {
        let tmp = tempfile::tempdir().unwrap();
        let fine = built(tmp.path(), "fine", 10);
        assert!(survey(&fine).unwrap() >= 11);
        let deep = tmp.path().join("deep");
        let mut d = deep.clone();
        for _ in 0..=TREE_DEPTH {
            d.push("d");
        }
        std::fs::create_dir_all(&d).unwrap();
        let why = survey(&deep).unwrap_err();
        assert!(why.contains("deep"), "{why}");
        let wide = tmp.path().join("wide");
        std::fs::create_dir(&wide).unwrap();
        for i in 0..=TREE_ENTRIES {
            std::fs::File::create(wide.join(i.to_string())).unwrap();
        }
        let why = survey(&wide).unwrap_err();
        assert!(why.contains("files"), "{why}");
        let long = tmp.path().join("long");
        let mut d = long.clone();
        for _ in 0..5 {
            d.push("x".repeat(250));
        }
        std::fs::create_dir_all(&d).unwrap();
        let why = survey(&long).unwrap_err();
        assert!(why.contains("longer"), "{why}");
    }

    #[test]
    fn over_budget_the_least_recently_used_old_entry_goes() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = ProgramCache::new(tmp.path().join("programs"));
        let old = cache
            .store("old", &built(tmp.path(), "a", 1000), u64::MAX)
            .unwrap();
        let older = cache
            .store("older", &built(tmp.path(), "b", 1000), u64::MAX)
            .unwrap();
        let long_ago = SystemTime::now() - Duration::from_secs(3600);
        std::fs::File::open(&old)
            .unwrap()
            .set_modified(long_ago)
            .unwrap();
        let longer_ago = long_ago - Duration::from_secs(60);
        std::fs::File::open(&older)
            .unwrap()
            .set_modified(longer_ago)
            .unwrap();
        // Two entries of ~1 KB and a new one; room for two.
        let new = cache
            .store("new", &built(tmp.path(), "c", 1000), 2100)
            .unwrap();
        assert!(new.is_dir());
        assert!(old.is_dir(), "the more recently used stays");
        assert!(!older.exists(), "the least recently used goes");
    }

    #[test]
    fn entries_used_lately_are_never_evicted() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = ProgramCache::new(tmp.path().join("programs"));
        let a = cache
            .store("a", &built(tmp.path(), "a", 1000), u64::MAX)
            .unwrap();
        let b = cache.store("b", &built(tmp.path(), "b", 1000), 10).unwrap();
        assert!(a.is_dir() && b.is_dir());
    }
}
