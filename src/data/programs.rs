//! The package's own Rust programs (generator, validator, solvers),
//! compiled through the `rust` language with the package's shared code
//! (`problems/_common/`) placed beside them, and run in the sandbox under
//! generous limits; and the one pipeline that turns a test's origin into
//! an input and its answer (generate or copy, validate, solve), used by
//! the test data and by `verify`'s stress runs alike.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Error;
use crate::config::CompileLimits;
use crate::digest::sha256;
use crate::lang::{self, Compiled, Languages, Program, ProgramCache, Source};
use crate::problem::{Problem, Role, TestInput};
use crate::sandbox::{Outcome, RunSpec, Runner, Stdio, Termination};

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

/// A checker, interactor or Kattis validator of the package, as a source
/// to compile: its main file (`rel`, relative to the package), the headers
/// beside it (`testlib.h`), and the package's shared code. A program in a
/// directory of its own (below the package's top, e.g. a Kattis validator
/// given as a directory) has every file of that directory beside it, as
/// one multi-file program, and where the directory is the program's own
/// ([`kattis::in_program_dir`]), every C or C++ source of it in the main
/// file's language is compiled with it (as Kattis does), the main file
/// being the one [`kattis::main_program`] chose.
///
/// [`kattis::in_program_dir`]: crate::problem::kattis::in_program_dir
/// [`kattis::main_program`]: crate::problem::kattis::main_program
///
/// # Errors
/// A file that cannot be read, with its path.
pub fn package_source(problem: &Problem, rel: &Path) -> Result<Source, (PathBuf, std::io::Error)> {
    let main = problem.dir.join(rel);
    let text = std::fs::read(&main).map_err(|e| (main.clone(), e))?;
    let dir = main.parent().unwrap_or(&problem.dir);
    let own_dir = dir != problem.dir;
    let family = crate::problem::kattis::c_family(&main);
    let mut siblings = Vec::new();
    let mut units = Vec::new();
    for entry in std::fs::read_dir(dir)
        .map_err(|e| (dir.to_path_buf(), e))?
        .flatten()
    {
        let path = entry.path();
        if path == main || !path.is_file() {
            continue;
        }
        let header = path.extension().is_some_and(|e| e == "h" || e == "hpp");
        if header || own_dir {
            let bytes = std::fs::read(&path).map_err(|e| (path.clone(), e))?;
            siblings.push((Path::new("box").join(entry.file_name()), bytes));
        }
        let same_family = family.is_some() && crate::problem::kattis::c_family(&path) == family;
        if same_family && crate::problem::kattis::in_program_dir(rel) {
            units.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    units.sort();
    // The package's shared code (`problems/_common/`), where a Rust
    // checker or interactor reaches it by `#[path = "../_common/..."]`.
    siblings.extend(shared_files(problem)?);
    siblings.sort();
    Ok(Source {
        text,
        siblings,
        file_name: main.file_name().map(|n| n.to_string_lossy().into_owned()),
        units,
    })
}

/// A checker, interactor or Kattis validator of the package, ready to
/// compile: a source (see [`package_source`]), or the files of a directory
/// that builds itself with `build` and runs as `run` (Kattis).
pub enum PackageSource {
    Source(Source),
    Scripted(Vec<(PathBuf, Vec<u8>, bool)>),
}

impl PackageSource {
    /// The program whose main file is `rel` (relative to the package).
    ///
    /// # Errors
    /// A file that cannot be read, with its path.
    pub fn read(problem: &Problem, rel: &Path) -> Result<PackageSource, (PathBuf, std::io::Error)> {
        if crate::problem::kattis::is_scripted(&problem.dir, rel) {
            let dir = problem.dir.join(rel);
            let dir = dir.parent().unwrap_or(&problem.dir);
            return lang::scripted::read_dir_files(dir)
                .map(PackageSource::Scripted)
                .map_err(|e| (dir.to_path_buf(), e));
        }
        package_source(problem, rel).map(PackageSource::Source)
    }

    /// SHA-256 of the program's main file (or of every file of a
    /// directory that builds itself).
    pub fn sha256(&self) -> String {
        match self {
            PackageSource::Source(source) => sha256(&source.text),
            PackageSource::Scripted(files) => {
                let mut h = crate::digest::Fields::new();
                for (rel, text, _) in files {
                    h.field(rel.to_string_lossy().as_bytes()).field(text);
                }
                h.finish()
            }
        }
    }

    /// Compiles (or builds) it, or finds it in the cache; `path` is its
    /// main file, whose extension names the language of a source.
    ///
    /// # Errors
    /// The language layer's: an unknown extension, a missing toolchain, a
    /// cache or sandbox failure.
    pub fn compile(
        &self,
        path: &Path,
        languages: &Languages,
        runner: &dyn Runner,
        cache: &ProgramCache,
        limits: &CompileLimits,
    ) -> Result<Compiled, lang::Error> {
        match self {
            PackageSource::Source(source) => languages
                .for_path(path)?
                .compile(runner, cache, source, limits),
            PackageSource::Scripted(files) => {
                lang::scripted::build(languages, runner, cache, files, limits)
            }
        }
    }
}

/// One compiled package program.
#[derive(Debug, Clone)]
pub struct PackageProgram {
    pub program: Program,
    pub sha256: String,
}

/// The compiled programs of one package, by role.
pub struct PackagePrograms {
    slug: String,
    limits: crate::sandbox::Limits,
    runner: Arc<dyn Runner>,
    by_role: BTreeMap<&'static str, PackageProgram>,
    /// The Kattis input validators, by their path in the package.
    input_validators: Vec<(PathBuf, PackageProgram)>,
}

/// An input and answer the pipeline produced.
#[derive(Debug, Clone)]
pub struct Produced {
    /// Generator arguments, or the hand-made file it was copied from.
    pub origin: String,
    /// The generator's `seed=` argument, if any.
    pub seed: Option<String>,
    /// CPU time the reference solver took, ms.
    pub solver_ms: u64,
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
        runner: Arc<dyn Runner>,
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
            let sha256 = sha256(&text);
            let source = Source {
                text,
                siblings: siblings.clone(),
                file_name: None,
                units: Vec::new(),
            };
            match rust.compile(runner.as_ref(), cache, &source, limits)? {
                Compiled::Ok(program) => Ok(Some(PackageProgram { program, sha256 })),
                Compiled::Failed(message) => Err(Error::Compile {
                    slug: slug.clone(),
                    role: role.file_name(),
                    message,
                }),
            }
        };
        // The roles compile in parallel: from a cold cache, compiling is
        // most of the time building test data takes.
        let compile_one = &compile_one;
        let span = tracing::Span::current();
        let compiled: Vec<(Role, Result<Option<PackageProgram>, Error>)> =
            std::thread::scope(|scope| {
                let handles: Vec<_> = roles
                    .iter()
                    .map(|&role| {
                        let span = span.clone();
                        (
                            role,
                            scope.spawn(move || span.in_scope(|| compile_one(role))),
                        )
                    })
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
        let mut input_validators = Vec::new();
        if roles.contains(&Role::Validator) {
            for rel in &problem.manifest.input_validators {
                let path = problem.dir.join(rel);
                let io = |(path, source)| Error::Io {
                    slug: slug.clone(),
                    path,
                    source,
                };
                let source = PackageSource::read(problem, rel).map_err(io)?;
                let sha256 = source.sha256();
                match source.compile(&path, languages, runner.as_ref(), cache, limits)? {
                    Compiled::Ok(program) => {
                        input_validators.push((rel.clone(), PackageProgram { program, sha256 }))
                    }
                    Compiled::Failed(message) => {
                        return Err(Error::Compile {
                            slug: slug.clone(),
                            role: "an input validator",
                            message: format!("{}: {message}", rel.display()),
                        })
                    }
                }
            }
        }
        Ok(PackagePrograms {
            slug,
            limits: super::package_limits(problem),
            runner,
            by_role,
            input_validators,
        })
    }

    pub fn has(&self, role: Role) -> bool {
        self.by_role.contains_key(role.file_name())
    }

    /// Whether the package has input validators of Kattis's protocol.
    pub fn has_input_validators(&self) -> bool {
        !self.input_validators.is_empty()
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
        self.run_program(p, args, stdin, stdout)
    }

    fn run_program(
        &self,
        p: &PackageProgram,
        args: &[String],
        stdin: Option<&Path>,
        stdout: &Path,
    ) -> Result<PackageRun, Error> {
        let limits = self.limits;
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
        let outcome = self.runner.run(&spec)?;
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

    /// Produces one input at `input` from its origin (a hand-made file
    /// under `dir`, or generator arguments), has the validator accept it
    /// (when the package has one) and the reference solver answer it into
    /// `answer`. `Ok(Err(why))` is the package's failure, a sentence naming
    /// the step; `Err` is the judge's own.
    ///
    /// # Errors
    /// When the sandbox fails or a program was not compiled.
    pub fn produce(
        &self,
        dir: &Path,
        origin: &TestInput,
        input: &Path,
        answer: &Path,
    ) -> Result<Result<Produced, String>, Error> {
        self.produce_with(dir, origin, None, &[], input, answer)
    }

    /// [`PackagePrograms::produce`] for a test that may bring its own
    /// answer file (under `dir`; copied, no solver runs) and flags for the
    /// Kattis input validators, which must all accept the input (exit 42).
    ///
    /// # Errors
    /// As [`PackagePrograms::produce`].
    pub fn produce_with(
        &self,
        dir: &Path,
        origin: &TestInput,
        given_answer: Option<&Path>,
        input_flags: &[String],
        input: &Path,
        answer: &Path,
    ) -> Result<Result<Produced, String>, Error> {
        let mut seed = None;
        let origin = match origin {
            TestInput::File(rel) => {
                let src = dir.join(rel);
                if let Err(e) = std::fs::copy(&src, input) {
                    return Ok(Err(format!("copying {}: {e}", src.display())));
                }
                rel.display().to_string()
            }
            TestInput::Gen(args) => {
                let run = self.run(Role::Generator, args, None, input)?;
                if !run.outcome.success() {
                    return Ok(Err(format!(
                        "generator `gen {}` failed ({:?}): {}",
                        args.join(" "),
                        run.outcome.termination,
                        run.stderr_line
                    )));
                }
                seed = args
                    .iter()
                    .find_map(|a| a.strip_prefix("seed="))
                    .map(str::to_string);
                format!("gen {}", args.join(" "))
            }
        };
        if self.has(Role::Validator) {
            let scratch = input.with_extension("validator");
            let run = self.run(Role::Validator, &[], Some(input), &scratch)?;
            let _ = std::fs::remove_file(&scratch);
            if !run.outcome.success() {
                return Ok(Err(format!("invalid input: {}", run.stderr_line)));
            }
        }
        for (rel, validator) in &self.input_validators {
            let scratch = input.with_extension("validator");
            let run = self.run_program(validator, input_flags, Some(input), &scratch)?;
            let said = std::fs::read_to_string(&scratch).unwrap_or_default();
            let _ = std::fs::remove_file(&scratch);
            let said = said
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or(&run.stderr_line)
                .to_string();
            match run.outcome.termination {
                Termination::Exited(42) => {}
                Termination::Exited(43) => {
                    return Ok(Err(format!(
                        "invalid input: {} rejects it: {said}",
                        rel.display()
                    )))
                }
                other => {
                    return Ok(Err(format!(
                        "input validator {} failed ({other:?}; 42 accepts, 43 rejects): {said}",
                        rel.display()
                    )))
                }
            }
        }
        if let Some(given) = given_answer {
            let src = dir.join(given);
            if let Err(e) = std::fs::copy(&src, answer) {
                return Ok(Err(format!("copying {}: {e}", src.display())));
            }
            return Ok(Ok(Produced {
                origin,
                seed,
                solver_ms: 0,
            }));
        }
        let run = self.run(Role::Solution, &[], Some(input), answer)?;
        if !run.outcome.success() {
            return Ok(Err(format!(
                "reference solver failed ({:?}): {}",
                run.outcome.termination, run.stderr_line
            )));
        }
        Ok(Ok(Produced {
            origin,
            seed,
            solver_ms: run.outcome.cpu_ms,
        }))
    }
}
