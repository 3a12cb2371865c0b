//! Problem packages through the database, for workers on machines that
//! have only its URL. The publisher (`grundy publish`, or `grundy serve`
//! at start on PostgreSQL) builds each problem's tests, then stores the
//! package blob (named by its SHA-256) with every test's input and answer
//! hashes. A worker fetches a version it lacks into its data directory,
//! builds the tests itself (deterministically, from the package) and,
//! before judging anything of that version, checks every input and answer
//! against the publisher's hashes: a mismatch (a generator that behaves
//! differently there, altered files) makes it refuse the problem, record
//! why for the admins, and never claim it again.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::data::TestSet;
use crate::problem::{archive, Catalog};
use crate::store::{self, Queue, Store};

/// What publishing or fetching a package ran into.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error(transparent)]
    Store(#[from] store::Error),
    #[error(transparent)]
    Archive(#[from] archive::ArchiveError),
    #[error(transparent)]
    Problem(#[from] crate::problem::Error),
    #[error(transparent)]
    Data(#[from] crate::data::Error),
    #[error("{path}: {source}")]
    Hash {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the publishing thread failed: {0}")]
    Join(String),
}

/// One test as its publisher built it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestHashes {
    pub name: String,
    pub input_sha256: String,
    pub answer_sha256: String,
}

/// A published version ready on this machine: a catalog holding it, and
/// the hashes its tests must have.
#[derive(Debug, Clone)]
pub struct Fetched {
    pub hash: String,
    pub catalog: Catalog,
    pub tests: Vec<TestHashes>,
}

/// Every test's hashes, read from the files of `set` (not from its index:
/// the files are what a submission is judged on).
fn hashes_of(set: &TestSet) -> Result<Vec<TestHashes>, PackageError> {
    let hash = |path: PathBuf| {
        crate::digest::sha256_file(&path)
            .map(|(h, _)| h)
            .map_err(|source| PackageError::Hash { path, source })
    };
    set.index
        .tests
        .iter()
        .map(|t| {
            Ok(TestHashes {
                name: t.name.clone(),
                input_sha256: hash(set.input(t))?,
                answer_sha256: hash(set.answer(t))?,
            })
        })
        .collect()
}

/// Builds problem `slug`'s tests and publishes its package with their
/// hashes; returns the package's hash.
///
/// # Errors
/// A package that does not load or build, or a database failure.
pub async fn publish(
    ctx: &Arc<Context>,
    store: &Store,
    slug: &str,
) -> Result<String, PackageError> {
    let (ctx2, slug2) = (ctx.clone(), slug.to_string());
    let (blob, tests) = tokio::task::spawn_blocking(move || {
        let problem = ctx2.catalog.load(&slug2)?;
        let set = ctx2.test_data().ensure(&problem, &|_| {})?;
        let blob = archive::pack(&ctx2.catalog.root, &slug2)?;
        Ok::<_, PackageError>((blob, hashes_of(&set)?))
    })
    .await
    .map_err(|e| PackageError::Join(e.to_string()))??;
    let hash = crate::digest::sha256(&blob);
    // A list of plain strings always serializes.
    let tests = serde_json::to_string(&tests).unwrap_or_default();
    store.publish_package(slug, &hash, &blob, &tests).await?;
    Ok(hash)
}

/// The published version of `slug` on this machine (fetched and unpacked
/// into the data directory where missing); `None` where nothing is
/// published (the problems directory is the catalog then).
///
/// # Errors
/// A database failure, or a blob that does not match its name or unpack.
pub async fn fetch<Q: Queue>(
    queue: &Q,
    ctx: &Context,
    slug: &str,
) -> Result<Option<Fetched>, PackageError> {
    let Some(published) = queue.published(slug).await? else {
        return Ok(None);
    };
    let tests: Vec<TestHashes> = serde_json::from_str(&published.tests).map_err(|e| {
        archive::ArchiveError::Malformed(format!("the recorded tests of {slug}: {e}"))
    })?;
    let root = ctx.config.data_dir.join("packages").join(&published.hash);
    if !root.join(slug).is_dir() {
        let blob = queue.package_blob(&published.hash).await?.ok_or_else(|| {
            archive::ArchiveError::Malformed(format!("package {} is not stored", published.hash))
        })?;
        if crate::digest::sha256(&blob) != published.hash {
            return Err(archive::ArchiveError::Malformed(format!(
                "package {} does not match its hash",
                published.hash
            ))
            .into());
        }
        let root2 = root.clone();
        tokio::task::spawn_blocking(move || unpack_into(&blob, &root2))
            .await
            .map_err(|e| PackageError::Join(e.to_string()))??;
    }
    Ok(Some(Fetched {
        hash: published.hash,
        catalog: Catalog::new(root),
        tests,
    }))
}

/// Unpacks beside `root` and renames into place, so a half-written
/// package is never taken for a whole one.
fn unpack_into(blob: &[u8], root: &std::path::Path) -> Result<(), PackageError> {
    let parent = root.parent().unwrap_or(root);
    std::fs::create_dir_all(parent).map_err(|source| archive::ArchiveError::Write {
        path: parent.to_path_buf(),
        source,
    })?;
    let tmp = tempfile::Builder::new()
        .prefix(".unpacking-")
        .tempdir_in(parent)
        .map_err(|source| archive::ArchiveError::Write {
            path: parent.to_path_buf(),
            source,
        })?;
    archive::unpack(blob, tmp.path())?;
    let tmp = tmp.keep();
    if std::fs::rename(&tmp, root).is_err() {
        // Another worker put it in place first.
        let _ = std::fs::remove_dir_all(&tmp);
    }
    Ok(())
}

/// Why this machine's build of a published version cannot be used, if it
/// cannot: every test the publisher built, in order, with the same input
/// and answer bytes.
///
/// # Errors
/// A test file that cannot be read.
pub fn mismatch(set: &TestSet, recorded: &[TestHashes]) -> Result<Option<String>, PackageError> {
    let here = hashes_of(set)?;
    if here.len() != recorded.len() {
        return Ok(Some(format!(
            "built {} tests where the publisher built {}",
            here.len(),
            recorded.len()
        )));
    }
    for (mine, theirs) in here.iter().zip(recorded) {
        if mine.name != theirs.name {
            return Ok(Some(format!(
                "test {} here is test {} at the publisher",
                mine.name, theirs.name
            )));
        }
        if mine.input_sha256 != theirs.input_sha256 {
            return Ok(Some(format!("test {}: the input differs", mine.name)));
        }
        if mine.answer_sha256 != theirs.answer_sha256 {
            return Ok(Some(format!("test {}: the answer differs", mine.name)));
        }
    }
    Ok(None)
}
