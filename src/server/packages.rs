//! Publishing problem packages through the database, for workers on
//! machines that have only its URL (`grundy publish`, or `grundy serve` at
//! start on PostgreSQL): this machine builds each problem's tests, then
//! stores the package blob (named by its SHA-256), the test set's index,
//! and every input and answer by its SHA-256, which the workers take
//! instead of building them (`crate::worker::packages`).

use std::sync::Arc;

use crate::context::Context;
use crate::problem::archive;
use crate::store::Store;
pub use crate::worker::packages::PackageError;

/// Builds problem `slug`'s tests and publishes its package with them;
/// returns the package's hash.
///
/// # Errors
/// A package that does not load or build, or a database failure.
pub async fn publish(
    ctx: &Arc<Context>,
    store: &Store,
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
