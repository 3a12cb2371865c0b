//! Problem packages through the database, for workers on machines that
//! have only its URL: both halves of the protocol. The publisher
//! ([`publish`]: an admin's upload; [`publish_many`]: `grundy publish`;
//! [`publish_held`]: `grundy serve` at start on PostgreSQL) builds each problem's tests, then stores the package blob (named by its SHA-256),
//! the test set's index, and every input and answer by its SHA-256. A
//! worker fetches a version it lacks into its data directory and takes
//! the publisher's tests from the database: each file is checked against
//! its published hash before the set is put in place, so a judging
//! machine runs none of the package's generators, validators or reference
//! solvers, and needs no toolchain but its submissions' (and the
//! package's checker's). Before judging anything of a version, the tests
//! it judges with are checked against the publisher's hashes once more: a
//! mismatch (altered files) makes it refuse the problem, record why for
//! the admins, and never claim it again. A version published before the
//! tests were stored is built here, as before, and checked the same way.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::context::Context;
use crate::data::{Index, TestSet};
use crate::problem::{archive, Catalog};
use crate::store::{self, Queue};

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
    #[error("the published tests: {0}")]
    Tests(String),
}

/// Builds problem `slug`'s tests and publishes its package with them;
/// returns the package's hash.
///
/// # Errors
/// A package that does not load or build, or a database failure.
pub async fn publish(
    ctx: &std::sync::Arc<Context>,
    store: &store::Store,
    slug: &str,
) -> Result<String, PackageError> {
    let (ctx2, slug2) = (ctx.clone(), slug.to_string());
    let (blob, index, files) = tokio::task::spawn_blocking(move || {
        let problem = ctx2.catalog.load(&slug2)?;
        let set = ctx2.test_data().ensure(&problem, &|_| {})?;
        let blob = archive::pack(&ctx2.catalog.root, &slug2)?;
        // The files as they are on disk, each named by the hash it has:
        // one altered since its set was built does not have the hash the
        // index gives it, and workers refuse the set.
        let mut files = Vec::with_capacity(2 * set.index.tests.len());
        for t in &set.index.tests {
            for path in [set.input(t), set.answer(t)] {
                let bytes =
                    std::fs::read(&path).map_err(|source| PackageError::Hash { path, source })?;
                files.push((crate::digest::sha256(&bytes), bytes));
            }
        }
        Ok::<_, PackageError>((blob, set.index, files))
    })
    .await
    .map_err(|e| PackageError::Join(e.to_string()))??;
    let hash = crate::digest::sha256(&blob);
    // Plain strings and numbers always serialize.
    let tests = serde_json::to_string(&index).unwrap_or_default();
    store
        .publish_package(slug, (&hash, &blob), &tests, &files)
        .await?;
    Ok(hash)
}

/// How long a server's hold on a problem it prepares lasts unless renewed
/// (it renews a third of this apart): a server that died stops holding
/// its problems this long after.
pub const PREPARING_HOLD: std::time::Duration = std::time::Duration::from_secs(60);

/// One problem of [`publish_many`] as it is done: its place in the list
/// given, its slug, how many are done of how many, and its package's hash
/// or why it was not published.
pub struct Published<'a> {
    pub index: usize,
    pub slug: &'a str,
    pub done: usize,
    pub total: usize,
    pub result: Result<String, PackageError>,
}

/// How many problems [`publish_many`] builds at once on `store`: as many
/// as the machine has cores on PostgreSQL (building a problem's tests
/// runs its generators and solvers), one at a time on SQLite, which takes
/// one writer at a time.
pub fn publishing_at_once(store: &store::Store, total: usize) -> usize {
    match store.notifies() {
        true => std::thread::available_parallelism().map_or(1, |n| n.get()),
        false => 1,
    }
    .clamp(1, total.max(1))
}

/// Publishes each of `slugs` ([`publishing_at_once`] at a time), calling
/// `each` as each is done, in the order they finish. A server that holds
/// them (`held`: its name, see [`Store::hold_preparing`](store::Store::hold_preparing))
/// lets go of each as it is done, published or not (a problem not
/// published is judged from the problems directory). Returns how many
/// were not published.
///
/// # Errors
/// A database failure letting go of a problem.
pub async fn publish_many(
    ctx: &std::sync::Arc<Context>,
    store: &store::Store,
    slugs: &[String],
    held: Option<&str>,
    mut each: impl FnMut(Published<'_>),
) -> Result<usize, store::Error> {
    use futures_util::stream::{self, StreamExt as _};
    let total = slugs.len();
    let mut published = stream::iter(slugs.iter().enumerate())
        .map(|(index, slug)| async move { (index, slug, publish(ctx, store, slug).await) })
        .buffer_unordered(publishing_at_once(store, total));
    let (mut done, mut failed) = (0, 0);
    while let Some((index, slug, result)) = published.next().await {
        done += 1;
        if let Some(server) = held {
            store.end_preparing(server, slug).await?;
        }
        failed += usize::from(result.is_err());
        each(Published {
            index,
            slug,
            done,
            total,
            result,
        });
    }
    Ok(failed)
}

/// Publishes `slugs` for server `server`, which holds them until each is
/// done ([`publish_many`]), renewing its holds on those still waiting
/// every third of [`PREPARING_HOLD`]; `each` as there.
///
/// # Errors
/// As [`publish_many`].
pub async fn publish_held(
    ctx: &std::sync::Arc<Context>,
    store: &store::Store,
    server: &str,
    slugs: &[String],
    each: impl FnMut(Published<'_>),
) -> Result<usize, store::Error> {
    let renewing = async {
        let mut every = tokio::time::interval(PREPARING_HOLD / 3);
        loop {
            every.tick().await;
            if let Err(e) = store.renew_preparing(server, PREPARING_HOLD).await {
                tracing::warn!(error = %crate::errors::chain(&e), "renewing the hold on problems being prepared failed");
            }
        }
    };
    tokio::select! {
        () = renewing => unreachable!("the holds are renewed until publishing ends"),
        result = publish_many(ctx, store, slugs, Some(server), each) => result,
    }
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
pub fn hashes_of(set: &TestSet) -> Result<Vec<TestHashes>, PackageError> {
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
    // The index of the publisher's test set; a version published before
    // the tests were stored has only their hashes.
    let index: Option<Index> = serde_json::from_str(&published.tests).ok();
    let tests: Vec<TestHashes> = match &index {
        Some(index) => index
            .tests
            .iter()
            .map(|t| TestHashes {
                name: t.name.clone(),
                input_sha256: t.input_sha256.clone(),
                answer_sha256: t.answer_sha256.clone(),
            })
            .collect(),
        None => serde_json::from_str(&published.tests).map_err(|e| {
            archive::ArchiveError::Malformed(format!("the recorded tests of {slug}: {e}"))
        })?,
    };
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
    let catalog = Catalog::new(root);
    if let Some(index) = index {
        take_tests(queue, ctx, &catalog, slug, index).await?;
    }
    Ok(Some(Fetched {
        hash: published.hash,
        catalog,
        tests,
    }))
}

/// Puts the publisher's test set of `slug` in place on this machine, where
/// it is not yet: every input and answer fetched by its hash, checked
/// against it, and the set adopted whole ([`crate::data::TestData::adopt`]).
async fn take_tests<Q: Queue>(
    queue: &Q,
    ctx: &Context,
    catalog: &Catalog,
    slug: &str,
    index: Index,
) -> Result<(), PackageError> {
    let (data, catalog2, slug2) = (ctx.test_data(), catalog.clone(), slug.to_string());
    let (problem, scratch) = tokio::task::spawn_blocking(move || {
        let problem = catalog2.load(&slug2)?;
        if data.existing(&problem)?.is_some() {
            return Ok::<_, PackageError>((problem, None));
        }
        let scratch = data.scratch(&problem)?;
        Ok((problem, Some(scratch)))
    })
    .await
    .map_err(|e| PackageError::Join(e.to_string()))??;
    let Some(scratch) = scratch else {
        return Ok(());
    };
    for t in &index.tests {
        for (kind, sha) in [("in", &t.input_sha256), ("ans", &t.answer_sha256)] {
            let bytes = queue.test_file(sha).await?.ok_or_else(|| {
                PackageError::Tests(format!("test {}: {sha} is not stored", t.name))
            })?;
            if crate::digest::sha256(&bytes) != *sha {
                return Err(PackageError::Tests(format!(
                    "test {}: the stored .{kind} does not match its hash (hash mismatch)",
                    t.name
                )));
            }
            let path = scratch.path().join(format!("{}.{kind}", t.name));
            tokio::fs::write(&path, &bytes)
                .await
                .map_err(|source| PackageError::Hash { path, source })?;
        }
    }
    let data = ctx.test_data();
    tokio::task::spawn_blocking(move || data.adopt(&problem, index, scratch))
        .await
        .map_err(|e| PackageError::Join(e.to_string()))??;
    Ok(())
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
            "built {} where the publisher built {}",
            crate::plural::count(here.len(), "test", "tests"),
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
