//! Problem packages on disk: the manifest (`problem.toml`), the statement,
//! the programs (reference solver, brute force, generator, validator), the
//! hand-made tests and the example submissions. This layer reads and
//! validates; it never runs anything.

pub mod archive;
pub mod kattis;
mod manifest;
pub mod unzip;

use std::path::{Path, PathBuf};

pub use manifest::{Group, GroupSpec, Interactor, Manifest, StressPlan, TestCase, TestInput};

/// Errors while loading a package: each names the file and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("unknown problem {slug:?}")]
    Unknown { slug: String },
    #[error("{path}: {message}")]
    Manifest { path: PathBuf, message: String },
    #[error("{path}: missing (every problem needs it)")]
    Missing { path: PathBuf },
    #[error("{path}: {message}")]
    Kattis { path: PathBuf, message: String },
    #[error("reading {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The expected outcome of an example submission, from its directory name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Expected {
    Accepted,
    WrongAnswer,
    TimeLimitExceeded,
    MemoryLimitExceeded,
    RuntimeError,
    /// Some points, not all (a problem with scored groups).
    PartiallyAccepted,
    /// Not accepted, whatever the failure: some test is not AC.
    Rejected,
    /// A slow or limited but correct solution: never a wrong answer, and
    /// some test over a limit or crashed.
    BruteForce,
    /// Does not compile: `CE`, with the compiler's message (a package
    /// showing that a language's compile errors reach the contestant).
    CompileError,
}

impl Expected {
    pub const ALL: [Expected; 9] = [
        Expected::Accepted,
        Expected::WrongAnswer,
        Expected::TimeLimitExceeded,
        Expected::MemoryLimitExceeded,
        Expected::RuntimeError,
        Expected::PartiallyAccepted,
        Expected::Rejected,
        Expected::BruteForce,
        Expected::CompileError,
    ];

    /// The directory name under `submissions/`.
    pub fn dir_name(self) -> &'static str {
        match self {
            Expected::Accepted => "accepted",
            Expected::WrongAnswer => "wrong_answer",
            Expected::TimeLimitExceeded => "time_limit_exceeded",
            Expected::MemoryLimitExceeded => "memory_limit_exceeded",
            Expected::RuntimeError => "runtime_error",
            Expected::PartiallyAccepted => "partially_accepted",
            Expected::Rejected => "rejected",
            Expected::BruteForce => "brute_force",
            Expected::CompileError => "compile_error",
        }
    }
}

impl serde::Serialize for Expected {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.dir_name())
    }
}

/// An example submission of a package.
#[derive(Debug, Clone)]
pub struct ExampleSubmission {
    pub expected: Expected,
    pub path: PathBuf,
    /// What a Kattis package's `submissions/submissions.yaml` says of it
    /// (then its requirements replace its folder's [`Expected`] check).
    pub claimed: Option<Box<kattis::Claimed>>,
}

/// A loaded, validated problem package.
#[derive(Debug, Clone)]
pub struct Problem {
    pub slug: String,
    pub dir: PathBuf,
    pub manifest: Manifest,
    /// What only a Kattis package has (its time-limit rule, its scoring
    /// groups, what grundy skips), when the package is one.
    pub kattis: Option<Box<kattis::Package>>,
}

/// The programs of a package, by role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Solution,
    Brute,
    Generator,
    Validator,
}

impl Role {
    pub fn file_name(self) -> &'static str {
        match self {
            Role::Solution => "solution.rs",
            Role::Brute => "brute.rs",
            Role::Generator => "gen.rs",
            Role::Validator => "validator.rs",
        }
    }
}

impl Problem {
    /// Loads the package in `dir`; the slug is the directory's name.
    ///
    /// # Errors
    /// A malformed manifest or a missing file, naming the file and the field.
    pub fn load(dir: &Path) -> Result<Problem, Error> {
        let slug = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        let manifest_path = dir.join("problem.toml");
        if !manifest_path.is_file() {
            return Err(Error::Missing {
                path: manifest_path,
            });
        }
        let text = std::fs::read_to_string(&manifest_path).map_err(|source| Error::Read {
            path: manifest_path.clone(),
            source,
        })?;
        let manifest = Manifest::parse(&text).map_err(|message| Error::Manifest {
            path: manifest_path.clone(),
            message,
        })?;
        let problem = Problem {
            slug,
            dir: dir.to_path_buf(),
            manifest,
            kattis: None,
        };
        // The reference solver writes the answers: a package whose every
        // test brings its own answer (an imported one) needs none.
        let answered = problem.manifest.tests.iter().all(|t| t.answer.is_some());
        let required: &[&str] = if answered {
            &["statement.md"]
        } else {
            &["statement.md", "solution.rs"]
        };
        for required in required {
            let path = dir.join(required);
            if !path.is_file() {
                return Err(Error::Missing { path });
            }
        }
        for test in &problem.manifest.tests {
            let input = match &test.input {
                TestInput::File(rel) => Some(rel),
                TestInput::Gen(_) => None,
            };
            let files = input.into_iter().chain(test.answer.as_ref());
            for rel in files {
                let path = dir.join(rel);
                if !path.is_file() {
                    return Err(Error::Manifest {
                        path: manifest_path.clone(),
                        message: format!(
                            "tests.{}: file {} does not exist",
                            test.name,
                            rel.display()
                        ),
                    });
                }
            }
        }
        for rel in &problem.manifest.input_validators {
            if !dir.join(rel).exists() {
                return Err(Error::Manifest {
                    path: manifest_path.clone(),
                    message: format!("input_validators: {} does not exist", rel.display()),
                });
            }
        }
        if problem.manifest.needs_generator() && !dir.join("gen.rs").is_file() {
            return Err(Error::Missing {
                path: dir.join("gen.rs"),
            });
        }
        Ok(problem)
    }

    /// The path of one of the package's programs.
    pub fn program_path(&self, role: Role) -> PathBuf {
        self.dir.join(role.file_name())
    }

    /// Whether the package has this program.
    pub fn has(&self, role: Role) -> bool {
        self.program_path(role).is_file()
    }

    /// The file this package's data depends on first: `problem.toml`, or
    /// a Kattis package's `problem.yaml`.
    pub fn manifest_path(&self) -> PathBuf {
        match &self.kattis {
            Some(_) => self.dir.join("problem.yaml"),
            None => self.dir.join("problem.toml"),
        }
    }

    /// The statement's Markdown (a Kattis package's statement as it is,
    /// Markdown or LaTeX).
    ///
    /// # Errors
    /// When `statement.md` cannot be read.
    pub fn statement(&self) -> Result<String, Error> {
        let path = match &self.kattis {
            Some(k) => match &k.statement {
                Some(rel) => self.dir.join(rel),
                None => return Ok(String::new()),
            },
            None => self.dir.join("statement.md"),
        };
        std::fs::read_to_string(&path).map_err(|source| Error::Read { path, source })
    }

    /// Every example submission, sorted by expectation then path.
    pub fn submissions(&self) -> Vec<ExampleSubmission> {
        if let Some(k) = &self.kattis {
            return k.submissions.clone();
        }
        let mut out = Vec::new();
        for expected in Expected::ALL {
            let dir = self.dir.join("submissions").join(expected.dir_name());
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            // A directory is one multi-file submission.
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let hidden = p
                        .file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with('.'));
                    !hidden && (p.is_file() || p.is_dir())
                })
                .collect();
            paths.sort();
            out.extend(paths.into_iter().map(|path| ExampleSubmission {
                expected,
                path,
                claimed: None,
            }));
        }
        out
    }
}

/// Copies the directory `from` (a package's submission or program
/// folder) to `to`, its subdirectories too; other than files and
/// directories (links, sockets), nothing is copied.
///
/// # Errors
/// The path that could not be read or written, and why.
pub fn copy_tree(from: &Path, to: &Path) -> Result<(), (PathBuf, std::io::Error)> {
    std::fs::create_dir_all(to).map_err(|e| (to.to_path_buf(), e))?;
    let entries = std::fs::read_dir(from).map_err(|e| (from.to_path_buf(), e))?;
    for entry in entries {
        let entry = entry.map_err(|e| (from.to_path_buf(), e))?;
        let (path, target) = (entry.path(), to.join(entry.file_name()));
        let kind = entry.file_type().map_err(|e| (path.clone(), e))?;
        if kind.is_dir() {
            copy_tree(&path, &target)?;
        } else if kind.is_file() {
            std::fs::copy(&path, &target).map_err(|e| (path.clone(), e))?;
        }
    }
    Ok(())
}

/// All packages under a problems directory.
#[derive(Debug, Clone)]
pub struct Catalog {
    pub root: PathBuf,
}

impl Catalog {
    pub fn new(root: PathBuf) -> Catalog {
        Catalog { root }
    }

    /// The slugs of every package (directories not starting with `_` or `.`), sorted.
    ///
    /// # Errors
    /// When the problems directory cannot be read.
    pub fn slugs(&self) -> Result<Vec<String>, Error> {
        let entries = std::fs::read_dir(&self.root).map_err(|source| Error::Read {
            path: self.root.clone(),
            source,
        })?;
        let mut slugs: Vec<String> = entries
            .filter_map(|e| e.ok())
            .filter(|e| e.path().is_dir())
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .filter(|n| !n.starts_with('_') && !n.starts_with('.'))
            .collect();
        slugs.sort();
        Ok(slugs)
    }

    /// A problem named on the command line: a package directory (a path
    /// holding `problem.yaml`, a Kattis package, or `problem.toml`), else a
    /// slug of the catalog.
    ///
    /// # Errors
    /// As [`Catalog::load`], [`Problem::load`] or [`kattis::load`].
    pub fn open(&self, name: &str) -> Result<Problem, Error> {
        let path = Path::new(name);
        if path.is_dir() && path.join("problem.yaml").is_file() {
            return kattis::load(path);
        }
        if name.contains('/') || (path.is_dir() && path.join("problem.toml").is_file()) {
            return Problem::load(path);
        }
        self.load(name)
    }

    /// Loads one package by slug.
    ///
    /// # Errors
    /// [`Error::Unknown`] for a slug that is not a package (or not a valid
    /// slug); otherwise as [`Problem::load`].
    pub fn load(&self, slug: &str) -> Result<Problem, Error> {
        let valid = !slug.is_empty()
            && slug
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        let dir = self.root.join(slug);
        if !valid || !dir.is_dir() {
            return Err(Error::Unknown {
                slug: slug.to_string(),
            });
        }
        Problem::load(&dir)
    }
}
