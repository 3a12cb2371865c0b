//! API tokens' accounts kept in memory between requests, never served
//! stale.
//!
//! Every API request names its token, and a hosted judge's traffic is
//! mostly status reads; reading the token's account from the database each
//! time costs a round trip per request. So the account a token signs in as
//! is kept, with the *credentials mark* it was read under: a mark every
//! change that can end or alter what a token signs in as (a token revoked,
//! an account disabled or enabled, made or unmade admin) moves on once its
//! transaction has committed. A kept account is used only while the mark
//! is still the one it was read under, and the mark is read *before* the
//! database is, so a change committed between the two leaves an entry that
//! is never used. The next request after a change returns reads the
//! database again.
//!
//! Where the mark lives decides who sees a change:
//! - **SQLite**: a file beside the database, `<database>-credentials`, to
//!   which each change appends one byte; the mark is its inode, length and change
//!   time, one `stat` away. Every process that opens the database (a server, the
//!   command line revoking a token, a second server on the same file) moves
//!   and reads the same mark, so a change made by any of them is seen by the
//!   very next request of all. A file removed or replaced meanwhile is a
//!   new mark, or none: nothing kept is used then.
//! - **PostgreSQL**: servers on other machines change credentials and share
//!   no file, so nothing is kept: every request reads the database.
//! - A database without a file (in memory), or a mark file that cannot be
//!   made: nothing is kept either.
//!
//! Should a process die between a change's commit and its mark (or the
//! disk refuse the byte), what was kept elsewhere would outlive the change;
//! an entry is therefore also used for [`MAX_AGE`] at most.

use std::collections::HashMap;
use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::User;

/// How long a kept account is used at most, whatever the mark says.
pub const MAX_AGE: Duration = Duration::from_secs(10);

/// How many tokens' accounts are kept; all are let go when more come.
const CAPACITY: usize = 4096;

/// The credentials mark: the mark file's inode, length and change time
/// (a file removed and made again, even on the same inode, has another).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Mark(u64, u64, i64, i64);

#[derive(Debug)]
struct Kept {
    user: User,
    mark: Mark,
    at: Instant,
}

/// Tokens' accounts, by token hash, each with the mark it was read under.
#[derive(Debug, Default)]
pub(super) struct Credentials {
    /// The mark file; `None`: nothing is kept.
    file: Option<PathBuf>,
    kept: Mutex<HashMap<Vec<u8>, Kept>>,
}

impl Credentials {
    /// Nothing kept: every request reads the database.
    pub fn none() -> Credentials {
        Credentials::default()
    }

    /// Kept under the mark file beside SQLite database `database` (made
    /// if missing); nothing kept when it cannot be made.
    pub fn beside(database: &Path) -> Credentials {
        let mut name = database.as_os_str().to_owned();
        name.push("-credentials");
        let file = PathBuf::from(name);
        let made = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(&file);
        match made {
            Ok(_) => Credentials {
                file: Some(file),
                ..Credentials::default()
            },
            Err(e) => {
                tracing::warn!(file = %file.display(), error = %e,
                    "no credentials mark file: every request reads its token from the database");
                Credentials::none()
            }
        }
    }

    /// The mark now; `None` when nothing may be kept.
    pub fn mark(&self) -> Option<Mark> {
        let meta = std::fs::metadata(self.file.as_ref()?).ok()?;
        Some(Mark(
            meta.ino(),
            meta.len(),
            meta.ctime(),
            meta.ctime_nsec(),
        ))
    }

    /// The account kept for token `hash` under `mark`, if any.
    pub fn kept(&self, hash: &[u8], mark: Mark) -> Option<User> {
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        kept.get(hash)
            .filter(|k| k.mark == mark && k.at.elapsed() < MAX_AGE)
            .map(|k| k.user.clone())
    }

    /// Keeps `user` for token `hash`, as read from the database after
    /// `mark` was read.
    pub fn keep(&self, hash: &[u8], user: &User, mark: Mark) {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= CAPACITY {
            kept.clear();
        }
        let entry = Kept {
            user: user.clone(),
            mark,
            at: Instant::now(),
        };
        kept.insert(hash.to_vec(), entry);
    }

    /// Moves the mark on: a change to credentials has committed. Called
    /// after the commit, never before (a read between a mark moved first
    /// and the commit would keep the old account under the new mark).
    pub fn changed(&self) {
        self.kept.lock().unwrap_or_else(|e| e.into_inner()).clear();
        let Some(file) = &self.file else { return };
        let appended = std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(file)
            .and_then(|mut f| f.write_all(b"."));
        if let Err(e) = appended {
            tracing::error!(file = %file.display(), error = %e,
                "could not mark a credentials change: other processes may accept the \
                 old credential for up to {} s", MAX_AGE.as_secs());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(disabled: bool) -> User {
        User {
            id: 1,
            name: "ann".into(),
            is_admin: false,
            disabled,
            created_at: String::new(),
        }
    }

    #[test]
    fn a_change_in_any_process_ends_what_was_kept() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("grundy.db");
        let here = Credentials::beside(&db);
        let elsewhere = Credentials::beside(&db);
        let before = here.mark().expect("a mark");
        here.keep(b"t", &user(false), before);
        assert_eq!(here.kept(b"t", before).map(|u| u.id), Some(1));
        // Another process (its own `Credentials` on the same file) changes.
        elsewhere.changed();
        let after = here.mark().expect("a mark");
        assert_ne!(before, after);
        assert!(here.kept(b"t", after).is_none());
        // A file replaced is another mark.
        here.keep(b"t", &user(false), after);
        std::fs::remove_file(dir.path().join("grundy.db-credentials")).unwrap();
        assert!(here.mark().is_none(), "no file, no mark: nothing is used");
        let _ = Credentials::beside(&db);
        let again = here.mark().expect("a mark file made again");
        assert_ne!(again, after);
        assert!(here.kept(b"t", again).is_none());
    }

    #[test]
    fn nothing_is_kept_without_a_mark_file() {
        let none = Credentials::none();
        assert!(none.mark().is_none());
        let dir = tempfile::tempdir().unwrap();
        let unwritable = dir.path().join("missing-dir").join("grundy.db");
        assert!(Credentials::beside(&unwritable).mark().is_none());
    }
}
