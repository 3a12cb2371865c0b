//! The typed configuration tree, loaded once from `config.toml` and passed
//! down. Each layer receives only its own part: the sandbox and judge get
//! [`Limits`] and [`CompileLimits`], the language layer gets
//! [`LanguageConfig`]s, the store gets the database URL.
//!
//! Unknown keys are rejected with their name (`deny_unknown_fields`), so a
//! typo never silently falls back to a default. Relative paths are resolved
//! against the directory of the configuration file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// Errors while loading the configuration.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("reading {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Parse { path: PathBuf, message: String },
}

/// The whole configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Generated tests, compiled programs and the default database (default `var`).
    #[serde(default = "default_data_dir")]
    pub data_dir: PathBuf,
    /// The problem packages, one directory each (default `problems`).
    #[serde(default = "default_problems_dir")]
    pub problems_dir: PathBuf,
    /// The database: a SQLite URL (default: `sqlite://<data_dir>/grundy.db`)
    /// or a PostgreSQL one (`postgres://user@host/db`), for judges whose
    /// workers run on many machines. `$GRUNDY_DATABASE_URL` overrides it.
    #[serde(default)]
    pub database_url: Option<String>,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default)]
    pub compile: CompileLimits,
    #[serde(default)]
    pub sandbox: SandboxConfig,
    #[serde(default)]
    pub server: ServerConfig,
    #[serde(default)]
    pub timing: TimingConfig,
    /// Languages by id (`cpp`, `python`, ...).
    #[serde(default)]
    pub languages: BTreeMap<String, LanguageConfig>,
}

/// Limits of every submission's run beyond the problem's own time and
/// memory limits (which every `problem.toml` sets).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Wall-clock limit as a multiple of the CPU limit (default 3.0).
    pub wall_factor: f64,
    /// MiB of standard output per run (default 64).
    pub output_limit: u64,
    /// KiB of source code accepted per submission (default 256).
    pub source_limit: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall_factor: 3.0,
            output_limit: 64,
            source_limit: 256,
        }
    }
}

/// Limits for compilers and the program cache.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CompileLimits {
    /// Seconds of CPU time per compilation, every process of the compiler
    /// included (default 10): a template or macro bomb is stopped here,
    /// not by the wall clock.
    pub cpu_limit: f64,
    /// Seconds of wall-clock time per compilation (default 20).
    pub time_limit: f64,
    /// MiB of memory (default 2048).
    pub memory_limit: u64,
    /// KiB of compiler messages kept (default 64).
    pub output_limit: u64,
    /// MiB a compiled program may take on disk, every file of it together
    /// (default 64); any single file the compiler writes is cut there too.
    pub program_limit: u64,
    /// MiB of the whole program cache (default 4096); beyond it the least
    /// recently used entries are removed.
    pub cache_limit: u64,
}

impl Default for CompileLimits {
    fn default() -> Self {
        CompileLimits {
            cpu_limit: 10.0,
            time_limit: 20.0,
            memory_limit: 2048,
            output_limit: 64,
            program_limit: 64,
            cache_limit: 4096,
        }
    }
}

/// How untrusted programs are isolated and measured (`[sandbox]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SandboxConfig {
    /// `auto` (default): the best namespace tier this machine allows, and
    /// refuse to run anything when none works (fail closed); `namespaces`:
    /// the same; `none`: rlimits and a process group only (insecure: for
    /// trusted code or broken hosts; also what the `--insecure` flag asks).
    pub isolation: Isolation,
    /// `auto` (default): cgroup v2, else cgroup v1, else rusage; or force
    /// one of `cgroup-v2`, `cgroup-v1`, `rusage`.
    pub measurement: MeasurementChoice,
    /// Host uid (and gid) a box runs as when the judge runs as root
    /// (default 60000, a uid that owns nothing). Unprivileged judges run
    /// boxes as themselves.
    pub uid: u32,
    /// Host paths every box sees read-only (default: `/usr`, `/bin`, `/lib`,
    /// `/lib64`, `/lib32`, `/sbin`, `/etc/ld.so.cache`, `/etc/alternatives`;
    /// missing ones are skipped). Languages add their own (`paths`).
    pub paths: Vec<PathBuf>,
    /// MiB of the box's private `/tmp` (default 64); what is written there
    /// also counts towards the memory limit where cgroups measure.
    pub tmp_size: u64,
    /// Programs run at once by the whole judge, every worker, compiler
    /// and generator included (default 0: one per core).
    pub slots: usize,
}

/// The isolation requested in `[sandbox] isolation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    Auto,
    Namespaces,
    None,
}

/// The measurement requested in `[sandbox] measurement`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MeasurementChoice {
    Auto,
    CgroupV2,
    CgroupV1,
    Rusage,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            isolation: Isolation::Auto,
            measurement: MeasurementChoice::Auto,
            uid: 60000,
            paths: [
                "/usr",
                "/bin",
                "/lib",
                "/lib64",
                "/lib32",
                "/sbin",
                "/etc/ld.so.cache",
                "/etc/alternatives",
            ]
            .iter()
            .map(PathBuf::from)
            .collect(),
            tmp_size: 64,
            slots: 0,
        }
    }
}

/// Fair timing across the judge's workers (`[timing]`, used by `grundy
/// serve` and `grundy worker`; a local `grundy submit` ignores it). See
/// `docs/timing.md`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TimingConfig {
    /// Scale every time limit by the worker's speed factor (default true).
    /// The factor is 1 while the live workers' calibrations differ by no
    /// more than `spread`.
    pub fair: bool,
    /// The reference speed: milliseconds of CPU the calibration program
    /// takes on the machine the problems' limits were set on (default 0:
    /// the fastest live worker is the reference).
    pub reference_ms: f64,
    /// The largest difference in speed that is ignored (default 0.05: 5%).
    pub spread: f64,
    /// A verdict decided within this fraction of the limit (an AC using at
    /// least `1 - margin` of it, a TLE within `1 + margin`) is judged once
    /// more, on another worker where there is one (default 0.10; 0: never).
    pub rerun_margin: f64,
    /// Runs of the calibration program at a worker's start; their median
    /// is its speed (default 5; 0: not calibrated, factor 1).
    pub calibration_runs: u32,
}

impl Default for TimingConfig {
    fn default() -> Self {
        TimingConfig {
            fair: true,
            reference_ms: 0.0,
            spread: 0.05,
            rerun_margin: 0.10,
            calibration_runs: 5,
        }
    }
}

/// The hosted judge (`[server]`, used by `grundy serve`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Address to listen on (default `127.0.0.1:8080`; `--bind` overrides).
    pub bind: String,
    /// Judge workers in the server (default 0: one per core; `--workers`
    /// overrides).
    pub workers: usize,
    /// Seconds a worker's claim on a submission lasts unrenewed (default
    /// 30; renewed every third of it while judging). After a crash, a
    /// submission is judged again once its lease has expired.
    pub lease_seconds: f64,
    /// Submissions one user may make per minute (default 10; 0: no limit).
    pub submissions_per_minute: u32,
    /// Marks the web pages' cookies `Secure` (default false): set it when
    /// the judge is reached over HTTPS (behind a proxy that terminates it).
    pub secure_cookies: bool,
    /// Submissions of one user waiting to be judged at once (default 5; 0:
    /// no limit); rejudges are not counted.
    pub max_waiting: u32,
    /// Failed sign-ins for one account name before it must wait (default 5).
    pub signin_failures_per_name: u32,
    /// Failed sign-ins from one client address before it must wait
    /// (default 30: behind a proxy, every visitor shares its address).
    pub signin_failures_per_address: u32,
    /// The first wait after too many failed sign-ins, doubled by each
    /// further failure up to an hour (default 30).
    pub signin_backoff_seconds: f64,
    /// Passwords hashed at once, each with 19 MiB (default 0: one per core);
    /// a sign-in that finds them all busy for 2 s is told to retry (503).
    pub password_hashers: usize,
    /// Seconds a connection may take to send a request's head, and may sit
    /// idle between requests, before it is closed (default 10).
    pub header_timeout_seconds: f64,
    /// Connections served at once (default 1024); more wait to be accepted.
    pub max_connections: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            bind: "127.0.0.1:8080".into(),
            workers: 0,
            lease_seconds: 30.0,
            submissions_per_minute: 10,
            secure_cookies: false,
            max_waiting: 5,
            signin_failures_per_name: 5,
            signin_failures_per_address: 30,
            signin_backoff_seconds: 30.0,
            password_hashers: 0,
            header_timeout_seconds: 10.0,
            max_connections: 1024,
        }
    }
}

/// How to compile and run one language.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageConfig {
    /// Human-readable name, e.g. "C++17 (g++)".
    pub name: String,
    /// File extensions (without the dot) that select this language.
    pub extensions: Vec<String>,
    /// The file name the source is saved as before compiling (e.g. `Main.java`).
    pub source: String,
    /// Compile command, run in the directory holding the source; empty for none.
    #[serde(default)]
    pub compile: Vec<String>,
    /// Run command; `{dir}` is the compiled program's directory,
    /// `{memory_mib}` the memory limit.
    pub run: Vec<String>,
    /// Command printing the toolchain's version.
    #[serde(default)]
    pub version: Vec<String>,
    /// Command printing the toolchain's root directory (e.g. `rustc --print
    /// sysroot`), run once outside the box; its output replaces
    /// `{toolchain}` in `compile`, `run`, `version` and `paths`, so a box
    /// can use the real toolchain without seeing a version manager's home.
    #[serde(default)]
    pub toolchain: Vec<String>,
    /// Command run once per toolchain version, in a box whose working
    /// directory is kept under the data directory (e.g. to build a
    /// precompiled header); that directory fills `{prepared}` in `compile`
    /// and is visible read-only to compilations. If it fails, compile
    /// arguments naming `{prepared}` are dropped.
    #[serde(default)]
    pub prepare: Vec<String>,
    /// Host paths the box must see read-only to compile and run this
    /// language (its installation, when outside the system paths of
    /// `[sandbox]`).
    #[serde(default)]
    pub paths: Vec<String>,
    /// The exit status by which this language's runtime reports that it
    /// ran out of its own memory limit (Java with
    /// `-XX:+ExitOnOutOfMemoryError` exits 3): the judge calls it MLE,
    /// as it does when the kernel stops a program at the limit.
    #[serde(default)]
    pub memory_exit_code: Option<i32>,
    /// Multiplier on the problem's time limit (default 1.0).
    #[serde(default = "one")]
    pub time_factor: f64,
}

fn one() -> f64 {
    1.0
}

fn default_problems_dir() -> PathBuf {
    PathBuf::from("problems")
}

fn default_data_dir() -> PathBuf {
    PathBuf::from("var")
}

/// The configuration built in: the repository's `config.toml`, with its
/// relative paths under the user's data directory.
const BUILT_IN: &str = include_str!("../config.toml");

impl Config {
    /// Finds and loads the configuration: `explicit` (`--config`), else
    /// `$GRUNDY_CONFIG`, else `./config.toml`, else the user's
    /// `$XDG_CONFIG_HOME/grundy/config.toml` (`~/.config/grundy/...`),
    /// else the built-in defaults with data and problems under the user's
    /// data directory (`$XDG_DATA_HOME/grundy`, `~/.local/share/grundy`).
    /// The environment is read here and nowhere deeper.
    ///
    /// # Errors
    /// A named file (by `--config` or `$GRUNDY_CONFIG`) that cannot be
    /// loaded; a found file that is invalid.
    pub fn discover(explicit: Option<&Path>) -> Result<Config, Error> {
        if let Some(path) = explicit {
            return Config::load(path);
        }
        if let Some(path) = std::env::var_os("GRUNDY_CONFIG").filter(|p| !p.is_empty()) {
            return Config::load(Path::new(&path));
        }
        let local = Path::new("config.toml");
        if local.is_file() {
            return Config::load(local);
        }
        if let Some(path) = user_config_dir().map(|d| d.join("config.toml")) {
            if path.is_file() {
                return Config::load(&path);
            }
        }
        let base = user_data_dir().unwrap_or_else(|| PathBuf::from("/var/lib/grundy"));
        Config::parse(BUILT_IN, &base).map_err(|message| Error::Parse {
            path: PathBuf::from("(built-in configuration)"),
            message,
        })
    }

    /// Loads and validates the configuration at `path`.
    ///
    /// # Errors
    /// When the file cannot be read, is not valid TOML, has an unknown key,
    /// or a value is out of range.
    pub fn load(path: &Path) -> Result<Config, Error> {
        let text = std::fs::read_to_string(path).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        // Programs run in other directories: every path must be absolute.
        let base = std::path::absolute(parent).map_err(|source| Error::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::parse(&text, &base).map_err(|message| Error::Parse {
            path: path.to_path_buf(),
            message,
        })
    }

    /// Parses configuration text; relative paths are taken from `base`.
    ///
    /// # Errors
    /// A one-line message naming the offending key.
    pub fn parse(text: &str, base: &Path) -> Result<Config, String> {
        let mut config: Config = toml::from_str(text).map_err(|e| one_line(&e.to_string()))?;
        if config.data_dir.is_relative() {
            config.data_dir = base.join(&config.data_dir);
        }
        if config.problems_dir.is_relative() {
            config.problems_dir = base.join(&config.problems_dir);
        }
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), String> {
        let l = &self.limits;
        if l.wall_factor < 1.0 || !l.wall_factor.is_finite() {
            return Err("limits.wall_factor must be at least 1".into());
        }
        if l.output_limit == 0 || l.source_limit == 0 {
            return Err("limits: output_limit and source_limit must be positive".into());
        }
        let c = &self.compile;
        for (key, secs) in [("cpu_limit", c.cpu_limit), ("time_limit", c.time_limit)] {
            if !(secs > 0.0 && secs.is_finite()) {
                return Err(format!(
                    "compile.{key} must be a positive number of seconds"
                ));
            }
        }
        if c.program_limit == 0 || c.cache_limit < c.program_limit {
            return Err(
                "compile: program_limit must be positive and cache_limit at least as large".into(),
            );
        }
        let lease = self.server.lease_seconds;
        if !(lease >= 0.3 && lease.is_finite()) {
            return Err("server.lease_seconds must be at least 0.3".into());
        }
        let s = &self.server;
        if !(s.header_timeout_seconds > 0.0 && s.header_timeout_seconds <= 3600.0) {
            return Err("server.header_timeout_seconds must be above 0 and at most 3600".into());
        }
        if !(s.signin_backoff_seconds > 0.0 && s.signin_backoff_seconds <= 3600.0) {
            return Err("server.signin_backoff_seconds must be above 0 and at most 3600".into());
        }
        if s.max_connections == 0 {
            return Err("server.max_connections must be positive".into());
        }
        let t = &self.timing;
        if !(t.reference_ms >= 0.0 && t.reference_ms.is_finite()) {
            return Err("timing.reference_ms must be 0 (the fastest worker) or positive".into());
        }
        if !(t.spread >= 0.0 && t.spread <= 1.0) {
            return Err("timing.spread must be from 0 to 1".into());
        }
        if !(t.rerun_margin >= 0.0 && t.rerun_margin <= 1.0) {
            return Err("timing.rerun_margin must be from 0 to 1".into());
        }
        if t.calibration_runs > 101 {
            return Err("timing.calibration_runs must be at most 101".into());
        }
        if self.sandbox.tmp_size == 0 {
            return Err("sandbox.tmp_size must be positive".into());
        }
        if self.sandbox.uid == 0 {
            return Err("sandbox.uid must not be 0 (boxes never run as root)".into());
        }
        if let Some(p) = self.sandbox.paths.iter().find(|p| p.is_relative()) {
            return Err(format!("sandbox.paths: {} must be absolute", p.display()));
        }
        let mut seen = BTreeMap::new();
        for (id, lang) in &self.languages {
            if lang.run.is_empty() {
                return Err(format!("languages.{id}.run must not be empty"));
            }
            if lang.source.is_empty() || lang.source.contains('/') {
                return Err(format!("languages.{id}.source must be a plain file name"));
            }
            if !(lang.time_factor > 0.0 && lang.time_factor.is_finite()) {
                return Err(format!("languages.{id}.time_factor must be positive"));
            }
            for ext in &lang.extensions {
                if let Some(other) = seen.insert(ext.clone(), id.clone()) {
                    return Err(format!(
                        "languages.{id}.extensions: .{ext} is already claimed by {other}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// The database URL in force: `$GRUNDY_DATABASE_URL` where set, else
    /// `database_url`, else SQLite in the data directory.
    pub fn database_url(&self) -> String {
        if let Some(url) = std::env::var("GRUNDY_DATABASE_URL")
            .ok()
            .filter(|u| !u.is_empty())
        {
            return url;
        }
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("grundy.db").display()),
        }
    }
}

/// The user's grundy configuration directory: `$XDG_CONFIG_HOME/grundy`,
/// else `~/.config/grundy` (also where `grundy login` keeps tokens).
pub fn user_config_dir() -> Option<PathBuf> {
    xdg_dir("XDG_CONFIG_HOME", ".config")
}

/// The user's grundy data directory: `$XDG_DATA_HOME/grundy`, else
/// `~/.local/share/grundy`.
pub fn user_data_dir() -> Option<PathBuf> {
    xdg_dir("XDG_DATA_HOME", ".local/share")
}

fn xdg_dir(var: &str, under_home: &str) -> Option<PathBuf> {
    let absolute = |p: PathBuf| p.is_absolute().then_some(p);
    std::env::var_os(var)
        .map(PathBuf::from)
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .map(PathBuf::from)
                .and_then(absolute)
                .map(|h| h.join(under_home))
        })
        .map(|d| d.join("grundy"))
}

/// The token `grundy login` stored for a server, if any.
pub fn stored_token(server: &str) -> Option<String> {
    let path = user_config_dir()?.join("credentials.toml");
    let text = std::fs::read_to_string(path).ok()?;
    let table: BTreeMap<String, String> = toml::from_str(&text).ok()?;
    table.get(server.trim_end_matches('/')).cloned()
}

/// The token from the environment (`GRUNDY_TOKEN`), if set.
pub fn env_token() -> Option<String> {
    std::env::var("GRUNDY_TOKEN").ok().filter(|t| !t.is_empty())
}

/// TOML errors span several lines (with a source excerpt); we report one.
fn one_line(message: &str) -> String {
    let mut lines = message.lines().filter(|l| !l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid TOML").trim().to_string();
    let last = message
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    if last.is_empty() || last == first {
        first
    } else {
        format!("{first}: {last}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_config_takes_every_default() {
        let c = Config::parse("", Path::new("/srv")).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("/srv/var"));
        assert_eq!(c.limits.output_limit, 64);
        assert_eq!(c.database_url(), "sqlite:///srv/var/grundy.db");
    }

    #[test]
    fn unknown_key_is_rejected_by_name() {
        let err = Config::parse("[limits]\nwall_factr = 2.0\n", Path::new(".")).unwrap_err();
        assert!(err.contains("wall_factr"), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }

    #[test]
    fn duplicate_extension_is_rejected() {
        let text = r#"
            [languages.a]
            name = "A"
            extensions = ["x"]
            source = "a.x"
            run = ["a"]
            [languages.b]
            name = "B"
            extensions = ["x"]
            source = "b.x"
            run = ["b"]
        "#;
        let err = Config::parse(text, Path::new(".")).unwrap_err();
        assert!(err.contains(".x is already claimed"), "{err}");
    }

    #[test]
    fn timing_defaults_and_bad_values_are_named() {
        let c = Config::parse("", Path::new(".")).unwrap();
        let t = &c.timing;
        assert!(t.fair);
        assert_eq!(
            (t.reference_ms, t.spread, t.rerun_margin),
            (0.0, 0.05, 0.10)
        );
        assert_eq!(t.calibration_runs, 5);
        for (text, key) in [
            ("rerun_margin = 1.5", "timing.rerun_margin"),
            ("spread = -0.1", "timing.spread"),
            ("reference_ms = -3", "timing.reference_ms"),
            ("calibration_runs = 1000", "timing.calibration_runs"),
        ] {
            let err = Config::parse(&format!("[timing]\n{text}\n"), Path::new(".")).unwrap_err();
            assert!(err.contains(key), "{text}: {err}");
        }
    }

    #[test]
    fn a_wall_factor_below_one_is_rejected() {
        let err = Config::parse("[limits]\nwall_factor = 0.5\n", Path::new(".")).unwrap_err();
        assert!(err.contains("limits.wall_factor"), "{err}");
    }

    #[test]
    fn limits_that_every_problem_sets_are_not_configuration() {
        let err = Config::parse("[limits]\ntime_limit = 2.0\n", Path::new(".")).unwrap_err();
        assert!(err.contains("time_limit"), "{err}");
    }

    #[test]
    fn sandbox_section_defaults_to_the_best_tier() {
        let c = Config::parse("", Path::new("/")).unwrap();
        assert_eq!(c.sandbox.isolation, Isolation::Auto);
        assert_eq!(c.sandbox.measurement, MeasurementChoice::Auto);
        assert!(c.sandbox.paths.contains(&PathBuf::from("/usr")));
        let c = Config::parse(
            "[sandbox]\nisolation = \"namespaces\"\nmeasurement = \"cgroup-v1\"\n",
            Path::new("/"),
        )
        .unwrap();
        assert_eq!(c.sandbox.isolation, Isolation::Namespaces);
        assert_eq!(c.sandbox.measurement, MeasurementChoice::CgroupV1);
    }

    #[test]
    fn sandbox_root_uid_and_relative_paths_are_rejected() {
        let err = Config::parse("[sandbox]\nuid = 0\n", Path::new("/")).unwrap_err();
        assert!(err.contains("sandbox.uid"), "{err}");
        let err = Config::parse("[sandbox]\npaths = [\"usr\"]\n", Path::new("/")).unwrap_err();
        assert!(err.contains("must be absolute"), "{err}");
        let err = Config::parse("[sandbox]\nisolation = \"chroot\"\n", Path::new("/")).unwrap_err();
        assert!(err.contains("chroot"), "{err}");
    }

    #[test]
    fn built_in_defaults_put_data_under_the_base() {
        let c = Config::parse(BUILT_IN, Path::new("/home/ann/.local/share/grundy")).unwrap();
        assert_eq!(
            c.problems_dir,
            PathBuf::from("/home/ann/.local/share/grundy/problems")
        );
        assert!(c.languages.contains_key("cpp"));
        assert_eq!(c.server.submissions_per_minute, 10);
    }

    #[test]
    fn shipped_config_parses() {
        let text = include_str!("../config.toml");
        let c = Config::parse(text, Path::new(".")).unwrap();
        for id in ["c", "cpp", "rust", "python", "java"] {
            assert!(c.languages.contains_key(id), "missing language {id}");
        }
    }
}
