//! The content-addressed program cache under `<data_dir>/programs/`:
//! `<key>/` holds a compiled program's directory, `<key>.ce` the message of a
//! source that failed to compile. Entries are built in a temporary directory
//! beside the cache and renamed into place, so a crash never leaves half an
//! entry behind and concurrent judges may race harmlessly.

use std::path::{Path, PathBuf};

use super::Error;

#[derive(Debug, Clone)]
pub struct ProgramCache {
    root: PathBuf,
}

impl ProgramCache {
    pub fn new(root: PathBuf) -> ProgramCache {
        ProgramCache { root }
    }

    fn err(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
        let path = path.to_path_buf();
        move |source| Error::Cache { path, source }
    }

    /// A fresh scratch directory on the cache's file system.
    pub fn workspace(&self) -> Result<tempfile::TempDir, Error> {
        let tmp = self.root.join("tmp");
        std::fs::create_dir_all(&tmp).map_err(Self::err(&tmp))?;
        tempfile::Builder::new()
            .prefix("compile-")
            .tempdir_in(&tmp)
            .map_err(Self::err(&tmp))
    }

    /// `Some(Ok(dir))` for a compiled program, `Some(Err(message))` for a
    /// cached compilation error, `None` for a miss.
    pub fn lookup(&self, key: &str) -> Result<Option<Result<PathBuf, String>>, Error> {
        let dir = self.root.join(key);
        if dir.is_dir() {
            return Ok(Some(Ok(dir)));
        }
        let ce = self.root.join(format!("{key}.ce"));
        match std::fs::read_to_string(&ce) {
            Ok(message) => Ok(Some(Err(message))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Self::err(&ce)(e)),
        }
    }

    /// Moves a finished compile directory into the cache.
    pub fn store(&self, key: &str, built: &Path) -> Result<PathBuf, Error> {
        let dir = self.root.join(key);
        match std::fs::rename(built, &dir) {
            Ok(()) => Ok(dir),
            // Another judge stored the same key first: theirs is as good.
            Err(_) if dir.is_dir() => Ok(dir),
            Err(e) => Err(Self::err(&dir)(e)),
        }
    }

    /// A language's prepared directory (see `prepare` in config.toml), if
    /// it was built before.
    pub fn prepared(&self, name: &str) -> Option<PathBuf> {
        let dir = self.root.join(name);
        dir.is_dir().then_some(dir)
    }

    /// Moves a finished prepared directory into the cache.
    pub fn store_prepared(&self, name: &str, built: &Path) -> Result<PathBuf, Error> {
        self.store(name, built)
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
}
