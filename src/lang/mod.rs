//! Languages: how to compile and run a source, as `config.toml` says.
//! Knows the sandbox (every compiler runs in it, under the compile limits)
//! and the content-addressed program cache; knows nothing of tests,
//! checkers or verdicts.

mod cache;
mod compile;
mod failure;
pub mod scripted;
mod toolchain;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::config::LanguageConfig;
use crate::sandbox::{self, Bind, Runner};

pub use cache::ProgramCache;
use compile::compiler_run;
pub use compile::declares_class;
pub use toolchain::resolve;
use toolchain::Probe;

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
    /// A compilation the machine failed, not the source, as a trivial
    /// compile in the same language shows (it fails too, or is starved of
    /// CPU alike, or the judge's disk is full): retried, and the judge's
    /// fault (`IE`) if it persists.
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
    /// Where version lines are remembered between processes, if anywhere
    /// (see [`Language::version`]).
    remembered: Option<PathBuf>,
    toolchain: Probe<String>,
    prepared: Probe<PathBuf>,
}

/// Every configured language.
#[derive(Debug)]
pub struct Languages {
    by_id: BTreeMap<String, Arc<Language>>,
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
    /// Processes and threads a run may have at once (the language's
    /// runtime's needs).
    pub processes: u64,
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
        Languages::kept(configs, None)
    }

    /// The languages of `configs`, remembering their toolchains' version
    /// lines in `dir` between processes (see [`Language::version`]).
    pub fn remembering(configs: &BTreeMap<String, LanguageConfig>, dir: PathBuf) -> Languages {
        Languages::kept(configs, Some(dir))
    }

    fn kept(configs: &BTreeMap<String, LanguageConfig>, remembered: Option<PathBuf>) -> Languages {
        let by_id = configs
            .iter()
            .map(|(id, config)| {
                let lang = Language {
                    id: id.clone(),
                    config: config.clone(),
                    version: Probe::default(),
                    remembered: remembered.clone(),
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

    /// Whether the run command starts the program's own file (`{dir}/main`),
    /// not an interpreter given it: a file the box cannot execute is then
    /// the compile's doing, not the toolchain's.
    pub fn starts_itself(&self) -> bool {
        self.run.first().is_some_and(|a| a.starts_with("{dir}/"))
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
