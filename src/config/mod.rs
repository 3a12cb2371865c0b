//! The typed configuration tree, loaded once from `config.toml` and passed
//! down. Each layer receives only its own part: the sandbox and judge get
//! [`Limits`] and [`CompileLimits`], the language layer gets
//! [`LanguageConfig`]s, the store gets the database URL.
//!
//! Unknown keys are rejected with their name (`deny_unknown_fields`), so a
//! typo never silently falls back to a default. A file is laid over the
//! built-in configuration and sets only what it changes: a relative path it
//! sets (`data_dir`, `problems_dir`, a SQLite `database_url`) is taken from
//! the file's directory, and a path it leaves out keeps its built-in place
//! under the user's data directory (`~/.local/share/grundy`).

mod sections;
mod user;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

pub use sections::{
    CompileLimits, Isolation, LanguageConfig, Limits, MeasurementChoice, SandboxConfig,
    ServerConfig, TimingConfig,
};
pub use user::{env_token, stored_token, user_config_dir, user_data_dir};

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

fn default_problems_dir() -> PathBuf {
    PathBuf::from("problems")
}

fn default_data_dir() -> PathBuf {
    PathBuf::from("var")
}

/// The configuration built in: the repository's `config.toml`, with its
/// relative paths under the user's data directory.
const BUILT_IN: &str = include_str!("../../config.toml");

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
        Config::parse(BUILT_IN, &default_base()).map_err(|message| Error::Parse {
            path: PathBuf::from("(built-in configuration)"),
            message,
        })
    }

    /// Loads and validates the configuration at `path`, laid over the
    /// built-in one: relative paths the file sets are taken from its
    /// directory, those it leaves out stay under the user's data directory.
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
        Config::parse_in(&text, &base, &default_base()).map_err(|message| Error::Parse {
            path: path.to_path_buf(),
            message,
        })
    }

    /// Parses configuration text; every relative path, the text's and the
    /// built-in ones alike, is taken from `base`. (What a file on disk
    /// means is [`Config::parse_in`]'s.)
    ///
    /// # Errors
    /// A one-line message naming the offending key.
    pub fn parse(text: &str, base: &Path) -> Result<Config, String> {
        Config::parse_in(text, base, base)
    }

    /// Parses the text of a configuration file in `file_dir`. The text is
    /// laid over the built-in configuration (the repository's
    /// `config.toml`), never in place of it: see [`overlay`]. A relative
    /// path the text sets is taken from `file_dir`; one it leaves to the
    /// built-in configuration is taken from `defaults_dir`, so a file that
    /// sets only `database_url` moves nothing.
    ///
    /// # Errors
    /// A one-line message naming the offending key.
    pub fn parse_in(text: &str, file_dir: &Path, defaults_dir: &Path) -> Result<Config, String> {
        let defaults: toml::Table = BUILT_IN.parse().map_err(|e: toml::de::Error| {
            format!("the built-in configuration: {}", one_line(&e.to_string()))
        })?;
        let mine: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| one_line(&e.to_string()))?;
        let base = |key: &str| match mine.contains_key(key) {
            true => file_dir.to_path_buf(),
            false => defaults_dir.to_path_buf(),
        };
        let (data_base, problems_base) = (base("data_dir"), base("problems_dir"));
        let merged = overlay(defaults, mine);
        let mut config: Config = toml::Value::Table(merged)
            .try_into()
            .map_err(|e: toml::de::Error| one_line(&e.to_string()))?;
        if config.data_dir.is_relative() {
            config.data_dir = data_base.join(&config.data_dir);
        }
        if config.problems_dir.is_relative() {
            config.problems_dir = problems_base.join(&config.problems_dir);
        }
        if let Some(url) = &config.database_url {
            config.database_url = Some(sqlite_from(url, file_dir));
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
        if c.space_limit < c.program_limit {
            return Err("compile: space_limit must be at least program_limit".into());
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
        if s.max_feeds == 0 || s.feeds_per_address == 0 {
            return Err("server.max_feeds and server.feeds_per_address must be positive".into());
        }
        if !(1..=4096).contains(&s.upload_limit_mib) {
            return Err("server.upload_limit_mib must be from 1 to 4096".into());
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
        let (mut seen, mut clics_ids) = (BTreeMap::new(), BTreeMap::new());
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
            if let Some(clics) = &lang.clics_id {
                if let Some(other) = clics_ids.insert(clics.clone(), id.clone()) {
                    return Err(format!(
                        "languages.{id}.clics_id: {clics:?} is already {other}'s"
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

/// Where the built-in configuration's relative paths are taken from: the
/// user's data directory (`$XDG_DATA_HOME/grundy`, `~/.local/share/grundy`),
/// else `/var/lib/grundy` for a process with no home.
fn default_base() -> PathBuf {
    user_data_dir().unwrap_or_else(|| PathBuf::from("/var/lib/grundy"))
}

/// A SQLite URL with a relative file (`sqlite://var/grundy.db`) made to
/// name that file under `dir`, as every other path of a file is; other URLs
/// (absolute, in memory, PostgreSQL) are returned as they are.
fn sqlite_from(url: &str, dir: &Path) -> String {
    let rest = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"));
    match rest {
        Some(file) if !file.is_empty() && !file.starts_with(['/', ':', '?']) => {
            format!("sqlite://{}", dir.join(file).display())
        }
        _ => url.to_string(),
    }
}

/// `mine` laid over `defaults`, table by table at every depth: a key
/// `mine` sets replaces the default's value (an array whole), a table it
/// sets is merged into the default's table of that name, and everything
/// it leaves out keeps its default. So a file holding only `database_url`
/// keeps every built-in language, and `[languages.rust]` with only
/// `compile` keeps the rest of the built-in Rust. Knows no key by name:
/// a section or field added to `config.toml` is merged the same way.
pub fn overlay(mut defaults: toml::Table, mine: toml::Table) -> toml::Table {
    for (key, value) in mine {
        match (defaults.get_mut(&key), value) {
            (Some(toml::Value::Table(base)), toml::Value::Table(over)) => {
                let base = std::mem::take(base);
                defaults.insert(key, toml::Value::Table(overlay(base, over)));
            }
            (_, value) => {
                defaults.insert(key, value);
            }
        }
    }
    defaults
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
        assert_eq!((t.calibration_runs, t.recalibrate_seconds), (5, 600));
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
    fn a_partial_file_keeps_the_built_in_languages_and_sections() {
        let c = Config::parse(
            "database_url = \"postgres://judge@db/grundy\"\ndata_dir = \"/srv/w\"\n",
            Path::new("/etc/grundy"),
        )
        .unwrap();
        assert_eq!(c.data_dir, PathBuf::from("/srv/w"));
        assert_eq!(
            c.database_url.as_deref(),
            Some("postgres://judge@db/grundy")
        );
        let built_in = Config::parse(BUILT_IN, Path::new("/")).unwrap();
        assert_eq!(
            c.languages.keys().collect::<Vec<_>>(),
            built_in.languages.keys().collect::<Vec<_>>()
        );
        assert!(c.languages.contains_key("c") && c.languages.contains_key("python"));
        assert_eq!(c.compile.cache_limit, built_in.compile.cache_limit);
    }

    /// Issue 47: `~/.config/grundy/config.toml` holding only `database_url`
    /// left `data_dir` and `problems_dir` under `~/.config/grundy`; they stay
    /// where the built-in configuration puts them.
    #[test]
    fn a_file_with_only_database_url_moves_no_directory() {
        let (file_dir, home) = (
            Path::new("/home/ann/.config/grundy"),
            Path::new("/home/ann/.local/share/grundy"),
        );
        let c = Config::parse_in(
            "database_url = \"postgres://judge@db/grundy\"\n",
            file_dir,
            home,
        )
        .unwrap();
        assert_eq!(c.problems_dir, home.join("problems"));
        assert_eq!(c.data_dir, home.join("var"));
        assert_eq!(c.database_url(), "postgres://judge@db/grundy");
        let built_in = Config::parse(BUILT_IN, home).unwrap();
        assert_eq!(
            (&c.data_dir, &c.problems_dir),
            (&built_in.data_dir, &built_in.problems_dir)
        );
    }

    #[test]
    fn relative_paths_a_file_sets_are_taken_from_its_directory() {
        let (file_dir, home) = (
            Path::new("/srv/judge"),
            Path::new("/home/ann/.local/share/grundy"),
        );
        let c = Config::parse_in("problems_dir = \"set\"\n", file_dir, home).unwrap();
        assert_eq!(c.problems_dir, PathBuf::from("/srv/judge/set"));
        assert_eq!(c.data_dir, home.join("var"), "what the file left out stays");
        assert_eq!(
            c.database_url(),
            "sqlite:///home/ann/.local/share/grundy/var/grundy.db"
        );
        let c = Config::parse_in("data_dir = \"/abs\"\n", file_dir, home).unwrap();
        assert_eq!(c.data_dir, PathBuf::from("/abs"));
        assert_eq!(c.problems_dir, home.join("problems"));
    }

    #[test]
    fn a_relative_sqlite_file_is_taken_from_the_file_directory() {
        let dir = Path::new("/srv/judge");
        for (url, want) in [
            ("sqlite://var/g.db", "sqlite:///srv/judge/var/g.db"),
            (
                "sqlite:var/g.db?mode=rwc",
                "sqlite:///srv/judge/var/g.db?mode=rwc",
            ),
            ("sqlite:///abs/g.db", "sqlite:///abs/g.db"),
            ("sqlite::memory:", "sqlite::memory:"),
            ("postgres://u@h/db", "postgres://u@h/db"),
        ] {
            assert_eq!(sqlite_from(url, dir), want, "{url}");
        }
    }

    #[test]
    fn a_language_is_overlaid_key_by_key_and_new_ones_join() {
        let text = r#"
            [languages.c]
            compile = ["/opt/gcc/bin/gcc", "-O2", "-o", "main", "main.c"]
            [languages.lua]
            name = "Lua"
            extensions = ["lua"]
            source = "main.lua"
            run = ["/usr/bin/lua", "main.lua"]
            [server]
            max_waiting = 7
        "#;
        let c = Config::parse(text, Path::new("/")).unwrap();
        let lang = &c.languages["c"];
        assert_eq!(lang.compile[0], "/opt/gcc/bin/gcc");
        // What the overlay left out is the built-in C's.
        assert_eq!(lang.extensions, vec!["c".to_string()]);
        assert_eq!(lang.name, "C17 (gcc)");
        assert!(c.languages.contains_key("lua") && c.languages.contains_key("cpp"));
        assert_eq!(c.server.max_waiting, 7);
        let built_in = Config::parse(BUILT_IN, Path::new("/")).unwrap();
        assert_eq!(c.server.lease_seconds, built_in.server.lease_seconds);
    }

    #[test]
    fn an_unknown_key_in_a_language_overlay_is_named() {
        let err = Config::parse(
            "[languages.c]
compiel = [\"gcc\"]
",
            Path::new("/"),
        )
        .unwrap_err();
        assert!(err.contains("compiel"), "{err}");
    }

    #[test]
    fn shipped_config_parses() {
        let text = include_str!("../../config.toml");
        let c = Config::parse(text, Path::new(".")).unwrap();
        for id in [
            "c",
            "cpp",
            "cpp17",
            "cpp20",
            "cpp23",
            "rust",
            "python",
            "pypy3",
            "java",
            "go",
            "javascript",
            "kotlin",
            "csharp",
            "haskell",
            "ocaml",
            "pascal",
            "ruby",
            "php",
        ] {
            assert!(c.languages.contains_key(id), "missing language {id}");
        }
        for (id, lang) in &c.languages {
            assert!(lang.kattis_id.is_some(), "{id} has no kattis_id");
            assert!(lang.clics_id.is_some(), "{id} has no clics_id");
        }
        assert_eq!(c.languages["python"].clics_id.as_deref(), Some("python3"));
    }

    #[test]
    fn a_clics_id_names_one_language() {
        let text = "[languages.a]\nname = \"A\"\nextensions = [\"a\"]\nsource = \"a\"\nrun = [\"a\"]\nclics_id = \"x\"\n\
                    [languages.b]\nname = \"B\"\nextensions = [\"b\"]\nsource = \"b\"\nrun = [\"b\"]\nclics_id = \"x\"\n";
        let err = Config::parse(text, Path::new("/")).unwrap_err();
        assert!(
            err.contains("languages.b.clics_id: \"x\" is already a's"),
            "{err}"
        );
    }
}
