//! Languages: how to compile and run a source, as `config.toml` says.
//! Knows the sandbox (every compiler runs in it, under the compile limits)
//! and the content-addressed program cache; knows nothing of tests,
//! checkers or verdicts.

mod cache;
pub mod scripted;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::config::{CompileLimits, LanguageConfig};
use crate::digest::Fields;
use crate::sandbox::{self, Bind, Limits, RunSpec, Runner, Stdio};

pub use cache::ProgramCache;

/// Errors of the language layer: all of them the judge's, never the source's.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("unknown language {0:?}")]
    Unknown(String),
    #[error("cannot tell the language of {0}: unknown extension")]
    Extension(String),
    #[error("{language}: toolchain missing: {program} not found")]
    Missing { language: String, program: String },
    #[error("program cache at {path}")]
    Cache {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Sandbox(#[from] sandbox::Error),
    /// A compilation the machine failed, not the source (the compiler
    /// killed from outside, starved of CPU past its wall clock, a full
    /// disk): retried, and the judge's fault (`IE`) if it persists.
    #[error("compiling {language}: {why} (the machine's fault, not the source's)")]
    Machine { language: String, why: String },
}

impl Error {
    /// Whether trying the same compilation again may succeed: the
    /// machine failed it, or the sandbox could not set up a box.
    fn is_transient(&self) -> bool {
        matches!(
            self,
            Error::Machine { .. } | Error::Sandbox(sandbox::Error::Setup { .. })
        )
    }
}

/// How many times a compilation the machine failed is tried.
const COMPILE_TRIES: u32 = 3;

/// One configured language.
#[derive(Debug)]
pub struct Language {
    pub id: String,
    pub config: LanguageConfig,
    version: Probe<String>,
    toolchain: Probe<String>,
    prepared: Probe<PathBuf>,
}

/// Every configured language.
#[derive(Debug)]
pub struct Languages {
    by_id: BTreeMap<String, Arc<Language>>,
}

/// How long a failed probe is believed before it is tried again.
const RETRY_PROBE_AFTER: Duration = Duration::from_secs(30);

/// Runs of a version command before a probe fails.
const PROBE_RUNS: u32 = 3;

/// The memo of a probe (a toolchain's version, its directory, a prepared
/// header): a success is kept for good; a failure only for
/// [`RETRY_PROBE_AFTER`], so a judge that runs for months recovers from a
/// transient one (a toolchain being upgraded, a machine under load).
#[derive(Debug)]
struct Probe<T> {
    memo: Mutex<Option<(Result<T, String>, Instant)>>,
    retry_after: Duration,
}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Probe {
            memo: Mutex::new(None),
            retry_after: RETRY_PROBE_AFTER,
        }
    }
}

impl<T: Clone> Probe<T> {
    /// The memo, or `probe()`'s result when there is none to trust. One
    /// probe runs at a time; others wait for its result.
    fn get_or(&self, probe: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
        // The memo is replaced whole under the lock: a panic cannot leave
        // it half-written, so a poisoned lock holds a usable value.
        let mut memo = self.memo.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((result, at)) = &*memo {
            if result.is_ok() || at.elapsed() < self.retry_after {
                return result.clone();
            }
        }
        let result = probe();
        *memo = Some((result.clone(), Instant::now()));
        result
    }

    /// Drops the memo: the next [`Probe::get_or`] probes again.
    fn forget(&self) {
        *self.memo.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
}

/// A source to compile: the main file and files placed beside its
/// directory (paths relative to the parent of the compile directory, e.g.
/// `_common/rng.rs` for a generator's `#[path = "../_common/rng.rs"]`).
#[derive(Debug, Clone)]
pub struct Source {
    pub text: Vec<u8>,
    pub siblings: Vec<(PathBuf, Vec<u8>)>,
    /// The main file's own name (`Hello.java`), for a language whose
    /// commands name it by `{main}` and `{class}` (Kattis names a Java
    /// program's main class after its file); `None`: the language's
    /// `source`.
    pub file_name: Option<String>,
    /// Further sources compiled with the main one into one program (a
    /// Kattis validator of several C or C++ files): names of siblings in
    /// the compile directory, added after the main file in the compile
    /// command.
    pub units: Vec<String>,
}

impl Source {
    pub fn new(text: Vec<u8>) -> Source {
        Source {
            text,
            siblings: Vec::new(),
            file_name: None,
            units: Vec::new(),
        }
    }

    /// The same source, saved under its own file name.
    pub fn named(self, file_name: Option<String>) -> Source {
        Source { file_name, ..self }
    }
}

/// A compiled program, ready to run: a directory in the program cache.
#[derive(Debug, Clone)]
pub struct Program {
    pub dir: PathBuf,
    /// The run command, `{toolchain}` already filled in.
    pub run: Vec<String>,
    /// Host paths the program needs besides its directory (read-only).
    pub paths: Vec<PathBuf>,
    /// The exit status meaning "the runtime ran out of memory", if any.
    pub memory_exit_code: Option<i32>,
    pub time_factor: f64,
    /// Whether this compile was served from the cache.
    pub cached: bool,
}

/// The result of a compilation that the judge performed correctly.
#[derive(Debug)]
pub enum Compiled {
    Ok(Program),
    /// The source did not compile; the compiler's message (bounded).
    Failed(String),
}

impl Languages {
    pub fn new(configs: &BTreeMap<String, LanguageConfig>) -> Languages {
        let by_id = configs
            .iter()
            .map(|(id, config)| {
                let lang = Language {
                    id: id.clone(),
                    config: config.clone(),
                    version: Probe::default(),
                    toolchain: Probe::default(),
                    prepared: Probe::default(),
                };
                (id.clone(), Arc::new(lang))
            })
            .collect();
        Languages { by_id }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Arc<Language>> {
        self.by_id.values()
    }

    /// The language with this id.
    ///
    /// # Errors
    /// [`Error::Unknown`] when none is configured.
    pub fn get(&self, id: &str) -> Result<&Arc<Language>, Error> {
        self.by_id
            .get(id)
            .ok_or_else(|| Error::Unknown(id.to_string()))
    }

    /// The language a file name's extension selects.
    ///
    /// # Errors
    /// [`Error::Extension`] when no language claims the extension.
    pub fn for_path(&self, path: &Path) -> Result<&Arc<Language>, Error> {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        self.by_id
            .values()
            .find(|l| l.config.extensions.iter().any(|e| e == ext))
            .ok_or_else(|| Error::Extension(path.display().to_string()))
    }
}

impl Language {
    /// The toolchain's version line, or what is missing (probed in the box;
    /// a failure is probed again after a while).
    pub fn version(&self, runner: &dyn Runner) -> Result<String, String> {
        self.version.get_or(|| self.probe_version(runner))
    }

    /// The toolchain directory (`{toolchain}`), from the `toolchain`
    /// command run once outside the box (it may be a version manager's
    /// proxy, which the box cannot see); `""` when none is configured.
    fn toolchain(&self) -> Result<String, String> {
        self.toolchain.get_or(|| {
            let Some(program) = self.config.toolchain.first() else {
                return Ok(String::new());
            };
            let path = resolve(program).ok_or_else(|| format!("{program} not found"))?;
            let out = std::process::Command::new(&path)
                .args(&self.config.toolchain[1..])
                .stdin(std::process::Stdio::null())
                .output()
                .map_err(|e| format!("{program}: {e}"))?;
            let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if !out.status.success() || text.is_empty() || text.contains('\n') {
                return Err(format!(
                    "{} printed no toolchain directory",
                    self.config.toolchain.join(" ")
                ));
            }
            Ok(text)
        })
    }

    /// A configured argument with `{toolchain}` filled in.
    fn fill(&self, arg: &str) -> Result<String, String> {
        if arg.contains("{toolchain}") {
            Ok(arg.replace("{toolchain}", &self.toolchain()?))
        } else {
            Ok(arg.to_string())
        }
    }

    fn filled(&self, argv: &[String]) -> Result<Vec<String>, String> {
        argv.iter().map(|a| self.fill(a)).collect()
    }

    /// The directory the `prepare` command filled (built once per
    /// toolchain version and kept in the program cache), or `None` when
    /// there is no such command or it failed (compiling then goes on
    /// without it: slower, never wrong).
    fn prepared(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        version: &str,
        limits: &CompileLimits,
    ) -> Option<PathBuf> {
        if self.config.prepare.is_empty() {
            return None;
        }
        let probe = || {
            self.prepare(runner, cache, version, limits).inspect_err(|why| {
                tracing::warn!(language = %self.id, "prepare failed, compiling without it: {why}");
            })
        };
        match self.prepared.get_or(probe) {
            // The program cache may have evicted it since (a long-running
            // server): build it again rather than bind a vanished path.
            Ok(dir) if !dir.is_dir() => {
                self.prepared.forget();
                self.prepared.get_or(probe).ok()
            }
            memo => memo.ok(),
        }
    }

    fn prepare(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        version: &str,
        limits: &CompileLimits,
    ) -> Result<PathBuf, String> {
        let mut h = Fields::new();
        for part in [self.id.as_str(), version]
            .into_iter()
            .chain(self.config.prepare.iter().map(String::as_str))
        {
            h.field(part.as_bytes());
        }
        let name = format!("prepared-{}", h.finish());
        if let Some(dir) = cache.prepared(&name) {
            return Ok(dir);
        }
        let work = cache.workspace().map_err(|e| e.to_string())?;
        let dir = work.path().join("prepared");
        std::fs::create_dir(&dir).map_err(|e| e.to_string())?;
        let argv = self.filled(&self.config.prepare)?;
        let program = resolve(&argv[0]).ok_or_else(|| format!("{} not found", argv[0]))?;
        let log = work.path().join("prepare.log");
        let mut binds = self.binds()?;
        binds.push(Bind::writable(&dir));
        let run_limits = Limits::new(Duration::from_secs(60), 2 << 30)
            .wall(Duration::from_secs(120))
            .output(1 << 30)
            .open_files(256);
        let spec = RunSpec::new(program, &dir, run_limits)
            .args(&argv[1..])
            .envs(base_env())
            .stdout(Stdio::file(&log))
            .stderr(Stdio::file(&log))
            .binds(binds);
        let outcome = runner.run(&spec).map_err(|e| e.to_string())?;
        if !outcome.success() {
            return Err(format!(
                "{:?}: {}",
                outcome.termination,
                read_bounded(&log, 2000)
            ));
        }
        cache
            .store(&name, &dir, limits.cache_limit << 20)
            .map_err(|e| e.to_string())
    }

    /// The host paths every box of this language sees read-only.
    fn paths(&self) -> Result<Vec<PathBuf>, String> {
        Ok(self
            .filled(&self.config.paths)?
            .into_iter()
            .map(PathBuf::from)
            .collect())
    }

    fn binds(&self) -> Result<Vec<Bind>, String> {
        Ok(self.paths()?.into_iter().map(Bind::read_only).collect())
    }

    fn probe_version(&self, runner: &dyn Runner) -> Result<String, String> {
        for argv in [&self.config.compile, &self.config.run] {
            if let Some(program) = argv.first() {
                let program = self.fill(program)?;
                if !program.contains('{') && resolve(&program).is_none() {
                    return Err(format!("{program} not found"));
                }
            }
        }
        let version = self.filled(&self.config.version)?;
        let Some(program) = version.first() else {
            return Ok("(no version command)".to_string());
        };
        let path = resolve(program).ok_or_else(|| format!("{program} not found"))?;
        // The toolchain is there; a run that fails may be the machine's
        // passing trouble (a box that could not start under load), so it
        // is tried again before the language is called unavailable.
        let mut failure = String::new();
        for attempt in 0..PROBE_RUNS {
            if attempt > 0 {
                std::thread::sleep(Duration::from_millis(200 << attempt));
            }
            match self.run_version(runner, &path, &version[1..]) {
                Ok(line) => return Ok(line),
                Err(e) => failure = format!("{program} failed: {e}"),
            }
        }
        Err(failure)
    }

    /// One run of the version command in the box: its first line.
    fn run_version(
        &self,
        runner: &dyn Runner,
        path: &Path,
        args: &[String],
    ) -> Result<String, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let out = dir.path().join("out");
        let limits = Limits::new(Duration::from_secs(10), 1 << 30)
            .wall(Duration::from_secs(20))
            .open_files(256);
        let spec = RunSpec::new(path, dir.path(), limits)
            .args(args)
            .envs(base_env())
            .stdout(Stdio::file(&out))
            .stderr(Stdio::file(&out))
            .binds(self.binds()?);
        let outcome = runner.run(&spec).map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(&out).unwrap_or_default();
        let line = text
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        if outcome.success() {
            Ok(line.to_string())
        } else {
            Err(format!("{:?}: {line}", outcome.termination))
        }
    }

    /// The cache key of a compilation: language, commands, toolchain
    /// version and every byte of the source.
    fn key(&self, version: &str, source: &Source) -> String {
        let mut h = Fields::new();
        h.field(self.id.as_bytes())
            .field(version.as_bytes())
            .field(self.config.source.as_bytes());
        for arg in self.config.compile.iter().chain(&self.config.run) {
            h.field(arg.as_bytes());
        }
        // The toolchain directory names the toolchain's version too.
        h.field(self.toolchain().unwrap_or_default().as_bytes())
            .field(self.main_name(source).as_bytes())
            .field(&source.text);
        for (path, text) in &source.siblings {
            h.field(path.to_string_lossy().as_bytes()).field(text);
        }
        // The same files make another program when more of them are
        // compiled.
        for unit in &source.units {
            h.field(b"unit").field(unit.as_bytes());
        }
        h.finish()
    }

    /// The name the main file is saved as: the language's `source`, or the
    /// source's own name where the language's commands use `{main}` or
    /// `{class}`, the name has the language's extension, is a plain
    /// identifier and the source declares a class of that name (Kattis runs
    /// `Hello.java`'s class `Hello`; a `sol.java` declaring `Main` stays
    /// `Main.java`).
    pub fn main_name(&self, source: &Source) -> String {
        let uses = self
            .config
            .compile
            .iter()
            .chain(&self.config.run)
            .any(|a| a.contains("{main}") || a.contains("{class}"));
        let own = source.file_name.as_deref().filter(|name| {
            let Some((stem, ext)) = name.rsplit_once('.') else {
                return false;
            };
            let mut chars = stem.chars();
            chars
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
                && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                && self.config.extensions.iter().any(|e| e == ext)
                && declares_class(&source.text, stem)
        });
        match own {
            Some(name) if uses => name.to_string(),
            _ => self.config.source.clone(),
        }
    }

    /// Compiles `source` (or finds it in the cache).
    ///
    /// # Errors
    /// Only the judge's own failures: a missing toolchain, an unusable cache,
    /// a sandbox failure. A source that does not compile is
    /// `Ok(Compiled::Failed)`.
    pub fn compile(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        source: &Source,
        limits: &CompileLimits,
    ) -> Result<Compiled, Error> {
        let mut tries = 0;
        loop {
            tries += 1;
            match self.compile_once(runner, cache, source, limits, tries == COMPILE_TRIES) {
                Err(e) if e.is_transient() && tries < COMPILE_TRIES => {
                    tracing::warn!(
                        language = %self.id,
                        error = %crate::errors::chain(&e),
                        "compilation failed by the machine; trying again"
                    );
                    std::thread::sleep(Duration::from_millis(100 << tries));
                }
                other => return other,
            }
        }
    }

    /// One try of [`Language::compile`]; `last` says whether it is the
    /// last (a compiler crash that repeats on every try is the source's).
    fn compile_once(
        &self,
        runner: &dyn Runner,
        cache: &ProgramCache,
        source: &Source,
        limits: &CompileLimits,
        last: bool,
    ) -> Result<Compiled, Error> {
        let version = self.version(runner).map_err(|program| Error::Missing {
            language: self.id.clone(),
            program,
        })?;
        let key = self.key(&version, source);
        let main_name = self.main_name(source);
        if let Some(hit) = cache.lookup(&key)? {
            return Ok(match hit {
                Ok(dir) => Compiled::Ok(self.program(dir, true, &main_name)?),
                Err(message) => Compiled::Failed(message),
            });
        }
        let work = cache.workspace()?;
        let src_dir = work.path().join("box");
        let cache_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| Error::Cache { path, source }
        };
        std::fs::create_dir_all(&src_dir).map_err(cache_err(&src_dir))?;
        let main = src_dir.join(&main_name);
        std::fs::write(&main, &source.text).map_err(cache_err(&main))?;
        for (rel, text) in &source.siblings {
            let path = work.path().join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(cache_err(parent))?;
            }
            std::fs::write(&path, text).map_err(cache_err(&path))?;
        }

        let missing = |program: String| Error::Missing {
            language: self.id.clone(),
            program,
        };
        let mut compile = self.filled(&self.config.compile).map_err(missing)?;
        for arg in &mut compile {
            *arg = fill_main(arg, &main_name);
        }
        if let Err(why) = add_units(&mut compile, &main_name, &source.units) {
            return Ok(Compiled::Failed(why));
        }
        let prepared = if compile.iter().any(|a| a.contains("{prepared}")) {
            self.prepared(runner, cache, &version, limits)
        } else {
            None
        };
        match &prepared {
            Some(dir) => {
                let dir = dir.display().to_string();
                for arg in &mut compile {
                    *arg = arg.replace("{prepared}", &dir);
                }
            }
            None => compile.retain(|a| !a.contains("{prepared}")),
        }
        if let Some(program) = compile.first() {
            let program = resolve(program).ok_or_else(|| missing(program.clone()))?;
            // The compiler sees the language's paths, its own directory
            // (writable) and the source's shared files beside it.
            let mut binds = self.binds().map_err(missing)?;
            binds.push(Bind::writable(&src_dir));
            let mut tops: Vec<PathBuf> = Vec::new();
            for (rel, _) in &source.siblings {
                if let Some(std::path::Component::Normal(top)) = rel.components().next() {
                    let top = work.path().join(top);
                    // Files beside the source are in the (writable) compile
                    // directory already.
                    if top != src_dir && !tops.contains(&top) {
                        tops.push(top);
                    }
                }
            }
            binds.extend(tops.into_iter().map(Bind::read_only));
            // Seen at a neutral path: it lives in the judge's data directory.
            binds.extend(
                prepared
                    .iter()
                    .map(|d| Bind::read_only(d).at("/box/prepared")),
            );
            let log = work.path().join("compile.log");
            let spec = RunSpec::new(program, &src_dir, compiler_limits(limits))
                .args(&compile[1..])
                .envs(base_env())
                .stdout(Stdio::file(&log))
                .stderr(Stdio::file(&log))
                .binds(binds);
            let outcome = runner.run(&spec)?;
            if !outcome.success() {
                let failed = Failure {
                    language: &self.id,
                    outcome: &outcome,
                    log: &log,
                    work: work.path(),
                    last,
                };
                return failed.verdict(limits, cache, &key);
            }
            if let Some(why) = self.not_runnable(&src_dir, &main_name) {
                return Ok(Compiled::Failed(why));
            }
        }
        let size = match cache::survey(&src_dir) {
            Ok(size) => size,
            Err(why) => return Ok(Compiled::Failed(why)),
        };
        if size > limits.program_limit << 20 {
            return Ok(Compiled::Failed(format!(
                "the compiled program takes {} MiB, above the limit of {} MiB",
                size.div_ceil(1 << 20),
                limits.program_limit
            )));
        }
        let dir = cache.store(&key, &src_dir, limits.cache_limit << 20)?;
        Ok(Compiled::Ok(self.program(dir, false, &main_name)?))
    }

    /// Why a compilation that succeeded left nothing to run, if it did:
    /// where the run command starts the compiled file itself (`{dir}/main`),
    /// that file must be an executable (a Rust source declaring itself a
    /// library makes rustc write an archive there).
    fn not_runnable(&self, src_dir: &Path, main_name: &str) -> Option<String> {
        let first = fill_main(self.config.run.first()?, main_name);
        let name = first.strip_prefix("{dir}/")?;
        let path = src_dir.join(name);
        (!is_runnable(&path)).then(|| {
            format!(
                "the compiler succeeded but left no runnable program: {name} {}",
                if path.exists() {
                    "is not an executable"
                } else {
                    "is missing"
                }
            )
        })
    }

    fn program(&self, dir: PathBuf, cached: bool, main_name: &str) -> Result<Program, Error> {
        let missing = |program: String| Error::Missing {
            language: self.id.clone(),
            program,
        };
        let run = self.filled(&self.config.run).map_err(missing)?;
        Ok(Program {
            dir,
            run: run.iter().map(|a| fill_main(a, main_name)).collect(),
            paths: self.paths().map_err(missing)?,
            memory_exit_code: self.config.memory_exit_code,
            time_factor: self.config.time_factor,
            cached,
        })
    }
}

/// Whether `text` has `class NAME` followed by a non-identifier byte.
pub fn declares_class(text: &[u8], name: &str) -> bool {
    let needle = format!("class {name}");
    let needle = needle.as_bytes();
    text.windows(needle.len() + 1).any(|w| {
        w.starts_with(needle) && {
            let next = w[needle.len()];
            !(next.is_ascii_alphanumeric() || next == b'_' || next == b'$')
        }
    })
}

/// Adds a program's further sources to a compile command, after the
/// argument naming the main file (`gcc ... main.c` becomes `gcc ... main.c
/// a.c b.c`).
///
/// # Errors
/// A command that does not name the main file as an argument of its own,
/// or a further source saved under the main file's name.
fn add_units(compile: &mut Vec<String>, main_name: &str, units: &[String]) -> Result<(), String> {
    if units.is_empty() {
        return Ok(());
    }
    if let Some(clash) = units.iter().find(|u| *u == main_name) {
        return Err(format!(
            "{clash}: the main source is compiled under this name; rename the other file"
        ));
    }
    let Some(at) = compile.iter().position(|a| a == main_name) else {
        return Err(format!(
            "the language's compile command does not name {main_name} on its own, so the program's other sources ({}) cannot be added to it",
            units.join(", ")
        ));
    };
    let names = units.iter().map(|u| {
        // A file named like an option is still a file.
        if u.starts_with('-') {
            format!("./{u}")
        } else {
            u.clone()
        }
    });
    compile.splice(at + 1..at + 1, names);
    Ok(())
}

/// `{main}` is the main file's name, `{class}` its name without the
/// extension.
fn fill_main(arg: &str, main_name: &str) -> String {
    let class = main_name
        .rsplit_once('.')
        .map_or(main_name, |(stem, _)| stem);
    arg.replace("{main}", main_name).replace("{class}", class)
}

/// The limits of a compiler's run (or a package's build script's).
fn compiler_limits(limits: &CompileLimits) -> Limits {
    Limits::new(
        Duration::from_secs_f64(limits.cpu_limit),
        limits.memory_limit << 20,
    )
    .wall(Duration::from_secs_f64(limits.time_limit))
    // Every file the compiler writes, the program included.
    .output(limits.program_limit << 20)
    .open_files(512)
    .processes(128)
}

/// A compilation that did not succeed, and what is known of it.
struct Failure<'a> {
    language: &'a str,
    outcome: &'a sandbox::Outcome,
    /// The compiler's messages.
    log: &'a Path,
    /// The compilation's directory on the host's disk.
    work: &'a Path,
    /// The last try: a crash repeated on every try is the source's.
    last: bool,
}

impl Failure<'_> {
    /// The failure as [`Compiled::Failed`] (`CE`) when the source caused
    /// it or plausibly did (the compiler's own error, a limit a template
    /// bomb meets), or [`Error::Machine`] when the machine did. Only the
    /// compiler's own verdict on the source is cached under `key`: a limit
    /// met may be the machine's load.
    fn verdict(
        &self,
        limits: &CompileLimits,
        cache: &ProgramCache,
        key: &str,
    ) -> Result<Compiled, Error> {
        let mut message = read_bounded(self.log, (limits.output_limit as usize) << 10);
        match self.cause(&message, limits) {
            Cause::Source(None) => cache.store_failure(key, &message)?,
            Cause::Source(Some(why)) => {
                if !message.is_empty() && !message.ends_with('\n') {
                    message.push('\n');
                }
                message.push_str(&why);
            }
            Cause::Machine(why) => {
                return Err(Error::Machine {
                    language: self.language.to_string(),
                    why,
                })
            }
        }
        Ok(Compiled::Failed(message))
    }

    fn cause(&self, log: &str, limits: &CompileLimits) -> Cause {
        use sandbox::Termination::*;
        let limit_cpu_ms = (limits.cpu_limit * 1000.0) as u64;
        match self.outcome.termination {
            CpuTimeout => Cause::Source(Some(format!(
                "compilation exceeded {} s of CPU time",
                limits.cpu_limit
            ))),
            // Wall clock out with CPU time to spare: the compiler waited
            // for a machine too busy to run it (a source cannot make it
            // sleep: its only input is the source).
            WallTimeout if self.outcome.cpu_ms < limit_cpu_ms * 9 / 10 => Cause::Machine(format!(
                "the compiler had used {} ms of CPU when its {} s of wall-clock time ran out",
                self.outcome.cpu_ms, limits.time_limit
            )),
            WallTimeout => Cause::Source(Some(format!(
                "compilation exceeded {} s of wall-clock time",
                limits.time_limit
            ))),
            MemoryExceeded => Cause::Source(Some(format!(
                "compilation exceeded {} MiB of memory",
                limits.memory_limit
            ))),
            OutputExceeded => Cause::Source(Some(format!(
                "compilation wrote a file larger than {} MiB",
                limits.program_limit
            ))),
            // Nothing in the box sends SIGKILL to the compiler but the
            // host (its OOM killer, an operator): the limits are reported
            // as themselves.
            Signaled(sig) if sig == libc::SIGKILL => {
                Cause::Machine("the compiler was killed from outside (SIGKILL)".to_string())
            }
            // A compiler crash: tried again, and the source's only when it
            // repeats on every try (an internal compiler error it triggers).
            Signaled(sig) if !self.last => {
                Cause::Machine(format!("the compiler was killed by signal {sig}"))
            }
            Signaled(sig) => Cause::Source(Some(format!(
                "the compiler crashed (signal {sig}) on each of {COMPILE_TRIES} tries"
            ))),
            Exited(_) if log.contains("No space left on device") => {
                if host_space_left(self.work) < HOST_SPACE_FLOOR {
                    Cause::Machine("the judge's disk is full".to_string())
                } else {
                    // The box's own bounded /tmp, filled by what the
                    // source made the compiler write.
                    Cause::Source(Some("the compiler ran out of disk space".to_string()))
                }
            }
            Exited(_) => Cause::Source(None),
        }
    }
}

/// Who failed a compilation: the source (with the reason to add to the
/// compiler's messages, where it is not the compiler's own verdict), or
/// the machine.
enum Cause {
    Source(Option<String>),
    Machine(String),
}

/// Below this much free space on the judge's disk, a compiler's "No space
/// left on device" is the machine's.
const HOST_SPACE_FLOOR: u64 = 64 << 20;

/// Bytes free to an unprivileged user on the file system holding `path`.
fn host_space_left(path: &Path) -> u64 {
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()) else {
        return u64::MAX;
    };
    // SAFETY: a valid C string and an out struct.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return u64::MAX;
    }
    st.f_bavail as u64 * st.f_frsize as u64
}

/// Whether the file at `path` can be executed as a program: an ELF
/// executable (or position-independent executable) or a script.
fn is_runnable(path: &Path) -> bool {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
        return false;
    }
    let mut head = [0u8; 18];
    let Ok(mut f) = std::fs::File::open(path) else {
        return false;
    };
    let n = f.read(&mut head).unwrap_or(0);
    if head[..n].starts_with(b"#!") {
        return true;
    }
    // e_type (little or big endian): ET_EXEC (2) or ET_DYN (3).
    n == head.len()
        && head.starts_with(b"\x7fELF")
        && matches!(if head[5] == 2 { head[17] } else { head[16] }, 2 | 3)
}

impl Program {
    /// The program and arguments to run, with `{dir}` and `{memory_mib}`
    /// filled in.
    pub fn command(&self, memory_mib: u64) -> (PathBuf, Vec<String>) {
        let fill = |arg: &String| {
            arg.replace("{dir}", &self.dir.display().to_string())
                .replace("{memory_mib}", &memory_mib.to_string())
        };
        let argv: Vec<String> = self.run.iter().map(fill).collect();
        let program = resolve(&argv[0]).unwrap_or_else(|| PathBuf::from(&argv[0]));
        (program, argv[1..].to_vec())
    }

    /// What a box running this program must see: its directory (at
    /// `/box/prog`, saying nothing of the judge's data directory) and the
    /// language's paths, read-only.
    pub fn binds(&self) -> Vec<Bind> {
        let mut binds = vec![Bind::read_only(&self.dir).at("/box/prog")];
        binds.extend(self.paths.iter().map(Bind::read_only));
        binds
    }
}

/// The environment every compiler and program gets: a fixed `PATH`, a
/// UTF-8 locale, and `HOME` and `TMPDIR` pointing at the box's private
/// `/tmp` (nothing of the judge's environment leaks in; toolchains run
/// from their real directories, not through a version manager's proxy).
pub fn base_env() -> Vec<(String, String)> {
    [
        ("PATH", "/usr/local/bin:/usr/bin:/bin"),
        ("LANG", "C.UTF-8"),
        ("HOME", "/tmp"),
        ("TMPDIR", "/tmp"),
    ]
    .iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect()
}

/// Finds a program: a path with `/` is taken as is; a bare name is looked
/// up in `PATH`, skipping version-manager shim directories (a pyenv shim
/// is a shell script costing ~200 ms per start).
pub fn resolve(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.exists().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.ends_with("shims"))
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// Reads at most `limit` bytes of a file as (lossy) UTF-8, marking a cut.
pub fn read_bounded(path: &Path, limit: usize) -> String {
    use std::io::Read;
    let mut buf = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(limit as u64 + 1).read_to_end(&mut buf);
    }
    let cut = buf.len() > limit;
    buf.truncate(limit);
    let mut text = String::from_utf8_lossy(&buf).into_owned();
    if cut {
        text.push_str("\n[... truncated]");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn further_sources_follow_the_main_file_in_the_compile_command() {
        let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let mut compile = strings(&["gcc", "-o", "main", "main.c", "-lm"]);
        add_units(&mut compile, "main.c", &strings(&["a.c", "-b.c"])).unwrap();
        assert_eq!(
            compile,
            strings(&["gcc", "-o", "main", "main.c", "a.c", "./-b.c", "-lm"])
        );
        let mut script = strings(&["/bin/sh", "-c", "cc main.c"]);
        let err = add_units(&mut script, "main.c", &strings(&["a.c"])).unwrap_err();
        assert!(err.contains("does not name main.c on its own"), "{err}");
        let err = add_units(&mut compile, "main.c", &strings(&["main.c"])).unwrap_err();
        assert!(err.starts_with("main.c: "), "{err}");
    }

    #[test]
    fn a_failed_probe_is_tried_again_after_a_while_and_a_success_is_kept() {
        let probe = Probe {
            memo: Mutex::new(None),
            retry_after: Duration::ZERO,
        };
        let calls = Cell::new(0);
        let flaky = || {
            calls.set(calls.get() + 1);
            if calls.get() == 1 {
                Err("transient".to_string())
            } else {
                Ok(calls.get())
            }
        };
        assert_eq!(probe.get_or(flaky), Err("transient".to_string()));
        assert_eq!(probe.get_or(flaky), Ok(2));
        assert_eq!(probe.get_or(flaky), Ok(2), "a success is not probed again");
        assert_eq!(calls.get(), 2);
    }

    #[test]
    fn a_compile_failure_is_the_sources_or_the_machines() {
        use sandbox::Termination::*;
        let limits = CompileLimits::default();
        let work = std::env::temp_dir();
        // (how it ended, CPU ms, the compiler's messages, last try) and
        // who failed it: "cached" (the compiler's own verdict), "CE"
        // (a limit the source plausibly met) or "machine".
        let table = [
            (
                Exited(1),
                0,
                "main.cpp:1: error: expected ';'",
                false,
                "cached",
            ),
            (CpuTimeout, 10_000, "", false, "CE"),
            (MemoryExceeded, 100, "", false, "CE"),
            (OutputExceeded, 100, "", false, "CE"),
            // Starved past its wall clock: the machine's.
            (WallTimeout, 300, "", false, "machine"),
            (WallTimeout, 300, "", true, "machine"),
            // Busy the whole time: a template bomb.
            (WallTimeout, 9_500, "", false, "CE"),
            (Signaled(libc::SIGKILL), 100, "", true, "machine"),
            (Signaled(libc::SIGSEGV), 100, "", false, "machine"),
            // A crash on every try: one the source triggers.
            (Signaled(libc::SIGSEGV), 100, "", true, "CE"),
            // The box's own /tmp filled, the judge's disk has room.
            (
                Exited(1),
                100,
                "fatal error: No space left on device",
                false,
                "CE",
            ),
        ];
        for (termination, cpu_ms, log, last, want) in table {
            let outcome = sandbox::Outcome {
                termination,
                cpu_ms,
                wall_ms: 20_000,
                memory_kib: 0,
                measured_by: sandbox::Measurement::Rusage,
            };
            let failure = Failure {
                language: "cpp",
                outcome: &outcome,
                log: Path::new("/nonexistent"),
                work: &work,
                last,
            };
            let got = match failure.cause(log, &limits) {
                Cause::Source(None) => "cached",
                Cause::Source(Some(_)) => "CE",
                Cause::Machine(_) => "machine",
            };
            assert_eq!(
                got, want,
                "{termination:?} after {cpu_ms} ms, last try {last}"
            );
        }
    }

    #[test]
    fn only_an_executable_is_a_runnable_program() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, bytes: &[u8], mode: u32| {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
            p
        };
        // What rustc writes for `#![crate_type = "lib"]`: an archive.
        assert!(!is_runnable(&write("lib", b"!<arch>\nlib.rmeta/", 0o755)));
        let mut elf = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0".to_vec();
        assert!(is_runnable(&write("pie", &elf, 0o755)));
        assert!(!is_runnable(&write("noexec", &elf, 0o644)));
        elf[16] = 1; // ET_REL: an object file
        assert!(!is_runnable(&write("object", &elf, 0o755)));
        assert!(is_runnable(&write("script", b"#!/bin/sh\n", 0o755)));
        assert!(!is_runnable(&dir.path().join("missing")));
    }

    #[test]
    fn a_class_is_declared_only_under_its_whole_name() {
        assert!(declares_class(b"public class Root {", "Root"));
        assert!(declares_class(b"class Root{}", "Root"));
        assert!(!declares_class(b"public class Rooted {", "Root"));
        assert!(!declares_class(b"public class Main {", "Root"));
    }

    #[test]
    fn a_failed_probe_is_believed_for_a_while() {
        let probe: Probe<u32> = Probe::default();
        assert!(probe.get_or(|| Err("down".into())).is_err());
        assert_eq!(probe.get_or(|| Ok(1)), Err("down".to_string()));
    }
}
