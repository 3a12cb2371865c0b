//! Problems through the site: an admin uploads a problem archive (grundy's
//! own layout or a Kattis package, as a ZIP file) on the admin pages or
//! through the API, hides a problem, shows it again or removes it, without
//! a shell on the server.
//!
//! An upload is unpacked into a scratch directory beside the catalog
//! ([`crate::problem::unzip`]: no path out, no link, bounded), a Kattis
//! package imported into grundy's layout as `grundy import` does, and the
//! result checked as `grundy verify` checks a package. Only a package that
//! verifies is renamed into the catalog (replacing the one of its slug
//! when asked to), published to the workers through the database where
//! they judge from it, and its submissions rejudged on request. A refused
//! archive changes nothing: the scratch directory goes, whatever it held.
//! One change to the catalog runs at a time.
//!
//! A problem that a contest holds cannot be removed (its contest would
//! lose it); one with submissions waiting for a worker cannot either,
//! until they are judged. Hiding closes a problem to everyone but admins
//! outside its contests ([`super::practice`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::http::StatusCode;
use tokio::sync::Mutex;

use super::AppState;
use crate::context::Context;
use crate::problem::unzip::{self, Bounds, UnzipError};
use crate::problem::{self, Problem};
use crate::store::Queue as _;
use crate::verify::{self, ProblemReport};

/// What an admin sent.
#[derive(Debug, Clone, Default)]
pub struct Upload {
    /// The ZIP archive's bytes.
    pub archive: Vec<u8>,
    /// The problem's slug; by default the archive's folder's name (or a
    /// Kattis package's short name).
    pub slug: Option<String>,
    /// Replace the problem of that slug, if there is one (without it an
    /// existing problem is refused).
    pub replace: bool,
    /// Rejudge the problem's submissions once it is in place.
    pub rejudge: bool,
}

/// What an upload did.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Uploaded {
    pub slug: String,
    pub name: String,
    /// Whether a problem of that slug was replaced.
    pub replaced: bool,
    /// The hash of the package published to the workers, where they judge
    /// from published packages (PostgreSQL).
    pub published: Option<String>,
    /// How many submissions were queued again, when a rejudge was asked.
    pub rejudged: Option<u64>,
    /// What the import noted (a Kattis package's derived time limit, what
    /// grundy skips of it).
    pub notes: Vec<String>,
    /// The verification's report, as `grundy verify --json` gives it.
    pub report: ProblemReport,
}

/// A problem of the catalog as the admin's list shows it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Listed {
    pub slug: String,
    /// Its name, when it loads.
    pub name: Option<String>,
    /// Why it does not load, when it does not.
    pub error: Option<String>,
    pub hidden: bool,
    /// The contests that hold it (it cannot be removed while one does).
    pub contests: Vec<String>,
}

/// Why a change to the catalog was refused: one line each.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("the archive: {0}")]
    Archive(#[from] UnzipError),
    #[error("the archive is over the upload limit of {0} MiB")]
    TooLarge(u64),
    #[error("{0}")]
    Package(String),
    #[error("{0:?} is not a slug (lower-case letters, digits and -, at most 64)")]
    Slug(String),
    #[error("problem {0:?} exists: upload it with replace to change it")]
    Exists(String),
    #[error("unknown problem {0:?}")]
    Unknown(String),
    #[error("the package did not verify: {}", failed(.0))]
    NotVerified(Box<ProblemReport>),
    #[error("problem {slug:?} is held by {}: take it out of them first", contests_word(.contests))]
    InContest { slug: String, contests: Vec<String> },
    #[error(
        "problem {slug:?} has {} waiting to be judged: remove it once they are judged",
        crate::plural::count(.waiting, "submission", "submissions")
    )]
    Waiting { slug: String, waiting: i64 },
    /// The judge's own failure (logged; the caller is told only that).
    #[error("the judge failed: {0}")]
    Internal(String),
}

fn contests_word(contests: &[String]) -> String {
    let noun = crate::plural::plural(contests.len(), "contest", "contests");
    format!("{noun} {}", contests.join(", "))
}

/// The failed checks' names, for the one-line refusal.
fn failed(report: &ProblemReport) -> String {
    let mut names: Vec<String> = report
        .checks
        .iter()
        .filter(|c| !c.ok)
        .map(|c| c.name.as_str().to_string())
        .collect();
    if report.submissions.iter().any(|s| !s.ok && !s.skipped) {
        names.push("example submissions".into());
    }
    match names.is_empty() {
        true => "see the report".into(),
        false => format!("failed {}", names.join(", ")),
    }
}

impl CatalogError {
    pub fn status(&self) -> StatusCode {
        match self {
            CatalogError::Archive(_) | CatalogError::Package(_) | CatalogError::Slug(_) => {
                StatusCode::BAD_REQUEST
            }
            CatalogError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            CatalogError::Exists(_)
            | CatalogError::InContest { .. }
            | CatalogError::Waiting { .. } => StatusCode::CONFLICT,
            CatalogError::Unknown(_) => StatusCode::NOT_FOUND,
            CatalogError::NotVerified(_) => StatusCode::UNPROCESSABLE_ENTITY,
            CatalogError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            CatalogError::Archive(_) => "bad_archive",
            CatalogError::TooLarge(_) => "archive_too_large",
            CatalogError::Package(_) => "bad_package",
            CatalogError::Slug(_) => "bad_slug",
            CatalogError::Exists(_) => "problem_exists",
            CatalogError::Unknown(_) => "unknown_problem",
            CatalogError::NotVerified(_) => "not_verified",
            CatalogError::InContest { .. } => "problem_in_contest",
            CatalogError::Waiting { .. } => "submissions_waiting",
            CatalogError::Internal(_) => "internal",
        }
    }

    fn internal(what: &str, e: &dyn std::fmt::Display) -> CatalogError {
        tracing::error!(error = %e, "{what}");
        CatalogError::Internal(what.to_string())
    }
}

impl From<crate::store::Error> for CatalogError {
    fn from(e: crate::store::Error) -> Self {
        CatalogError::internal("the database failed", &e)
    }
}

/// `report` in `grundy verify`'s words, as the admin page shows it.
pub fn report_text(report: &ProblemReport) -> String {
    let mut out = Vec::new();
    let _ = verify::write_human(&mut out, report);
    String::from_utf8_lossy(&out).into_owned()
}

/// One change to the catalog at a time (a second upload waits for the
/// first's verification).
static CHANGING: Mutex<()> = Mutex::const_new(());

/// Whether `slug` can name a problem of the catalog.
pub fn valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug.len() <= 64
        && !slug.starts_with('-')
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

/// Unpacks, imports, verifies and installs `upload`; publishes it and
/// rejudges it as asked.
///
/// # Errors
/// [`CatalogError`]: a refused archive or package (nothing changed), or
/// the judge's own failure.
pub async fn upload(state: &AppState, upload: Upload) -> Result<Uploaded, CatalogError> {
    let limit = state.ctx.config.server.upload_limit_mib;
    if upload.archive.len() as u64 > limit << 20 {
        return Err(CatalogError::TooLarge(limit));
    }
    let _changing = CHANGING.lock().await;
    let ctx = state.ctx.clone();
    let rejudge = upload.rejudge;
    let staged = tokio::task::spawn_blocking(move || stage(&ctx, &upload))
        .await
        .map_err(|e| CatalogError::internal("the upload's thread failed", &e))??;
    let ctx = state.ctx.clone();
    let name = staged.slug.clone();
    let installed = tokio::task::spawn_blocking(move || install(&ctx, staged))
        .await
        .map_err(|e| CatalogError::internal("the upload's thread failed", &e))??;
    let Installed {
        replaced,
        report,
        notes,
        title,
    } = installed;
    tracing::info!(slug = %name, replaced, "problem uploaded");
    let published = match state.store.notifies() {
        true => Some(
            crate::worker::packages::publish(&state.ctx, &state.store, &name)
                .await
                .map_err(|e| CatalogError::internal("publishing the problem failed", &e))?,
        ),
        false => None,
    };
    let rejudged = match rejudge {
        true => {
            let done = state.store.rejudge_problem(&name).await?;
            for _ in 0..done.queued.min(64) {
                state.wake.notify_one();
            }
            Some(done.queued as u64)
        }
        false => None,
    };
    Ok(Uploaded {
        slug: name,
        name: title,
        replaced,
        published,
        rejudged,
        notes,
        report,
    })
}

/// An upload unpacked, imported and verified in its scratch directory.
struct Staged {
    /// Removed with everything in it when dropped.
    scratch: tempfile::TempDir,
    /// The verified package, `scratch/problems/<slug>`.
    dir: PathBuf,
    slug: String,
    replace: bool,
    title: String,
    notes: Vec<String>,
    report: ProblemReport,
}

struct Installed {
    replaced: bool,
    report: ProblemReport,
    notes: Vec<String>,
    title: String,
}

fn io_error(path: &Path, e: std::io::Error) -> CatalogError {
    CatalogError::internal(&format!("writing {}", path.display()), &e)
}

/// Everything of an upload that happens before the catalog changes.
fn stage(ctx: &Context, upload: &Upload) -> Result<Staged, CatalogError> {
    let root = &ctx.config.problems_dir;
    std::fs::create_dir_all(root).map_err(|e| io_error(root, e))?;
    let scratch = tempfile::Builder::new()
        .prefix(".upload-")
        .tempdir_in(root)
        .map_err(|e| io_error(root, e))?;
    let at = scratch.path().to_path_buf();
    stage_in(ctx, upload, scratch).map_err(|e| scrub(e, &at))
}

/// [`stage`] in its scratch directory.
fn stage_in(
    ctx: &Context,
    upload: &Upload,
    scratch: tempfile::TempDir,
) -> Result<Staged, CatalogError> {
    let root = &ctx.config.problems_dir;
    let unpacked = scratch.path().join("archive");
    std::fs::create_dir(&unpacked).map_err(|e| io_error(&unpacked, e))?;
    let limit = ctx.config.server.upload_limit_mib << 20;
    let bounds = Bounds {
        bytes: limit,
        entries: 20_000,
    };
    unzip::unzip(&upload.archive, &unpacked, bounds)?;
    let Some(package) = unzip::package_root(&unpacked) else {
        return Err(CatalogError::Package(
            "no problem.toml or problem.yaml at the archive's top or in its one folder".into(),
        ));
    };
    let kattis = package.join("problem.yaml").is_file() && !package.join("problem.toml").is_file();
    let slug = match (&upload.slug, package == unpacked) {
        (Some(slug), _) => slug.trim().to_string(),
        (None, false) => package
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        (None, true) if kattis => {
            let loaded = problem::kattis::load(&package).map_err(package_error)?;
            crate::import::default_slug(&loaded)
        }
        (None, true) => {
            return Err(CatalogError::Package(
                "the archive has no folder to name the problem after: give a slug".into(),
            ))
        }
    };
    if !valid_slug(&slug) {
        return Err(CatalogError::Slug(slug));
    }
    if root.join(&slug).exists() && !upload.replace {
        return Err(CatalogError::Exists(slug));
    }
    // The catalog's shared code, which a package's programs may include
    // from `../_common/`.
    let problems = scratch.path().join("problems");
    std::fs::create_dir(&problems).map_err(|e| io_error(&problems, e))?;
    let common = root.join("_common");
    if common.is_dir() {
        problem::copy_tree(&common, &problems.join("_common"))
            .map_err(|(path, e)| io_error(&path, e))?;
    }
    let dir = problems.join(&slug);
    let mut notes = Vec::new();
    if kattis {
        // Named by its slug first: its test data is kept under that name.
        let named = scratch.path().join("kattis").join(&slug);
        std::fs::create_dir_all(scratch.path().join("kattis"))
            .and_then(|()| std::fs::rename(&package, &named))
            .map_err(|e| io_error(&named, e))?;
        notes = import_kattis(ctx, &named, &problems, &slug)?.1;
    } else {
        std::fs::rename(&package, &dir).map_err(|e| io_error(&dir, e))?;
    }
    let loaded = Problem::load(&dir).map_err(package_error)?;
    let report = verify::verify(
        &ctx.test_data(),
        &ctx.judge(),
        ctx.config.limits.source_limit,
        &loaded,
        verify::Options { stress: None },
        &|_| {},
    )
    .map_err(|e| CatalogError::internal("verifying the upload failed", &e))?;
    if !report.verified {
        return Err(CatalogError::NotVerified(Box::new(report)));
    }
    Ok(Staged {
        scratch,
        dir,
        slug,
        replace: upload.replace,
        title: loaded.manifest.name.clone(),
        notes,
        report,
    })
}

/// A package's own fault, in one line that names the file.
fn package_error(e: problem::Error) -> CatalogError {
    CatalogError::Package(crate::errors::chain(&e))
}

/// `e` with the upload's scratch directory left out of the paths it
/// names: the admin reads paths inside the archive, never the server's.
fn scrub(e: CatalogError, scratch: &Path) -> CatalogError {
    match e {
        CatalogError::Package(text) => {
            let mut text = text;
            for part in ["problems/", "kattis/", "archive/", ""] {
                text = text.replace(&format!("{}/{part}", scratch.display()), "");
            }
            CatalogError::Package(text)
        }
        other => other,
    }
}

/// The Kattis package in `dir` (named by its slug) imported into
/// `problems_dir` as `grundy import` does: its tests built, its time limit
/// derived from its accepted submissions unless it fixes one. Returns what
/// was written and what the import notes.
///
/// # Errors
/// A package grundy's layout cannot hold or whose tests do not build
/// ([`CatalogError::Package`]); the judge's own failures.
pub fn import_kattis(
    ctx: &Context,
    dir: &Path,
    problems_dir: &Path,
    slug: &str,
) -> Result<(crate::import::Summary, Vec<String>), CatalogError> {
    let problem = problem::kattis::load(dir).map_err(package_error)?;
    crate::import::importable(&problem)
        .map_err(|e| CatalogError::Package(crate::errors::chain(&e)))?;
    let data = ctx.test_data();
    let set = Arc::new(
        data.ensure(&problem, &|_| {})
            .map_err(|e| CatalogError::Package(crate::errors::chain(&e)))?,
    );
    let derived = crate::judge::derive::time_limit(
        &ctx.judge(),
        &data,
        ctx.config.limits.source_limit,
        &problem,
        &set,
    )
    .map_err(|e| CatalogError::internal("deriving the time limit failed", &e))?;
    let (time_limit, mut notes) = match &derived {
        Some(d) => (d.seconds, vec![format!("time limit {}", d.how)]),
        None => (
            problem.manifest.time_limit,
            vec![format!(
                "time limit {} s, as the package fixes it",
                problem.manifest.time_limit
            )],
        ),
    };
    let summary = crate::import::kattis(&problem, time_limit, problems_dir, slug)
        .map_err(|e| CatalogError::Package(crate::errors::chain(&e)))?;
    // What was written must load as a native problem.
    Problem::load(&summary.dir)
        .map_err(|e| CatalogError::Package(format!("the imported problem does not load: {e}")))?;
    notes.extend(
        problem
            .kattis
            .iter()
            .flat_map(|k| k.skipped.iter().map(|s| format!("note: {s}"))),
    );
    Ok((summary, notes))
}

/// Renames a verified package into the catalog, the old one of its slug
/// out first (and back, if the new one cannot go in).
fn install(ctx: &Context, staged: Staged) -> Result<Installed, CatalogError> {
    let target = ctx.config.problems_dir.join(&staged.slug);
    let old = staged.scratch.path().join("replaced");
    let replaced = target.exists();
    if replaced {
        if !staged.replace {
            return Err(CatalogError::Exists(staged.slug));
        }
        std::fs::rename(&target, &old).map_err(|e| io_error(&target, e))?;
    }
    if let Err(e) = std::fs::rename(&staged.dir, &target) {
        if replaced {
            let _ = std::fs::rename(&old, &target);
        }
        return Err(io_error(&target, e));
    }
    // The scratch directory, with the replaced package, goes here.
    drop(staged.scratch);
    Ok(Installed {
        replaced,
        report: staged.report,
        notes: staged.notes,
        title: staged.title,
    })
}

/// Hides catalog problem `slug` from all but admins, or shows it again;
/// returns whether that changed anything.
///
/// # Errors
/// [`CatalogError::Unknown`] for a problem the catalog lacks; database
/// failures.
pub async fn set_hidden(state: &AppState, slug: &str, hidden: bool) -> Result<bool, CatalogError> {
    let _changing = CHANGING.lock().await;
    // Showing one that is gone from the catalog is allowed: it only
    // clears the row.
    if hidden && !exists(&state.ctx, slug) {
        return Err(CatalogError::Unknown(slug.to_string()));
    }
    let changed = state.store.set_problem_hidden(slug, hidden).await?;
    tracing::info!(slug, hidden, changed, "problem visibility set");
    Ok(changed)
}

fn exists(ctx: &Context, slug: &str) -> bool {
    valid_slug(slug) && ctx.config.problems_dir.join(slug).is_dir()
}

/// Removes catalog problem `slug`, unless a contest holds it or
/// submissions of it wait to be judged.
///
/// # Errors
/// [`CatalogError`]: unknown, held or waiting; the judge's own failures.
pub async fn remove(state: &AppState, slug: &str) -> Result<(), CatalogError> {
    let _changing = CHANGING.lock().await;
    if !exists(&state.ctx, slug) {
        return Err(CatalogError::Unknown(slug.to_string()));
    }
    let contests = state.store.contests_holding(slug).await?;
    if !contests.is_empty() {
        return Err(CatalogError::InContest {
            slug: slug.to_string(),
            contests,
        });
    }
    let waiting = state.store.waiting_of_problem(slug).await?;
    if waiting > 0 {
        return Err(CatalogError::Waiting {
            slug: slug.to_string(),
            waiting,
        });
    }
    let root = state.ctx.config.problems_dir.clone();
    let slug2 = slug.to_string();
    tokio::task::spawn_blocking(move || {
        // Out of the catalog at once (one rename), then deleted.
        let gone = tempfile::Builder::new()
            .prefix(".removed-")
            .tempdir_in(&root)
            .map_err(|e| io_error(&root, e))?;
        let from = root.join(&slug2);
        std::fs::rename(&from, gone.path().join(&slug2)).map_err(|e| io_error(&from, e))?;
        Ok::<_, CatalogError>(())
    })
    .await
    .map_err(|e| CatalogError::internal("the removal's thread failed", &e))??;
    state.store.set_problem_hidden(slug, false).await?;
    tracing::info!(slug, "problem removed");
    Ok(())
}

/// Every problem of the catalog, loaded or not, with its state.
///
/// # Errors
/// The problems directory cannot be read; database failures.
pub async fn list(state: &AppState) -> Result<Vec<Listed>, CatalogError> {
    let hidden = state.store.hidden_catalog().await?;
    let ctx = state.ctx.clone();
    let loaded = tokio::task::spawn_blocking(move || {
        let slugs = ctx.catalog.slugs()?;
        Ok::<_, problem::Error>(
            slugs
                .into_iter()
                .map(|slug| {
                    let name = ctx
                        .catalog
                        .load(&slug)
                        .map(|p| p.manifest.name)
                        .map_err(|e| e.to_string());
                    (slug, name)
                })
                .collect::<Vec<_>>(),
        )
    })
    .await
    .map_err(|e| CatalogError::internal("listing the problems failed", &e))?
    .map_err(|e| CatalogError::internal("listing the problems failed", &e))?;
    let mut out = Vec::with_capacity(loaded.len());
    for (slug, name) in loaded {
        out.push(Listed {
            hidden: hidden.contains(&slug),
            contests: state.store.contests_holding(&slug).await?,
            slug,
            error: name.as_ref().err().cloned(),
            name: name.ok(),
        });
    }
    Ok(out)
}
