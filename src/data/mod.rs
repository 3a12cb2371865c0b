//! Test data: turns a problem package into inputs and expected answers
//! under `<data_dir>/tests/<slug>/<key>/`, where the key hashes everything
//! the data depends on (manifest, hand-made inputs, generator, validator,
//! reference solver and their shared code). An unchanged package is never
//! regenerated; any change to one of those files is.
//!
//! Per test: the input is copied or generated, the validator must accept
//! it, and the reference solver's output becomes the answer. The set is
//! built in a scratch directory and renamed into place with its index
//! (`index.json`, holding each test's provenance) written last, so a
//! crash never leaves a half-built set that looks complete.

mod check;
mod programs;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::config::CompileLimits;
use crate::digest::{sha256_file, Fields};
use crate::lang::{self, Languages, ProgramCache};
use crate::problem::{Group, Problem, Role, TestInput};
use crate::sandbox::{self, Limits, Runner};

pub use check::{compare, Mismatch};
pub use programs::{
    package_source, shared_files, PackageProgram, PackagePrograms, PackageSource, Produced,
    SharedFile,
};

/// Errors while producing test data. Every one names the problem and, where
/// it applies, the test and the program.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{slug}: {role} does not compile:\n{message}")]
    Compile {
        slug: String,
        role: &'static str,
        message: String,
    },
    #[error("{slug}: test {test}: {what}")]
    Test {
        slug: String,
        test: String,
        what: String,
    },
    #[error("{slug}: {path}")]
    Io {
        slug: String,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{slug}: test data at {path} is corrupted: {what}")]
    Corrupt {
        slug: String,
        path: PathBuf,
        what: String,
    },
    #[error("{slug}: no recorded test data to check against")]
    NotRecorded { slug: String },
    #[error(transparent)]
    Lang(#[from] lang::Error),
    #[error(transparent)]
    Sandbox(#[from] sandbox::Error),
}

/// One generated test, with its provenance.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestRecord {
    pub name: String,
    pub group: Group,
    /// Generator arguments, or the hand-made file it was copied from.
    pub origin: String,
    /// The generator's `seed=` argument, if it has one (the generator
    /// seeds its PRNG from a hash of all its arguments, seed included).
    #[serde(default)]
    pub seed: Option<String>,
    pub input_sha256: String,
    pub input_bytes: u64,
    pub answer_sha256: String,
    pub answer_bytes: u64,
    /// CPU time the reference solver took, ms.
    pub solver_ms: u64,
}

/// The index of one generated test set.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Index {
    pub slug: String,
    pub key: String,
    pub generator_sha256: Option<String>,
    pub validator_sha256: Option<String>,
    pub solution_sha256: String,
    pub tests: Vec<TestRecord>,
}

/// A ready test set on disk.
#[derive(Debug, Clone)]
pub struct TestSet {
    pub dir: PathBuf,
    pub index: Index,
    /// Whether it was built just now (false: found ready).
    pub built: bool,
}

impl TestSet {
    pub fn input(&self, test: &TestRecord) -> PathBuf {
        self.dir.join(format!("{}.in", test.name))
    }

    pub fn answer(&self, test: &TestRecord) -> PathBuf {
        self.dir.join(format!("{}.ans", test.name))
    }
}

/// Progress of a build, for the command line.
#[derive(Debug, Clone)]
pub enum Progress {
    Compiling,
    Test { done: usize, total: usize },
}

/// Where test data lives and how it is produced. Cheap to clone; owns
/// what it shares, so a worker can move it into a task of its own.
#[derive(Clone)]
pub struct TestData {
    pub root: PathBuf,
    pub runner: Arc<dyn Runner>,
    pub languages: Arc<Languages>,
    pub cache: Arc<ProgramCache>,
    pub compile: CompileLimits,
    /// Worker threads for generating (at least 1); the runner's budget of
    /// concurrent runs bounds them anyway.
    pub jobs: usize,
}

/// Limits for the package's own programs (generator, validator, solvers).
pub fn trusted_limits(time_limit: f64) -> Limits {
    let cpu = Duration::from_secs_f64((time_limit * 10.0).max(10.0));
    Limits::new(cpu, 2 << 30).wall(cpu * 2).output(256 << 20)
}

/// Limits for a package's own programs: a Kattis package's validation
/// limits (`limits.validation_time`, `validation_memory`,
/// `validation_output`; Kattis's defaults 60 s, 2048 MiB, 8 MiB), else
/// [`trusted_limits`].
pub fn package_limits(problem: &Problem) -> Limits {
    match &problem.kattis {
        Some(k) => {
            let l = k.limits;
            let cpu = Duration::from_secs_f64(l.validation_time);
            Limits::new(cpu, l.validation_memory_mib << 20)
                .wall(cpu * 2)
                .output(l.validation_output_mib << 20)
        }
        None => trusted_limits(problem.manifest.time_limit),
    }
}

impl TestData {
    /// Compiles the package's programs of these roles (those it has).
    ///
    /// # Errors
    /// When one does not compile, or the toolchain is missing.
    pub fn programs(&self, problem: &Problem, roles: &[Role]) -> Result<PackagePrograms, Error> {
        PackagePrograms::compile(
            problem,
            self.runner.clone(),
            &self.languages,
            &self.cache,
            &self.compile,
            roles,
        )
    }

    /// The key of a package's data: a hash of every file it depends on.
    ///
    /// # Errors
    /// When a file cannot be read.
    pub fn key(&self, problem: &Problem) -> Result<String, Error> {
        let slug = &problem.slug;
        let read = |path: &Path| {
            std::fs::read(path).map_err(|source| Error::Io {
                slug: slug.clone(),
                path: path.to_path_buf(),
                source,
            })
        };
        let mut h = Fields::new();
        let mut add = |label: &str, bytes: &[u8]| {
            h.field(label.as_bytes()).field(bytes);
        };
        add("manifest", &read(&problem.manifest_path())?);
        // Everything read from elsewhere (a Kattis package's testdata.yaml
        // flags, its tests' names) is in the parsed manifest, hashed as
        // JSON: a serialization that says the same for the same manifest
        // in every version of grundy, unlike its `Debug` text.
        let parsed = serde_json::to_vec(&problem.manifest).map_err(|e| Error::Io {
            slug: slug.clone(),
            path: problem.manifest_path(),
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
        })?;
        add("parsed", &parsed);
        for rel in &problem.manifest.input_validators {
            let source =
                programs::package_source(problem, rel).map_err(|(path, source)| Error::Io {
                    slug: slug.clone(),
                    path,
                    source,
                })?;
            add(&rel.display().to_string(), &source.text);
            for (path, bytes) in &source.siblings {
                add(&path.display().to_string(), bytes);
            }
        }
        for role in [Role::Generator, Role::Validator, Role::Solution] {
            let path = problem.program_path(role);
            if path.is_file() {
                add(role.file_name(), &read(&path)?);
            }
        }
        for (rel, text) in programs::shared_files(problem).map_err(|(path, source)| Error::Io {
            slug: slug.clone(),
            path,
            source,
        })? {
            add(&rel.display().to_string(), &text);
        }
        for test in &problem.manifest.tests {
            if let TestInput::File(rel) = &test.input {
                add(&rel.display().to_string(), &read(&problem.dir.join(rel))?);
            }
            if let Some(rel) = &test.answer {
                add(&rel.display().to_string(), &read(&problem.dir.join(rel))?);
            }
        }
        Ok(h.finish())
    }

    fn set_dir(&self, problem: &Problem, key: &str) -> PathBuf {
        self.root.join(&problem.slug).join(key)
    }

    /// The ready test set of a package, if it exists.
    ///
    /// # Errors
    /// When an index exists but cannot be read or lists a missing file.
    pub fn existing(&self, problem: &Problem) -> Result<Option<TestSet>, Error> {
        let key = self.key(problem)?;
        let dir = self.set_dir(problem, &key);
        let index_path = dir.join("index.json");
        if !index_path.exists() {
            return Ok(None);
        }
        let corrupt = |what: String| Error::Corrupt {
            slug: problem.slug.clone(),
            path: dir.clone(),
            what,
        };
        let text = std::fs::read_to_string(&index_path).map_err(|e| corrupt(e.to_string()))?;
        let index: Index =
            serde_json::from_str(&text).map_err(|e| corrupt(format!("index.json: {e}")))?;
        if index.tests.len() != problem.manifest.tests.len() {
            return Err(corrupt("index.json does not match the test plan".into()));
        }
        let set = TestSet {
            dir: dir.clone(),
            index,
            built: false,
        };
        for t in &set.index.tests {
            for (path, bytes) in [
                (set.input(t), t.input_bytes),
                (set.answer(t), t.answer_bytes),
            ] {
                let len = std::fs::metadata(&path).map(|m| m.len()).ok();
                if len != Some(bytes) {
                    return Err(corrupt(format!(
                        "{} is missing or has the wrong size",
                        path.display()
                    )));
                }
            }
        }
        Ok(Some(set))
    }

    /// The package's test set, built now if it is missing.
    ///
    /// # Errors
    /// When a program does not compile or fails, an input is invalid, or
    /// the data directory cannot be written.
    pub fn ensure(
        &self,
        problem: &Problem,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<TestSet, Error> {
        if let Some(set) = self.existing(problem)? {
            return Ok(set);
        }
        // One build of a package version at a time, across threads and
        // processes (a server and its workers): the others wait for it
        // and then find it built.
        let _lock = self.build_lock(problem)?;
        if let Some(set) = self.existing(problem)? {
            return Ok(set);
        }
        self.build(problem, progress)
    }

    /// An exclusive lock on building `problem`'s current test set (a
    /// `flock` on `<slug>/<key>.lock`), held until dropped.
    fn build_lock(&self, problem: &Problem) -> Result<std::fs::File, Error> {
        use std::os::fd::AsRawFd;
        let key = self.key(problem)?;
        let parent = self.root.join(&problem.slug);
        let path = parent.join(format!("{key}.lock"));
        let io = |source| Error::Io {
            slug: problem.slug.clone(),
            path: path.clone(),
            source,
        };
        std::fs::create_dir_all(&parent).map_err(io)?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io)?;
        loop {
            // SAFETY: plain flock on a descriptor we own.
            if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
                return Ok(file);
            }
            let e = std::io::Error::last_os_error();
            if e.kind() != std::io::ErrorKind::Interrupted {
                return Err(io(e));
            }
        }
    }

    /// Like [`TestData::ensure`], but a corrupted set is rebuilt instead of
    /// reported (what `grundy gen` does).
    ///
    /// # Errors
    /// As [`TestData::build`].
    pub fn mend(
        &self,
        problem: &Problem,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<TestSet, Error> {
        match self.existing(problem) {
            Ok(Some(set)) => Ok(set),
            Ok(None) | Err(Error::Corrupt { .. }) => self.build(problem, progress),
            Err(e) => Err(e),
        }
    }

    /// Builds the package's test set from scratch.
    ///
    /// # Errors
    /// As [`TestData::ensure`].
    pub fn build(
        &self,
        problem: &Problem,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<TestSet, Error> {
        let slug = &problem.slug;
        let key = self.key(problem)?;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            let slug = slug.clone();
            move |source| Error::Io { slug, path, source }
        };
        progress(Progress::Compiling);
        let programs =
            self.programs(problem, &[Role::Generator, Role::Validator, Role::Solution])?;
        let parent = self.root.join(slug);
        std::fs::create_dir_all(&parent).map_err(io(&parent))?;
        let scratch = tempfile::Builder::new()
            .prefix(".build-")
            .tempdir_in(&parent)
            .map_err(io(&parent))?;

        let total = problem.manifest.tests.len();
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let results: Mutex<Vec<Option<Result<TestRecord, Error>>>> =
            Mutex::new((0..total).map(|_| None).collect());
        let failed = std::sync::atomic::AtomicBool::new(false);
        let span = tracing::Span::current();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.max(1) {
                scope.spawn(|| loop {
                    let _entered = span.enter();
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= total || failed.load(Ordering::SeqCst) {
                        break;
                    }
                    let r = self.make_test(problem, &programs, i, scratch.path());
                    if r.is_err() {
                        failed.store(true, Ordering::SeqCst);
                    }
                    // The lock is held only to store a value; poisoning is impossible
                    // short of a panic in `Vec` indexing, which `i < total` rules out.
                    if let Ok(mut slots) = results.lock() {
                        slots[i] = Some(r);
                    }
                    let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(Progress::Test { done: d, total });
                });
            }
        });
        let results = results.into_inner().unwrap_or_default();
        let mut tests = Vec::with_capacity(total);
        for r in results.into_iter().flatten() {
            tests.push(r?);
        }
        let index = Index {
            slug: slug.clone(),
            key: key.clone(),
            generator_sha256: programs.sha256(Role::Generator),
            validator_sha256: programs.sha256(Role::Validator),
            solution_sha256: programs.sha256(Role::Solution).unwrap_or_default(),
            tests,
        };
        let index_path = scratch.path().join("index.json");
        let json = serde_json::to_vec_pretty(&index).unwrap_or_default();
        std::fs::write(&index_path, json).map_err(io(&index_path))?;
        let dir = self.set_dir(problem, &key);
        if std::fs::rename(scratch.path(), &dir).is_err() {
            // Another judge finished the same set first: use theirs.
            if let Ok(Some(set)) = self.existing(problem) {
                return Ok(set);
            }
            // A corrupted set under the same key: replace it.
            std::fs::remove_dir_all(&dir).map_err(io(&dir))?;
            std::fs::rename(scratch.path(), &dir).map_err(io(&dir))?;
        }
        let _ = scratch.keep();
        Ok(TestSet {
            dir,
            index,
            built: true,
        })
    }

    /// A directory to fill with a test set's files for [`TestData::adopt`]
    /// (beside the sets of `problem`, so the set is renamed into place).
    ///
    /// # Errors
    /// When the data directory cannot be written.
    pub fn scratch(&self, problem: &Problem) -> Result<tempfile::TempDir, Error> {
        let parent = self.root.join(&problem.slug);
        let io = |source| Error::Io {
            slug: problem.slug.clone(),
            path: parent.clone(),
            source,
        };
        std::fs::create_dir_all(&parent).map_err(io)?;
        tempfile::Builder::new()
            .prefix(".adopt-")
            .tempdir_in(&parent)
            .map_err(io)
    }

    /// Makes the test set another machine built (its `index`, and every
    /// test's `<name>.in` and `<name>.ans` written into `files`, a
    /// [`TestData::scratch`] directory) this package's set, without
    /// running any of its programs: the set must be of this very package
    /// (the same key) and every file must have the size and SHA-256 the
    /// index gives it.
    ///
    /// # Errors
    /// A set of another package version, a missing or altered file
    /// ([`Error::Corrupt`]), or a data directory that cannot be written.
    pub fn adopt(
        &self,
        problem: &Problem,
        index: Index,
        files: tempfile::TempDir,
    ) -> Result<TestSet, Error> {
        let key = self.key(problem)?;
        let corrupt = |what: String| Error::Corrupt {
            slug: problem.slug.clone(),
            path: files.path().to_path_buf(),
            what,
        };
        if index.key != key || index.slug != problem.slug {
            return Err(corrupt(format!(
                "the tests are of package {} {}, not of {} {key}",
                index.slug, index.key, problem.slug
            )));
        }
        let planned: Vec<&str> = problem
            .manifest
            .tests
            .iter()
            .map(|t| t.name.as_str())
            .collect();
        let listed: Vec<&str> = index.tests.iter().map(|t| t.name.as_str()).collect();
        if planned != listed {
            return Err(corrupt("the tests do not match the test plan".into()));
        }
        for t in &index.tests {
            for (kind, sha, bytes) in [
                ("in", &t.input_sha256, t.input_bytes),
                ("ans", &t.answer_sha256, t.answer_bytes),
            ] {
                let path = files.path().join(format!("{}.{kind}", t.name));
                let (got, len) =
                    sha256_file(&path).map_err(|e| corrupt(format!("{}: {e}", path.display())))?;
                if &got != sha || len != bytes {
                    return Err(corrupt(format!(
                        "{}.{kind} does not have the published hash",
                        t.name
                    )));
                }
            }
        }
        let index_path = files.path().join("index.json");
        let json = serde_json::to_vec_pretty(&index).unwrap_or_default();
        std::fs::write(&index_path, json).map_err(|source| Error::Io {
            slug: problem.slug.clone(),
            path: index_path.clone(),
            source,
        })?;
        let dir = self.set_dir(problem, &key);
        if std::fs::rename(files.path(), &dir).is_err() {
            // Another worker put the same set in place first.
            if let Ok(Some(set)) = self.existing(problem) {
                return Ok(set);
            }
            return Err(corrupt(format!(
                "{} could not be put in place",
                dir.display()
            )));
        }
        let _ = files.keep();
        Ok(TestSet {
            dir,
            index,
            built: false,
        })
    }

    fn make_test(
        &self,
        problem: &Problem,
        programs: &PackagePrograms,
        i: usize,
        out: &Path,
    ) -> Result<TestRecord, Error> {
        let test = &problem.manifest.tests[i];
        let _span = tracing::debug_span!("test", name = %test.name).entered();
        let fail = |what: String| Error::Test {
            slug: problem.slug.clone(),
            test: test.name.clone(),
            what,
        };
        let input = out.join(format!("{}.in", test.name));
        let answer = out.join(format!("{}.ans", test.name));
        let produced = programs
            .produce_with(
                &problem.dir,
                &test.input,
                test.answer.as_deref(),
                &test.input_flags,
                &input,
                &answer,
            )?
            .map_err(fail)?;
        let (input_sha256, input_bytes) = sha256_file(&input).map_err(|e| fail(e.to_string()))?;
        let (answer_sha256, answer_bytes) =
            sha256_file(&answer).map_err(|e| fail(e.to_string()))?;
        Ok(TestRecord {
            name: test.name.clone(),
            group: test.group.clone(),
            origin: produced.origin,
            seed: produced.seed,
            input_sha256,
            input_bytes,
            answer_sha256,
            answer_bytes,
            solver_ms: produced.solver_ms,
        })
    }
}
