//! The package's own Rust programs (generator, validator, solvers),
//! compiled through the `rust` language with the package's shared code
//! (`problems/_common/`) placed beside them, and run in the sandbox under
//! generous limits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{trusted_limits, Error};
use crate::config::CompileLimits;
use crate::lang::{self, Compiled, Languages, Program, ProgramCache, Source};
use crate::problem::{Problem, Role};
use crate::sandbox::{Outcome, RunSpec, Runner, Stdio};

/// The directory of shared code, beside the packages.
const SHARED_DIR: &str = "_common";

/// The files of `problems/_common/`, as (path relative to the problems
/// directory, bytes), sorted. Empty when there is no such directory.
pub fn shared_files(problem: &Problem) -> Result<Vec<SharedFile>, (PathBuf, std::io::Error)> {
    let Some(parent) = problem.dir.parent() else {
        return Ok(Vec::new());
    };
    let dir = parent.join(SHARED_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_file() {
            let text = std::fs::read(&path).map_err(|e| (path.clone(), e))?;
            files.push((Path::new(SHARED_DIR).join(entry.file_name()), text));
        }
    }
    files.sort();
    Ok(files)
}

/// A shared file: its path relative to the problems directory, and its bytes.
pub type SharedFile = (PathBuf, Vec<u8>);

/// One compiled package program.
#[derive(Debug, Clone)]
pub struct PackageProgram {
    pub program: Program,
    pub sha256: String,
}

/// The compiled programs of one package, by role.
pub struct PackagePrograms {
    slug: String,
    time_limit: f64,
    by_role: BTreeMap<&'static str, PackageProgram>,
}

/// The result of running a package program.
pub struct PackageRun {
    pub outcome: Outcome,
    /// The first line of its stderr, for messages.
    pub stderr_line: String,
}

impl PackagePrograms {
    /// Compiles the roles that exist in the package.
    ///
    /// # Errors
    /// When one does not compile, or the toolchain is missing.
    pub fn compile(
        problem: &Problem,
        runner: &dyn Runner,
        languages: &Languages,
        cache: &ProgramCache,
        limits: &CompileLimits,
        roles: &[Role],
    ) -> Result<PackagePrograms, Error> {
        let rust = languages.get("rust")?;
        let slug = problem.slug.clone();
        let siblings = shared_files(problem).map_err(|(path, source)| Error::Io {
            slug: slug.clone(),
            path,
            source,
        })?;
        let compile_one = |role: Role| -> Result<Option<PackageProgram>, Error> {
            let path = problem.program_path(role);
            if !path.is_file() {
                return Ok(None);
            }
            let text = std::fs::read(&path).map_err(|source| Error::Io {
                slug: slug.clone(),
                path: path.clone(),
                source,
            })?;
            let sha256 = lang::hex(&Sha256::digest(&text));
            let source = Source {
                text,
                siblings: siblings.clone(),
            };
            match rust.compile(runner, cache, &source, limits)? {
                Compiled::Ok(program) => Ok(Some(PackageProgram { program, sha256 })),
                Compiled::Failed(message) => Err(Error::Compile {
                    slug: slug.clone(),
                    role: role.file_name(),
                    message,
                }),
            }
        };
        // The roles compile in parallel: from a cold cache, compiling is
        // most of the time `grundy gen` takes.
        let compiled: Vec<(Role, Result<Option<PackageProgram>, Error>)> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = roles
                    .iter()
                    .map(|&role| (role, scope.spawn(move || compile_one(role))))
                    .collect();
                handles
                    .into_iter()
                    .map(|(role, h)| {
                        let result = h.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
                        (role, result)
                    })
                    .collect()
            });
        let mut by_role = BTreeMap::new();
        for (role, result) in compiled {
            if let Some(program) = result? {
                by_role.insert(role.file_name(), program);
            }
        }
        Ok(PackagePrograms {
            slug,
            time_limit: problem.manifest.time_limit,
            by_role,
        })
    }

    pub fn has(&self, role: Role) -> bool {
        self.by_role.contains_key(role.file_name())
    }

    pub fn sha256(&self, role: Role) -> Option<String> {
        self.by_role.get(role.file_name()).map(|p| p.sha256.clone())
    }

    pub fn get(&self, role: Role) -> Option<&PackageProgram> {
        self.by_role.get(role.file_name())
    }

    /// Runs a program with `args`, stdin from `stdin`, stdout to `stdout`.
    ///
    /// # Errors
    /// When the role was not compiled or the sandbox fails.
    pub fn run(
        &self,
        role: Role,
        runner: &dyn Runner,
        args: &[String],
        stdin: Option<&Path>,
        stdout: &Path,
    ) -> Result<PackageRun, Error> {
        let Some(p) = self.by_role.get(role.file_name()) else {
            return Err(Error::Test {
                slug: self.slug.clone(),
                test: "-".into(),
                what: format!("{} is missing", role.file_name()),
            });
        };
        let limits = trusted_limits(self.time_limit);
        let (program, mut argv) = p.program.command(limits.memory >> 20);
        argv.extend(args.iter().cloned());
        let cwd = tempfile::tempdir().map_err(|source| Error::Io {
            slug: self.slug.clone(),
            path: std::env::temp_dir(),
            source,
        })?;
        let stderr = cwd.path().join(".stderr");
        let spec = RunSpec::new(program, cwd.path(), limits)
            .args(argv)
            .envs(lang::base_env())
            .stdin(stdin.map_or(Stdio::Null, Stdio::file))
            .stdout(Stdio::file(stdout))
            .stderr(Stdio::file(&stderr))
            .binds(p.program.binds());
        let outcome = runner.run(&spec)?;
        let text = lang::read_bounded(&stderr, 4096);
        let stderr_line = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .to_string();
        Ok(PackageRun {
            outcome,
            stderr_line,
        })
    }
}
